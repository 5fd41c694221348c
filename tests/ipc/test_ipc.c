// SPDX-License-Identifier: MIT
/*
 * test_ipc: the IPC entry points in one process, through the driver's DDI
 * tables (zt): argument and handle validation (forged, truncated,
 * replayed, foreign handles), get / put reference counting, opens, closes,
 * imported pointers in the allocation queries, external memory (export fd,
 * import fd) and the Exp fd conversions, and the counts: 2000 opens, 4000
 * handles under RLIMIT_NOFILE 1024, 10k cycles without growth.
 *
 * Forged handles with a valid checksum are made with the driver's own
 * encoder (driver/ipc/ipc_handle.c is compiled in).
 *
 * Every test runs between leakcheck_begin and leakcheck_end (the fixture
 * below).
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_run.h"
#include "ipc.h"
#include "ipc_leak.h"
#include "zt.h"

#define MiB (1024u * 1024u)
#define R_OK_ ZE_RESULT_SUCCESS
#define R_ARG ZE_RESULT_ERROR_INVALID_ARGUMENT


static void *
alloc_dev(size_t size)
{
	void *p = NULL;
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, size, 0,
					       zt.dev, &p), R_OK_);
	return p;
}

static void
mem_free(void *p)
{
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), R_OK_);
}

static ze_ipc_mem_handle_t
get(void *p)
{
	ze_ipc_mem_handle_t h;
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, p, &h), R_OK_);
	return h;
}

static void
put(ze_ipc_mem_handle_t h)
{
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), R_OK_);
}

static ze_result_t
open_h(ze_ipc_mem_handle_t h, void **p)
{
	return zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, h, 0, p);
}


/* ---- get ---------------------------------------------------------------- */

START_TEST(test_get_null_arguments)
{
	ze_ipc_mem_handle_t h;
	void *p = alloc_dev(4096);
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(NULL, p, &h),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, NULL, &h),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, p, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle((void *)&h, p, &h), R_ARG);
	mem_free(p);
}
END_TEST

START_TEST(test_get_unknown_or_interior_pointer)
{
	ze_ipc_mem_handle_t h;
	int local;
	void *p = alloc_dev(2 * MiB);
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, &local, &h), R_ARG);
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, (char *)p + 64, &h),
			 R_ARG);
	mem_free(p);
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, p, &h), R_ARG);
}
END_TEST

START_TEST(test_get_other_context)
{
	ze_context_handle_t c2;
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_ipc_mem_handle_t h;
	ck_assert_int_eq(zt.context.pfnCreate(zt.drv, &cd, &c2), R_OK_);
	void *p = alloc_dev(4096);
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(c2, p, &h), R_ARG);
	mem_free(p);
	ck_assert_int_eq(zt.context.pfnDestroy(c2), R_OK_);
}
END_TEST

START_TEST(test_get_small_host_shares_pages)
{
	/* Every host allocation is exportable (conformance: 1 B, 64 B and
	 * 4 KiB buffers), each from a file that holds it alone... */
	ze_ipc_mem_handle_t h;
	void *p;
	const size_t sizes[] = { 1, 64, 4096 };
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(zt.mem.pfnAllocHost(zt.ctx, &zt_hdesc,
						     sizes[i], 0, &p), R_OK_);
		h = get(p);
		struct ipc_desc d;
		const char *why;
		ck_assert_int_eq(ipc_handle_decode(h.data, &d, &why), 0);
		ck_assert_uint_eq(d.offset, 0);
		struct stat st;
		ck_assert_int_eq(fstat(d.fd, &st), 0);
		ck_assert_int_eq(st.st_size, 4096);
		put(h);
		mem_free(p);
	}
	/* ...small shared allocations share pages: not exportable... */
	ck_assert_int_eq(zt.mem.pfnAllocShared(zt.ctx, &zt_ddesc, &zt_hdesc,
					       64, 0, zt.dev, &p), R_OK_);
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, p, &h), R_ARG);
	mem_free(p);
	/* ...but with an export descriptor they are. */
	ze_external_memory_export_desc_t x = {
		ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_DESC, NULL,
		ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD };
	ze_host_mem_alloc_desc_t hd = zt_hdesc;
	hd.pNext = &x;
	ck_assert_int_eq(zt.mem.pfnAllocHost(zt.ctx, &hd, 64, 0, &p), R_OK_);
	put(get(p));
	mem_free(p);
	ze_device_mem_alloc_desc_t dd = zt_ddesc;
	dd.pNext = &x;
	ck_assert_int_eq(zt.mem.pfnAllocShared(zt.ctx, &dd, &zt_hdesc, 64, 0,
					       zt.dev, &p), R_OK_);
	put(get(p));
	mem_free(p);
}
END_TEST

START_TEST(test_get_with_properties_types)
{
	ze_ipc_mem_handle_t h;
	void *p = alloc_dev(4096);
	ze_ipc_mem_handle_type_ext_desc_t t = {
		ZE_STRUCTURE_TYPE_IPC_MEM_HANDLE_TYPE_EXT_DESC, NULL,
		ZE_IPC_MEM_HANDLE_TYPE_FLAG_FABRIC_ACCESSIBLE };
	ck_assert_int_eq(zt.mem.pfnGetIpcHandleWithProperties(zt.ctx, p, &t,
							      &h),
			 ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
	t.typeFlags = 0x80;
	ck_assert_int_eq(zt.mem.pfnGetIpcHandleWithProperties(zt.ctx, p, &t,
							      &h),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	t.typeFlags = ZE_IPC_MEM_HANDLE_TYPE_FLAG_DEFAULT;
	ck_assert_int_eq(zt.mem.pfnGetIpcHandleWithProperties(zt.ctx, p, &t,
							      &h), R_OK_);
	put(h);
	ck_assert_int_eq(zt.mem.pfnGetIpcHandleWithProperties(zt.ctx, p, NULL,
							      &h), R_OK_);
	put(h);
	mem_free(p);
}
END_TEST

START_TEST(test_get_repeated_reuses_one_fd)
{
	void *p = alloc_dev(2 * MiB);
	ze_ipc_mem_handle_t h[100];
	int before = leakcheck_count_fds();
	for (int i = 0; i < 100; i++)
		h[i] = get(p);
	ck_assert_int_le(leakcheck_count_fds(), before + 1);
	int fd0;
	memcpy(&fd0, h[0].data, sizeof(fd0));
	for (int i = 1; i < 100; i++) {
		int fd;
		memcpy(&fd, h[i].data, sizeof(fd));
		ck_assert_int_eq(fd, fd0);
		/* the same handle, as Intel's driver gives (refcounted) */
		ck_assert(!memcmp(&h[i], &h[0], sizeof(h[0])));
	}
	ck_assert_int_eq(leakcheck_fd_cloexec(fd0), 1);
	for (int i = 0; i < 100; i++)
		put(h[i]);
	ck_assert_int_eq(leakcheck_count_fds(), before);
	mem_free(p);
}
END_TEST

/* ---- put ---------------------------------------------------------------- */

START_TEST(test_put_twice_or_forged)
{
	void *p = alloc_dev(4096);
	ze_ipc_mem_handle_t h = get(p), z;
	memset(&z, 0, sizeof(z));
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(NULL, h),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, z), R_ARG);
	/* Another process's handle (valid checksum, other pid). */
	struct ipc_desc d;
	const char *why;
	ck_assert_int_eq(ipc_handle_decode(h.data, &d, &why), 0);
	d.pid = d.pid == 1 ? 2 : 1;
	ze_ipc_mem_handle_t f;
	ipc_handle_encode(&d, f.data);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, f), R_ARG);
	/* A serial that was never issued. */
	ck_assert_int_eq(ipc_handle_decode(h.data, &d, &why), 0);
	d.serial += 1000;
	ipc_handle_encode(&d, f.data);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, f), R_ARG);
	put(h);
	/* Put again once the last reference is gone: success, as Intel's
	 * driver answers (the validation layer reports it). */
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), R_OK_);
	mem_free(p);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), R_OK_);
	/* An export id never issued, with a serial that was. */
	ck_assert_int_eq(ipc_handle_decode(h.data, &d, &why), 0);
	d.export_id += 1000;
	ipc_handle_encode(&d, f.data);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, f), R_ARG);
}
END_TEST

