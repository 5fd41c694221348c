// SPDX-License-Identifier: MIT
/*
 * cmd_event_ipc: event pools shared between processes
 * (ZE_EVENT_POOL_FLAG_IPC, zeEventPool{Get,Open,Close,Put}IpcHandle).
 *
 * Vocabulary:
 *   pool memory  an IPC pool keeps its header and its event slots (struct
 *                cmd_slot: the futex word, status, timestamps) in a host
 *                USM allocation of its context: memfd-backed and mapped
 *                MAP_SHARED, so the memory IPC of driver/ipc can export it.
 *   handle       ze_ipc_event_pool_handle_t holds the 64 bytes of the
 *                memory IPC handle of the pool memory, unchanged: bytes
 *                0..3 are the exporter's fd as in every zemem memory
 *                handle, and the fd travels exactly as it does for memory
 *                (pidfd_getfd, the broker, or the application's own
 *                SCM_RIGHTS passing that overwrites bytes 0..3). Nothing
 *                of the transport is repeated here: get, open, close and
 *                put are zeMemGetIpcHandle, zeMemOpenIpcHandle,
 *                zeMemCloseIpcHandle and zeMemPutIpcHandle on that memory.
 *   header       the first 64 bytes of the pool memory: magic, version,
 *                count, flags and, for the one-slot pool of a
 *                counter-based event (cmd_event_cb.c), that event's
 *                flags, written by the exporter; the importer
 *                checks them against the size of what it mapped before it
 *                trusts the count.
 *   import       zeEventPoolOpenIpcHandle maps the memory and builds a pool
 *                object around it (imported: its events take the state
 *                the exporter's events have, nothing is reset);
 *                zeEventPoolCloseIpcHandle destroys that object and
 *                unmaps. Waits on shared slots use non-private futexes,
 *                so a signal in one process wakes sleepers in the other.
 *
 * Locking: none of its own (pool->lock for the live-event count).
 */
#include "cmd.h"
#include "ipc/ipc_api.h"

#include <string.h>

#include "u_os.h"

#define POOL_MAGIC 0x6c6f6f70766d7a65ull /* "ezmvpool" */
#define POOL_VERSION 1u

struct pool_header {
	uint64_t magic;
	uint32_t version;
	uint32_t count;
	uint32_t flags;
	uint32_t cb_flags; /* a counter-based event's pool: its flags */
	uint8_t pad[40];
};
_Static_assert(sizeof(struct pool_header) == sizeof(struct cmd_slot),
	       "the slots start one line in");

size_t
cmd_ipc_pool_bytes(uint32_t count)
{
	size_t page = u_page_size();
	size_t n = sizeof(struct pool_header) +
		   (size_t)count * sizeof(struct cmd_slot);
	/* Small host allocations share pool pages with others and cannot be
	 * exported (DESIGN.md, "exporting never exposes memory that is not
	 * part of it"): take one past the pooled sizes. */
	if (n <= USM_POOL_MAX)
		n = USM_POOL_MAX + 1;
	return (n + page - 1) / page * page;
}

ze_result_t
cmd_ipc_pool_alloc(struct _ze_context_handle_t *ctx,
		   ze_event_pool_flags_t flags, uint32_t count, void **base,
		   struct cmd_slot **slots)
{
	if (count > (UINT32_MAX - sizeof(struct pool_header)) /
			    sizeof(struct cmd_slot))
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_SIZE,
				"%u events are too many for an IPC pool",
				count);
	ze_host_mem_alloc_desc_t hd = { ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC,
					NULL, 0 };
	size_t bytes = cmd_ipc_pool_bytes(count);
	void *p = NULL;
	ze_result_t r = drv_mem_entry.alloc_host(ctx, &hd, bytes, u_page_size(), &p);
	if (r)
		return r;
	memset(p, 0, bytes);
	struct pool_header *h = p;
	h->magic = POOL_MAGIC;
	h->version = POOL_VERSION;
	h->count = count;
	h->flags = flags;
	*base = p;
	*slots = (struct cmd_slot *)(h + 1);
	return ZE_RESULT_SUCCESS;
}

uint32_t
cmd_ipc_pool_cb_flags(const struct _ze_event_pool_handle_t *p)
{
	const struct pool_header *h = p->ipc_base;
	return h ? h->cb_flags : 0;
}

void
cmd_ipc_pool_set_cb_flags(struct _ze_event_pool_handle_t *p, uint32_t flags)
{
	struct pool_header *h = p->ipc_base;
	h->cb_flags = flags;
}

