// SPDX-License-Identifier: MIT
/*
 * sh_face_coll.c: the OpenSHMEM collectives over sh_coll.c: the 1.5 team
 * forms (broadcast, collect, fcollect, alltoall, alltoalls for every
 * standard RMA type and their mem forms; and/or/xor/max/min/sum/prod
 * reductions for every type of the specification's tables) and the
 * deprecated 1.4 active-set forms (shmem_barrier, shmem_sync,
 * broadcast/collect/fcollect/alltoall(s) 32/64, shmem_<type>_<op>_to_all
 * with pWrk, which is not needed here, and pSync).
 *
 * Results: a team form returns 0, or -1 for bad input (SHMEM_TEAM_INVALID,
 * PE_root out of range, nelems overflow, addresses that are not
 * symmetric, strides < 1, overlapping reduction buffers) with one warning
 * line naming the routine; a member that ended ends the PE (face_fail),
 * as shmem_team_sync does. The void 1.4 forms end the PE for bad input
 * with one line (sh_fatal).
 *
 * The reduction operators come from the type tables: one
 * red_<typename>_<op>(acc, in, n) per row and operation, acc op= in.
 */
#include "sh_face.h"

#include <complex.h>
#include <string.h>

/* ---- reduction operators ----------------------------------------------- */

#define OPX_and(x, y) ((x) & (y))
#define OPX_or(x, y) ((x) | (y))
#define OPX_xor(x, y) ((x) ^ (y))
#define OPX_max(x, y) ((x) > (y) ? (x) : (y))
#define OPX_min(x, y) ((x) < (y) ? (x) : (y))
#define OPX_sum(x, y) ((x) + (y))
#define OPX_prod(x, y) ((x) * (y))

/* The reductions' inner loops, vectorised: blocks of RED_BLOCK elements
 * (a count known at compile time) then the tail, with GCC's "dynamic"
 * cost model for these functions (-O2's "very cheap" one leaves them
 * scalar). */
#define RED_BLOCK 16
/* On x86-64 each loop is built twice, for AVX2 and for the baseline
 * (SSE2), and the loader picks one by the CPU (an ifunc): twice the lanes
 * where the CPU has them. Not under TSan: an ifunc's resolver runs while
 * the library is relocated, before TSan's runtime can serve the
 * instrumented resolver (every program loading the library crashed). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
	!defined(__SANITIZE_THREAD__)
#define RED_CLONES target_clones("avx2", "default")
#else
#define RED_CLONES
#endif
#define RED_FAST __attribute__((optimize("vect-cost-model=dynamic"), \
				 RED_CLONES))
#define DEF_RED_OP(T, N, OP) \
	RED_FAST static void red_##N##_##OP(void *acc, const void *x, \
					    const void *y, size_t n) \
	{ \
		const T *restrict b = y; \
		if (acc == x) { \
			T *restrict a = acc; \
			size_t i = 0; \
			for (; n - i >= RED_BLOCK; i += RED_BLOCK) \
				for (size_t k = 0; k < RED_BLOCK; k++) \
					a[i + k] = (T)OPX_##OP(a[i + k], \
							       b[i + k]); \
			for (; i < n; i++) \
				a[i] = (T)OPX_##OP(a[i], b[i]); \
			return; \
		} \
		T *restrict o = acc; \
		const T *restrict p = x; \
		size_t i = 0; \
		for (; n - i >= RED_BLOCK; i += RED_BLOCK) \
			for (size_t k = 0; k < RED_BLOCK; k++) \
				o[i + k] = (T)OPX_##OP(p[i + k], b[i + k]); \
		for (; i < n; i++) \
			o[i] = (T)OPX_##OP(p[i], b[i]); \
	}
SHMEM_BITRED_TYPES(DEF_RED_OP, and)
SHMEM_BITRED_TYPES(DEF_RED_OP, or)
SHMEM_BITRED_TYPES(DEF_RED_OP, xor)
SHMEM_OLD_BITRED_TYPES(DEF_RED_OP, and)
SHMEM_OLD_BITRED_TYPES(DEF_RED_OP, or)
SHMEM_OLD_BITRED_TYPES(DEF_RED_OP, xor)
SHMEM_MINMAX_TYPES(DEF_RED_OP, max)
SHMEM_MINMAX_TYPES(DEF_RED_OP, min)
SHMEM_ARITH_TYPES(DEF_RED_OP, sum)
SHMEM_ARITH_TYPES(DEF_RED_OP, prod)

/* ---- results ----------------------------------------------------------- */

