// SPDX-License-Identifier: MIT
/*
 * sh_boot_uid.c: the unique-id bootstrap, PE side.
 *
 * sh_boot_uid_create binds the root's listening socket (loopback unless
 * ZESHMEM_BOOT_IFACE names an interface: the id cannot know where the
 * other ranks will run) and encodes its address and a random job nonce,
 * the job's secret, into the id (sh_boot_impl.h has the layout); the
 * process that holds that socket serves the job
 * (sh_boot_uid_srv.c) once it opens the bootstrap with the same id,
 * whatever its rank. zeshrun holds it itself and serves, so there every PE
 * is only a client.
 *
 * Every PE (the root's own too) has one TCP connection to the server; its
 * HELLO goes in one write with the connect (the server gives a connection
 * 1 s for it) and a connection the server closed before it answered is
 * made again, within ZESHMEM_TIMEOUT. A
 * reader thread per PE owns the socket's receive side: it hands results to
 * the calling thread (a condition variable, waits bounded by
 * ZESHMEM_TIMEOUT), records the PE the server reports dead (the next boot
 * call fails with -EHOSTDOWN naming it), and on ABORT ends this process
 * with the status at once, whatever the program is doing.
 *
 * Locks: c->mu protects the mailbox (res_*), dead, lost, closing; c->send_mu
 * serialises writes to the socket. The listener store has its own mutex.
 */
#include "sh_boot_impl.h"

#include "u_log.h"
#include "u_options.h"
#include "u_os.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

struct uid_client {
	int fd;
	int root_rank;                /* PE that serves, -1: a launcher */
	struct sh_uid_srv *srv;       /* when this process serves */
	pthread_t reader;
	pthread_mutex_t mu, send_mu;
	pthread_cond_t cv;
	uint32_t seq;
	/* mailbox, under mu */
	bool have;
	uint32_t res_seq;
	int32_t res_arg, res_aux;
	void *res_data;
	size_t res_len;
	int dead;                     /* a PE reported dead, -1 none */
	bool lost;                    /* the server's connection ended */
	bool closing;
};

/* The listening socket of sh_boot_uid_create, until an open takes it. */
static pthread_mutex_t held_mu = PTHREAD_MUTEX_INITIALIZER;
static int held_fd = -1;
static uint64_t held_nonce;

int
sh_sock_write(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

bool
sh_sock_self_connected(int fd)
{
	struct sockaddr_in me, peer;
	socklen_t ml = sizeof(me), pl = sizeof(peer);

	return getsockname(fd, (struct sockaddr *)&me, &ml) == 0 &&
	       getpeername(fd, (struct sockaddr *)&peer, &pl) == 0 &&
	       me.sin_family == AF_INET && peer.sin_family == AF_INET &&
	       me.sin_port == peer.sin_port &&
	       me.sin_addr.s_addr == peer.sin_addr.s_addr;
}

int
sh_sock_read(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = recv(fd, p, len, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		}
		if (n == 0)
			return -EPIPE;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

void
sh_sock_skip(int fd, uint64_t len)
{
	char buf[4096];

	while (len) {
		size_t n = len < sizeof(buf) ? (size_t)len : sizeof(buf);
		if (sh_sock_read(fd, buf, n))
			return;
		len -= n;
	}
}

int
sh_send_msg(int fd, uint32_t type, int32_t arg, uint32_t seq, int32_t aux,
	    const void *payload, size_t len)
{
	struct sh_msg m = { .type = type, .arg = arg, .seq = seq, .aux = aux,
			    .len = len };
	int ret = sh_sock_write(fd, &m, sizeof(m));

	if (ret == 0 && len)
		ret = sh_sock_write(fd, payload, len);
	return ret;
}

/* ---- the root's listening socket -------------------------------------- */

static int
pick_addr(const char *iface, struct in_addr *out)
{
	struct ifaddrs *ifa, *i;
	int ret = -ENODEV;

	if (!iface[0]) {
		/* Nothing named: this machine only (see sh_uid_listen). */
		out->s_addr = htonl(INADDR_LOOPBACK);
		return 0;
	}
	if (inet_pton(AF_INET, iface, out) == 1)
		return 0;
	if (getifaddrs(&ifa) < 0)
		return -errno;
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET)
			continue;
		if (!(i->ifa_flags & IFF_UP) || strcmp(i->ifa_name, iface))
			continue;
		*out = ((struct sockaddr_in *)i->ifa_addr)->sin_addr;
		ret = 0;
		break;
	}
	freeifaddrs(ifa);
	if (ret)
		u_err("shmem", "ZESHMEM_BOOT_IFACE=%s: no IPv4 interface or "
			       "address of that name", iface);
	return ret;
}

