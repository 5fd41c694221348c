// SPDX-License-Identifier: MIT
/*
 * sh.h: libzeshmem's one private header (the symmetric-memory runtime).
 *
 * Vocabulary
 *   PE        a process of the job; me = this PE, npes = how many.
 *   boot      the bootstrap: a key-value exchange + barrier used only at
 *             init, at heap growth and at finalize (sh_boot_*.c, one file
 *             per backend: PMIx, unique id over TCP, single PE).
 *   heap      this PE's symmetric heap: one zeVirtualMemReserve'd range
 *             backed by zePhysicalMem objects (chunks); the first
 *             SH_CTRL_SIZE bytes of chunk 0 are the runtime's control
 *             block (barrier words, team slots, failure flags), the user
 *             heap starts after it. sh_heap.c
 *   alloc     the deterministic sub-allocator over the user heap: the same
 *             sequence of calls gives the same offsets on every PE.
 *             sh_alloc.c
 *   peer      another PE as this PE reaches it: node-local peers through
 *             their heap opened by IPC (sh_tr_ipc.c); other nodes through
 *             libfabric (sh_tr_ofi.c, part 2).
 *   team      an ordered subset of the PEs (world, shared, splits).
 *             sh_team.c
 *
 * Errors: every internal function returns 0 (or a value >= 0) or -errno.
 * The faces (faces/) turn them into the API's result, or, for void API
 * calls, into sh_fatal(): one line "zeshmem: PE <me>: <call>: <what>" on
 * stderr and exit(1)... (never a write outside the symmetric heap).
 *
 * Threads: the runtime state is written at init/finalize and at
 * collective calls (which the program serialises per team); RMA and AMO
 * may be called from any thread (SHMEM_THREAD_MULTIPLE).
 *
 * Logging: u_log with topic "shmem" (ZEMEM_LOG_LEVEL=warn,shmem:debug).
 * Options: the ZESHMEM_* rows of common/u_options.c.
 */
#ifndef ZEMEM_SH_H
#define ZEMEM_SH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <level_zero/ze_api.h>

#define SH_HIDDEN __attribute__((visibility("hidden")))

/* ---- bootstrap (sh_boot.c dispatches; sh_boot_pmix.c, sh_boot_uid.c,
 * sh_boot_single.c implement) ------------------------------------------ */

/* The unique id's bytes, as the public shmemx_uniqueid_t carries them:
 * { magic, version, family, port, address, job nonce }. */
#define SH_UID_BYTES 128

struct sh_boot;

struct sh_boot_ops {
	const char *name;                 /* "pmix", "uid", "single" */
	/* Every PE passes len bytes; all receives npes * len bytes in rank
	 * order. Collective over the whole job. */
	int (*allgather)(struct sh_boot *b, const void *mine, size_t len,
			 void *all);
	/* Collective over the whole job. */
	int (*barrier)(struct sh_boot *b);
	/* Ends the job's other PEs with status (shmem_global_exit); may
	 * return if it cannot, the caller then exits itself. */
	void (*abort_job)(struct sh_boot *b, int status);
	void (*fini)(struct sh_boot *b);
};

struct sh_boot {
	const struct sh_boot_ops *ops;
	int rank, nranks;
	int local_rank;                   /* -1: unknown until the host exchange */
	unsigned timeout_s;               /* ZESHMEM_TIMEOUT */
	void *priv;
};

/* Opens the bootstrap. uid != NULL: the unique-id path with rank/nranks as
 * given (shmemx_init_attr). uid == NULL: ZESHMEM_BOOTSTRAP decides (auto:
 * PMIx when PMIX_RANK is set, else ZESHMEM_UNIQUEID + ZESHMEM_RANK +
 * ZESHMEM_NRANKS, else single PE). 0 or -errno (message logged). */
SH_HIDDEN int sh_boot_open(const void *uid, int rank, int nranks,
			   struct sh_boot **out);
SH_HIDDEN void sh_boot_close(struct sh_boot *b);
/* Root side of the unique id: binds the listening socket (ZESHMEM_BOOT_IFACE)
 * and fills uid (SH_UID_BYTES). The socket is kept for the later
 * sh_boot_open(uid, 0, n) of the same process. */
SH_HIDDEN int sh_boot_uid_create(void *uid);
/* Encode / decode the id as hex text (ZESHMEM_UNIQUEID). */
SH_HIDDEN void sh_boot_uid_to_hex(const void *uid, char *hex /* 2*SH_UID_BYTES+1 */);
SH_HIDDEN int sh_boot_uid_from_hex(const char *hex, void *uid);

