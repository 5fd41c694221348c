// SPDX-License-Identifier: MIT
/*
 * sh_face_roc3.c: the rest of rocSHMEM 3.x's host API beside
 * sh_face_roc.c's: float/double and multi-ivar waits
 * (wait_until_all/any/some(_vector), 3.x's one-value forms), contexts
 * (create/destroy, fence/quiet; their RMA and atomics are sh_face_roc.c's
 * type-table routines), the ctx team collectives, the library's
 * information calls and rocshmem_dump_stats / reset_stats (face_roc_stats,
 * counted by every rocshmem_ routine).
 */
#include "sh_face.h"

#pragma GCC visibility push(default)
#include "rocshmem/rocshmem.h"
#pragma GCC visibility pop

#include <stdint.h>
#include <stdio.h>
#include <string.h>

_Atomic uint64_t face_roc_stats[ROC_NSTAT];

/* ---- waits ------------------------------------------------------------- */

/* float and double: the runtime's waits compare integers, so these wait
 * through sh_wait_pred with a predicate that compares the values. */
struct roc_fwait {
	const volatile void *ivar;
	int dbl, cmp;
	double val;
};

static bool
roc_fholds(void *arg)
{
	const struct roc_fwait *w = arg;
	double v = w->dbl ? *(const volatile double *)w->ivar
			  : *(const volatile float *)w->ivar;
	switch (w->cmp) {
	case ROCSHMEM_CMP_EQ: return v == w->val;
	case ROCSHMEM_CMP_NE: return v != w->val;
	case ROCSHMEM_CMP_GT: return v > w->val;
	case ROCSHMEM_CMP_GE: return v >= w->val;
	case ROCSHMEM_CMP_LT: return v < w->val;
	default: return v <= w->val;
	}
}

/* 1 when the condition holds (wait 0: tested once), else 0; wait 1
 * returns when it holds. Bad input ends the PE with one line. */
static int
roc_fwait(const char *call, const void *ivar, size_t esize, int cmp,
	  double val, int wait)
{
	sh_check_init(call);
	if (ivar == NULL || ((uintptr_t)ivar & (esize - 1)) != 0)
		sh_fatal(call, "ivar %p is not %zu-byte aligned", ivar, esize);
	(void)face_roc_cmp(call, cmp);
	if (sh_remote_ptr(ivar, esize, sh.me) == NULL)
		face_fail(call, -EFAULT, sh.me, "ivar", ivar);
	struct roc_fwait w = {ivar, esize == sizeof(double), cmp, val};
	ROC_COUNT(ROC_SYNC);
	if (!wait || roc_fholds(&w))
		return roc_fholds(&w);
	int rc = sh_wait_pred(roc_fholds, &w, -1);
	if (rc < 0)
		face_fail(call, rc, -1, "ivar", ivar);
	return 1;
}

#define DEF_FSYNC(T, N, A) \
	void rocshmem_##N##_wait_until(T *ivar, int cmp, T val) \
	{ \
		roc_fwait(__func__, ivar, sizeof(T), cmp, val, 1); \
	} \
	int rocshmem_##N##_test(T *ivar, int cmp, T val) \
	{ \
		return roc_fwait(__func__, ivar, sizeof(T), cmp, val, 0); \
	}
ROCSHMEM_SYNC_FLOAT_TYPES(DEF_FSYNC, )

/* float and double over several ivars (the runtime's multi waits compare
 * integers too): one predicate over every included ivar. */
struct roc_fmulti {
	char *ivars;
	size_t n, esize;
	const int *status;
	int cmp;
	double val;
	enum face_multi kind;
	size_t *indices;
	size_t start;   /* ANY: where the scan begins (rotates) */
	size_t got;     /* ANY: the index; SOME: the count */
};

static bool
roc_fmulti_holds(void *arg)
{
	struct roc_fmulti *m = arg;
	size_t incl = 0, hits = 0;
	for (size_t k = 0; k < m->n; k++) {
		size_t i = (m->start + k) % m->n;
		if (m->status && m->status[i])
			continue;
		incl++;
		struct roc_fwait w = {m->ivars + i * m->esize,
				      m->esize == sizeof(double), m->cmp,
				      m->val};
		if (!roc_fholds(&w))
			continue;
		if (m->kind == FACE_ANY) {
			m->got = i;
			return true;
		}
		if (m->kind == FACE_SOME && m->indices)
			m->indices[hits] = i;
		hits++;
	}
	if (m->kind == FACE_ALL)
		return hits == incl;
	m->got = m->kind == FACE_ANY ? SIZE_MAX : hits;
	return incl == 0 || hits > 0;
}

