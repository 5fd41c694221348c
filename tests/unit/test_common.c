// SPDX-License-Identifier: MIT
/*
 * test_common: the option table, the log-level parser and u_touch.
 */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_run.h"
#include "leakcheck.h"
#include "u_log.h"
#include "u_options.h"
#include "u_os.h"
#include "u_touch.h"

START_TEST(test_u_parse_size_bad)
{
	uint64_t v;
	ck_assert_int_eq(u_parse_size("", &v), -EINVAL);
	ck_assert_int_eq(u_parse_size("x1", &v), -EINVAL);
	ck_assert_int_eq(u_parse_size("12Q", &v), -EINVAL);
	ck_assert_int_eq(u_parse_size("-1", &v), -EINVAL);
	ck_assert_int_eq(u_parse_size("99999999999999T", &v), -ERANGE);
}
END_TEST

START_TEST(test_u_parse_size_suffixes)
{
	uint64_t v;
	ck_assert_int_eq(u_parse_size("4096", &v), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(u_parse_size("8k", &v), 0);
	ck_assert_uint_eq(v, 8192);
	ck_assert_int_eq(u_parse_size("3M", &v), 0);
	ck_assert_uint_eq(v, 3u << 20);
	ck_assert_int_eq(u_parse_size("2GiB", &v), 0);
	ck_assert_uint_eq(v, 2ull << 30);
	ck_assert_int_eq(u_parse_size("0x10", &v), 0);
	ck_assert_uint_eq(v, 16);
}
END_TEST

START_TEST(test_u_option_bad_value_keeps_default)
{
	setenv("ZEMEM_DEVICE_COUNT", "1000", 1);
	setenv("ZEMEM_DEVICE_MEMORY_SIZE", "lots", 1);
	u_options_reset_for_test();
	ck_assert_uint_eq(u_option_u64(U_OPT_DEVICE_COUNT), 1);
	ck_assert(!u_option(U_OPT_DEVICE_COUNT)->set);
	ck_assert_uint_gt(u_option_u64(U_OPT_DEVICE_MEMORY_SIZE), 0);
}
END_TEST

START_TEST(test_u_option_values)
{
	setenv("ZEMEM_DEVICE_COUNT", "4", 1);
	setenv("ZEMEM_DEVICE_MEMORY_SIZE", "64M", 1);
	unsetenv("ZEMEM_MAX_ALLOC_SIZE");
	u_options_reset_for_test();
	ck_assert_uint_eq(u_option_u64(U_OPT_DEVICE_COUNT), 4);
	ck_assert(u_option(U_OPT_DEVICE_COUNT)->set);
	ck_assert_uint_eq(u_option_u64(U_OPT_DEVICE_MEMORY_SIZE), 64u << 20);
	/* Default max alloc: min(4 GiB, budget). */
	ck_assert_uint_eq(u_option_u64(U_OPT_MAX_ALLOC_SIZE), 64u << 20);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	u_options_dump(f);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "ZEMEM_DEVICE_COUNT"));
	ck_assert_ptr_nonnull(strstr(buf, "from environment"));
	ck_assert_ptr_nonnull(strstr(buf, "64M"));
	free(buf);
}
END_TEST

/* The heap size: ZESHMEM_SYMMETRIC_SIZE, else the spec's
 * SHMEM_SYMMETRIC_SIZE, else rocSHMEM's ROCSHMEM_HEAP_SIZE. */
START_TEST(test_u_option_aliases)
{
	unsetenv("ZESHMEM_SYMMETRIC_SIZE");
	unsetenv("SHMEM_SYMMETRIC_SIZE");
	setenv("ROCSHMEM_HEAP_SIZE", "3M", 1);
	u_options_reset_for_test();
	ck_assert_uint_eq(u_option_u64(U_OPT_SH_SYMMETRIC_SIZE), 3u << 20);
	ck_assert(u_option(U_OPT_SH_SYMMETRIC_SIZE)->set);
	setenv("SHMEM_SYMMETRIC_SIZE", "5M", 1);
	u_options_reset_for_test();
	ck_assert_uint_eq(u_option_u64(U_OPT_SH_SYMMETRIC_SIZE), 5u << 20);
	setenv("ZESHMEM_SYMMETRIC_SIZE", "7M", 1);
	u_options_reset_for_test();
	ck_assert_uint_eq(u_option_u64(U_OPT_SH_SYMMETRIC_SIZE), 7u << 20);
	/* rocSHMEM's plain byte count; a bad one keeps the default */
	unsetenv("ZESHMEM_SYMMETRIC_SIZE");
	unsetenv("SHMEM_SYMMETRIC_SIZE");
	setenv("ROCSHMEM_HEAP_SIZE", "1048576", 1);
	u_options_reset_for_test();
	ck_assert_uint_eq(u_option_u64(U_OPT_SH_SYMMETRIC_SIZE), 1u << 20);
	setenv("ROCSHMEM_HEAP_SIZE", "huge", 1);
	u_options_reset_for_test();
	ck_assert(!u_option(U_OPT_SH_SYMMETRIC_SIZE)->set);
	ck_assert_uint_eq(u_option_u64(U_OPT_SH_SYMMETRIC_SIZE), 1u << 30);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	u_options_dump(f);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "(also read as SHMEM_SYMMETRIC_SIZE, "
				     "then ROCSHMEM_HEAP_SIZE)"));
	free(buf);
	unsetenv("ROCSHMEM_HEAP_SIZE");
	u_options_reset_for_test();
}
END_TEST

