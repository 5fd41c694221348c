// SPDX-License-Identifier: MIT
/*
 * test_val_lifetime: one deliberate bug per pointer- and handle-lifetime
 * check of the validation layer (ZE_ENABLE_HANDLE_LIFETIME=1) on USM
 * memory, contexts and devices: the result code, the finding's text (what
 * is wrong, where the memory was allocated and released) and whether the
 * driver saw the call. IPC and VMM lifetime checks are in
 * test_val_ipc_vmm.c.
 */
#include "check_run.h"
#include "val_chain.h"

#include <check.h>
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static struct vc c;
static const ze_host_mem_alloc_desc_t hd = {
	ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0
};
static const ze_device_mem_alloc_desc_t dd = {
	ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0
};

static void *
alloc_host(size_t size)
{
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, &hd, size, 0, &p),
			 ZE_RESULT_SUCCESS);
	return p;
}

static ze_context_handle_t
new_context(void)
{
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_context_handle_t ctx = NULL;
	ck_assert_int_eq(c.api.zeContextCreate(c.drv, &cd, &ctx),
			 ZE_RESULT_SUCCESS);
	return ctx;
}

START_TEST(test_free_double)
{
	vt_setup(&c, "l");
	void *p = alloc_host(64);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	char want[64];
	snprintf(want, sizeof(want), "double free: %p was already released",
		 p);
	vt_assert_finding("lifetime: zeMemFree(hContext=", want,
			  "host allocation", "(64 bytes, #1, context",
			  "allocated by zeMemAllocHost",
			  "released by zeMemFree",
			  "-> ZE_RESULT_ERROR_INVALID_ARGUMENT", NULL);
	vt_assert_findings(1);
	ck_assert_int_eq(vt_driver_frees, 1);
}
END_TEST

/* Every life of a block has its own record id, also the lives that the
 * thread's own record takes on the fast paths (all switches: the
 * wrappers' fast paths from the second call on): the third life of the
 * same base is #3, host and device each. */
START_TEST(test_free_double_ids)
{
	vt_setup(&c, "plk");
	for (int kind = 0; kind < 2; kind++) {
		void *base = NULL;
		for (int life = 1; life <= 3; life++) {
			void *p = NULL;
			ck_assert_int_eq(
				kind ? c.api.zeMemAllocDevice(c.ctx, &dd, 64, 0,
							      c.dev, &p)
				     : c.api.zeMemAllocHost(c.ctx, &hd, 64, 0,
							    &p),
				ZE_RESULT_SUCCESS);
			if (!base)
				base = p;
			/* the driver hands the block just freed out again */
			ck_assert_ptr_eq(p, base);
			ck_assert_int_eq(c.api.zeMemFree(c.ctx, p),
					 ZE_RESULT_SUCCESS);
		}
		ck_assert_int_eq(c.api.zeMemFree(c.ctx, base),
				 ZE_RESULT_ERROR_INVALID_ARGUMENT);
		char want[64];
		snprintf(want, sizeof(want), "double free: %p", base);
		vt_assert_finding("lifetime: zeMemFree(hContext=", want,
				  kind ? "device allocation" : "host allocation",
				  "(64 bytes, #3, context", NULL);
		vt_assert_findings(kind + 1);
	}
	ck_assert_int_eq(vt_driver_frees, 6);
}
END_TEST

/* Two threads free the same pointer at the same moment, round after
 * round: exactly one free succeeds and reaches the driver, the other is
 * a double free (whichever thread loses), and nothing else is reported. */
enum { RACE_ROUNDS = 500 };
static pthread_barrier_t race_bar;
static void *volatile race_ptr;
static ze_result_t race_res[2];

static void *
race_free(void *arg)
{
	int me = (int)(intptr_t)arg;
	for (int i = 0; i < RACE_ROUNDS; i++) {
		pthread_barrier_wait(&race_bar);
		race_res[me] = c.api.zeMemFree(c.ctx, race_ptr);
		pthread_barrier_wait(&race_bar);
	}
	return NULL;
}

static void *
free_race_ptr(void *arg)
{
	(void)arg;
	race_res[0] = c.api.zeMemFree(c.ctx, race_ptr);
	return NULL;
}

static void
race_double_free(const char *switches)
{
	vt_setup(&c, switches);
	pthread_t t[2];
	ck_assert_int_eq(pthread_barrier_init(&race_bar, NULL, 3), 0);
	for (intptr_t i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, race_free,
						(void *)i), 0);
	int one_each = 0;
	for (int i = 0; i < RACE_ROUNDS; i++) {
		race_ptr = alloc_host(64);
		pthread_barrier_wait(&race_bar); /* both free */
		pthread_barrier_wait(&race_bar); /* both done */
		ze_result_t a = race_res[0], b = race_res[1];
		one_each += (a == ZE_RESULT_SUCCESS &&
			     b == ZE_RESULT_ERROR_INVALID_ARGUMENT) ||
			    (b == ZE_RESULT_SUCCESS &&
			     a == ZE_RESULT_ERROR_INVALID_ARGUMENT);
	}
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	pthread_barrier_destroy(&race_bar);
	ck_assert_int_eq(one_each, RACE_ROUNDS);
	ck_assert_int_eq(vt_driver_frees, RACE_ROUNDS);
	char *log = vt_log_read();
	ck_assert_int_eq(vt_count_findings(log), RACE_ROUNDS);
	int doubles = 0;
	for (const char *q = log; (q = strstr(q, "double free: ")); q++)
		doubles++;
	ck_assert_int_eq(doubles, RACE_ROUNDS);
	free(log);
}

