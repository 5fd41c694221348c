// SPDX-License-Identifier: MIT
/*
 * usm_pool: size classes, arenas and segments for small allocations.
 *
 * Vocabulary:
 *   class    a slot size. Small classes: 16..128 in steps of 16, then four
 *            per doubling up to 64 KiB (160, 192, 224, 256, 320, ...), so
 *            a slot wastes < 25% of it above 48 B (< 16 B below).
 *            Page classes: 1..16 whole pages, for page-isolated memory
 *            (HOST and DEVICE kinds, each block exportable alone).
 *   arena    one (kind, class): its segments and its lock.
 *   segment  2 MiB-aligned run of slots mapped MAP_SHARED from the kind's
 *            pool memfd at a file offset; lengths double per arena from
 *            2 MiB to USM_SEG_MAX (8 MiB). One memfd per kind: the pool
 *            holds three fds however much it holds.
 *   record   16 bytes per slot (usm_private.h), in a mapping of its own.
 *
 * A slot's alignment is the largest power of two dividing its class (the
 * segment base is 2 MiB aligned); a request takes the first class that is
 * large enough and aligned enough, else it is large (usm_large.c).
 *
 * Locks: arena->mtx protects the arena's lists and every segment's free
 * list, counts and list links; segments are created and released under
 * it (taking file->mtx and the index write lock inside). Records are
 * atomics (see usm_private.h). An arena keeps at most one empty segment
 * (a filed arena, below: any number, "idle" on its partial list), all
 * bounded per heap by USM_EMPTY_CACHE_MAX; others are released: out of
 * the index, unmapped, their file range punched and reused later.
 *
 * Slot files (exportable memory that shares no file): the page-isolated
 * arenas of host and device memory are "filed": when a slot is handed out
 * and has no file, it gets a memfd of its own (slot size, sealed against
 * shrinking and growth) mapped over its range of the segment, and keeps
 * it while it is recycled (no syscall on a later alloc/free). IPC hands
 * out that file, which holds nothing but the block. When an exported
 * block is freed its slot gives the file up (its fd closed, a fresh
 * memfd, or else the pool file's range, mapped over it): importers keep
 * the pages through their own fds and mappings, and the slot goes back to
 * the free list. The heap holds at most slot_files_max slot files
 * (ZEMEM_EXPORT_FILES, a quarter of RLIMIT_NOFILE and of max_map_count):
 * past that, or without an fd (EMFILE), a slot stays in the pool file and
 * its blocks cannot be exported (warned once), and host blocks go to the
 * dense small classes (heap->host_dense) until half the budget is free
 * again.
 * A slot exported without a file of its own (a udmabuf range of the pool
 * file) is never handed out again once freed ("dead"): a segment with
 * dead slots punches only around them and its file range is never
 * reused.
 */
#include "usm_private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "u_log.h"
#include "u_os.h"
#include "u_list.h"

enum { SEG_PARTIAL = 1, SEG_FULL, SEG_EMPTY, SEG_RETIRED };

/* ---- classes ---------------------------------------------------------- */

static uint32_t
small_size(unsigned c)
{
	if (c < 8)
		return 16u * (c + 1);
	unsigned g = (c - 8) / 4, r = (c - 8) % 4;
	return (128u << g) + (r + 1) * (32u << g);
}

#define small_class usm_small_class

/* class of sizes up to 1024 by ceil(size / 16): classes there are
 * multiples of 16. Written once (usm_classes_init). */
uint8_t usm_fast_class[USM_FAST_MAX / 16 + 1];
uint32_t usm_fast_shared_bin[USM_FAST_MAX / 16 + 1];
static pthread_once_t classes_once = PTHREAD_ONCE_INIT;

static void
classes_fill(void)
{
	for (unsigned i = 1; i <= USM_FAST_MAX / 16; i++)
		usm_fast_class[i] = (uint8_t)small_class(i * 16);
	/* shared blocks are never page-isolated: their small class's bin,
	 * as usm_fast_arena picks it (index 0, size 0, never asked) */
	for (unsigned i = 0; i <= USM_FAST_MAX / 16; i++)
		usm_fast_shared_bin[i] =
			(uint32_t)(((USM_KIND_SHARED - 1) * USM_NCLS +
				    usm_fast_class[i ? i : 1]) *
				   sizeof(struct tc_bin));
}

