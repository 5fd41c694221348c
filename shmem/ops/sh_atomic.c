// SPDX-License-Identifier: MIT
/*
 * sh_atomic: OpenSHMEM atomics on node-local peers: the CPU's atomic
 * instructions (__atomic builtins) on the peer's heap as this PE maps it,
 * which is the same memory the peer and every other PE map: atomic across
 * all PEs of the node and with the peer's own loads and stores.
 *
 * Types: integers of 4 and 8 bytes (signed and unsigned: the same bits for
 * every operation here); float and double for fetch, set and swap only
 * (OpenSHMEM's extended AMO types), done on their bit patterns. Memory
 * order: read-modify-writes are sequentially consistent (a locked
 * instruction on x86 in any case), set is a release store, fetch an
 * acquire load. Operations that modify ring the peer (sh_wake_range) so a
 * wait_until sleeping there sees the change.
 *
 * Errors: -EINVAL pe out of range, esize not 4/8, dest not esize-aligned,
 * an operation the type does not have; -EFAULT dest not symmetric;
 * -EOPNOTSUPP no transport reaches the peer; -EHOSTDOWN the peer ended.
 * Peers on other nodes: sh_tr_ofi_amo (fi_atomic & co., sh_ofi.c).
 * ZESHMEM_BACKEND=ro: queued to the proxy thread first (sh_proxy.c).
 */
#include "sh_ops.h"

#include <errno.h>
#include <string.h>

#define RMW(T, r, op, v, c, old)                                             \
	do {                                                                 \
		T *p_ = (T *)(r);                                            \
		switch (op) {                                                \
		case SH_AMO_FETCH:                                           \
			old = __atomic_load_n(p_, __ATOMIC_ACQUIRE);         \
			break;                                               \
		case SH_AMO_SET:                                             \
			__atomic_store_n(p_, v, __ATOMIC_RELEASE);           \
			break;                                               \
		case SH_AMO_SWAP:                                            \
			old = __atomic_exchange_n(p_, v, __ATOMIC_SEQ_CST);  \
			break;                                               \
		case SH_AMO_CSWAP:                                           \
			old = c;                                             \
			__atomic_compare_exchange_n(p_, &old, v, false,      \
						    __ATOMIC_SEQ_CST,        \
						    __ATOMIC_SEQ_CST);       \
			break;                                               \
		case SH_AMO_ADD:                                             \
			old = __atomic_fetch_add(p_, v, __ATOMIC_SEQ_CST);   \
			break;                                               \
		case SH_AMO_AND:                                             \
			old = __atomic_fetch_and(p_, v, __ATOMIC_SEQ_CST);   \
			break;                                               \
		case SH_AMO_OR:                                              \
			old = __atomic_fetch_or(p_, v, __ATOMIC_SEQ_CST);    \
			break;                                               \
		case SH_AMO_XOR:                                             \
			old = __atomic_fetch_xor(p_, v, __ATOMIC_SEQ_CST);   \
			break;                                               \
		}                                                            \
	} while (0)

int
sh_amo(struct sh_ctx *c, enum sh_amo_op op, enum sh_type t, size_t esize,
       void *dest, const void *value, const void *cond, void *fetched, int pe)
{
	if (SH_DIVERTED())
		return sh_divert->amo(c, op, t, esize, dest, value, cond, fetched,
				    pe);
	(void)c;
	if (__builtin_expect((unsigned)pe >= (unsigned)sh.npes, 0))
		return -EINVAL;
	if (__builtin_expect((esize != 4 && esize != 8) ||
				     ((uintptr_t)dest & (esize - 1)) ||
				     (unsigned)op > SH_AMO_XOR,
			     0))
		return -EINVAL;
	if (t == SH_T_FLOAT && op != SH_AMO_FETCH && op != SH_AMO_SET &&
	    op != SH_AMO_SWAP)
		return -EINVAL;
	if ((op != SH_AMO_FETCH && !value) || (op == SH_AMO_CSWAP && !cond))
		return -EINVAL;
	void *r = sh_remote_fast(dest, esize, pe);
	if (__builtin_expect(!r, 0) && sh.peers[pe].net)
		return sh_tr_ofi_amo(c, op, esize, dest, value, cond, fetched,
				     pe);
	if (__builtin_expect(!r, 0))
		return sh.peers[pe].local ? -EFAULT : -EOPNOTSUPP;
	if (__builtin_expect(sh.peers[pe].dead, 0))
		return -EHOSTDOWN;
	if (esize == 4) {
		uint32_t v = 0, cv = 0, old = 0;
		if (value && op != SH_AMO_FETCH)
			memcpy(&v, value, 4);
		if (op == SH_AMO_CSWAP)
			memcpy(&cv, cond, 4);
		RMW(uint32_t, r, op, v, cv, old);
		if (fetched)
			memcpy(fetched, &old, 4);
	} else {
		uint64_t v = 0, cv = 0, old = 0;
		if (value && op != SH_AMO_FETCH)
			memcpy(&v, value, 8);
		if (op == SH_AMO_CSWAP)
			memcpy(&cv, cond, 8);
		RMW(uint64_t, r, op, v, cv, old);
		if (fetched)
			memcpy(fetched, &old, 8);
	}
	if (op != SH_AMO_FETCH)
		sh_wake_range(pe, dest, esize);
	return 0;
}
