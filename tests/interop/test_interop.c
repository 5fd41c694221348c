// SPDX-License-Identifier: MIT
/*
 * test_interop: a Level Zero application that uses only the public API
 * (spec 1.4 subset, so it compiles against Debian's headers and against
 * zemem's api/). It is linked with a Level Zero loader and run with
 * ZE_ENABLE_ALT_DRIVERS naming the zemem driver: it enumerates drivers and
 * devices, allocates every kind with many sizes and alignments, checks
 * properties, address ranges and error codes, and leaks nothing.
 */
#include <level_zero/ze_api.h>

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "leakcheck.h"

/* Added in spec 1.14; Debian's 1.4 headers do not name it. */
#if ZE_API_VERSION_CURRENT < ZE_MAKE_VERSION(1, 14)
#define ZE_RESULT_ERROR_ADDRESS_NOT_FOUND ((ze_result_t)0x78000021)
#endif

static ze_driver_handle_t drv;
static ze_device_handle_t dev;
static ze_context_handle_t ctx;
static struct leakcheck lc;

static const ze_device_mem_alloc_desc_t ddesc = {
	ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0
};
static const ze_host_mem_alloc_desc_t hdesc = {
	ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0
};

/* Finds the zemem driver among those the loader offers (by device type
 * CPU and name prefix). */
static void
setup(void)
{
	ck_assert_int_eq(zeInit(0), ZE_RESULT_SUCCESS);
	uint32_t n = 0;
	ck_assert_int_eq(zeDriverGet(&n, NULL), ZE_RESULT_SUCCESS);
	ck_assert_uint_ge(n, 1);
	ze_driver_handle_t drivers[16];
	if (n > 16)
		n = 16;
	ck_assert_int_eq(zeDriverGet(&n, drivers), ZE_RESULT_SUCCESS);
	drv = NULL;
	for (uint32_t i = 0; i < n && !drv; i++) {
		uint32_t nd = 1;
		ze_device_handle_t d;
		if (zeDeviceGet(drivers[i], &nd, &d) || nd == 0)
			continue;
		ze_device_properties_t p = {
			ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES, NULL
		};
		ck_assert_int_eq(zeDeviceGetProperties(d, &p),
				 ZE_RESULT_SUCCESS);
		if (p.type == ZE_DEVICE_TYPE_CPU &&
		    !strncmp(p.name, "zemem", 5)) {
			drv = drivers[i];
			dev = d;
		}
	}
	ck_assert_msg(drv != NULL, "no zemem driver among %u drivers", n);
	leakcheck_begin(&lc);
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ck_assert_int_eq(zeContextCreate(drv, &cd, &ctx), ZE_RESULT_SUCCESS);
}

