// SPDX-License-Identifier: MIT
/*
 * static_pe: one PE of a test job (zeshrun -n N) whose symmetric objects
 * are the program's global and static variables (issue 17, "symmetric
 * data objects"): initialised .data and zero .bss, int / long / double /
 * uint64_t arrays and words, as targets of every operation kind.
 *
 *   static_pe ops pie|nopie   every kind: put/get/p/g/iput/iget/nbi,
 *                             AMOs, put_signal, wait_until/test/
 *                             signal_wait_until woken by a peer, shmem_ptr,
 *                             addr_accessible; then a second init/finalize
 *                             cycle; a fork child's static data is its
 *                             own; checks the executable is PIE / not
 *   static_pe shlib           puts into a shared library's global: ends
 *                             with libzeshmem's one-line error (exit 1)
 * STATIC_PE_NET=1: no peer is node-local (ZESHMEM_TRANSPORT=ofi);
 * SHMEM_PE_NODE_PES=k: k consecutive ranks per node (netns_job.sh):
 * shmem_ptr of another node's PE's static data is NULL. Exits 0 with
 * "PE <me>: <case> ok", 3 with the failed check on stderr.
 */
#include <shmem.h>

#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* static_shlib.c, a shared library: its data is not symmetric */
int *static_shlib_ptr(void);
#define static_shlib_var (static_shlib_ptr())

#define NE 16

static int me, npes;

#include "pe_check.h"
#include "test_san.h"

/* .data (initialised) */
static long sl[NE] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
		       16 };
double gd[NE] = { 0.5, 1.5, 2.5 };
/* .bss (zero) */
long gl[NE];
static int si[NE];
static long amo_l;
static unsigned int amo_i;
static unsigned long long amo_u;
static long slots[64];
static double dd;
static float ff;
static uint64_t sig, sig_add;
static long word, word2;
static long forkv[2] = { 11, 12 };
#ifdef STATIC_PE_BIG
/* another program's layout (static_check.sh: a job of two programs) */
long static_pe_big[4096];
#endif

static void
sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* Is pe on this PE's node? STATIC_PE_NET=1: no peer is;
 * SHMEM_PE_NODE_PES=k (netns_job.sh): k consecutive ranks per node. */
static int
same_node(int pe)
{
	const char *e = getenv("STATIC_PE_NET");
	if (e && *e == '1')
		return pe == me;
	e = getenv("SHMEM_PE_NODE_PES");
	int k = e ? atoi(e) : npes;
	if (k < 1 || k > npes)
		k = npes;
	return pe / k == me / k;
}

/* The executable's ELF type (ET_DYN: PIE, ET_EXEC: not). */
static int
elf_type(void)
{
	FILE *f = fopen("/proc/self/exe", "rb");
	CHECK(f, "open /proc/self/exe");
	ElfW(Ehdr) h;
	CHECK(fread(&h, sizeof(h), 1, f) == 1, "read the ELF header");
	fclose(f);
	return h.e_type;
}

