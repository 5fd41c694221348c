// SPDX-License-Identifier: MIT
/*
 * cmd_append: the zeCommandListAppend* entry points: argument checks in the
 * order the spec lists them (null handles, null pointers, sizes, then what
 * the driver knows: live handles, events of the list's context, ranges),
 * and the op each one records.
 *
 * Vocabulary:
 *   append    resolve the list and the signal / wait events (taking
 *             references that the op keeps), check the op's own arguments,
 *             then hand the op to cmd_list_add (recorded, or submitted on an
 *             immediate list). On any error every reference is dropped and
 *             nothing is recorded.
 *   range     every pointer + size is checked by cmd_check_range (cmd_mem.c):
 *             no wrap-around, and no running past a known allocation.
 *   overlap   a copy whose source and destination ranges overlap is
 *             ZE_RESULT_ERROR_OVERLAPPING_REGIONS (memcpy semantics); for a
 *             region copy, rows are compared exactly when both sides share
 *             pitches, else the bounding ranges are.
 *
 * Region copies: height 0 and depth 0 mean 1 (a 2D copy has depth 0, as the
 * spec describes); width 0 copies nothing. Pitches must hold the rows they
 * describe (pitch >= originX + width when more than one row is addressed,
 * slice pitch likewise), else ZE_RESULT_ERROR_INVALID_SIZE.
 *
 * No locks of its own.
 */
#include "cmd.h"

#include <stdlib.h>
#include <string.h>

struct append {
	struct _ze_command_list_handle_t *l;
	struct cmd_op op;
};

static ze_result_t
get_event(struct append *a, ze_event_handle_t h, const char *name,
	  struct _ze_event_handle_t **out)
{
	struct _ze_event_handle_t *e = cmd_event_get(h);
	if (!e)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"%s %p is not a live event", name, (void *)h);
	*out = e; /* the caller's op now owns the reference */
	if (e->pool->ctx != a->l->ctx)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT,
				"%s belongs to another context", name);
	return ZE_RESULT_SUCCESS;
}

/* Resolves the list and the events; on error, nothing is left held. */
static ze_result_t
begin(struct append *a, ze_command_list_handle_t h, ze_event_handle_t hSignal,
      uint32_t nwait, ze_event_handle_t *phWait)
{
	memset(a, 0, sizeof(*a));
	a->l = cmd_list_get(h);
	if (!a->l)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"hCommandList %p is not a live command list",
				(void *)h);
	ze_result_t r = ZE_RESULT_SUCCESS;
	if (hSignal)
		r = get_event(a, hSignal, "hSignalEvent", &a->op.signal);
	if (!r && a->op.signal && a->op.signal->cb)
		r = cmd_cb_check_append(a->op.signal, false);
	if (!r && nwait) {
		a->op.wait = cmd_zalloc(nwait, sizeof(*a->op.wait));
		if (!a->op.wait)
			r = DRV_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
				     "no memory for %u wait events", nwait);
	}
	for (uint32_t i = 0; !r && i < nwait; i++) {
		if (!phWait[i]) {
			r = DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				     "phWaitEvents[%u] is NULL", i);
			break;
		}
		r = get_event(a, phWait[i], "a wait event",
			      &a->op.wait[a->op.nwait]);
		if (a->op.wait[a->op.nwait])
			a->op.nwait++;
	}
	if (r) {
		cmd_op_release(&a->op);
		cmd_obj_put(&a->l->obj);
	}
	return r;
}

/* Records the op when r is success; releases everything either way. */
static ze_result_t
end(struct append *a, ze_result_t r)
{
	if (r)
		cmd_op_release(&a->op);
	else
		r = cmd_list_add(a->l, &a->op);
	cmd_obj_put(&a->l->obj);
	return r;
}

#define CHECK_LIST(h)                                                       \
	do {                                                                \
		if (!(h))                                                   \
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,\
					"hCommandList is NULL");            \
	} while (0)

#define CHECK_WAITS(n, ph)                                                  \
	do {                                                                \
		if ((n) && !(ph))                                           \
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_SIZE,       \
					"phWaitEvents is NULL with "        \
					"numWaitEvents %u", (n));           \
	} while (0)