START_TEST(test_free_double_racing)
{
	race_double_free("l");
}
END_TEST

/* The same with every switch on: from the second round both threads free
 * on their fast paths (the context is hot in each). */
START_TEST(test_free_double_racing_hot)
{
	race_double_free("plk");
}
END_TEST

/* Not inlined, so the backtraces name them. */
__attribute__((noinline)) void *val_test_alloc_site(void);
__attribute__((noinline)) void val_test_free_site(void *p);

__attribute__((noinline)) void *
val_test_alloc_site(void)
{
	void *p = alloc_host(4096);
	__asm__ volatile("" ::: "memory");
	return p;
}

__attribute__((noinline)) void
val_test_free_site(void *p)
{
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), ZE_RESULT_SUCCESS);
	__asm__ volatile("" ::: "memory");
}

START_TEST(test_free_double_backtrace)
{
	vt_setup(&c, "lb");
	void *p = val_test_alloc_site();
	val_test_free_site(p);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("double free", "allocated by zeMemAllocHost at ",
			  "val_test_alloc_site+",
			  "released by zeMemFree at ", "val_test_free_site+",
			  NULL);
}
END_TEST

/* The quarantine keeps the last 4096 freed records: a double free of an
 * older one is still caught, by the driver's refusal. */
START_TEST(test_free_double_after_quarantine_wraps)
{
	enum { N = 5000 };
	vt_setup(&c, "l");
	static void *p[N];
	for (int i = 0; i < N; i++)
		p[i] = alloc_host(64 + 64 * (i % 4));
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(c.api.zeMemFree(c.ctx, p[i]), 0);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p[N - 1]),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("lifetime: zeMemFree(", "double free",
			  "released by zeMemFree", NULL);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p[0]),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("lifetime: zeMemFree(",
			  "is not memory the layer saw allocated or opened",
			  "(from the driver)", NULL);
	vt_assert_findings(2);
}
END_TEST

/* zeMemFree of p + 8, 8 bytes into the host block p: refused and
 * reported. */
static void
free_interior(char *p)
{
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p + 8),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("lifetime: zeMemFree(",
			  "free of an interior pointer",
			  "is 8 bytes into host allocation",
			  "-> ZE_RESULT_ERROR_INVALID_ARGUMENT", NULL);
}

START_TEST(test_free_interior_pointer)
{
	vt_setup(&c, "l");
	char *p = alloc_host(256);
	free_interior(p);
	ck_assert_int_eq(vt_driver_frees, 0);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), ZE_RESULT_SUCCESS);
	vt_assert_findings(1);
}
END_TEST

START_TEST(test_free_into_released_memory)
{
	vt_setup(&c, "l");
	char *p = alloc_host(256);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p + 32),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("zeMemFree(", "32 bytes into memory that was "
			  "already released", "released by zeMemFree", NULL);
}
END_TEST

