// SPDX-License-Identifier: MIT
/*
 * drv_mem: the zeMem* USM entry points: argument checks, descriptor chains,
 * device-memory budgets, and the translation to driver/usm calls.
 *
 * Budgets: device allocations, and shared allocations associated with a
 * device, count their size against that device's budget (an atomic
 * counter, reserved before the allocation and given back on free). Shared
 * allocations with no device and host allocations count against no device.
 */
#include "drv.h"
#include "amap/amap.h"
#include "usm_fast.h"

#include <errno.h>
#include <string.h>

#define DEVICE_FLAGS_ALL                                                    \
	(ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_CACHED |                             \
	 ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_UNCACHED |                           \
	 ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_INITIAL_PLACEMENT)
#define HOST_FLAGS_ALL                                                      \
	(ZE_HOST_MEM_ALLOC_FLAG_BIAS_CACHED |                               \
	 ZE_HOST_MEM_ALLOC_FLAG_BIAS_UNCACHED |                             \
	 ZE_HOST_MEM_ALLOC_FLAG_BIAS_WRITE_COMBINED |                       \
	 ZE_HOST_MEM_ALLOC_FLAG_BIAS_INITIAL_PLACEMENT |                    \
	 ZE_HOST_MEM_ALLOC_FLAG_MEM_READ_ONLY)

/* What the descriptor chains of one allocation asked for. */
struct alloc_ext {
	bool relaxed_max_size;
	uint32_t usm_flags;
	/* ze_external_memory_import_fd_t with nonzero flags (driver/ipc) */
	const ze_external_memory_import_fd_t *import;
};

static __attribute__((noinline)) ze_result_t
parse_chain(const void *pNext, struct alloc_ext *ext, const char *which)
{
	for (const ze_base_desc_t *d = pNext; d; d = d->pNext) {
		switch (d->stype) {
		case ZE_STRUCTURE_TYPE_RELAXED_ALLOCATION_LIMITS_EXP_DESC: {
			const ze_relaxed_allocation_limits_exp_desc_t *r =
				(const void *)d;
			if (r->flags &
			    ~(ze_relaxed_allocation_limits_exp_flags_t)
				    ZE_RELAXED_ALLOCATION_LIMITS_EXP_FLAG_MAX_SIZE)
				return DRV_FAIL(
					ZE_RESULT_ERROR_INVALID_ENUMERATION,
					"unknown relaxed-limits flags 0x%x",
					r->flags);
			if (r->flags &
			    ZE_RELAXED_ALLOCATION_LIMITS_EXP_FLAG_MAX_SIZE)
				ext->relaxed_max_size = true;
			break;
		}
		case ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_DESC:
		case ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD: {
			/* Types driver/ipc supports (OPAQUE_FD: a memfd;
			 * DMA_BUF where the machine has an exporter). */
			const ze_external_memory_export_desc_t *e =
				(const void *)d;
			if (e->flags & ~ipc_external_types())
				return DRV_FAIL(
					ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION,
					"external memory type 0x%x is not "
					"supported", e->flags);
			if (!e->flags)
				break;
			if (d->stype ==
			    ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD) {
				ext->import = (const void *)d;
				break;
			}
			/* Exportable: fd-backed and page-isolated; a dma-buf
			 * when asked for one. */
			ext->usm_flags |= USM_FLAG_EXPORTABLE;
			if (e->flags & ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF)
				ext->usm_flags |= USM_FLAG_DMABUF;
			break;
		}
		default:
			return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION,
					"unknown stype 0x%x in the %s pNext "
					"chain", d->stype, which);
		}
	}
	return ZE_RESULT_SUCCESS;
}

static inline ze_result_t
check_device_desc(const ze_device_mem_alloc_desc_t *dd, struct alloc_ext *ext)
{
	if (dd->stype != ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"device_desc->stype is 0x%x", dd->stype);
	if (dd->flags & ~(ze_device_mem_alloc_flags_t)DEVICE_FLAGS_ALL)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION,
				"unknown device alloc flags 0x%x", dd->flags);
	if (dd->ordinal != 0)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"memory ordinal %u (the device has 1)",
				dd->ordinal);
	return dd->pNext ? parse_chain(dd->pNext, ext, "device descriptor")
			 : ZE_RESULT_SUCCESS;
}

