// SPDX-License-Identifier: MIT
/*
 * drv_ddi: the driver's exported DDI getters, its only exported symbols.
 *
 * Each ze table has an implementation table (impl_<table>) holding the
 * driver's functions; tables the driver does not implement have an empty
 * one. A getter checks the version (any 1.x) and copies only the fields
 * that exist at the caller's version (ZE_<TABLE>_DDI_FIELDS gives the
 * version of each field), and only non-NULL ones: a caller's table is
 * never written past its end, and an unimplemented table gets nothing.
 * The Sysman getters of the tables the driver implements (Global, Driver,
 * Device, Memory: drv_sysman.c) do the same with ZES_<TABLE>_DDI_FIELDS.
 * The other zet/zes getters exist because loaders require them; they fill
 * nothing.
 */
#include "drv.h"

#include <level_zero/zes_ddi.h>
#include <zemem/ze_ddi_versions.h>
#include <zemem/zes_ddi_versions.h>

/* Every table starts empty (tentative definitions); the implemented ones
 * are defined below. */
#define DECLARE_IMPL(table, Getter, FIELDS)                                 \
	static const ze_##table##_dditable_t impl_##table;
ZE_DDI_TABLES(DECLARE_IMPL)

static const ze_global_dditable_t impl_global = {
	.pfnInit = drv_zeInit,
	.pfnInitDrivers = drv_zeInitDrivers,
};

static const ze_driver_dditable_t impl_driver = {
	.pfnGet = drv_zeDriverGet,
	.pfnGetApiVersion = drv_zeDriverGetApiVersion,
	.pfnGetProperties = drv_zeDriverGetProperties,
	.pfnGetIpcProperties = drv_zeDriverGetIpcProperties,
	.pfnGetExtensionProperties = drv_zeDriverGetExtensionProperties,
	.pfnGetExtensionFunctionAddress =
		drv_zeDriverGetExtensionFunctionAddress,
	.pfnGetLastErrorDescription = drv_zeDriverGetLastErrorDescription,
};

static const ze_device_dditable_t impl_device = {
	.pfnGet = drv_zeDeviceGet,
	.pfnGetSubDevices = drv_zeDeviceGetSubDevices,
	.pfnGetProperties = drv_zeDeviceGetProperties,
	.pfnGetComputeProperties = drv_zeDeviceGetComputeProperties,
	.pfnGetModuleProperties = drv_zeDeviceGetModuleProperties,
	.pfnGetCommandQueueGroupProperties =
		drv_zeDeviceGetCommandQueueGroupProperties,
	.pfnGetMemoryProperties = drv_zeDeviceGetMemoryProperties,
	.pfnGetMemoryAccessProperties = drv_zeDeviceGetMemoryAccessProperties,
	.pfnGetCacheProperties = drv_zeDeviceGetCacheProperties,
	.pfnGetImageProperties = drv_zeDeviceGetImageProperties,
	.pfnGetExternalMemoryProperties =
		drv_zeDeviceGetExternalMemoryProperties,
	.pfnGetP2PProperties = drv_zeDeviceGetP2PProperties,
	.pfnCanAccessPeer = drv_zeDeviceCanAccessPeer,
	.pfnGetStatus = drv_zeDeviceGetStatus,
	.pfnGetGlobalTimestamps = drv_zeDeviceGetGlobalTimestamps,
	.pfnGetRootDevice = drv_zeDeviceGetRootDevice,
	.pfnGetCounterBasedEventMaxValue =
		cmd_zeDeviceGetCounterBasedEventMaxValue,
};

static const ze_context_dditable_t impl_context = {
	.pfnCreate = drv_zeContextCreate,
	.pfnDestroy = drv_zeContextDestroy,
	.pfnGetStatus = drv_zeContextGetStatus,
	.pfnSystemBarrier = drv_zeContextSystemBarrier,
	.pfnMakeMemoryResident = drv_zeContextMakeMemoryResident,
	.pfnEvictMemory = drv_zeContextEvictMemory,
	.pfnCreateEx = drv_zeContextCreateEx,
};

static const ze_mem_dditable_t impl_mem = {
	.pfnAllocShared = drv_zeMemAllocShared,
	.pfnAllocDevice = drv_zeMemAllocDevice,
	.pfnAllocHost = drv_zeMemAllocHost,
	.pfnFree = drv_zeMemFree,
	.pfnGetAllocProperties = drv_zeMemGetAllocProperties,
	.pfnGetAddressRange = drv_zeMemGetAddressRange,
	.pfnFreeExt = drv_zeMemFreeExt,
	.pfnGetPitchFor2dImage = drv_zeMemGetPitchFor2dImage,
	.pfnGetIpcHandle = drv_zeMemGetIpcHandle,
	.pfnOpenIpcHandle = drv_zeMemOpenIpcHandle,
	.pfnCloseIpcHandle = drv_zeMemCloseIpcHandle,
	.pfnPutIpcHandle = drv_zeMemPutIpcHandle,
	.pfnGetIpcHandleWithProperties = drv_zeMemGetIpcHandleWithProperties,
};

