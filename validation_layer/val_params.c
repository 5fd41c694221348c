// SPDX-License-Identifier: MIT
/*
 * val_params: parameter checks shared by the allocation entry points
 * (descriptors, their stype, the pNext chain, flag bits, size and
 * alignment) and the device limits they need (maxMemAllocSize, memory
 * ordinals, VMM page sizes), asked of the next layer once and cached.
 *
 * Result codes follow the specification and the zemem driver, so a call
 * fails the same way with or without the layer:
 *   NULL descriptor or out-pointer       ZE_RESULT_ERROR_INVALID_NULL_POINTER
 *   wrong stype, bad ordinal, exclusive  ZE_RESULT_ERROR_INVALID_ARGUMENT
 *   flags
 *   unknown flag bits                    ZE_RESULT_ERROR_INVALID_ENUMERATION
 *   unknown stype in a pNext chain       ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION
 *   size 0, size > maxMemAllocSize       ZE_RESULT_ERROR_UNSUPPORTED_SIZE
 *   alignment not 0 nor a power of two   ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT
 *
 * Locking: none; the caches are atomics in the handle records.
 */
#include "val.h"

#include <stdlib.h>

#define CHAIN_MAX 32
#define DEVICE_FLAGS_ALL 0x7u   /* ze_device_mem_alloc_flag_t bits */
#define HOST_FLAGS_ALL 0x1fu    /* ze_host_mem_alloc_flag_t bits (1.16) */
#define EXTERNAL_TYPES_ALL 0xffu  /* ze_external_memory_type_flag_t bits */

/* Smallest maxMemAllocSize of the devices asked so far (0: none yet): a
 * size at or below it fits every device, with no lookup. */
_Atomic uint64_t val_smallest_max_alloc;

/* Extension structures an allocation descriptor may chain. */
static const ze_structure_type_t alloc_chain[] = {
	ZE_STRUCTURE_TYPE_RELAXED_ALLOCATION_LIMITS_EXP_DESC,
	ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_DESC,
	ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD,
	ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_WIN32,
	ZE_STRUCTURE_TYPE_RAYTRACING_MEM_ALLOC_EXT_DESC,
	ZE_STRUCTURE_TYPE_MEMORY_COMPRESSION_HINTS_EXT_DESC,
	ZE_STRUCTURE_TYPE_EXTERNAL_MEMMAP_SYSMEM_EXT_DESC,
};

ze_result_t
val_check_chain(const struct val_call *call, const char *what,
		const void *pNext, const ze_structure_type_t *allowed,
		size_t n, struct val_alloc_req *q)
{
	int depth = 0;
	for (const ze_base_desc_t *d = pNext; d; d = d->pNext) {
		if (++depth > CHAIN_MAX)
			return val_report(VAL_CAT_PARAMETER, call,
					  ZE_RESULT_ERROR_INVALID_ARGUMENT,
					  "the %s pNext chain is longer than "
					  "%d structures (does it loop?)",
					  what, CHAIN_MAX);
		bool known = false;
		for (size_t i = 0; i < n && !known; i++)
			known = d->stype == allowed[i];
		if (!known)
			return val_report(VAL_CAT_PARAMETER, call,
					  ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION,
					  "unknown stype 0x%x at position %d "
					  "of the %s pNext chain",
					  (unsigned)d->stype, depth, what);
		switch (d->stype) {
		case ZE_STRUCTURE_TYPE_RELAXED_ALLOCATION_LIMITS_EXP_DESC: {
			const ze_relaxed_allocation_limits_exp_desc_t *r =
				(const void *)d;
			if (r->flags &
			    ~(uint32_t)ZE_RELAXED_ALLOCATION_LIMITS_EXP_FLAG_MAX_SIZE)
				return val_report(
					VAL_CAT_PARAMETER, call,
					ZE_RESULT_ERROR_INVALID_ENUMERATION,
					"unknown relaxed-allocation-limits "
					"flags 0x%x", (unsigned)r->flags);
			if (q && (r->flags &
				  ZE_RELAXED_ALLOCATION_LIMITS_EXP_FLAG_MAX_SIZE))
				q->relaxed = true;
			break;
		}
		case ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_DESC:
		case ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD: {
			const ze_external_memory_export_desc_t *e =
				(const void *)d;
			if (e->flags & ~EXTERNAL_TYPES_ALL)
				return val_report(
					VAL_CAT_PARAMETER, call,
					ZE_RESULT_ERROR_INVALID_ENUMERATION,
					"unknown external memory type flags "
					"0x%x in the %s pNext chain",
					(unsigned)e->flags, what);
			break;
		}
		default:
			break;
		}
	}
	return ZE_RESULT_SUCCESS;
}

