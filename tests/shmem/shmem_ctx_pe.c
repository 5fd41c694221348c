// SPDX-License-Identifier: MIT
/*
 * shmem_ctx_pe: one PE of a test job of contexts, locks, threads and the
 * query / pointer / hint routines, written against shmem.h alone.
 * meson starts jobs of it with zeshrun -n N.
 *
 *   shmem_ctx_pe CASE
 *     ctx     every option; RMA, AMO, signal and quiet/fence on created
 *             contexts; a context of a team takes team PE numbers;
 *             shmem_ctx_get_team; invalid options and teams refused
 *     lock    every PE takes one lock ITER times (set_lock, and
 *             test_lock until it holds) around a non-atomic get/put of a
 *             counter on the last PE: the counter is npes * 2 * ITER
 *             exactly; a second lock used at the same time
 *     lockfifo  the lock is taken in the order the PEs queued up
 *     misc    pe/addr_accessible, shmem_ptr, shmem_team_ptr,
 *             malloc_with_hints (every hint, unknown bits), cache no-ops
 *     threads SHMEM_THREAD_MULTIPLE: THREADS threads per PE, each with a
 *             private context and the default one, RMA/AMO/quiet; exact
 *             counts
 *     bad     (one PE, no launcher) runs itself as "child K" for each
 *             misuse and checks that the child ends with status 1 and
 *             libzeshmem's one line naming it
 *
 * Exits 0 with "PE <me>: CASE ok", or 3 with the failed check on stderr.
 */
#include <shmem.h>

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int me, npes;

#include "pe_check.h"

static int
node_pes(void)
{
	const char *e = getenv("SHMEM_PE_NODE_PES");
	int k = e ? atoi(e) : npes;
	return k < 1 || k > npes ? npes : k;
}

/* ---- ctx --------------------------------------------------------------- */

static void
ctx_ops(shmem_ctx_t c, int tpe, int tn, int wpe_of0)
{
	/* tpe: this PE in the context's team of tn PEs; the peer is the
	 * next one in the team. */
	long *d = shmem_malloc(8 * sizeof(long));
	uint64_t *sig = shmem_calloc(1, sizeof(uint64_t));
	CHECK(d && sig, "alloc");
	memset(d, 0, 8 * sizeof(long));
	shmem_barrier_all();
	int peer = (tpe + 1) % tn;
	long v[2] = { 100 + tpe, 200 + tpe };
	if (tpe >= 0) {
		shmem_ctx_long_put(c, d, v, 2, peer);
		shmem_ctx_long_p(c, d + 2, 300 + tpe, peer);
		shmem_ctx_long_put_nbi(c, d + 3, v, 1, peer);
		shmem_ctx_long_atomic_add(c, d + 4, 5, peer);
		long old = shmem_ctx_long_atomic_fetch_inc(c, d + 5, peer);
		CHECK(old == 0, "fetch_inc old %ld", old);
		shmem_ctx_fence(c);
		shmem_ctx_putmem_signal(c, d + 6, v, sizeof(long), sig, 9,
					SHMEM_SIGNAL_SET, peer);
		shmem_ctx_quiet(c);
		long g = 0;
		shmem_ctx_long_get(c, &g, d, 1, peer);
		CHECK(g == 100 + tpe, "get %ld", g);
		CHECK(shmem_ctx_long_g(c, d + 2, peer) == 300 + tpe, "g");
		CHECK(shmem_ctx_long_atomic_fetch(c, d + 4, peer) == 5,
		      "fetch");
	}
	shmem_barrier_all();
	if (tpe >= 0) {
		int from = (tpe + tn - 1) % tn;
		CHECK(d[0] == 100 + from && d[1] == 200 + from, "put %ld %ld",
		      d[0], d[1]);
		CHECK(d[2] == 300 + from && d[3] == 100 + from, "p/nbi");
		CHECK(d[4] == 5 && d[5] == 1, "amo %ld %ld", d[4], d[5]);
		CHECK(d[6] == 100 + from && *sig == 9, "signal");
	} else {
		for (int i = 0; i < 7; i++)
			CHECK(d[i] == 0, "PE outside the team written: d[%d]",
			      i);
	}
	(void)wpe_of0;
	shmem_barrier_all();
	shmem_free(sig);
	shmem_free(d);
}

