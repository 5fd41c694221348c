// SPDX-License-Identifier: MIT
/*
 * test_val_params: one deliberate bug per parameter check of the
 * validation layer (ZE_ENABLE_PARAMETER_VALIDATION=1), each asserting the
 * result code, the finding's text, and that the call never reached the
 * driver; then the getters' contract (version-gated fields, NULL slots,
 * no switches = no wrapping) and the driver-bug check on returned
 * alignment.
 *
 * Each test runs in check's forked child and loads the layer itself
 * (vt_setup), so its switches and its log file are its own.
 */
#include "check_run.h"
#include "val_chain.h"

#include <check.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

static struct vc c;
static const ze_host_mem_alloc_desc_t hd = {
	ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0
};
static const ze_device_mem_alloc_desc_t dd = {
	ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0
};

START_TEST(test_alloc_host_null_context)
{
	vt_setup(&c, "p");
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(NULL, &hd, 64, 0, &p),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	vt_assert_finding("parameter: zeMemAllocHost(hContext=(nil), ",
			  "hContext is NULL",
			  "-> ZE_RESULT_ERROR_INVALID_NULL_HANDLE", NULL);
	vt_assert_findings(1);
	ck_assert_int_eq(vt_driver_allocs, 0);
}
END_TEST

START_TEST(test_alloc_host_null_pointers)
{
	vt_setup(&c, "p");
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, NULL, 64, 0, &p),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, &hd, 64, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	vt_assert_finding("zeMemAllocHost(", "host_desc=(nil)",
			  "host_desc is NULL",
			  "-> ZE_RESULT_ERROR_INVALID_NULL_POINTER", NULL);
	vt_assert_finding("zeMemAllocHost(", "pptr is NULL", NULL);
	vt_assert_findings(2);
	ck_assert_int_eq(vt_driver_allocs, 0);
}
END_TEST

START_TEST(test_alloc_device_null_device)
{
	vt_setup(&c, "p");
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocDevice(c.ctx, &dd, 64, 0, NULL, &p),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	vt_assert_finding("parameter: zeMemAllocDevice(", "hDevice is NULL",
			  "-> ZE_RESULT_ERROR_INVALID_NULL_HANDLE", NULL);
}
END_TEST

START_TEST(test_alloc_bad_stype)
{
	vt_setup(&c, "p");
	ze_host_mem_alloc_desc_t bad = hd;
	bad.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, &bad, 64, 0, &p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("parameter: zeMemAllocHost(",
			  "host_desc->stype is 0x15, expected "
			  "ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC",
			  "-> ZE_RESULT_ERROR_INVALID_ARGUMENT", NULL);
	ck_assert_int_eq(vt_driver_allocs, 0);
}
END_TEST

START_TEST(test_alloc_unknown_pnext_stype)
{
	vt_setup(&c, "p");
	ze_base_desc_t ext = { ZE_STRUCTURE_TYPE_FENCE_DESC, NULL };
	ze_device_mem_alloc_desc_t d = dd;
	d.pNext = &ext;
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocDevice(c.ctx, &d, 64, 0, c.dev, &p),
			 ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
	vt_assert_finding("parameter: zeMemAllocDevice(",
			  "unknown stype 0x12 at position 1 of the "
			  "device_desc pNext chain",
			  "-> ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION", NULL);
}
END_TEST

START_TEST(test_alloc_pnext_loop)
{
	vt_setup(&c, "p");
	ze_relaxed_allocation_limits_exp_desc_t a = {
		ZE_STRUCTURE_TYPE_RELAXED_ALLOCATION_LIMITS_EXP_DESC, NULL, 0
	};
	a.pNext = &a;  /* a chain that loops */
	ze_host_mem_alloc_desc_t h = hd;
	h.pNext = &a;
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, &h, 64, 0, &p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("zeMemAllocHost(", "pNext chain is longer than 32",
			  "-> ZE_RESULT_ERROR_INVALID_ARGUMENT", NULL);
}
END_TEST