void
cmd_ipc_pool_release(struct _ze_event_pool_handle_t *p)
{
	ze_result_t r = p->imported ? drv_zeMemCloseIpcHandle(p->ctx,
							      p->ipc_base)
				    : drv_mem_entry.free(p->ctx, p->ipc_base);
	if (r)
		u_warn("cmd", "event pool %p: releasing its shared memory %p "
			      "failed (%s)", (void *)p, p->ipc_base,
		       drv_result_name(r));
	p->ipc_base = NULL;
	p->slots = NULL;
}

ze_result_t
cmd_zeEventPoolGetIpcHandle(ze_event_pool_handle_t hEventPool,
			    ze_ipc_event_pool_handle_t *phIpc)
{
	struct _ze_event_pool_handle_t *p;
	CMD_GET(p, cmd_pool_get, hEventPool, "hEventPool");
	ze_result_t r;
	if (!phIpc) {
		r = DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
			     "phIpc is NULL");
	} else if (!p->ipc_base) {
		r = DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
			     "the pool was not created with "
			     "ZE_EVENT_POOL_FLAG_IPC");
	} else if (p->imported) {
		r = DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
			     "the pool was opened from an IPC handle: only "
			     "its exporter hands out handles");
	} else {
		ze_ipc_mem_handle_t mh;
		r = drv_zeMemGetIpcHandle(p->ctx, p->ipc_base, &mh);
		if (!r) {
			_Static_assert(sizeof(mh.data) == sizeof(phIpc->data),
				       "both handles are 64 bytes");
			memcpy(phIpc->data, mh.data, sizeof(mh.data));
		}
	}
	cmd_obj_put(&p->obj);
	return r;
}

/* A device of ctx to open the memory with (any: one memory). */
static struct _ze_device_handle_t *
ctx_device(struct _ze_context_handle_t *ctx)
{
	for (uint32_t i = 0; i < drv_driver.device_count; i++)
		if (drv_context_has_device(ctx, &drv_devices[i]))
			return &drv_devices[i];
	return NULL;
}

ze_result_t
cmd_zeEventPoolOpenIpcHandle(ze_context_handle_t hContext,
			     ze_ipc_event_pool_handle_t hIpc,
			     ze_event_pool_handle_t *phEventPool)
{
	if (!hContext)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hContext is NULL");
	if (!phEventPool)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"phEventPool is NULL");
	struct _ze_context_handle_t *ctx;
	ze_result_t r = drv_check_context(hContext, __func__, &ctx);
	if (r)
		return r;
	struct _ze_device_handle_t *dev = ctx_device(ctx);
	if (!dev)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"the context has no device");
	ze_ipc_mem_handle_t mh;
	memcpy(mh.data, hIpc.data, sizeof(mh.data));
	void *base = NULL;
	r = drv_zeMemOpenIpcHandle(ctx, dev, mh, 0, &base);
	if (r)
		return r;
	/* What was mapped must be a pool header and room for its count. */
	size_t size = 0;
	void *rbase = NULL;
	const struct pool_header *h = base;
	r = drv_mem_entry.get_address_range(ctx, base, &rbase, &size);
	if (r || rbase != base || size < sizeof(*h) ||
	    h->magic != POOL_MAGIC || h->version != POOL_VERSION ||
	    !h->count ||
	    (size - sizeof(*h)) / sizeof(struct cmd_slot) < h->count) {
		drv_zeMemCloseIpcHandle(ctx, base);
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"the handle does not name an IPC event pool "
				"(%zu bytes mapped)", size);
	}
	r = cmd_pool_new(ctx, h->flags & CMD_POOL_FLAGS_ALL,
			 h->count, (struct cmd_slot *)(void *)(h + 1), base,
			 true, phEventPool);
	if (r)
		drv_zeMemCloseIpcHandle(ctx, base);
	return r;
}

ze_result_t
cmd_zeEventPoolCloseIpcHandle(ze_event_pool_handle_t hEventPool)
{
	struct _ze_event_pool_handle_t *p;
	CMD_GET(p, cmd_pool_get, hEventPool, "hEventPool");
	bool imported = p->imported;
	cmd_obj_put(&p->obj);
	if (!imported)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"hEventPool was not opened from an IPC handle "
				"(destroy it with zeEventPoolDestroy)");
	/* The same as destroying it: its memory is unmapped once the last
	 * event and op that use it are gone. */
	return cmd_zeEventPoolDestroy(hEventPool);
}

ze_result_t
cmd_zeEventPoolPutIpcHandle(ze_context_handle_t hContext,
			    ze_ipc_event_pool_handle_t hIpc)
{
	if (!hContext)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hContext is NULL");
	ze_ipc_mem_handle_t mh;
	memcpy(mh.data, hIpc.data, sizeof(mh.data));
	return drv_zeMemPutIpcHandle(hContext, mh);
}