/* cmd_op.probe for a destination and a source of these kinds. */
static uint8_t
probe_bits(enum cmd_mem_kind dst, enum cmd_mem_kind src)
{
	return (uint8_t)((dst == CMD_MEM_VMM ? CMD_VMM_DST : 0) |
			 (dst == CMD_MEM_SYSTEM ? CMD_SYS_DST : 0) |
			 (src == CMD_MEM_VMM ? CMD_VMM_SRC : 0) |
			 (src == CMD_MEM_SYSTEM ? CMD_SYS_SRC : 0));
}

static ze_result_t
copy_args(struct append *a, void *dst, const void *src, size_t size)
{
	ze_result_t r;
	enum cmd_mem_kind kd, ks;
	if ((r = cmd_check_range(a->l->ctx, dst, size, "dstptr", &kd)) ||
	    (r = cmd_check_range(a->l->ctx, src, size, "srcptr", &ks)))
		return r;
	a->op.probe = probe_bits(kd, ks);
	uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
	if (size && d < s + size && s < d + size)
		return DRV_FAIL(ZE_RESULT_ERROR_OVERLAPPING_REGIONS,
				"dstptr %p and srcptr %p overlap (%zu bytes)",
				dst, src, size);
	a->op.kind = CMD_OP_COPY;
	a->op.u.copy.dst = dst;
	a->op.u.copy.src = src;
	a->op.u.copy.size = size;
	return ZE_RESULT_SUCCESS;
}

ze_result_t
cmd_zeCommandListAppendMemoryCopy(ze_command_list_handle_t hCommandList,
				  void *dstptr, const void *srcptr,
				  size_t size, ze_event_handle_t hSignalEvent,
				  uint32_t numWaitEvents,
				  ze_event_handle_t *phWaitEvents)
{
	CHECK_LIST(hCommandList);
	if (!dstptr || !srcptr)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"dstptr or srcptr is NULL");
	CHECK_WAITS(numWaitEvents, phWaitEvents);
	struct append a;
	ze_result_t r = begin(&a, hCommandList, hSignalEvent, numWaitEvents,
			      phWaitEvents);
	if (r)
		return r;
	return end(&a, copy_args(&a, dstptr, srcptr, size));
}

ze_result_t
cmd_zeCommandListAppendMemoryCopyWithParameters(
	ze_command_list_handle_t hCommandList, void *dstptr,
	const void *srcptr, size_t size, const void *pNext,
	ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
	ze_event_handle_t *phWaitEvents)
{
	(void)pNext; /* no extension of a copy changes a CPU copy */
	return cmd_zeCommandListAppendMemoryCopy(hCommandList, dstptr, srcptr,
						 size, hSignalEvent,
						 numWaitEvents, phWaitEvents);
}

ze_result_t
cmd_zeCommandListAppendMemoryCopyFromContext(
	ze_command_list_handle_t hCommandList, void *dstptr,
	ze_context_handle_t hContextSrc, const void *srcptr, size_t size,
	ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
	ze_event_handle_t *phWaitEvents)
{
	CHECK_LIST(hCommandList);
	if (!hContextSrc)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hContextSrc is NULL");
	if (!dstptr || !srcptr)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"dstptr or srcptr is NULL");
	if (!drv_context_get(hContextSrc))
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"hContextSrc %p is not a live context",
				(void *)hContextSrc);
	/* One memory: a copy from another context is an ordinary copy. */
	return cmd_zeCommandListAppendMemoryCopy(hCommandList, dstptr, srcptr,
						 size, hSignalEvent,
						 numWaitEvents, phWaitEvents);
}

