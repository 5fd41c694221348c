/* SPDX-License-Identifier: MIT */
/* After the specification's wait_until example: PE 0 puts a payload to
 * every other PE, fences, then sets their flag; each waits for its flag
 * and then finds the payload complete (the fence orders the two). */
#include <shmem.h>
#include <stdio.h>

int
main(void)
{
	shmem_init();
	int me = shmem_my_pe(), npes = shmem_n_pes();
	long *payload = (long *)shmem_calloc(4, sizeof(long));
	int *flag = (int *)shmem_calloc(1, sizeof(int));
	if (!payload || !flag)
		return 1;
	long data[4] = { 10, 20, 30, 40 };
	int bad = 0;
	if (me == 0) {
		for (int pe = 1; pe < npes; pe++) {
			shmem_long_put(payload, data, 4, pe);
			shmem_fence();
			shmem_int_atomic_set(flag, 1, pe);
		}
	} else {
		shmem_int_wait_until(flag, SHMEM_CMP_EQ, 1);
		for (int i = 0; i < 4; i++)
			if (payload[i] != data[i])
				bad = 1;
		printf("PE %d: flag set, payload %ld %ld %ld %ld%s\n", me,
		       payload[0], payload[1], payload[2], payload[3],
		       bad ? " WRONG" : "");
	}
	shmem_barrier_all();
	shmem_free(flag);
	shmem_free(payload);
	shmem_finalize();
	return bad;
}
