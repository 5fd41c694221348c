// SPDX-License-Identifier: MIT
/*
 * test_usm: the USM allocation core (driver/usm) on its own.
 *
 * Every test runs in check's forked child inside a leakcheck fixture: a
 * fresh heap, and no fd and no mapping may be left once it is destroyed.
 * Tests of backends the machine lacks (udmabuf, DRM render nodes) print
 * "SKIP: <reason>" and return; main() lists them at the end, since check
 * has no "skipped" verdict. Heavy tests shrink under AddressSanitizer.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "leakcheck.h"
#include "usm.h"
#include "usm_private.h"

#ifdef USM_ASAN /* usm_private.h: built with AddressSanitizer */
#define SCALE 10 /* divides the big counts */
#else
#define SCALE 1
#endif

/* check's ck_assert_* write a location record to a pipe on every call (a
 * system call each); REQUIRE calls into check only when it fails, so it
 * can sit in loops of a million. */
#define REQUIRE(cond, ...)                                                  \
	do {                                                                \
		if (!(cond))                                                \
			ck_abort_msg(__VA_ARGS__);                          \
	} while (0)
#define REQUIRE_OP(a, op, b)                                                \
	REQUIRE((a)op(b), "%s %s %s: %lld vs %lld", #a, #op, #b,            \
		(long long)(a), (long long)(b))
#define REQUIRE_EQ(a, b) REQUIRE_OP(a, ==, b)
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static const enum usm_kind kinds[] = { USM_KIND_HOST, USM_KIND_DEVICE,
				       USM_KIND_SHARED };
static int ctx_a, ctx_b, dev0;
#define CTX_A ((void *)&ctx_a)
#define CTX_B ((void *)&ctx_b)
#define DEV0 ((void *)&dev0)
#define ZE_FLAGS 0x105u

static struct leakcheck lc;
static struct usm_heap *H;
static size_t page;

/* ---- helpers ------------------------------------------------------------- */

static int
try_alloc(enum usm_kind k, size_t size, size_t align, uint32_t flags,
	  void *ctx, void **p)
{
	struct usm_req r = {
		.kind = k, .size = size, .align = align, .ze_flags = ZE_FLAGS,
		.usm_flags = flags, .ctx = ctx,
		.dev = k == USM_KIND_HOST ? NULL : DEV0,
	};
	return usm_alloc(H, &r, p);
}

static void *
xalloc(enum usm_kind k, size_t size, size_t align, uint32_t flags, void *ctx)
{
	void *p = NULL;
	int err = try_alloc(k, size, align, flags, ctx, &p);
	REQUIRE(err == 0 && p, "usm_alloc(kind %d, %zu B, align %zu, flags "
			       "%#x): %d", k, size, align, flags, err);
	return p;
}

static void
xfree(void *p, void *ctx)
{
	int err = usm_free(H, p, ctx, NULL);
	REQUIRE(err == 0, "usm_free(%p): %d", p, err);
}

static struct usm_info
xquery(const void *p)
{
	struct usm_info i;
	int err = usm_query(H, p, &i);
	REQUIRE(err == 0, "usm_query(%p): %d", p, err);
	return i;
}

static unsigned char
pattern(uint64_t seed, size_t i)
{
	return (unsigned char)(seed * 131 + i * 7 + (i >> 8));
}

static void
fill(void *p, size_t n, uint64_t seed)
{
	for (size_t i = 0; i < n; i++)
		((unsigned char *)p)[i] = pattern(seed, i);
}

static bool
check_fill(const void *p, size_t n, uint64_t seed)
{
	for (size_t i = 0; i < n; i++)
		if (((const unsigned char *)p)[i] != pattern(seed, i))
			return false;
	return true;
}

static uint64_t
rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static bool
skip_backend(enum bk_type t)
{
	const char *why;
	if (!usm_backend_status(t, &why))
		return false;
	printf("SKIP: %s: %s\n", usm_backend_name(t), why);
	return true;
}

struct range {
	char *p;
	size_t n;
};

static int
cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;
	return x->p < y->p ? -1 : x->p > y->p;
}

/* Fixture: a warm-up heap first, so malloc's own growth and one-time
 * initialisations do not count as leaks; then the snapshot. */
static void
setup(void)
{
	page = (size_t)sysconf(_SC_PAGESIZE);
	REQUIRE_EQ(usm_heap_create(&H), 0);
	void *p[5];
	for (int i = 0; i < 4; i++)
		p[i] = xalloc(kinds[i % 3], 64, 0, 0, CTX_A);
	p[4] = xalloc(USM_KIND_HOST, 1 << 20, 0, 0, CTX_A);
	for (int i = 0; i < 5; i++)
		xfree(p[i], CTX_A);
	usm_heap_destroy(H);
	leakcheck_begin(&lc);
	REQUIRE_EQ(usm_heap_create(&H), 0);
}

static void
teardown(void)
{
	usm_heap_destroy(H);
	H = NULL;
	leakcheck_end(&lc);
}

/* ---- negative cases ------------------------------------------------------ */

START_TEST(test_usm_alloc_bad_args)
{
	static const struct {
		int kind;
		size_t size, align;
		uint32_t flags;
		int err;
	} bad[] = {
		{ USM_KIND_HOST, 0, 0, 0, -EINVAL },
		{ USM_KIND_DEVICE, 0, 64, 0, -EINVAL },
		{ USM_KIND_SHARED, 0, 0, 0, -EINVAL },
		{ USM_KIND_HOST, 64, 3, 0, -EINVAL },
		{ USM_KIND_DEVICE, 64, 48, 0, -EINVAL },
		{ USM_KIND_SHARED, 64, 4097, 0, -EINVAL },
		{ USM_KIND_HOST, 1 << 20, (1u << 20) + 4, 0, -EINVAL },
		{ USM_KIND_DEVICE, 64, SIZE_MAX, 0, -EINVAL },
		{ USM_KIND_SHARED, 64, 0, 0x80, -EINVAL },
		{ 0, 64, 0, 0, -EINVAL },
		{ 4, 64, 0, 0, -EINVAL },
		{ USM_KIND_HOST, SIZE_MAX - 4096, 0, 0, -ENOMEM },
	};
	struct usm_req r = { .kind = USM_KIND_HOST, .size = 64, .ctx = CTX_A };
	void *p = (void *)1;
	REQUIRE_EQ(usm_alloc(H, NULL, &p), -EINVAL);
	REQUIRE_EQ(usm_alloc(H, &r, NULL), -EINVAL);
	for (unsigned i = 0; i < N_OF(bad); i++) {
		p = (void *)1;
		REQUIRE_EQ(try_alloc((enum usm_kind)bad[i].kind, bad[i].size,
				     bad[i].align, bad[i].flags, CTX_A, &p),
			   bad[i].err);
		REQUIRE(p == NULL, "case %u: *out not cleared", i);
	}
	/* a dma-buf where the machine has no exporter */
	if (usm_backend_status(BK_UDMABUF, NULL) &&
	    usm_backend_status(BK_DRM_PRIME, NULL))
		REQUIRE_EQ(try_alloc(USM_KIND_DEVICE, 1 << 20, 0,
				     USM_FLAG_DMABUF, CTX_A, &p), -EOPNOTSUPP);
	struct usm_stats st;
	usm_stats(H, &st);
	REQUIRE_EQ(st.live_count, 0);
}
END_TEST

