// SPDX-License-Identifier: MIT
/*
 * val_context: where handles come from and go: zeContextCreate(Ex),
 * zeDriverGetDefaultContext and zeContextDestroy; zeDeviceGet,
 * zeDeviceGetSubDevices, zeDeviceGetRootDevice and
 * zeFabricVertexGetDeviceExp (devices are registered as the driver hands
 * them out, so a handle that never came from the driver can be named).
 *
 * Vocabulary (val.h): a context handle record keeps the context's driver,
 * a device of it (for VMM page sizes), the largest maxMemAllocSize of its
 * devices (the limit for host allocations and shared ones without a
 * device), and, with the leak checker, its own call counts.
 *
 * zeContextDestroy with live memory goes ahead (the driver frees what the
 * context owns); the layer reports each live object (val_leak.c) and
 * retires its records, so a later zeMemFree of one says what happened.
 *
 * Locking: handle records are added under val_lock; the device queries
 * that fill them go to the next layer before it is taken.
 */
#include "val.h"

#include <stdlib.h>

void
val_device_seen(ze_device_handle_t dev, const struct val_call *call)
{
	struct val_handle *hd = val_handle_find(dev);
	if (!dev || !val_cfg.enabled ||
	    (hd && atomic_load(&hd->live) &&
	     atomic_load(&hd->kind) == VAL_H_DEVICE))
		return;
	struct val_site site;
	val_site_record(&site, call);
	u_lock(&val_lock);
	hd = val_handle_find(dev);
	if (!hd || !atomic_load(&hd->live) ||
	    atomic_load(&hd->kind) != VAL_H_DEVICE)
		val_handle_add(dev, VAL_H_DEVICE, &site);
	u_unlock(&val_lock);
	val_site_clear(&site);
}

static void
devices_seen(uint32_t n, ze_device_handle_t *devs,
	     const struct val_call *call)
{
	for (uint32_t i = 0; devs && i < n; i++)
		val_device_seen(devs[i], call);
}

/* Record a new context; devs NULL: every device of drv. */
static void
context_created(const struct val_call *call, ze_driver_handle_t drv,
		ze_context_handle_t ctx, uint32_t ndev,
		ze_device_handle_t *devs)
{
	ze_device_handle_t *all = NULL;
	uint64_t max = 0;
	if (!devs && drv && val_next.Device.pfnGet &&
	    val_next.Device.pfnGet(drv, &ndev, NULL) == ZE_RESULT_SUCCESS &&
	    ndev && (all = calloc(ndev, sizeof(*all))) &&
	    val_next.Device.pfnGet(drv, &ndev, all) == ZE_RESULT_SUCCESS)
		devs = all;
	if (!devs)
		ndev = 0;
	for (uint32_t i = 0; i < ndev; i++) {
		uint64_t m = val_device_max_alloc(devs[i]);
		max = m > max ? m : max;
	}
	struct val_site site;
	val_site_record(&site, call);
	u_lock(&val_lock);
	struct val_handle *hd = val_handle_add(ctx, VAL_H_CONTEXT, &site);
	if (hd) {
		hd->drv = drv;
		hd->dev0 = ndev ? devs[0] : NULL;
		atomic_store(&hd->max_alloc, max ? max : UINT64_MAX);
		if (val_cfg.leak && !hd->counts)
			hd->counts = calloc(VAL_EP_COUNT,
					    sizeof(hd->counts[0]));
	}
	u_unlock(&val_lock);
	free(all);
}

static ze_result_t
check_context_desc(const struct val_call *call, const ze_context_desc_t *desc,
		   ze_context_handle_t *phContext)
{
	static const ze_structure_type_t chain[] = {
		ZE_STRUCTURE_TYPE_POWER_SAVING_HINT_EXP_DESC,
	};
	if (!desc || !phContext)
		return val_report(VAL_CAT_PARAMETER, call,
				  ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				  "%s is NULL", !desc ? "desc" : "phContext");
	ze_result_t r;
	if ((r = VAL_CHECK_STYPE(call, "desc->stype", desc->stype,
				 ZE_STRUCTURE_TYPE_CONTEXT_DESC)) ||
	    (r = val_check_flags(call, "desc->flags", desc->flags,
				 ZE_CONTEXT_FLAG_TBD)))
		return r;
	return val_check_chain(call, "desc", desc->pNext, chain, 1, NULL);
}

ze_result_t
val_zeContextCreate(const struct val_call *call, ze_driver_handle_t hDriver,
		    const ze_context_desc_t *desc,
		    ze_context_handle_t *phContext)
{
	ze_result_t r;
	if (val_cfg.params && (r = check_context_desc(call, desc, phContext)))
		return r;
	r = val_next.Context.pfnCreate(hDriver, desc, phContext);
	if (r == ZE_RESULT_SUCCESS)
		context_created(call, hDriver, *phContext, 0, NULL);
	return r;
}

