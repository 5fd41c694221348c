// SPDX-License-Identifier: MIT
/*
 * zb_cmd: copy-engine figures (issue 7), on an immediate command list of
 * the device's copy queue group, device memory to device memory.
 *
 *   copy, synced    zeCommandListAppendMemoryCopy + synchronize per copy
 *                   (completion latency included) vs memcpy;
 *   copy, streamed  a batch of appends, one synchronize, vs memcpy;
 *   fill            zeCommandListAppendMemoryFill with a 1-byte pattern
 *                   (and a 16-byte one in the full run), streamed, vs
 *                   memset;
 *   latency         an empty append (a barrier) + synchronize on an
 *                   asynchronous and on a synchronous immediate list vs a
 *                   mutex/condition-variable round trip to another thread
 *                   (the least it costs to hand work to a worker and wait);
 *   event sync      an empty append signalling an event +
 *                   zeEventHostSynchronize + zeEventHostReset on an
 *                   asynchronous immediate list, vs the same append without
 *                   event + zeCommandListHostSynchronize (target: <= 2x);
 *   small copies    us per copy of 64 B and 4 KiB: on an immediate list
 *                   with an event (append + event sync + reset per copy),
 *                   the same gated by a wait event the host signals after
 *                   the append (Intel's ze_bandwidth, immediate mode), on a
 *                   regular list executed and synchronized once per copy,
 *                   the same gated by a wait event (ze_bandwidth, regular
 *                   mode), and on a regular list of 256 copies executed
 *                   once; vs memcpy of the same size (target: <= 1 us per
 *                   copy).
 * Sizes 4 KiB to 256 MiB (x4; --quick: x16 up to 16 MiB); each trial moves
 * about 256 MiB (--quick 32 MiB); baseline and engine trials alternate.
 * Target: >= 0.9x from 1 MiB up. Synchronize is zeCommandListHostSynchronize
 * where the loader has it (Level Zero 1.6), else an event signalled by the
 * last append (zeEventHostSynchronize + zeEventHostReset).
 */
#include "zb.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static ze_command_list_handle_t imm;
static ze_pfnCommandListHostSynchronize_t host_sync;
static ze_event_handle_t ev;
static char *src, *dst;

static ze_result_t
sync_list(ze_command_list_handle_t l)
{
	if (host_sync)
		return host_sync(l, UINT64_MAX);
	ze_result_t r = zeEventHostSynchronize(ev, UINT64_MAX);
	return r ? r : zeEventHostReset(ev);
}

enum mode { BASE_COPY, SYNC_COPY, STREAM_COPY, BASE_SET, FILL };

/* Repetitions so one trial moves about 256 MiB (--quick 32 MiB). */
static int
reps_for(size_t size)
{
	size_t r = (zb.quick ? 32 * ZB_MiB : 256 * ZB_MiB) / size;
	return r < 2 ? 2 : r > 4096 ? 4096 : (int)r;
}

/* GB/s of one trial, NAN on an error. */
static double
trial(enum mode m, size_t size, const uint8_t *pat, size_t psize)
{
	int reps = reps_for(size);
	ze_result_t res = ZE_RESULT_SUCCESS;
	uint64_t t0 = tool_now_ns();
	for (int i = 0; i < reps && !res; i++) {
		ze_event_handle_t sig =
			host_sync || (m != SYNC_COPY && i < reps - 1) ? NULL
								       : ev;
		switch (m) {
		case BASE_COPY:
			memcpy(dst, src, size);
			zb_keep(dst);
			break;
		case BASE_SET:
			memset(dst, pat[0], size);
			zb_keep(dst);
			break;
		case SYNC_COPY:
			res = zeCommandListAppendMemoryCopy(imm, dst, src, size,
							    sig, 0, NULL);
			if (!res)
				res = sync_list(imm);
			break;
		case STREAM_COPY:
			res = zeCommandListAppendMemoryCopy(imm, dst, src, size,
							    sig, 0, NULL);
			break;
		case FILL:
			res = zeCommandListAppendMemoryFill(imm, dst, pat,
							    psize, size, sig, 0,
							    NULL);
			break;
		}
	}
	if (!res && (m == STREAM_COPY || m == FILL))
		res = sync_list(imm);
	double t = (double)(tool_now_ns() - t0);
	return res ? NAN : (double)size * reps / t;
}

