// SPDX-License-Identifier: MIT
/*
 * wm_op: WholeMemory's tensor ops (wholememory_op.h) and the default
 * environment table (env_func_ptrs.h).
 *
 * Both ops see every tensor as a matrix (a 1-D tensor is one column):
 * rows, columns, a row stride and a storage offset in elements. The
 * table is a tensor over a handle or over plain memory; the indices and
 * the other side are over plain memory of this process. Every index is
 * checked before anything moves.
 *
 * How rows move, by where the table is:
 *   plain memory, mapped handles (CONTINUOUS, CHUNKED, and DISTRIBUTED /
 *   HIERARCHY mapped on part of the world): through the range, one
 *   memcpy (same dtype) or one conversion per row, in index order (a
 *   scatter's repeated row keeps its last value);
 *   the symmetric heap (DISTRIBUTED, HIERARCHY): wm_move (pointers to
 *   this rank and node peers, non-blocking gets / puts otherwise, one
 *   shmem_quiet). A conversion goes through temporary memory of the
 *   environment table: gathered rows are converted after the quiet,
 *   scattered rows before the puts; a scatter puts only the last of
 *   repeated rows (wm_last_of_each), as wholememoryx_scatter does.
 *
 * Conversions within a family: floats through double (exact for every
 * source), rounded to nearest even into the target (half and bfloat16
 * by to_narrow: overflow to infinity, subnormals kept, NaN quiet);
 * integers through int64_t, truncated to the target's low bits.
 */
#include "wm.h"

#include <wholememory/wholememory_op.h>

#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <shmem.h>
#include <stdlib.h>
#include <string.h>

/* ---- the default environment ------------------------------------------ */

struct def_ctx {
	void *p;
};

static void
def_create(void **memory_context, void *global_context)
{
	(void)global_context;
	*memory_context = calloc(1, sizeof(struct def_ctx));
}

static void
def_destroy(void *memory_context, void *global_context)
{
	(void)global_context;
	free(memory_context);
}

static void *
def_malloc(wholememory_tensor_description_t *desc,
	   wholememory_memory_allocation_type_t type, void *memory_context,
	   void *global_context)
{
	(void)type;
	(void)global_context;
	struct def_ctx *c = memory_context;
	int64_t n = wholememory_get_memory_size_from_tensor(desc);
	if (!c || n < 0)
		return NULL;
	free(c->p);
	c->p = malloc(n ? (size_t)n : 1);
	return c->p;
}

static void
def_free(void *memory_context, void *global_context)
{
	(void)global_context;
	struct def_ctx *c = memory_context;
	if (c) {
		free(c->p);
		c->p = NULL;
	}
}

static wholememory_env_func_t def_env = {
	.temporary_fns = {
		.create_memory_context_fn = def_create,
		.destroy_memory_context_fn = def_destroy,
		.malloc_fn = def_malloc,
		.free_fn = def_free,
	},
	.output_fns = {
		.malloc_fn = def_malloc,
		.free_fn = def_free,
	},
};

WM_API wholememory_env_func_t *
wholememoryx_get_default_env_func(void)
{
	return &def_env;
}

/* Temporary host memory of bytes from env; NULL (logged) when none. */
struct tmp {
	wholememory_temp_memory_func_t *fn;
	void *ctx;
	void *p;
};

static void *
tmp_get(struct tmp *t, wholememory_env_func_t *env, size_t bytes)
{
	t->fn = &env->temporary_fns;
	t->ctx = NULL;
	t->fn->create_memory_context_fn(&t->ctx, t->fn->global_context);
	wholememory_tensor_description_t d;
	wholememory_initialize_tensor_desc(&d);
	d.dim = 1;
	d.sizes[0] = (int64_t)bytes;
	d.dtype = WHOLEMEMORY_DT_INT8;
	t->p = t->fn->malloc_fn(&d, WHOLEMEMORY_MA_HOST, t->ctx,
				t->fn->global_context);
	if (!t->p)
		u_err(WM_TOPIC, "no temporary memory of %zu bytes from the "
		      "environment table", bytes);
	return t->p;
}

