/* SPDX-License-Identifier: MIT */
/*
 * zemem: the API version that added each Level Zero DDI table field.
 *
 * ZE_<TABLE>_DDI_FIELDS(X) expands X(field, major, minor) once per field of
 * ze_<table>_dditable_t, in table order. Fields are sorted by version, so the
 * fields present at version V are a prefix: zemem_ddi_count_<table>(V) gives
 * its length. ZE_DDI_TABLES(T) expands T(table, Getter, FIELDS_MACRO) once
 * per table, in ze_dditable_t order.
 */
#ifndef ZEMEM_ZE_DDI_VERSIONS_H
#define ZEMEM_ZE_DDI_VERSIONS_H

#include <stdint.h>
#include "level_zero/ze_ddi.h"

#define ZE_GLOBAL_DDI_FIELDS(X) \
    X(pfnInit, 1, 0) \
    X(pfnInitDrivers, 1, 10)

#define ZE_DRIVER_DDI_FIELDS(X) \
    X(pfnGet, 1, 0) \
    X(pfnGetApiVersion, 1, 0) \
    X(pfnGetProperties, 1, 0) \
    X(pfnGetIpcProperties, 1, 0) \
    X(pfnGetExtensionProperties, 1, 0) \
    X(pfnGetExtensionFunctionAddress, 1, 1) \
    X(pfnGetLastErrorDescription, 1, 6) \
    X(pfnRTASFormatCompatibilityCheckExt, 1, 13) \
    X(pfnGetDefaultContext, 1, 14)

#define ZE_DRIVER_EXP_DDI_FIELDS(X) \
    X(pfnRTASFormatCompatibilityCheckExp, 1, 7)

#define ZE_DEVICE_DDI_FIELDS(X) \
    X(pfnGet, 1, 0) \
    X(pfnGetSubDevices, 1, 0) \
    X(pfnGetProperties, 1, 0) \
    X(pfnGetComputeProperties, 1, 0) \
    X(pfnGetModuleProperties, 1, 0) \
    X(pfnGetCommandQueueGroupProperties, 1, 0) \
    X(pfnGetMemoryProperties, 1, 0) \
    X(pfnGetMemoryAccessProperties, 1, 0) \
    X(pfnGetCacheProperties, 1, 0) \
    X(pfnGetImageProperties, 1, 0) \
    X(pfnGetExternalMemoryProperties, 1, 0) \
    X(pfnGetP2PProperties, 1, 0) \
    X(pfnCanAccessPeer, 1, 0) \
    X(pfnGetStatus, 1, 0) \
    X(pfnGetGlobalTimestamps, 1, 1) \
    X(pfnReserveCacheExt, 1, 2) \
    X(pfnSetCacheAdviceExt, 1, 2) \
    X(pfnPciGetPropertiesExt, 1, 3) \
    X(pfnGetRootDevice, 1, 7) \
    X(pfnImportExternalSemaphoreExt, 1, 12) \
    X(pfnReleaseExternalSemaphoreExt, 1, 12) \
    X(pfnGetVectorWidthPropertiesExt, 1, 13) \
    X(pfnSynchronize, 1, 14) \
    X(pfnGetAggregatedCopyOffloadIncrementValue, 1, 15) \
    X(pfnGetRuntimeRequirements, 1, 16) \
    X(pfnGetRuntimeRequirementsKey, 1, 16) \
    X(pfnValidateRuntimeRequirements, 1, 16) \
    X(pfnGetCounterBasedEventMaxValue, 1, 17) \
    X(pfnGetCompilerInfo, 1, 18)

#define ZE_DEVICE_EXP_DDI_FIELDS(X) \
    X(pfnGetFabricVertexExp, 1, 4)

#define ZE_CONTEXT_DDI_FIELDS(X) \
    X(pfnCreate, 1, 0) \
    X(pfnDestroy, 1, 0) \
    X(pfnGetStatus, 1, 0) \
    X(pfnSystemBarrier, 1, 0) \
    X(pfnMakeMemoryResident, 1, 0) \
    X(pfnEvictMemory, 1, 0) \
    X(pfnMakeImageResident, 1, 0) \
    X(pfnEvictImage, 1, 0) \
    X(pfnCreateEx, 1, 1)

#define ZE_COMMAND_QUEUE_DDI_FIELDS(X) \
    X(pfnCreate, 1, 0) \
    X(pfnDestroy, 1, 0) \
    X(pfnExecuteCommandLists, 1, 0) \
    X(pfnSynchronize, 1, 0) \
    X(pfnGetOrdinal, 1, 9) \
    X(pfnGetIndex, 1, 9) \
    X(pfnGetFlags, 1, 17) \
    X(pfnGetMode, 1, 17) \
    X(pfnGetPriority, 1, 17)

