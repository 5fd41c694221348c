// SPDX-License-Identifier: MIT
/*
 * cmd_list: command lists, regular and immediate: create, close, reset,
 * destroy, host synchronization, property getters, and where an appended op
 * goes (recorded in a regular list, or submitted at once on an immediate
 * list's implicit queue).
 *
 * Vocabulary:
 *   regular list   records ops while open; zeCommandListClose makes it
 *                  executable; executing it on a queue does not consume it
 *                  (it can run again, on several queues at once). While a
 *                  batch uses it (`executing` > 0) it is immutable: reset and
 *                  destroy answer HANDLE_OBJECT_IN_USE, appends to a closed
 *                  list are refused.
 *   immediate list owns an implicit queue (its own worker). Each append
 *                  becomes a one-op batch and returns at once; with
 *                  ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS it returns when the op
 *                  has run (on the calling thread itself when nothing else
 *                  is pending: see "steal" in cmd_queue.c). Close
 *                  succeeds and changes nothing; reset waits for the work
 *                  appended so far; destroy drains the queue (see
 *                  cmd_queue.c, "stop").
 *
 * Locking: list->lock guards ops, closed, dead and executing. Leaf lock.
 */
#include "cmd.h"

#include <stdlib.h>
#include <string.h>

struct _ze_command_list_handle_t *
cmd_list_get(ze_command_list_handle_t h)
{
	return (struct _ze_command_list_handle_t *)cmd_reg_get(h, CMD_T_LIST);
}

void
cmd_op_release(struct cmd_op *op)
{
	if (op->signal)
		cmd_obj_put(&op->signal->obj);
	for (uint32_t i = 0; i < op->nwait; i++)
		cmd_obj_put(&op->wait[i]->obj);
	free(op->wait);
	op->signal = NULL;
	op->wait = NULL;
	op->nwait = 0;
}

void
cmd_batch_free(struct cmd_batch *b)
{
	for (uint32_t i = 0; i < b->nlists; i++) {
		struct _ze_command_list_handle_t *l = b->lists[i];
		pthread_mutex_lock(&l->lock);
		l->executing--;
		pthread_mutex_unlock(&l->lock);
		cmd_obj_put(&l->obj);
	}
	if (b->fence)
		cmd_obj_put(&b->fence->obj);
	if (b->has_op)
		cmd_op_release(&b->op);
	free(b->lists);
	free(b);
}

static void
drop_ops(struct _ze_command_list_handle_t *l)
{
	for (size_t i = 0; i < l->nops; i++)
		cmd_op_release(&l->ops[i]);
	free(l->ops);
	l->ops = NULL;
	l->nops = l->cap = 0;
}

static void
list_release(struct cmd_obj *o)
{
	struct _ze_command_list_handle_t *l = (void *)o;
	drop_ops(l);
	if (l->queue)
		cmd_obj_put(&l->queue->obj);
	pthread_mutex_destroy(&l->lock);
	free(l);
}

static ze_result_t
list_register(struct _ze_command_list_handle_t *l,
	      ze_command_list_handle_t *ph)
{
	int err = cmd_reg_add(&l->obj, CMD_T_LIST, list_release);
	if (err) {
		if (l->queue)
			cmd_queue_stop(l->queue);
		list_release(&l->obj);
		return DRV_FAIL(drv_result(err), "cannot register the list");
	}
	*ph = l;
	return ZE_RESULT_SUCCESS;
}

static struct _ze_command_list_handle_t *
list_new(struct _ze_context_handle_t *c, struct _ze_device_handle_t *d)
{
	struct _ze_command_list_handle_t *l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->ctx = c;
	l->dev = d;
	pthread_mutex_init(&l->lock, NULL);
	return l;
}

