// SPDX-License-Identifier: MIT
/*
 * usm_fast: the pooled alloc, free and lookup fast paths, inline, for the
 * driver's zeMemAlloc* / zeMemFree / zeMemGetAllocProperties entry points
 * and for usm_heap.c itself.
 *
 * A fast path does the common case from the thread's cache with no call:
 * an owner the thread interned last, a size class with a slot in the bin,
 * ids left in the thread's block; on free, the base of a live pooled block
 * of the caller's context; on lookup, a pointer into a live pooled block.
 * Anything else returns USM_FAST_MISS before it changed anything, and the
 * caller calls the full function (usm_alloc_plain, usm_free, usm_lookup),
 * which handles every case and reports every error. So there is one truth
 * for the rules (usm_heap.c calls these same functions), and the driver
 * saves the calls, the request struct and the re-checks.
 */
#ifndef ZEMEM_USM_FAST_H
#define ZEMEM_USM_FAST_H

#include "usm_private.h"

#define USM_FAST_MISS 1

/* A pooled slot just popped from bin b becomes a live block: its record
 * gets size, owner and a fresh id (the id last, with release: see the
 * seqlock in usm_private.h). The slot is the caller's, and its segment is
 * b->hot (struct tc_bin), so no read section and no index lookup. */
static inline __attribute__((always_inline)) void
usm_slot_publish(struct tc_bin *b, void *p, size_t size, uint32_t owner,
		 uint64_t id)
{
	struct usm_seg *s = b->hot;
	struct usm_rec *r = &s->recs[usm_seg_slot(s, (uintptr_t)p)];
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&r->size, (uint32_t)size, memory_order_relaxed);
	atomic_store_explicit(&r->owner, owner, memory_order_relaxed);
	atomic_store_explicit(&r->id, id, memory_order_release);
	USM_UNPOISON(p, size);
}

/* usm_slot_give when the slot cannot simply join bin b (NULL: the caller
 * has no cache): full bin, another segment, or exported. */
void usm_slot_give_slow(struct usm_heap *h, struct tc_bin *b,
			struct usm_seg *s, void *ptr, bool exported);

/* A claimed pooled slot goes back: to the thread's bin when it is in the
 * bin's hot segment, else (or if it was exported) to its arena. tc: the
 * caller's cache, or NULL if it has none. */
static inline __attribute__((always_inline)) void
usm_slot_give(struct usm_heap *h, struct usm_tcache *tc, struct usm_seg *s,
	      void *ptr, bool exported)
{
	USM_POISON(ptr, s->slot_size);
	struct tc_bin *b = tc ? &tc->bin[s->arena_idx] : NULL;
	if (USM_LIKELY(b && b->hot == s && !exported && b->n < TC_BIN_CAP))
		b->slot[b->n++] = ptr;
	else
		usm_slot_give_slow(h, b, s, ptr, exported);
}

/* The arena of a request on the fast path, or -1. (Pointer-sized: it
 * indexes tc->bin with no sign extension.) */
static inline __attribute__((always_inline)) ptrdiff_t
usm_fast_arena(const struct usm_heap *h, enum usm_kind kind, size_t size,
	       size_t align)
{
	ptrdiff_t base = ((ptrdiff_t)kind - 1) * USM_NCLS;
	if (kind == USM_KIND_SHARED ||
	    (kind == USM_KIND_HOST &&
	     atomic_load_explicit(&h->host_dense, memory_order_relaxed))) {
		/* classes are multiples of 16: any align up to 16 fits */
		if (USM_UNLIKELY(align > USM_DEFAULT_ALIGN))
			return -1;
		if (USM_LIKELY(size <= USM_FAST_MAX))
			return base + usm_fast_class[(size + 15) >> 4];
		if (size <= USM_POOL_MAX)
			return base + (ptrdiff_t)usm_small_class(size);
		return -1;
	}
	/* host and device blocks are page-isolated (each may be exported
	 * alone, usm_pool.c): whole-page classes */
	size_t pages = (size + h->page_size - 1) >> h->page_shift;
	if (USM_LIKELY(align <= h->page_size && pages <= USM_NCLS_PAGE))
		return base + USM_NCLS_SMALL + (ptrdiff_t)pages - 1;
	return -1;
}

