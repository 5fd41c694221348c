/* SPDX-License-Identifier: MIT */
/* Atomics as the specification's examples use them: a fetch-add ticket
 * counter on PE 0, a compare-swap, and the 1.4 names. */
#include <shmem.h>
#include <stdio.h>

int
main(void)
{
	shmem_init();
	int me = shmem_my_pe(), npes = shmem_n_pes();
	int *counter = (int *)shmem_calloc(1, sizeof(int));
	long *lock = (long *)shmem_calloc(1, sizeof(long));
	shmem_barrier_all();
	int ticket = shmem_int_atomic_fetch_add(counter, 1, 0);
	long old = shmem_long_atomic_compare_swap(lock, 0, me + 1, 0);
	shmem_int_fadd(counter, 0, 0);
	shmem_barrier_all();
	int total = shmem_int_atomic_fetch(counter, 0);
	printf("PE %d: ticket %d of %d, lock was %ld\n", me, ticket, total,
	       old);
	shmem_barrier_all();
	shmem_free(lock);
	shmem_free(counter);
	shmem_finalize();
	return total == npes ? 0 : 1;
}
