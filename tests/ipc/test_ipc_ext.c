// SPDX-License-Identifier: MIT
/*
 * test_ipc_ext: external memory (ze_external_memory_export_desc_t at
 * allocation, ze_external_memory_export_fd_t in zeMemGetAllocProperties,
 * ze_external_memory_import_fd_t), the Exp fd <-> handle conversions, and
 * the IPC bits of the driver and device properties. Part of test_ipc (the
 * "external" test case, same fixture).
 */
#include <check.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "leakcheck.h"
#include "zt.h"

#define MiB (1024u * 1024u)
#define R_OK_ ZE_RESULT_SUCCESS
#define R_ARG ZE_RESULT_ERROR_INVALID_ARGUMENT

void ipc_suite_external(TCase *tc);

static const ze_external_memory_export_desc_t export_opaque = {
	ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_DESC, NULL,
	ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD
};

static bool
machine_has_dmabuf(void)
{
	return access("/dev/udmabuf", R_OK | W_OK) == 0 ||
	       access("/dev/dri/renderD128", R_OK | W_OK) == 0;
}

static ze_result_t
alloc_with(const void *pNext, size_t size, void **p)
{
	ze_device_mem_alloc_desc_t dd = zt_ddesc;
	dd.pNext = pNext;
	return zt.mem.pfnAllocDevice(zt.ctx, &dd, size, 0, zt.dev, p);
}

static ze_result_t
export_fd(void *p, uint32_t flags, int *fd)
{
	ze_external_memory_export_fd_t x = {
		ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD, NULL, flags, -1 };
	ze_memory_allocation_properties_t mp = {
		ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, &x };
	ze_result_t r = zt.mem.pfnGetAllocProperties(zt.ctx, p, &mp, NULL);
	*fd = x.fd;
	return r;
}

START_TEST(test_ext_properties_report_real_types)
{
	ze_device_external_memory_properties_t ep = {
		ZE_STRUCTURE_TYPE_DEVICE_EXTERNAL_MEMORY_PROPERTIES };
	ck_assert_int_eq(zt.device.pfnGetExternalMemoryProperties(zt.dev, &ep),
			 R_OK_);
	ck_assert(ep.memoryAllocationExportTypes &
		  ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD);
	ck_assert(ep.memoryAllocationImportTypes &
		  ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD);
	if (!machine_has_dmabuf())
		ck_assert_uint_eq(ep.memoryAllocationExportTypes,
				  ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD);
	ck_assert_uint_eq(ep.imageExportTypes, 0);
	ze_driver_ipc_properties_t ip = {
		ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES };
	ck_assert_int_eq(zt.driver.pfnGetIpcProperties(zt.drv, &ip), R_OK_);
	ck_assert_uint_eq(ip.flags, ZE_IPC_PROPERTY_FLAG_MEMORY);
	void *f = NULL;
	const char *to_fd = "zeMemGetFileDescriptorFromIpcHandleExp";
	const char *from_fd = "zeMemGetIpcHandleFromFileDescriptorExp";
	ck_assert_int_eq(zt.driver.pfnGetExtensionFunctionAddress(
				 zt.drv, to_fd, &f), R_OK_);
	ck_assert_ptr_eq(f, (void *)zt.mem_exp
				      .pfnGetFileDescriptorFromIpcHandleExp);
	ck_assert_int_eq(zt.driver.pfnGetExtensionFunctionAddress(
				 zt.drv, from_fd, &f), R_OK_);
	ck_assert_ptr_eq(f, (void *)zt.mem_exp
				      .pfnGetIpcHandleFromFileDescriptorExp);
	/* Newer than Debian's 1.8 loader: runtimes get them by name. */
	ck_assert_int_eq(zt.driver.pfnGetExtensionFunctionAddress(
				 zt.drv, "zeMemGetIpcHandleWithProperties",
				 &f), R_OK_);
	ck_assert_ptr_eq(f, (void *)zt.mem.pfnGetIpcHandleWithProperties);
	ck_assert_int_eq(zt.driver.pfnGetExtensionFunctionAddress(
				 zt.drv, "zeMemPutIpcHandle", &f), R_OK_);
	ck_assert_ptr_eq(f, (void *)zt.mem.pfnPutIpcHandle);
	uint32_t n = 0;
	ck_assert_int_eq(zt.driver.pfnGetExtensionProperties(zt.drv, &n, NULL),
			 R_OK_);
	ze_driver_extension_properties_t ext[64];
	ck_assert_uint_le(n, 64);
	ck_assert_int_eq(zt.driver.pfnGetExtensionProperties(zt.drv, &n, ext),
			 R_OK_);
	bool found = false;
	for (uint32_t i = 0; i < n; i++)
		found |= !strcmp(ext[i].name, ZE_IPC_MEM_HANDLE_TYPE_EXT_NAME);
	ck_assert(found);
}
END_TEST

