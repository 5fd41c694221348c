// SPDX-License-Identifier: MIT
/*
 * wm_graph.c: WholeGraph's CSR sampling (api/wholememory/wholegraph_op.h)
 * and graph helpers (graph_op.h) on the host. The graph's tensors are
 * read through wholememory_gather (any memory type); the random streams
 * are the ones wholegraph_op.h documents.
 */
#include "wm.h"

#include <wholememory/graph_op.h>
#include <wholememory/wholegraph_op.h>
#include <wholememory/wholememory_op.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- random streams ---------------------------------------------------- */

static uint64_t
mix(uint64_t z)
{
	z ^= z >> 30;
	z *= 0xbf58476d1ce4e5b9ull;
	z ^= z >> 27;
	z *= 0x94d049bb133111ebull;
	z ^= z >> 31;
	return z;
}

static uint64_t
stream_of(uint64_t seed, uint64_t sub)
{
	return mix(seed + mix(sub + 1));
}

static uint64_t
next(uint64_t *s)
{
	*s += 0x9e3779b97f4a7c15ull;
	return mix(*s);
}

static float
neg_exp(uint64_t *s)
{
	float u = ((float)(next(s) >> 40) + 0.5f) * 0x1p-24f;
	return logf(u);
}

/* A 1-D tensor over plain memory of one of the dtypes (0 for any). */
static char *
plain_vec(wholememory_tensor_t t, wholememory_dtype_t a,
	  wholememory_dtype_t b, int64_t *n, const char *call,
	  const char *what)
{
	wholememory_tensor_description_t *d =
		wholememory_tensor_get_tensor_description(t);
	if (!d || wholememory_tensor_has_handle(t) || d->dim != 1 ||
	    d->strides[0] != 1 || d->sizes[0] < 0 ||
	    (d->dtype != a && d->dtype != b)) {
		u_err(WM_TOPIC, "%s: %s must be a 1-D tensor in plain memory "
		      "of dtype %d or %d", call, what, (int)a, (int)b);
		return NULL;
	}
	*n = d->sizes[0];
	char *p = wholememory_tensor_get_data_pointer(t);
	static char none;
	return p ? p : (*n ? NULL : &none);
}

static int64_t
get_int(const char *p, wholememory_dtype_t dt, size_t i)
{
	if (dt == WHOLEMEMORY_DT_INT64) {
		int64_t v;
		memcpy(&v, p + 8 * i, 8);
		return v;
	}
	int32_t v;
	memcpy(&v, p + 4 * i, 4);
	return v;
}

static void
put_int(char *p, wholememory_dtype_t dt, size_t i, int64_t v)
{
	if (dt == WHOLEMEMORY_DT_INT64) {
		memcpy(p + 8 * i, &v, 8);
	} else {
		int32_t x = (int32_t)v;
		memcpy(p + 4 * i, &x, 4);
	}
}

