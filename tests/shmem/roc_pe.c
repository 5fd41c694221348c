// SPDX-License-Identifier: MIT
/*
 * roc_pe: one PE of a test job written against rocSHMEM's host API
 * (<rocshmem/rocshmem.h>) alone, plus Level Zero for the VMM memory of
 * register_symmetric. test_rocshmem starts jobs of it and checks them.
 *
 * usage: roc_pe CASE                 the environment's bootstrap (zeshrun)
 *        roc_pe uid N CASE           the unique-id start: this process is
 *                                    rank 0; it makes the id and starts
 *                                    ranks 1..N-1 (fork + exec of itself)
 *        roc_pe uidpe R N HEX CASE   (internal) rank R of that job
 * Each PE checks exact results itself, prints "PE <me>: CASE ok" at the
 * end, or "PE <me>: FAIL <file>:<line>: ..." and exits 2.
 */
#include <rocshmem/rocshmem.h>
#include <shmemx.h>

#include <level_zero/ze_api.h>

#include <errno.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int me = -1, npes;
static const char *prog;

#define CHECK(cond, ...) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "PE %d: FAIL %s:%d: ", me, __FILE__, \
				__LINE__); \
			fprintf(stderr, __VA_ARGS__); \
			fputc('\n', stderr); \
			exit(2); \
		} \
	} while (0)

/* ---- VMM memory in the runtime's context -------------------------------- */

struct vmm {
	char *p;
	size_t size, page;
	ze_physical_mem_handle_t ph;
};

static size_t
vmm_page(size_t size)
{
	size_t page = 0;
	ze_result_t r = zeVirtualMemQueryPageSize(shmemx_ze_context(),
						  shmemx_ze_device(), size,
						  &page);
	CHECK(r == ZE_RESULT_SUCCESS && page, "page size: 0x%x", r);
	return page;
}

/* pages pages of the page size of pages * page0 bytes, mapped. */
static void
vmm_make(struct vmm *v, size_t bytes)
{
	ze_context_handle_t ctx = shmemx_ze_context();
	v->page = vmm_page(bytes);
	v->size = (bytes + v->page - 1) / v->page * v->page;
	void *p = NULL;
	ze_result_t r = zeVirtualMemReserve(ctx, NULL, v->size, &p);
	CHECK(r == ZE_RESULT_SUCCESS, "reserve: 0x%x", r);
	ze_physical_mem_desc_t d = {
		.stype = ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC,
		.size = v->size,
	};
	r = zePhysicalMemCreate(ctx, shmemx_ze_device(), &d, &v->ph);
	CHECK(r == ZE_RESULT_SUCCESS, "physical: 0x%x", r);
	r = zeVirtualMemMap(ctx, p, v->size, v->ph, 0,
			    ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE);
	CHECK(r == ZE_RESULT_SUCCESS, "map: 0x%x", r);
	v->p = p;
}

static void
vmm_free(struct vmm *v)
{
	ze_context_handle_t ctx = shmemx_ze_context();
	CHECK(zeVirtualMemUnmap(ctx, v->p, v->size) == ZE_RESULT_SUCCESS,
	      "unmap");
	CHECK(zePhysicalMemDestroy(ctx, v->ph) == ZE_RESULT_SUCCESS, "phys");
	CHECK(zeVirtualMemFree(ctx, v->p, v->size) == ZE_RESULT_SUCCESS,
	      "free");
}

/* ---- cases ------------------------------------------------------------- */

static void
case_hello(void)
{
	CHECK(rocshmem_n_pes() == npes && npes >= 1, "n_pes");
	CHECK(rocshmem_team_n_pes(ROCSHMEM_TEAM_WORLD) == npes, "team n");
	CHECK(rocshmem_team_my_pe(ROCSHMEM_TEAM_WORLD) == me, "team me");
	int t = -1;
	rocshmem_query_thread(&t);
	CHECK(t == ROCSHMEM_THREAD_SINGLE, "thread %d", t);
	long *x = rocshmem_malloc(sizeof(long));
	CHECK(x, "malloc");
	rocshmem_long_p(x, me, (me + 1) % npes);
	rocshmem_barrier_all();
	CHECK(*x == (me + npes - 1) % npes, "p: %ld", *x);
	rocshmem_free(x);
}

/* seed 000: every invalid alignment NULL (warned), nobody deadlocks; <= 128
 * gives 128; larger powers of two are honoured; symmetric. */
static void
case_align(void)
{
	static const size_t bad[] = { 0, 1, 2, 4, 3, 5, 6, 12, 24, 40, 48,
				      96, 100, 136, 1000, 3 << 20 };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		void *p = rocshmem_align(bad[i], 64);
		CHECK(p == NULL, "align %zu gave %p", bad[i], p);
	}
	static const size_t good[] = { 8, 16, 32, 64, 128, 256, 4096, 65536 };
	int *q[sizeof(good) / sizeof(good[0])];
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		q[i] = rocshmem_align(good[i], 100);
		size_t want = good[i] < 128 ? 128 : good[i];
		CHECK(q[i] && (uintptr_t)q[i] % want == 0,
		      "align %zu: %p", good[i], (void *)q[i]);
		rocshmem_int_p(q[i], me * 10 + (int)i, (me + 1) % npes);
	}
	rocshmem_barrier_all();
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int want = ((me + npes - 1) % npes) * 10 + (int)i;
		CHECK(*q[i] == want, "align %zu: %d, want %d", good[i], *q[i],
		      want);
	}
	for (size_t i = sizeof(good) / sizeof(good[0]); i-- > 0;)
		rocshmem_free(q[i]);
	/* One PE with an invalid alignment, the others valid: that PE gets
	 * NULL and nobody deadlocks (the barrier is entered). Last: the
	 * heaps differ afterwards. */
	void *m = rocshmem_align(me == 0 ? 24 : 256, 64);
	CHECK(me == 0 ? m == NULL : m != NULL, "mixed: %p", m);
	rocshmem_barrier_all();
}

static void
case_calloc(void)
{
	CHECK(rocshmem_calloc(0, 8) == NULL, "count 0");
	CHECK(rocshmem_calloc(8, 0) == NULL, "size 0");
	CHECK(rocshmem_calloc(0, 0) == NULL, "both 0");
	CHECK(rocshmem_calloc(SIZE_MAX / 2 + 1, 2) == NULL, "overflow");
	CHECK(rocshmem_calloc(SIZE_MAX, SIZE_MAX) == NULL, "overflow 2");
	unsigned char *z = rocshmem_calloc(100, 8);
	CHECK(z && (uintptr_t)z % 128 == 0, "calloc %p", (void *)z);
	for (int i = 0; i < 800; i++)
		CHECK(z[i] == 0, "byte %d is %d", i, z[i]);
	/* malloc: 128-byte default alignment; NULL when it cannot be had */
	void *a = rocshmem_malloc(1), *b = rocshmem_malloc(3),
	     *c = rocshmem_malloc(200);
	CHECK(a && b && c && (uintptr_t)a % 128 == 0 &&
	      (uintptr_t)b % 128 == 0 && (uintptr_t)c % 128 == 0,
	      "malloc %p %p %p", a, b, c);
	CHECK(rocshmem_malloc((size_t)1 << 52) == NULL, "4 PiB");
	rocshmem_barrier_all();
	rocshmem_free(c);
	rocshmem_free(b);
	rocshmem_free(a);
	rocshmem_free(z);
}

static void
case_reg(void)
{
	char *buf = aligned_alloc(4096, 3 * 4096);
	CHECK(buf, "aligned_alloc");
	CHECK(rocshmem_buffer_register(buf, 4096) == ROCSHMEM_SUCCESS, "reg");
	CHECK(rocshmem_buffer_register(buf + 100, 10) == ROCSHMEM_ERROR,
	      "overlap inside");
	CHECK(rocshmem_buffer_register(buf + 4000, 4096) == ROCSHMEM_ERROR,
	      "overlap end");
	CHECK(rocshmem_buffer_register(buf, 4096) == ROCSHMEM_ERROR, "twice");
	CHECK(rocshmem_buffer_register(buf + 4096, 4096) == ROCSHMEM_SUCCESS,
	      "adjacent");
	CHECK(rocshmem_buffer_register(NULL, 8) == ROCSHMEM_ERROR, "NULL");
	CHECK(rocshmem_buffer_register(buf + 8192, 0) == ROCSHMEM_ERROR,
	      "length 0");
	CHECK(rocshmem_buffer_unregister(buf + 1) == ROCSHMEM_ERROR,
	      "interior");
	CHECK(rocshmem_buffer_unregister(buf + 8192) == ROCSHMEM_ERROR,
	      "never registered");
	/* the LOCAL side of RMA */
	long *sym = rocshmem_malloc(64 * sizeof(long));
	CHECK(sym, "malloc");
	long *src = (long *)buf;
	for (int i = 0; i < 64; i++)
		src[i] = me * 1000 + i;
	int to = (me + 1) % npes, from = (me + npes - 1) % npes;
	rocshmem_putmem(sym, src, 64 * sizeof(long), to);
	rocshmem_barrier_all();
	for (int i = 0; i < 64; i++)
		CHECK(sym[i] == from * 1000 + i, "put from registered: %ld",
		      sym[i]);
	long *dst = (long *)(buf + 4096);
	rocshmem_getmem_nbi(dst, sym, 64 * sizeof(long), to);
	rocshmem_quiet();
	for (int i = 0; i < 64; i++)
		CHECK(dst[i] == me * 1000 + i, "get into registered: %ld",
		      dst[i]);
	CHECK(rocshmem_buffer_unregister(buf) == ROCSHMEM_SUCCESS, "unreg");
	CHECK(rocshmem_buffer_unregister(buf) == ROCSHMEM_ERROR, "unreg 2");
	CHECK(rocshmem_buffer_register(buf, 4096) == ROCSHMEM_SUCCESS,
	      "again");
	rocshmem_buffer_unregister_all();
	CHECK(rocshmem_buffer_unregister(buf) == ROCSHMEM_ERROR, "all");
	CHECK(rocshmem_buffer_unregister(buf + 4096) == ROCSHMEM_ERROR,
	      "all 2");
	rocshmem_barrier_all();
	rocshmem_free(sym);
	free(buf);
}

/* A registered-only buffer as the remote target: PE 0 ends with the line. */
static void
case_reg_remote(void)
{
	long *buf = aligned_alloc(64, 64);
	CHECK(buf, "alloc");
	CHECK(rocshmem_buffer_register(buf, 64) == ROCSHMEM_SUCCESS, "reg");
	long v = 1;
	rocshmem_barrier_all();
	if (me == 0) {
		printf("PE 0: target %p\n", (void *)buf);
		fflush(stdout);
		rocshmem_putmem(buf, &v, sizeof(v), npes - 1);
		CHECK(0, "the put returned");
	}
	rocshmem_barrier_all(); /* PE 0 never comes: the launcher ends us */
	CHECK(0, "barrier passed without PE 0");
}

