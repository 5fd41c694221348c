// SPDX-License-Identifier: MIT
/*
 * bench_validation: the cost of the validation layer. Runs the same
 * operations on the driver directly ("off") and through the layer ("on",
 * with the switches in the environment; all three checkers when none is
 * set) in one process, interleaving rounds, and prints the median ns per
 * operation and the on/off ratio. malloc+free is printed as a baseline.
 *
 *   bench_validation [rounds [iterations]]     (default 101 x 5000)
 *   bench_validation --count on|off OP N        (OP: host, device, props)
 *
 * --count runs one side only, OP N times, and prints nothing: for
 * instruction counts, which are repeatable where times are not. Run it
 * under valgrind --tool=callgrind at two N, on and off; the layer's cost
 * per operation is ((on, N2) - (on, N1) - (off, N2) + (off, N1)) /
 * (N2 - N1) (tests/validation/val_icount.sh does this).
 *
 * Times are this thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so time the
 * thread spends descheduled on a busy machine does not count; the median
 * of the rounds is printed.
 *
 * Operations: zeMemAllocHost(64) + zeMemFree; zeMemAllocDevice(4096) +
 * zeMemFree; zeMemGetAllocProperties of an interior pointer with 1000
 * other allocations live (so the layer's index is not trivially small).
 * Two floors follow, on the host pair: the cost of any layer on this
 * machine, from stand-ins compiled here that wrap the driver's own entry
 * points as a layer would. "frame": a wrapper that only forwards and
 * counts (a call frame of its own around the next layer's call). "record":
 * also the least a lifetime checker does, one record per allocation in an
 * open-addressed table by base address (found again at the free, with the
 * context and liveness checked), and the quick descriptor check; one
 * thread, no lock, no quarantine, no report.
 *
 * A benchmark, not a test: it asserts nothing.
 */
#include "val_chain.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LIVE 1000

static const ze_host_mem_alloc_desc_t hd = {
	ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0
};
static const ze_device_mem_alloc_desc_t dd = {
	ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0
};

struct side {
	struct vc c;
	void *live[LIVE];
	char *probe;
};

static double
now_ns(void)
{
	struct timespec ts;
	/* CPU time of this thread: on a loaded machine, time spent
	 * descheduled would swamp the difference being measured. */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
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
	return v[n / 2];
}

enum op { OP_HOST_PAIR, OP_DEVICE_PAIR, OP_PROPS, OP_MALLOC, OP_COUNT };
static const char *const op_names[OP_COUNT] = {
	"zeMemAllocHost(64)+zeMemFree",
	"zeMemAllocDevice(4096)+zeMemFree",
	"zeMemGetAllocProperties",
	"malloc(64)+free (baseline)",
};

static double
run(struct side *s, enum op op, int iters)
{
	struct vapi *a = &s->c.api;
	ze_memory_allocation_properties_t props = {
		ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, NULL, 0, 0, 0
	};
	void *p;
	double t0 = now_ns();
	for (int i = 0; i < iters; i++) {
		switch (op) {
		case OP_HOST_PAIR:
			if (a->zeMemAllocHost(s->c.ctx, &hd, 64, 0, &p) ||
			    a->zeMemFree(s->c.ctx, p))
				abort();
			break;
		case OP_DEVICE_PAIR:
			if (a->zeMemAllocDevice(s->c.ctx, &dd, 4096, 0,
						s->c.dev, &p) ||
			    a->zeMemFree(s->c.ctx, p))
				abort();
			break;
		case OP_PROPS:
			if (a->zeMemGetAllocProperties(s->c.ctx, s->probe,
						       &props, NULL))
				abort();
			break;
		case OP_MALLOC:
			p = malloc(64);
			__asm__ volatile("" : : "r"(p) : "memory");
			free(p);
			break;
		default:
			break;
		}
	}
	return (now_ns() - t0) / iters;
}

/* ---- the floors ---- */
static ze_pfnMemAllocHost_t floor_next_alloc;
static ze_pfnMemFree_t floor_next_free;
static unsigned long floor_calls;

