// SPDX-License-Identifier: MIT
/*
 * usm: host / device / shared allocations for the zemem driver.
 *
 * Vocabulary:
 *   heap        one allocator: pools, large mappings, the pointer index;
 *   kind        host, device or shared (values equal ze_memory_type_t);
 *   pool        small allocations (<= USM_POOL_MAX) carved from segments of
 *               a per-(kind, size class) arena;
 *   large       an allocation with a mapping (and fd) of its own;
 *   backing     where the pages live: enum bk_type plus the fd and the offset
 *               of the allocation in that fd (for IPC export);
 *   owner       what an allocation records about its caller: ctx, dev,
 *               ze_flags, usm_flags and the requested alignment.
 *
 * Every function is thread-safe. Internally errors are -errno; the driver
 * core maps them to ze_result_t. No Level Zero header is included here.
 */
#ifndef ZEMEM_USM_H
#define ZEMEM_USM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Values equal ze_memory_type_t HOST / DEVICE / SHARED. */
enum usm_kind {
	USM_KIND_HOST = 1,
	USM_KIND_DEVICE = 2,
	USM_KIND_SHARED = 3,
};

/* Backing stores, one ops table each (see usm_private.h). */
enum bk_type {
	BK_ANON,      /* anonymous private memory, no fd (fallback only) */
	BK_MEMFD,     /* memfd, MAP_SHARED: the default for everything */
	BK_UDMABUF,   /* dma-buf made by /dev/udmabuf from a sealed memfd */
	BK_DRM_PRIME, /* dma-buf exported by a DRM render node (libdrm PRIME) */
	BK_COUNT,
};

/* Backed by a memfd of its own, whatever its size (an external-memory
 * export descriptor): an fd handed out for it shows this block only. */
#define USM_FLAG_EXPORTABLE 0x1u
/* Back it with a dma-buf (udmabuf, else DRM PRIME): always a large
 * allocation; -EOPNOTSUPP when the machine has no dma-buf exporter. */
#define USM_FLAG_DMABUF 0x2u
#define USM_FLAGS_ALL (USM_FLAG_EXPORTABLE | USM_FLAG_DMABUF)

/* Largest size served from pools; above it, an allocation is large. */
#define USM_POOL_MAX (64u * 1024u)
/* Alignment given when the request says 0. */
#define USM_DEFAULT_ALIGN 16u

struct usm_heap;

struct usm_req {
	enum usm_kind kind;
	size_t size;
	size_t align;       /* 0 or a power of two; honoured exactly */
	uint32_t ze_flags;  /* raw device|host flag bits, only recorded */
	uint32_t usm_flags; /* USM_FLAG_* */
	void *ctx;          /* opaque owner, recorded and checked on free */
	void *dev;          /* opaque, recorded; may be NULL */
};

struct usm_info {
	void *base;
	size_t size;        /* as requested */
	size_t align;       /* as requested (0 if the request said 0) */
	enum usm_kind kind;
	uint32_t ze_flags;
	uint64_t id;        /* unique, nonzero; increasing per thread */
	void *ctx;
	void *dev;
	int bk_type;        /* enum bk_type */
	int fd;             /* backing fd or -1 (owned by usm, not dup'ed) */
	uint64_t fd_offset; /* offset of base in that fd */
	bool page_exclusive; /* no other live allocation shares its pages */
	bool own_file;      /* fd holds this allocation alone (at offset 0;
			     * the rest of the file, if any, is its slack) */
	size_t page_size;
	uint32_t usm_flags; /* as requested */
	bool exported;      /* usm_mark_exported() was called on it */
};

struct usm_bk_stats {
	uint64_t live_count;   /* live allocations on this backend */
	uint64_t mapped_bytes; /* user-visible mappings (live and cached) */
	uint32_t fds;          /* fds held */
};

struct usm_stats {
	uint64_t live_count;   /* live allocations */
	uint64_t live_bytes;   /* sum of their requested sizes */
	uint64_t mapped_bytes; /* user mappings: segments + large, cached too */
	uint64_t meta_bytes;   /* allocator metadata mapped (records, index) */
	uint32_t fds;          /* fds held (pool files, large, cached) */
	uint32_t segments;     /* pool segments mapped (cached ones too) */
	uint32_t large_live;
	uint32_t large_cached;
	struct usm_bk_stats bk[BK_COUNT];
};

