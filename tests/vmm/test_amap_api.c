// SPDX-License-Identifier: MIT
/*
 * test_amap_api: what the driver's one address map answers through the
 * API, for a pointer of each kind it holds: a USM block, an external-fd
 * import, an IPC-opened pointer, a VMM mapping, a reservation's unmapped
 * pages, and system memory. For each: zeMemFree, zeMemGetAllocProperties,
 * zeMemGetAddressRange, zeMemCloseIpcHandle, and a copy of the range and
 * of a range that runs past it. (Physical-range imports: test_ipc_phys.)
 * Leak-checked fixture.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check_run.h"
#include "leakcheck.h"
#include "vt.h"

#define ARG ZE_RESULT_ERROR_INVALID_ARGUMENT
#define NOTFOUND ZE_RESULT_ERROR_ADDRESS_NOT_FOUND
#define SIZE_ERR ZE_RESULT_ERROR_INVALID_SIZE

static ze_command_list_handle_t imm;

static void
setup(void)
{
	vt_checked_setup();
	ze_command_queue_desc_t qd = { ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       NULL, 0, 0, 0,
				       ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, 0 };
	ck_assert_int_eq(zt.list.pfnCreateImmediate(zt.ctx, zt.dev, &qd,
						    &imm), 0);
}

static void
teardown(void)
{
	ck_assert_int_eq(zt.list.pfnDestroy(imm), 0);
	vt_checked_teardown();
}

static ze_memory_type_t
type_of(const void *p, uint64_t *id)
{
	ze_memory_allocation_properties_t pr = {
		ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, NULL, 0, 0, 0 };
	ck_assert_int_eq(zt.mem.pfnGetAllocProperties(zt.ctx, p, &pr, NULL),
			 0);
	if (id)
		*id = pr.id;
	return pr.type;
}

static void
expect_range(const void *p, const void *base, size_t size)
{
	void *b = NULL;
	size_t n = 0;
	ck_assert_int_eq(zt.mem.pfnGetAddressRange(zt.ctx, p, &b, &n), 0);
	ck_assert_ptr_eq(b, base);
	ck_assert_uint_eq(n, size);
}

static ze_result_t
copy(void *dst, const void *src, size_t size)
{
	return zt.list.pfnAppendMemoryCopy(imm, dst, src, size, NULL, 0,
					   NULL);
}

START_TEST(test_amap_api_usm_block)
{
	char *d = NULL, *buf = malloc(8192);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, 4096, 0,
					       zt.dev, (void **)&d), 0);
	uint64_t id;
	ck_assert_int_eq(type_of(d + 100, &id), ZE_MEMORY_TYPE_DEVICE);
	ck_assert_uint_ne(id, 0);
	expect_range(d + 4095, d, 4096);
	ck_assert_int_eq(copy(d, buf, 4096), 0);
	ck_assert_int_eq(copy(d + 1, buf, 4096), SIZE_ERR);
	/* system memory running into the block */
	ck_assert_int_eq(copy(buf, d - 10, 20), SIZE_ERR);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, d), ARG);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, d + 1), ARG);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, d), 0);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, d), ARG);
	ck_assert_int_eq(type_of(buf, NULL), ZE_MEMORY_TYPE_UNKNOWN);
	void *b;
	size_t n;
	ck_assert_int_eq(zt.mem.pfnGetAddressRange(zt.ctx, buf, &b, &n),
			 NOTFOUND);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, buf), ARG);
	free(buf);
}
END_TEST

START_TEST(test_amap_api_external_import)
{
	int fd = memfd_create("amap-test", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, K64), 0);
	ck_assert_int_eq(fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK), 0);
	ze_external_memory_import_fd_t imp = {
		ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD, NULL,
		ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, fd };
	ze_device_mem_alloc_desc_t dd = zt_ddesc;
	dd.pNext = &imp;
	char *p = NULL, buf[256];
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &dd, K64, 0, zt.dev,
					       (void **)&p), 0);
	close(fd);
	ck_assert_int_eq(type_of(p + 7, NULL), ZE_MEMORY_TYPE_DEVICE);
	expect_range(p + K64 - 1, p, K64);
	ck_assert_int_eq(copy(p + K64 - 256, buf, 256), 0);
	ck_assert_int_eq(copy(p + K64 - 255, buf, 256), SIZE_ERR);
	/* an import is freed, never closed; from its base only */
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, p), ARG);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p + 4096), ARG);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), 0);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), ARG);
	ck_assert_int_eq(type_of(p, NULL), ZE_MEMORY_TYPE_UNKNOWN);
}
END_TEST

