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
 * O(log n). The records of val_mem_index are also in the shards' hash of
 * base addresses: an allocation at a base the layer saw freed (the usual
 * case: drivers hand addresses out again) and a free of a live base take
 * one shard lock and touch no tree (val_mem.c). Everything else (a base
 * never seen, overlaps, interior pointers, IPC, VMM, reports) runs under
 * the world lock, as before the shards.
 *
 * The quarantine is per shard (VAL_QUARANTINE / VAL_SHARDS records each,
 * bases spread evenly over the shards). A record pushed out of it goes
 * stale: O(1), under the shard lock alone; stale records leave the trees
 * in batches (val_shard_sweep, val_lock and one shard lock) when a shard
 * has VAL_STALE_MAX of them, or are reused in place before that.
 *
 * Records are recycled through per-shard free lists.
 *
 * A thread may keep one record per shard to itself, OWNED (val.h,
 * struct val_own): the last one it freed on a hot path, allocated and
 * freed again there without a lock. rec_exact, val_rec_find and
 * val_rec_add take back any OWNED record they meet (val_own_take), so
 * their callers see only the shared states.
 */
#include "val.h"

#include "u_log.h"
#include "u_list.h"

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SHARD_FREE_MAX 64
#define ID_BLOCK 64

u_lock_t val_lock;
struct val_shard val_shards[VAL_SHARDS];
/* Its records are all in the shard hashes too: exact finds go there
 * (rec_exact), and the index keeps no hash of its own. */
struct val_index val_mem_index = { .no_hash = true };
struct val_index val_import_index;
struct val_index val_map_index;

static _Atomic uint64_t id_pool[VAL_KIND_COUNT];

static void sweep_locked(struct val_shard *s);
static void own_publish_all(struct val_own *t);

uint64_t
val_rec_id_slow(enum val_kind kind)
{
	uint64_t first = atomic_fetch_add(&id_pool[kind], ID_BLOCK) + 1;
	val_hot.id_next[kind] = first + 1;
	val_hot.id_end[kind] = first + ID_BLOCK;
	return first;
}

bool val_bias_ok;
__thread char val_bias_self __attribute__((tls_model("initial-exec")));

#ifndef MEMBARRIER_CMD_PRIVATE_EXPEDITED
#define MEMBARRIER_CMD_PRIVATE_EXPEDITED (1 << 3)
#define MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED (1 << 4)
#endif

void
val_bias_init(void)
{
#ifdef SYS_membarrier
	val_bias_ok = !syscall(SYS_membarrier,
			       MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0);
#else
	val_bias_ok = false;
#endif
}

static void
spin_pause(unsigned n)
{
	if (n < 128) {
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
	} else {
		sched_yield();
	}
}

/* Caller holds l->v. The owner becomes the caller when l has none (then
 * it holds l biased: busy set, v let go); else a bias of another thread
 * is revoked, and the caller waits for that thread to leave (at most
 * tries pauses: false when it did not, v let go). */
static bool
spin_got_v(val_spin_t *l, unsigned tries)
{
	const void *me = val_bias_me();
	const void *o = atomic_load_explicit(&l->owner, memory_order_relaxed);
	if (!o && val_bias_ok) {
		atomic_store_explicit(&l->busy, me, memory_order_relaxed);
		atomic_store_explicit(&l->owner, me, memory_order_release);
		atomic_store_explicit(&l->v, 0, memory_order_release);
		return true;
	}
	if (o && o != VAL_BIAS_OFF && o != me) {
		atomic_store_explicit(&l->owner, VAL_BIAS_OFF,
				      memory_order_seq_cst);
#ifdef SYS_membarrier
		if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED,
			    0, 0)) {
			/* Registered at init (val_bias_ok), so this does not
			 * happen: without the barrier the revoke is unsafe. */
			u_err("val", "membarrier: %s: cannot take a shard "
				       "lock from its owner thread",
				strerror(errno));
			abort();
		}
#endif
	}
	for (unsigned n = 0; atomic_load_explicit(&l->busy,
						   memory_order_acquire);
	     n++) {
		if (n >= tries) {
			atomic_store_explicit(&l->v, 0, memory_order_release);
			return false;
		}
		spin_pause(n);
	}
	return true;
}

