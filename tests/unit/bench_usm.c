// SPDX-License-Identifier: MIT
/*
 * bench_usm: micro-benchmarks of driver/usm against baselines measured in
 * the same run. Prints medians and ratios; asserts nothing.
 *
 *   pair   usm_alloc + usm_free of one kind and size, the memory never
 *          touched, against malloc + free of the same size;
 *   query  usm_query on interior pointers of n live 64 B HOST allocations
 *          (n = 1K, 100K, 1M), visited in a random order, so the records
 *          come from wherever the cache hierarchy has them; next to it,
 *          the machine's own cost of n random 16-byte reads (what one
 *          query cannot avoid: its record), independent and dependent.
 *
 * Run: bench_usm [repetitions (default 9)]. Targets from the design:
 * pair <= 2x malloc at 64 B, 1 KiB, 64 KiB; query <= 100 ns at 1M and
 * <= 1.5x the 1K figure.
 *
 * Reuse: a benchmark tool can `#define BENCH_USM_NO_MAIN` and
 * `#include "bench_usm.c"`, then call bench_usm_report(stdout, reps) or the
 * bench_* functions (each returns nanoseconds per operation, median of
 * reps runs).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "usm.h"

static double
bench_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int
bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double
bench_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), bench_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define BENCH_ESCAPE(p) __asm__ volatile("" : : "r"(p) : "memory")

/* malloc + free of size bytes: ns per pair, median of reps runs. */
static double
bench_malloc_pair(size_t size, long iters, int reps)
{
	double v[64];
	if (reps > 64)
		reps = 64;
	for (int r = 0; r < reps; r++) {
		double t = bench_now();
		for (long i = 0; i < iters; i++) {
			void *p = malloc(size);
			BENCH_ESCAPE(p);
			free(p);
		}
		v[r] = (bench_now() - t) / (double)iters;
	}
	return bench_median(v, reps);
}

/* usm_alloc + usm_free: ns per pair, median of reps runs; < 0 on error. */
static double
bench_usm_pair(struct usm_heap *h, enum usm_kind kind, size_t size,
	       long iters, int reps)
{
	static int ctx;
	struct usm_req q = { .kind = kind, .size = size, .ctx = &ctx };
	double v[64];
	void *p;
	if (reps > 64)
		reps = 64;
	for (long i = 0; i < 1000; i++) { /* warm: segment, cache */
		if (usm_alloc(h, &q, &p) || usm_free(h, p, &ctx, NULL))
			return -1;
	}
	for (int r = 0; r < reps; r++) {
		double t = bench_now();
		for (long i = 0; i < iters; i++) {
			usm_alloc(h, &q, &p);
			BENCH_ESCAPE(p);
			usm_free(h, p, &ctx, NULL);
		}
		v[r] = (bench_now() - t) / (double)iters;
	}
	return bench_median(v, reps);
}

static uint64_t
bench_rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* usm_query over n live 64 B host allocations, interior pointers in a
 * random order: ns per query, median of reps runs of nq queries. */
static double
bench_usm_query(struct usm_heap *h, size_t n, long nq, int reps)
{
	static int ctx;
	struct usm_req q = { .kind = USM_KIND_HOST, .size = 64, .ctx = &ctx };
	void **live = malloc(n * sizeof(*live));
	char **ptrs = malloc(n * sizeof(*ptrs));
	double v[64], res = -1;
	size_t made = 0;
	if (!live || !ptrs)
		goto out;
	if (reps > 64)
		reps = 64;
	for (; made < n; made++)
		if (usm_alloc(h, &q, &live[made]))
			goto out;
	uint64_t seed = 0x2545f4914f6cdd1dull;
	for (size_t i = 0; i < n; i++)
		ptrs[i] = (char *)live[i] + 1 + bench_rng(&seed) % 63;
	for (size_t i = n - 1; i > 0; i--) { /* Fisher-Yates */
		size_t j = bench_rng(&seed) % (i + 1);
		char *t = ptrs[i];
		ptrs[i] = ptrs[j];
		ptrs[j] = t;
	}
	struct usm_info info;
	uintptr_t sum = 0;
	for (int r = 0; r < reps; r++) {
		size_t k = 0;
		double t = bench_now();
		for (long i = 0; i < nq; i++) {
			if (usm_query(h, ptrs[k], &info))
				goto out;
			sum += (uintptr_t)info.base;
			if (++k == n)
				k = 0;
		}
		v[r] = (bench_now() - t) / (double)nq;
	}
	BENCH_ESCAPE(sum);
	res = bench_median(v, reps);
out:
	while (made)
		usm_free(h, live[--made], &ctx, NULL);
	free(live);
	free(ptrs);
	return res;
}