/* The calling thread's cache of h, or NULL when it has none yet (the fast
 * paths then miss: the full functions make one). usm_tcache.c sets and
 * clears usm_tls_tc's serial and tc together, and a heap's serial is
 * never 0: a matching serial means a cache, which the compiler is told,
 * so that a caller's NULL test folds into the serial compare. */
static inline struct usm_tcache *
usm_fast_tc(struct usm_heap *h)
{
	if (USM_UNLIKELY(usm_tls_tc.serial != h->serial))
		return NULL;
	struct usm_tcache *tc = usm_tls_tc.tc;
	if (!tc)
		__builtin_unreachable();
	return tc;
}

/* Its credit slots (usm_thread_credit). */
static inline uint64_t *
usm_fast_credit(struct usm_tcache *tc)
{
	return tc->credit;
}

/* usm_fast_bin after the owner test (usm_owner_cached passed): the bin
 * that would serve the request, or NULL (a miss: nothing changed). */
static inline __attribute__((always_inline)) struct tc_bin *
usm_fast_bin_owned(struct usm_heap *h, struct usm_tcache *tc,
		   enum usm_kind kind, size_t size, size_t align)
{
	struct tc_bin *b;
	if (kind == USM_KIND_SHARED &&
	    USM_LIKELY(size <= USM_FAST_MAX && align <= USM_DEFAULT_ALIGN)) {
		b = (struct tc_bin *)((char *)tc->bin +
				      usm_fast_shared_bin[(size + 15) >> 4]);
	} else if (kind == USM_KIND_HOST &&
	    USM_LIKELY(size <= USM_FAST_MAX && align <= USM_DEFAULT_ALIGN)) {
		/* A small host request (align 16 or less: a page class fits
		 * it too): its bin's offset from the heap's table, which
		 * follows host_dense. One load for the host_dense and page
		 * tests and the index arithmetic. */
		b = (struct tc_bin *)((char *)tc->bin +
				      atomic_load_explicit(
					      &h->fast_host_bin[(size + 15) >> 4],
					      memory_order_relaxed));
	} else {
		ptrdiff_t ai = usm_fast_arena(h, kind, size, align);
		if (USM_UNLIKELY(ai < 0))
			return NULL;
		b = &tc->bin[ai];
	}
	if (USM_UNLIKELY(!b->n || tc->id_next == tc->id_end))
		return NULL;
	return b;
}

/* The checks of usm_fast_alloc (align 0 or a power of two, as for
 * usm_alloc_plain): the bin that would serve the request, or NULL (a
 * miss: nothing changed). */
static inline __attribute__((always_inline)) struct tc_bin *
usm_fast_bin(struct usm_heap *h, struct usm_tcache *tc, enum usm_kind kind,
	     void *ctx, void *dev, uint32_t ze_flags, size_t size, size_t align)
{
	if (USM_UNLIKELY(!usm_owner_cached(h, tc, ctx, dev, ze_flags, align)))
		return NULL;
	return usm_fast_bin_owned(h, tc, kind, size, align);
}

/* The rest of usm_fast_alloc, after usm_fast_bin found b: the new block. */
static inline __attribute__((always_inline)) void *
usm_fast_pop(struct usm_tcache *tc, struct tc_bin *b, size_t size)
{
	void *p = b->slot[--b->n];
	usm_slot_publish(b, p, size, tc->oc_idx, tc->id_next++);
	return p;
}

/* usm_alloc_plain's common case (same preconditions), for a thread with
 * a cache (tc, from usm_fast_tc): 0, or USM_FAST_MISS with nothing
 * changed. A caller with something to do between the checks and the
 * allocation calls usm_fast_bin and usm_fast_pop itself. */
