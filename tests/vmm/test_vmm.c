// SPDX-License-Identifier: MIT
/*
 * test_vmm: zeVirtualMemReserve / Free / QueryPageSize / Map / Unmap and
 * zePhysicalMemCreate / Destroy / GetProperties through the driver's DDI
 * tables: every error case with its exact result first, then the
 * sequences that work (hint, aliasing, free with live mappings). Each test
 * runs in check's forked child inside the leak-checked fixture (no fd, no
 * mapping left, every fd close-on-exec).
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "check_run.h"
#include "leakcheck.h"
#include "vt.h"

/* Something that is no handle of the driver, but readable memory. */
static char junk[256];

/* ---- getters ---------------------------------------------------------- */

START_TEST(test_getters_fill_by_version)
{
	void *dl = dlopen(zt_driver_path(), RTLD_NOW | RTLD_LOCAL);
	ck_assert_ptr_nonnull(dl);
	ze_pfnGetPhysicalMemProcAddrTable_t getp =
		(ze_pfnGetPhysicalMemProcAddrTable_t)dlsym(
			dl, "zeGetPhysicalMemProcAddrTable");
	ze_pfnGetVirtualMemProcAddrTable_t getv =
		(ze_pfnGetVirtualMemProcAddrTable_t)dlsym(
			dl, "zeGetVirtualMemProcAddrTable");
	ck_assert_ptr_nonnull(getp);
	ck_assert_ptr_nonnull(getv);
	ze_virtual_mem_dditable_t v;
	memset(&v, 0, sizeof(v));
	ck_assert_int_eq(getv(ZE_API_VERSION_1_0, &v), ZE_RESULT_SUCCESS);
	ck_assert(v.pfnReserve && v.pfnFree && v.pfnQueryPageSize &&
		  v.pfnMap && v.pfnUnmap && v.pfnSetAccessAttribute &&
		  v.pfnGetAccessAttribute);
	ze_physical_mem_dditable_t p;
	memset(&p, 0, sizeof(p));
	ck_assert_int_eq(getp(ZE_API_VERSION_1_0, &p), ZE_RESULT_SUCCESS);
	ck_assert(p.pfnCreate && p.pfnDestroy);
	ck_assert_ptr_null(p.pfnGetProperties); /* 1.15 */
	ck_assert_int_eq(getp(ZE_API_VERSION_1_15, &p), ZE_RESULT_SUCCESS);
	ck_assert_ptr_nonnull(p.pfnGetProperties);
	dlclose(dl);
}
END_TEST

/* ---- QueryPageSize ---------------------------------------------------- */

