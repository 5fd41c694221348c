// SPDX-License-Identifier: MIT
/*
 * test_ipc_auth: IPC under attack (issue 14, points 4 to 8 and 10), with
 * real processes: this process exports (or plays a hostile party) and
 * ipc_helper, started with fork + exec, imports, hoards broker
 * connections as another uid, or runs under a seccomp filter.
 *
 *   forged    a handle re-signed (the CRC is public) to name a file that
 *             no one exported - an unrelated memfd of another process, the
 *             importer's own zemem heap - tagged or not: refused;
 *   carriers  a whole file's tag is in its access time (kept by
 *             FS_NOATIME_FL, read by the importer's fstat) and in the
 *             exporter's file position: either alone opens, neither does,
 *             the last put clears both;
 *   revoked   after the last put (and the free) a handle opens nowhere:
 *             not from the importer's cache, not by pidfd, not through the
 *             broker with the id of another live export;
 *   broker    idle connections of another uid (and of our own) never
 *             delay a legitimate open; a broker that does not answer is
 *             an error (ZE_RESULT_ERROR_NOT_AVAILABLE), not NOT_READY;
 *   ptrace    no PR_SET_PTRACER, even where Yama says scope 1; pidfd_getfd
 *             refused: the broker serves;
 *   fields    a changed kind or fd copy is refused, so properties never
 *             misreport an import; a changed nonce is refused wherever it
 *             names the exporter (broker), and inert where a pidfd does.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_run.h"
#include "ipc.h"
#include "ipc_leak.h"
#include "ipc_peer.h"
#include "zt.h"

#define MiB (1024u * 1024u)
#define SIZE (2 * MiB)
#define SMALL 4096u
#define R_OK_ ZE_RESULT_SUCCESS
#define R_ARG ZE_RESULT_ERROR_INVALID_ARGUMENT

static void *
alloc_dev(size_t size, uint8_t byte)
{
	void *p = NULL;
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, size, 0,
					       zt.dev, &p), R_OK_);
	memset(p, byte, size);
	return p;
}

static ze_ipc_mem_handle_t
get(void *p)
{
	ze_ipc_mem_handle_t h;
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, p, &h), R_OK_);
	return h;
}

static struct ipc_desc
decode(const ze_ipc_mem_handle_t *h)
{
	struct ipc_desc d;
	const char *why;
	ck_assert_int_eq(ipc_handle_decode(h->data, &d, &why), 0);
	return d;
}

/* Re-signs d: the checksum anyone can compute. */
static ze_ipc_mem_handle_t
forge(const struct ipc_desc *d)
{
	ze_ipc_mem_handle_t h;
	const char *why;
	struct ipc_desc chk;
	ipc_handle_encode(d, h.data);
	ck_assert_msg(!ipc_handle_decode(h.data, &chk, &why), "%s", why);
	return h;
}

/* A well-formed tag for d that no export made (random bits guessed). */
static uint64_t
guessed_tag(const struct ipc_desc *d)
{
	return IPC_TAG_MARK | (0x5eed5eedull << 8) | d->kind |
	       ((d->flags & IPC_FLAG_WHOLE) ? 0 : IPC_TAG_SEGMENT);
}

static void
start(struct peer *p, const char *transport, const char *extra)
{
	static char env[2][64];
	snprintf(env[0], sizeof(env[0]), "ZEMEM_IPC_TRANSPORT=%s", transport);
	snprintf(env[1], sizeof(env[1]), "%s", extra ? extra : "");
	const char *const e[] = { env[0], extra ? env[1] : NULL, NULL };
	ck_assert_int_eq(peer_start(p, false, e), 0);
}

