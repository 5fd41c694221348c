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
 * Strangers: anyone who can reach the port may connect, so the server
 * never waits on one connection. Every read is non-blocking into the
 * connection's own buffer (one poll over all of them); a connection is a
 * stranger until its whole HELLO is in and carries the job's nonce (the
 * secret of the unique id: only who was given the id knows it). A stranger
 * has HELLO_MS from its accept for that, else it is closed; a wrong nonce
 * or a malformed HELLO closes it at once. Every pending connection is
 * accepted at once (the backlog is SOMAXCONN) and at most MAX_STRANGERS
 * wait at a time: one more closes the oldest. A PE sends its HELLO with
 * its connect, so it is a stranger for microseconds; one closed anyway
 * connects again (sh_boot_uid.c).
 *
 * Failure: a connection that ends without BYE marks its PE dead: the
 * round in progress fails with -EHOSTDOWN (aux = that PE) for the PEs in
 * it, every PE is told DEAD, and every later round fails the same way at
 * once. ABORT (shmem_global_exit) is relayed to every PE, the one in this
 * process last; after it, closed connections are expected and quiet.
 * A PE may say BYE and come back with a new HELLO (finalize, init again);
 * a HELLO of the same process that is read before the BYE on its old
 * connection waits for it (up to the HELLO's deadline).
 *
 * Every socket is close-on-exec. Writes to a PE block, bounded by a send
 * timeout of ZESHMEM_TIMEOUT (its reader thread always reads); reads never
 * block. Only the server thread touches the state; stop asks it through a
 * pipe.
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

/* A stranger's time for its whole HELLO, from its accept. */
#define HELLO_MS 1000
/* Strangers waiting at once; one more closes the oldest. */
#define MAX_STRANGERS 256
/* Connections taken from the backlog per turn of the loop. */
#define ACCEPT_BATCH 64
/* recv calls for one connection per turn (a large part yields). */
#define READS_PER_TURN 16

enum rank_state { R_NONE, R_LIVE, R_BYE, R_DYING, R_DEAD };

/* What a finished payload means. */
enum rx_done { RX_DROP, RX_PART };

/* One PE connection's input: a header, then its payload. */
struct rx {
	struct sh_msg m;
	size_t mgot;                  /* header bytes in */
	bool body;                    /* reading the payload */
	uint64_t left;                /* payload bytes still to come */
	uint8_t *dst;                 /* where they go; NULL: dropped */
	enum rx_done done;
};

struct rank_slot {
	int fd;
	enum rank_state st;
	pid_t pid;
	bool have;                    /* in the round (its part in or coming) */
	bool got;                     /* its part is all in */
	struct rx rx;
};

/* A connection before its HELLO. */
struct stranger {
	int fd;
	uint64_t deadline;            /* u_now_ns */
	bool whole;                   /* HELLO in; its rank's BYE is not */
	size_t got;
	uint8_t buf[sizeof(struct sh_msg) + sizeof(struct sh_hello)];
};

struct sh_uid_srv {
	struct sh_uid_srv_cfg cfg;
	pthread_t th;
	int wake[2];
	atomic_int stop;              /* 0 run, 1 drain, 2 now */
	struct rank_slot *r;
	int n;
	/* strangers in accept order: the oldest first */
	struct stranger st[MAX_STRANGERS];
	int nst;
	uint64_t accept_pause;        /* out of fds: no accept before */
	unsigned long refused;        /* bad HELLOs, for a quiet log */
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
	memset(&r->rx, 0, sizeof(r->rx));
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
	for (int i = 0; i < s->n; i++) {
		struct rx *rx = &s->r[i].rx;
		s->r[i].have = false;
		s->r[i].got = false;
		/* A part still coming has nowhere to go now. */
		if (rx->body && rx->done == RX_PART) {
			rx->dst = NULL;
			rx->done = RX_DROP;
		}
	}
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

/* The payload of rank i's current message goes to dst (NULL: dropped). */
static void
rx_payload(struct sh_uid_srv *s, int i, uint8_t *dst, enum rx_done done)
{
	struct rx *rx = &s->r[i].rx;

	rx->body = true;
	rx->left = rx->m.len;
	rx->dst = dst;
	rx->done = done;
}

/* Rank i's part of the round is all in. */
static void
part_in(struct sh_uid_srv *s, int i)
{
	s->r[i].got = true;
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
on_coll(struct sh_uid_srv *s, int i, const struct sh_msg *m)
{
	if (s->dead >= 0) {
		rx_payload(s, i, NULL, RX_DROP);
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
		rx_payload(s, i, NULL, RX_DROP);
		send_to(s, i, SH_MSG_RESULT, -EPROTO, m->seq, -1, NULL, 0);
		round_fail(s, -EPROTO, -1);
		return;
	}
	if (!s->active) {
		s->data = m->len ? malloc((size_t)m->len * (size_t)s->n) : NULL;
		if (m->len && !s->data) {
			rx_payload(s, i, NULL, RX_DROP);
			send_to(s, i, SH_MSG_RESULT, -ENOMEM, m->seq, -1, NULL,
				0);
			return;
		}
		s->active = true;
		s->kind = (uint32_t)m->arg;
		s->seq = m->seq;
		s->len = m->len;
	}
	s->r[i].have = true;
	rx_payload(s, i, s->data + (size_t)i * (size_t)m->len, RX_PART);
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

/* Rank i's header is in. */
static void
on_header(struct sh_uid_srv *s, int i)
{
	struct sh_msg m = s->r[i].rx.m;

	switch (m.type) {
	case SH_MSG_COLL:
		on_coll(s, i, &m);
		break;
	case SH_MSG_ABORT:
		rx_payload(s, i, NULL, RX_DROP);
		on_abort(s, i, m.arg);
		break;
	case SH_MSG_BYE:
		close(s->r[i].fd);
		s->r[i].fd = -1;
		s->r[i].st = R_BYE;
		memset(&s->r[i].rx, 0, sizeof(s->r[i].rx));
		break;
	default:
		u_err("shmem", "PE %d: unknown bootstrap message %u", i,
		      m.type);
		lose(s, i);
		break;
	}
}

/* Rank i's payload is all in: what it was for. */
static void
rx_finish(struct sh_uid_srv *s, int i)
{
	struct rx *rx = &s->r[i].rx;
	enum rx_done done = rx->done;

	memset(rx, 0, sizeof(*rx));
	if (done == RX_PART)
		part_in(s, i);
}

/* Reads what rank i sent, never blocking. */
static void
on_rank(struct sh_uid_srv *s, int i)
{
	struct rank_slot *r = &s->r[i];
	struct rx *rx = &r->rx;
	uint8_t sink[4096];

	for (int k = 0; k < READS_PER_TURN && r->st == R_LIVE; k++) {
		void *p;
		size_t want;
		ssize_t got;

		if (!rx->body) {
			p = (uint8_t *)&rx->m + rx->mgot;
			want = sizeof(rx->m) - rx->mgot;
		} else if (rx->dst) {
			p = rx->dst;
			want = (size_t)rx->left;
		} else {
			p = sink;
			want = rx->left < sizeof(sink) ? (size_t)rx->left
						       : sizeof(sink);
		}
		got = recv(r->fd, p, want, MSG_DONTWAIT);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (got <= 0) {
			lose(s, i);
			return;
		}
		if (rx->body) {
			if (rx->dst)
				rx->dst += got;
			rx->left -= (uint64_t)got;
		} else {
			rx->mgot += (size_t)got;
			if (rx->mgot < sizeof(rx->m))
				continue;
			on_header(s, i);
			if (r->st != R_LIVE)
				return;
			if (!rx->body) {
				memset(rx, 0, sizeof(*rx));
				continue;
			}
		}
		if (rx->left == 0)
			rx_finish(s, i);
	}
}

/* ---- strangers ---------------------------------------------------------- */

static void
stranger_drop(struct sh_uid_srv *s, int k)
{
	close(s->st[k].fd);
	memmove(&s->st[k], &s->st[k + 1],
		(size_t)(s->nst - k - 1) * sizeof(s->st[0]));
	s->nst--;
}

/* A refused HELLO: one warning for the first, the 10th, the 100th... */
static void
refused(struct sh_uid_srv *s, const char *why)
{
	unsigned long n = ++s->refused;
	bool loud = true;

	for (unsigned long v = n; v > 1 && loud; v /= 10)
		loud = v % 10 == 0;
	if (loud)
		u_warn("shmem", "bootstrap server: %s refused (%lu so far)",
		       why, n);
	else
		u_dbg("shmem", "bootstrap server: %s refused", why);
}

static int
check_hello(struct sh_uid_srv *s, const struct sh_hello *h)
{
	if (h->nonce != s->cfg.nonce) {
		refused(s, "a connection for another job (nonce)");
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
		/* The same process again: it said BYE on its old connection
		 * (finalize, init again), which may not be read yet. */
		if (s->r[h->rank].pid == (pid_t)h->pid)
			return -EINPROGRESS;
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

/* The answer to a HELLO: a fresh socket has room for it, so it never
 * waits; one that cannot take it is a stranger's problem. */
static int
welcome(struct sh_uid_srv *s, int fd, int ret)
{
	struct sh_msg m = { .type = SH_MSG_WELCOME, .arg = ret,
			    .aux = s->cfg.local_rank };

	return send(fd, &m, sizeof(m), MSG_NOSIGNAL | MSG_DONTWAIT) ==
		       (ssize_t)sizeof(m) ? 0 : -1;
}

/* Stranger k's whole HELLO is in: a rank takes the connection, or it is
 * answered and closed, or (its rank's old connection still open, the same
 * process: its BYE is on the way) it waits for that, up to its deadline;
 * then late is true and it is refused. */
static void
hello_in(struct sh_uid_srv *s, int k, bool late)
{
	struct stranger *t = &s->st[k];
	struct sh_hello h;
	int ret;

	memcpy(&h, t->buf + sizeof(struct sh_msg), sizeof(h));
	ret = check_hello(s, &h);
	if (ret == -EINPROGRESS) {
		/* what the old connection holds, its BYE perhaps */
		on_rank(s, (int)h.rank);
		settle(s);
		ret = check_hello(s, &h);
	}
	if (ret == -EINPROGRESS && !late) {
		t->whole = true;
		return;
	}
	if (ret == -EINPROGRESS) {
		u_err("shmem", "PE %u connected again (pid %u) and its old "
			       "connection did not end", h.rank, h.pid);
		ret = -EADDRINUSE;
	}
	if (welcome(s, t->fd, ret) || ret) {
		stranger_drop(s, k);
		return;
	}
	struct rank_slot *r = &s->r[h.rank];
	if (r->got) {
		/* It left after its part of a round was in and came back. */
		s->count--;
	}
	r->have = false;
	r->got = false;
	r->fd = t->fd;
	r->pid = (pid_t)h.pid;
	r->st = R_LIVE;
	memset(&r->rx, 0, sizeof(r->rx));
	set_timeouts(r->fd, s->cfg.timeout_s);
	t->fd = -1;
	memmove(&s->st[k], &s->st[k + 1],
		(size_t)(s->nst - k - 1) * sizeof(s->st[0]));
	s->nst--;
	u_dbg("shmem", "PE %u (pid %u) connected", h.rank, h.pid);
}

/* Reads stranger k's HELLO so far; hello_in once it is whole. */
static void
on_stranger(struct sh_uid_srv *s, int k)
{
	struct stranger *t = &s->st[k];
	struct sh_msg m;
	ssize_t got;

	if (t->whole)
		return;
	do {
		got = recv(t->fd, t->buf + t->got, sizeof(t->buf) - t->got,
			   MSG_DONTWAIT);
	} while (got < 0 && errno == EINTR);
	if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return;
	if (got <= 0) {
		u_dbg("shmem", "bootstrap server: a connection closed before "
			       "its HELLO");
		stranger_drop(s, k);
		return;
	}
	t->got += (size_t)got;
	if (t->got >= sizeof(m)) {
		memcpy(&m, t->buf, sizeof(m));
		if (m.type != SH_MSG_HELLO || m.len != sizeof(struct sh_hello)) {
			refused(s, "a connection that sent no HELLO");
			welcome(s, t->fd, -EPROTO);
			stranger_drop(s, k);
			return;
		}
	}
	if (t->got == sizeof(t->buf))
		hello_in(s, k, false);
}

/* Strangers past their deadline (the oldest first: deadlines are in
 * accept order). */
static void
expire(struct sh_uid_srv *s, uint64_t now)
{
	while (s->nst && s->st[0].deadline <= now) {
		if (s->st[0].whole) {
			hello_in(s, 0, true);
			continue;
		}
		u_dbg("shmem", "bootstrap server: a connection sent no whole "
			       "HELLO in %d ms: closed", HELLO_MS);
		stranger_drop(s, 0);
	}
}

/* Takes every pending connection (up to a batch); each one's HELLO is
 * read at once when it came with the connect. */
static void
on_accept(struct sh_uid_srv *s)
{
	for (int b = 0; b < ACCEPT_BATCH; b++) {
		int fd = accept4(s->cfg.listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if ((errno == EMFILE || errno == ENFILE) && s->nst) {
				stranger_drop(s, 0);
				continue;
			}
			if (errno == EMFILE || errno == ENFILE) {
				u_warn("shmem", "bootstrap server: accept: %s",
				       strerror(errno));
				s->accept_pause = u_now_ns() + 100000000ull;
			}
			return;
		}
		if (s->nst == MAX_STRANGERS) {
			u_dbg("shmem", "bootstrap server: %d connections wait "
				       "for their HELLO: the oldest closed",
			      MAX_STRANGERS);
			stranger_drop(s, 0);
		}
		s->st[s->nst++] = (struct stranger){
			.fd = fd,
			.deadline = u_now_ns() + HELLO_MS * 1000000ull,
		};
		on_stranger(s, s->nst - 1);
	}
}

static bool
anyone_live(const struct sh_uid_srv *s)
{
	for (int i = 0; i < s->n; i++)
		if (s->r[i].st == R_LIVE)
			return true;
	return false;
}

static int
ms_until(uint64_t now, uint64_t then)
{
	return then <= now ? 0 : (int)((then - now) / 1000000ull) + 1;
}

/* poll entries: 0 wake, 1 listener, then ranks, then the strangers whose
 * HELLO is not whole yet. who[]: rank i, or -1 - k for stranger k. */
static void *
srv_main(void *arg)
{
	struct sh_uid_srv *s = arg;
	int cap = 2 + MAX_STRANGERS + s->n;
	struct pollfd *pfd = calloc((size_t)cap, sizeof(*pfd));
	int *who = calloc((size_t)cap, sizeof(*who));
	uint64_t drain_end = 0;

	if (!pfd || !who)
		goto out;
	for (;;) {
		int mode = atomic_load(&s->stop);
		uint64_t now = u_now_ns();
		int k = 0, tmo = -1, first_st;

		if (mode == 2)
			break;
		expire(s, now);
		if (mode == 1) {
			if (!drain_end)
				drain_end = now + (uint64_t)s->cfg.timeout_s *
							  1000000000ull;
			if (!anyone_live(s) || now >= drain_end)
				break;
			tmo = ms_until(now, drain_end);
		}
		if (s->nst) {
			int t = ms_until(now, s->st[0].deadline);
			tmo = tmo < 0 || t < tmo ? t : tmo;
		}
		bool paused = s->accept_pause > now;
		if (paused) {
			int t = ms_until(now, s->accept_pause);
			tmo = tmo < 0 || t < tmo ? t : tmo;
		}
		pfd[k++] = (struct pollfd){ .fd = s->wake[0], .events = POLLIN };
		pfd[k++] = (struct pollfd){ .fd = s->cfg.listen_fd,
					    .events = paused ? 0 : POLLIN };
		for (int i = 0; i < s->n; i++) {
			if (s->r[i].st != R_LIVE)
				continue;
			who[k] = i;
			pfd[k++] = (struct pollfd){ .fd = s->r[i].fd,
						    .events = POLLIN };
		}
		first_st = k;
		for (int j = 0; j < s->nst; j++) {
			if (s->st[j].whole)
				continue;     /* nothing more to read */
			who[k] = -1 - j;
			pfd[k++] = (struct pollfd){ .fd = s->st[j].fd,
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
		/* Ranks first (a rank's fd stays its own while handled), then
		 * the strangers from the last to the first (dropping one
		 * moves only those after it), then new connections. */
		for (int j = 2; j < first_st; j++) {
			int i = who[j];
			if (!pfd[j].revents)
				continue;
			if (s->r[i].st == R_LIVE && s->r[i].fd == pfd[j].fd)
				on_rank(s, i);
			settle(s);
		}
		for (int j = k - 1; j >= first_st; j--)
			if (pfd[j].revents)
				on_stranger(s, -1 - who[j]);
		for (int t = s->nst - 1; t >= 0; t--)
			if (s->st[t].whole)
				hello_in(s, t, false);
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
	int ret, fl;

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
	/* accept never waits: the loop takes the backlog until it is empty */
	fl = fcntl(cfg->listen_fd, F_GETFL);
	if (fl < 0 || fcntl(cfg->listen_fd, F_SETFL, fl | O_NONBLOCK) < 0) {
		ret = -errno;
		goto err_free;
	}
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
	for (int i = 0; i < s->nst; i++)
		close(s->st[i].fd);
	close(s->cfg.listen_fd);
	close(s->wake[0]);
	close(s->wake[1]);
	free(s->data);
	free(s->r);
	free(s);
}
