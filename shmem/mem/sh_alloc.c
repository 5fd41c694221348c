// SPDX-License-Identifier: MIT
/*
 * sh_alloc: the deterministic sub-allocator of the symmetric heap.
 *
 * Symmetry comes from determinism: the allocator is a pure function of the
 * sequence of calls made on it (no addresses, no time, no randomness in
 * any decision), so every PE that makes the same calls gets the same
 * offsets. It hands out offsets, never touches the heap's memory (the heap
 * may be device memory the host cannot read): every record lives in host
 * memory (malloc).
 *
 * Vocabulary
 *   granule   SH_ALLOC_GRANULE (128) bytes: every size and offset is a
 *             multiple of it, so the default alignment costs nothing.
 *   region    a span of offsets added by sh_alloc_add (the heap at init,
 *             then one per growth chunk). Blocks never cross a region's
 *             edge: a peer maps each chunk separately, so an object must
 *             lie in one chunk to be contiguous on every PE.
 *   block     a span of a region, free or used, on the region's
 *             address-ordered list (aprev/anext): coalescing looks at the
 *             two neighbours only, O(1).
 *
 * Design: two-level segregated fit (the TLSF idea, written here from the
 * description). Free blocks sit on one of 64 x 16 lists by size: the first
 * level is the size's highest bit, the second its next four bits; two
 * bitmaps find the first non-empty list at least as large as a request in
 * O(1) (rounding the request up to its list's upper edge makes any block
 * there big enough: "good fit"; when nothing is, the first blocks of the
 * request's own list are tried, so a block exactly as large as the
 * request is found). Lists are LIFO. Used blocks are found by
 * offset through an open-addressing hash table (linear probing, backward
 * shift deletion), O(1) expected. Alignment above a granule searches for
 * size + align - granule and splits the slack in front off as a free block.
 *
 * Not thread-safe: the heap calls it from collective calls only.
 */
#include "sh_mem.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SLI 4
#define SLN (1u << SLI)
#define FLN 64

struct blk {
	uint64_t off, size;        /* granules */
	struct blk *aprev, *anext; /* address order inside the region */
	struct blk *fprev, *fnext; /* free list */
	uint32_t region;
	uint8_t free;
};

struct sh_alloc {
	uint64_t fl_map;
	uint32_t sl_map[FLN];
	struct blk *lists[FLN][SLN];
	/* used blocks by offset */
	struct blk **tab;
	size_t tab_cap, tab_n;
	uint32_t nregions;
	uint64_t total, used;      /* granules */
	uint64_t nfree;            /* free blocks */
};

static inline unsigned
hibit(uint64_t v)
{
	return 63u - (unsigned)__builtin_clzll(v);
}

static void
mapping(uint64_t s, unsigned *fl, unsigned *sl)
{
	if (s < SLN) {
		*fl = 0;
		*sl = (unsigned)s;
		return;
	}
	unsigned b = hibit(s);
	*fl = b - (SLI - 1);
	*sl = (unsigned)(s >> (b - SLI)) & (SLN - 1);
}

static void
list_insert(struct sh_alloc *a, struct blk *b)
{
	unsigned fl, sl;
	mapping(b->size, &fl, &sl);
	b->free = 1;
	b->fprev = NULL;
	b->fnext = a->lists[fl][sl];
	if (b->fnext)
		b->fnext->fprev = b;
	a->lists[fl][sl] = b;
	a->fl_map |= 1ull << fl;
	a->sl_map[fl] |= 1u << sl;
	a->nfree++;
}

static void
list_remove(struct sh_alloc *a, struct blk *b)
{
	unsigned fl, sl;
	mapping(b->size, &fl, &sl);
	if (b->fprev)
		b->fprev->fnext = b->fnext;
	else
		a->lists[fl][sl] = b->fnext;
	if (b->fnext)
		b->fnext->fprev = b->fprev;
	if (!a->lists[fl][sl]) {
		a->sl_map[fl] &= ~(1u << sl);
		if (!a->sl_map[fl])
			a->fl_map &= ~(1ull << fl);
	}
	b->free = 0;
	b->fprev = b->fnext = NULL;
	a->nfree--;
}

/* Free block for s granules: the first block of the first non-empty
 * list whose every block holds s (good fit, O(1)); failing that, one of
 * the first FALLBACK_SCAN blocks of s's own list that is large enough (a
 * request the size of the only free block, as after growth, would
 * otherwise never fit). */
#define FALLBACK_SCAN 16
static struct blk *find_rounded(struct sh_alloc *a, uint64_t s);

static struct blk *
find_fit(struct sh_alloc *a, uint64_t s)
{
	struct blk *b = find_rounded(a, s);
	if (b)
		return b;
	unsigned fl, sl;
	mapping(s, &fl, &sl);
	if (fl >= FLN)
		return NULL;
	b = a->lists[fl][sl];
	for (int i = 0; b && i < FALLBACK_SCAN; i++, b = b->fnext)
		if (b->size >= s)
			return b;
	return NULL;
}

