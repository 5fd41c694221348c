// SPDX-License-Identifier: MIT
/*
 * sh_face_amo.c: the OpenSHMEM atomics: fetch/set/swap on the extended AMO
 * types, compare_swap/fetch_inc/inc/fetch_add/add on the standard ones,
 * fetch_and/and/fetch_or/or/fetch_xor/xor on the bitwise ones; the _nbi
 * fetching forms, the shmem_ctx_ forms and the 1.4 names (shmem_int_fadd,
 * ...). From SHMEM_EXTAMO_TYPES, SHMEM_AMO_TYPES, SHMEM_BITAMO_TYPES and
 * SHMEM_OLD_*_TYPES; each routine one call of face_amo.
 *
 * The _nbi forms complete before they return (a valid implementation: the
 * result is in fetch by the next quiet, and earlier).
 */
#include "sh_face.h"

#include <stdint.h>

void
face_amo(const char *call, shmem_ctx_t ctx, enum sh_amo_op op,
	 enum sh_type t, size_t esize, void *dest, const void *value,
	 const void *cond, void *fetched, int pe)
{
	struct sh_ctx *c = face_ctx(call, ctx);
	pe = face_cpe(call, c, pe);
	const char *what = op == SH_AMO_FETCH ? "source" : "dest";
	if (__builtin_expect(dest == NULL, 0))
		sh_fatal(call, "%s is NULL", what);
	if (__builtin_expect(((uintptr_t)dest & (esize - 1)) != 0, 0))
		sh_fatal(call, "%s %p is not %zu-byte aligned", what, dest,
			 esize);
	int rc = sh_amo(c, op, t, esize, dest, value, cond, fetched, pe);
	if (__builtin_expect(rc < 0, 0))
		face_fail(call, rc, pe, what, dest);
}

static inline void
face_fetch_ptr(const char *call, const void *fetch)
{
	if (__builtin_expect(fetch == NULL, 0))
		sh_fatal(call, "fetch is NULL");
}

/* AMO(call, ctx, OP, dest, value, cond) returning the old value. */
#define FETCHING(T, OP, ctx, dest, value, cond, pe) \
	T old; \
	face_amo(__func__, ctx, OP, FACE_KIND(T), sizeof(T), (void *)(dest), \
		 value, cond, &old, pe); \
	return old
#define NBI(T, OP, ctx, fetch, dest, value, cond, pe) \
	face_fetch_ptr(__func__, fetch); \
	face_amo(__func__, ctx, OP, FACE_KIND(T), sizeof(T), (void *)(dest), \
		 value, cond, fetch, pe)
#define NONFETCHING(T, OP, ctx, dest, value, pe) \
	face_amo(__func__, ctx, OP, FACE_KIND(T), sizeof(T), dest, value, \
		 NULL, NULL, pe)

#define DEF_EXTAMO(T, N, A) \
	T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t ctx, const T *source, \
				       int pe) \
	{ \
		FETCHING(T, SH_AMO_FETCH, ctx, source, NULL, NULL, pe); \
	} \
	T shmem_##N##_atomic_fetch(const T *source, int pe) \
	{ \
		FETCHING(T, SH_AMO_FETCH, SHMEM_CTX_DEFAULT, source, NULL, \
			 NULL, pe); \
	} \
	void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t ctx, T *fetch, \
					      const T *source, int pe) \
	{ \
		NBI(T, SH_AMO_FETCH, ctx, fetch, source, NULL, NULL, pe); \
	} \
	void shmem_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe) \
	{ \
		NBI(T, SH_AMO_FETCH, SHMEM_CTX_DEFAULT, fetch, source, NULL, \
		    NULL, pe); \
	} \
	void shmem_ctx_##N##_atomic_set(shmem_ctx_t ctx, T *dest, T value, \
					int pe) \
	{ \
		NONFETCHING(T, SH_AMO_SET, ctx, dest, &value, pe); \
	} \
	void shmem_##N##_atomic_set(T *dest, T value, int pe) \
	{ \
		NONFETCHING(T, SH_AMO_SET, SHMEM_CTX_DEFAULT, dest, &value, \
			    pe); \
	} \
	T shmem_ctx_##N##_atomic_swap(shmem_ctx_t ctx, T *dest, T value, \
				      int pe) \
	{ \
		FETCHING(T, SH_AMO_SWAP, ctx, dest, &value, NULL, pe); \
	} \
	T shmem_##N##_atomic_swap(T *dest, T value, int pe) \
	{ \
		FETCHING(T, SH_AMO_SWAP, SHMEM_CTX_DEFAULT, dest, &value, \
			 NULL, pe); \
	} \
	void shmem_ctx_##N##_atomic_swap_nbi(shmem_ctx_t ctx, T *fetch, \
					     T *dest, T value, int pe) \
	{ \
		NBI(T, SH_AMO_SWAP, ctx, fetch, dest, &value, NULL, pe); \
	} \
	void shmem_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe) \
	{ \
		NBI(T, SH_AMO_SWAP, SHMEM_CTX_DEFAULT, fetch, dest, &value, \
		    NULL, pe); \
	}