void
usm_classes_init(void)
{
	pthread_once(&classes_once, classes_fill);
}

/* fast_host_bin: the one-page class (page-isolated blocks; sizes up to
 * USM_FAST_MAX fit one page), or the small classes. */
static void
fast_host_fill(struct usm_heap *h, bool isolated)
{
	for (unsigned i = 0; i <= USM_FAST_MAX / 16; i++) {
		unsigned c = isolated ? USM_NCLS_SMALL
				      : usm_fast_class[i ? i : 1];
		/* host classes come first: arena c is bin c */
		atomic_store_explicit(&h->fast_host_bin[i],
				      (uint16_t)(c * sizeof(struct tc_bin)),
				      memory_order_relaxed);
	}
}

void
usm_fast_host_bin_init(struct usm_heap *h)
{
	_Static_assert(USM_KIND_HOST == 1 &&
			       USM_NCLS * sizeof(struct tc_bin) <= UINT16_MAX,
		       "fast_host_bin holds uint16_t offsets of host bins");
	fast_host_fill(h, !atomic_load_explicit(&h->host_dense,
						 memory_order_relaxed));
}

void
usm_host_dense_set(struct usm_heap *h, bool dense)
{
	atomic_store_explicit(&h->host_dense, dense, memory_order_relaxed);
	fast_host_fill(h, !dense);
}

/* The general search; usm_alloc() answers the common cases from
 * usm_fast_class and the page count before coming here. */
int
usm_arena_for(enum usm_kind kind, bool isolate, size_t size, size_t align)
{
	int base = ((int)kind - 1) * USM_NCLS;
	if (!isolate) {
		size_t a = align ? align : USM_DEFAULT_ALIGN;
		if (size > USM_POOL_MAX || a > USM_POOL_MAX)
			return -1;
		unsigned c = small_class(size);
		while (c < USM_NCLS_SMALL && (small_size(c) & (a - 1)))
			c++;
		return c < USM_NCLS_SMALL ? base + (int)c : -1;
	}
	size_t page = u_page_size();
	size_t a = align > page ? align : page;
	size_t pages = (size + page - 1) / page;
	while (pages <= USM_NCLS_PAGE && ((pages * page) & (a - 1)))
		pages++;
	if (pages > USM_NCLS_PAGE)
		return -1;
	return base + USM_NCLS_SMALL + (int)pages - 1;
}

uint32_t
usm_arena_slot_size(unsigned arena)
{
	unsigned c = arena % USM_NCLS;
	if (c < USM_NCLS_SMALL)
		return small_size(c);
	return (uint32_t)((c - USM_NCLS_SMALL + 1) * u_page_size());
}

void
usm_arena_init(struct usm_heap *h, unsigned idx)
{
	struct usm_arena *a = &h->arena[idx];
	memset(a, 0, sizeof(*a));
	pthread_mutex_init(&a->mtx, NULL);
	a->kind = (uint8_t)(idx / USM_NCLS + 1);
	a->slot_size = usm_arena_slot_size(idx);
	a->page_isolated = a->slot_size % h->page_size == 0;
	a->filed = a->page_isolated && a->kind != USM_KIND_SHARED &&
		   h->slot_files_max > 0;
	a->next_len = USM_SEG_MIN;
	while (a->next_len / a->slot_size < 8)
		a->next_len *= 2;
}

/* ---- lists (arena->mtx) ----------------------------------------------- */

static struct usm_seg **
list_head(struct usm_arena *a, uint8_t list)
{
	return list == SEG_PARTIAL ? &a->partial
	       : list == SEG_RETIRED ? &a->retired
				     : &a->full;
}

static void
list_del(struct usm_arena *a, struct usm_seg *s)
{
	if (s->list == SEG_EMPTY) {
		a->empty = NULL;
	} else {
		U_LIST_UNLINK(list_head(a, s->list), s, prev, next);
	}
	s->prev = s->next = NULL;
	s->list = 0;
}

static void
list_add(struct usm_arena *a, struct usm_seg *s, uint8_t list)
{
	U_LIST_PUSH(list_head(a, list), s, prev, next);
	s->list = list;
}

/* ---- pool files (file->mtx) ------------------------------------------- */

