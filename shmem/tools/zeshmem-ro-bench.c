// SPDX-License-Identifier: MIT
/*
 * zeshmem-ro-bench: how much of a shmem_putmem_nbi the reverse-offload
 * backend (ZESHMEM_BACKEND=ro, shmem/ctx/sh_proxy.c) hides behind the
 * caller's computation (issue 18). Written against the public shmem.h.
 *
 *   zeshmem-ro-bench [--quick]
 *
 * The controller starts itself three times as a 2-PE job through zeshrun
 * (next to it): with ZESHMEM_BACKEND=ro (the proxy's own rule: it spins
 * only where the machine has more CPUs than the node has PEs), with ro
 * and ZESHMEM_PROXY_SPIN=on (what "a core free for the proxy" gives:
 * here PE 1 only sleeps in a barrier, so its core is), then with the
 * default backend. PE 0,
 * for each size n of 64 KiB .. 16 MiB, putting to PE 1 (which waits in a
 * barrier), takes the medians of
 *   t_copy  shmem_putmem_nbi(n) + shmem_quiet
 *   t_comp  a compute loop (a dependent floating-point chain, no memory
 *           traffic) calibrated to last t_copy
 *   t_both  shmem_putmem_nbi(n); the compute loop; shmem_quiet
 * and prints hidden = (t_copy + t_comp - t_both) / t_copy (1 when the
 * copy is wholly overlapped, 0 when it is serial with the computation:
 * the default backend's node-local nbi put copies in the call), and
 * t_nbi, how long the putmem_nbi call itself took in t_both. Target
 * >= 0.8 with ro where a core is free for the proxy. --quick: 3 trials
 * and 64 KiB .. 1 MiB (a smoke run; its figures mean little).
 */
#include <shmem.h>

#include "bench_job.h"
#include "bench_time.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TRIALS_MAX 31

static int quick;

static int
trials(void)
{
	return quick ? 3 : 15;
}

static volatile double sink;

static void
compute(long k)
{
	double x = 1.0;
	for (long i = 0; i < k; i++)
		x = x * 1.0000001 + 1e-9;
	sink = x;
}

/* Iterations of compute() that last about us microseconds. */
static long
calibrate(double us)
{
	long k = 100000;
	double t[TRIALS_MAX];
	for (int r = 0; r < 5; r++) {
		double t0 = now_us();
		compute(k);
		t[r] = now_us() - t0;
	}
	double per = median(t, 5) / k;
	long want = (long)(us / (per > 1e-6 ? per : 1e-6));
	return want < 1 ? 1 : want;
}

static void
pe_main(const char *label)
{
	size_t maxn = quick ? (1u << 20) : (16u << 20);
	char *dest = shmem_malloc(maxn);
	char *src = malloc(maxn);
	if (!dest || !src) {
		fprintf(stderr, "zeshmem-ro-bench: out of memory\n");
		exit(1);
	}
	memset(src, 0x5a, maxn);
	int me = shmem_my_pe();
	if (me == 0) {
		double tc[TRIALS_MAX], tp[TRIALS_MAX], tb[TRIALS_MAX];
		double tn[TRIALS_MAX];
		printf("%s\n  %-9s %11s %11s %11s %8s %11s\n", label, "size",
		       "t_copy us", "t_comp us", "t_both us", "hidden",
		       "t_nbi us");
		for (size_t n = 64 * 1024; n <= maxn; n *= 4) {
			/* warm: the pages of both sides touched */
			shmem_putmem_nbi(dest, src, n, 1);
			shmem_quiet();
			for (int r = 0; r < trials(); r++) {
				double t0 = now_us();
				shmem_putmem_nbi(dest, src, n, 1);
				shmem_quiet();
				tc[r] = now_us() - t0;
			}
			double t_copy = median(tc, trials());
			long k = calibrate(t_copy);
			for (int r = 0; r < trials(); r++) {
				double t0 = now_us();
				compute(k);
				tp[r] = now_us() - t0;
			}
			for (int r = 0; r < trials(); r++) {
				double t0 = now_us();
				shmem_putmem_nbi(dest, src, n, 1);
				tn[r] = now_us() - t0;
				compute(k);
				shmem_quiet();
				tb[r] = now_us() - t0;
			}
			double t_comp = median(tp, trials());
			double t_both = median(tb, trials());
			printf("  %6zu KiB %11.1f %11.1f %11.1f %8.2f %11.1f\n",
			       n >> 10, t_copy, t_comp, t_both,
			       (t_copy + t_comp - t_both) / t_copy,
			       median(tn, trials()));
		}
		fflush(stdout);
	}
	shmem_barrier_all();
	free(src);
	shmem_free(dest);
}

/* One 2-PE job: backend (NULL: the default), spin (NULL: the proxy's
 * own rule) for ZESHMEM_PROXY_SPIN, label what its table says. */
static int
job(const char *zeshrun, const char *self, const char *backend,
    const char *spin, const char *label)
{
	if (backend)
		setenv("ZESHMEM_BACKEND", backend, 1);
	else
		unsetenv("ZESHMEM_BACKEND");
	if (spin)
		setenv("ZESHMEM_PROXY_SPIN", spin, 1);
	else
		unsetenv("ZESHMEM_PROXY_SPIN");
	return bench_job(zeshrun, self, 2, label, quick);
}

int
main(int argc, char **argv)
{
	const char *pe;
	if (bench_args(argc, argv, "zeshmem-ro-bench", &quick, &pe))
		return 2;
	if (pe) {
		char label[256];
		shmem_init();
		snprintf(label, sizeof(label),
			 "putmem_nbi overlapped with compute, 2 PEs, "
			 "backend %s (hidden: target >= 0.8 with ro)", pe);
		pe_main(label);
		shmem_finalize();
		return 0;
	}
	char self[PATH_MAX], zeshrun[PATH_MAX];
	if (bench_find_zeshrun("zeshmem-ro-bench", self, zeshrun))
		return 1;
	int bad = job(zeshrun, self, "ro", NULL, "ro");
	/* where a core is free the proxy may spin (PE 1 only sleeps in a
	 * barrier: its core is the proxy's) */
	bad |= job(zeshrun, self, "ro", "on",
		   "ro with ZESHMEM_PROXY_SPIN=on (a core free for the proxy)");
	bad |= job(zeshrun, self, NULL, NULL, "default");
	return bad ? 1 : 0;
}
