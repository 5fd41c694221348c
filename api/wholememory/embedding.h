/* SPDX-License-Identifier: MIT */
/*
 * embedding.h: WholeMemory embeddings (libzewholememory): a table of
 * rows over any memory type, gathered into plain tensors, trained by a
 * sparse optimizer, read through an optional cache.
 *
 * The embedding: a 2-D table (rows, dim) of the description's dtype on
 * comm; its rows are padded to a multiple of 16 bytes (the table's row
 * stride), wholememory_embedding_get_embedding_tensor is the (rows, dim)
 * tensor over it.
 *
 * Optimizers (a FLOAT embedding; parameters by name, each a float *):
 *   SGD       weight_decay (0)
 *   LazyAdam  weight_decay (0), epsilon (1e-8), beta1 (0.9), beta2
 *             (0.999), adam_w (0; > 0.5: AdamW's decoupled decay)
 *   AdaGrad   weight_decay (0), epsilon (1e-8)
 *   RMSProp   weight_decay (0), epsilon (1e-8), alpha (0.99)
 * The learning rate is gather_gradient_apply's lr. Unknown names:
 * WHOLEMEMORY_INVALID_INPUT. Each step, per element of each row named,
 * in float, in this order (g the row's summed gradient, w the weight):
 *   SGD       g = g + wd * w; w = w - lr * g
 *   LazyAdam  (per row, once) b1t = b1t * beta1; b2t = b2t * beta2
 *             AdamW: w = w - lr * wd * w, else g = g + wd * w;
 *             m = beta1 * m + (1 - beta1) * g;
 *             v = beta2 * v + (1 - beta2) * g * g;
 *             mhat = m / (1 - b1t); vhat = v / (1 - b2t);
 *             w = w - lr * mhat / (sqrtf(vhat) + epsilon)
 *   AdaGrad   g = g + wd * w; s = s + g * g;
 *             w = w - lr * g / (sqrtf(s) + epsilon)
 *   RMSProp   g = g + wd * w; v = alpha * v + (1 - alpha) * g * g;
 *             w = w - lr * g / (sqrtf(v) + epsilon)
 * States (wholememory_embedding_get_optimizer_state, tensors of the
 * embedding's partition and memory type): LazyAdam "m", "v" (rows, dim;
 * 0 at first) and "beta12t" (rows, 2; 1.0 at first), AdaGrad
 * "state_sum", RMSProp "v" (rows, dim; 0 at first); SGD none.
 *
 * gather_gradient_apply is collective over the embedding's
 * communicator: every rank's (index, gradient row) goes to the rank
 * owning the row (through an exchange table in the symmetric heap that
 * the embedding keeps), which sums the gradients of a row named several
 * times (in float, in rank order, then in each rank's index order) and
 * steps that row once.
 *
 * Caches (wholememory_create_embedding_cache_policy, cache_ratio in
 * [1/512, 1]; each rank has ceil(ratio * its partition's rows) slots):
 *   WHOLEMEMORY_AT_READONLY   a copy of rows of any rank in each rank's
 *       own memory (a row's slot: its row number modulo the count),
 *       filled by gathers with adjust_cache; no optimizer
 *       (WHOLEMEMORY_NOT_SUPPORTED). Nothing may write the embedding
 *       tensor while it holds rows (drop_all_cache first).
 *   WHOLEMEMORY_AT_READWRITE  learnable: cache_level_comm must be the
 *       embedding's; a table of the policy's memory type and location
 *       holding each rank's cached rows of its own partition (a row's
 *       slot: its local row number modulo the count), filled by the
 *       optimizer's steps
 *       (the owner updates the cached row, not the table, and writes an
 *       evicted modified row back). The embedding tensor holds every
 *       update after wholememory_embedding_writeback_cache (collective).
 * Gathers through a cache return exactly what an uncached gather of the
 * same embedding returns. drop_all_cache (collective) writes modified
 * rows back first, then empties the cache.
 *
 * stream_int: 0, or a Level Zero command list (wholememory_op.h's
 * rules); p_env_fns NULL: wholememoryx_get_default_env_func().
 */
#ifndef ZEMEM_WHOLEMEMORY_EMBEDDING_H
#define ZEMEM_WHOLEMEMORY_EMBEDDING_H

#include <wholememory/env_func_ptrs.h>
#include <wholememory/wholememory_tensor.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wholememory_embedding_cache_policy_
	*wholememory_embedding_cache_policy_t;
typedef struct wholememory_embedding_optimizer_
	*wholememory_embedding_optimizer_t;
typedef struct wholememory_embedding_ *wholememory_embedding_t;

typedef enum {
	WHOLEMEMORY_AT_NONE = 0,
	WHOLEMEMORY_AT_READONLY,
	WHOLEMEMORY_AT_READWRITE,
} wholememory_access_type_t;