/* Median GB/s of engine mode m and of its baseline, alternated. */
static void
measure(enum mode m, enum mode base, size_t size, const uint8_t *pat,
	size_t psize, double *eng, double *ref)
{
	double e[9], b[9];
	int trials = zb.quick ? 3 : 9;
	trial(base, size, pat, psize); /* warm up both */
	trial(m, size, pat, psize);
	for (int t = 0; t < trials; t++) {
		b[t] = trial(base, size, pat, psize);
		e[t] = trial(m, size, pat, psize);
	}
	*eng = zb_median(e, trials);
	*ref = zb_median(b, trials);
}

static void
bandwidth(size_t max)
{
	uint8_t pat[16];
	char name[64], b[32], p[96];
	int trials = zb.quick ? 3 : 9;
	for (size_t s = 4096; s <= max; s *= zb.quick ? 16 : 4) {
		double e, ref;
		const char *sz = tool_human(s, b, sizeof(b));
		snprintf(p, sizeof(p), "%d trials of %d x %s%s", trials,
			 reps_for(s), sz, s >= ZB_MiB ? ", target >= 0.9x"
						     : "");
		measure(SYNC_COPY, BASE_COPY, s, NULL, 0, &e, &ref);
		snprintf(name, sizeof(name), "copy %s, synced", sz);
		zb_report("cmd", name, e, "GB/s", "memcpy", ref, p);
		measure(STREAM_COPY, BASE_COPY, s, NULL, 0, &e, &ref);
		snprintf(name, sizeof(name), "copy %s, streamed", sz);
		zb_report("cmd", name, e, "GB/s", "memcpy", ref, p);
		for (size_t psize = 1; psize <= 16; psize *= 16) {
			if (psize > 1 && zb.quick)
				break;
			for (size_t i = 0; i < sizeof(pat); i++)
				pat[i] = psize == 1 ? 0x3c : (uint8_t)(i * 7 + 1);
			measure(FILL, BASE_SET, s, pat, psize, &e, &ref);
			snprintf(name, sizeof(name), "fill %s, %zu-byte pattern",
				 sz, psize);
			zb_report("cmd", name, e, "GB/s", "memset", ref, p);
		}
	}
}

/* ---- latency ----------------------------------------------------------- */

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int turn; /* 1: the worker's, 0: the main thread's, -1: stop */
} pp = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };

static void *
ping_worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&pp.lock);
	for (;;) {
		while (pp.turn == 0)
			pthread_cond_wait(&pp.cond, &pp.lock);
		if (pp.turn < 0)
			break;
		pp.turn = 0;
		pthread_cond_broadcast(&pp.cond);
	}
	pthread_mutex_unlock(&pp.lock);
	return NULL;
}

/* us per round trip to the ping worker (l NULL) or per append + sync. */
static double
latency_trial(ze_command_list_handle_t l, int iters)
{
	uint64_t t0 = tool_now_ns();
	for (int i = 0; i < iters; i++) {
		if (!l) {
			pthread_mutex_lock(&pp.lock);
			pp.turn = 1;
			pthread_cond_broadcast(&pp.cond);
			while (pp.turn == 1)
				pthread_cond_wait(&pp.cond, &pp.lock);
			pthread_mutex_unlock(&pp.lock);
			continue;
		}
		if (zeCommandListAppendBarrier(l, host_sync ? NULL : ev, 0,
					       NULL) ||
		    sync_list(l))
			return NAN;
	}
	return (double)(tool_now_ns() - t0) / iters / 1000.0;
}

static void
latency(const ze_command_queue_desc_t *qd)
{
	int iters = zb.quick ? 1000 : 5000, trials = zb.quick ? 3 : 9;
	ze_command_queue_desc_t sd = *qd;
	ze_command_list_handle_t syn = NULL;
	pthread_t th;
	double tb[9], ta[9], ts[9];
	char p[128];
	sd.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
	ze_result_t r = zeCommandListCreateImmediate(zb.ctx, zb.dev, &sd, &syn);
	if (pthread_create(&th, NULL, ping_worker, NULL)) {
		zb_skip("cmd", "append+sync latency", "no thread for the "
			"baseline");
		if (!r)
			zeCommandListDestroy(syn);
		return;
	}
	/* The three alternate, trial by trial. */
	for (int t = 0; t < trials; t++) {
		tb[t] = latency_trial(NULL, iters);
		ta[t] = latency_trial(imm, iters);
		ts[t] = r ? NAN : latency_trial(syn, iters);
	}
	pthread_mutex_lock(&pp.lock);
	pp.turn = -1;
	pthread_cond_broadcast(&pp.cond);
	pthread_mutex_unlock(&pp.lock);
	pthread_join(th, NULL);
	double base = zb_median(tb, trials);
	snprintf(p, sizeof(p), "empty barrier; %d iterations x %d trials; "
		 "sync by %s", iters, trials,
		 host_sync ? "zeCommandListHostSynchronize" : "event");
	zb_report("cmd", "append+sync, asynchronous immediate list",
		  zb_median(ta, trials), "us", "thread round trip (condvar)",
		  base, p);
	if (r) {
		zb_skip("cmd", "append+sync, synchronous immediate list",
			"zeCommandListCreateImmediate: %s", tool_result_str(r));
		return;
	}
	zb_report("cmd", "append+sync, synchronous immediate list",
		  zb_median(ts, trials), "us", "thread round trip (condvar)",
		  base, p);
	zeCommandListDestroy(syn);
}

