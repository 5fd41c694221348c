/* SPDX-License-Identifier: MIT */
/*
 * shmem.h: the OpenSHMEM 1.5 C API of libzeshmem (zemem's symmetric-memory
 * runtime), with the names the 1.4 specification deprecated.
 *
 * Every typed routine comes from one table of types: SHMEM_<KIND>_TYPES(X, A)
 * expands X(TYPE, TYPENAME, A) once per row of the specification's table of
 * that kind (A is passed through; empty when not needed). The same tables
 * declare the routines here and define them in libzeshmem's faces
 * (shmem/faces/), and build the C11 type-generic macros at the end.
 *
 *   SHMEM_RMA_TYPES        standard RMA types (Table "Standard RMA Types")
 *   SHMEM_AMO_TYPES        standard AMO types
 *   SHMEM_EXTAMO_TYPES     extended AMO types (standard + float, double)
 *   SHMEM_BITAMO_TYPES     bitwise AMO types
 *   SHMEM_SYNC_TYPES       point-to-point synchronization types
 *   SHMEM_BITRED_TYPES     AND/OR/XOR reduction types
 *   SHMEM_MINMAX_TYPES     MAX/MIN reduction types
 *   SHMEM_ARITH_TYPES      SUM/PROD reduction types
 *   SHMEM_SIZES            the sized RMA routines (8, 16, 32, 64, 128 bits)
 * Each kind's _BASE_ table holds the rows the C11 generic macros select on
 * (the fixed-width and size types are typedefs of base types, as the
 * specification notes, so they are not separate generic cases).
 *
 * Handles are opaque pointers. SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED are
 * valid between shmem_init and shmem_finalize; SHMEM_TEAM_INVALID and
 * SHMEM_CTX_INVALID are null handles.
 */
#ifndef ZESHMEM_SHMEM_H
#define ZESHMEM_SHMEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- library constants ------------------------------------------------ */

#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 5
#define SHMEM_MAX_NAME_LEN 256
#define SHMEM_VENDOR_STRING "zemem libzeshmem"

#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING

enum {
    SHMEM_THREAD_SINGLE = 0,
    SHMEM_THREAD_FUNNELED = 1,
    SHMEM_THREAD_SERIALIZED = 2,
    SHMEM_THREAD_MULTIPLE = 3
};

enum {
    SHMEM_CMP_EQ = 1,
    SHMEM_CMP_NE = 2,
    SHMEM_CMP_GT = 3,
    SHMEM_CMP_LE = 4,
    SHMEM_CMP_LT = 5,
    SHMEM_CMP_GE = 6
};
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_LE SHMEM_CMP_LE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_GE SHMEM_CMP_GE

enum {
    SHMEM_SIGNAL_SET = 0,
    SHMEM_SIGNAL_ADD = 1
};

/* Context options (shmem_ctx_create, shmem_team_create_ctx). */
#define SHMEM_CTX_SERIALIZED (1L << 0)
#define SHMEM_CTX_PRIVATE (1L << 1)
#define SHMEM_CTX_NOSTORE (1L << 2)

/* Team configuration (shmem_team_split_*, shmem_team_get_config). */
#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)

/* shmem_malloc_with_hints. */
#define SHMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SHMEM_MALLOC_SIGNAL_REMOTE (1L << 1)

/* Work arrays of the active-set collectives (deprecated in 1.5). */
#define SHMEM_SYNC_VALUE 0L
#define SHMEM_BARRIER_SYNC_SIZE 64
#define SHMEM_BCAST_SYNC_SIZE 64
#define SHMEM_REDUCE_SYNC_SIZE 64
#define SHMEM_COLLECT_SYNC_SIZE 64
#define SHMEM_ALLTOALL_SYNC_SIZE 64
#define SHMEM_ALLTOALLS_SYNC_SIZE 64
#define SHMEM_SYNC_SIZE 64
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 16

#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_ALLTOALL_SYNC_SIZE SHMEM_ALLTOALL_SYNC_SIZE
#define _SHMEM_ALLTOALLS_SYNC_SIZE SHMEM_ALLTOALLS_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE

/* ---- handles ----------------------------------------------------------- */

typedef struct zeshmem_ctx *shmem_ctx_t;
typedef struct zeshmem_team *shmem_team_t;

typedef struct {
    int num_contexts;
} shmem_team_config_t;

extern shmem_ctx_t SHMEM_CTX_DEFAULT;
#define SHMEM_CTX_INVALID ((shmem_ctx_t)0)

extern shmem_team_t SHMEM_TEAM_WORLD;
extern shmem_team_t SHMEM_TEAM_SHARED;
#define SHMEM_TEAM_INVALID ((shmem_team_t)0)

/* ---- type tables: X(TYPE, TYPENAME, A) --------------------------------- */

#define SHMEM_RMA_TYPES_BASE(X, A) \
    X(float, float, A) \
    X(double, double, A) \
    X(long double, longdouble, A) \
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
#define SHMEM_RMA_TYPES(X, A) \
    SHMEM_RMA_TYPES_BASE(X, A) \
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

#define SHMEM_AMO_TYPES_BASE(X, A) \
    X(int, int, A) \
    X(long, long, A) \
    X(long long, longlong, A) \
    X(unsigned int, uint, A) \
    X(unsigned long, ulong, A) \
    X(unsigned long long, ulonglong, A)
#define SHMEM_AMO_TYPES(X, A) \
    SHMEM_AMO_TYPES_BASE(X, A) \
    X(int32_t, int32, A) \
    X(int64_t, int64, A) \
    X(uint32_t, uint32, A) \
    X(uint64_t, uint64, A) \
    X(size_t, size, A) \
    X(ptrdiff_t, ptrdiff, A)

