// SPDX-License-Identifier: MIT
/*
 * sh_face_roc.c: rocSHMEM's host API (api/rocshmem/rocshmem.h) over the
 * runtime: init (environment or unique id), query, the memory routines of
 * seed 000 (sh_malloc & co, which already follow its rules; the
 * registrations of sh_register.c), RMA, put-with-signal, atomics, waits,
 * ordering, barriers and teams. Every typed routine comes from one of
 * rocshmem.h's type tables (ROCSHMEM_*_TYPES), each one call of the
 * faces' shared operations (face_put, face_amo, face_wait_until: the same
 * checks and error lines as the OpenSHMEM names).
 *
 * Values that differ from OpenSHMEM's: the comparisons (ROCSHMEM_CMP_EQ
 * is 0) go through face_roc_cmp; the thread levels (rocSHMEM has five)
 * through roc_thread_in/out. Handles: rocshmem_team_t is the runtime's
 * struct sh_team * cast, as shmem_team_t is; rocshmem_ctx_t carries the
 * runtime's context in ctx_opaque. The contexts' own calls, the
 * multi-ivar and float waits, the ctx collectives and the statistics are
 * sh_face_roc3.c's; the stream-ordered forms sh_face_stream.c's.
 */
#include "sh_face.h"

#pragma GCC visibility push(default)
#include "rocshmem/rocshmem.h"
#pragma GCC visibility pop

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

rocshmem_team_t ROCSHMEM_TEAM_WORLD = ROCSHMEM_TEAM_INVALID;
rocshmem_team_t ROCSHMEM_TEAM_SHARED = ROCSHMEM_TEAM_INVALID;
rocshmem_ctx_t ROCSHMEM_CTX_DEFAULT = {NULL, NULL};
const rocshmem_ctx_t ROCSHMEM_CTX_INVALID = {NULL, NULL};


_Static_assert(ROCSHMEM_UNIQUEID_BYTES == SH_UID_BYTES, "unique id size");
_Static_assert((int)ROCSHMEM_SIGNAL_SET == SH_SIGNAL_SET &&
	       (int)ROCSHMEM_SIGNAL_ADD == SH_SIGNAL_ADD, "signal ops");



/* The runtime's comparison for a ROCSHMEM_CMP_* value; ends the PE for
 * anything else. */
int
face_roc_cmp(const char *call, int cmp)
{
	static const int map[] = {
		[ROCSHMEM_CMP_EQ] = SH_CMP_EQ, [ROCSHMEM_CMP_NE] = SH_CMP_NE,
		[ROCSHMEM_CMP_GT] = SH_CMP_GT, [ROCSHMEM_CMP_GE] = SH_CMP_GE,
		[ROCSHMEM_CMP_LT] = SH_CMP_LT, [ROCSHMEM_CMP_LE] = SH_CMP_LE,
	};
	if (cmp < 0 || cmp >= (int)(sizeof(map) / sizeof(map[0])))
		sh_fatal(call, "cmp %d is not a ROCSHMEM_CMP_* value", cmp);
	return map[cmp];
}

/* rocSHMEM's thread levels <-> SHMEM_THREAD_*: WG_FUNNELED (a device
 * notion) is FUNNELED on the host. -1: not a level. */
static int
roc_thread_in(int level)
{
	switch (level) {
	case ROCSHMEM_THREAD_SINGLE: return SHMEM_THREAD_SINGLE;
	case ROCSHMEM_THREAD_FUNNELED:
	case ROCSHMEM_THREAD_WG_FUNNELED: return SHMEM_THREAD_FUNNELED;
	case ROCSHMEM_THREAD_SERIALIZED: return SHMEM_THREAD_SERIALIZED;
	case ROCSHMEM_THREAD_MULTIPLE: return SHMEM_THREAD_MULTIPLE;
	default: return -1;
	}
}

static int
roc_thread_out(int level)
{
	switch (level) {
	case SHMEM_THREAD_SINGLE: return ROCSHMEM_THREAD_SINGLE;
	case SHMEM_THREAD_FUNNELED: return ROCSHMEM_THREAD_FUNNELED;
	case SHMEM_THREAD_SERIALIZED: return ROCSHMEM_THREAD_SERIALIZED;
	default: return ROCSHMEM_THREAD_MULTIPLE;
	}
}

