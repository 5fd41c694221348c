/* SPDX-License-Identifier: MIT */
/*
 * zemem: the API version that added each field of the Sysman DDI tables
 * zemem declares (level_zero/zes_ddi.h).
 *
 * ZES_<TABLE>_DDI_FIELDS(X) expands X(field, major, minor) once per field of
 * zes_<table>_dditable_t, in table order (sorted by version, so the fields
 * present at version V are a prefix).
 */
#ifndef ZEMEM_ZES_DDI_VERSIONS_H
#define ZEMEM_ZES_DDI_VERSIONS_H

#include "level_zero/zes_ddi.h"

#define ZES_GLOBAL_DDI_FIELDS(X) \
    X(pfnInit, 1, 5)

#define ZES_DRIVER_DDI_FIELDS(X) \
    X(pfnEventListen, 1, 0) \
    X(pfnEventListenEx, 1, 1) \
    X(pfnGet, 1, 5) \
    X(pfnGetExtensionProperties, 1, 8) \
    X(pfnGetExtensionFunctionAddress, 1, 8)

#define ZES_DEVICE_DDI_FIELDS(X) \
    X(pfnGetProperties, 1, 0) \
    X(pfnGetState, 1, 0) \
    X(pfnReset, 1, 0) \
    X(pfnProcessesGetState, 1, 0) \
    X(pfnPciGetProperties, 1, 0) \
    X(pfnPciGetState, 1, 0) \
    X(pfnPciGetBars, 1, 0) \
    X(pfnPciGetStats, 1, 0) \
    X(pfnEnumDiagnosticTestSuites, 1, 0) \
    X(pfnEnumEngineGroups, 1, 0) \
    X(pfnEventRegister, 1, 0) \
    X(pfnEnumFabricPorts, 1, 0) \
    X(pfnEnumFans, 1, 0) \
    X(pfnEnumFirmwares, 1, 0) \
    X(pfnEnumFrequencyDomains, 1, 0) \
    X(pfnEnumLeds, 1, 0) \
    X(pfnEnumMemoryModules, 1, 0) \
    X(pfnEnumPerformanceFactorDomains, 1, 0) \
    X(pfnEnumPowerDomains, 1, 0) \
    X(pfnGetCardPowerDomain, 1, 0) \
    X(pfnEnumPsus, 1, 0) \
    X(pfnEnumRasErrorSets, 1, 0) \
    X(pfnEnumSchedulers, 1, 0) \
    X(pfnEnumStandbyDomains, 1, 0) \
    X(pfnEnumTemperatureSensors, 1, 0) \
    X(pfnEccAvailable, 1, 4) \
    X(pfnEccConfigurable, 1, 4) \
    X(pfnGetEccState, 1, 4) \
    X(pfnSetEccState, 1, 4) \
    X(pfnGet, 1, 5) \
    X(pfnSetOverclockWaiver, 1, 5) \
    X(pfnGetOverclockDomains, 1, 5) \
    X(pfnGetOverclockControls, 1, 5) \
    X(pfnResetOverclockSettings, 1, 5) \
    X(pfnReadOverclockState, 1, 5) \
    X(pfnEnumOverclockDomains, 1, 5) \
    X(pfnResetExt, 1, 7) \
    X(pfnPciLinkSpeedUpdateExt, 1, 15)

#define ZES_MEMORY_DDI_FIELDS(X) \
    X(pfnGetProperties, 1, 0) \
    X(pfnGetState, 1, 0) \
    X(pfnGetBandwidth, 1, 0)

#endif
