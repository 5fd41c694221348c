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
 * Below them, the fast paths (val_fast_<ep>): the usual switches and the
 * thread's hot context, see there.
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

/* The hooks get the switches (cfg: val_cfg, or val_cfg_usual where the
 * wrapper knows them) and the context's record (hctx) from the wrapper,
 * not a struct val_call: CALL builds one, with the arguments, where a
 * finding or a slow path needs it. */

/* The full checks (val_mem.c) run on a copy of q (VAL_COPY): the only
 * field they fill in, relaxed, is theirs alone. */

static inline __attribute__((always_inline)) ze_result_t
val_zeMemAllocShared(const struct val_config *cfg, struct val_handle *hctx,
		     _Atomic uint64_t *cn, ze_context_handle_t hContext,
		     const ze_device_mem_alloc_desc_t *device_desc,
		     const ze_host_mem_alloc_desc_t *host_desc, size_t size,
		     size_t alignment, ze_device_handle_t hDevice, void **pptr)
{
#define CALL                                                                \
	VAL_CALL_zeMemAllocShared(hctx, hContext, device_desc, host_desc,   \
				  size, alignment, hDevice, pptr)
	struct val_alloc_req q = {
		.kind = VAL_KIND_SHARED, .ctx = hContext, .dev = hDevice,
		.size = size, .align = alignment,
	};
	ze_result_t r;
	if (cfg->params &&
	    !(device_desc && host_desc && pptr &&
	      val_hot_device_desc(device_desc) &&
	      val_hot_host_desc(host_desc) && val_hot_size_align(&q)) &&
	    (r = val_alloc_shared_check(CALL, device_desc, host_desc, pptr,
					VAL_COPY(q))))
		return r;
	r = val_next.Mem.pfnAllocShared(hContext, device_desc, host_desc, size,
					alignment, hDevice, pptr);
	if (r == ZE_RESULT_SUCCESS &&
	    !val_alloc_try(cfg, VAL_EP_zeMemAllocShared, hctx, cn,
			   &q, *pptr))
		val_alloc_done(CALL, VAL_COPY(q), *pptr);
	return r;
#undef CALL
}

static inline __attribute__((always_inline)) ze_result_t
val_zeMemAllocDevice(const struct val_config *cfg, struct val_handle *hctx,
		     _Atomic uint64_t *cn, ze_context_handle_t hContext,
		     const ze_device_mem_alloc_desc_t *device_desc, size_t size,
		     size_t alignment, ze_device_handle_t hDevice, void **pptr)
{
#define CALL                                                                \
	VAL_CALL_zeMemAllocDevice(hctx, hContext, device_desc, size,        \
				  alignment, hDevice, pptr)
	struct val_alloc_req q = {
		.kind = VAL_KIND_DEVICE, .ctx = hContext, .dev = hDevice,
		.size = size, .align = alignment,
	};
	ze_result_t r;
	if (cfg->params &&
	    !(hDevice && device_desc && pptr &&
	      val_hot_device_desc(device_desc) && val_hot_size_align(&q)) &&
	    (r = val_alloc_device_check(CALL, device_desc, hDevice, pptr,
					VAL_COPY(q))))
		return r;
	r = val_next.Mem.pfnAllocDevice(hContext, device_desc, size, alignment,
					hDevice, pptr);
	if (r == ZE_RESULT_SUCCESS &&
	    !val_alloc_try(cfg, VAL_EP_zeMemAllocDevice, hctx, cn,
			   &q, *pptr))
		val_alloc_done(CALL, VAL_COPY(q), *pptr);
	return r;
#undef CALL
}

static inline __attribute__((always_inline)) ze_result_t
val_zeMemAllocHost(const struct val_config *cfg, struct val_handle *hctx,
		   _Atomic uint64_t *cn, ze_context_handle_t hContext,
		   const ze_host_mem_alloc_desc_t *host_desc, size_t size,
		   size_t alignment, void **pptr)
{
#define CALL                                                                \
	VAL_CALL_zeMemAllocHost(hctx, hContext, host_desc, size, alignment, \
				pptr)
	struct val_alloc_req q = {
		.kind = VAL_KIND_HOST, .ctx = hContext, .size = size,
		.align = alignment,
	};
	ze_result_t r;
	if (cfg->params &&
	    !(host_desc && pptr && val_hot_host_desc(host_desc) &&
	      val_hot_size_align(&q)) &&
	    (r = val_alloc_host_check(CALL, host_desc, pptr, VAL_COPY(q))))
		return r;
	r = val_next.Mem.pfnAllocHost(hContext, host_desc, size, alignment,
				      pptr);
	if (r == ZE_RESULT_SUCCESS &&
	    !val_alloc_try(cfg, VAL_EP_zeMemAllocHost, hctx, cn,
			   &q, *pptr))
		val_alloc_done(CALL, VAL_COPY(q), *pptr);
	return r;
#undef CALL
}

