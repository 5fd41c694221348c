// SPDX-License-Identifier: MIT
/*
 * val_vmm: the virtual and physical memory entry points (zeVirtualMem*,
 * zePhysicalMem*).
 *
 * Vocabulary: a reservation (VAL_KIND_RESERVATION, in val_mem_index) is a
 * range from zeVirtualMemReserve; a mapping (VAL_KIND_MAPPING, in
 * val_map_index) is a range of a reservation backed by a physical memory
 * object (a handle record, VAL_H_PMEM, whose nmaps counts the mappings
 * that use it). Sizes, addresses and offsets must be multiples of the page
 * size the next layer's zeVirtualMemQueryPageSize gives (for the physical
 * object's device, or the context's first device for reservations); when
 * the driver cannot say, those checks are skipped.
 *
 * Carving: unmapping or freeing part of a record shrinks or splits it;
 * a record wholly inside the range is retired into the quarantine, so a
 * second unmap can say where the first one happened.
 *
 * Reported but passed on (drivers accept them, Intel's among them, and
 * Intel's conformance suite makes them): an unmap of pages that are not
 * mapped, and zeVirtualMemQueryPageSize with size 0.
 *
 * The driver may not implement VMM yet: the getters then leave the slots
 * NULL and none of this runs.
 *
 * Locking: records and pmem nmaps under the world lock (val.h); the
 * page-size queries go to the next layer without it.
 */
#include "val.h"

#include <stdio.h>

static inline struct val_rec *
rec_of(struct val_node *n)
{
	return n ? (struct val_rec *)((char *)n -
				      offsetof(struct val_rec, node))
		 : NULL;
}

static ze_result_t
null_pointer(const struct val_call *call, const char *name)
{
	return val_report(VAL_CAT_PARAMETER, call,
			  ZE_RESULT_ERROR_INVALID_NULL_POINTER, "%s is NULL",
			  name);
}

/* Page-size checks of an address, a size and an offset (SIZE_MAX: none). */
static ze_result_t
check_pages(const struct val_call *call, size_t page, const void *ptr,
	    size_t size, size_t offset)
{
	if (size == 0)
		return val_report(VAL_CAT_PARAMETER, call,
				  ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
				  "size is 0");
	if (!page)
		return ZE_RESULT_SUCCESS;
	if ((uintptr_t)ptr % page)
		return val_report(VAL_CAT_PARAMETER, call,
				  ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT,
				  "address %p is not aligned to the page size "
				  "%zu (zeVirtualMemQueryPageSize)", ptr, page);
	if (size % page)
		return val_report(VAL_CAT_PARAMETER, call,
				  ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
				  "size %zu is not a multiple of the page size "
				  "%zu (zeVirtualMemQueryPageSize)", size,
				  page);
	if (offset != SIZE_MAX && offset % page)
		return val_report(VAL_CAT_PARAMETER, call,
				  ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT,
				  "offset %zu is not a multiple of the page "
				  "size %zu (zeVirtualMemQueryPageSize)",
				  offset, page);
	return ZE_RESULT_SUCCESS;
}

static size_t
context_page(ze_context_handle_t ctx, size_t size)
{
	struct val_handle *hd = val_handle_find(ctx);
	return hd && hd->dev0 ? val_page_size(ctx, hd->dev0, size) : 0;
}

/* Remove [b, e) from the live records of ix (caller holds the world
 * lock). The first record retired takes site's backtrace; later ones get
 * its entry point only. */
static void
carve(struct val_index *ix, uintptr_t b, uintptr_t e, struct val_site *site)
{
	uintptr_t cursor = e;
	while (cursor > b) {
		struct val_rec *r = rec_of(val_index_floor(ix, cursor - 1));
		if (!r || val_rec_end(r) <= b)
			break;
		if (r->state == VAL_OWNED) {
			val_own_take(r);  /* back to shared states: again */
			continue;
		}
		uintptr_t rb = val_rec_base(r), re = val_rec_end(r);
		cursor = rb;
		if (r->state != VAL_LIVE)
			continue;
		if (re > e) { /* keep the tail [e, re) as a new record */
			struct val_site none = { r->alloc.ep, NULL };
			struct val_rec *t = val_rec_new(r->kind, &none, e,
							re - e);
			if (t) {
				t->ctx = r->ctx;
				t->pmem = r->pmem;
				t->offset = r->offset + (e - rb);
				if (t->pmem)
					t->pmem->nmaps++;
				val_rec_insert(ix, t);
			}
			r->size = e - rb;
		}
		if (rb < b) { /* keep the head [rb, b) */
			r->size = b - rb;
			break;
		}
		if (r->pmem && r->pmem->nmaps)
			r->pmem->nmaps--;
		val_rec_retire(r, site);
	}
}

