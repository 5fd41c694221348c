// SPDX-License-Identifier: MIT
/*
 * val_hot: the hooks of the hot entry points (zeMemAllocHost,
 * zeMemAllocDevice, zeMemAllocShared, zeMemFree, zeMemGetAllocProperties),
 * static inline so that each is one function with its generated wrapper
 * (val_gen.c includes this file; val_gen.py finds the hooks here too).
 *
 * Each parameter check has a quick test of the usual case (descriptor of
 * the right stype, no unknown flag, no pNext chain, ordinal 0, a size every
 * device takes, alignment 0 or a power of two); when it fails, the full
 * check in val_mem.c / val_params.c runs in its usual order and reports,
 * so a call gets the same finding and result as before. The records:
 * val_alloc_try and val_release_try/end_try (val.h), which fall back on
 * val_alloc_done, val_release_begin and val_release_undo.
 *
 * The allocation and free hooks share one body each with their fast
 * paths (val_fast_<ep>: the usual switches and the thread's hot context),
 * see "Allocations and zeMemFree" below.
 */
#ifndef ZEMEM_VAL_HOT_H
#define ZEMEM_VAL_HOT_H

#include "val.h"

/* A pointer to a copy of the local struct x, for a call out of line
 * that only reads it: x's address is then never taken, and the hot path
 * may keep x in registers. */
#define VAL_COPY(x) (&(struct { __typeof__(x) v; }){ (x) }.v)

#define VAL_HOT_DEVICE_FLAGS 0x7u   /* as DEVICE_FLAGS_ALL (val_params.c) */
#define VAL_HOT_HOST_FLAGS 0x1fu    /* as HOST_FLAGS_ALL */

static inline bool
val_hot_host_desc(const ze_host_mem_alloc_desc_t *d)
{
	uint32_t f = d->flags;
	return d->stype == ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC && !d->pNext &&
	       !(f & ~VAL_HOT_HOST_FLAGS) &&
	       !((f & ZE_HOST_MEM_ALLOC_FLAG_MEM_READ_ONLY) &&
		 (f & ZE_HOST_MEM_ALLOC_FLAG_BIAS_WRITE_COMBINED));
}

static inline bool
val_hot_device_desc(const ze_device_mem_alloc_desc_t *d)
{
	return d->stype == ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC &&
	       !d->pNext && !(d->flags & ~VAL_HOT_DEVICE_FLAGS) &&
	       !d->ordinal;
}

static inline bool
val_hot_size_align(const struct val_alloc_req *q)
{
	uint64_t fits = atomic_load_explicit(&val_smallest_max_alloc,
					     memory_order_relaxed);
	/* 0 < size <= fits (fits < UINT64_MAX: val_params.c) */
	return q->size - 1 < fits && !(q->align & (q->align - 1));
}

/* The hooks get the switches (cfg: the constant switches of the
 * wrapper's mode, val_cfg_modes[m], or val_cfg with backtraces on) and
 * the context's record (hctx) from the wrapper, not a struct val_call:
 * CALL builds one, with the arguments, where a finding or a slow path
 * needs it. */

/* ---- Allocations and zeMemFree ----
 * One body per entry point (val_alloc_<kind>, val_free) serves two
 * callers:
 *   - val_<ep>, the hook of the wrappers of each mode (wm<m>_<ep>, any
 *     switches): slow and after are NULL, hctx and cn are the
 *     wrapper's;
 *   - val_fast_<ep>, the fast path: w<m>_<ep> (val_gen.c; the tables
 *     get it in the modes that keep records, VAL_MODE_FAST) runs it when
 *     the context is the thread's hot one (val_hot), which implies such
 *     a mode (cfg: its switches). slow is the mode's wrapper
 *     (wm<m>_<ep>), a quick check that fails hands it the untouched
 *     call, and hctx and cn are the hot context's, read where they are
 *     used (VAL_HD, VAL_CN), so that nothing but the arguments is kept
 *     across the next layer's call. An allocation's wrapper then
 *     tail-calls after (the mode's wa<m>_<ep>: val_after_<ep>) with
 *     those arguments.
 * The full checks (val_mem.c) run on a copy of q (VAL_COPY): the only
 * field they fill in, relaxed, is theirs alone. After the call: on a
 * fast path val_after_<ep>, the thread's own record first, the rest out
 * of line (val_after_<kind>, val_alloc_after); else val_alloc_end. What
 * the hot paths leave goes to val_alloc_done_kind, which finishes as
 * val_alloc_done. */

