// SPDX-License-Identifier: MIT
/*
 * vmm_map: mappings of physical objects into reservations
 * (zeVirtualMemMap / Unmap) and their access attributes
 * (zeVirtualMemSetAccessAttribute / GetAccessAttribute).
 *
 * Vocabulary:
 *   mapping  what one zeVirtualMemMap call placed: [ptr, ptr + size) of a
 *            reservation backed by [offset, offset + size) of one physical
 *            object, MAP_SHARED | MAP_FIXED over the placeholder. One object
 *            may be mapped at several addresses (of one reservation or of
 *            several): all of them alias the same pages;
 *   piece    the record of a part of a mapping with one access attribute.
 *            A mapping starts as one piece; SetAccessAttribute on part of
 *            it splits it (and merges neighbours back when they agree).
 *
 * Rules (results in brackets):
 *   Map      ptr, size and offset multiples of the window's page size:
 *            the page size of size (vmm.h), at most the object's (a
 *            1 MiB window of a 2 MiB object: 64 KiB) [UNSUPPORTED_ALIGNMENT
 *            for ptr and offset, UNSUPPORTED_SIZE for size]; offset +
 *            size within the object
 *            [INVALID_ARGUMENT]; the range inside one reservation of the
 *            context and over no existing mapping [INVALID_ARGUMENT]; the
 *            object of the same context [INVALID_ARGUMENT].
 *   Unmap    OS-page multiples; inside one reservation; covers whole
 *            mappings only (a range that cuts a mapping is
 *            INVALID_ARGUMENT and changes nothing; one that holds none,
 *            a second unmap say, succeeds and changes nothing, as Intel's
 *            driver does); the pages go back to placeholder (access
 *            NONE), the reservation stays.
 *   SetAccessAttribute  OS-page multiples; every page of the range mapped
 *            [INVALID_ARGUMENT otherwise, nothing changed]; mprotect.
 *   GetAccessAttribute  OS-page multiples; inside one reservation; returns
 *            the attribute at ptr (NONE where nothing is mapped, the
 *            reservation's default) and in outSize the length of the run
 *            from ptr with that attribute, at most size.
 *
 * Locking: everything here runs under vmm_lock, as writer when pieces
 * change (the mmap / mprotect included, so the records and the address
 * space change together), as reader for GetAccessAttribute.
 */
#include "vmm_private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "u_os.h"

/* A failure found under the lock, reported after it is dropped. */
struct fail {
	ze_result_t res;
	char msg[192];
};

#define FAIL(f, r, ...)                                                     \
	((void)snprintf((f)->msg, sizeof((f)->msg), __VA_ARGS__),           \
	 (f)->res = (r))

/* ---- pieces (under vmm_lock) ------------------------------------------ */

/* The reservation of ctx holding [a, a + size), or NULL with f said. */
static struct vmm_resv *
resv_or_fail(struct _ze_context_handle_t *ctx, uintptr_t a, size_t size,
	     struct fail *f)
{
	struct vmm_resv *r = vmm_resv_find(ctx, a, size);
	if (!r)
		FAIL(f, ZE_RESULT_ERROR_INVALID_ARGUMENT,
		     "%p+%zu is not inside one reservation of this context",
		     (void *)a, size);
	return r;
}

