// SPDX-License-Identifier: MIT
/*
 * bench_ipc: latency of zeMemGetIpcHandle / zeMemOpenIpcHandle /
 * zeMemCloseIpcHandle on a 2 MiB allocation, cold and warm, in one process
 * and across processes (the exporter is ipc_helper, started with fork +
 * exec), and the read bandwidth of a 256 MiB buffer through an IPC mapping
 * against memcpy of the same buffer in its own process. Medians; every
 * figure is printed with its baseline from the same run. Not a test.
 *
 *   cold get   first get of an allocation (makes its export file)
 *   warm get   another get of an exported allocation
 *   cold open  no other import of the file is live: the fd is fetched
 *              (local table, pidfd_getfd or broker: ZEMEM_IPC_TRANSPORT)
 *   warm open  another import of the same file is live (cache hit)
 *
 * Usage: bench_ipc [iterations]   (default 2000)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ipc_peer.h"
#include "zt.h"

#define MiB (1024ull * 1024ull)
#define BIG (256 * MiB)

static uint64_t
now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static double
median_us(uint64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_u64);
	return (double)v[n / 2] / 1000.0;
}

#define CHECK(x)                                                            \
	do {                                                                \
		ze_result_t r_ = (x);                                       \
		if (r_) {                                                   \
			fprintf(stderr, "%s:%d: %s = 0x%x\n", __FILE__,     \
				__LINE__, #x, r_);                          \
			exit(1);                                            \
		}                                                           \
	} while (0)

static void *
alloc_dev(size_t size)
{
	void *p;
	CHECK(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, size, 0, zt.dev, &p));
	return p;
}

/* Open / close latencies of h: cold (nothing else open) and warm. */
static void
bench_open(const char *what, ze_ipc_mem_handle_t h, int n)
{
	uint64_t *t_open = calloc((size_t)n, 8);
	uint64_t *t_close = calloc((size_t)n, 8);
	uint64_t *t_pair = calloc((size_t)n, 8);
	void *q, *q0;
	for (int i = 0; i < n; i++) {
		uint64_t t0 = now_ns();
		CHECK(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, h, 0, &q));
		uint64_t t1 = now_ns();
		CHECK(zt.mem.pfnCloseIpcHandle(zt.ctx, q));
		t_open[i] = t1 - t0;
		t_close[i] = now_ns() - t1;
	}
	printf("%-8s cold open %8.2f us   close %8.2f us\n", what,
	       median_us(t_open, n), median_us(t_close, n));
	CHECK(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, h, 0, &q0));
	for (int i = 0; i < n; i++) {
		uint64_t t0 = now_ns();
		CHECK(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, h, 0, &q));
		uint64_t t1 = now_ns();
		CHECK(zt.mem.pfnCloseIpcHandle(zt.ctx, q));
		uint64_t t2 = now_ns();
		t_open[i] = t1 - t0;
		t_close[i] = t2 - t1;
		t_pair[i] = t2 - t0;
	}
	CHECK(zt.mem.pfnCloseIpcHandle(zt.ctx, q0));
	printf("%-8s warm open %8.2f us   close %8.2f us   open+close "
	       "%8.2f us%s\n", what, median_us(t_open, n),
	       median_us(t_close, n), median_us(t_pair, n),
	       strcmp(what, "phys4") ? " (target <= 10)" : "");
	free(t_open);
	free(t_close);
	free(t_pair);
}

static void
bench_local(int n)
{
	uint64_t *t = calloc((size_t)n, 8), *t2 = calloc((size_t)n, 8);
	int cold = n < 200 ? n : 200;
	for (int i = 0; i < cold; i++) {
		void *p = alloc_dev(2 * MiB);
		ze_ipc_mem_handle_t h;
		uint64_t t0 = now_ns();
		CHECK(zt.mem.pfnGetIpcHandle(zt.ctx, p, &h));
		t[i] = now_ns() - t0;
		CHECK(zt.mem.pfnPutIpcHandle(zt.ctx, h));
		CHECK(zt.mem.pfnFree(zt.ctx, p));
	}
	printf("local    cold get  %8.2f us\n", median_us(t, cold));
	void *p = alloc_dev(2 * MiB);
	ze_ipc_mem_handle_t h0, h;
	CHECK(zt.mem.pfnGetIpcHandle(zt.ctx, p, &h0));
	for (int i = 0; i < n; i++) {
		uint64_t t0 = now_ns();
		CHECK(zt.mem.pfnGetIpcHandle(zt.ctx, p, &h));
		uint64_t t1 = now_ns();
		CHECK(zt.mem.pfnPutIpcHandle(zt.ctx, h));
		t[i] = t1 - t0;
		t2[i] = now_ns() - t1;
	}
	printf("local    warm get  %8.2f us   put   %8.2f us\n",
	       median_us(t, n), median_us(t2, n));
	bench_open("local", h0, n);
	CHECK(zt.mem.pfnPutIpcHandle(zt.ctx, h0));
	CHECK(zt.mem.pfnFree(zt.ctx, p));
	free(t);
	free(t2);
}

