// SPDX-License-Identifier: MIT
/*
 * zb_usm: the foundation's figures (issue 2), through the loader in use.
 *   - an alloc+free pair of each kind (host, device, shared) at 64 B,
 *     1 KiB, 64 KiB and 2 MiB vs glibc malloc+free of the same size;
 *     target <= 2x up to 64 KiB;
 *   - zeMemGetAllocProperties on random interior pointers with 1K, 100K
 *     and 1M live 64-byte allocations vs the 1K figure; target <= 100 ns
 *     and <= 1.5x at 1M; with the memory floor and the index's own
 *     scaling beside it (lookups()).
 * Trials of the baseline and of the figures take turns, round by round.
 */
#include "zb.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum kind { K_HOST, K_DEVICE, K_SHARED, K_MALLOC };
static const char *const kind_names[] = { "host", "device", "shared",
					  "malloc" };

static ze_result_t
alloc_kind(enum kind k, size_t size, void **p)
{
	switch (k) {
	case K_HOST: return zeMemAllocHost(zb.ctx, &zb_hdesc, size, 0, p);
	case K_DEVICE:
		return zeMemAllocDevice(zb.ctx, &zb_ddesc, size, 0, zb.dev, p);
	case K_SHARED:
		return zeMemAllocShared(zb.ctx, &zb_ddesc, &zb_hdesc, size, 0,
					zb.dev, p);
	default:
		*p = malloc(size);
		return *p ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	}
}

static void
free_kind(enum kind k, void *p)
{
	if (k == K_MALLOC)
		free(p);
	else
		zeMemFree(zb.ctx, p);
}

/* n alloc+free pairs of kind k; 0, or 1 when an allocation failed. */
static int
pairs_run(enum kind k, size_t size, long n)
{
	for (long i = 0; i < n; i++) {
		void *p;
		if (alloc_kind(k, size, &p))
			return 1;
		__asm__ volatile("" : : "r"(p) : "memory");
		free_kind(k, p);
	}
	return 0;
}

/* ns per alloc+free pair in one trial of iters pairs. */
static double
pair_trial(enum kind k, size_t size, int iters)
{
	uint64_t t0 = tool_now_ns();
	if (pairs_run(k, size, iters))
		abort();
	return (double)(tool_now_ns() - t0) / iters;
}

/* Per size, trials of the baseline and of the three kinds take turns (one
 * trial each, round after round, after one warm-up round), so a change of
 * the machine's speed during the run (clock, neighbours) reaches the
 * baseline and the figures alike; each is the median of its trials. */
static void
pairs(int trials)
{
	static const size_t sizes[] = { 64, 1024, 64 * 1024, 2 << 20 };
	char b[32];
	for (size_t s = 0; s < 4; s++) {
		int iters = sizes[s] >= (1 << 20) ? 2000 : 20000;
		if (zb.quick)
			iters /= 10;
		double t[K_MALLOC + 1][31];
		for (int r = -1; r < trials; r++)
			for (int k = K_HOST; k <= K_MALLOC; k++) {
				double v = pair_trial((enum kind)k, sizes[s],
						      iters);
				if (r >= 0)
					t[k][r] = v;
			}
		double base = zb_median(t[K_MALLOC], trials);
		for (int k = K_HOST; k <= K_SHARED; k++) {
			char name[64], params[96];
			snprintf(name, sizeof(name), "alloc+free %s %s",
				 kind_names[k],
				 tool_human(sizes[s], b, sizeof(b)));
			snprintf(params, sizeof(params),
				 "%d pairs x %d trials%s", iters, trials,
				 sizes[s] <= 65536 ? ", target <= 2x" : "");
			zb_report("usm", name, zb_median(t[k], trials), "ns",
				  "malloc+free", base, params);
		}
	}
}

/* ns per zeMemGetAllocProperties over the q queries (median of trials). */
static double
lookup_trials(const void *const *q, int nq, int trials)
{
	double t[31];
	for (int r = 0; r < trials; r++) {
		ze_memory_allocation_properties_t mp = {
			ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, NULL
		};
		uint64_t t0 = tool_now_ns();
		for (int i = 0; i < nq; i++)
			if (zeMemGetAllocProperties(zb.ctx, q[i], &mp, NULL) ||
			    mp.type != ZE_MEMORY_TYPE_HOST)
				abort();
		t[r] = (double)(tool_now_ns() - t0) / nq;
	}
	return zb_median(t, trials);
}

/* Memory floors under a lookup that misses the caches, over an array of
 * n 16-byte entries (the size of the driver's per-allocation record),
 * madvised like the records: ns per read, at the indices ix (independent
 * reads, as many in flight as the core allows: lat false), or along a
 * random cycle through all n entries (each read waits for the one before:
 * the latency of one miss; lat true). */