START_TEST(test_alloc_unknown_flags)
{
	vt_setup(&c, "p");
	ze_device_mem_alloc_desc_t d = dd;
	d.flags = 0x80;
	ze_host_mem_alloc_desc_t h = hd;
	h.flags = 0x100;
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocShared(c.ctx, &d, &hd, 64, 0, NULL,
						&p),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, &h, 64, 0, &p),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	vt_assert_finding("zeMemAllocShared(",
			  "device_desc->flags 0x80 has unknown bits 0x80",
			  "-> ZE_RESULT_ERROR_INVALID_ENUMERATION", NULL);
	vt_assert_finding("zeMemAllocHost(",
			  "host_desc->flags 0x100 has unknown bits 0x100",
			  NULL);
	vt_assert_findings(2);
}
END_TEST

START_TEST(test_alloc_readonly_write_combined)
{
	vt_setup(&c, "p");
	ze_host_mem_alloc_desc_t h = hd;
	h.flags = ZE_HOST_MEM_ALLOC_FLAG_MEM_READ_ONLY |
		  ZE_HOST_MEM_ALLOC_FLAG_BIAS_WRITE_COMBINED;
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, &h, 64, 0, &p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("zeMemAllocHost(", "mutually exclusive",
			  "-> ZE_RESULT_ERROR_INVALID_ARGUMENT", NULL);
}
END_TEST

START_TEST(test_alloc_relaxed_unknown_flags)
{
	vt_setup(&c, "p");
	ze_relaxed_allocation_limits_exp_desc_t r = {
		ZE_STRUCTURE_TYPE_RELAXED_ALLOCATION_LIMITS_EXP_DESC, NULL, 0x6
	};
	ze_device_mem_alloc_desc_t d = dd;
	d.pNext = &r;
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocDevice(c.ctx, &d, 64, 0, c.dev, &p),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	vt_assert_finding("zeMemAllocDevice(",
			  "unknown relaxed-allocation-limits flags 0x6", NULL);
}
END_TEST

START_TEST(test_alloc_size_zero)
{
	vt_setup(&c, "p");
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, &hd, 0, 0, &p),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	vt_assert_finding("parameter: zeMemAllocHost(", "size=0,",
			  "size is 0", "-> ZE_RESULT_ERROR_UNSUPPORTED_SIZE",
			  NULL);
	ck_assert_int_eq(vt_driver_allocs, 0);
}
END_TEST

START_TEST(test_alloc_alignment_not_power_of_two)
{
	vt_setup(&c, "p");
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, &hd, 64, 48, &p),
			 ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
	vt_assert_finding("zeMemAllocHost(", "alignment=48",
			  "alignment 48 is not a power of two",
			  "-> ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT", NULL);
	ck_assert_int_eq(vt_driver_allocs, 0);
}
END_TEST

START_TEST(test_alloc_size_above_max)
{
	setenv("ZEMEM_MAX_ALLOC_SIZE", "1M", 1);
	vt_setup(&c, "p");
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocDevice(c.ctx, &dd, (1 << 20) + 1, 0,
						c.dev, &p),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, &hd, 2 << 20, 0, &p),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	vt_assert_finding("zeMemAllocDevice(",
			  "size 1048577 exceeds maxMemAllocSize 1048576",
			  "-> ZE_RESULT_ERROR_UNSUPPORTED_SIZE", NULL);
	vt_assert_finding("zeMemAllocHost(",
			  "size 2097152 exceeds maxMemAllocSize 1048576", NULL);
	/* With the relaxed-limits descriptor it is allowed. */
	ze_relaxed_allocation_limits_exp_desc_t r = {
		ZE_STRUCTURE_TYPE_RELAXED_ALLOCATION_LIMITS_EXP_DESC, NULL,
		ZE_RELAXED_ALLOCATION_LIMITS_EXP_FLAG_MAX_SIZE
	};
	ze_host_mem_alloc_desc_t h = hd;
	h.pNext = &r;
	ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, &h, 2 << 20, 0, &p),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), ZE_RESULT_SUCCESS);
	vt_assert_findings(2);
}
END_TEST

