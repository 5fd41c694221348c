// SPDX-License-Identifier: MIT
/*
 * ipc_broker: the second fd transport. Each exporting process runs one
 * thread that listens on an abstract UNIX socket named after its pid and
 * its nonce ("zemem-ipc.<pid>.<nonce>", both from the handle, so another
 * pid namespace or a reused pid never reaches the wrong process); an
 * importer connects, names the export (id, tag) and receives the file with
 * SCM_RIGHTS. It works where pidfd_getfd does not: a kernel without it, a
 * seccomp filter, Yama ptrace_scope 2 or 3, a non-dumpable exporter.
 *
 * Security: abstract sockets carry no permissions, so the broker checks
 * the peer's SO_PEERCRED and serves only its own effective uid and root;
 * the importer checks the broker's credentials the same way, and then
 * (ipc_import.c) that the file it got is the one the handle names, so a
 * process squatting the name gains nothing. The handle (export id, tag) is
 * the capability: the broker never lists or guesses exports.
 *
 * The thread starts with the driver (zeInit; in a fork child, at its first
 * export): a process-lifetime thread (256 KiB stack) and socket that never
 * appear in the middle of a run. It runs with every signal blocked, serves
 * one short request at a time with 1 s socket timeouts, and stops when the
 * library is unloaded. ZEMEM_IPC_BROKER=0 turns it off.
 *
 * Locking: broker_lock (a leaf) serialises start and stop.
 */
#include "ipc.h"
#include "u_options.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define REQ_MAGIC 0x7a6d6271u /* "zmbq" */
#define REP_MAGIC 0x7a6d6270u /* "zmbp" */
#define SERVE_TIMEOUT_MS 1000u

struct breq {
	uint32_t magic;
	uint32_t export_id;
	uint64_t nonce;
	uint64_t tag;
	uint32_t sub;  /* 0: a USM export; k >= 1: file k - 1 of a
			* physical-range export (ipc_phys_fetch) */
	uint32_t pad;
};

struct brep {
	uint32_t magic;
	int32_t status;
};

static pthread_mutex_t broker_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int broker_state; /* 0 idle, 1 running, -1 off or failed */
static int listen_fd = -1;
static pthread_t broker_thread;

static socklen_t
broker_name(struct sockaddr_un *sa, int32_t pid, uint64_t nonce)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	int n = snprintf(sa->sun_path + 1, sizeof(sa->sun_path) - 1,
			 "zemem-ipc.%d.%016llx", (int)pid,
			 (unsigned long long)nonce);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
			   (size_t)n);
}

static bool
uid_allowed(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

static void
serve_one(int c)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);
	struct breq req;
	struct brep rep = { REP_MAGIC, 0 };
	struct ipc_self me;
	int fd = -1;
	if (getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cr, &len) < 0)
		return;
	ipc_sock_timeouts(c, SERVE_TIMEOUT_MS);
	ssize_t r = recv(c, &req, sizeof(req), 0);
	if (r != (ssize_t)sizeof(req))
		return;
	ipc_self(&me);
	if (!uid_allowed(cr.uid)) {
		rep.status = -EACCES;
		u_info("ipc", "broker: refused pid %d (uid %u): not uid %u or "
			      "root", (int)cr.pid, (unsigned)cr.uid,
		       (unsigned)geteuid());
	} else if (req.magic != REQ_MAGIC) {
		rep.status = -EBADMSG;
	} else if (req.nonce != me.nonce) {
		rep.status = -ESTALE;
	} else {
		rep.status = req.sub ? ipc_phys_fetch(req.export_id, req.tag,
						      req.sub, &fd)
				     : ipc_export_fetch(req.export_id, req.tag,
							&fd);
	}
	ipc_sock_send(c, &rep, sizeof(rep), rep.status ? -1 : fd);
	if (fd >= 0)
		close(fd); /* before c: the importer waits for c's EOF */
	u_trace("ipc", "broker: pid %d export %u: %d", (int)cr.pid,
		req.export_id, rep.status);
}

static void *
serve(void *arg)
{
	int lfd = (int)(intptr_t)arg;
	for (;;) {
		int c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (c >= 0) {
			serve_one(c);
			close(c);
			continue;
		}
		if (errno == EINTR || errno == ECONNABORTED)
			continue;
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
		    errno == ENOMEM) {
			usleep(10000);
			continue;
		}
		break; /* EINVAL after shutdown: stop */
	}
	return NULL;
}