static inline ze_result_t
check_host_desc(const ze_host_mem_alloc_desc_t *hd, struct alloc_ext *ext)
{
	if (hd->stype != ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"host_desc->stype is 0x%x", hd->stype);
	if (hd->flags & ~(ze_host_mem_alloc_flags_t)HOST_FLAGS_ALL)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION,
				"unknown host alloc flags 0x%x", hd->flags);
	if ((hd->flags & ZE_HOST_MEM_ALLOC_FLAG_MEM_READ_ONLY) &&
	    (hd->flags & ZE_HOST_MEM_ALLOC_FLAG_BIAS_WRITE_COMBINED))
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"MEM_READ_ONLY and BIAS_WRITE_COMBINED are "
				"mutually exclusive");
	return hd->pNext ? parse_chain(hd->pNext, ext, "host descriptor")
			 : ZE_RESULT_SUCCESS;
}

/* Checks shared by every kind, after the descriptors were parsed. */
static inline ze_result_t
check_size_align(size_t size, size_t alignment, uint64_t max_alloc,
		 const struct alloc_ext *ext)
{
	if (size == 0)
		return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, "size is 0");
	if (size > max_alloc && !ext->relaxed_max_size)
		return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
				"size %zu > maxMemAllocSize %llu (chain a "
				"relaxed-allocation-limits descriptor to "
				"exceed it)", size,
				(unsigned long long)max_alloc);
	if (alignment & (alignment - 1))
		return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT,
				"alignment %zu is not a power of two",
				alignment);
	return ZE_RESULT_SUCCESS;
}

/* The fast paths' budget: from the thread's credit (usm_thread_credit:
 * budget taken DRV_CREDIT_CHUNK at a time, given back above twice that),
 * so a pair of small device allocations touches no shared counter. A
 * thread holds at most 2 * DRV_CREDIT_CHUNK of a device's budget unused;
 * a reservation that fails returns the calling thread's credit first. */
#define DRV_CREDIT_CHUNK ((uint64_t)256 << 10)
_Static_assert(DRV_MAX_DEVICES <= USM_CREDIT_SLOTS,
	       "one credit slot per device");

/* The fast path found the calling thread's credit on dev short of size:
 * a chunk more from the device's budget, and true. false when a chunk does
 * not serve the request or the budget has no chunk left: the full path
 * then reserves exactly size (drv_budget_reserve, which first returns what
 * the thread holds). Out of line: the fast paths stay free of calls. */
static __attribute__((noinline)) bool
credit_refill(struct _ze_device_handle_t *dev, size_t size)
{
	struct usm_tcache *tc = usm_fast_tc(drv_driver.heap);
	if (!tc || size >= DRV_CREDIT_CHUNK ||
	    !drv_budget_take(dev, DRV_CREDIT_CHUNK))
		return false;
	usm_fast_credit(tc)[dev->ordinal] += DRV_CREDIT_CHUNK;
	return true;
}

static inline void
credit_give(struct _ze_device_handle_t *dev, uint64_t *cr, size_t size)
{
	uint64_t *c = &cr[dev->ordinal];
	*c += size;
	if (USM_UNLIKELY(*c > 2 * DRV_CREDIT_CHUNK)) {
		drv_budget_release(dev, *c - DRV_CREDIT_CHUNK);
		*c = DRV_CREDIT_CHUNK;
	}
}

static inline void
mem_release(const struct usm_info *info)
{
	if (info->kind != USM_KIND_HOST && info->dev)
		drv_budget_release(info->dev, info->size);
	/* Drops its export's external-fd reference; only an exported block
	 * (usm_mark_exported: driver/ipc marks before it exports) has one. */
	if (USM_UNLIKELY(info->exported))
		ipc_mem_freed(info);
}

void
drv_mem_release(const struct usm_info *info, void *arg)
{
	(void)arg;
	mem_release(info);
}

/* Common tail of the three allocators. dev may be NULL (host, shared with
 * no device). */
