// SPDX-License-Identifier: MIT
/*
 * zemem-bench: every performance figure of zemem, each printed as a ratio
 * against a baseline measured in the same run (malloc/free, a direct call,
 * memcpy, ...). Every figure is the median of repeated trials. It is an
 * ordinary Level Zero application: run it through the system's loader (the
 * default) or through zemem's (LD_LIBRARY_PATH=build/loader).
 *
 *   zemem-bench [--json] [--quick] [SECTION...]
 * Sections: usm (alloc+free pairs, lookups).
 */
#include <level_zero/ze_api.h>

#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static bool json, quick;
static int json_count;
static ze_driver_handle_t drv;
static ze_device_handle_t dev;
static ze_context_handle_t ctx;
static const ze_device_mem_alloc_desc_t ddesc = {
	ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0
};
static const ze_host_mem_alloc_desc_t hdesc = {
	ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0
};

static uint64_t
now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* One result line: name, value, unit, baseline name and value, ratio. */
static void
report(const char *section, const char *name, double value, const char *unit,
       const char *base_name, double base, const char *params)
{
	double ratio = base > 0 ? value / base : 0;
	if (json) {
		printf("%s{\"section\":\"%s\",\"name\":\"%s\",\"value\":%.3f,"
		       "\"unit\":\"%s\",\"baseline\":\"%s\","
		       "\"baseline_value\":%.3f,\"ratio\":%.3f,"
		       "\"params\":\"%s\"}",
		       json_count++ ? ",\n" : "[\n", section, name, value, unit,
		       base_name, base, ratio, params);
		return;
	}
	printf("  %-34s %10.1f %-5s  %-18s %10.1f  ratio %6.2fx  (%s)\n", name,
	       value, unit, base_name, base, ratio, params);
}

enum kind { K_HOST, K_DEVICE, K_SHARED, K_MALLOC };
static const char *const kind_names[] = { "host", "device", "shared",
					  "malloc" };

static ze_result_t
alloc_kind(enum kind k, size_t size, void **p)
{
	switch (k) {
	case K_HOST: return zeMemAllocHost(ctx, &hdesc, size, 0, p);
	case K_DEVICE: return zeMemAllocDevice(ctx, &ddesc, size, 0, dev, p);
	case K_SHARED:
		return zeMemAllocShared(ctx, &ddesc, &hdesc, size, 0, dev, p);
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
		zeMemFree(ctx, p);
}

/* ns per alloc+free pair, median of trials. */
static double
pair_ns(enum kind k, size_t size, int iters, int trials)
{
	double t[31];
	for (int r = 0; r < trials; r++) {
		uint64_t t0 = now_ns();
		for (int i = 0; i < iters; i++) {
			void *p;
			if (alloc_kind(k, size, &p))
				abort();
			__asm__ volatile("" : : "r"(p) : "memory");
			free_kind(k, p);
		}
		t[r] = (double)(now_ns() - t0) / iters;
	}
	return median(t, trials);
}

static void
bench_usm(void)
{
	static const size_t sizes[] = { 64, 1024, 64 * 1024, 2 << 20 };
	int trials = quick ? 5 : 15;
	if (!json)
		printf("usm: alloc+free pair vs glibc malloc+free (ns/pair, "
		       "median of %d trials)\n", trials);
	for (size_t s = 0; s < 4; s++) {
		int iters = sizes[s] >= (1 << 20) ? 2000 : 20000;
		if (quick)
			iters /= 4;
		double base = pair_ns(K_MALLOC, sizes[s], iters, trials);
		for (int k = K_HOST; k <= K_SHARED; k++) {
			char name[64], params[64];
			snprintf(name, sizeof(name), "alloc+free %s %zu B",
				 kind_names[k], sizes[s]);
			snprintf(params, sizeof(params), "%d pairs x %d trials",
				 iters, trials);
			double v = pair_ns(k, sizes[s], iters, trials);
			report("usm", name, v, "ns", "malloc+free", base,
			       params);
		}
	}
	/* Lookups on interior pointers with many live allocations. */
	static const int lives[] = { 1000, 100000, 1000000 };
	if (!json)
		printf("usm: zeMemGetAllocProperties on random interior "
		       "pointers (ns/call, median)\n");
	double first = 0;
	for (int l = 0; l < 3; l++) {
		int n = lives[l];
		if (quick && n > 100000)
			n = 100000;
		void **ptrs = malloc(sizeof(void *) * (size_t)n);
		for (int i = 0; i < n; i++)
			if (zeMemAllocHost(ctx, &hdesc, 64, 0, &ptrs[i]))
				abort();
		enum { Q = 1 << 16 };
		const void **q = malloc(sizeof(void *) * Q);
		unsigned seed = 12345;
		for (int i = 0; i < Q; i++) {
			seed = seed * 1103515245u + 12345u;
			q[i] = (char *)ptrs[(seed >> 4) % (unsigned)n] +
			       (seed % 64);
		}
		double t[15];
		for (int r = 0; r < trials; r++) {
			ze_memory_allocation_properties_t mp = {
				ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES,
				NULL
			};
			uint64_t t0 = now_ns();
			for (int i = 0; i < Q; i++)
				if (zeMemGetAllocProperties(ctx, q[i], &mp,
							    NULL) ||
				    mp.type != ZE_MEMORY_TYPE_HOST)
					abort();
			t[r] = (double)(now_ns() - t0) / Q;
		}
		double v = median(t, trials);
		if (l == 0)
			first = v;
		char name[64], params[64];
		snprintf(name, sizeof(name), "lookup, %d live", n);
		snprintf(params, sizeof(params), "%d random queries", Q);
		report("usm", name, v, "ns", "lookup, 1000 live", first,
		       params);
		for (int i = 0; i < n; i++)
			zeMemFree(ctx, ptrs[i]);
		free(ptrs);
		free(q);
	}
}

static int
setup(void)
{
	if (!getenv("ZE_ENABLE_ALT_DRIVERS")) {
		char self[PATH_MAX], cand[PATH_MAX + 64], real[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n > 0) {
			self[n] = '\0';
			char *slash = strrchr(self, '/');
			if (slash)
				*slash = '\0';
			snprintf(cand, sizeof(cand),
				 "%s/../driver/libze_zemem.so.1", self);
			if (realpath(cand, real))
				setenv("ZE_ENABLE_ALT_DRIVERS", real, 1);
		}
	}
	if (zeInit(0)) {
		fprintf(stderr, "zemem-bench: zeInit failed: no driver\n");
		return -1;
	}
	uint32_t n = 1;
	if (zeDriverGet(&n, &drv) || !n)
		return -1;
	n = 1;
	if (zeDeviceGet(drv, &n, &dev) || !n)
		return -1;
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	return zeContextCreate(drv, &cd, &ctx) ? -1 : 0;
}

int
main(int argc, char **argv)
{
	bool want_usm = false, any = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "--quick"))
			quick = true;
		else if (!strcmp(argv[i], "usm"))
			want_usm = any = true;
		else {
			fprintf(stderr, "usage: zemem-bench [--json] [--quick] "
					"[usm]\n");
			return 2;
		}
	}
	if (!any)
		want_usm = true;
	if (setup())
		return 1;
	if (want_usm)
		bench_usm();
	if (json)
		printf("%s]\n", json_count ? "\n" : "[");
	zeContextDestroy(ctx);
	return 0;
}
