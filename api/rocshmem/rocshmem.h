/* SPDX-License-Identifier: MIT */
/*
 * rocshmem/rocshmem.h: rocSHMEM's host-side API in C, on libzeshmem.
 *
 * A host program written against rocSHMEM's host interface compiles
 * against this header and links with libzeshmem (-lzeshmem; zeshcc does
 * both). The names, types and values are rocSHMEM's public ones; the
 * semantics are OpenSHMEM's, and for the memory routines exactly those of
 * rocSHMEM's memory-management chapter (seed 000):
 *   rocshmem_malloc    collective, 128-byte aligned, NULL when it cannot
 *                      be satisfied;
 *   rocshmem_align     alignment a power of two and a multiple of
 *                      sizeof(void *), else NULL and a warning on stderr
 *                      (the barrier is still entered); <= 128 behaves as
 *                      malloc;
 *   rocshmem_calloc    zeroed; NULL when count or size is 0 or their
 *                      product overflows (warned); barrier on every path;
 *   rocshmem_buffer_register      local registration (the LOCAL side of
 *                      RMA; using it as a remote target ends the PE with
 *                      one line naming the call and the address);
 *   rocshmem_buffer_register_symmetric  collective, VMM memory only
 *                      (zeVirtualMemReserve + zeVirtualMemMap); returns
 *                      the runtime's alias, the symmetric address to use
 *                      as RMA target; NULL on every PE when any PE's
 *                      buffer is refused.
 *
 * Typed routines come from the type tables below: X(TYPE, TYPENAME, A).
 * C++ programs written for rocSHMEM 3.x include <rocshmem/rocshmem.hpp>
 * instead (namespace rocshmem; a program includes one of the two).
 * The routines that cannot report an error end the PE with one line
 * "zeshmem: PE <me>: <routine>: <what>" on stderr (bad PE, an address
 * that is not symmetric, ...).
 */
#ifndef ZESHMEM_ROCSHMEM_H
#define ZESHMEM_ROCSHMEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- constants ---------------------------------------------------------- */

enum ROCSHMEM_STATUS {
    ROCSHMEM_SUCCESS = 0,
    ROCSHMEM_ERROR = 1
};

enum ROCSHMEM_SIGNAL_OPS {
    ROCSHMEM_SIGNAL_SET = 0,
    ROCSHMEM_SIGNAL_ADD = 1
};

enum rocshmem_cmps {
    ROCSHMEM_CMP_EQ = 0,
    ROCSHMEM_CMP_NE,
    ROCSHMEM_CMP_GT,
    ROCSHMEM_CMP_GE,
    ROCSHMEM_CMP_LT,
    ROCSHMEM_CMP_LE
};

enum rocshmem_thread_ops {
    ROCSHMEM_THREAD_SINGLE = 0,
    ROCSHMEM_THREAD_FUNNELED,
    ROCSHMEM_THREAD_WG_FUNNELED,
    ROCSHMEM_THREAD_SERIALIZED,
    ROCSHMEM_THREAD_MULTIPLE
};

/* the pSync and pWrk sizes of the active-set collectives (longs; pWrk:
 * elements), and the value a pSync holds between them (rocSHMEM 3.x's) */
#ifdef __cplusplus
static const size_t ROCSHMEM_REDUCE_MIN_WRKDATA_SIZE = 1024;
static const size_t ROCSHMEM_ATA_MAX_WRKDATA_SIZE = 4 * 1024 * 1024;
static const size_t ROCSHMEM_BARRIER_SYNC_SIZE = 256;
static const size_t ROCSHMEM_REDUCE_SYNC_SIZE = 256;
static const size_t ROCSHMEM_BCAST_SYNC_SIZE = 256;
static const size_t ROCSHMEM_ALLTOALL_SYNC_SIZE = 257;
static const size_t ROCSHMEM_FCOLLECT_SYNC_SIZE = 257;
static const size_t ROCSHMEM_SYNC_VALUE = 0;
#else
#define ROCSHMEM_REDUCE_MIN_WRKDATA_SIZE ((size_t)1024)
#define ROCSHMEM_ATA_MAX_WRKDATA_SIZE ((size_t)4 * 1024 * 1024)
#define ROCSHMEM_BARRIER_SYNC_SIZE ((size_t)256)
#define ROCSHMEM_REDUCE_SYNC_SIZE ((size_t)256)
#define ROCSHMEM_BCAST_SYNC_SIZE ((size_t)256)
#define ROCSHMEM_ALLTOALL_SYNC_SIZE ((size_t)257)
#define ROCSHMEM_FCOLLECT_SYNC_SIZE ((size_t)257)
#define ROCSHMEM_SYNC_VALUE ((size_t)0)
#endif

