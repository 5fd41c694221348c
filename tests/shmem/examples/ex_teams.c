/* SPDX-License-Identifier: MIT */
/* The specification's team examples: split_strided (the even PEs),
 * split_2d and translate_pe. */
#include <shmem.h>
#include <stdio.h>

int
main(void)
{
	shmem_team_t even, xteam, yteam;
	shmem_team_config_t *config = NULL;
	long mask = 0;
	shmem_init();
	int me = shmem_my_pe(), npes = shmem_n_pes();
	shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2,
				 config, mask, &even);
	if (even != SHMEM_TEAM_INVALID)
		printf("PE %d is PE %d of %d in the even team (world %d)\n",
		       me, shmem_team_my_pe(even), shmem_team_n_pes(even),
		       shmem_team_translate_pe(even, shmem_team_my_pe(even),
					       SHMEM_TEAM_WORLD));
	shmem_team_split_2d(SHMEM_TEAM_WORLD, 2, NULL, 0, &xteam, NULL, 0,
			    &yteam);
	printf("PE %d: x %d/%d y %d/%d\n", me, shmem_team_my_pe(xteam),
	       shmem_team_n_pes(xteam), shmem_team_my_pe(yteam),
	       shmem_team_n_pes(yteam));
	shmem_team_sync(xteam);
	shmem_team_destroy(xteam);
	shmem_team_destroy(yteam);
	shmem_team_destroy(even);
	shmem_finalize();
	return 0;
}
