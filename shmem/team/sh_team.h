// SPDX-License-Identifier: MIT
/*
 * sh_team.h: the team floor (team/): teams, collectives, locks, the
 * collective allocation calls and buffer registration.
 */
#ifndef ZEMEM_SH_TEAM_H
#define ZEMEM_SH_TEAM_H

#include "sh_ctx.h"

/* ---- teams and collectives' synchronisation (sh_team.c) ---------------- */

/* Init/finalize of the teams world and shared (init/sh_init.c's order). */
SH_HIDDEN int sh_team_init(void);
SH_HIDDEN void sh_team_fini(void);

struct sh_team_cfg {
	int num_contexts;
};

SH_HIDDEN extern struct sh_team *sh_team_world, *sh_team_shared;
/* The team handle names when it is a team that exists (world, shared, or
 * made by a split and not destroyed), else NULL: destroyed and forged
 * handles are told apart without reading their memory. */
SH_HIDDEN struct sh_team *sh_team_live(const void *handle);
SH_HIDDEN int sh_team_my_pe(const struct sh_team *t);
SH_HIDDEN int sh_team_n_pes(const struct sh_team *t);
/* PE of team t at index i in the world, -1 when out of range. */
SH_HIDDEN int sh_team_world_pe(const struct sh_team *t, int i);
SH_HIDDEN int sh_team_translate(const struct sh_team *src, int pe,
				const struct sh_team *dst);
/* Collective over parent; *out = NULL for PEs outside the new team. */
SH_HIDDEN int sh_team_split_strided(struct sh_team *parent, int start,
				    int stride, int size,
				    const struct sh_team_cfg *cfg,
				    long cfg_mask, struct sh_team **out);
SH_HIDDEN int sh_team_split_2d(struct sh_team *parent, int xrange,
			       const struct sh_team_cfg *xcfg, long xmask,
			       struct sh_team **x,
			       const struct sh_team_cfg *ycfg, long ymask,
			       struct sh_team **y);
SH_HIDDEN int sh_team_get_config(const struct sh_team *t, long mask,
				 struct sh_team_cfg *cfg);
SH_HIDDEN void sh_team_destroy(struct sh_team *t);
/* barrier = quiet + sync; sync = arrive/wait of the team's PEs only. */
SH_HIDDEN int sh_team_sync(struct sh_team *t);
SH_HIDDEN int sh_barrier(struct sh_team *t);


/* ---- collectives (sh_coll.c) ------------------------------------------ */

/* The team's slot in the control block (its barrier words; sh_coll.c's
 * mailbox words). */
SH_HIDDEN int sh_team_slot(const struct sh_team *t);

/* Per team slot, SH_COLL_WORDS 64-bit words of the control block for the
 * collectives' messages (sh_coll.c), after struct sh_ctrl. */
#define SH_COLL_WORDS 32
#define SH_COLL_CTRL_OFF (SH_CTRL_SIZE - SH_MAX_TEAMS * SH_COLL_WORDS * 8)
_Static_assert(sizeof(struct sh_ctrl) <= SH_COLL_CTRL_OFF, "coll words");

/* A 1.4 active set: the PEs start + i * stride, i < size, with the
 * program's pSync (symmetric, SHMEM_SYNC_VALUE on entry and on return);
 * sh_coll_aset checks it: 0, -EINVAL (out of the job, this PE not in it,
 * pSync not symmetric). */
struct sh_aset {
	int start, stride, size;
	long *psync;
};
SH_HIDDEN int sh_coll_aset(int start, int log_stride, int size, long *psync,
			   struct sh_aset *out);
/* acc[i] = x[i] op y[i] for n elements, x == acc (in place) or x
 * disjoint from acc; y disjoint from acc (the faces make one per type and
 * operation). */
typedef void (*sh_coll_op)(void *acc, const void *x, const void *y,
			   size_t n);
/* Every collective runs on a team (a != NULL: on the active set a
 * instead) and is called by all its members with the same arguments.
 * dest and src are symmetric (checked up front on every PE alike:
 * -EFAULT); root is an index in the group (-EINVAL out of range).
 * bcast: root_too: the root's dest gets the data too (1.5 teams).
 * collect: fixed 1: every PE gives nbytes (fcollect); 0: its own count,
 * concatenated in group order. reduce: dest == src allowed.
 * 0 or -errno (-EHOSTDOWN / -ETIMEDOUT a member ended / does not answer). */
SH_HIDDEN int sh_coll_sync(struct sh_team *t, const struct sh_aset *a,
			   bool quiet);
SH_HIDDEN int sh_coll_bcast(struct sh_team *t, const struct sh_aset *a,
			    void *dest, const void *src, size_t nbytes,
			    int root, bool root_too);
SH_HIDDEN int sh_coll_collect(struct sh_team *t, const struct sh_aset *a,
			      void *dest, const void *src, size_t nbytes,
			      bool fixed);