/* config_mask bits of the team calls */
enum rocshmem_team_configs {
    ROCSHMEM_TEAM_DEFAULT_CONFIGS = 0,
    ROCSHMEM_TEAM_NUM_CONTEXTS = 1
};

typedef struct {
    int num_contexts;
} rocshmem_team_config_t;

typedef uint64_t *rocshmem_team_t;
extern rocshmem_team_t ROCSHMEM_TEAM_WORLD;
/* the PEs of this PE's node (shmem.h's SHMEM_TEAM_SHARED) */
extern rocshmem_team_t ROCSHMEM_TEAM_SHARED;
#ifdef __cplusplus
static const rocshmem_team_t ROCSHMEM_TEAM_INVALID = 0;
#else
#define ROCSHMEM_TEAM_INVALID ((rocshmem_team_t)0)
#endif

/* Communication contexts: rocSHMEM 3.x's two-pointer handle, passed by
 * value. ctx_opaque is the runtime's context (a shmem_ctx_t), team_opaque
 * the team it was made from (NULL: the world). ROCSHMEM_CTX_DEFAULT is
 * set by the init routines; ROCSHMEM_CTX_INVALID is all NULL. */
typedef struct rocshmem_ctx {
    void *ctx_opaque;
    void *team_opaque;
#ifdef __cplusplus
    bool operator==(const struct rocshmem_ctx &o) const
    {
        return ctx_opaque == o.ctx_opaque && team_opaque == o.team_opaque;
    }
    bool operator!=(const struct rocshmem_ctx &o) const
    {
        return !(*this == o);
    }
#endif
} rocshmem_ctx_t;
extern rocshmem_ctx_t ROCSHMEM_CTX_DEFAULT;
extern const rocshmem_ctx_t ROCSHMEM_CTX_INVALID;

/* options of rocshmem_ctx_create / rocshmem_team_create_ctx */
enum rocshmem_ctx_options {
    ROCSHMEM_CTX_ZERO = 0,
    ROCSHMEM_CTX_NOSTORE = 1,
    ROCSHMEM_CTX_SERIALIZED = 2,
    ROCSHMEM_CTX_WG_PRIVATE = 4,
    ROCSHMEM_CTX_SHARED = 8
};

/* ---- initialization ----------------------------------------------------- */

#define ROCSHMEM_UNIQUEID_BYTES 128

typedef struct {
    unsigned char internal[ROCSHMEM_UNIQUEID_BYTES];
} rocshmem_uniqueid_t;

#define ROCSHMEM_UNIQUEID_INITIALIZER {{0}}

typedef struct {
    int rank;
    int nranks;
    rocshmem_uniqueid_t uid;
    void *mpi_comm;                   /* unused here (no MPI bootstrap) */
} rocshmem_init_attr_t;

/* flags of rocshmem_init_attr (rocSHMEM 3.x's values). WITH_MPI_COMM:
 * the library has no MPI; attr NULL or attr->mpi_comm NULL means the
 * environment's bootstrap (as rocshmem_init), anything else is refused
 * (ROCSHMEM_ERROR): <rocshmem/rocshmem.hpp>'s rocshmem_init(MPI_Comm)
 * starts on a communicator through the unique id instead. */
enum rocshmem_init_flags {
    ROCSHMEM_INIT_WITH_MPI_COMM = 0,
    ROCSHMEM_INIT_WITH_UNIQUEID = 1
};

/* The environment's bootstrap (zeshrun, mpirun/PMIx, ZESHMEM_UNIQUEID).
 * ROCSHMEM_SUCCESS, else ROCSHMEM_ERROR (the reason on stderr). */
int rocshmem_init(void);
int rocshmem_init_thread(int requested, int *provided);
/* flags ROCSHMEM_INIT_WITH_UNIQUEID: the unique-id start with attr's
 * rank, nranks and uid (rocshmem_set_attr_uniqueid_args fills them);
 * flags 0: rocshmem_init. */
