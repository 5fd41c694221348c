// SPDX-License-Identifier: MIT
/*
 * test_ipc_phys: IPC handles of physical memory (driver/ipc/ipc_phys.c): a
 * physical object handle cast to a pointer, a VMM address mapped to one
 * object, and one handle for a range of several objects
 * (ze_ipc_phys_mem_handle_range_ext_desc_t), opened in this process and in
 * ipc_helper (fork + exec) through pidfd_getfd and through the broker,
 * with data checked both ways, the error cases, and no fd or mapping left
 * after many cycles; an open that runs out of fds half-way fails with the
 * real error, keeps no fd and calls nobody a forger (issue 26).
 */
#include <check.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_run.h"
#include "ipc.h"
#include "ipc_leak.h"
#include "ipc_peer.h"
#include "zt.h"

#define KiB 1024u
#define OBJ (64 * KiB)
#define NOBJ 4
#define R_OK_ ZE_RESULT_SUCCESS
#define R_ARG ZE_RESULT_ERROR_INVALID_ARGUMENT



static ze_physical_mem_handle_t
phys_create(size_t size)
{
	ze_physical_mem_desc_t pd = { ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC,
				      NULL, 0, size };
	ze_physical_mem_handle_t h;
	ck_assert_int_eq(zt.pmem.pfnCreate(zt.ctx, zt.dev, &pd, &h), R_OK_);
	return h;
}

/* NOBJ objects of OBJ bytes mapped in order at one reservation (skip:
 * leave that one unmapped, -1 none). */
struct range {
	unsigned char *va;
	ze_physical_mem_handle_t ph[NOBJ];
	int skip;
};

static void
range_make(struct range *r, int skip)
{
	r->skip = skip;
	ck_assert_int_eq(zt.vmem.pfnReserve(zt.ctx, NULL, NOBJ * OBJ,
					    (void **)&r->va), R_OK_);
	for (int i = 0; i < NOBJ; i++) {
		r->ph[i] = phys_create(OBJ);
		if (i == skip)
			continue;
		ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, r->va + i * OBJ, OBJ,
						r->ph[i], 0,
					ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
				 R_OK_);
		memset(r->va + i * OBJ, 0x10 + i, OBJ);
	}
}

static void
range_free(struct range *r)
{
	for (int i = 0; i < NOBJ; i++)
		if (i != r->skip)
			ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx,
							  r->va + i * OBJ,
							  OBJ), R_OK_);
	ck_assert_int_eq(zt.vmem.pfnFree(zt.ctx, r->va, NOBJ * OBJ), R_OK_);
	for (int i = 0; i < NOBJ; i++)
		ck_assert_int_eq(zt.pmem.pfnDestroy(zt.ctx, r->ph[i]), R_OK_);
}

static ze_result_t
get_range(const void *va, size_t size, ze_ipc_mem_handle_t *h)
{
	ze_ipc_phys_mem_handle_range_ext_desc_t rd = {
		ZE_STRUCTURE_TYPE_IPC_PHYS_MEM_HANDLE_RANGE_EXT_DESC, NULL,
		size };
	return zt.mem.pfnGetIpcHandleWithProperties(zt.ctx, va, &rd, h);
}

static size_t
mismatches(const unsigned char *p, size_t n, uint8_t byte)
{
	size_t bad = 0;
	for (size_t i = 0; i < n; i++)
		bad += p[i] != byte;
	return bad;
}

static struct ipc_rep
cmd(struct peer *p, char op, uint8_t byte, size_t size,
    const ze_ipc_mem_handle_t *h)
{
	struct ipc_rep rep;
	ck_assert_int_eq(peer_cmd(p, op, byte, size, 0, h, -1, &rep), 0);
	return rep;
}

static void
start(struct peer *p, const char *transport)
{
	static char env[64];
	snprintf(env, sizeof(env), "ZEMEM_IPC_TRANSPORT=%s", transport);
	const char *const e[] = { env, NULL };
	ck_assert_int_eq(peer_start(p, false, e), 0);
}

