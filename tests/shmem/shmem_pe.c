// SPDX-License-Identifier: MIT
/*
 * shmem_pe: one PE of a test job of libzeshmem, written against the public
 * shmem.h only. test_shmem starts jobs of it (zeshrun -n N, mpirun -np N)
 * and checks their exit status and output.
 *
 *   shmem_pe CASE [args]
 *
 * Each case checks exact results and exits 0 with "PE <me>: CASE ok" on
 * stdout, or 3 with the failed check on stderr. The bad-input cases end in
 * libzeshmem's own one-line error (exit 1). Typed checks are generated from
 * shmem.h's type tables, as the library's routines are.
 */
#include <shmem.h>
#include <shmemx.h>

#include "shm_entries.h"
#include "leakcheck.h"

#include <signal.h>
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int me, npes;

#include "pe_check.h"

/* PEs per node as the job was started: SHMEM_PE_NODE_PES (consecutive
 * ranks per node; 1 with ZESHMEM_FORCE_NETWORK=1, where every PE is a
 * node), default every PE on one node. */
static int
node_pes(void)
{
	const char *e = getenv("SHMEM_PE_NODE_PES");
	int k = e ? atoi(e) : npes;
	return k < 1 || k > npes ? npes : k;
}

static int
same_node(int a, int b)
{
	return a / node_pes() == b / node_pes();
}

static void
sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* ---- rma: every RMA routine of every type ------------------------------ */

#define NE 16
#define VAL(T, pe, i) ((T)(((pe) * 7 + (i)) % 100))

