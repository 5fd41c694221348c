// SPDX-License-Identifier: MIT
/*
 * usm_private: internals of driver/usm, grouped by owning file.
 *
 * Layout of memory:
 *   - Every user mapping (a pool segment or a large allocation) starts on a
 *     2 MiB granule boundary, so one granule belongs to at most one span.
 *     The index maps granule -> span in two radix levels (usm_index.c).
 *   - A segment is a run of equal slots of one size class, mapped from the
 *     kind's pool memfd at a file offset. Its metadata (struct usm_seg and
 *     one 16-byte record per slot) lives outside user memory.
 *   - A large allocation has its own backing object (memfd by default) and
 *     a descriptor that is its span.
 *
 * Records are read without locks and checked like a seqlock whose sequence
 * is the id: writers store the fields between a release fence and a
 * release store of the id; readers load the id (acquire), the fields, an
 * acquire fence, and the id again. An id is never reused, so an equal id
 * means the fields belong to it. id 0 = free.
 *
 * Lock order (outer to inner; never the other way):
 *   g_heaps_mtx (usm_tcache.c: thread exit, heap create / destroy)
 *   -> arena->mtx (one size class of one kind)
 *   -> heap->file[kind].mtx (pool memfd growth and offsets)
 *   -> heap->index.wmtx (index writers: spans added or removed)
 *   -> heap->tc_mtx (list of thread caches; also read by index writers)
 *   heap->large_mtx and heap->owners.mtx are leaves: large code drops
 *   large_mtx before it touches the index.
 *
 * Index readers (usm_rd_lock) take no lock: each thread bumps a counter
 * of its own (odd: inside), with a plain store; a writer that removed a
 * span runs membarrier(PRIVATE_EXPEDITED), then waits until every counter
 * it saw odd has moved, and only then unmaps or frees (RCU, as in
 * liburcu's "memb" flavour). Without membarrier (or under TSan) readers
 * use a seq_cst fence instead. Nothing is taken inside a read section.
 * A thread owning a slot (in its cache, or live and being freed by it)
 * may look its segment up outside a read section: a segment with a slot
 * not returned to it is never released.
 */
#ifndef ZEMEM_USM_PRIVATE_H
#define ZEMEM_USM_PRIVATE_H

/* Included first by every file of the folder: memfd, fallocate, ... */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "usm.h"

#define USM_TOPIC "usm"
#define USM_LIKELY(x) __builtin_expect(!!(x), 1)
#define USM_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define USM_TLS __thread __attribute__((tls_model("initial-exec")))

/* AddressSanitizer: poison free slots and slack so overruns are caught. */
#if defined(__SANITIZE_ADDRESS__)
#define USM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define USM_ASAN 1
#endif
#endif
#ifdef USM_ASAN
#include <sanitizer/asan_interface.h>
#define USM_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define USM_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define USM_POISON(p, n) ((void)(p), (void)(n))
#define USM_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* ---- bk.c, bk_*.c: backing stores ------------------------------------ */

/* One backing object: a file (memfd, dma-buf) or nothing (anon). */
struct bk_obj {
	enum bk_type type;
	int fd;        /* what mappings come from and export hands out; -1 */
	int aux_fd;    /* udmabuf: the memfd behind the dma-buf; else -1 */
	uint64_t size; /* bytes of the file */
};

/*
 * Backend contract. Every slot is filled; an operation a backend does not
 * have returns -EOPNOTSUPP. All return 0 or -errno and create only
 * close-on-exec fds. Sizes and offsets are multiples of the page size.
 *   probe     is the backend usable here? fills why (static text) if not;
 *             -ENODEV / -ENOSYS / -EOPNOTSUPP mean "absent" (logged at
 *             info), anything else is a failure (logged at warn).
 *   create    a new object of size bytes; growable: may grow later (no
 *             F_SEAL_GROW); name describes it (memfd name).
 *   resize    grow the object to size bytes.
 *   map       map [off, off + len) of the object read-write at addr, which
 *             is a reservation the caller owns (MAP_FIXED replaces it).
 *   unmap     undo map.
 *   release   give back the pages of [off, off + len), mapped at addr.
 *   destroy   close what create opened (mappings are the caller's).
 *   export_fd a new close-on-exec fd for the object, for another process.
 */
