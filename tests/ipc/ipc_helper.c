// SPDX-License-Identifier: MIT
/*
 * ipc_helper: the other process of the IPC tests and the benchmark. It is
 * started with fork + exec, loads the driver straight from the build tree
 * (zt), makes a context, and then runs the commands of ipc_proto.h that
 * arrive on fd 3, answering on fd 4, until 'Q' or EOF.
 *
 * ZEMEM_TEST_SETUID=<uid> makes it switch to that uid and gid first and
 * exec itself again (so it is dumpable, as a freshly started program of
 * that user is). ZEMEM_TEST_FAKE_YAMA=1 (root only) makes it see Yama
 * ptrace_scope 1, whatever the kernel has: a mount namespace of its own
 * with a tmpfs on /proc/sys/kernel holding yama/ptrace_scope.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ipc_proto.h"
#include "zt.h"

static struct {
	void *alloc;
	size_t alloc_size;
	ze_ipc_mem_handle_t h;
	void *opened;
	size_t open_size;
	ze_physical_mem_handle_t phys[4]; /* 'V' */
	int memfd;                        /* 'm' */
	int idle[64];                     /* 'I' */
	int n_idle;
} st = { .memfd = -1 };

/* 'm': a sealed (F_SEAL_SHRINK) writable memfd of size bytes full of
 * byte that nothing exports: its fd number and inode. */
static int
make_memfd(size_t size, uint8_t byte, struct ipc_rep *rep)
{
	int fd = memfd_create("not-exported", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	struct stat sb;
	if (fd < 0 || ftruncate(fd, (off_t)size) ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK) || fstat(fd, &sb))
		return -errno;
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	memset(p, byte, size);
	munmap(p, size);
	st.memfd = fd;
	rep->value = (uint64_t)sb.st_ino;
	rep->pad = (uint32_t)fd;
	return 0;
}

/* 'I': n connections to the broker of the handle's exporter (pid at
 * bytes 16..19, nonce at 24..31), held open and silent until 'Q'. */
static int
hold_idle(const ze_ipc_mem_handle_t *h, size_t n)
{
	int32_t pid;
	uint64_t nonce;
	memcpy(&pid, h->data + 16, sizeof(pid));
	memcpy(&nonce, h->data + 24, sizeof(nonce));
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int len = snprintf(sa.sun_path + 1, sizeof(sa.sun_path) - 1,
			   "zemem-ipc.%d.%016llx", (int)pid,
			   (unsigned long long)nonce);
	socklen_t sl = (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
				   1 + (size_t)len);
	int got = 0;
	for (size_t i = 0; i < n && st.n_idle < 64; i++) {
		int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
		if (s < 0)
			break;
		if (connect(s, (struct sockaddr *)&sa, sl) < 0) {
			close(s);
			break;
		}
		st.idle[st.n_idle++] = s;
		got++;
	}
	return got;
}

/* 'S': a seccomp filter: pidfd_getfd fails with EPERM (as under Yama or
 * for a non-dumpable exporter) and prctl(PR_SET_PTRACER, ...) kills the
 * process when it names PR_SET_PTRACER_ANY. -ENOSYS where the
 * architecture is not known here. */
static int
seccomp_install(void)
{
#if defined(__x86_64__)
	const unsigned arch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
	const unsigned arch = AUDIT_ARCH_AARCH64;
#else
	const unsigned arch = 0;
	return -ENOSYS;
#endif
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, arch, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 438 /* pidfd_getfd */, 0,
			 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_prctl, 0, 5),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x59616d61 /* SET_PTRACER */,
			 0, 3),
		/* ANY: (unsigned long)-1; a sanitizer's own tracer pid is
		 * fine (LeakSanitizer names its tracer at exit). */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, args[1])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xffffffffu, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return -errno;
	return 0;
}

/* ZEMEM_TEST_FAKE_YAMA: Yama ptrace_scope 1 in a mount namespace of ours. */
static int
fake_yama(void)
{
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("tmpfs", "/proc/sys/kernel", "tmpfs", 0, "mode=0755"))
		return -errno;
	if (mkdir("/proc/sys/kernel/yama", 0755))
		return -errno;
	int fd = open("/proc/sys/kernel/yama/ptrace_scope",
		      O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	int ok = write(fd, "1\n", 2) == 2;
	close(fd);
	return ok ? 0 : -EIO;
}

