// SPDX-License-Identifier: MIT
/*
 * test_cmd: the copy engine through the driver's DDI tables (no loader):
 * queue groups and command queues; the suite's main and shared helpers.
 * Lists and fences, events, copies, threads and frees are in test_cmd_*.c.
 * Every test runs with the leak fixture: no fd, no mapping (worker stacks
 * included) may outlive it.
 */
#include <dlfcn.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_run.h"
#include "tcmd.h"

char tc_forged[64];

void
tc_setup(void)
{
	zt_checked_setup();
}

void
tc_teardown(void)
{
	zt_checked_teardown();
}

#define TC_STACK (1u << 20)

void
tc_thread_start(struct tc_thread *t, void *(*fn)(void *), void *arg)
{
	t->stack = mmap(NULL, TC_STACK, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	ck_assert_ptr_ne(t->stack, MAP_FAILED);
	pthread_attr_t a;
	ck_assert_int_eq(pthread_attr_init(&a), 0);
	ck_assert_int_eq(pthread_attr_setstack(&a, t->stack, TC_STACK), 0);
	ck_assert_int_eq(pthread_create(&t->t, &a, fn, arg), 0);
	pthread_attr_destroy(&a);
}

void
tc_thread_join(struct tc_thread *t)
{
	ck_assert_int_eq(pthread_join(t->t, NULL), 0);
	munmap(t->stack, TC_STACK);
}

uint64_t
tc_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

ze_command_queue_handle_t
tc_queue(uint32_t ordinal, ze_command_queue_mode_t mode)
{
	ze_command_queue_desc_t d = { ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				      NULL, ordinal, 0, 0, mode, 0 };
	ze_command_queue_handle_t q = NULL;
	ck_assert_int_eq(zt.queue.pfnCreate(zt.ctx, zt.dev, &d, &q),
			 ZE_RESULT_SUCCESS);
	return q;
}

ze_command_list_handle_t
tc_list(uint32_t ordinal)
{
	ze_command_list_desc_t d = { ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL,
				     ordinal, 0 };
	ze_command_list_handle_t l = NULL;
	ck_assert_int_eq(zt.list.pfnCreate(zt.ctx, zt.dev, &d, &l),
			 ZE_RESULT_SUCCESS);
	return l;
}

ze_command_list_handle_t
tc_imm(ze_command_queue_mode_t mode)
{
	ze_command_queue_desc_t d = { ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				      NULL, 0, 0, 0, mode, 0 };
	ze_command_list_handle_t l = NULL;
	ck_assert_int_eq(zt.list.pfnCreateImmediate(zt.ctx, zt.dev, &d, &l),
			 ZE_RESULT_SUCCESS);
	return l;
}

ze_fence_handle_t
tc_fence(ze_command_queue_handle_t q)
{
	ze_fence_desc_t d = { ZE_STRUCTURE_TYPE_FENCE_DESC, NULL, 0 };
	ze_fence_handle_t f = NULL;
	ck_assert_int_eq(zt.fence.pfnCreate(q, &d, &f), ZE_RESULT_SUCCESS);
	return f;
}

ze_event_pool_handle_t
tc_pool(ze_event_pool_flags_t flags, uint32_t count)
{
	ze_event_pool_desc_t d = { ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
				   flags, count };
	ze_event_pool_handle_t p = NULL;
	ck_assert_int_eq(zt.event_pool.pfnCreate(zt.ctx, &d, 0, NULL, &p),
			 ZE_RESULT_SUCCESS);
	return p;
}

ze_event_handle_t
tc_event(ze_event_pool_handle_t p, uint32_t index)
{
	ze_event_desc_t d = { ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, index,
			      ZE_EVENT_SCOPE_FLAG_HOST,
			      ZE_EVENT_SCOPE_FLAG_HOST };
	ze_event_handle_t e = NULL;
	ck_assert_int_eq(zt.event.pfnCreate(p, &d, &e), ZE_RESULT_SUCCESS);
	return e;
}

void *
tc_alloc(ze_memory_type_t kind, size_t size)
{
	void *p = NULL;
	switch (kind) {
	case ZE_MEMORY_TYPE_HOST:
		ck_assert_int_eq(zt.mem.pfnAllocHost(zt.ctx, &zt_hdesc, size,
						     0, &p),
				 ZE_RESULT_SUCCESS);
		break;
	case ZE_MEMORY_TYPE_DEVICE:
		ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc,
						       size, 0, zt.dev, &p),
				 ZE_RESULT_SUCCESS);
		break;
	case ZE_MEMORY_TYPE_SHARED:
		ck_assert_int_eq(zt.mem.pfnAllocShared(zt.ctx, &zt_ddesc,
						       &zt_hdesc, size, 0,
						       zt.dev, &p),
				 ZE_RESULT_SUCCESS);
		break;
	default:
		p = malloc(size);
		break;
	}
	ck_assert_ptr_nonnull(p);
	return p;
}

