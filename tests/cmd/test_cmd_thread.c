// SPDX-License-Identifier: MIT
/*
 * test_cmd_thread: many lists on many queues from several threads at once,
 * a producer/consumer chain of immediate lists linked by events, and frees
 * of memory that submitted work still uses (zeMemFree, zeMemFreeExt with
 * DEFER_FREE and BLOCKING_FREE).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tcmd.h"

enum { THREADS = 4, LISTS = 6, ROUNDS = 12, SZ = 48 * 1024 };

struct worker_arg {
	int id;
	ze_command_queue_handle_t shared;
	int failures;
};

/* Each thread: two queues of its own (both groups) plus the shared one,
 * LISTS lists, ROUNDS rounds of copy + fill, each checked. */
static void *
many_queues_thread(void *p)
{
	struct worker_arg *a = p;
	ze_command_queue_desc_t qd = { ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       NULL, 0, 0, 0, 0, 0 };
	ze_command_queue_handle_t q[3] = { NULL, NULL, a->shared };
	for (uint32_t k = 0; k < 2; k++) {
		qd.ordinal = k;
		if (zt.queue.pfnCreate(zt.ctx, zt.dev, &qd, &q[k]))
			a->failures++;
	}
	ze_command_list_handle_t l[LISTS];
	char *src[LISTS], *dst[LISTS];
	ze_fence_handle_t f[LISTS];
	ze_fence_desc_t fd = { ZE_STRUCTURE_TYPE_FENCE_DESC, NULL, 0 };
	for (int i = 0; i < LISTS; i++) {
		uint32_t ord = i % 3 == 1 ? 1 : 0;
		ze_command_list_desc_t ld = {
			ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, NULL, ord, 0 };
		if (zt.list.pfnCreate(zt.ctx, zt.dev, &ld, &l[i]))
			a->failures++;
		src[i] = malloc(SZ);
		dst[i] = malloc(SZ);
		if (zt.fence.pfnCreate(q[i % 3], &fd, &f[i]))
			a->failures++;
	}
	for (int r = 0; r < ROUNDS && !a->failures; r++) {
		unsigned seed = (unsigned)(a->id * 1000 + r);
		for (int i = 0; i < LISTS; i++) {
			tc_pattern(src[i], SZ, seed + (unsigned)i);
			memset(dst[i], 0, SZ);
			uint8_t pat[8] = { 1, 2, 3, 4, 5, 6, 7, (uint8_t)r };
			zt.list.pfnReset(l[i]);
			if (zt.list.pfnAppendMemoryCopy(l[i], dst[i], src[i],
							SZ, NULL, 0, NULL) ||
			    zt.list.pfnAppendMemoryFill(l[i], src[i], pat, 8,
							SZ / 2, NULL, 0,
							NULL) ||
			    zt.list.pfnClose(l[i]) ||
			    zt.fence.pfnReset(f[i]) ||
			    zt.queue.pfnExecuteCommandLists(q[i % 3], 1, &l[i],
							    f[i]))
				a->failures++;
		}
		for (int i = 0; i < LISTS; i++) {
			if (zt.fence.pfnHostSynchronize(f[i], UINT64_MAX))
				a->failures++;
			if (!tc_check_pattern(dst[i], SZ, seed + (unsigned)i))
				a->failures++;
			if ((uint8_t)src[i][7] != (uint8_t)r ||
			    (uint8_t)src[i][SZ / 2 - 1] != (uint8_t)r)
				a->failures++;
		}
	}
	for (int i = 0; i < LISTS; i++) {
		if (zt.fence.pfnDestroy(f[i]) || zt.list.pfnDestroy(l[i]))
			a->failures++;
		free(src[i]);
		free(dst[i]);
	}
	for (int k = 0; k < 2; k++)
		if (zt.queue.pfnDestroy(q[k]))
			a->failures++;
	return NULL;
}

START_TEST(test_thread_many_lists_many_queues)
{
	ze_command_queue_handle_t shared = tc_queue(0, 0);
	struct tc_thread t[THREADS];
	struct worker_arg a[THREADS];
	for (int i = 0; i < THREADS; i++) {
		a[i] = (struct worker_arg){ i, shared, 0 };
		tc_thread_start(&t[i], many_queues_thread, &a[i]);
	}
	for (int i = 0; i < THREADS; i++) {
		tc_thread_join(&t[i]);
		ck_assert_int_eq(a[i].failures, 0);
	}
	ck_assert_int_eq(zt.queue.pfnDestroy(shared), ZE_RESULT_SUCCESS);
}
END_TEST