/* After the next layer released [b, e): carve it out of ix and count the
 * call. */
static void
carve_done(const struct val_call *call, struct val_index *ix, uintptr_t b,
	   uintptr_t e)
{
	struct val_site site;
	val_site_record(&site, call);
	val_world_lock();
	carve(ix, b, e, &site);
	val_world_unlock();
	val_count_call(call, 1);
	val_site_clear(&site);
}

/* Caller holds the world lock. The first live mapping overlapping [b, e). */
static struct val_rec *
first_mapping(uintptr_t b, uintptr_t e, size_t *mapped)
{
	struct val_rec *first = NULL;
	*mapped = 0;
	for (struct val_rec *r = rec_of(val_index_floor(&val_map_index, e - 1));
	     r && val_rec_end(r) > b;
	     r = rec_of(val_index_floor(&val_map_index, val_rec_base(r) - 1))) {
		if (r->state == VAL_LIVE) {
			uintptr_t lo = val_rec_base(r) > b ? val_rec_base(r) : b;
			uintptr_t hi = val_rec_end(r) < e ? val_rec_end(r) : e;
			*mapped += hi - lo;
			first = r;
		}
		if (!val_rec_base(r))
			break;
	}
	return first;
}

ze_result_t
val_zeVirtualMemReserve(const struct val_call *call,
			ze_context_handle_t hContext, const void *pStart,
			size_t size, void **pptr)
{
	size_t page = 0;
	ze_result_t r;
	if (val_cfg.params) {
		if (!pptr)
			return null_pointer(call, "pptr");
		page = context_page(hContext, size);
		if ((r = check_pages(call, page, NULL, size, SIZE_MAX)))
			return r;
	}
	r = val_next.VirtualMem.pfnReserve(hContext, pStart, size, pptr);
	if (r != ZE_RESULT_SUCCESS || !*pptr)
		return r;
	if (page && (uintptr_t)*pptr % page)
		val_note(VAL_CAT_DRIVER, call, r, "driver bug: the reservation "
			 "%p is not aligned to the page size %zu", *pptr, page);
	if (!val_cfg.tracking)
		return r;
	struct val_site site;
	val_site_record(&site, call);
	val_world_lock();
	struct val_rec *rec = val_rec_add(&val_mem_index, VAL_KIND_RESERVATION,
					  &site, (uintptr_t)*pptr, size, call);
	if (rec)
		rec->ctx = hContext;
	val_world_unlock();
	val_count_call(call, 1);
	return r;
}

