// SPDX-License-Identifier: MIT
/*
 * val_mem: the USM entry points (zeMemFreeExt, zeMemGetAddressRange and
 * the atomic access attributes here;
 * zeMemAlloc{Host,Device,Shared}, zeMemFree and zeMemGetAllocProperties
 * inline in val_hot.h, with their slow paths here) and the pointer-release
 * logic that zeMemCloseIpcHandle shares.
 *
 * Vocabulary (val.h): an allocation call is checked (parameters), passed
 * on, and its result checked (alignment) and recorded (lifetime, leaks).
 * A release finds the record that contains the pointer, in any index, and
 * decides:
 *   freed record, same base      double free / double close
 *   freed record, inside         release of a pointer into freed memory
 *   wrong kind                   zeMemFree of an IPC import or a VMM
 *                                reservation; close of a USM allocation
 *   inside a live record         release of an interior pointer
 *   other context                release through the wrong context
 *   no record                    passed on; reported only if the driver
 *                                refuses it too (the layer cannot know
 *                                memory it never saw, e.g. from an
 *                                extension function that bypasses it)
 * and on success retires the record before calling the driver (so another
 * thread that gets the same addresses from the driver meanwhile finds no
 * live record there); a failure puts it back.
 *
 * Hot paths: an allocation whose base the layer saw freed before, and a
 * free of the base of a live allocation of the call's context, take the
 * base's shard lock only (val_track.c). Everything else (a base never
 * seen, any finding, imports) takes the world lock and runs the checks
 * above on the trees.
 *
 * Locking: never across a call to the next layer.
 */
#include "val.h"

#include <stdio.h>

static struct val_rec *
find_any(uintptr_t p, unsigned expect)
{
	struct val_rec *m = val_rec_find(&val_mem_index, p);
	if (m && m->state == VAL_LIVE && (expect & (1u << m->kind)))
		return m;  /* the usual case: no need to look further */
	struct val_rec *i = val_rec_find(&val_import_index, p);
	if (m && i) /* prefer the kind the call releases, then a live one */
		return (expect & (1u << i->kind)) ||
			       (i->state == VAL_LIVE && m->state != VAL_LIVE)
			       ? i
			       : m;
	return m ? m : i;
}

static const char *
how_to_release(enum val_kind k)
{
	switch (k) {
	case VAL_KIND_IMPORT: return "zeMemCloseIpcHandle";
	case VAL_KIND_RESERVATION:
	case VAL_KIND_MAPPING: return "zeVirtualMemUnmap and zeVirtualMemFree";
	default: return "zeMemFree";
	}
}