/* Random 16-byte reads over n records (what a query must at least do):
 * ns per read, independent (misses may overlap) or each one depending on
 * the previous (a full miss latency each). */
static double
bench_mem_random(size_t n, long nq, int reps, int dependent)
{
	uint64_t *a = malloc(n * 16);
	uint32_t *idx = malloc(n * sizeof(*idx));
	double v[64], res = -1;
	if (!a || !idx)
		goto out;
	if (reps > 64)
		reps = 64;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	for (size_t i = 0; i < n; i++)
		idx[i] = (uint32_t)i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = bench_rng(&seed) % (i + 1);
		uint32_t t = idx[i];
		idx[i] = idx[j];
		idx[j] = t;
	}
	for (size_t i = 0; i < n; i++) /* a cycle through all records */
		a[2 * idx[i]] = idx[(i + 1) % n];
	uint64_t sum = 0;
	for (int r = 0; r < reps; r++) {
		size_t k = 0;
		uint64_t p = idx[0];
		double t = bench_now();
		for (long i = 0; i < nq; i++) {
			if (dependent) {
				p = a[2 * p];
			} else {
				sum += a[2 * idx[k]];
				if (++k == n)
					k = 0;
			}
		}
		v[r] = (bench_now() - t) / (double)nq;
		sum += p;
	}
	BENCH_ESCAPE(sum);
	res = bench_median(v, reps);
out:
	free(a);
	free(idx);
	return res;
}

/* The whole table; returns 0, or -1 if a heap could not be made. Each
 * repetition times malloc and usm back to back; the ratio printed is the
 * median of the per-repetition ratios (robust against a loaded machine).
 */
static int
bench_usm_report(FILE *out, int reps)
{
	static const size_t sizes[] = { 64, 1024, 65536 };
	const long iters = 200000;
	struct usm_heap *h;
	if (reps > 64)
		reps = 64;
	if (usm_heap_create(&h))
		return -1;
	fprintf(out, "alloc+free pair: ns (median of %d runs of %ld) and "
		     "ratio to malloc+free (median of per-run ratios; target "
		     "<= 2.0)\n", reps, iters);
	fprintf(out, "%8s %8s %8s %8s %8s %7s %7s %7s\n", "size", "malloc",
		"host", "device", "shared", "host", "device", "shared");
	for (unsigned s = 0; s < 3; s++) {
		double base[64], t[4][64], ratio[4][64], mt[4], mr[4];
		for (int r = 0; r < reps; r++) {
			for (int k = USM_KIND_HOST; k <= USM_KIND_SHARED; k++) {
				base[r] = bench_malloc_pair(sizes[s], iters, 1);
				t[k][r] = bench_usm_pair(h, (enum usm_kind)k,
							 sizes[s], iters, 1);
				ratio[k][r] = t[k][r] / base[r];
			}
		}
		for (int k = USM_KIND_HOST; k <= USM_KIND_SHARED; k++) {
			mt[k] = bench_median(t[k], reps);
			mr[k] = bench_median(ratio[k], reps);
		}
		fprintf(out, "%8zu %8.1f %8.1f %8.1f %8.1f %7.2f %7.2f %7.2f\n",
			sizes[s], bench_median(base, reps), mt[1], mt[2], mt[3],
			mr[1], mr[2], mr[3]);
	}
	usm_heap_destroy(h);
	static const size_t live[] = { 1000, 100000, 1000000 };
	double q[3];
	fprintf(out, "\nusm_query on interior pointers of n live 64 B host "
		     "allocations, random order (median of %d runs)\n", reps);
	fprintf(out, "%9s %8s %7s %14s %14s\n", "n", "ns", "vs 1K",
		"16B read, ind.", "16B read, dep.");
	for (int i = 0; i < 3; i++) {
		if (usm_heap_create(&h))
			return -1;
		q[i] = bench_usm_query(h, live[i], 1000000, reps);
		usm_heap_destroy(h);
		double mi = bench_mem_random(live[i], 1000000, reps, 0);
		double md = bench_mem_random(live[i], 1000000, reps, 1);
		fprintf(out, "%9zu %8.1f %7.2f %14.1f %14.1f\n", live[i], q[i],
			q[i] / q[0], mi, md);
	}
	fprintf(out, "targets: 1M <= 100 ns: %s; 1M <= 1.5x 1K: %s\n",
		q[2] <= 100 ? "met" : "missed",
		q[2] <= 1.5 * q[0] ? "met" : "missed");
	return 0;
}

#ifndef BENCH_USM_NO_MAIN
int
main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 9;
	if (reps < 1)
		reps = 1;
	return bench_usm_report(stdout, reps) ? EXIT_FAILURE : EXIT_SUCCESS;
}
#endif
