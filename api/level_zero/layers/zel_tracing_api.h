/* SPDX-License-Identifier: MIT */
/*
 * zemem: the tracer API of libze_loader.so.1
 * (<level_zero/layers/zel_tracing_api.h>, also reached as
 * <zemem/zel_tracing.h>; same names, types, values and ABI as the Level
 * Zero loader's).
 *
 * A tracer holds a prologue and an epilogue per entry point and a user
 * pointer. While tracing is on (zelEnableTracingLayer, or
 * ZE_ENABLE_TRACING_LAYER=1) every enabled tracer's prologue runs before
 * the call and its epilogue after it, with the call's parameters (a record
 * of pointers to them: the prologue may change them) and, for the epilogue,
 * its result. Tracers run in the order they were created. The ze* and zer*
 * calls are traced; the parameter records, callback types and the
 * per-call registration functions are in zel_tracing_register_cb.h
 * (included at the end).
 */
#ifndef ZEMEM_LEVEL_ZERO_ZEL_TRACING_API_H
#define ZEMEM_LEVEL_ZERO_ZEL_TRACING_API_H
/* Also claim the upstream guard so mixing include paths cannot redefine. */
#ifndef _ZEL_TRACING_API_H
#define _ZEL_TRACING_API_H
#endif

#include "../ze_api.h"

#if defined(__cplusplus)
extern "C" {
#endif

typedef struct _zel_tracer_handle_t *zel_tracer_handle_t;

#ifndef ZEL_API_TRACING_NAME
#define ZEL_API_TRACING_NAME "ZEL_api_tracing"
#endif

typedef enum _zel_api_tracing_version_t {
    ZEL_API_TRACING_VERSION_1_0 = ZE_MAKE_VERSION(1, 0),
    ZEL_API_TRACING_VERSION_CURRENT = ZE_MAKE_VERSION(1, 0),
    ZEL_API_TRACING_VERSION_FORCE_UINT32 = 0x7fffffff
} zel_api_tracing_version_t;

/* The prologue (epilogue) table of zelTracerSetPrologues (...Epilogues):
 * ze_callbacks_t, completed in zel_tracing_register_cb.h. */
typedef struct _ze_callbacks_t zel_core_callbacks_t;

typedef enum _zel_structure_type_t {
    ZEL_STRUCTURE_TYPE_TRACER_DESC = 0x1,
    ZEL_STRUCTURE_TYPE_TRACER_EXP_DESC = 0x1, /* the older name */
    ZEL_STRUCTURE_TYPE_FORCE_UINT32 = 0x7fffffff
} zel_structure_type_t;

typedef struct _zel_tracer_desc_t {
    zel_structure_type_t stype;
    const void *pNext;
    void *pUserData; /* passed to each callback of the tracer */
} zel_tracer_desc_t;

/* A new tracer, disabled, with no callbacks. INVALID_NULL_POINTER;
 * UNSUPPORTED_ENUMERATION (stype); OUT_OF_HOST_MEMORY (16 tracers). */
ZE_APIEXPORT ze_result_t ZE_APICALL
zelTracerCreate(const zel_tracer_desc_t *desc, zel_tracer_handle_t *phTracer);

/* Disables and forgets the tracer. INVALID_NULL_HANDLE, INVALID_ARGUMENT. */
ZE_APIEXPORT ze_result_t ZE_APICALL
zelTracerDestroy(zel_tracer_handle_t hTracer);

/* Sets every prologue (epilogue) of ze_callbacks_t's entry points, NULL
 * fields included. */
ZE_APIEXPORT ze_result_t ZE_APICALL
zelTracerSetPrologues(zel_tracer_handle_t hTracer,
                      zel_core_callbacks_t *pCoreCbs);

ZE_APIEXPORT ze_result_t ZE_APICALL
zelTracerSetEpilogues(zel_tracer_handle_t hTracer,
                      zel_core_callbacks_t *pCoreCbs);

ZE_APIEXPORT ze_result_t ZE_APICALL
zelTracerSetEnabled(zel_tracer_handle_t hTracer, ze_bool_t enable);

#if defined(__cplusplus)
} /* extern "C" */
#endif

#include "zel_tracing_register_cb.h"

#endif /* ZEMEM_LEVEL_ZERO_ZEL_TRACING_API_H */