/* Several threads execute on one queue and synchronize it: the waiting
 * thread may run the batch itself ("steal"); data stays right and nothing
 * deadlocks. */
struct shared_arg {
	ze_command_queue_handle_t q;
	int id, failures;
};

static void *
shared_queue_thread(void *p)
{
	struct shared_arg *a = p;
	ze_command_list_desc_t ld = { ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC,
				      NULL, 0, 0 };
	ze_command_list_handle_t l;
	char src[4096], dst[4096];
	if (zt.list.pfnCreate(zt.ctx, zt.dev, &ld, &l)) {
		a->failures++;
		return NULL;
	}
	if (zt.list.pfnAppendMemoryCopy(l, dst, src, sizeof(src), NULL, 0,
					NULL) ||
	    zt.list.pfnClose(l))
		a->failures++;
	for (int r = 0; r < 300 && !a->failures; r++) {
		unsigned seed = (unsigned)(a->id * 7919 + r);
		tc_pattern(src, sizeof(src), seed);
		memset(dst, 0, sizeof(dst));
		if (zt.queue.pfnExecuteCommandLists(a->q, 1, &l, NULL) ||
		    zt.queue.pfnSynchronize(a->q, UINT64_MAX) ||
		    !tc_check_pattern(dst, sizeof(dst), seed))
			a->failures++;
	}
	if (zt.list.pfnDestroy(l))
		a->failures++;
	return NULL;
}

START_TEST(test_thread_shared_queue_synchronize)
{
	ze_command_queue_handle_t q = tc_queue(0, 0);
	struct tc_thread t[3];
	struct shared_arg a[3];
	for (int i = 0; i < 3; i++) {
		a[i] = (struct shared_arg){ q, i, 0 };
		tc_thread_start(&t[i], shared_queue_thread, &a[i]);
	}
	for (int i = 0; i < 3; i++) {
		tc_thread_join(&t[i]);
		ck_assert_int_eq(a[i].failures, 0);
	}
	ck_assert_int_eq(zt.queue.pfnDestroy(q), ZE_RESULT_SUCCESS);
}
END_TEST

/* A host that synchronizes at once runs its batch itself (steal), and the
 * idle worker then looks for the next ticket without the queue's lock:
 * what comes after a stolen batch must still run on the worker, whether
 * it was queued behind it before the steal (even rounds) or after the
 * steal ended (odd rounds). The second copy is only polled (a wait with
 * a timeout never steals), so only the worker can complete it. */
static void
append_copy(ze_command_list_handle_t imm, char *dst, const char *src,
	    ze_event_handle_t ev)
{
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(imm, dst, src, 256, ev,
						     0, NULL),
			 ZE_RESULT_SUCCESS);
}

START_TEST(test_thread_worker_runs_after_steal)
{
	ze_command_list_handle_t imm =
		tc_imm(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
	ze_event_pool_handle_t pool = tc_pool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE,
					      2);
	ze_event_handle_t a = tc_event(pool, 0), b = tc_event(pool, 1);
	char src[2][256], dst[2][256];
	for (int r = 0; r < 200; r++) {
		for (int k = 0; k < 2; k++) {
			tc_pattern(src[k], 256, (unsigned)(2 * r + k));
			memset(dst[k], 0, 256);
		}
		append_copy(imm, dst[0], src[0], a);
		if (r % 2 == 0)
			append_copy(imm, dst[1], src[1], b);
		ck_assert_int_eq(zt.event.pfnHostSynchronize(a, UINT64_MAX),
				 ZE_RESULT_SUCCESS);
		if (r % 2)
			append_copy(imm, dst[1], src[1], b);
		uint64_t end = tc_now_ns() + 10000000000ull;
		ze_result_t st;
		while ((st = zt.event.pfnHostSynchronize(b, 1000000)) ==
			       ZE_RESULT_NOT_READY &&
		       tc_now_ns() < end)
			;
		ck_assert_int_eq(st, ZE_RESULT_SUCCESS);
		ck_assert(tc_check_pattern(dst[0], 256, (unsigned)(2 * r)));
		ck_assert(tc_check_pattern(dst[1], 256, (unsigned)(2 * r + 1)));
		ck_assert_int_eq(zt.event.pfnHostReset(a), ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.event.pfnHostReset(b), ZE_RESULT_SUCCESS);
	}
	ck_assert_int_eq(zt.event.pfnDestroy(a), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(b), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(pool), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(imm), ZE_RESULT_SUCCESS);
}
END_TEST

/* ---- producer / consumer chain ---------------------------------------- */

enum { STAGES = 5, CROUNDS = 20, CSZ = 256 * 1024 };

