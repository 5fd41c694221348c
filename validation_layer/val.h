// SPDX-License-Identifier: MIT
/*
 * val: private header of zemem's validation layer
 * (libze_zemem_validation_layer.so.1).
 *
 * The layer sits between a loader and a driver. Its zeGet*ProcAddrTable
 * getters receive the table the loader filled from the driver, save each
 * pointer in val_next ("the next layer") and put a wrapper in its place.
 * The wrappers and getters are generated (val_gen.py -> val_gen.{h,c}) from
 * api/zemem/ze_ddi_versions.h; the hand-written checks are the val_ze*
 * hooks in val_mem.c, val_ipc.c, val_vmm.c and val_context.c.
 *
 * Vocabulary:
 *   finding   one line reported for one problem (val_report);
 *   call      the entry point being checked and its packed arguments
 *             (struct val_call, built by the generated wrapper; for the
 *             hot entry points, only where a finding or a slow path
 *             needs it: VAL_CALL_<ep>);
 *   record    what the layer knows about a range of addresses: a USM
 *             allocation, an IPC import, a VMM reservation or a mapping
 *             (struct val_rec), kept in an interval index (val_index.c:
 *             an AVL tree for "which record contains p", O(log n));
 *             the records of val_mem_index (USM and reservations) are
 *             also in a sharded hash of base addresses (val_track.c),
 *             which is all the hot paths touch;
 *   shard     one of VAL_SHARDS parts of that hash, chosen by the base
 *             address, with its own lock, quarantine and stale list;
 *   quarantine  about the last VAL_QUARANTINE freed records (a FIFO of
 *             VAL_QUARANTINE / VAL_SHARDS per shard), kept (still
 *             indexed, marked FREED) so a double free can say where the
 *             memory was allocated and freed; when the driver hands out
 *             the same base again, the freed record is reused in place;
 *   stale     a record pushed out of the quarantine: forgotten (lookups
 *             treat it as absent) but left where it is, so the driver
 *             handing out its base again reuses it in place; the stale
 *             records of a shard are unindexed in batches;
 *   handle    a context, device or physical-memory object the layer has
 *             seen created (struct val_handle), in a lock-free table;
 *   site      where something happened: the entry point and, with
 *             ZEMEM_VALIDATION_BACKTRACE=1, a backtrace.
 *
 * Switches (common/u_options.c): ZE_ENABLE_PARAMETER_VALIDATION (params),
 * ZE_ENABLE_HANDLE_LIFETIME (lifetime), ZEL_ENABLE_BASIC_LEAK_CHECKER
 * (leak), ZEMEM_VALIDATION_ABORT, ZEMEM_VALIDATION_BACKTRACE,
 * ZEMEM_VALIDATION_LOG. With none of the first three set the getters leave
 * the tables untouched and the layer costs nothing.
 *
 * Locks, in order (take a later one only while holding an earlier one, or
 * none):
 *   val_next_lock  the getters, while they patch tables and val_next;
 *   val_lock       the trees of the three indexes, the IPC handle set,
 *                  inserting into the handle table, and the mutable fields
 *                  of handles (marked below). Handle lookups
 *                  (val_handle_find) take no lock.
 *   shard locks    (val_track.c) a shard's hash chains, quarantine and
 *                  stale lists, and the fields of the records whose base
 *                  falls in that shard. The hot paths (allocation, free of
 *                  a base pointer) take one shard lock and nothing else,
 *                  and wait for nothing while they hold it. Every other
 *                  path that touches records takes the world lock
 *                  (val_world_lock: val_lock, then every shard in order),
 *                  so it sees all records still and may take its time.
 *   reg_lock       (val_leak.c) the list of per-thread count arrays.
 * The layer never calls the next layer while holding any of these.
 *
 * Errors: checks return ZE_RESULT_SUCCESS (0) or the result code that the
 * wrapper returns instead of calling the next layer; val_report() prints
 * the finding and returns that code.
 */
#ifndef ZEMEM_VAL_H
#define ZEMEM_VAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>

#include "u_lock.h"
#include "u_san.h"
#include "val_gen.h"

/* Everything declared below is the layer's own (val.map exports only the
 * getters): hidden, so the code addresses globals and thread-locals
 * directly rather than through the GOT. */
#pragma GCC visibility push(hidden)

#define VAL_MAX_FRAMES 24     /* frames kept per backtrace */
#define VAL_PRINT_FRAMES 8    /* frames printed per backtrace */
#define VAL_QUARANTINE 4096   /* freed records kept for reports */
#define VAL_LINE_MAX 4096     /* longest finding line */

/* ---- val_layer.c: configuration, reports, sites, exit report ---- */

struct val_config {
	bool enabled;   /* any of params, lifetime, leak: tables are wrapped */
	bool checks;    /* params || lifetime: generic wrapper checks */
	bool params;
	bool lifetime;
	bool leak;
	bool tracking;  /* lifetime || leak: records are kept */
	bool abort_on_error;
	bool backtrace;
	/* Backtrace off: params | lifetime << 1 | leak << 2 (1 to 7), the
	 * index of the switches in val_cfg_modes; 0: backtraces on, or no
	 * switch. The hot wrappers run a copy of themselves compiled for
	 * each mode, so a call tests no switch at run time whichever of
	 * them a user sets (ZE_ENABLE_PARAMETER_VALIDATION alone, the usual
	 * setting of Intel's layer, included). */
	unsigned mode;
	int log_fd;     /* where findings go (2 = stderr) */
};
extern struct val_config val_cfg;   /* written once by val_init */
/* The switches of each mode, and what follows from them (val_init takes
 * the entry of the switches set; the hot paths read only these fields,
 * never abort_on_error or log_fd). */
#define VAL_MODE_PARAMS 1u
#define VAL_MODE_LIFETIME 2u
#define VAL_MODE_LEAK 4u
/* The modes whose hot entry points have fast paths: those that keep
 * records. The thread's hot context (val_hot), which the leak checker's
 * counts fill in (val_hot_set_ctx), or else the lifetime checks' lookup
 * (val_hot_take_ctx), stands for the lookup and the context's lifetime
 * check, and its count slot is at hand. */
#define VAL_MODE_FAST(m)                                                    \
	(((m) & (VAL_MODE_LIFETIME | VAL_MODE_LEAK)) != 0)
#define VAL_MODE_CFG(m)                                                     \
	{ .enabled = true,                                                  \
	  .checks = ((m) & (VAL_MODE_PARAMS | VAL_MODE_LIFETIME)) != 0,     \
	  .params = ((m) & VAL_MODE_PARAMS) != 0,                           \
	  .lifetime = ((m) & VAL_MODE_LIFETIME) != 0,                       \
	  .leak = ((m) & VAL_MODE_LEAK) != 0,                               \
	  .tracking = ((m) & (VAL_MODE_LIFETIME | VAL_MODE_LEAK)) != 0,     \
	  .mode = (m) }
static const struct val_config val_cfg_modes[8] = {
	{ .mode = 0 },  /* no switch: the layer passes calls through */
	VAL_MODE_CFG(1), VAL_MODE_CFG(2), VAL_MODE_CFG(3),
	VAL_MODE_CFG(4), VAL_MODE_CFG(5), VAL_MODE_CFG(6), VAL_MODE_CFG(7),
};
extern ze_dditable_t val_next;      /* the next layer (val_gen.c) */

struct val_handle;

struct val_call {
	uint32_t ep;        /* enum val_ep */
	const void *args;   /* struct val_args_<ep> */
	/* The record of the hContext argument when the entry point's first
	 * parameter is a context (looked up once by the wrapper when
	 * lifetime or leak checking is on), else NULL. */
	struct val_handle *hctx;
};

enum val_category {
	VAL_CAT_PARAMETER,
	VAL_CAT_LIFETIME,
	VAL_CAT_DRIVER,     /* the driver broke its contract */
	VAL_CAT_LEAK,
};

struct val_bt {
	int n;
	void *frames[VAL_MAX_FRAMES];
};

struct val_site {
	uint16_t ep;        /* entry point; 0 with bt NULL: unknown */
	struct val_bt *bt;  /* NULL unless ZEMEM_VALIDATION_BACKTRACE */
};

