// SPDX-License-Identifier: MIT
/*
 * cmd_event_cb: counter-based events (Level Zero 1.15:
 * zeEventCounterBasedCreate and what goes with them).
 *
 * Vocabulary:
 *   counter-based  an event that the ops it is attached to signal, and
 *            nothing else: it needs no reset (zeEventHostReset and
 *            zeCommandListAppendEventReset are refused, as is
 *            zeEventHostSignal: UNSUPPORTED_FEATURE, INVALID_ARGUMENT for
 *            the append, as Intel's driver answers). It starts complete.
 *   arm      each append of an op that signals it to an immediate list, and
 *            each execution of a regular list holding such an op, counts
 *            one more op (cb_armed) and makes it not complete (its slot
 *            leaves SET); host waits and later appends' waits then wait.
 *   complete each of those ops, when it has run, adds one to the slot's
 *            `counter`; the event is complete (the slot SET, with that op's
 *            timestamps and status) when the counter reaches cb_armed, that
 *            is when the last op that signals it has completed. Both under
 *            the event's hint_lock, so an arm and a completion never cross.
 *   pool     each event has a pool of its own: one slot, created and
 *            destroyed with it (zeEventGetEventPool names it). The timestamp
 *            flags make it a KERNEL_TIMESTAMP pool (the device's clock is
 *            the host's: DEVICE and HOST timestamps are the same numbers);
 *            IPC makes it an IPC pool (cmd_event_ipc.c) whose header
 *            carries the event's flags.
 *   IPC      zeEventCounterBasedGetIpcHandle is the handle of that pool
 *            (one per event, got once; destroy puts it back);
 *            zeEventCounterBasedOpenIpcHandle opens it and checks the header
 *            names a counter-based event. An opened event is for waiting
 *            (host synchronize, query, an append's wait list): the arm count
 *            lives in the exporting process, so appending it as a signal
 *            event there is refused (UNSUPPORTED_FEATURE).
 *   device address  zeEventCounterBasedGetDeviceAddress gives the address
 *            of the slot's 64-bit counter and the value it reaches when
 *            the event completes (the device is the CPU: the address is a
 *            host address). The counter is 64 bits:
 *            zeDeviceGetCounterBasedEventMaxValue answers UINT64_MAX.
 *
 * Locking: event->hint_lock around arm and completion (leaf). Nothing
 * else of its own.
 */
#include "cmd.h"

#include <string.h>

#include "u_os.h"

#define CB_FLAGS_ALL 0x7fu          /* the spec's range check */
#define CB_FLAGS_KNOWN 0x3fu        /* GRAPH_EXTERNAL: no graphs here */
#define CB_TS (ZE_EVENT_COUNTER_BASED_FLAG_DEVICE_TIMESTAMP |               \
	       ZE_EVENT_COUNTER_BASED_FLAG_HOST_TIMESTAMP)
#define CB_HEADER_MARK 0x80000000u  /* header: a counter-based event */

void
cmd_cb_arm(struct _ze_event_handle_t *e)
{
	pthread_mutex_lock(&e->hint_lock);
	e->cb_armed++;
	cmd_event_reset(e);
	pthread_mutex_unlock(&e->hint_lock);
}

/* Takes back one arm of e (its op will not run). */
static void
cb_unarm(struct _ze_event_handle_t *e)
{
	pthread_mutex_lock(&e->hint_lock);
	e->cb_armed--;
	if (atomic_load(&e->slot->counter) >= e->cb_armed)
		cmd_event_set(e, atomic_load(&e->slot->ts_start),
			      atomic_load(&e->slot->ts_end), 0);
	pthread_mutex_unlock(&e->hint_lock);
}

static void
arm_batch(struct cmd_batch *b, void (*fn)(struct _ze_event_handle_t *))
{
	if (b->has_op && b->op.signal && b->op.signal->cb)
		fn(b->op.signal);
	for (uint32_t i = 0; i < b->nlists; i++) {
		struct _ze_command_list_handle_t *l = b->lists[i];
		if (!l->has_cb) /* immutable while executing */
			continue;
		for (size_t j = 0; j < l->nops; j++)
			if (l->ops[j].signal && l->ops[j].signal->cb)
				fn(l->ops[j].signal);
	}
}

