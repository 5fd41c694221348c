// SPDX-License-Identifier: MIT
/*
 * shmem_generic_pe: the C11 type-generic names of shmem.h called with
 * every standard type of the specification's tables (the type lists are
 * written out here from the specification, not taken from shmem.h, so
 * that a type the header's selections miss fails to compile), and every
 * deprecated 1.4 name called once. Compiled with -std=c11; run at 2 PEs
 * (zeshrun), each PE targets its right neighbour and checks exact
 * results.
 *
 *   shmem_generic_pe generic | old
 *
 * Exits 0 with "PE <me>: CASE ok", or 3 with the failed check on stderr.
 */
#include <shmem.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int me, npes, peer, left;
static shmem_ctx_t ctx;

#include "pe_check.h"

/* The specification's type tables (OpenSHMEM 1.5, tables 5 to 8). */
#define RMA_LIST(X) \
	X(float, float) X(double, double) X(long double, ldouble) \
	X(char, char) X(signed char, schar) X(short, short) X(int, int) \
	X(long, long) X(long long, llong) X(unsigned char, uchar) \
	X(unsigned short, ushort) X(unsigned int, uint) \
	X(unsigned long, ulong) X(unsigned long long, ullong) \
	X(int8_t, i8) X(int16_t, i16) X(int32_t, i32) X(int64_t, i64) \
	X(uint8_t, u8) X(uint16_t, u16) X(uint32_t, u32) X(uint64_t, u64) \
	X(size_t, size) X(ptrdiff_t, ptrdiff)
#define AMO_LIST(X) \
	X(int, int) X(long, long) X(long long, llong) \
	X(unsigned int, uint) X(unsigned long, ulong) \
	X(unsigned long long, ullong) X(int32_t, i32) X(int64_t, i64) \
	X(uint32_t, u32) X(uint64_t, u64) X(size_t, size) \
	X(ptrdiff_t, ptrdiff)
#define EXT_LIST(X) AMO_LIST(X) X(float, float) X(double, double)
#define BIT_LIST(X) \
	X(unsigned int, uint) X(unsigned long, ulong) \
	X(unsigned long long, ullong) X(int32_t, i32) X(int64_t, i64) \
	X(uint32_t, u32) X(uint64_t, u64)
#define SYNC_LIST(X) \
	X(short, short) X(int, int) X(long, long) X(long long, llong) \
	X(unsigned short, ushort) X(unsigned int, uint) \
	X(unsigned long, ulong) X(unsigned long long, ullong) \
	X(int32_t, i32) X(int64_t, i64) X(uint32_t, u32) X(uint64_t, u64) \
	X(size_t, size) X(ptrdiff_t, ptrdiff)

#define V(T, pe, i) ((T)((pe) * 10 + (i) + 1))

/* ---- RMA and signals: d[0..14] written by the left PE, s[] read ------- */