START_TEST(test_free_wrong_context)
{
	vt_setup(&c, "l");
	ze_context_handle_t other = new_context();
	void *p = alloc_host(64);
	ck_assert_int_eq(c.api.zeMemFree(other, p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	char want[128];
	snprintf(want, sizeof(want), "belongs to context %p, not %p",
		 (void *)c.ctx, (void *)other);
	vt_assert_finding("lifetime: zeMemFree(",
			  "free through the wrong context", want,
			  "-> ZE_RESULT_ERROR_INVALID_ARGUMENT", NULL);
	ck_assert_int_eq(vt_driver_frees, 0);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(c.api.zeContextDestroy(other), ZE_RESULT_SUCCESS);
	vt_assert_findings(1);
}
END_TEST

START_TEST(test_free_unknown_pointer)
{
	vt_setup(&c, "l");
	void *m = malloc(64);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, m),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("lifetime: zeMemFree(",
			  "is not memory the layer saw allocated or opened",
			  "-> ZE_RESULT_ERROR_INVALID_ARGUMENT (from the "
			  "driver)", NULL);
	free(m);
}
END_TEST

/* ---- The same bugs on the fast paths: every switch on (the usual
 * switches) and the context hot (val_hot), so each call starts on
 * val_fast_<ep> and the bug sends it to the usual path, or, after the
 * driver's call, to the fast path's cold helpers. ---- */

static void
warm_up(void)
{
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(c.api.zeMemFree(c.ctx, alloc_host(64)),
				 ZE_RESULT_SUCCESS);
}

START_TEST(test_hot_path_bugs)
{
	vt_setup(&c, "plk");
	warm_up();
	char *p = alloc_host(256);
	free_interior(p);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	vt_assert_finding("parameter: zeMemFree(", "ptr",
			  "-> ZE_RESULT_ERROR_INVALID_NULL_POINTER", NULL);
	ze_host_mem_alloc_desc_t bad = hd;
	bad.flags = 0x100;
	void *q = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, &bad, 64, 0, &q),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	vt_assert_finding("parameter: zeMemAllocHost(", "host_desc->flags",
			  "-> ZE_RESULT_ERROR_INVALID_ENUMERATION", NULL);
	/* A block of another context freed through the hot one. */
	ze_context_handle_t other = new_context();
	ck_assert_int_eq(c.api.zeMemAllocHost(other, &hd, 64, 0, &q),
			 ZE_RESULT_SUCCESS);
	warm_up();
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, q),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	char want[128];
	snprintf(want, sizeof(want), "belongs to context %p, not %p",
		 (void *)other, (void *)c.ctx);
	vt_assert_finding("lifetime: zeMemFree(",
			  "free through the wrong context", want,
			  "-> ZE_RESULT_ERROR_INVALID_ARGUMENT", NULL);
	ck_assert_int_eq(c.api.zeMemFree(other, q), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(c.api.zeContextDestroy(other), ZE_RESULT_SUCCESS);
	warm_up();
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	snprintf(want, sizeof(want), "double free: %p was already released",
		 (void *)p);
	vt_assert_finding("lifetime: zeMemFree(", want, "host allocation",
			  "(256 bytes", "released by zeMemFree",
			  "-> ZE_RESULT_ERROR_INVALID_ARGUMENT", NULL);
	vt_assert_findings(5);
	/* warm-ups 3 x 2, p, q; no bad call reached the driver */
	ck_assert_int_eq(vt_driver_frees, 8);
}
END_TEST

/* A driver that refuses frees while refuse_frees > 0, and one whose host
 * blocks asked with 256-byte alignment come back 16 bytes off. */
static ze_pfnMemFree_t next_free;
static ze_pfnMemAllocHost_t next_alloc_host;
static int refuse_frees;
static char *skewed;

static ze_result_t
refusing_free(ze_context_handle_t ctx, void *ptr)
{
	if (refuse_frees > 0) {
		refuse_frees--;
		return ZE_RESULT_ERROR_DEVICE_LOST;
	}
	if (ptr && ptr == skewed)
		ptr = skewed - 16;
	return next_free(ctx, ptr);
}

static ze_result_t
skewing_alloc_host(ze_context_handle_t ctx, const ze_host_mem_alloc_desc_t *d,
		   size_t size, size_t align, void **pptr)
{
	if (align < 256)
		return next_alloc_host(ctx, d, size, align, pptr);
	ze_result_t r = next_alloc_host(ctx, d, size + 64, align, pptr);
	if (r == ZE_RESULT_SUCCESS)
		*pptr = skewed = (char *)*pptr + 16;
	return r;
}

static void
plant_odd_driver(ze_dditable_t *t)
{
	next_free = t->Mem.pfnFree;
	next_alloc_host = t->Mem.pfnAllocHost;
	t->Mem.pfnFree = refusing_free;
	t->Mem.pfnAllocHost = skewing_alloc_host;
}

static void
setup_odd_driver(void)
{
	vt_switches("plk");
	vt_log_begin();
	ck_assert_int_eq(vc_load_chain(&c, ZE_API_VERSION_CURRENT,
				       vc_layer_path(), plant_odd_driver), 0);
	ck_assert_int_eq(vc_open(&c), ZE_RESULT_SUCCESS);
	warm_up();
}

/* The layer lets a free go ahead (record retired, call counted) and the
 * driver refuses it: the record is live again and the count taken back,
 * so the next free is no double free and the leak table balances. */
START_TEST(test_hot_free_refused_by_driver)
{
	setup_odd_driver();
	void *p = alloc_host(64), *keep = alloc_host(64);
	refuse_frees = 1;
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p),
			 ZE_RESULT_ERROR_DEVICE_LOST);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), ZE_RESULT_SUCCESS);
	vt_assert_findings(0);
	ck_assert_int_eq(c.api.zeContextDestroy(c.ctx), ZE_RESULT_SUCCESS);
	char *log = vt_log_read();
	ck_assert_ptr_nonnull(strstr(log, "zeMemAllocHost = 4 "));
	ck_assert_ptr_nonnull(strstr(log, "zeMemFree = 3 "));
	ck_assert_ptr_nonnull(strstr(log, "---> LEAK = 1\n"));
	free(log);
	vt_assert_finding("leak: zeContextDestroy(",
			  "context destroyed with a live host allocation",
			  NULL);
	vt_assert_findings(1);
	(void)keep;
}
END_TEST

/* A misaligned block from the driver, found after the call (the fast
 * path's cold helper): reported, recorded, and freed cleanly. */
