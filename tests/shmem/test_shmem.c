// SPDX-License-Identifier: MIT
/*
 * test_shmem: libzeshmem's OpenSHMEM API, as programs see it. Every test
 * starts a job of shmem_pe (one PE of a test job; it checks exact results
 * itself) with zeshrun -n N, or with mpirun -np N (argument "mpirun": that
 * suite alone, exit 77 with the reason when mpirun or PMIx is missing), and
 * checks the job's exit status, each PE's "ok" line or the one-line error
 * of a bad call, and that no fd and no /dev/shm entry survives the job.
 *
 * Jobs run on 2, 3 and 8 PEs, with ZESHMEM_COPY=direct and =engine, with
 * ZESHMEM_CHECK_SYMMETRY=1 and an 8 MiB initial heap (so growth is tested).
 */
#include <check.h>

#include "shm_entries.h"
#include "check_run.h"
#include "job_capture.h"
#include "leakcheck.h"
#include "mpirun_crash.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define JOB_TIMEOUT_S 240
#define OUT_MAX (256 * 1024)

static const char *mpirun;
static char out[OUT_MAX];
static pid_t last_pid;   /* of the last run */

static const int sizes[] = { 2, 3, 8 };
static const char *const copies[] = { "direct", "engine" };

/* Runs argv with copy as ZESHMEM_COPY (NULL: the default); its stdout and
 * stderr together land in out. Returns the exit status (128+signal), or
 * -1 when it ran past JOB_TIMEOUT_S (then killed). */
static int
run(char *const argv[], const char *copy)
{
	static char copy_env[64];
	const char *env[] = { "ZESHMEM_CHECK_SYMMETRY=1",
			      "ZESHMEM_SYMMETRIC_SIZE=8M",
			      "ZESHMEM_TIMEOUT=30", "OMPI_MCA_osc=^rdma",
			      NULL, NULL };
	if (copy) {
		snprintf(copy_env, sizeof(copy_env), "ZESHMEM_COPY=%s", copy);
		env[4] = copy_env;
	}
	int st = job_capture(argv, env, JOB_TIMEOUT_S, out, sizeof(out),
			     &last_pid);
	ck_assert_int_ne(st, -2);
	return st;
}

/* zeshrun -n n shmem_pe args... (or mpirun -np n when mpirun is set). */
static int
job(int n, const char *copy, const char *c, const char *arg,
    const char *arg2)
{
	char nb[16];
	snprintf(nb, sizeof(nb), "%d", n);
	char *argv[32];
	int k = 0;
	if (mpirun) {
		const char *pre[] = { mpirun, "--allow-run-as-root",
				      "--bind-to", "none", "--oversubscribe",
				      "-np", nb, "--mca", "oob_tcp_if_include",
				      "lo", "--mca", "btl_tcp_if_include",
				      "lo" };
		static char perturb[64];
		static const char *mp;
		for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
			argv[k++] = (char *)pre[i];
		/* mpirun_crash.h: MALLOC_PERTURB_ for the PEs only */
		if (!mp)
			mp = mpirun_take_perturb(perturb, sizeof(perturb));
		if (mp) {
			argv[k++] = "-x";
			argv[k++] = perturb;
		}
	} else {
		argv[k++] = (char *)ZESHRUN;
		argv[k++] = "-n";
		argv[k++] = nb;
		argv[k++] = "--";
	}
	argv[k++] = (char *)SHMEM_PE;
	argv[k++] = (char *)c;
	if (arg)
		argv[k++] = (char *)arg;
	if (arg2)
		argv[k++] = (char *)arg2;
	argv[k] = NULL;
	int shm = shm_entries_ours();
	int st = run(argv, copy);
	/* mpirun's own crash (mpirun_crash.h): the job again */
	for (int t = 1; mpirun && t < MPIRUN_TRIES &&
			mpirun_crashed(st, last_pid, out); t++) {
		mpirun_crash_note(last_pid, st, t, out);
		st = run(argv, copy);
	}
	ck_assert_msg(shm_entries_ours() == shm, "/dev/shm: %d entries, %d before",
		      shm_entries_ours(), shm);
	return st;
}

static void
expect_ok(int n, const char *c)
{
	for (int pe = 0; pe < n; pe++) {
		char line[128];
		snprintf(line, sizeof(line), "PE %d: %s ok", pe, c);
		ck_assert_msg(strstr(out, line), "no '%s' in:\n%s", line, out);
	}
}

/* A case on loop index i: sizes[i / 2] PEs, copies[i % 2] (mpirun:
 * sizes[i], the default copy). */
static void
ok_case(int i, const char *c, const char *arg)
{
	int n = mpirun ? sizes[i] : sizes[i / 2];
	const char *copy = mpirun ? NULL : copies[i % 2];
	struct leakcheck lc;
	leakcheck_begin(&lc);
	int st = job(n, copy, c, arg, NULL);
	ck_assert_msg(st == 0, "%s on %d PEs (copy %s): status %d:\n%s", c, n,
		      copy ? copy : "default", st, out);
	expect_ok(n, c);
	leakcheck_end(&lc);
}