struct bk_ops {
	const char *name;
	int (*probe)(const char **why);
	int (*create)(struct bk_obj *obj, const char *name, uint64_t size,
		      bool growable);
	int (*resize)(struct bk_obj *obj, uint64_t size);
	int (*map)(struct bk_obj *obj, void *addr, uint64_t off, size_t len);
	int (*unmap)(struct bk_obj *obj, void *addr, size_t len);
	int (*release)(struct bk_obj *obj, void *addr, uint64_t off,
		       size_t len);
	void (*destroy)(struct bk_obj *obj);
	int (*export_fd)(const struct bk_obj *obj, int *fd);
};

extern const struct bk_ops bk_anon_ops;
extern const struct bk_ops bk_memfd_ops;
extern const struct bk_ops bk_udmabuf_ops;
extern const struct bk_ops bk_drm_ops;
extern const struct bk_ops *const bk_table[BK_COUNT];

/* Probes every backend once (pthread_once); 0 if t is usable. */
int bk_available(enum bk_type t, const char **why);
/* Helpers shared by the file-backed backends (bk.c). */
int bk_map_fd(int fd, void *addr, uint64_t off, size_t len);
int bk_unmap_common(struct bk_obj *obj, void *addr, size_t len);
int bk_export_dup(const struct bk_obj *obj, int *fd);
int bk_no_resize(struct bk_obj *obj, uint64_t size);
int bk_no_release(struct bk_obj *obj, void *addr, uint64_t off, size_t len);

/* ---- usm_index.c: radix index, reader sync, address reservation ----- */

#define USM_GRANULE_SHIFT 21 /* 2 MiB */
#define USM_GRANULE ((size_t)1 << USM_GRANULE_SHIFT)
#define USM_VA_BITS 48
#define IDX_LEAF_BITS 13
#define IDX_TOP_BITS (USM_VA_BITS - USM_GRANULE_SHIFT - IDX_LEAF_BITS)

enum usm_span_type { SPAN_SEG = 1, SPAN_LARGE = 2 };

/* Head of struct usm_seg and struct usm_large: what the index points to. */
struct usm_span {
	uintptr_t base;
	size_t len;
	uint8_t type; /* enum usm_span_type */
};

struct idx_leaf {
	_Atomic(struct usm_span *) e[1u << IDX_LEAF_BITS];
};

struct usm_index {
	pthread_mutex_t wmtx;            /* writers */
	bool asym;                       /* readers use plain stores */
	_Atomic(struct idx_leaf *) *top; /* 1 << IDX_TOP_BITS, calloc'ed */
	_Atomic size_t meta_bytes;       /* leaves allocated */
};

struct usm_heap;
int usm_index_init(struct usm_index *idx);
void usm_index_fini(struct usm_index *idx);
/* Publishes s (index writer lock taken inside). */
int usm_index_add(struct usm_heap *h, struct usm_span *s);
/* Every read section that began before the caller's stores has ended
 * when this returns (membarrier, then each odd counter moves). The
 * caller is not in a read section; may hold arena->mtx or wmtx. */
void usm_rd_sync(struct usm_heap *h);
/* Unpublishes s and waits until no reader can still see it. */
void usm_index_del(struct usm_heap *h, struct usm_span *s);
/* A reservation of len bytes (PROT_NONE) aligned to align (a power of two
 * >= the page size), below 1 << USM_VA_BITS. */
int usm_va_reserve(size_t len, size_t align, void **out);

/* The span containing p, or NULL. Caller: in a read section, or owning a
 * slot in the span. */
static inline struct usm_span *
usm_index_find(struct usm_index *idx, const void *p)
{
	uintptr_t a = (uintptr_t)p;
	if (USM_UNLIKELY(a >> USM_VA_BITS))
		return NULL;
	uintptr_t g = a >> USM_GRANULE_SHIFT;
	struct idx_leaf *leaf = atomic_load_explicit(
		&idx->top[g >> IDX_LEAF_BITS], memory_order_acquire);
	if (!leaf)
		return NULL;
	struct usm_span *s = atomic_load_explicit(
		&leaf->e[g & ((1u << IDX_LEAF_BITS) - 1)],
		memory_order_acquire);
	if (!s || a - s->base >= s->len)
		return NULL;
	return s;
}