START_TEST(test_ext_export_desc_unsupported_type)
{
	void *p = (void *)1;
	ze_external_memory_export_desc_t x = export_opaque;
	x.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_WIN32;
	ck_assert_int_eq(alloc_with(&x, 4096, &p),
			 ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
	ck_assert_ptr_null(p);
	if (machine_has_dmabuf()) {
		fprintf(stderr, "skip: DMA_BUF refusal (machine has a "
				"dma-buf exporter)\n");
		return;
	}
	x.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF;
	ck_assert_int_eq(alloc_with(&x, 4096, &p),
			 ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
}
END_TEST

START_TEST(test_ext_export_fd_needs_own_file)
{
	void *p;
	int fd;
	/* A small shared block shares its memfd: no bare fd for it. */
	ck_assert_int_eq(zt.mem.pfnAllocShared(zt.ctx, &zt_ddesc, &zt_hdesc,
					       64, 0, zt.dev, &p), R_OK_);
	ck_assert_int_eq(export_fd(p, ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD,
				   &fd),
			 ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), R_OK_);
	/* A pooled device block has a file of its own: that is its fd. */
	ck_assert_int_eq(alloc_with(NULL, 4096, &p), R_OK_);
	ck_assert_int_eq(export_fd(p, ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD,
				   &fd), R_OK_);
	struct stat sb;
	ck_assert_int_eq(fstat(fd, &sb), 0);
	ck_assert_int_eq(sb.st_size, 4096);
	uint32_t two = ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD |
		       ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF;
	ck_assert_int_eq(export_fd(p, two, &fd), R_ARG);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), R_OK_);
}
END_TEST

START_TEST(test_ext_export_fd_of_exportable)
{
	unsigned char *p;
	int fd, fd2;
	ck_assert_int_eq(alloc_with(&export_opaque, 100, (void **)&p), R_OK_);
	memset(p, 0x42, 100);
	ck_assert_int_eq(export_fd(p, ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD,
				   &fd), R_OK_);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(leakcheck_fd_cloexec(fd), 1);
	ck_assert_int_eq(export_fd(p, 0, &fd2), R_OK_);
	ck_assert_int_eq(fd2, fd);
	struct stat sb;
	ck_assert_int_eq(fstat(fd, &sb), 0);
	ck_assert_int_eq(sb.st_size, sysconf(_SC_PAGESIZE));
	unsigned char *m = mmap(NULL, (size_t)sb.st_size, PROT_READ,
				MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(m, MAP_FAILED);
	ck_assert_int_eq(m[99], 0x42);
	munmap(m, (size_t)sb.st_size);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), R_OK_);
	ck_assert_int_eq(fcntl(fd, F_GETFD), -1); /* released with it */
}
END_TEST