/* Elements idx[0 .. n) of the 1-D tensor t into dst as dt. */
static wholememory_error_code_t
read_at(wholememory_tensor_t t, const int64_t *idx, size_t n, void *dst,
	wholememory_dtype_t dt, wholememory_env_func_t *env)
{
	if (!n)
		return WHOLEMEMORY_SUCCESS;
	wholememory_tensor_t it = NULL, ot = NULL;
	wholememory_tensor_description_t id = wm_desc1((int64_t)n,
						  WHOLEMEMORY_DT_INT64);
	wholememory_tensor_description_t od = wm_desc1((int64_t)n, dt);
	wholememory_error_code_t r = wholememory_make_tensor_from_pointer(
		&it, (void *)idx, &id);
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

/* A 1-D tensor (handle or plain) of one of two dtypes. */
static wholememory_tensor_description_t *
vec_desc_of(wholememory_tensor_t t, wholememory_dtype_t a,
	    wholememory_dtype_t b, const char *call, const char *what)
{
	wholememory_tensor_description_t *d =
		wholememory_tensor_get_tensor_description(t);
	if (!d || d->dim != 1 || d->sizes[0] < 0 ||
	    (d->dtype != a && d->dtype != b)) {
		u_err(WM_TOPIC, "%s: %s must be a 1-D tensor of dtype %d or "
		      "%d", call, what, (int)a, (int)b);
		return NULL;
	}
	return d;
}

static void *
out_alloc(wholememory_env_func_t *env, void *ctx, int64_t n,
	  wholememory_dtype_t dt)
{
	wholememory_tensor_description_t d = wm_desc1(n, dt);
	return env->output_fns.malloc_fn(&d, WHOLEMEMORY_MA_HOST, ctx,
					 env->output_fns.global_context);
}

struct pick {
	float key;
	int64_t e;
};

static int
pick_cmp(const void *a, const void *b)
{
	const struct pick *x = a, *y = b;
	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	return x->e < y->e ? -1 : x->e > y->e;
}

static int
i64_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static wholememory_error_code_t
sample(wholememory_tensor_t rowt, wholememory_tensor_t colt,
       wholememory_tensor_t wt, wholememory_tensor_t centt, int k,
       wholememory_tensor_t offt, void *dest_ctx, void *cid_ctx,
       void *gid_ctx, unsigned long long seed, wholememory_env_func_t *env,
       void *stream, const char *call)
{
	if (!env)
		env = wholememoryx_get_default_env_func();
	wholememory_error_code_t r = wm_order_after(stream, call);
	if (r)
		return r;
	wholememory_tensor_description_t *rd, *cd;
	int64_t nc = 0, no = 0;
	char *cp, *op;
	if (!(rd = vec_desc_of(rowt, WHOLEMEMORY_DT_INT64, WHOLEMEMORY_DT_INT,
			       call, "the row pointer")) ||
	    !(cd = vec_desc_of(colt, WHOLEMEMORY_DT_INT, WHOLEMEMORY_DT_INT64,
			       call, "the col pointer")) ||
	    (wt && !vec_desc_of(wt, WHOLEMEMORY_DT_FLOAT,
				WHOLEMEMORY_DT_DOUBLE, call, "the weights")) ||
	    !(cp = plain_vec(centt, WHOLEMEMORY_DT_INT, WHOLEMEMORY_DT_INT64,
			     &nc, call, "the center nodes")) ||
	    !(op = plain_vec(offt, WHOLEMEMORY_DT_INT, WHOLEMEMORY_DT_INT,
			     &no, call, "the sample offsets")))
		return WHOLEMEMORY_INVALID_INPUT;
	if (no != nc + 1 || !dest_ctx || !cid_ctx || rd->sizes[0] < 1 ||
	    (wt && wholememory_tensor_get_tensor_description(wt)->sizes[0] !=
			   cd->sizes[0]) ||
	    !env->output_fns.malloc_fn) {
		u_err(WM_TOPIC, "%s: %lld offsets for %lld centers (one more "
		      "is needed), the output contexts, an output allocator "
		      "and one weight per edge are needed", call,
		      (long long)no, (long long)nc);
		return WHOLEMEMORY_INVALID_INPUT;
	}
	if (k <= 0) {
		u_err(WM_TOPIC, "%s: max_sample_count %d", call, k);
		return WHOLEMEMORY_INVALID_VALUE;
	}
	wholememory_dtype_t ct = wholememory_tensor_get_tensor_description(
		centt)->dtype;
	wholememory_dtype_t colt_dt = cd->dtype;
	int64_t rows = rd->sizes[0] - 1, ne = cd->sizes[0];
	size_t n = (size_t)nc;
	int64_t *ri = malloc(2 * n * sizeof(int64_t) + 1);
	int64_t *rv = malloc(2 * n * sizeof(int64_t) + 1);
	int64_t *edges = NULL, *tmp = NULL;
	float *wv = NULL;
	struct pick *pk = NULL;
	char *dest = NULL;
	int32_t *cid = NULL;
	int64_t *gid = NULL;
	r = WHOLEMEMORY_OUT_OF_MEMORY;
	if (!ri || !rv)
		goto out;
	for (size_t i = 0; i < n; i++) {
		int64_t c = get_int(cp, ct, i);
		if (c < 0 || c >= rows) {
			u_err(WM_TOPIC, "%s: center %lld at %zu: the graph has "
			      "%lld rows", call, (long long)c, i,
			      (long long)rows);
			r = WHOLEMEMORY_INVALID_VALUE;
			goto out;
		}
		ri[2 * i] = c;
		ri[2 * i + 1] = c + 1;
	}
	if ((r = read_at(rowt, ri, 2 * n, rv, WHOLEMEMORY_DT_INT64, env)))
		goto out;
	/* offsets, and the widest row to sample */
	int64_t total = 0, maxd = 0, wsum = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t a = rv[2 * i], b = rv[2 * i + 1];
		if (a < 0 || b < a || b > ne) {
			u_err(WM_TOPIC, "%s: row %lld spans edges [%lld, %lld) "
			      "of %lld", call, (long long)ri[2 * i],
			      (long long)a, (long long)b, (long long)ne);
			r = WHOLEMEMORY_INVALID_VALUE;
			goto out;
		}
		int64_t d = b - a;
		total += d < k ? d : k;
		if (d > k) {
			maxd = d > maxd ? d : maxd;
			wsum += d;
		}
		if (total > INT32_MAX) {
			u_err(WM_TOPIC, "%s: more than 2^31 samples", call);
			r = WHOLEMEMORY_INVALID_VALUE;
			goto out;
		}
	}
	/* the weights of the rows to sample, checked before anything is
	 * allocated for the caller */
	if (wt && wsum) {
		int64_t *wi = malloc((size_t)wsum * sizeof(int64_t));
		wv = malloc((size_t)wsum * sizeof(float));
		if (!wi || !wv) {
			free(wi);
			r = WHOLEMEMORY_OUT_OF_MEMORY;
			goto out;
		}
		size_t q = 0;
		for (size_t i = 0; i < n; i++)
			if (rv[2 * i + 1] - rv[2 * i] > k)
				for (int64_t e = rv[2 * i]; e < rv[2 * i + 1];
				     e++)
					wi[q++] = e;
		r = read_at(wt, wi, q, wv, WHOLEMEMORY_DT_FLOAT, env);
		free(wi);
		if (r)
			goto out;
		for (size_t j = 0; j < q; j++)
			if (!(wv[j] >= 0)) {
				u_err(WM_TOPIC, "%s: weight %g of a sampled "
				      "row", call, (double)wv[j]);
				r = WHOLEMEMORY_INVALID_VALUE;
				goto out;
			}
	}
	edges = malloc((size_t)total * sizeof(int64_t) + 1);
	tmp = malloc((size_t)maxd * sizeof(int64_t) + 1);
	pk = wt ? malloc((size_t)maxd * sizeof(*pk) + 1) : NULL;
	if (!edges || !tmp || (wt && !pk)) {
		r = WHOLEMEMORY_OUT_OF_MEMORY;
		goto out;
	}
	size_t q = 0, wq = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t a = rv[2 * i], d = rv[2 * i + 1] - a;
		put_int(op, WHOLEMEMORY_DT_INT, i, (int64_t)q);
		if (d <= k) {
			for (int64_t e = 0; e < d; e++)
				edges[q++] = a + e;
			continue;
		}
		uint64_t s = stream_of(seed, i);
		if (!wt) {
			for (int64_t e = 0; e < d; e++)
				tmp[e] = e;
			for (int64_t j = 0; j < k; j++) {
				int64_t t = j + (int64_t)((next(&s) >> 1) %
							  (uint64_t)(d - j));
				int64_t x = tmp[j];
				tmp[j] = tmp[t];
				tmp[t] = x;
			}
			qsort(tmp, (size_t)k, sizeof(*tmp), i64_cmp);
			for (int64_t j = 0; j < k; j++)
				edges[q++] = a + tmp[j];
		} else {
			for (int64_t e = 0; e < d; e++) {
				pk[e].key = neg_exp(&s) / wv[wq + e];
				pk[e].e = e;
			}
			wq += (size_t)d;
			qsort(pk, (size_t)d, sizeof(*pk), pick_cmp);
			for (int64_t j = 0; j < k; j++)
				tmp[j] = pk[j].e;
			qsort(tmp, (size_t)k, sizeof(*tmp), i64_cmp);
			for (int64_t j = 0; j < k; j++)
				edges[q++] = a + tmp[j];
		}
	}
	put_int(op, WHOLEMEMORY_DT_INT, n, (int64_t)q);
	/* the outputs */
	dest = out_alloc(env, dest_ctx, total, colt_dt);
	cid = out_alloc(env, cid_ctx, total, WHOLEMEMORY_DT_INT);
	gid = gid_ctx ? out_alloc(env, gid_ctx, total, WHOLEMEMORY_DT_INT64)
		      : NULL;
	if (total && (!dest || !cid || (gid_ctx && !gid))) {
		u_err(WM_TOPIC, "%s: the output allocator gave no memory for "
		      "%lld samples", call, (long long)total);
		r = WHOLEMEMORY_OUT_OF_MEMORY;
		goto out;
	}
	if ((r = read_at(colt, edges, q, dest, colt_dt, env)))
		goto out;
	for (size_t i = 0; i < n; i++)
		for (int64_t j = get_int(op, WHOLEMEMORY_DT_INT, i);
		     j < get_int(op, WHOLEMEMORY_DT_INT, i + 1); j++)
			cid[j] = (int32_t)i;
	if (gid)
		memcpy(gid, edges, q * sizeof(int64_t));
	r = WHOLEMEMORY_SUCCESS;
