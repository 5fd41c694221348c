// SPDX-License-Identifier: MIT
/*
 * amap: the driver's one address map (amap.h has the vocabulary and the
 * rules). Two sorted arrays of entries under one lock: regions (imports,
 * reservations) and mappings (VMM_MAP); USM blocks are answered by the
 * allocator's pointer index, first, outside the lock.
 *
 * Sorted arrays: lookups are a binary search, registrations a memmove.
 * The ranges registered here are few next to USM blocks (each import, each
 * reservation and mapping is an mmap of its own, bounded by the process's
 * map count), so the memmove stays small and the array stays in cache.
 *
 * Locking: amap_lock, a leaf (amap.h): a u_lock, not a reader-writer
 * lock. Every critical section is a binary search or a small memmove;
 * sharing the read side saves nothing there (it costs two atomics, as the
 * mutex does), and glibc's write side costs ~60 instructions a pair more
 * than u_lock, twice in every IPC open and close.
 */
#include "amap.h"
#include "u_lock.h"

#include <errno.h>
#include <stdatomic.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct ent {
	uintptr_t base;
	size_t size;
	enum amap_kind kind;
	bool external;
	void *owner;
	struct usm_info info;
};

struct layer {
	struct ent *v;   /* sorted by base, never overlapping */
	size_t n, cap;
};

enum { LAYER_REGION, LAYER_MAP, LAYER_COUNT };

static u_lock_t amap_lock = U_LOCK_INIT;
static struct layer layers[LAYER_COUNT];    /* amap_lock */
static size_t counts[AMAP_KIND_COUNT];      /* amap_lock */
/* Entries in both layers (written under amap_lock): a lookup of a pointer
 * outside USM skips the lock while the map holds nothing else. */
/* Written under amap_lock only (a load and a store, no locked
 * read-modify-write); read without it as a hint that the map is empty. */
static _Atomic size_t n_entries;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

/* n_entries += d (wraps for a decrement). Under amap_lock. */
static void
entries_add(size_t d)
{
	atomic_store_explicit(&n_entries,
			      atomic_load_explicit(&n_entries,
						   memory_order_relaxed) + d,
			      memory_order_release);
}

static void
fork_prepare(void)
{
	u_lock(&amap_lock);
}

static void
fork_parent(void)
{
	u_unlock(&amap_lock);
}

static void
fork_child(void)
{
	/* The child is single-threaded: whoever held the lock is gone. */
	u_lock_init(&amap_lock);
}

