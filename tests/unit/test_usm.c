// SPDX-License-Identifier: MIT
/*
 * test_usm: the USM allocation core (driver/usm) on its own.
 *
 * Every test runs in check's forked child inside a leakcheck fixture: a
 * fresh heap, and no fd and no mapping may be left once it is destroyed.
 * The dma-buf backends (udmabuf, DRM render nodes) run as "test_usm
 * dmabuf", which exits 77 (skipped) with the reason where the machine has
 * neither. Heavy tests shrink under AddressSanitizer. Lifetime, stats and
 * thread tests are in test_usm_life.c; shared helpers in tusm.h.
 */
#include "tusm.h"

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
	/* two small shared allocations on one page, then one */
	char *a = xalloc(USM_KIND_SHARED, 64, 0, 0, CTX_A);
	char *b = xalloc(USM_KIND_SHARED, 64, 0, 0, CTX_A);
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
	};
	Suite *s = suite_create("usm");
	TCase *tc = tcase_create("usm");
	tcase_add_checked_fixture(tc, tusm_setup, tusm_teardown);
	tcase_set_timeout(tc, 120);
	for (unsigned t = 0; t < N_OF(tests); t++)
		tcase_add_test(tc, tests[t]);
	tusm_add_life_tests(tc);
	suite_add_tcase(s, tc);
	/* The dma-buf backends run as a test of their own ("test_usm
	 * dmabuf"), reported as skipped (exit 77) where the machine has no
	 * dma-buf exporter at all. */
	TCase *dma = tcase_create("dmabuf");
	tcase_add_checked_fixture(dma, tusm_setup, tusm_teardown);
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
