// SPDX-License-Identifier: MIT
/*
 * sh_proxy_pe: one PE of a job (zeshrun -n N -- sh_proxy_pe CASE) that
 * checks ZESHMEM_BACKEND (shmem/ctx/sh_proxy.c) through the runtime core's
 * own calls, with the proxy's test hooks (sh_proxy_hold & co.). Exit 0
 * and "sh_proxy_pe: PE <n>: CASE ok" when every check holds, 2 with the
 * failed check on stderr otherwise. Cases (ro: ZESHMEM_BACKEND=ro, set by
 * the case itself before the first option is read):
 *   nbi      the proxy held: put_nbi and get_nbi (to this PE) return with
 *            the data not yet moved and the entries pending; a bad
 *            address fails at once; quiet after the release moves both
 *   fence    held: put_nbi of 64 KiB, fence, put_nbi of a flag to the
 *            right neighbour; released: the neighbour sees the whole
 *            payload once it sees the flag
 *   quiet    64 put_nbi + 64 get_nbi of 1 KiB segments, then one quiet:
 *            all of them done (checked on both sides)
 *   threads  4 threads each doing 100 x (put_nbi, atomic add, blocking
 *            get) and a quiet: exact totals
 *   full     held: a producer thread queues SH_PROXY_RING + 8 put_nbi;
 *            it blocks with the ring full; released, all are done
 *   fini     held work queued, released, finalize at once: every entry
 *            executed, no error, and the threads and fds of before init
 *            (of after a first init/finalize cycle)
 *   dead     (2 PEs) PE 1 ends; PE 0's held put_nbi to it fails at the
 *            next quiet with -EHOSTDOWN, the quiet after returns 0
 *   ipcnode  ZESHMEM_BACKEND=ipc, each PE a node of its own
 *            (ZESHMEM_HOST_ID): init fails with -EOPNOTSUPP
 *   badenv   ZESHMEM_BACKEND=fast: -EINVAL; (arg gda) =gda with
 *            ZESHMEM_TRANSPORT=ipc: -EINVAL
 *   spin     (arg on | off | auto: ZESHMEM_PROXY_SPIN) 100 blocking puts
 *            and 100 blocking gets to the right neighbour, exact data;
 *            on: each blocking call began one spin (the caller holds the
 *            lock until it looks, so the proxy cannot finish first) and
 *            the idle proxy one after each (it finds the ring empty:
 *            the caller waits); off: no spin at all; auto: on where the
 *            machine has more online CPUs than the node has PEs
 *   inplace  put_nbi of 64 KiB to the right neighbour, the proxy left
 *            to run it, then quiet: answered by the caller (in place: not
 *            queued) when the copy was node-local; (arg net:
 *            ZESHMEM_FORCE_NETWORK) queued, the put being on libfabric;
 *            the data there either way; a second quiet, nothing run
 *            since, in place on both; the PE's endpoint has a CQ wait
 *            fd (tcp) in the net run only
 *   nofabric ZESHMEM_BACKEND=gda where libfabric.so.1 cannot be loaded
 *            (the test points LD_LIBRARY_PATH at a file that is not a
 *            library): init fails with -EOPNOTSUPP
 */
#include "sh_init.h"

#include "leakcheck.h"
#include "u_os.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *cname = "";

#define CORE_EXPECT_WHERE() \
	fprintf(stderr, "sh_proxy_pe: PE %d: %s: line %d: ", sh.me, cname, \
		__LINE__)
#include "core_expect.h"

static void
nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static void
init_ro(void)
{
	setenv("ZESHMEM_BACKEND", "ro", 1);
	int got = -1;
	int err = sh_init(NULL, 0, 0, 3, &got);
	if (err)
		FAIL("sh_init: %d (%s)", err, strerror(-err));
	EXPECT_EQ(sh.backend, SH_BACKEND_RO);
	EXPECT(sh_divert != NULL);
}

/* Entries the proxy executed plus the quiets answered in place: each
 * queued operation and each quiet counts once, whichever way it went. */