ze_result_t
cmd_zeCommandListAppendMemoryFill(ze_command_list_handle_t hCommandList,
				  void *ptr, const void *pattern,
				  size_t pattern_size, size_t size,
				  ze_event_handle_t hSignalEvent,
				  uint32_t numWaitEvents,
				  ze_event_handle_t *phWaitEvents)
{
	CHECK_LIST(hCommandList);
	if (!ptr || !pattern)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"ptr or pattern is NULL");
	CHECK_WAITS(numWaitEvents, phWaitEvents);
	if (!pattern_size || (pattern_size & (pattern_size - 1)) ||
	    pattern_size > CMD_MAX_PATTERN)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_SIZE,
				"pattern_size %zu: must be a power of two "
				"from 1 to %u", pattern_size, CMD_MAX_PATTERN);
	struct append a;
	ze_result_t r = begin(&a, hCommandList, hSignalEvent, numWaitEvents,
			      phWaitEvents);
	if (r)
		return r;
	enum cmd_mem_kind kd;
	r = cmd_check_range(a.l->ctx, ptr, size, "ptr", &kd);
	if (!r) {
		a.op.probe = probe_bits(kd, CMD_MEM_OWNED);
		/* The pattern is read now: the caller may reuse it. */
		a.op.kind = CMD_OP_FILL;
		a.op.u.fill.dst = ptr;
		a.op.u.fill.size = size;
		a.op.u.fill.psize = (uint32_t)pattern_size;
		memcpy(a.op.u.fill.pattern, pattern, pattern_size);
	}
	return end(&a, r);
}

ze_result_t
cmd_zeCommandListAppendMemoryFillWithParameters(
	ze_command_list_handle_t hCommandList, void *ptr, const void *pattern,
	size_t patternSize, size_t size, const void *pNext,
	ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
	ze_event_handle_t *phWaitEvents)
{
	(void)pNext;
	return cmd_zeCommandListAppendMemoryFill(hCommandList, ptr, pattern,
						 patternSize, size,
						 hSignalEvent, numWaitEvents,
						 phWaitEvents);
}

/* One side of a region copy: checks pitches, finds the first byte and the
 * extent from it. */
static ze_result_t
region_side(const ze_copy_region_t *rg, uint32_t pitch, uint32_t slice,
	    const char *side, size_t *offset, size_t *extent)
{
	size_t w = rg->width, h = rg->height ? rg->height : 1;
	size_t d = rg->depth ? rg->depth : 1;
	bool rows = h > 1 || rg->originY;
	bool slices = d > 1 || rg->originZ;
	size_t row_need = (size_t)rg->originX + w;
	if (rows && pitch < row_need)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_SIZE,
				"%s pitch %u < originX + width (%zu)", side,
				pitch, row_need);
	size_t slice_need = rows ? ((size_t)rg->originY + h - 1) * pitch +
					   row_need
				 : row_need;
	if (slices && slice < slice_need)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_SIZE,
				"%s slice pitch %u < the %zu bytes its rows "
				"need", side, slice, slice_need);
	*offset = (size_t)rg->originZ * (slices ? slice : 0) +
		  (size_t)rg->originY * (rows ? pitch : 0) + rg->originX;
	*extent = (d - 1) * (slices ? slice : 0) +
		  (h - 1) * (rows ? pitch : 0) + w;
	return ZE_RESULT_SUCCESS;
}

/* Exact overlap test of two row sets with equal pitches: rows start at
 * s + y*P + z*S and d + y*P + z*S. */
static bool
rows_overlap(const struct cmd_region *r)
{
	__int128 t = (__int128)(intptr_t)r->dst - (intptr_t)r->src;
	__int128 w = r->width, P = r->dpitch, S = r->dslice;
	__int128 H = r->height, D = r->depth;
	if (D > 65536)
		return true; /* too many slices to compare: be safe */
	for (__int128 dz = -(D - 1); dz <= D - 1; dz++) {
		__int128 u = t + dz * S;
		__int128 cand[2];
		if (P == 0 || H == 1) {
			cand[0] = cand[1] = 0;
		} else {
			__int128 q = -u / P; /* truncated; try q - 1 .. q + 1 */
			cand[0] = q - 1;
			cand[1] = q + 1;
		}
		for (__int128 dy = cand[0]; dy <= cand[1]; dy++) {
			__int128 y = dy < -(H - 1) ? -(H - 1)
				   : dy > H - 1 ? H - 1 : dy;
			__int128 v = u + y * P;
			if (v < w && -v < w)
				return true;
		}
	}
	return false;
}