START_TEST(test_amap_api_ipc_open)
{
	char *d = NULL, *q = NULL, buf[64];
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, 8192, 0,
					       zt.dev, (void **)&d), 0);
	ze_ipc_mem_handle_t h;
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, d, &h), 0);
	/* an interior pointer, or a VMM address that is not mapped, does not
	 * export */
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, d + 64, &h), ARG);
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, h, 0,
						 (void **)&q), 0);
	ck_assert_ptr_ne(q, d);
	uint64_t id_d, id_q;
	ck_assert_int_eq(type_of(d, &id_d), ZE_MEMORY_TYPE_DEVICE);
	ck_assert_int_eq(type_of(q + 8191, &id_q), ZE_MEMORY_TYPE_DEVICE);
	ck_assert_uint_ne(id_d, id_q);
	expect_range(q + 100, q, 8192);
	ck_assert_int_eq(copy(q + 8192 - 64, buf, 64), 0);
	ck_assert_int_eq(copy(q + 8192 - 63, buf, 64), SIZE_ERR);
	/* an opened pointer is closed, never freed; from its base only */
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, q), ARG);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, q + 1), ARG);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, q), 0);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, q), ARG);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), 0);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, d), 0);
}
END_TEST

START_TEST(test_amap_api_vmm)
{
	/* 4 MiB reserved; two 1 MiB windows of one 2 MiB object, back to
	 * back at the start; the rest unmapped. */
	char *r = vt_reserve(2 * M2);
	ze_physical_mem_handle_t ph = vt_phys(M2);
	size_t M1 = M2 / 2;
	vt_map(r, M1, ph, 0, RW);
	vt_map(r + M1, M1, ph, M1, RW);
	char *buf = malloc(M2 + 4096);
	ck_assert_ptr_nonnull(buf);
	uint64_t id1, id2;
	ck_assert_int_eq(type_of(r + 10, &id1), ZE_MEMORY_TYPE_DEVICE);
	ck_assert_int_eq(type_of(r + M1, &id2), ZE_MEMORY_TYPE_DEVICE);
	ck_assert_uint_ne(id1, id2);
	expect_range(r + 10, r, M1);
	expect_range(r + M1 + 5, r + M1, M1);
	/* the reservation's unmapped pages are no allocation */
	ck_assert_int_eq(type_of(r + M2, NULL), ZE_MEMORY_TYPE_UNKNOWN);
	void *b;
	size_t n;
	ck_assert_int_eq(zt.mem.pfnGetAddressRange(zt.ctx, r + M2, &b, &n),
			 NOTFOUND);
	/* a copy may span adjacent mappings, never unmapped pages */
	memset(buf, 0x5a, M2);
	ck_assert_int_eq(copy(r, buf, M2), 0);
	ck_assert_int_eq((unsigned char)r[M2 - 1], 0x5a);
	ck_assert_int_eq(copy(r, buf, M2 + 4096), SIZE_ERR);
	ck_assert_int_eq(copy(r + M2, buf, 4096), SIZE_ERR);
	ck_assert_int_eq(copy(buf, r + M2 - 8, 16), SIZE_ERR);
	/* virtual memory is neither freed nor closed */
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, r), ARG);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, r + M2), ARG);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, r), ARG);
	vt_unmap(r, M1);
	ck_assert_int_eq(type_of(r, NULL), ZE_MEMORY_TYPE_UNKNOWN);
	expect_range(r + M1, r + M1, M1);
	vt_unmap(r + M1, M1);
	vt_phys_destroy(ph);
	vt_free(r, 2 * M2);
	/* after the free: system memory (if nothing else lands there) */
	free(buf);
}
END_TEST

static Suite *
amap_api_suite(void)
{
	Suite *s = suite_create("amap_api");
	TCase *tc = tcase_create("amap_api");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_amap_api_usm_block);
	tcase_add_test(tc, test_amap_api_external_import);
	tcase_add_test(tc, test_amap_api_ipc_open);
	tcase_add_test(tc, test_amap_api_vmm);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return check_run(amap_api_suite(), CK_NORMAL, false);
}