static void
stop(struct peer *p)
{
	int status = peer_stop(p);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static struct ipc_rep
cmd(struct peer *p, char op, uint8_t byte, uint64_t size,
    const ze_ipc_mem_handle_t *h)
{
	struct ipc_rep rep;
	ck_assert_int_eq(peer_cmd(p, op, byte, size, 0, h, -1, &rep), 0);
	return rep;
}

static bool
need_root(void)
{
	if (getuid() == 0)
		return true;
	fprintf(stderr, "skip: needs root (another uid, namespaces)\n");
	return false;
}

/* ---- point 4: forged handles -------------------------------------------- */

START_TEST(test_auth_open_forged_unrelated_memfd)
{
	/* X exports one allocation (its handle shows X's pid and nonce) and
	 * holds a sealed writable memfd it never exported. Handles forged to
	 * name that memfd (right inode and fd, untagged or with a guessed
	 * tag, whole or not) open through no transport. */
	static const char *const modes[] = { "auto", "pidfd", "broker" };
	static const ze_result_t want[][3] = {
		/* untagged whole, untagged segment, tagged guess */
		{ R_ARG, R_ARG, R_ARG },
		{ ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
		  ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, R_ARG },
		{ R_ARG, R_ARG, R_ARG },
	};
	struct peer x;
	start(&x, "auto", NULL);
	struct ipc_rep r = cmd(&x, 'A', 0x11, SIZE, NULL);
	ck_assert_int_eq(r.result, R_OK_);
	struct ipc_desc d = decode(&r.h);
	r = cmd(&x, 'm', 0x77, SIZE, NULL);
	ck_assert_int_eq(r.result, 0);
	d.fd = d.fd_copy = (int32_t)r.pad;
	d.ino = (uint32_t)r.value;
	d.size = SIZE;
	d.offset = 0;
	uint8_t flags[3] = { IPC_FLAG_WHOLE, 0,
			     IPC_FLAG_WHOLE | IPC_FLAG_TAGGED };
	for (int m = 0; m < 3; m++) {
		struct peer v;
		start(&v, modes[m], NULL);
		for (int k = 0; k < 3; k++) {
			d.flags = flags[k];
			d.tag = guessed_tag(&d);
			ze_ipc_mem_handle_t h = forge(&d);
			r = cmd(&v, 'o', 0x77, SIZE, &h);
			ck_assert_msg(r.result == (int32_t)want[m][k],
				      "%s, forgery %d: 0x%x", modes[m], k,
				      (unsigned)r.result);
		}
		stop(&v);
	}
	stop(&x);
}
END_TEST

/* The memfds among pid's fds: up to n (fd, inode, size). */
static int
memfds_of(pid_t pid, int *fds, struct stat *sts, int n)
{
	char path[64], link[128];
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)pid);
	DIR *dir = opendir(path);
	int got = 0;
	struct dirent *e;
	while (dir && got < n && (e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		char fp[400];
		snprintf(fp, sizeof(fp), "%s/%s", path, e->d_name);
		ssize_t l = readlink(fp, link, sizeof(link) - 1);
		if (l <= 0)
			continue;
		link[l] = 0;
		if (strncmp(link, "/memfd:", 7) || stat(fp, &sts[got]))
			continue;
		fds[got++] = atoi(e->d_name);
	}
	if (dir)
		closedir(dir);
	return got;
}

START_TEST(test_auth_open_forged_own_heap)
{
	/* The victim's own zemem memfds (heap segments, sealed), named by
	 * a MEM handle with the victim's pid and another nonce, and by an
	 * fd handle with its (public) nonce: never mapped. */
	struct peer v;
	start(&v, "auto", NULL);
	struct ipc_rep r = cmd(&v, 'A', 0x22, SMALL, NULL);
	ck_assert_int_eq(r.result, R_OK_);
	struct ipc_desc own = decode(&r.h);
	int fds[32];
	struct stat sts[32];
	int n = memfds_of(v.pid, fds, sts, 32);
	ck_assert_int_gt(n, 0);
	for (int i = 0; i < n; i++) {
		if (!sts[i].st_size)
			continue;
		struct ipc_desc d = own;
		d.fd = d.fd_copy = fds[i];
		d.ino = (uint32_t)sts[i].st_ino;
		d.size = (uint64_t)sts[i].st_size;
		d.offset = 0;
		d.flags = IPC_FLAG_WHOLE;
		d.nonce = own.nonce ^ 1;
		d.tag = guessed_tag(&d);
		ze_ipc_mem_handle_t h = forge(&d);
		ck_assert_int_eq(cmd(&v, 'o', 0, 0, &h).result, R_ARG);
		d.type = IPC_TYPE_FD;
		d.nonce = own.nonce;
		d.tag = 0;
		d.export_id = d.serial = 0;
		h = forge(&d);
		ck_assert_int_eq(cmd(&v, 'o', 0, 0, &h).result, R_ARG);
	}
	stop(&v);
}
END_TEST

/* ---- the tag's two carriers -------------------------------------------- */

/* Does this kernel keep FS_NOATIME_FL on a memfd (tmpfs, Linux >= 6.0)? */
static bool
memfd_noatime(void)
{
	int fd = memfd_create("zt-noatime", MFD_CLOEXEC), fl = 0;
	bool ok = fd >= 0 && !ioctl(fd, FS_IOC_GETFLAGS, &fl) &&
		  !ioctl(fd, FS_IOC_SETFLAGS, &(int){ fl | FS_NOATIME_FL });
	if (fd >= 0)
		close(fd);
	return ok;
}

static void
set_atime(int fd, uint64_t sec)
{
	struct timespec ts[2] = { { .tv_sec = (time_t)sec },
				  { .tv_nsec = UTIME_OMIT } };
	ck_assert_int_eq(futimens(fd, ts), 0);
}