static void
teardown(void)
{
	leakcheck_assert_all_cloexec();
	ck_assert_int_eq(zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
	leakcheck_end(&lc);
}

START_TEST(test_driver_properties)
{
	ze_api_version_t v;
	ck_assert_int_eq(zeDriverGetApiVersion(drv, &v), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(ZE_MAJOR_VERSION(v), 1);
	ck_assert_uint_ge(ZE_MINOR_VERSION(v), 4);
	ze_driver_properties_t p = { ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES,
				     NULL };
	ck_assert_int_eq(zeDriverGetProperties(drv, &p), ZE_RESULT_SUCCESS);
	ze_driver_uuid_t zero = { { 0 } };
	ck_assert(memcmp(&p.uuid, &zero, sizeof(zero)) != 0);
	uint32_t n = 0;
	ck_assert_int_eq(zeDriverGetExtensionProperties(drv, &n, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_ge(n, 2);
	ze_driver_extension_properties_t ext[16];
	ck_assert_uint_le(n, 16);
	ck_assert_int_eq(zeDriverGetExtensionProperties(drv, &n, ext),
			 ZE_RESULT_SUCCESS);
	int found = 0;
	for (uint32_t i = 0; i < n; i++)
		if (!strcmp(ext[i].name, ZE_MEMORY_FREE_POLICIES_EXT_NAME) ||
		    !strcmp(ext[i].name,
			    ZE_RELAXED_ALLOCATION_LIMITS_EXP_NAME))
			found++;
	ck_assert_int_eq(found, 2);
	ze_driver_ipc_properties_t ipc = {
		ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES, NULL
	};
	ck_assert_int_eq(zeDriverGetIpcProperties(drv, &ipc),
			 ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_device_properties)
{
	ze_device_properties_t p = { ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES,
				     NULL };
	ck_assert_int_eq(zeDeviceGetProperties(dev, &p), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(p.type, ZE_DEVICE_TYPE_CPU);
	ck_assert_uint_gt(p.maxMemAllocSize, 0);
	ck_assert(p.flags & ZE_DEVICE_PROPERTY_FLAG_INTEGRATED);
	uint32_t n = 0;
	ck_assert_int_eq(zeDeviceGetMemoryProperties(dev, &n, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 1);
	ze_device_memory_properties_t mp = {
		ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES, NULL
	};
	ck_assert_int_eq(zeDeviceGetMemoryProperties(dev, &n, &mp),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_ge(mp.totalSize, p.maxMemAllocSize);
	ze_device_memory_access_properties_t ap = {
		ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES, NULL
	};
	ck_assert_int_eq(zeDeviceGetMemoryAccessProperties(dev, &ap),
			 ZE_RESULT_SUCCESS);
	ck_assert(ap.sharedSystemAllocCapabilities &
		  ZE_MEMORY_ACCESS_CAP_FLAG_RW);
	ck_assert(ap.deviceAllocCapabilities & ZE_MEMORY_ACCESS_CAP_FLAG_RW);
	uint32_t ns = 7;
	ck_assert_int_eq(zeDeviceGetSubDevices(dev, &ns, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(ns, 0);
	ze_bool_t can = 0;
	ck_assert_int_eq(zeDeviceCanAccessPeer(dev, dev, &can),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(can, 1);
}
END_TEST

static void
check_alloc(int kind, size_t size, size_t align)
{
	void *p = NULL;
	ze_result_t r;
	switch (kind) {
	case ZE_MEMORY_TYPE_HOST:
		r = zeMemAllocHost(ctx, &hdesc, size, align, &p);
		break;
	case ZE_MEMORY_TYPE_DEVICE:
		r = zeMemAllocDevice(ctx, &ddesc, size, align, dev, &p);
		break;
	default:
		r = zeMemAllocShared(ctx, &ddesc, &hdesc, size, align, dev, &p);
		break;
	}
	ck_assert_int_eq(r, ZE_RESULT_SUCCESS);
	ck_assert_ptr_nonnull(p);
	if (align)
		ck_assert_uint_eq((uintptr_t)p % align, 0);
	memset(p, 0xa5, size);
	ze_memory_allocation_properties_t mp = {
		ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, NULL
	};
	ze_device_handle_t d = NULL;
	const char *interior = (const char *)p + size / 2;
	ck_assert_int_eq(zeMemGetAllocProperties(ctx, interior, &mp, &d),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(mp.type, kind);
	ck_assert_uint_ne(mp.id, 0);
	ck_assert_uint_ge(mp.pageSize, 4096);
	if (kind == ZE_MEMORY_TYPE_HOST)
		ck_assert_ptr_null(d);
	else
		ck_assert_ptr_eq(d, dev);
	void *base = NULL;
	size_t sz = 0;
	ck_assert_int_eq(zeMemGetAddressRange(ctx, interior, &base, &sz),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(base, p);
	ck_assert_uint_eq(sz, size);
	ck_assert_int_eq(zeMemGetAddressRange(ctx, (char *)p + size - 1,
					      NULL, &sz),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(sz, size);
	ck_assert_int_eq(zeMemFree(ctx, p), ZE_RESULT_SUCCESS);
}

START_TEST(test_alloc_every_kind)
{
	static const size_t sizes[] = { 1, 7, 64, 100, 1000, 4096, 4097,
					65536, 100000, 1 << 20, 3 << 20 };
	static const size_t aligns[] = { 0, 1, 8, 64, 4096, 65536,
					 1 << 21, 8 << 20 };
	int kinds[] = { ZE_MEMORY_TYPE_HOST, ZE_MEMORY_TYPE_DEVICE,
			ZE_MEMORY_TYPE_SHARED };
	for (int k = 0; k < 3; k++)
		for (size_t s = 0; s < sizeof(sizes) / sizeof(*sizes); s++)
			for (size_t a = 0; a < sizeof(aligns) / sizeof(*aligns);
			     a++)
				check_alloc(kinds[k], sizes[s], aligns[a]);
}
END_TEST

START_TEST(test_alloc_errors)
{
	void *p = (void *)1;
	ze_device_properties_t dp = { ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES,
				      NULL };
	ck_assert_int_eq(zeDeviceGetProperties(dev, &dp), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeMemAllocHost(ctx, &hdesc, 0, 0, &p),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	ck_assert_int_eq(zeMemAllocDevice(ctx, &ddesc, dp.maxMemAllocSize + 1,
					  0, dev, &p),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	ck_assert_int_eq(zeMemAllocHost(ctx, &hdesc, 64, 3, &p),
			 ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
	ck_assert_int_eq(zeMemAllocShared(ctx, &ddesc, &hdesc, 64, 48, dev,
					  &p),
			 ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
	ck_assert_int_eq(zeMemAllocHost(ctx, &hdesc, 64, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ze_host_mem_alloc_desc_t bad = hdesc;
	bad.flags = 0x80000000u;
	ck_assert_int_eq(zeMemAllocHost(ctx, &bad, 64, 0, &p),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	ze_device_mem_alloc_desc_t badd = ddesc;
	badd.flags = 0x100;
	ck_assert_int_eq(zeMemAllocDevice(ctx, &badd, 64, 0, dev, &p),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	/* Unknown pointers. */
	int local;
	ze_memory_allocation_properties_t mp = {
		ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, NULL
	};
	ck_assert_int_eq(zeMemGetAllocProperties(ctx, &local, &mp, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(mp.type, ZE_MEMORY_TYPE_UNKNOWN);
	void *base;
	ck_assert_int_eq(zeMemGetAddressRange(ctx, &local, &base, NULL),
			 ZE_RESULT_ERROR_ADDRESS_NOT_FOUND);
	ck_assert_int_eq(zeMemFree(ctx, &local),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* Interior and double free. */
	ck_assert_int_eq(zeMemAllocHost(ctx, &hdesc, 256, 0, &p),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeMemFree(ctx, (char *)p + 8),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zeMemFree(ctx, p), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeMemFree(ctx, p), ZE_RESULT_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(test_free_ext_and_relaxed_limits)
{
	void *p;
	ze_memory_free_ext_desc_t fd = { ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC,
					 NULL,
					 ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE };
	ck_assert_int_eq(zeMemAllocDevice(ctx, &ddesc, 4096, 0, dev, &p),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeMemFreeExt(ctx, &fd, p), ZE_RESULT_SUCCESS);
	fd.freePolicy = ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE;
	ck_assert_int_eq(zeMemAllocHost(ctx, &hdesc, 4096, 0, &p),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeMemFreeExt(ctx, &fd, p), ZE_RESULT_SUCCESS);
	ze_relaxed_allocation_limits_exp_desc_t rl = {
		ZE_STRUCTURE_TYPE_RELAXED_ALLOCATION_LIMITS_EXP_DESC, NULL,
		ZE_RELAXED_ALLOCATION_LIMITS_EXP_FLAG_MAX_SIZE
	};
	ze_device_mem_alloc_desc_t d2 = ddesc;
	d2.pNext = &rl;
	ck_assert_int_eq(zeMemAllocDevice(ctx, &d2, 64, 0, dev, &p),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zeMemFree(ctx, p), ZE_RESULT_SUCCESS);
}
END_TEST

static Suite *
interop_suite(void)
{
	Suite *s = suite_create("interop");
	TCase *tc = tcase_create("api");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_driver_properties);
	tcase_add_test(tc, test_device_properties);
	tcase_add_test(tc, test_alloc_every_kind);
	tcase_add_test(tc, test_alloc_errors);
	tcase_add_test(tc, test_free_ext_and_relaxed_limits);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return check_run(interop_suite(), CK_NORMAL, false);
}
