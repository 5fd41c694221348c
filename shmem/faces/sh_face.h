// SPDX-License-Identifier: MIT
/*
 * sh_face.h: the faces' one private header. The faces (sh_face_*.c) are the
 * OpenSHMEM 1.5 names over the runtime (../sh.h): each API routine is a
 * thin call into sh_*, its typed variants generated from the type tables
 * of shmem.h (SHMEM_*_TYPES), never written out per type.
 *
 * Visibility: libzeshmem is built with hidden visibility; shmem.h and
 * shmemx.h are included here under visibility "default", so exactly the
 * routines they declare (and the handles SHMEM_TEAM_WORLD, ...) are
 * exported. zeshmem.map (the library's version script) is the second
 * fence: whatever else might be built with default visibility stays local.
 * tests/shmem/check_shmem_exports.py checks the result both ways.
 *
 * Errors: a routine with a result returns the API's result for bad input;
 * a void routine ends the PE with sh_fatal(): one line
 * "zeshmem: PE <me>: <routine>: <argument and what is wrong>" and exit 1.
 * The routine's name comes from __func__ of the API function itself.
 *
 * Handles: shmem_team_t and shmem_ctx_t are the runtime's struct sh_team *
 * and struct sh_ctx * cast; SHMEM_TEAM_INVALID / SHMEM_CTX_INVALID are NULL.
 * A team handle is looked up among the live teams before use (face_team):
 * a destroyed or forged one gets the routine's error result and one
 * warning, never a read of freed memory.
 */
#ifndef ZEMEM_SH_FACE_H
#define ZEMEM_SH_FACE_H

#pragma GCC visibility push(default)
#include "shmem.h"
#include "shmemx.h"
#pragma GCC visibility pop

#include "sh_init.h"

#include <errno.h>
#include <stdatomic.h>

#include "u_log.h"

#define FACE_HIDDEN SH_HIDDEN

/* rocshmem_dump_stats: this PE's counts of the rocshmem_ operations, one
 * relaxed increment per call (no ordering: only the totals matter). */
enum face_roc_stat {
	ROC_PUT, ROC_GET, ROC_AMO, ROC_SIGNAL, ROC_SYNC, ROC_COLL, ROC_NSTAT
};
FACE_HIDDEN extern _Atomic uint64_t face_roc_stats[ROC_NSTAT];
/* The runtime's comparison for a ROCSHMEM_CMP_* value; ends the PE for
 * anything else (sh_face_roc.c). */
FACE_HIDDEN int face_roc_cmp(const char *call, int cmp);
#define ROC_COUNT(k) \
	atomic_fetch_add_explicit(&face_roc_stats[k], 1, memory_order_relaxed)

/* The runtime's kind of a C type (sh_amo, sh_wait_until). */
#define FACE_KIND(T) \
	_Generic((T)0, float: SH_T_FLOAT, double: SH_T_FLOAT, \
		 long double: SH_T_FLOAT, \
		 default: ((T)-1 > (T)0 ? SH_T_UINT : SH_T_INT))

/* The cold ends of the checks (sh_face_init.c). */
FACE_HIDDEN _Noreturn void face_bad_pe(const char *call, int pe);
/* Ends the PE for a runtime error rc (< 0) of an operation on pe; what
 * names the symmetric argument (dest, source, ivar, sig_addr) and p its
 * value, for -EFAULT. */
FACE_HIDDEN _Noreturn void face_fail(const char *call, int rc, int pe,
				     const char *what, const void *p);

/* The runtime's team for handle t (a shmem_team_t or rocshmem_team_t):
 * NULL for the invalid team (NULL), and NULL with one warning naming the
 * call for a destroyed or forged handle (sh_team_live: its memory is
 * never read). */
static inline struct sh_team *
face_team(const char *call, const void *t)
{
	if (t == NULL)
		return NULL;
	struct sh_team *r = sh_team_live(t);
	if (__builtin_expect(r == NULL, 0))
		u_warn("shmem", "%s: team %p is not a team (destroyed, or "
		       "never made by a split)", call, t);
	return r;
}