static void
case_ctx(void)
{
	long opts[] = { 0, SHMEM_CTX_SERIALIZED, SHMEM_CTX_PRIVATE,
			SHMEM_CTX_NOSTORE,
			SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE |
				SHMEM_CTX_NOSTORE };
	for (unsigned i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		shmem_ctx_t c = SHMEM_CTX_INVALID;
		CHECK(shmem_ctx_create(opts[i], &c) == 0, "options %ld",
		      opts[i]);
		CHECK(c != SHMEM_CTX_INVALID && c != SHMEM_CTX_DEFAULT, "ctx");
		shmem_team_t t = SHMEM_TEAM_INVALID;
		CHECK(shmem_ctx_get_team(c, &t) == 0 && t == SHMEM_TEAM_WORLD,
		      "get_team");
		ctx_ops(c, me, npes, 0);
		shmem_ctx_destroy(c);
	}
	/* Two at once, the default one in between. */
	shmem_ctx_t a, b;
	CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &a) == 0, "a");
	CHECK(shmem_ctx_create(0, &b) == 0 && a != b, "b");
	ctx_ops(a, me, npes, 0);
	ctx_ops(SHMEM_CTX_DEFAULT, me, npes, 0);
	ctx_ops(b, me, npes, 0);
	shmem_ctx_destroy(b);
	shmem_ctx_destroy(a);
	/* Refused: unknown options, an invalid team; destroy of INVALID is
	 * a no-op. */
	shmem_ctx_t c = SHMEM_CTX_DEFAULT;
	CHECK(shmem_ctx_create(1L << 3, &c) != 0 && c == SHMEM_CTX_INVALID,
	      "bad options");
	c = SHMEM_CTX_DEFAULT;
	CHECK(shmem_ctx_create(-1L, &c) != 0 && c == SHMEM_CTX_INVALID,
	      "bad options -1");
	c = SHMEM_CTX_DEFAULT;
	CHECK(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &c) != 0 &&
		      c == SHMEM_CTX_INVALID, "invalid team");
	shmem_ctx_destroy(SHMEM_CTX_INVALID);
	shmem_team_t t = SHMEM_TEAM_WORLD;
	CHECK(shmem_ctx_get_team(SHMEM_CTX_INVALID, &t) != 0 &&
		      t == SHMEM_TEAM_INVALID, "get_team of INVALID");
	CHECK(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &t) == 0 &&
		      t == SHMEM_TEAM_WORLD, "get_team of DEFAULT");
	CHECK(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, NULL) != 0, "NULL team");

	/* A context of the team of PEs 1, 2, ... (start 1, stride 1): team
	 * PE k is world PE k + 1; the ops name team PEs. */
	if (npes >= 2) {
		shmem_team_t odd;
		int tn = npes - 1;
		CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, tn,
					       NULL, 0, &odd) == 0, "split");
		shmem_ctx_t tc = SHMEM_CTX_INVALID;
		if (odd != SHMEM_TEAM_INVALID) {
			CHECK(shmem_team_create_ctx(odd, SHMEM_CTX_PRIVATE,
						    &tc) == 0, "team ctx");
			CHECK(shmem_ctx_get_team(tc, &t) == 0 && t == odd,
			      "team of the team ctx");
		}
		ctx_ops(tc, odd != SHMEM_TEAM_INVALID ? me - 1 : -1, tn, 1);
		/* The spec's team-context example: every PE, in the team or
		 * not (tc SHMEM_CTX_INVALID), quiets and fences: no-ops. */
		shmem_ctx_fence(tc);
		shmem_ctx_quiet(tc);
		if (odd != SHMEM_TEAM_INVALID) {
			shmem_ctx_destroy(tc);
			shmem_team_destroy(odd);
		}
	}
}

/* ---- lock -------------------------------------------------------------- */

#define ITER 50

/* Inside a critical section of lock k: the owner word on the home PE
 * goes 0 -> me + 1 (any other value: two PEs inside), the section yields
 * the CPU a few times (a broken lock lets others in meanwhile), then
 * the counter is read and written back non-atomically. */
static void
critical(long *owner, long *count, int home)
{
	long was = shmem_long_atomic_compare_swap(owner, 0, me + 1, home);
	CHECK(was == 0, "PE %ld is inside the critical section too",
	      was - 1);
	long v = shmem_long_g(count, home);
	for (int y = 0; y < 3; y++)
		sched_yield();
	shmem_long_p(count, v + 1, home);
	was = shmem_long_atomic_compare_swap(owner, me + 1, 0, home);
	CHECK(was == me + 1, "owner %ld at the end of the section", was);
}