void
val_spin_lock_slow(val_spin_t *l)
{
	for (unsigned n = 0;; n++) {
		if (!atomic_load_explicit(&l->v, memory_order_relaxed) &&
		    !atomic_exchange_explicit(&l->v, 1, memory_order_acquire)) {
			spin_got_v(l, UINT32_MAX);
			return;
		}
		spin_pause(n);
	}
}

bool
val_spin_trylock_slow(val_spin_t *l)
{
	return !atomic_load_explicit(&l->v, memory_order_relaxed) &&
	       !atomic_exchange_explicit(&l->v, 1, memory_order_acquire) &&
	       spin_got_v(l, 1000);
}

void
val_shards_lock_all(void)
{
	for (unsigned i = 0; i < VAL_SHARDS; i++)
		val_spin_lock(&val_shards[i].lock);
}

void
val_world_lock(void)
{
	u_lock(&val_lock);
	val_shards_lock_all();
}

/* ---- records threads own (val.h) ---- */

struct val_rec val_own_none = { .okind = UINT8_MAX, .ostate = UINT8_MAX };

static struct val_own *own_head;        /* the registry: val_lock */
static pthread_key_t own_key;
static pthread_once_t own_key_once = PTHREAD_ONCE_INIT;
static _Atomic bool own_key_ok;

static void
own_unlink(struct val_own *o)
{
	U_LIST_UNLINK(&own_head, o, prev, next);
	o->reg = false;
}

/* The thread exits: its records go back, it leaves the registry. */
static void
own_gone(void *arg)
{
	struct val_own *o = arg;
	val_world_lock();
	own_publish_all(o);
	if (o->reg)
		own_unlink(o);
	o->gone = true;  /* owns nothing from now on */
	val_world_unlock();
}

static void
own_key_make(void)
{
	own_key_ok = !pthread_key_create(&own_key, own_gone);
}

void
val_own_fini(void)
{
	if (atomic_exchange(&own_key_ok, false))
		pthread_key_delete(own_key);
}

bool
val_own_register(void)
{
	struct val_own *o = &val_hot.own;
	pthread_once(&own_key_once, own_key_make);
	/* Without the key an exiting thread's records would be lost. */
	if (o->gone || !own_key_ok || !val_bias_ok ||
	    pthread_setspecific(own_key, o))
		return false;
	u_lock(&val_lock);
	if (!o->reg) {
		U_LIST_PUSH(&own_head, o, prev, next);
		o->reg = true;
	}
	u_unlock(&val_lock);
	return true;
}

/* Caller holds val_lock and every shard lock, and t is this thread or
 * out of its hot paths: t's records back to the shared states. */
static void
own_publish_all(struct val_own *t)
{
	for (unsigned k = 0; k < VAL_SHARDS; k++) {
		struct val_rec *r = t->slot[k];
		if (!r)
			continue;
		t->slot[k] = NULL;
		if (val_own_publish(&val_shards[k], r))
			sweep_locked(&val_shards[k]);
	}
	t->n = 0;
	t->mru_base = 0;
	t->mru = &val_own_none;
}

void
val_own_take(const struct val_rec *r)
{
	struct val_own *me = &val_hot.own;
	if (me->slot[r->shard] == r)
		own_publish_all(me);   /* this thread's: no barrier needed */
	else
		val_own_steal_all();
}

void
val_own_steal_all(void)
{
	struct val_own *me = &val_hot.own;
	bool others = false;
	for (struct val_own *t = own_head; t; t = t->next) {
		if (t != me && t->n) {
			atomic_store_explicit(&t->steal, 1,
					      memory_order_seq_cst);
			others = true;
		}
	}
#ifdef SYS_membarrier
	/* Each owner now sees steal, or this thread sees its busy. */
	if (others &&
	    syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0)) {
		/* Registered at init (owners exist only with val_bias_ok). */
		u_err("val", "membarrier: %s: cannot take records back from "
			     "their threads", strerror(errno));
		abort();
	}
#endif
	for (struct val_own *t = own_head; t; t = t->next) {
		if (!t->n)
			continue;
		for (unsigned n = 0;
		     t != me && atomic_load_explicit(&t->busy,
						     memory_order_acquire);
		     n++)
			spin_pause(n);
		own_publish_all(t);
		if (t != me)
			atomic_store_explicit(&t->steal, 0,
					      memory_order_release);
	}
}

void
val_own_fork_child(void)
{
	struct val_own *me = &val_hot.own;
	/* The other threads are gone (their records were taken back by
	 * fork_prepare's world lock). */
	own_head = NULL;
	if (me->reg) {
		me->prev = me->next = NULL;
		own_head = me;
	}
}

