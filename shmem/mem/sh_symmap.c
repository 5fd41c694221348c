// SPDX-License-Identifier: MIT
/*
 * sh_symmap: the symmetric-address map, the one answer to "what is this
 * symmetric address?" (issue 27).
 *
 * Every range of this PE that peers may address registers here once, as
 * a region: its kind, the bytes API calls may name [lo, lo + len), and
 * how each PE reaches its copy, all counted from the region's origin
 * (the address its peers' views and network bases stand for):
 *   view[pe]  where this PE mapped pe's copy of origin (node-local
 *             peers: IPC opens, the static data's memfds), NULL when pe
 *             is reached otherwise; view[me] = origin;
 *   net[pe]   pe's network key and MR base (libfabric), NULL without;
 *   desc      this PE's NIC descriptor of the range (local side);
 *   wait_base the wait id of origin (the control block's wait_off: the
 *             heap offset for heap words, SH_WAIT_STATIC + offset for
 *             static data), SH_WAIT_ANY when waits name no word there.
 * Lookups: sh_remote_ptr (put, get, AMOs, signals, the proxy's checks,
 * the faces' sh_ptr), sh_sym_net (the network transport's remote
 * address and key), sh_sym_desc (its local descriptor), sh_sym_wait_id
 * (waits and wakes) and sh_sym_kind (what kind, if any).
 *
 * Storage: the regions that live as long as the runtime (the control
 * block, the heap's chunks, the static data) are fixed slots read
 * without a lock: a chunk is published (nheap, release) after its slot
 * is filled, and its view entries are written before the collective
 * call that made it returns. Registrations come and go while other
 * threads may do RMA: they are a list under `lock` (a rwlock, a leaf:
 * lookups take it shared and copy what they need before letting go).
 * Every slot is written only at init, finalize and collective calls.
 *
 * The heap's fast path (a heap address of chunk 0 on a node-local peer)
 * is sh_remote_fast in sh_mem.h: one subtraction, two compares and a
 * load, as before the map.
 */
#include "sh_mem.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct sh_symmap sh_symmap = { .lock = PTHREAD_RWLOCK_INITIALIZER };

static bool
inside(const struct sh_region *r, uintptr_t p, size_t len)
{
	uintptr_t off = p - r->lo;
	return off < r->len && len <= r->len - off;
}

static bool
touches(const struct sh_region *r, uintptr_t p)
{
	return p - r->lo < r->len;
}

/* The fixed region holding p (control block, heap chunk, static data),
 * or NULL; lock-free. Chunk 0's user part first: most addresses. */
static const struct sh_region *
fixed_at(uintptr_t p)
{
	const struct sh_symmap *m = &sh_symmap;
	if (p - m->heap_lo >= m->heap_len)
		return m->stat.len && touches(&m->stat, p) ? &m->stat : NULL;
	if (touches(&m->heap[0], p))
		return &m->heap[0];
	if (touches(&m->ctrl, p))
		return &m->ctrl;
	unsigned n = __atomic_load_n(&m->nheap, __ATOMIC_ACQUIRE);
	for (unsigned k = 1; k < n; k++)
		if (touches(&m->heap[k], p))
			return &m->heap[k];
	return NULL;
}

/* The registration of one of kinds (SH_SYM_BIT mask) holding p, or
 * NULL; under lock (shared). */
static const struct sh_region *
listed_at(uintptr_t p, unsigned kinds)
{
	for (const struct sh_region *r = sh_symmap.list; r; r = r->next)
		if ((kinds & SH_SYM_BIT(r->kind)) && touches(r, p))
			return r;
	return NULL;
}

/* What each lookup looks for among the registrations. */
#define PEER_KINDS (SH_SYM_BIT(SH_SYM_ALIAS) | SH_SYM_BIT(SH_SYM_STRIDE))
#define DESC_KINDS (SH_SYM_BIT(SH_SYM_LOCAL) | SH_SYM_BIT(SH_SYM_ALIAS) | \
		    SH_SYM_BIT(SH_SYM_STRIDE))
#define ALL_KINDS (PEER_KINDS | DESC_KINDS)

/* Where this PE reaches pe's copy of p inside r: NULL when it does not
 * (network peers, the control block, a local registration). */
static void *
reach(const struct sh_region *r, uintptr_t p, int pe)
{
	switch (r->kind) {
	case SH_SYM_HEAP:
	case SH_SYM_STATIC:
	case SH_SYM_ALIAS:
		if (pe == sh.me)
			return (void *)p;
		return r->view[pe] ? r->view[pe] + (p - r->origin) : NULL;
	case SH_SYM_STRIDE:
		if (pe < r->first || pe >= r->first + r->n)
			return NULL;
		return (char *)p + (ptrdiff_t)(pe - sh.me) * r->stride;
	default:
		return NULL;
	}
}

