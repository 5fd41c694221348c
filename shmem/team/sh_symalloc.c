// SPDX-License-Identifier: MIT
/*
 * sh_symalloc: the collective allocation calls (the OpenSHMEM / seed 000
 * rules): malloc = allocate locally (grow the heap if it does not fit),
 * then barrier; free = barrier, then free; every return path enters the
 * barrier, so a PE that got an invalid argument returns NULL without
 * deadlocking the others. With ZESHMEM_CHECK_SYMMETRY=1 each PE
 * publishes {offset, size} in its control block before that barrier and
 * compares its node peers' after it.
 *
 * Growth (grow): a new chunk on every PE (mem/sh_heap.c, which registers
 * it in the symmetric-address map), the peers' copies opened by both
 * transports (all or nothing inside each add_chunk), then the chunk
 * handed to the allocator as a region of its own.
 *
 * Not thread-safe by design: collective calls are serialised by the
 * program (OpenSHMEM).
 */
#include "sh_team.h"

#include "u_log.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Collective: one more chunk of at least min_bytes, reachable by every
 * peer, in the allocator. 0 or -errno (the same on every PE). */
static int
grow(size_t min_bytes)
{
	unsigned k;
	int err = sh_heap_grow(min_bytes, &k);
	if (err)
		return err;
	if ((err = sh_tr_ipc_add_chunk(k)) || (err = sh_tr_ofi_add_chunk(k)))
		/* Peers' mappings are all-or-nothing inside add_chunk; the
		 * chunk stays mapped here but unused by the allocator. */
		return err;
	const struct sh_chunk *c = &sh_heap.chunk[k];
	if ((err = sh_alloc_add(sh_heap.alloc, c->off, c->size)))
		return err;
	u_info("shmem", "heap grown by %zu bytes (chunk %u): now %zu",
	       (size_t)c->size, k, sh_heap.size);
	return 0;
}

/* A collective allocation's barrier failed: end this PE, naming the PE
 * that ended when that is why. */
static _Noreturn void
barrier_fatal(const char *who, int err)
{
	for (int pe = 0; err == -EHOSTDOWN && sh.peers && pe < sh.npes; pe++)
		if (sh.peers[pe].dead)
			sh_fatal(who, "PE %d ended (pid %d): the collective "
				      "cannot complete", pe,
				 sh.pids ? (int)sh.pids[pe] : 0);
	sh_fatal(who, "barrier: %s", strerror(-err));
}

/* The collective end of every allocation call: publish, barrier, check. */
static void
alloc_barrier(const void *p, size_t size, const char *who)
{
	uint64_t off = p ? (uint64_t)((const char *)p - sh_heap.base)
			 : UINT64_MAX;
	unsigned par = (unsigned)(sh_heap.nallocs++ & 1);
	struct sh_ctrl *ctl = sh_ctrl_local();
	__atomic_store_n(&ctl->sym[par][0], off, __ATOMIC_RELAXED);
	__atomic_store_n(&ctl->sym[par][1], p ? (uint64_t)size : 0,
			 __ATOMIC_RELAXED);
	int err = sh_barrier(sh_team_world);
	if (err)
		barrier_fatal(who, err);
	if (!sh.check_symmetry)
		return;
	for (int pe = 0; pe < sh.npes; pe++) {
		struct sh_ctrl *pc = sh.peers[pe].ctrl;
		if (!pc || pe == sh.me)
			continue;
		uint64_t po = __atomic_load_n(&pc->sym[par][0],
					      __ATOMIC_RELAXED);
		uint64_t ps = __atomic_load_n(&pc->sym[par][1],
					      __ATOMIC_RELAXED);
		if (po != off || ps != (p ? size : 0))
			sh_fatal(who, "symmetry check: PE %d got offset "
				      "%" PRId64 " size %" PRIu64 ", this PE "
				      "offset %" PRId64 " size %zu (the PEs "
				      "passed different arguments)",
				 pe, po == UINT64_MAX ? (int64_t)-1
						      : (int64_t)po,
				 ps, off == UINT64_MAX ? (int64_t)-1
						       : (int64_t)off,
				 p ? size : 0);
	}
}