static void
stop(struct peer *p)
{
	int status = peer_stop(p);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

START_TEST(test_phys_handle_same_process)
{
	ze_physical_mem_handle_t ph = phys_create(OBJ);
	ze_ipc_mem_handle_t h;
	unsigned char *a, *b, *va;
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, (void *)ph, &h),
			 R_OK_);
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, h, 0,
						 (void **)&a), R_OK_);
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, h, 0,
						 (void **)&b), R_OK_);
	ck_assert_ptr_ne(a, b);
	memset(a, 0x5a, OBJ);
	ck_assert_uint_eq(mismatches(b, OBJ, 0x5a), 0);
	/* The application's own mapping of the object sees it too. */
	ck_assert_int_eq(zt.vmem.pfnReserve(zt.ctx, NULL, OBJ, (void **)&va),
			 R_OK_);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, va, OBJ, ph, 0,
					ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
			 R_OK_);
	ck_assert_uint_eq(mismatches(va, OBJ, 0x5a), 0);
	memset(va, 0x6b, OBJ);
	ck_assert_uint_eq(mismatches(a, OBJ, 0x6b), 0);
	ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, va, OBJ), R_OK_);
	ck_assert_int_eq(zt.vmem.pfnFree(zt.ctx, va, OBJ), R_OK_);
	/* Destroyed while exported and opened: the memory stays. */
	ck_assert_int_eq(zt.pmem.pfnDestroy(zt.ctx, ph), R_OK_);
	ck_assert_uint_eq(mismatches(b, OBJ, 0x6b), 0);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, a), R_OK_);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, b), R_OK_);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), R_OK_);
}
END_TEST

START_TEST(test_phys_handle_xproc)
{
	static const char *const modes[] = { "pidfd", "broker" };
	for (int m = 0; m < 2; m++) {
		struct peer p;
		start(&p, modes[m]);
		ze_physical_mem_handle_t ph = phys_create(OBJ);
		ze_ipc_mem_handle_t h;
		unsigned char *va;
		ck_assert_int_eq(zt.vmem.pfnReserve(zt.ctx, NULL, OBJ,
						    (void **)&va), R_OK_);
		ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, va, OBJ, ph, 0,
					ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
				 R_OK_);
		memset(va, 0xa1, OBJ);
		ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, (void *)ph,
							&h), R_OK_);
		ck_assert_int_eq(cmd(&p, 'O', 0, OBJ, &h).result, R_OK_);
		ck_assert_uint_eq(cmd(&p, 'C', 0xa1, 0, NULL).value, 0);
		ck_assert_int_eq(cmd(&p, 'W', 0xb2, 0, NULL).result, 0);
		ck_assert_uint_eq(mismatches(va, OBJ, 0xb2), 0);
		/* Unmapped and destroyed here, put: the peer still maps it. */
		ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, va, OBJ), R_OK_);
		ck_assert_int_eq(zt.vmem.pfnFree(zt.ctx, va, OBJ), R_OK_);
		ck_assert_int_eq(zt.pmem.pfnDestroy(zt.ctx, ph), R_OK_);
		ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), R_OK_);
		ck_assert_uint_eq(cmd(&p, 'C', 0xb2, 0, NULL).value, 0);
		ck_assert_int_eq(cmd(&p, 'X', 0, 0, NULL).result, R_OK_);
		/* Put: a new open fails. */
		ck_assert_int_eq(cmd(&p, 'O', 0, OBJ, &h).result, R_ARG);
		stop(&p);
	}
}
END_TEST