size_t
vmm_map_first_after(const struct vmm_resv *r, uintptr_t a)
{
	size_t lo = 0, hi = r->nmaps;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->maps[mid].va + r->maps[mid].size <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void
vmm_map_extent(const struct vmm_resv *r, size_t i, size_t *lo, size_t *hi)
{
	uint64_t id = r->maps[i].map_id;
	size_t l = i, h = i + 1;
	while (l > 0 && r->maps[l - 1].map_id == id)
		l--;
	while (h < r->nmaps && r->maps[h].map_id == id)
		h++;
	*lo = l;
	*hi = h;
}

void
vmm_map_info(struct _ze_context_handle_t *ctx, const struct vmm_map *m,
	     struct usm_info *out)
{
	const struct _ze_physical_mem_handle_t *p = m->phys;
	memset(out, 0, sizeof(*out));
	out->base = (void *)m->va;
	out->size = m->size;
	out->align = p->page;
	out->kind = p->on_host ? USM_KIND_HOST : USM_KIND_DEVICE;
	out->id = VMM_ID_BIT | m->map_id;
	out->ctx = ctx;
	out->dev = p->dev;
	out->bk_type = BK_MEMFD;
	out->fd = p->fd;
	out->fd_offset = m->offset;
	out->page_size = p->page;
}

void
vmm_map_drop_all(struct vmm_resv *r)
{
	amap_del_maps((void *)r->base, r->size);
	for (size_t i = 0; i < r->nmaps; i++)
		r->maps[i].phys->pieces--;
	r->nmaps = 0;
}

static int
maps_make_room(struct vmm_resv *r, size_t extra)
{
	if (r->nmaps + extra <= r->cap)
		return 0;
	size_t cap = r->cap ? r->cap : 4;
	while (cap < r->nmaps + extra)
		cap *= 2;
	struct vmm_map *m = realloc(r->maps, cap * sizeof(*m));
	if (!m)
		return -ENOMEM;
	r->maps = m;
	r->cap = cap;
	return 0;
}

/* Inserts m at i (room must have been made); takes a piece reference. */
static void
maps_insert(struct vmm_resv *r, size_t i, const struct vmm_map *m)
{
	memmove(&r->maps[i + 1], &r->maps[i],
		(r->nmaps - i) * sizeof(*r->maps));
	r->maps[i] = *m;
	r->nmaps++;
	m->phys->pieces++;
}

/* Removes count pieces from i, dropping their references. */
static void
maps_remove(struct vmm_resv *r, size_t i, size_t count)
{
	for (size_t k = i; k < i + count; k++)
		r->maps[k].phys->pieces--;
	memmove(&r->maps[i], &r->maps[i + count],
		(r->nmaps - i - count) * sizeof(*r->maps));
	r->nmaps -= count;
}

/* Splits piece i at x (strictly inside it); room for one must exist. */
static void
maps_split(struct vmm_resv *r, size_t i, uintptr_t x)
{
	struct vmm_map right = r->maps[i];
	size_t left = x - right.va;
	right.va = x;
	right.size -= left;
	right.offset += left;
	r->maps[i].size = left;
	maps_insert(r, i + 1, &right);
}

/* Merges neighbours of one mapping with equal access in [lo, hi]. */
static void
maps_merge(struct vmm_resv *r, size_t lo, size_t hi)
{
	if (lo > 0)
		lo--;
	for (size_t i = lo; i + 1 < r->nmaps && i < hi;) {
		struct vmm_map *a = &r->maps[i], *b = &r->maps[i + 1];
		if (a->map_id == b->map_id && a->access == b->access) {
			a->size += b->size;
			maps_remove(r, i + 1, 1);
			hi--;
		} else {
			i++;
		}
	}
}

/* ---- checks shared by the entry points ---------------------------------- */

static ze_result_t
check_range(const char *func, const void *ptr, size_t size)
{
	size_t os = u_page_size();
	if (!ptr)
		return drv_fail(ZE_RESULT_ERROR_INVALID_NULL_POINTER, func,
				"ptr is NULL");
	if (size == 0 || size % os)
		return drv_fail(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, func,
				"size %zu is 0 or not a multiple of the page "
				"size %zu", size, os);
	if ((uintptr_t)ptr % os)
		return drv_fail(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT, func,
				"%p is not page aligned", ptr);
	if ((uintptr_t)ptr + size < (uintptr_t)ptr)
		return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, func,
				"%p+%zu wraps around", ptr, size);
	return ZE_RESULT_SUCCESS;
}

static bool
access_valid(ze_memory_access_attribute_t access)
{
	return (uint32_t)access <= ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY;
}

/* ---- map / unmap ------------------------------------------------------- */

static void
map_locked(struct _ze_context_handle_t *ctx, uintptr_t a, size_t size,
	   ze_physical_mem_handle_t h, size_t offset,
	   ze_memory_access_attribute_t access, struct fail *f)
{
	struct _ze_physical_mem_handle_t *p = vmm_phys_lookup(h);
	if (!p || p->ctx != ctx) {
		FAIL(f, ZE_RESULT_ERROR_INVALID_ARGUMENT,
		     "%p is not a live physical memory object of this "
		     "context", (void *)h);
		return;
	}
	/* The window's granularity: the page size of the window's size
	 * (zeVirtualMemQueryPageSize), at most the object's own. */
	size_t win = vmm_page_size_for(size);
	size_t page = win < p->page ? win : p->page;
	if (size % page) {
		FAIL(f, ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
		     "size %zu is not a multiple of the page size %zu (the "
		     "object's %zu, for a window of that size %zu)", size,
		     page, p->page, win);
		return;
	}
	if (a % page || offset % page) {
		FAIL(f, ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT,
		     "address %p or offset %zu is not a multiple of the "
		     "page size %zu (the object's %zu, for a window of that "
		     "size %zu)", (void *)a, offset, page, p->page, win);
		return;
	}
	if (offset > p->size || size > p->size - offset) {
		FAIL(f, ZE_RESULT_ERROR_INVALID_ARGUMENT,
		     "offset %zu + size %zu runs past the object's %zu bytes",
		     offset, size, p->size);
		return;
	}
	struct vmm_resv *r = resv_or_fail(ctx, a, size, f);
	if (!r)
		return;
	size_t i = vmm_map_first_after(r, a);
	if (i < r->nmaps && r->maps[i].va < a + size) {
		FAIL(f, ZE_RESULT_ERROR_INVALID_ARGUMENT,
		     "%p+%zu overlaps the mapping at %p: unmap it first",
		     (void *)a, size, (void *)r->maps[i].va);
		return;
	}
	int err = maps_make_room(r, 1);
	if (!err)
		err = vmm_os_map_fd((void *)a, size, vmm_os_prot(access),
				    p->fd, offset);
	if (err) {
		FAIL(f, vmm_result(err), "mmap of %zu bytes at %p: %s", size,
		     (void *)a, strerror(-err));
		return;
	}
	struct vmm_map m = {
		.va = a, .size = size, .phys = p, .offset = offset,
		.map_id = vmm_next_serial(), .access = access,
	};
	struct usm_info info;
	vmm_map_info(ctx, &m, &info);
	if ((err = amap_add(AMAP_VMM_MAP, &info, p, false))) {
		vmm_os_placeholder((void *)a, size);
		FAIL(f, vmm_result(err), "cannot register %p+%zu: %s",
		     (void *)a, size, strerror(-err));
		return;
	}
	maps_insert(r, i, &m);
}

