// SPDX-License-Identifier: MIT
/*
 * val_ipc: the IPC entry points: zeMemGetIpcHandle(WithProperties),
 * zeMemPutIpcHandle, zeMemOpenIpcHandle, zeMemCloseIpcHandle.
 *
 * Vocabulary: an exported handle is the 64 bytes a get returned; the layer
 * counts gets and puts per distinct handle (a driver may return the same
 * bytes for repeated gets of one allocation, reference-counted), so a put
 * beyond the gets is a "put of a handle twice". Handles whose gets are all
 * put stay known (a FIFO of RETIRED_MAX of them) to catch that second put.
 * An import is the pointer zeMemOpenIpcHandle returned; it is a record
 * (VAL_KIND_IMPORT) in val_import_index, released only by
 * zeMemCloseIpcHandle with its base pointer (val_mem.c does the release
 * checks). Its size comes from the next layer's zeMemGetAddressRange; when
 * the driver cannot say, the record covers one byte.
 *
 * IPC entry points may be missing from the driver: the getters then leave
 * their slots NULL and none of this runs.
 *
 * Locking: the handle set is under val_lock; records under the world
 * lock (val.h).
 */
#include "val.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUCKETS 256
#define RETIRED_MAX 1024
#define IPC_FLAGS_ALL 0x3u   /* ze_ipc_memory_flag_t bits */

struct ipch {
	struct ipch *next;          /* bucket chain */
	struct ipch *rnext;         /* retired FIFO */
	bool in_fifo;
	ze_ipc_mem_handle_t bytes;
	uint64_t gets, puts;
	const void *ptr;            /* what it was got from */
	struct val_site get, put;   /* last get, last put */
};

static struct ipch *buckets[BUCKETS];           /* val_lock */
static struct ipch *fifo_head, *fifo_tail;      /* val_lock */
static size_t fifo_count;                       /* val_lock */

static size_t
hash(const ze_ipc_mem_handle_t *h)
{
	uint64_t x = 1469598103934665603ull;
	for (size_t i = 0; i < sizeof(h->data); i++)
		x = (x ^ (unsigned char)h->data[i]) * 1099511628211ull;
	return (size_t)(x % BUCKETS);
}

static struct ipch *
find(const ze_ipc_mem_handle_t *h, struct ipch ***link)
{
	struct ipch **l = &buckets[hash(h)];
	for (; *l; l = &(*l)->next) {
		if (!memcmp((*l)->bytes.data, h->data, sizeof(h->data)))
			break;
	}
	if (link)
		*link = l;
	return *l;
}

static void
forget(struct ipch *e)
{
	struct ipch **l;
	if (find(&e->bytes, &l) == e)
		*l = e->next;
	val_site_clear(&e->get);
	val_site_clear(&e->put);
	free(e);
}

static void
retire(struct ipch *e)
{
	if (!e->in_fifo) {
		e->in_fifo = true;
		e->rnext = NULL;
		if (fifo_tail)
			fifo_tail->rnext = e;
		else
			fifo_head = e;
		fifo_tail = e;
		fifo_count++;
	}
	while (fifo_count > RETIRED_MAX) {
		struct ipch *old = fifo_head;
		fifo_head = old->rnext;
		if (!fifo_head)
			fifo_tail = NULL;
		fifo_count--;
		old->in_fifo = false;
		if (old->gets == old->puts)
			forget(old);
	}
}

