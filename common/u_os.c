// SPDX-License-Identifier: MIT
/*
 * u_os: thin system-call wrappers (see u_os.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "u_os.h"
#include "u_lock.h"
#include "u_options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/uio.h>
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

FILE *
u_sysfile(const char *path)
{
	if (!u_option_u64(U_OPT_SYSFS)) {
		errno = ENOENT;
		return NULL;
	}
	return fopen(path, "re");
}

/* One line of a sysfs cache attribute; 0 when absent. */
static int
cache_attr(int index, const char *attr, char *buf, size_t len)
{
	char path[96];
	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu0/cache/index%d/%s", index, attr);
	FILE *f = u_sysfile(path);
	if (!f)
		return 0;
	int ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	return ok;
}

static unsigned
caches_sysfs(uint64_t *sizes, unsigned max)
{
	unsigned n = 0;
	for (int i = 0; i < 16 && n < max; i++) {
		char type[32], size[32];
		if (!cache_attr(i, "type", type, sizeof(type)))
			break;
		if (strncmp(type, "Data", 4) && strncmp(type, "Unified", 7))
			continue;
		if (!cache_attr(i, "size", size, sizeof(size)))
			continue;
		char *end;
		unsigned long long v = strtoull(size, &end, 10);
		if (*end == 'K')
			v <<= 10;
		else if (*end == 'M')
			v <<= 20;
		if (v)
			sizes[n++] = v;
	}
	return n;
}

static unsigned
caches_sysconf(uint64_t *sizes, unsigned max)
{
	static const int names[] = { _SC_LEVEL1_DCACHE_SIZE,
				     _SC_LEVEL2_CACHE_SIZE,
				     _SC_LEVEL3_CACHE_SIZE,
				     _SC_LEVEL4_CACHE_SIZE };
	unsigned n = 0;
	for (unsigned i = 0; i < 4 && n < max; i++) {
		long v = sysconf(names[i]);
		if (v > 0)
			sizes[n++] = (uint64_t)v;
	}
	return n;
}

unsigned
u_cpu_caches(uint64_t *sizes, unsigned max)
{
	unsigned n = caches_sysfs(sizes, max);
	return n ? n : caches_sysconf(sizes, max);
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

int
u_random(void *buf, size_t len)
{
	size_t got = 0;
	for (int tries = 0; got < len && tries < 16; tries++) {
		ssize_t r = getrandom((char *)buf + got, len - got, 0);
		if (r > 0)
			got += (size_t)r;
		else if (r < 0 && errno != EINTR)
			return -errno;
	}
	return got == len ? 0 : -EAGAIN;
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

/* Readability through a pipe (process_vm_readv refused): 0 or -EFAULT,
 * -ENOSYS when even that cannot tell. */
static int
probe_pipe(const char *at)
{
	int fd[2];
	if (pipe2(fd, O_CLOEXEC | O_NONBLOCK))
		return -ENOSYS;
	int err = 0;
	if (write(fd[1], at, 1) != 1)
		err = errno == EFAULT ? -EFAULT : -ENOSYS;
	close(fd[0]);
	close(fd[1]);
	return err;
}

#define PROBE_BATCH 64 /* pages per system call */

int
u_probe(const void *p, size_t len, int write)
{
	uintptr_t a = (uintptr_t)p, pg = u_page_size();
	if (!len)
		return 0;
	if (a + len < a)
		return -EOVERFLOW;
	uintptr_t end = a + len;
	pid_t self = getpid();
	char bytes[PROBE_BATCH];
	struct iovec local[PROBE_BATCH], remote[PROBE_BATCH];
	while (a < end) {
		/* one byte of each of the next pages: a, then page starts */
		int n = 0;
		for (uintptr_t b = a; b < end && n < PROBE_BATCH;
		     b = (b & ~(pg - 1)) + pg, n++) {
			local[n] = (struct iovec){ &bytes[n], 1 };
			remote[n] = (struct iovec){ (void *)b, 1 };
		}
		ssize_t k = process_vm_readv(self, local, (unsigned long)n,
					     remote, (unsigned long)n, 0);
		if (k < 0 && errno != EFAULT) {
			if (write)
				return -ENOSYS;
			for (int i = 0; i < n; i++) {
				int err = probe_pipe(remote[i].iov_base);
				if (err)
					return err;
			}
		} else if (k != n) {
			return -EFAULT;
		} else if (write) {
			k = process_vm_writev(self, local, (unsigned long)n,
					      remote, (unsigned long)n, 0);
			if (k < 0 && errno != EFAULT)
				return -ENOSYS;
			if (k != n)
				return -EFAULT;
		}
		a = ((uintptr_t)remote[n - 1].iov_base & ~(pg - 1)) + pg;
	}
	return 0;
}
