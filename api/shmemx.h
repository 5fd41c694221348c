/* SPDX-License-Identifier: MIT */
/*
 * shmemx.h: libzeshmem's extensions to OpenSHMEM 1.5.
 *
 * Unique-id start (the shape rocSHMEM and ACLSHMEM use): one process calls
 * shmemx_get_uniqueid, sends the bytes to the others however it likes, and
 * every process calls shmemx_init_attr(rank, nranks, &uid) instead of
 * shmem_init. The root (rank 0, the process that made the id) serves the
 * exchange over TCP during init; the id holds its address and a nonce
 * (the job's secret). The root listens on loopback unless
 * ZESHMEM_BOOT_IFACE names an interface: set it where the id is made when
 * the job's processes run on several nodes.
 */
#ifndef ZESHMEM_SHMEMX_H
#define ZESHMEM_SHMEMX_H

#include <stddef.h>
#include <stdint.h>

#include "shmem.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SHMEMX_UNIQUEID_BYTES 128

typedef struct {
    unsigned char internal[SHMEMX_UNIQUEID_BYTES];
} shmemx_uniqueid_t;

#define SHMEMX_UNIQUEID_INITIALIZER {{0}}

/* Makes a new job id; the calling process must then be rank 0 of
 * shmemx_init_attr. 0, or nonzero (uid NULL, no socket could be bound). */
int shmemx_get_uniqueid(shmemx_uniqueid_t *uid);

/* shmem_init through the unique id: rank in [0, nranks). 0 on success,
 * nonzero (the reason on stderr) otherwise; the program may then exit. */
int shmemx_init_attr(int rank, int nranks, const shmemx_uniqueid_t *uid);

/* Same, with a thread level as shmem_init_thread takes one. */
int shmemx_init_attr_thread(int rank, int nranks,
                            const shmemx_uniqueid_t *uid, int requested,
                            int *provided);

/* This PE's symmetric heap: where it starts and its current size (it grows
 * when a collective allocation does not fit). NULL / 0 before init. */
void *shmemx_heap_base(void);
size_t shmemx_heap_size(void);

/* ---- for language bindings (the Python module `shmem`) ----------------
 * Settings the next init uses instead of an option, and blocking calls in
 * forms that return an error instead of ending the PE (the shmem.h forms
 * end it with one line on stderr). Errors are negative errno values:
 * -EINVAL a bad argument, -EBUSY while initialized, -ENODEV not
 * initialized, -EHOSTDOWN a PE of the job ended, -ETIMEDOUT no answer
 * within ZESHMEM_TIMEOUT. */

/* The initial heap size of the next init in bytes, instead of
 * ZESHMEM_SYMMETRIC_SIZE (0: the option again); 64 KiB .. 64 TiB. */
int shmemx_set_heap_size(size_t bytes);

/* How the next init moves node-local data, instead of ZESHMEM_COPY. */
enum {
    SHMEMX_COPY_DEFAULT = -1, /* the option */
    SHMEMX_COPY_AUTO = 0,
    SHMEMX_COPY_DIRECT = 1,
    SHMEMX_COPY_ENGINE = 2
};
int shmemx_set_copy_mode(int mode);

/* The library's log threshold for every topic, instead of
 * ZEMEM_LOG_LEVEL's: 0 none, 1 error, 2 warn, 3 info, 4 debug, 5 trace. */
int shmemx_set_log_level(int level);

/* ZESHMEM_TIMEOUT in seconds (how long a wait on a PE of another node
 * lasts before it fails). */
unsigned shmemx_timeout(void);

/* The index of this PE's Level Zero device among its driver's devices
 * (the heap's device), -ENODEV before init. */
int shmemx_device_index(void);

/* The runtime's Level Zero context and device (ze_context_handle_t,
 * ze_device_handle_t; NULL before init): memory for
 * rocshmem_buffer_register_symmetric is reserved and mapped in this
 * context (zeVirtualMemReserve + zePhysicalMemCreate + zeVirtualMemMap). */
void *shmemx_ze_context(void);
void *shmemx_ze_device(void);

/* Names the program's own Level Zero context (a ze_context_handle_t of
 * the runtime's driver; NULL forgets it): rocshmem_buffer_register_
 * symmetric then asks about and exports buffers reserved and mapped in
 * it, which drivers that keep VMM ranges per context know only there.
 * Without it the runtime asks zeDriverGetDefaultContext (where the loader
 * and driver have it), then its own context; zemem's and Intel's drivers
 * answer for any of their contexts. Any time, not collective; the context
 * must outlive the registrations made while it is named. Returns 0. */
int shmemx_set_ze_context(void *ctx);

/* shmem_signal_wait_until for at most timeout_ms milliseconds (rounded up
 * to the runtime's sleep slice, 50 ms): 0 when the condition holds
 * (*value = the signal, value may be NULL), 1 when timeout_ms passed
 * first, else -errno (-EFAULT with one warning when sig_addr is not
 * symmetric memory). sig_addr is an 8-byte aligned word of this PE. */
int shmemx_signal_wait_until_timeout(uint64_t *sig_addr, int cmp,
                                     uint64_t cmp_value, long timeout_ms,
                                     uint64_t *value);

/* shmem_barrier_all: 0 or -errno. */
int shmemx_barrier_all_status(void);

/* shmem_finalize: every resource is released either way; 0, or -errno of
 * the final barrier. */
int shmemx_finalize_status(void);

/* Stream-ordered forms (rocSHMEM's *_on_stream, rocshmem/rocshmem.h
 * says how they order): queue is a Level Zero command list
 * (ze_command_list_handle_t). putmem / getmem with a PE of this node are
 * a copy appended to the list (immediate or regular); the others need an
 * immediate list. 0, else -1 and one warning. cmp: SHMEM_CMP_*. */
int shmemx_putmem_on_queue(void *dest, const void *source, size_t nelems,
                           int pe, void *queue);
int shmemx_getmem_on_queue(void *dest, const void *source, size_t nelems,
                           int pe, void *queue);
int shmemx_putmem_signal_on_queue(void *dest, const void *source,
                                  size_t nelems, uint64_t *sig_addr,
                                  uint64_t signal, int sig_op, int pe,
                                  void *queue);
int shmemx_signal_wait_until_on_queue(uint64_t *sig_addr, int cmp,
                                      uint64_t cmp_value, void *queue);
int shmemx_quiet_on_queue(void *queue);
int shmemx_barrier_all_on_queue(void *queue);
int shmemx_sync_all_on_queue(void *queue);
int shmemx_broadcastmem_on_queue(shmem_team_t team, void *dest,
                                 const void *source, size_t nelems,
                                 int pe_root, void *queue);
int shmemx_alltoallmem_on_queue(shmem_team_t team, void *dest,
                                const void *source, size_t size,
                                void *queue);

#ifdef __cplusplus
}
#endif

#endif /* ZESHMEM_SHMEMX_H */
