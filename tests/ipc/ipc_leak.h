// SPDX-License-Identifier: MIT
/*
 * ipc_leak: the fixture of the IPC suites, on top of zt.h and leakcheck.h
 * (which compares every fd, and every mapping or, under a sanitizer, every
 * shared mapping).
 *
 * Like zt_checked_setup, after one export and one pooled host allocation in
 * a context of their own: the broker thread and its socket live from then
 * to the end of the process, and the last context's destroy gives usm's
 * caches back, so the baseline taken after that is what a test must leave.
 */
#ifndef ZEMEM_IPC_LEAK_H
#define ZEMEM_IPC_LEAK_H

#include <check.h>
#include <signal.h>

#include "leakcheck.h"
#include "zt.h"

static struct leakcheck ipc_lc;

static inline void
ipc_fixture_setup(void)
{
	void *p;
	ze_ipc_mem_handle_t h;
	signal(SIGPIPE, SIG_IGN); /* a killed peer must not kill the test */
	zt_setup();
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, 4096, 0,
					       zt.dev, &p), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, p, &h),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnAllocHost(zt.ctx, &zt_hdesc, 64, 0, &p),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), ZE_RESULT_SUCCESS);
	zt_teardown();
	leakcheck_begin(&ipc_lc);
	zt_ctx_create();
}

static inline void
ipc_fixture_teardown(void)
{
	leakcheck_assert_all_cloexec();
	zt_teardown();
	leakcheck_end(&ipc_lc);
}

#endif
