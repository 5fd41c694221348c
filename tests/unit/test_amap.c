// SPDX-License-Identifier: MIT
/*
 * test_amap: the driver's address map (driver/amap) on its own, with the
 * bottom floor (drv_core.c) and a real USM heap under it: a lookup of
 * every kind (USM block, IPC import, physical import, VMM reservation and
 * mapping) from its base, an interior byte, its last byte and one past
 * it; registration errors; what a copy's range check (amap_span) says of
 * each kind, of another context's ranges and of system memory; taking a
 * context's entries out; fork with the map's lock held elsewhere.
 *
 * Every test runs in check's forked child inside a leakcheck fixture, but
 * the one with a thread (glibc keeps a joined thread's stack mapped).
 */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "amap/amap.h"
#include "leakcheck.h"

static struct leakcheck lc;
/* Two context objects (amap compares the pointers only). */
static struct _ze_context_handle_t *A = &drv_contexts[1];
static struct _ze_context_handle_t *B = &drv_contexts[2];

static void
setup(void)
{
	leakcheck_begin(&lc);
	ck_assert_int_eq(usm_heap_create(&drv_driver.heap), 0);
	amap_init();
}

static void
teardown(void)
{
	usm_heap_destroy(drv_driver.heap);
	drv_driver.heap = NULL;
	leakcheck_end(&lc);
}

/* For the thread test: glibc keeps a joined thread's stack mapped. */
static void
setup_threads(void)
{
	ck_assert_int_eq(usm_heap_create(&drv_driver.heap), 0);
	amap_init();
}

static void
teardown_threads(void)
{
	usm_heap_destroy(drv_driver.heap);
	drv_driver.heap = NULL;
}

/* Address ranges that are never mapped: amap only records numbers. */
#define R(n) ((void *)((uintptr_t)0x7e0000000000ull + ((uintptr_t)(n) << 20)))

static struct usm_info
range(void *base, size_t size, struct _ze_context_handle_t *ctx,
      enum usm_kind kind, uint64_t id)
{
	struct usm_info i = {
		.base = base, .size = size, .kind = kind, .id = id, .ctx = ctx,
		.fd = -1, .page_size = 4096,
	};
	return i;
}

static void
expect(const void *p, enum amap_kind kind, const void *base, size_t size,
       void *owner)
{
	struct amap_hit h;
	int err = amap_find(p, &h);
	ck_assert_msg(h.kind == kind, "%p: kind %d, want %d", p, h.kind, kind);
	if (kind == AMAP_NONE) {
		ck_assert_int_eq(err, -ENOENT);
		return;
	}
	ck_assert_int_eq(err, 0);
	ck_assert_ptr_eq(h.info.base, base);
	ck_assert_uint_eq(h.info.size, size);
	ck_assert_ptr_eq(h.owner, owner);
}

/* ---- negative cases ------------------------------------------------------ */

START_TEST(test_amap_add_bad)
{
	struct usm_info i = range(R(1), 1 << 20, A, USM_KIND_DEVICE, 1);
	int owner;
	/* kinds that are not registered here */
	ck_assert_int_eq(amap_add(AMAP_NONE, &i, &owner, false), -EINVAL);
	ck_assert_int_eq(amap_add(AMAP_USM_BLOCK, &i, &owner, false), -EINVAL);
	ck_assert_int_eq(amap_add(AMAP_KIND_COUNT, &i, &owner, false),
			 -EINVAL);
	/* empty, wrapping */
	struct usm_info e = range(R(1), 0, A, USM_KIND_HOST, 1);
	ck_assert_int_eq(amap_add(AMAP_IPC_IMPORT, &e, &owner, false),
			 -EINVAL);
	struct usm_info w = range((void *)(UINTPTR_MAX - 4095), 8192, A,
				  USM_KIND_HOST, 1);
	ck_assert_int_eq(amap_add(AMAP_IPC_IMPORT, &w, &owner, false),
			 -EINVAL);
	/* overlaps in its layer: either end, inside, around */
	ck_assert_int_eq(amap_add(AMAP_IPC_IMPORT, &i, &owner, false), 0);
	struct usm_info o[] = {
		range((char *)R(1) - 4096, 8192, A, USM_KIND_HOST, 2),
		range((char *)R(2) - 4096, 8192, A, USM_KIND_HOST, 2),
		range((char *)R(1) + 4096, 4096, A, USM_KIND_HOST, 2),
		range(R(0), 3 << 20, A, USM_KIND_HOST, 2),
	};
	for (unsigned k = 0; k < 4; k++) {
		ck_assert_int_eq(amap_add(AMAP_PHYS_IMPORT, &o[k], &owner,
					  false), -EINVAL);
		ck_assert_int_eq(amap_add(AMAP_VMM_RESV, &o[k], &owner, false),
				 -EINVAL);
	}
	/* unregistering what is not there */
	ck_assert_int_eq(amap_del(AMAP_IPC_IMPORT, (char *)R(1) + 1), -ENOENT);
	ck_assert_int_eq(amap_del(AMAP_PHYS_IMPORT, R(1)), -ENOENT);
	ck_assert_int_eq(amap_del(AMAP_VMM_MAP, R(1)), -ENOENT);
	ck_assert_int_eq(amap_del(AMAP_USM_BLOCK, R(1)), -EINVAL);
	ck_assert_int_eq(amap_del(AMAP_IPC_IMPORT, R(1)), 0);
	ck_assert_int_eq(amap_del(AMAP_IPC_IMPORT, R(1)), -ENOENT);
	size_t n[AMAP_KIND_COUNT];
	amap_counts(n);
	for (unsigned k = 0; k < AMAP_KIND_COUNT; k++)
		ck_assert_uint_eq(n[k], 0);
}
END_TEST

