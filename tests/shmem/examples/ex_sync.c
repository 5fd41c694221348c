/* SPDX-License-Identifier: MIT */
/* In the spirit of the specification's active-set examples: the even PEs
 * (PE_start 0, logPE_stride 1) pass a value to their right neighbour in
 * the set, synchronise with shmem_barrier on their own pSync, sum with
 * shmem_int_sum_to_all, and check that pSync is back to SHMEM_SYNC_VALUE. */
#include <shmem.h>
#include <stdio.h>

static long pSync[SHMEM_REDUCE_SYNC_SIZE];
static int pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];

int
main(void)
{
	shmem_init();
	int me = shmem_my_pe(), npes = shmem_n_pes();
	long *ps = shmem_malloc(sizeof(pSync));
	int *pw = shmem_malloc(sizeof(pWrk));
	int *val = shmem_malloc(2 * sizeof(int));
	for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
		ps[i] = SHMEM_SYNC_VALUE;
	val[0] = val[1] = -1;
	shmem_barrier_all();
	int size = (npes + 1) / 2, bad = 0;
	if (me % 2 == 0) {
		int idx = me / 2;
		shmem_int_p(&val[0], me, 2 * ((idx + 1) % size));
		shmem_barrier(0, 1, size, ps);
		bad |= val[0] != 2 * ((idx - 1 + size) % size);
		val[1] = me;
		shmem_sync(0, 1, size, ps);
		shmem_int_sum_to_all(&val[1], &val[1], 1, 0, 1, size, pw, ps);
		bad |= val[1] != size * (size - 1);
	}
	shmem_barrier_all();
	for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
		bad |= ps[i] != SHMEM_SYNC_VALUE;
	printf("PE %d: %s%s\n", me, me % 2 ? "not in the set" : "in the set",
	       bad ? " WRONG" : "");
	shmem_free(val);
	shmem_free(pw);
	shmem_free(ps);
	shmem_finalize();
	return bad;
}
