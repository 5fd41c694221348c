// SPDX-License-Identifier: MIT
/*
 * drv: private header of the zemem driver core (libze_zemem.so.1).
 *
 * Vocabulary:
 *   driver   the one driver object (struct drv_driver, static);
 *   device   a CPU-backed device (static array, ZEMEM_DEVICE_COUNT of them);
 *   context  a set of devices that owns allocations (fixed slot array, so a
 *            handle can be validated by range and magic without a lock and a
 *            forged handle never gets dereferenced out of bounds);
 *   heap     the USM allocator and pointer index (driver/usm), one per driver.
 *
 * Handles given to applications are plain pointers to these objects.
 *
 * Lock order: ctx_lock (context slots) -> usm heap locks. Device budgets are
 * atomics. Nothing else is shared.
 *
 * Errors: internal functions return 0 or -errno; drv_result() is the one
 * place that turns -errno into ze_result_t.
 */
#ifndef ZEMEM_DRV_H
#define ZEMEM_DRV_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>

#include "u_log.h"
#include "usm.h"

#define DRV_MAX_DEVICES 64
#define DRV_MAX_CONTEXTS 1024
#define DRV_DEVICE_MAGIC 0x7a6d6476u  /* "zmdv" */
#define DRV_CONTEXT_MAGIC 0x7a6d6378u /* "zmcx" */
#define DRV_CONTEXT_DYING 0x7a6d6364u /* "zmcd": being destroyed */
#define DRV_DRIVER_MAGIC 0x7a6d6472u  /* "zmdr" */
#define DRV_API_VERSION ZE_API_VERSION_1_18

struct _ze_driver_handle_t {
	uint32_t magic;
	bool initialized;
	uint32_t device_count;
	ze_driver_uuid_t uuid;
	struct usm_heap *heap;
	size_t page_size;              /* the OS page (pageSize of USM) */
};

/* 512 bytes: a handle is checked by address with shifts and masks. */
struct _ze_device_handle_t {
	_Alignas(512) uint32_t magic;
	uint32_t ordinal;
	uint64_t budget;               /* bytes of device memory */
	uint64_t max_alloc;            /* maxMemAllocSize */
	_Atomic uint64_t used;         /* bytes of device memory in use */
	ze_device_uuid_t uuid;
	char name[ZE_MAX_DEVICE_NAME];
};

/* 32 bytes: a handle is checked by address with a mask, not a division. */
struct _ze_context_handle_t {
	_Atomic uint32_t magic;        /* DRV_CONTEXT_MAGIC while live */
	uint32_t slot;
	uint64_t devmask;              /* bit i: device i belongs to it */
	uint64_t serial;               /* creation number, for logs */
	uint64_t reserved;
};

/* Data the fast paths read, declared as hidden as it is defined (the
 * build's -fvisibility=hidden): the compiler then addresses it directly,
 * not through the GOT. */
#define DRV_HIDDEN __attribute__((visibility("hidden")))

/* drv_driver.c */
extern DRV_HIDDEN struct _ze_driver_handle_t drv_driver;
extern DRV_HIDDEN struct _ze_device_handle_t drv_devices[DRV_MAX_DEVICES];
_Static_assert(sizeof(struct _ze_device_handle_t) == 512,
	       "device slots are found with shifts and masks");
/* Set up the driver once; 0 or -errno. */
int drv_global_init(void);
/* Stable 16-byte id derived from a name and an ordinal. */
void drv_make_uuid(uint8_t out[16], const char *what, uint32_t ordinal);
ze_result_t drv_result(int err);
/* Record the description of the last error of this thread (and log it at
 * debug level); returns res so callers can `return drv_fail(...)`. */
ze_result_t drv_fail(ze_result_t res, const char *func, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), cold));
#define DRV_FAIL(res, ...) drv_fail((res), __func__, __VA_ARGS__)
static inline bool
drv_driver_valid(ze_driver_handle_t h)
{
	return h == &drv_driver && drv_driver.initialized;
}
/* Validates a device handle by address (never dereferences a forged one). */
static inline struct _ze_device_handle_t *
drv_device_get(ze_device_handle_t h)
{
	uintptr_t p = (uintptr_t)h, b = (uintptr_t)drv_devices;
	if (p < b || (p - b) % sizeof(drv_devices[0]) ||
	    (p - b) / sizeof(drv_devices[0]) >= drv_driver.device_count)
		return NULL;
	return h;
}
const char *drv_result_name(ze_result_t r);