START_TEST(test_amap_find_none)
{
	int local;
	expect(NULL, AMAP_NONE, NULL, 0, NULL);
	expect(&local, AMAP_NONE, NULL, 0, NULL);
	expect(R(5), AMAP_NONE, NULL, 0, NULL);
	struct usm_info i = range(R(5), 4096, A, USM_KIND_HOST, 1);
	ck_assert_int_eq(amap_add(AMAP_IPC_IMPORT, &i, &local, false), 0);
	expect((char *)R(5) - 1, AMAP_NONE, NULL, 0, NULL);
	expect((char *)R(5) + 4096, AMAP_NONE, NULL, 0, NULL);
	ck_assert_int_eq(amap_del(AMAP_IPC_IMPORT, R(5)), 0);
	expect(R(5), AMAP_NONE, NULL, 0, NULL);
}
END_TEST

/* ---- every kind ------------------------------------------------------------ */

START_TEST(test_amap_find_every_kind)
{
	int ipc, phys, resv, map1, map2;
	void *usm = NULL;
	struct usm_req rq = { .kind = USM_KIND_DEVICE, .size = 100, .ctx = A };
	ck_assert_int_eq(usm_alloc(drv_driver.heap, &rq, &usm), 0);
	struct usm_info ii = range(R(1), 3 << 20, A, USM_KIND_DEVICE, 11);
	struct usm_info pi = range(R(8), 4 << 20, B, USM_KIND_HOST, 12);
	struct usm_info ri = range(R(16), 8 << 20, A, 0, 0);
	struct usm_info m1 = range(R(17), 1 << 20, A, USM_KIND_DEVICE, 13);
	struct usm_info m2 = range(R(18), 2 << 20, A, USM_KIND_HOST, 14);
	ck_assert_int_eq(amap_add(AMAP_IPC_IMPORT, &ii, &ipc, true), 0);
	ck_assert_int_eq(amap_add(AMAP_PHYS_IMPORT, &pi, &phys, false), 0);
	ck_assert_int_eq(amap_add(AMAP_VMM_RESV, &ri, &resv, false), 0);
	ck_assert_int_eq(amap_add(AMAP_VMM_MAP, &m1, &map1, false), 0);
	ck_assert_int_eq(amap_add(AMAP_VMM_MAP, &m2, &map2, false), 0);
	size_t n[AMAP_KIND_COUNT];
	amap_counts(n);
	ck_assert_uint_eq(n[AMAP_IPC_IMPORT], 1);
	ck_assert_uint_eq(n[AMAP_PHYS_IMPORT], 1);
	ck_assert_uint_eq(n[AMAP_VMM_RESV], 1);
	ck_assert_uint_eq(n[AMAP_VMM_MAP], 2);
	/* USM: from the allocator's index, every field of the block */
	struct amap_hit h;
	for (size_t off = 0; off < 100; off += 33) {
		ck_assert_int_eq(amap_find((char *)usm + off, &h), 0);
		ck_assert_int_eq(h.kind, AMAP_USM_BLOCK);
		ck_assert_ptr_eq(h.info.base, usm);
		ck_assert_uint_eq(h.info.size, 100);
		ck_assert_ptr_eq(h.info.ctx, A);
		ck_assert_int_eq(h.info.kind, USM_KIND_DEVICE);
		ck_assert_ptr_null(h.owner);
	}
	/* each registered kind from its base, inside, its last byte; one
	 * past the end is the next thing or nothing */
	const struct {
		const struct usm_info *i;
		enum amap_kind kind;
		void *owner;
	} all[] = {
		{ &ii, AMAP_IPC_IMPORT, &ipc },
		{ &pi, AMAP_PHYS_IMPORT, &phys },
		{ &m1, AMAP_VMM_MAP, &map1 },
		{ &m2, AMAP_VMM_MAP, &map2 },
	};
	for (unsigned k = 0; k < 4; k++) {
		char *b = all[k].i->base;
		size_t sz = all[k].i->size;
		const char *at[] = { b, b + sz / 2, b + sz - 1 };
		for (unsigned j = 0; j < 3; j++)
			expect(at[j], all[k].kind, b, sz, all[k].owner);
		ck_assert_int_eq(amap_find(b, &h), 0);
		ck_assert_ptr_eq(h.info.ctx, all[k].i->ctx);
		ck_assert_uint_eq(h.info.id, all[k].i->id);
		ck_assert_int_eq(h.info.kind, all[k].i->kind);
		ck_assert_int_eq(h.external, all[k].kind == AMAP_IPC_IMPORT);
	}
	expect((char *)R(1) + (3 << 20), AMAP_NONE, NULL, 0, NULL);
	/* a reservation: its mappings answer for their pages, the
	 * reservation for the rest */
	expect(R(16), AMAP_VMM_RESV, R(16), 8 << 20, &resv);
	expect((char *)R(17) - 1, AMAP_VMM_RESV, R(16), 8 << 20, &resv);
	expect((char *)R(20), AMAP_VMM_RESV, R(16), 8 << 20, &resv);
	expect((char *)R(24) - 1, AMAP_VMM_RESV, R(16), 8 << 20, &resv);
	expect(R(24), AMAP_NONE, NULL, 0, NULL);
	/* unmapping the reservation's pages drops its mappings only */
	ck_assert_uint_eq(amap_del_maps(R(16), 8 << 20), 2);
	expect(R(17), AMAP_VMM_RESV, R(16), 8 << 20, &resv);
	ck_assert_int_eq(amap_del(AMAP_VMM_RESV, R(16)), 0);
	ck_assert_int_eq(amap_del(AMAP_PHYS_IMPORT, R(8)), 0);
	ck_assert_int_eq(amap_del(AMAP_IPC_IMPORT, R(1)), 0);
	ck_assert_int_eq(usm_free(drv_driver.heap, usm, A, NULL), 0);
	expect(usm, AMAP_NONE, NULL, 0, NULL);
	expect(R(18), AMAP_NONE, NULL, 0, NULL);
}
END_TEST

