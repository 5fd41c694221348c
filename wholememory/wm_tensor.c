// SPDX-License-Identifier: MIT
/*
 * wm_tensor: WholeMemory's descriptions (tensor_description.h) and
 * tensors (wholememory_tensor.h).
 *
 * A tensor is a record (registered: a stale or foreign pointer is
 * refused, not followed) of a description over a handle or over plain
 * memory, and its root (itself, or the tensor a sub tensor was cut
 * from). Rows: dimension 0; a row of a 2-D tensor is strides[0]
 * elements, so a handle's rows per rank are its partition sizes divided
 * by the row's bytes (the granularity wholememory_create_tensor gives).
 */
#include "wm.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* ---- descriptions ------------------------------------------------------ */

WM_API size_t
wholememory_dtype_get_element_size(wholememory_dtype_t dtype)
{
	switch (dtype) {
	case WHOLEMEMORY_DT_UNKNOWN: return 0;
	case WHOLEMEMORY_DT_INT8: return 1;
	case WHOLEMEMORY_DT_HALF:
	case WHOLEMEMORY_DT_BF16:
	case WHOLEMEMORY_DT_INT16: return 2;
	case WHOLEMEMORY_DT_FLOAT:
	case WHOLEMEMORY_DT_INT: return 4;
	case WHOLEMEMORY_DT_DOUBLE:
	case WHOLEMEMORY_DT_INT64: return 8;
	default: return (size_t)-1;
	}
}

WM_API bool
wholememory_dtype_is_floating_number(wholememory_dtype_t dtype)
{
	return dtype == WHOLEMEMORY_DT_FLOAT || dtype == WHOLEMEMORY_DT_HALF ||
	       dtype == WHOLEMEMORY_DT_DOUBLE || dtype == WHOLEMEMORY_DT_BF16;
}

WM_API bool
wholememory_dtype_is_integer_number(wholememory_dtype_t dtype)
{
	return dtype == WHOLEMEMORY_DT_INT || dtype == WHOLEMEMORY_DT_INT64 ||
	       dtype == WHOLEMEMORY_DT_INT16 || dtype == WHOLEMEMORY_DT_INT8;
}

static bool
dtype_ok(wholememory_dtype_t d)
{
	return d > WHOLEMEMORY_DT_UNKNOWN && d < WHOLEMEMORY_DT_COUNT;
}

WM_API wholememory_array_description_t
wholememory_create_array_desc(int64_t size, int64_t storage_offset,
			      wholememory_dtype_t dtype)
{
	wholememory_array_description_t a = {
		.size = size, .storage_offset = storage_offset, .dtype = dtype,
	};
	return a;
}

WM_API wholememory_matrix_description_t
wholememory_create_matrix_desc(int64_t sizes[2], int64_t stride,
			       int64_t storage_offset,
			       wholememory_dtype_t dtype)
{
	wholememory_matrix_description_t m = {
		.sizes = { sizes[0], sizes[1] }, .stride = stride,
		.storage_offset = storage_offset, .dtype = dtype,
	};
	return m;
}

WM_API void
wholememory_initialize_tensor_desc(wholememory_tensor_description_t *t)
{
	if (!t)
		return;
	for (int i = 0; i < WHOLEMEMORY_MAX_TENSOR_DIM; i++) {
		t->sizes[i] = 1;
		t->strides[i] = 1;
	}
	t->storage_offset = 0;
	t->dim = 0;
	t->dtype = WHOLEMEMORY_DT_UNKNOWN;
}

WM_API void
wholememory_copy_array_desc_to_matrix(wholememory_matrix_description_t *m,
				      wholememory_array_description_t *a)
{
	if (!m || !a)
		return;
	m->sizes[0] = a->size;
	m->sizes[1] = 1;
	m->stride = 1;
	m->storage_offset = a->storage_offset;
	m->dtype = a->dtype;
}

WM_API void
wholememory_copy_array_desc_to_tensor(wholememory_tensor_description_t *t,
				      wholememory_array_description_t *a)
{
	if (!t || !a)
		return;
	wholememory_initialize_tensor_desc(t);
	t->dim = 1;
	t->sizes[0] = a->size;
	t->storage_offset = a->storage_offset;
	t->dtype = a->dtype;
}