SH_HIDDEN int sh_coll_alltoall(struct sh_team *t, const struct sh_aset *a,
			       void *dest, const void *src, size_t nbytes);
SH_HIDDEN int sh_coll_alltoalls(struct sh_team *t, const struct sh_aset *a,
				void *dest, const void *src, ptrdiff_t dst,
				ptrdiff_t sst, size_t nelems, size_t esize);
SH_HIDDEN int sh_coll_reduce(struct sh_team *t, const struct sh_aset *a,
			     void *dest, const void *src, size_t nelems,
			     size_t esize, sh_coll_op op);



/* Distributed locks (sh_lock.c) on a symmetric long: an MCS queue whose
 * tail is in PE 0's copy, each PE's own copy its queue node. 0 or
 * -errno; sh_lock_test: 0 acquired, 1 held by another PE. */
SH_HIDDEN int sh_lock_set(long *lock);
SH_HIDDEN int sh_lock_test(long *lock);
SH_HIDDEN int sh_lock_clear(long *lock);

/* ---- collective allocation (sh_symalloc.c) ---------------------------- */

/* Collective allocation (malloc = allocate, then barrier; free = barrier,
 * then free). who names the API call for warnings. Return NULL (with a
 * warning on stderr naming who and the rule for invalid arguments) when it
 * cannot be satisfied; the barrier is entered on every path. The heap
 * grows (sh_heap_grow, the transports' add_chunk) when nothing fits. */
SH_HIDDEN void *sh_malloc(size_t size, size_t align, const char *who);
SH_HIDDEN void *sh_calloc(size_t count, size_t size, const char *who);
SH_HIDDEN void *sh_realloc(void *ptr, size_t size, const char *who);
SH_HIDDEN void sh_free(void *ptr, const char *who);

/* ---- buffer registration (sh_register.c: the rocSHMEM face's) -------- */

/* Local registration (rocshmem_buffer_register): [addr, addr + len) may be
 * the local side of RMA; with libfabric it is registered with the NIC once
 * (sh_tr_ofi_reg_local) and its descriptor used by every operation.
 * 0, -EINVAL (NULL, 0 or wrapping), -EEXIST (overlaps a registration),
 * -ENOMEM; del: -ENOENT when addr starts no registration. */
SH_HIDDEN int sh_lreg_add(void *addr, size_t len);
SH_HIDDEN int sh_lreg_del(void *addr);
SH_HIDDEN void sh_lreg_del_all(void);
/* Symmetric registration (rocshmem_buffer_register_symmetric): collective;
 * addr must be VMM memory (zeVirtualMemReserve + Map), addr and len
 * multiples of the VMM page size, len equal on every PE, no overlap with a
 * registration, fewer than ZESHMEM_MAX_SYMMETRIC_REGS live. Returns the
 * alias (a fresh mapping of the same physical memory), NULL on EVERY PE
 * when any PE's check failed (each says why on stderr, naming who). */
SH_HIDDEN void *sh_symreg_add(void *addr, size_t len, const char *who);
/* shmemx_set_ze_context: the program's context (NULL: none), in which
 * sh_symreg_add asks about and exports buffers. Any time. */
SH_HIDDEN void sh_symreg_set_ctx(ze_context_handle_t ctx);
/* Collective: quiet, agree, unmap every PE's view of the alias. 0, or
 * -ENOENT on every PE when some PE does not know its alias. */
SH_HIDDEN int sh_symreg_del(void *alias, const char *who);
/* A stride registration (rocshmem_buffer_register_vmm): [addr, addr +
 * len) is this PE's buffer of a group of n_pes consecutive PEs, this one
 * its my_pe; the program maps the group's PE first + i's copy at addr +
 * (i - my_pe) * stride here. 0; -EINVAL (a bad argument, the group not
 * inside the job, |stride| < len, overlapping the heap), -EEXIST (an
 * overlap with another registration), one warning naming who. */
SH_HIDDEN int sh_strreg_add(void *addr, size_t len, int my_pe, int n_pes,
			    ptrdiff_t stride, const char *who);
/* rocshmem_sym_buffer_register: the same registration, collective over
 * the job (every PE calls it, each with its own group): with libfabric
 * active each PE's buffer is also a memory region and every PE's key and
 * base are all-gathered, so PEs outside the group on other nodes reach
 * it over the network. All PEs return 0 or all an error (each says its
 * own reason; the others name the PE that refused). */
SH_HIDDEN int sh_strreg_add_sym(void *addr, size_t len, int my_pe,
				int n_pes, ptrdiff_t stride, const char *who);
/* Forgets the stride registration at addr (and its memory region): 0,
 * or -ENOENT. Not collective: the program ends the peers' use first. */
SH_HIDDEN int sh_strreg_del(void *addr);
/* Finalize: every registration released (before the transports). */
SH_HIDDEN void sh_reg_fini(void);

#endif
