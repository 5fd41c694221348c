// SPDX-License-Identifier: MIT
/*
 * zeshmem-demo: a small OpenSHMEM job that shows libzeshmem at work; the
 * end of ./quickstart demo. Run it with zeshrun (zeshrun -n 4 --
 * zeshmem-demo) or mpirun; every PE prints what it did.
 *
 *   1. a ring of put_signal: each PE puts a 1 MiB block into its right
 *      neighbour's heap with a signal; the neighbour waits on the signal and
 *      checks every word. Timed against memcpy of the same block.
 *   2. a reduction across the PEs' heaps: each PE sums its slice of a
 *      vector over every PE's heap (read in place through shmem_ptr, else
 *      with shmem_getmem) and puts the sums back into every heap.
 *   3. atomics: every PE takes tickets from a counter on PE 0.
 * PE 0 ends with "zeshmem-demo: PASS ..." when every check held; any PE
 * that saw a wrong value exits 1 (the job then fails).
 */
#include <shmem.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RING_WORDS (1u << 17) /* 1 MiB of uint64_t */
#define VEC 4096
#define TICKETS 1000

static int me, npes;
static char report[3][256];

/* Prints every PE's lines, PE 0 first (collective). */
static void
print_in_order(int nlines)
{
	for (int pe = 0; pe < npes; pe++) {
		if (pe == me)
			for (int i = 0; i < nlines; i++)
				printf("%s\n", report[i]);
		fflush(stdout);
		shmem_barrier_all();
	}
}

static double
now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

int
main(void)
{
	shmem_init();
	me = shmem_my_pe();
	npes = shmem_n_pes();
	int right = (me + 1) % npes, left = (me + npes - 1) % npes;
	int bad = 0;

	uint64_t *ring = shmem_malloc(RING_WORDS * sizeof(uint64_t));
	uint64_t *sig = shmem_calloc(1, sizeof(uint64_t));
	double *vec = shmem_malloc(VEC * sizeof(double));
	double *sum = shmem_malloc(VEC * sizeof(double));
	long *counter = shmem_calloc(1, sizeof(long));
	long *ok = shmem_calloc(1, sizeof(long));
	uint64_t *src = malloc(RING_WORDS * sizeof(uint64_t));
	uint64_t *tmp = malloc(RING_WORDS * sizeof(uint64_t));
	if (!ring || !sig || !vec || !sum || !counter || !ok || !src || !tmp) {
		fprintf(stderr, "PE %d: out of memory\n", me);
		return 1;
	}

	/* 1. the ring */
	for (uint64_t k = 0; k < RING_WORDS; k++)
		src[k] = (uint64_t)me << 40 | k;
	/* warm: both blocks touched once, then timed */
	memcpy(tmp, src, RING_WORDS * sizeof(uint64_t));
	shmem_uint64_put(ring, src, RING_WORDS, right);
	shmem_barrier_all();
	double t0 = now_us();
	shmem_uint64_put_signal(ring, src, RING_WORDS, sig, 1,
				SHMEM_SIGNAL_SET, right);
	double t_put = now_us() - t0;
	shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 1);
	for (uint64_t k = 0; k < RING_WORDS; k++)
		if (ring[k] != ((uint64_t)left << 40 | k)) {
			bad = 1;
			break;
		}
	t0 = now_us();
	memcpy(tmp, src, RING_WORDS * sizeof(uint64_t));
	double t_cpy = now_us() - t0;
	snprintf(report[0], sizeof(report[0]), "PE %d: put_signal 1 MiB to PE "
		 "%d in %.1f us (memcpy %.1f us, x%.2f); the block from PE %d "
		 "is %s", me, right, t_put, t_cpy,
		 t_cpy > 0 ? t_put / t_cpy : 0, left, bad ? "WRONG" : "exact");
	shmem_barrier_all();

	/* 2. the reduction: vec[i] = pe + i on each PE; PE me sums its slice
	 * over every heap, then puts the sums into every PE's sum. */
	for (int i = 0; i < VEC; i++)
		vec[i] = me + i;
	shmem_barrier_all();
	int lo = VEC * me / npes, hi = VEC * (me + 1) / npes;
	int direct = 0;
	t0 = now_us();
	for (int i = lo; i < hi; i++)
		sum[i] = 0;
	for (int pe = 0; pe < npes; pe++) {
		const double *p = shmem_ptr(vec, pe);
		if (p) {
			direct++;
			for (int i = lo; i < hi; i++)
				sum[i] += p[i];
		} else {
			shmem_getmem((double *)tmp + lo, vec + lo,
				     (size_t)(hi - lo) * sizeof(double), pe);
			for (int i = lo; i < hi; i++)
				sum[i] += ((double *)tmp)[i];
		}
	}
	for (int pe = 0; pe < npes; pe++)
		if (pe != me)
			shmem_double_put(sum + lo, sum + lo, (size_t)(hi - lo),
					 pe);
	double t_red = now_us() - t0;
	shmem_barrier_all();
	int rbad = 0;
	double tri = (double)npes * (npes - 1) / 2;
	for (int i = 0; i < VEC; i++)
		if (sum[i] != tri + (double)npes * i)
			rbad = 1;
	bad |= rbad;
	snprintf(report[1], sizeof(report[1]), "PE %d: summed elements [%d, "
		 "%d) over %d heaps (%d read in place) in %.1f us; all %d sums "
		 "are %s", me, lo, hi, npes, direct, t_red, VEC,
		 rbad ? "WRONG" : "exact");

	/* 3. tickets */
	t0 = now_us();
	for (int i = 0; i < TICKETS; i++)
		shmem_long_atomic_fetch_inc(counter, 0);
	double t_amo = (now_us() - t0) / TICKETS;
	shmem_long_atomic_add(ok, bad ? 0 : 1, 0);
	shmem_barrier_all();
	snprintf(report[2], sizeof(report[2]), "PE %d: took %d tickets from "
		 "PE 0 by fetch_inc at %.2f us each", me, TICKETS, t_amo);
	print_in_order(3);
	if (me == 0) {
		long n = (long)npes * TICKETS;
		int pass = *counter == n && *ok == npes;
		printf("zeshmem-demo: %s (%d PEs: put_signal ring, reduction "
		       "across heaps, %ld atomic tickets; every value %s)\n",
		       pass ? "PASS" : "FAIL", npes, *counter,
		       pass ? "exact" : "checked, some WRONG");
		bad |= !pass;
	}
	shmem_barrier_all();
	free(tmp);
	free(src);
	shmem_free(ok);
	shmem_free(counter);
	shmem_free(sum);
	shmem_free(vec);
	shmem_free(sig);
	shmem_free(ring);
	shmem_finalize();
	return bad;
}
