// SPDX-License-Identifier: MIT
/*
 * test_ipc_xproc: IPC between two processes. This process exports (or
 * imports); ipc_helper, started with fork + exec, does the other side. The
 * handle travels as bytes through a pipe (the importer fetches the fd with
 * pidfd_getfd, or from the exporter's broker), or through a UNIX socket
 * with the fd attached by SCM_RIGHTS and written into bytes 0..3 (the
 * Level Zero conformance-suite convention). Data written on either side
 * must show on the other; killing either side must leave the other
 * working and this process without leaks; another user must be refused.
 */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_run.h"
#include "ipc_peer.h"
#include "ipc_leak.h"
#include "zt.h"

#define MiB (1024u * 1024u)
#define SIZE (2 * MiB)
#define R_OK_ ZE_RESULT_SUCCESS
#define R_ARG ZE_RESULT_ERROR_INVALID_ARGUMENT

static unsigned char *mem;
static ze_ipc_mem_handle_t handle;


/* An exported 2 MiB device allocation full of byte. */
static void
export(uint8_t byte)
{
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, SIZE, 0,
					       zt.dev, (void **)&mem), R_OK_);
	memset(mem, byte, SIZE);
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, mem, &handle), R_OK_);
}

static void
unexport(void)
{
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, handle), R_OK_);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, mem), R_OK_);
}

static struct ipc_rep
cmd(struct peer *p, char op, uint8_t byte, const ze_ipc_mem_handle_t *h,
    int fd)
{
	struct ipc_rep rep;
	ck_assert_int_eq(peer_cmd(p, op, byte, SIZE, 0, h, fd, &rep), 0);
	return rep;
}

static size_t
mismatches(const unsigned char *p, uint8_t byte)
{
	size_t n = 0;
	for (size_t i = 0; i < SIZE; i++)
		n += p[i] != byte;
	return n;
}

/* Open in the peer, then data both ways, then close. */
static void
round_trip(struct peer *p, int fd, char op)
{
	ck_assert_int_eq(cmd(p, op, 0, &handle, fd).result, R_OK_);
	ck_assert_uint_eq(cmd(p, 'C', 0xa1, NULL, -1).value, 0);
	ck_assert_int_eq(cmd(p, 'W', 0xb2, NULL, -1).result, 0);
	ck_assert_uint_eq(mismatches(mem, 0xb2), 0);
	memset(mem, 0xc3, SIZE);
	ck_assert_uint_eq(cmd(p, 'C', 0xc3, NULL, -1).value, 0);
	ck_assert_int_eq(cmd(p, 'X', 0, NULL, -1).result, R_OK_);
}

static void
start(struct peer *p, bool sock, const char *transport)
{
	static char env[64];
	snprintf(env, sizeof(env), "ZEMEM_IPC_TRANSPORT=%s", transport);
	const char *const e[] = { env, NULL };
	ck_assert_int_eq(peer_start(p, sock, e), 0);
}