/* ---- runtime state (sh_init.c) ---------------------------------------- */

enum sh_copy_mode { SH_COPY_AUTO, SH_COPY_DIRECT, SH_COPY_ENGINE };

struct sh_peer;   /* sh_tr_ipc.c: a node-local peer's mapped heap chunks */
struct sh_team;   /* sh_team.c; the public shmem_team_t points to one */
struct sh_ctx;    /* sh_rma.c; the public shmem_ctx_t points to one */

struct sh_state {
	int initialized;                  /* init count; 0 after finalize */
	int me, npes;
	int thread_level;                 /* SHMEM_THREAD_* granted */
	struct sh_boot *boot;
	/* Level Zero objects used by the runtime (public API only). */
	ze_driver_handle_t zdrv;
	ze_device_handle_t zdev;
	ze_context_handle_t zctx;
	/* identity */
	uint64_t host_hash;               /* hostname + boot id */
	pid_t *pids;                      /* [npes] */
	int *node_of;                     /* [npes]: node index of each PE */
	int my_node, node_npes, node_rank;
	/* transport */
	enum sh_copy_mode copy;
	bool heap_host_accessible;
	unsigned timeout_s;
};

SH_HIDDEN extern struct sh_state sh;

/* init/finalize: uid == NULL -> environment bootstrap (sh_boot_open). */
SH_HIDDEN int sh_init(const void *uid, int rank, int nranks, int thread_req,
		      int *thread_got);
SH_HIDDEN int sh_finalize(void);
/* One line "zeshmem: PE <me>: <call>: <fmt...>" on stderr, then exit(1)
 * (the job's launcher then ends the other PEs). */