/* 'V': 4 device physical objects of size bytes each, mapped in order into
 * one reservation (the allocation), filled with byte, exported as one
 * range handle. */
static ze_result_t
vmm_export(size_t size, uint8_t byte)
{
	ze_physical_mem_desc_t pd = { ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC,
				      NULL, 0, size };
	ze_result_t r = zt.vmem.pfnReserve(zt.ctx, NULL, 4 * size, &st.alloc);
	for (int i = 0; !r && i < 4; i++) {
		r = zt.pmem.pfnCreate(zt.ctx, zt.dev, &pd, &st.phys[i]);
		if (!r)
			r = zt.vmem.pfnMap(zt.ctx, (char *)st.alloc + i * size,
					   size, st.phys[i], 0,
					   ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE);
	}
	if (r)
		return r;
	st.alloc_size = 4 * size;
	memset(st.alloc, byte, st.alloc_size);
	ze_ipc_phys_mem_handle_range_ext_desc_t rd = {
		ZE_STRUCTURE_TYPE_IPC_PHYS_MEM_HANDLE_RANGE_EXT_DESC, NULL,
		st.alloc_size };
	return zt.mem.pfnGetIpcHandleWithProperties(zt.ctx, st.alloc, &rd,
						    &st.h);
}

/* 'v': undoes 'V' (the handle is put with 'P'). */
static ze_result_t
vmm_unexport(void)
{
	ze_result_t r = zt.vmem.pfnUnmap(zt.ctx, st.alloc, st.alloc_size);
	if (!r)
		r = zt.vmem.pfnFree(zt.ctx, st.alloc, st.alloc_size);
	for (int i = 0; i < 4; i++)
		if (st.phys[i] && !r)
			r = zt.pmem.pfnDestroy(zt.ctx, st.phys[i]);
	memset(st.phys, 0, sizeof(st.phys));
	st.alloc = NULL;
	return r;
}

static int
switch_uid(uid_t uid)
{
	if (setgroups(0, NULL) < 0 || setgid(uid) < 0 || setuid(uid) < 0)
		return -errno;
	return 0;
}

/* One command, and the fd that came with it (or -1). */
static int
read_cmd(bool sock, struct ipc_cmd *cmd, int *fd)
{
	*fd = -1;
	if (!sock) {
		ssize_t r = read(3, cmd, sizeof(*cmd));
		return r == (ssize_t)sizeof(*cmd) ? 0 : -1;
	}
	struct iovec iov = { cmd, sizeof(*cmd) };
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int))];
	} u;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = u.b, .msg_controllen = sizeof(u.b) };
	ssize_t r = recvmsg(3, &m, MSG_CMSG_CLOEXEC);
	if (r != (ssize_t)sizeof(*cmd))
		return -1;
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	if (c && c->cmsg_type == SCM_RIGHTS)
		memcpy(fd, CMSG_DATA(c), sizeof(int));
	return 0;
}

static void
region(unsigned char **p, size_t *n)
{
	*p = st.opened ? st.opened : st.alloc;
	*n = st.opened ? st.open_size : st.alloc_size;
}