static void
tmp_put(struct tmp *t)
{
	if (!t->fn)
		return;
	if (t->p)
		t->fn->free_fn(t->ctx, t->fn->global_context);
	t->fn->destroy_memory_context_fn(t->ctx, t->fn->global_context);
	t->fn = NULL;
}

/* ---- conversions ------------------------------------------------------- */

/* The IEEE binary format of ebits exponent and mbits fraction bits
 * nearest to v (ties to even). */
static uint16_t
to_narrow(double v, int ebits, int mbits)
{
	uint64_t b;
	memcpy(&b, &v, sizeof(b));
	uint32_t sign = (uint32_t)(b >> 63) << (ebits + mbits);
	int e = (int)(b >> 52 & 0x7ff);
	uint64_t m = b & ((1ull << 52) - 1);
	uint32_t emax = (1u << ebits) - 1;
	if (e == 0x7ff) /* infinity, NaN (quiet) */
		return (uint16_t)(sign | emax << mbits |
				  (m ? 1u << (mbits - 1) : 0));
	if (!e && !m)
		return (uint16_t)sign;
	uint64_t sig = e ? m | 1ull << 52 : m; /* v = sig * 2^exp */
	int exp = (e ? e : 1) - 1075;
	int lead = 63 - __builtin_clzll(sig);
	int bias = (1 << (ebits - 1)) - 1;
	int te = exp + lead + bias; /* the target's biased exponent */
	/* the target's quantum: normal numbers keep mbits bits after the
	 * leading one, subnormals the fixed quantum 2^(1 - bias - mbits) */
	int q = te >= 1 ? exp + lead - mbits : 1 - bias - mbits;
	int shift = q - exp;
	uint64_t t;
	if (shift >= 64) {
		t = 0; /* below half the smallest subnormal */
	} else if (shift <= 0) {
		t = sig << -shift;
	} else {
		t = sig >> shift;
		uint64_t rem = sig & ((1ull << shift) - 1);
		uint64_t half = 1ull << (shift - 1);
		if (rem > half || (rem == half && (t & 1)))
			t++;
	}
	uint64_t bits;
	if (te >= 1) {
		/* t in [2^mbits, 2^(mbits+1)]: a carry raises the exponent */
		bits = ((uint64_t)te << mbits) + t - (1ull << mbits);
		if (bits >= (uint64_t)emax << mbits)
			bits = (uint64_t)emax << mbits;
	} else {
		bits = t; /* subnormal, or the smallest normal after a carry */
	}
	return (uint16_t)(sign | bits);
}

static double
from_narrow(uint16_t b, int ebits, int mbits)
{
	int e = b >> mbits & ((1 << ebits) - 1);
	int m = b & ((1 << mbits) - 1);
	int bias = (1 << (ebits - 1)) - 1;
	double s = b >> (ebits + mbits) ? -1.0 : 1.0;
	if (e == (1 << ebits) - 1)
		return m ? NAN : s * INFINITY;
	if (!e)
		return s * ldexp(m, 1 - bias - mbits);
	return s * ldexp(m | 1 << mbits, e - bias - mbits);
}

static double
load_f(const char *p, wholememory_dtype_t t)
{
	float f;
	double d;
	uint16_t h;
	switch (t) {
	case WHOLEMEMORY_DT_FLOAT:
		memcpy(&f, p, 4);
		return f;
	case WHOLEMEMORY_DT_DOUBLE:
		memcpy(&d, p, 8);
		return d;
	case WHOLEMEMORY_DT_HALF:
		memcpy(&h, p, 2);
		return from_narrow(h, 5, 10);
	default: /* BF16 */
		memcpy(&h, p, 2);
		return from_narrow(h, 8, 7);
	}
}