/* ---- event sync and small copies -------------------------------------- */

enum small_mode { SM_MEMCPY, SM_IMM_EVENT, SM_IMM_GATED, SM_REG_EACH,
		  SM_REG_GATED, SM_REG_BATCH, SM_EVENT_SYNC, SM_LIST_SYNC };
#define SM_BATCH 256

struct small {
	ze_command_list_handle_t imm, one, gated, batch;
	ze_command_queue_handle_t q;
	ze_event_handle_t ev, gate;
};

/* us per op of one trial of mode m, NAN on an error. */
static double
small_trial(struct small *sm, enum small_mode m, size_t size, int iters)
{
	ze_result_t r = ZE_RESULT_SUCCESS;
	uint64_t t0 = tool_now_ns();
	for (int i = 0; i < iters && !r; i++) {
		switch (m) {
		case SM_MEMCPY:
			memcpy(dst, src, size);
			zb_keep(dst);
			break;
		case SM_IMM_EVENT:
			r = zeCommandListAppendMemoryCopy(sm->imm, dst, src,
							  size, sm->ev, 0,
							  NULL);
			if (!r)
				r = zeEventHostSynchronize(sm->ev, UINT64_MAX);
			if (!r)
				r = zeEventHostReset(sm->ev);
			break;
		case SM_IMM_GATED:
			r = zeEventHostReset(sm->ev);
			if (!r)
				r = zeCommandListAppendMemoryCopy(
					sm->imm, dst, src, size, sm->ev, 1,
					&sm->gate);
			if (!r)
				r = zeEventHostSignal(sm->gate);
			if (!r)
				r = zeEventHostSynchronize(sm->ev, UINT64_MAX);
			if (!r)
				r = zeEventHostReset(sm->gate);
			break;
		case SM_REG_EACH:
			r = zeCommandQueueExecuteCommandLists(sm->q, 1,
							      &sm->one, NULL);
			if (!r)
				r = zeCommandQueueSynchronize(sm->q,
							      UINT64_MAX);
			break;
		case SM_REG_GATED:
			r = zeCommandQueueExecuteCommandLists(sm->q, 1,
							      &sm->gated,
							      NULL);
			if (!r)
				r = zeEventHostSignal(sm->gate);
			if (!r)
				r = zeCommandQueueSynchronize(sm->q,
							      UINT64_MAX);
			if (!r)
				r = zeEventHostReset(sm->gate);
			break;
		case SM_REG_BATCH:
			r = zeCommandQueueExecuteCommandLists(sm->q, 1,
							      &sm->batch,
							      NULL);
			if (!r)
				r = zeCommandQueueSynchronize(sm->q,
							      UINT64_MAX);
			break;
		case SM_EVENT_SYNC:
			r = zeCommandListAppendBarrier(sm->imm, sm->ev, 0,
						       NULL);
			if (!r)
				r = zeEventHostSynchronize(sm->ev, UINT64_MAX);
			if (!r)
				r = zeEventHostReset(sm->ev);
			break;
		case SM_LIST_SYNC:
			r = zeCommandListAppendBarrier(sm->imm, NULL, 0, NULL);
			if (!r)
				r = host_sync(sm->imm, UINT64_MAX);
			break;
		}
	}
	double ops = (double)iters * (m == SM_REG_BATCH ? SM_BATCH : 1);
	return r ? NAN : (double)(tool_now_ns() - t0) / ops / 1000.0;
}

/* Medians of modes a and b, trial by trial alternated. */
static void
small_measure(struct small *sm, enum small_mode a, enum small_mode b,
	      size_t size, int iters, double *ra, double *rb)
{
	double va[9], vb[9];
	int trials = zb.quick ? 3 : 9;
	small_trial(sm, a, size, iters / 4 + 1);
	small_trial(sm, b, size, iters / 4 + 1);
	for (int t = 0; t < trials; t++) {
		va[t] = small_trial(sm, a, size, iters);
		vb[t] = small_trial(sm, b, size, iters);
	}
	*ra = zb_median(va, trials);
	*rb = zb_median(vb, trials);
}

