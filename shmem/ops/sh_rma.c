// SPDX-License-Identifier: MIT
/*
 * sh_rma: put / get (contiguous, strided, signalled), fence and quiet.
 *
 * The hot path is a bounds check (sh_remote_fast: one subtraction and two
 * compares for chunk 0) and a memcpy into the peer's heap as this PE maps
 * it, then sh_wake_range (a fence and one load of the peer's sleeper
 * count): no
 * lock, no syscall. That is the "direct" copy mode, used when the heap is
 * host-accessible (sh_heap.c decides) and ZESHMEM_COPY is auto or direct.
 *
 * "engine" (ZESHMEM_COPY=engine, or auto with a heap the host cannot
 * touch): copies go to two immediate command lists of the PE's device,
 * one synchronous (blocking calls: the append returns once the copy is
 * done) and one asynchronous (nbi calls; quiet appends a signal of one
 * host-visible event and waits for it; the list is in order, so that
 * event completes after every earlier copy).
 *
 * Peers on other nodes (sh.peers[pe].net): sh_remote_fast finds no
 * mapping, and that slow branch hands the call to the network transport
 * (transport/sh_ofi.c).
 *
 * ZESHMEM_BACKEND=ro: the first lines of each call (SH_DIVERTED, one
 * load of a pointer that is NULL otherwise) hand it to the hook the
 * proxy registered (sh_divert: ctx/sh_proxy.c queues it to its thread,
 * which calls the same function again from there).
 *
 * Errors: -EINVAL pe out of range or bad argument, -EFAULT the remote
 * range is not wholly inside the symmetric heap, -EOVERFLOW strides that
 * overflow, -EOPNOTSUPP no transport reaches the peer, -EHOSTDOWN
 * the peer ended, -EIO a copy failed.
 *
 * Threads: any thread may put/get (SHMEM_THREAD_MULTIPLE). The direct
 * path shares nothing; the engine path appends to command lists, which
 * Level Zero does not make thread-safe, so engine_lock serialises the
 * appends and quiet's event handshake (the copy engine is the slow path).
 */
#include "sh_ops.h"

#include "u_log.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>

struct sh_ctx sh_ctx_default;
const struct sh_divert *sh_divert;
__thread bool sh_proxy_self;
static pthread_mutex_t engine_lock = PTHREAD_MUTEX_INITIALIZER;
static bool use_engine;

void
sh_engine_lock(void)
{
	pthread_mutex_lock(&engine_lock);
}

void
sh_engine_unlock(void)
{
	pthread_mutex_unlock(&engine_lock);
}

int
sh_rma_init(void)
{
	use_engine = sh.copy == SH_COPY_ENGINE ||
		     (sh.copy == SH_COPY_AUTO && !sh.heap_host_accessible);
	if (sh.copy == SH_COPY_DIRECT && !sh.heap_host_accessible) {
		u_err("shmem", "ZESHMEM_COPY=direct, but the heap is not "
			       "host-accessible");
		return -EOPNOTSUPP;
	}
	if (!use_engine)
		return 0;
	ze_command_queue_desc_t qd = {
		.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
		.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
	};
	ze_result_t r = zeCommandListCreateImmediate(sh.zctx, sh.zdev, &qd,
						     &sh.cl_sync);
	if (!r) {
		qd.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
		r = zeCommandListCreateImmediate(sh.zctx, sh.zdev, &qd,
						 &sh.cl_async);
	}
	if (!r) {
		ze_event_pool_desc_t pd = {
			.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
			.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE,
			.count = 1,
		};
		r = zeEventPoolCreate(sh.zctx, &pd, 1, &sh.zdev, &sh.evpool);
	}
	if (!r) {
		ze_event_desc_t ed = {
			.stype = ZE_STRUCTURE_TYPE_EVENT_DESC,
			.signal = ZE_EVENT_SCOPE_FLAG_HOST,
			.wait = ZE_EVENT_SCOPE_FLAG_HOST,
		};
		r = zeEventCreate(sh.evpool, &ed, &sh.ev);
	}
	if (r) {
		u_err("shmem", "copy engine: 0x%x", r);
		sh_rma_fini();
		return sh_ze_err(r);
	}
	u_dbg("shmem", "copies through immediate command lists");
	return 0;
}