START_TEST(test_usm_free_unknown)
{
	int on_stack;
	void *m = malloc(64), *far = (void *)(UINTPTR_MAX - 7);
	struct usm_info i;
	REQUIRE_EQ(usm_free(H, NULL, CTX_A, NULL), -ENOENT);
	REQUIRE_EQ(usm_free(H, &on_stack, CTX_A, NULL), -ENOENT);
	REQUIRE_EQ(usm_free(H, m, CTX_A, NULL), -ENOENT);
	REQUIRE_EQ(usm_free(H, far, CTX_A, NULL), -ENOENT);
	REQUIRE_EQ(usm_query(H, NULL, &i), -ENOENT);
	REQUIRE_EQ(usm_query(H, m, &i), -ENOENT);
	REQUIRE_EQ(usm_query(H, far, &i), -ENOENT);
	REQUIRE_EQ(usm_mark_exported(H, m), -ENOENT);
	/* the slack after a pooled allocation belongs to nobody */
	char *p = xalloc(USM_KIND_HOST, 40, 0, 0, CTX_A);
	REQUIRE_EQ(usm_free(H, p + 40, CTX_A, NULL), -ENOENT);
	REQUIRE_EQ(usm_query(H, p + 40, &i), -ENOENT);
	REQUIRE_EQ(usm_mark_exported(H, p + 40), -ENOENT);
	xfree(p, CTX_A);
	free(m);
}
END_TEST

/* Runs fn on a fresh allocation (ctx A) of every kind, at a pooled, a
 * page-class and a large size; frees it after unless fn did. */
static void
each_kind_size(bool (*fn)(char *p, size_t n))
{
	static const size_t sizes[] = { 64, 5000, 200000 };
	for (unsigned k = 0; k < 3; k++) {
		for (unsigned s = 0; s < N_OF(sizes); s++) {
			char *p = xalloc(kinds[k], sizes[s], 0, 0, CTX_A);
			if (!fn(p, sizes[s]))
				xfree(p, CTX_A);
		}
	}
}

static bool
free_interior(char *p, size_t n)
{
	REQUIRE_EQ(usm_free(H, p + 1, CTX_A, NULL), -EINVAL);
	REQUIRE_EQ(usm_free(H, p + n - 1, CTX_A, NULL), -EINVAL);
	REQUIRE_EQ(usm_mark_exported(H, p + 1), -EINVAL);
	REQUIRE_EQ(xquery(p).base, p);
	return false;
}

START_TEST(test_usm_free_interior)
{
	each_kind_size(free_interior);
}
END_TEST

static bool
free_double(char *p, size_t n)
{
	struct usm_info f;
	REQUIRE_EQ(usm_free(H, p, CTX_A, &f), 0);
	REQUIRE(f.base == p && f.size == n && f.ctx == CTX_A, "freed info");
	REQUIRE_EQ(usm_free(H, p, CTX_A, NULL), -ENOENT);
	REQUIRE_EQ(usm_query(H, p, &f), -ENOENT);
	return true;
}

START_TEST(test_usm_free_double)
{
	each_kind_size(free_double);
}
END_TEST

static bool
free_other_ctx(char *p, size_t n)
{
	(void)n;
	REQUIRE_EQ(usm_free(H, p, CTX_B, NULL), -EPERM);
	REQUIRE_EQ(usm_free(H, p, NULL, NULL), -EPERM);
	REQUIRE_EQ(xquery(p).ctx, CTX_A);
	return false;
}

START_TEST(test_usm_free_other_ctx)
{
	each_kind_size(free_other_ctx);
}
END_TEST

/* ---- backends ------------------------------------------------------------ */

START_TEST(test_usm_backend_status_reasons)
{
	for (int t = 0; t < BK_COUNT; t++) {
		const char *why = NULL, *name = usm_backend_name(t);
		int rc = usm_backend_status((enum bk_type)t, &why);
		REQUIRE(why && *why, "no reason for %s", name);
		printf("backend %-9s: %s (%d)\n", name, why, rc);
	}
	REQUIRE_EQ(usm_backend_status(BK_ANON, NULL), 0);
	REQUIRE_EQ(usm_backend_status(BK_MEMFD, NULL), 0);
	REQUIRE_EQ(usm_backend_status(BK_COUNT, NULL), -EINVAL);
	/* no NULL slots: every op of every backend can be called */
	for (int t = 0; t < BK_COUNT; t++) {
		const struct bk_ops *o = bk_table[t];
		REQUIRE(o->name && o->probe && o->create && o->resize &&
				o->map && o->unmap && o->release &&
				o->destroy && o->export_fd,
			"backend %d has a NULL op", t);
	}
	struct bk_obj o = { .type = BK_UDMABUF, .fd = -1, .aux_fd = -1 };
	REQUIRE_EQ(bk_udmabuf_ops.resize(&o, 8192), -EOPNOTSUPP);
	REQUIRE_EQ(bk_udmabuf_ops.release(&o, NULL, 0, 4096), -EOPNOTSUPP);
	REQUIRE_EQ(bk_drm_ops.resize(&o, 8192), -EOPNOTSUPP);
	REQUIRE_EQ(bk_udmabuf_ops.create(&o, "x", 4096, true), -EOPNOTSUPP);
}
END_TEST

/* create, map, write, export, map the export, compare, destroy */
static void
backend_roundtrip(enum bk_type t)
{
	size_t len = 4 * page;
	const struct bk_ops *ops = bk_table[t];
	struct bk_obj o;
	void *va;
	int fd = -1;
	REQUIRE_EQ(ops->create(&o, "zemem:test", len, false), 0);
	REQUIRE_EQ(o.type, t);
	REQUIRE_EQ(usm_va_reserve(len, page, &va), 0);
	REQUIRE_EQ(ops->map(&o, va, 0, len), 0);
	fill(va, len, t);
	int err = ops->export_fd(&o, &fd);
	if (t == BK_ANON) {
		REQUIRE_EQ(err, -EOPNOTSUPP);
		REQUIRE_EQ(o.fd, -1);
	} else {
		REQUIRE_EQ(err, 0);
		REQUIRE_EQ(leakcheck_fd_cloexec(fd), 1);
		REQUIRE_EQ(leakcheck_fd_cloexec(o.fd), 1);
		void *q = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
		REQUIRE(q != MAP_FAILED, "mmap of the export: %d", errno);
		REQUIRE(check_fill(q, len, t), "export shows other bytes");
		munmap(q, len);
		close(fd);
	}
	REQUIRE_EQ(ops->unmap(&o, va, len), 0);
	ops->destroy(&o);
}