ze_result_t
cmd_zeCommandListAppendMemoryCopyRegion(
	ze_command_list_handle_t hCommandList, void *dstptr,
	const ze_copy_region_t *dstRegion, uint32_t dstPitch,
	uint32_t dstSlicePitch, const void *srcptr,
	const ze_copy_region_t *srcRegion, uint32_t srcPitch,
	uint32_t srcSlicePitch, ze_event_handle_t hSignalEvent,
	uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
	CHECK_LIST(hCommandList);
	if (!dstptr || !dstRegion || !srcptr || !srcRegion)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"dstptr, dstRegion, srcptr or srcRegion is "
				"NULL");
	CHECK_WAITS(numWaitEvents, phWaitEvents);
	const ze_copy_region_t *dr = dstRegion, *sr = srcRegion;
	if (dr->width != sr->width ||
	    (dr->height ? dr->height : 1) != (sr->height ? sr->height : 1) ||
	    (dr->depth ? dr->depth : 1) != (sr->depth ? sr->depth : 1))
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_SIZE,
				"regions differ: dst %ux%ux%u, src %ux%ux%u",
				dr->width, dr->height, dr->depth, sr->width,
				sr->height, sr->depth);
	size_t doff, dext, soff, sext;
	ze_result_t r;
	if ((r = region_side(dr, dstPitch, dstSlicePitch, "dst", &doff,
			     &dext)) ||
	    (r = region_side(sr, srcPitch, srcSlicePitch, "src", &soff,
			     &sext)))
		return r;
	struct append a;
	r = begin(&a, hCommandList, hSignalEvent, numWaitEvents,
		  phWaitEvents);
	if (r)
		return r;
	struct cmd_region *rg = &a.op.u.region;
	a.op.kind = CMD_OP_REGION;
	rg->dst = (char *)dstptr + doff;
	rg->src = (const char *)srcptr + soff;
	rg->width = dr->width;
	rg->height = dr->height ? dr->height : 1;
	rg->depth = dr->depth ? dr->depth : 1;
	rg->dpitch = rg->height > 1 ? dstPitch : 0;
	rg->spitch = rg->height > 1 ? srcPitch : 0;
	rg->dslice = rg->depth > 1 ? dstSlicePitch : 0;
	rg->sslice = rg->depth > 1 ? srcSlicePitch : 0;
	if (!rg->width)
		return end(&a, ZE_RESULT_SUCCESS);
	enum cmd_mem_kind kd, ks;
	if ((r = cmd_check_range(a.l->ctx, dstptr, doff + dext, "dstptr",
				 &kd)) ||
	    (r = cmd_check_range(a.l->ctx, srcptr, soff + sext, "srcptr",
				 &ks)))
		return end(&a, r);
	a.op.probe = probe_bits(kd, ks);
	uintptr_t d0 = (uintptr_t)rg->dst, s0 = (uintptr_t)rg->src;
	if (d0 < s0 + sext && s0 < d0 + dext) {
		bool same = rg->dpitch == rg->spitch &&
			    rg->dslice == rg->sslice;
		if (!same || rows_overlap(rg))
			r = DRV_FAIL(ZE_RESULT_ERROR_OVERLAPPING_REGIONS,
				     "the source and destination regions "
				     "overlap");
	}
	return end(&a, r);
}

ze_result_t
cmd_zeCommandListAppendWriteGlobalTimestamp(
	ze_command_list_handle_t hCommandList, uint64_t *dstptr,
	ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
	ze_event_handle_t *phWaitEvents)
{
	CHECK_LIST(hCommandList);
	if (!dstptr)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"dstptr is NULL");
	CHECK_WAITS(numWaitEvents, phWaitEvents);
	if ((uintptr_t)dstptr % sizeof(uint64_t))
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"dstptr %p is not 8-byte aligned",
				(void *)dstptr);
	struct append a;
	ze_result_t r = begin(&a, hCommandList, hSignalEvent, numWaitEvents,
			      phWaitEvents);
	if (r)
		return r;
	enum cmd_mem_kind kd;
	r = cmd_check_range(a.l->ctx, dstptr, sizeof(*dstptr), "dstptr", &kd);
	a.op.probe = probe_bits(kd, CMD_MEM_OWNED);
	a.op.kind = CMD_OP_TIMESTAMP;
	a.op.u.copy.dst = dstptr;
	a.op.u.copy.size = sizeof(*dstptr);
	return end(&a, r);
}

