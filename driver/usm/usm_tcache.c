// SPDX-License-Identifier: MIT
/*
 * usm_tcache: per-thread caches of free pool slots, one per (heap, thread).
 *
 * Vocabulary: a bin holds up to TC_BIN_CAP free slots of one arena; an
 * empty bin is refilled with TC_BATCH slots under the arena lock, a full
 * one gives TC_BATCH back. So pooled alloc and free take no lock at all in
 * the common case. A cache also remembers the owner its thread interned
 * last.
 *
 * Finding the cache: a one-entry initial-exec TLS cache (heap serial ->
 * cache) in front of pthread_getspecific(heap->key). Serials are never
 * reused, so a stale entry never matches a live heap. A cache is freed by
 * the key's destructor at thread exit (after giving its slots back) or by
 * usm_heap_destroy, whichever comes first.
 *
 * The cache also holds the thread's index read-section counter (rd), which
 * index writers scan (usm_index.c), and the heap user's credit slots
 * (usm.h), handed to the heap's credit hook when the cache is flushed.
 *
 * fork: handlers registered with the first heap take every lock of every
 * heap before fork() (so the child finds none held by a thread it does
 * not have) and, in the child, drop the other threads' caches. They must
 * run before the handlers of modules whose locks are taken under usm's
 * (the driver's IPC export table, taken in usm_free_ctx's callback): such
 * a module registers its handlers before the first heap is created
 * (pthread_atfork runs prepare handlers last-registered first).
 *
 * Locks: g_heaps_mtx (outermost) protects the list of live heaps; the
 * destructor holds it while it checks that its cache still belongs to a
 * live heap, so it never touches a cache that heap destroy freed, and
 * while it gives the slots back. heap->tc_mtx (innermost) protects the
 * heap's list of caches. A bin is touched only
 * by its thread (or by destroy, when no other call may run).
 */
#include "usm_private.h"
#include "u_list.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

USM_TLS struct usm_tls usm_tls_tc;

static pthread_mutex_t g_heaps_mtx = PTHREAD_MUTEX_INITIALIZER;
static struct usm_heap *g_heaps;
static _Atomic uint64_t g_serial;

static void
unlink_tc(struct usm_heap *h, struct usm_tcache *tc)
{
	U_LIST_UNLINK(&h->tcs, tc, prev, next);
}

void
usm_tcache_flush_all(struct usm_tcache *tc)
{
	struct usm_heap *h = tc->heap;
	for (unsigned i = 0; i < USM_CREDIT_SLOTS; i++) {
		if (tc->credit[i] && h->credit_hook)
			h->credit_hook(i, tc->credit[i]);
		tc->credit[i] = 0;
	}
	for (unsigned i = 0; i < USM_NARENA; i++) {
		struct tc_bin *b = &tc->bin[i];
		if (b->n) {
			usm_arena_give(tc->heap, i, b->slot, b->n);
			b->n = 0;
		}
	}
}

static void
tc_destructor(void *v)
{
	struct usm_tcache *tc = v;
	if (usm_tls_tc.tc == tc) {
		usm_tls_tc.serial = 0;
		atomic_signal_fence(memory_order_seq_cst);
		usm_tls_tc.tc = NULL;
	}
	pthread_mutex_lock(&g_heaps_mtx);
	for (struct usm_heap *h = g_heaps; h; h = h->g_next) {
		pthread_mutex_lock(&h->tc_mtx);
		struct usm_tcache *t = h->tcs;
		while (t && t != tc)
			t = t->next;
		if (t)
			unlink_tc(h, tc);
		pthread_mutex_unlock(&h->tc_mtx);
		if (t) {
			/* Off the list (this thread reads no more); the heap
			 * cannot go away while we hold g_heaps_mtx. */
			usm_tcache_flush_all(tc);
			free(tc);
			break;
		}
	}
	pthread_mutex_unlock(&g_heaps_mtx);
}

/* ---- fork ---------------------------------------------------------- */

/* Every lock of h, in the order of usm_private.h. */
static void
heap_lock_all(struct usm_heap *h)
{
	for (unsigned i = 0; i < USM_NARENA; i++)
		pthread_mutex_lock(&h->arena[i].mtx);
	for (unsigned k = 0; k < USM_NKIND; k++)
		pthread_mutex_lock(&h->file[k].mtx);
	pthread_mutex_lock(&h->index.wmtx);
	pthread_mutex_lock(&h->tc_mtx);
	pthread_mutex_lock(&h->large_mtx);
	pthread_mutex_lock(&h->owners.mtx);
}

static void
heap_unlock_all(struct usm_heap *h)
{
	pthread_mutex_unlock(&h->owners.mtx);
	pthread_mutex_unlock(&h->large_mtx);
	pthread_mutex_unlock(&h->tc_mtx);
	pthread_mutex_unlock(&h->index.wmtx);
	for (unsigned k = USM_NKIND; k-- > 0;)
		pthread_mutex_unlock(&h->file[k].mtx);
	for (unsigned i = USM_NARENA; i-- > 0;)
		pthread_mutex_unlock(&h->arena[i].mtx);
}

void
usm_fork_prepare(void)
{
	pthread_mutex_lock(&g_heaps_mtx);
	for (struct usm_heap *h = g_heaps; h; h = h->g_next)
		heap_lock_all(h);
}

void
usm_fork_parent(void)
{
	for (struct usm_heap *h = g_heaps; h; h = h->g_next)
		heap_unlock_all(h);
	pthread_mutex_unlock(&g_heaps_mtx);
}