/* ---- usm_owner.c: interned owner records ----------------------------- */

#define OWNER_CHUNK_BITS 10
#define OWNER_MAX_CHUNKS 4096 /* 4 Mi distinct owners */

struct usm_owner_key {
	void *ctx;
	void *dev;
	uint32_t ze_flags;
	uint32_t usm_flags;
	uint32_t align_code; /* 0: align 0, else log2(align) + 1 */
};

/* Read without locks; fields change only when a dropped entry is reused. */
struct usm_owner {
	_Atomic(void *) ctx;
	_Atomic(void *) dev;
	_Atomic uint32_t ze_flags;
	_Atomic uint32_t usm_flags;
	_Atomic uint32_t align_code;
	uint32_t in_use; /* under owners.mtx */
};

struct usm_owners {
	pthread_mutex_t mtx;
	_Atomic(struct usm_owner *) chunk[OWNER_MAX_CHUNKS];
	_Atomic uint64_t gen; /* bumped when entries are dropped */
	/* under mtx: */
	uint32_t n;          /* entries created */
	uint32_t *hash;      /* open addressing: index + 1, 0 = empty */
	uint32_t hcap;       /* power of two */
	uint32_t hused;
	uint32_t *free_idx;  /* dropped entries, reused first */
	uint32_t nfree, free_cap;
};

int usm_owners_init(struct usm_owners *o);
void usm_owners_fini(struct usm_owners *o);
int usm_owner_intern(struct usm_owners *o, const struct usm_owner_key *k,
		     uint32_t *idx);
/* Forget every entry of ctx (its allocations are gone). */
void usm_owner_drop_ctx(struct usm_owners *o, void *ctx);

static inline const struct usm_owner *
usm_owner_get(struct usm_owners *o, uint32_t idx)
{
	struct usm_owner *c = atomic_load_explicit(
		&o->chunk[idx >> OWNER_CHUNK_BITS], memory_order_acquire);
	return &c[idx & ((1u << OWNER_CHUNK_BITS) - 1)];
}

/* ---- usm_pool.c: size classes, arenas, segments ---------------------- */

#define USM_NCLS_SMALL 44 /* 16..128 step 16, then 4 per doubling to 64K */
#define USM_NCLS_PAGE 16  /* 1..16 whole pages, page-isolated */
#define USM_NCLS (USM_NCLS_SMALL + USM_NCLS_PAGE)
#define USM_NKIND 3
#define USM_NARENA (USM_NKIND * USM_NCLS)
#define USM_SEG_MIN USM_GRANULE
#define USM_SEG_MAX ((size_t)8 << 20)
#define USM_SEG_LENS 4 /* segment lengths: 2 MiB << 0..3 */
_Static_assert((USM_SEG_MAX >> 21) < (1u << USM_SEG_LENS),
	       "USM_SEG_LENS too small for USM_SEG_MAX");
#define USM_EMPTY_CACHE_MAX ((size_t)64 << 20) /* per heap */
#define USM_REC_EXPORTED 0x80000000u           /* in usm_rec.size */
/* End of a segment's free list. Free slots keep their link in rec.size, and
 * a slot that sat in a thread cache goes back with whatever its size says:
 * no link may carry USM_REC_EXPORTED, or that slot would count as dead. */
#define USM_IDX_NONE 0x7fffffffu
_Static_assert(USM_SEG_MAX / 16 < USM_IDX_NONE &&
		       !(USM_IDX_NONE & USM_REC_EXPORTED),
	       "free-list links must stay clear of USM_REC_EXPORTED");

/* Per-slot record: 16 bytes, outside user memory. While the slot is free
 * (id 0) and in its segment, size links the segment's free list. */
struct usm_rec {
	_Atomic uint64_t id;
	_Atomic uint32_t size;  /* requested size | USM_REC_EXPORTED */
	_Atomic uint32_t owner; /* usm_owners index */
};

struct usm_arena;

