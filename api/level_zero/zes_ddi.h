/* SPDX-License-Identifier: MIT */
/*
 * zemem: Level Zero Sysman (zes) DDI tables zemem's driver fills: Global,
 * Driver, Device and Memory, spec 1.18.
 *
 * Field order is ABI. Fields are sorted by the API version that added them
 * (shown in each comment); a getter called with version V fills only the
 * fields added at or before V. zemem/zes_ddi_versions.h lists the same
 * fields as X-macros. The other zes getters (Scheduler, Power, ...) take
 * tables this header does not declare.
 */
#ifndef ZEMEM_LEVEL_ZERO_ZES_DDI_H
#define ZEMEM_LEVEL_ZERO_ZES_DDI_H
#ifndef _ZES_DDI_H
#define _ZES_DDI_H
#endif

#include "zes_api.h"

#if defined(__cplusplus)
extern "C" {
#endif

typedef ze_result_t (ZE_APICALL *zes_pfnInit_t)(zes_init_flags_t flags);

/* Global */
typedef struct _zes_global_dditable_t {
    zes_pfnInit_t pfnInit; /* 1.5 */
} zes_global_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zesGetGlobalProcAddrTable(ze_api_version_t version, zes_global_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *zes_pfnGetGlobalProcAddrTable_t)(ze_api_version_t version, zes_global_dditable_t *pDdiTable);

typedef ze_result_t (ZE_APICALL *zes_pfnDriverEventListen_t)(ze_driver_handle_t hDriver, uint32_t timeout, uint32_t count, zes_device_handle_t *phDevices, uint32_t *pNumDeviceEvents, zes_event_type_flags_t *pEvents);
typedef ze_result_t (ZE_APICALL *zes_pfnDriverEventListenEx_t)(ze_driver_handle_t hDriver, uint64_t timeout, uint32_t count, zes_device_handle_t *phDevices, uint32_t *pNumDeviceEvents, zes_event_type_flags_t *pEvents);
typedef ze_result_t (ZE_APICALL *zes_pfnDriverGet_t)(uint32_t *pCount, zes_driver_handle_t *phDrivers);
typedef ze_result_t (ZE_APICALL *zes_pfnDriverGetExtensionProperties_t)(zes_driver_handle_t hDriver, uint32_t *pCount, zes_driver_extension_properties_t *pExtensionProperties);
typedef ze_result_t (ZE_APICALL *zes_pfnDriverGetExtensionFunctionAddress_t)(zes_driver_handle_t hDriver, const char *name, void **ppFunctionAddress);

/* Driver */
typedef struct _zes_driver_dditable_t {
    zes_pfnDriverEventListen_t                 pfnEventListen;                 /* 1.0 */
    zes_pfnDriverEventListenEx_t               pfnEventListenEx;               /* 1.1 */
    zes_pfnDriverGet_t                         pfnGet;                         /* 1.5 */
    zes_pfnDriverGetExtensionProperties_t      pfnGetExtensionProperties;      /* 1.8 */
    zes_pfnDriverGetExtensionFunctionAddress_t pfnGetExtensionFunctionAddress; /* 1.8 */
} zes_driver_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zesGetDriverProcAddrTable(ze_api_version_t version, zes_driver_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *zes_pfnGetDriverProcAddrTable_t)(ze_api_version_t version, zes_driver_dditable_t *pDdiTable);

typedef ze_result_t (ZE_APICALL *zes_pfnDeviceGetProperties_t)(zes_device_handle_t hDevice, zes_device_properties_t *pProperties);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceGetState_t)(zes_device_handle_t hDevice, zes_device_state_t *pState);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceReset_t)(zes_device_handle_t hDevice, ze_bool_t force);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceProcessesGetState_t)(zes_device_handle_t hDevice, uint32_t *pCount, zes_process_state_t *pProcesses);
typedef ze_result_t (ZE_APICALL *zes_pfnDevicePciGetProperties_t)(zes_device_handle_t hDevice, zes_pci_properties_t *pProperties);
typedef ze_result_t (ZE_APICALL *zes_pfnDevicePciGetState_t)(zes_device_handle_t hDevice, zes_pci_state_t *pState);
typedef ze_result_t (ZE_APICALL *zes_pfnDevicePciGetBars_t)(zes_device_handle_t hDevice, uint32_t *pCount, zes_pci_bar_properties_t *pProperties);
typedef ze_result_t (ZE_APICALL *zes_pfnDevicePciGetStats_t)(zes_device_handle_t hDevice, zes_pci_stats_t *pStats);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceEnumDiagnosticTestSuites_t)(zes_device_handle_t hDevice, uint32_t *pCount, zes_diag_handle_t *phDiagnostics);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceEnumEngineGroups_t)(zes_device_handle_t hDevice, uint32_t *pCount, zes_engine_handle_t *phEngine);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceEventRegister_t)(zes_device_handle_t hDevice, zes_event_type_flags_t events);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceEnumFabricPorts_t)(zes_device_handle_t hDevice, uint32_t *pCount, zes_fabric_port_handle_t *phPort);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceEnumFans_t)(zes_device_handle_t hDevice, uint32_t *pCount, zes_fan_handle_t *phFan);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceEnumFirmwares_t)(zes_device_handle_t hDevice, uint32_t *pCount, zes_firmware_handle_t *phFirmware);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceEnumFrequencyDomains_t)(zes_device_handle_t hDevice, uint32_t *pCount, zes_freq_handle_t *phFrequency);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceEnumLeds_t)(zes_device_handle_t hDevice, uint32_t *pCount, zes_led_handle_t *phLed);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceEnumMemoryModules_t)(zes_device_handle_t hDevice, uint32_t *pCount, zes_mem_handle_t *phMemory);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceEnumPerformanceFactorDomains_t)(zes_device_handle_t hDevice, uint32_t *pCount, zes_perf_handle_t *phPerf);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceEnumPowerDomains_t)(zes_device_handle_t hDevice, uint32_t *pCount, zes_pwr_handle_t *phPower);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceGetCardPowerDomain_t)(zes_device_handle_t hDevice, zes_pwr_handle_t *phPower);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceEnumPsus_t)(zes_device_handle_t hDevice, uint32_t *pCount, zes_psu_handle_t *phPsu);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceEnumRasErrorSets_t)(zes_device_handle_t hDevice, uint32_t *pCount, zes_ras_handle_t *phRas);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceEnumSchedulers_t)(zes_device_handle_t hDevice, uint32_t *pCount, zes_sched_handle_t *phScheduler);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceEnumStandbyDomains_t)(zes_device_handle_t hDevice, uint32_t *pCount, zes_standby_handle_t *phStandby);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceEnumTemperatureSensors_t)(zes_device_handle_t hDevice, uint32_t *pCount, zes_temp_handle_t *phTemperature);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceEccAvailable_t)(zes_device_handle_t hDevice, ze_bool_t *pAvailable);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceEccConfigurable_t)(zes_device_handle_t hDevice, ze_bool_t *pConfigurable);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceGetEccState_t)(zes_device_handle_t hDevice, zes_device_ecc_properties_t *pState);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceSetEccState_t)(zes_device_handle_t hDevice, const zes_device_ecc_desc_t *newState, zes_device_ecc_properties_t *pState);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceGet_t)(zes_driver_handle_t hDriver, uint32_t *pCount, zes_device_handle_t *phDevices);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceSetOverclockWaiver_t)(zes_device_handle_t hDevice);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceGetOverclockDomains_t)(zes_device_handle_t hDevice, uint32_t *pOverclockDomains);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceGetOverclockControls_t)(zes_device_handle_t hDevice, zes_overclock_domain_t domainType, uint32_t *pAvailableControls);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceResetOverclockSettings_t)(zes_device_handle_t hDevice, ze_bool_t onShippedState);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceReadOverclockState_t)(zes_device_handle_t hDevice, zes_overclock_mode_t *pOverclockMode, ze_bool_t *pWaiverSetting, ze_bool_t *pOverclockState, zes_pending_action_t *pPendingAction, ze_bool_t *pPendingReset);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceEnumOverclockDomains_t)(zes_device_handle_t hDevice, uint32_t *pCount, zes_overclock_handle_t *phDomainHandle);
typedef ze_result_t (ZE_APICALL *zes_pfnDeviceResetExt_t)(zes_device_handle_t hDevice, zes_reset_properties_t *pProperties);
typedef ze_result_t (ZE_APICALL *zes_pfnDevicePciLinkSpeedUpdateExt_t)(zes_device_handle_t hDevice, ze_bool_t shouldDowngrade, zes_device_action_t *pendingAction);