START_TEST(test_usm_backend_memfd_roundtrip)
{
	backend_roundtrip(BK_ANON); /* the fallback, with no fd to export */
	backend_roundtrip(BK_MEMFD);
	/* fixed-size objects are sealed against shrink and growth */
	const int want = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL;
	struct bk_obj o;
	REQUIRE_EQ(bk_memfd_ops.create(&o, "x", 8192, false), 0);
	REQUIRE_EQ(fcntl(o.fd, F_GET_SEALS) & (want | F_SEAL_WRITE), want);
	bk_memfd_ops.destroy(&o);
	/* growable ones (pool files) only against shrink */
	REQUIRE_EQ(bk_memfd_ops.create(&o, "x", 0, true), 0);
	REQUIRE_EQ(bk_memfd_ops.resize(&o, 1 << 20), 0);
	REQUIRE_EQ(fcntl(o.fd, F_GET_SEALS) & (F_SEAL_SHRINK | F_SEAL_GROW),
		   F_SEAL_SHRINK);
	bk_memfd_ops.destroy(&o);
}
END_TEST

START_TEST(test_usm_backend_udmabuf_roundtrip)
{
	if (skip_backend(BK_UDMABUF))
		return;
	backend_roundtrip(BK_UDMABUF);
	void *p = xalloc(USM_KIND_DEVICE, 3 << 20, 0, USM_FLAG_DMABUF, CTX_A);
	struct usm_info i = xquery(p);
	REQUIRE_EQ(i.bk_type, BK_UDMABUF);
	REQUIRE_OP(i.fd, >=, 0);
	xfree(p, CTX_A);
}
END_TEST

START_TEST(test_usm_backend_drm_prime_roundtrip)
{
	if (skip_backend(BK_DRM_PRIME))
		return;
	backend_roundtrip(BK_DRM_PRIME);
}
END_TEST

/* ---- alignment, sizes, classes ------------------------------------------- */

START_TEST(test_usm_alloc_every_alignment)
{
	for (unsigned k = 0; k < 3; k++) {
		for (unsigned b = 0; b <= 24; b++) { /* 1 B .. 16 MiB */
			size_t align = (size_t)1 << b;
			size_t sizes[] = { 1, 4097, align, align + 1 };
			void *p[N_OF(sizes)];
			for (unsigned s = 0; s < N_OF(sizes); s++) {
				p[s] = xalloc(kinds[k], sizes[s], align, 0,
					      CTX_A);
				REQUIRE(((uintptr_t)p[s] & (align - 1)) == 0,
					"kind %d, %zu B, align %zu: %p",
					kinds[k], sizes[s], align, p[s]);
				struct usm_info i = xquery(p[s]);
				REQUIRE_EQ(i.align, align);
				REQUIRE_EQ(i.size, sizes[s]);
				((char *)p[s])[0] = 1;
				((char *)p[s])[sizes[s] - 1] = 2;
			}
			for (unsigned s = 0; s < N_OF(sizes); s++)
				xfree(p[s], CTX_A);
		}
		void *q = xalloc(kinds[k], 24, 0, 0, CTX_A);
		REQUIRE_EQ((uintptr_t)q % USM_DEFAULT_ALIGN, 0);
		REQUIRE_EQ(xquery(q).align, 0); /* as requested */
		xfree(q, CTX_A);
	}
}
END_TEST

START_TEST(test_usm_alloc_sizes_writable)
{
	static const size_t odd[] = { 127, 129, 1000, 4095, 4097, 12345, 65535,
				      65536, 65537, 100003, (1 << 20) + 1,
				      (8 << 20) - 1, (size_t)64 << 20 };
	static struct range r[3 * (70 + N_OF(odd))];
	size_t n = 0;
	for (unsigned k = 0; k < 3; k++) {
		for (size_t i = 0; i < 70 + N_OF(odd); i++, n++) {
			r[n].n = i < 70 ? i + 1 : odd[i - 70];
			r[n].p = xalloc(kinds[k], r[n].n, 0, 0, CTX_A);
			fill(r[n].p, r[n].n, n);
		}
	}
	for (size_t i = 0; i < n; i++) {
		REQUIRE(check_fill(r[i].p, r[i].n, i),
			"allocation %zu (%zu B) was overwritten", i, r[i].n);
		REQUIRE_EQ(xquery(r[i].p).size, r[i].n);
		REQUIRE_EQ(xquery(r[i].p + r[i].n - 1).base, r[i].p);
	}
	qsort(r, n, sizeof(r[0]), cmp_range);
	for (size_t i = 1; i < n; i++)
		REQUIRE(r[i - 1].p + r[i - 1].n <= r[i].p, "overlap at %p",
			r[i].p);
	for (size_t i = 0; i < n; i++)
		xfree(r[i].p, CTX_A);
}
END_TEST

START_TEST(test_usm_alloc_class_waste_bounded)
{
	for (size_t s = 1; s <= USM_POOL_MAX; s++) {
		int a = usm_arena_for(USM_KIND_HOST, false, s, 0);
		REQUIRE(a >= 0, "%zu B is not pooled", s);
		size_t slot = usm_arena_slot_size((unsigned)a);
		REQUIRE(slot >= s, "%zu B in a %zu B slot", s, slot);
		if (s > 48)
			REQUIRE((slot - s) * 4 < slot, "%zu B: slot %zu", s,
				slot);
		else
			REQUIRE(slot - s < 16, "%zu B: slot %zu", s, slot);
		/* page-isolated classes waste nothing beyond the page */
		a = usm_arena_for(USM_KIND_DEVICE, true, s, 0);
		REQUIRE(a >= 0, "%zu B device is not pooled", s);
		REQUIRE_EQ(usm_arena_slot_size((unsigned)a),
			   (s + page - 1) / page * page);
	}
	REQUIRE_EQ(usm_arena_for(USM_KIND_HOST, false, USM_POOL_MAX + 1, 0),
		   -1);
	REQUIRE_EQ(usm_arena_for(USM_KIND_HOST, false, 64, 1 << 17), -1);
}
END_TEST