void val_init(void);
ze_result_t val_getter_begin(ze_api_version_t version, const void *table);
void val_lock_next(void);
void val_unlock_next(void);
/* Print one finding about call (NULL: at exit) and return res. The
 * message is printf-formatted; the line gets the call with its arguments
 * and "-> <result>" appended. */
ze_result_t val_report(enum val_category cat, const struct val_call *call,
		       ze_result_t res, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Like val_report, for findings that do not change the result (the call
 * went ahead): the line ends with "-> <result> (from the driver)". */
void val_note(enum val_category cat, const struct val_call *call,
	      ze_result_t res, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Write raw text (the leak table) where findings go. */
void val_write_text(const char *text, size_t len);
/* Capture where call happens (a backtrace when enabled). Call it before
 * taking val_lock: backtrace() may take the dynamic linker's locks. */
void val_site_record_bt(struct val_site *s);
static inline void
val_site_record(struct val_site *s, const struct val_call *call)
{
	s->ep = call ? (uint16_t)call->ep : 0;
	s->bt = NULL;
	if (val_cfg.backtrace)
		val_site_record_bt(s);
}
void val_site_clear_bt(struct val_site *s);
static inline void
val_site_clear(struct val_site *s)
{
	if (s->bt)
		val_site_clear_bt(s);
}
/* " by <ep>[ at f1 < f2 ...]" into buf; returns buf. */
const char *val_site_format(const struct val_site *s, char *buf, size_t len);
/* Hex of the first bytes of an object (for by-value structs). */
const char *val_fmt_bytes(char *buf, size_t len, const void *p, size_t n);
/* Successful calls for the leak table (val_leak.c). Only the entry points
 * of the table's rows count. Those of the memory rows (allocations, IPC,
 * VMM, physical memory: they take a context) are counted by their hooks
 * (val_count_call), for the process and for the context; the others by
 * the wrapper (val_count), for the process. Every count is one plain
 * increment in an array of the calling thread (struct val_tcounts: no
 * lock, no atomic read-modify-write): a context's slot, or else t->n;
 * reports add the arrays up. */
enum val_count_mode {
	VAL_COUNT_NONE,
	VAL_COUNT_THREAD,    /* wrapper: the process's count only */
	VAL_COUNT_CONTEXT,   /* hook: the process's and the context's */
};
extern uint8_t val_count_mode[VAL_EP_COUNT];   /* set once by val_init */
#define VAL_CSLOTS 4   /* contexts a thread counts for without a lookup */
struct val_cslot {
	/* Written by the owning thread under reg_lock; read by reports. */
	_Atomic(struct val_handle *) hd;
	_Atomic uint64_t gen;            /* hd's generation when taken */
	_Atomic uint64_t n[VAL_EP_COUNT];
};
struct val_tcounts {
	/* Written by the owning thread only (relaxed load and store), read
	 * by the reports. The process's count of an entry point is n plus
	 * the slots' (a call counts in one place only). */
	_Atomic uint64_t n[VAL_EP_COUNT];
	struct val_cslot slot[VAL_CSLOTS];   /* slot[0]: the last used */
	struct val_tcounts *prev, *next;     /* reg_lock */
};
extern pthread_mutex_t val_reg_lock;   /* reg_lock (val_leak.c) */
extern __thread struct val_tcounts *val_tcounts
	__attribute__((tls_model("initial-exec")));
/* c += delta, by c's thread, the only one that writes it: a relaxed
 * load and store, which x86-64 does in one instruction (readers see the
 * old value or the new one; without a lock prefix, as the pair would
 * compile). ThreadSanitizer gets the pair, which it can see. */
static inline __attribute__((always_inline)) void
val_bump(_Atomic uint64_t *c, int delta)
{
#if defined(__x86_64__) && !U_TSAN
	__asm__("addq %1, %0"
		: "+m"(*(uint64_t *)c)
		: "er"((int64_t)delta));
#else
	atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) +
				      (uint64_t)(int64_t)delta,
			      memory_order_relaxed);
#endif
}
void val_count_thread_slow(unsigned ep);
static inline void
val_count(unsigned ep)
{
	struct val_tcounts *t = val_tcounts;
	if (val_count_mode[ep] != VAL_COUNT_THREAD)
		return;
	if (t)
		val_bump(&t->n[ep], 1);
	else
		val_count_thread_slow(ep);
}
/* Count call for the process and its context (delta +1, or -1 to take
 * back a count made before the driver refused the call); inline, below.
 * Takes no lock. val_count_ctx is the same for entry point ep on the
 * context whose record is hd (call->ep, call->hctx). */
static inline void val_count_call(const struct val_call *call, int delta);
void val_count_call_slow(unsigned ep, struct val_handle *hd, int delta);
/* A count with no per-thread array to hold it. */
void val_count_gone(unsigned ep, int delta);
/* val_gen.c */
extern const unsigned val_self_counted[];  /* wrappers leave counting to */
extern const unsigned val_self_counted_n;  /* these hooks */
const char *val_ep_name(unsigned ep);
const char *val_result_name(ze_result_t r);
int val_format_args(const struct val_call *c, char *buf, size_t len);
/* The name of a structure type of api/level_zero/ze_api.h (spec 1.18),
 * or NULL when stype is none of them. */
const char *val_stype_name(uint32_t stype);

/* ---- val_index.c: interval index (AVL tree keyed by base address, plus
 * a hash of the keys for exact lookups) ---- */

struct val_node {
	struct val_node *left, *right, *parent;
	struct val_node *hnext;     /* exact-key hash chain */
	int height;
	uintptr_t key;
};

struct val_index {
	struct val_node *root;
	size_t count;
	struct val_node **buckets;  /* exact-key hash: nbuckets, power of 2 */
	size_t nbuckets;
	bool no_hash;  /* set before first use: exact finds go elsewhere
			* (val_mem_index: the shard hashes) */
};

/* 0, or -EEXIST when the key is already there (n is not inserted). */
int val_index_insert(struct val_index *ix, struct val_node *n);
void val_index_remove(struct val_index *ix, struct val_node *n);
struct val_node *val_index_find_slow(const struct val_index *ix,
				     uintptr_t key);
static inline size_t
val_index_bucket(const struct val_index *ix, uintptr_t key)
{
	uint64_t x = (uint64_t)key * 0x9e3779b97f4a7c15ull;
	return (size_t)(x >> 32) & (ix->nbuckets - 1);
}
/* Node whose key is exactly key, or NULL. O(1) on average (inline: it is
 * on every hot path). */
static inline struct val_node *
val_index_find(const struct val_index *ix, uintptr_t key)
{
	if (!ix->count)
		return NULL;
	if (!ix->nbuckets)
		return val_index_find_slow(ix, key);
	for (struct val_node *n = ix->buckets[val_index_bucket(ix, key)]; n;
	     n = n->hnext) {
		if (n->key == key)
			return n;
	}
	return NULL;
}
/* Node with the largest key <= key, or NULL. O(log n). */
struct val_node *val_index_floor(const struct val_index *ix, uintptr_t key);
/* In-order predecessor of n, or NULL. */
struct val_node *val_index_prev(struct val_node *n);
/* Node with the smallest key >= key, or NULL. O(log n). */
struct val_node *val_index_ceil(const struct val_index *ix, uintptr_t key);
/* In key order; stops when fn returns non-zero. */
int val_index_walk(const struct val_index *ix,
		   int (*fn)(struct val_node *n, void *arg), void *arg);

/* ---- val_track.c: records, shards, quarantine, the memory indexes ---- */

enum val_kind {
	VAL_KIND_HOST,
	VAL_KIND_DEVICE,
	VAL_KIND_SHARED,
	VAL_KIND_IMPORT,        /* zeMemOpenIpcHandle */
	VAL_KIND_RESERVATION,   /* zeVirtualMemReserve */
	VAL_KIND_MAPPING,       /* zeVirtualMemMap */
	VAL_KIND_COUNT,
};

enum val_state {
	VAL_LIVE,
	VAL_FREED,      /* in the quarantine */
	VAL_STALE,      /* out of the quarantine: as good as absent */
	VAL_OWNED,      /* a thread's own (struct val_own): ask it */
};

