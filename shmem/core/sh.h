// SPDX-License-Identifier: MIT
/*
 * sh.h: the bottom floor of libzeshmem (the symmetric-memory runtime):
 * its vocabulary, its one state `sh`, errors and the fatal path.
 *
 * The floors, bottom first. Each is a folder with one header that
 * includes the header of the floor below; a file calls and includes only
 * its own floor and those below (tools/check_floors.py --shmem checks
 * both, from the sources and the object files):
 *   core/       sh.h, sh_core.c: the state, sh_warn / sh_fatal, the
 *               Level Zero error mapping, host identity
 *   boot/       sh_boot.h: the bootstrap (PMIx, unique id and its
 *               server, single PE): all-gather and barrier over the job
 *   mem/        sh_mem.h: the heap (a VMM reservation of chunks, the
 *               control block first), the deterministic sub-allocator,
 *               the program's static data, and the symmetric-address map
 *               (sh_symmap.c): every symmetric region registers there
 *               once, and every "where is pe's copy of this address"
 *               is answered there (sh_remote_ptr, sh_sym_net, ...)
 *   transport/  sh_tr.h: node-local peers (sh_ipc.c), other nodes over
 *               libfabric (sh_ofi_*.c), the peers' liveness (sh_live.c)
 *   ops/        sh_ops.h: put, get, strided, atomics, signals, fence and
 *               quiet (sh_rma.c, sh_atomic.c), waits and wakes
 *               (sh_wait.c)
 *   ctx/        sh_ctx.h: created contexts, ZESHMEM_BACKEND and the
 *               reverse-offload proxy (it diverts the ops through a hook
 *               the ops floor offers: sh_divert)
 *   team/       sh_team.h: teams and their barriers, collectives,
 *               locks, the collective allocation calls (sh_symalloc.c)
 *               and buffer registration (sh_register.c)
 *   init/       sh_init.h: the life cycle (init, finalize, global exit)
 *   faces/      the API names (OpenSHMEM, rocSHMEM, shmemx): call init/
 *               and everything below
 *   tools/      zeshrun (the bootstrap's server), zeshcc, the
 *               benchmarks (the network one's raw libfabric baseline
 *               calls the transport)
 * Above the library: wholememory/ and python/ use the public headers
 * (api/) only.
 * A lower floor that must act on a higher one's behalf gets a hook that
 * the higher one registers (the ops' sh_divert, filled by the proxy).
 *
 * Vocabulary
 *   PE        a process of the job; me = this PE, npes = how many.
 *   boot      the bootstrap: a key-value exchange + barrier used only at
 *             init, at heap growth and at finalize.
 *   heap      this PE's symmetric heap: one zeVirtualMemReserve'd range
 *             backed by zePhysicalMem objects (chunks); the first
 *             SH_CTRL_SIZE bytes of chunk 0 are the runtime's control
 *             block (barrier words, team slots, failure flags), the user
 *             heap starts after it.
 *   alloc     the deterministic sub-allocator over the user heap: the same
 *             sequence of calls gives the same offsets on every PE.
 *   region    a range of this PE that peers address (a heap chunk, the
 *             static data, a registered buffer): the symmetric-address
 *             map's unit.
 *   peer      another PE as this PE reaches it: node-local peers through
 *             their memory opened by IPC; other nodes through libfabric.
 *   team      an ordered subset of the PEs (world, shared, splits).
 *   backend   ZESHMEM_BACKEND: auto, ipc, gda (transport choices) or ro
 *             (every operation queued to a proxy thread).
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

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <level_zero/ze_api.h>

#define SH_HIDDEN __attribute__((visibility("hidden")))

/* A memory fence. ThreadSanitizer does not model fences (GCC refuses
 * them there): under it, a read-modify-write of one word with the same
 * order stands in (a full fence on the hardware too). */
#if defined(__SANITIZE_THREAD__)
SH_HIDDEN extern uint32_t sh_fence_word;
#define SH_FENCE(order) ((void)__atomic_fetch_add(&sh_fence_word, 0, (order)))
#else
#define SH_FENCE(order) __atomic_thread_fence(order)
#endif


struct sh_boot;   /* boot/sh_boot.h */
struct sh_ctrl;   /* mem/sh_mem.h: the control block */

/* ---- runtime state (init/sh_init.c writes it; core/sh_core.c) -------- */

enum sh_copy_mode { SH_COPY_AUTO, SH_COPY_DIRECT, SH_COPY_ENGINE };
enum sh_transport_mode {
	SH_TRANSPORT_AUTO, SH_TRANSPORT_IPC, SH_TRANSPORT_OFI,
};

/* ZESHMEM_BACKEND: how an operation reaches its target (sh_proxy.c). */
enum sh_backend {
	SH_BACKEND_AUTO, SH_BACKEND_IPC, SH_BACKEND_RO, SH_BACKEND_GDA,
};

struct sh_peer;   /* sh_ipc.c: a node-local peer's mapped heap chunks */
struct sh_team;   /* sh_team.c; the public shmem_team_t points to one */
struct sh_ctx;    /* sh_rma.c; the public shmem_ctx_t points to one */

/* A peer as this PE sees it (transport/). Where its memory is mapped is
 * the symmetric-address map's (mem/sh_symmap.c). */
