// SPDX-License-Identifier: MIT
/*
 * sh_tr.h: the transport floor (transport/): node-local peers over IPC
 * mappings, other nodes' over libfabric, and the peers' liveness.
 */
#ifndef ZEMEM_SH_TR_H
#define ZEMEM_SH_TR_H

#include "sh_mem.h"

/* ---- node-local peers (sh_ipc.c) ------------------------------------- */

/* Init: export the heap (one physical-range handle), all-gather {host
 * identity, pid, handle} over the bootstrap, open every node peer's
 * heap. Fills sh.pids, sh.node_of, sh.peers, ... */
SH_HIDDEN int sh_tr_ipc_init(void);
SH_HIDDEN void sh_tr_ipc_fini(void);
/* Collective (heap growth): export chunk k, all-gather, open the peers'
 * (into the chunk's views in the symmetric-address map). */
SH_HIDDEN int sh_tr_ipc_add_chunk(unsigned k);
/* IPC of other ranges than the heap (team/sh_register.c's symmetric
 * registrations):
 * export [p, p + size) of VMM memory as one physical-range handle, open a
 * handle (a fresh local mapping), put an export back. 0 or -errno. */
SH_HIDDEN int sh_tr_ipc_export(ze_context_handle_t ctx, const void *p,
			       size_t size, ze_ipc_mem_handle_t *out);
SH_HIDDEN int sh_tr_ipc_open(ze_ipc_mem_handle_t h, int pe, void **out);
SH_HIDDEN void sh_tr_ipc_put(ze_context_handle_t ctx, ze_ipc_mem_handle_t h);

/* ---- liveness (sh_live.c) -------------------------------------------- */

/* 0 when pe's process is alive, -EHOSTDOWN when it ended (node-local PEs:
 * its pidfd; others: the bootstrap's dead_pe, else assumed alive). Marks
 * it dead for later calls. */
SH_HIDDEN int sh_pe_check_alive(int pe);
/* The PE the bootstrap knows dead (sh_boot_ops.dead_pe), marked dead
 * (logged once); -1 none or unknown. */
SH_HIDDEN int sh_boot_dead_news(void);

/* ---- network transport (sh_ofi.c) ------------------------------------ */

/* Init (after sh_tr_ipc_init, which names the node-local peers): opens
 * libfabric when some PE is not node-local (the same decision on every
 * PE), all-gathers addresses and keys, marks the other peers net.
 * Operations take the local symmetric address, like sh_put & co., and
 * check it against the heap and the static data's MR (-EFAULT). The ops are the node-local ones'
 * contracts; amo: esize 4/8, the bits of the value (float included). */
SH_HIDDEN int sh_tr_ofi_init(void);
SH_HIDDEN void sh_tr_ofi_fini(void);
/* Removes the /dev/shm entries of this process's shm endpoints still
 * open (libfabric's shm provider removes one at fi_close only): every
 * exit path the runtime controls calls it (an atexit handler too);
 * async-signal-safe, a no-op in a forked child. */
SH_HIDDEN void sh_tr_ofi_exit_cleanup(void);
SH_HIDDEN bool sh_tr_ofi_active(void);
SH_HIDDEN int sh_tr_ofi_add_chunk(unsigned k);
SH_HIDDEN void sh_tr_ofi_progress(void);
/* Sleeps up to ns (< 1 s), less when the PE's endpoint has something to
 * progress and the provider can tell (a CQ wait fd: tcp). */
SH_HIDDEN void sh_tr_ofi_nap(long ns);
/* Tests: does the PE's endpoint have that wait fd? */
SH_HIDDEN bool sh_tr_ofi_wait_fd(void);
/* c: the context (NULL: the default one); a created context's
 * operations go on its own endpoint (sh_tr_ofi_ctx_open), completed by
 * its own quiet. */
SH_HIDDEN int sh_tr_ofi_quiet(struct sh_ctx *c);
SH_HIDDEN int sh_tr_ofi_fence(struct sh_ctx *c);
SH_HIDDEN int sh_tr_ofi_put(struct sh_ctx *c, void *dest, const void *src,
			    size_t nbytes, int pe, int nbi);
SH_HIDDEN int sh_tr_ofi_get(struct sh_ctx *c, void *dest, const void *src,
			    size_t nbytes, int pe, int nbi);