static uint64_t
copy_ns(void *dst, const void *src)
{
	uint64_t t0 = now_ns();
	memcpy(dst, src, BIG);
	return now_ns() - t0;
}

/* The two copies alternate, so both see the same machine noise. */
static void
bench_bandwidth(void)
{
	enum { ROUNDS = 9 };
	struct peer x;
	struct ipc_rep rep;
	if (peer_start(&x, false, NULL) ||
	    peer_cmd(&x, 'A', 0x5a, BIG, 0, NULL, -1, &rep) || rep.result) {
		fprintf(stderr, "exporter peer failed\n");
		exit(1);
	}
	char *dst = malloc(BIG);
	memset(dst, 1, BIG);
	void *q, *loc = alloc_dev(BIG);
	memset(loc, 0x5a, BIG);
	CHECK(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, rep.h, 0, &q));
	uint64_t t_ipc[ROUNDS], t_loc[ROUNDS], t_exp[ROUNDS];
	double first = (double)BIG / (double)copy_ns(dst, q);
	copy_ns(dst, loc);
	for (int i = 0; i < ROUNDS; i++) {
		t_ipc[i] = copy_ns(dst, q);
		t_loc[i] = copy_ns(dst, loc);
		if (peer_cmd(&x, 'M', 0, BIG, 0, NULL, -1, &rep)) {
			fprintf(stderr, "exporter peer failed\n");
			exit(1);
		}
		t_exp[i] = rep.value;
	}
	CHECK(zt.mem.pfnCloseIpcHandle(zt.ctx, q));
	CHECK(zt.mem.pfnFree(zt.ctx, loc));
	peer_stop(&x);
	free(dst);
	double ipc = (double)BIG / (median_us(t_ipc, ROUNDS) * 1000.0);
	double local = (double)BIG / (median_us(t_loc, ROUNDS) * 1000.0);
	double exp = (double)BIG / (median_us(t_exp, ROUNDS) * 1000.0);
	printf("256 MiB memcpy, medians of %d alternating rounds:\n"
	       "  importer, through the IPC mapping  %6.2f GB/s (first pass, "
	       "with page faults: %.2f)\n"
	       "  exporter, its own allocation       %6.2f GB/s: ratio %.3f "
	       "(target >= 0.9)\n"
	       "  importer, an allocation of its own %6.2f GB/s: ratio %.3f\n",
	       ROUNDS, ipc, first, exp, ipc / exp, local, ipc / local);
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	if (n < 10)
		n = 10;
	if (zt_load_version(&zt, ZE_API_VERSION_CURRENT) ||
	    zt.global.pfnInit(0))
		return 1;
	uint32_t one = 1;
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	CHECK(zt.driver.pfnGet(&one, &zt.drv));
	CHECK(zt.device.pfnGet(zt.drv, &one, &zt.dev));
	CHECK(zt.context.pfnCreate(zt.drv, &cd, &zt.ctx));
	const char *t = getenv("ZEMEM_IPC_TRANSPORT");
	printf("bench_ipc: %d iterations, 2 MiB handles, transport %s, "
	       "medians\n", n, t ? t : "auto");
	bench_local(n);
	struct peer x;
	struct ipc_rep rep;
	if (peer_start(&x, false, NULL) ||
	    peer_cmd(&x, 'A', 0x5a, 2 * MiB, 0, NULL, -1, &rep) ||
	    rep.result) {
		fprintf(stderr, "exporter peer failed\n");
		return 1;
	}
	bench_open("xproc", rep.h, n);
	peer_stop(&x);
	/* One handle for a range of 4 physical objects of 2 MiB (issue 6):
	 * every open fetches 5 files (list + objects) and maps 4. */
	if (peer_start(&x, false, NULL) ||
	    peer_cmd(&x, 'V', 0x5a, 2 * MiB, 0, NULL, -1, &rep) ||
	    rep.result) {
		fprintf(stderr, "physical-range exporter peer failed\n");
		return 1;
	}
	bench_open("phys4", rep.h, n);
	peer_cmd(&x, 'v', 0, 0, 0, NULL, -1, &rep);
	peer_cmd(&x, 'P', 0, 0, 0, NULL, -1, &rep);
	peer_stop(&x);
	bench_bandwidth();
	CHECK(zt.context.pfnDestroy(zt.ctx));
	return 0;
}