static void
store_f(char *p, wholememory_dtype_t t, double v)
{
	float f;
	uint16_t h;
	switch (t) {
	case WHOLEMEMORY_DT_FLOAT:
		f = (float)v;
		memcpy(p, &f, 4);
		break;
	case WHOLEMEMORY_DT_DOUBLE:
		memcpy(p, &v, 8);
		break;
	case WHOLEMEMORY_DT_HALF:
		h = to_narrow(v, 5, 10);
		memcpy(p, &h, 2);
		break;
	default: /* BF16 */
		h = to_narrow(v, 8, 7);
		memcpy(p, &h, 2);
		break;
	}
}

static int64_t
load_i(const char *p, wholememory_dtype_t t)
{
	int8_t b;
	int16_t s;
	int32_t i;
	int64_t l;
	switch (t) {
	case WHOLEMEMORY_DT_INT8:
		memcpy(&b, p, 1);
		return b;
	case WHOLEMEMORY_DT_INT16:
		memcpy(&s, p, 2);
		return s;
	case WHOLEMEMORY_DT_INT:
		memcpy(&i, p, 4);
		return i;
	default: /* INT64 */
		memcpy(&l, p, 8);
		return l;
	}
}

static void
store_i(char *p, wholememory_dtype_t t, int64_t v)
{
	/* the low bytes (little endian): two's complement truncation */
	uint64_t u = (uint64_t)v;
	uint8_t b[8];
	for (int k = 0; k < 8; k++)
		b[k] = (uint8_t)(u >> (8 * k));
	memcpy(p, b, wholememory_dtype_get_element_size(t));
}

/* n elements of type st at src -> type dt at dst (one family). */
static void
convert(char *dst, wholememory_dtype_t dt, const char *src,
	wholememory_dtype_t st, size_t n)
{
	size_t ds = wholememory_dtype_get_element_size(dt);
	size_t ss = wholememory_dtype_get_element_size(st);
	if (dt == st) {
		memcpy(dst, src, n * ds);
		return;
	}
	if (wholememory_dtype_is_floating_number(st))
		for (size_t i = 0; i < n; i++)
			store_f(dst + i * ds, dt, load_f(src + i * ss, st));
	else
		for (size_t i = 0; i < n; i++)
			store_i(dst + i * ds, dt, load_i(src + i * ss, st));
}

/* ---- tensors as matrices ----------------------------------------------- */

struct mat {
	struct wholememory_handle_ *h;    /* NULL: plain memory at p */
	char *p;
	int64_t rows, cols, stride, off;  /* elements */
	wholememory_dtype_t dt;
	size_t es;
	int dim;
};

/* t as a matrix; plain: it must be over plain memory. 0 or an error
 * (logged). */
static wholememory_error_code_t
mat_of(wholememory_tensor_t t, bool plain, const char *what, struct mat *m)
{
	if (!wm_tensor_live(t)) {
		u_err(WM_TOPIC, "%s: no live tensor", what);
		return WHOLEMEMORY_INVALID_INPUT;
	}
	wholememory_tensor_description_t d = t->desc;
	wholememory_matrix_description_t md;
	m->dim = d.dim;
	if ((d.dim != 1 && d.dim != 2) ||
	    (d.dim == 1 && !wholememory_unsqueeze_tensor(&d, 1)) ||
	    !wholememory_convert_tensor_desc_to_matrix(&md, &d) ||
	    md.sizes[0] < 0 || md.sizes[1] < 0 || md.storage_offset < 0 ||
	    (md.sizes[0] > 1 && md.stride < md.sizes[1])) {
		u_err(WM_TOPIC, "%s: a 1-D or 2-D tensor with a dtype and a "
		      "last stride of 1 is needed (dim %d)", what, m->dim);
		return WHOLEMEMORY_INVALID_INPUT;
	}
	if (plain && t->handle) {
		u_err(WM_TOPIC, "%s: must be a tensor over plain memory, not "
		      "a WholeMemory tensor", what);
		return WHOLEMEMORY_INVALID_INPUT;
	}
	if (t->handle && !wm_handle_live(t->handle)) {
		u_err(WM_TOPIC, "%s: its WholeMemory handle was freed", what);
		return WHOLEMEMORY_INVALID_INPUT;
	}
	m->h = t->handle;
	m->p = t->storage;
	m->rows = md.sizes[0];
	m->cols = md.sizes[1];
	m->stride = md.stride;
	m->off = md.storage_offset;
	m->dt = md.dtype;
	m->es = wholememory_dtype_get_element_size(md.dtype);
	if (!m->h && !m->p && m->rows && m->cols) {
		u_err(WM_TOPIC, "%s: no storage", what);
		return WHOLEMEMORY_INVALID_INPUT;
	}
	return WHOLEMEMORY_SUCCESS;
}