void
cmd_cb_arm_batch(struct cmd_batch *b)
{
	arm_batch(b, cmd_cb_arm);
}

void
cmd_cb_unarm_batch(struct cmd_batch *b)
{
	arm_batch(b, cb_unarm);
}

void
cmd_cb_complete(struct _ze_event_handle_t *e, uint64_t start, uint64_t end,
		uint32_t status)
{
	pthread_mutex_lock(&e->hint_lock);
	uint64_t n = atomic_load_explicit(&e->slot->counter,
					  memory_order_relaxed) + 1;
	atomic_store_explicit(&e->slot->counter, n, memory_order_release);
	if (n >= e->cb_armed)
		cmd_event_set(e, start, end, status);
	pthread_mutex_unlock(&e->hint_lock);
}

ze_result_t
cmd_cb_check_append(const struct _ze_event_handle_t *e, bool reset)
{
	if (reset)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"event %p is counter-based: it is never reset "
				"(each append re-arms it)", (const void *)e);
	if (e->pool->imported)
		return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
				"event %p was opened from an IPC handle: this "
				"process may wait on it, only its exporter "
				"signals it", (const void *)e);
	return ZE_RESULT_SUCCESS;
}

ze_result_t
cmd_cb_destroy(struct _ze_event_handle_t *e)
{
	struct _ze_event_pool_handle_t *p = e->pool;
	if (!cmd_reg_remove(&e->obj))
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"event %p destroyed twice", (void *)e);
	cmd_obj_ref(&p->obj);
	/* No other thread may use a handle being destroyed: no lock. */
	if (e->cb_ipc_got) {
		ze_result_t pr = cmd_zeEventPoolPutIpcHandle(p->ctx,
							     e->cb_ipc);
		if (pr)
			u_warn("cmd", "event %p: putting back its IPC "
				      "handle failed (%s)", (void *)e,
			       drv_result_name(pr));
		e->cb_ipc_got = false;
	}
	pthread_mutex_lock(&p->lock);
	p->used[e->index] = 0;
	p->nlive--;
	pthread_mutex_unlock(&p->lock);
	cmd_obj_put(&e->obj); /* the creator's reference */
	/* Its own pool goes with it (memory stays while ops use it). */
	ze_result_t r = p->imported ? cmd_zeEventPoolCloseIpcHandle(p)
				    : cmd_zeEventPoolDestroy(p);
	cmd_obj_put(&p->obj);
	return r;
}

/* Makes the event of a fresh one-slot pool hp counter-based. On failure
 * the pool is gone too. */
static ze_result_t
cb_event(ze_event_pool_handle_t hp, ze_event_counter_based_flags_t flags,
	 ze_event_scope_flags_t signal, ze_event_scope_flags_t wait,
	 ze_event_handle_t *phEvent)
{
	struct _ze_event_pool_handle_t *p = cmd_pool_get(hp);
	ze_event_desc_t ed = { ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0, signal,
			       wait };
	ze_event_handle_t h = NULL;
	ze_result_t r = p ? cmd_event_create(p, &ed, &h)
			  : ZE_RESULT_ERROR_INVALID_ARGUMENT;
	if (r) {
		if (p) {
			if (p->imported)
				cmd_zeEventPoolCloseIpcHandle(hp);
			else
				cmd_zeEventPoolDestroy(hp);
			cmd_obj_put(&p->obj);
		}
		return r;
	}
	struct _ze_event_handle_t *e = h;
	e->cb_flags = flags;
	e->cb = true;
	/* Created complete; an opened one has the exporter's state. */
	if (!p->imported) {
		atomic_store(&e->slot->counter, 0);
		atomic_store(&e->slot->state, CMD_SLOT_SET);
	}
	cmd_obj_put(&p->obj);
	*phEvent = h;
	return ZE_RESULT_SUCCESS;
}

