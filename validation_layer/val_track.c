// SPDX-License-Identifier: MIT
/*
 * val_track: records of address ranges (USM allocations, IPC imports, VMM
 * reservations and mappings), the three indexes that hold them, and the
 * quarantine of freed records.
 *
 * Vocabulary (see val.h): a record is LIVE from the call that created it
 * to the call that released it, then FREED and kept in the quarantine (a
 * FIFO of VAL_QUARANTINE records) so a second release can be told apart
 * from a wild pointer and can say where the memory was allocated and
 * freed. A LIVE record that a new one overlaps means the driver handed out
 * the same addresses twice: that is reported as a driver finding.
 *
 * Each index holds ranges that do not overlap, so the record containing
 * an address is the floor of that address (val_index.c), found in
 * O(log n). Records are recycled through a small free list.
 *
 * Locking: everything here runs under val_lock (callers take it).
 */
#include "val.h"

#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define FREE_LIST_MAX 1024

val_mtx_t val_lock;
struct val_index val_mem_index;
struct val_index val_import_index;
struct val_index val_map_index;

/* The quarantine: a ring of the last VAL_QUARANTINE freed records. A
 * record leaving it early (its addresses were allocated again) just
 * clears its slot, touching no other record; a full ring evicts the
 * record in the slot it writes next. */
static struct val_rec *qring[VAL_QUARANTINE];
static uint32_t qhead;  /* next slot written */
static struct val_rec *free_list;
static size_t free_count;
static uint64_t next_id[VAL_KIND_COUNT];

