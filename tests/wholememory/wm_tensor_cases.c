// SPDX-License-Identifier: MIT
/*
 * wm_tensor_cases: the cases of a wm_pe job for WholeMemory's tensors
 * and ops (issue 29): descriptions, the global reference's stride and
 * owner rules, tensors over handles and plain memory, sub tensors, and
 * wholememory_gather / wholememory_scatter on every memory type and
 * location against a reference computed here (random rows, int32 and
 * int64 indices, element conversions, scatter then gather back), the
 * environment table and a Level Zero command list as stream.
 *
 * References of the conversions are computed independently of the
 * library: half by the compiler's _Float16, bfloat16 by rounding a
 * float's bits, integers by C's conversions.
 */
#include "wm_pe.h"

#include <wholememory/wholememory_op.h>

#include <level_zero/ze_api.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A small reproducible generator (one sequence per rank and case). */
static uint64_t
rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

static uint16_t
half_of(double v)
{
	_Float16 h = (_Float16)(float)v;
	uint16_t b;
	memcpy(&b, &h, 2);
	return b;
}

static double
half_val(uint16_t b)
{
	_Float16 h;
	memcpy(&h, &b, 2);
	return (double)h;
}

static uint16_t
bf16_of(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	u += 0x7fffu + ((u >> 16) & 1u); /* nearest, ties to even */
	return (uint16_t)(u >> 16);
}

