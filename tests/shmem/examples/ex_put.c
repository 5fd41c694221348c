/* SPDX-License-Identifier: MIT */
/* The specification's shmem_put example: PE 0 puts an array into every
 * other PE's symmetric (static) array... here a heap array, as libzeshmem
 * supports the symmetric heap. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int
main(void)
{
	long source[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	shmem_init();
	long *dest = (long *)shmem_malloc(10 * sizeof(long));
	int me = shmem_my_pe(), npes = shmem_n_pes();
	for (int i = 0; i < 10; i++)
		dest[i] = 0;
	shmem_barrier_all();
	if (me == 0)
		for (int pe = 1; pe < npes; pe++)
			shmem_long_put(dest, source, 10, pe);
	shmem_barrier_all();
	int bad = 0;
	for (int i = 0; i < 10; i++)
		if (me != 0 && dest[i] != source[i])
			bad = 1;
	printf("PE %d: dest[9] = %ld%s\n", me, dest[9], bad ? " WRONG" : "");
	shmem_free(dest);
	shmem_finalize();
	return bad;
}