void
sh_rma_fini(void)
{
	if (sh.cl_async && sh.async_pending)
		sh_quiet(NULL);
	if (sh.ev)
		zeEventDestroy(sh.ev);
	if (sh.evpool)
		zeEventPoolDestroy(sh.evpool);
	if (sh.cl_async)
		zeCommandListDestroy(sh.cl_async);
	if (sh.cl_sync)
		zeCommandListDestroy(sh.cl_sync);
	sh.ev = NULL;
	sh.evpool = NULL;
	sh.cl_async = sh.cl_sync = NULL;
	sh.async_pending = false;
	use_engine = false;
}

/* nbi copies of a context with a list of its own go there. */
static int
engine_copy(struct sh_ctx *c, void *dst, const void *src, size_t n, int nbi)
{
	ze_command_list_handle_t cl = nbi ? sh.cl_async : sh.cl_sync;
	bool *pending = &sh.async_pending;
	if (nbi && c && c->cl_async) {
		cl = c->cl_async;
		pending = &c->async_pending;
	}
	pthread_mutex_lock(&engine_lock);
	ze_result_t r = zeCommandListAppendMemoryCopy(cl, dst, src, n, NULL, 0,
						      NULL);
	if (!r && nbi)
		__atomic_store_n(pending, true, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&engine_lock);
	if (r) {
		u_err("shmem", "copy of %zu bytes %p -> %p: 0x%x", n, src, dst,
		      r);
		return -EIO;
	}
	return 0;
}

/* Why a remote range has no mapping. */
static int
fault(const void *p, size_t len, int pe)
{
	if (!sh.peers[pe].local)
		return -EOPNOTSUPP;
	(void)p;
	(void)len;
	return -EFAULT;
}

int
sh_put(struct sh_ctx *c, void *dest, const void *src, size_t nbytes, int pe,
       int nbi)
{
	if (SH_DIVERTED())
		return sh_divert->put(c, dest, src, nbytes, pe, nbi);
	(void)c;
	if (__builtin_expect((unsigned)pe >= (unsigned)sh.npes, 0))
		return -EINVAL;
	char *r = sh_remote_fast(dest, nbytes, pe);
	if (__builtin_expect(!r, 0))
		return sh.peers[pe].net ? sh_tr_ofi_put(c, dest, src, nbytes,
							 pe, nbi)
					: fault(dest, nbytes, pe);
	if (__builtin_expect(sh.peers[pe].dead, 0))
		return -EHOSTDOWN;
	if (!nbytes)
		return 0;
	if (__builtin_expect(use_engine, 0)) {
		int err = engine_copy(c, r, src, nbytes, nbi);
		if (err || nbi)
			return err;
	} else if (pe == sh.me) {
		memmove(r, src, nbytes);
	} else {
		memcpy(r, src, nbytes);
	}
	sh_wake_range(pe, dest, nbytes);
	return 0;
}

int
sh_get(struct sh_ctx *c, void *dest, const void *src, size_t nbytes, int pe,
       int nbi)
{
	if (SH_DIVERTED())
		return sh_divert->get(c, dest, src, nbytes, pe, nbi);
	(void)c;
	if (__builtin_expect((unsigned)pe >= (unsigned)sh.npes, 0))
		return -EINVAL;
	const char *r = sh_remote_fast(src, nbytes, pe);
	if (__builtin_expect(!r, 0))
		return sh.peers[pe].net ? sh_tr_ofi_get(c, dest, src, nbytes,
							 pe, nbi)
					: fault(src, nbytes, pe);
	if (__builtin_expect(sh.peers[pe].dead, 0))
		return -EHOSTDOWN;
	if (!nbytes)
		return 0;
	if (__builtin_expect(use_engine, 0))
		return engine_copy(c, dest, r, nbytes, nbi);
	if (pe == sh.me)
		memmove(dest, r, nbytes);
	else
		memcpy(dest, r, nbytes);
	return 0;
}

/* The remote span of a strided access: [lo, lo + len) around base.
 * -EOVERFLOW when the extent does not fit a ptrdiff_t. */
static int
span(const void *base, ptrdiff_t st, size_t nelems, size_t esize,
     const char **lo, size_t *len)
{
	ptrdiff_t ext;
	if (__builtin_mul_overflow((ptrdiff_t)(nelems - 1), st, &ext) ||
	    __builtin_mul_overflow(ext, (ptrdiff_t)esize, &ext))
		return -EOVERFLOW;
	const char *b = base;
	if (ext < 0) {
		if ((uintptr_t)b < (uintptr_t)-ext)
			return -EFAULT;
		*lo = b + ext;
		*len = (size_t)-ext + esize;
	} else {
		*lo = b;
		*len = (size_t)ext + esize;
	}
	return 0;
}

