// SPDX-License-Identifier: MIT
/*
 * u_os: thin system-call wrappers (see u_os.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "u_os.h"
#include "u_lock.h"

#include <errno.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int
u_memfd_create(const char *name, size_t size)
{
	int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -errno;
	if (size && ftruncate(fd, (off_t)size) < 0) {
		int err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

size_t
u_page_size(void)
{
	static size_t page;
	if (!page) {
		long v = sysconf(_SC_PAGESIZE);
		page = v > 0 ? (size_t)v : 4096;
	}
	return page;
}

uint64_t
u_phys_mem(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	if (pages <= 0)
		return 0;
	return (uint64_t)pages * u_page_size();
}

unsigned
u_cpu_count(void)
{
	/* Read once: glibc's sysconf opens and parses
	 * /sys/devices/system/cpu/online on every call, and waits ask this
	 * on their way to sleep. */
	static unsigned cached;
	unsigned c = __atomic_load_n(&cached, __ATOMIC_RELAXED);
	if (c)
		return c;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	c = n > 0 ? (unsigned)n : 1;
	__atomic_store_n(&cached, c, __ATOMIC_RELAXED);
	return c;
}

uint64_t
u_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

int
u_pidfd_open(int pid)
{
	long r = syscall(SYS_pidfd_open, pid, 0);
	return r < 0 ? -errno : (int)r;
}

int
u_pidfd_getfd(int pidfd, int fd)
{
	long r = syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	return r < 0 ? -errno : (int)r;
}

/* ---- u_lock's slow paths (u_lock.h) ------------------------------------ */

void
u_lock_wait(u_lock_t *l, int seen)
{
	/* Mark it waited for; whoever frees it then wakes one sleeper. */
	if (seen != 2)
		seen = atomic_exchange_explicit(&l->word, 2,
						memory_order_acquire);
	while (seen != 0) {
		/* Returns at once (EAGAIN) when the word is no longer 2. */
		syscall(SYS_futex, &l->word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL,
			0);
		seen = atomic_exchange_explicit(&l->word, 2,
						memory_order_acquire);
	}
}

void
u_lock_wake(u_lock_t *l)
{
	syscall(SYS_futex, &l->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
