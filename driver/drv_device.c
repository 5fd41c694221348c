// SPDX-License-Identifier: MIT
/*
 * drv_device: the CPU-backed devices and their properties.
 *
 * Every property says what the CPU really is: type CPU, integrated (it
 * shares memory with the host), on-demand paging, memory the size of the
 * device budget, every USM kind accessible with atomics and concurrency
 * (one coherent memory), caches as sysfs reports them, no sub-devices, and
 * peer access between all zemem devices (same memory).
 */
#include "drv.h"
#include "u_os.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK_DEVICE(h, dev)                                                \
	struct _ze_device_handle_t *dev = drv_device_get(h);                \
	do {                                                                \
		if (!(h))                                                   \
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,\
					"hDevice is NULL");                 \
		if (!dev)                                                   \
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,   \
					"%p is not a zemem device",         \
					(void *)(h));                       \
		(void)dev;                                                  \
	} while (0)

#define CHECK_PTR(p)                                                        \
	do {                                                                \
		if (!(p))                                                   \
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,\
					#p " is NULL");                     \
	} while (0)

/* Write min(*pCount, n) items with fill(i); *pCount = n when it was 0. */
#define COUNT_QUERY(pCount, out, n)                                         \
	do {                                                                \
		if (*(pCount) == 0 || !(out)) {                             \
			*(pCount) = (n);                                    \
			return ZE_RESULT_SUCCESS;                           \
		}                                                           \
		if (*(pCount) > (n))                                        \
			*(pCount) = (n);                                    \
	} while (0)