static uint64_t
now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void
run(const struct ipc_cmd *cmd, int fd, struct ipc_rep *rep)
{
	unsigned char *p;
	size_t n;
	switch (cmd->op) {
	case 'A':
		if (cmd->flags & IPC_CMD_HOST)
			rep->result = zt.mem.pfnAllocHost(zt.ctx, &zt_hdesc,
							  cmd->size, 0,
							  &st.alloc);
		else
			rep->result = zt.mem.pfnAllocDevice(
				zt.ctx, &zt_ddesc, cmd->size, 0, zt.dev,
				&st.alloc);
		if (rep->result)
			break;
		st.alloc_size = cmd->size;
		memset(st.alloc, cmd->byte, cmd->size);
		rep->result = zt.mem.pfnGetIpcHandle(zt.ctx, st.alloc, &st.h);
		rep->h = st.h;
		break;
	case 'O': {
		ze_ipc_mem_handle_t h = cmd->h;
		if (fd >= 0 && (cmd->flags & IPC_CMD_SAME_NUMBER)) {
			int want;
			memcpy(&want, h.data, sizeof(want));
			if (want != fd && fcntl(want, F_GETFD) >= 0) {
				close(fd); /* taken here: cannot play it */
				rep->result = -EBUSY;
				break;
			}
			if (want != fd && dup3(fd, want, O_CLOEXEC) == want) {
				close(fd);
				fd = want;
			}
		}
		if (fd >= 0)
			memcpy(h.data, &fd, sizeof(fd));
		rep->result = zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, h, 0,
						      &st.opened);
		st.open_size = cmd->size;
		if (fd >= 0)
			close(fd); /* the driver keeps its own */
		break;
	}
	case 'E': {
		ze_ipc_mem_handle_t h;
		rep->result = zt.mem_exp.pfnGetIpcHandleFromFileDescriptorExp(
			zt.ctx, (uint64_t)fd, &h);
		if (!rep->result)
			rep->result = zt.mem.pfnOpenIpcHandle(
				zt.ctx, zt.dev, h, 0, &st.opened);
		st.open_size = cmd->size;
		if (fd >= 0)
			close(fd);
		break;
	}
	case 'C':
		region(&p, &n);
		for (size_t i = 0; i < n; i++)
			rep->value += p[i] != cmd->byte;
		break;
	case 'W':
		region(&p, &n);
		memset(p, cmd->byte, n);
		break;
	case 'R': {
		region(&p, &n);
		uint64_t sum = 0, t0 = now_ns();
		for (size_t i = 0; i < n; i += 64)
			sum += p[i];
		rep->value = now_ns() - t0;
		rep->pad = (uint32_t)sum;
		break;
	}
	case 'M': {
		/* memcpy of the region into a buffer of our own (timed,
		 * after one untimed pass that faults everything in). */
		region(&p, &n);
		static void *dst;
		static size_t dst_len;
		if (dst_len != n) {
			free(dst);
			dst = malloc(n);
			dst_len = n;
			memcpy(dst, p, n);
		}
		uint64_t t0 = now_ns();
		memcpy(dst, p, n);
		rep->value = now_ns() - t0;
		break;
	}
	case 'H': {
		/* A hostile importer of the fd that came with the command:
		 * maps the whole file, counts the bytes that are neither
		 * cmd->byte nor 0 (rep.pad), overwrites all of it, punches a
		 * hole over all of it; rep.value = the file's size. */
		struct stat fs;
		rep->result = -EBADF;
		if (fd < 0 || fstat(fd, &fs) || fs.st_size <= 0)
			break;
		size_t len = (size_t)fs.st_size;
		unsigned char *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
					MAP_SHARED, fd, 0);
		rep->result = -errno;
		if (m != MAP_FAILED) {
			uint32_t other = 0;
			for (size_t i = 0; i < len; i++)
				other += m[i] != cmd->byte && m[i] != 0;
			memset(m, 0x66, len);
			munmap(m, len);
			rep->pad = other;
			rep->value = len;
			rep->result = fallocate(fd, FALLOC_FL_PUNCH_HOLE |
							    FALLOC_FL_KEEP_SIZE,
						0, (off_t)len)
					      ? -errno
					      : 0;
		}
		close(fd);
		break;
	}
	case 'X':
		rep->result = zt.mem.pfnCloseIpcHandle(zt.ctx, st.opened);
		st.opened = NULL;
		break;
	case 'o': {
		/* Open and close again at once; what was opened stays. */
		void *q = NULL;
		rep->result = zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, cmd->h, 0,
						      &q);
		if (!rep->result) {
			ze_memory_allocation_properties_t pr = {
				ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES,
				NULL, 0, 0, 0 };
			if (!zt.mem.pfnGetAllocProperties(zt.ctx, q, &pr, NULL))
				rep->pad = (uint32_t)pr.type;
			rep->value = 0;
			for (size_t i = 0; i < cmd->size; i++)
				rep->value += ((unsigned char *)q)[i] !=
					      cmd->byte;
			zt.mem.pfnCloseIpcHandle(zt.ctx, q);
		}
		break;
	}
	case 'm':
		rep->result = make_memfd(cmd->size, cmd->byte, rep);
		break;
	case 'k': {
		int xfd; /* the exporter's fd number leads the handle */
		memcpy(&xfd, st.h.data, sizeof(xfd));
		rep->result = lseek(xfd, 4096, SEEK_SET) == 4096 &&
			!futimens(xfd, (struct timespec[2]){
				{ .tv_sec = 1 }, { .tv_nsec = UTIME_OMIT } })
			? 0 : -errno;
		break;
	}
	case 'I':
		rep->result = hold_idle(&cmd->h, cmd->size);
		break;
	case 'S':
		rep->result = seccomp_install();
		break;
	case 'P':
		rep->result = zt.mem.pfnPutIpcHandle(zt.ctx, st.h);
		break;
	case 'F':
		rep->result = zt.mem.pfnFree(zt.ctx, st.alloc);
		st.alloc = NULL;
		break;
	case 'U':
		rep->result = switch_uid(IPC_NOBODY);
		break;
	case 'V':
		rep->result = vmm_export(cmd->size, cmd->byte);
		rep->h = st.h;
		break;
	case 'v':
		rep->result = vmm_unexport();
		break;
	default:
		rep->result = -EINVAL;
	}
}

