// SPDX-License-Identifier: MIT
/*
 * zt: direct driver loading for unit tests (see zt.h).
 */
#include "zt.h"
#include "leakcheck.h"

#include <check.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

struct zt zt;

const ze_device_mem_alloc_desc_t zt_ddesc = {
	ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0
};
const ze_host_mem_alloc_desc_t zt_hdesc = {
	ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0
};

const char *
zt_driver_path(void)
{
	const char *p = getenv("ZEMEM_TEST_DRIVER");
	return p && *p ? p : ZEMEM_BUILD_DRIVER;
}

#define GET(t, sym, field)                                                  \
	do {                                                                \
		ze_result_t (*fn)(ze_api_version_t, void *) =               \
			(ze_result_t(*)(ze_api_version_t, void *))dlsym(    \
				(t)->dl, sym);                              \
		if (!fn || fn(version, &(t)->field)) {                      \
			fprintf(stderr, "zt: %s failed\n", sym);            \
			return -1;                                          \
		}                                                           \
	} while (0)

int
zt_load_version(struct zt *t, ze_api_version_t version)
{
	t->dl = dlopen(zt_driver_path(), RTLD_NOW | RTLD_LOCAL);
	if (!t->dl) {
		fprintf(stderr, "zt: dlopen %s: %s\n", zt_driver_path(),
			dlerror());
		return -1;
	}
	GET(t, "zeGetGlobalProcAddrTable", global);
	GET(t, "zeGetDriverProcAddrTable", driver);
	GET(t, "zeGetDeviceProcAddrTable", device);
	GET(t, "zeGetContextProcAddrTable", context);
	GET(t, "zeGetMemProcAddrTable", mem);
	GET(t, "zeGetMemExpProcAddrTable", mem_exp);
	GET(t, "zeGetVirtualMemProcAddrTable", vmem);
	GET(t, "zeGetPhysicalMemProcAddrTable", pmem);
	GET(t, "zeGetCommandQueueProcAddrTable", queue);
	GET(t, "zeGetCommandListProcAddrTable", list);
	GET(t, "zeGetFenceProcAddrTable", fence);
	GET(t, "zeGetEventPoolProcAddrTable", event_pool);
	GET(t, "zeGetEventProcAddrTable", event);
	return 0;
}

void
zt_init(void)
{
	ck_assert_int_eq(zt_load_version(&zt, ZE_API_VERSION_CURRENT), 0);
	ck_assert_int_eq(zt.global.pfnInit(0), ZE_RESULT_SUCCESS);
	uint32_t n = 1;
	ck_assert_int_eq(zt.driver.pfnGet(&n, &zt.drv), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 1);
	n = 1;
	ck_assert_int_eq(zt.device.pfnGet(zt.drv, &n, &zt.dev),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 1);
}

void
zt_ctx_create(void)
{
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ck_assert_int_eq(zt.context.pfnCreate(zt.drv, &cd, &zt.ctx),
			 ZE_RESULT_SUCCESS);
}

void
zt_setup(void)
{
	zt_init();
	zt_ctx_create();
}

/* zt_setup_plain's steps: on a failure, say which on stderr. */
#define ZT_STEP(expr)                                                       \
	do {                                                                \
		ze_result_t r_ = (expr);                                    \
		if (r_) {                                                   \
			fprintf(stderr, "zt: %s = 0x%x\n", #expr, r_);      \
			return -1;                                          \
		}                                                           \
	} while (0)

int
zt_setup_plain(void)
{
	uint32_t n = 1;
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	if (zt_load_version(&zt, ZE_API_VERSION_CURRENT))
		return -1;
	ZT_STEP(zt.global.pfnInit(0));
	ZT_STEP(zt.driver.pfnGet(&n, &zt.drv));
	n = 1;
	ZT_STEP(zt.device.pfnGet(zt.drv, &n, &zt.dev));
	ZT_STEP(zt.context.pfnCreate(zt.drv, &cd, &zt.ctx));
	return 0;
}

static struct leakcheck zt_lc;

void
zt_checked_setup(void)
{
	zt_init();
	leakcheck_begin(&zt_lc);
	zt_ctx_create();
}

void
zt_checked_teardown(void)
{
	leakcheck_assert_all_cloexec();
	zt_teardown();
	leakcheck_end(&zt_lc);
}

void
zt_teardown(void)
{
	ck_assert_int_eq(zt.context.pfnDestroy(zt.ctx), ZE_RESULT_SUCCESS);
	zt.ctx = NULL;
}