WM_API void
wholememory_copy_matrix_desc_to_tensor(wholememory_tensor_description_t *t,
				       wholememory_matrix_description_t *m)
{
	if (!t || !m)
		return;
	wholememory_initialize_tensor_desc(t);
	t->dim = 2;
	t->sizes[0] = m->sizes[0];
	t->sizes[1] = m->sizes[1];
	t->strides[0] = m->stride;
	t->strides[1] = 1;
	t->storage_offset = m->storage_offset;
	t->dtype = m->dtype;
}

WM_API bool
wholememory_convert_tensor_desc_to_array(wholememory_array_description_t *a,
					 wholememory_tensor_description_t *t)
{
	if (!a || !t || !dtype_ok(t->dtype) || t->dim != 1 ||
	    t->strides[0] != 1)
		return false;
	a->size = t->sizes[0];
	a->storage_offset = t->storage_offset;
	a->dtype = t->dtype;
	return true;
}

WM_API bool
wholememory_convert_tensor_desc_to_matrix(wholememory_matrix_description_t *m,
					  wholememory_tensor_description_t *t)
{
	if (!m || !t || !dtype_ok(t->dtype) || t->dim < 1 || t->dim > 2 ||
	    (t->dim == 2 && t->strides[1] != 1))
		return false;
	m->sizes[0] = t->sizes[0];
	m->sizes[1] = t->dim == 2 ? t->sizes[1] : 1;
	m->stride = t->dim == 2 ? t->strides[0] : 1;
	m->storage_offset = t->storage_offset;
	m->dtype = t->dtype;
	return true;
}

WM_API int64_t
wholememory_get_memory_element_count_from_array(
	wholememory_array_description_t *a)
{
	return a ? a->size : -1;
}

WM_API int64_t
wholememory_get_memory_size_from_array(wholememory_array_description_t *a)
{
	return a ? a->size * (int64_t)wholememory_dtype_get_element_size(
					     a->dtype) :
		   -1;
}

WM_API int64_t
wholememory_get_memory_element_count_from_matrix(
	wholememory_matrix_description_t *m)
{
	return m ? m->sizes[0] * m->stride : -1;
}

WM_API int64_t
wholememory_get_memory_size_from_matrix(wholememory_matrix_description_t *m)
{
	return m ? m->sizes[0] * m->stride *
			   (int64_t)wholememory_dtype_get_element_size(
				   m->dtype) :
		   -1;
}

WM_API int64_t
wholememory_get_memory_element_count_from_tensor(
	wholememory_tensor_description_t *t)
{
	if (!t || t->dim < 0 || t->dim > WHOLEMEMORY_MAX_TENSOR_DIM)
		return -1;
	return t->dim == 0 ? 1 : t->sizes[0] * t->strides[0];
}

WM_API int64_t
wholememory_get_memory_size_from_tensor(wholememory_tensor_description_t *t)
{
	int64_t n = wholememory_get_memory_element_count_from_tensor(t);
	if (n < 0)
		return -1;
	return n * (int64_t)wholememory_dtype_get_element_size(t->dtype);
}

WM_API bool
wholememory_squeeze_tensor(wholememory_tensor_description_t *t, int dim)
{
	if (!t || dim < 0 || dim >= t->dim ||
	    t->dim > WHOLEMEMORY_MAX_TENSOR_DIM || t->sizes[dim] != 1)
		return false;
	if (dim != t->dim - 1 && t->strides[dim] != t->strides[dim + 1])
		return false;
	for (int i = dim; i < t->dim - 1; i++) {
		t->sizes[i] = t->sizes[i + 1];
		t->strides[i] = t->strides[i + 1];
	}
	t->dim--;
	return true;
}

WM_API bool
wholememory_unsqueeze_tensor(wholememory_tensor_description_t *t, int dim)
{
	if (!t || dim < 0 || dim > t->dim || t->dim < 0 ||
	    t->dim >= WHOLEMEMORY_MAX_TENSOR_DIM)
		return false;
	/* the new dim's stride: the one it moves up, or the last's */
	int64_t stride = t->dim ? t->strides[t->dim - 1] : 1;
	for (int i = t->dim; i > dim; i--) {
		t->sizes[i] = t->sizes[i - 1];
		t->strides[i] = t->strides[i - 1];
		stride = t->strides[i];
	}
	t->sizes[dim] = 1;
	t->strides[dim] = stride;
	t->dim++;
	return true;
}