static double
bf16_val(uint16_t b)
{
	uint32_t u = (uint32_t)b << 16;
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* The float tables' pattern: exact in float and in half. */
static float
fv(int64_t r, int64_t c)
{
	return (float)((r * 131 + c * 17) % 1021) * 0.25f - 50.0f;
}

static wholememory_tensor_t
plain(void *p, wholememory_tensor_description_t d)
{
	wholememory_tensor_t t = NULL;
	OK(wholememory_make_tensor_from_pointer(&t, p, &d));
	return t;
}

START_TEST(test_descriptions)
{
	static const size_t es[] = { 0, 4, 2, 8, 2, 4, 8, 2, 1 };
	for (int d = 0; d < WHOLEMEMORY_DT_COUNT; d++)
		EQ(wholememory_dtype_get_element_size(d), es[d]);
	EQ(wholememory_dtype_get_element_size(WHOLEMEMORY_DT_COUNT),
	   (size_t)-1);
	EQ(WHOLEMEMORY_DT_FLOAT, 1);
	EQ(WHOLEMEMORY_DT_BF16, 4);
	EQ(WHOLEMEMORY_DT_INT8, 8);
	ck_assert(wholememory_dtype_is_floating_number(WHOLEMEMORY_DT_BF16));
	ck_assert(!wholememory_dtype_is_floating_number(WHOLEMEMORY_DT_INT));
	ck_assert(wholememory_dtype_is_integer_number(WHOLEMEMORY_DT_INT8));
	ck_assert(!wholememory_dtype_is_integer_number(WHOLEMEMORY_DT_HALF));
	ck_assert(!wholememory_dtype_is_integer_number(WHOLEMEMORY_DT_UNKNOWN));

	wholememory_array_description_t a =
		wholememory_create_array_desc(10, 3, WHOLEMEMORY_DT_HALF);
	EQ(a.size, 10);
	EQ(a.storage_offset, 3);
	EQ(wholememory_get_memory_element_count_from_array(&a), 10);
	EQ(wholememory_get_memory_size_from_array(&a), 20);
	int64_t sz[2] = { 4, 5 };
	wholememory_matrix_description_t m = wholememory_create_matrix_desc(
		sz, 7, 2, WHOLEMEMORY_DT_DOUBLE);
	EQ(m.sizes[0], 4);
	EQ(m.sizes[1], 5);
	EQ(m.stride, 7);
	EQ(wholememory_get_memory_element_count_from_matrix(&m), 28);
	EQ(wholememory_get_memory_size_from_matrix(&m), 224);
	wholememory_matrix_description_t m2;
	wholememory_copy_array_desc_to_matrix(&m2, &a);
	EQ(m2.sizes[0], 10);
	EQ(m2.sizes[1], 1);
	EQ(m2.stride, 1);
	EQ(m2.storage_offset, 3);
	EQ(m2.dtype, WHOLEMEMORY_DT_HALF);

	wholememory_tensor_description_t t;
	wholememory_initialize_tensor_desc(&t);
	EQ(t.dim, 0);
	EQ(t.dtype, WHOLEMEMORY_DT_UNKNOWN);
	ALL(WHOLEMEMORY_MAX_TENSOR_DIM, t.sizes[i] == 1 && t.strides[i] == 1);
	EQ(wholememory_get_memory_element_count_from_tensor(&t), 1);
	wholememory_copy_array_desc_to_tensor(&t, &a);
	EQ(t.dim, 1);
	EQ(t.sizes[0], 10);
	EQ(t.strides[0], 1);
	EQ(t.storage_offset, 3);
	wholememory_array_description_t a2;
	ck_assert(wholememory_convert_tensor_desc_to_array(&a2, &t));
	EQ(a2.size, 10);
	EQ(a2.storage_offset, 3);
	wholememory_copy_matrix_desc_to_tensor(&t, &m);
	EQ(t.dim, 2);
	EQ(t.sizes[0], 4);
	EQ(t.sizes[1], 5);
	EQ(t.strides[0], 7);
	EQ(t.strides[1], 1);
	EQ(wholememory_get_memory_element_count_from_tensor(&t), 28);
	EQ(wholememory_get_memory_size_from_tensor(&t), 224);
	ck_assert(!wholememory_convert_tensor_desc_to_array(&a2, &t));
	ck_assert(wholememory_convert_tensor_desc_to_matrix(&m2, &t));
	EQ(m2.stride, 7);
	EQ(m2.sizes[1], 5);
	/* unsqueeze / squeeze */
	ck_assert(wholememory_unsqueeze_tensor(&t, 1));
	EQ(t.dim, 3);
	EQ(t.sizes[1], 1);
	EQ(t.strides[1], 1);
	EQ(t.sizes[2], 5);
	ck_assert(!wholememory_convert_tensor_desc_to_matrix(&m2, &t));
	ck_assert(!wholememory_squeeze_tensor(&t, 0)); /* size 4 */
	ck_assert(wholememory_squeeze_tensor(&t, 1));
	EQ(t.dim, 2);
	EQ(t.sizes[1], 5);
	EQ(t.strides[0], 7);
	ck_assert(wholememory_unsqueeze_tensor(&t, 2));
	EQ(t.dim, 3);
	EQ(t.strides[2], 1);
	ck_assert(wholememory_squeeze_tensor(&t, 2));
	ck_assert(!wholememory_unsqueeze_tensor(&t, 3));
	ck_assert(!wholememory_unsqueeze_tensor(&t, -1));
	ck_assert(!wholememory_unsqueeze_tensor(NULL, 0));
	wholememory_tensor_description_t one = desc1(6, WHOLEMEMORY_DT_INT);
	ck_assert(wholememory_unsqueeze_tensor(&one, 1));
	EQ(one.dim, 2);
	EQ(one.sizes[0], 6);
	EQ(one.sizes[1], 1);
	EQ(one.strides[0], 1);
	EQ(one.strides[1], 1);
	for (int k = 2; k < WHOLEMEMORY_MAX_TENSOR_DIM; k++)
		ck_assert(wholememory_unsqueeze_tensor(&one, 0));
	ck_assert(!wholememory_unsqueeze_tensor(&one, 0));
	t.dtype = WHOLEMEMORY_DT_UNKNOWN;
	ck_assert(!wholememory_convert_tensor_desc_to_matrix(&m2, &t));
	test_done = true;
}
END_TEST

START_TEST(test_gref_rules)
{
	wholememory_gref_t c = wholememory_create_continuous_global_reference(
		&c);
	ck_assert_ptr_eq(c.pointer, &c);
	EQ(c.stride, 0);
	/* a partition of unequal ranks: r + 1 entries of 64 bytes */
	size_t part[8], total = 0;
	for (int r = 0; r < np; r++) {
		part[r] = (size_t)r + 1;
		total += part[r] * 64;
	}
	for (int l = 0; l < 2; l++) {
		for (int t = 0; t < 2; t++) {
			wholememory_handle_t h;
			OK(wholememory_malloc(&h, total, world, types[t],
					      locs[l], 64, part));
			uint64_t *lp;
			size_t ls, lo;
			OK(wholememory_get_local_memory((void **)&lp, &ls, &lo,
							h));
			ALL(ls / 8, (lp[i] = pat(lo / 8 + i, 99)) != 0 || 1);
			OK(wholememory_communicator_barrier(world));
			wholememory_gref_t g;
			OK(wholememory_get_global_reference(&g, h));
			EQ(g.world_size, np);
			if (types[t] == WHOLEMEMORY_MT_CHUNKED &&
			    locs[l] == WHOLEMEMORY_ML_DEVICE) {
				/* unequal: the owner from the offsets */
				ck_assert(g.same_chunk == (np == 1));
				EQ(g.stride, (size_t)np * 64);
				char **rp = g.pointer;
				size_t bad = 0;
				for (size_t w = 0; w < total / 8; w++) {
					int r = 0;
					while (g.rank_memory_offsets[r + 1] <=
					       w * 8)
						r++;
					size_t in = w * 8 -
						    g.rank_memory_offsets[r];
					uint64_t *p = (uint64_t *)(rp[r] + in);
					bad += *p != pat(w, 99);
				}
				EQ(bad, 0);
			} else {
				EQ(g.stride, 0);
				ALL(total / 8, ((uint64_t *)g.pointer)[i] ==
						       pat(i, 99));
			}
			OK(wholememory_communicator_barrier(world));
			OK(wholememory_free(h));
		}
	}
	test_done = true;
}
END_TEST

/* Gathers of n random rows of T (rows x cols floats, fv) through
 * indices of both types into outputs of every float type. */
static void
gather_floats(wholememory_tensor_t T, int64_t rows, int64_t cols,
	      int64_t r0, int64_t c0, uint64_t seed)
{
	enum { N = 400 };
	int64_t *i64 = malloc(sizeof(int64_t) * (N + 1));
	int32_t *i32 = malloc(sizeof(int32_t) * N);
	for (int i = 0; i <= N; i++)
		i64[i] = (int64_t)(rnd(&seed) % (uint64_t)rows);
	for (int i = 0; i < N; i++)
		i32[i] = (int32_t)i64[i + 1];
	/* the int64 indices through a sub tensor: elements [1, N] */
	wholememory_tensor_t I64a =
		plain(i64, desc1(N + 1, WHOLEMEMORY_DT_INT64));
	wholememory_tensor_t I64;
	int64_t st = 1, en = N + 1;
	OK(wholememory_tensor_get_subtensor(I64a, &st, &en, &I64));
	ck_assert_ptr_eq(wholememory_tensor_get_root(I64), I64a);
	wholememory_tensor_t I32 = plain(i32, desc1(N, WHOLEMEMORY_DT_INT));
	static const wholememory_dtype_t dts[] = {
		WHOLEMEMORY_DT_FLOAT, WHOLEMEMORY_DT_DOUBLE,
		WHOLEMEMORY_DT_HALF, WHOLEMEMORY_DT_BF16,
	};
	/* rows of the output strided by cols + 3, from element 2 */
	int64_t os = cols + 3;
	char *out = malloc((size_t)(N * os + 2) * 8);
	for (int k = 0; k < 4; k++) {
		for (int w = 0; w < 2; w++) {
			wholememory_tensor_description_t od =
				desc2(N, cols, os, dts[k]);
			od.storage_offset = 2;
			memset(out, 0x5a, (size_t)(N * os + 2) * 8);
			wholememory_tensor_t O = plain(out, od);
			OK(wholememory_gather(T, w ? I64 : I32, O, NULL, NULL,
					      -1));
			size_t bad = 0, es = wholememory_dtype_get_element_size(
						dts[k]);
			for (int i = 0; i < N; i++)
				for (int64_t c = 0; c < cols; c++) {
					float v = fv(r0 + i64[i + 1], c0 + c);
					size_t at = (size_t)(2 + i * os + c);
					char *p = out + at * es;
					float f;
					double d;
					uint16_t h;
					switch (dts[k]) {
					case WHOLEMEMORY_DT_FLOAT:
						memcpy(&f, p, 4);
						bad += f != v;
						break;
					case WHOLEMEMORY_DT_DOUBLE:
						memcpy(&d, p, 8);
						bad += d != v;
						break;
					case WHOLEMEMORY_DT_HALF:
						memcpy(&h, p, 2);
						bad += h != half_of(v);
						break;
					default:
						memcpy(&h, p, 2);
						bad += h != bf16_of(v);
						break;
					}
				}
			EQ(bad, 0);
			/* the padding between rows is untouched */
			ck_assert_uint_eq((uint8_t)out[0], 0x5a);
			OK(wholememory_destroy_tensor(O));
		}
	}
	OK(wholememory_destroy_tensor(I64));
	OK(wholememory_destroy_tensor(I64a));
	OK(wholememory_destroy_tensor(I32));
	free(out);
	free(i64);
	free(i32);
}

static void
float_table(wholememory_memory_type_t type, wholememory_memory_location_t loc)
{
	const int64_t R = 300 + np, C = 6, S = 8;
	wholememory_tensor_description_t d = desc2(R, C, S,
						   WHOLEMEMORY_DT_FLOAT);
	wholememory_tensor_t T;
	OK(wholememory_create_tensor(&T, &d, world, type, loc, NULL));
	ck_assert(wholememory_tensor_has_handle(T));
	wholememory_handle_t h = wholememory_tensor_get_memory_handle(T);
	EQ(wholememory_get_memory_type(h), type);
	EQ(wholememory_get_memory_location(h), loc);
	EQ(wholememory_get_total_size(h), (size_t)(R * S * 4));
	EQ(wholememory_get_data_granularity(h), (size_t)S * 4);
	wholememory_tensor_description_t *td =
		wholememory_tensor_get_tensor_description(T);
	EQ(td->dim, 2);
	EQ(td->sizes[0], R);
	EQ(td->strides[0], S);
	ck_assert_ptr_eq(wholememory_tensor_get_root(T), T);
	/* rows per rank: the default plan */
	size_t plan[8], offs[9], sizes[8], cnt, start;
	OK(wholememory_equal_entry_partition_plan(plan, (size_t)R, np));
	OK(wholememory_tensor_get_entry_offsets(offs, T));
	OK(wholememory_tensor_get_entry_partition_sizes(sizes, T));
	size_t o = 0;
	for (int r = 0; r < np; r++) {
		EQ(offs[r], o);
		EQ(sizes[r], plan[r]);
		o += plan[r];
	}
	EQ(offs[np], (size_t)R);
	OK(wholememory_tensor_get_local_entry_count(&cnt, T));
	OK(wholememory_tensor_get_local_entry_start(&start, T));
	EQ(cnt, plan[me]);
	EQ(start, offs[me]);
	/* this rank's rows through its local tensor */
	wholememory_tensor_t L;
	OK(wholememory_tensor_map_local_tensor(T, &L));
	ck_assert(!wholememory_tensor_has_handle(L));
	ck_assert_ptr_null(wholememory_tensor_get_memory_handle(L));
	EQ(wholememory_tensor_get_tensor_description(L)->sizes[0],
	   (int64_t)cnt);
	float *lp = wholememory_tensor_get_data_pointer(L);
	for (size_t i = 0; i < cnt; i++)
		for (int64_t c = 0; c < C; c++)
			lp[i * S + c] = fv((int64_t)(start + i), c);
	OK(wholememory_destroy_tensor(L));
	OK(wholememory_communicator_barrier(world));
	void *dp = wholememory_tensor_get_data_pointer(T);
	if (type == WHOLEMEMORY_MT_CONTINUOUS) {
		void *gp;
		OK(wholememory_get_global_pointer(&gp, h));
		ck_assert_ptr_eq(dp, gp);
	} else {
		ck_assert_ptr_null(dp);
	}
	wholememory_gref_t g;
	if (type == WHOLEMEMORY_MT_CONTINUOUS ||
	    type == WHOLEMEMORY_MT_CHUNKED) {
		OK(wholememory_tensor_get_global_reference(T, &g));
		/* row r's first float by the reference's rules */
		size_t bad = 0;
		for (int64_t r = 0; r < R; r++) {
			size_t off = (size_t)(r * S * 4);
			float *p = g.stride ?
				(float *)(((char **)g.pointer)[off / g.stride] +
					  off % g.stride) :
				(float *)((char *)g.pointer + off);
			bad += *p != fv(r, 0);
		}
		EQ(bad, 0);
	} else {
		EQ(wholememory_tensor_get_global_reference(T, &g),
		   WHOLEMEMORY_INVALID_INPUT);
	}
	uint64_t seed = (uint64_t)me * 1000 + type * 10 + loc;
	gather_floats(T, R, C, 0, 0, seed);
	/* a sub tensor: rows [5, R - 3), columns [2, 5) */
	wholememory_tensor_t sub;
	int64_t ss[2] = { 5, 2 }, se[2] = { R - 3, 5 };
	OK(wholememory_tensor_get_subtensor(T, ss, se, &sub));
	ck_assert_ptr_eq(wholememory_tensor_get_root(sub), T);
	ck_assert(wholememory_tensor_has_handle(sub));
	EQ(wholememory_tensor_get_tensor_description(sub)->storage_offset,
	   5 * S + 2);
	gather_floats(sub, R - 8, 3, 5, 2, seed + 1);
	int64_t bs[2] = { 0, 4 }, be[2] = { -1, 3 };
	wholememory_tensor_t no = NULL;
	EQ(wholememory_tensor_get_subtensor(T, bs, be, &no),
	   WHOLEMEMORY_INVALID_INPUT);
	ck_assert_ptr_null(no);
	OK(wholememory_destroy_tensor(sub));

	/* errors: nothing written */
	float out[4 * C];
	memset(out, 0, sizeof(out));
	int64_t bad_idx[4] = { 0, 1, R, 2 };
	wholememory_tensor_t BI =
		plain(bad_idx, desc1(4, WHOLEMEMORY_DT_INT64));
	wholememory_tensor_t O = plain(out, desc2(4, C, C,
						  WHOLEMEMORY_DT_FLOAT));
	EQ(wholememory_gather(T, BI, O, NULL, NULL, -1),
	   WHOLEMEMORY_INVALID_VALUE);
	EQ(wholememory_scatter(O, BI, T, NULL, NULL, -1),
	   WHOLEMEMORY_INVALID_VALUE);
	ALL(4 * C, out[i] == 0);
	bad_idx[2] = -1;
	EQ(wholememory_gather(T, BI, O, NULL, NULL, -1),
	   WHOLEMEMORY_INVALID_VALUE);
	bad_idx[2] = 3;
	int32_t iout[4 * C];
	wholememory_tensor_t IO = plain(iout, desc2(4, C, C,
						    WHOLEMEMORY_DT_INT));
	EQ(wholememory_gather(T, BI, IO, NULL, NULL, -1),
	   WHOLEMEMORY_NOT_SUPPORTED);
	wholememory_tensor_t O3 = plain(out, desc2(3, C, C,
						   WHOLEMEMORY_DT_FLOAT));
	EQ(wholememory_gather(T, BI, O3, NULL, NULL, -1),
	   WHOLEMEMORY_INVALID_INPUT);
	wholememory_tensor_t FI = plain(out, desc1(4, WHOLEMEMORY_DT_FLOAT));
	EQ(wholememory_gather(T, FI, O, NULL, NULL, -1),
	   WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_gather(T, BI, T, NULL, NULL, -1),
	   WHOLEMEMORY_INVALID_INPUT);
	wholememory_env_func_t broken = *wholememoryx_get_default_env_func();
	broken.temporary_fns.malloc_fn = NULL;
	EQ(wholememory_gather(T, BI, O, &broken, NULL, -1),
	   WHOLEMEMORY_INVALID_INPUT);
	ALL(4 * C, out[i] == 0);
	OK(wholememory_destroy_tensor(FI));
	OK(wholememory_destroy_tensor(O3));
	OK(wholememory_destroy_tensor(IO));
	OK(wholememory_destroy_tensor(O));
	OK(wholememory_destroy_tensor(BI));

	/* scatter then gather back: each rank its rows r % np == me, from
	 * doubles (rounded into the float table), each row twice in one
	 * call (a stale value first: the last wins) */
	OK(wholememory_communicator_barrier(world));
	size_t mine = 0;
	for (int64_t r = me; r < R; r += np)
		mine++;
	int32_t *si = malloc(sizeof(int32_t) * 2 * mine);
	double *sv = malloc(sizeof(double) * 2 * mine * (size_t)C);
	size_t k = 0;
	for (int64_t r = me; r < R; r += np, k++) {
		si[k] = (int32_t)r;
		si[mine + k] = (int32_t)r;
		for (int64_t c = 0; c < C; c++) {
			sv[k * C + c] = 1e9;
			sv[(mine + k) * C + c] = -2.0 * fv(r, c) + 1.0 / 3.0;
		}
	}
	wholememory_tensor_t SI =
		plain(si, desc1((int64_t)(2 * mine),
						  WHOLEMEMORY_DT_INT));
	wholememory_tensor_t SV = plain(sv, desc2((int64_t)(2 * mine), C, C,
						  WHOLEMEMORY_DT_DOUBLE));
	OK(wholememory_scatter(SV, SI, T, NULL, NULL, -1));
	OK(wholememory_communicator_barrier(world));
	int64_t *all = malloc(sizeof(int64_t) * (size_t)R);
	float *back = malloc(sizeof(float) * (size_t)(R * C));
	for (int64_t r = 0; r < R; r++)
		all[r] = R - 1 - r;
	wholememory_tensor_t AI = plain(all, desc1(R, WHOLEMEMORY_DT_INT64));
	wholememory_tensor_t B = plain(back, desc2(R, C, C,
						   WHOLEMEMORY_DT_FLOAT));
	OK(wholememory_gather(T, AI, B, NULL, NULL, -1));
	ALL(R * C, back[i] == (float)(-2.0 * fv(R - 1 - (int64_t)i / C,
					       (int64_t)i % C) + 1.0 / 3.0));
	OK(wholememory_destroy_tensor(AI));
	OK(wholememory_destroy_tensor(B));
	OK(wholememory_destroy_tensor(SI));
	OK(wholememory_destroy_tensor(SV));
	free(all);
	free(back);
	free(si);
	free(sv);
	OK(wholememory_communicator_barrier(world));
	OK(wholememory_destroy_tensor(T));
	EQ(wholememory_destroy_tensor(T), WHOLEMEMORY_INVALID_INPUT);
}

/* A 1-D int64 table: gathers into every integer type (truncation),
 * scatters from int16 (sign extension). */
static void
int_table(wholememory_memory_type_t type, wholememory_memory_location_t loc)
{
	const int64_t R = 50 + 3 * np;
	wholememory_tensor_description_t d = desc1(R, WHOLEMEMORY_DT_INT64);
	wholememory_tensor_t T;
	OK(wholememory_create_tensor(&T, &d, world, type, loc, NULL));
	wholememory_tensor_t L;
	size_t start, cnt;
	OK(wholememory_tensor_get_local_entry_start(&start, T));
	OK(wholememory_tensor_get_local_entry_count(&cnt, T));
	OK(wholememory_tensor_map_local_tensor(T, &L));
	int64_t *lp = wholememory_tensor_get_data_pointer(L);
	for (size_t i = 0; i < cnt; i++)
		lp[i] = (int64_t)((start + i) * 0x100000001234567ull) - 77;
	OK(wholememory_destroy_tensor(L));
	OK(wholememory_communicator_barrier(world));
	int32_t idx[64];
	uint64_t seed = (uint64_t)me * 31 + type;
	for (int i = 0; i < 64; i++)
		idx[i] = (int32_t)(rnd(&seed) % (uint64_t)R);
	wholememory_tensor_t I = plain(idx, desc1(64, WHOLEMEMORY_DT_INT));
	int64_t o64[64];
	int32_t o32[64];
	int16_t o16[64];
	int8_t o8[64];
	void *outs[4] = { o64, o32, o16, o8 };
	static const wholememory_dtype_t dts[4] = {
		WHOLEMEMORY_DT_INT64, WHOLEMEMORY_DT_INT, WHOLEMEMORY_DT_INT16,
		WHOLEMEMORY_DT_INT8,
	};
	for (int k = 0; k < 4; k++) {
		wholememory_tensor_t O = plain(outs[k], desc1(64, dts[k]));
		OK(wholememory_gather(T, I, O, NULL, NULL, -1));
		OK(wholememory_destroy_tensor(O));
	}
#define IV(r) ((int64_t)((uint64_t)(r) * 0x100000001234567ull) - 77)
	ALL(64, o64[i] == IV(idx[i]));
	ALL(64, o32[i] == (int32_t)(uint32_t)(uint64_t)IV(idx[i]));
	ALL(64, o16[i] == (int16_t)(uint16_t)(uint64_t)IV(idx[i]));
	ALL(64, o8[i] == (int8_t)(uint8_t)(uint64_t)IV(idx[i]));
	OK(wholememory_communicator_barrier(world));
	/* rank 0 scatters -i - 1 (int16) into every row */
	if (me == 0) {
		int16_t v[256];
		int64_t all[256];
		for (int64_t r = 0; r < R; r++) {
			v[r] = (int16_t)(-r - 1);
			all[r] = r;
		}
		wholememory_tensor_t V =
			plain(v, desc1(R, WHOLEMEMORY_DT_INT16));
		wholememory_tensor_t A =
			plain(all, desc1(R, WHOLEMEMORY_DT_INT64));
		OK(wholememory_scatter(V, A, T, NULL, NULL, -1));
		OK(wholememory_destroy_tensor(V));
		OK(wholememory_destroy_tensor(A));
	}
	OK(wholememory_communicator_barrier(world));
	wholememory_tensor_t O = plain(o64, desc1(64, WHOLEMEMORY_DT_INT64));
	OK(wholememory_gather(T, I, O, NULL, NULL, -1));
	ALL(64, o64[i] == -(int64_t)idx[i] - 1);
	OK(wholememory_destroy_tensor(O));
	OK(wholememory_destroy_tensor(I));
	OK(wholememory_communicator_barrier(world));
	OK(wholememory_destroy_tensor(T));
}

/* A tensor over a handle made by wholememory_malloc: the handle stays
 * the caller's. */
static void
handle_tensor(wholememory_memory_type_t type,
	      wholememory_memory_location_t loc)
{
	const int64_t R = 40;
	wholememory_handle_t h;
	OK(wholememory_malloc(&h, (size_t)R * 16, world, type, loc, 16,
			      NULL));
	wholememory_tensor_description_t d = desc2(R, 2, 2,
						   WHOLEMEMORY_DT_INT64);
	wholememory_tensor_t T = NULL;
	d.sizes[0] = R + 1;
	EQ(wholememory_make_tensor_from_handle(&T, h, &d),
	   WHOLEMEMORY_INVALID_VALUE);
	d.sizes[0] = R;
	d.dim = 3;
	EQ(wholememory_make_tensor_from_handle(&T, h, &d),
	   WHOLEMEMORY_INVALID_INPUT);
	d.dim = 2;
	OK(wholememory_make_tensor_from_handle(&T, h, &d));
	ck_assert(wholememory_tensor_has_handle(T));
	ck_assert_ptr_eq(wholememory_tensor_get_memory_handle(T), h);
	if (me == np - 1) {
		int64_t v[2 * 40], idx[40];
		for (int64_t r = 0; r < R; r++) {
			idx[r] = r;
			v[2 * r] = r * 3;
			v[2 * r + 1] = -r;
		}
		wholememory_tensor_t V = plain(v, desc2(R, 2, 2,
							WHOLEMEMORY_DT_INT64));
		wholememory_tensor_t I =
			plain(idx, desc1(R, WHOLEMEMORY_DT_INT64));
		OK(wholememory_scatter(V, I, T, NULL, NULL, -1));
		OK(wholememory_destroy_tensor(V));
		OK(wholememory_destroy_tensor(I));
	}
	OK(wholememory_communicator_barrier(world));
	/* the rows through the extension on the handle */
	int64_t idx[40], out[80];
	for (int64_t r = 0; r < R; r++)
		idx[r] = R - 1 - r;
	OK(wholememoryx_gather(h, idx, (size_t)R, out, 16));
	ALL(R, out[2 * i] == (R - 1 - (int64_t)i) * 3 &&
		       out[2 * i + 1] == -(R - 1 - (int64_t)i));
	OK(wholememory_destroy_tensor(T));
	EQ(wholememory_get_total_size(h), (size_t)R * 16);
	OK(wholememory_communicator_barrier(world));
	OK(wholememory_free(h));
}

START_TEST(test_tensor_ops)
{
	for (int t = 0; t < 4; t++)
		for (int l = 0; l < 2; l++) {
			float_table(types[t], locs[l]);
			int_table(types[t], locs[l]);
			handle_tensor(types[t], locs[l]);
		}
	EQ(get_wholememory_tensor_count(), 0);
	test_done = true;
}
END_TEST

START_TEST(test_plain_tensors)
{
	/* a table over plain memory: gather, scatter, its reference */
	float tab[20 * 4];
	for (int r = 0; r < 20; r++)
		for (int c = 0; c < 4; c++)
			tab[r * 4 + c] = fv(r, c);
	wholememory_tensor_t T = plain(tab, desc2(20, 4, 4,
						  WHOLEMEMORY_DT_FLOAT));
	ck_assert(!wholememory_tensor_has_handle(T));
	ck_assert_ptr_eq(wholememory_tensor_get_data_pointer(T), tab);
	wholememory_gref_t g;
	OK(wholememory_tensor_get_global_reference(T, &g));
	ck_assert_ptr_eq(g.pointer, tab);
	EQ(g.stride, 0);
	wholememory_tensor_t L;
	EQ(wholememory_tensor_map_local_tensor(T, &L),
	   WHOLEMEMORY_INVALID_VALUE);
	size_t z;
	EQ(wholememory_tensor_get_local_entry_count(&z, T),
	   WHOLEMEMORY_INVALID_INPUT);
	int64_t idx[3] = { 19, 0, 7 };
	double out[3 * 4];
	wholememory_tensor_t I = plain(idx, desc1(3, WHOLEMEMORY_DT_INT64));
	wholememory_tensor_t O = plain(out, desc2(3, 4, 4,
						  WHOLEMEMORY_DT_DOUBLE));
	OK(wholememory_gather(T, I, O, wholememoryx_get_default_env_func(),
			      NULL, -1));
	ALL(12, out[i] == fv(idx[i / 4], (int64_t)i % 4));
	for (int i = 0; i < 12; i++)
		out[i] = -out[i];
	OK(wholememory_scatter(O, I, T, NULL, NULL, -1));
	ck_assert(tab[19 * 4 + 1] == -fv(19, 1));
	ck_assert(tab[1 * 4 + 1] == fv(1, 1));
	OK(wholememory_destroy_tensor(I));
	OK(wholememory_destroy_tensor(O));
	OK(wholememory_destroy_tensor(T));
	/* a scalar and a NULL storage are tensors too */
	wholememory_tensor_description_t s;
	wholememory_initialize_tensor_desc(&s);
	wholememory_tensor_t S = plain(NULL, s);
	ck_assert_ptr_null(wholememory_tensor_get_data_pointer(S));
	OK(wholememory_destroy_tensor(S));
	wholememory_tensor_description_t bad = desc2(2, 2, 2,
						     WHOLEMEMORY_DT_COUNT);
	EQ(wholememory_make_tensor_from_pointer(&S, tab, &bad),
	   WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_destroy_tensor(NULL), WHOLEMEMORY_INVALID_INPUT);
	ck_assert(!wholememory_tensor_has_handle(NULL));
	ck_assert_ptr_null(wholememory_tensor_get_tensor_description(NULL));
	ck_assert_ptr_null(wholememory_tensor_get_root(NULL));
	/* rounding: half and bfloat16 of values between representable
	 * ones, ties, overflow, subnormals, NaN */
	static const float vals[] = {
		1.0f + 1.0f / 2048, 1.0f + 3.0f / 2048, 65504.0f, 65520.0f,
		1e6f, 6e-8f, 1e-7f, 3e-5f, -2.5e-6f, 1.00390625f, 1.01171875f,
		3.4e38f, -0.0f, 1e-40f,
	};
	enum { NV = sizeof(vals) / sizeof(vals[0]) };
	int64_t vi[NV];
	uint16_t h16[NV], b16[NV];
	for (int i = 0; i < NV; i++)
		vi[i] = i;
	float vt[NV];
	memcpy(vt, vals, sizeof(vt));
	wholememory_tensor_t VT = plain(vt, desc1(NV, WHOLEMEMORY_DT_FLOAT));
	wholememory_tensor_t VI = plain(vi, desc1(NV, WHOLEMEMORY_DT_INT64));
	wholememory_tensor_t H = plain(h16, desc1(NV, WHOLEMEMORY_DT_HALF));
	wholememory_tensor_t B = plain(b16, desc1(NV, WHOLEMEMORY_DT_BF16));
	OK(wholememory_gather(VT, VI, H, NULL, NULL, -1));
	OK(wholememory_gather(VT, VI, B, NULL, NULL, -1));
	ALL(NV, h16[i] == half_of(vals[i]));
	ALL(NV, b16[i] == bf16_of(vals[i]));
	/* and back: exact */
	float back[NV];
	wholememory_tensor_t F = plain(back, desc1(NV, WHOLEMEMORY_DT_FLOAT));
	OK(wholememory_gather(H, VI, F, NULL, NULL, -1));
	ALL(NV, back[i] == (float)half_val(h16[i]));
	OK(wholememory_gather(B, VI, F, NULL, NULL, -1));
	ALL(NV, back[i] == (float)bf16_val(b16[i]));
	vt[0] = __builtin_nanf("");
	OK(wholememory_gather(VT, VI, H, NULL, NULL, -1));
	OK(wholememory_gather(VT, VI, B, NULL, NULL, -1));
	ck_assert((h16[0] & 0x7c00) == 0x7c00 && (h16[0] & 0x3ff));
	ck_assert((b16[0] & 0x7f80) == 0x7f80 && (b16[0] & 0x7f));
	OK(wholememory_destroy_tensor(VT));
	OK(wholememory_destroy_tensor(VI));
	OK(wholememory_destroy_tensor(H));
	OK(wholememory_destroy_tensor(B));
	OK(wholememory_destroy_tensor(F));
	EQ(get_wholememory_tensor_count(), 0);
	test_done = true;
}
END_TEST

/* An environment table that counts its temporary memory. */
static int env_created, env_destroyed, env_mallocs, env_frees;

static void
cnt_create(void **ctx, void *g)
{
	ck_assert_ptr_eq(g, &env_created);
	*ctx = calloc(1, sizeof(void *));
	env_created++;
}

static void
cnt_destroy(void *ctx, void *g)
{
	(void)g;
	free(ctx);
	env_destroyed++;
}

static void *
cnt_malloc(wholememory_tensor_description_t *d,
	   wholememory_memory_allocation_type_t t, void *ctx, void *g)
{
	(void)g;
	EQ(t, WHOLEMEMORY_MA_HOST);
	void **slot = ctx;
	*slot = malloc((size_t)wholememory_get_memory_size_from_tensor(d));
	env_mallocs++;
	return *slot;
}

static void
cnt_free(void *ctx, void *g)
{
	(void)g;
	void **slot = ctx;
	free(*slot);
	env_frees++;
}

START_TEST(test_env_and_stream)
{
	wholememory_env_func_t env = {
		.temporary_fns = { cnt_create, cnt_destroy, cnt_malloc,
				   cnt_free, &env_created },
	};
	/* DISTRIBUTED moves rows by RMA: converted rows use the table */
	const int64_t R = 64;
	wholememory_tensor_description_t d = desc2(R, 3, 3,
						   WHOLEMEMORY_DT_FLOAT);
	wholememory_tensor_t T;
	OK(wholememory_create_tensor(&T, &d, world, WHOLEMEMORY_MT_DISTRIBUTED,
				     WHOLEMEMORY_ML_HOST, NULL));
	if (me == 0) {
		double v[64 * 3];
		int32_t all[64];
		for (int r = 0; r < R; r++) {
			all[r] = r;
			for (int c = 0; c < 3; c++)
				v[r * 3 + c] = fv(r, c);
		}
		wholememory_tensor_t V = plain(v, desc2(R, 3, 3,
							WHOLEMEMORY_DT_DOUBLE));
		wholememory_tensor_t A =
			plain(all, desc1(R, WHOLEMEMORY_DT_INT));
		OK(wholememory_scatter(V, A, T, &env, NULL, -1));
		ck_assert_int_gt(env_mallocs, 0);
		OK(wholememory_destroy_tensor(V));
		OK(wholememory_destroy_tensor(A));
	}
	OK(wholememory_communicator_barrier(world));
	int32_t *idx = NULL;
	uint16_t h[8 * 3];
	int before = env_mallocs;
	/* the indices in device-reachable host memory (a command list
	 * fills them) */
	ze_driver_handle_t drv = NULL;
	ze_device_handle_t dev = NULL;
	ze_context_handle_t ctx = NULL;
	uint32_t n = 1;
	ck_assert_int_eq(zeDriverGet(&n, &drv), ZE_RESULT_SUCCESS);
	n = 1;
	ck_assert_int_eq(zeDeviceGet(drv, &n, &dev), ZE_RESULT_SUCCESS);
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	ck_assert_int_eq(zeContextCreate(drv, &cd, &ctx), ZE_RESULT_SUCCESS);
	ze_host_mem_alloc_desc_t hd = {
		.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC,
	};
	ck_assert_int_eq(zeMemAllocHost(ctx, &hd, 8 * sizeof(int32_t), 64,
					(void **)&idx), ZE_RESULT_SUCCESS);
	for (int i = 0; i < 8; i++)
		idx[i] = (i * 5 + me) % (int)R;
	wholememory_tensor_t I = plain(idx, desc1(8, WHOLEMEMORY_DT_INT));
	wholememory_tensor_t H = plain(h, desc2(8, 3, 3, WHOLEMEMORY_DT_HALF));
	OK(wholememory_gather(T, I, H, &env, NULL, -1));
	ck_assert_int_gt(env_mallocs, before);
	ALL(8 * 3, h[i] == half_of(fv(idx[i / 3], (int64_t)i % 3)));
	EQ(env_mallocs, env_frees);
	EQ(env_created, env_destroyed);

	/* a command list as stream: zemem's loader has what it takes,
	 * Debian's 1.8 not (then NOT_SUPPORTED) */
	bool have = dlsym(RTLD_DEFAULT, "zeCommandListIsImmediate") &&
		    dlsym(RTLD_DEFAULT, "zeCommandListHostSynchronize");
	if (getenv("WM_PE_EXPECT_CMDLIST"))
		ck_assert_msg(have, "this loader lacks "
			      "zeCommandListIsImmediate");
	ze_command_queue_desc_t qd = {
		.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
		.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
	};
	ze_command_list_handle_t imm = NULL, reg = NULL;
	ck_assert_int_eq(zeCommandListCreateImmediate(ctx, dev, &qd, &imm),
			 ZE_RESULT_SUCCESS);
	ze_command_list_desc_t ld = {
		.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC,
	};
	ck_assert_int_eq(zeCommandListCreate(ctx, dev, &ld, &reg),
			 ZE_RESULT_SUCCESS);
	/* the list sets every index to 9 first; the gather, in the list's
	 * order, reads them */
	int32_t nine = 9;
	ck_assert_int_eq(zeCommandListAppendMemoryFill(imm, idx, &nine, 4,
						       8 * sizeof(int32_t),
						       NULL, 0, NULL),
			 ZE_RESULT_SUCCESS);
	int e = wholememory_gather(T, I, H, NULL, imm, -1);
	if (have) {
		OK(e);
		ALL(8, idx[i] == 9);
		ALL(8 * 3, h[i] == half_of(fv(9, (int64_t)i % 3)));
	} else {
		EQ(e, WHOLEMEMORY_NOT_SUPPORTED);
	}
	EQ(wholememory_gather(T, I, H, NULL, reg, -1),
	   WHOLEMEMORY_NOT_SUPPORTED);
	EQ(wholememory_scatter(H, I, T, NULL, reg, -1),
	   WHOLEMEMORY_NOT_SUPPORTED);
	zeCommandListDestroy(reg);
	zeCommandListDestroy(imm);
	OK(wholememory_destroy_tensor(I));
	OK(wholememory_destroy_tensor(H));
	zeMemFree(ctx, idx);
	zeContextDestroy(ctx);
	OK(wholememory_communicator_barrier(world));
	OK(wholememory_destroy_tensor(T));
	test_done = true;
}
END_TEST

void
wm_tensor_tests(TCase *tc)
{
	tcase_add_test(tc, test_descriptions);
	tcase_add_test(tc, test_gref_rules);
	tcase_add_test(tc, test_tensor_ops);
	tcase_add_test(tc, test_plain_tensors);
	tcase_add_test(tc, test_env_and_stream);
}
