// SPDX-License-Identifier: MIT
/*
 * test_loader_multi: zemem's loader with two drivers at once, built
 * against api/. The drivers are zemem's driver and a byte copy of it under
 * another file name (libze_zemem_copy.so.1), so glibc loads two independent
 * instances. Both read the same environment, so the tests tell them apart
 * by ownership instead: each real handle lies inside the library that made
 * it (dladdr), and a pointer allocated by one driver is unknown to the
 * other. Also: routing with a driver of an older version (fake_driver),
 * forged and stale handles, handles of the wrong driver, and threads.
 *
 * Vocabulary: A = zemem's driver, B = the copy (in ZE_ENABLE_ALT_DRIVERS
 * order); "real" = the driver's handle behind a loader handle.
 */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
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

#define NDEV 2

static ze_driver_handle_t drv[2];
static ze_device_handle_t dev[2][NDEV];
static ze_context_handle_t ctx[2];
static const char *const lib[2] = { "libze_zemem.so.1",
				    "libze_zemem_copy.so.1" };
static const ze_context_desc_t ctx_desc = { ZE_STRUCTURE_TYPE_CONTEXT_DESC,
					    NULL, 0 };
static const ze_host_mem_alloc_desc_t hdesc = {
	ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0
};
static const ze_device_mem_alloc_desc_t ddesc = {
	ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0
};