static void
case_rma(int right, int left)
{
	long src[NE], buf[NE];
	/* .data kept its initial values through the swap onto shared memory */
	for (int i = 0; i < NE; i++)
		CHECK(sl[i] == i + 1, "sl[%d] = %ld after init", i, sl[i]);
	CHECK(gd[1] == 1.5 && gd[3] == 0.0, "gd after init");
	for (int i = 0; i < NE; i++)
		CHECK(gl[i] == 0, "gl[%d] = %ld after init", i, gl[i]);
	shmem_barrier_all();

	/* put / get */
	for (int i = 0; i < NE; i++)
		src[i] = me * 100 + i;
	shmem_long_put(gl, src, NE, right);
	shmem_barrier_all();
	for (int i = 0; i < NE; i++)
		CHECK(gl[i] == left * 100 + i, "put: gl[%d] = %ld", i, gl[i]);
	shmem_long_get(buf, gl, NE, right);
	for (int i = 0; i < NE; i++)
		CHECK(buf[i] == me * 100 + i, "get: [%d] = %ld", i, buf[i]);
	/* .data as a source of a get, and both sides static */
	shmem_long_get(buf, sl, NE, right);
	for (int i = 0; i < NE; i++)
		CHECK(buf[i] == i + 1, "get of .data: [%d] = %ld", i, buf[i]);
	shmem_barrier_all();

	/* p / g */
	shmem_int_p(&si[me % NE], me + 7, right);
	shmem_barrier_all();
	CHECK(si[left % NE] == left + 7, "p: si = %d", si[left % NE]);
	CHECK(shmem_int_g(&si[me % NE], right) == me + 7, "g");
	shmem_barrier_all();

	/* iput / iget (strides) */
	double ds[NE / 2], dg[NE / 2];
	for (int i = 0; i < NE / 2; i++)
		ds[i] = me + i * 0.25;
	shmem_double_iput(gd, ds, 2, 1, NE / 2, right);
	shmem_barrier_all();
	for (int i = 0; i < NE / 2; i++)
		CHECK(gd[2 * i] == left + i * 0.25, "iput: gd[%d] = %g", 2 * i,
		      gd[2 * i]);
	CHECK(gd[1] == 1.5, "iput wrote between the strides");
	shmem_double_iget(dg, gd, 1, 2, NE / 2, right);
	for (int i = 0; i < NE / 2; i++)
		CHECK(dg[i] == me + i * 0.25, "iget: [%d] = %g", i, dg[i]);
	shmem_barrier_all();

	/* nbi into .data */
	for (int i = 0; i < NE; i++)
		src[i] = -(me * 1000 + i);
	shmem_long_put_nbi(sl, src, NE, right);
	shmem_quiet();
	shmem_barrier_all();
	for (int i = 0; i < NE; i++)
		CHECK(sl[i] == -(left * 1000 + i), "put_nbi: sl[%d] = %ld", i,
		      sl[i]);
	shmem_long_get_nbi(buf, sl, NE, right);
	shmem_quiet();
	for (int i = 0; i < NE; i++)
		CHECK(buf[i] == -(me * 1000 + i), "get_nbi: [%d]", i);
	shmem_putmem(&si[0], &me, sizeof(int), right);
	shmem_barrier_all();
	CHECK(si[0] == left, "putmem: %d", si[0]);
	shmem_barrier_all();
}

static void
case_amo(int right, int left)
{
	/* every PE on PE 0's words */
	shmem_long_atomic_add(&amo_l, me + 1, 0);
	long f = shmem_long_atomic_fetch_add(&amo_l, 10, 0);
	CHECK(f >= me + 1, "fetch_add: %ld", f);
	shmem_long_atomic_inc(&amo_l, 0);
	shmem_long_atomic_fetch_inc(&amo_l, 0);
	shmem_uint_atomic_fetch_or(&amo_i, 1u << me, 0);
	shmem_ulonglong_atomic_fetch_xor(&amo_u, 1ull << (me + 32), 0);
	shmem_ulonglong_atomic_or(&amo_u, 1ull << me, 0);
	shmem_barrier_all();
	if (me == 0) {
		long want = (long)npes * (npes + 1) / 2 + 12L * npes;
		CHECK(amo_l == want, "amo_l = %ld, want %ld", amo_l, want);
		CHECK(amo_i == (1u << npes) - 1, "amo_i = %u", amo_i);
		unsigned long long m = (1ull << npes) - 1;
		CHECK(amo_u == (m | (m << 32)), "amo_u = %llx", amo_u);
	}
	CHECK(shmem_long_atomic_fetch(&amo_l, 0) ==
	      (long)npes * (npes + 1) / 2 + 12L * npes, "fetch");
	shmem_barrier_all();
	shmem_uint_atomic_xor(&amo_i, 1u << me, 0);
	shmem_ulonglong_atomic_and(&amo_u, ~(1ull << me), 0);
	shmem_ulonglong_atomic_fetch_and(&amo_u, ~(1ull << (me + 32)), 0);
	shmem_barrier_all();
	if (me == 0)
		CHECK(amo_i == 0 && amo_u == 0, "xor/and: %u %llx", amo_i,
		      amo_u);

	/* my slot at my right neighbour */
	CHECK(shmem_long_atomic_compare_swap(&slots[me], 0, me + 5, right) ==
	      0, "cswap");
	CHECK(shmem_long_atomic_compare_swap(&slots[me], 0, 99, right) ==
	      me + 5, "failed cswap");
	CHECK(shmem_long_atomic_swap(&slots[me], 42, right) == me + 5,
	      "swap");
	shmem_long_atomic_set(&slots[me], me + 9, right);
	CHECK(shmem_long_atomic_fetch(&slots[me], right) == me + 9, "fetch");
	shmem_double_atomic_set(&dd, me + 0.5, right);
	CHECK(shmem_double_atomic_swap(&dd, me + 0.75, right) == me + 0.5,
	      "double swap");
	shmem_float_atomic_set(&ff, (float)me + 0.25f, right);
	shmem_barrier_all();
	CHECK(slots[left] == left + 9, "slots[%d] = %ld", left, slots[left]);
	CHECK(dd == left + 0.75, "dd = %g", dd);
	CHECK(shmem_float_atomic_fetch(&ff, me) == (float)left + 0.25f,
	      "ff = %g", (double)ff);
	long v = 0;
	shmem_long_atomic_fetch_nbi(&v, &slots[me], right);
	shmem_quiet();
	CHECK(v == me + 9, "fetch_nbi: %ld", v);
	shmem_barrier_all();
}