START_TEST(test_put_any_context)
{
	ze_context_handle_t c2;
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ck_assert_int_eq(zt.context.pfnCreate(zt.drv, &cd, &c2), R_OK_);
	void *p = alloc_dev(4096);
	ze_ipc_mem_handle_t h = get(p);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(c2, h), R_OK_);
	/* Level Zero conformance: the same handle put again through the
	 * first context after the put through the second dropped the last
	 * reference. */
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), R_OK_);
	mem_free(p);
	ck_assert_int_eq(zt.context.pfnDestroy(c2), R_OK_);
}
END_TEST

START_TEST(test_put_after_free_releases_all)
{
	int fds = leakcheck_count_fds();
	void *p = alloc_dev(2 * MiB);
	ze_ipc_mem_handle_t h1 = get(p), h2 = get(p);
	mem_free(p);
	put(h1);
	ck_assert_int_gt(leakcheck_count_fds(), fds); /* h2 keeps the fd */
	put(h2);
	ck_assert_int_eq(leakcheck_count_fds(), fds);
}
END_TEST

/* A pooled block, once exported, is freed by the full path (zeMemFree's
 * fast path leaves exported blocks to it): the free succeeds once, the
 * last handle put gives every fd back, and the slot serves later
 * allocations again, from a fresh file (the exported one is the
 * importers'). */
START_TEST(test_free_exported_pooled_block)
{
	void *p = alloc_dev(4096), *q[64];
	int fds = leakcheck_count_fds();
	ze_ipc_mem_handle_t h = get(p);
	struct ipc_desc d;
	const char *why;
	ck_assert_int_eq(ipc_handle_decode(h.data, &d, &why), 0);
	uint32_t ino0 = d.ino;
	mem_free(p);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, p), R_ARG);
	put(h);
	ck_assert_int_eq(leakcheck_count_fds(), fds);
	bool reused = false;
	for (int i = 0; i < 64; i++) {
		q[i] = alloc_dev(4096);
		if (q[i] != p)
			continue;
		reused = true;
		h = get(q[i]);
		ck_assert_int_eq(ipc_handle_decode(h.data, &d, &why), 0);
		ck_assert_uint_ne(d.ino, ino0);
		put(h);
	}
	ck_assert(reused);
	for (int i = 0; i < 64; i++)
		mem_free(q[i]);
}
END_TEST

/* ---- open: bad handles -------------------------------------------------- */

START_TEST(test_open_bad_arguments)
{
	void *p = alloc_dev(4096), *q = (void *)1;
	ze_ipc_mem_handle_t h = get(p);
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(NULL, zt.dev, h, 0, &q),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, NULL, h, 0, &q),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, (void *)&h, h, 0,
						 &q), R_ARG);
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, h, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, h, 0x100,
						 &q),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	ck_assert_ptr_null(q);
	put(h);
	mem_free(p);
}
END_TEST

START_TEST(test_open_forged_bytes)
{
	ze_ipc_mem_handle_t h;
	void *q;
	memset(&h, 0, sizeof(h));
	ck_assert_int_eq(open_h(h, &q), R_ARG);
	ck_assert_ptr_null(q);
	memset(&h, 0xff, sizeof(h));
	ck_assert_int_eq(open_h(h, &q), R_ARG);
	srand(42);
	for (int i = 0; i < 1000; i++) {
		for (size_t j = 0; j < sizeof(h); j++)
			h.data[j] = (char)rand();
		ck_assert_int_eq(open_h(h, &q), R_ARG);
	}
}
END_TEST

/* The handle checksum (ipc_handle.c: four bytes a step, and a thread's
 * last verified handle skips it) is CRC-16/CCITT-FALSE over bytes 4..63
 * with the checksum bits zero, as a plain bit-by-bit CRC computes it; a
 * handle that differs from the one verified last in any byte is checked
 * again. */
static uint16_t
crc16_bits(const unsigned char *p, size_t n)
{
	uint16_t crc = 0xffff;
	for (size_t i = 0; i < n; i++) {
		crc ^= (uint16_t)(p[i] << 8);
		for (int b = 0; b < 8; b++)
			crc = (uint16_t)(crc & 0x8000 ? (crc << 1) ^ 0x1021
						      : crc << 1);
	}
	return crc;
}