START_TEST(test_ext_import_fd_bad)
{
	void *src, *p = (void *)1;
	int fd, pfd[2];
	ck_assert_int_eq(alloc_with(&export_opaque, 2 * MiB, &src), R_OK_);
	ck_assert_int_eq(export_fd(src, 0, &fd), R_OK_);
	ze_external_memory_import_fd_t im = {
		ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD, NULL,
		ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, -1 };
	ck_assert_int_eq(alloc_with(&im, 4096, &p), R_ARG);
	ck_assert_ptr_null(p);
	ck_assert_int_eq(pipe2(pfd, O_CLOEXEC), 0);
	im.fd = pfd[0];
	ck_assert_int_eq(alloc_with(&im, 4096, &p), R_ARG);
	close(pfd[0]);
	close(pfd[1]);
	int raw = memfd_create("unsealed", MFD_CLOEXEC);
	ck_assert_int_eq(ftruncate(raw, 4096), 0);
	im.fd = raw;
	ck_assert_int_eq(alloc_with(&im, 4096, &p), R_ARG);
	close(raw);
	im.fd = fd;
	ck_assert_int_eq(alloc_with(&im, 4 * MiB, &p), R_ARG);
	im.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD |
		   ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF;
	if (!machine_has_dmabuf())
		ck_assert_int_eq(alloc_with(&im, 4096, &p),
				 ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
	im.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_D3D12_HEAP;
	ck_assert_int_eq(alloc_with(&im, 4096, &p),
			 ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, src), R_OK_);
}
END_TEST

START_TEST(test_ext_import_fd_maps_the_memory)
{
	unsigned char *src, *p;
	int fd;
	ck_assert_int_eq(alloc_with(&export_opaque, 2 * MiB, (void **)&src),
			 R_OK_);
	memset(src, 0x17, 2 * MiB);
	ck_assert_int_eq(export_fd(src, 0, &fd), R_OK_);
	ze_external_memory_import_fd_t im = {
		ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD, NULL,
		ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD, fd };
	ck_assert_int_eq(alloc_with(&im, 2 * MiB, (void **)&p), R_OK_);
	ck_assert_ptr_ne(p, src);
	ck_assert_int_eq(p[2 * MiB - 1], 0x17);
	p[5] = 0x71;
	ck_assert_int_eq(src[5], 0x71);
	ze_memory_allocation_properties_t mp = {
		ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES };
	ze_device_handle_t d = NULL;
	ck_assert_int_eq(zt.mem.pfnGetAllocProperties(zt.ctx, p + 9, &mp, &d),
			 R_OK_);
	ck_assert_int_eq(mp.type, ZE_MEMORY_TYPE_DEVICE);
	ck_assert_ptr_eq(d, zt.dev);
	/* It is an allocation: zeMemFree, not zeMemCloseIpcHandle. */
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, p), R_ARG);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p + 1), R_ARG);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), R_OK_);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), R_ARG);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, src), R_OK_);
}
END_TEST

START_TEST(test_exp_fd_conversion_roundtrip)
{
	unsigned char *p, *q;
	ck_assert_int_eq(alloc_with(NULL, 2 * MiB, (void **)&p), R_OK_);
	memset(p, 0x66, 2 * MiB);
	ze_ipc_mem_handle_t h, h2;
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, p, &h), R_OK_);
	uint64_t fd = 0;
	ck_assert_int_eq(zt.mem_exp.pfnGetFileDescriptorFromIpcHandleExp(
				 zt.ctx, h, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.mem_exp.pfnGetFileDescriptorFromIpcHandleExp(
				 zt.ctx, h, &fd), R_OK_);
	int fd0;
	memcpy(&fd0, h.data, sizeof(fd0));
	ck_assert_uint_eq(fd, (uint64_t)fd0);
	ck_assert_int_eq(zt.mem_exp.pfnGetIpcHandleFromFileDescriptorExp(
				 zt.ctx, fd, &h2), R_OK_);
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, h2, 0,
						 (void **)&q), R_OK_);
	ck_assert_int_eq(q[2 * MiB - 1], 0x66);
	ze_memory_allocation_properties_t mp = {
		ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES };
	ck_assert_int_eq(zt.mem.pfnGetAllocProperties(zt.ctx, q, &mp, NULL),
			 R_OK_);
	ck_assert_int_eq(mp.type, ZE_MEMORY_TYPE_DEVICE);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, q), R_OK_);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h2), R_OK_);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), R_OK_);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), R_OK_);
}
END_TEST

