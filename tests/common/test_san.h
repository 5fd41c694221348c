// SPDX-License-Identifier: MIT
/*
 * test_san: which sanitizer a test is built under, TEST_ASAN and
 * TEST_TSAN, 1 or 0 (common/u_san.h's answers). Header only, for the
 * test programs that take none of the test-common code (the shmem
 * programs started by zeshrun).
 * test_fork_child_exit: how a fork child of a threaded test exits.
 */
#ifndef ZEMEM_TEST_SAN_H
#define ZEMEM_TEST_SAN_H

#include "u_san.h"

#define TEST_ASAN U_ASAN
#define TEST_TSAN U_TSAN

#include <sys/syscall.h>
#include <unistd.h>

/* The exit of a fork child whose parent had other threads. Under TSan,
 * straight to the kernel: TSan's _exit reports the parent's other
 * threads, which the child does not have, as leaked, and exits 66. */
__attribute__((noreturn)) static inline void
test_fork_child_exit(int code)
{
#if TEST_TSAN
	syscall(SYS_exit_group, code);
#endif
	_exit(code);
}

#endif
