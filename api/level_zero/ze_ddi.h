/* SPDX-License-Identifier: MIT */
/*
 * zemem: Level Zero core DDI (driver dispatch) tables, spec 1.18.
 *
 * Field order is ABI. Fields are sorted by the API version that added them
 * (shown in each comment); a getter called with version V fills only the
 * fields added at or before V. zemem/ze_ddi_versions.h lists the same fields
 * as X-macros for code that needs the counts.
 */
#ifndef ZEMEM_LEVEL_ZERO_ZE_DDI_H
#define ZEMEM_LEVEL_ZERO_ZE_DDI_H
#ifndef _ZE_DDI_H
#define _ZE_DDI_H
#endif

#include "ze_api.h"

#if defined(__cplusplus)
extern "C" {
#endif

/* Global */
typedef struct _ze_global_dditable_t {
    ze_pfnInit_t        pfnInit;        /* 1.0 */
    ze_pfnInitDrivers_t pfnInitDrivers; /* 1.10 */
} ze_global_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetGlobalProcAddrTable(ze_api_version_t version, ze_global_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetGlobalProcAddrTable_t)(ze_api_version_t version, ze_global_dditable_t *pDdiTable);

/* Driver */
typedef struct _ze_driver_dditable_t {
    ze_pfnDriverGet_t                             pfnGet;                             /* 1.0 */
    ze_pfnDriverGetApiVersion_t                   pfnGetApiVersion;                   /* 1.0 */
    ze_pfnDriverGetProperties_t                   pfnGetProperties;                   /* 1.0 */
    ze_pfnDriverGetIpcProperties_t                pfnGetIpcProperties;                /* 1.0 */
    ze_pfnDriverGetExtensionProperties_t          pfnGetExtensionProperties;          /* 1.0 */
    ze_pfnDriverGetExtensionFunctionAddress_t     pfnGetExtensionFunctionAddress;     /* 1.1 */
    ze_pfnDriverGetLastErrorDescription_t         pfnGetLastErrorDescription;         /* 1.6 */
    ze_pfnDriverRTASFormatCompatibilityCheckExt_t pfnRTASFormatCompatibilityCheckExt; /* 1.13 */
    ze_pfnDriverGetDefaultContext_t               pfnGetDefaultContext;               /* 1.14 */
} ze_driver_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetDriverProcAddrTable(ze_api_version_t version, ze_driver_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetDriverProcAddrTable_t)(ze_api_version_t version, ze_driver_dditable_t *pDdiTable);

/* DriverExp */
typedef struct _ze_driver_exp_dditable_t {
    ze_pfnDriverRTASFormatCompatibilityCheckExp_t pfnRTASFormatCompatibilityCheckExp; /* 1.7 */
} ze_driver_exp_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetDriverExpProcAddrTable(ze_api_version_t version, ze_driver_exp_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetDriverExpProcAddrTable_t)(ze_api_version_t version, ze_driver_exp_dditable_t *pDdiTable);

/* Device */
typedef struct _ze_device_dditable_t {
    ze_pfnDeviceGet_t                                    pfnGet;                                    /* 1.0 */
    ze_pfnDeviceGetSubDevices_t                          pfnGetSubDevices;                          /* 1.0 */
    ze_pfnDeviceGetProperties_t                          pfnGetProperties;                          /* 1.0 */
    ze_pfnDeviceGetComputeProperties_t                   pfnGetComputeProperties;                   /* 1.0 */
    ze_pfnDeviceGetModuleProperties_t                    pfnGetModuleProperties;                    /* 1.0 */
    ze_pfnDeviceGetCommandQueueGroupProperties_t         pfnGetCommandQueueGroupProperties;         /* 1.0 */
    ze_pfnDeviceGetMemoryProperties_t                    pfnGetMemoryProperties;                    /* 1.0 */
    ze_pfnDeviceGetMemoryAccessProperties_t              pfnGetMemoryAccessProperties;              /* 1.0 */
    ze_pfnDeviceGetCacheProperties_t                     pfnGetCacheProperties;                     /* 1.0 */
    ze_pfnDeviceGetImageProperties_t                     pfnGetImageProperties;                     /* 1.0 */
    ze_pfnDeviceGetExternalMemoryProperties_t            pfnGetExternalMemoryProperties;            /* 1.0 */
    ze_pfnDeviceGetP2PProperties_t                       pfnGetP2PProperties;                       /* 1.0 */
    ze_pfnDeviceCanAccessPeer_t                          pfnCanAccessPeer;                          /* 1.0 */
    ze_pfnDeviceGetStatus_t                              pfnGetStatus;                              /* 1.0 */
    ze_pfnDeviceGetGlobalTimestamps_t                    pfnGetGlobalTimestamps;                    /* 1.1 */
    ze_pfnDeviceReserveCacheExt_t                        pfnReserveCacheExt;                        /* 1.2 */
    ze_pfnDeviceSetCacheAdviceExt_t                      pfnSetCacheAdviceExt;                      /* 1.2 */
    ze_pfnDevicePciGetPropertiesExt_t                    pfnPciGetPropertiesExt;                    /* 1.3 */
    ze_pfnDeviceGetRootDevice_t                          pfnGetRootDevice;                          /* 1.7 */
    ze_pfnDeviceImportExternalSemaphoreExt_t             pfnImportExternalSemaphoreExt;             /* 1.12 */
    ze_pfnDeviceReleaseExternalSemaphoreExt_t            pfnReleaseExternalSemaphoreExt;            /* 1.12 */
    ze_pfnDeviceGetVectorWidthPropertiesExt_t            pfnGetVectorWidthPropertiesExt;            /* 1.13 */
    ze_pfnDeviceSynchronize_t                            pfnSynchronize;                            /* 1.14 */
    ze_pfnDeviceGetAggregatedCopyOffloadIncrementValue_t pfnGetAggregatedCopyOffloadIncrementValue; /* 1.15 */
    ze_pfnDeviceGetRuntimeRequirements_t                 pfnGetRuntimeRequirements;                 /* 1.16 */
    ze_pfnDeviceGetRuntimeRequirementsKey_t              pfnGetRuntimeRequirementsKey;              /* 1.16 */
    ze_pfnDeviceValidateRuntimeRequirements_t            pfnValidateRuntimeRequirements;            /* 1.16 */
    ze_pfnDeviceGetCounterBasedEventMaxValue_t           pfnGetCounterBasedEventMaxValue;           /* 1.17 */
    ze_pfnDeviceGetCompilerInfo_t                        pfnGetCompilerInfo;                        /* 1.18 */
} ze_device_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetDeviceProcAddrTable(ze_api_version_t version, ze_device_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetDeviceProcAddrTable_t)(ze_api_version_t version, ze_device_dditable_t *pDdiTable);

/* DeviceExp */
typedef struct _ze_device_exp_dditable_t {
    ze_pfnDeviceGetFabricVertexExp_t pfnGetFabricVertexExp; /* 1.4 */
} ze_device_exp_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetDeviceExpProcAddrTable(ze_api_version_t version, ze_device_exp_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetDeviceExpProcAddrTable_t)(ze_api_version_t version, ze_device_exp_dditable_t *pDdiTable);

/* Context */
typedef struct _ze_context_dditable_t {
    ze_pfnContextCreate_t             pfnCreate;             /* 1.0 */
    ze_pfnContextDestroy_t            pfnDestroy;            /* 1.0 */
    ze_pfnContextGetStatus_t          pfnGetStatus;          /* 1.0 */
    ze_pfnContextSystemBarrier_t      pfnSystemBarrier;      /* 1.0 */
    ze_pfnContextMakeMemoryResident_t pfnMakeMemoryResident; /* 1.0 */
    ze_pfnContextEvictMemory_t        pfnEvictMemory;        /* 1.0 */
    ze_pfnContextMakeImageResident_t  pfnMakeImageResident;  /* 1.0 */
    ze_pfnContextEvictImage_t         pfnEvictImage;         /* 1.0 */
    ze_pfnContextCreateEx_t           pfnCreateEx;           /* 1.1 */
} ze_context_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetContextProcAddrTable(ze_api_version_t version, ze_context_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetContextProcAddrTable_t)(ze_api_version_t version, ze_context_dditable_t *pDdiTable);

/* CommandQueue */
typedef struct _ze_command_queue_dditable_t {
    ze_pfnCommandQueueCreate_t              pfnCreate;              /* 1.0 */
    ze_pfnCommandQueueDestroy_t             pfnDestroy;             /* 1.0 */
    ze_pfnCommandQueueExecuteCommandLists_t pfnExecuteCommandLists; /* 1.0 */
    ze_pfnCommandQueueSynchronize_t         pfnSynchronize;         /* 1.0 */
    ze_pfnCommandQueueGetOrdinal_t          pfnGetOrdinal;          /* 1.9 */
    ze_pfnCommandQueueGetIndex_t            pfnGetIndex;            /* 1.9 */
    ze_pfnCommandQueueGetFlags_t            pfnGetFlags;            /* 1.17 */
    ze_pfnCommandQueueGetMode_t             pfnGetMode;             /* 1.17 */
    ze_pfnCommandQueueGetPriority_t         pfnGetPriority;         /* 1.17 */
} ze_command_queue_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetCommandQueueProcAddrTable(ze_api_version_t version, ze_command_queue_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetCommandQueueProcAddrTable_t)(ze_api_version_t version, ze_command_queue_dditable_t *pDdiTable);

/* CommandList */
typedef struct _ze_command_list_dditable_t {
    ze_pfnCommandListCreate_t                                    pfnCreate;                                    /* 1.0 */
    ze_pfnCommandListCreateImmediate_t                           pfnCreateImmediate;                           /* 1.0 */
    ze_pfnCommandListDestroy_t                                   pfnDestroy;                                   /* 1.0 */
    ze_pfnCommandListClose_t                                     pfnClose;                                     /* 1.0 */
    ze_pfnCommandListReset_t                                     pfnReset;                                     /* 1.0 */
    ze_pfnCommandListAppendWriteGlobalTimestamp_t                pfnAppendWriteGlobalTimestamp;                /* 1.0 */
    ze_pfnCommandListAppendBarrier_t                             pfnAppendBarrier;                             /* 1.0 */
    ze_pfnCommandListAppendMemoryRangesBarrier_t                 pfnAppendMemoryRangesBarrier;                 /* 1.0 */
    ze_pfnCommandListAppendMemoryCopy_t                          pfnAppendMemoryCopy;                          /* 1.0 */
    ze_pfnCommandListAppendMemoryFill_t                          pfnAppendMemoryFill;                          /* 1.0 */
    ze_pfnCommandListAppendMemoryCopyRegion_t                    pfnAppendMemoryCopyRegion;                    /* 1.0 */
    ze_pfnCommandListAppendMemoryCopyFromContext_t               pfnAppendMemoryCopyFromContext;               /* 1.0 */
    ze_pfnCommandListAppendImageCopy_t                           pfnAppendImageCopy;                           /* 1.0 */
    ze_pfnCommandListAppendImageCopyRegion_t                     pfnAppendImageCopyRegion;                     /* 1.0 */
    ze_pfnCommandListAppendImageCopyToMemory_t                   pfnAppendImageCopyToMemory;                   /* 1.0 */
    ze_pfnCommandListAppendImageCopyFromMemory_t                 pfnAppendImageCopyFromMemory;                 /* 1.0 */
    ze_pfnCommandListAppendMemoryPrefetch_t                      pfnAppendMemoryPrefetch;                      /* 1.0 */
    ze_pfnCommandListAppendMemAdvise_t                           pfnAppendMemAdvise;                           /* 1.0 */
    ze_pfnCommandListAppendSignalEvent_t                         pfnAppendSignalEvent;                         /* 1.0 */
    ze_pfnCommandListAppendWaitOnEvents_t                        pfnAppendWaitOnEvents;                        /* 1.0 */
    ze_pfnCommandListAppendEventReset_t                          pfnAppendEventReset;                          /* 1.0 */
    ze_pfnCommandListAppendQueryKernelTimestamps_t               pfnAppendQueryKernelTimestamps;               /* 1.0 */
    ze_pfnCommandListAppendLaunchKernel_t                        pfnAppendLaunchKernel;                        /* 1.0 */
    ze_pfnCommandListAppendLaunchCooperativeKernel_t             pfnAppendLaunchCooperativeKernel;             /* 1.0 */
    ze_pfnCommandListAppendLaunchKernelIndirect_t                pfnAppendLaunchKernelIndirect;                /* 1.0 */
    ze_pfnCommandListAppendLaunchMultipleKernelsIndirect_t       pfnAppendLaunchMultipleKernelsIndirect;       /* 1.0 */
    ze_pfnCommandListAppendImageCopyToMemoryExt_t                pfnAppendImageCopyToMemoryExt;                /* 1.3 */
    ze_pfnCommandListAppendImageCopyFromMemoryExt_t              pfnAppendImageCopyFromMemoryExt;              /* 1.3 */
    ze_pfnCommandListHostSynchronize_t                           pfnHostSynchronize;                           /* 1.6 */
    ze_pfnCommandListGetDeviceHandle_t                           pfnGetDeviceHandle;                           /* 1.9 */
    ze_pfnCommandListGetContextHandle_t                          pfnGetContextHandle;                          /* 1.9 */
    ze_pfnCommandListGetOrdinal_t                                pfnGetOrdinal;                                /* 1.9 */
    ze_pfnCommandListImmediateGetIndex_t                         pfnImmediateGetIndex;                         /* 1.9 */
    ze_pfnCommandListIsImmediate_t                               pfnIsImmediate;                               /* 1.9 */
    ze_pfnCommandListAppendSignalExternalSemaphoreExt_t          pfnAppendSignalExternalSemaphoreExt;          /* 1.12 */
    ze_pfnCommandListAppendWaitExternalSemaphoreExt_t            pfnAppendWaitExternalSemaphoreExt;            /* 1.12 */
    ze_pfnCommandListAppendLaunchKernelWithParameters_t          pfnAppendLaunchKernelWithParameters;          /* 1.14 */
    ze_pfnCommandListAppendLaunchKernelWithArguments_t           pfnAppendLaunchKernelWithArguments;           /* 1.14 */
    ze_pfnCommandListAppendMemoryCopyWithParameters_t            pfnAppendMemoryCopyWithParameters;            /* 1.16 */
    ze_pfnCommandListAppendMemoryFillWithParameters_t            pfnAppendMemoryFillWithParameters;            /* 1.16 */
    ze_pfnCommandListImmediateAppendCommandListsWithParameters_t pfnImmediateAppendCommandListsWithParameters; /* 1.16 */
    ze_pfnCommandListGetFlags_t                                  pfnGetFlags;                                  /* 1.17 */
    ze_pfnCommandListImmediateGetFlags_t                         pfnImmediateGetFlags;                         /* 1.17 */
    ze_pfnCommandListImmediateGetMode_t                          pfnImmediateGetMode;                          /* 1.17 */
    ze_pfnCommandListImmediateGetPriority_t                      pfnImmediateGetPriority;                      /* 1.17 */
    ze_pfnCommandListBeginGraphCaptureExt_t                      pfnBeginGraphCaptureExt;                      /* 1.17 */
    ze_pfnCommandListBeginCaptureIntoGraphExt_t                  pfnBeginCaptureIntoGraphExt;                  /* 1.17 */
    ze_pfnCommandListIsGraphCaptureEnabledExt_t                  pfnIsGraphCaptureEnabledExt;                  /* 1.17 */
    ze_pfnCommandListEndGraphCaptureExt_t                        pfnEndGraphCaptureExt;                        /* 1.17 */
    ze_pfnCommandListGetGraphExt_t                               pfnGetGraphExt;                               /* 1.17 */
    ze_pfnCommandListAppendGraphExt_t                            pfnAppendGraphExt;                            /* 1.17 */
    ze_pfnCommandListAppendHostFunction_t                        pfnAppendHostFunction;                        /* 1.17 */
    ze_pfnCommandListAppendSignalEventWithParameters_t           pfnAppendSignalEventWithParameters;           /* 1.18 */
    ze_pfnCommandListAppendWaitOnEventsWithParameters_t          pfnAppendWaitOnEventsWithParameters;          /* 1.18 */
} ze_command_list_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetCommandListProcAddrTable(ze_api_version_t version, ze_command_list_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetCommandListProcAddrTable_t)(ze_api_version_t version, ze_command_list_dditable_t *pDdiTable);

/* CommandListExp */
typedef struct _ze_command_list_exp_dditable_t {
    ze_pfnCommandListCreateCloneExp_t                     pfnCreateCloneExp;                     /* 1.9 */
    ze_pfnCommandListImmediateAppendCommandListsExp_t     pfnImmediateAppendCommandListsExp;     /* 1.9 */
    ze_pfnCommandListGetNextCommandIdExp_t                pfnGetNextCommandIdExp;                /* 1.9 */
    ze_pfnCommandListUpdateMutableCommandsExp_t           pfnUpdateMutableCommandsExp;           /* 1.9 */
    ze_pfnCommandListUpdateMutableCommandSignalEventExp_t pfnUpdateMutableCommandSignalEventExp; /* 1.9 */
    ze_pfnCommandListUpdateMutableCommandWaitEventsExp_t  pfnUpdateMutableCommandWaitEventsExp;  /* 1.9 */
    ze_pfnCommandListGetNextCommandIdWithKernelsExp_t     pfnGetNextCommandIdWithKernelsExp;     /* 1.10 */
    ze_pfnCommandListUpdateMutableCommandKernelsExp_t     pfnUpdateMutableCommandKernelsExp;     /* 1.10 */
    ze_pfnCommandListIsMutableExp_t                       pfnIsMutableExp;                       /* 1.17 */
} ze_command_list_exp_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetCommandListExpProcAddrTable(ze_api_version_t version, ze_command_list_exp_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetCommandListExpProcAddrTable_t)(ze_api_version_t version, ze_command_list_exp_dditable_t *pDdiTable);

/* Graph */
typedef struct _ze_graph_dditable_t {
    ze_pfnGraphCreateExt_t                 pfnCreateExt;                 /* 1.17 */
    ze_pfnGraphGetPrimaryCommandListExt_t  pfnGetPrimaryCommandListExt;  /* 1.17 */
    ze_pfnGraphSetDestructionCallbackExt_t pfnSetDestructionCallbackExt; /* 1.17 */
    ze_pfnGraphInstantiateExt_t            pfnInstantiateExt;            /* 1.17 */
    ze_pfnGraphIsEmptyExt_t                pfnIsEmptyExt;                /* 1.17 */
    ze_pfnGraphDumpContentsExt_t           pfnDumpContentsExt;           /* 1.17 */
    ze_pfnGraphDestroyExt_t                pfnDestroyExt;                /* 1.17 */
} ze_graph_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetGraphProcAddrTable(ze_api_version_t version, ze_graph_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetGraphProcAddrTable_t)(ze_api_version_t version, ze_graph_dditable_t *pDdiTable);

/* ExecutableGraph */
typedef struct _ze_executable_graph_dditable_t {
    ze_pfnExecutableGraphGetSourceGraphExt_t pfnGetSourceGraphExt; /* 1.17 */
    ze_pfnExecutableGraphDestroyExt_t        pfnDestroyExt;        /* 1.17 */
} ze_executable_graph_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetExecutableGraphProcAddrTable(ze_api_version_t version, ze_executable_graph_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetExecutableGraphProcAddrTable_t)(ze_api_version_t version, ze_executable_graph_dditable_t *pDdiTable);

/* Image */
typedef struct _ze_image_dditable_t {
    ze_pfnImageGetProperties_t         pfnGetProperties;         /* 1.0 */
    ze_pfnImageCreate_t                pfnCreate;                /* 1.0 */
    ze_pfnImageDestroy_t               pfnDestroy;               /* 1.0 */
    ze_pfnImageGetAllocPropertiesExt_t pfnGetAllocPropertiesExt; /* 1.3 */
    ze_pfnImageViewCreateExt_t         pfnViewCreateExt;         /* 1.5 */
} ze_image_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetImageProcAddrTable(ze_api_version_t version, ze_image_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetImageProcAddrTable_t)(ze_api_version_t version, ze_image_dditable_t *pDdiTable);

/* ImageExp */
typedef struct _ze_image_exp_dditable_t {
    ze_pfnImageGetMemoryPropertiesExp_t pfnGetMemoryPropertiesExp; /* 1.2 */
    ze_pfnImageViewCreateExp_t          pfnViewCreateExp;          /* 1.2 */
    ze_pfnImageGetDeviceOffsetExp_t     pfnGetDeviceOffsetExp;     /* 1.9 */
} ze_image_exp_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetImageExpProcAddrTable(ze_api_version_t version, ze_image_exp_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetImageExpProcAddrTable_t)(ze_api_version_t version, ze_image_exp_dditable_t *pDdiTable);

/* Fence */
typedef struct _ze_fence_dditable_t {
    ze_pfnFenceCreate_t          pfnCreate;          /* 1.0 */
    ze_pfnFenceDestroy_t         pfnDestroy;         /* 1.0 */
    ze_pfnFenceHostSynchronize_t pfnHostSynchronize; /* 1.0 */
    ze_pfnFenceQueryStatus_t     pfnQueryStatus;     /* 1.0 */
    ze_pfnFenceReset_t           pfnReset;           /* 1.0 */
} ze_fence_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetFenceProcAddrTable(ze_api_version_t version, ze_fence_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetFenceProcAddrTable_t)(ze_api_version_t version, ze_fence_dditable_t *pDdiTable);

/* EventPool */
typedef struct _ze_event_pool_dditable_t {
    ze_pfnEventPoolCreate_t           pfnCreate;           /* 1.0 */
    ze_pfnEventPoolDestroy_t          pfnDestroy;          /* 1.0 */
    ze_pfnEventPoolGetIpcHandle_t     pfnGetIpcHandle;     /* 1.0 */
    ze_pfnEventPoolOpenIpcHandle_t    pfnOpenIpcHandle;    /* 1.0 */
    ze_pfnEventPoolCloseIpcHandle_t   pfnCloseIpcHandle;   /* 1.0 */
    ze_pfnEventPoolPutIpcHandle_t     pfnPutIpcHandle;     /* 1.6 */
    ze_pfnEventPoolGetContextHandle_t pfnGetContextHandle; /* 1.9 */
    ze_pfnEventPoolGetFlags_t         pfnGetFlags;         /* 1.9 */
} ze_event_pool_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetEventPoolProcAddrTable(ze_api_version_t version, ze_event_pool_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetEventPoolProcAddrTable_t)(ze_api_version_t version, ze_event_pool_dditable_t *pDdiTable);

/* Event */
typedef struct _ze_event_dditable_t {
    ze_pfnEventCreate_t                       pfnCreate;                       /* 1.0 */
    ze_pfnEventDestroy_t                      pfnDestroy;                      /* 1.0 */
    ze_pfnEventHostSignal_t                   pfnHostSignal;                   /* 1.0 */
    ze_pfnEventHostSynchronize_t              pfnHostSynchronize;              /* 1.0 */
    ze_pfnEventQueryStatus_t                  pfnQueryStatus;                  /* 1.0 */
    ze_pfnEventHostReset_t                    pfnHostReset;                    /* 1.0 */
    ze_pfnEventQueryKernelTimestamp_t         pfnQueryKernelTimestamp;         /* 1.0 */
    ze_pfnEventQueryKernelTimestampsExt_t     pfnQueryKernelTimestampsExt;     /* 1.6 */
    ze_pfnEventGetEventPool_t                 pfnGetEventPool;                 /* 1.9 */
    ze_pfnEventGetSignalScope_t               pfnGetSignalScope;               /* 1.9 */
    ze_pfnEventGetWaitScope_t                 pfnGetWaitScope;                 /* 1.9 */
    ze_pfnEventCounterBasedCreate_t           pfnCounterBasedCreate;           /* 1.15 */
    ze_pfnEventCounterBasedGetIpcHandle_t     pfnCounterBasedGetIpcHandle;     /* 1.15 */
    ze_pfnEventCounterBasedOpenIpcHandle_t    pfnCounterBasedOpenIpcHandle;    /* 1.15 */
    ze_pfnEventCounterBasedCloseIpcHandle_t   pfnCounterBasedCloseIpcHandle;   /* 1.15 */
    ze_pfnEventCounterBasedGetDeviceAddress_t pfnCounterBasedGetDeviceAddress; /* 1.15 */
    ze_pfnEventGetCounterBasedFlags_t         pfnGetCounterBasedFlags;         /* 1.17 */
} ze_event_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetEventProcAddrTable(ze_api_version_t version, ze_event_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetEventProcAddrTable_t)(ze_api_version_t version, ze_event_dditable_t *pDdiTable);

/* EventExp */
typedef struct _ze_event_exp_dditable_t {
    ze_pfnEventQueryTimestampsExp_t pfnQueryTimestampsExp; /* 1.2 */
} ze_event_exp_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetEventExpProcAddrTable(ze_api_version_t version, ze_event_exp_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetEventExpProcAddrTable_t)(ze_api_version_t version, ze_event_exp_dditable_t *pDdiTable);

/* Module */
typedef struct _ze_module_dditable_t {
    ze_pfnModuleCreate_t             pfnCreate;             /* 1.0 */
    ze_pfnModuleDestroy_t            pfnDestroy;            /* 1.0 */
    ze_pfnModuleDynamicLink_t        pfnDynamicLink;        /* 1.0 */
    ze_pfnModuleGetNativeBinary_t    pfnGetNativeBinary;    /* 1.0 */
    ze_pfnModuleGetGlobalPointer_t   pfnGetGlobalPointer;   /* 1.0 */
    ze_pfnModuleGetKernelNames_t     pfnGetKernelNames;     /* 1.0 */
    ze_pfnModuleGetProperties_t      pfnGetProperties;      /* 1.0 */
    ze_pfnModuleGetFunctionPointer_t pfnGetFunctionPointer; /* 1.0 */
    ze_pfnModuleInspectLinkageExt_t  pfnInspectLinkageExt;  /* 1.3 */
    ze_pfnModuleGetDeviceHandle_t    pfnGetDeviceHandle;    /* 1.18 */
} ze_module_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetModuleProcAddrTable(ze_api_version_t version, ze_module_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetModuleProcAddrTable_t)(ze_api_version_t version, ze_module_dditable_t *pDdiTable);

/* ModuleBuildLog */
typedef struct _ze_module_build_log_dditable_t {
    ze_pfnModuleBuildLogDestroy_t   pfnDestroy;   /* 1.0 */
    ze_pfnModuleBuildLogGetString_t pfnGetString; /* 1.0 */
} ze_module_build_log_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetModuleBuildLogProcAddrTable(ze_api_version_t version, ze_module_build_log_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetModuleBuildLogProcAddrTable_t)(ze_api_version_t version, ze_module_build_log_dditable_t *pDdiTable);

/* Kernel */
typedef struct _ze_kernel_dditable_t {
    ze_pfnKernelCreate_t                          pfnCreate;                          /* 1.0 */
    ze_pfnKernelDestroy_t                         pfnDestroy;                         /* 1.0 */
    ze_pfnKernelSetCacheConfig_t                  pfnSetCacheConfig;                  /* 1.0 */
    ze_pfnKernelSetGroupSize_t                    pfnSetGroupSize;                    /* 1.0 */
    ze_pfnKernelSuggestGroupSize_t                pfnSuggestGroupSize;                /* 1.0 */
    ze_pfnKernelSuggestMaxCooperativeGroupCount_t pfnSuggestMaxCooperativeGroupCount; /* 1.0 */
    ze_pfnKernelSetArgumentValue_t                pfnSetArgumentValue;                /* 1.0 */
    ze_pfnKernelSetIndirectAccess_t               pfnSetIndirectAccess;               /* 1.0 */
    ze_pfnKernelGetIndirectAccess_t               pfnGetIndirectAccess;               /* 1.0 */
    ze_pfnKernelGetSourceAttributes_t             pfnGetSourceAttributes;             /* 1.0 */
    ze_pfnKernelGetProperties_t                   pfnGetProperties;                   /* 1.0 */
    ze_pfnKernelGetName_t                         pfnGetName;                         /* 1.0 */
    ze_pfnKernelGetModuleHandle_t                 pfnGetModuleHandle;                 /* 1.18 */
} ze_kernel_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetKernelProcAddrTable(ze_api_version_t version, ze_kernel_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetKernelProcAddrTable_t)(ze_api_version_t version, ze_kernel_dditable_t *pDdiTable);

/* KernelExp */
typedef struct _ze_kernel_exp_dditable_t {
    ze_pfnKernelSetGlobalOffsetExp_t         pfnSetGlobalOffsetExp;         /* 1.1 */
    ze_pfnKernelSchedulingHintExp_t          pfnSchedulingHintExp;          /* 1.2 */
    ze_pfnKernelGetBinaryExp_t               pfnGetBinaryExp;               /* 1.11 */
    ze_pfnKernelGetAllocationPropertiesExp_t pfnGetAllocationPropertiesExp; /* 1.14 */
} ze_kernel_exp_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetKernelExpProcAddrTable(ze_api_version_t version, ze_kernel_exp_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetKernelExpProcAddrTable_t)(ze_api_version_t version, ze_kernel_exp_dditable_t *pDdiTable);

/* Sampler */
typedef struct _ze_sampler_dditable_t {
    ze_pfnSamplerCreate_t  pfnCreate;  /* 1.0 */
    ze_pfnSamplerDestroy_t pfnDestroy; /* 1.0 */
} ze_sampler_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetSamplerProcAddrTable(ze_api_version_t version, ze_sampler_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetSamplerProcAddrTable_t)(ze_api_version_t version, ze_sampler_dditable_t *pDdiTable);

/* PhysicalMem */
typedef struct _ze_physical_mem_dditable_t {
    ze_pfnPhysicalMemCreate_t        pfnCreate;        /* 1.0 */
    ze_pfnPhysicalMemDestroy_t       pfnDestroy;       /* 1.0 */
    ze_pfnPhysicalMemGetProperties_t pfnGetProperties; /* 1.15 */
} ze_physical_mem_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetPhysicalMemProcAddrTable(ze_api_version_t version, ze_physical_mem_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetPhysicalMemProcAddrTable_t)(ze_api_version_t version, ze_physical_mem_dditable_t *pDdiTable);

/* Mem */
typedef struct _ze_mem_dditable_t {
    ze_pfnMemAllocShared_t                pfnAllocShared;                /* 1.0 */
    ze_pfnMemAllocDevice_t                pfnAllocDevice;                /* 1.0 */
    ze_pfnMemAllocHost_t                  pfnAllocHost;                  /* 1.0 */
    ze_pfnMemFree_t                       pfnFree;                       /* 1.0 */
    ze_pfnMemGetAllocProperties_t         pfnGetAllocProperties;         /* 1.0 */
    ze_pfnMemGetAddressRange_t            pfnGetAddressRange;            /* 1.0 */
    ze_pfnMemGetIpcHandle_t               pfnGetIpcHandle;               /* 1.0 */
    ze_pfnMemOpenIpcHandle_t              pfnOpenIpcHandle;              /* 1.0 */
    ze_pfnMemCloseIpcHandle_t             pfnCloseIpcHandle;             /* 1.0 */
    ze_pfnMemFreeExt_t                    pfnFreeExt;                    /* 1.3 */
    ze_pfnMemPutIpcHandle_t               pfnPutIpcHandle;               /* 1.6 */
    ze_pfnMemGetPitchFor2dImage_t         pfnGetPitchFor2dImage;         /* 1.9 */
    ze_pfnMemGetIpcHandleWithProperties_t pfnGetIpcHandleWithProperties; /* 1.15 */
} ze_mem_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetMemProcAddrTable(ze_api_version_t version, ze_mem_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetMemProcAddrTable_t)(ze_api_version_t version, ze_mem_dditable_t *pDdiTable);

/* MemExp */
typedef struct _ze_mem_exp_dditable_t {
    ze_pfnMemGetIpcHandleFromFileDescriptorExp_t pfnGetIpcHandleFromFileDescriptorExp; /* 1.6 */
    ze_pfnMemGetFileDescriptorFromIpcHandleExp_t pfnGetFileDescriptorFromIpcHandleExp; /* 1.6 */
    ze_pfnMemSetAtomicAccessAttributeExp_t       pfnSetAtomicAccessAttributeExp;       /* 1.7 */
    ze_pfnMemGetAtomicAccessAttributeExp_t       pfnGetAtomicAccessAttributeExp;       /* 1.7 */
} ze_mem_exp_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetMemExpProcAddrTable(ze_api_version_t version, ze_mem_exp_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetMemExpProcAddrTable_t)(ze_api_version_t version, ze_mem_exp_dditable_t *pDdiTable);

/* VirtualMem */
typedef struct _ze_virtual_mem_dditable_t {
    ze_pfnVirtualMemReserve_t            pfnReserve;            /* 1.0 */
    ze_pfnVirtualMemFree_t               pfnFree;               /* 1.0 */
    ze_pfnVirtualMemQueryPageSize_t      pfnQueryPageSize;      /* 1.0 */
    ze_pfnVirtualMemMap_t                pfnMap;                /* 1.0 */
    ze_pfnVirtualMemUnmap_t              pfnUnmap;              /* 1.0 */
    ze_pfnVirtualMemSetAccessAttribute_t pfnSetAccessAttribute; /* 1.0 */
    ze_pfnVirtualMemGetAccessAttribute_t pfnGetAccessAttribute; /* 1.0 */
} ze_virtual_mem_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetVirtualMemProcAddrTable(ze_api_version_t version, ze_virtual_mem_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetVirtualMemProcAddrTable_t)(ze_api_version_t version, ze_virtual_mem_dditable_t *pDdiTable);

/* FabricVertexExp */
typedef struct _ze_fabric_vertex_exp_dditable_t {
    ze_pfnFabricVertexGetExp_t            pfnGetExp;            /* 1.4 */
    ze_pfnFabricVertexGetSubVerticesExp_t pfnGetSubVerticesExp; /* 1.4 */
    ze_pfnFabricVertexGetPropertiesExp_t  pfnGetPropertiesExp;  /* 1.4 */
    ze_pfnFabricVertexGetDeviceExp_t      pfnGetDeviceExp;      /* 1.4 */
} ze_fabric_vertex_exp_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetFabricVertexExpProcAddrTable(ze_api_version_t version, ze_fabric_vertex_exp_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetFabricVertexExpProcAddrTable_t)(ze_api_version_t version, ze_fabric_vertex_exp_dditable_t *pDdiTable);

/* FabricEdgeExp */
typedef struct _ze_fabric_edge_exp_dditable_t {
    ze_pfnFabricEdgeGetExp_t           pfnGetExp;           /* 1.4 */
    ze_pfnFabricEdgeGetVerticesExp_t   pfnGetVerticesExp;   /* 1.4 */
    ze_pfnFabricEdgeGetPropertiesExp_t pfnGetPropertiesExp; /* 1.4 */
} ze_fabric_edge_exp_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetFabricEdgeExpProcAddrTable(ze_api_version_t version, ze_fabric_edge_exp_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetFabricEdgeExpProcAddrTable_t)(ze_api_version_t version, ze_fabric_edge_exp_dditable_t *pDdiTable);

/* RTASBuilderExp */
typedef struct _ze_rtas_builder_exp_dditable_t {
    ze_pfnRTASBuilderCreateExp_t             pfnCreateExp;             /* 1.7 */
    ze_pfnRTASBuilderGetBuildPropertiesExp_t pfnGetBuildPropertiesExp; /* 1.7 */
    ze_pfnRTASBuilderBuildExp_t              pfnBuildExp;              /* 1.7 */
    ze_pfnRTASBuilderDestroyExp_t            pfnDestroyExp;            /* 1.7 */
} ze_rtas_builder_exp_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetRTASBuilderExpProcAddrTable(ze_api_version_t version, ze_rtas_builder_exp_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetRTASBuilderExpProcAddrTable_t)(ze_api_version_t version, ze_rtas_builder_exp_dditable_t *pDdiTable);

/* RTASParallelOperationExp */
typedef struct _ze_rtas_parallel_operation_exp_dditable_t {
    ze_pfnRTASParallelOperationCreateExp_t        pfnCreateExp;        /* 1.7 */
    ze_pfnRTASParallelOperationGetPropertiesExp_t pfnGetPropertiesExp; /* 1.7 */
    ze_pfnRTASParallelOperationJoinExp_t          pfnJoinExp;          /* 1.7 */
    ze_pfnRTASParallelOperationDestroyExp_t       pfnDestroyExp;       /* 1.7 */
} ze_rtas_parallel_operation_exp_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetRTASParallelOperationExpProcAddrTable(ze_api_version_t version, ze_rtas_parallel_operation_exp_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetRTASParallelOperationExpProcAddrTable_t)(ze_api_version_t version, ze_rtas_parallel_operation_exp_dditable_t *pDdiTable);

/* RTASBuilder */
typedef struct _ze_rtas_builder_dditable_t {
    ze_pfnRTASBuilderCreateExt_t                pfnCreateExt;                /* 1.13 */
    ze_pfnRTASBuilderGetBuildPropertiesExt_t    pfnGetBuildPropertiesExt;    /* 1.13 */
    ze_pfnRTASBuilderBuildExt_t                 pfnBuildExt;                 /* 1.13 */
    ze_pfnRTASBuilderCommandListAppendCopyExt_t pfnCommandListAppendCopyExt; /* 1.13 */
    ze_pfnRTASBuilderDestroyExt_t               pfnDestroyExt;               /* 1.13 */
} ze_rtas_builder_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetRTASBuilderProcAddrTable(ze_api_version_t version, ze_rtas_builder_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetRTASBuilderProcAddrTable_t)(ze_api_version_t version, ze_rtas_builder_dditable_t *pDdiTable);

/* RTASParallelOperation */
typedef struct _ze_rtas_parallel_operation_dditable_t {
    ze_pfnRTASParallelOperationCreateExt_t        pfnCreateExt;        /* 1.13 */
    ze_pfnRTASParallelOperationGetPropertiesExt_t pfnGetPropertiesExt; /* 1.13 */
    ze_pfnRTASParallelOperationJoinExt_t          pfnJoinExt;          /* 1.13 */
    ze_pfnRTASParallelOperationDestroyExt_t       pfnDestroyExt;       /* 1.13 */
} ze_rtas_parallel_operation_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetRTASParallelOperationProcAddrTable(ze_api_version_t version, ze_rtas_parallel_operation_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *ze_pfnGetRTASParallelOperationProcAddrTable_t)(ze_api_version_t version, ze_rtas_parallel_operation_dditable_t *pDdiTable);

/* All tables of one implementation. Only the first 28 members, in this
 * order, match the 1.12 layout; the four newer tables follow in an order
 * chosen by this project (the aggregate is not exchanged across libraries). */
typedef struct _ze_dditable_t {
    ze_rtas_builder_exp_dditable_t             RTASBuilderExp;
    ze_rtas_parallel_operation_exp_dditable_t  RTASParallelOperationExp;
    ze_global_dditable_t                       Global;
    ze_driver_dditable_t                       Driver;
    ze_driver_exp_dditable_t                   DriverExp;
    ze_device_dditable_t                       Device;
    ze_device_exp_dditable_t                   DeviceExp;
    ze_context_dditable_t                      Context;
    ze_command_queue_dditable_t                CommandQueue;
    ze_command_list_dditable_t                 CommandList;
    ze_command_list_exp_dditable_t             CommandListExp;
    ze_image_dditable_t                        Image;
    ze_image_exp_dditable_t                    ImageExp;
    ze_mem_dditable_t                          Mem;
    ze_mem_exp_dditable_t                      MemExp;
    ze_fence_dditable_t                        Fence;
    ze_event_pool_dditable_t                   EventPool;
    ze_event_dditable_t                        Event;
    ze_event_exp_dditable_t                    EventExp;
    ze_module_dditable_t                       Module;
    ze_module_build_log_dditable_t             ModuleBuildLog;
    ze_kernel_dditable_t                       Kernel;
    ze_kernel_exp_dditable_t                   KernelExp;
    ze_sampler_dditable_t                      Sampler;
    ze_physical_mem_dditable_t                 PhysicalMem;
    ze_virtual_mem_dditable_t                  VirtualMem;
    ze_fabric_vertex_exp_dditable_t            FabricVertexExp;
    ze_fabric_edge_exp_dditable_t              FabricEdgeExp;
    ze_rtas_builder_dditable_t                 RTASBuilder;
    ze_rtas_parallel_operation_dditable_t      RTASParallelOperation;
    ze_graph_dditable_t                        Graph;
    ze_executable_graph_dditable_t             ExecutableGraph;
} ze_dditable_t;

/* Per-driver table set used with the DDI-handles extension (pointers).
 * zemem: the layout up to FabricEdgeExp matches 1.12; the members after it
 * are unverified, so do not advertise that extension until checked. */
typedef struct _ze_dditable_driver_t {
    ze_api_version_t version;
    uint8_t isValidFlag;
    ze_rtas_builder_exp_dditable_t             *RTASBuilderExp;
    ze_rtas_parallel_operation_exp_dditable_t  *RTASParallelOperationExp;
    ze_global_dditable_t                       *Global;
    ze_driver_dditable_t                       *Driver;
    ze_driver_exp_dditable_t                   *DriverExp;
    ze_device_dditable_t                       *Device;
    ze_device_exp_dditable_t                   *DeviceExp;
    ze_context_dditable_t                      *Context;
    ze_command_queue_dditable_t                *CommandQueue;
    ze_command_list_dditable_t                 *CommandList;
    ze_command_list_exp_dditable_t             *CommandListExp;
    ze_image_dditable_t                        *Image;
    ze_image_exp_dditable_t                    *ImageExp;
    ze_mem_dditable_t                          *Mem;
    ze_mem_exp_dditable_t                      *MemExp;
    ze_fence_dditable_t                        *Fence;
    ze_event_pool_dditable_t                   *EventPool;
    ze_event_dditable_t                        *Event;
    ze_event_exp_dditable_t                    *EventExp;
    ze_module_dditable_t                       *Module;
    ze_module_build_log_dditable_t             *ModuleBuildLog;
    ze_kernel_dditable_t                       *Kernel;
    ze_kernel_exp_dditable_t                   *KernelExp;
    ze_sampler_dditable_t                      *Sampler;
    ze_physical_mem_dditable_t                 *PhysicalMem;
    ze_virtual_mem_dditable_t                  *VirtualMem;
    ze_fabric_vertex_exp_dditable_t            *FabricVertexExp;
    ze_fabric_edge_exp_dditable_t              *FabricEdgeExp;
    ze_rtas_builder_dditable_t                 *RTASBuilder;
    ze_rtas_parallel_operation_dditable_t      *RTASParallelOperation;
    ze_graph_dditable_t                        *Graph;
    ze_executable_graph_dditable_t             *ExecutableGraph;
} ze_dditable_driver_t;

#if defined(__cplusplus)
} /* extern "C" */
#endif

#endif /* ZEMEM_LEVEL_ZERO_ZE_DDI_H */