#define RMA_FN(T, N) \
	static void \
	rma_##N(void) \
	{ \
		T *d = shmem_calloc(16, sizeof(T)); \
		T *s = shmem_calloc(16, sizeof(T)); \
		uint64_t *sig = shmem_calloc(1, sizeof(uint64_t)); \
		CHECK(d && s && sig, "alloc"); \
		T src[8], got[8]; \
		for (int i = 0; i < 8; i++) \
			src[i] = s[i] = V(T, me, i); \
		shmem_barrier_all(); \
		shmem_put(d, src, 2, peer); \
		shmem_p(d + 2, src[2], peer); \
		shmem_iput(d + 3, src, 2, 1, 2, peer); \
		shmem_put_nbi(d + 6, src, 1, peer); \
		shmem_put(ctx, d + 7, src + 3, 1, peer); \
		shmem_put_nbi(ctx, d + 8, src + 4, 1, peer); \
		shmem_p(ctx, d + 9, src[5], peer); \
		shmem_iput(ctx, d + 10, src + 1, 1, 1, 1, peer); \
		shmem_put_signal(d + 11, src + 6, 1, sig, 1, \
				 SHMEM_SIGNAL_ADD, peer); \
		shmem_put_signal_nbi(ctx, d + 12, src + 7, 1, sig, 1, \
				     SHMEM_SIGNAL_ADD, peer); \
		shmem_put_signal(ctx, d + 13, src + 1, 1, sig, 1, \
				 SHMEM_SIGNAL_ADD, peer); \
		shmem_put_signal_nbi(d + 14, src + 2, 1, sig, 1, \
				     SHMEM_SIGNAL_ADD, peer); \
		shmem_quiet(); \
		shmem_ctx_quiet(ctx); \
		memset(got, 0, sizeof(got)); \
		shmem_get(got, s, 2, peer); \
		CHECK(got[0] == V(T, peer, 0) && got[1] == V(T, peer, 1), \
		      "get"); \
		CHECK(shmem_g(s + 2, peer) == V(T, peer, 2), "g"); \
		shmem_iget(got, s, 1, 2, 2, peer); \
		CHECK(got[0] == V(T, peer, 0) && got[1] == V(T, peer, 2), \
		      "iget"); \
		shmem_get_nbi(got + 2, s + 3, 1, peer); \
		shmem_quiet(); \
		CHECK(got[2] == V(T, peer, 3), "get_nbi"); \
		shmem_get(ctx, got, s + 4, 1, peer); \
		CHECK(got[0] == V(T, peer, 4), "ctx get"); \
		CHECK(shmem_g(ctx, s + 5, peer) == V(T, peer, 5), "ctx g"); \
		shmem_iget(ctx, got, s + 6, 1, 1, 1, peer); \
		CHECK(got[0] == V(T, peer, 6), "ctx iget"); \
		shmem_get_nbi(ctx, got + 1, s + 7, 1, peer); \
		shmem_ctx_quiet(ctx); \
		CHECK(got[1] == V(T, peer, 7), "ctx get_nbi"); \
		shmem_barrier_all(); \
		static const int from[15] = { 0, 1, 2, 0, -1, 1, 0, 3, 4, 5, \
					      1, 6, 7, 1, 2 }; \
		for (int i = 0; i < 15; i++) \
			CHECK(from[i] < 0 ? d[i] == 0 \
					  : d[i] == V(T, left, from[i]), \
			      "d[%d]", i); \
		CHECK(shmem_signal_fetch(sig) == 4, "signal"); \
		shmem_barrier_all(); \
		shmem_free(sig); \
		shmem_free(s); \
		shmem_free(d); \
	}
RMA_LIST(RMA_FN)

/* ---- atomics: w[0..5] on the right PE, written by this PE only --------- */

#define EXT_FN(T, N) \
	static void \
	ext_##N(void) \
	{ \
		T *w = shmem_calloc(4, sizeof(T)); \
		CHECK(w, "alloc"); \
		shmem_barrier_all(); \
		shmem_atomic_set(w, (T)5, peer); \
		CHECK(shmem_atomic_fetch(w, peer) == (T)5, "fetch"); \
		CHECK(shmem_atomic_swap(w, (T)7, peer) == (T)5, "swap"); \
		shmem_atomic_set(ctx, w + 1, (T)3, peer); \
		CHECK(shmem_atomic_fetch(ctx, w + 1, peer) == (T)3, "cfetch"); \
		CHECK(shmem_atomic_swap(ctx, w + 1, (T)4, peer) == (T)3, \
		      "cswap"); \
		T f1 = 0, f2 = 0, f3 = 0, f4 = 0; \
		shmem_atomic_fetch_nbi(&f1, w, peer); \
		shmem_atomic_swap_nbi(&f2, w + 2, (T)9, peer); \
		shmem_atomic_fetch_nbi(ctx, &f3, w + 1, peer); \
		shmem_atomic_swap_nbi(ctx, &f4, w + 3, (T)8, peer); \
		shmem_quiet(); \
		shmem_ctx_quiet(ctx); \
		CHECK(f1 == (T)7 && f2 == 0 && f3 == (T)4 && f4 == 0, \
		      "nbi fetches"); \
		shmem_barrier_all(); \
		CHECK(w[0] == (T)7 && w[1] == (T)4 && w[2] == (T)9 && \
			      w[3] == (T)8, "words"); \
		shmem_barrier_all(); \
		shmem_free(w); \
	}
EXT_LIST(EXT_FN)

