/* SPDX-License-Identifier: MIT */
/*
 * zemem: Level Zero Tools API (zet*): program instrumentation and debug,
 * metrics, API tracing (experimental) and their extensions, written for
 * this project.
 *
 * Types, values, layouts and entry points follow the oneAPI Level Zero
 * specification as of Intel's loader 1.32 (spec 1.17/1.18). libze_loader.so.1
 * of zemem exports every entry point declared here; each routes to the
 * driver's zetGet*ProcAddrTable tables when the driver provides them and
 * answers ZE_RESULT_ERROR_UNSUPPORTED_FEATURE otherwise (zemem's driver
 * implements no Tools API). The DDI tables: zet_ddi.h.
 */
#ifndef ZEMEM_LEVEL_ZERO_ZET_API_H
#define ZEMEM_LEVEL_ZERO_ZET_API_H
/* Also claim the upstream guard so mixing include paths cannot redefine. */
#ifndef _ZET_API_H
#define _ZET_API_H
#endif

#include "ze_api.h"

#if defined(__cplusplus)
extern "C" {
#endif

/* Handles: the core ones under Tools names, and the Tools objects. */
typedef ze_driver_handle_t zet_driver_handle_t;

typedef ze_device_handle_t zet_device_handle_t;

typedef ze_context_handle_t zet_context_handle_t;

typedef ze_command_list_handle_t zet_command_list_handle_t;

typedef ze_module_handle_t zet_module_handle_t;

typedef ze_kernel_handle_t zet_kernel_handle_t;

typedef struct _zet_metric_group_handle_t *zet_metric_group_handle_t;

typedef struct _zet_metric_handle_t *zet_metric_handle_t;

typedef struct _zet_metric_streamer_handle_t *zet_metric_streamer_handle_t;

typedef struct _zet_metric_query_pool_handle_t *zet_metric_query_pool_handle_t;

typedef struct _zet_metric_query_handle_t *zet_metric_query_handle_t;

typedef struct _zet_tracer_exp_handle_t *zet_tracer_exp_handle_t;

typedef struct _zet_debug_session_handle_t *zet_debug_session_handle_t;

/* Structure types and the base records every descriptor starts with. */
typedef enum _zet_structure_type_t {
    ZET_STRUCTURE_TYPE_METRIC_GROUP_PROPERTIES = 0x1,
    ZET_STRUCTURE_TYPE_METRIC_PROPERTIES = 0x2,
    ZET_STRUCTURE_TYPE_METRIC_STREAMER_DESC = 0x3,
    ZET_STRUCTURE_TYPE_METRIC_QUERY_POOL_DESC = 0x4,
    ZET_STRUCTURE_TYPE_PROFILE_PROPERTIES = 0x5,
    ZET_STRUCTURE_TYPE_DEVICE_DEBUG_PROPERTIES = 0x6,
    ZET_STRUCTURE_TYPE_DEBUG_MEMORY_SPACE_DESC = 0x7,
    ZET_STRUCTURE_TYPE_DEBUG_REGSET_PROPERTIES = 0x8,
    ZET_STRUCTURE_TYPE_GLOBAL_METRICS_TIMESTAMPS_EXP_PROPERTIES = 0x9,
    ZET_STRUCTURE_TYPE_METRIC_GLOBAL_TIMESTAMPS_RESOLUTION_EXP = 0x9,
    ZET_STRUCTURE_TYPE_TRACER_EXP_DESC = 0x00010001,
    ZET_STRUCTURE_TYPE_METRICS_CALCULATE_EXP_DESC = 0x00010002,
    ZET_STRUCTURE_TYPE_METRIC_CALCULATE_EXP_DESC = 0x00010002,
    ZET_STRUCTURE_TYPE_METRIC_PROGRAMMABLE_EXP_PROPERTIES = 0x00010003,
    ZET_STRUCTURE_TYPE_METRIC_PROGRAMMABLE_PARAM_INFO_EXP = 0x00010004,
    ZET_STRUCTURE_TYPE_METRIC_PROGRAMMABLE_PARAM_VALUE_INFO_EXP = 0x00010005,
    ZET_STRUCTURE_TYPE_METRIC_GROUP_TYPE_EXP = 0x00010006,
    ZET_STRUCTURE_TYPE_EXPORT_DMA_EXP_PROPERTIES = 0x00010007,
    ZET_STRUCTURE_TYPE_METRIC_TRACER_EXP_DESC = 0x00010008,
    ZET_STRUCTURE_TYPE_METRIC_SOURCE_ID_EXP = 0x00010009,
    ZET_STRUCTURE_TYPE_FORCE_UINT32 = 0x7fffffff
} zet_structure_type_t;

typedef struct _zet_base_properties_t {
    zet_structure_type_t stype;
    void *pNext;
} zet_base_properties_t;

typedef struct _zet_base_desc_t {
    zet_structure_type_t stype;
    const void *pNext;
} zet_base_desc_t;

/* Typed values (metric results, parameters). */
typedef enum _zet_value_type_t {
    ZET_VALUE_TYPE_UINT32 = 0,
    ZET_VALUE_TYPE_UINT64 = 1,
    ZET_VALUE_TYPE_FLOAT32 = 2,
    ZET_VALUE_TYPE_FLOAT64 = 3,
    ZET_VALUE_TYPE_BOOL8 = 4,
    ZET_VALUE_TYPE_STRING = 5,
    ZET_VALUE_TYPE_UINT8 = 6,
    ZET_VALUE_TYPE_UINT16 = 7,
    ZET_VALUE_TYPE_FORCE_UINT32 = 0x7fffffff
} zet_value_type_t;

typedef union _zet_value_t {
    uint32_t ui32;
    uint64_t ui64;
    float fp32;
    double fp64;
    ze_bool_t b8;
} zet_value_t;

typedef struct _zet_typed_value_t {
    zet_value_type_t type;
    zet_value_t value;
} zet_typed_value_t;

typedef struct _zet_base_properties_t zet_base_properties_t;

typedef struct _zet_base_desc_t zet_base_desc_t;

typedef struct _zet_typed_value_t zet_typed_value_t;

typedef struct _zet_device_debug_properties_t zet_device_debug_properties_t;

typedef struct _zet_debug_config_t zet_debug_config_t;

typedef struct _zet_debug_event_info_detached_t
    zet_debug_event_info_detached_t;

typedef struct _zet_debug_event_info_module_t zet_debug_event_info_module_t;

typedef struct _zet_debug_event_info_thread_stopped_t
    zet_debug_event_info_thread_stopped_t;

typedef struct _zet_debug_event_info_page_fault_t
    zet_debug_event_info_page_fault_t;

typedef struct _zet_debug_event_t zet_debug_event_t;

typedef struct _zet_debug_memory_space_desc_t zet_debug_memory_space_desc_t;

typedef struct _zet_debug_regset_properties_t zet_debug_regset_properties_t;

typedef struct _zet_metric_group_properties_t zet_metric_group_properties_t;

typedef struct _zet_metric_properties_t zet_metric_properties_t;

typedef struct _zet_metric_streamer_desc_t zet_metric_streamer_desc_t;

typedef struct _zet_metric_query_pool_desc_t zet_metric_query_pool_desc_t;

typedef struct _zet_profile_properties_t zet_profile_properties_t;

typedef struct _zet_profile_free_register_token_t
    zet_profile_free_register_token_t;

typedef struct _zet_profile_register_sequence_t
    zet_profile_register_sequence_t;

typedef struct _zet_tracer_exp_desc_t zet_tracer_exp_desc_t;

typedef struct _zet_metric_global_timestamps_resolution_exp_t
    zet_metric_global_timestamps_resolution_exp_t;

typedef struct _zet_metric_calculate_exp_desc_t
    zet_metric_calculate_exp_desc_t;

typedef struct _zet_metric_programmable_exp_properties_t
    zet_metric_programmable_exp_properties_t;

typedef struct _zet_value_uint64_range_exp_t zet_value_uint64_range_exp_t;

typedef struct _zet_value_fp64_range_exp_t zet_value_fp64_range_exp_t;

typedef struct _zet_metric_programmable_param_info_exp_t
    zet_metric_programmable_param_info_exp_t;

typedef struct _zet_metric_programmable_param_value_info_exp_t
    zet_metric_programmable_param_value_info_exp_t;

typedef struct _zet_metric_programmable_param_value_exp_t
    zet_metric_programmable_param_value_exp_t;

typedef struct _zet_metric_tracer_exp_desc_t zet_metric_tracer_exp_desc_t;

typedef struct _zet_metric_entry_exp_t zet_metric_entry_exp_t;

typedef struct _zet_metric_group_type_exp_t zet_metric_group_type_exp_t;

typedef struct _zet_export_dma_buf_exp_properties_t
    zet_export_dma_buf_exp_properties_t;

typedef struct _zet_metric_source_id_exp_t zet_metric_source_id_exp_t;

/* Program debug: module debug information. */
typedef enum _zet_module_debug_info_format_t {
    ZET_MODULE_DEBUG_INFO_FORMAT_ELF_DWARF = 0,
    ZET_MODULE_DEBUG_INFO_FORMAT_FORCE_UINT32 = 0x7fffffff
} zet_module_debug_info_format_t;

ZE_APIEXPORT ze_result_t ZE_APICALL
zetModuleGetDebugInfo(zet_module_handle_t hModule,
    zet_module_debug_info_format_t format, size_t *pSize, uint8_t *pDebugInfo);

typedef uint32_t zet_device_debug_property_flags_t;

/* Debugger: attach, events, memory and registers of device threads. */
typedef enum _zet_device_debug_property_flag_t {
    ZET_DEVICE_DEBUG_PROPERTY_FLAG_ATTACH = ZE_BIT(0),
    ZET_DEVICE_DEBUG_PROPERTY_FLAG_FORCE_UINT32 = 0x7fffffff
} zet_device_debug_property_flag_t;

typedef struct _zet_device_debug_properties_t {
    zet_structure_type_t stype;
    void *pNext;
    zet_device_debug_property_flags_t flags;
} zet_device_debug_properties_t;

ZE_APIEXPORT ze_result_t ZE_APICALL
zetDeviceGetDebugProperties(zet_device_handle_t hDevice,
    zet_device_debug_properties_t *pDebugProperties);

typedef struct _zet_debug_config_t {
    uint32_t pid;
} zet_debug_config_t;

ZE_APIEXPORT ze_result_t ZE_APICALL
zetDebugAttach(zet_device_handle_t hDevice, const zet_debug_config_t *config,
    zet_debug_session_handle_t *phDebug);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetDebugDetach(zet_debug_session_handle_t hDebug);

typedef uint32_t zet_debug_event_flags_t;

typedef enum _zet_debug_event_flag_t {
    ZET_DEBUG_EVENT_FLAG_NEED_ACK = ZE_BIT(0),
    ZET_DEBUG_EVENT_FLAG_FORCE_UINT32 = 0x7fffffff
} zet_debug_event_flag_t;

typedef enum _zet_debug_event_type_t {
    ZET_DEBUG_EVENT_TYPE_INVALID = 0,
    ZET_DEBUG_EVENT_TYPE_DETACHED = 1,
    ZET_DEBUG_EVENT_TYPE_PROCESS_ENTRY = 2,
    ZET_DEBUG_EVENT_TYPE_PROCESS_EXIT = 3,
    ZET_DEBUG_EVENT_TYPE_MODULE_LOAD = 4,
    ZET_DEBUG_EVENT_TYPE_MODULE_UNLOAD = 5,
    ZET_DEBUG_EVENT_TYPE_THREAD_STOPPED = 6,
    ZET_DEBUG_EVENT_TYPE_THREAD_UNAVAILABLE = 7,
    ZET_DEBUG_EVENT_TYPE_PAGE_FAULT = 8,
    ZET_DEBUG_EVENT_TYPE_FORCE_UINT32 = 0x7fffffff
} zet_debug_event_type_t;

typedef enum _zet_debug_detach_reason_t {
    ZET_DEBUG_DETACH_REASON_INVALID = 0,
    ZET_DEBUG_DETACH_REASON_HOST_EXIT = 1,
    ZET_DEBUG_DETACH_REASON_FORCE_UINT32 = 0x7fffffff
} zet_debug_detach_reason_t;

typedef struct _zet_debug_event_info_detached_t {
    zet_debug_detach_reason_t reason;
} zet_debug_event_info_detached_t;

typedef struct _zet_debug_event_info_module_t {
    zet_module_debug_info_format_t format;
    uint64_t moduleBegin;
    uint64_t moduleEnd;
    uint64_t load;
} zet_debug_event_info_module_t;

typedef struct _zet_debug_event_info_thread_stopped_t {
    ze_device_thread_t thread;
} zet_debug_event_info_thread_stopped_t;

typedef enum _zet_debug_page_fault_reason_t {
    ZET_DEBUG_PAGE_FAULT_REASON_INVALID = 0,
    ZET_DEBUG_PAGE_FAULT_REASON_MAPPING_ERROR = 1,
    ZET_DEBUG_PAGE_FAULT_REASON_PERMISSION_ERROR = 2,
    ZET_DEBUG_PAGE_FAULT_REASON_FORCE_UINT32 = 0x7fffffff
} zet_debug_page_fault_reason_t;

typedef struct _zet_debug_event_info_page_fault_t {
    uint64_t address;
    uint64_t mask;
    zet_debug_page_fault_reason_t reason;
} zet_debug_event_info_page_fault_t;

typedef union _zet_debug_event_info_t {
    zet_debug_event_info_detached_t detached;
    zet_debug_event_info_module_t module;
    zet_debug_event_info_thread_stopped_t thread;
    zet_debug_event_info_page_fault_t page_fault;
} zet_debug_event_info_t;

typedef struct _zet_debug_event_t {
    zet_debug_event_type_t type;
    zet_debug_event_flags_t flags;
    zet_debug_event_info_t info;
} zet_debug_event_t;

ZE_APIEXPORT ze_result_t ZE_APICALL
zetDebugReadEvent(zet_debug_session_handle_t hDebug, uint64_t timeout,
    zet_debug_event_t *event);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetDebugAcknowledgeEvent(zet_debug_session_handle_t hDebug,
    const zet_debug_event_t *event);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetDebugInterrupt(zet_debug_session_handle_t hDebug,
    ze_device_thread_t thread);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetDebugResume(zet_debug_session_handle_t hDebug, ze_device_thread_t thread);

typedef enum _zet_debug_memory_space_type_t {
    ZET_DEBUG_MEMORY_SPACE_TYPE_DEFAULT = 0,
    ZET_DEBUG_MEMORY_SPACE_TYPE_SLM = 1,
    ZET_DEBUG_MEMORY_SPACE_TYPE_ELF = 2,
    ZET_DEBUG_MEMORY_SPACE_TYPE_BARRIER = 3,
    ZET_DEBUG_MEMORY_SPACE_TYPE_FORCE_UINT32 = 0x7fffffff
} zet_debug_memory_space_type_t;

typedef struct _zet_debug_memory_space_desc_t {
    zet_structure_type_t stype;
    const void *pNext;
    zet_debug_memory_space_type_t type;
    uint64_t address;
} zet_debug_memory_space_desc_t;

ZE_APIEXPORT ze_result_t ZE_APICALL
zetDebugReadMemory(zet_debug_session_handle_t hDebug,
    ze_device_thread_t thread, const zet_debug_memory_space_desc_t *desc,
    size_t size, void *buffer);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetDebugWriteMemory(zet_debug_session_handle_t hDebug,
    ze_device_thread_t thread, const zet_debug_memory_space_desc_t *desc,
    size_t size, const void *buffer);

typedef uint32_t zet_debug_regset_flags_t;

typedef enum _zet_debug_regset_flag_t {
    ZET_DEBUG_REGSET_FLAG_READABLE = ZE_BIT(0),
    ZET_DEBUG_REGSET_FLAG_WRITEABLE = ZE_BIT(1),
    ZET_DEBUG_REGSET_FLAG_FORCE_UINT32 = 0x7fffffff
} zet_debug_regset_flag_t;

typedef struct _zet_debug_regset_properties_t {
    zet_structure_type_t stype;
    void *pNext;
    uint32_t type;
    uint32_t version;
    zet_debug_regset_flags_t generalFlags;
    uint32_t deviceFlags;
    uint32_t count;
    uint32_t bitSize;
    uint32_t byteSize;
} zet_debug_regset_properties_t;

ZE_APIEXPORT ze_result_t ZE_APICALL
zetDebugGetRegisterSetProperties(zet_device_handle_t hDevice, uint32_t *pCount,
    zet_debug_regset_properties_t *pRegisterSetProperties);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetDebugGetThreadRegisterSetProperties(zet_debug_session_handle_t hDebug,
    ze_device_thread_t thread, uint32_t *pCount,
    zet_debug_regset_properties_t *pRegisterSetProperties);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetDebugReadRegisters(zet_debug_session_handle_t hDebug,
    ze_device_thread_t thread, uint32_t type, uint32_t start, uint32_t count,
    void *pRegisterValues);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetDebugWriteRegisters(zet_debug_session_handle_t hDebug,
    ze_device_thread_t thread, uint32_t type, uint32_t start, uint32_t count,
    void *pRegisterValues);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricGroupGet(zet_device_handle_t hDevice, uint32_t *pCount,
    zet_metric_group_handle_t *phMetricGroups);

/* Metric groups and metrics. */
#ifndef ZET_MAX_METRIC_GROUP_NAME
#define ZET_MAX_METRIC_GROUP_NAME 256
#endif

#ifndef ZET_MAX_METRIC_GROUP_DESCRIPTION
#define ZET_MAX_METRIC_GROUP_DESCRIPTION 256
#endif

typedef uint32_t zet_metric_group_sampling_type_flags_t;

typedef enum _zet_metric_group_sampling_type_flag_t {
    ZET_METRIC_GROUP_SAMPLING_TYPE_FLAG_EVENT_BASED = ZE_BIT(0),
    ZET_METRIC_GROUP_SAMPLING_TYPE_FLAG_TIME_BASED = ZE_BIT(1),
    ZET_METRIC_GROUP_SAMPLING_TYPE_FLAG_EXP_TRACER_BASED = ZE_BIT(2),
    ZET_METRIC_GROUP_SAMPLING_TYPE_FLAG_FORCE_UINT32 = 0x7fffffff
} zet_metric_group_sampling_type_flag_t;

typedef struct _zet_metric_group_properties_t {
    zet_structure_type_t stype;
    void *pNext;
    char name[ZET_MAX_METRIC_GROUP_NAME];
    char description[ZET_MAX_METRIC_GROUP_DESCRIPTION];
    zet_metric_group_sampling_type_flags_t samplingType;
    uint32_t domain;
    uint32_t metricCount;
} zet_metric_group_properties_t;

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricGroupGetProperties(zet_metric_group_handle_t hMetricGroup,
    zet_metric_group_properties_t *pProperties);

typedef enum _zet_metric_type_t {
    ZET_METRIC_TYPE_DURATION = 0,
    ZET_METRIC_TYPE_EVENT = 1,
    ZET_METRIC_TYPE_EVENT_WITH_RANGE = 2,
    ZET_METRIC_TYPE_THROUGHPUT = 3,
    ZET_METRIC_TYPE_TIMESTAMP = 4,
    ZET_METRIC_TYPE_FLAG = 5,
    ZET_METRIC_TYPE_RATIO = 6,
    ZET_METRIC_TYPE_RAW = 7,
    ZET_METRIC_TYPE_EVENT_EXP_TIMESTAMP = 0x7ffffff9,
    ZET_METRIC_TYPE_EVENT_EXP_START = 0x7ffffffa,
    ZET_METRIC_TYPE_EVENT_EXP_END = 0x7ffffffb,
    ZET_METRIC_TYPE_EVENT_EXP_MONOTONIC_WRAPS_VALUE = 0x7ffffffc,
    ZET_METRIC_TYPE_EXP_EXPORT_DMA_BUF = 0x7ffffffd,
    ZET_METRIC_TYPE_IP_EXP = 0x7ffffffe,
    ZET_METRIC_TYPE_IP = 0x7ffffffe,
    ZET_METRIC_TYPE_FORCE_UINT32 = 0x7fffffff
} zet_metric_type_t;

typedef enum _zet_metric_group_calculation_type_t {
    ZET_METRIC_GROUP_CALCULATION_TYPE_METRIC_VALUES = 0,
    ZET_METRIC_GROUP_CALCULATION_TYPE_MAX_METRIC_VALUES = 1,
    ZET_METRIC_GROUP_CALCULATION_TYPE_FORCE_UINT32 = 0x7fffffff
} zet_metric_group_calculation_type_t;

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricGroupCalculateMetricValues(zet_metric_group_handle_t hMetricGroup,
    zet_metric_group_calculation_type_t type, size_t rawDataSize,
    const uint8_t *pRawData, uint32_t *pMetricValueCount,
    zet_typed_value_t *pMetricValues);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricGet(zet_metric_group_handle_t hMetricGroup, uint32_t *pCount,
    zet_metric_handle_t *phMetrics);

#ifndef ZET_MAX_METRIC_NAME
#define ZET_MAX_METRIC_NAME 256
#endif

#ifndef ZET_MAX_METRIC_DESCRIPTION
#define ZET_MAX_METRIC_DESCRIPTION 256
#endif

#ifndef ZET_MAX_METRIC_COMPONENT
#define ZET_MAX_METRIC_COMPONENT 256
#endif

#ifndef ZET_MAX_METRIC_RESULT_UNITS
#define ZET_MAX_METRIC_RESULT_UNITS 256
#endif

typedef struct _zet_metric_properties_t {
    zet_structure_type_t stype;
    void *pNext;
    char name[ZET_MAX_METRIC_NAME];
    char description[ZET_MAX_METRIC_DESCRIPTION];
    char component[ZET_MAX_METRIC_COMPONENT];
    uint32_t tierNumber;
    zet_metric_type_t metricType;
    zet_value_type_t resultType;
    char resultUnits[ZET_MAX_METRIC_RESULT_UNITS];
} zet_metric_properties_t;

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricGetProperties(zet_metric_handle_t hMetric,
    zet_metric_properties_t *pProperties);

/* Activation, streamers and query pools. */
ZE_APIEXPORT ze_result_t ZE_APICALL
zetContextActivateMetricGroups(zet_context_handle_t hContext,
    zet_device_handle_t hDevice, uint32_t count,
    zet_metric_group_handle_t *phMetricGroups);

typedef struct _zet_metric_streamer_desc_t {
    zet_structure_type_t stype;
    const void *pNext;
    uint32_t notifyEveryNReports;
    uint32_t samplingPeriod;
} zet_metric_streamer_desc_t;

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricStreamerOpen(zet_context_handle_t hContext,
    zet_device_handle_t hDevice, zet_metric_group_handle_t hMetricGroup,
    zet_metric_streamer_desc_t *desc, ze_event_handle_t hNotificationEvent,
    zet_metric_streamer_handle_t *phMetricStreamer);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetCommandListAppendMetricStreamerMarker(zet_command_list_handle_t hCommandList,
    zet_metric_streamer_handle_t hMetricStreamer, uint32_t value);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricStreamerClose(zet_metric_streamer_handle_t hMetricStreamer);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricStreamerReadData(zet_metric_streamer_handle_t hMetricStreamer,
    uint32_t maxReportCount, size_t *pRawDataSize, uint8_t *pRawData);

typedef enum _zet_metric_query_pool_type_t {
    ZET_METRIC_QUERY_POOL_TYPE_PERFORMANCE = 0,
    ZET_METRIC_QUERY_POOL_TYPE_EXECUTION = 1,
    ZET_METRIC_QUERY_POOL_TYPE_FORCE_UINT32 = 0x7fffffff
} zet_metric_query_pool_type_t;

typedef struct _zet_metric_query_pool_desc_t {
    zet_structure_type_t stype;
    const void *pNext;
    zet_metric_query_pool_type_t type;
    uint32_t count;
} zet_metric_query_pool_desc_t;

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricQueryPoolCreate(zet_context_handle_t hContext,
    zet_device_handle_t hDevice, zet_metric_group_handle_t hMetricGroup,
    const zet_metric_query_pool_desc_t *desc,
    zet_metric_query_pool_handle_t *phMetricQueryPool);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricQueryPoolDestroy(zet_metric_query_pool_handle_t hMetricQueryPool);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricQueryCreate(zet_metric_query_pool_handle_t hMetricQueryPool,
    uint32_t index, zet_metric_query_handle_t *phMetricQuery);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricQueryDestroy(zet_metric_query_handle_t hMetricQuery);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricQueryReset(zet_metric_query_handle_t hMetricQuery);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetCommandListAppendMetricQueryBegin(zet_command_list_handle_t hCommandList,
    zet_metric_query_handle_t hMetricQuery);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetCommandListAppendMetricQueryEnd(zet_command_list_handle_t hCommandList,
    zet_metric_query_handle_t hMetricQuery, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetCommandListAppendMetricMemoryBarrier(zet_command_list_handle_t hCommandList);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricQueryGetData(zet_metric_query_handle_t hMetricQuery,
    size_t *pRawDataSize, uint8_t *pRawData);

typedef uint32_t zet_profile_flags_t;

/* Kernel profiling information. */
typedef enum _zet_profile_flag_t {
    ZET_PROFILE_FLAG_REGISTER_REALLOCATION = ZE_BIT(0),
    ZET_PROFILE_FLAG_FREE_REGISTER_INFO = ZE_BIT(1),
    ZET_PROFILE_FLAG_FORCE_UINT32 = 0x7fffffff
} zet_profile_flag_t;

typedef struct _zet_profile_properties_t {
    zet_structure_type_t stype;
    void *pNext;
    zet_profile_flags_t flags;
    uint32_t numTokens;
} zet_profile_properties_t;

typedef enum _zet_profile_token_type_t {
    ZET_PROFILE_TOKEN_TYPE_FREE_REGISTER = 0,
    ZET_PROFILE_TOKEN_TYPE_FORCE_UINT32 = 0x7fffffff
} zet_profile_token_type_t;

typedef struct _zet_profile_free_register_token_t {
    zet_profile_token_type_t type;
    uint32_t size;
    uint32_t count;
} zet_profile_free_register_token_t;

typedef struct _zet_profile_register_sequence_t {
    uint32_t start;
    uint32_t count;
} zet_profile_register_sequence_t;

ZE_APIEXPORT ze_result_t ZE_APICALL
zetKernelGetProfileInfo(zet_kernel_handle_t hKernel,
    zet_profile_properties_t *pProfileProperties);

/* Experimental API tracing (zetTracerExp*; the loader's zelTracer* API is
 * in layers/zel_tracing_api.h). ze_callbacks_t is completed there. */
#ifndef ZET_API_TRACING_EXP_NAME
#define ZET_API_TRACING_EXP_NAME "ZET_experimental_api_tracing"
#endif

typedef enum _zet_api_tracing_exp_version_t {
    ZET_API_TRACING_EXP_VERSION_1_0 = ZE_MAKE_VERSION(1, 0),
    ZET_API_TRACING_EXP_VERSION_CURRENT = ZE_MAKE_VERSION(1, 0),
    ZET_API_TRACING_EXP_VERSION_FORCE_UINT32 = 0x7fffffff
} zet_api_tracing_exp_version_t;

typedef struct _ze_callbacks_t zet_core_callbacks_t;

typedef struct _zet_tracer_exp_desc_t {
    zet_structure_type_t stype;
    const void *pNext;
    void *pUserData;
} zet_tracer_exp_desc_t;

ZE_APIEXPORT ze_result_t ZE_APICALL
zetTracerExpCreate(zet_context_handle_t hContext,
    const zet_tracer_exp_desc_t *desc, zet_tracer_exp_handle_t *phTracer);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetTracerExpDestroy(zet_tracer_exp_handle_t hTracer);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetTracerExpSetPrologues(zet_tracer_exp_handle_t hTracer,
    zet_core_callbacks_t *pCoreCbs);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetTracerExpSetEpilogues(zet_tracer_exp_handle_t hTracer,
    zet_core_callbacks_t *pCoreCbs);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetTracerExpSetEnabled(zet_tracer_exp_handle_t hTracer, ze_bool_t enable);

/* Experimental extensions: calculation of several metric sets, global
 * timestamps, export of metric data, programmable metrics, concurrent
 * metric groups, metric tracers and decoders, markers, runtime
 * enabling of metrics. */
#ifndef ZET_MULTI_METRICS_EXP_NAME
#define ZET_MULTI_METRICS_EXP_NAME "ZET_experimental_calculate_multiple_metrics"
#endif

typedef enum _ze_calculate_multiple_metrics_exp_version_t {
    ZE_CALCULATE_MULTIPLE_METRICS_EXP_VERSION_1_0 = ZE_MAKE_VERSION(1, 0),
    ZE_CALCULATE_MULTIPLE_METRICS_EXP_VERSION_CURRENT = ZE_MAKE_VERSION(1, 0),
    ZE_CALCULATE_MULTIPLE_METRICS_EXP_VERSION_FORCE_UINT32 = 0x7fffffff
} ze_calculate_multiple_metrics_exp_version_t;

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricGroupCalculateMultipleMetricValuesExp(zet_metric_group_handle_t hMetricGroup,
    zet_metric_group_calculation_type_t type, size_t rawDataSize,
    const uint8_t *pRawData, uint32_t *pSetCount,
    uint32_t *pTotalMetricValueCount, uint32_t *pMetricCounts,
    zet_typed_value_t *pMetricValues);

#ifndef ZET_GLOBAL_METRICS_TIMESTAMPS_EXP_NAME
#define ZET_GLOBAL_METRICS_TIMESTAMPS_EXP_NAME "ZET_experimental_global_metric_timestamps"
#endif

typedef enum _ze_metric_global_timestamps_exp_version_t {
    ZE_METRIC_GLOBAL_TIMESTAMPS_EXP_VERSION_1_0 = ZE_MAKE_VERSION(1, 0),
    ZE_METRIC_GLOBAL_TIMESTAMPS_EXP_VERSION_CURRENT = ZE_MAKE_VERSION(1, 0),
    ZE_METRIC_GLOBAL_TIMESTAMPS_EXP_VERSION_FORCE_UINT32 = 0x7fffffff
} ze_metric_global_timestamps_exp_version_t;

typedef struct _zet_metric_global_timestamps_resolution_exp_t {
    zet_structure_type_t stype;
    const void *pNext;
    uint64_t timerResolution;
    uint64_t timestampValidBits;
} zet_metric_global_timestamps_resolution_exp_t;

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricGroupGetGlobalTimestampsExp(zet_metric_group_handle_t hMetricGroup,
    ze_bool_t synchronizedWithHost, uint64_t *globalTimestamp,
    uint64_t *metricTimestamp);

#ifndef ZET_EXPORT_METRICS_DATA_EXP_NAME
#define ZET_EXPORT_METRICS_DATA_EXP_NAME "ZET_experimental_metric_export_data"
#endif

typedef enum _zet_export_metric_data_exp_version_t {
    ZET_EXPORT_METRIC_DATA_EXP_VERSION_1_0 = ZE_MAKE_VERSION(1, 0),
    ZET_EXPORT_METRIC_DATA_EXP_VERSION_CURRENT = ZE_MAKE_VERSION(1, 0),
    ZET_EXPORT_METRIC_DATA_EXP_VERSION_FORCE_UINT32 = 0x7fffffff
} zet_export_metric_data_exp_version_t;

#ifndef ZET_MAX_METRIC_EXPORT_DATA_ELEMENT_NAME_EXP
#define ZET_MAX_METRIC_EXPORT_DATA_ELEMENT_NAME_EXP 256
#endif

#ifndef ZET_MAX_METRIC_EXPORT_DATA_ELEMENT_DESCRIPTION_EXP
#define ZET_MAX_METRIC_EXPORT_DATA_ELEMENT_DESCRIPTION_EXP 256
#endif

typedef struct _zet_metric_calculate_exp_desc_t {
    zet_structure_type_t stype;
    const void *pNext;
    uint32_t rawReportSkipCount;
} zet_metric_calculate_exp_desc_t;

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricGroupGetExportDataExp(zet_metric_group_handle_t hMetricGroup,
    const uint8_t *pRawData, size_t rawDataSize, size_t *pExportDataSize,
    uint8_t *pExportData);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricGroupCalculateMetricExportDataExp(ze_driver_handle_t hDriver,
    zet_metric_group_calculation_type_t type, size_t exportDataSize,
    const uint8_t *pExportData,
    zet_metric_calculate_exp_desc_t *pCalculateDescriptor, uint32_t *pSetCount,
    uint32_t *pTotalMetricValueCount, uint32_t *pMetricCounts,
    zet_typed_value_t *pMetricValues);

#ifndef ZET_PROGRAMMABLE_METRICS_EXP_NAME
#define ZET_PROGRAMMABLE_METRICS_EXP_NAME "ZET_experimental_programmable_metrics"
#endif

typedef enum _zet_metric_programmable_exp_version_t {
    ZET_METRIC_PROGRAMMABLE_EXP_VERSION_1_1 = ZE_MAKE_VERSION(1, 1),
    ZET_METRIC_PROGRAMMABLE_EXP_VERSION_CURRENT = ZE_MAKE_VERSION(1, 1),
    ZET_METRIC_PROGRAMMABLE_EXP_VERSION_FORCE_UINT32 = 0x7fffffff
} zet_metric_programmable_exp_version_t;

#ifndef ZET_MAX_PROGRAMMABLE_METRICS_ELEMENT_NAME_EXP
#define ZET_MAX_PROGRAMMABLE_METRICS_ELEMENT_NAME_EXP 256
#endif

#ifndef ZET_MAX_PROGRAMMABLE_METRICS_ELEMENT_DESCRIPTION_EXP
#define ZET_MAX_PROGRAMMABLE_METRICS_ELEMENT_DESCRIPTION_EXP 256
#endif

#ifndef ZET_MAX_METRIC_GROUP_NAME_PREFIX_EXP
#define ZET_MAX_METRIC_GROUP_NAME_PREFIX_EXP 64
#endif

#ifndef ZET_MAX_METRIC_PROGRAMMABLE_NAME_EXP
#define ZET_MAX_METRIC_PROGRAMMABLE_NAME_EXP 128
#endif

#ifndef ZET_MAX_METRIC_PROGRAMMABLE_DESCRIPTION_EXP
#define ZET_MAX_METRIC_PROGRAMMABLE_DESCRIPTION_EXP 128
#endif

#ifndef ZET_MAX_METRIC_PROGRAMMABLE_COMPONENT_EXP
#define ZET_MAX_METRIC_PROGRAMMABLE_COMPONENT_EXP 128
#endif

#ifndef ZET_MAX_METRIC_PROGRAMMABLE_PARAMETER_NAME_EXP
#define ZET_MAX_METRIC_PROGRAMMABLE_PARAMETER_NAME_EXP 128
#endif

#ifndef ZET_MAX_METRIC_PROGRAMMABLE_VALUE_DESCRIPTION_EXP
#define ZET_MAX_METRIC_PROGRAMMABLE_VALUE_DESCRIPTION_EXP 128
#endif

#ifndef ZE_MAX_METRIC_GROUP_NAME_PREFIX
#define ZE_MAX_METRIC_GROUP_NAME_PREFIX 64
#endif

typedef struct _zet_metric_programmable_exp_handle_t *zet_metric_programmable_exp_handle_t;

typedef struct _zet_metric_programmable_exp_properties_t {
    zet_structure_type_t stype;
    void *pNext;
    char name[ZET_MAX_METRIC_PROGRAMMABLE_NAME_EXP];
    char description[ZET_MAX_METRIC_PROGRAMMABLE_DESCRIPTION_EXP];
    char component[ZET_MAX_METRIC_PROGRAMMABLE_COMPONENT_EXP];
    uint32_t tierNumber;
    uint32_t domain;
    uint32_t parameterCount;
    zet_metric_group_sampling_type_flags_t samplingType;
    uint32_t sourceId;
} zet_metric_programmable_exp_properties_t;

typedef enum _zet_metric_programmable_param_type_exp_t {
    ZET_METRIC_PROGRAMMABLE_PARAM_TYPE_EXP_DISAGGREGATION = 0,
    ZET_METRIC_PROGRAMMABLE_PARAM_TYPE_EXP_LATENCY = 1,
    ZET_METRIC_PROGRAMMABLE_PARAM_TYPE_EXP_NORMALIZATION_UTILIZATION = 2,
    ZET_METRIC_PROGRAMMABLE_PARAM_TYPE_EXP_NORMALIZATION_AVERAGE = 3,
    ZET_METRIC_PROGRAMMABLE_PARAM_TYPE_EXP_NORMALIZATION_RATE = 4,
    ZET_METRIC_PROGRAMMABLE_PARAM_TYPE_EXP_NORMALIZATION_BYTES = 5,
    ZET_METRIC_PROGRAMMABLE_PARAM_TYPE_EXP_GENERIC = 6,
    ZET_METRIC_PROGRAMMABLE_PARAM_TYPE_EXP_FORCE_UINT32 = 0x7fffffff
} zet_metric_programmable_param_type_exp_t;

typedef enum _zet_value_info_type_exp_t {
    ZET_VALUE_INFO_TYPE_EXP_UINT32 = 0,
    ZET_VALUE_INFO_TYPE_EXP_UINT64 = 1,
    ZET_VALUE_INFO_TYPE_EXP_FLOAT32 = 2,
    ZET_VALUE_INFO_TYPE_EXP_FLOAT64 = 3,
    ZET_VALUE_INFO_TYPE_EXP_BOOL8 = 4,
    ZET_VALUE_INFO_TYPE_EXP_UINT8 = 5,
    ZET_VALUE_INFO_TYPE_EXP_UINT16 = 6,
    ZET_VALUE_INFO_TYPE_EXP_UINT64_RANGE = 7,
    ZET_VALUE_INFO_TYPE_EXP_FLOAT64_RANGE = 8,
    ZET_VALUE_INFO_TYPE_EXP_FORCE_UINT32 = 0x7fffffff
} zet_value_info_type_exp_t;

typedef struct _zet_value_uint64_range_exp_t {
    uint64_t ui64Min;
    uint64_t ui64Max;
} zet_value_uint64_range_exp_t;

typedef struct _zet_value_fp64_range_exp_t {
    double fp64Min;
    double fp64Max;
} zet_value_fp64_range_exp_t;

typedef union _zet_value_info_exp_t {
    uint32_t ui32;
    uint64_t ui64;
    float fp32;
    double fp64;
    ze_bool_t b8;
    uint8_t ui8;
    uint16_t ui16;
    zet_value_uint64_range_exp_t ui64Range;
    zet_value_fp64_range_exp_t fp64Range;
} zet_value_info_exp_t;

typedef struct _zet_metric_programmable_param_info_exp_t {
    zet_structure_type_t stype;
    void *pNext;
    zet_metric_programmable_param_type_exp_t type;
    char name[ZET_MAX_METRIC_PROGRAMMABLE_PARAMETER_NAME_EXP];
    zet_value_info_type_exp_t valueInfoType;
    zet_value_t defaultValue;
    uint32_t valueInfoCount;
} zet_metric_programmable_param_info_exp_t;

typedef struct _zet_metric_programmable_param_value_info_exp_t {
    zet_structure_type_t stype;
    void *pNext;
    zet_value_info_exp_t valueInfo;
    char description[ZET_MAX_METRIC_PROGRAMMABLE_VALUE_DESCRIPTION_EXP];
} zet_metric_programmable_param_value_info_exp_t;

typedef struct _zet_metric_programmable_param_value_exp_t {
    zet_value_t value;
} zet_metric_programmable_param_value_exp_t;

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricProgrammableGetExp(zet_device_handle_t hDevice, uint32_t *pCount,
    zet_metric_programmable_exp_handle_t *phMetricProgrammables);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricProgrammableGetPropertiesExp(zet_metric_programmable_exp_handle_t hMetricProgrammable,
    zet_metric_programmable_exp_properties_t *pProperties);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricProgrammableGetParamInfoExp(zet_metric_programmable_exp_handle_t hMetricProgrammable,
    uint32_t *pParameterCount,
    zet_metric_programmable_param_info_exp_t *pParameterInfo);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricProgrammableGetParamValueInfoExp(zet_metric_programmable_exp_handle_t hMetricProgrammable,
    uint32_t parameterOrdinal, uint32_t *pValueInfoCount,
    zet_metric_programmable_param_value_info_exp_t *pValueInfo);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricCreateFromProgrammableExp2(zet_metric_programmable_exp_handle_t hMetricProgrammable,
    uint32_t parameterCount,
    zet_metric_programmable_param_value_exp_t *pParameterValues,
    const char *pName, const char *pDescription, uint32_t *pMetricHandleCount,
    zet_metric_handle_t *phMetricHandles);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricCreateFromProgrammableExp(zet_metric_programmable_exp_handle_t hMetricProgrammable,
    zet_metric_programmable_param_value_exp_t *pParameterValues,
    uint32_t parameterCount, const char *pName, const char *pDescription,
    uint32_t *pMetricHandleCount, zet_metric_handle_t *phMetricHandles);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetDeviceCreateMetricGroupsFromMetricsExp(zet_device_handle_t hDevice,
    uint32_t metricCount, zet_metric_handle_t *phMetrics,
    const char *pMetricGroupNamePrefix, const char *pDescription,
    uint32_t *pMetricGroupCount, zet_metric_group_handle_t *phMetricGroup);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricGroupCreateExp(zet_device_handle_t hDevice, const char *pName,
    const char *pDescription,
    zet_metric_group_sampling_type_flags_t samplingType,
    zet_metric_group_handle_t *phMetricGroup);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricGroupAddMetricExp(zet_metric_group_handle_t hMetricGroup,
    zet_metric_handle_t hMetric, size_t *pErrorStringSize, char *pErrorString);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricGroupRemoveMetricExp(zet_metric_group_handle_t hMetricGroup,
    zet_metric_handle_t hMetric);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricGroupCloseExp(zet_metric_group_handle_t hMetricGroup);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricGroupDestroyExp(zet_metric_group_handle_t hMetricGroup);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricDestroyExp(zet_metric_handle_t hMetric);

#ifndef ZET_CONCURRENT_METRIC_GROUPS_EXP_NAME
#define ZET_CONCURRENT_METRIC_GROUPS_EXP_NAME "ZET_experimental_concurrent_metric_groups"
#endif

typedef enum _zet_concurrent_metric_groups_exp_version_t {
    ZET_CONCURRENT_METRIC_GROUPS_EXP_VERSION_1_0 = ZE_MAKE_VERSION(1, 0),
    ZET_CONCURRENT_METRIC_GROUPS_EXP_VERSION_CURRENT = ZE_MAKE_VERSION(1, 0),
    ZET_CONCURRENT_METRIC_GROUPS_EXP_VERSION_FORCE_UINT32 = 0x7fffffff
} zet_concurrent_metric_groups_exp_version_t;

ZE_APIEXPORT ze_result_t ZE_APICALL
zetDeviceGetConcurrentMetricGroupsExp(zet_device_handle_t hDevice,
    uint32_t metricGroupCount, zet_metric_group_handle_t *phMetricGroups,
    uint32_t *pMetricGroupsCountPerConcurrentGroup,
    uint32_t *pConcurrentGroupCount);

#ifndef ZET_METRICS_TRACER_EXP_NAME
#define ZET_METRICS_TRACER_EXP_NAME "ZET_experimental_metric_tracer"
#endif

typedef enum _zet_metric_tracer_exp_version_t {
    ZET_METRIC_TRACER_EXP_VERSION_1_0 = ZE_MAKE_VERSION(1, 0),
    ZET_METRIC_TRACER_EXP_VERSION_CURRENT = ZE_MAKE_VERSION(1, 0),
    ZET_METRIC_TRACER_EXP_VERSION_FORCE_UINT32 = 0x7fffffff
} zet_metric_tracer_exp_version_t;

typedef struct _zet_metric_tracer_exp_handle_t *zet_metric_tracer_exp_handle_t;

typedef struct _zet_metric_decoder_exp_handle_t *zet_metric_decoder_exp_handle_t;

typedef struct _zet_metric_tracer_exp_desc_t {
    zet_structure_type_t stype;
    const void *pNext;
    uint32_t notifyEveryNBytes;
} zet_metric_tracer_exp_desc_t;

typedef struct _zet_metric_entry_exp_t {
    zet_value_t value;
    uint64_t timeStamp;
    uint32_t metricIndex;
    ze_bool_t onSubdevice;
    uint32_t subdeviceId;
} zet_metric_entry_exp_t;

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricTracerCreateExp(zet_context_handle_t hContext,
    zet_device_handle_t hDevice, uint32_t metricGroupCount,
    zet_metric_group_handle_t *phMetricGroups,
    zet_metric_tracer_exp_desc_t *desc, ze_event_handle_t hNotificationEvent,
    zet_metric_tracer_exp_handle_t *phMetricTracer);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricTracerDestroyExp(zet_metric_tracer_exp_handle_t hMetricTracer);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricTracerEnableExp(zet_metric_tracer_exp_handle_t hMetricTracer,
    ze_bool_t synchronous);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricTracerDisableExp(zet_metric_tracer_exp_handle_t hMetricTracer,
    ze_bool_t synchronous);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricTracerReadDataExp(zet_metric_tracer_exp_handle_t hMetricTracer,
    size_t *pRawDataSize, uint8_t *pRawData);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricDecoderCreateExp(zet_metric_tracer_exp_handle_t hMetricTracer,
    zet_metric_decoder_exp_handle_t *phMetricDecoder);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricDecoderDestroyExp(zet_metric_decoder_exp_handle_t phMetricDecoder);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricDecoderGetDecodableMetricsExp(zet_metric_decoder_exp_handle_t hMetricDecoder,
    uint32_t *pCount, zet_metric_handle_t *phMetrics);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetMetricTracerDecodeExp(zet_metric_decoder_exp_handle_t phMetricDecoder,
    size_t *pRawDataSize, uint8_t *pRawData, uint32_t metricsCount,
    zet_metric_handle_t *phMetrics, uint32_t *pSetCount,
    uint32_t *pMetricEntriesCountPerSet, uint32_t *pMetricEntriesCount,
    zet_metric_entry_exp_t *pMetricEntries);

#ifndef ZET_METRIC_EXPORT_MEMORY_EXP_NAME
#define ZET_METRIC_EXPORT_MEMORY_EXP_NAME "ZET_experimental_metric_export_memory"
#endif

typedef enum _zet_metric_export_memory_exp_version_t {
    ZET_METRIC_EXPORT_MEMORY_EXP_VERSION_1_0 = ZE_MAKE_VERSION(1, 0),
    ZET_METRIC_EXPORT_MEMORY_EXP_VERSION_CURRENT = ZE_MAKE_VERSION(1, 0),
    ZET_METRIC_EXPORT_MEMORY_EXP_VERSION_FORCE_UINT32 = 0x7fffffff
} zet_metric_export_memory_exp_version_t;

typedef uint32_t zet_metric_group_type_exp_flags_t;

typedef enum _zet_metric_group_type_exp_flag_t {
    ZET_METRIC_GROUP_TYPE_EXP_FLAG_EXPORT_DMA_BUF = ZE_BIT(0),
    ZET_METRIC_GROUP_TYPE_EXP_FLAG_USER_CREATED = ZE_BIT(1),
    ZET_METRIC_GROUP_TYPE_EXP_FLAG_OTHER = ZE_BIT(2),
    ZET_METRIC_GROUP_TYPE_EXP_FLAG_MARKER = ZE_BIT(3),
    ZET_METRIC_GROUP_TYPE_EXP_FLAG_FORCE_UINT32 = 0x7fffffff
} zet_metric_group_type_exp_flag_t;

typedef struct _zet_metric_group_type_exp_t {
    zet_structure_type_t stype;
    void *pNext;
    zet_metric_group_type_exp_flags_t type;
} zet_metric_group_type_exp_t;

typedef struct _zet_export_dma_buf_exp_properties_t {
    zet_structure_type_t stype;
    void *pNext;
    int fd;
    size_t size;
} zet_export_dma_buf_exp_properties_t;

#ifndef ZET_METRIC_GROUP_MARKER_EXP_NAME
#define ZET_METRIC_GROUP_MARKER_EXP_NAME "ZET_experimental_metric_group_marker"
#endif

typedef enum _zet_metric_group_marker_exp_version_t {
    ZET_METRIC_GROUP_MARKER_EXP_VERSION_1_0 = ZE_MAKE_VERSION(1, 0),
    ZET_METRIC_GROUP_MARKER_EXP_VERSION_CURRENT = ZE_MAKE_VERSION(1, 0),
    ZET_METRIC_GROUP_MARKER_EXP_VERSION_FORCE_UINT32 = 0x7fffffff
} zet_metric_group_marker_exp_version_t;

typedef struct _zet_metric_source_id_exp_t {
    zet_structure_type_t stype;
    void *pNext;
    uint32_t sourceId;
} zet_metric_source_id_exp_t;

ZE_APIEXPORT ze_result_t ZE_APICALL
zetCommandListAppendMarkerExp(zet_command_list_handle_t hCommandList,
    zet_metric_group_handle_t hMetricGroup, uint32_t value);

#ifndef ZET_METRICS_RUNTIME_ENABLE_DISABLE_EXP_NAME
#define ZET_METRICS_RUNTIME_ENABLE_DISABLE_EXP_NAME "ZET_experimental_metrics_runtime_enable_disable"
#endif

typedef enum _zet_metrics_runtime_enable_disable_exp_version_t {
    ZET_METRICS_RUNTIME_ENABLE_DISABLE_EXP_VERSION_1_0 = ZE_MAKE_VERSION(1, 0),
    ZET_METRICS_RUNTIME_ENABLE_DISABLE_EXP_VERSION_CURRENT = ZE_MAKE_VERSION(1, 0),
    ZET_METRICS_RUNTIME_ENABLE_DISABLE_EXP_VERSION_FORCE_UINT32 = 0x7fffffff
} zet_metrics_runtime_enable_disable_exp_version_t;

ZE_APIEXPORT ze_result_t ZE_APICALL
zetDeviceEnableMetricsExp(zet_device_handle_t hDevice);

ZE_APIEXPORT ze_result_t ZE_APICALL
zetDeviceDisableMetricsExp(zet_device_handle_t hDevice);

#if defined(__cplusplus)
} /* extern "C" */
#endif

#endif /* ZEMEM_LEVEL_ZERO_ZET_API_H */