/* Caller holds the world lock. */
static ze_result_t
release_check(const struct val_call *call, ze_context_handle_t ctx,
	      uintptr_t p, unsigned expect, struct val_rec **out)
{
	struct val_rec *r = find_any(p, expect);
	char d[3072];
	*out = NULL;
	if (!r)
		return ZE_RESULT_SUCCESS;
	bool base = val_rec_base(r) == p;
	bool kind_ok = expect & (1u << r->kind);
	if (!val_cfg.lifetime) {
		/* Only keep the records right for the leak report. */
		if (r->state == VAL_LIVE && base && kind_ok && r->ctx == ctx)
			*out = r;
		return ZE_RESULT_SUCCESS;
	}
	if (r->state == VAL_LIVE && base && kind_ok && r->ctx == ctx) {
		*out = r;  /* the common case: nothing to format */
		return ZE_RESULT_SUCCESS;
	}
	const char *verb = expect & (1u << VAL_KIND_IMPORT) ? "close"
							     : "free";
	ze_result_t bad = ZE_RESULT_ERROR_INVALID_ARGUMENT;
	val_rec_describe(r, d, sizeof(d));
	if (r->state == VAL_FREED && base)
		return val_report(VAL_CAT_LIFETIME, call, bad,
				  "double %s: %p was already released; %s",
				  verb, (void *)p, d);
	if (r->state == VAL_FREED)
		return val_report(VAL_CAT_LIFETIME, call, bad,
				  "%s of %p, %zu bytes into memory that was "
				  "already released; %s", verb, (void *)p,
				  (size_t)(p - val_rec_base(r)), d);
	if (!kind_ok && r->kind == VAL_KIND_IMPORT)
		return val_report(VAL_CAT_LIFETIME, call, bad,
				  "%p was opened by zeMemOpenIpcHandle: "
				  "release it with zeMemCloseIpcHandle; %s",
				  (void *)p, d);
	if (!kind_ok && (expect & (1u << VAL_KIND_IMPORT)))
		return val_report(VAL_CAT_LIFETIME, call, bad,
				  "%p was not opened by zeMemOpenIpcHandle: "
				  "it is %s (release it with %s)", (void *)p,
				  d, how_to_release(r->kind));
	if (!kind_ok)
		return val_report(VAL_CAT_LIFETIME, call, bad,
				  "%p is not %s memory: it is in %s (release "
				  "it with %s)", (void *)p,
				  val_ep_name(call->ep), d,
				  how_to_release(r->kind));
	if (!base)
		return val_report(VAL_CAT_LIFETIME, call, bad,
				  "%s of an interior pointer: %p is %zu bytes "
				  "into %s", verb, (void *)p,
				  (size_t)(p - val_rec_base(r)), d);
	return val_report(VAL_CAT_LIFETIME, call, bad,
			  "%s through the wrong context: %p belongs to "
			  "context %p, not %p; %s", verb, (void *)p,
			  (void *)r->ctx, (void *)ctx, d);
}

ze_result_t
val_release_begin_slow(const struct val_call *call, ze_context_handle_t ctx,
		       const void *ptr, unsigned expect,
		       struct val_release *rel, struct val_site *site)
{
	struct val_rec *r;
	val_world_lock();
	ze_result_t res = release_check(call, ctx, (uintptr_t)ptr, expect,
					&r);
	if (!res && r) {
		rel->ix = r->ix;
		rel->base = val_rec_base(r);
		rel->id = r->id;
		val_rec_retire(r, site);
	}
	val_world_unlock();
	val_site_clear(site);
	if (!res && r)
		val_count_call(call, 1);  /* taken back if the driver fails */
	return res;
}

void
val_release_undo(const struct val_call *call, const void *ptr,
		 const struct val_release *rel, ze_result_t res)
{
	if (rel->ix) {
		val_rec_unretire(rel->ix, rel->base, rel->id);
		val_count_call(call, -1);
	} else if (val_cfg.lifetime) {
		val_note(VAL_CAT_LIFETIME, call, res,
			 "%p is not memory the layer saw allocated or opened, "
			 "and the driver refused it too", ptr);
	}
}

/* What a new record of an allocation keeps of its request. */
static void
rec_take_req(struct val_rec *r, const struct val_alloc_req *q)
{
	r->ctx = q->ctx;
	r->align = q->align;
}

void
val_alloc_slow(const struct val_call *call, const struct val_alloc_req *q,
	       void *ptr, struct val_site *site)
{
	uintptr_t b = (uintptr_t)ptr, end = b + (q->size ? q->size : 1);
	u_lock(&val_lock);
	/* The usual case, an address the layer has no record near: then
	 * only the new record's shard and the tree change, so only that
	 * shard is locked (and the shard of the record just below, to read
	 * its size), not all of them. Records do not overlap, so if the
	 * last one starting before end ends by b, none overlaps. */
	struct val_rec *o = val_rec_of(val_index_floor(&val_mem_index, end - 1));
	unsigned sn = val_shard_index(b), so = o ? o->shard : sn;
	unsigned lo = sn < so ? sn : so, hi = sn < so ? so : sn;
	val_spin_lock(&val_shards[lo].lock);
	if (hi != lo)
		val_spin_lock(&val_shards[hi].lock);
	bool clear = !o || val_rec_end(o) <= b;
	struct val_rec *r = clear ? val_rec_new(q->kind, site, b, q->size)
				  : NULL;
	if (r) {
		rec_take_req(r, q);
		val_rec_insert(&val_mem_index, r); /* dropped if it cannot */
	}
	if (hi != lo)
		val_spin_unlock(&val_shards[hi].lock);
	val_spin_unlock(&val_shards[lo].lock);
	if (clear) {
		u_unlock(&val_lock);
		val_site_clear(site);
		return;
	}
	/* Overlaps: records to reuse or drop may sit in any shard. */
	val_shards_lock_all();
	r = val_rec_add(&val_mem_index, q->kind, site, b, q->size, call);
	if (r)
		rec_take_req(r, q);
	val_world_unlock();
	val_site_clear(site);
}

