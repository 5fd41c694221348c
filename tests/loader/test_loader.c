// SPDX-License-Identifier: MIT
/*
 * test_loader: zemem's loader with one driver, built against api/: calls
 * before init, the getters, direct routing (the driver's own handles and
 * functions), zeInit / zeInitDrivers, null handles and empty slots, driver
 * failures (none found, init fails, getter missing or failing, an old
 * driver), layers (Debian's validation and tracing layers, zemem's
 * validation layer when built), the zes/zet/zer families (defaults, routing
 * to a driver's Sysman table, the loader's own getters), the tracers and
 * the teardown services.
 *
 * Each test runs in a forked process with its own environment and loader.
 * Paths of the libraries under test are compiled in (meson.build).
 */
#include <check.h>
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <spawn.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>
#include <level_zero/zer_api.h>
#include <level_zero/zet_api.h>
#include <zemem/zel_loader.h>
#include <zemem/zel_tracing.h>

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

/* ---- static TLS ---------------------------------------------------------
 * A library with initial-exec thread-local storage takes that much, when
 * dlopened, from the small reserve glibc keeps for all such libraries of
 * a process: the driver keeps its own small, so that it still loads
 * beside libraries that take much of it (tls_hog.c), and a layer that no
 * longer fits says so. */

struct tls_of {
	const char *suffix;
	size_t bytes;
	bool found;
};

static int
tls_of_module(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	struct tls_of *t = arg;
	size_t n = strlen(info->dlpi_name), m = strlen(t->suffix);
	if (n < m || strcmp(info->dlpi_name + n - m, t->suffix))
		return 0;
	t->found = true;
	for (unsigned i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_TLS)
			t->bytes = info->dlpi_phdr[i].p_memsz;
	return 1;
}

/* With the hog loaded first (NULL: skip, the reason printed). */
static void *
load_tls_hog(void)
{
	void *hog = dlopen(LT_TLS_HOG, RTLD_NOW | RTLD_LOCAL);
	if (!hog)
		printf("skip: this glibc keeps less static TLS than the "
		       "test's hog takes (%s)\n", dlerror());
	return hog;
}

START_TEST(test_driver_beside_static_tls_hog)
{
	void *hog = load_tls_hog();
	if (!hog)
		return;
	lt_env("ZE_ENABLE_VALIDATION_LAYER", "0");
	init_with(LT_DRIVER);
	struct tls_of t = { "/libze_zemem.so.1", 0, false };
	dl_iterate_phdr(tls_of_module, &t);
	ck_assert(t.found);
	ck_assert_uint_le(t.bytes, 64);
	mem_roundtrip();
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(dlclose(hog), 0);
}
END_TEST

/* The child of the next test, a fresh exec of this program with no
 * LD_LIBRARY_PATH (so that the last place the loader looks for the layer,
 * the library search path, has none): the hog, then zeInit with the layer
 * asked for. Exit 0: the driver alone is on top; 3: the layer loaded
 * (room was left for it); 77: no room for the hog; else a failure. */
static int
static_tls_child(void)
{
	if (!dlopen(LT_TLS_HOG, RTLD_NOW | RTLD_LOCAL)) {
		printf("skip: this glibc keeps less static TLS than the "
		       "test's hog takes (%s)\n", dlerror());
		return 77;
	}
	ze_mem_dditable_t t;
	memset(&t, 0, sizeof(t));
	if (zeInit(0) || zeGetMemProcAddrTable(ZE_API_VERSION_CURRENT, &t))
		return 2;
	const char *top = lt_lib_base_of((void *)t.pfnAllocHost);
	if (!strcmp(top, "libze_zemem_validation_layer.so.1"))
		return 3;
	return strcmp(top, "libze_zemem.so.1") ? 5 : 0;
}

START_TEST(test_validation_layer_without_static_tls_says_why)
{
	extern char **environ;
	size_t n = 0;
	while (environ[n])
		n++;
	char **env = calloc(n + 5, sizeof(*env));
	ck_assert_ptr_nonnull(env);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "LD_LIBRARY_PATH=", 16) &&
		    strncmp(environ[i], "ZE_", 3) &&
		    strncmp(environ[i], "ZEMEM_", 6))
			env[k++] = environ[i];
	env[k++] = "ZE_ENABLE_VALIDATION_LAYER=1";
	env[k++] = "ZE_ENABLE_PARAMETER_VALIDATION=1";
	env[k++] = "ZE_ENABLE_ALT_DRIVERS=" LT_DRIVER;
	env[k++] = "ZEMEM_LOG_LEVEL=warn";
	int out = memfd_create("static-tls-child", MFD_CLOEXEC);
	ck_assert_int_ge(out, 0);
	posix_spawn_file_actions_t fa;
	ck_assert_int_eq(posix_spawn_file_actions_init(&fa), 0);
	ck_assert_int_eq(posix_spawn_file_actions_adddup2(&fa, out, 2), 0);
	char *argv[] = { "test_loader", "--static-tls-child", NULL };
	pid_t pid;
	ck_assert_int_eq(posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv,
				     env),
			 0);
	posix_spawn_file_actions_destroy(&fa);
	free(env);
	int st = 0;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	static char log[1 << 14];
	ssize_t got = pread(out, log, sizeof(log) - 1, 0);
	close(out);
	log[got > 0 ? got : 0] = '\0';
	fputs(log, stderr);
	ck_assert_msg(WIFEXITED(st), "child killed by signal %d",
		      WTERMSIG(st));
	if (WEXITSTATUS(st) == 77)
		return;
	if (WEXITSTATUS(st) == 3) {
		printf("skip: this glibc kept room for the layer beside the "
		       "hog\n");
		return;
	}
	ck_assert_int_eq(WEXITSTATUS(st), 0);
	/* the reason, not the search path's "no such file" */
	ck_assert_int_eq(lt_count_lines(log, "validation layer cannot be "
					"loaded ("),
			 1);
	ck_assert_int_eq(lt_count_lines(log, "cannot allocate memory in "
					"static TLS block); running"),
			 1);
}
END_TEST

