/* SPDX-License-Identifier: MIT */
/* After the specification's lock example: every PE, under one lock, reads
 * a counter on PE 0, prints and increments it; each value is taken once,
 * so after the barrier the counter is the number of PEs. */
#include <shmem.h>
#include <stdio.h>

int
main(void)
{
	shmem_init();
	int me = shmem_my_pe(), npes = shmem_n_pes();
	long *lock = (long *)shmem_calloc(1, sizeof(long));
	int *count = (int *)shmem_calloc(1, sizeof(int));
	if (!lock || !count)
		return 1;
	shmem_set_lock(lock);
	int val = shmem_int_g(count, 0);
	printf("PE %d: count was %d\n", me, val);
	shmem_int_p(count, val + 1, 0);
	shmem_clear_lock(lock);
	shmem_barrier_all();
	int total = shmem_int_g(count, 0);
	int bad = total != npes;
	if (bad)
		printf("PE %d: count %d, expected %d WRONG\n", me, total, npes);
	shmem_barrier_all();
	shmem_free(count);
	shmem_free(lock);
	shmem_finalize();
	return bad;
}