/* drv_context.c */
extern DRV_HIDDEN struct _ze_context_handle_t drv_contexts[DRV_MAX_CONTEXTS];
_Static_assert(sizeof(struct _ze_context_handle_t) == 32,
	       "context slots are found with a mask");
/* Is h a live context? (a forged handle is never dereferenced) For a
 * fast path that goes on with h itself: no NULL-or-h value to test
 * again. */
static inline bool
drv_context_live(ze_context_handle_t h)
{
	uintptr_t off = (uintptr_t)h - (uintptr_t)drv_contexts;
	return off < sizeof(drv_contexts) && !(off % sizeof(drv_contexts[0])) &&
	       atomic_load_explicit(&h->magic, memory_order_acquire) ==
		       DRV_CONTEXT_MAGIC;
}
/* The live context h, or NULL. */
static inline struct _ze_context_handle_t *
drv_context_get(ze_context_handle_t h)
{
	return drv_context_live(h) ? h : NULL;
}
static inline bool
drv_context_has_device(const struct _ze_context_handle_t *c,
		       const struct _ze_device_handle_t *d)
{
	return (c->devmask >> d->ordinal) & 1;
}

/* The checks of an entry point's hContext and hDevice, the same everywhere
 * (func names the entry point in the error text): NULL ->
 * INVALID_NULL_HANDLE; not a live context, not a zemem device, or a device
 * not in the context -> INVALID_ARGUMENT. *out on success. */
static inline ze_result_t
drv_check_context(ze_context_handle_t h, const char *func,
		  struct _ze_context_handle_t **out)
{
	if (!h)
		return drv_fail(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, func,
				"hContext is NULL");
	if (!(*out = drv_context_get(h)))
		return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, func,
				"%p is not a live context", (void *)h);
	return ZE_RESULT_SUCCESS;
}
static inline ze_result_t
drv_check_device(const struct _ze_context_handle_t *c, ze_device_handle_t h,
		 const char *func, struct _ze_device_handle_t **out)
{
	if (!h)
		return drv_fail(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, func,
				"hDevice is NULL");
	struct _ze_device_handle_t *d = drv_device_get(h);
	if (!d)
		return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, func,
				"%p is not a zemem device", (void *)h);
	if (!drv_context_has_device(c, d))
		return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, func,
				"device %u is not in the context", d->ordinal);
	*out = d;
	return ZE_RESULT_SUCCESS;
}
/* Declares c, the checked context of h, or returns the error. */
#define DRV_CHECK_CONTEXT(h, c)                                             \
	struct _ze_context_handle_t *c;                                     \
	do {                                                                \
		ze_result_t r_ = drv_check_context((h), __func__, &c);      \
		if (r_)                                                     \
			return r_;                                          \
	} while (0)

/* drv_ddi.c: nothing exported to the rest of the driver. */

/* Entry points, grouped by file (ze_api.h names them). */
/* drv_driver.c */
ze_result_t drv_zeInit(ze_init_flags_t flags);
ze_result_t drv_zeInitDrivers(uint32_t *pCount, ze_driver_handle_t *phDrivers,
			      ze_init_driver_type_desc_t *desc);
ze_result_t drv_zeDriverGet(uint32_t *pCount, ze_driver_handle_t *phDrivers);
ze_result_t drv_zeDriverGetApiVersion(ze_driver_handle_t h,
				      ze_api_version_t *version);
ze_result_t drv_zeDriverGetProperties(ze_driver_handle_t h,
				      ze_driver_properties_t *props);
ze_result_t drv_zeDriverGetIpcProperties(ze_driver_handle_t h,
					 ze_driver_ipc_properties_t *props);