/* The job's secret: from the kernel's generator or not at all (a clock
 * and a pid are guessable). */
static int
job_nonce(uint64_t *out)
{
	ssize_t n;

	do
		n = getrandom(out, sizeof(*out), 0);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(*out)) {
		int err = n < 0 ? errno : EIO;
		u_err("shmem", "unique id: no random secret: getrandom: %s",
		      strerror(err));
		return -err;
	}
	return 0;
}

int
sh_uid_listen(const char *iface, struct sh_uid_info *info)
{
	socklen_t alen = sizeof(info->addr);
	int fd, ret;

	memset(info, 0, sizeof(*info));
	info->addr.sin_family = AF_INET;
	ret = pick_addr(iface ? iface : "", &info->addr.sin_addr);
	if (ret)
		return ret;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&info->addr, sizeof(info->addr)) < 0 ||
	    listen(fd, SOMAXCONN) < 0 ||
	    getsockname(fd, (struct sockaddr *)&info->addr, &alen) < 0) {
		ret = -errno;
		u_err("shmem", "unique id: cannot listen on %s: %s",
		      inet_ntoa(info->addr.sin_addr), strerror(-ret));
		close(fd);
		return ret;
	}
	ret = job_nonce(&info->nonce);
	if (ret) {
		close(fd);
		return ret;
	}
	u_dbg("shmem", "unique id root listens on %s:%u",
	      inet_ntoa(info->addr.sin_addr), ntohs(info->addr.sin_port));
	return fd;
}

int
sh_boot_uid_create(void *uid)
{
	struct sh_uid_info info;
	int fd;

	if (!uid)
		return -EINVAL;
	fd = sh_uid_listen(u_option_str(U_OPT_SH_BOOT_IFACE), &info);
	if (fd < 0)
		return fd;
	pthread_mutex_lock(&held_mu);
	if (held_fd >= 0)
		close(held_fd);
	held_fd = fd;
	held_nonce = info.nonce;
	pthread_mutex_unlock(&held_mu);
	sh_uid_encode(&info, uid);
	return 0;
}

static int
take_listener(uint64_t nonce)
{
	int fd = -1;

	pthread_mutex_lock(&held_mu);
	if (held_fd >= 0 && held_nonce == nonce) {
		fd = held_fd;
		held_fd = -1;
	}
	pthread_mutex_unlock(&held_mu);
	return fd;
}

/* ---- the client ---------------------------------------------------------- */

static void
deadline_in(struct timespec *ts, unsigned s)
{
	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_sec += s;
}

/* Connects to the root, trying again while nobody listens, until the
 * job's deadline end (u_now_ns), then -ETIMEDOUT. */