START_TEST(test_hot_misaligned_pointer)
{
	setup_odd_driver();
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, &hd, 100, 256, &p),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(p, skewed);
	vt_assert_finding("driver: zeMemAllocHost(", "alignment=256",
			  "not aligned to the 256 bytes asked for",
			  "-> ZE_RESULT_SUCCESS (from the driver)", NULL);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), ZE_RESULT_SUCCESS);
	vt_assert_findings(1);
}
END_TEST

/* The thread's last record (val_hot.rc_*) goes stale when another
 * thread's frees push it out of the quarantine and its allocations reuse
 * it for other blocks: a second free of the old pointer must then be
 * looked up afresh, not taken for the reused record. */
enum { CHURN = 12000 };

static void *
churn(void *arg)
{
	void **v = malloc(CHURN * sizeof(*v));
	ck_assert_ptr_nonnull(v);
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < CHURN; i++)
			v[i] = alloc_host(64);
		for (int i = 0; i < CHURN; i++)
			ck_assert_int_eq(c.api.zeMemFree(c.ctx, v[i]),
					 ZE_RESULT_SUCCESS);
	}
	for (int i = 0; i < CHURN; i++)
		v[i] = alloc_host(64);
	*(void ***)arg = v;
	return NULL;
}

static void *
free_one(void *p)
{
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), ZE_RESULT_SUCCESS);
	return NULL;
}

START_TEST(test_hot_record_reused_elsewhere)
{
	vt_setup(&c, "plk");
	warm_up();
	void *p = alloc_host(64);
	pthread_t t;
	/* Freed by a thread that then exits: its record goes to the
	 * quarantine (a thread keeps the last record it freed in each shard
	 * as its own until it exits). */
	ck_assert_int_eq(pthread_create(&t, NULL, free_one, p), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	void **v = NULL;
	ck_assert_int_eq(pthread_create(&t, NULL, churn, &v), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	int frees = vt_driver_frees;
	ze_result_t r = c.api.zeMemFree(c.ctx, p);
	/* p is either one of the blocks the other thread holds now (the
	 * driver gave it out again: a legal free), or gone from the layer's
	 * records and the driver's both. */
	bool held = false;
	for (int i = 0; i < CHURN; i++)
		held |= v[i] == p;
	if (held) {
		ck_assert_int_eq(r, ZE_RESULT_SUCCESS);
		ck_assert_int_eq(vt_driver_frees, frees + 1);
		vt_assert_findings(0);
	} else {
		ck_assert_int_eq(r, ZE_RESULT_ERROR_INVALID_ARGUMENT);
		vt_assert_finding("lifetime: zeMemFree(",
				  "is not memory the layer saw allocated or "
				  "opened, and the driver refused it too",
				  NULL);
		vt_assert_findings(1);
	}
	for (int i = 0; i < CHURN; i++)
		if (v[i] != p)
			ck_assert_int_eq(c.api.zeMemFree(c.ctx, v[i]),
					 ZE_RESULT_SUCCESS);
	free(v);
}
END_TEST

/* A thread keeps the last record it freed in each shard as its own
 * (val.h, struct val_own): an allocation at that base and its free then
 * take no lock. Anyone else who needs the record takes it back first.
 * Here: the main thread's own live allocation freed by another thread
 * (no finding, one driver free), the main thread's second free of it (a
 * double free, not passed on), an own allocation live at a context's
 * destroy (reported), one a thread still held when it exited (freed
 * by the main thread after), and zeMemFreeExt of an own allocation. */
static void *
own_pair_then_exit(void *arg)
{
	void *p = alloc_host(64);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), ZE_RESULT_SUCCESS);
	void *q = alloc_host(64);
	ck_assert_ptr_eq(q, p);  /* the driver's thread cache: LIFO */
	*(void **)arg = q;
	return NULL;
}

struct own_hold {
	void *p;
	bool freed;     /* the thread frees p before the first wait */
	pthread_barrier_t bar;
};

static void *
own_pair_hold(void *arg)
{
	struct own_hold *oh = arg;
	own_pair_then_exit(&oh->p);
	if (oh->freed)
		ck_assert_int_eq(c.api.zeMemFree(c.ctx, oh->p),
				 ZE_RESULT_SUCCESS);
	pthread_barrier_wait(&oh->bar);
	pthread_barrier_wait(&oh->bar);
	if (!oh->freed)
		ck_assert_int_eq(c.api.zeMemFree(c.ctx, oh->p),
				 ZE_RESULT_SUCCESS);
	return NULL;
}

