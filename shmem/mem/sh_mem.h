// SPDX-License-Identifier: MIT
/*
 * sh_mem.h: the memory floor (mem/): the heap and its chunks, the
 * sub-allocator, the program's static data, and the symmetric-address
 * map (sh_symmap.c) every lookup of a symmetric address goes through.
 */
#ifndef ZEMEM_SH_MEM_H
#define ZEMEM_SH_MEM_H

#include "sh_boot.h"

/* ---- heap and allocator (sh_heap.c, sh_alloc.c) ------------------------ */

/* Bytes of chunk 0 kept for the runtime (barriers, team slots, ...). */
#define SH_CTRL_SIZE (64 * 1024)
#define SH_DEFAULT_ALIGN 128
#define SH_MAX_CHUNKS 64
#define SH_MAX_TEAMS 64      /* team slots in the control block */
#define SH_BAR_ROUNDS 16     /* dissemination rounds: teams up to 65536 */

/* The control block: the first SH_CTRL_SIZE bytes of every PE's heap.
 * Peers write into it through their mapping of this PE's heap; the
 * futex words are in shared memory (FUTEX_WAIT without _PRIVATE).
 *   sleepers/wait_off/doorbell  a data wait (wait_until, signal waits)
 *             of this PE that sleeps adds itself to sleepers, names the
 *             heap offset it waits on in wait_off (SH_WAIT_STATIC + its
 *             offset for a static-data word; SH_WAIT_ANY when two
 *             waits sleep at once or the word is not in the heap), and
 *             sleeps on doorbell; a writer (put, AMO, signal) that sees
 *             sleepers != 0 after its store and a full fence, and a
 *             wait_off inside what it wrote, bumps doorbell and
 *             FUTEX_WAKEs it. Puts into other words wake nobody.
 *   bar_sleepers/bar_doorbell  the same for barrier rounds (woken by
 *             barrier arrivals only).
 *   team_mask the team slots this PE uses (read by the parent's PEs when
 *             a split picks the new team's slot).
 *   slot_epoch per team slot, the last epoch this PE reached in it (left
 *             there when its team was destroyed; a split starts the new
 *             team of the slot above every member's).
 *   sym       {offset, size} of the last collective allocation, by
 *             parity of the allocation count (ZESHMEM_CHECK_SYMMETRY).
 *   bar       per team slot, per dissemination round: the epoch of the
 *             last barrier whose round-r message reached this PE. */
struct sh_ctrl {
	uint32_t magic;
	uint32_t pad0[15];
	uint32_t sleepers;
	uint32_t pad1;
	uint64_t wait_off;
	uint32_t pad2[12];
	uint32_t doorbell;
	uint32_t pad3[15];
	uint32_t bar_sleepers;
	uint32_t pad4[15];
	uint32_t bar_doorbell;
	uint32_t pad5[15];
	uint64_t team_mask;
	uint64_t sym[2][2];
	uint64_t padt[3];
	uint32_t slot_epoch[SH_MAX_TEAMS];
	uint8_t padx[4096 - 384 - 4 * SH_MAX_TEAMS];
	struct {
		struct {
			uint32_t epoch;
			uint32_t pad[7];
		} round[SH_BAR_ROUNDS];
	} bar[SH_MAX_TEAMS];
};
#define SH_CTRL_MAGIC 0x7a736863u /* "zshc" */
#define SH_WAIT_ANY UINT64_MAX
_Static_assert(sizeof(struct sh_ctrl) <= SH_CTRL_SIZE, "control block");

struct sh_chunk {
	uint64_t off, size;               /* in the reservation */
	ze_physical_mem_handle_t phys;
};

struct sh_heap {
	char *base;                       /* reservation base = chunk 0 */
	size_t reserved;                  /* the VA window */
	size_t size;                      /* mapped: sum of chunks */
	size_t chunk0_size;
	unsigned nchunks;
	struct sh_chunk chunk[SH_MAX_CHUNKS];
	size_t max_align;                 /* largest alignment honoured */
	struct sh_alloc *alloc;
	uint64_t nallocs;                 /* collective allocation count */
	bool on_host;                     /* ZESHMEM_HEAP_MEMORY=host */
};
SH_HIDDEN extern struct sh_heap sh_heap;

SH_HIDDEN int sh_heap_init(void);
SH_HIDDEN void sh_heap_fini(void);
/* Collective (over the bootstrap): every PE maps one more chunk of at
 * least min_bytes (the same size everywhere) and registers it in the
 * symmetric-address map; *k is its index. The caller (team/
 * sh_symalloc.c) then opens the peers' copies (the transports) and
 * gives it to the allocator. 0 or -errno, the same on every PE. */
SH_HIDDEN int sh_heap_grow(size_t min_bytes, unsigned *k);
SH_HIDDEN struct sh_ctrl *sh_ctrl_local(void);

/* Local heap: [base, base + size) is every byte peers may address
 * (control block included); grows by chunks inside a collective call. */
SH_HIDDEN void *sh_heap_base(void);
SH_HIDDEN size_t sh_heap_size(void);
/* Offset of a local address in the heap, or -EFAULT when [p, p+len) is not
 * wholly inside the heap (len 0: p itself must be inside). */
