// SPDX-License-Identifier: MIT
/*
 * zeshmem-bench: libzeshmem's figures, each the median of repeated trials
 * and printed against a baseline measured in the same run (an in-process
 * memcpy or atomic of the same size), with the target of issue 15 where
 * there is one. Written against the public shmem.h only.
 *
 *   zeshmem-bench [--quick]
 *
 * Run by hand, it is the controller: it starts itself as jobs through
 * zeshrun (found next to it): 2 PEs for the RMA, atomic, signal and
 * allocation figures, then 2, 4 and 8 PEs for barrier_all and 8 PEs for
 * the init time. PE 0 of each job prints. --quick: few trials (a smoke
 * run for the test suite; its figures mean little).
 *
 *   figure       what is timed
 *   put+quiet    shmem_putmem of n bytes to PE 1, then shmem_quiet
 *   get          shmem_getmem of n bytes from PE 1
 *   put bw       back-to-back shmem_putmem of n bytes, one quiet per batch
 *   fetch-add    shmem_long_atomic_fetch_add on PE 1 (baseline: a local
 *                __atomic_fetch_add)
 *   cswap        shmem_long_atomic_compare_swap on PE 1
 *   signal rtt   put_signal of 8 B + signal_wait_until, there and back
 *   barrier      shmem_barrier_all
 *   init         shmem_init, the slowest PE (and the whole job's wall time)
 *   malloc+free  shmem_malloc(4 KiB) + shmem_free (both collective)
 */
#include <shmem.h>

#include "bench_job.h"
#include "bench_time.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int quick;
static int me, npes;

#define TRIALS_MAX 31
static int
trials(void)
{
	return quick ? 3 : 15;
}

/* Iterations per trial so that a trial lasts about 2 ms (quick: 0.2). */
static long
iters_for(double us_per_op)
{
	double budget = quick ? 200 : 2000;
	long n = (long)(budget / (us_per_op > 0.001 ? us_per_op : 0.001));
	return n < 1 ? 1 : n > 1000000 ? 1000000 : n;
}

static volatile char sink;

static double
memcpy_us(char *dst, const char *src, size_t n)
{
	double t[TRIALS_MAX];
	long it = iters_for(0.01 + n / 5000.0);
	for (int r = 0; r < trials(); r++) {
		double t0 = now_us();
		for (long i = 0; i < it; i++) {
			memcpy(dst, src, n);
			__asm__ volatile("" : : "r"(dst) : "memory");
		}
		t[r] = (now_us() - t0) / it;
	}
	sink = dst[0];
	return median(t, trials());
}

static void
line(const char *what, double us, double base_us, const char *base,
     const char *target)
{
	printf("  %-26s %10.3f us   %-16s %10.3f us   x%-8.2f %s\n", what, us,
	       base, base_us, base_us > 0 ? us / base_us : 0, target);
}

static void
bw_line(const char *what, size_t n, double us, double base_us)
{
	double gbs = n / us / 1e3, base = n / base_us / 1e3;
	printf("  %-26s %10.2f GB/s memcpy %8.2f GB/s   x%-8.2f %s\n", what,
	       gbs, base, gbs / base, "(target >= 0.9x memcpy)");
}

/* ---- the 2-PE figures -------------------------------------------------- */