/* ---- initialization ---------------------------------------------------- */

static int
roc_init(const char *call, const void *uid, int rank, int nranks, int req,
	 int *provided)
{
	int got = SHMEM_THREAD_SINGLE;
	int rc = sh_init(uid, rank, nranks, req, &got);
	if (rc < 0) {
		fprintf(stderr, "zeshmem: %s: initialization failed: %s\n",
			call, strerror(-rc));
		return ROCSHMEM_ERROR;
	}
	ROCSHMEM_TEAM_WORLD = (rocshmem_team_t)sh_team_world;
	ROCSHMEM_TEAM_SHARED = (rocshmem_team_t)sh_team_shared;
	ROCSHMEM_CTX_DEFAULT.ctx_opaque = (void *)SHMEM_CTX_DEFAULT;
	ROCSHMEM_CTX_DEFAULT.team_opaque = NULL;
	rocshmem_reset_stats();
	SHMEM_TEAM_WORLD = (shmem_team_t)sh_team_world;
	SHMEM_TEAM_SHARED = (shmem_team_t)sh_team_shared;
	if (provided)
		*provided = roc_thread_out(got);
	return ROCSHMEM_SUCCESS;
}

int
rocshmem_init(void)
{
	return roc_init(__func__, NULL, 0, 0, SHMEM_THREAD_SINGLE, NULL);
}

int
rocshmem_init_thread(int requested, int *provided)
{
	int req = roc_thread_in(requested);
	if (req < 0) {
		fprintf(stderr, "zeshmem: %s: requested %d is not a "
			"ROCSHMEM_THREAD_* level\n", __func__, requested);
		return ROCSHMEM_ERROR;
	}
	return roc_init(__func__, NULL, 0, 0, req, provided);
}

int
rocshmem_init_attr(unsigned int flags, rocshmem_init_attr_t *attr)
{
	if (flags == ROCSHMEM_INIT_WITH_MPI_COMM) {
		if (attr && attr->mpi_comm) {
			fprintf(stderr, "zeshmem: %s: "
				"ROCSHMEM_INIT_WITH_MPI_COMM with a "
				"communicator: libzeshmem has no MPI "
				"(rocshmem.hpp's rocshmem_init(MPI_Comm) "
				"starts on one)\n", __func__);
			return ROCSHMEM_ERROR;
		}
		return rocshmem_init();
	}
	const char *bad = NULL;
	if (flags != ROCSHMEM_INIT_WITH_UNIQUEID)
		bad = "flags other than ROCSHMEM_INIT_WITH_UNIQUEID";
	else if (attr == NULL)
		bad = "attr is NULL";
	else if (attr->nranks < 1)
		bad = "nranks < 1";
	else if (attr->rank < 0 || attr->rank >= attr->nranks)
		bad = "rank not in [0, nranks)";
	if (bad) {
		fprintf(stderr, "zeshmem: %s: %s (flags %#x)\n", __func__, bad,
			flags);
		return ROCSHMEM_ERROR;
	}
	return roc_init(__func__, attr->uid.internal, attr->rank,
			attr->nranks, SHMEM_THREAD_SINGLE, NULL);
}

int
rocshmem_get_uniqueid(rocshmem_uniqueid_t *uid)
{
	if (uid == NULL) {
		fprintf(stderr, "zeshmem: %s: uid is NULL\n", __func__);
		return ROCSHMEM_ERROR;
	}
	int rc = sh_boot_uid_create(uid->internal);
	if (rc < 0) {
		fprintf(stderr, "zeshmem: %s: %s\n", __func__, strerror(-rc));
		return ROCSHMEM_ERROR;
	}
	return ROCSHMEM_SUCCESS;
}

int
rocshmem_set_attr_uniqueid_args(int rank, int nranks,
				rocshmem_uniqueid_t *uid,
				rocshmem_init_attr_t *attr)
{
	if (uid == NULL || attr == NULL) {
		fprintf(stderr, "zeshmem: %s: %s is NULL\n", __func__,
			uid ? "attr" : "uid");
		return ROCSHMEM_ERROR;
	}
	attr->rank = rank;
	attr->nranks = nranks;
	memcpy(&attr->uid, uid, sizeof(attr->uid));
	attr->mpi_comm = NULL;
	return ROCSHMEM_SUCCESS;
}

