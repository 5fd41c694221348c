// SPDX-License-Identifier: MIT
/*
 * test_val_out: the validation layer's checks of OUTPUT pNext chains (the
 * structures a call fills in: allocation, driver, device and memory
 * properties...). A junk chain (an element in unmapped, read-only or
 * misaligned memory, a loop, a chain too long) is refused with
 * ZE_RESULT_ERROR_INVALID_ARGUMENT before the driver walks it (the driver
 * would crash on it: each test runs in check's forked child, so a crash
 * fails the test); an element of unknown stype is reported and the call
 * goes ahead; known extensions pass untouched.
 */
#include "check_run.h"
#include "val_chain.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static struct vc c;
static const ze_host_mem_alloc_desc_t hd = {
	ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0
};

/* A page nobody can read: one PROT_NONE page, reserved for the life of
 * the process. (A page just unmapped is not enough: any mapping made
 * before the call, ASan's allocator's or the driver's, may land on it and
 * make it readable.) */
static void *
hole(void)
{
	static void *p;
	if (!p) {
		p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		ck_assert(p != MAP_FAILED);
	}
	return p;
}

static void *
alloc_host(void)
{
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, &hd, 64, 0, &p), 0);
	return p;
}

static ze_memory_allocation_properties_t
alloc_props(void *next)
{
	ze_memory_allocation_properties_t mp = {
		ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, next, 0, 0, 0
	};
	return mp;
}

START_TEST(test_alloc_props_unmapped_element)
{
	vt_setup(&c, "p");
	void *p = alloc_host();
	ze_memory_allocation_properties_t mp = alloc_props(hole());
	ck_assert_int_eq(c.api.zeMemGetAllocProperties(c.ctx, p, &mp, NULL),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("parameter: zeMemGetAllocProperties(",
			  "the pNext chain of pMemAllocProperties is junk: "
			  "element 1", "is not readable memory",
			  "not passed to the driver",
			  "-> ZE_RESULT_ERROR_INVALID_ARGUMENT", NULL);
	/* Further down the chain: a valid element pointing at a hole. */
	ze_memory_sub_allocations_exp_properties_t sub = {
		ZE_STRUCTURE_TYPE_MEMORY_SUB_ALLOCATIONS_EXP_PROPERTIES, hole(),
		NULL, NULL
	};
	mp = alloc_props(&sub);
	ck_assert_int_eq(c.api.zeMemGetAllocProperties(c.ctx, p, &mp, NULL),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("zeMemGetAllocProperties(", "element 2",
			  "is not readable memory", NULL);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), 0);
	vt_assert_findings(2);
}
END_TEST