static void
stop(struct peer *p)
{
	int status = peer_stop(p);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static bool
need_root(void)
{
	if (getuid() == 0)
		return true;
	fprintf(stderr, "skip: needs root to switch a child to uid %d\n",
		IPC_NOBODY);
	return false;
}

START_TEST(test_xproc_open_other_uid_refused)
{
	if (!need_root())
		return;
	static const char *const modes[] = { "auto", "pidfd", "broker" };
	export(0xa1);
	for (int i = 0; i < 3; i++) {
		struct peer p;
		start(&p, false, modes[i]);
		ck_assert_int_eq(cmd(&p, 'U', 0, NULL, -1).result, 0);
		ck_assert_int_eq(cmd(&p, 'O', 0, &handle, -1).result,
				 ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS);
		stop(&p);
	}
	unexport();
}
END_TEST

START_TEST(test_xproc_open_no_transport_no_fd)
{
	struct peer p;
	export(0xa1);
	start(&p, true, "none");
	ck_assert_int_eq(cmd(&p, 'O', 0, &handle, -1).result,
			 ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
	stop(&p);
	unexport();
}
END_TEST

START_TEST(test_xproc_open_replayed_after_put)
{
	static const char *const modes[] = { "pidfd", "broker" };
	for (int i = 0; i < 2; i++) {
		struct peer p;
		export(0xa1);
		start(&p, false, modes[i]);
		round_trip(&p, -1, 'O');
		unexport();
		ck_assert_int_eq(cmd(&p, 'O', 0, &handle, -1).result, R_ARG);
		stop(&p);
	}
}
END_TEST

START_TEST(test_xproc_open_pidfd_pipe)
{
	struct peer p;
	export(0xa1);
	start(&p, false, "pidfd");
	round_trip(&p, -1, 'O');
	stop(&p);
	unexport();
}
END_TEST

START_TEST(test_xproc_open_broker)
{
	struct peer p;
	export(0xa1);
	start(&p, false, "broker");
	round_trip(&p, -1, 'O');
	stop(&p);
	unexport();
}
END_TEST

START_TEST(test_xproc_open_socket_fd_in_bytes_0_3)
{
	struct peer p;
	export(0xa1);
	start(&p, true, "none");
	int fd;
	memcpy(&fd, handle.data, sizeof(fd)); /* the conformance suite way */
	round_trip(&p, fd, 'O');
	stop(&p);
	unexport();
}
END_TEST

START_TEST(test_xproc_open_socket_fd_same_number)
{
	/* The fd arrives with the exporter's own number: bytes 0..3 look
	 * untouched, yet the file is found (it is provably the exporter's). */
	struct peer p;
	struct ipc_rep rep;
	export(0xa1);
	start(&p, true, "none");
	int fd;
	memcpy(&fd, handle.data, sizeof(fd));
	ck_assert_int_eq(peer_cmd(&p, 'O', 0, SIZE, IPC_CMD_SAME_NUMBER,
				  &handle, fd, &rep), 0);
	if (rep.result == -EBUSY) {
		fprintf(stderr, "skip: fd %d is taken in the helper\n", fd);
	} else {
		ck_assert_int_eq(rep.result, R_OK_);
		ck_assert_uint_eq(cmd(&p, 'C', 0xa1, NULL, -1).value, 0);
		ck_assert_int_eq(cmd(&p, 'X', 0, NULL, -1).result, R_OK_);
	}
	stop(&p);
	unexport();
}
END_TEST

START_TEST(test_xproc_open_exp_fd_conversion)
{
	struct peer p;
	uint64_t fd;
	export(0xa1);
	ck_assert_int_eq(zt.mem_exp.pfnGetFileDescriptorFromIpcHandleExp(
				 zt.ctx, handle, &fd), R_OK_);
	start(&p, true, "none");
	round_trip(&p, (int)fd, 'E');
	stop(&p);
	unexport();
}
END_TEST

START_TEST(test_xproc_exporter_frees_importer_keeps_data)
{
	struct peer p;
	export(0xa1);
	start(&p, false, "auto");
	ck_assert_int_eq(cmd(&p, 'O', 0, &handle, -1).result, R_OK_);
	unexport();
	ck_assert_uint_eq(cmd(&p, 'C', 0xa1, NULL, -1).value, 0);
	ck_assert_int_eq(cmd(&p, 'W', 0x11, NULL, -1).result, 0);
	ck_assert_uint_eq(cmd(&p, 'C', 0x11, NULL, -1).value, 0);
	ck_assert_int_eq(cmd(&p, 'X', 0, NULL, -1).result, R_OK_);
	stop(&p);
}
END_TEST

START_TEST(test_xproc_importer_killed_while_mapped)
{
	struct peer p;
	export(0xa1);
	start(&p, false, "auto");
	ck_assert_int_eq(cmd(&p, 'O', 0, &handle, -1).result, R_OK_);
	ck_assert_int_eq(cmd(&p, 'W', 0x99, NULL, -1).result, 0);
	peer_kill(&p);
	ck_assert_uint_eq(mismatches(mem, 0x99), 0);
	memset(mem, 0x98, SIZE);
	ck_assert_uint_eq(mismatches(mem, 0x98), 0);
	/* A new importer still gets it. */
	start(&p, false, "auto");
	ck_assert_int_eq(cmd(&p, 'O', 0, &handle, -1).result, R_OK_);
	ck_assert_uint_eq(cmd(&p, 'C', 0x98, NULL, -1).value, 0);
	stop(&p);
	unexport();
}
END_TEST

START_TEST(test_xproc_exporter_killed_while_mapped)
{
	struct peer p;
	struct ipc_rep rep;
	unsigned char *q;
	start(&p, false, "auto");
	ck_assert_int_eq(peer_cmd(&p, 'A', 0x5e, SIZE, 0, NULL, -1, &rep), 0);
	ck_assert_int_eq(rep.result, R_OK_);
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, rep.h, 0,
						 (void **)&q), R_OK_);
	ck_assert_uint_eq(mismatches(q, 0x5e), 0);
	peer_kill(&p);
	ck_assert_uint_eq(mismatches(q, 0x5e), 0);
	memset(q, 0x5f, SIZE);
	ck_assert_uint_eq(mismatches(q, 0x5f), 0);
	void *q2 = (void *)1;
	/* The export died with its exporter: the cached file (still mapped
	 * by q) is revalidated against the exporter and refused, and so is
	 * a cold open after the last close. */
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, rep.h, 0,
						 &q2), R_ARG);
	ck_assert_ptr_null(q2);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, q), R_OK_);
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, rep.h, 0,
						 &q2), R_ARG);
}
END_TEST

