/* SPDX-License-Identifier: MIT */
/*
 * zemem: loader services of libze_loader.so.1 beyond the ze* API
 * (<level_zero/loader/ze_loader.h>, also reached as <zemem/zel_loader.h>).
 *
 * Same ABI as the loader header of the Level Zero loader (types, values and
 * signatures), so a program written for either loader links with both:
 *   zelLoaderGetVersions      the loader and each layer it chained, with
 *                             their versions;
 *   zelLoaderTranslateHandle  the driver's own handle behind a handle the
 *                             loader gave out (the same handle when only one
 *                             driver is loaded, since then nothing is
 *                             wrapped);
 *   zelGetLoaderVersion       the loader's own version;
 *   teardown                  zelCheckIsLoaderInTearDown, zelSetDriverTeardown,
 *                             zelLoaderContextTeardown,
 *                             zelSetDelayLoaderContextTeardown,
 *                             zelRegisterTeardownCallback;
 *   tracing                   zelEnableTracingLayer, zelDisableTracingLayer,
 *                             zelGetTracingLayerState (the tracers themselves:
 *                             layers/zel_tracing_api.h).
 */
#ifndef ZEMEM_LEVEL_ZERO_ZE_LOADER_H
#define ZEMEM_LEVEL_ZERO_ZE_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../ze_api.h"

#if defined(__cplusplus)
extern "C" {
#endif

/* Types shared with the system's loader header: defined by whichever of
 * the two comes first (this one claims the upstream guard, so the system's
 * is then skipped; the prototypes below match the system's). */
#ifndef _ZE_LOADER_H
#define _ZE_LOADER_H
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

typedef void (*zel_loader_teardown_callback_t)(void);
typedef void (*zel_application_teardown_callback_t)(uint32_t index);
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

/* *version = the loader's name ("loader"), spec and library versions.
 * INVALID_NULL_POINTER when version is NULL. */
ZE_APIEXPORT ze_result_t ZE_APICALL
zelGetLoaderVersion(zel_component_version_t *version);

/* true once the loader is being torn down: zelLoaderContextTeardown or
 * zelSetDriverTeardown was called, or the process is exiting. */
ZE_APIEXPORT bool ZE_APICALL
zelCheckIsLoaderInTearDown(void);

/* For drivers: from now on every entry point answers UNINITIALIZED (the
 * loader stops calling any driver). UNINITIALIZED before zeInit. */
ZE_APIEXPORT ze_result_t ZE_APICALL
zelSetDriverTeardown(void);

/* Runs the teardown callbacks registered (most recent first), then acts as
 * zelSetDriverTeardown. Also done at exit unless delayed. */
ZE_APIEXPORT void ZE_APICALL
zelLoaderContextTeardown(void);

/* The teardown at exit does not run the callbacks: only an explicit
 * zelLoaderContextTeardown does. */
ZE_APIEXPORT void ZE_APICALL
zelSetDelayLoaderContextTeardown(void);

/* Registers application_callback, run once at teardown; *index names it and
 * *loader_callback(index) unregisters it (for an application that tears
 * down first). INVALID_NULL_POINTER; OUT_OF_HOST_MEMORY past 64. */
ZE_APIEXPORT ze_result_t ZE_APICALL
zelRegisterTeardownCallback(
    zel_loader_teardown_callback_t application_callback,
    zel_application_teardown_callback_t *loader_callback, uint32_t *index);

/* Turns the loader's tracing on (counted: each enable needs a disable);
 * enabled tracers then see every call. Before zeInit it takes effect at
 * init. zelDisableTracingLayer with tracing off: SUCCESS, nothing done. */
ZE_APIEXPORT ze_result_t ZE_APICALL
zelEnableTracingLayer(void);

ZE_APIEXPORT ze_result_t ZE_APICALL
zelDisableTracingLayer(void);

/* *enabled = whether tracing is on. INVALID_NULL_POINTER. */
ZE_APIEXPORT ze_result_t ZE_APICALL
zelGetTracingLayerState(bool *enabled);

#if defined(__cplusplus)
} /* extern "C" */
#endif

#endif /* ZEMEM_LEVEL_ZERO_ZE_LOADER_H */