static const char *
why(int rc)
{
	switch (rc) {
	case -EFAULT:
		return "dest or source is not a symmetric address (or the "
		       "symmetric object is too small)";
	case -EINVAL:
		return "invalid argument (PE_root out of range, a stride < 1, "
		       "or dest and source overlap without being the same)";
	case -EOVERFLOW:
		return "nelems overflows the address space";
	case -ENOMEM:
		return "out of memory";
	case -EOPNOTSUPP:
		return "not supported on this heap";
	default:
		return strerror(-rc);
	}
}

/* The team forms' result. */
static int
team_rc(const char *call, int rc)
{
	if (__builtin_expect(rc == 0, 1))
		return 0;
	if (rc == -EHOSTDOWN || rc == -ETIMEDOUT)
		face_fail(call, rc, -1, "team", NULL);
	u_warn("shmem", "%s: %s", call, why(rc));
	return -1;
}

/* The runtime's team, or NULL (with a warning) for SHMEM_TEAM_INVALID and
 * for a destroyed or forged handle. */
static struct sh_team *
team_in(const char *call, shmem_team_t team)
{
	sh_check_init(call);
	if (team == SHMEM_TEAM_INVALID)
		u_warn("shmem", "%s: team is SHMEM_TEAM_INVALID", call);
	return face_team(call, team);
}

/* nelems * esize into *n; 0, or -1 with a warning when it overflows. */
static int
team_bytes(const char *call, size_t nelems, size_t esize, size_t *n)
{
	if (!__builtin_mul_overflow(nelems, esize, n))
		return 0;
	u_warn("shmem", "%s: nelems %zu of %zu bytes overflows size_t", call,
	       nelems, esize);
	return -1;
}

static int
face_bcast(const char *call, shmem_team_t team, void *dest,
	   const void *src, size_t nelems, size_t esize, int root)
{
	struct sh_team *t = team_in(call, team);
	size_t n;
	if (!t || team_bytes(call, nelems, esize, &n))
		return -1;
	return team_rc(call, sh_coll_bcast(t, NULL, dest, src, n, root,
					   true));
}

static int
face_collect(const char *call, shmem_team_t team, void *dest,
	     const void *src, size_t nelems, size_t esize, bool fixed)
{
	struct sh_team *t = team_in(call, team);
	size_t n;
	if (!t || team_bytes(call, nelems, esize, &n))
		return -1;
	return team_rc(call, sh_coll_collect(t, NULL, dest, src, n, fixed));
}

static int
face_alltoall(const char *call, shmem_team_t team, void *dest,
	      const void *src, size_t nelems, size_t esize)
{
	struct sh_team *t = team_in(call, team);
	size_t n;
	if (!t || team_bytes(call, nelems, esize, &n))
		return -1;
	return team_rc(call, sh_coll_alltoall(t, NULL, dest, src, n));
}

static int
face_alltoalls(const char *call, shmem_team_t team, void *dest,
	       const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
	       size_t esize)
{
	struct sh_team *t = team_in(call, team);
	if (!t)
		return -1;
	return team_rc(call, sh_coll_alltoalls(t, NULL, dest, src, dst, sst,
					       nelems, esize));
}

static int
face_reduce(const char *call, shmem_team_t team, void *dest,
	    const void *src, size_t nreduce, size_t esize, sh_coll_op op)
{
	struct sh_team *t = team_in(call, team);
	if (!t)
		return -1;
	return team_rc(call, sh_coll_reduce(t, NULL, dest, src, nreduce, esize,
					    op));
}

/* ---- the team forms ---------------------------------------------------- */

