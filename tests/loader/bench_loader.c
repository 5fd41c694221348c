// SPDX-License-Identifier: MIT
/*
 * bench_loader: what a loader costs per call. Times zeMemGetAllocProperties
 * on a known device pointer (with and without the phDevice out-parameter)
 * called
 *   - directly through the driver's own table (the baseline),
 *   - through zemem's loader and through Debian's loader (1.8.12), each
 *     with one driver and with two (zemem's driver and its copy).
 * Every configuration runs in a forked child that dlopens its loader
 * (RTLD_LOCAL) and calls it through dlsym'd pointers, as an application
 * calls through its PLT; the child reports the median over trials. Prints
 * ns per call, the ratio to the direct call and the overhead in ns.
 * A benchmark, not a test: nothing is asserted.
 *
 * usage: bench_loader [calls-per-trial [trials]]   (default 20000 101)
 */
#include <dlfcn.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>

#define MAX_TRIALS 1001

struct api {
	ze_pfnInit_t init;
	ze_pfnDriverGet_t driver_get;
	ze_pfnDeviceGet_t device_get;
	ze_pfnContextCreate_t context_create;
	ze_pfnContextDestroy_t context_destroy;
	ze_pfnMemAllocDevice_t alloc_device;
	ze_pfnMemFree_t mem_free;
	ze_pfnMemGetAllocProperties_t props;
	ze_result_t (*translate)(int type, void *in, void **out);
};

struct config {
	const char *name;
	const char *loader;
	const char *drivers;  /* ZE_ENABLE_ALT_DRIVERS */
};

/* Medians, ns per call; [0] with phDevice, [1] without. */
struct result {
	int ok;
	double direct[2];
	double loader[2];
	double ratio[2];      /* median of the per-trial ratios */
	double min_over[2];   /* fastest loader trial - fastest direct one */
};

static long calls = 20000;
static int trials = 101;

static void *
sym(void *dl, const char *name)
{
	void *p = dlsym(dl, name);
	if (!p) {
		fprintf(stderr, "bench_loader: %s: %s\n", name, dlerror());
		exit(1);
	}
	return p;
}

#define SYM(dst, dl, name) memcpy(&(dst), &(void *){ sym(dl, name) }, \
				  sizeof(dst))

static void
load_loader(const char *path, struct api *a)
{
	void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!dl) {
		fprintf(stderr, "bench_loader: %s\n", dlerror());
		exit(1);
	}
	SYM(a->init, dl, "zeInit");
	SYM(a->driver_get, dl, "zeDriverGet");
	SYM(a->device_get, dl, "zeDeviceGet");
	SYM(a->context_create, dl, "zeContextCreate");
	SYM(a->context_destroy, dl, "zeContextDestroy");
	SYM(a->alloc_device, dl, "zeMemAllocDevice");
	SYM(a->mem_free, dl, "zeMemFree");
	SYM(a->props, dl, "zeMemGetAllocProperties");
	SYM(a->translate, dl, "zelLoaderTranslateHandle");
}

/* The GetAllocProperties of the driver instance that owns real, from that
 * library's own getter (the library the loader already loaded). */
static ze_pfnMemGetAllocProperties_t
driver_props(void *real)
{
	Dl_info info;
	if (!dladdr(real, &info) || !info.dli_fname) {
		fprintf(stderr, "bench_loader: no library owns %p\n", real);
		exit(1);
	}
	void *dl = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
	if (!dl) {
		fprintf(stderr, "bench_loader: %s\n", dlerror());
		exit(1);
	}
	ze_pfnGetMemProcAddrTable_t get;
	static ze_mem_dditable_t mem;
	SYM(get, dl, "zeGetMemProcAddrTable");
	if (get(ZE_API_VERSION_CURRENT, &mem) || !mem.pfnGetAllocProperties) {
		fprintf(stderr, "bench_loader: %s: no Mem table\n",
			info.dli_fname);
		exit(1);
	}
	return mem.pfnGetAllocProperties;
}

static double
now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double
median(double *t)
{
	qsort(t, (size_t)trials, sizeof(t[0]), cmp_double);
	return t[trials / 2];
}

/* One trial: ns per call of fn(ctx, ptr, ...). */
static double
trial(ze_pfnMemGetAllocProperties_t fn, ze_context_handle_t ctx,
      const void *ptr, int with_device)
{
	ze_memory_allocation_properties_t pr = {
		ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, NULL
	};
	ze_device_handle_t owner = NULL;
	ze_device_handle_t *po = with_device ? &owner : NULL;
	unsigned bad = 0;
	double t0 = now_ns();
	for (long i = 0; i < calls; i++)
		bad |= (unsigned)fn(ctx, ptr, &pr, po);
	double ns = (now_ns() - t0) / (double)calls;
	if (bad || pr.type != ZE_MEMORY_TYPE_DEVICE) {
		fprintf(stderr, "bench_loader: the call failed\n");
		exit(1);
	}
	return ns;
}

