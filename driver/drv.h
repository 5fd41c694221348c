// SPDX-License-Identifier: MIT
/*
 * drv: private header of the top floor of the zemem driver
 * (libze_zemem.so.1): the entry points of drv_driver.c, drv_device.c,
 * drv_context.c, drv_mem.c and drv_mem_atomic.c, and (through
 * cmd/cmd_api.h, ipc/ipc_api.h, vmm/vmm.h) those of the floors below, for
 * drv_ddi.c. The objects, handle checks, result translation and budgets
 * are the bottom floor's (drv_core.h, which also names the floors); only
 * the top floor and drv_ddi.c include this header.
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
 * atomics. The address map's lock (amap/amap.h) is a leaf under every
 * other.
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
#include <level_zero/zes_api.h>

#include "drv_core.h"

/* drv_driver.c */
#define DRV_VERSION_TEXT "0.1.0"
/* Set up the driver once; 0 or -errno. */
int drv_global_init(void);
/* ZEMEM_DEVICE_TYPE=gpu: the devices and the driver say GPU. */
bool drv_as_gpu(void);
/* The CPU's model name (/proc/cpuinfo, else "CPU"), once initialised. */
const char *drv_cpu_model(void);
/* Stable 16-byte id derived from a name and an ordinal. */
void drv_make_uuid(uint8_t out[16], const char *what, uint32_t ordinal);

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
/* zeMemFree / zeMemFreeExt failed with err (-EXDEV an IPC-opened pointer,
 * -EINVAL interior, -EPERM another context, -ENOENT unknown or freed,
 * else the allocator's -errno): records why, returns the result. */
ze_result_t drv_free_fail(int err, const void *ptr);
/* Called by context destroy: release the device budget of a freed block. */
void drv_mem_release(const struct usm_info *info, void *arg);

/* drv_sysman.c: the Sysman (zes) memory subset */
ze_result_t drv_zesInit(zes_init_flags_t flags);
ze_result_t drv_zesDriverGet(uint32_t *pCount, zes_driver_handle_t *phDrivers);
ze_result_t drv_zesDeviceGet(zes_driver_handle_t h, uint32_t *pCount,
			     zes_device_handle_t *phDevices);
ze_result_t drv_zesDeviceGetProperties(zes_device_handle_t h,
				       zes_device_properties_t *p);
ze_result_t drv_zesDevicePciGetProperties(zes_device_handle_t h,
					  zes_pci_properties_t *p);
ze_result_t drv_zesDeviceEnumMemoryModules(zes_device_handle_t h,
					   uint32_t *pCount,
					   zes_mem_handle_t *phMemory);
ze_result_t drv_zesMemoryGetProperties(zes_mem_handle_t h,
				       zes_mem_properties_t *p);
ze_result_t drv_zesMemoryGetState(zes_mem_handle_t h, zes_mem_state_t *p);
ze_result_t drv_zesMemoryGetBandwidth(zes_mem_handle_t h,
				      zes_mem_bandwidth_t *p);

/* The entry points and hooks of the floors below: vmm/vmm.h, ipc/ipc_api.h,
 * cmd/cmd_api.h (drv_ddi.c fills the tables from them). */
#include "cmd/cmd_api.h"
#include "ipc/ipc_api.h"
#include "vmm/vmm.h"

#endif