START_TEST(test_phys_va_one_object)
{
	/* 2 objects-worth, mapped from offset OBJ of a 2*OBJ object. */
	ze_physical_mem_handle_t ph = phys_create(2 * OBJ);
	unsigned char *va, *all, *o;
	ze_ipc_mem_handle_t h;
	ck_assert_int_eq(zt.vmem.pfnReserve(zt.ctx, NULL, 2 * OBJ,
					    (void **)&all), R_OK_);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, all, 2 * OBJ, ph, 0,
					ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
			 R_OK_);
	memset(all, 0x01, OBJ);
	memset(all + OBJ, 0x02, OBJ);
	ck_assert_int_eq(zt.vmem.pfnReserve(zt.ctx, NULL, OBJ, (void **)&va),
			 R_OK_);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, va, OBJ, ph, OBJ,
					ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
			 R_OK_);
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, va + 4096, &h),
			 R_ARG); /* interior */
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, va, &h), R_OK_);
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, h, 0,
						 (void **)&o), R_OK_);
	ck_assert_uint_eq(mismatches(o, OBJ, 0x02), 0);
	memset(o, 0x03, OBJ);
	ck_assert_uint_eq(mismatches(all + OBJ, OBJ, 0x03), 0);
	ck_assert_uint_eq(mismatches(all, OBJ, 0x01), 0);
	/* Properties and address range of the opened pointer. */
	ze_memory_allocation_properties_t mp = {
		ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, NULL, 0, 0, 0 };
	ze_device_handle_t d = NULL;
	ck_assert_int_eq(zt.mem.pfnGetAllocProperties(zt.ctx, o + 100, &mp,
						      &d), R_OK_);
	ck_assert_int_eq(mp.type, ZE_MEMORY_TYPE_DEVICE);
	ck_assert_ptr_eq(d, zt.dev);
	void *base;
	size_t size;
	ck_assert_int_eq(zt.mem.pfnGetAddressRange(zt.ctx, o + 100, &base,
						   &size), R_OK_);
	ck_assert_ptr_eq(base, o);
	ck_assert_uint_eq(size, OBJ);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, o), R_ARG);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, o + 4096), R_ARG);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, o), R_OK_);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, o), R_ARG);
	ck_assert_int_eq(zt.mem.pfnGetAddressRange(zt.ctx, o, &base, &size),
			 ZE_RESULT_ERROR_ADDRESS_NOT_FOUND);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), R_OK_);
	/* Put again: success, as Intel's driver answers. */
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), R_OK_);
	ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, va, OBJ), R_OK_);
	ck_assert_int_eq(zt.vmem.pfnFree(zt.ctx, va, OBJ), R_OK_);
	ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, all, 2 * OBJ), R_OK_);
	ck_assert_int_eq(zt.vmem.pfnFree(zt.ctx, all, 2 * OBJ), R_OK_);
	ck_assert_int_eq(zt.pmem.pfnDestroy(zt.ctx, ph), R_OK_);
}
END_TEST

/* Issue 14 point 18: one object mapped at two adjacent addresses of one
 * reservation is one physical object, not several: each mapping's base
 * exports (that mapping), and the import aliases the object. */
START_TEST(test_phys_va_one_object_twice)
{
	ze_physical_mem_handle_t ph = phys_create(OBJ);
	unsigned char *va, *o;
	ze_ipc_mem_handle_t h;
	ck_assert_int_eq(zt.vmem.pfnReserve(zt.ctx, NULL, 2 * OBJ,
					    (void **)&va), R_OK_);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, va + i * OBJ, OBJ, ph,
						0,
					ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
				 R_OK_);
	memset(va, 0x44, OBJ);
	ck_assert_uint_eq(mismatches(va + OBJ, OBJ, 0x44), 0); /* aliases */
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, va + i * OBJ,
							&h), R_OK_);
		ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, h, 0,
							 (void **)&o), R_OK_);
		ck_assert_uint_eq(mismatches(o + 1, OBJ - 1, 0x44), 0);
		o[0] = (unsigned char)(0x50 + i);
		ck_assert_int_eq(va[0], 0x50 + i);
		ck_assert_int_eq(va[OBJ], 0x50 + i);
		ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, o), R_OK_);
		ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), R_OK_);
	}
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, va + i * OBJ, OBJ),
				 R_OK_);
	ck_assert_int_eq(zt.vmem.pfnFree(zt.ctx, va, 2 * OBJ), R_OK_);
	ck_assert_int_eq(zt.pmem.pfnDestroy(zt.ctx, ph), R_OK_);
}
END_TEST

/* Exported here, opened in the peer, data both ways, closed and put. */
START_TEST(test_phys_range_export_xproc)
{
	static const char *const modes[] = { "pidfd", "broker" };
	for (int m = 0; m < 2; m++) {
		struct peer p;
		struct range r;
		ze_ipc_mem_handle_t h;
		start(&p, modes[m]);
		range_make(&r, -1);
		memset(r.va, 0xa1, NOBJ * OBJ);
		ck_assert_int_eq(get_range(r.va, NOBJ * OBJ, &h), R_OK_);
		ck_assert_int_eq(cmd(&p, 'O', 0, NOBJ * OBJ, &h).result,
				 R_OK_);
		ck_assert_uint_eq(cmd(&p, 'C', 0xa1, 0, NULL).value, 0);
		ck_assert_int_eq(cmd(&p, 'W', 0xb2, 0, NULL).result, 0);
		ck_assert_uint_eq(mismatches(r.va, NOBJ * OBJ, 0xb2), 0);
		memset(r.va + 3 * OBJ, 0xc3, OBJ);
		memset(r.va, 0xc3, 3 * OBJ);
		ck_assert_uint_eq(cmd(&p, 'C', 0xc3, 0, NULL).value, 0);
		ck_assert_int_eq(cmd(&p, 'X', 0, 0, NULL).result, R_OK_);
		ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), R_OK_);
		range_free(&r);
		stop(&p);
	}
}
END_TEST

