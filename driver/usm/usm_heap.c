// SPDX-License-Identifier: MIT
/*
 * usm_heap: the allocator's front end: create / destroy, alloc, free,
 * query, free by context, statistics, export marks, trim.
 *
 * Vocabulary: see usm.h (heap, kind, pool, large, backing, owner) and
 * usm_private.h (span, segment, record, lock order).
 *
 * Paths:
 *   alloc  pooled: thread cache pop (refill from the arena when empty),
 *          record written (seqlock by id), no lock; large: usm_large.c.
 *   free   index read section -> span -> record checked (live, base,
 *          ctx) and claimed with a compare-and-swap of its id; then,
 *          outside the section, the slot goes to the thread cache if it is
 *          in the cache's hot segment, else (or if it was exported) to its
 *          arena.
 *   query  index read section -> span -> record read consistently.
 * The common case of each (pooled, thread with a cache) is written once,
 * inline, in usm_fast.h; the driver's entry points call it directly and
 * the functions here call it first.
 * A read section takes no lock and writes only the thread's own counter
 * (usm_private.h).
 * Ids come from one atomic counter per heap, taken USM_ID_BLOCK at a time
 * by each thread cache: unique, nonzero, and increasing along one thread's
 * allocations.
 */
#include "usm_fast.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "u_log.h"
#include "u_options.h"
#include "u_os.h"

int
usm_heap_create(struct usm_heap **out)
{
	int err;
	struct usm_heap *h = aligned_alloc(_Alignof(struct usm_heap),
					   sizeof(*h));
	if (!h)
		return -ENOMEM;
	memset(h, 0, sizeof(*h));
	h->page_size = u_page_size();
	h->page_shift = (unsigned)__builtin_ctzll(h->page_size);
	atomic_init(&h->next_id, 1);
	h->slot_files_max = (int64_t)u_option_u64(U_OPT_EXPORT_FILES);
	/* Slot files (usm_pool.c): each costs an fd and a mapping; leave the
	 * application three quarters of both limits. */
	struct rlimit rl;
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY &&
	    (int64_t)(rl.rlim_cur / 4) < h->slot_files_max)
		h->slot_files_max = (int64_t)(rl.rlim_cur / 4);
	FILE *mm = u_sysfile("/proc/sys/vm/max_map_count");
	long long maps;
	if (mm && fscanf(mm, "%lld", &maps) == 1 &&
	    maps / 4 < h->slot_files_max)
		h->slot_files_max = maps / 4;
	if (mm)
		fclose(mm);
	atomic_init(&h->host_dense, h->slot_files_max <= 0);
	usm_classes_init();
	usm_fast_host_bin_init(h);
	if ((err = usm_index_init(&h->index)))
		goto err_heap;
	if ((err = usm_owners_init(&h->owners)))
		goto err_index;
	for (unsigned i = 0; i < USM_NARENA; i++)
		usm_arena_init(h, i);
	for (unsigned k = 0; k < USM_NKIND; k++) {
		pthread_mutex_init(&h->file[k].mtx, NULL);
		h->file[k].obj.type = BK_MEMFD;
		h->file[k].obj.fd = h->file[k].obj.aux_fd = -1;
	}
	pthread_mutex_init(&h->tc_mtx, NULL);
	pthread_mutex_init(&h->large_mtx, NULL);
	if ((err = usm_tcache_global_add(h)))
		goto err_locks;
	bk_available(BK_MEMFD, NULL); /* probe (and log) once, up front */
	/* The pool files live as long as the heap: opening them now keeps
	 * the heap's fd count constant from creation on (a process that
	 * checks for fd leaks sees none appear on its first allocation). A
	 * failure here is not fatal: the first pooled allocation retries. */
	for (unsigned k = 0; k < USM_NKIND; k++)
		usm_pool_file_open(h, (enum usm_kind)(k + 1));
	*out = h;
	return 0;

err_locks:
	pthread_mutex_destroy(&h->large_mtx);
	pthread_mutex_destroy(&h->tc_mtx);
	for (unsigned k = 0; k < USM_NKIND; k++)
		pthread_mutex_destroy(&h->file[k].mtx);
	for (unsigned i = 0; i < USM_NARENA; i++)
		usm_arena_fini(h, i);
	usm_owners_fini(&h->owners);
