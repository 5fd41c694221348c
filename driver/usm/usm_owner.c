// SPDX-License-Identifier: MIT
/*
 * usm_owner: interned owner records, so a slot record stays 16 bytes.
 *
 * Vocabulary: an owner is what an allocation records about its caller
 * (ctx, dev, ze_flags, usm_flags, requested alignment); its index is a
 * 32-bit number stored in every record. Entries live in chunks of 1024
 * that never move, so readers index them without a lock. Interning looks
 * the key up in an open-addressing hash table.
 *
 * Locks: owners.mtx protects the hash table, the counters and the free
 * list; it is a leaf. Entry fields are atomics written under mtx and read
 * without it; they change only when usm_owner_drop_ctx() recycled an entry
 * whose context is dead, and gen is bumped then, so the per-thread cache
 * of the last key (usm_heap.c) notices.
 */
#include "usm_private.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK (1u << OWNER_CHUNK_BITS)

int
usm_owners_init(struct usm_owners *o)
{
	memset(o, 0, sizeof(*o));
	int err = pthread_mutex_init(&o->mtx, NULL);
	if (err)
		return -err;
	o->hcap = 64;
	o->hash = calloc(o->hcap, sizeof(*o->hash));
	if (!o->hash) {
		pthread_mutex_destroy(&o->mtx);
		return -ENOMEM;
	}
	return 0;
}

void
usm_owners_fini(struct usm_owners *o)
{
	for (unsigned i = 0; i < OWNER_MAX_CHUNKS; i++)
		free(atomic_load_explicit(&o->chunk[i], memory_order_relaxed));
	free(o->hash);
	free(o->free_idx);
	pthread_mutex_destroy(&o->mtx);
}

static uint32_t
key_hash(const struct usm_owner_key *k)
{
	uint64_t h = (uintptr_t)k->ctx * 0x9e3779b97f4a7c15ull;
	h ^= (uintptr_t)k->dev * 0xc2b2ae3d27d4eb4full;
	h ^= ((uint64_t)k->ze_flags << 32 | k->usm_flags << 8 | k->align_code) *
	     0x165667b19e3779f9ull;
	return (uint32_t)(h ^ h >> 29);
}

static bool
key_eq(const struct usm_owner *e, const struct usm_owner_key *k)
{
	return atomic_load_explicit(&e->ctx, memory_order_relaxed) == k->ctx &&
	       atomic_load_explicit(&e->dev, memory_order_relaxed) == k->dev &&
	       atomic_load_explicit(&e->ze_flags, memory_order_relaxed) ==
		       k->ze_flags &&
	       atomic_load_explicit(&e->usm_flags, memory_order_relaxed) ==
		       k->usm_flags &&
	       atomic_load_explicit(&e->align_code, memory_order_relaxed) ==
		       k->align_code;
}

static struct usm_owner *
entry(struct usm_owners *o, uint32_t idx)
{
	return (struct usm_owner *)usm_owner_get(o, idx);
}

static void
hash_put(struct usm_owners *o, uint32_t idx, uint32_t hv)
{
	uint32_t m = o->hcap - 1;
	uint32_t i = hv & m;
	while (o->hash[i])
		i = (i + 1) & m;
	o->hash[i] = idx + 1;
	o->hused++;
}

/* Rebuilds the table at cap slots from the entries in use. */
static int
hash_rebuild(struct usm_owners *o, uint32_t cap)
{
	uint32_t *nh = calloc(cap, sizeof(*nh));
	if (!nh)
		return -ENOMEM;
	free(o->hash);
	o->hash = nh;
	o->hcap = cap;
	o->hused = 0;
	for (uint32_t i = 0; i < o->n; i++) {
		struct usm_owner *e = entry(o, i);
		if (!e->in_use)
			continue;
		struct usm_owner_key k = {
			.ctx = atomic_load_explicit(&e->ctx,
						    memory_order_relaxed),
			.dev = atomic_load_explicit(&e->dev,
						    memory_order_relaxed),
			.ze_flags = atomic_load_explicit(&e->ze_flags,
							 memory_order_relaxed),
			.usm_flags = atomic_load_explicit(
				&e->usm_flags, memory_order_relaxed),
			.align_code = atomic_load_explicit(
				&e->align_code, memory_order_relaxed),
		};
		hash_put(o, i, key_hash(&k));
	}
	return 0;
}