#define SHMEM_EXTAMO_TYPES_BASE(X, A) \
    SHMEM_AMO_TYPES_BASE(X, A) \
    X(float, float, A) \
    X(double, double, A)
#define SHMEM_EXTAMO_TYPES(X, A) \
    SHMEM_AMO_TYPES(X, A) \
    X(float, float, A) \
    X(double, double, A)

#define SHMEM_BITAMO_TYPES_BASE(X, A) \
    X(unsigned int, uint, A) \
    X(unsigned long, ulong, A) \
    X(unsigned long long, ulonglong, A)
#define SHMEM_BITAMO_TYPES(X, A) \
    SHMEM_BITAMO_TYPES_BASE(X, A) \
    X(int32_t, int32, A) \
    X(int64_t, int64, A) \
    X(uint32_t, uint32, A) \
    X(uint64_t, uint64, A)

#define SHMEM_SYNC_TYPES_BASE(X, A) \
    X(short, short, A) \
    X(int, int, A) \
    X(long, long, A) \
    X(long long, longlong, A) \
    X(unsigned short, ushort, A) \
    X(unsigned int, uint, A) \
    X(unsigned long, ulong, A) \
    X(unsigned long long, ulonglong, A)
#define SHMEM_SYNC_TYPES(X, A) \
    SHMEM_SYNC_TYPES_BASE(X, A) \
    X(int32_t, int32, A) \
    X(int64_t, int64, A) \
    X(uint32_t, uint32, A) \
    X(uint64_t, uint64, A) \
    X(size_t, size, A) \
    X(ptrdiff_t, ptrdiff, A)

#define SHMEM_BITRED_TYPES_BASE(X, A) \
    X(unsigned char, uchar, A) \
    X(unsigned short, ushort, A) \
    X(unsigned int, uint, A) \
    X(unsigned long, ulong, A) \
    X(unsigned long long, ulonglong, A)
#define SHMEM_BITRED_TYPES(X, A) \
    SHMEM_BITRED_TYPES_BASE(X, A) \
    X(int8_t, int8, A) \
    X(int16_t, int16, A) \
    X(int32_t, int32, A) \
    X(int64_t, int64, A) \
    X(uint8_t, uint8, A) \
    X(uint16_t, uint16, A) \
    X(uint32_t, uint32, A) \
    X(uint64_t, uint64, A) \
    X(size_t, size, A)

#define SHMEM_MINMAX_TYPES_BASE(X, A) \
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
    X(float, float, A) \
    X(double, double, A) \
    X(long double, longdouble, A)
#define SHMEM_MINMAX_TYPES(X, A) \
    SHMEM_MINMAX_TYPES_BASE(X, A) \
    X(ptrdiff_t, ptrdiff, A) \
    X(int8_t, int8, A) \
    X(int16_t, int16, A) \
    X(int32_t, int32, A) \
    X(int64_t, int64, A) \
    X(uint8_t, uint8, A) \
    X(uint16_t, uint16, A) \
    X(uint32_t, uint32, A) \
    X(uint64_t, uint64, A) \
    X(size_t, size, A)

#if !defined(__cplusplus) || defined(__GNUC__)
#define SHMEM_COMPLEX_TYPES_(X, A) \
    X(double _Complex, complexd, A) \
    X(float _Complex, complexf, A)
#else
#define SHMEM_COMPLEX_TYPES_(X, A)
#endif
#define SHMEM_ARITH_TYPES_BASE(X, A) \
    SHMEM_MINMAX_TYPES_BASE(X, A) \
    SHMEM_COMPLEX_TYPES_(X, A)
#define SHMEM_ARITH_TYPES(X, A) \
    SHMEM_MINMAX_TYPES(X, A) \
    SHMEM_COMPLEX_TYPES_(X, A)

/* The active-set reductions of 1.4 (deprecated): their own, shorter rows. */
#define SHMEM_OLD_BITRED_TYPES(X, A) \
    X(short, short, A) \
    X(int, int, A) \
    X(long, long, A) \
    X(long long, longlong, A)
#define SHMEM_OLD_MINMAX_TYPES(X, A) \
    SHMEM_OLD_BITRED_TYPES(X, A) \
    X(float, float, A) \
    X(double, double, A) \
    X(long double, longdouble, A)
#define SHMEM_OLD_ARITH_TYPES(X, A) \
    SHMEM_OLD_MINMAX_TYPES(X, A) \
    SHMEM_COMPLEX_TYPES_(X, A)

/* The 1.4 atomics (deprecated): fetch/set/swap on these, the others on the
 * first three. */
#define SHMEM_OLD_AMO_TYPES(X, A) \
    X(int, int, A) \
    X(long, long, A) \
    X(long long, longlong, A)
#define SHMEM_OLD_EXTAMO_TYPES(X, A) \
    SHMEM_OLD_AMO_TYPES(X, A) \
    X(float, float, A) \
    X(double, double, A)
#define SHMEM_OLD_WAIT_TYPES(X, A) \
    X(short, short, A) \
    X(int, int, A) \
    X(long, long, A) \
    X(long long, longlong, A)

/* X(BITS, A): the sized RMA routines. */
#define SHMEM_SIZES(X, A) X(8, A) X(16, A) X(32, A) X(64, A) X(128, A)

/* ---- library setup, exit and query ------------------------------------- */

