// SPDX-License-Identifier: MIT
/*
 * ipc_broker: the second fd transport. Each exporting process runs one
 * thread that listens on an abstract UNIX socket named after its pid and
 * its nonce ("zemem-ipc.<pid>.<nonce>", both from the handle, so another
 * pid namespace or a reused pid never reaches the wrong process); an
 * importer connects, sends the handle and receives the file with
 * SCM_RIGHTS. It works where pidfd_getfd does not: a kernel without it, a
 * seccomp filter, Yama ptrace_scope 1 to 3 (zemem never widens who may
 * ptrace it), a non-dumpable exporter.
 *
 * Security: abstract sockets carry no permissions, so the broker checks
 * the peer's SO_PEERCRED at accept and serves only its own effective uid
 * and root (anyone else gets -EACCES at once and is closed); the importer
 * checks the broker's credentials the same way, and then (ipc_import.c)
 * that the file it got is the one the handle names, so a process squatting
 * the name gains nothing. The handle is the capability: the broker hands
 * out a file only when every field of the handle, its secret included, is
 * what this process's get wrote for a live export (ipc_export_fetch,
 * ipc_phys_fetch); it never lists or guesses exports.
 *
 * No client can delay another: one thread, one poll loop, every socket
 * non-blocking. A request that is already there at accept (the usual
 * case: importers send right after connect) is answered at once; a client
 * that has not sent it yet waits in a table of BROKER_PENDING slots for at
 * most BROKER_CLIENT_MS, and when the table is full the oldest waiter is
 * dropped for the newcomer. A reply is one datagram sent without waiting.
 *
 * The thread starts with the driver (zeInit; in a fork child, at its first
 * export): a process-lifetime thread (256 KiB stack) and socket that never
 * appear in the middle of a run. It runs with every signal blocked and
 * stops (a byte on its stop pipe) when the library is unloaded.
 * ZEMEM_IPC_BROKER=0 turns it off.
 *
 * Locking: broker_lock (a leaf) serialises start and stop; the thread's
 * client table is its own.
 */
#include "ipc.h"
#include "u_fork.h"
#include "u_options.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define REQ_MAGIC 0x7a6d6272u /* "zmbr": request v2, the whole handle */
#define REP_MAGIC 0x7a6d6270u /* "zmbp" */
#define BROKER_PENDING 32
#define BROKER_CLIENT_MS 500
#define BROKER_CHECK 0xffffffffu

struct breq {
	uint32_t magic;
	uint32_t sub;  /* 0: a USM export; k >= 1: file k - 1 of a
			* physical-range export (ipc_phys_fetch);
			* BROKER_CHECK: is the USM export live (no fd) */
	unsigned char handle[64];
};

struct brep {
	uint32_t magic;
	int32_t status;
};

static pthread_mutex_t broker_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int broker_state; /* 0 idle, 1 running, -1 off or failed */
static int listen_fd = -1;
static int stop_pipe[2] = { -1, -1 };
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

static uint64_t
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void
reply(int c, int status, int fd)
{
	struct brep rep = { REP_MAGIC, status };
	/* Non-blocking socket: a client that does not read gets nothing. */
	ipc_sock_send(c, &rep, sizeof(rep), status ? -1 : fd);
}

/* Answers the request req of client c (uid checked at accept). */
static void
serve_req(int c, pid_t peer, const struct breq *req, ssize_t len)
{
	struct ipc_self me;
	struct ipc_desc d = { 0 };
	const char *why;
	int fd = -1, status;
	ipc_self(&me);
	if (len != (ssize_t)sizeof(*req) || req->magic != REQ_MAGIC)
		status = -EBADMSG;
	else if (ipc_handle_decode(req->handle, &d, &why))
		status = -EBADMSG;
	else if (d.pid != me.pid || d.nonce != me.nonce)
		status = -ESTALE;
	else if (d.type == IPC_TYPE_PHYS && req->sub)
		status = ipc_phys_fetch(&d, req->sub, &fd);
	else if (d.type == IPC_TYPE_MEM && !req->sub)
		status = ipc_export_fetch(&d, &fd);
	else if (d.type == IPC_TYPE_MEM && req->sub == BROKER_CHECK)
		status = ipc_export_live(&d) ? 0 : -ESTALE;
	else
		status = -ESTALE;
	reply(c, status, fd);
	if (fd >= 0)
		close(fd); /* before c: the importer waits for c's EOF */
	u_trace("ipc", "broker: pid %d export %u: %d", (int)peer,
		d.export_id, status);
}