static int
connect_root(const struct sh_uid_info *info, unsigned timeout_s,
	     uint64_t end)
{
	unsigned delay_ms = 1;
	int one = 1;

	for (;;) {
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -errno;
		/* A host that drops the SYN keeps a blocking connect for
		 * minutes: the deadline bounds it (EINPROGRESS when it ends) */
		uint64_t now = u_now_ns(), left = end > now ? end - now : 0;
		if (left < 1000000)
			left = 1000000;
		struct timeval tv = { .tv_sec = (time_t)(left / 1000000000ull),
				      .tv_usec = (suseconds_t)(left % 1000000000ull /
							       1000) };
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		int err = 0;
		if (connect(fd, (const struct sockaddr *)&info->addr,
			    sizeof(info->addr)) < 0)
			err = errno;
		else if (sh_sock_self_connected(fd))
			err = ECONNREFUSED;
		if (!err) {
			tv = (struct timeval){ 0, 0 };
			setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
			setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one,
				   sizeof(one));
			return fd;
		}
		close(fd);
		if (err != ECONNREFUSED && err != ETIMEDOUT &&
		    err != ENETUNREACH && err != EHOSTUNREACH && err != EINTR &&
		    err != EAGAIN && err != EINPROGRESS) {
			u_err("shmem", "unique id: connect to %s:%u: %s",
			      inet_ntoa(info->addr.sin_addr),
			      ntohs(info->addr.sin_port), strerror(err));
			return -err;
		}
		if (u_now_ns() >= end) {
			bool lo = ntohl(info->addr.sin_addr.s_addr) >> 24 ==
				  127;
			u_err("shmem", "unique id: no root at %s:%u after %u s%s",
			      inet_ntoa(info->addr.sin_addr),
			      ntohs(info->addr.sin_port), timeout_s,
			      lo ? " (a root on loopback serves its own "
				   "machine only: for PEs on other nodes, set "
				   "ZESHMEM_BOOT_IFACE where the id is made)"
				 : "");
			return -ETIMEDOUT;
		}
		struct timespec ts = { 0, (long)delay_ms * 1000000L };
		nanosleep(&ts, NULL);
		if (delay_ms < 100)
			delay_ms *= 2;
	}
}

static void *
reader_main(void *arg)
{
	struct sh_boot *b = arg;
	struct uid_client *c = b->priv;

	for (;;) {
		struct sh_msg m;
		void *data = NULL;
		int ret = sh_sock_read(c->fd, &m, sizeof(m));

		if (ret == 0 && m.type == SH_MSG_RESULT && m.len) {
			if (m.len > SH_BOOT_MAX_GATHER ||
			    !(data = malloc((size_t)m.len)))
				ret = -EPROTO;
			else
				ret = sh_sock_read(c->fd, data, (size_t)m.len);
		}
		if (ret) {
			free(data);
			pthread_mutex_lock(&c->mu);
			if (!c->closing && !c->lost) {
				if (c->root_rank >= 0)
					u_err("shmem", "PE %d: the bootstrap "
						       "root (PE %d) is gone",
					      b->rank, c->root_rank);
				else
					u_err("shmem", "PE %d: the launcher's "
						       "bootstrap server is gone",
					      b->rank);
			}
			c->lost = true;
			pthread_cond_broadcast(&c->cv);
			pthread_mutex_unlock(&c->mu);
			return NULL;
		}
		switch (m.type) {
		case SH_MSG_RESULT:
			pthread_mutex_lock(&c->mu);
			free(c->res_data);
			c->res_data = data;
			c->res_len = (size_t)m.len;
			c->res_seq = m.seq;
			c->res_arg = m.arg;
			c->res_aux = m.aux;
			c->have = true;
			pthread_cond_broadcast(&c->cv);
			pthread_mutex_unlock(&c->mu);
			break;
		case SH_MSG_ABORT: {
			void (*fn)(void) = __atomic_load_n(&b->before_exit,
							   __ATOMIC_ACQUIRE);
			u_info("shmem", "PE %d: PE %d ended the job with status "
					"%d", b->rank, m.aux, m.arg);
			if (fn) /* no atexit handler runs after _exit */
				fn();
			_exit(m.arg);
		}
		case SH_MSG_DEAD:
			pthread_mutex_lock(&c->mu);
			if (c->dead < 0)
				c->dead = m.aux;
			pthread_cond_broadcast(&c->cv);
			pthread_mutex_unlock(&c->mu);
			break;
		default:
			sh_sock_skip(c->fd, m.len);
			break;
		}
	}
}

/* Under c->mu: -EHOSTDOWN (logged, with what) when a PE or the root is
 * known gone, else 0. */