static void
pe_main2(void)
{
	static const size_t lat[] = { 8, 4096, 65536, 1 << 20 };
	size_t big = quick ? (4u << 20) : (64u << 20);
	char *heap = shmem_malloc(big);
	long *word = shmem_calloc(2, sizeof(long));
	long *done = shmem_calloc(1, sizeof(long));
	uint64_t *sig = shmem_calloc(2, sizeof(uint64_t));
	char *lsrc = malloc(big), *ldst = malloc(big);
	double t[TRIALS_MAX];
	if (!heap || !word || !done || !sig || !lsrc || !ldst) {
		fprintf(stderr, "zeshmem-bench: out of memory\n");
		exit(1);
	}
	memset(lsrc, 1, big);
	memset(ldst, 2, big);
	memset(heap, 3, big);
	shmem_barrier_all();
	if (me == 1) {
		/* PE 1 polls its own word, as a PE busy with its work does
		 * (Open MPI's PEs spin in their barrier): the figures are the
		 * operations' own. The "PE 1 asleep" line repeats put+quiet
		 * with PE 1 asleep in a barrier (a put wakes only a wait on
		 * what it wrote, so it should cost the same). */
		double end = now_us() + 600e6;
		while (!__atomic_load_n(done, __ATOMIC_ACQUIRE) &&
		       now_us() < end)
			__builtin_ia32_pause();
	}
	if (me == 0) {
		printf("zeshmem-bench: %d PEs on one node, median of %d trials"
		       "\n", npes, trials());
		for (size_t k = 0; k < sizeof(lat) / sizeof(lat[0]); k++) {
			size_t n = lat[k];
			double base = memcpy_us(ldst, lsrc, n);
			long it = iters_for(base + 0.05);
			for (int r = 0; r < trials(); r++) {
				double t0 = now_us();
				for (long i = 0; i < it; i++) {
					shmem_putmem(heap, lsrc, n, 1);
					shmem_quiet();
				}
				t[r] = (now_us() - t0) / it;
			}
			char what[64], tgt[64] = "";
			snprintf(what, sizeof(what), "put+quiet %zu B", n);
			double put = median(t, trials());
			if (n == 8)
				snprintf(tgt, sizeof(tgt), "(+%.3f us; target "
					 "+0.05 us)", put - base);
			line(what, put, base, "memcpy", tgt);
			for (int r = 0; r < trials(); r++) {
				double t0 = now_us();
				for (long i = 0; i < it; i++)
					shmem_getmem(ldst, heap, n, 1);
				t[r] = (now_us() - t0) / it;
			}
			double get = median(t, trials());
			snprintf(what, sizeof(what), "get %zu B", n);
			tgt[0] = 0;
			if (n == 8)
				snprintf(tgt, sizeof(tgt), "(+%.3f us; target "
					 "+0.03 us)", get - base);
			line(what, get, base, "memcpy", tgt);
		}
		size_t bws[] = { 1u << 20, big };
		for (int k = 0; k < 2; k++) {
			size_t n = bws[k];
			double base = memcpy_us(ldst, lsrc, n);
			long it = iters_for(base);
			for (int r = 0; r < trials(); r++) {
				double t0 = now_us();
				for (long i = 0; i < it; i++)
					shmem_putmem(heap, lsrc, n, 1);
				shmem_quiet();
				t[r] = (now_us() - t0) / it;
			}
			char what[64];
			snprintf(what, sizeof(what), "put bw %zu MiB", n >> 20);
			bw_line(what, n, median(t, trials()), base);
		}
		/* atomics against a local atomic on a private word */
		long local = 0;
		long it = iters_for(0.05);
		for (int r = 0; r < trials(); r++) {
			double t0 = now_us();
			for (long i = 0; i < it; i++)
				__atomic_fetch_add(&local, 1, __ATOMIC_SEQ_CST);
			t[r] = (now_us() - t0) / it;
		}
		double abase = median(t, trials());
		for (int r = 0; r < trials(); r++) {
			double t0 = now_us();
			for (long i = 0; i < it; i++)
				shmem_long_atomic_fetch_add(word, 1, 1);
			t[r] = (now_us() - t0) / it;
		}
		double fa = median(t, trials());
		char tgt[64];
		snprintf(tgt, sizeof(tgt), "(+%.3f us; target +0.03 us)",
			 fa - abase);
		line("fetch-add", fa, abase, "local atomic", tgt);
		for (int r = 0; r < trials(); r++) {
			double t0 = now_us();
			for (long i = 0; i < it; i++)
				shmem_long_atomic_compare_swap(word + 1, i,
							       i + 1, 1);
			t[r] = (now_us() - t0) / it;
		}
		line("compare-swap", median(t, trials()), abase,
		     "local atomic", "");
		shmem_long_atomic_set(done, 1, 1);
	}
	shmem_barrier_all();
	/* the same put+quiet with PE 1 asleep in a barrier */
	if (me == 0) {
		long it = iters_for(0.5);
		for (int r = 0; r < trials(); r++) {
			double t0 = now_us();
			for (long i = 0; i < it; i++) {
				shmem_putmem(heap, lsrc, 8, 1);
				shmem_quiet();
			}
			t[r] = (now_us() - t0) / it;
		}
		line("put+quiet 8 B, PE 1 asleep", median(t, trials()),
		     memcpy_us(ldst, lsrc, 8), "memcpy",
		     "(PE 1 asleep in a barrier)");
	}
	shmem_barrier_all();
	/* put_signal round trip: PE 0 -> PE 1 -> PE 0 */
	long rounds = quick ? 200 : 20000;
	uint64_t v = 0;
	for (int r = 0; r < trials(); r++) {
		double t0 = now_us();
		for (long i = 1; i <= rounds; i++) {
			uint64_t s = (uint64_t)r * (uint64_t)rounds +
				     (uint64_t)i;
			if (me == 0) {
				shmem_putmem_signal(heap, &v, 8, &sig[0], s,
						    SHMEM_SIGNAL_SET, 1);
				shmem_signal_wait_until(&sig[1], SHMEM_CMP_EQ,
							s);
			} else if (me == 1) {
				shmem_signal_wait_until(&sig[0], SHMEM_CMP_EQ,
							s);
				shmem_putmem_signal(heap, &v, 8, &sig[1], s,
						    SHMEM_SIGNAL_SET, 0);
			}
		}
		t[r] = (now_us() - t0) / rounds;
	}
	if (me == 0) {
		double base = memcpy_us(ldst, lsrc, 8);
		line("put_signal round trip", median(t, trials()), 2 * base,
		     "2 memcpy 8 B", "");
	}
	shmem_barrier_all();
	/* collective malloc + free */
	long allocs = quick ? 50 : 2000;
	for (int r = 0; r < trials(); r++) {
		double t0 = now_us();
		for (long i = 0; i < allocs; i++)
			shmem_free(shmem_malloc(4096));
		t[r] = (now_us() - t0) / allocs;
	}
	if (me == 0) {
		double base = 0;
		double tb[TRIALS_MAX];
		for (int r = 0; r < trials(); r++) {
			double t0 = now_us();
			for (long i = 0; i < allocs; i++) {
				void *p = malloc(4096);
				__asm__ volatile("" : : "r"(p) : "memory");
				free(p);
			}
			tb[r] = (now_us() - t0) / allocs;
		}
		base = median(tb, trials());
		line("malloc+free 4 KiB", median(t, trials()), base,
		     "libc malloc+free", "(collective: 2 barriers)");
	}
	shmem_barrier_all();
	free(ldst);
	free(lsrc);
	shmem_free(sig);
	shmem_free(done);
	shmem_free(word);
	shmem_free(heap);
}

