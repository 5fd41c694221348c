// SPDX-License-Identifier: MIT
/*
 * wm_embedding.c: WholeMemory embeddings (api/wholememory/embedding.h)
 * on the tensors and ops of this library.
 *
 * An embedding is a table tensor of rows padded to 16 bytes (raw) and
 * its (rows, dim) sub tensor (view). Gradient steps are owner-computes:
 * each rank sorts its (index, gradient row) records by owner into its
 * partition of an exchange table (DISTRIBUTED, kept by the embedding,
 * grown when a step needs more), the counts per owner are all-gathered
 * over the mailbox, and each owner reads the records of its rows from
 * every rank (memcpy or RMA), sums the gradients of a row in record
 * order (rank, then index order) and steps the row in its local
 * partition (states: tensors of the same partition).
 *
 * Caches: a rank's rows map to its slots by local row number modulo the
 * slot count (direct-mapped).
 *   read-only   per rank, in this process's memory: tag[slot] = the
 *               global row held, or -1.
 *   learnable   two tables of the policy's type and location with the
 *               embedding's partition of slots: the rows (stride of the
 *               embedding) and the tags (INT64: local row | WM_MOD when
 *               modified, or -1). Only the owner writes them, inside
 *               the collective calls; a gather reads a row's tag from
 *               the owner's tag table, then the cached row or the table.
 *
 * Round-robin sharding (round_robin_size R > 0, WholeGraph's layout):
 * block b of rows [b * R, (b + 1) * R) belongs to rank b % W, at local
 * rows (b / W) * R onwards. Every rank holds K rows, rank 0's share
 * (rows / (W * R) * R + min(rows % (W * R), R)), so the table has K * W
 * rows, each rank's blocks contiguous (the tensor that
 * get_embedding_tensor gives and the states are in this storage order,
 * as wholememory_load_from_file with the same R fills it). The calls
 * check an index against the embedding's rows, then map it to its
 * storage row; all else works on storage rows.
 */
#include "wm.h"

#include <wholememory/embedding.h>
#include <wholememory/wholememory_op.h>

#include <shmem.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define WM_POLICY_MAGIC 0x776d6370u /* "wmcp" */
#define WM_OPT_MAGIC 0x776d6f70u    /* "wmop" */
#define WM_EMB_MAGIC 0x776d656du    /* "wmem" */
#define WM_MOD ((int64_t)1 << 62)
#define WM_NSTATE 3

struct wholememory_embedding_cache_policy_ {
	uint32_t magic;
	wholememory_comm_t comm;
	wholememory_memory_type_t type;
	wholememory_memory_location_t loc;
	wholememory_access_type_t access;
	float ratio;
};

struct wholememory_embedding_optimizer_ {
	uint32_t magic;
	wholememory_optimizer_type_t type;
	float weight_decay, epsilon, beta1, beta2, adam_w, alpha;
};

struct wholememory_embedding_ {
	uint32_t magic;
	struct wholememory_comm_ *comm;
	wholememory_memory_type_t type;
	wholememory_memory_location_t loc;
	wholememory_dtype_t dt;
	int64_t rows, dim, stride;        /* elements; rows: storage */
	int64_t urows;                    /* the rows indices name */
	int64_t rr;                       /* round_robin_size, or 0 */
	size_t es;
	wholememory_tensor_t raw, view;
	size_t *starts;                   /* [size + 1]: first rows */
	size_t *parts;                    /* [size]: rows per rank */
	/* optimizer */
	struct wholememory_embedding_optimizer_ *opt;
	wholememory_optimizer_type_t opt_type;
	const char *const *state_names;
	wholememory_tensor_t st_raw[WM_NSTATE], st_view[WM_NSTATE];
	int nstate;
	/* cache */
	wholememory_access_type_t access;
	size_t *slot_starts;              /* [size + 1] */
	size_t nslots;                    /* this rank's */
	char *ro_data;                    /* read-only: nslots rows */
	int64_t *ro_tag;
	wholememory_tensor_t c_data, c_tag;   /* learnable */
	/* gradient exchange: xcap bytes per rank */
	wholememory_handle_t xh;
	size_t xcap;
};

static const char *const names_sgd[] = { NULL };
static const char *const names_adam[] = { "m", "v", "beta12t", NULL };
static const char *const names_adagrad[] = { "state_sum", NULL };
static const char *const names_rmsprop[] = { "v", NULL };

/* ---- optimizers and policies ------------------------------------------- */

