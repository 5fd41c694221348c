// SPDX-License-Identifier: MIT
/*
 * test_cmd_prio: command-queue priority (driver/cmd/cmd_prio.c), observed
 * through global timestamps the ops write, never through wall-clock
 * durations:
 *   - a HIGH queue's list submitted while a NORMAL list of the same engine
 *     runs: once the NORMAL list passes an event the host signals after
 *     the submit, none of its ops runs before the HIGH list's last one;
 *   - the same with the HIGH work appended to an immediate list;
 *   - a HIGH list waiting for an event a NORMAL list signals completes (a
 *     blocked HIGH queue holds nobody back);
 *   - a queue of another index is not held back by a HIGH queue.
 * The ordering tests hold by construction (the NORMAL list is blocked on
 * an event until the HIGH work is queued), so they are exact on a loaded
 * machine too.
 */
#include "tcmd.h"

#define NOPS 48u
#define HOPS 48u
#define CHUNK (64u << 10)
#define HCHUNK (1u << 20) /* HIGH copies: a few ms in all */

static ze_command_queue_handle_t
prio_queue(uint32_t index, ze_command_queue_priority_t prio)
{
	ze_command_queue_desc_t d = { ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				      NULL, 0, index, 0,
				      ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
				      prio };
	ze_command_queue_handle_t q = NULL;
	ck_assert_int_eq(zt.queue.pfnCreate(zt.ctx, zt.dev, &d, &q),
			 ZE_RESULT_SUCCESS);
	return q;
}

static void
execute(ze_command_queue_handle_t q, ze_command_list_handle_t l,
	ze_fence_handle_t f)
{
	ck_assert_int_eq(zt.list.pfnClose(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(q, 1, &l, f),
			 ZE_RESULT_SUCCESS);
}

static void
append_ts(ze_command_list_handle_t l, uint64_t *dst, ze_event_handle_t sig,
	  uint32_t nwait, ze_event_handle_t *wait)
{
	ck_assert_int_eq(zt.list.pfnAppendWriteGlobalTimestamp(l, dst, sig,
							       nwait, wait),
			 ZE_RESULT_SUCCESS);
}

static void
append_copy_n(ze_command_list_handle_t l, char *dst, const char *src,
	      size_t n)
{
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(l, dst, src, n, NULL, 0,
						     NULL),
			 ZE_RESULT_SUCCESS);
}

static void
append_copy(ze_command_list_handle_t l, char *dst, const char *src)
{
	append_copy_n(l, dst, src, CHUNK);
}

/* The NORMAL side of the ordering tests: list [signal S, wait G,
 * (copy, timestamp) x NOPS] on queue (0, 0), running and blocked on G. */
struct normal {
	ze_command_queue_handle_t q;
	ze_command_list_handle_t l;
	ze_fence_handle_t f;
	ze_event_pool_handle_t pool;
	ze_event_handle_t s, g;
	uint64_t *ts;
	char *src, *dst;
};