static inline __attribute__((always_inline)) ze_result_t
do_alloc(struct _ze_context_handle_t *ctx, enum usm_kind kind,
	 struct _ze_device_handle_t *dev, uint32_t ze_flags,
	 const struct alloc_ext *ext, size_t size, size_t alignment,
	 void **pptr)
{
	/* Imported memory is the fd's owner's: no usm block, no budget. */
	if (ext->import)
		return ipc_mem_import_fd(ctx, kind, dev, ext->import, size,
					 pptr);
	struct usm_req req = {
		.kind = kind, .size = size, .align = alignment,
		.ze_flags = ze_flags, .usm_flags = ext->usm_flags,
		.ctx = ctx, .dev = dev,
	};
	bool counted = kind != USM_KIND_HOST && dev;
	if (counted && !drv_budget_reserve(dev, size))
		return DRV_FAIL(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY,
				"device %u: %zu bytes requested, %llu of %llu "
				"in use", dev->ordinal, size,
				(unsigned long long)atomic_load(&dev->used),
				(unsigned long long)dev->budget);
	int err = ext->usm_flags
			  ? usm_alloc(drv_driver.heap, &req, pptr)
			  : usm_alloc_plain(drv_driver.heap, kind, ctx, dev,
					    ze_flags, size, alignment, pptr);
	if (err) {
		if (counted)
			drv_budget_release(dev, size);
		*pptr = NULL;
		if (err == -ENOMEM)
			return DRV_FAIL(kind == USM_KIND_HOST
						? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY
						: ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY,
					"cannot map %zu bytes", size);
		return DRV_FAIL(drv_result(err), "usm_alloc: %s",
				strerror(-err));
	}
	return ZE_RESULT_SUCCESS;
}

/* Host flag bits a fast allocation takes: known, and not both of the two
 * that exclude each other. */
static inline bool
host_flags_ok(ze_host_mem_alloc_flags_t f)
{
	const ze_host_mem_alloc_flags_t x =
		ZE_HOST_MEM_ALLOC_FLAG_MEM_READ_ONLY |
		ZE_HOST_MEM_ALLOC_FLAG_BIAS_WRITE_COMBINED;
	return !(f & ~(ze_host_mem_alloc_flags_t)HOST_FLAGS_ALL) &&
	       (f & x) != x;
}

/* What fast_alloc did. */
enum fast_res {
	FAST_DONE,  /* *pptr is the new block */
	FAST_MISS,  /* nothing changed: take the full path */
	FAST_SHORT, /* nothing changed, the thread's credit on dev is short:
		     * credit_refill, then the call again */
};

/* The allocators' common case, inline: descriptors checked by the caller
 * (no chains), a pooled size, the thread's cache ready (usm_fast.h), the
 * budget from the thread's credit on the device, taken last, when nothing
 * else can fail. FAST_MISS: the full path checks everything again and
 * reports what is wrong. Nothing here calls out, so the entry points need
 * no frame.
 * hdev is the caller's device handle as given (NULL: none; max_alloc is
 * then the size limit), not yet checked: the thread's last owner
 * (usm_owner_cached) is tested first, and only the full path, after
 * drv_check_device (a device of c), makes an owner, so when the owner is
 * (c, hdev) hdev is a device of c and may be read. A forged handle
 * matches no owner and is never read. */
static inline __attribute__((always_inline)) enum fast_res
fast_alloc(struct _ze_context_handle_t *c, enum usm_kind kind,
	   ze_device_handle_t hdev, uint32_t ze_flags, size_t size,
	   size_t alignment, uint64_t max_alloc, void **pptr)
{
	struct usm_heap *h = drv_driver.heap;
	struct usm_tcache *tc = usm_fast_tc(h);
	if (!tc || !usm_owner_cached(h, tc, c, hdev, ze_flags, alignment))
		return FAST_MISS; /* no cache yet, or another owner */
	struct _ze_device_handle_t *dev = hdev;
	if (dev)
		max_alloc = dev->max_alloc;
	if (size - 1 >= max_alloc || (alignment & (alignment - 1)))
		return FAST_MISS; /* size 0 wraps round */
	struct tc_bin *b = usm_fast_bin_owned(h, tc, kind, size, alignment);
	if (USM_UNLIKELY(!b))
		return FAST_MISS;
	/* The credit is read before the pop and written after it: the pop's
	 * stores (which might alias it, for the compiler) then cost no
	 * reloads. Only this thread writes its credit. */
	uint64_t *cr = NULL, credit = 0;
	if (kind != USM_KIND_HOST && dev) {
		cr = &usm_fast_credit(tc)[dev->ordinal];
		credit = *cr;
		if (USM_UNLIKELY(credit < size))
			return FAST_SHORT;
	}
	*pptr = usm_fast_pop(tc, b, size);
	if (cr)
		*cr = credit - size;
	return FAST_DONE;
}