/* A free entry index: a recycled one, or a new one (chunk allocated). */
static int
new_entry(struct usm_owners *o, uint32_t *idx)
{
	if (o->nfree) {
		*idx = o->free_idx[--o->nfree];
		return 0;
	}
	uint32_t i = o->n;
	if (i >= (uint32_t)OWNER_MAX_CHUNKS * CHUNK)
		return -ENOMEM;
	if (!atomic_load_explicit(&o->chunk[i / CHUNK], memory_order_relaxed)) {
		struct usm_owner *c = calloc(CHUNK, sizeof(*c));
		if (!c)
			return -ENOMEM;
		atomic_store_explicit(&o->chunk[i / CHUNK], c,
				      memory_order_release);
	}
	o->n++;
	*idx = i;
	return 0;
}

int
usm_owner_intern(struct usm_owners *o, const struct usm_owner_key *k,
		 uint32_t *idx)
{
	uint32_t hv = key_hash(k);
	int err = 0;
	pthread_mutex_lock(&o->mtx);
	uint32_t m = o->hcap - 1;
	for (uint32_t i = hv & m; o->hash[i]; i = (i + 1) & m) {
		struct usm_owner *e = entry(o, o->hash[i] - 1);
		if (e->in_use && key_eq(e, k)) {
			*idx = o->hash[i] - 1;
			goto out;
		}
	}
	if ((o->hused + 1) * 4 > o->hcap * 3 &&
	    (err = hash_rebuild(o, o->hcap * 2)))
		goto out;
	uint32_t i;
	if ((err = new_entry(o, &i)))
		goto out;
	struct usm_owner *e = entry(o, i);
	atomic_store_explicit(&e->ctx, k->ctx, memory_order_relaxed);
	atomic_store_explicit(&e->dev, k->dev, memory_order_relaxed);
	atomic_store_explicit(&e->ze_flags, k->ze_flags, memory_order_relaxed);
	atomic_store_explicit(&e->usm_flags, k->usm_flags,
			      memory_order_relaxed);
	atomic_store_explicit(&e->align_code, k->align_code,
			      memory_order_relaxed);
	e->in_use = 1;
	hash_put(o, i, hv);
	*idx = i;
out:
	pthread_mutex_unlock(&o->mtx);
	return err;
}

void
usm_owner_drop_ctx(struct usm_owners *o, void *ctx)
{
	pthread_mutex_lock(&o->mtx);
	uint32_t dropped = 0;
	for (uint32_t i = 0; i < o->n; i++) {
		struct usm_owner *e = entry(o, i);
		if (!e->in_use ||
		    atomic_load_explicit(&e->ctx, memory_order_relaxed) != ctx)
			continue;
		if (o->nfree == o->free_cap) {
			uint32_t cap = o->free_cap ? o->free_cap * 2 : 64;
			uint32_t *nf = realloc(o->free_idx, cap * sizeof(*nf));
			if (!nf)
				break; /* keep the rest: harmless */
			o->free_idx = nf;
			o->free_cap = cap;
		}
		e->in_use = 0;
		o->free_idx[o->nfree++] = i;
		dropped++;
	}
	if (dropped) {
		atomic_fetch_add_explicit(&o->gen, 1, memory_order_release);
		/* On ENOMEM the old table stays: lookups skip entries not
		 * in use, so it only wastes slots. */
		(void)hash_rebuild(o, o->hcap);
	}
	pthread_mutex_unlock(&o->mtx);
}