void shmem_init(void);
int shmem_init_thread(int requested, int *provided);
void shmem_query_thread(int *provided);
void shmem_finalize(void);
void shmem_global_exit(int status);
int shmem_my_pe(void);
int shmem_n_pes(void);
int shmem_pe_accessible(int pe);
int shmem_addr_accessible(const void *addr, int pe);
void *shmem_ptr(const void *dest, int pe);
void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe);
void shmem_info_get_version(int *major, int *minor);
void shmem_info_get_name(char *name);
/* Profiling control: a no-op here; a profiling library interposes it. */
void shmem_pcontrol(const int level, ...);

/* deprecated */
void start_pes(int npes);
int _my_pe(void);
int _num_pes(void);

/* ---- memory management ------------------------------------------------- */

void *shmem_malloc(size_t size);
void *shmem_calloc(size_t count, size_t size);
void *shmem_align(size_t alignment, size_t size);
void *shmem_realloc(void *ptr, size_t size);
void shmem_free(void *ptr);
void *shmem_malloc_with_hints(size_t size, long hints);

/* deprecated */
void *shmalloc(size_t size);
void *shmemalign(size_t alignment, size_t size);
void *shrealloc(void *ptr, size_t size);
void shfree(void *ptr);

/* ---- teams ------------------------------------------------------------- */

int shmem_team_my_pe(shmem_team_t team);
int shmem_team_n_pes(shmem_team_t team);
int shmem_team_get_config(shmem_team_t team, long config_mask,
                          shmem_team_config_t *config);
int shmem_team_translate_pe(shmem_team_t src_team, int src_pe,
                            shmem_team_t dest_team);
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride,
                             int size, const shmem_team_config_t *config,
                             long config_mask, shmem_team_t *new_team);
int shmem_team_split_2d(shmem_team_t parent_team, int xrange,
                        const shmem_team_config_t *xaxis_config,
                        long xaxis_mask, shmem_team_t *xaxis_team,
                        const shmem_team_config_t *yaxis_config,
                        long yaxis_mask, shmem_team_t *yaxis_team);
void shmem_team_destroy(shmem_team_t team);

/* ---- communication contexts -------------------------------------------- */

int shmem_ctx_create(long options, shmem_ctx_t *ctx);
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx);
void shmem_ctx_destroy(shmem_ctx_t ctx);
int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team);

/* ---- remote memory access ---------------------------------------------- */

#define SHMEM_DECL_RMA_(T, N, A) \
    void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe); \
    void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, \
                             size_t nelems, int pe); \
    void shmem_##N##_p(T *dest, T value, int pe); \
    void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe); \
    void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, \
                          ptrdiff_t sst, size_t nelems, int pe); \
    void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, \
                              ptrdiff_t dst, ptrdiff_t sst, size_t nelems, \
                              int pe); \
    void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe); \
    void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, \
                             size_t nelems, int pe); \
    T shmem_##N##_g(const T *source, int pe); \
    T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe); \
    void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, \
                          ptrdiff_t sst, size_t nelems, int pe); \
    void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, \
                              ptrdiff_t dst, ptrdiff_t sst, size_t nelems, \
                              int pe); \
    void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, \
                             int pe); \
    void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, \
                                 size_t nelems, int pe); \
    void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, \
                             int pe); \
    void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, \
                                 size_t nelems, int pe); \
    void shmem_##N##_put_signal(T *dest, const T *source, size_t nelems, \
                                uint64_t *sig_addr, uint64_t signal, \
                                int sig_op, int pe); \
    void shmem_ctx_##N##_put_signal(shmem_ctx_t ctx, T *dest, \
                                    const T *source, size_t nelems, \
                                    uint64_t *sig_addr, uint64_t signal, \
                                    int sig_op, int pe); \
    void shmem_##N##_put_signal_nbi(T *dest, const T *source, size_t nelems, \
                                    uint64_t *sig_addr, uint64_t signal, \
                                    int sig_op, int pe); \
    void shmem_ctx_##N##_put_signal_nbi(shmem_ctx_t ctx, T *dest, \
                                        const T *source, size_t nelems, \
                                        uint64_t *sig_addr, uint64_t signal, \
                                        int sig_op, int pe);
SHMEM_RMA_TYPES(SHMEM_DECL_RMA_, )

#define SHMEM_DECL_SIZED_(S, A) \
    void shmem_put##S(void *dest, const void *source, size_t nelems, int pe); \
    void shmem_ctx_put##S(shmem_ctx_t ctx, void *dest, const void *source, \
                          size_t nelems, int pe); \
    void shmem_iput##S(void *dest, const void *source, ptrdiff_t dst, \
                       ptrdiff_t sst, size_t nelems, int pe); \
    void shmem_ctx_iput##S(shmem_ctx_t ctx, void *dest, const void *source, \
                           ptrdiff_t dst, ptrdiff_t sst, size_t nelems, \
                           int pe); \
    void shmem_get##S(void *dest, const void *source, size_t nelems, int pe); \
    void shmem_ctx_get##S(shmem_ctx_t ctx, void *dest, const void *source, \
                          size_t nelems, int pe); \
    void shmem_iget##S(void *dest, const void *source, ptrdiff_t dst, \
                       ptrdiff_t sst, size_t nelems, int pe); \
    void shmem_ctx_iget##S(shmem_ctx_t ctx, void *dest, const void *source, \
                           ptrdiff_t dst, ptrdiff_t sst, size_t nelems, \
                           int pe); \
    void shmem_put##S##_nbi(void *dest, const void *source, size_t nelems, \
                            int pe); \
    void shmem_ctx_put##S##_nbi(shmem_ctx_t ctx, void *dest, \
                                const void *source, size_t nelems, int pe); \
    void shmem_get##S##_nbi(void *dest, const void *source, size_t nelems, \
                            int pe); \
    void shmem_ctx_get##S##_nbi(shmem_ctx_t ctx, void *dest, \
                                const void *source, size_t nelems, int pe); \
    void shmem_put##S##_signal(void *dest, const void *source, \
                               size_t nelems, uint64_t *sig_addr, \
                               uint64_t signal, int sig_op, int pe); \
    void shmem_ctx_put##S##_signal(shmem_ctx_t ctx, void *dest, \
                                   const void *source, size_t nelems, \
                                   uint64_t *sig_addr, uint64_t signal, \
                                   int sig_op, int pe); \
    void shmem_put##S##_signal_nbi(void *dest, const void *source, \
                                   size_t nelems, uint64_t *sig_addr, \
                                   uint64_t signal, int sig_op, int pe); \
    void shmem_ctx_put##S##_signal_nbi(shmem_ctx_t ctx, void *dest, \
                                       const void *source, size_t nelems, \
                                       uint64_t *sig_addr, uint64_t signal, \
                                       int sig_op, int pe);
