// SPDX-License-Identifier: MIT
/*
 * core_expect.h: the checks of the PE programs that test the runtime's
 * core through its internal calls (test_sh_core's PEs, sh_proxy_pe,
 * static_core_pe). FAIL(fmt, ...) prints "PE <sh.me>: <where>: <message>"
 * on stderr and exits 2; EXPECT(c) and EXPECT_EQ(a, b) fail with the
 * expression (and both values). <where> is "<function>:<line>", or what
 * the including file defines as CORE_EXPECT_WHERE() (it prints it). The
 * including file includes sh.h first.
 */
#ifndef ZEMEM_CORE_EXPECT_H
#define ZEMEM_CORE_EXPECT_H

#include <stdio.h>
#include <stdlib.h>

#ifndef CORE_EXPECT_WHERE
#define CORE_EXPECT_WHERE() \
	fprintf(stderr, "PE %d: %s:%d: ", sh.me, __func__, __LINE__)
#endif

#define FAIL(...)                                                            \
	do {                                                                 \
		CORE_EXPECT_WHERE();                                         \
		fprintf(stderr, __VA_ARGS__);                                \
		fputc('\n', stderr);                                         \
		exit(2);                                                     \
	} while (0)
#define EXPECT_EQ(a, b)                                                      \
	do {                                                                 \
		long long a_ = (long long)(a), b_ = (long long)(b);          \
		if (a_ != b_)                                                \
			FAIL("%s = %lld, expected %lld", #a, a_, b_);        \
	} while (0)
#define EXPECT(c)                                                            \
	do {                                                                 \
		if (!(c))                                                    \
			FAIL("expected %s", #c);                             \
	} while (0)

#endif