START_TEST(test_auth_tag_in_atime_and_position)
{
	/* A whole-file export carries its tag in its access time (which the
	 * importer's fstat reads: no lseek on a cold open) and in the
	 * position of our open file. Mappings, reads and writes by an
	 * importer leave the time alone; either carrier proves the tag to a
	 * pidfd importer, neither a stale one; the last put clears both. */
	if (!memfd_noatime()) {
		fprintf(stderr, "skip: memfds here refuse FS_NOATIME_FL "
				"(before Linux 6.0): the tag is in the "
				"position alone\n");
		return;
	}
	void *a = alloc_dev(SIZE, 0x3c);
	ze_ipc_mem_handle_t h = get(a);
	struct ipc_desc d = decode(&h);
	ck_assert(d.flags & IPC_FLAG_TAGGED);
	int xfd = d.fd_copy; /* our open file (the exporter is us) */
	struct stat st;
	ck_assert_int_eq(fstat(xfd, &st), 0);
	ck_assert_uint_eq((uint64_t)st.st_atim.tv_sec, d.tag);
	ck_assert_int_eq(st.st_atim.tv_nsec, 0);
	ck_assert_uint_eq((uint64_t)lseek(xfd, 0, SEEK_CUR), d.tag);

	struct peer v;
	start(&v, "pidfd", NULL);
	ck_assert_int_eq(cmd(&v, 'O', 0x3c, SIZE, &h).result, R_OK_);
	ck_assert_uint_eq(cmd(&v, 'C', 0x3c, SIZE, NULL).value, 0);
	ck_assert_int_eq(cmd(&v, 'W', 0x3d, SIZE, NULL).result, 0);
	ck_assert_int_eq(cmd(&v, 'X', 0, 0, NULL).result, R_OK_);
	ck_assert_int_eq(fstat(xfd, &st), 0);
	ck_assert_uint_eq((uint64_t)st.st_atim.tv_sec, d.tag);
	ck_assert_int_eq(((unsigned char *)a)[SIZE - 1], 0x3d);

	/* This exporter's board vouches for the file to a pidfd importer
	 * that reads it (ipc_board.c): then the file's carriers are not
	 * asked, and clearing both changes nothing. */
	ck_assert_uint_ne(d.device, 0);
	ck_assert_int_eq(lseek(xfd, 4096, SEEK_SET), 4096);
	set_atime(xfd, 1);
	ck_assert_int_eq(cmd(&v, 'o', 0x3d, SIZE, &h).result, R_OK_);
	stop(&v);
	ck_assert_int_eq(lseek(xfd, (off_t)d.tag, SEEK_SET), (off_t)d.tag);
	set_atime(xfd, d.tag);
	/* An importer that reads no board asks the file. */
	start(&v, "pidfd", "ZEMEM_IPC_BOARD=0");

	/* Each carrier alone; then neither (a cold open each time). */
	ck_assert_int_eq(lseek(xfd, 4096, SEEK_SET), 4096);
	ck_assert_int_eq(cmd(&v, 'o', 0x3d, SIZE, &h).result, R_OK_);
	ck_assert_int_eq(lseek(xfd, (off_t)d.tag, SEEK_SET), (off_t)d.tag);
	set_atime(xfd, 1);
	ck_assert_int_eq(cmd(&v, 'o', 0x3d, SIZE, &h).result, R_OK_);
	ck_assert_int_eq(lseek(xfd, 4096, SEEK_SET), 4096);
	ck_assert_int_eq(cmd(&v, 'o', 0, 0, &h).result, R_ARG);
	set_atime(xfd, d.tag);
	ck_assert_int_eq(cmd(&v, 'o', 0x3d, SIZE, &h).result, R_OK_);
	ck_assert_int_eq(lseek(xfd, (off_t)d.tag, SEEK_SET), (off_t)d.tag);

	/* The last put clears both (the allocation lives on). */
	ck_assert_int_eq(fstat(xfd, &st), 0);
	ino_t ino = st.st_ino;
	int keep = dup(xfd); /* our open file, to look at after the put */
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), R_OK_);
	ck_assert_int_eq(fstat(keep, &st), 0);
	ck_assert_uint_eq(st.st_ino, ino);
	ck_assert_uint_ne((uint64_t)st.st_atim.tv_sec, d.tag);
	ck_assert_uint_ne((uint64_t)lseek(keep, 0, SEEK_CUR), d.tag);
	close(keep);
	ck_assert_int_eq(cmd(&v, 'o', 0, 0, &h).result, R_ARG);
	stop(&v);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, a), R_OK_);
}
END_TEST

/* ---- point 5: put revokes ----------------------------------------------- */

