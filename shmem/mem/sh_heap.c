// SPDX-License-Identifier: MIT
/*
 * sh_heap: this PE's symmetric heap.
 *
 * The heap is one zeVirtualMemReserve'd window (64 times the initial size,
 * at most SH_WINDOW_MAX, at least the initial size), aligned to
 * SH_BASE_ALIGN when the driver takes the hint, so offsets aligned to up
 * to that are addresses aligned on every PE. Chunk 0 (ZESHMEM_SYMMETRIC_SIZE
 * plus the control block, rounded to the driver's page) is mapped at the
 * window's start; each growth maps one more physical object right after
 * the last, so the local heap stays contiguous. Physical objects are on
 * the PE's device (ZESHMEM_HEAP_MEMORY=device), or on the host
 * (ZE_PHYSICAL_MEM_FLAG_ALLOCATE_ON_HOST). zemem's driver backs them with
 * memfds, so untouched pages cost no memory.
 *
 * Every chunk registers in the symmetric-address map (sh_symmap.c) as
 * it is mapped; chunk 0's first SH_CTRL_SIZE bytes as the control block.
 * The collective allocation calls, which grow the heap when nothing
 * fits, are a floor above (team/sh_symalloc.c): they need the barrier and
 * the transports.
 *
 * Not thread-safe by design: collective calls are serialised by the
 * program (OpenSHMEM).
 */
#include "sh_mem.h"

#include "u_log.h"
#include "u_options.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SH_WINDOW_MAX (1ull << 40)  /* 1 TiB of address space */
#define SH_BASE_ALIGN (1ull << 30)

struct sh_heap sh_heap;

void *
sh_heap_base(void)
{
	return sh_heap.base;
}

size_t
sh_heap_size(void)
{
	return sh_heap.size;
}

ptrdiff_t
sh_heap_offset(const void *p, size_t len)
{
	uintptr_t off = (uintptr_t)p - (uintptr_t)sh_heap.base;
	if (!sh_heap.base || off >= sh_heap.size)
		return -EFAULT;
	/* Inside one chunk (growth may leave unmapped gaps between). */
	for (unsigned k = 0; k < sh_heap.nchunks; k++) {
		const struct sh_chunk *c = &sh_heap.chunk[k];
		if (off >= c->off && off - c->off < c->size)
			return len <= c->size - (off - c->off)
				       ? (ptrdiff_t)off : -EFAULT;
	}
	return -EFAULT;
}

struct sh_ctrl *
sh_ctrl_local(void)
{
	return (struct sh_ctrl *)sh_heap.base;
}

static size_t
round_up(size_t v, size_t a)
{
	return (v + a - 1) / a * a;
}

/* Creates and maps one physical object of size bytes at window offset off. */
static int
map_chunk(uint64_t off, size_t size, ze_physical_mem_handle_t *out)
{
	ze_physical_mem_desc_t pd = {
		.stype = ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC,
		.flags = sh_heap.on_host ? ZE_PHYSICAL_MEM_FLAG_ALLOCATE_ON_HOST
					 : 0,
		.size = size,
	};
	ze_physical_mem_handle_t ph;
	ze_result_t r = zePhysicalMemCreate(sh.zctx, sh.zdev, &pd, &ph);
	if (r) {
		u_err("shmem", "zePhysicalMemCreate of %zu bytes (%s): 0x%x",
		      size, sh_heap.on_host ? "host" : "device", r);
		return sh_ze_err(r);
	}
	r = zeVirtualMemMap(sh.zctx, sh_heap.base + off, size, ph, 0,
			    ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE);
	if (r) {
		u_err("shmem", "zeVirtualMemMap of %zu bytes at +%" PRIu64
			       ": 0x%x", size, off, r);
		zePhysicalMemDestroy(sh.zctx, ph);
		return sh_ze_err(r);
	}
	*out = ph;
	return 0;
}

static void
unmap_chunk(unsigned k)
{
	struct sh_chunk *c = &sh_heap.chunk[k];
	zeVirtualMemUnmap(sh.zctx, sh_heap.base + c->off, c->size);
	zePhysicalMemDestroy(sh.zctx, c->phys);
	c->phys = NULL;
}