ze_result_t
val_zeVirtualMemFree(const struct val_call *call, ze_context_handle_t hContext,
		     const void *ptr, size_t size)
{
	ze_result_t r = ZE_RESULT_SUCCESS, bad = ZE_RESULT_ERROR_INVALID_ARGUMENT;
	uintptr_t b = (uintptr_t)ptr, e = b + size;
	struct val_rec *res = NULL;
	char d[3072];
	if (val_cfg.params) {
		if (!ptr)
			return null_pointer(call, "ptr");
		if (!size)
			return val_report(VAL_CAT_PARAMETER, call,
					  ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
					  "size is 0");
	}
	if (val_cfg.lifetime && size) {
		val_world_lock();
		res = val_rec_find(&val_mem_index, b);
		size_t mapped;
		struct val_rec *m = first_mapping(b, e, &mapped);
		bool bad_res = res && (res->state == VAL_FREED ||
				       res->kind != VAL_KIND_RESERVATION ||
				       e > val_rec_end(res) || e < b ||
				       res->ctx != hContext);
		if (bad_res)
			val_rec_describe(res, d, sizeof(d));
		if (!res)
			;  /* unknown range: the driver decides */
		else if (res->state == VAL_FREED)
			r = val_report(VAL_CAT_LIFETIME, call, bad,
				       "double free of a virtual range: %s", d);
		else if (res->kind != VAL_KIND_RESERVATION)
			r = val_report(VAL_CAT_LIFETIME, call, bad,
				       "%p is not a virtual reservation: it is "
				       "in %s", ptr, d);
		else if (e > val_rec_end(res) || e < b)
			r = val_report(VAL_CAT_LIFETIME, call, bad,
				       "range %p+%zu runs past the end of %s",
				       ptr, size, d);
		else if (res->ctx != hContext)
			r = val_report(VAL_CAT_LIFETIME, call, bad,
				       "free through the wrong context: %s",
				       d);
		else if (m)
			r = val_report(VAL_CAT_LIFETIME, call,
				       ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE,
				       "free of a reservation with live "
				       "mappings: %zu of its %zu bytes are "
				       "still mapped (unmap them first); %s",
				       mapped, size,
				       val_rec_describe(m, d, sizeof(d)));
		val_world_unlock();
		if (r)
			return r;
	}
	r = val_next.VirtualMem.pfnFree(hContext, ptr, size);
	if (r == ZE_RESULT_SUCCESS && val_cfg.tracking && size)
		carve_done(call, &val_mem_index, b, e);
	return r;
}

ze_result_t
val_zeVirtualMemMap(const struct val_call *call, ze_context_handle_t hContext,
		    const void *ptr, size_t size,
		    ze_physical_mem_handle_t hPhysicalMemory, size_t offset,
		    ze_memory_access_attribute_t access)
{
	struct val_handle *pm = val_handle_find(hPhysicalMemory);
	uintptr_t b = (uintptr_t)ptr, e = b + size;
	ze_result_t r = ZE_RESULT_SUCCESS, bad = ZE_RESULT_ERROR_INVALID_ARGUMENT;
	char d[3072];
	if (val_cfg.params) {
		if (!ptr)
			return null_pointer(call, "ptr");
		if (!hPhysicalMemory)
			return val_null_handle(call, "hPhysicalMemory");
		if ((unsigned)access > ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY)
			return val_report(VAL_CAT_PARAMETER, call,
					  ZE_RESULT_ERROR_INVALID_ENUMERATION,
					  "access %u is not a "
					  "ze_memory_access_attribute_t",
					  (unsigned)access);
		/* The window's page size (of its size), at most the
		 * object's: a 1 MiB window of a 2 MiB object maps at 64 KiB
		 * granularity. */
		size_t page = pm ? atomic_load(&pm->page) : 0;
		size_t win = pm && pm->dev
				     ? val_page_size(hContext, pm->dev, size)
				     : context_page(hContext, size);
		if (win && (!page || win < page))
			page = win;
		if ((r = check_pages(call, page, ptr, size, offset)))
			return r;
		if (pm && pm->size && (offset > pm->size ||
				       size > pm->size - offset))
			return val_report(VAL_CAT_PARAMETER, call,
					  ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
					  "offset %zu + size %zu exceed the "
					  "physical memory object's %zu bytes",
					  offset, size, pm->size);
	}
	if (val_cfg.lifetime && size && e > b) {
		size_t mapped;
		val_world_lock();
		struct val_rec *res = val_rec_find(&val_mem_index, b);
		struct val_rec *m = first_mapping(b, e, &mapped);
		if (res && res->state == VAL_LIVE &&
		    res->kind == VAL_KIND_RESERVATION) {
			if (e > val_rec_end(res))
				r = val_report(VAL_CAT_LIFETIME, call, bad,
					       "range %p+%zu runs past the "
					       "end of %s", ptr, size,
					       val_rec_describe(res, d,
								sizeof(d)));
			else if (res->ctx != hContext)
				r = val_report(VAL_CAT_LIFETIME, call, bad,
					       "map through the wrong "
					       "context: %s",
					       val_rec_describe(res, d,
								sizeof(d)));
		} else if (res) {
			r = val_report(VAL_CAT_LIFETIME, call, bad,
				       "%p is not in a live virtual "
				       "reservation: %s", ptr,
				       val_rec_describe(res, d, sizeof(d)));
		}
		if (!r && m)
			r = val_report(VAL_CAT_LIFETIME, call, bad,
				       "%zu bytes of the range are already "
				       "mapped: %s", mapped,
				       val_rec_describe(m, d, sizeof(d)));
		val_world_unlock();
		if (r)
			return r;
	}
	r = val_next.VirtualMem.pfnMap(hContext, ptr, size, hPhysicalMemory,
				       offset, access);
	if (r != ZE_RESULT_SUCCESS || !val_cfg.tracking || !size)
		return r;
	struct val_site site;
	val_site_record(&site, call);
	val_world_lock();
	struct val_rec *rec = val_rec_add(&val_map_index, VAL_KIND_MAPPING,
					  &site, b, size, call);
	if (rec) {
		rec->ctx = hContext;
		rec->offset = offset;
		if (pm && atomic_load(&pm->kind) == VAL_H_PMEM) {
			rec->pmem = pm;
			pm->nmaps++;
		}
	}
	val_world_unlock();
	val_count_call(call, 1);
	return r;
}

