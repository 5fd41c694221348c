// SPDX-License-Identifier: MIT
/*
 * tusm: shared helpers and fixture of the usm tests (see tusm.h).
 */
#include "tusm.h"

const enum usm_kind kinds[] = { USM_KIND_HOST, USM_KIND_DEVICE,
				       USM_KIND_SHARED };
int ctx_a, ctx_b, dev0;

static struct leakcheck lc;
struct usm_heap *H;
size_t page;

/* ---- helpers ------------------------------------------------------------- */

int
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

void *
xalloc(enum usm_kind k, size_t size, size_t align, uint32_t flags, void *ctx)
{
	void *p = NULL;
	int err = try_alloc(k, size, align, flags, ctx, &p);
	REQUIRE(err == 0 && p, "usm_alloc(kind %d, %zu B, align %zu, flags "
			       "%#x): %d", k, size, align, flags, err);
	return p;
}

void
xfree(void *p, void *ctx)
{
	int err = usm_free(H, p, ctx, NULL);
	REQUIRE(err == 0, "usm_free(%p): %d", p, err);
}

struct usm_info
xquery(const void *p)
{
	struct usm_info i;
	int err = usm_query(H, p, &i);
	REQUIRE(err == 0, "usm_query(%p): %d", p, err);
	return i;
}

unsigned char
pattern(uint64_t seed, size_t i)
{
	return (unsigned char)(seed * 131 + i * 7 + (i >> 8));
}

void
fill(void *p, size_t n, uint64_t seed)
{
	for (size_t i = 0; i < n; i++)
		((unsigned char *)p)[i] = pattern(seed, i);
}

bool
check_fill(const void *p, size_t n, uint64_t seed)
{
	for (size_t i = 0; i < n; i++)
		if (((const unsigned char *)p)[i] != pattern(seed, i))
			return false;
	return true;
}

uint64_t
rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

bool
skip_backend(enum bk_type t)
{
	const char *why;
	if (!usm_backend_status(t, &why))
		return false;
	printf("SKIP: %s: %s\n", usm_backend_name(t), why);
	return true;
}

int
cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;
	return x->p < y->p ? -1 : x->p > y->p;
}

/* Fixture: a warm-up heap first, so malloc's own growth and one-time
 * initialisations do not count as leaks; then the snapshot. */
void
tusm_setup(void)
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

void
tusm_teardown(void)
{
	usm_heap_destroy(H);
	H = NULL;
	leakcheck_end(&lc);
}
