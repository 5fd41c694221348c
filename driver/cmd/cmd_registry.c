// SPDX-License-Identifier: MIT
/*
 * cmd_registry: the set of live copy-engine objects, so a handle is only
 * dereferenced once it is known to be one of ours, alive, of the right type.
 *
 * Vocabulary:
 *   slot       one entry of an open-addressing hash table keyed by address:
 *              NULL (empty), TOMB (deleted) or an object;
 *   reference  objects are reference counted (struct cmd_obj.refs); the
 *              registry's lookup returns a new reference, so an object found
 *              here stays allocated until the caller puts it, even if another
 *              thread destroys the handle meanwhile.
 *
 * Locking: reg_lock protects the table. It is a leaf: nothing else is
 * locked while it is held, and release callbacks run after it is dropped.
 */
#include "cmd.h"

#include <errno.h>
#include <stdlib.h>

#define TOMB ((struct cmd_obj *)(uintptr_t)1)
#define MIN_SLOTS 64u

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cmd_obj **slots;  /* reg_lock */
static size_t nslots;           /* power of two (reg_lock) */
static size_t nused;            /* objects + tombstones (reg_lock) */
static size_t nlive;            /* objects (reg_lock) */

static size_t
hash_ptr(const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return (size_t)x;
}

/* Index of p in the table, or of the slot where it would go; reg_lock. */
static size_t
find_slot(const void *p, bool for_insert)
{
	size_t mask = nslots - 1, i = hash_ptr(p) & mask;
	size_t first_tomb = SIZE_MAX;
	for (;;) {
		struct cmd_obj *s = slots[i];
		if (!s)
			return for_insert && first_tomb != SIZE_MAX ? first_tomb
								    : i;
		if (s == TOMB) {
			if (first_tomb == SIZE_MAX)
				first_tomb = i;
		} else if ((const void *)s == p) {
			return i;
		}
		i = (i + 1) & mask;
	}
}

/* Rebuilds the table with room for at least `want` live objects. */
static int
rehash(size_t want)
{
	size_t n = MIN_SLOTS;
	while (n < want * 3)
		n <<= 1;
	struct cmd_obj **fresh = calloc(n, sizeof(*fresh));
	if (!fresh)
		return -ENOMEM;
	struct cmd_obj **old = slots;
	size_t oldn = nslots;
	slots = fresh;
	nslots = n;
	nused = 0;
	for (size_t i = 0; i < oldn; i++) {
		if (old[i] && old[i] != TOMB) {
			slots[find_slot(old[i], true)] = old[i];
			nused++;
		}
	}
	free(old);
	return 0;
}

int
cmd_reg_add(struct cmd_obj *o, enum cmd_type type,
	    void (*release)(struct cmd_obj *))
{
	o->magic = CMD_MAGIC;
	o->type = type;
	o->release = release;
	atomic_init(&o->refs, 1);
	pthread_mutex_lock(&reg_lock);
	if ((nused + 1) * 2 > nslots) {
		int err = rehash(nlive + 1);
		if (err) {
			pthread_mutex_unlock(&reg_lock);
			return err;
		}
	}
	size_t i = find_slot(o, true);
	if (slots[i] != o) {
		if (!slots[i])
			nused++;
		slots[i] = o;
		nlive++;
	}
	pthread_mutex_unlock(&reg_lock);
	return 0;
}

struct cmd_obj *
cmd_reg_get(const void *h, enum cmd_type type)
{
	struct cmd_obj *o = NULL;
	if (!h)
		return NULL;
	pthread_mutex_lock(&reg_lock);
	if (nslots) {
		size_t i = find_slot(h, false);
		struct cmd_obj *s = slots[i];
		if (s && s != TOMB && s->magic == CMD_MAGIC &&
		    s->type == (uint32_t)type) {
			atomic_fetch_add_explicit(&s->refs, 1,
						  memory_order_relaxed);
			o = s;
		}
	}
	pthread_mutex_unlock(&reg_lock);
	return o;
}

bool
cmd_reg_remove(struct cmd_obj *o)
{
	bool found = false;
	pthread_mutex_lock(&reg_lock);
	if (nslots) {
		size_t i = find_slot(o, false);
		if (slots[i] == o) {
			slots[i] = TOMB;
			nlive--;
			found = true;
		}
		if (nlive == 0) {
			/* Give the table back when the last object goes, so a
			 * process that is done with queues holds nothing. */
			free(slots);
			slots = NULL;
			nslots = nused = 0;
		}
	}
	pthread_mutex_unlock(&reg_lock);
	return found;
}

void
cmd_obj_ref(struct cmd_obj *o)
{
	atomic_fetch_add_explicit(&o->refs, 1, memory_order_relaxed);
}

void
cmd_obj_put(struct cmd_obj *o)
{
	if (!o)
		return;
	if (atomic_fetch_sub_explicit(&o->refs, 1, memory_order_acq_rel) ==
	    1) {
		o->magic = 0;
		o->release(o);
	}
}

size_t
cmd_reg_count(enum cmd_type type)
{
	size_t n = 0;
	pthread_mutex_lock(&reg_lock);
	for (size_t i = 0; i < nslots; i++)
		if (slots[i] && slots[i] != TOMB &&
		    slots[i]->type == (uint32_t)type)
			n++;
	pthread_mutex_unlock(&reg_lock);
	return n;
}