ze_result_t
cmd_zeCommandListCreate(ze_context_handle_t hContext,
			ze_device_handle_t hDevice,
			const ze_command_list_desc_t *desc,
			ze_command_list_handle_t *phCommandList)
{
	if (!hContext || !hDevice)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hContext or hDevice is NULL");
	if (!desc || !phCommandList)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"desc or phCommandList is NULL");
	struct _ze_context_handle_t *c;
	struct _ze_device_handle_t *d;
	ze_result_t r = cmd_ctx_dev(hContext, hDevice, &c, &d);
	if (r)
		return r;
	if (desc->stype != ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"desc->stype is 0x%x, not COMMAND_LIST_DESC",
				desc->stype);
	if (desc->flags & ~(ze_command_list_flags_t)CMD_LIST_FLAGS_ALL)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION,
				"unknown command list flags 0x%x",
				desc->flags);
	if (desc->commandQueueGroupOrdinal >= CMD_GROUP_COUNT)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"ordinal %u: the device has %u queue groups",
				desc->commandQueueGroupOrdinal,
				CMD_GROUP_COUNT);
	struct _ze_command_list_handle_t *l = list_new(c, d);
	if (!l)
		return DRV_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
				"no memory for a command list");
	l->ordinal = desc->commandQueueGroupOrdinal;
	l->flags = desc->flags;
	return list_register(l, phCommandList);
}

ze_result_t
cmd_zeCommandListCreateImmediate(ze_context_handle_t hContext,
				 ze_device_handle_t hDevice,
				 const ze_command_queue_desc_t *altdesc,
				 ze_command_list_handle_t *phCommandList)
{
	if (!hContext || !hDevice)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hContext or hDevice is NULL");
	if (!altdesc || !phCommandList)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"altdesc or phCommandList is NULL");
	struct _ze_context_handle_t *c;
	struct _ze_device_handle_t *d;
	ze_result_t r = cmd_ctx_dev(hContext, hDevice, &c, &d);
	if (r || (r = cmd_queue_check_desc(altdesc)))
		return r;
	struct _ze_command_list_handle_t *l = list_new(c, d);
	if (!l)
		return DRV_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
				"no memory for a command list");
	l->immediate = true;
	l->ordinal = altdesc->ordinal;
	r = cmd_queue_create(c, d, altdesc, true, &l->queue);
	if (r) {
		list_release(&l->obj);
		return r;
	}
	return list_register(l, phCommandList);
}

ze_result_t
cmd_zeCommandListDestroy(ze_command_list_handle_t hCommandList)
{
	struct _ze_command_list_handle_t *l;
	CMD_GET(l, cmd_list_get, hCommandList, "hCommandList");
	pthread_mutex_lock(&l->lock);
	uint32_t busy = l->executing;
	if (!busy)
		l->closed = false; /* a racing execute now fails */
	pthread_mutex_unlock(&l->lock);
	ze_result_t r = ZE_RESULT_SUCCESS;
	if (busy) {
		r = DRV_FAIL(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE,
			     "the list is executing on %u batch(es)", busy);
	} else if (cmd_reg_remove(&l->obj)) {
		if (l->queue)
			cmd_queue_stop(l->queue);
		cmd_obj_put(&l->obj);           /* the creator's reference */
	} else {
		r = DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
			     "command list %p destroyed twice", (void *)l);
	}
	cmd_obj_put(&l->obj);
	return r;
}

ze_result_t
cmd_zeCommandListClose(ze_command_list_handle_t hCommandList)
{
	struct _ze_command_list_handle_t *l;
	CMD_GET(l, cmd_list_get, hCommandList, "hCommandList");
	if (!l->immediate) {
		pthread_mutex_lock(&l->lock);
		l->closed = true;
		pthread_mutex_unlock(&l->lock);
	}
	cmd_obj_put(&l->obj);
	return ZE_RESULT_SUCCESS;
}

ze_result_t
cmd_zeCommandListReset(ze_command_list_handle_t hCommandList)
{
	struct _ze_command_list_handle_t *l;
	CMD_GET(l, cmd_list_get, hCommandList, "hCommandList");
	ze_result_t r = ZE_RESULT_SUCCESS;
	if (l->immediate) {
		struct _ze_command_queue_handle_t *q = l->queue;
		r = cmd_queue_wait(q, atomic_load(&q->submitted), UINT64_MAX);
	} else {
		pthread_mutex_lock(&l->lock);
		uint32_t busy = l->executing;
		if (!busy) {
			drop_ops(l);
			l->has_cb = false;
			l->closed = false;
		}
		pthread_mutex_unlock(&l->lock);
		if (busy)
			r = DRV_FAIL(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE,
				     "the list is executing on %u batch(es)",
				     busy);
	}
	cmd_obj_put(&l->obj);
	return r;
}