ze_result_t
val_check_stype(const struct val_call *call, const char *what, uint32_t got,
		uint32_t want, const char *want_name)
{
	if (got == want)
		return ZE_RESULT_SUCCESS;
	return val_report(VAL_CAT_PARAMETER, call,
			  ZE_RESULT_ERROR_INVALID_ARGUMENT,
			  "%s is 0x%x, expected %s (0x%x)", what, got,
			  want_name, want);
}

ze_result_t
val_check_flags(const struct val_call *call, const char *what,
		uint32_t flags, uint32_t known)
{
	if (!(flags & ~known))
		return ZE_RESULT_SUCCESS;
	return val_report(VAL_CAT_PARAMETER, call,
			  ZE_RESULT_ERROR_INVALID_ENUMERATION,
			  "%s 0x%x has unknown bits 0x%x", what, flags,
			  flags & ~known);
}

ze_result_t
val_check_device_desc(const struct val_call *call,
		      const ze_device_mem_alloc_desc_t *d,
		      struct val_alloc_req *q)
{
	ze_result_t r;
	if ((r = VAL_CHECK_STYPE(call, "device_desc->stype", d->stype,
				 ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC)) ||
	    (r = val_check_flags(call, "device_desc->flags", d->flags,
				 DEVICE_FLAGS_ALL)))
		return r;
	/* Ordinal 0 always exists: ask the device only about others. */
	uint32_t ordinals = q->dev && d->ordinal ? val_device_mem_ordinals(q->dev)
						  : 0;
	if (ordinals && d->ordinal >= ordinals)
		return val_report(VAL_CAT_PARAMETER, call,
				  ZE_RESULT_ERROR_INVALID_ARGUMENT,
				  "device_desc->ordinal %u, but the device has "
				  "%u memory ordinal(s)", d->ordinal, ordinals);
	return val_check_chain(call, "device_desc", d->pNext, alloc_chain,
			       sizeof(alloc_chain) / sizeof(alloc_chain[0]) - 1,
			       q);
}

ze_result_t
val_check_host_desc(const struct val_call *call,
		    const ze_host_mem_alloc_desc_t *d, struct val_alloc_req *q)
{
	ze_result_t r;
	if ((r = VAL_CHECK_STYPE(call, "host_desc->stype", d->stype,
				 ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC)) ||
	    (r = val_check_flags(call, "host_desc->flags", d->flags,
				 HOST_FLAGS_ALL)))
		return r;
	if ((d->flags & ZE_HOST_MEM_ALLOC_FLAG_MEM_READ_ONLY) &&
	    (d->flags & ZE_HOST_MEM_ALLOC_FLAG_BIAS_WRITE_COMBINED))
		return val_report(VAL_CAT_PARAMETER, call,
				  ZE_RESULT_ERROR_INVALID_ARGUMENT,
				  "host_desc->flags: MEM_READ_ONLY and "
				  "BIAS_WRITE_COMBINED are mutually exclusive");
	return val_check_chain(call, "host_desc", d->pNext, alloc_chain,
			       sizeof(alloc_chain) / sizeof(alloc_chain[0]),
			       q);
}

