// SPDX-License-Identifier: MIT
/*
 * sh_sync: waiting without burning the machine, and noticing dead PEs.
 *
 * Every wait of this PE (wait_until, signal waits, barrier rounds) checks
 * its condition, spins SPIN_ROUNDS times (machines here run more PEs than
 * cores: a short spin only catches the fast case), then sleeps on the
 * doorbell of its control block:
 *     waiter                          writer (put, AMO, signal, barrier)
 *     sleepers += 1 (seq_cst)         store the data
 *     d = doorbell                    fence (seq_cst)
 *     check the condition             if (peer's sleepers) {
 *     FUTEX_WAIT(doorbell, d, slice)      doorbell += 1; FUTEX_WAKE }
 *     sleepers -= 1
 * Either the writer sees sleepers != 0 and rings, or the waiter's check
 * sees the data (both sides order store-then-load with a full fence). The
 * doorbell is a word of a MAP_SHARED memfd mapping, so the futex is a
 * shared one (FUTEX_WAIT, not _PRIVATE): the kernel keys it on the page,
 * and the writer's FUTEX_WAKE through its own mapping of the peer's heap
 * reaches the sleeper. A writer that sees no sleeper makes no syscall.
 *
 * Sleeps last at most SLICE_MS; after each, the PEs the wait depends on are
 * checked (a pidfd per node peer: readable once the process ended, zombie
 * included, which kill(pid, 0) would miss) and the wait fails with
 * -EHOSTDOWN when one ended, -ETIMEDOUT after ZESHMEM_TIMEOUT seconds.
 */
#include "sh.h"

#include "u_log.h"
#include "u_os.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define SPIN_ROUNDS 2000
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

void
sh_wake(int pe)
{
	struct sh_ctrl *c = sh.peers[pe].ctrl;
	if (!c)
		return;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__builtin_expect(__atomic_load_n(&c->sleepers, __ATOMIC_RELAXED),
			     0)) {
		__atomic_add_fetch(&c->doorbell, 1, __ATOMIC_SEQ_CST);
		futex(&c->doorbell, FUTEX_WAKE, INT_MAX, NULL);
	}
}

int
sh_pe_check_alive(int pe)
{
	if ((unsigned)pe >= (unsigned)sh.npes || !sh.peers)
		return -EINVAL;
	struct sh_peer *p = &sh.peers[pe];
	if (p->dead)
		return -EHOSTDOWN;
	if (pe == sh.me || !p->local)
		return 0;
	bool dead = false;
	if (p->pidfd >= 0) {
		struct pollfd pf = { .fd = p->pidfd, .events = POLLIN };
		dead = poll(&pf, 1, 0) > 0;
	} else if (sh.pids && sh.pids[pe] > 0) {
		dead = kill(sh.pids[pe], 0) && errno == ESRCH;
	}
	if (!dead)
		return 0;
	p->dead = true;
	u_err("shmem", "PE %d (pid %d) ended", pe, sh.pids ? sh.pids[pe] : 0);
	return -EHOSTDOWN;
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

int
sh_wait_pred(bool (*pred)(void *), void *arg, int watch_pe)
{
	if (pred(arg))
		return 0;
	for (int i = 0; i < SPIN_ROUNDS; i++) {
		cpu_relax();
		if (pred(arg))
			return 0;
	}
	struct sh_ctrl *ctl = sh_ctrl_local();
	uint64_t deadline = u_now_ns() + (uint64_t)sh.timeout_s * 1000000000ull;
	for (;;) {
		__atomic_add_fetch(&ctl->sleepers, 1, __ATOMIC_SEQ_CST);
		uint32_t d = __atomic_load_n(&ctl->doorbell, __ATOMIC_SEQ_CST);
		if (pred(arg)) {
			__atomic_sub_fetch(&ctl->sleepers, 1, __ATOMIC_SEQ_CST);
			return 0;
		}
		struct timespec ts = { 0, SLICE_MS * 1000000L };
		futex(&ctl->doorbell, FUTEX_WAIT, d, &ts);
		__atomic_sub_fetch(&ctl->sleepers, 1, __ATOMIC_SEQ_CST);
		if (pred(arg))
			return 0;
		int err = check_peers(watch_pe);
		if (err)
			return err;
		if (u_now_ns() > deadline) {
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
	switch (a->esize) {
	case 1: {
		uint8_t r = __atomic_load_n((uint8_t *)p, __ATOMIC_ACQUIRE), w;
		memcpy(&w, a->value, 1);
		x.u = r, v.u = w;
		if (sgn)
			x.i = (int8_t)r, v.i = (int8_t)w;
		break;
	}
	case 2: {
		uint16_t r = __atomic_load_n((uint16_t *)p, __ATOMIC_ACQUIRE), w;
		memcpy(&w, a->value, 2);
		x.u = r, v.u = w;
		if (sgn)
			x.i = (int16_t)r, v.i = (int16_t)w;
		break;
	}
	case 4: {
		uint32_t r = __atomic_load_n((uint32_t *)p, __ATOMIC_ACQUIRE), w;
		memcpy(&w, a->value, 4);
		x.u = r, v.u = w;
		if (sgn)
			x.i = (int32_t)r, v.i = (int32_t)w;
		break;
	}
	default: {
		uint64_t r = __atomic_load_n((uint64_t *)p, __ATOMIC_ACQUIRE), w;
		memcpy(&w, a->value, 8);
		x.u = r, v.u = w;
		break;
	}
	}
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
	return sh_wait_pred(cmp_pred, &a, -1);
}
