// SPDX-License-Identifier: MIT
/*
 * sh_face_sync.c: point-to-point synchronisation (wait_until, test and
 * their _all/_any/_some and _vector forms for every type of
 * SHMEM_SYNC_TYPES, the 1.4 shmem_wait forms), ordering and completion
 * (fence, quiet) and the world's barrier_all / sync_all.
 *
 * The multi-ivar waits sleep through the runtime's sh_wait_pred (spin,
 * then the doorbell futex; a PE that ends fails them) with a predicate that
 * tests every included ivar.
 *
 * Every ivar must be symmetric memory of this PE (the lookup put makes for
 * its dest, sh_remote_ptr): a wait on anything else could never end, so
 * it ends the PE with put's line instead.
 */
#include "sh_face.h"

#include <stdint.h>

static void
face_cmp(const char *call, int cmp)
{
	if (__builtin_expect(cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_GE, 0))
		sh_fatal(call, "cmp %d is not a SHMEM_CMP_* value", cmp);
}

static void
face_ivar(const char *call, const void *ivar, size_t esize)
{
	if (__builtin_expect(ivar == NULL ||
			     ((uintptr_t)ivar & (esize - 1)) != 0, 0))
		sh_fatal(call, "ivar %p is not %zu-byte aligned", ivar, esize);
}

/* Ends the PE, as put does for its dest (the same lookup, the same line),
 * when [ivar, ivar + len) is not symmetric memory of this PE: no other PE
 * can ever write it, so a wait on it would never end. */
static void
face_ivar_sym(const char *call, const char *what, const void *ivar,
	      size_t len)
{
	if (__builtin_expect(sh_remote_ptr(ivar, len, sh.me) == NULL, 0))
		face_fail(call, -EFAULT, sh.me, what, ivar);
}

void
face_wait_until(const char *call, void *ivar, enum sh_type t, size_t esize,
		int cmp, const void *value)
{
	sh_check_init(call);
	face_ivar(call, ivar, esize);
	face_cmp(call, cmp);
	face_ivar_sym(call, "ivar", ivar, esize);
	int rc = sh_wait_until(ivar, t, esize, cmp, value);
	if (rc < 0)
		face_fail(call, rc, -1, "ivar", ivar);
}

int
face_test(const char *call, void *ivar, enum sh_type t, size_t esize, int cmp,
	  const void *value)
{
	sh_check_init(call);
	face_ivar(call, ivar, esize);
	face_cmp(call, cmp);
	face_ivar_sym(call, "ivar", ivar, esize);
	int rc = sh_test(ivar, t, esize, cmp, value);
	if (rc < 0)
		face_fail(call, rc, -1, "ivar", ivar);
	return rc > 0;
}

/* ---- several ivars ----------------------------------------------------- */

struct multi {
	const char *call;
	enum face_multi kind;
	char *ivars;
	size_t nelems;
	size_t *indices;
	const int *status;
	enum sh_type t;
	size_t esize;
	int cmp;
	const char *values;
	int vector;
	int wait;
	size_t result;
};

/* Where this thread's next _any scan starts: one past the index the last
 * one returned, so that a series of calls returns every satisfied index
 * in turn (OpenSHMEM 1.5 requires it of test_any and wait_until_any; a
 * scan from 0 would return the lowest one forever). */
static _Thread_local size_t any_next[2]; /* [wait]: test_any, wait_any */

/* Tests every included ivar once: sets m->result and returns whether the
 * wait is over. */
static bool
multi_scan(void *arg)
{
	struct multi *m = arg;
	size_t hits = 0, included = 0;
	size_t start = m->kind == FACE_ANY && m->nelems
			       ? any_next[m->wait] % m->nelems : 0;
	for (size_t k = 0; k < m->nelems; k++) {
		size_t i = start + k < m->nelems ? start + k
						 : start + k - m->nelems;
		if (m->status && m->status[i])
			continue;
		included++;
		const void *v = m->values + (m->vector ? i * m->esize : 0);
		int rc = sh_test(m->ivars + i * m->esize, m->t, m->esize,
				 m->cmp, v);
		if (rc < 0)
			face_fail(m->call, rc, -1, "ivars", m->ivars);
		if (rc == 0) {
			if (m->kind == FACE_ALL) {
				m->result = 0;
				return false;
			}
			continue;
		}
		if (m->kind == FACE_ANY) {
			m->result = i;
			any_next[m->wait] = i + 1;
			return true;
		}
		if (m->kind == FACE_SOME)
			m->indices[hits] = i;
		hits++;
	}
	switch (m->kind) {
	case FACE_ALL:
		m->result = 1;
		return true;
	case FACE_ANY:
		m->result = SIZE_MAX;
		return included == 0;
	case FACE_SOME:
	default:
		m->result = hits;
		return hits > 0 || included == 0;
	}
}