static inline __attribute__((always_inline)) int
usm_fast_alloc(struct usm_heap *h, struct usm_tcache *tc, enum usm_kind kind,
	       void *ctx, void *dev, uint32_t ze_flags, size_t size,
	       size_t align, void **out)
{
	struct tc_bin *b = usm_fast_bin(h, tc, kind, ctx, dev, ze_flags, size,
					align);
	if (USM_UNLIKELY(!b))
		return USM_FAST_MISS;
	*out = usm_fast_pop(tc, b, size);
	return 0;
}

/* In a read section: is ptr in the slot of a live pooled block? Then its
 * segment, slot and record fields (usm_rec_read). */
static inline __attribute__((always_inline)) bool
usm_fast_slot(struct usm_heap *h, const void *ptr, struct usm_seg **sp,
	      uint32_t *slot, uint64_t *id, uint32_t *size, uint32_t *owner)
{
	struct usm_seg *s = (struct usm_seg *)usm_index_find(&h->index, ptr);
	*sp = s;
	return s && s->span.type == SPAN_SEG &&
	       (*slot = usm_seg_slot(s, (uintptr_t)ptr)) < s->nslots &&
	       !usm_rec_read(&s->recs[*slot], id, size, owner);
}

/* The claim of usm_fast_free, for a caller that gives the slot back
 * itself (usm_slot_give, not exported): the base of a live pooled block of ctx, not
 * exported, looked up by a thread with a cache (tc, from usm_fast_tc), and
 * claimed (its id swapped to 0; by a plain store in a segment biased to
 * this thread, struct usm_seg.bias). Its segment, with its id, size (no flag
 * bit) and owner's device; or NULL with nothing changed.
 *
 * The record is read once, not as a seqlock (usm_rec_read): the claim
 * checks it. Ids are never reused, so a successful compare-and-swap from
 * the id read means the id stayed that one all along: nobody freed the
 * block in between, so nobody could publish another block in the slot,
 * and size and owner (read after the id, with acquire, and before the
 * claim) are this block's. Only the owner's table entry needs an owner
 * known good before the claim: the thread's cached owner is compared by
 * index, any other is read only after usm_rec_read's check. */
static inline __attribute__((always_inline)) struct usm_seg *
usm_fast_claim(struct usm_heap *h, struct usm_tcache *tc, void *ptr,
	       void *ctx, uint64_t *idp, uint32_t *sizep, void **devp)
{
	/* The block's owner is most often the thread's last one: its ctx and
	 * dev are then at hand, not two dependent loads away. */
	bool gen_ok = tc->oc_gen == atomic_load_explicit(&h->owners.gen,
							 memory_order_acquire);
	uint64_t rd = usm_rd_enter(h, tc);
	struct usm_seg *s = (struct usm_seg *)usm_index_find(&h->index, ptr);
	if (USM_UNLIKELY(!s || s->span.type != SPAN_SEG))
		goto miss;
	uint32_t slot = usm_seg_slot(s, (uintptr_t)ptr);
	if (USM_UNLIKELY(slot >= s->nslots ||
			 (uintptr_t)ptr !=
				 s->span.base + (uintptr_t)slot * s->slot_size))
		goto miss;
	struct usm_rec *r = &s->recs[slot];
	uint64_t id = atomic_load_explicit(&r->id, memory_order_acquire);
	uint32_t size = atomic_load_explicit(&r->size, memory_order_relaxed);
	uint32_t owner = atomic_load_explicit(&r->owner, memory_order_relaxed);
	if (USM_UNLIKELY(!id || (size & USM_REC_EXPORTED)))
		goto miss; /* free (the claim would take 0 for 0), exported */
	void *octx, *odev;
	if (USM_LIKELY(gen_ok && owner == tc->oc_idx)) {
		octx = tc->oc_key.ctx;
		odev = tc->oc_key.dev;
	} else {
		atomic_thread_fence(memory_order_acquire);
		if (atomic_load_explicit(&r->id, memory_order_relaxed) != id)
			goto miss;
		const struct usm_owner *e = usm_owner_get(&h->owners, owner);
		octx = atomic_load_explicit(&e->ctx, memory_order_relaxed);
		odev = atomic_load_explicit(&e->dev, memory_order_relaxed);
	}
	if (USM_UNLIKELY(octx != ctx))
		goto miss;
	struct usm_tcache *bias =
		atomic_load_explicit(&s->bias, memory_order_relaxed);
	if (USM_LIKELY(bias == tc)) {
		/* s is this thread's (struct usm_seg.bias): anyone else
		 * unbiases it before a claim, which waits for this read
		 * section, so the id read stays until this store */
		atomic_store_explicit(&r->id, 0, memory_order_relaxed);
	} else if (bias != USM_BIAS_SHARED ||
		   !atomic_compare_exchange_strong(&r->id, &id, 0)) {
		goto miss; /* nobody's yet, another's: usm_free unbiases */
	}
	usm_rd_leave(tc, rd);
	/* Claimed: the segment stays until the slot is given back. */
	*idp = id;
	*sizep = size;
	*devp = odev;
	return s;
miss:
	usm_rd_leave(tc, rd);
	return NULL;
}

