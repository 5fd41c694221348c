// SPDX-License-Identifier: MIT
/*
 * sh_ctx.h: the contexts floor (ctx/): created contexts and the
 * ZESHMEM_BACKEND choice with its reverse-offload proxy.
 */
#ifndef ZEMEM_SH_CTX_H
#define ZEMEM_SH_CTX_H

#include "sh_ops.h"

/* A new context on team (NULL for the world: the callers pass NULL for
 * sh_team_world, so that its operations take world PE numbers). 0, -EINVAL (unknown option
 * bits), -ENOMEM, -EIO (the copy engine's objects). */
SH_HIDDEN int sh_ctx_create(struct sh_team *team, long options,
			    struct sh_ctx **out);
/* Quiets c, then frees it. -EINVAL when c is not a created context. */
SH_HIDDEN int sh_ctx_destroy(struct sh_ctx *c);
/* 1 when c is a created context that still exists. */
SH_HIDDEN int sh_ctx_valid(const struct sh_ctx *c);
/* sh_team_destroy: destroys every context made from team (quiet first). */
SH_HIDDEN void sh_ctx_destroy_team(const struct sh_team *team);
/* At finalize, before its barrier: completes every created context's
 * operations (the program may not have destroyed them). */
SH_HIDDEN void sh_ctx_quiet_all(void);
/* At finalize (before sh_rma_fini): the contexts the program left. */
SH_HIDDEN void sh_ctx_fini_all(void);

/* ---- backends and the reverse-offload proxy (sh_proxy.c) ------------- */

/* Reads ZESHMEM_BACKEND into sh.backend and derives sh.transport from it
 * (ipc: node-local only; gda: libfabric for every PE; ro: unchanged).
 * Before the bootstrap; 0 or -EINVAL (bad value, a contrary
 * ZESHMEM_TRANSPORT / _FORCE_NETWORK), -EOPNOTSUPP (gda, no libfabric). */
SH_HIDDEN int sh_backend_select(void);
/* ro: starts the proxy thread (after the transports), joins it after
 * draining its queue. No-ops for the other backends. */
SH_HIDDEN int sh_proxy_init(void);
SH_HIDDEN void sh_proxy_fini(void);
/* The hook at the top of sh_put & co.: true when the call must be
 * queued to the proxy (ro, and not the proxy's own thread). */
/* The queued forms: the same arguments and results as sh_put & co.; _nbi
 * ones (and fence) return once queued, the others once done. An nbi
 * operation's error is returned by the next quiet or blocking call. */
SH_HIDDEN int sh_proxy_put(struct sh_ctx *c, void *dest, const void *src,
			   size_t nbytes, int pe, int nbi);
SH_HIDDEN int sh_proxy_get(struct sh_ctx *c, void *dest, const void *src,
			   size_t nbytes, int pe, int nbi);
SH_HIDDEN int sh_proxy_strided(struct sh_ctx *c, void *dest, const void *src,
			       ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
			       size_t esize, int pe, bool put);
SH_HIDDEN int sh_proxy_put_signal(struct sh_ctx *c, void *dest,
				  const void *src, size_t nbytes,
				  uint64_t *sig_addr, uint64_t signal,
				  int sig_op, int pe, int nbi);
SH_HIDDEN int sh_proxy_amo(struct sh_ctx *c, enum sh_amo_op op,
			   enum sh_type t, size_t esize, void *dest,
			   const void *value, const void *cond, void *fetched,
			   int pe);
SH_HIDDEN int sh_proxy_fence(struct sh_ctx *c);
SH_HIDDEN int sh_proxy_quiet(struct sh_ctx *c);
/* Tests: hold (1) / release (0) the proxy (it starts no entry while
 * held); entries queued and not finished; entries executed since init;
 * quiets answered by the caller since init (the queue empty and nothing
 * left in flight: not queued, so not among the executed). */
SH_HIDDEN void sh_proxy_hold(int hold);
SH_HIDDEN unsigned sh_proxy_pending(void);
SH_HIDDEN uint64_t sh_proxy_executed(void);
SH_HIDDEN uint64_t sh_proxy_quiets_in_place(void);
/* Tests: spins begun by the idle proxy and by blocking callers since
 * init (ZESHMEM_PROXY_SPIN; both stay 0 where it does not spin). */
SH_HIDDEN void sh_proxy_spins(uint64_t *idle, uint64_t *wait);
#define SH_PROXY_RING 256   /* queue entries; a producer blocks when full */

#endif