/* In the child: set up through the loader, then alternate trials of the
 * driver's own function (with the driver's handle) and the loader's entry
 * point, so both see the same process, caches and machine load. */
static struct result
measure(const struct config *c)
{
	struct api a;
	setenv("ZE_ENABLE_ALT_DRIVERS", c->drivers, 1);
	load_loader(c->loader, &a);
	ze_driver_handle_t drv[4];
	ze_device_handle_t dev;
	ze_context_handle_t ctx;
	void *real = NULL, *ptr = NULL;
	uint32_t n = 4;
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_device_mem_alloc_desc_t dd = {
		ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0
	};
	if (a.init(0) || a.driver_get(&n, drv) || !n ||
	    a.device_get(drv[0], &(uint32_t){ 1 }, &dev) ||
	    a.context_create(drv[0], &cd, &ctx) ||
	    a.alloc_device(ctx, &dd, 4096, 0, dev, &ptr) ||
	    a.translate(2 /* ZEL_HANDLE_CONTEXT */, ctx, &real)) {
		fprintf(stderr, "bench_loader: %s: setup failed\n", c->name);
		exit(1);
	}
	ze_pfnMemGetAllocProperties_t direct = driver_props(real);
	struct result r = { 1, { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 } };
	double td[MAX_TRIALS], tl[MAX_TRIALS], tr[MAX_TRIALS];
	for (int with = 1; with >= 0; with--) {
		for (int k = 0; k < trials; k++) {
			td[k] = trial(direct, real, ptr, with);
			tl[k] = trial(a.props, ctx, ptr, with);
			tr[k] = tl[k] / td[k];
		}
		r.direct[!with] = median(td);
		r.loader[!with] = median(tl);
		r.ratio[!with] = median(tr);
		r.min_over[!with] = tl[0] - td[0]; /* sorted by median() */
	}
	a.mem_free(ctx, ptr);
	a.context_destroy(ctx);
	return r;
}

static struct result
run_child(const struct config *c)
{
	struct result r = { 0, { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0, 0 } };
	int fds[2];
	if (pipe(fds))
		return r;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		r = measure(c);
		if (write(fds[1], &r, sizeof(r)) != sizeof(r))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (pid < 0 || read(fds[0], &r, sizeof(r)) != sizeof(r))
		r.ok = 0;
	close(fds[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return r;
}

int
main(int argc, char **argv)
{
	if (argc > 1)
		calls = atol(argv[1]) > 0 ? atol(argv[1]) : calls;
	if (argc > 2)
		trials = atoi(argv[2]);
	if (trials < 1 || trials > MAX_TRIALS)
		trials = 101;
	/* Stay on one CPU so all configurations see the same caches. */
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(sched_getcpu() > 0 ? sched_getcpu() : 0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	const char *one = BENCH_DRIVER;
	const char *two = BENCH_DRIVER "," BENCH_DRIVER_COPY;
	const struct config configs[] = {
		{ "zemem loader, 1 driver", BENCH_ZEMEM_LOADER, one },
		{ "Debian loader, 1 driver", BENCH_SYS_LOADER, one },
		{ "zemem loader, 2 drivers", BENCH_ZEMEM_LOADER, two },
		{ "Debian loader, 2 drivers", BENCH_SYS_LOADER, two },
	};
	printf("zeMemGetAllocProperties on a device pointer, ns per call "
	       "(median of %d trials x %ld calls;\n"
	       "direct = the driver's own function in the same process, "
	       "trials alternated;\nratio = median of loader/direct per "
	       "trial pair; over.min = fastest loader - fastest direct "
	       "trial)\n", trials, calls);
	const char *what[2] = { "with phDevice", "phDevice NULL" };
	struct result res[sizeof(configs) / sizeof(configs[0])];
	size_t nconf = sizeof(configs) / sizeof(configs[0]);
	for (size_t i = 0; i < nconf; i++)
		res[i] = run_child(&configs[i]);
	for (int w = 0; w < 2; w++) {
		printf("\n%-26s %8s %8s %8s %9s %9s   (%s)\n", "", "direct",
		       "loader", "ratio", "overhead", "over.min", what[w]);
		for (size_t i = 0; i < nconf; i++) {
			const struct result *r = &res[i];
			if (!r->ok) {
				printf("%-26s (failed; see stderr)\n",
				       configs[i].name);
				continue;
			}
			printf("%-26s %8.2f %8.2f %8.3f %9.2f %9.2f\n",
			       configs[i].name, r->direct[w], r->loader[w],
			       r->ratio[w], r->loader[w] - r->direct[w],
			       r->min_over[w]);
		}
	}
	return 0;
}