/* register_symmetric of VMM memory: RMA and atomics to the alias from
 * every PE; unregister leaves the buffer intact. */
static void
case_symreg(void)
{
	struct vmm v;
	vmm_make(&v, 64 * 1024);
	size_t len = v.size, part = (len - 64) / (size_t)npes / 8 * 8;
	memset(v.p, 0xee, len);
	char *alias = rocshmem_buffer_register_symmetric(v.p, len);
	CHECK(alias && alias != v.p, "alias %p of %p", (void *)alias,
	      (void *)v.p);
	CHECK(alias[0] == (char)0xee, "alias shows the buffer");
	/* own alias: the same memory */
	alias[1] = 0x11;
	CHECK(v.p[1] == 0x11, "alias and buffer differ");
	rocshmem_barrier_all();
	/* every PE writes its part of every PE's buffer */
	char *src = malloc(part);
	CHECK(src, "malloc");
	memset(src, 'a' + me, part);
	for (int pe = 0; pe < npes; pe++)
		if (pe % 2)
			rocshmem_putmem(alias + (size_t)me * part, src, part,
					pe);
		else
			rocshmem_putmem_nbi(alias + (size_t)me * part, src,
					    part, pe);
	rocshmem_quiet();
	/* atomics on the last word: everyone adds me + 1 everywhere */
	long long *ctr = (long long *)(alias + len - 8);
	for (int pe = 0; pe < npes; pe++)
		rocshmem_longlong_atomic_add(ctr, me + 1, pe);
	rocshmem_barrier_all();
	for (int pe = 0; pe < npes; pe++)
		for (size_t i = 0; i < part; i++)
			CHECK(v.p[(size_t)pe * part + i] == 'a' + pe,
			      "byte %zu of PE %d's part: %d", i, pe,
			      v.p[(size_t)pe * part + i]);
	long long *uctr = (long long *)(v.p + len - 8);
	long long want = 0xeeeeeeeeeeeeeeeeull + (long long)npes * (npes + 1) / 2;
	CHECK(*uctr == want, "counter %llx, want %llx", *uctr, want);
	/* get back through the alias, and g / wait */
	char *back = malloc(part);
	CHECK(back, "malloc");
	int peer = (me + 1) % npes;
	rocshmem_getmem(back, alias + (size_t)peer * part, part, peer);
	CHECK(back[0] == 'a' + peer && back[part - 1] == 'a' + peer,
	      "get %d", back[0]);
	CHECK(rocshmem_longlong_g(ctr, peer) == want, "g");
	long long *flag = (long long *)(alias + len - 16);
	rocshmem_longlong_p(flag, 7, peer);
	rocshmem_longlong_wait_until(flag, ROCSHMEM_CMP_EQ, 7);
	rocshmem_barrier_all();
	/* unregister: the alias goes, the buffer and its contents stay */
	CHECK(rocshmem_buffer_unregister_symmetric(alias) == ROCSHMEM_SUCCESS,
	      "unregister");
	CHECK(v.p[0] == 'a' && v.p[(size_t)(npes - 1) * part] ==
				       'a' + npes - 1 && *uctr == want,
	      "buffer changed by unregister");
	CHECK(rocshmem_buffer_unregister_symmetric(alias) == ROCSHMEM_ERROR,
	      "unregister twice");
	/* register again: a working registration */
	alias = rocshmem_buffer_register_symmetric(v.p, len);
	CHECK(alias, "again");
	rocshmem_longlong_atomic_inc((long long *)alias, peer);
	rocshmem_barrier_all();
	CHECK(rocshmem_buffer_unregister_symmetric(alias) == ROCSHMEM_SUCCESS,
	      "unregister 2");
	rocshmem_barrier_all();
	free(back);
	free(src);
	vmm_free(&v);
}

/* register_symmetric of VMM memory the program reserved and mapped in a
 * context of its OWN (issue 26): first named to nobody (the driver answers
 * for any of its contexts), then named with rocshmemx_set_ze_context (for
 * drivers that do not). Every PE puts its part into every PE's buffer
 * through the alias; the owner checks every byte. */
static void
case_symreg_own(void)
{
	ze_driver_handle_t drv;
	uint32_t nd = 1;
	CHECK(zeDriverGet(&nd, &drv) == ZE_RESULT_SUCCESS && nd, "driver");
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	ze_context_handle_t own;
	CHECK(zeContextCreate(drv, &cd, &own) == ZE_RESULT_SUCCESS, "context");
	CHECK(own != shmemx_ze_context(), "a context of the program's own");
	size_t page = vmm_page(64 * 1024);
	size_t len = (64 * 1024 + page - 1) / page * page;
	for (int named = 0; named < 2; named++) {
		CHECK(rocshmemx_set_ze_context(named ? own : NULL) ==
			      ROCSHMEM_SUCCESS, "set context");
		void *p = NULL;
		ze_physical_mem_handle_t ph;
		ze_physical_mem_desc_t d = {
			.stype = ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC,
			.size = len,
		};
		CHECK(zeVirtualMemReserve(own, NULL, len, &p) ==
			      ZE_RESULT_SUCCESS, "reserve");
		CHECK(zePhysicalMemCreate(own, shmemx_ze_device(), &d, &ph) ==
			      ZE_RESULT_SUCCESS, "physical");
		CHECK(zeVirtualMemMap(own, p, len, ph, 0,
				      ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE) ==
			      ZE_RESULT_SUCCESS, "map");
		char *buf = p;
		memset(buf, 0xee, len);
		char *alias = rocshmem_buffer_register_symmetric(buf, len);
		CHECK(alias && alias != buf, "named %d: alias %p", named,
		      (void *)alias);
		rocshmem_barrier_all();
		size_t part = len / (size_t)npes / 8 * 8;
		char *src = malloc(part);
		CHECK(src, "malloc");
		for (size_t i = 0; i < part; i++)
			src[i] = (char)(me * 31 + named * 7 + (int)(i % 251));
		for (int pe = 0; pe < npes; pe++)
			rocshmem_putmem(alias + (size_t)me * part, src, part,
					pe);
		rocshmem_quiet();
		rocshmem_barrier_all();
		for (int pe = 0; pe < npes; pe++)
			for (size_t i = 0; i < part; i++)
				CHECK(buf[(size_t)pe * part + i] ==
				      (char)(pe * 31 + named * 7 +
					     (int)(i % 251)),
				      "named %d: byte %zu of PE %d's part: %d",
				      named, i, pe,
				      buf[(size_t)pe * part + i]);
		for (size_t i = (size_t)npes * part; i < len; i++)
			CHECK(buf[i] == (char)0xee, "byte %zu changed", i);
		rocshmem_barrier_all();
		CHECK(rocshmem_buffer_unregister_symmetric(alias) ==
			      ROCSHMEM_SUCCESS, "unregister");
		free(src);
		CHECK(zeVirtualMemUnmap(own, p, len) == ZE_RESULT_SUCCESS,
		      "unmap");
		CHECK(zePhysicalMemDestroy(own, ph) == ZE_RESULT_SUCCESS,
		      "destroy");
		CHECK(zeVirtualMemFree(own, p, len) == ZE_RESULT_SUCCESS,
		      "free");
	}
	CHECK(rocshmemx_set_ze_context(NULL) == ROCSHMEM_SUCCESS, "forget");
	CHECK(zeContextDestroy(own) == ZE_RESULT_SUCCESS, "context destroy");
}

/* Every refusal returns NULL on every PE; afterwards the job still works. */
static void
case_symreg_refuse(void)
{
	size_t page = vmm_page(64 * 1024);
	struct vmm v, w;
	vmm_make(&v, 2 * page);
	vmm_make(&w, page);
	/* malloc'ed memory */
	char *m = aligned_alloc(page, page);
	CHECK(m, "aligned_alloc");
	CHECK(rocshmem_buffer_register_symmetric(m, page) == NULL, "malloc");
	/* USM */
	void *usm = NULL;
	ze_host_mem_alloc_desc_t hd = {
		.stype = ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC,
	};
	CHECK(zeMemAllocHost(shmemx_ze_context(), &hd, page, page, &usm) ==
		      ZE_RESULT_SUCCESS, "USM");
	CHECK(rocshmem_buffer_register_symmetric(usm, page) == NULL, "USM");
	/* the symmetric heap */
	char *h = rocshmem_align(page, page);
	CHECK(h, "heap");
	CHECK(rocshmem_buffer_register_symmetric(h, page) == NULL, "heap");
	/* NULL, zero length */
	CHECK(rocshmem_buffer_register_symmetric(NULL, page) == NULL, "NULL");
	CHECK(rocshmem_buffer_register_symmetric(v.p, 0) == NULL, "len 0");
	/* misaligned address, misaligned length */
	CHECK(rocshmem_buffer_register_symmetric(v.p + page / 2, page) ==
		      NULL, "misaligned address");
	CHECK(rocshmem_buffer_register_symmetric(v.p, page + page / 2) == NULL,
	      "misaligned length");
	/* past the mapping */
	CHECK(rocshmem_buffer_register_symmetric(w.p, 2 * page) == NULL,
	      "unmapped tail");
	/* unequal lengths */
	CHECK(rocshmem_buffer_register_symmetric(v.p, me == 0 ? page
							     : 2 * page) ==
		      NULL, "unequal lengths");
	/* one PE's buffer refused: all get NULL */
	CHECK(rocshmem_buffer_register_symmetric(me == npes - 1 ? m : w.p,
						 page) == NULL,
	      "one PE malloc'ed");
	/* overlaps */
	char *a = rocshmem_buffer_register_symmetric(v.p, page);
	CHECK(a, "first");
	CHECK(rocshmem_buffer_register_symmetric(v.p, page) == NULL, "same");
	CHECK(rocshmem_buffer_register_symmetric(v.p, 2 * page) == NULL,
	      "overlap");
	CHECK(rocshmem_buffer_register(v.p + 8, 8) == ROCSHMEM_ERROR,
	      "local over symmetric");
	CHECK(rocshmem_buffer_register(w.p, page) == ROCSHMEM_SUCCESS,
	      "local");
	CHECK(rocshmem_buffer_register_symmetric(w.p, page) == NULL,
	      "symmetric over local");
	CHECK(rocshmem_buffer_unregister(w.p) == ROCSHMEM_SUCCESS, "unreg");
	/* the cap (ZESHMEM_MAX_SYMMETRIC_REGS=2 in this case) */
	char *b = rocshmem_buffer_register_symmetric(v.p + page, page);
	CHECK(b, "second");
	CHECK(rocshmem_buffer_register_symmetric(w.p, page) == NULL, "cap");
	/* unregister: not an alias, the user's buffer, one PE wrong */
	CHECK(rocshmem_buffer_unregister_symmetric(m) == ROCSHMEM_ERROR,
	      "not an alias");
	CHECK(rocshmem_buffer_unregister_symmetric(v.p) == ROCSHMEM_ERROR,
	      "the buffer, not the alias");
	CHECK(rocshmem_buffer_unregister_symmetric(me == 0 ? (void *)m : a) ==
		      ROCSHMEM_ERROR, "one PE wrong");
	/* still registered everywhere: RMA works */
	int peer = (me + 1) % npes;
	rocshmem_int_p((int *)b, me, peer);
	rocshmem_barrier_all();
	CHECK(*(int *)(v.p + page) == (me + npes - 1) % npes, "put to b");
	CHECK(rocshmem_buffer_unregister_symmetric(b) == ROCSHMEM_SUCCESS,
	      "unreg b");
	CHECK(rocshmem_buffer_unregister_symmetric(a) == ROCSHMEM_SUCCESS,
	      "unreg a");
	/* below the cap again */
	char *c = rocshmem_buffer_register_symmetric(w.p, page);
	CHECK(c, "after the cap");
	CHECK(rocshmem_buffer_unregister_symmetric(c) == ROCSHMEM_SUCCESS,
	      "unreg c");
	rocshmem_barrier_all();
	rocshmem_free(h);
	zeMemFree(shmemx_ze_context(), usm);
	free(m);
	vmm_free(&w);
	vmm_free(&v);
}