static inline __attribute__((always_inline)) ze_result_t
val_zeMemFree(const struct val_config *cfg, struct val_handle *hctx,
	      _Atomic uint64_t *cn, ze_context_handle_t hContext, void *ptr)
{
#define CALL VAL_CALL_zeMemFree(hctx, hContext, ptr)
	struct val_release rel;
	ze_result_t r;
	if (cfg->params && !ptr)
		return val_null_pointer(CALL, "ptr");
	if (!val_release_try(cfg, VAL_EP_zeMemFree, hctx, cn, hContext, ptr,
			     VAL_USM_KINDS, &rel)) {
		struct val_release t;
		r = val_release_begin(CALL, hContext, ptr, VAL_USM_KINDS, &t);
		rel = t;
		if (r)
			return r;
	}
	r = val_next.Mem.pfnFree(hContext, ptr);
	if (!val_release_end_try(cfg, VAL_EP_zeMemFree, hctx, cn,
				 &rel, r))
		val_release_undo(CALL, ptr, VAL_COPY(rel), r);
	return r;
#undef CALL
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

/* ---- The fast paths ----
 * With the usual switches, a call on the thread's hot context (val_hot)
 * runs val_fast_<ep> (w_<ep> in val_gen.c picks it). It makes the same
 * checks as val_<ep> in its quick form and keeps the same records, but
 * holds only what the usual case needs across the call to the next layer:
 * a quick check that fails hands the whole call, before anything is done,
 * to slow (the wrapper of the usual path, which checks and reports in its
 * usual order); what val_alloc_try or the next layer's result leaves
 * undone after the call goes to a cold helper here that finishes as
 * val_<ep> would. */
#define VAL_FAST_CFG (&val_cfg_usual)

/* The hot context's record and count slot (never NULL on a fast path). */
static inline __attribute__((always_inline)) _Atomic uint64_t *
val_fast_cn(void)
{
	_Atomic uint64_t *cn = val_hot.ctx_n;
	if (!cn)
		__builtin_unreachable();
	return cn;
}

/* The record of an allocation the next layer made on a fast path:
 * val_alloc_try with the usual switches and the hot context; false when
 * the caller must finish with its val_fast_<kind>_done. */
static inline __attribute__((always_inline)) bool
val_fast_recorded(unsigned ep, const struct val_alloc_req *q, void **pptr)
{
	return val_alloc_try(VAL_FAST_CFG, ep, val_hot.ctx_hd, val_fast_cn(),
			     q, *pptr);
}

static __attribute__((noinline)) void
val_fast_shared_done(ze_context_handle_t hContext,
		     const ze_device_mem_alloc_desc_t *device_desc,
		     const ze_host_mem_alloc_desc_t *host_desc, size_t size,
		     size_t alignment, ze_device_handle_t hDevice, void **pptr)
{
	struct val_alloc_req q = {
		.kind = VAL_KIND_SHARED, .ctx = hContext, .dev = hDevice,
		.size = size, .align = alignment,
	};
	val_alloc_done(VAL_CALL_zeMemAllocShared(val_hot.ctx_hd, hContext,
						 device_desc, host_desc, size,
						 alignment, hDevice, pptr),
		       &q, *pptr);
}

static inline __attribute__((always_inline)) ze_result_t
val_fast_zeMemAllocShared(ze_context_handle_t hContext,
			  const ze_device_mem_alloc_desc_t *device_desc,
			  const ze_host_mem_alloc_desc_t *host_desc,
			  size_t size, size_t alignment,
			  ze_device_handle_t hDevice, void **pptr,
			  ze_pfnMemAllocShared_t slow)
{
	struct val_alloc_req q = {
		.kind = VAL_KIND_SHARED, .ctx = hContext, .dev = hDevice,
		.size = size, .align = alignment,
	};
	if (!(device_desc && host_desc && pptr &&
	      (!hDevice || val_hot_dev(hDevice)) &&
	      val_hot_device_desc(device_desc) &&
	      val_hot_host_desc(host_desc) && val_hot_size_align(&q)))
		return slow(hContext, device_desc, host_desc, size, alignment,
			    hDevice, pptr);
	ze_result_t r = val_next.Mem.pfnAllocShared(
		hContext, device_desc, host_desc, size, alignment, hDevice,
		pptr);
	if (r == ZE_RESULT_SUCCESS &&
	    !val_fast_recorded(VAL_EP_zeMemAllocShared, &q, pptr))
		val_fast_shared_done(hContext, device_desc, host_desc, size,
				     alignment, hDevice, pptr);
	return r;
}

static __attribute__((noinline)) void
val_fast_device_done(ze_context_handle_t hContext,
		     const ze_device_mem_alloc_desc_t *device_desc,
		     size_t size, size_t alignment,
		     ze_device_handle_t hDevice, void **pptr)
{
	struct val_alloc_req q = {
		.kind = VAL_KIND_DEVICE, .ctx = hContext, .dev = hDevice,
		.size = size, .align = alignment,
	};
	val_alloc_done(VAL_CALL_zeMemAllocDevice(val_hot.ctx_hd, hContext,
						 device_desc, size, alignment,
						 hDevice, pptr),
		       &q, *pptr);
}

static inline __attribute__((always_inline)) ze_result_t
val_fast_zeMemAllocDevice(ze_context_handle_t hContext,
			  const ze_device_mem_alloc_desc_t *device_desc,
			  size_t size, size_t alignment,
			  ze_device_handle_t hDevice, void **pptr,
			  ze_pfnMemAllocDevice_t slow)
{
	struct val_alloc_req q = {
		.kind = VAL_KIND_DEVICE, .ctx = hContext, .dev = hDevice,
		.size = size, .align = alignment,
	};
	if (!(val_hot_dev(hDevice) && device_desc && pptr &&
	      val_hot_device_desc(device_desc) && val_hot_size_align(&q)))
		return slow(hContext, device_desc, size, alignment, hDevice,
			    pptr);
	ze_result_t r = val_next.Mem.pfnAllocDevice(
		hContext, device_desc, size, alignment, hDevice, pptr);
	if (r == ZE_RESULT_SUCCESS &&
	    !val_fast_recorded(VAL_EP_zeMemAllocDevice, &q, pptr))
		val_fast_device_done(hContext, device_desc, size, alignment,
				     hDevice, pptr);
	return r;
}

static __attribute__((noinline)) void
val_fast_host_done(ze_context_handle_t hContext,
		   const ze_host_mem_alloc_desc_t *host_desc, size_t size,
		   size_t alignment, void **pptr)
{
	struct val_alloc_req q = {
		.kind = VAL_KIND_HOST, .ctx = hContext, .size = size,
		.align = alignment,
	};
	val_alloc_done(VAL_CALL_zeMemAllocHost(val_hot.ctx_hd, hContext,
					       host_desc, size, alignment,
					       pptr),
		       &q, *pptr);
}

static inline __attribute__((always_inline)) ze_result_t
val_fast_zeMemAllocHost(ze_context_handle_t hContext,
			const ze_host_mem_alloc_desc_t *host_desc,
			size_t size, size_t alignment, void **pptr,
			ze_pfnMemAllocHost_t slow)
{
	struct val_alloc_req q = {
		.kind = VAL_KIND_HOST, .ctx = hContext, .size = size,
		.align = alignment,
	};
	if (!(host_desc && pptr && val_hot_host_desc(host_desc) &&
	      val_hot_size_align(&q)))
		return slow(hContext, host_desc, size, alignment, pptr);
	ze_result_t r = val_next.Mem.pfnAllocHost(hContext, host_desc, size,
						  alignment, pptr);
	if (r == ZE_RESULT_SUCCESS &&
	    !val_fast_recorded(VAL_EP_zeMemAllocHost, &q, pptr))
		val_fast_host_done(hContext, host_desc, size, alignment,
				   pptr);
	return r;
}

/* The next layer refused a free the layer had let go ahead (the record,
 * id, retired and counted): as val_release_undo after val_zeMemFree. */
static __attribute__((noinline)) ze_result_t
val_fast_free_refused(ze_context_handle_t hContext, void *ptr, uint64_t id,
		      ze_result_t res)
{
	const struct val_release rel = { &val_mem_index, (uintptr_t)ptr, id };
	val_release_undo(VAL_CALL_zeMemFree(val_hot.ctx_hd, hContext, ptr),
			 ptr, &rel, res);
	return res;
}

static inline __attribute__((always_inline)) ze_result_t
val_fast_zeMemFree(ze_context_handle_t hContext, void *ptr,
		   ze_pfnMemFree_t slow)
{
	/* NULL has no record: slow reports it. */
	struct val_release rel;
	if (!val_release_try(VAL_FAST_CFG, VAL_EP_zeMemFree, val_hot.ctx_hd,
			     val_fast_cn(), hContext, ptr, VAL_USM_KINDS,
			     &rel))
		return slow(hContext, ptr);
	ze_result_t r = val_next.Mem.pfnFree(hContext, ptr);
	if (__builtin_expect(r != ZE_RESULT_SUCCESS, 0))
		return val_fast_free_refused(hContext, ptr, rel.id, r);
	return r;
}

#endif