void *
sh_remote_ptr(const void *p, size_t len, int pe)
{
	if ((unsigned)pe >= (unsigned)sh.npes || !sh.peers)
		return NULL;
	uintptr_t a = (uintptr_t)p;
	const struct sh_region *r = fixed_at(a);
	if (r)
		return inside(r, a, len) ? reach(r, a, pe) : NULL;
	pthread_rwlock_rdlock(&sh_symmap.lock);
	r = listed_at(a, PEER_KINDS);
	void *v = r && inside(r, a, len) ? reach(r, a, pe) : NULL;
	pthread_rwlock_unlock(&sh_symmap.lock);
	return v;
}

/* pe's network side of r, into *out; false when r has none for pe. */
static bool
net_of(const struct sh_region *r, uintptr_t p, int pe,
       struct sh_sym_reach *out)
{
	if (!r->net)
		return false;
	/* A registration's keys are exchanged with the network peers
	 * only (node peers reach it through their views or its stride). */
	if ((r->kind == SH_SYM_ALIAS || r->kind == SH_SYM_STRIDE) &&
	    pe != sh.me && !sh.peers[pe].net)
		return false;
	out->off = p - r->origin;
	out->key = r->net[pe].key;
	out->base = r->net[pe].base;
	return true;
}

int
sh_sym_net(const void *p, size_t len, int pe, struct sh_sym_reach *out)
{
	if ((unsigned)pe >= (unsigned)sh.npes)
		return -EFAULT;
	uintptr_t a = (uintptr_t)p;
	const struct sh_region *r = fixed_at(a);
	if (r)
		return inside(r, a, len) && net_of(r, a, pe, out) ? 0
								   : -EFAULT;
	pthread_rwlock_rdlock(&sh_symmap.lock);
	r = listed_at(a, PEER_KINDS);
	bool ok = r && inside(r, a, len) && net_of(r, a, pe, out);
	pthread_rwlock_unlock(&sh_symmap.lock);
	return ok ? 0 : -EFAULT;
}

void *
sh_sym_desc(const void *p, size_t len)
{
	uintptr_t a = (uintptr_t)p;
	if (!len)
		len = 1;
	const struct sh_region *r = fixed_at(a);
	if (r)
		return inside(r, a, len) ? r->desc : NULL;
	/* a local registration may lie inside a stride one: the first
	 * that holds the range and has a descriptor */
	void *d = NULL;
	pthread_rwlock_rdlock(&sh_symmap.lock);
	for (r = sh_symmap.list; r && !d; r = r->next)
		if ((DESC_KINDS & SH_SYM_BIT(r->kind)) && touches(r, a) &&
		    inside(r, a, len))
			d = r->desc;
	pthread_rwlock_unlock(&sh_symmap.lock);
	return d;
}

uint64_t
sh_sym_wait_id(const void *p)
{
	uintptr_t a = (uintptr_t)p;
	const struct sh_region *r = fixed_at(a);
	if (!r || r->wait_base == SH_WAIT_ANY)
		return SH_WAIT_ANY;
	return r->wait_base + (a - r->origin);
}

int
sh_sym_kind(const void *p, size_t len)
{
	uintptr_t a = (uintptr_t)p;
	const struct sh_region *r = fixed_at(a);
	if (r)
		return inside(r, a, len) ? (int)r->kind : -EFAULT;
	pthread_rwlock_rdlock(&sh_symmap.lock);
	r = listed_at(a, ALL_KINDS);
	int k = r && inside(r, a, len) ? (int)r->kind : -EFAULT;
	pthread_rwlock_unlock(&sh_symmap.lock);
	return k;
}

/* ---- registering ------------------------------------------------------ */

static char **
new_view(uintptr_t origin)
{
	char **v = calloc((size_t)sh.npes, sizeof(*v));
	if (v)
		v[sh.me] = (char *)origin;
	return v;
}

int
sh_sym_heap_add(unsigned k, char *origin, size_t size)
{
	struct sh_symmap *m = &sh_symmap;
	if (k >= SH_MAX_CHUNKS || k != m->nheap)
		return -EINVAL;
	struct sh_region *r = &m->heap[k];
	char **view = new_view((uintptr_t)origin);
	if (!view)
		return -ENOMEM;
	*r = (struct sh_region){
		.kind = SH_SYM_HEAP,
		.lo = (uintptr_t)origin,
		.len = size,
		.origin = (uintptr_t)origin,
		.view = view,
		.wait_base = (uint64_t)(origin - (char *)m->heap_lo),
	};
	if (k == 0) {
		/* The control block: the runtime's words, reached by its
		 * barriers and collectives, never by an API call. */
		m->heap_lo = (uintptr_t)origin;
		r->wait_base = 0;
		m->ctrl = *r;
		m->ctrl.kind = SH_SYM_CTRL;
		m->ctrl.len = SH_CTRL_SIZE;
		r->lo += SH_CTRL_SIZE;
		r->len -= SH_CTRL_SIZE;
	}
	m->heap_len = (uintptr_t)origin + size - m->heap_lo;
	__atomic_store_n(&m->nheap, k + 1, __ATOMIC_RELEASE);
	return 0;
}

void
sh_sym_heap_set_net(unsigned k, struct sh_sym_net *net, void *desc)
{
	struct sh_symmap *m = &sh_symmap;
	m->heap[k].net = net;
	m->heap[k].desc = desc;
	if (k == 0) {
		m->ctrl.net = net;
		m->ctrl.desc = desc;
	}
}