static void
pe_barrier(void)
{
	double t[TRIALS_MAX];
	long it = quick ? 200 : 20000;
	shmem_barrier_all();
	for (int r = 0; r < trials(); r++) {
		double t0 = now_us();
		for (long i = 0; i < it; i++)
			shmem_barrier_all();
		t[r] = (now_us() - t0) / it;
	}
	if (me == 0) {
		char what[64];
		snprintf(what, sizeof(what), "barrier_all %d PEs", npes);
		/* baseline: a local seq-cst fence, the floor of any barrier */
		double tb[TRIALS_MAX];
		for (int r = 0; r < trials(); r++) {
			double t0 = now_us();
			for (long i = 0; i < it; i++)
				__atomic_thread_fence(__ATOMIC_SEQ_CST);
			tb[r] = (now_us() - t0) / it;
		}
		line(what, median(t, trials()), median(tb, trials()),
		     "local fence", npes == 2 ? "(target 0.45 us)" : "");
	}
}

/* ---- the controller ---------------------------------------------------- */

static char zeshrun[PATH_MAX];

/* One job of n PEs measuring what; wall_us: its wall time. */
static int
job(int n, const char *self, const char *what, double *wall_us)
{
	double t0 = now_us();
	int rc = bench_job(zeshrun, self, n, what, quick);
	if (wall_us)
		*wall_us = now_us() - t0;
	return rc;
}

static void
pe_init(double t0)
{
	double mine = now_us() - t0;
	double *all = shmem_calloc((size_t)npes, sizeof(double));
	shmem_double_p(&all[me], mine, 0);
	shmem_barrier_all();
	if (me == 0) {
		double worst = 0;
		for (int i = 0; i < npes; i++)
			worst = all[i] > worst ? all[i] : worst;
		printf("  %-26s %10.0f us   (slowest PE of %d; the job's "
		       "wall time follows)\n", "init 8 PEs", worst, npes);
	}
	shmem_free(all);
}

int
main(int argc, char **argv)
{
	const char *pe;
	if (bench_args(argc, argv, "zeshmem-bench", &quick, &pe))
		return 2;
	if (pe) {
		double t0 = now_us();
		shmem_init();
		me = shmem_my_pe();
		npes = shmem_n_pes();
		if (!strcmp(pe, "rma"))
			pe_main2();
		else if (!strcmp(pe, "barrier"))
			pe_barrier();
		else if (!strcmp(pe, "init"))
			pe_init(t0);
		fflush(stdout);
		shmem_finalize();
		return 0;
	}
	char self[PATH_MAX];
	if (bench_find_zeshrun("zeshmem-bench", self, zeshrun))
		return 1;
	int bad = job(2, self, "rma", NULL);
	for (int np = 2; np <= 8; np *= 2)
		bad |= job(np, self, "barrier", NULL);
	double wall = 0;
	bad |= job(8, self, "init", &wall);
	printf("  %-26s %10.0f us   (zeshrun -n 8 of an init+finalize "
	       "program)\n", "job 8 PEs", wall);
	return bad ? 1 : 0;
}