int rocshmem_init_attr(unsigned int flags, rocshmem_init_attr_t *attr);
/* A new job id; the caller must be rank 0 of the unique-id start. */
int rocshmem_get_uniqueid(rocshmem_uniqueid_t *uid);
int rocshmem_set_attr_uniqueid_args(int rank, int nranks,
                                    rocshmem_uniqueid_t *uid,
                                    rocshmem_init_attr_t *attr);
void rocshmem_query_thread(int *provided);
void rocshmem_finalize(void);
void rocshmem_global_exit(int status);
int rocshmem_my_pe(void);
int rocshmem_n_pes(void);
void *rocshmem_ptr(const void *dest, int pe);

/* ---- memory ------------------------------------------------------------- */

void *rocshmem_malloc(size_t size);
void *rocshmem_align(size_t alignment, size_t size);
void *rocshmem_calloc(size_t count, size_t size);
void rocshmem_free(void *ptr);
int rocshmem_buffer_register(void *addr, size_t length);
int rocshmem_buffer_unregister(void *addr);
void rocshmem_buffer_unregister_all(void);
void *rocshmem_buffer_register_symmetric(void *addr, size_t length);
int rocshmem_buffer_unregister_symmetric(void *addr);
/* rocSHMEM 3.x's stride registrations: [addr, addr + length) is this
 * PE's buffer of a group of n_pes consecutive PEs (this PE is the group's
 * my_pe), and the program has mapped the group's PE i's buffer at addr +
 * (i - my_pe) * stride in this process itself (VMM, IPC opened at chosen
 * addresses, a shared file). RMA, atomics and rocshmem_ptr with such an
 * address then reach PE i's buffer there. 0, else -1 with one warning (a
 * bad argument, the group not inside the job, |stride| < length, an
 * overlap with the heap or a registration).
 * buffer_register_vmm is local (not collective): PEs outside the group
 * are not reached through it.
 * sym_buffer_register is collective over the job, as in rocSHMEM 3.x
 * (every PE calls it, each with its own group and the same length): PEs
 * on other nodes reach the buffer over the network too (each PE's buffer
 * registered with the NIC, the keys all-gathered). All PEs return 0 or
 * all -1 (each warns its own reason; the others name the PE that
 * refused).
 * sym_buffer_unregister (either kind, not collective): quiet, then
 * forget (and deregister); the program ends the peers' use of the
 * buffer first (a barrier). 0 or -1. */
int rocshmem_buffer_register_vmm(void *addr, size_t length, int my_pe,
                                 int n_pes, ptrdiff_t stride);
int rocshmem_sym_buffer_register(void *addr, size_t length, int my_pe,
                                 int n_pes, ptrdiff_t stride);
int rocshmem_sym_buffer_unregister(void *addr);
/* zemem's extension, as shmemx_set_ze_context (shmemx.h): names the
 * program's Level Zero context (ze_context_handle_t; NULL forgets it), in
 * which register_symmetric finds and exports the program's VMM buffers.
 * ROCSHMEM_SUCCESS. */
int rocshmemx_set_ze_context(void *ctx);

/* ---- type tables: X(TYPE, TYPENAME, A) ---------------------------------- */

#define ROCSHMEM_RMA_TYPES(X, A) \
    X(float, float, A) \
    X(double, double, A) \
    X(char, char, A) \
    X(signed char, schar, A) \
    X(short, short, A) \
    X(int, int, A) \
    X(long, long, A) \
    X(long long, longlong, A) \
    X(unsigned char, uchar, A) \
    X(unsigned short, ushort, A) \
    X(unsigned int, uint, A) \
    X(unsigned long, ulong, A) \
    X(unsigned long long, ulonglong, A) \
    X(int8_t, int8, A) \
    X(int16_t, int16, A) \
    X(int32_t, int32, A) \
    X(int64_t, int64, A) \
    X(uint8_t, uint8, A) \
    X(uint16_t, uint16, A) \
    X(uint32_t, uint32, A) \
    X(uint64_t, uint64, A) \
    X(size_t, size, A) \
    X(ptrdiff_t, ptrdiff, A)

/* fetch, set, swap, compare_swap, inc, fetch_inc, add, fetch_add */
#define ROCSHMEM_AMO_TYPES(X, A) \
    X(int, int, A) \
    X(long, long, A) \
    X(long long, longlong, A) \
    X(unsigned int, uint, A) \
    X(unsigned long, ulong, A) \
    X(unsigned long long, ulonglong, A) \
    X(int32_t, int32, A) \
    X(int64_t, int64, A) \
    X(uint32_t, uint32, A) \
    X(uint64_t, uint64, A) \
    X(size_t, size, A) \
    X(ptrdiff_t, ptrdiff, A)