static void
case_signal_wait(int right, int left)
{
	long src[NE], none = 0;
	/* put_signal: data and signal word both static */
	for (int i = 0; i < NE; i++)
		src[i] = me * 10 + i;
	shmem_long_put_signal(gl, src, NE, &sig, (uint64_t)me + 1,
			      SHMEM_SIGNAL_SET, right);
	CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ,
				      (uint64_t)left + 1) ==
	      (uint64_t)left + 1, "signal_wait_until");
	for (int i = 0; i < NE; i++)
		CHECK(gl[i] == left * 10 + i, "payload: gl[%d] = %ld", i,
		      gl[i]);
	/* SIGNAL_ADD from every PE to PE 0 */
	shmem_long_put_signal(&slots[32 + me], &src[1], 1, &sig_add, 1,
			      SHMEM_SIGNAL_ADD, 0);
	if (me == 0) {
		shmem_signal_wait_until(&sig_add, SHMEM_CMP_GE,
					(uint64_t)npes);
		CHECK(shmem_signal_fetch(&sig_add) == (uint64_t)npes, "add");
		for (int i = 0; i < npes; i++)
			CHECK(slots[32 + i] == i * 10 + 1, "slot %d", i);
	}
	shmem_barrier_all();

	/* wait_until on a static word, woken by a peer's put (PE 0 sleeps
	 * there; the last PE writes after a while) */
	CHECK(shmem_long_test(&word, SHMEM_CMP_EQ, 5) == 0, "test before");
	shmem_barrier_all();
	if (me == 0) {
		shmem_long_wait_until(&word, SHMEM_CMP_EQ, 5);
		CHECK(word == 5, "word = %ld", word);
	} else if (me == npes - 1) {
		sleep_ms(100);
		long five = 5;
		shmem_long_put(&word, &five, 1, 0);
	}
	/* ... and by AMOs: the last PE waits for every other's increment */
	if (me == npes - 1) {
		shmem_long_wait_until(&word2, SHMEM_CMP_GE, npes - 1);
		CHECK(word2 == npes - 1, "word2 = %ld", word2);
		CHECK(shmem_long_test(&word2, SHMEM_CMP_EQ, npes - 1) == 1,
		      "test after");
	} else {
		sleep_ms(50);
		shmem_long_atomic_inc(&word2, npes - 1);
	}
	/* wait_until_any over a static array */
	shmem_barrier_all();
	if (me == 0) {
		int st[3] = { 0, 0, 0 };
		size_t idx = shmem_int_wait_until_any(&si[4], 3, st,
						      SHMEM_CMP_EQ, 77);
		CHECK(idx == 2 && si[6] == 77, "wait_until_any: %zu", idx);
	} else if (me == 1) {
		sleep_ms(50);
		shmem_int_p(&si[6], 77, 0);
	}
	shmem_barrier_all();
	(void)none;
}

static void
case_ptr(int right)
{
	for (int pe = 0; pe < npes; pe++) {
		long *p = shmem_ptr(gl, pe);
		CHECK(shmem_addr_accessible(gl, pe) == 1, "accessible %d", pe);
		CHECK(shmem_addr_accessible(&si[3], pe) == 1, "si %d", pe);
		if (pe == me) {
			CHECK(p == gl, "shmem_ptr self");
		} else if (!same_node(pe)) {
			CHECK(p == NULL, "shmem_ptr of another node's PE");
		} else {
			CHECK(p && p != gl, "shmem_ptr of PE %d", pe);
			long want = ((pe - 1 + npes) % npes) * 10 + 2;
			CHECK(p[2] == want, "via shmem_ptr: %ld, want %ld",
			      p[2], want);
		}
		/* neither heap nor the program's data */
		CHECK(shmem_addr_accessible(static_shlib_var, pe) == 0,
		      "a shared library's global is accessible");
		CHECK(shmem_ptr(static_shlib_var, pe) == NULL, "shlib ptr");
		long local = 0;
		CHECK(shmem_addr_accessible(&local, pe) == 0, "stack");
	}
	CHECK(shmem_ptr(gl, npes) == NULL, "shmem_ptr out of range");
	(void)right;
	shmem_barrier_all();
}

