// SPDX-License-Identifier: MIT
/*
 * coll_pe: one PE of a collectives test job, written against shmem.h
 * only. test_shmem_coll starts jobs of it (zeshrun -n N) and checks them.
 *
 *   coll_pe CASE      CASE: bcast collect alltoall reduce old bad badset
 *                     badroot
 *
 * Every team case runs on each team of the job: SHMEM_TEAM_WORLD,
 * SHMEM_TEAM_SHARED, split_strided (1, 2, n/2) and (0, 3, ...) (odd
 * sizes and strides), and both teams of split_2d(xrange 3). Roots are the
 * last index of the team (not 0). Results are checked exactly (integers;
 * floats hold small integers, exactly representable); typed checks come
 * from shmem.h's type tables. Each case prints "PE <me>: CASE ok" and
 * exits 0, or exits 3 with the failed check on stderr.
 */
#include <shmem.h>

#include <complex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int me, npes;

#include "pe_check.h"

#define BUF_BYTES (256 * 1024)
static char *sbuf, *dbuf, *wbuf;

#define NTEAMS 6
static shmem_team_t teams[NTEAMS];
static const char *const team_names[NTEAMS] = {
	"world", "shared", "strided(1,2)", "strided(0,3)", "2d-x", "2d-y",
};

static void
make_teams(void)
{
	teams[0] = SHMEM_TEAM_WORLD;
	teams[1] = SHMEM_TEAM_SHARED;
	int s1 = npes > 1 ? 1 : 0;
	int n1 = npes > 1 ? npes / 2 : 1;
	CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, s1, 2, n1, NULL, 0,
				       &teams[2]) == 0, "split (1, 2)");
	CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 3,
				       (npes + 2) / 3, NULL, 0, &teams[3]) == 0,
	      "split (0, 3)");
	CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, 3, NULL, 0, &teams[4],
				  NULL, 0, &teams[5]) == 0, "split_2d");
}

static void
free_teams(void)
{
	for (int i = 2; i < NTEAMS; i++)
		shmem_team_destroy(teams[i]);
}

/* World PE of team index j. */
static int
tpe(shmem_team_t t, int j)
{
	return shmem_team_translate_pe(t, j, SHMEM_TEAM_WORLD);
}

/* ---- broadcast --------------------------------------------------------- */

#define NB 19
#define BVAL(T, pe, i) ((T)((pe) * 3 + (i) + 1))

