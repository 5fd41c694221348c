// SPDX-License-Identifier: MIT
/*
 * ipc_os: the system calls of the IPC code, in one file: fd inspection
 * (what a received fd really is), reopen, file-position and access-time
 * tags, seals, pidfd_open / pidfd_getfd, kcmp, secrets from getrandom,
 * udmabuf, Yama (a note in the log, nothing more), and SCM_RIGHTS
 * messages.
 *
 * Every function returns >= 0 or -errno (taken right after the failing
 * call) and every fd it makes is close-on-exec. No state but probes done
 * once (memfd device, udmabuf, Yama), under pthread_once, and each
 * thread's pool of random words (ipc_secret64).
 */
#include "ipc.h"
#include "u_os.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/vfs.h>
#include <unistd.h>

#ifndef TMPFS_MAGIC
#define TMPFS_MAGIC 0x01021994
#endif
#ifndef HUGETLBFS_MAGIC
#define HUGETLBFS_MAGIC 0x958458f6
#endif
#ifndef DMA_BUF_MAGIC
#define DMA_BUF_MAGIC 0x444d4142
#endif
#define IPC_KCMP_FILE 0 /* linux/kcmp.h */

/* linux/udmabuf.h, restated so the build does not need the header. */
struct ipc_udmabuf_create {
	uint32_t memfd;
	uint32_t flags;
	uint64_t offset;
	uint64_t size;
};
#define IPC_UDMABUF_FLAGS_CLOEXEC 0x01
#define IPC_UDMABUF_CREATE _IOW('u', 0x42, struct ipc_udmabuf_create)

/* The device of the kernel's internal shm mount, where every memfd that
 * is not on hugetlbfs lives: a file on it is a plain tmpfs file without
 * asking fstatfs (one system call less on every import). 0: unknown. */
static pthread_once_t memfd_dev_once = PTHREAD_ONCE_INIT;
static uint64_t memfd_dev;

static void
memfd_dev_probe(void)
{
	struct stat st;
	int fd = memfd_create("zemem-probe", MFD_CLOEXEC);
	if (fd < 0)
		return;
	if (!fstat(fd, &st))
		memfd_dev = st.st_dev;
	close(fd);
}

/* fstat by the fstat system call: glibc's fstat is newfstatat(fd, "",
 * AT_EMPTY_PATH), which makes the kernel look at an empty path first
 * (about 50 ns more, measured, in a cold import's six system calls).
 * Only where the kernel's struct stat is glibc's (x86-64, not x32). */
static int
fd_stat(int fd, struct stat *st)
{
#if defined(SYS_fstat) && defined(__x86_64__) && defined(__LP64__)
	return syscall(SYS_fstat, fd, st) < 0 ? -errno : 0;
#else
	return fstat(fd, st) < 0 ? -errno : 0;
#endif
}

static int
inspect(int fd, struct ipc_fdinfo *out, bool full)
{
	struct stat st;
	/* The file system's type and block size: statfs's only fields
	 * used (not asked for where st_dev says memfd). */
	unsigned long fs_type = TMPFS_MAGIC;
	long fs_bsize = 0;
	memset(out, 0, sizeof(*out));
	int err = fd_stat(fd, &st);
	if (err)
		return err;
	pthread_once(&memfd_dev_once, memfd_dev_probe);
	if (!memfd_dev || st.st_dev != memfd_dev) {
		struct statfs sf;
		if (fstatfs(fd, &sf) < 0)
			return -errno;
		fs_type = (unsigned long)sf.f_type;
		fs_bsize = (long)sf.f_bsize;
	}
	int fl = full ? fcntl(fd, F_GETFL) : O_RDWR;
	if (fl < 0)
		return -errno;
	out->ino = st.st_ino;
	out->dev = st.st_dev;
	out->size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
	if (st.st_atim.tv_sec > 0 && !st.st_atim.tv_nsec)
		out->atime = (uint64_t)st.st_atim.tv_sec;
	out->writable = (fl & O_ACCMODE) == O_RDWR;
	out->granule = u_page_size();
	if (fs_type == (unsigned long)TMPFS_MAGIC ||
	    fs_type == (unsigned long)HUGETLBFS_MAGIC) {
		if (!S_ISREG(st.st_mode))
			return -EBADF;
		out->shmem = true;
		if (fs_type == (unsigned long)HUGETLBFS_MAGIC &&
		    fs_bsize > 0 && !(fs_bsize & (fs_bsize - 1)))
			out->granule = (size_t)fs_bsize;
		/* Seals only grow: a file seen sealed against shrinking is
		 * not asked again (ipc_seal.c). */
		if (ipc_seal_known(&st)) {
			out->seals = F_SEAL_SHRINK;
		} else {
			int seals = fcntl(fd, F_GET_SEALS);
			out->seals = seals < 0 ? 0 : seals;
			if (out->seals & F_SEAL_SHRINK)
				ipc_seal_note(&st);
		}
		if (full)
			out->pos = ipc_fd_get_pos(fd);
	} else if (fs_type == (unsigned long)DMA_BUF_MAGIC) {
		out->dmabuf = true;
	}
	return 0;
}