/* On a fast path (fast) whose mode checks parameters or lifetimes: is
 * hDevice one the wrapper must look at (not the thread's hot device;
 * NULL unless null_ok)? Then the mode's wrapper takes the call. */
static inline __attribute__((always_inline)) bool
val_fast_dev_cold(const struct val_config *cfg, bool fast,
		  ze_device_handle_t hDevice, bool null_ok)
{
	return fast && (cfg->params || cfg->lifetime) &&
	       (hDevice ? !val_hot_dev(hDevice) : !null_ok);
}

/* The hot context's count slot (never NULL on a fast path). */
static inline __attribute__((always_inline)) _Atomic uint64_t *
val_fast_cn(void)
{
	_Atomic uint64_t *cn = val_hot.ctx_n;
	if (!cn)
		__builtin_unreachable();
	return cn;
}
#define VAL_HD(slow, hctx) ((slow) ? val_hot.ctx_hd : (hctx))
#define VAL_CN(slow, cn) ((slow) ? val_fast_cn() : (cn))

/* An allocation that the hot path did not record (a misaligned
 * pointer, a base the shard hash does not have, backtraces): val_alloc_done
 * with the call described for its findings. */
static __attribute__((noinline)) void
val_alloc_done_kind(struct val_handle *hctx, const struct val_alloc_req *q,
		    const ze_device_mem_alloc_desc_t *device_desc,
		    const ze_host_mem_alloc_desc_t *host_desc, void **pptr)
{
	if (q->kind == VAL_KIND_HOST)
		val_alloc_done(VAL_CALL_zeMemAllocHost(hctx, q->ctx, host_desc,
						       q->size, q->align, pptr),
			       q, *pptr);
	else if (q->kind == VAL_KIND_DEVICE)
		val_alloc_done(VAL_CALL_zeMemAllocDevice(hctx, q->ctx,
							 device_desc, q->size,
							 q->align, q->dev,
							 pptr),
			       q, *pptr);
	else
		val_alloc_done(VAL_CALL_zeMemAllocShared(hctx, q->ctx,
							 device_desc, host_desc,
							 q->size, q->align,
							 q->dev, pptr),
			       q, *pptr);
}

/* What the thread's own record left, on a fast path (val_after_own):
 * val_alloc_try on the shared records (the hot context's; val_cfg: the
 * switches of the mode, which has no backtraces on a fast path), else
 * val_alloc_done_kind. */
static __attribute__((noinline)) void
val_alloc_after(unsigned ep, const struct val_alloc_req *q,
		const ze_device_mem_alloc_desc_t *device_desc,
		const ze_host_mem_alloc_desc_t *host_desc, void **pptr)
{
	struct val_handle *hctx = val_hot.ctx_hd;
	if (!val_alloc_try(&val_cfg, ep, hctx, val_fast_cn(), q, *pptr))
		val_alloc_done_kind(hctx, q, device_desc, host_desc, pptr);
}

/* The end of a successful allocation of q (ep) off the fast paths:
 * val_alloc_try (hctx, cn: the wrapper's) or val_alloc_done_kind. */