static const ze_mem_exp_dditable_t impl_mem_exp = {
	.pfnGetIpcHandleFromFileDescriptorExp =
		drv_zeMemGetIpcHandleFromFileDescriptorExp,
	.pfnGetFileDescriptorFromIpcHandleExp =
		drv_zeMemGetFileDescriptorFromIpcHandleExp,
	.pfnSetAtomicAccessAttributeExp = drv_zeMemSetAtomicAccessAttributeExp,
	.pfnGetAtomicAccessAttributeExp = drv_zeMemGetAtomicAccessAttributeExp,
};

static const ze_virtual_mem_dditable_t impl_virtual_mem = {
	.pfnReserve = drv_zeVirtualMemReserve,
	.pfnFree = drv_zeVirtualMemFree,
	.pfnQueryPageSize = drv_zeVirtualMemQueryPageSize,
	.pfnMap = drv_zeVirtualMemMap,
	.pfnUnmap = drv_zeVirtualMemUnmap,
	.pfnSetAccessAttribute = drv_zeVirtualMemSetAccessAttribute,
	.pfnGetAccessAttribute = drv_zeVirtualMemGetAccessAttribute,
};

static const ze_physical_mem_dditable_t impl_physical_mem = {
	.pfnCreate = drv_zePhysicalMemCreate,
	.pfnDestroy = drv_zePhysicalMemDestroy,
	.pfnGetProperties = drv_zePhysicalMemGetProperties,
};

/* cmd/: the copy engine. */
static const ze_command_queue_dditable_t impl_command_queue = {
	.pfnCreate = cmd_zeCommandQueueCreate,
	.pfnDestroy = cmd_zeCommandQueueDestroy,
	.pfnExecuteCommandLists = cmd_zeCommandQueueExecuteCommandLists,
	.pfnSynchronize = cmd_zeCommandQueueSynchronize,
	.pfnGetOrdinal = cmd_zeCommandQueueGetOrdinal,
	.pfnGetIndex = cmd_zeCommandQueueGetIndex,
	.pfnGetFlags = cmd_zeCommandQueueGetFlags,
	.pfnGetMode = cmd_zeCommandQueueGetMode,
	.pfnGetPriority = cmd_zeCommandQueueGetPriority,
};

static const ze_command_list_dditable_t impl_command_list = {
	.pfnCreate = cmd_zeCommandListCreate,
	.pfnCreateImmediate = cmd_zeCommandListCreateImmediate,
	.pfnDestroy = cmd_zeCommandListDestroy,
	.pfnClose = cmd_zeCommandListClose,
	.pfnReset = cmd_zeCommandListReset,
	.pfnAppendWriteGlobalTimestamp =
		cmd_zeCommandListAppendWriteGlobalTimestamp,
	.pfnAppendBarrier = cmd_zeCommandListAppendBarrier,
	.pfnAppendMemoryRangesBarrier =
		cmd_zeCommandListAppendMemoryRangesBarrier,
	.pfnAppendMemoryCopy = cmd_zeCommandListAppendMemoryCopy,
	.pfnAppendMemoryFill = cmd_zeCommandListAppendMemoryFill,
	.pfnAppendMemoryCopyRegion = cmd_zeCommandListAppendMemoryCopyRegion,
	.pfnAppendMemoryCopyFromContext =
		cmd_zeCommandListAppendMemoryCopyFromContext,
	.pfnAppendMemoryPrefetch = cmd_zeCommandListAppendMemoryPrefetch,
	.pfnAppendMemAdvise = cmd_zeCommandListAppendMemAdvise,
	.pfnAppendSignalEvent = cmd_zeCommandListAppendSignalEvent,
	.pfnAppendWaitOnEvents = cmd_zeCommandListAppendWaitOnEvents,
	.pfnAppendEventReset = cmd_zeCommandListAppendEventReset,
	.pfnHostSynchronize = cmd_zeCommandListHostSynchronize,
	.pfnGetDeviceHandle = cmd_zeCommandListGetDeviceHandle,
	.pfnGetContextHandle = cmd_zeCommandListGetContextHandle,
	.pfnGetOrdinal = cmd_zeCommandListGetOrdinal,
	.pfnImmediateGetIndex = cmd_zeCommandListImmediateGetIndex,
	.pfnIsImmediate = cmd_zeCommandListIsImmediate,
	.pfnAppendMemoryCopyWithParameters =
		cmd_zeCommandListAppendMemoryCopyWithParameters,
	.pfnAppendMemoryFillWithParameters =
		cmd_zeCommandListAppendMemoryFillWithParameters,
	.pfnGetFlags = cmd_zeCommandListGetFlags,
	.pfnImmediateGetFlags = cmd_zeCommandListImmediateGetFlags,
	.pfnImmediateGetMode = cmd_zeCommandListImmediateGetMode,
	.pfnImmediateGetPriority = cmd_zeCommandListImmediateGetPriority,
	.pfnAppendSignalEventWithParameters =
		cmd_zeCommandListAppendSignalEventWithParameters,
	.pfnAppendWaitOnEventsWithParameters =
		cmd_zeCommandListAppendWaitOnEventsWithParameters,
	.pfnImmediateAppendCommandListsWithParameters =
		cmd_zeCommandListImmediateAppendCommandListsWithParameters,
};