static void
get_put_ipc(void *p)
{
	ze_ipc_mem_handle_t h;
	ck_assert_int_eq(c.api.zeMemGetIpcHandle(c.ctx, p, &h),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(c.api.zeMemPutIpcHandle(c.ctx, h), ZE_RESULT_SUCCESS);
}

START_TEST(test_owned_records)
{
	vt_setup(&c, "plk");
	warm_up();
	void *p = alloc_host(64);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), ZE_RESULT_SUCCESS);
	void *q = alloc_host(64);
	ck_assert_ptr_eq(q, p);
	pthread_t t;
	int frees = vt_driver_frees;
	ck_assert_int_eq(pthread_create(&t, NULL, free_one, q), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(vt_driver_frees, frees + 1);
	vt_assert_findings(0);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, q),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(vt_driver_frees, frees + 1);
	vt_assert_finding("lifetime: zeMemFree(", "double free",
			  "(64 bytes", "released by zeMemFree", NULL);
	vt_assert_findings(1);

	/* Live at the context's destroy, after a pair at its base. */
	ze_context_handle_t other = new_context();
	void *h = NULL, *h2 = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(other, &hd, 100, 0, &h), 0);
	ck_assert_int_eq(c.api.zeMemFree(other, h), 0);
	ck_assert_int_eq(c.api.zeMemAllocHost(other, &hd, 96, 0, &h2), 0);
	ck_assert_ptr_eq(h2, h);
	ck_assert_int_eq(c.api.zeContextDestroy(other), ZE_RESULT_SUCCESS);
	vt_assert_finding("leak: zeContextDestroy(hContext=",
			  "context destroyed with a live host allocation",
			  "(96 bytes", NULL);
	vt_assert_findings(2);

	/* IPC handles of a live own allocation: of this thread's, and of
	 * another thread's while that thread is alive (the layer takes the
	 * record back from it, and its free after that goes the usual
	 * way). */
	void *y = alloc_host(64);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, y), ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(alloc_host(64), y);
	get_put_ipc(y);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, y), ZE_RESULT_SUCCESS);
	struct own_hold oh = { NULL };
	ck_assert_int_eq(pthread_barrier_init(&oh.bar, NULL, 2), 0);
	ck_assert_int_eq(pthread_create(&t, NULL, own_pair_hold, &oh), 0);
	pthread_barrier_wait(&oh.bar);     /* oh.p: its own, live */
	get_put_ipc(oh.p);
	pthread_barrier_wait(&oh.bar);     /* it frees oh.p */
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	vt_assert_findings(2);
	/* ... and of one the other thread has freed, its own still. */
	oh.freed = true;
	ck_assert_int_eq(pthread_create(&t, NULL, own_pair_hold, &oh), 0);
	pthread_barrier_wait(&oh.bar);
	ze_ipc_mem_handle_t ih;
	ck_assert_int_eq(c.api.zeMemGetIpcHandle(c.ctx, oh.p, &ih),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("lifetime: zeMemGetIpcHandle(",
			  "IPC handle of released memory", "(64 bytes",
			  "released by zeMemFree", NULL);
	vt_assert_findings(3);
	pthread_barrier_wait(&oh.bar);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(pthread_barrier_destroy(&oh.bar), 0);

	/* Held by a thread when it exited. */
	void *x = NULL;
	ck_assert_int_eq(pthread_create(&t, NULL, own_pair_then_exit, &x), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	frees = vt_driver_frees;
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, x), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(vt_driver_frees, frees + 1);
	vt_assert_findings(3);

	/* zeMemFreeExt of an own live allocation: freed once, by the
	 * driver; a second is a double free, not passed on. */
	void *e = alloc_host(64);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, e), ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(alloc_host(64), e);
	const ze_memory_free_ext_desc_t fd = {
		.stype = ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC,
		.freePolicy = ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE,
	};
	frees = vt_driver_frees;
	ck_assert_int_eq(c.api.zeMemFreeExt(c.ctx, &fd, e), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(vt_driver_frees, frees + 1);
	vt_assert_findings(3);
	ck_assert_int_eq(c.api.zeMemFreeExt(c.ctx, &fd, e),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(vt_driver_frees, frees + 1);
	vt_assert_finding("lifetime: zeMemFreeExt(", "double free",
			  "(64 bytes", "released by zeMemFreeExt", NULL);
	vt_assert_findings(4);
}
END_TEST

/* Threads that own records while others take them back: three threads
 * allocate and free (their own records), and hand every eighth block to
 * a shared slot whose previous block they free (another thread's, maybe
 * its own still); a fourth creates, uses and destroys contexts, whose
 * leak report takes every thread's records back each time. Every call
 * succeeds, nothing is reported, and the driver frees what it gave. */
enum { OWN_THREADS = 3, OWN_PAIRS = 3000, OWN_SWAPS = 300 };
static _Atomic(void *) own_box;
static pthread_barrier_t own_bar;

static void *
own_worker(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&own_bar);
	for (int i = 0; i < OWN_PAIRS; i++) {
		void *p = alloc_host(64 + (size_t)(i % 4) * 64);
		if (i % 8 == 7)
			p = atomic_exchange(&own_box, p);
		if (p)
			ck_assert_int_eq(c.api.zeMemFree(c.ctx, p),
					 ZE_RESULT_SUCCESS);
	}
	return NULL;
}

static void *
own_taker(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&own_bar);
	for (int i = 0; i < OWN_SWAPS; i++) {
		ze_context_handle_t other = new_context();
		void *h = NULL;
		ck_assert_int_eq(c.api.zeMemAllocHost(other, &hd, 64, 0, &h),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(c.api.zeMemFree(other, h), ZE_RESULT_SUCCESS);
		ck_assert_int_eq(c.api.zeContextDestroy(other),
				 ZE_RESULT_SUCCESS);
	}
	return NULL;
}