SHMEM_SIZES(SHMEM_DECL_SIZED_, )

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source,
                      size_t nelems, int pe);
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source,
                      size_t nelems, int pe);
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source,
                          size_t nelems, int pe);
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source,
                          size_t nelems, int pe);
void shmem_putmem_signal(void *dest, const void *source, size_t nelems,
                         uint64_t *sig_addr, uint64_t signal, int sig_op,
                         int pe);
void shmem_ctx_putmem_signal(shmem_ctx_t ctx, void *dest, const void *source,
                             size_t nelems, uint64_t *sig_addr,
                             uint64_t signal, int sig_op, int pe);
void shmem_putmem_signal_nbi(void *dest, const void *source, size_t nelems,
                             uint64_t *sig_addr, uint64_t signal, int sig_op,
                             int pe);
void shmem_ctx_putmem_signal_nbi(shmem_ctx_t ctx, void *dest,
                                 const void *source, size_t nelems,
                                 uint64_t *sig_addr, uint64_t signal,
                                 int sig_op, int pe);

uint64_t shmem_signal_fetch(const uint64_t *sig_addr);
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp,
                                 uint64_t cmp_value);

/* ---- atomic memory operations ------------------------------------------ */

#define SHMEM_DECL_EXTAMO_(T, N, A) \
    T shmem_##N##_atomic_fetch(const T *source, int pe); \
    T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t ctx, const T *source, int pe); \
    void shmem_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe); \
    void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t ctx, T *fetch, \
                                          const T *source, int pe); \
    void shmem_##N##_atomic_set(T *dest, T value, int pe); \
    void shmem_ctx_##N##_atomic_set(shmem_ctx_t ctx, T *dest, T value, \
                                    int pe); \
    T shmem_##N##_atomic_swap(T *dest, T value, int pe); \
    T shmem_ctx_##N##_atomic_swap(shmem_ctx_t ctx, T *dest, T value, int pe); \
    void shmem_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe); \
    void shmem_ctx_##N##_atomic_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, \
                                         T value, int pe);
SHMEM_EXTAMO_TYPES(SHMEM_DECL_EXTAMO_, )

#define SHMEM_DECL_AMO_(T, N, A) \
    T shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe); \
    T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t ctx, T *dest, T cond, \
                                          T value, int pe); \
    void shmem_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, \
                                             T value, int pe); \
    void shmem_ctx_##N##_atomic_compare_swap_nbi(shmem_ctx_t ctx, T *fetch, \
                                                 T *dest, T cond, T value, \
                                                 int pe); \
    T shmem_##N##_atomic_fetch_inc(T *dest, int pe); \
    T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t ctx, T *dest, int pe); \
    void shmem_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe); \
    void shmem_ctx_##N##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T *fetch, \
                                              T *dest, int pe); \
    void shmem_##N##_atomic_inc(T *dest, int pe); \
    void shmem_ctx_##N##_atomic_inc(shmem_ctx_t ctx, T *dest, int pe); \
    T shmem_##N##_atomic_fetch_add(T *dest, T value, int pe); \
    T shmem_ctx_##N##_atomic_fetch_add(shmem_ctx_t ctx, T *dest, T value, \
                                       int pe); \
    void shmem_##N##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, \
                                          int pe); \
    void shmem_ctx_##N##_atomic_fetch_add_nbi(shmem_ctx_t ctx, T *fetch, \
                                              T *dest, T value, int pe); \
    void shmem_##N##_atomic_add(T *dest, T value, int pe); \
    void shmem_ctx_##N##_atomic_add(shmem_ctx_t ctx, T *dest, T value, \
                                    int pe);
SHMEM_AMO_TYPES(SHMEM_DECL_AMO_, )

#define SHMEM_DECL_BITAMO1_(T, N, OP) \
    T shmem_##N##_atomic_fetch_##OP(T *dest, T value, int pe); \
    T shmem_ctx_##N##_atomic_fetch_##OP(shmem_ctx_t ctx, T *dest, T value, \
                                        int pe); \
    void shmem_##N##_atomic_fetch_##OP##_nbi(T *fetch, T *dest, T value, \
                                             int pe); \
    void shmem_ctx_##N##_atomic_fetch_##OP##_nbi(shmem_ctx_t ctx, T *fetch, \
                                                 T *dest, T value, int pe); \
    void shmem_##N##_atomic_##OP(T *dest, T value, int pe); \
    void shmem_ctx_##N##_atomic_##OP(shmem_ctx_t ctx, T *dest, T value, \
                                     int pe);
