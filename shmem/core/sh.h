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
 *   backend   ZESHMEM_BACKEND: auto, ipc, gda (transport choices) or ro
 *             (every operation queued to a proxy thread). sh_proxy.c
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
	/* Optional. The PE the bootstrap knows dead (its server lost it),
	 * -1 none; cheap, any thread (every wait on a peer of another node
	 * asks it, sh_sync.c). */
	int (*dead_pe)(struct sh_boot *b);
	/* Optional. The IPv4 address (text) of this PE's end of its
	 * bootstrap connection: the interface the bootstrap uses
	 * (sh_tr_ofi.c binds its endpoints there); 0 or -errno. */
	int (*local_addr)(struct sh_boot *b, char *buf, size_t len);
};

struct sh_boot {
	const struct sh_boot_ops *ops;
	int rank, nranks;
	int local_rank;                   /* -1: unknown until the host exchange */
	unsigned timeout_s;               /* ZESHMEM_TIMEOUT */
	/* Set by the runtime (sh_init.c): what a backend that ends the
	 * process with _exit (an ABORT from the job) runs first. */
	void (*before_exit)(void);
	void *priv;
};

/* Opens the bootstrap. uid != NULL: the unique-id path with rank/nranks as
 * given (shmemx_init_attr). uid == NULL: ZESHMEM_BOOTSTRAP decides (auto:
 * PMIx when PMIX_RANK is set, else ZESHMEM_UNIQUEID + ZESHMEM_RANK +
 * ZESHMEM_NRANKS, else single PE). 0 or -errno (message logged). */
SH_HIDDEN int sh_boot_open(const void *uid, int rank, int nranks,
			   struct sh_boot **out);
SH_HIDDEN void sh_boot_close(struct sh_boot *b);
/* Root side of the unique id: binds the listening socket
 * (ZESHMEM_BOOT_IFACE, else loopback) and fills uid (SH_UID_BYTES). The
 * socket is kept for the later sh_boot_open(uid, 0, n) of the same
 * process. */
SH_HIDDEN int sh_boot_uid_create(void *uid);
/* Encode / decode the id as hex text (ZESHMEM_UNIQUEID). */
SH_HIDDEN void sh_boot_uid_to_hex(const void *uid, char *hex /* 2*SH_UID_BYTES+1 */);
SH_HIDDEN int sh_boot_uid_from_hex(const char *hex, void *uid);

/* ---- runtime state (sh_init.c) ---------------------------------------- */

enum sh_copy_mode { SH_COPY_AUTO, SH_COPY_DIRECT, SH_COPY_ENGINE };
enum sh_transport_mode {
	SH_TRANSPORT_AUTO, SH_TRANSPORT_IPC, SH_TRANSPORT_OFI,
};

/* ZESHMEM_BACKEND: how an operation reaches its target (sh_proxy.c). */
enum sh_backend {
	SH_BACKEND_AUTO, SH_BACKEND_IPC, SH_BACKEND_RO, SH_BACKEND_GDA,
};

struct sh_peer;   /* sh_tr_ipc.c: a node-local peer's mapped heap chunks */
struct sh_team;   /* sh_team.c; the public shmem_team_t points to one */
struct sh_ctx;    /* sh_rma.c; the public shmem_ctx_t points to one */

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
	/* peers (sh_tr_ipc.c): [npes]; peer_base0[pe] is where this PE
	 * mapped pe's chunk 0 (its own heap base for me, NULL when pe is not
	 * node-local): the hot path's one lookup. */
	struct sh_peer *peers;
	char **peer_base0;
	/* the copy engine (sh_rma.c), created when copy != DIRECT */
	ze_command_list_handle_t cl_sync, cl_async;
	ze_event_pool_handle_t evpool;
	ze_event_handle_t ev;
	bool async_pending;
	enum sh_backend backend;          /* ZESHMEM_BACKEND (sh_proxy.c) */
};

SH_HIDDEN extern struct sh_state sh;

/* init/finalize: uid == NULL -> environment bootstrap (sh_boot_open).
 * A second init is a no-op returning 0; thread_got = thread_req clamped
 * to 0..3 (SHMEM_THREAD_SINGLE..MULTIPLE: all are supported). 0 or
 * -errno (-ENODEV no driver/device, -EOPNOTSUPP a heap the host cannot
 * reach, -EINVAL PEs with different ZESHMEM_SYMMETRIC_SIZE, ...).
 * finalize: barrier over the world, then every resource released. */
SH_HIDDEN int sh_init(const void *uid, int rank, int nranks, int thread_req,
		      int *thread_got);
/* What the next sh_init uses instead of an option (shmemx_set_heap_size,
 * shmemx_set_copy_mode: the language bindings' init attributes): heap
 * bytes (0: ZESHMEM_SYMMETRIC_SIZE), copy mode (-1: ZESHMEM_COPY). */
SH_HIDDEN extern size_t sh_req_heap_size;
SH_HIDDEN extern int sh_req_copy;
SH_HIDDEN int sh_finalize(void);
/* One line "zeshmem: PE <me>: <call>: <fmt...>" on stderr (the call goes
 * on: a warning). */