out:
	free(pk);
	free(tmp);
	free(edges);
	free(wv);
	free(rv);
	free(ri);
	return r;
}

WM_API wholememory_error_code_t
wholegraph_csr_unweighted_sample_without_replacement(
	wholememory_tensor_t wm_csr_row_ptr_tensor,
	wholememory_tensor_t wm_csr_col_ptr_tensor,
	wholememory_tensor_t center_nodes_tensor, int max_sample_count,
	wholememory_tensor_t output_sample_offset_tensor,
	void *output_dest_memory_context,
	void *output_center_localid_memory_context,
	void *output_edge_gid_memory_context, unsigned long long random_seed,
	wholememory_env_func_t *p_env_fns, void *stream)
{
	return sample(wm_csr_row_ptr_tensor, wm_csr_col_ptr_tensor, NULL,
		      center_nodes_tensor, max_sample_count,
		      output_sample_offset_tensor, output_dest_memory_context,
		      output_center_localid_memory_context,
		      output_edge_gid_memory_context, random_seed, p_env_fns,
		      stream,
		      "wholegraph_csr_unweighted_sample_without_replacement");
}

WM_API wholememory_error_code_t
wholegraph_csr_weighted_sample_without_replacement(
	wholememory_tensor_t wm_csr_row_ptr_tensor,
	wholememory_tensor_t wm_csr_col_ptr_tensor,
	wholememory_tensor_t wm_csr_weight_ptr_tensor,
	wholememory_tensor_t center_nodes_tensor, int max_sample_count,
	wholememory_tensor_t output_sample_offset_tensor,
	void *output_dest_memory_context,
	void *output_center_localid_memory_context,
	void *output_edge_gid_memory_context, unsigned long long random_seed,
	wholememory_env_func_t *p_env_fns, void *stream)
{
	if (!wm_csr_weight_ptr_tensor)
		return WHOLEMEMORY_INVALID_INPUT;
	return sample(wm_csr_row_ptr_tensor, wm_csr_col_ptr_tensor,
		      wm_csr_weight_ptr_tensor, center_nodes_tensor,
		      max_sample_count, output_sample_offset_tensor,
		      output_dest_memory_context,
		      output_center_localid_memory_context,
		      output_edge_gid_memory_context, random_seed, p_env_fns,
		      stream,
		      "wholegraph_csr_weighted_sample_without_replacement");
}

