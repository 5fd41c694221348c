// SPDX-License-Identifier: MIT
/*
 * sh_face_rma.c: the OpenSHMEM RMA routines: put/get/p/g/iput/iget and
 * their _nbi forms for every standard RMA type, the sized (8..128 bits) and
 * mem forms, put-with-signal, signal_fetch, signal_wait_until; each with
 * its shmem_ctx_ form. Typed routines come from SHMEM_RMA_TYPES and
 * SHMEM_SIZES (shmem.h), each a call of one face_* operation below.
 */
#include "sh_face.h"

#include <stdint.h>

/* ---- the operations ---------------------------------------------------- */

void
face_put(const char *call, shmem_ctx_t ctx, void *dest, const void *src,
	 size_t nelems, size_t esize, int pe, int nbi)
{
	struct sh_ctx *c = face_ctx(call, ctx);
	pe = face_cpe(call, c, pe);
	size_t n = face_bytes(call, nelems, esize);
	if (n == 0)
		return;
	if (__builtin_expect(src == NULL, 0))
		sh_fatal(call, "source is NULL");
	int rc = sh_put(c, dest, src, n, pe, nbi);
	if (__builtin_expect(rc < 0, 0))
		face_fail(call, rc, pe, "dest", dest);
}

void
face_get(const char *call, shmem_ctx_t ctx, void *dest, const void *src,
	 size_t nelems, size_t esize, int pe, int nbi)
{
	struct sh_ctx *c = face_ctx(call, ctx);
	pe = face_cpe(call, c, pe);
	size_t n = face_bytes(call, nelems, esize);
	if (n == 0)
		return;
	if (__builtin_expect(dest == NULL, 0))
		sh_fatal(call, "dest is NULL");
	int rc = sh_get(c, dest, src, n, pe, nbi);
	if (__builtin_expect(rc < 0, 0))
		face_fail(call, rc, pe, "source", src);
}

void
face_iput(const char *call, shmem_ctx_t ctx, void *dest, const void *src,
	  ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t esize, int pe)
{
	struct sh_ctx *c = face_ctx(call, ctx);
	pe = face_cpe(call, c, pe);
	if (nelems == 0)
		return;
	if (src == NULL)
		sh_fatal(call, "source is NULL");
	int rc = sh_iput(c, dest, src, dst, sst, nelems, esize, pe);
	if (rc < 0)
		face_fail(call, rc, pe, "dest", dest);
}

void
face_iget(const char *call, shmem_ctx_t ctx, void *dest, const void *src,
	  ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t esize, int pe)
{
	struct sh_ctx *c = face_ctx(call, ctx);
	pe = face_cpe(call, c, pe);
	if (nelems == 0)
		return;
	if (dest == NULL)
		sh_fatal(call, "dest is NULL");
	int rc = sh_iget(c, dest, src, dst, sst, nelems, esize, pe);
	if (rc < 0)
		face_fail(call, rc, pe, "source", src);
}

void
face_put_signal(const char *call, shmem_ctx_t ctx, void *dest,
		const void *src, size_t nelems, size_t esize,
		uint64_t *sig_addr, uint64_t signal, int sig_op, int pe,
		int nbi)
{
	struct sh_ctx *c = face_ctx(call, ctx);
	pe = face_cpe(call, c, pe);
	size_t n = face_bytes(call, nelems, esize);
	if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
		sh_fatal(call, "sig_op %d is neither SHMEM_SIGNAL_SET nor "
			 "SHMEM_SIGNAL_ADD", sig_op);
	if (sig_addr == NULL || ((uintptr_t)sig_addr & 7) != 0)
		sh_fatal(call, "sig_addr %p is not an 8-byte aligned "
			 "symmetric address", (void *)sig_addr);
	if (n != 0 && src == NULL)
		sh_fatal(call, "source is NULL");
	int rc = sh_put_signal(c, dest, src, n, sig_addr, signal, sig_op, pe,
			       nbi);
	if (rc < 0)
		face_fail(call, rc, pe, "dest or sig_addr", dest);
}

/* ---- typed routines ---------------------------------------------------- */

