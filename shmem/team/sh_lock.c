// SPDX-License-Identifier: MIT
/*
 * sh_lock: shmem_set_lock / shmem_test_lock / shmem_clear_lock.
 *
 * An MCS queue lock over the symmetric long the program gives (zero when
 * unlocked, as the specification requires of its initial value). Every
 * PE's own copy of the word is that PE's queue node; PE 0's copy holds
 * the queue's tail as well. The 64 bits of a copy:
 *   bits  0..23  tail: 1 + the PE last in the queue (PE 0's copy only)
 *   bits 24..47  next: 1 + the PE queued behind this one
 *   bit  48      grant: the lock was handed to this PE
 * Acquire: clear next and grant of one's own copy, swap oneself into the
 * tail (a compare-swap loop on PE 0's word that keeps its other bits),
 * and when there was a predecessor, write next into its copy and wait
 * (sh_wait_pred_on: spins, then sleeps; writers wake it) for grant.
 * Release: quiet (the critical section's stores complete first); with no
 * successor, compare-swap the tail from oneself to 0; when that fails a
 * successor is linking itself: wait for next; then clear next and set
 * the successor's grant. Every PE enters the queue once and is served in
 * the order of its tail swap (FIFO); the grant is a word the waiter
 * sleeps on, written by an atomic that wakes it (no lost wake-up).
 *
 * Every access is an 8-byte atomic of sh_amo on the default context, so
 * the same code runs over libfabric (its atomics) and node-locally.
 */
#include "sh_team.h"

#include "u_log.h"

#include <errno.h>

#define TAIL_MASK 0xffffffull
#define NEXT_SHIFT 24
#define NEXT_MASK (0xffffffull << NEXT_SHIFT)
#define GRANT (1ull << 48)
#define ANY_TAIL UINT64_MAX
/* Compare-swap attempts before giving up (other PEs change PE 0's word
 * a bounded number of times per acquisition each). */
#define CAS_TRIES (1u << 24)

static int
amo(enum sh_amo_op op, long *lock, uint64_t v, uint64_t cmp, uint64_t *old,
    int pe)
{
	return sh_amo(&sh_ctx_default, op, SH_T_UINT, 8, lock, &v, &cmp, old,
		      pe);
}

/* Sets the tail (PE 0's copy) to new_tail when it is expect (ANY_TAIL:
 * whatever it is); *old the tail before. */
static int
tail_cas(long *lock, uint64_t expect, uint64_t new_tail, uint64_t *old)
{
	uint64_t cur;
	int err = amo(SH_AMO_FETCH, lock, 0, 0, &cur, 0);
	for (unsigned i = 0; !err && i < CAS_TRIES; i++) {
		uint64_t t = cur & TAIL_MASK;
		*old = t;
		if (expect != ANY_TAIL && t != expect)
			return 0;
		uint64_t want = (cur & ~TAIL_MASK) | new_tail;
		uint64_t got;
		if ((err = amo(SH_AMO_CSWAP, lock, want, cur, &got, 0)))
			break;
		if (got == cur)
			return 0;
		cur = got;
	}
	if (!err) {
		u_err("shmem", "lock %p: the tail did not settle", (void *)lock);
		err = -EAGAIN;
	}
	return err;
}

/* The locks this PE holds (so that clearing one it does not hold is
 * refused instead of waiting for a successor that never links). Beyond
 * HELD_MAX at once, the others are not checked. */
#define HELD_MAX 64
static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;
static long *held[HELD_MAX];
static unsigned held_over;        /* holds not recorded (table full) */

static void
held_add(long *lock)
{
	pthread_mutex_lock(&held_lock);
	unsigned i = 0;
	while (i < HELD_MAX && held[i])
		i++;
	if (i < HELD_MAX)
		held[i] = lock;
	else
		held_over++;
	pthread_mutex_unlock(&held_lock);
}