err_index:
	usm_index_fini(&h->index);
err_heap:
	free(h);
	return err;
}

void
usm_heap_destroy(struct usm_heap *h)
{
	if (!h)
		return;
	usm_tcache_global_remove(h);
	usm_tcache_free_all(h);
	usm_large_fini(h);
	for (unsigned i = 0; i < USM_NARENA; i++)
		usm_arena_fini(h, i);
	for (unsigned k = 0; k < USM_NKIND; k++) {
		struct usm_pool_file *f = &h->file[k];
		if (f->obj.fd >= 0)
			bk_memfd_ops.destroy(&f->obj);
		for (unsigned b = 0; b < USM_SEG_LENS; b++)
			free(f->free_off[b]);
		pthread_mutex_destroy(&f->mtx);
	}
	pthread_mutex_destroy(&h->large_mtx);
	pthread_mutex_destroy(&h->tc_mtx);
	usm_owners_fini(&h->owners);
	usm_index_fini(&h->index);
	free(h);
}

uint64_t
usm_id_refill(struct usm_heap *h, struct usm_tcache *tc)
{
	uint64_t id = atomic_fetch_add_explicit(&h->next_id, USM_ID_BLOCK,
						memory_order_relaxed);
	tc->id_next = id + 1;
	tc->id_end = id + USM_ID_BLOCK;
	return id;
}

/* The owner index of a request, through the thread's one-entry cache. */
static inline __attribute__((always_inline)) int
owner_of(struct usm_heap *h, struct usm_tcache *tc,
	 const struct usm_owner_key *nk, uint32_t *idx)
{
	uint64_t flags = usm_owner_flags(nk->ze_flags, nk->usm_flags);
	size_t align = usm_align_of(nk->align_code);
	if (USM_LIKELY(usm_owner_cached(h, tc, nk->ctx, nk->dev, flags,
					align))) {
		*idx = tc->oc_idx;
		return 0;
	}
	/* gen first: an owner dropped after this cannot look valid */
	uint64_t gen = atomic_load_explicit(&h->owners.gen,
					    memory_order_acquire);
	int err = usm_owner_intern(&h->owners, nk, idx);
	if (err)
		return err;
	tc->oc_key = *nk;
	tc->oc_flags = flags;
	tc->oc_align = align;
	tc->oc_idx = *idx;
	tc->oc_gen = gen;
	return 0;
}

static inline __attribute__((always_inline)) int
pool_alloc(struct usm_heap *h, struct usm_tcache *tc, unsigned ai,
	   size_t size, uint32_t owner, void **out)
{
	struct tc_bin *b = &tc->bin[ai];
	if (USM_UNLIKELY(!b->n)) {
		int n = usm_arena_take(h, ai, b->slot, TC_BATCH, &b->hot);
		if (n < 0)
			return n;
		usm_seg_bias_take(b->hot, tc);
		b->n = (uint32_t)n;
	}
	void *p = b->slot[--b->n];
	usm_slot_publish(b, p, size, owner, usm_id_take(h, tc));
	*out = p;
	return 0;
}

/* usm_alloc after its argument checks; k is the owner key (usm_flags
 * included). Inlined into both entry points, so the one that passes
 * constants (usm_alloc_plain) loses the branches it cannot take. */
