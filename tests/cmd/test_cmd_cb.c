// SPDX-License-Identifier: MIT
/*
 * test_cmd_cb: counter-based events (zeEventCounterBasedCreate and its
 * companions, driver/cmd/cmd_event_cb.c): creation errors and flags,
 * signalling by immediate-list appends and regular-list executions with
 * no reset between, host synchronize and query, a wait in another list,
 * the refused host signal and resets, timestamps, the device address and
 * the maximum counter value. IPC between processes is in test_cmd_ipc.c.
 */
#include <string.h>

#include "tcmd.h"

#define SZ 4096u

static ze_event_counter_based_desc_t
cb_desc(ze_event_counter_based_flags_t flags)
{
	ze_event_counter_based_desc_t d = {
		ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC, NULL, flags,
		ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST };
	return d;
}

static ze_event_handle_t
cb_event(ze_event_counter_based_flags_t flags)
{
	ze_event_counter_based_desc_t d = cb_desc(flags);
	ze_event_handle_t e = NULL;
	ck_assert_int_eq(zt.event.pfnCounterBasedCreate(zt.ctx, zt.dev, &d,
							&e),
			 ZE_RESULT_SUCCESS);
	return e;
}

START_TEST(test_cb_create_errors_and_flags)
{
	ck_assert_ptr_nonnull(zt.event.pfnCounterBasedCreate);
	ck_assert_ptr_nonnull(zt.event.pfnGetCounterBasedFlags);
	ze_event_counter_based_desc_t d = cb_desc(
		ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE);
	ze_event_handle_t e = NULL;
	ck_assert_int_eq(zt.event.pfnCounterBasedCreate(NULL, zt.dev, &d, &e),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.event.pfnCounterBasedCreate(zt.ctx, NULL, &d, &e),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.event.pfnCounterBasedCreate(zt.ctx, zt.dev, NULL,
							&e),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.event.pfnCounterBasedCreate(zt.ctx, zt.dev, &d,
							NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.event.pfnCounterBasedCreate(
				 (ze_context_handle_t)tc_forged, zt.dev, &d,
				 &e),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	d.stype = ZE_STRUCTURE_TYPE_EVENT_DESC;
	ck_assert_int_eq(zt.event.pfnCounterBasedCreate(zt.ctx, zt.dev, &d,
							&e),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	d = cb_desc(0x80);
	ck_assert_int_eq(zt.event.pfnCounterBasedCreate(zt.ctx, zt.dev, &d,
							&e),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	d = cb_desc(0);
	d.wait = 0x8;
	ck_assert_int_eq(zt.event.pfnCounterBasedCreate(zt.ctx, zt.dev, &d,
							&e),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	d = cb_desc(ZE_EVENT_COUNTER_BASED_FLAG_GRAPH_EXTERNAL);
	ck_assert_int_eq(zt.event.pfnCounterBasedCreate(zt.ctx, zt.dev, &d,
							&e),
			 ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
	d = cb_desc(ZE_EVENT_COUNTER_BASED_FLAG_DEVICE_TIMESTAMP |
		    ZE_EVENT_COUNTER_BASED_FLAG_HOST_TIMESTAMP);
	ck_assert_int_eq(zt.event.pfnCounterBasedCreate(zt.ctx, zt.dev, &d,
							&e),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_null(e);
	ze_event_counter_based_flags_t want =
		ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE |
		ZE_EVENT_COUNTER_BASED_FLAG_NON_IMMEDIATE |
		ZE_EVENT_COUNTER_BASED_FLAG_HOST_VISIBLE;
	e = cb_event(want);
	ze_event_counter_based_flags_t fl = 0;
	ck_assert_int_eq(zt.event.pfnGetCounterBasedFlags(e, &fl),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(fl, want);
	ck_assert_int_eq(zt.event.pfnGetCounterBasedFlags(e, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.event.pfnGetCounterBasedFlags(NULL, &fl),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ze_event_scope_flags_t s = 0;
	ck_assert_int_eq(zt.event.pfnGetSignalScope(e, &s), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(s, ZE_EVENT_SCOPE_FLAG_HOST);
	/* Complete from the start: nothing signals it yet. */
	ck_assert_int_eq(zt.event.pfnQueryStatus(e), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostSynchronize(e, 0), ZE_RESULT_SUCCESS);
	/* An event of a pool is not counter-based. */
	ze_event_pool_handle_t p = tc_pool(0, 1);
	ze_event_handle_t plain = tc_event(p, 0);
	fl = 123;
	ck_assert_int_eq(zt.event.pfnGetCounterBasedFlags(plain, &fl),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(fl, 0);
	ck_assert_int_eq(zt.event.pfnDestroy(plain), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(p), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(e), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(e),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(test_cb_host_signal_and_resets_refused)
{
	ze_event_handle_t e = cb_event(ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE);
	ck_assert_int_eq(zt.event.pfnHostSignal(e),
			 ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
	ck_assert_int_eq(zt.event.pfnHostReset(e),
			 ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
	ze_command_list_handle_t imm = tc_imm(
		ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
	ze_command_list_handle_t reg = tc_list(0);
	ck_assert_int_eq(zt.list.pfnAppendEventReset(imm, e),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.list.pfnAppendEventReset(reg, e),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* Still complete: nothing was armed. */
	ck_assert_int_eq(zt.event.pfnQueryStatus(e), ZE_RESULT_SUCCESS);
	/* Not an IPC event, not an opened one. */
	ze_ipc_event_counter_based_handle_t h;
	ck_assert_int_eq(zt.event.pfnCounterBasedGetIpcHandle(e, &h),
			 ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
	ck_assert_int_eq(zt.event.pfnCounterBasedGetIpcHandle(e, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.event.pfnCounterBasedCloseIpcHandle(e),
			 ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT);
	ze_event_pool_handle_t p = tc_pool(0, 1);
	ze_event_handle_t plain = tc_event(p, 0);
	ck_assert_int_eq(zt.event.pfnCounterBasedGetIpcHandle(plain, &h),
			 ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT);
	uint64_t v, addr;
	ck_assert_int_eq(zt.event.pfnCounterBasedGetDeviceAddress(plain, &v,
								  &addr),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.event.pfnCounterBasedGetDeviceAddress(e, NULL,
								  &addr),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.list.pfnDestroy(imm), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(reg), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(plain), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(p), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(e), ZE_RESULT_SUCCESS);
}
END_TEST

/* Signalled by appends to an immediate list, re-armed by each append
 * without a reset; complete only when the last op that signals it has
 * completed. A host-signalled gate holds the ops back. */
START_TEST(test_cb_immediate_appends_reuse)
{
	ze_command_list_handle_t imm = tc_imm(
		ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
	ze_event_handle_t e = cb_event(ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE |
				       ZE_EVENT_COUNTER_BASED_FLAG_HOST_VISIBLE);
	ze_event_pool_handle_t p = tc_pool(0, 1);
	ze_event_handle_t gate = tc_event(p, 0);
	char *src = tc_alloc(ZE_MEMORY_TYPE_HOST, SZ);
	char *dst = tc_alloc(ZE_MEMORY_TYPE_HOST, SZ);
	uint64_t armed = 0;
	for (unsigned round = 0; round < 3; round++) {
		tc_pattern(src, SZ, round);
		memset(dst, 0, SZ);
		ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(imm, dst, src, SZ,
							     e, 1, &gate),
				 ZE_RESULT_SUCCESS);
		armed++;
		/* A second op signalling it, queued behind the first. */
		ck_assert_int_eq(zt.list.pfnAppendBarrier(imm, e, 0, NULL),
				 ZE_RESULT_SUCCESS);
		armed++;
		ck_assert_int_eq(zt.event.pfnQueryStatus(e),
				 ZE_RESULT_NOT_READY);
		ck_assert_int_eq(zt.event.pfnHostSynchronize(e, 1000000),
				 ZE_RESULT_NOT_READY);
		ck_assert_int_eq(zt.event.pfnHostSignal(gate),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.event.pfnHostSynchronize(e, UINT64_MAX),
				 ZE_RESULT_SUCCESS);
		ck_assert(tc_check_pattern(dst, SZ, round));
		ck_assert_int_eq(zt.event.pfnQueryStatus(e), ZE_RESULT_SUCCESS);
		uint64_t v = 0, addr = 0;
		ck_assert_int_eq(zt.event.pfnCounterBasedGetDeviceAddress(
					 e, &v, &addr),
				 ZE_RESULT_SUCCESS);
		ck_assert_uint_eq(v, armed);
		ck_assert_uint_ne(addr, 0);
		ck_assert_uint_eq(*(volatile uint64_t *)(uintptr_t)addr,
				  armed);
		ck_assert_int_eq(zt.event.pfnHostReset(gate),
				 ZE_RESULT_SUCCESS);
	}
	ck_assert_int_eq(zt.list.pfnDestroy(imm), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(e), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(gate), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(p), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_HOST, src);
	tc_free(ZE_MEMORY_TYPE_HOST, dst);
}
END_TEST

/* A later append in another list waits on it: that list's copy sees the
 * data the first list's copy moved. */
START_TEST(test_cb_wait_in_another_list)
{
	ze_command_list_handle_t a = tc_imm(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
	ze_command_list_handle_t b = tc_imm(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
	ze_event_handle_t e = cb_event(ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE);
	ze_event_pool_handle_t p = tc_pool(0, 1);
	ze_event_handle_t gate = tc_event(p, 0);
	char *src = tc_alloc(ZE_MEMORY_TYPE_HOST, SZ);
	char *mid = tc_alloc(ZE_MEMORY_TYPE_HOST, SZ);
	char *dst = tc_alloc(ZE_MEMORY_TYPE_HOST, SZ);
	for (unsigned round = 0; round < 3; round++) {
		tc_pattern(src, SZ, 7 + round);
		ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(a, mid, src, SZ,
							     e, 1, &gate),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(b, dst, mid, SZ,
							     NULL, 1, &e),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.list.pfnHostSynchronize(b, 1000000),
				 ZE_RESULT_NOT_READY);
		ck_assert_int_eq(zt.event.pfnHostSignal(gate),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.list.pfnHostSynchronize(b, UINT64_MAX),
				 ZE_RESULT_SUCCESS);
		ck_assert(tc_check_pattern(dst, SZ, 7 + round));
		ck_assert_int_eq(zt.list.pfnHostSynchronize(a, UINT64_MAX),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.event.pfnHostReset(gate),
				 ZE_RESULT_SUCCESS);
	}
	ck_assert_int_eq(zt.list.pfnDestroy(a), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(b), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(e), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(gate), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(p), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_HOST, src);
	tc_free(ZE_MEMORY_TYPE_HOST, mid);
	tc_free(ZE_MEMORY_TYPE_HOST, dst);
}
END_TEST

/* A regular list holding an op that signals it: each execution re-arms
 * it; with a timestamp flag the op's start and end can be read. */
START_TEST(test_cb_regular_list_executions_and_timestamps)
{
	ze_command_queue_handle_t q = tc_queue(0,
					       ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
	ze_command_list_handle_t l = tc_list(0);
	ze_event_handle_t e = cb_event(
		ZE_EVENT_COUNTER_BASED_FLAG_NON_IMMEDIATE |
		ZE_EVENT_COUNTER_BASED_FLAG_DEVICE_TIMESTAMP);
	ze_event_handle_t nots = cb_event(
		ZE_EVENT_COUNTER_BASED_FLAG_NON_IMMEDIATE);
	ze_event_pool_handle_t p = tc_pool(0, 1);
	ze_event_handle_t gate = tc_event(p, 0);
	char *src = tc_alloc(ZE_MEMORY_TYPE_HOST, SZ);
	char *dst = tc_alloc(ZE_MEMORY_TYPE_HOST, SZ);
	tc_pattern(src, SZ, 3);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(l, dst, src, SZ, e, 1,
						     &gate),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnAppendSignalEvent(l, nots),
			 ZE_RESULT_SUCCESS);
	/* Recording does not arm it. */
	ck_assert_int_eq(zt.event.pfnQueryStatus(e), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnClose(l), ZE_RESULT_SUCCESS);
	for (int run = 0; run < 3; run++) {
		memset(dst, 0, SZ);
		uint64_t before = tc_now_ns();
		ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(q, 1, &l,
								 NULL),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.event.pfnQueryStatus(e),
				 ZE_RESULT_NOT_READY);
		ck_assert_int_eq(zt.event.pfnQueryStatus(nots),
				 ZE_RESULT_NOT_READY);
		ck_assert_int_eq(zt.event.pfnHostSignal(gate),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.event.pfnHostSynchronize(nots, UINT64_MAX),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.event.pfnQueryStatus(e), ZE_RESULT_SUCCESS);
		ck_assert(tc_check_pattern(dst, SZ, 3));
		ze_kernel_timestamp_result_t ts;
		ck_assert_int_eq(zt.event.pfnQueryKernelTimestamp(e, &ts),
				 ZE_RESULT_SUCCESS);
		ck_assert_uint_ge(ts.global.kernelStart, before);
		ck_assert_uint_ge(ts.global.kernelEnd, ts.global.kernelStart);
		ck_assert_int_eq(zt.queue.pfnSynchronize(q, UINT64_MAX),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.event.pfnHostReset(gate),
				 ZE_RESULT_SUCCESS);
	}
	ze_kernel_timestamp_result_t ts;
	ck_assert_int_eq(zt.event.pfnQueryKernelTimestamp(nots, &ts),
			 ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT);
	ck_assert_int_eq(zt.list.pfnDestroy(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnDestroy(q), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(e), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(nots), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(gate), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(p), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_HOST, src);
	tc_free(ZE_MEMORY_TYPE_HOST, dst);
}
END_TEST

START_TEST(test_cb_max_value_and_same_process_ipc)
{
	uint64_t max = 0;
	ck_assert_ptr_nonnull(zt.device.pfnGetCounterBasedEventMaxValue);
	ck_assert_int_eq(zt.device.pfnGetCounterBasedEventMaxValue(NULL, &max),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.device.pfnGetCounterBasedEventMaxValue(zt.dev,
								   NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.device.pfnGetCounterBasedEventMaxValue(
				 (ze_device_handle_t)tc_forged, &max),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.device.pfnGetCounterBasedEventMaxValue(zt.dev,
								   &max),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(max, UINT64_MAX);
	/* An IPC event opened in its own process: the opened one sees the
	 * exporter's state, may be waited on, not signalled. */
	ze_event_handle_t e = cb_event(ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE |
				       ZE_EVENT_COUNTER_BASED_FLAG_IPC);
	ze_ipc_event_counter_based_handle_t h;
	ck_assert_int_eq(zt.event.pfnCounterBasedGetIpcHandle(e, &h),
			 ZE_RESULT_SUCCESS);
	ze_event_handle_t twin = NULL;
	ck_assert_int_eq(zt.event.pfnCounterBasedOpenIpcHandle(NULL, h, &twin),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.event.pfnCounterBasedOpenIpcHandle(zt.ctx, h,
							       NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.event.pfnCounterBasedOpenIpcHandle(zt.ctx, h,
							       &twin),
			 ZE_RESULT_SUCCESS);
	ze_event_counter_based_flags_t fl = 0;
	ck_assert_int_eq(zt.event.pfnGetCounterBasedFlags(twin, &fl),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(fl, ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE |
				      ZE_EVENT_COUNTER_BASED_FLAG_IPC);
	ck_assert_int_eq(zt.event.pfnQueryStatus(twin), ZE_RESULT_SUCCESS);
	ze_command_list_handle_t imm = tc_imm(
		ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
	ze_event_pool_handle_t p = tc_pool(0, 1);
	ze_event_handle_t gate = tc_event(p, 0);
	ck_assert_int_eq(zt.list.pfnAppendBarrier(imm, e, 1, &gate),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnQueryStatus(twin), ZE_RESULT_NOT_READY);
	ck_assert_int_eq(zt.list.pfnAppendBarrier(imm, twin, 0, NULL),
			 ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
	ck_assert_int_eq(zt.event.pfnHostSignal(gate), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostSynchronize(twin, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	/* A pool's handle is not an event's. */
	ze_event_pool_desc_t pd = { ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
				    ZE_EVENT_POOL_FLAG_IPC, 1 };
	ze_event_pool_handle_t ipool = NULL;
	ck_assert_int_eq(zt.event_pool.pfnCreate(zt.ctx, &pd, 0, NULL, &ipool),
			 ZE_RESULT_SUCCESS);
	ze_ipc_event_pool_handle_t ph;
	ck_assert_int_eq(zt.event_pool.pfnGetIpcHandle(ipool, &ph),
			 ZE_RESULT_SUCCESS);
	ze_ipc_event_counter_based_handle_t bad;
	memcpy(bad.data, ph.data, sizeof(bad.data));
	ze_event_handle_t no = NULL;
	ck_assert_int_eq(zt.event.pfnCounterBasedOpenIpcHandle(zt.ctx, bad,
							       &no),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_null(no);
	ck_assert_int_eq(zt.event_pool.pfnPutIpcHandle(zt.ctx, ph),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(ipool), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnCounterBasedCloseIpcHandle(twin),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnCounterBasedCloseIpcHandle(twin),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.list.pfnDestroy(imm), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(e), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(gate), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(p), ZE_RESULT_SUCCESS);
}
END_TEST

TCase *
tc_case_cb(void)
{
	TCase *tc = tcase_create("cb");
	tcase_add_checked_fixture(tc, tc_setup, tc_teardown);
	tcase_add_test(tc, test_cb_create_errors_and_flags);
	tcase_add_test(tc, test_cb_host_signal_and_resets_refused);
	tcase_add_test(tc, test_cb_immediate_appends_reuse);
	tcase_add_test(tc, test_cb_wait_in_another_list);
	tcase_add_test(tc, test_cb_regular_list_executions_and_timestamps);
	tcase_add_test(tc, test_cb_max_value_and_same_process_ipc);
	return tc;
}
