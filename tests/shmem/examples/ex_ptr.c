/* SPDX-License-Identifier: MIT */
/* After the specification's shmem_ptr example: where a peer's symmetric
 * array is reachable by load/store, PE 0 writes it directly through the
 * pointer shmem_ptr returns; otherwise it puts. */
#include <shmem.h>
#include <stdio.h>

int
main(void)
{
	shmem_init();
	int me = shmem_my_pe(), npes = shmem_n_pes();
	int *arr = (int *)shmem_calloc(8, sizeof(int));
	if (!arr)
		return 1;
	shmem_barrier_all();
	int direct = 0;
	if (me == 0) {
		for (int pe = 1; pe < npes; pe++) {
			int *p = (int *)shmem_ptr(arr, pe);
			if (p) {
				for (int i = 0; i < 8; i++)
					p[i] = pe * 10 + i;
				direct++;
			} else {
				for (int i = 0; i < 8; i++)
					shmem_int_p(arr + i, pe * 10 + i, pe);
			}
		}
		shmem_quiet();
	}
	shmem_barrier_all();
	int bad = 0;
	for (int i = 0; me != 0 && i < 8; i++)
		if (arr[i] != me * 10 + i)
			bad = 1;
	if (me == 0)
		printf("PE 0: %d of %d peers written through shmem_ptr\n",
		       direct, npes - 1);
	else
		printf("PE %d: arr[7] = %d%s\n", me, arr[7],
		       bad ? " WRONG" : "");
	shmem_barrier_all();
	shmem_free(arr);
	shmem_finalize();
	return bad;
}