START_TEST(test_handle_checksum_is_crc16)
{
	srand(7);
	for (int i = 0; i < 2000; i++) {
		struct ipc_desc d = {
			.fd = rand() & 0xffff, .type = IPC_TYPE_MEM,
			.kind = 1 + rand() % 3, .flags = IPC_FLAG_TAGGED,
			.device = (uint16_t)rand(), .pid = 1 + rand(),
			.ino = (uint32_t)rand(),
			.nonce = ((uint64_t)rand() << 32) | (uint32_t)rand() | 1,
			.export_id = (uint32_t)rand(),
			.serial = (uint32_t)rand(),
			.size = 1 + (uint64_t)rand(),
			.offset = (uint64_t)rand() << 4,
		};
		d.fd_copy = d.fd;
		d.tag = IPC_TAG_MARK | ((uint64_t)rand() << 8 & (IPC_TAG_MARK - 1) &
					~IPC_TAG_KIND_MASK) |
			d.kind | IPC_TAG_SEGMENT;
		unsigned char w[64], z[64];
		ipc_handle_encode(&d, w);
		memcpy(z, w, sizeof(z));
		z[62] = z[63] = 0; /* off_chk's top 16 bits: the checksum */
		uint16_t want = crc16_bits(z + 4, 60);
		ck_assert_uint_eq((uint16_t)(w[62] | w[63] << 8), want);
		struct ipc_desc out;
		const char *why;
		ck_assert_int_eq(ipc_handle_decode(w, &out, &why), 0);
		ck_assert_int_eq(ipc_handle_decode(w, &out, &why), 0);
		/* one byte off right after the same handle passed: refused */
		unsigned char bad[64];
		memcpy(bad, w, sizeof(bad));
		bad[4 + rand() % 60] ^= (unsigned char)(1 + rand() % 255);
		ck_assert_int_eq(ipc_handle_decode(bad, &out, &why), -EBADMSG);
		ck_assert_int_eq(ipc_handle_decode(w, &out, &why), 0);
		ck_assert_uint_eq(out.tag, d.tag);
		ck_assert_uint_eq(out.offset, d.offset);
	}
}
END_TEST

START_TEST(test_open_corrupted_or_truncated)
{
	void *p = alloc_dev(2 * MiB), *q;
	ze_ipc_mem_handle_t h = get(p), b;
	/* Any byte after the fd, flipped in any way: rejected (CRC). */
	static const unsigned char masks[] = { 0x01, 0x10, 0x80, 0xff };
	for (size_t i = 4; i < sizeof(h); i++) {
		for (size_t m = 0; m < sizeof(masks); m++) {
			b = h;
			b.data[i] ^= (char)masks[m];
			ck_assert_int_eq(open_h(b, &q), R_ARG);
		}
	}
	/* Truncated: everything from byte k on is lost. Where those bytes
	 * were zero already nothing is lost (the checksum's top byte is 0
	 * in one handle of 256): that handle is h itself, and opens. */
	for (size_t k = 0; k < sizeof(h); k++) {
		b = h;
		memset(b.data + k, 0, sizeof(h) - k);
		if (!memcmp(&b, &h, sizeof(h)))
			continue;
		ck_assert_int_eq(open_h(b, &q), R_ARG);
	}
	put(h);
	mem_free(p);
}
END_TEST

/* Re-encodes h after edit() (valid checksum) and opens it. */
static ze_result_t
open_edited(ze_ipc_mem_handle_t h, void (*edit)(struct ipc_desc *))
{
	struct ipc_desc d;
	const char *why;
	ck_assert_int_eq(ipc_handle_decode(h.data, &d, &why), 0);
	edit(&d);
	ipc_handle_encode(&d, h.data);
	void *q = (void *)1;
	ze_result_t r = open_h(h, &q);
	if (r)
		ck_assert_ptr_null(q);
	else
		zt.mem.pfnCloseIpcHandle(zt.ctx, q);
	return r;
}

static void ed_tag(struct ipc_desc *d) { d->tag ^= 0x100; }
static void ed_ino(struct ipc_desc *d) { d->ino ^= 1; }
static void ed_export(struct ipc_desc *d) { d->export_id += 77; }
static void ed_size(struct ipc_desc *d) { d->size += 1ull << 30; }
static void ed_offset(struct ipc_desc *d) { d->offset = 1ull << 40; }
static void ed_kind(struct ipc_desc *d) { d->kind = 9; }
static void ed_flags(struct ipc_desc *d) { d->flags |= 0x40; }
static void ed_untag(struct ipc_desc *d) { d->flags &= ~IPC_FLAG_TAGGED; }
static void ed_fdtype(struct ipc_desc *d) { d->type = IPC_TYPE_FD; }
static void
ed_pid_gone(struct ipc_desc *d)
{
	/* No such process, and its fd number is not open here either
	 * (here the number would be the exporter's own file: that opens). */
	d->pid = 0x3ffffff0;
	d->fd = d->fd_copy = 1000;
}
static void ed_nonce(struct ipc_desc *d) { d->nonce ^= 1; }
static void ed_fd_replaced_bad(struct ipc_desc *d) { d->fd = 0; }

START_TEST(test_open_forged_fields)
{
	void *p = alloc_dev(2 * MiB);
	ze_ipc_mem_handle_t h = get(p);
	/* Malformed: the decoder says no. */
	ck_assert_int_eq(open_edited(h, ed_kind), R_ARG);
	ck_assert_int_eq(open_edited(h, ed_flags), R_ARG);
	ck_assert_int_eq(open_edited(h, ed_untag), R_ARG);
	ck_assert_int_eq(open_edited(h, ed_fdtype), R_ARG);
	ck_assert_int_eq(open_edited(h, ed_offset), R_ARG);
	/* Well-formed but naming nothing live: the file check says no. */
	ck_assert_int_eq(open_edited(h, ed_tag), R_ARG);
	ck_assert_int_eq(open_edited(h, ed_ino), R_ARG);
	ck_assert_int_eq(open_edited(h, ed_export), R_ARG);
	ck_assert_int_eq(open_edited(h, ed_size), R_ARG);
	ck_assert_int_eq(open_edited(h, ed_pid_gone), R_ARG);
	/* Bytes 0..3 replaced by an fd that is not the file (stdin): the
	 * handle still opens through the exporter, never through fd 0. */
	ck_assert_int_eq(open_edited(h, ed_fd_replaced_bad), R_OK_);
	/* Our pid with a foreign nonce: pidfd_getfd on ourselves finds the
	 * same file, which is fine: it is the memory the handle names. */
	ck_assert_int_eq(open_edited(h, ed_nonce), R_OK_);
	put(h);
	mem_free(p);
}
END_TEST

START_TEST(test_open_replayed_after_put)
{
	void *p = alloc_dev(2 * MiB), *q, *q2;
	ze_ipc_mem_handle_t h = get(p);
	put(h);
	ck_assert_int_eq(open_h(h, &q), R_ARG);
	/* With a live import keeping the importer's fd (cache hit). */
	h = get(p);
	ck_assert_int_eq(open_h(h, &q), R_OK_);
	put(h);
	ck_assert_int_eq(open_h(h, &q2), R_ARG);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, q), R_OK_);
	mem_free(p);
}
END_TEST

