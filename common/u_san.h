// SPDX-License-Identifier: MIT
/*
 * u_san: which sanitizer this file is compiled under, in both compilers'
 * spellings (GCC defines __SANITIZE_THREAD__, clang answers
 * __has_feature). U_TSAN is 1 under ThreadSanitizer.
 */
#ifndef ZEMEM_U_SAN_H
#define ZEMEM_U_SAN_H

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