#define AMO_FN(T, N) \
	static void \
	amo_##N(void) \
	{ \
		T *w = shmem_calloc(6, sizeof(T)); \
		CHECK(w, "alloc"); \
		shmem_barrier_all(); \
		shmem_atomic_set(w, (T)7, peer); \
		CHECK(shmem_atomic_compare_swap(w, (T)7, (T)9, peer) == (T)7, \
		      "compare_swap"); \
		CHECK(shmem_atomic_compare_swap(w, (T)1, (T)2, peer) == (T)9, \
		      "compare_swap miss"); \
		CHECK(shmem_atomic_fetch_inc(w, peer) == (T)9, "fetch_inc"); \
		shmem_atomic_inc(w, peer); \
		CHECK(shmem_atomic_fetch_add(w, (T)2, peer) == (T)11, \
		      "fetch_add"); \
		shmem_atomic_add(w, (T)3, peer); \
		shmem_atomic_add(ctx, w, (T)1, peer); \
		shmem_atomic_inc(ctx, w, peer); \
		CHECK(shmem_atomic_fetch_add(ctx, w, (T)1, peer) == (T)18, \
		      "ctx fetch_add"); \
		CHECK(shmem_atomic_fetch_inc(ctx, w, peer) == (T)19, \
		      "ctx fetch_inc"); \
		CHECK(shmem_atomic_compare_swap(ctx, w, (T)20, (T)21, peer) == \
			      (T)20, "ctx compare_swap"); \
		T f[6] = { 0 }; \
		shmem_atomic_compare_swap_nbi(f, w + 1, (T)0, (T)6, peer); \
		shmem_atomic_fetch_inc_nbi(f + 1, w + 2, peer); \
		shmem_atomic_fetch_add_nbi(f + 2, w + 3, (T)5, peer); \
		shmem_atomic_compare_swap_nbi(ctx, f + 3, w + 4, (T)0, (T)2, \
					      peer); \
		shmem_ctx_quiet(ctx); \
		shmem_atomic_fetch_inc_nbi(ctx, f + 4, w + 4, peer); \
		shmem_atomic_fetch_add_nbi(ctx, f + 5, w + 5, (T)4, peer); \
		shmem_quiet(); \
		shmem_ctx_quiet(ctx); \
		CHECK(f[0] == 0 && f[1] == 0 && f[2] == 0 && f[3] == 0 && \
			      f[4] == (T)2 && f[5] == 0, "nbi fetches"); \
		shmem_barrier_all(); \
		CHECK(w[0] == (T)21 && w[1] == (T)6 && w[2] == (T)1 && \
			      w[3] == (T)5 && w[4] == (T)3 && w[5] == (T)4, \
		      "words"); \
		shmem_barrier_all(); \
		shmem_free(w); \
	}
AMO_LIST(AMO_FN)

#define BIT_FN(T, N) \
	static void \
	bit_##N(void) \
	{ \
		T *w = shmem_calloc(2, sizeof(T)); \
		CHECK(w, "alloc"); \
		shmem_barrier_all(); \
		shmem_atomic_set(w, (T)0xF0, peer); \
		shmem_atomic_and(w, (T)0x3C, peer); \
		shmem_atomic_or(w, (T)0x01, peer); \
		shmem_atomic_xor(w, (T)0x11, peer); \
		CHECK(shmem_atomic_fetch(w, peer) == (T)0x20, "and/or/xor"); \
		CHECK(shmem_atomic_fetch_and(w, (T)0xFF, peer) == (T)0x20, \
		      "fetch_and"); \
		CHECK(shmem_atomic_fetch_or(w, (T)0x4, peer) == (T)0x20, \
		      "fetch_or"); \
		CHECK(shmem_atomic_fetch_xor(w, (T)0x4, peer) == (T)0x24, \
		      "fetch_xor"); \
		shmem_atomic_or(ctx, w, (T)0x100, peer); \
		shmem_atomic_and(ctx, w, (T)0x1F0, peer); \
		shmem_atomic_xor(ctx, w, (T)0x1, peer); \
		CHECK(shmem_atomic_fetch_and(ctx, w, (T)0xFFF, peer) == \
			      (T)0x121, "ctx fetch_and"); \
		CHECK(shmem_atomic_fetch_or(ctx, w, (T)0x2, peer) == \
			      (T)0x121, "ctx fetch_or"); \
		CHECK(shmem_atomic_fetch_xor(ctx, w, (T)0x100, peer) == \
			      (T)0x123, "ctx fetch_xor"); \
		T f[6] = { 0 }; \
		shmem_atomic_fetch_and_nbi(f, w + 1, (T)0, peer); \
		shmem_quiet(); \
		shmem_atomic_fetch_or_nbi(f + 1, w + 1, (T)0x6, peer); \
		shmem_quiet(); \
		shmem_atomic_fetch_xor_nbi(f + 2, w + 1, (T)0x3, peer); \
		shmem_quiet(); \
		shmem_atomic_fetch_or_nbi(ctx, f + 3, w + 1, (T)0x8, peer); \
		shmem_ctx_quiet(ctx); \
		shmem_atomic_fetch_and_nbi(ctx, f + 4, w + 1, (T)0xD, peer); \
		shmem_ctx_quiet(ctx); \
		shmem_atomic_fetch_xor_nbi(ctx, f + 5, w + 1, (T)0x1, peer); \
		shmem_ctx_quiet(ctx); \
		CHECK(f[0] == 0 && f[1] == 0 && f[2] == (T)0x6 && \
			      f[3] == (T)0x5 && f[4] == (T)0xD && \
			      f[5] == (T)0xD, "nbi fetches"); \
		shmem_barrier_all(); \
		CHECK(w[0] == (T)0x23 && w[1] == (T)0xC, "words %#llx %#llx", \
		      (unsigned long long)w[0], (unsigned long long)w[1]); \
		shmem_barrier_all(); \
		shmem_free(w); \
	}