struct val_handle;

struct val_rec {
	/* Hot fields first: the fast paths read the first cache line. */
	struct val_rec *hnext;      /* shard hash chain (hashed only) */
	uintptr_t base;             /* == node.key; immutable while indexed */
	size_t size;
	uint8_t kind;               /* enum val_kind */
	uint8_t state;              /* enum val_state */
	uint8_t shard;              /* val_shards[shard] (by base) */
	bool hashed;                /* in the shard hash (val_mem_index) */
	/* OWNED: its kind and state (LIVE or FREED) and size, the owner's
	 * alone (size: what the tree holds, the most its lives may take) */
	uint8_t okind, ostate;
	ze_context_handle_t ctx;
	struct val_rec *lprev, *lnext;  /* stale / free list */
	uint32_t qslot;                 /* FREED: its slot in the qring */
	uint64_t id;                /* n-th record of its kind */
	size_t align;
	size_t osize;
	struct val_site alloc, free;
	/* Cold: val_lock (tree), or VMM. */
	struct val_node node;       /* key: base address */
	struct val_index *ix;       /* the index it is in */
	uint64_t nmaps;             /* reservation: mapping records inside */
	struct val_handle *pmem;    /* mapping: its physical object */
	size_t offset;              /* mapping: offset into pmem */
};

/* val_lock: a futex mutex (common/u_lock.h: two atomic operations when
 * uncontended, fewer instructions than pthread's on the hot paths). */
extern u_lock_t val_lock;

/* The shard locks: a test-and-set lock (v: one atomic operation per lock,
 * released with a plain store), biased towards the first thread that
 * takes it: that thread (owner, its val_bias_self) then enters and leaves
 * with plain stores (busy: its token while inside), no atomic operation
 * (on this kind of machine each costs as much as the rest of a hot path).
 * Any other thread takes v, and while the shard is biased revokes it for
 * good: owner becomes VAL_BIAS_OFF, membarrier() (private expedited: a
 * full barrier in every thread of the process) makes sure the owner
 * either sees that or has its busy seen, and the revoker waits for busy
 * to clear (asymmetric Dekker). So a program whose threads share a shard
 * pays one membarrier per shard, once, and then the test-and-set lock;
 * a thread that keeps to itself pays no atomic operation. Without
 * membarrier (val_bias_ok false) no shard is ever biased. A waiter on v
 * spins a while, then yields. A shard is held for a few dozen
 * instructions on the hot paths and never across a call to the next
 * layer; the world lock (val_world_lock) holds all of them for longer,
 * rarely. */
typedef struct {
	_Atomic uint32_t v;          /* 0 free, 1 locked */
	_Atomic(const void *) owner; /* NULL: none yet; VAL_BIAS_OFF */
	_Atomic(const void *) busy;  /* the owner's token while it holds it */
} val_spin_t;
#define VAL_BIAS_OFF ((const void *)1)
extern bool val_bias_ok;
extern __thread char val_bias_self
	__attribute__((tls_model("initial-exec")));
/* This thread's token: its thread pointer (one load), or the address of
 * its val_bias_self; either is unique among live threads. */
static inline __attribute__((always_inline)) const void *
val_bias_me(void)
{
#if defined(__has_builtin) && defined(__x86_64__)
#if __has_builtin(__builtin_thread_pointer)
#define VAL_BIAS_TP 1
#endif
#endif
#ifdef VAL_BIAS_TP
	return __builtin_thread_pointer();
#else
	return &val_bias_self;
#endif
}
void val_spin_lock_slow(val_spin_t *l);
bool val_spin_trylock_slow(val_spin_t *l);
/* The owner's way in: busy first, then owner again (a revoker sets owner
 * before its membarrier and reads busy after it). */
static inline __attribute__((always_inline)) bool
val_spin_enter_biased(val_spin_t *l, const void *me)
{
	if (atomic_load_explicit(&l->owner, memory_order_acquire) != me)
		return false;
	atomic_store_explicit(&l->busy, me, memory_order_relaxed);
	atomic_signal_fence(memory_order_seq_cst);
	if (__builtin_expect(atomic_load_explicit(&l->owner,
						  memory_order_acquire) == me,
			     1))
		return true;
	atomic_store_explicit(&l->busy, NULL, memory_order_release);
	return false;
}
static inline bool
val_spin_trylock(val_spin_t *l)
{
	if (val_spin_enter_biased(l, val_bias_me()))
		return true;
	return val_spin_trylock_slow(l);
}
static inline __attribute__((always_inline)) void
val_spin_lock(val_spin_t *l)
{
	if (__builtin_expect(val_spin_enter_biased(l, val_bias_me()), 1))
		return;
	val_spin_lock_slow(l);
}
static inline __attribute__((always_inline)) void
val_spin_unlock(val_spin_t *l)
{
	const void *me = val_bias_me();
	if (atomic_load_explicit(&l->busy, memory_order_relaxed) == me)
		atomic_store_explicit(&l->busy, NULL, memory_order_release);
	else
		atomic_store_explicit(&l->v, 0, memory_order_release);
}
/* After fork, in the child: membarrier registered again (or biasing
 * off). */
void val_bias_init(void);

/* The shards: see the vocabulary above. */
#define VAL_SHARD_BITS 4
#define VAL_SHARDS (1u << VAL_SHARD_BITS)
#define VAL_QSHARD (VAL_QUARANTINE / VAL_SHARDS)   /* quarantine per shard */
struct val_rlist {
	struct val_rec *head, *tail;    /* head: the oldest */
	uint32_t n;
};
struct val_shard {
	val_spin_t lock;
	struct val_rec **buckets;       /* nbuckets (power of 2), or NULL */
	size_t mask;                    /* nbuckets - 1 */
	size_t count;                   /* records in the hash */
	uint64_t drops;                 /* records dropped so far (val_hot) */
	/* quarantine (FREED): a ring of the shard's last VAL_QSHARD frees;
	 * a record reused meanwhile leaves a hole (NULL), and the record a
	 * free overwrites goes stale. */
	struct val_rec *qring[VAL_QUARANTINE >> VAL_SHARD_BITS];
	uint32_t qhead;                 /* slot the next free takes */
	struct val_rlist stale;         /* STALE, to unindex */
	struct val_rec *free_list;      /* recycled records (lnext) */
	uint32_t nfree;
} __attribute__((aligned(64)));
extern struct val_shard val_shards[VAL_SHARDS];
static inline __attribute__((always_inline)) uint64_t
val_mix(uintptr_t p)
{
	return (uint64_t)p * 0x9e3779b97f4a7c15ull;
}
static inline __attribute__((always_inline)) unsigned
val_shard_index(uintptr_t p)
{
	return (unsigned)(val_mix(p) >> (64 - VAL_SHARD_BITS));
}
/* The shard of base p, for a hot path that locks it and then searches
 * it. The empty asm makes the compiler keep the pointer in a register:
 * otherwise it computes it again from the index after the lock's atomic
 * exchange (a few instructions on every allocation and free). */
static inline __attribute__((always_inline)) struct val_shard *
val_shard_of(uintptr_t p)
{
	struct val_shard *s = &val_shards[val_shard_index(p)];
	__asm__("" : "+r"(s));
	return s;
}
/* Caller holds s->lock: the hashed record at base p (any state), or NULL. */
static inline __attribute__((always_inline)) struct val_rec *
val_shard_find(const struct val_shard *s, uintptr_t p)
{
	struct val_rec **b = s->buckets;
	if (__builtin_expect(!b, 0))
		return NULL;
	struct val_rec *r = b[(val_mix(p) >> 24) & s->mask];
	while (r && r->base != p)
		r = r->hnext;
	return r;
}
static inline void
val_rlist_push(struct val_rlist *l, struct val_rec *r)
{
	r->lnext = NULL;
	r->lprev = l->tail;
	if (l->tail)
		l->tail->lnext = r;
	else
		l->head = r;
	l->tail = r;
	l->n++;
}
static inline void
val_rlist_unlink(struct val_rlist *l, struct val_rec *r)
{
	if (r->lprev)
		r->lprev->lnext = r->lnext;
	else
		l->head = r->lnext;
	if (r->lnext)
		r->lnext->lprev = r->lprev;
	else
		l->tail = r->lprev;
	r->lprev = r->lnext = NULL;
	l->n--;
}
/* val_lock and every shard lock, in order; for everything but the hot
 * paths. */
