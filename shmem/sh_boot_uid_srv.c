// SPDX-License-Identifier: MIT
/*
 * sh_boot_uid_srv.c: the unique-id root's server, one thread.
 *
 * It accepts the PEs' connections on the listening socket, checks each
 * HELLO (job nonce, rank range, job size, rank not already there), then
 * serves rounds: a round is one barrier or allgather that every rank
 * enters with the same (kind, seq, len); when the last part arrives every
 * PE gets the whole result, the PE of this process last (it may end the
 * process as soon as it has it). It sleeps in poll() between messages.
 *
 * Failure: a connection that ends without BYE marks its PE dead: the
 * round in progress fails with -EHOSTDOWN (aux = that PE) for the PEs in
 * it, every PE is told DEAD, and every later round fails the same way at
 * once. ABORT (shmem_global_exit) is relayed to every PE, the one in this
 * process last; after it, closed connections are expected and quiet.
 * A PE may say BYE and come back with a new HELLO (finalize, init again).
 *
 * Every socket is close-on-exec, with send and receive timeouts of
 * ZESHMEM_TIMEOUT so a stuck peer cannot hold the server forever. Only the
 * server thread touches the state; stop asks it through a pipe.
 */
#include "sh_boot_impl.h"

#include "u_log.h"
#include "u_os.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum rank_state { R_NONE, R_LIVE, R_BYE, R_DYING, R_DEAD };

struct rank_slot {
	int fd;
	enum rank_state st;
	pid_t pid;
	bool have;                    /* its part of the round is in */
};

#define MAX_PENDING 64

struct sh_uid_srv {
	struct sh_uid_srv_cfg cfg;
	pthread_t th;
	int wake[2];
	atomic_int stop;              /* 0 run, 1 drain, 2 now */
	struct rank_slot *r;
	int n;
	int pend[MAX_PENDING];
	int npend;
	/* the round in progress */
	bool active;
	uint32_t kind, seq;
	uint64_t len;
	int count;
	uint8_t *data;
	bool aborted;
	int dead;                     /* first dead PE, -1 none */
};

