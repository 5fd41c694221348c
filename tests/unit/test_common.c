// SPDX-License-Identifier: MIT
/*
 * test_common: the option table and the log-level parser.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "leakcheck.h"
#include "u_log.h"
#include "u_options.h"

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
	return s;
}

int
main(void)
{
	return check_run(common_suite(), CK_NORMAL, false);
}