/* and, or, xor (fetching and not) */
#define ROCSHMEM_BITAMO_TYPES(X, A) \
    X(unsigned int, uint, A) \
    X(unsigned long, ulong, A) \
    X(unsigned long long, ulonglong, A) \
    X(int32_t, int32, A) \
    X(int64_t, int64, A) \
    X(uint32_t, uint32, A) \
    X(uint64_t, uint64, A)

/* wait_until, test */
#define ROCSHMEM_SYNC_TYPES(X, A) \
    X(short, short, A) \
    X(int, int, A) \
    X(long, long, A) \
    X(long long, longlong, A) \
    X(unsigned short, ushort, A) \
    X(unsigned int, uint, A) \
    X(unsigned long, ulong, A) \
    X(unsigned long long, ulonglong, A) \
    X(int32_t, int32, A) \
    X(int64_t, int64, A) \
    X(uint32_t, uint32, A) \
    X(uint64_t, uint64, A) \
    X(size_t, size, A) \
    X(ptrdiff_t, ptrdiff, A)

/* ---- RMA ---------------------------------------------------------------- */

void rocshmem_putmem(void *dest, const void *source, size_t nelems, int pe);
void rocshmem_putmem_nbi(void *dest, const void *source, size_t nelems,
                         int pe);
void rocshmem_getmem(void *dest, const void *source, size_t nelems, int pe);
void rocshmem_getmem_nbi(void *dest, const void *source, size_t nelems,
                         int pe);

#define ROCSHMEM_DECL_RMA_(T, N, A) \
    void rocshmem_##N##_put(T *dest, const T *source, size_t nelems, \
                            int pe); \
    void rocshmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, \
                                int pe); \
    void rocshmem_##N##_p(T *dest, T value, int pe); \
    void rocshmem_##N##_get(T *dest, const T *source, size_t nelems, \
                            int pe); \
    void rocshmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, \
                                int pe); \
    T rocshmem_##N##_g(const T *source, int pe);
ROCSHMEM_RMA_TYPES(ROCSHMEM_DECL_RMA_, )

/* put with signal: sig_op ROCSHMEM_SIGNAL_SET or _ADD */
void rocshmem_putmem_signal(void *dest, const void *source, size_t nelems,
                            uint64_t *sig_addr, uint64_t signal, int sig_op,
                            int pe);
void rocshmem_putmem_signal_nbi(void *dest, const void *source,
                                size_t nelems, uint64_t *sig_addr,
                                uint64_t signal, int sig_op, int pe);
uint64_t rocshmem_signal_fetch(const uint64_t *sig_addr);

/* ---- atomics ------------------------------------------------------------ */

#define ROCSHMEM_DECL_AMO_(T, N, A) \
    T rocshmem_##N##_atomic_fetch(T *source, int pe); \
    void rocshmem_##N##_atomic_set(T *dest, T value, int pe); \
    T rocshmem_##N##_atomic_swap(T *dest, T value, int pe); \
    T rocshmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe); \
    void rocshmem_##N##_atomic_inc(T *dest, int pe); \
    T rocshmem_##N##_atomic_fetch_inc(T *dest, int pe); \
    void rocshmem_##N##_atomic_add(T *dest, T value, int pe); \
    T rocshmem_##N##_atomic_fetch_add(T *dest, T value, int pe);
ROCSHMEM_AMO_TYPES(ROCSHMEM_DECL_AMO_, )

#define ROCSHMEM_DECL_BITAMO_(T, N, A) \
    void rocshmem_##N##_atomic_and(T *dest, T value, int pe); \
    T rocshmem_##N##_atomic_fetch_and(T *dest, T value, int pe); \
    void rocshmem_##N##_atomic_or(T *dest, T value, int pe); \
    T rocshmem_##N##_atomic_fetch_or(T *dest, T value, int pe); \
    void rocshmem_##N##_atomic_xor(T *dest, T value, int pe); \
    T rocshmem_##N##_atomic_fetch_xor(T *dest, T value, int pe);
ROCSHMEM_BITAMO_TYPES(ROCSHMEM_DECL_BITAMO_, )

/* ---- ordering, synchronization ------------------------------------------ */

void rocshmem_fence(void);
void rocshmem_quiet(void);
void rocshmem_barrier_all(void);
void rocshmem_sync_all(void);

