// SPDX-License-Identifier: MIT
/*
 * test_ipc_seal: the importer's record of files seen sealed against
 * shrinking (driver/ipc/ipc_seal.c) and what fd inspection (ipc_os.c)
 * reports with it: a file is taken as sealed only when it was seen sealed
 * and is still that very file, unchanged (dev, inode, ctime); an unsealed
 * file never is, whatever was seen before; a changed file is asked again.
 * Compiled with ipc_seal.c, ipc_os.c and ipc_map.c on their own.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ipc.h"
#include "leakcheck.h"

static struct leakcheck lc;

static void
setup(void)
{
	leakcheck_begin(&lc);
}

static void
teardown(void)
{
	leakcheck_end(&lc);
}

static int
memfd(unsigned seals)
{
	int fd = memfd_create("test-ipc-seal",
			      MFD_CLOEXEC | MFD_ALLOW_SEALING);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 8192), 0);
	if (seals)
		ck_assert_int_eq(fcntl(fd, F_ADD_SEALS, seals), 0);
	return fd;
}

static struct stat
st_of(int fd)
{
	struct stat st;
	ck_assert_int_eq(fstat(fd, &st), 0);
	return st;
}

START_TEST(test_seal_unsealed_never_known)
{
	int sealed = memfd(F_SEAL_SHRINK), open_ = memfd(0);
	struct ipc_fdinfo fi;
	/* negative cases first: nothing seen, an unsealed file */
	struct stat a = st_of(sealed), b = st_of(open_);
	ck_assert(!ipc_seal_known(&a));
	ck_assert(!ipc_seal_known(&b));
	ck_assert_int_eq(ipc_fd_inspect(open_, &fi), 0);
	ck_assert(fi.shmem);
	ck_assert_int_eq(fi.seals & F_SEAL_SHRINK, 0);
	ck_assert(!ipc_seal_known(&b));
	/* the sealed one seen: known; the unsealed one still asked */
	ck_assert_int_eq(ipc_fd_inspect(sealed, &fi), 0);
	ck_assert(fi.seals & F_SEAL_SHRINK);
	ck_assert(ipc_seal_known(&a));
	ck_assert_int_eq(ipc_fd_inspect(sealed, &fi), 0);
	ck_assert_int_eq(fi.seals & F_SEAL_SHRINK, F_SEAL_SHRINK);
	ck_assert(!ipc_seal_known(&b));
	ck_assert_int_eq(ipc_fd_inspect_file(open_, &fi), 0);
	ck_assert_int_eq(fi.seals & F_SEAL_SHRINK, 0);
	/* its inode and dev with another ctime is another file to it */
	struct stat forged = a;
	forged.st_ctim.tv_nsec ^= 1;
	ck_assert(!ipc_seal_known(&forged));
	forged = a;
	forged.st_ino ^= 1;
	ck_assert(!ipc_seal_known(&forged));
	close(sealed);
	close(open_);
}
END_TEST

START_TEST(test_seal_changed_file_asked_again)
{
	int fd = memfd(F_SEAL_SHRINK);
	struct ipc_fdinfo fi;
	struct stat a = st_of(fd);
	ck_assert_int_eq(ipc_fd_inspect(fd, &fi), 0);
	ck_assert(ipc_seal_known(&a));
	/* a change sets the ctime: the file is asked again (and is still
	 * sealed: seals are never taken off) */
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	nanosleep(&pause, NULL);
	ck_assert_int_eq(fchmod(fd, 0600), 0);
	struct stat b = st_of(fd);
	ck_assert(b.st_ctim.tv_sec != a.st_ctim.tv_sec ||
		  b.st_ctim.tv_nsec != a.st_ctim.tv_nsec);
	ck_assert(!ipc_seal_known(&b));
	ck_assert_int_eq(ipc_fd_inspect(fd, &fi), 0);
	ck_assert(fi.seals & F_SEAL_SHRINK);
	ck_assert(ipc_seal_known(&b));
	close(fd);
}
END_TEST

START_TEST(test_seal_many_files)
{
	/* more files than slots: each sealed one is known or asked again,
	 * never an unsealed one known */
	enum { N = 200 };
	int fds[N];
	struct ipc_fdinfo fi;
	for (int i = 0; i < N; i++) {
		fds[i] = memfd(i % 2 ? 0 : F_SEAL_SHRINK);
		ck_assert_int_eq(ipc_fd_inspect(fds[i], &fi), 0);
		ck_assert_int_eq(fi.seals & F_SEAL_SHRINK,
				 i % 2 ? 0 : F_SEAL_SHRINK);
	}
	for (int i = 0; i < N; i++) {
		struct stat st = st_of(fds[i]);
		if (i % 2)
			ck_assert(!ipc_seal_known(&st));
		ck_assert_int_eq(ipc_fd_inspect(fds[i], &fi), 0);
		ck_assert_int_eq(fi.seals & F_SEAL_SHRINK,
				 i % 2 ? 0 : F_SEAL_SHRINK);
		close(fds[i]);
	}
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("ipc_seal");
	TCase *tc = tcase_create("seal");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_seal_unsealed_never_known);
	tcase_add_test(tc, test_seal_changed_file_asked_again);
	tcase_add_test(tc, test_seal_many_files);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