/* Reserves the window, aligned to SH_BASE_ALIGN when possible: a first
 * reservation finds free space, the second asks for its aligned start. */
static int
reserve(size_t window)
{
	void *p = NULL;
	ze_result_t r = zeVirtualMemReserve(sh.zctx, NULL,
					    window + SH_BASE_ALIGN, &p);
	void *hint = NULL;
	if (!r) {
		hint = (void *)round_up((uintptr_t)p, SH_BASE_ALIGN);
		zeVirtualMemFree(sh.zctx, p, window + SH_BASE_ALIGN);
	}
	r = zeVirtualMemReserve(sh.zctx, hint, window, &p);
	if (r) {
		u_dbg("shmem", "zeVirtualMemReserve of %zu bytes: 0x%x",
		      window, r);
		return sh_ze_err(r);
	}
	sh_heap.base = p;
	sh_heap.reserved = window;
	uintptr_t a = (uintptr_t)p & -(uintptr_t)p;
	sh_heap.max_align = a > SH_BASE_ALIGN ? SH_BASE_ALIGN : a;
	return 0;
}

int
sh_heap_init(void)
{
	memset(&sh_heap, 0, sizeof(sh_heap));
	const char *mem = u_option_str(U_OPT_SH_HEAP_MEMORY);
	if (!strcmp(mem, "host"))
		sh_heap.on_host = true;
	else if (strcmp(mem, "device"))
		u_warn("shmem", "ZESHMEM_HEAP_MEMORY=%s: use device or host; "
				"using device", mem);
	size_t user = sh_req_heap_size ? sh_req_heap_size :
		      (size_t)u_option_u64(U_OPT_SH_SYMMETRIC_SIZE);
	size_t pg = 0;
	size_t want = user + SH_CTRL_SIZE;
	ze_result_t r = zeVirtualMemQueryPageSize(sh.zctx, sh.zdev, want, &pg);
	if (r || !pg)
		return r ? sh_ze_err(r) : -EIO;
	size_t c0 = round_up(want, pg);
	size_t window = c0 > SH_WINDOW_MAX / 64 ? c0 : c0 * 64;
	if (window > SH_WINDOW_MAX && c0 <= SH_WINDOW_MAX)
		window = SH_WINDOW_MAX;
	window = round_up(window, pg);
	/* Less address space when the process may not have that much
	 * (ulimit -v): halve down to chunk 0 alone. */
	int err;
	while ((err = reserve(window)) && window > c0) {
		window = round_up(window / 2, pg);
		if (window < c0)
			window = c0;
	}
	if (err) {
		u_err("shmem", "cannot reserve %zu bytes of address space for "
			       "the heap: %s", c0, strerror(-err));
		return err;
	}
	if ((err = map_chunk(0, c0, &sh_heap.chunk[0].phys)))
		goto err_resv;
	sh_heap.chunk[0].off = 0;
	sh_heap.chunk[0].size = c0;
	sh_heap.nchunks = 1;
	sh_heap.size = c0;
	sh_heap.chunk0_size = c0;

	/* Can the host load and store the heap? The allocation's type says
	 * where it lives; device memory of a CPU device is host memory. */
	ze_memory_allocation_properties_t ap = {
		.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES,
	};
	ze_device_properties_t dp = {
		.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES,
	};
	ze_device_handle_t d = NULL;
	if (!zeMemGetAllocProperties(sh.zctx, sh_heap.base, &ap, &d) &&
	    !zeDeviceGetProperties(sh.zdev, &dp))
		sh.heap_host_accessible =
			ap.type == ZE_MEMORY_TYPE_HOST ||
			ap.type == ZE_MEMORY_TYPE_SHARED ||
			(ap.type == ZE_MEMORY_TYPE_DEVICE &&
			 dp.type == ZE_DEVICE_TYPE_CPU);
	if (!sh.heap_host_accessible) {
		/* The control block's barrier words and futexes need host
		 * loads and stores. */
		u_err("shmem", "the heap's memory is not host-accessible "
			       "(type %d): set ZESHMEM_HEAP_MEMORY=host",
		      (int)ap.type);
		err = -EOPNOTSUPP;
		goto err_chunk;
	}
	struct sh_ctrl *ctl = sh_ctrl_local();
	memset(ctl, 0, SH_CTRL_SIZE);
	ctl->magic = SH_CTRL_MAGIC;
	ctl->team_mask = 3; /* world, shared */

	if ((err = sh_alloc_create(&sh_heap.alloc)))
		goto err_chunk;
	if ((err = sh_alloc_add(sh_heap.alloc, SH_CTRL_SIZE,
				c0 - SH_CTRL_SIZE)) ||
	    (err = sh_sym_heap_add(0, sh_heap.base, c0)))
		goto err_alloc;
	u_dbg("shmem", "heap %p: chunk 0 %zu bytes, window %zu, align %zu",
	      (void *)sh_heap.base, c0, window, sh_heap.max_align);
	return 0;

err_alloc:
	sh_alloc_destroy(sh_heap.alloc);
	sh_heap.alloc = NULL;
err_chunk:
	unmap_chunk(0);
err_resv:
	zeVirtualMemFree(sh.zctx, sh_heap.base, sh_heap.reserved);
	sh_heap.base = NULL;
	return err;
}

