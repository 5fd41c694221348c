// SPDX-License-Identifier: MIT
/*
 * u_fork: a fork child's copies of the pthread locks that the fork's
 * prepare handler took in the parent, made free for the child. The
 * child's one thread is the one that took them, so a mutex is unlocked.
 * A reader-writer lock is initialised again instead: glibc tells its
 * writer by thread id, and the child's thread has a new one. Under
 * ThreadSanitizer, which follows a lock by its address and never sees
 * the second initialisation as a release, the release is declared first:
 * otherwise the child's first use of the lock reads to it as "read lock
 * of a write locked mutex".
 */
#ifndef ZEMEM_U_FORK_H
#define ZEMEM_U_FORK_H

#include <pthread.h>

#include "u_san.h"

#if U_TSAN
#include <sanitizer/tsan_interface.h>
#endif

static inline void
u_fork_child_mutex(pthread_mutex_t *m)
{
	pthread_mutex_unlock(m);
}

static inline void
u_fork_child_rwlock(pthread_rwlock_t *rw)
{
#if U_TSAN
	__tsan_mutex_pre_unlock(rw, 0);
	__tsan_mutex_post_unlock(rw, 0);
#endif
	pthread_rwlock_init(rw, NULL);
}

#endif