void val_world_lock(void);
void val_world_unlock(void);
/* The shard half of val_world_lock, for a caller holding val_lock. */
void val_shards_lock_all(void);
/* Caller holds s's lock: old, pushed out of s's quarantine ring, goes
 * stale; returns true when the shard's stale list is long enough that the
 * caller should call val_shard_sweep(s) once it has let go of the shard
 * lock. bts: the record may hold backtraces (false only where the
 * switches say there are none: then no call is made). */
#define VAL_STALE_MAX 128   /* stale records per shard before a sweep */
void val_rec_clear_bts(struct val_rec *r);
static inline __attribute__((always_inline)) bool
val_rec_evict(struct val_shard *s, struct val_rec *old, bool bts)
{
	old->state = VAL_STALE;
	if (bts && (old->alloc.bt || old->free.bt))
		val_rec_clear_bts(old);
	val_rlist_push(&s->stale, old);
	return s->stale.n >= VAL_STALE_MAX;
}
/* Caller holds the shard lock of r: r (FREED) leaves the quarantine. */
static inline __attribute__((always_inline)) void
val_rec_unquarantine(struct val_rec *r)
{
	val_shards[r->shard].qring[r->qslot] = NULL;
}
/* Caller holds the lock of s, r's shard (passed: the hot paths have it
 * at hand); bts as val_rec_evict's. */
static inline __attribute__((always_inline)) bool
val_rec_retire_fast(struct val_shard *s, struct val_rec *r,
		    struct val_site *site, bool bts)
{
	r->state = VAL_FREED;
	/* A live record has no free site's bt (NULL) to lose. */
	r->free.ep = site->ep;
	if (site->bt) {
		r->free.bt = site->bt;
		site->bt = NULL;
	}
	uint32_t i = s->qhead;
	struct val_rec *old = s->qring[i];
	s->qring[i] = r;
	r->qslot = i;
	s->qhead = (i + 1) % VAL_QSHARD;
	return old ? val_rec_evict(s, old, bts) : false;
}
void val_shard_sweep(struct val_shard *s);
/* Caller holds r's shard lock: take a FREED or STALE record back for a
 * new life at its base (kind, size, site taken over; the other fields
 * zero). */
void val_rec_revive(struct val_rec *r, enum val_kind kind,
		    struct val_site *site, size_t size);
/* A new record id of kind: unique, and in call order within a thread
 * (blocks of ids per thread in val_hot, so no atomic operation per
 * record). */
uint64_t val_rec_id_slow(enum val_kind kind);
static inline uint64_t val_rec_id(enum val_kind kind);

/* All below: caller holds the world lock (val_world_lock). */
extern struct val_index val_mem_index;     /* USM and reservations */
extern struct val_index val_import_index;  /* IPC imports */
extern struct val_index val_map_index;     /* VMM mappings */
static inline __attribute__((always_inline)) uintptr_t
val_rec_base(const struct val_rec *r)
{
	return r->base;
}
static inline __attribute__((always_inline)) uintptr_t
val_rec_end(const struct val_rec *r)
{
	return r->base + (r->size ? r->size : 1);
}
/* A LIVE record for [base, base + size) in ix, allocated at site (taken
 * over), other fields zero; NULL when out of memory. Freed records it
 * overlaps leave the quarantine (one at the same base is reused in place,
 * the usual case); a LIVE one it overlaps is a driver bug, reported, and
 * dropped. */
struct val_rec *val_rec_add(struct val_index *ix, enum val_kind kind,
			    struct val_site *site, uintptr_t base, size_t size,
			    const struct val_call *call);
/* A record outside any index (val_rec_add uses it). */
struct val_rec *val_rec_new(enum val_kind kind, struct val_site *site,
			    uintptr_t base, size_t size);
/* Put a record of val_rec_new into ix (and the hash, for val_mem_index);
 * 0, or -1 when it cannot (r is dropped). */
int val_rec_insert(struct val_index *ix, struct val_rec *r);
static inline struct val_rec *
val_rec_of(struct val_node *n)
{
	return n ? (struct val_rec *)((char *)n - offsetof(struct val_rec, node))
		 : NULL;
}
/* The record (live or freed, not stale) that contains p, or NULL: by
 * exact base first (the usual case), else through the tree. */
struct val_rec *val_rec_find(const struct val_index *ix, uintptr_t p);
/* Mark freed (site: where, taken over) and move into the quarantine. */
void val_rec_retire(struct val_rec *r, struct val_site *site);
/* Undo val_rec_retire when the next layer failed the free; r is looked
 * up again by base and id, since it may have been evicted meanwhile.
 * Takes the locks it needs. */
void val_rec_unretire(struct val_index *ix, uintptr_t base, uint64_t id);
/* Drop a record for good (index, hash, quarantine, memory). */
void val_rec_drop(struct val_rec *r);
const char *val_kind_name(enum val_kind k);
/* "host allocation 0x..+N (#id, context 0x..) allocated by ...[, freed by
 * ...]" into buf. */
const char *val_rec_describe(const struct val_rec *r, char *buf, size_t len);

/* ---- val_handles.c: contexts, devices, physical memory objects ---- */

enum val_hkind {
	VAL_H_CONTEXT = 1,
	VAL_H_DEVICE,
	VAL_H_PMEM,
};

struct val_handle {
	const void *h;              /* immutable once published */
	_Atomic int kind;           /* enum val_hkind */
	_Atomic int live;
	/* gen * 2, plus 1 while live (val_handle_set_live): one load tells
	 * that the handle is live and in which life (val_hot). */
	_Atomic uint64_t life;
	uint64_t id;                /* val_lock */
	struct val_site create, destroy;   /* val_lock */
	/* context */
	_Atomic uint64_t gen;              /* +1 per life (reg_lock) */
	ze_driver_handle_t drv;
	_Atomic uint64_t max_alloc;        /* largest of its devices' */
	_Atomic size_t page;               /* smallest VMM page, 0: unknown */
	ze_device_handle_t dev0;           /* a device of the context */
	/* Per-context calls (leak checker): those of per-thread slots that
	 * were given up; the rest are in the slots (val_leak.c). */
	_Atomic uint64_t *counts;
	/* device: max_alloc above, and */
	_Atomic uint32_t mem_ordinals;     /* 0: not queried yet */
	/* physical memory */
	ze_context_handle_t ctx;
	ze_device_handle_t dev;
	size_t size;
	uint64_t nmaps;                    /* val_lock */
};

/* hd becomes live or dead (live and life together). */
static inline void
val_handle_set_live(struct val_handle *hd, bool live)
{
	uint64_t gen = atomic_load_explicit(&hd->gen, memory_order_relaxed);
	atomic_store_explicit(&hd->live, live, memory_order_release);
	atomic_store_explicit(&hd->life, gen * 2 + live, memory_order_release);
}

/* ---- Records a thread owns ----
 * A thread keeps, per shard, at most one record of val_mem_index to
 * itself (OWNED): the last one it freed on a hot path. While it is
 * there, the thread allocates and frees at its base with no lock and no
 * quarantine (val_alloc_try, val_release_try): it flips okind, ostate
 * and osize, and the fields nobody else reads of an OWNED record (ctx,
 * align, id, the sites). The fast wrappers look at the one it used
 * last (mru) alone, with one compare; the out-of-line paths find the
 * others by their shard. Anyone else who meets an OWNED record (any
 * state but LIVE, FREED, STALE to the hot paths) takes its slow path,
 * where the world lock's holder that meets it takes it back into the
 * shared states first (val_own_take): so no finding or report reads an
 * owner's copy, and a thread pays a barrier only when it needs another
 * thread's record. Taking back is an asymmetric Dekker, as
 * for the biased shard locks: the owner sets busy and reads steal; the
 * taker sets steal, membarrier() makes each see the other's store, and
 * it waits for busy to clear. slot[], n and the registry change only
 * under shard locks (the owner's own, under the slot's shard lock) or
 * the world lock, which holds them all. Only with membarrier
 * (val_bias_ok) and without backtraces. */