void
sh_heap_fini(void)
{
	if (!sh_heap.base)
		return;
	sh_sym_heap_clear();
	for (unsigned k = sh_heap.nchunks; k-- > 0;)
		unmap_chunk(k);
	zeVirtualMemFree(sh.zctx, sh_heap.base, sh_heap.reserved);
	sh_alloc_destroy(sh_heap.alloc);
	memset(&sh_heap, 0, sizeof(sh_heap));
}

int
sh_heap_grow(size_t min_bytes, unsigned *kp)
{
	if (min_bytes > sh_heap.reserved)
		return -ENOMEM;
	size_t pg = 0;
	/* An eighth more than asked: room for what the request's alignment
	 * and the allocator's size classes may cost. */
	size_t want = min_bytes + min_bytes / 8;
	if (want < sh_heap.chunk0_size)
		want = sh_heap.chunk0_size;
	ze_result_t r = zeVirtualMemQueryPageSize(sh.zctx, sh.zdev, want, &pg);
	if (r || !pg)
		return r ? sh_ze_err(r) : -EIO;
	/* At least as large as chunk 0 (growth stays rare), a multiple of
	 * the page at an offset aligned to it (a gap may stay unmapped). */
	size_t size = round_up(want, pg);
	unsigned k = sh_heap.nchunks;
	uint64_t off = round_up(sh_heap.size, pg);
	/* The same decision on every PE (same arguments, same heap). */
	if (k >= SH_MAX_CHUNKS || off > sh_heap.reserved ||
	    size > sh_heap.reserved - off)
		return -ENOMEM;
	sh_heap.chunk[k].off = off;
	sh_heap.chunk[k].size = size;
	int err = map_chunk(off, size, &sh_heap.chunk[k].phys);
	int32_t mine = err;
	/* Every PE learns whether every PE mapped it: one all-gather. */
	int32_t *st = calloc((size_t)sh.npes, sizeof(*st));
	int berr = st ? sh.boot->ops->allgather(sh.boot, &mine, sizeof(mine),
						st)
		      : -ENOMEM;
	for (int i = 0; !berr && i < sh.npes; i++)
		if (st[i] && !err)
			err = -EAGAIN; /* another PE failed */
	free(st);
	if (berr && !err)
		err = berr;
	if (err) {
		if (mine == 0)
			unmap_chunk(k);
		return err;
	}
	sh_heap.nchunks = k + 1;
	sh_heap.size = off + size;
	*kp = k;
	/* The chunk is symmetric from here (the same k on every PE); its
	 * views fill as the transports open the peers' copies. */
	return sh_sym_heap_add(k, sh_heap.base + off, size);
}