static inline __attribute__((always_inline)) int
alloc_body(struct usm_heap *h, enum usm_kind kind,
	   const struct usm_owner_key *k, size_t size, size_t align,
	   void **out)
{
	struct usm_tcache *tc = usm_tcache_get(h);
	if (USM_UNLIKELY(!tc))
		return -ENOMEM;
	uint32_t owner;
	int err = owner_of(h, tc, k, &owner);
	if (USM_UNLIKELY(err))
		return err;
	/* The arena: class tables for the common cases, else the general
	 * search; -1 for large. */
	int ai, base = ((int)kind - 1) * USM_NCLS;
	uint32_t uf = k->usm_flags;
	bool isolate = kind == USM_KIND_DEVICE ||
		       (kind == USM_KIND_HOST &&
			!atomic_load_explicit(&h->host_dense,
					      memory_order_relaxed)) ||
		       (uf & USM_FLAG_EXPORTABLE);
	size_t pages;
	if (USM_LIKELY(!isolate && !uf && size <= USM_FAST_MAX &&
		       align <= USM_DEFAULT_ALIGN))
		ai = base + usm_fast_class[(size + 15) >> 4];
	else if (uf & (USM_FLAG_DMABUF | USM_FLAG_EXPORTABLE))
		ai = -1; /* own fd: an external fd then shows this block only */
	else if (isolate && align <= h->page_size &&
		 (pages = (size + h->page_size - 1) >> h->page_shift) <=
			 USM_NCLS_PAGE)
		ai = base + USM_NCLS_SMALL + (int)pages - 1;
	else
		ai = usm_arena_for(kind, isolate, size, align);
	if (USM_LIKELY(ai >= 0))
		return pool_alloc(h, tc, (unsigned)ai, size, owner, out);
	struct usm_req req = {
		.kind = kind, .size = size, .align = align,
		.ze_flags = k->ze_flags, .usm_flags = uf,
		.ctx = k->ctx, .dev = k->dev,
	};
	return usm_large_alloc(h, &req, owner, usm_id_take(h, tc), out);
}

int
usm_alloc(struct usm_heap *h, const struct usm_req *req, void **out)
{
	if (USM_UNLIKELY(!h || !req || !out))
		return -EINVAL;
	*out = NULL;
	size_t size = req->size, align = req->align;
	enum usm_kind kind = req->kind;
	if (USM_UNLIKELY(!size || (align & (align - 1)) ||
			 kind < USM_KIND_HOST || kind > USM_KIND_SHARED ||
			 (req->usm_flags & ~USM_FLAGS_ALL)))
		return -EINVAL;
	struct usm_owner_key k = {
		.ctx = req->ctx, .dev = req->dev, .ze_flags = req->ze_flags,
		.usm_flags = req->usm_flags,
		.align_code = usm_align_code(align),
	};
	return alloc_body(h, kind, &k, size, align, out);
}

int
usm_alloc_plain(struct usm_heap *h, enum usm_kind kind, void *ctx, void *dev,
		uint32_t ze_flags, size_t size, size_t align, void **out)
{
	struct usm_tcache *tc = usm_fast_tc(h);
	if (tc && !usm_fast_alloc(h, tc, kind, ctx, dev, ze_flags, size, align,
				  out))
		return 0;
	struct usm_owner_key k = {
		.ctx = ctx, .dev = dev, .ze_flags = ze_flags, .usm_flags = 0,
		.align_code = usm_align_code(align),
	};
	return alloc_body(h, kind, &k, size, align, out);
}

/* What a lookup found: the live allocation containing a pointer. */
struct usm_ref {
	struct usm_span *span;
	_Atomic uint64_t *idp;    /* its id, for the claim */
	uintptr_t base;
	uint32_t slot;            /* pooled only (0 for large) */
	struct usm_large_view v;  /* id, size, owner, kind, exported */
};

/* In a read section: the live allocation containing ptr (slack after it
 * excluded). 0 or -ENOENT. */
static inline __attribute__((always_inline)) int
ref_find(struct usm_heap *h, const void *ptr, struct usm_ref *r)
{
	uintptr_t a = (uintptr_t)ptr;
	struct usm_span *sp = usm_index_find(&h->index, ptr);
	if (!sp)
		return -ENOENT;
	r->span = sp;
	if (USM_LIKELY(sp->type == SPAN_SEG)) {
		struct usm_seg *s = (struct usm_seg *)sp;
		uint32_t slot = usm_seg_slot(s, a), size;
		if (slot >= s->nslots ||
		    usm_rec_read(&s->recs[slot], &r->v.id, &size, &r->v.owner))
			return -ENOENT;
		r->idp = &s->recs[slot].id;
		r->slot = slot;
		r->base = sp->base + (uintptr_t)slot * s->slot_size;
		r->v.size = size & ~USM_REC_EXPORTED;
		r->v.exported = size & USM_REC_EXPORTED;
		r->v.kind = s->kind;
	} else {
		struct usm_large *l = (struct usm_large *)sp;
		if (usm_large_read(l, &r->v))
			return -ENOENT;
		r->idp = &l->id;
		r->slot = 0;
		r->base = sp->base;
	}
	return a - r->base < r->v.size ? 0 : -ENOENT;
}