static ze_result_t
check_export(const struct val_call *call, const void *ptr,
	     ze_ipc_mem_handle_t *pIpcHandle)
{
	if (val_cfg.params && (!ptr || !pIpcHandle))
		return val_report(VAL_CAT_PARAMETER, call,
				  ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				  "%s is NULL", !ptr ? "ptr" : "pIpcHandle");
	if (!val_cfg.lifetime)
		return ZE_RESULT_SUCCESS;
	/* The pointer may be a physical memory handle cast to void *. */
	struct val_handle *hd = val_handle_find(ptr);
	if (hd && atomic_load(&hd->kind) == VAL_H_PMEM)
		return atomic_load(&hd->live)
			       ? ZE_RESULT_SUCCESS
			       : val_check_pmem_slow(call, "ptr", ptr);
	char d[3072];
	ze_result_t res = ZE_RESULT_SUCCESS;
	val_world_lock();
	struct val_rec *r = val_rec_find(&val_mem_index, (uintptr_t)ptr);
	if (r && r->state == VAL_FREED)
		res = val_report(VAL_CAT_LIFETIME, call,
				 ZE_RESULT_ERROR_INVALID_ARGUMENT,
				 "IPC handle of released memory: %s",
				 val_rec_describe(r, d, sizeof(d)));
	val_world_unlock();
	return res;
}

static void
exported(const struct val_call *call, const void *ptr,
	 const ze_ipc_mem_handle_t *h)
{
	struct val_site site;
	if (!val_cfg.tracking)
		return;
	val_site_record(&site, call);
	u_lock(&val_lock);
	struct ipch **l, *e = find(h, &l);
	if (!e && (e = calloc(1, sizeof(*e)))) {
		e->bytes = *h;
		*l = e;
	}
	if (e) {
		e->gets++;
		e->ptr = ptr;
		val_site_clear(&e->get);
		e->get = site;
		site.bt = NULL;
	}
	u_unlock(&val_lock);
	val_site_clear(&site);
	val_count_call(call, 1);
}

ze_result_t
val_zeMemGetIpcHandle(const struct val_call *call, ze_context_handle_t hContext,
		      const void *ptr, ze_ipc_mem_handle_t *pIpcHandle)
{
	ze_result_t r = check_export(call, ptr, pIpcHandle);
	if (r)
		return r;
	r = val_next.Mem.pfnGetIpcHandle(hContext, ptr, pIpcHandle);
	if (r == ZE_RESULT_SUCCESS)
		exported(call, ptr, pIpcHandle);
	return r;
}

ze_result_t
val_zeMemGetIpcHandleWithProperties(const struct val_call *call,
				    ze_context_handle_t hContext,
				    const void *ptr, void *pNext,
				    ze_ipc_mem_handle_t *pIpcHandle)
{
	/* pNext is not checked: the stype of the IPC handle-type descriptor
	 * is not declared in api/ yet, so it cannot be told from a bad one. */
	ze_result_t r = check_export(call, ptr, pIpcHandle);
	if (r)
		return r;
	r = val_next.Mem.pfnGetIpcHandleWithProperties(hContext, ptr, pNext,
						       pIpcHandle);
	if (r == ZE_RESULT_SUCCESS)
		exported(call, ptr, pIpcHandle);
	return r;
}

ze_result_t
val_zeMemPutIpcHandle(const struct val_call *call, ze_context_handle_t hContext,
		      ze_ipc_mem_handle_t handle)
{
	struct val_site site;
	char g[1024], p[1024];
	bool counted = false;
	if (!val_cfg.tracking)
		return val_next.Mem.pfnPutIpcHandle(hContext, handle);
	val_site_record(&site, call);
	u_lock(&val_lock);
	struct ipch *e = find(&handle, NULL);
	if (e && e->gets == e->puts && val_cfg.lifetime) {
		ze_result_t res = val_report(
			VAL_CAT_LIFETIME, call, ZE_RESULT_ERROR_INVALID_ARGUMENT,
			"put of a handle twice: the handle of %p was got %llu "
			"time(s) and already put %llu time(s); last got %s, "
			"last put %s", e->ptr, (unsigned long long)e->gets,
			(unsigned long long)e->puts,
			val_site_format(&e->get, g, sizeof(g)),
			val_site_format(&e->put, p, sizeof(p)));
		u_unlock(&val_lock);
		val_site_clear(&site);
		return res;
	}
	if (e && e->gets > e->puts) {
		e->puts++;
		counted = true;
		val_site_clear(&e->put);
		e->put = site;
		site.bt = NULL;
		if (e->gets == e->puts)
			retire(e);
	}
	u_unlock(&val_lock);
	val_site_clear(&site);
	ze_result_t r = val_next.Mem.pfnPutIpcHandle(hContext, handle);
	if (r == ZE_RESULT_SUCCESS)
		val_count_call(call, 1);
	if (r != ZE_RESULT_SUCCESS && counted) {
		u_lock(&val_lock);
		if ((e = find(&handle, NULL)) && e->puts)
			e->puts--;
		u_unlock(&val_lock);
	}
	return r;
}