struct val_own {
	_Atomic uint8_t busy;       /* the owner is in a hot path */
	_Atomic uint8_t steal;      /* a taker is at work: stay out */
	bool reg;                   /* in the registry (val_lock) */
	bool gone;                  /* the thread is exiting: owns none */
	uint32_t n;                 /* slots filled */
	/* The one of the slots the thread last freed or allocated at
	 * (mru_base its base; 0: none), so that the hot paths find it with
	 * one compare: allocators hand the last freed block out first, and
	 * a block is often freed soon after it was allocated. Set by the
	 * owner with its slots, emptied with them (own_publish_all): then
	 * base 0 and val_own_none, so that a hit is never NULL. */
	uintptr_t mru_base;
	struct val_rec *mru;
	struct val_rec *slot[VAL_SHARDS];   /* by shard */
	struct val_own *prev, *next;        /* the registry */
};

/* The calling thread's hot state, in one thread-local (one address for
 * all of it): the context its counted calls last named and the device
 * its calls last checked, each with the life word its record had when it
 * was taken, so that one load of that word tells the hot wrappers the
 * handle is still live, of the same kind and in the same life (a handle
 * that dies or comes back changes it); and the thread's blocks of
 * record ids.
 *   ctx_n: this thread's counts for ctx in that life (its slot[0].n);
 *   set with ctx by val_count_call_slow (val_leak.c), which keeps
 *   slot[0] and these in step, and cleared when the thread's counts go.
 * An empty entry names val_hot_none, whose life word (0) matches no
 * entry's (odd), so the test needs no NULL check. The context entry is
 * filled only in the modes with fast paths (VAL_MODE_FAST: lifetime or
 * leak checks, backtraces off): a hot context then also tells the
 * wrappers that the fast paths apply. */
struct val_hot {
	const void *ctx;
	struct val_handle *ctx_hd;
	uint64_t ctx_life;
	_Atomic uint64_t *ctx_n;
	const void *dev;
	struct val_handle *dev_hd;
	uint64_t dev_life;
	uint64_t id_next[VAL_KIND_COUNT];
	uint64_t id_end[VAL_KIND_COUNT];
	/* The record of base rc_base in shard rc_shard (its shard) that the
	 * thread's last lookup by the shard hash on a fast path found
	 * (val_shard_lock_find), when the shard had dropped rc_drops
	 * records: while it has dropped no other, that record is still the
	 * one hashed at rc_base (a record leaves the hash, or is reused,
	 * only by a drop). Empty: base 0 in its shard,
	 * rc_drops never reached. */
	uintptr_t rc_base;
	struct val_rec *rc_rec;
	struct val_shard *rc_shard;
	uint64_t rc_drops;
	/* The records the thread owns: here, so that the hot paths find
	 * them and the rest at one thread-local address. */
	struct val_own own;
};
extern struct val_handle val_hot_none;
extern __thread struct val_hot val_hot
	__attribute__((tls_model("initial-exec")));
/* h is the thread's hot context, live in the same life. */
static inline __attribute__((always_inline)) bool
val_hot_ctx(const void *h)
{
	return h == val_hot.ctx &&
	       atomic_load_explicit(&val_hot.ctx_hd->life,
				    memory_order_acquire) == val_hot.ctx_life;
}
static inline __attribute__((always_inline)) bool
val_hot_dev(const void *h)
{
	return h == val_hot.dev &&
	       atomic_load_explicit(&val_hot.dev_hd->life,
				    memory_order_acquire) == val_hot.dev_life;
}
/* Caller is hd's thread's count: ctx_n for slot[0] (hd in life gen), or
 * the entry emptied when hd is not a live context in that life or the
 * mode has no fast paths (VAL_MODE_FAST). */
void val_hot_set_ctx(struct val_handle *hd, uint64_t gen,
		     _Atomic uint64_t *n);
/* hd (val_handle_find's) is a live device: it becomes the hot one. */
bool val_hot_take_dev(struct val_handle *hd);
/* In a mode with lifetime checks and no leak checker (whose counts fill
 * the entry otherwise): hd, if a live context, becomes the hot one, with
 * a count slot that counts nothing. */
void val_hot_take_ctx(struct val_handle *hd);
static inline __attribute__((always_inline)) uint64_t
val_rec_id(enum val_kind kind)
{
	struct val_hot *t = &val_hot;
	if (t->id_next[kind] < t->id_end[kind])
		return t->id_next[kind]++;
	return val_rec_id_slow(kind);
}

/* No record (mru when a thread has none): okind and ostate match no
 * kind and no state, so the hot paths' tests fail on it (a free of
 * NULL meets it) as on a record of another base. */
extern struct val_rec val_own_none;
static inline __attribute__((always_inline)) bool
val_own_enter(struct val_own *o)
{
	atomic_store_explicit(&o->busy, 1, memory_order_relaxed);
	atomic_signal_fence(memory_order_seq_cst);
	if (__builtin_expect(!atomic_load_explicit(&o->steal,
						   memory_order_acquire), 1))
		return true;
	atomic_store_explicit(&o->busy, 0, memory_order_release);
	return false;
}
static inline __attribute__((always_inline)) void
val_own_leave(struct val_own *o)
{
	atomic_store_explicit(&o->busy, 0, memory_order_release);
}
/* The thread joins the registry (takes val_lock: never under a shard
 * lock); false when it cannot own records. */
bool val_own_register(void);
/* The library is unloaded or the process exits (val_fini): threads that
 * exit from now on keep their records (val_leak_fini: their counts). */
void val_own_fini(void);
/* Caller holds val_lock and every shard lock: every thread's records
 * back to the shared states, its slots empty. */
void val_own_steal_all(void);
/* The same, for a caller that met r OWNED: only this thread's records
 * when r is one of them (no barrier), else every thread's. rec_exact,
 * val_rec_find and val_rec_add call it, so the world lock's holders
 * never see an OWNED record of val_mem_index through them; those that
 * walk the index (the leak report) or hand the process over (fork)
 * call val_own_steal_all first. */
void val_own_take(const struct val_rec *r);
/* After fork, in the child: the registry holds this thread alone. */
void val_own_fork_child(void);
/* Caller holds s's lock, r is an OWNED record of s whose owner is out
 * of its hot paths: r back to LIVE, or FREED into the quarantine; true
 * when s then wants a sweep (val_rec_evict). */
static inline bool
val_own_publish(struct val_shard *s, struct val_rec *r)
{
	r->kind = r->okind;
	r->size = r->osize;
	r->state = VAL_LIVE;
	if (r->ostate == VAL_LIVE)
		return false;
	struct val_site site = { r->free.ep, NULL };
	return val_rec_retire_fast(s, r, &site, true);
}

static inline __attribute__((always_inline)) void
val_count_ctx(const struct val_config *cfg, unsigned ep,
	      struct val_handle *hd, int delta)
{
	struct val_tcounts *t = val_tcounts;
	if (!cfg->leak)
		return;
	/* hd's life is this slot's (gen). A call on a context destroyed
	 * meanwhile (lifetime checks off) counts for a life whose table was
	 * reported at its destroy: harmless, its next life has a new gen. */
	if (t && hd &&
	    atomic_load_explicit(&t->slot[0].hd, memory_order_relaxed) == hd &&
	    atomic_load_explicit(&t->slot[0].gen, memory_order_relaxed) ==
		    atomic_load_explicit(&hd->gen, memory_order_relaxed)) {
		/* The process's count is the sum of t->n and the slots
		 * (val_leak.c): one bump. */
		val_bump(&t->slot[0].n[ep], delta);
		return;
	}
	val_count_call_slow(ep, hd, delta);
}

/* A count of the hot paths: cn is val_hot.ctx_n when the wrapper found
 * the context hot (then it is hd's slot), else NULL. */