struct usm_seg {
	struct usm_span span; /* first: the index points here */
	struct usm_arena *arena;
	uint32_t arena_idx;   /* index of arena in heap->arena */
	uint8_t kind;         /* copies of arena and pool-file facts */
	bool page_isolated;
	int fd;
	struct usm_rec *recs; /* nslots records, own anonymous mapping */
	size_t recs_len;
	uint64_t magic;       /* slot = mulhi(offset, magic) */
	uint32_t slot_size;
	uint32_t nslots;
	uint64_t fd_off;      /* offset of span.base in the pool file */
	/* filed segments (struct usm_arena.filed): per slot, the memfd that
	 * holds that slot alone and is mapped over it, or -1 when the slot
	 * is mapped from the pool file. Written under arena->mtx while the
	 * slot is not live; read without locks for a live slot (the record's
	 * publish orders it). NULL in other segments. */
	_Atomic int *slot_fd;
	/* under arena->mtx: */
	uint32_t nfree;       /* handed back or never handed out */
	uint32_t free_head;   /* free list through recs[].size */
	uint32_t bump;        /* slots >= bump were never handed out */
	uint32_t ndead;       /* exported slots without a file of their own
			       * (udmabuf exports), never handed out again */
	uint8_t list;         /* SEG_PARTIAL, SEG_FULL, SEG_EMPTY */
	bool idle;            /* filed, all free, kept on the partial list
			       * (counted in heap->empty_bytes) */
	bool inherited;       /* fork child: mapped privately from the
			       * parent's files, on arena->retired; hands
			       * out no slot, exports none */
	struct usm_seg *prev, *next;
	/* The claim bias (usm_fast_claim): NULL (nobody's yet), the thread
	 * cache that may claim this segment's blocks with a plain store,
	 * or USM_BIAS_SHARED (every claim a compare-and-swap). It goes
	 * NULL -> a cache (usm_seg_bias_take, when a bin takes slots) ->
	 * USM_BIAS_SHARED (usm_seg_unbias, before any other claim), never
	 * back. */
	_Atomic(struct usm_tcache *) bias;
};

#define USM_BIAS_SHARED ((struct usm_tcache *)1)

struct usm_arena {
	pthread_mutex_t mtx;
	uint8_t kind;          /* enum usm_kind */
	uint32_t slot_size;
	bool page_isolated;    /* slot size is a multiple of the page size */
	bool filed;            /* page-isolated host or device: every slot
				* gets a memfd of its own (usm_pool.c) */
	/* under mtx: */
	struct usm_seg *partial; /* with free slots */
	struct usm_seg *full;
	struct usm_seg *empty;   /* at most one, cached */
	struct usm_seg *retired; /* fork child: the parent's segments */
	size_t next_len;         /* next segment's length */
	uint32_t nsegs;
};

/* The pool memfd of one kind: grows, segments live at offsets. */
struct usm_pool_file {
	pthread_mutex_t mtx;
	struct bk_obj obj; /* obj.fd < 0: not made yet */
	uint64_t end;      /* bytes used (file size) */
	uint64_t *free_off[USM_SEG_LENS]; /* released ranges of 2 MiB << k */
	uint32_t nfree[USM_SEG_LENS], cap[USM_SEG_LENS];
};

/* The small class of size (<= USM_POOL_MAX): 16..128 step 16, then four
 * per doubling; every class above 128 bytes is a multiple of 32. */
static inline unsigned
usm_small_class(size_t size)
{
	if (size <= 128)
		return size ? (unsigned)(size - 1) >> 4 : 0;
	size_t s = size - 1;
	unsigned b = 63 - (unsigned)__builtin_clzll(s);
	return 8 + (b - 7) * 4 + (unsigned)((s >> (b - 2)) & 3);
}

void usm_classes_init(void); /* once, before usm_arena_for() */
/* Small class by ceil(size / 16), sizes up to USM_FAST_MAX. */
#define USM_FAST_MAX 1024
extern uint8_t usm_fast_class[USM_FAST_MAX / 16 + 1];
/* The offset in a thread cache's bin[] of the bin of a shared block of
 * ceil(size / 16) * 16 bytes (usm_fast_bin_owned): usm_fast_arena's
 * answer, in one load. */
extern uint32_t usm_fast_shared_bin[USM_FAST_MAX / 16 + 1];
/* Arena index for a request, or -1 if it must be large. */
int usm_arena_for(enum usm_kind kind, bool isolate, size_t size,
		  size_t align);
