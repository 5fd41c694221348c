// SPDX-License-Identifier: MIT
/*
 * test_san: which sanitizer a test is built under, TEST_ASAN and
 * TEST_TSAN, 1 or 0 (GCC defines __SANITIZE_*__, clang answers
 * __has_feature). Header only, for the test programs that take none of
 * the test-common code (the shmem programs started by zeshrun).
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

#endif