/* Does this process hold POSIX (fcntl) locks on fd's file? 1 yes, 0 no,
 * -errno when it cannot tell.
 *
 * First without a file of our own (fd exhaustion is when this is asked
 * most): an open-file-description lock test over the whole file through
 * fd. OFD and POSIX locks conflict unless they have one owner, and no
 * POSIX lock is owned by an open file description, so every POSIX lock
 * on the inode, ours included, conflicts: none means we hold none; one
 * whose pid is ours is ours. Another process's lock hides the rest:
 * then /proc/locks, whose lines read
 * "N: POSIX ADVISORY WRITE <pid> <maj>:<min>:<ino> <start> <end>"
 * (waiters, "N: -> POSIX ...", hold nothing). */
static int
holds_posix_locks(int fd, const struct stat *st)
{
	int me = (int)getpid();
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	if (fcntl(fd, F_OFD_GETLK, &fl) == 0) {
		if (fl.l_type == F_UNLCK)
			return 0;
		if (fl.l_pid == me)
			return 1;
	}
	FILE *f = fopen("/proc/locks", "re");
	if (!f)
		return -errno;
	char line[256];
	bool found = false;
	for (int lines = 0; !found && lines < 1000000 &&
			    fgets(line, sizeof(line), f); lines++) {
		char kind[16];
		int pid;
		unsigned maj, min;
		unsigned long long i;
		if (sscanf(line, "%*d: %15s %*s %*s %d %x:%x:%llu", kind, &pid,
			   &maj, &min, &i) == 5 &&
		    !strcmp(kind, "POSIX") && pid == me && i == st->st_ino &&
		    makedev(maj, min) == st->st_dev)
			found = true;
	}
	int err = ferror(f) ? -EIO : 0;
	fclose(f);
	return found ? 1 : err;
}

/* Files taken from another process (pidfd_getfd, the broker) that are not
 * proven to be what a handle named, on their way out.
 *
 * Why one may be kept: POSIX locks belong to the process, per inode, and
 * closing ANY fd of the inode drops them all. A handle (forged, or just
 * wrong) can name another process's fd of a file that we lock (a
 * database, a lock file); closing our copy would silently drop our
 * locks. So a file we hold locks on stays open (at most IPC_PARKED such
 * fds, a warning each: no legitimate export is a file its importer
 * locks; past that it is closed, with a warning).
 *
 * When we cannot tell (another process holds a lock on it too and
 * /proc/locks cannot be read: fd exhaustion), closing may drop locks and
 * keeping costs an fd: the fd waits in the same bounded table, not for
 * good - every later call asks again and closes it once the answer is
 * no (or keeps it once it is yes) - and nobody is called a forger. */
#define IPC_PARKED 16
static pthread_mutex_t parked_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned n_parked;          /* kept for good: we lock their files */
static int undecided[IPC_PARKED];  /* fds we could not tell about */
static unsigned n_undecided;

