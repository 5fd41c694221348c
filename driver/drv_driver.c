// SPDX-License-Identifier: MIT
/*
 * drv_driver: the driver object's set-up, zeInit / zeInitDrivers /
 * zeDriver* (the object itself, the -errno to ze_result_t translation and
 * the last-error text are drv_core.c's).
 *
 * The driver is one static object set up once (pthread_once) by zeInit or
 * zeInitDrivers; options are read at that moment and never again.
 */
#include "drv.h"
#include "amap/amap.h"
#include "u_options.h"
#include "u_os.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_err;
static char cpu[128];  /* the CPU's model name, set at init */

#define ZEMEM_DRIVER_VERSION ((0u << 24) | (1u << 16) | 0u)

/* Extensions this driver implements, with the versions it implements. */
static const ze_driver_extension_properties_t extensions[] = {
	{ ZE_MEMORY_FREE_POLICIES_EXT_NAME, ZE_MAKE_VERSION(1, 0) },
	{ ZE_RELAXED_ALLOCATION_LIMITS_EXP_NAME, ZE_MAKE_VERSION(1, 0) },
	{ ZE_SUB_ALLOCATIONS_EXP_NAME, ZE_MAKE_VERSION(1, 0) },
	/* driver/ipc: zeMemGetIpcHandleWithProperties (DEFAULT type) */
	{ ZE_IPC_MEM_HANDLE_TYPE_EXT_NAME, ZE_MAKE_VERSION(1, 0) },
	/* driver/cmd: zeCommandListImmediateAppendCommandListsExp */
	{ "ZE_experimental_immediate_command_list_append",
	  ZE_MAKE_VERSION(1, 0) },
	/* drv_device.c: read-only VMM pages are enforced */
	{ ZE_VIRTUAL_MEM_READONLY_PROPERTIES_EXT_NAME, ZE_MAKE_VERSION(1, 0) },
};

/* 64-bit FNV-1a, to derive stable UUIDs from fixed strings. */
static uint64_t
fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

void
drv_make_uuid(uint8_t out[16], const char *what, uint32_t ordinal)
{
	uint64_t h1 = fnv1a(0xcbf29ce484222325ull, what, strlen(what));
	h1 = fnv1a(h1, &ordinal, sizeof(ordinal));
	uint64_t h2 = fnv1a(h1 ^ 0x9e3779b97f4a7c15ull, what, strlen(what));
	memcpy(out, &h1, 8);
	memcpy(out + 8, &h2, 8);
}

static void
cpu_model_name(char *buf, size_t len)
{
	FILE *f = u_sysfile("/proc/cpuinfo");
	char line[256];
	snprintf(buf, len, "CPU");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10))
			continue;
		char *colon = strchr(line, ':');
		if (!colon)
			break;
		colon++;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, len, "%s", colon);
		break;
	}
	fclose(f);
}

static void
global_init(void)
{
	struct _ze_driver_handle_t *d = &drv_driver;
	/* The address map's fork handlers before every other (its lock is
	 * the leaf: taken last, released first); then IPC's: usm's,
	 * registered with the heap, must run before them (usm_tcache.c). */
	amap_init();
	ipc_init_once();
	/* The floors below call up through these, never by name. */
	drv_set_wait_idle(cmd_mem_wait_idle);
	drv_mem_entry = (struct drv_mem_entry){
		.alloc_host = drv_zeMemAllocHost,
		.free = drv_zeMemFree,
		.get_address_range = drv_zeMemGetAddressRange,
	};
	cmd_mem_set_release(drv_mem_release);
	int err = usm_heap_create(&d->heap);
	if (err) {
		u_err("drv", "cannot create the allocation heap: %s",
		      strerror(-err));
		init_err = err;
		return;
	}
	usm_set_credit_hook(d->heap, drv_budget_credit_hook);
	d->page_size = u_page_size();
	d->magic = DRV_DRIVER_MAGIC;
	d->device_count = (uint32_t)u_option_u64(U_OPT_DEVICE_COUNT);
	const char *type = u_option_str(U_OPT_DEVICE_TYPE);
	if (type && strcmp(type, "cpu") && strcmp(type, "gpu"))
		u_warn("drv", "ZEMEM_DEVICE_TYPE=%s: not cpu or gpu; cpu",
		       type);
	drv_make_uuid(d->uuid.id, "zemem-driver-" , ZEMEM_DRIVER_VERSION);
	cpu_model_name(cpu, sizeof(cpu));
	uint64_t budget = u_option_u64(U_OPT_DEVICE_MEMORY_SIZE);
	uint64_t max_alloc = u_option_u64(U_OPT_MAX_ALLOC_SIZE);
	if (max_alloc > budget)
		max_alloc = budget;
	for (uint32_t i = 0; i < d->device_count; i++) {
		struct _ze_device_handle_t *dev = &drv_devices[i];
		dev->magic = DRV_DEVICE_MAGIC;
		dev->ordinal = i;
		dev->budget = budget;
		dev->max_alloc = max_alloc;
		atomic_init(&dev->used, 0);
		atomic_init(&dev->bytes_read, 0);
		atomic_init(&dev->bytes_written, 0);
		drv_make_uuid(dev->uuid.id, "zemem-cpu-device-", i);
		snprintf(dev->name, sizeof(dev->name), "zemem CPU device %u (%s)",
			 i, cpu);
	}
	d->initialized = true;
	/* IPC: fork handlers and the broker thread (a process-lifetime
	 * thread and socket, started here rather than at the first export so
	 * nothing appears in the middle of an application's run). */
	ipc_driver_init();
	u_info("drv", "zemem %s: %u device(s), %llu MiB device memory each, "
		      "maxMemAllocSize %llu MiB",
	       DRV_VERSION_TEXT, d->device_count,
	       (unsigned long long)(budget >> 20),
	       (unsigned long long)(max_alloc >> 20));
}

