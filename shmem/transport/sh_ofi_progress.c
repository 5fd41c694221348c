// SPDX-License-Identifier: MIT
/*
 * sh_ofi_progress: the network transport's progress and completion
 * (sh_ofi.h says how the transport's files divide it): the providers
 * here progress manually, so a thread per PE polls every endpoint's CQ
 * (ofi_progress_main), and every blocking call and wait progresses too;
 * wait_all waits until an endpoint's counter and errors reach what was
 * posted; the dead-peer grace (ofi_dead_overdue). sh_ofi.c's comment
 * describes the design.
 */
#ifdef ZESHMEM_HAVE_OFI

#include "sh_ofi.h"

/* ---- progress and completion ------------------------------------------ */

/* Drains e's CQ (errors only: nothing asks for success entries); drives
 * the provider's progress on e. */
static void
ep_progress(struct net_ep *e)
{
	struct fi_cq_entry ent[4];
	ssize_t rc = fi_cq_read(e->cq, ent, 4);
	if (rc == -FI_EAVAIL) {
		struct fi_cq_err_entry ee = { 0 };
		if (fi_cq_readerr(e->cq, &ee, 0) <= 0)
			return;
		/* Some errors reach only the CQ (shm's failed CMA writes:
		 * no counter error): wait_all fails on them too. */
		__atomic_add_fetch(&e->cq_errs, 1, __ATOMIC_RELEASE);
		int pe = -1;
		uintptr_t c = (uintptr_t)ee.op_context, b = (uintptr_t)ofi.np;
		if (c >= b && c < b + (uintptr_t)sh.npes * sizeof(*ofi.np))
			pe = (int)((c - b) / sizeof(*ofi.np));
		u_err("shmem", "network operation to PE %d failed: %s (%s)%s",
		      pe, fi_strerror(ee.err),
		      fi_cq_strerror(e->cq, ee.prov_errno, ee.err_data, NULL,
				     0),
		      pe >= 0 ? ": the PE is taken as ended" : "");
		/* An RDM endpoint's errors are the peer's loss (the provider
		 * retried already): later operations and waits on it fail at
		 * once with -EHOSTDOWN. */
		if (pe >= 0 && pe != sh.me)
			__atomic_store_n(&sh.peers[pe].dead, true,
					 __ATOMIC_RELEASE);
	}
}

/* The PE's own endpoint: what others' operations into this PE need. */
void
sh_tr_ofi_progress(void)
{
	if (!ofi.active)
		return;
	ep_progress(&ofi.e0);
}

/* e, and e0 for the PE's targets when e is a context's. */
void
ofi_progress_ep(struct net_ep *e)
{
	ep_progress(e);
	if (e != &ofi.e0)
		ep_progress(&ofi.e0);
}

/* Sleeps up to ns, or until e has something to progress when its CQ
 * has a wait fd (fi_trywait first: it says when there is work already,
 * and the caller progresses at once). A wait set that stays ready (work
 * that e's own progress does not take: another endpoint's) would make
 * that a busy loop: after a few ready answers in a row the sleep is
 * plain. Plain too under ZESHMEM_OFI_TEST_HOLD: tcp's trywait may move
 * the domain's other endpoints, which that hook keeps still. */
static void
ep_sleep(struct net_ep *e, long ns)
{
	static _Thread_local unsigned ready;
	struct timespec ts = { 0, ns };
	if (e->wfd >= 0 && !ofi.test_hold) {
		struct fid *f = &e->cq->fid;
		if (fi_trywait(ofi.fab, &f, 1) != FI_SUCCESS) {
			if (++ready < 8)
				return;
			ready = 0;
			nanosleep(&ts, NULL);
			return;
		}
		ready = 0;
		struct pollfd pf = { .fd = e->wfd, .events = POLLIN };
		ppoll(&pf, 1, &ts, NULL);
		return;
	}
	nanosleep(&ts, NULL);
}

bool
sh_tr_ofi_wait_fd(void)
{
	return ofi.active && ofi.e0.wfd >= 0;
}

void
sh_tr_ofi_nap(long ns)
{
	if (ofi.active) {
		ep_sleep(&ofi.e0, ns);
		return;
	}
	struct timespec ts = { 0, ns };
	nanosleep(&ts, NULL);
}