uint32_t usm_arena_slot_size(unsigned arena);
void usm_arena_init(struct usm_heap *h, unsigned idx);
/* Opens the pool file of kind now (heap creation); 0 or -errno. */
int usm_pool_file_open(struct usm_heap *h, enum usm_kind kind);
void usm_arena_fini(struct usm_heap *h, unsigned idx);
/* Hand out up to want slots, all of one segment (*seg) (arena lock taken
 * inside); returns the count, or -errno when none could be had. */
int usm_arena_take(struct usm_heap *h, unsigned arena, void **out,
		   unsigned want, struct usm_seg **seg);
/* Give slots back (arena lock taken inside). */
void usm_arena_give(struct usm_heap *h, unsigned arena, void *const *slots,
		    unsigned n);
/* Release the cached empty segment (usm_trim). */
void usm_arena_trim(struct usm_heap *h, unsigned arena);
size_t usm_arena_free_ctx(struct usm_heap *h, unsigned arena, void *ctx,
			  void (*cb)(const struct usm_info *, void *),
			  void *arg);
void usm_arena_stats(struct usm_heap *h, unsigned arena,
		     struct usm_stats *st);

/* Reads a record consistently (see the top comment): 0, or -ENOENT if
 * the slot is free. */
static inline int
usm_rec_read(const struct usm_rec *r, uint64_t *id, uint32_t *size,
	     uint32_t *owner)
{
	for (int tries = 0; tries < 16; tries++) {
		uint64_t v = atomic_load_explicit(&r->id, memory_order_acquire);
		if (!v)
			return -ENOENT;
		*size = atomic_load_explicit(&r->size, memory_order_relaxed);
		*owner = atomic_load_explicit(&r->owner, memory_order_relaxed);
		atomic_thread_fence(memory_order_acquire);
		if (USM_LIKELY(atomic_load_explicit(
				       &r->id, memory_order_relaxed) == v)) {
			*id = v;
			return 0;
		}
	}
	return -ENOENT;
}

static inline uint32_t
usm_seg_slot(const struct usm_seg *s, uintptr_t a)
{
	uint64_t off = (uint64_t)(a - s->span.base);
	return (uint32_t)(((unsigned __int128)off * s->magic) >> 64);
}

/* Does no other live slot share a page with [base, base + size)? */
bool usm_seg_page_scan(struct usm_heap *h, struct usm_seg *s, uint32_t slot,
		       uintptr_t base, size_t size);

static inline bool
usm_seg_slot_live(const struct usm_seg *s, uint32_t j)
{
	return atomic_load_explicit(&s->recs[j].id, memory_order_relaxed);
}

/* ---- usm_large.c: allocations with a mapping of their own ------------ */

#define USM_LARGE_CACHE_N 8
#define USM_LARGE_CACHE_BYTES ((size_t)64 << 20)

struct usm_large {
	struct usm_span span; /* first; span.len = mapped length */
	_Atomic uint64_t id;
	_Atomic uint64_t size;
	_Atomic uint32_t owner;
	_Atomic bool exported;
	_Atomic uint8_t kind;  /* rewritten when a cached mapping is reused */
	uint8_t where;         /* none, live or cache list: large_mtx */
	bool inherited;        /* fork child: mapped privately from the
				* parent's file; never cached or exported */
	struct bk_obj obj;
	struct usm_large *prev, *next; /* live or cache list, large_mtx */
};

int usm_large_alloc(struct usm_heap *h, const struct usm_req *req,
		    uint32_t owner, uint64_t id, void **out);
/* After the caller claimed l (id swapped to 0): cache or destroy it. */
void usm_large_release(struct usm_heap *h, struct usm_large *l);
/* What usm_large_read() returns: one consistent view of l. */
struct usm_large_view {
	uint64_t id, size;
	uint32_t owner;
	uint8_t kind;
	bool exported;
};
/* 0, or -ENOENT if l is not live. */
int usm_large_read(struct usm_large *l, struct usm_large_view *v);
void usm_large_fill(struct usm_heap *h, struct usm_large *l,
		    const struct usm_large_view *v, struct usm_info *out);
/* fork child, one thread: see usm_fork_child (usm_tcache.c). */
void usm_pool_fork_child(struct usm_heap *h);
void usm_large_fork_child(struct usm_heap *h);
size_t usm_large_free_ctx(struct usm_heap *h, void *ctx,
			  void (*cb)(const struct usm_info *, void *),
			  void *arg);