static ze_result_t
small_lists(struct small *sm, const ze_command_queue_desc_t *qd, size_t size)
{
	ze_command_list_desc_t ld = { ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC,
				      NULL, qd->ordinal, 0 };
	ze_result_t r;
	if ((r = zeCommandListCreate(zb.ctx, zb.dev, &ld, &sm->one)) ||
	    (r = zeCommandListCreate(zb.ctx, zb.dev, &ld, &sm->gated)) ||
	    (r = zeCommandListCreate(zb.ctx, zb.dev, &ld, &sm->batch)) ||
	    (r = zeCommandListAppendMemoryCopy(sm->one, dst, src, size, NULL,
					       0, NULL)) ||
	    (r = zeCommandListClose(sm->one)) ||
	    (r = zeCommandListAppendMemoryCopy(sm->gated, dst, src, size, NULL,
					       1, &sm->gate)) ||
	    (r = zeCommandListClose(sm->gated)))
		return r;
	for (int i = 0; i < SM_BATCH && !r; i++)
		r = zeCommandListAppendMemoryCopy(sm->batch, dst, src, size,
						  NULL, 0, NULL);
	return r ? r : zeCommandListClose(sm->batch);
}

static void
small_ops(const ze_command_queue_desc_t *qd)
{
	struct small sm = { imm, NULL, NULL, NULL, NULL, ev, NULL };
	ze_event_pool_handle_t pool = NULL;
	int iters = zb.quick ? 2000 : 10000;
	char p[128];
	double a, b;
	ze_result_t r = ZE_RESULT_SUCCESS;
	if (!sm.ev) {
	}
	ze_event_pool_desc_t epd = { ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
				     ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 2 };
	ze_event_desc_t ed = { ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0,
			       ZE_EVENT_SCOPE_FLAG_HOST,
			       ZE_EVENT_SCOPE_FLAG_HOST };
	ze_event_desc_t gd = ed;
	gd.index = 1;
	if ((r = zeEventPoolCreate(zb.ctx, &epd, 1, &zb.dev, &pool)) ||
	    (!sm.ev && (r = zeEventCreate(pool, &ed, &sm.ev))) ||
	    (r = zeEventCreate(pool, &gd, &sm.gate))) {
		zb_skip("cmd", "event sync, small copies", "events: %s",
			tool_result_str(r));
		goto out;
	}
	if (host_sync) {
		small_measure(&sm, SM_EVENT_SYNC, SM_LIST_SYNC, 0, iters, &a,
			      &b);
		snprintf(p, sizeof(p), "empty barrier on an asynchronous "
			 "immediate list; %d iterations; target <= 2x", iters);
		zb_report("cmd", "event host sync", a, "us",
			  "zeCommandListHostSynchronize", b, p);
	} else {
		zb_skip("cmd", "event host sync", "no "
			"zeCommandListHostSynchronize in the loader");
	}
	if ((r = zeCommandQueueCreate(zb.ctx, zb.dev, qd, &sm.q))) {
		zb_skip("cmd", "small copies", "zeCommandQueueCreate: %s",
			tool_result_str(r));
		goto out;
	}
	static const size_t sizes[] = { 64, 4096 };
	for (size_t k = 0; k < 2; k++) {
		size_t size = sizes[k];
		char name[64], hs[32];
		const char *hsz = tool_human(size, hs, sizeof(hs));
		if ((r = small_lists(&sm, qd, size))) {
			zb_skip("cmd", "small copies", "lists: %s",
				tool_result_str(r));
			goto out;
		}
		snprintf(p, sizeof(p), "%d copies; target <= 1 us per copy",
			 iters);
		small_measure(&sm, SM_IMM_EVENT, SM_MEMCPY, size, iters, &a,
			      &b);
		snprintf(name, sizeof(name), "copy %s, immediate list + event",
			 hsz);
		zb_report("cmd", name, a, "us", "memcpy", b, p);
		small_measure(&sm, SM_IMM_GATED, SM_MEMCPY, size, iters, &a,
			      &b);
		snprintf(name, sizeof(name), "copy %s, immediate, gated "
			 "(ze_bandwidth)", hsz);
		zb_report("cmd", name, a, "us", "memcpy", b, p);
		small_measure(&sm, SM_REG_EACH, SM_MEMCPY, size, iters, &a,
			      &b);
		snprintf(name, sizeof(name), "copy %s, regular list, execute "
			 "+ sync each", hsz);
		zb_report("cmd", name, a, "us", "memcpy", b, p);
		small_measure(&sm, SM_REG_GATED, SM_MEMCPY, size, iters, &a,
			      &b);
		snprintf(name, sizeof(name), "copy %s, regular, gated "
			 "(ze_bandwidth)", hsz);
		zb_report("cmd", name, a, "us", "memcpy", b, p);
		small_measure(&sm, SM_REG_BATCH, SM_MEMCPY, size,
			      iters / SM_BATCH + 1, &a, &b);
		snprintf(name, sizeof(name), "copy %s, regular list of %d",
			 hsz, SM_BATCH);
		snprintf(p, sizeof(p), "%d executes of %d copies; target <= "
			 "1 us per copy", iters / SM_BATCH + 1, SM_BATCH);
		zb_report("cmd", name, a, "us", "memcpy", b, p);
		zeCommandListDestroy(sm.one);
		zeCommandListDestroy(sm.gated);
		zeCommandListDestroy(sm.batch);
		sm.one = sm.gated = sm.batch = NULL;
	}
out:
	if (sm.one)
		zeCommandListDestroy(sm.one);
	if (sm.gated)
		zeCommandListDestroy(sm.gated);
	if (sm.batch)
		zeCommandListDestroy(sm.batch);
	if (sm.q)
		zeCommandQueueDestroy(sm.q);
	if (sm.gate)
		zeEventDestroy(sm.gate);
	if (sm.ev && sm.ev != ev)
		zeEventDestroy(sm.ev);
	if (pool)
		zeEventPoolDestroy(pool);
}