ze_result_t drv_zeDriverGetExtensionProperties(
	ze_driver_handle_t h, uint32_t *pCount,
	ze_driver_extension_properties_t *props);
ze_result_t drv_zeDriverGetExtensionFunctionAddress(ze_driver_handle_t h,
						    const char *name,
						    void **ppFunctionAddress);
ze_result_t drv_zeDriverGetLastErrorDescription(ze_driver_handle_t h,
						const char **ppString);

/* drv_device.c */
ze_result_t drv_zeDeviceGet(ze_driver_handle_t h, uint32_t *pCount,
			    ze_device_handle_t *phDevices);
ze_result_t drv_zeDeviceGetRootDevice(ze_device_handle_t h,
				      ze_device_handle_t *phRootDevice);
ze_result_t drv_zeDeviceGetSubDevices(ze_device_handle_t h, uint32_t *pCount,
				      ze_device_handle_t *phSubdevices);
ze_result_t drv_zeDeviceGetProperties(ze_device_handle_t h,
				      ze_device_properties_t *p);
ze_result_t drv_zeDeviceGetComputeProperties(
	ze_device_handle_t h, ze_device_compute_properties_t *p);
ze_result_t drv_zeDeviceGetModuleProperties(ze_device_handle_t h,
					    ze_device_module_properties_t *p);
ze_result_t drv_zeDeviceGetCommandQueueGroupProperties(
	ze_device_handle_t h, uint32_t *pCount,
	ze_command_queue_group_properties_t *p);
ze_result_t drv_zeDeviceGetMemoryProperties(ze_device_handle_t h,
					    uint32_t *pCount,
					    ze_device_memory_properties_t *p);
ze_result_t drv_zeDeviceGetMemoryAccessProperties(
	ze_device_handle_t h, ze_device_memory_access_properties_t *p);
/* The access capabilities of dev, the one answer of
 * zeDeviceGetMemoryAccessProperties and of the atomic-attribute checks
 * (drv_mem_atomic.c). Fills the five capability fields only. */
void drv_device_access_caps(const struct _ze_device_handle_t *dev,
			    ze_device_memory_access_properties_t *p);
ze_result_t drv_zeDeviceGetCacheProperties(ze_device_handle_t h,
					   uint32_t *pCount,
					   ze_device_cache_properties_t *p);
ze_result_t drv_zeDeviceGetImageProperties(ze_device_handle_t h,
					   ze_device_image_properties_t *p);
ze_result_t drv_zeDeviceGetExternalMemoryProperties(
	ze_device_handle_t h, ze_device_external_memory_properties_t *p);
ze_result_t drv_zeDeviceGetP2PProperties(ze_device_handle_t h,
					 ze_device_handle_t peer,
					 ze_device_p2p_properties_t *p);
ze_result_t drv_zeDeviceCanAccessPeer(ze_device_handle_t h,
				      ze_device_handle_t peer,
				      ze_bool_t *value);
ze_result_t drv_zeDeviceGetStatus(ze_device_handle_t h);
ze_result_t drv_zeDeviceGetGlobalTimestamps(ze_device_handle_t h,
					    uint64_t *hostTimestamp,
					    uint64_t *deviceTimestamp);

/* drv_context.c */
ze_result_t drv_zeContextCreate(ze_driver_handle_t h,
				const ze_context_desc_t *desc,
				ze_context_handle_t *phContext);
ze_result_t drv_zeContextCreateEx(ze_driver_handle_t h,
				  const ze_context_desc_t *desc,
				  uint32_t numDevices,
				  ze_device_handle_t *phDevices,
				  ze_context_handle_t *phContext);
ze_result_t drv_zeContextDestroy(ze_context_handle_t h);
ze_result_t drv_zeContextGetStatus(ze_context_handle_t h);
ze_result_t drv_zeContextSystemBarrier(ze_context_handle_t h,
				       ze_device_handle_t hDevice);
ze_result_t drv_zeContextMakeMemoryResident(ze_context_handle_t h,
					    ze_device_handle_t hDevice,
					    void *ptr, size_t size);
ze_result_t drv_zeContextEvictMemory(ze_context_handle_t h,
				     ze_device_handle_t hDevice, void *ptr,
				     size_t size);