#define DEF_RMA(T, N, A) \
	void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, \
				 size_t nelems, int pe) \
	{ \
		face_put(__func__, ctx, dest, source, nelems, sizeof(T), pe, \
			 0); \
	} \
	void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe) \
	{ \
		face_put(__func__, SHMEM_CTX_DEFAULT, dest, source, nelems, \
			 sizeof(T), pe, 0); \
	} \
	void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, \
				     const T *source, size_t nelems, int pe) \
	{ \
		face_put(__func__, ctx, dest, source, nelems, sizeof(T), pe, \
			 1); \
	} \
	void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, \
				 int pe) \
	{ \
		face_put(__func__, SHMEM_CTX_DEFAULT, dest, source, nelems, \
			 sizeof(T), pe, 1); \
	} \
	void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe) \
	{ \
		face_put(__func__, ctx, dest, &value, 1, sizeof(T), pe, 0); \
	} \
	void shmem_##N##_p(T *dest, T value, int pe) \
	{ \
		face_put(__func__, SHMEM_CTX_DEFAULT, dest, &value, 1, \
			 sizeof(T), pe, 0); \
	} \
	void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, \
				  ptrdiff_t dst, ptrdiff_t sst, \
				  size_t nelems, int pe) \
	{ \
		face_iput(__func__, ctx, dest, source, dst, sst, nelems, \
			  sizeof(T), pe); \
	} \
	void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, \
			      ptrdiff_t sst, size_t nelems, int pe) \
	{ \
		face_iput(__func__, SHMEM_CTX_DEFAULT, dest, source, dst, \
			  sst, nelems, sizeof(T), pe); \
	} \
	void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, \
				 size_t nelems, int pe) \
	{ \
		face_get(__func__, ctx, dest, source, nelems, sizeof(T), pe, \
			 0); \
	} \
	void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe) \
	{ \
		face_get(__func__, SHMEM_CTX_DEFAULT, dest, source, nelems, \
			 sizeof(T), pe, 0); \
	} \
	void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, \
				     const T *source, size_t nelems, int pe) \
	{ \
		face_get(__func__, ctx, dest, source, nelems, sizeof(T), pe, \
			 1); \
	} \
	void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, \
				 int pe) \
	{ \
		face_get(__func__, SHMEM_CTX_DEFAULT, dest, source, nelems, \
			 sizeof(T), pe, 1); \
	} \
	T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe) \
	{ \
		T v; \
		face_get(__func__, ctx, &v, source, 1, sizeof(T), pe, 0); \
		return v; \
	} \
	T shmem_##N##_g(const T *source, int pe) \
	{ \
		T v; \
		face_get(__func__, SHMEM_CTX_DEFAULT, &v, source, 1, \
			 sizeof(T), pe, 0); \
		return v; \
	} \
	void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, \
				  ptrdiff_t dst, ptrdiff_t sst, \
				  size_t nelems, int pe) \
	{ \
		face_iget(__func__, ctx, dest, source, dst, sst, nelems, \
			  sizeof(T), pe); \
	} \
	void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, \
			      ptrdiff_t sst, size_t nelems, int pe) \
	{ \
		face_iget(__func__, SHMEM_CTX_DEFAULT, dest, source, dst, \
			  sst, nelems, sizeof(T), pe); \
	} \
	void shmem_ctx_##N##_put_signal(shmem_ctx_t ctx, T *dest, \
					const T *source, size_t nelems, \
					uint64_t *sig_addr, uint64_t signal, \
					int sig_op, int pe) \
	{ \
		face_put_signal(__func__, ctx, dest, source, nelems, \
				sizeof(T), sig_addr, signal, sig_op, pe, 0); \
	} \
	void shmem_##N##_put_signal(T *dest, const T *source, size_t nelems, \
				    uint64_t *sig_addr, uint64_t signal, \
				    int sig_op, int pe) \
	{ \
		face_put_signal(__func__, SHMEM_CTX_DEFAULT, dest, source, \
				nelems, sizeof(T), sig_addr, signal, sig_op, \
				pe, 0); \
	} \
	void shmem_ctx_##N##_put_signal_nbi(shmem_ctx_t ctx, T *dest, \
					    const T *source, size_t nelems, \
					    uint64_t *sig_addr, \
					    uint64_t signal, int sig_op, \
					    int pe) \
	{ \
		face_put_signal(__func__, ctx, dest, source, nelems, \
				sizeof(T), sig_addr, signal, sig_op, pe, 1); \
	} \
	void shmem_##N##_put_signal_nbi(T *dest, const T *source, \
					size_t nelems, uint64_t *sig_addr, \
					uint64_t signal, int sig_op, int pe) \
	{ \
		face_put_signal(__func__, SHMEM_CTX_DEFAULT, dest, source, \
				nelems, sizeof(T), sig_addr, signal, sig_op, \
				pe, 1); \
	}
SHMEM_RMA_TYPES(DEF_RMA, )

/* ---- sized and mem routines: ESIZE bytes per element ------------------- */