void
sh_sym_heap_clear(void)
{
	struct sh_symmap *m = &sh_symmap;
	for (unsigned k = 0; k < m->nheap; k++)
		free(m->heap[k].view);
	__atomic_store_n(&m->nheap, 0, __ATOMIC_RELEASE);
	memset(m->heap, 0, sizeof(m->heap));
	memset(&m->ctrl, 0, sizeof(m->ctrl));
	m->heap_lo = 0;
	m->heap_len = 0;
}

void
sh_sym_static_set(uintptr_t lo, size_t len, uintptr_t origin, char **view)
{
	struct sh_region *r = &sh_symmap.stat;
	*r = (struct sh_region){
		.kind = SH_SYM_STATIC,
		.lo = lo,
		.len = len,
		.origin = origin,
		.view = view,
		.wait_base = SH_WAIT_STATIC,
	};
}

void
sh_sym_static_set_net(struct sh_sym_net *net, void *desc)
{
	sh_symmap.stat.net = net;
	sh_symmap.stat.desc = desc;
}

void
sh_sym_static_clear(void)
{
	memset(&sh_symmap.stat, 0, sizeof(sh_symmap.stat));
}

static bool
overlaps(uintptr_t a, size_t alen, uintptr_t b, size_t blen)
{
	return blen && a < b + blen && b < a + alen;
}

/* Under lock: the registration of one of kinds that [p, p + len)
 * overlaps (its addressable range, or an alias's user buffer), or NULL. */
static const struct sh_region *
listed_overlap(uintptr_t p, size_t len, unsigned kinds)
{
	for (const struct sh_region *r = sh_symmap.list; r; r = r->next)
		if ((kinds & SH_SYM_BIT(r->kind)) &&
		    (overlaps(p, len, r->lo, r->len) ||
		     overlaps(p, len, r->user, r->user ? r->len : 0)))
			return r;
	return NULL;
}

const struct sh_region *
sh_sym_overlap(const void *p, size_t len, unsigned kinds)
{
	pthread_rwlock_rdlock(&sh_symmap.lock);
	const struct sh_region *r = listed_overlap((uintptr_t)p, len, kinds);
	pthread_rwlock_unlock(&sh_symmap.lock);
	return r;
}

int
sh_sym_add(struct sh_region *r, unsigned clash)
{
	pthread_rwlock_wrlock(&sh_symmap.lock);
	bool busy = listed_overlap(r->lo, r->len, clash) ||
		    (r->user && listed_overlap(r->user, r->len, clash));
	if (!busy) {
		r->next = sh_symmap.list;
		sh_symmap.list = r;
	}
	pthread_rwlock_unlock(&sh_symmap.lock);
	return busy ? -EEXIST : 0;
}

/* The link that points at the registration of one of kinds starting at
 * lo (the list's head or a region's next), or NULL; under lock. */
static struct sh_region **
link_of(const void *lo, unsigned kinds)
{
	for (struct sh_region **pp = &sh_symmap.list; *pp;
	     pp = &(*pp)->next)
		if ((*pp)->lo == (uintptr_t)lo &&
		    (kinds & SH_SYM_BIT((*pp)->kind)))
			return pp;
	return NULL;
}

struct sh_region *
sh_sym_listed(const void *lo, unsigned kinds)
{
	pthread_rwlock_rdlock(&sh_symmap.lock);
	struct sh_region **pp = link_of(lo, kinds);
	struct sh_region *found = pp ? *pp : NULL;
	pthread_rwlock_unlock(&sh_symmap.lock);
	return found;
}

struct sh_region *
sh_sym_take(const void *lo, unsigned kinds)
{
	struct sh_region *found = NULL;
	pthread_rwlock_wrlock(&sh_symmap.lock);
	struct sh_region **pp = link_of(lo, kinds);
	if (pp) {
		found = *pp;
		*pp = found->next;
		found->next = NULL;
	}
	pthread_rwlock_unlock(&sh_symmap.lock);
	return found;
}

struct sh_region *
sh_sym_take_kinds(unsigned kinds)
{
	struct sh_region *taken = NULL;
	pthread_rwlock_wrlock(&sh_symmap.lock);
	struct sh_region **pp = &sh_symmap.list;
	while (*pp) {
		struct sh_region *r = *pp;
		if (kinds & SH_SYM_BIT(r->kind)) {
			*pp = r->next;
			r->next = taken;
			taken = r;
		} else {
			pp = &r->next;
		}
	}
	pthread_rwlock_unlock(&sh_symmap.lock);
	return taken;
}

unsigned
sh_sym_count(unsigned kinds)
{
	unsigned n = 0;
	pthread_rwlock_rdlock(&sh_symmap.lock);
	for (const struct sh_region *r = sh_symmap.list; r; r = r->next)
		n += (kinds & SH_SYM_BIT(r->kind)) != 0;
	pthread_rwlock_unlock(&sh_symmap.lock);
	return n;
}