/* What to do with fd: 1 keep (we lock it), 0 close, -errno undecided. */
static int
verdict(int fd, struct stat *st)
{
	if (fstat(fd, st))
		return 0;
	return holds_posix_locks(fd, st);
}

/* Under parked_lock: fd is ours to keep for good, or closed. */
static void
keep_locked_file(int fd, const struct stat *st)
{
	bool keep = n_parked < IPC_PARKED;
	n_parked += keep;
	if (keep) {
		u_warn("ipc", "an IPC handle named a file we hold POSIX "
			      "locks on (inode %llu), not its export's: fd %d "
			      "kept open so that they stay",
		       (unsigned long long)st->st_ino, fd);
		return;
	}
	u_warn("ipc", "an IPC handle named a file we hold POSIX locks on "
		      "(inode %llu), not its export's: closing it drops them",
	       (unsigned long long)st->st_ino);
	close(fd);
}

/* Under parked_lock: asks again about the fds we could not tell about. */
static void
retry_undecided(void)
{
	unsigned k = 0;
	for (unsigned i = 0; i < n_undecided; i++) {
		struct stat st;
		int fd = undecided[i];
		int v = verdict(fd, &st);
		if (v == 0)
			close(fd);
		else if (v > 0)
			keep_locked_file(fd, &st);
		else
			undecided[k++] = fd;
	}
	n_undecided = k;
}

void
ipc_fd_drop_taken(int fd)
{
	struct stat st;
	if (fd < 0)
		return;
	int v = verdict(fd, &st);
	pthread_mutex_lock(&parked_lock);
	retry_undecided();
	if (v == 0) {
		close(fd);
	} else if (v > 0) {
		keep_locked_file(fd, &st);
	} else if (n_undecided < IPC_PARKED) {
		undecided[n_undecided++] = fd;
		u_warn("ipc", "cannot tell whether this process holds POSIX "
			      "locks on a file that an IPC open got and "
			      "refused (inode %llu; /proc/locks: %s): fd %d "
			      "stays open until that can be told",
		       (unsigned long long)st.st_ino, strerror(-v), fd);
	} else {
		u_warn("ipc", "cannot tell whether this process holds POSIX "
			      "locks on a file that an IPC open got and "
			      "refused (inode %llu; /proc/locks: %s), and %d "
			      "such fds wait already: closed",
		       (unsigned long long)st.st_ino, strerror(-v),
		       IPC_PARKED);
		close(fd);
	}
	pthread_mutex_unlock(&parked_lock);
}

int
ipc_fd_inspect(int fd, struct ipc_fdinfo *out)
{
	return inspect(fd, out, true);
}

int
ipc_fd_inspect_file(int fd, struct ipc_fdinfo *out)
{
	return inspect(fd, out, false);
}

int
ipc_fd_dup(int fd)
{
	int r = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	return r < 0 ? -errno : r;
}

int
ipc_fd_reopen(int fd)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	int r = open(path, O_RDWR | O_CLOEXEC);
	return r < 0 ? -errno : r;
}

int
ipc_fd_set_pos(int fd, uint64_t pos)
{
	off_t r = lseek(fd, (off_t)pos, SEEK_SET);
	if (r < 0)
		return -errno;
	return (uint64_t)r == pos ? 0 : -EIO;
}

uint64_t
ipc_fd_get_pos(int fd)
{
	off_t r = lseek(fd, 0, SEEK_CUR);
	return r > 0 ? (uint64_t)r : 0;
}

/* FS_NOATIME_FL: reads and mmap leave the access time alone, so that it
 * can carry a tag (tmpfs has the flag since Linux 6.0; hugetlbfs and older
 * kernels answer ENOTTY or EINVAL). */
static int
noatime(int fd)
{
	int fl = 0;
	if (ioctl(fd, FS_IOC_GETFLAGS, &fl) < 0)
		return -errno;
	if (fl & FS_NOATIME_FL)
		return 0;
	fl |= FS_NOATIME_FL;
	return ioctl(fd, FS_IOC_SETFLAGS, &fl) < 0 ? -errno : 0;
}