SHMEM_BITAMO_TYPES(SHMEM_DECL_BITAMO1_, and)
SHMEM_BITAMO_TYPES(SHMEM_DECL_BITAMO1_, or)
SHMEM_BITAMO_TYPES(SHMEM_DECL_BITAMO1_, xor)

/* deprecated (1.4) */
#define SHMEM_DECL_OLD_EXTAMO_(T, N, A) \
    T shmem_##N##_fetch(const T *source, int pe); \
    void shmem_##N##_set(T *dest, T value, int pe); \
    T shmem_##N##_swap(T *dest, T value, int pe);
SHMEM_OLD_EXTAMO_TYPES(SHMEM_DECL_OLD_EXTAMO_, )
#define SHMEM_DECL_OLD_AMO_(T, N, A) \
    T shmem_##N##_cswap(T *dest, T cond, T value, int pe); \
    T shmem_##N##_finc(T *dest, int pe); \
    void shmem_##N##_inc(T *dest, int pe); \
    T shmem_##N##_fadd(T *dest, T value, int pe); \
    void shmem_##N##_add(T *dest, T value, int pe);
SHMEM_OLD_AMO_TYPES(SHMEM_DECL_OLD_AMO_, )

/* ---- collectives ------------------------------------------------------- */

void shmem_barrier_all(void);
void shmem_sync_all(void);
int shmem_team_sync(shmem_team_t team);
/* deprecated active-set forms */
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync);

#define SHMEM_DECL_COLL_(T, N, A) \
    int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, \
                             size_t nelems); \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, \
                              ptrdiff_t dst, ptrdiff_t sst, size_t nelems); \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, \
                              size_t nelems, int PE_root); \
    int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, \
                            size_t nelems); \
    int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, \
                             size_t nelems);
SHMEM_RMA_TYPES(SHMEM_DECL_COLL_, )
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source,
                      size_t nelems);
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source,
                       ptrdiff_t dst, ptrdiff_t sst, size_t nelems);
int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source,
                       size_t nelems, int PE_root);
int shmem_collectmem(shmem_team_t team, void *dest, const void *source,
                     size_t nelems);
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source,
                      size_t nelems);

#define SHMEM_DECL_OLD_COLL_(S, A) \
    void shmem_alltoall##S(void *dest, const void *source, size_t nelems, \
                           int PE_start, int logPE_stride, int PE_size, \
                           long *pSync); \
    void shmem_alltoalls##S(void *dest, const void *source, ptrdiff_t dst, \
                            ptrdiff_t sst, size_t nelems, int PE_start, \
                            int logPE_stride, int PE_size, long *pSync); \
    void shmem_broadcast##S(void *dest, const void *source, size_t nelems, \
                            int PE_root, int PE_start, int logPE_stride, \
                            int PE_size, long *pSync); \
    void shmem_collect##S(void *dest, const void *source, size_t nelems, \
                          int PE_start, int logPE_stride, int PE_size, \
                          long *pSync); \
    void shmem_fcollect##S(void *dest, const void *source, size_t nelems, \
                           int PE_start, int logPE_stride, int PE_size, \
                           long *pSync);
SHMEM_DECL_OLD_COLL_(32, )
SHMEM_DECL_OLD_COLL_(64, )

#define SHMEM_DECL_REDUCE_(T, N, OP) \
    int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, \
                                  const T *source, size_t nreduce);
SHMEM_BITRED_TYPES(SHMEM_DECL_REDUCE_, and)
SHMEM_BITRED_TYPES(SHMEM_DECL_REDUCE_, or)
SHMEM_BITRED_TYPES(SHMEM_DECL_REDUCE_, xor)
SHMEM_MINMAX_TYPES(SHMEM_DECL_REDUCE_, max)
SHMEM_MINMAX_TYPES(SHMEM_DECL_REDUCE_, min)
SHMEM_ARITH_TYPES(SHMEM_DECL_REDUCE_, sum)
SHMEM_ARITH_TYPES(SHMEM_DECL_REDUCE_, prod)

#define SHMEM_DECL_TO_ALL_(T, N, OP) \
    void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, \
                                   int PE_start, int logPE_stride, \
                                   int PE_size, T *pWrk, long *pSync);
SHMEM_OLD_BITRED_TYPES(SHMEM_DECL_TO_ALL_, and)
SHMEM_OLD_BITRED_TYPES(SHMEM_DECL_TO_ALL_, or)
SHMEM_OLD_BITRED_TYPES(SHMEM_DECL_TO_ALL_, xor)
SHMEM_OLD_MINMAX_TYPES(SHMEM_DECL_TO_ALL_, max)
SHMEM_OLD_MINMAX_TYPES(SHMEM_DECL_TO_ALL_, min)
SHMEM_OLD_ARITH_TYPES(SHMEM_DECL_TO_ALL_, sum)
SHMEM_OLD_ARITH_TYPES(SHMEM_DECL_TO_ALL_, prod)

/* ---- point-to-point synchronization ------------------------------------ */

