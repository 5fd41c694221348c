// SPDX-License-Identifier: MIT
/*
 * wm_graph_cases: the cases of a wm_pe job for WholeGraph's graph ops
 * (issue 29, point 5): CSR sampling without replacement, unweighted and
 * weighted, from graphs in every memory type, against a reference
 * sampler written here from wholegraph_op.h's description of the random
 * streams (identical samples for a seed); every sample a neighbour of
 * its center, no edge twice, min(fanout, degree) each; the weighted
 * frequencies by a chi-square test; graph_append_unique and
 * csr_add_self_loop against hand-computed results.
 */
#include "wm_pe.h"

#include <wholememory/graph_op.h>
#include <wholememory/wholegraph_op.h>
#include <wholememory/wholememory_op.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the reference's random streams (wholegraph_op.h) ------------------- */

static uint64_t
rmix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

struct rs {
	uint64_t s;
};

static struct rs
rstream(uint64_t seed, uint64_t sub)
{
	struct rs r = { rmix(seed + rmix(sub + 1)) };
	return r;
}

static uint64_t
rnext(struct rs *r)
{
	r->s += 0x9e3779b97f4a7c15ull;
	return rmix(r->s);
}

static float
rkey(struct rs *r, float w)
{
	float u = ((float)(rnext(r) >> 40) + 0.5f) / 16777216.0f;
	return logf(u) / w;
}

/* ---- the test graph ----------------------------------------------------- */

#define GN 60

static int64_t
gdeg(int64_t v)
{
	return v * 7 % 13;
}

static int64_t
gnbr(int64_t v, int64_t j)
{
	return (v + 1 + 4 * j) % GN;
}

static float
gw(int64_t v, int64_t j)
{
	return v % 11 == 0 && j == 0 ? 0.0f : (float)(1 + (v + j) % 5);
}

struct csr {
	int64_t row[GN + 1];
	int64_t col[GN * 13];
	float w[GN * 13];
	int64_t ne;
};

static void
csr_build(struct csr *g)
{
	g->ne = 0;
	for (int64_t v = 0; v < GN; v++) {
		g->row[v] = g->ne;
		for (int64_t j = 0; j < gdeg(v); j++) {
			g->col[g->ne] = gnbr(v, j);
			g->w[g->ne++] = gw(v, j);
		}
	}
	g->row[GN] = g->ne;
}

/* Reference samples of center i (node v) into e (edge numbers); the
 * count. */
static int64_t
ref_sample(const struct csr *g, int64_t v, size_t i, int k, uint64_t seed,
	   bool weighted, int64_t *e)
{
	int64_t a = g->row[v], d = g->row[v + 1] - a;
	if (d <= k) {
		for (int64_t j = 0; j < d; j++)
			e[j] = a + j;
		return d;
	}
	struct rs r = rstream(seed, i);
	int64_t pos[16];
	if (!weighted) {
		for (int64_t j = 0; j < d; j++)
			pos[j] = j;
		for (int64_t j = 0; j < k; j++) {
			int64_t t = j + (int64_t)((rnext(&r) >> 1) %
						  (uint64_t)(d - j));
			int64_t x = pos[j];
			pos[j] = pos[t];
			pos[t] = x;
		}
	} else {
		float key[16];
		bool taken[16] = { false };
		for (int64_t j = 0; j < d; j++)
			key[j] = rkey(&r, g->w[a + j]);
		for (int64_t s = 0; s < k; s++) {
			int64_t best = -1;
			for (int64_t j = 0; j < d; j++)
				if (!taken[j] &&
				    (best < 0 || key[j] > key[best]))
					best = j;
			taken[best] = true;
			pos[s] = best;
		}
	}
	/* increasing edge order */
	for (int64_t x = 1; x < k; x++)
		for (int64_t y = x; y > 0 && pos[y - 1] > pos[y]; y--) {
			int64_t t = pos[y];
			pos[y] = pos[y - 1];
			pos[y - 1] = t;
		}
	for (int64_t j = 0; j < k; j++)
		e[j] = a + pos[j];
	return k;
}

/* ---- outputs through the environment table ------------------------------ */

