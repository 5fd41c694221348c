// SPDX-License-Identifier: MIT
/*
 * u_san: which sanitizer this file is compiled under, in both compilers'
 * spellings (GCC defines __SANITIZE_THREAD__, clang answers
 * __has_feature). U_ASAN is 1 under AddressSanitizer, U_TSAN under
 * ThreadSanitizer; 0 otherwise. The tests' test_san.h takes them too.
 */
#ifndef ZEMEM_U_SAN_H
#define ZEMEM_U_SAN_H

#if defined(__SANITIZE_ADDRESS__)
#define U_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define U_ASAN 1
#endif
#endif
#ifndef U_ASAN
#define U_ASAN 0
#endif

#if defined(__SANITIZE_THREAD__)
#define U_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define U_TSAN 1
#endif
#endif
#ifndef U_TSAN
#define U_TSAN 0
#endif

#endif