static size_t
roc_fmulti(const char *call, enum face_multi kind, void *ivars,
	   size_t nelems, size_t *indices, const int *status, size_t esize,
	   int cmp, double val)
{
	static _Thread_local size_t any_next;
	sh_check_init(call);
	(void)face_roc_cmp(call, cmp);
	ROC_COUNT(ROC_SYNC);
	if (nelems == 0)
		return kind == FACE_ANY ? SIZE_MAX : 0;
	size_t bytes = face_bytes(call, nelems, esize);
	if (ivars == NULL || ((uintptr_t)ivars & (esize - 1)) != 0)
		sh_fatal(call, "ivars %p is not %zu-byte aligned", ivars,
			 esize);
	if (kind == FACE_SOME && indices == NULL)
		sh_fatal(call, "indices is NULL");
	if (sh_remote_ptr(ivars, bytes, sh.me) == NULL)
		face_fail(call, -EFAULT, sh.me, "ivars", ivars);
	struct roc_fmulti m = {ivars, nelems, esize, status, cmp, val, kind,
			       indices, any_next % nelems, 0};
	if (!roc_fmulti_holds(&m)) {
		int rc = sh_wait_pred(roc_fmulti_holds, &m, -1);
		if (rc < 0)
			face_fail(call, rc, -1, "ivars", ivars);
	}
	if (kind == FACE_ANY && m.got != SIZE_MAX)
		any_next = m.got + 1;
	return m.got;
}

#define ROC_FMULTI(K, idx) \
	roc_fmulti(__func__, K, ivars, nelems, idx, status, sizeof(val), \
		   cmp, val)
#define DEF_FMULTI1(T, N, SFX) \
	void rocshmem_##N##_wait_until_all##SFX(T *ivars, size_t nelems, \
						const int *status, int cmp, \
						T val) \
	{ \
		(void)ROC_FMULTI(FACE_ALL, NULL); \
	} \
	size_t rocshmem_##N##_wait_until_any##SFX(T *ivars, size_t nelems, \
						  const int *status, \
						  int cmp, T val) \
	{ \
		return ROC_FMULTI(FACE_ANY, NULL); \
	} \
	size_t rocshmem_##N##_wait_until_some##SFX(T *ivars, size_t nelems, \
						   size_t *indices, \
						   const int *status, \
						   int cmp, T val) \
	{ \
		return ROC_FMULTI(FACE_SOME, indices); \
	}
#define DEF_FMULTI(T, N, A) \
	DEF_FMULTI1(T, N, ) \
	DEF_FMULTI1(T, N, _vector)
ROCSHMEM_SYNC_FLOAT_TYPES(DEF_FMULTI, )

/* The multi forms: rocSHMEM 3.x gives the _vector forms one value too,
 * so both are the runtime's scalar forms. */
#define ROC_MULTI(K, idx) \
	(ROC_COUNT(ROC_SYNC), \
	 face_multi(__func__, K, 1, ivars, nelems, idx, status, \
		    FACE_KIND(__typeof__(val)), sizeof(val), \
		    face_roc_cmp(__func__, cmp), &val, 0))
#define DEF_MULTI1(T, N, SFX) \
	void rocshmem_##N##_wait_until_all##SFX(T *ivars, size_t nelems, \
						const int *status, int cmp, \
						T val) \
	{ \
		(void)ROC_MULTI(FACE_ALL, NULL); \
	} \
	size_t rocshmem_##N##_wait_until_any##SFX(T *ivars, size_t nelems, \
						  const int *status, \
						  int cmp, T val) \
	{ \
		return ROC_MULTI(FACE_ANY, NULL); \
	} \
	size_t rocshmem_##N##_wait_until_some##SFX(T *ivars, size_t nelems, \
						   size_t *indices, \
						   const int *status, \
						   int cmp, T val) \
	{ \
		return ROC_MULTI(FACE_SOME, indices); \
	}