static inline __attribute__((always_inline)) void
val_alloc_end(const struct val_config *cfg, unsigned ep,
	      struct val_handle *hctx, _Atomic uint64_t *cn,
	      const struct val_alloc_req *q,
	      const ze_device_mem_alloc_desc_t *device_desc,
	      const ze_host_mem_alloc_desc_t *host_desc, void **pptr)
{
	if (!val_alloc_try(cfg, ep, hctx, cn, q, *pptr))
		val_alloc_done_kind(hctx, VAL_COPY(*q), device_desc, host_desc,
				    pptr);
}

/* The request of an allocation (dev: NULL for host memory). */
static inline __attribute__((always_inline)) struct val_alloc_req
val_req(enum val_kind kind, ze_context_handle_t ctx, ze_device_handle_t dev,
	size_t size, size_t align)
{
	return (struct val_alloc_req){
		.kind = kind, .ctx = ctx, .dev = dev, .size = size,
		.align = align,
	};
}

/* A fast path's allocation after the next layer's success: val_gen.c's
 * wa<m>_<ep>, which the fast wrapper tail-calls with its own arguments,
 * so that it keeps nothing else across the call and its frame is their
 * spill slots. The thread's own record at the base (val.h, struct
 * val_own), freed, takes the new life with no lock and no frame
 * (val_after_own true); the rest goes on, by another tail call with the
 * same arguments, to val_after_<kind>, out of line, and
 * val_alloc_after. */
static inline __attribute__((always_inline)) bool
val_after_own(const struct val_config *cfg, unsigned ep, enum val_kind kind,
	      ze_context_handle_t ctx, ze_device_handle_t dev, size_t size,
	      size_t align, void **pptr)
{
	const struct val_alloc_req q = val_req(kind, ctx, dev, size, align);
	uintptr_t b = (uintptr_t)*pptr;
	/* NULL needs no test: it is no own record's base (val_own_at
	 * answers val_own_none or a miss). */
	bool own = cfg->tracking && !cfg->backtrace &&
		   !(cfg->params && q.align && (b & (q.align - 1))) &&
		   val_own_alloc_revive(ep, &q, b, true);
	if (own)
		val_count_hot(cfg, ep, NULL, val_fast_cn(), 1);
	return __builtin_expect(own, 1);
}
static inline __attribute__((always_inline)) ze_result_t
val_after_rest(unsigned ep, enum val_kind kind, ze_context_handle_t ctx,
	       ze_device_handle_t dev, size_t size, size_t align,
	       const ze_device_mem_alloc_desc_t *device_desc,
	       const ze_host_mem_alloc_desc_t *host_desc, void **pptr)
{
	const struct val_alloc_req q = val_req(kind, ctx, dev, size, align);
	val_alloc_after(ep, &q, device_desc, host_desc, pptr);
	return ZE_RESULT_SUCCESS;
}
static __attribute__((noinline)) ze_result_t
val_after_shared(ze_context_handle_t hContext,
		 const ze_device_mem_alloc_desc_t *device_desc,
		 const ze_host_mem_alloc_desc_t *host_desc, size_t size,
		 size_t alignment, ze_device_handle_t hDevice, void **pptr)
{
	return val_after_rest(VAL_EP_zeMemAllocShared, VAL_KIND_SHARED,
			      hContext, hDevice, size, alignment, device_desc,
			      host_desc, pptr);
}
static inline __attribute__((always_inline)) ze_result_t
val_after_zeMemAllocShared(const struct val_config *cfg,
			   ze_context_handle_t hContext,
			   const ze_device_mem_alloc_desc_t *device_desc,
			   const ze_host_mem_alloc_desc_t *host_desc,
			   size_t size, size_t alignment,
			   ze_device_handle_t hDevice, void **pptr)
{
	if (val_after_own(cfg, VAL_EP_zeMemAllocShared, VAL_KIND_SHARED,
			  hContext, hDevice, size, alignment, pptr))
		return ZE_RESULT_SUCCESS;
	return val_after_shared(hContext, device_desc, host_desc, size,
				alignment, hDevice, pptr);
}
static __attribute__((noinline)) ze_result_t
val_after_device(ze_context_handle_t hContext,
		 const ze_device_mem_alloc_desc_t *device_desc, size_t size,
		 size_t alignment, ze_device_handle_t hDevice, void **pptr)
{
	return val_after_rest(VAL_EP_zeMemAllocDevice, VAL_KIND_DEVICE,
			      hContext, hDevice, size, alignment, device_desc,
			      NULL, pptr);
}
static inline __attribute__((always_inline)) ze_result_t
val_after_zeMemAllocDevice(const struct val_config *cfg,
			   ze_context_handle_t hContext,
			   const ze_device_mem_alloc_desc_t *device_desc,
			   size_t size, size_t alignment,
			   ze_device_handle_t hDevice, void **pptr)
{
	if (val_after_own(cfg, VAL_EP_zeMemAllocDevice, VAL_KIND_DEVICE,
			  hContext, hDevice, size, alignment, pptr))
		return ZE_RESULT_SUCCESS;
	return val_after_device(hContext, device_desc, size, alignment,
				hDevice, pptr);
}
static __attribute__((noinline)) ze_result_t
val_after_host(ze_context_handle_t hContext,
	       const ze_host_mem_alloc_desc_t *host_desc, size_t size,
	       size_t alignment, void **pptr)
{
	return val_after_rest(VAL_EP_zeMemAllocHost, VAL_KIND_HOST, hContext,
			      NULL, size, alignment, NULL, host_desc, pptr);
}
static inline __attribute__((always_inline)) ze_result_t
val_after_zeMemAllocHost(const struct val_config *cfg,
			 ze_context_handle_t hContext,
			 const ze_host_mem_alloc_desc_t *host_desc,
			 size_t size, size_t alignment, void **pptr)
{
	if (val_after_own(cfg, VAL_EP_zeMemAllocHost, VAL_KIND_HOST, hContext,
			  NULL, size, alignment, pptr))
		return ZE_RESULT_SUCCESS;
	return val_after_host(hContext, host_desc, size, alignment, pptr);
}