START_TEST(test_owned_records_taken_back)
{
	vt_setup(&c, "plk");
	warm_up();
	pthread_t t[OWN_THREADS + 1];
	int allocs = vt_driver_allocs, frees = vt_driver_frees;
	ck_assert_int_eq(pthread_barrier_init(&own_bar, NULL,
					      OWN_THREADS + 1), 0);
	for (int i = 0; i < OWN_THREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, own_worker, NULL),
				 0);
	ck_assert_int_eq(pthread_create(&t[OWN_THREADS], NULL, own_taker,
					NULL), 0);
	for (int i = 0; i <= OWN_THREADS; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	ck_assert_int_eq(pthread_barrier_destroy(&own_bar), 0);
	void *last = atomic_exchange(&own_box, NULL);
	if (last)
		ck_assert_int_eq(c.api.zeMemFree(c.ctx, last),
				 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(vt_driver_allocs - allocs, vt_driver_frees - frees);
	ck_assert_int_eq(vt_driver_allocs - allocs,
			 OWN_THREADS * OWN_PAIRS + OWN_SWAPS);
	vt_assert_findings(0);
}
END_TEST

/* The shard locks are biased towards the thread that takes them first
 * (val.h): its allocations and frees take no atomic operation. Here the
 * main thread owns the shards (it allocated and freed across all of
 * them) and keeps allocating and freeing while two other threads do the
 * same: they revoke its biases mid-stream. Every call succeeds, each
 * reaches the driver once, nothing is reported; a double free from
 * another thread of a block the owner freed is still told apart; and a
 * fork child (its one thread the owner) still allocates and frees. */
enum { BIAS_LIVE = 256, BIAS_PAIRS = 4000 };
static pthread_barrier_t bias_bar;

static void *
bias_pairs(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&bias_bar);
	for (int i = 0; i < BIAS_PAIRS; i++)
		ck_assert_int_eq(c.api.zeMemFree(c.ctx, alloc_host(64 + i % 4 *
								       64)),
				 ZE_RESULT_SUCCESS);
	return NULL;
}

START_TEST(test_shard_bias_handoff)
{
	vt_setup(&c, "plk");
	void *v[BIAS_LIVE];
	for (int i = 0; i < BIAS_LIVE; i++)
		v[i] = alloc_host(64);
	for (int i = 0; i < BIAS_LIVE; i++)
		ck_assert_int_eq(c.api.zeMemFree(c.ctx, v[i]),
				 ZE_RESULT_SUCCESS);
	int frees = vt_driver_frees;
	pthread_t t[2];
	ck_assert_int_eq(pthread_barrier_init(&bias_bar, NULL, 3), 0);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, bias_pairs, NULL),
				 0);
	bias_pairs(NULL);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	pthread_barrier_destroy(&bias_bar);
	ck_assert_int_eq(vt_driver_frees, frees + 3 * BIAS_PAIRS);
	vt_assert_findings(0);
	void *p = alloc_host(64);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), ZE_RESULT_SUCCESS);
	race_ptr = p;
	pthread_t d;
	ck_assert_int_eq(pthread_create(&d, NULL, free_race_ptr, NULL), 0);
	ck_assert_int_eq(pthread_join(d, NULL), 0);
	ck_assert_int_eq(race_res[0], ZE_RESULT_ERROR_INVALID_ARGUMENT);
	char want[64];
	snprintf(want, sizeof(want), "double free: %p was already released",
		 p);
	vt_assert_finding("lifetime: zeMemFree(", want, NULL);
	vt_assert_findings(1);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		void *q = NULL;
		int ok = c.api.zeMemAllocHost(c.ctx, &hd, 64, 0, &q) ==
				 ZE_RESULT_SUCCESS &&
			 c.api.zeMemFree(c.ctx, q) == ZE_RESULT_SUCCESS;
		_exit(ok ? 0 : 1);
	}
	int st = -1;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}
END_TEST