/* PE npes-1 ends the job with status 7; the others wait in a barrier. */
static void
case_global_exit(void)
{
	rocshmem_barrier_all();
	if (me == npes - 1)
		rocshmem_global_exit(7);
	rocshmem_barrier_all();
	CHECK(0, "barrier passed after global_exit");
}

/* Symmetric registration where peers are reached over libfabric (run
 * with ZESHMEM_FORCE_NETWORK=1, gda, or ROC_PE_NODE_PES): puts of the
 * bounce size and above from the alias itself (its own region), from
 * the user's buffer and from malloc'ed memory, an nbi get, fetching and
 * compare-swap atomics, a put with its signal in the alias, two
 * registrations at once (each its own region), and registration cycles
 * (each unregister closes its region: the leak check sees no fd left). */
static void
case_symreg_net(void)
{
	struct vmm v, w;
	vmm_make(&v, 64 * 1024);
	vmm_make(&w, 64 * 1024);
	size_t len = v.size;
	int peer = (me + 1) % npes, from = (me + npes - 1) % npes;
	char *heap_src = malloc(len);
	CHECK(heap_src, "malloc");
	for (int round = 0; round < 3; round++) {
		memset(v.p, 0, len);
		memset(w.p, 0, w.size);
		char *a = rocshmem_buffer_register_symmetric(v.p, len);
		char *b = rocshmem_buffer_register_symmetric(w.p, w.size);
		CHECK(a && b && a != v.p && b != w.p, "round %d: %p %p",
		      round, (void *)a, (void *)b);
		/* [0, 8): 8 bytes from the stack (a bounce slot); [64, 64+4K)
		 * from the alias's own first page-half; [8K, 16K) from
		 * malloc'ed memory; each PE writes its successor */
		long small = me * 100 + round;
		rocshmem_putmem(a, &small, sizeof(small), peer);
		for (int i = 0; i < 4096; i++)
			a[len / 2 + i] = (char)(me + i + round);
		rocshmem_putmem(a + 64, a + len / 2, 4096, peer);
		for (size_t i = 0; i < 8192; i++)
			heap_src[i] = (char)(me * 3 + (int)i);
		rocshmem_putmem_nbi(a + 8192, heap_src, 8192, peer);
		rocshmem_quiet();
		/* b: a counter everyone adds to on every PE */
		long long *ctr = (long long *)(b + 256);
		for (int pe = 0; pe < npes; pe++)
			rocshmem_longlong_atomic_add(ctr, me + 1, pe);
		rocshmem_barrier_all();
		long got;
		memcpy(&got, v.p, sizeof(got));
		CHECK(got == from * 100 + round, "small: %ld", got);
		for (int i = 0; i < 4096; i++)
			CHECK(v.p[64 + i] == (char)(from + i + round),
			      "4K byte %d: %d", i, v.p[64 + i]);
		for (size_t i = 0; i < 8192; i++)
			CHECK(v.p[8192 + i] == (char)(from * 3 + (int)i),
			      "8K byte %zu: %d", i, v.p[8192 + i]);
		CHECK(*(long long *)(w.p + 256) == (long long)npes * (npes + 1) / 2,
		      "counter %lld", *(long long *)(w.p + 256));
		rocshmem_barrier_all(); /* every PE read its counter */
		/* get (nbi) back what this PE wrote into its successor */
		char back[4096];
		rocshmem_getmem_nbi(back, a + 64, sizeof(back), peer);
		rocshmem_quiet();
		for (int i = 0; i < 4096; i++)
			CHECK(back[i] == (char)(me + i + round), "get %d", i);
		/* each counter gets one fetch_add, after every add */
		CHECK(rocshmem_longlong_atomic_fetch_add(ctr, 1, peer) ==
			      (long long)npes * (npes + 1) / 2, "fetch_add");
		rocshmem_barrier_all();
		long long want = (long long)npes * (npes + 1) / 2 + 1;
		CHECK(*(long long *)(w.p + 256) == want, "after fetch_add: %lld",
		      *(long long *)(w.p + 256));
		rocshmem_barrier_all();
		long long *cs = (long long *)(b + 512);
		CHECK(rocshmem_longlong_atomic_compare_swap(cs, 0, me + 1,
							     peer) == 0,
		      "cswap old");
		CHECK(rocshmem_longlong_atomic_compare_swap(cs, 0, 99, peer) ==
			      me + 1, "cswap refused");
		/* a put with its signal in the alias too */
		uint64_t *sig = (uint64_t *)(b + 1024);
		long payload[16];
		for (int i = 0; i < 16; i++)
			payload[i] = me * 1000 + i + round;
		rocshmem_putmem_signal(b + 2048, payload, sizeof(payload), sig,
				       1, ROCSHMEM_SIGNAL_ADD, peer);
		rocshmem_uint64_wait_until(sig, ROCSHMEM_CMP_GE, 1);
		CHECK(((long *)(w.p + 2048))[15] == from * 1000 + 15 + round,
		      "signal payload");
		rocshmem_barrier_all();
		CHECK(*(long long *)(w.p + 512) == from + 1, "cswap value");
		CHECK(rocshmem_buffer_unregister_symmetric(b) == ROCSHMEM_SUCCESS,
		      "unregister b");
		CHECK(rocshmem_buffer_unregister_symmetric(a) == ROCSHMEM_SUCCESS,
		      "unregister a");
		/* the buffer stays */
		memcpy(&got, v.p, sizeof(got));
		CHECK(got == from * 100 + round, "after unregister: %ld", got);
	}
	rocshmem_barrier_all();
	free(heap_src);
	vmm_free(&w);
	vmm_free(&v);
}

