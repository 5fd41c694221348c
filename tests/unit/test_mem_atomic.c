// SPDX-License-Identifier: MIT
/*
 * test_mem_atomic: zeMemSetAtomicAccessAttributeExp /
 * zeMemGetAtomicAccessAttributeExp through the driver's DDI tables: the
 * getter's version gate, every error with its exact result, then the
 * round trip of every attribute the device's capabilities allow (as
 * Intel's conformance suite checks them: AtomicAccessTests), on every
 * kind of memory, per device, and that a freed allocation's attribute
 * never answers for a new one. Runs with two devices (meson.build) in the
 * leak-checked fixture.
 */
#include <check.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check_run.h"
#include "leakcheck.h"
#include "zt.h"

#define NO_ATOMICS ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_ATOMICS
#define NO_HOST ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_HOST_ATOMICS
#define HOST ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_HOST_ATOMICS
#define NO_DEVICE ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_DEVICE_ATOMICS
#define DEVICE ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_DEVICE_ATOMICS
#define NO_SYSTEM ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_SYSTEM_ATOMICS
#define SYSTEM ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_SYSTEM_ATOMICS

static char junk[256];

static ze_result_t
set(void *p, size_t size, uint32_t attr)
{
	return zt.mem_exp.pfnSetAtomicAccessAttributeExp(zt.ctx, zt.dev, p,
							 size, attr);
}

static uint32_t
get(void *p, size_t size)
{
	ze_memory_atomic_attr_exp_flags_t a = 0xdead;
	ck_assert_int_eq(zt.mem_exp.pfnGetAtomicAccessAttributeExp(zt.ctx,
								   zt.dev, p,
								   size, &a),
			 ZE_RESULT_SUCCESS);
	return a;
}

static void *
shared(size_t size)
{
	void *p = NULL;
	ck_assert_int_eq(zt.mem.pfnAllocShared(zt.ctx, &zt_ddesc, &zt_hdesc,
					       size, 0, zt.dev, &p),
			 ZE_RESULT_SUCCESS);
	return p;
}

/* The capability each positive flag needs, from
 * zeDeviceGetMemoryAccessProperties, as the conformance suite reads it. */
static int
allowed(uint32_t flag, int system)
{
	ze_device_memory_access_properties_t mp = {
		ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES, NULL
	};
	ck_assert_int_eq(zt.device.pfnGetMemoryAccessProperties(zt.dev, &mp),
			 ZE_RESULT_SUCCESS);
	switch (flag) {
	case HOST:
		return !!(mp.hostAllocCapabilities &
			  ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC);
	case DEVICE:
		return !!(mp.deviceAllocCapabilities &
			  ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC);
	case SYSTEM:
		return !!((system ? mp.sharedSystemAllocCapabilities
				  : mp.sharedSingleDeviceAllocCapabilities) &
			  ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT_ATOMIC);
	default:
		return 1; /* the NO_ flags need nothing */
	}
}