START_TEST(test_zeVirtualMemQueryPageSize_errors)
{
	size_t ps = 0;
	ck_assert_int_eq(zt.vmem.pfnQueryPageSize(NULL, zt.dev, 1, &ps),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.vmem.pfnQueryPageSize((void *)junk, zt.dev, 1,
						  &ps),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.vmem.pfnQueryPageSize(zt.ctx, NULL, 1, &ps),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.vmem.pfnQueryPageSize(zt.ctx, (void *)junk, 1,
						  &ps),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.vmem.pfnQueryPageSize(zt.ctx, zt.dev, 1, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	/* A context of the second device only does not hold the first. */
	ze_device_handle_t devs[2];
	uint32_t n = 2;
	ck_assert_int_eq(zt.device.pfnGet(zt.drv, &n, devs),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 2);
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_context_handle_t c1;
	ck_assert_int_eq(zt.context.pfnCreateEx(zt.drv, &cd, 1, &devs[1], &c1),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.vmem.pfnQueryPageSize(c1, devs[0], 1, &ps),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.vmem.pfnQueryPageSize(c1, devs[1], 1, &ps),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.context.pfnDestroy(c1), ZE_RESULT_SUCCESS);
}
END_TEST

/* Size 0 asks for the smallest page size, as Intel's driver answers (its
 * queryVirtualMemPageSize never fails); Intel's conformance suite asks so
 * (query_page_size(context, device, 0, ...)). */
START_TEST(test_zeVirtualMemQueryPageSize_rule)
{
	static const struct {
		size_t size, page;
	} t[] = {
		{ 0, K64 }, { 1, K64 }, { 4096, K64 }, { K64, K64 },
		{ K64 + 1, K64 },
		{ M2 - 1, K64 }, { M2, M2 }, { M2 + 1, M2 },
		{ (size_t)1 << 30, M2 },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		size_t ps = 0;
		ck_assert_int_eq(zt.vmem.pfnQueryPageSize(zt.ctx, zt.dev,
							  t[i].size, &ps),
				 ZE_RESULT_SUCCESS);
		ck_assert_uint_eq(ps, t[i].page);
	}
}
END_TEST

/* ---- Reserve / Free --------------------------------------------------- */

START_TEST(test_zeVirtualMemReserve_errors)
{
	void *p = junk;
	ck_assert_int_eq(zt.vmem.pfnReserve(NULL, NULL, K64, &p),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.vmem.pfnReserve((void *)junk, NULL, K64, &p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.vmem.pfnReserve(zt.ctx, NULL, K64, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.vmem.pfnReserve(zt.ctx, NULL, 0, &p),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	ck_assert_ptr_null(p);
	p = junk;
	ck_assert_int_eq(zt.vmem.pfnReserve(zt.ctx, NULL, 4096, &p),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	ck_assert_ptr_null(p);
	ck_assert_int_eq(zt.vmem.pfnReserve(zt.ctx, NULL, K64 + 4096, &p),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	ck_assert_int_eq(zt.vmem.pfnReserve(zt.ctx, NULL, 3 * (M2 / 2), &p),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	ck_assert_int_eq(zt.vmem.pfnReserve(zt.ctx, NULL, M2 + K64, &p),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
}
END_TEST

START_TEST(test_zeVirtualMemReserve_aligned_and_inaccessible)
{
	static const size_t sizes[] = { K64, 3 * K64, M2, 3 * M2 };
	for (size_t i = 0; i < 4; i++) {
		size_t page = sizes[i] >= M2 ? M2 : K64;
		char *p = vt_reserve(sizes[i]);
		ck_assert_uint_eq((uintptr_t)p % page, 0);
		ck_assert(vt_mapped(p, sizes[i]));
		vt_assert_access(p, sizes[i], NOACC, sizes[i]);
		ck_assert_int_eq(vt_child_access(p, VT_READ), SIGSEGV);
		ck_assert_int_eq(vt_child_access(p + sizes[i] - 1, VT_WRITE),
				 SIGSEGV);
		vt_free(p, sizes[i]);
		ck_assert(!vt_mapped(p, sizes[i]));
	}
}
END_TEST

START_TEST(test_zeVirtualMemReserve_hint)
{
	/* Find free address space, give it back, ask for part of it. */
	char *area = vt_reserve(4 * M2);
	vt_free(area, 4 * M2);
	void *p = NULL;
	ck_assert_int_eq(zt.vmem.pfnReserve(zt.ctx, area + M2, M2, &p),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(p, area + M2);
	/* Occupied: honoured elsewhere, aligned, not overlapping. */
	void *q = NULL;
	ck_assert_int_eq(zt.vmem.pfnReserve(zt.ctx, area + M2, M2, &q),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_ne(q, p);
	ck_assert_uint_eq((uintptr_t)q % M2, 0);
	ck_assert((char *)q + M2 <= (char *)p || (char *)q >= (char *)p + M2);
	/* Overlapping the start of an occupied range: not honoured. */
	void *r = NULL;
	ck_assert_int_eq(zt.vmem.pfnReserve(zt.ctx, area, 2 * M2, &r),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_ne(r, area);
	ck_assert_uint_eq((uintptr_t)r % M2, 0);
	/* Misaligned: not an error, not honoured; the result is aligned. */
	void *s = NULL;
	ck_assert_int_eq(zt.vmem.pfnReserve(zt.ctx, area + 3 * M2 + 4096, M2,
					    &s),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq((uintptr_t)s % M2, 0);
	vt_free(s, M2);
	vt_free(r, 2 * M2);
	vt_free(q, M2);
	vt_free(p, M2);
}
END_TEST

START_TEST(test_zeVirtualMemFree_errors)
{
	char *p = vt_reserve(4 * K64);
	ck_assert_int_eq(zt.vmem.pfnFree(NULL, p, 4 * K64),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.vmem.pfnFree((void *)junk, p, 4 * K64),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.vmem.pfnFree(zt.ctx, NULL, 4 * K64),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.vmem.pfnFree(zt.ctx, p, 0),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	ck_assert_int_eq(zt.vmem.pfnFree(zt.ctx, p, 100),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	ck_assert_int_eq(zt.vmem.pfnFree(zt.ctx, p + 1, 4 * K64),
			 ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
	/* Part of a reservation, or a wrong size: whole ones only. */
	ck_assert_int_eq(zt.vmem.pfnFree(zt.ctx, p + K64, 3 * K64),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.vmem.pfnFree(zt.ctx, p, 2 * K64),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.vmem.pfnFree(zt.ctx, p, 8 * K64),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* Memory that is no reservation at all. */
	void *m = mmap(NULL, K64, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		       0);
	ck_assert(m != MAP_FAILED);
	ck_assert_int_eq(zt.vmem.pfnFree(zt.ctx, m, K64),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	munmap(m, K64);
	/* Another context's reservation. */
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_context_handle_t c2;
	ck_assert_int_eq(zt.context.pfnCreate(zt.drv, &cd, &c2),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.vmem.pfnFree(c2, p, 4 * K64),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert(vt_mapped(p, 4 * K64));
	vt_free(p, 4 * K64);
	/* Twice. */
	ck_assert_int_eq(zt.vmem.pfnFree(zt.ctx, p, 4 * K64),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.context.pfnDestroy(c2), ZE_RESULT_SUCCESS);
}
END_TEST

/* ---- physical objects ---------------------------------------------------- */

START_TEST(test_zePhysicalMemCreate_errors)
{
	ze_physical_mem_handle_t h = (void *)junk;
	ze_physical_mem_desc_t d = vt_desc(0, K64);
	ck_assert_int_eq(zt.pmem.pfnCreate(NULL, zt.dev, &d, &h),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.pmem.pfnCreate((void *)junk, zt.dev, &d, &h),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.pmem.pfnCreate(zt.ctx, zt.dev, NULL, &h),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.pmem.pfnCreate(zt.ctx, zt.dev, &d, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	d.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
	ck_assert_int_eq(zt.pmem.pfnCreate(zt.ctx, zt.dev, &d, &h),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_null(h);
	d = vt_desc(0x4, K64);
	ck_assert_int_eq(zt.pmem.pfnCreate(zt.ctx, zt.dev, &d, &h),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	d = vt_desc(ON_HOST | ON_DEVICE, K64);
	ck_assert_int_eq(zt.pmem.pfnCreate(zt.ctx, zt.dev, &d, &h),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	d = vt_desc(ON_DEVICE, K64);
	ck_assert_int_eq(zt.pmem.pfnCreate(zt.ctx, NULL, &d, &h),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.pmem.pfnCreate(zt.ctx, (void *)junk, &d, &h),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	d = vt_desc(0, 0);
	ck_assert_int_eq(zt.pmem.pfnCreate(zt.ctx, zt.dev, &d, &h),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	d = vt_desc(0, 4096); /* device memory: 64 KiB pages */
	ck_assert_int_eq(zt.pmem.pfnCreate(zt.ctx, zt.dev, &d, &h),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	d = vt_desc(0, 3 * M2 / 2); /* at 2 MiB and above: 2 MiB pages */
	ck_assert_int_eq(zt.pmem.pfnCreate(zt.ctx, zt.dev, &d, &h),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	d = vt_desc(ON_HOST, 4096 + 512); /* host memory: OS pages */
	ck_assert_int_eq(zt.pmem.pfnCreate(zt.ctx, NULL, &d, &h),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	/* Descriptor chains: an export of a memfd is fine, nothing else. */
	ze_external_memory_export_desc_t x = {
		ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_DESC, NULL,
		ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF
	};
	d = vt_desc(0, K64);
	d.pNext = &x;
	ck_assert_int_eq(zt.pmem.pfnCreate(zt.ctx, zt.dev, &d, &h),
			 ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
	x.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
	ck_assert_int_eq(zt.pmem.pfnCreate(zt.ctx, zt.dev, &d, &h),
			 ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
	ck_assert_ptr_null(h);
	x.stype = ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_DESC;
	x.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD;
	ck_assert_int_eq(zt.pmem.pfnCreate(zt.ctx, zt.dev, &d, &h),
			 ZE_RESULT_SUCCESS);
	vt_phys_destroy(h);
}
END_TEST

START_TEST(test_zePhysicalMemDestroy_errors)
{
	ze_physical_mem_handle_t h = vt_phys(K64);
	ck_assert_int_eq(zt.pmem.pfnDestroy(NULL, h),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.pmem.pfnDestroy((void *)junk, h),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.pmem.pfnDestroy(zt.ctx, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	/* Forged handles: junk, an interior pointer, unmapped addresses. */
	memset(junk, 0x5a, sizeof(junk));
	ck_assert_int_eq(zt.pmem.pfnDestroy(zt.ctx, (void *)junk),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.pmem.pfnDestroy(zt.ctx, (void *)((char *)h + 8)),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.pmem.pfnDestroy(zt.ctx, (void *)(uintptr_t)8),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.pmem.pfnDestroy(zt.ctx, (void *)UINTPTR_MAX),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* Another context's object. */
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_context_handle_t c2;
	ck_assert_int_eq(zt.context.pfnCreate(zt.drv, &cd, &c2),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.pmem.pfnDestroy(c2, h),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.context.pfnDestroy(c2), ZE_RESULT_SUCCESS);
	/* Still mapped: refused until unmapped. */
	char *p = vt_reserve(2 * K64);
	vt_map(p, K64, h, 0, RW);
	vt_map(p + K64, K64, h, 0, RW);
	ck_assert_int_eq(zt.pmem.pfnDestroy(zt.ctx, h),
			 ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
	vt_unmap(p, K64);
	ck_assert_int_eq(zt.pmem.pfnDestroy(zt.ctx, h),
			 ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
	vt_unmap(p + K64, K64);
	vt_phys_destroy(h);
	/* Twice. */
	ck_assert_int_eq(zt.pmem.pfnDestroy(zt.ctx, h),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_free(p, 2 * K64);
}
END_TEST

START_TEST(test_zePhysicalMemGetProperties)
{
	ze_physical_mem_handle_t a = vt_phys(K64), b = vt_phys(M2);
	ze_physical_mem_properties_t pp = {
		ZE_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES, NULL, 0, 0
	};
	ck_assert_int_eq(zt.pmem.pfnGetProperties(NULL, a, &pp),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.pmem.pfnGetProperties(zt.ctx, NULL, &pp),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.pmem.pfnGetProperties(zt.ctx, a, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.pmem.pfnGetProperties(zt.ctx, (void *)junk, &pp),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.pmem.pfnGetProperties(zt.ctx, a, &pp),
			 ZE_RESULT_SUCCESS);
	uint64_t ida = pp.id;
	ck_assert_uint_eq(pp.size, K64);
	ck_assert_uint_ne(ida, 0);
	ck_assert_int_eq(zt.pmem.pfnGetProperties(zt.ctx, b, &pp),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(pp.size, M2);
	ck_assert_uint_ne(pp.id, ida);
	/* The exportable fd: the object's memfd, owned by the driver. */
	ze_external_memory_export_fd_t xf = {
		ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD, NULL,
		ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF, -1
	};
	pp.pNext = &xf;
	ck_assert_int_eq(zt.pmem.pfnGetProperties(zt.ctx, b, &pp),
			 ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
	ck_assert_int_eq(xf.fd, -1);
	xf.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD;
	ck_assert_int_eq(zt.pmem.pfnGetProperties(zt.ctx, b, &pp),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_ge(xf.fd, 0);
	ck_assert_int_eq(leakcheck_fd_cloexec(xf.fd), 1);
	struct stat st;
	ck_assert_int_eq(fstat(xf.fd, &st), 0);
	ck_assert_int_eq(st.st_size, (off_t)M2);
	char path[64], target[128] = "";
	snprintf(path, sizeof(path), "/proc/self/fd/%d", xf.fd);
	ck_assert_int_gt(readlink(path, target, sizeof(target) - 1), 0);
	ck_assert_ptr_nonnull(strstr(target, "memfd:zemem:vmm:device"));
	/* Another context's object. */
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_context_handle_t c2;
	ck_assert_int_eq(zt.context.pfnCreate(zt.drv, &cd, &c2),
			 ZE_RESULT_SUCCESS);
	pp.pNext = NULL;
	ck_assert_int_eq(zt.pmem.pfnGetProperties(c2, a, &pp),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.context.pfnDestroy(c2), ZE_RESULT_SUCCESS);
	vt_phys_destroy(a);
	ck_assert_int_eq(zt.pmem.pfnGetProperties(zt.ctx, a, &pp),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_phys_destroy(b);
}
END_TEST

START_TEST(test_zePhysicalMemCreate_host)
{
	size_t os = (size_t)sysconf(_SC_PAGESIZE);
	/* Host memory: no device needed, OS-page granularity. */
	ze_physical_mem_handle_t h = vt_phys_on(zt.ctx, NULL, ON_HOST, os);
	ze_physical_mem_handle_t h2 = vt_phys_on(zt.ctx, zt.dev, ON_HOST,
						 3 * os);
	char *p = vt_reserve(K64);
	vt_map(p, os, h, 0, RW);
	vt_map(p + os, 2 * os, h2, os, RW);
	p[0] = 'h';
	p[os] = 'i';
	ck_assert_int_eq(p[0] + p[os], 'h' + 'i');
	ck_assert_int_eq(zt.pmem.pfnDestroy(zt.ctx, h2),
			 ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
	vt_unmap(p, 3 * os);
	vt_phys_destroy(h);
	vt_phys_destroy(h2);
	vt_free(p, K64);
}
END_TEST

/* ---- Map / Unmap ------------------------------------------------------- */

START_TEST(test_zeVirtualMemMap_errors)
{
	char *p = vt_reserve(4 * K64);
	ze_physical_mem_handle_t h = vt_phys(2 * K64);
	ck_assert_int_eq(zt.vmem.pfnMap(NULL, p, K64, h, 0, RW),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.vmem.pfnMap((void *)junk, p, K64, h, 0, RW),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, p, K64, NULL, 0, RW),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, NULL, K64, h, 0, RW),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, p, K64, h, 0,
					(ze_memory_access_attribute_t)3),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, p, 0, h, 0, RW),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, p, 4096, h, 0, RW),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, p + 4096, K64, h, 0, RW),
			 ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, p, K64, h, 4096, RW),
			 ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
	/* Past the end of the object. */
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, p, K64, h, 2 * K64, RW),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, p, 2 * K64, h, K64, RW),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, p, 4 * K64, h, 0, RW),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	size_t far = SIZE_MAX & ~(K64 - 1);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, p, K64, h, far, RW),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* Outside a reservation, or across its end. */
	void *m = mmap(NULL, 2 * K64, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	ck_assert(m != MAP_FAILED);
	char *ma = (char *)(((uintptr_t)m + K64 - 1) & ~(K64 - 1));
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, ma, K64, h, 0, RW),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	munmap(m, 2 * K64);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, p + 3 * K64, 2 * K64, h, 0, RW),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* Forged and destroyed objects. */
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, p, K64, (void *)junk, 0, RW),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ze_physical_mem_handle_t dead = vt_phys(K64);
	vt_phys_destroy(dead);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, p, K64, dead, 0, RW),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* Over an existing mapping, whole or in part. */
	vt_map(p + K64, 2 * K64, h, 0, RW);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, p + K64, 2 * K64, h, 0, RW),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, p, 2 * K64, h, 0, RW),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, p + 2 * K64, 2 * K64, h, 0,
					RW),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* Nothing changed by the failures. */
	vt_assert_access(p, 4 * K64, NOACC, K64);
	vt_assert_access(p + K64, 3 * K64, RW, 2 * K64);
	vt_assert_access(p + 3 * K64, K64, NOACC, K64);
	/* Objects and reservations of other contexts. */
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_context_handle_t c2;
	ck_assert_int_eq(zt.context.pfnCreate(zt.drv, &cd, &c2),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.vmem.pfnMap(c2, p, K64, h, 0, RW),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ze_physical_mem_handle_t h2 = vt_phys_on(c2, zt.dev, 0, K64);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, p, K64, h2, 0, RW),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.context.pfnDestroy(c2), ZE_RESULT_SUCCESS);
	vt_unmap(p + K64, 2 * K64);
	vt_phys_destroy(h);
	vt_free(p, 4 * K64);
}
END_TEST

START_TEST(test_zeVirtualMemUnmap_errors)
{
	char *p = vt_reserve(4 * K64);
	ze_physical_mem_handle_t h = vt_phys(2 * K64);
	vt_map(p + K64, 2 * K64, h, 0, RW);
	ck_assert_int_eq(zt.vmem.pfnUnmap(NULL, p + K64, 2 * K64),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.vmem.pfnUnmap((void *)junk, p + K64, 2 * K64),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, NULL, 2 * K64),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, p + K64, 0),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, p + K64, 100),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, p + K64 + 8, 2 * K64),
			 ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
	/* Across the end, cutting the mapping. */
	ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, p + 3 * K64, 2 * K64),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, p + K64, K64),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, p + 2 * K64, 2 * K64),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* A split by access attributes is not a mapping boundary. */
	ck_assert_int_eq(zt.vmem.pfnSetAccessAttribute(zt.ctx, p + 2 * K64,
						       K64, RO),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, p + 2 * K64, K64),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_access(p + K64, 2 * K64, RW, K64);
	/* The whole reservation holds the whole mapping plus free pages. */
	vt_unmap(p, 4 * K64);
	vt_assert_access(p, 4 * K64, NOACC, 4 * K64);
	vt_phys_destroy(h);
	vt_free(p, 4 * K64);
}
END_TEST

/* A range with nothing mapped in it (a second unmap, say) succeeds and
 * changes nothing, as Intel's driver answers; Intel's conformance suite
 * unmaps the first window of a reservation twice. Outside any
 * reservation it is still refused. */
START_TEST(test_zeVirtualMemUnmap_nothing_mapped_succeeds)
{
	char *p = vt_reserve(4 * K64);
	ze_physical_mem_handle_t h = vt_phys(2 * K64);
	vt_map(p + K64, K64, h, 0, RW);
	vt_map(p + 2 * K64, K64, h, K64, RW);
	p[K64] = 'a';
	p[2 * K64] = 'b';
	/* Never mapped. */
	ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, p, K64), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, p + 3 * K64, K64),
			 ZE_RESULT_SUCCESS);
	/* Unmapped once, then again. */
	ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, p + K64, K64),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, p + K64, K64),
			 ZE_RESULT_SUCCESS);
	/* The other mapping is untouched. */
	vt_assert_access(p, 4 * K64, NOACC, 2 * K64);
	vt_assert_access(p + 2 * K64, 2 * K64, RW, K64);
	ck_assert_int_eq(p[2 * K64], 'b');
	ck_assert_int_eq(vt_child_access(p + K64, VT_READ), SIGSEGV);
	/* Not in a reservation: refused. */
	void *m = mmap(NULL, 2 * K64, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	ck_assert(m != MAP_FAILED);
	char *ma = (char *)(((uintptr_t)m + K64 - 1) & ~(K64 - 1));
	ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, ma, K64),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	munmap(m, 2 * K64);
	vt_unmap(p + 2 * K64, K64);
	ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, p, 4 * K64),
			 ZE_RESULT_SUCCESS);
	vt_phys_destroy(h);
	vt_free(p, 4 * K64);
}
END_TEST

/* A physical object maps in windows of the page size the window's size
 * gets from zeVirtualMemQueryPageSize: Intel's conformance suite maps a
 * 1 MiB window (page size 64 KiB) of a 2 MiB device object (page size
 * 2 MiB) at offsets 0 and 1 MiB, and each window keeps its own data. */
START_TEST(test_map_window_of_a_larger_object)
{
	const size_t M1 = M2 / 2;
	size_t ps = 0;
	ck_assert_int_eq(zt.vmem.pfnQueryPageSize(zt.ctx, zt.dev, M1, &ps),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(ps, K64);
	ze_physical_mem_handle_t h = vt_phys(M2);
	char *p = vt_reserve(M1);
	vt_map(p, M1, h, 0, RW);
	memset(p, 0xaa, M1);
	vt_unmap(p, M1);
	vt_map(p, M1, h, M1, RW);
	memset(p, 0xbb, M1);
	vt_unmap(p, M1);
	vt_map(p, M1, h, 0, RO);
	for (size_t i = 0; i < M1; i += 4096)
		ck_assert_uint_eq((unsigned char)p[i], 0xaa);
	vt_unmap(p, M1);
	/* Any 64 KiB-aligned offset, and a 64 KiB window at a 64 KiB
	 * address inside a larger reservation. */
	vt_map(p, M1, h, 3 * K64, RO);
	ck_assert_uint_eq((unsigned char)p[0], 0xaa);
	ck_assert_uint_eq((unsigned char)p[M1 - 3 * K64], 0xbb);
	vt_unmap(p, M1);
	vt_map(p + 5 * K64, K64, h, M2 - K64, RO);
	ck_assert_uint_eq((unsigned char)p[5 * K64], 0xbb);
	vt_unmap(p + 5 * K64, K64);
	/* Below the window's page size: refused. */
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, p, M1, h, 4096, RW),
			 ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, p + 4096, K64, h, 0, RW),
			 ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, p, K64 + 4096, h, 0, RW),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	vt_free(p, M1);
	/* A 2 MiB window has a 2 MiB page: a 64 KiB offset is refused. */
	ze_physical_mem_handle_t big = vt_phys(2 * M2);
	char *q = vt_reserve(M2);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, q, M2, big, K64, RW),
			 ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
	vt_map(q, M2, big, M2, RW);
	vt_unmap(q, M2);
	vt_free(q, M2);
	vt_phys_destroy(big);
	vt_phys_destroy(h);
}
END_TEST

START_TEST(test_map_unmap_sequence_keeps_data)
{
	char *p = vt_reserve(2 * M2);
	ze_physical_mem_handle_t h = vt_phys(M2);
	vt_map(p + M2, M2, h, 0, RW);
	for (size_t i = 0; i < M2; i += 4096)
		p[M2 + i] = (char)(i >> 12);
	vt_assert_access(p, 2 * M2, NOACC, M2);
	vt_assert_access(p + M2, M2, RW, M2);
	vt_unmap(p + M2, M2);
	ck_assert_int_eq(vt_child_access(p + M2, VT_READ), SIGSEGV);
	/* The object keeps its pages: map it elsewhere and read them. */
	vt_map(p, M2, h, 0, RO);
	for (size_t i = 0; i < M2; i += 4096)
		ck_assert_int_eq(p[i], (char)(i >> 12));
	vt_unmap(p, M2);
	vt_phys_destroy(h);
	vt_free(p, 2 * M2);
}
END_TEST

START_TEST(test_alias_one_object_at_two_addresses)
{
	ze_physical_mem_handle_t h = vt_phys(4 * K64);
	char *a = vt_reserve(4 * K64), *b = vt_reserve(M2);
	vt_map(a, 4 * K64, h, 0, RW);
	vt_map(b + 8 * K64, 4 * K64, h, 0, RW);
	vt_map(b, 2 * K64, h, 2 * K64, RW); /* part of it, a third time */
	strcpy(a + 100, "written through a");
	ck_assert_str_eq(b + 8 * K64 + 100, "written through a");
	strcpy(b + 8 * K64 + 3 * K64, "written through b");
	ck_assert_str_eq(a + 3 * K64, "written through b");
	ck_assert_str_eq(b + K64, "written through b");
	b[5] = 'x';
	ck_assert_int_eq(a[2 * K64 + 5], 'x');
	vt_unmap(b, 2 * K64);
	vt_free(b, M2); /* frees with a live mapping: unmapped */
	ck_assert_str_eq(a + 100, "written through a");
	vt_unmap(a, 4 * K64);
	vt_free(a, 4 * K64);
	vt_phys_destroy(h);
}
END_TEST

START_TEST(test_free_with_live_mappings_unmaps)
{
	ze_physical_mem_handle_t h = vt_phys(M2);
	char *p = vt_reserve(4 * M2);
	vt_map(p, M2, h, 0, RW);
	vt_map(p + 2 * M2, M2, h, 0, RO);
	ck_assert_int_eq(zt.pmem.pfnDestroy(zt.ctx, h),
			 ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
	p[7] = 7;
	vt_free(p, 4 * M2);
	ck_assert(!vt_mapped(p, 4 * M2));
	/* The object survived (the spec: Free does not destroy it) and is
	 * no longer in use. */
	char *q = vt_reserve(M2);
	vt_map(q, M2, h, 0, RO);
	ck_assert_int_eq(q[7], 7);
	vt_free(q, M2);
	vt_phys_destroy(h);
}
END_TEST

static Suite *
vmm_suite(void)
{
	Suite *s = suite_create("vmm");
	TCase *tc = tcase_create("vmm");
	tcase_add_checked_fixture(tc, vt_checked_setup, vt_checked_teardown);
	tcase_add_test(tc, test_getters_fill_by_version);
	tcase_add_test(tc, test_zeVirtualMemQueryPageSize_errors);
	tcase_add_test(tc, test_zeVirtualMemQueryPageSize_rule);
	tcase_add_test(tc, test_zeVirtualMemReserve_errors);
	tcase_add_test(tc, test_zeVirtualMemReserve_aligned_and_inaccessible);
	tcase_add_test(tc, test_zeVirtualMemReserve_hint);
	tcase_add_test(tc, test_zeVirtualMemFree_errors);
	tcase_add_test(tc, test_zePhysicalMemCreate_errors);
	tcase_add_test(tc, test_zePhysicalMemDestroy_errors);
	tcase_add_test(tc, test_zePhysicalMemGetProperties);
	tcase_add_test(tc, test_zePhysicalMemCreate_host);
	tcase_add_test(tc, test_zeVirtualMemMap_errors);
	tcase_add_test(tc, test_zeVirtualMemUnmap_errors);
	tcase_add_test(tc, test_zeVirtualMemUnmap_nothing_mapped_succeeds);
	tcase_add_test(tc, test_map_window_of_a_larger_object);
	tcase_add_test(tc, test_map_unmap_sequence_keeps_data);
	tcase_add_test(tc, test_alias_one_object_at_two_addresses);
	tcase_add_test(tc, test_free_with_live_mappings_unmaps);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return check_run(vmm_suite(), CK_NORMAL, false);
}