SHMEM_EXTAMO_TYPES(DEF_EXTAMO, )

#define DEF_AMO(T, N, A) \
	T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t ctx, T *dest, \
					      T cond, T value, int pe) \
	{ \
		FETCHING(T, SH_AMO_CSWAP, ctx, dest, &value, &cond, pe); \
	} \
	T shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe) \
	{ \
		FETCHING(T, SH_AMO_CSWAP, SHMEM_CTX_DEFAULT, dest, &value, \
			 &cond, pe); \
	} \
	void shmem_ctx_##N##_atomic_compare_swap_nbi(shmem_ctx_t ctx, \
						     T *fetch, T *dest, \
						     T cond, T value, int pe) \
	{ \
		NBI(T, SH_AMO_CSWAP, ctx, fetch, dest, &value, &cond, pe); \
	} \
	void shmem_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, \
						 T value, int pe) \
	{ \
		NBI(T, SH_AMO_CSWAP, SHMEM_CTX_DEFAULT, fetch, dest, &value, \
		    &cond, pe); \
	} \
	T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t ctx, T *dest, int pe) \
	{ \
		T one = 1; \
		FETCHING(T, SH_AMO_ADD, ctx, dest, &one, NULL, pe); \
	} \
	T shmem_##N##_atomic_fetch_inc(T *dest, int pe) \
	{ \
		T one = 1; \
		FETCHING(T, SH_AMO_ADD, SHMEM_CTX_DEFAULT, dest, &one, NULL, \
			 pe); \
	} \
	void shmem_ctx_##N##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T *fetch, \
						  T *dest, int pe) \
	{ \
		T one = 1; \
		NBI(T, SH_AMO_ADD, ctx, fetch, dest, &one, NULL, pe); \
	} \
	void shmem_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe) \
	{ \
		T one = 1; \
		NBI(T, SH_AMO_ADD, SHMEM_CTX_DEFAULT, fetch, dest, &one, \
		    NULL, pe); \
	} \
	void shmem_ctx_##N##_atomic_inc(shmem_ctx_t ctx, T *dest, int pe) \
	{ \
		T one = 1; \
		NONFETCHING(T, SH_AMO_ADD, ctx, dest, &one, pe); \
	} \
	void shmem_##N##_atomic_inc(T *dest, int pe) \
	{ \
		T one = 1; \
		NONFETCHING(T, SH_AMO_ADD, SHMEM_CTX_DEFAULT, dest, &one, \
			    pe); \
	} \
	T shmem_ctx_##N##_atomic_fetch_add(shmem_ctx_t ctx, T *dest, \
					   T value, int pe) \
	{ \
		FETCHING(T, SH_AMO_ADD, ctx, dest, &value, NULL, pe); \
	} \
	T shmem_##N##_atomic_fetch_add(T *dest, T value, int pe) \
	{ \
		FETCHING(T, SH_AMO_ADD, SHMEM_CTX_DEFAULT, dest, &value, \
			 NULL, pe); \
	} \
	void shmem_ctx_##N##_atomic_fetch_add_nbi(shmem_ctx_t ctx, T *fetch, \
						  T *dest, T value, int pe) \
	{ \
		NBI(T, SH_AMO_ADD, ctx, fetch, dest, &value, NULL, pe); \
	} \
	void shmem_##N##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, \
					      int pe) \
	{ \
		NBI(T, SH_AMO_ADD, SHMEM_CTX_DEFAULT, fetch, dest, &value, \
		    NULL, pe); \
	} \
	void shmem_ctx_##N##_atomic_add(shmem_ctx_t ctx, T *dest, T value, \
					int pe) \
	{ \
		NONFETCHING(T, SH_AMO_ADD, ctx, dest, &value, pe); \
	} \
	void shmem_##N##_atomic_add(T *dest, T value, int pe) \
	{ \
		NONFETCHING(T, SH_AMO_ADD, SHMEM_CTX_DEFAULT, dest, &value, \
			    pe); \
	}