ze_result_t
val_zeVirtualMemUnmap(const struct val_call *call, ze_context_handle_t hContext,
		      const void *ptr, size_t size)
{
	uintptr_t b = (uintptr_t)ptr, e = b + size;
	ze_result_t r;
	char d[3072];
	if (val_cfg.params) {
		if (!ptr)
			return null_pointer(call, "ptr");
		/* The smallest page: the range may hold mappings of small
		 * physical objects inside a reservation of large pages. */
		if ((r = check_pages(call, context_page(hContext, 1), ptr,
				     size, SIZE_MAX)))
			return r;
	}
	/* Pages not mapped in the range (a second unmap, say) are reported
	 * after the call, which goes ahead: drivers unmap what is there and
	 * succeed (Intel's does, and so does zemem's). */
	size_t unmapped = 0;
	d[0] = '\0';
	if (val_cfg.lifetime && size && e > b) {
		size_t mapped;
		r = ZE_RESULT_SUCCESS;
		val_world_lock();
		struct val_rec *res = val_rec_find(&val_mem_index, b);
		struct val_rec *m = first_mapping(b, e, &mapped);
		struct val_rec *gone = rec_of(val_index_floor(&val_map_index, b));
		if (gone && (gone->state != VAL_FREED || val_rec_end(gone) <= b))
			gone = NULL;
		if (mapped < size && (res || gone)) {
			unmapped = size - mapped;
			if (gone)
				val_rec_describe(gone, d, sizeof(d));
		}
		if (m && m->ctx != hContext)
			r = val_report(VAL_CAT_LIFETIME, call,
				       ZE_RESULT_ERROR_INVALID_ARGUMENT,
				       "unmap through the wrong context: %s",
				       val_rec_describe(m, d, sizeof(d)));
		val_world_unlock();
		if (r)
			return r;
	}
	r = val_next.VirtualMem.pfnUnmap(hContext, ptr, size);
	if (unmapped)
		val_note(VAL_CAT_LIFETIME, call, r,
			 "unmap of an unmapped range: %zu of the %zu bytes at "
			 "%p are not mapped%s%s", unmapped, size, ptr,
			 d[0] ? "; last mapping there: " : "", d);
	if (r == ZE_RESULT_SUCCESS && val_cfg.tracking && size && e > b)
		carve_done(call, &val_map_index, b, e);
	return r;
}

ze_result_t
val_zeVirtualMemQueryPageSize(const struct val_call *call,
			      ze_context_handle_t hContext,
			      ze_device_handle_t hDevice, size_t size,
			      size_t *pagesize)
{
	if (val_cfg.params) {
		if (!hDevice)
			return val_null_handle(call, "hDevice");
		if (!pagesize)
			return null_pointer(call, "pagesize");
	}
	ze_result_t r = val_next.VirtualMem.pfnQueryPageSize(hContext, hDevice,
							     size, pagesize);
	/* Size 0 is misuse (no allocation has it), but drivers answer it
	 * (Intel's and zemem's: the smallest page size) and applications
	 * ask it (Intel's conformance suite does): reported, passed on. */
	if (val_cfg.params && !size)
		val_note(VAL_CAT_PARAMETER, call, r,
			 "size is 0: the page size of no allocation (drivers "
			 "answer the smallest page size)");
	return r;
}

