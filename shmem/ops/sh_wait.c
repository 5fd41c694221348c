// SPDX-License-Identifier: MIT
/*
 * sh_sync: waiting without burning the machine, and noticing dead PEs.
 *
 * Every wait of this PE (wait_until, signal waits, barrier rounds) checks
 * its condition, spins for SPIN_NS (machines here run more PEs than
 * cores: a short spin only catches the fast case), then sleeps on a
 * doorbell of its control block (data waits and barrier rounds have one
 * each, so puts never wake a barrier and arrivals never wake a wait):
 *     waiter                          writer (put, AMO, signal, barrier)
 *     wait_off = the word's offset    store the data
 *     sleepers += 1 (seq_cst)         fence (seq_cst)
 *     d = doorbell                    if (peer's sleepers && the word is
 *     check the condition                 in what it wrote) {
 *     FUTEX_WAIT(doorbell, d, slice)      doorbell += 1; FUTEX_WAKE }
 *     sleepers -= 1
 * Either the writer sees sleepers != 0 and rings, or the waiter's check
 * sees the data (both sides order store-then-load with a full fence; the
 * word is named before the count, so a writer that sees the count sees
 * the word, or SH_WAIT_ANY once two waits sleep). The doorbell is a word
 * of a MAP_SHARED memfd mapping, so the futex is a shared one
 * (FUTEX_WAIT, not _PRIVATE): the kernel keys it on the page, and the
 * writer's FUTEX_WAKE through its own mapping of the peer's heap reaches
 * the sleeper. A writer that sees no sleeper makes no syscall. (Two
 * threads of one PE starting to sleep at once may briefly name the
 * wrong word: the other's wake then waits for the slice's end.)
 *
 * Sleeps last at most SLICE_MS; after each, the PEs the wait depends on are
 * checked (a pidfd per node peer: readable once the process ended, zombie
 * included, which kill(pid, 0) would miss) and the wait fails with
 * -EHOSTDOWN when one ended. A PE of another node (every peer, over
 * the network transport) has no pidfd: the bootstrap's news of a dead
 * PE (its server saw the PE's connection end; sh_boot_ops.dead_pe) is
 * asked instead, at the same points, so its end is noticed as soon.
 * A wait on a PE whose end neither shows (PMIx across nodes) fails with
 * -ETIMEDOUT after ZESHMEM_TIMEOUT seconds; a wait on live node PEs is
 * not bounded (they may compute).
 */
#include "sh_ops.h"

#include "u_log.h"
#include "u_os.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define SLICE_MS 50

static long
futex(uint32_t *w, int op, uint32_t val, const struct timespec *ts)
{
	return syscall(SYS_futex, w, op, val, ts, NULL, 0);
}

static inline void
cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

static inline void
ring(uint32_t *bell)
{
	__atomic_add_fetch(bell, 1, __ATOMIC_SEQ_CST);
	futex(bell, FUTEX_WAKE, INT_MAX, NULL);
}

void
sh_wake(int pe)
{
	struct sh_ctrl *c = sh.peers[pe].ctrl;
	if (!c)
		return;
	SH_FENCE(__ATOMIC_SEQ_CST);
	if (__builtin_expect(__atomic_load_n(&c->sleepers, __ATOMIC_RELAXED),
			     0))
		ring(&c->doorbell);
}

void
sh_wake_range(int pe, const void *dest, size_t len)
{
	struct sh_ctrl *c = sh.peers[pe].ctrl;
	if (!c)
		return;
	SH_FENCE(__ATOMIC_SEQ_CST);
	if (__builtin_expect(!__atomic_load_n(&c->sleepers, __ATOMIC_RELAXED),
			     1))
		return;
	uint64_t w = __atomic_load_n(&c->wait_off, __ATOMIC_RELAXED);
	uint64_t off = sh_sym_wait_id(dest);
	if (w == SH_WAIT_ANY || w - off < len)
		ring(&c->doorbell);
}

void
sh_wake_barrier(int pe)
{
	struct sh_ctrl *c = sh.peers[pe].ctrl;
	if (!c)
		return;
	SH_FENCE(__ATOMIC_SEQ_CST);
	if (__builtin_expect(
		    __atomic_load_n(&c->bar_sleepers, __ATOMIC_RELAXED), 0))
		ring(&c->bar_doorbell);
}


static int
check_peers(int watch_pe)
{
	if (watch_pe >= 0)
		return sh_pe_check_alive(watch_pe);
	for (int pe = 0; pe < sh.npes; pe++) {
		int err = sh_pe_check_alive(pe);
		if (err)
			return err;
	}
	return 0;
}

