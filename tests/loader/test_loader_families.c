// SPDX-License-Identifier: MIT
/*
 * test_loader_families: one entry point of each family (ze, zes, zet, zel,
 * and zer where the loader has it) from a program built against the
 * system's Level Zero headers (Debian's libze-dev) and linked with
 * -lze_loader, over zemem's driver, which has the memory subset of Sysman
 * (answering once zesInit, or ZES_ENABLE_SYSMAN=1, turned it on) and no
 * Tools. Run twice
 * (meson.build): on zemem's loader (LT_LOADER=zemem, the build rpath) and
 * on Debian's (LT_LOADER=debian, preloaded: its SONAME satisfies the
 * program's). Both must give the same answers where both have the call:
 * what Intel's loader answers when no driver provides it.
 */
#include <check.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <level_zero/ze_api.h>
#include <level_zero/zes_api.h>
#include <level_zero/zet_api.h>
#include <level_zero/loader/ze_loader.h>

#include "check_run.h"

static bool
on_zemem(void)
{
	const char *l = getenv("LT_LOADER");
	return l && !strcmp(l, "zemem");
}

static void *
sym(const char *name)
{
	return dlsym(RTLD_DEFAULT, name);
}

START_TEST(test_each_family)
{
	ck_assert_int_eq(setenv("ZE_ENABLE_ALT_DRIVERS", LT_DRIVER, 1), 0);
	Dl_info info;
	ck_assert(dladdr((void *)zeInit, &info));
	if (on_zemem())
		ck_assert_ptr_nonnull(strstr(info.dli_fname,
					     "/loader/libze_loader.so.1"));
	else
		ck_assert_str_eq(info.dli_fname, LT_SYS_LOADER);
	/* ze */
	ck_assert_int_eq(zeInit(0), ZE_RESULT_SUCCESS);
	ze_driver_handle_t drv = NULL;
	ze_device_handle_t dev = NULL;
	uint32_t n = 1;
	ck_assert_int_eq(zeDriverGet(&n, &drv), ZE_RESULT_SUCCESS);
	n = 1;
	ck_assert_int_eq(zeDeviceGet(drv, &n, &dev), ZE_RESULT_SUCCESS);
	/* zes: the driver's, off until zesInit (ZES_ENABLE_SYSMAN unset) */
	ck_assert_int_eq(unsetenv("ZES_ENABLE_SYSMAN"), 0);
	zes_device_properties_t sp = { ZES_STRUCTURE_TYPE_DEVICE_PROPERTIES,
				       NULL };
	ck_assert_int_eq(zesDeviceGetProperties(dev, &sp),
			 ZE_RESULT_ERROR_UNINITIALIZED);
	/* a call the driver does not implement */
	zes_pci_state_t ps = { ZES_STRUCTURE_TYPE_PCI_STATE, NULL };
	ck_assert_int_eq(zesDevicePciGetState(dev, &ps),
			 ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
	/* zet: nor Tools */
	n = 0;
	ck_assert_int_eq(zetMetricGroupGet(dev, &n, NULL),
			 ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
	/* zel */
	size_t nv = 0;
	ck_assert_int_eq(zelLoaderGetVersions(&nv, NULL), ZE_RESULT_SUCCESS);
	ck_assert_uint_ge(nv, 1);
	zel_component_version_t v[4];
	nv = 4;
	ck_assert_int_eq(zelLoaderGetVersions(&nv, v), ZE_RESULT_SUCCESS);
	ck_assert_str_eq(v[0].component_name, "loader");
	/* zer and the 1.9+ calls: only in zemem's loader (Debian's is 1.8) */
	void *zer_ctx = sym("zerGetDefaultContext");
	void *zes_init = sym("zesInit");
	if (!on_zemem()) {
		ck_assert_ptr_null(zer_ctx);
		ck_assert_ptr_null(zes_init);
		return;
	}
	ck_assert_ptr_nonnull(zer_ctx);
	ck_assert_ptr_nonnull(zes_init);
	ze_context_handle_t (*get_ctx)(void);
	uint32_t (*to_id)(ze_device_handle_t);
	ze_result_t (*last)(const char **);
	ze_result_t (*zes_init_fn)(uint32_t);
	ze_result_t (*zes_drv_get)(uint32_t *, void **);
	bool (*in_teardown)(void);
	*(void **)&get_ctx = zer_ctx;
	*(void **)&to_id = sym("zerTranslateDeviceHandleToIdentifier");
	*(void **)&last = sym("zerGetLastErrorDescription");
	*(void **)&zes_init_fn = zes_init;
	*(void **)&zes_drv_get = sym("zesDriverGet");
	*(void **)&in_teardown = sym("zelCheckIsLoaderInTearDown");
	ck_assert_ptr_null(get_ctx());
	ck_assert_uint_eq(to_id(dev), UINT32_MAX);
	const char *why = NULL;
	ck_assert_int_eq(last(&why), ZE_RESULT_SUCCESS);
	ck_assert_str_eq(why, "ERROR UNSUPPORTED FEATURE");
	ck_assert_int_eq(zes_init_fn(0), ZE_RESULT_SUCCESS);
	n = 0;
	ck_assert_int_eq(zes_drv_get(&n, NULL), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(zesDeviceGetProperties(dev, &sp), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(sp.numSubdevices, 0);
	ck_assert(!in_teardown());
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("loader-families");
	TCase *tc = tcase_create("families");
	tcase_add_test(tc, test_each_family);
	suite_add_tcase(s, tc);
	return check_run(s, CK_NORMAL, true);
}