void usm_large_trim(struct usm_heap *h);
void usm_large_fini(struct usm_heap *h);

/* ---- usm_tcache.c: per-thread slot caches ---------------------------- */

#define TC_BIN_CAP 16
#define TC_BATCH 8

/* Free slots of one arena, all in one segment (hot): a refill takes
 * slots of one segment and sets hot; a free goes to the bin only when its
 * slot is in hot (so the bin pins one segment, and frees elsewhere let
 * other segments empty out). While n > 0, hot is live (a segment with a
 * slot not returned is never released) and is each slot's segment, so an
 * allocation needs no index lookup; while n == 0 hot may be stale and is
 * only compared. */
struct tc_bin {
	uint32_t n;
	struct usm_seg *hot;
	void *slot[TC_BIN_CAP];
};

struct usm_tcache {
	/* read-section counter, odd inside (usm_rd_lock); read by writers */
	_Alignas(64) _Atomic uint64_t rd;
	_Alignas(64) struct usm_heap *heap;
	struct usm_tcache *prev, *next; /* heap->tcs, under tc_mtx */
	/* ids handed out by this thread: [id_next, id_end) of a block taken
	 * from heap->next_id (usm_id_take) */
	uint64_t id_next, id_end;
	/* last owner interned by this thread */
	uint64_t oc_gen;
	struct usm_owner_key oc_key;
	/* oc_key's flags (usm_owner_flags) and alignment (as asked:
	 * usm_align_of(align_code)), for usm_owner_cached: a request's own
	 * values compare, nothing to pack */
	uint64_t oc_flags;
	size_t oc_align;
	uint32_t oc_idx;
	struct tc_bin bin[USM_NARENA];
	uint64_t credit[USM_CREDIT_SLOTS]; /* the heap user's (usm.h) */
};

int usm_tcache_global_add(struct usm_heap *h);
void usm_tcache_global_remove(struct usm_heap *h);
struct usm_tcache *usm_tcache_slow(struct usm_heap *h);
void usm_tcache_flush_all(struct usm_tcache *tc);
void usm_tcache_free_all(struct usm_heap *h);
/* fork() (pthread_atfork, registered with the first heap): prepare takes
 * every lock of every heap in the lock order above; the parent releases
 * them; the child releases them and forgets the other threads' caches
 * (their threads do not exist there). */
void usm_fork_prepare(void);
void usm_fork_parent(void);
void usm_fork_child(void);

/* ---- usm_heap.c ------------------------------------------------------ */

struct usm_heap {
	_Alignas(64) _Atomic uint64_t next_id; /* own cache line */
	_Alignas(64) uint64_t serial;          /* unique per heap */
	pthread_key_t key;        /* this heap's usm_tcache per thread */
	size_t page_size;
	unsigned page_shift;
	struct usm_index index;
	struct usm_owners owners;
	struct usm_arena arena[USM_NARENA];
	struct usm_pool_file file[USM_NKIND];
	/* thread caches */
	pthread_mutex_t tc_mtx;
	struct usm_tcache *tcs;
	struct usm_heap *g_next;  /* g_heaps list, usm_tcache.c */
	_Atomic bool key_live;    /* key not deleted (g_heaps_mtx) */
	void (*credit_hook)(unsigned slot, uint64_t amount);
	/* large allocations */
	pthread_mutex_t large_mtx;
	struct usm_large *large_live, *large_cache;
	uint32_t large_nlive, large_ncache;
	size_t large_cache_bytes;
	/* counters (relaxed atomics), never touched by pooled alloc/free */
	_Atomic int64_t large_count[BK_COUNT];
	_Atomic int64_t large_bytes;
	_Atomic int64_t bk_mapped[BK_COUNT];
	_Atomic int64_t bk_fds[BK_COUNT];
	_Atomic int64_t meta_bytes;
	_Atomic int64_t empty_bytes;                /* cached empty segments */
	/* slot files (usm_pool.c): open now, and the most there may be */
	_Atomic int64_t slot_files;
	int64_t slot_files_max;
	/* host blocks go to the dense small classes (no file of their own,
	 * not exportable) while no slot file can be had; a hint, read
	 * relaxed (usm_host_dense_set keeps fast_host_bin in step) */
	_Atomic bool host_dense;
	/* The host fast path's bin (usm_fast_bin) by ceil(size / 16), sizes
	 * up to USM_FAST_MAX with align <= 16, as a byte offset into
	 * usm_tcache.bin: the one-page class while !host_dense, else
	 * usm_fast_class's. */
	_Atomic uint16_t fast_host_bin[USM_FAST_MAX / 16 + 1];
};