/* drv_zeMemAllocShared beyond its fast path: every check, every error. */
static __attribute__((noinline)) ze_result_t
drv_zeMemAllocShared_full(ze_context_handle_t hContext,
			  const ze_device_mem_alloc_desc_t *device_desc,
			  const ze_host_mem_alloc_desc_t *host_desc,
			  size_t size, size_t alignment,
			  ze_device_handle_t hDevice, void **pptr)
{
	DRV_CHECK_CONTEXT(hContext, c);
	if (!device_desc || !host_desc || !pptr)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"device_desc, host_desc or pptr is NULL");
	*pptr = NULL;
	struct _ze_device_handle_t *dev = NULL;
	struct alloc_ext ext = { 0 };
	ze_result_t r;
	if (hDevice && (r = drv_check_device(c, hDevice, __func__, &dev)))
		return r;
	if ((r = check_device_desc(device_desc, &ext)) ||
	    (r = check_host_desc(host_desc, &ext)))
		return r;
	uint64_t max_alloc = dev ? dev->max_alloc : drv_devices[0].max_alloc;
	if ((r = check_size_align(size, alignment, max_alloc, &ext)))
		return r;
	return do_alloc(c, USM_KIND_SHARED, dev,
			device_desc->flags | (host_desc->flags << 8), &ext,
			size, alignment, pptr);
}

/* The descriptors of a shared allocation as its fast path takes them: no
 * chains, known flags, memory ordinal 0. */
static inline bool
shared_descs_ok(const ze_device_mem_alloc_desc_t *dd,
		const ze_host_mem_alloc_desc_t *hd)
{
	return dd && hd &&
	       dd->stype == ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC &&
	       hd->stype == ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC &&
	       !dd->pNext && !hd->pNext &&
	       !(dd->flags & ~DEVICE_FLAGS_ALL) && !dd->ordinal &&
	       host_flags_ok(hd->flags);
}

/* drv_zeMemAllocShared when the thread's credit on hDevice was short:
 * refilled, the call again (its fast path has the credit now); else the
 * full path. */
static __attribute__((noinline)) ze_result_t
drv_zeMemAllocShared_short(ze_context_handle_t hContext,
			   const ze_device_mem_alloc_desc_t *device_desc,
			   const ze_host_mem_alloc_desc_t *host_desc,
			   size_t size, size_t alignment,
			   ze_device_handle_t hDevice, void **pptr)
{
	if (credit_refill(drv_device_get(hDevice), size))
		return drv_zeMemAllocShared(hContext, device_desc, host_desc,
					    size, alignment, hDevice, pptr);
	return drv_zeMemAllocShared_full(hContext, device_desc, host_desc,
					 size, alignment, hDevice, pptr);
}

ze_result_t
drv_zeMemAllocShared(ze_context_handle_t hContext,
		     const ze_device_mem_alloc_desc_t *device_desc,
		     const ze_host_mem_alloc_desc_t *host_desc, size_t size,
		     size_t alignment, ze_device_handle_t hDevice, void **pptr)
{
	/* The fast path twice, with a device and without: neither tests
	 * again which one it is. */
	enum fast_res r = FAST_MISS;
	if (USM_LIKELY(drv_context_live(hContext) && pptr &&
		       shared_descs_ok(device_desc, host_desc)))
		r = fast_alloc(hContext, USM_KIND_SHARED, hDevice,
			       device_desc->flags | (host_desc->flags << 8),
			       size, alignment, drv_devices[0].max_alloc,
			       pptr);
	if (USM_LIKELY(r == FAST_DONE))
		return ZE_RESULT_SUCCESS;
	if (r == FAST_SHORT)
		return drv_zeMemAllocShared_short(hContext, device_desc,
						  host_desc, size, alignment,
						  hDevice, pptr);
	return drv_zeMemAllocShared_full(hContext, device_desc, host_desc,
					 size, alignment, hDevice, pptr);
}

