// SPDX-License-Identifier: MIT
/*
 * bench_time.h: the timing helpers the shmem benchmarks share
 * (zeshmem-bench, zeshmem-ofi-bench): a monotonic clock in microseconds
 * and the median of a set of trials. Header-only (static inline), so
 * zeshmem-bench stays a program of the public shmem.h alone.
 */
#ifndef ZESHMEM_BENCH_TIME_H
#define ZESHMEM_BENCH_TIME_H

#include <stdlib.h>
#include <time.h>

static inline double
now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static inline int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median of v[0..n) (n > 0); sorts v. */
static inline double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