ze_result_t
drv_zeVirtualMemMap(ze_context_handle_t hContext, const void *ptr,
		    size_t size, ze_physical_mem_handle_t hPhysicalMemory,
		    size_t offset, ze_memory_access_attribute_t access)
{
	DRV_CHECK_CONTEXT(hContext, ctx);
	if (!hPhysicalMemory)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hPhysicalMemory is NULL");
	if (!ptr)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"ptr is NULL");
	if (!access_valid(access))
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION,
				"access attribute %u", (unsigned)access);
	if (size == 0)
		return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, "size is 0");
	uintptr_t a = (uintptr_t)ptr;
	if (a + size < a)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"%p+%zu wraps around", ptr, size);
	struct fail f = { ZE_RESULT_SUCCESS, "" };
	pthread_rwlock_wrlock(&vmm_lock);
	map_locked(ctx, a, size, hPhysicalMemory, offset, access, &f);
	pthread_rwlock_unlock(&vmm_lock);
	if (f.res)
		return DRV_FAIL(f.res, "%s", f.msg);
	return ZE_RESULT_SUCCESS;
}

static void
unmap_locked(struct _ze_context_handle_t *ctx, uintptr_t a, size_t size,
	     struct fail *f)
{
	uintptr_t end = a + size;
	struct vmm_resv *r = resv_or_fail(ctx, a, size, f);
	if (!r)
		return;
	size_t i = vmm_map_first_after(r, a), j = i;
	while (j < r->nmaps && r->maps[j].va < end)
		j++;
	if (i == j) {
		/* Nothing mapped there (a second unmap, say): nothing to do,
		 * as Intel's driver answers; the validation layer reports
		 * it. */
		(void)snprintf(f->msg, sizeof(f->msg),
			       "nothing is mapped in %p+%zu: nothing to do",
			       (void *)a, size);
		return;
	}
	const struct vmm_map *lo = &r->maps[i], *hi = &r->maps[j - 1];
	if (lo->va < a || (i > 0 && r->maps[i - 1].map_id == lo->map_id) ||
	    hi->va + hi->size > end ||
	    (j < r->nmaps && r->maps[j].map_id == hi->map_id)) {
		FAIL(f, ZE_RESULT_ERROR_INVALID_ARGUMENT,
		     "%p+%zu cuts a mapping: unmap whole mappings",
		     (void *)a, size);
		return;
	}
	uintptr_t s = lo->va, e = hi->va + hi->size;
	int err = vmm_os_placeholder((void *)s, e - s);
	if (err) {
		FAIL(f, vmm_result(err), "cannot unmap %p+%zu: %s", (void *)s,
		     (size_t)(e - s), strerror(-err));
		return;
	}
	amap_del_maps((void *)s, e - s);
	maps_remove(r, i, j - i);
}

ze_result_t
drv_zeVirtualMemUnmap(ze_context_handle_t hContext, const void *ptr,
		      size_t size)
{
	struct _ze_context_handle_t *ctx = NULL;
	ze_result_t r = drv_check_context(hContext, __func__, &ctx);
	if (r || (r = check_range(__func__, ptr, size)))
		return r;
	struct fail f = { ZE_RESULT_SUCCESS, "" };
	drv_wait_idle(ptr, size); /* no copy may run into it any more */
	pthread_rwlock_wrlock(&vmm_lock);
	unmap_locked(ctx, (uintptr_t)ptr, size, &f);
	pthread_rwlock_unlock(&vmm_lock);
	if (f.res)
		return DRV_FAIL(f.res, "%s", f.msg);
	if (f.msg[0])
		u_dbg(VMM_TOPIC, "zeVirtualMemUnmap: %s", f.msg);
	return ZE_RESULT_SUCCESS;
}