#define ZE_COMMAND_LIST_DDI_FIELDS(X) \
    X(pfnCreate, 1, 0) \
    X(pfnCreateImmediate, 1, 0) \
    X(pfnDestroy, 1, 0) \
    X(pfnClose, 1, 0) \
    X(pfnReset, 1, 0) \
    X(pfnAppendWriteGlobalTimestamp, 1, 0) \
    X(pfnAppendBarrier, 1, 0) \
    X(pfnAppendMemoryRangesBarrier, 1, 0) \
    X(pfnAppendMemoryCopy, 1, 0) \
    X(pfnAppendMemoryFill, 1, 0) \
    X(pfnAppendMemoryCopyRegion, 1, 0) \
    X(pfnAppendMemoryCopyFromContext, 1, 0) \
    X(pfnAppendImageCopy, 1, 0) \
    X(pfnAppendImageCopyRegion, 1, 0) \
    X(pfnAppendImageCopyToMemory, 1, 0) \
    X(pfnAppendImageCopyFromMemory, 1, 0) \
    X(pfnAppendMemoryPrefetch, 1, 0) \
    X(pfnAppendMemAdvise, 1, 0) \
    X(pfnAppendSignalEvent, 1, 0) \
    X(pfnAppendWaitOnEvents, 1, 0) \
    X(pfnAppendEventReset, 1, 0) \
    X(pfnAppendQueryKernelTimestamps, 1, 0) \
    X(pfnAppendLaunchKernel, 1, 0) \
    X(pfnAppendLaunchCooperativeKernel, 1, 0) \
    X(pfnAppendLaunchKernelIndirect, 1, 0) \
    X(pfnAppendLaunchMultipleKernelsIndirect, 1, 0) \
    X(pfnAppendImageCopyToMemoryExt, 1, 3) \
    X(pfnAppendImageCopyFromMemoryExt, 1, 3) \
    X(pfnHostSynchronize, 1, 6) \
    X(pfnGetDeviceHandle, 1, 9) \
    X(pfnGetContextHandle, 1, 9) \
    X(pfnGetOrdinal, 1, 9) \
    X(pfnImmediateGetIndex, 1, 9) \
    X(pfnIsImmediate, 1, 9) \
    X(pfnAppendSignalExternalSemaphoreExt, 1, 12) \
    X(pfnAppendWaitExternalSemaphoreExt, 1, 12) \
    X(pfnAppendLaunchKernelWithParameters, 1, 14) \
    X(pfnAppendLaunchKernelWithArguments, 1, 14) \
    X(pfnAppendMemoryCopyWithParameters, 1, 16) \
    X(pfnAppendMemoryFillWithParameters, 1, 16) \
    X(pfnImmediateAppendCommandListsWithParameters, 1, 16) \
    X(pfnGetFlags, 1, 17) \
    X(pfnImmediateGetFlags, 1, 17) \
    X(pfnImmediateGetMode, 1, 17) \
    X(pfnImmediateGetPriority, 1, 17) \
    X(pfnBeginGraphCaptureExt, 1, 17) \
    X(pfnBeginCaptureIntoGraphExt, 1, 17) \
    X(pfnIsGraphCaptureEnabledExt, 1, 17) \
    X(pfnEndGraphCaptureExt, 1, 17) \
    X(pfnGetGraphExt, 1, 17) \
    X(pfnAppendGraphExt, 1, 17) \
    X(pfnAppendHostFunction, 1, 17) \
    X(pfnAppendSignalEventWithParameters, 1, 18) \
    X(pfnAppendWaitOnEventsWithParameters, 1, 18)

#define ZE_COMMAND_LIST_EXP_DDI_FIELDS(X) \
    X(pfnCreateCloneExp, 1, 9) \
    X(pfnImmediateAppendCommandListsExp, 1, 9) \
    X(pfnGetNextCommandIdExp, 1, 9) \
    X(pfnUpdateMutableCommandsExp, 1, 9) \
    X(pfnUpdateMutableCommandSignalEventExp, 1, 9) \
    X(pfnUpdateMutableCommandWaitEventsExp, 1, 9) \
    X(pfnGetNextCommandIdWithKernelsExp, 1, 10) \
    X(pfnUpdateMutableCommandKernelsExp, 1, 10) \
    X(pfnIsMutableExp, 1, 17)

