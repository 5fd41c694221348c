/* SPDX-License-Identifier: MIT */
/* After the specification's iget/iput examples: PE 0 gathers every second
 * element of PE 1's array with shmem_long_iget and scatters them back
 * with a stride of 3 into PE 1's second array with shmem_long_iput. */
#include <shmem.h>
#include <stdio.h>

int
main(void)
{
	shmem_init();
	int me = shmem_my_pe(), npes = shmem_n_pes();
	long *src = (long *)shmem_calloc(10, sizeof(long));
	long *dst = (long *)shmem_calloc(15, sizeof(long));
	if (!src || !dst)
		return 1;
	for (int i = 0; i < 10; i++)
		src[i] = 100 * me + i;
	shmem_barrier_all();
	int bad = 0;
	if (me == 0 && npes > 1) {
		long got[5];
		shmem_long_iget(got, src, 1, 2, 5, 1);
		for (int i = 0; i < 5; i++)
			if (got[i] != 100 + 2 * i)
				bad = 1;
		shmem_long_iput(dst, got, 3, 1, 5, 1);
		printf("PE 0: iget from PE 1: %ld %ld %ld %ld %ld%s\n", got[0],
		       got[1], got[2], got[3], got[4], bad ? " WRONG" : "");
	}
	shmem_barrier_all();
	if (me == 1)
		for (int i = 0; i < 15; i++)
			if (dst[i] != (i % 3 ? 0 : 100 + 2 * (i / 3)))
				bad = 1;
	if (me == 1)
		printf("PE 1: iput from PE 0: %ld %ld %ld%s\n", dst[0], dst[3],
		       dst[12], bad ? " WRONG" : "");
	shmem_barrier_all();
	shmem_free(dst);
	shmem_free(src);
	shmem_finalize();
	return bad;
}
