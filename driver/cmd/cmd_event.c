// SPDX-License-Identifier: MIT
/*
 * cmd_event: event pools and events, and their host-side calls (signal,
 * synchronize, query, reset, kernel timestamps).
 *
 * Vocabulary:
 *   pool       a fixed number of event slots (desc->count) on a context;
 *   index      an index of the pool; one live event at a time may use it
 *              (creating a second one at a used index is refused);
 *   timestamp  when the command that signalled an event started and ended,
 *              in device ticks: CLOCK_MONOTONIC nanoseconds (the device
 *              reports timerResolution 1 ns, 64 valid bits). The global and
 *              the context timestamps are the same clock;
 *   slot       an event's state: a cache line of the pool's slot array
 *              (struct cmd_slot: futex word, status, timestamps), in a
 *              shared host allocation for IPC pools (cmd_event_ipc.c);
 *   hint       the last immediate-list batch that signals an event: a host
 *              wait that would block runs it itself when it is next on its
 *              queue (cmd_queue_steal), as zeCommandListHostSynchronize
 *              does, so waiting on the event costs about what waiting on
 *              the list does.
 *
 * Every event is host visible on a CPU device: pools without
 * ZE_EVENT_POOL_FLAG_HOST_VISIBLE behave the same. Kernel timestamps need a
 * pool created with KERNEL_TIMESTAMP or KERNEL_MAPPED_TIMESTAMP.
 *
 * Locking: pool->lock guards the slot table and the dead flag; hint_lock
 * which queue the hint names (taken under queue->lock at submit). Event
 * state takes no lock (cmd_sync.c).
 */
#include "cmd.h"

#include <stdlib.h>
#include <string.h>

#include "u_os.h"

struct _ze_event_pool_handle_t *
cmd_pool_get(ze_event_pool_handle_t h)
{
	return (struct _ze_event_pool_handle_t *)cmd_reg_get(h, CMD_T_POOL);
}
#define pool_get cmd_pool_get

struct _ze_event_handle_t *
cmd_event_get(ze_event_handle_t h)
{
	return (struct _ze_event_handle_t *)cmd_reg_get(h, CMD_T_EVENT);
}

static void
pool_release(struct cmd_obj *o)
{
	struct _ze_event_pool_handle_t *p = (void *)o;
	if (p->ipc_base)
		cmd_ipc_pool_release(p);
	else
		free(p->slots);
	pthread_mutex_destroy(&p->lock);
	free(p->used);
	free(p);
}

static void
event_release(struct cmd_obj *o)
{
	struct _ze_event_handle_t *e = (void *)o;
	if (e->hint_q)
		cmd_obj_put(&e->hint_q->obj);
	pthread_mutex_destroy(&e->hint_lock);
	cmd_obj_put(&e->pool->obj);
	free(e);
}

void
cmd_event_hint(struct _ze_event_handle_t *e,
	       struct _ze_command_queue_handle_t *q, uint64_t ticket)
{
	/* Usually the same list signals the same event again: only the
	 * ticket changes, no lock. */
	if (atomic_load_explicit(&e->hint_q, memory_order_relaxed) == q) {
		atomic_store_explicit(&e->hint_ticket, ticket,
				      memory_order_release);
		return;
	}
	/* The event keeps the queue it names alive. */
	cmd_obj_ref(&q->obj);
	pthread_mutex_lock(&e->hint_lock);
	struct _ze_command_queue_handle_t *old = atomic_load(&e->hint_q);
	atomic_store(&e->hint_ticket, ticket);
	atomic_store(&e->hint_q, q);
	pthread_mutex_unlock(&e->hint_lock);
	if (old)
		cmd_obj_put(&old->obj); /* frees nothing that takes a lock */
}

/* A host wait that would block: if the batch that signals e is the next
 * one of its queue and nothing else runs, run it here (no handoff, no
 * wakeup: the event is then as cheap to wait for as the list). */
static void
run_signaller(struct _ze_event_handle_t *e)
{
	if (!atomic_load_explicit(&e->hint_q, memory_order_relaxed))
		return;
	pthread_mutex_lock(&e->hint_lock);
	struct _ze_command_queue_handle_t *q = atomic_load(&e->hint_q);
	uint64_t t = atomic_load_explicit(&e->hint_ticket,
					  memory_order_acquire);
	if (q)
		cmd_obj_ref(&q->obj);
	pthread_mutex_unlock(&e->hint_lock);
	if (!q)
		return;
	if (atomic_load_explicit(&q->completed, memory_order_acquire) < t)
		cmd_queue_steal(q, t);
	cmd_obj_put(&q->obj);
}

