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
 *
 *   zeshmem-coll-bench --load N [--npes P] [--quick]
 *
 * The small collectives on a busy machine: run on its own (not under
 * zeshrun), it starts a P-PE job (default 2) of itself through the
 * zeshrun next to it on the idle machine, then starts N CPU-bound
 * processes (a loop each; N = 0: one per CPU it may use) and runs the
 * same job beside them, ends them, and prints barrier_all and 8-byte
 * broadcast and sum-reduction: idle, loaded, and loaded / idle.
 */
#include <shmem.h>

#include "bench_job.h"
#include "bench_time.h"

#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

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

/* it calls per trial, nt trials; the slowest PE's time per call of
 * each trial into tmax (every PE). */
static void
timed(enum op op, size_t bytes, char *dest, char *src, long it, int nt)
{
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
}

static void
run(enum op op, size_t bytes, char *dest, char *src, char *p1, char *p2)
{
	long it = iters(bytes);
	int nt = trials();
	timed(op, bytes, dest, src, it, nt);
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

/* ---- --load: the small collectives beside CPU-bound processes -------- */

#define NSMALL 3
static const char *const small_names[NSMALL] = {
	"barrier_all", "broadcast 8 B", "sum_reduce 8 B",
};

/* A PE of the --load jobs ("--pe small"): PE 0 prints one line per case,
 * "small <i> <us>". Trials of many calls (milliseconds idle): a trial
 * spans several scheduler slices, so it sees the waits for them. */
static void
pe_small(char *dest, char *src)
{
	static const enum op ops[NSMALL] = { BARRIER, BCAST, SUM };
	long it = quick ? 20 : 3000;
	int nt = quick ? 3 : 7;
	for (int i = 0; i < NSMALL; i++) {
		timed(ops[i], ops[i] == BARRIER ? 0 : 8, dest, src, it, nt);
		if (me == 0)
			printf("small %d %.4f\n", i, median(tmax, nt));
		shmem_barrier_all();
	}
}

/* Runs the small job and reads PE 0's figures into us[]: 0 or -1. */
static int
small_job(const char *zeshrun, const char *self, int np, double *us)
{
	int p[2];
	char nb[16];
	snprintf(nb, sizeof(nb), "%d", np);
	if (pipe(p) < 0)
		return -1;
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		execl(zeshrun, zeshrun, "-n", nb, "--", self, "--pe", "small",
		      quick ? "--quick" : "--full", (char *)NULL);
		perror(zeshrun);
		_exit(127);
	}
	close(p[1]);
	FILE *f = fdopen(p[0], "r");
	int got = 0, i, ws;
	double v;
	char line[256];
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "small %d %lf", &i, &v) == 2 && i >= 0 &&
		    i < NSMALL) {
			us[i] = v;
			got |= 1 << i;
		}
	if (f)
		fclose(f);
	else
		close(p[0]);
	if (waitpid(pid, &ws, 0) != pid || !WIFEXITED(ws) ||
	    WEXITSTATUS(ws) || got != (1 << NSMALL) - 1) {
		fprintf(stderr, "zeshmem-coll-bench: the %d-PE job failed\n",
			np);
		return -1;
	}
	return 0;
}

static int
load_main(long nload, int np)
{
	char self[PATH_MAX], zeshrun[PATH_MAX];
	if (bench_find_zeshrun("zeshmem-coll-bench", self, zeshrun))
		return 1;
	if (nload == 0) {
		cpu_set_t s;
		nload = sched_getaffinity(0, sizeof(s), &s) ? 1 : CPU_COUNT(&s);
	}
	double idle[NSMALL], loaded[NSMALL];
	if (small_job(zeshrun, self, np, idle))
		return 1;
	pid_t *busy = calloc((size_t)nload, sizeof(*busy));
	if (!busy)
		return 1;
	pid_t parent = getpid();
	fflush(stdout);
	long started = 0;
	for (; started < nload; started++) {
		pid_t pid = fork();
		if (pid < 0)
			break;
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(0);
			for (volatile unsigned long x = 0;; x++)
				;
		}
		busy[started] = pid;
	}
	int err = started < nload;
	if (!err) {
		struct timespec ts = { 0, 100000000 }; /* let them spin up */
		nanosleep(&ts, NULL);
		err = small_job(zeshrun, self, np, loaded);
	}
	for (long i = 0; i < started; i++)
		kill(busy[i], SIGKILL);
	for (long i = 0; i < started; i++)
		waitpid(busy[i], NULL, 0);
	free(busy);
	if (err)
		return 1;
	printf("zeshmem-coll-bench --load %ld: %d PEs (zeshrun), %ld "
	       "CPU-bound processes beside them; medians\n"
	       "  %-16s %12s %12s %8s\n", nload, np, nload, "case",
	       "idle", "loaded", "ratio");
	for (int i = 0; i < NSMALL; i++)
		printf("  %-16s %9.3f us %9.3f us %7.2fx\n", small_names[i],
		       idle[i], loaded[i], loaded[i] / idle[i]);
	return 0;
}

static int
usage(void)
{
	fprintf(stderr, "usage: zeshrun -n N zeshmem-coll-bench [--quick]\n"
			"       zeshmem-coll-bench --load N [--npes P] "
			"[--quick]\n");
	return 2;
}

int
main(int argc, char **argv)
{
	const char *pe = NULL;
	long nload = -1, np = 2;
	for (int i = 1; i < argc; i++) {
		char *end;
		if (!strcmp(argv[i], "--quick")) {
			quick = 1;
		} else if (!strcmp(argv[i], "--full")) {
			quick = 0;
		} else if (!strcmp(argv[i], "--pe") && i + 1 < argc) {
			pe = argv[++i];
		} else if (!strcmp(argv[i], "--load") && i + 1 < argc) {
			nload = strtol(argv[++i], &end, 10);
			if (*end || nload < 0 || nload > 1024)
				return usage();
		} else if (!strcmp(argv[i], "--npes") && i + 1 < argc) {
			np = strtol(argv[++i], &end, 10);
			if (*end || np < 1 || np > 256)
				return usage();
		} else {
			return usage();
		}
	}
	if (pe && strcmp(pe, "small"))
		return usage();
	if (nload >= 0 && !pe)
		return load_main(nload, (int)np);
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
	if (pe) {
		pe_small(dest, src);
		goto out;
	}
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
out:
	free(p1);
	free(p2);
	shmem_free(tmax);
	shmem_free(tbuf);
	shmem_free(src);
	shmem_free(dest);
	shmem_finalize();
	return 0;
}
