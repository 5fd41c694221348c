// SPDX-License-Identifier: MIT
/*
 * sh_face_lock.c: shmem_set_lock, shmem_test_lock, shmem_clear_lock over
 * sh_lock.c (an MCS queue: FIFO under contention). A lock that is not a
 * symmetric, aligned long, or clearing a lock this PE does not hold,
 * ends the PE with one line.
 */
#include "sh_face.h"

static void
lock_fail(const char *call, int rc, long *lock)
{
	if (rc == -EPERM)
		sh_fatal(call, "lock %p is not held by this PE", (void *)lock);
	face_fail(call, rc, -1, "lock", lock);
}

/* call's lock operation op on lock: its result (>= 0), or the PE ends. */
static int
lock_op(const char *call, int (*op)(long *), long *lock)
{
	sh_check_init(call);
	int rc = op(lock);
	if (rc < 0)
		lock_fail(call, rc, lock);
	return rc;
}

void
shmem_set_lock(long *lock)
{
	lock_op(__func__, sh_lock_set, lock);
}

int
shmem_test_lock(long *lock)
{
	return lock_op(__func__, sh_lock_test, lock);
}

void
shmem_clear_lock(long *lock)
{
	lock_op(__func__, sh_lock_clear, lock);
}
