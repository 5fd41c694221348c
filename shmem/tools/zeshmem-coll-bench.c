// SPDX-License-Identifier: MIT
/*
 * zeshmem-coll-bench: the collectives' figures, as ratios to a baseline
 * measured in the same run. Run it as a job:
 *
 *   zeshrun -n N zeshmem-coll-bench [--quick]
 *
 * Cases: barrier_all; broadcast of 8 B, 64 KiB and 1 MiB; fcollect and
 * sum-reduction (long) of 1 KiB, 64 KiB and 1 MiB (per PE); alltoall of
 * 1 KiB per PE. Each is timed on every PE over trials of a fixed number
 * of calls (the same on every PE: a collective), PE 0 prints the median
 * of the trials' slowest PE. The baseline: a memcpy, on PE 0, of the
 * bytes each PE must receive (broadcast and reduction: the size;
 * fcollect and alltoall: (N - 1) x the size), between two private
 * buffers, the same number of trials, median. barrier_all has no baseline
 * (its time is printed). --quick: 3 trials of few calls (a smoke run).
 */
#include <shmem.h>

#include "bench_time.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXTRIALS 15

static int me, npes, quick;
static double *tbuf; /* symmetric: per trial time, max-reduced */
static double *tmax;

enum op { BARRIER, BCAST, FCOLLECT, SUM, ALLTOALL };

static const char *const names[] = {
	"barrier_all", "broadcast", "fcollect", "sum_reduce(long)",
	"alltoall",
};

static int
trials(void)
{
	return quick ? 3 : MAXTRIALS;
}

/* Calls per trial: about 8 MiB of traffic, 1..2000 (quick: / 20). */
static long
iters(size_t bytes)
{
	long it = bytes ? (long)((8u << 20) / bytes) : 2000;
	if (it > 2000)
		it = 2000;
	if (quick)
		it /= 20;
	return it < 1 ? 1 : it;
}

static void
one(enum op op, char *dest, char *src, size_t bytes)
{
	switch (op) {
	case BARRIER:
		shmem_barrier_all();
		break;
	case BCAST:
		shmem_broadcastmem(SHMEM_TEAM_WORLD, dest, src, bytes, 0);
		break;
	case FCOLLECT:
		shmem_fcollectmem(SHMEM_TEAM_WORLD, dest, src, bytes);
		break;
	case SUM:
		shmem_long_sum_reduce(SHMEM_TEAM_WORLD, (long *)dest,
				      (const long *)src, bytes / sizeof(long));
		break;
	case ALLTOALL:
		shmem_alltoallmem(SHMEM_TEAM_WORLD, dest, src, bytes);
		break;
	}
}

/* The bytes each PE must receive. */
static size_t
recv_bytes(enum op op, size_t bytes)
{
	switch (op) {
	case FCOLLECT:
	case ALLTOALL:
		return bytes * (size_t)(npes > 1 ? npes - 1 : 1);
	case BARRIER:
		return 0;
	default:
		return bytes;
	}
}

static void
run(enum op op, size_t bytes, char *dest, char *src, char *p1, char *p2)
{
	long it = iters(bytes);
	int nt = trials();
	for (long i = 0; i < it / 4 + 1; i++) /* warm up */
		one(op, dest, src, bytes);
	for (int t = 0; t < nt; t++) {
		shmem_barrier_all();
		double t0 = now_us();
		for (long i = 0; i < it; i++)
			one(op, dest, src, bytes);
		tbuf[t] = (now_us() - t0) / (double)it;
	}
	shmem_double_max_reduce(SHMEM_TEAM_WORLD, tmax, tbuf, (size_t)nt);
	size_t rb = recv_bytes(op, bytes);
	double base[MAXTRIALS];
	for (int t = 0; rb && me == 0 && t < nt; t++) {
		memcpy(p1, p2, rb);
		double t0 = now_us();
		for (long i = 0; i < it; i++) {
			memcpy(p1, p2, rb);
			__asm__ __volatile__("" : : "r"(p1) : "memory");
		}
		base[t] = (now_us() - t0) / (double)it;
	}
	if (me == 0) {
		double c = median(tmax, nt);
		char size[32];
		if (op == BARRIER)
			snprintf(size, sizeof(size), "-");
		else if (bytes >= (1u << 20))
			snprintf(size, sizeof(size), "%zu MiB", bytes >> 20);
		else if (bytes >= 1024)
			snprintf(size, sizeof(size), "%zu KiB", bytes >> 10);
		else
			snprintf(size, sizeof(size), "%zu B", bytes);
		if (rb) {
			double b = median(base, nt);
			printf("  %-18s %8s %10.2f us %10.2f us %7.2fx\n",
			       names[op], size, c, b, b > 0 ? c / b : 0);
		} else {
			printf("  %-18s %8s %10.3f us\n", names[op], size, c);
		}
	}
	shmem_barrier_all();
}

int
main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick")) {
			quick = 1;
		} else {
			fprintf(stderr, "usage: zeshrun -n N zeshmem-coll-bench "
					"[--quick]\n");
			return 2;
		}
	}
	shmem_init();
	me = shmem_my_pe();
	npes = shmem_n_pes();
	size_t big = 1u << 20;
	size_t sym = big * (size_t)npes;
	char *dest = shmem_malloc(sym), *src = shmem_malloc(sym);
	tbuf = shmem_malloc(MAXTRIALS * sizeof(double));
	tmax = shmem_malloc(MAXTRIALS * sizeof(double));
	char *p1 = malloc(sym), *p2 = malloc(sym);
	if (!dest || !src || !tbuf || !tmax || !p1 || !p2) {
		fprintf(stderr, "zeshmem-coll-bench: out of memory (%zu bytes "
				"of symmetric heap needed twice: "
				"ZESHMEM_SYMMETRIC_SIZE)\n", sym);
		return 1;
	}
	memset(dest, 1, sym);
	memset(src, 2, sym);
	memset(p1, 3, sym);
	memset(p2, 4, sym);
	if (me == 0)
		printf("zeshmem-coll-bench: %d PEs, medians of %d trials; "
		       "baseline: memcpy of the bytes each PE receives\n"
		       "  %-18s %8s %13s %13s %8s\n", npes, trials(), "case",
		       "size", "collective", "memcpy", "ratio");
	run(BARRIER, 0, dest, src, p1, p2);
	run(BCAST, 8, dest, src, p1, p2);
	run(BCAST, 64 << 10, dest, src, p1, p2);
	run(BCAST, big, dest, src, p1, p2);
	run(FCOLLECT, 1 << 10, dest, src, p1, p2);
	run(FCOLLECT, 64 << 10, dest, src, p1, p2);
	run(FCOLLECT, big, dest, src, p1, p2);
	run(SUM, 1 << 10, dest, src, p1, p2);
	run(SUM, 64 << 10, dest, src, p1, p2);
	run(SUM, big, dest, src, p1, p2);
	run(ALLTOALL, 1 << 10, dest, src, p1, p2);
	free(p1);
	free(p2);
	shmem_free(tmax);
	shmem_free(tbuf);
	shmem_free(src);
	shmem_free(dest);
	shmem_finalize();
	return 0;
}
