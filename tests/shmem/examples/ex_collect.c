/* SPDX-License-Identifier: MIT */
/* In the spirit of the specification's collect and fcollect examples:
 * PE i gives i + 1 ints to collect (a concatenation in PE order) and two
 * ints to fcollect; each PE checks what it gathered. */
#include <shmem.h>
#include <stdio.h>

int
main(void)
{
	shmem_init();
	int me = shmem_my_pe(), npes = shmem_n_pes();
	int total = npes * (npes + 1) / 2;
	int *src = shmem_malloc(sizeof(int) * (size_t)(npes + 1));
	int *dst = shmem_malloc(sizeof(int) * (size_t)total);
	int *fdst = shmem_malloc(sizeof(int) * 2 * (size_t)npes);
	for (int i = 0; i <= me; i++)
		src[i] = me;
	int bad = shmem_int_collect(SHMEM_TEAM_WORLD, dst, src,
				    (size_t)me + 1) != 0;
	for (int pe = 0, at = 0; pe < npes; pe++)
		for (int i = 0; i <= pe; i++)
			bad |= dst[at++] != pe;
	src[0] = me;
	src[1] = -me;
	bad |= shmem_int_fcollect(SHMEM_TEAM_WORLD, fdst, src, 2) != 0;
	for (int pe = 0; pe < npes; pe++)
		bad |= fdst[2 * pe] != pe || fdst[2 * pe + 1] != -pe;
	printf("PE %d: collected %d ints, last %d%s\n", me, total,
	       dst[total - 1], bad ? " WRONG" : "");
	shmem_free(fdst);
	shmem_free(dst);
	shmem_free(src);
	shmem_finalize();
	return bad;
}