START_TEST(test_shmem_hello)
{
	ok_case(_i, "hello", NULL);
}
END_TEST

START_TEST(test_shmem_thread)
{
	ok_case(_i, "thread", NULL);
}
END_TEST

START_TEST(test_shmem_rma_every_type)
{
	ok_case(_i, "rma", NULL);
}
END_TEST

START_TEST(test_shmem_amo_every_type_and_totals)
{
	ok_case(_i, "amo", _i >= 2 ? "100" : "300");
}
END_TEST

START_TEST(test_shmem_put_signal_ordering)
{
	ok_case(_i, "signal", _i >= 2 ? "60" : "200");
}
END_TEST

START_TEST(test_shmem_wait_from_other_pe)
{
	ok_case(_i, "wait", NULL);
}
END_TEST

START_TEST(test_shmem_teams_spec_examples)
{
	ok_case(_i, "teams", NULL);
}
END_TEST

START_TEST(test_shmem_dead_team_refused)
{
	/* 2 and 3 PEs: destroyed and forged team handles get the error
	 * results, one warning each, no crash */
	int n = 2 + _i % 2;
	struct leakcheck lc;
	leakcheck_begin(&lc);
	int st = job(n, "direct", "deadteam", NULL, NULL);
	ck_assert_msg(st == 0, "status %d:\n%s", st, out);
	expect_ok(n, "deadteam");
	ck_assert_msg(strstr(out, "shmem_team_n_pes: team 0x"), "%s", out);
	ck_assert_msg(strstr(out, "is not a team (destroyed, or never made "
			     "by a split)"), "%s", out);
	leakcheck_end(&lc);
}
END_TEST

START_TEST(test_shmem_mem_collective)
{
	ok_case(_i, "mem", NULL);
}
END_TEST

START_TEST(test_shmem_ptr_info)
{
	ok_case(_i, "ptr", NULL);
}
END_TEST

START_TEST(test_shmem_init_finalize_cycles)
{
	int n = sizes[_i / 2];
	int st = job(n, copies[_i % 2], "cycles", "4", NULL);
	ck_assert_msg(st == 0, "status %d:\n%s", st, out);
	expect_ok(n, "cycles");
}
END_TEST

START_TEST(test_shmem_global_exit_status)
{
	int n = sizes[_i / 2];
	int st = job(n, copies[_i % 2], "global_exit", "7", NULL);
	ck_assert_msg(st == 7, "status %d:\n%s", st, out);
	ck_assert_msg(!strstr(out, "woke up"), "%s", out);
}
END_TEST

/* Bad input of PE 0 on a 3-PE job: exit 1 and exactly one line from the
 * library naming the call and the argument. */
static const struct {
	const char *what, *line;
} bad[] = {
	{ "pe", "zeshmem: PE 0: shmem_long_p: pe 3 out of range (the job's "
		"PEs are 0..2)\n" },
	{ "negpe", "zeshmem: PE 0: shmem_long_put: pe -1 out of range (the "
		   "job's PEs are 0..2)\n" },
	{ "addr", "zeshmem: PE 0: shmem_long_put: dest 0x" },
	{ "getaddr", "zeshmem: PE 0: shmem_long_get: source 0x" },
	{ "range", "zeshmem: PE 0: shmem_long_put: nelems 4611686018427387903 "
		   "of 8 bytes overflows size_t\n" },
	{ "align", "zeshmem: PE 0: shmem_long_atomic_add: dest 0x" },
	{ "null", "zeshmem: PE 0: shmem_long_put: source is NULL\n" },
	{ "amonull", "zeshmem: PE 0: shmem_long_atomic_add: dest is NULL\n" },
	{ "ctrl", "zeshmem: PE 0: shmem_long_put: dest 0x" },
	{ "ctx", "zeshmem: PE 0: shmem_ctx_long_put: ctx is "
		 "SHMEM_CTX_INVALID\n" },
	{ "cmp", "zeshmem: PE 0: shmem_long_wait_until: cmp 99 is not a "
		 "SHMEM_CMP_* value\n" },
	{ "sigop", "zeshmem: PE 0: shmem_long_put_signal: sig_op 5 is neither "
		   "SHMEM_SIGNAL_SET nor SHMEM_SIGNAL_ADD\n" },
	/* a wait on memory no PE can write: put's refusal, not a hang */
	{ "waitaddr", "zeshmem: PE 0: shmem_long_wait_until: ivar 0x" },
	{ "testaddr", "zeshmem: PE 0: shmem_long_test: ivar 0x" },
	{ "waitalladdr", "zeshmem: PE 0: shmem_long_wait_until_all: ivars 0x" },
	{ "sigwaitaddr", "zeshmem: PE 0: shmem_signal_wait_until: ivar 0x" },
	{ "mallocwait", "zeshmem: PE 0: shmem_long_wait_until: ivar 0x" },
	/* a team destroyed twice */
	{ "teamdestroy", "zeshmem: PE 0: shmem_team_destroy: team 0x" },
};