struct stage {
	int k;
	char **buf;
	ze_event_handle_t (*ev)[STAGES + 1];
	int failures;
};

/* Stage k, on its own thread and immediate list: for each round, wait for
 * ev[r][k], copy buf[k] -> buf[k+1], signal ev[r][k+1]. The appends
 * return at once; the worker waits. */
static void *
stage_thread(void *p)
{
	struct stage *s = p;
	ze_command_queue_desc_t d = { ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				      NULL, (uint32_t)(s->k % 2), 0, 0, 0, 0 };
	ze_command_list_handle_t i;
	if (zt.list.pfnCreateImmediate(zt.ctx, zt.dev, &d, &i)) {
		s->failures++;
		return NULL;
	}
	for (int r = 0; r < CROUNDS; r++)
		if (zt.list.pfnAppendMemoryCopy(i, s->buf[s->k + 1],
						s->buf[s->k], CSZ,
						s->ev[r][s->k + 1], 1,
						&s->ev[r][s->k]))
			s->failures++;
	if (zt.list.pfnHostSynchronize(i, UINT64_MAX) ||
	    zt.list.pfnDestroy(i))
		s->failures++;
	return NULL;
}

START_TEST(test_thread_producer_consumer_chain)
{
	ze_event_pool_handle_t p =
		tc_pool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE,
			CROUNDS * (STAGES + 1));
	ze_event_handle_t ev[CROUNDS][STAGES + 1];
	for (int r = 0; r < CROUNDS; r++)
		for (int k = 0; k <= STAGES; k++)
			ev[r][k] = tc_event(p,
					    (uint32_t)(r * (STAGES + 1) + k));
	char *buf[STAGES + 1];
	static const ze_memory_type_t kind[] = {
		ZE_MEMORY_TYPE_HOST, ZE_MEMORY_TYPE_DEVICE,
		ZE_MEMORY_TYPE_SHARED, ZE_MEMORY_TYPE_UNKNOWN };
	for (int k = 0; k <= STAGES; k++)
		buf[k] = tc_alloc(kind[k % 4], CSZ);
	struct tc_thread t[STAGES];
	struct stage st[STAGES];
	for (int k = 0; k < STAGES; k++) {
		st[k] = (struct stage){ k, buf, ev, 0 };
		tc_thread_start(&t[k], stage_thread, &st[k]);
	}
	/* The host produces each round, consumes the chain's output. */
	for (int r = 0; r < CROUNDS; r++) {
		tc_pattern(buf[0], CSZ, (unsigned)r);
		ck_assert_int_eq(zt.event.pfnHostSignal(ev[r][0]),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.event.pfnHostSynchronize(ev[r][STAGES],
							     UINT64_MAX),
				 ZE_RESULT_SUCCESS);
		ck_assert_msg(tc_check_pattern(buf[STAGES], CSZ, (unsigned)r),
			      "round %d", r);
	}
	for (int k = 0; k < STAGES; k++) {
		tc_thread_join(&t[k]);
		ck_assert_int_eq(st[k].failures, 0);
	}
	for (int k = 0; k <= STAGES; k++)
		tc_free(kind[k % 4], buf[k]);
	for (int r = 0; r < CROUNDS; r++)
		for (int k = 0; k <= STAGES; k++)
			ck_assert_int_eq(zt.event.pfnDestroy(ev[r][k]),
					 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(p), ZE_RESULT_SUCCESS);
}
END_TEST

TCase *
tc_case_thread(void)
{
	TCase *tc = tcase_create("thread");
	tcase_add_checked_fixture(tc, tc_setup, tc_teardown);
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_thread_many_lists_many_queues);
	tcase_add_test(tc, test_thread_shared_queue_synchronize);
	tcase_add_test(tc, test_thread_worker_runs_after_steal);
	tcase_add_test(tc, test_thread_producer_consumer_chain);
	return tc;
}

/* ---- frees of memory in flight ---------------------------------------- */

struct in_flight {
	ze_command_list_handle_t imm;
	ze_event_pool_handle_t pool;
	ze_event_handle_t gate;
	char *src, *dst;
	size_t n;
};

/* An immediate list whose copy src -> dst waits for `gate`. */
static void
in_flight_start(struct in_flight *f, ze_memory_type_t kind)
{
	f->n = 8 << 20;
	f->imm = tc_imm(0);
	f->pool = tc_pool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1);
	f->gate = tc_event(f->pool, 0);
	f->src = tc_alloc(kind, f->n);
	f->dst = tc_alloc(ZE_MEMORY_TYPE_HOST, f->n);
	tc_pattern(f->src, f->n, 99);
	memset(f->dst, 0, f->n);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(f->imm, f->dst, f->src,
						     f->n, NULL, 1, &f->gate),
			 ZE_RESULT_SUCCESS);
}