#define SHMEM_DECL_SYNC_(T, N, A) \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value); \
    void shmem_##N##_wait_until_all(T *ivars, size_t nelems, \
                                    const int *status, int cmp, \
                                    T cmp_value); \
    size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, \
                                      const int *status, int cmp, \
                                      T cmp_value); \
    size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, \
                                       size_t *indices, const int *status, \
                                       int cmp, T cmp_value); \
    void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, \
                                           const int *status, int cmp, \
                                           T *cmp_values); \
    size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, \
                                             const int *status, int cmp, \
                                             T *cmp_values); \
    size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, \
                                              size_t *indices, \
                                              const int *status, int cmp, \
                                              T *cmp_values); \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value); \
    int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, \
                             int cmp, T cmp_value); \
    size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, \
                                int cmp, T cmp_value); \
    size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices, \
                                 const int *status, int cmp, T cmp_value); \
    int shmem_##N##_test_all_vector(T *ivars, size_t nelems, \
                                    const int *status, int cmp, \
                                    T *cmp_values); \
    size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, \
                                       const int *status, int cmp, \
                                       T *cmp_values); \
    size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, \
                                        size_t *indices, const int *status, \
                                        int cmp, T *cmp_values);
SHMEM_SYNC_TYPES(SHMEM_DECL_SYNC_, )

/* deprecated (1.4): the untyped long forms and shmem_TYPENAME_wait */
void (shmem_wait_until)(long *ivar, int cmp, long cmp_value);
void (shmem_wait)(long *ivar, long cmp_value);
#define SHMEM_DECL_OLD_WAIT_(T, N, A) \
    void shmem_##N##_wait(T *ivar, T cmp_value);
SHMEM_OLD_WAIT_TYPES(SHMEM_DECL_OLD_WAIT_, )

/* ---- memory ordering --------------------------------------------------- */

void shmem_fence(void);
void shmem_ctx_fence(shmem_ctx_t ctx);
void shmem_quiet(void);
void shmem_ctx_quiet(shmem_ctx_t ctx);

/* ---- distributed locking ----------------------------------------------- */

void shmem_set_lock(long *lock);
void shmem_clear_lock(long *lock);
int shmem_test_lock(long *lock);

/* ---- cache management (deprecated; no-ops) ----------------------------- */

void shmem_clear_cache_inv(void);
void shmem_set_cache_inv(void);
void shmem_clear_cache_line_inv(void *dest);
void shmem_set_cache_line_inv(void *dest);
void shmem_udcflush(void);
void shmem_udcflush_line(void *dest);

#ifdef __cplusplus
}
#endif

/* ---- C11 type-generic interfaces --------------------------------------- */

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && \
    !defined(__cplusplus)

/* Selected when no type matches: calling it with the routine's arguments
 * does not compile (it takes none), so a wrong type is a compile error. */
void zeshmem_generic_no_such_type(void);

#define SHMEM_GA0_(a, ...) (a)
#define SHMEM_GA1_(a, b, ...) (b)
#define SHMEM_GSEL_(T, N, OP) , T *: shmem_##N##_##OP
#define SHMEM_GSELC_(T, N, OP) , T *: shmem_ctx_##N##_##OP
#define SHMEM_GSELK_(T, N, OP) \
    , T *: shmem_##N##_##OP, const T *: shmem_##N##_##OP
#define SHMEM_GSELKC_(T, N, OP) \
    , T *: shmem_ctx_##N##_##OP, const T *: shmem_ctx_##N##_##OP

/* Selects on the first argument, or on the second when the first is a
 * context. SEL/SELC: the entry makers (K: const pointers too). */
#define SHMEM_GCTX_(TBL, SEL, SELC, OP, ...) \
    _Generic(SHMEM_GA0_(__VA_ARGS__, 0), \
             shmem_ctx_t: _Generic(SHMEM_GA1_(__VA_ARGS__, 0, 0) \
                                   TBL(SELC, OP), \
                                   default: zeshmem_generic_no_such_type) \
             TBL(SEL, OP), \
             default: zeshmem_generic_no_such_type)(__VA_ARGS__)
/* Selects on the first argument (no context form). */
#define SHMEM_GFIRST_(TBL, OP, ...) \
    _Generic(SHMEM_GA0_(__VA_ARGS__, 0) TBL(SHMEM_GSEL_, OP), \
             default: zeshmem_generic_no_such_type)(__VA_ARGS__)
/* Selects on the second argument (team collectives). */
#define SHMEM_GSECOND_(TBL, OP, ...) \
    _Generic(SHMEM_GA1_(__VA_ARGS__, 0, 0) TBL(SHMEM_GSEL_, OP), \
             default: zeshmem_generic_no_such_type)(__VA_ARGS__)

#define SHMEM_GRMA_(OP, ...) \
    SHMEM_GCTX_(SHMEM_RMA_TYPES_BASE, SHMEM_GSEL_, SHMEM_GSELC_, OP, \
                __VA_ARGS__)
#define shmem_put(...) SHMEM_GRMA_(put, __VA_ARGS__)
#define shmem_p(...) SHMEM_GRMA_(p, __VA_ARGS__)
#define shmem_iput(...) SHMEM_GRMA_(iput, __VA_ARGS__)
#define shmem_get(...) SHMEM_GRMA_(get, __VA_ARGS__)
#define shmem_iget(...) SHMEM_GRMA_(iget, __VA_ARGS__)
#define shmem_put_nbi(...) SHMEM_GRMA_(put_nbi, __VA_ARGS__)
#define shmem_get_nbi(...) SHMEM_GRMA_(get_nbi, __VA_ARGS__)
#define shmem_put_signal(...) SHMEM_GRMA_(put_signal, __VA_ARGS__)
#define shmem_put_signal_nbi(...) SHMEM_GRMA_(put_signal_nbi, __VA_ARGS__)
#define shmem_g(...) \
    SHMEM_GCTX_(SHMEM_RMA_TYPES_BASE, SHMEM_GSELK_, SHMEM_GSELKC_, g, \
                __VA_ARGS__)