/* drv_zeMemAllocDevice beyond its fast path: every check, every error. */
static __attribute__((noinline)) ze_result_t
drv_zeMemAllocDevice_full(ze_context_handle_t hContext,
			  const ze_device_mem_alloc_desc_t *device_desc,
			  size_t size, size_t alignment,
			  ze_device_handle_t hDevice, void **pptr)
{
	DRV_CHECK_CONTEXT(hContext, c);
	if (!hDevice)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hDevice is NULL");
	if (!device_desc || !pptr)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"device_desc or pptr is NULL");
	*pptr = NULL;
	struct _ze_device_handle_t *dev = NULL;
	struct alloc_ext ext = { 0 };
	ze_result_t r;
	if ((r = drv_check_device(c, hDevice, __func__, &dev)) ||
	    (r = check_device_desc(device_desc, &ext)) ||
	    (r = check_size_align(size, alignment, dev->max_alloc, &ext)))
		return r;
	return do_alloc(c, USM_KIND_DEVICE, dev, device_desc->flags, &ext,
			size, alignment, pptr);
}

/* drv_zeMemAllocDevice when the thread's credit on hDevice was short:
 * refilled, the call again (its fast path has the credit now); else the
 * full path. */
static __attribute__((noinline)) ze_result_t
drv_zeMemAllocDevice_short(ze_context_handle_t hContext,
			   const ze_device_mem_alloc_desc_t *device_desc,
			   size_t size, size_t alignment,
			   ze_device_handle_t hDevice, void **pptr)
{
	if (credit_refill(drv_device_get(hDevice), size))
		return drv_zeMemAllocDevice(hContext, device_desc, size,
					    alignment, hDevice, pptr);
	return drv_zeMemAllocDevice_full(hContext, device_desc, size, alignment,
					 hDevice, pptr);
}

ze_result_t
drv_zeMemAllocDevice(ze_context_handle_t hContext,
		     const ze_device_mem_alloc_desc_t *device_desc, size_t size,
		     size_t alignment, ze_device_handle_t hDevice, void **pptr)
{
	/* hDevice is read only once fast_alloc found it is an owner's. */
	if (USM_LIKELY(drv_context_live(hContext) && hDevice && device_desc &&
		       pptr &&
		       device_desc->stype ==
			       ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC &&
		       !device_desc->pNext &&
		       !(device_desc->flags & ~DEVICE_FLAGS_ALL) &&
		       !device_desc->ordinal)) {
		enum fast_res r = fast_alloc(hContext, USM_KIND_DEVICE,
					     hDevice, device_desc->flags, size,
					     alignment, 0, pptr);
		if (USM_LIKELY(r == FAST_DONE))
			return ZE_RESULT_SUCCESS;
		if (r == FAST_SHORT)
			return drv_zeMemAllocDevice_short(hContext, device_desc,
							  size, alignment,
							  hDevice, pptr);
	}
	return drv_zeMemAllocDevice_full(hContext, device_desc, size, alignment,
					 hDevice, pptr);
}

/* drv_zeMemAllocHost beyond its fast path: every check, every error. */
static __attribute__((noinline)) ze_result_t
drv_zeMemAllocHost_full(ze_context_handle_t hContext,
			const ze_host_mem_alloc_desc_t *host_desc, size_t size,
			size_t alignment, void **pptr)
{
	DRV_CHECK_CONTEXT(hContext, c);
	if (!host_desc || !pptr)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"host_desc or pptr is NULL");
	*pptr = NULL;
	struct alloc_ext ext = { 0 };
	ze_result_t r;
	if ((r = check_host_desc(host_desc, &ext)) ||
	    (r = check_size_align(size, alignment, drv_devices[0].max_alloc,
				  &ext)))
		return r;
	return do_alloc(c, USM_KIND_HOST, NULL, host_desc->flags, &ext, size,
			alignment, pptr);
}