/* ---- close -------------------------------------------------------------- */

START_TEST(test_close_bad_pointers)
{
	void *p = alloc_dev(2 * MiB), *q;
	ze_ipc_mem_handle_t h = get(p);
	ck_assert_int_eq(open_h(h, &q), R_OK_);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(NULL, q),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, (char *)q + 1),
			 R_ARG);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, p), R_ARG);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, &h), R_ARG);
	/* An opened pointer is not an allocation: zeMemFree refuses it. */
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, q), R_ARG);
	ze_context_handle_t c2;
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ck_assert_int_eq(zt.context.pfnCreate(zt.drv, &cd, &c2), R_OK_);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(c2, q), R_ARG);
	ck_assert_int_eq(zt.context.pfnDestroy(c2), R_OK_);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, q), R_OK_);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, q), R_ARG);
	put(h);
	mem_free(p);
}
END_TEST

/* ---- open: behaviour ---------------------------------------------------- */

START_TEST(test_open_aliases_and_properties)
{
	void *p = alloc_dev(2 * MiB), *q, *base = NULL;
	size_t size = 0;
	memset(p, 0x5a, 2 * MiB);
	ze_ipc_mem_handle_t h = get(p);
	ck_assert_int_eq(open_h(h, &q), R_OK_);
	ck_assert_ptr_ne(q, p);
	ck_assert_int_eq(((unsigned char *)q)[2 * MiB - 1], 0x5a);
	((unsigned char *)q)[123] = 0xa5;
	ck_assert_int_eq(((unsigned char *)p)[123], 0xa5);
	ze_memory_allocation_properties_t mp = {
		ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES };
	ze_device_handle_t d = NULL;
	ck_assert_int_eq(zt.mem.pfnGetAllocProperties(zt.ctx,
						      (char *)q + 4096, &mp,
						      &d), R_OK_);
	ck_assert_int_eq(mp.type, ZE_MEMORY_TYPE_DEVICE);
	ck_assert_ptr_eq(d, zt.dev);
	ck_assert_uint_ne(mp.id, 0);
	ck_assert_int_eq(zt.mem.pfnGetAddressRange(zt.ctx, (char *)q + 77,
						   &base, &size), R_OK_);
	ck_assert_ptr_eq(base, q);
	ck_assert_uint_eq(size, 2 * MiB);
	/* An import is not an allocation of ours: no fd, no re-export. */
	ze_external_memory_export_fd_t x = {
		ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD, NULL, 0, -1 };
	mp.pNext = &x;
	ck_assert_int_eq(zt.mem.pfnGetAllocProperties(zt.ctx, q, &mp, NULL),
			 ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
	mp.pNext = NULL;
	ze_ipc_mem_handle_t h2;
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, q, &h2), R_ARG);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, q), R_OK_);
	ck_assert_int_eq(zt.mem.pfnGetAllocProperties(zt.ctx, q, &mp, &d),
			 R_OK_);
	ck_assert_int_eq(mp.type, ZE_MEMORY_TYPE_UNKNOWN);
	ck_assert_int_eq(zt.mem.pfnGetAddressRange(zt.ctx, q, &base, &size),
			 ZE_RESULT_ERROR_ADDRESS_NOT_FOUND);
	put(h);
	mem_free(p);
}
END_TEST

/* Length of the mapping that starts at p (from /proc/self/maps), or 0. */
static size_t
mapping_len(const void *p)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	size_t len = 0;
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long a, b;
		if (sscanf(line, "%lx-%lx", &a, &b) == 2 && a == (uintptr_t)p)
			len = b - a;
	}
	if (f)
		fclose(f);
	return len;
}

START_TEST(test_open_small_device_maps_only_its_pages)
{
	/* Pooled device blocks side by side in one memfd: the import of one
	 * maps its own page and nothing else. */
	unsigned char *a = alloc_dev(4096), *b = alloc_dev(4096), *q;
	memset(a, 1, 4096);
	memset(b, 2, 4096);
	ze_ipc_mem_handle_t h = get(a);
	ck_assert_int_eq(open_h(h, (void **)&q), R_OK_);
	ck_assert_int_eq(q[0], 1);
	ck_assert_int_eq(q[4095], 1);
	ck_assert_uint_eq(mapping_len(q), 4096);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, q), R_OK_);
	put(h);
	mem_free(a);
	mem_free(b);
}
END_TEST

START_TEST(test_open_after_pool_file_grew)
{
	/* The importer's cached fd of the device pool file predates the
	 * segment the second block lives in. */
	enum { N = 1200 };
	unsigned char **p = calloc(N, sizeof(*p)), *q0, *q1;
	p[0] = alloc_dev(4096);
	ze_ipc_mem_handle_t h0 = get(p[0]);
	ck_assert_int_eq(open_h(h0, (void **)&q0), R_OK_);
	for (int i = 1; i < N; i++)
		p[i] = alloc_dev(4096);
	p[N - 1][7] = 0x4e;
	ze_ipc_mem_handle_t h1 = get(p[N - 1]);
	ck_assert_int_eq(open_h(h1, (void **)&q1), R_OK_);
	ck_assert_int_eq(q1[7], 0x4e);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, q1), R_OK_);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, q0), R_OK_);
	put(h0);
	put(h1);
	for (int i = 0; i < N; i++)
		mem_free(p[i]);
	free(p);
}
END_TEST

START_TEST(test_open_2000_distinct_pointers)
{
	enum { N = 2000 };
	unsigned char *p = alloc_dev(64 * 1024);
	unsigned char **q = calloc(N, sizeof(*q));
	ze_ipc_mem_handle_t h = get(p);
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(open_h(h, (void **)&q[i]), R_OK_);
	for (int i = 0; i < N; i++)
		for (int j = i + 1; j < N && j < i + 8; j++)
			ck_assert_ptr_ne(q[i], q[j]);
	/* All distinct (sort-free check: each maps its own range). */
	for (int i = 0; i < N; i++) {
		void *base;
		ck_assert_int_eq(zt.mem.pfnGetAddressRange(zt.ctx, q[i], &base,
							   NULL), R_OK_);
		ck_assert_ptr_eq(base, q[i]);
	}
	q[N / 2][10] = 0x77;
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(q[i][10], 0x77);
	ck_assert_int_eq(p[10], 0x77);
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, q[i]), R_OK_);
	put(h);
	mem_free(p);
	free(q);
}
END_TEST