static int
check_alive(struct sh_boot *b, struct uid_client *c, const char *what)
{
	if (c->dead >= 0) {
		u_err("shmem", "PE %d: %s: PE %d died (its bootstrap "
			       "connection closed)", b->rank, what, c->dead);
		return -EHOSTDOWN;
	}
	if (c->lost) {
		if (c->root_rank >= 0)
			u_err("shmem", "PE %d: %s: PE %d died (the bootstrap "
				       "root)", b->rank, what, c->root_rank);
		else
			u_err("shmem", "PE %d: %s: the launcher's bootstrap "
				       "server is gone", b->rank, what);
		return -EHOSTDOWN;
	}
	return 0;
}

static int
uid_coll(struct sh_boot *b, uint32_t kind, const void *mine, size_t len,
	 void *all, const char *what)
{
	struct uid_client *c = b->priv;
	struct timespec end;
	uint32_t seq;
	int ret;

	if (len && (!mine || !all))
		return -EINVAL;
	if (len && len > SH_BOOT_MAX_GATHER / (size_t)b->nranks) {
		u_err("shmem", "PE %d: %s of %zu bytes per PE: too large",
		      b->rank, what, len);
		return -EOVERFLOW;
	}
	pthread_mutex_lock(&c->mu);
	ret = check_alive(b, c, what);
	seq = ++c->seq;
	c->have = false;
	pthread_mutex_unlock(&c->mu);
	if (ret)
		return ret;

	pthread_mutex_lock(&c->send_mu);
	ret = sh_send_msg(c->fd, SH_MSG_COLL, (int32_t)kind, seq, b->rank,
			  mine, len);
	pthread_mutex_unlock(&c->send_mu);
	if (ret) {
		/* The root's end is gone: the same as the reader seeing it
		 * close (which of the two sees it first is chance). */
		u_dbg("shmem", "PE %d: %s: send to the bootstrap root: %s",
		      b->rank, what, strerror(-ret));
		pthread_mutex_lock(&c->mu);
		c->lost = true;
		ret = check_alive(b, c, what);
		pthread_mutex_unlock(&c->mu);
		return ret;
	}

	deadline_in(&end, b->timeout_s);
	pthread_mutex_lock(&c->mu);
	for (;;) {
		if (c->have && c->res_seq == seq)
			break;
		if ((ret = check_alive(b, c, what)))
			goto out;
		if (pthread_cond_timedwait(&c->cv, &c->mu, &end) == ETIMEDOUT) {
			if (c->have && c->res_seq == seq)
				break;
			u_err("shmem", "PE %d: %s: no answer from the other "
				       "PEs in %u s (ZESHMEM_TIMEOUT)",
			      b->rank, what, b->timeout_s);
			ret = -ETIMEDOUT;
			goto out;
		}
	}
	c->have = false;
	ret = c->res_arg;
	if (ret == -EHOSTDOWN) {
		if (c->dead < 0)
			c->dead = c->res_aux;
		ret = check_alive(b, c, what);
	} else if (ret) {
		u_err("shmem", "PE %d: %s failed: %s", b->rank, what,
		      strerror(-ret));
	} else if (c->res_len != len * (size_t)b->nranks) {
		u_err("shmem", "PE %d: %s: %zu bytes back, want %zu", b->rank,
		      what, c->res_len, len * (size_t)b->nranks);
		ret = -EPROTO;
	} else if (len) {
		memcpy(all, c->res_data, c->res_len);
	}
	free(c->res_data);
	c->res_data = NULL;
out:
	pthread_mutex_unlock(&c->mu);
	return ret;
}

static int
uid_allgather(struct sh_boot *b, const void *mine, size_t len, void *all)
{
	return uid_coll(b, SH_COLL_ALLGATHER, mine, len, all, "allgather");
}

static int
uid_barrier(struct sh_boot *b)
{
	return uid_coll(b, SH_COLL_BARRIER, NULL, 0, NULL, "barrier");
}

