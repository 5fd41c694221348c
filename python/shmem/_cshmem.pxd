# SPDX-License-Identifier: MIT
# The C API the module uses: libzeshmem's public shmem.h and shmemx.h
# (api/), and the local-range probe of zemem's common library (u_os.h).
from libc.stdint cimport (int8_t, int16_t, int32_t, int64_t, uint8_t,
                          uint16_t, uint32_t, uint64_t)
from libc.stddef cimport size_t

cdef extern from "shmem.h" nogil:
    cdef struct zeshmem_team
    ctypedef zeshmem_team *shmem_team_t
    ctypedef struct shmem_team_config_t:
        int num_contexts
    # (C names: SHMEM_TEAM_WORLD is also the module's Team object)
    shmem_team_t C_TEAM_WORLD "SHMEM_TEAM_WORLD"
    shmem_team_t C_TEAM_SHARED "SHMEM_TEAM_SHARED"
    shmem_team_t SHMEM_TEAM_INVALID
    long SHMEM_TEAM_NUM_CONTEXTS
    int SHMEM_MAX_NAME_LEN
    int SHMEM_THREAD_MULTIPLE
    int SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_GT, SHMEM_CMP_LE
    int SHMEM_CMP_LT, SHMEM_CMP_GE
    int SHMEM_SIGNAL_SET, SHMEM_SIGNAL_ADD

    int shmem_init_thread(int requested, int *provided)
    int shmem_my_pe()
    int shmem_n_pes()
    int shmem_pe_accessible(int pe)
    void shmem_info_get_version(int *major, int *minor)
    void shmem_info_get_name(char *name)
    void shmem_global_exit(int status)

    void *shmem_malloc(size_t size)
    void *shmem_calloc(size_t count, size_t size)
    void *shmem_align(size_t alignment, size_t size)
    void shmem_free(void *ptr)
    void *shmem_ptr(const void *dest, int pe)

    int shmem_team_my_pe(shmem_team_t team)
    int shmem_team_n_pes(shmem_team_t team)
    int shmem_team_get_config(shmem_team_t team, long config_mask,
                              shmem_team_config_t *config)
    int shmem_team_translate_pe(shmem_team_t src_team, int src_pe,
                                shmem_team_t dest_team)
    int shmem_team_split_strided(shmem_team_t parent_team, int start,
                                 int stride, int size,
                                 const shmem_team_config_t *config,
                                 long config_mask, shmem_team_t *new_team)
    int shmem_team_split_2d(shmem_team_t parent_team, int xrange,
                            const shmem_team_config_t *xaxis_config,
                            long xaxis_mask, shmem_team_t *xaxis_team,
                            const shmem_team_config_t *yaxis_config,
                            long yaxis_mask, shmem_team_t *yaxis_team)
    void shmem_team_destroy(shmem_team_t team)

    void shmem_putmem(void *dest, const void *source, size_t n, int pe)
    void shmem_getmem(void *dest, const void *source, size_t n, int pe)
    void shmem_putmem_nbi(void *dest, const void *source, size_t n, int pe)
    void shmem_getmem_nbi(void *dest, const void *source, size_t n, int pe)
    void shmem_putmem_signal(void *dest, const void *source, size_t n,
                             uint64_t *sig_addr, uint64_t signal,
                             int sig_op, int pe)
    void shmem_putmem_signal_nbi(void *dest, const void *source, size_t n,
                                 uint64_t *sig_addr, uint64_t signal,
                                 int sig_op, int pe)
    uint64_t shmem_signal_fetch(const uint64_t *sig_addr)
    void shmem_quiet()
    void shmem_fence()
    int shmem_team_sync(shmem_team_t team)

    # collectives (the byte forms; reductions per type below)
    int shmem_broadcastmem(shmem_team_t team, void *dest,
                           const void *source, size_t nelems, int pe_root)
    int shmem_fcollectmem(shmem_team_t team, void *dest,
                          const void *source, size_t nelems)
    int shmem_alltoallmem(shmem_team_t team, void *dest,
                          const void *source, size_t nelems)

    # reductions: one C function per (type, op); these are the numpy
    # dtypes' types (the others reduce in the module, see _coll_amo.pxi)
    int shmem_int8_sum_reduce(shmem_team_t, int8_t *, const int8_t *, size_t)
    int shmem_int16_sum_reduce(shmem_team_t, int16_t *, const int16_t *,
                               size_t)
    int shmem_int32_sum_reduce(shmem_team_t, int32_t *, const int32_t *,
                               size_t)
    int shmem_int64_sum_reduce(shmem_team_t, int64_t *, const int64_t *,
                               size_t)
    int shmem_uint8_sum_reduce(shmem_team_t, uint8_t *, const uint8_t *,
                               size_t)
    int shmem_uint16_sum_reduce(shmem_team_t, uint16_t *, const uint16_t *,
                                size_t)
    int shmem_uint32_sum_reduce(shmem_team_t, uint32_t *, const uint32_t *,
                                size_t)
    int shmem_uint64_sum_reduce(shmem_team_t, uint64_t *, const uint64_t *,
                                size_t)
    int shmem_float_sum_reduce(shmem_team_t, float *, const float *, size_t)
    int shmem_double_sum_reduce(shmem_team_t, double *, const double *,
                                size_t)
    int shmem_int8_prod_reduce(shmem_team_t, int8_t *, const int8_t *,
                               size_t)
    int shmem_int16_prod_reduce(shmem_team_t, int16_t *, const int16_t *,
                                size_t)
    int shmem_int32_prod_reduce(shmem_team_t, int32_t *, const int32_t *,
                                size_t)
    int shmem_int64_prod_reduce(shmem_team_t, int64_t *, const int64_t *,
                                size_t)
    int shmem_uint8_prod_reduce(shmem_team_t, uint8_t *, const uint8_t *,
                                size_t)
    int shmem_uint16_prod_reduce(shmem_team_t, uint16_t *,
                                 const uint16_t *, size_t)
    int shmem_uint32_prod_reduce(shmem_team_t, uint32_t *,
                                 const uint32_t *, size_t)
    int shmem_uint64_prod_reduce(shmem_team_t, uint64_t *,
                                 const uint64_t *, size_t)
    int shmem_float_prod_reduce(shmem_team_t, float *, const float *, size_t)
    int shmem_double_prod_reduce(shmem_team_t, double *, const double *,
                                 size_t)
    int shmem_int8_min_reduce(shmem_team_t, int8_t *, const int8_t *, size_t)
    int shmem_int16_min_reduce(shmem_team_t, int16_t *, const int16_t *,
                               size_t)
    int shmem_int32_min_reduce(shmem_team_t, int32_t *, const int32_t *,
                               size_t)
    int shmem_int64_min_reduce(shmem_team_t, int64_t *, const int64_t *,
                               size_t)
    int shmem_uint8_min_reduce(shmem_team_t, uint8_t *, const uint8_t *,
                               size_t)
    int shmem_uint16_min_reduce(shmem_team_t, uint16_t *, const uint16_t *,
                                size_t)
    int shmem_uint32_min_reduce(shmem_team_t, uint32_t *, const uint32_t *,
                                size_t)
    int shmem_uint64_min_reduce(shmem_team_t, uint64_t *, const uint64_t *,
                                size_t)
    int shmem_float_min_reduce(shmem_team_t, float *, const float *, size_t)
    int shmem_double_min_reduce(shmem_team_t, double *, const double *,
                                size_t)
    int shmem_int8_max_reduce(shmem_team_t, int8_t *, const int8_t *, size_t)
    int shmem_int16_max_reduce(shmem_team_t, int16_t *, const int16_t *,
                               size_t)
    int shmem_int32_max_reduce(shmem_team_t, int32_t *, const int32_t *,
                               size_t)
    int shmem_int64_max_reduce(shmem_team_t, int64_t *, const int64_t *,
                               size_t)
    int shmem_uint8_max_reduce(shmem_team_t, uint8_t *, const uint8_t *,
                               size_t)
    int shmem_uint16_max_reduce(shmem_team_t, uint16_t *, const uint16_t *,
                                size_t)
    int shmem_uint32_max_reduce(shmem_team_t, uint32_t *, const uint32_t *,
                                size_t)
    int shmem_uint64_max_reduce(shmem_team_t, uint64_t *, const uint64_t *,
                                size_t)
    int shmem_float_max_reduce(shmem_team_t, float *, const float *, size_t)
    int shmem_double_max_reduce(shmem_team_t, double *, const double *,
                                size_t)
    # bitwise reductions work on the bits: the unsigned forms serve the
    # signed dtypes and bool too
    int shmem_uint8_and_reduce(shmem_team_t, uint8_t *, const uint8_t *,
                               size_t)
    int shmem_uint16_and_reduce(shmem_team_t, uint16_t *, const uint16_t *,
                                size_t)
    int shmem_uint32_and_reduce(shmem_team_t, uint32_t *, const uint32_t *,
                                size_t)
    int shmem_uint64_and_reduce(shmem_team_t, uint64_t *, const uint64_t *,
                                size_t)
    int shmem_uint8_or_reduce(shmem_team_t, uint8_t *, const uint8_t *,
                              size_t)
    int shmem_uint16_or_reduce(shmem_team_t, uint16_t *, const uint16_t *,
                               size_t)
    int shmem_uint32_or_reduce(shmem_team_t, uint32_t *, const uint32_t *,
                               size_t)
    int shmem_uint64_or_reduce(shmem_team_t, uint64_t *, const uint64_t *,
                               size_t)
    int shmem_uint8_xor_reduce(shmem_team_t, uint8_t *, const uint8_t *,
                               size_t)
    int shmem_uint16_xor_reduce(shmem_team_t, uint16_t *, const uint16_t *,
                                size_t)
    int shmem_uint32_xor_reduce(shmem_team_t, uint32_t *, const uint32_t *,
                                size_t)
    int shmem_uint64_xor_reduce(shmem_team_t, uint64_t *, const uint64_t *,
                                size_t)

    # atomics on 32- and 64-bit words
    int32_t shmem_int32_atomic_fetch(const int32_t *source, int pe)
    int64_t shmem_int64_atomic_fetch(const int64_t *source, int pe)
    uint32_t shmem_uint32_atomic_fetch(const uint32_t *source, int pe)
    uint64_t shmem_uint64_atomic_fetch(const uint64_t *source, int pe)
    float shmem_float_atomic_fetch(const float *source, int pe)
    double shmem_double_atomic_fetch(const double *source, int pe)
    void shmem_int32_atomic_set(int32_t *dest, int32_t value, int pe)
    void shmem_int64_atomic_set(int64_t *dest, int64_t value, int pe)
    void shmem_uint32_atomic_set(uint32_t *dest, uint32_t value, int pe)
    void shmem_uint64_atomic_set(uint64_t *dest, uint64_t value, int pe)
    void shmem_float_atomic_set(float *dest, float value, int pe)
    void shmem_double_atomic_set(double *dest, double value, int pe)
    int32_t shmem_int32_atomic_swap(int32_t *dest, int32_t value, int pe)
    int64_t shmem_int64_atomic_swap(int64_t *dest, int64_t value, int pe)
    uint32_t shmem_uint32_atomic_swap(uint32_t *dest, uint32_t value, int pe)
    uint64_t shmem_uint64_atomic_swap(uint64_t *dest, uint64_t value, int pe)
    float shmem_float_atomic_swap(float *dest, float value, int pe)
    double shmem_double_atomic_swap(double *dest, double value, int pe)
    int32_t shmem_int32_atomic_compare_swap(int32_t *dest, int32_t cond,
                                            int32_t value, int pe)
    int64_t shmem_int64_atomic_compare_swap(int64_t *dest, int64_t cond,
                                            int64_t value, int pe)
    uint32_t shmem_uint32_atomic_compare_swap(uint32_t *dest, uint32_t cond,
                                              uint32_t value, int pe)
    uint64_t shmem_uint64_atomic_compare_swap(uint64_t *dest, uint64_t cond,
                                              uint64_t value, int pe)
    int32_t shmem_int32_atomic_fetch_add(int32_t *dest, int32_t v, int pe)
    int64_t shmem_int64_atomic_fetch_add(int64_t *dest, int64_t v, int pe)
    uint32_t shmem_uint32_atomic_fetch_add(uint32_t *dest, uint32_t v,
                                           int pe)
    uint64_t shmem_uint64_atomic_fetch_add(uint64_t *dest, uint64_t v,
                                           int pe)
    int32_t shmem_int32_atomic_fetch_and(int32_t *dest, int32_t v, int pe)
    int64_t shmem_int64_atomic_fetch_and(int64_t *dest, int64_t v, int pe)
    uint32_t shmem_uint32_atomic_fetch_and(uint32_t *dest, uint32_t v,
                                           int pe)
    uint64_t shmem_uint64_atomic_fetch_and(uint64_t *dest, uint64_t v,
                                           int pe)
    int32_t shmem_int32_atomic_fetch_or(int32_t *dest, int32_t v, int pe)
    int64_t shmem_int64_atomic_fetch_or(int64_t *dest, int64_t v, int pe)
    uint32_t shmem_uint32_atomic_fetch_or(uint32_t *dest, uint32_t v,
                                          int pe)
    uint64_t shmem_uint64_atomic_fetch_or(uint64_t *dest, uint64_t v,
                                          int pe)
    int32_t shmem_int32_atomic_fetch_xor(int32_t *dest, int32_t v, int pe)
    int64_t shmem_int64_atomic_fetch_xor(int64_t *dest, int64_t v, int pe)
    uint32_t shmem_uint32_atomic_fetch_xor(uint32_t *dest, uint32_t v,
                                           int pe)
    uint64_t shmem_uint64_atomic_fetch_xor(uint64_t *dest, uint64_t v,
                                           int pe)
    void shmem_uint64_atomic_add(uint64_t *dest, uint64_t value, int pe)