/* drv_mem.c */
ze_result_t drv_zeMemAllocShared(ze_context_handle_t hContext,
				 const ze_device_mem_alloc_desc_t *device_desc,
				 const ze_host_mem_alloc_desc_t *host_desc,
				 size_t size, size_t alignment,
				 ze_device_handle_t hDevice, void **pptr);
ze_result_t drv_zeMemAllocDevice(ze_context_handle_t hContext,
				 const ze_device_mem_alloc_desc_t *device_desc,
				 size_t size, size_t alignment,
				 ze_device_handle_t hDevice, void **pptr);
ze_result_t drv_zeMemAllocHost(ze_context_handle_t hContext,
			       const ze_host_mem_alloc_desc_t *host_desc,
			       size_t size, size_t alignment, void **pptr);
ze_result_t drv_zeMemFree(ze_context_handle_t hContext, void *ptr);
ze_result_t drv_zeMemFreeExt(ze_context_handle_t hContext,
			     const ze_memory_free_ext_desc_t *desc, void *ptr);
ze_result_t drv_zeMemGetAllocProperties(
	ze_context_handle_t hContext, const void *ptr,
	ze_memory_allocation_properties_t *props, ze_device_handle_t *phDevice);
ze_result_t drv_zeMemGetAddressRange(ze_context_handle_t hContext,
				     const void *ptr, void **pBase,
				     size_t *pSize);
ze_result_t drv_zeMemGetPitchFor2dImage(ze_context_handle_t hContext,
					ze_device_handle_t hDevice,
					size_t imageWidth, size_t imageHeight,
					unsigned int elementSizeInBytes,
					size_t *rowPitch);
/* drv_mem_atomic.c */
ze_result_t drv_zeMemSetAtomicAccessAttributeExp(
	ze_context_handle_t hContext, ze_device_handle_t hDevice,
	const void *ptr, size_t size, ze_memory_atomic_attr_exp_flags_t attr);
ze_result_t drv_zeMemGetAtomicAccessAttributeExp(
	ze_context_handle_t hContext, ze_device_handle_t hDevice,
	const void *ptr, size_t size, ze_memory_atomic_attr_exp_flags_t *pAttr);
/* Device-memory budget: reserve size bytes (false: budget exhausted) and
 * give them back. */
bool drv_budget_reserve(struct _ze_device_handle_t *dev, size_t size);
/* zeMemFree / zeMemFreeExt failed with err (-EXDEV an IPC-opened pointer,
 * -EINVAL interior, -EPERM another context, -ENOENT unknown or freed,
 * else the allocator's -errno): records why, returns the result. */
ze_result_t drv_free_fail(int err, const void *ptr);
/* usm's credit hook: a thread's unused budget on device slot goes back. */
void drv_budget_credit_hook(unsigned slot, uint64_t amount);
void drv_budget_release(struct _ze_device_handle_t *dev, size_t size);
/* Called by context destroy: release the device budget of a freed block. */
void drv_mem_release(const struct usm_info *info, void *arg);

/* vmm/: virtual and physical memory entry points (vmm_resv.c, vmm_map.c,
 * vmm_phys.c); the hooks for drv_mem.c / drv_context.c / ipc are in
 * vmm/vmm.h. */
ze_result_t drv_zeVirtualMemReserve(ze_context_handle_t hContext,
				    const void *pStart, size_t size,
				    void **pptr);
ze_result_t drv_zeVirtualMemFree(ze_context_handle_t hContext,
				 const void *ptr, size_t size);
ze_result_t drv_zeVirtualMemQueryPageSize(ze_context_handle_t hContext,
					  ze_device_handle_t hDevice,
					  size_t size, size_t *pagesize);
ze_result_t drv_zeVirtualMemMap(ze_context_handle_t hContext,
				const void *ptr, size_t size,
				ze_physical_mem_handle_t hPhysicalMemory,
				size_t offset,
				ze_memory_access_attribute_t access);
ze_result_t drv_zeVirtualMemUnmap(ze_context_handle_t hContext,
				  const void *ptr, size_t size);