static void *
real_of(zel_handle_type_t type, void *h)
{
	void *real = NULL;
	ck_assert_int_eq(zelLoaderTranslateHandle(type, h, &real),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_ne(real, h);
	return real;
}

static void
setup(void)
{
	lt_env("ZE_ENABLE_ALT_DRIVERS", LT_DRIVER "," LT_DRIVER_COPY);
	lt_env("ZEMEM_DEVICE_COUNT", "2");
	ck_assert_int_eq(zeInit(0), ZE_RESULT_SUCCESS);
	uint32_t n = 0;
	ck_assert_int_eq(zeDriverGet(&n, NULL), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(zeDriverGet(&n, drv), ZE_RESULT_SUCCESS);
	for (int d = 0; d < 2; d++) {
		n = NDEV;
		ck_assert_int_eq(zeDeviceGet(drv[d], &n, dev[d]),
				 ZE_RESULT_SUCCESS);
		ck_assert_uint_eq(n, NDEV);
		ck_assert_int_eq(zeContextCreate(drv[d], &ctx_desc, &ctx[d]),
				 ZE_RESULT_SUCCESS);
	}
}

static void
teardown(void)
{
	for (int d = 0; d < 2; d++)
		ck_assert_int_eq(zeContextDestroy(ctx[d]), ZE_RESULT_SUCCESS);
}

START_TEST(test_multi_handles_are_wrapped)
{
	ck_assert_ptr_ne(drv[0], drv[1]);
	for (int d = 0; d < 2; d++) {
		/* Loader handles are not in any driver... */
		ck_assert_str_ne(lt_lib_base_of(drv[d]), lib[d]);
		/* ...and stand for objects of the right driver. */
		ck_assert_str_eq(lt_lib_base_of(real_of(ZEL_HANDLE_DRIVER,
							drv[d])), lib[d]);
		ck_assert_str_eq(lt_lib_base_of(real_of(ZEL_HANDLE_CONTEXT,
							ctx[d])), lib[d]);
		for (int i = 0; i < NDEV; i++)
			ck_assert_str_eq(lt_lib_base_of(real_of(
						 ZEL_HANDLE_DEVICE, dev[d][i])),
					 lib[d]);
		/* The same driver object gives the same loader handle. */
		ze_device_handle_t again[NDEV];
		uint32_t n = NDEV;
		ck_assert_int_eq(zeDeviceGet(drv[d], &n, again),
				 ZE_RESULT_SUCCESS);
		ck_assert_mem_eq(again, dev[d], sizeof(again));
		ze_device_handle_t root = NULL;
		ck_assert_int_eq(zeDeviceGetRootDevice(dev[d][1], &root),
				 ZE_RESULT_SUCCESS);
		ze_device_properties_t dp = {
			ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES, NULL
		};
		ck_assert_int_eq(zeDeviceGetProperties(dev[d][1], &dp),
				 ZE_RESULT_SUCCESS);
	}
	/* zeInitDrivers concatenates the same handles. */
	ze_init_driver_type_desc_t desc = {
		ZE_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC, NULL, UINT32_MAX
	};
	ze_driver_handle_t h[3] = { NULL, NULL, NULL };
	uint32_t n = 3;
	ck_assert_int_eq(zeInitDrivers(&n, h, &desc), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 2);
	ck_assert_ptr_eq(h[0], drv[0]);
	ck_assert_ptr_eq(h[1], drv[1]);
	n = 1;
	ck_assert_int_eq(zeDriverGet(&n, h), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 1);
}
END_TEST

static void
alloc_roundtrip(void)
{
	void *p[2][3];
	for (int d = 0; d < 2; d++) {
		ck_assert_int_eq(zeMemAllocHost(ctx[d], &hdesc, 4096, 0,
						&p[d][0]),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zeMemAllocDevice(ctx[d], &ddesc, 4096, 0,
						  dev[d][1], &p[d][1]),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zeMemAllocShared(ctx[d], &ddesc, &hdesc, 4096,
						  0, dev[d][0], &p[d][2]),
				 ZE_RESULT_SUCCESS);
	}
	const ze_memory_type_t want[3] = { ZE_MEMORY_TYPE_HOST,
					   ZE_MEMORY_TYPE_DEVICE,
					   ZE_MEMORY_TYPE_SHARED };
	for (int d = 0; d < 2; d++) {
		for (int k = 0; k < 3; k++) {
			ze_memory_allocation_properties_t pr = {
				ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES
			};
			ze_device_handle_t owner = NULL;
			/* Its own driver knows it, and the device handle that
			 * comes back is the loader handle of zeDeviceGet. */
			ck_assert_int_eq(zeMemGetAllocProperties(
						 ctx[d], p[d][k], &pr, &owner),
					 ZE_RESULT_SUCCESS);
			ck_assert_int_eq(pr.type, want[k]);
			if (k == 1)
				ck_assert_ptr_eq(owner, dev[d][1]);
			if (k == 2)
				ck_assert_ptr_eq(owner, dev[d][0]);
			/* The other driver does not. */
			owner = NULL;
			ck_assert_int_eq(zeMemGetAllocProperties(
						 ctx[!d], p[d][k], &pr, &owner),
					 ZE_RESULT_SUCCESS);
			ck_assert_int_eq(pr.type, ZE_MEMORY_TYPE_UNKNOWN);
			void *base = NULL;
			size_t size = 0;
			ck_assert_int_eq(zeMemGetAddressRange(ctx[!d], p[d][k],
							      &base, &size),
					 ZE_RESULT_ERROR_ADDRESS_NOT_FOUND);
			ck_assert_int_eq(zeMemGetAddressRange(ctx[d], p[d][k],
							      &base, &size),
					 ZE_RESULT_SUCCESS);
			ck_assert_ptr_eq(base, p[d][k]);
			ck_assert_int_eq(zeMemFree(ctx[!d], p[d][k]),
					 ZE_RESULT_ERROR_INVALID_ARGUMENT);
		}
	}
	/* IPC through each context. */
	for (int d = 0; d < 2; d++) {
		ze_ipc_mem_handle_t ipc;
		ck_assert_int_eq(zeMemGetIpcHandle(ctx[d], p[d][1], &ipc),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zeMemPutIpcHandle(ctx[d], ipc),
				 ZE_RESULT_SUCCESS);
	}
	for (int d = 0; d < 2; d++)
		for (int k = 0; k < 3; k++)
			ck_assert_int_eq(zeMemFree(ctx[d], p[d][k]),
					 ZE_RESULT_SUCCESS);
}

START_TEST(test_multi_alloc_lands_on_right_driver)
{
	alloc_roundtrip(); /* the drivers' pools reach their steady state */
	struct leakcheck lc;
	lt_leak_begin(&lc);
	alloc_roundtrip();
	lt_leak_end(&lc);
}
END_TEST

START_TEST(test_multi_handles_of_other_driver)
{
	void *p = NULL;
	ze_context_handle_t c = NULL;
	/* A device of B in a call on A's context or driver. */
	ck_assert_int_eq(zeMemAllocDevice(ctx[0], &ddesc, 64, 0, dev[1][0],
					  &p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_null(p);
	ze_device_handle_t mixed[2] = { dev[0][0], dev[1][0] };
	ck_assert_int_eq(zeContextCreateEx(drv[0], &ctx_desc, 2, mixed, &c),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ze_bool_t can = 1;
	ck_assert_int_eq(zeDeviceCanAccessPeer(dev[0][0], dev[1][0], &can),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* An array of A's own devices is unwrapped element by element. */
	ck_assert_int_eq(zeContextCreateEx(drv[0], &ctx_desc, NDEV, dev[0],
					   &c),
			 ZE_RESULT_SUCCESS);
	ck_assert_str_eq(lt_lib_base_of(real_of(ZEL_HANDLE_CONTEXT, c)),
			 lib[0]);
	ck_assert_int_eq(zeDeviceCanAccessPeer(dev[0][0], dev[0][1], &can),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeContextDestroy(c), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_multi_forged_and_stale_handles)
{
	int local = 0;
	void *out = NULL;
	ze_context_handle_t c = NULL;
	ck_assert_int_eq(zeContextDestroy((ze_context_handle_t)(uintptr_t)0x1000),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zeContextDestroy((ze_context_handle_t)(void *)&local),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zeContextDestroy((ze_context_handle_t)UINTPTR_MAX),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* A real handle of the driver, bypassing the loader. */
	ck_assert_int_eq(zeContextDestroy(real_of(ZEL_HANDLE_CONTEXT, ctx[0])),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* A loader handle of another kind, or misaligned inside one. */
	ck_assert_int_eq(zeContextDestroy((ze_context_handle_t)(void *)dev[0][0]),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zeContextDestroy((ze_context_handle_t)(void *)(
				 (char *)ctx[0] + 8)),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zeContextDestroy(NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	/* Destroyed: the handle is stale. */
	ck_assert_int_eq(zeContextCreate(drv[1], &ctx_desc, &c),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeContextDestroy(c), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeContextDestroy(c), ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zelLoaderTranslateHandle(ZEL_HANDLE_CONTEXT, c, &out),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zelLoaderTranslateHandle(ZEL_HANDLE_CONTEXT,
						  (void *)&local, &out),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zelLoaderTranslateHandle((zel_handle_type_t)99,
						  ctx[0], &out),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	ck_assert_int_eq(zelLoaderTranslateHandle(ZEL_HANDLE_CONTEXT, ctx[0],
						  NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	/* Arrays with a NULL or a forged element. */
	ze_device_handle_t bad[2] = { dev[0][0], NULL };
	ck_assert_int_eq(zeContextCreateEx(drv[0], &ctx_desc, 2, bad, &c),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	bad[1] = (ze_device_handle_t)(void *)&local;
	ck_assert_int_eq(zeContextCreateEx(drv[0], &ctx_desc, 2, bad, &c),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(test_multi_extension_function_is_routed)
{
	void *fn = NULL;
	ck_assert_int_eq(zeDriverGetExtensionFunctionAddress(
				 drv[1], "zeMemGetIpcHandleFromFileDescriptorExp",
				 &fn),
			 ZE_RESULT_SUCCESS);
	/* Not the driver's function (it would get loader handles). */
	ck_assert_ptr_eq(fn, (void *)zeMemGetIpcHandleFromFileDescriptorExp);
	ck_assert_int_eq(zeDriverGetExtensionFunctionAddress(
				 drv[1], "zeNoSuchFunction", &fn),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
}
END_TEST

static void *
worker(void *arg)
{
	int id = (int)(intptr_t)arg;
	for (int i = 0; i < 200; i++) {
		int d = (id + i) & 1;
		ze_context_handle_t c = NULL;
		void *p = NULL;
		ze_device_handle_t owner = NULL;
		ze_memory_allocation_properties_t pr = {
			ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES
		};
		if (zeContextCreate(drv[d], &ctx_desc, &c) ||
		    zeMemAllocDevice(c, &ddesc, 256, 0, dev[d][i % NDEV], &p) ||
		    zeMemGetAllocProperties(c, p, &pr, &owner) ||
		    owner != dev[d][i % NDEV] || zeMemFree(c, p) ||
		    zeContextDestroy(c))
			return (void *)1;
	}
	return NULL;
}

START_TEST(test_multi_threads)
{
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, worker,
						(void *)(intptr_t)i),
				 0);
	for (int i = 0; i < 4; i++) {
		void *ret = (void *)1;
		ck_assert_int_eq(pthread_join(t[i], &ret), 0);
		ck_assert_ptr_null(ret);
	}
}
END_TEST

static void *
init_thread(void *arg)
{
	ze_driver_handle_t *out = arg;
	uint32_t n = 2;
	if (zeInit(0) || zeDriverGet(&n, out) || n != 2)
		return (void *)1;
	return NULL;
}

START_TEST(test_multi_concurrent_first_init)
{
	lt_env("ZE_ENABLE_ALT_DRIVERS", LT_DRIVER "," LT_DRIVER_COPY);
	pthread_t t[4];
	ze_driver_handle_t h[4][2];
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, init_thread, h[i]),
				 0);
	for (int i = 0; i < 4; i++) {
		void *ret = (void *)1;
		ck_assert_int_eq(pthread_join(t[i], &ret), 0);
		ck_assert_ptr_null(ret);
	}
	/* One commit: every thread got the same two loader handles. */
	for (int i = 1; i < 4; i++)
		ck_assert_mem_eq(h[i], h[0], sizeof(h[0]));
	ck_assert_ptr_ne(h[0][0], h[0][1]);
}
END_TEST

START_TEST(test_multi_older_driver_slots)
{
	/* zemem's driver and a 1.5 driver: zeMemGetPitchFor2dImage (1.9) is
	 * supported by one and not the other. */
	lt_env("ZE_ENABLE_ALT_DRIVERS", LT_DRIVER "," LT_FAKE_OLD);
	ck_assert_int_eq(zeInit(0), ZE_RESULT_SUCCESS);
	ze_driver_handle_t h[2];
	uint32_t n = 2;
	ck_assert_int_eq(zeDriverGet(&n, h), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 2);
	ze_driver_properties_t props = { ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES,
					 NULL };
	ck_assert_int_eq(zeDriverGetProperties(h[1], &props),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(props.driverVersion, 0xfa4e);
	for (int d = 0; d < 2; d++) {
		ze_device_handle_t dv = NULL;
		ze_context_handle_t c = NULL;
		n = 1;
		ck_assert_int_eq(zeDeviceGet(h[d], &n, &dv), ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zeContextCreate(h[d], &ctx_desc, &c),
				 ZE_RESULT_SUCCESS);
		size_t pitch = 0;
		ck_assert_int_eq(zeMemGetPitchFor2dImage(c, dv, 16, 16, 4,
							 &pitch),
				 d ? ZE_RESULT_ERROR_UNSUPPORTED_FEATURE
				   : ZE_RESULT_SUCCESS);
		void *p = NULL;
		ck_assert_int_eq(zeMemAllocHost(c, &hdesc, 64, 0, &p),
				 d ? ZE_RESULT_ERROR_UNSUPPORTED_FEATURE
				   : ZE_RESULT_SUCCESS);
		if (p)
			ck_assert_int_eq(zeMemFree(c, p), ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zeContextDestroy(c), ZE_RESULT_SUCCESS);
	}
}
END_TEST

START_TEST(test_multi_with_debian_validation_layer)
{
	if (access(LT_SYS_VALIDATION_LAYER, F_OK)) {
		printf("skip: %s not installed\n", LT_SYS_VALIDATION_LAYER);
		return;
	}
	lt_env("ZE_ENABLE_VALIDATION_LAYER", "1");
	lt_env("ZEMEM_VALIDATION_LAYER", LT_SYS_VALIDATION_LAYER);
	lt_env("ZE_ENABLE_PARAMETER_VALIDATION", "1");
	setup();
	for (int d = 0; d < 2; d++) {
		void *p = NULL;
		ze_memory_allocation_properties_t pr = {
			ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES
		};
		ze_device_handle_t owner = NULL;
		ck_assert_int_eq(zeMemAllocShared(ctx[d], &ddesc, &hdesc, 64, 0,
						  dev[d][1], &p),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zeMemGetAllocProperties(ctx[d], p, &pr,
							 &owner),
				 ZE_RESULT_SUCCESS);
		ck_assert_ptr_eq(owner, dev[d][1]);
		ck_assert_int_eq(zeMemGetAllocProperties(ctx[!d], p, &pr, NULL),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(pr.type, ZE_MEMORY_TYPE_UNKNOWN);
		ck_assert_int_eq(zeMemFree(ctx[d], p), ZE_RESULT_SUCCESS);
	}
	teardown();
}
END_TEST


/* ZEL_DRIVERS_ORDER: which library the first driver handle belongs to. */
static const char *
first_driver_lib(const char *order)
{
	lt_env("ZE_ENABLE_ALT_DRIVERS", LT_DRIVER "," LT_DRIVER_COPY);
	lt_env("ZEL_DRIVERS_ORDER", order);
	ck_assert_int_eq(zeInit(0), ZE_RESULT_SUCCESS);
	ze_driver_handle_t h[2];
	uint32_t n = 2;
	ck_assert_int_eq(zeDriverGet(&n, h), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_ne(lt_lib_base_of(real_of(ZEL_HANDLE_DRIVER, h[0])),
			 lt_lib_base_of(real_of(ZEL_HANDLE_DRIVER, h[1])));
	return lt_lib_base_of(real_of(ZEL_HANDLE_DRIVER, h[0]));
}

START_TEST(test_order_by_index)
{
	ck_assert_str_eq(first_driver_lib("1"), lib[1]);
}
END_TEST

START_TEST(test_order_unset_or_no_match)
{
	/* zemem's devices are CPUs: no GPU class matches; order kept. */
	ck_assert_str_eq(first_driver_lib("INTEGRATED_GPU_ONLY,GPU,7"),
			 lib[0]);
}
END_TEST

START_TEST(test_order_by_type_index)
{
	/* Devices that are no GPU are in Intel's NPU class. */
	ck_assert_str_eq(first_driver_lib("NPU:1"), lib[1]);
}
END_TEST

START_TEST(test_order_bad_token_warns)
{
	lt_capture_begin();
	const char *first = first_driver_lib(" bogus , 1 ");
	const char *log = lt_capture_end();
	ck_assert_str_eq(first, lib[1]);
	ck_assert_int_eq(lt_count_lines(log, "ZEL_DRIVERS_ORDER: 'bogus' "
					     "ignored"),
			 1);
}
END_TEST

static Suite *
multi_suite(void)
{
	Suite *s = suite_create("loader-multi");
	TCase *tc = tcase_create("two-zemem");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_multi_handles_are_wrapped);
	tcase_add_test(tc, test_multi_alloc_lands_on_right_driver);
	tcase_add_test(tc, test_multi_handles_of_other_driver);
	tcase_add_test(tc, test_multi_forged_and_stale_handles);
	tcase_add_test(tc, test_multi_extension_function_is_routed);
	tcase_add_test(tc, test_multi_threads);
	suite_add_tcase(s, tc);
	tc = tcase_create("order");
	tcase_add_test(tc, test_order_by_index);
	tcase_add_test(tc, test_order_unset_or_no_match);
	tcase_add_test(tc, test_order_by_type_index);
	tcase_add_test(tc, test_order_bad_token_warns);
	suite_add_tcase(s, tc);
	tc = tcase_create("mixed");
	tcase_add_test(tc, test_multi_concurrent_first_init);
	tcase_add_test(tc, test_multi_older_driver_slots);
	suite_add_tcase(s, tc);
	tc = tcase_create("debian-layers");
	tcase_add_test(tc, test_multi_with_debian_validation_layer);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	if (lt_skip_unless_required())
		return 77;
	return check_run(multi_suite(), CK_NORMAL, true);
}
