// SPDX-License-Identifier: MIT
/*
 * test_shmem_coll: libzeshmem's collectives as programs see them. Every
 * test starts a job of coll_pe (one PE; it checks exact results itself)
 * with zeshrun -n N for N in 1, 2, 3, 5, 8 and checks the job's exit
 * status, each PE's "ok" line, and that no fd and no /dev/shm entry
 * survives the job; the cases again with ZESHMEM_COPY=engine on 3 PEs.
 * Argument "ofi": the same cases with every PE a node of
 * its own (ZESHMEM_FORCE_NETWORK=1, tcp;ofi_rxm) on 2 and 3 PEs.
 */
#include <check.h>

#include "check_run.h"
#include "job_capture.h"
#include "leakcheck.h"
#include "shm_entries.h"

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

static char out[OUT_MAX];
static bool ofi;
static const char *copy;  /* ZESHMEM_COPY for the next job, NULL: auto */

static const int sizes[] = { 1, 2, 3, 5, 8 };
static const int ofi_sizes[] = { 2, 3 };

/* zeshrun -n n coll_pe c; stdout and stderr land in out. The exit
 * status (128 + signal), or -1 when it ran past JOB_TIMEOUT_S. */
static int
job(int n, const char *c)
{
	char nb[16];
	snprintf(nb, sizeof(nb), "%d", n);
	char *argv[] = { (char *)ZESHRUN, "-n", nb, "--", (char *)COLL_PE,
			 (char *)c, NULL };
	static char copy_env[64];
	const char *env[8] = { "ZESHMEM_CHECK_SYMMETRY=1",
			       "ZESHMEM_SYMMETRIC_SIZE=8M",
			       "ZESHMEM_TIMEOUT=60" };
	int k = 3;
	if (copy) {
		snprintf(copy_env, sizeof(copy_env), "ZESHMEM_COPY=%s", copy);
		env[k++] = copy_env;
	}
	if (ofi) {
		env[k++] = "ZESHMEM_FORCE_NETWORK=1";
		env[k++] = "ZESHMEM_PROVIDER=tcp;ofi_rxm";
	}
	int shm = shm_entries_ours();
	int st = job_capture(argv, env, JOB_TIMEOUT_S, out, sizeof(out), NULL);
	ck_assert_int_ne(st, -2);
	ck_assert_msg(shm_entries_ours() == shm, "/dev/shm: %d entries, %d "
		      "before", shm_entries_ours(), shm);
	return st;
}

static void
ok_case(int i, const char *c)
{
	int n = ofi ? ofi_sizes[i] : sizes[i];
	struct leakcheck lc;
	leakcheck_begin(&lc);
	int st = job(n, c);
	ck_assert_msg(st == 0, "%s on %d PEs: status %d:\n%s", c, n, st, out);
	for (int pe = 0; pe < n; pe++) {
		char line[128];
		snprintf(line, sizeof(line), "PE %d: %s ok", pe, c);
		ck_assert_msg(strstr(out, line), "no '%s' in:\n%s", line, out);
	}
	leakcheck_end(&lc);
}

START_TEST(test_coll_broadcast_every_type_and_team)
{
	ok_case(_i, "bcast");
}
END_TEST

START_TEST(test_coll_collect_fcollect_every_type_and_team)
{
	ok_case(_i, "collect");
}
END_TEST

START_TEST(test_coll_alltoall_alltoalls_every_team)
{
	ok_case(_i, "alltoall");
}
END_TEST

START_TEST(test_coll_reduce_every_op_type_and_team)
{
	ok_case(_i, "reduce");
}
END_TEST

START_TEST(test_coll_active_set_forms_leave_psync)
{
	ok_case(_i, "old");
}
END_TEST

START_TEST(test_coll_bad_input_returns_nonzero)
{
	ok_case(_i, "bad");
}
END_TEST

/* A void 1.4 form with PE_root outside the active set: the job ends with
 * status 1 and the line of the first PE that got there (zeshrun ends the
 * others then, so which PE prints is a race). */
START_TEST(test_coll_old_bad_root_ends_pe)
{
	int st = job(3, "badroot");
	ck_assert_msg(st == 1, "status %d:\n%s", st, out);
	const char *what = ": shmem_broadcast64: invalid argument "
			   "(PE_root out of range, a stride < 1, or dest and "
			   "source overlap without being the same)\n";
	int found = 0;
	for (int pe = 0; pe < 3; pe++) {
		char line[256];
		snprintf(line, sizeof(line), "zeshmem: PE %d%s", pe, what);
		found += strstr(out, line) != NULL;
	}
	ck_assert_msg(found >= 1, "no 'zeshmem: PE <n>%s' in:\n%s", what, out);
}
END_TEST

/* Every case again with the copies through the copy engine (reductions
 * read the peers' sources through a bounce buffer then), 3 PEs. */
static const char *const cases[] = { "bcast", "collect", "alltoall",
				     "reduce", "old" };

START_TEST(test_coll_copy_engine)
{
	copy = "engine";
	struct leakcheck lc;
	leakcheck_begin(&lc);
	int st = job(3, cases[_i]);
	copy = NULL;
	ck_assert_msg(st == 0, "%s (engine): status %d:\n%s", cases[_i], st,
		      out);
	for (int pe = 0; pe < 3; pe++) {
		char line[128];
		snprintf(line, sizeof(line), "PE %d: %s ok", pe, cases[_i]);
		ck_assert_msg(strstr(out, line), "no '%s' in:\n%s", line, out);
	}
	leakcheck_end(&lc);
}
END_TEST

/* A PE not in the active set it names: one line, exit 1. */
START_TEST(test_coll_pe_outside_active_set_ends_pe)
{
	int st = job(3, "badset");
	ck_assert_msg(st == 1, "status %d:\n%s", st, out);
	const char *line = "zeshmem: PE 0: shmem_barrier: this PE is not in "
			   "the active set (PE_start 1, logPE_stride 0, "
			   "PE_size 2)\n";
	ck_assert_msg(strstr(out, line), "no '%s' in:\n%s", line, out);
}
END_TEST

static Suite *
coll_suite(void)
{
	Suite *s = suite_create(ofi ? "shmem-coll-ofi" : "shmem-coll");
	TCase *tc = tcase_create("coll");
	int loops = ofi ? 2 : 5;
	tcase_set_timeout(tc, JOB_TIMEOUT_S + 30);
	tcase_add_loop_test(tc, test_coll_broadcast_every_type_and_team, 0,
			    loops);
	tcase_add_loop_test(tc, test_coll_collect_fcollect_every_type_and_team,
			    0, loops);
	tcase_add_loop_test(tc, test_coll_alltoall_alltoalls_every_team, 0,
			    loops);
	tcase_add_loop_test(tc, test_coll_reduce_every_op_type_and_team, 0,
			    loops);
	tcase_add_loop_test(tc, test_coll_active_set_forms_leave_psync, 0,
			    loops);
	if (!ofi) {
		tcase_add_loop_test(tc, test_coll_bad_input_returns_nonzero, 0,
				    loops);
		tcase_add_test(tc, test_coll_pe_outside_active_set_ends_pe);
		tcase_add_test(tc, test_coll_old_bad_root_ends_pe);
		tcase_add_loop_test(tc, test_coll_copy_engine, 0,
				    (int)(sizeof(cases) / sizeof(cases[0])));
	}
	suite_add_tcase(s, tc);
	return s;
}

int
main(int argc, char **argv)
{
	ofi = argc > 1 && !strcmp(argv[1], "ofi");
	return check_run(coll_suite(), CK_NORMAL, false);
}