#define BC_CHECK(T, N, A) \
	static void bc_##N(shmem_team_t t) \
	{ \
		int tn = shmem_team_n_pes(t), root = tn - 1; \
		T *s = (T *)sbuf, *d = (T *)dbuf; \
		for (int i = 0; i < NB; i++) { \
			s[i] = BVAL(T, me, i); \
			d[i] = (T)0; \
		} \
		CHECK(shmem_##N##_broadcast(t, d, s, NB, root) == 0, #N); \
		for (int i = 0; i < NB; i++) \
			CHECK(d[i] == BVAL(T, tpe(t, root), i), \
			      "%s broadcast elem %d", #N, i); \
	}
SHMEM_RMA_TYPES(BC_CHECK, )

static void
case_bcast(shmem_team_t t)
{
#define BC_CALL(T, N, A) bc_##N(t);
	SHMEM_RMA_TYPES(BC_CALL, )
	/* mem, a larger size, the root's dest == source, generic name */
	int tn = shmem_team_n_pes(t);
	size_t n = 100000;
	for (size_t i = 0; i < n; i++)
		sbuf[i] = (char)(me + i * 7);
	CHECK(shmem_broadcastmem(t, dbuf, sbuf, n, 0) == 0, "broadcastmem");
	for (size_t i = 0; i < n; i++)
		CHECK(dbuf[i] == (char)(tpe(t, 0) + i * 7), "mem byte %zu", i);
	long *l = (long *)sbuf;
	for (int i = 0; i < NB; i++)
		l[i] = me * 10 + i;
	CHECK(shmem_broadcast(t, l, l, NB, tn / 2) == 0, "in place");
	for (int i = 0; i < NB; i++)
		CHECK(l[i] == tpe(t, tn / 2) * 10 + i, "in place %d", i);
	CHECK(shmem_broadcastmem(t, dbuf, sbuf, 0, 0) == 0, "0 bytes");
}

/* ---- collect, fcollect ------------------------------------------------- */

#define NC 5
#define FC_CHECK(T, N, A) \
	static void fc_##N(shmem_team_t t) \
	{ \
		int tn = shmem_team_n_pes(t); \
		T *s = (T *)sbuf, *d = (T *)dbuf; \
		for (int i = 0; i < NC; i++) \
			s[i] = BVAL(T, me, i); \
		CHECK(shmem_##N##_fcollect(t, d, s, NC) == 0, #N); \
		for (int j = 0; j < tn; j++) \
			for (int i = 0; i < NC; i++) \
				CHECK(d[j * NC + i] == BVAL(T, tpe(t, j), i), \
				      "%s fcollect %d.%d", #N, j, i); \
	}
SHMEM_RMA_TYPES(FC_CHECK, )

static void
case_collect(shmem_team_t t)
{
#define FC_CALL(T, N, A) fc_##N(t);
	SHMEM_RMA_TYPES(FC_CALL, )
	int tn = shmem_team_n_pes(t), tme = shmem_team_my_pe(t);
	/* collect: index j gives j + 1 elements (and index 1 none) */
	long *s = (long *)sbuf, *d = (long *)dbuf;
	int mine = tme == 1 ? 0 : tme + 1;
	for (int k = 0; k < mine; k++)
		s[k] = me * 100 + k;
	CHECK(shmem_long_collect(t, d, s, (size_t)mine) == 0, "collect");
	int at = 0;
	for (int j = 0; j < tn; j++) {
		int cnt = j == 1 ? 0 : j + 1;
		for (int k = 0; k < cnt; k++, at++)
			CHECK(d[at] == tpe(t, j) * 100 + k, "collect %d.%d", j,
			      k);
	}
	/* collectmem / fcollectmem, 3000 bytes each */
	for (int k = 0; k < 3000; k++)
		sbuf[k] = (char)(me * 13 + k);
	CHECK(shmem_fcollectmem(t, dbuf, sbuf, 3000) == 0, "fcollectmem");
	for (int j = 0; j < tn; j++)
		for (int k = 0; k < 3000; k++)
			CHECK(dbuf[j * 3000 + k] == (char)(tpe(t, j) * 13 + k),
			      "fcollectmem %d.%d", j, k);
	CHECK(shmem_collectmem(t, dbuf, sbuf, (size_t)tme) == 0, "collectmem");
	at = 0;
	for (int j = 0; j < tn; j++)
		for (int k = 0; k < j; k++, at++)
			CHECK(dbuf[at] == (char)(tpe(t, j) * 13 + k),
			      "collectmem %d.%d", j, k);
}

/* ---- alltoall, alltoalls ----------------------------------------------- */

#define NA 3
#define AVAL(pe, j, k) ((pe) * 1000 + (j) * 10 + (k))

static void
case_alltoall(shmem_team_t t)
{
	int tn = shmem_team_n_pes(t), tme = shmem_team_my_pe(t);
	long *s = (long *)sbuf, *d = (long *)dbuf;
	for (int j = 0; j < tn; j++)
		for (int k = 0; k < NA; k++)
			s[j * NA + k] = AVAL(me, j, k);
	CHECK(shmem_long_alltoall(t, d, s, NA) == 0, "alltoall");
	for (int j = 0; j < tn; j++)
		for (int k = 0; k < NA; k++)
			CHECK(d[j * NA + k] == AVAL(tpe(t, j), tme, k),
			      "alltoall %d.%d = %ld", j, k, d[j * NA + k]);
	/* alltoalls: dest stride 2, source stride 3; gaps untouched */
	int *si = (int *)sbuf, *di = (int *)dbuf;
	for (int x = 0; x < tn * NA * 3; x++)
		si[x] = -1;
	for (int x = 0; x < tn * NA * 2; x++)
		di[x] = -2;
	for (int j = 0; j < tn; j++)
		for (int k = 0; k < NA; k++)
			si[(j * NA + k) * 3] = AVAL(me, j, k);
	CHECK(shmem_int_alltoalls(t, di, si, 2, 3, NA) == 0, "alltoalls");
	for (int j = 0; j < tn; j++)
		for (int k = 0; k < NA; k++) {
			int x = (j * NA + k) * 2;
			CHECK(di[x] == AVAL(tpe(t, j), tme, k),
			      "alltoalls %d.%d = %d", j, k, di[x]);
			CHECK(di[x + 1] == -2, "gap %d", x + 1);
		}
	/* mem forms, every size of element */
	for (int x = 0; x < tn * 64; x++)
		sbuf[x] = (char)(me + x);
	CHECK(shmem_alltoallmem(t, dbuf, sbuf, 64) == 0, "alltoallmem");
	for (int j = 0; j < tn; j++)
		for (int k = 0; k < 64; k++)
			CHECK(dbuf[j * 64 + k] ==
			      (char)(tpe(t, j) + tme * 64 + k),
			      "alltoallmem %d.%d", j, k);
	CHECK(shmem_alltoallsmem(t, dbuf, sbuf, 1, 1, 64) == 0, "alltoallsmem");
	for (int j = 0; j < tn; j++)
		CHECK(dbuf[j * 64 + 5] == (char)(tpe(t, j) + tme * 64 + 5),
		      "alltoallsmem %d", j);
	double *sd = (double *)sbuf, *dd = (double *)dbuf;
	for (int j = 0; j < tn; j++)
		sd[j] = me + j * 0.5;
	CHECK(shmem_alltoall(t, dd, sd, 1) == 0, "generic alltoall");
	for (int j = 0; j < tn; j++)
		CHECK(dd[j] == tpe(t, j) + tme * 0.5, "generic %d", j);
}

/* ---- reductions -------------------------------------------------------- */

#define NR 37
#define OPX_and(x, y) ((x) & (y))
#define OPX_or(x, y) ((x) | (y))
#define OPX_xor(x, y) ((x) ^ (y))
#define OPX_max(x, y) ((x) > (y) ? (x) : (y))
#define OPX_min(x, y) ((x) < (y) ? (x) : (y))
#define OPX_sum(x, y) ((x) + (y))
#define OPX_prod(x, y) ((x) * (y))
#define V_and(T, pe, i) ((T)((1u << ((pe) % 7)) | (((i) & 1u) << 7) | 3u))
#define V_or V_and
#define V_xor V_and
#define V_max(T, pe, i) ((T)(((pe) * 5 + (i) * 3) % 11))
#define V_min V_max
#define V_sum(T, pe, i) ((T)((pe) + (i) % 4 + 1))
#define V_prod(T, pe, i) ((T)(((pe) + (i)) % 3 == 0 ? 2 : 1))

#define RED_CHECK(T, N, OP) \
	static void rd_##N##_##OP(shmem_team_t t, int inplace) \
	{ \
		int tn = shmem_team_n_pes(t); \
		T *s = (T *)sbuf, *d = inplace ? s : (T *)dbuf; \
		for (int i = 0; i < NR; i++) \
			s[i] = V_##OP(T, me, i); \
		CHECK(shmem_##N##_##OP##_reduce(t, d, s, NR) == 0, \
		      #N " " #OP); \
		for (int i = 0; i < NR; i++) { \
			T e = V_##OP(T, tpe(t, 0), i); \
			for (int j = 1; j < tn; j++) \
				e = (T)OPX_##OP(e, V_##OP(T, tpe(t, j), i)); \
			CHECK(d[i] == e, "%s %s_reduce elem %d (in place %d)", \
			      #N, #OP, i, inplace); \
		} \
	}
SHMEM_BITRED_TYPES(RED_CHECK, and)
SHMEM_BITRED_TYPES(RED_CHECK, or)
SHMEM_BITRED_TYPES(RED_CHECK, xor)
SHMEM_MINMAX_TYPES(RED_CHECK, max)
SHMEM_MINMAX_TYPES(RED_CHECK, min)
SHMEM_ARITH_TYPES(RED_CHECK, sum)
SHMEM_ARITH_TYPES(RED_CHECK, prod)

static void
case_reduce(shmem_team_t t, int ti)
{
	int ip = ti % 2; /* in place on every other team */
#define RED_CALL(T, N, OP) rd_##N##_##OP(t, ip);
	SHMEM_BITRED_TYPES(RED_CALL, and)
	SHMEM_BITRED_TYPES(RED_CALL, or)
	SHMEM_BITRED_TYPES(RED_CALL, xor)
	SHMEM_MINMAX_TYPES(RED_CALL, max)
	SHMEM_MINMAX_TYPES(RED_CALL, min)
	SHMEM_ARITH_TYPES(RED_CALL, sum)
	SHMEM_ARITH_TYPES(RED_CALL, prod)
	/* a large one (bounce buffers over the network), generic names */
	int tn = shmem_team_n_pes(t);
	size_t n = 20000;
	long *s = (long *)sbuf, *d = (long *)dbuf;
	for (size_t i = 0; i < n; i++)
		s[i] = (long)(me + i);
	CHECK(shmem_sum_reduce(t, d, s, n) == 0, "large sum");
	long base = 0;
	for (int j = 0; j < tn; j++)
		base += tpe(t, j);
	for (size_t i = 0; i < n; i++)
		CHECK(d[i] == base + (long)(i * (size_t)tn), "large %zu", i);
	double *x = (double *)sbuf, *y = (double *)dbuf;
	x[0] = me;
	CHECK(shmem_max_reduce(t, y, x, 1) == 0, "generic max");
	CHECK(y[0] == tpe(t, tn - 1), "max %g", y[0]);
	CHECK(shmem_long_sum_reduce(t, d, s, 0) == 0, "0 elements");
}

/* ---- the deprecated active-set forms ----------------------------------- */

#define TO_ALL_CHECK(T, N, OP) \
	static void ta_##N##_##OP(int st, int ls, int sz, long *ps) \
	{ \
		T *s = (T *)sbuf, *d = (T *)dbuf; \
		for (int i = 0; i < NR; i++) \
			s[i] = V_##OP(T, me, i); \
		shmem_##N##_##OP##_to_all(d, s, NR, st, ls, sz, (T *)wbuf, \
					  ps); \
		for (int i = 0; i < NR; i++) { \
			T e = V_##OP(T, st, i); \
			for (int j = 1; j < sz; j++) \
				e = (T)OPX_##OP(e, V_##OP(T, st + (j << ls), \
							  i)); \
			CHECK(d[i] == e, "%s %s_to_all elem %d", #N, #OP, i); \
		} \
	}
SHMEM_OLD_BITRED_TYPES(TO_ALL_CHECK, and)
SHMEM_OLD_BITRED_TYPES(TO_ALL_CHECK, or)
SHMEM_OLD_BITRED_TYPES(TO_ALL_CHECK, xor)
SHMEM_OLD_MINMAX_TYPES(TO_ALL_CHECK, max)
SHMEM_OLD_MINMAX_TYPES(TO_ALL_CHECK, min)
SHMEM_OLD_ARITH_TYPES(TO_ALL_CHECK, sum)
SHMEM_OLD_ARITH_TYPES(TO_ALL_CHECK, prod)

static void
old_set(int st, int ls, int sz, long *ps)
{
	int idx = (me - st) >> ls;
	int right = st + (((idx + 1) % sz) << ls);
	/* barrier: a put to the right neighbour is there after it */
	long *flag = (long *)wbuf;
	for (int r = 1; r <= 3; r++) {
		shmem_long_p(flag, r * 100 + me, right);
		shmem_barrier(st, ls, sz, ps);
		int left = st + (((idx - 1 + sz) % sz) << ls);
		CHECK(*flag == r * 100 + left, "barrier round %d: %ld", r,
		      *flag);
		shmem_sync(st, ls, sz, ps);
	}
	/* broadcast: the root's dest is not written (1.4) */
	long *s = (long *)sbuf, *d = (long *)dbuf;
	int root = sz - 1, rpe = st + (root << ls);
	for (int i = 0; i < NB; i++) {
		s[i] = me * 10 + i;
		d[i] = -7;
	}
	shmem_broadcast64(d, s, NB, root, st, ls, sz, ps);
	for (int i = 0; i < NB; i++)
		CHECK(d[i] == (me == rpe ? -7 : rpe * 10 + i), "bcast64 %d", i);
	int *si = (int *)sbuf, *di = (int *)dbuf;
	for (int i = 0; i < NB; i++)
		si[i] = me * 10 + i;
	shmem_broadcast32(di, si, NB, 0, st, ls, sz, ps);
	for (int i = 0; i < NB; i++)
		CHECK(me == st || di[i] == st * 10 + i, "bcast32 %d", i);
	/* fcollect, collect */
	for (int i = 0; i < NC; i++)
		s[i] = me * 10 + i;
	shmem_fcollect64(d, s, NC, st, ls, sz, ps);
	for (int j = 0; j < sz; j++)
		for (int i = 0; i < NC; i++)
			CHECK(d[j * NC + i] == (st + (j << ls)) * 10 + i,
			      "fcollect64 %d.%d", j, i);
	for (int i = 0; i < NC; i++)
		si[i] = me * 10 + i;
	shmem_fcollect32(di, si, NC, st, ls, sz, ps);
	CHECK(di[(sz - 1) * NC + 2] == rpe * 10 + 2, "fcollect32");
	for (int i = 0; i < sz; i++)
		s[i] = me * 10 + i;
	shmem_collect64(d, s, (size_t)idx + 1, st, ls, sz, ps);
	int at = 0;
	for (int j = 0; j < sz; j++)
		for (int i = 0; i <= j; i++, at++)
			CHECK(d[at] == (st + (j << ls)) * 10 + i,
			      "collect64 %d.%d", j, i);
	for (int i = 0; i < NC; i++)
		si[i] = me * 10 + i;
	shmem_collect32(di, si, 2, st, ls, sz, ps);
	CHECK(di[2 * (sz - 1) + 1] == rpe * 10 + 1, "collect32");
	/* alltoall(s) */
	for (int j = 0; j < sz; j++)
		for (int k = 0; k < NA; k++)
			s[j * NA + k] = AVAL(me, j, k);
	shmem_alltoall64(d, s, NA, st, ls, sz, ps);
	for (int j = 0; j < sz; j++)
		for (int k = 0; k < NA; k++)
			CHECK(d[j * NA + k] == AVAL(st + (j << ls), idx, k),
			      "alltoall64 %d.%d", j, k);
	for (int j = 0; j < sz; j++)
		si[j] = me * 100 + j;
	shmem_alltoall32(di, si, 1, st, ls, sz, ps);
	for (int j = 0; j < sz; j++)
		CHECK(di[j] == (st + (j << ls)) * 100 + idx, "alltoall32 %d", j);
	for (int j = 0; j < sz; j++)
		for (int k = 0; k < NA; k++)
			s[j * NA + k] = AVAL(me, j, k);
	shmem_alltoalls64(d, s, 1, 1, NA, st, ls, sz, ps);
	CHECK(d[(sz - 1) * NA] == AVAL(rpe, idx, 0), "alltoalls64");
	for (int j = 0; j < sz; j++)
		si[j] = me * 100 + j;
	shmem_alltoalls32(di, si, 1, 1, 1, st, ls, sz, ps);
	CHECK(di[0] == st * 100 + idx, "alltoalls32");
	/* every reduction of 1.4 */
#define TA_CALL(T, N, OP) ta_##N##_##OP(st, ls, sz, ps);
	SHMEM_OLD_BITRED_TYPES(TA_CALL, and)
	SHMEM_OLD_BITRED_TYPES(TA_CALL, or)
	SHMEM_OLD_BITRED_TYPES(TA_CALL, xor)
	SHMEM_OLD_MINMAX_TYPES(TA_CALL, max)
	SHMEM_OLD_MINMAX_TYPES(TA_CALL, min)
	SHMEM_OLD_ARITH_TYPES(TA_CALL, sum)
	SHMEM_OLD_ARITH_TYPES(TA_CALL, prod)
}

static void
case_old(void)
{
	static long *psync[3];
	for (int k = 0; k < 3; k++) {
		psync[k] = shmem_malloc(SHMEM_REDUCE_SYNC_SIZE * sizeof(long));
		CHECK(psync[k], "pSync");
		for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
			psync[k][i] = SHMEM_SYNC_VALUE;
	}
	shmem_barrier_all();
	/* the world, the odd PEs (stride 2), the PEs 0, 4, ... (stride 4) */
	int sets[3][3] = {
		{ 0, 0, npes },
		{ npes > 1 ? 1 : 0, 1, npes > 1 ? npes / 2 : 1 },
		{ 0, 2, (npes + 3) / 4 },
	};
	for (int k = 0; k < 3; k++) {
		int st = sets[k][0], ls = sets[k][1], sz = sets[k][2];
		int off = me - st;
		if (off >= 0 && !(off & ((1 << ls) - 1)) && (off >> ls) < sz)
			old_set(st, ls, sz, psync[k]);
	}
	shmem_barrier_all();
	for (int k = 0; k < 3; k++) {
		for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
			CHECK(psync[k][i] == SHMEM_SYNC_VALUE,
			      "pSync %d[%d] = %ld", k, i, psync[k][i]);
		shmem_free(psync[k]);
	}
}

/* ---- bad input: nonzero results, then the next call works -------------- */

static void
case_bad(void)
{
	long stack[4] = { 0 };
	long *s = (long *)sbuf, *d = (long *)dbuf;
	CHECK(shmem_long_broadcast(SHMEM_TEAM_INVALID, d, s, 1, 0) != 0,
	      "invalid team");
	CHECK(shmem_long_broadcast(SHMEM_TEAM_WORLD, d, s, 1, npes) != 0,
	      "root n");
	CHECK(shmem_long_broadcast(SHMEM_TEAM_WORLD, d, s, 1, -1) != 0,
	      "root -1");
	CHECK(shmem_long_fcollect(SHMEM_TEAM_WORLD, stack, s, 1) != 0,
	      "dest on the stack");
	CHECK(shmem_long_fcollect(SHMEM_TEAM_WORLD, d, s, SIZE_MAX / 4) != 0,
	      "nelems overflow");
	CHECK(shmem_long_alltoall(SHMEM_TEAM_WORLD, d, s, SIZE_MAX / 2) != 0,
	      "alltoall overflow");
	CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, s + 1, s, 4) != 0,
	      "overlapping reduce");
	CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, d, s,
				    (size_t)1 << 40) != 0, "past the heap");
	CHECK(shmem_long_alltoalls(SHMEM_TEAM_WORLD, d, s, 0, 1, 1) != 0,
	      "stride 0");
	CHECK(shmem_long_max_reduce(SHMEM_TEAM_INVALID, d, s, 1) != 0,
	      "reduce invalid team");
	/* the collectives still work */
	s[0] = me;
	CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, d, s, 1) == 0, "sum");
	CHECK(d[0] == (long)npes * (npes - 1) / 2, "sum %ld", d[0]);
}