SH_HIDDEN int sh_tr_ofi_put_signal(struct sh_ctx *c, void *dest,
				   const void *src, size_t nbytes,
				   uint64_t *sig_addr, uint64_t signal,
				   int sig_op, int pe);
/* A created context's endpoint, counter and bounce slots (c->net; NULL
 * when the network is not active or contexts share the PE's endpoint):
 * 0 or -errno. close: after its quiet. */
SH_HIDDEN int sh_tr_ofi_ctx_open(struct sh_ctx *c);
SH_HIDDEN void sh_tr_ofi_ctx_close(struct sh_ctx *c);
/* Atomic max (wrap-safe where emulated) of pe's 32-bit word: barriers. */
SH_HIDDEN int sh_tr_ofi_raise32(void *word, uint32_t e, int pe);
/* The benchmark's baseline: one raw fi_write (0) / fi_read (1) /
 * fi_fetch_atomic FI_SUM (2, local = {u64 val, u64 cmp, u64 res}) and
 * its completion. */
SH_HIDDEN int sh_tr_ofi_raw(int kind, void *sym, void *local, size_t n,
			    int pe);
SH_HIDDEN const char *sh_tr_ofi_provider(void);
/* A local registration's NIC side (sh_register.c): fi_mr_reg of [p, p + len)
 * once; *mr and *desc NULL when libfabric is not active. 0 or -errno. */
SH_HIDDEN int sh_tr_ofi_reg_local(void *p, size_t len, void **mr,
				  void **desc);
SH_HIDDEN void sh_tr_ofi_unreg_local(void *mr);
/* sh_ofi_mode.c (libfabric builds only; uint64_t are FI_MR_* bits).
 * parse: ZESHMEM_OFI_MR's value -> the mr_mode bits to offer, strict when
 * a bit list (required); -EINVAL for a bad value. check: 0, or
 * -EOPNOTSUPP (logged) when a required bit only the provider can choose
 * is missing from got. delivery_usable: false for providers whose
 * FI_DELIVERY_COMPLETE is broken (logged). */
SH_HIDDEN int sh_ofi_mr_parse(const char *s, uint64_t *offer, bool *strict);
SH_HIDDEN int sh_ofi_mr_check(const char *prov, uint64_t offer, uint64_t got);
SH_HIDDEN bool sh_ofi_delivery_usable(const char *prov);
/* sh_ofi_term.c: the launcher's SIGTERM while the network transport is up.
 * arm/disarm: catch it (only when at SIG_DFL) / put the disposition back
 * (and end by it, when it came). overdue: it came over 300 ms ago, so a
 * network operation or wait still unanswered gives up: give_up marks pe
 * (>= 0) dead, logs, returns -EHOSTUNREACH. poll (progress thread): 700
 * ms after it, ends the process by SIGTERM. */
SH_HIDDEN void sh_term_arm(void);
SH_HIDDEN void sh_term_disarm(void);
SH_HIDDEN bool sh_term_overdue(void);
SH_HIDDEN void sh_term_poll(void);
SH_HIDDEN int sh_term_give_up(int pe, const char *what);
/* 0 when [sym, sym + len) is a remote target on network peer pe (the
 * symmetric-address map has its network side: sh_sym_net), else -EFAULT
 * (-EOPNOTSUPP without libfabric). */
SH_HIDDEN int sh_tr_ofi_check(const void *sym, size_t len, int pe);
/* A symmetric registration's NIC side (team/sh_register.c): fi_mr_reg of
 * the alias [p, p + len) for remote read/write/atomics; *key and *base
 * are what the peers need (exchanged by sh_register.c), *mr is closed
 * with sh_tr_ofi_unreg_local. -EOPNOTSUPP when libfabric is not active or
 * the device's memory is not host-accessible. */
SH_HIDDEN int sh_tr_ofi_reg_sym(void *p, size_t len, void **mr, void **desc,
				uint64_t *key, uint64_t *base);

/* One atomic on pe's dest of esize bytes (4 or 8; 1/2 for wait types
 * only). value/cond point to esize bytes; fetched (may be NULL for the
 * non-fetching forms) receives the old value. dest must be esize-aligned
 * (-EINVAL otherwise). */
SH_HIDDEN int sh_tr_ofi_amo(struct sh_ctx *c, enum sh_amo_op op,
			    size_t esize, void *dest,
			    const void *value, const void *cond,
			    void *fetched, int pe);

#endif