struct out {
	void *p;
	int64_t n;
	wholememory_dtype_t dt;
	int calls;
};

static void *
out_malloc(wholememory_tensor_description_t *d,
	   wholememory_memory_allocation_type_t t, void *ctx, void *g)
{
	(void)t;
	(void)g;
	struct out *o = ctx;
	o->calls++;
	o->n = d->sizes[0];
	o->dt = d->dtype;
	free(o->p);
	o->p = malloc((size_t)wholememory_get_memory_size_from_tensor(d) + 1);
	return o->p;
}

static void
out_free(void *ctx, void *g)
{
	(void)g;
	struct out *o = ctx;
	free(o->p);
	o->p = NULL;
}

static wholememory_env_func_t
test_env(void)
{
	wholememory_env_func_t e = *wholememoryx_get_default_env_func();
	e.output_fns.malloc_fn = out_malloc;
	e.output_fns.free_fn = out_free;
	e.output_fns.global_context = NULL;
	return e;
}

static wholememory_tensor_t
pt(void *p, int64_t n, wholememory_dtype_t dt)
{
	wholememory_tensor_t t = NULL;
	wholememory_tensor_description_t d = desc1(n, dt);
	OK(wholememory_make_tensor_from_pointer(&t, p, &d));
	return t;
}

/* A WholeMemory tensor of n elements of dt written by rank 0 from src
 * (int64 or float). */
static wholememory_tensor_t
wm_vec(const void *src, int64_t n, wholememory_dtype_t sdt,
       wholememory_dtype_t dt, wholememory_memory_type_t t,
       wholememory_memory_location_t l)
{
	wholememory_tensor_t T = NULL;
	wholememory_tensor_description_t d = desc1(n, dt);
	OK(wholememory_create_tensor(&T, &d, world, t, l, NULL));
	if (me == 0) {
		int64_t *ix = malloc(8 * (size_t)n);
		for (int64_t i = 0; i < n; i++)
			ix[i] = i;
		wholememory_tensor_t I = pt(ix, n, WHOLEMEMORY_DT_INT64);
		wholememory_tensor_t S = pt((void *)src, n, sdt);
		OK(wholememory_scatter(S, I, T, NULL, NULL, -1));
		OK(wholememory_destroy_tensor(I));
		OK(wholememory_destroy_tensor(S));
		free(ix);
	}
	OK(wholememory_communicator_barrier(world));
	return T;
}

static int64_t
iv(const void *p, wholememory_dtype_t dt, int64_t i)
{
	return dt == WHOLEMEMORY_DT_INT64 ? ((const int64_t *)p)[i]
					  : ((const int32_t *)p)[i];
}

