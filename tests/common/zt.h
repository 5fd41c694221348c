// SPDX-License-Identifier: MIT
/*
 * zt: loads the zemem driver straight from the build tree (dlopen) and
 * fills its DDI tables, so unit tests call the driver with no loader in
 * between: zt.mem.pfnAllocHost(...).
 */
#ifndef ZEMEM_ZT_H
#define ZEMEM_ZT_H

#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>

struct zt {
	void *dl;
	ze_global_dditable_t global;
	ze_driver_dditable_t driver;
	ze_device_dditable_t device;
	ze_context_dditable_t context;
	ze_mem_dditable_t mem;
	ze_mem_exp_dditable_t mem_exp;
	ze_virtual_mem_dditable_t vmem;
	ze_physical_mem_dditable_t pmem;
	ze_command_queue_dditable_t queue;
	ze_command_list_dditable_t list;
	ze_fence_dditable_t fence;
	ze_event_pool_dditable_t event_pool;
	ze_event_dditable_t event;
	ze_driver_handle_t drv;
	ze_device_handle_t dev;
	ze_context_handle_t ctx;
};

extern struct zt zt;

/* Path of the driver under test: $ZEMEM_TEST_DRIVER, else the build tree's
 * (compiled in as ZEMEM_BUILD_DRIVER). */
const char *zt_driver_path(void);
/* dlopen + getters at `version`; 0 or -1 (message on stderr). */
int zt_load_version(struct zt *t, ze_api_version_t version);
/* zt_load_version(CURRENT) + zeInit(0) + first driver and device in zt;
 * asserts with check. */
void zt_init(void);
/* A new context in zt.ctx. */
void zt_ctx_create(void);
/* zt_init() + zt_ctx_create(). */
void zt_setup(void);
/* zt_setup for a program outside a check test (check's asserts work
 * only inside one: children, benchmarks): 0, or -1 with what failed on
 * stderr. */
int zt_setup_plain(void);
/* Destroys zt.ctx (does not dlclose: the driver stays loaded). */
void zt_teardown(void);
/* Fixture for leak-checked suites: zt_init, leakcheck_begin, context;
 * teardown destroys the context (the last one: the driver gives its caches
 * back), asserts no fd or mapping leaked and every fd the driver made is
 * close-on-exec. */
void zt_checked_setup(void);
void zt_checked_teardown(void);

extern const ze_device_mem_alloc_desc_t zt_ddesc;
extern const ze_host_mem_alloc_desc_t zt_hdesc;

#endif