START_TEST(test_usm_query_slot_division_exact)
{
	/* The reciprocal division against real division, at both ends of
	 * every slot of a largest segment, for every class. */
	for (unsigned a = 0; a < USM_NCLS; a++) {
		uint32_t d = usm_arena_slot_size(a);
		struct usm_seg s = { .magic = UINT64_MAX / d + 1 };
		for (uint64_t i = 0; i < USM_SEG_MAX / d; i++) {
			REQUIRE_EQ(usm_seg_slot(&s, i * d), i);
			REQUIRE_EQ(usm_seg_slot(&s, i * d + d - 1), i);
		}
	}
}
END_TEST

/* ---- lookup -------------------------------------------------------------- */

/* Everything usm_query says of p (n bytes of kind k), from any byte. */
static void
check_edges(char *p, size_t n, enum usm_kind k)
{
	struct usm_info i = xquery(p), x;
	REQUIRE(i.base == p && i.size == n && i.kind == k && i.ctx == CTX_A &&
			i.ze_flags == ZE_FLAGS && i.page_size == page &&
			i.dev == (k == USM_KIND_HOST ? NULL : DEV0),
		"info of %p", p);
	REQUIRE_EQ(xquery(p + n - 1).id, i.id);
	REQUIRE_EQ(xquery(p + n / 2).base, p);
	/* one past the end: nothing, or the next one; one before: nothing,
	 * or one that ends there */
	int err = usm_query(H, p + n, &x);
	REQUIRE(err == -ENOENT || (!err && x.base == p + n), "after %p", p);
	err = usm_query(H, p - 1, &x);
	REQUIRE(err == -ENOENT || (!err && (char *)x.base + x.size == p),
		"before %p", p);
}

START_TEST(test_usm_query_interior_and_edges)
{
	static const size_t sizes[] = { 1, 16, 40, 64, 100, 4096, 5000,
					65536, 65537, 3 << 20 };
	struct usm_info x;
	char *p[3];
	for (unsigned c = 0; c < 3 * N_OF(sizes); c++) {
		enum usm_kind k = kinds[c % 3];
		size_t n = sizes[c / 3];
		for (int j = 0; j < 3; j++)
			p[j] = xalloc(k, n, 0, 0, CTX_A);
		for (int j = 0; j < 3; j++)
			check_edges(p[j], n, k);
		for (int j = 0; j < 3; j++)
			xfree(p[j], CTX_A);
		for (int j = 0; j < 3; j++) {
			REQUIRE_EQ(usm_query(H, p[j], &x), -ENOENT);
			REQUIRE_EQ(usm_query(H, p[j] + n - 1, &x), -ENOENT);
		}
	}
}
END_TEST

START_TEST(test_usm_query_after_release)
{
	/* pointers whose segment or mapping is gone: -ENOENT, no crash */
	enum { N = 5000 };
	static char *p[N];
	struct usm_info x;
	for (int i = 0; i < N; i++)
		p[i] = xalloc(kinds[i % 3], 1 + (size_t)i % 3000, 0, 0, CTX_A);
	char *big = xalloc(USM_KIND_SHARED, 100 << 20, 0, 0, CTX_A);
	for (int i = 0; i < N; i++)
		xfree(p[i], CTX_A);
	xfree(big, CTX_A);
	usm_trim(H);
	for (int i = 0; i < N; i++)
		REQUIRE_EQ(usm_query(H, p[i], &x), -ENOENT);
	REQUIRE_EQ(usm_query(H, big + (50 << 20), &x), -ENOENT);
	REQUIRE_EQ(usm_free(H, big, CTX_A, NULL), -ENOENT);
}
END_TEST

START_TEST(test_usm_alloc_ids_unique_increasing)
{
	enum { N = 20000 };
	static void *p[N];
	uint64_t last = 0;
	for (int i = 0; i < N; i++) {
		size_t sz = i % 100 ? 1 + (size_t)(i * 37) % 9000 : 200000;
		p[i] = xalloc(kinds[i % 3], sz, 0, 0, CTX_A);
		uint64_t id = xquery(p[i]).id;
		REQUIRE_OP(id, >, last);
		last = id;
		if (i % 3 == 0) { /* reused slots get new ids */
			xfree(p[i], CTX_A);
			p[i] = NULL;
		}
	}
	for (int i = 0; i < N; i++)
		if (p[i])
			xfree(p[i], CTX_A);
}
END_TEST

/* ---- isolation and backing ----------------------------------------------- */

static bool
pages_overlap(const char *a, size_t an, const char *b, size_t bn)
{
	uintptr_t pm = page - 1;
	return ((uintptr_t)a & ~pm) <= ((uintptr_t)(b + bn - 1) & ~pm) &&
	       ((uintptr_t)b & ~pm) <= ((uintptr_t)(a + an - 1) & ~pm);
}

START_TEST(test_usm_query_page_exclusive_truthful)
{
	/* two small host allocations on one page, then one */
	char *a = xalloc(USM_KIND_HOST, 64, 0, 0, CTX_A);
	char *b = xalloc(USM_KIND_HOST, 64, 0, 0, CTX_A);
	REQUIRE(pages_overlap(a, 64, b, 64), "%p and %p", a, b);
	REQUIRE(!xquery(a).page_exclusive && !xquery(b).page_exclusive,
		"they share a page");
	xfree(b, CTX_A);
	REQUIRE(xquery(a).page_exclusive, "a is alone now");
	xfree(a, CTX_A);
	/* 48 B slots straddle pages: both pages' neighbours count */
	enum { N = 200 };
	char *s[N];
	for (int i = 0; i < N; i++)
		s[i] = xalloc(USM_KIND_SHARED, 48, 0, 0, CTX_A);
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < N; i++) {
			bool alone = true;
			for (int j = 0; j < N && s[i]; j++)
				alone &= j == i || !s[j] ||
					 !pages_overlap(s[i], 48, s[j], 48);
			if (s[i])
				REQUIRE_EQ(xquery(s[i]).page_exclusive, alone);
		}
		for (int i = round; i < N; i += 2 + round * 5) { /* thin out */
			if (s[i])
				xfree(s[i], CTX_A);
			s[i] = NULL;
		}
	}
	for (int i = 0; i < N; i++)
		if (s[i])
			xfree(s[i], CTX_A);
	char *l = xalloc(USM_KIND_HOST, 300000, 0, 0, CTX_A);
	REQUIRE(xquery(l).page_exclusive, "large allocations are alone");
	xfree(l, CTX_A);
}
END_TEST

