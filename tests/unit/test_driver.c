// SPDX-License-Identifier: MIT
/*
 * test_driver: the driver core through its DDI tables, with no loader:
 * getters and versions, init, driver/device/context objects, the USM entry
 * points' error codes, budgets, descriptor chains and threads.
 */
#include <check.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_run.h"
#include "leakcheck.h"
#include "zt.h"


/* ---- getters ---------------------------------------------------------- */

START_TEST(test_getter_bad_version)
{
	void *dl = dlopen(zt_driver_path(), RTLD_NOW | RTLD_LOCAL);
	ck_assert_ptr_nonnull(dl);
	ze_result_t (*get)(ze_api_version_t, ze_mem_dditable_t *) =
		(ze_result_t(*)(ze_api_version_t, ze_mem_dditable_t *))dlsym(
			dl, "zeGetMemProcAddrTable");
	ck_assert_ptr_nonnull(get);
	ze_mem_dditable_t t;
	ck_assert_int_eq(get(ZE_MAKE_VERSION(2, 0), &t),
			 ZE_RESULT_ERROR_UNSUPPORTED_VERSION);
	ck_assert_int_eq(get(ZE_MAKE_VERSION(0, 9), &t),
			 ZE_RESULT_ERROR_UNSUPPORTED_VERSION);
	ck_assert_int_eq(get(ZE_API_VERSION_1_0, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	dlclose(dl);
}
END_TEST

START_TEST(test_getter_fills_only_fields_of_version)
{
	void *dl = dlopen(zt_driver_path(), RTLD_NOW | RTLD_LOCAL);
	ck_assert_ptr_nonnull(dl);
	ze_result_t (*get)(ze_api_version_t, ze_mem_dditable_t *) =
		(ze_result_t(*)(ze_api_version_t, ze_mem_dditable_t *))dlsym(
			dl, "zeGetMemProcAddrTable");
	ze_mem_dditable_t t;
	/* A 1.0 caller's table ends before pfnFreeExt (1.3): nothing may be
	 * written there. */
	memset(&t, 0xab, sizeof(t));
	ck_assert_int_eq(get(ZE_API_VERSION_1_0, &t), ZE_RESULT_SUCCESS);
	ck_assert_ptr_nonnull(t.pfnAllocHost);
	ck_assert_ptr_nonnull(t.pfnGetAddressRange);
	unsigned char sentinel[sizeof(void *)];
	memset(sentinel, 0xab, sizeof(sentinel));
	ck_assert(!memcmp(&t.pfnFreeExt, sentinel, sizeof(sentinel)));
	ck_assert(!memcmp(&t.pfnGetPitchFor2dImage, sentinel,
			  sizeof(sentinel)));
	memset(&t, 0, sizeof(t));
	ck_assert_int_eq(get(ZE_API_VERSION_1_3, &t), ZE_RESULT_SUCCESS);
	ck_assert_ptr_nonnull(t.pfnFreeExt);
	ck_assert_ptr_null(t.pfnGetPitchFor2dImage);
	memset(&t, 0, sizeof(t));
	ck_assert_int_eq(get(ZE_API_VERSION_CURRENT, &t), ZE_RESULT_SUCCESS);
	ck_assert_ptr_nonnull(t.pfnGetPitchFor2dImage);
	/* A table this driver does not implement: success, nothing written. */
	ze_result_t (*getk)(ze_api_version_t, ze_kernel_dditable_t *) =
		(ze_result_t(*)(ze_api_version_t, ze_kernel_dditable_t *))dlsym(
			dl, "zeGetKernelProcAddrTable");
	ck_assert_ptr_nonnull(getk);
	ze_kernel_dditable_t kt;
	memset(&kt, 0xab, sizeof(kt));
	ck_assert_int_eq(getk(ZE_API_VERSION_CURRENT, &kt),
			 ZE_RESULT_SUCCESS);
	ck_assert(!memcmp(&kt.pfnCreate, sentinel, sizeof(sentinel)));
	dlclose(dl);
}
END_TEST

/* ---- init and driver --------------------------------------------------- */

START_TEST(test_zeInit_flags)
{
	ck_assert_int_eq(zt_load_version(&zt, ZE_API_VERSION_CURRENT), 0);
	uint32_t n = 0;
	ck_assert_int_eq(zt.driver.pfnGet(&n, NULL),
			 ZE_RESULT_ERROR_UNINITIALIZED);
	ck_assert_int_eq(zt.global.pfnInit(0x80),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	ck_assert_int_eq(zt.global.pfnInit(ZE_INIT_FLAG_GPU_ONLY),
			 ZE_RESULT_ERROR_UNINITIALIZED);
	ck_assert_int_eq(zt.global.pfnInit(0), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.driver.pfnGet(NULL, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.driver.pfnGet(&n, NULL), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 1);
}
END_TEST

START_TEST(test_zeInitDrivers_types)
{
	ck_assert_int_eq(zt_load_version(&zt, ZE_API_VERSION_CURRENT), 0);
	ze_init_driver_type_desc_t d = {
		ZE_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC, NULL,
		ZE_INIT_DRIVER_TYPE_FLAG_GPU
	};
	uint32_t n = 5;
	ck_assert_int_eq(zt.global.pfnInitDrivers(&n, NULL, &d),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 0);
	d.flags = UINT32_MAX;
	n = 0;
	ck_assert_int_eq(zt.global.pfnInitDrivers(&n, NULL, &d),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 1);
	ze_driver_handle_t h = NULL;
	ck_assert_int_eq(zt.global.pfnInitDrivers(&n, &h, &d),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(zt.global.pfnInitDrivers(NULL, NULL, &d),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
}
END_TEST

/* ZEMEM_DEVICE_TYPE=gpu (for programs that look for GPUs only, such as
 * Level Zero's samples): GPU requests find the driver, NPU ones do not,
 * and the devices say GPU. */
START_TEST(test_device_type_gpu_option)
{
	setenv("ZEMEM_DEVICE_TYPE", "gpu", 1);
	ck_assert_int_eq(zt_load_version(&zt, ZE_API_VERSION_CURRENT), 0);
	ze_init_driver_type_desc_t d = {
		ZE_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC, NULL,
		ZE_INIT_DRIVER_TYPE_FLAG_NPU
	};
	uint32_t n = 5;
	ck_assert_int_eq(zt.global.pfnInitDrivers(&n, NULL, &d),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 0);
	d.flags = ZE_INIT_DRIVER_TYPE_FLAG_GPU;
	ck_assert_int_eq(zt.global.pfnInitDrivers(&n, NULL, &d),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(zt.global.pfnInit(ZE_INIT_FLAG_VPU_ONLY),
			 ZE_RESULT_ERROR_UNINITIALIZED);
	ck_assert_int_eq(zt.global.pfnInit(ZE_INIT_FLAG_GPU_ONLY),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.driver.pfnGet(&n, &zt.drv), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.device.pfnGet(zt.drv, &n, &zt.dev),
			 ZE_RESULT_SUCCESS);
	ze_device_properties_t p = { ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES,
				     NULL };
	ck_assert_int_eq(zt.device.pfnGetProperties(zt.dev, &p),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(p.type, ZE_DEVICE_TYPE_GPU);
	unsetenv("ZEMEM_DEVICE_TYPE");
}
END_TEST

/* Any other value: a warning, and CPU devices as by default. */
START_TEST(test_device_type_bad_value_is_cpu)
{
	setenv("ZEMEM_DEVICE_TYPE", "fpga", 1);
	ck_assert_int_eq(zt_load_version(&zt, ZE_API_VERSION_CURRENT), 0);
	ck_assert_int_eq(zt.global.pfnInit(ZE_INIT_FLAG_GPU_ONLY),
			 ZE_RESULT_ERROR_UNINITIALIZED);
	ck_assert_int_eq(zt.global.pfnInit(0), ZE_RESULT_SUCCESS);
	uint32_t n = 1;
	ck_assert_int_eq(zt.driver.pfnGet(&n, &zt.drv), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.device.pfnGet(zt.drv, &n, &zt.dev),
			 ZE_RESULT_SUCCESS);
	ze_device_properties_t p = { ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES,
				     NULL };
	ck_assert_int_eq(zt.device.pfnGetProperties(zt.dev, &p),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(p.type, ZE_DEVICE_TYPE_CPU);
	unsetenv("ZEMEM_DEVICE_TYPE");
}
END_TEST

START_TEST(test_driver_properties_and_errors)
{
	ze_api_version_t v = 0;
	ck_assert_int_eq(zt.driver.pfnGetApiVersion(zt.drv, &v),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(v, ZE_API_VERSION_1_18);
	ck_assert_int_eq(zt.driver.pfnGetApiVersion(NULL, &v),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.driver.pfnGetApiVersion((void *)&v, &v),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ze_driver_memory_free_ext_properties_t fp = {
		ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES, NULL, 0
	};
	ze_driver_properties_t p = { ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES,
				     &fp };
	ck_assert_int_eq(zt.driver.pfnGetProperties(zt.drv, &p),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(fp.freePolicies,
			  ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE |
				  ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE);
	uint32_t n = 0;
	ck_assert_int_eq(zt.driver.pfnGetExtensionProperties(zt.drv, &n, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_ge(n, 3);
	ck_assert_uint_le(n, 16);
	ze_driver_extension_properties_t ext[16];
	uint32_t all = n;
	n = 2;
	ck_assert_int_eq(zt.driver.pfnGetExtensionProperties(zt.drv, &n, ext),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(ext[0].name, ZE_MEMORY_FREE_POLICIES_EXT_NAME);
	n = all;
	ck_assert_int_eq(zt.driver.pfnGetExtensionProperties(zt.drv, &n, ext),
			 ZE_RESULT_SUCCESS);
	int known = 0;
	for (uint32_t i = 0; i < n; i++)
		known += !strcmp(ext[i].name, ZE_MEMORY_FREE_POLICIES_EXT_NAME) ||
			 !strcmp(ext[i].name,
				 ZE_RELAXED_ALLOCATION_LIMITS_EXP_NAME) ||
			 !strcmp(ext[i].name, ZE_SUB_ALLOCATIONS_EXP_NAME);
	ck_assert_int_eq(known, 3);
	void *fn = (void *)1;
	ck_assert_int_eq(zt.driver.pfnGetExtensionFunctionAddress(
				 zt.drv, "zeNoSuchFunction", &fn),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_null(fn);
	const char *msg = NULL;
	ck_assert_int_eq(zt.driver.pfnGetLastErrorDescription(zt.drv, &msg),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_nonnull(strstr(msg, "zeNoSuchFunction"));
}
END_TEST

/* The last error is the calling thread's (its text lives in a block the
 * thread gets at its first failure and frees at its exit: under ASan, a
 * block that outlived its thread would be a leak report). */
#define LAST_ERROR_THREADS 16
/* ours: a cached stack is a mapping. TSan wants a stack above its own
 * minimum (the static TLS and 128 KiB) and refuses a smaller one given
 * by address (EINVAL). */
#if TEST_TSAN
#define LAST_ERROR_STACK (4u << 20)
#else
#define LAST_ERROR_STACK (256u << 10)
#endif
static void *
last_error_thread(void *arg)
{
	unsigned i = (unsigned)(uintptr_t)arg;
	const char *msg = NULL;
	if (zt.driver.pfnGetLastErrorDescription(zt.drv, &msg) ||
	    !msg || *msg)
		return (void *)"a new thread's last error is not empty";
	char name[64];
	snprintf(name, sizeof(name), "zeNoSuchFunction%u", i);
	void *fn = NULL;
	if (zt.driver.pfnGetExtensionFunctionAddress(zt.drv, name, &fn) !=
	    ZE_RESULT_ERROR_INVALID_ARGUMENT)
		return (void *)"an unknown extension was not refused";
	if (zt.driver.pfnGetLastErrorDescription(zt.drv, &msg) || !msg ||
	    !strstr(msg, name))
		return (void *)"the thread's own failure is not its last error";
	return NULL;
}

START_TEST(test_last_error_per_thread)
{
	void *fn = NULL;
	ck_assert_int_eq(zt.driver.pfnGetExtensionFunctionAddress(
				 zt.drv, "zeMainThreadFails", &fn),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	char *stacks = mmap(NULL, LAST_ERROR_THREADS * (size_t)LAST_ERROR_STACK,
			    PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(stacks, MAP_FAILED);
	for (unsigned round = 0; round < 4; round++) {
		pthread_t t[LAST_ERROR_THREADS];
		for (unsigned i = 0; i < LAST_ERROR_THREADS; i++) {
			pthread_attr_t attr;
			pthread_attr_init(&attr);
			pthread_attr_setstack(&attr,
					      stacks + i * LAST_ERROR_STACK,
					      LAST_ERROR_STACK);
			uintptr_t n = round * LAST_ERROR_THREADS + i;
			ck_assert_int_eq(pthread_create(&t[i], &attr,
							last_error_thread,
							(void *)n),
					 0);
			pthread_attr_destroy(&attr);
		}
		for (unsigned i = 0; i < LAST_ERROR_THREADS; i++) {
			void *why = NULL;
			ck_assert_int_eq(pthread_join(t[i], &why), 0);
			if (why)
				ck_abort_msg("thread %u: %s", i,
					     (const char *)why);
		}
	}
	munmap(stacks, LAST_ERROR_THREADS * (size_t)LAST_ERROR_STACK);
	const char *msg = NULL;
	ck_assert_int_eq(zt.driver.pfnGetLastErrorDescription(zt.drv, &msg),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_nonnull(strstr(msg, "zeMainThreadFails"));
}
END_TEST

static void
device_uuid(ze_device_uuid_t *out)
{
	ze_device_properties_t p = { ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES,
				     NULL };
	ck_assert_int_eq(zt.device.pfnGetProperties(zt.dev, &p),
			 ZE_RESULT_SUCCESS);
	*out = p.uuid;
}

START_TEST(test_device_uuid_stable_across_processes)
{
	ze_device_uuid_t mine, theirs;
	int fds[2];
	ck_assert_int_eq(pipe2(fds, O_CLOEXEC), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* Both processes start from an uninitialised driver. */
		zt_setup();
		device_uuid(&theirs);
		ssize_t w = write(fds[1], &theirs, sizeof(theirs));
		_exit(w == sizeof(theirs) ? 0 : 1);
	}
	close(fds[1]);
	ck_assert_int_eq(read(fds[0], &theirs, sizeof(theirs)),
			 sizeof(theirs));
	close(fds[0]);
	int st;
	waitpid(pid, &st, 0);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	zt_setup();
	device_uuid(&mine);
	zt_teardown();
	ck_assert(!memcmp(&mine, &theirs, sizeof(mine)));
	ze_device_uuid_t zero = { { 0 } };
	ck_assert(memcmp(&mine, &zero, sizeof(zero)));
}
END_TEST

START_TEST(test_device_properties_truthful)
{
	ze_device_properties_t p = { ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES,
				     NULL };
	ck_assert_int_eq(zt.device.pfnGetProperties(NULL, &p),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.device.pfnGetProperties((void *)&p, &p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.device.pfnGetProperties(zt.dev, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.device.pfnGetProperties(zt.dev, &p),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(p.type, ZE_DEVICE_TYPE_CPU);
	ck_assert_ptr_nonnull(strstr(p.name, "zemem"));
	ck_assert_uint_eq(p.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE, 0);
	ze_device_memory_properties_t mp = {
		ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES, NULL
	};
	uint32_t n = 1;
	ck_assert_int_eq(zt.device.pfnGetMemoryProperties(zt.dev, &n, &mp),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_ge(mp.totalSize, p.maxMemAllocSize);
	n = 0;
	ck_assert_int_eq(zt.device.pfnGetCacheProperties(zt.dev, &n, NULL),
			 ZE_RESULT_SUCCESS);
	ze_device_p2p_properties_t pp = {
		ZE_STRUCTURE_TYPE_DEVICE_P2P_PROPERTIES, NULL
	};
	ck_assert_int_eq(zt.device.pfnGetP2PProperties(zt.dev, zt.dev, &pp),
			 ZE_RESULT_SUCCESS);
	ck_assert(pp.flags & ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS);
	ze_device_external_memory_properties_t ep = {
		ZE_STRUCTURE_TYPE_DEVICE_EXTERNAL_MEMORY_PROPERTIES, NULL
	};
	ck_assert_int_eq(zt.device.pfnGetExternalMemoryProperties(zt.dev, &ep),
			 ZE_RESULT_SUCCESS);
	uint64_t ht = 0, dt = 0;
	ck_assert_int_eq(zt.device.pfnGetGlobalTimestamps(zt.dev, &ht, &dt),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_ne(ht, 0);
	ck_assert_int_eq(zt.device.pfnGetStatus(zt.dev), ZE_RESULT_SUCCESS);
}
END_TEST

/* A machine without CPU cache sysfs (a VM kernel, a container): the
 * caches come from sysconf, and on x86-64 (cpuid) there are some. */
START_TEST(test_cache_properties_without_sysfs)
{
	setenv("ZEMEM_SYSFS", "0", 1);
	ck_assert_int_eq(zt_load_version(&zt, ZE_API_VERSION_CURRENT), 0);
	ck_assert_int_eq(zt.global.pfnInit(0), ZE_RESULT_SUCCESS);
	uint32_t n = 1;
	ck_assert_int_eq(zt.driver.pfnGet(&n, &zt.drv), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.device.pfnGet(zt.drv, &n, &zt.dev),
			 ZE_RESULT_SUCCESS);
	const int names[] = { _SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL2_CACHE_SIZE,
			      _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL4_CACHE_SIZE };
	uint64_t want[4];
	uint32_t nwant = 0;
	for (int i = 0; i < 4; i++)
		if (sysconf(names[i]) > 0)
			want[nwant++] = (uint64_t)sysconf(names[i]);
#if defined(__x86_64__)
	ck_assert_uint_gt(nwant, 0);
#endif
	n = 0;
	ck_assert_int_eq(zt.device.pfnGetCacheProperties(zt.dev, &n, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, nwant);
	ze_device_cache_properties_t cp[4];
	for (uint32_t i = 0; i < 4; i++)
		cp[i] = (ze_device_cache_properties_t){
			ZE_STRUCTURE_TYPE_DEVICE_CACHE_PROPERTIES, NULL
		};
	ck_assert_int_eq(zt.device.pfnGetCacheProperties(zt.dev, &n, cp),
			 ZE_RESULT_SUCCESS);
	for (uint32_t i = 0; i < n; i++)
		ck_assert_uint_eq(cp[i].cacheSize, want[i]);
	unsetenv("ZEMEM_SYSFS");
}
END_TEST

/* A driver of three devices (ZEMEM_DEVICE_COUNT=3) into d, and a new
 * context of devices 0 and 2 only. */
static ze_context_handle_t
open_three_devices(ze_device_handle_t d[3])
{
	setenv("ZEMEM_DEVICE_COUNT", "3", 1);
	ck_assert_int_eq(zt_load_version(&zt, ZE_API_VERSION_CURRENT), 0);
	ck_assert_int_eq(zt.global.pfnInit(0), ZE_RESULT_SUCCESS);
	uint32_t n = 1;
	ck_assert_int_eq(zt.driver.pfnGet(&n, &zt.drv), ZE_RESULT_SUCCESS);
	n = 0;
	ck_assert_int_eq(zt.device.pfnGet(zt.drv, &n, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(zt.device.pfnGet(zt.drv, &n, d), ZE_RESULT_SUCCESS);
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_device_handle_t sub[2] = { d[0], d[2] };
	ze_context_handle_t ctx;
	ck_assert_int_eq(zt.context.pfnCreateEx(zt.drv, &cd, 2, sub, &ctx),
			 ZE_RESULT_SUCCESS);
	return ctx;
}

START_TEST(test_device_count_option)
{
	ze_device_handle_t d[3];
	ze_context_handle_t ctx = open_three_devices(d);
	ze_device_properties_t p[3];
	for (int i = 0; i < 3; i++) {
		p[i] = (ze_device_properties_t){
			ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES, NULL
		};
		ck_assert_int_eq(zt.device.pfnGetProperties(d[i], &p[i]),
				 ZE_RESULT_SUCCESS);
	}
	ck_assert(memcmp(&p[0].uuid, &p[1].uuid, sizeof(p[0].uuid)));
	ck_assert(memcmp(&p[1].uuid, &p[2].uuid, sizeof(p[0].uuid)));
	/* ctx has devices 0 and 2 only. */
	void *ptr;
	ck_assert_int_eq(zt.mem.pfnAllocDevice(ctx, &zt_ddesc, 64, 0, d[1],
					       &ptr),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.mem.pfnAllocDevice(ctx, &zt_ddesc, 64, 0, d[2],
					       &ptr),
			 ZE_RESULT_SUCCESS);
	ze_device_handle_t owner = NULL;
	ze_memory_allocation_properties_t mp = {
		ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, NULL
	};
	ck_assert_int_eq(zt.mem.pfnGetAllocProperties(ctx, ptr, &mp, &owner),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(owner, d[2]);
	ck_assert_int_eq(zt.mem.pfnFree(ctx, ptr), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.context.pfnDestroy(ctx), ZE_RESULT_SUCCESS);
}
END_TEST

/* The device and shared fast paths read a device handle only when it is
 * the thread's last owner's (drv_mem.c fast_alloc): with that cache warm
 * on (ctx, d[2]), a device outside the context and handles that are no
 * device at all still get the full path's errors, never a read. */
START_TEST(test_alloc_warm_cache_checks_device)
{
	ze_device_handle_t d[3];
	ze_context_handle_t ctx = open_three_devices(d);
	/* Not readable: a read of it faults. */
	void *hole = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
	ck_assert_ptr_ne(hole, MAP_FAILED);
	ze_device_handle_t bad[] = {
		d[1],                                   /* not of ctx */
		(ze_device_handle_t)((char *)d[2] + 8), /* inside a device */
		(ze_device_handle_t)hole,
		(ze_device_handle_t)ctx,                /* another kind */
	};
	for (int round = 0; round < 3; round++) {
		void *ptr = NULL, *q = NULL;
		ck_assert_int_eq(zt.mem.pfnAllocDevice(ctx, &zt_ddesc, 64, 0,
						       d[2], &ptr),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.mem.pfnAllocShared(ctx, &zt_ddesc,
						       &zt_hdesc, 64, 0, d[2],
						       &q),
				 ZE_RESULT_SUCCESS);
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			void *x = (void *)1;
			ck_assert_int_eq(zt.mem.pfnAllocDevice(ctx, &zt_ddesc,
							       64, 0, bad[i],
							       &x),
					 ZE_RESULT_ERROR_INVALID_ARGUMENT);
			ck_assert_ptr_null(x);
			x = (void *)1;
			ck_assert_int_eq(zt.mem.pfnAllocShared(ctx, &zt_ddesc,
							       &zt_hdesc, 64,
							       0, bad[i], &x),
					 ZE_RESULT_ERROR_INVALID_ARGUMENT);
			ck_assert_ptr_null(x);
		}
		ck_assert_int_eq(zt.mem.pfnFree(ctx, ptr), ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.mem.pfnFree(ctx, q), ZE_RESULT_SUCCESS);
	}
	ck_assert_int_eq(zt.context.pfnDestroy(ctx), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(munmap(hole, 4096), 0);
}
END_TEST

/* ---- contexts ---------------------------------------------------------- */

START_TEST(test_context_errors)
{
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_context_handle_t c;
	ck_assert_int_eq(zt.context.pfnCreate(NULL, &cd, &c),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.context.pfnCreate(zt.drv, NULL, &c),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	cd.flags = 0x10;
	ck_assert_int_eq(zt.context.pfnCreate(zt.drv, &cd, &c),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	ck_assert_int_eq(zt.context.pfnGetStatus(NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.context.pfnGetStatus((void *)0x1000),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.context.pfnGetStatus(zt.ctx), ZE_RESULT_SUCCESS);
	cd.flags = 0;
	ck_assert_int_eq(zt.context.pfnCreate(zt.drv, &cd, &c),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.context.pfnDestroy(c), ZE_RESULT_SUCCESS);
	/* A destroyed context is refused, never dereferenced as live. */
	ck_assert_int_eq(zt.context.pfnDestroy(c),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	void *p;
	ck_assert_int_eq(zt.mem.pfnAllocHost(c, &zt_hdesc, 64, 0, &p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.mem.pfnAllocHost((void *)&p, &zt_hdesc, 64, 0, &p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(test_context_destroy_frees_allocations)
{
	setenv("ZEMEM_DEVICE_MEMORY_SIZE", "8M", 1);
	zt_setup();
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_context_handle_t c;
	ck_assert_int_eq(zt.context.pfnCreate(zt.drv, &cd, &c),
			 ZE_RESULT_SUCCESS);
	void *p[3];
	ck_assert_int_eq(zt.mem.pfnAllocDevice(c, &zt_ddesc, 6 << 20, 0,
					       zt.dev, &p[0]),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnAllocHost(c, &zt_hdesc, 100, 0, &p[1]),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnAllocShared(c, &zt_ddesc, &zt_hdesc, 1000,
					       0, zt.dev, &p[2]),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.context.pfnDestroy(c), ZE_RESULT_SUCCESS);
	/* The budget came back and the pointers are unknown now. */
	void *q;
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, 8 << 20, 0,
					       zt.dev, &q),
			 ZE_RESULT_SUCCESS);
	ze_memory_allocation_properties_t mp = {
		ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, NULL
	};
	ck_assert_int_eq(zt.mem.pfnGetAllocProperties(zt.ctx, p[1], &mp, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(mp.type, ZE_MEMORY_TYPE_UNKNOWN);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, q), ZE_RESULT_SUCCESS);
	zt_teardown();
}
END_TEST

/* ---- USM --------------------------------------------------------------- */

START_TEST(test_alloc_budget_and_limits)
{
	setenv("ZEMEM_DEVICE_MEMORY_SIZE", "8M", 1);
	zt_setup();
	ze_device_properties_t dp = { ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES,
				      NULL };
	ck_assert_int_eq(zt.device.pfnGetProperties(zt.dev, &dp),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(dp.maxMemAllocSize, 8 << 20);
	void *a, *b, *c;
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc,
					       (8 << 20) + 1, 0, zt.dev, &a),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	ck_assert_ptr_null(a);
	ze_relaxed_allocation_limits_exp_desc_t rl = {
		ZE_STRUCTURE_TYPE_RELAXED_ALLOCATION_LIMITS_EXP_DESC, NULL,
		ZE_RELAXED_ALLOCATION_LIMITS_EXP_FLAG_MAX_SIZE
	};
	ze_device_mem_alloc_desc_t rd = zt_ddesc;
	rd.pNext = &rl;
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &rd, (8 << 20) + 1, 0,
					       zt.dev, &a),
			 ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
	rl.flags = 0x4;
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &rd, 64, 0, zt.dev, &a),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, 5 << 20, 0,
					       zt.dev, &a),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnAllocShared(zt.ctx, &zt_ddesc, &zt_hdesc,
					       4 << 20, 0, zt.dev, &b),
			 ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
	/* Host memory and device-less shared memory do not count. */
	ck_assert_int_eq(zt.mem.pfnAllocHost(zt.ctx, &zt_hdesc, 4 << 20, 0, &b),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnAllocShared(zt.ctx, &zt_ddesc, &zt_hdesc,
					       4 << 20, 0, NULL, &c),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, a), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnAllocShared(zt.ctx, &zt_ddesc, &zt_hdesc,
					       4 << 20, 0, zt.dev, &a),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, a), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, b), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, c), ZE_RESULT_SUCCESS);
	zt_teardown();
}
END_TEST

/* Small device allocations take budget per thread, in advance (credit):
 * one thread alone still sees the exact budget, and an exiting thread's
 * credit comes back. */
static void *
credit_worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 100; i++) {
		void *p;
		if (zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, 64, 0, zt.dev,
					  &p) ||
		    zt.mem.pfnFree(zt.ctx, p))
			return (void *)1;
	}
	return NULL; /* exits holding credit */
}

START_TEST(test_budget_credit_exact)
{
	setenv("ZEMEM_DEVICE_MEMORY_SIZE", "8M", 1);
	zt_setup();
	enum { STACK = 1 << 20 };
	void *stack = mmap(NULL, STACK, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(stack, MAP_FAILED);
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstack(&attr, stack, STACK);
	pthread_t th;
	void *ret;
	ck_assert_int_eq(pthread_create(&th, &attr, credit_worker, NULL), 0);
	pthread_attr_destroy(&attr);
	pthread_join(th, &ret);
	ck_assert_ptr_null(ret);
	munmap(stack, STACK);
	/* This thread holds credit too (a small block live), and still gets
	 * every byte: the worker's credit came back when it exited, its own
	 * goes back when a reservation would fail. */
	void *small, *rest, *one;
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, 64, 0,
					       zt.dev, &small),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc,
					       (8 << 20) - 64, 0, zt.dev,
					       &rest),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, 1, 0,
					       zt.dev, &one),
			 ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, rest), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, small), ZE_RESULT_SUCCESS);
	/* Freed small blocks refill the credit; the full budget is still
	 * there for one allocation. */
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, 8 << 20, 0,
					       zt.dev, &rest),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, rest), ZE_RESULT_SUCCESS);
	zt_teardown();
}
END_TEST

/* Threads allocate device and shared memory and free each other's blocks
 * (so credit moves between threads); when they have exited, every byte of
 * the budget is back. */
enum { XT_THREADS = 4, XT_ROUNDS = 3000, XT_SLOTS = 64 };
static _Atomic(void *) xt_box[XT_SLOTS];

static void *
cross_worker(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg * 2654435761u + 1;
	for (int i = 0; i < XT_ROUNDS; i++) {
		seed = seed * 1103515245u + 12345u;
		size_t size = 1 + (seed >> 8) % 3000;
		void *p;
		ze_result_t r = (seed >> 4) & 1
			? zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, size, 0,
						zt.dev, &p)
			: zt.mem.pfnAllocShared(zt.ctx, &zt_ddesc, &zt_hdesc,
						size, 0, zt.dev, &p);
		if (r)
			return (void *)1;
		/* swap it into a shared box; free what was there (another
		 * thread's block, as often as not) */
		void *old = atomic_exchange(&xt_box[(seed >> 12) % XT_SLOTS], p);
		if (old && zt.mem.pfnFree(zt.ctx, old))
			return (void *)2;
	}
	return NULL;
}

START_TEST(test_budget_credit_threads)
{
	setenv("ZEMEM_DEVICE_MEMORY_SIZE", "16M", 1);
	zt_setup();
	enum { STACK = 1 << 20 };
	void *stacks = mmap(NULL, XT_THREADS * (size_t)STACK,
			    PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			    -1, 0);
	ck_assert_ptr_ne(stacks, MAP_FAILED);
	pthread_t th[XT_THREADS];
	for (uintptr_t i = 0; i < XT_THREADS; i++) {
		pthread_attr_t attr;
		pthread_attr_init(&attr);
		pthread_attr_setstack(&attr, (char *)stacks + i * STACK, STACK);
		ck_assert_int_eq(pthread_create(&th[i], &attr, cross_worker,
						(void *)(i + 1)), 0);
		pthread_attr_destroy(&attr);
	}
	for (int i = 0; i < XT_THREADS; i++) {
		void *ret;
		pthread_join(th[i], &ret);
		ck_assert_ptr_null(ret);
	}
	munmap(stacks, XT_THREADS * (size_t)STACK);
	for (int i = 0; i < XT_SLOTS; i++) {
		void *p = atomic_exchange(&xt_box[i], NULL);
		if (p)
			ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p),
					 ZE_RESULT_SUCCESS);
	}
	/* Nothing is live and the workers are gone: the whole budget, and
	 * not a byte more, can be had. */
	void *all, *one;
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, 16 << 20, 0,
					       zt.dev, &all),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnAllocShared(zt.ctx, &zt_ddesc, &zt_hdesc, 1,
					       0, zt.dev, &one),
			 ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, all), ZE_RESULT_SUCCESS);
	zt_teardown();
}
END_TEST

/* Two threads free the same block at the same moment, round after round,
 * each with its thread cache (the inline free path): exactly one free
 * succeeds, the other is refused, and no block is ever handed out twice
 * (both threads then allocate and must get distinct blocks). Kinds take
 * turns: host, device, shared. */
enum { DF_ROUNDS = 600 };
static pthread_barrier_t df_bar;
static void *volatile df_ptr;
static ze_result_t df_res[2];
static void *df_got[2][DF_ROUNDS];

static ze_result_t
df_alloc(int round, void **p)
{
	switch (round % 3) {
	case 0: return zt.mem.pfnAllocHost(zt.ctx, &zt_hdesc, 64, 0, p);
	case 1:
		return zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, 64, 0, zt.dev,
					     p);
	default:
		return zt.mem.pfnAllocShared(zt.ctx, &zt_ddesc, &zt_hdesc, 64,
					     0, zt.dev, p);
	}
}

static void *
df_worker(void *arg)
{
	int me = (int)(uintptr_t)arg;
	void *warm;
	if (df_alloc(0, &warm) || zt.mem.pfnFree(zt.ctx, warm))
		return (void *)1; /* the thread has its cache from here on */
	for (int i = 0; i < DF_ROUNDS; i++) {
		pthread_barrier_wait(&df_bar);
		df_res[me] = zt.mem.pfnFree(zt.ctx, df_ptr);
		pthread_barrier_wait(&df_bar);
		/* Had both frees been taken, the slot would be in the caches
		 * twice: both allocate, and keep what comes. (Not before both
		 * frees are done: a block allocated again at the same address
		 * is live, and the late free would rightly free it.) */
		if (df_alloc(i, &df_got[me][i]))
			df_got[me][i] = NULL;
		pthread_barrier_wait(&df_bar);
	}
	return NULL;
}

/* The same race where one of the two threads allocated the block, from a
 * size class it is the first to use: the segment is that thread's
 * (usm_seg.bias), so its free is a plain store, and the other thread's
 * must take the bias away (and wait for the owner's read section) before
 * its compare-and-swap. One round per shared size class. */
enum { DO_ROUNDS = 44 };
static size_t do_size[DO_ROUNDS];

static void *
do_worker(void *arg)
{
	int me = (int)(uintptr_t)arg;
	void *warm;
	if (df_alloc(0, &warm) || zt.mem.pfnFree(zt.ctx, warm))
		return (void *)1;
	for (int i = 0; i < DO_ROUNDS; i++) {
		if (me == 0 &&
		    zt.mem.pfnAllocShared(zt.ctx, &zt_ddesc, &zt_hdesc,
					  do_size[i], 0, zt.dev,
					  (void **)&df_ptr))
			df_ptr = NULL;
		pthread_barrier_wait(&df_bar); /* allocated */
		pthread_barrier_wait(&df_bar); /* go */
		df_res[me] = zt.mem.pfnFree(zt.ctx, df_ptr);
		pthread_barrier_wait(&df_bar);
		if (zt.mem.pfnAllocShared(zt.ctx, &zt_ddesc, &zt_hdesc,
					  do_size[i], 0, zt.dev,
					  &df_got[me][i]))
			df_got[me][i] = NULL;
		pthread_barrier_wait(&df_bar);
	}
	return NULL;
}

/* Runs df_worker or do_worker through rounds: the block to free twice
 * comes from this thread (main_allocs) or from worker 0; then both
 * workers free it at once and both allocate. Each round exactly one free
 * is taken and the two new blocks differ; they are freed at the end. */
static void
df_race(void *(*worker)(void *), int rounds, bool main_allocs)
{
	enum { STACK = 1 << 20 };
	void *stacks = mmap(NULL, 2 * (size_t)STACK, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(stacks, MAP_FAILED);
	ck_assert_int_eq(pthread_barrier_init(&df_bar, NULL, 3), 0);
	pthread_t th[2];
	for (uintptr_t i = 0; i < 2; i++) {
		pthread_attr_t attr;
		pthread_attr_init(&attr);
		pthread_attr_setstack(&attr, (char *)stacks + i * STACK, STACK);
		ck_assert_int_eq(pthread_create(&th[i], &attr, worker,
						(void *)i), 0);
		pthread_attr_destroy(&attr);
	}
	int one_each = 0, distinct = 0;
	for (int i = 0; i < rounds; i++) {
		if (main_allocs) {
			void *p;
			ck_assert_int_eq(df_alloc(i, &p), ZE_RESULT_SUCCESS);
			df_ptr = p;
		} else {
			pthread_barrier_wait(&df_bar); /* worker 0 allocated */
			ck_assert_ptr_nonnull(df_ptr);
		}
		pthread_barrier_wait(&df_bar); /* both free */
		pthread_barrier_wait(&df_bar); /* both allocate */
		pthread_barrier_wait(&df_bar); /* done */
		ze_result_t a = df_res[0], b = df_res[1];
		one_each += (a == ZE_RESULT_SUCCESS &&
			     b == ZE_RESULT_ERROR_INVALID_ARGUMENT) ||
			    (b == ZE_RESULT_SUCCESS &&
			     a == ZE_RESULT_ERROR_INVALID_ARGUMENT);
		distinct += df_got[0][i] && df_got[1][i] &&
			    df_got[0][i] != df_got[1][i];
	}
	for (int i = 0; i < 2; i++) {
		void *ret;
		pthread_join(th[i], &ret);
		ck_assert_ptr_null(ret);
	}
	pthread_barrier_destroy(&df_bar);
	munmap(stacks, 2 * (size_t)STACK);
	ck_assert_int_eq(one_each, rounds);
	ck_assert_int_eq(distinct, rounds);
	for (int t = 0; t < 2; t++)
		for (int i = 0; i < rounds; i++)
			ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, df_got[t][i]),
					 ZE_RESULT_SUCCESS);
}

START_TEST(test_free_double_racing_owner)
{
	zt_setup();
	/* one size in each small class: 16..128 by 16, then 4 per doubling */
	int n = 0;
	for (size_t sz = 16; sz <= 128; sz += 16)
		do_size[n++] = sz;
	for (size_t base = 128; n < DO_ROUNDS; base *= 2)
		for (int q = 1; q <= 4 && n < DO_ROUNDS; q++)
			do_size[n++] = base + base / 4 * (size_t)q;
	ck_assert_uint_eq(do_size[DO_ROUNDS - 1], 64 * 1024);
	df_race(do_worker, DO_ROUNDS, false);
	zt_teardown();
}
END_TEST

START_TEST(test_free_double_racing_threads)
{
	zt_setup();
	df_race(df_worker, DF_ROUNDS, true);
	zt_teardown();
}
END_TEST

START_TEST(test_alloc_descriptor_errors)
{
	void *p = (void *)1;
	ck_assert_int_eq(zt.mem.pfnAllocHost(NULL, &zt_hdesc, 64, 0, &p),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.mem.pfnAllocHost(zt.ctx, NULL, 64, 0, &p),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, 64, 0, NULL,
					       &p),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.mem.pfnAllocShared(zt.ctx, NULL, &zt_hdesc, 64, 0,
					       NULL, &p),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ze_host_mem_alloc_desc_t h = zt_hdesc;
	h.stype = ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
	ck_assert_int_eq(zt.mem.pfnAllocHost(zt.ctx, &h, 64, 0, &p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	h = zt_hdesc;
	h.flags = ZE_HOST_MEM_ALLOC_FLAG_MEM_READ_ONLY |
		  ZE_HOST_MEM_ALLOC_FLAG_BIAS_WRITE_COMBINED;
	ck_assert_int_eq(zt.mem.pfnAllocHost(zt.ctx, &h, 64, 0, &p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	h.flags = ZE_HOST_MEM_ALLOC_FLAG_MEM_READ_ONLY;
	ck_assert_int_eq(zt.mem.pfnAllocHost(zt.ctx, &h, 64, 0, &p),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), ZE_RESULT_SUCCESS);
	/* Unknown stype in a chain. */
	ze_base_desc_t odd = { (ze_structure_type_t)0x7ffff0, NULL };
	h = zt_hdesc;
	h.pNext = &odd;
	ck_assert_int_eq(zt.mem.pfnAllocHost(zt.ctx, &h, 64, 0, &p),
			 ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
	ze_device_mem_alloc_desc_t d = zt_ddesc;
	d.ordinal = 1;
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &d, 64, 0, zt.dev, &p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, 64, 0,
					       (void *)&d, &p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
}
END_TEST

START_TEST(test_alloc_every_alignment)
{
	for (size_t align = 1; align <= (16u << 20); align <<= 1) {
		void *p[3];
		ck_assert_int_eq(zt.mem.pfnAllocHost(zt.ctx, &zt_hdesc, 24,
						     align, &p[0]),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, 24,
						       align, zt.dev, &p[1]),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.mem.pfnAllocShared(zt.ctx, &zt_ddesc,
						       &zt_hdesc, 24, align,
						       zt.dev, &p[2]),
				 ZE_RESULT_SUCCESS);
		for (int k = 0; k < 3; k++) {
			ck_assert_msg((uintptr_t)p[k] % align == 0,
				      "kind %d align %zu got %p", k, align,
				      p[k]);
			memset(p[k], k, 24);
		}
		for (int k = 0; k < 3; k++)
			ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p[k]),
					 ZE_RESULT_SUCCESS);
	}
}
END_TEST

START_TEST(test_alloc_properties_and_range)
{
	void *p;
	ck_assert_int_eq(zt.mem.pfnAllocShared(zt.ctx, &zt_ddesc, &zt_hdesc,
					       10000, 64, zt.dev, &p),
			 ZE_RESULT_SUCCESS);
	ze_sub_allocation_t sub[2];
	uint32_t count = 0;
	ze_memory_sub_allocations_exp_properties_t sp = {
		ZE_STRUCTURE_TYPE_MEMORY_SUB_ALLOCATIONS_EXP_PROPERTIES, NULL,
		&count, sub
	};
	ze_memory_allocation_properties_t mp = {
		ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, &sp
	};
	ze_device_handle_t d = NULL;
	ck_assert_int_eq(zt.mem.pfnGetAllocProperties(zt.ctx, (char *)p + 9999,
						      &mp, &d),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(mp.type, ZE_MEMORY_TYPE_SHARED);
	ck_assert_ptr_eq(d, zt.dev);
	ck_assert_uint_eq(count, 1);
	count = 2;
	ck_assert_int_eq(zt.mem.pfnGetAllocProperties(zt.ctx, p, &mp, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(count, 1);
	ck_assert_ptr_eq(sub[0].base, p);
	ck_assert_uint_eq(sub[0].size, 10000);
	uint64_t id = mp.id;
	void *base = NULL;
	size_t size = 0;
	ck_assert_int_eq(zt.mem.pfnGetAddressRange(zt.ctx, (char *)p + 5000,
						   &base, &size),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(base, p);
	ck_assert_uint_eq(size, 10000);
	ck_assert_int_eq(zt.mem.pfnGetAddressRange(zt.ctx, (char *)p + 5000,
						   NULL, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnGetAddressRange(zt.ctx, NULL, &base, &size),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	/* Another context of the driver answers the queries, as Intel's
	 * driver does (allocations are tracked per driver), but cannot
	 * free it. */
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_context_handle_t other;
	ck_assert_int_eq(zt.context.pfnCreate(zt.drv, &cd, &other),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnGetAllocProperties(other, p, &mp, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(mp.type, ZE_MEMORY_TYPE_SHARED);
	base = NULL;
	size = 0;
	ck_assert_int_eq(zt.mem.pfnGetAddressRange(other, (char *)p + 5000,
						   &base, &size),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(base, p);
	ck_assert_uint_eq(size, 10000);
	ck_assert_int_eq(zt.mem.pfnFree(other, p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.context.pfnDestroy(other), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), ZE_RESULT_SUCCESS);
	/* Ids are never reused. */
	ck_assert_int_eq(zt.mem.pfnAllocShared(zt.ctx, &zt_ddesc, &zt_hdesc,
					       10000, 64, zt.dev, &p),
			 ZE_RESULT_SUCCESS);
	mp.pNext = NULL;
	ck_assert_int_eq(zt.mem.pfnGetAllocProperties(zt.ctx, p, &mp, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_gt(mp.id, id);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_free_ext_policies)
{
	void *p;
	ze_memory_free_ext_desc_t fd = { ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC,
					 NULL, 0x4 };
	ck_assert_int_eq(zt.mem.pfnAllocHost(zt.ctx, &zt_hdesc, 64, 0, &p),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnFreeExt(zt.ctx, &fd, p),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	ck_assert_int_eq(zt.mem.pfnFreeExt(zt.ctx, NULL, p),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	fd.freePolicy = ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE;
	ck_assert_int_eq(zt.mem.pfnFreeExt(zt.ctx, &fd, p), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnFreeExt(zt.ctx, &fd, p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
}
END_TEST

/* The descriptor applications really pass: Intel's conformance suite
 * frees with stype ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES,
 * which Intel's driver accepts (it never reads the stype); so does zemem's,
 * whatever the stype, with every policy. */
START_TEST(test_free_ext_any_stype)
{
	static const uint32_t stypes[] = {
		ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES,
		ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, 0x7ffffffe,
	};
	static const uint32_t policies[] = {
		0, ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE,
		ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE,
	};
	for (size_t i = 0; i < sizeof(stypes) / sizeof(stypes[0]); i++) {
		for (size_t k = 0; k < 3; k++) {
			void *p;
			ze_memory_free_ext_desc_t fd = {
				(ze_structure_type_t)stypes[i], NULL,
				policies[k]
			};
			ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx,
							       &zt_ddesc, 4096,
							       0, zt.dev, &p),
					 ZE_RESULT_SUCCESS);
			ck_assert_int_eq(zt.mem.pfnFreeExt(zt.ctx, &fd, p),
					 ZE_RESULT_SUCCESS);
			/* Really freed: a second free is refused. */
			ck_assert_int_eq(zt.mem.pfnFreeExt(zt.ctx, &fd, p),
					 ZE_RESULT_ERROR_INVALID_ARGUMENT);
		}
	}
	/* The policy bits are still checked. */
	void *p;
	ze_memory_free_ext_desc_t bad = {
		ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES, NULL, 0x4
	};
	ck_assert_int_eq(zt.mem.pfnAllocHost(zt.ctx, &zt_hdesc, 64, 0, &p),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnFreeExt(zt.ctx, &bad, p),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_pitch_for_2d_image)
{
	size_t pitch = 0;
	ck_assert_int_eq(zt.mem.pfnGetPitchFor2dImage(zt.ctx, zt.dev, 100, 10,
						      4, &pitch),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(pitch, 448);
	ck_assert_int_eq(zt.mem.pfnGetPitchFor2dImage(zt.ctx, zt.dev, 0, 10,
						      4, &pitch),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	ck_assert_int_eq(zt.mem.pfnGetPitchFor2dImage(zt.ctx, zt.dev,
						      SIZE_MAX / 2, 10, 4,
						      &pitch),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	ck_assert_int_eq(zt.mem.pfnGetPitchFor2dImage(zt.ctx, zt.dev, 1, 1, 1,
						      NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
}
END_TEST

/* ---- threads ----------------------------------------------------------- */

struct worker {
	int id;
	int errors;
};

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	enum { N = 64, ROUNDS = 300 };
	void *ptrs[N] = { 0 };
	size_t sizes[N] = { 0 };
	unsigned seed = (unsigned)w->id * 7919u + 1;
	for (int r = 0; r < ROUNDS; r++) {
		for (int i = 0; i < N; i++) {
			seed = seed * 1103515245u + 12345u;
			if (ptrs[i]) {
				unsigned char *b = ptrs[i];
				void *base;
				size_t sz;
				if ((sizes[i] > 1 && b[0] != (unsigned char)w->id) ||
				    b[sizes[i] - 1] != (unsigned char)i ||
				    zt.mem.pfnGetAddressRange(
					    zt.ctx, b + sizes[i] / 2, &base,
					    &sz) ||
				    base != b || sz != sizes[i] ||
				    zt.mem.pfnFree(zt.ctx, b))
					w->errors++;
				ptrs[i] = NULL;
				continue;
			}
			size_t size = 1 + (seed >> 8) % (seed & 1 ? 200 : 70000);
			int kind = (seed >> 4) % 3;
			ze_result_t res;
			if (kind == 0)
				res = zt.mem.pfnAllocHost(zt.ctx, &zt_hdesc,
							  size, 0, &ptrs[i]);
			else if (kind == 1)
				res = zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc,
							    size, 0, zt.dev,
							    &ptrs[i]);
			else
				res = zt.mem.pfnAllocShared(zt.ctx, &zt_ddesc,
							    &zt_hdesc, size, 0,
							    zt.dev, &ptrs[i]);
			if (res) {
				w->errors++;
				continue;
			}
			sizes[i] = size;
			memset(ptrs[i], w->id, size);
			((unsigned char *)ptrs[i])[size - 1] = (unsigned char)i;
		}
	}
	for (int i = 0; i < N; i++)
		if (ptrs[i] && zt.mem.pfnFree(zt.ctx, ptrs[i]))
			w->errors++;
	return NULL;
}

START_TEST(test_threads_alloc_lookup_free)
{
	/* Our own stacks: glibc caches the stacks it maps for threads,
	 * which the leak fixture would report. */
	enum { STACK = 1 << 20 };
	pthread_t th[8];
	struct worker w[8];
	void *stacks = mmap(NULL, 8 * (size_t)STACK, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(stacks, MAP_FAILED);
	for (int i = 0; i < 8; i++) {
		pthread_attr_t attr;
		pthread_attr_init(&attr);
		pthread_attr_setstack(&attr, (char *)stacks + i * (size_t)STACK,
				      STACK);
		w[i] = (struct worker){ .id = i + 1 };
		ck_assert_int_eq(pthread_create(&th[i], &attr, worker_main,
						&w[i]), 0);
		pthread_attr_destroy(&attr);
	}
	for (int i = 0; i < 8; i++) {
		pthread_join(th[i], NULL);
		ck_assert_int_eq(w[i].errors, 0);
	}
	munmap(stacks, 8 * (size_t)STACK);
}
END_TEST

static Suite *
driver_suite(void)
{
	Suite *s = suite_create("driver");
	TCase *raw = tcase_create("raw");
	tcase_add_test(raw, test_getter_bad_version);
	tcase_add_test(raw, test_getter_fills_only_fields_of_version);
	tcase_add_test(raw, test_zeInit_flags);
	tcase_add_test(raw, test_zeInitDrivers_types);
	tcase_add_test(raw, test_device_type_gpu_option);
	tcase_add_test(raw, test_device_type_bad_value_is_cpu);
	tcase_add_test(raw, test_cache_properties_without_sysfs);
	tcase_add_test(raw, test_device_count_option);
	tcase_add_test(raw, test_alloc_warm_cache_checks_device);
	tcase_add_test(raw, test_context_destroy_frees_allocations);
	tcase_add_test(raw, test_alloc_budget_and_limits);
	tcase_add_test(raw, test_budget_credit_exact);
	tcase_add_test(raw, test_budget_credit_threads);
	tcase_add_test(raw, test_free_double_racing_threads);
	tcase_add_test(raw, test_free_double_racing_owner);
	tcase_add_test(raw, test_device_uuid_stable_across_processes);
	suite_add_tcase(s, raw);

	TCase *tc = tcase_create("api");
	tcase_add_checked_fixture(tc, zt_checked_setup, zt_checked_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_driver_properties_and_errors);
	tcase_add_test(tc, test_last_error_per_thread);
	tcase_add_test(tc, test_device_properties_truthful);
	tcase_add_test(tc, test_context_errors);
	tcase_add_test(tc, test_alloc_descriptor_errors);
	tcase_add_test(tc, test_alloc_every_alignment);
	tcase_add_test(tc, test_alloc_properties_and_range);
	tcase_add_test(tc, test_free_ext_policies);
	tcase_add_test(tc, test_free_ext_any_stype);
	tcase_add_test(tc, test_pitch_for_2d_image);
	tcase_add_test(tc, test_threads_alloc_lookup_free);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return check_run(driver_suite(), CK_NORMAL, false);
}