static inline __attribute__((always_inline)) ze_result_t
val_alloc_shared(const struct val_config *cfg, struct val_handle *hctx,
		 _Atomic uint64_t *cn, ze_context_handle_t hContext,
		 const ze_device_mem_alloc_desc_t *device_desc,
		 const ze_host_mem_alloc_desc_t *host_desc, size_t size,
		 size_t alignment, ze_device_handle_t hDevice, void **pptr,
		 ze_pfnMemAllocShared_t slow,
		 ze_pfnMemAllocShared_t after)
{
	struct val_alloc_req q =
		val_req(VAL_KIND_SHARED, hContext, hDevice, size, alignment);
	ze_result_t r;
	if (val_fast_dev_cold(cfg, slow != NULL, hDevice, true))
		return slow(hContext, device_desc, host_desc, size, alignment,
			    hDevice, pptr);
	if (cfg->params &&
	    !(device_desc && host_desc && pptr &&
	      val_hot_device_desc(device_desc) &&
	      val_hot_host_desc(host_desc) && val_hot_size_align(&q))) {
		if (slow)
			return slow(hContext, device_desc, host_desc, size,
				    alignment, hDevice, pptr);
		if ((r = val_alloc_shared_check(
			     VAL_CALL_zeMemAllocShared(hctx, hContext,
						       device_desc, host_desc,
						       size, alignment,
						       hDevice, pptr),
			     device_desc, host_desc, pptr, VAL_COPY(q))))
			return r;
	}
	r = val_next.Mem.pfnAllocShared(hContext, device_desc, host_desc, size,
					alignment, hDevice, pptr);
	if (after && __builtin_expect(r == ZE_RESULT_SUCCESS, 1))
		return after(hContext, device_desc, host_desc, size,
			     alignment, hDevice, pptr);
	if (r == ZE_RESULT_SUCCESS)
		val_alloc_end(cfg, VAL_EP_zeMemAllocShared, hctx, cn, &q,
			      device_desc, host_desc, pptr);
	return r;
}