ze_result_t
cmd_pool_new(struct _ze_context_handle_t *ctx, ze_event_pool_flags_t flags,
	     uint32_t count, struct cmd_slot *slots, void *ipc_base,
	     bool imported, ze_event_pool_handle_t *out)
{
	cmd_sync_init();
	struct _ze_event_pool_handle_t *p = calloc(1, sizeof(*p));
	uint8_t *used = calloc(count, 1);
	if (!p || !used) {
		free(p);
		free(used);
		return DRV_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
				"no memory for a pool of %u events", count);
	}
	p->ctx = ctx;
	p->flags = flags;
	p->count = count;
	p->used = used;
	p->slots = slots;
	p->ipc_base = ipc_base;
	p->shared = ipc_base != NULL;
	p->imported = imported;
	pthread_mutex_init(&p->lock, NULL);
	int err = cmd_reg_add(&p->obj, CMD_T_POOL, pool_release);
	if (err) {
		p->ipc_base = NULL; /* the caller still owns the memory */
		p->slots = NULL;
		pool_release(&p->obj);
		return DRV_FAIL(drv_result(err), "cannot register the pool");
	}
	*out = p;
	return ZE_RESULT_SUCCESS;
}

ze_result_t
cmd_zeEventPoolCreate(ze_context_handle_t hContext,
		      const ze_event_pool_desc_t *desc, uint32_t numDevices,
		      ze_device_handle_t *phDevices,
		      ze_event_pool_handle_t *phEventPool)
{
	if (!hContext)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hContext is NULL");
	if (!desc || !phEventPool)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"desc or phEventPool is NULL");
	struct _ze_context_handle_t *ctx;
	ze_result_t r = drv_check_context(hContext, __func__, &ctx);
	if (r)
		return r;
	if (desc->stype != ZE_STRUCTURE_TYPE_EVENT_POOL_DESC)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"desc->stype is 0x%x, not EVENT_POOL_DESC",
				desc->stype);
	if (desc->flags & ~(ze_event_pool_flags_t)CMD_POOL_FLAGS_ALL)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION,
				"unknown event pool flags 0x%x", desc->flags);
	if (desc->count == 0)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_SIZE,
				"desc->count is 0");
	if (numDevices && !phDevices)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_SIZE,
				"phDevices is NULL with numDevices %u",
				numDevices);
	for (uint32_t i = 0; i < numDevices; i++) {
		struct _ze_device_handle_t *d = drv_device_get(phDevices[i]);
		if (!phDevices[i])
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
					"phDevices[%u] is NULL", i);
		if (!d || !drv_context_has_device(ctx, d))
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
					"phDevices[%u] = %p is not a device "
					"of the context", i,
					(void *)phDevices[i]);
	}
	struct cmd_slot *slots = NULL;
	void *base = NULL;
	if (desc->flags & ZE_EVENT_POOL_FLAG_IPC) {
		r = cmd_ipc_pool_alloc(ctx, desc->flags, desc->count, &base,
				       &slots);
		if (r)
			return r;
	} else {
		slots = aligned_alloc(sizeof(struct cmd_slot),
				      (size_t)desc->count * sizeof(*slots));
		if (!slots)
			return DRV_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
					"no memory for %u events",
					desc->count);
		memset(slots, 0, (size_t)desc->count * sizeof(*slots));
	}
	r = cmd_pool_new(ctx, desc->flags, desc->count, slots, base, false,
			 phEventPool);
	if (r) {
		if (base)
			drv_mem_entry.free(ctx, base);
		else
			free(slots);
	}
	return r;
}

ze_result_t
cmd_zeEventPoolDestroy(ze_event_pool_handle_t hEventPool)
{
	struct _ze_event_pool_handle_t *p;
	CMD_GET(p, pool_get, hEventPool, "hEventPool");
	pthread_mutex_lock(&p->lock);
	uint32_t live = p->nlive;
	if (!live)
		p->dead = true;
	pthread_mutex_unlock(&p->lock);
	ze_result_t r = ZE_RESULT_SUCCESS;
	if (live)
		r = DRV_FAIL(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE,
			     "the pool still has %u live events: destroy "
			     "them first", live);
	else if (cmd_reg_remove(&p->obj))
		cmd_obj_put(&p->obj);          /* the creator's reference */
	else
		r = DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
			     "event pool %p destroyed twice", (void *)p);
	cmd_obj_put(&p->obj);
	return r;
}

