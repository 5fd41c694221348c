// SPDX-License-Identifier: MIT
/*
 * vmm_private: internals of driver/vmm, grouped by owning file (vmm.h has
 * the vocabulary, the page-size rule and the lock rule).
 *
 * Objects:
 *   struct _ze_physical_mem_handle_t  one physical object (vmm_phys.c);
 *   struct vmm_resv                   one reservation, with its pieces
 *                                     sorted by address (vmm_resv.c);
 *   struct vmm_map                    one piece (vmm_map.c edits them).
 *
 * Invariants (under vmm_lock):
 *   - reservations never overlap; vmm_resvs is sorted by base;
 *   - the pieces of a reservation never overlap and lie inside it; the
 *     pieces of one mapping (same map_id) are adjacent in the array and in
 *     memory, so a mapping is never cut (Unmap takes whole mappings);
 *   - phys->pieces counts the pieces that reference phys; an object with
 *     pieces is not destroyed;
 *   - every byte of a reservation is either placeholder (PROT_NONE private
 *     anonymous) or inside exactly one piece, mapped from phys->fd at the
 *     piece's offset with the piece's access.
 */
#ifndef ZEMEM_VMM_PRIVATE_H
#define ZEMEM_VMM_PRIVATE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "amap/amap.h"
#include "vmm.h"

#define VMM_TOPIC "vmm"
#define VMM_PHYS_MAGIC 0x7a6d7068u /* "zmph" */
#define VMM_ID_BIT (1ull << 63)    /* ids never equal a USM id */
#define VMM_KIB ((size_t)1 << 10)
#define VMM_MIB ((size_t)1 << 20)

struct _ze_physical_mem_handle_t {
	uint32_t magic;                   /* VMM_PHYS_MAGIC while live */
	int fd;                           /* memfd, sealed to its size */
	size_t size;
	size_t page;                      /* mapping granularity */
	bool on_host;
	bool imported;                    /* from an fd (charged to no budget) */
	struct _ze_device_handle_t *dev;  /* NULL: host, no device */
	struct _ze_context_handle_t *ctx;
	uint64_t id;                      /* VMM_ID_BIT | serial */
	size_t pieces;                    /* pieces mapping it (vmm_lock) */
};

struct vmm_map {
	uintptr_t va;
	size_t size;
	struct _ze_physical_mem_handle_t *phys;
	size_t offset;                    /* object offset of va */
	uint64_t map_id;                  /* the Map call it comes from */
	ze_memory_access_attribute_t access;
};

struct vmm_resv {
	uintptr_t base;
	size_t size;
	struct _ze_context_handle_t *ctx;
	struct vmm_map *maps;             /* sorted by va */
	size_t nmaps, cap;
};

/* ---- vmm_resv.c ----------------------------------------------------- */

extern pthread_rwlock_t vmm_lock;
/* Next serial for ids (under vmm_lock as writer). */
uint64_t vmm_next_serial(void);
/* The reservation of ctx (NULL: of any context) that holds all of
 * [a, a + size), or NULL. */
struct vmm_resv *vmm_resv_find(struct _ze_context_handle_t *ctx, uintptr_t a,
			       size_t size);
/* The one place -errno becomes a ze_result_t for vmm: -EBUSY is
 * HANDLE_OBJECT_IN_USE, -EEXIST / -ENXIO are INVALID_ARGUMENT, the rest
 * as drv_result(). */
ze_result_t vmm_result(int err);

/* ---- vmm_map.c ------------------------------------------------------ */

/* Index of the first piece of r that ends after a (r->nmaps if none). */
size_t vmm_map_first_after(const struct vmm_resv *r, uintptr_t a);
/* What the address map holds for the mapping m (one Map call) of ctx:
 * the vmm_usm_info of its pages. Needs vmm_lock. */
void vmm_map_info(struct _ze_context_handle_t *ctx, const struct vmm_map *m,
		  struct usm_info *out);
/* Drops every piece of r (unreferencing their objects) and its mappings
 * from the address map; the caller unmaps the memory. */
void vmm_map_drop_all(struct vmm_resv *r);
/* The mapping (all pieces of one map_id) around piece i: [*lo, *hi). */
void vmm_map_extent(const struct vmm_resv *r, size_t i, size_t *lo,
		    size_t *hi);

/* ---- vmm_phys.c ----------------------------------------------------- */

/* The live physical object h of any context, or NULL (registry lookup;
 * h is not dereferenced unless it is registered). Needs vmm_lock. */
struct _ze_physical_mem_handle_t *vmm_phys_lookup(ze_physical_mem_handle_t h);
/* Destroys every physical object of ctx, mapped or not (the caller has
 * dropped the pieces first). Needs vmm_lock as writer. */
size_t vmm_phys_destroy_ctx(struct _ze_context_handle_t *ctx);
/* Fills info from a live object (needs vmm_lock). */
void vmm_phys_fill_info(const struct _ze_physical_mem_handle_t *p,
			struct vmm_phys_info *info);

/* ---- vmm_os.c ------------------------------------------------------- */

/* A placeholder exactly at hint: 0, -EEXIST when something is there. */
int vmm_os_reserve_at(void *hint, size_t size);
int vmm_os_protect(void *va, size_t size, int prot);
/* memfd of size bytes named name, sealed against shrinking and growing,
 * close-on-exec. fd or -errno. */
int vmm_os_memfd(const char *name, size_t size);
/* PROT_* of an access attribute (valid values only). */
int vmm_os_prot(ze_memory_access_attribute_t access);

#endif