static void
uid_abort_job(struct sh_boot *b, int status)
{
	struct uid_client *c = b->priv;
	struct timespec end;
	int ret;

	pthread_mutex_lock(&c->send_mu);
	ret = sh_send_msg(c->fd, SH_MSG_ABORT, status, 0, b->rank, NULL, 0);
	pthread_mutex_unlock(&c->send_mu);
	if (ret)
		return;
	/* The server sends the abort back to this PE after every other one;
	 * the reader thread then ends this process. Wait for that (bounded),
	 * so a root that serves from this process relays before it exits. */
	deadline_in(&end, b->timeout_s);
	pthread_mutex_lock(&c->mu);
	while (!c->lost &&
	       pthread_cond_timedwait(&c->cv, &c->mu, &end) != ETIMEDOUT)
		;
	pthread_mutex_unlock(&c->mu);
}

static void
client_free(struct uid_client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	if (c->srv)
		sh_uid_srv_stop(c->srv, false);
	pthread_mutex_destroy(&c->mu);
	pthread_mutex_destroy(&c->send_mu);
	pthread_cond_destroy(&c->cv);
	free(c->res_data);
	free(c);
}

static void
uid_fini(struct sh_boot *b)
{
	struct uid_client *c = b->priv;

	pthread_mutex_lock(&c->mu);
	c->closing = true;
	pthread_mutex_unlock(&c->mu);
	pthread_mutex_lock(&c->send_mu);
	sh_send_msg(c->fd, SH_MSG_BYE, 0, 0, b->rank, NULL, 0);
	pthread_mutex_unlock(&c->send_mu);
	shutdown(c->fd, SHUT_RDWR);
	pthread_join(c->reader, NULL);
	close(c->fd);
	c->fd = -1;
	if (c->srv) {
		/* Serve the others' goodbyes before the socket goes. */
		sh_uid_srv_stop(c->srv, true);
		c->srv = NULL;
	}
	client_free(c);
	b->priv = NULL;
}

/* The PE the server reported dead, or the root when its connection
 * ended; -1 none. */
static int
uid_dead_pe(struct sh_boot *b)
{
	struct uid_client *c = b->priv;
	int pe;

	pthread_mutex_lock(&c->mu);
	pe = c->dead;
	if (pe < 0 && c->lost && !c->closing)
		pe = c->root_rank;
	pthread_mutex_unlock(&c->mu);
	return pe;
}

static int
uid_local_addr(struct sh_boot *b, char *buf, size_t len)
{
	struct uid_client *c = b->priv;
	struct sockaddr_in a;
	socklen_t alen = sizeof(a);

	if (getsockname(c->fd, (struct sockaddr *)&a, &alen) < 0)
		return -errno;
	if (a.sin_family != AF_INET ||
	    !inet_ntop(AF_INET, &a.sin_addr, buf, (socklen_t)len))
		return -EAFNOSUPPORT;
	return 0;
}

static const struct sh_boot_ops uid_ops = {
	.name = "uid",
	.allgather = uid_allgather,
	.barrier = uid_barrier,
	.abort_job = uid_abort_job,
	.fini = uid_fini,
	.dead_pe = uid_dead_pe,
	.local_addr = uid_local_addr,
};

/* The handshake on a new connection. The HELLO goes in one write, with
 * the connect: the server gives a connection little time for it. -EAGAIN:
 * the server closed the connection before it answered (it does that to
 * connections it takes for strangers); the caller connects again. */