static inline void
copy_elem(char *d, const char *s, size_t esize)
{
	switch (esize) {
	case 1: memcpy(d, s, 1); break;
	case 2: memcpy(d, s, 2); break;
	case 4: memcpy(d, s, 4); break;
	case 8: memcpy(d, s, 8); break;
	case 16: memcpy(d, s, 16); break;
	default: memcpy(d, s, esize); break;
	}
}

/* A peer over the network: one operation per element, not waited for
 * one by one (nbi), then completed together: the call is blocking. */
static int
strided_net(struct sh_ctx *c, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
	    size_t nelems, size_t esize, int pe, bool put, const char *lo,
	    size_t len)
{
	(void)lo;
	(void)len;
	const char *llo;
	size_t llen;
	int err = span(put ? src : dest, put ? sst : dst, nelems, esize, &llo,
		       &llen);
	if (err)
		return err;
	char *d = dest;
	const char *s = src;
	for (size_t i = 0; !err && i < nelems; i++) {
		err = put ? sh_tr_ofi_put(c, d, s, esize, pe, 1)
			  : sh_tr_ofi_get(c, d, s, esize, pe, 1);
		d += dst * (ptrdiff_t)esize;
		s += sst * (ptrdiff_t)esize;
	}
	int e2 = sh_tr_ofi_quiet(c);
	return err ? err : e2;
}

static int
strided(struct sh_ctx *c, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
	size_t nelems, size_t esize, int pe, bool put)
{
	if ((unsigned)pe >= (unsigned)sh.npes || !esize)
		return -EINVAL;
	if (!nelems)
		return 0;
	/* Check the remote span once; the local one is the caller's. */
	const char *lo;
	size_t len;
	const void *rbase = put ? dest : src;
	ptrdiff_t rst = put ? dst : sst;
	int err = span(rbase, rst, nelems, esize, &lo, &len);
	if (err)
		return err;
	const char *rlo = sh_remote_fast(lo, len, pe);
	if (!rlo && sh.peers[pe].net)
		return strided_net(c, dest, src, dst, sst, nelems, esize, pe, put,
				   lo, len);
	if (!rlo)
		return fault(lo, len, pe);
	if (sh.peers[pe].dead)
		return -EHOSTDOWN;
	/* Local span overflow too (the loop's index arithmetic). */
	const char *llo;
	size_t llen;
	if ((err = span(put ? src : dest, put ? sst : dst, nelems, esize,
			&llo, &llen)))
		return err;
	char *r = (char *)rlo + ((const char *)rbase - lo);
	ptrdiff_t rs = rst * (ptrdiff_t)esize;
	ptrdiff_t ls = (put ? sst : dst) * (ptrdiff_t)esize;
	char *l = put ? (char *)src : (char *)dest;
	if (use_engine) {
		for (size_t i = 0; i < nelems; i++, r += rs, l += ls)
			if ((err = put ? engine_copy(NULL, r, l, esize, 0)
				       : engine_copy(NULL, l, r, esize, 0)))
				return err;
	} else {
		for (size_t i = 0; i < nelems; i++, r += rs, l += ls) {
			if (put)
				copy_elem(r, l, esize);
			else
				copy_elem(l, r, esize);
		}
	}
	if (put)
		sh_wake_range(pe, lo, len);
	return 0;
}

int
sh_iput(struct sh_ctx *c, void *dest, const void *src, ptrdiff_t dst,
	ptrdiff_t sst, size_t nelems, size_t esize, int pe)
{
	if (SH_DIVERTED())
		return sh_divert->strided(c, dest, src, dst, sst, nelems, esize,
					pe, true);
	return strided(c, dest, src, dst, sst, nelems, esize, pe, true);
}

int
sh_iget(struct sh_ctx *c, void *dest, const void *src, ptrdiff_t dst,
	ptrdiff_t sst, size_t nelems, size_t esize, int pe)
{
	if (SH_DIVERTED())
		return sh_divert->strided(c, dest, src, dst, sst, nelems, esize,
					pe, false);
	return strided(c, dest, src, dst, sst, nelems, esize, pe, false);
}

