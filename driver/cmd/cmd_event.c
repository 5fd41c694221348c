// SPDX-License-Identifier: MIT
/*
 * cmd_event: event pools and events, and their host-side calls (signal,
 * synchronize, query, reset, kernel timestamps).
 *
 * Vocabulary:
 *   pool       a fixed number of event slots (desc->count) on a context;
 *   slot       an index of the pool; one live event at a time may use it
 *              (creating a second one at a used index is refused);
 *   timestamp  when the command that signalled an event started and ended,
 *              in device ticks: CLOCK_MONOTONIC nanoseconds (the device
 *              reports timerResolution 1 ns, 64 valid bits). The global and
 *              the context timestamps are the same clock.
 *
 * Every event is host visible on a CPU device: pools without
 * ZE_EVENT_POOL_FLAG_HOST_VISIBLE behave the same. Kernel timestamps need a
 * pool created with KERNEL_TIMESTAMP or KERNEL_MAPPED_TIMESTAMP.
 *
 * Locking: pool->lock guards the slot table and the dead flag; event state
 * is published under cmd_sync_lock (cmd_sync.c). Never both at once.
 */
#include "cmd.h"

#include <stdlib.h>
#include <string.h>

#include "u_os.h"

static struct _ze_event_pool_handle_t *
pool_get(ze_event_pool_handle_t h)
{
	return (struct _ze_event_pool_handle_t *)cmd_reg_get(h, CMD_T_POOL);
}

struct _ze_event_handle_t *
cmd_event_get(ze_event_handle_t h)
{
	return (struct _ze_event_handle_t *)cmd_reg_get(h, CMD_T_EVENT);
}

static void
pool_release(struct cmd_obj *o)
{
	struct _ze_event_pool_handle_t *p = (void *)o;
	pthread_mutex_destroy(&p->lock);
	free(p->used);
	free(p);
}

static void
event_release(struct cmd_obj *o)
{
	struct _ze_event_handle_t *e = (void *)o;
	cmd_obj_put(&e->pool->obj);
	free(e);
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
	cmd_sync_init();
	struct _ze_event_pool_handle_t *p = calloc(1, sizeof(*p));
	uint8_t *used = calloc(desc->count, 1);
	if (!p || !used) {
		free(p);
		free(used);
		return DRV_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
				"no memory for a pool of %u events",
				desc->count);
	}
	p->ctx = ctx;
	p->flags = desc->flags;
	p->count = desc->count;
	p->used = used;
	pthread_mutex_init(&p->lock, NULL);
	int err = cmd_reg_add(&p->obj, CMD_T_POOL, pool_release);
	if (err) {
		pool_release(&p->obj);
		return DRV_FAIL(drv_result(err), "cannot register the pool");
	}
	*phEventPool = p;
	return ZE_RESULT_SUCCESS;
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

static ze_result_t
event_create(struct _ze_event_pool_handle_t *p, const ze_event_desc_t *desc,
	     ze_event_handle_t *phEvent)
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
	atomic_init(&e->signalled, false);
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
	ze_result_t r = event_create(p, desc, phEvent);
	cmd_obj_put(&p->obj);
	return r;
}

ze_result_t
cmd_zeEventDestroy(ze_event_handle_t hEvent)
{
	struct _ze_event_handle_t *e;
	CMD_GET(e, cmd_event_get, hEvent, "hEvent");
	ze_result_t r = ZE_RESULT_SUCCESS;
	if (cmd_reg_remove(&e->obj)) {
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
	uint64_t now = u_now_ns();
	cmd_event_signal(e, now, now);
	cmd_obj_put(&e->obj);
	return ZE_RESULT_SUCCESS;
}

ze_result_t
cmd_zeEventHostReset(ze_event_handle_t hEvent)
{
	struct _ze_event_handle_t *e;
	CMD_GET(e, cmd_event_get, hEvent, "hEvent");
	cmd_event_reset(e);
	cmd_obj_put(&e->obj);
	return ZE_RESULT_SUCCESS;
}

ze_result_t
cmd_zeEventQueryStatus(ze_event_handle_t hEvent)
{
	struct _ze_event_handle_t *e;
	CMD_GET(e, cmd_event_get, hEvent, "hEvent");
	bool s = atomic_load_explicit(&e->signalled, memory_order_acquire);
	cmd_obj_put(&e->obj);
	return s ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

ze_result_t
cmd_zeEventHostSynchronize(ze_event_handle_t hEvent, uint64_t timeout)
{
	struct _ze_event_handle_t *e;
	CMD_GET(e, cmd_event_get, hEvent, "hEvent");
	bool done = cmd_wait_signalled(&e->signalled, timeout);
	cmd_obj_put(&e->obj);
	return done ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
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
	pthread_mutex_lock(&cmd_sync_lock);
	if (atomic_load_explicit(&e->signalled, memory_order_relaxed)) {
		dstptr->global.kernelStart = e->ts_start;
		dstptr->global.kernelEnd = e->ts_end;
		dstptr->context = dstptr->global;
	} else {
		r = ZE_RESULT_NOT_READY;
	}
	pthread_mutex_unlock(&cmd_sync_lock);
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