static int64_t
index_at(const char *p, bool wide, size_t i)
{
	if (wide) {
		int64_t v;
		memcpy(&v, p + 8 * i, 8);
		return v;
	}
	int32_t v;
	memcpy(&v, p + 4 * i, 4);
	return v;
}

struct op {
	struct mat tab, idx, io;          /* table, indices, output / input */
	const char *ip;                   /* the first index */
	bool wide;                        /* int64_t indices */
	size_t n;
	wholememory_env_func_t *env;
};

static wholememory_error_code_t
op_check(struct op *o, wholememory_tensor_t table, wholememory_tensor_t idx,
	 wholememory_tensor_t io, wholememory_env_func_t *env,
	 const char *call, const char *io_name)
{
	wholememory_error_code_t e;
	if ((e = mat_of(table, false, "the WholeMemory tensor", &o->tab)) ||
	    (e = mat_of(idx, true, "the indices tensor", &o->idx)) ||
	    (e = mat_of(io, true, io_name, &o->io)))
		return e;
	if (o->idx.dim != 1 || (o->idx.dt != WHOLEMEMORY_DT_INT &&
				o->idx.dt != WHOLEMEMORY_DT_INT64)) {
		u_err(WM_TOPIC, "%s: indices must be a 1-D tensor of "
		      "WHOLEMEMORY_DT_INT or WHOLEMEMORY_DT_INT64", call);
		return WHOLEMEMORY_INVALID_INPUT;
	}
	o->n = (size_t)o->idx.rows;
	o->wide = o->idx.dt == WHOLEMEMORY_DT_INT64;
	o->ip = o->idx.p ? o->idx.p + o->idx.off * (int64_t)o->idx.es : NULL;
	if (o->io.dim != o->tab.dim || (size_t)o->io.rows != o->n ||
	    o->io.cols != o->tab.cols) {
		u_err(WM_TOPIC, "%s: %s must be %dD of %zu rows and %lld "
		      "columns (the table's), not %dD %lld x %lld", call,
		      io_name, o->tab.dim, o->n, (long long)o->tab.cols,
		      o->io.dim, (long long)o->io.rows,
		      (long long)o->io.cols);
		return WHOLEMEMORY_INVALID_INPUT;
	}
	bool tf = wholememory_dtype_is_floating_number(o->tab.dt);
	bool of = wholememory_dtype_is_floating_number(o->io.dt);
	if (tf != of) {
		u_err(WM_TOPIC, "%s: dtypes %d and %d: conversions are "
		      "within floating-point or within integer types", call,
		      o->tab.dt, o->io.dt);
		return WHOLEMEMORY_NOT_SUPPORTED;
	}
	if (env && (!env->temporary_fns.create_memory_context_fn ||
		    !env->temporary_fns.destroy_memory_context_fn ||
		    !env->temporary_fns.malloc_fn ||
		    !env->temporary_fns.free_fn)) {
		u_err(WM_TOPIC, "%s: the environment table lacks a "
		      "temporary memory function", call);
		return WHOLEMEMORY_INVALID_INPUT;
	}
	o->env = env ? env : &def_env;
	for (size_t i = 0; i < o->n; i++) {
		int64_t v = index_at(o->ip, o->wide, i);
		if (v < 0 || v >= o->tab.rows) {
			u_err(WM_TOPIC, "%s: index %lld at %zu: the table has "
			      "%lld rows", call, (long long)v, i,
			      (long long)o->tab.rows);
			return WHOLEMEMORY_INVALID_VALUE;
		}
	}
	return WHOLEMEMORY_SUCCESS;
}