#define SHMEM_GEXT_(OP, ...) \
    SHMEM_GCTX_(SHMEM_EXTAMO_TYPES_BASE, SHMEM_GSEL_, SHMEM_GSELC_, OP, \
                __VA_ARGS__)
#define SHMEM_GSTD_(OP, ...) \
    SHMEM_GCTX_(SHMEM_AMO_TYPES_BASE, SHMEM_GSEL_, SHMEM_GSELC_, OP, \
                __VA_ARGS__)
/* The bitwise atomics take int32_t and int64_t too: C types of their own
 * (int and long or long long), not among the base rows' unsigned ones. */
#define SHMEM_BITAMO_GENERIC_TYPES_(X, A) \
    SHMEM_BITAMO_TYPES_BASE(X, A) \
    X(int32_t, int32, A) \
    X(int64_t, int64, A)
#define SHMEM_GBIT_(OP, ...) \
    SHMEM_GCTX_(SHMEM_BITAMO_GENERIC_TYPES_, SHMEM_GSEL_, SHMEM_GSELC_, OP, \
                __VA_ARGS__)
#define shmem_atomic_fetch(...) \
    SHMEM_GCTX_(SHMEM_EXTAMO_TYPES_BASE, SHMEM_GSELK_, SHMEM_GSELKC_, \
                atomic_fetch, __VA_ARGS__)
#define shmem_atomic_fetch_nbi(...) SHMEM_GEXT_(atomic_fetch_nbi, __VA_ARGS__)
#define shmem_atomic_set(...) SHMEM_GEXT_(atomic_set, __VA_ARGS__)
#define shmem_atomic_swap(...) SHMEM_GEXT_(atomic_swap, __VA_ARGS__)
#define shmem_atomic_swap_nbi(...) SHMEM_GEXT_(atomic_swap_nbi, __VA_ARGS__)
#define shmem_atomic_compare_swap(...) \
    SHMEM_GSTD_(atomic_compare_swap, __VA_ARGS__)