SH_HIDDEN ptrdiff_t sh_heap_offset(const void *p, size_t len);


/* The sub-allocator itself (sh_alloc.c; no runtime state, unit-tested on
 * its own). Offsets and sizes in bytes, multiples of SH_ALLOC_GRANULE;
 * regions never merge (a block lies in one chunk). 0 or -errno:
 * -EINVAL bad argument / unknown offset, -ENOMEM nothing fits. */
#define SH_ALLOC_GRANULE 128
struct sh_alloc;
struct sh_alloc_stats {
	uint64_t total, used, largest_free;
	uint64_t free_blocks, used_blocks, regions;
};
SH_HIDDEN int sh_alloc_create(struct sh_alloc **out);
SH_HIDDEN void sh_alloc_destroy(struct sh_alloc *a);
SH_HIDDEN int sh_alloc_add(struct sh_alloc *a, uint64_t off, uint64_t size);
SH_HIDDEN int sh_alloc_alloc(struct sh_alloc *a, size_t size, size_t align,
			     uint64_t *off);
SH_HIDDEN int sh_alloc_free(struct sh_alloc *a, uint64_t off);
/* Usable bytes of the block at off, or -EINVAL. */
SH_HIDDEN int64_t sh_alloc_size(const struct sh_alloc *a, uint64_t off);
/* Grows or shrinks the block at off in place: 0, -ENOMEM (no room). */
SH_HIDDEN int sh_alloc_resize(struct sh_alloc *a, uint64_t off, size_t size);
SH_HIDDEN void sh_alloc_stats(const struct sh_alloc *a,
			      struct sh_alloc_stats *st);

/* ---- the symmetric-address map (sh_symmap.c) ------------------------ */

/* The kinds of region; sh_sym_kind answers one of them. */
enum sh_sym_kind {
	SH_SYM_HEAP,      /* a heap chunk (chunk 0 less the control block) */
	SH_SYM_CTRL,      /* the control block: the runtime's words only */
	SH_SYM_STATIC,    /* the program's static data */
	SH_SYM_ALIAS,     /* a symmetric registration's alias */
	SH_SYM_STRIDE,    /* a stride registration: the program maps peers */
	SH_SYM_LOCAL,     /* a local registration: a local side only */
};
#define SH_SYM_BIT(k) (1u << (k))

/* pe's network side of a region: its key and MR base (libfabric). */
struct sh_sym_net {
	uint64_t key, base;
};

/* One region (sh_symmap.c says what each field means). Registrations
 * are owned by their module, which embeds this struct in its record. */
struct sh_region {
	enum sh_sym_kind kind;
	uintptr_t lo;                     /* the bytes API calls may name */
	size_t len;
	uintptr_t origin;                 /* what views and bases stand for */
	uintptr_t user;                   /* ALIAS: the program's buffer */
	char **view;                      /* [npes] or NULL */
	struct sh_sym_net *net;           /* [npes] or NULL */
	void *desc;                       /* this PE's NIC descriptor */
	uint64_t wait_base;               /* wait id of origin, or ANY */
	int first, n;                     /* STRIDE: world PEs first.. */
	ptrdiff_t stride;                 /* STRIDE: pe's copy's distance */
	struct sh_region *next;           /* registrations: the list */
};

struct sh_symmap {
	uintptr_t heap_lo, heap_len;      /* the heap's mapped window */
	struct sh_region ctrl;
	struct sh_region heap[SH_MAX_CHUNKS];
	unsigned nheap;                   /* published with release */
	struct sh_region stat;            /* len 0: no static data */
	struct sh_region *list;           /* registrations, under lock */
	pthread_rwlock_t lock;
};
SH_HIDDEN extern struct sh_symmap sh_symmap;

/* Where this PE reaches pe's copy of the local symmetric address p:
 * NULL when pe is out of range or reached over the network, when
 * [p, p + len) (len 0: p) is not wholly inside one region, or the region
 * is the control block (no API call reaches it) or a local
 * registration. pe == me: p itself. Never a pointer outside pe's region. */
SH_HIDDEN void *sh_remote_ptr(const void *p, size_t len, int pe);

/* The hot path of sh_remote_ptr: the user part of chunk 0, inline (pe
 * must be in range: the callers checked it). */
static inline void *
sh_remote_fast(const void *p, size_t len, int pe)
{
	const struct sh_region *r = &sh_symmap.heap[0];
	uintptr_t off = (uintptr_t)p - r->lo;
	char *b = r->view[pe];
	if (off < r->len && len <= r->len - off && b)
		return b + SH_CTRL_SIZE + off;
	return sh_remote_ptr(p, len, pe);
}

/* The network side of [p, p + len) for pe: the offset of p from the
 * region's origin and pe's key and base (the remote address is base +
 * off with FI_MR_VIRT_ADDR, off without). The control block counts (the
 * runtime's barriers reach it); an alias only for network peers (and
 * me). 0, or -EFAULT (no region, or no network side for pe). */