static int
set_atime(int fd, uint64_t sec)
{
	if (sec > (uint64_t)INT64_MAX / 2)
		return -EINVAL;
	struct timespec ts[2] = { { .tv_sec = (time_t)sec, .tv_nsec = 0 },
				  { .tv_sec = 0, .tv_nsec = UTIME_OMIT } };
	return futimens(fd, ts) < 0 ? -errno : 0;
}

int
ipc_fd_tag(int fd, uint64_t tag, int8_t *atime)
{
	int err = ipc_fd_set_pos(fd, tag);
	if (err)
		return err;
	if (!*atime)
		*atime = noatime(fd) ? -1 : 1;
	if (*atime > 0 && set_atime(fd, tag))
		*atime = -1;
	return 0;
}

void
ipc_fd_untag(int fd, int8_t atime)
{
	ipc_fd_set_pos(fd, 0);
	int err = atime > 0 ? set_atime(fd, 0) : 0;
	if (err)
		u_err("ipc", "cannot revoke the tag in the access time of fd "
			     "%d: %s", fd, strerror(-err));
}

bool
ipc_fd_has_tag(int fd, const struct ipc_fdinfo *fi, uint64_t tag)
{
	return fi->atime == tag || ipc_fd_get_pos(fd) == tag;
}

int
ipc_fd_seal_shrink(int fd)
{
	int seals = fcntl(fd, F_GET_SEALS);
	if (seals < 0)
		return -errno;
	if (seals & F_SEAL_SHRINK)
		return 0;
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) < 0)
		return -errno;
	return 0;
}

static pthread_once_t udmabuf_once = PTHREAD_ONCE_INIT;
static int udmabuf_err;

static void
udmabuf_probe(void)
{
	int fd = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		udmabuf_err = -errno;
		u_info("ipc", "no udmabuf (/dev/udmabuf: %s): pooled exports "
			      "share their segment's memfd", strerror(errno));
		return;
	}
	close(fd);
}

int
ipc_udmabuf_status(void)
{
	pthread_once(&udmabuf_once, udmabuf_probe);
	return udmabuf_err;
}

int
ipc_udmabuf_create(int memfd, uint64_t off, uint64_t size)
{
	int err = ipc_udmabuf_status();
	if (err)
		return err;
	int dev = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
	if (dev < 0)
		return -errno;
	struct ipc_udmabuf_create c = {
		.memfd = (uint32_t)memfd,
		.flags = IPC_UDMABUF_FLAGS_CLOEXEC,
		.offset = off,
		.size = size,
	};
	int r;
	do {
		r = ioctl(dev, IPC_UDMABUF_CREATE, &c);
	} while (r < 0 && (errno == EINTR || errno == EAGAIN));
	err = r < 0 ? -errno : r;
	close(dev);
	return err;
}

/* Yama, looked at once for the log only: zemem never widens who may
 * ptrace this process (no PR_SET_PTRACER: with PR_SET_PTRACER_ANY every
 * process of our uid could attach to us and read or change anything).
 * Where Yama refuses pidfd_getfd, importers use the broker. */
static pthread_once_t yama_once = PTHREAD_ONCE_INIT;

static void
yama_probe(void)
{
	FILE *f = u_sysfile("/proc/sys/kernel/yama/ptrace_scope");
	int scope = 0;
	if (!f)
		return; /* no Yama: same-uid pidfd_getfd needs nothing */
	if (fscanf(f, "%d", &scope) != 1)
		scope = 0;
	fclose(f);
	if (scope >= 1)
		u_info("ipc", "Yama ptrace_scope %d: importers that may not "
			      "ptrace us get our exports through the broker",
		       scope);
}

void
ipc_yama_note_once(void)
{
	pthread_once(&yama_once, yama_probe);
}

/* Random words come from getrandom 32 at a time, into a pool of the
 * process: one system call per 32 secrets, not one each (every cold get
 * draws one). One pool, not one per thread (thread-local storage of the
 * driver is kept small, drv_core.h), behind a flag that nobody waits for:
 * a thread that finds it taken draws its word alone. A fork child must
 * not hand out what its parent will: ipc_secret_fork_child moves the
 * generation on, and a pool of an older one is thrown away unused. A word
 * handed out is wiped from the pool. */