static unsigned
len_bucket(size_t len)
{
	return (unsigned)__builtin_ctzll(len >> USM_GRANULE_SHIFT);
}

/* Opens the kind's pool file if it is not open yet; f->mtx held. */
static int
file_open_locked(struct usm_heap *h, struct usm_pool_file *f,
		 enum usm_kind kind)
{
	if (f->obj.fd >= 0)
		return 0;
	char name[32];
	snprintf(name, sizeof(name), "zemem:pool:%s", usm_kind_name(kind));
	int err = bk_memfd_ops.create(&f->obj, name, 0, true);
	if (!err)
		usm_count(&h->bk_fds[BK_MEMFD], 1);
	return err;
}

int
usm_pool_file_open(struct usm_heap *h, enum usm_kind kind)
{
	struct usm_pool_file *f = &h->file[kind - 1];
	pthread_mutex_lock(&f->mtx);
	int err = file_open_locked(h, f, kind);
	pthread_mutex_unlock(&f->mtx);
	return err;
}

static int
file_take(struct usm_heap *h, struct usm_pool_file *f, enum usm_kind kind,
	  size_t len, uint64_t *off)
{
	unsigned k = len_bucket(len);
	pthread_mutex_lock(&f->mtx);
	int err = file_open_locked(h, f, kind);
	if (err)
		goto out;
	if (f->nfree[k]) {
		*off = f->free_off[k][--f->nfree[k]];
		goto out;
	}
	err = bk_memfd_ops.resize(&f->obj, f->end + len);
	if (err)
		goto out;
	*off = f->end;
	f->end += len;
out:
	pthread_mutex_unlock(&f->mtx);
	return err;
}

/* Gives [off, off + len) back: punched, kept for reuse. */
static void
file_give(struct usm_pool_file *f, uint64_t off, size_t len)
{
	unsigned k = len_bucket(len);
	pthread_mutex_lock(&f->mtx);
	int err = bk_memfd_ops.release(&f->obj, NULL, off, len);
	if (err)
		u_warn(USM_TOPIC, "punching %zu bytes of a pool file: %d", len,
		       err);
	if (f->nfree[k] == f->cap[k]) {
		uint32_t cap = f->cap[k] ? f->cap[k] * 2 : 8;
		uint64_t *n = realloc(f->free_off[k], cap * sizeof(*n));
		if (n) {
			f->free_off[k] = n;
			f->cap[k] = cap;
		}
	}
	if (!err && f->nfree[k] < f->cap[k])
		f->free_off[k][f->nfree[k]++] = off;
	pthread_mutex_unlock(&f->mtx);
}

/* ---- segments (arena->mtx) -------------------------------------------- */

/* Records: zero-filled on first touch. Big ones are 2 MiB aligned and
 * asked for transparent huge pages, so lookups over a million records do
 * not miss the TLB every time. */
static int
recs_map(size_t len, struct usm_rec **out)
{
	void *p = NULL;
	int flags = MAP_PRIVATE | MAP_ANONYMOUS;
	if (len >= USM_GRANULE) {
		if (usm_va_reserve(len, USM_GRANULE, &p))
			p = NULL;
		else
			flags |= MAP_FIXED;
	}
	void *m = mmap(p, len, PROT_READ | PROT_WRITE, flags, -1, 0);
	if (m == MAP_FAILED) {
		int err = -errno;
		if (p)
			munmap(p, len);
		return err;
	}
	if (len >= USM_GRANULE)
		madvise(m, len, MADV_HUGEPAGE);
	*out = m;
	return 0;
}