struct client {
	int fd;       /* -1: free slot */
	pid_t pid;
	uint64_t deadline;
	uint64_t seq; /* accept order, for evicting the oldest */
};

/* Reads and answers c's request if it is there: true when c is done
 * (answered, refused or gone), false when it has not sent yet. */
static bool
try_serve(int c, pid_t pid)
{
	struct breq req;
	ssize_t r;
	do {
		r = recv(c, &req, sizeof(req), MSG_DONTWAIT);
	} while (r < 0 && errno == EINTR);
	if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return false;
	if (r > 0)
		serve_req(c, pid, &req, r);
	return true;
}

static void
accept_all(int lfd, struct client *cl, uint64_t *seq)
{
	static unsigned refused;
	for (int n = 0; n < 64; n++) { /* then poll again: others wait */
		int c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (c < 0) {
			if (errno == EMFILE || errno == ENFILE)
				u_warn("ipc", "broker: accept: %s",
				       strerror(errno));
			return; /* EAGAIN: none left; the rest: next time */
		}
		struct ucred cr;
		socklen_t len = sizeof(cr);
		if (getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cr, &len) < 0) {
			close(c);
			continue;
		}
		if (!uid_allowed(cr.uid)) {
			/* Refused unheard: its request (if there) is dropped
			 * unread, so that our close does not reset it. */
			struct breq junk;
			while (recv(c, &junk, sizeof(junk), MSG_DONTWAIT) > 0)
				;
			reply(c, -EACCES, -1);
			close(c);
			refused++;
			if (!(refused & (refused - 1))) /* 1, 2, 4, ... */
				u_info("ipc", "broker: refused pid %d (uid "
					      "%u): not uid %u or root (%u "
					      "refusal(s))", (int)cr.pid,
				       (unsigned)cr.uid, (unsigned)geteuid(),
				       refused);
			continue;
		}
		if (try_serve(c, cr.pid)) {
			close(c);
			continue;
		}
		/* Not sent yet: a slot, the oldest waiter's if none is free. */
		int slot = 0;
		for (int i = 0; i < BROKER_PENDING; i++) {
			if (cl[i].fd < 0) {
				slot = i;
				break;
			}
			if (cl[i].seq < cl[slot].seq)
				slot = i;
		}
		if (cl[slot].fd >= 0) {
			u_dbg("ipc", "broker: %d clients wait; dropping pid %d",
			      BROKER_PENDING, (int)cl[slot].pid);
			close(cl[slot].fd);
		}
		cl[slot] = (struct client){ c, cr.pid,
					    now_ms() + BROKER_CLIENT_MS,
					    ++*seq };
	}
}