/* Spin for about SPIN_NS before sleeping: long enough for a peer on
 * another core to answer, short enough not to starve it when it shares
 * this one.
 * Chosen by measurement on a busy machine (zeshmem-coll-bench --load:
 * one CPU-bound process per core beside a 2-PE job, the PEs bound to
 * cores by zeshrun): spin then sleep keeps barrier_all and 8-byte
 * broadcast/reduce within 2x of the idle figures. A PE that sleeps leaves
 * its share of the core unspent, so the scheduler runs it again as soon
 * as its doorbell rings; sched_yield rounds before the sleep (16, or
 * yielding for up to 200 us) hand the core to the busy process for a
 * whole slice and were no better loaded and worse idle, and a spin that
 * shrinks after waits that ended asleep (adaptive) cost the idle case
 * more than it gained (measured, not kept). What made the loaded
 * figures tens of times the idle ones was PEs left unbound (migrating
 * beside the busy processes; zeshrun --bind-to none in the same loaded
 * run still gives 30-70 us per barrier): zeshrun's default binding fixes
 * that. */
#define SPIN_NS 20000
#define YIELDS 16

/* With the network transport up, writes into this heap come from the NIC
 * (the provider, progressed by whoever calls it) and ring no doorbell:
 * poll, driving progress, with a bounded backoff (spin, then sleeps
 * growing to POLL_MAX_US). */
#define POLL_MAX_US 50

static int
wait_polling(bool (*pred)(void *), void *arg, int watch_pe)
{
	uint64_t t0 = u_now_ns(), last = t0;
	uint64_t deadline = t0 + (uint64_t)sh.timeout_s * 1000000000ull;
	unsigned spin = sh.node_npes > (int)u_cpu_count() ? 16 : 256;
	for (unsigned i = 0;; i++) {
		sh_tr_ofi_progress();
		if (pred(arg))
			return 0;
		uint64_t d = (u_now_ns() - t0) / 1000;
		if (i < spin) {
			cpu_relax();
		} else {
			/* sleeps growing from 1 us to POLL_MAX_US (a yield
			 * may give the core away for a whole slice) */
			long us = (long)d / 8 + 1;
			sh_tr_ofi_nap((us > POLL_MAX_US ? POLL_MAX_US : us) *
				      1000);
		}
		if (i & 15)
			continue;
		uint64_t now = u_now_ns();
		if (now - last < SLICE_MS * 1000000ull)
			continue;
		last = now;
		int err = check_peers(watch_pe);
		if (err)
			return err;
		if (sh_term_overdue())
			return sh_term_give_up(watch_pe >= 0 &&
						       !sh.peers[watch_pe].local
					       ? watch_pe : -1, "wait");
		if (now > deadline) {
			if (watch_pe >= 0)
				u_err("shmem", "PE %d: wait on PE %d timed out "
					       "after %u s (ZESHMEM_TIMEOUT): "
					       "PE %d does not answer", sh.me,
				      watch_pe, sh.timeout_s, watch_pe);
			else
				u_err("shmem", "PE %d: wait timed out after "
					       "%u s (ZESHMEM_TIMEOUT)", sh.me,
				      sh.timeout_s);
			return -ETIMEDOUT;
		}
	}
}

int
sh_wait_pred(bool (*pred)(void *), void *arg, int watch_pe)
{
	return sh_wait_pred_on(pred, arg, watch_pe, SH_WAIT_DATA, NULL);
}

