// SPDX-License-Identifier: MIT
/*
 * test_val_index: the validation layer's interval index (val_index.c, an
 * AVL tree with parent links and an exact-key hash), compiled into the
 * test: random inserts and removals checked against a sorted array after
 * every step (order, heights, balance, parent links, count), and floor,
 * ceil, prev and find checked against the same array.
 */
#include "check_run.h"
#include "val.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define N 2000

static struct val_node nodes[N];
static bool in[N];

static int
check_subtree(const struct val_node *n, const struct val_node *parent,
	      uintptr_t lo, uintptr_t hi, size_t *count)
{
	if (!n)
		return 0;
	ck_assert_ptr_eq(n->parent, parent);
	ck_assert_uint_ge(n->key, lo);
	ck_assert_uint_le(n->key, hi);
	int l = check_subtree(n->left, n, lo, n->key - 1, count);
	int r = check_subtree(n->right, n, n->key + 1, hi, count);
	ck_assert_int_le(abs(l - r), 1);
	ck_assert_int_eq(n->height, 1 + (l > r ? l : r));
	(*count)++;
	return n->height;
}

static void
check_tree(const struct val_index *ix)
{
	size_t count = 0;
	check_subtree(ix->root, NULL, 0, UINTPTR_MAX, &count);
	ck_assert_uint_eq(count, ix->count);
}

/* The key of node i: spread out, with gaps so floor has work to do. */
static uintptr_t
key_of(int i)
{
	return 0x10000 + (uintptr_t)i * 64;
}

static void
check_queries(const struct val_index *ix, uintptr_t probe)
{
	const struct val_node *floor = NULL, *ceil = NULL;
	for (int i = 0; i < N; i++) {
		if (!in[i])
			continue;
		if (nodes[i].key <= probe &&
		    (!floor || nodes[i].key > floor->key))
			floor = &nodes[i];
		if (nodes[i].key >= probe &&
		    (!ceil || nodes[i].key < ceil->key))
			ceil = &nodes[i];
	}
	ck_assert_ptr_eq(val_index_floor(ix, probe), floor);
	ck_assert_ptr_eq(val_index_ceil(ix, probe), ceil);
	const struct val_node *exact = floor && floor->key == probe ? floor
								     : NULL;
	ck_assert_ptr_eq(val_index_find(ix, probe), exact);
	if (floor) {
		const struct val_node *prev = NULL;
		for (int i = 0; i < N; i++)
			if (in[i] && nodes[i].key < floor->key &&
			    (!prev || nodes[i].key > prev->key))
				prev = &nodes[i];
		ck_assert_ptr_eq(val_index_prev((struct val_node *)floor),
				 prev);
	}
}

START_TEST(test_index_insert_duplicate)
{
	struct val_index ix = { 0 };
	struct val_node a = { .key = 42 }, b = { .key = 42 };
	ck_assert_int_eq(val_index_insert(&ix, &a), 0);
	ck_assert_int_eq(val_index_insert(&ix, &b), -EEXIST);
	ck_assert_uint_eq(ix.count, 1);
	ck_assert_ptr_eq(val_index_find(&ix, 42), &a);
	ck_assert_ptr_null(val_index_floor(&ix, 41));
	val_index_remove(&ix, &a);
	ck_assert_ptr_null(ix.root);
	ck_assert_ptr_null(val_index_find(&ix, 42));
	free(ix.buckets);
}
END_TEST

START_TEST(test_index_random_against_array)
{
	struct val_index ix = { 0 };
	unsigned seed = 12345;
	memset(in, 0, sizeof(in));
	for (int i = 0; i < N; i++)
		nodes[i].key = key_of(i);
	for (int step = 0; step < 20000; step++) {
		int i = (int)(rand_r(&seed) % N);
		if (in[i]) {
			val_index_remove(&ix, &nodes[i]);
			in[i] = false;
		} else {
			ck_assert_int_eq(val_index_insert(&ix, &nodes[i]), 0);
			in[i] = true;
		}
		if (step % 97 == 0 || step < 200)
			check_tree(&ix);
		uintptr_t probe = key_of((int)(rand_r(&seed) % N)) +
				  (rand_r(&seed) % 2 ? 0 : 17);
		check_queries(&ix, probe);
	}
	/* Empty it in key order, then in reverse: both extremes. */
	for (int i = 0; i < N; i++)
		if (in[i]) {
			val_index_remove(&ix, &nodes[i]);
			in[i] = false;
		}
	ck_assert_ptr_null(ix.root);
	ck_assert_uint_eq(ix.count, 0);
	for (int i = 0; i < N; i++) {
		ck_assert_int_eq(val_index_insert(&ix, &nodes[i]), 0);
		in[i] = true;
	}
	check_tree(&ix);
	ck_assert_int_le(ix.root->height, 16);  /* 1.45 log2(2002) < 16 */
	for (int i = N - 1; i >= 0; i--) {
		val_index_remove(&ix, &nodes[i]);
		in[i] = false;
		if (i % 101 == 0)
			check_tree(&ix);
	}
	ck_assert_ptr_null(ix.root);
	free(ix.buckets);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("validation-index");
	TCase *t = tcase_create("index");
	tcase_add_test(t, test_index_insert_duplicate);
	tcase_add_test(t, test_index_random_against_array);
	tcase_set_timeout(t, 120);
	suite_add_tcase(s, t);
	return check_run(s, CK_NORMAL, false);
}