/* Sets host_dense and fast_host_bin to match (usm_pool.c). A fast path
 * that reads the table meanwhile gets either class: both are right for
 * the size, host_dense being a hint. */
void usm_host_dense_set(struct usm_heap *h, bool dense);
/* Fills fast_host_bin (usm_heap_create, after host_dense). */
void usm_fast_host_bin_init(struct usm_heap *h);

extern USM_TLS struct usm_tls {
	uint64_t serial;
	struct usm_tcache *tc;
} usm_tls_tc;

static inline struct usm_tcache *
usm_tcache_get(struct usm_heap *h)
{
	if (USM_LIKELY(usm_tls_tc.serial == h->serial))
		return usm_tls_tc.tc;
	return usm_tcache_slow(h);
}

/* An owner key's flags in one word, as tc->oc_flags holds them. */
static inline uint64_t
usm_owner_flags(uint32_t ze_flags, uint32_t usm_flags)
{
	return ze_flags | (uint64_t)usm_flags << 32;
}

/* Is the thread's last owner (tc->oc_*) the one of (ctx, dev, flags from
 * usm_owner_flags, alignment as asked: 0 or a power of two, so equal
 * alignments mean equal codes), and still valid (no owner dropped
 * since)? */
static inline bool
usm_owner_cached(struct usm_heap *h, const struct usm_tcache *tc, void *ctx,
		 void *dev, uint64_t flags, size_t align)
{
	return tc->oc_gen == atomic_load_explicit(&h->owners.gen,
						  memory_order_acquire) &&
	       tc->oc_key.ctx == ctx && tc->oc_key.dev == dev &&
	       tc->oc_flags == flags && tc->oc_align == align;
}

/* Ids per block a thread takes from heap->next_id: one locked add per
 * USM_ID_BLOCK allocations instead of one per allocation. */
#define USM_ID_BLOCK 256

uint64_t usm_id_refill(struct usm_heap *h, struct usm_tcache *tc);

/* A new allocation id: unique in the heap, nonzero, and increasing along
 * each thread's allocations (not across threads). */
static inline uint64_t
usm_id_take(struct usm_heap *h, struct usm_tcache *tc)
{
	if (USM_UNLIKELY(tc->id_next == tc->id_end))
		return usm_id_refill(h, tc);
	return tc->id_next++;
}

static inline const char *
usm_kind_name(unsigned kind)
{
	static const char *const name[] = { "?", "host", "device", "shared" };
	return kind < 4 ? name[kind] : "?";
}

static inline unsigned
usm_align_code(size_t align)
{
	return align ? (unsigned)__builtin_ctzll(align) + 1 : 0;
}

static inline size_t
usm_align_of(uint32_t code)
{
	return code ? (size_t)1 << (code - 1) : 0;
}

static inline void
usm_count(_Atomic int64_t *c, int64_t d)
{
	atomic_fetch_add_explicit(c, d, memory_order_relaxed);
}

static inline void
usm_fill_owner(struct usm_heap *h, uint32_t owner, struct usm_info *o)
{
	const struct usm_owner *e = usm_owner_get(&h->owners, owner);
	o->ctx = atomic_load_explicit(&e->ctx, memory_order_relaxed);
	o->dev = atomic_load_explicit(&e->dev, memory_order_relaxed);
	o->ze_flags = atomic_load_explicit(&e->ze_flags, memory_order_relaxed);
	o->usm_flags = atomic_load_explicit(&e->usm_flags,
					    memory_order_relaxed);
	o->align = usm_align_of(
		atomic_load_explicit(&e->align_code, memory_order_relaxed));
}

/* Fills out for slot of s from values usm_rec_read() returned;
 * page_exclusive is left false. */