#define RMA_CHECK(T, N, A) \
	static void \
	rma_##N(void) \
	{ \
		T *d = shmem_malloc(2 * NE * sizeof(T)); \
		uint64_t *sig = shmem_calloc(1, sizeof(uint64_t)); \
		T src[NE], got[NE]; \
		int right = (me + 1) % npes, left = (me + npes - 1) % npes; \
		CHECK(d && sig, "shmem_malloc"); \
		for (int i = 0; i < NE; i++) \
			src[i] = VAL(T, me, i); \
		memset(d, 0, 2 * NE * sizeof(T)); \
		shmem_barrier_all(); \
		shmem_##N##_put(d, src, NE, right); \
		shmem_barrier_all(); \
		for (int i = 0; i < NE; i++) \
			CHECK(d[i] == VAL(T, left, i), #N "_put [%d]", i); \
		shmem_##N##_get(got, d, NE, right); \
		for (int i = 0; i < NE; i++) \
			CHECK(got[i] == VAL(T, me, i), #N "_get [%d]", i); \
		shmem_barrier_all(); \
		shmem_##N##_p(&d[NE], (T)(me + 1), right); \
		shmem_barrier_all(); \
		CHECK(d[NE] == (T)(left + 1), #N "_p"); \
		CHECK(shmem_##N##_g(&d[NE], right) == (T)(me + 1), #N "_g"); \
		CHECK(shmem_ctx_##N##_g(SHMEM_CTX_DEFAULT, &d[NE], left) == \
		      (T)(((left + npes - 1) % npes) + 1), #N "_ctx_g"); \
		shmem_barrier_all(); \
		memset(d, 0, 2 * NE * sizeof(T)); \
		shmem_barrier_all(); \
		shmem_##N##_iput(d, src, 2, 1, NE / 2, right); \
		shmem_barrier_all(); \
		for (int i = 0; i < NE; i++) \
			CHECK(d[i] == (i % 2 ? (T)0 : VAL(T, left, i / 2)), \
			      #N "_iput [%d]", i); \
		memset(got, 0, sizeof(got)); \
		shmem_##N##_iget(got, d, 1, 2, NE / 2, right); \
		for (int i = 0; i < NE / 2; i++) \
			CHECK(got[i] == VAL(T, me, i), #N "_iget [%d]", i); \
		shmem_barrier_all(); \
		memset(d, 0, 2 * NE * sizeof(T)); \
		shmem_barrier_all(); \
		shmem_##N##_put_nbi(d, src, NE, right); \
		shmem_ctx_##N##_put_nbi(SHMEM_CTX_DEFAULT, d + NE, src, NE, \
					right); \
		shmem_quiet(); \
		shmem_barrier_all(); \
		for (int i = 0; i < NE; i++) \
			CHECK(d[i] == VAL(T, left, i) && \
			      d[NE + i] == VAL(T, left, i), #N "_put_nbi"); \
		memset(got, 0, sizeof(got)); \
		shmem_##N##_get_nbi(got, d, NE, left); \
		shmem_quiet(); \
		for (int i = 0; i < NE; i++) \
			CHECK(got[i] == VAL(T, (left + npes - 1) % npes, i), \
			      #N "_get_nbi [%d]", i); \
		shmem_barrier_all(); \
		shmem_ctx_##N##_put(SHMEM_CTX_DEFAULT, d, src, 1, right); \
		shmem_ctx_##N##_p(SHMEM_CTX_DEFAULT, d + 1, (T)3, right); \
		shmem_ctx_quiet(SHMEM_CTX_DEFAULT); \
		shmem_##N##_put_signal(d + NE, src, NE, sig, 5, \
				       SHMEM_SIGNAL_SET, right); \
		CHECK(shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 5) == 5, \
		      #N "_put_signal"); \
		for (int i = 0; i < NE; i++) \
			CHECK(d[NE + i] == VAL(T, left, i), \
			      #N "_put_signal payload [%d]", i); \
		CHECK(d[0] == VAL(T, left, 0) && d[1] == (T)3, "ctx_put/p"); \
		shmem_barrier_all(); \
		shmem_##N##_put_signal_nbi(d, src, NE, sig, 2, \
					   SHMEM_SIGNAL_ADD, right); \
		shmem_quiet(); \
		CHECK(shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 7) == 7, \
		      #N "_put_signal_nbi"); \
		CHECK(shmem_signal_fetch(sig) == 7, "signal_fetch"); \
		shmem_barrier_all(); \
		shmem_free(sig); \
		shmem_free(d); \
	}
SHMEM_RMA_TYPES(RMA_CHECK, )

/* The sized and mem forms: elements of S / 8 bytes. */
static void
rma_sized(void)
{
	enum { BYTES = NE * 16 };
	uint8_t *d = shmem_malloc(BYTES + 16);
	uint8_t src[BYTES], got[BYTES + 16];
	int right = (me + 1) % npes, left = (me + npes - 1) % npes;
	CHECK(d, "shmem_malloc");
#define SIZED_CHECK(S, A) \
	for (int i = 0; i < BYTES; i++) \
		src[i] = (uint8_t)(me * 31 + i + S); \
	memset(d, 0, BYTES); \
	shmem_barrier_all(); \
	shmem_put##S(d, src, NE, right); \
	shmem_barrier_all(); \
	for (int i = 0; i < BYTES; i++) \
		CHECK(d[i] == (i < NE * S / 8 ? \
			       (uint8_t)(left * 31 + i + S) : 0), \
		      "put" #S " [%d]", i); \
	memset(got, 0, BYTES); \
	shmem_get##S(got, d, NE, left); \
	for (int i = 0; i < NE * S / 8; i++) \
		CHECK(got[i] == (uint8_t)(((left + npes - 1) % npes) * 31 + \
					  i + S), "get" #S " [%d]", i); \
	shmem_barrier_all(); \
	memset(d, 0, BYTES); \
	shmem_barrier_all(); \
	shmem_iput##S(d, src, 2, 1, NE / 2, right); \
	shmem_put##S##_nbi(d + BYTES, src, 1, right); \
	shmem_quiet(); \
	shmem_barrier_all(); \
	for (int k = 0; k < NE / 2; k++) \
		for (int b = 0; b < S / 8; b++) \
			CHECK(d[2 * k * (S / 8) + b] == \
			      (uint8_t)(left * 31 + k * (S / 8) + b + S) && \
			      d[(2 * k + 1) * (S / 8) + b] == 0, \
			      "iput" #S); \
	memset(got, 0, BYTES); \
	shmem_iget##S(got, d, 1, 2, NE / 2, right); \
	shmem_get##S##_nbi(got + BYTES, d + BYTES, 1, right); \
	shmem_quiet(); \
	for (int k = 0; k < NE / 2 * (S / 8); k++) \
		CHECK(got[k] == (uint8_t)(me * 31 + k + S), "iget" #S); \
	for (int b = 0; b < S / 8; b++) \
		CHECK(got[BYTES + b] == (uint8_t)(me * 31 + b + S), \
		      "get" #S "_nbi"); \
	shmem_barrier_all();
	SHMEM_SIZES(SIZED_CHECK, )
	for (int i = 0; i < BYTES; i++)
		src[i] = (uint8_t)(me + i);
	shmem_putmem(d, src, BYTES, right);
	shmem_barrier_all();
	for (int i = 0; i < BYTES; i++)
		CHECK(d[i] == (uint8_t)(left + i), "putmem [%d]", i);
	shmem_getmem(got, d, BYTES, right);
	for (int i = 0; i < BYTES; i++)
		CHECK(got[i] == (uint8_t)(me + i), "getmem [%d]", i);
	shmem_barrier_all();
	shmem_putmem_nbi(d, src, 0, right); /* nelems 0: nothing */
	shmem_getmem_nbi(got, d, 3, right);
	shmem_quiet(); /* before a put into what the get reads */
	shmem_ctx_putmem(SHMEM_CTX_DEFAULT, d, src, 1, right);
	shmem_ctx_getmem(SHMEM_CTX_DEFAULT, got + 3, d + 3, 1, right);
	shmem_quiet();
	CHECK(got[0] == (uint8_t)me && got[3] == (uint8_t)(me + 3), "mem_nbi");
	shmem_barrier_all();
	shmem_free(d);
}

static void
case_rma(void)
{
#define RMA_CALL(T, N, A) rma_##N();
	SHMEM_RMA_TYPES(RMA_CALL, )
	rma_sized();
}

/* ---- amo: every atomic on every type, then concurrent totals ----------- */

#define AMO_CHECK(T, N, A) \
	static void \
	amo_##N(void) \
	{ \
		T *v = shmem_malloc(4 * sizeof(T)); \
		T f = 0; \
		int right = (me + 1) % npes; \
		CHECK(v, "shmem_malloc"); \
		v[0] = 10; \
		v[1] = 0; \
		shmem_barrier_all(); \
		CHECK(shmem_##N##_atomic_fetch_add(v, 5, right) == 10, #N); \
		shmem_##N##_atomic_add(v, 3, right); \
		CHECK(shmem_##N##_atomic_fetch_inc(v, right) == 18, #N); \
		shmem_##N##_atomic_inc(v, right); \
		CHECK(shmem_##N##_atomic_compare_swap(v, 20, 7, right) == 20, \
		      #N "_compare_swap"); \
		CHECK(shmem_##N##_atomic_compare_swap(v, 99, 1, right) == 7, \
		      #N "_compare_swap miss"); \
		shmem_##N##_atomic_fetch_add_nbi(&f, v, 2, right); \
		shmem_quiet(); \
		CHECK(f == 7, #N "_fetch_add_nbi"); \
		shmem_##N##_atomic_fetch_inc_nbi(&f, v, right); \
		shmem_quiet(); \
		CHECK(f == 9, #N "_fetch_inc_nbi"); \
		shmem_##N##_atomic_compare_swap_nbi(&f, v, 10, 11, right); \
		shmem_quiet(); \
		CHECK(f == 10, #N "_compare_swap_nbi"); \
		CHECK(shmem_ctx_##N##_atomic_fetch_add(SHMEM_CTX_DEFAULT, v, \
						       1, right) == 11, #N); \
		shmem_ctx_##N##_atomic_add(SHMEM_CTX_DEFAULT, v, 1, right); \
		shmem_ctx_##N##_atomic_inc(SHMEM_CTX_DEFAULT, v, right); \
		CHECK(shmem_ctx_##N##_atomic_fetch_inc(SHMEM_CTX_DEFAULT, v, \
						       right) == 14, #N); \
		CHECK(shmem_ctx_##N##_atomic_compare_swap(SHMEM_CTX_DEFAULT, \
							  v, 15, 40, right) \
		      == 15, #N); \
		shmem_barrier_all(); \
		CHECK(v[0] == 40, #N " final"); \
		shmem_barrier_all(); \
		shmem_free(v); \
	}
SHMEM_AMO_TYPES(AMO_CHECK, )

#define EXTAMO_CHECK(T, N, A) \
	static void \
	extamo_##N(void) \
	{ \
		T *v = shmem_malloc(sizeof(T)); \
		T f = 0; \
		int right = (me + 1) % npes; \
		CHECK(v, "shmem_malloc"); \
		*v = 0; \
		shmem_barrier_all(); \
		shmem_##N##_atomic_set(v, (T)3, right); \
		CHECK(shmem_##N##_atomic_fetch(v, right) == (T)3, #N); \
		CHECK(shmem_##N##_atomic_swap(v, (T)4, right) == (T)3, #N); \
		shmem_##N##_atomic_swap_nbi(&f, v, (T)5, right); \
		shmem_quiet(); \
		CHECK(f == (T)4, #N "_swap_nbi"); \
		shmem_##N##_atomic_fetch_nbi(&f, v, right); \
		shmem_quiet(); \
		CHECK(f == (T)5, #N "_fetch_nbi"); \
		shmem_ctx_##N##_atomic_set(SHMEM_CTX_DEFAULT, v, (T)6, right); \
		CHECK(shmem_ctx_##N##_atomic_swap(SHMEM_CTX_DEFAULT, v, (T)8, \
						  right) == (T)6, #N); \
		CHECK(shmem_ctx_##N##_atomic_fetch(SHMEM_CTX_DEFAULT, v, \
						   right) == (T)8, #N); \
		shmem_barrier_all(); \
		CHECK(*v == (T)8, #N " final"); \
		shmem_barrier_all(); \
		shmem_free(v); \
	}
SHMEM_EXTAMO_TYPES(EXTAMO_CHECK, )

#define BITAMO_CHECK(T, N, A) \
	static void \
	bitamo_##N(void) \
	{ \
		T *v = shmem_malloc(sizeof(T)); \
		T f = 0; \
		int right = (me + 1) % npes; \
		CHECK(v, "shmem_malloc"); \
		*v = 0xF0; \
		shmem_barrier_all(); \
		CHECK(shmem_##N##_atomic_fetch_and(v, 0x3C, right) == \
		      0xF0, #N); \
		CHECK(shmem_##N##_atomic_fetch_or(v, 0x01, right) == \
		      0x30, #N); \
		CHECK(shmem_##N##_atomic_fetch_xor(v, 0x11, right) == \
		      0x31, #N); \
		shmem_##N##_atomic_or(v, 0x0F, right); \
		shmem_##N##_atomic_and(v, 0x3E, right); \
		shmem_##N##_atomic_xor(v, 0x80, right); \
		shmem_##N##_atomic_fetch_and_nbi(&f, v, 0xFF, right); \
		shmem_quiet(); \
		CHECK(f == 0xAE, #N "_fetch_and_nbi %#llx", \
		      (unsigned long long)f); \
		shmem_##N##_atomic_fetch_or_nbi(&f, v, 0x100, right); \
		shmem_quiet(); \
		CHECK(f == 0xAE, #N "_fetch_or_nbi"); \
		shmem_##N##_atomic_fetch_xor_nbi(&f, v, 0x1AE, right); \
		shmem_quiet(); \
		CHECK(f == 0x1AE, #N "_fetch_xor_nbi"); \
		shmem_ctx_##N##_atomic_or(SHMEM_CTX_DEFAULT, v, 2, right); \
		shmem_ctx_##N##_atomic_xor(SHMEM_CTX_DEFAULT, v, 1, right); \
		shmem_ctx_##N##_atomic_and(SHMEM_CTX_DEFAULT, v, 3, right); \
		CHECK(shmem_ctx_##N##_atomic_fetch_or(SHMEM_CTX_DEFAULT, v, 4, \
						      right) == 3, #N); \
		shmem_barrier_all(); \
		CHECK(*v == 7, #N " final %#llx", (unsigned long long)*v); \
		shmem_barrier_all(); \
		shmem_free(v); \
	}
SHMEM_BITAMO_TYPES(BITAMO_CHECK, )

/* The 1.4 names. */
#define OLDAMO_CHECK(T, N, A) \
	static void \
	oldamo_##N(void) \
	{ \
		T *v = shmem_malloc(sizeof(T)); \
		int right = (me + 1) % npes; \
		CHECK(v, "shmem_malloc"); \
		*v = 1; \
		shmem_barrier_all(); \
		CHECK(shmem_##N##_fadd(v, 2, right) == 1, #N "_fadd"); \
		CHECK(shmem_##N##_finc(v, right) == 3, #N "_finc"); \
		shmem_##N##_inc(v, right); \
		shmem_##N##_add(v, 5, right); \
		CHECK(shmem_##N##_cswap(v, 10, 20, right) == 10, #N "_cswap"); \
		CHECK(shmem_##N##_swap(v, 21, right) == 20, #N "_swap"); \
		shmem_##N##_set(v, 22, right); \
		CHECK(shmem_##N##_fetch(v, right) == 22, #N "_fetch"); \
		shmem_barrier_all(); \
		shmem_free(v); \
	}
SHMEM_OLD_AMO_TYPES(OLDAMO_CHECK, )

/* Every PE hammers PE 0's counters and every other PE's: exact totals. */
static void
amo_concurrent(int rounds)
{
	long *c = shmem_calloc(4, sizeof(long));
	uint64_t *bits = shmem_calloc(1, sizeof(uint64_t));
	long *all = shmem_calloc((size_t)npes, sizeof(long));
	CHECK(c && bits && all, "shmem_calloc");
	shmem_barrier_all();
	long tickets = 0;
	for (int r = 0; r < rounds; r++) {
		shmem_long_atomic_inc(&c[0], 0);
		tickets += shmem_long_atomic_fetch_add(&c[1], 1, 0);
		for (;;) { /* a compare-swap increment */
			long old = shmem_long_atomic_fetch(&c[2], 0);
			if (shmem_long_atomic_compare_swap(&c[2], old, old + 1,
							   0) == old)
				break;
		}
		for (int pe = 0; pe < npes; pe++)
			shmem_long_atomic_add(&all[me], 1, pe);
	}
	shmem_uint64_atomic_or(bits, (uint64_t)1 << (me % 64), 0);
	shmem_long_atomic_add(&c[3], tickets, 0);
	shmem_barrier_all();
	long n = (long)npes * rounds;
	if (me == 0) {
		CHECK(c[0] == n, "inc total %ld of %ld", c[0], n);
		CHECK(c[1] == n, "fetch_add total %ld of %ld", c[1], n);
		CHECK(c[2] == n, "compare_swap total %ld of %ld", c[2], n);
		/* distinct tickets 0..n-1 sum to n(n-1)/2 */
		CHECK(c[3] == n * (n - 1) / 2, "tickets sum %ld", c[3]);
		uint64_t want = npes >= 64 ? ~0ull : ((1ull << npes) - 1);
		CHECK(*bits == want, "or bits %#llx",
		      (unsigned long long)*bits);
	}
	for (int pe = 0; pe < npes; pe++)
		CHECK(all[pe] == rounds, "all[%d] %ld of %d", pe, all[pe],
		      rounds);
	shmem_barrier_all();
	shmem_free(all);
	shmem_free(bits);
	shmem_free(c);
}

static void
case_amo(int rounds)
{
#define AMO_CALL(T, N, A) amo_##N();
#define EXTAMO_CALL(T, N, A) extamo_##N();
#define BITAMO_CALL(T, N, A) bitamo_##N();
#define OLDAMO_CALL(T, N, A) oldamo_##N();
	SHMEM_AMO_TYPES(AMO_CALL, )
	SHMEM_EXTAMO_TYPES(EXTAMO_CALL, )
	SHMEM_BITAMO_TYPES(BITAMO_CALL, )
	SHMEM_OLD_AMO_TYPES(OLDAMO_CALL, )
	amo_concurrent(rounds);
}

/* ---- signal: put_signal ordering --------------------------------------- */

/* A ring: every round each PE sends its right neighbour a payload whose
 * every word is the round number, with the round as the signal, and waits
 * for the left's; the receiver checks the whole payload the moment it sees
 * the signal, then acknowledges. Sizes cycle 8 B .. 256 KiB. */
static void
case_signal(int rounds)
{
	enum { MAXW = 32768 };
	uint64_t *buf = shmem_malloc(MAXW * sizeof(uint64_t));
	uint64_t *sig = shmem_calloc(2, sizeof(uint64_t));
	uint64_t *slots = shmem_calloc((size_t)npes, sizeof(uint64_t));
	uint64_t *src = malloc(MAXW * sizeof(uint64_t));
	int right = (me + 1) % npes, left = (me + npes - 1) % npes;
	static const size_t sizes[] = { 1, 7, 512, 8192, MAXW };
	CHECK(buf && sig && slots && src, "malloc");
	shmem_barrier_all();
	for (int r = 1; r <= rounds; r++) {
		size_t w = sizes[r % 5];
		if (r > 1) /* the right one checked round r-1 */
			shmem_signal_wait_until(&sig[1], SHMEM_CMP_GE,
						(uint64_t)r - 1);
		for (size_t k = 0; k < w; k++)
			src[k] = (uint64_t)r << 32 | k;
		if (r % 2)
			shmem_uint64_put_signal(buf, src, w, &sig[0],
						(uint64_t)r, SHMEM_SIGNAL_SET,
						right);
		else
			shmem_putmem_signal_nbi(buf, src, w * 8, &sig[0], 1,
						SHMEM_SIGNAL_ADD, right);
		uint64_t s = shmem_signal_wait_until(&sig[0], SHMEM_CMP_GE,
						     (uint64_t)r);
		CHECK(s == (uint64_t)r, "round %d signal %llu", r,
		      (unsigned long long)s);
		for (size_t k = 0; k < w; k++)
			CHECK(buf[k] == ((uint64_t)r << 32 | k),
			      "round %d: word %zu of %zu is %#llx with the "
			      "signal set", r, k, w,
			      (unsigned long long)buf[k]);
		shmem_quiet(); /* src may be reused */
		shmem_putmem_signal(buf, src, 0, &sig[1], (uint64_t)r,
				    SHMEM_SIGNAL_SET, left);
	}
	shmem_barrier_all();
	/* Every PE adds to PE 0's signal after its own slot's payload. */
	uint64_t mine = 0xABC0000ull + (uint64_t)me;
	shmem_uint64_put_signal(&slots[me], &mine, 1, &sig[1], 1,
				SHMEM_SIGNAL_ADD, 0);
	if (me == 0) {
		uint64_t want = (uint64_t)rounds + (uint64_t)npes;
		shmem_signal_wait_until(&sig[1], SHMEM_CMP_EQ, want);
		for (int pe = 0; pe < npes; pe++)
			CHECK(slots[pe] == 0xABC0000ull + (uint64_t)pe,
			      "slot %d", pe);
	}
	shmem_barrier_all();
	free(src);
	shmem_free(slots);
	shmem_free(sig);
	shmem_free(buf);
}

/* ---- wait: point synchronisation across PEs ---------------------------- */

static void
case_wait(void)
{
	long *ivar = shmem_calloc(1, sizeof(long));
	int *go = shmem_calloc(1, sizeof(int));
	int *iv = shmem_calloc((size_t)npes, sizeof(int));
	short *sv = shmem_calloc(1, sizeof(short));
	int last = npes - 1;
	CHECK(ivar && go && iv && sv, "shmem_calloc");
	shmem_barrier_all();
	/* one ivar, written by the last PE after PE 0 let it */
	if (me == 0) {
		CHECK(shmem_long_test(ivar, SHMEM_CMP_EQ, 42) == 0, "test 0");
		shmem_int_p(go, 1, last);
		shmem_long_wait_until(ivar, SHMEM_CMP_EQ, 42);
		CHECK(shmem_long_test(ivar, SHMEM_CMP_EQ, 42) == 1, "test 1");
		CHECK(*ivar == 42, "ivar");
	}
	if (me == last) {
		shmem_int_wait_until(go, SHMEM_CMP_EQ, 1);
		sleep_ms(20);
		shmem_long_p(ivar, 42, 0);
	}
	shmem_barrier_all();
	/* several ivars on PE 0, one per other PE; index 0 excluded */
	int *status = calloc((size_t)npes, sizeof(int));
	int *vals = calloc((size_t)npes, sizeof(int));
	size_t *idx = calloc((size_t)npes, sizeof(size_t));
	CHECK(status && vals && idx, "calloc");
	status[0] = 1;
	for (int j = 0; j < npes; j++)
		vals[j] = j;
	*go = 0;
	shmem_barrier_all();
	if (me == 0) {
		CHECK(shmem_int_test_any(iv, (size_t)npes, status,
					 SHMEM_CMP_GT, 0) == SIZE_MAX,
		      "test_any none");
		CHECK(shmem_int_test_some(iv, (size_t)npes, idx, status,
					  SHMEM_CMP_GT, 0) == 0,
		      "test_some none");
		CHECK(shmem_int_test_all(iv, (size_t)npes, status,
					 SHMEM_CMP_GT, 0) == 0,
		      "test_all none");
		for (int j = 1; j < npes; j++)
			shmem_int_p(go, 2, j);
		size_t a = shmem_int_wait_until_any(iv, (size_t)npes, status,
						    SHMEM_CMP_GT, 0);
		CHECK(a >= 1 && a < (size_t)npes && iv[a] == (int)a,
		      "wait_until_any %zu", a);
		size_t k = shmem_int_wait_until_some(iv, (size_t)npes, idx,
						     status, SHMEM_CMP_GT, 0);
		CHECK(k >= 1 && k < (size_t)npes, "wait_until_some %zu", k);
		for (size_t i = 0; i < k; i++)
			CHECK(idx[i] >= 1 && iv[idx[i]] == (int)idx[i],
			      "some idx");
		shmem_int_wait_until_all(iv, (size_t)npes, status,
					 SHMEM_CMP_GT, 0);
		for (int j = 1; j < npes; j++)
			CHECK(iv[j] == j, "wait_until_all [%d]", j);
		CHECK(shmem_int_test_all(iv, (size_t)npes, status,
					 SHMEM_CMP_GT, 0) == 1, "test_all");
		CHECK(shmem_int_test_some(iv, (size_t)npes, idx, status,
					  SHMEM_CMP_GT, 0) ==
		      (size_t)npes - 1, "test_some all");
		shmem_int_wait_until_all_vector(iv, (size_t)npes, status,
						SHMEM_CMP_EQ, vals);
		CHECK(shmem_int_wait_until_some_vector(iv, (size_t)npes, idx,
						       status, SHMEM_CMP_EQ,
						       vals) ==
		      (size_t)npes - 1, "wait_until_some_vector");
		size_t av = shmem_int_wait_until_any_vector(iv, (size_t)npes,
							    status,
							    SHMEM_CMP_LE,
							    vals);
		CHECK(av >= 1 && av < (size_t)npes,
		      "wait_until_any_vector %zu", av);
		/* OpenSHMEM 1.5: a series of _any calls eventually returns
		 * every satisfied index, not the lowest one forever. */
		int *seen = calloc((size_t)npes, sizeof(int));
		CHECK(seen, "calloc");
		for (int r = 0; r < 2 * npes; r++) {
			size_t t = shmem_int_test_any(iv, (size_t)npes, status,
						      SHMEM_CMP_GT, 0);
			size_t w = shmem_int_wait_until_any(iv, (size_t)npes,
							    status,
							    SHMEM_CMP_GT, 0);
			CHECK(t >= 1 && t < (size_t)npes && w >= 1 &&
				      w < (size_t)npes,
			      "any %zu %zu", t, w);
			seen[t] |= 1;
			seen[w] |= 2;
		}
		for (int j = 1; j < npes; j++)
			CHECK(seen[j] == 3, "_any never returned %d (%d)", j,
			      seen[j]);
		free(seen);
		CHECK(shmem_int_test_all_vector(iv, (size_t)npes, status,
						SHMEM_CMP_EQ, vals) == 1,
		      "test_all_vector");
		CHECK(shmem_int_test_any_vector(iv, (size_t)npes, status,
						SHMEM_CMP_NE, vals) ==
		      SIZE_MAX, "test_any_vector");
		CHECK(shmem_int_test_some_vector(iv, (size_t)npes, idx,
						 status, SHMEM_CMP_GE,
						 vals) == (size_t)npes - 1,
		      "test_some_vector");
		/* all excluded, or none: nothing to wait for */
		for (int j = 0; j < npes; j++)
			status[j] = 1;
		CHECK(shmem_int_wait_until_any(iv, (size_t)npes, status,
					       SHMEM_CMP_LT, 0) == SIZE_MAX,
		      "all excluded");
		shmem_int_wait_until_all(iv, 0, NULL, SHMEM_CMP_LT, 0);
		CHECK(shmem_int_wait_until_some(iv, 0, idx, NULL,
						SHMEM_CMP_LT, 0) == 0, "none");
		/* a 2-byte ivar and the 1.4 long forms */
		shmem_short_wait_until(sv, SHMEM_CMP_EQ, 7);
		shmem_wait_until(ivar, SHMEM_CMP_EQ, 43);
		shmem_long_wait(ivar, 42);
		CHECK(*sv == 7 && *ivar == 43, "short / long");
	} else {
		shmem_int_wait_until(go, SHMEM_CMP_EQ, 2);
		sleep_ms(5 * me);
		shmem_int_p(&iv[me], me, 0);
		if (me == last) {
			sleep_ms(10);
			shmem_short_p(sv, 7, 0);
			shmem_long_p(ivar, 43, 0);
		}
	}
	shmem_barrier_all();
	free(idx);
	free(vals);
	free(status);
	shmem_free(sv);
	shmem_free(iv);
	shmem_free(go);
	shmem_free(ivar);
}

/* ---- teams: the specification's examples ------------------------------- */

static void
case_teams(void)
{
	/* split_strided: the even PEs of the world */
	shmem_team_t even = SHMEM_TEAM_INVALID;
	int ne = (npes + 1) / 2;
	CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, ne, NULL, 0,
				       &even) == 0, "split_strided");
	if (me % 2 == 0) {
		CHECK(even != SHMEM_TEAM_INVALID, "even team");
		CHECK(shmem_team_my_pe(even) == me / 2, "even my_pe");
		CHECK(shmem_team_n_pes(even) == ne, "even n_pes");
		for (int i = 0; i < ne; i++)
			CHECK(shmem_team_translate_pe(even, i,
						      SHMEM_TEAM_WORLD) ==
			      2 * i,
			      "translate %d", i);
		CHECK(shmem_team_translate_pe(even, ne, SHMEM_TEAM_WORLD) ==
		      -1, "translate out of range");
		CHECK(shmem_team_sync(even) == 0, "team_sync");
		shmem_team_config_t cfg = { .num_contexts = -5 };
		CHECK(shmem_team_get_config(even, SHMEM_TEAM_NUM_CONTEXTS,
					    &cfg) == 0 &&
		      cfg.num_contexts == 0, "get_config");
	} else {
		CHECK(even == SHMEM_TEAM_INVALID, "odd PE outside");
		CHECK(shmem_team_my_pe(even) == -1, "invalid my_pe");
		CHECK(shmem_team_n_pes(even) == -1, "invalid n_pes");
	}
	/* translate the world's PE into the even team: odd ones are -1 */
	if (even != SHMEM_TEAM_INVALID)
		for (int pe = 0; pe < npes; pe++)
			CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe,
						      even) ==
			      (pe % 2 ? -1 : pe / 2), "translate world %d", pe);
	/* SHMEM_TEAM_SHARED: this PE's node (node_pes() consecutive PEs,
	 * the last node may have fewer) */
	int np = node_pes(), first = me / np * np;
	int nshared = npes - first < np ? npes - first : np;
	CHECK(shmem_team_n_pes(SHMEM_TEAM_SHARED) == nshared,
	      "shared n_pes %d, want %d", shmem_team_n_pes(SHMEM_TEAM_SHARED),
	      nshared);
	CHECK(shmem_team_my_pe(SHMEM_TEAM_SHARED) == me - first,
	      "shared my_pe");
	CHECK(shmem_team_my_pe(SHMEM_TEAM_WORLD) == me, "world my_pe");
	/* team_ptr through the shared team */
	long *sym = shmem_malloc(sizeof(long));
	CHECK(sym, "malloc");
	*sym = 100 + me;
	shmem_barrier_all();
	int snext = (me - first + 1) % nshared;
	long *rp = shmem_team_ptr(SHMEM_TEAM_SHARED, sym, snext);
	CHECK(rp && *rp == 100 + first + snext, "team_ptr");
	shmem_barrier_all();
	shmem_free(sym);

	/* split_2d: a grid of rows of xrange = 2 */
	int xr = 2;
	shmem_team_t xt = SHMEM_TEAM_INVALID, yt = SHMEM_TEAM_INVALID;
	shmem_team_config_t xc = { 0 }, yc = { 0 };
	CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, xr, &xc, 0, &xt, &yc, 0,
				  &yt) == 0, "split_2d");
	int rows = (npes + xr - 1) / xr;
	int row = me / xr, col = me % xr;
	int row_len = row == rows - 1 ? npes - row * xr : xr;
	int col_len = rows - (col >= npes - (rows - 1) * xr ? 1 : 0);
	CHECK(xt != SHMEM_TEAM_INVALID && yt != SHMEM_TEAM_INVALID, "2d");
	CHECK(shmem_team_my_pe(xt) == col, "x my_pe %d", shmem_team_my_pe(xt));
	CHECK(shmem_team_n_pes(xt) == row_len, "x n_pes %d of %d",
	      shmem_team_n_pes(xt), row_len);
	CHECK(shmem_team_my_pe(yt) == row, "y my_pe");
	CHECK(shmem_team_n_pes(yt) == col_len, "y n_pes %d of %d",
	      shmem_team_n_pes(yt), col_len);
	CHECK(shmem_team_translate_pe(xt, 0, SHMEM_TEAM_WORLD) == row * xr,
	      "x translate");
	CHECK(shmem_team_translate_pe(yt, 0, SHMEM_TEAM_WORLD) == col,
	      "y translate");
	CHECK(shmem_team_translate_pe(xt, col, yt) == row,
	      "x to y translate");
	CHECK(shmem_team_sync(xt) == 0 && shmem_team_sync(yt) == 0, "syncs");
	/* nested: split the row team again */
	shmem_team_t sub = SHMEM_TEAM_INVALID;
	CHECK(shmem_team_split_strided(xt, 0, 1, 1, NULL, 0, &sub) == 0,
	      "nested split");
	CHECK((col == 0) == (sub != SHMEM_TEAM_INVALID), "nested member");
	if (sub != SHMEM_TEAM_INVALID) {
		CHECK(shmem_team_n_pes(sub) == 1, "nested n_pes");
		CHECK(shmem_team_translate_pe(sub, 0, SHMEM_TEAM_WORLD) ==
		      row * xr, "nested translate");
	}
	shmem_team_destroy(sub);
	shmem_team_destroy(yt);
	shmem_team_destroy(xt);
	shmem_team_destroy(even);
	shmem_team_destroy(SHMEM_TEAM_INVALID);
	/* bad splits: a result, not an end */
	shmem_team_t bad = (shmem_team_t)&bad;
	CHECK(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0,
				       &bad) != 0 &&
	      bad == SHMEM_TEAM_INVALID, "invalid parent");
	CHECK(shmem_team_sync(SHMEM_TEAM_INVALID) != 0, "invalid sync");
	CHECK(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0,
				      SHMEM_TEAM_WORLD) == -1, "translate");
	shmem_ctx_t c = SHMEM_CTX_DEFAULT;
	shmem_team_t ct = SHMEM_TEAM_INVALID;
	CHECK(shmem_ctx_get_team(c, &ct) == 0 && ct == SHMEM_TEAM_WORLD,
	      "ctx_get_team");
	shmem_barrier_all();
}

/* ---- deadteam: destroyed and forged team handles get the error result -- */

/* Every team routine with a result, on handle t that is not a team. */
static void
check_not_team(shmem_team_t t, const char *what)
{
	long *sym = shmem_malloc(4 * sizeof(long));
	CHECK(sym, "malloc");
	CHECK(shmem_team_my_pe(t) == -1, "%s my_pe %d", what,
	      shmem_team_my_pe(t));
	CHECK(shmem_team_n_pes(t) == -1, "%s n_pes %d", what,
	      shmem_team_n_pes(t));
	CHECK(shmem_team_sync(t) == -1, "%s sync", what);
	CHECK(shmem_team_translate_pe(t, 0, SHMEM_TEAM_WORLD) == -1 &&
	      shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, t) == -1,
	      "%s translate", what);
	shmem_team_config_t cfg = { .num_contexts = 7 };
	CHECK(shmem_team_get_config(t, SHMEM_TEAM_NUM_CONTEXTS, &cfg) == -1 &&
	      cfg.num_contexts == 7, "%s get_config", what);
	shmem_team_t nt = SHMEM_TEAM_WORLD;
	CHECK(shmem_team_split_strided(t, 0, 1, 1, NULL, 0, &nt) != 0 &&
	      nt == SHMEM_TEAM_INVALID, "%s split_strided", what);
	shmem_team_t x = SHMEM_TEAM_WORLD, y = SHMEM_TEAM_WORLD;
	CHECK(shmem_team_split_2d(t, 1, NULL, 0, &x, NULL, 0, &y) != 0 &&
	      x == SHMEM_TEAM_INVALID && y == SHMEM_TEAM_INVALID,
	      "%s split_2d", what);
	shmem_ctx_t c = SHMEM_CTX_DEFAULT;
	CHECK(shmem_team_create_ctx(t, 0, &c) != 0 && c == SHMEM_CTX_INVALID,
	      "%s create_ctx", what);
	CHECK(shmem_team_ptr(t, sym, 0) == NULL, "%s team_ptr", what);
	CHECK(shmem_long_broadcast(t, sym, sym + 2, 1, 0) == -1 &&
	      shmem_long_sum_reduce(t, sym, sym + 2, 1) == -1 &&
	      shmem_long_fcollect(t, sym, sym + 2, 1) == -1,
	      "%s collectives", what);
	shmem_free(sym);
}

static void
case_deadteam(void)
{
	shmem_team_t t = SHMEM_TEAM_INVALID;
	CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0,
				       &t) == 0 && t != SHMEM_TEAM_INVALID,
	      "split");
	CHECK(shmem_team_n_pes(t) == npes, "n_pes");
	/* a context of the team is destroyed with it (1.5: its shareable
	 * contexts) */
	shmem_ctx_t c = SHMEM_CTX_INVALID;
	CHECK(shmem_team_create_ctx(t, 0, &c) == 0 && c != SHMEM_CTX_INVALID,
	      "create_ctx");
	shmem_team_t ct = SHMEM_TEAM_INVALID;
	CHECK(shmem_ctx_get_team(c, &ct) == 0 && ct == t, "ctx_get_team");
	shmem_team_sync(t);
	shmem_team_destroy(t);
	CHECK(shmem_ctx_get_team(c, &ct) == -1 && ct == SHMEM_TEAM_INVALID,
	      "the team's context went with it");
	check_not_team(t, "destroyed");
	/* a new team may get the same memory: the old handle then names
	 * it, as a freed pointer would (not detectable); so no split here */
	long junk[16];
	memset(junk, 0x41, sizeof(junk));
	check_not_team((shmem_team_t)junk, "forged");
	/* destroying SHMEM_TEAM_INVALID does nothing (1.5) */
	shmem_team_destroy(SHMEM_TEAM_INVALID);
	/* the world still works */
	CHECK(shmem_team_n_pes(SHMEM_TEAM_WORLD) == npes &&
	      shmem_team_sync(SHMEM_TEAM_WORLD) == 0, "world");
	shmem_barrier_all();
}

/* ---- mem: the collective allocation routines --------------------------- */

static void
case_mem(void)
{
	long *offs = shmem_calloc((size_t)npes, sizeof(long));
	CHECK(offs, "calloc");
	char *base = shmemx_heap_base();
	CHECK(base && shmemx_heap_size() > 0, "heap base");
	void *p[6];
	p[0] = shmem_malloc(100);
	p[1] = shmem_align(4096, 10);
	p[2] = shmem_calloc(10, 8);
	p[3] = shmem_malloc_with_hints(64, SHMEM_MALLOC_ATOMICS_REMOTE);
	p[4] = shmalloc(8);
	p[5] = shmemalign(256, 8);
	for (int i = 0; i < 6; i++)
		CHECK(p[i] && (size_t)((char *)p[i] - base) <
		      shmemx_heap_size(), "alloc %d", i);
	CHECK(((uintptr_t)p[1] & 4095) == 0, "align 4096");
	CHECK(((uintptr_t)p[5] & 255) == 0, "shmemalign 256");
	for (int i = 0; i < 10; i++)
		CHECK(((long *)p[2])[i] == 0, "calloc zeroed");
	/* symmetric: every PE got the same offsets */
	long sum = 0;
	for (int i = 0; i < 6; i++)
		sum = sum * 31 + ((char *)p[i] - base);
	for (int pe = 0; pe < npes; pe++)
		shmem_long_p(&offs[me], sum, pe);
	shmem_barrier_all();
	for (int pe = 0; pe < npes; pe++)
		CHECK(offs[pe] == sum, "offsets of PE %d differ", pe);
	/* realloc keeps the contents */
	memset(p[0], 0x5a, 100);
	char *q = shmem_realloc(p[0], 100000);
	CHECK(q, "realloc");
	for (int i = 0; i < 100; i++)
		CHECK(q[i] == 0x5a, "realloc contents");
	q = shrealloc(q, 50);
	CHECK(q && q[49] == 0x5a, "shrealloc");
	/* invalid: NULL, collectively */
	CHECK(shmem_malloc(0) == NULL, "malloc 0");
	CHECK(shmem_align(3, 8) == NULL, "align 3");
	CHECK(shmem_align(0, 8) == NULL, "align 0");
	/* 1, 2 and 4: rounded up (as other implementations), symmetric */
	for (size_t a = 1; a <= 4; a <<= 1) {
		long *s = shmem_align(a, 8);
		CHECK(s && (uintptr_t)s % sizeof(void *) == 0, "align %zu",
		      a);
		shmem_long_p(s, me, (me + 1) % npes);
		shmem_barrier_all();
		CHECK(*s == (me + npes - 1) % npes, "align %zu: put", a);
		shmem_free(s);
	}
	CHECK(shmem_calloc(SIZE_MAX / 2, 4) == NULL, "calloc overflow");
	CHECK(shmem_calloc(0, 4) == NULL, "calloc 0");
	shmem_free(NULL);
	/* growth: more than the initial heap (the test sets 8M) */
	size_t big = shmemx_heap_size() + (4u << 20);
	char *g = shmem_malloc(big);
	CHECK(g, "growth to %zu", big);
	g[big - 1] = (char)me;
	shmem_barrier_all();
	char c = 0;
	shmem_getmem(&c, g + big - 1, 1, (me + 1) % npes);
	CHECK(c == (char)((me + 1) % npes), "read the grown chunk");
	shmem_barrier_all();
	shmem_free(g);
	shmem_free(q);
	shfree(p[5]);
	for (int i = 1; i < 5; i++)
		shmem_free(p[i]);
	/* freed space is reused: the same request gets the same offset */
	void *a = shmem_malloc(100);
	shmem_free(a);
	void *b = shmem_malloc(100);
	CHECK(a == b, "reuse");
	shmem_free(b);
	shmem_free(offs);
}

/* ---- ptr, info, threads ------------------------------------------------ */

static void
case_ptr(void)
{
	int *x = shmem_malloc(sizeof(int));
	int stack = 0;
	int right = (me + 1) % npes;
	CHECK(x, "malloc");
	*x = me;
	shmem_barrier_all();
	int *rp = shmem_ptr(x, right);
	if (!same_node(me, right)) {
		/* another node: no pointer; put/get reach it */
		CHECK(rp == NULL, "shmem_ptr of another node's PE");
		int v = 0;
		shmem_int_get(&v, x, 1, right);
		CHECK(v == right, "get from another node");
	} else {
		CHECK(rp && *rp == right, "shmem_ptr");
	}
	CHECK(shmem_ptr(x, me) == x, "shmem_ptr self");
	CHECK(shmem_ptr(x, npes) == NULL && shmem_ptr(x, -1) == NULL,
	      "shmem_ptr out of range");
	CHECK(shmem_ptr(&stack, right) == NULL, "shmem_ptr of the stack");
	CHECK(shmem_addr_accessible(x, right) == 1, "addr_accessible");
	CHECK(shmem_addr_accessible(&stack, right) == 0, "stack inaccessible");
	/* the heap's first bytes are the runtime's control block */
	CHECK(shmem_addr_accessible(shmemx_heap_base(), right) == 0 &&
	      shmem_ptr(shmemx_heap_base(), right) == NULL,
	      "control block inaccessible");
	CHECK(shmem_pe_accessible(right) == 1 && shmem_pe_accessible(npes) == 0
	      && shmem_pe_accessible(-1) == 0, "pe_accessible");
	shmem_barrier_all();
	if (!rp)
		shmem_int_p(x, 1000 + me, right);
	else
		*rp = 1000 + me; /* a store through the pointer */
	shmem_barrier_all();
	CHECK(*x == 1000 + (me + npes - 1) % npes, "store through shmem_ptr");
	int major = 0, minor = 0;
	char name[SHMEM_MAX_NAME_LEN];
	shmem_info_get_version(&major, &minor);
	shmem_info_get_name(name);
	CHECK(major == 1 && minor == 5, "version %d.%d", major, minor);
	CHECK(!strcmp(name, SHMEM_VENDOR_STRING), "name %s", name);
	int prov = -1;
	shmem_query_thread(&prov);
	CHECK(prov >= SHMEM_THREAD_SINGLE && prov <= SHMEM_THREAD_MULTIPLE,
	      "query_thread %d", prov);
	/* contexts: shmem_ctx_pe ctx has the cases */
	shmem_ctx_t ctx = SHMEM_CTX_INVALID;
	CHECK(shmem_ctx_create(0, &ctx) == 0 && ctx != SHMEM_CTX_INVALID,
	      "ctx_create");
	shmem_ctx_destroy(ctx);
	shmem_ctx_destroy(SHMEM_CTX_INVALID);
	shmem_fence();
	shmem_ctx_fence(SHMEM_CTX_DEFAULT);
	shmem_sync_all();
	shmem_barrier_all();
	shmem_free(x);
}

/* ---- nodekill: the last node's PEs die mid-job -------------------------- */

/* The PEs of the last node (node_pes() consecutive ranks) SIGKILL
 * themselves after a barrier; the others then put to one of them and
 * enter a barrier, which must not pass (the job ends non-zero). */
static void
case_nodekill(void)
{
	int np = node_pes(), first_dead = (npes - 1) / np * np;
	long *x = shmem_malloc(sizeof(long));
	CHECK(x && first_dead > 0, "malloc, or a single node");
	shmem_barrier_all();
	if (me >= first_dead)
		raise(SIGKILL);
	sleep_ms(200);
	shmem_long_p(x, 1, first_dead);
	shmem_quiet();
	shmem_barrier_all();
	CHECK(0, "barrier passed with PEs %d.. dead", first_dead);
}

/* The last node's PEs die while the others already wait in a barrier
 * for them (the wait, not an operation, must notice). */
static void
case_nodekill_wait(void)
{
	int np = node_pes(), first_dead = (npes - 1) / np * np;
	CHECK(first_dead > 0, "a single node");
	shmem_barrier_all();
	if (me >= first_dead) {
		sleep_ms(100);
		raise(SIGKILL);
	}
	shmem_barrier_all();
	CHECK(0, "barrier passed with PEs %d.. dead", first_dead);
}

/* ---- exposed: a stranger tries the heap (tests/shmem/ofi_stranger.c) --- */

#define EXPOSED_BYTES (4u << 20)

static unsigned char
exposed_byte(size_t i)
{
	return (unsigned char)((i * 7 + (size_t)me * 13 + 1) & 0xff);
}

/* Fills EXPOSED_BYTES of the heap with a pattern, writes DIR/ready.<me>
 * with its pid, then waits (300 s at most) for DIR/done while the
 * progress thread serves whatever reaches the endpoint; then the
 * pattern must be intact and a put between PEs must still work. */
static void
case_exposed(const char *dir)
{
	unsigned char *b = shmem_malloc(EXPOSED_BYTES);
	long *x = shmem_calloc(1, sizeof(long));
	char path[512];
	CHECK(b && x && dir, "malloc, or no DIR");
	for (size_t i = 0; i < EXPOSED_BYTES; i++)
		b[i] = exposed_byte(i);
	shmem_barrier_all();
	snprintf(path, sizeof(path), "%s/ready.%d", dir, me);
	FILE *f = fopen(path, "w");
	CHECK(f && fprintf(f, "%d\n", (int)getpid()) > 0 && !fclose(f),
	      "write %s", path);
	snprintf(path, sizeof(path), "%s/done", dir);
	for (int i = 0; i < 30000 && access(path, F_OK); i++)
		sleep_ms(10);
	CHECK(!access(path, F_OK), "no %s in 300 s", path);
	shmem_barrier_all();
	size_t bad = 0;
	for (size_t i = 0; i < EXPOSED_BYTES; i++)
		bad += b[i] != exposed_byte(i);
	CHECK(!bad, "%zu bytes of the heap changed", bad);
	shmem_long_p(x, 100 + me, (me + 1) % npes);
	shmem_barrier_all();
	CHECK(*x == 100 + (me + npes - 1) % npes, "put after: %ld", *x);
	shmem_free(x);
	shmem_free(b);
}

/* ---- sigterm: the runtime's SIGTERM catch (sh_ofi_term.c) ------------------ */

static void
own_term(int sig)
{
	(void)sig;
}

static void (*term_handler(void))(int)
{
	struct sigaction cur;
	if (sigaction(SIGTERM, NULL, &cur))
		return SIG_ERR;
	return cur.sa_handler;
}

/* With the network transport up (ZESHMEM_FORCE_NETWORK=1): SIGTERM at
 * its default is caught during the job and given back at finalize; a
 * handler of the program's, set before init or during the job, is left
 * alone. */
static void
case_sigterm(void)
{
	shmem_init();
	me = shmem_my_pe();
	npes = shmem_n_pes();
	CHECK(term_handler() != SIG_DFL && term_handler() != SIG_ERR,
	      "SIGTERM caught while the network transport is up");
	shmem_barrier_all();
	shmem_finalize();
	CHECK(term_handler() == SIG_DFL, "SIGTERM default after finalize");
	signal(SIGTERM, own_term);
	shmem_init();
	CHECK(term_handler() == own_term, "the program's handler kept");
	shmem_barrier_all();
	shmem_finalize();
	CHECK(term_handler() == own_term, "the program's handler after");
	signal(SIGTERM, SIG_DFL);
	shmem_init();
	signal(SIGTERM, own_term); /* set during the job */
	shmem_barrier_all();
	shmem_finalize();
	CHECK(term_handler() == own_term, "a handler set during the job");
	signal(SIGTERM, SIG_DFL);
}

/* ---- init/finalize cycles: no fd or mapping left ----------------------- */

static void
case_cycles(int cycles)
{
	int fds = -1, maps = -1, shm = -1, thr = -1;
	/* One malloc arena (as leakcheck_begin): whether a driver thread
	 * mallocs at all in a cycle (and so maps an arena of its own) hangs
	 * on timing, so a later cycle could map 2 more than the first. */
	mallopt(M_ARENA_MAX, 1);
	for (int c = 0; c < cycles; c++) {
		shmem_init();
		me = shmem_my_pe();
		npes = shmem_n_pes();
		long *x = shmem_malloc(sizeof(long));
		CHECK(x, "malloc in cycle %d", c);
		*x = 0;
		shmem_barrier_all();
		shmem_long_atomic_inc(x, (me + 1) % npes);
		shmem_barrier_all();
		CHECK(*x == 1, "cycle %d", c);
		shmem_free(x);
		shmem_finalize();
		CHECK(shmem_my_pe() == -1 && SHMEM_TEAM_WORLD ==
		      SHMEM_TEAM_INVALID, "after finalize");
		/* The first cycle loads the driver (and its threads' arenas);
		 * the next ones must leave exactly what it left. leakcheck
		 * counts what zemem maps (under a sanitizer: shared memory
		 * only, the sanitizer's runtime maps as it pleases). */
		int f = leakcheck_count_fds();
		int m = leakcheck_count_maps(NULL);
		int s = shm_entries_ours();
		int t = leakcheck_count_threads(c ? thr : -1);
		if (c == 0) {
			fds = f;
			maps = m;
			shm = s;
			thr = t;
		}
		CHECK(t == thr, "cycle %d: %d threads, %d after the first", c,
		      t, thr);
		CHECK(f == fds, "cycle %d: %d fds, %d after the first", c, f,
		      fds);
		CHECK(m == maps, "cycle %d: %d mappings, %d after the first",
		      c, m, maps);
		CHECK(s == shm, "cycle %d: %d zemem entries in /dev/shm, %d "
		      "after the first", c, s, shm);
	}
}

/* ---- global_exit and the bad-input ends -------------------------------- */

static void
case_global_exit(int status)
{
	long *never = shmem_calloc(1, sizeof(long));
	shmem_barrier_all();
	if (me == npes - 1) {
		sleep_ms(20);
		shmem_global_exit(status);
	}
	/* the others wait for ever: global_exit ends them */
	shmem_long_wait_until(never, SHMEM_CMP_EQ, 1);
	CHECK(0, "woke up");
}

static void
case_bad(const char *what)
{
	long *x = shmem_calloc(4, sizeof(long));
	long stack[4] = { 0 };
	/* teamdestroy: a team every PE made and destroyed */
	shmem_team_t dead = SHMEM_TEAM_INVALID;
	if (!strcmp(what, "teamdestroy")) {
		CHECK(!shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes,
						NULL, 0, &dead), "split");
		shmem_team_destroy(dead);
	}
	shmem_barrier_all();
	if (me == 0) {
		if (!strcmp(what, "pe"))
			shmem_long_p(x, 1, npes);
		else if (!strcmp(what, "negpe"))
			shmem_long_put(x, stack, 1, -1);
		else if (!strcmp(what, "addr"))
			shmem_long_put(stack, x, 4, npes - 1);
		else if (!strcmp(what, "getaddr"))
			shmem_long_get(stack, stack, 4, npes - 1);
		else if (!strcmp(what, "range"))
			shmem_long_put(x, stack, SIZE_MAX / 4, npes - 1);
		else if (!strcmp(what, "align"))
			shmem_long_atomic_add((long *)((char *)x + 4), 1,
					      npes - 1);
		else if (!strcmp(what, "amonull"))
			shmem_long_atomic_add(NULL, 1, npes - 1);
		else if (!strcmp(what, "ctrl"))
			shmem_long_put(shmemx_heap_base(), stack, 1, npes - 1);
		else if (!strcmp(what, "null"))
			shmem_long_put(x, NULL, 1, npes - 1);
		else if (!strcmp(what, "ctx"))
			shmem_ctx_long_put(SHMEM_CTX_INVALID, x, stack, 1, 0);
		else if (!strcmp(what, "cmp"))
			shmem_long_wait_until(x, 99, 0);
		else if (!strcmp(what, "waitaddr"))
			shmem_long_wait_until(&stack[1], SHMEM_CMP_EQ, 1);
		else if (!strcmp(what, "testaddr"))
			shmem_long_test(&stack[1], SHMEM_CMP_EQ, 1);
		else if (!strcmp(what, "waitalladdr"))
			shmem_long_wait_until_all(stack, 4, NULL,
						  SHMEM_CMP_EQ, 1);
		else if (!strcmp(what, "sigwaitaddr"))
			shmem_signal_wait_until((uint64_t *)&stack[2],
						SHMEM_CMP_EQ, 1);
		else if (!strcmp(what, "mallocwait")) {
			long *m = malloc(sizeof(long));
			CHECK(m, "malloc");
			*m = 0;
			shmem_long_wait_until(m, SHMEM_CMP_EQ, 1);
		} else if (!strcmp(what, "teamdestroy")) {
			shmem_team_destroy(dead);
		} else if (!strcmp(what, "sigop"))
			shmem_long_put_signal(x, stack, 1, (uint64_t *)&x[2],
					      1, 5, npes - 1);
		else if (!strcmp(what, "noinit")) {
			shmem_finalize();
			shmem_long_p(x, 1, 0);
		}
		CHECK(0, "bad input %s was accepted", what);
	}
	shmem_long_wait_until(&x[3], SHMEM_CMP_EQ, 1); /* ended by PE 0 */
	CHECK(0, "woke up");
}

/* ---- uid: shmemx_get_uniqueid + shmemx_init_attr, PEs started here ----- */

static void
uid_ring(void)
{
	int *x = shmem_calloc(1, sizeof(int));
	CHECK(x, "calloc");
	shmem_int_p(x, me + 1, (me + 1) % npes);
	shmem_barrier_all();
	CHECK(*x == (me + npes - 1) % npes + 1, "uid ring");
	shmem_free(x);
}

/* kill: the last PE dies (SIGKILL) after the ring, the others' next
 * barrier must end them with the line naming it. killwait: the others
 * wait_until a word only the dead PE would set; killget: they get from
 * it (200 ms after its death), until it fails. */
enum { UID_KILL = 1, UID_KILLWAIT, UID_KILLGET };

static int
uid_kill_mode(const char *s)
{
	if (!s)
		return 0;
	return !strcmp(s, "kill") ? UID_KILL : !strcmp(s, "killwait")
		? UID_KILLWAIT : !strcmp(s, "killget") ? UID_KILLGET : 0;
}

static void
uid_kill(int kill)
{
	if (!kill)
		return;
	long *w = shmem_calloc(1, sizeof(long));
	CHECK(w, "calloc");
	shmem_barrier_all();
	if (me == npes - 1)
		raise(SIGKILL);
	if (kill == UID_KILLWAIT) {
		shmem_long_wait_until(w, SHMEM_CMP_NE, 0);
		CHECK(0, "wait_until passed with PE %d dead", npes - 1);
	}
	if (kill == UID_KILLGET) {
		sleep_ms(200);
		for (;;)
			(void)shmem_long_g(w, npes - 1);
	}
	shmem_barrier_all();
	CHECK(0, "barrier passed with PE %d dead", npes - 1);
}

static int
case_uid(const char *self, int n, int kill)
{
	shmemx_uniqueid_t uid = SHMEMX_UNIQUEID_INITIALIZER;
	char hex[2 * SHMEMX_UNIQUEID_BYTES + 1];
	pid_t kids[64];
	CHECK(n >= 1 && n <= 64, "n");
	CHECK(shmemx_get_uniqueid(&uid) == 0, "get_uniqueid");
	for (int i = 0; i < SHMEMX_UNIQUEID_BYTES; i++)
		snprintf(hex + 2 * i, 3, "%02x", uid.internal[i]);
	for (int r = 1; r < n; r++) {
		char rank[16], nr[16];
		snprintf(rank, sizeof(rank), "%d", r);
		snprintf(nr, sizeof(nr), "%d", n);
		kids[r] = fork();
		CHECK(kids[r] >= 0, "fork");
		if (kids[r] == 0) {
			static const char *const kn[] = { NULL, "kill",
							  "killwait",
							  "killget" };
			execl(self, self, "uid-child", rank, nr, hex, kn[kill],
			      (char *)NULL);
			_exit(127);
		}
	}
	CHECK(shmemx_init_attr(0, n, &uid) == 0, "init_attr root");
	me = shmem_my_pe();
	npes = shmem_n_pes();
	CHECK(me == 0 && npes == n, "rank %d of %d", me, npes);
	uid_ring();
	uid_kill(kill);
	shmem_finalize();
	int bad = 0;
	for (int r = 1; r < n; r++) {
		int ws;
		CHECK(waitpid(kids[r], &ws, 0) == kids[r], "waitpid");
		bad |= !WIFEXITED(ws) || WEXITSTATUS(ws) != 0;
	}
	CHECK(!bad, "a child failed");
	return 0;
}

static void
case_uid_child(int rank, int n, const char *hex, int kill)
{
	shmemx_uniqueid_t uid;
	CHECK(strlen(hex) == 2 * SHMEMX_UNIQUEID_BYTES, "hex");
	for (int i = 0; i < SHMEMX_UNIQUEID_BYTES; i++) {
		unsigned v;
		CHECK(sscanf(hex + 2 * i, "%2x", &v) == 1, "hex");
		uid.internal[i] = (unsigned char)v;
	}
	CHECK(shmemx_init_attr(rank, n, &uid) == 0, "init_attr %d", rank);
	me = shmem_my_pe();
	npes = shmem_n_pes();
	CHECK(me == rank && npes == n, "rank");
	uid_ring();
	uid_kill(kill);
	shmem_finalize();
}

/* stranger_grow (test_boot "grow"): PE 0 writes the job's id to
 * $BOOT_DIR/uid; every PE waits (60 s at most) for $BOOT_DIR/go, made once
 * strangers hold connections to the bootstrap port, then grows the heap
 * (an allgather through the bootstrap) and checks the new chunk. */
static void
case_stranger_grow(void)
{
	const char *dir = getenv("BOOT_DIR");
	const char *hex = getenv("ZESHMEM_UNIQUEID");
	char path[4096], tmp[4096];

	CHECK(dir && hex, "BOOT_DIR and ZESHMEM_UNIQUEID");
	if (me == 0) {
		snprintf(tmp, sizeof(tmp), "%s/uid.tmp", dir);
		snprintf(path, sizeof(path), "%s/uid", dir);
		FILE *f = fopen(tmp, "w");
		CHECK(f && fputs(hex, f) >= 0 && fclose(f) == 0, "write id");
		CHECK(rename(tmp, path) == 0, "rename id");
	}
	snprintf(path, sizeof(path), "%s/go", dir);
	int i;
	for (i = 0; i < 6000 && access(path, F_OK); i++)
		sleep_ms(10);
	CHECK(i < 6000, "no %s", path);
	size_t big = shmemx_heap_size() + (4u << 20);
	char *g = shmem_malloc(big);
	CHECK(g, "growth to %zu", big);
	g[big - 1] = (char)me;
	shmem_barrier_all();
	char v = 0;
	shmem_getmem(&v, g + big - 1, 1, (me + 1) % npes);
	CHECK(v == (char)((me + 1) % npes), "read the grown chunk");
	shmem_barrier_all();
	shmem_free(g);
}

int
main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";
	int arg = argc > 2 ? atoi(argv[2]) : 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(c, "cycles")) {
		case_cycles(arg ? arg : 4);
		printf("PE %d: cycles ok\n", me);
		return 0;
	}
	if (!strcmp(c, "sigterm")) {
		case_sigterm();
		printf("PE %d: sigterm ok\n", me);
		return 0;
	}
	if (!strcmp(c, "uid")) {
		case_uid(argv[0], arg ? arg : 3,
			 uid_kill_mode(argc > 3 ? argv[3] : NULL));
		printf("PE 0: uid ok\n");
		return 0;
	}
	if (!strcmp(c, "uid-child") && argc > 4) {
		case_uid_child(atoi(argv[2]), atoi(argv[3]), argv[4],
			       uid_kill_mode(argc > 5 ? argv[5] : NULL));
		return 0;
	}
	CHECK(shmem_my_pe() == -1 && shmem_n_pes() == -1, "before init");
	if (!strcmp(c, "thread")) {
		int prov = -1;
		CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &prov) == 0,
		      "init_thread");
		CHECK(prov == SHMEM_THREAD_MULTIPLE, "provided %d", prov);
		CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE + 1, &prov) != 0,
		      "bad level");
	} else {
		shmem_init();
	}
	me = shmem_my_pe();
	npes = shmem_n_pes();
	if (!strcmp(c, "hello") || !strcmp(c, "thread"))
		;
	else if (!strcmp(c, "rma"))
		case_rma();
	else if (!strcmp(c, "amo"))
		case_amo(arg ? arg : 200);
	else if (!strcmp(c, "signal"))
		case_signal(arg ? arg : 200);
	else if (!strcmp(c, "wait"))
		case_wait();
	else if (!strcmp(c, "teams"))
		case_teams();
	else if (!strcmp(c, "deadteam"))
		case_deadteam();
	else if (!strcmp(c, "mem"))
		case_mem();
	else if (!strcmp(c, "ptr"))
		case_ptr();
	else if (!strcmp(c, "nodekill"))
		case_nodekill();
	else if (!strcmp(c, "nodekill_wait"))
		case_nodekill_wait();
	else if (!strcmp(c, "exposed"))
		case_exposed(argc > 2 ? argv[2] : NULL);
	else if (!strcmp(c, "global_exit"))
		case_global_exit(arg);
	else if (!strcmp(c, "stranger_grow"))
		case_stranger_grow();
	else if (!strcmp(c, "bad") && argc > 2)
		case_bad(argv[2]);
	else {
		fprintf(stderr, "shmem_pe: unknown case '%s'\n", c);
		return 2;
	}
	shmem_barrier_all();
	printf("PE %d: %s ok (%d PEs)\n", me, c, npes);
	shmem_finalize();
	return 0;
}