static struct blk *
find_rounded(struct sh_alloc *a, uint64_t s)
{
	if (s >= SLN) {
		uint64_t round = (1ull << (hibit(s) - SLI)) - 1;
		if (s > UINT64_MAX / 2)
			return NULL;
		s += round;
	}
	unsigned fl, sl;
	mapping(s, &fl, &sl);
	if (fl >= FLN)
		return NULL;
	uint32_t sm = a->sl_map[fl] & (~0u << sl);
	if (!sm) {
		uint64_t fm = fl + 1 < FLN ? a->fl_map & (~0ull << (fl + 1)) : 0;
		if (!fm)
			return NULL;
		fl = (unsigned)__builtin_ctzll(fm);
		sm = a->sl_map[fl];
	}
	sl = (unsigned)__builtin_ctz(sm);
	return a->lists[fl][sl];
}

/* ---- the used-block table -------------------------------------------- */

static inline size_t
slot_of(const struct sh_alloc *a, uint64_t off)
{
	uint64_t h = off * 0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 17) & (a->tab_cap - 1);
}

static int tab_put(struct sh_alloc *a, struct blk *b);

static int
tab_grow(struct sh_alloc *a)
{
	size_t ncap = a->tab_cap ? a->tab_cap * 2 : 64;
	struct blk **old = a->tab;
	size_t ocap = a->tab_cap;
	struct blk **t = calloc(ncap, sizeof(*t));
	if (!t)
		return -ENOMEM;
	a->tab = t;
	a->tab_cap = ncap;
	a->tab_n = 0;
	for (size_t i = 0; i < ocap; i++)
		if (old[i])
			tab_put(a, old[i]);
	free(old);
	return 0;
}

static int
tab_put(struct sh_alloc *a, struct blk *b)
{
	if ((a->tab_n + 1) * 2 > a->tab_cap) {
		int err = tab_grow(a);
		if (err)
			return err;
	}
	size_t i = slot_of(a, b->off);
	while (a->tab[i])
		i = (i + 1) & (a->tab_cap - 1);
	a->tab[i] = b;
	a->tab_n++;
	return 0;
}

static size_t
tab_find(const struct sh_alloc *a, uint64_t off)
{
	if (!a->tab_cap)
		return SIZE_MAX;
	size_t i = slot_of(a, off);
	while (a->tab[i]) {
		if (a->tab[i]->off == off)
			return i;
		i = (i + 1) & (a->tab_cap - 1);
	}
	return SIZE_MAX;
}

static void
tab_del(struct sh_alloc *a, size_t i)
{
	size_t mask = a->tab_cap - 1;
	a->tab[i] = NULL;
	a->tab_n--;
	/* Backward shift: move later entries of the run into the hole when
	 * their home slot does not lie (cyclically) in (i, j]. */
	for (size_t j = (i + 1) & mask; a->tab[j]; j = (j + 1) & mask) {
		size_t h = slot_of(a, a->tab[j]->off);
		bool stay = i <= j ? (i < h && h <= j) : (i < h || h <= j);
		if (stay)
			continue;
		a->tab[i] = a->tab[j];
		a->tab[j] = NULL;
		i = j;
	}
}

/* ---- public ----------------------------------------------------------- */

int
sh_alloc_create(struct sh_alloc **out)
{
	struct sh_alloc *a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	*out = a;
	return 0;
}

void
sh_alloc_destroy(struct sh_alloc *a)
{
	if (!a)
		return;
	/* Each region's first block (no aprev) is used or free: collect the
	 * heads from the table and the free lists first, then free each
	 * region's address list once. */
	struct blk **heads = calloc(a->nregions ? a->nregions : 1,
				    sizeof(*heads));
	size_t nh = 0;
	for (size_t i = 0; heads && i < a->tab_cap; i++)
		if (a->tab[i] && !a->tab[i]->aprev && nh < a->nregions)
			heads[nh++] = a->tab[i];
	for (unsigned fl = 0; heads && fl < FLN; fl++)
		for (unsigned sl = 0; sl < SLN; sl++)
			for (struct blk *b = a->lists[fl][sl]; b; b = b->fnext)
				if (!b->aprev && nh < a->nregions)
					heads[nh++] = b;
	for (size_t i = 0; i < nh; i++)
		for (struct blk *b = heads[i]; b;) {
			struct blk *n = b->anext;
			free(b);
			b = n;
		}
	free(heads);
	free(a->tab);
	free(a);
}

int
sh_alloc_add(struct sh_alloc *a, uint64_t off, uint64_t size)
{
	if (off % SH_ALLOC_GRANULE || size % SH_ALLOC_GRANULE || !size ||
	    off + size < off)
		return -EINVAL;
	struct blk *b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->off = off / SH_ALLOC_GRANULE;
	b->size = size / SH_ALLOC_GRANULE;
	b->region = a->nregions++;
	list_insert(a, b);
	a->total += b->size;
	return 0;
}

/* Block b takes in n, its right neighbour (out of the free lists), and
 * n goes. */
static void
join(struct blk *b, struct blk *n)
{
	b->size += n->size;
	b->anext = n->anext;
	if (b->anext)
		b->anext->aprev = b;
	free(n);
}

/* Give block b (taken, not in the free lists) back: merge it with a free
 * neighbour on either side and put the result in the free lists. */