ze_result_t
val_zeMemOpenIpcHandle(const struct val_call *call, ze_context_handle_t hContext,
		       ze_device_handle_t hDevice, ze_ipc_mem_handle_t handle,
		       ze_ipc_memory_flags_t flags, void **pptr)
{
	if (val_cfg.params) {
		if (!hDevice)
			return val_null_handle(call, "hDevice");
		if (!pptr)
			return val_report(VAL_CAT_PARAMETER, call,
					  ZE_RESULT_ERROR_INVALID_NULL_POINTER,
					  "pptr is NULL");
		if (flags & ~IPC_FLAGS_ALL)
			return val_report(VAL_CAT_PARAMETER, call,
					  ZE_RESULT_ERROR_INVALID_ENUMERATION,
					  "flags 0x%x has unknown bits 0x%x "
					  "(ze_ipc_memory_flag_t has BIAS_CACHED "
					  "and BIAS_UNCACHED)", (unsigned)flags,
					  (unsigned)(flags & ~IPC_FLAGS_ALL));
	}
	ze_result_t r = val_next.Mem.pfnOpenIpcHandle(hContext, hDevice, handle,
						      flags, pptr);
	if (r != ZE_RESULT_SUCCESS || !val_cfg.tracking || !*pptr)
		return r;
	void *base = NULL;
	size_t size = 0;
	if (!val_next.Mem.pfnGetAddressRange ||
	    val_next.Mem.pfnGetAddressRange(hContext, *pptr, &base, &size) !=
		    ZE_RESULT_SUCCESS ||
	    base != *pptr)
		size = 1;
	struct val_site site;
	val_site_record(&site, call);
	val_world_lock();
	struct val_rec *rec = val_rec_add(&val_import_index, VAL_KIND_IMPORT,
					  &site, (uintptr_t)*pptr, size, call);
	if (rec) {
		rec->ctx = hContext;
	}
	val_world_unlock();
	val_site_clear(&site);
	val_count_call(call, 1);
	return r;
}

ze_result_t
val_zeMemCloseIpcHandle(const struct val_call *call,
			ze_context_handle_t hContext, const void *ptr)
{
	struct val_release rel;
	ze_result_t r;
	if (val_cfg.params && !ptr)
		return val_report(VAL_CAT_PARAMETER, call,
				  ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				  "ptr is NULL");
	if ((r = val_release_begin(call, hContext, ptr,
				   1u << VAL_KIND_IMPORT, &rel)))
		return r;
	r = val_next.Mem.pfnCloseIpcHandle(hContext, ptr);
	val_release_end(call, ptr, &rel, r);
	return r;
}

size_t
val_ipc_leaks(void)
{
	char g[1024];
	size_t n = 0;
	if (!val_next.Mem.pfnPutIpcHandle)
		return 0;  /* nothing to put them with */
	for (size_t b = 0; b < BUCKETS; b++) {
		for (struct ipch *e = buckets[b]; e; e = e->next) {
			if (e->gets <= e->puts)
				continue;
			val_report(VAL_CAT_LEAK, NULL, ZE_RESULT_SUCCESS,
				   "IPC handle of %p got %llu time(s), put "
				   "%llu time(s) (zeMemPutIpcHandle releases "
				   "it); last got %s", e->ptr,
				   (unsigned long long)e->gets,
				   (unsigned long long)e->puts,
				   val_site_format(&e->get, g, sizeof(g)));
			n++;
		}
	}
	return n;
}