/* A fork child gets the static data as it was at fork, privately: its
 * writes reach neither its parent nor the parent's peers. */
static void
case_fork(void)
{
#if TEST_TSAN
	/* zemem's driver's fork handler takes more locks at once than
	 * ThreadSanitizer's deadlock detector can hold (64): any fork of a
	 * process with the driver loaded aborts there. */
	if (me == 0)
		printf("PE 0: fork check skipped under ThreadSanitizer (the "
		       "driver's fork handler holds > 64 locks)\n");
	return;
#endif
	forkv[1] = 100 + me;
	pid_t pid = fork();
	CHECK(pid >= 0, "fork");
	if (pid == 0) {
		int ok = forkv[0] == 11 && forkv[1] == 100 + me;
		forkv[0] = -1;
		forkv[1] = -1;
		_exit(ok ? 0 : 4);
	}
	int ws = 0;
	CHECK(waitpid(pid, &ws, 0) == pid, "waitpid");
	CHECK(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "child: 0x%x", ws);
	CHECK(forkv[0] == 11 && forkv[1] == 100 + me,
	      "the child's writes reached the parent: %ld %ld", forkv[0],
	      forkv[1]);
	shmem_barrier_all();
}

int
main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "ops";
	shmem_init();
	me = shmem_my_pe();
	npes = shmem_n_pes();
	int right = (me + 1) % npes, left = (me - 1 + npes) % npes;
	if (!strcmp(c, "shlib")) {
		int src[4] = { 1, 2, 3, 4 };
		shmem_barrier_all();
		if (me == 0)
			shmem_int_put(static_shlib_var, src, 4, right);
		shmem_barrier_all();
		fprintf(stderr, "PE %d: the put was accepted\n", me);
		shmem_finalize();
		return 0;
	}
	if (!strcmp(c, "off")) {
		/* ZESHMEM_STATIC_DATA=0: the heap alone is symmetric (the
		 * segment stays private: no peer sees it, nothing maps it) */
		long *h = shmem_malloc(sizeof(long));
		CHECK(h != NULL, "shmem_malloc");
		CHECK(!shmem_addr_accessible(&gl[0], right),
		      "static data accessible with ZESHMEM_STATIC_DATA=0");
		CHECK(shmem_ptr(&gl[0], right) == NULL,
		      "shmem_ptr of static data with ZESHMEM_STATIC_DATA=0");
		CHECK(shmem_addr_accessible(h, right) == 1, "heap refused");
		long v = me + 700;
		shmem_long_put(h, &v, 1, right);
		gl[0] = 42 + me;
		shmem_barrier_all();
		CHECK(*h == left + 700 && gl[0] == 42 + me,
		      "heap %ld, static %ld", *h, gl[0]);
		shmem_free(h);
		shmem_finalize();
		printf("PE %d: off ok (%d PEs)\n", me, npes);
		return 0;
	}
	CHECK(!strcmp(c, "ops"), "unknown case %s", c);
	if (argc > 2) {
		int want = !strcmp(argv[2], "pie") ? ET_DYN : ET_EXEC;
		CHECK(elf_type() == want, "ELF type %d, want %d (%s)",
		      elf_type(), want, argv[2]);
	}
	case_rma(right, left);
	case_amo(right, left);
	case_signal_wait(right, left);
	case_ptr(right);
	case_fork();
	shmem_finalize();
	/* the data stays the program's after finalize */
	CHECK(gl[2] == left * 10 + 2, "gl after finalize: %ld", gl[2]);
	gl[2] = 1234;
	/* a second cycle: the segment is shared again */
	shmem_init();
	long v = me + 500;
	shmem_long_put(&gl[5], &v, 1, right);
	shmem_barrier_all();
	CHECK(gl[5] == left + 500 && gl[2] == 1234, "second cycle: %ld %ld",
	      gl[5], gl[2]);
	shmem_finalize();
	printf("PE %d: ops ok (%d PEs)\n", me, npes);
	return 0;
}
