/* SPDX-License-Identifier: MIT */
/* In the spirit of the specification's reduction example: the maximum
 * of each element over the world team, then a sum in place; each PE
 * checks the results. */
#include <shmem.h>
#include <stdio.h>

#define N 3

int
main(void)
{
	shmem_init();
	int me = shmem_my_pe(), npes = shmem_n_pes();
	int *src = shmem_malloc(N * sizeof(int));
	int *dst = shmem_malloc(N * sizeof(int));
	for (int i = 0; i < N; i++)
		src[i] = me + i;
	int bad = shmem_int_max_reduce(SHMEM_TEAM_WORLD, dst, src, N) != 0;
	for (int i = 0; i < N; i++)
		bad |= dst[i] != npes - 1 + i;
	bad |= shmem_int_sum_reduce(SHMEM_TEAM_WORLD, src, src, N) != 0;
	for (int i = 0; i < N; i++)
		bad |= src[i] != npes * (npes - 1) / 2 + npes * i;
	printf("PE %d: max %d %d %d, sum %d %d %d%s\n", me, dst[0], dst[1],
	       dst[2], src[0], src[1], src[2], bad ? " WRONG" : "");
	shmem_free(dst);
	shmem_free(src);
	shmem_finalize();
	return bad;
}
