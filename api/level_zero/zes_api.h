/* SPDX-License-Identifier: MIT */
/*
 * zemem: Level Zero Sysman (zes) declarations, written for this project:
 * the subset zemem's driver implements (driver, device, PCI and memory
 * modules), and the handle and table-argument types of the DDI tables that
 * carry it (level_zero/zes_ddi.h).
 *
 * Types, values, layouts and entry points follow the oneAPI Level Zero
 * specification up to 1.18; a trailing comment such as 1.5 gives the API
 * version that added the item. Types only named by a table's other
 * entries are declared incomplete (they pass by pointer).
 */
#ifndef ZEMEM_LEVEL_ZERO_ZES_API_H
#define ZEMEM_LEVEL_ZERO_ZES_API_H
/* Also claim the upstream guard so mixing include paths cannot redefine. */
#ifndef _ZES_API_H
#define _ZES_API_H
#endif

#include "ze_api.h"

#if defined(__cplusplus)
extern "C" {
#endif

/* Handles: the driver and device handles are the core ones. */
typedef ze_driver_handle_t zes_driver_handle_t;
typedef ze_device_handle_t zes_device_handle_t;
typedef struct _zes_sched_handle_t *zes_sched_handle_t;
typedef struct _zes_perf_handle_t *zes_perf_handle_t;
typedef struct _zes_pwr_handle_t *zes_pwr_handle_t;
typedef struct _zes_freq_handle_t *zes_freq_handle_t;
typedef struct _zes_engine_handle_t *zes_engine_handle_t;
typedef struct _zes_standby_handle_t *zes_standby_handle_t;
typedef struct _zes_firmware_handle_t *zes_firmware_handle_t;
typedef struct _zes_mem_handle_t *zes_mem_handle_t;
typedef struct _zes_fabric_port_handle_t *zes_fabric_port_handle_t;
typedef struct _zes_temp_handle_t *zes_temp_handle_t;
typedef struct _zes_psu_handle_t *zes_psu_handle_t;
typedef struct _zes_fan_handle_t *zes_fan_handle_t;
typedef struct _zes_led_handle_t *zes_led_handle_t;
typedef struct _zes_ras_handle_t *zes_ras_handle_t;
typedef struct _zes_diag_handle_t *zes_diag_handle_t;
typedef struct _zes_overclock_handle_t *zes_overclock_handle_t; /* 1.5 */

#ifndef ZES_STRING_PROPERTY_SIZE
#define ZES_STRING_PROPERTY_SIZE 64
#endif
#ifndef ZES_MAX_UUID_SIZE
#define ZES_MAX_UUID_SIZE 16 /* 1.5 */
#endif

/* Structure types (those of the structures declared here). */
typedef enum _zes_structure_type_t {
    ZES_STRUCTURE_TYPE_DEVICE_PROPERTIES = 0x1,
    ZES_STRUCTURE_TYPE_PCI_PROPERTIES = 0x2,
    ZES_STRUCTURE_TYPE_MEM_PROPERTIES = 0xb,
    ZES_STRUCTURE_TYPE_MEM_STATE = 0x1e,
    ZES_STRUCTURE_TYPE_DEVICE_EXT_PROPERTIES = 0x2d, /* 1.5 */
    ZES_STRUCTURE_TYPE_DEVICE_UUID = 0x2e,           /* 1.5 */
    ZES_STRUCTURE_TYPE_FORCE_UINT32 = 0x7fffffff
} zes_structure_type_t;

/* Incomplete types: arguments of table entries zemem does not implement. */
typedef struct _zes_device_state_t zes_device_state_t;
typedef struct _zes_process_state_t zes_process_state_t;
typedef struct _zes_pci_state_t zes_pci_state_t;
typedef struct _zes_pci_bar_properties_t zes_pci_bar_properties_t;
typedef struct _zes_pci_stats_t zes_pci_stats_t;
typedef struct _zes_device_ecc_desc_t zes_device_ecc_desc_t;
typedef struct _zes_device_ecc_properties_t zes_device_ecc_properties_t;
typedef struct _zes_reset_properties_t zes_reset_properties_t;
typedef struct _zes_driver_extension_properties_t
    zes_driver_extension_properties_t;

/* zesInit (1.5) */
typedef uint32_t zes_init_flags_t;
typedef enum _zes_init_flag_t {
    ZES_INIT_FLAG_PLACEHOLDER = ZE_BIT(0),
    ZES_INIT_FLAG_FORCE_UINT32 = 0x7fffffff
} zes_init_flag_t;

/* Events (the flags type of the event entries) */
typedef uint32_t zes_event_type_flags_t;

/* Device */
typedef struct _zes_device_properties_t {
    zes_structure_type_t stype;
    void *pNext;
    ze_device_properties_t core;
    uint32_t numSubdevices;
    char serialNumber[ZES_STRING_PROPERTY_SIZE];
    char boardNumber[ZES_STRING_PROPERTY_SIZE];
    char brandName[ZES_STRING_PROPERTY_SIZE];
    char modelName[ZES_STRING_PROPERTY_SIZE];
    char vendorName[ZES_STRING_PROPERTY_SIZE];
    char driverVersion[ZES_STRING_PROPERTY_SIZE];
} zes_device_properties_t;

typedef struct _zes_uuid_t { /* 1.5 */
    uint8_t id[ZES_MAX_UUID_SIZE];
} zes_uuid_t;

typedef enum _zes_device_type_t { /* 1.5 */
    ZES_DEVICE_TYPE_GPU = 1,
    ZES_DEVICE_TYPE_CPU = 2,
    ZES_DEVICE_TYPE_FPGA = 3,
    ZES_DEVICE_TYPE_MCA = 4,
    ZES_DEVICE_TYPE_VPU = 5,
    ZES_DEVICE_TYPE_FORCE_UINT32 = 0x7fffffff
} zes_device_type_t;

typedef uint32_t zes_device_property_flags_t; /* 1.5 */
typedef enum _zes_device_property_flag_t {
    ZES_DEVICE_PROPERTY_FLAG_INTEGRATED = ZE_BIT(0),
    ZES_DEVICE_PROPERTY_FLAG_SUBDEVICE = ZE_BIT(1),
    ZES_DEVICE_PROPERTY_FLAG_ECC = ZE_BIT(2),
    ZES_DEVICE_PROPERTY_FLAG_ONDEMANDPAGING = ZE_BIT(3),
    ZES_DEVICE_PROPERTY_FLAG_FORCE_UINT32 = 0x7fffffff
} zes_device_property_flag_t;

/* Chained to zes_device_properties_t (1.5). */
typedef struct _zes_device_ext_properties_t {
    zes_structure_type_t stype;
    void *pNext;
    zes_uuid_t uuid;
    zes_device_type_t type;
    zes_device_property_flags_t flags;
} zes_device_ext_properties_t;

/* PCI */
typedef struct _zes_pci_address_t {
    uint32_t domain;
    uint32_t bus;
    uint32_t device;
    uint32_t function;
} zes_pci_address_t;

typedef struct _zes_pci_speed_t {
    int32_t gen;
    int32_t width;
    int64_t maxBandwidth;
} zes_pci_speed_t;

typedef struct _zes_pci_properties_t {
    zes_structure_type_t stype;
    void *pNext;
    zes_pci_address_t address;
    zes_pci_speed_t maxSpeed;
    ze_bool_t haveBandwidthCounters;
    ze_bool_t havePacketCounters;
    ze_bool_t haveReplayCounters;
} zes_pci_properties_t;

/* Overclock (the by-value argument of zesDeviceGetOverclockControls) */
typedef enum _zes_overclock_domain_t { /* 1.5 */
    ZES_OVERCLOCK_DOMAIN_CARD = 1,
    ZES_OVERCLOCK_DOMAIN_PACKAGE = 2,
    ZES_OVERCLOCK_DOMAIN_GPU_ALL = 4,
    ZES_OVERCLOCK_DOMAIN_GPU_RENDER_COMPUTE = 8,
    ZES_OVERCLOCK_DOMAIN_GPU_RENDER = 16,
    ZES_OVERCLOCK_DOMAIN_GPU_COMPUTE = 32,
    ZES_OVERCLOCK_DOMAIN_GPU_MEDIA = 64,
    ZES_OVERCLOCK_DOMAIN_VRAM = 128,
    ZES_OVERCLOCK_DOMAIN_ADM = 256,
    ZES_OVERCLOCK_DOMAIN_FORCE_UINT32 = 0x7fffffff
} zes_overclock_domain_t;
typedef enum _zes_overclock_mode_t { /* 1.5 */
    ZES_OVERCLOCK_MODE_MODE_OFF = 0,
    ZES_OVERCLOCK_MODE_MODE_STOCK = 2,
    ZES_OVERCLOCK_MODE_MODE_ON = 3,
    ZES_OVERCLOCK_MODE_MODE_UNAVAILABLE = 4,
    ZES_OVERCLOCK_MODE_MODE_DISABLED = 5,
    ZES_OVERCLOCK_MODE_FORCE_UINT32 = 0x7fffffff
} zes_overclock_mode_t;
typedef enum _zes_pending_action_t { /* 1.5 */
    ZES_PENDING_ACTION_PENDING_NONE = 0,
    ZES_PENDING_ACTION_PENDING_IMMINENT = 1,
    ZES_PENDING_ACTION_PENDING_COLD_RESET = 2,
    ZES_PENDING_ACTION_PENDING_WARM_RESET = 3,
    ZES_PENDING_ACTION_FORCE_UINT32 = 0x7fffffff
} zes_pending_action_t;

/* Actions (zesDevicePciLinkSpeedUpdateExt) */
typedef enum _zes_device_action_t { /* 1.15 */
    ZES_DEVICE_ACTION_NONE = 0,
    ZES_DEVICE_ACTION_WARM_CARD_RESET = 1,
    ZES_DEVICE_ACTION_COLD_CARD_RESET = 2,
    ZES_DEVICE_ACTION_COLD_SYSTEM_REBOOT = 3,
    ZES_DEVICE_ACTION_FORCE_UINT32 = 0x7fffffff
} zes_device_action_t;

/* Memory modules */
typedef enum _zes_mem_type_t {
    ZES_MEM_TYPE_HBM = 0,
    ZES_MEM_TYPE_DDR = 1,
    ZES_MEM_TYPE_DDR3 = 2,
    ZES_MEM_TYPE_DDR4 = 3,
    ZES_MEM_TYPE_DDR5 = 4,
    ZES_MEM_TYPE_LPDDR = 5,
    ZES_MEM_TYPE_LPDDR3 = 6,
    ZES_MEM_TYPE_LPDDR4 = 7,
    ZES_MEM_TYPE_LPDDR5 = 8,
    ZES_MEM_TYPE_SRAM = 9,
    ZES_MEM_TYPE_L1 = 10,
    ZES_MEM_TYPE_L3 = 11,
    ZES_MEM_TYPE_GRF = 12,
    ZES_MEM_TYPE_SLM = 13,
    ZES_MEM_TYPE_GDDR4 = 14,
    ZES_MEM_TYPE_GDDR5 = 15,
    ZES_MEM_TYPE_GDDR5X = 16,
    ZES_MEM_TYPE_GDDR6 = 17,
    ZES_MEM_TYPE_GDDR6X = 18,
    ZES_MEM_TYPE_GDDR7 = 19,
    ZES_MEM_TYPE_FORCE_UINT32 = 0x7fffffff
} zes_mem_type_t;

typedef enum _zes_mem_loc_t {
    ZES_MEM_LOC_SYSTEM = 0,
    ZES_MEM_LOC_DEVICE = 1,
    ZES_MEM_LOC_FORCE_UINT32 = 0x7fffffff
} zes_mem_loc_t;

typedef enum _zes_mem_health_t {
    ZES_MEM_HEALTH_UNKNOWN = 0,
    ZES_MEM_HEALTH_OK = 1,
    ZES_MEM_HEALTH_DEGRADED = 2,
    ZES_MEM_HEALTH_CRITICAL = 3,
    ZES_MEM_HEALTH_REPLACE = 4,
    ZES_MEM_HEALTH_FORCE_UINT32 = 0x7fffffff
} zes_mem_health_t;

typedef struct _zes_mem_properties_t {
    zes_structure_type_t stype;
    void *pNext;
    zes_mem_type_t type;
    ze_bool_t onSubdevice;
    uint32_t subdeviceId;
    zes_mem_loc_t location;
    uint64_t physicalSize;
    int32_t busWidth;
    int32_t numChannels;
} zes_mem_properties_t;

typedef struct _zes_mem_state_t {
    zes_structure_type_t stype;
    const void *pNext;
    zes_mem_health_t health;
    uint64_t free;
    uint64_t size;
} zes_mem_state_t;

typedef struct _zes_mem_bandwidth_t {
    uint64_t readCounter;
    uint64_t writeCounter;
    uint64_t maxBandwidth;
    uint64_t timestamp;
} zes_mem_bandwidth_t;

/* Entry points zemem implements (the loader exports the whole family). */
ZE_APIEXPORT ze_result_t ZE_APICALL zesInit(zes_init_flags_t flags); /* 1.5 */
ZE_APIEXPORT ze_result_t ZE_APICALL zesDriverGet(uint32_t *pCount, zes_driver_handle_t *phDrivers); /* 1.5 */
ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceGet(zes_driver_handle_t hDriver, uint32_t *pCount, zes_device_handle_t *phDevices); /* 1.5 */
ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceGetProperties(zes_device_handle_t hDevice, zes_device_properties_t *pProperties);
ZE_APIEXPORT ze_result_t ZE_APICALL zesDevicePciGetProperties(zes_device_handle_t hDevice, zes_pci_properties_t *pProperties);
ZE_APIEXPORT ze_result_t ZE_APICALL zesDeviceEnumMemoryModules(zes_device_handle_t hDevice, uint32_t *pCount, zes_mem_handle_t *phMemory);
ZE_APIEXPORT ze_result_t ZE_APICALL zesMemoryGetProperties(zes_mem_handle_t hMemory, zes_mem_properties_t *pProperties);
ZE_APIEXPORT ze_result_t ZE_APICALL zesMemoryGetState(zes_mem_handle_t hMemory, zes_mem_state_t *pState);
ZE_APIEXPORT ze_result_t ZE_APICALL zesMemoryGetBandwidth(zes_mem_handle_t hMemory, zes_mem_bandwidth_t *pBandwidth);

#if defined(__cplusplus)
}
#endif

#endif
