// SPDX-License-Identifier: MIT
/*
 * test_sh_alloc: the symmetric heap's sub-allocator (shmem/mem/sh_alloc.c),
 * linked on its own: argument checks, determinism (two instances fed the
 * same random call sequence give the same offsets), reuse of freed space,
 * coalescing, alignment, regions (growth) never merged, exhaustion, in-place
 * resize.
 */
#include "sh_init.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"

#define HEAP_OFF SH_CTRL_SIZE
#define HEAP_SZ (16u << 20)

static struct sh_alloc *
mk(uint64_t size)
{
	struct sh_alloc *a = NULL;
	ck_assert_int_eq(sh_alloc_create(&a), 0);
	ck_assert_int_eq(sh_alloc_add(a, HEAP_OFF, size), 0);
	return a;
}

START_TEST(test_alloc_bad_args)
{
	struct sh_alloc *a = mk(HEAP_SZ);
	uint64_t off = 7;
	ck_assert_int_eq(sh_alloc_alloc(a, 0, 128, &off), -EINVAL);
	ck_assert_int_eq(sh_alloc_alloc(a, 8, 0, &off), -EINVAL);
	ck_assert_int_eq(sh_alloc_alloc(a, 8, 48, &off), -EINVAL);
	ck_assert_int_eq(sh_alloc_alloc(a, SIZE_MAX, 128, &off), -ENOMEM);
	ck_assert_int_eq(sh_alloc_alloc(a, SIZE_MAX - 64, 128, &off), -ENOMEM);
	ck_assert_uint_eq(off, 7);
	ck_assert_int_eq(sh_alloc_free(a, HEAP_OFF), -EINVAL);  /* not used */
	ck_assert_int_eq(sh_alloc_free(a, HEAP_OFF + 1), -EINVAL);
	ck_assert_int_eq(sh_alloc_size(a, HEAP_OFF), -EINVAL);
	ck_assert_int_eq(sh_alloc_resize(a, HEAP_OFF, 8), -EINVAL);
	ck_assert_int_eq(sh_alloc_add(a, 100, 4096), -EINVAL);
	ck_assert_int_eq(sh_alloc_add(a, 1 << 30, 0), -EINVAL);
	ck_assert_int_eq(sh_alloc_add(a, UINT64_MAX - 127, 256), -EINVAL);
	/* double free */
	ck_assert_int_eq(sh_alloc_alloc(a, 8, 128, &off), 0);
	ck_assert_int_eq(sh_alloc_free(a, off), 0);
	ck_assert_int_eq(sh_alloc_free(a, off), -EINVAL);
	sh_alloc_destroy(a);
}
END_TEST

START_TEST(test_alloc_first_offsets)
{
	struct sh_alloc *a = mk(HEAP_SZ);
	uint64_t o1, o2, o3;
	ck_assert_int_eq(sh_alloc_alloc(a, 1, 128, &o1), 0);
	ck_assert_int_eq(sh_alloc_alloc(a, 129, 8, &o2), 0);
	ck_assert_int_eq(sh_alloc_alloc(a, 128, 128, &o3), 0);
	ck_assert_uint_eq(o1 % 128, 0);
	ck_assert_uint_eq(o2 % 128, 0);
	ck_assert_uint_eq(o3 % 128, 0);
	ck_assert(o1 >= HEAP_OFF && o1 + 128 <= HEAP_OFF + HEAP_SZ);
	/* no overlap: sizes rounded up to 128 */
	ck_assert_int_eq(sh_alloc_size(a, o1), 128);
	ck_assert_int_eq(sh_alloc_size(a, o2), 256);
	ck_assert_int_eq(sh_alloc_size(a, o3), 128);
	uint64_t lo[3] = { o1, o2, o3 }, sz[3] = { 128, 256, 128 };
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			if (i != j)
				ck_assert(lo[i] + sz[i] <= lo[j] ||
					  lo[j] + sz[j] <= lo[i]);
	struct sh_alloc_stats st;
	sh_alloc_stats(a, &st);
	ck_assert_uint_eq(st.used, 512);
	ck_assert_uint_eq(st.total, HEAP_SZ);
	ck_assert_uint_eq(st.used_blocks, 3);
	sh_alloc_destroy(a);
}
END_TEST

START_TEST(test_alloc_alignment)
{
	struct sh_alloc *a = mk(HEAP_SZ);
	uint64_t o;
	ck_assert_int_eq(sh_alloc_alloc(a, 200, 128, &o), 0);
	for (size_t al = 256; al <= (1u << 20); al <<= 1) {
		ck_assert_int_eq(sh_alloc_alloc(a, 100, al, &o), 0);
		ck_assert_uint_eq(o % al, 0);
	}
	/* Front slack went back to the free lists: many small ones fit
	 * without growing past what the aligned blocks left. */
	struct sh_alloc_stats st;
	sh_alloc_stats(a, &st);
	ck_assert_uint_eq(st.used, 256 + 13 * 128);
	ck_assert(st.free_blocks >= 2);
	sh_alloc_destroy(a);
}
END_TEST

