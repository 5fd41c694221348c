// SPDX-License-Identifier: MIT
/*
 * ipc_map: a small open-addressing hash table (uint64_t key -> pointer)
 * with linear probing and backward-shift deletion (no tombstones), used for
 * the export tables (by id, by base address, by file) and the import cache.
 *
 * Key 0 means "empty slot" and is never stored. The table keeps its load at
 * or below 1/2 and grows by doubling. No locks: each table belongs to one
 * lock of its owner (see ipc.h).
 */
#include "ipc.h"

#include <errno.h>
#include <stdlib.h>

uint64_t
ipc_hash64(uint64_t x)
{
	/* splitmix64 finaliser */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

static size_t
slot_of(const struct ipc_map *m, uint64_t key)
{
	return (size_t)ipc_hash64(key) & (m->cap - 1);
}

void *
ipc_map_get(const struct ipc_map *m, uint64_t key)
{
	if (!m->cap || !key)
		return NULL;
	for (size_t i = slot_of(m, key);; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == key)
			return m->vals[i];
		if (!m->keys[i])
			return NULL;
	}
}

static int
grow(struct ipc_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 16;
	uint64_t *keys = calloc(cap, sizeof(*keys));
	void **vals = calloc(cap, sizeof(*vals));
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -ENOMEM;
	}
	struct ipc_map n = { keys, vals, cap, 0 };
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		size_t j = slot_of(&n, m->keys[i]);
		while (n.keys[j])
			j = (j + 1) & (cap - 1);
		n.keys[j] = m->keys[i];
		n.vals[j] = m->vals[i];
		n.count++;
	}
	free(m->keys);
	free(m->vals);
	*m = n;
	return 0;
}

int
ipc_map_put(struct ipc_map *m, uint64_t key, void *val)
{
	if (!key || !val)
		return -EINVAL;
	if (m->cap) {
		/* Replacing never allocates. */
		size_t i = slot_of(m, key);
		for (; m->keys[i]; i = (i + 1) & (m->cap - 1)) {
			if (m->keys[i] == key) {
				m->vals[i] = val;
				return 0;
			}
		}
	}
	if ((m->count + 1) * 2 > m->cap) {
		int err = grow(m);
		if (err)
			return err;
	}
	size_t i = slot_of(m, key);
	while (m->keys[i])
		i = (i + 1) & (m->cap - 1);
	m->keys[i] = key;
	m->vals[i] = val;
	m->count++;
	return 0;
}

void *
ipc_map_del(struct ipc_map *m, uint64_t key)
{
	if (!m->cap || !key)
		return NULL;
	size_t mask = m->cap - 1, i = slot_of(m, key);
	while (m->keys[i] != key) {
		if (!m->keys[i])
			return NULL;
		i = (i + 1) & mask;
	}
	void *val = m->vals[i];
	/* Backward shift: pull later members of the probe run into the hole
	 * when their home slot allows it. */
	size_t hole = i;
	for (size_t j = (i + 1) & mask; m->keys[j]; j = (j + 1) & mask) {
		size_t home = slot_of(m, m->keys[j]);
		/* Is home cyclically outside (hole, j]? Then move j. */
		bool move = hole <= j ? (home <= hole || home > j)
				      : (home <= hole && home > j);
		if (move) {
			m->keys[hole] = m->keys[j];
			m->vals[hole] = m->vals[j];
			hole = j;
		}
	}
	m->keys[hole] = 0;
	m->vals[hole] = NULL;
	m->count--;
	return val;
}

void
ipc_map_clear(struct ipc_map *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = 0;
	m->count = 0;
}

void
ipc_map_each(const struct ipc_map *m, void (*fn)(uint64_t, void *, void *),
	     void *arg)
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->keys[i])
			fn(m->keys[i], m->vals[i], arg);
}