/* Constructor and destructor. Destroy frees everything and releases every
 * fd and mapping; no other call on h may run concurrently with it. */
int usm_heap_create(struct usm_heap **out);
void usm_heap_destroy(struct usm_heap *h);

/* 0; -EINVAL: size 0, align not 0 or a power of two, bad kind or flags;
 * -ENOMEM: out of memory or address space; -EOPNOTSUPP: USM_FLAG_DMABUF
 * and no dma-buf exporter; other -errno of the backing store (-EMFILE). */
int usm_alloc(struct usm_heap *h, const struct usm_req *req, void **out);
/* usm_alloc of the common request, its fields as arguments: no usm_flags.
 * The caller has checked what usm_alloc checks: h and out not NULL, kind
 * valid, size > 0, align 0 or a power of two. *out is only written on
 * success. */
int usm_alloc_plain(struct usm_heap *h, enum usm_kind kind, void *ctx,
		    void *dev, uint32_t ze_flags, size_t size, size_t align,
		    void **out);

/* 0; -ENOENT: unknown or already freed; -EINVAL: interior pointer of a live
 * allocation; -EPERM: allocated by another ctx. freed (may be NULL) gets
 * what usm_lookup() said of it (for a pooled block; a large one gets all of
 * usm_query's fields). */
int usm_free(struct usm_heap *h, void *ptr, void *ctx,
	     struct usm_info *freed);

/* Finds the allocation containing ptr (any byte of [base, base + size)).
 * 0 or -ENOENT. */
int usm_query(struct usm_heap *h, const void *ptr, struct usm_info *out);
/* The cheap usm_query: fills only base, size, kind, id, ctx, dev,
 * page_size and exported; the other fields are left as they were (in
 * particular page_exclusive, which for a pooled block reads the
 * neighbours' records). */
int usm_lookup(struct usm_heap *h, const void *ptr, struct usm_info *out);

/* Frees every live allocation of ctx; cb (may be NULL) sees each one first.
 * cb runs with usm locks held: it must not call into this heap. Returns the
 * number freed. Call it when ctx dies: it also forgets ctx's owner records. */
size_t usm_free_ctx(struct usm_heap *h, void *ctx,
		    void (*cb)(const struct usm_info *, void *), void *arg);

void usm_stats(struct usm_heap *h, struct usm_stats *out);

/* The allocation at base was exported (its fd handed out): after its free
 * its memory goes to no other allocation while an importer may map it. A
 * block in a file of its own (own_file) gives the file up at free (a large
 * mapping is not cached, a slot gets a fresh file when handed out again):
 * the memory comes back to the heap at once, and the exported file lives on
 * in the fds and mappings others hold. A pooled block without one (a
 * udmabuf range of the pool file) is never handed out again. 0, -ENOENT,
 * -EINVAL (interior pointer). */
int usm_mark_exported(struct usm_heap *h, const void *base);

/* Credit: counters the heap's user keeps per thread, in the thread's cache
 * (the driver keeps device-memory budget it took in advance there, so a
 * pair of small allocations touches no shared counter). usm hands every
 * nonzero slot to the hook (and zeroes it) when the thread exits and in
 * usm_trim (the calling thread's). Set the hook before any allocation. */
#define USM_CREDIT_SLOTS 64
void usm_set_credit_hook(struct usm_heap *h,
			 void (*hook)(unsigned slot, uint64_t amount));
/* The calling thread's credit slots (creates its cache), or NULL. */
uint64_t *usm_thread_credit(struct usm_heap *h);

/* Gives cached memory back: the calling thread's slot cache (and its
 * credit, to the hook), every empty pool segment, the large-mapping
 * cache. */
void usm_trim(struct usm_heap *h);

/* Is the backing store usable on this machine? 0, or -ENODEV / -ENOSYS /
 * -EOPNOTSUPP / other -errno with *why (static text) saying why. The first
 * call probes every backend once and logs one info line per absent one. */
int usm_backend_status(enum bk_type t, const char **why);
const char *usm_backend_name(enum bk_type t);

#endif