void
val_world_unlock(void)
{
	for (unsigned i = VAL_SHARDS; i-- > 0;)
		val_spin_unlock(&val_shards[i].lock);
	u_unlock(&val_lock);
}

static inline struct val_rec *
rec_of(struct val_node *n)
{
	return n ? (struct val_rec *)((char *)n -
				      offsetof(struct val_rec, node))
		 : NULL;
}

/* The record of ix at exactly base (any state), or NULL. Caller holds the
 * world lock. */
static struct val_rec *
rec_exact(const struct val_index *ix, uintptr_t base)
{
	if (ix != &val_mem_index)
		return rec_of(val_index_find(ix, base));
	struct val_rec *r = val_shard_find(&val_shards[val_shard_index(base)],
					   base);
	if (r && r->state == VAL_OWNED)
		val_own_take(r);   /* r stays hashed at base */
	return r;
}

/* ---- lists (quarantine, stale) ---- */

#define list_push val_rlist_push
#define list_unlink val_rlist_unlink

/* Takes r off the quarantine ring or the stale list, by its state. */
static void
unlist(struct val_rec *r)
{
	if (r->state == VAL_FREED)
		val_rec_unquarantine(r);
	else if (r->state == VAL_STALE)
		list_unlink(&val_shards[r->shard].stale, r);
}

/* ---- the shard hash (caller holds the shard lock) ---- */

static void
hash_grow(struct val_shard *s)
{
	size_t nb = s->buckets ? (s->mask + 1) * 2 : 256;
	struct val_rec **b = calloc(nb, sizeof(*b));
	if (!b)
		return;  /* chains get longer */
	for (size_t i = 0; s->buckets && i <= s->mask; i++) {
		for (struct val_rec *r = s->buckets[i], *next; r; r = next) {
			next = r->hnext;
			size_t k = (val_mix(r->base) >> 24) & (nb - 1);
			r->hnext = b[k];
			b[k] = r;
		}
	}
	free(s->buckets);
	s->buckets = b;
	s->mask = nb - 1;
}

static bool
hash_add(struct val_shard *s, struct val_rec *r)
{
	if (!s->buckets || s->count > s->mask)
		hash_grow(s);
	if (!s->buckets)
		return false;
	struct val_rec **b = &s->buckets[(val_mix(r->base) >> 24) & s->mask];
	r->hnext = *b;
	*b = r;
	r->hashed = true;
	s->count++;
	return true;
}

static void
hash_del(struct val_shard *s, struct val_rec *r)
{
	for (struct val_rec **l = &s->buckets[(val_mix(r->base) >> 24) &
					      s->mask];
	     *l; l = &(*l)->hnext) {
		if (*l == r) {
			*l = r->hnext;
			s->count--;
			break;
		}
	}
	r->hnext = NULL;
	r->hashed = false;
}

/* ---- records ---- */

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

/* Caller holds the world lock. */
/* r, new or revived, becomes a LIVE record of kind, allocated at site
 * (its backtrace taken over), with a new id. */
static void
begin_life(struct val_rec *r, enum val_kind kind, struct val_site *site,
	   size_t size)
{
	r->size = size;
	r->kind = (uint8_t)kind;
	r->state = VAL_LIVE;
	r->id = val_rec_id(kind);
	r->alloc = *site;
	site->bt = NULL;
}

struct val_rec *
val_rec_new(enum val_kind kind, struct val_site *site, uintptr_t base,
	    size_t size)
{
	unsigned sh = val_shard_index(base);
	struct val_shard *s = &val_shards[sh];
	struct val_rec *r = s->free_list;
	if (r) {
		s->free_list = r->lnext;
		s->nfree--;
	} else {
		r = malloc(sizeof(*r));
		if (!r) {
			val_site_clear(site);
			return NULL;
		}
	}
	memset(r, 0, sizeof(*r));
	r->node.key = base;
	r->base = base;
	r->shard = (uint8_t)sh;
	begin_life(r, kind, site, size);
	return r;
}

int
val_rec_insert(struct val_index *ix, struct val_rec *r)
{
	if (val_index_insert(ix, &r->node)) { /* a record there already */
		val_rec_drop(r);
		return -1;
	}
	r->ix = ix;
	if (ix == &val_mem_index && !hash_add(&val_shards[r->shard], r)) {
		val_rec_drop(r);  /* the hot paths could not find it */
		return -1;
	}
	return 0;
}