void
rocshmem_query_thread(int *provided)
{
	sh_check_init(__func__);
	if (provided == NULL)
		sh_fatal(__func__, "provided is NULL");
	*provided = roc_thread_out(sh.thread_level);
}

void
rocshmem_finalize(void)
{
	shmem_finalize();
	if (!sh.initialized) {
		ROCSHMEM_TEAM_WORLD = ROCSHMEM_TEAM_INVALID;
		ROCSHMEM_TEAM_SHARED = ROCSHMEM_TEAM_INVALID;
		ROCSHMEM_CTX_DEFAULT = ROCSHMEM_CTX_INVALID;
	}
}

void
rocshmem_global_exit(int status)
{
	sh_global_exit(status);
}

int
rocshmem_my_pe(void)
{
	return sh.initialized ? sh.me : -1;
}

int
rocshmem_n_pes(void)
{
	return sh.initialized ? sh.npes : -1;
}

void *
rocshmem_ptr(const void *dest, int pe)
{
	if (!sh.initialized || dest == NULL)
		return NULL;
	return sh_remote_ptr(dest, 1, pe);
}

/* ---- memory (seed 000) ------------------------------------------------- */

void *
rocshmem_malloc(size_t size)
{
	return sh_malloc(size, SH_DEFAULT_ALIGN, __func__);
}

void *
rocshmem_align(size_t alignment, size_t size)
{
	return sh_malloc(size, alignment, __func__);
}

void *
rocshmem_calloc(size_t count, size_t size)
{
	return sh_calloc(count, size, __func__);
}

void
rocshmem_free(void *ptr)
{
	sh_free(ptr, __func__);
}

int
rocshmem_buffer_register(void *addr, size_t length)
{
	sh_check_init(__func__);
	int rc = sh_lreg_add(addr, length);
	if (rc == 0)
		return ROCSHMEM_SUCCESS;
	if (rc == -EEXIST)
		sh_warn(__func__, "addr %p, length %zu overlaps a registered "
			"buffer", addr, length);
	else
		sh_warn(__func__, "addr %p, length %zu: %s", addr, length,
			rc == -EINVAL ? "a NULL address, a zero length or a "
					"range that wraps" : strerror(-rc));
	return ROCSHMEM_ERROR;
}

int
rocshmem_buffer_unregister(void *addr)
{
	sh_check_init(__func__);
	if (sh_lreg_del(addr) == 0)
		return ROCSHMEM_SUCCESS;
	sh_warn(__func__, "%p is not the address of a registered buffer",
		addr);
	return ROCSHMEM_ERROR;
}

void
rocshmem_buffer_unregister_all(void)
{
	sh_check_init(__func__);
	sh_lreg_del_all();
}

void *
rocshmem_buffer_register_symmetric(void *addr, size_t length)
{
	return sh_symreg_add(addr, length, __func__);
}

int
rocshmemx_set_ze_context(void *ctx)
{
	sh_symreg_set_ctx((ze_context_handle_t)ctx);
	return ROCSHMEM_SUCCESS;
}

int
rocshmem_buffer_unregister_symmetric(void *addr)
{
	return sh_symreg_del(addr, __func__) ? ROCSHMEM_ERROR
					     : ROCSHMEM_SUCCESS;
}

int
rocshmem_buffer_register_vmm(void *addr, size_t length, int my_pe,
			     int n_pes, ptrdiff_t stride)
{
	sh_check_init(__func__);
	return sh_strreg_add(addr, length, my_pe, n_pes, stride, __func__)
		       ? -1
		       : 0;
}

int
rocshmem_sym_buffer_register(void *addr, size_t length, int my_pe,
			     int n_pes, ptrdiff_t stride)
{
	sh_check_init(__func__);
	return sh_strreg_add_sym(addr, length, my_pe, n_pes, stride,
				 __func__) ? -1 : 0;
}

int
rocshmem_sym_buffer_unregister(void *addr)
{
	sh_check_init(__func__);
	shmem_quiet();
	if (sh_strreg_del(addr) == 0)
		return 0;
	sh_warn(__func__, "addr %p is no stride registration's", addr);
	return -1;
}

/* ---- RMA --------------------------------------------------------------- */