START_TEST(test_auth_open_after_put_and_free_refused)
{
	/* Two small device allocations A and B of this process, exported
	 * (they may share a pool file); A is put and freed while B lives.
	 * A's handle then opens nowhere: from an importer that still has A
	 * open (its cache), by pidfd, through the broker, and through the
	 * broker under B's export id. */
	void *a = alloc_dev(SMALL, 0xa1), *b = alloc_dev(SMALL, 0xb2);
	ze_ipc_mem_handle_t ha = get(a), hb = get(b);
	struct peer keep, v[2];
	start(&keep, "auto", NULL);
	start(&v[0], "pidfd", NULL);
	start(&v[1], "broker", NULL);
	ck_assert_int_eq(cmd(&keep, 'O', 0, SMALL, &ha).result, R_OK_);
	ck_assert_uint_eq(cmd(&keep, 'C', 0xa1, SMALL, NULL).value, 0);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, ha), R_OK_);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, a), R_OK_);
	void *a2 = alloc_dev(SMALL, 0xc3); /* may take A's pages */
	ck_assert_int_eq(cmd(&keep, 'o', 0, 0, &ha).result, R_ARG);
	for (int i = 0; i < 2; i++) {
		ze_result_t r = cmd(&v[i], 'o', 0, 0, &ha).result;
		ck_assert(r == R_ARG || r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
	}
	struct ipc_desc d = decode(&ha), db = decode(&hb);
	d.export_id = db.export_id;
	ze_ipc_mem_handle_t hx = forge(&d);
	ck_assert_int_eq(cmd(&v[1], 'o', 0, 0, &hx).result, R_ARG);
	d.tag = db.tag; /* B's secret with A's range */
	hx = forge(&d);
	ck_assert_int_eq(cmd(&v[1], 'o', 0, 0, &hx).result, R_ARG);
	/* B still opens everywhere. */
	for (int i = 0; i < 2; i++) {
		ze_result_t r = cmd(&v[i], 'o', 0xb2, SMALL, &hb).result;
		ck_assert(r == R_OK_ || (i == 0 &&
			  r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE));
	}
	ck_assert_int_eq(cmd(&v[1], 'o', 0xb2, SMALL, &hb).value, 0);
	ck_assert_int_eq(cmd(&keep, 'X', 0, 0, NULL).result, R_OK_);
	stop(&keep);
	stop(&v[0]);
	stop(&v[1]);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, hb), R_OK_);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, b), R_OK_);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, a2), R_OK_);
}
END_TEST

START_TEST(test_auth_open_cached_after_put_refused)
{
	/* A whole-file (2 MiB) export: an importer keeps it open; after the
	 * put and free, its cached file is revalidated and refused, for a
	 * cache kept by pidfd and by the broker. */
	static const char *const modes[] = { "pidfd", "broker" };
	for (int i = 0; i < 2; i++) {
		void *a = alloc_dev(SIZE, 0x5a);
		ze_ipc_mem_handle_t h = get(a);
		struct peer v;
		start(&v, modes[i], NULL);
		ck_assert_int_eq(cmd(&v, 'O', 0, SIZE, &h).result, R_OK_);
		ck_assert_int_eq(cmd(&v, 'o', 0x5a, SIZE, &h).value, 0);
		ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), R_OK_);
		ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, a), R_OK_);
		ck_assert_int_eq(cmd(&v, 'o', 0, 0, &h).result, R_ARG);
		ck_assert_uint_eq(cmd(&v, 'C', 0x5a, SIZE, NULL).value, 0);
		ck_assert_int_eq(cmd(&v, 'X', 0, 0, NULL).result, R_OK_);
		stop(&v);
	}
}
END_TEST

/* ---- point 6: the broker under a hoard of idle connections -------------- */

START_TEST(test_auth_broker_idle_clients_other_uid_and_own)
{
	if (!need_root())
		return;
	/* 10 silent connections from uid nobody, then 40 from our own uid
	 * (more than the broker keeps waiting): a legitimate importer that
	 * waits 1.5 s at most still gets its file, every time. */
	void *a = alloc_dev(SIZE, 0x3c);
	ze_ipc_mem_handle_t h = get(a);
	int fds = leakcheck_count_fds();
	struct peer nobody, own, v;
	start(&nobody, "auto", NULL);
	ck_assert_int_eq(cmd(&nobody, 'U', 0, 0, NULL).result, 0);
	ck_assert_int_eq(cmd(&nobody, 'I', 0, 10, &h).result, 10);
	start(&v, "broker", "ZEMEM_IPC_TIMEOUT_MS=1500");
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(cmd(&v, 'o', 0x3c, SIZE, &h).result, R_OK_);
	start(&own, "auto", NULL);
	ck_assert_int_eq(cmd(&own, 'I', 0, 40, &h).result, 40);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(cmd(&v, 'o', 0x3c, SIZE, &h).result, R_OK_);
	stop(&v);
	stop(&own);
	stop(&nobody);
	/* The broker closes the hoarders' sockets as it sees them go (or
	 * at their deadline): wait for that, 5 s at most. */
	for (int i = 0; i < 500 && leakcheck_count_fds() > fds; i++)
		usleep(10000);
	ck_assert_int_eq(leakcheck_count_fds(), fds);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), R_OK_);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, a), R_OK_);
}
END_TEST

/* ---- point 7: no PR_SET_PTRACER; pidfd refused -> the broker ------------ */

