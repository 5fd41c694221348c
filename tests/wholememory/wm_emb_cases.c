// SPDX-License-Identifier: MIT
/*
 * wm_emb_cases: the cases of a wm_pe job for WholeMemory embeddings
 * (issue 29, point 4): gathers on every memory type and location, each
 * optimizer over several steps against a single-process reference
 * written here, learnable and read-only caches against the same
 * embedding without a cache, the parameters, states and errors.
 *
 * The reference steps every row with embedding.h's formulas, in float,
 * operation by operation in the library's order, from every rank's
 * (index, gradient) lists (each rank regenerates all of them from the
 * same seeds), summing a row's gradients in rank order, then index
 * order. The build is C11 (no floating-point contraction, SSE2 float
 * arithmetic on x86-64), so library and reference round alike and the
 * comparison is bitwise.
 */
#include "wm_pe.h"

#include <wholememory/embedding.h>
#include <wholememory/wholememory_op.h>

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t
erand(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

/* The initial value of element c of row r (exact in float). */
static float
ev(int64_t r, int64_t c)
{
	return (float)((r * 37 + c * 11) % 257) * 0.125f - 16.0f;
}

/* rows x cols, rows packed */
static wholememory_tensor_description_t
md(int64_t rows, int64_t cols, wholememory_dtype_t dt)
{
	return desc2(rows, cols, cols, dt);
}

static wholememory_tensor_t
ptensor(void *p, wholememory_tensor_description_t d)
{
	wholememory_tensor_t t = NULL;
	OK(wholememory_make_tensor_from_pointer(&t, p, &d));
	return t;
}

static int64_t rr_row(int64_t s, int64_t r, int64_t k);

/* Every rank writes its own storage rows of T with ev(): row g of the
 * embedding, in storage row i, is i (r 0) or rr_row(i, r, k) of
 * round-robin blocks of r (rows past the embedding's: -1000). */
static void
fill_rows(wholememory_tensor_t T, int64_t rows, int64_t dim, int64_t r,
	  int64_t k)
{
	size_t start = 0, cnt = 0;
	OK(wholememory_tensor_get_local_entry_start(&start, T));
	OK(wholememory_tensor_get_local_entry_count(&cnt, T));
	int64_t *ix = malloc(sizeof(int64_t) * (cnt + 1));
	float *v = malloc(sizeof(float) * (cnt * (size_t)dim + 1));
	for (size_t i = 0; i < cnt; i++) {
		ix[i] = (int64_t)(start + i);
		int64_t g = r ? rr_row(ix[i], r, k) : ix[i];
		for (int64_t c = 0; c < dim; c++)
			v[i * (size_t)dim + (size_t)c] =
				g < rows ? ev(g, c) : -1000.0f;
	}
	wholememory_tensor_t I = ptensor(ix, desc1((int64_t)cnt,
						WHOLEMEMORY_DT_INT64));
	wholememory_tensor_t V = ptensor(v, md((int64_t)cnt, dim,
					       WHOLEMEMORY_DT_FLOAT));
	OK(wholememory_scatter(V, I, T, NULL, NULL, -1));
	OK(wholememory_destroy_tensor(I));
	OK(wholememory_destroy_tensor(V));
	free(ix);
	free(v);
	OK(wholememory_communicator_barrier(world));
}

/* Every rank writes its own rows of the embedding with ev(). */
static void
fill(wholememory_embedding_t e, int64_t rows, int64_t dim)
{
	wholememory_tensor_t T = wholememory_embedding_get_embedding_tensor(e);
	ck_assert_ptr_nonnull(T);
	fill_rows(T, rows, dim, 0, 0);
}

/* Every row of e through embedding_gather (float), into out. */
static void
gather_all(wholememory_embedding_t e, int64_t rows, int64_t dim, float *out)
{
	int64_t *ix = malloc(sizeof(int64_t) * (size_t)rows);
	for (int64_t i = 0; i < rows; i++)
		ix[i] = rows - 1 - i;
	wholememory_tensor_t I = ptensor(ix, desc1(rows, WHOLEMEMORY_DT_INT64));
	float *rev = malloc(sizeof(float) * (size_t)(rows * dim));
	wholememory_tensor_t O = ptensor(rev, desc2(rows, dim, dim,
						 WHOLEMEMORY_DT_FLOAT));
	OK(wholememory_embedding_gather(e, I, O, true, NULL, 0));
	for (int64_t i = 0; i < rows; i++)
		memcpy(out + (rows - 1 - i) * dim, rev + i * dim,
		       sizeof(float) * (size_t)dim);
	OK(wholememory_destroy_tensor(I));
	OK(wholememory_destroy_tensor(O));
	free(ix);
	free(rev);
}

/* gather_all, and every row g is ev(g) */
static void
gather_is_ev(wholememory_embedding_t e, int64_t rows, int64_t dim, float *a)
{
	gather_all(e, rows, dim, a);
	ALL(rows * dim, a[i] == ev((int64_t)i / dim, (int64_t)i % dim));
}

/* Every row of a (rows, cols) FLOAT tensor with a handle. */
static void
gather_tensor(wholememory_tensor_t T, int64_t rows, int64_t cols, float *out)
{
	int64_t *ix = malloc(sizeof(int64_t) * (size_t)rows);
	for (int64_t i = 0; i < rows; i++)
		ix[i] = i;
	wholememory_tensor_t I = ptensor(ix, desc1(rows, WHOLEMEMORY_DT_INT64));
	wholememory_tensor_t O = ptensor(out, desc2(rows, cols, cols,
						 WHOLEMEMORY_DT_FLOAT));
	OK(wholememory_gather(T, I, O, NULL, NULL, -1));
	OK(wholememory_destroy_tensor(I));
	OK(wholememory_destroy_tensor(O));
	free(ix);
}

START_TEST(test_emb_gather)
{
	int64_t rows = 29 * np + 3, dim = 7;
	for (int t = 0; t < 4; t++)
		for (int l = 0; l < 2; l++) {
			wholememory_embedding_t e = NULL;
			wholememory_tensor_description_t d =
				desc2(rows, dim, dim, WHOLEMEMORY_DT_FLOAT);
			d.strides[0] = 1000; /* ignored */
			OK(wholememory_create_embedding(&e, &d, world,
							types[t], locs[l],
							NULL, NULL, -1, 0));
			wholememory_tensor_t T =
				wholememory_embedding_get_embedding_tensor(e);
			wholememory_tensor_description_t *td =
				wholememory_tensor_get_tensor_description(T);
			EQ(td->dim, 2);
			EQ(td->sizes[0], rows);
			EQ(td->sizes[1], dim);
			EQ(td->strides[0], 8); /* padded to 16 bytes */
			ck_assert_ptr_null(
				wholememory_embedding_get_optimizer_state_names(
					e));
			fill(e, rows, dim);
			uint64_t s = 77 + (uint64_t)me;
			size_t n = 300;
			int64_t *i64 = malloc(8 * n);
			int32_t *i32 = malloc(4 * n);
			for (size_t i = 0; i < n; i++)
				i32[i] = (int32_t)(i64[i] = (int64_t)(
					erand(&s) % (uint64_t)rows));
			float *of = malloc(4 * n * (size_t)dim);
			double *od = malloc(8 * n * (size_t)dim);
			wholememory_tensor_t I64 = ptensor(i64,
				desc1((int64_t)n, WHOLEMEMORY_DT_INT64));
			wholememory_tensor_t I32 = ptensor(i32,
				desc1((int64_t)n, WHOLEMEMORY_DT_INT));
			wholememory_tensor_t OF = ptensor(of,
				md((int64_t)n, dim, WHOLEMEMORY_DT_FLOAT));
			wholememory_tensor_t OD = ptensor(od,
				md((int64_t)n, dim, WHOLEMEMORY_DT_DOUBLE));
			OK(wholememory_embedding_gather(e, I64, OF, false,
							NULL, 0));
			ALL(n * (size_t)dim, of[i] == ev(i64[i / (size_t)dim],
				(int64_t)(i % (size_t)dim)));
			OK(wholememory_embedding_gather(e, I32, OD, false,
							NULL, 0));
			ALL(n * (size_t)dim, od[i] == (double)ev(
				i64[i / (size_t)dim],
				(int64_t)(i % (size_t)dim)));
			/* a bad index: nothing written */
			i64[n / 2] = rows;
			of[0] = 12345.0f;
			EQ(wholememory_embedding_gather(e, I64, OF, false,
							NULL, 0),
			   WHOLEMEMORY_INVALID_VALUE);
			ck_assert(of[0] == 12345.0f);
			/* an output of the wrong shape or family */
			EQ(wholememory_embedding_gather(e, I32, I64, false,
							NULL, 0),
			   WHOLEMEMORY_INVALID_INPUT);
			OK(wholememory_destroy_tensor(I64));
			OK(wholememory_destroy_tensor(I32));
			OK(wholememory_destroy_tensor(OF));
			OK(wholememory_destroy_tensor(OD));
			free(i64);
			free(i32);
			free(of);
			free(od);
			OK(wholememory_communicator_barrier(world));
			OK(wholememory_destroy_embedding(e));
			EQ(wholememory_destroy_embedding(e),
			   WHOLEMEMORY_INVALID_INPUT);
		}
	test_done = true;
}
END_TEST

START_TEST(test_emb_errors)
{
	wholememory_embedding_optimizer_t o = NULL;
	EQ(wholememory_create_embedding_optimizer(&o, WHOLEMEMORY_OPT_NONE),
	   WHOLEMEMORY_NOT_IMPLEMENTED);
	EQ(wholememory_create_embedding_optimizer(&o,
		(wholememory_optimizer_type_t)9), WHOLEMEMORY_NOT_IMPLEMENTED);
	EQ(wholememory_create_embedding_optimizer(NULL, WHOLEMEMORY_OPT_SGD),
	   WHOLEMEMORY_INVALID_INPUT);
	OK(wholememory_create_embedding_optimizer(&o, WHOLEMEMORY_OPT_SGD));
	float v = 0.5f;
	OK(wholememory_optimizer_set_parameter(o, "weight_decay", &v));
	/* SGD has no epsilon, and the learning rate is the step's */
	EQ(wholememory_optimizer_set_parameter(o, "epsilon", &v),
	   WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_optimizer_set_parameter(o, "lr", &v),
	   WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_optimizer_set_parameter(o, NULL, &v),
	   WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_optimizer_set_parameter(NULL, "weight_decay", &v),
	   WHOLEMEMORY_INVALID_INPUT);
	wholememory_embedding_optimizer_t a = NULL;
	OK(wholememory_create_embedding_optimizer(&a,
		WHOLEMEMORY_OPT_LAZY_ADAM));
	static const char *const an[] = { "weight_decay", "epsilon", "beta1",
					  "beta2", "adam_w" };
	for (int i = 0; i < 5; i++)
		OK(wholememory_optimizer_set_parameter(a, an[i], &v));
	EQ(wholememory_optimizer_set_parameter(a, "alpha", &v),
	   WHOLEMEMORY_INVALID_INPUT);
	wholememory_destroy_embedding_optimizer(a);

	wholememory_embedding_cache_policy_t p = NULL;
	EQ(wholememory_create_embedding_cache_policy(&p, world,
		WHOLEMEMORY_MT_CHUNKED, WHOLEMEMORY_ML_DEVICE,
		WHOLEMEMORY_AT_READWRITE, 0.0f), WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_create_embedding_cache_policy(&p, world,
		WHOLEMEMORY_MT_CHUNKED, WHOLEMEMORY_ML_DEVICE,
		WHOLEMEMORY_AT_READWRITE, 1.5f), WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_create_embedding_cache_policy(&p, world,
		WHOLEMEMORY_MT_CHUNKED, WHOLEMEMORY_ML_DEVICE,
		WHOLEMEMORY_AT_NONE, 0.5f), WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_create_embedding_cache_policy(&p, NULL,
		WHOLEMEMORY_MT_CHUNKED, WHOLEMEMORY_ML_DEVICE,
		WHOLEMEMORY_AT_READONLY, 0.5f), WHOLEMEMORY_INVALID_INPUT);
	ck_assert_ptr_null(p);
	EQ(WHOLEMEMORY_AT_READONLY, 1);
	EQ(WHOLEMEMORY_AT_READWRITE, 2);
	EQ(WHOLEMEMORY_OPT_SGD, 1);
	EQ(WHOLEMEMORY_OPT_LAZY_ADAM, 2);
	EQ(WHOLEMEMORY_OPT_RMSPROP, 3);
	EQ(WHOLEMEMORY_OPT_ADAGRAD, 4);

	wholememory_embedding_t e = NULL;
	wholememory_tensor_description_t d = desc2(10, 3, 3, WHOLEMEMORY_DT_FLOAT);
	/* a negative round-robin block */
	EQ(wholememory_create_embedding(&e, &d, world,
		WHOLEMEMORY_MT_CONTINUOUS, WHOLEMEMORY_ML_HOST, NULL, NULL,
		-1, -1), WHOLEMEMORY_INVALID_INPUT);
	ck_assert_ptr_null(e);
	d.dim = 1;
	EQ(wholememory_create_embedding(&e, &d, world,
		WHOLEMEMORY_MT_CONTINUOUS, WHOLEMEMORY_ML_HOST, NULL, NULL,
		-1, 0), WHOLEMEMORY_INVALID_INPUT);
	ck_assert_ptr_null(e);
	/* a HALF embedding gathers, but trains no optimizer */
	d = desc2(10, 3, 3, WHOLEMEMORY_DT_HALF);
	OK(wholememory_create_embedding(&e, &d, world,
		WHOLEMEMORY_MT_CONTINUOUS, WHOLEMEMORY_ML_HOST, NULL, NULL,
		-1, 0));
	EQ(wholememory_embedding_set_optimizer(e, o),
	   WHOLEMEMORY_NOT_SUPPORTED);
	int64_t ix[1] = { 1 };
	float g[3] = { 1, 2, 3 };
	wholememory_tensor_t I = ptensor(ix, desc1(1, WHOLEMEMORY_DT_INT64));
	wholememory_tensor_t G = ptensor(g, desc2(1, 3, 3, WHOLEMEMORY_DT_FLOAT));
	/* no optimizer: every rank's call fails alike */
	EQ(wholememory_embedding_gather_gradient_apply(e, I, G, false, 0.1f,
						       NULL, 0),
	   WHOLEMEMORY_INVALID_INPUT);
	OK(wholememory_destroy_embedding(e));
	/* a FLOAT one: grads of the wrong shape on one rank fail the call
	 * on every rank; a destroyed optimizer is refused */
	d = desc2(10, 3, 3, WHOLEMEMORY_DT_FLOAT);
	OK(wholememory_create_embedding(&e, &d, world,
		WHOLEMEMORY_MT_DISTRIBUTED, WHOLEMEMORY_ML_HOST, NULL, NULL,
		-1, 0));
	OK(wholememory_embedding_set_optimizer(e, o));
	EQ(wholememory_embedding_set_optimizer(e, o),
	   WHOLEMEMORY_INVALID_INPUT);
	wholememory_tensor_t G2 = ptensor(g, desc2(1, me == np - 1 ? 2 : 3, me == np - 1 ? 2 : 3,
						WHOLEMEMORY_DT_FLOAT));
	EQ(wholememory_embedding_gather_gradient_apply(e, I, G2, false, 0.1f,
						       NULL, 0),
	   WHOLEMEMORY_INVALID_INPUT);
	ix[0] = 10;
	EQ(wholememory_embedding_gather_gradient_apply(e, I, G, false, 0.1f,
						       NULL, 0),
	   WHOLEMEMORY_INVALID_VALUE);
	ix[0] = 1;
	ck_assert_ptr_null(wholememory_embedding_get_optimizer_state(e, "m"));
	const char *const *names =
		wholememory_embedding_get_optimizer_state_names(e);
	ck_assert_ptr_nonnull(names);
	ck_assert_ptr_null(names[0]);
	wholememory_destroy_embedding_optimizer(o);
	EQ(wholememory_embedding_gather_gradient_apply(e, I, G, false, 0.1f,
						       NULL, 0),
	   WHOLEMEMORY_INVALID_INPUT);
	OK(wholememory_destroy_tensor(I));
	OK(wholememory_destroy_tensor(G));
	OK(wholememory_destroy_tensor(G2));
	OK(wholememory_destroy_embedding(e));
	test_done = true;
}
END_TEST

/* ---- the reference ------------------------------------------------------ */

struct ref {
	wholememory_optimizer_type_t type;
	float wd, eps, beta1, beta2, adam_w, alpha;
	int64_t rows, dim;
	float *w, *s0, *s1, *b12;
};

static void
ref_init(struct ref *R, wholememory_optimizer_type_t type, int64_t rows,
	 int64_t dim)
{
	memset(R, 0, sizeof(*R));
	R->type = type;
	R->rows = rows;
	R->dim = dim;
	R->wd = 0.015625f;
	R->eps = 1e-8f;
	R->beta1 = 0.9f;
	R->beta2 = 0.999f;
	R->alpha = 0.99f;
	size_t n = (size_t)(rows * dim);
	R->w = malloc(4 * n);
	R->s0 = calloc(n, 4);
	R->s1 = calloc(n, 4);
	R->b12 = malloc(8 * (size_t)rows);
	for (int64_t r = 0; r < rows; r++) {
		R->b12[2 * r] = R->b12[2 * r + 1] = 1.0f;
		for (int64_t c = 0; c < dim; c++)
			R->w[r * dim + c] = ev(r, c);
	}
}

static void
ref_free(struct ref *R)
{
	free(R->w);
	free(R->s0);
	free(R->s1);
	free(R->b12);
}

/* Rank q's indices and gradients of a step (n rows). */
static size_t
step_lists(int q, int step, int64_t rows, int64_t dim, int64_t *ix,
	   float *g)
{
	uint64_t s = 1000003u * (uint64_t)step + 7919u * (uint64_t)q + 1;
	size_t n = 20 + (size_t)(erand(&s) % 20);
	for (size_t i = 0; i < n; i++) {
		/* rows 0-3 hot: named by every rank, often twice */
		ix[i] = erand(&s) % 3 == 0 ? (int64_t)(erand(&s) % 4)
					   : (int64_t)(erand(&s) %
						       (uint64_t)rows);
		for (int64_t c = 0; c < dim; c++)
			g[i * (size_t)dim + (size_t)c] =
				(float)((int64_t)(erand(&s) % 2001) - 1000) /
				256.0f;
	}
	return n;
}

static void
ref_step(struct ref *R, int step, float lr)
{
	int64_t dim = R->dim;
	int64_t *ix = malloc(8 * 64);
	float *g = malloc(4 * 64 * (size_t)dim);
	float *sum = calloc((size_t)(R->rows * dim), 4);
	uint8_t *named = calloc((size_t)R->rows, 1);
	for (int q = 0; q < np; q++) {
		size_t n = step_lists(q, step, R->rows, dim, ix, g);
		for (size_t i = 0; i < n; i++) {
			float *sr = sum + ix[i] * dim;
			for (int64_t c = 0; c < dim; c++)
				sr[c] = named[ix[i]] ? sr[c] + g[i * dim + c]
						     : g[i * dim + c];
			named[ix[i]] = 1;
		}
	}
	for (int64_t r = 0; r < R->rows; r++) {
		if (!named[r])
			continue;
		float *w = R->w + r * dim, *m = R->s0 + r * dim;
		float *v = R->s1 + r * dim, *b = R->b12 + 2 * r;
		float b1t = b[0] * R->beta1, b2t = b[1] * R->beta2;
		for (int64_t c = 0; c < dim; c++) {
			float gr = sum[r * dim + c], x = w[c];
			if (R->type == WHOLEMEMORY_OPT_SGD) {
				gr = gr + R->wd * x;
				x = x - lr * gr;
			} else if (R->type == WHOLEMEMORY_OPT_LAZY_ADAM) {
				if (R->adam_w > 0.5f)
					x = x - lr * R->wd * x;
				else
					gr = gr + R->wd * x;
				float mm = R->beta1 * m[c] +
					   (1 - R->beta1) * gr;
				float vv = R->beta2 * v[c] +
					   (1 - R->beta2) * gr * gr;
				float mh = mm / (1 - b1t);
				float vh = vv / (1 - b2t);
				x = x - lr * mh / (sqrtf(vh) + R->eps);
				m[c] = mm;
				v[c] = vv;
			} else if (R->type == WHOLEMEMORY_OPT_ADAGRAD) {
				gr = gr + R->wd * x;
				float ss = m[c] + gr * gr;
				x = x - lr * gr / (sqrtf(ss) + R->eps);
				m[c] = ss;
			} else {
				gr = gr + R->wd * x;
				float vv = R->alpha * m[c] +
					   (1 - R->alpha) * gr * gr;
				x = x - lr * gr / (sqrtf(vv) + R->eps);
				m[c] = vv;
			}
			w[c] = x;
		}
		b[0] = b1t;
		b[1] = b2t;
	}
	free(ix);
	free(g);
	free(sum);
	free(named);
}

/* This rank's step on e (indices int32 on odd steps). */
static void
emb_step(wholememory_embedding_t e, int step, float lr, int64_t rows,
	 int64_t dim)
{
	int64_t ix[64];
	int32_t i32[64];
	float *g = malloc(4 * 64 * (size_t)dim);
	size_t n = step_lists(me, step, rows, dim, ix, g);
	for (size_t i = 0; i < n; i++)
		i32[i] = (int32_t)ix[i];
	wholememory_tensor_t I = step % 2
		? ptensor(i32, desc1((int64_t)n, WHOLEMEMORY_DT_INT))
		: ptensor(ix, desc1((int64_t)n, WHOLEMEMORY_DT_INT64));
	wholememory_tensor_t G = ptensor(g, md((int64_t)n, dim,
					       WHOLEMEMORY_DT_FLOAT));
	OK(wholememory_embedding_gather_gradient_apply(e, I, G, true, lr,
						       NULL, 0));
	OK(wholememory_destroy_tensor(I));
	OK(wholememory_destroy_tensor(G));
	free(g);
}

static wholememory_embedding_optimizer_t
make_opt(struct ref *R)
{
	wholememory_embedding_optimizer_t o = NULL;
	OK(wholememory_create_embedding_optimizer(&o, R->type));
	OK(wholememory_optimizer_set_parameter(o, "weight_decay", &R->wd));
	if (R->type == WHOLEMEMORY_OPT_LAZY_ADAM) {
		OK(wholememory_optimizer_set_parameter(o, "adam_w",
						       &R->adam_w));
		R->beta1 = 0.8f;
		OK(wholememory_optimizer_set_parameter(o, "beta1",
						       &R->beta1));
	}
	if (R->type == WHOLEMEMORY_OPT_RMSPROP) {
		R->alpha = 0.875f;
		OK(wholememory_optimizer_set_parameter(o, "alpha",
						       &R->alpha));
	}
	if (R->type != WHOLEMEMORY_OPT_SGD) {
		R->eps = 1e-6f;
		OK(wholememory_optimizer_set_parameter(o, "epsilon",
						       &R->eps));
	}
	return o;
}

/* steps of lr 0.25 / (step + 1) on e and on the reference R: after
 * each, every element of the table is R's, bit for bit */
static void
steps_exact(wholememory_embedding_t e, struct ref *R, int steps,
	    int64_t rows, int64_t dim, float *got)
{
	for (int s = 0; s < steps; s++) {
		float lr = 0.25f / (float)(s + 1);
		emb_step(e, s, lr, rows, dim);
		ref_step(R, s, lr);
		gather_all(e, rows, dim, got);
		ALL(rows * dim, !memcmp(&got[i], &R->w[i], 4));
	}
}

/* The states of e against the reference (bitwise). */
static void
check_states(wholememory_embedding_t e, struct ref *R)
{
	int64_t rows = R->rows, dim = R->dim;
	float *buf = malloc(4 * (size_t)(rows * dim));
	const char *const *names =
		wholememory_embedding_get_optimizer_state_names(e);
	ck_assert_ptr_nonnull(names);
	int ns = 0;
	while (names[ns])
		ns++;
	if (R->type == WHOLEMEMORY_OPT_LAZY_ADAM) {
		EQ(ns, 3);
		ck_assert_str_eq(names[0], "m");
		ck_assert_str_eq(names[1], "v");
		ck_assert_str_eq(names[2], "beta12t");
		gather_tensor(wholememory_embedding_get_optimizer_state(e, "m"),
			      rows, dim, buf);
		ALL(rows * dim, !memcmp(&buf[i], &R->s0[i], 4));
		gather_tensor(wholememory_embedding_get_optimizer_state(e, "v"),
			      rows, dim, buf);
		ALL(rows * dim, !memcmp(&buf[i], &R->s1[i], 4));
		gather_tensor(wholememory_embedding_get_optimizer_state(
				      e, "beta12t"), rows, 2, buf);
		ALL(rows * 2, !memcmp(&buf[i], &R->b12[i], 4));
	} else if (R->type == WHOLEMEMORY_OPT_SGD) {
		EQ(ns, 0);
	} else {
		EQ(ns, 1);
		const char *n = R->type == WHOLEMEMORY_OPT_ADAGRAD
			? "state_sum" : "v";
		ck_assert_str_eq(names[0], n);
		gather_tensor(wholememory_embedding_get_optimizer_state(e, n),
			      rows, dim, buf);
		ALL(rows * dim, !memcmp(&buf[i], &R->s0[i], 4));
	}
	ck_assert_ptr_null(wholememory_embedding_get_optimizer_state(e, "x"));
	free(buf);
}

static const wholememory_optimizer_type_t opts[4] = {
	WHOLEMEMORY_OPT_SGD, WHOLEMEMORY_OPT_LAZY_ADAM,
	WHOLEMEMORY_OPT_ADAGRAD, WHOLEMEMORY_OPT_RMSPROP,
};

START_TEST(test_emb_optimizers)
{
	int64_t rows = 13 * np + 6, dim = 5;
	float *got = malloc(4 * (size_t)(rows * dim));
	/* each optimizer on each memory type (host; CHUNKED and
	 * DISTRIBUTED also in device memory); LazyAdam also as AdamW */
	for (int k = 0; k < 5; k++)
		for (int t = 0; t < 6; t++) {
			struct ref R;
			ref_init(&R, opts[k % 4], rows, dim);
			if (k == 4)
				R.adam_w = 1.0f;
			if (k == 4 && R.type != WHOLEMEMORY_OPT_LAZY_ADAM)
				R.type = WHOLEMEMORY_OPT_LAZY_ADAM;
			wholememory_memory_location_t loc =
				t < 4 ? WHOLEMEMORY_ML_HOST
				      : WHOLEMEMORY_ML_DEVICE;
			wholememory_memory_type_t ty =
				t < 4 ? types[t] : types[t - 3];
			wholememory_embedding_t e = NULL;
			wholememory_tensor_description_t d =
				desc2(rows, dim, dim, WHOLEMEMORY_DT_FLOAT);
			OK(wholememory_create_embedding(&e, &d, world, ty,
							loc, NULL, NULL, -1,
							0));
			fill(e, rows, dim);
			wholememory_embedding_optimizer_t o = make_opt(&R);
			OK(wholememory_embedding_set_optimizer(e, o));
			steps_exact(e, &R, 4, rows, dim, got);
			check_states(e, &R);
			OK(wholememory_communicator_barrier(world));
			OK(wholememory_destroy_embedding(e));
			wholememory_destroy_embedding_optimizer(o);
			ref_free(&R);
		}
	free(got);
	test_done = true;
}
END_TEST

START_TEST(test_emb_cache)
{
	int64_t rows = 17 * np + 2, dim = 6;
	float *a = malloc(4 * (size_t)(rows * dim));
	float *b = malloc(4 * (size_t)(rows * dim));
	/* learnable caches (embedding type / location, cache type /
	 * location, ratio) against the same embedding without one */
	static const struct {
		int et, el, ct, cl;
		float ratio;
	} cfg[] = {
		{ 2, 0, 1, 1, 0.25f },  /* DISTRIBUTED host, CHUNKED device */
		{ 0, 0, 0, 1, 1.0f },   /* CONTINUOUS host, device */
		{ 3, 1, 2, 0, 1.0f / 512 },
		{ 1, 0, 3, 0, 0.5f },
	};
	for (int c = 0; c < 4; c++)
		for (int k = 0; k < 4; k++) {
			struct ref R;
			ref_init(&R, opts[k], rows, dim);
			wholememory_embedding_cache_policy_t p = NULL;
			OK(wholememory_create_embedding_cache_policy(&p, world,
				types[cfg[c].ct], locs[cfg[c].cl],
				WHOLEMEMORY_AT_READWRITE, cfg[c].ratio));
			wholememory_embedding_t ec = NULL, en = NULL;
			wholememory_tensor_description_t d =
				desc2(rows, dim, dim, WHOLEMEMORY_DT_FLOAT);
			OK(wholememory_create_embedding(&ec, &d, world,
				types[cfg[c].et], locs[cfg[c].el], p, NULL,
				-1, 0));
			OK(wholememory_destroy_embedding_cache_policy(p));
			OK(wholememory_create_embedding(&en, &d, world,
				types[cfg[c].et], locs[cfg[c].el], NULL, NULL,
				-1, 0));
			fill(ec, rows, dim);
			fill(en, rows, dim);
			wholememory_embedding_optimizer_t o = make_opt(&R);
			OK(wholememory_embedding_set_optimizer(ec, o));
			OK(wholememory_embedding_set_optimizer(en, o));
			for (int s = 0; s < 5; s++) {
				float lr = 0.125f * (float)(s + 1);
				emb_step(ec, s, lr, rows, dim);
				emb_step(en, s, lr, rows, dim);
				ref_step(&R, s, lr);
				/* cached reads: what uncached ones read */
				gather_all(ec, rows, dim, a);
				gather_all(en, rows, dim, b);
				ALL(rows * dim, !memcmp(&a[i], &b[i], 4));
				ALL(rows * dim, !memcmp(&a[i], &R.w[i], 4));
				if (s == 2)
					OK(wholememory_embedding_writeback_cache
					   (ec, 0));
			}
			/* the table itself after writeback */
			OK(wholememory_embedding_writeback_cache(ec, 0));
			gather_tensor(
				wholememory_embedding_get_embedding_tensor(ec),
				rows, dim, a);
			ALL(rows * dim, !memcmp(&a[i], &R.w[i], 4));
			check_states(ec, &R);
			/* dropped: the same again, and steps go on */
			OK(wholememory_embedding_drop_all_cache(ec, 0));
			emb_step(ec, 9, 0.5f, rows, dim);
			ref_step(&R, 9, 0.5f);
			OK(wholememory_embedding_drop_all_cache(ec, 0));
			gather_tensor(
				wholememory_embedding_get_embedding_tensor(ec),
				rows, dim, a);
			ALL(rows * dim, !memcmp(&a[i], &R.w[i], 4));
			OK(wholememory_communicator_barrier(world));
			OK(wholememory_destroy_embedding(ec));
			OK(wholememory_destroy_embedding(en));
			wholememory_destroy_embedding_optimizer(o);
			ref_free(&R);
		}
	/* a learnable cache on another communicator is refused */
	wholememory_comm_t sc = NULL;
	OK(wholememory_split_communicator(&sc, world, 0, me));
	wholememory_embedding_cache_policy_t p = NULL;
	OK(wholememory_create_embedding_cache_policy(&p, sc,
		WHOLEMEMORY_MT_CHUNKED, WHOLEMEMORY_ML_DEVICE,
		WHOLEMEMORY_AT_READWRITE, 0.5f));
	wholememory_embedding_t e = NULL;
	wholememory_tensor_description_t d = desc2(rows, dim, dim,
						WHOLEMEMORY_DT_FLOAT);
	EQ(wholememory_create_embedding(&e, &d, world,
		WHOLEMEMORY_MT_CONTINUOUS, WHOLEMEMORY_ML_HOST, p, NULL, -1,
		0), WHOLEMEMORY_INVALID_INPUT);
	OK(wholememory_destroy_embedding_cache_policy(p));
	EQ(wholememory_destroy_embedding_cache_policy(p),
	   WHOLEMEMORY_INVALID_INPUT);
	/* read-only caches: filled by gathers, the same rows read */
	for (int t = 0; t < 4; t++) {
		OK(wholememory_create_embedding_cache_policy(&p, sc,
			WHOLEMEMORY_MT_CONTINUOUS, WHOLEMEMORY_ML_HOST,
			WHOLEMEMORY_AT_READONLY, 0.3f));
		OK(wholememory_create_embedding(&e, &d, world, types[t],
			WHOLEMEMORY_ML_HOST, p, NULL, -1, 0));
		OK(wholememory_destroy_embedding_cache_policy(p));
		fill(e, rows, dim);
		for (int r = 0; r < 3; r++) {
			gather_is_ev(e, rows, dim, a);
		}
		wholememory_embedding_optimizer_t o = NULL;
		OK(wholememory_create_embedding_optimizer(&o,
			WHOLEMEMORY_OPT_SGD));
		EQ(wholememory_embedding_set_optimizer(e, o),
		   WHOLEMEMORY_NOT_SUPPORTED);
		wholememory_destroy_embedding_optimizer(o);
		OK(wholememory_embedding_drop_all_cache(e, 0));
		gather_is_ev(e, rows, dim, a);
		OK(wholememory_communicator_barrier(world));
		OK(wholememory_destroy_embedding(e));
	}
	OK(wholememory_destroy_communicator(sc));
	free(a);
	free(b);
	test_done = true;
}
END_TEST

/* ---- round-robin sharding ---------------------------------------------- */

/* WholeGraph's round-robin layout, written out here: block b of r rows
 * on rank b % np at local rows (b / np) * r.., every rank holding rank
 * 0's share k of rows. */
static int64_t
rr_share(int64_t rows, int64_t r)
{
	int64_t blk = r * np, rem = rows % blk;
	return rows / blk * r + (rem < r ? rem : r);
}

/* the storage row of row g */
static int64_t
rr_store(int64_t g, int64_t r, int64_t k)
{
	int64_t b = g / r;
	return b % np * k + b / np * r + g % r;
}

/* the row stored at storage row s (rows or more: padding) */
static int64_t
rr_row(int64_t s, int64_t r, int64_t k)
{
	int64_t q = s / k, l = s % k;
	return (l / r * np + q) * r + l % r;
}

/* Every rank writes its storage rows: row g's values ev(g), padding
 * -1000. Checks the tensor's shape and this rank's share first. */
static void
fill_rr(wholememory_embedding_t e, int64_t rows, int64_t dim, int64_t r)
{
	int64_t k = rr_share(rows, r);
	wholememory_tensor_t T = wholememory_embedding_get_embedding_tensor(e);
	ck_assert_ptr_nonnull(T);
	wholememory_tensor_description_t *td =
		wholememory_tensor_get_tensor_description(T);
	EQ(td->sizes[0], k * np);
	EQ(td->sizes[1], dim);
	size_t start = 0, cnt = 0;
	OK(wholememory_tensor_get_local_entry_start(&start, T));
	OK(wholememory_tensor_get_local_entry_count(&cnt, T));
	EQ(start, (size_t)(k * me));
	EQ(cnt, (size_t)k);
	fill_rows(T, rows, dim, r, k);
}

/* The rows of a (k * np, cols) storage-order tensor, in row order. */
static void
gather_rr(wholememory_tensor_t T, int64_t rows, int64_t cols, int64_t r,
	  float *out)
{
	int64_t k = rr_share(rows, r);
	float *buf = malloc(4 * (size_t)(k * np * cols) + 1);
	gather_tensor(T, k * np, cols, buf);
	for (int64_t g = 0; g < rows; g++)
		memcpy(out + g * cols, buf + rr_store(g, r, k) * cols,
		       4 * (size_t)cols);
	free(buf);
}

/* rank 0's temporary directory, on every rank */
static void
shared_tmpdir(char *dir, size_t len)
{
	wholememory_handle_t h;
	OK(wholememory_malloc(&h, 64 * (size_t)np, world,
			      WHOLEMEMORY_MT_CONTINUOUS, WHOLEMEMORY_ML_HOST,
			      64, NULL));
	char *gp;
	OK(wholememory_get_global_pointer((void **)&gp, h));
	if (me == 0) {
		ck_assert_ptr_nonnull(mkdtemp(dir));
		memcpy(gp, dir, len);
	}
	OK(wholememory_communicator_barrier(world));
	memcpy(dir, gp, len);
	OK(wholememory_communicator_barrier(world));
	OK(wholememory_free(h));
}

START_TEST(test_emb_round_robin_gather)
{
	int64_t rows = 23 * np + 5, dim = 7;
	/* 1, 3, and a block larger than a rank's share (rank 0 holds all
	 * of one block, the last rank maybe none) */
	const int64_t rrs[3] = { 1, 3, rows / np + 5 };
	float *a = malloc(4 * (size_t)(rows * dim));
	size_t n = 200;
	int64_t *i64 = malloc(8 * n);
	int32_t *i32 = malloc(4 * n);
	float *of = malloc(4 * n * (size_t)dim);
	for (int ri = 0; ri < 3; ri++)
		for (int t = 0; t < 4; t++)
			for (int l = 0; l < 2; l++) {
				int64_t r = rrs[ri];
				wholememory_embedding_t e = NULL;
				wholememory_tensor_description_t d =
					md(rows, dim, WHOLEMEMORY_DT_FLOAT);
				OK(wholememory_create_embedding(&e, &d, world,
					types[t], locs[l], NULL, NULL, -1,
					(int)r));
				fill_rr(e, rows, dim, r);
				gather_is_ev(e, rows, dim, a);
				uint64_t sd = 5 + (uint64_t)me;
				for (size_t i = 0; i < n; i++)
					i32[i] = (int32_t)(i64[i] = (int64_t)(
						erand(&sd) % (uint64_t)rows));
				wholememory_tensor_t I32 = ptensor(i32,
					desc1((int64_t)n, WHOLEMEMORY_DT_INT));
				wholememory_tensor_t I64 = ptensor(i64,
					desc1((int64_t)n,
					      WHOLEMEMORY_DT_INT64));
				wholememory_tensor_t OF = ptensor(of,
					md((int64_t)n, dim,
					   WHOLEMEMORY_DT_FLOAT));
				OK(wholememory_embedding_gather(e, I32, OF,
					false, NULL, 0));
				ALL(n * (size_t)dim,
				    of[i] == ev(i64[i / (size_t)dim],
						(int64_t)(i % (size_t)dim)));
				/* the rows are the description's: the
				 * padding rows are no index */
				i64[n / 2] = rows;
				of[0] = 12345.0f;
				EQ(wholememory_embedding_gather(e, I64, OF,
					false, NULL, 0),
				   WHOLEMEMORY_INVALID_VALUE);
				ck_assert(of[0] == 12345.0f);
				OK(wholememory_destroy_tensor(I32));
				OK(wholememory_destroy_tensor(I64));
				OK(wholememory_destroy_tensor(OF));
				OK(wholememory_communicator_barrier(world));
				OK(wholememory_destroy_embedding(e));
			}
	/* read-only caches (this rank's communicator): the same rows */
	wholememory_comm_t sc = NULL;
	OK(wholememory_split_communicator(&sc, world, 0, me));
	for (int ri = 0; ri < 3; ri++) {
		wholememory_embedding_cache_policy_t p = NULL;
		OK(wholememory_create_embedding_cache_policy(&p, sc,
			WHOLEMEMORY_MT_CONTINUOUS, WHOLEMEMORY_ML_HOST,
			WHOLEMEMORY_AT_READONLY, 0.3f));
		wholememory_embedding_t e = NULL;
		wholememory_tensor_description_t d =
			md(rows, dim, WHOLEMEMORY_DT_FLOAT);
		OK(wholememory_create_embedding(&e, &d, world,
			types[ri + 1], WHOLEMEMORY_ML_HOST, p, NULL, -1,
			(int)rrs[ri]));
		OK(wholememory_destroy_embedding_cache_policy(p));
		fill_rr(e, rows, dim, rrs[ri]);
		for (int k = 0; k < 3; k++) {
			gather_is_ev(e, rows, dim, a);
		}
		OK(wholememory_communicator_barrier(world));
		OK(wholememory_destroy_embedding(e));
	}
	OK(wholememory_destroy_communicator(sc));
	/* an entry partition wins: round_robin_size ignored */
	size_t *part = malloc(sizeof(size_t) * (size_t)np);
	for (int q = 0; q < np; q++)
		part[q] = (size_t)(q == 0 ? rows - 23 * (np - 1) : 23);
	wholememory_embedding_t e = NULL;
	wholememory_tensor_description_t d = md(rows, dim,
						WHOLEMEMORY_DT_FLOAT);
	OK(wholememory_create_embedding(&e, &d, world,
		WHOLEMEMORY_MT_CHUNKED, WHOLEMEMORY_ML_HOST, NULL, part, -1,
		3));
	wholememory_tensor_t T = wholememory_embedding_get_embedding_tensor(e);
	EQ(wholememory_tensor_get_tensor_description(T)->sizes[0], rows);
	size_t cnt = 0;
	OK(wholememory_tensor_get_local_entry_count(&cnt, T));
	EQ(cnt, part[me]);
	fill(e, rows, dim);
	gather_is_ev(e, rows, dim, a);
	OK(wholememory_communicator_barrier(world));
	OK(wholememory_destroy_embedding(e));
	free(part);
	/* loaded from a file of the rows with the same block */
	char dir[] = "/tmp/wm_emb_rr_XXXXXX";
	shared_tmpdir(dir, sizeof(dir));
	char fn[64];
	snprintf(fn, sizeof(fn), "%s/rows", dir);
	if (me == 0) {
		for (int64_t i = 0; i < rows * dim; i++)
			a[i] = ev(i / dim, i % dim);
		int fd = open(fn, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			      0600);
		ck_assert_int_ge(fd, 0);
		EQ(write(fd, a, 4 * (size_t)(rows * dim)),
		   (ssize_t)(4 * rows * dim));
		close(fd);
	}
	OK(wholememory_communicator_barrier(world));
	for (int ri = 0; ri < 3; ri++) {
		OK(wholememory_create_embedding(&e, &d, world,
			WHOLEMEMORY_MT_DISTRIBUTED, WHOLEMEMORY_ML_HOST, NULL,
			NULL, -1, (int)rrs[ri]));
		T = wholememory_embedding_get_embedding_tensor(e);
		const char *fns[1] = { fn };
		/* rows padded to 8 floats, records of 7 */
		OK(wholememory_load_from_file(
			wholememory_tensor_get_memory_handle(T), 0, 8 * 4,
			(size_t)dim * 4, fns, 1, (int)rrs[ri]));
		memset(a, 0, 4 * (size_t)(rows * dim));
		gather_is_ev(e, rows, dim, a);
		OK(wholememory_communicator_barrier(world));
		OK(wholememory_destroy_embedding(e));
	}
	if (me == 0) {
		EQ(unlink(fn), 0);
		EQ(rmdir(dir), 0);
	}
	free(a);
	free(i64);
	free(i32);
	free(of);
	test_done = true;
}
END_TEST

/* One training run: type t, location l, block r, SGD or LazyAdam,
 * with or without a learnable cache, 2 steps against the reference;
 * then the storage rows and the states in storage order. */
static void
rr_train(int t, int l, int64_t r, bool adam, bool cache, int64_t rows,
	 int64_t dim, float *got)
{
	struct ref R;
	ref_init(&R, adam ? WHOLEMEMORY_OPT_LAZY_ADAM : WHOLEMEMORY_OPT_SGD,
		 rows, dim);
	wholememory_embedding_cache_policy_t p = NULL;
	if (cache)
		OK(wholememory_create_embedding_cache_policy(&p, world,
			WHOLEMEMORY_MT_CHUNKED, WHOLEMEMORY_ML_DEVICE,
			WHOLEMEMORY_AT_READWRITE, 0.25f));
	wholememory_embedding_t e = NULL;
	wholememory_tensor_description_t d = md(rows, dim,
						WHOLEMEMORY_DT_FLOAT);
	OK(wholememory_create_embedding(&e, &d, world, types[t], locs[l], p,
					NULL, -1, (int)r));
	if (p)
		OK(wholememory_destroy_embedding_cache_policy(p));
	fill_rr(e, rows, dim, r);
	wholememory_embedding_optimizer_t o = make_opt(&R);
	OK(wholememory_embedding_set_optimizer(e, o));
	steps_exact(e, &R, 2, rows, dim, got);
	OK(wholememory_embedding_writeback_cache(e, 0));
	gather_rr(wholememory_embedding_get_embedding_tensor(e), rows, dim,
		  r, got);
	ALL(rows * dim, !memcmp(&got[i], &R.w[i], 4));
	if (adam) {
		gather_rr(wholememory_embedding_get_optimizer_state(e, "m"),
			  rows, dim, r, got);
		ALL(rows * dim, !memcmp(&got[i], &R.s0[i], 4));
		gather_rr(wholememory_embedding_get_optimizer_state(e, "v"),
			  rows, dim, r, got);
		ALL(rows * dim, !memcmp(&got[i], &R.s1[i], 4));
		gather_rr(wholememory_embedding_get_optimizer_state(
				  e, "beta12t"), rows, 2, r, got);
		ALL(rows * 2, !memcmp(&got[i], &R.b12[i], 4));
	}
	OK(wholememory_communicator_barrier(world));
	OK(wholememory_destroy_embedding(e));
	wholememory_destroy_embedding_optimizer(o);
	ref_free(&R);
}

START_TEST(test_emb_round_robin_train)
{
	int64_t rows = 13 * np + 6, dim = 5;
	const int64_t rrs[3] = { 1, 3, rows / np + 4 };
	float *got = malloc(4 * (size_t)(rows * dim));
	/* CONTINUOUS and DISTRIBUTED host, CHUNKED device */
	static const int cfg[3][2] = { { 0, 0 }, { 2, 0 }, { 1, 1 } };
	for (int ri = 0; ri < 3; ri++)
		for (int c = 0; c < 3; c++)
			for (int k = 0; k < 4; k++)
				rr_train(cfg[c][0], cfg[c][1], rrs[ri], k % 2,
					 k >= 2, rows, dim, got);
	free(got);
	test_done = true;
}
END_TEST

void
wm_emb_tests(TCase *tc)
{
	tcase_add_test(tc, test_emb_gather);
	tcase_add_test(tc, test_emb_errors);
	tcase_add_test(tc, test_emb_optimizers);
	tcase_add_test(tc, test_emb_cache);
	tcase_add_test(tc, test_emb_round_robin_gather);
	tcase_add_test(tc, test_emb_round_robin_train);
}

/* One embedding of each cache kind through its calls (wm_pe.c's leak
 * round): nothing may stay behind, no tensor either. */
void
wm_emb_leak_round(void)
{
	int64_t before = get_wholememory_tensor_count();
	int64_t rows = 9 * np + 1, dim = 3;
	float *a = malloc(4 * (size_t)(rows * dim));
	for (int k = 0; k < 3; k++) {
		wholememory_embedding_cache_policy_t p = NULL;
		if (k)
			OK(wholememory_create_embedding_cache_policy(&p, world,
				WHOLEMEMORY_MT_CHUNKED, WHOLEMEMORY_ML_DEVICE,
				k == 1 ? WHOLEMEMORY_AT_READWRITE
				       : WHOLEMEMORY_AT_READONLY, 0.5f));
		wholememory_embedding_t e = NULL;
		wholememory_tensor_description_t d = desc2(rows, dim, dim,
							WHOLEMEMORY_DT_FLOAT);
		OK(wholememory_create_embedding(&e, &d, world,
			WHOLEMEMORY_MT_DISTRIBUTED, WHOLEMEMORY_ML_HOST, p,
			NULL, -1, 0));
		if (p)
			OK(wholememory_destroy_embedding_cache_policy(p));
		fill(e, rows, dim);
		if (k < 2) {
			struct ref R;
			ref_init(&R, WHOLEMEMORY_OPT_LAZY_ADAM, rows, dim);
			wholememory_embedding_optimizer_t o = make_opt(&R);
			OK(wholememory_embedding_set_optimizer(e, o));
			emb_step(e, 0, 0.5f, rows, dim);
			OK(wholememory_embedding_writeback_cache(e, 0));
			wholememory_destroy_embedding_optimizer(o);
			ref_free(&R);
		}
		gather_all(e, rows, dim, a);
		OK(wholememory_embedding_drop_all_cache(e, 0));
		OK(wholememory_destroy_embedding(e));
	}
	free(a);
	EQ(get_wholememory_tensor_count(), before);
}

/* ---- several nodes ("wm_pe multinode": no check suite there) ------------ */

static int mnf;
#define MF(c)                                                            \
	do {                                                             \
		if (!(c)) {                                              \
			fprintf(stderr, "PE %d: %s:%d: %s\n", me,        \
				__FILE__, __LINE__, #c);                 \
			mnf++;                                           \
		}                                                        \
	} while (0)

static wholememory_tensor_t
mf_ptensor(void *p, wholememory_tensor_description_t d)
{
	wholememory_tensor_t t = NULL;
	MF(wholememory_make_tensor_from_pointer(&t, p, &d) == 0);
	return t;
}

/* Embeddings whose partitions lie on several nodes (DISTRIBUTED,
 * HIERARCHY; a learnable DISTRIBUTED cache): LazyAdam and RMSProp steps
 * against the reference. The count of failed checks. */
int
wm_emb_multinode(void)
{
	int64_t rows = 11 * np + 3, dim = 5;
	float *got = malloc(4 * (size_t)(rows * dim));
	int64_t *all = malloc(8 * (size_t)rows);
	for (int64_t i = 0; i < rows; i++)
		all[i] = i;
	for (int c = 0; c < 3; c++)
		for (int k = 0; k < 2; k++) {
			struct ref R;
			ref_init(&R, k ? WHOLEMEMORY_OPT_RMSPROP
				       : WHOLEMEMORY_OPT_LAZY_ADAM, rows, dim);
			wholememory_embedding_cache_policy_t p = NULL;
			int pr = c < 2 ? 0 :
				wholememory_create_embedding_cache_policy(&p,
					world, WHOLEMEMORY_MT_DISTRIBUTED,
					WHOLEMEMORY_ML_HOST,
					WHOLEMEMORY_AT_READWRITE, 0.5f);
			MF(pr == 0);
			wholememory_embedding_t e = NULL;
			wholememory_tensor_description_t d =
				desc2(rows, dim, dim, WHOLEMEMORY_DT_FLOAT);
			MF(wholememory_create_embedding(&e, &d, world,
				c == 1 ? WHOLEMEMORY_MT_HIERARCHY
				       : WHOLEMEMORY_MT_DISTRIBUTED,
				WHOLEMEMORY_ML_HOST, p, NULL, -1, 0) == 0);
			if (p)
				wholememory_destroy_embedding_cache_policy(p);
			if (!e)
				break;
			/* rank 0 writes every row */
			for (int64_t i = 0; i < rows * dim; i++)
				got[i] = R.w[i];
			wholememory_tensor_t I = mf_ptensor(all,
				desc1(rows, WHOLEMEMORY_DT_INT64));
			wholememory_tensor_t V = mf_ptensor(got,
				desc2(rows, dim, dim, WHOLEMEMORY_DT_FLOAT));
			wholememory_tensor_t ET =
				wholememory_embedding_get_embedding_tensor(e);
			if (me == 0)
				MF(wholememory_scatter(V, I, ET, NULL, NULL,
						       -1) == 0);
			MF(wholememory_communicator_barrier(world) == 0);
			wholememory_embedding_optimizer_t o = NULL;
			MF(wholememory_create_embedding_optimizer(&o,
							R.type) == 0);
			MF(wholememory_optimizer_set_parameter(o,
				"weight_decay", &R.wd) == 0);
			MF(wholememory_embedding_set_optimizer(e, o) == 0);
			for (int s = 0; s < 3; s++) {
				int64_t ix[64];
				float *g = malloc(4 * 64 * (size_t)dim);
				size_t n = step_lists(me, s, rows, dim, ix, g);
				wholememory_tensor_t SI = mf_ptensor(ix,
					desc1((int64_t)n, WHOLEMEMORY_DT_INT64));
				wholememory_tensor_t SG = mf_ptensor(g,
					md((int64_t)n, dim,
					   WHOLEMEMORY_DT_FLOAT));
				float lr = 0.25f / (float)(s + 1);
				MF(wholememory_embedding_gather_gradient_apply(
					e, SI, SG, true, lr, NULL, 0) == 0);
				ref_step(&R, s, lr);
				wholememory_destroy_tensor(SI);
				wholememory_destroy_tensor(SG);
				free(g);
				MF(wholememory_embedding_gather(e, I, V, true,
								NULL, 0) == 0);
				size_t bad = 0;
				for (int64_t i = 0; i < rows * dim; i++)
					bad += memcmp(&got[i], &R.w[i], 4) != 0;
				MF(bad == 0);
			}
			MF(wholememory_embedding_writeback_cache(e, 0) == 0);
			MF(wholememory_gather(
				wholememory_embedding_get_embedding_tensor(e),
				I, V, NULL, NULL, -1) == 0);
			size_t bad = 0;
			for (int64_t i = 0; i < rows * dim; i++)
				bad += memcmp(&got[i], &R.w[i], 4) != 0;
			MF(bad == 0);
			wholememory_destroy_tensor(I);
			wholememory_destroy_tensor(V);
			MF(wholememory_communicator_barrier(world) == 0);
			MF(wholememory_destroy_embedding(e) == 0);
			wholememory_destroy_embedding_optimizer(o);
			ref_free(&R);
		}
	free(all);
	free(got);
	return mnf;
}