static inline __attribute__((always_inline)) void
ref_fill(struct usm_heap *h, const struct usm_ref *r, struct usm_info *out)
{
	if (USM_LIKELY(r->span->type == SPAN_SEG))
		usm_seg_fill(h, (struct usm_seg *)r->span, r->slot, r->v.id,
			     (uint32_t)r->v.size |
				     (r->v.exported ? USM_REC_EXPORTED : 0),
			     r->v.owner, out);
	else
		usm_large_fill(h, (struct usm_large *)r->span, &r->v, out);
}

void
usm_slot_give_slow(struct usm_heap *h, struct tc_bin *b, struct usm_seg *s,
		   void *ptr, bool exported)
{
	if (!b || b->hot != s || exported) {
		usm_arena_give(h, s->arena_idx, &ptr, 1);
		return;
	}
	/* the bin is full: half of it goes back */
	usm_arena_give(h, s->arena_idx, b->slot, TC_BATCH);
	memmove(b->slot, b->slot + TC_BATCH,
		(TC_BIN_CAP - TC_BATCH) * sizeof(b->slot[0]));
	b->n -= TC_BATCH;
	b->slot[b->n++] = ptr;
}

/* What usm_lookup and usm_free tell: base, size, kind, id, exported,
 * page_size, ctx and dev (usm.h). */
static inline __attribute__((always_inline)) void
brief_fill(struct usm_heap *h, uintptr_t base, size_t size, unsigned kind,
	   uint64_t id, bool exported, uint32_t owner, struct usm_info *out)
{
	const struct usm_owner *e = usm_owner_get(&h->owners, owner);
	out->base = (void *)base;
	out->size = size;
	out->kind = (enum usm_kind)kind;
	out->id = id;
	out->exported = exported;
	out->page_size = h->page_size;
	out->ctx = atomic_load_explicit(&e->ctx, memory_order_relaxed);
	out->dev = atomic_load_explicit(&e->dev, memory_order_relaxed);
}

/* The owner's context, without a consistent view of the whole entry. */
static inline void *
owner_ctx(struct usm_heap *h, uint32_t owner)
{
	return atomic_load_explicit(&usm_owner_get(&h->owners, owner)->ctx,
				    memory_order_relaxed);
}

/* Frees what usm_fast_free did not (a large allocation, a pooled block
 * freed by a thread without a cache), or reports what is wrong with ptr.
 * Called in a read section; ends it. */
static int
free_other(struct usm_heap *h, struct usm_tcache *rd, void *ptr, void *ctx,
	   struct usm_info *freed)
{
	struct usm_ref r;
	int err = ref_find(h, ptr, &r);
	if (!err && (uintptr_t)ptr != r.base)
		err = -EINVAL;
	if (!err && owner_ctx(h, r.v.owner) != ctx)
		err = -EPERM;
	if (!err && r.span->type == SPAN_SEG) {
		/* a segment biased to another thread (or to nobody yet) is
		 * unbiased first, out of the read section; then again */
		struct usm_seg *s = (struct usm_seg *)r.span;
		struct usm_tcache *b =
			atomic_load_explicit(&s->bias, memory_order_relaxed);
		if (b != USM_BIAS_SHARED && !(rd && b == rd)) {
			if (!rd) {
				usm_seg_unbias(h, s, NULL);
			} else {
				usm_rd_unlock(h, rd);
				usm_seg_unbias(h, s, rd);
				return free_other(h, usm_rd_lock(h), ptr, ctx,
						  freed);
			}
		}
	}
	if (!err) {
		uint64_t id = r.v.id;
		if (!atomic_compare_exchange_strong(r.idp, &id, 0))
			err = -ENOENT; /* freed by someone else meanwhile */
	}
	usm_rd_unlock(h, rd);
	if (err)
		return err;
	/* Claimed: the span stays until we give the memory back. */
	if (freed)
		ref_fill(h, &r, freed);
	if (r.span->type == SPAN_SEG)
		usm_slot_give(h, rd, (struct usm_seg *)r.span, ptr,
			      r.v.exported);
	else
		usm_large_release(h, (struct usm_large *)r.span);
	return 0;
}