/* Exported by the peer, opened here. */
START_TEST(test_phys_range_import_xproc)
{
	struct peer p;
	start(&p, "auto");
	struct ipc_rep rep = cmd(&p, 'V', 0x44, OBJ, NULL);
	ck_assert_int_eq(rep.result, R_OK_);
	unsigned char *o, *o2;
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, rep.h, 0,
						 (void **)&o), R_OK_);
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, rep.h, 0,
						 (void **)&o2), R_OK_);
	ck_assert_ptr_ne(o, o2);
	ck_assert_uint_eq(mismatches(o, NOBJ * OBJ, 0x44), 0);
	memset(o, 0x55, NOBJ * OBJ);
	ck_assert_uint_eq(cmd(&p, 'C', 0x55, 0, NULL).value, 0);
	ck_assert_int_eq(cmd(&p, 'W', 0x66, 0, NULL).result, 0);
	ck_assert_uint_eq(mismatches(o2, NOBJ * OBJ, 0x66), 0);
	void *base;
	size_t size;
	ck_assert_int_eq(zt.mem.pfnGetAddressRange(zt.ctx, o + 3 * OBJ + 5,
						   &base, &size), R_OK_);
	ck_assert_ptr_eq(base, o);
	ck_assert_uint_eq(size, NOBJ * OBJ);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, o + OBJ), R_ARG);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, o), R_OK_);
	/* The exporter unmaps, destroys and puts: o2 keeps the memory. */
	ck_assert_int_eq(cmd(&p, 'v', 0, 0, NULL).result, R_OK_);
	ck_assert_int_eq(cmd(&p, 'P', 0, 0, NULL).result, R_OK_);
	ck_assert_int_eq(cmd(&p, 'P', 0, 0, NULL).result, R_OK_);
	ck_assert_uint_eq(mismatches(o2, NOBJ * OBJ, 0x66), 0);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, o2), R_OK_);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, o2), R_ARG);
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, rep.h, 0,
						 (void **)&o), R_ARG);
	stop(&p);
}
END_TEST

