/* SPDX-License-Identifier: MIT */
/*
 * zemem: Level Zero runtime API (zer*), written for this project.
 *
 * The runtime calls of Intel's loader 1.32: the description of the last
 * error of the calling thread, a device handle <-> a small identifier, the
 * default context, and the default descriptors a runtime uses. Names,
 * types and values as in that loader. zemem's libze_loader.so.1 routes
 * them to the driver's zerGetGlobalProcAddrTable table; without one they
 * answer "unsupported" (UINT32_MAX, NULL) and zerGetLastErrorDescription
 * says why. Traced by the loader's tracers (layers/zel_tracing_api.h).
 */
#ifndef ZEMEM_LEVEL_ZERO_ZER_API_H
#define ZEMEM_LEVEL_ZERO_ZER_API_H
/* Also claim the upstream guard so mixing include paths cannot redefine. */
#ifndef _ZER_API_H
#define _ZER_API_H
#endif

#include "ze_api.h"

#if defined(__cplusplus)
extern "C" {
#endif

/* Default descriptors: an in-order immediate queue that may offload
 * copies, cached device memory, cached host memory placed first on the
 * host. */
static const ze_command_queue_desc_t zeDefaultGPUImmediateCommandQueueDesc = {
    ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, 0, 0, 0,
    ZE_COMMAND_QUEUE_FLAG_IN_ORDER | ZE_COMMAND_QUEUE_FLAG_COPY_OFFLOAD_HINT,
    ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, ZE_COMMAND_QUEUE_PRIORITY_NORMAL,
};

static const ze_device_mem_alloc_desc_t zeDefaultGPUDeviceMemAllocDesc = {
    ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, 0,
    ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_CACHED, 0,
};

static const ze_host_mem_alloc_desc_t zeDefaultGPUHostMemAllocDesc = {
    ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, 0,
    ZE_HOST_MEM_ALLOC_FLAG_BIAS_CACHED |
        ZE_HOST_MEM_ALLOC_FLAG_BIAS_INITIAL_PLACEMENT,
};

/* *ppString = a description of the last error of this thread ("" when
 * none). */
ZE_APIEXPORT ze_result_t ZE_APICALL
zerGetLastErrorDescription(const char **ppString);

/* The identifier of hDevice; UINT32_MAX on error. */
ZE_APIEXPORT uint32_t ZE_APICALL
zerTranslateDeviceHandleToIdentifier(ze_device_handle_t hDevice);

/* The device named by identifier; NULL on error. */
ZE_APIEXPORT ze_device_handle_t ZE_APICALL
zerTranslateIdentifierToDeviceHandle(uint32_t identifier);

/* The runtime's default context; NULL on error. */
ZE_APIEXPORT ze_context_handle_t ZE_APICALL
zerGetDefaultContext(void);

#if defined(__cplusplus)
} /* extern "C" */
#endif

#endif /* ZEMEM_LEVEL_ZERO_ZER_API_H */