ze_result_t
cmd_zeEventPoolGetContextHandle(ze_event_pool_handle_t hEventPool,
				ze_context_handle_t *phContext)
{
	struct _ze_event_pool_handle_t *p;
	CMD_GET_OUT(p, pool_get, hEventPool, "hEventPool", phContext,
		    "phContext", ZE_RESULT_SUCCESS, p->ctx);
}

ze_result_t
cmd_zeEventPoolGetFlags(ze_event_pool_handle_t hEventPool,
			ze_event_pool_flags_t *pFlags)
{
	struct _ze_event_pool_handle_t *p;
	CMD_GET_OUT(p, pool_get, hEventPool, "hEventPool", pFlags, "pFlags",
		    ZE_RESULT_SUCCESS, p->flags);
}

ze_result_t
cmd_event_create(struct _ze_event_pool_handle_t *p,
		 const ze_event_desc_t *desc, ze_event_handle_t *phEvent)
{
	if (desc->stype != ZE_STRUCTURE_TYPE_EVENT_DESC)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"desc->stype is 0x%x, not EVENT_DESC",
				desc->stype);
	if ((desc->signal | desc->wait) &
	    ~(ze_event_scope_flags_t)CMD_SCOPE_FLAGS_ALL)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION,
				"unknown scope flags (signal 0x%x, wait 0x%x)",
				desc->signal, desc->wait);
	if (desc->index >= p->count)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"index %u is past the pool's %u events",
				desc->index, p->count);
	struct _ze_event_handle_t *e = calloc(1, sizeof(*e));
	if (!e)
		return DRV_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
				"no memory for an event");
	pthread_mutex_lock(&p->lock);
	const char *why = p->dead ? "the pool was destroyed"
		: p->used[desc->index] ? "index is used by a live event" : NULL;
	if (!why) {
		p->used[desc->index] = 1;
		p->nlive++;
	}
	pthread_mutex_unlock(&p->lock);
	if (why) {
		free(e);
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"event index %u: %s", desc->index, why);
	}
	cmd_obj_ref(&p->obj);
	e->pool = p;
	e->index = desc->index;
	e->signal_scope = desc->signal;
	e->wait_scope = desc->wait;
	e->slot = &p->slots[desc->index];
	pthread_mutex_init(&e->hint_lock, NULL);
	/* A new event starts unsignalled; one created on a pool opened from
	 * an IPC handle shares the state the exporter's event has. */
	if (!p->imported) {
		atomic_store(&e->slot->state, CMD_SLOT_CLEAR);
		atomic_store(&e->slot->status, 0);
	}
	int err = cmd_reg_add(&e->obj, CMD_T_EVENT, event_release);
	if (err) {
		pthread_mutex_lock(&p->lock);
		p->used[desc->index] = 0;
		p->nlive--;
		pthread_mutex_unlock(&p->lock);
		event_release(&e->obj);
		return DRV_FAIL(drv_result(err), "cannot register the event");
	}
	*phEvent = e;
	return ZE_RESULT_SUCCESS;
}

ze_result_t
cmd_zeEventCreate(ze_event_pool_handle_t hEventPool,
		  const ze_event_desc_t *desc, ze_event_handle_t *phEvent)
{
	if (!hEventPool)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hEventPool is NULL");
	if (!desc || !phEvent)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"desc or phEvent is NULL");
	struct _ze_event_pool_handle_t *p;
	CMD_GET(p, pool_get, hEventPool, "hEventPool");
	ze_result_t r = cmd_event_create(p, desc, phEvent);
	cmd_obj_put(&p->obj);
	return r;
}

ze_result_t
cmd_zeEventDestroy(ze_event_handle_t hEvent)
{
	struct _ze_event_handle_t *e;
	CMD_GET(e, cmd_event_get, hEvent, "hEvent");
	ze_result_t r = ZE_RESULT_SUCCESS;
	if (e->cb) {
		r = cmd_cb_destroy(e);
	} else if (cmd_reg_remove(&e->obj)) {
		struct _ze_event_pool_handle_t *p = e->pool;
		pthread_mutex_lock(&p->lock);
		p->used[e->index] = 0;
		p->nlive--;
		pthread_mutex_unlock(&p->lock);
		cmd_obj_put(&e->obj);          /* the creator's reference */
	} else {
		r = DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
			     "event %p destroyed twice", (void *)e);
	}
	cmd_obj_put(&e->obj);
	return r;
}