#define ZE_GRAPH_DDI_FIELDS(X) \
    X(pfnCreateExt, 1, 17) \
    X(pfnGetPrimaryCommandListExt, 1, 17) \
    X(pfnSetDestructionCallbackExt, 1, 17) \
    X(pfnInstantiateExt, 1, 17) \
    X(pfnIsEmptyExt, 1, 17) \
    X(pfnDumpContentsExt, 1, 17) \
    X(pfnDestroyExt, 1, 17)

#define ZE_EXECUTABLE_GRAPH_DDI_FIELDS(X) \
    X(pfnGetSourceGraphExt, 1, 17) \
    X(pfnDestroyExt, 1, 17)

#define ZE_IMAGE_DDI_FIELDS(X) \
    X(pfnGetProperties, 1, 0) \
    X(pfnCreate, 1, 0) \
    X(pfnDestroy, 1, 0) \
    X(pfnGetAllocPropertiesExt, 1, 3) \
    X(pfnViewCreateExt, 1, 5)

#define ZE_IMAGE_EXP_DDI_FIELDS(X) \
    X(pfnGetMemoryPropertiesExp, 1, 2) \
    X(pfnViewCreateExp, 1, 2) \
    X(pfnGetDeviceOffsetExp, 1, 9)

#define ZE_FENCE_DDI_FIELDS(X) \
    X(pfnCreate, 1, 0) \
    X(pfnDestroy, 1, 0) \
    X(pfnHostSynchronize, 1, 0) \
    X(pfnQueryStatus, 1, 0) \
    X(pfnReset, 1, 0)

#define ZE_EVENT_POOL_DDI_FIELDS(X) \
    X(pfnCreate, 1, 0) \
    X(pfnDestroy, 1, 0) \
    X(pfnGetIpcHandle, 1, 0) \
    X(pfnOpenIpcHandle, 1, 0) \
    X(pfnCloseIpcHandle, 1, 0) \
    X(pfnPutIpcHandle, 1, 6) \
    X(pfnGetContextHandle, 1, 9) \
    X(pfnGetFlags, 1, 9)

#define ZE_EVENT_DDI_FIELDS(X) \
    X(pfnCreate, 1, 0) \
    X(pfnDestroy, 1, 0) \
    X(pfnHostSignal, 1, 0) \
    X(pfnHostSynchronize, 1, 0) \
    X(pfnQueryStatus, 1, 0) \
    X(pfnHostReset, 1, 0) \
    X(pfnQueryKernelTimestamp, 1, 0) \
    X(pfnQueryKernelTimestampsExt, 1, 6) \
    X(pfnGetEventPool, 1, 9) \
    X(pfnGetSignalScope, 1, 9) \
    X(pfnGetWaitScope, 1, 9) \
    X(pfnCounterBasedCreate, 1, 15) \
    X(pfnCounterBasedGetIpcHandle, 1, 15) \
    X(pfnCounterBasedOpenIpcHandle, 1, 15) \
    X(pfnCounterBasedCloseIpcHandle, 1, 15) \
    X(pfnCounterBasedGetDeviceAddress, 1, 15) \
    X(pfnGetCounterBasedFlags, 1, 17)

#define ZE_EVENT_EXP_DDI_FIELDS(X) \
    X(pfnQueryTimestampsExp, 1, 2)

#define ZE_MODULE_DDI_FIELDS(X) \
    X(pfnCreate, 1, 0) \
    X(pfnDestroy, 1, 0) \
    X(pfnDynamicLink, 1, 0) \
    X(pfnGetNativeBinary, 1, 0) \
    X(pfnGetGlobalPointer, 1, 0) \
    X(pfnGetKernelNames, 1, 0) \
    X(pfnGetProperties, 1, 0) \
    X(pfnGetFunctionPointer, 1, 0) \
    X(pfnInspectLinkageExt, 1, 3) \
    X(pfnGetDeviceHandle, 1, 18)

#define ZE_MODULE_BUILD_LOG_DDI_FIELDS(X) \
    X(pfnDestroy, 1, 0) \
    X(pfnGetString, 1, 0)

