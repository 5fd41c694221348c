/* SPDX-License-Identifier: MIT */
/* In the spirit of the specification's broadcast example: PE 0's four
 * longs reach every PE of the world team; each PE checks them and exits
 * non-zero when they differ. */
#include <shmem.h>
#include <stdio.h>

int
main(void)
{
	static long source[4], dest[4];
	shmem_init();
	int me = shmem_my_pe();
	for (int i = 0; i < 4; i++)
		source[i] = me == 0 ? 10 * (i + 1) : -1;
	long *s = shmem_malloc(sizeof(source)), *d = shmem_malloc(sizeof(dest));
	for (int i = 0; i < 4; i++)
		s[i] = source[i];
	int rc = shmem_long_broadcast(SHMEM_TEAM_WORLD, d, s, 4, 0);
	int bad = rc != 0;
	for (int i = 0; i < 4; i++) {
		dest[i] = d[i];
		bad |= dest[i] != 10 * (i + 1);
	}
	printf("PE %d: dest = %ld %ld %ld %ld%s\n", me, dest[0], dest[1],
	       dest[2], dest[3], bad ? " WRONG" : "");
	shmem_free(d);
	shmem_free(s);
	shmem_finalize();
	return bad;
}