/* The child: the caches of threads it does not have are freed (their
 * read-section counters stop counting: one that was odd would make every
 * index writer wait forever; their credit goes back); no cached slot is
 * handed out (the parent may hand out the same ones); and every segment
 * and large mapping, which maps files shared with the parent, becomes a
 * private copy for the child's own blocks (usm_pool_fork_child,
 * usm_large_fork_child), so that neither process ever writes into the
 * other's memory; the child's new blocks come from files of its own. */
void
usm_fork_child(void)
{
	for (struct usm_heap *h = g_heaps; h; h = h->g_next) {
		heap_unlock_all(h);
		/* After usm_tcache_fini, the thread's cache is its last one. */
		struct usm_tcache *mine = NULL;
		if (h->key_live)
			mine = pthread_getspecific(h->key);
		else if (usm_tls_tc.serial == h->serial)
			mine = usm_tls_tc.tc;
		pthread_mutex_lock(&h->tc_mtx);
		struct usm_tcache *others = NULL;
		for (struct usm_tcache *t = h->tcs, *n; t; t = n) {
			n = t->next;
			if (t == mine)
				continue;
			unlink_tc(h, t);
			t->next = others;
			others = t;
		}
		pthread_mutex_unlock(&h->tc_mtx);
		/* Cached slots are free in the parent too, which may hand them
		 * out: the child forgets them (its segments retire below). */
		while (others) {
			struct usm_tcache *n = others->next;
			for (unsigned i = 0; i < USM_CREDIT_SLOTS; i++)
				if (others->credit[i] && h->credit_hook)
					h->credit_hook(i, others->credit[i]);
			free(others);
			others = n;
		}
		for (unsigned i = 0; mine && i < USM_NARENA; i++) {
			mine->bin[i].n = 0;
			mine->bin[i].hot = NULL;
		}
		usm_pool_fork_child(h);
		usm_large_fork_child(h);
	}
	pthread_mutex_unlock(&g_heaps_mtx);
}

static void
fork_register(void)
{
	pthread_atfork(usm_fork_prepare, usm_fork_parent, usm_fork_child);
}

int
usm_tcache_global_add(struct usm_heap *h)
{
	static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
	pthread_once(&fork_once, fork_register);
	int err = pthread_key_create(&h->key, tc_destructor);
	if (err)
		return -err;
	h->serial = atomic_fetch_add(&g_serial, 1) + 1;
	pthread_mutex_lock(&g_heaps_mtx);
	h->key_live = true;
	h->g_next = g_heaps;
	g_heaps = h;
	pthread_mutex_unlock(&g_heaps_mtx);
	return 0;
}

void
usm_tcache_global_remove(struct usm_heap *h)
{
	pthread_mutex_lock(&g_heaps_mtx);
	struct usm_heap **pp = &g_heaps;
	while (*pp && *pp != h)
		pp = &(*pp)->g_next;
	if (*pp)
		*pp = h->g_next;
	if (h->key_live)
		pthread_key_delete(h->key);
	h->key_live = false;
	pthread_mutex_unlock(&g_heaps_mtx);
}

/* The driver is unloaded (a loader's dlclose; Intel's unloads its
 * drivers at its teardown) or the process exits, with heaps still
 * alive: threads that exit from now on must not run tc_destructor,
 * which goes with the library. Their caches stay with their heaps (a
 * heap destroy still frees them); a thread whose last cache is another
 * heap's gets none (usm_tcache_slow): its frees and lookups take the
 * locked path, its allocations fail with ENOMEM. */
__attribute__((destructor)) static void
usm_tcache_fini(void)
{
	pthread_mutex_lock(&g_heaps_mtx);
	for (struct usm_heap *h = g_heaps; h; h = h->g_next) {
		if (h->key_live)
			pthread_key_delete(h->key);
		h->key_live = false;
	}
	pthread_mutex_unlock(&g_heaps_mtx);
}

struct usm_tcache *
usm_tcache_slow(struct usm_heap *h)
{
	/* After usm_tcache_fini the key may be another library's. */
	if (!atomic_load_explicit(&h->key_live, memory_order_acquire))
		return NULL;
	struct usm_tcache *tc = pthread_getspecific(h->key);
	if (!tc) {
		tc = aligned_alloc(_Alignof(struct usm_tcache), sizeof(*tc));
		if (!tc)
			return NULL;
		memset(tc, 0, sizeof(*tc));
		tc->heap = h;
		tc->oc_gen = UINT64_MAX;
		if (pthread_setspecific(h->key, tc)) {
			free(tc);
			return NULL;
		}
		pthread_mutex_lock(&h->tc_mtx);
		U_LIST_PUSH(&h->tcs, tc, prev, next);
		pthread_mutex_unlock(&h->tc_mtx);
	}
	/* The cache before the serial that vouches for it (usm_fast_tc
	 * takes a matching serial to mean a cache), even for a signal
	 * handler that runs between the two stores. */
	usm_tls_tc.tc = tc;
	atomic_signal_fence(memory_order_seq_cst);
	usm_tls_tc.serial = h->serial;
	return tc;
}

void
usm_set_credit_hook(struct usm_heap *h,
		    void (*hook)(unsigned slot, uint64_t amount))
{
	h->credit_hook = hook;
}

uint64_t *
usm_thread_credit(struct usm_heap *h)
{
	struct usm_tcache *tc = usm_tcache_get(h);
	return tc ? tc->credit : NULL;
}

void
usm_tcache_free_all(struct usm_heap *h)
{
	if (usm_tls_tc.serial == h->serial) {
		usm_tls_tc.serial = 0;
		atomic_signal_fence(memory_order_seq_cst);
		usm_tls_tc.tc = NULL;
	}
	struct usm_tcache *tc = h->tcs;
	h->tcs = NULL;
	while (tc) {
		struct usm_tcache *n = tc->next;
		free(tc);
		tc = n;
	}
}

