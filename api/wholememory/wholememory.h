/* SPDX-License-Identifier: MIT */
/*
 * wholememory.h: WholeMemory's C API on zemem (libzewholememory.so.1).
 *
 * Partitioned global memory over a group of processes (ranks): a table of
 * total_size bytes split into one partition per rank, reached by every
 * rank through mappings (CONTINUOUS, CHUNKED, HIERARCHY within a node) or
 * through libzeshmem's RMA (DISTRIBUTED, HIERARCHY across nodes).
 * C++ callers get the real header's default arguments (wholememory_init's
 * log_level LEVEL_INFO, wholememory_malloc's rank_entry_partition
 * nullptr); C callers pass them. wholememory_gref_t: global_reference.h.
 * Tensors, gather / scatter on tensors: wholememory_tensor.h,
 * wholememory_op.h. Beyond the seed (zemem extensions, at the end):
 * wholememory_create_communicator_from_env and the row-index gather /
 * scatter on a handle, wholememoryx_gather / wholememoryx_scatter.
 *
 * Distributed backends: WHOLEMEMORY_DB_NONE is libzeshmem's own RMA (the
 * only backend here); NCCL and NVSHMEM are WHOLEMEMORY_NOT_SUPPORTED.
 */
#ifndef ZEMEM_WHOLEMEMORY_H
#define ZEMEM_WHOLEMEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <wholememory/global_reference.h>

/* A default argument for C++ callers; nothing in C. */
#ifndef WHOLEMEMORY_DEFAULT_ARG
#ifdef __cplusplus
#define WHOLEMEMORY_DEFAULT_ARG(v) = v
#else
#define WHOLEMEMORY_DEFAULT_ARG(v)
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define WHOLEMEMORY_UNIQUE_ID_BYTES 128
/* The seed's spelling and the corrected one: the same value. */
#define WHOLEMEMORY_SPILT_NO_COLOR (-1)
#define WHOLEMEMORY_SPLIT_NOCOLOR WHOLEMEMORY_SPILT_NO_COLOR

typedef enum {
	WHOLEMEMORY_SUCCESS = 0,
	WHOLEMEMORY_UNKNOW_ERROR,
	WHOLEMEMORY_NOT_IMPLEMENTED,
	WHOLEMEMORY_LOGIC_ERROR,
	WHOLEMEMORY_CUDA_ERROR,
	WHOLEMEMORY_COMMUNICATION_ERROR,
	WHOLEMEMORY_INVALID_INPUT,
	WHOLEMEMORY_INVALID_VALUE,
	WHOLEMEMORY_OUT_OF_MEMORY,
	WHOLEMEMORY_NOT_SUPPORTED,
	WHOLEMEMORY_SYSTEM_ERROR,
} wholememory_error_code_t;

#define WHOLEMEMORY_RETURN_ON_FAIL(X)                                    \
	do {                                                             \
		wholememory_error_code_t wm_ret_ = (X);                  \
		if (wm_ret_ != WHOLEMEMORY_SUCCESS)                      \
			return wm_ret_;                                  \
	} while (0)

typedef enum {
	WHOLEMEMORY_MT_NONE = 0,
	WHOLEMEMORY_MT_CONTINUOUS,
	WHOLEMEMORY_MT_CHUNKED,
	WHOLEMEMORY_MT_DISTRIBUTED,
	WHOLEMEMORY_MT_HIERARCHY,
} wholememory_memory_type_t;

typedef enum {
	WHOLEMEMORY_ML_NONE = 0,
	WHOLEMEMORY_ML_DEVICE,
	WHOLEMEMORY_ML_HOST,
} wholememory_memory_location_t;

typedef enum {
	WHOLEMEMORY_DB_NONE = 0,
	WHOLEMEMORY_DB_NCCL,
	WHOLEMEMORY_DB_NVSHMEM,
} wholememory_distributed_backend_t;

typedef enum {
	LEVEL_FATAL = 0,
	LEVEL_ERROR,
	LEVEL_WARN,
	LEVEL_INFO,
	LEVEL_DEBUG,
	LEVEL_TRACE,
} LogLevel;

typedef struct wholememory_comm_ *wholememory_comm_t;
typedef struct wholememory_handle_ *wholememory_handle_t;

typedef struct {
	char internal[WHOLEMEMORY_UNIQUE_ID_BYTES];
} wholememory_unique_id_t;

typedef struct {
	int is_in_clique;
	int clique_first_rank;
	int clique_rank;
	int clique_rank_num;
	int clique_id;
	int clique_num;
} clique_info_t;

wholememory_error_code_t wholememory_init(
	unsigned int flags,
	LogLevel log_level WHOLEMEMORY_DEFAULT_ARG(LEVEL_INFO));
wholememory_error_code_t wholememory_finalize(void);
wholememory_error_code_t wholememory_create_unique_id(
	wholememory_unique_id_t *unique_id);
wholememory_error_code_t wholememory_create_communicator(
	wholememory_comm_t *comm, wholememory_unique_id_t unique_id, int rank,
	int size);
/* Beyond the seed: the world of a job started by zeshrun (ZESHMEM_RANK /
 * ZESHMEM_NRANKS) or mpirun (PMIx); a plain process is a world of one. */
wholememory_error_code_t wholememory_create_communicator_from_env(
	wholememory_comm_t *comm);
wholememory_error_code_t wholememory_split_communicator(
	wholememory_comm_t *new_comm, wholememory_comm_t comm, int color,
	int key);
wholememory_error_code_t wholememory_destroy_communicator(
	wholememory_comm_t comm);