/* The runtime's context for ctx; ends the PE for SHMEM_CTX_INVALID. */
static inline struct sh_ctx *
face_ctx(const char *call, shmem_ctx_t ctx)
{
	if (__builtin_expect(ctx == SHMEM_CTX_INVALID, 0))
		sh_fatal(call, "ctx is SHMEM_CTX_INVALID");
	return (struct sh_ctx *)ctx;
}

/* Ends the PE when pe is not a PE of the job (or shmem_init was not
 * called: n_pes is 0 then). */
static inline void
face_pe(const char *call, int pe)
{
	if (__builtin_expect(pe < 0 || pe >= sh.npes, 0))
		face_bad_pe(call, pe);
}

/* The world PE of pe as ctx numbers it (a context of a team: the team's
 * PE numbers); ends the PE when it is out of range. */
static inline int
face_cpe(const char *call, const struct sh_ctx *c, int pe)
{
	if (__builtin_expect(c->team != NULL, 0)) {
		int w = sh_team_world_pe(c->team, pe);
		if (w < 0)
			sh_fatal(call, "pe %d out of range (the context's team "
				 "has PEs 0..%d)", pe,
				 sh_team_n_pes(c->team) - 1);
		return w;
	}
	face_pe(call, pe);
	return pe;
}

/* nelems * esize, or the end of the PE when it overflows. */
static inline size_t
face_bytes(const char *call, size_t nelems, size_t esize)
{
	size_t n;
	if (__builtin_expect(__builtin_mul_overflow(nelems, esize, &n), 0))
		sh_fatal(call, "nelems %zu of %zu bytes overflows size_t",
			 nelems, esize);
	return n;
}

/* ---- the operations every typed routine calls (sh_face_rma.c, ...) ---- */

FACE_HIDDEN void face_put(const char *call, shmem_ctx_t ctx, void *dest,
			  const void *src, size_t nelems, size_t esize, int pe,
			  int nbi);
FACE_HIDDEN void face_get(const char *call, shmem_ctx_t ctx, void *dest,
			  const void *src, size_t nelems, size_t esize, int pe,
			  int nbi);
FACE_HIDDEN void face_iput(const char *call, shmem_ctx_t ctx, void *dest,
			   const void *src, ptrdiff_t dst, ptrdiff_t sst,
			   size_t nelems, size_t esize, int pe);
FACE_HIDDEN void face_iget(const char *call, shmem_ctx_t ctx, void *dest,
			   const void *src, ptrdiff_t dst, ptrdiff_t sst,
			   size_t nelems, size_t esize, int pe);
FACE_HIDDEN void face_put_signal(const char *call, shmem_ctx_t ctx,
				 void *dest, const void *src, size_t nelems,
				 size_t esize, uint64_t *sig_addr,
				 uint64_t signal, int sig_op, int pe, int nbi);
/* One atomic; fetched may be NULL. */
FACE_HIDDEN void face_amo(const char *call, shmem_ctx_t ctx,
			  enum sh_amo_op op, enum sh_type t, size_t esize,
			  void *dest, const void *value, const void *cond,
			  void *fetched, int pe);

/* Point synchronisation (sh_face_sync.c). status may be NULL (all
 * included); values has one value (vector 0) or nelems (vector 1). */
FACE_HIDDEN void face_wait_until(const char *call, void *ivar,
				 enum sh_type t, size_t esize, int cmp,
				 const void *value);
FACE_HIDDEN int face_test(const char *call, void *ivar, enum sh_type t,
			  size_t esize, int cmp, const void *value);
enum face_multi { FACE_ALL, FACE_ANY, FACE_SOME };
/* wait 1: block until the condition (ALL: every included ivar; ANY: one;
 * SOME: at least one, all satisfied reported). Returns ALL: 1 when
 * satisfied; ANY: the index or SIZE_MAX; SOME: the count (indices
 * filled). */
FACE_HIDDEN size_t face_multi(const char *call, enum face_multi kind,
			      int wait, void *ivars, size_t nelems,
			      size_t *indices, const int *status,
			      enum sh_type t, size_t esize, int cmp,
			      const void *values, int vector);

#endif