ze_result_t
cmd_zeEventHostSignal(ze_event_handle_t hEvent)
{
	struct _ze_event_handle_t *e;
	CMD_GET(e, cmd_event_get, hEvent, "hEvent");
	ze_result_t r = ZE_RESULT_SUCCESS;
	if (e->cb) {
		r = DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
			     "event %p is counter-based: only the ops it is "
			     "appended to signal it", (void *)e);
	} else {
		uint64_t now = cmd_event_now(e);
		cmd_event_signal(e, now, now, 0);
	}
	cmd_obj_put(&e->obj);
	return r;
}

ze_result_t
cmd_zeEventHostReset(ze_event_handle_t hEvent)
{
	struct _ze_event_handle_t *e;
	CMD_GET(e, cmd_event_get, hEvent, "hEvent");
	ze_result_t r = ZE_RESULT_SUCCESS;
	if (e->cb)
		r = DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
			     "event %p is counter-based: it needs no reset "
			     "(each append re-arms it)", (void *)e);
	else
		cmd_event_reset(e);
	cmd_obj_put(&e->obj);
	return r;
}

ze_result_t
cmd_zeEventQueryStatus(ze_event_handle_t hEvent)
{
	struct _ze_event_handle_t *e;
	CMD_GET(e, cmd_event_get, hEvent, "hEvent");
	ze_result_t r = cmd_event_status(e);
	cmd_obj_put(&e->obj);
	return r;
}

ze_result_t
cmd_zeEventHostSynchronize(ze_event_handle_t hEvent, uint64_t timeout)
{
	struct _ze_event_handle_t *e;
	CMD_GET(e, cmd_event_get, hEvent, "hEvent");
	ze_result_t r = cmd_event_status(e);
	if (r == ZE_RESULT_NOT_READY && timeout) {
		/* As long as it takes: run the signalling batch here if it
		 * is next (a bounded wait must not risk a long copy on its
		 * own thread, as in cmd_queue_wait). */
		if (timeout == UINT64_MAX)
			run_signaller(e);
		r = cmd_event_wait(e, timeout);
	}
	cmd_obj_put(&e->obj);
	return r;
}

ze_result_t
cmd_zeEventQueryKernelTimestamp(ze_event_handle_t hEvent,
				ze_kernel_timestamp_result_t *dstptr)
{
	struct _ze_event_handle_t *e;
	CMD_GET(e, cmd_event_get, hEvent, "hEvent");
	ze_result_t r = ZE_RESULT_SUCCESS;
	if (!dstptr) {
		r = DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
			     "dstptr is NULL");
		goto out;
	}
	if (!(e->pool->flags & (ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP |
				ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP))) {
		r = DRV_FAIL(ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT,
			     "the event's pool has no KERNEL_TIMESTAMP flag");
		goto out;
	}
	r = cmd_event_status(e);
	if (r == ZE_RESULT_SUCCESS) {
		dstptr->global.kernelStart = atomic_load(&e->slot->ts_start);
		dstptr->global.kernelEnd = atomic_load(&e->slot->ts_end);
		dstptr->context = dstptr->global;
	}
out:
	cmd_obj_put(&e->obj);
	return r;
}

ze_result_t
cmd_zeEventGetEventPool(ze_event_handle_t hEvent,
			ze_event_pool_handle_t *phEventPool)
{
	struct _ze_event_handle_t *e;
	CMD_GET_OUT(e, cmd_event_get, hEvent, "hEvent", phEventPool,
		    "phEventPool", ZE_RESULT_SUCCESS, e->pool);
}

ze_result_t
cmd_zeEventGetSignalScope(ze_event_handle_t hEvent,
			  ze_event_scope_flags_t *pSignalScope)
{
	struct _ze_event_handle_t *e;
	CMD_GET_OUT(e, cmd_event_get, hEvent, "hEvent", pSignalScope,
		    "pSignalScope", ZE_RESULT_SUCCESS, e->signal_scope);
}

ze_result_t
cmd_zeEventGetWaitScope(ze_event_handle_t hEvent,
			ze_event_scope_flags_t *pWaitScope)
{
	struct _ze_event_handle_t *e;
	CMD_GET_OUT(e, cmd_event_get, hEvent, "hEvent", pWaitScope,
		    "pWaitScope", ZE_RESULT_SUCCESS, e->wait_scope);
}