#define shmem_atomic_compare_swap_nbi(...) \
    SHMEM_GSTD_(atomic_compare_swap_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_inc(...) SHMEM_GSTD_(atomic_fetch_inc, __VA_ARGS__)
#define shmem_atomic_fetch_inc_nbi(...) \
    SHMEM_GSTD_(atomic_fetch_inc_nbi, __VA_ARGS__)
#define shmem_atomic_inc(...) SHMEM_GSTD_(atomic_inc, __VA_ARGS__)
#define shmem_atomic_fetch_add(...) SHMEM_GSTD_(atomic_fetch_add, __VA_ARGS__)
#define shmem_atomic_fetch_add_nbi(...) \
    SHMEM_GSTD_(atomic_fetch_add_nbi, __VA_ARGS__)
#define shmem_atomic_add(...) SHMEM_GSTD_(atomic_add, __VA_ARGS__)
#define shmem_atomic_fetch_and(...) SHMEM_GBIT_(atomic_fetch_and, __VA_ARGS__)
#define shmem_atomic_fetch_and_nbi(...) \
    SHMEM_GBIT_(atomic_fetch_and_nbi, __VA_ARGS__)
#define shmem_atomic_and(...) SHMEM_GBIT_(atomic_and, __VA_ARGS__)
#define shmem_atomic_fetch_or(...) SHMEM_GBIT_(atomic_fetch_or, __VA_ARGS__)
#define shmem_atomic_fetch_or_nbi(...) \
    SHMEM_GBIT_(atomic_fetch_or_nbi, __VA_ARGS__)
#define shmem_atomic_or(...) SHMEM_GBIT_(atomic_or, __VA_ARGS__)
#define shmem_atomic_fetch_xor(...) SHMEM_GBIT_(atomic_fetch_xor, __VA_ARGS__)
#define shmem_atomic_fetch_xor_nbi(...) \
    SHMEM_GBIT_(atomic_fetch_xor_nbi, __VA_ARGS__)
#define shmem_atomic_xor(...) SHMEM_GBIT_(atomic_xor, __VA_ARGS__)

#define SHMEM_GSYNC_(OP, ...) \
    SHMEM_GFIRST_(SHMEM_SYNC_TYPES_BASE, OP, __VA_ARGS__)
#define shmem_wait_until(...) SHMEM_GSYNC_(wait_until, __VA_ARGS__)
#define shmem_wait_until_all(...) SHMEM_GSYNC_(wait_until_all, __VA_ARGS__)
#define shmem_wait_until_any(...) SHMEM_GSYNC_(wait_until_any, __VA_ARGS__)
#define shmem_wait_until_some(...) SHMEM_GSYNC_(wait_until_some, __VA_ARGS__)
#define shmem_wait_until_all_vector(...) \
    SHMEM_GSYNC_(wait_until_all_vector, __VA_ARGS__)
#define shmem_wait_until_any_vector(...) \
    SHMEM_GSYNC_(wait_until_any_vector, __VA_ARGS__)
#define shmem_wait_until_some_vector(...) \
    SHMEM_GSYNC_(wait_until_some_vector, __VA_ARGS__)
#define shmem_test(...) SHMEM_GSYNC_(test, __VA_ARGS__)
#define shmem_test_all(...) SHMEM_GSYNC_(test_all, __VA_ARGS__)
#define shmem_test_any(...) SHMEM_GSYNC_(test_any, __VA_ARGS__)
#define shmem_test_some(...) SHMEM_GSYNC_(test_some, __VA_ARGS__)
#define shmem_test_all_vector(...) SHMEM_GSYNC_(test_all_vector, __VA_ARGS__)
#define shmem_test_any_vector(...) SHMEM_GSYNC_(test_any_vector, __VA_ARGS__)
#define shmem_test_some_vector(...) \
    SHMEM_GSYNC_(test_some_vector, __VA_ARGS__)

#define shmem_alltoall(...) \
    SHMEM_GSECOND_(SHMEM_RMA_TYPES_BASE, alltoall, __VA_ARGS__)
#define shmem_alltoalls(...) \
    SHMEM_GSECOND_(SHMEM_RMA_TYPES_BASE, alltoalls, __VA_ARGS__)
#define shmem_broadcast(...) \
    SHMEM_GSECOND_(SHMEM_RMA_TYPES_BASE, broadcast, __VA_ARGS__)
#define shmem_collect(...) \
    SHMEM_GSECOND_(SHMEM_RMA_TYPES_BASE, collect, __VA_ARGS__)
#define shmem_fcollect(...) \
    SHMEM_GSECOND_(SHMEM_RMA_TYPES_BASE, fcollect, __VA_ARGS__)
/* The bitwise reductions' table in a _Generic: the unsigned base types
 * and int8_t..int64_t (signed char, short, int and long or long long:
 * types of their own, unlike uint8_t..uint64_t and size_t, which are
 * base types already listed). */
#define SHMEM_BITRED_TYPES_GENERIC_(X, A) \
    SHMEM_BITRED_TYPES_BASE(X, A) \
    X(int8_t, int8, A) \
    X(int16_t, int16, A) \
    X(int32_t, int32, A) \
    X(int64_t, int64, A)
#define shmem_and_reduce(...) \
    SHMEM_GSECOND_(SHMEM_BITRED_TYPES_GENERIC_, and_reduce, __VA_ARGS__)
#define shmem_or_reduce(...) \
    SHMEM_GSECOND_(SHMEM_BITRED_TYPES_GENERIC_, or_reduce, __VA_ARGS__)
#define shmem_xor_reduce(...) \
    SHMEM_GSECOND_(SHMEM_BITRED_TYPES_GENERIC_, xor_reduce, __VA_ARGS__)

/* shmem_sync: the 1.5 C11 form shmem_sync(team) and the deprecated
 * shmem_sync(PE_start, logPE_stride, PE_size, pSync), told apart by the
 * number of arguments (a macro does not expand itself again, so the
 * four-argument form calls the function). */
#define SHMEM_NARG1OR4_(a, b, c, d, n, ...) n
#define SHMEM_SYNC_1_(team) shmem_team_sync(team)
#define SHMEM_SYNC_4_(s, l, n, p) shmem_sync(s, l, n, p)
#define SHMEM_SYNC_PICK_(n) SHMEM_SYNC_##n##_
#define SHMEM_SYNC_SEL_(n) SHMEM_SYNC_PICK_(n)
#define shmem_sync(...) \
    SHMEM_SYNC_SEL_(SHMEM_NARG1OR4_(__VA_ARGS__, 4, 3, 2, 1, 0))(__VA_ARGS__)
#define shmem_max_reduce(...) \
    SHMEM_GSECOND_(SHMEM_MINMAX_TYPES_BASE, max_reduce, __VA_ARGS__)
#define shmem_min_reduce(...) \
    SHMEM_GSECOND_(SHMEM_MINMAX_TYPES_BASE, min_reduce, __VA_ARGS__)
#define shmem_sum_reduce(...) \
    SHMEM_GSECOND_(SHMEM_ARITH_TYPES_BASE, sum_reduce, __VA_ARGS__)
#define shmem_prod_reduce(...) \
    SHMEM_GSECOND_(SHMEM_ARITH_TYPES_BASE, prod_reduce, __VA_ARGS__)

/* deprecated (1.4) generic atomics */
#define shmem_fetch(...) \
    _Generic(SHMEM_GA0_(__VA_ARGS__, 0) \
             SHMEM_OLD_EXTAMO_TYPES(SHMEM_GSELK_, fetch), \
             default: zeshmem_generic_no_such_type)(__VA_ARGS__)
#define SHMEM_GOLD_(TBL, OP, ...) \
    _Generic(SHMEM_GA0_(__VA_ARGS__, 0) TBL(SHMEM_GSEL_, OP), \
             default: zeshmem_generic_no_such_type)(__VA_ARGS__)
#define shmem_set(...) SHMEM_GOLD_(SHMEM_OLD_EXTAMO_TYPES, set, __VA_ARGS__)
#define shmem_swap(...) SHMEM_GOLD_(SHMEM_OLD_EXTAMO_TYPES, swap, __VA_ARGS__)
#define shmem_cswap(...) SHMEM_GOLD_(SHMEM_OLD_AMO_TYPES, cswap, __VA_ARGS__)
#define shmem_finc(...) SHMEM_GOLD_(SHMEM_OLD_AMO_TYPES, finc, __VA_ARGS__)
#define shmem_inc(...) SHMEM_GOLD_(SHMEM_OLD_AMO_TYPES, inc, __VA_ARGS__)
#define shmem_fadd(...) SHMEM_GOLD_(SHMEM_OLD_AMO_TYPES, fadd, __VA_ARGS__)
#define shmem_add(...) SHMEM_GOLD_(SHMEM_OLD_AMO_TYPES, add, __VA_ARGS__)

#endif /* C11 */

#endif /* ZESHMEM_SHMEM_H */
