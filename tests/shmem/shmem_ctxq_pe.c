// SPDX-License-Identifier: MIT
/*
 * shmem_ctxq_pe: one PE of a 2-PE job over libfabric (ZESHMEM_FORCE_NETWORK=1)
 * checking that a context's quiet waits only for its own operations
 * (issue 17, over the network transport of issue 16): every created
 * context has an endpoint of its own.
 *
 *   shmem_ctxq_pe [pending]
 *
 * PE 0 puts BIG bytes with put_nbi on context A, a few bytes on context
 * B, and quiets B; then tells PE 1 (an atomic on the default context),
 * which checks that B's bytes are there and, with "pending", that the
 * last MiB of A's transfer is not: the job runs with
 * ZESHMEM_OFI_TEST_HOLD=1 (the progress thread leaves the contexts'
 * endpoints alone, so A's transfer moves only in A's own calls), and over
 * tcp;ofi_rxm a transfer far beyond the sockets' buffers cannot have
 * ended without them. (shm copies at the target, so there the check is
 * left out.) Then PE 0 quiets A and every byte is there. Contexts are
 * created and destroyed ROUNDS times: PE 0's fds and this process's
 * /dev/shm entries are what they were (a context's endpoint is closed
 * by its destroy).
 *
 * Exits 0 with "PE <me>: ctxq ok", or 3 with the failed check on stderr.
 */
#include <shmem.h>

#include "leakcheck.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BIG ((size_t)24 << 20)
#define TAIL ((size_t)1 << 20)
#define SMALL 512
#define ROUNDS 2

static int me;

#include "pe_check.h"

/* This process's entries in /dev/shm (shm's endpoint regions). */
static int
count_shm(void)
{
	char pre[64];
	snprintf(pre, sizeof(pre), "zeshmem_%d_", (int)getpid());
	DIR *d = opendir("/dev/shm");
	if (!d)
		return 0;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		n += strstr(e->d_name, pre) != NULL;
	closedir(d);
	return n;
}

static unsigned char
pat(size_t i, int round)
{
	return (unsigned char)(i * 7 + 1 + round * 3) | 1; /* never 0 */
}

static void
one_round(int round, int pending, unsigned char *big, unsigned char *src,
	  unsigned char *small, long *go, long *seen)
{
	memset(big, 0, BIG);
	memset(small, 0, SMALL);
	*go = 0;
	*seen = 0;
	for (size_t i = 0; i < BIG; i++)
		src[i] = pat(i, round);
	int fds = leakcheck_count_fds();
	int shms = count_shm();
	shmem_ctx_t a, b;
	CHECK(shmem_ctx_create(0, &a) == 0, "ctx a");
	CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &b) == 0, "ctx b");
	shmem_barrier_all();
	if (me == 0) {
		shmem_ctx_putmem_nbi(a, big, src, BIG, 1);
		shmem_ctx_putmem_nbi(b, small, src, SMALL, 1);
		shmem_ctx_quiet(b);
		shmem_long_atomic_set(go, 1, 1);
		shmem_long_wait_until(seen, SHMEM_CMP_NE, 0);
		CHECK(*seen == 1, "PE 1 saw %s",
		      *seen == 2 ? "B's bytes missing after B's quiet"
				 : "A's tail arrived by B's quiet: "
				   "not independent");
		shmem_ctx_quiet(a);
	} else {
		shmem_long_wait_until(go, SHMEM_CMP_EQ, 1);
		long r = 1;
		if (memcmp(small, src, SMALL))
			r = 2;
		else if (pending)
			for (size_t i = BIG - TAIL; i < BIG && r == 1; i++)
				if (big[i])
					r = 3;
		shmem_long_atomic_set(seen, r, 0);
		CHECK(r == 1, "%s", r == 2 ? "B's bytes missing after its quiet"
					   : "A's tail arrived by B's quiet");
	}
	shmem_ctx_destroy(b);
	shmem_ctx_destroy(a);
	shmem_barrier_all();
	if (me == 1) {
		size_t bad = BIG;
		for (size_t i = 0; i < BIG && bad == BIG; i++)
			if (big[i] != pat(i, round))
				bad = i;
		CHECK(bad == BIG, "A's byte %zu after A's quiet: %u", bad,
		      bad < BIG ? big[bad] : 0);
	}
	/* The target's side keeps the accepted connections of a closed
	 * endpoint until its provider notices: PE 0's count only. */
	if (me == 0)
		CHECK(leakcheck_count_fds() == fds, "fds %d, were %d",
		      leakcheck_count_fds(), fds);
	CHECK(count_shm() == shms, "/dev/shm entries %d, were %d",
	      count_shm(), shms);
	shmem_barrier_all();
}

int
main(int argc, char **argv)
{
	int pending = argc == 2 && !strcmp(argv[1], "pending");
	if (argc > 2 || (argc == 2 && !pending)) {
		fprintf(stderr, "usage: shmem_ctxq_pe [pending]\n");
		return 2;
	}
	shmem_init();
	me = shmem_my_pe();
	if (shmem_n_pes() != 2) {
		fprintf(stderr, "shmem_ctxq_pe: 2 PEs, not %d\n",
			shmem_n_pes());
		shmem_finalize();
		return 2;
	}
	unsigned char *big = shmem_malloc(BIG);
	unsigned char *src = shmem_malloc(BIG);
	unsigned char *small = shmem_malloc(SMALL);
	long *flags = shmem_calloc(2, sizeof(long));
	CHECK(big && src && small && flags, "alloc");
	for (int r = 0; r < ROUNDS; r++)
		one_round(r, pending, big, src, small, &flags[0], &flags[1]);
	shmem_free(flags);
	shmem_free(small);
	shmem_free(src);
	shmem_free(big);
	shmem_finalize();
	printf("PE %d: ctxq ok\n", me);
	return 0;
}