void
rocshmem_putmem(void *dest, const void *source, size_t nelems, int pe)
{
	ROC_COUNT(ROC_PUT);
	face_put(__func__, SHMEM_CTX_DEFAULT, dest, source, nelems, 1, pe, 0);
}

void
rocshmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe)
{
	ROC_COUNT(ROC_PUT);
	face_put(__func__, SHMEM_CTX_DEFAULT, dest, source, nelems, 1, pe, 1);
}

void
rocshmem_getmem(void *dest, const void *source, size_t nelems, int pe)
{
	ROC_COUNT(ROC_GET);
	face_get(__func__, SHMEM_CTX_DEFAULT, dest, source, nelems, 1, pe, 0);
}

void
rocshmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe)
{
	ROC_COUNT(ROC_GET);
	face_get(__func__, SHMEM_CTX_DEFAULT, dest, source, nelems, 1, pe, 1);
}

/* The runtime's context of a rocshmem_ctx_t; ends the PE for
 * ROCSHMEM_CTX_INVALID (as face_ctx does for SHMEM_CTX_INVALID). */
static shmem_ctx_t
roc_ctx(const char *call, rocshmem_ctx_t ctx)
{
	if (__builtin_expect(ctx.ctx_opaque == NULL, 0))
		sh_fatal(call, "ctx is ROCSHMEM_CTX_INVALID");
	return (shmem_ctx_t)ctx.ctx_opaque;
}

/* The typed RMA of name prefix NM (rocshmem_int, rocshmem_ctx_int), its
 * leading parameters P() (ROC_NOP, or ROC_CTXP) and the runtime context
 * CX. */
#define ROC_CTXP() rocshmem_ctx_t ctx,
#define ROC_NOP()
#define ROC_CX roc_ctx(__func__, ctx)
#define DEF_RMA1(T, NM, P, CX) \
	void NM##_put(P() T *dest, const T *source, size_t nelems, int pe) \
	{ \
		ROC_COUNT(ROC_PUT); \
		face_put(__func__, CX, dest, source, nelems, sizeof(T), pe, \
			 0); \
	} \
	void NM##_put_nbi(P() T *dest, const T *source, size_t nelems, \
			   int pe) \
	{ \
		ROC_COUNT(ROC_PUT); \
		face_put(__func__, CX, dest, source, nelems, sizeof(T), pe, \
			 1); \
	} \
	void NM##_p(P() T *dest, T value, int pe) \
	{ \
		ROC_COUNT(ROC_PUT); \
		face_put(__func__, CX, dest, &value, 1, sizeof(T), pe, 0); \
	} \
	void NM##_get(P() T *dest, const T *source, size_t nelems, int pe) \
	{ \
		ROC_COUNT(ROC_GET); \
		face_get(__func__, CX, dest, source, nelems, sizeof(T), pe, \
			 0); \
	} \
	void NM##_get_nbi(P() T *dest, const T *source, size_t nelems, \
			   int pe) \
	{ \
		ROC_COUNT(ROC_GET); \
		face_get(__func__, CX, dest, source, nelems, sizeof(T), pe, \
			 1); \
	} \
	T NM##_g(P() const T *source, int pe) \
	{ \
		T v; \
		ROC_COUNT(ROC_GET); \
		face_get(__func__, CX, &v, source, 1, sizeof(T), pe, 0); \
		return v; \
	}
