// SPDX-License-Identifier: MIT
/*
 * sh_term: the launcher's SIGTERM while the network transport is up.
 *
 * When a PE of a multi-node job dies, Open MPI's mpirun (4.1) ends the
 * others at once: SIGTERM, then SIGKILL one second later
 * (odls_base_sigkill_timeout). It sends no PMIx event first (a handler
 * registered for every code gets none, also with orte_enable_recovery),
 * and tcp;ofi_rxm reports a peer that is gone only as -FI_EAGAIN on every
 * post while it reconnects, so without this a survivor waits for
 * ZESHMEM_TIMEOUT and is killed before it can say why.
 *
 * So while the network transport is up, and only when the program left
 * SIGTERM at its default, SIGTERM is caught: the handler notes the time
 * (nothing else; async-signal-safe). A network operation or a wait on a
 * PE of another node that has not completed SH_TERM_GRACE_MS after it
 * gives up with -EHOSTUNREACH, marking that PE dead, so the call ends
 * with "zeshmem: PE <me>: <call>: PE <n> unreachable". The progress
 * thread (sh_term_poll) ends the process as SIGTERM would
 * SH_TERM_END_MS after it (default disposition back, raise), whatever
 * the program is doing: SIGTERM still ends every PE, 0.7 s later at most.
 * fini puts the previous disposition back.
 */
#include "sh_tr.h"

#include "u_log.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#define SH_TERM_GRACE_MS 300
#define SH_TERM_END_MS 700

static uint64_t term_at;              /* atomic: ns of the SIGTERM, 0 none */
static bool armed;                    /* written at init/fini only */
static struct sigaction prev;

static uint64_t
mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts); /* async-signal-safe */
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void
on_term(int sig)
{
	(void)sig;
	uint64_t now = mono_ns();
	uint64_t zero = 0;
	__atomic_compare_exchange_n(&term_at, &zero, now ? now : 1, false,
				    __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

void
sh_term_arm(void)
{
	struct sigaction cur;
	if (armed || sigaction(SIGTERM, NULL, &cur) ||
	    (cur.sa_flags & SA_SIGINFO) || cur.sa_handler != SIG_DFL)
		return; /* the program handles SIGTERM itself */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGTERM, &sa, &prev))
		return;
	__atomic_store_n(&term_at, 0, __ATOMIC_RELAXED);
	armed = true;
}

void
sh_term_disarm(void)
{
	if (!armed)
		return;
	armed = false;
	/* Only when still ours: the program may have set its own since. */
	struct sigaction cur;
	if (sigaction(SIGTERM, NULL, &cur) || (cur.sa_flags & SA_SIGINFO) ||
	    cur.sa_handler != on_term)
		return;
	sigaction(SIGTERM, &prev, NULL);
	if (__atomic_load_n(&term_at, __ATOMIC_ACQUIRE))
		raise(SIGTERM); /* it came during the job: end as it asked */
}

bool
sh_term_overdue(void)
{
	uint64_t t = __atomic_load_n(&term_at, __ATOMIC_ACQUIRE);
	return t && mono_ns() - t > SH_TERM_GRACE_MS * 1000000ull;
}

void
sh_term_poll(void)
{
	uint64_t t = __atomic_load_n(&term_at, __ATOMIC_ACQUIRE);
	if (!t || mono_ns() - t <= SH_TERM_END_MS * 1000000ull)
		return;
	sh_tr_ofi_exit_cleanup();
	signal(SIGTERM, SIG_DFL);
	raise(SIGTERM);
}

int
sh_term_give_up(int pe, const char *what)
{
	if (pe >= 0 && pe < sh.npes && pe != sh.me && sh.peers) {
		__atomic_store_n(&sh.peers[pe].dead, true, __ATOMIC_RELEASE);
		u_err("shmem", "%s: PE %d did not answer within %d ms of the "
			       "launcher's SIGTERM (the job is ending): taken "
			       "as unreachable", what, pe, SH_TERM_GRACE_MS);
	} else {
		u_err("shmem", "%s: no answer within %d ms of the launcher's "
			       "SIGTERM (the job is ending)", what,
		      SH_TERM_GRACE_MS);
	}
	return -EHOSTUNREACH;
}