static __attribute__((noinline)) ze_result_t
frame_alloc(ze_context_handle_t c, const ze_host_mem_alloc_desc_t *d,
	    size_t size, size_t align, void **pp)
{
	ze_result_t r = floor_next_alloc(c, d, size, align, pp);
	if (r == ZE_RESULT_SUCCESS)
		floor_calls++;
	return r;
}

static __attribute__((noinline)) ze_result_t
frame_free(ze_context_handle_t c, void *p)
{
	ze_result_t r = floor_next_free(c, p);
	if (r == ZE_RESULT_SUCCESS)
		floor_calls++;
	return r;
}

#define FLOOR_SLOTS 4096u /* a power of two, > 2 x LIVE */
static struct frec {
	uintptr_t base;     /* 0: never used */
	ze_context_handle_t ctx;
	size_t size;
	bool live;
} floor_tab[FLOOR_SLOTS];

static struct frec *
frec_of(uintptr_t b)
{
	size_t i = (size_t)((b * 0x9e3779b97f4a7c15ull) >> 52) &
		   (FLOOR_SLOTS - 1);
	while (floor_tab[i].base && floor_tab[i].base != b)
		i = (i + 1) & (FLOOR_SLOTS - 1);
	return &floor_tab[i];
}

static __attribute__((noinline)) ze_result_t
record_alloc(ze_context_handle_t c, const ze_host_mem_alloc_desc_t *d,
	     size_t size, size_t align, void **pp)
{
	if (!d || !pp || d->stype != ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC ||
	    d->pNext || (d->flags & ~0x1fu) || !size || (align & (align - 1)))
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	ze_result_t r = floor_next_alloc(c, d, size, align, pp);
	if (r == ZE_RESULT_SUCCESS) {
		struct frec *f = frec_of((uintptr_t)*pp);
		if (f->live)
			abort(); /* the driver handed out live memory */
		*f = (struct frec){ (uintptr_t)*pp, c, size, true };
		floor_calls++;
	}
	return r;
}

static __attribute__((noinline)) ze_result_t
record_free(ze_context_handle_t c, void *p)
{
	struct frec *f = frec_of((uintptr_t)p);
	if (!p || !f->live || f->ctx != c)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	f->live = false;
	ze_result_t r = floor_next_free(c, p);
	if (r == ZE_RESULT_SUCCESS)
		floor_calls++;
	else
		f->live = true;
	return r;
}

static double
run_floor(struct side *s, bool record, int iters)
{
	ze_pfnMemAllocHost_t al = record ? record_alloc : frame_alloc;
	ze_pfnMemFree_t fr = record ? record_free : frame_free;
	void *p;
	/* Called through pointers the compiler cannot see through, as the
	 * loader calls a layer. */
	__asm__("" : "+r"(al), "+r"(fr));
	double t0 = now_ns();
	for (int i = 0; i < iters; i++)
		if (al(s->c.ctx, &hd, 64, 0, &p) || fr(s->c.ctx, p))
			abort();
	return (now_ns() - t0) / iters;
}

static void
prepare(struct side *s, const char *layer)
{
	if (vc_load_chain(&s->c, ZE_API_VERSION_CURRENT, layer, NULL) ||
	    vc_open(&s->c)) {
		fprintf(stderr, "bench_validation: cannot load %s\n",
			layer ? layer : "the driver");
		exit(1);
	}
	for (int i = 0; i < LIVE; i++)
		if (s->c.api.zeMemAllocHost(s->c.ctx, &hd, 64 + 16 * (i % 8), 0,
					    &s->live[i]))
			exit(1);
	s->probe = (char *)s->live[LIVE / 2] + 8;
}

static void
set_switches(void)
{
	if (!getenv("ZE_ENABLE_PARAMETER_VALIDATION") &&
	    !getenv("ZE_ENABLE_HANDLE_LIFETIME") &&
	    !getenv("ZEL_ENABLE_BASIC_LEAK_CHECKER")) {
		setenv("ZE_ENABLE_PARAMETER_VALIDATION", "1", 1);
		setenv("ZE_ENABLE_HANDLE_LIFETIME", "1", 1);
		setenv("ZEL_ENABLE_BASIC_LEAK_CHECKER", "1", 1);
	}
}