void
val_alloc_done(const struct val_call *call, const struct val_alloc_req *q,
	       void *ptr)
{
	struct val_site site;
	uintptr_t b = (uintptr_t)ptr;
	if (val_cfg.params && (b & (q->align - 1)) && q->align)
		val_alloc_misaligned(call, q, ptr);
	if (!val_cfg.tracking || !ptr)
		return;
	val_site_record(&site, call);
	struct val_shard *s = &val_shards[val_shard_index(b)];
	val_spin_lock(&s->lock);
	struct val_rec *r = val_shard_find(s, b);
	if (val_alloc_can_revive(r, q)) {
		/* The driver handed out a base it had before. */
		val_alloc_revive(&val_cfg, s, r, q, &site);
		val_spin_unlock(&s->lock);
	} else {
		val_spin_unlock(&s->lock);
		val_alloc_slow(call, q, ptr, &site);
	}
	val_count_call(call, 1);
}

void
val_alloc_misaligned(const struct val_call *call,
		     const struct val_alloc_req *q, void *ptr)
{
	val_note(VAL_CAT_DRIVER, call, ZE_RESULT_SUCCESS,
		 "driver bug: the driver returned %p, which is not "
		 "aligned to the %zu bytes asked for", ptr, q->align);
}

ze_result_t
val_null_pointer(const struct val_call *call, const char *name)
{
	return val_report(VAL_CAT_PARAMETER, call,
			  ZE_RESULT_ERROR_INVALID_NULL_POINTER, "%s is NULL",
			  name);
}

#define null_pointer val_null_pointer

/* The parameter checks of the allocations, in full, in the order that
 * decides which finding a call with several problems gets; val_hot.h
 * calls them when its quick test of the usual case fails. */
ze_result_t
val_alloc_shared_check(const struct val_call *call,
		       const ze_device_mem_alloc_desc_t *device_desc,
		       const ze_host_mem_alloc_desc_t *host_desc, void **pptr,
		       struct val_alloc_req *q)
{
	ze_result_t r;
	if (!device_desc)
		return null_pointer(call, "device_desc");
	if (!host_desc)
		return null_pointer(call, "host_desc");
	if (!pptr)
		return null_pointer(call, "pptr");
	if ((r = val_check_device_desc(call, device_desc, q)) ||
	    (r = val_check_host_desc(call, host_desc, q)) ||
	    (r = val_check_size_align(call, q)))
		return r;
	return ZE_RESULT_SUCCESS;
}

ze_result_t
val_alloc_device_check(const struct val_call *call,
		       const ze_device_mem_alloc_desc_t *device_desc,
		       ze_device_handle_t hDevice, void **pptr,
		       struct val_alloc_req *q)
{
	ze_result_t r;
	if (!hDevice)
		return val_null_handle(call, "hDevice");
	if (!device_desc)
		return null_pointer(call, "device_desc");
	if (!pptr)
		return null_pointer(call, "pptr");
	if ((r = val_check_device_desc(call, device_desc, q)) ||
	    (r = val_check_size_align(call, q)))
		return r;
	return ZE_RESULT_SUCCESS;
}