wholememory_error_code_t wholememory_communicator_support_type_location(
	wholememory_comm_t comm, wholememory_memory_type_t memory_type,
	wholememory_memory_location_t memory_location);
wholememory_error_code_t wholememory_communicator_get_rank(
	int *rank, wholememory_comm_t comm);
wholememory_error_code_t wholememory_communicator_get_size(
	int *size, wholememory_comm_t comm);
wholememory_error_code_t wholememory_communicator_get_local_size(
	int *local_size, wholememory_comm_t comm);
wholememory_error_code_t wholememory_communicator_get_clique_info(
	clique_info_t *clique_info, wholememory_comm_t comm);
bool wholememory_communicator_is_bind_to_nvshmem(wholememory_comm_t comm);
wholememory_error_code_t wholememory_communicator_set_distributed_backend(
	wholememory_comm_t comm,
	wholememory_distributed_backend_t distributed_backend);
wholememory_distributed_backend_t
wholememory_communicator_get_distributed_backend(wholememory_comm_t comm);
wholememory_error_code_t wholememory_communicator_barrier(
	wholememory_comm_t comm);

wholememory_error_code_t wholememory_malloc(
	wholememory_handle_t *wholememory_handle_ptr, size_t total_size,
	wholememory_comm_t comm, wholememory_memory_type_t memory_type,
	wholememory_memory_location_t memory_location,
	size_t data_granularity,
	size_t *rank_entry_partition WHOLEMEMORY_DEFAULT_ARG(nullptr));
wholememory_error_code_t wholememory_free(
	wholememory_handle_t wholememory_handle);
wholememory_error_code_t wholememory_get_communicator(
	wholememory_comm_t *comm, wholememory_handle_t wholememory_handle);
wholememory_error_code_t wholememory_get_local_communicator(
	wholememory_comm_t *comm, wholememory_handle_t wholememory_handle);
wholememory_error_code_t wholememory_get_cross_communicator(
	wholememory_comm_t *comm, wholememory_handle_t wholememory_handle);
wholememory_memory_type_t wholememory_get_memory_type(
	wholememory_handle_t wholememory_handle);
wholememory_memory_location_t wholememory_get_memory_location(
	wholememory_handle_t wholememory_handle);
wholememory_distributed_backend_t wholememory_get_distributed_backend(
	wholememory_handle_t wholememory_handle);
size_t wholememory_get_total_size(wholememory_handle_t wholememory_handle);
size_t wholememory_get_data_granularity(
	wholememory_handle_t wholememory_handle);
wholememory_error_code_t wholememory_get_local_memory(
	void **local_ptr, size_t *local_size, size_t *local_offset,
	wholememory_handle_t wholememory_handle);
wholememory_error_code_t wholememory_get_local_size(
	size_t *local_size, wholememory_handle_t wholememory_handle);
wholememory_error_code_t wholememory_get_local_offset(
	size_t *local_offset, wholememory_handle_t wholememory_handle);
wholememory_error_code_t wholememory_get_rank_memory(
	void **rank_memory_ptr, size_t *rank_memory_size,
	size_t *rank_memory_offset, int rank,
	wholememory_handle_t wholememory_handle);
wholememory_error_code_t wholememory_equal_entry_partition_plan(
	size_t *entry_per_rank, size_t total_entry_count, int world_size);
wholememory_error_code_t wholememory_get_global_pointer(
	void **global_ptr, wholememory_handle_t wholememory_handle);
wholememory_error_code_t wholememory_get_global_reference(
	wholememory_gref_t *wholememory_gref,
	wholememory_handle_t wholememory_handle);
wholememory_error_code_t wholememory_get_rank_partition_sizes(
	size_t *rank_mem_sizes, wholememory_handle_t wholememory_handle);
wholememory_error_code_t wholememory_get_rank_partition_offsets(
	size_t *rank_mem_offsets, wholememory_handle_t wholememory_handle);
int fork_get_device_count(void);
wholememory_error_code_t wholememory_load_from_file(
	wholememory_handle_t wholememory_handle, size_t memory_offset,
	size_t memory_entry_size, size_t file_entry_size,
	const char **file_names, int file_count, int round_robin_size);
wholememory_error_code_t wholememory_store_to_file(
	wholememory_handle_t wholememory_handle, size_t memory_offset,
	size_t memory_entry_stride, size_t file_entry_size,
	const char *local_file_name);
bool wholememory_is_intranode_communicator(wholememory_comm_t comm);
bool wholememory_is_intra_mnnvl_communicator(wholememory_comm_t comm);
bool wholememory_is_build_with_nvshmem(void);

/* ---- zemem extensions ------------------------------------------------
 * Rows by global index on a handle (entry_bytes each, the row of index i
 * at byte i * entry_bytes of the table), for every memory type. Not
 * collective; every index must lie in the table (WHOLEMEMORY_INVALID_VALUE
 * otherwise, nothing copied). A scatter naming a row several times leaves
 * its last value. (zemem's first wholememory_gather / wholememory_scatter;
 * those names are WholeMemory's tensor ops now: wholememory_op.h.) */
wholememory_error_code_t wholememoryx_gather(
	wholememory_handle_t wholememory_handle, const int64_t *indices,
	size_t n, void *out, size_t entry_bytes);
wholememory_error_code_t wholememoryx_scatter(
	wholememory_handle_t wholememory_handle, const int64_t *indices,
	size_t n, const void *in, size_t entry_bytes);

#ifdef __cplusplus
}
#endif

#endif /* ZEMEM_WHOLEMEMORY_H */