int
usm_free(struct usm_heap *h, void *ptr, void *ctx, struct usm_info *freed)
{
	if (USM_UNLIKELY(!h))
		return -EINVAL;
	struct usm_tcache *tc = usm_fast_tc(h);
	if (USM_LIKELY(tc && !usm_fast_free(h, tc, ptr, ctx, freed)))
		return 0;
	/* Anything else, errors included: the general path decides. */
	return free_other(h, usm_rd_lock(h), ptr, ctx, freed);
}

static int
query(struct usm_heap *h, const void *ptr, struct usm_info *out, bool pages)
{
	if (!h || !out)
		return -EINVAL;
	struct usm_ref r;
	struct usm_tcache *rd = usm_rd_lock(h);
	int err = ref_find(h, ptr, &r);
	if (!err && pages) {
		ref_fill(h, &r, out);
		if (r.span->type == SPAN_SEG)
			out->page_exclusive = usm_seg_page_exclusive(
				h, (struct usm_seg *)r.span, r.slot, r.base,
				r.v.size);
	} else if (!err) {
		brief_fill(h, r.base, r.v.size, r.v.kind, r.v.id, r.v.exported,
			   r.v.owner, out);
	}
	usm_rd_unlock(h, rd);
	return err;
}

int
usm_query(struct usm_heap *h, const void *ptr, struct usm_info *out)
{
	return query(h, ptr, out, true);
}

int
usm_lookup(struct usm_heap *h, const void *ptr, struct usm_info *out)
{
	return query(h, ptr, out, false);
}

size_t
usm_free_ctx(struct usm_heap *h, void *ctx,
	     void (*cb)(const struct usm_info *, void *), void *arg)
{
	if (!h)
		return 0;
	size_t n = 0;
	for (unsigned i = 0; i < USM_NARENA; i++)
		n += usm_arena_free_ctx(h, i, ctx, cb, arg);
	n += usm_large_free_ctx(h, ctx, cb, arg);
	usm_owner_drop_ctx(&h->owners, ctx);
	return n;
}

int
usm_mark_exported(struct usm_heap *h, const void *base)
{
	if (!h)
		return -EINVAL;
	struct usm_ref r;
	struct usm_tcache *rd = usm_rd_lock(h);
	int err = ref_find(h, base, &r);
	if (!err && (uintptr_t)base != r.base)
		err = -EINVAL;
	if (!err && r.span->type == SPAN_SEG)
		atomic_fetch_or_explicit(
			&((struct usm_seg *)r.span)->recs[r.slot].size,
			USM_REC_EXPORTED, memory_order_relaxed);
	else if (!err)
		atomic_store_explicit(&((struct usm_large *)r.span)->exported,
				      true, memory_order_relaxed);
	usm_rd_unlock(h, rd);
	return err;
}

void
usm_trim(struct usm_heap *h)
{
	if (!h)
		return;
	struct usm_tcache *tc = usm_tcache_get(h);
	if (tc)
		usm_tcache_flush_all(tc);
	for (unsigned i = 0; i < USM_NARENA; i++)
		usm_arena_trim(h, i);
	usm_large_trim(h);
}

void
usm_stats(struct usm_heap *h, struct usm_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (!h)
		return;
	for (unsigned i = 0; i < USM_NARENA; i++)
		usm_arena_stats(h, i, out); /* pooled live count and bytes */
	out->bk[BK_MEMFD].live_count = out->live_count;
	out->live_bytes += (uint64_t)atomic_load(&h->large_bytes);
	for (int t = 0; t < BK_COUNT; t++) {
		struct usm_bk_stats *b = &out->bk[t];
		int64_t lc = atomic_load(&h->large_count[t]);
		b->live_count += (uint64_t)lc;
		b->mapped_bytes = (uint64_t)atomic_load(&h->bk_mapped[t]);
		b->fds = (uint32_t)atomic_load(&h->bk_fds[t]);
		out->live_count += (uint64_t)lc;
		out->mapped_bytes += b->mapped_bytes;
		out->fds += b->fds;
	}
	pthread_mutex_lock(&h->large_mtx);
	out->large_live = h->large_nlive;
	out->large_cached = h->large_ncache;
	pthread_mutex_unlock(&h->large_mtx);
	out->meta_bytes = (uint64_t)atomic_load(&h->meta_bytes) +
			  atomic_load(&h->index.meta_bytes) + sizeof(*h);
}