void
val_mtx_lock_slow(val_mtx_t *m, uint32_t c)
{
	/* Drepper's futex mutex: 2 means "locked, maybe with waiters". */
	if (c != 2)
		c = atomic_exchange_explicit(&m->v, 2, memory_order_acquire);
	while (c != 0) {
		syscall(SYS_futex, &m->v, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
		c = atomic_exchange_explicit(&m->v, 2, memory_order_acquire);
	}
}

void
val_mtx_wake(val_mtx_t *m)
{
	syscall(SYS_futex, &m->v, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static inline struct val_rec *
rec_of(struct val_node *n)
{
	return n ? (struct val_rec *)((char *)n -
				      offsetof(struct val_rec, node))
		 : NULL;
}

const char *
val_kind_name(enum val_kind k)
{
	switch (k) {
	case VAL_KIND_HOST: return "host allocation";
	case VAL_KIND_DEVICE: return "device allocation";
	case VAL_KIND_SHARED: return "shared allocation";
	case VAL_KIND_IMPORT: return "IPC import";
	case VAL_KIND_RESERVATION: return "virtual reservation";
	case VAL_KIND_MAPPING: return "virtual mapping";
	default: return "range";
	}
}

struct val_rec *
val_rec_new(enum val_kind kind, struct val_site *site, uintptr_t base,
	    size_t size)
{
	struct val_rec *r = free_list;
	if (r) {
		free_list = r->next_free;
		free_count--;
	} else {
		r = malloc(sizeof(*r));
		if (!r) {
			val_site_clear(site);
			return NULL;
		}
	}
	memset(r, 0, sizeof(*r));
	r->node.key = base;
	r->size = size;
	r->kind = (uint8_t)kind;
	r->state = VAL_LIVE;
	r->id = ++next_id[kind];
	r->alloc = *site;
	site->bt = NULL;
	return r;
}

static void
q_unlink(struct val_rec *r)
{
	if (qring[r->qslot] == r)
		qring[r->qslot] = NULL;
}

void
val_rec_drop(struct val_rec *r)
{
	if (r->state == VAL_FREED)
		q_unlink(r);
	if (r->ix)
		val_index_remove(r->ix, &r->node);
	val_site_clear(&r->alloc);
	val_site_clear(&r->free);
	if (free_count < FREE_LIST_MAX) {
		r->next_free = free_list;
		free_list = r;
		free_count++;
	} else {
		free(r);
	}
}

struct val_rec *
val_rec_find_slow(const struct val_index *ix, uintptr_t p)
{
	struct val_rec *r = rec_of(val_index_floor(ix, p));
	return r && p < val_rec_end(r) ? r : NULL;
}

/* Reset a record for a new life at base (keeps its place in the index). */
static void
rec_reset(struct val_rec *r, enum val_kind kind, struct val_site *site,
	  size_t size)
{
	val_site_clear(&r->alloc);
	val_site_clear(&r->free);
	r->free.ep = 0;
	r->ctx = NULL;
	r->dev = NULL;
	r->align = 0;
	r->flags = 0;
	r->nmaps = 0;
	r->pmem = NULL;
	r->offset = 0;
	r->size = size;
	r->kind = (uint8_t)kind;
	r->state = VAL_LIVE;
	r->id = ++next_id[kind];
	r->alloc = *site;
	site->bt = NULL;
}

struct val_rec *
val_rec_add(struct val_index *ix, enum val_kind kind, struct val_site *site,
	    uintptr_t base, size_t size, const struct val_call *call)
{
	uintptr_t end = base + (size ? size : 1);
	struct val_rec *reuse = rec_of(val_index_find(ix, base)), *o, *prev;
	/* Fast path: a freed record at the same base, at least as long. No
	 * record of an index overlaps another, so the new one cannot either. */
	if (reuse && reuse->state == VAL_FREED && size && size <= reuse->size) {
		q_unlink(reuse);
		reuse->state = VAL_LIVE;
		rec_reset(reuse, kind, site, size);
		return reuse;
	}
	reuse = NULL;
	/* Every record overlapping [base, end), from the last one down. */
	for (o = rec_of(val_index_floor(ix, end - 1));
	     o && val_rec_end(o) > base; o = prev) {
		prev = rec_of(val_index_prev(&o->node));
		if (o->state == VAL_FREED && val_rec_base(o) == base &&
		    !reuse) {
			/* The common case: the driver gave the same address
			 * again. Reuse the record where it sits. */
			q_unlink(o);
			reuse = o;
			continue;
		}
		struct val_handle *oc = val_handle_find(o->ctx);
		if (o->state == VAL_LIVE &&
		    !(oc && !atomic_load(&oc->live))) { /* dying context */
			char d[2048];
			val_rec_describe(o, d, sizeof(d));
			val_report(VAL_CAT_DRIVER, call, ZE_RESULT_SUCCESS,
				   "driver bug: the new %s %p (%zu bytes) "
				   "overlaps the live %s", val_kind_name(kind),
				   (void *)base, size, d);
		}
		val_rec_drop(o);
	}
	if (reuse) {
		reuse->state = VAL_LIVE;  /* out of the quarantine already */
		rec_reset(reuse, kind, site, size);
		return reuse;
	}
	struct val_rec *r = val_rec_new(kind, site, base, size);
	if (!r)
		return NULL;
	r->ix = ix;
	if (val_index_insert(ix, &r->node)) { /* cannot happen: cleared above */
		r->ix = NULL;
		val_rec_drop(r);
		return NULL;
	}
	return r;
}

void
val_rec_retire(struct val_rec *r, struct val_site *site)
{
	r->state = VAL_FREED;
	val_site_clear(&r->free);
	r->free = *site;
	site->bt = NULL;
	struct val_rec *old = qring[qhead];
	if (old)
		val_rec_drop(old);  /* the oldest freed record goes */
	qring[qhead] = r;
	r->qslot = qhead;
	qhead = (qhead + 1) % VAL_QUARANTINE;
}

void
val_rec_unretire(struct val_index *ix, uintptr_t base, uint64_t id)
{
	struct val_rec *r = rec_of(val_index_floor(ix, base));
	if (!r || val_rec_base(r) != base || r->id != id ||
	    r->state != VAL_FREED)
		return;
	q_unlink(r);
	r->state = VAL_LIVE;
	val_site_clear(&r->free);
	r->free.ep = 0;
}

const char *
val_rec_describe(const struct val_rec *r, char *buf, size_t len)
{
	char a[1024], f[1024];
	int n = snprintf(buf, len, "%s %p (%zu bytes, #%llu, context %p",
			 val_kind_name(r->kind), (void *)val_rec_base(r),
			 r->size, (unsigned long long)r->id, (void *)r->ctx);
	if (n < 0 || (size_t)n >= len)
		return buf;
	if (r->align)
		n += snprintf(buf + n, len - (size_t)n, ", alignment %zu",
			      r->align);
	if ((size_t)n >= len)
		return buf;
	static const char *const made[VAL_KIND_COUNT] = {
		[VAL_KIND_HOST] = "allocated", [VAL_KIND_DEVICE] = "allocated",
		[VAL_KIND_SHARED] = "allocated", [VAL_KIND_IMPORT] = "opened",
		[VAL_KIND_RESERVATION] = "reserved",
		[VAL_KIND_MAPPING] = "mapped",
	};
	n += snprintf(buf + n, len - (size_t)n, ") %s %s",
		      r->kind < VAL_KIND_COUNT ? made[r->kind] : "made",
		      val_site_format(&r->alloc, a, sizeof(a)));
	if (r->state == VAL_FREED && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ", released %s",
			 val_site_format(&r->free, f, sizeof(f)));
	return buf;
}
