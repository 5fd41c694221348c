// SPDX-License-Identifier: MIT
/*
 * test_loader: zemem's loader with one driver, built against api/: calls
 * before init, the getters, direct routing (the driver's own handles and
 * functions), zeInit / zeInitDrivers, null handles and empty slots, driver
 * failures (none found, init fails, getter missing or failing, an old
 * driver), and layers (Debian's validation and tracing layers, zemem's
 * validation layer when built).
 *
 * Each test runs in a forked process with its own environment and loader.
 * Paths of the libraries under test are compiled in (meson.build).
 */
#include <check.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>
#include <zemem/zel_loader.h>

#include "check_run.h"
#include "leakcheck.h"
#include "lt.h"

static ze_driver_handle_t drv;
static ze_device_handle_t dev;
static ze_context_handle_t ctx;
static const ze_context_desc_t ctx_desc = { ZE_STRUCTURE_TYPE_CONTEXT_DESC,
					    NULL, 0 };
static const ze_host_mem_alloc_desc_t hdesc = {
	ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0
};
static const ze_device_mem_alloc_desc_t ddesc = {
	ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0
};

/* zeInit with drivers = ALT list; then the first driver, device, and a
 * new context. */
static void
init_with(const char *drivers)
{
	lt_env("ZE_ENABLE_ALT_DRIVERS", drivers);
	ck_assert_int_eq(zeInit(0), ZE_RESULT_SUCCESS);
	uint32_t n = 1;
	ck_assert_int_eq(zeDriverGet(&n, &drv), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 1);
	n = 1;
	ck_assert_int_eq(zeDeviceGet(drv, &n, &dev), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(zeContextCreate(drv, &ctx_desc, &ctx),
			 ZE_RESULT_SUCCESS);
}

/* Allocates one block of each kind, checks its properties through the
 * loader, frees it. */
static void
mem_roundtrip(void)
{
	void *p[3] = { NULL, NULL, NULL };
	ck_assert_int_eq(zeMemAllocHost(ctx, &hdesc, 4096, 64, &p[0]),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeMemAllocDevice(ctx, &ddesc, 4096, 64, dev, &p[1]),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeMemAllocShared(ctx, &ddesc, &hdesc, 4096, 64, dev,
					  &p[2]),
			 ZE_RESULT_SUCCESS);
	const ze_memory_type_t want[3] = { ZE_MEMORY_TYPE_HOST,
					   ZE_MEMORY_TYPE_DEVICE,
					   ZE_MEMORY_TYPE_SHARED };
	for (int i = 0; i < 3; i++) {
		ze_memory_allocation_properties_t props = {
			ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, NULL
		};
		ze_device_handle_t owner = NULL;
		ck_assert_int_eq(zeMemGetAllocProperties(ctx, p[i], &props,
							 &owner),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(props.type, want[i]);
		if (i)
			ck_assert_ptr_eq(owner, dev);
		void *base = NULL;
		size_t size = 0;
		ck_assert_int_eq(zeMemGetAddressRange(ctx, (char *)p[i] + 10,
						      &base, &size),
				 ZE_RESULT_SUCCESS);
		ck_assert_ptr_eq(base, p[i]);
		ck_assert_uint_ge(size, 4096);
	}
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(zeMemFree(ctx, p[i]), ZE_RESULT_SUCCESS);
}

/* ---- before init ------------------------------------------------------ */

START_TEST(test_calls_before_init_uninitialized)
{
	uint32_t n = 0;
	void *p = NULL, *out = NULL;
	ck_assert_int_eq(zeDriverGet(&n, NULL), ZE_RESULT_ERROR_UNINITIALIZED);
	ck_assert_int_eq(zeMemAllocHost(NULL, &hdesc, 64, 0, &p),
			 ZE_RESULT_ERROR_UNINITIALIZED);
	ck_assert_int_eq(zeContextDestroy(NULL), ZE_RESULT_ERROR_UNINITIALIZED);
	ck_assert_ptr_null(zeDriverGetDefaultContext(NULL));
	ck_assert_int_eq(zelLoaderTranslateHandle(ZEL_HANDLE_DRIVER, &n, &out),
			 ZE_RESULT_ERROR_UNINITIALIZED);
	size_t count = 0;
	ck_assert_int_eq(zelLoaderGetVersions(&count, NULL), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(count, 1);
}
END_TEST

START_TEST(test_getters_before_init_give_entry_points)
{
	ze_mem_dditable_t t;
	ck_assert_int_eq(zeGetMemProcAddrTable(ZE_API_VERSION_CURRENT, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zeGetMemProcAddrTable(ZE_MAKE_VERSION(2, 0), &t),
			 ZE_RESULT_ERROR_UNSUPPORTED_VERSION);
	/* A 1.0 caller's table ends before pfnFreeExt (1.3). */
	memset(&t, 0xab, sizeof(t));
	ck_assert_int_eq(zeGetMemProcAddrTable(ZE_API_VERSION_1_0, &t),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(t.pfnAllocHost, zeMemAllocHost);
	ck_assert_ptr_eq(t.pfnGetAllocProperties, zeMemGetAllocProperties);
	unsigned char sentinel[sizeof(void *)];
	memset(sentinel, 0xab, sizeof(sentinel));
	ck_assert(!memcmp(&t.pfnFreeExt, sentinel, sizeof(sentinel)));
	ck_assert(!memcmp(&t.pfnGetIpcHandleWithProperties, sentinel,
			  sizeof(sentinel)));
	ck_assert_int_eq(zeGetMemProcAddrTable(ZE_API_VERSION_CURRENT, &t),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(t.pfnFreeExt, zeMemFreeExt);
	ck_assert_ptr_eq(t.pfnGetIpcHandleWithProperties,
			 zeMemGetIpcHandleWithProperties);
	/* Calling through the table before init: UNINITIALIZED too. */
	void *p = NULL;
	ck_assert_int_eq(t.pfnAllocHost(NULL, &hdesc, 64, 0, &p),
			 ZE_RESULT_ERROR_UNINITIALIZED);
}
END_TEST

/* ---- one driver: direct ----------------------------------------------- */

START_TEST(test_single_driver_is_direct)
{
	init_with(LT_DRIVER);
	/* The application holds the driver's own handles... */
	ck_assert_str_eq(lt_lib_of(drv), LT_DRIVER);
	ck_assert_str_eq(lt_lib_of(dev), LT_DRIVER);
	void *real = NULL;
	ck_assert_int_eq(zelLoaderTranslateHandle(ZEL_HANDLE_CONTEXT, ctx,
						  &real),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(real, ctx);
	/* ...and the loader's table is the driver's own functions. */
	ze_mem_dditable_t t;
	memset(&t, 0, sizeof(t));
	ck_assert_int_eq(zeGetMemProcAddrTable(ZE_API_VERSION_CURRENT, &t),
			 ZE_RESULT_SUCCESS);
	ck_assert_str_eq(lt_lib_of((void *)t.pfnGetAllocProperties),
			 LT_DRIVER);
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_single_mem_roundtrip_no_leak)
{
	init_with(LT_DRIVER);
	mem_roundtrip(); /* the driver's pools reach their steady state */
	struct leakcheck lc;
	lt_leak_begin(&lc);
	mem_roundtrip();
	lt_leak_end(&lc);
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_null_handles)
{
	init_with(LT_DRIVER);
	void *p = NULL;
	ze_context_handle_t c = NULL;
	ze_device_properties_t dp = { ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES,
				      NULL };
	ck_assert_int_eq(zeContextCreate(NULL, &ctx_desc, &c),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zeMemAllocHost(NULL, &hdesc, 64, 0, &p),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zeMemFree(NULL, &p), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zeDeviceGetProperties(NULL, &dp),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zeContextDestroy(NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_ptr_null(zeDriverGetDefaultContext(NULL));
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_empty_slot_unsupported_feature)
{
	init_with(LT_DRIVER);
	/* zemem's driver has no kernels: the slot is NULL. */
	ck_assert_int_eq(zeKernelSetGroupSize((ze_kernel_handle_t)&drv, 1, 1, 1),
			 ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
	ze_module_handle_t m = NULL;
	ze_module_desc_t md = { ZE_STRUCTURE_TYPE_MODULE_DESC, NULL };
	ck_assert_int_eq(zeModuleCreate(ctx, dev, &md, &m, NULL),
			 ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_zeInit_flags)
{
	lt_env("ZE_ENABLE_ALT_DRIVERS", LT_DRIVER);
	/* zemem's driver is not a GPU: nothing initialises, nothing is
	 * committed, and a later zeInit(0) still works. */
	ck_assert_int_eq(zeInit(ZE_INIT_FLAG_GPU_ONLY),
			 ZE_RESULT_ERROR_UNINITIALIZED);
	uint32_t n = 0;
	ck_assert_int_eq(zeDriverGet(&n, NULL), ZE_RESULT_ERROR_UNINITIALIZED);
	/* Every driver agrees the flags are bad: their answer comes back. */
	ck_assert_int_eq(zeInit(0x80), ZE_RESULT_ERROR_INVALID_ENUMERATION);
	ck_assert_int_eq(zeInit(0), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeInit(0), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeDriverGet(&n, NULL), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(zeDriverGet(NULL, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
}
END_TEST

START_TEST(test_zeInitDrivers)
{
	lt_env("ZE_ENABLE_ALT_DRIVERS", LT_DRIVER);
	ze_init_driver_type_desc_t d = {
		ZE_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC, NULL,
		ZE_INIT_DRIVER_TYPE_FLAG_GPU
	};
	uint32_t n = 7;
	ck_assert_int_eq(zeInitDrivers(NULL, NULL, &d),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zeInitDrivers(&n, NULL, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zeInitDrivers(&n, NULL, &d),
			 ZE_RESULT_ERROR_UNINITIALIZED);
	ck_assert_uint_eq(n, 0);
	d.flags = UINT32_MAX;
	n = 0;
	ck_assert_int_eq(zeInitDrivers(&n, NULL, &d), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 1);
	ze_driver_handle_t h = NULL;
	ck_assert_int_eq(zeInitDrivers(&n, &h, &d), ZE_RESULT_SUCCESS);
	ck_assert_str_eq(lt_lib_of(h), LT_DRIVER);
}
END_TEST

START_TEST(test_versions)
{
	init_with(LT_DRIVER);
	zel_component_version_t v[4];
	size_t n = 4;
	ck_assert_int_eq(zelLoaderGetVersions(NULL, v),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zelLoaderGetVersions(&n, v), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(v[0].component_name, "loader");
	ck_assert_int_eq(v[0].spec_version, ZE_API_VERSION_CURRENT);
	ck_assert_int_eq(v[0].component_lib_version.major, 1);
	ck_assert_int_eq(v[0].component_lib_version.minor, 18);
	ze_api_version_t api = 0;
	ck_assert_int_eq(zeDriverGetApiVersion(drv, &api), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(api, ZE_API_VERSION_1_18);
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_default_list_finds_zemem)
{
	lt_env("ZE_ENABLE_ALT_DRIVERS", NULL);
	lt_env("ZEMEM_LOG_LEVEL", "debug");
	lt_capture_begin();
	ze_result_t r = zeInit(0);
	const char *log = lt_capture_end();
	ck_assert_int_eq(r, ZE_RESULT_SUCCESS);
	/* Every default name was tried, and zemem's driver was found. */
	ck_assert(strstr(log, "trying driver libze_intel_gpu.so.1"));
	ck_assert(strstr(log, "trying driver libze_intel_npu.so.1"));
	ck_assert(strstr(log, "libze_zemem.so.1: tables read at version 1.18"));
	ck_assert(strstr(log, "committed"));
	uint32_t n = 0;
	ck_assert_int_eq(zeDriverGet(&n, NULL), ZE_RESULT_SUCCESS);
	ck_assert_uint_ge(n, 1);
}
END_TEST

/* ---- failures ---------------------------------------------------------- */

START_TEST(test_no_driver_found)
{
	struct leakcheck lc;
	lt_leak_begin(&lc);
	lt_env("ZE_ENABLE_ALT_DRIVERS", "/nonexistent/libze_missing.so.1");
	lt_capture_begin();
	ze_result_t r = zeInit(0);
	const char *log = lt_capture_end();
	ck_assert_int_eq(r, ZE_RESULT_ERROR_UNINITIALIZED);
	ck_assert_int_eq(lt_count_lines(log, "no Level Zero driver could be "
					"loaded: /nonexistent/libze_missing"
					".so.1: cannot load"), 1);
	uint32_t n = 0;
	void *p = NULL;
	ck_assert_int_eq(zeDriverGet(&n, NULL), ZE_RESULT_ERROR_UNINITIALIZED);
	ck_assert_int_eq(zeMemAllocHost(NULL, &hdesc, 64, 0, &p),
			 ZE_RESULT_ERROR_UNINITIALIZED);
	ck_assert_int_eq(zeInit(0), ZE_RESULT_ERROR_UNINITIALIZED);
	lt_leak_end(&lc);
}
END_TEST

START_TEST(test_driver_init_fails)
{
	lt_env("ZE_ENABLE_ALT_DRIVERS", LT_FAKE_INITFAIL);
	lt_capture_begin();
	ze_result_t r = zeInit(0);
	const char *log = lt_capture_end();
	/* The only driver's answer comes back, and the log says who. */
	ck_assert_int_eq(r, ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE);
	ck_assert_int_eq(lt_count_lines(log, "no Level Zero driver "
					"initialised: " LT_FAKE_INITFAIL
					": zeInit returned "
					"ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE"),
			 1);
	uint32_t n = 0;
	ck_assert_int_eq(zeDriverGet(&n, NULL), ZE_RESULT_ERROR_UNINITIALIZED);
	/* Retrying neither leaks nor crashes. */
	struct leakcheck lc;
	lt_leak_begin(&lc);
	ck_assert_int_eq(zeInit(0), ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE);
	lt_leak_end(&lc);
}
END_TEST

START_TEST(test_driver_init_fails_other_kept)
{
	lt_env("ZE_ENABLE_ALT_DRIVERS", LT_FAKE_INITFAIL "," LT_DRIVER);
	ck_assert_int_eq(zeInit(0), ZE_RESULT_SUCCESS);
	/* The failing driver was dropped (and unloaded): one driver left,
	 * so the application gets the driver's own handles. */
	ck_assert(!lt_loaded(LT_FAKE_INITFAIL));
	uint32_t n = 0;
	ck_assert_int_eq(zeDriverGet(&n, NULL), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(zeDriverGet(&n, &drv), ZE_RESULT_SUCCESS);
	ck_assert_str_eq(lt_lib_of(drv), LT_DRIVER);
}
END_TEST

START_TEST(test_listed_driver_missing_warns)
{
	lt_env("ZE_ENABLE_ALT_DRIVERS", "/nonexistent/libze_b.so.1," LT_DRIVER);
	lt_capture_begin();
	ze_result_t r = zeInit(0);
	const char *log = lt_capture_end();
	ck_assert_int_eq(r, ZE_RESULT_SUCCESS);
	ck_assert_int_eq(lt_count_lines(log, "ZE_ENABLE_ALT_DRIVERS: some "
					"drivers could not be loaded: "
					"/nonexistent/libze_b.so.1: cannot "
					"load"),
			 1);
	ck_assert_int_eq(lt_count_lines(log, "libze_b.so.1"), 1);
}
END_TEST

START_TEST(test_same_driver_twice_is_one)
{
	/* The soname link and the file it points to: one library. */
	init_with(LT_DRIVER "," LT_DRIVER_FILE);
	uint32_t n = 0;
	ck_assert_int_eq(zeDriverGet(&n, NULL), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(lt_lib_of(drv), LT_DRIVER);
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_driver_missing_getter)
{
	struct leakcheck lc;
	lt_leak_begin(&lc);
	lt_env("ZE_ENABLE_ALT_DRIVERS", LT_FAKE_NOGETTER);
	lt_capture_begin();
	ze_result_t r = zeInit(0);
	const char *log = lt_capture_end();
	ck_assert_int_eq(r, ZE_RESULT_ERROR_UNINITIALIZED);
	ck_assert_int_eq(lt_count_lines(log, LT_FAKE_NOGETTER ": missing "
					"required getter "
					"zeGetContextProcAddrTable"),
			 1);
	ck_assert(!lt_loaded(LT_FAKE_NOGETTER));
	lt_leak_end(&lc);
}
END_TEST

START_TEST(test_driver_getter_fails)
{
	struct leakcheck lc;
	lt_leak_begin(&lc);
	lt_env("ZE_ENABLE_ALT_DRIVERS", LT_FAKE_GETTERFAIL);
	lt_capture_begin();
	ze_result_t r = zeInit(0);
	const char *log = lt_capture_end();
	ck_assert_int_eq(r, ZE_RESULT_ERROR_UNINITIALIZED);
	ck_assert(strstr(log, LT_FAKE_GETTERFAIL ": zeGetDeviceProcAddrTable"
			 "(1.18) returned ZE_RESULT_ERROR_UNKNOWN"));
	ck_assert(!lt_loaded(LT_FAKE_GETTERFAIL));
	lt_leak_end(&lc);
}
END_TEST

START_TEST(test_every_failure_on_one_line)
{
	lt_env("ZE_ENABLE_ALT_DRIVERS", "/nonexistent/libze_a.so.1, "
	       LT_FAKE_NOGETTER "," LT_FAKE_GETTERFAIL ",,");
	lt_capture_begin();
	ze_result_t r = zeInit(0);
	const char *log = lt_capture_end();
	ck_assert_int_eq(r, ZE_RESULT_ERROR_UNINITIALIZED);
	const char *line = strstr(log, "no Level Zero driver could be loaded");
	ck_assert_ptr_nonnull(line);
	const char *end = strchr(line, '\n');
	ck_assert_ptr_nonnull(end);
	char *one = strndup(line, (size_t)(end - line));
	ck_assert(strstr(one, "/nonexistent/libze_a.so.1: cannot load"));
	ck_assert(strstr(one, LT_FAKE_NOGETTER ": missing required getter"));
	ck_assert(strstr(one, LT_FAKE_GETTERFAIL ": zeGetDeviceProcAddrTable"));
	free(one);
}
END_TEST

START_TEST(test_old_driver_negotiated)
{
	lt_env("ZEMEM_LOG_LEVEL", "debug");
	lt_capture_begin();
	init_with(LT_FAKE_OLD);
	const char *log = lt_capture_end();
	ck_assert(strstr(log, "version 1.18 refused"));
	ck_assert(strstr(log, "tables read at version 1.5"));
	ze_api_version_t v = 0;
	ck_assert_int_eq(zeDriverGetApiVersion(drv, &v), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(v, ZE_API_VERSION_1_5);
	/* zeMemGetPitchFor2dImage is 1.9: the old driver's slot is empty. */
	size_t pitch = 0;
	ck_assert_int_eq(zeMemGetPitchFor2dImage(ctx, dev, 16, 16, 4, &pitch),
			 ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
	ze_memory_allocation_properties_t props = {
		ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, NULL
	};
	ck_assert_int_eq(zeMemGetAllocProperties(ctx, &v, &props, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(props.type, ZE_MEMORY_TYPE_UNKNOWN);
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

/* ---- layers ------------------------------------------------------------ */

/* The library whose function is in the loader's top Mem table. */
static const char *
top_mem_owner(void)
{
	ze_mem_dditable_t t;
	memset(&t, 0, sizeof(t));
	ck_assert_int_eq(zeGetMemProcAddrTable(ZE_API_VERSION_CURRENT, &t),
			 ZE_RESULT_SUCCESS);
	return lt_lib_base_of((void *)t.pfnAllocHost);
}

START_TEST(test_debian_validation_layer)
{
	if (access(LT_SYS_VALIDATION_LAYER, F_OK)) {
		printf("skip: %s not installed\n", LT_SYS_VALIDATION_LAYER);
		return;
	}
	lt_env("ZE_ENABLE_VALIDATION_LAYER", "1");
	lt_env("ZEMEM_VALIDATION_LAYER", LT_SYS_VALIDATION_LAYER);
	lt_env("ZE_ENABLE_PARAMETER_VALIDATION", "1");
	init_with(LT_DRIVER);
	ck_assert_str_eq(top_mem_owner(), "libze_validation_layer.so.1");
	/* A 1.15 function the 1.4 layer does not know goes to the driver. */
	ze_mem_dditable_t t;
	ck_assert_int_eq(zeGetMemProcAddrTable(ZE_API_VERSION_CURRENT, &t),
			 ZE_RESULT_SUCCESS);
	ck_assert_str_eq(lt_lib_of((void *)t.pfnGetIpcHandleWithProperties),
			 LT_DRIVER);
	mem_roundtrip();
	/* The layer checks parameters before the driver sees them. */
	void *p = NULL;
	ck_assert_int_eq(zeMemAllocHost(ctx, NULL, 64, 0, &p),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	zel_component_version_t v[4];
	size_t n = 4;
	ck_assert_int_eq(zelLoaderGetVersions(&n, v), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(v[0].component_name, "loader");
	ck_assert_str_ne(v[1].component_name, "");
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_zemem_validation_layer)
{
	if (access(LT_ZEMEM_VALIDATION_LAYER, F_OK)) {
		printf("skip: %s not built\n", LT_ZEMEM_VALIDATION_LAYER);
		return;
	}
	lt_env("ZE_ENABLE_VALIDATION_LAYER", "1");
	lt_env("ZEMEM_VALIDATION_LAYER", NULL);
	lt_env("ZE_ENABLE_PARAMETER_VALIDATION", "1");
	lt_env("ZE_ENABLE_HANDLE_LIFETIME", "1");
	init_with(LT_DRIVER);
	ck_assert_str_eq(top_mem_owner(), "libze_zemem_validation_layer.so.1");
	mem_roundtrip();
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_validation_layer_missing_warns)
{
	lt_env("ZE_ENABLE_VALIDATION_LAYER", "1");
	lt_env("ZEMEM_VALIDATION_LAYER", "/nonexistent/libze_val.so.1");
	lt_capture_begin();
	init_with(LT_DRIVER);
	const char *log = lt_capture_end();
	ck_assert_int_eq(lt_count_lines(log, "validation layer cannot be "
					"loaded (/nonexistent/libze_val.so.1"),
			 1);
	ck_assert_str_eq(top_mem_owner(), "libze_zemem.so.1");
	mem_roundtrip();
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_tracing_layer)
{
	if (access(LT_SYS_TRACING_LAYER, F_OK)) {
		printf("skip: %s not installed\n", LT_SYS_TRACING_LAYER);
		return;
	}
	lt_env("ZE_ENABLE_TRACING_LAYER", "1");
	init_with(LT_DRIVER);
	ck_assert_str_eq(top_mem_owner(), "libze_tracing_layer.so.1");
	mem_roundtrip();
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_tracing_layer_absent_warns)
{
	lt_env("ZE_ENABLE_TRACING_LAYER", "1");
	lt_env("ZEMEM_TRACING_LAYER", "libze_no_such_tracing_layer.so.1");
	lt_capture_begin();
	init_with(LT_DRIVER);
	const char *log = lt_capture_end();
	ck_assert_int_eq(lt_count_lines(log, "no tracing layer can be loaded"),
			 1);
	mem_roundtrip();
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_layers_in_order)
{
	if (access(LT_SYS_VALIDATION_LAYER, F_OK) ||
	    access(LT_SYS_TRACING_LAYER, F_OK)) {
		printf("skip: Debian's layers not installed\n");
		return;
	}
	lt_env("ZE_ENABLE_VALIDATION_LAYER", "1");
	lt_env("ZEMEM_VALIDATION_LAYER", LT_SYS_VALIDATION_LAYER);
	lt_env("ZE_ENABLE_TRACING_LAYER", "1");
	init_with(LT_DRIVER);
	/* Tracing is outermost: it sees the calls as the application made
	 * them. */
	ck_assert_str_eq(top_mem_owner(), "libze_tracing_layer.so.1");
	size_t n = 0;
	ck_assert_int_eq(zelLoaderGetVersions(&n, NULL), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 3);
	mem_roundtrip();
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

static Suite *
loader_suite(void)
{
	Suite *s = suite_create("loader");
	TCase *tc = tcase_create("preinit");
	tcase_add_test(tc, test_calls_before_init_uninitialized);
	tcase_add_test(tc, test_getters_before_init_give_entry_points);
	suite_add_tcase(s, tc);
	tc = tcase_create("failures");
	tcase_add_test(tc, test_no_driver_found);
	tcase_add_test(tc, test_driver_init_fails);
	tcase_add_test(tc, test_driver_init_fails_other_kept);
	tcase_add_test(tc, test_listed_driver_missing_warns);
	tcase_add_test(tc, test_same_driver_twice_is_one);
	tcase_add_test(tc, test_driver_missing_getter);
	tcase_add_test(tc, test_driver_getter_fails);
	tcase_add_test(tc, test_every_failure_on_one_line);
	tcase_add_test(tc, test_old_driver_negotiated);
	suite_add_tcase(s, tc);
	tc = tcase_create("single");
	tcase_add_test(tc, test_single_driver_is_direct);
	tcase_add_test(tc, test_single_mem_roundtrip_no_leak);
	tcase_add_test(tc, test_null_handles);
	tcase_add_test(tc, test_empty_slot_unsupported_feature);
	tcase_add_test(tc, test_zeInit_flags);
	tcase_add_test(tc, test_zeInitDrivers);
	tcase_add_test(tc, test_versions);
	tcase_add_test(tc, test_default_list_finds_zemem);
	suite_add_tcase(s, tc);
	tc = tcase_create("layers");
	tcase_add_test(tc, test_validation_layer_missing_warns);
	tcase_add_test(tc, test_tracing_layer_absent_warns);
	suite_add_tcase(s, tc);
	tc = tcase_create("zemem-layer");
	tcase_add_test(tc, test_zemem_validation_layer);
	suite_add_tcase(s, tc);
	tc = tcase_create("debian-layers");
	tcase_add_test(tc, test_debian_validation_layer);
	tcase_add_test(tc, test_tracing_layer);
	tcase_add_test(tc, test_layers_in_order);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	if (lt_skip_unless_required())
		return 77;
	/* Each test needs its own process: the loader commits once. */
	return check_run(loader_suite(), CK_NORMAL, true);
}