ze_result_t
val_zeVirtualMemSetAccessAttribute(const struct val_call *call,
				   ze_context_handle_t hContext,
				   const void *ptr, size_t size,
				   ze_memory_access_attribute_t access)
{
	if (val_cfg.params) {
		if (!ptr)
			return null_pointer(call, "ptr");
		if ((unsigned)access > ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY)
			return val_report(VAL_CAT_PARAMETER, call,
					  ZE_RESULT_ERROR_INVALID_ENUMERATION,
					  "access %u is not a "
					  "ze_memory_access_attribute_t",
					  (unsigned)access);
		if (!size)
			return val_report(VAL_CAT_PARAMETER, call,
					  ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
					  "size is 0");
	}
	return val_next.VirtualMem.pfnSetAccessAttribute(hContext, ptr, size,
							 access);
}

ze_result_t
val_zePhysicalMemCreate(const struct val_call *call,
			ze_context_handle_t hContext, ze_device_handle_t hDevice,
			ze_physical_mem_desc_t *desc,
			ze_physical_mem_handle_t *phPhysicalMemory)
{
	static const ze_structure_type_t chain[] = {
		ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_DESC,
		ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD,
	};
	size_t page = 0;
	ze_result_t r;
	if (val_cfg.params) {
		if (!hDevice)
			return val_null_handle(call, "hDevice");
		if (!desc)
			return null_pointer(call, "desc");
		if (!phPhysicalMemory)
			return null_pointer(call, "phPhysicalMemory");
		if ((r = VAL_CHECK_STYPE(call, "desc->stype", desc->stype,
					 ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC)) ||
		    (r = val_check_flags(call, "desc->flags", desc->flags,
					 ZE_PHYSICAL_MEM_FLAG_ALLOCATE_ON_DEVICE |
					 ZE_PHYSICAL_MEM_FLAG_ALLOCATE_ON_HOST)))
			return r;
		page = val_page_size(hContext, hDevice, desc->size);
		if ((r = check_pages(call, page, NULL, desc->size, SIZE_MAX)) ||
		    (r = val_check_chain(call, "desc", desc->pNext, chain, 2,
					 NULL)))
			return r;
	}
	r = val_next.PhysicalMem.pfnCreate(hContext, hDevice, desc,
					   phPhysicalMemory);
	if (r != ZE_RESULT_SUCCESS || !val_cfg.enabled || !*phPhysicalMemory)
		return r;
	if (!page)
		page = val_page_size(hContext, hDevice, desc->size);
	struct val_site site;
	val_site_record(&site, call);
	val_world_lock();
	struct val_handle *hd = val_handle_add(*phPhysicalMemory, VAL_H_PMEM,
					       &site);
	if (hd) {
		hd->ctx = hContext;
		hd->dev = hDevice;
		hd->size = desc->size;
		atomic_store(&hd->page, page);
	}
	val_world_unlock();
	val_count_call(call, 1);
	return r;
}

ze_result_t
val_zePhysicalMemDestroy(const struct val_call *call,
			 ze_context_handle_t hContext,
			 ze_physical_mem_handle_t hPhysicalMemory)
{
	struct val_handle *hd = val_handle_find(hPhysicalMemory);
	ze_result_t r = ZE_RESULT_SUCCESS;
	if (val_cfg.params && !hPhysicalMemory)
		return val_null_handle(call, "hPhysicalMemory");
	if (val_cfg.lifetime && hd) {
		val_world_lock();
		if (hd->nmaps && atomic_load(&hd->live))
			r = val_report(VAL_CAT_LIFETIME, call,
				       ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE,
				       "physical memory object destroyed while "
				       "mapped: %llu mapping(s) still use it "
				       "(unmap them first)",
				       (unsigned long long)hd->nmaps);
		val_world_unlock();
		if (r)
			return r;
	}
	r = val_next.PhysicalMem.pfnDestroy(hContext, hPhysicalMemory);
	if (r == ZE_RESULT_SUCCESS && val_cfg.enabled) {
		struct val_site site;
		val_site_record(&site, call);
		val_world_lock();
		if (hd)
			val_handle_kill(hd, &site);
		val_world_unlock();
		val_count_call(call, 1);
		val_site_clear(&site);
	}
	return r;
}