/* ---- section ----------------------------------------------------------- */

static uint32_t
copy_ordinal(void)
{
	ze_command_queue_group_properties_t g[8];
	uint32_t n = 0, best = 0;
	if (zeDeviceGetCommandQueueGroupProperties(zb.dev, &n, NULL) || !n)
		return 0;
	if (n > 8)
		n = 8;
	for (uint32_t k = 0; k < n; k++)
		g[k] = (ze_command_queue_group_properties_t){
			ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES, NULL
		};
	if (zeDeviceGetCommandQueueGroupProperties(zb.dev, &n, g))
		return 0;
	for (uint32_t k = n; k-- > 0;) {
		if (!(g[k].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY))
			continue;
		best = k;
		if (!(g[k].flags &
		      ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE))
			break;
	}
	return best;
}

void
zb_cmd(void)
{
	size_t max = zb.quick ? 16 * ZB_MiB : 256 * ZB_MiB;
	ze_event_pool_handle_t pool = NULL;
	ze_command_queue_desc_t qd = {
		ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, copy_ordinal(), 0,
		0, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
		ZE_COMMAND_QUEUE_PRIORITY_NORMAL
	};
	zb_section("cmd", "immediate list on queue group %u, device -> "
		   "device, GB/s", qd.ordinal);
	host_sync = TOOL_SYM(ze_pfnCommandListHostSynchronize_t,
			     "zeCommandListHostSynchronize");
	src = dst = NULL;
	ze_result_t r = zeCommandListCreateImmediate(zb.ctx, zb.dev, &qd, &imm);
	if (r) {
		zb_skip("cmd", "all", "zeCommandListCreateImmediate: %s",
			tool_result_str(r));
		return;
	}
	if (!host_sync) {
		ze_event_pool_desc_t epd = {
			ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
			ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1
		};
		ze_event_desc_t ed = { ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0,
				       ZE_EVENT_SCOPE_FLAG_HOST,
				       ZE_EVENT_SCOPE_FLAG_HOST };
		if ((r = zeEventPoolCreate(zb.ctx, &epd, 1, &zb.dev, &pool)) ||
		    (r = zeEventCreate(pool, &ed, &ev))) {
			zb_skip("cmd", "all", "no zeCommandListHostSynchronize "
				"in the loader, and events: %s",
				tool_result_str(r));
			goto out;
		}
	}
	if ((r = zeMemAllocDevice(zb.ctx, &zb_ddesc, max, 0, zb.dev,
				  (void **)&src)) ||
	    (r = zeMemAllocDevice(zb.ctx, &zb_ddesc, max, 0, zb.dev,
				  (void **)&dst))) {
		zb_skip("cmd", "all", "zeMemAllocDevice(%zu): %s", max,
			tool_result_str(r));
		goto out;
	}
	memset(src, 1, max); /* fault every page in */
	memset(dst, 2, max);
	bandwidth(max);
	latency(&qd);
	small_ops(&qd);
out:
	if (src)
		zeMemFree(zb.ctx, src);
	if (dst)
		zeMemFree(zb.ctx, dst);
	if (ev)
		zeEventDestroy(ev);
	if (pool)
		zeEventPoolDestroy(pool);
	ev = NULL;
	zeCommandListDestroy(imm);
}