/* typed RMA over rocshmem.h's own table */
#define RMA_ONE(T, N, A) \
	{ \
		T *d = rocshmem_malloc(4 * sizeof(T)); \
		T s[4] = { (T)(me + 1), (T)2, (T)3, (T)(me + 4) }, g[4]; \
		CHECK(d, "malloc " #N); \
		rocshmem_##N##_put(d, s, 2, peer); \
		rocshmem_##N##_put_nbi(d + 2, s + 2, 1, peer); \
		rocshmem_##N##_p(d + 3, (T)(me + 4), peer); \
		rocshmem_barrier_all(); \
		CHECK(d[0] == (T)(from + 1) && d[1] == (T)2 && \
		      d[2] == (T)3 && d[3] == (T)(from + 4), #N " put"); \
		rocshmem_##N##_get(g, d, 2, peer); \
		rocshmem_##N##_get_nbi(g + 2, d + 2, 2, peer); \
		rocshmem_quiet(); \
		CHECK(g[0] == (T)(me + 1) && g[3] == (T)(me + 4), #N " get"); \
		CHECK(rocshmem_##N##_g(d + 3, peer) == (T)(me + 4), #N " g"); \
		rocshmem_barrier_all(); \
		rocshmem_free(d); \
	}

static void
case_rma(void)
{
	int peer = (me + 1) % npes, from = (me + npes - 1) % npes;
	ROCSHMEM_RMA_TYPES(RMA_ONE, )
	/* put with signal */
	uint64_t *sig = rocshmem_calloc(1, sizeof(uint64_t));
	long *data = rocshmem_malloc(8 * sizeof(long));
	CHECK(sig && data, "malloc");
	long s[8];
	for (int i = 0; i < 8; i++)
		s[i] = me * 100 + i;
	rocshmem_putmem_signal(data, s, sizeof(s), sig, 1, ROCSHMEM_SIGNAL_ADD,
			       peer);
	rocshmem_uint64_wait_until(sig, ROCSHMEM_CMP_GE, 1);
	CHECK(data[7] == from * 100 + 7, "signal payload");
	CHECK(rocshmem_signal_fetch(sig) == 1, "signal fetch");
	rocshmem_barrier_all();
	rocshmem_free(data);
	rocshmem_free(sig);
}

#define AMO_ONE(T, N, A) \
	{ \
		T *x = rocshmem_calloc(2, sizeof(T)); \
		CHECK(x, "calloc " #N); \
		for (int pe = 0; pe < npes; pe++) { \
			rocshmem_##N##_atomic_add(x, (T)(me + 1), pe); \
			rocshmem_##N##_atomic_inc(x + 1, pe); \
		} \
		rocshmem_barrier_all(); \
		CHECK(x[0] == (T)(npes * (npes + 1) / 2) && \
		      x[1] == (T)npes, #N " add/inc"); \
		rocshmem_barrier_all(); \
		T old = rocshmem_##N##_atomic_fetch_add(x, (T)1, 0); \
		(void)old; \
		rocshmem_barrier_all(); \
		CHECK(rocshmem_##N##_atomic_fetch(x, 0) == \
		      (T)(npes * (npes + 1) / 2 + npes), #N " fetch"); \
		rocshmem_barrier_all(); \
		if (me == 0) { \
			rocshmem_##N##_atomic_set(x + 1, (T)5, peer); \
			CHECK(rocshmem_##N##_atomic_swap(x + 1, (T)6, peer) \
			      == (T)5, #N " swap"); \
			CHECK(rocshmem_##N##_atomic_compare_swap(x + 1, (T)6, \
				(T)9, peer) == (T)6, #N " cswap"); \
			CHECK(rocshmem_##N##_atomic_fetch_inc(x + 1, peer) == \
			      (T)9, #N " finc"); \
			CHECK(rocshmem_##N##_g(x + 1, peer) == (T)10, #N); \
		} \
		rocshmem_barrier_all(); \
		rocshmem_free(x); \
	}

#define BIT_ONE(T, N, A) \
	{ \
		T *x = rocshmem_calloc(1, sizeof(T)); \
		CHECK(x, "calloc " #N); \
		for (int pe = 0; pe < npes; pe++) \
			rocshmem_##N##_atomic_or(x, (T)1 << me, pe); \
		rocshmem_barrier_all(); \
		CHECK(*x == (T)(((T)1 << npes) - 1), #N " or"); \
		rocshmem_barrier_all(); \
		if (me == 0) { \
			CHECK(rocshmem_##N##_atomic_fetch_and(x, (T)1, peer) \
			      == (T)(((T)1 << npes) - 1), #N " and"); \
			CHECK(rocshmem_##N##_atomic_fetch_xor(x, (T)3, peer) \
			      == (T)1, #N " xor"); \
			rocshmem_##N##_atomic_xor(x, (T)2, peer); \
			rocshmem_##N##_atomic_and(x, (T)0, peer); \
			CHECK(rocshmem_##N##_atomic_fetch_or(x, (T)0, peer) \
			      == (T)0, #N " fetch_or"); \
		} \
		rocshmem_barrier_all(); \
		rocshmem_free(x); \
	}

static void
case_amo(void)
{
	int peer = (me + 1) % npes;
	ROCSHMEM_AMO_TYPES(AMO_ONE, )
	ROCSHMEM_BITAMO_TYPES(BIT_ONE, )
}

/* ROCSHMEM_CMP_* (EQ is 0, not OpenSHMEM's 1) through test and wait */
static void
case_wait(void)
{
	int *v = rocshmem_calloc(1, sizeof(int));
	CHECK(v, "calloc");
	*v = 5;
	CHECK(rocshmem_int_test(v, ROCSHMEM_CMP_EQ, 5) == 1, "EQ");
	CHECK(rocshmem_int_test(v, ROCSHMEM_CMP_EQ, 4) == 0, "EQ 0");
	CHECK(rocshmem_int_test(v, ROCSHMEM_CMP_NE, 5) == 0, "NE");
	CHECK(rocshmem_int_test(v, ROCSHMEM_CMP_GT, 4) == 1, "GT");
	CHECK(rocshmem_int_test(v, ROCSHMEM_CMP_GT, 5) == 0, "GT 0");
	CHECK(rocshmem_int_test(v, ROCSHMEM_CMP_GE, 5) == 1, "GE");
	CHECK(rocshmem_int_test(v, ROCSHMEM_CMP_LT, 5) == 0, "LT 0");
	CHECK(rocshmem_int_test(v, ROCSHMEM_CMP_LT, 6) == 1, "LT");
	CHECK(rocshmem_int_test(v, ROCSHMEM_CMP_LE, 4) == 0, "LE 0");
	CHECK(rocshmem_int_test(v, ROCSHMEM_CMP_LE, 5) == 1, "LE");
	*v = 0;
	rocshmem_barrier_all();
	/* a ring: each waits for its predecessor's value */
	if (me == 0)
		rocshmem_int_p(v, 1, 1 % npes);
	rocshmem_int_wait_until(v, ROCSHMEM_CMP_GE, 1);
	if (me != 0)
		rocshmem_int_atomic_add(v, *v + 1, (me + 1) % npes);
	rocshmem_barrier_all();
	CHECK(*v == (me == 0 ? npes : me), "ring: %d", *v);
	rocshmem_free(v);
}

static void
case_teams(void)
{
	rocshmem_team_t even = ROCSHMEM_TEAM_INVALID;
	int rc = rocshmem_team_split_strided(ROCSHMEM_TEAM_WORLD, 0, 2,
					     (npes + 1) / 2, NULL, 0, &even);
	CHECK(rc == 0, "split_strided %d", rc);
	if (me % 2 == 0) {
		CHECK(even != ROCSHMEM_TEAM_INVALID, "even team");
		CHECK(rocshmem_team_my_pe(even) == me / 2, "even me");
		CHECK(rocshmem_team_n_pes(even) == (npes + 1) / 2, "even n");
		CHECK(rocshmem_team_translate_pe(even, me / 2,
						 ROCSHMEM_TEAM_WORLD) == me,
		      "translate");
	} else {
		CHECK(even == ROCSHMEM_TEAM_INVALID, "odd PE in even team");
	}
	CHECK(rocshmem_team_translate_pe(ROCSHMEM_TEAM_WORLD, 1, even) == -1,
	      "PE 1 is odd");
	CHECK(rocshmem_team_translate_pe(ROCSHMEM_TEAM_WORLD, npes,
					 ROCSHMEM_TEAM_WORLD) == -1, "range");
	rocshmem_team_t x = ROCSHMEM_TEAM_INVALID, y = ROCSHMEM_TEAM_INVALID;
	rocshmem_team_config_t cfg = { .num_contexts = 0 };
	rc = rocshmem_team_split_2d(ROCSHMEM_TEAM_WORLD, 2, &cfg,
				    ROCSHMEM_TEAM_NUM_CONTEXTS, &x, NULL, 0,
				    &y);
	CHECK(rc == 0, "split_2d %d", rc);
	CHECK(rocshmem_team_my_pe(x) == me % 2, "x me");
	CHECK(rocshmem_team_n_pes(x) == (me / 2 * 2 + 2 <= npes ? 2 : 1),
	      "x n %d", rocshmem_team_n_pes(x));
	CHECK(rocshmem_team_my_pe(y) == me / 2, "y me");
	CHECK(rocshmem_team_n_pes(y) == (npes + 1 - me % 2) / 2, "y n %d",
	      rocshmem_team_n_pes(y));
	rocshmem_team_destroy(y);
	rocshmem_team_destroy(x);
	rocshmem_team_destroy(even);
	/* destroyed and forged handles: the error results, no crash */
	long junk[16];
	memset(junk, 0x41, sizeof(junk));
	rocshmem_team_t gone[] = { x, (rocshmem_team_t)junk };
	for (int i = 0; i < 2; i++) {
		rocshmem_team_t t = gone[i], nt = ROCSHMEM_TEAM_WORLD;
		CHECK(rocshmem_team_my_pe(t) == -1 &&
		      rocshmem_team_n_pes(t) == -1, "dead team %d: me/n", i);
		CHECK(rocshmem_team_translate_pe(t, 0, ROCSHMEM_TEAM_WORLD) ==
		      -1, "dead team %d: translate", i);
		CHECK(rocshmem_team_split_strided(t, 0, 1, 1, NULL, 0, &nt) !=
		      ROCSHMEM_SUCCESS && nt == ROCSHMEM_TEAM_INVALID,
		      "dead team %d: split", i);
		rocshmem_team_t a = ROCSHMEM_TEAM_WORLD;
		rocshmem_team_t b = ROCSHMEM_TEAM_WORLD;
		CHECK(rocshmem_team_split_2d(t, 1, NULL, 0, &a, NULL, 0, &b) !=
		      ROCSHMEM_SUCCESS && a == ROCSHMEM_TEAM_INVALID &&
		      b == ROCSHMEM_TEAM_INVALID, "dead team %d: split_2d", i);
	}
	rocshmem_team_destroy(ROCSHMEM_TEAM_INVALID);
	rocshmem_barrier_all();
}

/* ---- rocSHMEM 3.x: information, statistics, contexts, ... -------------- */

/* Exact operation counts for rocshmem_dump_stats (the test reads them) */
static void
case_info(void)
{
	int ma = 0, mi = 0, pa = -1;
	rocshmem_info_get_version(&ma, &mi);
	CHECK(ma == 1 && mi == 4, "spec version %d.%d", ma, mi);
	char name[ROCSHMEM_MAX_NAME_LEN];
	memset(name, 'x', sizeof(name));
	rocshmem_info_get_name(name);
	CHECK(!strcmp(name, ROCSHMEM_VENDOR_STRING), "name %.64s", name);
	rocshmem_vendor_get_version_info(&ma, &mi, &pa);
	CHECK(ma == 3 && mi == 0 && pa == 0, "vendor %d.%d.%d", ma, mi, pa);
	CHECK(rocshmem_team_n_pes(ROCSHMEM_TEAM_SHARED) == npes &&
	      rocshmem_team_my_pe(ROCSHMEM_TEAM_SHARED) == me, "shared");
	CHECK(ROCSHMEM_CTX_DEFAULT.ctx_opaque != NULL &&
	      ROCSHMEM_CTX_INVALID.ctx_opaque == NULL, "ctx handles");
	rocshmem_init_attr_t attr = { .mpi_comm = &attr };
	CHECK(rocshmem_init_attr(ROCSHMEM_INIT_WITH_MPI_COMM, &attr) ==
	      ROCSHMEM_ERROR, "init_attr with a communicator");
	long *x = rocshmem_calloc(4, sizeof(long));
	uint64_t *sig = rocshmem_calloc(1, sizeof(uint64_t));
	CHECK(x && sig, "calloc");
	int peer = (me + 1) % npes;
	rocshmem_reset_stats();
	rocshmem_long_p(x, 1, peer);                    /* put 1 */
	rocshmem_putmem(x + 1, x, sizeof(long), peer);  /* put 2 */
	rocshmem_long_put_nbi(x + 2, x, 1, peer);       /* put 3 */
	(void)rocshmem_long_g(x, peer);                 /* get 1 */
	rocshmem_getmem(x + 3, x, sizeof(long), peer);  /* get 2 */
	rocshmem_long_atomic_add(x, 1, peer);           /* amo 1 */
	rocshmem_putmem_signal(x, x, 0, sig, 1, ROCSHMEM_SIGNAL_ADD, peer);
	rocshmem_quiet();                               /* sync 1 */
	rocshmem_barrier_all();                         /* collective 1 */
	rocshmem_dump_stats();
	rocshmem_barrier_all();
	rocshmem_free(sig);
	rocshmem_free(x);
}

#define CTX_RMA_ONE(T, N, A) \
	{ \
		T *d = rocshmem_calloc(4, sizeof(T)); \
		CHECK(d, "calloc " #N); \
		T s[2] = { (T)(me + 1), (T)(me + 2) }; \
		rocshmem_ctx_##N##_put(c, d, s, 2, peer); \
		rocshmem_ctx_##N##_p(c, d + 2, (T)(me + 3), peer); \
		rocshmem_ctx_##N##_put_nbi(c, d + 3, s, 1, peer); \
		rocshmem_ctx_quiet(c); \
		rocshmem_barrier_all(); \
		CHECK(d[0] == (T)(from + 1) && d[1] == (T)(from + 2) && \
		      d[2] == (T)(from + 3) && d[3] == (T)(from + 1), \
		      "ctx " #N " put"); \
		T g[2] = { 0, 0 }; \
		rocshmem_ctx_##N##_get(c, g, d, 2, peer); \
		CHECK(g[0] == (T)(me + 1) && g[1] == (T)(me + 2), \
		      "ctx " #N " get"); \
		CHECK(rocshmem_ctx_##N##_g(c, d + 2, peer) == (T)(me + 3), \
		      "ctx " #N " g"); \
		rocshmem_ctx_##N##_get_nbi(c, g, d + 2, 1, peer); \
		rocshmem_ctx_quiet(c); \
		CHECK(g[0] == (T)(me + 3), "ctx " #N " get_nbi"); \
		rocshmem_barrier_all(); \
		rocshmem_free(d); \
	}

#define CTX_AMO_ONE(T, N, A) \
	{ \
		T *x = rocshmem_calloc(2, sizeof(T)); \
		CHECK(x, "calloc " #N); \
		for (int pe = 0; pe < npes; pe++) { \
			rocshmem_ctx_##N##_atomic_add(c, x, (T)(me + 1), pe); \
			rocshmem_ctx_##N##_atomic_inc(c, x + 1, pe); \
		} \
		rocshmem_ctx_quiet(c); \
		rocshmem_barrier_all(); \
		CHECK(x[0] == (T)(npes * (npes + 1) / 2) && x[1] == (T)npes, \
		      "ctx " #N " add/inc"); \
		rocshmem_barrier_all(); \
		if (me == 0) { \
			rocshmem_ctx_##N##_atomic_set(c, x + 1, (T)5, peer); \
			CHECK(rocshmem_ctx_##N##_atomic_swap(c, x + 1, (T)6, \
							     peer) == (T)5, \
			      "ctx " #N " swap"); \
			CHECK(rocshmem_ctx_##N##_atomic_compare_swap( \
				      c, x + 1, (T)6, (T)9, peer) == (T)6, \
			      "ctx " #N " cswap"); \
			CHECK(rocshmem_ctx_##N##_atomic_fetch_inc(c, x + 1, \
								  peer) == \
			      (T)9, "ctx " #N " finc"); \
			CHECK(rocshmem_ctx_##N##_atomic_fetch_add( \
				      c, x + 1, (T)2, peer) == (T)10, \
			      "ctx " #N " fadd"); \
			CHECK(rocshmem_ctx_##N##_atomic_fetch(c, x + 1, \
							      peer) == (T)12, \
			      "ctx " #N " fetch"); \
		} \
		rocshmem_barrier_all(); \
		rocshmem_free(x); \
	}

#define CTX_BIT_ONE(T, N, A) \
	{ \
		T *x = rocshmem_calloc(1, sizeof(T)); \
		CHECK(x, "calloc " #N); \
		for (int pe = 0; pe < npes; pe++) \
			rocshmem_ctx_##N##_atomic_or(c, x, (T)1 << me, pe); \
		rocshmem_ctx_quiet(c); \
		rocshmem_barrier_all(); \
		CHECK(*x == (T)(((T)1 << npes) - 1), "ctx " #N " or"); \
		rocshmem_barrier_all(); \
		if (me == 0) { \
			CHECK(rocshmem_ctx_##N##_atomic_fetch_and(c, x, (T)1, \
								  peer) == \
			      (T)(((T)1 << npes) - 1), "ctx " #N " and"); \
			CHECK(rocshmem_ctx_##N##_atomic_fetch_xor(c, x, (T)3, \
								  peer) == \
			      (T)1, "ctx " #N " xor"); \
			rocshmem_ctx_##N##_atomic_xor(c, x, (T)2, peer); \
			rocshmem_ctx_##N##_atomic_and(c, x, (T)0, peer); \
			CHECK(rocshmem_ctx_##N##_atomic_fetch_or(c, x, (T)0, \
								 peer) == \
			      (T)0, "ctx " #N " fetch_or"); \
		} \
		rocshmem_barrier_all(); \
		rocshmem_free(x); \
	}

/* float and double fetch / set / swap, default and ctx forms */
#define FAMO_ONE(T, N, A) \
	{ \
		T *x = rocshmem_calloc(2, sizeof(T)); \
		CHECK(x, "calloc " #N); \
		rocshmem_##N##_atomic_set(x, (T)(me + 0.5), peer); \
		rocshmem_ctx_##N##_atomic_set(c, x + 1, (T)(me + 0.25), \
					      peer); \
		rocshmem_ctx_quiet(c); \
		rocshmem_barrier_all(); \
		CHECK(x[0] == (T)(from + 0.5) && x[1] == (T)(from + 0.25), \
		      #N " set"); \
		rocshmem_barrier_all(); \
		CHECK(rocshmem_##N##_atomic_fetch(x, peer) == (T)(me + 0.5), \
		      #N " fetch"); \
		CHECK(rocshmem_ctx_##N##_atomic_fetch(c, x + 1, peer) == \
		      (T)(me + 0.25), #N " ctx fetch"); \
		rocshmem_barrier_all(); \
		CHECK(rocshmem_##N##_atomic_swap(x, (T)-1.5, peer) == \
		      (T)(me + 0.5), #N " swap"); \
		CHECK(rocshmem_ctx_##N##_atomic_swap(c, x + 1, (T)-2.5, \
						     peer) == \
		      (T)(me + 0.25), #N " ctx swap"); \
		rocshmem_barrier_all(); \
		CHECK(x[0] == (T)-1.5 && x[1] == (T)-2.5, #N " swapped"); \
		rocshmem_barrier_all(); \
		rocshmem_free(x); \
	}

static void
case_ctx(void)
{
	int peer = (me + 1) % npes, from = (me + npes - 1) % npes;
	rocshmem_ctx_t c = ROCSHMEM_CTX_INVALID;
	CHECK(rocshmem_ctx_create(ROCSHMEM_CTX_SERIALIZED, &c) == 0 &&
	      c.ctx_opaque != NULL && c.team_opaque == NULL, "ctx_create");
	ROCSHMEM_RMA_TYPES(CTX_RMA_ONE, )
	ROCSHMEM_AMO_TYPES(CTX_AMO_ONE, )
	ROCSHMEM_BITAMO_TYPES(CTX_BIT_ONE, )
	ROCSHMEM_FAMO_TYPES(FAMO_ONE, )
	/* putmem / getmem / put-with-signal on the context */
	long *d = rocshmem_calloc(8, sizeof(long));
	uint64_t *sig = rocshmem_calloc(1, sizeof(uint64_t));
	CHECK(d && sig, "calloc");
	long s[4] = { me, me * 10, me * 100, me * 1000 };
	rocshmem_ctx_putmem(c, d, s, sizeof(s), peer);
	rocshmem_ctx_putmem_nbi(c, d + 4, s, sizeof(long), peer);
	rocshmem_ctx_fence(c);
	rocshmem_ctx_putmem_signal_nbi(c, d + 5, s + 1, sizeof(long), sig, 2,
				       ROCSHMEM_SIGNAL_ADD, peer);
	rocshmem_ctx_putmem_signal(c, d + 6, s + 2, sizeof(long), sig, 3,
				   ROCSHMEM_SIGNAL_ADD, peer);
	rocshmem_uint64_wait_until(sig, ROCSHMEM_CMP_EQ, 5);
	CHECK(d[0] == from && d[1] == from * 10 && d[3] == from * 1000 &&
	      d[4] == from && d[5] == from * 10 && d[6] == from * 100,
	      "ctx putmem / signal");
	long g[4] = { 0 };
	rocshmem_ctx_getmem(c, g, d, sizeof(g), peer);
	CHECK(g[0] == me && g[3] == me * 1000, "ctx getmem");
	rocshmem_ctx_getmem_nbi(c, g, d + 6, sizeof(long), peer);
	rocshmem_ctx_quiet(c);
	CHECK(g[0] == me * 100, "ctx getmem_nbi");
	rocshmem_barrier_all();
	/* a team's context numbers PEs as the team does */
	rocshmem_team_t even = ROCSHMEM_TEAM_INVALID;
	CHECK(rocshmem_team_split_strided(ROCSHMEM_TEAM_WORLD, 0, 2,
					  (npes + 1) / 2, NULL, 0, &even) == 0,
	      "split");
	rocshmem_ctx_t tc = ROCSHMEM_CTX_DEFAULT;
	int rc = rocshmem_team_create_ctx(even, 0, &tc);
	if (me % 2 == 0) {
		CHECK(rc == 0 && tc.team_opaque == even, "team ctx");
		int tn = rocshmem_team_n_pes(even);
		int tp = (rocshmem_team_my_pe(even) + 1) % tn;
		rocshmem_ctx_long_p(tc, d + 7, 700 + me, tp);
		rocshmem_ctx_quiet(tc);
	} else {
		CHECK(rc != 0 && tc.ctx_opaque == NULL, "no team ctx");
	}
	/* a PE outside the team: fence, quiet, destroy are no-ops */
	rocshmem_ctx_fence(tc);
	rocshmem_ctx_quiet(tc);
	rocshmem_barrier_all();
	if (me % 2 == 0) {
		int tn = rocshmem_team_n_pes(even);
		int src = ((me / 2 + tn - 1) % tn) * 2;
		CHECK(d[7] == 700 + src, "team ctx put: %ld", d[7]);
	}
	rocshmem_ctx_destroy(tc);
	rocshmem_team_destroy(even);
	rocshmem_ctx_t bad = ROCSHMEM_CTX_DEFAULT;
	CHECK(rocshmem_ctx_create(64, &bad) == ROCSHMEM_ERROR &&
	      bad.ctx_opaque == NULL, "bad options");
	rocshmem_ctx_destroy(ROCSHMEM_CTX_INVALID);
	rocshmem_ctx_destroy(ROCSHMEM_CTX_DEFAULT);
	rocshmem_ctx_destroy(c);
	rocshmem_barrier_all();
	rocshmem_free(sig);
	rocshmem_free(d);
}

/* wait_until / test of the 3.x types, and the multi forms */
static void
case_waits(void)
{
	int peer = (me + 1) % npes;
	double *dv = rocshmem_calloc(4, sizeof(double));
	float *fv = rocshmem_calloc(1, sizeof(float));
	char *cv = rocshmem_calloc(1, 1);
	int *iv = rocshmem_calloc(4, sizeof(int));
	CHECK(dv && fv && cv && iv, "calloc");
	*fv = 2.5f;
	CHECK(rocshmem_float_test(fv, ROCSHMEM_CMP_EQ, 2.5f) == 1 &&
	      rocshmem_float_test(fv, ROCSHMEM_CMP_LT, 2.5f) == 0 &&
	      rocshmem_float_test(fv, ROCSHMEM_CMP_LE, 2.5f) == 1 &&
	      rocshmem_float_test(fv, ROCSHMEM_CMP_GT, 2.0f) == 1 &&
	      rocshmem_float_test(fv, ROCSHMEM_CMP_NE, 2.5f) == 0 &&
	      rocshmem_float_test(fv, ROCSHMEM_CMP_GE, 3.0f) == 0,
	      "float test");
	*fv = 0;
	rocshmem_barrier_all();
	/* the peer's writes end each wait */
	rocshmem_float_p(fv, 1.75f, peer);
	rocshmem_char_p(cv, 'z', peer);
	rocshmem_float_wait_until(fv, ROCSHMEM_CMP_EQ, 1.75f);
	rocshmem_char_wait_until(cv, ROCSHMEM_CMP_EQ, 'z');
	CHECK(rocshmem_char_test(cv, ROCSHMEM_CMP_NE, 'z') == 0, "char");
	rocshmem_barrier_all();
	/* wait_until_all: the peer sets all four */
	for (int i = 0; i < 4; i++) {
		rocshmem_double_p(dv + i, 1.5 * (i + 1), peer);
		rocshmem_int_p(iv + i, i + 1, peer);
	}
	rocshmem_double_wait_until_all(dv, 4, NULL, ROCSHMEM_CMP_GE, 1.5);
	rocshmem_int_wait_until_all_vector(iv, 4, NULL, ROCSHMEM_CMP_GT, 0);
	/* some: ivars 1..3 are >= 2, status excludes 3 */
	int status[4] = { 0, 0, 0, 1 };
	size_t idx[4] = { 9, 9, 9, 9 };
	size_t n = rocshmem_int_wait_until_some(iv, 4, idx, status,
						ROCSHMEM_CMP_GE, 2);
	CHECK(n == 2 && idx[0] == 1 && idx[1] == 2, "some %zu", n);
	n = rocshmem_double_wait_until_some_vector(dv, 4, idx, NULL,
						   ROCSHMEM_CMP_GT, 4.0);
	CHECK(n == 2 && idx[0] == 2 && idx[1] == 3, "double some %zu", n);
	/* any: every satisfied index in turn */
	int seen = 0;
	for (int k = 0; k < 4; k++) {
		size_t i = rocshmem_int_wait_until_any(iv, 4, NULL,
						       ROCSHMEM_CMP_GE, 3);
		CHECK(i == 2 || i == 3, "any %zu", i);
		seen |= 1 << i;
	}
	CHECK(seen == 0xc, "any saw %#x", seen);
	size_t i = rocshmem_double_wait_until_any_vector(dv, 4, status,
							 ROCSHMEM_CMP_EQ, 4.5);
	CHECK(i == 2, "double any %zu", i);
	int all_out[4] = { 1, 1, 1, 1 };
	CHECK(rocshmem_float_wait_until_any(fv, 1, all_out, ROCSHMEM_CMP_EQ,
					    0.0f) == SIZE_MAX, "none included");
	rocshmem_barrier_all();
	rocshmem_free(iv);
	rocshmem_free(cv);
	rocshmem_free(fv);
	rocshmem_free(dv);
}

/* the ctx team reductions and broadcasts, exact values */
static void
case_coll(void)
{
	rocshmem_ctx_t c = ROCSHMEM_CTX_DEFAULT;
	rocshmem_team_t w = ROCSHMEM_TEAM_WORLD;
	int *is = rocshmem_malloc(2 * sizeof(int));
	int *id = rocshmem_malloc(2 * sizeof(int));
	double *ds = rocshmem_malloc(2 * sizeof(double));
	double *dd = rocshmem_malloc(2 * sizeof(double));
	short *ss = rocshmem_malloc(sizeof(short));
	short *sd = rocshmem_malloc(sizeof(short));
	CHECK(is && id && ds && dd && ss && sd, "malloc");
	is[0] = me + 1;
	is[1] = 1 << me;
	ds[0] = me + 0.5;
	ds[1] = -(double)me;
	*ss = (short)(0x0f0f | (1 << (me + 4)));
	int sum = npes * (npes + 1) / 2, prod = 1;
	for (int p = 1; p <= npes; p++)
		prod *= p;
	CHECK(rocshmem_ctx_int_sum_reduce(c, w, id, is, 1) == 0 &&
	      id[0] == sum, "int sum %d", id[0]);
	CHECK(rocshmem_ctx_int_prod_reduce(c, w, id, is, 1) == 0 &&
	      id[0] == prod, "int prod %d", id[0]);
	CHECK(rocshmem_ctx_int_max_reduce(c, w, id, is, 2) == 0 &&
	      id[0] == npes && id[1] == 1 << (npes - 1), "int max");
	CHECK(rocshmem_ctx_int_min_reduce(c, w, id, is, 2) == 0 &&
	      id[0] == 1 && id[1] == 1, "int min");
	CHECK(rocshmem_ctx_int_or_reduce(c, w, id, is + 1, 1) == 0 &&
	      id[0] == (1 << npes) - 1, "int or");
	CHECK(rocshmem_ctx_int_xor_reduce(c, w, id, is + 1, 1) == 0 &&
	      id[0] == (1 << npes) - 1, "int xor");
	CHECK(rocshmem_ctx_int_and_reduce(c, w, id, is + 1, 1) == 0 &&
	      id[0] == (npes == 1), "int and");
	CHECK(rocshmem_ctx_short_and_reduce(c, w, sd, ss, 1) == 0 &&
	      *sd == 0x0f0f, "short and %#x", *sd);
	CHECK(rocshmem_ctx_double_sum_reduce(c, w, dd, ds, 2) == 0 &&
	      dd[0] == sum - npes * 0.5 && dd[1] == -(double)(sum - npes),
	      "double sum %f %f", dd[0], dd[1]);
	CHECK(rocshmem_ctx_double_max_reduce(c, w, dd, ds, 1) == 0 &&
	      dd[0] == npes - 0.5, "double max");
	CHECK(rocshmem_ctx_int_sum_reduce(c, w, id, is, -1) ==
	      ROCSHMEM_ERROR, "negative nreduce");
	long *bs = rocshmem_malloc(3 * sizeof(long));
	long *bd = rocshmem_calloc(3, sizeof(long));
	CHECK(bs && bd, "malloc");
	for (int k = 0; k < 3; k++)
		bs[k] = me * 10 + k;
	int root = npes - 1;
	rocshmem_ctx_long_broadcast(c, w, bd, bs, 3, root);
	rocshmem_barrier_all();
	for (int k = 0; k < 3; k++)
		CHECK(bd[k] == root * 10 + k, "broadcast %d: %ld", k, bd[k]);
	rocshmem_barrier_all();
	rocshmem_free(bd);
	rocshmem_free(bs);
	rocshmem_free(sd);
	rocshmem_free(ss);
	rocshmem_free(dd);
	rocshmem_free(ds);
	rocshmem_free(id);
	rocshmem_free(is);
}

/* ---- stream-ordered operations on a Level Zero command list ---------- */

static ze_command_list_handle_t
make_list(int immediate)
{
	ze_context_handle_t ctx = shmemx_ze_context();
	ze_device_handle_t dev = shmemx_ze_device();
	ze_command_list_handle_t cl = NULL;
	ze_result_t r;
	if (immediate) {
		ze_command_queue_desc_t d = {
			.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
			.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
		};
		r = zeCommandListCreateImmediate(ctx, dev, &d, &cl);
	} else {
		ze_command_list_desc_t d = {
			.stype = ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC,
		};
		r = zeCommandListCreate(ctx, dev, &d, &cl);
	}
	CHECK(r == ZE_RESULT_SUCCESS, "command list: 0x%x", r);
	return cl;
}

static void
case_stream(void)
{
	int peer = (me + 1) % npes, from = (me + npes - 1) % npes;
	ze_command_list_handle_t cl = make_list(1);
	long *src = rocshmem_calloc(4, sizeof(long));
	long *dst = rocshmem_calloc(4 * npes, sizeof(long));
	long *stage = rocshmem_calloc(4, sizeof(long));
	uint64_t *sig = rocshmem_calloc(1, sizeof(uint64_t));
	CHECK(src && dst && stage && sig, "calloc");
	/* order: copy A fills src, the put sends it, copy B overwrites src
	 * after: the peer must see A's values, and src must end as B's */
	long a[2] = { 100 + me, 200 + me }, b[2] = { -1, -2 };
	ze_result_t r = zeCommandListAppendMemoryCopy(cl, src, a, sizeof(a),
						      NULL, 0, NULL);
	CHECK(r == ZE_RESULT_SUCCESS, "copy A 0x%x", r);
	CHECK(rocshmem_putmem_on_stream(dst, src, sizeof(a), peer, cl) ==
	      ROCSHMEM_SUCCESS, "putmem_on_stream");
	r = zeCommandListAppendMemoryCopy(cl, src, b, sizeof(b), NULL, 0,
					  NULL);
	CHECK(r == ZE_RESULT_SUCCESS, "copy B 0x%x", r);
	CHECK(rocshmem_quiet_on_stream(cl) == ROCSHMEM_SUCCESS, "quiet");
	CHECK(src[0] == -1 && src[1] == -2, "copy B done");
	CHECK(rocshmem_barrier_all_on_stream(cl) == ROCSHMEM_SUCCESS, "bar");
	CHECK(dst[0] == 100 + from && dst[1] == 200 + from,
	      "on-stream put in order: %ld %ld", dst[0], dst[1]);
	/* get: from the peer's dst into stage, then a copy of stage */
	long got[2] = { 0, 0 };
	CHECK(rocshmem_getmem_on_stream(stage, dst, sizeof(got), peer, cl) ==
	      ROCSHMEM_SUCCESS, "getmem_on_stream");
	r = zeCommandListAppendMemoryCopy(cl, got, stage, sizeof(got), NULL,
					  0, NULL);
	CHECK(r == ZE_RESULT_SUCCESS, "copy got 0x%x", r);
	/* an event after it sees it done */
	ze_event_pool_desc_t pd = {
		.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
		.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE, .count = 1,
	};
	ze_event_pool_handle_t pool = NULL;
	r = zeEventPoolCreate(shmemx_ze_context(), &pd, 0, NULL, &pool);
	CHECK(r == ZE_RESULT_SUCCESS, "event pool 0x%x", r);
	ze_event_desc_t ed = { .stype = ZE_STRUCTURE_TYPE_EVENT_DESC,
			       .signal = ZE_EVENT_SCOPE_FLAG_HOST };
	ze_event_handle_t ev = NULL;
	r = zeEventCreate(pool, &ed, &ev);
	CHECK(r == ZE_RESULT_SUCCESS, "event 0x%x", r);
	r = zeCommandListAppendSignalEvent(cl, ev);
	CHECK(r == ZE_RESULT_SUCCESS, "signal event 0x%x", r);
	r = zeEventHostSynchronize(ev, UINT64_MAX);
	CHECK(r == ZE_RESULT_SUCCESS, "event sync 0x%x", r);
	CHECK(got[0] == 100 + me && got[1] == 200 + me, "get %ld", got[0]);
	CHECK(zeEventDestroy(ev) == ZE_RESULT_SUCCESS &&
	      zeEventPoolDestroy(pool) == ZE_RESULT_SUCCESS, "event destroy");
	/* put with signal after a copy, and the wait on the list */
	long c3 = 300 + me;
	r = zeCommandListAppendMemoryCopy(cl, src + 2, &c3, sizeof(long),
					  NULL, 0, NULL);
	CHECK(r == ZE_RESULT_SUCCESS, "copy C 0x%x", r);
	CHECK(rocshmem_putmem_signal_on_stream(dst + 2, src + 2, sizeof(long),
					       sig, 7, ROCSHMEM_SIGNAL_SET,
					       peer, cl) == ROCSHMEM_SUCCESS,
	      "putmem_signal_on_stream");
	CHECK(rocshmem_signal_wait_until_on_stream(sig, ROCSHMEM_CMP_EQ, 7,
						   cl) == ROCSHMEM_SUCCESS,
	      "signal_wait_until_on_stream");
	CHECK(dst[2] == 300 + from, "signal payload %ld", dst[2]);
	CHECK(rocshmem_sync_all_on_stream(cl) == ROCSHMEM_SUCCESS, "sync");
	/* collectives on the list */
	for (int k = 0; k < 4; k++)
		stage[k] = me * 10 + k;
	CHECK(rocshmem_broadcastmem_on_stream(ROCSHMEM_TEAM_WORLD, src, stage,
					      2 * sizeof(long), 0, cl) ==
	      ROCSHMEM_SUCCESS, "broadcastmem_on_stream");
	rocshmem_barrier_all();
	CHECK(src[0] == 0 && src[1] == 1, "broadcast %ld %ld", src[0],
	      src[1]);
	long *as = rocshmem_malloc(npes * sizeof(long));
	long *ad = rocshmem_calloc(npes, sizeof(long));
	CHECK(as && ad, "malloc");
	for (int p = 0; p < npes; p++)
		as[p] = me * 100 + p;
	CHECK(rocshmem_alltoallmem_on_stream(ROCSHMEM_TEAM_WORLD, ad, as,
					     sizeof(long), cl) ==
	      ROCSHMEM_SUCCESS, "alltoallmem_on_stream");
	for (int p = 0; p < npes; p++)
		CHECK(ad[p] == p * 100 + me, "alltoall %d: %ld", p, ad[p]);
	/* OpenSHMEM's names of the same */
	CHECK(shmemx_putmem_on_queue(dst + 3, &c3, sizeof(long), peer, cl) ==
	      0 && shmemx_quiet_on_queue(cl) == 0 &&
	      shmemx_barrier_all_on_queue(cl) == 0, "on_queue");
	CHECK(dst[3] == 300 + from, "on_queue put %ld", dst[3]);
	/* a regular list: copies append, the host's operations refuse */
	ze_command_list_handle_t rl = make_list(0);
	/* (a peer this process does not map, as every one under
	 * ZESHMEM_BACKEND=gda: the put needs the host, refused too) */
	int mapped = rocshmem_ptr(dst, peer) != NULL;
	CHECK(rocshmem_putmem_on_stream(dst, src, sizeof(long), peer, rl) ==
	      (mapped ? ROCSHMEM_SUCCESS : ROCSHMEM_ERROR),
	      "regular list: put appends (mapped %d)", mapped);
	CHECK(rocshmem_quiet_on_stream(rl) == ROCSHMEM_ERROR,
	      "regular list: quiet refused");
	CHECK(shmemx_sync_all_on_queue(rl) == -1, "regular: sync refused");
	CHECK(rocshmem_quiet_on_stream(NULL) == ROCSHMEM_ERROR, "no list");
	/* a wait on data an appended put wrote ends (the writer's drain
	 * rings the doorbell the copy engine does not) */
	long *w = rocshmem_calloc(1, sizeof(long));
	CHECK(w, "calloc");
	long wv = 500 + me;
	if (me == 0)
		sleep(1); /* let the others' waits go to sleep first */
	CHECK(rocshmem_putmem_on_stream(w, &wv, sizeof(long), peer, cl) ==
	      ROCSHMEM_SUCCESS &&
	      rocshmem_quiet_on_stream(cl) == ROCSHMEM_SUCCESS, "put w");
	rocshmem_long_wait_until(w, ROCSHMEM_CMP_EQ, 500 + from);
	rocshmem_barrier_all();
	rocshmem_free(w);
	/* the stream routines count as their plain forms */
	rocshmem_reset_stats();
	CHECK(rocshmem_putmem_on_stream(dst + 3, &c3, sizeof(long), peer,
					cl) == ROCSHMEM_SUCCESS &&
	      rocshmem_quiet_on_stream(cl) == ROCSHMEM_SUCCESS, "counted");
	rocshmem_dump_stats();
	CHECK(zeCommandListDestroy(rl) == ZE_RESULT_SUCCESS, "destroy rl");
	CHECK(zeCommandListDestroy(cl) == ZE_RESULT_SUCCESS, "destroy cl");
	rocshmem_barrier_all();
	rocshmem_free(ad);
	rocshmem_free(as);
	rocshmem_free(sig);
	rocshmem_free(stage);
	rocshmem_free(dst);
	rocshmem_free(src);
}

/* This PE's node in the job as the environment makes it
 * (ROC_PE_NODE_PES=k: k PEs a node; ZESHMEM_FORCE_NETWORK=1: one PE a
 * node; else one node): its first PE and its number of PEs. */
static void
node_group(int *first, int *size)
{
	const char *k = getenv("ROC_PE_NODE_PES");
	const char *f = getenv("ZESHMEM_FORCE_NETWORK");
	int per = k && atoi(k) > 0 ? atoi(k) : f && atoi(f) == 1 ? 1 : npes;
	*first = me / per * per;
	*size = per < npes - *first ? per : npes - *first;
}

/* rocshmem_sym_buffer_register / buffer_register_vmm: the PEs of each
 * node map one shared file, the node's PE i's buffer at base + i *
 * stride in every process of it. sym_buffer_register (collective): RMA,
 * atomics and get reach every PE through the registration of the local
 * buffer (node peers through the stride, others over the network),
 * rocshmem_ptr the node peers; all-or-nothing refusals.
 * buffer_register_vmm (local): the node peers of the group only. */
static void
case_stride(void)
{
	const size_t stride = 64 * 1024, len = 4096;
	int peer = (me + 1) % npes, from = (me + npes - 1) % npes;
	int nf, nn;
	node_group(&nf, &nn);
	int lr = me - nf;
	char *name = rocshmem_calloc(64, 1);
	CHECK(name, "calloc");
	if (me == 0) {
		snprintf(name, 48, "/rocpe-stride-%d", (int)getpid());
		for (int pe = 1; pe < npes; pe++)
			rocshmem_putmem(name, name, 64, pe);
		rocshmem_quiet();
	}
	rocshmem_barrier_all();
	snprintf(name + strlen(name), 16, "-%d", nf);
	if (lr == 0) {
		int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
		CHECK(fd >= 0, "shm_open: %s", strerror(errno));
		CHECK(ftruncate(fd, (off_t)(stride * nn)) == 0, "truncate");
		close(fd);
	}
	rocshmem_barrier_all();
	int fd = shm_open(name, O_RDWR, 0600);
	CHECK(fd >= 0, "shm_open %s: %s", name, strerror(errno));
	char *base = mmap(NULL, stride * nn, PROT_READ | PROT_WRITE,
			  MAP_SHARED, fd, 0);
	CHECK(base != MAP_FAILED, "mmap");
	close(fd);
	rocshmem_barrier_all();
	if (lr == 0)
		shm_unlink(name);
	long *mine = (long *)(base + lr * stride);
	bool peer_here = peer >= nf && peer < nf + nn;
	char *peer_copy = base + (peer - nf) * stride;

	/* 1. sym_buffer_register: every PE, each with its node's group */
	CHECK(rocshmem_sym_buffer_register(mine, len, lr, nn,
					   (ptrdiff_t)stride) == 0,
	      "sym register");
	CHECK(rocshmem_ptr(mine + 1, peer) ==
		      (peer_here ? peer_copy + sizeof(long) : NULL),
	      "rocshmem_ptr");
	rocshmem_long_p(mine + 1, 100 + me, peer);
	long two[2] = { 200 + me, 300 + me };
	rocshmem_putmem(mine + 2, two, sizeof(two), peer);
	rocshmem_long_atomic_add(mine + 4, me + 1, 0);
	CHECK(rocshmem_long_atomic_fetch_add(mine + 5, 1, peer) >= 0, "fadd");
	rocshmem_quiet();
	rocshmem_barrier_all();
	CHECK(mine[1] == 100 + from && mine[2] == 200 + from &&
	      mine[3] == 300 + from && mine[5] == 1,
	      "put through the registration: %ld %ld %ld %ld", mine[1],
	      mine[2], mine[3], mine[5]);
	if (me == 0)
		CHECK(mine[4] == npes * (npes + 1) / 2, "atomics %ld",
		      mine[4]);
	long g = 0;
	rocshmem_getmem(&g, mine + 1, sizeof(long), peer);
	CHECK(g == 100 + me, "get %ld", g);
	/* refusals, each with one warning: local ones */
	CHECK(rocshmem_buffer_register_vmm(mine, 64, lr, nn,
					   (ptrdiff_t)stride) == -1,
	      "overlap");
	CHECK(rocshmem_buffer_register_vmm(NULL, 64, 0, 1, 0) == -1, "NULL");
	/* (a group of two around this PE, whatever its node's size) */
	CHECK(npes < 2 ||
		      rocshmem_buffer_register_vmm(base + lr * stride + len,
						   2 * len, me > 0, 2,
						   (ptrdiff_t)len) == -1,
	      "stride < length");
	CHECK(rocshmem_sym_buffer_unregister(mine + 1) == -1, "unknown");
	/* collective ones: every PE's arguments bad, then PE 0's alone
	 * (every PE returns -1; the others name PE 0) */
	char *more = base + lr * stride + len;
	CHECK(rocshmem_sym_buffer_register(more, 64, nn, nn, 0) == -1,
	      "my_pe");
	CHECK(rocshmem_sym_buffer_register(more, 64, me == 0 ? nn : lr, nn,
					   (ptrdiff_t)stride) == -1,
	      "PE 0 refused");
	rocshmem_barrier_all();
	CHECK(rocshmem_sym_buffer_unregister(mine) == 0, "unregister");
	CHECK(rocshmem_ptr(mine, peer) == NULL || peer == me, "forgotten");
	rocshmem_barrier_all();

	/* 2. buffer_register_vmm (local): the node's ring */
	memset(mine, 0, 64);
	rocshmem_barrier_all();
	CHECK(rocshmem_buffer_register_vmm(mine, len, lr, nn,
					   (ptrdiff_t)stride) == 0,
	      "vmm register");
	int np = nf + (lr + 1) % nn, nfrom = nf + (lr + nn - 1) % nn;
	CHECK(rocshmem_ptr(mine + 1, np) ==
		      base + (np - nf) * stride + sizeof(long),
	      "rocshmem_ptr vmm");
	rocshmem_long_p(mine + 1, 400 + me, np);
	rocshmem_quiet();
	rocshmem_barrier_all();
	CHECK(mine[1] == 400 + nfrom, "vmm put %ld", mine[1]);
	CHECK(rocshmem_sym_buffer_unregister(mine) == 0, "unregister vmm");
	/* a group of one: the others are not reached through it */
	CHECK(rocshmem_buffer_register_vmm(mine, len, 0, 1, 0) == 0, "one");
	CHECK(rocshmem_ptr(mine, peer) == NULL || peer == me,
	      "outside the group");
	CHECK(rocshmem_sym_buffer_unregister(mine) == 0, "unregister one");
	rocshmem_barrier_all();
	CHECK(munmap(base, stride * nn) == 0, "munmap");
	rocshmem_free(name);
}

/* ---- the active-set broadcast (rocshmem.hpp's overload in C) ----------- */

#define BA_N 3
#define BA_UNSET 120 /* above every value sent: pe * 16 + k + 1 <= 115 */

/* One broadcast of each type over the active set (start, log_stride,
 * size) from its index root: a member other than the root gets the
 * root's values, the root's dest and every other PE's stay BA_UNSET. */
#define BA_TYPE(T, N, A) \
	static void ba_##N(int start, int log_stride, int size, int root, \
			   long *ps) \
	{ \
		T *src = rocshmem_malloc(BA_N * sizeof(T)); \
		T *dst = rocshmem_malloc(BA_N * sizeof(T)); \
		CHECK(src && dst, #N ": malloc"); \
		for (int k = 0; k < BA_N; k++) { \
			src[k] = (T)(me * 16 + k + 1); \
			dst[k] = (T)BA_UNSET; \
		} \
		int stride = 1 << log_stride, off = me - start; \
		int member = off >= 0 && off % stride == 0 && \
			     off / stride < size; \
		int root_pe = start + root * stride; \
		rocshmem_barrier_all(); \
		if (member) \
			rocshmemx_ctx_##N##_broadcast_active( \
				ROCSHMEM_CTX_DEFAULT, dst, src, BA_N, root, \
				start, log_stride, size, ps); \
		rocshmem_barrier_all(); \
		for (int k = 0; k < BA_N; k++) { \
			T want = member && me != root_pe \
					 ? (T)(root_pe * 16 + k + 1) \
					 : (T)BA_UNSET; \
			CHECK(dst[k] == want, #N " set %d/%d/%d root %d: " \
			      "dest[%d] %g, not %g", start, log_stride, size, \
			      root, k, (double)dst[k], (double)want); \
		} \
		for (size_t k = 0; k < ROCSHMEM_BCAST_SYNC_SIZE; k++) \
			CHECK(ps[k] == (long)ROCSHMEM_SYNC_VALUE, \
			      #N ": pSync[%zu] %ld on return", k, ps[k]); \
		rocshmem_barrier_all(); \
		rocshmem_free(dst); \
		rocshmem_free(src); \
	}
ROCSHMEM_BCAST_TYPES(BA_TYPE, )

static void
ba_all(int start, int log_stride, int size, int root, long *ps)
{
#define BA_CALL(T, N, A) ba_##N(start, log_stride, size, root, ps);
	ROCSHMEM_BCAST_TYPES(BA_CALL, )
#undef BA_CALL
}

static void
case_bcast_active(void)
{
	long *ps = rocshmem_malloc(ROCSHMEM_BCAST_SYNC_SIZE * sizeof(long));
	CHECK(ps, "malloc pSync");
	for (size_t k = 0; k < ROCSHMEM_BCAST_SYNC_SIZE; k++)
		ps[k] = (long)ROCSHMEM_SYNC_VALUE;
	/* the even PEs, rooted at the last of them */
	int evens = (npes + 1) / 2;
	ba_all(0, 1, evens, evens - 1, ps);
	/* every PE but PE 0, rooted at the second of them */
	ba_all(1, 0, npes - 1, npes > 2 ? 1 : 0, ps);
	/* the PEs 1, 5 (stride 4) where there are 8 */
	if (npes >= 6)
		ba_all(1, 2, 2, 0, ps);
	/* the whole job, rooted at its last PE */
	ba_all(0, 0, npes, npes - 1, ps);

	/* bad input: one warning each, nothing written, nothing ends */
	int *src = rocshmem_malloc(2 * sizeof(int));
	int *dst = rocshmem_malloc(2 * sizeof(int));
	CHECK(src && dst, "malloc");
	src[0] = src[1] = 7;
	dst[0] = dst[1] = -1;
	long stack_ps[ROCSHMEM_BCAST_SYNC_SIZE] = { 0 };
	int local[2] = { -1, -1 };
	rocshmem_barrier_all();
	rocshmem_ctx_t c = ROCSHMEM_CTX_DEFAULT;
	rocshmemx_ctx_int_broadcast_active(c, dst, src, 2, 0, 0, 0, 0, ps);
	rocshmemx_ctx_int_broadcast_active(c, dst, src, 2, 0, npes, 0, 1, ps);
	rocshmemx_ctx_int_broadcast_active(c, dst, src, 2, 0, 0, 0, npes + 1,
					   ps);
	rocshmemx_ctx_int_broadcast_active(c, dst, src, 2, 1, me, 0, 1, ps);
	rocshmemx_ctx_int_broadcast_active(c, NULL, src, 2, 0, me, 0, 1, ps);
	rocshmemx_ctx_int_broadcast_active(c, dst, src, -1, 0, me, 0, 1, ps);
	rocshmemx_ctx_int_broadcast_active(c, dst, src, 2, 0,
					   (me + 1) % npes, 0, 1, ps);
	rocshmemx_ctx_int_broadcast_active(c, dst, src, 2, 0, me, 0, 1,
					   stack_ps);
	rocshmemx_ctx_int_broadcast_active(c, local, src, 2, 0, me, 0, 1, ps);
	CHECK(dst[0] == -1 && dst[1] == -1 && local[0] == -1 &&
	      local[1] == -1, "bad input wrote dest");
	/* nelems 0 on a set of one: nothing to do, no warning */
	rocshmemx_ctx_int_broadcast_active(c, NULL, NULL, 0, 0, me, 0, 1, ps);
	rocshmem_barrier_all();
	rocshmem_free(dst);
	rocshmem_free(src);
	rocshmem_free(ps);
}

/* ---- main --------------------------------------------------------------- */

static const struct {
	const char *name;
	void (*fn)(void);
} cases[] = {
	{ "hello", case_hello }, { "align", case_align },
	{ "calloc", case_calloc }, { "reg", case_reg },
	{ "reg_remote", case_reg_remote }, { "symreg", case_symreg },
	{ "symreg_refuse", case_symreg_refuse }, { "rma", case_rma },
	{ "amo", case_amo }, { "wait", case_wait }, { "teams", case_teams },
	{ "symreg_net", case_symreg_net },
	{ "symreg_own", case_symreg_own },
	{ "global_exit", case_global_exit },
	{ "info", case_info }, { "ctx", case_ctx }, { "waits", case_waits },
	{ "coll", case_coll }, { "stream", case_stream },
	{ "stride", case_stride }, { "bcast_active", case_bcast_active },
};

static int
run_case(const char *name)
{
	me = rocshmem_my_pe();
	npes = rocshmem_n_pes();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (strcmp(cases[i].name, name))
			continue;
		cases[i].fn();
		rocshmem_barrier_all();
		printf("PE %d: %s ok\n", me, name);
		fflush(stdout);
		return 0;
	}
	fprintf(stderr, "roc_pe: unknown case %s\n", name);
	return 2;
}

static void
hex_of(const rocshmem_uniqueid_t *u, char *hex)
{
	for (size_t i = 0; i < sizeof(u->internal); i++)
		sprintf(hex + 2 * i, "%02x", u->internal[i]);
}

static int
uid_of(const char *hex, rocshmem_uniqueid_t *u)
{
	if (strlen(hex) != 2 * sizeof(u->internal))
		return -1;
	for (size_t i = 0; i < sizeof(u->internal); i++) {
		unsigned b;
		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			return -1;
		u->internal[i] = (unsigned char)b;
	}
	return 0;
}

/* ROC_PE_NODE_PES=k: this PE is on "node" rank / k (ZESHMEM_HOST_ID),
 * so one machine holds a job of several nodes (a mixed job: IPC inside
 * each, libfabric between them). Before init. */
static void
node_of_rank(int rank)
{
	const char *k = getenv("ROC_PE_NODE_PES");
	if (!k || atoi(k) <= 0)
		return;
	char id[64];
	snprintf(id, sizeof(id), "roc-node-%d", rank / atoi(k));
	setenv("ZESHMEM_HOST_ID", id, 1);
}

static int
uid_rank(int rank, int n, rocshmem_uniqueid_t *uid, const char *name)
{
	node_of_rank(rank);
	rocshmem_init_attr_t attr;
	memset(&attr, 0, sizeof(attr));
	if (rocshmem_set_attr_uniqueid_args(rank, n, uid, &attr) !=
	    ROCSHMEM_SUCCESS)
		return 2;
	if (rocshmem_init_attr(ROCSHMEM_INIT_WITH_UNIQUEID, &attr) !=
	    ROCSHMEM_SUCCESS)
		return 2;
	int rc = run_case(name);
	rocshmem_finalize();
	return rc;
}

/* rank 0 of a unique-id job of n: the id, ranks 1..n-1 started, init. */
static int
uid_root(int n, const char *name)
{
	rocshmem_uniqueid_t uid = ROCSHMEM_UNIQUEID_INITIALIZER;
	if (rocshmem_get_uniqueid(&uid) != ROCSHMEM_SUCCESS)
		return 2;
	char hex[2 * ROCSHMEM_UNIQUEID_BYTES + 1], rs[16], ns[16];
	hex_of(&uid, hex);
	snprintf(ns, sizeof(ns), "%d", n);
	pid_t kids[64];
	if (n < 1 || n > 64)
		return 2;
	for (int r = 1; r < n; r++) {
		snprintf(rs, sizeof(rs), "%d", r);
		kids[r] = fork();
		if (kids[r] == 0) {
			execl(prog, prog, "uidpe", rs, ns, hex, name,
			      (char *)NULL);
			_exit(127);
		}
		if (kids[r] < 0)
			return 2;
	}
	int rc = uid_rank(0, n, &uid, name);
	for (int r = 1; r < n; r++) {
		int ws;
		/* bounded by the test's job timeout, which kills the group */
		if (waitpid(kids[r], &ws, 0) != kids[r] || !WIFEXITED(ws) ||
		    WEXITSTATUS(ws))
			rc = rc ? rc : 3;
	}
	return rc;
}

int
main(int argc, char **argv)
{
	prog = argv[0];
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && !strcmp(argv[1], "uid"))
		return uid_root(atoi(argv[2]), argv[3]);
	if (argc == 6 && !strcmp(argv[1], "uidpe")) {
		rocshmem_uniqueid_t uid;
		if (uid_of(argv[4], &uid))
			return 2;
		return uid_rank(atoi(argv[2]), atoi(argv[3]), &uid, argv[5]);
	}
	if (argc != 2) {
		fprintf(stderr, "usage: roc_pe CASE | uid N CASE\n");
		return 2;
	}
	const char *r = getenv("ZESHMEM_RANK");
	node_of_rank(r ? atoi(r) : 0);
	if (rocshmem_init() != ROCSHMEM_SUCCESS)
		return 2;
	int rc = run_case(argv[1]);
	rocshmem_finalize();
	return rc;
}