START_TEST(test_auth_export_under_yama_sets_no_ptracer)
{
	if (!need_root())
		return;
	/* Yama ptrace_scope 1 as the helper sees it, and a seccomp filter
	 * that kills it on prctl(PR_SET_PTRACER): its export must not call
	 * it (PR_SET_PTRACER_ANY would let every process of its uid ptrace
	 * it), and it still exports. */
	struct peer x;
	start(&x, "auto", "ZEMEM_TEST_FAKE_YAMA=1");
	struct ipc_rep r = cmd(&x, 'S', 0, 0, NULL);
	if (r.result == -ENOSYS) {
		fprintf(stderr, "skip: no seccomp filter for this machine\n");
		stop(&x);
		return;
	}
	ck_assert_int_eq(r.result, 0);
	struct ipc_rep rep;
	ck_assert_msg(!peer_cmd(&x, 'A', 0x44, SIZE, 0, NULL, -1, &rep),
		      "the exporter died exporting (PR_SET_PTRACER?)");
	ck_assert_int_eq(rep.result, R_OK_);
	ze_ipc_mem_handle_t h = rep.h;
	void *q = NULL;
	ck_assert_int_eq(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, h, 0, &q),
			 R_OK_);
	ck_assert_uint_eq(((unsigned char *)q)[SIZE - 1], 0x44);
	ck_assert_int_eq(zt.mem.pfnCloseIpcHandle(zt.ctx, q), R_OK_);
	stop(&x);
}
END_TEST

START_TEST(test_auth_open_pidfd_refused_broker_serves)
{
	/* An importer whose pidfd_getfd is refused (seccomp: EPERM) opens
	 * through the broker in auto mode; pidfd alone is refused. */
	void *a = alloc_dev(SIZE, 0x66);
	ze_ipc_mem_handle_t h = get(a);
	static const char *const modes[] = { "auto", "pidfd" };
	static const ze_result_t want[] = {
		R_OK_, ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS
	};
	for (int i = 0; i < 2; i++) {
		struct peer v;
		start(&v, modes[i], NULL);
		struct ipc_rep r = cmd(&v, 'S', 0, 0, NULL);
		if (r.result == -ENOSYS) {
			fprintf(stderr, "skip: no seccomp filter here\n");
			stop(&v);
			break;
		}
		ck_assert_int_eq(r.result, 0);
		r = cmd(&v, 'o', 0x66, SIZE, &h);
		ck_assert_int_eq(r.result, want[i]);
		ck_assert_uint_eq(r.value, 0);
		stop(&v);
	}
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), R_OK_);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, a), R_OK_);
}
END_TEST

/* ---- point 8: a broker that never answers ------------------------------- */

START_TEST(test_auth_open_broker_timeout_is_an_error)
{
	/* A process without zemem (a sleeping child) and a socket of ours
	 * bound under its broker name that accepts nothing: the importer
	 * (broker only, 200 ms) times out; that is an error code. */
	pid_t sleeper = fork();
	if (!sleeper) {
		pause();
		_exit(0);
	}
	ck_assert_int_gt(sleeper, 0);
	struct ipc_desc d = {
		.fd = 3, .fd_copy = 3, .type = IPC_TYPE_MEM,
		.kind = USM_KIND_DEVICE, .flags = IPC_FLAG_WHOLE,
		.pid = sleeper, .ino = 1, .nonce = 0x1234abcd5678ef01ull,
		.export_id = 1, .serial = 1, .size = SIZE,
	};
	d.tag = guessed_tag(&d);
	ze_ipc_mem_handle_t h = forge(&d);
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int n = snprintf(sa.sun_path + 1, sizeof(sa.sun_path) - 1,
			 "zemem-ipc.%d.%016llx", (int)sleeper,
			 (unsigned long long)d.nonce);
	int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	ck_assert_int_ge(s, 0);
	ck_assert_int_eq(bind(s, (struct sockaddr *)&sa,
			      (socklen_t)(offsetof(struct sockaddr_un,
						   sun_path) + 1 + (size_t)n)),
			 0);
	ck_assert_int_eq(listen(s, 8), 0);
	struct peer v;
	start(&v, "broker", "ZEMEM_IPC_TIMEOUT_MS=200");
	ck_assert_int_eq(cmd(&v, 'o', 0, 0, &h).result,
			 ZE_RESULT_ERROR_NOT_AVAILABLE);
	stop(&v);
	close(s);
	kill(sleeper, SIGKILL);
	waitpid(sleeper, NULL, 0);
}
END_TEST

/* ---- point 10: every field is checked ----------------------------------- */