START_TEST(test_shmem_bad_input_ends_pe)
{
	int st = job(3, "direct", "bad", bad[_i].what, NULL);
	ck_assert_msg(st == 1, "%s: status %d:\n%s", bad[_i].what, st, out);
	const char *l = strstr(out, bad[_i].line);
	ck_assert_msg(l, "%s: no '%s' in:\n%s", bad[_i].what, bad[_i].line,
		      out);
	ck_assert_msg(!strstr(out, "was accepted"), "%s", out);
	/* one line from the library for the bad call */
	ck_assert_msg(!strstr(l + 1, "zeshmem: PE 0:"), "two lines:\n%s", out);
	if (!strcmp(bad[_i].what, "addr") || !strcmp(bad[_i].what, "getaddr") ||
	    !strcmp(bad[_i].what, "ctrl"))
		ck_assert_msg(strstr(l, "is not a symmetric address (pe 2)"),
			      "%s", out);
	if (strstr(bad[_i].what, "wait") || !strcmp(bad[_i].what, "testaddr"))
		ck_assert_msg(strstr(l, "is not a symmetric address (pe 0): "
				     "not in the symmetric heap or the "
				     "program's static data\n"), "%s", out);
	if (!strcmp(bad[_i].what, "teamdestroy"))
		ck_assert_msg(strstr(l, "is not a team (destroyed already, or "
				     "never made by a split)\n"), "%s", out);
	if (!strcmp(bad[_i].what, "align"))
		ck_assert_msg(strstr(l, "is not 8-byte aligned"), "%s", out);
}
END_TEST

START_TEST(test_shmem_call_before_init_ends_pe)
{
	int st = job(1, "direct", "bad", "noinit", NULL);
	ck_assert_msg(st == 1, "status %d:\n%s", st, out);
	ck_assert_msg(strstr(out, "shmem_long_p: not initialized"), "%s", out);
}
END_TEST

START_TEST(test_shmem_uniqueid_init_attr)
{
	char *argv[] = { (char *)SHMEM_PE, "uid", "3", NULL };
	struct leakcheck lc;
	leakcheck_begin(&lc);
	int st = run(argv, "direct");
	ck_assert_msg(st == 0, "status %d:\n%s", st, out);
	ck_assert_msg(strstr(out, "PE 0: uid ok"), "%s", out);
	leakcheck_end(&lc);
}
END_TEST

/* The last PE of a unique-id job (no launcher to end the others) is killed:
 * the others' next barrier ends them with one line naming it, exit 1. */
START_TEST(test_shmem_killed_pe_ends_barrier)
{
	char *argv[] = { (char *)SHMEM_PE, "uid", "3", "kill", NULL };
	int st = run(argv, "direct");
	ck_assert_msg(st == 1, "status %d:\n%s", st, out);
	ck_assert_msg(strstr(out, "zeshmem: PE 0: shmem_barrier_all: PE 2 "
			     "ended\n"), "%s", out);
	ck_assert_msg(!strstr(out, "barrier passed"), "%s", out);
}
END_TEST

static Suite *
shmem_suite(void)
{
	Suite *s = suite_create(mpirun ? "shmem-api-mpirun" : "shmem-api");
	TCase *tc = tcase_create("api");
	int loops = mpirun ? 3 : 6;
	tcase_set_timeout(tc, JOB_TIMEOUT_S + 30);
	tcase_add_loop_test(tc, test_shmem_hello, 0, loops);
	tcase_add_loop_test(tc, test_shmem_rma_every_type, 0, loops);
	tcase_add_loop_test(tc, test_shmem_amo_every_type_and_totals, 0,
			    loops);
	tcase_add_loop_test(tc, test_shmem_put_signal_ordering, 0, loops);
	tcase_add_loop_test(tc, test_shmem_wait_from_other_pe, 0, loops);
	tcase_add_loop_test(tc, test_shmem_teams_spec_examples, 0, loops);
	tcase_add_loop_test(tc, test_shmem_dead_team_refused, 0, 2);
	/* Under mpirun too: PMIx stays up from the first init to exit. */
	tcase_add_loop_test(tc, test_shmem_init_finalize_cycles, 0, loops);
	if (!mpirun) {
		tcase_add_loop_test(tc, test_shmem_thread, 0, 2);
		tcase_add_loop_test(tc, test_shmem_mem_collective, 0, loops);
		tcase_add_loop_test(tc, test_shmem_ptr_info, 0, loops);
		tcase_add_loop_test(tc, test_shmem_global_exit_status, 0,
				    loops);
		tcase_add_loop_test(tc, test_shmem_bad_input_ends_pe, 0,
				    (int)(sizeof(bad) / sizeof(bad[0])));
		tcase_add_test(tc, test_shmem_call_before_init_ends_pe);
		tcase_add_test(tc, test_shmem_uniqueid_init_attr);
		tcase_add_test(tc, test_shmem_killed_pe_ends_barrier);
	}
	suite_add_tcase(s, tc);
	return s;
}

int
main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "mpirun")) {
		mpirun = mpirun_or_skip();
		if (!mpirun)
			return 77;
	}
	return check_run(shmem_suite(), CK_NORMAL, false);
}