/* An entry point of the process's Level Zero loader, NULL when it has
 * none (zeCommandListIsImmediate is 1.9, zeCommandListHostSynchronize
 * 1.6: Debian's libze1 1.8 lacks the first; zemem's loader has both). */
static void *
loader_sym(const char *name)
{
	void *dl = dlopen("libze_loader.so.1", RTLD_LAZY | RTLD_NOLOAD);
	void *f = dl ? dlsym(dl, name) : NULL;
	if (dl)
		dlclose(dl);
	return f;
}

typedef ze_result_t (*is_immediate_fn)(ze_command_list_handle_t,
				       ze_bool_t *);
typedef ze_result_t (*host_sync_fn)(ze_command_list_handle_t, uint64_t);

/* The op runs in stream's order (wholememory_op.h). */
wholememory_error_code_t
wm_order_after(void *stream, const char *call)
{
	if (!stream)
		return WHOLEMEMORY_SUCCESS;
	ze_command_list_handle_t cl = stream;
	is_immediate_fn is_imm =
		(is_immediate_fn)loader_sym("zeCommandListIsImmediate");
	host_sync_fn sync =
		(host_sync_fn)loader_sym("zeCommandListHostSynchronize");
	if (!is_imm || !sync) {
		u_err(WM_TOPIC, "%s: a command list as stream needs a Level "
		      "Zero loader of 1.9 or later (zeCommandListIsImmediate, "
		      "zeCommandListHostSynchronize); this one has not: pass "
		      "NULL", call);
		return WHOLEMEMORY_NOT_SUPPORTED;
	}
	ze_bool_t imm = 0;
	ze_result_t r = is_imm(cl, &imm);
	if (r != ZE_RESULT_SUCCESS) {
		u_err(WM_TOPIC, "%s: stream %p is no command list (0x%x)",
		      call, stream, r);
		return WHOLEMEMORY_INVALID_INPUT;
	}
	if (!imm) {
		u_err(WM_TOPIC, "%s: stream is a regular command list: the op "
		      "cannot run in its order (pass an immediate list or "
		      "NULL)", call);
		return WHOLEMEMORY_NOT_SUPPORTED;
	}
	r = sync(cl, UINT64_MAX);
	if (r != ZE_RESULT_SUCCESS) {
		/* the device runtime's failure: CUDA_ERROR in WholeMemory */
		u_err(WM_TOPIC, "%s: zeCommandListHostSynchronize: 0x%x",
		      call, r);
		return WHOLEMEMORY_CUDA_ERROR;
	}
	return WHOLEMEMORY_SUCCESS;
}

/* Byte offset of row r of m from its storage's start. */
static size_t
row_off(const struct mat *m, int64_t r)
{
	return (size_t)(m->off + r * m->stride) * m->es;
}

/* A pointer to row r of the table, or NULL when it must move by RMA. */
static char *
tab_row(const struct mat *m, int64_t r)
{
	if (!m->h)
		return m->p + row_off(m, r);
	return m->h->base ? m->h->base + row_off(m, r) : NULL;
}