ze_result_t
cmd_zeEventCounterBasedCreate(ze_context_handle_t hContext,
			      ze_device_handle_t hDevice,
			      const ze_event_counter_based_desc_t *desc,
			      ze_event_handle_t *phEvent)
{
	if (!hContext || !hDevice)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hContext or hDevice is NULL");
	if (!desc || !phEvent)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"desc or phEvent is NULL");
	struct _ze_context_handle_t *c;
	struct _ze_device_handle_t *d;
	ze_result_t r = cmd_ctx_dev(hContext, hDevice, &c, &d);
	if (r)
		return r;
	if (desc->stype != ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"desc->stype is 0x%x, not "
				"EVENT_COUNTER_BASED_DESC", desc->stype);
	if (desc->flags > CB_FLAGS_ALL ||
	    (desc->signal | desc->wait) >
		    (ze_event_scope_flags_t)CMD_SCOPE_FLAGS_ALL)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION,
				"flags 0x%x, signal 0x%x, wait 0x%x: unknown "
				"bits", desc->flags, desc->signal, desc->wait);
	if (desc->flags & ~CB_FLAGS_KNOWN)
		return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION,
				"GRAPH_EXTERNAL: the driver records no graphs");
	if ((desc->flags & CB_TS) == CB_TS)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"DEVICE_TIMESTAMP and HOST_TIMESTAMP exclude "
				"each other");
	if (desc->pNext)
		return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
				"desc->pNext: counters in storage of the "
				"application's own are not supported");
	bool ipc = desc->flags & ZE_EVENT_COUNTER_BASED_FLAG_IPC;
	ze_event_pool_desc_t pd = {
		ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
		ZE_EVENT_POOL_FLAG_HOST_VISIBLE |
			(ipc ? ZE_EVENT_POOL_FLAG_IPC : 0) |
			(desc->flags & CB_TS ? ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP
					     : 0),
		1 };
	ze_event_pool_handle_t hp;
	r = cmd_zeEventPoolCreate(hContext, &pd, 1, &hDevice, &hp);
	if (r)
		return r;
	if (ipc) {
		struct _ze_event_pool_handle_t *p = cmd_pool_get(hp);
		cmd_ipc_pool_set_cb_flags(p, desc->flags | CB_HEADER_MARK);
		cmd_obj_put(&p->obj);
	}
	return cb_event(hp, desc->flags, desc->signal, desc->wait, phEvent);
}

ze_result_t
cmd_zeEventCounterBasedGetIpcHandle(ze_event_handle_t hEvent,
				    ze_ipc_event_counter_based_handle_t *phIpc)
{
	struct _ze_event_handle_t *e;
	CMD_GET(e, cmd_event_get, hEvent, "hEvent");
	ze_result_t r;
	if (!phIpc) {
		r = DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
			     "phIpc is NULL");
	} else if (!e->cb) {
		r = DRV_FAIL(ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT,
			     "event %p is not counter-based (pools have "
			     "zeEventPoolGetIpcHandle)", (void *)e);
	} else if (!(e->cb_flags & ZE_EVENT_COUNTER_BASED_FLAG_IPC)) {
		r = DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
			     "event %p was created without "
			     "ZE_EVENT_COUNTER_BASED_FLAG_IPC", (void *)e);
	} else {
		/* One handle per event, handed out again on later calls: the
		 * API has no put, destroy puts it back (cmd_cb_destroy). */
		_Static_assert(sizeof(e->cb_ipc.data) == sizeof(phIpc->data),
			       "both handles are 64 bytes");
		r = ZE_RESULT_SUCCESS;
		pthread_mutex_lock(&e->hint_lock);
		if (!e->cb_ipc_got)
			r = cmd_zeEventPoolGetIpcHandle(e->pool, &e->cb_ipc);
		if (!r) {
			e->cb_ipc_got = true;
			memcpy(phIpc->data, e->cb_ipc.data,
			       sizeof(phIpc->data));
		}
		pthread_mutex_unlock(&e->hint_lock);
	}
	cmd_obj_put(&e->obj);
	return r;
}

