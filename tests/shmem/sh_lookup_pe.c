// SPDX-License-Identifier: MIT
/*
 * sh_lookup_pe: the symmetric-address map's answers (issue 27), run by
 * zeshrun on 2 PEs, node-local (IPC) or with ZESHMEM_TRANSPORT=ofi:
 *   - a heap address, the heap's last byte, the control block, static
 *     data and a local variable: where each PE reaches its peer's copy
 *     (sh_remote_ptr / sh_remote_fast) and whether the network reaches it
 *     (sh_tr_ofi_check), with exact pointers and error codes;
 *   - a put of 8 bytes into the peer's heap and into its static data,
 *     read back by the peer.
 * With an argument N > 0 it then runs N lookups of each kind and N puts
 * in functions of their own (lookup_fast, lookup_net, put_one), for
 * callgrind's instruction counts per call:
 *   ZESHMEM_TRANSPORT=ofi zeshrun -n 2 -- sh -c '[ $ZESHMEM_RANK = 0 ] &&
 *     exec valgrind --tool=callgrind prog 100000 || exec prog 100000'
 */
#include "sh_init.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int fails;
#define EXPECT(c)                                                            \
	do {                                                                 \
		if (!(c)) {                                                  \
			fprintf(stderr, "PE %d: %s:%d: %s\n", sh.me,         \
				__FILE__, __LINE__, #c);                     \
			fails++;                                             \
		}                                                            \
	} while (0)

static uint64_t stat_word[4];

static __attribute__((noinline, used)) void *
lookup_fast(const void *p, int pe)
{
	return sh_remote_fast(p, 8, pe);
}

static __attribute__((noinline, used)) int
lookup_net(const void *p, int pe)
{
	return sh_tr_ofi_check(p, 8, pe);
}

static __attribute__((noinline, used)) int
put_one(void *dest, const void *src, int pe)
{
	return sh_put(NULL, dest, src, 8, pe, 0);
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0;
	int got;
	if (sh_init(NULL, 0, 0, 0, &got)) {
		fprintf(stderr, "sh_init failed\n");
		return 1;
	}
	int me = sh.me, peer = (me + 1) % sh.npes;
	bool net = sh.peers[peer].net;
	uint64_t *a = sh_malloc(64, 8, "lookup");
	char *hb = sh_heap_base();
	size_t hs = sh_heap_size();
	EXPECT(a != NULL);
	/* the heap: the peer's mapping when node-local, NULL over the network */
	if (!net) {
		EXPECT(sh_remote_fast(a, 8, peer) != NULL);
		EXPECT(sh_remote_ptr(hb + hs - 8, 8, peer) != NULL);
		EXPECT(sh_remote_ptr(hb + hs - 8, 9, peer) == NULL);
		EXPECT(sh_remote_ptr(&stat_word[1], 8, peer) != NULL);
	} else {
		EXPECT(sh_remote_fast(a, 8, peer) == NULL);
		EXPECT(sh_tr_ofi_check(a, 8, peer) == 0);
		EXPECT(sh_tr_ofi_check(hb + hs - 8, 8, peer) == 0);
		EXPECT(sh_tr_ofi_check(hb + hs - 8, 9, peer) == -EFAULT);
		/* the control block: the runtime's barriers reach it */
		EXPECT(sh_tr_ofi_check(hb, 8, peer) == 0);
		EXPECT(sh_tr_ofi_check(&stat_word[1], 8, peer) == 0);
		uint64_t local = 0;
		EXPECT(sh_tr_ofi_check(&local, 8, peer) == -EFAULT);
	}
	EXPECT(sh_remote_fast(a, 8, me) == a);
	EXPECT(sh_remote_ptr(hb, 8, peer) == NULL);     /* control block */
	EXPECT(sh_remote_ptr(a, 8, sh.npes) == NULL);
	/* puts into the peer's heap and static data, read back there */
	uint64_t v = 0x1000 + (uint64_t)me, w = 0x2000 + (uint64_t)me;
	EXPECT(sh_put(NULL, &a[1], &v, 8, peer, 0) == 0);
	EXPECT(sh_put(NULL, &stat_word[2], &w, 8, peer, 0) == 0);
	EXPECT(sh_barrier(sh_team_world) == 0);
	int left = (me + sh.npes - 1) % sh.npes;
	EXPECT(a[1] == 0x1000 + (uint64_t)left);
	EXPECT(stat_word[2] == 0x2000 + (uint64_t)left);

	long sink = 0;
	for (long i = 0; i < n; i++)
		sink += lookup_fast(&a[i & 7], peer) != NULL;
	for (long i = 0; i < n && net; i++)
		sink += lookup_net(&a[i & 7], peer);
	for (long i = 0; i < n; i++)
		sink += put_one(&a[8 + (i & 7)], &v, peer);
	EXPECT(sink == (net ? 0 : n));
	EXPECT(sh_barrier(sh_team_world) == 0);
	sh_free(a, "lookup");
	EXPECT(sh_finalize() == 0);
	if (!fails)
		printf("PE %d: lookups ok (%s)\n", me, net ? "network" : "ipc");
	return fails ? 1 : 0;
}