START_TEST(test_phys_errors)
{
	struct range r, hole;
	ze_ipc_mem_handle_t h;
	unsigned char *o;
	range_make(&r, -1);
	range_make(&hole, 2);
	/* Spanning several objects without the descriptor. */
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, r.va, &h), R_ARG);
	/* A hole. */
	ck_assert_int_eq(get_range(hole.va, NOBJ * OBJ, &h),
			 ZE_RESULT_ERROR_ADDRESS_NOT_FOUND);
	ck_assert_int_eq(get_range(hole.va, 2 * OBJ, &h), R_OK_);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), R_OK_);
	/* Past the reservation, misaligned, zero, physical + range. */
	ck_assert_int_eq(get_range(r.va, NOBJ * OBJ + OBJ, &h), R_ARG);
	ck_assert_int_eq(get_range(r.va + 1, OBJ, &h), R_ARG);
	ck_assert_int_eq(get_range(r.va, 0, &h), R_ARG);
	ck_assert_int_eq(get_range((void *)r.ph[0], OBJ, &h), R_ARG);
	/* Fabric stays unsupported. */
	ze_ipc_mem_handle_type_ext_desc_t fab = {
		ZE_STRUCTURE_TYPE_IPC_MEM_HANDLE_TYPE_EXT_DESC, NULL,
		ZE_IPC_MEM_HANDLE_TYPE_FLAG_FABRIC_ACCESSIBLE };
	ze_ipc_phys_mem_handle_range_ext_desc_t rd = {
		ZE_STRUCTURE_TYPE_IPC_PHYS_MEM_HANDLE_RANGE_EXT_DESC, &fab,
		NOBJ * OBJ };
	ck_assert_int_eq(zt.mem.pfnGetIpcHandleWithProperties(zt.ctx, r.va,
							      &rd, &h),
			 ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
	/* A range handle: forged copies are refused. */
	ck_assert_int_eq(get_range(r.va, NOBJ * OBJ, &h), R_OK_);
	ze_ipc_mem_handle_t f = h;
	f.data[50] ^= 1;
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, f, 0,
						 (void **)&o), R_ARG);
	struct ipc_desc d;
	const char *why;
	ck_assert_int_eq(ipc_handle_decode(h.data, &d, &why), 0);
	/* Its list memfd (ours) carries the tag in its position and, where
	 * memfds keep FS_NOATIME_FL, in its access time (ipc_fd_tag). */
	struct stat lst;
	ck_assert_int_eq(fstat(d.fd_copy, &lst), 0);
	ck_assert_uint_eq((uint64_t)lseek(d.fd_copy, 0, SEEK_CUR), d.tag);
	int probe = memfd_create("zt-noatime", MFD_CLOEXEC), fl = 0;
	ck_assert_int_ge(probe, 0);
	if (!ioctl(probe, FS_IOC_SETFLAGS, &(int){ FS_NOATIME_FL })) {
		ck_assert_int_eq(ioctl(d.fd_copy, FS_IOC_GETFLAGS, &fl), 0);
		ck_assert(fl & FS_NOATIME_FL);
		ck_assert_uint_eq((uint64_t)lst.st_atim.tv_sec, d.tag);
	} else {
		fprintf(stderr, "skip: memfds refuse FS_NOATIME_FL here: the "
				"list's tag is in its position alone\n");
	}
	close(probe);
	struct ipc_desc fd = d;
	fd.tag ^= 1ull << 20;
	ipc_handle_encode(&fd, f.data);
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, f, 0,
						 (void **)&o), R_ARG);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, f), R_ARG);
	fd = d;
	fd.size += OBJ;
	ipc_handle_encode(&fd, f.data);
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, f, 0,
						 (void **)&o), R_ARG);
	fd = d;
	fd.export_id += 1000;
	ipc_handle_encode(&fd, f.data);
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, f, 0,
						 (void **)&o), R_ARG);
	uint64_t fdnum;
	ck_assert_int_eq(zt.mem_exp.pfnGetFileDescriptorFromIpcHandleExp(
				 zt.ctx, h, &fdnum),
			 ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
	/* Open, close (interior, double), put (double), open after put. */
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, h, 0,
						 (void **)&o), R_OK_);
	for (int i = 0; i < NOBJ; i++)
		ck_assert_uint_eq(mismatches(o + i * OBJ, OBJ, 0x10 + i), 0);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, o + 1), R_ARG);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, o), R_OK_);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, o), R_ARG);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), R_OK_);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), R_OK_);
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, h, 0,
						 (void **)&o), R_ARG);
	range_free(&r);
	range_free(&hole);
}
END_TEST

START_TEST(test_phys_cycles_no_growth)
{
	struct range r;
	struct peer p;
	ze_ipc_mem_handle_t h;
	unsigned char *o;
	range_make(&r, -1);
	start(&p, "auto");
	int fds = -1, maps = -1;
	for (int i = 0; i < 300; i++) {
		ck_assert_int_eq(get_range(r.va, NOBJ * OBJ, &h), R_OK_);
		ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, h, 0,
							 (void **)&o), R_OK_);
		o[i] = (unsigned char)i;
		ck_assert_uint_eq(r.va[i], (unsigned char)i);
		ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, o), R_OK_);
		if (i % 10 == 0) {
			ck_assert_int_eq(cmd(&p, 'O', 0, NOBJ * OBJ,
					     &h).result, R_OK_);
			ck_assert_int_eq(cmd(&p, 'X', 0, 0, NULL).result,
					 R_OK_);
		}
		ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), R_OK_);
		if (i == 20) {
			fds = leakcheck_count_fds();
			maps = leakcheck_count_maps(NULL);
		}
	}
	ck_assert_int_eq(leakcheck_count_fds(), fds);
#ifndef IPC_LEAK_ASAN
	ck_assert_int_eq(leakcheck_count_maps(NULL), maps);
#else
	(void)maps;
#endif
	stop(&p);
	range_free(&r);
}
END_TEST

