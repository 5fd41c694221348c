// SPDX-License-Identifier: MIT
/*
 * val_index: the layer's interval index, an intrusive AVL tree of
 * struct val_node keyed by base address.
 *
 * Vocabulary: a node is embedded in the record it indexes (struct val_rec)
 * and knows its parent, so insert and remove are loops that stop climbing
 * as soon as a subtree keeps its height (few nodes touched on average);
 * keys are unique (one record per base address in one index); "floor" is
 * the node with the largest key <= an address, which is the only record
 * that can contain that address when records of one index do not overlap.
 * Insert, remove, floor and ceil are O(log n); the height of an AVL tree of
 * n nodes is below 1.45 log2(n + 2). Beside the tree, a chained hash of the
 * keys answers "which node starts exactly here" in O(1): the hot paths
 * (free of a base pointer, the driver handing out an address again) need
 * nothing more. The hash grows by doubling; if it cannot, it keeps its
 * size and chains get longer.
 *
 * Locking: none here; every index is protected by val_lock (val.h).
 */
#include "val.h"

#include <errno.h>
#include <stdlib.h>

static inline int
height(const struct val_node *n)
{
	return n ? n->height : 0;
}

static inline void
update(struct val_node *n)
{
	int l = height(n->left), r = height(n->right);
	n->height = 1 + (l > r ? l : r);
}

/* Point parent's link to old at new (or the root). */
static inline void
relink(struct val_index *ix, struct val_node *parent, struct val_node *old,
       struct val_node *new)
{
	if (!parent)
		ix->root = new;
	else if (parent->left == old)
		parent->left = new;
	else
		parent->right = new;
}

static struct val_node *
rotate_right(struct val_node *y)
{
	struct val_node *x = y->left;
	y->left = x->right;
	if (x->right)
		x->right->parent = y;
	x->right = y;
	x->parent = y->parent;
	y->parent = x;
	update(y);
	update(x);
	return x;
}

static struct val_node *
rotate_left(struct val_node *x)
{
	struct val_node *y = x->right;
	x->right = y->left;
	if (y->left)
		y->left->parent = x;
	y->left = x;
	y->parent = x->parent;
	x->parent = y;
	update(x);
	update(y);
	return y;
}

/* Restore the balance of n; returns the root of its subtree. */
static struct val_node *
rebalance(struct val_node *n)
{
	update(n);
	int b = height(n->left) - height(n->right);
	if (b > 1) {
		if (height(n->left->left) < height(n->left->right))
			n->left = rotate_left(n->left);
		return rotate_right(n);
	}
	if (b < -1) {
		if (height(n->right->right) < height(n->right->left))
			n->right = rotate_right(n->right);
		return rotate_left(n);
	}
	return n;
}

/* Walk up from x after its subtree changed, rebalancing, until a
 * subtree's height comes out as it was (nothing above changes then). */
static void
retrace(struct val_index *ix, struct val_node *x)
{
	while (x) {
		struct val_node *parent = x->parent;
		int old = x->height;
		struct val_node *sub = rebalance(x);
		if (sub != x)
			relink(ix, parent, x, sub);
		if (sub->height == old)
			break;
		x = parent;
	}
}

static void
hash_grow(struct val_index *ix)
{
	if (ix->no_hash || (!ix->nbuckets && ix->count))
		return;  /* nodes missing from it: stay with the tree */
	size_t nb = ix->nbuckets ? ix->nbuckets * 2 : 1024;
	struct val_node **b = calloc(nb, sizeof(*b));
	if (!b)
		return;
	struct val_node **old = ix->buckets;
	size_t oldn = ix->nbuckets;
	ix->buckets = b;
	ix->nbuckets = nb;
	for (size_t i = 0; i < oldn; i++) {
		for (struct val_node *n = old[i], *next; n; n = next) {
			next = n->hnext;
			size_t k = val_index_bucket(ix, n->key);
			n->hnext = b[k];
			b[k] = n;
		}
	}
	free(old);
}