START_TEST(test_xproc_non_root_same_uid)
{
	if (!need_root())
		return;
	/* Exporter and importers all run as nobody: pidfd_getfd works
	 * between processes of one unprivileged user, and so does the
	 * broker. */
	static const char *const modes[] = { "pidfd", "broker" };
	const char *const e_exp[] = { "ZEMEM_TEST_SETUID=65534", NULL };
	struct peer x;
	struct ipc_rep rep;
	ck_assert_int_eq(peer_start(&x, false, e_exp), 0);
	ck_assert_int_eq(peer_cmd(&x, 'A', 0x3d, SIZE, 0, NULL, -1, &rep), 0);
	ck_assert_int_eq(rep.result, R_OK_);
	ze_ipc_mem_handle_t h = rep.h;
	for (int i = 0; i < 2; i++) {
		char t[64];
		snprintf(t, sizeof(t), "ZEMEM_IPC_TRANSPORT=%s", modes[i]);
		const char *const e_imp[] = { "ZEMEM_TEST_SETUID=65534", t,
					      NULL };
		struct peer y;
		ck_assert_int_eq(peer_start(&y, false, e_imp), 0);
		ck_assert_int_eq(peer_cmd(&y, 'O', 0, SIZE, 0, &h, -1, &rep),
				 0);
		ck_assert_int_eq(rep.result, R_OK_);
		ck_assert_int_eq(peer_cmd(&y, 'C', 0x3d, SIZE, 0, NULL, -1,
					  &rep), 0);
		ck_assert_uint_eq(rep.value, 0);
		int status = peer_stop(&y);
		ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	stop(&x);
}
END_TEST

START_TEST(test_xproc_cycles_no_growth)
{
	struct peer p;
	int fds = 0, maps = 0;
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, SIZE, 0,
					       zt.dev, (void **)&mem), R_OK_);
	start(&p, false, "auto");
	for (int i = 0; i < 1000; i++) {
		ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, mem, &handle),
				 R_OK_);
		ck_assert_int_eq(cmd(&p, 'O', 0, &handle, -1).result, R_OK_);
		ck_assert_int_eq(cmd(&p, 'X', 0, NULL, -1).result, R_OK_);
		ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, handle),
				 R_OK_);
		if (i == 10) {
			fds = leakcheck_count_fds();
			maps = leakcheck_count_maps(NULL);
		}
	}
	ck_assert_int_eq(leakcheck_count_fds(), fds);
	ck_assert_int_eq(leakcheck_count_maps(NULL), maps);
	stop(&p);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, mem), R_OK_);
}
END_TEST