START_TEST(test_tracing_layer)
{
	if (access(LT_SYS_TRACING_LAYER, F_OK)) {
		printf("skip: %s not installed\n", LT_SYS_TRACING_LAYER);
		return;
	}
	lt_env("ZE_ENABLE_TRACING_LAYER", "1");
	lt_env("ZEMEM_TRACING_LAYER", LT_SYS_TRACING_LAYER);
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
	lt_env("ZEMEM_TRACING_LAYER", LT_SYS_TRACING_LAYER);
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


/* ---- zes, zet, zer ----------------------------------------------------- */

/* api/ declares the Sysman subset zemem's driver implements: the other
 * zes prototypes here, with generic handle and struct types (same ABI).
 * The Tools and runtime families: level_zero/zet_api.h, zer_api.h. */
ze_result_t ZE_APICALL zesInit(uint32_t flags);
ze_result_t ZE_APICALL zesDriverGet(uint32_t *pCount, void **phDrivers);
ze_result_t ZE_APICALL zesDeviceGetProperties(void *hDevice, void *pProps);
ze_result_t ZE_APICALL zesDeviceGetState(void *hDevice, void *pState);
ze_result_t ZE_APICALL zesGetDeviceProcAddrTable(ze_api_version_t version,
						 void *pDdiTable);

START_TEST(test_ext_before_init)
{
	uint32_t props[64] = { 0 };
	ck_assert_int_eq(zesDeviceGetProperties(NULL, props),
			 ZE_RESULT_ERROR_UNINITIALIZED);
	uint32_t n = 0;
	ck_assert_int_eq(zetMetricGroupGet(NULL, &n, NULL),
			 ZE_RESULT_ERROR_UNINITIALIZED);
	ck_assert_ptr_null(zerGetDefaultContext());
	const char *why = NULL;
	ck_assert_int_eq(zerGetLastErrorDescription(&why), ZE_RESULT_SUCCESS);
	ck_assert_str_eq(why, "ERROR UNINITIALIZED");
	ck_assert_int_eq(zerGetLastErrorDescription(NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
}
END_TEST

/* zemem's driver has the memory subset of Sysman (answering once zesInit
 * turned it on) and no Tools or zer: the slots it does not fill answer
 * what Intel's loader answers then. */
START_TEST(test_ext_unsupported_on_zemem)
{
	init_with(LT_DRIVER);
	/* Room for a zes_device_properties_t (about 900 bytes). */
	uint64_t props[512] = { 0 };
	uint32_t n = 0;
	ck_assert_int_eq(zesDeviceGetProperties(dev, props),
			 ZE_RESULT_ERROR_UNINITIALIZED);
	ck_assert_int_eq(zesDriverGet(&n, NULL),
			 ZE_RESULT_ERROR_UNINITIALIZED);
	ck_assert_int_eq(zesInit(0), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zesDriverGet(&n, NULL), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(zesDeviceGetProperties(dev, props),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zesDeviceGetState(dev, props),
			 ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
	ck_assert_int_eq(zetMetricGroupGet(dev, &n, NULL),
			 ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
	ck_assert_uint_eq(zerTranslateDeviceHandleToIdentifier(dev),
			  UINT32_MAX);
	const char *why = NULL;
	ck_assert_int_eq(zerGetLastErrorDescription(&why), ZE_RESULT_SUCCESS);
	ck_assert_str_eq(why, "ERROR UNSUPPORTED FEATURE");
	ck_assert_ptr_null(zerGetDefaultContext());
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

/* A driver with Sysman getters (the fake, at most 1.5): the slots it fills
 * go to it, at the version negotiated; the others stay unsupported. */
START_TEST(test_ext_routes_to_driver_table)
{
	lt_env("ZE_ENABLE_ALT_DRIVERS", LT_FAKE_OLD);
	ck_assert_int_eq(zesInit(0), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zesInit(1), ZE_RESULT_ERROR_INVALID_ENUMERATION);
	uint32_t props[64] = { 0 };
	ck_assert_int_eq(zesDeviceGetProperties((void *)0x1000, props),
			 ZE_RESULT_ERROR_NOT_AVAILABLE);
	ck_assert_uint_eq(props[0], ZE_MAKE_VERSION(1, 5));
	ck_assert_int_eq(zesDeviceGetState((void *)0x1000, props),
			 ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}
END_TEST

/* The loader's own getters give its entry points, only the fields of the
 * version asked. */
START_TEST(test_ext_getters)
{
	void *t[64];
	for (int i = 0; i < 64; i++)
		t[i] = (void *)0x5a;
	ck_assert_int_eq(zesGetDeviceProcAddrTable(ZE_API_VERSION_1_0, t),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(t[0], (void *)zesDeviceGetProperties);
	ck_assert_ptr_eq(t[1], (void *)zesDeviceGetState);
	for (int i = 0; i < 25; i++)
		ck_assert_ptr_ne(t[i], (void *)0x5a);
	for (int i = 25; i < 64; i++)
		ck_assert_ptr_eq(t[i], (void *)0x5a);
	ck_assert_int_eq(zesGetDeviceProcAddrTable(ZE_API_VERSION_1_4, t),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_ne(t[28], (void *)0x5a);
	ck_assert_ptr_eq(t[29], (void *)0x5a);
	ck_assert_int_eq(zesGetDeviceProcAddrTable(ZE_MAKE_VERSION(2, 0), t),
			 ZE_RESULT_ERROR_UNSUPPORTED_VERSION);
	ck_assert_int_eq(zesGetDeviceProcAddrTable(ZE_API_VERSION_1_0, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
}
END_TEST

/* ---- tracers ----------------------------------------------------------- */

enum { T_ALLOC_HOST, T_ALLOC_DEVICE, T_ALLOC_SHARED, T_FREE, T_FREE_EXT,
       T_GET_IPC, T_OPEN_IPC, T_CLOSE_IPC, T_PUT_IPC, T_RESERVE, T_PHYS,
       T_MAP, T_UNMAP, T_VFREE, T_PHYS_DESTROY, T_COPY, T_COUNT };

struct trace_counts {
	int pro[T_COUNT], epi[T_COUNT];
	ze_result_t last[T_COUNT];
	int instance_ok;   /* epilogues that saw their prologue's data */
	size_t alloc_size; /* *psize seen by zeMemAllocHost's prologue */
	void *alloc_ptr;           /* **ppptr seen by its epilogue */
};

static void
count(void *user, int which, int epi, ze_result_t r, void **inst)
{
	struct trace_counts *c = user;
	if (!epi) {
		c->pro[which]++;
		*inst = &c->pro[which];
		return;
	}
	c->epi[which]++;
	c->last[which] = r;
	if (*inst == &c->pro[which])
		c->instance_ok++;
}

#define COUNTER(name, which)                                                  \
	static void ZE_APICALL name##_pro(void *p, ze_result_t r, void *u,     \
					  void **i)                            \
	{                                                                      \
		(void)p;                                                       \
		count(u, which, 0, r, i);                                      \
	}                                                                      \
	static void ZE_APICALL name##_epi(void *p, ze_result_t r, void *u,     \
					  void **i)                            \
	{                                                                      \
		(void)p;                                                       \
		count(u, which, 1, r, i);                                      \
	}
COUNTER(alloc_device, T_ALLOC_DEVICE)
COUNTER(alloc_shared, T_ALLOC_SHARED)
COUNTER(mem_free, T_FREE)
COUNTER(mem_free_ext, T_FREE_EXT)
COUNTER(get_ipc, T_GET_IPC)
COUNTER(open_ipc, T_OPEN_IPC)
COUNTER(close_ipc, T_CLOSE_IPC)
COUNTER(put_ipc, T_PUT_IPC)
COUNTER(reserve, T_RESERVE)
COUNTER(phys, T_PHYS)
COUNTER(map, T_MAP)
COUNTER(unmap, T_UNMAP)
COUNTER(vfree, T_VFREE)
COUNTER(phys_destroy, T_PHYS_DESTROY)
COUNTER(copy, T_COPY)

/* zeMemAllocHost's callbacks read the call's parameters. */
static void ZE_APICALL
alloc_host_pro(ze_mem_alloc_host_params_t *p, ze_result_t r, void *u,
	       void **i)
{
	((struct trace_counts *)u)->alloc_size = *p->psize;
	count(u, T_ALLOC_HOST, 0, r, i);
}

static void ZE_APICALL
alloc_host_epi(ze_mem_alloc_host_params_t *p, ze_result_t r, void *u,
	       void **i)
{
	((struct trace_counts *)u)->alloc_ptr = **p->ppptr;
	count(u, T_ALLOC_HOST, 1, r, i);
}

#define REG(fn, name)                                                         \
	do {                                                                   \
		ck_assert_int_eq(zelTracer##fn##RegisterCallback(              \
					 t, ZEL_REGISTER_PROLOGUE,             \
					 (void *)name##_pro),                  \
				 ZE_RESULT_SUCCESS);                           \
		ck_assert_int_eq(zelTracer##fn##RegisterCallback(              \
					 t, ZEL_REGISTER_EPILOGUE,             \
					 (void *)name##_epi),                  \
				 ZE_RESULT_SUCCESS);                           \
	} while (0)

static zel_tracer_handle_t
memory_tracer(struct trace_counts *c)
{
	zel_tracer_desc_t desc = { ZEL_STRUCTURE_TYPE_TRACER_DESC, NULL, c };
	zel_tracer_handle_t t = NULL;
	ck_assert_int_eq(zelTracerCreate(&desc, &t), ZE_RESULT_SUCCESS);
	ck_assert_ptr_nonnull(t);
	REG(MemAllocHost, alloc_host);
	REG(MemAllocDevice, alloc_device);
	REG(MemAllocShared, alloc_shared);
	REG(MemFree, mem_free);
	REG(MemFreeExt, mem_free_ext);
	REG(MemGetIpcHandle, get_ipc);
	REG(MemOpenIpcHandle, open_ipc);
	REG(MemCloseIpcHandle, close_ipc);
	REG(MemPutIpcHandle, put_ipc);
	REG(VirtualMemReserve, reserve);
	REG(PhysicalMemCreate, phys);
	REG(VirtualMemMap, map);
	REG(VirtualMemUnmap, unmap);
	REG(VirtualMemFree, vfree);
	REG(PhysicalMemDestroy, phys_destroy);
	REG(CommandListAppendMemoryCopy, copy);
	return t;
}

/* Each memory call once: host, device, shared, IPC get/open/close/put, a
 * copy, VMM reserve/create/map/unmap/free/destroy, free and free-ext. */
static void
memory_calls(void)
{
	void *h = NULL, *d = NULL, *s = NULL;
	ck_assert_int_eq(zeMemAllocHost(ctx, &hdesc, 4096, 0, &h),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeMemAllocDevice(ctx, &ddesc, 4096, 0, dev, &d),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeMemAllocShared(ctx, &ddesc, &hdesc, 4096, 0, dev,
					  &s),
			 ZE_RESULT_SUCCESS);
	ze_ipc_mem_handle_t ipc;
	ck_assert_int_eq(zeMemGetIpcHandle(ctx, d, &ipc), ZE_RESULT_SUCCESS);
	void *o = NULL;
	ck_assert_int_eq(zeMemOpenIpcHandle(ctx, dev, ipc, 0, &o),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeMemCloseIpcHandle(ctx, o), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeMemPutIpcHandle(ctx, ipc), ZE_RESULT_SUCCESS);
	ze_command_list_handle_t cl = NULL;
	ze_command_queue_desc_t qd = { ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       NULL, 0, 0, 0,
				       ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
				       ZE_COMMAND_QUEUE_PRIORITY_NORMAL };
	ck_assert_int_eq(zeCommandListCreateImmediate(ctx, dev, &qd, &cl),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeCommandListAppendMemoryCopy(cl, h, d, 4096, NULL,
						       0, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeCommandListDestroy(cl), ZE_RESULT_SUCCESS);
	size_t page = 0;
	ck_assert_int_eq(zeVirtualMemQueryPageSize(ctx, dev, 1, &page),
			 ZE_RESULT_SUCCESS);
	void *va = NULL;
	ck_assert_int_eq(zeVirtualMemReserve(ctx, NULL, page, &va),
			 ZE_RESULT_SUCCESS);
	ze_physical_mem_desc_t pd = { ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC,
				      NULL, 0, page };
	ze_physical_mem_handle_t pm = NULL;
	ck_assert_int_eq(zePhysicalMemCreate(ctx, dev, &pd, &pm),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeVirtualMemMap(ctx, va, page, pm, 0,
					 ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeVirtualMemUnmap(ctx, va, page), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeVirtualMemFree(ctx, va, page), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zePhysicalMemDestroy(ctx, pm), ZE_RESULT_SUCCESS);
	ze_memory_free_ext_desc_t fd = {
		ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, NULL,
		ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE
	};
	ck_assert_int_eq(zeMemFreeExt(ctx, &fd, s), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeMemFree(ctx, d), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeMemFree(ctx, h), ZE_RESULT_SUCCESS);
}

static void
assert_counts(const struct trace_counts *c, int times)
{
	for (int i = 0; i < T_COUNT; i++) {
		int want = i == T_FREE ? 2 * times : times;
		ck_assert_msg(c->pro[i] == want && c->epi[i] == want,
			      "call %d: %d prologues, %d epilogues, want %d",
			      i, c->pro[i], c->epi[i], want);
		if (times)
			ck_assert_int_eq(c->last[i], ZE_RESULT_SUCCESS);
	}
}

START_TEST(test_tracer_counts_memory_calls)
{
	struct trace_counts c;
	memset(&c, 0, sizeof(c));
	bool on = true;
	ck_assert_int_eq(zelGetTracingLayerState(&on), ZE_RESULT_SUCCESS);
	ck_assert(!on);
	init_with(LT_DRIVER);
	zel_tracer_handle_t t = memory_tracer(&c);
	/* Tracing on, tracer not yet enabled; then enabled, tracing off. */
	ck_assert_int_eq(zelEnableTracingLayer(), ZE_RESULT_SUCCESS);
	memory_calls();
	assert_counts(&c, 0);
	ck_assert_int_eq(zelDisableTracingLayer(), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelTracerSetEnabled(t, 1), ZE_RESULT_SUCCESS);
	memory_calls();
	assert_counts(&c, 0);
	/* Both on: each call seen once before and once after, with its
	 * parameters, its result and the prologue's instance data. */
	ck_assert_int_eq(zelEnableTracingLayer(), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelGetTracingLayerState(&on), ZE_RESULT_SUCCESS);
	ck_assert(on);
	memory_calls();
	assert_counts(&c, 1);
	ck_assert_int_eq(c.instance_ok, T_COUNT + 1);
	ck_assert_uint_eq(c.alloc_size, 4096);
	ck_assert_ptr_nonnull(c.alloc_ptr);
	/* A failing call: its error reaches the epilogue. */
	int x;
	ck_assert_int_eq(zeMemFree(ctx, &x), ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(c.epi[T_FREE], 3);
	ck_assert_int_eq(c.last[T_FREE], ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* Enables are counted; the last disable turns tracing off; one more
	 * disable changes nothing. */
	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(zelEnableTracingLayer(), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelDisableTracingLayer(), ZE_RESULT_SUCCESS);
	memory_calls();
	assert_counts(&c, 1);
	ck_assert_int_eq(zelDisableTracingLayer(), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelGetTracingLayerState(&on), ZE_RESULT_SUCCESS);
	ck_assert(!on);
	memory_calls();
	assert_counts(&c, 1);
	ck_assert_int_eq(zelDisableTracingLayer(), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelGetTracingLayerState(&on), ZE_RESULT_SUCCESS);
	ck_assert(!on);
	ck_assert_int_eq(zelTracerDestroy(t), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

static int core_pro_calls, core_epi_calls;

static void ZE_APICALL
core_alloc_pro(ze_mem_alloc_host_params_t *p, ze_result_t r, void *u,
	       void **i)
{
	(void)p, (void)r, (void)i;
	ck_assert_ptr_eq(u, &core_pro_calls);
	core_pro_calls++;
}

static void ZE_APICALL
core_context_epi(ze_context_create_params_t *p, ze_result_t r, void *u,
		 void **i)
{
	(void)u, (void)i;
	ck_assert_int_eq(r, ZE_RESULT_SUCCESS);
	ck_assert_ptr_nonnull(**p->pphContext);
	core_epi_calls++;
}

/* ze_callbacks_t tables, two tracers at once, tracing on from before
 * zeInit, and the errors of the tracer API. */
START_TEST(test_tracer_core_callbacks)
{
	ck_assert_int_eq(zelEnableTracingLayer(), ZE_RESULT_SUCCESS);
	zel_tracer_desc_t desc = { ZEL_STRUCTURE_TYPE_TRACER_EXP_DESC, NULL,
				   &core_pro_calls };
	zel_tracer_handle_t t1 = NULL, t2 = NULL;
	ck_assert_int_eq(zelTracerCreate(&desc, &t1), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelTracerCreate(&desc, &t2), ZE_RESULT_SUCCESS);
	zel_core_callbacks_t pro, epi;
	memset(&pro, 0, sizeof(pro));
	memset(&epi, 0, sizeof(epi));
	pro.Mem.pfnAllocHostCb = core_alloc_pro;
	epi.Context.pfnCreateCb = core_context_epi;
	ck_assert_int_eq(zelTracerSetPrologues(t1, &pro), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelTracerSetEpilogues(t1, &epi), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelTracerSetPrologues(t2, &pro), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelTracerSetEnabled(t1, 1), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelTracerSetEnabled(t2, 1), ZE_RESULT_SUCCESS);
	init_with(LT_DRIVER);
	ck_assert_int_eq(core_epi_calls, 1);
	void *h = NULL;
	ck_assert_int_eq(zeMemAllocHost(ctx, &hdesc, 64, 0, &h),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(core_pro_calls, 2);
	ck_assert_int_eq(zelTracerResetAllCallbacks(t2), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeMemFree(ctx, h), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeMemAllocHost(ctx, &hdesc, 64, 0, &h),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(core_pro_calls, 3);
	ck_assert_int_eq(zelTracerSetEnabled(t1, 0), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeMemFree(ctx, h), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeMemAllocHost(ctx, &hdesc, 64, 0, &h),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(core_pro_calls, 3);
	ck_assert_int_eq(zeMemFree(ctx, h), ZE_RESULT_SUCCESS);
	/* Errors. */
	int bogus;
	ck_assert_int_eq(zelTracerCreate(NULL, &t2),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	desc.stype = (zel_structure_type_t)7;
	ck_assert_int_eq(zelTracerCreate(&desc, &t2),
			 ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
	ck_assert_int_eq(zelTracerSetEnabled(NULL, 1),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zelTracerSetEnabled((zel_tracer_handle_t)&bogus, 1),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zelTracerSetPrologues(t1, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zelTracerMemFreeRegisterCallback(
				 t1, (zel_tracer_reg_t)2, NULL),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	ck_assert_int_eq(zelTracerDestroy(t1), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelTracerDestroy(t1),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zelTracerDestroy(t2), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelGetTracingLayerState(NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	/* At most 16 tracers alive. */
	desc.stype = ZEL_STRUCTURE_TYPE_TRACER_DESC;
	zel_tracer_handle_t many[16];
	for (int i = 0; i < 16; i++)
		ck_assert_int_eq(zelTracerCreate(&desc, &many[i]),
				 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelTracerCreate(&desc, &t1),
			 ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
	for (int i = 0; i < 16; i++)
		ck_assert_int_eq(zelTracerDestroy(many[i]), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

/* ZE_ENABLE_TRACING_LAYER=1 without a layer library: the loader's own
 * tracing is on from init. */
START_TEST(test_tracing_env_builtin)
{
	lt_env("ZE_ENABLE_TRACING_LAYER", "1");
	struct trace_counts c;
	memset(&c, 0, sizeof(c));
	init_with(LT_DRIVER);
	bool on = false;
	ck_assert_int_eq(zelGetTracingLayerState(&on), ZE_RESULT_SUCCESS);
	ck_assert(on);
	zel_tracer_handle_t t = memory_tracer(&c);
	ck_assert_int_eq(zelTracerSetEnabled(t, 1), ZE_RESULT_SUCCESS);
	memory_calls();
	assert_counts(&c, 1);
	ck_assert_int_eq(zelTracerDestroy(t), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

static atomic_long mt_pro, mt_epi;

static void ZE_APICALL
mt_pro_cb(ze_mem_get_alloc_properties_params_t *p, ze_result_t r, void *u,
	  void **i)
{
	(void)p, (void)r, (void)u;
	*i = &mt_pro;
	atomic_fetch_add(&mt_pro, 1);
}

static void ZE_APICALL
mt_epi_cb(ze_mem_get_alloc_properties_params_t *p, ze_result_t r, void *u,
	  void **i)
{
	(void)p, (void)u;
	ck_assert_int_eq(r, ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(*i, &mt_pro); /* this call's own prologue ran */
	atomic_fetch_add(&mt_epi, 1);
}

static void *
mt_caller(void *ptr)
{
	for (int i = 0; i < 20000; i++) {
		ze_memory_allocation_properties_t pr = {
			ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, NULL
		};
		if (zeMemGetAllocProperties(ctx, ptr, &pr, NULL) !=
			    ZE_RESULT_SUCCESS ||
		    pr.type != ZE_MEMORY_TYPE_HOST)
			return (void *)1;
	}
	return NULL;
}

/* Tracing and the tracer switched on and off while 4 threads call: every
 * call that ran a prologue runs its epilogue, and every call answers. */
START_TEST(test_tracing_toggled_under_load)
{
	init_with(LT_DRIVER);
	void *h = NULL;
	ck_assert_int_eq(zeMemAllocHost(ctx, &hdesc, 64, 0, &h),
			 ZE_RESULT_SUCCESS);
	zel_tracer_desc_t desc = { ZEL_STRUCTURE_TYPE_TRACER_DESC, NULL, NULL };
	zel_tracer_handle_t t = NULL;
	ck_assert_int_eq(zelTracerCreate(&desc, &t), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelTracerMemGetAllocPropertiesRegisterCallback(
				 t, ZEL_REGISTER_PROLOGUE, mt_pro_cb),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelTracerMemGetAllocPropertiesRegisterCallback(
				 t, ZEL_REGISTER_EPILOGUE, mt_epi_cb),
			 ZE_RESULT_SUCCESS);
	pthread_t th[4];
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, mt_caller, h), 0);
	for (int k = 0; k < 300; k++) {
		ck_assert_int_eq(zelTracerSetEnabled(t, k % 3 != 0),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(k % 2 ? zelDisableTracingLayer()
				       : zelEnableTracingLayer(),
				 ZE_RESULT_SUCCESS);
		sched_yield();
	}
	for (int i = 0; i < 4; i++) {
		void *bad = (void *)1;
		ck_assert_int_eq(pthread_join(th[i], &bad), 0);
		ck_assert_ptr_null(bad);
	}
	ck_assert_int_eq(atomic_load(&mt_pro), atomic_load(&mt_epi));
	/* Now off: on again, exactly one more of each. */
	long before = atomic_load(&mt_pro);
	ck_assert_int_eq(zelEnableTracingLayer(), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelTracerSetEnabled(t, 1), ZE_RESULT_SUCCESS);
	ck_assert_ptr_null(mt_caller(h) ? (void *)1 : NULL);
	ck_assert_int_eq(atomic_load(&mt_pro), before + 20000);
	ck_assert_int_eq(atomic_load(&mt_epi), before + 20000);
	ck_assert_int_eq(zelTracerDestroy(t), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeMemFree(ctx, h), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

/* ---- zer calls traced (as upstream's tracing layer traces them) ------- */

struct zer_seen {
	int pro[4], epi[4];
	uint32_t id_arg, id_result;
	ze_device_handle_t dev_arg, dev_result;
	ze_result_t err_result;
	const char *err_text;
	ze_context_handle_t ctx_result;
	void *inst_ok;
};

static void ZE_APICALL
zer_err_cb(zer_get_last_error_description_params_t *p, ze_result_t r,
	   void *u, void **inst)
{
	struct zer_seen *s = u;
	if (!*inst) {
		s->pro[0]++;
		*inst = s; /* the epilogue gets it back */
		return;
	}
	s->epi[0]++;
	s->err_result = r;
	s->err_text = **p->pppString;
	s->inst_ok = *inst;
}

static void ZE_APICALL
zer_to_id_pro(zer_translate_device_handle_to_identifier_params_t *p,
	      uint32_t r, void *u, void **inst)
{
	struct zer_seen *s = u;
	(void)inst;
	s->pro[1]++;
	s->dev_arg = *p->phDevice;
	s->id_result = r; /* 0 before the call */
}

static void ZE_APICALL
zer_to_id_epi(zer_translate_device_handle_to_identifier_params_t *p,
	      uint32_t r, void *u, void **inst)
{
	(void)p, (void)inst;
	((struct zer_seen *)u)->epi[1]++;
	((struct zer_seen *)u)->id_result = r;
}

static void ZE_APICALL
zer_to_dev_pro(zer_translate_identifier_to_device_handle_params_t *p,
	       ze_device_handle_t r, void *u, void **inst)
{
	(void)r, (void)inst;
	((struct zer_seen *)u)->pro[2]++;
	((struct zer_seen *)u)->id_arg = *p->pidentifier;
}

static void ZE_APICALL
zer_to_dev_epi(zer_translate_identifier_to_device_handle_params_t *p,
	       ze_device_handle_t r, void *u, void **inst)
{
	(void)p, (void)inst;
	((struct zer_seen *)u)->epi[2]++;
	((struct zer_seen *)u)->dev_result = r;
}

static void ZE_APICALL
zer_ctx_cb(zer_get_default_context_params_t *p, ze_context_handle_t r,
	   void *u, void **inst)
{
	struct zer_seen *s = u;
	(void)p;
	if (*inst) {
		s->epi[3]++;
		s->ctx_result = r;
	} else {
		s->pro[3]++;
		*inst = s;
	}
}

static void
zer_calls(void)
{
	const char *why = NULL;
	ck_assert_int_eq(zerGetLastErrorDescription(&why), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(zerTranslateDeviceHandleToIdentifier(dev),
			  UINT32_MAX);
	ck_assert_ptr_null(zerTranslateIdentifierToDeviceHandle(7));
	ck_assert_ptr_null(zerGetDefaultContext());
}

/* Each zer call runs its tracers' prologue and epilogue with its
 * parameters and its own result (zemem's driver has no zer: UINT32_MAX,
 * NULL, and the reason), only while tracing is on and the tracer enabled;
 * an unknown callback type is refused. */
START_TEST(test_tracer_zer_calls)
{
	init_with(LT_DRIVER);
	struct zer_seen s;
	memset(&s, 0, sizeof(s));
	zel_tracer_desc_t desc = { ZEL_STRUCTURE_TYPE_TRACER_DESC, NULL, &s };
	zel_tracer_handle_t t = NULL;
	ck_assert_int_eq(zelTracerCreate(&desc, &t), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelTracerGetLastErrorDescriptionRegisterCallback(
				 t, (zel_tracer_reg_t)2, zer_err_cb),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	ck_assert_int_eq(zelTracerGetLastErrorDescriptionRegisterCallback(
				 NULL, ZEL_REGISTER_PROLOGUE, zer_err_cb),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
#define ZREG(fn, type, cb)                                                     \
	ck_assert_int_eq(zelTracer##fn##RegisterCallback(t, type, cb),         \
			 ZE_RESULT_SUCCESS)
	ZREG(GetLastErrorDescription, ZEL_REGISTER_PROLOGUE, zer_err_cb);
	ZREG(GetLastErrorDescription, ZEL_REGISTER_EPILOGUE, zer_err_cb);
	ZREG(TranslateDeviceHandleToIdentifier, ZEL_REGISTER_PROLOGUE,
	     zer_to_id_pro);
	ZREG(TranslateDeviceHandleToIdentifier, ZEL_REGISTER_EPILOGUE,
	     zer_to_id_epi);
	ZREG(TranslateIdentifierToDeviceHandle, ZEL_REGISTER_PROLOGUE,
	     zer_to_dev_pro);
	ZREG(TranslateIdentifierToDeviceHandle, ZEL_REGISTER_EPILOGUE,
	     zer_to_dev_epi);
	ZREG(GetDefaultContext, ZEL_REGISTER_PROLOGUE, zer_ctx_cb);
	ZREG(GetDefaultContext, ZEL_REGISTER_EPILOGUE, zer_ctx_cb);
#undef ZREG
	/* Tracer enabled, tracing off: nothing runs. */
	ck_assert_int_eq(zelTracerSetEnabled(t, 1), ZE_RESULT_SUCCESS);
	zer_calls();
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(s.pro[i] + s.epi[i], 0);
	ck_assert_int_eq(zelEnableTracingLayer(), ZE_RESULT_SUCCESS);
	zer_calls();
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(s.pro[i], 1);
		ck_assert_int_eq(s.epi[i], 1);
	}
	ck_assert_int_eq(s.err_result, ZE_RESULT_SUCCESS);
	ck_assert_str_eq(s.err_text, "ERROR UNSUPPORTED FEATURE");
	ck_assert_ptr_eq(s.inst_ok, &s);
	ck_assert_ptr_eq(s.dev_arg, dev);
	ck_assert_uint_eq(s.id_result, UINT32_MAX);
	ck_assert_uint_eq(s.id_arg, 7);
	ck_assert_ptr_null(s.dev_result);
	ck_assert_ptr_null(s.ctx_result);
	/* Tracer disabled: the calls run untraced. */
	ck_assert_int_eq(zelTracerSetEnabled(t, 0), ZE_RESULT_SUCCESS);
	zer_calls();
	/* Reset: enabled again, no callback left. */
	ck_assert_int_eq(zelTracerResetAllCallbacks(t), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelTracerSetEnabled(t, 1), ZE_RESULT_SUCCESS);
	zer_calls();
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(s.pro[i] + s.epi[i], 2);
	/* Tracing off: the untraced functions are back. */
	ck_assert_int_eq(zelDisableTracingLayer(), ZE_RESULT_SUCCESS);
	zer_calls();
	ck_assert_int_eq(zelTracerDestroy(t), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

static int zello_creates;

static void ZE_APICALL
zello_context_pro(ze_context_create_params_t *p, ze_result_t r, void *u,
		  void **i)
{
	(void)p, (void)r, (void)u, (void)i;
	zello_creates++;
}

/* The sequence of upstream's samples/zello_world -tracerun: versions,
 * zeInitDrivers, tracing enabled after init, a tracer, context, immediate
 * list, event pool, event, signal, host wait, destroys guarded by
 * zelCheckIsLoaderInTearDown, tracer destroyed, tracing disabled. */
START_TEST(test_zello_sequence)
{
	lt_env("ZE_ENABLE_ALT_DRIVERS", LT_DRIVER);
	size_t nv = 0;
	ck_assert_int_eq(zelLoaderGetVersions(&nv, NULL), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(nv, 1);
	zel_component_version_t v;
	ck_assert_int_eq(zelLoaderGetVersions(&nv, &v), ZE_RESULT_SUCCESS);
	ck_assert_str_eq(v.component_name, "loader");
	/* The sample asks for GPU drivers; zemem's is a CPU driver, which
	 * answers to a request for every type. */
	ze_init_driver_type_desc_t td = {
		ZE_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC, NULL, UINT32_MAX
	};
	uint32_t n = 0;
	ck_assert_int_eq(zeInitDrivers(&n, NULL, &td), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(zelEnableTracingLayer(), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeInitDrivers(&n, &drv, &td), ZE_RESULT_SUCCESS);
	n = 1;
	ck_assert_int_eq(zeDeviceGet(drv, &n, &dev), ZE_RESULT_SUCCESS);
	zel_tracer_desc_t desc = { ZEL_STRUCTURE_TYPE_TRACER_EXP_DESC, NULL,
				   NULL };
	zel_tracer_handle_t tracer = NULL;
	ck_assert_int_eq(zelTracerCreate(&desc, &tracer), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelTracerContextCreateRegisterCallback(
				 tracer, ZEL_REGISTER_PROLOGUE,
				 zello_context_pro),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelTracerSetEnabled(tracer, 1), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeContextCreate(drv, &ctx_desc, &ctx),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zello_creates, 1);
	ze_command_queue_desc_t qd = { ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       NULL, 0, 0, 0,
				       ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
				       ZE_COMMAND_QUEUE_PRIORITY_NORMAL };
	ze_command_list_handle_t cl = NULL;
	ck_assert_int_eq(zeCommandListCreateImmediate(ctx, dev, &qd, &cl),
			 ZE_RESULT_SUCCESS);
	ze_event_pool_desc_t epd = { ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
				     ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1 };
	ze_event_pool_handle_t pool = NULL;
	ck_assert_int_eq(zeEventPoolCreate(ctx, &epd, 1, &dev, &pool),
			 ZE_RESULT_SUCCESS);
	ze_event_desc_t ed = { ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0,
			       ZE_EVENT_SCOPE_FLAG_HOST,
			       ZE_EVENT_SCOPE_FLAG_HOST };
	ze_event_handle_t ev = NULL;
	ck_assert_int_eq(zeEventCreate(pool, &ed, &ev), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeCommandListAppendSignalEvent(cl, ev),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeEventHostSynchronize(ev, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert(!zelCheckIsLoaderInTearDown());
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
	ck_assert(!zelCheckIsLoaderInTearDown());
	ck_assert_int_eq(zeCommandListDestroy(cl), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeEventDestroy(ev), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeEventPoolDestroy(pool), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelTracerDestroy(tracer), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelDisableTracingLayer(), ZE_RESULT_SUCCESS);
}
END_TEST

/* ---- teardown ---------------------------------------------------------- */

static int teardown_calls;

static void
on_teardown(void)
{
	teardown_calls++;
}

START_TEST(test_teardown_services)
{
	zel_component_version_t v;
	ck_assert_int_eq(zelGetLoaderVersion(&v), ZE_RESULT_SUCCESS);
	ck_assert_str_eq(v.component_name, "loader");
	ck_assert_int_eq(v.component_lib_version.major, 1);
	ck_assert_int_eq(v.component_lib_version.minor, 18);
	ck_assert_int_eq(zelGetLoaderVersion(NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert(!zelCheckIsLoaderInTearDown());
	ck_assert_int_eq(zelSetDriverTeardown(), ZE_RESULT_ERROR_UNINITIALIZED);
	zel_application_teardown_callback_t release = NULL;
	uint32_t i1 = 99, i2 = 99;
	ck_assert_int_eq(zelRegisterTeardownCallback(on_teardown, &release,
						     &i1),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zelRegisterTeardownCallback(on_teardown, &release,
						     &i2),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(i1, 0);
	ck_assert_uint_eq(i2, 1);
	ck_assert_ptr_nonnull(release);
	release(i2); /* the application went first: not called */
	ck_assert_int_eq(zelRegisterTeardownCallback(NULL, &release, &i2),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	init_with(LT_DRIVER);
	void *h = NULL;
	ck_assert_int_eq(zeMemAllocHost(ctx, &hdesc, 64, 0, &h),
			 ZE_RESULT_SUCCESS);
	zelLoaderContextTeardown();
	ck_assert_int_eq(teardown_calls, 1);
	ck_assert(zelCheckIsLoaderInTearDown());
	/* No driver is called again. */
	ck_assert_int_eq(zeMemFree(ctx, h), ZE_RESULT_ERROR_UNINITIALIZED);
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_ERROR_UNINITIALIZED);
	uint32_t props[64];
	ck_assert_int_eq(zesDeviceGetProperties(dev, props),
			 ZE_RESULT_ERROR_UNINITIALIZED);
	zelLoaderContextTeardown();
	ck_assert_int_eq(teardown_calls, 1);
	ck_assert_int_eq(zelEnableTracingLayer(),
			 ZE_RESULT_ERROR_UNINITIALIZED);
	ck_assert_int_eq(zeInit(0), ZE_RESULT_ERROR_UNINITIALIZED);
}
END_TEST

/* Torn down before init: init never sets the loader up. */
START_TEST(test_teardown_before_init)
{
	zelLoaderContextTeardown();
	ck_assert(zelCheckIsLoaderInTearDown());
	lt_env("ZE_ENABLE_ALT_DRIVERS", LT_DRIVER);
	ck_assert_int_eq(zeInit(0), ZE_RESULT_ERROR_UNINITIALIZED);
	uint32_t n = 0;
	ck_assert_int_eq(zeDriverGet(&n, NULL), ZE_RESULT_ERROR_UNINITIALIZED);
}
END_TEST

START_TEST(test_driver_teardown)
{
	init_with(LT_DRIVER);
	ck_assert_int_eq(zelSetDriverTeardown(), ZE_RESULT_SUCCESS);
	ck_assert(zelCheckIsLoaderInTearDown());
	uint32_t n = 0;
	ck_assert_int_eq(zeDriverGet(&n, NULL), ZE_RESULT_ERROR_UNINITIALIZED);
}
END_TEST

/* ---- Intel's loader environment (ZEL_*) -------------------------------- */

/* A fresh directory beside the test binary (in the build tree: /tmp may be
 * mounted noexec), for the log and library tests. */
static void
dir_near_exe(char *out, size_t len, const char *tag)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ck_assert_int_gt(n, 0);
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	ck_assert_int_lt(snprintf(out, len, "%s/%s-%d", exe, tag,
				  (int)getpid()),
			 (int)len);
}

static char *
read_all(const char *path)
{
	static char buf[1 << 16];
	FILE *f = fopen(path, "re");
	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

START_TEST(test_env_log_file)
{
	char top[4096], dir[4200], file[4300];
	dir_near_exe(top, sizeof(top), "zel-log");
	snprintf(dir, sizeof(dir), "%s/a/b", top);
	snprintf(file, sizeof(file), "%s/ze_loader.log", dir);
	lt_env("ZEL_ENABLE_LOADER_LOGGING", "1");
	lt_env("ZEL_LOADER_LOG_DIR", dir);
	lt_env("ZEL_LOADER_LOGGING_LEVEL", "debug");
	lt_capture_begin();
	init_with(LT_DRIVER);
	const char *err = lt_capture_end();
	ck_assert_int_eq(lt_count_lines(err, "committed:"), 0);
	const char *log = read_all(file);
	ck_assert_int_eq(lt_count_lines(log, "committed: 1 driver(s), direct"),
			 1);
	ck_assert_int_eq(lt_count_lines(log, " debug ldr: "),
			 lt_count_lines(log, "debug"));
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(unlink(file), 0);
	ck_assert_int_eq(rmdir(dir), 0);
	*strrchr(dir, '/') = '\0';
	ck_assert_int_eq(rmdir(dir), 0);
	ck_assert_int_eq(rmdir(top), 0);
}
END_TEST

START_TEST(test_env_log_console_level)
{
	lt_env("ZEL_LOADER_LOG_CONSOLE", "1");
	lt_env("ZEL_LOADER_LOGGING_LEVEL", "info");
	lt_capture_begin();
	init_with(LT_DRIVER);
	const char *log = lt_capture_end();
	ck_assert_int_eq(lt_count_lines(log, "info ldr: commit: driver 0: "
					     LT_DRIVER),
			 1);
	ck_assert_int_eq(lt_count_lines(log, "debug"), 0);
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_env_log_off)
{
	lt_env("ZEL_LOADER_LOG_CONSOLE", "1");
	lt_env("ZEL_LOADER_LOGGING_LEVEL", "off");
	lt_env("ZE_ENABLE_ALT_DRIVERS", "/nonexistent/libze_b.so.1," LT_DRIVER);
	lt_capture_begin();
	ck_assert_int_eq(zeInit(0), ZE_RESULT_SUCCESS);
	const char *log = lt_capture_end();
	ck_assert_int_eq(lt_count_lines(log, "ldr"), 0);
}
END_TEST

START_TEST(test_env_debug_trace)
{
	lt_env("ZE_ENABLE_LOADER_DEBUG_TRACE", "1");
	lt_capture_begin();
	init_with(LT_DRIVER);
	const char *log = lt_capture_end();
	ck_assert_int_eq(lt_count_lines(log, "debug ldr: commit: committed: "
					     "1 driver(s)"),
			 1);
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

/* zemem's own ZEMEM_LOG_LEVEL, naming the loader's topic, wins. */
START_TEST(test_env_zemem_log_level_wins)
{
	lt_env("ZE_ENABLE_LOADER_DEBUG_TRACE", "1");
	lt_env("ZEMEM_LOG_LEVEL", "warn,ldr:error");
	lt_capture_begin();
	init_with(LT_DRIVER);
	const char *log = lt_capture_end();
	ck_assert_int_eq(lt_count_lines(log, "ldr"), 0);
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

/* A copy of zemem's validation layer under a name only ZEL_LIBRARY_PATH
 * leads to. */
static void
copy_layer(const char *dir, char *path, size_t len)
{
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	snprintf(path, len, "%s/libze_zel_copy_layer.so.1", dir);
	char *buf = malloc(64 << 20);
	ck_assert_ptr_nonnull(buf);
	FILE *in = fopen(LT_ZEMEM_VALIDATION_LAYER, "re");
	FILE *out = fopen(path, "we");
	ck_assert(in && out);
	size_t n = fread(buf, 1, 64 << 20, in);
	ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
	fclose(in);
	fclose(out);
	free(buf);
}

START_TEST(test_env_library_path)
{
	char dir[4096], path[4200];
	dir_near_exe(dir, sizeof(dir), "zel-lib");
	copy_layer(dir, path, sizeof(path));
	lt_env("ZE_ENABLE_VALIDATION_LAYER", "1");
	lt_env("ZEMEM_VALIDATION_LAYER", "libze_zel_copy_layer.so.1");
	lt_env("ZE_ENABLE_PARAMETER_VALIDATION", "1");
	lt_env("ZEL_LIBRARY_PATH", dir);
	init_with(LT_DRIVER);
	ck_assert_str_eq(top_mem_owner(), "libze_zel_copy_layer.so.1");
	mem_roundtrip();
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(test_env_library_path_unset)
{
	lt_env("ZE_ENABLE_VALIDATION_LAYER", "1");
	lt_env("ZEMEM_VALIDATION_LAYER", "libze_zel_copy_layer.so.1");
	lt_capture_begin();
	init_with(LT_DRIVER);
	const char *log = lt_capture_end();
	ck_assert_int_eq(lt_count_lines(log, "validation layer cannot be "
					"loaded (libze_zel_copy_layer.so.1"),
			 1);
	ck_assert_str_eq(top_mem_owner(), "libze_zemem.so.1");
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
	tc = tcase_create("families");
	tcase_add_test(tc, test_ext_before_init);
	tcase_add_test(tc, test_ext_unsupported_on_zemem);
	tcase_add_test(tc, test_ext_routes_to_driver_table);
	tcase_add_test(tc, test_ext_getters);
	suite_add_tcase(s, tc);
	tc = tcase_create("tracing");
	tcase_add_test(tc, test_tracer_counts_memory_calls);
	tcase_add_test(tc, test_tracer_core_callbacks);
	tcase_add_test(tc, test_tracing_env_builtin);
	tcase_add_test(tc, test_zello_sequence);
	tcase_add_test(tc, test_tracer_zer_calls);
	tcase_add_test(tc, test_tracing_toggled_under_load);
	suite_add_tcase(s, tc);
	tc = tcase_create("teardown");
	tcase_add_test(tc, test_teardown_services);
	tcase_add_test(tc, test_driver_teardown);
	tcase_add_test(tc, test_teardown_before_init);
	suite_add_tcase(s, tc);
	tc = tcase_create("env");
	tcase_add_test(tc, test_env_log_file);
	tcase_add_test(tc, test_env_log_console_level);
	tcase_add_test(tc, test_env_log_off);
	tcase_add_test(tc, test_env_debug_trace);
	tcase_add_test(tc, test_env_zemem_log_level_wins);
	tcase_add_test(tc, test_env_library_path);
	tcase_add_test(tc, test_env_library_path_unset);
	suite_add_tcase(s, tc);
	tc = tcase_create("layers");
	tcase_add_test(tc, test_validation_layer_missing_warns);
	tcase_add_test(tc, test_tracing_layer_absent_warns);
	suite_add_tcase(s, tc);
	tc = tcase_create("zemem-layer");
	tcase_add_test(tc, test_zemem_validation_layer);
	suite_add_tcase(s, tc);
	tc = tcase_create("static-tls");
	tcase_add_test(tc, test_driver_beside_static_tls_hog);
	tcase_add_test(tc, test_validation_layer_without_static_tls_says_why);
	suite_add_tcase(s, tc);
	tc = tcase_create("debian-layers");
	tcase_add_test(tc, test_debian_validation_layer);
	tcase_add_test(tc, test_tracing_layer);
	tcase_add_test(tc, test_layers_in_order);
	suite_add_tcase(s, tc);
	return s;
}

int
main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--static-tls-child"))
		return static_tls_child();
	if (lt_skip_unless_required())
		return 77;
	/* Each test needs its own process: the loader commits once. */
	return check_run(loader_suite(), CK_NORMAL, true);
}