/* --count on|off host|device|props N */
static int
count_main(int argc, char **argv)
{
	static struct side s;
	enum op op;
	if (argc != 5)
		return 2;
	bool on = !strcmp(argv[2], "on");
	if (!strcmp(argv[3], "host"))
		op = OP_HOST_PAIR;
	else if (!strcmp(argv[3], "device"))
		op = OP_DEVICE_PAIR;
	else if (!strcmp(argv[3], "props"))
		op = OP_PROPS;
	else
		return 2;
	int n = atoi(argv[4]);
	set_switches();
	prepare(&s, on ? vc_layer_path() : NULL);
	run(&s, op, 100);  /* warm: the first calls fill caches */
	if (n > 0)
		run(&s, op, n);
	for (int i = 0; i < LIVE; i++)
		s.c.api.zeMemFree(s.c.ctx, s.live[i]);
	s.c.api.zeContextDestroy(s.c.ctx);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--count"))
		return count_main(argc, argv);
	int rounds = argc > 1 ? atoi(argv[1]) : 101;
	int iters = argc > 2 ? atoi(argv[2]) : 5000;
	static struct side off, on;
	if (rounds < 1 || iters < 1)
		return 1;
	set_switches();
	prepare(&off, NULL);
	prepare(&on, vc_layer_path());
	printf("switches: params=%s lifetime=%s leak=%s backtrace=%s; "
	       "%d rounds x %d iterations, %d allocations live\n",
	       getenv("ZE_ENABLE_PARAMETER_VALIDATION") ? "1" : "0",
	       getenv("ZE_ENABLE_HANDLE_LIFETIME") ? "1" : "0",
	       getenv("ZEL_ENABLE_BASIC_LEAK_CHECKER") ? "1" : "0",
	       getenv("ZEMEM_VALIDATION_BACKTRACE") ? "1" : "0", rounds,
	       iters, LIVE);
	double *t_off = calloc((size_t)rounds, sizeof(double));
	double *t_on = calloc((size_t)rounds, sizeof(double));
	if (!t_off || !t_on)
		return 1;
	printf("%-34s %12s %12s %8s\n", "operation", "off ns/op", "on ns/op",
	       "on/off");
	/* The floors run on the off side, against its bare host pair. */
	floor_next_alloc = off.c.api.zeMemAllocHost;
	floor_next_free = off.c.api.zeMemFree;
	for (int i = 0; i < LIVE; i++) {
		struct frec *f = frec_of((uintptr_t)off.live[i]);
		*f = (struct frec){ (uintptr_t)off.live[i], off.c.ctx, 64, true };
	}
	static const char *const floor_names[2] = {
		"floor: a frame around the pair", "floor: frame + one record",
	};
	for (int row = 0; row < OP_COUNT + 2; row++) {
		bool fl = row >= OP_COUNT;
		enum op op = fl ? OP_HOST_PAIR : (enum op)row;
		for (int r = -1; r < rounds; r++) {
			int n = r < 0 ? iters / 10 + 1 : iters; /* -1: warm up */
			double a = run(&off, op, n);
			double b = fl ? run_floor(&off, row - OP_COUNT, n)
				      : run(&on, op, n);
			if (r >= 0) {
				t_off[r] = a;
				t_on[r] = b;
			}
		}
		double m_off = median(t_off, rounds);
		double m_on = median(t_on, rounds);
		printf("%-34s %12.1f %12.1f %8.2f\n",
		       fl ? floor_names[row - OP_COUNT] : op_names[row], m_off,
		       m_on, m_on / m_off);
	}
	for (int i = 0; i < LIVE; i++) {
		off.c.api.zeMemFree(off.c.ctx, off.live[i]);
		on.c.api.zeMemFree(on.c.ctx, on.live[i]);
	}
	off.c.api.zeContextDestroy(off.c.ctx);
	on.c.api.zeContextDestroy(on.c.ctx);
	free(t_off);
	free(t_on);
	return 0;
}
