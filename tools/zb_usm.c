// SPDX-License-Identifier: MIT
/*
 * zb_usm: the foundation's figures (issue 2), through the loader in use.
 *   - an alloc+free pair of each kind (host, device, shared) at 64 B,
 *     1 KiB, 64 KiB and 2 MiB vs glibc malloc+free of the same size;
 *     target <= 2x up to 64 KiB;
 *   - zeMemGetAllocProperties on random interior pointers with 1K, 100K
 *     and 1M live 64-byte allocations vs the 1K figure; target <= 100 ns
 *     and <= 1.5x at 1M.
 * Trials of the baseline and of the figures take turns, round by round.
 */
#include "zb.h"

#include <stdlib.h>
#include <string.h>

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

static void
lookups(int trials)
{
	static const int lives[] = { 1000, 100000, 1000000 };
	double first = 0;
	enum { Q = 1 << 16 };
	const void **q = malloc(sizeof(void *) * Q);
	if (!q)
		return;
	for (int l = 0; l < 3; l++) {
		int n = lives[l];
		if (zb.quick && n > 100000)
			n = 100000;
		void **ptrs = malloc(sizeof(void *) * (size_t)n);
		if (!ptrs)
			break;
		for (int i = 0; i < n; i++)
			if (zeMemAllocHost(zb.ctx, &zb_hdesc, 64, 0, &ptrs[i]))
				abort();
		unsigned seed = 12345;
		for (int i = 0; i < Q; i++) {
			seed = seed * 1103515245u + 12345u;
			q[i] = (char *)ptrs[(seed >> 4) % (unsigned)n] +
			       (seed % 64);
		}
		double t[31];
		for (int r = 0; r < trials; r++) {
			ze_memory_allocation_properties_t mp = {
				ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES,
				NULL
			};
			uint64_t t0 = tool_now_ns();
			for (int i = 0; i < Q; i++)
				if (zeMemGetAllocProperties(zb.ctx, q[i], &mp,
							    NULL) ||
				    mp.type != ZE_MEMORY_TYPE_HOST)
					abort();
			t[r] = (double)(tool_now_ns() - t0) / Q;
		}
		double v = zb_median(t, trials);
		if (l == 0)
			first = v;
		char name[64], params[96];
		snprintf(name, sizeof(name), "GetAllocProperties, %d live", n);
		snprintf(params, sizeof(params), "%d random interior pointers "
			 "x %d trials%s", Q, trials, l == 2 || (zb.quick &&
				l == 1) ? ", target <= 100 ns and <= 1.5x" : "");
		zb_report("usm", name, v, "ns", "the same, 1000 live", first,
			  params);
		for (int i = 0; i < n; i++)
			zeMemFree(zb.ctx, ptrs[i]);
		free(ptrs);
		if (zb.quick && n == 100000)
			break;
	}
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
	pairs(trials);
	lookups(trials);
}