static inline void
usm_seg_fill(struct usm_heap *h, struct usm_seg *s, uint32_t slot,
	     uint64_t id, uint32_t size, uint32_t owner, struct usm_info *out)
{
	uintptr_t off = (uintptr_t)slot * s->slot_size;
	out->base = (void *)(s->span.base + off);
	out->size = size & ~USM_REC_EXPORTED;
	out->exported = size & USM_REC_EXPORTED;
	out->kind = (enum usm_kind)s->kind;
	out->id = id;
	out->bk_type = BK_MEMFD;
	int own = s->slot_fd ? atomic_load_explicit(&s->slot_fd[slot],
						    memory_order_relaxed)
			     : -1;
	out->own_file = own >= 0;
	out->fd = own >= 0 ? own : s->inherited ? -1 : s->fd;
	out->fd_offset = own >= 0 ? 0 : s->fd_off + off;
	out->page_exclusive = false;
	out->page_size = h->page_size;
	usm_fill_owner(h, owner, out);
}

static inline bool
usm_seg_page_exclusive(struct usm_heap *h, struct usm_seg *s, uint32_t slot,
		       uintptr_t base, size_t size)
{
	if (s->page_isolated)
		return true;
	uintptr_t pm = h->page_size - 1;
	/* Nearest neighbours first: on a busy page they answer at once. */
	if (slot && ((base - 1) & ~pm) == (base & ~pm) &&
	    usm_seg_slot_live(s, slot - 1))
		return false;
	if (slot + 1 < s->nslots &&
	    base + s->slot_size <= ((base + size - 1) | pm) &&
	    usm_seg_slot_live(s, slot + 1))
		return false;
	return usm_seg_page_scan(h, s, slot, base, size);
}

/* Index read section (see the top comment). Returns what to hand to
 * usm_rd_unlock(): the thread's cache, or NULL when there is none and the
 * writer lock was taken instead. */
/* The read section of a thread with a cache (tc). Returns the counter's
 * new value, for usm_rd_leave. */
static inline uint64_t
usm_rd_enter(struct usm_heap *h, struct usm_tcache *tc)
{
	uint64_t v = atomic_load_explicit(&tc->rd, memory_order_relaxed) + 1;
	atomic_store_explicit(&tc->rd, v, memory_order_relaxed);
	if (USM_LIKELY(h->index.asym))
		atomic_signal_fence(memory_order_seq_cst);
	else
		atomic_thread_fence(memory_order_seq_cst);
	return v;
}

/* usm_rd_exit with the value usm_rd_enter returned: only the thread
 * writes its counter, so it need not read it again. */
static inline void
usm_rd_leave(struct usm_tcache *tc, uint64_t v)
{
	atomic_store_explicit(&tc->rd, v + 1, memory_order_release);
}

static inline void
usm_rd_exit(struct usm_tcache *tc)
{
	uint64_t v = atomic_load_explicit(&tc->rd, memory_order_relaxed);
	atomic_store_explicit(&tc->rd, v + 1, memory_order_release);
}

/* A bin of tc took slots of s: s becomes tc's for claims when it is
 * nobody's yet (struct usm_seg.bias). */
static inline void
usm_seg_bias_take(struct usm_seg *s, struct usm_tcache *tc)
{
	struct usm_tcache *none = NULL;
	if (s && !atomic_load_explicit(&s->bias, memory_order_relaxed))
		atomic_compare_exchange_strong(&s->bias, &none, tc);
}

/* Before a claim in s by anyone but its bias holder (self: the caller's
 * cache, or NULL): s's claims are all compare-and-swaps from now on, and
 * the holder's plain claims have ended. The caller is in no read
 * section (usm_pool.c). */
void usm_seg_unbias(struct usm_heap *h, struct usm_seg *s,
		    struct usm_tcache *self);

static inline struct usm_tcache *
usm_rd_lock(struct usm_heap *h)
{
	struct usm_tcache *tc = usm_tcache_get(h);
	if (USM_UNLIKELY(!tc)) {
		pthread_mutex_lock(&h->index.wmtx);
		return NULL;
	}
	usm_rd_enter(h, tc);
	return tc;
}

static inline void
usm_rd_unlock(struct usm_heap *h, struct usm_tcache *tc)
{
	if (USM_UNLIKELY(!tc)) {
		pthread_mutex_unlock(&h->index.wmtx);
		return;
	}
	usm_rd_exit(tc);
}

#endif