START_TEST(test_usm_alloc_device_page_isolated)
{
	/* device, and exportable host, memory: page aligned, alone on its
	 * pages, small host allocations never land there */
	enum { N = 300, NS = 64 };
	static struct range r[2 * N];
	void *small[NS];
	for (int i = 0; i < 2 * N; i++) {
		bool dev = i < N;
		r[i].n = 1 + (size_t)(i * 97) % 20000;
		r[i].p = xalloc(dev ? USM_KIND_DEVICE : USM_KIND_HOST, r[i].n,
				0, dev ? 0 : USM_FLAG_EXPORTABLE, CTX_A);
		REQUIRE_EQ((uintptr_t)r[i].p % page, 0);
	}
	for (int i = 0; i < NS; i++)
		small[i] = xalloc(USM_KIND_HOST, 64, 0, 0, CTX_A);
	qsort(r, 2 * N, sizeof(r[0]), cmp_range);
	for (int i = 0; i < 2 * N; i++) {
		if (i + 1 < 2 * N)
			REQUIRE(!pages_overlap(r[i].p, r[i].n, r[i + 1].p, 1),
				"%p and %p share a page", r[i].p, r[i + 1].p);
		for (int j = 0; j < NS; j++)
			REQUIRE(!pages_overlap(r[i].p, r[i].n, small[j], 64),
				"small %p on isolated pages", small[j]);
		REQUIRE(xquery(r[i].p).page_exclusive, "%p", r[i].p);
	}
	for (int i = 0; i < NS; i++)
		xfree(small[i], CTX_A);
	for (int i = 0; i < 2 * N; i++)
		xfree(r[i].p, CTX_A);
}
END_TEST

START_TEST(test_usm_query_backing_fd_maps_same_bytes)
{
	static const struct {
		enum usm_kind k;
		size_t n;
		uint32_t flags;
	} c[] = {
		{ USM_KIND_HOST, 64, 0 }, { USM_KIND_SHARED, 3000, 0 },
		{ USM_KIND_DEVICE, 100, 0 }, { USM_KIND_DEVICE, 60000, 0 },
		{ USM_KIND_HOST, 5000, USM_FLAG_EXPORTABLE },
		{ USM_KIND_HOST, 1 << 20, 0 }, { USM_KIND_DEVICE, 5 << 20, 0 },
		{ USM_KIND_SHARED, 65537, USM_FLAG_EXPORTABLE },
	};
	for (unsigned t = 0; t < N_OF(c); t++) {
		char *p = xalloc(c[t].k, c[t].n, 0, c[t].flags, CTX_A);
		fill(p, c[t].n, t);
		struct usm_info i = xquery(p + c[t].n / 2);
		REQUIRE_EQ(i.bk_type, BK_MEMFD);
		REQUIRE_EQ(leakcheck_fd_cloexec(i.fd), 1);
		uint64_t off = i.fd_offset & ~(uint64_t)(page - 1);
		size_t head = (size_t)(i.fd_offset - off), len = head + c[t].n;
		char *q = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
			       i.fd, (off_t)off);
		REQUIRE(q != MAP_FAILED, "mmap fd %d at %llu: %d", i.fd,
			(unsigned long long)off, errno);
		REQUIRE(check_fill(q + head, c[t].n, t), "case %u", t);
		q[head] ^= 0x5a; /* and writes show through */
		REQUIRE_EQ(p[0], q[head]);
		munmap(q, len);
		xfree(p, CTX_A);
	}
	leakcheck_assert_all_cloexec();
}
END_TEST

/* ---- contexts, exports, stats -------------------------------------------- */

struct cb_acc {
	size_t n;
	uint64_t bytes;
	bool wrong;
};

static void
count_cb(const struct usm_info *i, void *arg)
{
	struct cb_acc *a = arg;
	a->n++;
	a->bytes += i->size;
	a->wrong |= i->ctx != CTX_A || !i->id || !i->base;
}

START_TEST(test_usm_free_ctx_frees_only_that_ctx)
{
	enum { NA = 3000, NB = 50 };
	static char *pa[NA], *pb[NB];
	uint64_t bytes = 0;
	struct cb_acc acc = { 0 };
	struct usm_info x;
	for (int i = 0; i < NA; i++) {
		size_t n = i % 500 ? 1 + (size_t)i * 13 % 7000 : (2 << 20) + 5;
		pa[i] = xalloc(kinds[i % 3], n, i % 7 ? 0 : 4096, 0, CTX_A);
		bytes += n;
	}
	for (int i = 0; i < NB; i++)
		pb[i] = xalloc(kinds[i % 3], 100 + (size_t)i * 1000, 0, 0,
			       CTX_B);
	REQUIRE_EQ(usm_free_ctx(H, CTX_A, count_cb, &acc), NA);
	REQUIRE_EQ(acc.n, NA);
	REQUIRE_EQ(acc.bytes, bytes);
	REQUIRE(!acc.wrong, "callback saw a wrong allocation");
	for (int i = 0; i < NA; i++)
		REQUIRE_EQ(usm_query(H, pa[i], &x), -ENOENT);
	for (int i = 0; i < NB; i++)
		REQUIRE_EQ(xquery(pb[i]).ctx, CTX_B);
	REQUIRE_EQ(usm_free_ctx(H, CTX_A, count_cb, &acc), 0);
	struct usm_stats st;
	usm_stats(H, &st);
	REQUIRE_EQ(st.live_count, NB);
	void *again = xalloc(USM_KIND_HOST, 64, 0, 0, CTX_A);
	REQUIRE_EQ(xquery(again).ctx, CTX_A);
	xfree(again, CTX_A);
	REQUIRE_EQ(usm_free_ctx(H, CTX_B, NULL, NULL), NB);
}
END_TEST

START_TEST(test_usm_mark_exported_never_reused)
{
	struct usm_stats st;
	/* large: not cached, its fd closed at free */
	char *l = xalloc(USM_KIND_DEVICE, 1 << 20, 0, 0, CTX_A);
	int fd = xquery(l).fd;
	REQUIRE_EQ(usm_mark_exported(H, l), 0);
	REQUIRE(xquery(l).exported, "not marked");
	xfree(l, CTX_A);
	usm_stats(H, &st);
	REQUIRE_EQ(st.large_cached, 0);
	REQUIRE_EQ(fcntl(fd, F_GETFD), -1);
	/* unexported large: cached and handed out again ... */
	char *m = xalloc(USM_KIND_DEVICE, 1 << 20, 0, 0, CTX_A);
	xfree(m, CTX_A);
	usm_stats(H, &st);
	REQUIRE_EQ(st.large_cached, 1);
	char *m2 = xalloc(USM_KIND_HOST, 1 << 20, 0, 0, CTX_A);
	REQUIRE_EQ(m2, m);
	REQUIRE_EQ(xquery(m2).kind, USM_KIND_HOST);
	xfree(m2, CTX_A);
	/* ... but never for exportable memory */
	char *m3 = xalloc(USM_KIND_HOST, 1 << 20, 0, USM_FLAG_EXPORTABLE,
			  CTX_A);
	REQUIRE_OP(m3, !=, m);
	xfree(m3, CTX_A);
	/* pooled: the slot is never handed out again, and its bytes stay
	 * in the pool file (for importers) after its segment is gone */
	enum { N = 5000 };
	static void *q[N];
	char *p = xalloc(USM_KIND_DEVICE, 2 * page, 0, 0, CTX_A);
	fill(p, 2 * page, 7);
	struct usm_info i = xquery(p);
	int held = fcntl(i.fd, F_DUPFD_CLOEXEC, 3); /* as the IPC layer */
	REQUIRE_EQ(usm_mark_exported(H, p), 0);
	xfree(p, CTX_A);
	for (int j = 0; j < N; j++) {
		q[j] = xalloc(USM_KIND_DEVICE, 2 * page, 0, 0, CTX_A);
		REQUIRE_OP(q[j], !=, p);
		memset(q[j], 0, 2 * page);
	}
	for (int j = 0; j < N; j++)
		xfree(q[j], CTX_A);
	usm_trim(H);
	usm_stats(H, &st);
	REQUIRE_EQ(st.mapped_bytes, 0);
	char *v = mmap(NULL, 2 * page, PROT_READ, MAP_SHARED, held,
		       (off_t)i.fd_offset);
	REQUIRE(v != MAP_FAILED, "mmap: %d", errno);
	REQUIRE(check_fill(v, 2 * page, 7), "exported bytes were dropped");
	munmap(v, 2 * page);
	close(held);
}
END_TEST

