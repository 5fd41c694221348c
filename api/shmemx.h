/* SPDX-License-Identifier: MIT */
/*
 * shmemx.h: libzeshmem's extensions to OpenSHMEM 1.5.
 *
 * Unique-id start (the shape rocSHMEM and ACLSHMEM use): one process calls
 * shmemx_get_uniqueid, sends the bytes to the others however it likes, and
 * every process calls shmemx_init_attr(rank, nranks, &uid) instead of
 * shmem_init. The root (rank 0, the process that made the id) serves the
 * exchange over TCP during init; the id holds its address and a nonce.
 */
#ifndef ZESHMEM_SHMEMX_H
#define ZESHMEM_SHMEMX_H

#include <stddef.h>

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

#ifdef __cplusplus
}
#endif

#endif /* ZESHMEM_SHMEMX_H */