/* Every single flag in the conformance suite's order, then 0. */
static void
round_trip(void *p, size_t size, int system)
{
	static const uint32_t flags[] = {
		NO_ATOMICS, NO_HOST, HOST, NO_DEVICE, DEVICE, NO_SYSTEM,
		SYSTEM,
	};
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		ze_result_t r = set(p, size, flags[i]);
		if (!allowed(flags[i], system)) {
			ck_assert_int_eq(r, ZE_RESULT_ERROR_INVALID_ARGUMENT);
			continue;
		}
		ck_assert_int_eq(r, ZE_RESULT_SUCCESS);
		ck_assert_uint_eq(get(p, size), flags[i]);
	}
	ck_assert_int_eq(set(p, size, HOST | DEVICE | SYSTEM),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(get(p, size), HOST | DEVICE | SYSTEM);
	ck_assert_int_eq(set(p, size, NO_HOST | DEVICE), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(get(p, size), NO_HOST | DEVICE);
	ck_assert_int_eq(set(p, size, 0), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(get(p, size), 0);
}

START_TEST(test_getter_fills_atomic_slots_from_1_7)
{
	void *dl = dlopen(zt_driver_path(), RTLD_NOW | RTLD_LOCAL);
	ck_assert_ptr_nonnull(dl);
	ze_pfnGetMemExpProcAddrTable_t getter =
		(ze_pfnGetMemExpProcAddrTable_t)dlsym(
			dl, "zeGetMemExpProcAddrTable");
	ck_assert_ptr_nonnull(getter);
	ze_mem_exp_dditable_t t;
	memset(&t, 0, sizeof(t));
	ck_assert_int_eq(getter(ZE_API_VERSION_1_6, &t), ZE_RESULT_SUCCESS);
	ck_assert_ptr_nonnull(t.pfnGetIpcHandleFromFileDescriptorExp);
	ck_assert_ptr_null(t.pfnSetAtomicAccessAttributeExp);
	ck_assert_ptr_null(t.pfnGetAtomicAccessAttributeExp);
	ck_assert_int_eq(getter(ZE_API_VERSION_1_7, &t), ZE_RESULT_SUCCESS);
	ck_assert_ptr_nonnull(t.pfnSetAtomicAccessAttributeExp);
	ck_assert_ptr_nonnull(t.pfnGetAtomicAccessAttributeExp);
	dlclose(dl);
}
END_TEST

START_TEST(test_atomic_attr_errors)
{
	void *p = shared(4096);
	ze_memory_atomic_attr_exp_flags_t a = 0;
	ze_pfnMemSetAtomicAccessAttributeExp_t s =
		zt.mem_exp.pfnSetAtomicAccessAttributeExp;
	ze_pfnMemGetAtomicAccessAttributeExp_t g =
		zt.mem_exp.pfnGetAtomicAccessAttributeExp;
	ck_assert_int_eq(s(NULL, zt.dev, p, 64, HOST),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(g(NULL, zt.dev, p, 64, &a),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(s((void *)junk, zt.dev, p, 64, HOST),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(s(zt.ctx, NULL, p, 64, HOST),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(g(zt.ctx, NULL, p, 64, &a),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(s(zt.ctx, (void *)junk, p, 64, HOST),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(s(zt.ctx, zt.dev, NULL, 64, HOST),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(g(zt.ctx, zt.dev, NULL, 64, &a),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(g(zt.ctx, zt.dev, p, 64, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	/* Unknown bits: the spec's code. */
	ck_assert_int_eq(s(zt.ctx, zt.dev, p, 64, 0x80),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	ck_assert_int_eq(s(zt.ctx, zt.dev, p, 64, HOST | 0x100),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	/* A flag with its opposite, NO_ATOMICS with atomics. */
	ck_assert_int_eq(s(zt.ctx, zt.dev, p, 64, HOST | NO_HOST),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(s(zt.ctx, zt.dev, p, 64, DEVICE | NO_DEVICE),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(s(zt.ctx, zt.dev, p, 64, SYSTEM | NO_SYSTEM),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(s(zt.ctx, zt.dev, p, 64, NO_ATOMICS | DEVICE),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* Size 0, past the end of the allocation, wrapping round. */
	ck_assert_int_eq(s(zt.ctx, zt.dev, p, 0, HOST),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(g(zt.ctx, zt.dev, p, 0, &a),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(s(zt.ctx, zt.dev, p, 4097, HOST),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(s(zt.ctx, zt.dev, (char *)p + 4000, 97, HOST),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(g(zt.ctx, zt.dev, (char *)p + 4000, 97, &a),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(s(zt.ctx, zt.dev, p, SIZE_MAX, HOST),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* Memory of no allocation that is not mapped either. */
	long os = sysconf(_SC_PAGESIZE);
	void *hole = mmap(NULL, (size_t)os, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert(hole != MAP_FAILED);
	ck_assert_int_eq(munmap(hole, (size_t)os), 0);
	ck_assert_int_eq(s(zt.ctx, zt.dev, hole, 64, HOST),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(g(zt.ctx, zt.dev, hole, 64, &a),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* Another context's allocation; a device outside the context. */
	ze_device_handle_t devs[2];
	uint32_t n = 2;
	ck_assert_int_eq(zt.device.pfnGet(zt.drv, &n, devs),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 2);
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_context_handle_t c1;
	ck_assert_int_eq(zt.context.pfnCreateEx(zt.drv, &cd, 1, &devs[1], &c1),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(s(c1, devs[1], p, 64, HOST),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(g(c1, devs[1], p, 64, &a),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(s(c1, devs[0], p, 64, HOST),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.context.pfnDestroy(c1), ZE_RESULT_SUCCESS);
	/* Nothing was recorded by the failures. */
	ck_assert_uint_eq(get(p, 64), 0);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), ZE_RESULT_SUCCESS);
}
END_TEST

/* AtomicAccessTests.SetAndGetAccessTypeForSharedAllocation, and the same
 * on device and host allocations and on a part of one. */
START_TEST(test_atomic_attr_round_trip_usm)
{
	void *p = shared(256 * sizeof(int));
	round_trip(p, 256, 0);
	round_trip((char *)p + 64, 64, 0);
	/* Per allocation: a Set on a part sets the whole. */
	ck_assert_int_eq(set((char *)p + 512, 16, DEVICE), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(get(p, 1024), DEVICE);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), ZE_RESULT_SUCCESS);
	void *d = NULL, *h = NULL;
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, 1 << 20, 0,
					       zt.dev, &d),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnAllocHost(zt.ctx, &zt_hdesc, 100, 0, &h),
			 ZE_RESULT_SUCCESS);
	round_trip(d, 1 << 20, 0);
	round_trip(h, 100, 0);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, d), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, h), ZE_RESULT_SUCCESS);
}
END_TEST

/* SetAndGetPositiveAccessTypeWithSharedSystemAllocator: malloc'ed memory
 * (the devices report shared-system access), kept per range. */
START_TEST(test_atomic_attr_round_trip_system)
{
	int *m = malloc(256 * sizeof(int));
	ck_assert_ptr_nonnull(m);
	round_trip(m, 256, 1);
	ck_assert_int_eq(set(m, 256, SYSTEM), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(get(m, 256), SYSTEM);
	ck_assert_uint_eq(get(m + 8, 16), SYSTEM);
	/* A new Set over part of the range replaces it. */
	ck_assert_int_eq(set(m + 16, 64, HOST), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(get(m + 16, 64), HOST);
	ck_assert_uint_eq(get(m, 16), 0);
	free(m);
}
END_TEST

/* A VMM mapping is an allocation too; the reservation's unmapped pages
 * are not memory. */
START_TEST(test_atomic_attr_vmm_mapping)
{
	size_t page = 0, sz = 64 << 10;
	ck_assert_int_eq(zt.vmem.pfnQueryPageSize(zt.ctx, zt.dev, sz, &page),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(page, sz);
	void *va = NULL;
	ck_assert_int_eq(zt.vmem.pfnReserve(zt.ctx, NULL, 2 * sz, &va),
			 ZE_RESULT_SUCCESS);
	ze_physical_mem_desc_t pd = { ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC,
				      NULL, 0, sz };
	ze_physical_mem_handle_t pm = NULL;
	ck_assert_int_eq(zt.pmem.pfnCreate(zt.ctx, zt.dev, &pd, &pm),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, va, sz, pm, 0,
					ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
			 ZE_RESULT_SUCCESS);
	round_trip(va, sz, 0);
	ck_assert_int_eq(set((char *)va + sz, 64, HOST),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(set((char *)va + sz - 64, 128, HOST),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, va, sz), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.pmem.pfnDestroy(zt.ctx, pm), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.vmem.pfnFree(zt.ctx, va, 2 * sz),
			 ZE_RESULT_SUCCESS);
}
END_TEST

/* Per device: what one device was told is not another's. A freed
 * allocation's attribute never answers for the next one, at the same
 * address or not, however many come and go. */
START_TEST(test_atomic_attr_per_device_and_never_stale)
{
	ze_device_handle_t devs[2];
	uint32_t n = 2;
	ck_assert_int_eq(zt.device.pfnGet(zt.drv, &n, devs),
			 ZE_RESULT_SUCCESS);
	void *p = shared(128);
	ck_assert_int_eq(zt.mem_exp.pfnSetAtomicAccessAttributeExp(
				 zt.ctx, devs[1], p, 128, SYSTEM),
			 ZE_RESULT_SUCCESS);
	ze_memory_atomic_attr_exp_flags_t a = 1;
	ck_assert_int_eq(zt.mem_exp.pfnGetAtomicAccessAttributeExp(
				 zt.ctx, devs[1], p, 128, &a),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(a, SYSTEM);
	ck_assert_uint_eq(get(p, 128), 0); /* devs[0] */
	for (int i = 0; i < 300; i++) {
		ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), ZE_RESULT_SUCCESS);
		p = shared(128);
		ck_assert_uint_eq(get(p, 128), 0);
		ck_assert_int_eq(set(p, 128, (uint32_t)(i % 2 ? HOST : DEVICE)),
				 ZE_RESULT_SUCCESS);
		ck_assert_uint_eq(get(p, 128), (uint32_t)(i % 2 ? HOST : DEVICE));
	}
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), ZE_RESULT_SUCCESS);
	/* Many live ones at once keep their own. */
	void *live[100];
	for (int i = 0; i < 100; i++) {
		live[i] = shared(64);
		ck_assert_int_eq(set(live[i], 64, i % 3 ? HOST : NO_ATOMICS),
				 ZE_RESULT_SUCCESS);
	}
	for (int i = 0; i < 100; i++) {
		ck_assert_uint_eq(get(live[i], 64), i % 3 ? HOST : NO_ATOMICS);
		ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, live[i]),
				 ZE_RESULT_SUCCESS);
	}
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("mem-atomic");
	TCase *tc = tcase_create("atomic");
	tcase_add_checked_fixture(tc, zt_checked_setup, zt_checked_teardown);
	tcase_add_test(tc, test_getter_fills_atomic_slots_from_1_7);
	tcase_add_test(tc, test_atomic_attr_errors);
	tcase_add_test(tc, test_atomic_attr_round_trip_usm);
	tcase_add_test(tc, test_atomic_attr_round_trip_system);
	tcase_add_test(tc, test_atomic_attr_vmm_mapping);
	tcase_add_test(tc, test_atomic_attr_per_device_and_never_stale);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return check_run(suite(), CK_NORMAL, false);
}
