// SPDX-License-Identifier: MIT
/*
 * pshmem_pe: a PE of a job whose program is linked with a profiling
 * library (pshmem_wrap, before libzeshmem). It calls one routine of every
 * family through its shmem_ name, checks each result, then checks that
 * the library saw each call exactly as often as it was made, and calls a
 * pshmem_ name of <pshmem.h> directly. Run at 2 and 3 PEs.
 * Exits 0 with "PE <me>: pshmem ok", or 3 with the failed check.
 */
#include <pshmem.h>
#include <shmem.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int me, npes;

#include "pe_check.h"

long pshmem_wrap_count(const char *name);

int
main(void)
{
	shmem_init();
	me = pshmem_my_pe();
	npes = shmem_n_pes();
	int right = (me + 1) % npes;
	long *x = shmem_malloc(8 * sizeof(long));
	uint64_t *sig = shmem_malloc(sizeof(uint64_t));
	long *lock = shmem_malloc(sizeof(long));
	CHECK(x && sig && lock, "malloc");
	memset(x, 0, 8 * sizeof(long));
	*sig = 0;
	*lock = 0;
	shmem_barrier_all();
	long v = 100 + me;
	shmem_putmem(&x[0], &v, sizeof(v), right);
	shmem_long_p(&x[1], 200 + me, right);
	shmem_fence();
	shmem_long_atomic_fetch_add(&x[2], 1, right);
	shmem_putmem_signal(&x[3], &v, sizeof(v), sig, 1, SHMEM_SIGNAL_SET,
			    right);
	shmem_quiet();
	shmem_long_wait_until(&x[1], SHMEM_CMP_NE, 0);
	long tests = 0;
	do
		tests++;
	while (!shmem_long_test(&x[2], SHMEM_CMP_EQ, 1));
	/* (not wrapped: the left PE's signal may land after its x[1]) */
	shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 1);
	CHECK(shmem_signal_fetch(sig) == 1, "signal");
	shmem_barrier_all();
	int left = (me + npes - 1) % npes;
	CHECK(x[0] == 100 + left && x[1] == 200 + left && x[3] == 100 + left,
	      "put %ld %ld %ld", x[0], x[1], x[3]);
	long g = 0;
	shmem_getmem(&g, &x[0], sizeof(g), right);
	CHECK(g == 100 + me, "get %ld", g);
	x[4] = me;
	shmem_barrier_all();
	CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, &x[5], &x[4], 1) == 0 &&
		      x[5] == (long)npes * (npes - 1) / 2,
	      "sum %ld", x[5]);
	x[6] = me == 0 ? 77 : 0;
	CHECK(shmem_broadcastmem(SHMEM_TEAM_WORLD, &x[7], &x[6], sizeof(long),
				 0) == 0 && x[7] == 77, "broadcast");
	shmem_team_t t;
	CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0,
				       &t) == 0, "split");
	shmem_team_destroy(t);
	shmem_ctx_t c;
	CHECK(shmem_ctx_create(0, &c) == 0, "ctx");
	shmem_ctx_destroy(c);
	shmem_set_lock(lock);
	shmem_clear_lock(lock);
	shmem_barrier_all();
	shmem_free(lock);
	shmem_free(sig);
	shmem_free(x);
	static const struct {
		const char *name;
		long n;
	} want[] = {
		{ "init", 1 }, { "malloc", 3 }, { "free", 3 }, { "putmem", 1 },
		{ "getmem", 1 }, { "long_p", 1 },
		{ "long_atomic_fetch_add", 1 }, { "putmem_signal", 1 },
		{ "signal_fetch", 1 }, { "long_wait_until", 1 },
		{ "quiet", 1 }, { "fence", 1 }, { "barrier_all", 4 },
		{ "long_sum_reduce", 1 }, { "broadcastmem", 1 },
		{ "team_split_strided", 1 }, { "team_destroy", 1 },
		{ "ctx_create", 1 }, { "ctx_destroy", 1 }, { "set_lock", 1 },
		{ "clear_lock", 1 }, { "finalize", 0 },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		long n = pshmem_wrap_count(want[i].name);
		CHECK(n == want[i].n, "shmem_%s seen %ld times, called %ld",
		      want[i].name, n, want[i].n);
	}
	CHECK(pshmem_wrap_count("long_test") == tests,
	      "shmem_long_test seen %ld times, called %ld",
	      pshmem_wrap_count("long_test"), tests);
	printf("PE %d: pshmem ok\n", me);
	shmem_finalize();
	return 0;
}
