/* SPDX-License-Identifier: MIT */
/*
 * graph_op.h: graph helpers of WholeGraph (libzewholememory), on
 * tensors over plain memory.
 *
 * graph_append_unique: target_nodes_tensor and neighbor_nodes_tensor,
 *   1-D INT or INT64 of one dtype. The unique nodes (allocated by
 *   p_env_fns->output_fns.malloc_fn with output_unique_node_memory_
 *   context, 1-D of that dtype, WHOLEMEMORY_MA_HOST) are the targets,
 *   in their order, then each neighbour that is no target and not yet
 *   listed, in the order of first appearance.
 *   output_neighbor_raw_to_unique_mapping_tensor (1-D INT of one entry
 *   per neighbour, or NULL): each neighbour's position in the unique
 *   nodes (a target named twice: its first position).
 * csr_add_self_loop: csr_row_ptr_tensor (INT or INT64, rows + 1) and
 *   csr_col_ptr_tensor (INT or INT64) into the outputs of the same
 *   dtypes (rows + 1, and edges + rows entries): row i's self loop i
 *   first, then its neighbours in their order.
 * stream: NULL or a Level Zero command list (wholememory_op.h).
 */
#ifndef ZEMEM_WHOLEGRAPH_GRAPH_OP_H
#define ZEMEM_WHOLEGRAPH_GRAPH_OP_H

#include <wholememory/env_func_ptrs.h>
#include <wholememory/wholememory.h>
#include <wholememory/wholememory_tensor.h>

#ifdef __cplusplus
extern "C" {
#endif

wholememory_error_code_t graph_append_unique(
	wholememory_tensor_t target_nodes_tensor,
	wholememory_tensor_t neighbor_nodes_tensor,
	void *output_unique_node_memory_context,
	wholememory_tensor_t output_neighbor_raw_to_unique_mapping_tensor,
	wholememory_env_func_t *p_env_fns, void *stream);

wholememory_error_code_t csr_add_self_loop(
	wholememory_tensor_t csr_row_ptr_tensor,
	wholememory_tensor_t csr_col_ptr_tensor,
	wholememory_tensor_t output_csr_row_ptr_tensor,
	wholememory_tensor_t output_csr_col_ptr_tensor, void *stream);

#ifdef __cplusplus
}
#endif

#endif /* ZEMEM_WHOLEGRAPH_GRAPH_OP_H */