static int
hello(struct sh_boot *b, struct uid_client *c, uint64_t nonce, int wait_ms)
{
	struct {
		struct sh_msg m;
		struct sh_hello h;
	} out = {
		.m = { .type = SH_MSG_HELLO, .aux = b->rank,
		       .len = sizeof(struct sh_hello) },
		.h = { .nonce = nonce, .rank = (uint32_t)b->rank,
		       .nranks = (uint32_t)b->nranks,
		       .pid = (uint32_t)getpid(),
		       .version = SH_UID_VERSION },
	};
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	struct sh_msg m;
	int ret;

	_Static_assert(sizeof(out) == sizeof(struct sh_msg) +
					      sizeof(struct sh_hello),
		       "HELLO is one header and one sh_hello");
	ret = sh_sock_write(c->fd, &out, sizeof(out));
	if (ret == -EPIPE || ret == -ECONNRESET)
		return -EAGAIN;
	if (ret)
		goto err;
	do
		ret = poll(&pfd, 1, wait_ms);
	while (ret < 0 && errno == EINTR);
	if (ret == 0) {
		u_err("shmem", "PE %d: the bootstrap root did not answer in "
			       "%u s", b->rank, b->timeout_s);
		return -ETIMEDOUT;
	}
	ret = ret < 0 ? -errno : sh_sock_read(c->fd, &m, sizeof(m));
	if (ret == -EPIPE || ret == -ECONNRESET)
		return -EAGAIN;
	if (ret)
		goto err;
	if (m.type != SH_MSG_WELCOME || m.len) {
		ret = -EPROTO;
		goto err;
	}
	if (m.arg) {
		u_err("shmem", "PE %d of %d: the bootstrap root refused: %s",
		      b->rank, b->nranks, strerror(-m.arg));
		return m.arg;
	}
	c->root_rank = m.aux;
	return 0;
err:
	u_err("shmem", "PE %d: bootstrap handshake: %s", b->rank,
	      strerror(-ret));
	return ret;
}

/* Connects and says HELLO until the root answers, within timeout_s. */
static int
join_root(struct sh_boot *b, struct uid_client *c,
	  const struct sh_uid_info *info)
{
	uint64_t end = u_now_ns() + (uint64_t)b->timeout_s * 1000000000ull;

	for (unsigned tries = 1;; tries++) {
		uint64_t now = u_now_ns();
		int ret;

		if (now >= end) {
			/* no answer in time, whatever the last try met */
			u_err("shmem", "PE %d: no answer from the bootstrap "
				       "root in %u s: it closed the connection "
				       "%u times before it answered",
			      b->rank, b->timeout_s, tries - 1);
			return -ETIMEDOUT;
		}
		ret = connect_root(info, b->timeout_s, end);
		if (ret < 0)
			return ret;
		c->fd = ret;
		ret = hello(b, c, info->nonce,
			    (int)((end - now) / 1000000ull) + 1);
		if (ret != -EAGAIN)
			return ret;
		u_dbg("shmem", "PE %d: the bootstrap root closed the "
			       "connection before it answered: again", b->rank);
		close(c->fd);
		c->fd = -1;
		struct timespec ts = { 0, 10000000L };
		nanosleep(&ts, NULL);
	}
}

int
sh_boot_uid_open(struct sh_boot *b, const void *uid)
{
	struct sh_uid_info info;
	struct uid_client *c;
	sigset_t all, old;
	int lfd, ret;

	ret = sh_uid_decode(uid, &info);
	if (ret)
		return ret;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->fd = -1;
	c->dead = -1;
	c->root_rank = -1;
	pthread_mutex_init(&c->mu, NULL);
	pthread_mutex_init(&c->send_mu, NULL);
	{
		pthread_condattr_t ca;
		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&c->cv, &ca);
		pthread_condattr_destroy(&ca);
	}

	lfd = take_listener(info.nonce);
	if (lfd >= 0) {
		struct sh_uid_srv_cfg cfg = {
			.listen_fd = lfd, .nonce = info.nonce,
			.nranks = b->nranks, .local_rank = b->rank,
			.timeout_s = b->timeout_s,
		};
		ret = sh_uid_srv_start(&cfg, &c->srv);
		if (ret)
			goto err;
	}
	b->priv = c;
	ret = join_root(b, c, &info);
	if (ret)
		goto err;

	/* The reader takes no signals: they stay the program's. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = -pthread_create(&c->reader, NULL, reader_main, b);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		goto err;
	b->ops = &uid_ops;
	return 0;
err:
	b->priv = NULL;
	client_free(c);
	return ret;
}
