// SPDX-License-Identifier: MIT
/*
 * u_os: the few system calls the project wraps, in one place so tests can
 * see what is used. Every function returns a value >= 0 or -errno; every fd
 * it creates is close-on-exec.
 */
#ifndef ZEMEM_U_OS_H
#define ZEMEM_U_OS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* memfd with MFD_CLOEXEC | MFD_ALLOW_SEALING, sized to size (may be 0). */
int u_memfd_create(const char *name, size_t size);
size_t u_page_size(void);
/* Physical RAM in bytes (sysconf), 0 if unknown. */
uint64_t u_phys_mem(void);
/* Number of online CPUs, at least 1 (read once per process). */
unsigned u_cpu_count(void);
/* fopen(path, "re") of an optional kernel file (sysfs, /proc/sys,
 * /proc/cpuinfo, /proc/locks: what a VM or a container may lack). Every
 * caller has a fallback for NULL; ZEMEM_SYSFS=0 makes every such open
 * fail with ENOENT, as on a machine without them, so tests exercise the
 * fallbacks. */
FILE *u_sysfile(const char *path);
/* The data and unified caches one core (cpu0) sees, smallest level first:
 * sizes in bytes into sizes[0..max), the count returned (0: unknown).
 * sysfs when the kernel exposes it (a core's share, which is what a
 * copy sees), else sysconf (glibc asks cpuid on x86), else none. */
unsigned u_cpu_caches(uint64_t *sizes, unsigned max);
/* Monotonic nanoseconds. */
uint64_t u_now_ns(void);
/* pidfd_open(pid, 0) and pidfd_getfd(pidfd, fd, 0): the new fd (the
 * kernel makes both close-on-exec) or -errno (-ENOSYS before Linux 5.6). */
int u_pidfd_open(int pid);
int u_pidfd_getfd(int pidfd, int fd);
/* len random bytes from getrandom: 0, or -errno (-EAGAIN after repeated
 * short reads). Blocks only until the kernel's pool is initialised (early
 * boot); never falls back to a guessable value. */
int u_random(void *buf, size_t len);
/* Whether this process may read (write: and write) every byte of
 * [p, p + len), asked of the kernel without touching the memory: one byte
 * of each page is read with process_vm_readv on our own pid (and, for
 * write, written back unchanged with process_vm_writev), which fails with
 * EFAULT where a load or store would fault. 0, -EFAULT (some page is not
 * accessible so), -EOVERFLOW (the range wraps), -ENOSYS where the kernel
 * refuses those calls and no answer can be had (for reading, a pipe is
 * asked then: write(2) of the bytes fails with EFAULT where a load would
 * fault). A write probe races with other threads' stores to the probed
 * bytes; callers probe memory they are about to overwrite. */
int u_probe(const void *p, size_t len, int write);

#endif