/* ---- isolation (issue 14 points 3, 11) ----------------------------------- */

static void *
alloc_kind(int host, size_t size, uint8_t byte)
{
	void *p;
	if (host)
		ck_assert_int_eq(zt.mem.pfnAllocHost(zt.ctx, &zt_hdesc, size, 0,
						     &p), R_OK_);
	else
		ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, size,
						       0, zt.dev, &p), R_OK_);
	memset(p, byte, size);
	return p;
}

static size_t
bad_bytes(const unsigned char *p, size_t n, uint8_t byte)
{
	size_t bad = 0;
	for (size_t i = 0; i < n; i++)
		bad += p[i] != byte;
	return bad;
}

/* A hostile importer (another process) holds the very fd the handle
 * names (sent the conformance suite's way): it maps the whole file,
 * reads its size, overwrites it and punches a hole over all of it. It
 * sees only the exported block (and zeros), and every neighbour that was
 * never exported stays intact in the exporter. */
START_TEST(test_xproc_hostile_importer_sees_only_export)
{
	const size_t sizes[] = { 1, 64, 4096, 3 * 4096 + 5, 1 << 20 };
	struct peer p;
	start(&p, true, "none");
	for (int host = 0; host < 2; host++) {
		for (int k = 0; k < 5; k++) {
			size_t sz = sizes[k];
			enum { NN = 6 };
			unsigned char *nb[NN], *e;
			for (int j = 0; j < NN / 2; j++)
				nb[j] = alloc_kind(host, j ? 64 : 4096,
						   (uint8_t)(0x50 + j));
			e = alloc_kind(host, sz, 0xe7);
			for (int j = NN / 2; j < NN; j++)
				nb[j] = alloc_kind(host, j % 2 ? 64 : 4096,
						   (uint8_t)(0x50 + j));
			ze_ipc_mem_handle_t h;
			ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, e, &h),
					 R_OK_);
			int fd;
			memcpy(&fd, h.data, sizeof(fd));
			struct ipc_rep rep;
			ck_assert_int_eq(peer_cmd(&p, 'H', 0xe7, 0, 0, NULL, fd,
						  &rep), 0);
			ck_assert_int_eq(rep.result, 0);
			size_t page = 4096, want = (sz + page - 1) / page * page;
			ck_assert_uint_eq(rep.value, want);
			ck_assert_uint_eq(rep.pad, 0);
			for (int j = 0; j < NN; j++)
				ck_assert_uint_eq(
					bad_bytes(nb[j], j == 0 || j == 4
								 ? 4096 : 64,
						  (uint8_t)(0x50 + j)), 0);
			ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h),
					 R_OK_);
			ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, e), R_OK_);
			for (int j = 0; j < NN; j++)
				ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, nb[j]),
						 R_OK_);
		}
	}
	/* A block in a slot (or a cached large mapping) that held another,
	 * unexported block before: the file's bytes past it read as zeros,
	 * not as what the earlier block left there. */
	const size_t big[2][2] = { { 4096, 1 }, { 2 << 20, (2 << 20) - 100 } };
	for (int host = 0; host < 2; host++) {
		for (int k = 0; k < 2; k++) {
			unsigned char *old = alloc_kind(host, big[k][0], 0x5e);
			ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, old), R_OK_);
			unsigned char *e = alloc_kind(host, big[k][1], 0xe7);
			ck_assert_ptr_eq(e, old); /* the same slot / mapping */
			ze_ipc_mem_handle_t h;
			ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, e, &h),
					 R_OK_);
			int fd;
			memcpy(&fd, h.data, sizeof(fd));
			struct ipc_rep rep;
			ck_assert_int_eq(peer_cmd(&p, 'H', 0xe7, 0, 0, NULL, fd,
						  &rep), 0);
			ck_assert_int_eq(rep.result, 0);
			ck_assert_uint_eq(rep.value, big[k][0]);
			ck_assert_uint_eq(rep.pad, 0);
			ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h),
					 R_OK_);
			ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, e), R_OK_);
		}
	}
	stop(&p);
}
END_TEST