/* cmp: ROCSHMEM_CMP_*; test returns 1 when the condition holds, else 0 */
#define ROCSHMEM_DECL_SYNC_(T, N, A) \
    void rocshmem_##N##_wait_until(T *ivar, int cmp, T val); \
    int rocshmem_##N##_test(T *ivar, int cmp, T val);
ROCSHMEM_SYNC_TYPES(ROCSHMEM_DECL_SYNC_, )

/* ---- teams -------------------------------------------------------------- */

int rocshmem_team_my_pe(rocshmem_team_t team);
int rocshmem_team_n_pes(rocshmem_team_t team);
/* src_pe of src_team in dest_team, -1 when it is not in both */
int rocshmem_team_translate_pe(rocshmem_team_t src_team, int src_pe,
                               rocshmem_team_t dest_team);
/* 0, or nonzero; *new_team ROCSHMEM_TEAM_INVALID outside the new team */
int rocshmem_team_split_strided(rocshmem_team_t parent_team, int start,
                                int stride, int size,
                                const rocshmem_team_config_t *config,
                                long config_mask,
                                rocshmem_team_t *new_team);
int rocshmem_team_split_2d(rocshmem_team_t parent_team, int xrange,
                           const rocshmem_team_config_t *xaxis_config,
                           long xaxis_mask, rocshmem_team_t *xaxis_team,
                           const rocshmem_team_config_t *yaxis_config,
                           long yaxis_mask, rocshmem_team_t *yaxis_team);
void rocshmem_team_destroy(rocshmem_team_t team);

/* ---- library information, statistics ----------------------------------- */

/* The OpenSHMEM version rocSHMEM 3.x reports, its name buffer size, and
 * the vendor's: this library's own rocSHMEM API level (3.0.0). */
#define ROCSHMEM_MAJOR_VERSION 1
#define ROCSHMEM_MINOR_VERSION 4
#define ROCSHMEM_MAX_NAME_LEN 64
#define ROCSHMEM_VENDOR_STRING "zemem rocSHMEM host API (libzeshmem)"
#define ROCSHMEM_VENDOR_MAJOR_VERSION 3
#define ROCSHMEM_VENDOR_MINOR_VERSION 0
#define ROCSHMEM_VENDOR_PATCH_VERSION 0

void rocshmem_info_get_version(int *major, int *minor);
/* copies ROCSHMEM_VENDOR_STRING (NUL included; < ROCSHMEM_MAX_NAME_LEN) */
void rocshmem_info_get_name(char *name);
void rocshmem_vendor_get_version_info(int *major, int *minor, int *patch);
/* This PE's counts of the rocshmem_* operations since init or the last
 * reset: one line per kind on stdout, "rocshmem: PE <me>: <kind> <n>" for
 * puts, gets, amos, signals (put-with-signal, signal waits), syncs
 * (fence, quiet, waits, tests), collectives. */
void rocshmem_dump_stats(void);
void rocshmem_reset_stats(void);

/* ---- contexts ----------------------------------------------------------- */

/* 0 and *ctx a new context, else nonzero and *ctx ROCSHMEM_CTX_INVALID.
 * options: ROCSHMEM_CTX_* bits (SERIALIZED, NOSTORE as OpenSHMEM's;
 * WG_PRIVATE is PRIVATE on the host; SHARED is the default). */
int rocshmem_ctx_create(int64_t options, rocshmem_ctx_t *ctx);
int rocshmem_team_create_ctx(rocshmem_team_t team, long options,
                             rocshmem_ctx_t *ctx);
/* ROCSHMEM_CTX_INVALID and ROCSHMEM_CTX_DEFAULT: nothing happens */
void rocshmem_ctx_destroy(rocshmem_ctx_t ctx);
/* ROCSHMEM_CTX_INVALID: nothing happens (a PE outside the context's team) */
void rocshmem_ctx_fence(rocshmem_ctx_t ctx);
void rocshmem_ctx_quiet(rocshmem_ctx_t ctx);

/* RMA on a context; pe numbered as the context's team numbers its PEs */
void rocshmem_ctx_putmem(rocshmem_ctx_t ctx, void *dest, const void *source,
                         size_t nelems, int pe);
void rocshmem_ctx_putmem_nbi(rocshmem_ctx_t ctx, void *dest,
                             const void *source, size_t nelems, int pe);
void rocshmem_ctx_getmem(rocshmem_ctx_t ctx, void *dest, const void *source,
                         size_t nelems, int pe);
