/* SPDX-License-Identifier: MIT */
/*
 * zemem: loader services of libze_loader.so.1 beyond the ze* API.
 *
 * Same ABI as the loader header of the Level Zero loader (types, values and
 * signatures), so a program written for either loader links with both:
 *   zelLoaderGetVersions      the loader and each layer it chained, with
 *                             their versions;
 *   zelLoaderTranslateHandle  the driver's own handle behind a handle the
 *                             loader gave out (the same handle when only one
 *                             driver is loaded, since then nothing is
 *                             wrapped).
 */
#ifndef ZEMEM_ZEL_LOADER_H
#define ZEMEM_ZEL_LOADER_H

#include <stddef.h>

#include "level_zero/ze_api.h"

#if defined(__cplusplus)
extern "C" {
#endif

/* Types shared with the system's loader header: define them only once. */
#ifndef _ZE_LOADER_H
typedef struct _zel_version {
    int major;
    int minor;
    int patch;
} zel_version_t;

#define ZEL_COMPONENT_STRING_SIZE 64

typedef struct zel_component_version {
    char component_name[ZEL_COMPONENT_STRING_SIZE];
    ze_api_version_t spec_version;
    zel_version_t component_lib_version;
} zel_component_version_t;

typedef enum _zel_handle_type_t {
    ZEL_HANDLE_DRIVER,
    ZEL_HANDLE_DEVICE,
    ZEL_HANDLE_CONTEXT,
    ZEL_HANDLE_COMMAND_QUEUE,
    ZEL_HANDLE_COMMAND_LIST,
    ZEL_HANDLE_FENCE,
    ZEL_HANDLE_EVENT_POOL,
    ZEL_HANDLE_EVENT,
    ZEL_HANDLE_IMAGE,
    ZEL_HANDLE_MODULE,
    ZEL_HANDLE_MODULE_BUILD_LOG,
    ZEL_HANDLE_KERNEL,
    ZEL_HANDLE_SAMPLER,
    ZEL_HANDLE_PHYSICAL_MEM
} zel_handle_type_t;
#endif

/* With versions NULL: *num_elems = number of components. Otherwise fills
 * up to *num_elems entries ("loader" first, then each layer) and sets
 * *num_elems to the number written. */
ZE_APIEXPORT ze_result_t ZE_APICALL
zelLoaderGetVersions(size_t *num_elems, zel_component_version_t *versions);

/* *handleOut = the driver's handle behind handleIn. Results: SUCCESS;
 * UNINITIALIZED before zeInit / zeInitDrivers succeeded; INVALID_NULL_HANDLE;
 * INVALID_NULL_POINTER; INVALID_ENUMERATION (unknown type); INVALID_ARGUMENT
 * (several drivers, and handleIn is not a live loader handle of that type). */
ZE_APIEXPORT ze_result_t ZE_APICALL
zelLoaderTranslateHandle(zel_handle_type_t handleType, void *handleIn,
                         void **handleOut);

#if defined(__cplusplus)
} /* extern "C" */
#endif

#endif /* ZEMEM_ZEL_LOADER_H */