static int
seg_create(struct usm_heap *h, struct usm_arena *a, struct usm_seg **out)
{
	size_t len = a->next_len;
	uint32_t nslots = (uint32_t)(len / a->slot_size);
	struct usm_pool_file *f = &h->file[a->kind - 1];
	int err;
	struct usm_seg *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->recs_len = ((size_t)nslots * sizeof(struct usm_rec) +
		       h->page_size - 1) & ~(h->page_size - 1);
	if ((err = recs_map(s->recs_len, &s->recs)))
		goto err_seg;
	if (a->filed) {
		s->slot_fd = malloc(nslots * sizeof(*s->slot_fd));
		if (!s->slot_fd) {
			err = -ENOMEM;
			goto err_recs;
		}
		for (uint32_t i = 0; i < nslots; i++)
			atomic_init(&s->slot_fd[i], -1);
	}
	if ((err = file_take(h, f, a->kind, len, &s->fd_off)))
		goto err_recs;
	void *va;
	if ((err = usm_va_reserve(len, USM_GRANULE, &va)))
		goto err_file;
	if ((err = bk_memfd_ops.map(&f->obj, va, s->fd_off, len))) {
		munmap(va, len);
		goto err_file;
	}
	s->span.base = (uintptr_t)va;
	s->span.len = len;
	s->span.type = SPAN_SEG;
	s->arena = a;
	s->arena_idx = (uint32_t)(a - h->arena);
	s->kind = a->kind;
	s->page_isolated = a->page_isolated;
	s->fd = f->obj.fd;
	s->slot_size = a->slot_size;
	s->nslots = nslots;
	s->magic = UINT64_MAX / a->slot_size + 1;
	s->nfree = nslots;
	s->free_head = USM_IDX_NONE;
	USM_POISON(va, len);
	err = usm_index_add(h, &s->span);
	if (err)
		goto err_map;
	usm_count(&h->bk_mapped[BK_MEMFD], (int64_t)len);
	usm_count(&h->meta_bytes, (int64_t)(s->recs_len + sizeof(*s)));
	if (s->slot_fd)
		usm_count(&h->meta_bytes, (int64_t)(nslots * sizeof(int)));
	a->nsegs++;
	if (a->next_len < USM_SEG_MAX)
		a->next_len *= 2;
	u_dbg(USM_TOPIC, "%s arena of %u B: segment of %zu KiB at %p",
	      usm_kind_name(a->kind), a->slot_size, len >> 10, va);
	*out = s;
	return 0;

err_map:
	bk_memfd_ops.unmap(&f->obj, va, len);
err_file:
	file_give(f, s->fd_off, len);
err_recs:
	free((void *)s->slot_fd);
	munmap(s->recs, s->recs_len);
err_seg:
	free(s);
	u_warn(USM_TOPIC, "no new %zu-byte segment for %u-byte %s slots: %d",
	       len, a->slot_size, usm_kind_name(a->kind), err);
	return err;
}

/* ---- slot files (arena->mtx) ------------------------------------------ */

static void
slot_file_warn(struct usm_heap *h, int err)
{
	static _Atomic bool warned;
	if (atomic_exchange(&warned, true))
		return;
	if (err == -ENOSPC)
		u_warn(USM_TOPIC, "%lld slot files open (ZEMEM_EXPORT_FILES, "
				  "RLIMIT_NOFILE / 4): until some close, new "
				  "host and device blocks up to 64 KiB share "
				  "the pool file and cannot be exported",
		       (long long)h->slot_files_max);
	else
		u_warn(USM_TOPIC, "no memfd for a slot (%s): until one can "
				  "be had, new host and device blocks up to 64 "
				  "KiB share the pool file and cannot be "
				  "exported", strerror(-err));
}

/* Slot i of s (not live, no file open) gets a memfd of its own, mapped
 * over its range. used: the slot was handed out before from the pool file,
 * whose pages for it are punched. replace: the range still maps a file the
 * slot gave up, which must go whatever happens. 0, or -errno when the slot
 * is left in the pool file (its blocks then cannot be exported); with
 * replace, -errno also when not even the pool file could be mapped back
 * (then the old file's pages stay and the slot must die). */