static void
normal_start(struct normal *n)
{
	n->q = prio_queue(0, ZE_COMMAND_QUEUE_PRIORITY_NORMAL);
	n->l = tc_list(0);
	n->f = tc_fence(n->q);
	n->pool = tc_pool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 4);
	n->s = tc_event(n->pool, 0);
	n->g = tc_event(n->pool, 1);
	n->ts = tc_alloc(ZE_MEMORY_TYPE_HOST, NOPS * sizeof(uint64_t));
	n->src = tc_alloc(ZE_MEMORY_TYPE_HOST, CHUNK);
	n->dst = tc_alloc(ZE_MEMORY_TYPE_HOST, CHUNK);
	ck_assert_int_eq(zt.list.pfnAppendSignalEvent(n->l, n->s),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnAppendWaitOnEvents(n->l, 1, &n->g),
			 ZE_RESULT_SUCCESS);
	for (uint32_t i = 0; i < NOPS; i++) {
		append_copy(n->l, n->dst, n->src);
		append_ts(n->l, &n->ts[i], NULL, 0, NULL);
	}
	execute(n->q, n->l, n->f);
	/* The NORMAL list runs: its first op signalled S. */
	ck_assert_int_eq(zt.event.pfnHostSynchronize(n->s, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
}

/* Lets the NORMAL list go on, waits for it, checks that every one of its
 * timestamps comes after `last`, and frees it. */
static void
normal_finish(struct normal *n, uint64_t first, uint64_t last)
{
	ck_assert_uint_gt(last, first);
	ck_assert_int_eq(zt.fence.pfnHostSynchronize(n->f, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	for (uint32_t i = 0; i < NOPS; i++)
		ck_assert_msg(n->ts[i] > last,
			      "NORMAL op %u ran at %llu, before the end of the HIGH "
			      "work [%llu, %llu]", i,
			      (unsigned long long)n->ts[i],
			      (unsigned long long)first,
			      (unsigned long long)last);
	ck_assert_int_eq(zt.fence.pfnDestroy(n->f), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(n->l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnDestroy(n->q), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(n->s), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(n->g), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(n->pool), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_HOST, n->ts);
	tc_free(ZE_MEMORY_TYPE_HOST, n->src);
	tc_free(ZE_MEMORY_TYPE_HOST, n->dst);
}

START_TEST(test_prio_high_runs_before_earlier_normal)
{
	struct normal n;
	normal_start(&n);
	/* A HIGH queue of the same engine, created and given work while
	 * the NORMAL list is in the middle of its batch. */
	ze_command_queue_handle_t qh =
		prio_queue(0, ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH);
	ze_command_list_handle_t lh = tc_list(0);
	ze_fence_handle_t fh = tc_fence(qh);
	uint64_t *hts = tc_alloc(ZE_MEMORY_TYPE_HOST, 2 * sizeof(uint64_t));
	char *hsrc = tc_alloc(ZE_MEMORY_TYPE_HOST, HCHUNK);
	char *hdst = tc_alloc(ZE_MEMORY_TYPE_HOST, HCHUNK);
	append_ts(lh, &hts[0], NULL, 0, NULL);
	for (uint32_t i = 0; i < HOPS; i++)
		append_copy_n(lh, hdst, hsrc, HCHUNK);
	append_ts(lh, &hts[1], NULL, 0, NULL);
	execute(qh, lh, fh);
	ck_assert_int_eq(zt.event.pfnHostSignal(n.g), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.fence.pfnHostSynchronize(fh, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	normal_finish(&n, hts[0], hts[1]);
	ck_assert_int_eq(zt.fence.pfnDestroy(fh), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(lh), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnDestroy(qh), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_HOST, hts);
	tc_free(ZE_MEMORY_TYPE_HOST, hsrc);
	tc_free(ZE_MEMORY_TYPE_HOST, hdst);
}
END_TEST

/* The implicit queue of an immediate list has its desc's priority: its
 * appends (queued behind a first one the host releases) run before the
 * NORMAL list's remaining ops. */
START_TEST(test_prio_high_immediate_list)
{
	struct normal n;
	normal_start(&n);
	ze_command_queue_desc_t d = { ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				      NULL, 0, 0, 0,
				      ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
				      ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH };
	ze_command_list_handle_t imm = NULL;
	ck_assert_int_eq(zt.list.pfnCreateImmediate(zt.ctx, zt.dev, &d, &imm),
			 ZE_RESULT_SUCCESS);
	ze_command_queue_priority_t pr = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
	ck_assert_int_eq(zt.list.pfnImmediateGetPriority(imm, &pr),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(pr, ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH);
	ze_event_handle_t go = tc_event(n.pool, 2), started = tc_event(n.pool,
								      3);
	uint64_t *hts = tc_alloc(ZE_MEMORY_TYPE_HOST, 2 * sizeof(uint64_t));
	char *hsrc = tc_alloc(ZE_MEMORY_TYPE_HOST, HCHUNK);
	char *hdst = tc_alloc(ZE_MEMORY_TYPE_HOST, HCHUNK);
	append_ts(imm, &hts[0], started, 1, &go);
	for (uint32_t i = 0; i < HOPS; i++)
		append_copy_n(imm, hdst, hsrc, HCHUNK);
	append_ts(imm, &hts[1], NULL, 0, NULL);
	ck_assert_int_eq(zt.event.pfnHostSignal(go), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostSynchronize(started, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostSignal(n.g), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnHostSynchronize(imm, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(imm), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(go), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(started), ZE_RESULT_SUCCESS);
	normal_finish(&n, hts[0], hts[1]);
	tc_free(ZE_MEMORY_TYPE_HOST, hts);
	tc_free(ZE_MEMORY_TYPE_HOST, hsrc);
	tc_free(ZE_MEMORY_TYPE_HOST, hdst);
}
END_TEST

/* HIGH lists that wait for an event only a NORMAL (or LOW) list of the
 * same engine signals: one blocked from its first op, one after work of
 * its own (runnable when submitted). Both complete. */
START_TEST(test_prio_high_waiting_on_normal_completes)
{
	static const ze_command_queue_priority_t low[2] = {
		ZE_COMMAND_QUEUE_PRIORITY_NORMAL,
		ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_LOW,
	};
	char *a = tc_alloc(ZE_MEMORY_TYPE_HOST, CHUNK);
	char *b = tc_alloc(ZE_MEMORY_TYPE_HOST, CHUNK);
	char *c = tc_alloc(ZE_MEMORY_TYPE_HOST, CHUNK);
	for (int k = 0; k < 4; k++) {
		ze_command_queue_handle_t qh =
			prio_queue(0, ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH);
		ze_command_queue_handle_t qn = prio_queue(0, low[k & 1]);
		ze_event_pool_handle_t pool = tc_pool(0, 1);
		ze_event_handle_t e = tc_event(pool, 0);
		ze_command_list_handle_t lh = tc_list(0), ln = tc_list(0);
		ze_fence_handle_t fh = tc_fence(qh), fn = tc_fence(qn);
		tc_pattern(a, CHUNK, (unsigned)k);
		if (k >= 2)
			append_copy(lh, c, a); /* runnable at submit */
		ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(lh, c, b, CHUNK,
							     NULL, 1, &e),
				 ZE_RESULT_SUCCESS);
		for (int i = 0; i < 8; i++)
			append_copy(ln, b, a);
		ck_assert_int_eq(zt.list.pfnAppendSignalEvent(ln, e),
				 ZE_RESULT_SUCCESS);
		execute(qh, lh, fh);
		execute(qn, ln, fn);
		ck_assert_int_eq(zt.fence.pfnHostSynchronize(fh, UINT64_MAX),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.fence.pfnHostSynchronize(fn, UINT64_MAX),
				 ZE_RESULT_SUCCESS);
		ck_assert(tc_check_pattern(c, CHUNK, (unsigned)k));
		ck_assert_int_eq(zt.fence.pfnDestroy(fh), ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.fence.pfnDestroy(fn), ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.list.pfnDestroy(lh), ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.list.pfnDestroy(ln), ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.queue.pfnDestroy(qh), ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.queue.pfnDestroy(qn), ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.event.pfnDestroy(e), ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.event_pool.pfnDestroy(pool),
				 ZE_RESULT_SUCCESS);
	}
	tc_free(ZE_MEMORY_TYPE_HOST, a);
	tc_free(ZE_MEMORY_TYPE_HOST, b);
	tc_free(ZE_MEMORY_TYPE_HOST, c);
}
END_TEST

/* A NORMAL queue of index 1 runs while a HIGH queue of index 0 has work:
 * some of its timestamps fall inside the HIGH list's interval. Whether
 * the two threads overlap is up to the scheduler, so a round without
 * overlap is tried again with a longer HIGH list; a gated queue would
 * never overlap. */
START_TEST(test_prio_other_index_not_gated)
{
	ze_command_queue_handle_t qh =
		prio_queue(0, ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH);
	ze_command_queue_handle_t qn =
		prio_queue(1, ZE_COMMAND_QUEUE_PRIORITY_NORMAL);
	ze_event_pool_handle_t pool = tc_pool(0, 2);
	ze_event_handle_t g = tc_event(pool, 0), a = tc_event(pool, 1);
	uint64_t *ts = tc_alloc(ZE_MEMORY_TYPE_HOST,
				(NOPS + 2) * sizeof(uint64_t));
	char *src = tc_alloc(ZE_MEMORY_TYPE_HOST, HCHUNK);
	char *dst = tc_alloc(ZE_MEMORY_TYPE_HOST, HCHUNK);
	char *nsrc = tc_alloc(ZE_MEMORY_TYPE_HOST, 4096);
	char *ndst = tc_alloc(ZE_MEMORY_TYPE_HOST, 4096);
	bool overlap = false;
	/* 8 MiB of HIGH copies, doubled each round up to 1 GiB: the last
	 * rounds outlast any scheduling delay of a loaded machine. */
	uint32_t hops = 8;
	for (int round = 0; round < 8 && !overlap; round++, hops *= 2) {
		ck_assert_int_eq(zt.event.pfnHostReset(g), ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.event.pfnHostReset(a), ZE_RESULT_SUCCESS);
		ze_command_list_handle_t lh = tc_list(0), ln = tc_list(0);
		ze_fence_handle_t fh = tc_fence(qh), fn = tc_fence(qn);
		ck_assert_int_eq(zt.list.pfnAppendWaitOnEvents(ln, 1, &g),
				 ZE_RESULT_SUCCESS);
		for (uint32_t i = 0; i < NOPS; i++) {
			ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(
						 ln, ndst, nsrc, 4096, NULL, 0,
						 NULL),
					 ZE_RESULT_SUCCESS);
			append_ts(ln, &ts[2 + i], NULL, 0, NULL);
		}
		append_ts(lh, &ts[0], a, 0, NULL);
		for (uint32_t i = 0; i < hops; i++)
			append_copy_n(lh, dst, src, HCHUNK);
		append_ts(lh, &ts[1], NULL, 0, NULL);
		execute(qn, ln, fn);
		execute(qh, lh, fh);
		ck_assert_int_eq(zt.event.pfnHostSynchronize(a, UINT64_MAX),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.event.pfnHostSignal(g), ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.fence.pfnHostSynchronize(fn, UINT64_MAX),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.fence.pfnHostSynchronize(fh, UINT64_MAX),
				 ZE_RESULT_SUCCESS);
		for (uint32_t i = 0; i < NOPS; i++)
			if (ts[2 + i] > ts[0] && ts[2 + i] < ts[1])
				overlap = true;
		ck_assert_int_eq(zt.fence.pfnDestroy(fh), ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.fence.pfnDestroy(fn), ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.list.pfnDestroy(lh), ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.list.pfnDestroy(ln), ZE_RESULT_SUCCESS);
	}
	ck_assert_msg(overlap, "the queue of index 1 never ran while the "
			       "HIGH queue of index 0 had work");
	ck_assert_int_eq(zt.queue.pfnDestroy(qh), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnDestroy(qn), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(g), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(a), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(pool), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_HOST, ts);
	tc_free(ZE_MEMORY_TYPE_HOST, src);
	tc_free(ZE_MEMORY_TYPE_HOST, dst);
	tc_free(ZE_MEMORY_TYPE_HOST, nsrc);
	tc_free(ZE_MEMORY_TYPE_HOST, ndst);
}
END_TEST

TCase *
tc_case_prio(void)
{
	TCase *tc = tcase_create("prio");
	tcase_add_checked_fixture(tc, tc_setup, tc_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_prio_high_runs_before_earlier_normal);
	tcase_add_test(tc, test_prio_high_immediate_list);
	tcase_add_test(tc, test_prio_high_waiting_on_normal_completes);
	tcase_add_test(tc, test_prio_other_index_not_gated);
	return tc;
}