cdef extern from "shmemx.h" nogil:
    ctypedef struct shmemx_uniqueid_t:
        unsigned char internal[128]
    int SHMEMX_COPY_DEFAULT, SHMEMX_COPY_AUTO, SHMEMX_COPY_DIRECT
    int SHMEMX_COPY_ENGINE
    int shmemx_get_uniqueid(shmemx_uniqueid_t *uid)
    int shmemx_init_attr_thread(int rank, int nranks,
                                const shmemx_uniqueid_t *uid, int requested,
                                int *provided)
    void *shmemx_heap_base()
    size_t shmemx_heap_size()
    int shmemx_set_heap_size(size_t bytes)
    int shmemx_set_copy_mode(int mode)
    int shmemx_set_log_level(int level)
    unsigned shmemx_timeout()
    int shmemx_device_index()
    int shmemx_signal_wait_until_timeout(uint64_t *sig_addr, int cmp,
                                         uint64_t cmp_value, long timeout_ms,
                                         uint64_t *value)
    int shmemx_barrier_all_status()
    int shmemx_finalize_status()

cdef extern from "u_os.h" nogil:
    int u_probe(const void *p, size_t len, int write)

cdef extern from "u_touch.h":
    int u_touch(const void *p, size_t len, int write)

cdef extern from "sys/mman.h" nogil:
    int MAP_FIXED_NOREPLACE