static int
slot_file_attach(struct usm_heap *h, struct usm_seg *s, uint32_t i, bool used,
		 bool replace)
{
	struct usm_pool_file *f = &h->file[s->kind - 1];
	uint64_t off = (uint64_t)i * s->slot_size;
	void *va = (void *)(s->span.base + (uintptr_t)off);
	int fd = -ENOSPC, err;
	/* No seals here (two syscalls, not three): IPC seals the file
	 * against shrinking before it leaves. */
	if (atomic_fetch_add_explicit(&h->slot_files, 1,
				      memory_order_relaxed) <
	    h->slot_files_max)
		fd = u_memfd_create(s->kind == USM_KIND_HOST
					    ? "zemem:host:slot"
					    : "zemem:device:slot",
				    s->slot_size);
	err = fd < 0 ? fd : 0;
	if (!err && (err = bk_map_fd(fd, va, 0, s->slot_size))) {
		close(fd);
		replace = true; /* MAP_FIXED may have left it unmapped */
	}
	if (err) {
		usm_count(&h->slot_files, -1);
		slot_file_warn(h, err);
		if ((err == -ENOSPC || err == -EMFILE || err == -ENFILE) &&
		    !atomic_load_explicit(&h->host_dense,
					  memory_order_relaxed))
			usm_host_dense_set(h, true);
		if (replace && bk_map_fd(s->fd, va, s->fd_off + off,
					 s->slot_size)) {
			u_err(USM_TOPIC, "slot %p: pool file not mapped back",
			      va);
			return err;
		}
		return replace ? 0 : err;
	}
	if (used)
		bk_memfd_ops.release(&f->obj, NULL, s->fd_off + off,
				     s->slot_size);
	atomic_store_explicit(&s->slot_fd[i], fd, memory_order_relaxed);
	usm_count(&h->bk_fds[BK_MEMFD], 1);
	return 0;
}

static void
slot_file_close(struct usm_heap *h, struct usm_seg *s, uint32_t i)
{
	int fd = atomic_load_explicit(&s->slot_fd[i], memory_order_relaxed);
	if (fd < 0)
		return;
	close(fd);
	atomic_store_explicit(&s->slot_fd[i], -1, memory_order_relaxed);
	int64_t n = atomic_fetch_sub_explicit(&h->slot_files, 1,
					      memory_order_relaxed) - 1;
	usm_count(&h->bk_fds[BK_MEMFD], -1);
	/* Room again (hysteresis: half the budget): host blocks may have
	 * files of their own again. */
	if (USM_UNLIKELY(atomic_load_explicit(&h->host_dense,
					      memory_order_relaxed)) &&
	    n < h->slot_files_max / 2)
		usm_host_dense_set(h, false);
}

/* Slot i of s was exported and is freed: it gives its file up to the
 * export (and importers) and gets a fresh one, or the pool file, mapped
 * over its range. false when it did; true when it has no file of its own
 * (an export of the pool file), or nothing could be mapped back: then
 * it dies. */
static bool
slot_file_give_up(struct usm_heap *h, struct usm_seg *s, uint32_t i)
{
	if (!s->slot_fd ||
	    atomic_load_explicit(&s->slot_fd[i], memory_order_relaxed) < 0)
		return true;
	slot_file_close(h, s, i);
	if (slot_file_attach(h, s, i, false, true))
		return true;
	USM_POISON((void *)(s->span.base + (uintptr_t)i * s->slot_size),
		   s->slot_size);
	return false;
}

static bool
slot_dead(const struct usm_seg *s, uint32_t i)
{
	return (atomic_load_explicit(&s->recs[i].size, memory_order_relaxed) &
		USM_REC_EXPORTED) &&
	       !atomic_load_explicit(&s->recs[i].id, memory_order_relaxed);
}

/* The file range of a segment with dead (exported, freed) slots: their
 * pages may still be mapped by importers, so only whole pages outside
 * them are punched, and the range is never reused. */
static void
punch_around_dead(struct usm_heap *h, struct usm_pool_file *f,
		  struct usm_seg *s)
{
	uint64_t pm = h->page_size - 1;
	uint32_t i = 0;
	while (i < s->nslots) {
		while (i < s->nslots && slot_dead(s, i))
			i++;
		uint64_t lo = s->fd_off + (uint64_t)i * s->slot_size;
		while (i < s->nslots && !slot_dead(s, i))
			i++;
		uint64_t hi = i == s->nslots
				      ? s->fd_off + s->span.len
				      : s->fd_off + (uint64_t)i * s->slot_size;
		lo = (lo + pm) & ~pm;
		hi &= ~pm;
		pthread_mutex_lock(&f->mtx);
		if (hi > lo)
			bk_memfd_ops.release(&f->obj, NULL, lo, hi - lo);
		pthread_mutex_unlock(&f->mtx);
	}
}

/* s is on no list. punch: give its file range back (not at heap destroy,
 * where closing the file frees whatever no importer holds). */
