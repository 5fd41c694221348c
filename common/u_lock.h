// SPDX-License-Identifier: MIT
/*
 * u_lock: a process-private mutex on one futex word, for short leaf
 * critical sections on paths counted in instructions (the driver's
 * address map and IPC import cache: a cold IPC open and close take each
 * twice; the validation layer's global lock). Uncontended, lock is one
 * compare-and-swap and unlock one exchange, inline; glibc's mutex costs
 * ~57 instructions a pair there, its reader-writer lock ~77.
 *
 * The word: 0 free, 1 held, 2 held and maybe waited for (the classic
 * three-state futex mutex). A waiter sleeps in the kernel (FUTEX_WAIT);
 * unlock wakes one only when the word said 2. Not recursive, no owner,
 * no priority inheritance; a fork child re-initialises its locks (the
 * holder may be gone) with u_lock_init.
 */
#ifndef ZEMEM_U_LOCK_H
#define ZEMEM_U_LOCK_H

#include <stdatomic.h>
#include <stdbool.h>

typedef struct {
	_Atomic int word;
} u_lock_t;

#define U_LOCK_INIT { 0 }

void u_lock_wait(u_lock_t *l, int seen);
void u_lock_wake(u_lock_t *l);

static inline void
u_lock_init(u_lock_t *l)
{
	atomic_store_explicit(&l->word, 0, memory_order_relaxed);
}

static inline void
u_lock(u_lock_t *l)
{
	int seen = 0;
	if (!atomic_compare_exchange_strong_explicit(&l->word, &seen, 1,
						     memory_order_acquire,
						     memory_order_relaxed))
		u_lock_wait(l, seen);
}

/* true when taken */
static inline bool
u_trylock(u_lock_t *l)
{
	int seen = 0;
	return atomic_compare_exchange_strong_explicit(&l->word, &seen, 1,
						       memory_order_acquire,
						       memory_order_relaxed);
}

static inline void
u_unlock(u_lock_t *l)
{
	if (atomic_exchange_explicit(&l->word, 0, memory_order_release) == 2)
		u_lock_wake(l);
}

#endif