void *
ofi_progress_main(void *arg)
{
	(void)arg;
	/* A short poll rather than fi_cq_sread: shm's sread spins on
	 * sched_yield past its timeout, and a CQ that only ever carries
	 * errors has nothing to wake a sleeper with anyway. Every
	 * endpoint: e0 and the contexts' (not with the test hook). */
	while (!__atomic_load_n(&ofi.stop, __ATOMIC_ACQUIRE)) {
		sh_tr_ofi_progress();
		if (__atomic_load_n(&ofi.neps, __ATOMIC_RELAXED) &&
		    !ofi.test_hold) {
			pthread_mutex_lock(&ofi.eps_lock);
			for (struct net_ep *e = ofi.eps; e; e = e->next)
				ep_progress(e);
			pthread_mutex_unlock(&ofi.eps_lock);
		}
		sh_term_poll();
		ep_sleep(&ofi.e0, PROGRESS_NS);
	}
	return NULL;
}

/* Backoff for polling loops, by time since the first call (*t0): spin
 * for 20 us, then sleeps growing from 1 to 100 us (no sched_yield: on a
 * loaded machine a yield can give the core away for a whole slice). */
void
ofi_backoff_on(struct net_ep *e, uint64_t *t0)
{
	uint64_t now = u_now_ns();
	if (!*t0)
		*t0 = now;
	uint64_t d = (now - *t0) / 1000;
	if (d < 20)
		return;
	long us = (long)(d - 19) / 8 + 1;
	ep_sleep(e, (us > 100 ? 100 : us) * 1000);
}


bool
ofi_dead_overdue(void)
{
	uint64_t t = __atomic_load_n(&ofi.dead_at, __ATOMIC_ACQUIRE);
	if (!t) {
		if (sh_boot_dead_news() < 0)
			return false;
		uint64_t zero = 0;
		__atomic_compare_exchange_n(&ofi.dead_at, &zero, u_now_ns(),
					    false, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED);
		return false;
	}
	return u_now_ns() - t > DEAD_GRACE_NS;
}

/* Waits until every operation posted on e so far completed. */
int
ofi_wait_all(struct net_ep *e)
{
	uint64_t target = __atomic_load_n(&e->posted, __ATOMIC_ACQUIRE);
	uint64_t cqe0 = __atomic_load_n(&e->cq_errs, __ATOMIC_ACQUIRE);
	uint64_t t0 = 0, b0 = 0;
	for (unsigned i = 0;; i++) {
		if (__atomic_load_n(&e->cq_errs, __ATOMIC_ACQUIRE) != cqe0)
			return -EIO; /* logged by ep_progress */
		uint64_t done = fi_cntr_read(e->cntr);
		uint64_t errs = fi_cntr_readerr(e->cntr);
		if (done + errs >= target) {
			uint64_t seen = __atomic_load_n(&e->errs_seen,
							__ATOMIC_RELAXED);
			if (errs > seen &&
			    __atomic_compare_exchange_n(&e->errs_seen, &seen,
							errs, false,
							__ATOMIC_RELAXED,
							__ATOMIC_RELAXED)) {
				ofi_progress_ep(e); /* logs the error */
				return -EIO;
			}
			return 0;
		}
		ofi_progress_ep(e);
		if (!(i & 255)) {
			if (sh_term_overdue())
				return sh_term_give_up(-1, "network operations");
			if (ofi_dead_overdue()) {
				u_err("shmem", "network operations: %llu of "
					       "%llu complete %llu ms after a "
					       "PE's end (the bootstrap lost "
					       "it)",
				      (unsigned long long)(done + errs),
				      (unsigned long long)target,
				      DEAD_GRACE_NS / 1000000);
				return -EHOSTDOWN;
			}
			uint64_t now = u_now_ns();
			if (!t0)
				t0 = now;
			else if (now - t0 > (uint64_t)sh.timeout_s * 1000000000ull) {
				u_err("shmem", "network operations did not "
					       "complete within %u s "
					       "(ZESHMEM_TIMEOUT): %llu of %llu",
				      sh.timeout_s,
				      (unsigned long long)(done + errs),
				      (unsigned long long)target);
				return -ETIMEDOUT;
			}
		}
		ofi_backoff_on(e, &b0);
	}
}

/* The endpoint of context c (NULL: the default one, e0). */
struct net_ep *
ofi_ep_of(const struct sh_ctx *c)
{
	struct net_ep *e = c ? (struct net_ep *)c->net : NULL;
	return e ? e : &ofi.e0;
}

#endif /* ZESHMEM_HAVE_OFI */