const char *
drv_cpu_model(void)
{
	return cpu;
}

bool
drv_as_gpu(void)
{
	const char *t = u_option_str(U_OPT_DEVICE_TYPE);
	return t && !strcmp(t, "gpu");
}

int
drv_global_init(void)
{
	pthread_once(&init_once, global_init);
	return init_err;
}

ze_result_t
drv_zeInit(ze_init_flags_t flags)
{
	if (flags & ~(ze_init_flags_t)(ZE_INIT_FLAG_GPU_ONLY |
				       ZE_INIT_FLAG_VPU_ONLY))
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION,
				"unknown init flags 0x%x", flags);
	if (flags && !(flags == ZE_INIT_FLAG_GPU_ONLY && drv_as_gpu()))
		return DRV_FAIL(ZE_RESULT_ERROR_UNINITIALIZED,
				"zemem has CPU devices only (flags 0x%x)",
				flags);
	int err = drv_global_init();
	return err ? DRV_FAIL(ZE_RESULT_ERROR_UNINITIALIZED,
			      "initialisation failed: %s", strerror(-err))
		   : ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeInitDrivers(uint32_t *pCount, ze_driver_handle_t *phDrivers,
		  ze_init_driver_type_desc_t *desc)
{
	if (!pCount || !desc)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"pCount or desc is NULL");
	if (!desc->flags)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION,
				"desc->flags is 0");
	/* Only GPU and NPU driver types exist; a CPU driver answers to a
	 * request for any other type (e.g. UINT32_MAX, "all types"), and
	 * to GPU requests too with ZEMEM_DEVICE_TYPE=gpu. */
	ze_init_driver_type_flags_t mine = drv_as_gpu()
		? ~(ze_init_driver_type_flags_t)ZE_INIT_DRIVER_TYPE_FLAG_NPU
		: ~(ze_init_driver_type_flags_t)(ZE_INIT_DRIVER_TYPE_FLAG_GPU |
						 ZE_INIT_DRIVER_TYPE_FLAG_NPU);
	bool wanted = desc->flags & mine;
	if (!wanted || drv_global_init()) {
		*pCount = 0;
		return ZE_RESULT_SUCCESS;
	}
	if (*pCount && phDrivers)
		phDrivers[0] = &drv_driver;
	*pCount = 1;
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeDriverGet(uint32_t *pCount, ze_driver_handle_t *phDrivers)
{
	if (!drv_driver.initialized)
		return DRV_FAIL(ZE_RESULT_ERROR_UNINITIALIZED,
				"zeInit was not called");
	if (!pCount)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"pCount is NULL");
	if (*pCount && phDrivers)
		phDrivers[0] = &drv_driver;
	*pCount = 1;
	return ZE_RESULT_SUCCESS;
}

#define CHECK_DRIVER(h)                                                     \
	do {                                                                \
		if (!(h))                                                   \
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,\
					"hDriver is NULL");                 \
		if (!drv_driver_valid(h))                                   \
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,   \
					"%p is not a zemem driver",         \
					(void *)(h));                       \
	} while (0)