static void
seg_release(struct usm_heap *h, struct usm_seg *s, bool punch)
{
	struct usm_arena *a = s->arena;
	struct usm_pool_file *f = &h->file[a->kind - 1];
	usm_index_del(h, &s->span);
	bk_memfd_ops.unmap(&f->obj, (void *)s->span.base, s->span.len);
	if (s->slot_fd) {
		for (uint32_t i = 0; i < s->nslots; i++)
			slot_file_close(h, s, i);
		free((void *)s->slot_fd);
		usm_count(&h->meta_bytes, -(int64_t)(s->nslots * sizeof(int)));
	}
	if (punch && s->ndead)
		punch_around_dead(h, f, s);
	else if (punch)
		file_give(f, s->fd_off, s->span.len);
	munmap(s->recs, s->recs_len);
	usm_count(&h->bk_mapped[BK_MEMFD], -(int64_t)s->span.len);
	usm_count(&h->meta_bytes, -(int64_t)(s->recs_len + sizeof(*s)));
	a->nsegs--;
	free(s);
}

/* Slot i of s is back (freed, or dead when it was exported). */
static void
slot_return(struct usm_heap *h, struct usm_arena *a, struct usm_seg *s,
	    uint32_t i)
{
	struct usm_rec *r = &s->recs[i];
	if (USM_UNLIKELY(s->inherited)) {
		/* fork child: a parent's segment hands out nothing; it goes
		 * when its last inherited block does (its files untouched:
		 * the parent's) */
		if (++s->nfree + s->ndead == s->nslots) {
			list_del(a, s);
			seg_release(h, s, false);
		}
		return;
	}
	if ((atomic_load_explicit(&r->size, memory_order_relaxed) &
	     USM_REC_EXPORTED) &&
	    slot_file_give_up(h, s, i)) {
		s->ndead++;
	} else {
		atomic_store_explicit(&r->size, s->free_head,
				      memory_order_relaxed);
		s->free_head = i;
		if (s->nfree++ == 0 && s->list == SEG_FULL) {
			list_del(a, s);
			list_add(a, s, SEG_PARTIAL);
		}
	}
	if (s->nfree + s->ndead < s->nslots)
		return;
	list_del(a, s);
	int64_t len = (int64_t)s->span.len;
	if (!s->ndead && a->filed) {
		/* Its slot files cost syscalls to make again: keep it (within
		 * the heap's cache of empty segments), ready for use. */
		int64_t held = atomic_fetch_add_explicit(
			&h->empty_bytes, len, memory_order_relaxed);
		if (held + len <= (int64_t)USM_EMPTY_CACHE_MAX) {
			s->idle = true;
			list_add(a, s, SEG_PARTIAL);
			return;
		}
		usm_count(&h->empty_bytes, -len);
	} else if (!s->ndead && !a->empty) {
		int64_t held = atomic_fetch_add_explicit(
			&h->empty_bytes, len, memory_order_relaxed);
		if (held + len <= (int64_t)USM_EMPTY_CACHE_MAX) {
			a->empty = s;
			s->list = SEG_EMPTY;
			return;
		}
		usm_count(&h->empty_bytes, -len);
	}
	seg_release(h, s, true);
}

/* ---- arena operations -------------------------------------------------- */

int
usm_arena_take(struct usm_heap *h, unsigned idx, void **out, unsigned want,
	       struct usm_seg **seg)
{
	struct usm_arena *a = &h->arena[idx];
	unsigned got = 0;
	int err = 0;
	pthread_mutex_lock(&a->mtx);
	while (got < want) {
		struct usm_seg *s = a->partial;
		if (!s && (s = a->empty)) {
			list_del(a, s);
			usm_count(&h->empty_bytes, -(int64_t)s->span.len);
			list_add(a, s, SEG_PARTIAL);
		} else if (!s) {
			if ((err = seg_create(h, a, &s)))
				break;
			list_add(a, s, SEG_PARTIAL);
		}
		*seg = s;
		if (s->idle) {
			s->idle = false;
			usm_count(&h->empty_bytes, -(int64_t)s->span.len);
		}
		while (got < want && s->nfree) {
			uint32_t i = s->free_head;
			bool used = i != USM_IDX_NONE;
			if (used)
				s->free_head = atomic_load_explicit(
					&s->recs[i].size, memory_order_relaxed);
			else
				i = s->bump++;
			if (s->slot_fd &&
			    atomic_load_explicit(&s->slot_fd[i],
						 memory_order_relaxed) < 0)
				slot_file_attach(h, s, i, used, false);
			s->nfree--;
			out[got++] = (void *)(s->span.base +
					      (uintptr_t)i * s->slot_size);
		}
		if (!s->nfree) {
			list_del(a, s);
			list_add(a, s, SEG_FULL);
		}
		if (got)
			break; /* one segment per call (struct tc_bin) */
	}
	pthread_mutex_unlock(&a->mtx);
	return got ? (int)got : err;
}