#define DEF_RMA(T, N, A) \
	DEF_RMA1(T, rocshmem_##N, ROC_NOP, SHMEM_CTX_DEFAULT)
#define DEF_CTX_RMA(T, N, A) \
	DEF_RMA1(T, rocshmem_ctx_##N, ROC_CTXP, ROC_CX)
ROCSHMEM_RMA_TYPES(DEF_RMA, )
ROCSHMEM_RMA_TYPES(DEF_CTX_RMA, )

void
rocshmem_ctx_putmem(rocshmem_ctx_t ctx, void *dest, const void *source,
		    size_t nelems, int pe)
{
	ROC_COUNT(ROC_PUT);
	face_put(__func__, ROC_CX, dest, source, nelems, 1, pe, 0);
}

void
rocshmem_ctx_putmem_nbi(rocshmem_ctx_t ctx, void *dest, const void *source,
			size_t nelems, int pe)
{
	ROC_COUNT(ROC_PUT);
	face_put(__func__, ROC_CX, dest, source, nelems, 1, pe, 1);
}

void
rocshmem_ctx_getmem(rocshmem_ctx_t ctx, void *dest, const void *source,
		    size_t nelems, int pe)
{
	ROC_COUNT(ROC_GET);
	face_get(__func__, ROC_CX, dest, source, nelems, 1, pe, 0);
}

void
rocshmem_ctx_getmem_nbi(rocshmem_ctx_t ctx, void *dest, const void *source,
			size_t nelems, int pe)
{
	ROC_COUNT(ROC_GET);
	face_get(__func__, ROC_CX, dest, source, nelems, 1, pe, 1);
}

void
rocshmem_ctx_putmem_signal(rocshmem_ctx_t ctx, void *dest,
			   const void *source, size_t nelems,
			   uint64_t *sig_addr, uint64_t signal, int sig_op,
			   int pe)
{
	ROC_COUNT(ROC_SIGNAL);
	face_put_signal(__func__, ROC_CX, dest, source, nelems, 1, sig_addr,
			signal, sig_op, pe, 0);
}

void
rocshmem_ctx_putmem_signal_nbi(rocshmem_ctx_t ctx, void *dest,
			       const void *source, size_t nelems,
			       uint64_t *sig_addr, uint64_t signal,
			       int sig_op, int pe)
{
	ROC_COUNT(ROC_SIGNAL);
	face_put_signal(__func__, ROC_CX, dest, source, nelems, 1, sig_addr,
			signal, sig_op, pe, 1);
}

void
rocshmem_putmem_signal(void *dest, const void *source, size_t nelems,
		       uint64_t *sig_addr, uint64_t signal, int sig_op, int pe)
{
	ROC_COUNT(ROC_SIGNAL);
	face_put_signal(__func__, SHMEM_CTX_DEFAULT, dest, source, nelems, 1,
			sig_addr, signal, sig_op, pe, 0);
}

void
rocshmem_putmem_signal_nbi(void *dest, const void *source, size_t nelems,
			   uint64_t *sig_addr, uint64_t signal, int sig_op,
			   int pe)
{
	ROC_COUNT(ROC_SIGNAL);
	face_put_signal(__func__, SHMEM_CTX_DEFAULT, dest, source, nelems, 1,
			sig_addr, signal, sig_op, pe, 1);
}

uint64_t
rocshmem_signal_fetch(const uint64_t *sig_addr)
{
	return shmem_signal_fetch(sig_addr);
}

/* ---- atomics ----------------------------------------------------------- */

/* One atomic of type T on context CX returning the old value (fetching
 * forms), and without. */
#define ROC_AMO(T, CX, OP, dest, value, cond, pe) \
	T old; \
	ROC_COUNT(ROC_AMO); \
	face_amo(__func__, CX, OP, FACE_KIND(T), sizeof(T), (void *)(dest), \
		 value, cond, &old, pe); \
	return old
#define ROC_AMO_NF(T, CX, OP, dest, value, pe) \
	ROC_COUNT(ROC_AMO); \
	face_amo(__func__, CX, OP, FACE_KIND(T), sizeof(T), (void *)(dest), \
		 value, NULL, NULL, pe)

/* fetch, set, swap (every AMO type, float and double included) */
#define DEF_AMO3(T, NM, P, CX) \
	T NM##_atomic_fetch(P() T *source, int pe) \
	{ \
		ROC_AMO(T, CX, SH_AMO_FETCH, source, NULL, NULL, pe); \
	} \
	void NM##_atomic_set(P() T *dest, T value, int pe) \
	{ \
		ROC_AMO_NF(T, CX, SH_AMO_SET, dest, &value, pe); \
	} \
	T NM##_atomic_swap(P() T *dest, T value, int pe) \
	{ \
		ROC_AMO(T, CX, SH_AMO_SWAP, dest, &value, NULL, pe); \
	}
#define DEF_AMO1(T, NM, P, CX) \
	T NM##_atomic_compare_swap(P() T *dest, T cond, T value, int pe) \
	{ \
		ROC_AMO(T, CX, SH_AMO_CSWAP, dest, &value, &cond, pe); \
	} \
	void NM##_atomic_inc(P() T *dest, int pe) \
	{ \
		T one = 1; \
		ROC_AMO_NF(T, CX, SH_AMO_ADD, dest, &one, pe); \
	} \
	T NM##_atomic_fetch_inc(P() T *dest, int pe) \
	{ \
		T one = 1; \
		ROC_AMO(T, CX, SH_AMO_ADD, dest, &one, NULL, pe); \
	} \
	void NM##_atomic_add(P() T *dest, T value, int pe) \
	{ \
		ROC_AMO_NF(T, CX, SH_AMO_ADD, dest, &value, pe); \
	} \
	T NM##_atomic_fetch_add(P() T *dest, T value, int pe) \
	{ \
		ROC_AMO(T, CX, SH_AMO_ADD, dest, &value, NULL, pe); \
	}
#define DEF_AMO(T, N, A) \
	DEF_AMO3(T, rocshmem_##N, ROC_NOP, SHMEM_CTX_DEFAULT) \
	DEF_AMO1(T, rocshmem_##N, ROC_NOP, SHMEM_CTX_DEFAULT) \
	DEF_AMO3(T, rocshmem_ctx_##N, ROC_CTXP, ROC_CX) \
	DEF_AMO1(T, rocshmem_ctx_##N, ROC_CTXP, ROC_CX)
#define DEF_FAMO(T, N, A) \
	DEF_AMO3(T, rocshmem_##N, ROC_NOP, SHMEM_CTX_DEFAULT) \
	DEF_AMO3(T, rocshmem_ctx_##N, ROC_CTXP, ROC_CX)
ROCSHMEM_AMO_TYPES(DEF_AMO, )
ROCSHMEM_FAMO_TYPES(DEF_FAMO, )

#define DEF_BITAMO1(T, NM, P, CX, OP, NAME) \
	void NM##_atomic_##NAME(P() T *dest, T value, int pe) \
	{ \
		ROC_AMO_NF(T, CX, OP, dest, &value, pe); \
	} \
	T NM##_atomic_fetch_##NAME(P() T *dest, T value, int pe) \
	{ \
		ROC_AMO(T, CX, OP, dest, &value, NULL, pe); \
	}
#define DEF_BITAMO2(T, NM, P, CX) \
	DEF_BITAMO1(T, NM, P, CX, SH_AMO_AND, and) \
	DEF_BITAMO1(T, NM, P, CX, SH_AMO_OR, or) \
	DEF_BITAMO1(T, NM, P, CX, SH_AMO_XOR, xor)
#define DEF_BITAMO(T, N, A) \
	DEF_BITAMO2(T, rocshmem_##N, ROC_NOP, SHMEM_CTX_DEFAULT) \
	DEF_BITAMO2(T, rocshmem_ctx_##N, ROC_CTXP, ROC_CX)
ROCSHMEM_BITAMO_TYPES(DEF_BITAMO, )

/* ---- ordering and synchronization -------------------------------------- */

void
rocshmem_fence(void)
{
	ROC_COUNT(ROC_SYNC);
	shmem_fence();
}

void
rocshmem_quiet(void)
{
	ROC_COUNT(ROC_SYNC);
	shmem_quiet();
}

void
rocshmem_barrier_all(void)
{
	ROC_COUNT(ROC_COLL);
	shmem_barrier_all();
}

void
rocshmem_sync_all(void)
{
	ROC_COUNT(ROC_COLL);
	shmem_sync_all();
}

#define DEF_SYNC(T, N, A) \
	void rocshmem_##N##_wait_until(T *ivar, int cmp, T val) \
	{ \
		ROC_COUNT(ROC_SYNC); \
		face_wait_until(__func__, ivar, FACE_KIND(T), sizeof(T), \
				face_roc_cmp(__func__, cmp), &val); \
	} \
	int rocshmem_##N##_test(T *ivar, int cmp, T val) \
	{ \
		ROC_COUNT(ROC_SYNC); \
		return face_test(__func__, ivar, FACE_KIND(T), sizeof(T), \
				 face_roc_cmp(__func__, cmp), &val); \
	}
ROCSHMEM_SYNC_TYPES(DEF_SYNC, )
ROCSHMEM_SYNC_MORE_TYPES(DEF_SYNC, )

/* ---- teams ------------------------------------------------------------- */

static void
roc_cfg(const rocshmem_team_config_t *c, long mask, struct sh_team_cfg *out)
{
	out->num_contexts = 0;
	if (c && (mask & ROCSHMEM_TEAM_NUM_CONTEXTS))
		out->num_contexts = c->num_contexts;
}

int
rocshmem_team_my_pe(rocshmem_team_t team)
{
	if (team == ROCSHMEM_TEAM_INVALID || !sh.initialized)
		return -1;
	struct sh_team *t = face_team(__func__, team);
	return t ? sh_team_my_pe(t) : -1;
}

int
rocshmem_team_n_pes(rocshmem_team_t team)
{
	if (team == ROCSHMEM_TEAM_INVALID || !sh.initialized)
		return -1;
	struct sh_team *t = face_team(__func__, team);
	return t ? sh_team_n_pes(t) : -1;
}

int
rocshmem_team_translate_pe(rocshmem_team_t src_team, int src_pe,
			   rocshmem_team_t dest_team)
{
	if (src_team == ROCSHMEM_TEAM_INVALID ||
	    dest_team == ROCSHMEM_TEAM_INVALID || !sh.initialized)
		return -1;
	struct sh_team *s = face_team(__func__, src_team);
	struct sh_team *d = s ? face_team(__func__, dest_team) : NULL;
	if (!d)
		return -1;
	int r = sh_team_translate(s, src_pe, d);
	return r < 0 ? -1 : r;
}

int
rocshmem_team_split_strided(rocshmem_team_t parent_team, int start,
			    int stride, int size,
			    const rocshmem_team_config_t *config,
			    long config_mask, rocshmem_team_t *new_team)
{
	if (new_team == NULL) {
		sh_warn(__func__, "new_team is NULL");
		return ROCSHMEM_ERROR;
	}
	*new_team = ROCSHMEM_TEAM_INVALID;
	if (parent_team == ROCSHMEM_TEAM_INVALID || !sh.initialized)
		return ROCSHMEM_ERROR;
	struct sh_team_cfg c;
	roc_cfg(config, config_mask, &c);
	struct sh_team *p = face_team(__func__, parent_team);
	struct sh_team *t = NULL;
	if (!p || sh_team_split_strided(p, start, stride, size, &c,
					config_mask, &t) < 0)
		return ROCSHMEM_ERROR;
	*new_team = (rocshmem_team_t)t;
	return ROCSHMEM_SUCCESS;
}

int
rocshmem_team_split_2d(rocshmem_team_t parent_team, int xrange,
		       const rocshmem_team_config_t *xaxis_config,
		       long xaxis_mask, rocshmem_team_t *xaxis_team,
		       const rocshmem_team_config_t *yaxis_config,
		       long yaxis_mask, rocshmem_team_t *yaxis_team)
{
	if (xaxis_team == NULL || yaxis_team == NULL) {
		sh_warn(__func__, "xaxis_team or yaxis_team is NULL");
		return ROCSHMEM_ERROR;
	}
	*xaxis_team = *yaxis_team = ROCSHMEM_TEAM_INVALID;
	if (parent_team == ROCSHMEM_TEAM_INVALID || !sh.initialized)
		return ROCSHMEM_ERROR;
	struct sh_team_cfg xc, yc;
	roc_cfg(xaxis_config, xaxis_mask, &xc);
	roc_cfg(yaxis_config, yaxis_mask, &yc);
	struct sh_team *p = face_team(__func__, parent_team);
	struct sh_team *x = NULL, *y = NULL;
	if (!p || sh_team_split_2d(p, xrange, &xc, xaxis_mask, &x, &yc,
				   yaxis_mask, &y) < 0)
		return ROCSHMEM_ERROR;
	*xaxis_team = (rocshmem_team_t)x;
	*yaxis_team = (rocshmem_team_t)y;
	return ROCSHMEM_SUCCESS;
}

void
rocshmem_team_destroy(rocshmem_team_t team)
{
	if (team == ROCSHMEM_TEAM_INVALID || !sh.initialized)
		return;
	if ((struct sh_team *)team == sh_team_world)
		sh_fatal(__func__, "ROCSHMEM_TEAM_WORLD cannot be destroyed");
	struct sh_team *t = sh_team_live(team);
	if (!t)
		sh_fatal(__func__, "team %p is not a team (destroyed already, "
			 "or never made by a split)", (void *)team);
	sh_team_destroy(t);
}