BIT_LIST(BIT_FN)

/* ---- point synchronisation: the left PE writes iv[i] = i + 1 ----------- */

#define SYNC_FN(T, N) \
	static void \
	sync_##N(void) \
	{ \
		T *iv = shmem_calloc(4, sizeof(T)); \
		CHECK(iv, "alloc"); \
		T vals[4] = { 1, 2, 3, 4 }; \
		size_t idx[4]; \
		CHECK(shmem_test(iv, SHMEM_CMP_EQ, (T)1) == 0, "test before"); \
		shmem_barrier_all(); \
		for (int i = 3; i >= 0; i--) \
			shmem_p(iv + i, (T)(i + 1), peer); \
		shmem_quiet(); \
		shmem_wait_until(iv, SHMEM_CMP_EQ, (T)1); \
		shmem_wait_until_all(iv, 4, NULL, SHMEM_CMP_GE, (T)1); \
		CHECK(shmem_wait_until_any(iv, 4, NULL, SHMEM_CMP_GT, (T)3) == \
			      3, "wait_until_any"); \
		CHECK(shmem_wait_until_some(iv, 4, idx, NULL, SHMEM_CMP_GE, \
					    (T)1) == 4, "wait_until_some"); \
		shmem_wait_until_all_vector(iv, 4, NULL, SHMEM_CMP_EQ, vals); \
		CHECK(shmem_wait_until_any_vector(iv, 4, NULL, SHMEM_CMP_EQ, \
						  vals) < 4, "any_vector"); \
		CHECK(shmem_wait_until_some_vector(iv, 4, idx, NULL, \
						   SHMEM_CMP_EQ, vals) == 4, \
		      "some_vector"); \
		CHECK(shmem_test(iv, SHMEM_CMP_EQ, (T)1) == 1, "test"); \
		CHECK(shmem_test(iv + 1, SHMEM_CMP_NE, (T)2) == 0, "test ne"); \
		CHECK(shmem_test_all(iv, 4, NULL, SHMEM_CMP_LE, (T)4) == 1, \
		      "test_all"); \
		CHECK(shmem_test_any(iv, 4, NULL, SHMEM_CMP_LT, (T)2) == 0, \
		      "test_any"); \
		CHECK(shmem_test_some(iv, 4, idx, NULL, SHMEM_CMP_GT, (T)2) == \
			      2, "test_some"); \
		CHECK(shmem_test_all_vector(iv, 4, NULL, SHMEM_CMP_EQ, vals) == \
			      1, "test_all_vector"); \
		CHECK(shmem_test_any_vector(iv, 4, NULL, SHMEM_CMP_NE, vals) == \
			      SIZE_MAX, "test_any_vector"); \
		CHECK(shmem_test_some_vector(iv, 4, idx, NULL, SHMEM_CMP_EQ, \
					     vals) == 4, "test_some_vector"); \
		shmem_barrier_all(); \
		shmem_free(iv); \
	}