#define DEF_MULTI(T, N, A) \
	DEF_MULTI1(T, N, ) \
	DEF_MULTI1(T, N, _vector)
ROCSHMEM_SYNC_TYPES(DEF_MULTI, )
ROCSHMEM_SYNC_MORE_TYPES(DEF_MULTI, )

/* ---- contexts ---------------------------------------------------------- */

/* ROCSHMEM_CTX_* -> SHMEM_CTX_*; -1 for unknown bits. */
static long
roc_ctx_options(int64_t o)
{
	const int64_t known = ROCSHMEM_CTX_NOSTORE | ROCSHMEM_CTX_SERIALIZED |
			      ROCSHMEM_CTX_WG_PRIVATE | ROCSHMEM_CTX_SHARED;
	if (o & ~known)
		return -1;
	long r = 0;
	if (o & ROCSHMEM_CTX_NOSTORE)
		r |= SHMEM_CTX_NOSTORE;
	if (o & ROCSHMEM_CTX_SERIALIZED)
		r |= SHMEM_CTX_SERIALIZED;
	if (o & ROCSHMEM_CTX_WG_PRIVATE)
		r |= SHMEM_CTX_PRIVATE;
	return r;
}

static int
roc_make_ctx(const char *call, rocshmem_team_t team, int64_t options,
	     rocshmem_ctx_t *ctx)
{
	if (ctx == NULL) {
		sh_warn(call, "ctx is NULL");
		return ROCSHMEM_ERROR;
	}
	*ctx = ROCSHMEM_CTX_INVALID;
	long o = roc_ctx_options(options);
	if (o < 0) {
		sh_warn(call, "options %#llx: unknown ROCSHMEM_CTX_* bits",
			(unsigned long long)options);
		return ROCSHMEM_ERROR;
	}
	shmem_ctx_t c = SHMEM_CTX_INVALID;
	int rc = team ? shmem_team_create_ctx((shmem_team_t)team, o, &c)
		      : shmem_ctx_create(o, &c);
	if (rc != 0)
		return ROCSHMEM_ERROR;
	ctx->ctx_opaque = (void *)c;
	ctx->team_opaque = team;
	return ROCSHMEM_SUCCESS;
}

int
rocshmem_ctx_create(int64_t options, rocshmem_ctx_t *ctx)
{
	sh_check_init(__func__);
	return roc_make_ctx(__func__, NULL, options, ctx);
}

int
rocshmem_team_create_ctx(rocshmem_team_t team, long options,
			 rocshmem_ctx_t *ctx)
{
	sh_check_init(__func__);
	if (team == ROCSHMEM_TEAM_INVALID) {
		/* a PE outside a split's team: a normal case, no warning */
		if (ctx)
			*ctx = ROCSHMEM_CTX_INVALID;
		return ROCSHMEM_ERROR;
	}
	return roc_make_ctx(__func__, team, options, ctx);
}

void
rocshmem_ctx_destroy(rocshmem_ctx_t ctx)
{
	if (ctx.ctx_opaque == NULL ||
	    ctx.ctx_opaque == (void *)SHMEM_CTX_DEFAULT)
		return;
	shmem_ctx_destroy((shmem_ctx_t)ctx.ctx_opaque);
}

void
rocshmem_ctx_fence(rocshmem_ctx_t ctx)
{
	if (ctx.ctx_opaque == NULL)
		return;
	ROC_COUNT(ROC_SYNC);
	shmem_ctx_fence((shmem_ctx_t)ctx.ctx_opaque);
}

void
rocshmem_ctx_quiet(rocshmem_ctx_t ctx)
{
	if (ctx.ctx_opaque == NULL)
		return;
	ROC_COUNT(ROC_SYNC);
	shmem_ctx_quiet((shmem_ctx_t)ctx.ctx_opaque);
}

/* ---- collectives ------------------------------------------------------- */

/* The count as size_t; a negative one ends the PE (fatal 1) or warns. */
static int
roc_count(const char *call, int n, int fatal)
{
	if (n >= 0)
		return 0;
	if (fatal)
		sh_fatal(call, "nelems %d is negative", n);
	sh_warn(call, "nreduce %d is negative", n);
	return -1;
}