ze_result_t drv_zeVirtualMemSetAccessAttribute(
	ze_context_handle_t hContext, const void *ptr, size_t size,
	ze_memory_access_attribute_t access);
ze_result_t drv_zeVirtualMemGetAccessAttribute(
	ze_context_handle_t hContext, const void *ptr, size_t size,
	ze_memory_access_attribute_t *access, size_t *outSize);
ze_result_t drv_zePhysicalMemCreate(ze_context_handle_t hContext,
				    ze_device_handle_t hDevice,
				    ze_physical_mem_desc_t *desc,
				    ze_physical_mem_handle_t *phPhysicalMemory);
ze_result_t drv_zePhysicalMemDestroy(ze_context_handle_t hContext,
				     ze_physical_mem_handle_t hPhysicalMemory);
ze_result_t drv_zePhysicalMemGetProperties(
	ze_context_handle_t hContext, ze_physical_mem_handle_t hPhysicalMem,
	ze_physical_mem_properties_t *pMemProperties);

/* ipc/ipc_api.c: IPC entry points */
ze_result_t drv_zeMemGetIpcHandle(ze_context_handle_t hContext,
				  const void *ptr,
				  ze_ipc_mem_handle_t *pIpcHandle);
ze_result_t drv_zeMemGetIpcHandleWithProperties(
	ze_context_handle_t hContext, const void *ptr, void *pNext,
	ze_ipc_mem_handle_t *pIpcHandle);
ze_result_t drv_zeMemOpenIpcHandle(ze_context_handle_t hContext,
				   ze_device_handle_t hDevice,
				   ze_ipc_mem_handle_t handle,
				   ze_ipc_memory_flags_t flags, void **pptr);
ze_result_t drv_zeMemCloseIpcHandle(ze_context_handle_t hContext,
				    const void *ptr);
ze_result_t drv_zeMemPutIpcHandle(ze_context_handle_t hContext,
				  ze_ipc_mem_handle_t handle);
ze_result_t drv_zeMemGetFileDescriptorFromIpcHandleExp(
	ze_context_handle_t hContext, ze_ipc_mem_handle_t ipcHandle,
	uint64_t *pHandle);
ze_result_t drv_zeMemGetIpcHandleFromFileDescriptorExp(
	ze_context_handle_t hContext, uint64_t handle,
	ze_ipc_mem_handle_t *pIpcHandle);
/* ipc/ipc_api.c: hooks for drv_mem.c, drv_device.c, drv_context.c */
/* External memory types this machine supports (export and import). */
uint32_t ipc_external_types(void);
/* An allocation from ze_external_memory_import_fd_t (flags != 0). */
ze_result_t ipc_mem_import_fd(struct _ze_context_handle_t *c,
			      enum usm_kind kind,
			      struct _ze_device_handle_t *dev,
			      const ze_external_memory_import_fd_t *imp,
			      size_t size, void **pptr);
/* zeMemFree of a pointer usm does not know (-ENOENT from usm_free). */
ze_result_t ipc_mem_free(struct _ze_context_handle_t *c, void *ptr);
/* zeMemGetAllocProperties / GetAddressRange of an imported pointer: false
 * when ptr is no import of c. */
bool ipc_mem_props(struct _ze_context_handle_t *c, const void *ptr,
		   ze_memory_allocation_properties_t *props,
		   ze_device_handle_t *phDevice, ze_result_t *res);
bool ipc_mem_range(struct _ze_context_handle_t *c, const void *ptr,
		   void **pBase, size_t *pSize);
/* ze_external_memory_export_fd_t in zeMemGetAllocProperties' chain. */
ze_result_t ipc_mem_export_fd(struct _ze_context_handle_t *c,
			      const struct usm_info *info,
			      ze_external_memory_export_fd_t *e);
/* An allocation was freed (drv_mem_release; may run under usm locks). */
void ipc_mem_freed(const struct usm_info *info);
/* IPC's one-time setup (its fork handlers); drv_driver.c runs it before
 * the heap exists. */