ze_result_t
cmd_zeCommandListAppendBarrier(ze_command_list_handle_t hCommandList,
			       ze_event_handle_t hSignalEvent,
			       uint32_t numWaitEvents,
			       ze_event_handle_t *phWaitEvents)
{
	CHECK_LIST(hCommandList);
	CHECK_WAITS(numWaitEvents, phWaitEvents);
	struct append a;
	ze_result_t r = begin(&a, hCommandList, hSignalEvent, numWaitEvents,
			      phWaitEvents);
	if (r)
		return r;
	a.op.kind = CMD_OP_BARRIER;
	return end(&a, ZE_RESULT_SUCCESS);
}

ze_result_t
cmd_zeCommandListAppendMemoryRangesBarrier(
	ze_command_list_handle_t hCommandList, uint32_t numRanges,
	const size_t *pRangeSizes, const void **pRanges,
	ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
	ze_event_handle_t *phWaitEvents)
{
	CHECK_LIST(hCommandList);
	if (!pRangeSizes || !pRanges)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"pRangeSizes or pRanges is NULL");
	(void)numRanges; /* one coherent memory: a full barrier */
	return cmd_zeCommandListAppendBarrier(hCommandList, hSignalEvent,
					      numWaitEvents, phWaitEvents);
}

/* Signal or reset one event, in order with the list's other commands. */
static ze_result_t
append_event_op(ze_command_list_handle_t hCommandList, ze_event_handle_t hEvent,
		enum cmd_op_kind kind)
{
	CHECK_LIST(hCommandList);
	if (!hEvent)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hEvent is NULL");
	struct append a;
	ze_result_t r = begin(&a, hCommandList, hEvent, 0, NULL);
	if (r)
		return r;
	a.op.kind = kind;
	return end(&a, kind == CMD_OP_RESET && a.op.signal->cb
			       ? cmd_cb_check_append(a.op.signal, true)
			       : ZE_RESULT_SUCCESS);
}

ze_result_t
cmd_zeCommandListAppendSignalEvent(ze_command_list_handle_t hCommandList,
				   ze_event_handle_t hEvent)
{
	return append_event_op(hCommandList, hEvent, CMD_OP_SIGNAL);
}

ze_result_t
cmd_zeCommandListAppendSignalEventWithParameters(
	ze_command_list_handle_t hCommandList, const void *pNext,
	ze_event_handle_t hEvent)
{
	(void)pNext;
	return cmd_zeCommandListAppendSignalEvent(hCommandList, hEvent);
}

ze_result_t
cmd_zeCommandListAppendWaitOnEvents(ze_command_list_handle_t hCommandList,
				    uint32_t numEvents,
				    ze_event_handle_t *phEvents)
{
	CHECK_LIST(hCommandList);
	if (!phEvents)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"phEvents is NULL");
	struct append a;
	ze_result_t r = begin(&a, hCommandList, NULL, numEvents, phEvents);
	if (r)
		return r;
	a.op.kind = CMD_OP_WAIT;
	return end(&a, ZE_RESULT_SUCCESS);
}

ze_result_t
cmd_zeCommandListAppendWaitOnEventsWithParameters(
	ze_command_list_handle_t hCommandList, const void *pNext,
	uint32_t numEvents, ze_event_handle_t *phEvents)
{
	(void)pNext;
	return cmd_zeCommandListAppendWaitOnEvents(hCommandList, numEvents,
						   phEvents);
}

ze_result_t
cmd_zeCommandListAppendEventReset(ze_command_list_handle_t hCommandList,
				  ze_event_handle_t hEvent)
{
	return append_event_op(hCommandList, hEvent, CMD_OP_RESET);
}

