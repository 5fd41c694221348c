// SPDX-License-Identifier: MIT
/*
 * static_core_pe: one PE of a 2-PE zeshrun job on the runtime core
 * (linked in: the runtime's own globals live in the very segment
 * sh_static.c swaps onto shared memory) that checks what static_pe
 * cannot see through shmem.h:
 *   - the bounds: sh_remote_ptr of static data is exact at both ends of
 *     [data_lo, data_lo + data_len), -EFAULT for puts outside it (a
 *     malloc'd and a stack address, a range crossing the end);
 *   - the wake of a wait on a static word: PE 1 sleeps in sh_wait_until
 *     on one and PE 0 sees PE 1's control block name exactly that word
 *     (SH_WAIT_STATIC + its offset); then PE 0 poses as a wait asleep on
 *     a static word and PE 1 writes: a put, an AMO and put_signal's
 *     signal into another static word leave PE 0's doorbell alone, each
 *     into the word rings it exactly once.
 * Prints "static-core: PE <n> ok" and exits 0, else 2 with the check.
 */
#include "sh_init.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core_expect.h"

static uint64_t wword[3];        /* .bss: the waited words */
static uint64_t other = 5;       /* .data: written, not waited on */

static void
sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* The wait id of a static word as the control block carries it, from
 * the segment's layout (the symmetric-address map must agree). */
static uint64_t
static_wait_id(const void *word)
{
	uint64_t id = SH_WAIT_STATIC + ((uintptr_t)word - sh_static.map_lo);
	if (sh_sym_wait_id(word) != id)
		FAIL("sh_sym_wait_id(%p) = 0x%llx, want 0x%llx", word,
		     (unsigned long long)sh_sym_wait_id(word),
		     (unsigned long long)id);
	return id;
}

/* PE 0: until PE 1 sleeps on word (bounded: 20 s). */
static void
peer_asleep_on(const void *word)
{
	struct sh_ctrl *c = sh.peers[1].ctrl;
	uint64_t want = static_wait_id(word);
	for (int i = 0; i < 20000; i++) {
		if (__atomic_load_n(&c->sleepers, __ATOMIC_SEQ_CST) &&
		    __atomic_load_n(&c->wait_off, __ATOMIC_SEQ_CST) == want)
			return;
		sleep_ms(1);
	}
	FAIL("PE 1 never slept on %p (sleepers %u, wait_off 0x%llx, want "
	     "0x%llx)", word, c->sleepers, (unsigned long long)c->wait_off,
	     (unsigned long long)want);
}

static void
bounds(void)
{
	EXPECT(sh_static.on);
	char *lo = (char *)sh_static.data_lo;
	char *end = lo + sh_static.data_len;
	int peer = 1 - sh.me;
	EXPECT(sh_remote_ptr(lo, 1, peer) != NULL);
	EXPECT(sh_remote_ptr(end - 4, 4, peer) != NULL);
	EXPECT(sh_remote_ptr(end - 4, 8, peer) == NULL);
	EXPECT(sh_remote_ptr(end, 1, peer) == NULL);
	EXPECT(sh_remote_ptr(lo - 1, 1, peer) == NULL);
	EXPECT(sh_remote_ptr(lo - 1, 2, sh.me) == NULL);
	EXPECT(sh_remote_ptr(wword, 8, sh.me) == (void *)wword);
	EXPECT(sh_remote_ptr(wword, 8, 2) == NULL);
	/* the peer's copy is the peer's: through it, its .data value */
	uint64_t *po = sh_remote_ptr(&other, 8, peer);
	EXPECT(po && po != &other);
	EXPECT_EQ(*po, 5);
	uint64_t v = 1, stack = 0;
	char *heap = malloc(64);
	EXPECT(heap);
	EXPECT_EQ(sh_put(NULL, heap, &v, 8, peer, 0), -EFAULT);
	EXPECT_EQ(sh_put(NULL, &stack, &v, 8, peer, 0), -EFAULT);
	EXPECT_EQ(sh_put(NULL, end - 4, &v, 8, peer, 0), -EFAULT);
	EXPECT_EQ(sh_get(NULL, &v, end - 4, 8, peer, 0), -EFAULT);
	EXPECT_EQ(sh_amo(NULL, SH_AMO_ADD, SH_T_UINT, 8, heap, &v, NULL, NULL,
			 peer), -EFAULT);
	free(heap);
}

