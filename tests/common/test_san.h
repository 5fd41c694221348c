// SPDX-License-Identifier: MIT
/*
 * test_san: which sanitizer a test is built under, TEST_ASAN and
 * TEST_TSAN, 1 or 0 (GCC defines __SANITIZE_*__, clang answers
 * __has_feature). Header only, for the test programs that take none of
 * the test-common code (the shmem programs started by zeshrun).
 * test_fork_child_exit: how a fork child of a threaded test exits.
 */
#ifndef ZEMEM_TEST_SAN_H
#define ZEMEM_TEST_SAN_H

#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif
#ifndef TEST_ASAN
#define TEST_ASAN 0
#endif
#if defined(__SANITIZE_THREAD__)
#define TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TEST_TSAN 1
#endif
#endif
#ifndef TEST_TSAN
#define TEST_TSAN 0
#endif

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