static void *
serve(void *arg)
{
	int lfd = (int)(intptr_t)arg;
	struct client cl[BROKER_PENDING];
	struct pollfd pf[BROKER_PENDING + 2];
	int map[BROKER_PENDING + 2];
	uint64_t seq = 0;
	for (int i = 0; i < BROKER_PENDING; i++)
		cl[i].fd = -1;
	for (;;) {
		uint64_t now = now_ms(), next = UINT64_MAX;
		int n = 0;
		pf[n++] = (struct pollfd){ stop_pipe[0], POLLIN, 0 };
		pf[n++] = (struct pollfd){ lfd, POLLIN, 0 };
		for (int i = 0; i < BROKER_PENDING; i++) {
			if (cl[i].fd < 0)
				continue;
			if (cl[i].deadline <= now) {
				u_dbg("ipc", "broker: pid %d sent nothing in "
					     "%d ms: dropped", (int)cl[i].pid,
				      BROKER_CLIENT_MS);
				close(cl[i].fd);
				cl[i].fd = -1;
				continue;
			}
			if (cl[i].deadline < next)
				next = cl[i].deadline;
			map[n] = i;
			pf[n++] = (struct pollfd){ cl[i].fd, POLLIN, 0 };
		}
		int timeout = next == UINT64_MAX ? -1 : (int)(next - now);
		int r = poll(pf, (nfds_t)n, timeout);
		if (r < 0 && errno != EINTR)
			break;
		if (r <= 0)
			continue;
		if (pf[0].revents)
			break; /* ipc_broker_stop */
		for (int k = 2; k < n; k++) {
			if (!pf[k].revents)
				continue;
			struct client *c = &cl[map[k]];
			if ((pf[k].revents & POLLIN) && !try_serve(c->fd, c->pid))
				continue;
			close(c->fd);
			c->fd = -1;
		}
		if (pf[1].revents & POLLIN)
			accept_all(lfd, cl, &seq);
		else if (pf[1].revents)
			break; /* the listening socket failed */
	}
	for (int i = 0; i < BROKER_PENDING; i++)
		if (cl[i].fd >= 0)
			close(cl[i].fd);
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
	int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK,
		       0);
	if (s < 0 || bind(s, (struct sockaddr *)&sa, sl) < 0 ||
	    listen(s, 128) < 0 || pipe2(stop_pipe, O_CLOEXEC) < 0) {
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
		close(stop_pipe[0]);
		close(stop_pipe[1]);
		stop_pipe[0] = stop_pipe[1] = -1;
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
		char b = 0;
		while (write(stop_pipe[1], &b, 1) < 0 && errno == EINTR)
			;
		pthread_join(broker_thread, NULL);
		close(listen_fd);
		close(stop_pipe[0]);
		close(stop_pipe[1]);
		listen_fd = stop_pipe[0] = stop_pipe[1] = -1;
	}
	atomic_store(&broker_state, 0);
	pthread_mutex_unlock(&broker_lock);
}

static int call(const struct ipc_desc *d, uint32_t sub, int *fd);

int
ipc_broker_fetch(const struct ipc_desc *d, int *fd)
{
	return call(d, 0, fd);
}

int
ipc_broker_fetch_sub(const struct ipc_desc *d, uint32_t sub, int *fd)
{
	return call(d, sub, fd);
}

int
ipc_broker_check(const struct ipc_desc *d)
{
	int fd;
	return call(d, BROKER_CHECK, &fd);
}

/* One request; fd: what came back (none for BROKER_CHECK). */
static int
call(const struct ipc_desc *d, uint32_t sub, int *fd)
{
	struct sockaddr_un sa;
	struct ucred cr;
	socklen_t len = sizeof(cr);
	socklen_t sl = broker_name(&sa, d->pid, d->nonce);
	struct breq req = { REQ_MAGIC, sub, { 0 } };
	struct brep rep;
	int err;
	*fd = -1;
	ipc_handle_encode(d, req.handle);
	int s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -errno;
	ipc_sock_timeouts(s, (unsigned)u_option_u64(U_OPT_IPC_TIMEOUT_MS));
	if (connect(s, (struct sockaddr *)&sa, sl) < 0) {
		err = errno == ECONNREFUSED || errno == ENOENT ? -ESRCH
		      : errno == EAGAIN || errno == EINPROGRESS ? -ETIMEDOUT
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
	/* A broker that refuses us may answer before reading (and close):
	 * its answer is still there to read when our send fails. */
	int e_send = ipc_sock_send(s, &req, sizeof(req), -1);
	ssize_t r = ipc_sock_recv(s, &rep, sizeof(rep), fd);
	if (e_send && r <= 0) {
		err = e_send;
		goto out;
	}
	if (r < 0) {
		err = r == -EAGAIN ? -ETIMEDOUT : (int)r;
	} else if (r != (ssize_t)sizeof(rep) || rep.magic != REP_MAGIC) {
		err = r == 0 ? -ECONNRESET : -EPROTO;
	} else if (rep.status) {
		err = rep.status < 0 && rep.status > -4096 ? rep.status
							   : -EPROTO;
	} else if (sub == BROKER_CHECK) {
		err = *fd >= 0 ? -EPROTO : 0;
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
	for (int n = 0; r > 0 && n < 4 && recv(s, &eof, 1, 0) > 0; n++)
		; /* a broker that keeps talking is not waited for */
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
	if (listen_fd >= 0) {
		close(listen_fd);
		close(stop_pipe[0]);
		close(stop_pipe[1]);
	}
	listen_fd = stop_pipe[0] = stop_pipe[1] = -1;
	atomic_store(&broker_state, 0);
	u_fork_child_mutex(&broker_lock);
}
