/* SPDX-License-Identifier: MIT */
/* Collectives on global and static variables, the way the specification's
 * own examples write them: a 1.4 broadcast and sum_to_all with static
 * pSync / pWrk arrays, then team reductions, fcollect and alltoall whose
 * buffers are globals. Each PE checks its results and prints one line. */
#include <shmem.h>
#include <stdio.h>

#define N 4
#define MAXPE 16

static long psync[SHMEM_REDUCE_SYNC_SIZE];
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + N];
static long bsrc[N], bdst[N];
static long rsrc[N], rdst[N];
long gsrc[N], gall[N * MAXPE];
static int a2a_src[MAXPE], a2a_dst[MAXPE];

int
main(void)
{
	shmem_init();
	int me = shmem_my_pe(), npes = shmem_n_pes();
	int bad = npes > MAXPE;
	for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
		psync[i] = SHMEM_SYNC_VALUE;
	for (int i = 0; i < N; i++) {
		bsrc[i] = me == 1 % npes ? 100 + i : -1;
		bdst[i] = -7;
		rsrc[i] = me * 10 + i;
		gsrc[i] = me * N + i;
	}
	for (int i = 0; i < npes && i < MAXPE; i++)
		a2a_src[i] = me * 100 + i;
	shmem_barrier_all();

	/* 1.4 broadcast from PE 1 (0 on one PE): the root's dest untouched */
	shmem_broadcast64(bdst, bsrc, N, 1 % npes, 0, 0, npes, psync);
	for (int i = 0; i < N; i++)
		bad |= bdst[i] != (me == 1 % npes ? -7 : 100 + i);
	shmem_barrier_all(); /* psync reused below */
	shmem_long_sum_to_all(rdst, rsrc, N, 0, 0, npes, pwrk, psync);
	for (int i = 0; i < N; i++)
		bad |= rdst[i] != 10L * npes * (npes - 1) / 2 + (long)npes * i;
	/* team forms on globals */
	bad |= shmem_long_max_reduce(SHMEM_TEAM_WORLD, rdst, rsrc, N) != 0;
	for (int i = 0; i < N; i++)
		bad |= rdst[i] != (npes - 1) * 10L + i;
	bad |= shmem_long_fcollect(SHMEM_TEAM_WORLD, gall, gsrc, N) != 0;
	for (int i = 0; i < N * npes && i < N * MAXPE; i++)
		bad |= gall[i] != i;
	bad |= shmem_int_alltoall(SHMEM_TEAM_WORLD, a2a_dst, a2a_src, 1) != 0;
	for (int i = 0; i < npes && i < MAXPE; i++)
		bad |= a2a_dst[i] != i * 100 + me;
	for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
		bad |= psync[i] != SHMEM_SYNC_VALUE;
	printf("PE %d: static collectives %s\n", me, bad ? "WRONG" : "ok");
	shmem_finalize();
	return bad;
}