/* Each exported allocation is a file of its own: 4000 handles of one
 * allocation cost one fd; 4000 allocations under RLIMIT_NOFILE 1024 export
 * until the fds run out, then fail cleanly (never the shared pool file),
 * and every handle given opens to its own block. */
START_TEST(test_get_4000_handles_under_rlimit_1024)
{
	enum { N = 4000 };
	struct rlimit old, lim;
	getrlimit(RLIMIT_NOFILE, &old);
	lim = old;
	lim.rlim_cur = 1024;
	void **p = calloc(N, sizeof(*p)), **q = calloc(N, sizeof(*q));
	ze_ipc_mem_handle_t *h = calloc(N, sizeof(*h));
	bool *ok = calloc(N, sizeof(*ok));
	p[0] = alloc_dev(4096);
	int fds = leakcheck_count_fds();
	for (int i = 0; i < N; i++)
		h[i] = get(p[0]);
	ck_assert_int_le(leakcheck_count_fds(), fds + 1);
	for (int i = 0; i < N; i++)
		put(h[i]);
	mem_free(p[0]);
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &lim), 0);
	int nok = 0, nfail = 0;
	for (int i = 0; i < N; i++) {
		ze_result_t r = zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, 4096,
						      0, zt.dev, &p[i]);
		if (r) { /* only the slot's own memfd may fail, never this */
			ck_assert_int_eq(r, ZE_RESULT_SUCCESS);
		}
		*(int *)p[i] = i;
		r = zt.mem.pfnGetIpcHandle(zt.ctx, p[i], &h[i]);
		ok[i] = r == ZE_RESULT_SUCCESS;
		if (!ok[i]) {
			ck_assert(r == R_ARG ||
				  r == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
			nfail++;
			continue;
		}
		nok++;
	}
	ck_assert_int_gt(nok, 200);
	ck_assert_int_gt(nfail, 0);
	ck_assert_int_le(leakcheck_count_fds(), 1024);
	/* back to the full limit: the handles open, each to its block */
	setrlimit(RLIMIT_NOFILE, &old);
	for (int i = 0; i < N; i++) {
		if (!ok[i])
			continue;
		ck_assert_int_eq(open_h(h[i], &q[i]), R_OK_);
		ck_assert_int_eq(*(int *)q[i], i);
	}
	for (int i = 0; i < N; i++) {
		if (ok[i]) {
			ck_assert_int_eq(
				zt.mem.pfnCloseIpcHandle(zt.ctx, q[i]), R_OK_);
			put(h[i]);
		}
		mem_free(p[i]);
	}
	free(p);
	free(q);
	free(h);
	free(ok);
}
END_TEST

/* ZEMEM_EXPORT_FILES=0 ZEMEM_IPC_POOL_EXPORT=1 (the ipc-pool-export test):
 * the pool file is handed out, so thousands of exports cost a few fds (and
 * an importer can reach every block of the pool: README). */
START_TEST(test_pool_export_4000_handles_few_fds)
{
	enum { N = 4000 };
	struct rlimit old, lim;
	getrlimit(RLIMIT_NOFILE, &old);
	lim = old;
	lim.rlim_cur = 1024;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &lim), 0);
	void **p = calloc(N, sizeof(*p)), **q = calloc(N, sizeof(*q));
	ze_ipc_mem_handle_t *h = calloc(N, sizeof(*h));
	for (int i = 0; i < N; i++) {
		p[i] = alloc_dev(4096);
		*(int *)p[i] = i;
		h[i] = get(p[i]);
	}
	for (int i = 0; i < N; i++) {
		ck_assert_int_eq(open_h(h[i], &q[i]), R_OK_);
		ck_assert_int_eq(*(int *)q[i], i);
	}
	ck_assert_int_lt(leakcheck_count_fds(), 100);
	for (int i = 0; i < N; i++) {
		ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, q[i]), R_OK_);
		put(h[i]);
		mem_free(p[i]);
	}
	free(p);
	free(q);
	free(h);
	setrlimit(RLIMIT_NOFILE, &old);
}
END_TEST

START_TEST(test_cycles_10k_no_growth)
{
	void *p = alloc_dev(2 * MiB), *q;
	int fds = 0, maps = 0;
	for (int i = 0; i < 10000; i++) {
		ze_ipc_mem_handle_t h = get(p);
		ck_assert_int_eq(open_h(h, &q), R_OK_);
		((volatile char *)q)[i % 4096] = (char)i;
		ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, q), R_OK_);
		put(h);
		if (i == 100) {
			fds = leakcheck_count_fds();
			maps = leakcheck_count_maps(NULL);
		}
	}
	ck_assert_int_eq(leakcheck_count_fds(), fds);
	ck_assert_int_eq(leakcheck_count_maps(NULL), maps);
	mem_free(p);
}
END_TEST

struct racer {
	unsigned char *shared, *own;
	int errors;
};

static void *
race(void *arg)
{
	struct racer *r = arg;
	for (int i = 0; i < 2000; i++) {
		unsigned char *p = i & 1 ? r->shared : r->own, *q = NULL;
		ze_ipc_mem_handle_t h;
		if (zt.mem.pfnGetIpcHandle(zt.ctx, p, &h) ||
		    open_h(h, (void **)&q) || q[4096] != p[4096] ||
		    zt.mem.pfnCloseIpcHandle(zt.ctx, q) ||
		    zt.mem.pfnPutIpcHandle(zt.ctx, h))
			r->errors++;
	}
	return NULL;
}

/* ---- issue 14: lifetime, refcounts, fork, fds ---------------------------- */

/* Point 12: get/put are reference-counted per allocation, as applications
 * written for Intel's driver expect. */
START_TEST(test_get_put_refcounted)
{
	ze_context_handle_t c2;
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ck_assert_int_eq(zt.context.pfnCreate(zt.drv, &cd, &c2), R_OK_);
	void *p = alloc_dev(4096);
	ze_ipc_mem_handle_t h1 = get(p), h2 = get(p);
	ck_assert(!memcmp(&h1, &h2, sizeof(h1))); /* an equivalent handle */
	put(h1);
	put(h1); /* the same handle value twice: two references */
	/* A third put finds none left: success, as Intel's driver. */
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h1), R_OK_);
	ze_ipc_mem_handle_t h3 = get(p); /* a trailing get works */
	void *q;
	ck_assert_int_eq(open_h(h3, &q), R_OK_);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, q), R_OK_);
	h2 = get(p);
	/* a put through another context of the driver */
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(c2, h3), R_OK_);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(c2, h2), R_OK_);
	/* and again through the first (Level Zero conformance) */
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h2), R_OK_);
	mem_free(p);
	ck_assert_int_eq(zt.context.pfnDestroy(c2), R_OK_);
}
END_TEST

