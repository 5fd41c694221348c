/* SPDX-License-Identifier: MIT */
/*
 * zemem: Level Zero runtime API DDI table (zer*), written for this project:
 * the one table of zer_api.h's entry points and its getter (exported by
 * libze_loader.so.1; a driver may export its own). Layout as in Intel's
 * loader 1.32.
 */
#ifndef ZEMEM_LEVEL_ZERO_ZER_DDI_H
#define ZEMEM_LEVEL_ZERO_ZER_DDI_H
/* Also claim the upstream guard so mixing include paths cannot redefine. */
#ifndef _ZER_DDI_H
#define _ZER_DDI_H
#endif

#include "zer_api.h"

#if defined(__cplusplus)
extern "C" {
#endif

typedef ze_result_t (ZE_APICALL *zer_pfnGetLastErrorDescription_t)(
    const char **);
typedef uint32_t (ZE_APICALL *zer_pfnTranslateDeviceHandleToIdentifier_t)(
    ze_device_handle_t);
typedef ze_device_handle_t
    (ZE_APICALL *zer_pfnTranslateIdentifierToDeviceHandle_t)(uint32_t);
typedef ze_context_handle_t (ZE_APICALL *zer_pfnGetDefaultContext_t)(void);

typedef struct _zer_global_dditable_t {
    zer_pfnGetLastErrorDescription_t pfnGetLastErrorDescription;
    zer_pfnTranslateDeviceHandleToIdentifier_t
        pfnTranslateDeviceHandleToIdentifier;
    zer_pfnTranslateIdentifierToDeviceHandle_t
        pfnTranslateIdentifierToDeviceHandle;
    zer_pfnGetDefaultContext_t pfnGetDefaultContext;
} zer_global_dditable_t;

ZE_DLLEXPORT ze_result_t ZE_APICALL
zerGetGlobalProcAddrTable(ze_api_version_t version,
                          zer_global_dditable_t *pDdiTable);
typedef ze_result_t (ZE_APICALL *zer_pfnGetGlobalProcAddrTable_t)(
    ze_api_version_t, zer_global_dditable_t *);

/* Every table (one so far). */
typedef struct _zer_dditable_t {
    zer_global_dditable_t Global;
} zer_dditable_t;

/* A driver's tables as a loader keeps them. */
typedef struct _zer_dditable_driver_t {
    ze_api_version_t version;
    uint8_t isValidFlag;
    zer_global_dditable_t *Global;
} zer_dditable_driver_t;

#if defined(__cplusplus)
} /* extern "C" */
#endif

#endif /* ZEMEM_LEVEL_ZERO_ZER_DDI_H */
