// SPDX-License-Identifier: MIT
/*
 * test_vmm_access: what mapped VMM memory looks like from outside: access
 * attributes that really fault (checked in forked children that must die
 * of SIGSEGV), zeMemGetAllocProperties / zeMemGetAddressRange on mapped
 * addresses, the device-memory budget, context destroy, many cycles with
 * no fd or mapping left behind, and threads. Leak-checked fixture.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "check_run.h"
#include "leakcheck.h"
#include "vt.h"

/* ---- access attributes --------------------------------------------------- */

START_TEST(test_zeVirtualMemSetAccessAttribute_errors)
{
	char *p = vt_reserve(4 * K64);
	ze_physical_mem_handle_t h = vt_phys(2 * K64);
	vt_map(p, 2 * K64, h, 0, RW);
	ck_assert_int_eq(zt.vmem.pfnSetAccessAttribute(NULL, p, K64, RO),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.vmem.pfnSetAccessAttribute(zt.ctx, NULL, K64, RO),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ze_memory_access_attribute_t bad = (ze_memory_access_attribute_t)7;
	ck_assert_int_eq(zt.vmem.pfnSetAccessAttribute(zt.ctx, p, K64, bad),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	ck_assert_int_eq(zt.vmem.pfnSetAccessAttribute(zt.ctx, p, 0, RO),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	ck_assert_int_eq(zt.vmem.pfnSetAccessAttribute(zt.ctx, p, 10, RO),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	ck_assert_int_eq(zt.vmem.pfnSetAccessAttribute(zt.ctx, p + 1, K64, RO),
			 ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
	/* Not mapped (in part or at all), outside any reservation. */
	ck_assert_int_eq(zt.vmem.pfnSetAccessAttribute(zt.ctx, p + K64,
						       2 * K64, RO),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.vmem.pfnSetAccessAttribute(zt.ctx, p + 3 * K64,
						       K64, RW),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.vmem.pfnSetAccessAttribute(zt.ctx, p, 8 * K64, RO),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* Nothing changed. */
	vt_assert_access(p, 4 * K64, RW, 2 * K64);
	ck_assert_int_eq(vt_child_access(p + K64, VT_WRITE), 0);
	vt_unmap(p, 2 * K64);
	vt_phys_destroy(h);
	vt_free(p, 4 * K64);
}
END_TEST

START_TEST(test_zeVirtualMemGetAccessAttribute_errors)
{
	char *p = vt_reserve(K64);
	ze_memory_access_attribute_t a;
	size_t n;
	ck_assert_int_eq(zt.vmem.pfnGetAccessAttribute(NULL, p, K64, &a, &n),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.vmem.pfnGetAccessAttribute(zt.ctx, NULL, K64, &a,
						       &n),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.vmem.pfnGetAccessAttribute(zt.ctx, p, K64, NULL,
						       &n),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.vmem.pfnGetAccessAttribute(zt.ctx, p, K64, &a,
						       NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.vmem.pfnGetAccessAttribute(zt.ctx, p, 0, &a, &n),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	ck_assert_int_eq(zt.vmem.pfnGetAccessAttribute(zt.ctx, p + 16, K64, &a,
						       &n),
			 ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
	ck_assert_int_eq(zt.vmem.pfnGetAccessAttribute(zt.ctx, p, 2 * K64, &a,
						       &n),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_free(p, K64);
	ck_assert_int_eq(zt.vmem.pfnGetAccessAttribute(zt.ctx, p, K64, &a, &n),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(test_access_readonly_faults_on_write)
{
	char *p = vt_reserve(2 * K64);
	ze_physical_mem_handle_t h = vt_phys(2 * K64);
	vt_map(p, 2 * K64, h, 0, RW);
	p[0] = 42;
	ck_assert_int_eq(vt_child_access(p, VT_WRITE), 0);
	ck_assert_int_eq(zt.vmem.pfnSetAccessAttribute(zt.ctx, p, 2 * K64, RO),
			 ZE_RESULT_SUCCESS);
	vt_assert_access(p, 2 * K64, RO, 2 * K64);
	ck_assert_int_eq(p[0], 1); /* the child's write went through */
	ck_assert_int_eq(vt_child_access(p, VT_READ), 0);
	ck_assert_int_eq(vt_child_access(p, VT_WRITE), SIGSEGV);
	ck_assert_int_eq(vt_child_access(p + 2 * K64 - 1, VT_WRITE), SIGSEGV);
	/* Mapped read-only from the start, too. */
	vt_unmap(p, 2 * K64);
	vt_map(p, K64, h, K64, RO);
	ck_assert_int_eq(vt_child_access(p, VT_READ), 0);
	ck_assert_int_eq(vt_child_access(p, VT_WRITE), SIGSEGV);
	vt_unmap(p, K64);
	vt_phys_destroy(h);
	vt_free(p, 2 * K64);
}
END_TEST

START_TEST(test_access_none_faults_on_read)
{
	char *p = vt_reserve(2 * K64);
	ze_physical_mem_handle_t h = vt_phys(K64);
	vt_map(p, K64, h, 0, RW);
	ck_assert_int_eq(zt.vmem.pfnSetAccessAttribute(zt.ctx, p, K64, NOACC),
			 ZE_RESULT_SUCCESS);
	vt_assert_access(p, 2 * K64, NOACC, 2 * K64);
	ck_assert_int_eq(vt_child_access(p, VT_READ), SIGSEGV);
	ck_assert_int_eq(vt_child_access(p, VT_WRITE), SIGSEGV);
	/* Back to read-write: the mapping is still there. */
	ck_assert_int_eq(zt.vmem.pfnSetAccessAttribute(zt.ctx, p, K64, RW),
			 ZE_RESULT_SUCCESS);
	p[1] = 'y';
	ck_assert_int_eq(vt_child_access(p, VT_WRITE), 0);
	/* Mapped with NONE, and unmapped pages, fault as well. */
	vt_unmap(p, K64);
	ck_assert_int_eq(vt_child_access(p, VT_READ), SIGSEGV);
	vt_map(p + K64, K64, h, 0, NOACC);
	ck_assert_int_eq(vt_child_access(p + K64, VT_READ), SIGSEGV);
	vt_unmap(p + K64, K64);
	vt_phys_destroy(h);
	vt_free(p, 2 * K64);
}
END_TEST

START_TEST(test_access_runs_split_and_merge)
{
	char *p = vt_reserve(8 * K64);
	ze_physical_mem_handle_t h = vt_phys(4 * K64), g = vt_phys(K64);
	vt_map(p, 4 * K64, h, 0, RW);
	vt_map(p + 4 * K64, K64, g, 0, RW);
	ck_assert_int_eq(zt.vmem.pfnSetAccessAttribute(zt.ctx, p + K64, K64,
						       RO),
			 ZE_RESULT_SUCCESS);
	vt_assert_access(p, 8 * K64, RW, K64);
	vt_assert_access(p + K64, 7 * K64, RO, K64);
	vt_assert_access(p + 2 * K64, 6 * K64, RW, 3 * K64); /* two objects */
	vt_assert_access(p + 2 * K64, K64, RW, K64);         /* capped */
	vt_assert_access(p + 5 * K64, 3 * K64, NOACC, 3 * K64);
	ck_assert_int_eq(vt_child_access(p + K64 - 1, VT_WRITE), 0);
	ck_assert_int_eq(vt_child_access(p + K64, VT_WRITE), SIGSEGV);
	ck_assert_int_eq(vt_child_access(p + 2 * K64, VT_WRITE), 0);
	/* Across both objects at once. */
	ck_assert_int_eq(zt.vmem.pfnSetAccessAttribute(zt.ctx, p + 3 * K64,
						       2 * K64, NOACC),
			 ZE_RESULT_SUCCESS);
	vt_assert_access(p + 2 * K64, 6 * K64, RW, K64);
	vt_assert_access(p + 3 * K64, 5 * K64, NOACC, 5 * K64);
	/* Back to one attribute: one run again, and unmaps whole. */
	ck_assert_int_eq(zt.vmem.pfnSetAccessAttribute(zt.ctx, p, 5 * K64, RW),
			 ZE_RESULT_SUCCESS);
	vt_assert_access(p, 8 * K64, RW, 5 * K64);
	ck_assert_int_eq(vt_child_access(p + K64, VT_WRITE), 0);
	ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, p, K64),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_unmap(p + 4 * K64, K64);
	vt_unmap(p, 4 * K64);
	vt_phys_destroy(h);
	vt_phys_destroy(g);
	vt_free(p, 8 * K64);
}
END_TEST

/* ---- zeMemGetAllocProperties / zeMemGetAddressRange ---------------------- */

static void
props_of(const void *ptr, ze_memory_allocation_properties_t *mp,
	 ze_device_handle_t *dev)
{
	mp->stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES;
	mp->pNext = NULL;
	ck_assert_int_eq(zt.mem.pfnGetAllocProperties(zt.ctx, ptr, mp, dev),
			 ZE_RESULT_SUCCESS);
}

START_TEST(test_alloc_properties_of_mapped_ranges)
{
	char *p = vt_reserve(8 * M2);
	ze_physical_mem_handle_t d = vt_phys(2 * M2);
	ze_physical_mem_handle_t hh = vt_phys_on(zt.ctx, NULL, ON_HOST, M2);
	vt_map(p + M2 * 2, 2 * M2, d, 0, RW);
	vt_map(p + M2 * 4, M2, hh, 0, RO);
	vt_map(p + M2 * 5, M2, d, M2, RW); /* adjacent: another mapping */
	ze_memory_allocation_properties_t mp;
	ze_device_handle_t dev = NULL;
	props_of(p + 2 * M2 + 12345, &mp, &dev);
	ck_assert_int_eq(mp.type, ZE_MEMORY_TYPE_DEVICE);
	ck_assert_uint_eq(mp.pageSize, M2);
	ck_assert_ptr_eq(dev, zt.dev);
	ck_assert_uint_ne(mp.id, 0);
	uint64_t id = mp.id;
	void *base = NULL;
	size_t size = 0;
	ck_assert_int_eq(zt.mem.pfnGetAddressRange(zt.ctx, p + 4 * M2 - 1,
						   &base, &size),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(base, p + 2 * M2);
	ck_assert_uint_eq(size, 2 * M2);
	/* A split by access attributes does not change the answer. */
	ck_assert_int_eq(zt.vmem.pfnSetAccessAttribute(zt.ctx, p + 3 * M2, M2,
						       RO),
			 ZE_RESULT_SUCCESS);
	props_of(p + 3 * M2, &mp, &dev);
	ck_assert_uint_eq(mp.id, id);
	ck_assert_int_eq(zt.mem.pfnGetAddressRange(zt.ctx, p + 3 * M2, &base,
						   &size),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(base, p + 2 * M2);
	ck_assert_uint_eq(size, 2 * M2);
	/* Host memory, created without a device. */
	props_of(p + 4 * M2, &mp, &dev);
	ck_assert_int_eq(mp.type, ZE_MEMORY_TYPE_HOST);
	ck_assert_ptr_null(dev);
	ck_assert_uint_ne(mp.id, id);
	/* The adjacent mapping of the same object is its own range. */
	props_of(p + 5 * M2, &mp, &dev);
	ck_assert_int_eq(mp.type, ZE_MEMORY_TYPE_DEVICE);
	ck_assert_uint_ne(mp.id, id);
	ck_assert_int_eq(zt.mem.pfnGetAddressRange(zt.ctx, p + 5 * M2, &base,
						   &size),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(base, p + 5 * M2);
	ck_assert_uint_eq(size, M2);
	/* Reserved but not mapped: unknown, not found. */
	props_of(p + M2, &mp, &dev);
	ck_assert_int_eq(mp.type, ZE_MEMORY_TYPE_UNKNOWN);
	ck_assert_int_eq(zt.mem.pfnGetAddressRange(zt.ctx, p + M2, &base,
						   &size),
			 ZE_RESULT_ERROR_ADDRESS_NOT_FOUND);
	/* Another context of the driver sees it, as with Intel's driver
	 * (issue 26: a library with a context of its own asks about the
	 * program's VMM range): properties, range, access attribute, and
	 * an IPC handle of the range. */
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_context_handle_t c2;
	ck_assert_int_eq(zt.context.pfnCreate(zt.drv, &cd, &c2),
			 ZE_RESULT_SUCCESS);
	mp.pNext = NULL;
	ck_assert_int_eq(zt.mem.pfnGetAllocProperties(c2, p + 2 * M2, &mp,
						      &dev),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(mp.type, ZE_MEMORY_TYPE_DEVICE);
	ck_assert_uint_eq(mp.id, id);
	ck_assert_ptr_eq(dev, zt.dev);
	ck_assert_int_eq(zt.mem.pfnGetAddressRange(c2, p + 3 * M2 + 7, &base,
						   &size),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(base, p + 2 * M2);
	ck_assert_uint_eq(size, 2 * M2);
	ze_memory_access_attribute_t acc = ZE_MEMORY_ACCESS_ATTRIBUTE_NONE;
	size_t run = 0;
	ck_assert_int_eq(zt.vmem.pfnGetAccessAttribute(c2, p + 2 * M2, 2 * M2,
						       &acc, &run),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(acc, RW);
	ck_assert_uint_eq(run, M2);
	ck_assert_int_eq(zt.vmem.pfnGetAccessAttribute(c2, p + M2, M2, &acc,
						       &run),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(acc, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE);
	ck_assert_uint_eq(run, M2);
	ze_ipc_phys_mem_handle_range_ext_desc_t rd = {
		ZE_STRUCTURE_TYPE_IPC_PHYS_MEM_HANDLE_RANGE_EXT_DESC, NULL,
		2 * M2 };
	ze_ipc_mem_handle_t ih;
	ck_assert_int_eq(zt.mem.pfnGetIpcHandleWithProperties(c2, p + 2 * M2,
							      &rd, &ih),
			 ZE_RESULT_SUCCESS);
	char *o = NULL;
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(c2, zt.dev, ih, 0,
						 (void **)&o),
			 ZE_RESULT_SUCCESS);
	p[2 * M2 + 5] = 0x5a;
	ck_assert_int_eq(o[5], 0x5a);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(c2, o), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(c2, ih), ZE_RESULT_SUCCESS);
	/* Reserved but not mapped, and system memory: still nothing. */
	ck_assert_int_eq(zt.mem.pfnGetAddressRange(c2, p + M2, &base, &size),
			 ZE_RESULT_ERROR_ADDRESS_NOT_FOUND);
	ck_assert_int_eq(zt.mem.pfnGetAllocProperties(c2, p + M2, &mp, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(mp.type, ZE_MEMORY_TYPE_UNKNOWN);
	ck_assert_int_eq(zt.context.pfnDestroy(c2), ZE_RESULT_SUCCESS);
	/* Unmapped: gone. */
	vt_unmap(p + 2 * M2, 2 * M2);
	props_of(p + 2 * M2, &mp, &dev);
	ck_assert_int_eq(mp.type, ZE_MEMORY_TYPE_UNKNOWN);
	vt_free(p, 8 * M2);
	vt_phys_destroy(d);
	vt_phys_destroy(hh);
}
END_TEST

/* ---- budget and context destroy ------------------------------------------ */

START_TEST(test_physical_memory_counts_against_budget)
{
	ze_device_memory_properties_t mp = {
		ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES, NULL
	};
	uint32_t n = 1;
	ck_assert_int_eq(zt.device.pfnGetMemoryProperties(zt.dev, &n, &mp),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(mp.totalSize, VT_BUDGET);
	ze_physical_mem_handle_t big = vt_phys(VT_BUDGET - M2);
	ze_physical_mem_handle_t last = vt_phys(M2);
	ze_physical_mem_desc_t d = vt_desc(0, K64);
	ze_physical_mem_handle_t h = (void *)&n;
	ck_assert_int_eq(zt.pmem.pfnCreate(zt.ctx, zt.dev, &d, &h),
			 ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
	ck_assert_ptr_null(h);
	/* One budget for USM device memory and physical objects. */
	void *usm = NULL;
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, 4096, 0,
					       zt.dev, &usm),
			 ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
	/* Host memory counts against no device. */
	ze_physical_mem_handle_t host = vt_phys_on(zt.ctx, zt.dev, ON_HOST, M2);
	/* The second device has its own budget. */
	ze_device_handle_t devs[2];
	n = 2;
	ck_assert_int_eq(zt.device.pfnGet(zt.drv, &n, devs), ZE_RESULT_SUCCESS);
	ze_physical_mem_handle_t other = vt_phys_on(zt.ctx, devs[1], 0, M2);
	vt_phys_destroy(last);
	ck_assert_int_eq(zt.pmem.pfnCreate(zt.ctx, zt.dev, &d, &h),
			 ZE_RESULT_SUCCESS);
	vt_phys_destroy(h);
	vt_phys_destroy(big);
	vt_phys_destroy(host);
	vt_phys_destroy(other);
	/* All of it is back. */
	big = vt_phys(VT_BUDGET);
	vt_phys_destroy(big);
}
END_TEST

START_TEST(test_context_destroy_releases_everything)
{
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_context_handle_t c2;
	ck_assert_int_eq(zt.context.pfnCreate(zt.drv, &cd, &c2),
			 ZE_RESULT_SUCCESS);
	char *p = vt_reserve_in(c2, 4 * M2);
	ze_physical_mem_handle_t h = vt_phys_on(c2, zt.dev, 0, VT_BUDGET / 2);
	ze_physical_mem_handle_t u = vt_phys_on(c2, zt.dev, 0, VT_BUDGET / 4);
	vt_phys_on(c2, NULL, ON_HOST, M2);
	ck_assert_int_eq(zt.vmem.pfnMap(c2, p, 2 * M2, h, 0, RW),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.vmem.pfnMap(c2, p + 2 * M2, 2 * M2, h, 0, RO),
			 ZE_RESULT_SUCCESS);
	p[0] = 1;
	(void)u;
	ck_assert_int_eq(zt.context.pfnDestroy(c2), ZE_RESULT_SUCCESS);
	ck_assert(!vt_mapped(p, 4 * M2));
	/* The whole budget is free again. */
	ze_physical_mem_handle_t all = vt_phys(VT_BUDGET);
	vt_phys_destroy(all);
}
END_TEST

/* ---- many cycles, threads, fork ----------------------------------------- */

static void
one_cycle(ze_context_handle_t ctx, unsigned i)
{
	size_t psz = (i & 1) ? M2 : 2 * K64;
	size_t rsz = psz * 2;
	ze_physical_mem_handle_t h = vt_phys_on(ctx, zt.dev, 0, psz);
	char *p = NULL;
	ck_assert_int_eq(zt.vmem.pfnReserve(ctx, NULL, rsz, (void **)&p),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.vmem.pfnMap(ctx, p, psz, h, 0, RW),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.vmem.pfnMap(ctx, p + psz, psz, h, 0, RW),
			 ZE_RESULT_SUCCESS);
	p[psz - 1] = (char)i;
	ck_assert_int_eq(p[2 * psz - 1], (char)i);
	/* Some failures on the way, which must leave nothing behind. */
	ck_assert_int_eq(zt.vmem.pfnMap(ctx, p, psz, h, 0, RW),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.pmem.pfnDestroy(ctx, h),
			 ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
	ck_assert_int_eq(zt.vmem.pfnSetAccessAttribute(ctx, p + psz / 2,
						       psz, RO),
			 ZE_RESULT_SUCCESS);
	if (i % 3 == 0) {
		/* Free with live mappings. */
		ck_assert_int_eq(zt.vmem.pfnFree(ctx, p, rsz),
				 ZE_RESULT_SUCCESS);
	} else {
		ck_assert_int_eq(zt.vmem.pfnUnmap(ctx, p, rsz),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.vmem.pfnFree(ctx, p, rsz),
				 ZE_RESULT_SUCCESS);
	}
	ck_assert_int_eq(zt.pmem.pfnDestroy(ctx, h), ZE_RESULT_SUCCESS);
}

START_TEST(test_no_leak_over_many_cycles)
{
	struct vt_maps m0, m1;
	vt_maps_now(&m0);
	for (unsigned i = 0; i < 2000; i++)
		one_cycle(zt.ctx, i);
	vt_maps_now(&m1);
	vt_maps_assert_same(&m0, &m1);
	/* And through context destroy, with everything left live. */
	for (unsigned i = 0; i < 50; i++) {
		ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL,
					 0 };
		ze_context_handle_t c2;
		ck_assert_int_eq(zt.context.pfnCreate(zt.drv, &cd, &c2),
				 ZE_RESULT_SUCCESS);
		char *p = vt_reserve_in(c2, M2);
		ze_physical_mem_handle_t h = vt_phys_on(c2, zt.dev, 0, M2);
		ck_assert_int_eq(zt.vmem.pfnMap(c2, p, M2, h, 0, RW),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.context.pfnDestroy(c2), ZE_RESULT_SUCCESS);
	}
	vt_maps_now(&m1);
	ck_assert_int_eq(m1.nfd, m0.nfd);
	ck_assert_int_eq(m1.nvmm, m0.nvmm);
}
END_TEST

#define NTHREADS 8

struct worker {
	pthread_t th;
	char *shared;            /* one reservation, one slot per thread */
	ze_physical_mem_handle_t obj;
	unsigned idx;
};

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	char *slot = w->shared + w->idx * K64;
	for (unsigned i = 0; i < 300; i++) {
		one_cycle(zt.ctx, i + w->idx);
		/* The shared object, mapped and unmapped in our own slot of a
		 * shared reservation while the others do the same. */
		vt_map(slot, K64, w->obj, 0, RW);
		slot[w->idx * 64] = (char)w->idx;
		ze_memory_allocation_properties_t mp = {
			ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, NULL
		};
		ck_assert_int_eq(zt.mem.pfnGetAllocProperties(zt.ctx, slot,
							      &mp, NULL),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(mp.type, ZE_MEMORY_TYPE_DEVICE);
		vt_assert_access(slot, K64, RW, K64);
		vt_unmap(slot, K64);
	}
	return NULL;
}

START_TEST(test_threads)
{
	struct worker w[NTHREADS];
	char *shared = vt_reserve(NTHREADS * K64);
	ze_physical_mem_handle_t obj = vt_phys(K64);
	/* Stacks of our own: glibc would keep its cached thread stacks
	 * mapped after the join, and the fixture would see them. */
	size_t stack = (size_t)1 << 20;
	void *stacks = mmap(NULL, NTHREADS * stack, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert(stacks != MAP_FAILED);
	for (unsigned i = 0; i < NTHREADS; i++) {
		w[i] = (struct worker){ .shared = shared, .obj = obj,
					.idx = i };
		pthread_attr_t at;
		pthread_attr_init(&at);
		pthread_attr_setstack(&at, (char *)stacks + i * stack, stack);
		ck_assert_int_eq(pthread_create(&w[i].th, &at, worker_main,
						&w[i]),
				 0);
		pthread_attr_destroy(&at);
	}
	for (unsigned i = 0; i < NTHREADS; i++)
		pthread_join(w[i].th, NULL);
	munmap(stacks, NTHREADS * stack);
	/* Every thread's bytes landed in the one object. */
	vt_map(shared, K64, obj, 0, RO);
	for (unsigned i = 0; i < NTHREADS; i++)
		ck_assert_int_eq(shared[i * 64], (char)i);
	vt_free(shared, NTHREADS * K64);
	vt_phys_destroy(obj);
}
END_TEST

/* fork: the child starts with vmm's lock free and can use the driver,
 * and shares the mapped pages with the parent (MAP_SHARED). */
START_TEST(test_fork_child_uses_vmm)
{
	ze_physical_mem_handle_t h = vt_phys(K64);
	char *p = vt_reserve(K64);
	vt_map(p, K64, h, 0, RW);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		void *q = NULL;
		int bad = zt.vmem.pfnReserve(zt.ctx, NULL, K64, &q) ||
			  zt.vmem.pfnMap(zt.ctx, q, K64, h, 0, RW) ||
			  zt.vmem.pfnFree(zt.ctx, q, K64);
		p[0] = 'c';
		_exit(bad);
	}
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ck_assert_int_eq(p[0], 'c');
	vt_free(p, K64);
	vt_phys_destroy(h);
}
END_TEST

static Suite *
vmm_access_suite(void)
{
	Suite *s = suite_create("vmm-access");
	TCase *tc = tcase_create("vmm-access");
	tcase_add_checked_fixture(tc, vt_checked_setup, vt_checked_teardown);
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_zeVirtualMemSetAccessAttribute_errors);
	tcase_add_test(tc, test_zeVirtualMemGetAccessAttribute_errors);
	tcase_add_test(tc, test_access_readonly_faults_on_write);
	tcase_add_test(tc, test_access_none_faults_on_read);
	tcase_add_test(tc, test_access_runs_split_and_merge);
	tcase_add_test(tc, test_alloc_properties_of_mapped_ranges);
	tcase_add_test(tc, test_physical_memory_counts_against_budget);
	tcase_add_test(tc, test_context_destroy_releases_everything);
	tcase_add_test(tc, test_no_leak_over_many_cycles);
	tcase_add_test(tc, test_threads);
	tcase_add_test(tc, test_fork_child_uses_vmm);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return check_run(vmm_access_suite(), CK_NORMAL, false);
}
