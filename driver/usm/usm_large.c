// SPDX-License-Identifier: MIT
/*
 * usm_large: allocations with a backing object and a mapping of their own.
 *
 * Vocabulary: a large allocation is anything above USM_POOL_MAX, anything
 * whose alignment no class gives, and anything asked to be a dma-buf. Its
 * descriptor (struct usm_large) is its index span. The mapping is the size
 * rounded up to pages, at an address aligned to max(alignment, 2 MiB) (a
 * reservation is over-mapped and trimmed), backed by a memfd of its own
 * ("zemem:<kind>:<size>", sealed against shrink and growth) or a dma-buf.
 * When no fd can be had (EMFILE) the allocation fails: every large
 * allocation can be exported.
 *
 * Cache: freed memfd mappings are kept (LRU, at most USM_LARGE_CACHE_N and
 * USM_LARGE_CACHE_BYTES), still in the index with id 0, and handed out
 * again for the same length when the address suits the alignment. Never a
 * mapping that was exported, never for an exportable request.
 *
 * Locks: heap->large_mtx protects the live and cache lists, their counts
 * and each descriptor's `where`; it is a leaf (the index write lock is
 * taken only after dropping it). id / size / owner / exported are atomics
 * read without locks (seqlock by id, see usm_private.h).
 */
#include "usm_private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "u_log.h"
#include "u_list.h"

enum { WHERE_NONE, WHERE_LIVE, WHERE_CACHE };

static struct usm_large **
head_of(struct usm_heap *h, uint8_t where)
{
	return where == WHERE_LIVE ? &h->large_live : &h->large_cache;
}

static void
unlink_l(struct usm_heap *h, struct usm_large *l)
{
	U_LIST_UNLINK(head_of(h, l->where), l, prev, next);
	if (l->where == WHERE_LIVE) {
		h->large_nlive--;
	} else {
		h->large_ncache--;
		h->large_cache_bytes -= l->span.len;
	}
	l->where = WHERE_NONE;
}

static void
link_l(struct usm_heap *h, struct usm_large *l, uint8_t where)
{
	struct usm_large **head = head_of(h, where);
	U_LIST_PUSH(head, l, prev, next);
	l->where = where;
	if (where == WHERE_LIVE) {
		h->large_nlive++;
	} else {
		h->large_ncache++;
		h->large_cache_bytes += l->span.len;
	}
}

static int
count_fds(const struct bk_obj *o)
{
	return (o->fd >= 0) + (o->aux_fd >= 0);
}

/* l is on no list and not live. */
static void
destroy_l(struct usm_heap *h, struct usm_large *l)
{
	const struct bk_ops *ops = bk_table[l->obj.type];
	usm_index_del(h, &l->span);
	ops->unmap(&l->obj, (void *)l->span.base, l->span.len);
	usm_count(&h->bk_mapped[l->obj.type], -(int64_t)l->span.len);
	usm_count(&h->bk_fds[l->obj.type], -count_fds(&l->obj));
	usm_count(&h->meta_bytes, -(int64_t)sizeof(*l));
	ops->destroy(&l->obj);
	free(l);
}

static int
pick_backend(uint32_t usm_flags, enum bk_type *type)
{
	*type = BK_MEMFD;
	if (!(usm_flags & USM_FLAG_DMABUF))
		return 0;
	if (!bk_available(BK_UDMABUF, NULL))
		*type = BK_UDMABUF;
	else if (!bk_available(BK_DRM_PRIME, NULL))
		*type = BK_DRM_PRIME;
	else
		return -EOPNOTSUPP;
	return 0;
}

/* The allocation's own file. No fd (EMFILE, ENFILE) fails the
 * allocation: anonymous memory could never be exported, and an
 * allocation that may be exported later must be so from the start. */
static int
make_obj(struct usm_large *l, const struct usm_req *req, enum bk_type type,
	 size_t len)
{
	char name[48];
	snprintf(name, sizeof(name), "zemem:%s:%zu", usm_kind_name(req->kind),
		 req->size);
	int err = bk_table[type]->create(&l->obj, name, len, false);
	if (err == -EMFILE || err == -ENFILE)
		u_warn(USM_TOPIC, "%zu-byte %s allocation: no fd left for its "
				  "memfd (%s): failed", req->size,
		       usm_kind_name(req->kind),
		       err == -EMFILE ? "EMFILE" : "ENFILE");
	return err;
}