/* An importer of an exported pooled block, as the IPC layer makes one: a
 * file of its own on the pool memfd (another process's fd) and a shared
 * mapping of the block's pages at its offset. */
struct importer {
	int fd;
	unsigned char *v;
	size_t n;
	unsigned char byte;
};

static void
import_block(struct importer *im, void *p, size_t n, unsigned char byte)
{
	memset(p, byte, n);
	REQUIRE_EQ(usm_mark_exported(H, p), 0);
	struct usm_info i = xquery(p);
	REQUIRE(i.exported && i.fd >= 0 && i.page_exclusive,
		"%p: exported %d, fd %d", p, i.exported, i.fd);
	im->fd = fcntl(i.fd, F_DUPFD_CLOEXEC, 3);
	REQUIRE(im->fd >= 0, "dup: %d", errno);
	im->v = mmap(NULL, n, PROT_READ, MAP_SHARED, im->fd,
		     (off_t)i.fd_offset);
	REQUIRE(im->v != MAP_FAILED, "mmap: %d", errno);
	im->n = n;
	im->byte = byte;
}

static void
import_check(const struct importer *im, const char *when)
{
	for (size_t k = 0; k < im->n; k++)
		REQUIRE(im->v[k] == im->byte,
			"%s: importer reads %#x at +%zu, not %#x (pages "
			"punched or reused)", when, im->v[k], k, im->byte);
}

static void
import_close(struct importer *im)
{
	munmap(im->v, im->n);
	close(im->fd);
}

/* Fills the pool files with zeros through new DEVICE blocks of every
 * page class: a reused slot or file range shows in the importers. */
static void
churn_device(void)
{
	enum { N = 3000 / SCALE };
	static void *q[N];
	for (int j = 0; j < N; j++) {
		size_t n = (1 + (size_t)j % 16) * page;
		memset(q[j] = xalloc(USM_KIND_DEVICE, n, 0, 0, CTX_A), 0, n);
	}
	for (int j = 0; j < N; j++)
		xfree(q[j], CTX_A);
	usm_trim(H);
}

START_TEST(test_usm_exported_pages_survive_trim)
{
	enum { NB = 1200, NX = 12 };
	static void *b[NB];
	struct importer im[1 + 2 * NX + 2];
	void *xp[N_OF(im)];
	size_t sz[] = { page, 2 * page, 16 * page };
	int n = 0;

	/* The report: a lone exported 4 KiB block, freed, then the last
	 * context dies (usm_trim). */
	void *p = xalloc(USM_KIND_DEVICE, page, 0, 0, CTX_A);
	import_block(&im[n++], p, page, 0x77);
	xfree(p, CTX_A);
	import_check(&im[0], "freed");
	usm_trim(H);
	import_check(&im[0], "freed, trimmed");

	/* Several exported slots in each segment (every class size above),
	 * the exported ones freed last (the last live slots of their
	 * segments), then trim; then by usm_free_ctx. */
	for (int round = 0; round < 2; round++) {
		void *ctx = round ? CTX_B : CTX_A;
		int first = n;
		for (int c = 0; c < (int)N_OF(sz); c++) {
			size_t nb = c ? NB / 8 : NB;
			for (size_t j = 0; j < nb; j++)
				b[j] = xalloc(USM_KIND_DEVICE, sz[c], 0, 0,
					      ctx);
			for (int x = 0; x < NX / 3; x++) {
				size_t j = (x * 7919u + 13u * c) % nb;
				xp[n] = b[j];
				b[j] = NULL;
				import_block(&im[n], xp[n], sz[c],
					     (unsigned char)(0x30 + n));
				n++;
			}
			for (size_t j = 0; j < nb; j++)
				if (b[j] && !round)
					xfree(b[j], ctx);
		}
		for (int x = first; x < n; x++)
			import_check(&im[x], "others freed");
		if (!round)
			for (int x = first; x < n; x++)
				xfree(xp[x], ctx);
		REQUIRE_EQ(usm_free_ctx(H, ctx, NULL, NULL),
			   round ? NB + 2 * (NB / 8) : 0);
		usm_trim(H);
		for (int x = 0; x < n; x++)
			import_check(&im[x], round ? "free_ctx, trimmed"
						   : "freed last, trimmed");
	}
	churn_device();
	for (int x = 0; x < n; x++)
		import_check(&im[x], "after reuse of the pool file");

	/* Heap destroy: one exported block freed, one still live. */
	p = xalloc(USM_KIND_DEVICE, page, 0, 0, CTX_A);
	void *live = xalloc(USM_KIND_DEVICE, page, 0, 0, CTX_A);
	import_block(&im[n++], p, page, 0xa5);
	import_block(&im[n++], live, page, 0x5a);
	xfree(p, CTX_A);
	usm_heap_destroy(H);
	REQUIRE_EQ(usm_heap_create(&H), 0);
	for (int x = 0; x < n; x++) {
		import_check(&im[x], "heap destroyed");
		import_close(&im[x]);
	}
}
END_TEST

START_TEST(test_usm_free_list_tail_never_dead)
{
	/* A slot refilled into the thread cache from the end of its
	 * segment's free list, then flushed back unused, is free, not dead
	 * (as if exported): nothing here was exported. */
	void *p[16], *q;
	for (int i = 0; i < 16; i++)
		p[i] = xalloc(USM_KIND_DEVICE, page, 0, 0, CTX_A);
	for (int i = 0; i < 3; i++)
		xfree(p[i], CTX_A);
	usm_trim(H);       /* free list of 3 */
	q = xalloc(USM_KIND_DEVICE, page, 0, 0, CTX_A); /* cache takes all 3 */
	usm_trim(H);       /* and gives them back unused */
	struct usm_seg *s =
		(struct usm_seg *)usm_index_find(&H->index, q);
	REQUIRE(s && s->span.type == SPAN_SEG, "%p: no segment", q);
	REQUIRE_EQ(s->ndead, 0);
	xfree(q, CTX_A);
	for (int i = 3; i < 16; i++)
		xfree(p[i], CTX_A);
}
END_TEST