static inline __attribute__((always_inline)) void
val_count_hot(const struct val_config *cfg, unsigned ep,
	      struct val_handle *hd, _Atomic uint64_t *cn, int delta)
{
	if (cn) {
		if (cfg->leak)
			val_bump(&cn[ep], delta);
		return;
	}
	val_count_ctx(cfg, ep, hd, delta);
}

static inline void
val_count_call(const struct val_call *call, int delta)
{
	val_count_ctx(&val_cfg, call->ep, call->hctx, delta);
}

/* Lookup without a lock; NULL when the layer never saw h. The last two
 * handles this thread found in the table come first (a call usually
 * names the context, and maybe a device, of the call before; a hit moves
 * nothing, so a context and a device used in turn both stay). A record
 * never changes its address h, so a hit is always right; a miss goes to
 * the table (val_handles.c). */
struct val_recent {
	const void *h[2];
	struct val_handle *hd[2];
};
extern __thread struct val_recent val_recent
	__attribute__((tls_model("initial-exec")));
struct val_handle *val_handle_find_slow(const void *h);
static inline struct val_handle *
val_handle_find(const void *h)
{
	if (__builtin_expect(h && h == val_recent.h[0], 1))
		return val_recent.hd[0];
	if (h && h == val_recent.h[1])
		return val_recent.hd[1];
	return val_handle_find_slow(h);
}
/* hd is a live handle of kind (the quick test of the lifetime checks;
 * the val_check_*_slow functions make it again before they report). */
static inline bool
val_handle_is(const struct val_handle *hd, enum val_hkind kind)
{
	return hd && atomic_load_explicit(&hd->live, memory_order_acquire) &&
	       atomic_load_explicit(&hd->kind, memory_order_relaxed) ==
		       (int)kind;
}
/* Caller holds val_lock. A handle seen before (destroyed) is reused. */
struct val_handle *val_handle_add(const void *h, enum val_hkind kind,
				  struct val_site *site);
void val_handle_kill(struct val_handle *hd, struct val_site *site);
/* Caller holds val_lock; in insertion order. */
void val_handle_walk(void (*fn)(struct val_handle *hd, void *arg), void *arg);
const char *val_hkind_name(int kind);

/* Generic checks of the wrappers: 0 or the result to return. */
ze_result_t val_null_handle(const struct val_call *call, const char *name);
ze_result_t val_check_context_slow(const struct val_call *call,
				   const char *name, const void *h);
/* The wrapper's check of its first argument, a context: hd is call->hctx. */
static inline ze_result_t
val_check_first_context(const struct val_call *call, const char *name,
			ze_context_handle_t h)
{
	if (!val_cfg.lifetime || !h || val_handle_is(call->hctx, VAL_H_CONTEXT))
		return ZE_RESULT_SUCCESS;
	return val_check_context_slow(call, name, h);
}
ze_result_t val_check_device_slow(const struct val_call *call,
				  const char *name, const void *h);
ze_result_t val_check_pmem_slow(const struct val_call *call,
				const char *name, const void *h);
static inline ze_result_t
val_check_context(const struct val_call *call, const char *name,
		  ze_context_handle_t h)
{
	if (!val_cfg.lifetime || !h)
		return ZE_RESULT_SUCCESS;
	return val_check_context_slow(call, name, h);
}
static inline ze_result_t
val_check_device(const struct val_call *call, const char *name,
		 ze_device_handle_t h)
{
	if (!val_cfg.lifetime || !h)
		return ZE_RESULT_SUCCESS;
	return val_check_device_slow(call, name, h);
}
static inline ze_result_t
val_check_pmem(const struct val_call *call, const char *name,
	       ze_physical_mem_handle_t h)
{
	if (!val_cfg.lifetime || !h)
		return ZE_RESULT_SUCCESS;
	return val_check_pmem_slow(call, name, h);
}

/* ---- val_params.c: descriptors, chains, device limits ---- */

/* What an allocation asked for, gathered while checking it. */
struct val_alloc_req {
	enum val_kind kind;
	ze_context_handle_t ctx;
	ze_device_handle_t dev;   /* whose maxMemAllocSize applies, or NULL */
	size_t size, align;
	bool relaxed;    /* relaxed-allocation-limits MAX_SIZE chained */
};

ze_result_t val_check_device_desc(const struct val_call *call,
				  const ze_device_mem_alloc_desc_t *d,
				  struct val_alloc_req *q);
ze_result_t val_check_host_desc(const struct val_call *call,
				const ze_host_mem_alloc_desc_t *d,
				struct val_alloc_req *q);
ze_result_t val_check_size_align(const struct val_call *call,
				 const struct val_alloc_req *q);
/* A descriptor's stype must be want (INVALID_ARGUMENT), its flag bits
 * within known (INVALID_ENUMERATION); what names the field in the
 * finding ("desc->stype", "desc->flags"). */
ze_result_t val_check_stype(const struct val_call *call, const char *what,
			    uint32_t got, uint32_t want,
			    const char *want_name);