#define DEF_COLL(T, N, A) \
	int shmem_##N##_broadcast(shmem_team_t team, T *dest, \
				  const T *source, size_t nelems, \
				  int PE_root) \
	{ \
		return face_bcast(__func__, team, dest, source, nelems, \
				  sizeof(T), PE_root); \
	} \
	int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, \
				size_t nelems) \
	{ \
		return face_collect(__func__, team, dest, source, nelems, \
				    sizeof(T), false); \
	} \
	int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, \
				 size_t nelems) \
	{ \
		return face_collect(__func__, team, dest, source, nelems, \
				    sizeof(T), true); \
	} \
	int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, \
				 size_t nelems) \
	{ \
		return face_alltoall(__func__, team, dest, source, nelems, \
				     sizeof(T)); \
	} \
	int shmem_##N##_alltoalls(shmem_team_t team, T *dest, \
				  const T *source, ptrdiff_t dst, \
				  ptrdiff_t sst, size_t nelems) \
	{ \
		return face_alltoalls(__func__, team, dest, source, dst, sst, \
				      nelems, sizeof(T)); \
	}
SHMEM_RMA_TYPES(DEF_COLL, )

int
shmem_broadcastmem(shmem_team_t team, void *dest, const void *source,
		   size_t nelems, int PE_root)
{
	return face_bcast(__func__, team, dest, source, nelems, 1, PE_root);
}

int
shmem_collectmem(shmem_team_t team, void *dest, const void *source,
		 size_t nelems)
{
	return face_collect(__func__, team, dest, source, nelems, 1, false);
}

int
shmem_fcollectmem(shmem_team_t team, void *dest, const void *source,
		  size_t nelems)
{
	return face_collect(__func__, team, dest, source, nelems, 1, true);
}

int
shmem_alltoallmem(shmem_team_t team, void *dest, const void *source,
		  size_t nelems)
{
	return face_alltoall(__func__, team, dest, source, nelems, 1);
}

int
shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source,
		   ptrdiff_t dst, ptrdiff_t sst, size_t nelems)
{
	return face_alltoalls(__func__, team, dest, source, dst, sst, nelems,
			      1);
}

#define DEF_REDUCE(T, N, OP) \
	int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, \
				      const T *source, size_t nreduce) \
	{ \
		return face_reduce(__func__, team, dest, source, nreduce, \
				   sizeof(T), red_##N##_##OP); \
	}
SHMEM_BITRED_TYPES(DEF_REDUCE, and)
SHMEM_BITRED_TYPES(DEF_REDUCE, or)
SHMEM_BITRED_TYPES(DEF_REDUCE, xor)
SHMEM_MINMAX_TYPES(DEF_REDUCE, max)
SHMEM_MINMAX_TYPES(DEF_REDUCE, min)
SHMEM_ARITH_TYPES(DEF_REDUCE, sum)
SHMEM_ARITH_TYPES(DEF_REDUCE, prod)

/* ---- the deprecated active-set forms ----------------------------------- */

static struct sh_aset
old_aset(const char *call, int start, int log_stride, int size, long *psync)
{
	sh_check_init(call);
	struct sh_aset a;
	int rc = sh_coll_aset(start, log_stride, size, psync, &a);
	if (rc == -ESRCH)
		sh_fatal(call, "this PE is not in the active set (PE_start "
			 "%d, logPE_stride %d, PE_size %d)", start, log_stride,
			 size);
	if (rc == -EFAULT)
		sh_fatal(call, "pSync %p is not a symmetric array of "
			 "SHMEM_SYNC_SIZE longs", (void *)psync);
	if (rc)
		sh_fatal(call, "active set PE_start %d, logPE_stride %d, "
			 "PE_size %d is not within the job's PEs 0..%d", start,
			 log_stride, size, sh.npes - 1);
	return a;
}

static void
old_rc(const char *call, int rc)
{
	if (__builtin_expect(rc == 0, 1))
		return;
	if (rc == -EHOSTDOWN || rc == -ETIMEDOUT)
		face_fail(call, rc, -1, "active set", NULL);
	sh_fatal(call, "%s", why(rc));
}

void
shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
	struct sh_aset a = old_aset(__func__, PE_start, logPE_stride, PE_size,
				    pSync);
	old_rc(__func__, sh_coll_sync(NULL, &a, true));
}

