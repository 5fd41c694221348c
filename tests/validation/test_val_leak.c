// SPDX-License-Identifier: MIT
/*
 * test_val_leak: the leak report of the validation layer
 * (ZEL_ENABLE_BASIC_LEAK_CHECKER=1): the create/destroy table and the list
 * of live objects at zeContextDestroy, and at process exit (val_child run
 * as a separate process, its stderr captured); quiet when the program is
 * clean or the checker is off.
 */
#include "check_run.h"
#include "val_chain.h"

#include <check.h>
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

/* Runs val_child with how and scenario; returns its stdout and stderr
 * (malloc'ed) and its exit status in *status. */
static char *
run_child(const char *how, const char *scenario, int *status)
{
	const char *child = getenv("ZEMEM_TEST_VAL_CHILD");
	ck_assert_ptr_nonnull(child);
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		unsetenv("ZEMEM_VALIDATION_LOG");  /* findings to stderr */
		execl(child, child, how, scenario, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	size_t cap = 1 << 16, len = 0;
	char *out = malloc(cap);
	ck_assert_ptr_nonnull(out);
	ssize_t k;
	while ((k = read(fds[0], out + len, cap - len - 1)) > 0) {
		len += (size_t)k;
		if (cap - len < 4096) {
			cap *= 2;
			out = realloc(out, cap);
			ck_assert_ptr_nonnull(out);
		}
	}
	close(fds[0]);
	out[len] = '\0';
	ck_assert_int_eq(waitpid(pid, status, 0), pid);
	return out;
}

static void
assert_has(const char *text, const char *needle)
{
	if (!strstr(text, needle))
		fprintf(stderr, "--- output ---\n%s--- end ---\n", text);
	ck_assert_msg(strstr(text, needle), "missing: %s", needle);
}

START_TEST(test_leak_at_context_destroy)
{
	vt_setup(&c, "k");
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_context_handle_t ctx = NULL;
	ck_assert_int_eq(c.api.zeContextCreate(c.drv, &cd, &ctx), 0);
	void *h[3], *d = NULL;
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(c.api.zeMemAllocHost(ctx, &hd, 64 << i, 0,
						      &h[i]), 0);
	ck_assert_int_eq(c.api.zeMemAllocDevice(ctx, &dd, 4096, 0, c.dev, &d),
			 0);
	ck_assert_int_eq(c.api.zeMemFree(ctx, h[0]), 0);
	ck_assert_int_eq(c.api.zeMemFree(ctx, h[2]), 0);
	/* Allocations of the other context are not this one's leaks. */
	void *mine = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, &hd, 64, 0, &mine), 0);
	ck_assert_int_eq(c.api.zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
	char *log = vt_log_read();
	char when[128];
	snprintf(when, sizeof(when), "at zeContextDestroy(hContext=%p)",
		 (void *)ctx);
	assert_has(log, "Check balance of create/destroy calls");
	assert_has(log, when);
	assert_has(log, "              zeMemAllocDevice = 1     |\n"
			"                zeMemAllocHost = 3     |\n"
			"              zeMemAllocShared = 0     \\--->"
			"                     zeMemFree = 2    \n"
			"                                       \\--->"
			"                  zeMemFreeExt = 0     ---> LEAK = 2\n");
	/* The per-context table has the memory rows only. */
	ck_assert_ptr_null(strstr(log, "zeCommandQueueCreate"));
	free(log);
	vt_assert_finding("leak: zeContextDestroy(hContext=",
			  "context destroyed with a live host allocation",
			  "(128 bytes, #2", "allocated by zeMemAllocHost",
			  NULL);
	vt_assert_finding("context destroyed with a live device allocation",
			  "(4096 bytes", NULL);
	vt_assert_findings(2);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, mine), 0);
}
END_TEST

/* A context that this thread's calls made hot (val_hot: no lookup, its
 * counts in the thread's slot), destroyed and then created again: the
 * use after destroy is caught on the hot path, and a context the driver
 * hands out at the same address starts a new life with counts of its
 * own. */
