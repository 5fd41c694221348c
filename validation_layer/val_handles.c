// SPDX-License-Identifier: MIT
/*
 * val_handles: the contexts, devices and physical-memory objects the layer
 * has seen, and the generic lifetime checks the wrappers run on every
 * handle argument of those types.
 *
 * Vocabulary: a handle record (struct val_handle) is created the first
 * time the driver returns a handle and stays, marked dead, after the
 * handle is destroyed, so a later use can say "destroyed" and where; when
 * the driver hands out the same address again the record is reused.
 *
 * The table is open addressing over handle addresses, read without locks:
 * records are never freed while the process runs and a slot, once set,
 * never changes, so a reader sees either NULL or a complete record. A
 * bigger table is built beside the old one and published with one atomic
 * store; old arrays are kept (their total is below the final size).
 *
 * Locking: inserting takes val_lock (callers hold it); lookups take none.
 */
#include "val.h"

#include <stdio.h>
#include <stdlib.h>

struct htab {
	size_t cap;                 /* power of two */
	struct htab *older;         /* arrays replaced by this one */
	_Atomic(struct val_handle *) slot[];
};

static _Atomic(struct htab *) table;
static struct val_handle *val_handle_find_table(const void *h);
static size_t count;                 /* val_lock */
static struct val_handle **all;      /* val_lock: insertion order */
static size_t nall, capall;          /* val_lock */
static uint64_t next_id[VAL_H_PMEM + 1];   /* val_lock */

static inline size_t
hash(const void *h)
{
	uint64_t x = (uint64_t)(uintptr_t)h;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return (size_t)x;
}

__thread struct val_recent val_recent
	__attribute__((tls_model("initial-exec")));

struct val_handle val_hot_none;   /* life 0 */
__thread struct val_hot val_hot
	__attribute__((tls_model("initial-exec"))) = {
	.ctx_hd = &val_hot_none, .ctx_life = 1,
	.dev_hd = &val_hot_none, .dev_life = 1,
	.rc_shard = &val_shards[0], .rc_drops = UINT64_MAX,  /* base 0's */
	.own = { .mru = &val_own_none },
};

void
val_hot_set_ctx(struct val_handle *hd, uint64_t gen, _Atomic uint64_t *n)
{
	struct val_hot *t = &val_hot;
	uint64_t life = hd ? atomic_load_explicit(&hd->life,
						   memory_order_acquire)
			   : 0;
	/* ctx first: a hot test between these stores finds no entry. */
	t->ctx = NULL;
	if (val_cfg.mode && life == gen * 2 + 1 &&
	    atomic_load_explicit(&hd->kind, memory_order_relaxed) ==
		    VAL_H_CONTEXT) {
		t->ctx_hd = hd;
		t->ctx_life = life;
		t->ctx_n = n;
		t->ctx = hd->h;
	} else {
		t->ctx_hd = &val_hot_none;
		t->ctx_life = 1;
		t->ctx_n = NULL;
	}
}

/* The count slot of a hot context in the modes without the leak checker:
 * the fast paths need one, and count nothing there. */
static _Atomic uint64_t no_counts[VAL_EP_COUNT];

void
val_hot_take_ctx(struct val_handle *hd)
{
	if (hd && val_handle_is(hd, VAL_H_CONTEXT))
		val_hot_set_ctx(hd, atomic_load_explicit(&hd->gen,
							 memory_order_relaxed),
				no_counts);
}

bool
val_hot_take_dev(struct val_handle *hd)
{
	if (!val_handle_is(hd, VAL_H_DEVICE))
		return false;
	struct val_hot *t = &val_hot;
	uint64_t life = atomic_load_explicit(&hd->life, memory_order_acquire);
	t->dev = NULL;
	if (life & 1) {
		t->dev_hd = hd;
		t->dev_life = life;
		t->dev = hd->h;
	}
	return true;
}

struct val_handle *
val_handle_find_slow(const void *h)
{
	/* val_handle_find looked at both entries already. */
	struct val_recent *c = &val_recent;
	struct val_handle *e = val_handle_find_table(h);
	if (e) {
		c->h[1] = c->h[0];
		c->hd[1] = c->hd[0];
		c->h[0] = h;
		c->hd[0] = e;
	}
	return e;
}

static struct val_handle *
val_handle_find_table(const void *h)
{
	struct htab *t = atomic_load_explicit(&table, memory_order_acquire);
	if (!t)
		return NULL;
	size_t mask = t->cap - 1;
	for (size_t i = hash(h) & mask;; i = (i + 1) & mask) {
		struct val_handle *e = atomic_load_explicit(
			&t->slot[i], memory_order_acquire);
		if (!e || e->h == h)
			return e;
	}
}

static void
place(struct htab *t, struct val_handle *e)
{
	size_t mask = t->cap - 1;
	size_t i = hash(e->h) & mask;
	while (atomic_load_explicit(&t->slot[i], memory_order_relaxed))
		i = (i + 1) & mask;
	atomic_store_explicit(&t->slot[i], e, memory_order_release);
}

static int
grow(void)
{
	struct htab *old = atomic_load_explicit(&table, memory_order_relaxed);
	size_t cap = old ? old->cap * 2 : 256;
	struct htab *t = calloc(1, sizeof(*t) + cap * sizeof(t->slot[0]));
	if (!t)
		return -1;
	t->cap = cap;
	t->older = old;
	for (size_t i = 0; i < nall; i++)
		place(t, all[i]);
	atomic_store_explicit(&table, t, memory_order_release);
	return 0;
}