START_TEST(test_alloc_bad_ordinal)
{
	vt_setup(&c, "p");
	ze_device_mem_alloc_desc_t d = dd;
	d.ordinal = 7;
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocDevice(c.ctx, &d, 64, 0, c.dev, &p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("zeMemAllocDevice(", "device_desc->ordinal 7",
			  "memory ordinal(s)", NULL);
}
END_TEST

START_TEST(test_free_null_pointer)
{
	vt_setup(&c, "p");
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	vt_assert_finding("parameter: zeMemFree(", "ptr=(nil)", "ptr is NULL",
			  "-> ZE_RESULT_ERROR_INVALID_NULL_POINTER", NULL);
	ck_assert_int_eq(vt_driver_frees, 0);
}
END_TEST

START_TEST(test_free_ext_bad_descriptor)
{
	vt_setup(&c, "p");
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, &hd, 64, 0, &p), 0);
	ze_memory_free_ext_desc_t fd = {
		ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, NULL, 0x4
	};
	ck_assert_int_eq(c.api.zeMemFreeExt(c.ctx, &fd, p),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	vt_assert_finding("zeMemFreeExt(", "freePolicy 0x4 has unknown bits",
			  "-> ZE_RESULT_ERROR_INVALID_ENUMERATION", NULL);
	fd.stype = ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC;
	fd.freePolicy = 0;
	ck_assert_int_eq(c.api.zeMemFreeExt(c.ctx, &fd, p), ZE_RESULT_SUCCESS);
	vt_assert_findings(1);
}
END_TEST

/* The descriptor Intel's conformance suite passes (stype
 * ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES): reported, and
 * still passed on, so the memory is freed as the application meant. */
