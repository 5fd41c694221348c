/* SPDX-License-Identifier: MIT */
/* The C11 type-generic interfaces: shmem_put, shmem_g, shmem_atomic_*,
 * shmem_wait_until, ... select the typed routine from the arguments'
 * types, with or without a context first (C11 only). */
#include <shmem.h>
#include <stdio.h>

int
main(void)
{
	shmem_init();
	int me = shmem_my_pe(), npes = shmem_n_pes();
	int right = (me + 1) % npes;
	long *l = shmem_calloc(4, sizeof(long));
	double *d = shmem_calloc(2, sizeof(double));
	unsigned *u = shmem_calloc(1, sizeof(unsigned));
	int *flag = shmem_calloc(1, sizeof(int));
	long src[2] = { me, me * 10 };
	double dv = me + 0.5;
	const long *cl = l;
	shmem_barrier_all();
	shmem_put(l, src, 2, right);
	shmem_put(SHMEM_CTX_DEFAULT, d, &dv, 1, right);
	shmem_p(&d[1], 2.25, right);
	shmem_atomic_add(&l[2], 3L, right);
	shmem_atomic_fetch_inc(SHMEM_CTX_DEFAULT, &l[3], 0);
	shmem_atomic_or(u, 1u << me, 0);
	shmem_barrier_all();
	int left = (me + npes - 1) % npes, bad = 0;
	bad |= shmem_g(cl, me) != left || shmem_g(&l[1], me) != left * 10;
	bad |= shmem_g(SHMEM_CTX_DEFAULT, &d[1], right) != 2.25;
	bad |= d[0] != left + 0.5 || l[2] != 3;
	bad |= shmem_atomic_fetch(cl + 3, 0) != npes;
	long got[2];
	shmem_get(got, l, 2, right);
	bad |= got[0] != me || got[1] != me * 10;
	shmem_barrier_all();
	if (me == 0)
		bad |= *u != (npes >= 32 ? ~0u : (1u << npes) - 1);
	/* PE 0 lets the last PE go, which then raises PE 0's flag */
	if (me == 0 && npes > 1) {
		shmem_p(flag, 1, npes - 1);
		shmem_wait_until(flag, SHMEM_CMP_EQ, 2);
		bad |= !shmem_test(flag, SHMEM_CMP_EQ, 2);
	} else if (me == npes - 1 && npes > 1) {
		shmem_wait_until(flag, SHMEM_CMP_EQ, 1);
		shmem_atomic_set(flag, 2, 0);
	}
	printf("PE %d: generics %s\n", me, bad ? "WRONG" : "ok");
	shmem_barrier_all();
	shmem_free(flag);
	shmem_free(u);
	shmem_free(d);
	shmem_free(l);
	shmem_finalize();
	return bad;
}