static void
case_lock(void)
{
	long *lock = shmem_calloc(2, sizeof(long));
	long *count = shmem_calloc(2, sizeof(long));
	long *owner = shmem_calloc(2, sizeof(long));
	CHECK(lock && count && owner, "alloc");
	int home = npes - 1;
	shmem_barrier_all();
	for (int i = 0; i < ITER; i++) {
		/* set_lock: the counter of lock 0 */
		shmem_set_lock(&lock[0]);
		critical(&owner[0], &count[0], home);
		shmem_clear_lock(&lock[0]);
		/* test_lock until it holds (bounded: the others finish) */
		long tries = 0;
		while (shmem_test_lock(&lock[0])) {
			CHECK(++tries < 100000000L, "test_lock never held");
			if (!(tries & 63))
				usleep(10);
		}
		critical(&owner[0], &count[0], home);
		shmem_clear_lock(&lock[0]);
		/* a second lock, nested in the first */
		shmem_set_lock(&lock[0]);
		shmem_set_lock(&lock[1]);
		critical(&owner[1], &count[1], home);
		shmem_clear_lock(&lock[1]);
		shmem_clear_lock(&lock[0]);
	}
	shmem_barrier_all();
	long c0 = shmem_long_g(&count[0], home);
	long c1 = shmem_long_g(&count[1], home);
	CHECK(c0 == (long)npes * 2 * ITER, "count %ld, expected %ld", c0,
	      (long)npes * 2 * ITER);
	CHECK(c1 == (long)npes * ITER, "count %ld, expected %ld", c1,
	      (long)npes * ITER);
	/* Released: the words are back to 0 on every PE. */
	CHECK(lock[0] == 0 && lock[1] == 0, "lock words %#lx %#lx", lock[0],
	      lock[1]);
	shmem_barrier_all();
	shmem_free(owner);
	shmem_free(count);
	shmem_free(lock);
}

/* FIFO: PE 0 holds the lock; PE 1, 2, ... queue up one after the other
 * (white box: PE k calls set_lock once the queue's tail, bits 0..23 of
 * PE 0's copy of the word, names PE k - 1); then PE 0 releases, and each
 * PE appends itself to a list on PE 0 when it gets the lock: the list
 * is 1, 2, ..., npes - 1 (the order of arrival), every time. */
static void
case_lockfifo(void)
{
	long *lock = shmem_calloc(1, sizeof(long));
	int *order = shmem_calloc((size_t)npes + 1, sizeof(int));
	CHECK(lock && order, "alloc");
	shmem_barrier_all();
	if (me == 0)
		shmem_set_lock(lock);
	long want = me == 0 ? npes : me;  /* 1 + the PE before me */
	for (long tries = 0;; tries++) {
		long w = shmem_long_atomic_fetch(lock, 0);
		if ((w & 0xffffff) == want)
			break;
		CHECK(tries < 2000000, "tail %#lx, waiting for %ld", w, want);
		usleep(50);
	}
	if (me != 0)
		shmem_set_lock(lock);
	int n = shmem_int_g(&order[npes], 0);
	shmem_int_p(&order[n], me, 0);
	shmem_int_p(&order[npes], n + 1, 0);
	shmem_clear_lock(lock);
	shmem_barrier_all();
	if (me == 0)
		for (int i = 0; i < npes; i++)
			CHECK(order[i] == i, "order[%d] = %d", i, order[i]);
	shmem_barrier_all();
	shmem_free(order);
	shmem_free(lock);
}

/* ---- misc -------------------------------------------------------------- */

