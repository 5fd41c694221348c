// SPDX-License-Identifier: MIT
/*
 * drv_sysman: the memory subset of Sysman (zes*): the driver and its
 * devices, their properties, and one memory module per device with its
 * state and the copy engine's traffic.
 *
 * Vocabulary:
 *   sysman handle  zemem's Sysman driver and device handles are its core
 *                  ones (zes_device_handle_t is ze_device_handle_t), so
 *                  zesDeviceGet returns what zeDeviceGet does. They answer
 *                  once Sysman is on: after zesInit, or, when the
 *                  environment has ZES_ENABLE_SYSMAN=1, after zeInit (as
 *                  Intel's driver lets core handles serve). Before that a
 *                  call answers ZE_RESULT_ERROR_UNINITIALIZED.
 *   module         the memory module of a device: its device-memory budget
 *                  (ZEMEM_DEVICE_MEMORY_SIZE), which is system RAM, so the
 *                  module's location is ZES_MEM_LOC_SYSTEM and its type
 *                  DDR (the generation is not readable without privilege).
 *   state          size: the budget; free: the budget less what device and
 *                  shared allocations and physical memory objects of the
 *                  device hold (exactly the sizes they asked for: the count
 *                  the budget check uses, drv_budget_used), so free moves
 *                  by exactly what an allocation takes.
 *   bandwidth      bytes the copy engine's ops on the device's queues read
 *                  and wrote (cmd_exec.c counts them); a CPU has no fixed
 *                  peak, so maxBandwidth is 0 (not known).
 *   PCI            a zemem device is not on a PCI bus: the PCI query
 *                  answers ZE_RESULT_ERROR_UNSUPPORTED_FEATURE.
 *
 * No locks: the budget and the counters are atomics, the rest is fixed at
 * driver init.
 */
#include "drv.h"
#include "u_options.h"
#include "u_os.h"

#include <stdio.h>
#include <string.h>

/* One memory module per device slot; the handle's address gives the
 * device, so a forged handle is never dereferenced. */
struct _zes_mem_handle_t {
	uint32_t reserved; /* nothing: the address is the handle */
};
static struct _zes_mem_handle_t modules[DRV_MAX_DEVICES];
static atomic_bool zes_inited;

#define SYSMAN_OFF_TEXT                                                     \
	"Sysman is off: call zesInit, or zeInit with ZES_ENABLE_SYSMAN=1"

static bool
sysman_on(void)
{
	if (!drv_driver.initialized)
		return false;
	return atomic_load_explicit(&zes_inited, memory_order_acquire) ||
	       u_option_u64(U_OPT_ZES_ENABLE_SYSMAN);
}

/* The checks of a device entry point: NULL -> INVALID_NULL_HANDLE, Sysman
 * off -> UNINITIALIZED, not a zemem device -> INVALID_ARGUMENT. */
static ze_result_t
check_device(zes_device_handle_t h, const char *func,
	     struct _ze_device_handle_t **out)
{
	if (!h)
		return drv_fail(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, func,
				"hDevice is NULL");
	if (!sysman_on())
		return drv_fail(ZE_RESULT_ERROR_UNINITIALIZED, func,
				SYSMAN_OFF_TEXT);
	if (!(*out = drv_device_get(h)))
		return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, func,
				"%p is not a zemem device", (void *)h);
	return ZE_RESULT_SUCCESS;
}

/* The same for a memory module: its device, or the error. */
static ze_result_t
check_module(zes_mem_handle_t h, const char *func,
	     struct _ze_device_handle_t **out)
{
	if (!h)
		return drv_fail(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, func,
				"hMemory is NULL");
	if (!sysman_on())
		return drv_fail(ZE_RESULT_ERROR_UNINITIALIZED, func,
				SYSMAN_OFF_TEXT);
	uintptr_t p = (uintptr_t)h, b = (uintptr_t)modules;
	if (p < b || (p - b) % sizeof(modules[0]) ||
	    (p - b) / sizeof(modules[0]) >= drv_driver.device_count)
		return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, func,
				"%p is not a zemem memory module", (void *)h);
	*out = &drv_devices[(p - b) / sizeof(modules[0])];
	return ZE_RESULT_SUCCESS;
}

#define NULL_POINTER(p)                                                     \
	DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER, #p " is NULL")