/* arithmetic reductions: OpenSHMEM's of the same type */
#define DEF_RED(T, N, OP) \
	int rocshmem_ctx_##N##_##OP##_reduce(rocshmem_ctx_t ctx, \
					     rocshmem_team_t team, T *dest, \
					     const T *source, int nreduce) \
	{ \
		(void)ctx; \
		ROC_COUNT(ROC_COLL); \
		if (roc_count(__func__, nreduce, 0)) \
			return ROCSHMEM_ERROR; \
		return shmem_##N##_##OP##_reduce((shmem_team_t)team, dest, \
						 source, (size_t)nreduce) \
			       ? ROCSHMEM_ERROR : ROCSHMEM_SUCCESS; \
	}
ROCSHMEM_ARITH_TYPES(DEF_RED, sum)
ROCSHMEM_ARITH_TYPES(DEF_RED, prod)
ROCSHMEM_ARITH_TYPES(DEF_RED, min)
ROCSHMEM_ARITH_TYPES(DEF_RED, max)

/* bitwise reductions of signed types: the same bits as the unsigned type
 * of that size, which OpenSHMEM reduces */
#define DEF_BITRED1(T, N, U, OP) \
	int rocshmem_ctx_##N##_##OP##_reduce(rocshmem_ctx_t ctx, \
					     rocshmem_team_t team, T *dest, \
					     const T *source, int nreduce) \
	{ \
		(void)ctx; \
		ROC_COUNT(ROC_COLL); \
		if (roc_count(__func__, nreduce, 0)) \
			return ROCSHMEM_ERROR; \
		return shmem_##U##_##OP##_reduce((shmem_team_t)team, \
						 (void *)dest, \
						 (const void *)source, \
						 (size_t)nreduce) \
			       ? ROCSHMEM_ERROR : ROCSHMEM_SUCCESS; \
	}
#define DEF_BITRED(OP) \
	DEF_BITRED1(short, short, ushort, OP) \
	DEF_BITRED1(int, int, uint, OP) \
	DEF_BITRED1(long, long, ulong, OP) \
	DEF_BITRED1(long long, longlong, ulonglong, OP)
DEF_BITRED(and)
DEF_BITRED(or)
DEF_BITRED(xor)

#define DEF_BCAST(T, N, A) \
	void rocshmem_ctx_##N##_broadcast(rocshmem_ctx_t ctx, \
					  rocshmem_team_t team, T *dest, \
					  const T *source, int nelems, \
					  int pe_root) \
	{ \
		(void)ctx; \
		ROC_COUNT(ROC_COLL); \
		roc_count(__func__, nelems, 1); \
		if (shmem_##N##_broadcast((shmem_team_t)team, dest, source, \
					  (size_t)nelems, pe_root)) \
			sh_fatal(__func__, "team %p, nelems %d, pe_root %d: " \
				 "the broadcast failed", (void *)team, \
				 nelems, pe_root); \
	}
ROCSHMEM_BCAST_TYPES(DEF_BCAST, )

/* The active-set broadcast (rocshmem.hpp's overload of the one above):
 * OpenSHMEM 1.4's active-set broadcast, the root's dest left as it is.
 * Bad input is one warning and nothing done; a member that ended, or
 * does not answer, ends the PE as the other collectives do. */
_Static_assert(ROCSHMEM_BCAST_SYNC_SIZE >= SHMEM_BCAST_SYNC_SIZE,
	       "pSync size");