struct sh_sym_reach {
	uint64_t off, key, base;
};
SH_HIDDEN int sh_sym_net(const void *p, size_t len, int pe,
			 struct sh_sym_reach *out);
/* This PE's NIC descriptor of the region holding [p, p + len) (len 0: p;
 * local registrations too), or NULL. */
SH_HIDDEN void *sh_sym_desc(const void *p, size_t len);
/* The wait id of the word at p (the control block's wait_off): its heap
 * offset, SH_WAIT_STATIC + its offset in the static data, else
 * SH_WAIT_ANY. */
SH_HIDDEN uint64_t sh_sym_wait_id(const void *p);
/* The kind of the region holding [p, p + len) (len 0: p), or -EFAULT. */
SH_HIDDEN int sh_sym_kind(const void *p, size_t len);

/* Registering. The heap (sh_heap.c): chunk k (k = how many so far) at
 * origin, size bytes; chunk 0's first SH_CTRL_SIZE bytes become the
 * control block. set_net: the network transport's keys/bases ([npes],
 * owned by it) and descriptor of chunk k (NULL, NULL to clear). clear:
 * finalize. 0, -EINVAL, -ENOMEM. */
SH_HIDDEN int sh_sym_heap_add(unsigned k, char *origin, size_t size);
SH_HIDDEN void sh_sym_heap_set_net(unsigned k, struct sh_sym_net *net,
				   void *desc);
SH_HIDDEN void sh_sym_heap_clear(void);
/* The static data (sh_static.c): [lo, lo + len) addressable, view[pe]
 * maps pe's origin (owned by sh_static.c); set_net as for the heap. */
SH_HIDDEN void sh_sym_static_set(uintptr_t lo, size_t len, uintptr_t origin,
				 char **view);
SH_HIDDEN void sh_sym_static_set_net(struct sh_sym_net *net, void *desc);
SH_HIDDEN void sh_sym_static_clear(void);
/* Registrations (team/sh_register.c), in a list under the map's lock;
 * each embeds its struct sh_region first in its own record.
 *   add      r (its fields set; wait_base SH_WAIT_ANY): 0, or -EEXIST
 *            when it overlaps a registration of one of clash (an
 *            SH_SYM_BIT mask; an alias's user buffer counts too);
 *   overlap  the registration of one of kinds [p, p + len) overlaps, or
 *            NULL (a message may name it; it may go once unlocked);
 *   listed   the registration of one of kinds starting at lo, or NULL
 *            (the caller is the only one that removes it);
 *   take     removes and returns it; take_kinds removes every one of
 *            kinds, returns them (a list through next);
 *   count    how many of kinds. */
SH_HIDDEN int sh_sym_add(struct sh_region *r, unsigned clash);
SH_HIDDEN const struct sh_region *sh_sym_overlap(const void *p, size_t len,
						 unsigned kinds);
SH_HIDDEN struct sh_region *sh_sym_listed(const void *lo, unsigned kinds);
SH_HIDDEN struct sh_region *sh_sym_take(const void *lo, unsigned kinds);
SH_HIDDEN struct sh_region *sh_sym_take_kinds(unsigned kinds);
SH_HIDDEN unsigned sh_sym_count(unsigned kinds);
/* ---- static data (sh_static.c) ----------------------------------------- */

/* The program's global and static variables (its writable PT_LOAD
 * segment less RELRO) as symmetric memory. [data_lo, data_lo + data_len)
 * is what API calls may address; [map_lo, map_lo + map_len) (page-
 * rounded, data_lo's page first) is what is shared: on one node, a memfd
 * mapped MAP_FIXED over the segment at init (sh_static_swap, before the
 * bootstrap and the driver: no ptrace rights needed), its peers' copies mapped from
 * /proc/<pid>/fd/<n>; over libfabric, one more MR (sh_ofi.c). on:
 * symmetric on every PE (all or nothing, decided at init). Limits: the
 * executable's data only (shared libraries' is not symmetric), PIE or
 * not; the same program on every PE (else init fails naming the PE);
 * threads started before shmem_init must not write static data during
 * init. */
struct sh_static {
	uintptr_t map_lo, data_lo;
	size_t map_len, data_len;
	uint64_t link_lo;                 /* map_lo before relocation */
	bool on, swapped;
	bool off;                         /* ZESHMEM_STATIC_DATA=0 */
	int fd;                           /* the memfd until peers opened it */
	char **view;                      /* [npes]: pe's map_lo as mapped here */
	const char *why;                  /* not symmetric: why (or NULL) */
};
SH_HIDDEN extern struct sh_static sh_static;
/* Wait offsets of static words (ctrl->wait_off): SH_WAIT_STATIC + the
 * offset from map_lo; heap words use their heap offset. */
#define SH_WAIT_STATIC (1ull << 62)
/* First in sh_init: finds the segment and, when the job may have more
 * than one PE (uid with nranks > 1, PMIX_RANK, ZESHMEM_NRANKS > 1), puts
 * it on a memfd; failures only warn (sh_static_init decides). */
SH_HIDDEN int sh_static_swap(const void *uid, int nranks);
SH_HIDDEN int sh_static_init(void);
SH_HIDDEN void sh_static_fini(void);

#endif