#define ZE_KERNEL_DDI_FIELDS(X) \
    X(pfnCreate, 1, 0) \
    X(pfnDestroy, 1, 0) \
    X(pfnSetCacheConfig, 1, 0) \
    X(pfnSetGroupSize, 1, 0) \
    X(pfnSuggestGroupSize, 1, 0) \
    X(pfnSuggestMaxCooperativeGroupCount, 1, 0) \
    X(pfnSetArgumentValue, 1, 0) \
    X(pfnSetIndirectAccess, 1, 0) \
    X(pfnGetIndirectAccess, 1, 0) \
    X(pfnGetSourceAttributes, 1, 0) \
    X(pfnGetProperties, 1, 0) \
    X(pfnGetName, 1, 0) \
    X(pfnGetModuleHandle, 1, 18)

#define ZE_KERNEL_EXP_DDI_FIELDS(X) \
    X(pfnSetGlobalOffsetExp, 1, 1) \
    X(pfnSchedulingHintExp, 1, 2) \
    X(pfnGetBinaryExp, 1, 11) \
    X(pfnGetAllocationPropertiesExp, 1, 14)

#define ZE_SAMPLER_DDI_FIELDS(X) \
    X(pfnCreate, 1, 0) \
    X(pfnDestroy, 1, 0)

#define ZE_PHYSICAL_MEM_DDI_FIELDS(X) \
    X(pfnCreate, 1, 0) \
    X(pfnDestroy, 1, 0) \
    X(pfnGetProperties, 1, 15)

#define ZE_MEM_DDI_FIELDS(X) \
    X(pfnAllocShared, 1, 0) \
    X(pfnAllocDevice, 1, 0) \
    X(pfnAllocHost, 1, 0) \
    X(pfnFree, 1, 0) \
    X(pfnGetAllocProperties, 1, 0) \
    X(pfnGetAddressRange, 1, 0) \
    X(pfnGetIpcHandle, 1, 0) \
    X(pfnOpenIpcHandle, 1, 0) \
    X(pfnCloseIpcHandle, 1, 0) \
    X(pfnFreeExt, 1, 3) \
    X(pfnPutIpcHandle, 1, 6) \
    X(pfnGetPitchFor2dImage, 1, 9) \
    X(pfnGetIpcHandleWithProperties, 1, 15)

#define ZE_MEM_EXP_DDI_FIELDS(X) \
    X(pfnGetIpcHandleFromFileDescriptorExp, 1, 6) \
    X(pfnGetFileDescriptorFromIpcHandleExp, 1, 6) \
    X(pfnSetAtomicAccessAttributeExp, 1, 7) \
    X(pfnGetAtomicAccessAttributeExp, 1, 7)

#define ZE_VIRTUAL_MEM_DDI_FIELDS(X) \
    X(pfnReserve, 1, 0) \
    X(pfnFree, 1, 0) \
    X(pfnQueryPageSize, 1, 0) \
    X(pfnMap, 1, 0) \
    X(pfnUnmap, 1, 0) \
    X(pfnSetAccessAttribute, 1, 0) \
    X(pfnGetAccessAttribute, 1, 0)

#define ZE_FABRIC_VERTEX_EXP_DDI_FIELDS(X) \
    X(pfnGetExp, 1, 4) \
    X(pfnGetSubVerticesExp, 1, 4) \
    X(pfnGetPropertiesExp, 1, 4) \
    X(pfnGetDeviceExp, 1, 4)

#define ZE_FABRIC_EDGE_EXP_DDI_FIELDS(X) \
    X(pfnGetExp, 1, 4) \
    X(pfnGetVerticesExp, 1, 4) \
    X(pfnGetPropertiesExp, 1, 4)

#define ZE_RTAS_BUILDER_EXP_DDI_FIELDS(X) \
    X(pfnCreateExp, 1, 7) \
    X(pfnGetBuildPropertiesExp, 1, 7) \
    X(pfnBuildExp, 1, 7) \
    X(pfnDestroyExp, 1, 7)

#define ZE_RTAS_PARALLEL_OPERATION_EXP_DDI_FIELDS(X) \
    X(pfnCreateExp, 1, 7) \
    X(pfnGetPropertiesExp, 1, 7) \
    X(pfnJoinExp, 1, 7) \
    X(pfnDestroyExp, 1, 7)

#define ZE_RTAS_BUILDER_DDI_FIELDS(X) \
    X(pfnCreateExt, 1, 13) \
    X(pfnGetBuildPropertiesExt, 1, 13) \
    X(pfnBuildExt, 1, 13) \
    X(pfnCommandListAppendCopyExt, 1, 13) \
    X(pfnDestroyExt, 1, 13)

#define ZE_RTAS_PARALLEL_OPERATION_DDI_FIELDS(X) \
    X(pfnCreateExt, 1, 13) \
    X(pfnGetPropertiesExt, 1, 13) \
    X(pfnJoinExt, 1, 13) \
    X(pfnDestroyExt, 1, 13)