static void
roc_bcast_active(const char *call, void *dest, const void *source,
		 int nelems, size_t esize, int pe_root, int pe_start,
		 int log_pe_stride, int pe_size, long *psync)
{
	sh_check_init(call);
	ROC_COUNT(ROC_COLL);
	if (nelems < 0) {
		sh_warn(call, "nelems %d is negative", nelems);
		return;
	}
	if (nelems > 0 && (dest == NULL || source == NULL)) {
		sh_warn(call, "dest %p or source %p is NULL with nelems %d",
			dest, source, nelems);
		return;
	}
	if (pe_size < 1) {
		sh_warn(call, "pe_size %d is not positive", pe_size);
		return;
	}
	struct sh_aset a;
	int rc = sh_coll_aset(pe_start, log_pe_stride, pe_size, psync, &a);
	if (rc == -ESRCH) {
		sh_warn(call, "this PE is not in the active set (pe_start %d, "
			"log_pe_stride %d, pe_size %d)", pe_start,
			log_pe_stride, pe_size);
		return;
	}
	if (rc == -EFAULT) {
		sh_warn(call, "pSync %p is not a symmetric array of "
			"ROCSHMEM_BCAST_SYNC_SIZE longs", (void *)psync);
		return;
	}
	if (rc) {
		sh_warn(call, "active set pe_start %d, log_pe_stride %d, "
			"pe_size %d is not within the job's PEs 0..%d",
			pe_start, log_pe_stride, pe_size, sh.npes - 1);
		return;
	}
	if (pe_root < 0 || pe_root >= pe_size) {
		sh_warn(call, "pe_root %d is not an index of the active set "
			"(0..%d)", pe_root, pe_size - 1);
		return;
	}
	rc = sh_coll_bcast(NULL, &a, dest, source, (size_t)nelems * esize,
			   pe_root, false);
	if (rc == -EHOSTDOWN || rc == -ETIMEDOUT)
		face_fail(call, rc, -1, "active set", NULL);
	if (rc == -EFAULT)
		sh_warn(call, "dest %p or source %p is not a symmetric "
			"object of %d elements", dest, source, nelems);
	else if (rc)
		sh_warn(call, "the broadcast failed: %s", strerror(-rc));
}

#define DEF_BCAST_ACTIVE(T, N, A) \
	void rocshmemx_ctx_##N##_broadcast_active(rocshmem_ctx_t ctx, \
						  T *dest, const T *source, \
						  int nelems, int pe_root, \
						  int pe_start, \
						  int log_pe_stride, \
						  int pe_size, long *pSync) \
	{ \
		(void)ctx; \
		roc_bcast_active(__func__, dest, source, nelems, sizeof(T), \
				 pe_root, pe_start, log_pe_stride, pe_size, \
				 pSync); \
	}
ROCSHMEM_BCAST_TYPES(DEF_BCAST_ACTIVE, )

/* ---- library information, statistics ----------------------------------- */

void
rocshmem_info_get_version(int *major, int *minor)
{
	if (major)
		*major = ROCSHMEM_MAJOR_VERSION;
	if (minor)
		*minor = ROCSHMEM_MINOR_VERSION;
}

void
rocshmem_info_get_name(char *name)
{
	_Static_assert(sizeof(ROCSHMEM_VENDOR_STRING) <= ROCSHMEM_MAX_NAME_LEN,
		       "vendor string");
	if (name)
		memcpy(name, ROCSHMEM_VENDOR_STRING,
		       sizeof(ROCSHMEM_VENDOR_STRING));
}

void
rocshmem_vendor_get_version_info(int *major, int *minor, int *patch)
{
	if (major)
		*major = ROCSHMEM_VENDOR_MAJOR_VERSION;
	if (minor)
		*minor = ROCSHMEM_VENDOR_MINOR_VERSION;
	if (patch)
		*patch = ROCSHMEM_VENDOR_PATCH_VERSION;
}

void
rocshmem_dump_stats(void)
{
	static const char *const names[ROC_NSTAT] = {
		[ROC_PUT] = "puts", [ROC_GET] = "gets", [ROC_AMO] = "amos",
		[ROC_SIGNAL] = "signals", [ROC_SYNC] = "syncs",
		[ROC_COLL] = "collectives",
	};
	int me = sh.initialized ? sh.me : -1;
	for (int k = 0; k < ROC_NSTAT; k++)
		printf("rocshmem: PE %d: %s %llu\n", me, names[k],
		       (unsigned long long)atomic_load_explicit(
			       &face_roc_stats[k], memory_order_relaxed));
	fflush(stdout);
}

void
rocshmem_reset_stats(void)
{
	for (int k = 0; k < ROC_NSTAT; k++)
		atomic_store_explicit(&face_roc_stats[k], 0,
				      memory_order_relaxed);
}
