// SPDX-License-Identifier: MIT
/*
 * check_run: the end of every test program's main: run a check suite and
 * turn its failures into the exit status meson reads.
 */
#ifndef ZEMEM_CHECK_RUN_H
#define ZEMEM_CHECK_RUN_H

#include <check.h>
#include <stdbool.h>
#include <stdlib.h>

/* Runs every test of s (freed after) with check output mode out;
 * fork_each: each test in a process of its own even when CK_FORK=no asks
 * otherwise (for tests that change process-wide state once). */
static inline int
check_run(Suite *s, enum print_output out, bool fork_each)
{
	SRunner *sr = srunner_create(s);
	if (fork_each)
		srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, out);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