START_TEST(test_auth_open_changed_fields_refused)
{
	/* A small (pooled here: shared-file, untagged; a file of its own
	 * once usm gives it one) and a whole-file (tagged) export; each with
	 * its kind, nonce or fd copy changed (re-signed) opens through no
	 * transport, and the real handle reports device memory. */
	static const char *const modes[] = { "auto", "pidfd", "broker" };
	void *small = alloc_dev(SMALL, 0x12), *big = alloc_dev(SIZE, 0x34);
	ze_ipc_mem_handle_t hs[2] = { get(small), get(big) };
	for (int m = 0; m < 3; m++) {
		struct peer v;
		start(&v, modes[m], NULL);
		for (int k = 0; k < 2; k++) {
			struct ipc_desc d0 = decode(&hs[k]);
			for (int f = 0; f < 3; f++) {
				struct ipc_desc d = d0;
				if (f == 0) {
					d.kind = USM_KIND_HOST;
					d.tag = (d.tag & ~IPC_TAG_KIND_MASK) |
						(guessed_tag(&d) &
						 IPC_TAG_KIND_MASK);
				} else if (f == 1) {
					d.nonce ^= 0x100;
				} else {
					d.fd_copy = d.fd = d.fd + 1;
				}
				ze_ipc_mem_handle_t h = forge(&d);
				uint8_t byte = k ? 0x34 : 0x12;
				size_t len = k ? SIZE : SMALL;
				struct ipc_rep r = cmd(&v, 'o', byte, len, &h);
				bool tagged = d0.flags & IPC_FLAG_TAGGED;
				if (f == 1 && tagged && m < 2) {
					/* The nonce names the broker; a pidfd
					 * names the process itself, and the
					 * file proves the secret: the same,
					 * right memory opens. */
					ck_assert_int_eq(r.result, R_OK_);
					ck_assert_uint_eq(r.value, 0);
					ck_assert_uint_eq(r.pad,
						ZE_MEMORY_TYPE_DEVICE);
					continue;
				}
				ck_assert_msg(r.result == R_ARG ||
					      r.result == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
					      "%s, handle %d, field %d: 0x%x",
					      modes[m], k, f, (unsigned)r.result);
			}
			struct ipc_rep r = cmd(&v, 'o', k ? 0x34 : 0x12,
					       k ? SIZE : SMALL, &hs[k]);
			if (m == 1 && !(d0.flags & IPC_FLAG_TAGGED)) {
				/* untagged: pidfd alone cannot prove it */
				ck_assert_int_eq(r.result,
					ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
				continue;
			}
			ck_assert_int_eq(r.result, R_OK_);
			ck_assert_uint_eq(r.value, 0);
			ck_assert_uint_eq(r.pad, ZE_MEMORY_TYPE_DEVICE);
		}
		stop(&v);
	}
	for (int k = 0; k < 2; k++)
		ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, hs[k]), R_OK_);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, small), R_OK_);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, big), R_OK_);
}
END_TEST

/* ---- the export board (driver/ipc/ipc_board.c) ------------------------ */

/* v opens h and finds every byte of the SIZE bytes at byte. */
static void
opens_with(struct peer *v, uint8_t byte, const ze_ipc_mem_handle_t *h)
{
	struct ipc_rep r = cmd(v, 'o', byte, SIZE, h);
	ck_assert_int_eq(r.result, R_OK_);
	ck_assert_uint_eq(r.value, 0);
}

/* What a fake board of this process's making gets wrong. */
enum fake {
	FAKE_GOOD,      /* nothing: it vouches as the exporter's would */
	FAKE_UNSEALED,  /* writable by anyone who has its fd */
	FAKE_SIZE,      /* twice the size */
	FAKE_NONCE,     /* another process's header */
	FAKE_UID,       /* another user's file */
	FAKE_ODD,       /* the entry is changing (or withdrawn) */
	FAKE_TAG,       /* the entry names another secret */
	FAKE_FD,        /* the entry names another fd number */
	FAKE_N
};

/* A board at a new fd of this process with d's entry as the exporter
 * writes it, for a forged handle to name (device: its fd + 1), but for
 * what bad changes. */
static int
fake_board(const struct ipc_desc *d, int xfd, enum fake bad)
{
	size_t len = IPC_BOARD_BYTES * (bad == FAKE_SIZE ? 2 : 1);
	int fd = memfd_create("fake-board", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)len), 0);
	struct stat st;
	ck_assert_int_eq(fstat(xfd, &st), 0);
	struct ipc_board_head *h = mmap(NULL, len, PROT_READ | PROT_WRITE,
					MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(h, MAP_FAILED);
	*h = (struct ipc_board_head){
		.magic = IPC_BOARD_MAGIC, .pid = d->pid,
		.nonce = bad == FAKE_NONCE ? d->nonce ^ 1 : d->nonce,
		.slots = IPC_BOARD_SLOTS,
	};
	struct ipc_board_ent *e = (struct ipc_board_ent *)(h + 1) +
				  d->export_id % IPC_BOARD_SLOTS;
	e->seq = bad == FAKE_ODD ? 3 : 2;
	e->ino = st.st_ino;
	e->tag = bad == FAKE_TAG ? d->tag ^ 0x100 : d->tag;
	e->fsize = (uint64_t)st.st_size;
	e->granule = 4096;
	e->export_id = d->export_id;
	e->fd = bad == FAKE_FD ? fd : d->fd_copy;
	munmap(h, len);
	int seals = IPC_BOARD_SEALS;
	if (bad == FAKE_UNSEALED)
		seals &= ~F_SEAL_FUTURE_WRITE;
	ck_assert_int_eq(fcntl(fd, F_ADD_SEALS, seals), 0);
	if (bad == FAKE_UID)
		ck_assert_int_eq(fchown(fd, 65534, 65534), 0);
	return fd;
}