int
main(void)
{
	int got = -1;
	int err = sh_init(NULL, 0, 0, 3, &got);
	if (err)
		FAIL("sh_init: %d (%s)", err, strerror(-err));
	EXPECT_EQ(sh.npes, 2);
	bounds();
	EXPECT_EQ(sh_barrier(sh_team_world), 0);
	/* The waiter names its static word: PE 1 sleeps on wword[0]. */
	uint64_t one = 1;
	if (sh.me == 1) {
		EXPECT_EQ(sh_wait_until(&wword[0], SH_T_UINT, 8, SH_CMP_EQ,
					&one), 0);
	} else {
		peer_asleep_on(&wword[0]);
		EXPECT_EQ(sh_put(NULL, &wword[0], &one, 8, 1, 0), 0);
	}
	EXPECT_EQ(sh_barrier(sh_team_world), 0);
	/* The writers' choice: PE 0 poses as a wait asleep on wword[1]
	 * (its own control block; barriers use the other doorbell), PE 1
	 * writes; after each write a barrier, then PE 0 reads its doorbell. */
	struct sh_ctrl *c = sh_ctrl_local();
	uint32_t d = 0;
	if (sh.me == 0) {
		__atomic_store_n(&c->wait_off, static_wait_id(&wword[1]),
				 __ATOMIC_SEQ_CST);
		__atomic_store_n(&c->sleepers, 1, __ATOMIC_SEQ_CST);
		d = __atomic_load_n(&c->doorbell, __ATOMIC_SEQ_CST);
	}
	uint64_t six = 6, two = 2;
	static const struct {
		int kind;           /* 0 put, 1 AMO add, 2 put_signal */
		int on_word;        /* the written word is wword[1] */
	} step[] = { { 0, 0 }, { 0, 1 }, { 1, 0 }, { 1, 1 }, { 2, 0 },
		     { 2, 1 } };
	for (unsigned i = 0; i < sizeof(step) / sizeof(step[0]); i++) {
		EXPECT_EQ(sh_barrier(sh_team_world), 0);
		uint64_t *w = step[i].on_word ? &wword[1] : &other;
		if (sh.me == 1 && step[i].kind == 0)
			EXPECT_EQ(sh_put(NULL, w, &six, 8, 0, 0), 0);
		if (sh.me == 1 && step[i].kind == 1)
			EXPECT_EQ(sh_amo(NULL, SH_AMO_ADD, SH_T_UINT, 8, w,
					 &two, NULL, NULL, 0), 0);
		if (sh.me == 1 && step[i].kind == 2)
			EXPECT_EQ(sh_put_signal(NULL, &wword[2], &six, 8, w, 1,
						SH_SIGNAL_ADD, 0, 0), 0);
		EXPECT_EQ(sh_barrier(sh_team_world), 0);
		if (sh.me == 0) {
			d += (uint32_t)step[i].on_word;
			EXPECT_EQ(__atomic_load_n(&c->doorbell,
						  __ATOMIC_SEQ_CST), d);
		}
	}
	if (sh.me == 0) {
		__atomic_store_n(&c->sleepers, 0, __ATOMIC_SEQ_CST);
		EXPECT_EQ(wword[1], 6 + 2 + 1);
		EXPECT_EQ(other, 6 + 2 + 1);
	}
	EXPECT_EQ(sh_barrier(sh_team_world), 0);
	EXPECT_EQ(sh_finalize(), 0);
	fprintf(stderr, "static-core: PE %d ok\n", sh.me < 0 ? atoi(
			getenv("ZESHMEM_RANK")) : sh.me);
	return 0;
}