WM_API wholememory_error_code_t
wholememory_gather(wholememory_tensor_t wholememory_tensor,
		   wholememory_tensor_t indices_tensor,
		   wholememory_tensor_t output_tensor,
		   wholememory_env_func_t *p_env_fns, void *stream,
		   int gather_sms)
{
	(void)gather_sms;
	static const char call[] = "wholememory_gather";
	struct op o;
	wholememory_error_code_t e = op_check(&o, wholememory_tensor,
					      indices_tensor, output_tensor,
					      p_env_fns, call, "the output");
	if (!e)
		e = wm_order_after(stream, call);
	if (e || !o.n || !o.tab.cols)
		return e;
	size_t cols = (size_t)o.tab.cols, tb = cols * o.tab.es;
	bool same = o.tab.dt == o.io.dt;
	char *out = o.io.p;
	if (!o.tab.h || o.tab.h->base) {
		for (size_t i = 0; i < o.n; i++) {
			int64_t r = index_at(o.ip, o.wide, i);
			const char *s = tab_row(&o.tab, r);
			char *d = out + row_off(&o.io, (int64_t)i);
			if (same)
				memcpy(d, s, tb);
			else
				convert(d, o.io.dt, s, o.tab.dt, cols);
		}
		return WHOLEMEMORY_SUCCESS;
	}
	/* the symmetric heap: straight into the output, or through
	 * temporary rows to convert */
	struct tmp t = { 0 };
	char *buf = NULL;
	if (!same && !(buf = tmp_get(&t, o.env, o.n * tb))) {
		tmp_put(&t);
		return WHOLEMEMORY_OUT_OF_MEMORY;
	}
	bool rma = false;
	for (size_t i = 0; i < o.n; i++) {
		char *d = same ? out + row_off(&o.io, (int64_t)i) :
				 buf + i * tb;
		wm_move(o.tab.h, row_off(&o.tab, index_at(o.ip, o.wide, i)),
			tb, d, false, &rma);
	}
	if (rma)
		shmem_quiet();
	for (size_t i = 0; !same && i < o.n; i++)
		convert(out + row_off(&o.io, (int64_t)i), o.io.dt,
			buf + i * tb, o.tab.dt, cols);
	tmp_put(&t);
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
wholememory_scatter(wholememory_tensor_t input_tensor,
		    wholememory_tensor_t indices_tensor,
		    wholememory_tensor_t wholememory_tensor,
		    wholememory_env_func_t *p_env_fns, void *stream,
		    int scatter_sms)
{
	(void)scatter_sms;
	static const char call[] = "wholememory_scatter";
	struct op o;
	wholememory_error_code_t e = op_check(&o, wholememory_tensor,
					      indices_tensor, input_tensor,
					      p_env_fns, call, "the input");
	if (!e)
		e = wm_order_after(stream, call);
	if (e || !o.n || !o.tab.cols)
		return e;
	size_t cols = (size_t)o.tab.cols, tb = cols * o.tab.es;
	bool same = o.tab.dt == o.io.dt;
	const char *in = o.io.p;
	if (!o.tab.h || o.tab.h->base) {
		for (size_t i = 0; i < o.n; i++) {
			char *d = tab_row(&o.tab, index_at(o.ip, o.wide, i));
			const char *s = in + row_off(&o.io, (int64_t)i);
			if (same)
				memcpy(d, s, tb);
			else
				convert(d, o.tab.dt, s, o.io.dt, cols);
		}
		return WHOLEMEMORY_SUCCESS;
	}
	/* the symmetric heap: each row once, from its last index; rows
	 * converted into temporary memory first */
	struct tmp ti = { 0 }, tr = { 0 };
	int64_t *idx = (int64_t *)o.ip;
	char *rows = NULL;
	uint8_t *keep = NULL;
	e = WHOLEMEMORY_OUT_OF_MEMORY;
	if (!o.wide && !(idx = tmp_get(&ti, o.env, o.n * sizeof(*idx))))
		goto out;
	for (size_t i = 0; !o.wide && i < o.n; i++)
		idx[i] = index_at(o.ip, false, i);
	if (!same && !(rows = tmp_get(&tr, o.env, o.n * tb)))
		goto out;
	if (o.n > 1 && wm_last_of_each(idx, o.n, &keep)) {
		u_err(WM_TOPIC, "%s of %zu rows: no memory for the duplicate "
		      "check", call, o.n);
		goto out;
	}
	bool rma = false;
	for (size_t i = 0; i < o.n; i++) {
		if (keep && !keep[i])
			continue;
		char *s = (char *)in + row_off(&o.io, (int64_t)i);
		if (!same) {
			convert(rows + i * tb, o.tab.dt, s, o.io.dt, cols);
			s = rows + i * tb;
		}
		wm_move(o.tab.h, row_off(&o.tab, idx[i]), tb, s, true, &rma);
	}
	if (rma)
		shmem_quiet();
	e = WHOLEMEMORY_SUCCESS;
out:
	free(keep);
	tmp_put(&tr);
	tmp_put(&ti);
	return e;
}