SH_HIDDEN _Noreturn void sh_fatal(const char *call, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
SH_HIDDEN _Noreturn void sh_global_exit(int status);
/* Ends with sh_fatal("call", "not initialized") when shmem_init was not
 * called. */
SH_HIDDEN void sh_check_init(const char *call);

/* ---- heap and allocator (sh_heap.c, sh_alloc.c) ------------------------ */

/* Bytes of chunk 0 kept for the runtime (barriers, team slots, ...). */
#define SH_CTRL_SIZE (64 * 1024)
#define SH_DEFAULT_ALIGN 128

/* Local heap: [base, base + size) is every byte peers may address
 * (control block included); grows by chunks inside a collective call. */
SH_HIDDEN void *sh_heap_base(void);
SH_HIDDEN size_t sh_heap_size(void);
/* Offset of a local address in the heap, or -EFAULT when [p, p+len) is not
 * wholly inside the heap (len 0: p itself must be inside). */
SH_HIDDEN ptrdiff_t sh_heap_offset(const void *p, size_t len);

/* Collective allocation (malloc = allocate, then barrier; free = barrier,
 * then free). who names the API call for warnings. Return NULL (with a
 * warning on stderr naming who and the rule for invalid arguments) when it
 * cannot be satisfied; the barrier is entered on every path. */
SH_HIDDEN void *sh_malloc(size_t size, size_t align, const char *who);
SH_HIDDEN void *sh_calloc(size_t count, size_t size, const char *who);
SH_HIDDEN void *sh_realloc(void *ptr, size_t size, const char *who);
SH_HIDDEN void sh_free(void *ptr, const char *who);

/* ---- addressing (sh_tr_ipc.c) ----------------------------------------- */

/* Where this PE reaches pe's copy of the local symmetric address p:
 * NULL when pe is not node-local (or p is not symmetric). len bytes from p
 * must be inside the symmetric region. */
SH_HIDDEN void *sh_remote_ptr(const void *p, size_t len, int pe);

/* ---- RMA, AMO, signals, ordering (sh_rma.c, sh_atomic.c) --------------- */

/* The default context; every operation takes a context (NULL = default). */
SH_HIDDEN extern struct sh_ctx sh_ctx_default;

/* dest is a symmetric address (the remote side), src a local one for put;
 * for get, src is symmetric and dest local. nbi != 0: may return before
 * the source may be reused / the data arrived; completion at quiet.
 * 0, or -EINVAL (pe out of range), -EFAULT (not symmetric), -EOVERFLOW,
 * -EHOSTDOWN (the peer died), -EIO (a copy failed). */
SH_HIDDEN int sh_put(struct sh_ctx *c, void *dest, const void *src,
		     size_t nbytes, int pe, int nbi);
SH_HIDDEN int sh_get(struct sh_ctx *c, void *dest, const void *src,
		     size_t nbytes, int pe, int nbi);
/* Strided: element size esize, strides in elements (OpenSHMEM iput/iget). */
SH_HIDDEN int sh_iput(struct sh_ctx *c, void *dest, const void *src,
		      ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
		      size_t esize, int pe);
SH_HIDDEN int sh_iget(struct sh_ctx *c, void *dest, const void *src,
		      ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
		      size_t esize, int pe);

enum sh_amo_op {
	SH_AMO_FETCH, SH_AMO_SET, SH_AMO_SWAP, SH_AMO_CSWAP,
	SH_AMO_ADD, SH_AMO_AND, SH_AMO_OR, SH_AMO_XOR,
};
/* The AMO and wait types, by kind and size. */
enum sh_type {
	SH_T_INT, SH_T_UINT, SH_T_FLOAT,   /* size in the call */
};
/* One atomic on pe's dest of esize bytes (4 or 8; 1/2 for wait types
 * only). value/cond point to esize bytes; fetched (may be NULL for the
 * non-fetching forms) receives the old value. dest must be esize-aligned
 * (-EINVAL otherwise). */
SH_HIDDEN int sh_amo(struct sh_ctx *c, enum sh_amo_op op, enum sh_type t,
		     size_t esize, void *dest, const void *value,
		     const void *cond, void *fetched, int pe);

/* sig_op: SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD. The payload is visible
 * at pe whenever the signal is. */
SH_HIDDEN int sh_put_signal(struct sh_ctx *c, void *dest, const void *src,
			    size_t nbytes, uint64_t *sig_addr, uint64_t signal,
			    int sig_op, int pe, int nbi);
SH_HIDDEN uint64_t sh_signal_fetch(const uint64_t *sig_addr);

SH_HIDDEN int sh_fence(struct sh_ctx *c);
SH_HIDDEN int sh_quiet(struct sh_ctx *c);

/* ---- point synchronisation (sh_sync.c) --------------------------------- */

/* cmp: SHMEM_CMP_*. Waits until *ivar cmp value holds (ivar local and
 * symmetric or not). Spins briefly, then sleeps (futex); 0 or -ETIMEDOUT
 * / -EHOSTDOWN when a PE the job depends on died. */
SH_HIDDEN int sh_wait_until(volatile void *ivar, enum sh_type t,
			    size_t esize, int cmp, const void *value);
SH_HIDDEN int sh_test(volatile void *ivar, enum sh_type t, size_t esize,
		      int cmp, const void *value);
/* Wakes waiters sleeping on a word of pe's heap (after a remote store). */
SH_HIDDEN void sh_wake(void *remote_addr);

/* ---- teams and collectives' synchronisation (sh_team.c) ---------------- */

struct sh_team_cfg {
	int num_contexts;
};

SH_HIDDEN extern struct sh_team *sh_team_world, *sh_team_shared;
SH_HIDDEN int sh_team_my_pe(const struct sh_team *t);
SH_HIDDEN int sh_team_n_pes(const struct sh_team *t);
/* PE of team t at index i in the world, -1 when out of range. */
SH_HIDDEN int sh_team_world_pe(const struct sh_team *t, int i);
SH_HIDDEN int sh_team_translate(const struct sh_team *src, int pe,
				const struct sh_team *dst);
/* Collective over parent; *out = NULL for PEs outside the new team. */
SH_HIDDEN int sh_team_split_strided(struct sh_team *parent, int start,
				    int stride, int size,
				    const struct sh_team_cfg *cfg,
				    long cfg_mask, struct sh_team **out);
SH_HIDDEN int sh_team_split_2d(struct sh_team *parent, int xrange,
			       const struct sh_team_cfg *xcfg, long xmask,
			       struct sh_team **x,
			       const struct sh_team_cfg *ycfg, long ymask,
			       struct sh_team **y);
SH_HIDDEN int sh_team_get_config(const struct sh_team *t, long mask,
				 struct sh_team_cfg *cfg);
SH_HIDDEN void sh_team_destroy(struct sh_team *t);
/* barrier = quiet + sync; sync = arrive/wait of the team's PEs only. */
SH_HIDDEN int sh_team_sync(struct sh_team *t);
SH_HIDDEN int sh_barrier(struct sh_team *t);

#endif