ze_result_t
val_alloc_host_check(const struct val_call *call,
		     const ze_host_mem_alloc_desc_t *host_desc, void **pptr,
		     struct val_alloc_req *q)
{
	ze_result_t r;
	if (!host_desc)
		return null_pointer(call, "host_desc");
	if (!pptr)
		return null_pointer(call, "pptr");
	if ((r = val_check_host_desc(call, host_desc, q)) ||
	    (r = val_check_size_align(call, q)))
		return r;
	return ZE_RESULT_SUCCESS;
}

ze_result_t
val_zeMemFreeExt(const struct val_call *call, ze_context_handle_t hContext,
		 const ze_memory_free_ext_desc_t *pMemFreeDesc, void *ptr)
{
	struct val_release rel;
	ze_result_t r;
	uint32_t stype = ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC;
	if (val_cfg.params) {
		if (!pMemFreeDesc)
			return null_pointer(call, "pMemFreeDesc");
		if (!ptr)
			return null_pointer(call, "ptr");
		/* A wrong stype is reported but passed on: drivers do not
		 * read it (Intel's accepts any), and applications written
		 * for them pass others (Intel's conformance suite passes
		 * ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES). */
		stype = pMemFreeDesc->stype;
		if ((r = val_check_flags(
			     call, "pMemFreeDesc->freePolicy",
			     pMemFreeDesc->freePolicy,
			     ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE |
			     ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE)))
			return r;
		if ((r = val_check_chain(call, "pMemFreeDesc",
					 pMemFreeDesc->pNext, NULL, 0, NULL)))
			return r;
	}
	if (!val_release_try(&val_cfg, call->ep, call->hctx, NULL, hContext,
			     ptr, VAL_USM_KINDS, &rel) &&
	    (r = val_release_begin(call, hContext, ptr, VAL_USM_KINDS, &rel)))
		return r;
	r = val_next.Mem.pfnFreeExt(hContext, pMemFreeDesc, ptr);
	val_release_end(call, ptr, &rel, r);
	if (stype != ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC) {
		const char *name = val_stype_name(stype);
		val_note(VAL_CAT_PARAMETER, call, r,
			 "pMemFreeDesc->stype is 0x%x (%s), expected "
			 "ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC (0x%x); "
			 "passed on", (unsigned)stype,
			 name ? name : "not a Level Zero structure type",
			 (unsigned)ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC);
	}
	return r;
}

ze_result_t
val_zeMemGetAddressRange(const struct val_call *call,
			 ze_context_handle_t hContext, const void *ptr,
			 void **pBase, size_t *pSize)
{
	if (val_cfg.params && !ptr)
		return null_pointer(call, "ptr");
	return val_next.Mem.pfnGetAddressRange(hContext, ptr, pBase, pSize);
}

ze_result_t
val_zeMemSetAtomicAccessAttributeExp(const struct val_call *call,
				     ze_context_handle_t hContext,
				     ze_device_handle_t hDevice,
				     const void *ptr, size_t size,
				     ze_memory_atomic_attr_exp_flags_t attr)
{
	ze_result_t r;
	if (val_cfg.params) {
		if (!hDevice)
			return val_null_handle(call, "hDevice");
		if (!ptr)
			return null_pointer(call, "ptr");
		if ((r = val_check_flags(call, "attr", attr, 0x7fu)))
			return r;
	}
	return val_next.MemExp.pfnSetAtomicAccessAttributeExp(hContext, hDevice,
							      ptr, size, attr);
}

ze_result_t
val_zeMemGetAtomicAccessAttributeExp(const struct val_call *call,
				     ze_context_handle_t hContext,
				     ze_device_handle_t hDevice,
				     const void *ptr, size_t size,
				     ze_memory_atomic_attr_exp_flags_t *pAttr)
{
	if (val_cfg.params) {
		if (!hDevice)
			return val_null_handle(call, "hDevice");
		if (!ptr)
			return null_pointer(call, "ptr");
		if (!pAttr)
			return null_pointer(call, "pAttr");
	}
	return val_next.MemExp.pfnGetAtomicAccessAttributeExp(hContext, hDevice,
							      ptr, size, pAttr);
}
