// SPDX-License-Identifier: MIT
/*
 * vmm_os: every system call of driver/vmm, in one file.
 *
 * Vocabulary:
 *   placeholder  what holds reserved address space: a PROT_NONE, private,
 *                anonymous, MAP_NORESERVE mapping. It costs no memory and
 *                no commit charge, faults on any access, and keeps other
 *                mmap calls of the process out of the range;
 *   map          a memfd range put over part of a placeholder with
 *                MAP_SHARED | MAP_FIXED (atomic replacement: the range is
 *                never unmapped in between, so no other thread's mmap can
 *                land there);
 *   unmap        a placeholder put back over a mapped range, again with
 *                MAP_FIXED, so the reservation stays whole.
 *
 * No state, no locks: the callers (vmm_resv.c, vmm_map.c, vmm_phys.c and
 * the IPC importer) serialise what they do with one range.
 */
#include "vmm_private.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <unistd.h>

#include "u_os.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000 /* Linux 4.17; older kernels ignore it */
#endif

#define PLACEHOLDER_FLAGS (MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE)

int
vmm_os_reserve_at(void *hint, size_t size)
{
	void *p = mmap(hint, size, PROT_NONE,
		       PLACEHOLDER_FLAGS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED)
		return errno == EEXIST ? -EEXIST : -errno;
	if (p != hint) {
		/* A kernel without MAP_FIXED_NOREPLACE took it as a hint. */
		munmap(p, size);
		return -EEXIST;
	}
	return 0;
}

int
vmm_os_reserve(size_t size, size_t align, void **out)
{
	size_t page = u_page_size();
	if (align < page)
		align = page;
	/* Huge-page multiples: Linux 6.7 and later place anonymous mappings
	 * of such sizes on huge-page boundaries by themselves, so one mmap
	 * usually does. Stop trying after a few misses (older kernels). */
	static _Atomic unsigned misses;
	if (align >= 2 * VMM_MIB && size % (2 * VMM_MIB) == 0 &&
	    atomic_load_explicit(&misses, memory_order_relaxed) < 8) {
		void *p = mmap(NULL, size, PROT_NONE, PLACEHOLDER_FLAGS, -1, 0);
		if (p == MAP_FAILED)
			return -errno;
		if (!((uintptr_t)p & (align - 1))) {
			*out = p;
			return 0;
		}
		munmap(p, size);
		atomic_fetch_add_explicit(&misses, 1, memory_order_relaxed);
	}
	/* Reserve align - page bytes more and trim both ends: the result is
	 * aligned whatever the kernel picks. Untouched PROT_NONE ranges are
	 * cheap to make and to trim. */
	size_t span;
	if (__builtin_add_overflow(size, align - page, &span))
		return -ENOMEM;
	void *p = mmap(NULL, span, PROT_NONE, PLACEHOLDER_FLAGS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	uintptr_t a = (uintptr_t)p;
	uintptr_t start = (a + align - 1) & ~(uintptr_t)(align - 1);
	uintptr_t end = start + size;
	if (start > a)
		munmap(p, start - a);
	if (a + span > end)
		munmap((void *)end, a + span - end);
	*out = (void *)start;
	return 0;
}

int
vmm_os_placeholder(void *va, size_t size)
{
	void *p = mmap(va, size, PROT_NONE, PLACEHOLDER_FLAGS | MAP_FIXED, -1,
		       0);
	return p == MAP_FAILED ? -errno : 0;
}

int
vmm_os_map_fd(void *va, size_t size, int prot, int fd, uint64_t off)
{
	void *p = mmap(va, size, prot, MAP_SHARED | MAP_FIXED, fd, (off_t)off);
	if (p != MAP_FAILED)
		return 0;
	int err = -errno;
	/* A failed MAP_FIXED may already have removed what was there: put
	 * the placeholder back so the range stays reserved. */
	if (vmm_os_placeholder(va, size))
		u_err(VMM_TOPIC, "%p+%zu: cannot restore the placeholder "
				 "after a failed map (errno %d)", va, size,
		      errno);
	return err;
}

int
vmm_os_release(void *va, size_t size)
{
	return munmap(va, size) ? -errno : 0;
}

int
vmm_os_protect(void *va, size_t size, int prot)
{
	return mprotect(va, size, prot) ? -errno : 0;
}

int
vmm_os_memfd(const char *name, size_t size)
{
	int fd = u_memfd_create(name, size);
	if (fd < 0)
		return fd;
	/* The size never changes: an importer can trust it, and a mapping
	 * can never run past the end of the file (no SIGBUS). F_SEAL_SEAL
	 * keeps anyone from adding F_SEAL_WRITE later. */
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL))
		u_dbg(VMM_TOPIC, "%s: F_ADD_SEALS: errno %d (not sealed)",
		      name, errno);
	return fd;
}

int
vmm_os_prot(ze_memory_access_attribute_t access)
{
	switch (access) {
	case ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE:
		return PROT_READ | PROT_WRITE;
	case ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY:
		return PROT_READ;
	default:
		return PROT_NONE;
	}
}