#define VAL_CHECK_STYPE(call, what, got, want)                              \
	val_check_stype((call), (what), (uint32_t)(got), (uint32_t)(want),  \
			#want)
ze_result_t val_check_flags(const struct val_call *call, const char *what,
			    uint32_t flags, uint32_t known);
/* Walk an input pNext chain: stypes must be in allowed (n of them). */
ze_result_t val_check_chain(const struct val_call *call, const char *what,
			    const void *pNext,
			    const ze_structure_type_t *allowed, size_t n,
			    struct val_alloc_req *q);
/* ---- val_out.c: the pNext chains of structures a call fills in ---- */

/* The first element of unknown stype a walk found (reported after the
 * call: val_out_note). */
struct val_out {
	bool unknown;
	bool array;     /* in element elem of an array */
	uint32_t elem;
	uint32_t stype;
	int pos;        /* 1: the first element of the chain */
};
/* Walk the chain at pNext (the generated wrappers call these when the
 * pointer they get is not NULL): ZE_RESULT_ERROR_INVALID_ARGUMENT, with a
 * finding, for junk (an element not readable and writable, misaligned,
 * a loop, too long); else success, o filled. val_out_array does it for
 * each of count structures stride bytes apart. */
ze_result_t val_out_chain(const struct val_call *call, const char *what,
			  const void *pNext, struct val_out *o);
ze_result_t val_out_array(const struct val_call *call, const char *what,
			  const void *array, uint32_t count, size_t stride,
			  struct val_out *o);
void val_out_note(const struct val_call *call, const char *what,
		  const struct val_out *o, ze_result_t res);

/* maxMemAllocSize of a device (queried once), or of the largest device
 * of a context; UINT64_MAX when unknown. */
uint64_t val_device_max_alloc(ze_device_handle_t dev);
uint64_t val_context_max_alloc(ze_context_handle_t ctx);
/* Number of memory ordinals of a device (queried once); 0: unknown. */
uint32_t val_device_mem_ordinals(ze_device_handle_t dev);
/* VMM page size for size bytes on dev (the next layer's answer); 0 when
 * the driver cannot say. */
size_t val_page_size(ze_context_handle_t ctx, ze_device_handle_t dev,
		     size_t size);
static inline bool
val_is_pow2(size_t x)
{
	return x && !(x & (x - 1));
}

/* ---- val_mem.c ---- */
/* val_params.c: smallest maxMemAllocSize of the devices seen (0: none). */
extern _Atomic uint64_t val_smallest_max_alloc;

/* The full checks of the allocations (val_hot.h has the quick ones), and
 * the finding of a NULL pointer. */
ze_result_t val_null_pointer(const struct val_call *call, const char *name);
ze_result_t val_alloc_shared_check(const struct val_call *call,
				   const ze_device_mem_alloc_desc_t *device_desc,
				   const ze_host_mem_alloc_desc_t *host_desc,
				   void **pptr, struct val_alloc_req *q);
ze_result_t val_alloc_device_check(const struct val_call *call,
				   const ze_device_mem_alloc_desc_t *device_desc,
				   ze_device_handle_t hDevice, void **pptr,
				   struct val_alloc_req *q);
ze_result_t val_alloc_host_check(const struct val_call *call,
				 const ze_host_mem_alloc_desc_t *host_desc,
				 void **pptr, struct val_alloc_req *q);

/* After a successful allocation: alignment check, record and count
 * (val_mem.c); val_alloc_slow for a base the hash does not have. */
void val_alloc_done(const struct val_call *call,
		    const struct val_alloc_req *q, void *ptr);
void val_alloc_slow(const struct val_call *call,
		    const struct val_alloc_req *q, void *ptr,
		    struct val_site *site);
void val_alloc_misaligned(const struct val_call *call,
			  const struct val_alloc_req *q, void *ptr);
/* r, the hashed record at the base of a new allocation, can take it: it
 * is freed or stale (not live, nor a thread's own), and the new one is
 * no longer (so it cannot overlap another record). */
static inline __attribute__((always_inline)) bool
val_alloc_can_revive(const struct val_rec *r, const struct val_alloc_req *q)
{
	return r && (r->state == VAL_FREED || r->state == VAL_STALE) &&
	       q->size && q->size <= r->size;
}
/* Caller holds s->lock, r passed val_alloc_can_revive: r becomes the
 * LIVE record of q, allocated at site (taken over). A record of
 * val_mem_index has no VMM fields to reset. */
static inline __attribute__((always_inline)) void
val_alloc_revive(const struct val_config *cfg, struct val_shard *s,
		 struct val_rec *r, const struct val_alloc_req *q,
		 const struct val_site *site)
{
	if (r->state == VAL_FREED)
		s->qring[r->qslot] = NULL;  /* val_rec_unquarantine */
	else
		val_rlist_unlink(&s->stale, r);
	/* Without backtraces every site's bt is NULL: only ep changes. */
	if (cfg->backtrace) {
		if (r->alloc.bt || r->free.bt)
			val_rec_clear_bts(r);
		r->alloc.bt = site->bt;
	}
	r->free.ep = 0;
	r->size = q->size;
	r->kind = (uint8_t)q->kind;
	r->state = VAL_LIVE;
	r->id = val_rec_id(q->kind);
	r->alloc.ep = site->ep;
	r->ctx = q->ctx;
	r->align = q->align;
}
/* The owner, in its hot path: w, its own record, freed, at least
 * q->size long, becomes the live record of q (entry point ep) with
 * record id id. */
static inline __attribute__((always_inline)) void
val_own_revive(struct val_rec *w, unsigned ep, const struct val_alloc_req *q,
	       uint64_t id)
{
	w->ostate = VAL_LIVE;
	w->okind = (uint8_t)q->kind;
	w->osize = q->size;
	w->id = id;
	w->alloc.ep = (uint16_t)ep;
	w->free.ep = 0;
	w->ctx = q->ctx;
	w->align = q->align;
}
/* Lock the shard of base b (*ps) and find the hashed record at b (any
 * state), or NULL: the thread's last one (val_hot) when it is still b's,
 * else by the shard hash, and then that one becomes the thread's. */
static inline __attribute__((always_inline)) struct val_rec *
val_shard_lock_find(uintptr_t b, struct val_shard **ps)
{
	struct val_hot *t = &val_hot;
	struct val_shard *s;
	if (b == t->rc_base) {
		s = t->rc_shard;
		val_spin_lock(&s->lock);
		*ps = s;
		if (s->drops == t->rc_drops)
			return t->rc_rec;
	} else {
		s = val_shard_of(b);
		val_spin_lock(&s->lock);
		*ps = s;
	}
	struct val_rec *r = val_shard_find(s, b);
	if (r) {
		t->rc_base = b;
		t->rc_rec = r;
		t->rc_shard = s;
		t->rc_drops = s->drops;
	}
	return r;
}
/* Caller is o's owner, in a hot path (val_own_enter): its own record
 * at base b (val_own_none when b is 0 and it has none), or NULL.
 * mru_only: the last one it used (mru) alone, as the fast wrappers look
 * (one compare); else its slot of b's shard, which then becomes the
 * last one used. */
static inline __attribute__((always_inline)) struct val_rec *
val_own_at(struct val_own *o, uintptr_t b, bool mru_only)
{
	if (__builtin_expect(b == o->mru_base, 1)) {
		struct val_rec *w = o->mru;
		if (!w)   /* never: empty is val_own_none */
			__builtin_unreachable();
		return w;
	}
	if (mru_only)
		return NULL;
	struct val_rec *w = o->slot[val_shard_index(b)];
	if (!w || w->base != b)
		return NULL;
	o->mru_base = b;
	o->mru = w;
	return w;
}
/* The thread's own record at base b (val_own_at), freed and at least
 * q->size long, takes the new life of q (entry point ep) with no lock
 * (true; the caller counts the call); false: no such record. mru_only
 * (the fast wrappers): also false when the thread's block of ids of the
 * kind is used up, so that this path calls nothing (val_rec_id_slow
 * would), and the wrapper needs no frame. */
static inline __attribute__((always_inline)) bool
val_own_alloc_revive(unsigned ep, const struct val_alloc_req *q, uintptr_t b,
		     bool mru_only)
{
	struct val_hot *t = &val_hot;
	struct val_own *o = &t->own;
	uint64_t id = 0;
	if (mru_only) {
		id = t->id_next[q->kind];
		if (__builtin_expect(id >= t->id_end[q->kind], 0))
			return false;
	}
	if (!val_own_enter(o))
		return false;
	struct val_rec *w = val_own_at(o, b, mru_only);
	if (__builtin_expect(w && w->ostate == VAL_FREED && q->size &&
			     q->size <= w->size, 1)) {
		if (mru_only)
			t->id_next[q->kind] = id + 1;
		else
			id = val_rec_id(q->kind);
		val_own_revive(w, ep, q, id);
		val_own_leave(o);
		return true;
	}
	val_own_leave(o);
	return false;
}
/* The hot path of val_alloc_done (inline; no struct val_call, which the
 * hot wrappers build only for a finding): entry point ep, its context's
 * record hctx. true when done; false when it did nothing and the caller
 * must call val_alloc_done (a misaligned pointer, a base the hash does
 * not have or that is live, backtraces on). The thread's own record at
 * the base comes first. */
static inline __attribute__((always_inline)) bool
val_alloc_try(const struct val_config *cfg, unsigned ep,
	      struct val_handle *hctx, _Atomic uint64_t *cn,
	      const struct val_alloc_req *q, void *ptr)
{
	uintptr_t b = (uintptr_t)ptr;
	if (cfg->params && (b & (q->align - 1)) && q->align)
		return false;
	if (!cfg->tracking || !ptr)
		return true;
	if (cfg->backtrace)
		return false;
	if (val_own_alloc_revive(ep, q, b, false)) {
		val_count_hot(cfg, ep, hctx, cn, 1);
		return true;
	}
	const struct val_site site = { (uint16_t)ep, NULL };
	struct val_shard *s;
	struct val_rec *r = val_shard_lock_find(b, &s);
	if (__builtin_expect(!val_alloc_can_revive(r, q), 0)) {
		val_spin_unlock(&s->lock);
		return false;
	}
	val_alloc_revive(cfg, s, r, q, &site);
	val_spin_unlock(&s->lock);
	val_count_hot(cfg, ep, hctx, cn, 1);
	return true;
}
/* Releasing a pointer (zeMemFree, zeMemFreeExt, zeMemCloseIpcHandle):
 * begin checks it (expect: the kinds the call may release, a bit per enum
 * val_kind) and retires its record; end puts the record back when the
 * next layer failed, and reports a pointer the layer did not know that
 * the driver refused too. Inline: the free of a live base is the hot
 * path; anything else goes to val_release_begin_slow. */
struct val_release {
	struct val_index *ix;   /* NULL: the layer did not know the pointer */
	uintptr_t base;
	uint64_t id;
};
ze_result_t val_release_begin_slow(const struct val_call *call,
				   ze_context_handle_t ctx, const void *ptr,
				   unsigned expect, struct val_release *rel,
				   struct val_site *site);
void val_release_undo(const struct val_call *call, const void *ptr,
		      const struct val_release *rel, ze_result_t res);
/* Caller holds s->lock, r is the LIVE record of a release that may
 * release it: retire it, unlock s, count the call. Without backtraces,
 * a thread in the registry keeps r as its own (freed), in its slot of s,
 * and the record that slot held goes back (val_own_publish). */
static inline __attribute__((always_inline)) void
val_release_live(const struct val_config *cfg, unsigned ep,
		 struct val_handle *hctx, _Atomic uint64_t *cn,
		 struct val_shard *s,
		 struct val_rec *r, uintptr_t b, struct val_site *site,
		 struct val_release *rel)
{
	/* The common case: retire it before the driver frees it, so
	 * another thread that gets the same addresses meanwhile finds no
	 * live record there. */
	rel->ix = &val_mem_index;
	rel->base = b;
	rel->id = r->id;
	struct val_own *o = &val_hot.own;
	bool sweep;
	if (!cfg->backtrace && o->reg) {
		struct val_rec **w = &o->slot[s - val_shards];
		if (*w)
			sweep = val_own_publish(s, *w);
		else
			sweep = false, o->n++;
		r->okind = r->kind;
		r->ostate = VAL_FREED;
		r->osize = r->size;
		r->free.ep = site->ep;
		r->state = VAL_OWNED;
		*w = r;
		o->mru_base = b;
		o->mru = r;
	} else {
		sweep = val_rec_retire_fast(s, r, site, cfg->backtrace);
	}
	val_spin_unlock(&s->lock);
	if (sweep)
		val_shard_sweep(s);
	if (__builtin_expect(!o->reg, 0) && !cfg->backtrace && val_bias_ok)
		val_own_register();
	val_count_hot(cfg, ep, hctx, cn, 1);  /* taken back if the driver
					       * fails */
}
/* The kinds zeMemFree releases. */
#define VAL_USM_KINDS                                                       \
	((1u << VAL_KIND_HOST) | (1u << VAL_KIND_DEVICE) |                  \
	 (1u << VAL_KIND_SHARED))
/* ks: a record's kind, then its state (kind, state or okind, ostate):
 * live, of a kind in expect, and of context ctx. */
static inline __attribute__((always_inline)) bool
val_release_may_ks(const struct val_rec *r, const uint8_t *ks,
		   ze_context_handle_t ctx, unsigned expect)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (__builtin_constant_p(expect) && expect == VAL_USM_KINDS) {
		/* kind and state in one load: LIVE is 0 and the USM kinds
		 * are the first three, so a live USM record reads below 3. */
		_Static_assert(offsetof(struct val_rec, state) ==
				       offsetof(struct val_rec, kind) + 1 &&
			       offsetof(struct val_rec, ostate) ==
				       offsetof(struct val_rec, okind) + 1 &&
			       VAL_LIVE == 0 && VAL_KIND_SHARED == 2,
			       "kind, state: adjacent; LIVE 0; USM kinds 0-2");
		uint16_t v;
		memcpy(&v, ks, sizeof(v));
		return v < 3 && r->ctx == ctx;
	}
#endif
	return ks[1] == VAL_LIVE && ((expect >> ks[0]) & 1) && r->ctx == ctx;
}
static inline __attribute__((always_inline)) bool
val_release_may(const struct val_rec *r, ze_context_handle_t ctx,
		unsigned expect)
{
	return r && val_release_may_ks(r, &r->kind, ctx, expect);
}
static inline ze_result_t
val_release_begin(const struct val_call *call, ze_context_handle_t ctx,
		  const void *ptr, unsigned expect, struct val_release *rel)
{
	struct val_site site;
	uintptr_t b = (uintptr_t)ptr;
	rel->ix = NULL;
	if (!val_cfg.tracking)
		return ZE_RESULT_SUCCESS;
	val_site_record(&site, call);
	struct val_shard *s = &val_shards[val_shard_index(b)];
	val_spin_lock(&s->lock);
	struct val_rec *r = val_shard_find(s, b);
	if (__builtin_expect(val_release_may(r, ctx, expect), 1)) {
		val_release_live(&val_cfg, call->ep, call->hctx, NULL, s, r,
				 b, &site, rel);
		return ZE_RESULT_SUCCESS;
	}
	val_spin_unlock(&s->lock);
	return val_release_begin_slow(call, ctx, ptr, expect, rel, &site);
}
/* On a hot path (cfg: no backtraces, tracking): the thread's own record
 * at ptr, live and releasable by this call, is freed, with no lock
 * (true; *id: the record's). The caller counts the call. */