ze_result_t
drv_zesInit(zes_init_flags_t flags)
{
	if (flags & ~(zes_init_flags_t)ZES_INIT_FLAG_PLACEHOLDER)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION,
				"unknown zesInit flags 0x%x", flags);
	int err = drv_global_init();
	if (err)
		return DRV_FAIL(ZE_RESULT_ERROR_UNINITIALIZED,
				"initialisation failed: %s", strerror(-err));
	atomic_store_explicit(&zes_inited, true, memory_order_release);
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zesDriverGet(uint32_t *pCount, zes_driver_handle_t *phDrivers)
{
	if (!pCount)
		return NULL_POINTER(pCount);
	if (!sysman_on())
		return DRV_FAIL(ZE_RESULT_ERROR_UNINITIALIZED, SYSMAN_OFF_TEXT);
	if (*pCount && phDrivers)
		phDrivers[0] = &drv_driver;
	*pCount = 1;
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zesDeviceGet(zes_driver_handle_t h, uint32_t *pCount,
		 zes_device_handle_t *phDevices)
{
	if (!h)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hDriver is NULL");
	if (!sysman_on())
		return DRV_FAIL(ZE_RESULT_ERROR_UNINITIALIZED, SYSMAN_OFF_TEXT);
	/* The core query: same handles, same count rules. */
	return drv_zeDeviceGet(h, pCount, phDevices);
}

/* The extension structures of zes_device_properties_t this driver fills;
 * others are left as they are (the spec's rule for unknown ones). */
static void
device_props_ext(const struct _ze_device_handle_t *dev,
		 const ze_device_properties_t *core, void *pNext)
{
	for (ze_base_properties_t *b = pNext; b; b = b->pNext) {
		if ((uint32_t)b->stype !=
		    (uint32_t)ZES_STRUCTURE_TYPE_DEVICE_EXT_PROPERTIES)
			continue;
		zes_device_ext_properties_t *x = (void *)b;
		memcpy(x->uuid.id, dev->uuid.id, sizeof(x->uuid.id));
		x->type = ZES_DEVICE_TYPE_CPU;
		x->flags = 0;
		if (core->flags & ZE_DEVICE_PROPERTY_FLAG_INTEGRATED)
			x->flags |= ZES_DEVICE_PROPERTY_FLAG_INTEGRATED;
		if (core->flags & ZE_DEVICE_PROPERTY_FLAG_ONDEMANDPAGING)
			x->flags |= ZES_DEVICE_PROPERTY_FLAG_ONDEMANDPAGING;
	}
}

ze_result_t
drv_zesDeviceGetProperties(zes_device_handle_t h, zes_device_properties_t *p)
{
	struct _ze_device_handle_t *dev;
	ze_result_t r = check_device(h, __func__, &dev);
	if (r)
		return r;
	if (!p)
		return NULL_POINTER(p);
	/* The core part is filled as zeDeviceGetProperties fills it, with the
	 * caller's stype and chain when the stype is one of the structure's
	 * (an application that zeroed it gets the 1.0 structure, no chain). */
	if (p->core.stype != ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES &&
	    p->core.stype != ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2) {
		p->core.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES;
		p->core.pNext = NULL;
	}
	if ((r = drv_zeDeviceGetProperties(h, &p->core)))
		return r;
	p->numSubdevices = 0;
	/* The spec's word for what cannot be determined is "unknown": a
	 * virtual device has no serial or board number. */
	snprintf(p->serialNumber, sizeof(p->serialNumber), "unknown");
	snprintf(p->boardNumber, sizeof(p->boardNumber), "unknown");
	snprintf(p->brandName, sizeof(p->brandName), "zemem");
	snprintf(p->modelName, sizeof(p->modelName), "%s", drv_cpu_model());
	snprintf(p->vendorName, sizeof(p->vendorName), "zemem");
	snprintf(p->driverVersion, sizeof(p->driverVersion), "%s",
		 DRV_VERSION_TEXT);
	device_props_ext(dev, &p->core, p->pNext);
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zesDevicePciGetProperties(zes_device_handle_t h, zes_pci_properties_t *p)
{
	struct _ze_device_handle_t *dev;
	ze_result_t r = check_device(h, __func__, &dev);
	if (r)
		return r;
	if (!p)
		return NULL_POINTER(p);
	return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
			"device %u is CPU-backed: it has no PCI function",
			dev->ordinal);
}

ze_result_t
drv_zesDeviceEnumMemoryModules(zes_device_handle_t h, uint32_t *pCount,
			       zes_mem_handle_t *phMemory)
{
	struct _ze_device_handle_t *dev;
	ze_result_t r = check_device(h, __func__, &dev);
	if (r)
		return r;
	if (!pCount)
		return NULL_POINTER(pCount);
	if (*pCount && phMemory)
		phMemory[0] = &modules[dev->ordinal];
	*pCount = 1;
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zesMemoryGetProperties(zes_mem_handle_t h, zes_mem_properties_t *p)
{
	struct _ze_device_handle_t *dev;
	ze_result_t r = check_module(h, __func__, &dev);
	if (r)
		return r;
	if (!p)
		return NULL_POINTER(p);
	p->type = ZES_MEM_TYPE_DDR;
	p->onSubdevice = 0;
	p->subdeviceId = 0;
	p->location = ZES_MEM_LOC_SYSTEM;
	p->physicalSize = dev->budget;
	p->busWidth = -1;
	p->numChannels = -1;
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zesMemoryGetState(zes_mem_handle_t h, zes_mem_state_t *p)
{
	struct _ze_device_handle_t *dev;
	ze_result_t r = check_module(h, __func__, &dev);
	if (r)
		return r;
	if (!p)
		return NULL_POINTER(p);
	uint64_t used = drv_budget_used(dev);
	p->health = ZES_MEM_HEALTH_OK;
	p->size = dev->budget;
	p->free = used < dev->budget ? dev->budget - used : 0;
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zesMemoryGetBandwidth(zes_mem_handle_t h, zes_mem_bandwidth_t *p)
{
	struct _ze_device_handle_t *dev;
	ze_result_t r = check_module(h, __func__, &dev);
	if (r)
		return r;
	if (!p)
		return NULL_POINTER(p);
	p->readCounter = atomic_load_explicit(&dev->bytes_read,
					      memory_order_relaxed);
	p->writeCounter = atomic_load_explicit(&dev->bytes_written,
					       memory_order_relaxed);
	p->maxBandwidth = 0;
	p->timestamp = u_now_ns() / 1000; /* microseconds */
	return ZE_RESULT_SUCCESS;
}