static const ze_command_list_exp_dditable_t impl_command_list_exp = {
	.pfnImmediateAppendCommandListsExp =
		cmd_zeCommandListImmediateAppendCommandListsExp,
};

static const ze_fence_dditable_t impl_fence = {
	.pfnCreate = cmd_zeFenceCreate,
	.pfnDestroy = cmd_zeFenceDestroy,
	.pfnHostSynchronize = cmd_zeFenceHostSynchronize,
	.pfnQueryStatus = cmd_zeFenceQueryStatus,
	.pfnReset = cmd_zeFenceReset,
};

static const ze_event_pool_dditable_t impl_event_pool = {
	.pfnCreate = cmd_zeEventPoolCreate,
	.pfnDestroy = cmd_zeEventPoolDestroy,
	.pfnGetIpcHandle = cmd_zeEventPoolGetIpcHandle,
	.pfnOpenIpcHandle = cmd_zeEventPoolOpenIpcHandle,
	.pfnCloseIpcHandle = cmd_zeEventPoolCloseIpcHandle,
	.pfnPutIpcHandle = cmd_zeEventPoolPutIpcHandle,
	.pfnGetContextHandle = cmd_zeEventPoolGetContextHandle,
	.pfnGetFlags = cmd_zeEventPoolGetFlags,
};

static const ze_event_dditable_t impl_event = {
	.pfnCreate = cmd_zeEventCreate,
	.pfnDestroy = cmd_zeEventDestroy,
	.pfnHostSignal = cmd_zeEventHostSignal,
	.pfnHostSynchronize = cmd_zeEventHostSynchronize,
	.pfnQueryStatus = cmd_zeEventQueryStatus,
	.pfnHostReset = cmd_zeEventHostReset,
	.pfnQueryKernelTimestamp = cmd_zeEventQueryKernelTimestamp,
	.pfnGetEventPool = cmd_zeEventGetEventPool,
	.pfnGetSignalScope = cmd_zeEventGetSignalScope,
	.pfnGetWaitScope = cmd_zeEventGetWaitScope,
	.pfnCounterBasedCreate = cmd_zeEventCounterBasedCreate,
	.pfnCounterBasedGetIpcHandle = cmd_zeEventCounterBasedGetIpcHandle,
	.pfnCounterBasedOpenIpcHandle = cmd_zeEventCounterBasedOpenIpcHandle,
	.pfnCounterBasedCloseIpcHandle = cmd_zeEventCounterBasedCloseIpcHandle,
	.pfnCounterBasedGetDeviceAddress =
		cmd_zeEventCounterBasedGetDeviceAddress,
	.pfnGetCounterBasedFlags = cmd_zeEventGetCounterBasedFlags,
};

static ze_result_t
check_getter(ze_api_version_t version, const void *table)
{
	if (ZE_MAJOR_VERSION(version) != 1)
		return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
	if (!table)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	return ZE_RESULT_SUCCESS;
}

#define COPY_FIELD(field, ma, mi)                                           \
	if ((uint32_t)version >= (uint32_t)ZE_MAKE_VERSION(ma, mi) &&       \
	    impl->field)                                                    \
		table->field = impl->field;

#define DEFINE_GETTER(tname, Getter, FIELDS)                                \
	ZE_DLLEXPORT ze_result_t ZE_APICALL zeGet##Getter##ProcAddrTable(   \
		ze_api_version_t version, ze_##tname##_dditable_t *table)   \
	{                                                                   \
		const ze_##tname##_dditable_t *impl = &impl_##tname;        \
		ze_result_t r = check_getter(version, table);               \
		if (r)                                                      \
			return r;                                           \
		FIELDS(COPY_FIELD)                                          \
		return ZE_RESULT_SUCCESS;                                   \
	}
ZE_DDI_TABLES(DEFINE_GETTER)

