// SPDX-License-Identifier: MIT
/*
 * test_cmd_copy: memory copy, fill, region copy, prefetch and advise:
 * argument errors (null, overlap, out of range), every USM kind and plain
 * malloc'ed memory as source and destination, every fill pattern size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcmd.h"

static const ze_memory_type_t kinds[] = {
	ZE_MEMORY_TYPE_HOST, ZE_MEMORY_TYPE_DEVICE, ZE_MEMORY_TYPE_SHARED,
	ZE_MEMORY_TYPE_UNKNOWN, /* malloc */
};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

START_TEST(test_copy_errors)
{
	ze_command_list_handle_t l = tc_list(0);
	char *d = tc_alloc(ZE_MEMORY_TYPE_DEVICE, 4096);
	char *h = tc_alloc(ZE_MEMORY_TYPE_HOST, 4096);
	char stack[64];
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(NULL, d, h, 8, NULL, 0,
						     NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(l, NULL, h, 8, NULL, 0,
						     NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(l, d, NULL, 8, NULL, 0,
						     NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(l, d, h, 8, NULL, 2,
						     NULL),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(
				 (ze_command_list_handle_t)tc_forged, d, h, 8,
				 NULL, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* Overlap, both directions and exact. */
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(l, d + 1, d, 8, NULL, 0,
						     NULL),
			 ZE_RESULT_ERROR_OVERLAPPING_REGIONS);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(l, d, d + 7, 8, NULL, 0,
						     NULL),
			 ZE_RESULT_ERROR_OVERLAPPING_REGIONS);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(l, stack, stack, 8, NULL,
						     0, NULL),
			 ZE_RESULT_ERROR_OVERLAPPING_REGIONS);
	/* Adjacent is fine. */
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(l, d + 8, d, 8, NULL, 0,
						     NULL),
			 ZE_RESULT_SUCCESS);
	/* Past the end of a known allocation, from inside it. */
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(l, d + 4000, h, 97, NULL,
						     0, NULL),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(l, stack, h + 1, 4096,
						     NULL, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	/* Wrapping around the address space. */
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(
				 l, (void *)(UINTPTR_MAX - 16), h, 64, NULL,
				 0, NULL),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	/* Exactly up to the end, and zero bytes, are fine. */
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(l, d + 4000, h, 96, NULL,
						     0, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(l, d, h, 0, NULL, 0,
						     NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(l), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_DEVICE, d);
	tc_free(ZE_MEMORY_TYPE_HOST, h);
}
END_TEST

/* A range that starts in unknown memory and runs into an allocation. */
START_TEST(test_copy_runs_into_allocation)
{
	ze_command_list_handle_t l = tc_list(0);
	size_t n = 4 << 20; /* large: a mapping of its own */
	char *d = tc_alloc(ZE_MEMORY_TYPE_DEVICE, n);
	char *m = tc_alloc(ZE_MEMORY_TYPE_UNKNOWN, 256);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(l, m, d - 64, 128, NULL,
						     0, NULL),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	ck_assert_int_eq(zt.list.pfnDestroy(l), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_DEVICE, d);
	tc_free(ZE_MEMORY_TYPE_UNKNOWN, m);
}
END_TEST

/* Every kind to every kind, several sizes, regular and immediate lists. */
START_TEST(test_copy_every_kind)
{
	static const size_t sizes[] = { 1, 7, 4096, 65537, (1 << 20) + 3 };
	ze_command_list_handle_t imm = tc_imm(0);
	ze_command_queue_handle_t q = tc_queue(1, 0);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t n = sizes[s];
		for (size_t i = 0; i < NKINDS; i++) {
			for (size_t j = 0; j < NKINDS; j++) {
				char *src = tc_alloc(kinds[i], n);
				char *dst = tc_alloc(kinds[j], n);
				unsigned seed = (unsigned)(s * 16 + i * 4 + j);
				tc_pattern(src, n, seed);
				memset(dst, 0, n);
				ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(
							 imm, dst, src, n, NULL,
							 0, NULL),
						 ZE_RESULT_SUCCESS);
				ck_assert_int_eq(zt.list.pfnHostSynchronize(
							 imm, UINT64_MAX),
						 ZE_RESULT_SUCCESS);
				ck_assert_msg(tc_check_pattern(dst, n, seed),
					      "immediate copy kind %zu -> %zu, "
					      "%zu bytes", i, j, n);
				memset(dst, 0, n);
				ze_command_list_handle_t l = tc_list(1);
				ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(
							 l, dst, src, n, NULL,
							 0, NULL),
						 ZE_RESULT_SUCCESS);
				tc_run(q, l);
				ck_assert_msg(tc_check_pattern(dst, n, seed),
					      "list copy kind %zu -> %zu", i,
					      j);
				ck_assert_int_eq(zt.list.pfnDestroy(l),
						 ZE_RESULT_SUCCESS);
				tc_free(kinds[i], src);
				tc_free(kinds[j], dst);
			}
		}
	}
	ck_assert_int_eq(zt.list.pfnDestroy(imm), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnDestroy(q), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_copy_from_context)
{
	ze_command_list_handle_t i = tc_imm(0);
	char a[512], b[512];
	tc_pattern(b, sizeof(b), 2);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopyFromContext(
				 i, a, NULL, b, 512, NULL, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopyFromContext(
				 i, a, (ze_context_handle_t)tc_forged, b, 512,
				 NULL, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopyFromContext(
				 i, a, zt.ctx, b, 512, NULL, 0, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnHostSynchronize(i, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert(tc_check_pattern(a, sizeof(a), 2));
	ck_assert_int_eq(zt.list.pfnDestroy(i), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_fill_errors)
{
	ze_command_list_handle_t l = tc_list(0);
	char *d = tc_alloc(ZE_MEMORY_TYPE_SHARED, 1024);
	uint8_t pat[256] = { 0 };
	ck_assert_int_eq(zt.list.pfnAppendMemoryFill(NULL, d, pat, 1, 8, NULL,
						     0, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.list.pfnAppendMemoryFill(l, NULL, pat, 1, 8, NULL,
						     0, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.list.pfnAppendMemoryFill(l, d, NULL, 1, 8, NULL,
						     0, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.list.pfnAppendMemoryFill(l, d, pat, 1, 8, NULL, 1,
						     NULL),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	static const size_t bad[] = { 0, 3, 6, 24, 256 };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_int_eq(zt.list.pfnAppendMemoryFill(l, d, pat, bad[i],
							     64, NULL, 0,
							     NULL),
				 ZE_RESULT_ERROR_INVALID_SIZE);
	ck_assert_int_eq(zt.list.pfnAppendMemoryFill(l, d + 1000, pat, 4, 32,
						     NULL, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	ck_assert_int_eq(zt.list.pfnDestroy(l), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_SHARED, d);
}
END_TEST

/* Every pattern size, odd offsets and sizes (not multiples of the
 * pattern), uniform and varied patterns, small and large fills. */
START_TEST(test_fill_every_pattern_size)
{
	static const size_t sizes[] = { 1, 100, 257, 4099, (1 << 20) + 77 };
	ze_command_list_handle_t i = tc_imm(0);
	size_t cap = (1 << 20) + 256;
	unsigned char *buf = tc_alloc(ZE_MEMORY_TYPE_DEVICE, cap);
	uint8_t pat[128];
	for (size_t ps = 1; ps <= 128; ps *= 2) {
		for (int uniform = 0; uniform < 2; uniform++) {
			for (size_t k = 0; k < ps; k++)
				pat[k] = uniform ? 0x5a
						 : (uint8_t)(k * 37 + ps + 1);
			for (size_t s = 0; s < 5; s++) {
				size_t off = (ps + s) % 61, n = sizes[s];
				memset(buf, 0xee, cap);
				ck_assert_int_eq(zt.list.pfnAppendMemoryFill(
							 i, buf + off, pat, ps,
							 n, NULL, 0, NULL),
						 ZE_RESULT_SUCCESS);
				ck_assert_int_eq(zt.list.pfnHostSynchronize(
							 i, UINT64_MAX),
						 ZE_RESULT_SUCCESS);
				for (size_t b = 0; b < off; b++)
					ck_assert_uint_eq(buf[b], 0xee);
				size_t bad = n;
				for (size_t b = 0; b < n && bad == n; b++)
					if (buf[off + b] != pat[b % ps])
						bad = b;
				ck_assert_msg(bad == n,
					      "pattern %zu: byte %zu of %zu",
					      ps, bad, n);
				ck_assert_uint_eq(buf[off + n], 0xee);
			}
		}
	}
	ck_assert_int_eq(zt.list.pfnDestroy(i), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_DEVICE, buf);
}
END_TEST

/* Larger than the last-level cache: the non-temporal path. */
START_TEST(test_fill_large)
{
	size_t n = (96u << 20) + 5;
	ze_command_list_handle_t i = tc_imm(0);
	unsigned char *buf = tc_alloc(ZE_MEMORY_TYPE_UNKNOWN, n + 3);
	uint8_t pat[16];
	for (int k = 0; k < 16; k++)
		pat[k] = (uint8_t)(k * 17 + 3);
	ck_assert_int_eq(zt.list.pfnAppendMemoryFill(i, buf + 3, pat, 16, n,
						     NULL, 0, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnHostSynchronize(i, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	for (size_t b = 0; b < n; b += 4093)
		ck_assert_uint_eq(buf[3 + b], pat[b % 16]);
	ck_assert_uint_eq(buf[3 + n - 1], pat[(n - 1) % 16]);
	ck_assert_int_eq(zt.list.pfnDestroy(i), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_UNKNOWN, buf);
}
END_TEST

START_TEST(test_prefetch_and_advise)
{
	ze_command_list_handle_t l = tc_list(0);
	char *s = tc_alloc(ZE_MEMORY_TYPE_SHARED, 8192);
	memset(s, 3, 8192);
	ck_assert_int_eq(zt.list.pfnAppendMemoryPrefetch(NULL, s, 8192),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.list.pfnAppendMemoryPrefetch(l, NULL, 8192),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.list.pfnAppendMemoryPrefetch(l, s, 8193),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	ck_assert_int_eq(zt.list.pfnAppendMemAdvise(NULL, zt.dev, s, 8192, 0),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.list.pfnAppendMemAdvise(l, NULL, s, 8192, 0),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.list.pfnAppendMemAdvise(l, zt.dev, NULL, 8192, 0),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.list.pfnAppendMemAdvise(
				 l, zt.dev, s, 8192, (ze_memory_advice_t)10),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	ck_assert_int_eq(zt.list.pfnAppendMemAdvise(
				 l, (ze_device_handle_t)tc_forged, s, 8192, 0),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(zt.list.pfnAppendMemAdvise(l, zt.dev, s + 8, 8192,
						    0),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	ck_assert_int_eq(zt.list.pfnAppendMemoryPrefetch(l, s, 8192),
			 ZE_RESULT_SUCCESS);
	for (int a = 0; a <= 7; a++)
		ck_assert_int_eq(zt.list.pfnAppendMemAdvise(
					 l, zt.dev, s, 8192,
					 (ze_memory_advice_t)a),
				 ZE_RESULT_SUCCESS);
	ze_command_queue_handle_t q = tc_queue(0, 0);
	tc_run(q, l);
	for (int b = 0; b < 8192; b++)
		ck_assert_int_eq(s[b], 3); /* hints change no data */
	ck_assert_int_eq(zt.queue.pfnDestroy(q), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(l), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_SHARED, s);
}
END_TEST

/* Copies into a virtual reservation: two adjacent mappings are one
 * range; unmapped pages of the reservation are refused. */
START_TEST(test_copy_vmm_range)
{
	if (!zt.vmem.pfnReserve || !zt.pmem.pfnCreate) {
		printf("test_copy_vmm_range: no VMM entry points, not run\n");
		return;
	}
	size_t ps = 0;
	ck_assert_int_eq(zt.vmem.pfnQueryPageSize(zt.ctx, zt.dev, 65536, &ps),
			 ZE_RESULT_SUCCESS);
	void *va = NULL;
	ck_assert_int_eq(zt.vmem.pfnReserve(zt.ctx, NULL, 3 * ps, &va),
			 ZE_RESULT_SUCCESS);
	ze_physical_mem_desc_t pd = {
		ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, NULL,
		ZE_PHYSICAL_MEM_FLAG_ALLOCATE_ON_DEVICE, ps };
	ze_physical_mem_handle_t ph[2];
	for (int k = 0; k < 2; k++) {
		ck_assert_int_eq(zt.pmem.pfnCreate(zt.ctx, zt.dev, &pd, &ph[k]),
				 ZE_RESULT_SUCCESS);
		ze_memory_access_attribute_t rw =
			ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE;
		ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, (char *)va + k * ps, ps,
						ph[k], 0, rw),
				 ZE_RESULT_SUCCESS);
	}
	char *src = tc_alloc(ZE_MEMORY_TYPE_UNKNOWN, 3 * ps);
	tc_pattern(src, 2 * ps, 31);
	ze_command_list_handle_t i = tc_imm(0);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(i, va, src, 2 * ps, NULL,
						     0, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnHostSynchronize(i, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert(tc_check_pattern(va, 2 * ps, 31));
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(i, va, src, 2 * ps + 1,
						     NULL, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(i, (char *)va + 2 * ps,
						     src, 16, NULL, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	ck_assert_int_eq(zt.list.pfnAppendMemoryFill(i, (char *)va + ps - 8,
						     src, 1, ps + 9, NULL, 0,
						     NULL),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	ck_assert_int_eq(zt.list.pfnDestroy(i), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_UNKNOWN, src);
	ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, va, 2 * ps),
			 ZE_RESULT_SUCCESS);
	for (int k = 0; k < 2; k++)
		ck_assert_int_eq(zt.pmem.pfnDestroy(zt.ctx, ph[k]),
				 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.vmem.pfnFree(zt.ctx, va, 3 * ps),
			 ZE_RESULT_SUCCESS);
}
END_TEST

TCase *
tc_case_copy(void)
{
	TCase *tc = tcase_create("copy");
	tcase_add_checked_fixture(tc, tc_setup, tc_teardown);
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_copy_errors);
	tcase_add_test(tc, test_copy_runs_into_allocation);
	tcase_add_test(tc, test_copy_every_kind);
	tcase_add_test(tc, test_copy_from_context);
	tcase_add_test(tc, test_copy_vmm_range);
	tcase_add_test(tc, test_fill_errors);
	tcase_add_test(tc, test_fill_every_pattern_size);
	tcase_add_test(tc, test_fill_large);
	tcase_add_test(tc, test_prefetch_and_advise);
	return tc;
}

/* ---- region copies ---------------------------------------------------- */

/* Reference: what a region copy must produce. */
static void
ref_region(char *dst, const ze_copy_region_t *dr, size_t dp, size_t ds,
	   const char *src, const ze_copy_region_t *sr, size_t sp, size_t ss)
{
	size_t h = dr->height ? dr->height : 1, d = dr->depth ? dr->depth : 1;
	for (size_t z = 0; z < d; z++)
		for (size_t y = 0; y < h; y++)
			memcpy(dst + (dr->originZ + z) * ds +
				       (dr->originY + y) * dp + dr->originX,
			       src + (sr->originZ + z) * ss +
				       (sr->originY + y) * sp + sr->originX,
			       dr->width);
}

START_TEST(test_region_2d_and_3d)
{
	ze_command_list_handle_t i = tc_imm(0);
	enum { SP = 200, SS = 200 * 50, DP = 160, DS = 160 * 40, Z = 6 };
	char *src = tc_alloc(ZE_MEMORY_TYPE_DEVICE, SS * Z);
	char *dst = tc_alloc(ZE_MEMORY_TYPE_SHARED, DS * Z);
	char *ref = tc_alloc(ZE_MEMORY_TYPE_UNKNOWN, DS * Z);
	tc_pattern(src, SS * Z, 77);
	struct { ze_copy_region_t s, d; } cases[] = {
		/* 2D, 3D, a column of single bytes, packed rows */
		{ { 3, 2, 0, 100, 30, 0 }, { 17, 5, 0, 100, 30, 0 } },
		{ { 0, 0, 1, 150, 40, 4 }, { 5, 0, 0, 150, 40, 4 } },
		{ { 10, 1, 2, 1, 1, 3 }, { 0, 39, 3, 1, 1, 3 } },
		{ { 0, 0, 0, 160, 40, 2 }, { 0, 0, 0, 160, 40, 2 } },
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		memset(dst, 0, DS * Z);
		memset(ref, 0, DS * Z);
		ref_region(ref, &cases[k].d, DP, DS, src, &cases[k].s, SP, SS);
		uint32_t sp = SP, dp = DP;
		uint32_t ss = SS, ds = DS;
		if (k == 3) { /* packed both sides: same pitches as widths */
			sp = dp = 160;
			ss = ds = 160 * 40;
			memset(ref, 0, DS * Z);
			ref_region(ref, &cases[k].d, dp, ds, src, &cases[k].s,
				   sp, ss);
		}
		ck_assert_int_eq(zt.list.pfnAppendMemoryCopyRegion(
					 i, dst, &cases[k].d, dp, ds, src,
					 &cases[k].s, sp, ss, NULL, 0, NULL),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.list.pfnHostSynchronize(i, UINT64_MAX),
				 ZE_RESULT_SUCCESS);
		ck_assert_msg(!memcmp(dst, ref, DS * Z), "region case %zu", k);
	}
	ck_assert_int_eq(zt.list.pfnDestroy(i), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_DEVICE, src);
	tc_free(ZE_MEMORY_TYPE_SHARED, dst);
	tc_free(ZE_MEMORY_TYPE_UNKNOWN, ref);
}
END_TEST

START_TEST(test_region_errors)
{
	ze_command_list_handle_t l = tc_list(0);
	char *buf = tc_alloc(ZE_MEMORY_TYPE_DEVICE, 100 * 100);
	char *other = tc_alloc(ZE_MEMORY_TYPE_DEVICE, 100 * 100);
	ze_copy_region_t r = { 0, 0, 0, 50, 10, 0 }, r2 = r;
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopyRegion(
				 NULL, buf, &r, 100, 0, other, &r, 100, 0,
				 NULL, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopyRegion(
				 l, buf, NULL, 100, 0, other, &r, 100, 0,
				 NULL, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopyRegion(
				 l, buf, &r, 100, 0, NULL, &r, 100, 0, NULL,
				 0, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopyRegion(
				 l, buf, &r, 100, 0, other, &r, 100, 0, NULL,
				 3, NULL),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	r2.height = 11; /* dimensions differ */
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopyRegion(
				 l, buf, &r, 100, 0, other, &r2, 100, 0, NULL,
				 0, NULL),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	/* A pitch smaller than the rows it steps over. */
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopyRegion(
				 l, buf, &r, 40, 0, other, &r, 100, 0, NULL,
				 0, NULL),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	/* Past the end of the allocation. */
	r2 = r;
	r2.originY = 95;
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopyRegion(
				 l, buf, &r2, 100, 0, other, &r, 100, 0, NULL,
				 0, NULL),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	/* Same buffer: overlapping rows are refused ... */
	r2 = r;
	r2.originX = 25;
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopyRegion(
				 l, buf, &r2, 100, 0, buf, &r, 100, 0, NULL, 0,
				 NULL),
			 ZE_RESULT_ERROR_OVERLAPPING_REGIONS);
	/* ... interleaved but disjoint ones (left half to right half) are
	 * not, and copy right. */
	ze_copy_region_t left = { 0, 0, 0, 50, 100, 0 };
	ze_copy_region_t right = { 50, 0, 0, 50, 100, 0 };
	tc_pattern(buf, 100 * 100, 8);
	char *ref = tc_alloc(ZE_MEMORY_TYPE_UNKNOWN, 100 * 100);
	memcpy(ref, buf, 100 * 100);
	ref_region(ref, &right, 100, 0, buf, &left, 100, 0);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopyRegion(
				 l, buf, &right, 100, 0, buf, &left, 100, 0,
				 NULL, 0, NULL),
			 ZE_RESULT_SUCCESS);
	ze_command_queue_handle_t q = tc_queue(0, 0);
	tc_run(q, l);
	ck_assert(!memcmp(buf, ref, 100 * 100));
	ck_assert_int_eq(zt.queue.pfnDestroy(q), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(l), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_DEVICE, buf);
	tc_free(ZE_MEMORY_TYPE_DEVICE, other);
	tc_free(ZE_MEMORY_TYPE_UNKNOWN, ref);
}
END_TEST

TCase *
tc_case_region(void)
{
	TCase *tc = tcase_create("region");
	tcase_add_checked_fixture(tc, tc_setup, tc_teardown);
	tcase_add_test(tc, test_region_2d_and_3d);
	tcase_add_test(tc, test_region_errors);
	return tc;
}