void
(shmem_sync)(int PE_start, int logPE_stride, int PE_size, long *pSync)
{
	struct sh_aset a = old_aset(__func__, PE_start, logPE_stride, PE_size,
				    pSync);
	old_rc(__func__, sh_coll_sync(NULL, &a, false));
}

#define DEF_OLD_COLL(S) \
	void shmem_broadcast##S(void *dest, const void *source, \
				size_t nelems, int PE_root, int PE_start, \
				int logPE_stride, int PE_size, long *pSync) \
	{ \
		struct sh_aset a = old_aset(__func__, PE_start, logPE_stride, \
					    PE_size, pSync); \
		size_t n = face_bytes(__func__, nelems, S / 8); \
		old_rc(__func__, sh_coll_bcast(NULL, &a, dest, source, n, \
					       PE_root, false)); \
	} \
	void shmem_collect##S(void *dest, const void *source, size_t nelems, \
			      int PE_start, int logPE_stride, int PE_size, \
			      long *pSync) \
	{ \
		struct sh_aset a = old_aset(__func__, PE_start, logPE_stride, \
					    PE_size, pSync); \
		size_t n = face_bytes(__func__, nelems, S / 8); \
		old_rc(__func__, sh_coll_collect(NULL, &a, dest, source, n, \
						 false)); \
	} \
	void shmem_fcollect##S(void *dest, const void *source, size_t nelems, \
			       int PE_start, int logPE_stride, int PE_size, \
			       long *pSync) \
	{ \
		struct sh_aset a = old_aset(__func__, PE_start, logPE_stride, \
					    PE_size, pSync); \
		size_t n = face_bytes(__func__, nelems, S / 8); \
		old_rc(__func__, sh_coll_collect(NULL, &a, dest, source, n, \
						 true)); \
	} \
	void shmem_alltoall##S(void *dest, const void *source, size_t nelems, \
			       int PE_start, int logPE_stride, int PE_size, \
			       long *pSync) \
	{ \
		struct sh_aset a = old_aset(__func__, PE_start, logPE_stride, \
					    PE_size, pSync); \
		size_t n = face_bytes(__func__, nelems, S / 8); \
		old_rc(__func__, sh_coll_alltoall(NULL, &a, dest, source, \
						  n)); \
	} \
	void shmem_alltoalls##S(void *dest, const void *source, \
				ptrdiff_t dst, ptrdiff_t sst, size_t nelems, \
				int PE_start, int logPE_stride, int PE_size, \
				long *pSync) \
	{ \
		struct sh_aset a = old_aset(__func__, PE_start, logPE_stride, \
					    PE_size, pSync); \
		old_rc(__func__, sh_coll_alltoalls(NULL, &a, dest, source, \
						   dst, sst, nelems, S / 8)); \
	}
DEF_OLD_COLL(32)
DEF_OLD_COLL(64)

#define DEF_TO_ALL(T, N, OP) \
	void shmem_##N##_##OP##_to_all(T *dest, const T *source, \
				       int nreduce, int PE_start, \
				       int logPE_stride, int PE_size, \
				       T *pWrk, long *pSync) \
	{ \
		(void)pWrk; /* the slices are reduced in place */ \
		struct sh_aset a = old_aset(__func__, PE_start, logPE_stride, \
					    PE_size, pSync); \
		if (nreduce < 0) \
			sh_fatal(__func__, "nreduce %d is negative", nreduce); \
		old_rc(__func__, sh_coll_reduce(NULL, &a, dest, source, \
						(size_t)nreduce, sizeof(T), \
						red_##N##_##OP)); \
	}
SHMEM_OLD_BITRED_TYPES(DEF_TO_ALL, and)
SHMEM_OLD_BITRED_TYPES(DEF_TO_ALL, or)
SHMEM_OLD_BITRED_TYPES(DEF_TO_ALL, xor)
SHMEM_OLD_MINMAX_TYPES(DEF_TO_ALL, max)
SHMEM_OLD_MINMAX_TYPES(DEF_TO_ALL, min)
SHMEM_OLD_ARITH_TYPES(DEF_TO_ALL, sum)
SHMEM_OLD_ARITH_TYPES(DEF_TO_ALL, prod)