void
usm_arena_give(struct usm_heap *h, unsigned idx, void *const *slots,
	       unsigned n)
{
	struct usm_arena *a = &h->arena[idx];
	pthread_mutex_lock(&a->mtx);
	for (unsigned k = 0; k < n; k++) {
		/* The slot is ours: its segment cannot go away. */
		struct usm_seg *s =
			(struct usm_seg *)usm_index_find(&h->index, slots[k]);
		slot_return(h, a, s, usm_seg_slot(s, (uintptr_t)slots[k]));
	}
	pthread_mutex_unlock(&a->mtx);
}

void
usm_arena_trim(struct usm_heap *h, unsigned idx)
{
	struct usm_arena *a = &h->arena[idx];
	pthread_mutex_lock(&a->mtx);
	struct usm_seg *s = a->empty, *next;
	if (s) {
		list_del(a, s);
		usm_count(&h->empty_bytes, -(int64_t)s->span.len);
		seg_release(h, s, true);
	}
	for (s = a->partial; s; s = next) {
		next = s->next;
		if (!s->idle)
			continue;
		list_del(a, s);
		s->idle = false;
		usm_count(&h->empty_bytes, -(int64_t)s->span.len);
		seg_release(h, s, true);
	}
	pthread_mutex_unlock(&a->mtx);
}

void
usm_seg_unbias(struct usm_heap *h, struct usm_seg *s, struct usm_tcache *self)
{
	if (atomic_load_explicit(&s->bias, memory_order_relaxed) ==
	    USM_BIAS_SHARED)
		return;
	struct usm_tcache *old = atomic_exchange(&s->bias, USM_BIAS_SHARED);
	/* A holder's plain claim reads the bias inside a read section:
	 * once every section that may have seen it has ended, none is
	 * left (NULL: nobody held it; self: the caller's own, in order). */
	if (old && old != USM_BIAS_SHARED && old != self)
		usm_rd_sync(h);
}

size_t
usm_arena_free_ctx(struct usm_heap *h, unsigned idx, void *ctx,
		   void (*cb)(const struct usm_info *, void *), void *arg)
{
	struct usm_arena *a = &h->arena[idx];
	size_t n = 0;
	pthread_mutex_lock(&a->mtx);
	for (int l = 0; l < 3; l++) {
		struct usm_seg *s = l == 2 ? a->retired
				    : l ? a->full : a->partial, *next;
		for (; s; s = next) {
			next = s->next;
			bool unbiased = false;
			uint32_t bump = s->bump;
			for (uint32_t i = 0; i < bump; i++) {
				struct usm_info info;
				uint64_t id;
				uint32_t size, owner;
				if (usm_rec_read(&s->recs[i], &id, &size,
						 &owner) ||
				    atomic_load_explicit(
					    &usm_owner_get(&h->owners, owner)
						     ->ctx,
					    memory_order_relaxed) != ctx)
					continue;
				usm_seg_fill(h, s, i, id, size, owner, &info);
				/* the sweep claims with compare-and-swaps: a
				 * segment with a block of ctx is unbiased */
				if (!unbiased) {
					usm_seg_unbias(h, s, NULL);
					unbiased = true;
				}
				if (!atomic_compare_exchange_strong(
					    &s->recs[i].id, &id, 0))
					continue;
				USM_POISON(info.base, s->slot_size);
				if (cb)
					cb(&info, arg);
				n++;
				bool last = s->nfree + s->ndead + 1 ==
					    s->nslots;
				slot_return(h, a, s, i);
				if (last)
					break; /* s was released or cached */
			}
		}
	}
	pthread_mutex_unlock(&a->mtx);
	return n;
}