static void
case_misc(void)
{
	long *h = shmem_malloc(4 * sizeof(long));
	CHECK(h, "alloc");
	long local = 0;
	for (int pe = 0; pe < npes; pe++) {
		CHECK(shmem_pe_accessible(pe) == 1, "pe %d", pe);
		CHECK(shmem_addr_accessible(h, pe) == 1, "heap at %d", pe);
		CHECK(shmem_addr_accessible(h + 3, pe) == 1, "heap end");
		CHECK(shmem_addr_accessible(&local, pe) == 0, "stack");
		void *p = shmem_ptr(h, pe);
		int near = pe / node_pes() == me / node_pes();
		if (pe == me)
			CHECK(p == h, "shmem_ptr(me) %p, %p", p, (void *)h);
		else
			CHECK((p != NULL) == near, "shmem_ptr(%d) %p", pe, p);
		CHECK(shmem_ptr(&local, pe) == NULL, "ptr of the stack");
		CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, h, pe) == p,
		      "team_ptr world");
	}
	CHECK(shmem_pe_accessible(-1) == 0 && shmem_pe_accessible(npes) == 0,
	      "out of range");
	CHECK(shmem_addr_accessible(h, npes) == 0, "addr pe out of range");
	CHECK(shmem_ptr(h, npes) == NULL && shmem_ptr(h, -1) == NULL,
	      "ptr out of range");
	CHECK(shmem_team_ptr(SHMEM_TEAM_INVALID, h, 0) == NULL, "invalid");
	/* a team of every second PE: team PE k is world 2k */
	shmem_team_t ev;
	int tn = (npes + 1) / 2;
	CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, tn, NULL, 0,
				       &ev) == 0, "split");
	if (ev != SHMEM_TEAM_INVALID) {
		for (int k = 0; k < tn; k++)
			CHECK(shmem_team_ptr(ev, h, k) == shmem_ptr(h, 2 * k),
			      "team_ptr %d", k);
		CHECK(shmem_team_ptr(ev, h, tn) == NULL, "team pe range");
		shmem_team_destroy(ev);
	}
	/* hints: all accepted; unknown bits too (a hint is only a hint) */
	long hints[] = { 0, SHMEM_MALLOC_ATOMICS_REMOTE,
			 SHMEM_MALLOC_SIGNAL_REMOTE,
			 SHMEM_MALLOC_ATOMICS_REMOTE |
				 SHMEM_MALLOC_SIGNAL_REMOTE,
			 1L << 20 };
	for (unsigned i = 0; i < sizeof(hints) / sizeof(hints[0]); i++) {
		long *p = shmem_malloc_with_hints(64 * sizeof(long), hints[i]);
		CHECK(p != NULL, "hints %#lx", hints[i]);
		CHECK((uintptr_t)p % sizeof(long) == 0, "aligned");
		CHECK(shmem_addr_accessible(p, (me + 1) % npes), "sym");
		*p = 0;
		shmem_barrier_all();
		shmem_long_atomic_add(p, 1, (me + 1) % npes);
		shmem_barrier_all();
		CHECK(*p == 0 + 1, "atomic on hinted memory %ld", *p);
		shmem_barrier_all();
		shmem_free(p);
	}
	CHECK(shmem_malloc_with_hints(0, 0) == NULL, "size 0");
	/* cache routines: no-ops */
	shmem_clear_cache_inv();
	shmem_set_cache_inv();
	shmem_clear_cache_line_inv(h);
	shmem_set_cache_line_inv(h);
	shmem_barrier_all();
	shmem_free(h);
}

/* ---- threads ----------------------------------------------------------- */

#define THREADS 4
#define TITER 200

static long *t_cnt;  /* [THREADS] on every PE: adds from the left PE */
static long *t_def;  /* one counter: every thread of every PE adds */
static long *t_buf;  /* [THREADS * TITER]: puts from the left PE */

static void *
thread_main(void *arg)
{
	int id = (int)(intptr_t)arg;
	shmem_ctx_t c;
	CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &c) == 0, "ctx");
	int right = (me + 1) % npes;
	/* nbi sources stay untouched until the quiet */
	long *src = malloc(TITER * sizeof(long));
	CHECK(src, "malloc");
	for (int i = 0; i < TITER; i++) {
		src[i] = me * 100000 + id * 1000 + i;
		shmem_ctx_long_atomic_add(c, &t_cnt[id], 1, right);
		shmem_ctx_long_put_nbi(c, &t_buf[id * TITER + i], &src[i], 1,
				       right);
		shmem_long_atomic_inc(t_def, 0);
		if (i % 50 == 49)
			shmem_ctx_quiet(c);
	}
	shmem_ctx_quiet(c);
	shmem_ctx_destroy(c);
	shmem_quiet();
	free(src);
	return NULL;
}

static void
case_threads(void)
{
	t_cnt = shmem_calloc(THREADS, sizeof(long));
	t_def = shmem_calloc(1, sizeof(long));
	t_buf = shmem_calloc(THREADS * TITER, sizeof(long));
	CHECK(t_cnt && t_def && t_buf, "alloc");
	pthread_t th[THREADS];
	for (int i = 0; i < THREADS; i++)
		CHECK(pthread_create(&th[i], NULL, thread_main,
				     (void *)(intptr_t)i) == 0, "thread");
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	shmem_barrier_all();
	int left = (me + npes - 1) % npes;
	for (int id = 0; id < THREADS; id++) {
		CHECK(shmem_long_atomic_fetch(&t_cnt[id], me) == TITER,
		      "count %d: %ld", id, t_cnt[id]);
		for (int i = 0; i < TITER; i++)
			CHECK(t_buf[id * TITER + i] ==
				      left * 100000 + id * 1000 + i,
			      "buf %d %d", id, i);
	}
	long d = shmem_long_atomic_fetch(t_def, 0);
	CHECK(d == (long)npes * THREADS * TITER, "default %ld", d);
	shmem_barrier_all();
	shmem_free(t_buf);
	shmem_free(t_def);
	shmem_free(t_cnt);
}

