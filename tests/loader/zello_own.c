// SPDX-License-Identifier: MIT
/*
 * zello_own: a program shaped like upstream's samples/zello_world (our own
 * code), built against zemem's api/ only, the way such a program is built
 * against an installed Level Zero: one include directory (api/level_zero,
 * the installed include/level_zero) and the same quoted names as the
 * sample ("ze_api.h", "zet_api.h", "loader/ze_loader.h",
 * "layers/zel_tracing_api.h"); no test helper headers, linked with zemem's
 * libze_loader.so.1 only. The build fails if any of them resolves to
 * another copy (the guards checked below are zemem's own).
 *
 * It runs zello_world's steps through zemem's loader over zemem's driver
 * (ZE_ENABLE_ALT_DRIVERS, set by meson) and asserts each result exactly:
 * loader versions, zeInitDrivers, devices, tracing enabled after init, a
 * tracer with prologues and epilogues (zelTracerSetPrologues /
 * SetEpilogues tables and per-call registration), a context, an immediate
 * command list, host and device memory, a copy there and back, an event
 * signalled and waited for, the kernel steps (zeModuleCreate: zemem's
 * driver has no compiler, the loader answers UNSUPPORTED_FEATURE, before
 * any tracer as upstream's tracing layer does, and nothing is left
 * behind), a Tools call, the destroys guarded by
 * zelCheckIsLoaderInTearDown, the tracer destroyed, tracing disabled.
 * Exit 0: every step as expected; 1: the first step that was not.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ze_api.h"
#include "zet_api.h"
#include "loader/ze_loader.h"
#include "layers/zel_tracing_api.h"

#if !defined(ZEMEM_LEVEL_ZERO_ZE_API_H) ||                                     \
	!defined(ZEMEM_LEVEL_ZERO_ZET_API_H) ||                                \
	!defined(ZEMEM_LEVEL_ZERO_ZE_LOADER_H) ||                              \
	!defined(ZEMEM_LEVEL_ZERO_ZEL_TRACING_API_H) ||                        \
	!defined(ZEMEM_LEVEL_ZERO_ZEL_TRACING_REGISTER_CB_H)
#error "a Level Zero header other than zemem's api/ was included"
#endif

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "zello_own:%d: %s\n", __LINE__,        \
				#cond);                                        \
			exit(1);                                               \
		}                                                              \
	} while (0)
#define CHECK_OK(call) CHECK((call) == ZE_RESULT_SUCCESS)

enum { C_CONTEXT, C_HOST, C_DEVICE, C_FREE, C_COPY, C_MODULE, C_N };

struct seen {
	int pro[C_N], epi[C_N];
	ze_result_t last[C_N];
	size_t host_size;
	void *host_ptr;
	size_t copy_size;
	int inst_mismatch;
};

static void
note(void *user, int what, bool epilogue, ze_result_t r, void **inst)
{
	struct seen *s = user;
	if (!epilogue) {
		s->pro[what]++;
		*inst = &s->pro[what]; /* handed to the epilogue */
		return;
	}
	if (*inst != &s->pro[what])
		s->inst_mismatch++;
	s->epi[what]++;
	s->last[what] = r;
}

static void ZE_APICALL
ctx_pro(ze_context_create_params_t *p, ze_result_t r, void *u, void **i)
{
	(void)p;
	note(u, C_CONTEXT, false, r, i);
}

static void ZE_APICALL
ctx_epi(ze_context_create_params_t *p, ze_result_t r, void *u, void **i)
{
	(void)p;
	note(u, C_CONTEXT, true, r, i);
}

static void ZE_APICALL
host_pro(ze_mem_alloc_host_params_t *p, ze_result_t r, void *u, void **i)
{
	((struct seen *)u)->host_size = *p->psize;
	note(u, C_HOST, false, r, i);
}

static void ZE_APICALL
host_epi(ze_mem_alloc_host_params_t *p, ze_result_t r, void *u, void **i)
{
	((struct seen *)u)->host_ptr = **p->ppptr;
	note(u, C_HOST, true, r, i);
}

static void ZE_APICALL
dev_pro(ze_mem_alloc_device_params_t *p, ze_result_t r, void *u, void **i)
{
	(void)p;
	note(u, C_DEVICE, false, r, i);
}

static void ZE_APICALL
dev_epi(ze_mem_alloc_device_params_t *p, ze_result_t r, void *u, void **i)
{
	(void)p;
	note(u, C_DEVICE, true, r, i);
}

static void ZE_APICALL
free_pro(ze_mem_free_params_t *p, ze_result_t r, void *u, void **i)
{
	(void)p;
	note(u, C_FREE, false, r, i);
}

static void ZE_APICALL
free_epi(ze_mem_free_params_t *p, ze_result_t r, void *u, void **i)
{
	(void)p;
	note(u, C_FREE, true, r, i);
}

static void ZE_APICALL
copy_pro(ze_command_list_append_memory_copy_params_t *p, ze_result_t r,
	 void *u, void **i)
{
	((struct seen *)u)->copy_size += *p->psize;
	note(u, C_COPY, false, r, i);
}