static void
in_flight_end(struct in_flight *f)
{
	ck_assert_int_eq(zt.list.pfnHostSynchronize(f->imm, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert(tc_check_pattern(f->dst, f->n, 99));
	/* The deferred free has happened by now. */
	ck_assert_int_eq(zt.mem.pfnGetAddressRange(zt.ctx, f->src, NULL,
						   NULL),
			 ZE_RESULT_ERROR_ADDRESS_NOT_FOUND);
	ck_assert_int_eq(zt.list.pfnDestroy(f->imm), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(f->gate), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(f->pool), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_HOST, f->dst);
}

START_TEST(test_free_defer_waits_for_work)
{
	struct in_flight f;
	in_flight_start(&f, ZE_MEMORY_TYPE_DEVICE);
	ze_memory_free_ext_desc_t d = {
		ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, NULL,
		ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE };
	ck_assert_int_eq(zt.mem.pfnFreeExt(zt.ctx, &d, f.src),
			 ZE_RESULT_SUCCESS);
	/* Not freed yet: the copy has not run. A second free is refused. */
	ck_assert_int_eq(zt.mem.pfnGetAddressRange(zt.ctx, f.src, NULL, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnFreeExt(zt.ctx, &d, f.src),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, f.src),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.event.pfnHostSignal(f.gate), ZE_RESULT_SUCCESS);
	in_flight_end(&f);
}
END_TEST

/* zeMemFree of memory in flight behaves like DEFER_FREE. */
START_TEST(test_free_plain_defers)
{
	struct in_flight f;
	in_flight_start(&f, ZE_MEMORY_TYPE_SHARED);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, f.src), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnGetAddressRange(zt.ctx, f.src, NULL, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostSignal(f.gate), ZE_RESULT_SUCCESS);
	in_flight_end(&f);
}
END_TEST

static void *
signal_later(void *p)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	nanosleep(&ts, NULL);
	zt.event.pfnHostSignal((ze_event_handle_t)p);
	return NULL;
}

START_TEST(test_free_blocking_waits_for_work)
{
	struct in_flight f;
	in_flight_start(&f, ZE_MEMORY_TYPE_HOST);
	struct tc_thread t;
	tc_thread_start(&t, signal_later, f.gate);
	ze_memory_free_ext_desc_t d = {
		ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, NULL,
		ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE };
	uint64_t t0 = tc_now_ns();
	ck_assert_int_eq(zt.mem.pfnFreeExt(zt.ctx, &d, f.src),
			 ZE_RESULT_SUCCESS);
	/* It returned after the copy: the data is there, the memory gone. */
	ck_assert_uint_ge(tc_now_ns() - t0, 40 * 1000 * 1000);
	ck_assert(tc_check_pattern(f.dst, f.n, 99));
	ck_assert_int_eq(zt.mem.pfnGetAddressRange(zt.ctx, f.src, NULL, NULL),
			 ZE_RESULT_ERROR_ADDRESS_NOT_FOUND);
	tc_thread_join(&t);
	in_flight_end(&f);
}
END_TEST

/* Memory no work uses is freed at once whatever the policy. */
START_TEST(test_free_idle_memory_at_once)
{
	static const uint32_t policy[] = {
		0, ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE,
		ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE };
	ze_memory_free_ext_desc_t d = {
		ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, NULL, 0 };
	ck_assert_int_eq(zt.mem.pfnFreeExt(zt.ctx, &d, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	for (int i = 0; i < 3; i++) {
		char *p = tc_alloc(ZE_MEMORY_TYPE_DEVICE, 1 << 20);
		d.freePolicy = policy[i];
		ck_assert_int_eq(zt.mem.pfnFreeExt(zt.ctx, &d, p),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.mem.pfnGetAddressRange(zt.ctx, p, NULL,
							   NULL),
				 ZE_RESULT_ERROR_ADDRESS_NOT_FOUND);
	}
}
END_TEST

TCase *
tc_case_free(void)
{
	TCase *tc = tcase_create("free");
	tcase_add_checked_fixture(tc, tc_setup, tc_teardown);
	tcase_add_test(tc, test_free_defer_waits_for_work);
	tcase_add_test(tc, test_free_plain_defers);
	tcase_add_test(tc, test_free_blocking_waits_for_work);
	tcase_add_test(tc, test_free_idle_memory_at_once);
	return tc;
}
