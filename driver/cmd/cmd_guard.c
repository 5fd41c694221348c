// SPDX-License-Identifier: MIT
/*
 * cmd_guard: runs the data part of an op on system memory (memory the
 * driver did not map: malloc'ed, stack, the application's own mmap) so
 * that a fault on it fails the op instead of killing the process.
 *
 * Why a handler and not a probe: the driver cannot ask the kernel about
 * the protection of foreign memory cheaply. MADV_POPULATE_WRITE /
 * process_vm_writev probes cost 0.3 to 0.5 us per 4 KiB page (measured:
 * a 1 MiB copy of malloc'ed memory 5x slower, a 4 KiB one +1.3 us), which
 * every copy would pay for a case that almost never happens. Memory the
 * driver maps itself is checked without a handler: USM and IPC imports are
 * always read-write, VMM ranges are checked against their access
 * attribute (cmd_exec.c).
 *
 * Vocabulary:
 *   guard    a struct cmd_guard on the stack of the thread running the op:
 *            the byte ranges of the op's system-memory sides and a jump
 *            buffer. cmd_guard_arm() publishes it in a thread-local
 *            pointer; the handler only acts on faults of this thread, at
 *            an address inside an armed guard's ranges, and jumps back
 *            (cmd_guard_fault() then reports it). Every other SIGSEGV or
 *            SIGBUS goes to the handler that was installed before ours
 *            (the application's, a sanitizer's), or to the default action
 *            (the process dies as it would have without us).
 *   install  once, on the first guarded op (a process that never copies
 *            system memory keeps its handlers untouched). An application
 *            that installs its own handler later without chaining takes
 *            the faults back: copies into read-only system memory then
 *            crash as they did before this file.
 *
 * Bytes before the faulting page may have been written (as with a GPU
 * page fault); VMM ranges are refused before anything is written.
 * Workers run with every asynchronous signal blocked, the synchronous
 * ones (SIGSEGV, SIGBUS, SIGILL, SIGFPE) unblocked: a blocked synchronous
 * signal makes the kernel reset its handler and kill the process.
 *
 * No locks: sigaction under pthread_once, the rest is thread-local.
 */
#include "cmd.h"

#include <signal.h>
#include <string.h>

static pthread_once_t guard_once = PTHREAD_ONCE_INIT;
static bool guard_ok;
static struct sigaction old_segv, old_bus;
static _Thread_local struct cmd_guard *guard_cur;

static bool
in_guard(const struct cmd_guard *g, uintptr_t a)
{
	for (int k = 0; k < 2; k++)
		if (a >= g->lo[k] && a < g->hi[k])
			return true;
	return false;
}

/* Hands a fault that is not ours to whoever had it before. */
static void
chain(int sig, siginfo_t *si, void *uc)
{
	const struct sigaction *o = sig == SIGSEGV ? &old_segv : &old_bus;
	if ((o->sa_flags & SA_SIGINFO) && o->sa_sigaction) {
		o->sa_sigaction(sig, si, uc);
		return;
	}
	if (o->sa_handler != SIG_DFL && o->sa_handler != SIG_IGN &&
	    !(o->sa_flags & SA_SIGINFO)) {
		o->sa_handler(sig);
		return;
	}
	/* Default action: restore it; returning re-runs the faulting
	 * instruction, which now takes the process down as it would
	 * have. */
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
}

static void
handler(int sig, siginfo_t *si, void *uc)
{
	struct cmd_guard *g = guard_cur;
	if (g && g->armed && in_guard(g, (uintptr_t)si->si_addr)) {
		g->armed = 0;
		g->sig = sig;
		/* The handler runs with sig blocked; the jump does not restore
		 * the mask (saving it would cost every guarded op a system
		 * call): unblock it here. */
		sigset_t s;
		sigemptyset(&s);
		sigaddset(&s, sig);
		pthread_sigmask(SIG_UNBLOCK, &s, NULL);
		siglongjmp(g->jb, 1);
	}
	chain(sig, si, uc);
}

static void
guard_init(void)
{
	cmd_keep_loaded(); /* the handlers outlive any unload */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, &old_segv)) {
		u_warn("cmd", "cannot install a SIGSEGV handler: a copy into "
			      "read-only system memory will crash the process");
		return;
	}
	if (sigaction(SIGBUS, &sa, &old_bus)) {
		sigaction(SIGSEGV, &old_segv, NULL);
		u_warn("cmd", "cannot install a SIGBUS handler: a copy into "
			      "read-only system memory will crash the process");
		return;
	}
	guard_ok = true;
}

bool
cmd_guard_prepare(struct cmd_guard *g, const struct cmd_op *op)
{
	pthread_once(&guard_once, guard_init);
	if (!guard_ok)
		return false;
	for (int k = 0; k < 2; k++) {
		uint8_t bit = k ? CMD_SYS_SRC : CMD_SYS_DST;
		uintptr_t lo = 0, hi = 0;
		if (!(op->probe & bit) || !cmd_op_range(op, k, &lo, &hi))
			lo = hi = 0;
		g->lo[k] = lo;
		g->hi[k] = hi;
	}
	g->armed = 0;
	g->sig = 0;
	/* Touch the thread-local pointer now, so that the handler never
	 * makes the first access (which may allocate). */
	guard_cur = g;
	return true;
}

void
cmd_guard_done(struct cmd_guard *g)
{
	g->armed = 0;
	guard_cur = NULL;
}