static long
rss_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kib = -1;
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmRSS:", 6))
			kib = strtol(line + 6, NULL, 10);
	if (f)
		fclose(f);
	return kib;
}

/* Bytes of memory held by the process's zemem memfds (their allocated
 * blocks: what the pool and slot files really hold, mapped or not). */
static long long
zemem_file_bytes(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	long long sum = 0;
	while (d && (de = readdir(d))) {
		char path[300], link[128];
		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		ssize_t n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = 0;
		struct stat st;
		if (!strncmp(link, "/memfd:zemem:", 13) && !stat(path, &st))
			sum += (long long)st.st_blocks * 512;
	}
	if (d)
		closedir(d);
	return sum;
}

/* Point 2: the memory of an exported pooled block comes back to the
 * exporter once it is freed and its handles put (also run by the
 * ipc-budget test under ZEMEM_DEVICE_MEMORY_SIZE=64M). */
START_TEST(test_cycles_exported_pooled_memory_comes_back)
{
	enum { N = 5000, SZ = 64 * 1024 };
	long rss0 = 0;
	long long file0 = 0;
	for (int i = 0; i < N; i++) {
		void *p;
		ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, SZ,
						       0, zt.dev, &p), R_OK_);
		memset(p, i, SZ);
		ze_ipc_mem_handle_t h = get(p);
		put(h);
		mem_free(p);
		if (i == 100) {
			rss0 = rss_kib();
			file0 = zemem_file_bytes();
		}
	}
	long grown = rss_kib() - rss0;
	long long fgrown = zemem_file_bytes() - file0;
	ck_assert_msg(grown < 16 * 1024, "RSS grew by %ld KiB over %d cycles",
		      grown, N - 100);
	ck_assert_msg(fgrown < 16ll << 20, "zemem's files grew by %lld KiB "
		      "over %d cycles", fgrown >> 10, N - 100);
}
END_TEST

/* The lowest free fd number: RLIMIT_NOFILE at it makes the next fd fail. */
static int
lowest_free_fd(void)
{
	int fd = dup(0);
	ck_assert_int_ge(fd, 0);
	close(fd);
	return fd;
}

/* The inode of the mapping that holds p (/proc/self/maps), or 0. */
static unsigned long
mapping_inode(const void *p)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	unsigned long ino = 0;
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi, off, i;
		char dev[16];
		if (sscanf(line, "%lx-%lx %*s %lx %15s %lu", &lo, &hi, &off,
			   dev, &i) == 5 &&
		    (uintptr_t)p >= lo && (uintptr_t)p < hi)
			ino = i;
	}
	if (f)
		fclose(f);
	return ino;
}

/* Point 2: a get that fails (no fd left for the export) leaves the block
 * as it was: not exported, so its free keeps its file for the next
 * block of the slot. */
START_TEST(test_get_failed_does_not_mark_exported)
{
	struct rlimit old, lim;
	getrlimit(RLIMIT_NOFILE, &old);
	void *p = alloc_dev(4096);
	unsigned long ino = mapping_inode(p);
	ck_assert_uint_ne(ino, 0);
	lim = old;
	lim.rlim_cur = (rlim_t)lowest_free_fd();
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &lim), 0);
	ze_ipc_mem_handle_t h;
	ze_result_t r = zt.mem.pfnGetIpcHandle(zt.ctx, p, &h);
	setrlimit(RLIMIT_NOFILE, &old);
	ck_assert_int_eq(r, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
	mem_free(p);
	void *q = alloc_dev(4096);
	ck_assert_ptr_eq(q, p);
	ck_assert_uint_eq(mapping_inode(q), ino);
	mem_free(q);
}
END_TEST

/* Point 9: a large allocation made while no fd is free fails cleanly
 * (its memfd could not be made), never anonymous memory that could not be
 * exported; with fds again it works and exports. */
START_TEST(test_alloc_large_no_fd_fails_cleanly)
{
	struct rlimit old, lim;
	getrlimit(RLIMIT_NOFILE, &old);
	lim = old;
	lim.rlim_cur = (rlim_t)lowest_free_fd();
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &lim), 0);
	void *p = (void *)1, *hp = (void *)1;
	ze_result_t r = zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, 2 * MiB, 0,
					      zt.dev, &p);
	ze_result_t rh = zt.mem.pfnAllocHost(zt.ctx, &zt_hdesc, 2 * MiB, 0,
					     &hp);
	setrlimit(RLIMIT_NOFILE, &old);
	ck_assert_int_eq(r, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
	ck_assert_int_eq(rh, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
	ck_assert_ptr_null(p);
	ck_assert_ptr_null(hp);
	p = alloc_dev(2 * MiB);
	put(get(p));
	mem_free(p);
}
END_TEST

/* Point 1: fork() while other threads allocate. Each child allocates,
 * frees and exports, then _exits; a child that does not finish within
 * 10 s is hung (killed and counted).
 *
 * Not under AddressSanitizer: GCC 12's libasan takes no lock of its
 * own allocator around fork, so a child forked while another thread is
 * inside malloc can wait forever on a lock no thread of its own holds
 * (CI saw a child hang; gdb on one here showed it stuck in
 * SizeClassAllocator64::GetFromAllocator, called from the driver's
 * calloc). glibc's malloc, which the normal
 * build uses, is fork-safe; the driver's own locks are tested there. */
static _Atomic int fork_stop;

static void *
fork_alloc_thread(void *arg)
{
	(void)arg;
	unsigned i = 0;
	while (!fork_stop) {
		void *p[4];
		size_t sz = 16 + (i++ % 64) * 1000;
		ze_result_t r[4];
		r[0] = zt.mem.pfnAllocHost(zt.ctx, &zt_hdesc, sz, 0, &p[0]);
		r[1] = zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, sz, 0, zt.dev,
					     &p[1]);
		r[2] = zt.mem.pfnAllocShared(zt.ctx, &zt_ddesc, &zt_hdesc, sz,
					     0, zt.dev, &p[2]);
		r[3] = zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, 1 * MiB, 0,
					     zt.dev, &p[3]);
		for (int k = 0; k < 4; k++) {
			if (!r[k])
				continue;
			fprintf(stderr, "allocating thread: %#x (alloc %d, "
				"size %zu)\n", (unsigned)r[k], k, sz);
			return (void *)1;
		}
		/* a child that wrote into the parent's blocks shows here */
		unsigned char mark = (unsigned char)(0x10 + i % 64);
		for (int k = 0; k < 3; k++)
			memset(p[k], mark, sz);
		sched_yield();
		for (int k = 0; k < 3; k++)
			for (size_t j = 0; j < sz; j += 61)
				if (((unsigned char *)p[k])[j] != mark)
					return (void *)2;
		for (int k = 0; k < 4; k++)
			zt.mem.pfnFree(zt.ctx, p[k]);
	}
	return NULL;
}