/* ---- bad: misuse ends the PE with one line ------------------------------ */

static const struct {
	const char *what;   /* the line names it */
} bad_cases[] = {
	{ "ctx is SHMEM_CTX_INVALID" },
	{ "SHMEM_CTX_DEFAULT cannot be destroyed" },
	{ "was not made by shmem_ctx_create" },
	{ "is not held by this PE" },
	{ "the context's team has PEs 0..0" },
	{ "ctx is SHMEM_CTX_INVALID" },
};
#define NBAD (int)(sizeof(bad_cases) / sizeof(bad_cases[0]))

static int
bad_child(int k)
{
	shmem_init();
	me = shmem_my_pe();
	long *p = shmem_calloc(4, sizeof(long));
	static long not_a_ctx[16];
	shmem_ctx_t c;
	shmem_team_t one;
	switch (k) {
	case 0:
		shmem_ctx_long_p(SHMEM_CTX_INVALID, p, 1, 0);
		break;
	case 1:
		shmem_ctx_destroy(SHMEM_CTX_DEFAULT);
		break;
	case 2:
		shmem_ctx_destroy((shmem_ctx_t)(void *)not_a_ctx);
		break;
	case 3:
		shmem_clear_lock(&p[0]);
		break;
	case 4:
		/* a one-PE team's context: team PE 1 does not exist */
		CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 1,
					       NULL, 0, &one) == 0, "split");
		CHECK(shmem_team_create_ctx(one, 0, &c) == 0, "ctx");
		shmem_ctx_long_p(c, p, 1, 1);
		break;
	case 5:
		shmem_ctx_long_atomic_add(SHMEM_CTX_INVALID, p, 1, 0);
		break;
	}
	return 0; /* not reached: the call above ends the PE */
}

static void
case_bad(const char *self)
{
	for (int k = 0; k < NBAD; k++) {
		int pfd[2];
		CHECK(pipe2(pfd, O_CLOEXEC) == 0, "pipe");
		pid_t pid = fork();
		CHECK(pid >= 0, "fork");
		if (pid == 0) {
			dup2(pfd[1], 2);
			char ks[16];
			snprintf(ks, sizeof(ks), "%d", k);
			execl(self, self, "child", ks, (char *)NULL);
			_exit(127);
		}
		close(pfd[1]);
		char buf[4096];
		size_t n = 0;
		ssize_t r;
		while (n < sizeof(buf) - 1 &&
		       (r = read(pfd[0], buf + n, sizeof(buf) - 1 - n)) > 0)
			n += (size_t)r;
		buf[n] = 0;
		close(pfd[0]);
		int st;
		CHECK(waitpid(pid, &st, 0) == pid, "wait");
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 1,
		      "child %d: status %#x, stderr: %s", k, st, buf);
		CHECK(strstr(buf, bad_cases[k].what) != NULL,
		      "child %d: '%s' not in: %s", k, bad_cases[k].what, buf);
		CHECK(strstr(buf, "zeshmem: PE 0: shmem_") != NULL,
		      "child %d: no one-line error: %s", k, buf);
	}
}

int
main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "child"))
		return bad_child(atoi(argv[2]));
	if (argc != 2) {
		fprintf(stderr, "usage: shmem_ctx_pe CASE\n");
		return 2;
	}
	const char *cs = argv[1];
	if (!strcmp(cs, "bad")) {
		me = 0;
		case_bad(argv[0]);
		printf("PE 0: bad ok\n");
		return 0;
	}
	if (!strcmp(cs, "threads")) {
		int got = -1;
		CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &got) == 0 &&
			      got == SHMEM_THREAD_MULTIPLE, "init_thread %d",
		      got);
	} else {
		shmem_init();
	}
	me = shmem_my_pe();
	npes = shmem_n_pes();
	if (!strcmp(cs, "ctx"))
		case_ctx();
	else if (!strcmp(cs, "lock"))
		case_lock();
	else if (!strcmp(cs, "lockfifo"))
		case_lockfifo();
	else if (!strcmp(cs, "misc"))
		case_misc();
	else if (!strcmp(cs, "threads"))
		case_threads();
	else
		CHECK(0, "unknown case %s", cs);
	shmem_finalize();
	printf("PE %d: %s ok\n", me, cs);
	return 0;
}