int
main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";
	setvbuf(stdout, NULL, _IOLBF, 0);
	shmem_init();
	me = shmem_my_pe();
	npes = shmem_n_pes();
	sbuf = shmem_malloc(BUF_BYTES);
	dbuf = shmem_malloc(BUF_BYTES);
	wbuf = shmem_malloc(BUF_BYTES);
	CHECK(sbuf && dbuf && wbuf, "shmem_malloc");
	make_teams();
	int team_case = 1;
	void (*tc)(shmem_team_t) = NULL;
	if (!strcmp(c, "bcast"))
		tc = case_bcast;
	else if (!strcmp(c, "collect"))
		tc = case_collect;
	else if (!strcmp(c, "alltoall"))
		tc = case_alltoall;
	else if (!strcmp(c, "reduce"))
		team_case = 2;
	else
		team_case = 0;
	for (int ti = 0; team_case && ti < NTEAMS; ti++) {
		if (teams[ti] == SHMEM_TEAM_INVALID)
			continue;
		if (team_case == 2)
			case_reduce(teams[ti], ti);
		else
			tc(teams[ti]);
		(void)team_names;
	}
	if (!strcmp(c, "old")) {
		case_old();
	} else if (!strcmp(c, "bad")) {
		case_bad();
	} else if (!strcmp(c, "badset")) {
		/* PE 0 names a set without itself: one line, exit 1 */
		if (me == 0)
			shmem_barrier(1, 0, npes - 1, (long *)wbuf);
	} else if (!strcmp(c, "badroot")) {
		/* PE_root out of the active set: one line, exit 1 */
		long *ps = (long *)wbuf;
		for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
			ps[i] = SHMEM_SYNC_VALUE;
		shmem_barrier_all();
		shmem_broadcast64(dbuf, sbuf, 1, npes, 0, 0, npes, ps);
	} else if (!team_case) {
		fprintf(stderr, "coll_pe: unknown case '%s'\n", c);
		return 2;
	}
	shmem_barrier_all();
	free_teams();
	shmem_free(wbuf);
	shmem_free(dbuf);
	shmem_free(sbuf);
	printf("PE %d: %s ok (%d PEs)\n", me, c, npes);
	shmem_finalize();
	return 0;
}
