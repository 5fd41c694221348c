// SPDX-License-Identifier: MIT
/*
 * wm.h: libzewholememory's one private header (WholeMemory on zemem).
 *
 * Vocabulary
 *   world     the libzeshmem job (every PE): the first communicator made
 *             (unique id or environment) starts libzeshmem; every other
 *             communicator is a split of it. wm_comm.c
 *   comm      an ordered subset of the world's PEs (rank -> PE); its
 *             collectives (all-gather, barrier, argument checks) run over
 *             a mailbox in the symmetric heap: one slot per sender in
 *             every PE, a sequence word signalled with put-with-signal and
 *             an acknowledgement word per receiver. wm_comm.c
 *   node      the PEs that map each other's heaps (shmem_ptr != NULL):
 *             node index = the smallest PE of the node.
 *   handle    one wholememory_malloc: partitions (rank sizes / offsets),
 *             and either mapped memory (CONTINUOUS, CHUNKED: wm_map.c,
 *             one virtual range of every rank's physical memory) or
 *             symmetric-heap memory (DISTRIBUTED, HIERARCHY: libzeshmem
 *             RMA, node peers through shmem_ptr; mapped as CONTINUOUS
 *             on a communicator of part of the world within one node).
 *             wm_mem.c
 *   io        load_from_file / store_to_file. wm_io.c
 *   gather    wholememoryx_gather / _scatter: rows by index. wm_gather.c
 *   tensor    descriptions and tensors (a description over a handle or
 *             plain memory). wm_tensor.c
 *   op        wholememory_gather / _scatter on tensors: indices of two
 *             types, element conversion, the command list. wm_op.c
 *   embedding tables with sparse optimizers and caches, on the tensors
 *             and ops. wm_embedding.c
 *   graph     CSR neighbour sampling, append unique, self loops.
 *             wm_graph.c
 *
 * Errors: 0 or -errno inside; wm_result() (wm_comm.c) is the one place
 * an -errno becomes a wholememory_error_code_t:
 *   -EINVAL, -ENOENT, -EBADF   WHOLEMEMORY_INVALID_INPUT
 *   -EDOM                      WHOLEMEMORY_INVALID_VALUE
 *   -ENOMEM                    WHOLEMEMORY_OUT_OF_MEMORY
 *   -EOPNOTSUPP                WHOLEMEMORY_NOT_SUPPORTED
 *   -EPROTO, -ETIMEDOUT, -EHOSTDOWN  WHOLEMEMORY_COMMUNICATION_ERROR
 *   -ENOTRECOVERABLE           WHOLEMEMORY_LOGIC_ERROR
 *   anything else (-EIO, ...)  WHOLEMEMORY_SYSTEM_ERROR
 *
 * Threads: like WholeMemory, calls on one communicator are serialised by
 * the program; the registry of live objects has a lock of its own.
 * Logging: u_log topic "wm" (ZEMEM_LOG_LEVEL=warn,wm:debug).
 */
#ifndef ZEMEM_WM_H
#define ZEMEM_WM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <level_zero/ze_api.h>
#include <wholememory/wholememory.h>
#include <wholememory/wholememory_tensor.h>

#include "u_log.h"

#define WM_TOPIC "wm"
#define WM_API __attribute__((visibility("default")))
#define WM_COMM_MAGIC 0x776d636du   /* "wmcm" */
#define WM_HANDLE_MAGIC 0x776d686eu /* "wmhn" */
#define WM_TENSOR_MAGIC 0x776d7473u /* "wmts" */

/* A 1-D description of n elements, and a 2-D one of rows x cols with a
 * row stride (in elements). */
static inline wholememory_tensor_description_t
wm_desc1(int64_t n, wholememory_dtype_t dt)
{
	wholememory_tensor_description_t d;
	wholememory_initialize_tensor_desc(&d);
	d.dim = 1;
	d.sizes[0] = n;
	d.dtype = dt;
	return d;
}

static inline wholememory_tensor_description_t
wm_desc2(int64_t rows, int64_t cols, int64_t stride, wholememory_dtype_t dt)
{
	wholememory_tensor_description_t d = wm_desc1(rows, dt);
	d.dim = 2;
	d.sizes[1] = cols;
	d.strides[0] = stride;
	return d;
}

struct wholememory_comm_ {
	uint32_t magic;
	uint64_t id;                      /* same on every member */
	uint64_t nchild;                  /* splits made from it */
	uint64_t ncoll;                   /* collectives run on it */
	int rank, size;
	int *pe;                          /* [size]: world PE of each rank */
	int *node;                        /* [size]: node index of each rank */
	int local_size, local_rank;       /* on this node */
	int first_local;                  /* lowest rank of this node */
	int node_idx, nnodes;             /* clique id / clique num */
	bool world_sized;                 /* every PE of the world is in it */
	wholememory_distributed_backend_t backend;
	bool internal;                    /* a handle's local/cross comm */
};

