// SPDX-License-Identifier: MIT
/*
 * test_cmd_event: event pools and events: error codes, host signal /
 * synchronize / query / reset, timeouts, kernel and global timestamps,
 * and events signalled, waited on and reset by the device (a queue's
 * worker).
 */
#include <string.h>

#include "tcmd.h"

START_TEST(test_pool_create_errors)
{
	ze_event_pool_desc_t d = { ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
				   0, 4 };
	ze_event_pool_handle_t p = NULL;
	ze_device_handle_t devs[2] = { zt.dev, NULL };
	ck_assert_int_eq(zt.event_pool.pfnCreate(NULL, &d, 0, NULL, &p),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.event_pool.pfnCreate(zt.ctx, NULL, 0, NULL, &p),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.event_pool.pfnCreate(zt.ctx, &d, 0, NULL, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.event_pool.pfnCreate((ze_context_handle_t)tc_forged,
						 &d, 0, NULL, &p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	d.stype = ZE_STRUCTURE_TYPE_EVENT_DESC;
	ck_assert_int_eq(zt.event_pool.pfnCreate(zt.ctx, &d, 0, NULL, &p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	d.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC;
	d.flags = 0x10;
	ck_assert_int_eq(zt.event_pool.pfnCreate(zt.ctx, &d, 0, NULL, &p),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	d.flags = 0;
	d.count = 0;
	ck_assert_int_eq(zt.event_pool.pfnCreate(zt.ctx, &d, 0, NULL, &p),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	d.count = 4;
	ck_assert_int_eq(zt.event_pool.pfnCreate(zt.ctx, &d, 1, NULL, &p),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	ck_assert_int_eq(zt.event_pool.pfnCreate(zt.ctx, &d, 2, devs, &p),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	devs[1] = (ze_device_handle_t)tc_forged;
	ck_assert_int_eq(zt.event_pool.pfnCreate(zt.ctx, &d, 2, devs, &p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_null(p);
	ck_assert_int_eq(zt.event_pool.pfnCreate(zt.ctx, &d, 1, devs, &p),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(p), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_pool_destroy_in_use_and_getters)
{
	ze_event_pool_handle_t p = tc_pool(ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP,
					   2);
	ze_event_handle_t e = tc_event(p, 1);
	ze_context_handle_t c;
	ze_event_pool_flags_t fl;
	ze_event_pool_handle_t back;
	ck_assert_int_eq(zt.event_pool.pfnGetContextHandle(p, &c),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(c, zt.ctx);
	ck_assert_int_eq(zt.event_pool.pfnGetFlags(p, &fl), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(fl, ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP);
	ck_assert_int_eq(zt.event.pfnGetEventPool(e, &back),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(back, p);
	ze_event_scope_flags_t s;
	ck_assert_int_eq(zt.event.pfnGetSignalScope(e, &s), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(s, ZE_EVENT_SCOPE_FLAG_HOST);
	ck_assert_int_eq(zt.event.pfnGetWaitScope(e, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(p),
			 ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
	ck_assert_int_eq(zt.event.pfnDestroy(e), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(e),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(p), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.event_pool.pfnGetFlags(p, &fl),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(test_event_create_errors)
{
	ze_event_pool_handle_t p = tc_pool(0, 2);
	ze_event_desc_t d = { ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0, 0, 0 };
	ze_event_handle_t e = NULL, e0;
	ck_assert_int_eq(zt.event.pfnCreate(NULL, &d, &e),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.event.pfnCreate(p, NULL, &e),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.event.pfnCreate(p, &d, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.event.pfnCreate((ze_event_pool_handle_t)tc_forged,
					    &d, &e),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	d.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC;
	ck_assert_int_eq(zt.event.pfnCreate(p, &d, &e),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	d.stype = ZE_STRUCTURE_TYPE_EVENT_DESC;
	d.signal = 0x8;
	ck_assert_int_eq(zt.event.pfnCreate(p, &d, &e),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	d.signal = 0;
	d.wait = 0x10;
	ck_assert_int_eq(zt.event.pfnCreate(p, &d, &e),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	d.wait = 0;
	d.index = 2;
	ck_assert_int_eq(zt.event.pfnCreate(p, &d, &e),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_null(e);
	d.index = 0;
	ck_assert_int_eq(zt.event.pfnCreate(p, &d, &e0), ZE_RESULT_SUCCESS);
	/* The index is taken until that event is destroyed. */
	ck_assert_int_eq(zt.event.pfnCreate(p, &d, &e),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.event.pfnDestroy(e0), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnCreate(p, &d, &e), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(e), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(p), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_event_host_calls)
{
	ze_event_pool_handle_t p = tc_pool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1);
	ze_event_handle_t e = tc_event(p, 0);
	ze_event_handle_t forged = (ze_event_handle_t)tc_forged;
	ck_assert_int_eq(zt.event.pfnHostSignal(NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.event.pfnHostSignal(forged),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.event.pfnQueryStatus(NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.event.pfnHostReset(forged),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.event.pfnHostSynchronize(NULL, 0),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.event.pfnQueryStatus(e), ZE_RESULT_NOT_READY);
	ck_assert_int_eq(zt.event.pfnHostSynchronize(e, 0),
			 ZE_RESULT_NOT_READY);
	uint64_t t0 = tc_now_ns();
	ck_assert_int_eq(zt.event.pfnHostSynchronize(e, 10000000),
			 ZE_RESULT_NOT_READY);
	ck_assert_uint_ge(tc_now_ns() - t0, 10000000);
	ck_assert_int_eq(zt.event.pfnHostSignal(e), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnQueryStatus(e), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostSynchronize(e, 0), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostSynchronize(e, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostReset(e), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnQueryStatus(e), ZE_RESULT_NOT_READY);
	ck_assert_int_eq(zt.event.pfnDestroy(e), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnQueryStatus(e),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(p), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_event_kernel_timestamp)
{
	ze_event_pool_handle_t tp =
		tc_pool(ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP |
				ZE_EVENT_POOL_FLAG_HOST_VISIBLE,
			1);
	ze_event_pool_handle_t pp = tc_pool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1);
	ze_event_handle_t te = tc_event(tp, 0), pe = tc_event(pp, 0);
	ze_kernel_timestamp_result_t ts;
	ck_assert_int_eq(zt.event.pfnQueryKernelTimestamp(NULL, &ts),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.event.pfnQueryKernelTimestamp(te, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.event.pfnQueryKernelTimestamp(pe, &ts),
			 ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT);
	ck_assert_int_eq(zt.event.pfnQueryKernelTimestamp(te, &ts),
			 ZE_RESULT_NOT_READY);
	ze_command_list_handle_t i = tc_imm(0);
	size_t n = 16 << 20;
	char *a = tc_alloc(ZE_MEMORY_TYPE_DEVICE, n);
	char *b = tc_alloc(ZE_MEMORY_TYPE_DEVICE, n);
	memset(b, 1, n);
	uint64_t before = tc_now_ns();
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(i, a, b, n, te, 0, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostSynchronize(te, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	uint64_t after = tc_now_ns();
	ck_assert_int_eq(zt.event.pfnQueryKernelTimestamp(te, &ts),
			 ZE_RESULT_SUCCESS);
	/* Device ticks are CLOCK_MONOTONIC nanoseconds. */
	ck_assert_uint_ge(ts.global.kernelStart, before);
	ck_assert_uint_ge(ts.global.kernelEnd, ts.global.kernelStart);
	ck_assert_uint_le(ts.global.kernelEnd, after);
	ck_assert_uint_eq(ts.context.kernelStart, ts.global.kernelStart);
	ck_assert_uint_eq(ts.context.kernelEnd, ts.global.kernelEnd);
	ck_assert_int_eq(zt.list.pfnDestroy(i), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_DEVICE, a);
	tc_free(ZE_MEMORY_TYPE_DEVICE, b);
	ck_assert_int_eq(zt.event.pfnDestroy(te), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(pe), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(tp), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(pp), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_write_global_timestamp)
{
	ze_command_list_handle_t i = tc_imm(0);
	uint64_t ts[2] = { 0, 0 };
	ck_assert_int_eq(zt.list.pfnAppendWriteGlobalTimestamp(NULL, ts, NULL,
							       0, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.list.pfnAppendWriteGlobalTimestamp(i, NULL, NULL,
							       0, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.list.pfnAppendWriteGlobalTimestamp(i, ts, NULL, 1,
							       NULL),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	ck_assert_int_eq(zt.list.pfnAppendWriteGlobalTimestamp(
				 i, (uint64_t *)((char *)ts + 4), NULL, 0,
				 NULL),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	uint64_t before = tc_now_ns();
	ck_assert_int_eq(zt.list.pfnAppendWriteGlobalTimestamp(i, &ts[0], NULL,
							       0, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnAppendWriteGlobalTimestamp(i, &ts[1], NULL,
							       0, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnHostSynchronize(i, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_ge(ts[0], before);
	ck_assert_uint_ge(ts[1], ts[0]);
	ck_assert_uint_le(ts[1], tc_now_ns());
	ck_assert_int_eq(zt.list.pfnDestroy(i), ZE_RESULT_SUCCESS);
}
END_TEST

/* Signal, wait and reset recorded in lists and run by workers. */
START_TEST(test_event_device_signal_wait_reset)
{
	ze_event_pool_handle_t p = tc_pool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 3);
	ze_event_handle_t go = tc_event(p, 0), done = tc_event(p, 1);
	ze_event_handle_t r = tc_event(p, 2);
	ze_command_queue_handle_t q = tc_queue(0, 0);
	ze_command_list_handle_t l = tc_list(0);
	char src[256], dst[256];
	tc_pattern(src, sizeof(src), 1);
	memset(dst, 0, sizeof(dst));
	ck_assert_int_eq(zt.list.pfnAppendSignalEvent(NULL, go),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.list.pfnAppendSignalEvent(l, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.list.pfnAppendSignalEvent(
				 l, (ze_event_handle_t)tc_forged),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.list.pfnAppendWaitOnEvents(l, 1, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.list.pfnAppendEventReset(l, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.event.pfnHostSignal(r), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnAppendWaitOnEvents(l, 1, &go),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(l, dst, src, sizeof(src),
						     NULL, 0, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnAppendEventReset(l, r), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnAppendSignalEvent(l, done),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnClose(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(q, 1, &l, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostSynchronize(done, 2000000),
			 ZE_RESULT_NOT_READY);
	ck_assert_int_eq(dst[10], 0);
	ck_assert_int_eq(zt.event.pfnHostSignal(go), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostSynchronize(done, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert(tc_check_pattern(dst, sizeof(dst), 1));
	ck_assert_int_eq(zt.event.pfnQueryStatus(r), ZE_RESULT_NOT_READY);
	ck_assert_int_eq(zt.queue.pfnSynchronize(q, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnDestroy(q), ZE_RESULT_SUCCESS);
	ze_event_handle_t all[3] = { go, done, r };
	for (int k = 0; k < 3; k++)
		ck_assert_int_eq(zt.event.pfnDestroy(all[k]),
				 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(p), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_event_wait_list_errors)
{
	ze_event_pool_handle_t p = tc_pool(0, 1);
	ze_event_handle_t e = tc_event(p, 0);
	ze_command_list_handle_t l = tc_list(0);
	char a[8], b[8];
	ck_assert_int_eq(zt.list.pfnAppendBarrier(l, NULL, 1, NULL),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	ze_event_handle_t waits[2] = { e, NULL };
	ck_assert_int_eq(zt.list.pfnAppendBarrier(l, NULL, 2, waits),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	waits[1] = (ze_event_handle_t)tc_forged;
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(l, a, b, 8, NULL, 2,
						     waits),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(
				 l, a, b, 8, (ze_event_handle_t)tc_forged, 0,
				 NULL),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* An event of another context is no synchronization object here. */
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_context_handle_t c2;
	ck_assert_int_eq(zt.context.pfnCreate(zt.drv, &cd, &c2),
			 ZE_RESULT_SUCCESS);
	ze_event_pool_desc_t pd = { ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
				    0, 1 };
	ze_event_pool_handle_t p2;
	ck_assert_int_eq(zt.event_pool.pfnCreate(c2, &pd, 0, NULL, &p2),
			 ZE_RESULT_SUCCESS);
	ze_event_handle_t e2 = tc_event(p2, 0);
	ck_assert_int_eq(zt.list.pfnAppendSignalEvent(l, e2),
			 ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT);
	ck_assert_int_eq(zt.list.pfnAppendWaitOnEvents(l, 1, &e2),
			 ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT);
	/* Nothing was recorded by the failed appends: the list is empty,
	 * and an event recorded in a list may be destroyed before it runs. */
	ck_assert_int_eq(zt.list.pfnAppendBarrier(l, e, 0, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(e), ZE_RESULT_SUCCESS);
	ze_command_queue_handle_t q = tc_queue(0, 0);
	tc_run(q, l);
	ck_assert_int_eq(zt.queue.pfnDestroy(q), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(e2), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(p2), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(p), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.context.pfnDestroy(c2), ZE_RESULT_SUCCESS);
}
END_TEST

/* Barriers, and the 1.16 / 1.18 "WithParameters" variants. */
START_TEST(test_barrier_and_with_parameters)
{
	ze_command_list_handle_t i = tc_imm(0);
	ze_event_pool_handle_t p = tc_pool(0, 2);
	ze_event_handle_t e = tc_event(p, 0), e2 = tc_event(p, 1);
	const void *ranges[1];
	size_t sizes[1] = { 8 };
	char a[64], b[64];
	ranges[0] = a;
	ck_assert_int_eq(zt.list.pfnAppendBarrier(NULL, NULL, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.list.pfnAppendBarrier(
				 (ze_command_list_handle_t)tc_forged, NULL, 0,
				 NULL),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.list.pfnAppendMemoryRangesBarrier(
				 NULL, 1, sizes, ranges, NULL, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.list.pfnAppendMemoryRangesBarrier(
				 i, 1, NULL, ranges, NULL, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.list.pfnAppendMemoryRangesBarrier(
				 i, 1, sizes, NULL, NULL, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.list.pfnAppendMemoryRangesBarrier(
				 i, 1, sizes, ranges, e, 0, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostSynchronize(e, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnAppendWaitOnEventsWithParameters(
				 i, NULL, 1, &e),
			 ZE_RESULT_SUCCESS);
	tc_pattern(b, sizeof(b), 6);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopyWithParameters(
				 i, a, b, 32, NULL, NULL, 0, NULL),
			 ZE_RESULT_SUCCESS);
	uint16_t pat = 0x1234;
	ck_assert_int_eq(zt.list.pfnAppendMemoryFillWithParameters(
				 i, a + 32, &pat, 2, 32, NULL, NULL, 0, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnAppendSignalEventWithParameters(i, NULL,
								    e2),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostSynchronize(e2, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert(tc_check_pattern(a, 32, 6));
	for (int k = 32; k < 64; k += 2) {
		uint16_t v;
		memcpy(&v, a + k, 2);
		ck_assert_uint_eq(v, 0x1234);
	}
	ck_assert_int_eq(zt.list.pfnDestroy(i), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(e), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(e2), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(p), ZE_RESULT_SUCCESS);
}
END_TEST

TCase *
tc_case_event(void)
{
	TCase *tc = tcase_create("event");
	tcase_add_checked_fixture(tc, tc_setup, tc_teardown);
	tcase_add_test(tc, test_pool_create_errors);
	tcase_add_test(tc, test_pool_destroy_in_use_and_getters);
	tcase_add_test(tc, test_event_create_errors);
	tcase_add_test(tc, test_event_host_calls);
	tcase_add_test(tc, test_event_kernel_timestamp);
	tcase_add_test(tc, test_write_global_timestamp);
	tcase_add_test(tc, test_event_device_signal_wait_reset);
	tcase_add_test(tc, test_event_wait_list_errors);
	tcase_add_test(tc, test_barrier_and_with_parameters);
	return tc;
}