static inline __attribute__((always_inline)) bool
val_own_release_try(const struct val_config *cfg, unsigned ep,
		    ze_context_handle_t ctx, const void *ptr, unsigned expect,
		    uint64_t *id, bool mru_only)
{
	uintptr_t b = (uintptr_t)ptr;
	struct val_own *o = &val_hot.own;
	if (!cfg->tracking || cfg->backtrace || !val_own_enter(o))
		return false;
	struct val_rec *w = val_own_at(o, b, mru_only);
	if (w && val_release_may_ks(w, &w->okind, ctx, expect)) {
		w->ostate = VAL_FREED;
		w->free.ep = (uint16_t)ep;
		*id = w->id;
		val_own_leave(o);
		return true;
	}
	val_own_leave(o);
	return false;
}
/* The hot path of val_release_begin (no struct val_call): true when done
 * (the record retired, or no tracking); false when it did nothing and
 * the caller must call val_release_begin. The thread's own record at
 * ptr comes first. */
static inline __attribute__((always_inline)) bool
val_release_try(const struct val_config *cfg, unsigned ep,
		struct val_handle *hctx, _Atomic uint64_t *cn,
		ze_context_handle_t ctx, const void *ptr, unsigned expect,
		struct val_release *rel)
{
	uintptr_t b = (uintptr_t)ptr;
	rel->ix = NULL;
	if (!cfg->tracking)
		return true;
	if (cfg->backtrace)
		return false;
	if (val_own_release_try(cfg, ep, ctx, ptr, expect, &rel->id, false)) {
		rel->ix = &val_mem_index;
		rel->base = b;
		val_count_hot(cfg, ep, hctx, cn, 1);
		return true;
	}
	struct val_site site = { (uint16_t)ep, NULL };
	struct val_shard *s;
	struct val_rec *r = val_shard_lock_find(b, &s);
	if (__builtin_expect(!val_release_may(r, ctx, expect), 0)) {
		val_spin_unlock(&s->lock);
		return false;
	}
	val_release_live(cfg, ep, hctx, cn, s, r, b, &site, rel);
	return true;
}
/* The end of a release: true when done; false when the next layer failed
 * and the caller must call val_release_undo. */
static inline __attribute__((always_inline)) bool
val_release_end_try(const struct val_config *cfg, unsigned ep,
		    struct val_handle *hctx, _Atomic uint64_t *cn,
		    const struct val_release *rel, ze_result_t res)
{
	if (!cfg->tracking)
		return true;
	if (__builtin_expect(res != ZE_RESULT_SUCCESS, 0))
		return false;
	if (!rel->ix)  /* not counted by val_release_begin */
		val_count_hot(cfg, ep, hctx, cn, 1);
	return true;
}
static inline void
val_release_end(const struct val_call *call, const void *ptr,
		const struct val_release *rel, ze_result_t res)
{
	if (!val_release_end_try(&val_cfg, call->ep, call->hctx, NULL, rel,
				 res))
		val_release_undo(call, ptr, rel, res);
}
/* Register a device handle the driver returned (no-op if known). */
void val_device_seen(ze_device_handle_t dev, const struct val_call *call);

/* ---- val_ipc.c ---- */
/* Leak report: handles got and never put. Caller holds the world lock. */
size_t val_ipc_leaks(void);

/* ---- val_context.c / val_leak.c ---- */
/* Live objects of ctx at its zeContextDestroy (call, the driver's res),
 * or of the whole process at exit (call and ctx NULL), and the leak table
 * when the leak checker is on. Retires what the context owned. */
void val_leak_report(const struct val_call *call, ze_context_handle_t ctx,
		     ze_result_t res);
void val_leak_table(const uint64_t *counts, bool per_context,
		    const char *when);
/* Sets val_count_mode from the table's rows (val_init). */
void val_leak_init(void);
void val_leak_fini(void);

#pragma GCC visibility pop

#endif