static uint64_t
done_ops(void)
{
	return sh_proxy_executed() + sh_proxy_quiets_in_place();
}

static void
fini(void)
{
	EXPECT_EQ(sh_finalize(), 0);
}

static void
case_nbi(void)
{
	init_ro();
	size_t n = 4096;
	char *a = sh_malloc(n, 128, "test");
	char *b = sh_malloc(n, 128, "test");
	EXPECT(a && b);
	char src[4096], dst[4096];
	memset(src, 0x5a, n);
	memset(a, 0, n);
	memset(b, 0x33, n);
	memset(dst, 0, n);
	long stackv = 0;
	sh_proxy_hold(1);
	EXPECT_EQ(sh_put(NULL, a, src, n, sh.me, 1), 0);
	EXPECT_EQ(sh_get(NULL, dst, b, n, sh.me, 1), 0);
	EXPECT_EQ(sh_proxy_pending(), 2);
	/* returned before the copies: nothing moved yet */
	for (size_t i = 0; i < n; i++) {
		EXPECT_EQ(a[i], 0);
		EXPECT_EQ(dst[i], 0);
	}
	/* argument errors at once, nothing queued */
	EXPECT_EQ(sh_put(NULL, &stackv, src, 8, sh.me, 1), -EFAULT);
	EXPECT_EQ(sh_get(NULL, dst, &stackv, 8, sh.me, 1), -EFAULT);
	EXPECT_EQ(sh_put(NULL, a, src, 8, sh.npes, 1), -EINVAL);
	EXPECT_EQ(sh_put_signal(NULL, a, src, 8, (uint64_t *)(a + 1), 1,
				SH_SIGNAL_SET, sh.me, 1),
		  -EINVAL);
	EXPECT_EQ(sh_proxy_pending(), 2);
	uint64_t before = done_ops();
	sh_proxy_hold(0);
	EXPECT_EQ(sh_quiet(NULL), 0);
	EXPECT_EQ(sh_proxy_pending(), 0);
	EXPECT_EQ(done_ops(), before + 3); /* put, get, quiet */
	for (size_t i = 0; i < n; i++) {
		EXPECT_EQ(a[i], 0x5a);
		EXPECT_EQ(dst[i], 0x33);
	}
	/* a blocking call's own error comes back from it */
	EXPECT_EQ(sh_put(NULL, &stackv, src, 8, sh.me, 0), -EFAULT);
	EXPECT_EQ(sh_quiet(NULL), 0);
	sh_free(b, "test");
	sh_free(a, "test");
	fini();
}

static void
case_fence(void)
{
	init_ro();
	size_t n = 64 * 1024;
	int right = (sh.me + 1) % sh.npes;
	unsigned char *data = sh_malloc(n, 128, "test");
	uint64_t *flag = sh_calloc(1, sizeof(uint64_t), "test");
	unsigned char *src = malloc(n);
	EXPECT(data && flag && src);
	memset(data, 0, n);
	for (size_t i = 0; i < n; i++)
		src[i] = (unsigned char)(i * 7 + (size_t)sh.me);
	EXPECT_EQ(sh_barrier(sh_team_world), 0);
	uint64_t one = 1;
	sh_proxy_hold(1);
	EXPECT_EQ(sh_put(NULL, data, src, n, right, 1), 0);
	EXPECT_EQ(sh_fence(NULL), 0);
	EXPECT_EQ(sh_put(NULL, flag, &one, sizeof(one), right, 1), 0);
	EXPECT_EQ(sh_proxy_pending(), 3);
	sh_proxy_hold(0);
	uint64_t want = 1;
	EXPECT_EQ(sh_wait_until(flag, SH_T_UINT, 8, SH_CMP_EQ, &want), 0);
	int left = (sh.me + sh.npes - 1) % sh.npes;
	for (size_t i = 0; i < n; i++)
		if (data[i] != (unsigned char)(i * 7 + (size_t)left))
			FAIL("byte %zu: %u, the flag came first", i, data[i]);
	EXPECT_EQ(sh_barrier(sh_team_world), 0); /* quiet: src reusable */
	free(src);
	sh_free(flag, "test");
	sh_free(data, "test");
	fini();
}

