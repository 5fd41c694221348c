// SPDX-License-Identifier: MIT
/*
 * ipc_peer: fork + exec of ipc_helper, and its command channel (see
 * ipc_peer.h). The helper gets the channel on fds 3 (commands) and 4
 * (replies); everything else of ours is close-on-exec.
 */
#include "ipc_peer.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef ZEMEM_IPC_HELPER
#error "ZEMEM_IPC_HELPER (path of ipc_helper) must be defined"
#endif

static void
child(int cmd_fd, int rep_fd, const char *const *env)
{
	/* Move out of the way of 3 and 4 first, then place them there
	 * (dup2 clears close-on-exec on the copies). */
	int c = fcntl(cmd_fd, F_DUPFD_CLOEXEC, 10);
	int r = fcntl(rep_fd, F_DUPFD_CLOEXEC, 10);
	if (c < 0 || r < 0 || dup2(c, 3) < 0 || dup2(r, 4) < 0)
		_exit(126);
	for (; env && *env; env++)
		putenv((char *)*env);
	char *argv[] = { (char *)"ipc_helper", NULL };
	execv(ZEMEM_IPC_HELPER, argv);
	_exit(127);
}

int
peer_start(struct peer *p, bool sock, const char *const *env)
{
	int a[2], b[2];
	memset(p, 0, sizeof(*p));
	p->sock = sock;
	if (sock) {
		int type = SOCK_SEQPACKET | SOCK_CLOEXEC;
		if (socketpair(AF_UNIX, type, 0, a) < 0)
			return -errno;
		b[0] = b[1] = -1;
	} else if (pipe2(a, O_CLOEXEC) < 0) {
		return -errno;
	} else if (pipe2(b, O_CLOEXEC) < 0) {
		int err = -errno;
		close(a[0]);
		close(a[1]);
		return err;
	}
	p->pid = fork();
	if (p->pid == 0) {
		if (sock)
			child(a[1], a[1], env);
		child(a[0], b[1], env);
	}
	int err = p->pid < 0 ? -errno : 0;
	if (sock) {
		close(a[1]);
		p->out = p->in = a[0];
	} else {
		close(a[0]);
		close(b[1]);
		p->out = a[1];
		p->in = b[0];
	}
	if (err) {
		close(p->out);
		if (p->in != p->out)
			close(p->in);
	}
	return err;
}

int
peer_cmd(struct peer *p, char op, uint8_t byte, uint64_t size,
	 uint32_t flags, const ze_ipc_mem_handle_t *h, int fd,
	 struct ipc_rep *rep)
{
	struct ipc_cmd c;
	memset(&c, 0, sizeof(c));
	c.op = op;
	c.byte = byte;
	c.size = size;
	c.flags = flags;
	if (h)
		c.h = *h;
	ssize_t n;
	if (p->sock) {
		struct iovec iov = { &c, sizeof(c) };
		union {
			struct cmsghdr hd;
			char b[CMSG_SPACE(sizeof(int))];
		} u;
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
		if (fd >= 0) {
			memset(&u, 0, sizeof(u));
			m.msg_control = u.b;
			m.msg_controllen = sizeof(u.b);
			struct cmsghdr *cm = CMSG_FIRSTHDR(&m);
			cm->cmsg_level = SOL_SOCKET;
			cm->cmsg_type = SCM_RIGHTS;
			cm->cmsg_len = CMSG_LEN(sizeof(int));
			memcpy(CMSG_DATA(cm), &fd, sizeof(int));
		}
		n = sendmsg(p->out, &m, MSG_NOSIGNAL);
	} else {
		n = write(p->out, &c, sizeof(c));
	}
	if (n != (ssize_t)sizeof(c))
		return -1;
	if (op == 'Q')
		return 0;
	memset(rep, 0, sizeof(*rep));
	n = read(p->in, rep, sizeof(*rep));
	return n == (ssize_t)sizeof(*rep) ? 0 : -1;
}

static int
reap(struct peer *p)
{
	int status = -1;
	while (waitpid(p->pid, &status, 0) < 0 && errno == EINTR)
		;
	close(p->out);
	if (p->in != p->out)
		close(p->in);
	p->pid = 0;
	return status;
}

int
peer_stop(struct peer *p)
{
	peer_cmd(p, 'Q', 0, 0, 0, NULL, -1, NULL);
	return reap(p);
}

void
peer_kill(struct peer *p)
{
	kill(p->pid, SIGKILL);
	reap(p);
}