START_TEST(test_free_ext_wrong_stype_reported_and_passed)
{
	vt_setup(&c, "plk");
	void *p = NULL, *q = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, &hd, 64, 0, &p), 0);
	ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, &hd, 64, 0, &q), 0);
	ze_memory_free_ext_desc_t fd = {
		ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES, NULL,
		ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE
	};
	ck_assert_int_eq(c.api.zeMemFreeExt(c.ctx, &fd, p), ZE_RESULT_SUCCESS);
	vt_assert_finding("parameter: zeMemFreeExt(",
			  "pMemFreeDesc->stype is 0x10009 "
			  "(ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES)",
			  "expected ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC",
			  "-> ZE_RESULT_SUCCESS (from the driver)", NULL);
	/* Freed for real: the layer saw the free (a second one is a double
	 * free) and the driver refuses it too. */
	fd.stype = ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC;
	ck_assert_int_eq(c.api.zeMemFreeExt(c.ctx, &fd, p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("zeMemFreeExt(", "double free", NULL);
	/* Not a structure type at all. */
	fd.stype = (ze_structure_type_t)0x7ffffff0;
	fd.freePolicy = 0;
	ck_assert_int_eq(c.api.zeMemFreeExt(c.ctx, &fd, q), ZE_RESULT_SUCCESS);
	vt_assert_finding("zeMemFreeExt(", "stype is 0x7ffffff0 (not a Level "
			  "Zero structure type)", NULL);
	vt_assert_findings(3);
}
END_TEST

/* The atomic access attributes go through the layer (its generated
 * wrapper and checks) to the driver and back; bad parameters are found
 * before the driver sees them. */
START_TEST(test_atomic_attributes_through_the_layer)
{
	vt_setup(&c, "plk");
	ck_assert_ptr_nonnull(c.api.zeMemSetAtomicAccessAttributeExp);
	ck_assert_ptr_nonnull(c.api.zeMemGetAtomicAccessAttributeExp);
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocShared(c.ctx, &dd, &hd, 256, 0,
						c.dev, &p), 0);
	ze_memory_atomic_attr_exp_flags_t a = 0;
	ck_assert_int_eq(c.api.zeMemSetAtomicAccessAttributeExp(
				 c.ctx, c.dev, p, 256,
				 ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_SYSTEM_ATOMICS),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(c.api.zeMemGetAtomicAccessAttributeExp(c.ctx, c.dev,
								p, 256, &a),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(a, ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_SYSTEM_ATOMICS);
	vt_assert_findings(0);
	ck_assert_int_eq(c.api.zeMemSetAtomicAccessAttributeExp(c.ctx, NULL,
								p, 256, 0),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	vt_assert_finding("parameter: zeMemSetAtomicAccessAttributeExp(",
			  "hDevice is NULL", NULL);
	ck_assert_int_eq(c.api.zeMemSetAtomicAccessAttributeExp(c.ctx, c.dev,
								p, 256, 0x80),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	vt_assert_finding("zeMemSetAtomicAccessAttributeExp(",
			  "attr 0x80 has unknown bits 0x80", NULL);
	ck_assert_int_eq(c.api.zeMemGetAtomicAccessAttributeExp(c.ctx, c.dev,
								p, 256, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	vt_assert_finding("zeMemGetAtomicAccessAttributeExp(",
			  "pAttr is NULL", NULL);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), 0);
	vt_assert_findings(3);
}
END_TEST

START_TEST(test_context_create_bad_desc)
{
	vt_setup(&c, "p");
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_FENCE_DESC, NULL, 0 };
	ze_context_handle_t ctx = NULL;
	ck_assert_int_eq(c.api.zeContextCreate(c.drv, &cd, &ctx),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	cd.stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC;
	cd.flags = 0x10;
	ck_assert_int_eq(c.api.zeContextCreate(c.drv, &cd, &ctx),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	ck_assert_int_eq(c.api.zeContextCreate(c.drv, NULL, &ctx),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	vt_assert_finding("zeContextCreate(", "desc->stype is 0x12", NULL);
	vt_assert_finding("zeContextCreate(", "desc->flags 0x10", NULL);
	vt_assert_finding("zeContextCreate(", "desc is NULL", NULL);
	vt_assert_findings(3);
}
END_TEST

/* A "driver" that ignores the alignment it is asked for. */
static ze_pfnMemAllocHost_t good_alloc;
static ze_pfnMemFree_t good_free;

static ze_result_t
bad_alloc(ze_context_handle_t ctx, const ze_host_mem_alloc_desc_t *d,
	  size_t size, size_t align, void **pptr)
{
	ze_result_t r = good_alloc(ctx, d, size + 64, align, pptr);
	if (r == ZE_RESULT_SUCCESS)
		*pptr = (char *)*pptr + 16;
	return r;
}

static ze_result_t
bad_free(ze_context_handle_t ctx, void *ptr)
{
	return good_free(ctx, (char *)ptr - 16);
}

static void
plant_bad_driver(ze_dditable_t *t)
{
	good_alloc = t->Mem.pfnAllocHost;
	good_free = t->Mem.pfnFree;
	t->Mem.pfnAllocHost = bad_alloc;
	t->Mem.pfnFree = bad_free;
}

START_TEST(test_driver_returns_misaligned_pointer)
{
	vt_switches("p");
	vt_log_begin();
	ck_assert_int_eq(vc_load_chain(&c, ZE_API_VERSION_CURRENT,
				       vc_layer_path(), plant_bad_driver), 0);
	ck_assert_int_eq(vc_open(&c), 0);
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, &hd, 100, 256, &p),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), ZE_RESULT_SUCCESS);
	vt_assert_finding("driver: zeMemAllocHost(", "alignment=256",
			  "driver bug: the driver returned",
			  "not aligned to the 256 bytes asked for",
			  "-> ZE_RESULT_SUCCESS (from the driver)", NULL);
	vt_assert_findings(1);
}
END_TEST

/* Getters: fields newer than the caller's version are never touched, NULL
 * slots stay NULL, and nothing is wrapped without a switch. */
START_TEST(test_getter_respects_version_and_null_slots)
{
	vt_switches("pl");
	void *dl = dlopen(vc_layer_path(), RTLD_NOW | RTLD_LOCAL);
	ck_assert_ptr_nonnull(dl);
	ze_pfnGetMemProcAddrTable_t get;
	void *sym = dlsym(dl, "zeGetMemProcAddrTable");
	memcpy(&get, &sym, sizeof(get));
	ck_assert_ptr_nonnull(sym);
	ze_mem_dditable_t t;
	memset(&t, 0xa5, sizeof(t));
	ze_mem_dditable_t before = t;
	t.pfnGetIpcHandle = NULL;  /* "not implemented by the driver" */
	ck_assert_int_eq(get(ZE_API_VERSION_1_0, &t), ZE_RESULT_SUCCESS);
	ck_assert_ptr_null(t.pfnGetIpcHandle);
	ck_assert(t.pfnAllocHost != before.pfnAllocHost);  /* wrapped */
	/* 1.3 and later fields untouched at 1.0 */
	ck_assert(!memcmp(&t.pfnFreeExt, &before.pfnFreeExt,
			  sizeof(t) - offsetof(ze_mem_dditable_t, pfnFreeExt)));
	ck_assert_int_eq(get((ze_api_version_t)ZE_MAKE_VERSION(2, 0), &t),
			 ZE_RESULT_ERROR_UNSUPPORTED_VERSION);
	ck_assert_int_eq(get(ZE_API_VERSION_CURRENT, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	/* A second call on the same table does not wrap the wrappers. */
	ze_mem_dditable_t again = t;
	ck_assert_int_eq(get(ZE_API_VERSION_1_0, &again), ZE_RESULT_SUCCESS);
	ck_assert(again.pfnAllocHost == t.pfnAllocHost);
}
END_TEST

START_TEST(test_getter_no_switch_no_wrapping)
{
	vt_switches("");
	ck_assert_int_eq(vc_load_chain(&c, ZE_API_VERSION_CURRENT,
				       vc_layer_path(), NULL), 0);
	ck_assert(c.ddi.Mem.pfnAllocHost == c.drv_ddi.Mem.pfnAllocHost);
	ck_assert(!memcmp(&c.ddi, &c.drv_ddi, sizeof(c.ddi)));
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("validation-params");
	TCase *t = tcase_create("params");
	tcase_add_test(t, test_alloc_host_null_context);
	tcase_add_test(t, test_alloc_host_null_pointers);
	tcase_add_test(t, test_alloc_device_null_device);
	tcase_add_test(t, test_alloc_bad_stype);
	tcase_add_test(t, test_alloc_unknown_pnext_stype);
	tcase_add_test(t, test_alloc_pnext_loop);
	tcase_add_test(t, test_alloc_unknown_flags);
	tcase_add_test(t, test_alloc_readonly_write_combined);
	tcase_add_test(t, test_alloc_relaxed_unknown_flags);
	tcase_add_test(t, test_alloc_size_zero);
	tcase_add_test(t, test_alloc_alignment_not_power_of_two);
	tcase_add_test(t, test_alloc_size_above_max);
	tcase_add_test(t, test_alloc_bad_ordinal);
	tcase_add_test(t, test_free_null_pointer);
	tcase_add_test(t, test_free_ext_bad_descriptor);
	tcase_add_test(t, test_free_ext_wrong_stype_reported_and_passed);
	tcase_add_test(t, test_atomic_attributes_through_the_layer);
	tcase_add_test(t, test_context_create_bad_desc);
	tcase_add_test(t, test_driver_returns_misaligned_pointer);
	tcase_add_test(t, test_getter_respects_version_and_null_slots);
	tcase_add_test(t, test_getter_no_switch_no_wrapping);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	return check_run(suite(), CK_NORMAL, false);
}
