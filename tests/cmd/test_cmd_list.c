// SPDX-License-Identifier: MIT
/*
 * test_cmd_list: command lists (regular and immediate) and fences: create,
 * close, reset, destroy, host synchronization, getters, error codes.
 */
#include <string.h>

#include "tcmd.h"

START_TEST(test_list_create_errors)
{
	ze_command_list_desc_t d = { ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL,
				     0, 0 };
	ze_command_list_handle_t l = NULL;
	ck_assert_int_eq(zt.list.pfnCreate(NULL, zt.dev, &d, &l),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.list.pfnCreate(zt.ctx, NULL, &d, &l),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.list.pfnCreate(zt.ctx, zt.dev, NULL, &l),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.list.pfnCreate(zt.ctx, zt.dev, &d, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.list.pfnCreate((ze_context_handle_t)tc_forged,
					   zt.dev, &d, &l),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	d.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
	ck_assert_int_eq(zt.list.pfnCreate(zt.ctx, zt.dev, &d, &l),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	d.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC;
	d.flags = 0x20;
	ck_assert_int_eq(zt.list.pfnCreate(zt.ctx, zt.dev, &d, &l),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	d.flags = 0;
	d.commandQueueGroupOrdinal = 2;
	ck_assert_int_eq(zt.list.pfnCreate(zt.ctx, zt.dev, &d, &l),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_null(l);
	d.commandQueueGroupOrdinal = 1;
	d.flags = ZE_COMMAND_LIST_FLAG_IN_ORDER |
		  ZE_COMMAND_LIST_FLAG_MAXIMIZE_THROUGHPUT;
	ck_assert_int_eq(zt.list.pfnCreate(zt.ctx, zt.dev, &d, &l),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(l), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_list_immediate_create_errors)
{
	ze_command_queue_desc_t d = { ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				      NULL, 0, 0, 0, 0, 0 };
	ze_command_list_handle_t l = NULL;
	ck_assert_int_eq(zt.list.pfnCreateImmediate(NULL, zt.dev, &d, &l),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.list.pfnCreateImmediate(zt.ctx, NULL, &d, &l),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.list.pfnCreateImmediate(zt.ctx, zt.dev, NULL, &l),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.list.pfnCreateImmediate(zt.ctx, zt.dev, &d, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	d.mode = (ze_command_queue_mode_t)7;
	ck_assert_int_eq(zt.list.pfnCreateImmediate(zt.ctx, zt.dev, &d, &l),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	d.mode = 0;
	d.flags = 0x10;
	ck_assert_int_eq(zt.list.pfnCreateImmediate(zt.ctx, zt.dev, &d, &l),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	d.flags = 0;
	d.ordinal = 9;
	ck_assert_int_eq(zt.list.pfnCreateImmediate(zt.ctx, zt.dev, &d, &l),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_null(l);
}
END_TEST

START_TEST(test_list_destroy_errors)
{
	ck_assert_int_eq(zt.list.pfnDestroy(NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.list.pfnDestroy(
				 (ze_command_list_handle_t)tc_forged),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ze_command_list_handle_t l = tc_list(0), i = tc_imm(0);
	ck_assert_int_eq(zt.list.pfnDestroy(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(i), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(l),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.list.pfnDestroy(i),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.list.pfnClose(l),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	char x = 0, y = 1;
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(i, &x, &y, 1, NULL, 0,
						     NULL),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
}
END_TEST

START_TEST(test_list_close_and_reset)
{
	ze_command_list_handle_t l = tc_list(0), i = tc_imm(0);
	char a[64], b[64];
	ck_assert_int_eq(zt.list.pfnClose(NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.list.pfnReset(NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.list.pfnClose(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnClose(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(l, a, b, 64, NULL, 0,
						     NULL),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.list.pfnReset(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(l, a, b, 64, NULL, 0,
						     NULL),
			 ZE_RESULT_SUCCESS);
	/* Closing an immediate list succeeds and it stays usable. */
	ck_assert_int_eq(zt.list.pfnClose(i), ZE_RESULT_SUCCESS);
	tc_pattern(b, 64, 5);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(i, a, b, 64, NULL, 0,
						     NULL),
			 ZE_RESULT_SUCCESS);
	/* Reset of an immediate list waits for what was appended. */
	ck_assert_int_eq(zt.list.pfnReset(i), ZE_RESULT_SUCCESS);
	ck_assert(tc_check_pattern(a, 64, 5));
	ck_assert_int_eq(zt.list.pfnDestroy(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(i), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_list_host_synchronize)
{
	ze_command_list_handle_t l = tc_list(0), i = tc_imm(0);
	ze_event_pool_handle_t p = tc_pool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1);
	ze_event_handle_t e = tc_event(p, 0);
	ck_assert_int_eq(zt.list.pfnHostSynchronize(NULL, 0),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.list.pfnHostSynchronize(l, 0),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.list.pfnHostSynchronize(i, 0), ZE_RESULT_SUCCESS);
	char a[4096], b[4096];
	tc_pattern(b, sizeof(b), 9);
	memset(a, 0, sizeof(a));
	/* The append returns at once; the copy waits for the event. */
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(i, a, b, sizeof(a), NULL,
						     1, &e),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnHostSynchronize(i, 0),
			 ZE_RESULT_NOT_READY);
	uint64_t t0 = tc_now_ns();
	ck_assert_int_eq(zt.list.pfnHostSynchronize(i, 5000000),
			 ZE_RESULT_NOT_READY);
	ck_assert_uint_ge(tc_now_ns() - t0, 5000000);
	ck_assert_int_eq(a[100], 0);
	ck_assert_int_eq(zt.event.pfnHostSignal(e), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnHostSynchronize(i, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert(tc_check_pattern(a, sizeof(a), 9));
	ck_assert_int_eq(zt.list.pfnDestroy(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(i), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(e), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(p), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_list_getters)
{
	ze_command_list_handle_t l = tc_list(1), i = tc_imm(0);
	ze_device_handle_t d;
	ze_context_handle_t c;
	uint32_t u;
	ze_bool_t imm;
	ck_assert_int_eq(zt.list.pfnGetDeviceHandle(l, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.list.pfnGetDeviceHandle(l, &d), ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(d, zt.dev);
	ck_assert_int_eq(zt.list.pfnGetContextHandle(l, &c),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(c, zt.ctx);
	ck_assert_int_eq(zt.list.pfnGetOrdinal(l, &u), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(u, 1);
	ck_assert_int_eq(zt.list.pfnIsImmediate(l, &imm), ZE_RESULT_SUCCESS);
	ck_assert(!imm);
	ck_assert_int_eq(zt.list.pfnIsImmediate(i, &imm), ZE_RESULT_SUCCESS);
	ck_assert(imm);
	ck_assert_int_eq(zt.list.pfnImmediateGetIndex(l, &u),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.list.pfnImmediateGetIndex(i, &u),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(u, 0);
	ze_command_queue_mode_t m;
	ck_assert_int_eq(zt.list.pfnImmediateGetMode(i, &m),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(m, 0);
	ze_command_list_flags_t f = 1;
	ck_assert_int_eq(zt.list.pfnGetFlags(l, &f), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(f, 0);
	ck_assert_int_eq(zt.list.pfnDestroy(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(i), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_list_immediate_synchronous_mode)
{
	ze_command_list_handle_t i = tc_imm(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
	char *a = tc_alloc(ZE_MEMORY_TYPE_DEVICE, 1 << 20);
	char *b = tc_alloc(ZE_MEMORY_TYPE_UNKNOWN, 1 << 20);
	tc_pattern(b, 1 << 20, 4);
	for (int k = 0; k < 10; k++) {
		memset(a, 0, 1 << 20);
		ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(i, a, b, 1 << 20,
							     NULL, 0, NULL),
				 ZE_RESULT_SUCCESS);
		ck_assert(tc_check_pattern(a, 1 << 20, 4));
	}
	ck_assert_int_eq(zt.list.pfnDestroy(i), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_DEVICE, a);
	tc_free(ZE_MEMORY_TYPE_UNKNOWN, b);
}
END_TEST

/* Destroying an immediate list runs what was appended first. */
START_TEST(test_list_immediate_destroy_drains)
{
	ze_command_list_handle_t i = tc_imm(0);
	size_t n = 8 << 20;
	char *a = tc_alloc(ZE_MEMORY_TYPE_SHARED, n);
	char *b = tc_alloc(ZE_MEMORY_TYPE_SHARED, n);
	tc_pattern(b, n, 21);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(i, a, b, n, NULL, 0,
						     NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(i), ZE_RESULT_SUCCESS);
	ck_assert(tc_check_pattern(a, n, 21));
	tc_free(ZE_MEMORY_TYPE_SHARED, a);
	tc_free(ZE_MEMORY_TYPE_SHARED, b);
}
END_TEST

TCase *
tc_case_list(void)
{
	TCase *tc = tcase_create("list");
	tcase_add_checked_fixture(tc, tc_setup, tc_teardown);
	tcase_add_test(tc, test_list_create_errors);
	tcase_add_test(tc, test_list_immediate_create_errors);
	tcase_add_test(tc, test_list_destroy_errors);
	tcase_add_test(tc, test_list_close_and_reset);
	tcase_add_test(tc, test_list_host_synchronize);
	tcase_add_test(tc, test_list_getters);
	tcase_add_test(tc, test_list_immediate_synchronous_mode);
	tcase_add_test(tc, test_list_immediate_destroy_drains);
	return tc;
}

/* ---- fences ----------------------------------------------------------- */

START_TEST(test_fence_create_errors)
{
	ze_command_queue_handle_t q = tc_queue(0, 0);
	ze_fence_desc_t d = { ZE_STRUCTURE_TYPE_FENCE_DESC, NULL, 0 };
	ze_fence_handle_t f = NULL;
	ck_assert_int_eq(zt.fence.pfnCreate(NULL, &d, &f),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.fence.pfnCreate(q, NULL, &f),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.fence.pfnCreate(q, &d, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ze_command_queue_handle_t forged = (ze_command_queue_handle_t)tc_forged;
	ck_assert_int_eq(zt.fence.pfnCreate(forged, &d, &f),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	d.stype = ZE_STRUCTURE_TYPE_EVENT_DESC;
	ck_assert_int_eq(zt.fence.pfnCreate(q, &d, &f),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	d.stype = ZE_STRUCTURE_TYPE_FENCE_DESC;
	d.flags = 2;
	ck_assert_int_eq(zt.fence.pfnCreate(q, &d, &f),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	ck_assert_ptr_null(f);
	ck_assert_int_eq(zt.queue.pfnDestroy(q), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_fence_status_and_reset)
{
	ze_command_queue_handle_t q = tc_queue(0, 0);
	ze_fence_desc_t d = { ZE_STRUCTURE_TYPE_FENCE_DESC, NULL,
			      ZE_FENCE_FLAG_SIGNALED };
	ze_fence_handle_t f;
	ck_assert_int_eq(zt.fence.pfnCreate(q, &d, &f), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.fence.pfnQueryStatus(NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.fence.pfnQueryStatus(f), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.fence.pfnHostSynchronize(f, 0), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.fence.pfnReset(NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.fence.pfnReset(f), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.fence.pfnQueryStatus(f), ZE_RESULT_NOT_READY);
	ck_assert_int_eq(zt.fence.pfnHostSynchronize(f, 0),
			 ZE_RESULT_NOT_READY);
	uint64_t t0 = tc_now_ns();
	ck_assert_int_eq(zt.fence.pfnHostSynchronize(f, 3000000),
			 ZE_RESULT_NOT_READY);
	ck_assert_uint_ge(tc_now_ns() - t0, 3000000);
	ze_command_list_handle_t l = tc_list(0);
	ck_assert_int_eq(zt.list.pfnClose(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(q, 1, &l, f),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.fence.pfnHostSynchronize(f, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.fence.pfnQueryStatus(f), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.fence.pfnHostSynchronize(NULL, 0),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.fence.pfnDestroy(NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.fence.pfnDestroy(f), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.fence.pfnDestroy(f),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.fence.pfnQueryStatus(f),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.list.pfnDestroy(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnDestroy(q), ZE_RESULT_SUCCESS);
}
END_TEST

TCase *
tc_case_fence(void)
{
	TCase *tc = tcase_create("fence");
	tcase_add_checked_fixture(tc, tc_setup, tc_teardown);
	tcase_add_test(tc, test_fence_create_errors);
	tcase_add_test(tc, test_fence_status_and_reset);
	return tc;
}