/* Every host USM allocation exports and opens in another process, 1 B
 * and 4 KiB ones included (the conformance suite's XMEM cases). */
START_TEST(test_xproc_small_host_export_open)
{
	const size_t sizes[] = { 1, 4096, 100, 65536 };
	struct peer p;
	start(&p, false, "auto");
	for (int k = 0; k < 4; k++) {
		size_t sz = sizes[k];
		unsigned char *m = alloc_kind(1, sz, 0x3c);
		unsigned char *nb = alloc_kind(1, 64, 0x3d);
		ze_ipc_mem_handle_t h;
		struct ipc_rep rep;
		ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, m, &h), R_OK_);
		ck_assert_int_eq(peer_cmd(&p, 'O', 0, sz, 0, &h, -1, &rep), 0);
		ck_assert_int_eq(rep.result, R_OK_);
		ck_assert_int_eq(peer_cmd(&p, 'C', 0x3c, sz, 0, NULL, -1,
					  &rep), 0);
		ck_assert_uint_eq(rep.value, 0);
		ck_assert_int_eq(peer_cmd(&p, 'W', 0x4e, sz, 0, NULL, -1,
					  &rep), 0);
		ck_assert_uint_eq(bad_bytes(m, sz, 0x4e), 0);
		ck_assert_uint_eq(bad_bytes(nb, 64, 0x3d), 0);
		ck_assert_int_eq(peer_cmd(&p, 'X', 0, sz, 0, NULL, -1, &rep),
				 0);
		ck_assert_int_eq(rep.result, R_OK_);
		ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), R_OK_);
		ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, m), R_OK_);
		ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, nb), R_OK_);
	}
	stop(&p);
}
END_TEST

static Suite *
xproc_suite(void)
{
	Suite *s = suite_create("ipc_xproc");
	TCase *tc = tcase_create("xproc");
	tcase_add_checked_fixture(tc, ipc_fixture_setup, ipc_fixture_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_xproc_open_other_uid_refused);
	tcase_add_test(tc, test_xproc_open_no_transport_no_fd);
	tcase_add_test(tc, test_xproc_open_replayed_after_put);
	tcase_add_test(tc, test_xproc_open_pidfd_pipe);
	tcase_add_test(tc, test_xproc_open_broker);
	tcase_add_test(tc, test_xproc_open_socket_fd_in_bytes_0_3);
	tcase_add_test(tc, test_xproc_open_socket_fd_same_number);
	tcase_add_test(tc, test_xproc_open_exp_fd_conversion);
	tcase_add_test(tc, test_xproc_exporter_frees_importer_keeps_data);
	tcase_add_test(tc, test_xproc_importer_killed_while_mapped);
	tcase_add_test(tc, test_xproc_exporter_killed_while_mapped);
	tcase_add_test(tc, test_xproc_non_root_same_uid);
	tcase_add_test(tc, test_xproc_cycles_no_growth);
	tcase_add_test(tc, test_xproc_hostile_importer_sees_only_export);
	tcase_add_test(tc, test_xproc_small_host_export_open);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return check_run(xproc_suite(), CK_ENV, false);
}
