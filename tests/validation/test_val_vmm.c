// SPDX-License-Identifier: MIT
/*
 * test_val_vmm: the validation layer's virtual and physical memory checks:
 * one deliberate bug per check (page-aligned sizes, addresses and offsets,
 * access enum; unmap of an unmapped range, free of a reservation with live
 * mappings, physical memory destroyed while mapped or used after destroy,
 * double free of a reservation), then a clean VMM workload with zero
 * findings.
 *
 * Needs the driver's VMM entry points; without them the whole program is
 * skipped (exit 77, the reason printed).
 */
#include "val_chain.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static struct vc c;
static size_t page;   /* page size for one page-sized object */

static void
setup(const char *switches)
{
	vt_setup(&c, switches);
	ck_assert_int_eq(c.api.zeVirtualMemQueryPageSize(c.ctx, c.dev, 1,
							 &page),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_gt(page, 0);
}

static void *
reserve(size_t size)
{
	void *p = NULL;
	ck_assert_int_eq(c.api.zeVirtualMemReserve(c.ctx, NULL, size, &p),
			 ZE_RESULT_SUCCESS);
	return p;
}

static ze_physical_mem_handle_t
physical(size_t size)
{
	ze_physical_mem_desc_t d = {
		ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, NULL, 0, size
	};
	ze_physical_mem_handle_t pm = NULL;
	ck_assert_int_eq(c.api.zePhysicalMemCreate(c.ctx, c.dev, &d, &pm),
			 ZE_RESULT_SUCCESS);
	return pm;
}

static void
map(void *va, size_t size, ze_physical_mem_handle_t pm, size_t offset)
{
	ck_assert_int_eq(c.api.zeVirtualMemMap(c.ctx, va, size, pm, offset,
					       ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
			 ZE_RESULT_SUCCESS);
}

START_TEST(test_vmm_reserve_size_not_page_aligned)
{
	setup("p");
	void *p = NULL;
	ck_assert_int_eq(c.api.zeVirtualMemReserve(c.ctx, NULL, page + 1, &p),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	vt_assert_finding("parameter: zeVirtualMemReserve(",
			  "is not a multiple of the page size",
			  "-> ZE_RESULT_ERROR_UNSUPPORTED_SIZE", NULL);
	vt_assert_findings(1);
}
END_TEST

START_TEST(test_vmm_map_not_page_aligned)
{
	setup("p");
	char *va = reserve(4 * page);
	ze_physical_mem_handle_t pm = physical(2 * page);
	ze_memory_access_attribute_t rw = ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE;
	ck_assert_int_eq(c.api.zeVirtualMemMap(c.ctx, va, page, pm, 512, rw),
			 ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
	ck_assert_int_eq(c.api.zeVirtualMemMap(c.ctx, va + 4096, page, pm, 0,
					       rw),
			 page > 4096 ? ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT
				     : ZE_RESULT_SUCCESS);
	ck_assert_int_eq(c.api.zeVirtualMemMap(c.ctx, va, page + 4096, pm, 0,
					       rw),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	ck_assert_int_eq(c.api.zeVirtualMemMap(c.ctx, va, 4 * page, pm, 0, rw),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	ck_assert_int_eq(c.api.zeVirtualMemMap(c.ctx, va, page, pm, 0,
					       (ze_memory_access_attribute_t)7),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	vt_assert_finding("parameter: zeVirtualMemMap(", "offset=512",
			  "offset 512 is not a multiple of the page size",
			  "-> ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT", NULL);
	vt_assert_finding("zeVirtualMemMap(", "is not a multiple of the page "
			  "size", "-> ZE_RESULT_ERROR_UNSUPPORTED_SIZE", NULL);
	vt_assert_finding("zeVirtualMemMap(", "exceed the physical memory "
			  "object's", NULL);
	vt_assert_finding("zeVirtualMemMap(", "access 7 is not a "
			  "ze_memory_access_attribute_t",
			  "-> ZE_RESULT_ERROR_INVALID_ENUMERATION", NULL);
}
END_TEST

START_TEST(test_vmm_physical_size_not_page_aligned)
{
	setup("p");
	ze_physical_mem_desc_t d = {
		ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, NULL, 0, page + 64
	};
	ze_physical_mem_handle_t pm = NULL;
	ck_assert_int_eq(c.api.zePhysicalMemCreate(c.ctx, c.dev, &d, &pm),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	d.size = page;
	d.flags = 0x8;
	ck_assert_int_eq(c.api.zePhysicalMemCreate(c.ctx, c.dev, &d, &pm),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	vt_assert_finding("parameter: zePhysicalMemCreate(",
			  "is not a multiple of the page size",
			  "-> ZE_RESULT_ERROR_UNSUPPORTED_SIZE", NULL);
	vt_assert_finding("zePhysicalMemCreate(", "desc->flags 0x8", NULL);
	vt_assert_findings(2);
}
END_TEST

START_TEST(test_vmm_unmap_unmapped_range)
{
	setup("l");
	char *va = reserve(4 * page);
	ze_physical_mem_handle_t pm = physical(page);
	map(va, page, pm, 0);
	map(va + 2 * page, page, pm, 0);
	/* Reported, and passed on: the driver unmaps what is there and
	 * succeeds (Intel's does; its conformance suite unmaps a range
	 * twice). */
	ck_assert_int_eq(c.api.zeVirtualMemUnmap(c.ctx, va, 2 * page),
			 ZE_RESULT_SUCCESS);
	char want[128];
	snprintf(want, sizeof(want), "%zu of the %zu bytes at %p are not "
		 "mapped", page, 2 * page, (void *)va);
	vt_assert_finding("lifetime: zeVirtualMemUnmap(",
			  "unmap of an unmapped range", want,
			  "-> ZE_RESULT_SUCCESS (from the driver)", NULL);
	ck_assert_int_eq(c.api.zeVirtualMemUnmap(c.ctx, va, page),
			 ZE_RESULT_SUCCESS);
	vt_assert_finding("zeVirtualMemUnmap(", "unmap of an unmapped range",
			  "last mapping there: virtual mapping",
			  "released by zeVirtualMemUnmap",
			  "-> ZE_RESULT_SUCCESS (from the driver)", NULL);
	vt_assert_findings(2);
	/* The other mapping was not touched, and goes away without a
	 * finding. */
	va[2 * page] = 1;
	ck_assert_int_eq(c.api.zeVirtualMemUnmap(c.ctx, va + 2 * page, page),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(c.api.zePhysicalMemDestroy(c.ctx, pm), 0);
	ck_assert_int_eq(c.api.zeVirtualMemFree(c.ctx, va, 4 * page), 0);
	vt_assert_findings(2);
}
END_TEST

/* zeVirtualMemQueryPageSize with size 0: reported, passed on (drivers
 * answer the smallest page size; Intel's conformance suite asks it). */
START_TEST(test_vmm_query_page_size_zero)
{
	setup("p");
	size_t ps = 0;
	ck_assert_int_eq(c.api.zeVirtualMemQueryPageSize(c.ctx, c.dev, 0, &ps),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(ps, page);
	vt_assert_finding("parameter: zeVirtualMemQueryPageSize(", "size=0",
			  "size is 0", "-> ZE_RESULT_SUCCESS (from the driver)",
			  NULL);
	ck_assert_int_eq(c.api.zeVirtualMemQueryPageSize(c.ctx, c.dev, 0,
							 NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	vt_assert_finding("zeVirtualMemQueryPageSize(", "pagesize is NULL",
			  NULL);
	vt_assert_findings(2);
}
END_TEST

/* A window of a larger physical object maps at the window's page size:
 * a 1 MiB window (page size 64 KiB) of a 2 MiB object (2 MiB) at a
 * 64 KiB-aligned offset, as Intel's conformance suite does. */
START_TEST(test_vmm_map_window_of_larger_object)
{
	setup("plk");
	size_t m1 = (size_t)1 << 20, w = 0, big = 0;
	ck_assert_int_eq(c.api.zeVirtualMemQueryPageSize(c.ctx, c.dev, m1,
							 &w), 0);
	ck_assert_int_eq(c.api.zeVirtualMemQueryPageSize(c.ctx, c.dev, 2 * m1,
							 &big), 0);
	if (w >= big) {
		printf("SKIP: the driver's page size for 1 MiB (%zu) is not "
		       "below that for 2 MiB (%zu)\n", w, big);
		return;
	}
	char *va = reserve(m1);
	ze_physical_mem_handle_t pm = physical(2 * m1);
	map(va, m1, pm, 0);
	ck_assert_int_eq(c.api.zeVirtualMemUnmap(c.ctx, va, m1), 0);
	map(va, m1, pm, m1);
	ck_assert_int_eq(c.api.zeVirtualMemUnmap(c.ctx, va, m1), 0);
	map(va, m1, pm, w);
	ck_assert_int_eq(c.api.zeVirtualMemUnmap(c.ctx, va, m1), 0);
	/* Below the window's page size: still a finding. */
	ck_assert_int_eq(c.api.zeVirtualMemMap(c.ctx, va, m1, pm, w / 2,
					       ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
			 ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
	vt_assert_finding("parameter: zeVirtualMemMap(", "is not a multiple of "
			  "the page size", NULL);
	ck_assert_int_eq(c.api.zePhysicalMemDestroy(c.ctx, pm), 0);
	ck_assert_int_eq(c.api.zeVirtualMemFree(c.ctx, va, m1), 0);
	vt_assert_findings(1);
}
END_TEST

START_TEST(test_vmm_free_reservation_with_mappings)
{
	setup("l");
	char *va = reserve(2 * page);
	ze_physical_mem_handle_t pm = physical(page);
	map(va + page, page, pm, 0);
	ck_assert_int_eq(c.api.zeVirtualMemFree(c.ctx, va, 2 * page),
			 ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
	vt_assert_finding("lifetime: zeVirtualMemFree(",
			  "free of a reservation with live mappings",
			  "virtual mapping",
			  "-> ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE", NULL);
	ck_assert_int_eq(c.api.zeVirtualMemUnmap(c.ctx, va + page, page), 0);
	ck_assert_int_eq(c.api.zeVirtualMemFree(c.ctx, va, 2 * page), 0);
	ck_assert_int_eq(c.api.zeVirtualMemFree(c.ctx, va, 2 * page),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("zeVirtualMemFree(", "double free of a virtual "
			  "range", "released by zeVirtualMemFree", NULL);
	vt_assert_findings(2);
}
END_TEST

START_TEST(test_vmm_destroy_mapped_physical)
{
	setup("l");
	char *va = reserve(2 * page);
	ze_physical_mem_handle_t pm = physical(2 * page);
	map(va, page, pm, page);
	ck_assert_int_eq(c.api.zePhysicalMemDestroy(c.ctx, pm),
			 ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
	vt_assert_finding("lifetime: zePhysicalMemDestroy(",
			  "physical memory object destroyed while mapped: 1 "
			  "mapping(s)",
			  "-> ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE", NULL);
	ck_assert_int_eq(c.api.zeVirtualMemUnmap(c.ctx, va, page), 0);
	ck_assert_int_eq(c.api.zePhysicalMemDestroy(c.ctx, pm), 0);
	vt_assert_findings(1);
}
END_TEST

START_TEST(test_vmm_use_destroyed_physical)
{
	setup("l");
	char *va = reserve(page);
	ze_physical_mem_handle_t pm = physical(page);
	ck_assert_int_eq(c.api.zePhysicalMemDestroy(c.ctx, pm), 0);
	ck_assert_int_eq(c.api.zeVirtualMemMap(c.ctx, va, page, pm, 0,
					       ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	vt_assert_finding("lifetime: zeVirtualMemMap(",
			  "use of destroyed physical memory object "
			  "hPhysicalMemory", "created by zePhysicalMemCreate",
			  "destroyed by zePhysicalMemDestroy", NULL);
}
END_TEST

START_TEST(test_vmm_clean_workload)
{
	setup("plk");
	size_t big = 0;
	ck_assert_int_eq(c.api.zeVirtualMemQueryPageSize(c.ctx, c.dev, 8 * page,
							 &big), 0);
	char *va = reserve(8 * page);
	ze_physical_mem_handle_t a = physical(4 * page), b = physical(page);
	map(va, 4 * page, a, 0);
	map(va + 4 * page, page, b, 0);
	map(va + 6 * page, page, a, page);
	memset(va, 0x11, 5 * page);
	/* One unmap over two adjacent mappings, then the third. (zemem's
	 * driver unmaps whole mappings only.) */
	ck_assert_int_eq(c.api.zeVirtualMemUnmap(c.ctx, va, 5 * page), 0);
	ck_assert_int_eq(c.api.zeVirtualMemUnmap(c.ctx, va + 6 * page, page),
			 0);
	ck_assert_int_eq(c.api.zePhysicalMemDestroy(c.ctx, a), 0);
	ck_assert_int_eq(c.api.zePhysicalMemDestroy(c.ctx, b), 0);
	ck_assert_int_eq(c.api.zeVirtualMemFree(c.ctx, va, 8 * page), 0);
	/* Remap the same addresses: no stale records get in the way. */
	va = reserve(2 * page);
	a = physical(2 * page);
	map(va, 2 * page, a, 0);
	ck_assert_int_eq(c.api.zeVirtualMemUnmap(c.ctx, va, 2 * page), 0);
	ck_assert_int_eq(c.api.zePhysicalMemDestroy(c.ctx, a), 0);
	ck_assert_int_eq(c.api.zeVirtualMemFree(c.ctx, va, 2 * page), 0);
	vt_assert_findings(0);
}
END_TEST

static int
vmm_available(void)
{
	struct vc d;
	if (vc_load_chain(&d, ZE_API_VERSION_CURRENT, NULL, NULL) ||
	    vc_open(&d)) {
		printf("SKIP: the driver cannot be loaded\n");
		return 0;
	}
	if (!d.api.zeVirtualMemReserve || !d.api.zeVirtualMemFree ||
	    !d.api.zeVirtualMemMap || !d.api.zeVirtualMemUnmap ||
	    !d.api.zeVirtualMemQueryPageSize || !d.api.zePhysicalMemCreate ||
	    !d.api.zePhysicalMemDestroy) {
		printf("SKIP: the driver does not implement the VMM entry "
		       "points yet\n");
		return 0;
	}
	return 1;
}

static Suite *
suite(void)
{
	Suite *s = suite_create("validation-vmm");
	TCase *t = tcase_create("checks");
	tcase_add_test(t, test_vmm_reserve_size_not_page_aligned);
	tcase_add_test(t, test_vmm_map_not_page_aligned);
	tcase_add_test(t, test_vmm_physical_size_not_page_aligned);
	tcase_add_test(t, test_vmm_unmap_unmapped_range);
	tcase_add_test(t, test_vmm_query_page_size_zero);
	tcase_add_test(t, test_vmm_map_window_of_larger_object);
	tcase_add_test(t, test_vmm_free_reservation_with_mappings);
	tcase_add_test(t, test_vmm_destroy_mapped_physical);
	tcase_add_test(t, test_vmm_use_destroyed_physical);
	suite_add_tcase(s, t);
	t = tcase_create("workload");
	tcase_add_test(t, test_vmm_clean_workload);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	return vt_run_if(vmm_available, suite);
}
