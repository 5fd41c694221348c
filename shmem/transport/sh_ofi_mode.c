// SPDX-License-Identifier: MIT
/*
 * sh_tr_ofi_mode: how the network transport (sh_ofi.c) asks a
 * libfabric provider for its modes, and the providers' known defects.
 *
 * Memory-registration modes (ZESHMEM_OFI_MR):
 *   auto      offer FI_MR_VIRT_ADDR | PROV_KEY | ALLOCATED | LOCAL |
 *             ENDPOINT; the provider keeps the bits it needs (tcp;ofi_rxm
 *             and sockets 1.17 keep none: offsets and requested keys; shm
 *             keeps FI_MR_VIRT_ADDR).
 *   scalable  offer 0: offset addressing, requested keys.
 *   basic     offer the old FI_MR_BASIC (= VIRT_ADDR | PROV_KEY |
 *             ALLOCATED; sockets implements it, tcp and shm answer 0 or
 *             their own bits).
 *   a list    of virt_addr, prov_key, allocated, local, endpoint joined by
 *             ',' or '|': offer exactly those and require them. The two
 *             the runtime can apply by itself are applied even when the
 *             provider does not ask: local (every local buffer outside the
 *             heap registered for the operation, descriptors passed) and
 *             endpoint (every region bound to the endpoint and enabled;
 *             a provider that cannot bind fails it). virt_addr and
 *             prov_key only the provider can choose: a provider whose
 *             mr_mode lacks one makes init fail with -EOPNOTSUPP, naming
 *             it (the tests skip on that).
 *
 * Completion level: FI_DELIVERY_COMPLETE where the provider offers it and
 * it works. libfabric 1.17's shm loses non-fetching atomics sent with it
 * by two PEs to one target (the target and the sender both give the
 * command's inject buffer back, so two later commands share one buffer:
 * 3 PEs, barrier arrivals lost, wrong fetch-add results). For shm the
 * transport asks for transmit completion instead and makes quiet remote
 * by a read of 8 bytes from each PE written since the last quiet: shm
 * executes a target's commands in the order they were queued, an inline
 * or inject write is complete at the sender once queued, so the read's
 * answer means every earlier write and atomic to that PE was applied.
 */
#include "sh_tr.h"

#include "u_log.h"

#include <errno.h>
#include <string.h>

#ifdef ZESHMEM_HAVE_OFI

#include <rdma/fabric.h>

static const struct {
	const char *name;
	uint64_t bit;
} mr_bits[] = {
	{ "virt_addr", FI_MR_VIRT_ADDR }, { "prov_key", FI_MR_PROV_KEY },
	{ "allocated", FI_MR_ALLOCATED }, { "local", FI_MR_LOCAL },
	{ "endpoint", FI_MR_ENDPOINT },
};
#define N_MR_BITS (sizeof(mr_bits) / sizeof(mr_bits[0]))

int
sh_ofi_mr_parse(const char *s, uint64_t *offer, bool *strict)
{
	*strict = false;
	if (!strcmp(s, "auto")) {
		*offer = FI_MR_VIRT_ADDR | FI_MR_PROV_KEY | FI_MR_ALLOCATED |
			 FI_MR_LOCAL | FI_MR_ENDPOINT;
		return 0;
	}
	if (!strcmp(s, "scalable")) {
		*offer = 0;
		return 0;
	}
	if (!strcmp(s, "basic")) {
		/* The legacy value itself: providers that still implement it
		 * (sockets) answer FI_MR_BASIC, i.e. provider keys, virtual
		 * addresses, allocated memory; the same bits spelled out get
		 * mr_mode 0 from them. */
		*offer = FI_MR_BASIC;
		return 0;
	}
	uint64_t m = 0;
	const char *p = s;
	while (*p) {
		size_t n = strcspn(p, ",|");
		size_t i;
		for (i = 0; i < N_MR_BITS; i++)
			if (strlen(mr_bits[i].name) == n &&
			    !strncmp(p, mr_bits[i].name, n))
				break;
		if (i == N_MR_BITS || !n)
			return -EINVAL;
		m |= mr_bits[i].bit;
		p += n;
		if (*p)
			p++;
	}
	if (p == s)
		return -EINVAL;
	*offer = m;
	*strict = true;
	return 0;
}

int
sh_ofi_mr_check(const char *prov, uint64_t offer, uint64_t got)
{
	const uint64_t only_prov = FI_MR_VIRT_ADDR | FI_MR_PROV_KEY;
	uint64_t missing = offer & only_prov & ~got;
	if (!missing)
		return 0;
	char names[64] = "";
	for (size_t i = 0; i < N_MR_BITS; i++)
		if (missing & mr_bits[i].bit) {
			if (*names)
				strcat(names, ",");
			strcat(names, mr_bits[i].name);
		}
	u_err("shmem", "ZESHMEM_OFI_MR: provider %s does not use %s (its "
		       "mr_mode 0x%llx; only the provider chooses these): "
		       "unsupported here", prov, names,
	      (unsigned long long)got);
	return -EOPNOTSUPP;
}

bool
sh_ofi_delivery_usable(const char *prov)
{
	if (strncmp(prov, "shm", 3))
		return true;
	u_info("shmem", "provider %s: FI_DELIVERY_COMPLETE not used (shm "
			"1.17 loses concurrent non-fetching atomics with it); "
			"quiet reads back from each PE written instead", prov);
	return false;
}

#endif
