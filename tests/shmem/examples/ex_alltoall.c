/* SPDX-License-Identifier: MIT */
/* In the spirit of the specification's alltoall example: PE i sends
 * block j (one int64) to PE j; afterwards block j of every PE's dest
 * came from PE j and says so. */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>

int
main(void)
{
	shmem_init();
	int me = shmem_my_pe(), npes = shmem_n_pes();
	int64_t *src = shmem_malloc(sizeof(int64_t) * (size_t)npes);
	int64_t *dst = shmem_malloc(sizeof(int64_t) * (size_t)npes);
	for (int pe = 0; pe < npes; pe++)
		src[pe] = me * 100 + pe;
	int bad = shmem_int64_alltoall(SHMEM_TEAM_WORLD, dst, src, 1) != 0;
	for (int pe = 0; pe < npes; pe++)
		bad |= dst[pe] != pe * 100 + me;
	printf("PE %d: dest[0] = %lld%s\n", me, (long long)dst[0],
	       bad ? " WRONG" : "");
	shmem_free(dst);
	shmem_free(src);
	shmem_finalize();
	return bad;
}
