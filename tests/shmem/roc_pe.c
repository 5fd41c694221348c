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
#include <signal.h>
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