void rocshmem_ctx_getmem_nbi(rocshmem_ctx_t ctx, void *dest,
                             const void *source, size_t nelems, int pe);
void rocshmem_ctx_putmem_signal(rocshmem_ctx_t ctx, void *dest,
                                const void *source, size_t nelems,
                                uint64_t *sig_addr, uint64_t signal,
                                int sig_op, int pe);
void rocshmem_ctx_putmem_signal_nbi(rocshmem_ctx_t ctx, void *dest,
                                    const void *source, size_t nelems,
                                    uint64_t *sig_addr, uint64_t signal,
                                    int sig_op, int pe);

#define ROCSHMEM_DECL_CTX_RMA_(T, N, A) \
    void rocshmem_ctx_##N##_put(rocshmem_ctx_t ctx, T *dest, \
                                const T *source, size_t nelems, int pe); \
    void rocshmem_ctx_##N##_put_nbi(rocshmem_ctx_t ctx, T *dest, \
                                    const T *source, size_t nelems, \
                                    int pe); \
    void rocshmem_ctx_##N##_p(rocshmem_ctx_t ctx, T *dest, T value, \
                              int pe); \
    void rocshmem_ctx_##N##_get(rocshmem_ctx_t ctx, T *dest, \
                                const T *source, size_t nelems, int pe); \
    void rocshmem_ctx_##N##_get_nbi(rocshmem_ctx_t ctx, T *dest, \
                                    const T *source, size_t nelems, \
                                    int pe); \
    T rocshmem_ctx_##N##_g(rocshmem_ctx_t ctx, const T *source, int pe);
ROCSHMEM_RMA_TYPES(ROCSHMEM_DECL_CTX_RMA_, )

/* fetch, set, swap also for float and double */
#define ROCSHMEM_FAMO_TYPES(X, A) \
    X(float, float, A) \
    X(double, double, A)

#define ROCSHMEM_DECL_AMO3_(T, N, A) \
    T rocshmem_##N##_atomic_fetch(T *source, int pe); \
    void rocshmem_##N##_atomic_set(T *dest, T value, int pe); \
    T rocshmem_##N##_atomic_swap(T *dest, T value, int pe);
ROCSHMEM_FAMO_TYPES(ROCSHMEM_DECL_AMO3_, )

#define ROCSHMEM_DECL_CTX_AMO3_(T, N, A) \
    T rocshmem_ctx_##N##_atomic_fetch(rocshmem_ctx_t ctx, T *source, \
                                      int pe); \
    void rocshmem_ctx_##N##_atomic_set(rocshmem_ctx_t ctx, T *dest, \
                                       T value, int pe); \
    T rocshmem_ctx_##N##_atomic_swap(rocshmem_ctx_t ctx, T *dest, T value, \
                                     int pe);
ROCSHMEM_FAMO_TYPES(ROCSHMEM_DECL_CTX_AMO3_, )
ROCSHMEM_AMO_TYPES(ROCSHMEM_DECL_CTX_AMO3_, )

#define ROCSHMEM_DECL_CTX_AMO_(T, N, A) \
    T rocshmem_ctx_##N##_atomic_compare_swap(rocshmem_ctx_t ctx, T *dest, \
                                             T cond, T value, int pe); \
    void rocshmem_ctx_##N##_atomic_inc(rocshmem_ctx_t ctx, T *dest, \
                                       int pe); \
    T rocshmem_ctx_##N##_atomic_fetch_inc(rocshmem_ctx_t ctx, T *dest, \
                                          int pe); \
    void rocshmem_ctx_##N##_atomic_add(rocshmem_ctx_t ctx, T *dest, \
                                       T value, int pe); \
    T rocshmem_ctx_##N##_atomic_fetch_add(rocshmem_ctx_t ctx, T *dest, \
                                          T value, int pe);
ROCSHMEM_AMO_TYPES(ROCSHMEM_DECL_CTX_AMO_, )