static void ZE_APICALL
copy_epi(ze_command_list_append_memory_copy_params_t *p, ze_result_t r,
	 void *u, void **i)
{
	(void)p;
	note(u, C_COPY, true, r, i);
}

static void ZE_APICALL
module_pro(ze_module_create_params_t *p, ze_result_t r, void *u, void **i)
{
	(void)p;
	note(u, C_MODULE, false, r, i);
}

static void ZE_APICALL
module_epi(ze_module_create_params_t *p, ze_result_t r, void *u, void **i)
{
	(void)p;
	note(u, C_MODULE, true, r, i);
}

#define SIZE 4096

int
main(void)
{
	/* Loader services before init. */
	zel_component_version_t v;
	CHECK_OK(zelGetLoaderVersion(&v));
	CHECK(!strcmp(v.component_name, "loader"));
	CHECK(!zelCheckIsLoaderInTearDown());

	/* Init as the sample does (all driver types: zemem's is a CPU
	 * driver), then the loader's components. */
	ze_init_driver_type_desc_t td = {
		ZE_STRUCTURE_TYPE_INIT_DRIVER_TYPE_DESC, NULL, UINT32_MAX
	};
	uint32_t n = 0;
	CHECK_OK(zeInitDrivers(&n, NULL, &td));
	CHECK(n == 1);
	ze_driver_handle_t drv = NULL;
	CHECK_OK(zeInitDrivers(&n, &drv, &td));
	CHECK(n == 1 && drv);
	size_t nv = 0;
	CHECK_OK(zelLoaderGetVersions(&nv, NULL));
	CHECK(nv == 1);
	CHECK_OK(zelLoaderGetVersions(&nv, &v));
	CHECK(!strcmp(v.component_name, "loader"));

	/* Tracing turned on after init (the sample's -tracerun). */
	bool on = true;
	CHECK_OK(zelGetTracingLayerState(&on));
	CHECK(!on);
	CHECK_OK(zelEnableTracingLayer());
	CHECK_OK(zelGetTracingLayerState(&on));
	CHECK(on);

	ze_device_handle_t dev = NULL;
	n = 0;
	CHECK_OK(zeDeviceGet(drv, &n, NULL));
	CHECK(n == 1);
	CHECK_OK(zeDeviceGet(drv, &n, &dev));
	ze_device_properties_t props = {
		.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES
	};
	CHECK_OK(zeDeviceGetProperties(dev, &props));
	CHECK(props.type == ZE_DEVICE_TYPE_CPU);
	ze_api_version_t api = ZE_API_VERSION_1_0;
	CHECK_OK(zeDriverGetApiVersion(drv, &api));
	CHECK(ZE_MAJOR_VERSION(api) == 1);

	/* A tracer: the context and memory callbacks through the tables of
	 * zelTracerSet{Pro,Epi}logues, the copy and module ones registered
	 * one by one. */
	struct seen s;
	memset(&s, 0, sizeof(s));
	zel_tracer_desc_t tdesc = { ZEL_STRUCTURE_TYPE_TRACER_EXP_DESC, NULL,
				    &s };
	zel_tracer_handle_t tracer = NULL;
	CHECK_OK(zelTracerCreate(&tdesc, &tracer));
	CHECK(tracer);
	zel_core_callbacks_t pro, epi;
	memset(&pro, 0, sizeof(pro));
	memset(&epi, 0, sizeof(epi));
	pro.Context.pfnCreateCb = ctx_pro;
	epi.Context.pfnCreateCb = ctx_epi;
	pro.Mem.pfnAllocHostCb = host_pro;
	epi.Mem.pfnAllocHostCb = host_epi;
	pro.Mem.pfnAllocDeviceCb = dev_pro;
	epi.Mem.pfnAllocDeviceCb = dev_epi;
	pro.Mem.pfnFreeCb = free_pro;
	epi.Mem.pfnFreeCb = free_epi;
	CHECK_OK(zelTracerSetPrologues(tracer, &pro));
	CHECK_OK(zelTracerSetEpilogues(tracer, &epi));
	CHECK_OK(zelTracerCommandListAppendMemoryCopyRegisterCallback(
		tracer, ZEL_REGISTER_PROLOGUE, copy_pro));
	CHECK_OK(zelTracerCommandListAppendMemoryCopyRegisterCallback(
		tracer, ZEL_REGISTER_EPILOGUE, copy_epi));
	CHECK_OK(zelTracerModuleCreateRegisterCallback(
		tracer, ZEL_REGISTER_PROLOGUE, module_pro));
	CHECK_OK(zelTracerModuleCreateRegisterCallback(
		tracer, ZEL_REGISTER_EPILOGUE, module_epi));
	CHECK_OK(zelTracerSetEnabled(tracer, 1));

	ze_context_desc_t cdesc = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_context_handle_t ctx = NULL;
	CHECK_OK(zeContextCreate(drv, &cdesc, &ctx));

	ze_command_queue_desc_t qdesc = {
		ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0,
		ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
		ZE_COMMAND_QUEUE_PRIORITY_NORMAL
	};
	ze_command_list_handle_t list = NULL;
	CHECK_OK(zeCommandListCreateImmediate(ctx, dev, &qdesc, &list));

	/* Memory and a copy there and back. */
	ze_host_mem_alloc_desc_t hdesc = {
		ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0
	};
	ze_device_mem_alloc_desc_t ddesc = {
		ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0
	};
	unsigned char *src = NULL, *back = NULL;
	void *dst = NULL;
	CHECK_OK(zeMemAllocHost(ctx, &hdesc, SIZE, 64, (void **)&src));
	CHECK_OK(zeMemAllocHost(ctx, &hdesc, SIZE, 64, (void **)&back));
	CHECK_OK(zeMemAllocDevice(ctx, &ddesc, SIZE, 64, dev, &dst));
	for (int i = 0; i < SIZE; i++) {
		src[i] = (unsigned char)(i * 7 + 1);
		back[i] = 0;
	}
	ze_event_pool_desc_t pdesc = { ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
				       ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1 };
	ze_event_pool_handle_t pool = NULL;
	CHECK_OK(zeEventPoolCreate(ctx, &pdesc, 1, &dev, &pool));
	ze_event_desc_t edesc = { ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0,
				  ZE_EVENT_SCOPE_FLAG_HOST,
				  ZE_EVENT_SCOPE_FLAG_HOST };
	ze_event_handle_t ev = NULL;
	CHECK_OK(zeEventCreate(pool, &edesc, &ev));
	CHECK_OK(zeCommandListAppendMemoryCopy(list, dst, src, SIZE, NULL, 0,
					       NULL));
	CHECK_OK(zeCommandListAppendMemoryCopy(list, back, dst, SIZE, ev, 0,
					       NULL));
	CHECK_OK(zeEventHostSynchronize(ev, UINT64_MAX));
	CHECK(zeEventQueryStatus(ev) == ZE_RESULT_SUCCESS);
	CHECK(!memcmp(src, back, SIZE));

	/* The kernel steps: no compiler in zemem's driver. */
	static const uint32_t il[5] = { 0x07230203u, 0x00010000u, 0, 1, 0 };
	ze_module_desc_t mdesc = { ZE_STRUCTURE_TYPE_MODULE_DESC, NULL,
				   ZE_MODULE_FORMAT_IL_SPIRV, sizeof(il),
				   (const uint8_t *)il, NULL, NULL };
	ze_module_handle_t module = NULL;
	ze_module_build_log_handle_t log = NULL;
	CHECK(zeModuleCreate(ctx, dev, &mdesc, &module, &log) ==
	      ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
	CHECK(!module && !log);

	/* A Tools call: zemem's driver has no metrics. */
	uint32_t groups = 0;
	CHECK(zetMetricGroupGet(dev, &groups, NULL) ==
	      ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);

	/* Destroys, guarded as the sample guards them. */
	CHECK(!zelCheckIsLoaderInTearDown());
	CHECK_OK(zeEventDestroy(ev));
	CHECK_OK(zeEventPoolDestroy(pool));
	CHECK_OK(zeMemFree(ctx, dst));
	CHECK_OK(zeMemFree(ctx, back));
	CHECK_OK(zeMemFree(ctx, src));
	CHECK(!zelCheckIsLoaderInTearDown());
	CHECK_OK(zeCommandListDestroy(list));
	CHECK_OK(zeContextDestroy(ctx));

	/* What the tracer saw: each call once per call, with its result. */
	CHECK(s.pro[C_CONTEXT] == 1 && s.epi[C_CONTEXT] == 1);
	CHECK(s.pro[C_HOST] == 2 && s.epi[C_HOST] == 2);
	CHECK(s.pro[C_DEVICE] == 1 && s.epi[C_DEVICE] == 1);
	CHECK(s.pro[C_FREE] == 3 && s.epi[C_FREE] == 3);
	CHECK(s.pro[C_COPY] == 2 && s.epi[C_COPY] == 2);
	/* A call the driver lacks answers before any tracer, as in
	 * upstream's tracing layer. */
	CHECK(s.pro[C_MODULE] == 0 && s.epi[C_MODULE] == 0);
	for (int i = 0; i < C_MODULE; i++)
		CHECK(s.last[i] == ZE_RESULT_SUCCESS);
	CHECK(s.host_size == SIZE);
	CHECK(s.host_ptr == (void *)back);
	CHECK(s.copy_size == 2 * SIZE);
	CHECK(s.inst_mismatch == 0);

	CHECK_OK(zelTracerDestroy(tracer));
	CHECK(zelTracerDestroy(tracer) == ZE_RESULT_ERROR_INVALID_ARGUMENT);
	CHECK_OK(zelDisableTracingLayer());
	CHECK_OK(zelGetTracingLayerState(&on));
	CHECK(!on);
	/* Untraced again: a call no tracer sees. */
	CHECK_OK(zeContextCreate(drv, &cdesc, &ctx));
	CHECK_OK(zeContextDestroy(ctx));
	CHECK(s.pro[C_CONTEXT] == 1);
	printf("zello_own: every step as expected\n");
	return 0;
}
