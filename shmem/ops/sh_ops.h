// SPDX-License-Identifier: MIT
/*
 * sh_ops.h: the operations floor (ops/): RMA, atomics, signals, fence
 * and quiet, and the waits and wakes of point synchronisation.
 */
#ifndef ZEMEM_SH_OPS_H
#define ZEMEM_SH_OPS_H

#include "sh_tr.h"

SH_HIDDEN extern struct sh_ctx sh_ctx_default;
/* The copy engine's lock (sh_rma.c): every append to a command list. */
SH_HIDDEN void sh_engine_lock(void);
SH_HIDDEN void sh_engine_unlock(void);


/* dest is a symmetric address (the remote side), src a local one for put;
 * for get, src is symmetric and dest local. nbi != 0: may return before
 * the source may be reused / the data arrived; completion at quiet.
 * 0, or -EINVAL (pe out of range), -EFAULT (not symmetric), -EOVERFLOW,
 * -EHOSTDOWN (the peer died), -EIO (a copy failed). */
SH_HIDDEN int sh_put(struct sh_ctx *c, void *dest, const void *src,
		     size_t nbytes, int pe, int nbi);
SH_HIDDEN int sh_get(struct sh_ctx *c, void *dest, const void *src,
		     size_t nbytes, int pe, int nbi);
/* Strided: element size esize, strides in elements (OpenSHMEM iput/iget). */
SH_HIDDEN int sh_iput(struct sh_ctx *c, void *dest, const void *src,
		      ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
		      size_t esize, int pe);
SH_HIDDEN int sh_iget(struct sh_ctx *c, void *dest, const void *src,
		      ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
		      size_t esize, int pe);

SH_HIDDEN int sh_amo(struct sh_ctx *c, enum sh_amo_op op, enum sh_type t,
		     size_t esize, void *dest, const void *value,
		     const void *cond, void *fetched, int pe);

/* sig_op: SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD. The payload is visible
 * at pe whenever the signal is. */
SH_HIDDEN int sh_put_signal(struct sh_ctx *c, void *dest, const void *src,
			    size_t nbytes, uint64_t *sig_addr, uint64_t signal,
			    int sig_op, int pe, int nbi);
SH_HIDDEN uint64_t sh_signal_fetch(const uint64_t *sig_addr);

SH_HIDDEN int sh_fence(struct sh_ctx *c);
SH_HIDDEN int sh_quiet(struct sh_ctx *c);

/* ---- the diversion hook (the proxy backend registers it) ------------- */

/* ZESHMEM_BACKEND=ro: every operation above is handed to the proxy
 * thread instead (ctx/sh_proxy.c fills sh_divert at init and clears it
 * at finalize): the first lines of each call test SH_DIVERTED(), one
 * load and a branch when it is off. The entries have the contracts of
 * the calls they stand for; _nbi ones (and fence) return once queued. */
struct sh_divert {
	int (*put)(struct sh_ctx *c, void *dest, const void *src,
		   size_t nbytes, int pe, int nbi);
	int (*get)(struct sh_ctx *c, void *dest, const void *src,
		   size_t nbytes, int pe, int nbi);
	int (*strided)(struct sh_ctx *c, void *dest, const void *src,
		       ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
		       size_t esize, int pe, bool put);
	int (*put_signal)(struct sh_ctx *c, void *dest, const void *src,
			  size_t nbytes, uint64_t *sig_addr, uint64_t signal,
			  int sig_op, int pe, int nbi);
	int (*amo)(struct sh_ctx *c, enum sh_amo_op op, enum sh_type t,
		   size_t esize, void *dest, const void *value,
		   const void *cond, void *fetched, int pe);
	int (*fence)(struct sh_ctx *c);
	int (*quiet)(struct sh_ctx *c);
};
SH_HIDDEN extern const struct sh_divert *sh_divert;
/* True on the proxy's own thread (its operations are not diverted). */
SH_HIDDEN extern __thread bool sh_proxy_self;
#define SH_DIVERTED() \
	(__builtin_expect(sh_divert != NULL, 0) && !sh_proxy_self)
/* Init/finalize of the copy engine (init/sh_init.c's order). */
SH_HIDDEN int sh_rma_init(void);
SH_HIDDEN void sh_rma_fini(void);

/* ---- point synchronisation (sh_wait.c) -------------------------------- */

/* cmp: SHMEM_CMP_*; t SH_T_INT (signed compare) or SH_T_UINT; esize 1, 2,
 * 4 or 8, ivar esize-aligned (else -EINVAL). Waits until *ivar cmp value
 * holds (ivar in the heap or the static data: only writes covering it
 * wake the wait; else any write into the heap does). Spins briefly, then sleeps (futex);
 * 0, -EHOSTDOWN when a PE of the node ended (seen within 50 ms),
 * -ETIMEDOUT after ZESHMEM_TIMEOUT seconds when the job has PEs whose
 * end cannot be seen (other nodes). sh_test: 1 holds, 0 not, -EINVAL. */
SH_HIDDEN int sh_wait_until(volatile void *ivar, enum sh_type t,
			    size_t esize, int cmp, const void *value);
SH_HIDDEN int sh_test(volatile void *ivar, enum sh_type t, size_t esize,
		      int cmp, const void *value);
/* Wakes pe's sleeping data waits after a store into its heap (a full
 * fence, one load of pe's sleepers; FUTEX_WAKE only when some wait
 * sleeps). Changed from sh_wake(remote_addr): the doorbell is per PE.
 * sh_wake_range wakes only when the sleeping wait's word is in
 * [dest, dest + len) (dest: the local symmetric address written). */
SH_HIDDEN void sh_wake(int pe);
SH_HIDDEN void sh_wake_range(int pe, const void *dest, size_t len);
SH_HIDDEN void sh_wake_barrier(int pe);
enum sh_wait_kind { SH_WAIT_DATA, SH_WAIT_BARRIER };
/* Waits until pred(arg) holds: spins briefly, then sleeps on this PE's
 * data doorbell, woken by any write into its heap (a wait on several
 * words). watch_pe >= 0: fail when that PE ends; -1: any PE of the job.
 * 0, -EHOSTDOWN (a PE ended), -ETIMEDOUT (ZESHMEM_TIMEOUT). */
SH_HIDDEN int sh_wait_pred(bool (*pred)(void *), void *arg, int watch_pe);
/* The same on the doorbell of kind; word: the one local heap word a data
 * wait is about (writers elsewhere do not wake it), NULL for any. */
SH_HIDDEN int sh_wait_pred_on(bool (*pred)(void *), void *arg, int watch_pe,
			      enum sh_wait_kind kind,
			      const volatile void *word);

#endif