#define DEF_UNTYPED(SFX, ESIZE) \
	void shmem_ctx_put##SFX(shmem_ctx_t ctx, void *dest, \
				const void *source, size_t nelems, int pe) \
	{ \
		face_put(__func__, ctx, dest, source, nelems, ESIZE, pe, 0); \
	} \
	void shmem_put##SFX(void *dest, const void *source, size_t nelems, \
			    int pe) \
	{ \
		face_put(__func__, SHMEM_CTX_DEFAULT, dest, source, nelems, \
			 ESIZE, pe, 0); \
	} \
	void shmem_ctx_put##SFX##_nbi(shmem_ctx_t ctx, void *dest, \
				      const void *source, size_t nelems, \
				      int pe) \
	{ \
		face_put(__func__, ctx, dest, source, nelems, ESIZE, pe, 1); \
	} \
	void shmem_put##SFX##_nbi(void *dest, const void *source, \
				  size_t nelems, int pe) \
	{ \
		face_put(__func__, SHMEM_CTX_DEFAULT, dest, source, nelems, \
			 ESIZE, pe, 1); \
	} \
	void shmem_ctx_get##SFX(shmem_ctx_t ctx, void *dest, \
				const void *source, size_t nelems, int pe) \
	{ \
		face_get(__func__, ctx, dest, source, nelems, ESIZE, pe, 0); \
	} \
	void shmem_get##SFX(void *dest, const void *source, size_t nelems, \
			    int pe) \
	{ \
		face_get(__func__, SHMEM_CTX_DEFAULT, dest, source, nelems, \
			 ESIZE, pe, 0); \
	} \
	void shmem_ctx_get##SFX##_nbi(shmem_ctx_t ctx, void *dest, \
				      const void *source, size_t nelems, \
				      int pe) \
	{ \
		face_get(__func__, ctx, dest, source, nelems, ESIZE, pe, 1); \
	} \
	void shmem_get##SFX##_nbi(void *dest, const void *source, \
				  size_t nelems, int pe) \
	{ \
		face_get(__func__, SHMEM_CTX_DEFAULT, dest, source, nelems, \
			 ESIZE, pe, 1); \
	} \
	void shmem_ctx_put##SFX##_signal(shmem_ctx_t ctx, void *dest, \
					 const void *source, size_t nelems, \
					 uint64_t *sig_addr, \
					 uint64_t signal, int sig_op, int pe) \
	{ \
		face_put_signal(__func__, ctx, dest, source, nelems, ESIZE, \
				sig_addr, signal, sig_op, pe, 0); \
	} \
	void shmem_put##SFX##_signal(void *dest, const void *source, \
				     size_t nelems, uint64_t *sig_addr, \
				     uint64_t signal, int sig_op, int pe) \
	{ \
		face_put_signal(__func__, SHMEM_CTX_DEFAULT, dest, source, \
				nelems, ESIZE, sig_addr, signal, sig_op, pe, \
				0); \
	} \
	void shmem_ctx_put##SFX##_signal_nbi(shmem_ctx_t ctx, void *dest, \
					     const void *source, \
					     size_t nelems, \
					     uint64_t *sig_addr, \
					     uint64_t signal, int sig_op, \
					     int pe) \
	{ \
		face_put_signal(__func__, ctx, dest, source, nelems, ESIZE, \
				sig_addr, signal, sig_op, pe, 1); \
	} \
	void shmem_put##SFX##_signal_nbi(void *dest, const void *source, \
					 size_t nelems, uint64_t *sig_addr, \
					 uint64_t signal, int sig_op, int pe) \
	{ \
		face_put_signal(__func__, SHMEM_CTX_DEFAULT, dest, source, \
				nelems, ESIZE, sig_addr, signal, sig_op, pe, \
				1); \
	}
#define DEF_SIZED(S, A) \
	DEF_UNTYPED(S, (S) / 8) \
	void shmem_ctx_iput##S(shmem_ctx_t ctx, void *dest, \
			       const void *source, ptrdiff_t dst, \
			       ptrdiff_t sst, size_t nelems, int pe) \
	{ \
		face_iput(__func__, ctx, dest, source, dst, sst, nelems, \
			  (S) / 8, pe); \
	} \
	void shmem_iput##S(void *dest, const void *source, ptrdiff_t dst, \
			   ptrdiff_t sst, size_t nelems, int pe) \
	{ \
		face_iput(__func__, SHMEM_CTX_DEFAULT, dest, source, dst, \
			  sst, nelems, (S) / 8, pe); \
	} \
	void shmem_ctx_iget##S(shmem_ctx_t ctx, void *dest, \
			       const void *source, ptrdiff_t dst, \
			       ptrdiff_t sst, size_t nelems, int pe) \
	{ \
		face_iget(__func__, ctx, dest, source, dst, sst, nelems, \
			  (S) / 8, pe); \
	} \
	void shmem_iget##S(void *dest, const void *source, ptrdiff_t dst, \
			   ptrdiff_t sst, size_t nelems, int pe) \
	{ \
		face_iget(__func__, SHMEM_CTX_DEFAULT, dest, source, dst, \
			  sst, nelems, (S) / 8, pe); \
	}
SHMEM_SIZES(DEF_SIZED, )
DEF_UNTYPED(mem, 1)

/* ---- signals ----------------------------------------------------------- */

uint64_t
shmem_signal_fetch(const uint64_t *sig_addr)
{
	if (sig_addr == NULL || ((uintptr_t)sig_addr & 7) != 0)
		sh_fatal(__func__, "sig_addr %p is not 8-byte aligned",
			 (const void *)sig_addr);
	return sh_signal_fetch(sig_addr);
}

uint64_t
shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value)
{
	if (sig_addr == NULL || ((uintptr_t)sig_addr & 7) != 0)
		sh_fatal(__func__, "sig_addr %p is not 8-byte aligned",
			 (void *)sig_addr);
	face_wait_until(__func__, sig_addr, SH_T_UINT, sizeof(uint64_t), cmp,
			&cmp_value);
	return sh_signal_fetch(sig_addr);
}