/* ---- access attributes ------------------------------------------------- */

static void
protect_locked(struct _ze_context_handle_t *ctx, uintptr_t a, size_t size,
	       ze_memory_access_attribute_t access, struct fail *f)
{
	uintptr_t end = a + size;
	struct vmm_resv *r = resv_or_fail(ctx, a, size, f);
	if (!r)
		return;
	size_t i = vmm_map_first_after(r, a);
	uintptr_t pos = a;
	for (size_t k = i; pos < end; k++) {
		if (k == r->nmaps || r->maps[k].va > pos) {
			FAIL(f, ZE_RESULT_ERROR_INVALID_ARGUMENT,
			     "%p is not mapped (in %p+%zu): map it first",
			     (void *)pos, (void *)a, size);
			return;
		}
		pos = r->maps[k].va + r->maps[k].size;
	}
	int err = maps_make_room(r, 2);
	if (!err)
		err = vmm_os_protect((void *)a, size, vmm_os_prot(access));
	if (err) {
		FAIL(f, vmm_result(err), "mprotect %p+%zu: %s", (void *)a,
		     size, strerror(-err));
		return;
	}
	if (r->maps[i].va < a)
		maps_split(r, i++, a);
	size_t j = i;
	while (j < r->nmaps && r->maps[j].va < end) {
		struct vmm_map *m = &r->maps[j];
		if (m->va + m->size > end)
			maps_split(r, j, end);
		r->maps[j++].access = access;
	}
	maps_merge(r, i, j);
}

ze_result_t
drv_zeVirtualMemSetAccessAttribute(ze_context_handle_t hContext,
				   const void *ptr, size_t size,
				   ze_memory_access_attribute_t access)
{
	DRV_CHECK_CONTEXT(hContext, ctx);
	ze_result_t r;
	if (!ptr)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"ptr is NULL");
	if (!access_valid(access))
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION,
				"access attribute %u", (unsigned)access);
	if ((r = check_range(__func__, ptr, size)))
		return r;
	struct fail f = { ZE_RESULT_SUCCESS, "" };
	pthread_rwlock_wrlock(&vmm_lock);
	protect_locked(ctx, (uintptr_t)ptr, size, access, &f);
	pthread_rwlock_unlock(&vmm_lock);
	if (f.res)
		return DRV_FAIL(f.res, "%s", f.msg);
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeVirtualMemGetAccessAttribute(ze_context_handle_t hContext,
				   const void *ptr, size_t size,
				   ze_memory_access_attribute_t *access,
				   size_t *outSize)
{
	DRV_CHECK_CONTEXT(hContext, ctx);
	ze_result_t r;
	if (!ptr || !access || !outSize)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"ptr, access or outSize is NULL");
	if ((r = check_range(__func__, ptr, size)))
		return r;
	uintptr_t a = (uintptr_t)ptr, end = a + size, pos = a;
	/* A query: the reservation of any context of the driver answers,
	 * as with Intel's (reservations are the driver's). */
	(void)ctx;
	pthread_rwlock_rdlock(&vmm_lock);
	struct vmm_resv *rv = vmm_resv_find(NULL, a, size);
	if (!rv) {
		pthread_rwlock_unlock(&vmm_lock);
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"%p+%zu is not inside one reservation of "
				"this driver", ptr, size);
	}
	ze_memory_access_attribute_t first = ZE_MEMORY_ACCESS_ATTRIBUTE_NONE;
	size_t i = vmm_map_first_after(rv, a);
	while (pos < end) {
		ze_memory_access_attribute_t at;
		uintptr_t next;
		if (i < rv->nmaps && rv->maps[i].va <= pos) {
			at = rv->maps[i].access;
			next = rv->maps[i].va + rv->maps[i].size;
			i++;
		} else {
			/* Reserved, not mapped: the default, NONE. */
			at = ZE_MEMORY_ACCESS_ATTRIBUTE_NONE;
			next = i < rv->nmaps ? rv->maps[i].va
					     : rv->base + rv->size;
		}
		if (pos == a)
			first = at;
		else if (at != first)
			break;
		pos = next;
	}
	pthread_rwlock_unlock(&vmm_lock);
	*access = first;
	*outSize = (pos < end ? pos : end) - a;
	return ZE_RESULT_SUCCESS;
}