/* Caller holds r's shard lock, and val_lock when r is in an index. */
static void
rec_drop(struct val_shard *s, struct val_rec *r)
{
	unlist(r);
	if (r->ix)
		val_index_remove(r->ix, &r->node);
	if (r->hashed)
		hash_del(s, r);
	s->drops++;   /* r may be reused: threads' val_hot.rc_rec go stale */
	r->ix = NULL;
	val_site_clear(&r->alloc);
	val_site_clear(&r->free);
	if (s->nfree < SHARD_FREE_MAX) {
		r->lnext = s->free_list;
		s->free_list = r;
		s->nfree++;
	} else {
		free(r);
	}
}

void
val_rec_drop(struct val_rec *r)
{
	rec_drop(&val_shards[r->shard], r);
}

struct val_rec *
val_rec_find(const struct val_index *ix, uintptr_t p)
{
	struct val_rec *r = rec_exact(ix, p);
	if (!r && ix->count) {
		r = rec_of(val_index_floor(ix, p));
		if (r && r->state == VAL_OWNED)
			val_own_take(r);   /* its size may shrink */
	}
	return r && r->state != VAL_STALE && p < val_rec_end(r) ? r : NULL;
}

void
val_rec_revive(struct val_rec *r, enum val_kind kind, struct val_site *site,
	       size_t size)
{
	unlist(r);
	val_site_clear(&r->alloc);
	val_site_clear(&r->free);
	r->free.ep = 0;
	r->ctx = NULL;
	r->align = 0;
	r->nmaps = 0;
	r->pmem = NULL;
	r->offset = 0;
	begin_life(r, kind, site, size);
}

struct val_rec *
val_rec_add(struct val_index *ix, enum val_kind kind, struct val_site *site,
	    uintptr_t base, size_t size, const struct val_call *call)
{
	uintptr_t end = base + (size ? size : 1);
	struct val_rec *reuse = rec_exact(ix, base), *o, *prev;
	/* Fast path: a freed record at the same base, at least as long. No
	 * record of an index overlaps another, so the new one cannot either. */
	if (reuse && reuse->state != VAL_LIVE && size && size <= reuse->size) {
		val_rec_revive(reuse, kind, site, size);
		return reuse;
	}
restart:
	reuse = NULL;
	/* Every record overlapping [base, end), from the last one down. */
	for (o = rec_of(val_index_floor(ix, end - 1));
	     o && val_rec_end(o) > base; o = prev) {
		if (o->state == VAL_OWNED) {
			/* A thread's own: back to the shared states (a sweep
			 * may drop others meanwhile), then look again. */
			val_own_take(o);
			goto restart;
		}
		prev = rec_of(val_index_prev(&o->node));
		if (o->state != VAL_LIVE && val_rec_base(o) == base &&
		    !reuse) {
			/* The common case: the driver gave the same address
			 * again. Reuse the record where it sits. */
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
		val_rec_revive(reuse, kind, site, size);
		return reuse;
	}
	struct val_rec *r = val_rec_new(kind, site, base, size);
	if (r && val_rec_insert(ix, r))
		r = NULL;
	return r;
}

void
val_rec_clear_bts(struct val_rec *r)
{
	val_site_clear(&r->alloc);
	val_site_clear(&r->free);
}

/* Caller holds val_lock and s->lock: unindex the stale records. */
static void
sweep_locked(struct val_shard *s)
{
	while (s->stale.head)
		rec_drop(s, s->stale.head);
}

void
val_shard_sweep(struct val_shard *s)
{
	u_lock(&val_lock);
	val_spin_lock(&s->lock);
	sweep_locked(s);
	val_spin_unlock(&s->lock);
	u_unlock(&val_lock);
}

void
val_rec_retire(struct val_rec *r, struct val_site *site)
{
	val_site_clear(&r->free);
	if (val_rec_retire_fast(&val_shards[r->shard], r, site, true))
		sweep_locked(&val_shards[r->shard]);
}

void
val_rec_unretire(struct val_index *ix, uintptr_t base, uint64_t id)
{
	val_world_lock();
	struct val_rec *r = rec_exact(ix, base);
	if (r && r->id == id && r->state == VAL_FREED) {
		val_rec_unquarantine(r);
		r->state = VAL_LIVE;
		val_site_clear(&r->free);
		r->free.ep = 0;
	}
	val_world_unlock();
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