struct wholememory_handle_ {
	uint32_t magic;
	struct wholememory_comm_ *comm;
	wholememory_memory_type_t type;
	wholememory_memory_location_t loc;
	size_t total, gran;
	size_t *sizes;                    /* [size] bytes per rank */
	size_t *offs;                     /* [size + 1] */
	char *local;                      /* this rank's partition */
	/* mapped types (wm_map.c) */
	char *base;                       /* the global range */
	size_t range;                     /* its reservation's bytes */
	ze_physical_mem_handle_t mine;    /* this rank's object */
	ze_physical_mem_handle_t *imp;    /* [size]: imported objects */
	bool *mapped;                     /* [size] */
	void **rank_ptr;                  /* [size]: gref of CHUNKED DEVICE */
	/* symmetric-heap types */
	char *sym;                        /* shmem_malloc'ed partition */
	struct wholememory_comm_ *lcomm, *xcomm;    /* HIERARCHY */
};

/* ---- wm_comm.c --------------------------------------------------------- */
int wm_result(int err);
/* Registry of live objects: a handle is looked up before it is used. */
bool wm_comm_live(const struct wholememory_comm_ *c);
bool wm_handle_live(const struct wholememory_handle_ *h);
void wm_handle_register(struct wholememory_handle_ *h, bool add);
/* Any object of the registry (its first word its magic); register
 * returns 0 or -ENOMEM. */
bool wm_obj_live(const void *p, uint32_t magic);
int wm_obj_register(void *p, bool add);
/* Level Zero objects of the library (after the world exists). */
ze_context_handle_t wm_ze_ctx(void);
ze_device_handle_t wm_ze_dev(void);
/* Collectives over c (every member calls them in the same order): every
 * rank passes len bytes; all gets size * len bytes in rank order. */
int wm_allgather(struct wholememory_comm_ *c, const void *mine, size_t len, void *all);
int wm_barrier(struct wholememory_comm_ *c);
/* 0 on every rank when every rank passed the same len bytes, -EINVAL on
 * every rank otherwise (logged once). */
int wm_check_same(struct wholememory_comm_ *c, const void *args, size_t len,
		  const char *call);
/* The first nonzero err of any rank (the same on every rank), or a
 * communication error. */
int wm_agree(struct wholememory_comm_ *c, int err);
/* Split used by the API and by HIERARCHY handles. */
int wm_split(struct wholememory_comm_ *c, int color, int key, bool internal,
	     struct wholememory_comm_ **out);
void wm_comm_free(struct wholememory_comm_ *c);
/* pid of a world PE (for pidfd_getfd). */
int wm_pe_pid(int pe);

/* ---- wm_map.c ---------------------------------------------------------- */
/* Collective over h->comm (all on one node): maps every rank's partition
 * into one range (h->base), fills local / rank_ptr. 0 or -errno. */
int wm_map_create(struct wholememory_handle_ *h);
void wm_map_destroy(struct wholememory_handle_ *h);

/* ---- wm_mem.c ---------------------------------------------------------- */
/* The rank holding byte off of the table (offs is sorted). */
int wm_owner(const struct wholememory_handle_ *h, size_t off);
/* Where this rank reaches rank r's partition directly, NULL if it
 * cannot (another node, DISTRIBUTED). */
char *wm_rank_ptr(const struct wholememory_handle_ *h, int r);
/* Rank r's part as the library's own copies reach it with loads and
 * stores: any part of a mapping (DISTRIBUTED memory on part of the
 * world is mapped on its node, though a user sees only the own part),
 * else wm_rank_ptr; NULL: only RMA reaches it. */
char *wm_reach_ptr(const struct wholememory_handle_ *h, int r);

/* ---- wm_gather.c ------------------------------------------------------- */
/* Rows by index, checked (wholememoryx_gather / _scatter). */
wholememory_error_code_t wm_rows(struct wholememory_handle_ *h,
				 const int64_t *idx, size_t n, char *buf,
				 size_t eb, bool put);
/* Bytes [off, off + len) of the table <-> buf, split at partitions;
 * *rma set when a non-blocking get / put was issued (shmem_quiet it). */
void wm_move(struct wholememory_handle_ *h, size_t off, size_t len,
	     char *buf, bool put, bool *rma);
/* keep[i] = 1 when no later j has idx[j] == idx[i] (free it). */
int wm_last_of_each(const int64_t *idx, size_t n, uint8_t **keep);

/* ---- wm_tensor.c ------------------------------------------------------- */
struct wholememory_tensor_ {
	uint32_t magic;
	struct wholememory_handle_ *handle;  /* NULL: plain memory */
	void *storage;
	wholememory_tensor_description_t desc;
	struct wholememory_tensor_ *root;
	bool own_handle;
};
bool wm_tensor_live(const struct wholememory_tensor_ *t);

/* ---- wm_op.c ----------------------------------------------------------- */
/* The op runs in stream's order (wholememory_op.h): NULL, or an
 * immediate command list synchronized first. */
wholememory_error_code_t wm_order_after(void *stream, const char *call);
/* Frees t's record only (finalize: what the program left). */
void wm_tensor_drop(struct wholememory_tensor_ *t);

#endif