ze_result_t
cmd_zeCommandListHostSynchronize(ze_command_list_handle_t hCommandList,
				 uint64_t timeout)
{
	struct _ze_command_list_handle_t *l;
	CMD_GET(l, cmd_list_get, hCommandList, "hCommandList");
	ze_result_t r;
	if (!l->immediate) {
		r = DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
			     "%p is not an immediate command list",
			     (void *)l);
	} else {
		struct _ze_command_queue_handle_t *q = l->queue;
		r = cmd_queue_wait(q, atomic_load(&q->submitted), timeout);
	}
	cmd_obj_put(&l->obj);
	return r;
}

ze_result_t
cmd_list_submit(struct _ze_command_list_handle_t *l, struct cmd_batch *b)
{
	struct _ze_command_queue_handle_t *q = l->queue;
	bool sync = q->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
	uint64_t ticket;
	cmd_cb_arm_batch(b); /* counter-based events it signals */
	/* Asynchronous: a host wait on its signal event may run it. */
	if (cmd_queue_submit_hint(q, b, !sync, !sync, &ticket)) {
		cmd_cb_unarm_batch(b);
		cmd_batch_free(b);
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"the list is being destroyed");
	}
	/* Synchronous: usually runs right here (see "steal"). */
	return sync ? cmd_queue_wait(q, ticket, UINT64_MAX) : ZE_RESULT_SUCCESS;
}

ze_result_t
cmd_list_add(struct _ze_command_list_handle_t *l, struct cmd_op *op)
{
	if (l->immediate) {
		struct cmd_batch *b = cmd_zalloc(1, sizeof(*b));
		if (!b) {
			cmd_op_release(op);
			return DRV_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
					"no memory for a command");
		}
		b->has_op = true;
		b->op = *op;
		return cmd_list_submit(l, b);
	}
	const char *why = NULL;
	pthread_mutex_lock(&l->lock);
	if (l->closed) {
		why = "the list is closed (reset it to record again)";
	} else if (l->nops == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct cmd_op *ops = realloc(l->ops, cap * sizeof(*ops));
		if (ops) {
			l->ops = ops;
			l->cap = cap;
		} else {
			why = "no memory";
		}
	}
	if (!why) {
		l->ops[l->nops++] = *op;
		if (op->signal && op->signal->cb)
			l->has_cb = true;
	}
	pthread_mutex_unlock(&l->lock);
	if (why) {
		cmd_op_release(op);
		return DRV_FAIL(strcmp(why, "no memory")
					? ZE_RESULT_ERROR_INVALID_ARGUMENT
					: ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
				"cannot append: %s", why);
	}
	return ZE_RESULT_SUCCESS;
}

/* A getter whose list must be immediate (need_imm) refuses any other. */
static ze_result_t
list_immediate(const struct _ze_command_list_handle_t *l, bool need_imm)
{
	if (need_imm && !l->immediate)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"%p is not an immediate command list",
				(const void *)l);
	return ZE_RESULT_SUCCESS;
}

#define LIST_GETTER(Name, type, need_imm, expr)                             \
	ze_result_t cmd_zeCommandList##Name(                                \
		ze_command_list_handle_t hCommandList, type *out)           \
	{                                                                   \
		struct _ze_command_list_handle_t *l;                        \
		CMD_GET_OUT(l, cmd_list_get, hCommandList, "hCommandList",  \
			    out, "the output pointer",                      \
			    list_immediate(l, need_imm), expr);             \
	}
LIST_GETTER(GetDeviceHandle, ze_device_handle_t, false, l->dev)
LIST_GETTER(GetContextHandle, ze_context_handle_t, false, l->ctx)
LIST_GETTER(GetOrdinal, uint32_t, false, l->ordinal)
LIST_GETTER(IsImmediate, ze_bool_t, false, l->immediate)
LIST_GETTER(GetFlags, ze_command_list_flags_t, false, l->flags)
LIST_GETTER(ImmediateGetIndex, uint32_t, true, l->queue->index)
LIST_GETTER(ImmediateGetFlags, ze_command_queue_flags_t, true,
	    l->queue->flags)
LIST_GETTER(ImmediateGetMode, ze_command_queue_mode_t, true, l->queue->mode)
LIST_GETTER(ImmediateGetPriority, ze_command_queue_priority_t, true,
	    l->queue->priority)