ze_result_t
val_zeContextCreateEx(const struct val_call *call, ze_driver_handle_t hDriver,
		      const ze_context_desc_t *desc, uint32_t numDevices,
		      ze_device_handle_t *phDevices,
		      ze_context_handle_t *phContext)
{
	ze_result_t r;
	if (val_cfg.params) {
		if ((r = check_context_desc(call, desc, phContext)))
			return r;
		if (numDevices && !phDevices)
			return val_report(VAL_CAT_PARAMETER, call,
					  ZE_RESULT_ERROR_INVALID_NULL_POINTER,
					  "phDevices is NULL with numDevices "
					  "%u", numDevices);
	}
	for (uint32_t i = 0; val_cfg.lifetime && phDevices && i < numDevices;
	     i++) {
		if ((r = val_check_device(call, "phDevices[]", phDevices[i])))
			return r;
	}
	r = val_next.Context.pfnCreateEx(hDriver, desc, numDevices, phDevices,
					 phContext);
	if (r == ZE_RESULT_SUCCESS)
		context_created(call, hDriver, *phContext, numDevices,
				numDevices ? phDevices : NULL);
	return r;
}

ze_context_handle_t
val_zeDriverGetDefaultContext(const struct val_call *call,
			      ze_driver_handle_t hDriver)
{
	ze_context_handle_t ctx =
		val_next.Driver.pfnGetDefaultContext(hDriver);
	struct val_handle *hd = val_handle_find(ctx);
	if (ctx && (!hd || !atomic_load(&hd->live)))
		context_created(call, hDriver, ctx, 0, NULL);
	return ctx;
}

ze_result_t
val_zeContextDestroy(const struct val_call *call, ze_context_handle_t hContext)
{
	struct val_handle *hd = val_cfg.enabled ? val_handle_find(hContext)
						: NULL;
	struct val_site site;
	/* Dead before the driver frees its memory: another thread that gets
	 * the same addresses meanwhile must not find them owned. */
	if (hd) {
		val_site_record(&site, call);
		u_lock(&val_lock);
		val_handle_kill(hd, &site);
		u_unlock(&val_lock);
	}
	ze_result_t r = val_next.Context.pfnDestroy(hContext);
	if (hd && r != ZE_RESULT_SUCCESS) {
		val_handle_set_live(hd, true);
		return r;
	}
	if (r == ZE_RESULT_SUCCESS && val_cfg.tracking)
		val_leak_report(call, hContext, r);
	return r;
}

ze_result_t
val_zeDeviceGet(const struct val_call *call, ze_driver_handle_t hDriver,
		uint32_t *pCount, ze_device_handle_t *phDevices)
{
	if (val_cfg.params && !pCount)
		return val_report(VAL_CAT_PARAMETER, call,
				  ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				  "pCount is NULL");
	ze_result_t r = val_next.Device.pfnGet(hDriver, pCount, phDevices);
	if (r == ZE_RESULT_SUCCESS && pCount)
		devices_seen(*pCount, phDevices, call);
	return r;
}

ze_result_t
val_zeDeviceGetSubDevices(const struct val_call *call,
			  ze_device_handle_t hDevice, uint32_t *pCount,
			  ze_device_handle_t *phSubdevices)
{
	if (val_cfg.params && !pCount)
		return val_report(VAL_CAT_PARAMETER, call,
				  ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				  "pCount is NULL");
	ze_result_t r = val_next.Device.pfnGetSubDevices(hDevice, pCount,
							 phSubdevices);
	if (r == ZE_RESULT_SUCCESS && pCount)
		devices_seen(*pCount, phSubdevices, call);
	return r;
}

ze_result_t
val_zeDeviceGetRootDevice(const struct val_call *call,
			  ze_device_handle_t hDevice,
			  ze_device_handle_t *phRootDevice)
{
	if (val_cfg.params && !phRootDevice)
		return val_report(VAL_CAT_PARAMETER, call,
				  ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				  "phRootDevice is NULL");
	ze_result_t r = val_next.Device.pfnGetRootDevice(hDevice,
							 phRootDevice);
	if (r == ZE_RESULT_SUCCESS && phRootDevice)
		devices_seen(1, phRootDevice, call);
	return r;
}

ze_result_t
val_zeFabricVertexGetDeviceExp(const struct val_call *call,
			       ze_fabric_vertex_handle_t hVertex,
			       ze_device_handle_t *phDevice)
{
	ze_result_t r = val_next.FabricVertexExp.pfnGetDeviceExp(hVertex,
								 phDevice);
	if (r == ZE_RESULT_SUCCESS && phDevice)
		devices_seen(1, phDevice, call);
	return r;
}