START_TEST(test_alloc_reuse_and_coalesce)
{
	struct sh_alloc *a = mk(1u << 20);
	uint64_t o[8];
	for (int i = 0; i < 8; i++)
		ck_assert_int_eq(sh_alloc_alloc(a, 1024, 128, &o[i]), 0);
	/* free one: the same request reuses exactly that block */
	ck_assert_int_eq(sh_alloc_free(a, o[3]), 0);
	uint64_t r;
	ck_assert_int_eq(sh_alloc_alloc(a, 1024, 128, &r), 0);
	ck_assert_uint_eq(r, o[3]);
	/* free 2,3,4 (in an order that needs both-side merges): one block of
	 * 3 KiB, so a 3 KiB request lands at o[2] */
	ck_assert_int_eq(sh_alloc_free(a, o[2]), 0);
	ck_assert_int_eq(sh_alloc_free(a, o[4]), 0);
	ck_assert_int_eq(sh_alloc_free(a, o[3]), 0);
	ck_assert_int_eq(sh_alloc_alloc(a, 3072, 128, &r), 0);
	ck_assert_uint_eq(r, o[2]);
	ck_assert_int_eq(sh_alloc_free(a, r), 0);
	for (int i = 0; i < 8; i++)
		if (i < 2 || i > 4)
			ck_assert_int_eq(sh_alloc_free(a, o[i]), 0);
	/* everything coalesced back into one block */
	struct sh_alloc_stats st;
	sh_alloc_stats(a, &st);
	ck_assert_uint_eq(st.used, 0);
	ck_assert_uint_eq(st.free_blocks, 1);
	ck_assert_uint_eq(st.largest_free, 1u << 20);
	ck_assert_int_eq(sh_alloc_alloc(a, 1u << 20, 128, &r), 0);
	ck_assert_uint_eq(r, HEAP_OFF);
	sh_alloc_destroy(a);
}
END_TEST

START_TEST(test_alloc_exhaustion_and_regions)
{
	struct sh_alloc *a = mk(64 * 1024);
	uint64_t o, o2;
	ck_assert_int_eq(sh_alloc_alloc(a, 64 * 1024 + 1, 128, &o), -ENOMEM);
	ck_assert_int_eq(sh_alloc_alloc(a, 48 * 1024, 128, &o), 0);
	ck_assert_int_eq(sh_alloc_alloc(a, 32 * 1024, 128, &o2), -ENOMEM);
	/* growth: a second region right after the first; a block never
	 * spans the edge even though the two are adjacent */
	uint64_t end = HEAP_OFF + 64 * 1024;
	ck_assert_int_eq(sh_alloc_add(a, end, 64 * 1024), 0);
	ck_assert_int_eq(sh_alloc_alloc(a, 32 * 1024, 128, &o2), 0);
	ck_assert_uint_eq(o2, end);
	ck_assert_int_eq(sh_alloc_free(a, o), 0);
	ck_assert_int_eq(sh_alloc_free(a, o2), 0);
	struct sh_alloc_stats st;
	sh_alloc_stats(a, &st);
	ck_assert_uint_eq(st.regions, 2);
	ck_assert_uint_eq(st.free_blocks, 2);
	ck_assert_uint_eq(st.total, 128 * 1024);
	ck_assert_int_eq(sh_alloc_alloc(a, 96 * 1024, 128, &o), -ENOMEM);
	/* fill exactly, then nothing more */
	int n = 0;
	while (sh_alloc_alloc(a, 128, 128, &o) == 0)
		n++;
	ck_assert_int_eq(n, 1024);
	sh_alloc_destroy(a);
}
END_TEST

/* A request as large as the only free block (a growth chunk made for it)
 * fits, though good-fit rounding alone would look one class higher. */
START_TEST(test_alloc_exact_fit_large)
{
	uint64_t sz = 1080033280; /* 8437760 granules: mid-class */
	struct sh_alloc *a = mk(sz);
	uint64_t o;
	ck_assert_int_eq(sh_alloc_alloc(a, sz, 128, &o), 0);
	ck_assert_uint_eq(o, HEAP_OFF);
	ck_assert_int_eq(sh_alloc_alloc(a, 128, 128, &o), -ENOMEM);
	sh_alloc_destroy(a);
}
END_TEST