/* One sampling call against the reference. */
static void
check_sampling(const struct csr *g, wholememory_tensor_t R,
	       wholememory_tensor_t C, wholememory_tensor_t W,
	       wholememory_dtype_t cdt, int k, uint64_t seed)
{
	size_t nc = GN + 40;
	int64_t cen[GN + 40];
	int32_t c32[GN + 40];
	uint64_t s = seed * 31 + (uint64_t)k;
	for (size_t i = 0; i < nc; i++) {
		cen[i] = i < GN ? (int64_t)i
				: (int64_t)(rmix(++s) % GN);
		c32[i] = (int32_t)cen[i];
	}
	wholememory_tensor_t CT = cdt == WHOLEMEMORY_DT_INT64
		? pt(cen, (int64_t)nc, cdt) : pt(c32, (int64_t)nc, cdt);
	int32_t off[GN + 41];
	wholememory_tensor_t OT = pt(off, (int64_t)nc + 1, WHOLEMEMORY_DT_INT);
	struct out dest = { 0 }, cid = { 0 }, gid = { 0 };
	wholememory_env_func_t env = test_env();
	if (W)
		OK(wholegraph_csr_weighted_sample_without_replacement(R, C, W,
			CT, k, OT, &dest, &cid, &gid, seed, &env, NULL));
	else
		OK(wholegraph_csr_unweighted_sample_without_replacement(R, C,
			CT, k, OT, &dest, &cid, &gid, seed, &env, NULL));
	EQ(dest.calls, 1);
	EQ(cid.calls, 1);
	EQ(gid.calls, 1);
	EQ(dest.dt, wholememory_tensor_get_tensor_description(C)->dtype);
	EQ(cid.dt, WHOLEMEMORY_DT_INT);
	EQ(gid.dt, WHOLEMEMORY_DT_INT64);
	EQ(dest.n, off[nc]);
	EQ(cid.n, off[nc]);
	EQ(gid.n, off[nc]);
	int64_t e[16];
	size_t bad = 0;
	int64_t q = 0;
	for (size_t i = 0; i < nc; i++) {
		int64_t v = cen[i], d = gdeg(v);
		int64_t n = ref_sample(g, v, i, k, seed, W != NULL, e);
		bad += n != (d < k ? d : k);
		bad += off[i] != q;
		for (int64_t j = 0; j < n; j++, q++) {
			int64_t ge = ((int64_t *)gid.p)[q];
			/* the reference's edge, a real edge of v, once */
			bad += ge != e[j];
			bad += ge < g->row[v] || ge >= g->row[v + 1];
			bad += j && ((int64_t *)gid.p)[q - 1] >= ge;
			bad += iv(dest.p, dest.dt, q) != g->col[ge];
			bad += ((int32_t *)cid.p)[q] != (int32_t)i;
			/* a weight-0 edge only when the row has too few
			 * others */
			if (W && d > k && g->w[ge] == 0.0f)
				bad++;
		}
	}
	EQ(off[nc], q);
	ck_assert_uint_eq(bad, 0);
	free(dest.p);
	free(cid.p);
	free(gid.p);
	OK(wholememory_destroy_tensor(CT));
	OK(wholememory_destroy_tensor(OT));
}

START_TEST(test_graph_sampling)
{
	static struct csr g;
	csr_build(&g);
	static const int ks[] = { 1, 3, 5, 20 };
	for (int t = 0; t < 5; t++) {
		wholememory_memory_type_t ty = t < 4 ? types[t] : types[1];
		wholememory_memory_location_t lo =
			t < 4 ? WHOLEMEMORY_ML_HOST : WHOLEMEMORY_ML_DEVICE;
		wholememory_dtype_t cdt = t % 2 ? WHOLEMEMORY_DT_INT
						: WHOLEMEMORY_DT_INT64;
		wholememory_tensor_t R = wm_vec(g.row, GN + 1,
			WHOLEMEMORY_DT_INT64, WHOLEMEMORY_DT_INT64, ty, lo);
		wholememory_tensor_t C = wm_vec(g.col, g.ne,
			WHOLEMEMORY_DT_INT64, cdt, ty, lo);
		wholememory_tensor_t W = wm_vec(g.w, g.ne,
			WHOLEMEMORY_DT_FLOAT,
			t == 2 ? WHOLEMEMORY_DT_DOUBLE : WHOLEMEMORY_DT_FLOAT,
			ty, lo);
		for (int k = 0; k < 4; k++)
			for (uint64_t seed = 1; seed < 3; seed++) {
				check_sampling(&g, R, C, NULL, cdt, ks[k],
					       seed * 1000 + (uint64_t)t);
				check_sampling(&g, R, C, W, cdt, ks[k],
					       seed * 1000 + (uint64_t)t);
			}
		OK(wholememory_communicator_barrier(world));
		OK(wholememory_destroy_tensor(R));
		OK(wholememory_destroy_tensor(C));
		OK(wholememory_destroy_tensor(W));
	}
	test_done = true;
}
END_TEST