static unsigned char *fork_keep[2]; /* the parent's, 4 KiB each */

static int
fork_child_work(void)
{
	void *p[3];
	ze_ipc_mem_handle_t h;
	/* The child's writes into inherited blocks are its own. */
	for (int k = 0; k < 2; k++)
		memset(fork_keep[k], 0xee, 4096);
	if (zt.mem.pfnAllocHost(zt.ctx, &zt_hdesc, 64, 0, &p[0]) ||
	    zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, 4096, 0, zt.dev, &p[1]) ||
	    zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, 1 * MiB, 0, zt.dev,
				  &p[2]))
		return 2;
	for (int k = 0; k < 3; k++) {
		memset(p[k], 0xee, k == 0 ? 64 : 4096);
		if (zt.mem.pfnGetIpcHandle(zt.ctx, p[k], &h) ||
		    zt.mem.pfnPutIpcHandle(zt.ctx, h))
			return 3;
	}
	for (int k = 0; k < 3; k++)
		if (zt.mem.pfnFree(zt.ctx, p[k]))
			return 4;
	return 0;
}

START_TEST(test_fork_while_threads_allocate)
{
	enum { T = 3, N = 150 };
	pthread_t t[T];
	if (TEST_ASAN) {
		printf("skip: test_fork_while_threads_allocate: this "
		       "AddressSanitizer's malloc is not fork-safe\n");
		return;
	}
	fork_stop = 0;
	ck_assert_int_eq(zt.mem.pfnAllocHost(zt.ctx, &zt_hdesc, 4096, 0,
					     (void **)&fork_keep[0]), R_OK_);
	fork_keep[1] = alloc_dev(4096);
	for (int k = 0; k < 2; k++)
		memset(fork_keep[k], 0x5a, 4096);
	/* Stacks of our own: glibc would cache its stacks past the join. */
	size_t stack = 1 * MiB;
	void *stacks = mmap(NULL, T * stack, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(stacks, MAP_FAILED);
	for (int i = 0; i < T; i++) {
		pthread_attr_t a;
		pthread_attr_init(&a);
		pthread_attr_setstack(&a, (char *)stacks + i * stack, stack);
		ck_assert_int_eq(pthread_create(&t[i], &a, fork_alloc_thread,
						NULL), 0);
		pthread_attr_destroy(&a);
	}
	int hung = 0, failed = 0;
	for (int n = 0; n < N; n++) {
		pid_t pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0)
			_exit(fork_child_work());
		int status = 0;
		pid_t w = 0;
		for (int ms = 0; ms < 10000 && !w; ms++) {
			w = waitpid(pid, &status, WNOHANG);
			if (!w)
				usleep(1000);
		}
		if (!w) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			hung++;
			break; /* one is enough to fail */
		} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "fork child %d: status %#x\n", n,
				status);
			failed++;
		}
	}
	fork_stop = 1;
	for (int i = 0; i < T; i++) {
		void *ret;
		pthread_join(t[i], &ret);
		ck_assert_ptr_null(ret);
	}
	munmap(stacks, T * stack);
	ck_assert_int_eq(hung, 0);
	ck_assert_int_eq(failed, 0);
	for (int k = 0; k < 2; k++) {
		for (int j = 0; j < 4096; j++)
			ck_assert_int_eq(fork_keep[k][j], 0x5a);
		mem_free(fork_keep[k]);
	}
}
END_TEST

/* The tags (export secrets) of two exports made now. */
static void
two_tags(uint64_t tag[2])
{
	for (int k = 0; k < 2; k++) {
		void *p = alloc_dev(4096);
		ze_ipc_mem_handle_t h = get(p);
		struct ipc_desc d;
		const char *why;
		ck_assert_int_eq(ipc_handle_decode(h.data, &d, &why), 0);
		tag[k] = d.tag;
		put(h);
		mem_free(p);
	}
}

START_TEST(test_fork_child_draws_other_secrets)
{
	/* Secrets come from a per-thread pool of getrandom words: a fork
	 * child (whose thread is a copy of ours, pool and all) must draw
	 * none of the words this process draws after the fork. Three
	 * forks, each with the pool primed by an export first. */
	for (int n = 0; n < 3; n++) {
		uint64_t mine[2], theirs[2];
		two_tags(mine); /* the pool is now in use */
		int fds[2];
		ck_assert_int_eq(pipe(fds), 0);
		pid_t pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			two_tags(theirs);
			_exit(write(fds[1], theirs, sizeof(theirs)) !=
			      (ssize_t)sizeof(theirs));
		}
		close(fds[1]);
		two_tags(mine);
		ck_assert_int_eq(read(fds[0], theirs, sizeof(theirs)),
				 (ssize_t)sizeof(theirs));
		close(fds[0]);
		int status;
		ck_assert_int_eq(waitpid(pid, &status, 0), pid);
		ck_assert(WIFEXITED(status) && !WEXITSTATUS(status));
		for (int i = 0; i < 2; i++)
			for (int j = 0; j < 2; j++)
				ck_assert_uint_ne(mine[i], theirs[j]);
		ck_assert_uint_ne(mine[0], mine[1]);
	}
}
END_TEST

START_TEST(test_threads_get_open_close_put)
{
	enum { T = 4 };
	pthread_t th[T];
	struct racer r[T];
	unsigned char *shared = alloc_dev(2 * MiB);
	shared[4096] = 0xee;
	/* Stacks of our own: glibc would cache its stacks past the join. */
	size_t stack = 1 * MiB;
	void *stacks = mmap(NULL, T * stack, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(stacks, MAP_FAILED);
	for (int i = 0; i < T; i++) {
		pthread_attr_t a;
		pthread_attr_init(&a);
		pthread_attr_setstack(&a, (char *)stacks + i * stack, stack);
		r[i] = (struct racer){ shared, alloc_dev(64 * 1024), 0 };
		r[i].own[4096] = (unsigned char)i;
		ck_assert_int_eq(pthread_create(&th[i], &a, race, &r[i]), 0);
		pthread_attr_destroy(&a);
	}
	for (int i = 0; i < T; i++) {
		pthread_join(th[i], NULL);
		ck_assert_int_eq(r[i].errors, 0);
		mem_free(r[i].own);
	}
	munmap(stacks, T * stack);
	mem_free(shared);
}
END_TEST

START_TEST(test_open_after_exporter_free_keeps_data)
{
	unsigned char *p = alloc_dev(2 * MiB), *q;
	memset(p, 0x3c, 2 * MiB);
	ze_ipc_mem_handle_t h = get(p);
	ck_assert_int_eq(open_h(h, (void **)&q), R_OK_);
	mem_free(p);
	put(h);
	for (size_t i = 0; i < 2 * MiB; i += 4096)
		ck_assert_int_eq(q[i], 0x3c);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, q), R_OK_);
}
END_TEST