ze_result_t
drv_zeMemAllocHost(ze_context_handle_t hContext,
		   const ze_host_mem_alloc_desc_t *host_desc, size_t size,
		   size_t alignment, void **pptr)
{
	if (USM_LIKELY(drv_context_live(hContext) && host_desc && pptr &&
		       host_desc->stype ==
			       ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC &&
		       !host_desc->pNext && host_flags_ok(host_desc->flags)) &&
	    fast_alloc(hContext, USM_KIND_HOST, NULL, host_desc->flags, size,
		       alignment, drv_devices[0].max_alloc,
		       pptr) == FAST_DONE)
		return ZE_RESULT_SUCCESS;
	return drv_zeMemAllocHost_full(hContext, host_desc, size, alignment, pptr);
}

ze_result_t
drv_free_fail(int err, const void *ptr)
{
	const char *f = "zeMemFree";
	switch (err) {
	case -EXDEV:
		return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, f,
				"%p comes from zeMemOpenIpcHandle: close it "
				"with zeMemCloseIpcHandle", ptr);
	case -EINVAL:
		return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, f,
				"%p is inside an allocation, not its base",
				ptr);
	case -EPERM:
		return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, f,
				"%p belongs to another context", ptr);
	case -ENOENT:
		return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, f,
				"%p is not a live allocation (never "
				"allocated, or already freed)", ptr);
	default:
		return drv_fail(drv_result(err), f, "%p: %s", ptr,
				strerror(-err));
	}
}

/* Frees ptr with a zeMemFreeExt policy (0: zeMemFree). Memory that
 * submitted copy-engine work still uses (driver/cmd) is never unmapped
 * under a running copy: BLOCKING_FREE waits for that work, then frees;
 * DEFER_FREE and the default policy (zeMemFree included) return at once and
 * the worker that finishes the last op using the memory frees it. */
static inline __attribute__((always_inline)) ze_result_t
mem_free(struct _ze_context_handle_t *c, void *ptr, uint32_t policy)
{
	/* One lookup (the address map) says what ptr is; its owner frees
	 * it. */
	struct amap_hit hit;
	int err = -ENOENT;
	amap_find(ptr, &hit);
	switch (hit.kind) {
	case AMAP_USM_BLOCK: {
		bool deferred;
		ze_result_t r = cmd_mem_free(c, ptr, &hit.info, policy,
					     &deferred);
		if (r || deferred)
			return r;
		struct usm_info info;
		err = usm_free(drv_driver.heap, ptr, c, &info);
		if (!err)
			mem_release(&info);
		break;
	}
	case AMAP_IPC_IMPORT:
		/* An external-memory import (freed here), or an IPC-opened
		 * pointer (close it instead): driver/ipc says which. */
		err = ipc_mem_free(c, ptr);
		break;
	case AMAP_PHYS_IMPORT:
		err = hit.info.ctx == c ? -EXDEV : -ENOENT;
		break;
	default:
		break; /* virtual memory or none: no allocation */
	}
	return err ? drv_free_fail(err, ptr) : ZE_RESULT_SUCCESS;
}

/* drv_zeMemFree beyond its fast path: every check, every error. */
static __attribute__((noinline)) ze_result_t
drv_zeMemFree_full(ze_context_handle_t hContext, void *ptr)
{
	DRV_CHECK_CONTEXT(hContext, c);
	if (!ptr)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"ptr is NULL");
	return mem_free(c, ptr, 0);
}