START_TEST(test_graph_random)
{
	int64_t a[50];
	int32_t b[50];
	float f[50];
	wholememory_tensor_t A = pt(a, 50, WHOLEMEMORY_DT_INT64);
	wholememory_tensor_t B = pt(b, 50, WHOLEMEMORY_DT_INT);
	wholememory_tensor_t F = pt(f, 50, WHOLEMEMORY_DT_FLOAT);
	OK(generate_random_positive_int_cpu(99, 7, A));
	OK(generate_random_positive_int_cpu(99, 7, B));
	OK(generate_exponential_distribution_negative_float_cpu(99, 7, F));
	struct rs r1 = rstream(99, 7), r2 = rstream(99, 7),
		  r3 = rstream(99, 7);
	size_t bad = 0;
	for (int i = 0; i < 50; i++) {
		bad += a[i] != (int64_t)(rnext(&r1) >> 1) || a[i] < 0;
		bad += b[i] != (int32_t)(rnext(&r2) >> 33) || b[i] < 0;
		float k = rkey(&r3, 1.0f);
		bad += memcmp(&f[i], &k, 4) != 0 || !(f[i] < 0);
	}
	ck_assert_uint_eq(bad, 0);
	/* another subsequence, another stream */
	int64_t a2[50];
	wholememory_tensor_t A2 = pt(a2, 50, WHOLEMEMORY_DT_INT64);
	OK(generate_random_positive_int_cpu(99, 8, A2));
	ck_assert(memcmp(a, a2, sizeof(a)) != 0);
	EQ(generate_random_positive_int_cpu(99, 7, F),
	   WHOLEMEMORY_INVALID_INPUT);
	OK(wholememory_destroy_tensor(A));
	OK(wholememory_destroy_tensor(A2));
	OK(wholememory_destroy_tensor(B));
	OK(wholememory_destroy_tensor(F));
	test_done = true;
}
END_TEST

/*
 * Weighted frequencies: one node of 5 edges of weights 1 .. 5, sampled
 * 20000 times (4000 centers naming it, seeds 1 .. 5). With fanout 1
 * edge j is drawn with probability w_j / 15: chi-square of 4 degrees of
 * freedom below 50 (a correct sampler exceeds it with probability
 * e^-25 * 26 < 4e-10). With fanout 2 the pair {i, j} has probability
 * w_i/W * w_j/(W - w_i) + w_j/W * w_i/(W - w_j): chi-square of 9
 * degrees of freedom below 64 (< 7e-10). The seeds are fixed: the
 * result is the same on every run.
 */
START_TEST(test_graph_chi_square)
{
	int64_t row[2] = { 0, 5 }, col[5] = { 10, 11, 12, 13, 14 };
	float w[5] = { 1, 2, 3, 4, 5 };
	enum { NC = 4000 };
	static int64_t cen[NC];
	static int32_t off[NC + 1];
	wholememory_tensor_t R = pt(row, 2, WHOLEMEMORY_DT_INT64);
	wholememory_tensor_t C = pt(col, 5, WHOLEMEMORY_DT_INT64);
	wholememory_tensor_t W = pt(w, 5, WHOLEMEMORY_DT_FLOAT);
	wholememory_tensor_t CT = pt(cen, NC, WHOLEMEMORY_DT_INT64);
	wholememory_tensor_t OT = pt(off, NC + 1, WHOLEMEMORY_DT_INT);
	wholememory_env_func_t env = test_env();
	for (int k = 1; k <= 2; k++) {
		double cnt[5][5] = { { 0 } };
		for (uint64_t seed = 1; seed <= 5; seed++) {
			struct out dest = { 0 }, cid = { 0 };
			OK(wholegraph_csr_weighted_sample_without_replacement(
				R, C, W, CT, k, OT, &dest, &cid, NULL, seed,
				&env, NULL));
			EQ(dest.n, NC * k);
			const int64_t *dv = dest.p;
			for (int i = 0; i < NC; i++) {
				int64_t x = dv[k * i] - 10;
				int64_t y = k == 2 ? dv[k * i + 1] - 10 : x;
				cnt[x][y] += 1;
			}
			free(dest.p);
			free(cid.p);
		}
		double chi = 0, total = 5.0 * NC;
		for (int x = 0; x < 5; x++)
			for (int y = x; y < 5; y++) {
				if (k == 1 && y != x)
					continue;
				if (k == 2 && y == x)
					continue;
				double p = k == 1 ? w[x] / 15.0
					: w[x] / 15.0 * w[y] / (15.0 - w[x]) +
					  w[y] / 15.0 * w[x] / (15.0 - w[y]);
				double ex = p * total;
				chi += (cnt[x][y] - ex) * (cnt[x][y] - ex) / ex;
			}
		if (me == 0)
			printf("weighted sampling, fanout %d: chi-square %.2f "
			       "(limit %d)\n", k, chi, k == 1 ? 50 : 64);
		ck_assert(chi < (k == 1 ? 50.0 : 64.0));
	}
	OK(wholememory_destroy_tensor(R));
	OK(wholememory_destroy_tensor(C));
	OK(wholememory_destroy_tensor(W));
	OK(wholememory_destroy_tensor(CT));
	OK(wholememory_destroy_tensor(OT));
	test_done = true;
}
END_TEST