WM_API wholememory_error_code_t
wholememory_create_embedding_optimizer(
	wholememory_embedding_optimizer_t *optimizer,
	wholememory_optimizer_type_t optimizer_type)
{
	if (!optimizer)
		return WHOLEMEMORY_INVALID_INPUT;
	*optimizer = NULL;
	switch (optimizer_type) {
	case WHOLEMEMORY_OPT_SGD:
	case WHOLEMEMORY_OPT_LAZY_ADAM:
	case WHOLEMEMORY_OPT_RMSPROP:
	case WHOLEMEMORY_OPT_ADAGRAD:
		break;
	default:
		u_err(WM_TOPIC, "create_embedding_optimizer: type %d is no "
		      "optimizer", (int)optimizer_type);
		return WHOLEMEMORY_NOT_IMPLEMENTED;
	}
	struct wholememory_embedding_optimizer_ *o = calloc(1, sizeof(*o));
	if (!o)
		return WHOLEMEMORY_OUT_OF_MEMORY;
	o->magic = WM_OPT_MAGIC;
	o->type = optimizer_type;
	o->epsilon = 1e-8f;
	o->beta1 = 0.9f;
	o->beta2 = 0.999f;
	o->alpha = 0.99f;
	if (wm_obj_register(o, true)) {
		free(o);
		return WHOLEMEMORY_OUT_OF_MEMORY;
	}
	*optimizer = o;
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
wholememory_optimizer_set_parameter(wholememory_embedding_optimizer_t o,
				    const char *parameter_name, void *value)
{
	if (!wm_obj_live(o, WM_OPT_MAGIC) || !parameter_name || !value)
		return WHOLEMEMORY_INVALID_INPUT;
	const char *n = parameter_name;
	float *p = NULL;
	if (!strcmp(n, "weight_decay"))
		p = &o->weight_decay;
	else if (!strcmp(n, "epsilon") && o->type != WHOLEMEMORY_OPT_SGD)
		p = &o->epsilon;
	else if (o->type == WHOLEMEMORY_OPT_LAZY_ADAM && !strcmp(n, "beta1"))
		p = &o->beta1;
	else if (o->type == WHOLEMEMORY_OPT_LAZY_ADAM && !strcmp(n, "beta2"))
		p = &o->beta2;
	else if (o->type == WHOLEMEMORY_OPT_LAZY_ADAM && !strcmp(n, "adam_w"))
		p = &o->adam_w;
	else if (o->type == WHOLEMEMORY_OPT_RMSPROP && !strcmp(n, "alpha"))
		p = &o->alpha;
	if (!p) {
		u_err(WM_TOPIC, "optimizer_set_parameter: no parameter '%s' "
		      "for optimizer type %d", n, (int)o->type);
		return WHOLEMEMORY_INVALID_INPUT;
	}
	memcpy(p, value, sizeof(*p));
	return WHOLEMEMORY_SUCCESS;
}

WM_API void
wholememory_destroy_embedding_optimizer(wholememory_embedding_optimizer_t o)
{
	if (!wm_obj_live(o, WM_OPT_MAGIC))
		return;
	wm_obj_register(o, false);
	o->magic = 0;
	free(o);
}

WM_API wholememory_error_code_t
wholememory_create_embedding_cache_policy(
	wholememory_embedding_cache_policy_t *cache_policy,
	wholememory_comm_t cache_level_comm,
	wholememory_memory_type_t memory_type,
	wholememory_memory_location_t memory_location,
	wholememory_access_type_t access_type, float cache_ratio)
{
	if (!cache_policy)
		return WHOLEMEMORY_INVALID_INPUT;
	*cache_policy = NULL;
	if (!wm_comm_live(cache_level_comm)) {
		u_err(WM_TOPIC, "create_embedding_cache_policy: no live "
		      "communicator");
		return WHOLEMEMORY_INVALID_INPUT;
	}
	if (memory_type <= WHOLEMEMORY_MT_NONE ||
	    memory_type > WHOLEMEMORY_MT_HIERARCHY ||
	    memory_location <= WHOLEMEMORY_ML_NONE ||
	    memory_location > WHOLEMEMORY_ML_HOST ||
	    (access_type != WHOLEMEMORY_AT_READONLY &&
	     access_type != WHOLEMEMORY_AT_READWRITE) ||
	    !(cache_ratio >= 1.0f / 512 && cache_ratio <= 1.0f)) {
		u_err(WM_TOPIC, "create_embedding_cache_policy: type %d, "
		      "location %d, access %d, ratio %g: a memory type and "
		      "location, READONLY or READWRITE and a ratio in "
		      "[1/512, 1] are needed", (int)memory_type,
		      (int)memory_location, (int)access_type,
		      (double)cache_ratio);
		return WHOLEMEMORY_INVALID_INPUT;
	}
	struct wholememory_embedding_cache_policy_ *p = calloc(1, sizeof(*p));
	if (!p)
		return WHOLEMEMORY_OUT_OF_MEMORY;
	p->magic = WM_POLICY_MAGIC;
	p->comm = cache_level_comm;
	p->type = memory_type;
	p->loc = memory_location;
	p->access = access_type;
	p->ratio = cache_ratio;
	if (wm_obj_register(p, true)) {
		free(p);
		return WHOLEMEMORY_OUT_OF_MEMORY;
	}
	*cache_policy = p;
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
wholememory_destroy_embedding_cache_policy(
	wholememory_embedding_cache_policy_t p)
{
	if (!wm_obj_live(p, WM_POLICY_MAGIC))
		return WHOLEMEMORY_INVALID_INPUT;
	wm_obj_register(p, false);
	p->magic = 0;
	free(p);
	return WHOLEMEMORY_SUCCESS;
}

/* ---- creation ---------------------------------------------------------- */

/* The (rows, cols) sub tensor of t (a new tensor). */
static wholememory_error_code_t
cols_of(wholememory_tensor_t t, int64_t cols, wholememory_tensor_t *out)
{
	int64_t s[2] = { 0, 0 }, e[2] = { -1, cols };
	return wholememory_tensor_get_subtensor(t, s, e, out);
}

static char *
local_of(wholememory_tensor_t t)
{
	void *p = NULL;
	size_t sz, off;
	wholememory_handle_t h = wholememory_tensor_get_memory_handle(t);
	if (!h || wholememory_get_local_memory(&p, &sz, &off, h))
		return NULL;
	return p;
}

static void
emb_free(struct wholememory_embedding_ *e)
{
	for (int i = 0; i < WM_NSTATE; i++) {
		if (e->st_view[i])
			wholememory_destroy_tensor(e->st_view[i]);
		if (e->st_raw[i])
			wholememory_destroy_tensor(e->st_raw[i]);
	}
	if (e->xh)
		wholememory_free(e->xh);
	if (e->c_data)
		wholememory_destroy_tensor(e->c_data);
	if (e->c_tag)
		wholememory_destroy_tensor(e->c_tag);
	if (e->view)
		wholememory_destroy_tensor(e->view);
	if (e->raw)
		wholememory_destroy_tensor(e->raw);
	free(e->ro_data);
	free(e->ro_tag);
	free(e->slot_starts);
	free(e->starts);
	free(e->parts);
	if (e->magic) {
		wm_obj_register(e, false);
		e->magic = 0;
	}
	free(e);
}

/* r on every rank when no rank failed, else the first failure's
 * class on every rank. */
static wholememory_error_code_t
agree(struct wholememory_comm_ *c, wholememory_error_code_t r)
{
	int err = r == WHOLEMEMORY_OUT_OF_MEMORY ? -ENOMEM : r ? -EINVAL : 0;
	int all = wm_agree(c, err);
	if (r)
		return r;
	return all ? (wholememory_error_code_t)wm_result(all)
		   : WHOLEMEMORY_SUCCESS;
}

static wholememory_error_code_t
cache_create(struct wholememory_embedding_ *e,
	     const struct wholememory_embedding_cache_policy_ *p,
	     float ratio)
{
	int n = e->comm->size, me = e->comm->rank;
	size_t *sp = calloc((size_t)n, sizeof(size_t));
	e->slot_starts = calloc((size_t)n + 1, sizeof(size_t));
	if (!sp || !e->slot_starts) {
		free(sp);
		return WHOLEMEMORY_OUT_OF_MEMORY;
	}
	for (int r = 0; r < n; r++) {
		size_t k = (size_t)ceil((double)ratio * (double)e->parts[r]);
		if (k > e->parts[r])
			k = e->parts[r];
		sp[r] = k;
		e->slot_starts[r + 1] = e->slot_starts[r] + k;
	}
	e->nslots = sp[me];
	size_t rb = (size_t)e->stride * e->es;
	wholememory_error_code_t r = WHOLEMEMORY_SUCCESS;
	e->access = p->access;
	if (p->access == WHOLEMEMORY_AT_READONLY) {
		e->ro_data = malloc(e->nslots * rb + 1);
		e->ro_tag = malloc(e->nslots * sizeof(int64_t) + 1);
		if (!e->ro_data || !e->ro_tag)
			r = WHOLEMEMORY_OUT_OF_MEMORY;
		for (size_t s = 0; !r && s < e->nslots; s++)
			e->ro_tag[s] = -1;
		free(sp);
		return r;
	}
	int64_t total = (int64_t)e->slot_starts[n];
	wholememory_tensor_description_t dd =
		wm_desc2(total, e->stride, e->stride, e->dt);
	wholememory_tensor_description_t td = wm_desc1(total,
						       WHOLEMEMORY_DT_INT64);
	r = wholememory_create_tensor(&e->c_data, &dd, e->comm, p->type,
				      p->loc, sp);
	if (!r)
		r = wholememory_create_tensor(&e->c_tag, &td, e->comm,
					      p->type, p->loc, sp);
	free(sp);
	if (r)
		return r;
	int64_t *tag = (int64_t *)local_of(e->c_tag);
	for (size_t s = 0; tag && s < e->nslots; s++)
		tag[s] = -1;
	return wm_result(wm_barrier(e->comm));
}

WM_API wholememory_error_code_t
wholememory_create_embedding(
	wholememory_embedding_t *wholememory_embedding,
	wholememory_tensor_description_t *desc, wholememory_comm_t comm,
	wholememory_memory_type_t memory_type,
	wholememory_memory_location_t memory_location,
	wholememory_embedding_cache_policy_t cache_policy,
	size_t *embedding_entry_partition, int user_defined_sms,
	int round_robin_size)
{
	(void)user_defined_sms;
	static const char call[] = "wholememory_create_embedding";
	if (!wholememory_embedding || !desc || !wm_comm_live(comm))
		return WHOLEMEMORY_INVALID_INPUT;
	*wholememory_embedding = NULL;
	if (desc->dim != 2 || desc->sizes[0] < 0 || desc->sizes[1] <= 0 ||
	    wholememory_dtype_get_element_size(desc->dtype) == 0 ||
	    wholememory_dtype_get_element_size(desc->dtype) > 8) {
		u_err(WM_TOPIC, "%s: a matrix description (2 dims, columns, a "
		      "dtype) is needed", call);
		return WHOLEMEMORY_INVALID_INPUT;
	}
	if (round_robin_size < 0) {
		u_err(WM_TOPIC, "%s: round_robin_size %d: a block of rows "
		      "(> 0) or 0 is needed", call, round_robin_size);
		return WHOLEMEMORY_INVALID_INPUT;
	}
	if (round_robin_size && embedding_entry_partition) {
		/* as WholeGraph: the partition wins */
		u_warn(WM_TOPIC, "%s: round_robin_size %d ignored: an entry "
		       "partition is given", call, round_robin_size);
		round_robin_size = 0;
	}
	if (cache_policy && !wm_obj_live(cache_policy, WM_POLICY_MAGIC))
		return WHOLEMEMORY_INVALID_INPUT;
	if (cache_policy &&
	    cache_policy->access == WHOLEMEMORY_AT_READWRITE &&
	    cache_policy->comm != comm) {
		u_err(WM_TOPIC, "%s: a learnable cache's communicator must be "
		      "the embedding's", call);
		return WHOLEMEMORY_INVALID_INPUT;
	}
	struct wholememory_embedding_ *e = calloc(1, sizeof(*e));
	if (!e)
		return WHOLEMEMORY_OUT_OF_MEMORY;
	e->comm = comm;
	e->type = memory_type;
	e->loc = memory_location;
	e->dt = desc->dtype;
	e->es = wholememory_dtype_get_element_size(desc->dtype);
	e->rows = e->urows = desc->sizes[0];
	e->rr = round_robin_size;
	e->dim = desc->sizes[1];
	int64_t per = (int64_t)(16 / e->es);
	e->stride = (e->dim + per - 1) / per * per;
	e->access = WHOLEMEMORY_AT_NONE;
	int n = comm->size;
	e->starts = calloc((size_t)n + 1, sizeof(size_t));
	e->parts = calloc((size_t)n, sizeof(size_t));
	if (!e->starts || !e->parts) {
		emb_free(e);
		return WHOLEMEMORY_OUT_OF_MEMORY;
	}
	if (e->rr) {
		/* K rows on every rank (rank 0's share of the blocks) */
		int64_t blk = e->rr * n, rem = e->urows % blk;
		int64_t k = e->urows / blk * e->rr + (rem < e->rr ? rem
								  : e->rr);
		if (k > INT64_MAX / n) {
			u_err(WM_TOPIC, "%s: %lld rows of %d ranks are too "
			      "many", call, (long long)k, n);
			emb_free(e);
			return WHOLEMEMORY_INVALID_INPUT;
		}
		e->rows = k * n;
		for (int q = 0; q < n; q++)
			e->parts[q] = (size_t)k;
		embedding_entry_partition = e->parts;
	}
	wholememory_tensor_description_t d =
		wm_desc2(e->rows, e->stride, e->stride, e->dt);
	wholememory_error_code_t r = wholememory_create_tensor(
		&e->raw, &d, comm, memory_type, memory_location,
		embedding_entry_partition);
	if (r) {
		emb_free(e);
		return r;
	}
	r = cols_of(e->raw, e->dim, &e->view);
	if (!r)
		r = wholememory_tensor_get_entry_offsets(e->starts, e->raw);
	if (!r)
		r = wholememory_tensor_get_entry_partition_sizes(e->parts,
								 e->raw);
	if ((r = agree(e->comm, r)))
		goto fail;
	if (cache_policy)
		r = cache_create(e, cache_policy, cache_policy->ratio);
	/* a rank short of memory fails every rank's call (the tensors
	 * are freed collectively) */
	if ((r = agree(e->comm, r)))
		goto fail;
	e->magic = WM_EMB_MAGIC;
	if (wm_obj_register(e, true)) {
		e->magic = 0;
		r = WHOLEMEMORY_OUT_OF_MEMORY;
		goto fail;
	}
	*wholememory_embedding = e;
	return WHOLEMEMORY_SUCCESS;
fail:
	/* the tensors were made on every rank: free them on every rank */
	emb_free(e);
	return r;
}

static struct wholememory_embedding_ *
emb_live(wholememory_embedding_t e, const char *call)
{
	if (wm_obj_live(e, WM_EMB_MAGIC))
		return e;
	u_err(WM_TOPIC, "%s: no live embedding", call);
	return NULL;
}

WM_API wholememory_error_code_t
wholememory_destroy_embedding(wholememory_embedding_t e)
{
	if (!emb_live(e, "wholememory_destroy_embedding"))
		return WHOLEMEMORY_INVALID_INPUT;
	emb_free(e);
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_tensor_t
wholememory_embedding_get_embedding_tensor(wholememory_embedding_t e)
{
	return wm_obj_live(e, WM_EMB_MAGIC) ? e->view : NULL;
}

/* ---- optimizer states -------------------------------------------------- */

WM_API wholememory_error_code_t
wholememory_embedding_set_optimizer(wholememory_embedding_t e,
				    wholememory_embedding_optimizer_t o)
{
	static const char call[] = "wholememory_embedding_set_optimizer";
	if (!emb_live(e, call) || !wm_obj_live(o, WM_OPT_MAGIC))
		return WHOLEMEMORY_INVALID_INPUT;
	if (e->opt_type != WHOLEMEMORY_OPT_NONE) {
		u_err(WM_TOPIC, "%s: the embedding has an optimizer", call);
		return WHOLEMEMORY_INVALID_INPUT;
	}
	if (e->dt != WHOLEMEMORY_DT_FLOAT) {
		u_err(WM_TOPIC, "%s: optimizers train FLOAT embeddings only",
		      call);
		return WHOLEMEMORY_NOT_SUPPORTED;
	}
	if (e->access == WHOLEMEMORY_AT_READONLY) {
		u_err(WM_TOPIC, "%s: a read-only cache cannot be trained",
		      call);
		return WHOLEMEMORY_NOT_SUPPORTED;
	}
	int64_t cols[WM_NSTATE] = { 0 };
	int ns = 0;
	const char *const *names = names_sgd;
	switch (o->type) {
	case WHOLEMEMORY_OPT_LAZY_ADAM:
		names = names_adam;
		ns = 3;
		cols[0] = cols[1] = e->stride;
		cols[2] = 2;
		break;
	case WHOLEMEMORY_OPT_ADAGRAD:
		names = names_adagrad;
		ns = 1;
		cols[0] = e->stride;
		break;
	case WHOLEMEMORY_OPT_RMSPROP:
		names = names_rmsprop;
		ns = 1;
		cols[0] = e->stride;
		break;
	default:
		break;
	}
	wholememory_error_code_t r = WHOLEMEMORY_SUCCESS;
	/* the tables (collective: every rank stops at the same one), then
	 * this rank's views and initial values */
	for (int i = 0; i < ns && !r; i++) {
		wholememory_tensor_description_t d = wm_desc2(
			e->rows, cols[i], cols[i], WHOLEMEMORY_DT_FLOAT);
		r = wholememory_create_tensor(&e->st_raw[i], &d, e->comm,
					      e->type, e->loc, e->parts);
	}
	for (int i = 0; i < ns && !r; i++) {
		r = cols_of(e->st_raw[i], cols[i] == 2 ? 2 : e->dim,
			    &e->st_view[i]);
		if (r)
			break;
		float *p = (float *)local_of(e->st_raw[i]);
		float v = cols[i] == 2 ? 1.0f : 0.0f;
		size_t cnt = e->parts[e->comm->rank] * (size_t)cols[i];
		for (size_t k = 0; p && k < cnt; k++)
			p[k] = v;
	}
	r = agree(e->comm, r);
	if (r) {
		for (int i = 0; i < WM_NSTATE; i++) {
			if (e->st_view[i])
				wholememory_destroy_tensor(e->st_view[i]);
			if (e->st_raw[i])
				wholememory_destroy_tensor(e->st_raw[i]);
			e->st_view[i] = e->st_raw[i] = NULL;
		}
		return r;
	}
	e->opt = o;
	e->opt_type = o->type;
	e->state_names = names;
	e->nstate = ns;
	return WHOLEMEMORY_SUCCESS;
}

WM_API const char *const *
wholememory_embedding_get_optimizer_state_names(wholememory_embedding_t e)
{
	return wm_obj_live(e, WM_EMB_MAGIC) ? e->state_names : NULL;
}

WM_API wholememory_tensor_t
wholememory_embedding_get_optimizer_state(wholememory_embedding_t e,
					  const char *name)
{
	if (!wm_obj_live(e, WM_EMB_MAGIC) || !name)
		return NULL;
	for (int i = 0; i < e->nstate; i++)
		if (!strcmp(e->state_names[i], name))
			return e->st_view[i];
	return NULL;
}

/* ---- gather ------------------------------------------------------------ */

/* The indices as int64 (malloc'ed; *n rows), each checked against the
 * embedding's rows. */
static wholememory_error_code_t
read_indices(struct wholememory_embedding_ *e, wholememory_tensor_t t,
	     const char *call, int64_t **out, size_t *n)
{
	*out = NULL;
	wholememory_tensor_description_t *d =
		wholememory_tensor_get_tensor_description(t);
	if (!d || wholememory_tensor_has_handle(t) || d->dim != 1 ||
	    d->strides[0] != 1 || d->sizes[0] < 0 ||
	    (d->dtype != WHOLEMEMORY_DT_INT &&
	     d->dtype != WHOLEMEMORY_DT_INT64)) {
		u_err(WM_TOPIC, "%s: indices must be a 1-D tensor of INT or "
		      "INT64 in plain memory", call);
		return WHOLEMEMORY_INVALID_INPUT;
	}
	*n = (size_t)d->sizes[0];
	const char *p = wholememory_tensor_get_data_pointer(t);
	if (*n && !p)
		return WHOLEMEMORY_INVALID_INPUT;
	int64_t *v = malloc(*n * sizeof(int64_t) + 1);
	if (!v)
		return WHOLEMEMORY_OUT_OF_MEMORY;
	for (size_t i = 0; i < *n; i++) {
		if (d->dtype == WHOLEMEMORY_DT_INT64) {
			memcpy(&v[i], p + 8 * i, 8);
		} else {
			int32_t x;
			memcpy(&x, p + 4 * i, 4);
			v[i] = x;
		}
		if (v[i] < 0 || v[i] >= e->urows) {
			u_err(WM_TOPIC, "%s: index %lld at %zu: the embedding "
			      "has %lld rows", call, (long long)v[i], i,
			      (long long)e->urows);
			free(v);
			return WHOLEMEMORY_INVALID_VALUE;
		}
	}
	if (e->rr) {
		/* to storage rows: block b = v / R is rank b % W's, its
		 * (b / W)-th */
		int64_t w = e->comm->size;
		for (size_t i = 0; i < *n; i++) {
			int64_t b = v[i] / e->rr;
			v[i] = (int64_t)e->starts[b % w] + b / w * e->rr +
			       v[i] % e->rr;
		}
	}
	*out = v;
	return WHOLEMEMORY_SUCCESS;
}

static int
owner_of(const struct wholememory_embedding_ *e, int64_t row)
{
	int lo = 0, hi = e->comm->size - 1;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (e->starts[mid] <= (size_t)row)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* rows[i] of table t (2-D, dt, cols columns; 1-D when cols is 0) into
 * dst (packed rows of the table's dtype). */
static wholememory_error_code_t
gather_packed(wholememory_tensor_t t, const int64_t *rows, size_t n,
	      char *dst, int64_t cols, wholememory_dtype_t dt,
	      wholememory_env_func_t *env)
{
	if (!n)
		return WHOLEMEMORY_SUCCESS;
	wholememory_tensor_t it = NULL, ot = NULL;
	wholememory_tensor_description_t id = wm_desc1((int64_t)n,
						       WHOLEMEMORY_DT_INT64);
	wholememory_tensor_description_t od =
		cols ? wm_desc2((int64_t)n, cols, cols, dt)
		     : wm_desc1((int64_t)n, dt);
	wholememory_error_code_t r = wholememory_make_tensor_from_pointer(
		&it, (void *)rows, &id);
	if (!r)
		r = wholememory_make_tensor_from_pointer(&ot, dst, &od);
	if (!r)
		r = wholememory_gather(t, it, ot, env, NULL, -1);
	if (ot)
		wholememory_destroy_tensor(ot);
	if (it)
		wholememory_destroy_tensor(it);
	return r;
}

/* The output must take n rows of dim columns of a dtype of the table's
 * family (before anything moves). */
static wholememory_error_code_t
check_output(struct wholememory_embedding_ *e, wholememory_tensor_t out,
	     size_t n, const char *call)
{
	wholememory_tensor_description_t *d =
		wholememory_tensor_get_tensor_description(out);
	if (!d || wholememory_tensor_has_handle(out) || d->dim != 2 ||
	    d->sizes[0] != (int64_t)n || d->sizes[1] != e->dim ||
	    d->strides[1] != 1 || (n > 1 && d->strides[0] < e->dim) ||
	    wholememory_dtype_is_floating_number(d->dtype) !=
		    wholememory_dtype_is_floating_number(e->dt) ||
	    wholememory_dtype_get_element_size(d->dtype) == 0 ||
	    wholememory_dtype_get_element_size(d->dtype) > 8) {
		u_err(WM_TOPIC, "%s: the output must be a 2-D tensor in plain "
		      "memory of %zu rows and %lld columns, of the "
		      "embedding's dtype family", call, n,
		      (long long)e->dim);
		return WHOLEMEMORY_INVALID_INPUT;
	}
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
wholememory_embedding_gather(wholememory_embedding_t e,
			     wholememory_tensor_t indices,
			     wholememory_tensor_t output, bool adjust_cache,
			     wholememory_env_func_t *p_env_fns,
			     int64_t stream_int)
{
	static const char call[] = "wholememory_embedding_gather";
	if (!emb_live(e, call))
		return WHOLEMEMORY_INVALID_INPUT;
	wholememory_error_code_t r =
		wm_order_after((void *)(intptr_t)stream_int, call);
	if (r)
		return r;
	if (e->access == WHOLEMEMORY_AT_NONE && !e->rr)
		return wholememory_gather(e->view, indices, output,
					  p_env_fns, NULL, -1);
	int64_t *idx = NULL;
	size_t n = 0;
	if ((r = read_indices(e, indices, call, &idx, &n)) ||
	    (r = check_output(e, output, n, call))) {
		free(idx);
		return r;
	}
	if (e->access == WHOLEMEMORY_AT_NONE) {
		/* round-robin: the storage rows */
		wholememory_tensor_t it = NULL;
		wholememory_tensor_description_t id =
			wm_desc1((int64_t)n, WHOLEMEMORY_DT_INT64);
		r = wholememory_make_tensor_from_pointer(&it, idx, &id);
		if (!r)
			r = wholememory_gather(e->view, it, output, p_env_fns,
					       NULL, -1);
		if (it)
			wholememory_destroy_tensor(it);
		free(idx);
		return r;
	}
	size_t rb = (size_t)e->dim * e->es;
	char *rows = malloc(n * rb + 1);
	int64_t *miss = malloc(n * sizeof(int64_t) + 1);
	size_t *mpos = malloc(n * sizeof(size_t) + 1);
	int64_t *hit = malloc(n * sizeof(int64_t) + 1);
	size_t *hpos = malloc(n * sizeof(size_t) + 1);
	int64_t *tags = NULL, *gs = NULL, *seq = NULL;
	char *tmp = NULL;
	size_t nm = 0, nh = 0;
	r = WHOLEMEMORY_OUT_OF_MEMORY;
	if (!rows || !miss || !mpos || !hit || !hpos)
		goto out;
	if (e->access == WHOLEMEMORY_AT_READONLY) {
		/* a rank caches rows of every owner: the slot of a row is
		 * its global row modulo the slot count */
		for (size_t i = 0; i < n; i++) {
			size_t s = e->nslots ? (size_t)idx[i] % e->nslots : 0;
			if (e->nslots && e->ro_tag[s] == idx[i]) {
				memcpy(rows + i * rb,
				       e->ro_data + s * (size_t)e->stride *
							    e->es, rb);
			} else {
				miss[nm] = idx[i];
				mpos[nm++] = i;
			}
		}
	} else {
		/* learnable: the owners' tags first */
		tags = malloc(n * sizeof(int64_t) + 1);
		gs = malloc(n * sizeof(int64_t) + 1);
		if (!tags || !gs)
			goto out;
		for (size_t i = 0; i < n; i++) {
			int o = owner_of(e, idx[i]);
			size_t l = (size_t)idx[i] - e->starts[o];
			size_t k = e->slot_starts[o + 1] - e->slot_starts[o];
			gs[i] = k ? (int64_t)(e->slot_starts[o] + l % k) : -1;
		}
		size_t ng = 0;
		for (size_t i = 0; i < n; i++)
			if (gs[i] >= 0)
				hit[ng++] = gs[i];
		if ((r = gather_packed(e->c_tag, hit, ng, (char *)tags, 0,
				       WHOLEMEMORY_DT_INT64, p_env_fns)))
			goto out;
		ng = 0;
		for (size_t i = 0; i < n; i++) {
			int o = owner_of(e, idx[i]);
			int64_t l = idx[i] - (int64_t)e->starts[o];
			int64_t t = gs[i] >= 0 ? tags[ng++] : -1;
			if (t >= 0 && (t & ~WM_MOD) == l) {
				hit[nh] = gs[i];
				hpos[nh++] = i;
			} else {
				miss[nm] = idx[i];
				mpos[nm++] = i;
			}
		}
	}
	tmp = malloc((nm > nh ? nm : nh) * rb + 1);
	if (!tmp) {
		r = WHOLEMEMORY_OUT_OF_MEMORY;
		goto out;
	}
	if (nh) {
		wholememory_tensor_t cv = NULL;
		if ((r = cols_of(e->c_data, e->dim, &cv)))
			goto out;
		r = gather_packed(cv, hit, nh, tmp, e->dim, e->dt, p_env_fns);
		wholememory_destroy_tensor(cv);
		if (r)
			goto out;
		for (size_t k = 0; k < nh; k++)
			memcpy(rows + hpos[k] * rb, tmp + k * rb, rb);
	}
	if ((r = gather_packed(e->view, miss, nm, tmp, e->dim, e->dt,
			       p_env_fns)))
		goto out;
	for (size_t k = 0; k < nm; k++) {
		memcpy(rows + mpos[k] * rb, tmp + k * rb, rb);
		if (e->access == WHOLEMEMORY_AT_READONLY && adjust_cache &&
		    e->nslots) {
			size_t s = (size_t)miss[k] % e->nslots;
			memcpy(e->ro_data + s * (size_t)e->stride * e->es,
			       tmp + k * rb, rb);
			e->ro_tag[s] = miss[k];
		}
	}
	/* into the output (its dtype, its row stride) */
	seq = malloc(n * sizeof(int64_t) + 1);
	if (!seq) {
		r = WHOLEMEMORY_OUT_OF_MEMORY;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		seq[i] = (int64_t)i;
	if (n) {
		wholememory_tensor_t pt = NULL, st = NULL;
		wholememory_tensor_description_t pd =
			wm_desc2((int64_t)n, e->dim, e->dim, e->dt);
		wholememory_tensor_description_t sd =
			wm_desc1((int64_t)n, WHOLEMEMORY_DT_INT64);
		r = wholememory_make_tensor_from_pointer(&pt, rows, &pd);
		if (!r)
			r = wholememory_make_tensor_from_pointer(&st, seq,
								 &sd);
		if (!r)
			r = wholememory_gather(pt, st, output, p_env_fns,
					       NULL, -1);
		if (st)
			wholememory_destroy_tensor(st);
		if (pt)
			wholememory_destroy_tensor(pt);
	}
out:
	free(seq);
	free(tmp);
	free(tags);
	free(gs);
	free(hpos);
	free(hit);
	free(mpos);
	free(miss);
	free(rows);
	free(idx);
	return r;
}

/* ---- gradient steps ---------------------------------------------------- */

struct rec {
	int64_t row;
	size_t seq;
	const float *g;
};

static int
rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* One row's step (embedding.h's formulas, in float, in that order). */
static void
step_row(const struct wholememory_embedding_optimizer_ *o,
	 wholememory_optimizer_type_t type, float *w, float *s0, float *s1,
	 float *b12, const float *grad, int64_t dim, float lr)
{
	float wd = o->weight_decay, eps = o->epsilon;
	float b1t = 0, b2t = 0;
	if (type == WHOLEMEMORY_OPT_LAZY_ADAM) {
		b1t = b12[0] * o->beta1;
		b2t = b12[1] * o->beta2;
	}
	for (int64_t k = 0; k < dim; k++) {
		float g = grad[k];
		float x = w[k];
		switch (type) {
		case WHOLEMEMORY_OPT_SGD:
			g = g + wd * x;
			x = x - lr * g;
			break;
		case WHOLEMEMORY_OPT_LAZY_ADAM: {
			if (o->adam_w > 0.5f)
				x = x - lr * wd * x;
			else
				g = g + wd * x;
			float m = s0[k], v = s1[k];
			m = o->beta1 * m + (1 - o->beta1) * g;
			v = o->beta2 * v + (1 - o->beta2) * g * g;
			float mhat = m / (1 - b1t);
			float vhat = v / (1 - b2t);
			x = x - lr * mhat / (sqrtf(vhat) + eps);
			s0[k] = m;
			s1[k] = v;
			break;
		}
		case WHOLEMEMORY_OPT_ADAGRAD: {
			g = g + wd * x;
			float s = s0[k];
			s = s + g * g;
			x = x - lr * g / (sqrtf(s) + eps);
			s0[k] = s;
			break;
		}
		case WHOLEMEMORY_OPT_RMSPROP: {
			g = g + wd * x;
			float v = s0[k];
			v = o->alpha * v + (1 - o->alpha) * g * g;
			x = x - lr * g / (sqrtf(v) + eps);
			s0[k] = v;
			break;
		}
		default:
			break;
		}
		w[k] = x;
	}
	if (type == WHOLEMEMORY_OPT_LAZY_ADAM) {
		b12[0] = b1t;
		b12[1] = b2t;
	}
}

/* This rank's row l (local number) to step: the table's, or its
 * learnable cache slot's (loaded, the slot's modified row written back
 * first). */
static float *
step_target(struct wholememory_embedding_ *e, char *table, char *cdata,
	    int64_t *ctag, int64_t l)
{
	size_t rb = (size_t)e->stride * e->es;
	if (!ctag || !e->nslots)
		return (float *)(table + (size_t)l * rb);
	size_t s = (size_t)l % e->nslots;
	int64_t t = ctag[s];
	char *slot = cdata + s * rb;
	if (t >= 0 && (t & ~WM_MOD) == l) {
		ctag[s] = l | WM_MOD;
		return (float *)slot;
	}
	if (t >= 0 && (t & WM_MOD))
		memcpy(table + (size_t)(t & ~WM_MOD) * rb, slot, rb);
	memcpy(slot, table + (size_t)l * rb, rb);
	ctag[s] = l | WM_MOD;
	return (float *)slot;
}

WM_API wholememory_error_code_t
wholememory_embedding_gather_gradient_apply(
	wholememory_embedding_t e, wholememory_tensor_t indices,
	wholememory_tensor_t grads, bool adjust_cache, float lr,
	wholememory_env_func_t *p_env_fns, int64_t stream_int)
{
	(void)adjust_cache;
	(void)p_env_fns;
	static const char call[] =
		"wholememory_embedding_gather_gradient_apply";
	if (!emb_live(e, call))
		return WHOLEMEMORY_INVALID_INPUT;
	struct wholememory_comm_ *c = e->comm;
	int np = c->size, me = c->rank;
	int64_t *idx = NULL;
	size_t n = 0;
	wholememory_error_code_t r =
		wm_order_after((void *)(intptr_t)stream_int, call);
	if (!r && (!e->opt || !wm_obj_live(e->opt, WM_OPT_MAGIC))) {
		u_err(WM_TOPIC, "%s: the embedding has no live optimizer",
		      call);
		r = WHOLEMEMORY_INVALID_INPUT;
	}
	if (!r)
		r = read_indices(e, indices, call, &idx, &n);
	wholememory_tensor_description_t *gd =
		wholememory_tensor_get_tensor_description(grads);
	const char *gp = grads ? wholememory_tensor_get_data_pointer(grads)
			       : NULL;
	if (!r && (!gd || wholememory_tensor_has_handle(grads) ||
		   gd->dim != 2 || gd->dtype != WHOLEMEMORY_DT_FLOAT ||
		   gd->sizes[0] != (int64_t)n || gd->sizes[1] != e->dim ||
		   gd->strides[1] != 1 || (n > 1 && gd->strides[0] < e->dim) ||
		   (n && !gp))) {
		u_err(WM_TOPIC, "%s: grads must be a 2-D FLOAT tensor in plain "
		      "memory of %zu rows and %lld columns", call, n,
		      (long long)e->dim);
		r = WHOLEMEMORY_INVALID_INPUT;
	}
	/* every rank's verdict and records per owner */
	size_t cw = (size_t)np + 1;
	int64_t *all = malloc(sizeof(int64_t) * cw * ((size_t)np + 1));
	int64_t *mine = all ? all + cw * (size_t)np : NULL;
	size_t *fill = calloc((size_t)np + 1, sizeof(size_t));
	char *recv = NULL;
	struct rec *own = NULL;
	float *sum = NULL;
	if (!all || !fill) {
		/* (as wm_barrier: a rank without these few bytes cannot
		 * take part) */
		free(all);
		free(fill);
		free(idx);
		return WHOLEMEMORY_OUT_OF_MEMORY;
	}
	memset(mine, 0, sizeof(int64_t) * cw);
	mine[0] = (int64_t)r;
	for (size_t i = 0; !r && i < n; i++)
		mine[1 + owner_of(e, idx[i])]++;
	int err = wm_allgather(c, mine, sizeof(int64_t) * cw, all);
	if (err) {
		r = wm_result(err);
		goto out;
	}
	size_t cap = 0, nin = 0;
	for (int q = 0; q < np; q++) {
		const int64_t *cq = all + cw * (size_t)q;
		if (cq[0] && !r) {
			u_err(WM_TOPIC, "%s: rank %d's call failed", call, q);
			r = (wholememory_error_code_t)cq[0];
		}
		size_t tot = 0;
		for (int d = 0; d < np; d++)
			tot += (size_t)cq[1 + d];
		cap = tot > cap ? tot : cap;
		nin += (size_t)cq[1 + me];
	}
	if (r || !cap)
		goto out;
	size_t dim = (size_t)e->dim, rec = 8 + dim * 4;
	/* the exchange table: grown on every rank alike (all know cap) */
	if (cap * rec > e->xcap) {
		size_t want = (cap * rec + 4095) / 4096 * 4096;
		if (want < 2 * e->xcap)
			want = 2 * e->xcap;
		if (e->xh)
			wholememory_free(e->xh);
		e->xh = NULL;
		e->xcap = 0;
		r = wholememory_malloc(&e->xh, want * (size_t)np, c,
				       WHOLEMEMORY_MT_DISTRIBUTED,
				       WHOLEMEMORY_ML_HOST, want, NULL);
		if (r) {
			u_err(WM_TOPIC, "%s: no exchange table of %zu bytes "
			      "per rank (ZESHMEM_SYMMETRIC_SIZE)", call, want);
			e->xh = NULL;
			goto out;
		}
		e->xcap = want;
	}
	char *part = NULL;
	size_t psz, poff;
	recv = malloc(nin * rec + 1);
	own = malloc(sizeof(*own) * nin + 1);
	sum = malloc(dim * 4 + 1);
	err = wholememory_get_local_memory((void **)&part, &psz, &poff, e->xh)
		? -EIO : 0;
	/* every rank has its buffers, or every rank returns */
	err = wm_agree(c, err ? err : recv && own && sum ? 0 : -ENOMEM);
	if (err) {
		u_err(WM_TOPIC, "%s: no memory for %zu gradient rows", call,
		      nin);
		r = wm_result(err);
		goto out;
	}
	/* this rank's records, by owner, in index order */
	const int64_t *cm = all + cw * (size_t)me + 1;
	for (int d = 0; d < np; d++)
		fill[d + 1] = fill[d] + (size_t)cm[d];
	for (size_t i = 0; i < n; i++) {
		char *p = part + fill[owner_of(e, idx[i])]++ * rec;
		memcpy(p, &idx[i], 8);
		memcpy(p + 8, gp + (size_t)gd->strides[0] * 4 * i, dim * 4);
	}
	if ((err = wm_barrier(c))) {
		r = wm_result(err);
		goto out;
	}
	/* the records of this rank's rows, rank by rank */
	bool rma = false;
	size_t at = 0;
	for (int q = 0; q < np; q++) {
		const int64_t *cq = all + cw * (size_t)q + 1;
		size_t before = 0;
		for (int d = 0; d < me; d++)
			before += (size_t)cq[d];
		size_t len = (size_t)cq[me] * rec;
		if (len)
			wm_move(e->xh, (size_t)q * e->xcap + before * rec,
				len, recv + at, false, &rma);
		at += len;
	}
	if (rma)
		shmem_quiet();
	size_t nown = 0, lo = e->starts[me], hi = e->starts[me + 1];
	for (size_t j = 0; j < nin; j++) {
		const char *p = recv + j * rec;
		int64_t row;
		memcpy(&row, p, 8);
		if ((size_t)row < lo || (size_t)row >= hi)
			continue;
		own[nown].row = row;
		own[nown].seq = nown;
		own[nown].g = (const float *)(p + 8);
		nown++;
	}
	qsort(own, nown, sizeof(*own), rec_cmp);
	char *table = local_of(e->raw);
	char *cdata = e->c_data ? local_of(e->c_data) : NULL;
	int64_t *ctag = e->c_tag ? (int64_t *)local_of(e->c_tag) : NULL;
	char *st[WM_NSTATE] = { NULL };
	for (int i = 0; i < e->nstate; i++)
		st[i] = local_of(e->st_raw[i]);
	size_t rb = (size_t)e->stride * 4;
	for (size_t k = 0; k < nown;) {
		size_t j = k + 1;
		memcpy(sum, own[k].g, dim * 4);
		for (; j < nown && own[j].row == own[k].row; j++)
			for (size_t d = 0; d < dim; d++)
				sum[d] = sum[d] + own[j].g[d];
		int64_t l = own[k].row - (int64_t)lo;
		float *w = step_target(e, table, cdata, ctag, l);
		float *s0 = NULL, *s1 = NULL, *b12 = NULL;
		if (e->opt_type == WHOLEMEMORY_OPT_LAZY_ADAM) {
			s0 = (float *)(st[0] + (size_t)l * rb);
			s1 = (float *)(st[1] + (size_t)l * rb);
			b12 = (float *)(st[2] + (size_t)l * 8);
		} else if (e->nstate) {
			s0 = (float *)(st[0] + (size_t)l * rb);
		}
		step_row(e->opt, e->opt_type, w, s0, s1, b12, sum,
			 (int64_t)dim, lr);
		k = j;
	}
	r = wm_result(wm_barrier(c));
out:
	free(sum);
	free(own);
	free(recv);
	free(fill);
	free(all);
	free(idx);
	return r;
}

/* ---- cache maintenance ------------------------------------------------- */

static wholememory_error_code_t
cache_flush(struct wholememory_embedding_ *e, bool drop, const char *call,
	    int64_t stream_int)
{
	if (!emb_live(e, call))
		return WHOLEMEMORY_INVALID_INPUT;
	wholememory_error_code_t r =
		wm_order_after((void *)(intptr_t)stream_int, call);
	int err = wm_barrier(e->comm);
	if (!r && err)
		r = wm_result(err);
	if (r)
		return r;
	if (e->access == WHOLEMEMORY_AT_READONLY && drop) {
		for (size_t s = 0; s < e->nslots; s++)
			e->ro_tag[s] = -1;
	} else if (e->access == WHOLEMEMORY_AT_READWRITE) {
		size_t rb = (size_t)e->stride * e->es;
		char *table = local_of(e->raw);
		char *cdata = local_of(e->c_data);
		int64_t *ctag = (int64_t *)local_of(e->c_tag);
		for (size_t s = 0; ctag && s < e->nslots; s++) {
			int64_t t = ctag[s];
			if (t >= 0 && (t & WM_MOD)) {
				memcpy(table + (size_t)(t & ~WM_MOD) * rb,
				       cdata + s * rb, rb);
				ctag[s] = t & ~WM_MOD;
			}
			if (drop)
				ctag[s] = -1;
		}
	}
	return wm_result(wm_barrier(e->comm));
}

WM_API wholememory_error_code_t
wholememory_embedding_writeback_cache(wholememory_embedding_t e,
				      int64_t stream_int)
{
	return cache_flush(e, false, "wholememory_embedding_writeback_cache",
			   stream_int);
}

WM_API wholememory_error_code_t
wholememory_embedding_drop_all_cache(wholememory_embedding_t e,
				     int64_t stream_int)
{
	return cache_flush(e, true, "wholememory_embedding_drop_all_cache",
			   stream_int);
}