ze_result_t
drv_zeMemFree(ze_context_handle_t hContext, void *ptr)
{
	/* The common call, inline: a live pooled block of the context, not
	 * exported (the full path drops an export's fd), no copy-engine work
	 * that could use it (usm_fast.h). The credit first, the slot last:
	 * then nothing waits on a call that gives a slot to its arena. */
	struct usm_heap *h = drv_driver.heap;
	struct _ze_context_handle_t *fc = hContext;
	struct usm_tcache *tc = usm_fast_tc(h);
	struct usm_seg *s;
	uint64_t id;
	uint32_t size;
	void *dev;
	if (USM_LIKELY(drv_context_live(hContext) && ptr && tc &&
		       cmd_mem_idle() &&
		       (s = usm_fast_claim(h, tc, ptr, fc, &id, &size,
					   &dev)))) {
		if (s->kind != USM_KIND_HOST && dev)
			credit_give(dev, usm_fast_credit(tc), size);
		usm_slot_give(h, tc, s, ptr, false);
		return ZE_RESULT_SUCCESS;
	}
	return drv_zeMemFree_full(hContext, ptr);
}

ze_result_t
drv_zeMemFreeExt(ze_context_handle_t hContext,
		 const ze_memory_free_ext_desc_t *desc, void *ptr)
{
	DRV_CHECK_CONTEXT(hContext, c);
	if (!desc || !ptr)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"pMemFreeDesc or ptr is NULL");
	/* Any stype: applications written for Intel's driver, which never
	 * reads it, pass others (Intel's conformance suite passes
	 * ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES). The
	 * validation layer reports it. */
	if (desc->stype != ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC)
		u_dbg("drv", "zeMemFreeExt: desc->stype is 0x%x, not "
			     "ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC: ignored",
		      (unsigned)desc->stype);
	ze_driver_memory_free_policy_ext_flags_t known =
		ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE |
		ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE;
	if (desc->freePolicy & ~known)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION,
				"unknown free policy 0x%x", desc->freePolicy);
	return mem_free(c, ptr, desc->freePolicy);
}

/* drv_zeMemGetAllocProperties beyond its fast path: every check, every
 * error. */
static __attribute__((noinline)) ze_result_t
drv_zeMemGetAllocProperties_full(ze_context_handle_t hContext,
				 const void *ptr,
				 ze_memory_allocation_properties_t *props,
				 ze_device_handle_t *phDevice)
{
	DRV_CHECK_CONTEXT(hContext, c);
	if (!ptr || !props)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"ptr or pMemAllocProperties is NULL");
	/* One lookup says what ptr is: a USM block, an import or a VMM
	 * mapping answers, anything else is unknown. Any context of the
	 * driver may ask, as with Intel's (its allocations and reservations
	 * are the driver's, not a context's): a program's own VMM range is
	 * known to a library that made a context of its own. An export
	 * descriptor in the chain exports through the memory's own context
	 * (driver/ipc looks a USM block up again). */
	struct amap_hit hit;
	bool known = !amap_find(ptr, &hit) && hit.kind != AMAP_VMM_RESV;
	(void)c;
	if (!known) {
		props->type = ZE_MEMORY_TYPE_UNKNOWN;
		props->id = 0;
		props->pageSize = 0;
		if (phDevice)
			*phDevice = NULL;
		return ZE_RESULT_SUCCESS;
	}
	const struct usm_info *info = &hit.info;
	bool imported = hit.kind == AMAP_IPC_IMPORT ||
			hit.kind == AMAP_PHYS_IMPORT;
	props->type = (ze_memory_type_t)info->kind;
	props->id = info->id;
	props->pageSize = info->page_size;
	if (phDevice)
		*phDevice = info->kind == USM_KIND_HOST && hit.external
				    ? NULL
				    : info->dev;
	for (ze_base_properties_t *e = props->pNext; e; e = e->pNext) {
		if (e->stype == ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD) {
			if (imported)
				return DRV_FAIL(
					ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
					"%p is imported memory: export the "
					"original allocation", ptr);
			/* A VMM mapping: the memfd of its physical object
			 * (the whole object, driver-owned, valid until the
			 * object is destroyed), as zePhysicalMemGetProperties
			 * gives it; for loaders without that call (issue 19:
			 * WholeMemory imports it into another process). */
			ze_external_memory_export_fd_t *x = (void *)e;
			if (hit.kind == AMAP_VMM_MAP && info->fd >= 0 &&
			    x->flags == ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD) {
				x->fd = info->fd;
				continue;
			}
			ze_result_t r = ipc_mem_export_fd(info->ctx, info,
							  (void *)e);
			if (r)
				return r;
			continue;
		}
		if (e->stype !=
		    ZE_STRUCTURE_TYPE_MEMORY_SUB_ALLOCATIONS_EXP_PROPERTIES)
			continue;
		/* A zemem allocation is one piece: one sub-allocation. */
		ze_memory_sub_allocations_exp_properties_t *s = (void *)e;
		if (!s->pCount)
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
					"sub-allocations pCount is NULL");
		if (*s->pCount == 0 || !s->pSubAllocations) {
			*s->pCount = 1;
			continue;
		}
		*s->pCount = 1;
		s->pSubAllocations[0].base = info->base;
		s->pSubAllocations[0].size = info->size;
	}
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeMemGetAllocProperties(ze_context_handle_t hContext, const void *ptr,
			    ze_memory_allocation_properties_t *props,
			    ze_device_handle_t *phDevice)
{
	/* The common call, inline: a pointer into a pooled block of the
	 * context, no extension structs asked for (usm_fast.h). */
	struct usm_heap *h = drv_driver.heap;
	struct usm_tcache *tc = usm_fast_tc(h);
	struct usm_fast_ref fr;
	if (USM_LIKELY(drv_context_live(hContext) && ptr && props && tc &&
		       !props->pNext && !usm_fast_lookup(h, tc, ptr, &fr) &&
		       fr.ctx == hContext)) {
		props->type = (ze_memory_type_t)fr.kind;
		props->id = fr.id;
		props->pageSize = drv_driver.page_size;
		if (phDevice)
			*phDevice = fr.dev;
		return ZE_RESULT_SUCCESS;
	}
	return drv_zeMemGetAllocProperties_full(hContext, ptr, props, phDevice);
}

