// SPDX-License-Identifier: MIT
/*
 * wm_pe.h: what the cases of one wm_pe job share (wm_pe.c: the job and
 * the handle cases; wm_tensor_cases.c: tensors and their ops).
 */
#ifndef WM_PE_H
#define WM_PE_H

#include <check.h>
#include <stdbool.h>
#include <stdint.h>

#include <wholememory/wholememory.h>
#include <wholememory/wholememory_tensor.h>

#define EQ(a, b) ck_assert_int_eq((a), (b))
#define OK(x) EQ((x), WHOLEMEMORY_SUCCESS)
/* cond holds for every i in [0, n): one assertion (check's assertions
 * are slow in hot loops without fork) */
#define ALL(n, cond)                                                     \
	do {                                                             \
		size_t bad_ = 0;                                         \
		for (size_t i = 0; i < (size_t)(n); i++)                 \
			bad_ += !(cond);                                 \
		ck_assert_uint_eq(bad_, 0);                              \
	} while (0)

extern wholememory_comm_t world;
extern int me, np;
/* set by a test that ran to its end (wm_pe.c's teardown) */
extern bool test_done;
extern const wholememory_memory_type_t types[4];
extern const wholememory_memory_location_t locs[2];
/* The value of 8-byte word w of the table in the tests' pattern. */
uint64_t pat(uint64_t w, uint64_t salt);
/* wm_tensor_cases.c */
void wm_tensor_tests(TCase *tc);
/* wm_emb_cases.c, wm_graph_cases.c */
void wm_emb_tests(TCase *tc);
void wm_graph_tests(TCase *tc);
/* embeddings of each cache kind through their calls (the leak round) */
void wm_emb_leak_round(void);
/* "wm_pe multinode": embeddings and sampling across nodes (the count of
 * failed checks, each printed) */
int wm_emb_multinode(void);
int wm_graph_multinode(void);

/* A 1-D description of n elements, and a 2-D one of rows x cols with a
 * row stride (in elements). */
static inline wholememory_tensor_description_t
desc1(int64_t n, wholememory_dtype_t dt)
{
	wholememory_tensor_description_t d;
	wholememory_initialize_tensor_desc(&d);
	d.dim = 1;
	d.sizes[0] = n;
	d.dtype = dt;
	return d;
}

static inline wholememory_tensor_description_t
desc2(int64_t rows, int64_t cols, int64_t stride, wholememory_dtype_t dt)
{
	wholememory_tensor_description_t d = desc1(rows, dt);
	d.dim = 2;
	d.sizes[1] = cols;
	d.strides[0] = stride;
	return d;
}

#endif