size_t
face_multi(const char *call, enum face_multi kind, int wait, void *ivars,
	   size_t nelems, size_t *indices, const int *status, enum sh_type t,
	   size_t esize, int cmp, const void *values, int vector)
{
	sh_check_init(call);
	face_cmp(call, cmp);
	if (nelems != 0) {
		face_ivar(call, ivars, esize);
		if (kind == FACE_SOME && indices == NULL)
			sh_fatal(call, "indices is NULL");
		if (vector && values == NULL)
			sh_fatal(call, "cmp_values is NULL");
		size_t n;
		if (__builtin_mul_overflow(nelems, esize, &n))
			sh_fatal(call, "nelems %zu overflows", nelems);
		face_ivar_sym(call, "ivars", ivars, n);
	}
	struct multi m = {
		.call = call, .kind = kind, .ivars = ivars, .nelems = nelems,
		.indices = indices, .status = status, .t = t, .esize = esize,
		.cmp = cmp, .values = values, .vector = vector,
		.wait = !!wait,
	};
	if (multi_scan(&m) || !wait)
		return m.result;
	int rc = sh_wait_pred(multi_scan, &m, -1);
	if (rc < 0)
		face_fail(call, rc, -1, "ivars", ivars);
	return m.result;
}

/* ---- typed routines ---------------------------------------------------- */

#define K(T) FACE_KIND(T)
#define DEF_SYNC(T, N, A) \
	void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value) \
	{ \
		face_wait_until(__func__, ivar, K(T), sizeof(T), cmp, \
				&cmp_value); \
	} \
	int shmem_##N##_test(T *ivar, int cmp, T cmp_value) \
	{ \
		return face_test(__func__, ivar, K(T), sizeof(T), cmp, \
				 &cmp_value); \
	} \
	void shmem_##N##_wait_until_all(T *ivars, size_t nelems, \
					const int *status, int cmp, \
					T cmp_value) \
	{ \
		face_multi(__func__, FACE_ALL, 1, ivars, nelems, NULL, status, \
			   K(T), sizeof(T), cmp, &cmp_value, 0); \
	} \
	size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, \
					  const int *status, int cmp, \
					  T cmp_value) \
	{ \
		return face_multi(__func__, FACE_ANY, 1, ivars, nelems, NULL, \
				  status, K(T), sizeof(T), cmp, &cmp_value, \
				  0); \
	} \
	size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, \
					   size_t *indices, \
					   const int *status, int cmp, \
					   T cmp_value) \
	{ \
		return face_multi(__func__, FACE_SOME, 1, ivars, nelems, \
				  indices, status, K(T), sizeof(T), cmp, \
				  &cmp_value, 0); \
	} \
	void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, \
					       const int *status, int cmp, \
					       T *cmp_values) \
	{ \
		face_multi(__func__, FACE_ALL, 1, ivars, nelems, NULL, status, \
			   K(T), sizeof(T), cmp, cmp_values, 1); \
	} \
	size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, \
						 const int *status, int cmp, \
						 T *cmp_values) \
	{ \
		return face_multi(__func__, FACE_ANY, 1, ivars, nelems, NULL, \
				  status, K(T), sizeof(T), cmp, cmp_values, \
				  1); \
	} \
	size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, \
						  size_t *indices, \
						  const int *status, \
						  int cmp, T *cmp_values) \
	{ \
		return face_multi(__func__, FACE_SOME, 1, ivars, nelems, \
				  indices, status, K(T), sizeof(T), cmp, \
				  cmp_values, 1); \
	} \
	int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, \
				 int cmp, T cmp_value) \
	{ \
		return (int)face_multi(__func__, FACE_ALL, 0, ivars, nelems, \
				       NULL, status, K(T), sizeof(T), cmp, \
				       &cmp_value, 0); \
	} \
	size_t shmem_##N##_test_any(T *ivars, size_t nelems, \
				    const int *status, int cmp, T cmp_value) \
	{ \
		return face_multi(__func__, FACE_ANY, 0, ivars, nelems, NULL, \
				  status, K(T), sizeof(T), cmp, &cmp_value, \
				  0); \
	} \
	size_t shmem_##N##_test_some(T *ivars, size_t nelems, \
				     size_t *indices, const int *status, \
				     int cmp, T cmp_value) \
	{ \
		return face_multi(__func__, FACE_SOME, 0, ivars, nelems, \
				  indices, status, K(T), sizeof(T), cmp, \
				  &cmp_value, 0); \
	} \
	int shmem_##N##_test_all_vector(T *ivars, size_t nelems, \
					const int *status, int cmp, \
					T *cmp_values) \
	{ \
		return (int)face_multi(__func__, FACE_ALL, 0, ivars, nelems, \
				       NULL, status, K(T), sizeof(T), cmp, \
				       cmp_values, 1); \
	} \
	size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, \
					   const int *status, int cmp, \
					   T *cmp_values) \
	{ \
		return face_multi(__func__, FACE_ANY, 0, ivars, nelems, NULL, \
				  status, K(T), sizeof(T), cmp, cmp_values, \
				  1); \
	} \
	size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, \
					    size_t *indices, \
					    const int *status, int cmp, \
					    T *cmp_values) \
	{ \
		return face_multi(__func__, FACE_SOME, 0, ivars, nelems, \
				  indices, status, K(T), sizeof(T), cmp, \
				  cmp_values, 1); \
	}