typedef enum {
	WHOLEMEMORY_OPT_NONE = 0,
	WHOLEMEMORY_OPT_SGD,
	WHOLEMEMORY_OPT_LAZY_ADAM,
	WHOLEMEMORY_OPT_RMSPROP,
	WHOLEMEMORY_OPT_ADAGRAD,
} wholememory_optimizer_type_t;

/* WHOLEMEMORY_NOT_IMPLEMENTED for a type not listed above. */
wholememory_error_code_t wholememory_create_embedding_optimizer(
	wholememory_embedding_optimizer_t *optimizer,
	wholememory_optimizer_type_t optimizer_type);
wholememory_error_code_t wholememory_optimizer_set_parameter(
	wholememory_embedding_optimizer_t optimizer,
	const char *parameter_name, void *value);
/* An embedding it was set on refuses steps afterwards. */
void wholememory_destroy_embedding_optimizer(
	wholememory_embedding_optimizer_t optimizer);

wholememory_error_code_t wholememory_create_embedding_cache_policy(
	wholememory_embedding_cache_policy_t *cache_policy,
	wholememory_comm_t cache_level_comm,
	wholememory_memory_type_t memory_type,
	wholememory_memory_location_t memory_location,
	wholememory_access_type_t access_type, float cache_ratio);
wholememory_error_code_t wholememory_destroy_embedding_cache_policy(
	wholememory_embedding_cache_policy_t cache_policy);

/* Collective. The description's sizes and dtype count (a matrix);
 * embedding_entry_partition: rows per rank (world_size entries) or
 * NULL; user_defined_sms unused; round_robin_size R > 0 (with no
 * partition; ignored, with a warning, when one is given): block
 * [b * R, (b + 1) * R) of the rows on rank b % world_size, every rank
 * holding rank 0's share K of rows, the embedding tensor the K *
 * world_size rows in that storage order (load it with
 * wholememory_load_from_file and the same R); gathers and gradient
 * steps take the rows' ids. R < 0: WHOLEMEMORY_INVALID_INPUT. The
 * policy is copied. */
wholememory_error_code_t wholememory_create_embedding(
	wholememory_embedding_t *wholememory_embedding,
	wholememory_tensor_description_t *embedding_tensor_description,
	wholememory_comm_t comm, wholememory_memory_type_t memory_type,
	wholememory_memory_location_t memory_location,
	wholememory_embedding_cache_policy_t cache_policy,
	size_t *embedding_entry_partition WHOLEMEMORY_DEFAULT_ARG(nullptr),
	int user_defined_sms WHOLEMEMORY_DEFAULT_ARG(-1),
	int round_robin_size WHOLEMEMORY_DEFAULT_ARG(0));
/* Collective. */
wholememory_error_code_t wholememory_destroy_embedding(
	wholememory_embedding_t wholememory_embedding);
wholememory_tensor_t wholememory_embedding_get_embedding_tensor(
	wholememory_embedding_t wholememory_embedding);
/* Collective: creates the optimizer's states (once per embedding). */
wholememory_error_code_t wholememory_embedding_set_optimizer(
	wholememory_embedding_t wholememory_embedding,
	wholememory_embedding_optimizer_t optimizer);
/* Not collective: rows of indices (1-D INT or INT64, plain memory) into
 * output (2-D, plain, one row per index, dim columns; a float dtype
 * converts as wholememory_gather does). */
wholememory_error_code_t wholememory_embedding_gather(
	wholememory_embedding_t wholememory_embedding,
	wholememory_tensor_t indices, wholememory_tensor_t output,
	bool adjust_cache, wholememory_env_func_t *p_env_fns,
	int64_t stream_int);
/* Collective: grads (2-D FLOAT, plain, one row per index, dim
 * columns). */
wholememory_error_code_t wholememory_embedding_gather_gradient_apply(
	wholememory_embedding_t wholememory_embedding,
	wholememory_tensor_t indices, wholememory_tensor_t grads,
	bool adjust_cache, float lr, wholememory_env_func_t *p_env_fns,
	int64_t stream_int);
/* NULL-terminated (NULL without an optimizer). */
const char *const *wholememory_embedding_get_optimizer_state_names(
	wholememory_embedding_t wholememory_embedding);
/* NULL for an unknown name. */
wholememory_tensor_t wholememory_embedding_get_optimizer_state(
	wholememory_embedding_t wholememory_embedding, const char *name);
wholememory_error_code_t wholememory_embedding_writeback_cache(
	wholememory_embedding_t wholememory_embedding, int64_t stream_int);
wholememory_error_code_t wholememory_embedding_drop_all_cache(
	wholememory_embedding_t wholememory_embedding, int64_t stream_int);

#ifdef __cplusplus
}
#endif

#endif /* ZEMEM_WHOLEMEMORY_EMBEDDING_H */