static inline __attribute__((always_inline)) ze_result_t
val_zeMemAllocShared(const struct val_config *cfg, struct val_handle *hctx,
		     _Atomic uint64_t *cn, ze_context_handle_t hContext,
		     const ze_device_mem_alloc_desc_t *device_desc,
		     const ze_host_mem_alloc_desc_t *host_desc, size_t size,
		     size_t alignment, ze_device_handle_t hDevice, void **pptr)
{
	return val_alloc_shared(cfg, hctx, cn, hContext, device_desc,
				host_desc, size, alignment, hDevice, pptr,
				NULL, NULL);
}

static inline __attribute__((always_inline)) ze_result_t
val_fast_zeMemAllocShared(const struct val_config *cfg,
			  ze_context_handle_t hContext,
			  const ze_device_mem_alloc_desc_t *device_desc,
			  const ze_host_mem_alloc_desc_t *host_desc,
			  size_t size, size_t alignment,
			  ze_device_handle_t hDevice, void **pptr,
			  ze_pfnMemAllocShared_t slow,
			  ze_pfnMemAllocShared_t after)
{
	return val_alloc_shared(cfg, NULL, NULL, hContext,
				device_desc, host_desc, size, alignment,
				hDevice, pptr, slow, after);
}

static inline __attribute__((always_inline)) ze_result_t
val_alloc_device(const struct val_config *cfg, struct val_handle *hctx,
		 _Atomic uint64_t *cn, ze_context_handle_t hContext,
		 const ze_device_mem_alloc_desc_t *device_desc, size_t size,
		 size_t alignment, ze_device_handle_t hDevice, void **pptr,
		 ze_pfnMemAllocDevice_t slow,
		 ze_pfnMemAllocDevice_t after)
{
	struct val_alloc_req q =
		val_req(VAL_KIND_DEVICE, hContext, hDevice, size, alignment);
	ze_result_t r;
	if (val_fast_dev_cold(cfg, slow != NULL, hDevice, false))
		return slow(hContext, device_desc, size, alignment, hDevice,
			    pptr);
	if (cfg->params &&
	    !(hDevice && device_desc && pptr &&
	      val_hot_device_desc(device_desc) &&
	      val_hot_size_align(&q))) {
		if (slow)
			return slow(hContext, device_desc, size, alignment,
				    hDevice, pptr);
		if ((r = val_alloc_device_check(
			     VAL_CALL_zeMemAllocDevice(hctx, hContext,
						       device_desc, size,
						       alignment, hDevice,
						       pptr),
			     device_desc, hDevice, pptr, VAL_COPY(q))))
			return r;
	}
	r = val_next.Mem.pfnAllocDevice(hContext, device_desc, size, alignment,
					hDevice, pptr);
	if (after && __builtin_expect(r == ZE_RESULT_SUCCESS, 1))
		return after(hContext, device_desc, size, alignment, hDevice,
			     pptr);
	if (r == ZE_RESULT_SUCCESS)
		val_alloc_end(cfg, VAL_EP_zeMemAllocDevice, hctx, cn, &q,
			      device_desc, NULL, pptr);
	return r;
}

static inline __attribute__((always_inline)) ze_result_t
val_zeMemAllocDevice(const struct val_config *cfg, struct val_handle *hctx,
		     _Atomic uint64_t *cn, ze_context_handle_t hContext,
		     const ze_device_mem_alloc_desc_t *device_desc, size_t size,
		     size_t alignment, ze_device_handle_t hDevice, void **pptr)
{
	return val_alloc_device(cfg, hctx, cn, hContext, device_desc, size,
				alignment, hDevice, pptr, NULL, NULL);
}