#define ROCSHMEM_DECL_CTX_BITAMO_(T, N, A) \
    void rocshmem_ctx_##N##_atomic_and(rocshmem_ctx_t ctx, T *dest, \
                                       T value, int pe); \
    T rocshmem_ctx_##N##_atomic_fetch_and(rocshmem_ctx_t ctx, T *dest, \
                                          T value, int pe); \
    void rocshmem_ctx_##N##_atomic_or(rocshmem_ctx_t ctx, T *dest, \
                                      T value, int pe); \
    T rocshmem_ctx_##N##_atomic_fetch_or(rocshmem_ctx_t ctx, T *dest, \
                                         T value, int pe); \
    void rocshmem_ctx_##N##_atomic_xor(rocshmem_ctx_t ctx, T *dest, \
                                       T value, int pe); \
    T rocshmem_ctx_##N##_atomic_fetch_xor(rocshmem_ctx_t ctx, T *dest, \
                                          T value, int pe);
ROCSHMEM_BITAMO_TYPES(ROCSHMEM_DECL_CTX_BITAMO_, )

/* ---- waits on several variables ----------------------------------------- */

/* the 3.x wait types beyond ROCSHMEM_SYNC_TYPES (wait_until, test and
 * the multi forms below) */
#define ROCSHMEM_SYNC_MORE_TYPES(X, A) \
    X(char, char, A) \
    X(signed char, schar, A) \
    X(unsigned char, uchar, A)
#define ROCSHMEM_SYNC_FLOAT_TYPES(X, A) \
    X(float, float, A) \
    X(double, double, A)
ROCSHMEM_SYNC_MORE_TYPES(ROCSHMEM_DECL_SYNC_, )
ROCSHMEM_SYNC_FLOAT_TYPES(ROCSHMEM_DECL_SYNC_, )

/* As rocSHMEM 3.x declares them: one comparison value for every ivar,
 * the _vector forms included. status NULL or status[i] 0 includes ivar i.
 * any: the index of a satisfied ivar (a series of calls returns every
 * satisfied one in turn), SIZE_MAX when none is included; some: how
 * many, their indices in indices[]. */
#define ROCSHMEM_DECL_MULTI_(T, N, A) \
    void rocshmem_##N##_wait_until_all(T *ivars, size_t nelems, \
                                       const int *status, int cmp, T val); \
    size_t rocshmem_##N##_wait_until_any(T *ivars, size_t nelems, \
                                         const int *status, int cmp, \
                                         T val); \
    size_t rocshmem_##N##_wait_until_some(T *ivars, size_t nelems, \
                                          size_t *indices, \
                                          const int *status, int cmp, \
                                          T val); \
    void rocshmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, \
                                              const int *status, int cmp, \
                                              T val); \
    size_t rocshmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, \
                                                const int *status, \
                                                int cmp, T val); \
    size_t rocshmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, \
                                                 size_t *indices, \
                                                 const int *status, \
                                                 int cmp, T val);
ROCSHMEM_SYNC_TYPES(ROCSHMEM_DECL_MULTI_, )
ROCSHMEM_SYNC_MORE_TYPES(ROCSHMEM_DECL_MULTI_, )
ROCSHMEM_SYNC_FLOAT_TYPES(ROCSHMEM_DECL_MULTI_, )

/* ---- collectives on a team (the context orders nothing more here) ------- */

/* sum, prod, min, max */
#define ROCSHMEM_ARITH_TYPES(X, A) \
    X(short, short, A) \
    X(int, int, A) \
    X(long, long, A) \
    X(long long, longlong, A) \
    X(float, float, A) \
    X(double, double, A)
/* and, or, xor */
#define ROCSHMEM_BITRED_TYPES(X, A) \
    X(short, short, A) \
    X(int, int, A) \
    X(long, long, A) \
    X(long long, longlong, A)
/* broadcast */
#define ROCSHMEM_BCAST_TYPES(X, A) \
    X(float, float, A) \
    X(double, double, A) \
    X(char, char, A) \
    X(signed char, schar, A) \
    X(short, short, A) \
    X(int, int, A) \
    X(long, long, A) \
    X(long long, longlong, A) \
    X(unsigned char, uchar, A) \
    X(unsigned short, ushort, A) \
    X(unsigned int, uint, A) \
    X(unsigned long, ulong, A) \
    X(unsigned long long, ulonglong, A)

/* 0, or nonzero (a bad team or count; one warning) */
#define ROCSHMEM_DECL_RED_(T, N, OP) \
    int rocshmem_ctx_##N##_##OP##_reduce(rocshmem_ctx_t ctx, \
                                         rocshmem_team_t team, T *dest, \
                                         const T *source, int nreduce);
