// SPDX-License-Identifier: MIT
/*
 * u_touch: whether an address range is memory this process may read or
 * write, asked by touching one byte of each page under a fault handler,
 * with no system call (u_touch.h says when to use it and its limits).
 *
 * The handler is installed once, for SIGSEGV and SIGBUS, on the first
 * probe, and stays. It acts only on a thread that is inside a probe (a
 * thread-local jump buffer is set): it jumps back to the probe, which
 * answers -EFAULT. Every other signal goes to the handler that was there
 * before ours, as that handler asked for it (SA_SIGINFO or not); a
 * default action is restored and the signal raised again, so a real
 * crash still dumps core or reaches the crash reporter that the program
 * (Python's faulthandler, a sanitizer) installed first.
 */
#include "u_touch.h"
#include "u_os.h"
#include "u_san.h"

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

/* Initial-exec: the handler reads it, and a global-dynamic variable of a
 * dlopened module may be allocated on its first use in a thread. */
static __thread sigjmp_buf *touch_jump
	__attribute__((tls_model("initial-exec")));

static struct sigaction touch_prev[2]; /* SIGSEGV's, SIGBUS's before ours */
static pthread_once_t touch_once = PTHREAD_ONCE_INIT;
static int touch_ready;

static void
touch_on_fault(int sig, siginfo_t *si, void *uc)
{
	sigjmp_buf *jump = touch_jump;
	if (jump) {
		/* a fault of the probe on this thread (signals from kill()
		 * are not told apart: one landing inside a probe's few
		 * loads makes it answer -EFAULT) */
		touch_jump = NULL;
		siglongjmp(*jump, 1);
	}
	const struct sigaction *prev = &touch_prev[sig == SIGBUS];
	if ((prev->sa_flags & SA_SIGINFO) && prev->sa_sigaction) {
		prev->sa_sigaction(sig, si, uc);
		return;
	}
	if (prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN) {
		prev->sa_handler(sig);
		return;
	}
	/* the default action, as if we had never been here: a fault
	 * returns to its instruction and faults again; a sent signal is
	 * sent again */
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(sig, &dfl, NULL);
	if (si->si_code <= 0)
		raise(sig);
}

static void
touch_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = touch_on_fault;
	/* NODEFER: leaving the handler by a jump leaves no signal blocked
	 * (sigsetjmp with no mask saved costs no system call); ONSTACK: a
	 * stack overflow still reaches the previous handler's alternate
	 * stack */
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, &touch_prev[0]))
		return;
	if (sigaction(SIGBUS, &sa, &touch_prev[1])) {
		sigaction(SIGSEGV, &touch_prev[0], NULL);
		return;
	}
	touch_ready = 1;
}

/* The loads and stores are of memory the compiler knows nothing of: no
 * sanitizer may check them (a wild address is the point). */
__attribute__((noinline, no_sanitize("address", "thread", "undefined")))
static void
touch_loop(uintptr_t a, uintptr_t end, int write, uintptr_t pg)
{
	for (uintptr_t b = a; b < end; b = (b & ~(pg - 1)) + pg) {
		volatile unsigned char *c = (volatile unsigned char *)b;
		if (write) /* a store of what is there, atomically */
			__atomic_fetch_add(c, 0, __ATOMIC_RELAXED);
		else
			(void)*c;
	}
}

static int
touch_pages(uintptr_t a, uintptr_t end, int write)
{
	/* read after the jump point: kept in memory, not in registers a
	 * jump back would restore stale */
	volatile uintptr_t va = a, vend = end;
	volatile int vwrite = write;
	sigjmp_buf jump;
	/* Under ThreadSanitizer the handler runs with the signal blocked
	 * (its wrapper's mask, whatever NODEFER says): the jump back then
	 * restores the mask, or the next fault would kill the process. */
	if (sigsetjmp(jump, U_TSAN))
		return -EFAULT; /* the handler cleared touch_jump */
	touch_jump = &jump;
	atomic_signal_fence(memory_order_seq_cst);
	touch_loop(va, vend, vwrite, u_page_size());
	atomic_signal_fence(memory_order_seq_cst);
	touch_jump = NULL;
	return 0;
}

int
u_touch(const void *p, size_t len, int write)
{
	uintptr_t a = (uintptr_t)p;
	if (!len)
		return 0;
	if (a + len < a)
		return -EOVERFLOW;
	pthread_once(&touch_once, touch_install);
	if (!touch_ready)
		return -ENOSYS;
	return touch_pages(a, a + len, write);
}
