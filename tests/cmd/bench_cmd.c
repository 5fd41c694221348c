// SPDX-License-Identifier: MIT
/*
 * bench_cmd: copy-engine bandwidth and latency against baselines measured
 * in the same run (a benchmark, not a test: it asserts nothing).
 *
 *   copy   zeCommandListAppendMemoryCopy on an immediate list vs memcpy,
 *          4 KiB .. 256 MiB, device USM to device USM. Two engine figures:
 *          "sync" = append + zeCommandListHostSynchronize per copy (latency
 *          included), "stream" = a batch of appends, one synchronize.
 *   fill   zeCommandListAppendMemoryFill (pattern sizes 1, 4, 16, 128; the
 *          4- to 128-byte patterns vary byte to byte) vs memset, streamed.
 *   latency  an empty append (a barrier) + host synchronize on an
 *          immediate list, asynchronous and synchronous mode.
 *
 * Every figure is the median of TRIALS trials; baseline and engine trials
 * alternate so drift hits both, and a ratio is the median of the ratios of
 * engine / baseline trial pairs (target: >= 0.9 from 1 MiB up); the
 * baseline column is the mean of the baselines' medians. Usage:
 * bench_cmd [max MiB] (default 256).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "zt.h"

#define TRIALS 9
#define MIB (1024.0 * 1024.0)

#define CHECK(expr)                                                         \
	do {                                                                \
		ze_result_t r_ = (expr);                                    \
		if (r_) {                                                   \
			fprintf(stderr, "%s failed: 0x%x\n", #expr, r_);    \
			exit(1);                                            \
		}                                                           \
	} while (0)

static double
now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/* Repetitions so one trial moves about 256 MiB (at least 2). */
static int
reps_for(size_t size)
{
	size_t r = (256u << 20) / size;
	return r < 2 ? 2 : r > 4096 ? 4096 : (int)r;
}

static ze_command_list_handle_t imm;
static char *src, *dst;

enum mode { BASE_COPY, SYNC_COPY, STREAM_COPY, BASE_SET, FILL };

static double
trial(enum mode m, size_t size, const uint8_t *pat, size_t psize)
{
	int reps = reps_for(size);
	double t0 = now_s();
	for (int i = 0; i < reps; i++) {
		switch (m) {
		case BASE_COPY:
			memcpy(dst, src, size);
			break;
		case BASE_SET:
			memset(dst, pat[0], size);
			break;
		case SYNC_COPY:
			CHECK(zt.list.pfnAppendMemoryCopy(imm, dst, src, size,
							  NULL, 0, NULL));
			CHECK(zt.list.pfnHostSynchronize(imm, UINT64_MAX));
			break;
		case STREAM_COPY:
			CHECK(zt.list.pfnAppendMemoryCopy(imm, dst, src, size,
							  NULL, 0, NULL));
			break;
		case FILL:
			CHECK(zt.list.pfnAppendMemoryFill(imm, dst, pat, psize,
							  size, NULL, 0,
							  NULL));
			break;
		}
	}
	if (m == STREAM_COPY || m == FILL)
		CHECK(zt.list.pfnHostSynchronize(imm, UINT64_MAX));
	double t = now_s() - t0;
	/* Keep the compiler from dropping the baseline loops. */
	__asm__ volatile("" : : "r"(dst) : "memory");
	return (double)size * reps / t / 1e9; /* GB/s */
}

/* Median GB/s of engine mode m and of its baseline, trials alternated;
 * the ratio is the median of the per-pair ratios (robust to drift). */
static double
measure(enum mode m, enum mode base, size_t size, const uint8_t *pat,
	size_t psize, double *eng, double *ref)
{
	double e[TRIALS], b[TRIALS], r[TRIALS];
	trial(base, size, pat, psize); /* warm up both */
	trial(m, size, pat, psize);
	for (int t = 0; t < TRIALS; t++) {
		b[t] = trial(base, size, pat, psize);
		e[t] = trial(m, size, pat, psize);
		r[t] = e[t] / b[t];
	}
	*eng = median(e, TRIALS);
	*ref = median(b, TRIALS);
	return median(r, TRIALS);
}