/* The carriers of the secret in a whole export's file: its position
 * (shared with our open file) and its access time. */
static void
carriers(int xfd, uint64_t tag)
{
	ck_assert_int_eq(lseek(xfd, (off_t)tag, SEEK_SET), (off_t)tag);
	set_atime(xfd, tag);
}

START_TEST(test_auth_board_checked)
{
	/* A board vouches for a file in place of the file's carriers, so
	 * with both carriers cleared a handle opens by pidfd only through a
	 * board that an importer accepts: sealed against writes, of the
	 * board's size, of its own user, with the handle's pid and nonce in
	 * its header, and an entry that holds (even) and names the handle's
	 * export, fd, inode and secret. Each fake that fails one of these is
	 * not read (the file is asked, and refuses). */
	void *a = alloc_dev(SIZE, 0x4b);
	ze_ipc_mem_handle_t h = get(a);
	struct ipc_desc d = decode(&h);
	ck_assert(d.flags & IPC_FLAG_TAGGED);
	ck_assert_uint_ne(d.device, 0); /* this process has a board */
	int xfd = d.fd_copy;
	carriers(xfd, 1);
	for (int f = 0; f < FAKE_N; f++) {
		if (f == FAKE_UID && getuid() != 0) {
			fprintf(stderr, "skip: another user's board needs "
					"root (fchown)\n");
			continue;
		}
		int bfd = fake_board(&d, xfd, (enum fake)f);
		struct ipc_desc df = d;
		df.device = (uint16_t)(bfd + 1);
		ze_ipc_mem_handle_t hf = forge(&df);
		struct peer v;
		start(&v, "pidfd", NULL);
		struct ipc_rep r = cmd(&v, 'o', 0x4b, SIZE, &hf);
		ck_assert_msg(r.result == (f == FAKE_GOOD ? R_OK_ : R_ARG),
			      "fake %d: 0x%x", f, (unsigned)r.result);
		if (f == FAKE_GOOD)
			ck_assert_uint_eq(r.value, 0);
		stop(&v);
		close(bfd);
	}
	/* The process's own board, and none (ZEMEM_IPC_BOARD=0). */
	struct peer v;
	start(&v, "pidfd", NULL);
	opens_with(&v, 0x4b, &h);
	stop(&v);
	start(&v, "pidfd", "ZEMEM_IPC_BOARD=0");
	ck_assert_int_eq(cmd(&v, 'o', 0, 0, &h).result, R_ARG);
	carriers(xfd, d.tag);
	ck_assert_int_eq(cmd(&v, 'o', 0x4b, SIZE, &h).result, R_OK_);
	stop(&v);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h), R_OK_);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, a), R_OK_);
}
END_TEST

START_TEST(test_auth_board_fd_number_reused)
{
	/* A is put (its file closed, its board entry withdrawn first) and
	 * its fd number then holds B's file: A's handle opens nothing, from
	 * an importer that still has A open (cached, vouched by the board)
	 * and from a new one; B's handle opens B in both, and the first
	 * still reads A through the mapping it kept. */
	void *a = alloc_dev(SIZE, 0xa1), *b = alloc_dev(SIZE, 0xb2);
	ze_ipc_mem_handle_t ha = get(a), hb = get(b);
	struct ipc_desc da = decode(&ha), db = decode(&hb);
	struct peer keep, v;
	start(&keep, "pidfd", NULL);
	ck_assert_int_eq(cmd(&keep, 'O', 0xa1, SIZE, &ha).result, R_OK_);
	ck_assert_uint_eq(cmd(&keep, 'C', 0xa1, SIZE, NULL).value, 0);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, ha), R_OK_);
	ck_assert_int_eq(fcntl(da.fd_copy, F_GETFD), -1); /* closed */
	ck_assert_int_eq(dup3(db.fd_copy, da.fd_copy, O_CLOEXEC), da.fd_copy);
	start(&v, "pidfd", NULL);
	ck_assert_int_eq(cmd(&v, 'o', 0, 0, &ha).result, R_ARG);
	ck_assert_int_eq(cmd(&keep, 'o', 0, 0, &ha).result, R_ARG);
	opens_with(&v, 0xb2, &hb);
	opens_with(&keep, 0xb2, &hb);
	ck_assert_uint_eq(cmd(&keep, 'C', 0xa1, SIZE, NULL).value, 0);
	ck_assert_int_eq(cmd(&keep, 'X', 0, 0, NULL).result, R_OK_);
	stop(&keep);
	stop(&v);
	close(da.fd_copy);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, hb), R_OK_);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, a), R_OK_);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, b), R_OK_);
}
END_TEST