int
sh_put_signal(struct sh_ctx *c, void *dest, const void *src, size_t nbytes,
	      uint64_t *sig_addr, uint64_t signal, int sig_op, int pe, int nbi)
{
	if (SH_DIVERTED())
		return sh_divert->put_signal(c, dest, src, nbytes, sig_addr,
					   signal, sig_op, pe, nbi);
	(void)c;
	(void)nbi; /* the signal must follow the payload: done in the call */
	if ((unsigned)pe >= (unsigned)sh.npes ||
	    (sig_op != SH_SIGNAL_SET && sig_op != SH_SIGNAL_ADD) ||
	    (uintptr_t)sig_addr % sizeof(uint64_t))
		return -EINVAL;
	char *r = sh_remote_fast(dest, nbytes, pe);
	uint64_t *rs = sh_remote_fast(sig_addr, sizeof(uint64_t), pe);
	if ((!r || !rs) && sh.peers[pe].net)
		return sh_tr_ofi_put_signal(c, dest, src, nbytes, sig_addr,
					    signal, sig_op, pe);
	if (!r || !rs)
		return fault(r ? (const void *)sig_addr : dest, nbytes, pe);
	if (sh.peers[pe].dead)
		return -EHOSTDOWN;
	if (nbytes) {
		if (use_engine) {
			int err = engine_copy(c, r, src, nbytes, 0);
			if (err)
				return err;
		} else if (pe == sh.me) {
			memmove(r, src, nbytes);
		} else {
			memcpy(r, src, nbytes);
		}
	}
	/* The payload before the signal: release. */
	if (sig_op == SH_SIGNAL_SET)
		__atomic_store_n(rs, signal, __ATOMIC_RELEASE);
	else
		__atomic_fetch_add(rs, signal, __ATOMIC_RELEASE);
	sh_wake_range(pe, sig_addr, sizeof(uint64_t));
	return 0;
}

uint64_t
sh_signal_fetch(const uint64_t *sig_addr)
{
	return __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
}

int
sh_fence(struct sh_ctx *c)
{
	if (SH_DIVERTED())
		return sh_divert->fence(c);
	(void)c;
	/* Direct stores: ordered by the release fence. Engine nbi copies:
	 * one in-order list, so they are ordered already. The network:
	 * sh_tr_ofi_fence (completes what is outstanding). */
	SH_FENCE(__ATOMIC_RELEASE);
	return sh_tr_ofi_active() ? sh_tr_ofi_fence(c) : 0;
}

/* Peers may sleep on what the engine wrote. */
static void
wake_local_peers(void)
{
	for (int pe = 0; pe < sh.npes; pe++)
		if (sh.peers[pe].local)
			sh_wake(pe);
}

/* The quiet of a context with a list of its own: its event only. */
static int
ctx_engine_quiet(struct sh_ctx *c)
{
	ze_result_t r = ZE_RESULT_SUCCESS;
	pthread_mutex_lock(&c->qlock);
	if (__atomic_exchange_n(&c->async_pending, false, __ATOMIC_RELAXED)) {
		pthread_mutex_lock(&engine_lock);
		r = zeCommandListAppendSignalEvent(c->cl_async, c->ev);
		pthread_mutex_unlock(&engine_lock);
		if (!r)
			r = zeEventHostSynchronize(c->ev, UINT64_MAX);
		if (!r)
			r = zeEventHostReset(c->ev);
		if (!r)
			wake_local_peers();
	}
	pthread_mutex_unlock(&c->qlock);
	if (r) {
		u_err("shmem", "quiet: 0x%x", r);
		return -EIO;
	}
	return 0;
}

int
sh_quiet(struct sh_ctx *c)
{
	if (SH_DIVERTED())
		return sh_divert->quiet(c);
	if (__builtin_expect(c && c->cl_async != NULL, 0)) {
		int err = ctx_engine_quiet(c);
		SH_FENCE(__ATOMIC_SEQ_CST);
		if (err)
			return err;
		return sh_tr_ofi_active() ? sh_tr_ofi_quiet(c) : 0;
	}
	if (__builtin_expect(
		    __atomic_load_n(&sh.async_pending, __ATOMIC_RELAXED), 0)) {
		pthread_mutex_lock(&engine_lock);
		ze_result_t r = ZE_RESULT_SUCCESS;
		if (sh.async_pending) {
			__atomic_store_n(&sh.async_pending, false,
					 __ATOMIC_RELAXED);
			r = zeCommandListAppendSignalEvent(sh.cl_async, sh.ev);
			if (!r)
				r = zeEventHostSynchronize(sh.ev, UINT64_MAX);
			if (!r)
				r = zeEventHostReset(sh.ev);
		}
		pthread_mutex_unlock(&engine_lock);
		if (r) {
			u_err("shmem", "quiet: 0x%x", r);
			return -EIO;
		}
		wake_local_peers();
	}
	SH_FENCE(__ATOMIC_SEQ_CST);
	return sh_tr_ofi_active() ? sh_tr_ofi_quiet(c) : 0;
}