/* usm_free's common case: usm_fast_claim, then the slot goes back. 0
 * (freed, like usm_free; freed->exported is false), or USM_FAST_MISS with
 * nothing changed: usm_free then decides (and reports any error). An
 * exported block is rare and its free has more to do (its slot dies, the
 * driver drops the export's fd): the full path does it. */
static inline __attribute__((always_inline)) int
usm_fast_free(struct usm_heap *h, struct usm_tcache *tc, void *ptr, void *ctx,
	      struct usm_info *freed)
{
	uint64_t id;
	uint32_t size;
	void *dev;
	struct usm_seg *s = usm_fast_claim(h, tc, ptr, ctx, &id, &size, &dev);
	if (USM_UNLIKELY(!s))
		return USM_FAST_MISS;
	if (freed) {
		freed->base = ptr;
		freed->size = size;
		freed->kind = (enum usm_kind)s->kind;
		freed->id = id;
		freed->exported = false;
		freed->page_size = h->page_size;
		freed->ctx = ctx;
		freed->dev = dev;
	}
	usm_slot_give(h, tc, s, ptr, false);
	return 0;
}

/* What usm_fast_lookup found. */
struct usm_fast_ref {
	uint64_t id;
	void *ctx, *dev;
	uintptr_t base;
	uint32_t size;
	uint8_t kind;
};

/* usm_lookup's common case: ptr inside a live pooled block, looked up by a
 * thread with a cache (tc, from usm_fast_tc). 0, or USM_FAST_MISS when it
 * is anything else (the full usm_lookup then answers). */
static inline __attribute__((always_inline)) int
usm_fast_lookup(struct usm_heap *h, struct usm_tcache *tc, const void *ptr,
		struct usm_fast_ref *out)
{
	struct usm_seg *s;
	uint32_t slot = 0, size, owner;
	uint64_t rd = usm_rd_enter(h, tc);
	bool ok = usm_fast_slot(h, ptr, &s, &slot, &out->id, &size, &owner);
	if (USM_LIKELY(ok)) {
		out->base = s->span.base + (uintptr_t)slot * s->slot_size;
		out->size = size & ~USM_REC_EXPORTED;
		ok = (uintptr_t)ptr - out->base < out->size;
		out->kind = s->kind;
		const struct usm_owner *e = usm_owner_get(&h->owners, owner);
		out->ctx = atomic_load_explicit(&e->ctx, memory_order_relaxed);
		out->dev = atomic_load_explicit(&e->dev, memory_order_relaxed);
	}
	usm_rd_leave(tc, rd);
	return USM_LIKELY(ok) ? 0 : USM_FAST_MISS;
}

#endif