struct sh_peer {
	struct sh_ctrl *ctrl;             /* pe's control block (mapped) */
	int pidfd;                        /* node-local peers, -1 else */
	bool local, dead;
	bool net;                         /* reached over libfabric */
};

struct sh_state {
	int initialized;                  /* 1 between init and finalize */
	int me, npes;
	int thread_level;                 /* SHMEM_THREAD_* granted */
	struct sh_boot *boot;
	/* Level Zero objects used by the runtime (public API only). */
	ze_driver_handle_t zdrv;
	ze_device_handle_t zdev;
	ze_context_handle_t zctx;
	/* identity */
	uint64_t host_hash;               /* hostname + boot id */
	bool one_host;                    /* every PE has this host_hash */
	pid_t *pids;                      /* [npes] */
	int *node_of;                     /* [npes]: node index of each PE */
	int my_node, node_npes, node_rank;
	/* transport */
	enum sh_copy_mode copy;
	enum sh_transport_mode transport; /* ZESHMEM_TRANSPORT / _FORCE_NETWORK */
	bool heap_host_accessible;
	bool check_symmetry;              /* ZESHMEM_CHECK_SYMMETRY */
	unsigned timeout_s;
	/* peers (transport/sh_ipc.c): [npes] */
	struct sh_peer *peers;
	/* the copy engine (ops/sh_rma.c), created when copy != DIRECT */
	ze_command_list_handle_t cl_sync, cl_async;
	ze_event_pool_handle_t evpool;
	ze_event_handle_t ev;
	bool async_pending;
	enum sh_backend backend;          /* ZESHMEM_BACKEND (sh_proxy.c) */
};

SH_HIDDEN extern struct sh_state sh;

/* What the next sh_init uses instead of an option (shmemx_set_heap_size,
 * shmemx_set_copy_mode: the language bindings' init attributes): heap
 * bytes (0: ZESHMEM_SYMMETRIC_SIZE), copy mode (-1: ZESHMEM_COPY). */
SH_HIDDEN extern size_t sh_req_heap_size;
SH_HIDDEN extern int sh_req_copy;
/* One line "zeshmem: PE <me>: <call>: <fmt...>" on stderr (the call goes
 * on: a warning). */
SH_HIDDEN void sh_warn(const char *call, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* One line "zeshmem: PE <me>: <call>: <fmt...>" on stderr, then exit(1)
 * (the job's launcher then ends the other PEs). */
SH_HIDDEN _Noreturn void sh_fatal(const char *call, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Ends with sh_fatal("call", "not initialized") when shmem_init was not
 * called. */
SH_HIDDEN void sh_check_init(const char *call);
/* The one place a ze_result_t becomes -errno inside the runtime. */
SH_HIDDEN int sh_ze_err(ze_result_t r);
/* Host identity: FNV-1a of hostname and /proc/sys/kernel/random/boot_id
 * (of ZESHMEM_HOST_ID instead when it is set). */
SH_HIDDEN uint64_t sh_host_identity(void);
/* An entry point newer than the loader may have: the loader's own, else
 * the driver's (zeDriverGetExtensionFunctionAddress); NULL: neither. */
SH_HIDDEN void *sh_ze_sym(const char *name);

/* ---- the operations' vocabulary (ops/, ctx/, transport/) -------------- */

/* A context: operations on it are ordered by its fence and completed by
 * its quiet. sh_ctx_default (NULL means it too) uses sh.cl_async & co.;
 * the others (sh_ctx.c) have, in copy-engine mode, an async command list
 * and event of their own, so that one context's quiet waits for its own
 * nbi copies only. team: the team whose PE numbers the context's
 * operations take (NULL: the world). */
struct sh_ctx {
	long options;
	struct sh_team *team;
	uint32_t magic;                   /* SH_CTX_MAGIC while it exists */
	ze_command_list_handle_t cl_async;
	ze_event_pool_handle_t evpool;
	ze_event_handle_t ev;
	bool async_pending;
	pthread_mutex_t qlock;            /* quiet's event handshake */
	struct sh_ctx *next;              /* the list of created contexts */
	void *net;                        /* its network endpoint, or NULL */
};
#define SH_CTX_MAGIC 0x7a637478u /* "zctx" */
#define SH_CTX_OPTIONS_ALL 7L    /* SERIALIZED | PRIVATE | NOSTORE */
#define SH_CTX_PRIVATE 2L        /* SHMEM_CTX_PRIVATE */


enum sh_amo_op {
	SH_AMO_FETCH, SH_AMO_SET, SH_AMO_SWAP, SH_AMO_CSWAP,
	SH_AMO_ADD, SH_AMO_AND, SH_AMO_OR, SH_AMO_XOR,
};
/* The AMO and wait types, by kind and size. */
enum sh_type {
	SH_T_INT, SH_T_UINT, SH_T_FLOAT,   /* size in the call */
};

/* The values shmem.h gives SHMEM_SIGNAL_* and SHMEM_CMP_* (the faces
 * pass them through unchanged). */
#define SH_SIGNAL_SET 0
#define SH_SIGNAL_ADD 1
enum sh_cmp {
	SH_CMP_EQ = 1, SH_CMP_NE, SH_CMP_GT, SH_CMP_LE, SH_CMP_LT, SH_CMP_GE,
};


#endif
