// SPDX-License-Identifier: MIT
/*
 * test_val_workload: a broad, correct USM workload through the validation
 * layer with every check on must produce zero findings (and leak no fd or
 * mapping); and the layer under loaders: zemem's loader (when built) and
 * the system's Level Zero loader (Debian's libze1), which loads layers by
 * fixed names only: a directory holding a symlink named
 * libze_validation_layer.so.1 to zemem's layer, first in LD_LIBRARY_PATH,
 * makes it load zemem's layer instead of its own.
 *
 * IPC and VMM workloads are in test_val_ipc.c and test_val_vmm.c.
 */
#include "check_run.h"
#include "val_chain.h"
#include "leakcheck.h"

#include <check.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define SYSTEM_LOADER "/usr/lib/x86_64-linux-gnu/libze_loader.so.1"

static struct vc c;

struct alloc {
	void *p;
	size_t size;
	ze_context_handle_t ctx;
};

static void
check_alloc(ze_context_handle_t ctx, void *p, size_t size, size_t align,
	    ze_memory_type_t want)
{
	ck_assert_ptr_nonnull(p);
	if (align)
		ck_assert_uint_eq((uintptr_t)p % align, 0);
	if (want != ZE_MEMORY_TYPE_DEVICE) {
		((volatile char *)p)[0] = 1;
		((volatile char *)p)[size - 1] = 2;
	}
	ze_memory_sub_allocations_exp_properties_t sub = {
		ZE_STRUCTURE_TYPE_MEMORY_SUB_ALLOCATIONS_EXP_PROPERTIES, NULL,
		NULL, NULL
	};
	uint32_t n = 0;
	sub.pCount = &n;
	ze_memory_allocation_properties_t props = {
		ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, &sub, 0, 0, 0
	};
	ze_device_handle_t dev = NULL;
	const char *mid = (const char *)p + size / 2;
	ck_assert_int_eq(c.api.zeMemGetAllocProperties(ctx, mid, &props, &dev),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(props.type, want);
	void *base = NULL;
	size_t got = 0;
	ck_assert_int_eq(c.api.zeMemGetAddressRange(ctx, mid, &base, &got),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(base, p);
	ck_assert_uint_ge(got, size);
}

static void
workload_usm(void)
{
	static const size_t sizes[] = { 1, 63, 4096, 100000, 2 << 20 };
	static const size_t aligns[] = { 0, 1, 8, 64, 4096, 65536 };
	static const uint32_t hflags[] = {
		0, ZE_HOST_MEM_ALLOC_FLAG_BIAS_CACHED,
		ZE_HOST_MEM_ALLOC_FLAG_BIAS_UNCACHED,
		ZE_HOST_MEM_ALLOC_FLAG_BIAS_WRITE_COMBINED,
		ZE_HOST_MEM_ALLOC_FLAG_BIAS_INITIAL_PLACEMENT,
		ZE_HOST_MEM_ALLOC_FLAG_MEM_READ_ONLY,
	};
	static const uint32_t dflags[] = {
		0, ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_CACHED,
		ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_UNCACHED,
		ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_INITIAL_PLACEMENT,
	};
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_context_handle_t ctx2 = NULL;
	ck_assert_int_eq(c.api.zeContextCreate(c.drv, &cd, &ctx2), 0);
	ze_relaxed_allocation_limits_exp_desc_t relaxed = {
		ZE_STRUCTURE_TYPE_RELAXED_ALLOCATION_LIMITS_EXP_DESC, NULL,
		ZE_RELAXED_ALLOCATION_LIMITS_EXP_FLAG_MAX_SIZE
	};
	ze_external_memory_export_desc_t exportable = {
		ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_DESC, NULL,
		ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD
	};
	size_t cap = 4096, n = 0, k = 0;
	struct alloc *all = calloc(cap, sizeof(*all));
	ck_assert_ptr_nonnull(all);
	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
	for (size_t ai = 0; ai < sizeof(aligns) / sizeof(aligns[0]); ai++, k++) {
		size_t size = sizes[si], align = aligns[ai];
		ze_context_handle_t ctx = k % 3 ? c.ctx : ctx2;
		ze_host_mem_alloc_desc_t h = {
			ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC,
			k % 5 == 0 ? (const void *)&relaxed
				   : k % 7 == 0 ? (const void *)&exportable
						: NULL,
			hflags[k % 6]
		};
		ze_device_mem_alloc_desc_t d = {
			ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
			k % 4 == 0 ? &relaxed : NULL, dflags[k % 4], 0
		};
		void *p[4] = { NULL, NULL, NULL, NULL };
		ck_assert_int_eq(c.api.zeMemAllocHost(ctx, &h, size, align,
						      &p[0]), 0);
		ck_assert_int_eq(c.api.zeMemAllocDevice(ctx, &d, size, align,
							c.dev, &p[1]), 0);
		ck_assert_int_eq(c.api.zeMemAllocShared(ctx, &d, &h, size,
							align, c.dev, &p[2]),
				 0);
		ck_assert_int_eq(c.api.zeMemAllocShared(ctx, &d, &h, size,
							align, NULL, &p[3]),
				 0);
		check_alloc(ctx, p[0], size, align, ZE_MEMORY_TYPE_HOST);
		check_alloc(ctx, p[1], size, align, ZE_MEMORY_TYPE_DEVICE);
		check_alloc(ctx, p[2], size, align, ZE_MEMORY_TYPE_SHARED);
		check_alloc(ctx, p[3], size, align, ZE_MEMORY_TYPE_SHARED);
		for (int i = 0; i < 4; i++) {
			ck_assert_uint_lt(n, cap);
			all[n++] = (struct alloc){ p[i], size, ctx };
		}
		/* Free about half right away, in an order unlike allocation,
		 * so the index sees inserts and removals everywhere. */
		if (k % 2) {
			struct alloc a = all[n - 3];
			all[n - 3] = all[n - 1];
			n--;
			ck_assert_int_eq(c.api.zeMemFree(a.ctx, a.p), 0);
		}
	}
	/* A pointer no allocation owns: UNKNOWN, not a finding. */
	int local;
	ze_memory_allocation_properties_t props = {
		ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, NULL, 0, 0, 0
	};
	ck_assert_int_eq(c.api.zeMemGetAllocProperties(c.ctx, &local, &props,
						       NULL), 0);
	ck_assert_int_eq(props.type, ZE_MEMORY_TYPE_UNKNOWN);
	ze_memory_free_ext_desc_t fd = {
		ZE_STRUCTURE_TYPE_MEMORY_FREE_EXT_DESC, NULL,
		ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE
	};
	for (size_t i = 0; i < n; i++) {
		size_t j = (i * 7919) % n;  /* walk a permutation-ish order */
		if (!all[j].p)
			j = i;
		if (!all[j].p)
			continue;
		if (c.api.zeMemFreeExt && i % 2)
			ck_assert_int_eq(c.api.zeMemFreeExt(all[j].ctx, &fd,
							    all[j].p), 0);
		else
			ck_assert_int_eq(c.api.zeMemFree(all[j].ctx, all[j].p),
					 0);
		all[j].p = NULL;
	}
	for (size_t i = 0; i < n; i++) {
		if (all[i].p)
			ck_assert_int_eq(c.api.zeMemFree(all[i].ctx, all[i].p),
					 0);
	}
	free(all);
	ck_assert_int_eq(c.api.zeContextDestroy(ctx2), 0);
}

START_TEST(test_workload_usm_clean)
{
	struct leakcheck lc;
	vt_setup(&c, "plk");
	/* The first round fills the driver's pools and caches; the second
	 * must leave no fd and no mapping behind. */
	workload_usm();
	leakcheck_begin(&lc);
	workload_usm();
	leakcheck_end(&lc);
	vt_assert_findings(0);
}
END_TEST

/* Threads allocating and freeing on one context at once: the driver may
 * hand an address one thread just freed to another, which the layer must
 * not mistake for overlapping allocations. */
static void *
churn(void *arg)
{
	(void)arg;
	const ze_host_mem_alloc_desc_t h = {
		ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0
	};
	void *p[16];
	for (int round = 0; round < 200; round++) {
		for (int i = 0; i < 16; i++)
			if (c.api.zeMemAllocHost(c.ctx, &h, 64 + 64 * i, 0,
						 &p[i]))
				return (void *)1;
		for (int i = 15; i >= 0; i--)
			if (c.api.zeMemFree(c.ctx, p[i]))
				return (void *)1;
	}
	return NULL;
}

START_TEST(test_workload_threads_clean)
{
	vt_setup(&c, "plk");
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, churn, NULL), 0);
	for (int i = 0; i < 4; i++) {
		void *ret = (void *)1;
		ck_assert_int_eq(pthread_join(t[i], &ret), 0);
		ck_assert_ptr_null(ret);
	}
	vt_assert_findings(0);
}
END_TEST