SYNC_LIST(SYNC_FN)

/* ---- bitwise reductions over the world (table 10 of OpenSHMEM 1.5) ---- */

#define BITRED_LIST(X) \
	X(unsigned char, uchar) X(unsigned short, ushort) \
	X(unsigned int, uint) X(unsigned long, ulong) \
	X(unsigned long long, ullong) X(int8_t, i8) X(int16_t, i16) \
	X(int32_t, i32) X(int64_t, i64) X(uint8_t, u8) X(uint16_t, u16) \
	X(uint32_t, u32) X(uint64_t, u64) X(size_t, size)

/* PE p gives 0x10 | (1 << p) (p < 4) in each of 3 elements. */
#define BITRED_FN(T, N) \
	static void \
	bitred_##N(void) \
	{ \
		T *src = shmem_malloc(3 * sizeof(T)); \
		T *dst = shmem_malloc(3 * sizeof(T)); \
		CHECK(src && dst, "alloc"); \
		T and_ = (T)0x1f, or_ = 0, xor_ = 0; \
		for (int p = 0; p < npes; p++) { \
			T v = (T)(0x10 | (1 << (p % 4))); \
			and_ = (T)(and_ & v); \
			or_ = (T)(or_ | v); \
			xor_ = (T)(xor_ ^ v); \
		} \
		for (int i = 0; i < 3; i++) \
			src[i] = (T)(0x10 | (1 << (me % 4))); \
		CHECK(shmem_and_reduce(SHMEM_TEAM_WORLD, dst, src, 3) == 0, \
		      "and_reduce"); \
		CHECK(dst[0] == and_ && dst[2] == and_, "and %d", (int)dst[0]); \
		CHECK(shmem_or_reduce(SHMEM_TEAM_WORLD, dst, src, 3) == 0, \
		      "or_reduce"); \
		CHECK(dst[0] == or_ && dst[2] == or_, "or %d", (int)dst[0]); \
		CHECK(shmem_xor_reduce(SHMEM_TEAM_WORLD, dst, src, 3) == 0, \
		      "xor_reduce"); \
		CHECK(dst[0] == xor_ && dst[2] == xor_, "xor %d", (int)dst[0]); \
		shmem_free(dst); \
		shmem_free(src); \
	}
BITRED_LIST(BITRED_FN)

#define CALL(T, N) rma_##N();
#define CALL_EXT(T, N) ext_##N();
#define CALL_AMO(T, N) amo_##N();
#define CALL_BIT(T, N) bit_##N();
#define CALL_SYNC(T, N) sync_##N();
#define CALL_BITRED(T, N) bitred_##N();

static void
case_generic(void)
{
	CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0, "ctx");
	RMA_LIST(CALL)
	EXT_LIST(CALL_EXT)
	AMO_LIST(CALL_AMO)
	BIT_LIST(CALL_BIT)
	SYNC_LIST(CALL_SYNC)
	BITRED_LIST(CALL_BITRED)
	/* shmem_sync(team): the 1.5 C11 form */
	CHECK(shmem_sync(SHMEM_TEAM_WORLD) == 0, "shmem_sync(team)");
	shmem_ctx_destroy(ctx);
}

/* ---- the deprecated 1.4 names, each once -------------------------------- */

