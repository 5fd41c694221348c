/* SPDX-License-Identifier: MIT */
/*
 * env_func_ptrs.h: the environment function table of WholeMemory's ops
 * (libzewholememory): how an op gets temporary memory (a memory context
 * per allocation: create, malloc, free, destroy) and memory for outputs
 * whose size the op decides.
 *
 * On zemem the ops take their temporary host memory through
 * temporary_fns (WHOLEMEMORY_MA_HOST); gather and scatter make no
 * outputs of their own, so output_fns is unused by them. A NULL table
 * is wholememoryx_get_default_env_func()'s (malloc / free).
 */
#ifndef ZEMEM_WHOLEMEMORY_ENV_FUNC_PTRS_H
#define ZEMEM_WHOLEMEMORY_ENV_FUNC_PTRS_H

#include <wholememory/tensor_description.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
	WHOLEMEMORY_MA_NONE = 0,
	WHOLEMEMORY_MA_DEVICE,
	WHOLEMEMORY_MA_HOST,
	WHOLEMEMORY_MA_PINNED,
} wholememory_memory_allocation_type_t;

typedef void (*wholememory_create_memory_context_func_t)(
	void **memory_context, void *global_context);
typedef void (*wholememory_destroy_memory_context_func_t)(
	void *memory_context, void *global_context);
/* Memory for a tensor of desc (its memory size), of the type asked,
 * remembered by memory_context; NULL when there is none. */
typedef void *(*wholememory_malloc_func_t)(
	wholememory_tensor_description_t *desc,
	wholememory_memory_allocation_type_t memory_allocation_type,
	void *memory_context, void *global_context);
/* Frees what malloc_fn gave memory_context. */
typedef void (*wholememory_free_func_t)(void *memory_context,
					void *global_context);

typedef struct {
	wholememory_create_memory_context_func_t create_memory_context_fn;
	wholememory_destroy_memory_context_func_t destroy_memory_context_fn;
	wholememory_malloc_func_t malloc_fn;
	wholememory_free_func_t free_fn;
	void *global_context;
} wholememory_temp_memory_func_t;

typedef struct {
	wholememory_malloc_func_t malloc_fn;
	wholememory_free_func_t free_fn;
	void *global_context;
} wholememory_output_memory_func_t;

typedef struct {
	wholememory_temp_memory_func_t temporary_fns;
	wholememory_output_memory_func_t output_fns;
} wholememory_env_func_t;

/* zemem: a table of malloc / free (every allocation type in host
 * memory, which zemem's device reaches), shared, never freed. */
wholememory_env_func_t *wholememoryx_get_default_env_func(void);

#ifdef __cplusplus
}
#endif

#endif /* ZEMEM_WHOLEMEMORY_ENV_FUNC_PTRS_H */