SHMEM_SYNC_TYPES(DEF_SYNC, )

/* ---- the 1.4 names (deprecated) ---------------------------------------- */

#define DEF_OLD_WAIT(T, N, A) \
	void shmem_##N##_wait(T *ivar, T cmp_value) \
	{ \
		face_wait_until(__func__, ivar, K(T), sizeof(T), SHMEM_CMP_NE, \
				&cmp_value); \
	}
SHMEM_OLD_WAIT_TYPES(DEF_OLD_WAIT, )

void
(shmem_wait_until)(long *ivar, int cmp, long cmp_value)
{
	face_wait_until("shmem_wait_until", ivar, SH_T_INT, sizeof(long), cmp,
			&cmp_value);
}

void
(shmem_wait)(long *ivar, long cmp_value)
{
	face_wait_until("shmem_wait", ivar, SH_T_INT, sizeof(long),
			SHMEM_CMP_NE, &cmp_value);
}

/* ---- ordering, completion, the world's barrier ------------------------- */

void
shmem_ctx_fence(shmem_ctx_t ctx)
{
	if (ctx == SHMEM_CTX_INVALID)
		return; /* the spec's team-context example: PEs outside */
	int rc = sh_fence(face_ctx(__func__, ctx));
	if (rc < 0)
		face_fail(__func__, rc, -1, "ctx", ctx);
}

void
shmem_fence(void)
{
	int rc = sh_fence(face_ctx(__func__, SHMEM_CTX_DEFAULT));
	if (rc < 0)
		face_fail(__func__, rc, -1, "ctx", NULL);
}

void
shmem_ctx_quiet(shmem_ctx_t ctx)
{
	if (ctx == SHMEM_CTX_INVALID)
		return; /* the spec's team-context example: PEs outside */
	int rc = sh_quiet(face_ctx(__func__, ctx));
	if (rc < 0)
		face_fail(__func__, rc, -1, "ctx", ctx);
}

void
shmem_quiet(void)
{
	int rc = sh_quiet(face_ctx(__func__, SHMEM_CTX_DEFAULT));
	if (rc < 0)
		face_fail(__func__, rc, -1, "ctx", NULL);
}

void
shmem_barrier_all(void)
{
	sh_check_init(__func__);
	int rc = sh_barrier(sh_team_world);
	if (rc < 0)
		face_fail(__func__, rc, -1, "team", NULL);
}

void
shmem_sync_all(void)
{
	sh_check_init(__func__);
	int rc = sh_team_sync(sh_team_world);
	if (rc < 0)
		face_fail(__func__, rc, -1, "team", NULL);
}