START_TEST(test_graph_errors)
{
	int64_t row[3] = { 0, 2, 3 }, col[3] = { 1, 0, 0 }, cen[2] = { 0, 1 };
	float w[3] = { 1, -1, 1 };
	int32_t off[3];
	wholememory_tensor_t R = pt(row, 3, WHOLEMEMORY_DT_INT64);
	wholememory_tensor_t C = pt(col, 3, WHOLEMEMORY_DT_INT64);
	wholememory_tensor_t W = pt(w, 3, WHOLEMEMORY_DT_FLOAT);
	wholememory_tensor_t CT = pt(cen, 2, WHOLEMEMORY_DT_INT64);
	wholememory_tensor_t OT = pt(off, 3, WHOLEMEMORY_DT_INT);
	wholememory_tensor_t OT2 = pt(off, 2, WHOLEMEMORY_DT_INT);
	wholememory_env_func_t env = test_env();
	struct out d = { 0 }, c = { 0 };
	EQ(wholegraph_csr_unweighted_sample_without_replacement(R, C, CT, 0,
		OT, &d, &c, NULL, 1, &env, NULL), WHOLEMEMORY_INVALID_VALUE);
	EQ(wholegraph_csr_unweighted_sample_without_replacement(R, C, CT, 1,
		OT2, &d, &c, NULL, 1, &env, NULL), WHOLEMEMORY_INVALID_INPUT);
	EQ(wholegraph_csr_unweighted_sample_without_replacement(R, C, CT, 1,
		OT, NULL, &c, NULL, 1, &env, NULL), WHOLEMEMORY_INVALID_INPUT);
	/* the weights of a sampled row: -1 refused (row 0 has 2 > 1) */
	EQ(wholegraph_csr_weighted_sample_without_replacement(R, C, W, CT, 1,
		OT, &d, &c, NULL, 1, &env, NULL), WHOLEMEMORY_INVALID_VALUE);
	cen[1] = 2;
	EQ(wholegraph_csr_unweighted_sample_without_replacement(R, C, CT, 1,
		OT, &d, &c, NULL, 1, &env, NULL), WHOLEMEMORY_INVALID_VALUE);
	cen[1] = 1;
	row[1] = 4;
	EQ(wholegraph_csr_unweighted_sample_without_replacement(R, C, CT, 1,
		OT, &d, &c, NULL, 1, &env, NULL), WHOLEMEMORY_INVALID_VALUE);
	row[1] = 2;
	EQ(d.calls + c.calls, 0);
	OK(wholegraph_csr_unweighted_sample_without_replacement(R, C, CT, 1,
		OT, &d, &c, NULL, 1, &env, NULL));
	EQ(off[2], 2);
	free(d.p);
	free(c.p);
	OK(wholememory_destroy_tensor(R));
	OK(wholememory_destroy_tensor(C));
	OK(wholememory_destroy_tensor(W));
	OK(wholememory_destroy_tensor(CT));
	OK(wholememory_destroy_tensor(OT));
	OK(wholememory_destroy_tensor(OT2));
	test_done = true;
}
END_TEST