ROCSHMEM_ARITH_TYPES(ROCSHMEM_DECL_RED_, sum)
ROCSHMEM_ARITH_TYPES(ROCSHMEM_DECL_RED_, prod)
ROCSHMEM_ARITH_TYPES(ROCSHMEM_DECL_RED_, min)
ROCSHMEM_ARITH_TYPES(ROCSHMEM_DECL_RED_, max)
ROCSHMEM_BITRED_TYPES(ROCSHMEM_DECL_RED_, and)
ROCSHMEM_BITRED_TYPES(ROCSHMEM_DECL_RED_, or)
ROCSHMEM_BITRED_TYPES(ROCSHMEM_DECL_RED_, xor)

/* the team form of rocSHMEM 3.x's two (a bad team or count ends the PE) */
#define ROCSHMEM_DECL_BCAST_(T, N, A) \
    void rocshmem_ctx_##N##_broadcast(rocshmem_ctx_t ctx, \
                                      rocshmem_team_t team, T *dest, \
                                      const T *source, int nelems, \
                                      int pe_root);
ROCSHMEM_BCAST_TYPES(ROCSHMEM_DECL_BCAST_, )

/* The active-set form of rocSHMEM 3.x's two, under another name: C has no
 * overloading, so rocshmem.hpp's overload rocshmem_ctx_<TYPE>_broadcast(
 * ctx, dest, source, nelems, pe_root, pe_start, log_pe_stride, pe_size,
 * pSync) (and the template rocshmem_broadcast<T>) calls this one; a C
 * program calls it as it is. Called by the active set's PEs only (PE
 * pe_start + i * 2^log_pe_stride, i < pe_size); pe_root is an index in
 * that set; the root's dest is left as it is (rocSHMEM's and OpenSHMEM
 * 1.4's active-set broadcast). pSync: symmetric, ROCSHMEM_BCAST_SYNC_SIZE
 * longs of ROCSHMEM_SYNC_VALUE on entry (so again on return). Bad input
 * (nelems < 0, NULL with nelems > 0, pe_size < 1, a set outside the job
 * or without this PE, pe_root outside the set, a pSync or buffer that is
 * not symmetric) is one warning and nothing done; a member that ended
 * ends the PE. */
#define ROCSHMEM_DECL_BCAST_ASET_(T, N, A) \
    void rocshmemx_ctx_##N##_broadcast_active(rocshmem_ctx_t ctx, T *dest, \
                                              const T *source, int nelems, \
                                              int pe_root, int pe_start, \
                                              int log_pe_stride, \
                                              int pe_size, long *pSync);
ROCSHMEM_BCAST_TYPES(ROCSHMEM_DECL_BCAST_ASET_, )

/* ---- stream-ordered operations ----------------------------------------- */

/* stream: a Level Zero command list (ze_command_list_handle_t), immediate
 * or regular, in place of rocSHMEM 3.x's hipStream_t. The operation runs
 * in the list's order: after what was appended before it, before what is
 * appended after it; an event or zeCommandListHostSynchronize after it
 * sees it done. putmem / getmem with a PE of this node are a copy
 * appended to the list (either kind); the others need an immediate list
 * (it is synchronized, then the operation runs on the host before the
 * call returns). ROCSHMEM_SUCCESS, else ROCSHMEM_ERROR and one warning
 * (no list, a regular list for an operation that needs the host, a Level
 * Zero failure); where 3.x returns void, the result may be ignored. */
int rocshmem_putmem_on_stream(void *dest, const void *source, size_t nelems,
                              int pe, void *stream);
int rocshmem_getmem_on_stream(void *dest, const void *source, size_t nelems,
                              int pe, void *stream);
int rocshmem_putmem_signal_on_stream(void *dest, const void *source,
                                     size_t nelems, uint64_t *sig_addr,
                                     uint64_t signal, int sig_op, int pe,
                                     void *stream);
int rocshmem_signal_wait_until_on_stream(uint64_t *sig_addr, int cmp,
                                         uint64_t cmp_value, void *stream);
int rocshmem_quiet_on_stream(void *stream);
int rocshmem_barrier_all_on_stream(void *stream);
int rocshmem_sync_all_on_stream(void *stream);
int rocshmem_broadcastmem_on_stream(rocshmem_team_t team, void *dest,
                                    const void *source, size_t nelems,
                                    int pe_root, void *stream);
int rocshmem_alltoallmem_on_stream(rocshmem_team_t team, void *dest,
                                   const void *source, size_t size,
                                   void *stream);

#ifdef __cplusplus
}
#endif

#endif /* ZESHMEM_ROCSHMEM_H */