/* The highest open fd number (0 .. 4095), or -1. */
static int
highest_fd(void)
{
	int hi = -1;
	for (int fd = 0; fd < 4096; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			hi = fd;
	return hi;
}

/* Issue 26, point 6: with RLIMIT_NOFILE lowered so that only `room` fd
 * numbers are free, an open of a peer's range handle gets as far as
 * they let it. When it fails, the result is the real one (out of
 * resources), no fd stays behind, and no file is called a forgery (the
 * list file it had proved was once parked for good, as a forged handle's
 * file, because /proc/locks could not be opened to clear it). */
START_TEST(test_phys_open_out_of_fds)
{
	struct peer p;
	start(&p, "auto");
	/* the exporter's pidfd in this process's cache, as in a job */
	struct ipc_rep a = cmd(&p, 'A', 0x33, OBJ, NULL);
	ck_assert_int_eq(a.result, R_OK_);
	void *u;
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, a.h, 0, &u),
			 R_OK_);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, u), R_OK_);
	struct ipc_rep rep = cmd(&p, 'V', 0x44, OBJ, NULL);
	ck_assert_int_eq(rep.result, R_OK_);
	struct rlimit old;
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &old), 0);
	char path[] = "/tmp/zemem-test-fds-XXXXXX";
	int log = mkostemp(path, O_CLOEXEC);
	ck_assert_int_ge(log, 0);
	unlink(path);
	int saved = fcntl(2, F_DUPFD_CLOEXEC, 0);
	ck_assert_int_ge(saved, 0);
	int base = leakcheck_count_fds();
	int fails = 0;
	unsigned char *o = NULL;
	for (int room = 1; room <= 2 * NOBJ + 4 && !o; room++) {
		int hi = highest_fd();
		struct rlimit lo = { (rlim_t)hi + 1 + 2 * NOBJ + 8,
				     old.rlim_max };
		ck_assert_int_lt(lo.rlim_cur, old.rlim_cur);
		int fill[256], n = 0, fd = 0;
		ck_assert_int_eq(dup2(log, 2), 2);
		ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &lo), 0);
		while (n < 256 &&
		       (fd = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0)
			fill[n++] = fd;
		int e = fd < 0 ? errno : 0;
		for (int i = 0; i < room && n; i++)
			close(fill[--n]);
		ze_result_t r = zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, rep.h,
							0, (void **)&o);
		for (int i = 0; i < n; i++)
			close(fill[i]);
		setrlimit(RLIMIT_NOFILE, &old);
		dup2(saved, 2);
		ck_assert_int_eq(e, EMFILE);
		if (r == R_OK_)
			break;
		ck_assert_msg(r == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
			      "room %d: 0x%x", room, (unsigned)r);
		ck_assert_ptr_null(o);
		ck_assert_int_eq(leakcheck_count_fds(), base);
		fails++;
	}
	ck_assert_int_ge(fails, 2);
	ck_assert_ptr_nonnull(o);
	ck_assert_uint_eq(mismatches(o, NOBJ * OBJ, 0x44), 0);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, o), R_OK_);
	char buf[8192];
	ssize_t len = pread(log, buf, sizeof(buf) - 1, 0);
	ck_assert_int_ge(len, 0);
	buf[len] = 0;
	ck_assert_msg(!strstr(buf, "forged") && !strstr(buf, "kept open"),
		      "%s", buf);
	close(log);
	close(saved);
	stop(&p);
}
END_TEST

static Suite *
phys_suite(void)
{
	Suite *s = suite_create("ipc_phys");
	TCase *tc = tcase_create("phys");
	tcase_add_checked_fixture(tc, ipc_fixture_setup, ipc_fixture_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_phys_handle_same_process);
	tcase_add_test(tc, test_phys_handle_xproc);
	tcase_add_test(tc, test_phys_va_one_object);
	tcase_add_test(tc, test_phys_va_one_object_twice);
	tcase_add_test(tc, test_phys_range_export_xproc);
	tcase_add_test(tc, test_phys_range_import_xproc);
	tcase_add_test(tc, test_phys_errors);
	tcase_add_test(tc, test_phys_cycles_no_growth);
	tcase_add_test(tc, test_phys_open_out_of_fds);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return check_run(phys_suite(), CK_ENV, false);
}