static inline __attribute__((always_inline)) ze_result_t
val_fast_zeMemAllocDevice(const struct val_config *cfg,
			  ze_context_handle_t hContext,
			  const ze_device_mem_alloc_desc_t *device_desc,
			  size_t size, size_t alignment,
			  ze_device_handle_t hDevice, void **pptr,
			  ze_pfnMemAllocDevice_t slow,
			  ze_pfnMemAllocDevice_t after)
{
	return val_alloc_device(cfg, NULL, NULL, hContext,
				device_desc, size, alignment, hDevice, pptr,
				slow, after);
}

static inline __attribute__((always_inline)) ze_result_t
val_alloc_host(const struct val_config *cfg, struct val_handle *hctx,
	       _Atomic uint64_t *cn, ze_context_handle_t hContext,
	       const ze_host_mem_alloc_desc_t *host_desc, size_t size,
	       size_t alignment, void **pptr, ze_pfnMemAllocHost_t slow,
	       ze_pfnMemAllocHost_t after)
{
	struct val_alloc_req q =
		val_req(VAL_KIND_HOST, hContext, NULL, size, alignment);
	ze_result_t r;
	if (cfg->params &&
	    !(host_desc && pptr && val_hot_host_desc(host_desc) &&
	      val_hot_size_align(&q))) {
		if (slow)
			return slow(hContext, host_desc, size, alignment, pptr);
		if ((r = val_alloc_host_check(
			     VAL_CALL_zeMemAllocHost(hctx, hContext, host_desc,
						     size, alignment, pptr),
			     host_desc, pptr, VAL_COPY(q))))
			return r;
	}
	r = val_next.Mem.pfnAllocHost(hContext, host_desc, size, alignment,
				      pptr);
	if (after && __builtin_expect(r == ZE_RESULT_SUCCESS, 1))
		return after(hContext, host_desc, size, alignment, pptr);
	if (r == ZE_RESULT_SUCCESS)
		val_alloc_end(cfg, VAL_EP_zeMemAllocHost, hctx, cn, &q, NULL,
			      host_desc, pptr);
	return r;
}

static inline __attribute__((always_inline)) ze_result_t
val_zeMemAllocHost(const struct val_config *cfg, struct val_handle *hctx,
		   _Atomic uint64_t *cn, ze_context_handle_t hContext,
		   const ze_host_mem_alloc_desc_t *host_desc, size_t size,
		   size_t alignment, void **pptr)
{
	return val_alloc_host(cfg, hctx, cn, hContext, host_desc, size,
			      alignment, pptr, NULL, NULL);
}

static inline __attribute__((always_inline)) ze_result_t
val_fast_zeMemAllocHost(const struct val_config *cfg,
			ze_context_handle_t hContext,
			const ze_host_mem_alloc_desc_t *host_desc,
			size_t size, size_t alignment, void **pptr,
			ze_pfnMemAllocHost_t slow,
			ze_pfnMemAllocHost_t after)
{
	return val_alloc_host(cfg, NULL, NULL, hContext, host_desc,
			      size, alignment, pptr, slow, after);
}

/* The next layer refused a free the layer had let go ahead (rel: the
 * record it retired, or none): val_release_undo. */
static __attribute__((noinline)) void
val_free_refused(struct val_handle *hctx, ze_context_handle_t hContext,
		 void *ptr, const struct val_release *rel, ze_result_t res)
{
	val_release_undo(VAL_CALL_zeMemFree(hctx, hContext, ptr), ptr, rel,
			 res);
}

/* The next layer refused a free of the thread's own record (id). */
static __attribute__((noinline)) void
val_own_free_refused(ze_context_handle_t hContext, void *ptr, uint64_t id,
		     ze_result_t res)
{
	const struct val_release rel = { &val_mem_index, (uintptr_t)ptr, id };
	val_free_refused(val_hot.ctx_hd, hContext, ptr, &rel, res);
}

/* shared (on the fast path, the mode's ws<m>_zeMemFree: this body with
 * shared NULL, out of line) takes what the thread's own record does not:
 * the fast wrapper then keeps only ptr, the context and the record's id
 * across the next layer's call. */