void
ipc_broker_ensure(void)
{
	if (atomic_load_explicit(&broker_state, memory_order_acquire))
		return;
	pthread_mutex_lock(&broker_lock);
	if (atomic_load(&broker_state))
		goto out;
	if (!u_option_u64(U_OPT_IPC_BROKER)) {
		u_info("ipc", "broker disabled (ZEMEM_IPC_BROKER=0)");
		atomic_store(&broker_state, -1);
		goto out;
	}
	struct ipc_self me;
	struct sockaddr_un sa;
	ipc_self(&me);
	socklen_t sl = broker_name(&sa, me.pid, me.nonce);
	int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&sa, sl) < 0 ||
	    listen(s, 128) < 0) {
		u_warn("ipc", "broker socket: %s; importers need pidfd_getfd "
			      "or their own fd passing", strerror(errno));
		if (s >= 0)
			close(s);
		atomic_store(&broker_state, -1);
		goto out;
	}
	sigset_t all, old;
	pthread_attr_t attr;
	sigfillset(&all);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int err = pthread_create(&broker_thread, &attr, serve,
				 (void *)(intptr_t)s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (err) {
		u_warn("ipc", "broker thread: %s", strerror(err));
		close(s);
		atomic_store(&broker_state, -1);
		goto out;
	}
	listen_fd = s;
	atomic_store_explicit(&broker_state, 1, memory_order_release);
	u_dbg("ipc", "broker listening as @%s", sa.sun_path + 1);
out:
	pthread_mutex_unlock(&broker_lock);
}

void
ipc_broker_stop(void)
{
	pthread_mutex_lock(&broker_lock);
	if (atomic_load(&broker_state) == 1) {
		shutdown(listen_fd, SHUT_RDWR); /* accept() returns EINVAL */
		pthread_join(broker_thread, NULL);
		close(listen_fd);
		listen_fd = -1;
	}
	atomic_store(&broker_state, 0);
	pthread_mutex_unlock(&broker_lock);
}

int
ipc_broker_fetch(const struct ipc_desc *d, int *fd)
{
	return ipc_broker_fetch_sub(d, 0, fd);
}

int
ipc_broker_fetch_sub(const struct ipc_desc *d, uint32_t sub, int *fd)
{
	struct sockaddr_un sa;
	struct ucred cr;
	socklen_t len = sizeof(cr);
	socklen_t sl = broker_name(&sa, d->pid, d->nonce);
	struct breq req = { REQ_MAGIC, d->export_id, d->nonce, d->tag, sub,
			    0 };
	struct brep rep;
	int err;
	*fd = -1;
	int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -errno;
	ipc_sock_timeouts(s, (unsigned)u_option_u64(U_OPT_IPC_TIMEOUT_MS));
	if (connect(s, (struct sockaddr *)&sa, sl) < 0) {
		err = errno == ECONNREFUSED || errno == ENOENT ? -ESRCH
							       : -errno;
		goto out;
	}
	if (getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cr, &len) < 0) {
		err = -errno;
		goto out;
	}
	if (!uid_allowed(cr.uid)) {
		u_warn("ipc", "broker @%s runs as uid %u: not trusted",
		       sa.sun_path + 1, (unsigned)cr.uid);
		err = -EACCES;
		goto out;
	}
	if ((err = ipc_sock_send(s, &req, sizeof(req), -1)))
		goto out;
	ssize_t r = ipc_sock_recv(s, &rep, sizeof(rep), fd);
	if (r < 0) {
		err = r == -EAGAIN ? -ETIMEDOUT : (int)r;
	} else if (r != (ssize_t)sizeof(rep) || rep.magic != REP_MAGIC) {
		err = r == 0 ? -ECONNRESET : -EPROTO;
	} else if (rep.status) {
		err = rep.status < 0 && rep.status > -4096 ? rep.status
							   : -EPROTO;
	} else {
		err = *fd >= 0 ? 0 : -EPROTO;
	}
	if (err && *fd >= 0) {
		close(*fd);
		*fd = -1;
	}
	/* Wait for the broker's close: by then it closed its copy of the fd
	 * too, so nothing transient of ours is left in the exporter when
	 * open returns (its fd count is back where it was). */
	char eof;
	while (r > 0 && recv(s, &eof, 1, 0) > 0)
		;
out:
	close(s);
	return err;
}

void
ipc_broker_fork_prepare(void)
{
	pthread_mutex_lock(&broker_lock);
}

void
ipc_broker_fork_parent(void)
{
	pthread_mutex_unlock(&broker_lock);
}

void
ipc_broker_fork_child(void)
{
	/* The thread did not follow us; the socket did: close our copy (the
	 * parent keeps listening) and start our own at our first export. */
	if (listen_fd >= 0)
		close(listen_fd);
	listen_fd = -1;
	atomic_store(&broker_state, 0);
	pthread_mutex_init(&broker_lock, NULL);
}