START_TEST(test_exp_fd_conversion_bad)
{
	ze_ipc_mem_handle_t h;
	int pfd[2];
	void *p;
	ck_assert_int_eq(zt.mem_exp.pfnGetIpcHandleFromFileDescriptorExp(
				 zt.ctx, 3, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.mem_exp.pfnGetIpcHandleFromFileDescriptorExp(
				 zt.ctx, UINT64_MAX, &h), R_ARG);
	ck_assert_int_eq(pipe2(pfd, O_CLOEXEC), 0);
	ck_assert_int_eq(zt.mem_exp.pfnGetIpcHandleFromFileDescriptorExp(
				 zt.ctx, (uint64_t)pfd[0], &h), R_ARG);
	close(pfd[0]);
	close(pfd[1]);
	ck_assert_int_eq(zt.mem_exp.pfnGetIpcHandleFromFileDescriptorExp(
				 zt.ctx, (uint64_t)pfd[0], &h), R_ARG);
	/* A pooled device block is a file of its own: its handle gives
	 * that file (nothing else in it), which converts back. */
	ck_assert_int_eq(alloc_with(NULL, 4096, &p), R_OK_);
	ze_ipc_mem_handle_t hp;
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, p, &hp), R_OK_);
	uint64_t fd;
	ck_assert_int_eq(zt.mem_exp.pfnGetFileDescriptorFromIpcHandleExp(
				 zt.ctx, hp, &fd), R_OK_);
	struct stat sb;
	ck_assert_int_eq(fstat((int)fd, &sb), 0);
	ck_assert_int_eq(sb.st_size, 4096);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, hp), R_OK_);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), R_OK_);
}
END_TEST

START_TEST(test_ext_dma_buf_export_and_open)
{
	if (!machine_has_dmabuf()) {
		fprintf(stderr, "skip: no dma-buf exporter here (no "
				"/dev/udmabuf, no /dev/dri/renderD128)\n");
		return;
	}
	ze_external_memory_export_desc_t x = export_opaque;
	x.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF;
	unsigned char *p, *q;
	int fd;
	ck_assert_int_eq(alloc_with(&x, 2 * MiB, (void **)&p), R_OK_);
	memset(p, 0x2d, 2 * MiB);
	ck_assert_int_eq(export_fd(p, ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF,
				   &fd), R_OK_);
	struct statfs sf;
	ck_assert_int_eq(fstatfs(fd, &sf), 0);
	ck_assert_uint_eq((unsigned long)sf.f_type, 0x444d4142ul); /* dma */
	ze_ipc_mem_handle_t h;
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, p, &h), R_OK_);
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, h, 0,
						 (void **)&q), R_OK_);
	ck_assert_int_eq(q[2 * MiB - 1], 0x2d);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, q), R_OK_);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), R_OK_);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), R_OK_);
}
END_TEST

void
ipc_suite_external(TCase *tc)
{
	tcase_add_test(tc, test_ext_properties_report_real_types);
	tcase_add_test(tc, test_ext_export_desc_unsupported_type);
	tcase_add_test(tc, test_ext_export_fd_needs_own_file);
	tcase_add_test(tc, test_ext_export_fd_of_exportable);
	tcase_add_test(tc, test_ext_import_fd_bad);
	tcase_add_test(tc, test_ext_import_fd_maps_the_memory);
	tcase_add_test(tc, test_exp_fd_conversion_bad);
	tcase_add_test(tc, test_exp_fd_conversion_roundtrip);
	tcase_add_test(tc, test_ext_dma_buf_export_and_open);
}