/* The first import of a file makes the cache entry inside its own record
 * (ipc_import.c): closing it first must leave the entry (and its fd) to
 * the later imports, a later open must still find it, and the last close
 * frees the record and closes the fd. Under ASan a record freed too early
 * is a use after free here. */
START_TEST(test_open_entry_outlives_its_first_import)
{
	unsigned char *p = alloc_dev(2 * MiB), *a, *b, *c, *x;
	unsigned char *p2 = alloc_dev(4096);
	memset(p, 0x11, 2 * MiB);
	p2[7] = 0x33;
	ze_ipc_mem_handle_t h = get(p), h2 = get(p2);
	int fds = leakcheck_count_fds();
	ck_assert_int_eq(open_h(h, (void **)&a), R_OK_);
	ck_assert_int_eq(leakcheck_count_fds(), fds + 1);
	ck_assert_int_eq(open_h(h, (void **)&b), R_OK_);
	ck_assert_int_eq(leakcheck_count_fds(), fds + 1); /* one entry */
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, a), R_OK_);
	ck_assert_int_eq(leakcheck_count_fds(), fds + 1); /* b holds it */
	/* A cold open of another file meanwhile makes its entry in a
	 * record of its own (never over the one b holds). */
	ck_assert_int_eq(open_h(h2, (void **)&x), R_OK_);
	ck_assert_int_eq(leakcheck_count_fds(), fds + 2);
	ck_assert_int_eq(x[7], 0x33);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, x), R_OK_);
	ck_assert_int_eq(leakcheck_count_fds(), fds + 1);
	b[4095] = 0x22;
	ck_assert_int_eq(p[4095], 0x22);
	ck_assert_int_eq(open_h(h, (void **)&c), R_OK_);
	ck_assert_int_eq(leakcheck_count_fds(), fds + 1); /* found again */
	ck_assert_int_eq(c[4095], 0x22);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, b), R_OK_);
	ck_assert_int_eq(c[2 * MiB - 1], 0x11);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, c), R_OK_);
	ck_assert_int_eq(leakcheck_count_fds(), fds);
	/* And once more from nothing: a new entry, then none. */
	ck_assert_int_eq(open_h(h, (void **)&a), R_OK_);
	ck_assert_int_eq(a[0], 0x11);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, a), R_OK_);
	ck_assert_int_eq(leakcheck_count_fds(), fds);
	put(h);
	put(h2);
	mem_free(p);
	mem_free(p2);
}
END_TEST

Suite *
ipc_suite(void);
void ipc_suite_external(TCase *tc);

Suite *
ipc_suite(void)
{
	Suite *s = suite_create("ipc");
	TCase *tc = tcase_create("api");
	tcase_add_checked_fixture(tc, ipc_fixture_setup, ipc_fixture_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_get_null_arguments);
	tcase_add_test(tc, test_get_unknown_or_interior_pointer);
	tcase_add_test(tc, test_get_other_context);
	tcase_add_test(tc, test_get_small_host_shares_pages);
	tcase_add_test(tc, test_get_with_properties_types);
	tcase_add_test(tc, test_get_repeated_reuses_one_fd);
	tcase_add_test(tc, test_put_twice_or_forged);
	tcase_add_test(tc, test_put_any_context);
	tcase_add_test(tc, test_put_after_free_releases_all);
	tcase_add_test(tc, test_free_exported_pooled_block);
	tcase_add_test(tc, test_open_bad_arguments);
	tcase_add_test(tc, test_open_forged_bytes);
	tcase_add_test(tc, test_handle_checksum_is_crc16);
	tcase_add_test(tc, test_open_corrupted_or_truncated);
	tcase_add_test(tc, test_open_forged_fields);
	tcase_add_test(tc, test_open_replayed_after_put);
	tcase_add_test(tc, test_close_bad_pointers);
	tcase_add_test(tc, test_open_aliases_and_properties);
	tcase_add_test(tc, test_open_small_device_maps_only_its_pages);
	tcase_add_test(tc, test_open_after_pool_file_grew);
	tcase_add_test(tc, test_open_2000_distinct_pointers);
	tcase_add_test(tc, test_get_4000_handles_under_rlimit_1024);
	tcase_add_test(tc, test_cycles_10k_no_growth);
	tcase_add_test(tc, test_open_after_exporter_free_keeps_data);
	tcase_add_test(tc, test_open_entry_outlives_its_first_import);
	tcase_add_test(tc, test_threads_get_open_close_put);
	tcase_add_test(tc, test_get_put_refcounted);
	tcase_add_test(tc, test_get_failed_does_not_mark_exported);
	tcase_add_test(tc, test_alloc_large_no_fd_fails_cleanly);
	tcase_add_test(tc, test_fork_while_threads_allocate);
	tcase_add_test(tc, test_fork_child_draws_other_secrets);
	suite_add_tcase(s, tc);
	/* also run alone by the ipc-budget test, with a 64 MiB budget */
	TCase *tb = tcase_create("cycles");
	tcase_add_checked_fixture(tb, ipc_fixture_setup, ipc_fixture_teardown);
	tcase_add_test(tb, test_cycles_exported_pooled_memory_comes_back);
	suite_add_tcase(s, tb);
	if (getenv("ZEMEM_IPC_POOL_EXPORT")) {
		TCase *tp = tcase_create("pool-export");
		tcase_add_checked_fixture(tp, ipc_fixture_setup,
					  ipc_fixture_teardown);
		tcase_add_test(tp, test_pool_export_4000_handles_few_fds);
		suite_add_tcase(s, tp);
	}
	TCase *tx = tcase_create("external");
	tcase_add_checked_fixture(tx, ipc_fixture_setup, ipc_fixture_teardown);
	ipc_suite_external(tx);
	suite_add_tcase(s, tx);
	return s;
}

int
main(void)
{
	return check_run(ipc_suite(), CK_ENV, false);
}
