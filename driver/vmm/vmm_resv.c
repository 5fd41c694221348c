// SPDX-License-Identifier: MIT
/*
 * vmm_resv: reservations of address space (zeVirtualMemReserve / Free /
 * QueryPageSize), the reservation index, the lock, and what the rest of
 * the driver asks of vmm (vmm_usm_info, vmm_range_walk, vmm_ctx_destroy).
 *
 * Vocabulary:
 *   index   the driver's address map (driver/amap): every live
 *           reservation of every context is a VMM_RESV region there, its
 *           owner the struct vmm_resv, and each zeVirtualMemMap mapping a
 *           VMM_MAP entry (vmm_map.c); O(log n) lookups;
 *   hint    zeVirtualMemReserve's pStart. Honoured when it is aligned to
 *           the page size of the size and the whole range is free
 *           (MAP_FIXED_NOREPLACE, which fails rather than replace anything);
 *           otherwise the range goes wherever the kernel puts it, aligned
 *           to that page size. A hint is never an error.
 *
 * Page-size rule (vmm_page_size_for, zeVirtualMemQueryPageSize): 64 KiB
 * below 2 MiB, 2 MiB at 2 MiB and above, as Intel's GPU driver answers;
 * both are multiples of the x86-64 and arm64 base pages, and 2 MiB is the
 * huge-page size, so a large reservation can be backed by huge pages.
 *
 * zeVirtualMemFree takes a whole reservation (ptr and size exactly as
 * reserved; anything else is INVALID_ARGUMENT). Mappings still in it are
 * unmapped, as the spec says; their physical objects live on.
 *
 * Locking: vmm_lock (a pthread rwlock, writer for any change, reader for
 * lookups) serialises the index's changes and protects every
 * reservation's record and pieces, the physical
 * registry and the id serial. Address space is made and released outside
 * it where no other thread can see the range yet (reserve) or any more
 * (free). fork takes it as writer (atfork handlers), so a child never
 * inherits a half-made change.
 */
#include "vmm_private.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "u_fork.h"
#include "u_os.h"

pthread_rwlock_t vmm_lock = PTHREAD_RWLOCK_INITIALIZER;
static uint64_t vmm_serial;

/* fork: the child gets the lock free and the records consistent (a fork
 * never lands in the middle of a change). Registered when the driver is
 * loaded; glibc drops the handlers again if it is unloaded. */
static void
fork_prepare(void)
{
	pthread_rwlock_wrlock(&vmm_lock);
}

static void
fork_parent(void)
{
	pthread_rwlock_unlock(&vmm_lock);
}

/* The child's thread is not the writer that locked it (glibc tells
 * writers by thread id): start the child with a fresh lock instead. */
static void
fork_child(void)
{
	u_fork_child_rwlock(&vmm_lock);
}

