// SPDX-License-Identifier: MIT
/*
 * ipc_leak: the leak fixture of the IPC suites, on top of leakcheck.h.
 *
 * Normally it is leakcheck itself (every fd, every mapping). Under
 * AddressSanitizer the sanitizer's own allocator maps and grows private
 * anonymous regions while a test runs, which leakcheck would report; there
 * the fixture checks every fd and every shared mapping (MAP_SHARED: all
 * that the driver's USM and IPC code ever maps), and ignores private
 * anonymous ones.
 */
#ifndef ZEMEM_IPC_LEAK_H
#define ZEMEM_IPC_LEAK_H

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "leakcheck.h"

#if defined(__SANITIZE_ADDRESS__)
#define IPC_LEAK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IPC_LEAK_ASAN 1
#endif
#endif

struct ipc_leak {
	struct leakcheck lc;
	int nfd, nshared;
};

/* Number of MAP_SHARED mappings of this process. */
static inline int
ipc_leak_shared_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	int n = 0;
	while (f && fgets(line, sizeof(line), f)) {
		char perms[8];
		if (sscanf(line, "%*x-%*x %7s", perms) == 1 && perms[3] == 's')
			n++;
	}
	if (f)
		fclose(f);
	return n;
}

static inline void
ipc_leak_begin(struct ipc_leak *l)
{
#ifdef IPC_LEAK_ASAN
	l->nfd = leakcheck_count_fds();
	l->nshared = ipc_leak_shared_maps();
#else
	leakcheck_begin(&l->lc);
#endif
}

static inline void
ipc_leak_end(struct ipc_leak *l)
{
#ifdef IPC_LEAK_ASAN
	ck_assert_int_eq(leakcheck_count_fds(), l->nfd);
	ck_assert_int_eq(ipc_leak_shared_maps(), l->nshared);
#else
	leakcheck_end(&l->lc);
#endif
}

#endif