SHMEM_AMO_TYPES(DEF_AMO, )

/* OP: and / or / xor; SHOP_##OP its runtime operation. */
#define SHOP_and SH_AMO_AND
#define SHOP_or SH_AMO_OR
#define SHOP_xor SH_AMO_XOR
#define DEF_BITAMO(T, N, OP) DEF_BITAMO_(T, N, OP, SHOP_##OP)
#define DEF_BITAMO_(T, N, OP, SHOP) \
	T shmem_ctx_##N##_atomic_fetch_##OP(shmem_ctx_t ctx, T *dest, \
					    T value, int pe) \
	{ \
		FETCHING(T, SHOP, ctx, dest, &value, NULL, pe); \
	} \
	T shmem_##N##_atomic_fetch_##OP(T *dest, T value, int pe) \
	{ \
		FETCHING(T, SHOP, SHMEM_CTX_DEFAULT, dest, &value, NULL, pe); \
	} \
	void shmem_ctx_##N##_atomic_fetch_##OP##_nbi(shmem_ctx_t ctx, \
						     T *fetch, T *dest, \
						     T value, int pe) \
	{ \
		NBI(T, SHOP, ctx, fetch, dest, &value, NULL, pe); \
	} \
	void shmem_##N##_atomic_fetch_##OP##_nbi(T *fetch, T *dest, T value, \
						 int pe) \
	{ \
		NBI(T, SHOP, SHMEM_CTX_DEFAULT, fetch, dest, &value, NULL, \
		    pe); \
	} \
	void shmem_ctx_##N##_atomic_##OP(shmem_ctx_t ctx, T *dest, T value, \
					 int pe) \
	{ \
		NONFETCHING(T, SHOP, ctx, dest, &value, pe); \
	} \
	void shmem_##N##_atomic_##OP(T *dest, T value, int pe) \
	{ \
		NONFETCHING(T, SHOP, SHMEM_CTX_DEFAULT, dest, &value, pe); \
	}
SHMEM_BITAMO_TYPES(DEF_BITAMO, and)
SHMEM_BITAMO_TYPES(DEF_BITAMO, or)
SHMEM_BITAMO_TYPES(DEF_BITAMO, xor)

/* ---- the 1.4 names (deprecated) ---------------------------------------- */

#define DEF_OLD_EXTAMO(T, N, A) \
	T shmem_##N##_fetch(const T *source, int pe) \
	{ \
		FETCHING(T, SH_AMO_FETCH, SHMEM_CTX_DEFAULT, source, NULL, \
			 NULL, pe); \
	} \
	void shmem_##N##_set(T *dest, T value, int pe) \
	{ \
		NONFETCHING(T, SH_AMO_SET, SHMEM_CTX_DEFAULT, dest, &value, \
			    pe); \
	} \
	T shmem_##N##_swap(T *dest, T value, int pe) \
	{ \
		FETCHING(T, SH_AMO_SWAP, SHMEM_CTX_DEFAULT, dest, &value, \
			 NULL, pe); \
	}
SHMEM_OLD_EXTAMO_TYPES(DEF_OLD_EXTAMO, )

#define DEF_OLD_AMO(T, N, A) \
	T shmem_##N##_cswap(T *dest, T cond, T value, int pe) \
	{ \
		FETCHING(T, SH_AMO_CSWAP, SHMEM_CTX_DEFAULT, dest, &value, \
			 &cond, pe); \
	} \
	T shmem_##N##_finc(T *dest, int pe) \
	{ \
		T one = 1; \
		FETCHING(T, SH_AMO_ADD, SHMEM_CTX_DEFAULT, dest, &one, NULL, \
			 pe); \
	} \
	void shmem_##N##_inc(T *dest, int pe) \
	{ \
		T one = 1; \
		NONFETCHING(T, SH_AMO_ADD, SHMEM_CTX_DEFAULT, dest, &one, \
			    pe); \
	} \
	T shmem_##N##_fadd(T *dest, T value, int pe) \
	{ \
		FETCHING(T, SH_AMO_ADD, SHMEM_CTX_DEFAULT, dest, &value, \
			 NULL, pe); \
	} \
	void shmem_##N##_add(T *dest, T value, int pe) \
	{ \
		NONFETCHING(T, SH_AMO_ADD, SHMEM_CTX_DEFAULT, dest, &value, \
			    pe); \
	}
SHMEM_OLD_AMO_TYPES(DEF_OLD_AMO, )