static void
init(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

void
amap_init(void)
{
	pthread_once(&init_once, init);
}

static struct layer *
layer_of(enum amap_kind kind)
{
	switch (kind) {
	case AMAP_IPC_IMPORT:
	case AMAP_PHYS_IMPORT:
	case AMAP_VMM_RESV:
		return &layers[LAYER_REGION];
	case AMAP_VMM_MAP:
		return &layers[LAYER_MAP];
	default:
		return NULL;
	}
}

/* Number of entries of l whose base is <= a. Under amap_lock. */
static size_t
upper(const struct layer *l, uintptr_t a)
{
	size_t lo = 0, hi = l->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->v[mid].base <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Index of the entry of l holding a, or l->n. Under amap_lock. */
static size_t
find_in(const struct layer *l, uintptr_t a)
{
	size_t i = upper(l, a);
	if (i && a - l->v[i - 1].base < l->v[i - 1].size)
		return i - 1;
	return l->n;
}

int
amap_add(enum amap_kind kind, const struct usm_info *info, void *owner,
	 bool external)
{
	struct layer *l = layer_of(kind);
	uintptr_t a = (uintptr_t)info->base;
	if (!l || !info->size || info->size > UINTPTR_MAX - a)
		return -EINVAL;
	int err = 0;
	u_lock(&amap_lock);
	size_t i = upper(l, a);
	if ((i && l->v[i - 1].base + l->v[i - 1].size > a) ||
	    (i < l->n && l->v[i].base < a + info->size)) {
		err = -EINVAL; /* overlaps: the owner's bug */
		goto out;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 32;
		struct ent *v = realloc(l->v, cap * sizeof(*v));
		if (!v) {
			err = -ENOMEM;
			goto out;
		}
		l->v = v;
		l->cap = cap;
	}
	if (i < l->n) /* not the last: a call less for one that is */
		memmove(&l->v[i + 1], &l->v[i], (l->n - i) * sizeof(*l->v));
	l->v[i] = (struct ent){
		.base = a, .size = info->size, .kind = kind,
		.external = external, .owner = owner, .info = *info,
	};
	l->n++;
	counts[kind]++;
	entries_add(1);
out:
	u_unlock(&amap_lock);
	if (err)
		u_warn("amap", "cannot register %s %p+%zu: %s",
		       amap_kind_name(kind), info->base, info->size,
		       strerror(-err));
	return err;
}

/* Takes entry i out of l. Under amap_lock. */
static void
remove_at(struct layer *l, size_t i)
{
	counts[l->v[i].kind]--;
	entries_add((size_t)-1);
	if (i + 1 < l->n)
		memmove(&l->v[i], &l->v[i + 1],
			(l->n - i - 1) * sizeof(*l->v));
	/* Emptied: the first array (32 entries) stays for the next add (a
	 * process that opens and closes one import at a time would realloc
	 * and free it each time); a bigger one goes. */
	if (--l->n == 0 && l->cap > 32) {
		free(l->v);
		l->v = NULL;
		l->cap = 0;
	}
}

int
amap_del(enum amap_kind kind, const void *base)
{
	struct layer *l = layer_of(kind);
	if (!l)
		return -EINVAL;
	int err = -ENOENT;
	uintptr_t a = (uintptr_t)base;
	u_lock(&amap_lock);
	size_t i = upper(l, a);
	if (i && l->v[i - 1].base == a && l->v[i - 1].kind == kind) {
		remove_at(l, i - 1);
		err = 0;
	}
	u_unlock(&amap_lock);
	return err;
}

static void hit_of(const struct ent *e, struct amap_hit *out);

/* Sets out to "nothing here" (what a lookup answers until it finds an
 * entry); true when the map holds nothing, so the lookup can stop without
 * the lock. */
static bool
no_hit(struct amap_hit *out)
{
	out->kind = AMAP_NONE;
	out->owner = NULL;
	out->external = false;
	return !atomic_load_explicit(&n_entries, memory_order_acquire);
}

int
amap_take_if(const void *p, int (*ok)(const struct amap_hit *, void *),
	     void *arg, struct amap_hit *out)
{
	struct layer *l = &layers[LAYER_REGION];
	int err = -ENOENT;
	if (no_hit(out))
		return err;
	u_lock(&amap_lock);
	size_t i = find_in(l, (uintptr_t)p);
	if (i < l->n) {
		hit_of(&l->v[i], out);
		if (!(err = ok(out, arg)))
			remove_at(l, i);
	}
	u_unlock(&amap_lock);
	return err;
}

size_t
amap_del_maps(const void *base, size_t size)
{
	struct layer *l = &layers[LAYER_MAP];
	uintptr_t a = (uintptr_t)base, end = a + size;
	size_t n = 0;
	u_lock(&amap_lock);
	size_t i = upper(l, a);
	if (i && l->v[i - 1].base + l->v[i - 1].size > a)
		i--; /* starts before base: inside it all the same */
	while (i < l->n && l->v[i].base < end) {
		remove_at(l, i);
		n++;
	}
	u_unlock(&amap_lock);
	return n;
}

int
amap_take_ctx(enum amap_kind kind, struct _ze_context_handle_t *ctx,
	      void ***owners, size_t *n)
{
	struct layer *l = layer_of(kind);
	*owners = NULL;
	*n = 0;
	if (!l)
		return -EINVAL;
	int err = 0;
	u_lock(&amap_lock);
	size_t cnt = counts[kind];
	void **v = cnt ? malloc(cnt * sizeof(*v)) : NULL;
	if (cnt && !v) {
		err = -ENOMEM;
		goto out;
	}
	size_t keep = 0, taken = 0;
	for (size_t i = 0; i < l->n; i++) {
		struct ent *e = &l->v[i];
		if (e->kind == kind && e->info.ctx == ctx)
			v[taken++] = e->owner;
		else
			l->v[keep++] = *e;
	}
	l->n = keep;
	counts[kind] -= taken;
	entries_add(-taken);
	if (!taken) {
		free(v);
		v = NULL;
	}
	*owners = v;
	*n = taken;
out:
	u_unlock(&amap_lock);
	return err;
}

static void
hit_of(const struct ent *e, struct amap_hit *out)
{
	out->kind = e->kind;
	out->owner = e->owner;
	out->external = e->external;
	out->info = e->info;
}

/* USM, the first part of the map: the allocator's own index. */
static bool
usm_hit(const void *p, struct amap_hit *out)
{
	struct usm_heap *h = drv_driver.heap;
	memset(&out->info, 0, sizeof(out->info));
	out->info.fd = -1;
	if (!h || usm_lookup(h, p, &out->info))
		return false;
	out->kind = AMAP_USM_BLOCK;
	out->owner = NULL;
	out->external = false;
	return true;
}

/* The entry of the layers top down to LAYER_REGION that holds p (the
 * first found: a mapping before its reservation), or -ENOENT. */
static int
find_layers(const void *p, int top, struct amap_hit *out)
{
	int err = -ENOENT;
	if (no_hit(out))
		return err;
	u_lock(&amap_lock);
	for (int k = top; k >= LAYER_REGION; k--) {
		const struct layer *l = &layers[k];
		size_t i = find_in(l, (uintptr_t)p);
		if (i < l->n) {
			hit_of(&l->v[i], out);
			err = 0;
			break;
		}
	}
	u_unlock(&amap_lock);
	return err;
}

int
amap_find(const void *p, struct amap_hit *out)
{
	if (usm_hit(p, out))
		return 0;
	return find_layers(p, LAYER_MAP, out);
}

int
amap_region(const void *p, struct amap_hit *out)
{
	return find_layers(p, LAYER_REGION, out);
}

enum amap_span
amap_span(struct _ze_context_handle_t *ctx, const void *p, size_t size,
	  struct amap_hit *hit)
{
	uintptr_t a = (uintptr_t)p, end = a + size;
	if (usm_hit(p, hit))
		return end - (uintptr_t)hit->info.base <= hit->info.size
			       ? AMAP_SPAN_IN
			       : AMAP_SPAN_PAST;
	enum amap_span res = AMAP_SPAN_NONE;
	if (no_hit(hit))
		return res;
	u_lock(&amap_lock);
	const struct layer *r = &layers[LAYER_REGION];
	size_t ri = find_in(r, a);
	if (ri == r->n || r->v[ri].info.ctx != ctx)
		goto out; /* another context's range is system memory here */
	const struct ent *reg = &r->v[ri];
	uintptr_t reg_end = reg->base + reg->size;
	hit_of(reg, hit);
	if (reg->kind != AMAP_VMM_RESV) {
		res = end <= reg_end ? AMAP_SPAN_IN : AMAP_SPAN_PAST;
		goto out;
	}
	/* A reservation: every page mapped, by adjacent mappings, inside
	 * the reservation. */
	const struct layer *m = &layers[LAYER_MAP];
	size_t i = find_in(m, a);
	res = AMAP_SPAN_PAST; /* unmapped at p */
	if (i == m->n)
		goto out;
	hit_of(&m->v[i], hit);
	uintptr_t pos = m->v[i].base + m->v[i].size;
	for (i++; pos < end && i < m->n && m->v[i].base == pos; i++)
		pos = m->v[i].base + m->v[i].size;
	if (pos >= end && end <= reg_end)
		res = AMAP_SPAN_IN;
out:
	u_unlock(&amap_lock);
	return res;
}

void
amap_counts(size_t out[AMAP_KIND_COUNT])
{
	u_lock(&amap_lock);
	memcpy(out, counts, sizeof(counts));
	u_unlock(&amap_lock);
}

const char *
amap_kind_name(enum amap_kind kind)
{
	switch (kind) {
	case AMAP_NONE: return "system";
	case AMAP_USM_BLOCK: return "USM";
	case AMAP_IPC_IMPORT: return "IPC-imported";
	case AMAP_PHYS_IMPORT: return "physical-range imported";
	case AMAP_VMM_RESV: return "virtual (VMM) reserved";
	case AMAP_VMM_MAP: return "virtual (VMM) mapped";
	default: return "?";
	}
}