/* Local step of an allocation: 0 and *out, or -errno (warned). */
static int
alloc_local(size_t size, size_t align, const char *who, void **out)
{
	*out = NULL;
	if (!align || (align & (align - 1)) || align % sizeof(void *)) {
		sh_warn(who, "alignment %zu is not a power of two multiple of "
			     "sizeof(void *): returning NULL", align);
		return -EINVAL;
	}
	if (!size)
		return 0;
	if (align > sh_heap.max_align) {
		sh_warn(who, "alignment %zu is larger than the heap's (%zu): "
			     "returning NULL", align, sh_heap.max_align);
		return -EINVAL;
	}
	if (align < SH_DEFAULT_ALIGN)
		align = SH_DEFAULT_ALIGN;
	uint64_t off;
	int err = sh_alloc_alloc(sh_heap.alloc, size, align, &off);
	if (err == -ENOMEM && size <= SIZE_MAX / 2) {
		/* Every PE fails here alike (same allocator state): grow. */
		int g = grow(size + align);
		if (!g)
			err = sh_alloc_alloc(sh_heap.alloc, size, align, &off);
	}
	if (err) {
		sh_warn(who, "%zu bytes (alignment %zu) do not fit in the "
			"symmetric heap (%zu bytes, ZESHMEM_SYMMETRIC_SIZE): "
			"returning NULL", size, align, sh_heap.size);
		return err;
	}
	*out = sh_heap.base + off;
	return 0;
}

void *
sh_malloc(size_t size, size_t align, const char *who)
{
	sh_check_init(who);
	void *p;
	alloc_local(size, align, who, &p);
	alloc_barrier(p, size, who);
	return p;
}

/* Zeroes [p, p + n) of the local heap. */
static void
zero_local(void *p, size_t n)
{
	memset(p, 0, n);
}

void *
sh_calloc(size_t count, size_t size, const char *who)
{
	sh_check_init(who);
	void *p = NULL;
	size_t n = 0;
	if (count && size && __builtin_mul_overflow(count, size, &n))
		sh_warn(who, "count %zu * size %zu overflows size_t: returning "
			     "NULL", count, size);
	else if (count && size &&
		 !alloc_local(n, SH_DEFAULT_ALIGN, who, &p) && p)
		zero_local(p, n);
	alloc_barrier(p, n, who);
	return p;
}

/* Offset of a live allocation's base, or -EINVAL. */
static int64_t
block_of(const void *ptr, int64_t *bytes)
{
	ptrdiff_t off = sh_heap_offset(ptr, 0);
	if (off < 0)
		return -EINVAL;
	int64_t sz = sh_alloc_size(sh_heap.alloc, (uint64_t)off);
	if (sz < 0)
		return -EINVAL;
	if (bytes)
		*bytes = sz;
	return off;
}

void
sh_free(void *ptr, const char *who)
{
	sh_check_init(who);
	int err = sh_barrier(sh_team_world);
	if (err)
		barrier_fatal(who, err);
	if (!ptr)
		return;
	int64_t off = block_of(ptr, NULL);
	if (off < 0 || sh_alloc_free(sh_heap.alloc, (uint64_t)off))
		sh_warn(who, "%p is not an allocation of the symmetric heap "
			"(freed twice, interior pointer, or not symmetric): "
			"ignored", ptr);
}

void *
sh_realloc(void *ptr, size_t size, const char *who)
{
	sh_check_init(who);
	if (!ptr)
		return sh_malloc(size, SH_DEFAULT_ALIGN, who);
	if (!size) {
		sh_free(ptr, who);
		return NULL;
	}
	/* Nobody may still write into the old block. */
	int err = sh_barrier(sh_team_world);
	if (err)
		barrier_fatal(who, err);
	int64_t old = 0;
	int64_t off = block_of(ptr, &old);
	void *p = NULL;
	if (off < 0) {
		sh_warn(who, "%p is not an allocation of the symmetric heap: "
			     "returning NULL", ptr);
	} else if (!sh_alloc_resize(sh_heap.alloc, (uint64_t)off, size)) {
		p = ptr;
	} else if (!alloc_local(size, SH_DEFAULT_ALIGN, who, &p) && p) {
		memcpy(p, ptr, (size_t)old < size ? (size_t)old : size);
		sh_alloc_free(sh_heap.alloc, (uint64_t)off);
	}
	alloc_barrier(p, size, who);
	return p;
}