/* ---- copies: amap_span ------------------------------------------------------ */

START_TEST(test_amap_span)
{
	int o;
	void *usm = NULL;
	struct usm_req rq = { .kind = USM_KIND_HOST, .size = 256, .ctx = B };
	ck_assert_int_eq(usm_alloc(drv_driver.heap, &rq, &usm), 0);
	struct usm_info ii = range(R(1), 1 << 20, A, USM_KIND_HOST, 1);
	struct usm_info ri = range(R(4), 8 << 20, A, 0, 0);
	struct usm_info m1 = range(R(5), 1 << 20, A, USM_KIND_HOST, 2);
	struct usm_info m2 = range(R(6), 1 << 20, A, USM_KIND_HOST, 3);
	struct usm_info m3 = range(R(8), 1 << 20, A, USM_KIND_HOST, 4);
	struct usm_info rb = range(R(16), 2 << 20, B, 0, 0);
	struct usm_info mb = range(R(16), 2 << 20, B, USM_KIND_HOST, 5);
	ck_assert_int_eq(amap_add(AMAP_IPC_IMPORT, &ii, &o, false), 0);
	ck_assert_int_eq(amap_add(AMAP_VMM_RESV, &ri, &o, false), 0);
	ck_assert_int_eq(amap_add(AMAP_VMM_MAP, &m1, &o, false), 0);
	ck_assert_int_eq(amap_add(AMAP_VMM_MAP, &m2, &o, false), 0);
	ck_assert_int_eq(amap_add(AMAP_VMM_MAP, &m3, &o, false), 0);
	ck_assert_int_eq(amap_add(AMAP_VMM_RESV, &rb, &o, false), 0);
	ck_assert_int_eq(amap_add(AMAP_VMM_MAP, &mb, &o, false), 0);
	struct amap_hit h;
	const struct {
		const void *p;
		size_t size;
		enum amap_span want;
		enum amap_kind kind;
	} c[] = {
		/* USM of any context */
		{ usm, 256, AMAP_SPAN_IN, AMAP_USM_BLOCK },
		{ (char *)usm + 255, 1, AMAP_SPAN_IN, AMAP_USM_BLOCK },
		{ (char *)usm + 1, 256, AMAP_SPAN_PAST, AMAP_USM_BLOCK },
		/* A's import */
		{ R(1), 1 << 20, AMAP_SPAN_IN, AMAP_IPC_IMPORT },
		{ (char *)R(2) - 8, 9, AMAP_SPAN_PAST, AMAP_IPC_IMPORT },
		/* A's reservation: two adjacent mappings are one range,
		 * a hole or the unmapped rest is not */
		{ R(5), 2 << 20, AMAP_SPAN_IN, AMAP_VMM_MAP },
		{ (char *)R(6) - 4096, 8192, AMAP_SPAN_IN, AMAP_VMM_MAP },
		{ R(5), 3 << 20, AMAP_SPAN_PAST, AMAP_VMM_MAP },
		{ R(8), 5 << 20, AMAP_SPAN_PAST, AMAP_VMM_MAP },
		{ R(4), 4096, AMAP_SPAN_PAST, AMAP_VMM_RESV },
		{ R(7), 1, AMAP_SPAN_PAST, AMAP_VMM_RESV },
		/* B's reservation is system memory to A */
		{ R(16), 4096, AMAP_SPAN_NONE, AMAP_NONE },
		/* nothing there */
		{ R(30), 1 << 20, AMAP_SPAN_NONE, AMAP_NONE },
	};
	for (unsigned k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		enum amap_span s = amap_span(A, c[k].p, c[k].size, &h);
		ck_assert_msg(s == c[k].want && h.kind == c[k].kind,
			      "case %u: span %d kind %d, want %d %d", k, s,
			      h.kind, c[k].want, c[k].kind);
	}
	ck_assert_int_eq(amap_span(B, R(16), 2 << 20, &h), AMAP_SPAN_IN);
	ck_assert_int_eq(amap_span(B, R(1), 1, &h), AMAP_SPAN_NONE);
	ck_assert_uint_eq(amap_del_maps(R(4), 8 << 20), 3);
	ck_assert_uint_eq(amap_del_maps(R(16), 2 << 20), 1);
	ck_assert_int_eq(amap_del(AMAP_VMM_RESV, R(4)), 0);
	ck_assert_int_eq(amap_del(AMAP_VMM_RESV, R(16)), 0);
	ck_assert_int_eq(amap_del(AMAP_IPC_IMPORT, R(1)), 0);
	ck_assert_int_eq(usm_free(drv_driver.heap, usm, B, NULL), 0);
}
END_TEST