static void
case_quiet(void)
{
	init_ro();
	enum { SEG = 1024, NSEG = 64 };
	int right = (sh.me + 1) % sh.npes, left = (sh.me + sh.npes - 1) %
						 sh.npes;
	int *in = sh_malloc(SEG * NSEG, 128, "test");
	int *mine = sh_malloc(SEG * NSEG, 128, "test");
	int *src = malloc(SEG * NSEG), *got = malloc(SEG * NSEG);
	EXPECT(in && mine && src && got);
	size_t per = SEG / sizeof(int);
	for (size_t i = 0; i < per * NSEG; i++) {
		src[i] = sh.me * 1000000 + (int)i;
		mine[i] = -(sh.me * 1000000 + (int)i);
		got[i] = 0;
	}
	EXPECT_EQ(sh_barrier(sh_team_world), 0);
	uint64_t before = done_ops();
	for (int s = 0; s < NSEG; s++) {
		EXPECT_EQ(sh_put(NULL, in + s * per, src + s * per, SEG, right,
				 1),
			  0);
		EXPECT_EQ(sh_get(NULL, got + s * per, mine + s * per, SEG,
				 right, 1),
			  0);
	}
	EXPECT_EQ(sh_quiet(NULL), 0);
	EXPECT_EQ(sh_proxy_pending(), 0);
	/* every one went through the proxy: 2 * NSEG entries + the quiet */
	EXPECT_EQ(done_ops(), before + 2 * NSEG + 1);
	for (size_t i = 0; i < per * NSEG; i++)
		EXPECT_EQ(got[i], -(right * 1000000 + (int)i));
	EXPECT_EQ(sh_barrier(sh_team_world), 0);
	for (size_t i = 0; i < per * NSEG; i++)
		EXPECT_EQ(in[i], left * 1000000 + (int)i);
	free(src);
	free(got);
	sh_free(mine, "test");
	sh_free(in, "test");
	fini();
}

enum { NTHR = 4, ITERS = 100 };
static uint64_t *thr_slots, *thr_count;

static void *
thr_main(void *arg)
{
	int t = (int)(intptr_t)arg;
	int right = (sh.me + 1) % sh.npes;
	uint64_t vals[ITERS];
	for (int i = 0; i < ITERS; i++) {
		vals[i] = ((uint64_t)sh.me << 32) | (uint64_t)(t * ITERS + i);
		if (sh_put(NULL, &thr_slots[t * ITERS + i], &vals[i], 8, right,
			   1))
			return (void *)1;
		uint64_t one = 1;
		if (sh_amo(NULL, SH_AMO_ADD, SH_T_UINT, 8, thr_count, &one,
			   NULL, NULL, 0))
			return (void *)2;
		uint64_t g = 0;
		if (sh_get(NULL, &g, thr_count, 8, 0, 0) || g == 0)
			return (void *)3;
	}
	if (sh_quiet(NULL)) /* vals are reusable after it */
		return (void *)4;
	return NULL;
}

static void
case_threads(void)
{
	init_ro();
	thr_slots = sh_calloc(NTHR * ITERS, 8, "test");
	thr_count = sh_calloc(1, 8, "test");
	EXPECT(thr_slots && thr_count);
	pthread_t th[NTHR];
	uint64_t before = done_ops();
	for (int t = 0; t < NTHR; t++)
		EXPECT_EQ(pthread_create(&th[t], NULL, thr_main,
					 (void *)(intptr_t)t),
			  0);
	for (int t = 0; t < NTHR; t++) {
		void *r;
		pthread_join(th[t], &r);
		EXPECT_EQ((intptr_t)r, 0);
	}
	/* per thread: ITERS x (put, add, get) and its quiet, all queued */
	EXPECT_EQ(done_ops(), before + NTHR * (3 * ITERS + 1));
	EXPECT_EQ(sh_barrier(sh_team_world), 0);
	int left = (sh.me + sh.npes - 1) % sh.npes;
	for (int i = 0; i < NTHR * ITERS; i++)
		EXPECT_EQ(thr_slots[i], ((uint64_t)left << 32) | (uint64_t)i);
	if (sh.me == 0)
		EXPECT_EQ(*thr_count, (uint64_t)sh.npes * NTHR * ITERS);
	sh_free(thr_count, "test");
	sh_free(thr_slots, "test");
	fini();
}