START_TEST(test_alloc_props_loop_read_only_misaligned_too_long)
{
	vt_setup(&c, "p");
	void *p = alloc_host();
	/* a -> b -> a: the driver would walk it for ever. */
	ze_base_properties_t a = { ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD,
				   NULL };
	ze_base_properties_t b = {
		ZE_STRUCTURE_TYPE_MEMORY_SUB_ALLOCATIONS_EXP_PROPERTIES, &a
	};
	a.pNext = &b;
	ze_memory_allocation_properties_t mp = alloc_props(&a);
	ck_assert_int_eq(c.api.zeMemGetAllocProperties(c.ctx, p, &mp, NULL),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("zeMemGetAllocProperties(", "element 3",
			  "is element 1 again: the chain loops", NULL);
	/* Read-only memory, which the driver would write. */
	long os = sysconf(_SC_PAGESIZE);
	ze_base_properties_t *ro = mmap(NULL, (size_t)os,
					PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert(ro != MAP_FAILED);
	ro->stype = ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD;
	ck_assert_int_eq(mprotect(ro, (size_t)os, PROT_READ), 0);
	mp = alloc_props(ro);
	ck_assert_int_eq(c.api.zeMemGetAllocProperties(c.ctx, p, &mp, NULL),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("zeMemGetAllocProperties(", "element 1",
			  "is read-only memory", NULL);
	ck_assert_int_eq(munmap(ro, (size_t)os), 0);
	/* Misaligned. */
	static char buf[64] __attribute__((aligned(8)));
	mp = alloc_props(buf + 1);
	ck_assert_int_eq(c.api.zeMemGetAllocProperties(c.ctx, p, &mp, NULL),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("zeMemGetAllocProperties(", "is not aligned", NULL);
	/* 40 distinct elements: past what the layer walks. */
	static ze_base_properties_t many[40];
	for (int i = 0; i < 40; i++) {
		many[i].stype = ZE_STRUCTURE_TYPE_DEVICE_LUID_EXT_PROPERTIES;
		many[i].pNext = i < 39 ? &many[i + 1] : NULL;
	}
	mp = alloc_props(&many[0]);
	ck_assert_int_eq(c.api.zeMemGetAllocProperties(c.ctx, p, &mp, NULL),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("zeMemGetAllocProperties(", "element 33",
			  "is past the 32 elements", NULL);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), 0);
	vt_assert_findings(4);
}
END_TEST

/* An element of unknown stype in good memory: reported, the call goes
 * ahead, and what the driver knows in the chain is filled in. */
START_TEST(test_alloc_props_unknown_stype_reported)
{
	vt_setup(&c, "plk");
	void *p = alloc_host();
	uint32_t count = 0;
	ze_memory_sub_allocations_exp_properties_t sub = {
		ZE_STRUCTURE_TYPE_MEMORY_SUB_ALLOCATIONS_EXP_PROPERTIES, NULL,
		&count, NULL
	};
	ze_base_properties_t odd = { (ze_structure_type_t)0x7fff0001, &sub };
	ze_memory_allocation_properties_t mp = alloc_props(&odd);
	ck_assert_int_eq(c.api.zeMemGetAllocProperties(c.ctx, p, &mp, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(mp.type, ZE_MEMORY_TYPE_HOST);
	ck_assert_uint_eq(count, 1);
	vt_assert_finding("parameter: zeMemGetAllocProperties(",
			  "unknown stype 0x7fff0001 at position 1 of the "
			  "pMemAllocProperties pNext chain",
			  "-> ZE_RESULT_SUCCESS (from the driver)", NULL);
	/* Known extensions alone: no finding. */
	count = 0;
	mp = alloc_props(&sub);
	ck_assert_int_eq(c.api.zeMemGetAllocProperties(c.ctx, p, &mp, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(count, 1);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), 0);
	vt_assert_findings(1);
}
END_TEST

/* Every other call that fills a caller's struct: one struct, an array of
 * them (pCount), the driver's properties. */
START_TEST(test_other_output_structs)
{
	vt_setup(&c, "p");
	ze_device_properties_t dp = { ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES,
				      hole() };
	ck_assert_int_eq(c.api.zeDeviceGetProperties(c.dev, &dp),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("parameter: zeDeviceGetProperties(",
			  "the pNext chain of pDeviceProperties is junk",
			  "is not readable memory", NULL);
	ze_device_memory_access_properties_t ap = {
		ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES, hole()
	};
	ck_assert_int_eq(c.api.zeDeviceGetMemoryAccessProperties(c.dev, &ap),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("zeDeviceGetMemoryAccessProperties(",
			  "pMemAccessProperties is junk", NULL);
	/* An array: element [1]'s chain is junk. */
	uint32_t n = 0;
	ck_assert_int_eq(c.api.zeDeviceGetCacheProperties(c.dev, &n, NULL), 0);
	ck_assert_uint_gt(n, 0);
	ze_device_memory_properties_t mem[2] = {
		{ ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES, NULL },
		{ ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES, hole() },
	};
	n = 2;
	ck_assert_int_eq(c.api.zeDeviceGetMemoryProperties(c.dev, &n, mem),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("zeDeviceGetMemoryProperties(",
			  "the pNext chain of pMemProperties[1] is junk", NULL);
	/* Unknown stypes: reported, passed on; a known one fills in. */
	ze_base_properties_t odd = { (ze_structure_type_t)0x7fff0002, NULL };
	mem[1].pNext = &odd;
	n = 2;
	ck_assert_int_eq(c.api.zeDeviceGetMemoryProperties(c.dev, &n, mem),
			 ZE_RESULT_SUCCESS);
	vt_assert_finding("zeDeviceGetMemoryProperties(",
			  "unknown stype 0x7fff0002 at position 1 of the "
			  "pMemProperties[1] pNext chain",
			  "(from the driver)", NULL);
	ze_driver_memory_free_ext_properties_t fp = {
		ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES, NULL, 0
	};
	ze_driver_properties_t drvp = { ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES,
					&fp };
	ck_assert_int_eq(c.api.zeDriverGetProperties(c.drv, &drvp),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_ne(fp.freePolicies, 0);
	fp.pNext = hole();
	ck_assert_int_eq(c.api.zeDriverGetProperties(c.drv, &drvp),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("zeDriverGetProperties(", "pDriverProperties is "
			  "junk: element 2", NULL);
	vt_assert_findings(5);
}
END_TEST

/* Without parameter validation the layer does not walk chains. */
START_TEST(test_no_walk_without_parameter_validation)
{
	vt_setup(&c, "l");
	void *p = alloc_host();
	ze_base_properties_t odd = { (ze_structure_type_t)0x7fff0003, NULL };
	ze_memory_allocation_properties_t mp = alloc_props(&odd);
	ck_assert_int_eq(c.api.zeMemGetAllocProperties(c.ctx, p, &mp, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), 0);
	vt_assert_findings(0);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("validation-out");
	TCase *t = tcase_create("out");
	tcase_add_test(t, test_alloc_props_unmapped_element);
	tcase_add_test(t, test_alloc_props_loop_read_only_misaligned_too_long);
	tcase_add_test(t, test_alloc_props_unknown_stype_reported);
	tcase_add_test(t, test_other_output_structs);
	tcase_add_test(t, test_no_walk_without_parameter_validation);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	return check_run(suite(), CK_NORMAL, false);
}