ze_result_t
drv_zeDeviceGet(ze_driver_handle_t h, uint32_t *pCount,
		ze_device_handle_t *phDevices)
{
	if (!h)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hDriver is NULL");
	if (!drv_driver_valid(h))
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"%p is not a zemem driver", (void *)h);
	CHECK_PTR(pCount);
	uint32_t n = drv_driver.device_count;
	COUNT_QUERY(pCount, phDevices, n);
	for (uint32_t i = 0; i < *pCount; i++)
		phDevices[i] = &drv_devices[i];
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeDeviceGetRootDevice(ze_device_handle_t h, ze_device_handle_t *phRoot)
{
	CHECK_DEVICE(h, dev);
	CHECK_PTR(phRoot);
	*phRoot = NULL; /* a root device has no root */
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeDeviceGetSubDevices(ze_device_handle_t h, uint32_t *pCount,
			  ze_device_handle_t *phSubdevices)
{
	CHECK_DEVICE(h, dev);
	CHECK_PTR(pCount);
	*pCount = 0;
	return ZE_RESULT_SUCCESS;
}

/* Extension structures chained to ze_device_properties_t. Read-only
 * memory: a VMM mapping with ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY is
 * mprotect'ed PROT_READ, so the MMU enforces it; a copy or fill into it
 * fails (ZE_RESULT_ERROR_DEVICE_LOST from its synchronization, like a GPU
 * page fault) instead of writing: ENFORCED. */
static void
device_props_ext(void *pNext)
{
	/* Bounded: a chain that loops back on itself is not walked
	 * forever. */
	int n = 0;
	for (ze_base_properties_t *b = pNext; b && n < 64; b = b->pNext, n++) {
		ze_device_readonly_memory_ext_properties_t *ro = (void *)b;
		if (b->stype ==
		    ZE_STRUCTURE_TYPE_DEVICE_READONLY_MEMORY_EXT_PROPERTIES)
			ro->readonlyCapability =
				ZE_DEVICE_READONLY_MEMORY_CAPABILITY_ENFORCED;
	}
}

ze_result_t
drv_zeDeviceGetProperties(ze_device_handle_t h, ze_device_properties_t *p)
{
	CHECK_DEVICE(h, dev);
	CHECK_PTR(p);
	unsigned cpus = u_cpu_count();
	p->type = drv_as_gpu() ? ZE_DEVICE_TYPE_GPU : ZE_DEVICE_TYPE_CPU;
	p->vendorId = 0;    /* no PCI function behind it */
	p->deviceId = dev->ordinal;
	p->flags = ZE_DEVICE_PROPERTY_FLAG_INTEGRATED |
		   ZE_DEVICE_PROPERTY_FLAG_ONDEMANDPAGING;
	p->subdeviceId = 0;
	p->coreClockRate = 0; /* unknown: not read from the CPU */
	p->maxMemAllocSize = dev->max_alloc;
	p->maxHardwareContexts = 1;
	p->maxCommandQueuePriority = 0;
	p->numThreadsPerEU = 1;
	p->physicalEUSimdWidth = 1;
	p->numEUsPerSubslice = 1;
	p->numSubslicesPerSlice = 1;
	p->numSlices = cpus;
	/* Timestamps are CLOCK_MONOTONIC nanoseconds. */
	p->timerResolution =
		p->stype == ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2
			? 1000000000ull : 1ull;
	p->timestampValidBits = 64;
	p->kernelTimestampValidBits = 64;
	p->uuid = dev->uuid;
	snprintf(p->name, sizeof(p->name), "%s", dev->name);
	device_props_ext(p->pNext);
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeDeviceGetComputeProperties(ze_device_handle_t h,
				 ze_device_compute_properties_t *p)
{
	CHECK_DEVICE(h, dev);
	CHECK_PTR(p);
	p->maxTotalGroupSize = 1;
	p->maxGroupSizeX = 1;
	p->maxGroupSizeY = 1;
	p->maxGroupSizeZ = 1;
	p->maxGroupCountX = UINT32_MAX;
	p->maxGroupCountY = UINT32_MAX;
	p->maxGroupCountZ = UINT32_MAX;
	p->maxSharedLocalMemory = 0;
	p->numSubGroupSizes = 1;
	memset(p->subGroupSizes, 0, sizeof(p->subGroupSizes));
	p->subGroupSizes[0] = 1;
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeDeviceGetModuleProperties(ze_device_handle_t h,
				ze_device_module_properties_t *p)
{
	CHECK_DEVICE(h, dev);
	CHECK_PTR(p);
	/* No module support: every capability is zero. */
	p->spirvVersionSupported = 0;
	p->flags = 0;
	p->fp16flags = 0;
	p->fp32flags = 0;
	p->fp64flags = 0;
	p->maxArgumentsSize = 0;
	p->printfBufferSize = 0;
	memset(&p->nativeKernelSupported, 0, sizeof(p->nativeKernelSupported));
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeDeviceGetCommandQueueGroupProperties(
	ze_device_handle_t h, uint32_t *pCount,
	ze_command_queue_group_properties_t *p)
{
	CHECK_DEVICE(h, dev);
	CHECK_PTR(pCount);
	/* The copy engine (driver/cmd): ordinal 0 compute (COMPUTE | COPY),
	 * ordinal 1 copy only, fill patterns up to 128 bytes. */
	COUNT_QUERY(pCount, p, cmd_queue_group_count());
	for (uint32_t i = 0; i < *pCount; i++)
		cmd_queue_group_props(i, &p[i]);
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeDeviceGetMemoryProperties(ze_device_handle_t h, uint32_t *pCount,
				ze_device_memory_properties_t *p)
{
	CHECK_DEVICE(h, dev);
	CHECK_PTR(pCount);
	COUNT_QUERY(pCount, p, 1u);
	p[0].flags = 0;
	p[0].maxClockRate = 0;
	p[0].maxBusWidth = 0;
	p[0].totalSize = dev->budget;
	snprintf(p[0].name, sizeof(p[0].name), "system RAM");
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeDeviceGetMemoryAccessProperties(ze_device_handle_t h,
				      ze_device_memory_access_properties_t *p)
{
	CHECK_DEVICE(h, dev);
	CHECK_PTR(p);
	drv_device_access_caps(dev, p);
	return ZE_RESULT_SUCCESS;
}

void
drv_device_access_caps(const struct _ze_device_handle_t *dev,
		       ze_device_memory_access_properties_t *p)
{
	/* One coherent memory: every kind readable, writable and atomic,
	 * concurrently with the host and other devices. */
	(void)dev;
	ze_memory_access_cap_flags_t all =
		ZE_MEMORY_ACCESS_CAP_FLAG_RW | ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC |
		ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT |
		ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT_ATOMIC;
	p->hostAllocCapabilities = all;
	p->deviceAllocCapabilities = all;
	p->sharedSingleDeviceAllocCapabilities = all;
	p->sharedCrossDeviceAllocCapabilities = all;
	p->sharedSystemAllocCapabilities = all;
}

ze_result_t
drv_zeDeviceGetCacheProperties(ze_device_handle_t h, uint32_t *pCount,
			       ze_device_cache_properties_t *p)
{
	CHECK_DEVICE(h, dev);
	CHECK_PTR(pCount);
	uint64_t sizes[8];
	uint32_t n = u_cpu_caches(sizes, 8);
	COUNT_QUERY(pCount, p, n);
	for (uint32_t i = 0; i < *pCount; i++) {
		p[i].flags = 0;
		p[i].cacheSize = sizes[i];
	}
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeDeviceGetImageProperties(ze_device_handle_t h,
			       ze_device_image_properties_t *p)
{
	CHECK_DEVICE(h, dev);
	CHECK_PTR(p);
	/* No image support: all limits are zero. */
	p->maxImageDims1D = 0;
	p->maxImageDims2D = 0;
	p->maxImageDims3D = 0;
	p->maxImageBufferSize = 0;
	p->maxImageArraySlices = 0;
	p->maxSamplers = 0;
	p->maxReadImageArgs = 0;
	p->maxWriteImageArgs = 0;
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeDeviceGetExternalMemoryProperties(ze_device_handle_t h,
					ze_device_external_memory_properties_t *p)
{
	CHECK_DEVICE(h, dev);
	CHECK_PTR(p);
	/* driver/ipc: OPAQUE_FD (a memfd) always; DMA_BUF only where the
	 * machine has a dma-buf exporter (udmabuf or a DRM render node).
	 * No images. */
	p->memoryAllocationImportTypes = ipc_external_types();
	p->memoryAllocationExportTypes = ipc_external_types();
	p->imageImportTypes = 0;
	p->imageExportTypes = 0;
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeDeviceGetP2PProperties(ze_device_handle_t h, ze_device_handle_t peer,
			     ze_device_p2p_properties_t *p)
{
	CHECK_DEVICE(h, dev);
	CHECK_DEVICE(peer, pdev);
	CHECK_PTR(p);
	p->flags = ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS |
		   ZE_DEVICE_P2P_PROPERTY_FLAG_ATOMICS;
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeDeviceCanAccessPeer(ze_device_handle_t h, ze_device_handle_t peer,
			  ze_bool_t *value)
{
	CHECK_DEVICE(h, dev);
	CHECK_DEVICE(peer, pdev);
	CHECK_PTR(value);
	*value = 1;
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeDeviceGetStatus(ze_device_handle_t h)
{
	CHECK_DEVICE(h, dev);
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeDeviceGetGlobalTimestamps(ze_device_handle_t h, uint64_t *hostTimestamp,
				uint64_t *deviceTimestamp)
{
	CHECK_DEVICE(h, dev);
	CHECK_PTR(hostTimestamp);
	CHECK_PTR(deviceTimestamp);
	uint64_t now = u_now_ns();
	*hostTimestamp = now;
	*deviceTimestamp = now;
	return ZE_RESULT_SUCCESS;
}