START_TEST(test_u_log_levels)
{
	ck_assert_int_eq(u_log_parse_level("nonsense"), -1);
	ck_assert_int_eq(u_log_parse_level("debug"), U_LOG_DEBUG);
	ck_assert_int_eq(u_log_parse_level("WARN"), U_LOG_WARN);
	ck_assert_str_eq(u_log_level_name(U_LOG_TRACE), "trace");
	setenv("ZEMEM_LOG_LEVEL", "error,ipc:trace", 1);
	ck_assert_int_eq(u_log_level("ipc"), U_LOG_TRACE);
	ck_assert_int_eq(u_log_level("usm"), U_LOG_ERROR);
	ck_assert(u_log_enabled(U_LOG_DEBUG, "ipc"));
	ck_assert(!u_log_enabled(U_LOG_WARN, "usm"));
}
END_TEST

START_TEST(test_u_log_topic_level)
{
	setenv("ZEMEM_LOG_LEVEL", "error,ipc:trace", 1);
	ck_assert_int_eq(u_log_topic_named("ipc"), 1);
	ck_assert_int_eq(u_log_topic_named("ip"), 0);
	ck_assert_int_eq(u_log_topic_named("wm"), 0);
	/* one topic set, the others as they were */
	ck_assert_int_eq(u_log_set_topic_level("wm", U_LOG_DEBUG), 0);
	ck_assert_int_eq(u_log_level("wm"), U_LOG_DEBUG);
	ck_assert(u_log_enabled(U_LOG_DEBUG, "wm"));
	ck_assert_int_eq(u_log_level("ipc"), U_LOG_TRACE);
	ck_assert_int_eq(u_log_level("usm"), U_LOG_ERROR);
	/* replaced, not added again */
	ck_assert_int_eq(u_log_set_topic_level("wm", U_LOG_NONE), 0);
	ck_assert(!u_log_enabled(U_LOG_ERROR, "wm"));
	ck_assert(u_log_enabled(U_LOG_ERROR, "usm"));
	ck_assert_int_eq(u_log_set_topic_level("wm", U_LOG_TRACE + 1), -1);
	ck_assert_int_eq(u_log_set_topic_level(NULL, U_LOG_INFO), -1);
	/* the table holds 16 topics: ipc, wm and 14 more */
	char name[8];
	for (int i = 0; i < 14; i++) {
		snprintf(name, sizeof(name), "t%d", i);
		ck_assert_int_eq(u_log_set_topic_level(name, U_LOG_INFO), 0);
	}
	ck_assert_int_eq(u_log_set_topic_level("full", U_LOG_INFO), -1);
	ck_assert_int_eq(u_log_set_topic_level("t3", U_LOG_WARN), 0);
	ck_assert_int_eq(u_log_level("t3"), U_LOG_WARN);
}
END_TEST

/* ---- u_touch ------------------------------------------------------------ */

/* three pages: read-write, read-only, none; and a file's page past its
 * end (SIGBUS) */