START_TEST(test_auth_board_of_fork_child)
{
	/* A fork child has no mapping of its parent's board (MADV_DONTFORK)
	 * and makes its own at its first export: an importer opens the
	 * child's handle through it, with the child's carriers cleared; the
	 * parent's exports still open through the parent's. */
	void *a = alloc_dev(SIZE, 0x71);
	ze_ipc_mem_handle_t ha = get(a);
	int up[2], down[2];
	ck_assert_int_eq(pipe2(up, O_CLOEXEC), 0);
	ck_assert_int_eq(pipe2(down, O_CLOEXEC), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		void *p = NULL;
		ze_ipc_mem_handle_t h;
		struct ipc_desc d;
		const char *why;
		char c;
		if (zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, SIZE, 0, zt.dev,
					  &p) ||
		    !memset(p, 0x72, SIZE) ||
		    zt.mem.pfnGetIpcHandle(zt.ctx, p, &h) ||
		    ipc_handle_decode(h.data, &d, &why) ||
		    lseek(d.fd_copy, 4096, SEEK_SET) != 4096 ||
		    futimens(d.fd_copy, (struct timespec[2]){
				    { .tv_sec = 1 }, { .tv_nsec = UTIME_OMIT } }) ||
		    write(up[1], &h, sizeof(h)) != (ssize_t)sizeof(h))
			_exit(1);
		_exit(read(down[0], &c, 1) == 1 ? 0 : 2);
	}
	close(up[1]);
	close(down[0]);
	ze_ipc_mem_handle_t hc;
	ck_assert_int_eq(read(up[0], &hc, sizeof(hc)), (ssize_t)sizeof(hc));
	struct ipc_desc dc = decode(&hc);
	ck_assert_int_eq(dc.pid, pid);
	ck_assert_uint_ne(dc.device, 0);
	struct peer v;
	start(&v, "pidfd", NULL);
	opens_with(&v, 0x72, &hc);
	opens_with(&v, 0x71, &ha);
	stop(&v);
	ck_assert_int_eq(write(down[1], "x", 1), 1);
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(up[0]);
	close(down[1]);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, ha), R_OK_);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, a), R_OK_);
}
END_TEST

START_TEST(test_auth_board_after_exec)
{
	/* An exporter that execs keeps its pid and makes a new board (the
	 * old one closed by the exec, its fd number free to be reused): an
	 * importer that had mapped the old one maps the new one, and opens
	 * an export of the new image whose file carriers are cleared, so
	 * that only the new board can vouch for it (without the board the
	 * open is refused). */
	struct peer x, v, nb;
	start(&x, "pidfd", NULL);
	struct ipc_rep a = cmd(&x, 'A', 0x31, SIZE, NULL);
	ck_assert_int_eq(a.result, R_OK_);
	start(&v, "pidfd", NULL);
	opens_with(&v, 0x31, &a.h);
	ck_assert_int_eq(cmd(&x, 'x', 0, 0, NULL).result, R_OK_);
	struct ipc_rep b = cmd(&x, 'A', 0x32, SIZE, NULL);
	ck_assert_int_eq(b.result, R_OK_);
	struct ipc_desc da = decode(&a.h), db = decode(&b.h);
	ck_assert_int_eq(db.pid, da.pid);
	ck_assert_uint_ne(db.nonce, da.nonce);
	ck_assert_int_eq(cmd(&x, 'k', 0, 0, NULL).result, R_OK_);
	opens_with(&v, 0x32, &b.h);
	start(&nb, "pidfd", "ZEMEM_IPC_BOARD=0");
	ck_assert_int_eq(cmd(&nb, 'o', 0x32, SIZE, &b.h).result, R_ARG);
	stop(&nb);
	stop(&v);
	stop(&x);
}
END_TEST

static Suite *
auth_suite(void)
{
	Suite *s = suite_create("ipc_auth");
	TCase *tc = tcase_create("auth");
	tcase_add_checked_fixture(tc, ipc_fixture_setup, ipc_fixture_teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_auth_open_forged_unrelated_memfd);
	tcase_add_test(tc, test_auth_open_forged_own_heap);
	tcase_add_test(tc, test_auth_tag_in_atime_and_position);
	tcase_add_test(tc, test_auth_open_after_put_and_free_refused);
	tcase_add_test(tc, test_auth_open_cached_after_put_refused);
	tcase_add_test(tc, test_auth_broker_idle_clients_other_uid_and_own);
	tcase_add_test(tc, test_auth_export_under_yama_sets_no_ptracer);
	tcase_add_test(tc, test_auth_open_pidfd_refused_broker_serves);
	tcase_add_test(tc, test_auth_open_broker_timeout_is_an_error);
	tcase_add_test(tc, test_auth_open_changed_fields_refused);
	tcase_add_test(tc, test_auth_board_checked);
	tcase_add_test(tc, test_auth_board_fd_number_reused);
	tcase_add_test(tc, test_auth_board_of_fork_child);
	tcase_add_test(tc, test_auth_board_after_exec);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return check_run(auth_suite(), CK_ENV, false);
}