ze_result_t
cmd_zeCommandListAppendMemoryPrefetch(ze_command_list_handle_t hCommandList,
				      const void *ptr, size_t size)
{
	CHECK_LIST(hCommandList);
	if (!ptr)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"ptr is NULL");
	struct append a;
	ze_result_t r = begin(&a, hCommandList, NULL, 0, NULL);
	if (r)
		return r;
	r = cmd_check_range(a.l->ctx, ptr, size, "ptr", NULL);
	a.op.kind = CMD_OP_PREFETCH;
	a.op.u.hint.ptr = ptr;
	a.op.u.hint.size = size;
	return end(&a, r);
}

ze_result_t
cmd_zeCommandListAppendMemAdvise(ze_command_list_handle_t hCommandList,
				 ze_device_handle_t hDevice, const void *ptr,
				 size_t size, ze_memory_advice_t advice)
{
	CHECK_LIST(hCommandList);
	if (!hDevice)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hDevice is NULL");
	if (!ptr)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"ptr is NULL");
	if ((uint32_t)advice > CMD_ADVICE_MAX)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION,
				"unknown memory advice %u", (unsigned)advice);
	struct append a;
	ze_result_t r = begin(&a, hCommandList, NULL, 0, NULL);
	if (r)
		return r;
	struct _ze_device_handle_t *d = drv_device_get(hDevice);
	if (!d || !drv_context_has_device(a.l->ctx, d))
		r = DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
			     "hDevice %p is not a device of the list's "
			     "context", (void *)hDevice);
	if (!r)
		r = cmd_check_range(a.l->ctx, ptr, size, "ptr", NULL);
	a.op.kind = CMD_OP_ADVISE;
	a.op.u.hint.ptr = ptr;
	a.op.u.hint.size = size;
	a.op.u.hint.advice = (uint32_t)advice;
	return end(&a, r);
}

ze_result_t
cmd_zeCommandListImmediateAppendCommandListsExp(
	ze_command_list_handle_t hCommandListImmediate,
	uint32_t numCommandLists, ze_command_list_handle_t *phCommandLists,
	ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
	ze_event_handle_t *phWaitEvents)
{
	if (!hCommandListImmediate)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hCommandListImmediate is NULL");
	if (!phCommandLists)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"phCommandLists is NULL");
	if (numCommandLists == 0)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_SIZE,
				"numCommandLists is 0");
	CHECK_WAITS(numWaitEvents, phWaitEvents);
	struct append a;
	ze_result_t r = begin(&a, hCommandListImmediate, hSignalEvent,
			      numWaitEvents, phWaitEvents);
	if (r)
		return r;
	struct cmd_batch *b = NULL;
	if (!a.l->immediate) {
		r = DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
			     "hCommandListImmediate %p is a regular list",
			     (void *)a.l);
		goto err;
	}
	b = cmd_zalloc(1, sizeof(*b));
	if (b)
		b->lists = cmd_zalloc(numCommandLists, sizeof(*b->lists));
	if (!b || !b->lists) {
		r = DRV_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
			     "no memory for %u lists", numCommandLists);
		goto err;
	}
	/* The lists must be closed regular lists of the same context,
	 * device and queue group; they run on the immediate list's queue,
	 * in order, after the waits; the signal comes after the last. */
	r = cmd_queue_collect(a.l->queue, b, numCommandLists, phCommandLists);
	if (r) {
		for (uint32_t i = 0; i < b->nlists; i++)
			cmd_obj_put(&b->lists[i]->obj);
		b->nlists = 0;
		goto err;
	}
	a.op.kind = CMD_OP_BARRIER;
	b->has_op = true;
	b->op = a.op;
	r = cmd_list_submit(a.l, b);
	cmd_obj_put(&a.l->obj);
	return r;
err:
	if (b) {
		free(b->lists);
		free(b);
	}
	return end(&a, r);
}

ze_result_t
cmd_zeCommandListImmediateAppendCommandListsWithParameters(
	ze_command_list_handle_t hCommandListImmediate,
	uint32_t numCommandLists, ze_command_list_handle_t *phCommandLists,
	const void *pNext, ze_event_handle_t hSignalEvent,
	uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents)
{
	(void)pNext; /* no extension changes how lists run on a CPU */
	return cmd_zeCommandListImmediateAppendCommandListsExp(
		hCommandListImmediate, numCommandLists, phCommandLists,
		hSignalEvent, numWaitEvents, phWaitEvents);
}