START_TEST(test_u_touch_answers)
{
	size_t pg = u_page_size();
	char *m = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(m, MAP_FAILED);
	m[10] = 42;
	ck_assert_int_eq(mprotect(m + pg, pg, PROT_READ), 0);
	ck_assert_int_eq(mprotect(m + 2 * pg, pg, PROT_NONE), 0);
	ck_assert_int_eq(u_touch(m, pg, 1), 0);
	ck_assert_int_eq(m[10], 42); /* the write probe keeps the value */
	ck_assert_int_eq(u_touch(m, 2 * pg, 0), 0);
	ck_assert_int_eq(u_touch(m + pg - 8, 16, 1), -EFAULT);
	ck_assert_int_eq(u_touch(m + pg, 8, 1), -EFAULT);
	ck_assert_int_eq(u_touch(m + 2 * pg - 8, 16, 0), -EFAULT);
	ck_assert_int_eq(u_touch(m + 2 * pg, 1, 0), -EFAULT);
	ck_assert_int_eq(u_touch((void *)8, 8, 0), -EFAULT);
	ck_assert_int_eq(u_touch(NULL, 0, 0), 0); /* nothing to touch */
	ck_assert_int_eq(u_touch((void *)(UINTPTR_MAX - 3), 8, 0),
			 -EOVERFLOW);
	/* the text of this program: readable, not writable */
	ck_assert_int_eq(u_touch((void *)&u_touch, 8, 0), 0);
	ck_assert_int_eq(u_touch((void *)&u_touch, 8, 1), -EFAULT);
	/* past a file's end: SIGBUS, not SIGSEGV */
	FILE *f = tmpfile();
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(ftruncate(fileno(f), 16), 0);
	char *fm = mmap(NULL, 2 * pg, PROT_READ, MAP_SHARED, fileno(f), 0);
	ck_assert_ptr_ne(fm, MAP_FAILED);
	ck_assert_int_eq(u_touch(fm, 16, 0), 0);
	ck_assert_int_eq(u_touch(fm + pg, 1, 0), -EFAULT);
	/* and after all of that, probes go on answering */
	ck_assert_int_eq(u_touch(m, 8, 1), 0);
	munmap(fm, 2 * pg);
	fclose(f);
	munmap(m, 3 * pg);
}
END_TEST

static void *
touch_thread(void *arg)
{
	char *m = arg;
	size_t pg = u_page_size();
	for (int i = 0; i < 2000; i++) {
		if (u_touch(m, pg, 1) != 0 || u_touch(m + pg, 8, 0) != -EFAULT)
			return (void *)1;
	}
	return NULL;
}

START_TEST(test_u_touch_threads)
{
	size_t pg = u_page_size();
	char *m = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(m, MAP_FAILED);
	ck_assert_int_eq(mprotect(m + pg, pg, PROT_NONE), 0);
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, touch_thread, m),
				 0);
	for (int i = 0; i < 4; i++) {
		void *r;
		ck_assert_int_eq(pthread_join(t[i], &r), 0);
		ck_assert_ptr_null(r);
	}
	munmap(m, 2 * pg);
}
END_TEST

static volatile sig_atomic_t prior_seen;

static void
prior_handler(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	if (sig == SIGSEGV)
		prior_seen++;
}

/* A signal outside a probe reaches the handler installed before ours;
 * with none, a real fault still ends the process by SIGSEGV. Each case
 * in a child of its own (the handler is process-wide). */
START_TEST(test_u_touch_chains)
{
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = prior_handler;
		sa.sa_flags = SA_SIGINFO;
		sigaction(SIGSEGV, &sa, NULL);
		if (u_touch((void *)8, 1, 0) != -EFAULT || prior_seen)
			_exit(2);
		raise(SIGSEGV); /* sent, not a fault: the prior handler */
		_exit(prior_seen == 1 ? 0 : 3);
	}
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct sigaction dfl;
		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		sigaction(SIGSEGV, &dfl, NULL);
		if (u_touch((void *)8, 1, 0) != -EFAULT)
			_exit(2);
		*(volatile char *)(uintptr_t)u_page_size() = 1; /* a fault */
		_exit(4);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFSIGNALED(st));
	ck_assert_int_eq(WTERMSIG(st), SIGSEGV);
}
END_TEST

static Suite *
common_suite(void)
{
	Suite *s = suite_create("common");
	TCase *tc = tcase_create("options");
	tcase_add_test(tc, test_u_parse_size_bad);
	tcase_add_test(tc, test_u_parse_size_suffixes);
	tcase_add_test(tc, test_u_option_bad_value_keeps_default);
	tcase_add_test(tc, test_u_option_values);
	tcase_add_test(tc, test_u_option_aliases);
	tcase_add_test(tc, test_u_log_levels);
	tcase_add_test(tc, test_u_log_topic_level);
	suite_add_tcase(s, tc);
	TCase *tt = tcase_create("touch");
	tcase_add_test(tt, test_u_touch_answers);
	tcase_add_test(tt, test_u_touch_threads);
	tcase_add_test(tt, test_u_touch_chains);
	suite_add_tcase(s, tt);
	return s;
}

int
main(void)
{
	return check_run(common_suite(), CK_NORMAL, false);
}