int
sh_wait_pred_on(bool (*pred)(void *), void *arg, int watch_pe,
		enum sh_wait_kind kind, const volatile void *word)
{
	if (pred(arg))
		return 0;
	if (sh_tr_ofi_active())
		return wait_polling(pred, arg, watch_pe);
	uint64_t t0 = u_now_ns();
	if (sh.node_npes > (int)u_cpu_count()) {
		/* More PEs than cores: the PE this one waits for may need
		 * this core; hand it over a few times instead of spinning. */
		for (int i = 0; i < YIELDS; i++) {
			sched_yield();
			if (pred(arg))
				return 0;
		}
	} else {
		for (int i = 1;; i++) {
			cpu_relax();
			if (pred(arg))
				return 0;
			if (!(i & 63) && u_now_ns() - t0 > SPIN_NS)
				break;
		}
	}
	struct sh_ctrl *ctl = sh_ctrl_local();
	bool data = kind == SH_WAIT_DATA;
	uint32_t *sleepers = data ? &ctl->sleepers : &ctl->bar_sleepers;
	uint32_t *bell = data ? &ctl->doorbell : &ctl->bar_doorbell;
	uint64_t off = SH_WAIT_ANY;
	if (data && word)
		off = sh_sym_wait_id((const void *)word);
	uint64_t deadline = t0 + (uint64_t)sh.timeout_s * 1000000000ull;
	/* The timeout is for PEs whose end this PE cannot see (other nodes):
	 * a node-local PE that ends is noticed by its pidfd, and one that is
	 * alive may legitimately take its time. */
	bool bounded = false;
	if (watch_pe >= 0)
		bounded = !sh.peers[watch_pe].local;
	else
		for (int pe = 0; pe < sh.npes && !bounded; pe++)
			bounded = !sh.peers[pe].local;
	for (;;) {
		if (data) {
			/* Name the word before counting in, so a writer that
			 * sees the count sees the word (or ANY). */
			bool alone = !__atomic_load_n(sleepers,
						      __ATOMIC_SEQ_CST);
			__atomic_store_n(&ctl->wait_off,
					 alone ? off : SH_WAIT_ANY,
					 __ATOMIC_SEQ_CST);
		}
		if (__atomic_add_fetch(sleepers, 1, __ATOMIC_SEQ_CST) > 1 &&
		    data)
			__atomic_store_n(&ctl->wait_off, SH_WAIT_ANY,
					 __ATOMIC_SEQ_CST);
		uint32_t d = __atomic_load_n(bell, __ATOMIC_SEQ_CST);
		if (pred(arg)) {
			__atomic_sub_fetch(sleepers, 1, __ATOMIC_SEQ_CST);
			return 0;
		}
		struct timespec ts = { 0, SLICE_MS * 1000000L };
		futex(bell, FUTEX_WAIT, d, &ts);
		__atomic_sub_fetch(sleepers, 1, __ATOMIC_SEQ_CST);
		if (pred(arg))
			return 0;
		int err = check_peers(watch_pe);
		if (err)
			return err;
		if (bounded && u_now_ns() > deadline) {
			u_err("shmem", "PE %d: wait timed out after %u s "
				       "(ZESHMEM_TIMEOUT)", sh.me, sh.timeout_s);
			return -ETIMEDOUT;
		}
	}
}

/* ---- wait_until / test ----------------------------------------------- */

struct cmp_arg {
	volatile void *ivar;
	enum sh_type t;
	size_t esize;
	int cmp;
	const void *value;
};

static int
load_cmp(const struct cmp_arg *a)
{
	union {
		int64_t i;
		uint64_t u;
	} x = { 0 }, v = { 0 };
	void *p = (void *)a->ivar;
	bool sgn = a->t == SH_T_INT;
	/* Per width: load the ivar (acquire) and the value, widen both
	 * (signed for SH_T_INT; for 8 bytes the cast keeps the bits). */
#define LOAD_CMP_CASE(U, S) \
	{ \
		U r = __atomic_load_n((U *)p, __ATOMIC_ACQUIRE), w; \
		memcpy(&w, a->value, sizeof(w)); \
		x.u = r, v.u = w; \
		if (sgn) \
			x.i = (S)r, v.i = (S)w; \
		break; \
	}
	switch (a->esize) {
	case 1: LOAD_CMP_CASE(uint8_t, int8_t)
	case 2: LOAD_CMP_CASE(uint16_t, int16_t)
	case 4: LOAD_CMP_CASE(uint32_t, int32_t)
	default: LOAD_CMP_CASE(uint64_t, int64_t)
	}
#undef LOAD_CMP_CASE
	int c = sgn ? (x.i > v.i) - (x.i < v.i) : (x.u > v.u) - (x.u < v.u);
	switch (a->cmp) {
	case SH_CMP_EQ: return c == 0;
	case SH_CMP_NE: return c != 0;
	case SH_CMP_GT: return c > 0;
	case SH_CMP_LE: return c <= 0;
	case SH_CMP_LT: return c < 0;
	default: return c >= 0; /* SH_CMP_GE */
	}
}

static bool
cmp_pred(void *arg)
{
	return load_cmp(arg);
}

static int
check_args(volatile void *ivar, enum sh_type t, size_t esize, int cmp,
	   const void *value)
{
	if (!ivar || !value || t == SH_T_FLOAT)
		return -EINVAL;
	if (esize != 1 && esize != 2 && esize != 4 && esize != 8)
		return -EINVAL;
	if ((uintptr_t)ivar % esize)
		return -EINVAL;
	if (cmp < SH_CMP_EQ || cmp > SH_CMP_GE)
		return -EINVAL;
	return 0;
}

int
sh_test(volatile void *ivar, enum sh_type t, size_t esize, int cmp,
	const void *value)
{
	int err = check_args(ivar, t, esize, cmp, value);
	if (err)
		return err;
	struct cmp_arg a = { ivar, t, esize, cmp, value };
	return load_cmp(&a);
}

int
sh_wait_until(volatile void *ivar, enum sh_type t, size_t esize, int cmp,
	      const void *value)
{
	int err = check_args(ivar, t, esize, cmp, value);
	if (err)
		return err;
	struct cmp_arg a = { ivar, t, esize, cmp, value };
	return sh_wait_pred_on(cmp_pred, &a, -1, SH_WAIT_DATA, ivar);
}