#define SECRET_POOL 32
static _Atomic uint32_t secret_gen;
static atomic_flag secret_busy = ATOMIC_FLAG_INIT;
static struct {
	uint64_t w[SECRET_POOL];
	uint32_t left, gen;
} spool;

int
ipc_secret64(uint64_t *out)
{
	if (atomic_flag_test_and_set_explicit(&secret_busy,
					      memory_order_acquire))
		return u_random(out, sizeof(*out));
	uint32_t gen = atomic_load_explicit(&secret_gen, memory_order_relaxed);
	int err = 0;
	if (!spool.left || spool.gen != gen) {
		spool.left = 0;
		err = u_random(spool.w, sizeof(spool.w));
		if (!err) {
			spool.left = SECRET_POOL;
			spool.gen = gen;
		}
	}
	if (!err) {
		spool.left--;
		*out = spool.w[spool.left];
		spool.w[spool.left] = 0;
	}
	atomic_flag_clear_explicit(&secret_busy, memory_order_release);
	return err;
}

/* In the child, one thread: nobody is in ipc_secret64, whatever the
 * flag says (a parent's thread may have held it at the fork). */
void
ipc_secret_fork_child(void)
{
	atomic_fetch_add_explicit(&secret_gen, 1, memory_order_relaxed);
	explicit_bzero(spool.w, sizeof(spool.w));
	spool.left = 0;
	atomic_flag_clear_explicit(&secret_busy, memory_order_relaxed);
}

int
ipc_tag_new(uint8_t kind, bool whole, uint64_t *tag)
{
	uint64_t r;
	int err = ipc_secret64(&r);
	if (err)
		return err;
	r = (r << 8) & (IPC_TAG_MARK - 1) & ~IPC_TAG_KIND_MASK;
	*tag = IPC_TAG_MARK | r | (kind & 0xfu) |
	       (whole ? 0 : IPC_TAG_SEGMENT);
	return 0;
}

int
ipc_kcmp_file(pid_t pid1, int fd1, pid_t pid2, int fd2)
{
#ifdef SYS_kcmp
	long r = syscall(SYS_kcmp, pid1, pid2, IPC_KCMP_FILE, fd1, fd2);
	if (r < 0)
		return -errno;
	return r == 0 ? 0 : 1;
#else
	(void)pid1, (void)fd1, (void)pid2, (void)fd2;
	return -ENOSYS;
#endif
}

int
ipc_sock_send(int sock, const void *buf, size_t len, int fd)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	if (fd >= 0) {
		memset(&u, 0, sizeof(u));
		msg.msg_control = u.buf;
		msg.msg_controllen = sizeof(u.buf);
		struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	ssize_t r;
	do {
		r = sendmsg(sock, &msg, MSG_NOSIGNAL);
	} while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	return (size_t)r == len ? 0 : -EMSGSIZE;
}

ssize_t
ipc_sock_recv(int sock, void *buf, size_t len, int *fd)
{
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(4 * sizeof(int))];
	} u;
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	*fd = -1;
	ssize_t r;
	do {
		r = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	} while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c;
	     c = CMSG_NXTHDR(&msg, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < n; i++) {
			int f;
			memcpy(&f, CMSG_DATA(c) + i * sizeof(int), sizeof(f));
			if (*fd < 0)
				*fd = f;
			else
				close(f); /* only one fd is ever expected */
		}
	}
	if (msg.msg_flags & (MSG_CTRUNC | MSG_TRUNC)) {
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		return -EMSGSIZE;
	}
	return r;
}

int
ipc_sock_timeouts(int sock, unsigned ms)
{
	struct timeval tv = { .tv_sec = ms / 1000,
			      .tv_usec = (long)(ms % 1000) * 1000 };
	if (setsockopt(sock, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0)
		return -errno;
	return 0;
}