/* 0 when this PE holds lock (forgotten now), -EPERM when it does not. */
static int
held_del(long *lock)
{
	int err = -EPERM;
	pthread_mutex_lock(&held_lock);
	for (unsigned i = 0; i < HELD_MAX; i++) {
		if (held[i] == lock) {
			held[i] = NULL;
			err = 0;
			break;
		}
	}
	if (err && held_over) {
		held_over--;
		err = 0;
	}
	pthread_mutex_unlock(&held_lock);
	return err;
}

/* The lock word: a symmetric long (sh_amo refuses other addresses). */
static int
check(long *lock)
{
	if (!lock || (uintptr_t)lock % sizeof(long))
		return -EINVAL;
	if (sh.npes > (int)TAIL_MASK)
		return -EOPNOTSUPP;
	return 0;
}

static bool
granted(void *arg)
{
	return __atomic_load_n((uint64_t *)arg, __ATOMIC_ACQUIRE) & GRANT;
}

static bool
has_next(void *arg)
{
	return __atomic_load_n((uint64_t *)arg, __ATOMIC_ACQUIRE) & NEXT_MASK;
}

int
sh_lock_test(long *lock)
{
	int err = check(lock);
	uint64_t mine = (uint64_t)sh.me + 1, old = 0;
	if (!err)
		err = amo(SH_AMO_AND, lock, ~(NEXT_MASK | GRANT), 0, NULL,
			  sh.me);
	if (!err)
		err = tail_cas(lock, 0, mine, &old);
	if (err)
		return err;
	if (old == 0) {
		held_add(lock);
		SH_FENCE(__ATOMIC_ACQUIRE);
	}
	return old != 0;
}

int
sh_lock_set(long *lock)
{
	int err = check(lock);
	uint64_t mine = (uint64_t)sh.me + 1, pred = 0;
	if (!err)
		err = amo(SH_AMO_AND, lock, ~(NEXT_MASK | GRANT), 0, NULL,
			  sh.me);
	if (!err)
		err = tail_cas(lock, ANY_TAIL, mine, &pred);
	if (err || pred == 0)
		goto out;
	if ((err = amo(SH_AMO_OR, lock, mine << NEXT_SHIFT, 0, NULL,
		       (int)pred - 1)))
		goto out;
	if ((err = sh_wait_pred_on(granted, lock, -1, SH_WAIT_DATA, lock)))
		goto out;
	err = amo(SH_AMO_AND, lock, ~GRANT, 0, NULL, sh.me);
out:
	if (!err)
		held_add(lock);
	SH_FENCE(__ATOMIC_ACQUIRE);
	return err;
}

int
sh_lock_clear(long *lock)
{
	int err = check(lock);
	uint64_t mine = (uint64_t)sh.me + 1, w = 0, old = 0;
	if (!err && (err = held_del(lock)))
		u_warn("shmem", "lock %p: cleared by PE %d, which does not "
		       "hold it", (void *)lock, sh.me);
	if (!err)
		err = sh_quiet(&sh_ctx_default);
	if (!err)
		err = amo(SH_AMO_FETCH, lock, 0, 0, &w, sh.me);
	if (err)
		return err;
	if (!(w & NEXT_MASK)) {
		if ((err = tail_cas(lock, mine, 0, &old)))
			return err;
		if (old == mine)
			return 0;
		/* A successor swapped itself in; it links itself next. */
		if ((err = sh_wait_pred_on(has_next, lock, -1, SH_WAIT_DATA,
					   lock)))
			return err;
		if ((err = amo(SH_AMO_FETCH, lock, 0, 0, &w, sh.me)))
			return err;
	}
	int succ = (int)((w & NEXT_MASK) >> NEXT_SHIFT) - 1;
	if ((err = amo(SH_AMO_AND, lock, ~NEXT_MASK, 0, NULL, sh.me)))
		return err;
	return amo(SH_AMO_OR, lock, GRANT, 0, NULL, succ);
}