/* ---- tensors ----------------------------------------------------------- */

static atomic_llong live_tensors;

bool
wm_tensor_live(const struct wholememory_tensor_ *t)
{
	return wm_obj_live(t, WM_TENSOR_MAGIC);
}

void
wm_tensor_drop(struct wholememory_tensor_ *t)
{
	wm_obj_register(t, false);
	t->magic = 0;
	atomic_fetch_sub(&live_tensors, 1);
	free(t);
}

WM_API int64_t
get_wholememory_tensor_count(void)
{
	return atomic_load(&live_tensors);
}

static wholememory_error_code_t
new_tensor(struct wholememory_tensor_ **out, struct wholememory_handle_ *h,
	   void *storage, const wholememory_tensor_description_t *d,
	   struct wholememory_tensor_ *root)
{
	struct wholememory_tensor_ *t = calloc(1, sizeof(*t));
	if (!t)
		return WHOLEMEMORY_OUT_OF_MEMORY;
	t->magic = WM_TENSOR_MAGIC;
	t->handle = h;
	t->storage = storage;
	t->desc = *d;
	t->root = root ? root : t;
	if (wm_obj_register(t, true)) {
		free(t);
		return WHOLEMEMORY_OUT_OF_MEMORY;
	}
	atomic_fetch_add(&live_tensors, 1);
	*out = t;
	return WHOLEMEMORY_SUCCESS;
}

/* A 1-D or 2-D description with a dtype, non-negative sizes and
 * offset, a unit last stride and a row stride that holds a row. */
static bool
desc_2d_ok(const wholememory_tensor_description_t *d, const char *call)
{
	bool ok = d->dim >= 1 && d->dim <= 2 && dtype_ok(d->dtype) &&
		  d->storage_offset >= 0 && d->sizes[0] >= 0 &&
		  d->strides[d->dim - 1] == 1 &&
		  (d->dim == 1 ||
		   (d->sizes[1] >= 0 && d->strides[0] >= d->sizes[1] &&
		    d->strides[0] > 0));
	if (!ok)
		u_err(WM_TOPIC, "%s: a 1-D or 2-D description (last stride "
		      "1, rows within the row stride, a dtype) is needed: "
		      "dim %d, dtype %d", call, d->dim, d->dtype);
	return ok;
}

/* Elements from the storage's start to the end of d's last row. */
static int64_t
span_of(const wholememory_tensor_description_t *d)
{
	if (d->sizes[0] == 0)
		return d->storage_offset;
	int64_t cols = d->dim == 2 ? d->sizes[1] : 1;
	return d->storage_offset + (d->sizes[0] - 1) * d->strides[0] + cols;
}