START_TEST(test_usm_stats_memory_given_back)
{
	enum { N = 20000 / SCALE, M = 200000 / SCALE };
	static void *p[M];
	struct usm_stats st1, st2;
	/* One class, many segments: freeing all leaves at most the segment
	 * the thread cache allocates from plus one cached empty one. */
	for (int i = 0; i < M; i++) {
		p[i] = xalloc(USM_KIND_HOST, 1000, 0, 0, CTX_A);
		memset(p[i], 1, 1000);
	}
	usm_stats(H, &st1);
	for (int i = 0; i < M; i++)
		xfree(p[i], CTX_A);
	usm_stats(H, &st2);
	REQUIRE(st1.segments > 3 && st2.segments <= 2 &&
			st2.mapped_bytes <= 2 * USM_SEG_MAX && !st2.live_count,
		"%u segments, %u after free (%llu bytes)", st1.segments,
		st2.segments, (unsigned long long)st2.mapped_bytes);
	/* Every kind, many classes, large ones: all of it after usm_trim. */
	for (int i = 0; i < N; i++) {
		size_t n = i % 1000 ? 1 + (size_t)(i * 31) % 8192
				    : (size_t)(3 + i % 5) << 20;
		memset(p[i] = xalloc(kinds[i % 3], n, 0, 0, CTX_A), 1, n);
	}
	usm_stats(H, &st1);
	REQUIRE(st1.live_count == N && st1.mapped_bytes > st1.live_bytes,
		"%llu live", (unsigned long long)st1.live_count);
	for (int i = 0; i < N; i++)
		xfree(p[i], CTX_A);
	usm_stats(H, &st2);
	REQUIRE(!st2.live_count && !st2.live_bytes &&
			st2.mapped_bytes <= st1.mapped_bytes,
		"%llu live after free", (unsigned long long)st2.live_count);
	usm_trim(H);
	usm_stats(H, &st2);
	REQUIRE(!st2.mapped_bytes && !st2.segments && !st2.large_cached,
		"%llu bytes mapped after trim",
		(unsigned long long)st2.mapped_bytes);
	/* what stays: the pool files, one per kind */
	REQUIRE(st2.fds <= USM_NKIND && st2.fds == st2.bk[BK_MEMFD].fds,
		"%u fds", st2.fds);
}
END_TEST

START_TEST(test_usm_stats_fds_bounded_1m)
{
	size_t n = 1000000 / SCALE;
	void **p = malloc(n * sizeof(*p)), *other[64];
	REQUIRE(p != NULL, "malloc");
	int fd0 = leakcheck_count_fds();
	for (size_t i = 0; i < n; i++) {
		p[i] = xalloc(USM_KIND_HOST, 64, 0, 0, CTX_A);
		*(uint64_t *)p[i] = i;
	}
	for (int i = 0; i < 64; i++) /* and other kinds and sizes */
		other[i] = xalloc(kinds[i % 3], 1 + (size_t)i * 1000, 0, 0,
				  CTX_A);
	struct usm_stats st;
	usm_stats(H, &st);
	int fds = leakcheck_count_fds() - fd0;
	printf("%zu live 64 B allocations: %d fds, %u segments, %llu MiB "
	       "mapped, %llu MiB metadata\n", n, fds, st.segments,
	       (unsigned long long)st.mapped_bytes >> 20,
	       (unsigned long long)st.meta_bytes >> 20);
	REQUIRE_OP(fds, <=, 8);
	/* The heap opened its 3 pool files (one per kind) when created. */
	REQUIRE_EQ(st.fds, (unsigned)fds + 3);
	REQUIRE_EQ(st.live_count, n + 64);
	uint64_t seed = 42;
	for (int i = 0; i < 10000; i++) {
		size_t j = rng(&seed) % n;
		REQUIRE_EQ(xquery((char *)p[j] + 63).base, p[j]);
		REQUIRE_EQ(*(uint64_t *)p[j], j);
	}
	for (size_t i = 0; i < n; i++)
		xfree(p[i], CTX_A);
	for (int i = 0; i < 64; i++)
		xfree(other[i], CTX_A);
	usm_trim(H);
	usm_stats(H, &st);
	REQUIRE_EQ(st.mapped_bytes, 0);
	free(p);
}
END_TEST

START_TEST(test_usm_heap_destroy_releases_everything)
{
	/* the fixture destroys H with all of this still live */
	for (int i = 0; i < 3000; i++)
		(void)xalloc(kinds[i % 3], 1 + (size_t)i * 11 % 70000,
			     i % 5 ? 0 : (size_t)1 << (i % 23), 0, CTX_A);
	(void)xalloc(USM_KIND_HOST, 10 << 20, 0, 0, CTX_B);
}
END_TEST

/* ---- threads ------------------------------------------------------------- */

#define NTHREADS 8
#define LIVE_MAX 512

struct worker {
	pthread_t th;
	unsigned idx;
	void *stack;
	uint64_t ops, checks;
	const char *fail;
	unsigned nlive;
	struct {
		char *p;
		size_t n;
		uint64_t id, seed;
	} live[LIVE_MAX];
};

static struct worker workers[NTHREADS];
static _Atomic int stop_flag;
static void *_Atomic shared_ptrs[64];

#define WFAIL(w, msg)                                                       \
	do {                                                                \
		(w)->fail = (msg);                                          \
		return NULL;                                                \
	} while (0)
#define CHECKED(n) ((n) < 4096 ? (n) : 4096) /* bytes filled and checked */

/* Allocates, checks its own allocations (lookup from any interior
 * pointer, contents), looks up other threads' pointers (which may be gone
 * but must never be answered wrong), frees; threads use two contexts. */