/* Threads freeing what other threads allocated, through the layer's
 * sharded hot paths (lifetime and leak checking on): no finding, every
 * pair balanced, and a double free afterwards still caught. */
enum { XT = 4, XN = 64, XROUNDS = 100 };
static void *xptr[XT][XN];
static pthread_barrier_t xbar;

static void *
cross(void *arg)
{
	int me = (int)(intptr_t)arg, other = (me + 1) % XT;
	const ze_host_mem_alloc_desc_t h = {
		ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0
	};
	const ze_device_mem_alloc_desc_t d = {
		ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0
	};
	void *bad = NULL;
	for (int round = 0; round < XROUNDS; round++) {
		for (int i = 0; i < XN; i++) {
			ze_result_t r = i % 2
				? c.api.zeMemAllocHost(c.ctx, &h, 64 + 32 * i, 0,
						       &xptr[me][i])
				: c.api.zeMemAllocDevice(c.ctx, &d, 128 * (i + 1),
							 0, c.dev, &xptr[me][i]);
			if (r)
				bad = (void *)1;
		}
		pthread_barrier_wait(&xbar);
		for (int i = 0; i < XN; i++)
			if (c.api.zeMemFree(c.ctx, xptr[other][i]))
				bad = (void *)1;
		pthread_barrier_wait(&xbar);
	}
	return bad;
}