ze_result_t
cmd_zeEventCounterBasedOpenIpcHandle(ze_context_handle_t hContext,
				     ze_ipc_event_counter_based_handle_t hIpc,
				     ze_event_handle_t *phEvent)
{
	if (!hContext)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hContext is NULL");
	if (!phEvent)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"phEvent is NULL");
	ze_ipc_event_pool_handle_t ph;
	memcpy(ph.data, hIpc.data, sizeof(ph.data));
	ze_event_pool_handle_t hp;
	ze_result_t r = cmd_zeEventPoolOpenIpcHandle(hContext, ph, &hp);
	if (r)
		return r;
	struct _ze_event_pool_handle_t *p = cmd_pool_get(hp);
	uint32_t f = p ? cmd_ipc_pool_cb_flags(p) : 0;
	uint32_t count = p ? p->count : 0;
	if (p)
		cmd_obj_put(&p->obj);
	if (!(f & CB_HEADER_MARK) || count != 1) {
		cmd_zeEventPoolCloseIpcHandle(hp);
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"the handle names an event pool, not a "
				"counter-based event");
	}
	return cb_event(hp, f & ~CB_HEADER_MARK, 0, 0, phEvent);
}

ze_result_t
cmd_zeEventCounterBasedCloseIpcHandle(ze_event_handle_t hEvent)
{
	struct _ze_event_handle_t *e;
	CMD_GET(e, cmd_event_get, hEvent, "hEvent");
	ze_result_t r = e->cb && e->pool->imported
		? cmd_cb_destroy(e)
		: DRV_FAIL(ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT,
			   "event %p was not opened with "
			   "zeEventCounterBasedOpenIpcHandle", (void *)e);
	cmd_obj_put(&e->obj);
	return r;
}

ze_result_t
cmd_zeEventCounterBasedGetDeviceAddress(ze_event_handle_t hEvent,
					uint64_t *completionValue,
					uint64_t *deviceAddress)
{
	struct _ze_event_handle_t *e;
	CMD_GET(e, cmd_event_get, hEvent, "hEvent");
	ze_result_t r = ZE_RESULT_SUCCESS;
	if (!completionValue || !deviceAddress) {
		r = DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
			     "completionValue or deviceAddress is NULL");
	} else if (!e->cb) {
		r = DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
			     "event %p is not counter-based", (void *)e);
	} else if (e->pool->imported) {
		r = DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
			     "event %p was opened from an IPC handle: its "
			     "completion value is known to its exporter only",
			     (void *)e);
	} else {
		pthread_mutex_lock(&e->hint_lock);
		*completionValue = e->cb_armed;
		pthread_mutex_unlock(&e->hint_lock);
		*deviceAddress = (uint64_t)(uintptr_t)&e->slot->counter;
	}
	cmd_obj_put(&e->obj);
	return r;
}

ze_result_t
cmd_zeEventGetCounterBasedFlags(ze_event_handle_t hEvent,
				ze_event_counter_based_flags_t *pFlags)
{
	struct _ze_event_handle_t *e;
	/* 0 for an event of a pool. */
	CMD_GET_OUT(e, cmd_event_get, hEvent, "hEvent", pFlags, "pFlags",
		    ZE_RESULT_SUCCESS, e->cb ? e->cb_flags : 0);
}

ze_result_t
cmd_zeDeviceGetCounterBasedEventMaxValue(ze_device_handle_t hDevice,
					 uint64_t *maxValue)
{
	if (!hDevice)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hDevice is NULL");
	if (!maxValue)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"maxValue is NULL");
	if (!drv_device_get(hDevice))
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"hDevice %p is not a device of the driver",
				(void *)hDevice);
	*maxValue = UINT64_MAX; /* the slot's counter is 64 bits */
	return ZE_RESULT_SUCCESS;
}