SH_HIDDEN void sh_warn(const char *call, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* One line "zeshmem: PE <me>: <call>: <fmt...>" on stderr, then exit(1)
 * (the job's launcher then ends the other PEs). */
SH_HIDDEN _Noreturn void sh_fatal(const char *call, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
SH_HIDDEN _Noreturn void sh_global_exit(int status);
/* Ends with sh_fatal("call", "not initialized") when shmem_init was not
 * called. */
SH_HIDDEN void sh_check_init(const char *call);
/* The one place a ze_result_t becomes -errno inside the runtime. */
SH_HIDDEN int sh_ze_err(ze_result_t r);
/* The other files' init/fini steps, in sh_init's order. */
SH_HIDDEN int sh_rma_init(void);
SH_HIDDEN void sh_rma_fini(void);
SH_HIDDEN int sh_team_init(void);
SH_HIDDEN void sh_team_fini(void);
/* Host identity: FNV-1a of hostname and /proc/sys/kernel/random/boot_id
 * (of ZESHMEM_HOST_ID instead when it is set). */
SH_HIDDEN uint64_t sh_host_identity(void);
/* 0 when pe's process is alive, -EHOSTDOWN when it ended (node-local PEs:
 * its pidfd; others: the bootstrap's dead_pe, else assumed alive). Marks
 * it dead for later calls. */
SH_HIDDEN int sh_pe_check_alive(int pe);
/* The PE the bootstrap knows dead (sh_boot_ops.dead_pe), marked dead
 * (logged once); -1 none or unknown. */
SH_HIDDEN int sh_boot_dead_news(void);

/* ---- heap and allocator (sh_heap.c, sh_alloc.c) ------------------------ */

/* Bytes of chunk 0 kept for the runtime (barriers, team slots, ...). */
#define SH_CTRL_SIZE (64 * 1024)
#define SH_DEFAULT_ALIGN 128
#define SH_MAX_CHUNKS 64
#define SH_MAX_TEAMS 64      /* team slots in the control block */
#define SH_BAR_ROUNDS 16     /* dissemination rounds: teams up to 65536 */

/* The control block: the first SH_CTRL_SIZE bytes of every PE's heap.
 * Peers write into it through their mapping of this PE's heap; the
 * futex words are in shared memory (FUTEX_WAIT without _PRIVATE).
 *   sleepers/wait_off/doorbell  a data wait (wait_until, signal waits)
 *             of this PE that sleeps adds itself to sleepers, names the
 *             heap offset it waits on in wait_off (SH_WAIT_STATIC + its
 *             offset for a static-data word; SH_WAIT_ANY when two
 *             waits sleep at once or the word is not in the heap), and
 *             sleeps on doorbell; a writer (put, AMO, signal) that sees
 *             sleepers != 0 after its store and a full fence, and a
 *             wait_off inside what it wrote, bumps doorbell and
 *             FUTEX_WAKEs it. Puts into other words wake nobody.
 *   bar_sleepers/bar_doorbell  the same for barrier rounds (woken by
 *             barrier arrivals only).
 *   team_mask the team slots this PE uses (read by the parent's PEs when
 *             a split picks the new team's slot).
 *   slot_epoch per team slot, the last epoch this PE reached in it (left
 *             there when its team was destroyed; a split starts the new
 *             team of the slot above every member's).
 *   sym       {offset, size} of the last collective allocation, by
 *             parity of the allocation count (ZESHMEM_CHECK_SYMMETRY).
 *   bar       per team slot, per dissemination round: the epoch of the
 *             last barrier whose round-r message reached this PE. */
struct sh_ctrl {
	uint32_t magic;
	uint32_t pad0[15];
	uint32_t sleepers;
	uint32_t pad1;
	uint64_t wait_off;
	uint32_t pad2[12];
	uint32_t doorbell;
	uint32_t pad3[15];
	uint32_t bar_sleepers;
	uint32_t pad4[15];
	uint32_t bar_doorbell;
	uint32_t pad5[15];
	uint64_t team_mask;
	uint64_t sym[2][2];
	uint64_t padt[3];
	uint32_t slot_epoch[SH_MAX_TEAMS];
	uint8_t padx[4096 - 384 - 4 * SH_MAX_TEAMS];
	struct {
		struct {
			uint32_t epoch;
			uint32_t pad[7];
		} round[SH_BAR_ROUNDS];
	} bar[SH_MAX_TEAMS];
};
#define SH_CTRL_MAGIC 0x7a736863u /* "zshc" */
#define SH_WAIT_ANY UINT64_MAX
_Static_assert(sizeof(struct sh_ctrl) <= SH_CTRL_SIZE, "control block");

struct sh_chunk {
	uint64_t off, size;               /* in the reservation */
	ze_physical_mem_handle_t phys;
};

struct sh_heap {
	char *base;                       /* reservation base = chunk 0 */
	size_t reserved;                  /* the VA window */
	size_t size;                      /* mapped: sum of chunks */
	size_t chunk0_size;
	unsigned nchunks;
	struct sh_chunk chunk[SH_MAX_CHUNKS];
	size_t max_align;                 /* largest alignment honoured */
	struct sh_alloc *alloc;
	uint64_t nallocs;                 /* collective allocation count */
	bool on_host;                     /* ZESHMEM_HEAP_MEMORY=host */
};
SH_HIDDEN extern struct sh_heap sh_heap;

SH_HIDDEN int sh_heap_init(void);
SH_HIDDEN void sh_heap_fini(void);
/* Collective: every PE maps one more chunk of at least min_bytes (the
 * same size everywhere), adds it to the allocator as a region of its own,
 * and opens its peers' new chunks (sh_tr_ipc_add_chunk). */
SH_HIDDEN int sh_heap_grow(size_t min_bytes);
SH_HIDDEN struct sh_ctrl *sh_ctrl_local(void);

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

/* The sub-allocator itself (sh_alloc.c; no runtime state, unit-tested on
 * its own). Offsets and sizes in bytes, multiples of SH_ALLOC_GRANULE;
 * regions never merge (a block lies in one chunk). 0 or -errno:
 * -EINVAL bad argument / unknown offset, -ENOMEM nothing fits. */
#define SH_ALLOC_GRANULE 128
struct sh_alloc;
struct sh_alloc_stats {
	uint64_t total, used, largest_free;
	uint64_t free_blocks, used_blocks, regions;
};
SH_HIDDEN int sh_alloc_create(struct sh_alloc **out);
SH_HIDDEN void sh_alloc_destroy(struct sh_alloc *a);
SH_HIDDEN int sh_alloc_add(struct sh_alloc *a, uint64_t off, uint64_t size);
SH_HIDDEN int sh_alloc_alloc(struct sh_alloc *a, size_t size, size_t align,
			     uint64_t *off);
SH_HIDDEN int sh_alloc_free(struct sh_alloc *a, uint64_t off);
/* Usable bytes of the block at off, or -EINVAL. */
SH_HIDDEN int64_t sh_alloc_size(const struct sh_alloc *a, uint64_t off);
/* Grows or shrinks the block at off in place: 0, -ENOMEM (no room). */
SH_HIDDEN int sh_alloc_resize(struct sh_alloc *a, uint64_t off, size_t size);
SH_HIDDEN void sh_alloc_stats(const struct sh_alloc *a,
			      struct sh_alloc_stats *st);

/* ---- addressing (sh_tr_ipc.c) ----------------------------------------- */

/* Where this PE reaches pe's copy of the local symmetric address p:
 * NULL when pe is out of range or not node-local, or when [p, p + len)
 * (len 0: p) is not wholly inside one chunk of the user heap (the control
 * block is the runtime's: no API call reaches it) nor wholly inside the
 * program's static data (sh_static_remote). pe == me: p itself.
 * Never a pointer outside pe's heap or static data. */
SH_HIDDEN void *sh_remote_ptr(const void *p, size_t len, int pe);

struct sh_peer {
	char *chunk[SH_MAX_CHUNKS];       /* where chunk k of pe is mapped */
	struct sh_ctrl *ctrl;             /* pe's control block (mapped) */
	int pidfd;                        /* node-local peers, -1 else */
	bool local, dead;
	bool net;                         /* reached through sh_tr_ofi.c */
};
/* Init: export the heap (one physical-range handle), all-gather {host
 * identity, pid, handle} over the bootstrap, open every node peer's
 * heap. Fills sh.pids, sh.node_of, sh.peers, ... */
SH_HIDDEN int sh_tr_ipc_init(void);
SH_HIDDEN void sh_tr_ipc_fini(void);
/* Collective (heap growth): export chunk k, all-gather, open the peers'. */
SH_HIDDEN int sh_tr_ipc_add_chunk(unsigned k);

/* The hot path of sh_remote_ptr: chunk 0, inline. */
static inline void *
sh_remote_fast(const void *p, size_t len, int pe)
{
	uintptr_t off = (uintptr_t)p - (uintptr_t)sh_heap.base - SH_CTRL_SIZE;
	size_t user0 = sh_heap.chunk0_size - SH_CTRL_SIZE;
	char *b = sh.peer_base0[pe];
	if (off < user0 && len <= user0 - off && b)
		return b + SH_CTRL_SIZE + off;
	return sh_remote_ptr(p, len, pe);
}

/* IPC of other ranges than the heap (sh_reg.c's symmetric registrations):
 * export [p, p + size) of VMM memory as one physical-range handle, open a
 * handle (a fresh local mapping), put an export back. 0 or -errno. */
SH_HIDDEN int sh_tr_ipc_export(ze_context_handle_t ctx, const void *p,
			       size_t size, ze_ipc_mem_handle_t *out);
SH_HIDDEN int sh_tr_ipc_open(ze_ipc_mem_handle_t h, int pe, void **out);
SH_HIDDEN void sh_tr_ipc_put(ze_context_handle_t ctx, ze_ipc_mem_handle_t h);
/* An entry point newer than the loader may have: the loader's own, else
 * the driver's (zeDriverGetExtensionFunctionAddress); NULL: neither. */
SH_HIDDEN void *sh_ze_sym(const char *name);

/* ---- user buffer registration (sh_reg.c: the rocSHMEM face's) ---------- */

/* Local registration (rocshmem_buffer_register): [addr, addr + len) may be
 * the local side of RMA; with libfabric it is registered with the NIC once
 * (sh_tr_ofi_reg_local) and its descriptor used by every operation.
 * 0, -EINVAL (NULL, 0 or wrapping), -EEXIST (overlaps a registration),
 * -ENOMEM; del: -ENOENT when addr starts no registration. */
SH_HIDDEN int sh_lreg_add(void *addr, size_t len);
SH_HIDDEN int sh_lreg_del(void *addr);
SH_HIDDEN void sh_lreg_del_all(void);
/* true when [p, p + len) (len 0: p) is inside one local registration. */
SH_HIDDEN bool sh_lreg_holds(const void *p, size_t len);
/* The NIC descriptor of the local registration holding [p, p + len), or
 * NULL (sh_tr_ofi.c's ldesc). */
SH_HIDDEN void *sh_lreg_desc(const void *p, size_t len);
/* Symmetric registration (rocshmem_buffer_register_symmetric): collective;
 * addr must be VMM memory (zeVirtualMemReserve + Map), addr and len
 * multiples of the VMM page size, len equal on every PE, no overlap with a
 * registration, fewer than ZESHMEM_MAX_SYMMETRIC_REGS live. Returns the
 * alias (a fresh mapping of the same physical memory), NULL on EVERY PE
 * when any PE's check failed (each says why on stderr, naming who). */
SH_HIDDEN void *sh_symreg_add(void *addr, size_t len, const char *who);
/* shmemx_set_ze_context: the program's context (NULL: none), in which
 * sh_symreg_add asks about and exports buffers. Any time. */
SH_HIDDEN void sh_symreg_set_ctx(ze_context_handle_t ctx);
/* Collective: quiet, agree, unmap every PE's view of the alias. 0, or
 * -ENOENT on every PE when some PE does not know its alias. */
SH_HIDDEN int sh_symreg_del(void *alias, const char *who);
/* The slow branch of sh_remote_ptr: where this PE reaches pe's copy of
 * [p, p + len) of a symmetric registration's alias, or NULL. */
SH_HIDDEN void *sh_symreg_ptr(const void *p, size_t len, int pe);
/* A stride registration (rocshmem_buffer_register_vmm): [addr, addr +
 * len) is this PE's buffer of a group of n_pes consecutive PEs, this one
 * its my_pe; the program maps the group's PE first + i's copy at addr +
 * (i - my_pe) * stride here. 0; -EINVAL (a bad argument, the group not
 * inside the job, |stride| < len, overlapping the heap), -EEXIST (an
 * overlap with another registration), one warning naming who. */
SH_HIDDEN int sh_strreg_add(void *addr, size_t len, int my_pe, int n_pes,
			    ptrdiff_t stride, const char *who);
/* Forgets the stride registration at addr: 0, or -ENOENT. */
SH_HIDDEN int sh_strreg_del(void *addr);
/* Finalize: every registration released (before the transports). */
SH_HIDDEN void sh_reg_fini(void);
/* The network side of a symmetric registration (sh_tr_ofi.c's raddr and
 * ldesc): for [p, p + len) inside an alias, pe's key and MR base (its
 * alias as a number) and the offset of p in the alias: 0, or -EFAULT
 * when p is in no alias or pe is not reached over the network. desc:
 * this PE's MR descriptor of the alias holding [p, p + len), or NULL. */
SH_HIDDEN int sh_symreg_net(const void *p, size_t len, int pe, uint64_t *off,
			    uint64_t *key, uint64_t *base);
SH_HIDDEN void *sh_symreg_desc(const void *p, size_t len);

/* ---- static data (sh_static.c) ----------------------------------------- */

/* The program's global and static variables (its writable PT_LOAD
 * segment less RELRO) as symmetric memory. [data_lo, data_lo + data_len)
 * is what API calls may address; [map_lo, map_lo + map_len) (page-
 * rounded, data_lo's page first) is what is shared: on one node, a memfd
 * mapped MAP_FIXED over the segment at init (sh_static_swap, before the
 * bootstrap and the driver: no ptrace rights needed), its peers' copies mapped from
 * /proc/<pid>/fd/<n>; over libfabric, one more MR (sh_tr_ofi.c). on:
 * symmetric on every PE (all or nothing, decided at init). Limits: the
 * executable's data only (shared libraries' is not symmetric), PIE or
 * not; the same program on every PE (else init fails naming the PE);
 * threads started before shmem_init must not write static data during
 * init. */
struct sh_static {
	uintptr_t map_lo, data_lo;
	size_t map_len, data_len;
	uint64_t link_lo;                 /* map_lo before relocation */
	bool on, swapped;
	int fd;                           /* the memfd until peers opened it */
	char **view;                      /* [npes]: pe's map_lo as mapped here */
	const char *why;                  /* not symmetric: why (or NULL) */
};
SH_HIDDEN extern struct sh_static sh_static;
/* Wait offsets of static words (ctrl->wait_off): SH_WAIT_STATIC + the
 * offset from map_lo; heap words use their heap offset. */
#define SH_WAIT_STATIC (1ull << 62)
/* First in sh_init: finds the segment and, when the job may have more
 * than one PE (uid with nranks > 1, PMIX_RANK, ZESHMEM_NRANKS > 1), puts
 * it on a memfd; failures only warn (sh_static_init decides). */
SH_HIDDEN int sh_static_swap(const void *uid, int nranks);
SH_HIDDEN int sh_static_init(void);
SH_HIDDEN void sh_static_fini(void);
/* pe's copy of [p, p + len) of static data (p when pe == me), NULL when
 * the range is not wholly static data or pe's is not mapped here. */
SH_HIDDEN void *sh_static_remote(const void *p, size_t len, int pe);
/* Offset of [p, p + len) from map_lo, or -EFAULT when not static data. */
SH_HIDDEN ptrdiff_t sh_static_offset(const void *p, size_t len);
/* SH_WAIT_STATIC + offset for a static word, else SH_WAIT_ANY. */
SH_HIDDEN uint64_t sh_static_wait_off(const void *p);

/* ---- network transport (sh_tr_ofi.c) ---------------------------------- */

/* Init (after sh_tr_ipc_init, which names the node-local peers): opens
 * libfabric when some PE is not node-local (the same decision on every
 * PE), all-gathers addresses and keys, marks the other peers net.
 * Operations take the local symmetric address, like sh_put & co., and
 * check it against the heap and the static data's MR (-EFAULT). The ops are the node-local ones'
 * contracts; amo: esize 4/8, the bits of the value (float included). */
SH_HIDDEN int sh_tr_ofi_init(void);
SH_HIDDEN void sh_tr_ofi_fini(void);
/* Removes the /dev/shm entries of this process's shm endpoints still
 * open (libfabric's shm provider removes one at fi_close only): every
 * exit path the runtime controls calls it (an atexit handler too);
 * async-signal-safe, a no-op in a forked child. */
SH_HIDDEN void sh_tr_ofi_exit_cleanup(void);
SH_HIDDEN bool sh_tr_ofi_active(void);
SH_HIDDEN int sh_tr_ofi_add_chunk(unsigned k);
SH_HIDDEN void sh_tr_ofi_progress(void);
/* Sleeps up to ns (< 1 s), less when the PE's endpoint has something to
 * progress and the provider can tell (a CQ wait fd: tcp). */
SH_HIDDEN void sh_tr_ofi_nap(long ns);
/* Tests: does the PE's endpoint have that wait fd? */
SH_HIDDEN bool sh_tr_ofi_wait_fd(void);
/* c: the context (NULL: the default one); a created context's
 * operations go on its own endpoint (sh_tr_ofi_ctx_open), completed by
 * its own quiet. */
SH_HIDDEN int sh_tr_ofi_quiet(struct sh_ctx *c);
SH_HIDDEN int sh_tr_ofi_fence(struct sh_ctx *c);
SH_HIDDEN int sh_tr_ofi_put(struct sh_ctx *c, void *dest, const void *src,
			    size_t nbytes, int pe, int nbi);
SH_HIDDEN int sh_tr_ofi_get(struct sh_ctx *c, void *dest, const void *src,
			    size_t nbytes, int pe, int nbi);
SH_HIDDEN int sh_tr_ofi_put_signal(struct sh_ctx *c, void *dest,
				   const void *src, size_t nbytes,
				   uint64_t *sig_addr, uint64_t signal,
				   int sig_op, int pe);
/* A created context's endpoint, counter and bounce slots (c->net; NULL
 * when the network is not active or contexts share the PE's endpoint):
 * 0 or -errno. close: after its quiet. */
SH_HIDDEN int sh_tr_ofi_ctx_open(struct sh_ctx *c);
SH_HIDDEN void sh_tr_ofi_ctx_close(struct sh_ctx *c);
/* Atomic max (wrap-safe where emulated) of pe's 32-bit word: barriers. */
SH_HIDDEN int sh_tr_ofi_raise32(void *word, uint32_t e, int pe);
/* The benchmark's baseline: one raw fi_write (0) / fi_read (1) /
 * fi_fetch_atomic FI_SUM (2, local = {u64 val, u64 cmp, u64 res}) and
 * its completion. */
SH_HIDDEN int sh_tr_ofi_raw(int kind, void *sym, void *local, size_t n,
			    int pe);
SH_HIDDEN const char *sh_tr_ofi_provider(void);
/* A local registration's NIC side (sh_reg.c): fi_mr_reg of [p, p + len)
 * once; *mr and *desc NULL when libfabric is not active. 0 or -errno. */
SH_HIDDEN int sh_tr_ofi_reg_local(void *p, size_t len, void **mr,
				  void **desc);
SH_HIDDEN void sh_tr_ofi_unreg_local(void *mr);
/* sh_tr_ofi_mode.c (libfabric builds only; uint64_t are FI_MR_* bits).
 * parse: ZESHMEM_OFI_MR's value -> the mr_mode bits to offer, strict when
 * a bit list (required); -EINVAL for a bad value. check: 0, or
 * -EOPNOTSUPP (logged) when a required bit only the provider can choose
 * is missing from got. delivery_usable: false for providers whose
 * FI_DELIVERY_COMPLETE is broken (logged). */
SH_HIDDEN int sh_ofi_mr_parse(const char *s, uint64_t *offer, bool *strict);
SH_HIDDEN int sh_ofi_mr_check(const char *prov, uint64_t offer, uint64_t got);
SH_HIDDEN bool sh_ofi_delivery_usable(const char *prov);
/* sh_term.c: the launcher's SIGTERM while the network transport is up.
 * arm/disarm: catch it (only when at SIG_DFL) / put the disposition back
 * (and end by it, when it came). overdue: it came over 300 ms ago, so a
 * network operation or wait still unanswered gives up: give_up marks pe
 * (>= 0) dead, logs, returns -EHOSTUNREACH. poll (progress thread): 700
 * ms after it, ends the process by SIGTERM. */
SH_HIDDEN void sh_term_arm(void);
SH_HIDDEN void sh_term_disarm(void);
SH_HIDDEN bool sh_term_overdue(void);
SH_HIDDEN void sh_term_poll(void);
SH_HIDDEN int sh_term_give_up(int pe, const char *what);
/* A symmetric registration's NIC side (sh_reg.c): fi_mr_reg of the alias
 * [p, p + len) for remote read/write/atomics; *key and *base are what
 * the peers need (exchanged by sh_reg.c), *mr is closed with
 * sh_tr_ofi_unreg_local. -EOPNOTSUPP when libfabric is not active or the
 * device's memory is not host-accessible. */
/* 0 when [sym, sym + len) is a remote target on network peer pe (heap,
 * static data or a symmetric alias: raddr's classes), else -EFAULT
 * (-EOPNOTSUPP without libfabric). */
SH_HIDDEN int sh_tr_ofi_check(const void *sym, size_t len, int pe);
SH_HIDDEN int sh_tr_ofi_reg_sym(void *p, size_t len, void **mr, void **desc,
				uint64_t *key, uint64_t *base);

/* ---- RMA, AMO, signals, ordering (sh_rma.c, sh_atomic.c) --------------- */

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
SH_HIDDEN extern struct sh_ctx sh_ctx_default;
/* A new context on team (NULL: the world). 0, -EINVAL (unknown option
 * bits), -ENOMEM, -EIO (the copy engine's objects). */
SH_HIDDEN int sh_ctx_create(struct sh_team *team, long options,
			    struct sh_ctx **out);
/* Quiets c, then frees it. -EINVAL when c is not a created context. */
SH_HIDDEN int sh_ctx_destroy(struct sh_ctx *c);
/* 1 when c is a created context that still exists. */
SH_HIDDEN int sh_ctx_valid(const struct sh_ctx *c);
/* sh_team_destroy: destroys every context made from team (quiet first). */
SH_HIDDEN void sh_ctx_destroy_team(const struct sh_team *team);
/* At finalize, before its barrier: completes every created context's
 * operations (the program may not have destroyed them). */
SH_HIDDEN void sh_ctx_quiet_all(void);
/* At finalize (sh_rma_fini): the contexts the program left. */
SH_HIDDEN void sh_ctx_fini_all(void);
/* The copy engine's lock (sh_rma.c): every append to a command list. */
SH_HIDDEN void sh_engine_lock(void);
SH_HIDDEN void sh_engine_unlock(void);

/* Distributed locks (sh_lock.c) on a symmetric long: an MCS queue whose
 * tail is in PE 0's copy, each PE's own copy its queue node. 0 or
 * -errno; sh_lock_test: 0 acquired, 1 held by another PE. */
SH_HIDDEN int sh_lock_set(long *lock);
SH_HIDDEN int sh_lock_test(long *lock);
SH_HIDDEN int sh_lock_clear(long *lock);

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
SH_HIDDEN int sh_tr_ofi_amo(struct sh_ctx *c, enum sh_amo_op op,
			    size_t esize, void *dest,
			    const void *value, const void *cond,
			    void *fetched, int pe);
SH_HIDDEN int sh_amo(struct sh_ctx *c, enum sh_amo_op op, enum sh_type t,
		     size_t esize, void *dest, const void *value,
		     const void *cond, void *fetched, int pe);

/* The values shmem.h gives SHMEM_SIGNAL_* and SHMEM_CMP_* (the faces
 * pass them through unchanged). */
#define SH_SIGNAL_SET 0
#define SH_SIGNAL_ADD 1
enum sh_cmp {
	SH_CMP_EQ = 1, SH_CMP_NE, SH_CMP_GT, SH_CMP_LE, SH_CMP_LT, SH_CMP_GE,
};

/* sig_op: SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD. The payload is visible
 * at pe whenever the signal is. */
SH_HIDDEN int sh_put_signal(struct sh_ctx *c, void *dest, const void *src,
			    size_t nbytes, uint64_t *sig_addr, uint64_t signal,
			    int sig_op, int pe, int nbi);
SH_HIDDEN uint64_t sh_signal_fetch(const uint64_t *sig_addr);

SH_HIDDEN int sh_fence(struct sh_ctx *c);
SH_HIDDEN int sh_quiet(struct sh_ctx *c);

/* ---- backends and the reverse-offload proxy (sh_proxy.c) ------------- */

/* Reads ZESHMEM_BACKEND into sh.backend and derives sh.transport from it
 * (ipc: node-local only; gda: libfabric for every PE; ro: unchanged).
 * Before the bootstrap; 0 or -EINVAL (bad value, a contrary
 * ZESHMEM_TRANSPORT / _FORCE_NETWORK), -EOPNOTSUPP (gda, no libfabric). */
SH_HIDDEN int sh_backend_select(void);
/* ro: starts the proxy thread (after the transports), joins it after
 * draining its queue. No-ops for the other backends. */
SH_HIDDEN int sh_proxy_init(void);
SH_HIDDEN void sh_proxy_fini(void);
/* The hook at the top of sh_put & co.: true when the call must be
 * queued to the proxy (ro, and not the proxy's own thread). */
SH_HIDDEN extern bool sh_proxy_on;
SH_HIDDEN extern __thread bool sh_proxy_self;
#define SH_PROXY_HOOK() (__builtin_expect(sh_proxy_on, 0) && !sh_proxy_self)
/* The queued forms: the same arguments and results as sh_put & co.; _nbi
 * ones (and fence) return once queued, the others once done. An nbi
 * operation's error is returned by the next quiet or blocking call. */
SH_HIDDEN int sh_proxy_put(struct sh_ctx *c, void *dest, const void *src,
			   size_t nbytes, int pe, int nbi);
SH_HIDDEN int sh_proxy_get(struct sh_ctx *c, void *dest, const void *src,
			   size_t nbytes, int pe, int nbi);
SH_HIDDEN int sh_proxy_strided(struct sh_ctx *c, void *dest, const void *src,
			       ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
			       size_t esize, int pe, bool put);
SH_HIDDEN int sh_proxy_put_signal(struct sh_ctx *c, void *dest,
				  const void *src, size_t nbytes,
				  uint64_t *sig_addr, uint64_t signal,
				  int sig_op, int pe, int nbi);
SH_HIDDEN int sh_proxy_amo(struct sh_ctx *c, enum sh_amo_op op,
			   enum sh_type t, size_t esize, void *dest,
			   const void *value, const void *cond, void *fetched,
			   int pe);
SH_HIDDEN int sh_proxy_fence(struct sh_ctx *c);
SH_HIDDEN int sh_proxy_quiet(struct sh_ctx *c);
/* Tests: hold (1) / release (0) the proxy (it starts no entry while
 * held); entries queued and not finished; entries executed since init;
 * quiets answered by the caller since init (the queue empty and nothing
 * left in flight: not queued, so not among the executed). */
SH_HIDDEN void sh_proxy_hold(int hold);
SH_HIDDEN unsigned sh_proxy_pending(void);
SH_HIDDEN uint64_t sh_proxy_executed(void);
SH_HIDDEN uint64_t sh_proxy_quiets_in_place(void);
/* Tests: spins begun by the idle proxy and by blocking callers since
 * init (ZESHMEM_PROXY_SPIN; both stay 0 where it does not spin). */
SH_HIDDEN void sh_proxy_spins(uint64_t *idle, uint64_t *wait);
#define SH_PROXY_RING 256   /* queue entries; a producer blocks when full */

/* ---- point synchronisation (sh_sync.c) --------------------------------- */

/* cmp: SHMEM_CMP_*; t SH_T_INT (signed compare) or SH_T_UINT; esize 1, 2,
 * 4 or 8, ivar esize-aligned (else -EINVAL). Waits until *ivar cmp value
 * holds (ivar in the heap or the static data: only writes covering it
 * wake the wait; else any write into the heap does). Spins briefly, then sleeps (futex);
 * 0, -EHOSTDOWN when a PE of the node ended (seen within 50 ms),
 * -ETIMEDOUT after ZESHMEM_TIMEOUT seconds when the job has PEs whose
 * end cannot be seen (other nodes). sh_test: 1 holds, 0 not, -EINVAL. */
SH_HIDDEN int sh_wait_until(volatile void *ivar, enum sh_type t,
			    size_t esize, int cmp, const void *value);
SH_HIDDEN int sh_test(volatile void *ivar, enum sh_type t, size_t esize,
		      int cmp, const void *value);
/* Wakes pe's sleeping data waits after a store into its heap (a full
 * fence, one load of pe's sleepers; FUTEX_WAKE only when some wait
 * sleeps). Changed from sh_wake(remote_addr): the doorbell is per PE.
 * sh_wake_range wakes only when the sleeping wait's word is in
 * [dest, dest + len) (dest: the local symmetric address written). */
SH_HIDDEN void sh_wake(int pe);
SH_HIDDEN void sh_wake_range(int pe, const void *dest, size_t len);
SH_HIDDEN void sh_wake_barrier(int pe);
enum sh_wait_kind { SH_WAIT_DATA, SH_WAIT_BARRIER };
/* Waits until pred(arg) holds: spins briefly, then sleeps on this PE's
 * data doorbell, woken by any write into its heap (a wait on several
 * words). watch_pe >= 0: fail when that PE ends; -1: any PE of the job.
 * 0, -EHOSTDOWN (a PE ended), -ETIMEDOUT (ZESHMEM_TIMEOUT). */
SH_HIDDEN int sh_wait_pred(bool (*pred)(void *), void *arg, int watch_pe);
/* The same on the doorbell of kind; word: the one local heap word a data
 * wait is about (writers elsewhere do not wake it), NULL for any. */
SH_HIDDEN int sh_wait_pred_on(bool (*pred)(void *), void *arg, int watch_pe,
			      enum sh_wait_kind kind,
			      const volatile void *word);

/* ---- teams and collectives' synchronisation (sh_team.c) ---------------- */

struct sh_team_cfg {
	int num_contexts;
};

SH_HIDDEN extern struct sh_team *sh_team_world, *sh_team_shared;
/* The team handle names when it is a team that exists (world, shared, or
 * made by a split and not destroyed), else NULL: destroyed and forged
 * handles are told apart without reading their memory. */
SH_HIDDEN struct sh_team *sh_team_live(const void *handle);
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

/* ---- collectives (sh_coll.c) ------------------------------------------ */

/* The team's slot in the control block (its barrier words; sh_coll.c's
 * mailbox words). */
SH_HIDDEN int sh_team_slot(const struct sh_team *t);

/* Per team slot, SH_COLL_WORDS 64-bit words of the control block for the
 * collectives' messages (sh_coll.c), after struct sh_ctrl. */
#define SH_COLL_WORDS 32
#define SH_COLL_CTRL_OFF (SH_CTRL_SIZE - SH_MAX_TEAMS * SH_COLL_WORDS * 8)
_Static_assert(sizeof(struct sh_ctrl) <= SH_COLL_CTRL_OFF, "coll words");

/* A 1.4 active set: the PEs start + i * stride, i < size, with the
 * program's pSync (symmetric, SHMEM_SYNC_VALUE on entry and on return);
 * sh_coll_aset checks it: 0, -EINVAL (out of the job, this PE not in it,
 * pSync not symmetric). */
struct sh_aset {
	int start, stride, size;
	long *psync;
};
SH_HIDDEN int sh_coll_aset(int start, int log_stride, int size, long *psync,
			   struct sh_aset *out);
/* acc[i] = x[i] op y[i] for n elements, x == acc (in place) or x
 * disjoint from acc; y disjoint from acc (the faces make one per type and
 * operation). */
typedef void (*sh_coll_op)(void *acc, const void *x, const void *y,
			   size_t n);
/* Every collective runs on a team (a != NULL: on the active set a
 * instead) and is called by all its members with the same arguments.
 * dest and src are symmetric (checked up front on every PE alike:
 * -EFAULT); root is an index in the group (-EINVAL out of range).
 * bcast: root_too: the root's dest gets the data too (1.5 teams).
 * collect: fixed 1: every PE gives nbytes (fcollect); 0: its own count,
 * concatenated in group order. reduce: dest == src allowed.
 * 0 or -errno (-EHOSTDOWN / -ETIMEDOUT a member ended / does not answer). */
SH_HIDDEN int sh_coll_sync(struct sh_team *t, const struct sh_aset *a,
			   bool quiet);
SH_HIDDEN int sh_coll_bcast(struct sh_team *t, const struct sh_aset *a,
			    void *dest, const void *src, size_t nbytes,
			    int root, bool root_too);
SH_HIDDEN int sh_coll_collect(struct sh_team *t, const struct sh_aset *a,
			      void *dest, const void *src, size_t nbytes,
			      bool fixed);
SH_HIDDEN int sh_coll_alltoall(struct sh_team *t, const struct sh_aset *a,
			       void *dest, const void *src, size_t nbytes);
SH_HIDDEN int sh_coll_alltoalls(struct sh_team *t, const struct sh_aset *a,
				void *dest, const void *src, ptrdiff_t dst,
				ptrdiff_t sst, size_t nelems, size_t esize);
SH_HIDDEN int sh_coll_reduce(struct sh_team *t, const struct sh_aset *a,
			     void *dest, const void *src, size_t nelems,
			     size_t esize, sh_coll_op op);

#endif