void
usm_arena_stats(struct usm_heap *h, unsigned idx, struct usm_stats *st)
{
	struct usm_arena *a = &h->arena[idx];
	pthread_mutex_lock(&a->mtx);
	st->segments += a->nsegs;
	for (int l = 0; l < 3; l++) {
		for (struct usm_seg *s = l == 2 ? a->retired
					 : l ? a->full : a->partial;
		     s; s = s->next) {
			for (uint32_t i = 0; i < s->bump; i++) {
				uint64_t id;
				uint32_t size, owner;
				if (usm_rec_read(&s->recs[i], &id, &size,
						 &owner))
					continue;
				st->live_count++;
				st->live_bytes += size & ~USM_REC_EXPORTED;
			}
		}
	}
	pthread_mutex_unlock(&a->mtx);
}

void
usm_arena_fini(struct usm_heap *h, unsigned idx)
{
	struct usm_arena *a = &h->arena[idx];
	struct usm_seg *s;
	while ((s = a->partial) || (s = a->full) || (s = a->empty) ||
	       (s = a->retired)) {
		list_del(a, s);
		seg_release(h, s, false);
	}
	pthread_mutex_destroy(&a->mtx);
}

/* ---- fork ------------------------------------------------------------- */

/* In the child, one thread, no lock held by anyone: every segment maps
 * files it shares with the parent, whose blocks (live or free) the parent
 * goes on using. So each is remapped privately (the child's writes stay
 * its own), its slot files closed, and it is retired: it hands out no
 * slot (the parent may hand out the same ones) and exports nothing (its
 * pages are not in a file the child could give). The pool files are the
 * parent's too: the child makes its own for its new segments. */
void
usm_pool_fork_child(struct usm_heap *h)
{
	for (unsigned idx = 0; idx < USM_NARENA; idx++) {
		struct usm_arena *a = &h->arena[idx];
		struct usm_seg *s;
		while ((s = a->partial) || (s = a->full) || (s = a->empty)) {
			list_del(a, s);
			if (s->nfree == s->nslots) { /* idle or empty */
				s->idle = false;
				seg_release(h, s, false);
				continue;
			}
			void *m = mmap((void *)s->span.base, s->span.len,
				       PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_FIXED, s->fd,
				       (off_t)s->fd_off);
			if (m == MAP_FAILED)
				u_warn(USM_TOPIC, "fork child: segment %p stays "
						  "shared with the parent: %d",
				       (void *)s->span.base, errno);
			for (uint32_t i = 0; s->slot_fd && i < s->nslots;
			     i++) {
				int fd = atomic_load_explicit(
					&s->slot_fd[i], memory_order_relaxed);
				if (fd < 0)
					continue;
				mmap((void *)(s->span.base +
					      (uintptr_t)i * s->slot_size),
				     s->slot_size, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_FIXED, fd, 0);
				slot_file_close(h, s, i);
			}
			s->inherited = true;
			list_add(a, s, SEG_RETIRED);
		}
	}
	atomic_store(&h->empty_bytes, 0);
	for (unsigned k = 0; k < USM_NKIND; k++) {
		struct usm_pool_file *f = &h->file[k];
		if (f->obj.fd >= 0) {
			bk_memfd_ops.destroy(&f->obj);
			usm_count(&h->bk_fds[BK_MEMFD], -1);
		}
		f->obj.fd = -1;
		f->end = 0;
		for (unsigned b = 0; b < USM_SEG_LENS; b++)
			f->nfree[b] = 0;
		usm_pool_file_open(h, (enum usm_kind)(k + 1));
	}
}

/* ---- records ------------------------------------------------------------ */

/* The rest of usm_seg_page_exclusive(): slots beyond the neighbours. */
bool
usm_seg_page_scan(struct usm_heap *h, struct usm_seg *s, uint32_t slot,
		  uintptr_t base, size_t size)
{
	uintptr_t pm = h->page_size - 1;
	uintptr_t lo = base & ~pm;              /* first byte of our pages */
	uintptr_t hi = (base + size - 1) | pm;  /* last byte of our pages */
	uint32_t first = usm_seg_slot(s, lo);
	uint32_t last = usm_seg_slot(s, hi);
	if (last >= s->nslots)
		last = s->nslots - 1;
	for (uint32_t j = first; j <= last; j++) {
		if (j + 1 >= slot && j <= slot + 1)
			continue; /* self and the neighbours seen above */
		if (usm_seg_slot_live(s, j))
			return false;
	}
	return true;
}