static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	uint64_t seed = 0x9e3779b97f4a7c15ull * (w->idx + 1);
	void *ctx = (char *)CTX_A + w->idx % 2, *p;
	struct usm_info in;
	for (; !atomic_load(&stop_flag); w->ops++) {
		uint64_t r = rng(&seed);
		unsigned op = r % 8, s;
		if ((op < 4 && w->nlive < LIVE_MAX) || !w->nlive) {
			size_t n = 1 + (r >> 24) % 2048;
			if ((r >> 16) % 100 == 0) /* now and then a large one */
				n = 65536 + (r >> 24) % (1 << 20);
			struct usm_req q = { .kind = kinds[(r >> 8) % 3],
					     .size = n, .ctx = ctx,
					     .align = (r >> 40) % 5 ? 0 : 256 };
			if (usm_alloc(H, &q, &p) || usm_query(H, p, &in) ||
			    in.base != p || in.size != n || in.ctx != ctx)
				WFAIL(w, "fresh allocation not found");
			s = w->nlive++;
			w->live[s].p = p;
			w->live[s].n = n;
			w->live[s].id = in.id;
			fill(p, CHECKED(n), w->live[s].seed = r);
			atomic_store(&shared_ptrs[(r >> 50) % 64],
				     (char *)p + n / 2);
			continue;
		}
		s = (unsigned)((r >> 8) % w->nlive);
		char *b = w->live[s].p, *o;
		size_t n = w->live[s].n;
		if (!check_fill(b, CHECKED(n), w->live[s].seed))
			WFAIL(w, "content overwritten");
		if (op < 7) {
			if (usm_query(H, b + (r >> 20) % n, &in) ||
			    in.base != b || in.size != n ||
			    in.id != w->live[s].id || in.ctx != ctx)
				WFAIL(w, "lookup of a live allocation");
			o = atomic_load(&shared_ptrs[(r >> 40) % 64]);
			if (o && !usm_query(H, o, &in) &&
			    (uintptr_t)(o - (char *)in.base) >= in.size)
				WFAIL(w, "foreign lookup out of range");
			w->checks++;
		} else {
			if (usm_free(H, b, (char *)ctx + 2, NULL) != -EPERM ||
			    usm_free(H, b, ctx, NULL))
				WFAIL(w, "free");
			w->live[s] = w->live[--w->nlive];
		}
	}
	return NULL;
}

START_TEST(test_usm_alloc_threads_concurrent)
{
	const size_t stack_len = 1 << 20;
	const double seconds = SCALE > 1 ? 1.0 : 2.0;
	uint64_t ops = 0, checks = 0;
	size_t left = 0;
	atomic_store(&stop_flag, 0);
	for (unsigned i = 0; i < NTHREADS; i++) {
		struct worker *w = &workers[i];
		memset(w, 0, sizeof(*w));
		w->idx = i;
		/* our own stacks: glibc's stack cache would look like a leak */
		w->stack = mmap(NULL, stack_len, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
		REQUIRE(w->stack != MAP_FAILED, "stack");
		pthread_attr_t a;
		pthread_attr_init(&a);
		pthread_attr_setstack(&a, w->stack, stack_len);
		REQUIRE_EQ(pthread_create(&w->th, &a, worker_main, w), 0);
		pthread_attr_destroy(&a);
	}
	struct timespec ts = { (time_t)seconds,
			       (long)((seconds - (time_t)seconds) * 1e9) };
	nanosleep(&ts, NULL);
	atomic_store(&stop_flag, 1);
	for (unsigned i = 0; i < NTHREADS; i++) {
		pthread_join(workers[i].th, NULL);
		REQUIRE(!workers[i].fail, "thread %u: %s", i, workers[i].fail);
		ops += workers[i].ops;
		checks += workers[i].checks;
	}
	/* the threads left live allocations behind: free them from here */
	for (unsigned i = 0; i < NTHREADS; i++) {
		struct worker *w = &workers[i];
		for (unsigned s = 0; s < w->nlive; s++) {
			REQUIRE_EQ(xquery(w->live[s].p).id, w->live[s].id);
			xfree(w->live[s].p, (char *)CTX_A + i % 2);
		}
		left += w->nlive;
		munmap(w->stack, stack_len);
	}
	struct usm_stats st;
	usm_stats(H, &st);
	REQUIRE_EQ(st.live_count, 0);
	REQUIRE_EQ(st.live_bytes, 0);
	usm_trim(H);
	usm_stats(H, &st);
	REQUIRE_EQ(st.mapped_bytes, 0); /* exited threads' caches came back */
	printf("%d threads, %.1f s: %llu operations, %llu lookups checked, "
	       "%zu left live\n", NTHREADS, seconds, (unsigned long long)ops,
	       (unsigned long long)checks, left);
}
END_TEST

/* ---- main ---------------------------------------------------------------- */

int
main(int argc, char **argv)
{
	bool only_dma = argc > 1 && !strcmp(argv[1], "dmabuf");
	if (only_dma) {
		const char *why_u, *why_d;
		int u = usm_backend_status(BK_UDMABUF, &why_u);
		int d = usm_backend_status(BK_DRM_PRIME, &why_d);
		if (u && d) {
			printf("SKIP: no dma-buf exporter: udmabuf: %s; "
			       "drm-prime: %s\n", why_u, why_d);
			return 77;
		}
	}

	/* negative cases first */
	const TTest *const tests[] = {
		test_usm_alloc_bad_args,
		test_usm_free_unknown,
		test_usm_free_interior,
		test_usm_free_double,
		test_usm_free_other_ctx,
		test_usm_backend_status_reasons,
		test_usm_backend_memfd_roundtrip,
		test_usm_alloc_every_alignment,
		test_usm_alloc_sizes_writable,
		test_usm_alloc_class_waste_bounded,
		test_usm_query_slot_division_exact,
		test_usm_query_interior_and_edges,
		test_usm_query_after_release,
		test_usm_alloc_ids_unique_increasing,
		test_usm_query_page_exclusive_truthful,
		test_usm_alloc_device_page_isolated,
		test_usm_query_backing_fd_maps_same_bytes,
		test_usm_free_ctx_frees_only_that_ctx,
		test_usm_mark_exported_never_reused,
		test_usm_exported_pages_survive_trim,
		test_usm_free_list_tail_never_dead,
		test_usm_stats_memory_given_back,
		test_usm_stats_fds_bounded_1m,
		test_usm_heap_destroy_releases_everything,
		test_usm_alloc_threads_concurrent,
	};
	Suite *s = suite_create("usm");
	TCase *tc = tcase_create("usm");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	for (unsigned t = 0; t < N_OF(tests); t++)
		tcase_add_test(tc, tests[t]);
	suite_add_tcase(s, tc);
	/* The dma-buf backends run as a test of their own ("test_usm
	 * dmabuf"), reported as skipped (exit 77) where the machine has no
	 * dma-buf exporter at all. */
	TCase *dma = tcase_create("dmabuf");
	tcase_add_checked_fixture(dma, setup, teardown);
	tcase_add_test(dma, test_usm_backend_udmabuf_roundtrip);
	tcase_add_test(dma, test_usm_backend_drm_prime_roundtrip);
	suite_add_tcase(s, dma);
	SRunner *sr = srunner_create(s);
	srunner_run_tagged(sr, NULL, only_dma ? "dmabuf" : "usm", NULL, NULL,
			   CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