ze_result_t
val_check_size_align(const struct val_call *call,
		     const struct val_alloc_req *q)
{
	if (q->size == 0)
		return val_report(VAL_CAT_PARAMETER, call,
				  ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
				  "size is 0");
	uint64_t fits = atomic_load_explicit(&val_smallest_max_alloc,
					     memory_order_relaxed);
	if (!q->relaxed && (!fits || q->size > fits)) {
		uint64_t max = q->dev ? val_device_max_alloc(q->dev)
				      : val_context_max_alloc(q->ctx);
		if (q->size > max)
			return val_report(VAL_CAT_PARAMETER, call,
					  ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
					  "size %zu exceeds maxMemAllocSize "
					  "%llu (chain a relaxed-allocation-"
					  "limits descriptor to go beyond it)",
					  q->size, (unsigned long long)max);
	}
	if (q->align && !val_is_pow2(q->align))
		return val_report(VAL_CAT_PARAMETER, call,
				  ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT,
				  "alignment %zu is not a power of two",
				  q->align);
	return ZE_RESULT_SUCCESS;
}

static uint64_t
query_max_alloc_raw(ze_device_handle_t dev);

static uint64_t
query_max_alloc(ze_device_handle_t dev)
{
	uint64_t m = query_max_alloc_raw(dev);
	/* At most UINT64_MAX - 1, so that the quick test (val_hot.h) can
	 * take size - 1 < it for 0 < size <= it; a size above it only gets
	 * the full check. */
	uint64_t s = m < UINT64_MAX ? m : UINT64_MAX - 1;
	uint64_t cur = atomic_load(&val_smallest_max_alloc);
	while ((!cur || s < cur) &&
	       !atomic_compare_exchange_weak(&val_smallest_max_alloc, &cur, s))
		;
	return m;
}

static uint64_t
query_max_alloc_raw(ze_device_handle_t dev)
{
	if (!val_next.Device.pfnGetProperties)
		return UINT64_MAX;
	ze_device_properties_t p = {
		.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES,
	};
	if (val_next.Device.pfnGetProperties(dev, &p) != ZE_RESULT_SUCCESS ||
	    !p.maxMemAllocSize)
		return UINT64_MAX;
	return p.maxMemAllocSize;
}

uint64_t
val_device_max_alloc(ze_device_handle_t dev)
{
	struct val_handle *hd = val_handle_find(dev);
	if (!hd || atomic_load(&hd->kind) != VAL_H_DEVICE)
		return query_max_alloc(dev);
	uint64_t m = atomic_load_explicit(&hd->max_alloc,
					  memory_order_relaxed);
	if (!m) {
		m = query_max_alloc(dev);
		atomic_store_explicit(&hd->max_alloc, m, memory_order_relaxed);
	}
	return m;
}

uint64_t
val_context_max_alloc(ze_context_handle_t ctx)
{
	struct val_handle *hd = val_handle_find(ctx);
	uint64_t m = hd ? atomic_load_explicit(&hd->max_alloc,
					       memory_order_relaxed)
			: 0;
	return m ? m : UINT64_MAX;
}

uint32_t
val_device_mem_ordinals(ze_device_handle_t dev)
{
	struct val_handle *hd = val_handle_find(dev);
	uint32_t n = hd ? atomic_load_explicit(&hd->mem_ordinals,
					       memory_order_relaxed)
			: 0;
	if (n || !val_next.Device.pfnGetMemoryProperties)
		return n;
	if (val_next.Device.pfnGetMemoryProperties(dev, &n, NULL) !=
	    ZE_RESULT_SUCCESS)
		n = 0;
	if (hd && atomic_load(&hd->kind) == VAL_H_DEVICE)
		atomic_store_explicit(&hd->mem_ordinals, n,
				      memory_order_relaxed);
	return n;
}

size_t
val_page_size(ze_context_handle_t ctx, ze_device_handle_t dev, size_t size)
{
	size_t page = 0;
	if (!val_next.VirtualMem.pfnQueryPageSize || !dev)
		return 0;
	if (val_next.VirtualMem.pfnQueryPageSize(ctx, dev, size ? size : 1,
						 &page) != ZE_RESULT_SUCCESS ||
	    !val_is_pow2(page))
		return 0;
	return page;
}