START_TEST(test_graph_unique_self_loop)
{
	for (int wide = 0; wide < 2; wide++) {
		wholememory_dtype_t dt = wide ? WHOLEMEMORY_DT_INT64
					      : WHOLEMEMORY_DT_INT;
		int64_t t64[3] = { 5, 3, 9 };
		int64_t n64[8] = { 3, 7, 7, 5, 1, 9, 2, 7 };
		int32_t t32[3], n32[8];
		for (int i = 0; i < 8; i++) {
			if (i < 3)
				t32[i] = (int32_t)t64[i];
			n32[i] = (int32_t)n64[i];
		}
		int32_t map[8];
		wholememory_tensor_t T = wide ? pt(t64, 3, dt) : pt(t32, 3, dt);
		wholememory_tensor_t N = wide ? pt(n64, 8, dt) : pt(n32, 8, dt);
		wholememory_tensor_t M = pt(map, 8, WHOLEMEMORY_DT_INT);
		wholememory_env_func_t env = test_env();
		struct out u = { 0 };
		OK(graph_append_unique(T, N, &u, M, &env, NULL));
		static const int64_t want[6] = { 5, 3, 9, 7, 1, 2 };
		static const int32_t wmap[8] = { 1, 3, 3, 0, 4, 2, 5, 3 };
		EQ(u.n, 6);
		EQ(u.dt, dt);
		ALL(6, iv(u.p, dt, (int64_t)i) == want[i]);
		ALL(8, map[i] == wmap[i]);
		free(u.p);
		u.p = NULL;
		OK(graph_append_unique(T, N, &u, NULL, &env, NULL));
		EQ(u.n, 6);
		free(u.p);
		OK(wholememory_destroy_tensor(T));
		OK(wholememory_destroy_tensor(N));
		OK(wholememory_destroy_tensor(M));

		/* rows 0: {1, 2}, 1: {}, 2: {0} */
		int64_t r64[4] = { 0, 2, 2, 3 }, c64[3] = { 1, 2, 0 };
		int32_t r32[4] = { 0, 2, 2, 3 }, c32[3] = { 1, 2, 0 };
		int64_t or64[4], oc64[6];
		int32_t or32[4], oc32[6];
		wholememory_tensor_t R = wide ? pt(r64, 4, dt) : pt(r32, 4, dt);
		wholememory_tensor_t C = wide ? pt(c64, 3, dt) : pt(c32, 3, dt);
		wholememory_tensor_t OR = wide ? pt(or64, 4, dt)
					       : pt(or32, 4, dt);
		wholememory_tensor_t OC = wide ? pt(oc64, 6, dt)
					       : pt(oc32, 6, dt);
		OK(csr_add_self_loop(R, C, OR, OC, NULL));
		static const int64_t wr[4] = { 0, 3, 4, 6 };
		static const int64_t wc[6] = { 0, 1, 2, 1, 2, 0 };
		void *orp = wide ? (void *)or64 : (void *)or32;
		void *ocp = wide ? (void *)oc64 : (void *)oc32;
		ALL(4, iv(orp, dt, (int64_t)i) == wr[i]);
		ALL(6, iv(ocp, dt, (int64_t)i) == wc[i]);
		/* outputs of the wrong size; a row pointer out of order */
		EQ(csr_add_self_loop(R, C, OR, R, NULL),
		   WHOLEMEMORY_INVALID_INPUT);
		if (wide)
			r64[1] = 4;
		else
			r32[1] = 4;
		EQ(csr_add_self_loop(R, C, OR, OC, NULL),
		   WHOLEMEMORY_INVALID_VALUE);
		OK(wholememory_destroy_tensor(R));
		OK(wholememory_destroy_tensor(C));
		OK(wholememory_destroy_tensor(OR));
		OK(wholememory_destroy_tensor(OC));
	}
	test_done = true;
}
END_TEST

void
wm_graph_tests(TCase *tc)
{
	tcase_add_test(tc, test_graph_sampling);
	tcase_add_test(tc, test_graph_random);
	tcase_add_test(tc, test_graph_chi_square);
	tcase_add_test(tc, test_graph_errors);
	tcase_add_test(tc, test_graph_unique_self_loop);
}

/* ---- several nodes ("wm_pe multinode": no check suite there) ------------ */

#define WSAMPLE wholegraph_csr_weighted_sample_without_replacement
#define USAMPLE wholegraph_csr_unweighted_sample_without_replacement