START_TEST(test_alloc_resize)
{
	struct sh_alloc *a = mk(1u << 20);
	uint64_t o, o2;
	ck_assert_int_eq(sh_alloc_alloc(a, 1000, 128, &o), 0);
	ck_assert_int_eq(sh_alloc_resize(a, o, 4000), 0);   /* grows in place */
	ck_assert_int_eq(sh_alloc_size(a, o), 4096);
	ck_assert_int_eq(sh_alloc_alloc(a, 128, 128, &o2), 0);
	ck_assert_uint_eq(o2, o + 4096);
	ck_assert_int_eq(sh_alloc_resize(a, o, 5000), -ENOMEM); /* blocked */
	ck_assert_int_eq(sh_alloc_resize(a, o, 100), 0);    /* shrinks */
	ck_assert_int_eq(sh_alloc_size(a, o), 128);
	uint64_t o3;
	ck_assert_int_eq(sh_alloc_alloc(a, 3968, 128, &o3), 0); /* the tail */
	ck_assert_uint_eq(o3, o + 128);
	ck_assert_int_eq(sh_alloc_resize(a, o, 0), -EINVAL);
	sh_alloc_destroy(a);
}
END_TEST

/* The same random sequence of alloc / free / resize on two instances:
 * identical results call by call; and nothing ever overlaps. */
START_TEST(test_alloc_random_determinism)
{
	enum { N = 20000, LIVE = 512 };
	struct sh_alloc *a = mk(64u << 20), *b = mk(64u << 20);
	uint64_t live[LIVE], lsz[LIVE];
	int nlive = 0;
	unsigned seed = 12345;
	for (int i = 0; i < N; i++) {
		unsigned r = (unsigned)rand_r(&seed);
		if (nlive == LIVE || (nlive && r % 3 == 0)) {
			int k = (int)((unsigned)rand_r(&seed) % (unsigned)nlive);
			ck_assert_int_eq(sh_alloc_free(a, live[k]), 0);
			ck_assert_int_eq(sh_alloc_free(b, live[k]), 0);
			live[k] = live[--nlive];
			lsz[k] = lsz[nlive];
			continue;
		}
		size_t sz = 1 + (size_t)rand_r(&seed) % (r % 7 ? 4096 : 300000);
		size_t al = (size_t)8 << ((unsigned)rand_r(&seed) % 12);
		uint64_t oa = 0, ob = 1;
		int ea = sh_alloc_alloc(a, sz, al, &oa);
		int eb = sh_alloc_alloc(b, sz, al, &ob);
		ck_assert_int_eq(ea, eb);
		if (ea) {
			ck_assert_int_eq(ea, -ENOMEM);
			continue;
		}
		ck_assert_uint_eq(oa, ob);
		ck_assert_uint_eq(oa % (al > 128 ? al : 128), 0);
		if (r % 11 == 0) {
			size_t nsz = 1 + (size_t)rand_r(&seed) % 8192;
			ck_assert_int_eq(sh_alloc_resize(a, oa, nsz),
					 sh_alloc_resize(b, ob, nsz));
		}
		live[nlive] = oa;
		lsz[nlive] = (uint64_t)sh_alloc_size(a, oa);
		ck_assert_uint_ge(lsz[nlive], 1);
		nlive++;
	}
	/* no two live blocks overlap */
	for (int i = 0; i < nlive; i++)
		for (int j = i + 1; j < nlive; j++)
			ck_assert(live[i] + lsz[i] <= live[j] ||
				  live[j] + lsz[j] <= live[i]);
	struct sh_alloc_stats sa, sb;
	sh_alloc_stats(a, &sa);
	sh_alloc_stats(b, &sb);
	ck_assert_mem_eq(&sa, &sb, sizeof(sa));
	for (int i = 0; i < nlive; i++) {
		ck_assert_int_eq(sh_alloc_free(a, live[i]), 0);
		ck_assert_int_eq(sh_alloc_free(b, live[i]), 0);
	}
	sh_alloc_stats(a, &sa);
	ck_assert_uint_eq(sa.used, 0);
	ck_assert_uint_eq(sa.free_blocks, 1);   /* all coalesced again */
	sh_alloc_destroy(a);
	sh_alloc_destroy(b);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sh_alloc");
	TCase *tc = tcase_create("alloc");
	tcase_add_test(tc, test_alloc_bad_args);
	tcase_add_test(tc, test_alloc_first_offsets);
	tcase_add_test(tc, test_alloc_alignment);
	tcase_add_test(tc, test_alloc_reuse_and_coalesce);
	tcase_add_test(tc, test_alloc_exhaustion_and_regions);
	tcase_add_test(tc, test_alloc_exact_fit_large);
	tcase_add_test(tc, test_alloc_resize);
	tcase_add_test(tc, test_alloc_random_determinism);
	suite_add_tcase(s, tc);
	return check_run(s, CK_NORMAL, false);
}
