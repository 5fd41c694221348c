// SPDX-License-Identifier: MIT
/*
 * usm_index: from any address to the span (pool segment or large
 * allocation) that contains it, in two radix levels.
 *
 * Vocabulary: a granule is 2 MiB of address space; every span starts on a
 * granule boundary, so a granule belongs to at most one span. top[] has one
 * slot per 16 GiB (a leaf), a leaf one per granule. Leaves are allocated
 * when a span first needs them and freed only with the index, so a reader
 * never follows a dangling leaf.
 *
 * Locks: writers serialise on index.wmtx. Readers take no lock (see the
 * RCU notes in usm_private.h): usm_index_del() unpublishes a span, then
 * waits out every read section that may have seen it, so the caller may
 * unmap and free right after.
 */
#include "usm_private.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <linux/membarrier.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "u_log.h"
#include "u_os.h"
#include "u_san.h"


static pthread_once_t asym_once = PTHREAD_ONCE_INIT;
static bool asym_ok;

static long
membarrier(int cmd)
{
	return syscall(SYS_membarrier, cmd, 0, 0);
}

static void
asym_probe(void)
{
#if U_TSAN
	u_dbg(USM_TOPIC, "TSan: index readers use fences");
#else
	long q = membarrier(MEMBARRIER_CMD_QUERY);
	if (q < 0 || !(q & MEMBARRIER_CMD_PRIVATE_EXPEDITED) ||
	    membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) < 0) {
		u_info(USM_TOPIC, "membarrier(PRIVATE_EXPEDITED) unavailable "
				  "(errno %d): index readers use fences",
		       q < 0 ? errno : 0);
		return;
	}
	asym_ok = true;
#endif
}

/* Every read section that began before the caller's unpublishing stores
 * has ended when this returns. Caller holds wmtx. */
static void
sync_readers(struct usm_heap *h)
{
	const int cmd = MEMBARRIER_CMD_PRIVATE_EXPEDITED;
	const int reg = MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED;
	if (h->index.asym) {
		/* EPERM if this mm was never registered: register, retry. */
		if (membarrier(cmd) < 0 &&
		    (membarrier(reg) < 0 || membarrier(cmd) < 0))
			u_err(USM_TOPIC, "membarrier failed (errno %d)", errno);
	} else {
		atomic_thread_fence(memory_order_seq_cst);
	}
	pthread_mutex_lock(&h->tc_mtx);
	for (struct usm_tcache *tc = h->tcs; tc; tc = tc->next) {
		_Atomic uint64_t *rd = &tc->rd;
		uint64_t v = atomic_load_explicit(rd, memory_order_acquire);
		unsigned spins = 0;
		while ((v & 1) &&
		       atomic_load_explicit(rd, memory_order_acquire) == v) {
			if (++spins > 64)
				sched_yield();
		}
	}
	pthread_mutex_unlock(&h->tc_mtx);
}

void
usm_rd_sync(struct usm_heap *h)
{
	sync_readers(h);
}

int
usm_index_init(struct usm_index *idx)
{
	int err = pthread_mutex_init(&idx->wmtx, NULL);
	if (err)
		return -err;
	pthread_once(&asym_once, asym_probe);
	idx->asym = asym_ok;
	idx->top = calloc((size_t)1 << IDX_TOP_BITS, sizeof(*idx->top));
	if (!idx->top) {
		pthread_mutex_destroy(&idx->wmtx);
		return -ENOMEM;
	}
	atomic_init(&idx->meta_bytes,
		    ((size_t)1 << IDX_TOP_BITS) * sizeof(*idx->top));
	return 0;
}

void
usm_index_fini(struct usm_index *idx)
{
	for (size_t i = 0; i < (size_t)1 << IDX_TOP_BITS; i++)
		free(atomic_load_explicit(&idx->top[i], memory_order_relaxed));
	free(idx->top);
	idx->top = NULL;
	pthread_mutex_destroy(&idx->wmtx);
}

static void
granules(const struct usm_span *s, uintptr_t *first, uintptr_t *last)
{
	*first = s->base >> USM_GRANULE_SHIFT;
	*last = (s->base + s->len - 1) >> USM_GRANULE_SHIFT;
}

static int
index_insert(struct usm_index *idx, struct usm_span *s)
{
	uintptr_t g0, g1;
	if ((s->base + s->len - 1) >> USM_VA_BITS ||
	    s->base & (USM_GRANULE - 1))
		return -ENOMEM;
	granules(s, &g0, &g1);
	/* Allocate the leaves first: nothing to undo after. */
	for (uintptr_t t = g0 >> IDX_LEAF_BITS; t <= g1 >> IDX_LEAF_BITS;
	     t++) {
		if (atomic_load_explicit(&idx->top[t], memory_order_relaxed))
			continue;
		struct idx_leaf *leaf = calloc(1, sizeof(*leaf));
		if (!leaf)
			return -ENOMEM;
		atomic_fetch_add_explicit(&idx->meta_bytes, sizeof(*leaf),
					  memory_order_relaxed);
		atomic_store_explicit(&idx->top[t], leaf, memory_order_release);
	}
	for (uintptr_t g = g0; g <= g1; g++) {
		struct idx_leaf *leaf = atomic_load_explicit(
			&idx->top[g >> IDX_LEAF_BITS], memory_order_relaxed);
		atomic_store_explicit(
			&leaf->e[g & ((1u << IDX_LEAF_BITS) - 1)], s,
			memory_order_release);
	}
	return 0;
}

static void
index_remove(struct usm_index *idx, struct usm_span *s)
{
	uintptr_t g0, g1;
	granules(s, &g0, &g1);
	for (uintptr_t g = g0; g <= g1; g++) {
		struct idx_leaf *leaf = atomic_load_explicit(
			&idx->top[g >> IDX_LEAF_BITS], memory_order_relaxed);
		_Atomic(struct usm_span *) *e =
			&leaf->e[g & ((1u << IDX_LEAF_BITS) - 1)];
		if (atomic_load_explicit(e, memory_order_relaxed) == s)
			atomic_store_explicit(e, NULL, memory_order_relaxed);
	}
}

int
usm_index_add(struct usm_heap *h, struct usm_span *s)
{
	pthread_mutex_lock(&h->index.wmtx);
	int err = index_insert(&h->index, s);
	pthread_mutex_unlock(&h->index.wmtx);
	return err;
}

void
usm_index_del(struct usm_heap *h, struct usm_span *s)
{
	pthread_mutex_lock(&h->index.wmtx);
	index_remove(&h->index, s);
	sync_readers(h);
	pthread_mutex_unlock(&h->index.wmtx);
}

int
usm_va_reserve(size_t len, size_t align, void **out)
{
	size_t page = u_page_size();
	if (align < page)
		align = page;
	size_t total = len + align - page;
	if (total < len)
		return -ENOMEM;
	char *p = mmap(NULL, total, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	uintptr_t a = ((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1);
	size_t head = a - (uintptr_t)p;
	size_t tail = total - head - len;
	if (head)
		munmap(p, head);
	if (tail)
		munmap((char *)a + len, tail);
	if ((a + len - 1) >> USM_VA_BITS) {
		munmap((void *)a, len);
		return -ENOMEM;
	}
	*out = (void *)a;
	return 0;
}