static double
floor_trials(const uint32_t *ix, int nq, int n, bool lat, int trials)
{
	size_t len = ((size_t)n * 16 + (2u << 20) - 1) &
		     ~(size_t)((2u << 20) - 1);
	uint64_t *a = mmap(NULL, len, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED)
		return 0;
	madvise(a, len, MADV_HUGEPAGE);
	/* Sattolo's shuffle: one cycle through every entry */
	for (uint64_t i = 0; i < (uint64_t)n; i++)
		a[2 * i] = i;
	unsigned seed = 777;
	for (uint64_t i = (uint64_t)n - 1; i > 0; i--) {
		seed = seed * 1103515245u + 12345u;
		uint64_t j = (seed >> 4) % i, t = a[2 * i];
		a[2 * i] = a[2 * j];
		a[2 * j] = t;
	}
	double t[31];
	uint64_t sum = 0;
	for (int r = 0; r < trials; r++) {
		uint64_t t0 = tool_now_ns(), at = 0;
		for (int i = 0; i < nq; i++)
			sum += lat ? (at = a[2 * at]) : a[2 * (size_t)ix[i]];
		t[r] = (double)(tool_now_ns() - t0) / nq;
	}
	zb_keep(&sum);
	munmap(a, len);
	return zb_median(t, trials);
}

/* zeMemGetAllocProperties on Q random interior pointers of 64-byte host
 * allocations, with 1K, 100K and 1M live, three ways:
 *   - spread: the pointers fall anywhere among the live allocations (the
 *     target's figure). At 1M they touch 64K records spread over 16 MiB,
 *     so a lookup is a cache miss; two floor lines print what random
 *     16-byte reads over that much memory cost in the same run: one miss
 *     alone (a dependent chain), and independent reads, which overlap
 *     their misses far more than calls of ~100 instructions each can;
 *   - hot: the pointers fall in 1000 of the live allocations, picked at
 *     random: the cost of the index itself as allocations pile up, with
 *     the same working set at every count. */
static void
lookups(int trials)
{
	static const int lives[] = { 1000, 100000, 1000000 };
	enum { Q = 1 << 16, HOT = 1000 };
	double first = 0;
	const void **q = malloc(sizeof(void *) * Q);
	uint32_t *ix = malloc(sizeof(uint32_t) * Q);
	uint32_t *hot = malloc(sizeof(uint32_t) * HOT);
	if (!q || !ix || !hot)
		goto out;
	for (int l = 0; l < 3; l++) {
		int n = lives[l];
		if (zb.quick && n > 100000)
			break;
		bool last = l == 2 || (zb.quick && l == 1);
		void **ptrs = malloc(sizeof(void *) * (size_t)n);
		if (!ptrs)
			break;
		for (int i = 0; i < n; i++)
			if (zeMemAllocHost(zb.ctx, &zb_hdesc, 64, 0, &ptrs[i]))
				abort();
		unsigned seed = 12345;
		for (int i = 0; i < HOT; i++) {
			seed = seed * 1103515245u + 12345u;
			hot[i] = (seed >> 4) % (unsigned)n;
		}
		for (int i = 0; i < Q; i++) {
			seed = seed * 1103515245u + 12345u;
			ix[i] = (seed >> 4) % (unsigned)n;
			q[i] = (char *)ptrs[ix[i]] + (seed % 64);
		}
		double v = lookup_trials(q, Q, trials);
		if (l == 0)
			first = v;
		char name[96], params[128];
		snprintf(name, sizeof(name), "GetAllocProperties, %d live", n);
		snprintf(params, sizeof(params),
			 "%d random interior pointers x %d trials%s", Q, trials,
			 last ? ", target <= 100 ns and <= 1.5x" : "");
		zb_report("usm", name, v, "ns", "the same, 1000 live", first,
			  params);
		for (int w = 0; last && w < 2; w++) {
			double f = floor_trials(ix, Q, n, w, trials);
			snprintf(name, sizeof(name),
				 "GetAllocProperties, %d live, vs %s", n,
				 w ? "a miss" : "reads");
			snprintf(params, sizeof(params),
				 "baseline: %s 16 B read over %d x 16 B", w ?
				 "one dependent random" : "independent random",
				 n);
			if (f > 0)
				zb_report("usm", name, v, "ns", w ?
					  "chased read" : "random read", f,
					  params);
		}
		if (l > 0) {
			for (int i = 0; i < Q; i++) {
				seed = seed * 1103515245u + 12345u;
				q[i] = (char *)ptrs[hot[(seed >> 4) % HOT]] +
				       (seed % 64);
			}
			double h = lookup_trials(q, Q, trials);
			snprintf(name, sizeof(name),
				 "GetAllocProperties, %d live, %d hot", n, HOT);
			snprintf(params, sizeof(params),
				 "%d interior pointers into %d of them x %d "
				 "trials", Q, HOT, trials);
			zb_report("usm", name, h, "ns", "the same, 1000 live",
				  first, params);
		}
		for (int i = 0; i < n; i++)
			zeMemFree(zb.ctx, ptrs[i]);
		free(ptrs);
	}
out:
	free(hot);
	free(ix);
	free(q);
}

int
zb_usm_count(const char *kind, size_t size, long n)
{
	for (int k = K_HOST; k <= K_MALLOC; k++) {
		if (!strcmp(kind, kind_names[k]))
			return pairs_run((enum kind)k, size, n);
	}
	fprintf(stderr, "zemem-bench: --count: kind is host, device, shared "
			"or malloc\n");
	return 2;
}

void
zb_usm(void)
{
	int trials = zb.quick ? 5 : 15;
	zb_section("usm", "alloc+free pairs and lookups through %s",
		   tool_loader_path());
	/* The figures and their baselines take turns in this process: on
	 * one CPU, so a migration between vCPUs of unequal speed does not
	 * land between a trial and its baseline. */
	zb_pin();
	pairs(trials);
	lookups(trials);
	zb_unpin();
}