START_TEST(test_context_use_after_destroy)
{
	vt_setup(&c, "l");
	ze_context_handle_t other = new_context();
	ck_assert_int_eq(c.api.zeContextDestroy(other), ZE_RESULT_SUCCESS);
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(other, &hd, 64, 0, &p),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(c.api.zeContextDestroy(other),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	vt_assert_finding("lifetime: zeMemAllocHost(",
			  "use of destroyed context hContext",
			  "created by zeContextCreate",
			  "destroyed by zeContextDestroy",
			  "-> ZE_RESULT_ERROR_INVALID_NULL_HANDLE", NULL);
	vt_assert_finding("lifetime: zeContextDestroy(",
			  "use of destroyed context", NULL);
	vt_assert_findings(2);
	ck_assert_int_eq(vt_driver_allocs, 0);
}
END_TEST

START_TEST(test_context_unknown_handle)
{
	vt_setup(&c, "l");
	void *p = NULL;
	ze_context_handle_t bogus = (ze_context_handle_t)(uintptr_t)0x1000;
	ck_assert_int_eq(c.api.zeMemAllocHost(bogus, &hd, 64, 0, &p),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	vt_assert_finding("lifetime: zeMemAllocHost(hContext=0x1000",
			  "hContext 0x1000 is not a context handle (never "
			  "returned by zeContextCreate", NULL);
}
END_TEST

START_TEST(test_device_handle_of_wrong_kind)
{
	vt_setup(&c, "l");
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocDevice(c.ctx, &dd, 64, 0,
						(ze_device_handle_t)c.ctx, &p),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	vt_assert_finding("lifetime: zeMemAllocDevice(",
			  "is a context handle, not a device handle",
			  "-> ZE_RESULT_ERROR_INVALID_NULL_HANDLE", NULL);
	ze_device_properties_t props = {
		.stype = ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES
	};
	ck_assert_int_eq(c.api.zeDeviceGetProperties(
				 (ze_device_handle_t)(uintptr_t)0x2000, &props),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	vt_assert_finding("zeDeviceGetProperties(hDevice=0x2000",
			  "is not a device handle (never returned by "
			  "zeDeviceGet", NULL);
}
END_TEST

START_TEST(test_context_destroy_with_live_allocations)
{
	vt_setup(&c, "l");
	ze_context_handle_t other = new_context();
	void *h = NULL, *d = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(other, &hd, 100, 0, &h), 0);
	ck_assert_int_eq(c.api.zeMemAllocDevice(other, &dd, 200, 0, c.dev, &d),
			 0);
	ck_assert_int_eq(c.api.zeContextDestroy(other), ZE_RESULT_SUCCESS);
	vt_assert_finding("leak: zeContextDestroy(hContext=",
			  "context destroyed with a live host allocation",
			  "(100 bytes", "allocated by zeMemAllocHost",
			  "-> ZE_RESULT_SUCCESS (from the driver)", NULL);
	vt_assert_finding("context destroyed with a live device allocation",
			  "(200 bytes", NULL);
	vt_assert_findings(2);
	/* The driver freed them with the context. */
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, h),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("lifetime: zeMemFree(", "double free",
			  "released by zeContextDestroy", NULL);
}
END_TEST

START_TEST(test_lifetime_off_passes_through)
{
	vt_setup(&c, "p");
	void *p = alloc_host(64);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), ZE_RESULT_SUCCESS);
	/* The driver itself rejects the second free; the layer is quiet. */
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(vt_driver_frees, 2);
	vt_assert_findings(0);
}
END_TEST

/* Each set of switches (loop index: bit 0 params, 1 lifetime, 2 leak
 * checker, 3 backtraces) runs its own copy of the hot wrappers (the
 * tables get the set's: val_cfg_modes): each checker acts exactly when
 * its switch is on, on the first calls of a context and once it is hot
 * alike. */
START_TEST(test_every_switch_set)
{
	bool p = _i & 1, l = _i & 2, k = _i & 4;
	char sw[5], *w = sw;
	if (p)
		*w++ = 'p';
	if (l)
		*w++ = 'l';
	if (k)
		*w++ = 'k';
	if (_i & 8)
		*w++ = 'b';
	*w = '\0';
	vt_setup(&c, sw);
	int want_findings = 0, want_allocs = 0, want_frees = 0;
	for (int round = 0; round < 3; round++) {
		/* A NULL pptr: stopped by the parameter checks, else the
		 * driver refuses it. */
		ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, &hd, 64, 0, NULL),
				 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
		want_allocs += !p;
		want_findings += p;
		/* Freed twice: stopped by the lifetime checks, else the
		 * driver refuses it (and the layer stays quiet). */
		void *q = alloc_host(64);
		want_allocs++;
		ck_assert_int_eq(c.api.zeMemFree(c.ctx, q), ZE_RESULT_SUCCESS);
		ck_assert_int_eq(c.api.zeMemFree(c.ctx, q),
				 ZE_RESULT_ERROR_INVALID_ARGUMENT);
		want_frees += l ? 1 : 2;
		want_findings += l;
		/* An unknown flag in a device allocation's descriptor. */
		ze_device_mem_alloc_desc_t bad = dd;
		bad.flags = 0x100;
		void *d = NULL;
		ze_result_t r = c.api.zeMemAllocDevice(c.ctx, &bad, 4096, 0,
						       c.dev, &d);
		if (p) {
			ck_assert_int_eq(r, ZE_RESULT_ERROR_INVALID_ENUMERATION);
			want_findings++;
		} else if (r == ZE_RESULT_SUCCESS) {
			ck_assert_int_eq(c.api.zeMemFree(c.ctx, d),
					 ZE_RESULT_SUCCESS);
			want_frees++;
		}
		/* A context where a device goes, on a hot context: stopped
		 * by the lifetime checks (a handle of another kind, as an
		 * unknown one: INVALID_NULL_HANDLE), else the driver
		 * refuses it. */
		d = (void *)1;
		ck_assert_int_eq(c.api.zeMemAllocDevice(c.ctx, &dd, 64, 0,
							(ze_device_handle_t)
								c.ctx,
							&d),
				 l ? ZE_RESULT_ERROR_INVALID_NULL_HANDLE
				   : ZE_RESULT_ERROR_INVALID_ARGUMENT);
		want_findings += l;
		ck_assert_int_eq(vt_driver_allocs, want_allocs);
		ck_assert_int_eq(vt_driver_frees, want_frees);
		vt_assert_findings(want_findings);
	}
	/* The leak checker's table at the zeContextDestroy of a context
	 * with a live allocation, only with the checker on. */
	ze_context_handle_t other = new_context();
	void *left = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(other, &hd, 64, 0, &left),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(c.api.zeContextDestroy(other), ZE_RESULT_SUCCESS);
	char *log = vt_log_read();
	ck_assert_int_eq(strstr(log, "Check balance of create/destroy calls")
				 != NULL, k);
	ck_assert_int_eq(strstr(log, "zeMemAllocHost = 1     |") != NULL, k);
	free(log);
}
END_TEST

