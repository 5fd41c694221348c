/* SPDX-License-Identifier: MIT */
/* A rocSHMEM host program: each PE puts its rank into its right
 * neighbour's symmetric array, adds one to a counter on PE 0, and the
 * even PEs form a team; every PE checks what it got. */
#include <rocshmem/rocshmem.h>
#include <stdio.h>

int
main(void)
{
	if (rocshmem_init() != ROCSHMEM_SUCCESS)
		return 1;
	int me = rocshmem_my_pe(), npes = rocshmem_n_pes();
	int *dest = (int *)rocshmem_malloc(4 * sizeof(int));
	long *count = (long *)rocshmem_calloc(1, sizeof(long));
	if (!dest || !count)
		return 1;
	int src[4] = { me, me, me, me };
	rocshmem_int_put(dest, src, 4, (me + 1) % npes);
	rocshmem_long_atomic_add(count, 1, 0);
	rocshmem_barrier_all();
	int bad = dest[3] != (me + npes - 1) % npes ||
		  (me == 0 && *count != npes);
	rocshmem_team_t even;
	if (rocshmem_team_split_strided(ROCSHMEM_TEAM_WORLD, 0, 2,
					(npes + 1) / 2, NULL, 0, &even) != 0)
		bad = 1;
	if (me % 2 == 0 && rocshmem_team_my_pe(even) != me / 2)
		bad = 1;
	printf("PE %d: dest[3] = %d%s\n", me, dest[3], bad ? " WRONG" : "");
	rocshmem_team_destroy(even);
	rocshmem_free(count);
	rocshmem_free(dest);
	rocshmem_finalize();
	return bad;
}
