// SPDX-License-Identifier: MIT
/*
 * lt: helpers of the loader tests (see lt.h).
 */
#include "lt.h"
#include "leakcheck.h"

#include <check.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int saved_fd = -1, cap_fd = -1;
static char cap_buf[1 << 16];

void
lt_leak_begin(struct leakcheck *lc)
{
#if TEST_ASAN || TEST_TSAN
	lc->nfd = leakcheck_count_fds();
	lc->maps = NULL;
#else
	leakcheck_begin(lc);
#endif
}

void
lt_leak_end(struct leakcheck *lc)
{
#if TEST_ASAN || TEST_TSAN
	ck_assert_int_eq(leakcheck_count_fds(), lc->nfd);
#else
	leakcheck_end(lc);
#endif
}

int
lt_skip_unless_required(void)
{
	const char *req = getenv("LT_REQUIRE");
	char *list = req ? strdup(req) : NULL;
	int skip = 0;
	for (char *save = NULL, *p = list ? strtok_r(list, ":", &save) : NULL;
	     p; p = strtok_r(NULL, ":", &save)) {
		if (access(p, F_OK)) {
			printf("skip: %s is not installed\n", p);
			skip = 1;
		}
	}
	free(list);
	return skip;
}

void
lt_env(const char *name, const char *value)
{
	if (value)
		ck_assert_int_eq(setenv(name, value, 1), 0);
	else
		ck_assert_int_eq(unsetenv(name), 0);
}

void
lt_capture_begin(void)
{
	fflush(stderr);
	cap_fd = memfd_create("lt-stderr", MFD_CLOEXEC);
	ck_assert_int_ge(cap_fd, 0);
	saved_fd = fcntl(2, F_DUPFD_CLOEXEC, 3);
	ck_assert_int_ge(saved_fd, 0);
	ck_assert_int_eq(dup2(cap_fd, 2), 2);
}

const char *
lt_capture_end(void)
{
	fflush(stderr);
	ck_assert_int_eq(dup2(saved_fd, 2), 2);
	close(saved_fd);
	ssize_t n = pread(cap_fd, cap_buf, sizeof(cap_buf) - 1, 0);
	close(cap_fd);
	cap_buf[n > 0 ? n : 0] = '\0';
	/* Show it too, for the test log. */
	fputs(cap_buf, stderr);
	return cap_buf;
}

int
lt_count_lines(const char *text, const char *needle)
{
	int n = 0;
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = strndup(p, len);
		if (line && strstr(line, needle))
			n++;
		free(line);
		p = nl ? nl + 1 : NULL;
	}
	return n;
}

const char *
lt_lib_of(const void *addr)
{
	Dl_info info;
	if (!dladdr(addr, &info) || !info.dli_fname)
		return "";
	return info.dli_fname;
}

const char *
lt_lib_base_of(const void *addr)
{
	const char *p = lt_lib_of(addr);
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

int
lt_loaded(const char *path)
{
	void *dl = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	if (!dl)
		return 0;
	dlclose(dl);
	return 1;
}