void ipc_init_once(void);
/* Closes every import of a context being destroyed. */
void ipc_context_destroyed(struct _ze_context_handle_t *c);
/* Once, from driver init: fork handlers, broker thread. */
void ipc_driver_init(void);

/* cmd/: the copy engine (queues, lists, fences, events); see cmd/cmd.h */
/* cmd_queue.c: queue groups for zeDeviceGetCommandQueueGroupProperties */
uint32_t cmd_queue_group_count(void);
void cmd_queue_group_props(uint32_t ordinal,
			   ze_command_queue_group_properties_t *p);
/* cmd_mem.c: zeMemFree / zeMemFreeExt of memory that submitted work may
 * still use. *deferred true: the free was queued behind that work (done);
 * false: the caller frees now (a BLOCKING_FREE has waited already). An
 * error is a second free of a deferred pointer. */
ze_result_t cmd_mem_free_slow(struct _ze_context_handle_t *ctx, void *ptr,
			      uint32_t policy, bool *deferred);
/* Batches in flight (low half, counted by CMD_MEM_INFLIGHT) and blocked
 * or deferred frees (high half, CMD_MEM_WATCHER): one word, one load. */
extern DRV_HIDDEN _Atomic uint64_t cmd_mem_busy;
#define CMD_MEM_INFLIGHT ((uint64_t)1)
#define CMD_MEM_WATCHER ((uint64_t)1 << 32)
/* No work in flight and no deferred free: a free has nothing to wait for
 * (a batch submitted while its memory is freed is the caller's race). */
static inline bool
cmd_mem_idle(void)
{
	return !atomic_load(&cmd_mem_busy);
}
static inline ze_result_t
cmd_mem_free(struct _ze_context_handle_t *ctx, void *ptr, uint32_t policy,
	     bool *deferred)
{
	if (cmd_mem_idle()) {
		*deferred = false;
		return ZE_RESULT_SUCCESS;
	}
	return cmd_mem_free_slow(ctx, ptr, policy, deferred);
}
/* Blocks until no submitted copy-engine op touches [ptr, ptr + size): for
 * whoever unmaps memory a copy may use (IPC close, VMM unmap). */
void cmd_mem_wait_idle(const void *ptr, size_t size);
/* cmd_queue.c */
ze_result_t cmd_zeCommandQueueCreate(ze_context_handle_t hContext,
				     ze_device_handle_t hDevice,
				     const ze_command_queue_desc_t *desc,
				     ze_command_queue_handle_t *phCommandQueue);
ze_result_t cmd_zeCommandQueueDestroy(ze_command_queue_handle_t hCommandQueue);
ze_result_t cmd_zeCommandQueueExecuteCommandLists(
	ze_command_queue_handle_t hCommandQueue, uint32_t numCommandLists,
	ze_command_list_handle_t *phCommandLists, ze_fence_handle_t hFence);
ze_result_t cmd_zeCommandQueueSynchronize(
	ze_command_queue_handle_t hCommandQueue, uint64_t timeout);
ze_result_t cmd_zeCommandQueueGetOrdinal(
	ze_command_queue_handle_t hCommandQueue, uint32_t *pOrdinal);
ze_result_t cmd_zeCommandQueueGetIndex(
	ze_command_queue_handle_t hCommandQueue, uint32_t *pIndex);
ze_result_t cmd_zeCommandQueueGetFlags(
	ze_command_queue_handle_t hCommandQueue,
	ze_command_queue_flags_t *pFlags);
ze_result_t cmd_zeCommandQueueGetMode(
	ze_command_queue_handle_t hCommandQueue,
	ze_command_queue_mode_t *pMode);
ze_result_t cmd_zeCommandQueueGetPriority(
	ze_command_queue_handle_t hCommandQueue,
	ze_command_queue_priority_t *pPriority);
/* cmd_list.c */
ze_result_t cmd_zeCommandListCreate(ze_context_handle_t hContext,
				    ze_device_handle_t hDevice,
				    const ze_command_list_desc_t *desc,
				    ze_command_list_handle_t *phCommandList);
ze_result_t cmd_zeCommandListCreateImmediate(
	ze_context_handle_t hContext, ze_device_handle_t hDevice,
	const ze_command_queue_desc_t *altdesc,
	ze_command_list_handle_t *phCommandList);