#define OLD_EXT(T, N) \
	static void \
	old_ext_##N(T *w) \
	{ \
		shmem_##N##_set(w, (T)3, peer); \
		CHECK(shmem_##N##_fetch(w, peer) == (T)3, "fetch"); \
		CHECK(shmem_##N##_swap(w, (T)4, peer) == (T)3, "swap"); \
		shmem_set(w, (T)5, peer); \
		CHECK(shmem_fetch(w, peer) == (T)5, "generic fetch"); \
		CHECK(shmem_swap(w, (T)6, peer) == (T)5, "generic swap"); \
	}
OLD_EXT(int, int)
OLD_EXT(long, long)
OLD_EXT(long long, longlong)
OLD_EXT(float, float)
OLD_EXT(double, double)

#define OLD_AMO(T, N) \
	static void \
	old_amo_##N(T *w) \
	{ \
		shmem_##N##_set(w, (T)1, peer); \
		CHECK(shmem_##N##_cswap(w, (T)1, (T)2, peer) == (T)1, "cswap"); \
		CHECK(shmem_##N##_finc(w, peer) == (T)2, "finc"); \
		shmem_##N##_inc(w, peer); \
		CHECK(shmem_##N##_fadd(w, (T)3, peer) == (T)4, "fadd"); \
		shmem_##N##_add(w, (T)2, peer); \
		CHECK(shmem_cswap(w, (T)9, (T)10, peer) == (T)9, "g cswap"); \
		CHECK(shmem_finc(w, peer) == (T)10, "g finc"); \
		shmem_inc(w, peer); \
		CHECK(shmem_fadd(w, (T)1, peer) == (T)12, "g fadd"); \
		shmem_add(w, (T)1, peer); \
		CHECK(shmem_##N##_fetch(w, peer) == (T)14, "result"); \
	}
OLD_AMO(int, int)
OLD_AMO(long, long)
OLD_AMO(long long, longlong)

#define OLD_WAIT(T, N) \
	static void \
	old_wait_##N(T *iv) \
	{ \
		shmem_##N##_p(iv, (T)5, peer); \
		shmem_quiet(); \
		shmem_##N##_wait(iv, (T)0); \
		CHECK(*iv == (T)5, "wait"); \
	}
OLD_WAIT(short, short)
OLD_WAIT(int, int)
OLD_WAIT(long, long)
OLD_WAIT(long long, longlong)

static void
case_old(void)
{
	CHECK(_my_pe() == me && _num_pes() == npes, "_my_pe/_num_pes");
	void *p = shmalloc(64);
	CHECK(p != NULL, "shmalloc");
	p = shrealloc(p, 256);
	CHECK(p != NULL, "shrealloc");
	void *q = shmemalign(256, 64);
	CHECK(q != NULL && (uintptr_t)q % 256 == 0, "shmemalign");
	union {
		int i;
		long l;
		long long ll;
		float f;
		double d;
		short s;
	} *w = p;
	memset(p, 0, 256);
	shmem_barrier_all();
	old_ext_int(&w[0].i);
	old_ext_long(&w[1].l);
	old_ext_longlong(&w[2].ll);
	old_ext_float(&w[3].f);
	old_ext_double(&w[4].d);
	old_amo_int(&w[5].i);
	old_amo_long(&w[6].l);
	old_amo_longlong(&w[7].ll);
	shmem_barrier_all();
	CHECK(w[0].i == 6 && w[1].l == 6 && w[2].ll == 6 && w[3].f == 6 &&
		      w[4].d == 6, "set/swap results");
	CHECK(w[5].i == 14 && w[6].l == 14 && w[7].ll == 14, "amo results");
	shmem_barrier_all();
	old_wait_short(&w[8].s);
	old_wait_int(&w[9].i);
	old_wait_long(&w[10].l);
	old_wait_longlong(&w[11].ll);
	/* the untyped long forms */
	long *lv = &w[12].l;
	shmem_long_p(lv, 7, peer);
	shmem_quiet();
	(shmem_wait_until)(lv, SHMEM_CMP_EQ, 7);
	(shmem_wait)(lv, 0);
	shmem_barrier_all();
	/* shmem_sync's deprecated four-argument form */
	static long psync[SHMEM_SYNC_SIZE];
	for (int i = 0; i < SHMEM_SYNC_SIZE; i++)
		psync[i] = SHMEM_SYNC_VALUE;
	shmem_barrier_all();
	shmem_sync(0, 0, npes, psync);
	shmem_clear_cache_inv();
	shmem_set_cache_inv();
	shmem_clear_cache_line_inv(p);
	shmem_set_cache_line_inv(p);
	shmem_udcflush();
	shmem_udcflush_line(p);
	shfree(q);
	shfree(p);
}

int
main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: shmem_generic_pe generic|old\n");
		return 2;
	}
	if (!strcmp(argv[1], "old"))
		start_pes(0);
	else
		shmem_init();
	me = shmem_my_pe();
	npes = shmem_n_pes();
	peer = (me + 1) % npes;
	left = (me + npes - 1) % npes;
	if (!strcmp(argv[1], "generic"))
		case_generic();
	else if (!strcmp(argv[1], "old"))
		case_old();
	else
		CHECK(0, "unknown case %s", argv[1]);
	shmem_finalize();
	printf("PE %d: %s ok\n", me, argv[1]);
	return 0;
}