static void
set_timeouts(int fd, unsigned s)
{
	struct timeval tv = { .tv_sec = s };
	int one = 1;

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

/* A write to rank i failed or its connection ended: dead unless it had
 * said BYE; the news goes out in settle(). */
static void
lose(struct sh_uid_srv *s, int i)
{
	struct rank_slot *r = &s->r[i];

	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	if (r->st == R_LIVE)
		r->st = R_DYING;
}

static void
send_to(struct sh_uid_srv *s, int i, uint32_t type, int32_t arg,
	uint32_t seq, int32_t aux, const void *p, size_t len)
{
	if (s->r[i].fd < 0)
		return;
	if (sh_send_msg(s->r[i].fd, type, arg, seq, aux, p, len))
		lose(s, i);
}

static void
round_reset(struct sh_uid_srv *s)
{
	for (int i = 0; i < s->n; i++)
		s->r[i].have = false;
	free(s->data);
	s->data = NULL;
	s->active = false;
	s->count = 0;
}

/* Fails the round for the PEs in it. */
static void
round_fail(struct sh_uid_srv *s, int err, int aux)
{
	if (!s->active)
		return;
	for (int i = 0; i < s->n; i++)
		if (s->r[i].have)
			send_to(s, i, SH_MSG_RESULT, err, s->seq, aux, NULL, 0);
	round_reset(s);
}

/* Announces every PE lost since the last call (announcing may lose more). */
static void
settle(struct sh_uid_srv *s)
{
	bool again = true;

	while (again) {
		again = false;
		for (int i = 0; i < s->n; i++) {
			if (s->r[i].st != R_DYING)
				continue;
			s->r[i].st = R_DEAD;
			again = true;
			if (s->aborted) {
				u_dbg("shmem", "PE %d left after the abort", i);
				continue;
			}
			if (s->dead >= 0) {
				/* The job is failing already. */
				u_dbg("shmem", "PE %d left too", i);
				continue;
			}
			u_warn("shmem", "PE %d (pid %d) closed its bootstrap "
					"connection without finalizing",
			       i, (int)s->r[i].pid);
			s->dead = i;
			round_fail(s, -EHOSTDOWN, i);
			for (int j = 0; j < s->n; j++)
				if (s->r[j].st == R_LIVE)
					send_to(s, j, SH_MSG_DEAD, 0, 0, i,
						NULL, 0);
		}
	}
}

static void
on_coll(struct sh_uid_srv *s, int i, const struct sh_msg *m)
{
	int fd = s->r[i].fd;

	if (s->dead >= 0) {
		sh_sock_skip(fd, m->len);
		send_to(s, i, SH_MSG_RESULT, -EHOSTDOWN, m->seq, s->dead, NULL,
			0);
		return;
	}
	if ((m->arg != SH_COLL_BARRIER && m->arg != SH_COLL_ALLGATHER) ||
	    (m->arg == SH_COLL_BARRIER && m->len) ||
	    m->len > SH_BOOT_MAX_GATHER / (uint64_t)s->n) {
		u_err("shmem", "PE %d: bad bootstrap request (kind %d, %llu "
			       "bytes)", i, m->arg, (unsigned long long)m->len);
		lose(s, i);
		return;
	}
	if (s->active && (s->r[i].have || m->arg != (int32_t)s->kind ||
			  m->seq != s->seq || m->len != s->len)) {
		u_err("shmem", "PE %d entered %s #%u of %llu bytes while the "
			       "job is in %s #%u of %llu bytes",
		      i, m->arg == SH_COLL_BARRIER ? "barrier" : "allgather",
		      m->seq, (unsigned long long)m->len,
		      s->kind == SH_COLL_BARRIER ? "barrier" : "allgather",
		      s->seq, (unsigned long long)s->len);
		sh_sock_skip(fd, m->len);
		send_to(s, i, SH_MSG_RESULT, -EPROTO, m->seq, -1, NULL, 0);
		round_fail(s, -EPROTO, -1);
		return;
	}
	if (!s->active) {
		s->data = m->len ? malloc((size_t)m->len * (size_t)s->n) : NULL;
		if (m->len && !s->data) {
			sh_sock_skip(fd, m->len);
			send_to(s, i, SH_MSG_RESULT, -ENOMEM, m->seq, -1, NULL,
				0);
			return;
		}
		s->active = true;
		s->kind = (uint32_t)m->arg;
		s->seq = m->seq;
		s->len = m->len;
	}
	if (m->len && sh_sock_read(fd, s->data + (size_t)i * m->len,
				   (size_t)m->len)) {
		lose(s, i);
		return;
	}
	s->r[i].have = true;
	if (++s->count < s->n)
		return;
	/* The PE of this process last: once it has its result it may end
	 * the process (and this server with it), so every other PE's result
	 * must be on its way by then; a round that one PE saw complete
	 * completes for all. */
	int local = s->cfg.local_rank;
	for (int j = 0; j < s->n; j++)
		if (j != local)
			send_to(s, j, SH_MSG_RESULT, 0, s->seq, -1, s->data,
				(size_t)s->len * (size_t)s->n);
	if (local >= 0 && local < s->n)
		send_to(s, local, SH_MSG_RESULT, 0, s->seq, -1, s->data,
			(size_t)s->len * (size_t)s->n);
	round_reset(s);
}

static void
on_abort(struct sh_uid_srv *s, int i, int status)
{
	int local = s->cfg.local_rank;

	u_info("shmem", "PE %d ends the job with status %d", i, status);
	s->aborted = true;
	if (s->cfg.on_abort)
		s->cfg.on_abort(s->cfg.arg, i, status);
	for (int j = 0; j < s->n; j++)
		if (j != local && s->r[j].st == R_LIVE)
			send_to(s, j, SH_MSG_ABORT, status, 0, i, NULL, 0);
	if (local >= 0 && local < s->n && s->r[local].st == R_LIVE)
		send_to(s, local, SH_MSG_ABORT, status, 0, i, NULL, 0);
}

static void
on_rank(struct sh_uid_srv *s, int i)
{
	struct sh_msg m;

	if (sh_sock_read(s->r[i].fd, &m, sizeof(m))) {
		lose(s, i);
		return;
	}
	switch (m.type) {
	case SH_MSG_COLL:
		on_coll(s, i, &m);
		break;
	case SH_MSG_ABORT:
		on_abort(s, i, m.arg);
		break;
	case SH_MSG_BYE:
		close(s->r[i].fd);
		s->r[i].fd = -1;
		s->r[i].st = R_BYE;
		break;
	default:
		u_err("shmem", "PE %d: unknown bootstrap message %u", i,
		      m.type);
		lose(s, i);
		break;
	}
}

static int
check_hello(struct sh_uid_srv *s, int fd, struct sh_hello *h)
{
	struct sh_msg m;

	if (sh_sock_read(fd, &m, sizeof(m)) || m.type != SH_MSG_HELLO ||
	    m.len != sizeof(*h) || sh_sock_read(fd, h, sizeof(*h)))
		return -EPROTO;
	if (h->nonce != s->cfg.nonce) {
		u_warn("shmem", "a connection for another job (nonce) refused");
		return -EACCES;
	}
	if (h->version != SH_UID_VERSION)
		return -EPROTO;
	if (h->nranks != (uint32_t)s->n || h->rank >= (uint32_t)s->n) {
		u_err("shmem", "PE %u of %u refused: the job has %d PEs",
		      h->rank, h->nranks, s->n);
		return -EINVAL;
	}
	if (s->aborted)
		return -ECANCELED;
	switch (s->r[h->rank].st) {
	case R_LIVE:
		u_err("shmem", "PE %u connected twice (pids %d and %u)",
		      h->rank, (int)s->r[h->rank].pid, h->pid);
		return -EADDRINUSE;
	case R_DYING:
	case R_DEAD:
		return -EHOSTDOWN;
	default:
		return 0;
	}
}

static void
on_pending(struct sh_uid_srv *s, int k)
{
	int fd = s->pend[k];
	struct sh_hello h;
	int ret;

	s->pend[k] = s->pend[--s->npend];
	ret = check_hello(s, fd, &h);
	if (sh_send_msg(fd, SH_MSG_WELCOME, ret, 0, s->cfg.local_rank, NULL,
			0) || ret) {
		close(fd);
		return;
	}
	struct rank_slot *r = &s->r[h.rank];
	if (r->have) {
		/* It left in the middle of a round and came back. */
		r->have = false;
		s->count--;
	}
	r->fd = fd;
	r->pid = (pid_t)h.pid;
	r->st = R_LIVE;
	u_dbg("shmem", "PE %u (pid %u) connected", h.rank, h.pid);
}

static void
on_accept(struct sh_uid_srv *s)
{
	int fd = accept4(s->cfg.listen_fd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	if (s->npend == MAX_PENDING) {
		close(fd);
		return;
	}
	set_timeouts(fd, s->cfg.timeout_s);
	s->pend[s->npend++] = fd;
}

static bool
anyone_live(const struct sh_uid_srv *s)
{
	for (int i = 0; i < s->n; i++)
		if (s->r[i].st == R_LIVE)
			return true;
	return s->npend > 0;
}

/* poll entries: 0 wake, 1 listener, then pending, then ranks. */
static void *
srv_main(void *arg)
{
	struct sh_uid_srv *s = arg;
	int cap = 2 + MAX_PENDING + s->n;
	struct pollfd *pfd = calloc((size_t)cap, sizeof(*pfd));
	int *who = calloc((size_t)cap, sizeof(*who));
	uint64_t drain_end = 0;

	if (!pfd || !who)
		goto out;
	for (;;) {
		int st = atomic_load(&s->stop);
		int k = 0, tmo = -1;

		if (st == 2)
			break;
		if (st == 1) {
			uint64_t now = u_now_ns();
			if (!drain_end)
				drain_end = now + (uint64_t)s->cfg.timeout_s *
							  1000000000ull;
			if (!anyone_live(s) || now >= drain_end)
				break;
			tmo = (int)((drain_end - now) / 1000000ull) + 1;
		}
		pfd[k++] = (struct pollfd){ .fd = s->wake[0], .events = POLLIN };
		/* A full pending list leaves new connections in the backlog. */
		pfd[k++] = (struct pollfd){ .fd = s->cfg.listen_fd,
					    .events = s->npend < MAX_PENDING
							      ? POLLIN : 0 };
		for (int i = 0; i < s->npend; i++) {
			who[k] = -1 - i;
			pfd[k++] = (struct pollfd){ .fd = s->pend[i],
						    .events = POLLIN };
		}
		for (int i = 0; i < s->n; i++) {
			if (s->r[i].st != R_LIVE)
				continue;
			who[k] = i;
			pfd[k++] = (struct pollfd){ .fd = s->r[i].fd,
						    .events = POLLIN };
		}
		if (poll(pfd, (nfds_t)k, tmo) < 0) {
			if (errno == EINTR)
				continue;
			u_err("shmem", "bootstrap server: poll: %s",
			      strerror(errno));
			break;
		}
		if (pfd[0].revents) {
			char buf[16];
			if (read(s->wake[0], buf, sizeof(buf)) < 0)
				(void)0;
			continue;
		}
		/* Ranks first (their fds are stable while handling), then one
		 * pending HELLO, then new connections. */
		for (int j = 2; j < k; j++) {
			int i = who[j];
			if (i < 0 || !pfd[j].revents)
				continue;
			if (s->r[i].st == R_LIVE && s->r[i].fd == pfd[j].fd)
				on_rank(s, i);
			settle(s);
		}
		for (int j = 2; j < k; j++) {
			if (who[j] < 0 && pfd[j].revents) {
				on_pending(s, -1 - who[j]);
				break;   /* pend[] was reordered */
			}
		}
		if (pfd[1].revents)
			on_accept(s);
	}
out:
	free(pfd);
	free(who);
	return NULL;
}

int
sh_uid_srv_start(const struct sh_uid_srv_cfg *cfg, struct sh_uid_srv **out)
{
	struct sh_uid_srv *s;
	sigset_t all, old;
	int ret;

	if (cfg->nranks < 1 || cfg->listen_fd < 0)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->cfg = *cfg;
	s->n = cfg->nranks;
	s->dead = -1;
	s->r = calloc((size_t)s->n, sizeof(*s->r));
	if (!s->r) {
		ret = -ENOMEM;
		goto err_free;
	}
	for (int i = 0; i < s->n; i++)
		s->r[i].fd = -1;
	if (pipe2(s->wake, O_CLOEXEC | O_NONBLOCK) < 0) {
		ret = -errno;
		goto err_free;
	}
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = -pthread_create(&s->th, NULL, srv_main, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		goto err_pipe;
	*out = s;
	return 0;
err_pipe:
	close(s->wake[0]);
	close(s->wake[1]);
err_free:
	free(s->r);
	free(s);
	close(cfg->listen_fd);
	return ret;
}

void
sh_uid_srv_stop(struct sh_uid_srv *s, bool drain)
{
	if (!s)
		return;
	atomic_store(&s->stop, drain ? 1 : 2);
	if (write(s->wake[1], "x", 1) < 0)
		(void)0;
	pthread_join(s->th, NULL);
	for (int i = 0; i < s->n; i++)
		if (s->r[i].fd >= 0)
			close(s->r[i].fd);
	for (int i = 0; i < s->npend; i++)
		close(s->pend[i]);
	close(s->cfg.listen_fd);
	close(s->wake[0]);
	close(s->wake[1]);
	free(s->data);
	free(s->r);
	free(s);
}
