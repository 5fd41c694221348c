/* SPDX-License-Identifier: MIT */
/*
 * wholegraph_op.h: CSR neighbour sampling without replacement
 * (libzewholememory), the host running it.
 *
 * The graph: wm_csr_row_ptr_tensor (1-D INT64 or INT, rows + 1
 * entries) and wm_csr_col_ptr_tensor (1-D INT or INT64: the
 * neighbours), optionally wm_csr_weight_ptr_tensor (1-D FLOAT or
 * DOUBLE, one weight >= 0 per edge), each a WholeMemory tensor of any
 * memory type or a tensor over plain memory. center_nodes_tensor: 1-D
 * INT or INT64 in plain memory, each a row of the graph.
 * output_sample_offset_tensor: 1-D INT in plain memory, one entry more
 * than the centers: offset[i] is where center i's samples start.
 * The outputs come from p_env_fns->output_fns.malloc_fn (a 1-D
 * description, WHOLEMEMORY_MA_HOST) with the memory context passed:
 *   output_dest         the sampled neighbours (the col tensor's dtype)
 *   output_center_localid  INT: the position of each sample's center
 *                       in center_nodes_tensor
 *   output_edge_gid     INT64: each sample's edge (its position in the
 *                       col tensor); its context may be NULL (none).
 * Center i's samples are min(max_sample_count, degree) distinct edges
 * of its row, in increasing edge order (every edge of the row when the
 * degree is at most max_sample_count; max_sample_count > 0).
 *
 * Random numbers (reproducible: the same seed gives the same samples
 * on any rank and run): center i (its position in center_nodes_tensor)
 * draws from its own stream, subsequence i of random_seed:
 *   mix(z) = splitmix64's finalizer: z ^= z >> 30;
 *            z *= 0xbf58476d1ce4e5b9; z ^= z >> 27;
 *            z *= 0x94d049bb133111eb; z ^= z >> 31
 *   state  = mix(seed + mix(subsequence + 1))   (64-bit wrapping)
 *   next() = (state += 0x9e3779b97f4a7c15, mix(state))
 * Unweighted (degree d > k = max_sample_count): a partial Fisher-Yates
 * shuffle of the row's edge numbers a = 0 .. d-1: for j = 0 .. k-1,
 * t = j + (next() >> 1) % (d - j), swap a[j] and a[t]; the sample is
 * a[0 .. k-1]. Weighted (d > k): one draw per edge of the row, in edge
 * order, u = ((next() >> 40) + 0.5) / 2^24 (in (0, 1)), key =
 * logf(u) / weight (float; -inf for weight 0), and the k largest keys
 * (the lower edge on a tie) are the sample (Efraimidis-Spirakis:
 * successive draws in proportion to the weights).
 * generate_random_positive_int_cpu gives an INT64 tensor next() >> 1
 * (an INT one next() >> 33) of a subsequence; generate_exponential_
 * distribution_negative_float_cpu a FLOAT tensor logf(u).
 *
 * stream: NULL or a Level Zero command list (wholememory_op.h).
 * Errors: WHOLEMEMORY_INVALID_INPUT for tensors of the wrong kind,
 * WHOLEMEMORY_INVALID_VALUE for a center outside the graph, a row
 * pointer out of order or a negative weight (nothing allocated),
 * WHOLEMEMORY_OUT_OF_MEMORY when an allocator gives nothing.
 */
#ifndef ZEMEM_WHOLEGRAPH_OP_H
#define ZEMEM_WHOLEGRAPH_OP_H

#include <wholememory/env_func_ptrs.h>
#include <wholememory/wholememory.h>
#include <wholememory/wholememory_tensor.h>

#ifdef __cplusplus
extern "C" {
#endif

wholememory_error_code_t wholegraph_csr_unweighted_sample_without_replacement(
	wholememory_tensor_t wm_csr_row_ptr_tensor,
	wholememory_tensor_t wm_csr_col_ptr_tensor,
	wholememory_tensor_t center_nodes_tensor, int max_sample_count,
	wholememory_tensor_t output_sample_offset_tensor,
	void *output_dest_memory_context,
	void *output_center_localid_memory_context,
	void *output_edge_gid_memory_context,
	unsigned long long random_seed, wholememory_env_func_t *p_env_fns,
	void *stream);

wholememory_error_code_t wholegraph_csr_weighted_sample_without_replacement(
	wholememory_tensor_t wm_csr_row_ptr_tensor,
	wholememory_tensor_t wm_csr_col_ptr_tensor,
	wholememory_tensor_t wm_csr_weight_ptr_tensor,
	wholememory_tensor_t center_nodes_tensor, int max_sample_count,
	wholememory_tensor_t output_sample_offset_tensor,
	void *output_dest_memory_context,
	void *output_center_localid_memory_context,
	void *output_edge_gid_memory_context,
	unsigned long long random_seed, wholememory_env_func_t *p_env_fns,
	void *stream);

/* output: 1-D INT or INT64 (plain memory). */
wholememory_error_code_t generate_random_positive_int_cpu(
	int64_t random_seed, int64_t subsequence, wholememory_tensor_t output);
/* output: 1-D FLOAT (plain memory). */
wholememory_error_code_t generate_exponential_distribution_negative_float_cpu(
	int64_t random_seed, int64_t subsequence, wholememory_tensor_t output);

#ifdef __cplusplus
}
#endif

#endif /* ZEMEM_WHOLEGRAPH_OP_H */
