// SPDX-License-Identifier: MIT
/*
 * osu_style: OSU-style latencies of the OpenSHMEM routines at 2 PEs, in
 * the API that libzeshmem and Open MPI's liboshmem (OpenSHMEM 1.4) both
 * have, so one source is built against each (shmem/tools/osu_compare.sh
 * does both and prints the ratios).
 *
 *   osu_style [--quick]        (under zeshrun -n 2 or oshrun -np 2)
 *
 * PE 0 prints "<case> <bytes> <us>": the median of 5 trials of the time
 * per call.
 * - put, get: shmem_putmem + shmem_quiet / shmem_getmem of n bytes from
 *   PE 0 to PE 1 (PE 1 waits in the closing barrier);
 * - fadd, cswap, add+quiet: 8-byte atomics from PE 0 on PE 1;
 * - barrier: shmem_barrier_all on both PEs;
 * - bcast: shmem_broadcast64 from PE 0, then shmem_barrier_all (a root
 *   may not start the next broadcast before the others took this one's
 *   data: the barrier is the pSync's reuse rule, timed on both
 *   libraries alike); reduce: shmem_long_sum_to_all of n / 8 longs;
 *   fcollect: shmem_fcollect64 of n bytes from each PE. The reduce and
 *   fcollect alternate two pSync arrays (every PE takes part in both, so
 *   none is more than one call ahead).
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXB (1 << 20)
#define TRIALS 5

static long psync[2][SHMEM_REDUCE_SYNC_SIZE > SHMEM_BCAST_SYNC_SIZE ?
			    SHMEM_REDUCE_SYNC_SIZE :
			    SHMEM_BCAST_SYNC_SIZE];
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE > MAXB / 16 + 1 ?
			 SHMEM_REDUCE_MIN_WRKDATA_SIZE :
			 MAXB / 16 + 1]; /* nreduce / 2 + 1 */
static const size_t sizes[] = { 8, 64, 512, 4096, 32768, 262144, MAXB };
static long amo_word;

static double
now_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

enum op { PUT, GET, FADD, CSWAP, ADDQ, BARRIER, BCAST, REDUCE, FCOLLECT };
static const char *const names[] = { "put", "get", "fadd", "cswap",
				     "add+quiet", "barrier", "bcast",
				     "reduce", "fcollect" };

static void
one(enum op op, int me, char *dst, char *src, size_t n, long i)
{
	long *ps = psync[i & 1];
	switch (op) {
	case PUT:
		if (me == 0) {
			shmem_putmem(dst, src, n, 1);
			shmem_quiet();
		}
		break;
	case GET:
		if (me == 0)
			shmem_getmem(dst, src, n, 1);
		break;
	case FADD:
		if (me == 0)
			(void)shmem_long_atomic_fetch_add(&amo_word, 1, 1);
		break;
	case CSWAP:
		if (me == 0)
			(void)shmem_long_atomic_compare_swap(&amo_word, i,
							     i + 1, 1);
		break;
	case ADDQ:
		if (me == 0) {
			shmem_long_atomic_add(&amo_word, 1, 1);
			shmem_quiet();
		}
		break;
	case BARRIER:
		shmem_barrier_all();
		break;
	case BCAST:
		shmem_broadcast64(dst, src, n / 8, 0, 0, 0, 2, psync[0]);
		shmem_barrier_all();
		break;
	case REDUCE:
		shmem_long_sum_to_all((long *)dst, (long *)src, (int)(n / 8),
				      0, 0, 2, pwrk, ps);
		break;
	case FCOLLECT:
		shmem_fcollect64(dst, src, n / 8, 0, 0, 2, ps);
		break;
	}
}

int
main(int argc, char **argv)
{
	int quick = argc > 1 && !strcmp(argv[1], "--quick");
	shmem_init();
	int me = shmem_my_pe();
	if (shmem_n_pes() != 2) {
		if (me == 0)
			fprintf(stderr, "osu_style: run on 2 PEs\n");
		shmem_finalize();
		return 1;
	}
	for (int k = 0; k < 2; k++)
		for (size_t j = 0;
		     j < sizeof(psync[k]) / sizeof(psync[k][0]); j++)
			psync[k][j] = SHMEM_SYNC_VALUE;
	char *src = shmem_malloc(2 * MAXB), *dst = shmem_malloc(2 * MAXB);
	if (!src || !dst) {
		fprintf(stderr, "osu_style: shmem_malloc failed\n");
		shmem_global_exit(1);
	}
	memset(src, me + 1, 2 * MAXB);
	memset(dst, 0, 2 * MAXB);
	shmem_barrier_all();
	for (int op = PUT; op <= FCOLLECT; op++) {
		int sized = op == PUT || op == GET || op >= BCAST;
		int ns = sized ? (int)(sizeof(sizes) / sizeof(sizes[0])) : 1;
		for (int si = 0; si < ns; si++) {
			size_t n = sizes[si];
			long it = quick ? 4 : n <= 4096 ? 2000
					      : n <= 65536 ? 400 : 60;
			double t[TRIALS];
			for (long i = 0; i < it / 4 + 1; i++)
				one((enum op)op, me, dst, src, n, i);
			for (int k = 0; k < TRIALS; k++) {
				shmem_barrier_all();
				double t0 = now_us();
				for (long i = 0; i < it; i++)
					one((enum op)op, me, dst, src, n, i);
				t[k] = (now_us() - t0) / (double)it;
			}
			shmem_barrier_all();
			qsort(t, TRIALS, sizeof(t[0]), cmp_double);
			if (me == 0)
				printf("%s %zu %.3f\n", names[op], n,
				       t[TRIALS / 2]);
		}
	}
	fflush(stdout);
	shmem_barrier_all();
	shmem_free(src);
	shmem_free(dst);
	shmem_finalize();
	return 0;
}