/* Sampling from a graph in DISTRIBUTED and HIERARCHY memory whose
 * partitions lie on several nodes, against the reference. The count of
 * failed checks. */
int
wm_graph_multinode(void)
{
	int fails = 0;
#define GF(c)                                                            \
	do {                                                             \
		if (!(c)) {                                              \
			fprintf(stderr, "PE %d: %s:%d: %s\n", me,        \
				__FILE__, __LINE__, #c);                 \
			fails++;                                         \
		}                                                        \
	} while (0)
	static struct csr g;
	csr_build(&g);
	int64_t ix[GN * 13];
	for (int64_t i = 0; i < g.ne; i++)
		ix[i] = i;
	for (int t = 2; t < 4; t++) {
		wholememory_tensor_t T[3] = { NULL, NULL, NULL };
		const void *src[3] = { g.row, g.col, g.w };
		int64_t len[3] = { GN + 1, g.ne, g.ne };
		wholememory_dtype_t dt[3] = { WHOLEMEMORY_DT_INT64,
					      WHOLEMEMORY_DT_INT64,
					      WHOLEMEMORY_DT_FLOAT };
		for (int a = 0; a < 3; a++) {
			wholememory_tensor_description_t d = desc1(len[a], dt[a]);
			GF(wholememory_create_tensor(&T[a], &d, world, types[t],
				WHOLEMEMORY_ML_HOST, NULL) == 0);
			wholememory_tensor_t I = NULL, S = NULL;
			wholememory_make_tensor_from_pointer(&I, ix,
				&(wholememory_tensor_description_t){
					.dim = 1, .sizes = { len[a] },
					.strides = { 1 },
					.dtype = WHOLEMEMORY_DT_INT64 });
			wholememory_make_tensor_from_pointer(&S, (void *)src[a],
							     &d);
			if (me == 0)
				GF(wholememory_scatter(S, I, T[a], NULL, NULL,
						       -1) == 0);
			wholememory_destroy_tensor(I);
			wholememory_destroy_tensor(S);
		}
		GF(wholememory_communicator_barrier(world) == 0);
		int64_t cen[GN];
		int32_t off[GN + 1];
		for (int i = 0; i < GN; i++)
			cen[i] = (i * 7 + me) % GN;
		wholememory_tensor_t CT = NULL, OT = NULL;
		wholememory_tensor_description_t cd =
			desc1(GN, WHOLEMEMORY_DT_INT64);
		wholememory_tensor_description_t od =
			desc1(GN + 1, WHOLEMEMORY_DT_INT);
		wholememory_make_tensor_from_pointer(&CT, cen, &cd);
		wholememory_make_tensor_from_pointer(&OT, off, &od);
		wholememory_env_func_t env = test_env();
		for (int w = 0; w < 2; w++) {
			struct out dest = { 0 }, cid = { 0 }, gid = { 0 };
			int r;
			if (w)
				r = WSAMPLE(
					T[0], T[1], T[2], CT, 3, OT, &dest,
					&cid, &gid, 5, &env, NULL);
			else
				r = USAMPLE(
					T[0], T[1], CT, 3, OT, &dest, &cid,
					&gid, 5, &env, NULL);
			GF(r == 0);
			int64_t e[16], q = 0;
			size_t bad = 0;
			for (size_t i = 0; !r && i < GN; i++) {
				int64_t n = ref_sample(&g, cen[i], i, 3, 5,
						       w == 1, e);
				bad += off[i] != q;
				for (int64_t j = 0; j < n; j++, q++) {
					int64_t ge = ((int64_t *)gid.p)[q];
					bad += ge != e[j];
					bad += ((int64_t *)dest.p)[q] !=
					       g.col[ge];
				}
			}
			GF(bad == 0);
			free(dest.p);
			free(cid.p);
			free(gid.p);
		}
		wholememory_destroy_tensor(CT);
		wholememory_destroy_tensor(OT);
		GF(wholememory_communicator_barrier(world) == 0);
		for (int a = 0; a < 3; a++)
			if (T[a])
				GF(wholememory_destroy_tensor(T[a]) == 0);
	}
#undef GF
	return fails;
}
