// SPDX-License-Identifier: MIT
/*
 * test_loader_sys: zemem's loader under a program compiled against the
 * system's Level Zero headers (Debian's libze-dev, spec 1.4) and linked
 * with zemem's libze_loader.so.1, over zemem's driver. This is the drop-in
 * case: an existing application, unchanged, with LD_LIBRARY_PATH (here the
 * build rpath) pointing at zemem's loader. Includes only <level_zero/...>
 * from the system include path.
 */
#include <check.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>
#include <level_zero/loader/ze_loader.h>

#include "check_run.h"
#include "leakcheck.h"
#include "lt.h"

static ze_driver_handle_t drv;
static ze_device_handle_t dev;
static ze_context_handle_t ctx;

static void
setup(void)
{
	ck_assert_int_eq(setenv("ZE_ENABLE_ALT_DRIVERS", LT_DRIVER, 1), 0);
	ck_assert_int_eq(zeInit(0), ZE_RESULT_SUCCESS);
	uint32_t n = 1;
	ck_assert_int_eq(zeDriverGet(&n, &drv), ZE_RESULT_SUCCESS);
	n = 1;
	ck_assert_int_eq(zeDeviceGet(drv, &n, &dev), ZE_RESULT_SUCCESS);
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ck_assert_int_eq(zeContextCreate(drv, &cd, &ctx), ZE_RESULT_SUCCESS);
}

static void
teardown(void)
{
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}

START_TEST(test_sys_runs_on_zemem_loader)
{
	Dl_info info;
	ck_assert(dladdr((void *)zeInit, &info));
	ck_assert_ptr_nonnull(strstr(info.dli_fname, "loader/libze_loader.so.1"));
	ck_assert(dladdr((void *)drv, &info));
	ck_assert_str_eq(info.dli_fname, LT_DRIVER);
	ze_api_version_t v = 0;
	ck_assert_int_eq(zeDriverGetApiVersion(drv, &v), ZE_RESULT_SUCCESS);
	ck_assert_int_ge(v, ZE_API_VERSION_1_4);
	ze_device_properties_t dp = { ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES,
				      NULL };
	ck_assert_int_eq(zeDeviceGetProperties(dev, &dp), ZE_RESULT_SUCCESS);
	ck_assert_uint_gt(dp.maxMemAllocSize, 0);
}
END_TEST

static void
memory_roundtrip(void)
{
	ze_host_mem_alloc_desc_t hd = { ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC,
					NULL, 0 };
	ze_device_mem_alloc_desc_t dd = {
		ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0
	};
	void *p[3] = { NULL, NULL, NULL };
	ck_assert_int_eq(zeMemAllocHost(ctx, &hd, 8192, 4096, &p[0]),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeMemAllocDevice(ctx, &dd, 8192, 0, dev, &p[1]),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeMemAllocShared(ctx, &dd, &hd, 8192, 0, dev, &p[2]),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq((uintptr_t)p[0] % 4096, 0);
	for (int i = 0; i < 3; i++) {
		ze_memory_allocation_properties_t pr = {
			ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, NULL
		};
		ze_device_handle_t owner = NULL;
		ck_assert_int_eq(zeMemGetAllocProperties(ctx, p[i], &pr, &owner),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_ne(pr.type, ZE_MEMORY_TYPE_UNKNOWN);
		memset(p[i], i, 8192);
	}
	ze_memory_allocation_properties_t pr = {
		ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, NULL
	};
	int local;
	ck_assert_int_eq(zeMemGetAllocProperties(ctx, &local, &pr, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(pr.type, ZE_MEMORY_TYPE_UNKNOWN);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(zeMemFree(ctx, p[i]), ZE_RESULT_SUCCESS);
}

START_TEST(test_sys_memory)
{
	memory_roundtrip(); /* the driver's pools reach their steady state */
	struct leakcheck lc;
	lt_leak_begin(&lc);
	memory_roundtrip();
	lt_leak_end(&lc);
}
END_TEST

START_TEST(test_sys_getter_respects_1_4_table)
{
	/* A 1.4 caller's table is smaller than zemem's 1.18 one: the
	 * loader must not write past it. */
	struct {
		ze_mem_dditable_t t;
		unsigned char guard[256];
	} buf;
	memset(&buf, 0xcd, sizeof(buf));
	ck_assert_int_eq(zeGetMemProcAddrTable(ZE_API_VERSION_1_4, &buf.t),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_nonnull(buf.t.pfnAllocHost);
	ck_assert_ptr_nonnull(buf.t.pfnFreeExt);
	for (size_t i = 0; i < sizeof(buf.guard); i++)
		ck_assert_uint_eq(buf.guard[i], 0xcd);
	void *p = NULL;
	ze_host_mem_alloc_desc_t hd = { ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC,
					NULL, 0 };
	ck_assert_int_eq(buf.t.pfnAllocHost(ctx, &hd, 64, 0, &p),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(buf.t.pfnFree(ctx, p), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_sys_loader_versions)
{
	size_t n = 0;
	ck_assert_int_eq(zelLoaderGetVersions(&n, NULL), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 1);
	zel_component_version_t v;
	ck_assert_int_eq(zelLoaderGetVersions(&n, &v), ZE_RESULT_SUCCESS);
	ck_assert_str_eq(v.component_name, "loader");
	ck_assert_int_eq(v.component_lib_version.major, 1);
	void *out = NULL;
	ck_assert_int_eq(zelLoaderTranslateHandle(ZEL_HANDLE_DEVICE, dev, &out),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(out, dev);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("loader-sys");
	TCase *tc = tcase_create("system-headers");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_sys_runs_on_zemem_loader);
	tcase_add_test(tc, test_sys_memory);
	tcase_add_test(tc, test_sys_getter_respects_1_4_table);
	tcase_add_test(tc, test_sys_loader_versions);
	suite_add_tcase(s, tc);
	return check_run(s, CK_NORMAL, true);
}
