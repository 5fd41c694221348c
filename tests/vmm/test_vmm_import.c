// SPDX-License-Identifier: MIT
/*
 * test_vmm_import: physical memory made of another object's file (issue
 * 19, WholeMemory's CONTINUOUS memory): zePhysicalMemCreate with a
 * chained ze_external_memory_import_fd_t, and the export fd of a VMM
 * mapping from zeMemGetAllocProperties (its object's memfd). Error cases
 * first, with exact results; then the pages are shared, the import counts
 * against no budget, and the caller keeps its fd. Leak-checked fixture.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "check_run.h"
#include "leakcheck.h"
#include "vt.h"

static ze_result_t
import(ze_physical_mem_flags_t flags, size_t size, uint32_t type, int fd,
       const void *next, ze_physical_mem_handle_t *out)
{
	ze_external_memory_import_fd_t im = {
		ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD, next, type, fd
	};
	ze_physical_mem_desc_t d = vt_desc(flags, size);
	d.pNext = &im;
	*out = NULL;
	return zt.pmem.pfnCreate(zt.ctx, flags & ON_HOST ? NULL : zt.dev, &d,
				 out);
}

/* The export fd of the mapping at p (driver-owned). */
static int
mapping_fd(void *p)
{
	ze_external_memory_export_fd_t xf = {
		ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD, NULL,
		ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, -1
	};
	ze_memory_allocation_properties_t ap = {
		ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, &xf, 0, 0, 0
	};
	ck_assert_int_eq(zt.mem.pfnGetAllocProperties(zt.ctx, p, &ap, NULL),
			 ZE_RESULT_SUCCESS);
	return xf.fd;
}

START_TEST(test_zePhysicalMemCreate_import_errors)
{
	ze_physical_mem_handle_t h;
	int mfd = memfd_create("vt-import", MFD_CLOEXEC);
	ck_assert_int_ge(mfd, 0);
	ck_assert_int_eq(ftruncate(mfd, (off_t)K64), 0);
	/* not OPAQUE_FD */
	ck_assert_int_eq(import(ON_DEVICE, K64,
				ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF, mfd,
				NULL, &h),
			 ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
	ck_assert_ptr_null(h);
	ck_assert_int_eq(import(ON_DEVICE, K64, 0, mfd, NULL, &h),
			 ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
	/* no fd, a pipe, a file too small */
	ck_assert_int_eq(import(ON_DEVICE, K64,
				ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, -1,
				NULL, &h),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	int p[2];
	ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
	ck_assert_int_eq(import(ON_DEVICE, K64,
				ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, p[0],
				NULL, &h),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	close(p[0]);
	close(p[1]);
	ck_assert_int_eq(import(ON_DEVICE, 2 * K64,
				ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, mfd,
				NULL, &h),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_null(h);
	/* two import descriptors */
	ze_external_memory_import_fd_t im2 = {
		ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD, NULL,
		ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, mfd
	};
	ck_assert_int_eq(import(ON_DEVICE, K64,
				ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, mfd,
				&im2, &h),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* the size rules of created objects still hold */
	ck_assert_int_eq(import(ON_DEVICE, 4096,
				ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, mfd,
				NULL, &h),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	close(mfd);
}
END_TEST

START_TEST(test_zePhysicalMemCreate_import_shares_pages)
{
	/* 48 MiB of the 64 MiB budget: an import of it is charged nothing */
	size_t sz = (size_t)48 << 20;
	ze_physical_mem_handle_t a = vt_phys(sz);
	char *va = vt_reserve(sz);
	vt_map(va, sz, a, 0, RW);
	int fd = mapping_fd(va);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(leakcheck_fd_cloexec(fd), 1);
	struct stat st;
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_eq(st.st_size, (off_t)sz);
	/* the caller's copy: closed right after the import */
	int mine = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	ck_assert_int_ge(mine, 0);
	ze_physical_mem_handle_t b;
	ck_assert_int_eq(import(ON_DEVICE, sz,
				ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, mine,
				NULL, &b),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_nonnull(b);
	close(mine);
	char *vb = vt_reserve(sz);
	vt_map(vb, sz, b, 0, RW);
	va[0] = 'x';
	va[sz - 1] = 'y';
	vb[12345] = 'z';
	ck_assert_int_eq(vb[0], 'x');
	ck_assert_int_eq(vb[sz - 1], 'y');
	ck_assert_int_eq(va[12345], 'z');
	/* a part of an import maps too (a window at an offset) */
	vt_unmap(vb, sz);
	vt_map(vb, M2, b, M2, RW);
	va[M2 + 7] = 'w';
	ck_assert_int_eq(vb[7], 'w');
	vt_unmap(vb, M2);
	vt_free(vb, sz);
	vt_phys_destroy(b);
	/* the original is intact after the import is gone */
	ck_assert_int_eq(va[0], 'x');
	/* host placement imports too */
	int hfd = memfd_create("vt-import-host", MFD_CLOEXEC);
	ck_assert_int_ge(hfd, 0);
	ck_assert_int_eq(ftruncate(hfd, 4096), 0);
	ck_assert_int_eq(write(hfd, "host", 4), 4);
	ck_assert_int_eq(import(ON_HOST, 4096,
				ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, hfd,
				NULL, &b),
			 ZE_RESULT_SUCCESS);
	close(hfd);
	char *vh = vt_reserve(K64);
	vt_map(vh, 4096, b, 0, RW);
	ck_assert_int_eq(memcmp(vh, "host", 4), 0);
	vt_unmap(vh, 4096);
	vt_free(vh, K64);
	vt_phys_destroy(b);
	vt_unmap(va, sz);
	vt_free(va, sz);
	vt_phys_destroy(a);
}
END_TEST

static Suite *
vmm_import_suite(void)
{
	Suite *s = suite_create("vmm-import");
	TCase *tc = tcase_create("vmm-import");
	tcase_add_checked_fixture(tc, vt_checked_setup, vt_checked_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_zePhysicalMemCreate_import_errors);
	tcase_add_test(tc, test_zePhysicalMemCreate_import_shares_pages);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return check_run(vmm_import_suite(), CK_NORMAL, false);
}