/* A loader may unload the layer and the driver (Intel's does at its
 * teardown, a dlclose of libze_loader) while threads that called them
 * live on: their exits must not run the libraries' thread-exit handlers
 * (the layer's counts and owners, the driver's thread caches), which
 * are gone with them. Here a thread keeps records, counts and a cache,
 * both libraries are unloaded, then the thread exits. */
static pthread_barrier_t unload_bar;

static void *
pairs_then_wait(void *arg)
{
	(void)arg;
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(c.api.zeMemFree(c.ctx, alloc_host(64)),
				 ZE_RESULT_SUCCESS);
	pthread_barrier_wait(&unload_bar);   /* its records, its counts */
	pthread_barrier_wait(&unload_bar);   /* both are gone */
	return NULL;
}

START_TEST(test_unloaded_before_thread_exit)
{
	/* In a child that ends with _exit: what the unloaded libraries
	 * held is lost for good, which a leak checker at exit would
	 * report. */
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		vt_setup(&c, "plk");
		warm_up();
		pthread_t t;
		if (pthread_barrier_init(&unload_bar, NULL, 2) ||
		    pthread_create(&t, NULL, pairs_then_wait, NULL))
			_exit(2);
		pthread_barrier_wait(&unload_bar);
		if (dlclose(c.layer_dl) || dlclose(c.drv_dl))
			_exit(3);
		pthread_barrier_wait(&unload_bar);
		_exit(pthread_join(t, NULL) ? 4 : 0);  /* its exit ran */
	}
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && !WEXITSTATUS(st),
		      "a thread's exit after the unload: status 0x%x", st);
}
END_TEST

START_TEST(test_abort_on_first_finding)
{
	vt_setup(&c, "la");
	void *p = alloc_host(64);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), ZE_RESULT_SUCCESS);
	c.api.zeMemFree(c.ctx, p);  /* aborts */
	ck_abort_msg("ZEMEM_VALIDATION_ABORT=1 did not abort");
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("validation-lifetime");
	TCase *t = tcase_create("usm");
	tcase_add_test(t, test_free_double);
	tcase_add_test(t, test_free_double_ids);
	tcase_add_test(t, test_free_double_backtrace);
	tcase_add_test(t, test_free_double_racing);
	tcase_add_test(t, test_free_double_racing_hot);
	tcase_add_test(t, test_free_double_after_quarantine_wraps);
	tcase_add_test(t, test_free_interior_pointer);
	tcase_add_test(t, test_free_into_released_memory);
	tcase_add_test(t, test_free_wrong_context);
	tcase_add_test(t, test_hot_path_bugs);
	tcase_add_test(t, test_hot_free_refused_by_driver);
	tcase_add_test(t, test_hot_misaligned_pointer);
	tcase_add_test(t, test_hot_record_reused_elsewhere);
	tcase_add_test(t, test_owned_records);
	tcase_add_test(t, test_owned_records_taken_back);
	tcase_add_test(t, test_unloaded_before_thread_exit);
	tcase_add_test(t, test_shard_bias_handoff);
	tcase_add_test(t, test_free_unknown_pointer);
	tcase_add_test(t, test_lifetime_off_passes_through);
	/* 1 to 15: at least one of params, lifetime, leak (8 alone: none) */
	tcase_add_loop_test(t, test_every_switch_set, 1, 8);
	tcase_add_loop_test(t, test_every_switch_set, 9, 16);
	suite_add_tcase(s, t);
	t = tcase_create("handles");
	tcase_add_test(t, test_context_use_after_destroy);
	tcase_add_test(t, test_context_unknown_handle);
	tcase_add_test(t, test_device_handle_of_wrong_kind);
	tcase_add_test(t, test_context_destroy_with_live_allocations);
	suite_add_tcase(s, t);
	t = tcase_create("abort");
	tcase_add_test_raise_signal(t, test_abort_on_first_finding, SIGABRT);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	return check_run(suite(), CK_NORMAL, false);
}