WM_API wholememory_error_code_t
wholememory_create_tensor(wholememory_tensor_t *wholememory_tensor,
			  wholememory_tensor_description_t *tensor_description,
			  wholememory_comm_t comm,
			  wholememory_memory_type_t memory_type,
			  wholememory_memory_location_t memory_location,
			  size_t *tensor_entry_partition)
{
	if (!wholememory_tensor || !tensor_description)
		return WHOLEMEMORY_INVALID_INPUT;
	*wholememory_tensor = NULL;
	wholememory_tensor_description_t d = *tensor_description;
	if (!desc_2d_ok(&d, "wholememory_create_tensor") ||
	    d.storage_offset != 0 || d.sizes[0] == 0)
		return WHOLEMEMORY_INVALID_INPUT;
	size_t es = wholememory_dtype_get_element_size(d.dtype);
	size_t row = es * (size_t)(d.dim == 2 ? d.strides[0] : 1);
	if ((uint64_t)d.sizes[0] > SIZE_MAX / row)
		return WHOLEMEMORY_INVALID_VALUE;
	struct wholememory_handle_ *h = NULL;
	wholememory_error_code_t e = wholememory_malloc(
		&h, row * (size_t)d.sizes[0], comm, memory_type,
		memory_location, row, tensor_entry_partition);
	if (e)
		return e;
	struct wholememory_tensor_ *t = NULL;
	e = new_tensor(&t, h, NULL, &d, NULL);
	if (e) {
		wholememory_free(h);
		return e;
	}
	t->own_handle = true;
	*wholememory_tensor = t;
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
wholememory_destroy_tensor(wholememory_tensor_t wholememory_tensor)
{
	struct wholememory_tensor_ *t = wholememory_tensor;
	if (!wm_tensor_live(t))
		return WHOLEMEMORY_INVALID_INPUT;
	struct wholememory_handle_ *h = t->own_handle ? t->handle : NULL;
	wm_tensor_drop(t);
	return h ? wholememory_free(h) : WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
wholememory_make_tensor_from_pointer(
	wholememory_tensor_t *wholememory_tensor, void *storage_ptr,
	wholememory_tensor_description_t *tensor_description)
{
	if (!wholememory_tensor || !tensor_description)
		return WHOLEMEMORY_INVALID_INPUT;
	*wholememory_tensor = NULL;
	wholememory_tensor_description_t *d = tensor_description;
	if (d->dim < 0 || d->dim > WHOLEMEMORY_MAX_TENSOR_DIM ||
	    (d->dim > 0 && (!dtype_ok(d->dtype) ||
			    d->strides[d->dim - 1] != 1))) {
		u_err(WM_TOPIC, "wholememory_make_tensor_from_pointer: dim %d "
		      "dtype %d (a dtype and a last stride of 1 are needed)",
		      d->dim, d->dtype);
		return WHOLEMEMORY_INVALID_INPUT;
	}
	return new_tensor(wholememory_tensor, NULL, storage_ptr, d, NULL);
}

WM_API wholememory_error_code_t
wholememory_make_tensor_from_handle(
	wholememory_tensor_t *wholememory_tensor,
	wholememory_handle_t wholememory_handle,
	wholememory_tensor_description_t *tensor_description)
{
	if (!wholememory_tensor || !tensor_description ||
	    !wm_handle_live(wholememory_handle))
		return WHOLEMEMORY_INVALID_INPUT;
	*wholememory_tensor = NULL;
	wholememory_tensor_description_t *d = tensor_description;
	if (!desc_2d_ok(d, "wholememory_make_tensor_from_handle"))
		return WHOLEMEMORY_INVALID_INPUT;
	size_t es = wholememory_dtype_get_element_size(d->dtype);
	int64_t span = span_of(d);
	if (span < 0 ||
	    (uint64_t)span > wholememory_handle->total / es) {
		u_err(WM_TOPIC, "the "
		      "description spans %lld elements of %zu bytes, the "
		      "table has %zu bytes", (long long)span, es,
		      wholememory_handle->total);
		return WHOLEMEMORY_INVALID_VALUE;
	}
	return new_tensor(wholememory_tensor, wholememory_handle, NULL, d,
			  NULL);
}

WM_API bool
wholememory_tensor_has_handle(wholememory_tensor_t wholememory_tensor)
{
	return wm_tensor_live(wholememory_tensor) &&
	       wholememory_tensor->handle;
}

WM_API wholememory_handle_t
wholememory_tensor_get_memory_handle(wholememory_tensor_t wholememory_tensor)
{
	return wm_tensor_live(wholememory_tensor) ?
		       wholememory_tensor->handle :
		       NULL;
}

WM_API wholememory_tensor_description_t *
wholememory_tensor_get_tensor_description(
	wholememory_tensor_t wholememory_tensor)
{
	return wm_tensor_live(wholememory_tensor) ?
		       &wholememory_tensor->desc :
		       NULL;
}

WM_API wholememory_error_code_t
wholememory_tensor_get_global_reference(wholememory_tensor_t wholememory_tensor,
					wholememory_gref_t *wholememory_gref)
{
	struct wholememory_tensor_ *t = wholememory_tensor;
	if (!wholememory_gref || !wm_tensor_live(t))
		return WHOLEMEMORY_INVALID_INPUT;
	if (t->handle)
		return wholememory_get_global_reference(wholememory_gref,
							t->handle);
	*wholememory_gref =
		wholememory_create_continuous_global_reference(t->storage);
	return WHOLEMEMORY_SUCCESS;
}

/* Bytes of one of t's rows (its row stride: a sub tensor keeps its
 * root's, the table's granularity for created tensors); 0 when t is no
 * 1-D / 2-D tensor. */
static size_t
row_bytes(const struct wholememory_tensor_ *t)
{
	const wholememory_tensor_description_t *d = &t->desc;
	if (d->dim < 1 || d->dim > 2 || !dtype_ok(d->dtype) ||
	    (d->dim == 2 && d->strides[0] <= 0))
		return 0;
	return wholememory_dtype_get_element_size(d->dtype) *
	       (size_t)(d->dim == 2 ? d->strides[0] : 1);
}

/* Each rank's first row (size + 1 entries) of t's table: the partition
 * offsets in rows, rounded up (a row split between ranks belongs to the
 * rank holding its first byte). */
static wholememory_error_code_t
row_offsets(const struct wholememory_tensor_ *t, size_t *offs)
{
	size_t rb = row_bytes(t);
	if (!t->handle || !wm_handle_live(t->handle) || !rb)
		return WHOLEMEMORY_INVALID_INPUT;
	const struct wholememory_handle_ *h = t->handle;
	size_t rows = h->total / rb;
	for (int r = 0; r <= h->comm->size; r++) {
		size_t o = (h->offs[r] + rb - 1) / rb;
		offs[r] = o < rows ? o : rows;
	}
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
wholememory_tensor_get_entry_offsets(size_t *entry_offsets,
				     wholememory_tensor_t wholememory_tensor)
{
	if (!entry_offsets || !wm_tensor_live(wholememory_tensor))
		return WHOLEMEMORY_INVALID_INPUT;
	return row_offsets(wholememory_tensor, entry_offsets);
}

/* The row offsets of t in a fresh array (free it), or NULL. */
static size_t *
offsets_of(const struct wholememory_tensor_ *t, wholememory_error_code_t *e)
{
	*e = WHOLEMEMORY_INVALID_INPUT;
	if (!wm_tensor_live(t) || !t->handle || !wm_handle_live(t->handle))
		return NULL;
	size_t n = (size_t)t->handle->comm->size + 1;
	size_t *o = malloc(sizeof(size_t) * n);
	if (!o) {
		*e = WHOLEMEMORY_OUT_OF_MEMORY;
		return NULL;
	}
	*e = row_offsets(t, o);
	if (*e) {
		free(o);
		return NULL;
	}
	return o;
}

WM_API wholememory_error_code_t
wholememory_tensor_get_entry_partition_sizes(
	size_t *entry_partition, wholememory_tensor_t wholememory_tensor)
{
	wholememory_error_code_t e;
	if (!entry_partition)
		return WHOLEMEMORY_INVALID_INPUT;
	size_t *o = offsets_of(wholememory_tensor, &e);
	if (!o)
		return e;
	for (int r = 0; r < wholememory_tensor->handle->comm->size; r++)
		entry_partition[r] = o[r + 1] - o[r];
	free(o);
	return WHOLEMEMORY_SUCCESS;
}

static wholememory_error_code_t
local_rows(size_t *start, size_t *count, struct wholememory_tensor_ *t)
{
	wholememory_error_code_t e;
	size_t *o = offsets_of(t, &e);
	if (!o)
		return e;
	int me = t->handle->comm->rank;
	if (start)
		*start = o[me];
	if (count)
		*count = o[me + 1] - o[me];
	free(o);
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
wholememory_tensor_get_local_entry_count(
	size_t *local_entry_count, wholememory_tensor_t wholememory_tensor)
{
	if (!local_entry_count)
		return WHOLEMEMORY_INVALID_INPUT;
	return local_rows(NULL, local_entry_count, wholememory_tensor);
}

WM_API wholememory_error_code_t
wholememory_tensor_get_local_entry_start(
	size_t *local_entry_start, wholememory_tensor_t wholememory_tensor)
{
	if (!local_entry_start)
		return WHOLEMEMORY_INVALID_INPUT;
	return local_rows(local_entry_start, NULL, wholememory_tensor);
}

WM_API wholememory_error_code_t
wholememory_tensor_map_local_tensor(wholememory_tensor_t wholememory_tensor,
				    wholememory_tensor_t *local_tensor)
{
	struct wholememory_tensor_ *t = wholememory_tensor;
	if (!local_tensor || !wm_tensor_live(t))
		return WHOLEMEMORY_INVALID_INPUT;
	*local_tensor = NULL;
	const wholememory_tensor_description_t *d = &t->desc;
	if (!t->handle || d->dim < 1 || d->dim > 2 ||
	    (d->dim == 1 && d->storage_offset != 0) ||
	    (d->dim == 2 && d->storage_offset + d->sizes[1] > d->strides[0]))
		return WHOLEMEMORY_INVALID_VALUE;
	size_t start = 0, count = 0;
	wholememory_error_code_t e = local_rows(&start, &count, t);
	if (e)
		return e;
	/* the rank's rows are those of the root; a sub tensor of fewer rows
	 * keeps those it has */
	size_t rows = (size_t)d->sizes[0];
	size_t end = start + count < rows ? start + count : rows;
	size_t rb = row_bytes(t);
	struct wholememory_handle_ *h = t->handle;
	if (!h->local && count)
		return WHOLEMEMORY_INVALID_VALUE;
	if (!h->base && end > start &&
	    end * rb > h->offs[h->comm->rank + 1]) {
		u_err(WM_TOPIC, "wholememory_tensor_map_local_tensor: the "
		      "last local row spills into the next rank's partition "
		      "(rows of %zu bytes, not a divisor of the partition)",
		      rb);
		return WHOLEMEMORY_NOT_SUPPORTED;
	}
	wholememory_tensor_description_t ld = *d;
	ld.sizes[0] = end > start ? (int64_t)(end - start) : 0;
	/* the local memory starts at the partition's first byte, which may
	 * lie inside a row of the previous rank */
	size_t skip = start * rb - h->offs[h->comm->rank];
	char *p = h->local ? h->local + skip : NULL;
	if (d->dim == 2)
		ld.storage_offset = d->storage_offset;
	return new_tensor(local_tensor, NULL, p, &ld, NULL);
}

WM_API void *
wholememory_tensor_get_data_pointer(wholememory_tensor_t wholememory_tensor)
{
	struct wholememory_tensor_ *t = wholememory_tensor;
	if (!wm_tensor_live(t))
		return NULL;
	char *base = t->storage;
	if (t->handle) {
		if (!wm_handle_live(t->handle) ||
		    t->handle->type != WHOLEMEMORY_MT_CONTINUOUS ||
		    wholememory_get_global_pointer((void **)&base, t->handle))
			return NULL;
	}
	if (!base)
		return NULL;
	size_t es = wholememory_dtype_get_element_size(t->desc.dtype);
	if (es == (size_t)-1)
		return NULL;
	return base + es * (size_t)t->desc.storage_offset;
}

WM_API wholememory_error_code_t
wholememory_tensor_get_subtensor(wholememory_tensor_t wholememory_tensor,
				 int64_t *starts, int64_t *ends,
				 wholememory_tensor_t *sub_wholememory_tensor)
{
	struct wholememory_tensor_ *t = wholememory_tensor;
	if (!sub_wholememory_tensor || !starts || !ends || !wm_tensor_live(t))
		return WHOLEMEMORY_INVALID_INPUT;
	*sub_wholememory_tensor = NULL;
	int dim = t->desc.dim;
	if (dim > 2)
		return WHOLEMEMORY_NOT_IMPLEMENTED;
	if (dim < 1)
		return WHOLEMEMORY_INVALID_INPUT;
	wholememory_tensor_description_t d = t->desc;
	for (int i = 0; i < dim; i++) {
		int64_t s = starts[i] == -1 ? 0 : starts[i];
		int64_t e = ends[i] == -1 ? t->desc.sizes[i] : ends[i];
		if (s < 0 || e <= s || e > t->desc.sizes[i])
			return WHOLEMEMORY_INVALID_INPUT;
		d.storage_offset += t->desc.strides[i] * s;
		d.sizes[i] = e - s;
	}
	return new_tensor(sub_wholememory_tensor, t->handle, t->storage, &d,
			  t->root);
}

WM_API wholememory_tensor_t
wholememory_tensor_get_root(wholememory_tensor_t wholememory_tensor)
{
	if (!wm_tensor_live(wholememory_tensor))
		return NULL;
	/* a root destroyed before its sub tensor: the sub tensor is its
	 * own root from then on */
	struct wholememory_tensor_ *r = wholememory_tensor->root;
	return wm_tensor_live(r) ? r : wholememory_tensor;
}