static void
release(struct sh_alloc *a, struct blk *b)
{
	struct blk *p = b->aprev;
	if (p && p->free) {
		list_remove(a, p);
		join(p, b);
		b = p;
	}
	struct blk *n = b->anext;
	if (n && n->free) {
		list_remove(a, n);
		join(b, n);
	}
	list_insert(a, b);
}

/* Splits the tail of b beyond s granules off as a free block. */
static int
split_tail(struct sh_alloc *a, struct blk *b, uint64_t s)
{
	if (b->size == s)
		return 0;
	struct blk *t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->off = b->off + s;
	t->size = b->size - s;
	t->region = b->region;
	t->aprev = b;
	t->anext = b->anext;
	if (t->anext)
		t->anext->aprev = t;
	b->anext = t;
	b->size = s;
	/* b is taken; t's right neighbour may be free (shrinking a used
	 * block): release merges it. */
	release(a, t);
	return 0;
}

int
sh_alloc_alloc(struct sh_alloc *a, size_t size, size_t align, uint64_t *out)
{
	if (!size || !align || (align & (align - 1)))
		return -EINVAL;
	if (size > UINT64_MAX / 4)
		return -ENOMEM;
	uint64_t s = (size + SH_ALLOC_GRANULE - 1) / SH_ALLOC_GRANULE;
	uint64_t al = align <= SH_ALLOC_GRANULE ? 1 : align / SH_ALLOC_GRANULE;
	struct blk *b = find_fit(a, s + al - 1);
	if (!b)
		return -ENOMEM;
	list_remove(a, b);
	uint64_t start = (b->off + al - 1) & ~(al - 1);
	if (start != b->off) {
		/* The slack in front becomes a free block of its own (b's left
		 * neighbour is used: free blocks are always coalesced). */
		struct blk *f = calloc(1, sizeof(*f));
		if (!f) {
			list_insert(a, b);
			return -ENOMEM;
		}
		f->off = b->off;
		f->size = start - b->off;
		f->region = b->region;
		f->aprev = b->aprev;
		f->anext = b;
		if (f->aprev)
			f->aprev->anext = f;
		b->aprev = f;
		b->off = start;
		b->size -= f->size;
		list_insert(a, f);
	}
	if (split_tail(a, b, s) || tab_put(a, b)) {
		/* Out of host memory: give the block back whole. */
		b->free = 0;
		release(a, b);
		return -ENOMEM;
	}
	a->used += b->size;
	*out = b->off * SH_ALLOC_GRANULE;
	return 0;
}

int
sh_alloc_free(struct sh_alloc *a, uint64_t off)
{
	if (off % SH_ALLOC_GRANULE)
		return -EINVAL;
	size_t i = tab_find(a, off / SH_ALLOC_GRANULE);
	if (i == SIZE_MAX)
		return -EINVAL;
	struct blk *b = a->tab[i];
	tab_del(a, i);
	a->used -= b->size;
	release(a, b);
	return 0;
}

int64_t
sh_alloc_size(const struct sh_alloc *a, uint64_t off)
{
	if (off % SH_ALLOC_GRANULE)
		return -EINVAL;
	size_t i = tab_find(a, off / SH_ALLOC_GRANULE);
	if (i == SIZE_MAX)
		return -EINVAL;
	return (int64_t)(a->tab[i]->size * SH_ALLOC_GRANULE);
}

int
sh_alloc_resize(struct sh_alloc *a, uint64_t off, size_t size)
{
	if (off % SH_ALLOC_GRANULE || !size)
		return -EINVAL;
	size_t i = tab_find(a, off / SH_ALLOC_GRANULE);
	if (i == SIZE_MAX)
		return -EINVAL;
	struct blk *b = a->tab[i];
	if (size > UINT64_MAX / 4)
		return -ENOMEM;
	uint64_t s = (size + SH_ALLOC_GRANULE - 1) / SH_ALLOC_GRANULE;
	uint64_t old = b->size;
	if (s > b->size) {
		struct blk *n = b->anext;
		if (!n || !n->free || b->size + n->size < s)
			return -ENOMEM;
		list_remove(a, n);
		join(b, n);
	}
	if (split_tail(a, b, s)) {
		/* Out of host memory while shrinking: keep it as it is. */
		a->used += b->size - old;
		return 0;
	}
	a->used += b->size;
	a->used -= old;
	return 0;
}

void
sh_alloc_stats(const struct sh_alloc *a, struct sh_alloc_stats *st)
{
	st->total = a->total * SH_ALLOC_GRANULE;
	st->used = a->used * SH_ALLOC_GRANULE;
	st->free_blocks = a->nfree;
	st->used_blocks = a->tab_n;
	st->regions = a->nregions;
	uint64_t largest = 0;
	if (a->fl_map) {
		unsigned fl = hibit(a->fl_map);
		unsigned sl = hibit(a->sl_map[fl]);
		for (struct blk *b = a->lists[fl][sl]; b; b = b->fnext)
			if (b->size > largest)
				largest = b->size;
	}
	st->largest_free = largest * SH_ALLOC_GRANULE;
}
