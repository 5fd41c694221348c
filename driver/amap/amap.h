// SPDX-License-Identifier: MIT
/*
 * amap: the driver's one address map. Every range of address space the
 * driver hands out is in it, with its kind and its owner, and one lookup
 * (amap_find) answers "what is this pointer" for zeMemFree,
 * zeMemGetAllocProperties, zeMemGetAddressRange, the copy engine's range
 * checks and zeMemGetIpcHandle / zeMemCloseIpcHandle.
 *
 * Vocabulary:
 *   kind    what the range is (enum amap_kind) and so which module owns
 *           it: a USM block (driver/usm), an import of an IPC handle or of
 *           an external fd (ipc_import.c), a physical-range import
 *           (ipc_phys.c), a virtual reservation or one zeVirtualMemMap
 *           mapping inside it (driver/vmm);
 *   entry   one registered range: [base, base + size), its kind, its
 *           owner's record (opaque here) and what zeMemGetAllocProperties
 *           answers for it (a struct usm_info: kind, id, page size,
 *           context, device, backing fd and offset);
 *   layer   USM blocks are the USM part of the map as they stand: the
 *           allocator's own pointer index (usm_query: O(1) from any
 *           interior pointer, the fast paths of usm_fast.h read it inline),
 *           asked first; every other range is an entry here, in one of two
 *           sorted arrays (binary search, O(log n)): regions (imports and
 *           reservations, never overlapping) and mappings (VMM_MAP, each
 *           inside a VMM_RESV region, never overlapping each other). A
 *           pointer in a mapping is answered with the mapping.
 *
 * The owner registers a range once it is usable and unregisters it before
 * it goes away; it keeps its own records (and its own lock) for the
 * operations on them, amap only says what a pointer is. An answer is a
 * copy: a range unregistered concurrently may still be answered once, as
 * with any lookup that races with a free.
 *
 * Locking: amap_lock (a u_lock: lookups and changes alike) is a leaf:
 * owners register and unregister under their own locks, nothing is called
 * with it held. Fork: its handlers are registered at amap_init (before
 * any other driver handler, so it is taken last and released first).
 *
 * Errors: 0 or -errno.
 */
#ifndef ZEMEM_AMAP_H
#define ZEMEM_AMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drv_core.h"

enum amap_kind {
	AMAP_NONE = 0,    /* no range of the driver: system memory */
	AMAP_USM_BLOCK,   /* a USM allocation (driver/usm) */
	AMAP_IPC_IMPORT,  /* zeMemOpenIpcHandle, or an external-fd import */
	AMAP_PHYS_IMPORT, /* zeMemOpenIpcHandle of a physical-range handle */
	AMAP_VMM_RESV,    /* a zeVirtualMemReserve range, not mapped there */
	AMAP_VMM_MAP,     /* one zeVirtualMemMap mapping */
	AMAP_KIND_COUNT,
};

/* What the map says of a pointer. */
struct amap_hit {
	enum amap_kind kind;
	void *owner;          /* the owner's record (NULL for USM) */
	bool external;        /* IPC_IMPORT from ze_external_memory_import_fd_t */
	/* base, size (of the block, import, reservation or mapping), ctx,
	 * and for every kind but VMM_RESV what zeMemGetAllocProperties
	 * answers: kind, id, page_size, dev; for USM every field of
	 * usm_query; for VMM_MAP also fd and fd_offset (vmm.h). */
	struct usm_info info;
};

/* Once, at driver init, before any other fork handler of the driver is
 * registered: amap's fork handlers. USM lookups go to drv_driver.heap. */
void amap_init(void);

/* Registers a range of kind (not USM_BLOCK, not NONE) described by
 * info (base, size, ctx, and the properties above), for owner. 0,
 * -EINVAL (empty, wrapping, or overlapping a range of its layer), or
 * -ENOMEM. */
int amap_add(enum amap_kind kind, const struct usm_info *info, void *owner,
	     bool external);
/* Unregisters the range of kind based at base: 0 or -ENOENT. */
int amap_del(enum amap_kind kind, const void *base);
/* The region holding p (as amap_region), taken out of the map when
 * ok(&hit, arg) returns 0, all under one lock: ok's result (the owner's
 * checks), or -ENOENT when no region holds p. ok runs under amap_lock
 * and must not call amap. */
int amap_take_if(const void *p, int (*ok)(const struct amap_hit *, void *),
		 void *arg, struct amap_hit *out);
/* Unregisters every VMM_MAP inside [base, base + size) (a reservation
 * being freed): how many. */
size_t amap_del_maps(const void *base, size_t size);

/* Takes every entry of kind whose context is ctx out of the map: *owners
 * (malloc'ed, the caller frees it; NULL when none) gets their owners, *n
 * how many. -ENOMEM: nothing taken. */
int amap_take_ctx(enum amap_kind kind, struct _ze_context_handle_t *ctx,
		  void ***owners, size_t *n);

/* The one lookup: what p is (any interior byte). 0 and *out, or
 * -ENOENT (out->kind = AMAP_NONE). */
int amap_find(const void *p, struct amap_hit *out);

/* The region (import or reservation; not a mapping inside it) holding
 * p: what a reservation's owner asks to find its record. 0 or -ENOENT. */
int amap_region(const void *p, struct amap_hit *out);

/* What [p, p + size) is to a copy (size >= 1, no wrap): */
enum amap_span {
	AMAP_SPAN_NONE, /* p is in no range of ctx (nor in any USM block) */
	AMAP_SPAN_IN,   /* the whole range is usable memory of one kind: a
			 * USM block, an import, or adjacent mappings of one
			 * reservation */
	AMAP_SPAN_PAST, /* it starts in such memory and runs past it (or
			 * into a reservation's unmapped pages) */
};
/* USM blocks of any context count; imports and reservations of ctx only
 * (another context's are system memory to it). *hit says where p is. */
enum amap_span amap_span(struct _ze_context_handle_t *ctx, const void *p,
			 size_t size, struct amap_hit *hit);

/* Entries of each kind (tests, stats). */
void amap_counts(size_t out[AMAP_KIND_COUNT]);

/* The kind's name, for messages ("USM", "IPC-imported", ...). */
const char *amap_kind_name(enum amap_kind kind);

#endif