START_TEST(test_workload_threads_cross_free)
{
	vt_setup(&c, "plk");
	pthread_t t[XT];
	ck_assert_int_eq(pthread_barrier_init(&xbar, NULL, XT), 0);
	for (int i = 0; i < XT; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, cross,
						(void *)(intptr_t)i), 0);
	for (int i = 0; i < XT; i++) {
		void *ret = (void *)1;
		ck_assert_int_eq(pthread_join(t[i], &ret), 0);
		ck_assert_ptr_null(ret);
	}
	pthread_barrier_destroy(&xbar);
	vt_assert_findings(0);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, xptr[0][XN - 1]),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("lifetime: zeMemFree(", "double free",
			  "released by zeMemFree", NULL);
	vt_assert_findings(1);
}
END_TEST

/* Runs val_child through a loader with env; returns its stdout. */
static char *
run_loader_child(const char *loader, const char *ld_path)
{
	const char *child = getenv("ZEMEM_TEST_VAL_CHILD");
	ck_assert_ptr_nonnull(child);
	char how[PATH_MAX + 8];
	snprintf(how, sizeof(how), "loader:%s", loader);
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		setenv("ZE_ENABLE_VALIDATION_LAYER", "1", 1);
		setenv("ZE_ENABLE_ALT_DRIVERS", vc_driver_path(), 1);
		if (ld_path)
			setenv("LD_LIBRARY_PATH", ld_path, 1);
		execl(child, child, how, "double-free", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	static char out[4096];
	size_t len = 0;
	ssize_t k;
	while ((k = read(fds[0], out + len, sizeof(out) - len - 1)) > 0)
		len += (size_t)k;
	out[len] = '\0';
	close(fds[0]);
	int st = 0;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st));
	if (WEXITSTATUS(st) == 77)
		return NULL;
	ck_assert_int_eq(WEXITSTATUS(st), 0);
	return out;
}

START_TEST(test_under_zemem_loader)
{
	const char *loader = vc_loader_path();
	if (!*loader || access(loader, R_OK)) {
		printf("SKIP test_under_zemem_loader: zemem's loader is not "
		       "built\n");
		return;
	}
	vt_switches("l");
	vt_log_begin();
	char *out = run_loader_child(loader, NULL);
	ck_assert_ptr_nonnull(out);
	ck_assert_ptr_nonnull(strstr(out, "second-free=0x78000004"));
	vt_assert_finding("lifetime: zeMemFree(", "double free",
			  "-> ZE_RESULT_ERROR_INVALID_ARGUMENT", NULL);
	vt_assert_findings(1);
}
END_TEST

START_TEST(test_under_system_loader)
{
	if (access(SYSTEM_LOADER, R_OK)) {
		printf("SKIP test_under_system_loader: no %s (libze1)\n",
		       SYSTEM_LOADER);
		return;
	}
	/* The system loader dlopens "libze_validation_layer.so.1" by name:
	 * put zemem's layer under that name first in the search path. */
	char dir[] = "/tmp/zemem-val-syslayer-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char link[sizeof(dir) + 64];
	snprintf(link, sizeof(link), "%s/libze_validation_layer.so.1", dir);
	ck_assert_int_eq(symlink(vc_layer_path(), link), 0);
	vt_switches("l");
	vt_log_begin();
	char *out = run_loader_child(SYSTEM_LOADER, dir);
	unlink(link);
	rmdir(dir);
	if (!out) {
		printf("SKIP test_under_system_loader: the system loader did "
		       "not take zemem's driver\n");
		return;
	}
	ck_assert_ptr_nonnull(strstr(out, "second-free=0x78000004"));
	vt_assert_finding("lifetime: zeMemFree(", "double free",
			  "-> ZE_RESULT_ERROR_INVALID_ARGUMENT", NULL);
	vt_assert_findings(1);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("validation-workload");
	TCase *t = tcase_create("workload");
	tcase_add_test(t, test_workload_usm_clean);
	tcase_add_test(t, test_workload_threads_clean);
	tcase_add_test(t, test_workload_threads_cross_free);
	suite_add_tcase(s, t);
	t = tcase_create("loaders");
	tcase_add_test(t, test_under_zemem_loader);
	tcase_add_test(t, test_under_system_loader);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	return check_run(suite(), CK_NORMAL, false);
}
