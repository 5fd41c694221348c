/* SPDX-License-Identifier: MIT */
/*
 * wholememory_op.h: WholeMemory's gather and scatter on tensors
 * (libzewholememory), for every memory type.
 *
 * wholememory_tensor is a 1-D or 2-D tensor with a handle (or over plain
 * memory); indices_tensor a 1-D tensor of WHOLEMEMORY_DT_INT or
 * WHOLEMEMORY_DT_INT64 row indices over plain memory; the other tensor
 * over plain memory, of the table's dim, one row per index and as many
 * columns as the table (rows may be strided). Element
 * types convert within a family, as WholeMemory's op does: any of FLOAT,
 * HALF, DOUBLE, BF16 to any other (rounded to nearest even), any of INT,
 * INT64, INT16, INT8 to any other (the low bits, two's complement);
 * across the families WHOLEMEMORY_NOT_SUPPORTED (WholeMemory itself
 * fails such a call with a logic error). Every index is checked first
 * (WHOLEMEMORY_INVALID_VALUE, nothing moved). Not collective. A scatter
 * naming a row several times leaves its last value.
 *
 * stream: a Level Zero command list (ze_command_list_handle_t), or NULL.
 *   NULL                   the op runs now and is complete on return.
 *   an immediate list      the list is synchronized first
 *                          (zeCommandListHostSynchronize: what was
 *                          appended before has completed), then the op
 *                          runs now, complete on return: it is ordered
 *                          after the list's earlier work and before
 *                          anything appended after the call.
 *   a regular list         WHOLEMEMORY_NOT_SUPPORTED: its commands run
 *                          at a later zeCommandQueueExecuteCommandLists,
 *                          and Level Zero has no host callback to run
 *                          the op (its indices are read when it runs) in
 *                          that order; appended copies could not read
 *                          indices an earlier command writes.
 * gather_sms / scatter_sms: accepted, unused (the host runs the op).
 */
#ifndef ZEMEM_WHOLEMEMORY_OP_H
#define ZEMEM_WHOLEMEMORY_OP_H

#include <wholememory/env_func_ptrs.h>
#include <wholememory/wholememory.h>
#include <wholememory/wholememory_tensor.h>

#ifdef __cplusplus
extern "C" {
#endif

wholememory_error_code_t wholememory_gather(
	wholememory_tensor_t wholememory_tensor,
	wholememory_tensor_t indices_tensor,
	wholememory_tensor_t output_tensor, wholememory_env_func_t *p_env_fns,
	void *stream, int gather_sms WHOLEMEMORY_DEFAULT_ARG(-1));

wholememory_error_code_t wholememory_scatter(
	wholememory_tensor_t input_tensor,
	wholememory_tensor_t indices_tensor,
	wholememory_tensor_t wholememory_tensor,
	wholememory_env_func_t *p_env_fns, void *stream,
	int scatter_sms WHOLEMEMORY_DEFAULT_ARG(-1));

#ifdef __cplusplus
}
#endif

#endif /* ZEMEM_WHOLEMEMORY_OP_H */
