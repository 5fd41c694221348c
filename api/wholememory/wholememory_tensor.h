/* SPDX-License-Identifier: MIT */
/*
 * wholememory_tensor.h: WholeMemory tensors (libzewholememory).
 *
 * A tensor is a description (tensor_description.h) over either a
 * WholeMemory handle (a table of rows partitioned over the ranks) or
 * plain memory of this process (make_tensor_from_pointer: index and
 * output tensors of the ops). A sub tensor shares its parent's storage
 * and keeps its root; destroying it frees only itself. Destroying a
 * tensor made by wholememory_create_tensor frees its handle (a
 * collective, as wholememory_free is).
 */
#ifndef ZEMEM_WHOLEMEMORY_TENSOR_H
#define ZEMEM_WHOLEMEMORY_TENSOR_H

#include <wholememory/tensor_description.h>
#include <wholememory/wholememory.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wholememory_tensor_ *wholememory_tensor_t;

/* Collective: a table of a 1-D or 2-D description (no storage offset,
 * last stride 1; a 2-D row is strides[0] elements, the granularity) on
 * comm; tensor_entry_partition (rows per rank) as wholememory_malloc's
 * rank_entry_partition. */
wholememory_error_code_t wholememory_create_tensor(
	wholememory_tensor_t *wholememory_tensor,
	wholememory_tensor_description_t *tensor_description,
	wholememory_comm_t comm, wholememory_memory_type_t memory_type,
	wholememory_memory_location_t memory_location,
	size_t *tensor_entry_partition WHOLEMEMORY_DEFAULT_ARG(nullptr));
wholememory_error_code_t wholememory_destroy_tensor(
	wholememory_tensor_t wholememory_tensor);
/* A tensor over plain memory (not owned); storage_ptr may be NULL or
 * the description of dim 0 (a scalar). */
wholememory_error_code_t wholememory_make_tensor_from_pointer(
	wholememory_tensor_t *wholememory_tensor, void *storage_ptr,
	wholememory_tensor_description_t *tensor_description);
/* A 1-D or 2-D tensor over a handle (not owned: the handle must outlive
 * it); the description must lie within the table. */
wholememory_error_code_t wholememory_make_tensor_from_handle(
	wholememory_tensor_t *wholememory_tensor,
	wholememory_handle_t wholememory_handle,
	wholememory_tensor_description_t *tensor_description);
bool wholememory_tensor_has_handle(wholememory_tensor_t wholememory_tensor);
/* NULL for a tensor over plain memory (or no tensor). */
wholememory_handle_t wholememory_tensor_get_memory_handle(
	wholememory_tensor_t wholememory_tensor);
/* The tensor's own description (NULL for no tensor). */
wholememory_tensor_description_t *wholememory_tensor_get_tensor_description(
	wholememory_tensor_t wholememory_tensor);
/* The handle's reference (global_reference.h), or a continuous one of
 * the storage pointer for a tensor over plain memory. */
wholememory_error_code_t wholememory_tensor_get_global_reference(
	wholememory_tensor_t wholememory_tensor,
	wholememory_gref_t *wholememory_gref);
/* A new tensor (destroy it) over this rank's rows of a 1-D or 2-D
 * tensor with a handle: its partition's rows, at the local memory. */
wholememory_error_code_t wholememory_tensor_map_local_tensor(
	wholememory_tensor_t wholememory_tensor,
	wholememory_tensor_t *local_tensor);
/* The first element's address: storage + offset for plain memory, the
 * global pointer + offset for CONTINUOUS tables; NULL otherwise. */
void *wholememory_tensor_get_data_pointer(
	wholememory_tensor_t wholememory_tensor);
/* Rows: each rank's first row (world_size + 1 entries, the last the
 * row count of the table), each rank's count (world_size entries), and
 * this rank's. Of the root tensor's rows (a 1-D tensor: elements). */
wholememory_error_code_t wholememory_tensor_get_entry_offsets(
	size_t *entry_offsets, wholememory_tensor_t wholememory_tensor);
wholememory_error_code_t wholememory_tensor_get_entry_partition_sizes(
	size_t *entry_partition, wholememory_tensor_t wholememory_tensor);
wholememory_error_code_t wholememory_tensor_get_local_entry_count(
	size_t *local_entry_count, wholememory_tensor_t wholememory_tensor);
wholememory_error_code_t wholememory_tensor_get_local_entry_start(
	size_t *local_entry_start, wholememory_tensor_t wholememory_tensor);
/* [starts[i], ends[i]) of each dim (-1: from 0 / to the end) of a 1-D
 * or 2-D tensor: a new tensor (destroy it) sharing the storage. */
wholememory_error_code_t wholememory_tensor_get_subtensor(
	wholememory_tensor_t wholememory_tensor, int64_t *starts,
	int64_t *ends, wholememory_tensor_t *sub_wholememory_tensor);
/* The tensor this one is a sub tensor of (itself when none). */
wholememory_tensor_t wholememory_tensor_get_root(
	wholememory_tensor_t wholememory_tensor);
/* Live tensors of this process. */
int64_t get_wholememory_tensor_count(void);

#ifdef __cplusplus
}
#endif

#endif /* ZEMEM_WHOLEMEMORY_TENSOR_H */