/* Device */
typedef struct _zes_device_dditable_t {
    zes_pfnDeviceGetProperties_t                pfnGetProperties;                /* 1.0 */
    zes_pfnDeviceGetState_t                     pfnGetState;                     /* 1.0 */
    zes_pfnDeviceReset_t                        pfnReset;                        /* 1.0 */
    zes_pfnDeviceProcessesGetState_t            pfnProcessesGetState;            /* 1.0 */
    zes_pfnDevicePciGetProperties_t             pfnPciGetProperties;             /* 1.0 */
    zes_pfnDevicePciGetState_t                  pfnPciGetState;                  /* 1.0 */
    zes_pfnDevicePciGetBars_t                   pfnPciGetBars;                   /* 1.0 */
    zes_pfnDevicePciGetStats_t                  pfnPciGetStats;                  /* 1.0 */
    zes_pfnDeviceEnumDiagnosticTestSuites_t     pfnEnumDiagnosticTestSuites;     /* 1.0 */
    zes_pfnDeviceEnumEngineGroups_t             pfnEnumEngineGroups;             /* 1.0 */
    zes_pfnDeviceEventRegister_t                pfnEventRegister;                /* 1.0 */
    zes_pfnDeviceEnumFabricPorts_t              pfnEnumFabricPorts;              /* 1.0 */
    zes_pfnDeviceEnumFans_t                     pfnEnumFans;                     /* 1.0 */
    zes_pfnDeviceEnumFirmwares_t                pfnEnumFirmwares;                /* 1.0 */
    zes_pfnDeviceEnumFrequencyDomains_t         pfnEnumFrequencyDomains;         /* 1.0 */
    zes_pfnDeviceEnumLeds_t                     pfnEnumLeds;                     /* 1.0 */
    zes_pfnDeviceEnumMemoryModules_t            pfnEnumMemoryModules;            /* 1.0 */
    zes_pfnDeviceEnumPerformanceFactorDomains_t pfnEnumPerformanceFactorDomains; /* 1.0 */
    zes_pfnDeviceEnumPowerDomains_t             pfnEnumPowerDomains;             /* 1.0 */
    zes_pfnDeviceGetCardPowerDomain_t           pfnGetCardPowerDomain;           /* 1.0 */
    zes_pfnDeviceEnumPsus_t                     pfnEnumPsus;                     /* 1.0 */
    zes_pfnDeviceEnumRasErrorSets_t             pfnEnumRasErrorSets;             /* 1.0 */
    zes_pfnDeviceEnumSchedulers_t               pfnEnumSchedulers;               /* 1.0 */
    zes_pfnDeviceEnumStandbyDomains_t           pfnEnumStandbyDomains;           /* 1.0 */
    zes_pfnDeviceEnumTemperatureSensors_t       pfnEnumTemperatureSensors;       /* 1.0 */
    zes_pfnDeviceEccAvailable_t                 pfnEccAvailable;                 /* 1.4 */
    zes_pfnDeviceEccConfigurable_t              pfnEccConfigurable;              /* 1.4 */
    zes_pfnDeviceGetEccState_t                  pfnGetEccState;                  /* 1.4 */
    zes_pfnDeviceSetEccState_t                  pfnSetEccState;                  /* 1.4 */
    zes_pfnDeviceGet_t                          pfnGet;                          /* 1.5 */
    zes_pfnDeviceSetOverclockWaiver_t           pfnSetOverclockWaiver;           /* 1.5 */
    zes_pfnDeviceGetOverclockDomains_t          pfnGetOverclockDomains;          /* 1.5 */
    zes_pfnDeviceGetOverclockControls_t         pfnGetOverclockControls;         /* 1.5 */
    zes_pfnDeviceResetOverclockSettings_t       pfnResetOverclockSettings;       /* 1.5 */
    zes_pfnDeviceReadOverclockState_t           pfnReadOverclockState;           /* 1.5 */
    zes_pfnDeviceEnumOverclockDomains_t         pfnEnumOverclockDomains;         /* 1.5 */
    zes_pfnDeviceResetExt_t                     pfnResetExt;                     /* 1.7 */
    zes_pfnDevicePciLinkSpeedUpdateExt_t        pfnPciLinkSpeedUpdateExt;        /* 1.15 */
} zes_device_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zesGetDeviceProcAddrTable(ze_api_version_t version, zes_device_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *zes_pfnGetDeviceProcAddrTable_t)(ze_api_version_t version, zes_device_dditable_t *pDdiTable);

typedef ze_result_t (ZE_APICALL *zes_pfnMemoryGetProperties_t)(zes_mem_handle_t hMemory, zes_mem_properties_t *pProperties);
typedef ze_result_t (ZE_APICALL *zes_pfnMemoryGetState_t)(zes_mem_handle_t hMemory, zes_mem_state_t *pState);
typedef ze_result_t (ZE_APICALL *zes_pfnMemoryGetBandwidth_t)(zes_mem_handle_t hMemory, zes_mem_bandwidth_t *pBandwidth);

/* Memory */
typedef struct _zes_memory_dditable_t {
    zes_pfnMemoryGetProperties_t pfnGetProperties; /* 1.0 */
    zes_pfnMemoryGetState_t      pfnGetState;      /* 1.0 */
    zes_pfnMemoryGetBandwidth_t  pfnGetBandwidth;  /* 1.0 */
} zes_memory_dditable_t;
ZE_DLLEXPORT ze_result_t ZE_APICALL zesGetMemoryProcAddrTable(ze_api_version_t version, zes_memory_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *zes_pfnGetMemoryProcAddrTable_t)(ze_api_version_t version, zes_memory_dditable_t *pDdiTable);
#if defined(__cplusplus)
}
#endif

#endif
