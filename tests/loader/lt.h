// SPDX-License-Identifier: MIT
/*
 * lt: helpers of the loader tests. Every check test runs in its own forked
 * process (check's default), so a test sets the loader's environment
 * (ZE_ENABLE_ALT_DRIVERS, layers, log level) with lt_env() before its first
 * ze* call and gets a fresh loader.
 *
 * Vocabulary: "capture" = stderr redirected to a memfd so a test can assert
 * what the loader logged.
 */
#ifndef ZEMEM_LT_H
#define ZEMEM_LT_H

#include <stddef.h>

struct leakcheck;
/* leakcheck_begin / leakcheck_end, except under AddressSanitizer or
 * ThreadSanitizer, whose runtimes map memory of their own as a test goes:
 * there only fds are compared (library mappings are checked with
 * lt_loaded). */
void lt_leak_begin(struct leakcheck *lc);
void lt_leak_end(struct leakcheck *lc);
/* When $LT_REQUIRE (paths separated by ':') names a file that does not
 * exist, prints why and returns 1: the test exits 77 (skipped). */
int lt_skip_unless_required(void);
/* setenv(name, value) or unsetenv(name) when value is NULL. */
void lt_env(const char *name, const char *value);
/* Redirects stderr to a memfd until lt_capture_end, which returns what
 * was written (static buffer, NUL-terminated). */
void lt_capture_begin(void);
const char *lt_capture_end(void);
/* Number of lines of text that contain needle. */
int lt_count_lines(const char *text, const char *needle);
/* Path of the library that contains addr ("" when none). */
const char *lt_lib_of(const void *addr);
/* Basename of lt_lib_of(addr). */
const char *lt_lib_base_of(const void *addr);
/* Is the library at path loaded in this process? */
int lt_loaded(const char *path);

#endif