static inline __attribute__((always_inline)) ze_result_t
val_free(const struct val_config *cfg, struct val_handle *hctx,
	 _Atomic uint64_t *cn, ze_context_handle_t hContext, void *ptr,
	 ze_pfnMemFree_t slow, ze_pfnMemFree_t shared)
{
	struct val_release rel;
	ze_result_t r;
	if (shared) {
		uint64_t id;
		if (!val_own_release_try(cfg, VAL_EP_zeMemFree, hContext, ptr,
					 VAL_USM_KINDS, &id, true))
			return shared(hContext, ptr);
		val_count_hot(cfg, VAL_EP_zeMemFree, NULL, val_fast_cn(), 1);
		r = val_next.Mem.pfnFree(hContext, ptr);
		if (__builtin_expect(r != ZE_RESULT_SUCCESS, 0))
			val_own_free_refused(hContext, ptr, id, r);
		return r;
	}
	/* On the fast path NULL has no record: slow reports it. There
	 * (ws<m>_zeMemFree) the caller has tried the thread's last own
	 * record (mru), not the others. */
	if (!slow && cfg->params && !ptr)
		return val_null_pointer(VAL_CALL_zeMemFree(hctx, hContext, ptr),
					"ptr");
	if (!val_release_try(cfg, VAL_EP_zeMemFree, VAL_HD(slow, hctx),
			     VAL_CN(slow, cn), hContext, ptr, VAL_USM_KINDS,
			     &rel)) {
		if (slow)
			return slow(hContext, ptr);
		struct val_release t;
		r = val_release_begin(VAL_CALL_zeMemFree(hctx, hContext, ptr),
				      hContext, ptr, VAL_USM_KINDS, &t);
		rel = t;
		if (r)
			return r;
	}
	r = val_next.Mem.pfnFree(hContext, ptr);
	if (!val_release_end_try(cfg, VAL_EP_zeMemFree, VAL_HD(slow, hctx),
				 VAL_CN(slow, cn), &rel, r))
		val_free_refused(VAL_HD(slow, hctx), hContext, ptr,
				 VAL_COPY(rel), r);
	return r;
}

static inline __attribute__((always_inline)) ze_result_t
val_zeMemFree(const struct val_config *cfg, struct val_handle *hctx,
	      _Atomic uint64_t *cn, ze_context_handle_t hContext, void *ptr)
{
	return val_free(cfg, hctx, cn, hContext, ptr, NULL, NULL);
}

static inline __attribute__((always_inline)) ze_result_t
val_fast_zeMemFree(const struct val_config *cfg, ze_context_handle_t hContext,
		   void *ptr, ze_pfnMemFree_t slow, ze_pfnMemFree_t shared)
{
	return val_free(cfg, NULL, NULL, hContext, ptr, slow, shared);
}

static inline __attribute__((always_inline)) ze_result_t
val_zeMemGetAllocProperties(const struct val_config *cfg,
			    struct val_handle *hctx, _Atomic uint64_t *cn,
			    ze_context_handle_t hContext, const void *ptr,
			    ze_memory_allocation_properties_t *pMemAllocProperties,
			    ze_device_handle_t *phDevice)
{
#define CALL                                                                \
	VAL_CALL_zeMemGetAllocProperties(hctx, hContext, ptr,              \
					 pMemAllocProperties, phDevice)
	if (cfg->params) {
		if (!ptr)
			return val_null_pointer(CALL, "ptr");
		if (!pMemAllocProperties)
			return val_null_pointer(CALL, "pMemAllocProperties");
	}
	(void)cn;
	ze_result_t r = val_next.Mem.pfnGetAllocProperties(
		hContext, ptr, pMemAllocProperties, phDevice);
	if (r == ZE_RESULT_SUCCESS && phDevice && *phDevice)
		val_device_seen(*phDevice, CALL);
	return r;
#undef CALL
}

#endif