START_TEST(test_leak_hot_context_new_life)
{
	vt_setup(&c, "plk");
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_context_handle_t ctx = NULL, again = NULL;
	ck_assert_int_eq(c.api.zeContextCreate(c.drv, &cd, &ctx), 0);
	for (int i = 0; i < 3; i++) {
		void *p = NULL;
		ck_assert_int_eq(c.api.zeMemAllocHost(ctx, &hd, 64, 0, &p), 0);
		ck_assert_int_eq(c.api.zeMemFree(ctx, p), 0);
	}
	ck_assert_int_eq(c.api.zeContextDestroy(ctx), 0);
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(ctx, &hd, 64, 0, &p),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_ptr_null(p);
	vt_assert_finding("lifetime: zeMemAllocHost(",
			  "use of destroyed context hContext",
			  "destroyed by zeContextDestroy",
			  "-> ZE_RESULT_ERROR_INVALID_NULL_HANDLE", NULL);
	vt_assert_findings(1);
	free(vt_log_read());

	/* zemem's driver hands its 1024 context slots out in turn: create until
	 * it gives ctx's again (contexts that are not are destroyed). */
	for (int i = 0; i < 1100 && again != ctx; i++) {
		if (again)
			ck_assert_int_eq(c.api.zeContextDestroy(again), 0);
		ck_assert_int_eq(c.api.zeContextCreate(c.drv, &cd, &again), 0);
	}
	ck_assert_ptr_eq(again, ctx);
	free(vt_log_read());
	void *h = NULL, *d = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(again, &hd, 64, 0, &h), 0);
	ck_assert_int_eq(c.api.zeMemAllocDevice(again, &dd, 4096, 0, c.dev,
						&d), 0);
	ck_assert_int_eq(c.api.zeMemFree(again, h), 0);
	ck_assert_int_eq(c.api.zeContextDestroy(again), 0);
	char *log = vt_log_read();
	assert_has(log, "              zeMemAllocDevice = 1     |\n"
			"                zeMemAllocHost = 1     |\n"
			"              zeMemAllocShared = 0     \\--->"
			"                     zeMemFree = 1    \n"
			"                                       \\--->"
			"                  zeMemFreeExt = 0     ---> LEAK = 1\n");
	free(log);
	vt_assert_finding("leak: zeContextDestroy(hContext=",
			  "context destroyed with a live device allocation",
			  "(4096 bytes", NULL);
	vt_assert_findings(2);
}
END_TEST

START_TEST(test_leak_quiet_context_destroy)
{
	vt_setup(&c, "k");
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, &hd, 64, 0, &p), 0);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), 0);
	ck_assert_int_eq(c.api.zeContextDestroy(c.ctx), 0);
	char *log = vt_log_read();
	ck_assert_str_eq(log, "");
	free(log);
}
END_TEST

START_TEST(test_leak_at_exit)
{
	int st;
	vt_switches("kb");
	char *out = run_child("chain", "leak", &st);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);
	assert_has(out, "Check balance of create/destroy calls (zemem "
			"validation layer, at exit)\n"
			"----------------------------------------------------"
			"------\n");
	assert_has(out, "               zeContextCreate = 1     |\n"
			"             zeContextCreateEx = 0     \\--->"
			"              zeContextDestroy = 0     ---> LEAK = 1\n");
	assert_has(out, "                zeMemAllocHost = 3     |\n");
	assert_has(out, "zeMemFreeExt = 0     ---> LEAK = 1\n");
	assert_has(out, "          zeCommandQueueCreate = 0     \\--->"
			"         zeCommandQueueDestroy = 0    \n");
	assert_has(out, "] leak: at exit: live host allocation ");
	assert_has(out, "(4096 bytes, #3, context ");
	assert_has(out, "alignment 64) allocated by zeMemAllocHost at ");
	assert_has(out, " val_child_leak_site+");
	ck_assert_int_eq(vt_count_findings(out), 1);
	free(out);
}
END_TEST

START_TEST(test_leak_at_exit_clean)
{
	int st;
	vt_switches("plk");
	char *out = run_child("chain", "clean", &st);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);
	assert_has(out, "Check balance of create/destroy calls");
	ck_assert_ptr_null(strstr(out, "LEAK"));
	ck_assert_int_eq(vt_count_findings(out), 0);
	free(out);
}
END_TEST

/* Counter-based events (1.15) pass through the layer; the event row of
 * the table counts their create with zeEventCreate's. */
START_TEST(test_leak_counter_based_events)
{
	int st;
	vt_switches("plk");
	char *out = run_child("chain", "counter-based", &st);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fprintf(stderr, "--- output ---\n%s--- end ---\n", out);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);
	assert_has(out, "host-signal=0x78000003\n");
	assert_has(out, "                 zeEventCreate = 0     |\n"
			"     zeEventCounterBasedCreate = 1     |\n");
	assert_has(out, "                zeEventDestroy = 1    ");
	ck_assert_ptr_null(strstr(out, "LEAK"));
	ck_assert_int_eq(vt_count_findings(out), 0);
	free(out);
}
END_TEST

START_TEST(test_leak_checker_off)
{
	int st;
	vt_switches("pl");
	char *out = run_child("chain", "leak", &st);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);
	ck_assert_ptr_null(strstr(out, "Check balance"));
	ck_assert_int_eq(vt_count_findings(out), 0);
	free(out);
}
END_TEST

static Suite *
suite(void)
{
	Suite *s = suite_create("validation-leak");
	TCase *t = tcase_create("leak");
	tcase_add_test(t, test_leak_at_context_destroy);
	tcase_add_test(t, test_leak_hot_context_new_life);
	tcase_add_test(t, test_leak_quiet_context_destroy);
	tcase_add_test(t, test_leak_at_exit);
	tcase_add_test(t, test_leak_at_exit_clean);
	tcase_add_test(t, test_leak_checker_off);
	tcase_add_test(t, test_leak_counter_based_events);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	return check_run(suite(), CK_NORMAL, false);
}
