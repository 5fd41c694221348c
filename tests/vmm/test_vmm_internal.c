// SPDX-License-Identifier: MIT
/*
 * test_vmm_internal: the interface driver/vmm gives the IPC side
 * (vmm_phys_info, vmm_range_walk) and drv_mem.c (vmm_usm_info), tested
 * from a program linked with the driver's objects (those functions are
 * not exported from the shared object). The ze* calls go straight to the
 * drv_ze* entry points.
 */
#include <check.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_run.h"
#include "drv.h"
#include "leakcheck.h"
#include "vt_maps.h"
#include "vmm/vmm.h"

#define K64 ((size_t)64 << 10)
#define M2 ((size_t)2 << 20)
#define RW ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE
#define RO ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY

static ze_device_handle_t dev;
static ze_context_handle_t ctx;
static struct leakcheck lc;
static struct vt_maps maps0;

static int
count(const struct vmm_piece *pc, void *arg)
{
	(void)pc;
	++*(unsigned *)arg;
	return 0;
}

/* Every allocating path once before the snapshot (see vt_warm_up in
 * vt.h: sanitizer allocators map once per size class and keep it). */
static void
warm_up(ze_driver_handle_t drv)
{
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ck_assert_int_eq(drv_zeContextCreate(drv, &cd, &ctx),
			 ZE_RESULT_SUCCESS);
	ze_physical_mem_desc_t d = { ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, NULL,
				     0, K64 };
	ze_physical_mem_handle_t h[8];
	char *p[20];
	for (int i = 0; i < 8; i++)
		ck_assert_int_eq(drv_zePhysicalMemCreate(ctx, dev, &d, &h[i]),
				 ZE_RESULT_SUCCESS);
	for (int i = 0; i < 20; i++)
		ck_assert_int_eq(drv_zeVirtualMemReserve(ctx, NULL, 8 * K64,
							 (void **)&p[i]),
				 ZE_RESULT_SUCCESS);
	for (int i = 0; i < 8; i++)
		ck_assert_int_eq(drv_zeVirtualMemMap(
					 ctx, p[0] + i * K64, K64, h[i], 0,
					 RW),
				 ZE_RESULT_SUCCESS);
	unsigned n = 0;
	ck_assert_int_eq(vmm_range_walk(drv_context_get(ctx), p[0], 8 * K64,
					count, &n),
			 0);
	ck_assert_int_eq(drv_zeVirtualMemMap(ctx, p[0], K64, h[0], 0,
					     RW),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	for (int i = 0; i < 20; i++)
		ck_assert_int_eq(drv_zeVirtualMemFree(ctx, p[i], 8 * K64),
				 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(drv_zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
}

static void
setup(void)
{
	ck_assert_int_eq(drv_zeInit(0), ZE_RESULT_SUCCESS);
	ze_driver_handle_t drv;
	uint32_t n = 1;
	ck_assert_int_eq(drv_zeDriverGet(&n, &drv), ZE_RESULT_SUCCESS);
	n = 1;
	ck_assert_int_eq(drv_zeDeviceGet(drv, &n, &dev), ZE_RESULT_SUCCESS);
	warm_up(drv);
	if (!TEST_ASAN)
		leakcheck_begin(&lc);
	vt_maps_now(&maps0);
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ck_assert_int_eq(drv_zeContextCreate(drv, &cd, &ctx),
			 ZE_RESULT_SUCCESS);
}

static void
teardown(void)
{
	ck_assert_int_eq(drv_zeContextDestroy(ctx), ZE_RESULT_SUCCESS);
	struct vt_maps now;
	vt_maps_now(&now);
	vt_maps_assert_same(&maps0, &now);
	if (!TEST_ASAN)
		leakcheck_end(&lc);
}

static ze_physical_mem_handle_t
phys(size_t size, ze_physical_mem_flags_t flags)
{
	ze_physical_mem_desc_t d = { ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, NULL,
				     flags, size };
	ze_physical_mem_handle_t h = NULL;
	ck_assert_int_eq(drv_zePhysicalMemCreate(ctx, dev, &d, &h),
			 ZE_RESULT_SUCCESS);
	return h;
}

START_TEST(test_vmm_phys_info)
{
	ze_physical_mem_handle_t h = phys(M2, 0);
	ze_physical_mem_handle_t hh =
		phys(4096 * 3, ZE_PHYSICAL_MEM_FLAG_ALLOCATE_ON_HOST);
	char junk[64];
	ck_assert_int_eq(vmm_phys_info((void *)junk, NULL, NULL, NULL),
			 -ENOENT);
	ck_assert_int_eq(vmm_phys_info(NULL, NULL, NULL, NULL), -ENOENT);
	int fd = -1;
	size_t size = 0;
	struct vmm_phys_info info;
	ck_assert_int_eq(vmm_phys_info(h, &fd, &size, &info), 0);
	ck_assert_uint_eq(size, M2);
	ck_assert_uint_eq(info.size, M2);
	ck_assert_uint_eq(info.page_size, M2);
	ck_assert_int_eq(info.kind, USM_KIND_DEVICE);
	ck_assert_ptr_eq(info.dev, dev);
	ck_assert_ptr_eq(info.ctx, ctx);
	ze_physical_mem_properties_t pp = {
		ZE_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES, NULL, 0, 0
	};
	ck_assert_int_eq(drv_zePhysicalMemGetProperties(ctx, h, &pp),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(info.id, pp.id);
	/* The fd is the caller's: it outlives the object. */
	ck_assert_int_eq(leakcheck_fd_cloexec(fd), 1);
	ck_assert_int_eq(drv_zePhysicalMemDestroy(ctx, h), ZE_RESULT_SUCCESS);
	struct stat st;
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_eq(st.st_size, (off_t)M2);
	close(fd);
	ck_assert_int_eq(vmm_phys_info(h, NULL, NULL, NULL), -ENOENT);
	ck_assert_int_eq(vmm_phys_info(hh, NULL, NULL, &info), 0);
	ck_assert_int_eq(info.kind, USM_KIND_HOST);
	ck_assert_uint_eq(info.page_size, (size_t)sysconf(_SC_PAGESIZE));
	ck_assert_int_eq(drv_zePhysicalMemDestroy(ctx, hh), ZE_RESULT_SUCCESS);
}
END_TEST

struct seen {
	unsigned n;
	struct vmm_piece p[8];
	unsigned stop_at;
};

static int
record(const struct vmm_piece *pc, void *arg)
{
	struct seen *s = arg;
	ck_assert_uint_lt(s->n, 8);
	ck_assert_int_ge(fcntl(pc->fd, F_GETFD), 0);
	s->p[s->n++] = *pc;
	return s->n == s->stop_at ? 99 : 0;
}

START_TEST(test_vmm_range_walk)
{
	char *p = NULL;
	ck_assert_int_eq(drv_zeVirtualMemReserve(ctx, NULL, 8 * K64,
						 (void **)&p),
			 ZE_RESULT_SUCCESS);
	ze_physical_mem_handle_t a = phys(4 * K64, 0), b = phys(K64, 0);
	struct _ze_context_handle_t *c = drv_context_get(ctx);
	/* [a 0..2) [a 2..4) as two maps, [b], hole, [a 1..2) */
	ck_assert_int_eq(drv_zeVirtualMemMap(ctx, p, 2 * K64, a, 0,
					     RW),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(drv_zeVirtualMemMap(ctx, p + 2 * K64, 2 * K64, a,
					     2 * K64,
					     RW),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(drv_zeVirtualMemMap(ctx, p + 4 * K64, K64, b, 0,
					     RO),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(drv_zeVirtualMemMap(ctx, p + 6 * K64, K64, a, K64,
					     RW),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(drv_zeVirtualMemSetAccessAttribute(
				 ctx, p + K64, K64,
				 RO),
			 ZE_RESULT_SUCCESS);
	struct seen s = { 0 };
	/* Errors: not a reservation of c, holes, empty range. */
	ck_assert_int_eq(vmm_range_walk(c, p, 9 * K64, record, &s), -ENOENT);
	ck_assert_int_eq(vmm_range_walk(c, p, 7 * K64, record, &s), -ENXIO);
	ck_assert_int_eq(vmm_range_walk(c, p + 5 * K64, K64, record, &s),
			 -ENXIO);
	ck_assert_int_eq(vmm_range_walk(c, p, 0, record, &s), -EINVAL);
	ck_assert_uint_eq(s.n, 0);
	/* Object a at contiguous offsets over several maps and an access
	 * split comes back as one run, then b. */
	ck_assert_int_eq(vmm_range_walk(c, p, 5 * K64, record, &s), 0);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_ptr_eq(s.p[0].va, p);
	ck_assert_uint_eq(s.p[0].size, 4 * K64);
	ck_assert_ptr_eq(s.p[0].phys, a);
	ck_assert_uint_eq(s.p[0].offset, 0);
	ck_assert_uint_eq(s.p[0].info.size, 4 * K64);
	ck_assert_ptr_eq(s.p[1].va, p + 4 * K64);
	ck_assert_ptr_eq(s.p[1].phys, b);
	ck_assert_uint_eq(s.p[1].size, K64);
	/* Clipped at both ends. */
	s.n = 0;
	ck_assert_int_eq(vmm_range_walk(c, p + K64, 2 * K64, record, &s), 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_uint_eq(s.p[0].offset, K64);
	ck_assert_uint_eq(s.p[0].size, 2 * K64);
	/* The callback stops the walk. */
	s = (struct seen){ .stop_at = 1 };
	ck_assert_int_eq(vmm_range_walk(c, p, 5 * K64, record, &s), 99);
	ck_assert_uint_eq(s.n, 1);
	/* vmm_usm_info: the mapping, not the run. */
	struct usm_info ui;
	ck_assert_int_eq(vmm_usm_info(c, p + 3 * K64, &ui), 0);
	ck_assert_ptr_eq(ui.base, p + 2 * K64);
	ck_assert_uint_eq(ui.size, 2 * K64);
	ck_assert_uint_eq(ui.fd_offset, 2 * K64);
	ck_assert(ui.id & (1ull << 63));
	ck_assert_int_eq(vmm_usm_info(c, p + 5 * K64, &ui), -ENOENT);
	ck_assert_int_eq(drv_zeVirtualMemFree(ctx, p, 8 * K64),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(vmm_range_walk(c, p, K64, record, &s), -ENOENT);
	ck_assert_int_eq(drv_zePhysicalMemDestroy(ctx, a), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(drv_zePhysicalMemDestroy(ctx, b), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_vmm_os_helpers)
{
	void *p = NULL;
	ck_assert_int_eq(vmm_os_reserve(3 * M2, M2, &p), 0);
	ck_assert_uint_eq((uintptr_t)p % M2, 0);
	ze_physical_mem_handle_t h = phys(M2, 0);
	int fd;
	ck_assert_int_eq(vmm_phys_info(h, &fd, NULL, NULL), 0);
	ck_assert_int_eq(vmm_os_map_fd((char *)p + M2, M2,
				       PROT_READ | PROT_WRITE, fd, 0),
			 0);
	((char *)p)[M2] = 5;
	ck_assert_int_eq(vmm_os_placeholder((char *)p + M2, M2), 0);
	/* Past the end of the file: refused, the placeholder stays. */
	ck_assert_int_ne(vmm_os_map_fd(p, M2, PROT_READ, -1, 0), 0);
	ck_assert_int_eq(msync(p, 3 * M2, MS_ASYNC), 0);
	ck_assert_int_eq(vmm_os_release(p, 3 * M2), 0);
	close(fd);
	ck_assert_int_eq(drv_zePhysicalMemDestroy(ctx, h), ZE_RESULT_SUCCESS);
}
END_TEST

static Suite *
internal_suite(void)
{
	Suite *s = suite_create("vmm-internal");
	TCase *tc = tcase_create("vmm-internal");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_vmm_phys_info);
	tcase_add_test(tc, test_vmm_range_walk);
	tcase_add_test(tc, test_vmm_os_helpers);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return check_run(internal_suite(), CK_NORMAL, false);
}