static int
create_l(struct usm_heap *h, const struct usm_req *req, enum bk_type type,
	 size_t len, struct usm_large **out)
{
	size_t va_align = req->align > USM_GRANULE ? req->align : USM_GRANULE;
	int err;
	struct usm_large *l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	if ((err = make_obj(l, req, type, len)))
		goto err_l;
	const struct bk_ops *ops = bk_table[l->obj.type];
	void *va;
	if ((err = usm_va_reserve(len, va_align, &va)))
		goto err_obj;
	if ((err = ops->map(&l->obj, va, 0, len))) {
		munmap(va, len);
		goto err_obj;
	}
	l->span.base = (uintptr_t)va;
	l->span.len = len;
	l->span.type = SPAN_LARGE;
	err = usm_index_add(h, &l->span);
	if (err)
		goto err_map;
	usm_count(&h->bk_mapped[l->obj.type], (int64_t)len);
	usm_count(&h->bk_fds[l->obj.type], count_fds(&l->obj));
	usm_count(&h->meta_bytes, (int64_t)sizeof(*l));
	*out = l;
	return 0;

err_map:
	ops->unmap(&l->obj, va, len);
err_obj:
	ops->destroy(&l->obj);
err_l:
	free(l);
	return err;
}

static struct usm_large *
cache_take(struct usm_heap *h, size_t len, size_t align)
{
	struct usm_large *l;
	pthread_mutex_lock(&h->large_mtx);
	for (l = h->large_cache; l; l = l->next) {
		if (l->span.len == len && !(l->span.base & (align - 1))) {
			unlink_l(h, l);
			break;
		}
	}
	pthread_mutex_unlock(&h->large_mtx);
	return l;
}

int
usm_large_alloc(struct usm_heap *h, const struct usm_req *req,
		uint32_t owner, uint64_t id, void **out)
{
	size_t page = h->page_size;
	if (req->size > ((size_t)1 << USM_VA_BITS))
		return -ENOMEM;
	size_t len = (req->size + page - 1) & ~(page - 1);
	enum bk_type type;
	int err = pick_backend(req->usm_flags, &type);
	if (err)
		return err;
	struct usm_large *l = NULL;
	if (type == BK_MEMFD && !(req->usm_flags & USM_FLAG_EXPORTABLE))
		l = cache_take(h, len, req->align ? req->align : 1);
	if (!l && (err = create_l(h, req, type, len, &l)))
		return err;
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&l->kind, (uint8_t)req->kind,
			      memory_order_relaxed);
	atomic_store_explicit(&l->exported, false, memory_order_relaxed);
	atomic_store_explicit(&l->size, req->size, memory_order_relaxed);
	atomic_store_explicit(&l->owner, owner, memory_order_relaxed);
	USM_UNPOISON((void *)l->span.base, req->size);
	USM_POISON((char *)l->span.base + req->size, len - req->size);
	pthread_mutex_lock(&h->large_mtx);
	link_l(h, l, WHERE_LIVE);
	pthread_mutex_unlock(&h->large_mtx);
	usm_count(&h->large_count[l->obj.type], 1);
	usm_count(&h->large_bytes, (int64_t)req->size);
	atomic_store_explicit(&l->id, id, memory_order_release);
	*out = (void *)l->span.base;
	return 0;
}

void
usm_large_release(struct usm_heap *h, struct usm_large *l)
{
	usm_count(&h->large_count[l->obj.type], -1);
	usm_count(&h->large_bytes,
		  -(int64_t)atomic_load_explicit(&l->size,
						 memory_order_relaxed));
	USM_POISON((void *)l->span.base, l->span.len);
	struct usm_large *evict = NULL;
	pthread_mutex_lock(&h->large_mtx);
	if (l->where != WHERE_NONE)
		unlink_l(h, l);
	if (l->obj.type == BK_MEMFD && !l->inherited &&
	    !atomic_load_explicit(&l->exported, memory_order_relaxed) &&
	    l->span.len <= USM_LARGE_CACHE_BYTES) {
		link_l(h, l, WHERE_CACHE);
		while (h->large_ncache > USM_LARGE_CACHE_N ||
		       h->large_cache_bytes > USM_LARGE_CACHE_BYTES) {
			struct usm_large *t = h->large_cache;
			while (t->next)
				t = t->next;
			unlink_l(h, t);
			t->next = evict;
			evict = t;
		}
	} else {
		evict = l;
	}
	pthread_mutex_unlock(&h->large_mtx);
	while (evict) {
		struct usm_large *n = evict->next;
		destroy_l(h, evict);
		evict = n;
	}
}

