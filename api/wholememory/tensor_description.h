/* SPDX-License-Identifier: MIT */
/*
 * tensor_description.h: WholeMemory's data types and the descriptions of
 * arrays, matrices and tensors (libzewholememory). Sizes, strides and
 * storage offsets count elements, not bytes; dimension 0 changes
 * slowest.
 */
#ifndef ZEMEM_WHOLEMEMORY_TENSOR_DESCRIPTION_H
#define ZEMEM_WHOLEMEMORY_TENSOR_DESCRIPTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
	WHOLEMEMORY_DT_UNKNOWN = 0,
	WHOLEMEMORY_DT_FLOAT,             /* 32-bit IEEE float */
	WHOLEMEMORY_DT_HALF,              /* 16-bit IEEE half */
	WHOLEMEMORY_DT_DOUBLE,            /* 64-bit IEEE double */
	WHOLEMEMORY_DT_BF16,              /* 16-bit bfloat */
	WHOLEMEMORY_DT_INT,               /* int32_t */
	WHOLEMEMORY_DT_INT64,
	WHOLEMEMORY_DT_INT16,
	WHOLEMEMORY_DT_INT8,
	WHOLEMEMORY_DT_COUNT,
} wholememory_dtype_t;

/* Bytes of one element: 0 for UNKNOWN, (size_t)-1 for a value outside
 * the enumeration. */
size_t wholememory_dtype_get_element_size(wholememory_dtype_t dtype);
bool wholememory_dtype_is_floating_number(wholememory_dtype_t dtype);
bool wholememory_dtype_is_integer_number(wholememory_dtype_t dtype);

typedef struct {
	int64_t size;
	int64_t storage_offset;
	wholememory_dtype_t dtype;
} wholememory_array_description_t;

typedef struct {
	int64_t sizes[2];                 /* rows, columns */
	int64_t stride;                   /* of a row */
	int64_t storage_offset;
	wholememory_dtype_t dtype;
} wholememory_matrix_description_t;

#define WHOLEMEMORY_MAX_TENSOR_DIM (8)

typedef struct {
	int64_t sizes[WHOLEMEMORY_MAX_TENSOR_DIM];
	int64_t strides[WHOLEMEMORY_MAX_TENSOR_DIM];
	int64_t storage_offset;
	int dim;
	wholememory_dtype_t dtype;
} wholememory_tensor_description_t;

wholememory_array_description_t wholememory_create_array_desc(
	int64_t size, int64_t storage_offset, wholememory_dtype_t dtype);
wholememory_matrix_description_t wholememory_create_matrix_desc(
	int64_t sizes[2], int64_t stride, int64_t storage_offset,
	wholememory_dtype_t dtype);
/* dim 0, every size and stride 1, offset 0, dtype UNKNOWN. */
void wholememory_initialize_tensor_desc(
	wholememory_tensor_description_t *p_tensor_description);
void wholememory_copy_array_desc_to_matrix(
	wholememory_matrix_description_t *p_matrix_description,
	wholememory_array_description_t *p_array_description);
void wholememory_copy_array_desc_to_tensor(
	wholememory_tensor_description_t *p_tensor_description,
	wholememory_array_description_t *p_array_description);
void wholememory_copy_matrix_desc_to_tensor(
	wholememory_tensor_description_t *p_tensor_description,
	wholememory_matrix_description_t *p_matrix_description);
/* false when the tensor is not such an array (dim 1, stride 1) or
 * matrix (dim 1 or 2, unit stride of the last dim), or of no dtype. */
bool wholememory_convert_tensor_desc_to_array(
	wholememory_array_description_t *p_array_description,
	wholememory_tensor_description_t *p_tensor_description);
bool wholememory_convert_tensor_desc_to_matrix(
	wholememory_matrix_description_t *p_matrix_description,
	wholememory_tensor_description_t *p_tensor_description);
/* Elements / bytes spanned: size; rows * stride; sizes[0] * strides[0]
 * (1 for a tensor of dim 0, -1 for an invalid dim). */
int64_t wholememory_get_memory_element_count_from_array(
	wholememory_array_description_t *p_array_description);
int64_t wholememory_get_memory_size_from_array(
	wholememory_array_description_t *p_array_description);
int64_t wholememory_get_memory_element_count_from_matrix(
	wholememory_matrix_description_t *p_matrix_description);
int64_t wholememory_get_memory_size_from_matrix(
	wholememory_matrix_description_t *p_matrix_description);
int64_t wholememory_get_memory_element_count_from_tensor(
	wholememory_tensor_description_t *p_tensor_description);
int64_t wholememory_get_memory_size_from_tensor(
	wholememory_tensor_description_t *p_tensor_description);
/* Removes dim (of size 1; its stride equal to the next one's unless it
 * is the last); false and no change otherwise. */
bool wholememory_squeeze_tensor(
	wholememory_tensor_description_t *p_tensor_description, int dim);
/* Inserts a dim of size 1 at dim (0..dim), its stride the one after it
 * (the last dim's when appended); false and no change when dim is out of
 * range or the tensor has WHOLEMEMORY_MAX_TENSOR_DIM dims. */
bool wholememory_unsqueeze_tensor(
	wholememory_tensor_description_t *p_tensor_description, int dim);

#ifdef __cplusplus
}
#endif

#endif /* ZEMEM_WHOLEMEMORY_TENSOR_DESCRIPTION_H */