ze_result_t
drv_zeMemGetAddressRange(ze_context_handle_t hContext, const void *ptr,
			 void **pBase, size_t *pSize)
{
	DRV_CHECK_CONTEXT(hContext, c);
	if (!ptr)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"ptr is NULL");
	/* One lookup: a USM block, an import or a VMM mapping, of any
	 * context of the driver (as zeMemGetAllocProperties). */
	struct amap_hit hit;
	(void)c;
	if (amap_find(ptr, &hit) || hit.kind == AMAP_VMM_RESV)
		return DRV_FAIL(ZE_RESULT_ERROR_ADDRESS_NOT_FOUND,
				"%p is in no allocation of this driver", ptr);
	if (pBase)
		*pBase = hit.info.base;
	if (pSize)
		*pSize = hit.info.size;
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeMemGetPitchFor2dImage(ze_context_handle_t hContext,
			    ze_device_handle_t hDevice, size_t imageWidth,
			    size_t imageHeight, unsigned int elementSizeInBytes,
			    size_t *rowPitch)
{
	DRV_CHECK_CONTEXT(hContext, c);
	if (!hDevice)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hDevice is NULL");
	struct _ze_device_handle_t *dev = NULL;
	ze_result_t r = drv_check_device(c, hDevice, __func__, &dev);
	if (r)
		return r;
	if (!rowPitch)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"rowPitch is NULL");
	if (!imageWidth || !imageHeight || !elementSizeInBytes)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_SIZE,
				"width %zu, height %zu, element size %u",
				imageWidth, imageHeight, elementSizeInBytes);
	/* Rows are padded to 64 bytes (a cache line) for the CPU. */
	size_t row;
	if (__builtin_mul_overflow(imageWidth, (size_t)elementSizeInBytes,
				   &row) ||
	    row > SIZE_MAX - 63)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_SIZE,
				"row of %zu x %u bytes overflows", imageWidth,
				elementSizeInBytes);
	row = (row + 63) & ~(size_t)63;
	size_t total;
	if (__builtin_mul_overflow(row, imageHeight, &total) ||
	    total > dev->max_alloc)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_SIZE,
				"image of %zu rows of %zu bytes exceeds "
				"maxMemAllocSize", imageHeight, row);
	*rowPitch = row;
	return ZE_RESULT_SUCCESS;
}
