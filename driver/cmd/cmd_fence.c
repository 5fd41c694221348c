// SPDX-License-Identifier: MIT
/*
 * cmd_fence: fences, one queue's "these lists finished" signal.
 *
 * Vocabulary:
 *   fence     created on a queue; zeCommandQueueExecuteCommandLists with the
 *             fence signals it when every list of that call has finished.
 *             Reset makes it unsignalled again; created signalled with
 *             ZE_FENCE_FLAG_SIGNALED.
 *
 * A fence holds a reference on its queue and counts itself in
 * queue->nfences: the queue refuses to be destroyed (HANDLE_OBJECT_IN_USE)
 * while fences of it live, as the spec asks. Batches hold a reference on
 * their fence, so destroying a fence with work in flight is safe.
 *
 * Locking: the signalled flag is written under cmd_sync_lock and read
 * atomically; waits sleep on cmd_sync_cond (cmd_sync.c).
 */
#include "cmd.h"

#include <stdlib.h>

struct _ze_fence_handle_t *
cmd_fence_get(ze_fence_handle_t h)
{
	return (struct _ze_fence_handle_t *)cmd_reg_get(h, CMD_T_FENCE);
}

static void
fence_release(struct cmd_obj *o)
{
	struct _ze_fence_handle_t *f = (void *)o;
	cmd_obj_put(&f->queue->obj);
	free(f);
}

ze_result_t
cmd_zeFenceCreate(ze_command_queue_handle_t hCommandQueue,
		  const ze_fence_desc_t *desc, ze_fence_handle_t *phFence)
{
	if (!hCommandQueue)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hCommandQueue is NULL");
	if (!desc || !phFence)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"desc or phFence is NULL");
	struct _ze_command_queue_handle_t *q;
	CMD_GET(q, cmd_queue_get, hCommandQueue, "hCommandQueue");
	ze_result_t r = ZE_RESULT_SUCCESS;
	struct _ze_fence_handle_t *f = NULL;
	if (desc->stype != ZE_STRUCTURE_TYPE_FENCE_DESC) {
		r = DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
			     "desc->stype is 0x%x, not FENCE_DESC",
			     desc->stype);
		goto err;
	}
	if (desc->flags & ~(ze_fence_flags_t)ZE_FENCE_FLAG_SIGNALED) {
		r = DRV_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION,
			     "unknown fence flags 0x%x", desc->flags);
		goto err;
	}
	f = calloc(1, sizeof(*f));
	if (!f) {
		r = DRV_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
			     "no memory for a fence");
		goto err;
	}
	f->queue = q; /* keeps the lookup's reference */
	atomic_init(&f->signalled,
		    (desc->flags & ZE_FENCE_FLAG_SIGNALED) != 0);
	atomic_fetch_add(&q->nfences, 1);
	int err = cmd_reg_add(&f->obj, CMD_T_FENCE, fence_release);
	if (err) {
		atomic_fetch_sub(&q->nfences, 1);
		r = DRV_FAIL(drv_result(err), "cannot register the fence");
		goto err;
	}
	*phFence = f;
	return ZE_RESULT_SUCCESS;
err:
	free(f);
	cmd_obj_put(&q->obj);
	return r;
}

ze_result_t
cmd_zeFenceDestroy(ze_fence_handle_t hFence)
{
	struct _ze_fence_handle_t *f;
	CMD_GET(f, cmd_fence_get, hFence, "hFence");
	ze_result_t r = ZE_RESULT_SUCCESS;
	if (cmd_reg_remove(&f->obj)) {
		atomic_fetch_sub(&f->queue->nfences, 1);
		cmd_obj_put(&f->obj);          /* the creator's reference */
	} else {
		r = DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
			     "fence %p destroyed twice", (void *)f);
	}
	cmd_obj_put(&f->obj);
	return r;
}

ze_result_t
cmd_zeFenceHostSynchronize(ze_fence_handle_t hFence, uint64_t timeout)
{
	struct _ze_fence_handle_t *f;
	CMD_GET(f, cmd_fence_get, hFence, "hFence");
	bool done = cmd_wait_signalled(&f->signalled, timeout);
	ze_result_t r = !done ? ZE_RESULT_NOT_READY
		: atomic_load(&f->lost) ? ZE_RESULT_ERROR_DEVICE_LOST
		: ZE_RESULT_SUCCESS;
	cmd_obj_put(&f->obj);
	return r;
}

ze_result_t
cmd_zeFenceQueryStatus(ze_fence_handle_t hFence)
{
	struct _ze_fence_handle_t *f;
	CMD_GET(f, cmd_fence_get, hFence, "hFence");
	bool s = atomic_load_explicit(&f->signalled, memory_order_acquire);
	ze_result_t r = !s ? ZE_RESULT_NOT_READY
		: atomic_load(&f->lost) ? ZE_RESULT_ERROR_DEVICE_LOST
		: ZE_RESULT_SUCCESS;
	cmd_obj_put(&f->obj);
	return r;
}

ze_result_t
cmd_zeFenceReset(ze_fence_handle_t hFence)
{
	struct _ze_fence_handle_t *f;
	CMD_GET(f, cmd_fence_get, hFence, "hFence");
	pthread_mutex_lock(&cmd_sync_lock);
	atomic_store_explicit(&f->signalled, false, memory_order_release);
	atomic_store(&f->lost, false);
	pthread_mutex_unlock(&cmd_sync_lock);
	cmd_obj_put(&f->obj);
	return ZE_RESULT_SUCCESS;
}