/* Sysman (zes): the memory subset (drv_sysman.c). */
static const zes_global_dditable_t impl_zes_global = {
	.pfnInit = drv_zesInit,
};

static const zes_driver_dditable_t impl_zes_driver = {
	.pfnGet = drv_zesDriverGet,
};

static const zes_device_dditable_t impl_zes_device = {
	.pfnGetProperties = drv_zesDeviceGetProperties,
	.pfnPciGetProperties = drv_zesDevicePciGetProperties,
	.pfnEnumMemoryModules = drv_zesDeviceEnumMemoryModules,
	.pfnGet = drv_zesDeviceGet,
};

static const zes_memory_dditable_t impl_zes_memory = {
	.pfnGetProperties = drv_zesMemoryGetProperties,
	.pfnGetState = drv_zesMemoryGetState,
	.pfnGetBandwidth = drv_zesMemoryGetBandwidth,
};

#define DEFINE_ZES_GETTER(tname, Getter, FIELDS)                            \
	ZE_DLLEXPORT ze_result_t ZE_APICALL zesGet##Getter##ProcAddrTable(  \
		ze_api_version_t version, zes_##tname##_dditable_t *table)  \
	{                                                                   \
		const zes_##tname##_dditable_t *impl = &impl_zes_##tname;   \
		ze_result_t r = check_getter(version, table);               \
		if (r)                                                      \
			return r;                                           \
		FIELDS(COPY_FIELD)                                          \
		return ZE_RESULT_SUCCESS;                                   \
	}
DEFINE_ZES_GETTER(global, Global, ZES_GLOBAL_DDI_FIELDS)
DEFINE_ZES_GETTER(driver, Driver, ZES_DRIVER_DDI_FIELDS)
DEFINE_ZES_GETTER(device, Device, ZES_DEVICE_DDI_FIELDS)
DEFINE_ZES_GETTER(memory, Memory, ZES_MEMORY_DDI_FIELDS)

/* Tools (zet) and the other sysman (zes) tables: required by loaders, not
 * implemented. Their table types are not declared in api/: the getters take
 * the table as an opaque pointer and write nothing. */
#define TOOL_GETTERS(X)                                                     \
	X(zetGetDeviceProcAddrTable) X(zetGetContextProcAddrTable)          \
	X(zetGetCommandListProcAddrTable) X(zetGetModuleProcAddrTable)      \
	X(zetGetKernelProcAddrTable) X(zetGetMetricGroupProcAddrTable)      \
	X(zetGetMetricGroupExpProcAddrTable) X(zetGetMetricProcAddrTable)   \
	X(zetGetMetricStreamerProcAddrTable)                                \
	X(zetGetMetricQueryPoolProcAddrTable)                               \
	X(zetGetMetricQueryProcAddrTable) X(zetGetTracerExpProcAddrTable)   \
	X(zetGetDebugProcAddrTable) X(zetGetMetricExpProcAddrTable)         \
	X(zetGetMetricProgrammableExpProcAddrTable)                         \
	X(zetGetMetricTracerExpProcAddrTable)                               \
	X(zetGetMetricDecoderExpProcAddrTable)                              \
	X(zetGetDeviceExpProcAddrTable)                                     \
	X(zesGetDriverExpProcAddrTable)                                     \
	X(zesGetDeviceExpProcAddrTable) X(zesGetSchedulerProcAddrTable)     \
	X(zesGetPerformanceFactorProcAddrTable) X(zesGetPowerProcAddrTable) \
	X(zesGetFrequencyProcAddrTable) X(zesGetEngineProcAddrTable)        \
	X(zesGetStandbyProcAddrTable) X(zesGetFirmwareProcAddrTable)        \
	X(zesGetFirmwareExpProcAddrTable)                                   \
	X(zesGetFabricPortProcAddrTable) X(zesGetTemperatureProcAddrTable)  \
	X(zesGetPsuProcAddrTable) X(zesGetFanProcAddrTable)                 \
	X(zesGetLedProcAddrTable) X(zesGetRasProcAddrTable)                 \
	X(zesGetRasExpProcAddrTable) X(zesGetDiagnosticsProcAddrTable)      \
	X(zesGetOverclockProcAddrTable)                                     \
	X(zesGetVFManagementExpProcAddrTable)

#define DEFINE_TOOL_GETTER(name)                                            \
	ZE_DLLEXPORT ze_result_t ZE_APICALL name(ze_api_version_t version,  \
						 void *table);              \
	ZE_DLLEXPORT ze_result_t ZE_APICALL name(ze_api_version_t version,  \
						 void *table)               \
	{                                                                   \
		return check_getter(version, table);                        \
	}
TOOL_GETTERS(DEFINE_TOOL_GETTER)