void
usm_large_fill(struct usm_heap *h, struct usm_large *l,
	       const struct usm_large_view *v, struct usm_info *out)
{
	out->base = (void *)l->span.base;
	out->size = v->size;
	out->kind = (enum usm_kind)v->kind;
	out->id = v->id;
	out->bk_type = l->obj.type;
	out->fd = l->obj.fd;
	out->fd_offset = 0;
	out->page_exclusive = true;
	out->own_file = l->obj.fd >= 0 && !l->inherited;
	if (l->inherited)
		out->fd = -1; /* its pages are the child's, not its file's */
	out->page_size = h->page_size;
	out->exported = v->exported;
	usm_fill_owner(h, v->owner, out);
}

int
usm_large_read(struct usm_large *l, struct usm_large_view *v)
{
	for (int tries = 0; tries < 16; tries++) {
		uint64_t id;
		if (!(id = atomic_load_explicit(&l->id, memory_order_acquire)))
			return -ENOENT;
		v->size = atomic_load_explicit(&l->size, memory_order_relaxed);
		v->owner = atomic_load_explicit(&l->owner,
						memory_order_relaxed);
		v->kind = atomic_load_explicit(&l->kind, memory_order_relaxed);
		v->exported = atomic_load_explicit(&l->exported,
						   memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
		if (atomic_load_explicit(&l->id, memory_order_relaxed) == id) {
			v->id = id;
			return 0;
		}
	}
	return -ENOENT;
}

size_t
usm_large_free_ctx(struct usm_heap *h, void *ctx,
		   void (*cb)(const struct usm_info *, void *), void *arg)
{
	struct usm_large *mine = NULL, *next;
	size_t n = 0;
	pthread_mutex_lock(&h->large_mtx);
	for (struct usm_large *l = h->large_live; l; l = next) {
		next = l->next;
		struct usm_info info;
		struct usm_large_view v;
		if (usm_large_read(l, &v))
			continue;
		usm_large_fill(h, l, &v, &info);
		uint64_t id = v.id;
		if (info.ctx != ctx ||
		    !atomic_compare_exchange_strong(&l->id, &id, 0))
			continue;
		if (cb)
			cb(&info, arg);
		unlink_l(h, l);
		l->next = mine;
		mine = l;
		n++;
	}
	pthread_mutex_unlock(&h->large_mtx);
	for (struct usm_large *l = mine; l; l = next) {
		next = l->next;
		l->next = NULL;
		usm_large_release(h, l);
	}
	return n;
}

/* fork child, one thread (usm_pool_fork_child says why): the cached
 * mappings go (the parent may hand them out again), the live ones are
 * remapped privately and never cached or exported. */
void
usm_large_fork_child(struct usm_heap *h)
{
	usm_large_trim(h);
	for (struct usm_large *l = h->large_live; l; l = l->next) {
		l->inherited = true;
		if (l->obj.type != BK_MEMFD || l->obj.fd < 0)
			continue;
		if (mmap((void *)l->span.base, l->span.len,
			 PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED,
			 l->obj.fd, 0) == MAP_FAILED)
			u_warn(USM_TOPIC, "fork child: %p stays shared with the "
					  "parent: %d", (void *)l->span.base,
			       errno);
	}
}

void
usm_large_trim(struct usm_heap *h)
{
	pthread_mutex_lock(&h->large_mtx);
	struct usm_large *l = h->large_cache;
	h->large_cache = NULL;
	h->large_ncache = 0;
	h->large_cache_bytes = 0;
	pthread_mutex_unlock(&h->large_mtx);
	while (l) {
		struct usm_large *n = l->next;
		l->where = WHERE_NONE;
		destroy_l(h, l);
		l = n;
	}
}

void
usm_large_fini(struct usm_heap *h)
{
	usm_large_trim(h);
	struct usm_large *l = h->large_live;
	h->large_live = NULL;
	while (l) {
		struct usm_large *n = l->next;
		destroy_l(h, l);
		l = n;
	}
}