WM_API wholememory_error_code_t
generate_random_positive_int_cpu(int64_t random_seed, int64_t subsequence,
				 wholememory_tensor_t output)
{
	int64_t n = 0;
	char *p = plain_vec(output, WHOLEMEMORY_DT_INT, WHOLEMEMORY_DT_INT64,
			    &n, "generate_random_positive_int_cpu",
			    "the output");
	if (!p)
		return WHOLEMEMORY_INVALID_INPUT;
	wholememory_dtype_t dt =
		wholememory_tensor_get_tensor_description(output)->dtype;
	uint64_t s = stream_of((uint64_t)random_seed, (uint64_t)subsequence);
	for (int64_t i = 0; i < n; i++) {
		uint64_t v = next(&s);
		put_int(p, dt, (size_t)i,
			(int64_t)(dt == WHOLEMEMORY_DT_INT64 ? v >> 1
							     : v >> 33));
	}
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
generate_exponential_distribution_negative_float_cpu(
	int64_t random_seed, int64_t subsequence, wholememory_tensor_t output)
{
	int64_t n = 0;
	char *p = plain_vec(output, WHOLEMEMORY_DT_FLOAT, WHOLEMEMORY_DT_FLOAT,
			    &n, "generate_exponential_distribution_negative_"
				"float_cpu", "the output");
	if (!p)
		return WHOLEMEMORY_INVALID_INPUT;
	uint64_t s = stream_of((uint64_t)random_seed, (uint64_t)subsequence);
	for (int64_t i = 0; i < n; i++) {
		float v = neg_exp(&s);
		memcpy(p + 4 * i, &v, 4);
	}
	return WHOLEMEMORY_SUCCESS;
}

/* ---- graph_op.h -------------------------------------------------------- */

struct slot {
	int64_t key;
	int32_t pos;                      /* -1: empty */
};

/* Position of key, inserting pos when absent (*fresh set). */
static int32_t
hmap_get(struct slot *t, size_t mask, int64_t key, int32_t pos, bool *fresh)
{
	size_t h = (size_t)mix((uint64_t)key) & mask;
	for (;; h = (h + 1) & mask) {
		if (t[h].pos < 0) {
			t[h].key = key;
			t[h].pos = pos;
			*fresh = true;
			return pos;
		}
		if (t[h].key == key) {
			*fresh = false;
			return t[h].pos;
		}
	}
}

WM_API wholememory_error_code_t
graph_append_unique(wholememory_tensor_t target_nodes_tensor,
		    wholememory_tensor_t neighbor_nodes_tensor,
		    void *output_unique_node_memory_context,
		    wholememory_tensor_t map_t,
		    wholememory_env_func_t *p_env_fns, void *stream)
{
	static const char call[] = "graph_append_unique";
	wholememory_env_func_t *env =
		p_env_fns ? p_env_fns : wholememoryx_get_default_env_func();
	wholememory_error_code_t r = wm_order_after(stream, call);
	if (r)
		return r;
	int64_t nt = 0, nn = 0, nm = 0;
	char *tp, *np, *mp = NULL;
	if (!(tp = plain_vec(target_nodes_tensor, WHOLEMEMORY_DT_INT,
			     WHOLEMEMORY_DT_INT64, &nt, call, "the targets")) ||
	    !(np = plain_vec(neighbor_nodes_tensor, WHOLEMEMORY_DT_INT,
			     WHOLEMEMORY_DT_INT64, &nn, call,
			     "the neighbours")) ||
	    (map_t && !(mp = plain_vec(map_t, WHOLEMEMORY_DT_INT,
				       WHOLEMEMORY_DT_INT, &nm, call,
				       "the mapping"))))
		return WHOLEMEMORY_INVALID_INPUT;
	wholememory_dtype_t dt = wholememory_tensor_get_tensor_description(
		target_nodes_tensor)->dtype;
	if (wholememory_tensor_get_tensor_description(neighbor_nodes_tensor)
			    ->dtype != dt ||
	    (map_t && nm != nn) || !output_unique_node_memory_context ||
	    !env->output_fns.malloc_fn || nt + nn > INT32_MAX) {
		u_err(WM_TOPIC, "%s: targets and neighbours of one dtype, a "
		      "mapping of one entry per neighbour, an output context "
		      "and allocator are needed", call);
		return WHOLEMEMORY_INVALID_INPUT;
	}
	size_t cap = 16;
	while (cap < 2 * (size_t)(nt + nn))
		cap *= 2;
	struct slot *t = malloc(cap * sizeof(*t));
	int64_t *uniq = malloc((size_t)(nt + nn) * sizeof(int64_t) + 1);
	if (!t || !uniq) {
		free(t);
		free(uniq);
		return WHOLEMEMORY_OUT_OF_MEMORY;
	}
	for (size_t i = 0; i < cap; i++)
		t[i].pos = -1;
	int32_t nu = 0;
	bool fresh;
	for (int64_t i = 0; i < nt; i++) {
		int64_t v = get_int(tp, dt, (size_t)i);
		hmap_get(t, cap - 1, v, nu, &fresh);
		uniq[nu++] = v;
	}
	for (int64_t i = 0; i < nn; i++) {
		int64_t v = get_int(np, dt, (size_t)i);
		int32_t pos = hmap_get(t, cap - 1, v, nu, &fresh);
		if (fresh)
			uniq[nu++] = v;
		if (mp)
			put_int(mp, WHOLEMEMORY_DT_INT, (size_t)i, pos);
	}
	char *out = out_alloc(env, output_unique_node_memory_context, nu, dt);
	if (nu && !out) {
		u_err(WM_TOPIC, "%s: the output allocator gave no memory for "
		      "%d nodes", call, (int)nu);
		r = WHOLEMEMORY_OUT_OF_MEMORY;
	}
	for (int32_t i = 0; !r && i < nu; i++)
		put_int(out, dt, (size_t)i, uniq[i]);
	free(t);
	free(uniq);
	return r;
}

WM_API wholememory_error_code_t
csr_add_self_loop(wholememory_tensor_t csr_row_ptr_tensor,
		  wholememory_tensor_t csr_col_ptr_tensor,
		  wholememory_tensor_t output_csr_row_ptr_tensor,
		  wholememory_tensor_t output_csr_col_ptr_tensor, void *stream)
{
	static const char call[] = "csr_add_self_loop";
	wholememory_error_code_t r = wm_order_after(stream, call);
	if (r)
		return r;
	int64_t nr = 0, ne = 0, onr = 0, one = 0;
	char *rp, *cp, *orp, *ocp;
	if (!(rp = plain_vec(csr_row_ptr_tensor, WHOLEMEMORY_DT_INT,
			     WHOLEMEMORY_DT_INT64, &nr, call, "row_ptr")) ||
	    !(cp = plain_vec(csr_col_ptr_tensor, WHOLEMEMORY_DT_INT,
			     WHOLEMEMORY_DT_INT64, &ne, call, "col_ptr")) ||
	    !(orp = plain_vec(output_csr_row_ptr_tensor, WHOLEMEMORY_DT_INT,
			      WHOLEMEMORY_DT_INT64, &onr, call,
			      "the output row_ptr")) ||
	    !(ocp = plain_vec(output_csr_col_ptr_tensor, WHOLEMEMORY_DT_INT,
			      WHOLEMEMORY_DT_INT64, &one, call,
			      "the output col_ptr")))
		return WHOLEMEMORY_INVALID_INPUT;
	wholememory_dtype_t rt = wholememory_tensor_get_tensor_description(
		csr_row_ptr_tensor)->dtype;
	wholememory_dtype_t ct = wholememory_tensor_get_tensor_description(
		csr_col_ptr_tensor)->dtype;
	int64_t rows = nr - 1;
	if (nr < 1 || onr != nr || one != ne + rows ||
	    wholememory_tensor_get_tensor_description(
		    output_csr_row_ptr_tensor)->dtype != rt ||
	    wholememory_tensor_get_tensor_description(
		    output_csr_col_ptr_tensor)->dtype != ct ||
	    (ct == WHOLEMEMORY_DT_INT && rows - 1 > INT32_MAX) ||
	    (rt == WHOLEMEMORY_DT_INT && ne + rows > INT32_MAX)) {
		u_err(WM_TOPIC, "%s: outputs of the inputs' dtypes, of rows + "
		      "1 and edges + rows entries, are needed", call);
		return WHOLEMEMORY_INVALID_INPUT;
	}
	/* the row pointer first: nothing written for a bad one */
	for (int64_t i = 0; i < rows; i++) {
		int64_t a = get_int(rp, rt, (size_t)i);
		int64_t b = get_int(rp, rt, (size_t)i + 1);
		if (a < 0 || b < a || b > ne || (i == 0 && a != 0) ||
		    (i == rows - 1 && b != ne)) {
			u_err(WM_TOPIC, "%s: row %lld spans [%lld, %lld) of "
			      "%lld edges", call, (long long)i, (long long)a,
			      (long long)b, (long long)ne);
			return WHOLEMEMORY_INVALID_VALUE;
		}
	}
	for (int64_t i = 0; i < rows; i++) {
		int64_t a = get_int(rp, rt, (size_t)i);
		int64_t b = get_int(rp, rt, (size_t)i + 1);
		int64_t o = a + i;
		put_int(orp, rt, (size_t)i, o);
		put_int(ocp, ct, (size_t)o, i);
		for (int64_t e = a; e < b; e++)
			put_int(ocp, ct, (size_t)(o + 1 + e - a),
				get_int(cp, ct, (size_t)e));
	}
	put_int(orp, rt, (size_t)rows, ne + rows);
	return WHOLEMEMORY_SUCCESS;
}