int
main(int argc, char **argv)
{
	(void)argc;
	const char *su = getenv("ZEMEM_TEST_SETUID");
	if (su && strcmp(su, "done")) {
		/* The build tree may sit below a directory the new user cannot
		 * search (a 0700 mktemp -d): keep the driver open across the
		 * exec (deliberately not close-on-exec) and load it through
		 * /proc/self/fd, which needs only read access to the file. */
		int dfd = open(zt_driver_path(), O_RDONLY);
		if (dfd >= 0) {
			char path[64];
			snprintf(path, sizeof(path), "/proc/self/fd/%d", dfd);
			setenv("ZEMEM_TEST_DRIVER", path, 1);
		}
		if (switch_uid((uid_t)atoi(su)) < 0) {
			perror("ipc_helper: setuid");
			return 2;
		}
		setenv("ZEMEM_TEST_SETUID", "done", 1);
		execv("/proc/self/exe", argv);
		perror("ipc_helper: re-exec");
		return 2;
	}
	const char *fy = getenv("ZEMEM_TEST_FAKE_YAMA");
	if (fy && !strcmp(fy, "1") && fake_yama()) {
		perror("ipc_helper: fake Yama");
		return 6;
	}
	struct stat sb;
	bool sock = fstat(3, &sb) == 0 && S_ISSOCK(sb.st_mode);
	if (zt_load_version(&zt, ZE_API_VERSION_CURRENT) ||
	    zt.global.pfnInit(0))
		return 3;
	uint32_t one = 1;
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	if (zt.driver.pfnGet(&one, &zt.drv) ||
	    zt.device.pfnGet(zt.drv, &one, &zt.dev) ||
	    zt.context.pfnCreate(zt.drv, &cd, &zt.ctx))
		return 4;
	for (;;) {
		struct ipc_cmd cmd;
		struct ipc_rep rep;
		int fd;
		if (read_cmd(sock, &cmd, &fd))
			return 0; /* the test is gone: EOF */
		if (cmd.op == 'Q')
			return 0;
		memset(&rep, 0, sizeof(rep));
		const char *t = getenv("ZEMEM_IPC_TRANSPORT");
		snprintf(rep.transport, sizeof(rep.transport), "%s",
			 t ? t : "auto");
		if (cmd.op != 'x')
			run(&cmd, fd, &rep);
		if (write(4, &rep, sizeof(rep)) != (ssize_t)sizeof(rep))
			return 5;
		if (cmd.op == 'x') {
			execv("/proc/self/exe", argv);
			perror("ipc_helper: exec");
			return 7;
		}
	}
}