static uint64_t *full_buf;
static uint64_t full_src[SH_PROXY_RING + 8];
static int full_done;

static void *
full_main(void *arg)
{
	(void)arg;
	for (int i = 0; i < SH_PROXY_RING + 8; i++)
		if (sh_put(NULL, &full_buf[i], &full_src[i], 8, sh.me, 1))
			return (void *)1;
	__atomic_store_n(&full_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void
case_full(void)
{
	init_ro();
	full_buf = sh_calloc(SH_PROXY_RING + 8, 8, "test");
	EXPECT(full_buf);
	for (int i = 0; i < SH_PROXY_RING + 8; i++)
		full_src[i] = 0xabc000 + (uint64_t)i;
	sh_proxy_hold(1);
	uint64_t before = done_ops();
	pthread_t th;
	EXPECT_EQ(pthread_create(&th, NULL, full_main, NULL), 0);
	for (int i = 0; i < 10000 && sh_proxy_pending() < SH_PROXY_RING; i++)
		nap_ms(1);
	EXPECT_EQ(sh_proxy_pending(), SH_PROXY_RING);
	nap_ms(20);
	/* the ring is full and the proxy held: the producer cannot be done */
	EXPECT_EQ(sh_proxy_pending(), SH_PROXY_RING);
	EXPECT_EQ(__atomic_load_n(&full_done, __ATOMIC_ACQUIRE), 0);
	EXPECT_EQ(full_buf[0], 0);
	sh_proxy_hold(0);
	void *r;
	pthread_join(th, &r);
	EXPECT_EQ((intptr_t)r, 0);
	EXPECT_EQ(full_done, 1);
	EXPECT_EQ(sh_quiet(NULL), 0);
	EXPECT_EQ(done_ops(), before + SH_PROXY_RING + 8 + 1);
	for (int i = 0; i < SH_PROXY_RING + 8; i++)
		EXPECT_EQ(full_buf[i], 0xabc000 + (uint64_t)i);
	sh_free(full_buf, "test");
	fini();
}

static void
case_fini(void)
{
	/* One cycle first: what the driver and the loader keep for the
	 * process's life (a thread, fds) is then in the baseline. */
	init_ro();
	fini();
	int fds = leakcheck_count_fds();
	int thr = leakcheck_count_threads(-1);
	init_ro();
	int right = (sh.me + 1) % sh.npes;
	size_t n = 256 * 1024;
	char *buf = sh_malloc(n, 128, "test");
	static char src[256 * 1024];
	EXPECT(buf);
	memset(src, 0x77, n);
	uint64_t before = sh_proxy_executed();
	sh_proxy_hold(1);
	for (int i = 0; i < 16; i++)
		EXPECT_EQ(sh_put(NULL, buf, src, n, right, 1), 0);
	EXPECT_EQ(sh_proxy_pending(), 16);
	sh_proxy_hold(0);
	/* no quiet, no free: finalize's barrier drains the queue */
	fini();
	EXPECT(sh_proxy_executed() >= before + 16);
	EXPECT(sh_divert == NULL);
	EXPECT_EQ(leakcheck_count_threads(thr), thr);
	EXPECT_EQ(leakcheck_count_fds(), fds);
}

static void
case_dead(void)
{
	init_ro();
	EXPECT_EQ(sh.npes, 2);
	char *buf = sh_malloc(4096, 128, "test");
	static char src[4096];
	EXPECT(buf);
	EXPECT_EQ(sh_barrier(sh_team_world), 0);
	if (sh.me == 1) {
		printf("sh_proxy_pe: PE 1: %s ok\n", cname);
		fflush(stdout);
		_exit(0); /* ends without finalize */
	}
	sh_proxy_hold(1);
	EXPECT_EQ(sh_put(NULL, buf, src, sizeof(src), 1, 1), 0);
	int err = 0;
	for (int i = 0; i < 1000 && !err; i++) {
		err = sh_pe_check_alive(1);
		if (!err)
			nap_ms(10);
	}
	EXPECT_EQ(err, -EHOSTDOWN);
	sh_proxy_hold(0);
	EXPECT_EQ(sh_quiet(NULL), -EHOSTDOWN); /* the queued put's */
	EXPECT_EQ(sh_quiet(NULL), 0);          /* told once */
	EXPECT_EQ(sh_put(NULL, buf, src, 8, 1, 1), -EHOSTDOWN); /* at once */
	printf("sh_proxy_pe: PE 0: %s ok\n", cname);
	fflush(stdout);
	_exit(0); /* a barrier with a dead peer would only fail */
}

static void
case_ipcnode(void)
{
	char id[64];
	const char *r = getenv("ZESHMEM_RANK");
	snprintf(id, sizeof(id), "node-%s", r ? r : "0");
	setenv("ZESHMEM_HOST_ID", id, 1);
	setenv("ZESHMEM_BACKEND", "ipc", 1);
	int got;
	int err = sh_init(NULL, 0, 0, 0, &got);
	EXPECT_EQ(err, -EOPNOTSUPP);
	EXPECT(!sh.initialized);
}

static void
case_badenv(const char *arg)
{
	if (arg && !strcmp(arg, "gda")) {
		setenv("ZESHMEM_BACKEND", "gda", 1);
		setenv("ZESHMEM_TRANSPORT", "ipc", 1);
	} else {
		setenv("ZESHMEM_BACKEND", "fast", 1);
	}
	int got;
	EXPECT_EQ(sh_init(NULL, 0, 0, 0, &got), -EINVAL);
	EXPECT(!sh.initialized);
}

static void
case_spin(const char *arg)
{
	const char *mode = arg ? arg : "auto";
	setenv("ZESHMEM_PROXY_SPIN", mode, 1);
	init_ro();
	bool want = !strcmp(mode, "on") ||
		    (!strcmp(mode, "auto") &&
		     u_cpu_count() > (unsigned)sh.node_npes);
	long *a = sh_malloc(100 * sizeof(long), 128, "test");
	EXPECT(a);
	int right = (sh.me + 1) % sh.npes, left = (sh.me + sh.npes - 1) % sh.npes;
	uint64_t i0, w0, i1, w1;
	sh_proxy_spins(&i0, &w0);
	for (long i = 0; i < 100; i++) {
		long v = sh.me * 1000 + i;
		EXPECT_EQ(sh_put(NULL, &a[i], &v, sizeof(v), right, 0), 0);
	}
	sh_proxy_spins(&i1, &w1);
	EXPECT_EQ(w1 - w0, want ? 100 : 0);
	if (want)
		EXPECT(i1 - i0 >= 99);
	else
		EXPECT_EQ(i1, 0);
	EXPECT_EQ(sh_barrier(sh_team_world), 0);
	for (long i = 0; i < 100; i++)
		EXPECT_EQ(a[i], left * 1000 + i);
	sh_proxy_spins(&i0, &w0);
	for (long i = 0; i < 100; i++) {
		long v = -1;
		EXPECT_EQ(sh_get(NULL, &v, &a[i], sizeof(v), right, 0), 0);
		EXPECT_EQ(v, sh.me * 1000 + i);
	}
	sh_proxy_spins(&i1, &w1);
	EXPECT_EQ(w1 - w0, want ? 100 : 0);
	if (!want)
		EXPECT_EQ(i1 + w1, 0);
	EXPECT_EQ(sh_barrier(sh_team_world), 0);
	sh_free(a, "test");
	fini();
}

/* Waits (bounded) until the proxy has run everything queued. */
static void
drain(void)
{
	for (int i = 0; i < 10000 && sh_proxy_pending(); i++)
		nap_ms(1);
	EXPECT_EQ(sh_proxy_pending(), 0);
}

static void
case_inplace(const char *arg)
{
	bool net = arg && !strcmp(arg, "net");
	if (net)
		setenv("ZESHMEM_FORCE_NETWORK", "1", 1);
	init_ro();
	/* tcp (the net run's provider) sleeps on its CQ's wait fd */
	EXPECT_EQ(sh_tr_ofi_wait_fd(), net);
	enum { N = 64 * 1024 };
	int right = (sh.me + 1) % sh.npes, left = (sh.me + sh.npes - 1) %
						 sh.npes;
	char *in = sh_malloc(N, 128, "test");
	char *src = malloc(N);
	EXPECT(in && src);
	memset(in, 0, N);
	memset(src, 0x40 + sh.me, N);
	EXPECT_EQ(sh_barrier(sh_team_world), 0);
	uint64_t ex = sh_proxy_executed(), ip = sh_proxy_quiets_in_place();
	EXPECT_EQ(sh_put(NULL, in, src, N, right, 1), 0);
	drain();
	EXPECT_EQ(sh_proxy_executed(), ex + 1);
	EXPECT_EQ(sh_quiet(NULL), 0);
	if (net) {
		/* the put may still be in flight: the quiet was queued */
		EXPECT_EQ(sh_proxy_quiets_in_place(), ip);
		EXPECT_EQ(sh_proxy_executed(), ex + 2);
	} else {
		/* the copy was done when it ran: nothing to queue */
		EXPECT_EQ(sh_proxy_quiets_in_place(), ip + 1);
		EXPECT_EQ(sh_proxy_executed(), ex + 1);
	}
	EXPECT_EQ(sh_barrier(sh_team_world), 0);
	for (size_t i = 0; i < N; i++)
		if (in[i] != 0x40 + left)
			FAIL("byte %zu from PE %d: 0x%x", i, left, in[i]);
	/* After a queued quiet the next one, with nothing run since, is
	 * answered in place on either transport. */
	ip = sh_proxy_quiets_in_place();
	EXPECT_EQ(sh_quiet(NULL), 0);
	EXPECT_EQ(sh_proxy_quiets_in_place(), ip + 1);
	EXPECT_EQ(sh_barrier(sh_team_world), 0);
	free(src);
	sh_free(in, "test");
	fini();
}

static void
case_nofabric(void)
{
	setenv("ZESHMEM_BACKEND", "gda", 1);
	int got;
	EXPECT_EQ(sh_init(NULL, 0, 0, 0, &got), -EOPNOTSUPP);
	EXPECT(!sh.initialized);
}

int
main(int argc, char **argv)
{
	cname = argc > 1 ? argv[1] : "";
	const char *arg = argc > 2 ? argv[2] : NULL;
	if (!strcmp(cname, "nbi"))
		case_nbi();
	else if (!strcmp(cname, "fence"))
		case_fence();
	else if (!strcmp(cname, "quiet"))
		case_quiet();
	else if (!strcmp(cname, "threads"))
		case_threads();
	else if (!strcmp(cname, "full"))
		case_full();
	else if (!strcmp(cname, "fini"))
		case_fini();
	else if (!strcmp(cname, "dead"))
		case_dead();
	else if (!strcmp(cname, "ipcnode"))
		case_ipcnode();
	else if (!strcmp(cname, "badenv"))
		case_badenv(arg);
	else if (!strcmp(cname, "nofabric"))
		case_nofabric();
	else if (!strcmp(cname, "spin"))
		case_spin(arg);
	else if (!strcmp(cname, "inplace"))
		case_inplace(arg);
	else {
		fprintf(stderr, "sh_proxy_pe: unknown case '%s'\n", cname);
		return 2;
	}
	const char *r = getenv("ZESHMEM_RANK");
	printf("sh_proxy_pe: PE %s: %s ok\n", r ? r : "?", cname);
	return 0;
}