ze_result_t
drv_zeDriverGetApiVersion(ze_driver_handle_t h, ze_api_version_t *version)
{
	CHECK_DRIVER(h);
	if (!version)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"version is NULL");
	*version = DRV_API_VERSION;
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeDriverGetProperties(ze_driver_handle_t h, ze_driver_properties_t *props)
{
	CHECK_DRIVER(h);
	if (!props)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"props is NULL");
	props->uuid = drv_driver.uuid;
	props->driverVersion = ZEMEM_DRIVER_VERSION;
	for (ze_base_properties_t *ext = props->pNext; ext;
	     ext = ext->pNext) {
		if (ext->stype ==
		    ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES) {
			ze_driver_memory_free_ext_properties_t *fp =
				(void *)ext;
			fp->freePolicies =
				ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE |
				ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE;
		}
	}
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeDriverGetIpcProperties(ze_driver_handle_t h,
			     ze_driver_ipc_properties_t *props)
{
	CHECK_DRIVER(h);
	if (!props)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"props is NULL");
	/* Memory IPC (driver/ipc); event pools are not shareable yet. */
	props->flags = ZE_IPC_PROPERTY_FLAG_MEMORY;
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeDriverGetExtensionProperties(ze_driver_handle_t h, uint32_t *pCount,
				   ze_driver_extension_properties_t *props)
{
	CHECK_DRIVER(h);
	if (!pCount)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"pCount is NULL");
	uint32_t n = sizeof(extensions) / sizeof(extensions[0]);
	if (*pCount == 0 || !props) {
		*pCount = n;
		return ZE_RESULT_SUCCESS;
	}
	if (*pCount > n)
		*pCount = n;
	for (uint32_t i = 0; i < *pCount; i++)
		props[i] = extensions[i];
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeDriverGetExtensionFunctionAddress(ze_driver_handle_t h, const char *name,
					void **ppFunctionAddress)
{
	CHECK_DRIVER(h);
	if (!name || !ppFunctionAddress)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"name or ppFunctionAddress is NULL");
	/* Entry points newer than old loaders (Debian's 1.8 has neither), for
	 * runtimes that need them there (libzeshmem: a heap's range handle
	 * and its release). */
	if (!strcmp(name, "zeMemGetIpcHandleWithProperties")) {
		*ppFunctionAddress =
			(void *)drv_zeMemGetIpcHandleWithProperties;
		return ZE_RESULT_SUCCESS;
	}
	if (!strcmp(name, "zeMemPutIpcHandle")) {
		*ppFunctionAddress = (void *)drv_zeMemPutIpcHandle;
		return ZE_RESULT_SUCCESS;
	}
	/* The experimental fd <-> IPC handle conversions (also in the MemExp
	 * table), for applications that look them up by name. */
	if (!strcmp(name, "zeMemGetIpcHandleFromFileDescriptorExp")) {
		*ppFunctionAddress =
			(void *)drv_zeMemGetIpcHandleFromFileDescriptorExp;
		return ZE_RESULT_SUCCESS;
	}
	if (!strcmp(name, "zeMemGetFileDescriptorFromIpcHandleExp")) {
		*ppFunctionAddress =
			(void *)drv_zeMemGetFileDescriptorFromIpcHandleExp;
		return ZE_RESULT_SUCCESS;
	}
	/* Command-list queries of 1.6 / 1.9 that Debian's 1.8 loader
	 * lacks, for runtimes ordering work after a list (libzeshmem's
	 * *_on_stream, wholememory's stream argument). */
	if (!strcmp(name, "zeCommandListHostSynchronize")) {
		*ppFunctionAddress = (void *)cmd_zeCommandListHostSynchronize;
		return ZE_RESULT_SUCCESS;
	}
	if (!strcmp(name, "zeCommandListIsImmediate")) {
		*ppFunctionAddress = (void *)cmd_zeCommandListIsImmediate;
		return ZE_RESULT_SUCCESS;
	}
	if (!strcmp(name, "zeCommandListImmediateAppendCommandListsExp")) {
		*ppFunctionAddress =
			(void *)cmd_zeCommandListImmediateAppendCommandListsExp;
		return ZE_RESULT_SUCCESS;
	}
	*ppFunctionAddress = NULL;
	return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
			"no extension function named \"%s\"", name);
}

ze_result_t
drv_zeDriverGetLastErrorDescription(ze_driver_handle_t h,
				    const char **ppString)
{
	CHECK_DRIVER(h);
	if (!ppString)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	*ppString = drv_last_error();
	return ZE_RESULT_SUCCESS;
}