__attribute__((constructor)) static void
vmm_atfork(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

uint64_t
vmm_next_serial(void)
{
	return ++vmm_serial;
}

size_t
vmm_page_size_for(size_t size)
{
	size_t page = size >= 2 * VMM_MIB ? 2 * VMM_MIB : 64 * VMM_KIB;
	size_t os = u_page_size();
	return page > os ? page : os;
}

ze_result_t
vmm_result(int err)
{
	switch (err) {
	case -EBUSY:
		return ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
	case -EEXIST:
	case -ENXIO:
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	default:
		return drv_result(err);
	}
}

/* ---- index: the driver's address map ----------------------------------- */

/* The reservation holding a (any context), or NULL. The address map is
 * the index: each reservation is a VMM_RESV region whose owner is its
 * record; vmm_lock serialises the index's changes, so under it an owner
 * found there is live. */
static struct vmm_resv *
index_at(uintptr_t a)
{
	struct amap_hit hit;
	if (amap_region((const void *)a, &hit) || hit.kind != AMAP_VMM_RESV)
		return NULL;
	return hit.owner;
}

struct vmm_resv *
vmm_resv_find(struct _ze_context_handle_t *ctx, uintptr_t a, size_t size)
{
	struct vmm_resv *r = index_at(a);
	if (!r)
		return NULL;
	uintptr_t off = a - r->base;
	if (off >= r->size || size > r->size - off || (ctx && r->ctx != ctx))
		return NULL;
	return r;
}

static int
index_insert(struct vmm_resv *r, size_t page)
{
	struct usm_info info = {
		.base = (void *)r->base, .size = r->size, .align = page,
		.ctx = r->ctx, .fd = -1, .page_size = page,
	};
	return amap_add(AMAP_VMM_RESV, &info, r, false);
}

static void
index_remove(struct vmm_resv *r)
{
	amap_del(AMAP_VMM_RESV, (void *)r->base);
}

static void
resv_free(struct vmm_resv *r)
{
	free(r->maps);
	free(r);
}

/* ---- reserve / free ---------------------------------------------------- */

static int
resv_create(struct _ze_context_handle_t *ctx, const void *hint, size_t size,
	    size_t page, void **out)
{
	struct vmm_resv *r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	void *va = NULL;
	int err = -EEXIST;
	uintptr_t h = (uintptr_t)hint;
	if (h && !(h & (page - 1)) && h + size > h) {
		err = vmm_os_reserve_at((void *)h, size);
		if (!err)
			va = (void *)h;
	}
	if (err) {
		if (hint)
			u_dbg(VMM_TOPIC, "hint %p+%zu not honoured (%s)", hint,
			      size, h & (page - 1) ? "not aligned" :
			      strerror(-err));
		err = vmm_os_reserve(size, page, &va);
		if (err)
			goto err_free;
	}
	r->base = (uintptr_t)va;
	r->size = size;
	r->ctx = ctx;
	pthread_rwlock_wrlock(&vmm_lock);
	/* A context destroyed meanwhile has been swept already (its magic
	 * is cleared before vmm_ctx_destroy takes the lock): do not add to
	 * it. */
	err = drv_context_get(ctx) ? index_insert(r, page) : -ENOENT;
	pthread_rwlock_unlock(&vmm_lock);
	if (err)
		goto err_release;
	*out = va;
	return 0;
err_release:
	vmm_os_release(va, size);
err_free:
	free(r);
	return err;
}

ze_result_t
drv_zeVirtualMemReserve(ze_context_handle_t hContext, const void *pStart,
			size_t size, void **pptr)
{
	DRV_CHECK_CONTEXT(hContext, ctx);
	if (!pptr)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"pptr is NULL");
	*pptr = NULL;
	if (size == 0)
		return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, "size is 0");
	size_t page = vmm_page_size_for(size);
	if (size % page)
		return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
				"size %zu is not a multiple of the page size "
				"%zu (zeVirtualMemQueryPageSize)", size, page);
	int err = resv_create(ctx, pStart, size, page, pptr);
	if (err)
		return DRV_FAIL(vmm_result(err), "cannot reserve %zu bytes: %s",
				size, strerror(-err));
	u_dbg(VMM_TOPIC, "reserved %p+%zu (hint %p)", *pptr, size, pStart);
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeVirtualMemFree(ze_context_handle_t hContext, const void *ptr,
		     size_t size)
{
	DRV_CHECK_CONTEXT(hContext, ctx);
	if (!ptr)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"ptr is NULL");
	size_t os = u_page_size();
	if (size == 0 || size % os)
		return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
				"size %zu is 0 or not a multiple of the page "
				"size %zu", size, os);
	uintptr_t a = (uintptr_t)ptr;
	if (a % os)
		return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT,
				"%p is not page aligned", ptr);
	drv_wait_idle(ptr, size); /* no copy may run into it any more */
	pthread_rwlock_wrlock(&vmm_lock);
	struct vmm_resv *rv = index_at(a);
	if (!rv || rv->base != a || rv->size != size || rv->ctx != ctx) {
		size_t have = rv && rv->base == a ? rv->size : 0;
		bool other = rv && rv->base == a && rv->ctx != ctx;
		pthread_rwlock_unlock(&vmm_lock);
		if (other)
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
					"%p is a reservation of another "
					"context", ptr);
		if (have)
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
					"%p was reserved with %zu bytes, not "
					"%zu: free whole reservations", ptr,
					have, size);
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"%p is not the start of a reservation", ptr);
	}
	size_t mapped = rv->nmaps;
	vmm_map_drop_all(rv);
	index_remove(rv);
	pthread_rwlock_unlock(&vmm_lock);
	/* No other thread can reach the range now: release it unlocked. */
	int err = vmm_os_release((void *)a, size);
	if (err)
		u_warn(VMM_TOPIC, "munmap %p+%zu: %s", ptr, size,
		       strerror(-err));
	if (mapped)
		u_dbg(VMM_TOPIC, "%p+%zu freed with %zu mapped piece(s): "
				 "unmapped them", ptr, size, mapped);
	resv_free(rv);
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeVirtualMemQueryPageSize(ze_context_handle_t hContext,
			      ze_device_handle_t hDevice, size_t size,
			      size_t *pagesize)
{
	DRV_CHECK_CONTEXT(hContext, ctx);
	ze_result_t r;
	struct _ze_device_handle_t *dev = NULL;
	if ((r = drv_check_device(ctx, hDevice, __func__, &dev)))
		return r;
	if (!pagesize)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"pagesize is NULL");
	/* Size 0: the smallest page size, as Intel's driver answers (its
	 * queryVirtualMemPageSize never fails); the validation layer
	 * reports the call. */
	*pagesize = vmm_page_size_for(size);
	return ZE_RESULT_SUCCESS;
}