ze_result_t cmd_zeCommandListDestroy(ze_command_list_handle_t hCommandList);
ze_result_t cmd_zeCommandListClose(ze_command_list_handle_t hCommandList);
ze_result_t cmd_zeCommandListReset(ze_command_list_handle_t hCommandList);
ze_result_t cmd_zeCommandListHostSynchronize(
	ze_command_list_handle_t hCommandList, uint64_t timeout);
ze_result_t cmd_zeCommandListGetDeviceHandle(
	ze_command_list_handle_t hCommandList, ze_device_handle_t *phDevice);
ze_result_t cmd_zeCommandListGetContextHandle(
	ze_command_list_handle_t hCommandList, ze_context_handle_t *phContext);
ze_result_t cmd_zeCommandListGetOrdinal(
	ze_command_list_handle_t hCommandList, uint32_t *pOrdinal);
ze_result_t cmd_zeCommandListIsImmediate(
	ze_command_list_handle_t hCommandList, ze_bool_t *pIsImmediate);
ze_result_t cmd_zeCommandListGetFlags(ze_command_list_handle_t hCommandList,
				      ze_command_list_flags_t *pFlags);
ze_result_t cmd_zeCommandListImmediateGetIndex(
	ze_command_list_handle_t hCommandList, uint32_t *pIndex);
ze_result_t cmd_zeCommandListImmediateGetFlags(
	ze_command_list_handle_t hCommandList,
	ze_command_queue_flags_t *pFlags);
ze_result_t cmd_zeCommandListImmediateGetMode(
	ze_command_list_handle_t hCommandList, ze_command_queue_mode_t *pMode);
ze_result_t cmd_zeCommandListImmediateGetPriority(
	ze_command_list_handle_t hCommandList,
	ze_command_queue_priority_t *pPriority);
/* cmd_append.c */
ze_result_t cmd_zeCommandListAppendWriteGlobalTimestamp(
	ze_command_list_handle_t hCommandList, uint64_t *dstptr,
	ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
	ze_event_handle_t *phWaitEvents);
ze_result_t cmd_zeCommandListAppendBarrier(
	ze_command_list_handle_t hCommandList, ze_event_handle_t hSignalEvent,
	uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents);
ze_result_t cmd_zeCommandListAppendMemoryRangesBarrier(
	ze_command_list_handle_t hCommandList, uint32_t numRanges,
	const size_t *pRangeSizes, const void **pRanges,
	ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
	ze_event_handle_t *phWaitEvents);
ze_result_t cmd_zeCommandListAppendMemoryCopy(
	ze_command_list_handle_t hCommandList, void *dstptr,
	const void *srcptr, size_t size, ze_event_handle_t hSignalEvent,
	uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents);
ze_result_t cmd_zeCommandListAppendMemoryCopyWithParameters(
	ze_command_list_handle_t hCommandList, void *dstptr,
	const void *srcptr, size_t size, const void *pNext,
	ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
	ze_event_handle_t *phWaitEvents);
ze_result_t cmd_zeCommandListAppendMemoryCopyFromContext(
	ze_command_list_handle_t hCommandList, void *dstptr,
	ze_context_handle_t hContextSrc, const void *srcptr, size_t size,
	ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
	ze_event_handle_t *phWaitEvents);
ze_result_t cmd_zeCommandListAppendMemoryFill(
	ze_command_list_handle_t hCommandList, void *ptr, const void *pattern,
	size_t pattern_size, size_t size, ze_event_handle_t hSignalEvent,
	uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents);
ze_result_t cmd_zeCommandListAppendMemoryFillWithParameters(
	ze_command_list_handle_t hCommandList, void *ptr, const void *pattern,
	size_t patternSize, size_t size, const void *pNext,
	ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
	ze_event_handle_t *phWaitEvents);
