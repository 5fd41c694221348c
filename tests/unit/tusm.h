// SPDX-License-Identifier: MIT
/*
 * tusm: what the usm test files share: the heap under test (a fresh one
 * per test, in a leakcheck fixture), owners, allocation helpers that fail
 * the test on error, data patterns.
 */
#ifndef ZEMEM_TUSM_H
#define ZEMEM_TUSM_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <stdbool.h>
#include <stdint.h>

#include "leakcheck.h"
#include "usm.h"
#include "usm_private.h"

#ifdef USM_ASAN /* usm_private.h: built with AddressSanitizer */
#define SCALE 10 /* divides the big counts */
#else
#define SCALE 1
#endif

/* check's ck_assert_* write a location record to a pipe on every call (a
 * system call each); REQUIRE calls into check only when it fails, so it
 * can sit in loops of a million. */
#define REQUIRE(cond, ...)                                                  \
	do {                                                                \
		if (!(cond))                                                \
			ck_abort_msg(__VA_ARGS__);                          \
	} while (0)
#define REQUIRE_OP(a, op, b)                                                \
	REQUIRE((a)op(b), "%s %s %s: %lld vs %lld", #a, #op, #b,            \
		(long long)(a), (long long)(b))
#define REQUIRE_EQ(a, b) REQUIRE_OP(a, ==, b)
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

#define CTX_A ((void *)&ctx_a)
#define CTX_B ((void *)&ctx_b)
#define DEV0 ((void *)&dev0)
#define ZE_FLAGS 0x105u

extern const enum usm_kind kinds[3];
extern int ctx_a, ctx_b, dev0;
extern struct usm_heap *H;   /* the heap under test */
extern size_t page;

struct range {
	char *p;
	size_t n;
};

int try_alloc(enum usm_kind k, size_t size, size_t align, uint32_t flags,
	      void *ctx, void **p);
void *xalloc(enum usm_kind k, size_t size, size_t align, uint32_t flags,
	     void *ctx);
void xfree(void *p, void *ctx);
struct usm_info xquery(const void *p);
unsigned char pattern(uint64_t seed, size_t i);
void fill(void *p, size_t n, uint64_t seed);
bool check_fill(const void *p, size_t n, uint64_t seed);
uint64_t rng(uint64_t *s);
bool skip_backend(enum bk_type t);
int cmp_range(const void *a, const void *b);
/* Fixture: a warm-up heap, the leak snapshot, then a fresh heap. */
void tusm_setup(void);
void tusm_teardown(void);
/* test_usm_life.c: contexts, exports, stats and thread tests. */
void tusm_add_life_tests(TCase *tc);

#endif