struct val_handle *
val_handle_add(const void *h, enum val_hkind kind, struct val_site *site)
{
	struct val_handle *hd = val_handle_find_table(h);
	if (hd) {
		/* The driver reused the address of a dead object. */
		val_site_clear(&hd->create);
		val_site_clear(&hd->destroy);
		hd->drv = NULL;
		hd->dev0 = NULL;
		hd->ctx = NULL;
		hd->dev = NULL;
		hd->size = 0;
		hd->nmaps = 0;
		atomic_store(&hd->max_alloc, 0);
		atomic_store(&hd->page, 0);
		atomic_store(&hd->mem_ordinals, 0);
	} else {
		if (nall == capall) {
			size_t cap = capall ? capall * 2 : 64;
			struct val_handle **a = realloc(all, cap * sizeof(*a));
			if (!a)
				goto err;
			all = a;
			capall = cap;
		}
		struct htab *t = atomic_load_explicit(&table,
						      memory_order_relaxed);
		if ((!t || (count + 1) * 2 > t->cap) && grow())
			goto err;
		hd = calloc(1, sizeof(*hd));
		if (!hd)
			goto err;
		hd->h = h;
		all[nall++] = hd;
		count++;
		place(atomic_load_explicit(&table, memory_order_relaxed), hd);
	}
	/* A new life: the counts of the last one are not this one's (the
	 * per-thread slots of the last life no longer match, val_leak.c). */
	pthread_mutex_lock(&val_reg_lock);
	atomic_fetch_add(&hd->gen, 1);
	for (unsigned i = 0; hd->counts && i < VAL_EP_COUNT; i++)
		atomic_store(&hd->counts[i], 0);
	pthread_mutex_unlock(&val_reg_lock);
	atomic_store(&hd->kind, kind);
	hd->id = ++next_id[kind];
	hd->create = *site;
	site->bt = NULL;
	hd->destroy.ep = 0;
	hd->destroy.bt = NULL;
	val_handle_set_live(hd, true);
	return hd;
err:
	val_site_clear(site);
	return NULL;
}

void
val_handle_kill(struct val_handle *hd, struct val_site *site)
{
	val_handle_set_live(hd, false);
	val_site_clear(&hd->destroy);
	hd->destroy = *site;
	site->bt = NULL;
}

void
val_handle_walk(void (*fn)(struct val_handle *hd, void *arg), void *arg)
{
	for (size_t i = 0; i < nall; i++)
		fn(all[i], arg);
}

const char *
val_hkind_name(int kind)
{
	switch (kind) {
	case VAL_H_CONTEXT: return "context";
	case VAL_H_DEVICE: return "device";
	case VAL_H_PMEM: return "physical memory object";
	default: return "object";
	}
}

static ze_result_t
check_handle(const struct val_call *call, const char *name, const void *h,
	     enum val_hkind want, const char *created_by)
{
	struct val_handle *hd = val_handle_find(h);
	if (!hd)
		return val_report(VAL_CAT_LIFETIME, call,
				  ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				  "%s %p is not a %s handle (never returned "
				  "by %s)", name, h, val_hkind_name(want),
				  created_by);
	int kind = atomic_load_explicit(&hd->kind, memory_order_relaxed);
	if (kind != (int)want)
		return val_report(VAL_CAT_LIFETIME, call,
				  ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				  "%s %p is a %s handle, not a %s handle",
				  name, h, val_hkind_name(kind),
				  val_hkind_name(want));
	if (atomic_load_explicit(&hd->live, memory_order_acquire))
		return ZE_RESULT_SUCCESS;
	char c[1024], d[1024];
	u_lock(&val_lock);
	val_site_format(&hd->create, c, sizeof(c));
	val_site_format(&hd->destroy, d, sizeof(d));
	uint64_t id = hd->id;
	u_unlock(&val_lock);
	return val_report(VAL_CAT_LIFETIME, call,
			  ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
			  "use of destroyed %s %s %p (#%llu, created %s, "
			  "destroyed %s)", val_hkind_name(want), name, h,
			  (unsigned long long)id, c, d);
}

ze_result_t
val_check_context_slow(const struct val_call *call, const char *name,
		       const void *h)
{
	struct val_handle *hd = val_handle_find(h);
	if (hd && atomic_load_explicit(&hd->live, memory_order_acquire) &&
	    atomic_load_explicit(&hd->kind, memory_order_relaxed) ==
		    VAL_H_CONTEXT)
		return ZE_RESULT_SUCCESS;
	return check_handle(call, name, h, VAL_H_CONTEXT,
			    "zeContextCreate, zeContextCreateEx or "
			    "zeDriverGetDefaultContext");
}

ze_result_t
val_check_device_slow(const struct val_call *call, const char *name,
		      const void *h)
{
	struct val_handle *hd = val_handle_find(h);
	if (hd && atomic_load_explicit(&hd->live, memory_order_acquire) &&
	    atomic_load_explicit(&hd->kind, memory_order_relaxed) ==
		    VAL_H_DEVICE)
		return ZE_RESULT_SUCCESS;
	return check_handle(call, name, h, VAL_H_DEVICE,
			    "zeDeviceGet, zeDeviceGetSubDevices or "
			    "zeDeviceGetRootDevice");
}

ze_result_t
val_check_pmem_slow(const struct val_call *call, const char *name,
		    const void *h)
{
	struct val_handle *hd = val_handle_find(h);
	if (hd && atomic_load_explicit(&hd->live, memory_order_acquire) &&
	    atomic_load_explicit(&hd->kind, memory_order_relaxed) ==
		    VAL_H_PMEM)
		return ZE_RESULT_SUCCESS;
	return check_handle(call, name, h, VAL_H_PMEM, "zePhysicalMemCreate");
}