/* ---- for the rest of the driver ---------------------------------------- */

int
vmm_usm_info(struct _ze_context_handle_t *ctx, const void *ptr,
	     struct usm_info *out)
{
	/* The address map holds each mapping with this very answer
	 * (vmm_map_info, registered by the Map call). */
	struct amap_hit hit;
	if (amap_find(ptr, &hit) || hit.kind != AMAP_VMM_MAP ||
	    (ctx && hit.info.ctx != ctx))
		return -ENOENT;
	*out = hit.info;
	return 0;
}

int
vmm_range_walk(struct _ze_context_handle_t *ctx, const void *va, size_t size,
	       vmm_walk_cb cb, void *arg)
{
	uintptr_t a = (uintptr_t)va, end = a + size;
	if (!size || end < a)
		return -EINVAL;
	int ret = 0;
	pthread_rwlock_rdlock(&vmm_lock);
	struct vmm_resv *r = vmm_resv_find(ctx, a, size);
	if (!r) {
		ret = -ENOENT;
		goto out;
	}
	size_t first = vmm_map_first_after(r, a), n = r->nmaps;
	/* All mapped? (pieces are sorted and do not overlap) */
	uintptr_t pos = a;
	for (size_t i = first; pos < end; i++) {
		if (i == n || r->maps[i].va > pos) {
			ret = -ENXIO;
			goto out;
		}
		pos = r->maps[i].va + r->maps[i].size;
	}
	for (size_t i = first; !ret && i < n && r->maps[i].va < end;) {
		const struct vmm_map *m = &r->maps[i];
		struct vmm_piece pc;
		uintptr_t s = m->va > a ? m->va : a;
		uintptr_t e = m->va + m->size < end ? m->va + m->size : end;
		pc.va = (const void *)s;
		pc.phys = m->phys;
		pc.offset = m->offset + (s - m->va);
		pc.fd = m->phys->fd;
		vmm_phys_fill_info(m->phys, &pc.info);
		/* Merge the following pieces that continue the same object. */
		for (i++; i < n && e < end && r->maps[i].phys == m->phys &&
			  r->maps[i].va == e &&
			  r->maps[i].offset == pc.offset + (e - s);
		     i++) {
			const struct vmm_map *x = &r->maps[i];
			e = x->va + x->size < end ? x->va + x->size : end;
		}
		pc.size = e - s;
		ret = cb(&pc, arg);
	}
out:
	pthread_rwlock_unlock(&vmm_lock);
	return ret;
}

size_t
vmm_ctx_destroy(struct _ze_context_handle_t *ctx)
{
	size_t nresv = 0, nphys;
	void **gone = NULL;
	pthread_rwlock_wrlock(&vmm_lock);
	amap_take_ctx(AMAP_VMM_RESV, ctx, &gone, &nresv);
	for (size_t i = 0; i < nresv; i++) {
		struct vmm_resv *r = gone[i];
		vmm_map_drop_all(r);
		int err = vmm_os_release((void *)r->base, r->size);
		if (err)
			u_warn(VMM_TOPIC, "munmap %p+%zu: %s",
			       (void *)r->base, r->size, strerror(-err));
		resv_free(r);
	}
	free(gone);
	nphys = vmm_phys_destroy_ctx(ctx);
	pthread_rwlock_unlock(&vmm_lock);
	if (nresv || nphys)
		u_info(VMM_TOPIC, "context #%llu destroyed with %zu "
				  "reservation(s) and %zu physical object(s); "
				  "released them",
		       (unsigned long long)ctx->serial, nresv, nphys);
	return nresv + nphys;
}