static void
print_size(size_t size)
{
	if (size >= (1u << 20))
		printf("%6zu MiB", size >> 20);
	else
		printf("%6zu KiB", size >> 10);
}

static double
latency_us(ze_command_list_handle_t l)
{
	enum { ITERS = 20000 };
	double v[TRIALS];
	for (int t = 0; t < TRIALS; t++) {
		double t0 = now_s();
		for (int i = 0; i < ITERS; i++) {
			CHECK(zt.list.pfnAppendBarrier(l, NULL, 0, NULL));
			CHECK(zt.list.pfnHostSynchronize(l, UINT64_MAX));
		}
		v[t] = (now_s() - t0) / ITERS * 1e6;
	}
	return median(v, TRIALS);
}

int
main(int argc, char **argv)
{
	size_t max = (argc > 1 ? (size_t)atoi(argv[1]) : 256) << 20;
	if (zt_setup_plain())
		return 1;
	ze_command_queue_desc_t qd = { ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       NULL, 1, 0, 0, 0, 0 };
	CHECK(zt.list.pfnCreateImmediate(zt.ctx, zt.dev, &qd, &imm));
	CHECK(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, max, 0, zt.dev,
				    (void **)&src));
	CHECK(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, max, 0, zt.dev,
				    (void **)&dst));
	memset(src, 1, max); /* fault every page in */
	memset(dst, 2, max);

	printf("copy (device -> device), GB/s, median of %d trials\n",
	       TRIALS);
	printf("%10s %9s %9s %7s %9s %7s\n", "size", "memcpy", "sync",
	       "ratio", "stream", "ratio");
	for (size_t s = 4096; s <= max; s *= 4) {
		/* Each engine figure against the baseline of its own
		 * (interleaved) trials. */
		double base, sync, base2, stream;
		double rs = measure(SYNC_COPY, BASE_COPY, s, NULL, 0, &sync,
				    &base);
		double rt = measure(STREAM_COPY, BASE_COPY, s, NULL, 0,
				    &stream, &base2);
		print_size(s);
		printf(" %9.2f %9.2f %7.2f %9.2f %7.2f\n", (base + base2) / 2,
		       sync, rs, stream, rt);
	}

	static const size_t psizes[] = { 1, 4, 16, 128 };
	uint8_t pat[128];
	printf("\nfill, GB/s (streamed), median of %d trials; ratio to "
	       "memset\n", TRIALS);
	printf("%10s %9s", "size", "memset");
	for (size_t k = 0; k < 4; k++)
		printf("  p%-3zu ratio", psizes[k]);
	printf("\n");
	for (size_t s = 4096; s <= max; s *= 4) {
		print_size(s);
		double base_sum = 0, ratio[4];
		for (size_t k = 0; k < 4; k++) {
			for (size_t i = 0; i < 128; i++)
				pat[i] = psizes[k] == 1 ? 0x3c
							: (uint8_t)(i * 7 + 1);
			double b, e;
			ratio[k] = measure(FILL, BASE_SET, s, pat, psizes[k],
					   &e, &b);
			base_sum += b;
		}
		printf(" %9.2f", base_sum / 4);
		for (size_t k = 0; k < 4; k++)
			printf(" %10.2f", ratio[k]);
		printf("\n");
	}

	ze_command_list_handle_t syn;
	qd.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
	CHECK(zt.list.pfnCreateImmediate(zt.ctx, zt.dev, &qd, &syn));
	printf("\nlatency of an empty append + host synchronize "
	       "(immediate list), median of %d trials\n", TRIALS);
	printf("  asynchronous list: %.2f us\n", latency_us(imm));
	printf("  synchronous list:  %.2f us\n", latency_us(syn));
	CHECK(zt.list.pfnDestroy(syn));
	CHECK(zt.list.pfnDestroy(imm));
	CHECK(zt.mem.pfnFree(zt.ctx, src));
	CHECK(zt.mem.pfnFree(zt.ctx, dst));
	CHECK(zt.context.pfnDestroy(zt.ctx));
	return 0;
}