#define ZE_DDI_TABLES(T) \
    T(rtas_builder_exp, RTASBuilderExp, ZE_RTAS_BUILDER_EXP_DDI_FIELDS) \
    T(rtas_parallel_operation_exp, RTASParallelOperationExp, ZE_RTAS_PARALLEL_OPERATION_EXP_DDI_FIELDS) \
    T(global, Global, ZE_GLOBAL_DDI_FIELDS) \
    T(driver, Driver, ZE_DRIVER_DDI_FIELDS) \
    T(driver_exp, DriverExp, ZE_DRIVER_EXP_DDI_FIELDS) \
    T(device, Device, ZE_DEVICE_DDI_FIELDS) \
    T(device_exp, DeviceExp, ZE_DEVICE_EXP_DDI_FIELDS) \
    T(context, Context, ZE_CONTEXT_DDI_FIELDS) \
    T(command_queue, CommandQueue, ZE_COMMAND_QUEUE_DDI_FIELDS) \
    T(command_list, CommandList, ZE_COMMAND_LIST_DDI_FIELDS) \
    T(command_list_exp, CommandListExp, ZE_COMMAND_LIST_EXP_DDI_FIELDS) \
    T(image, Image, ZE_IMAGE_DDI_FIELDS) \
    T(image_exp, ImageExp, ZE_IMAGE_EXP_DDI_FIELDS) \
    T(mem, Mem, ZE_MEM_DDI_FIELDS) \
    T(mem_exp, MemExp, ZE_MEM_EXP_DDI_FIELDS) \
    T(fence, Fence, ZE_FENCE_DDI_FIELDS) \
    T(event_pool, EventPool, ZE_EVENT_POOL_DDI_FIELDS) \
    T(event, Event, ZE_EVENT_DDI_FIELDS) \
    T(event_exp, EventExp, ZE_EVENT_EXP_DDI_FIELDS) \
    T(module, Module, ZE_MODULE_DDI_FIELDS) \
    T(module_build_log, ModuleBuildLog, ZE_MODULE_BUILD_LOG_DDI_FIELDS) \
    T(kernel, Kernel, ZE_KERNEL_DDI_FIELDS) \
    T(kernel_exp, KernelExp, ZE_KERNEL_EXP_DDI_FIELDS) \
    T(sampler, Sampler, ZE_SAMPLER_DDI_FIELDS) \
    T(physical_mem, PhysicalMem, ZE_PHYSICAL_MEM_DDI_FIELDS) \
    T(virtual_mem, VirtualMem, ZE_VIRTUAL_MEM_DDI_FIELDS) \
    T(fabric_vertex_exp, FabricVertexExp, ZE_FABRIC_VERTEX_EXP_DDI_FIELDS) \
    T(fabric_edge_exp, FabricEdgeExp, ZE_FABRIC_EDGE_EXP_DDI_FIELDS) \
    T(rtas_builder, RTASBuilder, ZE_RTAS_BUILDER_DDI_FIELDS) \
    T(rtas_parallel_operation, RTASParallelOperation, ZE_RTAS_PARALLEL_OPERATION_DDI_FIELDS) \
    T(graph, Graph, ZE_GRAPH_DDI_FIELDS) \
    T(executable_graph, ExecutableGraph, ZE_EXECUTABLE_GRAPH_DDI_FIELDS)

/* number of fields of a table that exist at API version v */
#define ZEMEM_DDI_COUNT_ONE_(field, ma, mi) \
    +((uint32_t)ZE_MAKE_VERSION(ma, mi) <= v_ ? 1u : 0u)
#define ZEMEM_DDI_DEFINE_COUNT_(table, Getter, FIELDS) \
    static inline uint32_t zemem_ddi_count_##table(ze_api_version_t v) \
    { \
        uint32_t v_ = (uint32_t)v; \
        (void)v_; \
        return 0u FIELDS(ZEMEM_DDI_COUNT_ONE_); \
    }
ZE_DDI_TABLES(ZEMEM_DDI_DEFINE_COUNT_)

/* total number of fields of a table (the 1.18 size) */
#define ZEMEM_DDI_TOTAL_ONE_(field, ma, mi) +1u
#define ZEMEM_DDI_TOTAL(FIELDS) (0u FIELDS(ZEMEM_DDI_TOTAL_ONE_))

#endif /* ZEMEM_ZE_DDI_VERSIONS_H */