static void
hash_add(struct val_index *ix, struct val_node *n)
{
	if (ix->count >= ix->nbuckets)
		hash_grow(ix);
	if (!ix->nbuckets)
		return;
	size_t k = val_index_bucket(ix, n->key);
	n->hnext = ix->buckets[k];
	ix->buckets[k] = n;
}

static void
hash_del(struct val_index *ix, struct val_node *n)
{
	if (!ix->nbuckets)
		return;
	for (struct val_node **l = &ix->buckets[val_index_bucket(ix, n->key)]; *l;
	     l = &(*l)->hnext) {
		if (*l == n) {
			*l = n->hnext;
			break;
		}
	}
	n->hnext = NULL;
}

struct val_node *
val_index_find_slow(const struct val_index *ix, uintptr_t key)
{
	struct val_node *n = val_index_floor(ix, key);
	return n && n->key == key ? n : NULL;
}

int
val_index_insert(struct val_index *ix, struct val_node *n)
{
	struct val_node **link = &ix->root, *parent = NULL;
	while (*link) {
		parent = *link;
		if (n->key < parent->key)
			link = &parent->left;
		else if (n->key > parent->key)
			link = &parent->right;
		else
			return -EEXIST;
	}
	n->left = n->right = NULL;
	n->parent = parent;
	n->height = 1;
	*link = n;
	hash_add(ix, n);
	ix->count++;
	retrace(ix, parent);
	return 0;
}

void
val_index_remove(struct val_index *ix, struct val_node *n)
{
	struct val_node *parent = n->parent, *start;
	if (n->left && n->right) {
		/* Put the successor s (leftmost of the right subtree, no
		 * left child) where n was. */
		struct val_node *s = n->right;
		while (s->left)
			s = s->left;
		if (s->parent != n) {
			struct val_node *sp = s->parent;
			sp->left = s->right;
			if (s->right)
				s->right->parent = sp;
			s->right = n->right;
			n->right->parent = s;
			start = sp;
		} else {
			start = s;
		}
		s->left = n->left;
		n->left->parent = s;
		s->parent = parent;
		s->height = n->height;
		relink(ix, parent, n, s);
	} else {
		struct val_node *child = n->left ? n->left : n->right;
		if (child)
			child->parent = parent;
		relink(ix, parent, n, child);
		start = parent;
	}
	n->left = n->right = n->parent = NULL;
	hash_del(ix, n);
	ix->count--;
	retrace(ix, start);
}

struct val_node *
val_index_floor(const struct val_index *ix, uintptr_t key)
{
	struct val_node *t = ix->root, *best = NULL;
	while (t) {
		if (t->key == key)
			return t;
		if (t->key < key) {
			best = t;
			t = t->right;
		} else {
			t = t->left;
		}
	}
	return best;
}

struct val_node *
val_index_prev(struct val_node *n)
{
	if (n->left) {
		n = n->left;
		while (n->right)
			n = n->right;
		return n;
	}
	while (n->parent && n->parent->left == n)
		n = n->parent;
	return n->parent;
}

struct val_node *
val_index_ceil(const struct val_index *ix, uintptr_t key)
{
	struct val_node *t = ix->root, *best = NULL;
	while (t) {
		if (t->key == key)
			return t;
		if (t->key > key) {
			best = t;
			t = t->left;
		} else {
			t = t->right;
		}
	}
	return best;
}

static int
walk(struct val_node *t, int (*fn)(struct val_node *, void *), void *arg)
{
	int rc;
	if (!t)
		return 0;
	if ((rc = walk(t->left, fn, arg)))
		return rc;
	if ((rc = fn(t, arg)))
		return rc;
	return walk(t->right, fn, arg);
}

int
val_index_walk(const struct val_index *ix,
	       int (*fn)(struct val_node *n, void *arg), void *arg)
{
	return walk(ix->root, fn, arg);
}