/* ---- contexts, many entries, fork ------------------------------------------ */

START_TEST(test_amap_take_ctx)
{
	static int owners[64];
	for (int i = 0; i < 64; i++) {
		struct usm_info in = range(R(2 * i), 4096, i % 2 ? B : A,
					   USM_KIND_HOST, (uint64_t)i + 1);
		enum amap_kind k = i % 4 < 2 ? AMAP_IPC_IMPORT
					     : AMAP_PHYS_IMPORT;
		ck_assert_int_eq(amap_add(k, &in, &owners[i], false), 0);
	}
	void **got;
	size_t n;
	ck_assert_int_eq(amap_take_ctx(AMAP_VMM_MAP, A, &got, &n), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(got);
	ck_assert_int_eq(amap_take_ctx(AMAP_IPC_IMPORT, A, &got, &n), 0);
	ck_assert_uint_eq(n, 16); /* i % 4 == 0 */
	for (size_t k = 0; k < n; k++) {
		int i = (int)((int *)got[k] - owners);
		ck_assert_int_eq(i % 4, 0);
		expect(R(2 * i), AMAP_NONE, NULL, 0, NULL);
	}
	free(got);
	/* the rest stays, sorted: every one found */
	for (int i = 0; i < 64; i++)
		if (i % 4)
			expect(R(2 * i), i % 4 < 2 ? AMAP_IPC_IMPORT
						   : AMAP_PHYS_IMPORT,
			       R(2 * i), 4096, &owners[i]);
	for (int i = 0; i < 64; i++)
		if (i % 4)
			ck_assert_int_eq(amap_del(i % 4 < 2 ? AMAP_IPC_IMPORT
							    : AMAP_PHYS_IMPORT,
						  R(2 * i)),
					 0);
	size_t cnt[AMAP_KIND_COUNT];
	amap_counts(cnt);
	ck_assert_uint_eq(cnt[AMAP_IPC_IMPORT] + cnt[AMAP_PHYS_IMPORT], 0);
}
END_TEST

/* amap_take_if: the region holding p, checked by ok under the map's lock
 * and taken out only when ok says 0 (ok's refusal, or -ENOENT, leaves the
 * map as it was). */
static int take_calls;

static int
take_ok(const struct amap_hit *hit, void *arg)
{
	take_calls++;
	return hit->owner == arg ? 0 : -EPERM;
}

START_TEST(test_amap_take_if)
{
	static int o1, o2;
	struct amap_hit h;
	/* negative cases first: an empty map, no region at p, a mapping */
	ck_assert_int_eq(amap_take_if(R(3), take_ok, &o1, &h), -ENOENT);
	ck_assert_int_eq(h.kind, AMAP_NONE);
	struct usm_info in = range(R(3), 8192, A, USM_KIND_DEVICE, 7);
	ck_assert_int_eq(amap_add(AMAP_IPC_IMPORT, &in, &o1, false), 0);
	struct usm_info rv = range(R(8), 1 << 20, A, USM_KIND_DEVICE, 8);
	ck_assert_int_eq(amap_add(AMAP_VMM_RESV, &rv, &o2, false), 0);
	struct usm_info mp = range(R(8), 4096, A, USM_KIND_DEVICE, 9);
	ck_assert_int_eq(amap_add(AMAP_VMM_MAP, &mp, &o1, false), 0);
	ck_assert_int_eq(amap_take_if(R(5), take_ok, &o1, &h), -ENOENT);
	ck_assert_int_eq(take_calls, 0);
	/* the region under a mapping is what it checks (o2, not o1) */
	ck_assert_int_eq(amap_take_if(R(8), take_ok, &o1, &h), -EPERM);
	ck_assert_int_eq(h.kind, AMAP_VMM_RESV);
	expect(R(8), AMAP_VMM_MAP, R(8), 4096, &o1);
	/* refused: still there, found from an interior byte */
	ck_assert_int_eq(amap_take_if((char *)R(3) + 100, take_ok, &o2, &h),
			 -EPERM);
	ck_assert_int_eq(take_calls, 2);
	ck_assert_int_eq(h.kind, AMAP_IPC_IMPORT);
	ck_assert_ptr_eq(h.owner, &o1);
	ck_assert_ptr_eq(h.info.base, R(3));
	expect((char *)R(3) + 8191, AMAP_IPC_IMPORT, R(3), 8192, &o1);
	/* accepted: taken out, the hit says what it was */
	ck_assert_int_eq(amap_take_if((char *)R(3) + 8191, take_ok, &o1, &h),
			 0);
	ck_assert_ptr_eq(h.owner, &o1);
	ck_assert_uint_eq(h.info.size, 8192);
	ck_assert_uint_eq(h.info.id, 7);
	expect(R(3), AMAP_NONE, NULL, 0, NULL);
	ck_assert_int_eq(amap_take_if(R(3), take_ok, &o1, &h), -ENOENT);
	ck_assert_int_eq(amap_del(AMAP_VMM_MAP, R(8)), 0);
	ck_assert_int_eq(amap_del(AMAP_VMM_RESV, R(8)), 0);
	size_t cnt[AMAP_KIND_COUNT];
	amap_counts(cnt);
	ck_assert_uint_eq(cnt[AMAP_IPC_IMPORT] + cnt[AMAP_VMM_RESV] +
				  cnt[AMAP_VMM_MAP],
			  0);
}
END_TEST

static pthread_mutex_t go_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int stop;

static void *
churn(void *arg)
{
	int *owner = arg;
	struct usm_info in = range(R(40), 4096, A, USM_KIND_HOST, 1);
	for (long i = 0; i < 200000 && !stop; i++) {
		if (!amap_add(AMAP_IPC_IMPORT, &in, owner, false))
			amap_del(AMAP_IPC_IMPORT, R(40));
	}
	return NULL;
}

START_TEST(test_amap_fork_while_busy)
{
	/* Another thread adds and removes all the time; a child forked
	 * meanwhile can use the map at once. */
	int owner;
	pthread_t t;
	pthread_mutex_lock(&go_lock);
	ck_assert_int_eq(pthread_create(&t, NULL, churn, &owner), 0);
	for (int k = 0; k < 20; k++) {
		pid_t pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			struct usm_info in = range(R(50), 4096, A,
						   USM_KIND_HOST, 2);
			struct amap_hit h;
			int ok = !amap_add(AMAP_PHYS_IMPORT, &in, &owner,
					   false) &&
				 !amap_find(R(50), &h) &&
				 h.kind == AMAP_PHYS_IMPORT &&
				 !amap_del(AMAP_PHYS_IMPORT, R(50));
			test_fork_child_exit(ok ? 0 : 1);
		}
		int st;
		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
		ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	stop = 1;
	pthread_join(t, NULL);
	pthread_mutex_unlock(&go_lock);
	amap_del(AMAP_IPC_IMPORT, R(40));
}
END_TEST

/* Writers add and remove ranges of their own; readers look every range
 * up all the time: an answer is always the whole entry of the address
 * asked (its base and size, its owner), or nothing. */
enum { WRITERS = 3, READERS = 3, SLOTS = 16, ROUNDS = 20000 };
static int slot_owner[WRITERS][SLOTS];
static _Atomic int writers_done;
static _Atomic long bad_answers;

static void *
writer(void *arg)
{
	int w = (int)(intptr_t)arg;
	for (int i = 0; i < ROUNDS; i++) {
		int k = i % SLOTS;
		void *base = R(100 + w * SLOTS + k);
		struct usm_info in = range(base, (size_t)(k + 1) << 12, A,
					   USM_KIND_HOST, (uint64_t)k);
		enum amap_kind kind = k % 2 ? AMAP_IPC_IMPORT : AMAP_VMM_RESV;
		if (!amap_add(kind, &in, &slot_owner[w][k], false))
			amap_del(kind, base);
	}
	atomic_fetch_add(&writers_done, 1);
	return NULL;
}

static void *
reader(void *arg)
{
	(void)arg;
	struct amap_hit h;
	while (atomic_load(&writers_done) < WRITERS) {
		for (int w = 0; w < WRITERS; w++) {
			for (int k = 0; k < SLOTS; k++) {
				char *base = R(100 + w * SLOTS + k);
				if (amap_find(base + 4095, &h))
					continue;
				if (h.info.base != base ||
				    h.info.size != (size_t)(k + 1) << 12 ||
				    h.owner != &slot_owner[w][k])
					atomic_fetch_add(&bad_answers, 1);
			}
		}
	}
	return NULL;
}

START_TEST(test_amap_threads_add_find)
{
	pthread_t t[WRITERS + READERS];
	writers_done = 0;
	bad_answers = 0;
	for (int i = 0; i < READERS; i++)
		ck_assert_int_eq(pthread_create(&t[WRITERS + i], NULL, reader,
						NULL), 0);
	for (int i = 0; i < WRITERS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, writer,
						(void *)(intptr_t)i), 0);
	for (int i = 0; i < WRITERS + READERS; i++)
		pthread_join(t[i], NULL);
	ck_assert_int_eq(bad_answers, 0);
	size_t n[AMAP_KIND_COUNT];
	amap_counts(n);
	ck_assert_uint_eq(n[AMAP_IPC_IMPORT] + n[AMAP_VMM_RESV], 0);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("amap");
	TCase *tc = tcase_create("amap");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_amap_add_bad);
	tcase_add_test(tc, test_amap_find_none);
	tcase_add_test(tc, test_amap_find_every_kind);
	tcase_add_test(tc, test_amap_span);
	tcase_add_test(tc, test_amap_take_ctx);
	tcase_add_test(tc, test_amap_take_if);
	suite_add_tcase(s, tc);
	TCase *tt = tcase_create("threads");
	tcase_add_checked_fixture(tt, setup_threads, teardown_threads);
	tcase_set_timeout(tt, 60);
	tcase_add_test(tt, test_amap_fork_while_busy);
	tcase_add_test(tt, test_amap_threads_add_find);
	suite_add_tcase(s, tt);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