void
tc_free(ze_memory_type_t kind, void *p)
{
	if (kind == ZE_MEMORY_TYPE_UNKNOWN)
		free(p);
	else
		ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), ZE_RESULT_SUCCESS);
}

void
tc_run(ze_command_queue_handle_t q, ze_command_list_handle_t l)
{
	ze_fence_handle_t f = tc_fence(q);
	ck_assert_int_eq(zt.list.pfnClose(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(q, 1, &l, f),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.fence.pfnHostSynchronize(f, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.fence.pfnDestroy(f), ZE_RESULT_SUCCESS);
}

void
tc_pattern(void *buf, size_t n, unsigned seed)
{
	unsigned char *b = buf;
	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(seed + i * 131 + (i >> 8));
}

bool
tc_check_pattern(const void *buf, size_t n, unsigned seed)
{
	const unsigned char *b = buf;
	for (size_t i = 0; i < n; i++)
		if (b[i] != (unsigned char)(seed + i * 131 + (i >> 8)))
			return false;
	return true;
}

/* ---- queue groups and queues ------------------------------------------ */

START_TEST(test_group_props_two_groups)
{
	uint32_t n = 0;
	ck_assert_int_eq(zt.device.pfnGetCommandQueueGroupProperties(
				 zt.dev, NULL, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.device.pfnGetCommandQueueGroupProperties(
				 zt.dev, &n, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 2);
	ze_command_queue_group_properties_t p[3];
	memset(p, 0, sizeof(p));
	n = 3;
	ck_assert_int_eq(zt.device.pfnGetCommandQueueGroupProperties(
				 zt.dev, &n, p),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(p[0].flags,
			  ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE |
				  ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY);
	ck_assert_uint_eq(p[1].flags,
			  ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY);
	ck_assert_uint_eq(p[0].maxMemoryFillPatternSize, 128);
	ck_assert_uint_eq(p[1].maxMemoryFillPatternSize, 128);
	ck_assert_uint_ge(p[0].numQueues, 1);
	ck_assert_uint_ge(p[1].numQueues, 1);
}
END_TEST

START_TEST(test_queue_create_errors)
{
	ze_command_queue_desc_t d = { ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				      NULL, 0, 0, 0, 0, 0 };
	ze_command_queue_handle_t q = NULL;
	ck_assert_int_eq(zt.queue.pfnCreate(NULL, zt.dev, &d, &q),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.queue.pfnCreate(zt.ctx, NULL, &d, &q),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.queue.pfnCreate(zt.ctx, zt.dev, NULL, &q),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.queue.pfnCreate(zt.ctx, zt.dev, &d, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.queue.pfnCreate((ze_context_handle_t)tc_forged,
					    zt.dev, &d, &q),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.queue.pfnCreate(zt.ctx,
					    (ze_device_handle_t)tc_forged, &d,
					    &q),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	d.stype = ZE_STRUCTURE_TYPE_FENCE_DESC;
	ck_assert_int_eq(zt.queue.pfnCreate(zt.ctx, zt.dev, &d, &q),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	d.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
	d.flags = 0x8;
	ck_assert_int_eq(zt.queue.pfnCreate(zt.ctx, zt.dev, &d, &q),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	d.flags = 0;
	d.mode = (ze_command_queue_mode_t)3;
	ck_assert_int_eq(zt.queue.pfnCreate(zt.ctx, zt.dev, &d, &q),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	d.mode = 0;
	d.priority = (ze_command_queue_priority_t)3;
	ck_assert_int_eq(zt.queue.pfnCreate(zt.ctx, zt.dev, &d, &q),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	d.priority = 0;
	d.ordinal = 2;
	ck_assert_int_eq(zt.queue.pfnCreate(zt.ctx, zt.dev, &d, &q),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	uint32_t n = 2;
	ze_command_queue_group_properties_t p[2];
	zt.device.pfnGetCommandQueueGroupProperties(zt.dev, &n, p);
	d.ordinal = 1;
	d.index = p[1].numQueues;
	ck_assert_int_eq(zt.queue.pfnCreate(zt.ctx, zt.dev, &d, &q),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_null(q);
	/* Every valid combination works. */
	d.index = p[1].numQueues - 1;
	d.flags = ZE_COMMAND_QUEUE_FLAG_EXPLICIT_ONLY;
	d.priority = ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH;
	ck_assert_int_eq(zt.queue.pfnCreate(zt.ctx, zt.dev, &d, &q),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnDestroy(q), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_queue_destroy_errors)
{
	ck_assert_int_eq(zt.queue.pfnDestroy(NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.queue.pfnDestroy(
				 (ze_command_queue_handle_t)tc_forged),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ze_command_queue_handle_t q = tc_queue(0, 0);
	ze_fence_handle_t f = tc_fence(q);
	ck_assert_int_eq(zt.queue.pfnDestroy(q),
			 ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
	ck_assert_int_eq(zt.fence.pfnDestroy(f), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnDestroy(q), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnDestroy(q),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.queue.pfnSynchronize(q, 0),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* A handle of another type is not a queue either. */
	ze_command_list_handle_t l = tc_list(0);
	ck_assert_int_eq(zt.queue.pfnDestroy((ze_command_queue_handle_t)l),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.list.pfnDestroy(l), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_queue_getters)
{
	ze_command_queue_desc_t d = { ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				      NULL, 1, 1,
				      ZE_COMMAND_QUEUE_FLAG_IN_ORDER,
				      ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
				      ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_LOW };
	ze_command_queue_handle_t q;
	ck_assert_int_eq(zt.queue.pfnCreate(zt.ctx, zt.dev, &d, &q),
			 ZE_RESULT_SUCCESS);
	uint32_t u;
	ck_assert_int_eq(zt.queue.pfnGetOrdinal(q, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.queue.pfnGetOrdinal(NULL, &u),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.queue.pfnGetOrdinal(q, &u), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(u, 1);
	ck_assert_int_eq(zt.queue.pfnGetIndex(q, &u), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(u, 1);
	ze_command_queue_flags_t fl;
	ck_assert_int_eq(zt.queue.pfnGetFlags(q, &fl), ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(fl, ZE_COMMAND_QUEUE_FLAG_IN_ORDER);
	ze_command_queue_mode_t m;
	ck_assert_int_eq(zt.queue.pfnGetMode(q, &m), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(m, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
	ze_command_queue_priority_t pr;
	ck_assert_int_eq(zt.queue.pfnGetPriority(q, &pr), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(pr, ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_LOW);
	ck_assert_int_eq(zt.queue.pfnDestroy(q), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_queue_execute_errors)
{
	ze_command_queue_handle_t q = tc_queue(0, 0), q2 = tc_queue(0, 0);
	ze_command_list_handle_t l = tc_list(0), l1 = tc_list(1);
	ze_command_list_handle_t open = tc_list(0);
	ze_command_list_handle_t imm = tc_imm(0);
	ze_fence_handle_t f2 = tc_fence(q2);
	ck_assert_int_eq(zt.list.pfnClose(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnClose(l1), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(NULL, 1, &l, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(q, 1, NULL, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(q, 0, &l, NULL),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	ze_command_list_handle_t bad[2] = { l, NULL };
	ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(q, 2, bad, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	bad[1] = (ze_command_list_handle_t)tc_forged;
	ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(q, 2, bad, NULL),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(
				 (ze_command_queue_handle_t)tc_forged, 1, &l,
				 NULL),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(q, 1, &imm, NULL),
			 ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE);
	ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(q, 1, &l1, NULL),
			 ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE);
	ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(q, 1, &open, NULL),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(q, 1, &l, f2),
			 ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT);
	ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(
				 q, 1, &l, (ze_fence_handle_t)tc_forged),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* A failed execute left no list executing: all can be destroyed. */
	ck_assert_int_eq(zt.fence.pfnDestroy(f2), ZE_RESULT_SUCCESS);
	ze_command_list_handle_t all[4] = { l, l1, open, imm };
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(zt.list.pfnDestroy(all[i]),
				 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnDestroy(q), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnDestroy(q2), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_queue_execute_copy_with_fence)
{
	ze_command_queue_handle_t q = tc_queue(1, 0);
	ze_command_list_handle_t l = tc_list(1);
	size_t n = 100000;
	char *a = tc_alloc(ZE_MEMORY_TYPE_DEVICE, n);
	char *b = tc_alloc(ZE_MEMORY_TYPE_HOST, n);
	tc_pattern(a, n, 7);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(l, b, a, n, NULL, 0,
						     NULL),
			 ZE_RESULT_SUCCESS);
	tc_run(q, l);
	ck_assert(tc_check_pattern(b, n, 7));
	/* A closed list runs again; Synchronize waits for it too. */
	memset(b, 0, n);
	ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(q, 1, &l, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnSynchronize(q, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert(tc_check_pattern(b, n, 7));
	ck_assert_int_eq(zt.list.pfnDestroy(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnDestroy(q), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_DEVICE, a);
	tc_free(ZE_MEMORY_TYPE_HOST, b);
}
END_TEST

START_TEST(test_queue_synchronize_timeout)
{
	ze_command_queue_handle_t q = tc_queue(0, 0);
	ze_command_list_handle_t l = tc_list(0);
	ze_event_pool_handle_t p = tc_pool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1);
	ze_event_handle_t e = tc_event(p, 0);
	ck_assert_int_eq(zt.queue.pfnSynchronize(NULL, 0),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.queue.pfnSynchronize(q, 0), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnAppendWaitOnEvents(l, 1, &e),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnClose(l), ZE_RESULT_SUCCESS);
	ze_fence_handle_t f = tc_fence(q);
	ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(q, 1, &l, f),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnSynchronize(q, 0), ZE_RESULT_NOT_READY);
	uint64_t t0 = tc_now_ns();
	ck_assert_int_eq(zt.queue.pfnSynchronize(q, 20000000),
			 ZE_RESULT_NOT_READY);
	ck_assert_uint_ge(tc_now_ns() - t0, 20000000);
	ck_assert_int_eq(zt.fence.pfnHostSynchronize(f, 1000000),
			 ZE_RESULT_NOT_READY);
	ck_assert_int_eq(zt.fence.pfnQueryStatus(f), ZE_RESULT_NOT_READY);
	/* Executing lists cannot be reset or destroyed. */
	ck_assert_int_eq(zt.list.pfnReset(l),
			 ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
	ck_assert_int_eq(zt.list.pfnDestroy(l),
			 ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
	ck_assert_int_eq(zt.event.pfnHostSignal(e), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnSynchronize(q, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.fence.pfnQueryStatus(f), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnReset(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.fence.pfnDestroy(f), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnDestroy(q), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(e), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(p), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_queue_synchronous_mode)
{
	ze_command_queue_handle_t q =
		tc_queue(0, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
	ze_command_list_handle_t l = tc_list(0);
	char a[4096], b[4096];
	tc_pattern(a, sizeof(a), 3);
	memset(b, 0, sizeof(b));
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(l, b, a, sizeof(a),
						     NULL, 0, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnClose(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(q, 1, &l, NULL),
			 ZE_RESULT_SUCCESS);
	/* Returned: the copy is done, no synchronization needed. */
	ck_assert(tc_check_pattern(b, sizeof(b), 3));
	ck_assert_int_eq(zt.list.pfnDestroy(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnDestroy(q), ZE_RESULT_SUCCESS);
}
END_TEST

/* Lists run in submission order: each copies the previous buffer on. */
START_TEST(test_queue_order_of_lists)
{
	enum { N = 16, SZ = 65536 };
	ze_command_queue_handle_t q = tc_queue(0, 0);
	ze_command_list_handle_t l[N];
	char *buf[N + 1];
	for (int i = 0; i <= N; i++) {
		buf[i] = tc_alloc(ZE_MEMORY_TYPE_SHARED, SZ);
		memset(buf[i], 0, SZ);
	}
	tc_pattern(buf[0], SZ, 11);
	for (int i = 0; i < N; i++) {
		l[i] = tc_list(0);
		ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(
					 l[i], buf[i + 1], buf[i], SZ, NULL,
					 0, NULL),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.list.pfnClose(l[i]), ZE_RESULT_SUCCESS);
	}
	/* Half in one call (in array order), the rest one by one. */
	ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(q, N / 2, l, NULL),
			 ZE_RESULT_SUCCESS);
	for (int i = N / 2; i < N; i++)
		ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(q, 1, &l[i],
								 NULL),
				 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnSynchronize(q, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert(tc_check_pattern(buf[N], SZ, 11));
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(zt.list.pfnDestroy(l[i]), ZE_RESULT_SUCCESS);
	for (int i = 0; i <= N; i++)
		tc_free(ZE_MEMORY_TYPE_SHARED, buf[i]);
	ck_assert_int_eq(zt.queue.pfnDestroy(q), ZE_RESULT_SUCCESS);
}
END_TEST

/* Destroying a queue whose work waits on an event that never comes does
 * not hang: the worker gives the wait up. */
START_TEST(test_queue_destroy_with_blocked_work)
{
	ze_command_queue_handle_t q = tc_queue(0, 0);
	ze_command_list_handle_t l = tc_list(0);
	ze_event_pool_handle_t p = tc_pool(0, 2);
	ze_event_handle_t never = tc_event(p, 0), after = tc_event(p, 1);
	ck_assert_int_eq(zt.list.pfnAppendBarrier(l, after, 1, &never),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnClose(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(q, 1, &l, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnDestroy(q), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnQueryStatus(after), ZE_RESULT_NOT_READY);
	ck_assert_int_eq(zt.list.pfnDestroy(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(never), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(after), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(p), ZE_RESULT_SUCCESS);
}
END_TEST

/* Forged handles (unmapped addresses, objects of another type) are
 * refused without being dereferenced, by every entry point. */
START_TEST(test_forged_handles_every_call)
{
	ze_event_pool_handle_t pool = tc_pool(0, 1);
	void *forged[] = { (void *)(uintptr_t)1, (void *)(uintptr_t)0xdead0000,
			   tc_forged, pool };
	uint32_t u;
	char buf[8];
	for (size_t i = 0; i < sizeof(forged) / sizeof(forged[0]); i++) {
		void *h = forged[i];
		ze_result_t bad = ZE_RESULT_ERROR_INVALID_ARGUMENT;
		ck_assert_int_eq(zt.queue.pfnDestroy(h), bad);
		ck_assert_int_eq(zt.queue.pfnSynchronize(h, 0), bad);
		ck_assert_int_eq(zt.queue.pfnGetIndex(h, &u), bad);
		ck_assert_int_eq(zt.list.pfnClose(h), bad);
		ck_assert_int_eq(zt.list.pfnReset(h), bad);
		ck_assert_int_eq(zt.list.pfnHostSynchronize(h, 0), bad);
		ck_assert_int_eq(zt.list.pfnAppendBarrier(h, NULL, 0, NULL),
				 bad);
		ck_assert_int_eq(zt.list.pfnAppendMemoryFill(h, buf, buf, 1, 8,
							     NULL, 0, NULL),
				 bad);
		ck_assert_int_eq(zt.fence.pfnReset(h), bad);
		ck_assert_int_eq(zt.fence.pfnQueryStatus(h), bad);
		ck_assert_int_eq(zt.event.pfnHostSignal(h), bad);
		ck_assert_int_eq(zt.event.pfnHostSynchronize(h, 0), bad);
		ck_assert_int_eq(zt.event.pfnDestroy(h), bad);
		if (h != pool)
			ck_assert_int_eq(zt.event_pool.pfnDestroy(h), bad);
	}
	ck_assert_int_eq(zt.event_pool.pfnDestroy(pool), ZE_RESULT_SUCCESS);
}
END_TEST

/* The child of test_unload_with_live_queue, after zt_setup_plain: 0,
 * or where it failed (1: the setup). */
enum { FILLS = 48, FILL_SIZE = 8 << 20 };

/* The child cannot wait on the driver it unloaded: it polls the last
 * fill's byte, which the worker writes with no lock in common. Not a race
 * of the driver: hidden from ThreadSanitizer. */
__attribute__((no_sanitize("thread"))) static unsigned char
unload_peek(const unsigned char *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static int
unload_child(void)
{
	unsigned char *buf = mmap(NULL, FILL_SIZE, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return 2;
	ze_command_queue_desc_t qd = { ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       NULL, 0, 0, 0,
				       ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, 0 };
	ze_command_list_desc_t ld = { ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC,
				      NULL, 0, 0 };
	ze_command_queue_handle_t q = NULL;
	ze_command_list_handle_t l = NULL;
	if (zt.queue.pfnCreate(zt.ctx, zt.dev, &qd, &q) ||
	    zt.list.pfnCreate(zt.ctx, zt.dev, &ld, &l))
		return 3;
	/* Work that keeps the worker in and out of the driver's code for
	 * a while; the last fill is the one the child waits for. */
	for (int i = 0; i < FILLS; i++) {
		unsigned char pat = i == FILLS - 1 ? 0x5a : 0x11;
		if (zt.list.pfnAppendMemoryFill(l, buf, &pat, 1, FILL_SIZE,
						NULL, 0, NULL))
			return 4;
	}
	if (zt.list.pfnClose(l) ||
	    zt.queue.pfnExecuteCommandLists(q, 1, &l, NULL))
		return 5;
	/* The unload (as a loader's teardown does it), the work in flight. */
	const char *path = zt_driver_path();
	if (dlclose(zt.dl))
		return 6;
	void *still = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
	if (!still)
		return 7; /* unmapped under its worker */
	dlclose(still);
	/* The worker finishes (unmapped, it would die of SIGSEGV). */
	for (int ms = 0; ms < 30000; ms++) {
		if (unload_peek(&buf[FILL_SIZE - 1]) == 0x5a)
			return 0;
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
	return 8;
}

/* A loader's teardown (Intel's dlcloses its drivers) may unload the
 * driver under a queue the program did not destroy: its worker runs the
 * driver's code, so from the first worker on the driver stays loaded
 * (without that, the child exits 7, or dies of SIGSEGV when it does not
 * look). In a child, this program run again (a fork of this threaded
 * process could inherit a lock that ASan's allocator holds in another
 * thread); what the unload leaves behind is lost by design. */
START_TEST(test_unload_with_live_queue)
{
	char *argv[] = { "test_cmd", "--unload-child", NULL };
	pid_t pid;
	ck_assert_int_eq(posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv,
				     environ),
			 0);
	int st = 0;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && !WEXITSTATUS(st),
		      "child: %s %d", WIFEXITED(st) ? "exit" : "signal",
		      WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
}
END_TEST

TCase *
tc_case_queue(void)
{
	TCase *tc = tcase_create("queue");
	tcase_add_checked_fixture(tc, tc_setup, tc_teardown);
	tcase_add_test(tc, test_group_props_two_groups);
	tcase_add_test(tc, test_queue_create_errors);
	tcase_add_test(tc, test_queue_destroy_errors);
	tcase_add_test(tc, test_queue_getters);
	tcase_add_test(tc, test_queue_execute_errors);
	tcase_add_test(tc, test_queue_execute_copy_with_fence);
	tcase_add_test(tc, test_queue_synchronize_timeout);
	tcase_add_test(tc, test_queue_synchronous_mode);
	tcase_add_test(tc, test_queue_order_of_lists);
	tcase_add_test(tc, test_queue_destroy_with_blocked_work);
	tcase_add_test(tc, test_forged_handles_every_call);
	tcase_add_test(tc, test_unload_with_live_queue);
	return tc;
}

int
main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--unload-child"))
		_exit(zt_setup_plain() ? 1 : unload_child());
	Suite *s = suite_create("cmd");
	suite_add_tcase(s, tc_case_queue());
	suite_add_tcase(s, tc_case_list());
	suite_add_tcase(s, tc_case_fence());
	suite_add_tcase(s, tc_case_event());
	suite_add_tcase(s, tc_case_copy());
	suite_add_tcase(s, tc_case_region());
	suite_add_tcase(s, tc_case_thread());
	suite_add_tcase(s, tc_case_free());
	suite_add_tcase(s, tc_case_ext());
	suite_add_tcase(s, tc_case_prio());
	suite_add_tcase(s, tc_case_cb());
	return check_run(s, CK_NORMAL, false);
}
