// SPDX-License-Identifier: MIT
/*
 * ipc_seal: the files this process has seen sealed against shrinking, so
 * that a received memfd is asked for its seals (F_GET_SEALS, a system
 * call) once per file, not at every import (issue 14: cold IPC opens).
 *
 * Why it may be cached: a seal is never taken off an inode (F_SEAL_* only
 * add), so an inode seen with F_SEAL_SHRINK keeps it. What must hold is
 * that a file found here IS that inode. Its identity is (st_dev, st_ino,
 * st_ctim), which every import reads anyway (fstat): two live inodes of one
 * device never share an inode number, and an inode that reuses the number
 * of a dead one was created after it died, so its ctime (set to the
 * current time by every change, never by the user to a value of choice)
 * is later than any ctime we saw of the dead one. Anything that changes
 * the inode (a write through a new mapping, fallocate, a seal) changes the
 * ctime too: then the file is simply asked again. The only way round it
 * is setting the system clock back (CAP_SYS_TIME).
 *
 * The table: 64 slots, each an atomic 64-bit keyed hash of (dev, ino,
 * ctime) with a per-process random key, so no lock (fork-safe) and a
 * false hit is a 64-bit collision of a hash an attacker cannot compute
 * (the key never leaves the process). A slot holds the last file that
 * mapped to it. No key (getrandom failed): nothing is cached.
 */
#include "ipc.h"

#include <pthread.h>
#include <stdatomic.h>
#include <sys/stat.h>

#define SEAL_SLOTS 64 /* a power of two */

static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static uint64_t key; /* 0: no cache */
static _Atomic uint64_t slots[SEAL_SLOTS];

static void
key_make(void)
{
	uint64_t k;
	if (!ipc_secret64(&k))
		key = k ? k : 1;
}

/* The keyed hash of st's identity (never 0), or 0 when nothing is cached. */
static uint64_t
ident(const struct stat *st)
{
	pthread_once(&key_once, key_make);
	if (!key)
		return 0;
	/* ctime in nanoseconds is one-to-one until the year 2554: three
	 * rounds for the three words. */
	uint64_t ctime_ns = (uint64_t)st->st_ctim.tv_sec * 1000000000u +
			    (uint64_t)st->st_ctim.tv_nsec;
	uint64_t h = ipc_hash64(key ^ (uint64_t)st->st_dev);
	h = ipc_hash64(h ^ (uint64_t)st->st_ino);
	h = ipc_hash64(h ^ ctime_ns ^ key);
	return h ? h : 1;
}

bool
ipc_seal_known(const struct stat *st)
{
	uint64_t h = ident(st);
	return h && atomic_load_explicit(&slots[h % SEAL_SLOTS],
					 memory_order_relaxed) == h;
}

void
ipc_seal_note(const struct stat *st)
{
	uint64_t h = ident(st);
	if (h)
		atomic_store_explicit(&slots[h % SEAL_SLOTS], h,
				      memory_order_relaxed);
}