ze_result_t cmd_zeCommandListAppendMemoryCopyRegion(
	ze_command_list_handle_t hCommandList, void *dstptr,
	const ze_copy_region_t *dstRegion, uint32_t dstPitch,
	uint32_t dstSlicePitch, const void *srcptr,
	const ze_copy_region_t *srcRegion, uint32_t srcPitch,
	uint32_t srcSlicePitch, ze_event_handle_t hSignalEvent,
	uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents);
ze_result_t cmd_zeCommandListAppendMemoryPrefetch(
	ze_command_list_handle_t hCommandList, const void *ptr, size_t size);
ze_result_t cmd_zeCommandListAppendMemAdvise(
	ze_command_list_handle_t hCommandList, ze_device_handle_t hDevice,
	const void *ptr, size_t size, ze_memory_advice_t advice);
ze_result_t cmd_zeCommandListAppendSignalEvent(
	ze_command_list_handle_t hCommandList, ze_event_handle_t hEvent);
ze_result_t cmd_zeCommandListAppendSignalEventWithParameters(
	ze_command_list_handle_t hCommandList, const void *pNext,
	ze_event_handle_t hEvent);
ze_result_t cmd_zeCommandListAppendWaitOnEvents(
	ze_command_list_handle_t hCommandList, uint32_t numEvents,
	ze_event_handle_t *phEvents);
ze_result_t cmd_zeCommandListAppendWaitOnEventsWithParameters(
	ze_command_list_handle_t hCommandList, const void *pNext,
	uint32_t numEvents, ze_event_handle_t *phEvents);
ze_result_t cmd_zeCommandListAppendEventReset(
	ze_command_list_handle_t hCommandList, ze_event_handle_t hEvent);
/* cmd_fence.c */
ze_result_t cmd_zeFenceCreate(ze_command_queue_handle_t hCommandQueue,
			      const ze_fence_desc_t *desc,
			      ze_fence_handle_t *phFence);
ze_result_t cmd_zeFenceDestroy(ze_fence_handle_t hFence);
ze_result_t cmd_zeFenceHostSynchronize(ze_fence_handle_t hFence,
				       uint64_t timeout);
ze_result_t cmd_zeFenceQueryStatus(ze_fence_handle_t hFence);
ze_result_t cmd_zeFenceReset(ze_fence_handle_t hFence);
/* cmd_event.c */
ze_result_t cmd_zeEventPoolCreate(ze_context_handle_t hContext,
				  const ze_event_pool_desc_t *desc,
				  uint32_t numDevices,
				  ze_device_handle_t *phDevices,
				  ze_event_pool_handle_t *phEventPool);
ze_result_t cmd_zeEventPoolDestroy(ze_event_pool_handle_t hEventPool);
ze_result_t cmd_zeEventPoolGetContextHandle(ze_event_pool_handle_t hEventPool,
					    ze_context_handle_t *phContext);
ze_result_t cmd_zeEventPoolGetFlags(ze_event_pool_handle_t hEventPool,
				    ze_event_pool_flags_t *pFlags);
ze_result_t cmd_zeEventCreate(ze_event_pool_handle_t hEventPool,
			      const ze_event_desc_t *desc,
			      ze_event_handle_t *phEvent);
ze_result_t cmd_zeEventDestroy(ze_event_handle_t hEvent);
ze_result_t cmd_zeEventHostSignal(ze_event_handle_t hEvent);
ze_result_t cmd_zeEventHostSynchronize(ze_event_handle_t hEvent,
				       uint64_t timeout);
ze_result_t cmd_zeEventQueryStatus(ze_event_handle_t hEvent);
ze_result_t cmd_zeEventHostReset(ze_event_handle_t hEvent);
ze_result_t cmd_zeEventQueryKernelTimestamp(
	ze_event_handle_t hEvent, ze_kernel_timestamp_result_t *dstptr);
ze_result_t cmd_zeEventGetEventPool(ze_event_handle_t hEvent,
				    ze_event_pool_handle_t *phEventPool);
ze_result_t cmd_zeEventGetSignalScope(ze_event_handle_t hEvent,
				      ze_event_scope_flags_t *pSignalScope);
ze_result_t cmd_zeEventGetWaitScope(ze_event_handle_t hEvent,
				    ze_event_scope_flags_t *pWaitScope);

#endif
