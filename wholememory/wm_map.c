// SPDX-License-Identifier: MIT
/*
 * wm_map: the mapped memory types (CONTINUOUS, CHUNKED): one virtual
 * range in every rank with every rank's physical memory at its offset.
 *
 * The range is cut into pages of G bytes (the OS page for HOST memory,
 * zeVirtualMemQueryPageSize of the table for DEVICE memory). Page p
 * belongs to the rank whose partition holds byte p * G: rank r owns pages
 * [ceil(off_r / G), ceil(off_{r+1} / G)) and backs them with one physical
 * object (zePhysicalMemCreate) of its own. When partitions are multiples
 * of G (large tables) every byte lives in its rank's object; otherwise
 * the bytes of a partition that share a page with the previous rank live
 * in that rank's object, which every rank reaches through the same range,
 * so loads and stores agree everywhere.
 *
 * Import: a rank exports its object's memfd (zeMemGetAllocProperties of
 * its mapping with ze_external_memory_export_fd_t), the others take it with
 * pidfd_getfd (every rank is on this node) and make a physical object of
 * it with zePhysicalMemCreate + ze_external_memory_import_fd_t (zemem's
 * driver extension for this: driver/vmm/vmm_phys.c), then zeVirtualMemMap
 * it at the owner's offset. CHUNKED uses the same range: rank r's memory
 * is at base + off_r (and rank_ptr[r] for the CHUNKED DEVICE gref).
 * DISTRIBUTED and HIERARCHY on a communicator of part of the world (one
 * node) are mapped the same way (wm_mem.c says what they may reach).
 * A rank populates its own pages at malloc (MADV_POPULATE_WRITE): the
 * memory is really there when malloc returns, as WholeMemory's is.
 */
#include "wm.h"

#include "u_options.h"
#include "u_os.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>


static int
ze_err(ze_result_t r, const char *what)
{
	if (r == ZE_RESULT_SUCCESS)
		return 0;
	u_err(WM_TOPIC, "%s: 0x%x", what, r);
	if (r == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY ||
	    r == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)
		return -ENOMEM;
	return -EIO;
}

/* A copy of fd number num of process pid (close-on-exec), or -errno. */
static int
take_fd(int pid, int num)
{
	int pfd = u_pidfd_open(pid);
	if (pfd < 0)
		return pfd;
	int fd = u_pidfd_getfd(pfd, num);
	int err = fd < 0 ? fd : 0;
	close(pfd);
	if (err)
		u_err(WM_TOPIC, "pidfd_getfd of pid %d fd %d: %s", pid, num,
		      strerror(-err));
	return err ? err : fd;
}


/* ---- the socket transport ---------------------------------------------- */

/*
 * Where pidfd_getfd is refused (Yama, seccomp) or not wanted
 * (ZEMEM_IPC_TRANSPORT=broker), each owner hands its object's fd to the
 * ranks that ask over an abstract UNIX socket, with SCM_RIGHTS.
 *
 * Names: "zewm-<pid>-<nonce>", the nonce 64 bits from getrandom drawn
 * anew for every exchange, bound BEFORE the names travel to the other
 * ranks inside the communicator (its all-gather runs over the symmetric
 * heap). Nobody outside the job can know a name before it is bound, so
 * nobody can take it first (a name already in use, which only chance
 * could make, is drawn again), as the driver's broker names itself
 * after its process nonce (driver/ipc/ipc_broker.c).
 *
 * Trust: abstract sockets carry no permissions, and a bound name shows in
 * /proc/net/unix, so both ends check SO_PEERCRED. The server serves only
 * the ranks that asked for its fd (this uid, a pid of one of them, each
 * once); anyone else is closed at once and never counts as a member. The
 * client takes an fd only from the owner it meant (this uid, that rank's
 * pid). The ranks of a communicator are on one node and in one pid
 * namespace (the pids are what getpid() said in each). The whole serving
 * has one deadline (SOCK_WAIT_MS), however many strangers knock.
 */

#define SOCK_WAIT_MS 10000
#define SOCK_NAME_TRIES 4

static socklen_t
sock_name(struct sockaddr_un *a, int pid, uint64_t nonce)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	/* abstract: sun_path[0] = 0 */
	int n = snprintf(a->sun_path + 1, sizeof(a->sun_path) - 1,
			 "zewm-%d-%016llx", pid, (unsigned long long)nonce);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
}

struct server {
	pthread_t tid;
	int lfd, fd, n, count, err;
	const int *pid;                   /* [n]: each rank's pid */
	bool *want;                       /* [n]: asked for our fd, unserved */
};

static uint64_t
now_ms(void)
{
	return u_now_ns() / 1000000u;
}

/* Waits until fd is readable, until the monotonic deadline (ms). */
static int
poll_in(int fd, uint64_t deadline)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int r;
	do {
		uint64_t now = now_ms();
		if (now >= deadline)
			return -ETIMEDOUT;
		r = poll(&p, 1, (int)(deadline - now));
	} while (r < 0 && errno == EINTR);
	return r > 0 ? 0 : (r == 0 ? -ETIMEDOUT : -errno);
}

/* The rank that c's peer is, among those still waiting for our fd, or
 * -1 (a stranger, or a member that was served already). */
static int
member_of(const struct server *sv, int c)
{
	struct ucred cr;
	socklen_t cl = sizeof(cr);
	if (getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cr, &cl) != 0 ||
	    cr.uid != geteuid())
		return -1;
	for (int r = 0; r < sv->n; r++)
		if (sv->want[r] && sv->pid[r] == (int)cr.pid)
			return r;
	return -1;
}

static void *
serve(void *arg)
{
	struct server *sv = arg;
	uint64_t deadline = now_ms() + SOCK_WAIT_MS;
	unsigned refused = 0;
	while (sv->count > 0 && !sv->err) {
		int e = poll_in(sv->lfd, deadline);
		int c = e ? -1 : accept4(sv->lfd, NULL, NULL, SOCK_CLOEXEC);
		if (c < 0) {
			if (!e && (errno == EINTR || errno == ECONNABORTED))
				continue;
			sv->err = e ? e : -errno;
			break;
		}
		int r = member_of(sv, c);
		if (r < 0) {
			/* 1, 2, 4, ...: a flood costs no flood of lines */
			refused++;
			if (!(refused & (refused - 1)))
				u_warn(WM_TOPIC, "a process that is no rank "
				       "waiting for it asked for a partition's "
				       "fd: refused (%u time(s))", refused);
			close(c);
			continue;
		}
		char b = 0;
		union {
			char buf[CMSG_SPACE(sizeof(int))];
			struct cmsghdr align;
		} u;
		memset(&u, 0, sizeof(u));
		struct iovec io = { .iov_base = &b, .iov_len = 1 };
		struct msghdr m = { .msg_iov = &io, .msg_iovlen = 1,
				    .msg_control = u.buf,
				    .msg_controllen = sizeof(u.buf) };
		struct cmsghdr *cm = CMSG_FIRSTHDR(&m);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &sv->fd, sizeof(int));
		ssize_t w;
		do
			w = sendmsg(c, &m, MSG_NOSIGNAL);
		while (w < 0 && errno == EINTR);
		if (w != 1)
			sv->err = -EIO;
		sv->want[r] = false;
		sv->count--;
		close(c);
	}
	return NULL;
}

/* The fd of rank pid's partition from its socket @name(pid, nonce). */
static int
sock_fetch(int pid, uint64_t nonce)
{
	struct sockaddr_un a;
	socklen_t al = sock_name(&a, pid, nonce);
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -errno;
	int err = connect(s, (struct sockaddr *)&a, al) ? -errno : 0;
	struct ucred cr;
	socklen_t cl = sizeof(cr);
	if (!err && getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cr, &cl) != 0)
		err = -errno;
	if (!err && (cr.uid != geteuid() || (int)cr.pid != pid)) {
		u_err(WM_TOPIC, "@%s is served by pid %d uid %u, not by the "
		      "rank (pid %d uid %u): refused", a.sun_path + 1,
		      (int)cr.pid, (unsigned)cr.uid, pid,
		      (unsigned)geteuid());
		err = -EACCES;
	}
	if (!err)
		err = poll_in(s, now_ms() + SOCK_WAIT_MS);
	int fd = -1;
	if (!err) {
		char b;
		union {
			char buf[CMSG_SPACE(sizeof(int))];
			struct cmsghdr align;
		} u;
		struct iovec io = { .iov_base = &b, .iov_len = 1 };
		struct msghdr m = { .msg_iov = &io, .msg_iovlen = 1,
				    .msg_control = u.buf,
				    .msg_controllen = sizeof(u.buf) };
		ssize_t r;
		do
			r = recvmsg(s, &m, MSG_CMSG_CLOEXEC);
		while (r < 0 && errno == EINTR);
		struct cmsghdr *cm = r == 1 ? CMSG_FIRSTHDR(&m) : NULL;
		if (cm && cm->cmsg_level == SOL_SOCKET &&
		    cm->cmsg_type == SCM_RIGHTS &&
		    cm->cmsg_len == CMSG_LEN(sizeof(int)))
			memcpy(&fd, CMSG_DATA(cm), sizeof(int));
		else
			err = -EPROTO;
	}
	close(s);
	if (err)
		u_err(WM_TOPIC, "fd of pid %d over its socket: %s", pid,
		      strerror(-err));
	return err ? err : fd;
}

/* A listening socket under a fresh random name: its fd (nonce in
 * *nonce), or -errno. */
static int
sock_listen(int backlog, uint64_t *nonce)
{
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -errno;
	int err = -EADDRINUSE;
	for (int t = 0; t < SOCK_NAME_TRIES && err == -EADDRINUSE; t++) {
		struct sockaddr_un a;
		if ((err = u_random(nonce, sizeof(*nonce))))
			break;
		socklen_t al = sock_name(&a, (int)getpid(), *nonce);
		err = bind(s, (struct sockaddr *)&a, al) ? -errno : 0;
	}
	if (!err && listen(s, backlog))
		err = -errno;
	if (err) {
		u_err(WM_TOPIC, "a socket for this rank's partition: %s",
		      strerror(-err));
		close(s);
		return err;
	}
	return s;
}

/* Collective: every rank gets the fds got[r] < 0 it lacks (r with
 * pages), from their owners over sockets. 0 or -errno (agreed). */
static int
sock_exchange(struct wholememory_handle_ *h, int mine_fd, const bool *owns,
	      int *got)
{
	struct wholememory_comm_ *c = h->comm;
	int n = c->size, me = c->rank;
	/* each rank's card: its socket's nonce, then what it needs */
	size_t card = (sizeof(uint64_t) + (size_t)n + 7) / 8 * 8;
	uint8_t *mine = calloc(1, card), *all = calloc((size_t)n, card);
	int *pid = calloc((size_t)n, sizeof(int));
	bool *want = calloc((size_t)n, sizeof(bool));
	struct server sv = { .lfd = -1, .fd = mine_fd, .n = n, .pid = pid,
			     .want = want };
	int err = mine && all && pid && want ? 0 : -ENOMEM;
	uint64_t nonce = 0;
	bool serves = false;
	for (int r = 0; !err && r < n; r++) {
		pid[r] = wm_pe_pid(c->pe[r]);
		mine[sizeof(uint64_t) + r] = r != me && owns[r] && got[r] < 0;
		serves = serves || (r != me && owns[me]);
	}
	/* listening before anyone learns the name */
	if (!err && serves && mine_fd >= 0) {
		sv.lfd = sock_listen(n, &nonce);
		err = sv.lfd < 0 ? sv.lfd : 0;
	}
	if (mine)
		memcpy(mine, &nonce, sizeof(nonce));
	err = wm_agree(c, err);
	if (!err)
		err = wm_allgather(c, mine, card, all);
	for (int r = 0; !err && r < n; r++) {
		want[r] = all[(size_t)r * card + sizeof(uint64_t) + me];
		sv.count += want[r];
	}
	if (!err && sv.count && sv.lfd < 0)
		err = -EPROTO; /* asked for what this rank does not own */
	bool started = false;
	if (!err && sv.count) {
		err = -pthread_create(&sv.tid, NULL, serve, &sv);
		started = !err;
	}
	for (int r = 0; !err && r < n; r++) {
		if (!mine[sizeof(uint64_t) + r])
			continue;
		uint64_t theirs;
		memcpy(&theirs, all + (size_t)r * card, sizeof(theirs));
		int fd = sock_fetch(pid[r], theirs);
		if (fd < 0)
			err = fd;
		else
			got[r] = fd;
	}
	if (started) {
		if (err) /* wakes its accept: it ends */
			shutdown(sv.lfd, SHUT_RDWR);
		pthread_join(sv.tid, NULL);
		if (!err)
			err = sv.err;
	}
	if (sv.lfd >= 0)
		close(sv.lfd);
	free(mine);
	free(all);
	free(pid);
	free(want);
	return wm_agree(c, err);
}

/* Faults this rank's fresh pages in now (and zero-fills them), as a
 * real device allocation is made at malloc: a first load_from_file or
 * scatter would otherwise take one fault per 4 KiB page. Where the
 * kernel cannot (MADV_POPULATE_WRITE is Linux 5.14) the pages fault in
 * on first touch, as before. */
static void
populate(void *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	if (madvise(p, len, MADV_POPULATE_WRITE) != 0)
		u_dbg(WM_TOPIC, "MADV_POPULATE_WRITE of %zu bytes: %s; the "
		      "pages fault in on first touch", len, strerror(errno));
#else
	(void)p;
	(void)len;
#endif
}

struct page_run {
	size_t first, n;                  /* in pages */
};

static struct page_run
run_of(const struct wholememory_handle_ *h, int r, size_t g)
{
	struct page_run pr;
	pr.first = (h->offs[r] + g - 1) / g;
	size_t end = (h->offs[r + 1] + g - 1) / g;
	pr.n = end > pr.first ? end - pr.first : 0;
	return pr;
}

static int
make_phys(const struct wholememory_handle_ *h, size_t size, int import_fd,
	  ze_physical_mem_handle_t *out)
{
	ze_external_memory_import_fd_t im = {
		.stype = ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD,
		.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD,
		.fd = import_fd,
	};
	ze_physical_mem_desc_t d = {
		.stype = ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC,
		.pNext = import_fd >= 0 ? &im : NULL,
		.flags = h->loc == WHOLEMEMORY_ML_HOST ?
				 ZE_PHYSICAL_MEM_FLAG_ALLOCATE_ON_HOST :
				 ZE_PHYSICAL_MEM_FLAG_ALLOCATE_ON_DEVICE,
		.size = size,
	};
	return ze_err(zePhysicalMemCreate(wm_ze_ctx(), wm_ze_dev(), &d, out),
		      "zePhysicalMemCreate");
}

static size_t
page_of(const struct wholememory_handle_ *h)
{
	if (h->loc == WHOLEMEMORY_ML_HOST)
		return (size_t)sysconf(_SC_PAGESIZE);
	size_t g = 0;
	if (zeVirtualMemQueryPageSize(wm_ze_ctx(), wm_ze_dev(), h->total,
				      &g) != ZE_RESULT_SUCCESS || !g)
		g = 2u << 20;
	return g;
}

int
wm_map_create(struct wholememory_handle_ *h)
{
	struct wholememory_comm_ *c = h->comm;
	int n = c->size, me = c->rank;
	size_t g = page_of(h);
	size_t t = (h->total + g - 1) / g * g;
	size_t rp = 0;
	int err = 0;
	int32_t mine_fd = -1;
	int32_t *fds = calloc(n, sizeof(int32_t));
	h->imp = calloc(n, sizeof(*h->imp));
	h->mapped = calloc(n, sizeof(bool));
	h->rank_ptr = calloc(n, sizeof(void *));
	if (!fds || !h->imp || !h->mapped || !h->rank_ptr) {
		err = -ENOMEM;
		goto agree;
	}
	if (zeVirtualMemQueryPageSize(wm_ze_ctx(), wm_ze_dev(), t, &rp) !=
	    ZE_RESULT_SUCCESS || !rp)
		rp = g;
	h->range = (t + rp - 1) / rp * rp;
	void *base = NULL;
	err = ze_err(zeVirtualMemReserve(wm_ze_ctx(), NULL, h->range, &base),
		     "zeVirtualMemReserve");
	if (err)
		goto agree;
	h->base = base;
	struct page_run my = run_of(h, me, g);
	if (my.n) {
		err = make_phys(h, my.n * g, -1, &h->mine);
		if (err)
			goto agree;
		err = ze_err(zeVirtualMemMap(wm_ze_ctx(),
			h->base + my.first * g, my.n * g, h->mine, 0,
			ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
			"zeVirtualMemMap");
		/* the object's memfd (driver-owned), through the mapping:
		 * zePhysicalMemGetProperties is not in every loader */
		ze_external_memory_export_fd_t xf = {
			.stype = ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD,
			.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD,
			.fd = -1,
		};
		ze_memory_allocation_properties_t ap = {
			.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES,
			.pNext = &xf,
		};
		if (!err)
			err = ze_err(zeMemGetAllocProperties(wm_ze_ctx(),
				h->base + my.first * g, &ap, NULL),
				"zeMemGetAllocProperties (export fd)");
		mine_fd = err ? -1 : xf.fd;
		if (!err)
			h->mapped[me] = true;
		if (!err)
			populate(h->base + my.first * g, my.n * g);
	}
agree:
	err = wm_agree(c, err);
	if (!err)
		err = wm_allgather(c, &mine_fd, sizeof(mine_fd), fds);
	/* the owners' fds: pidfd_getfd, else (or by option) sockets */
	const char *mode = u_option_str(U_OPT_IPC_TRANSPORT);
	bool use_pidfd = strcmp(mode, "broker") && strcmp(mode, "none");
	bool use_sock = strcmp(mode, "pidfd") && strcmp(mode, "none");
	int *got = calloc(n, sizeof(int));
	bool *owns = calloc(n, sizeof(bool));
	if (!err && (!got || !owns))
		err = -ENOMEM;
	for (int r = 0; got && owns && r < n; r++) {
		got[r] = -1;
		owns[r] = run_of(h, r, g).n > 0;
	}
	for (int r = 0; !err && r < n; r++) {
		if (r == me || !owns[r] || !use_pidfd)
			continue;
		int fd = take_fd(wm_pe_pid(c->pe[r]), fds[r]);
		if (fd >= 0)
			got[r] = fd;
		else if (!use_sock || (fd != -EPERM && fd != -ENOSYS &&
				       fd != -EACCES))
			err = fd;
	}
	bool peers = false;
	for (int r = 0; owns && r < n; r++)
		peers = peers || (r != me && owns[r]);
	if (!err && peers && !use_pidfd && !use_sock) {
		u_err(WM_TOPIC, "ZEMEM_IPC_TRANSPORT=none: no way to map "
		      "the peers' partitions");
		err = -EOPNOTSUPP;
	}
	err = wm_agree(c, err);
	if (!err && use_sock)
		err = sock_exchange(h, mine_fd, owns, got);
	for (int r = 0; !err && r < n; r++) {
		struct page_run pr = run_of(h, r, g);
		if (r == me || !pr.n)
			continue;
		err = make_phys(h, pr.n * g, got[r], &h->imp[r]);
		if (!err)
			err = ze_err(zeVirtualMemMap(wm_ze_ctx(),
				h->base + pr.first * g, pr.n * g, h->imp[r], 0,
				ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
				"zeVirtualMemMap");
		if (!err)
			h->mapped[r] = true;
	}
	for (int r = 0; got && r < n; r++)
		if (got[r] >= 0)
			close(got[r]);
	free(got);
	free(owns);
	free(fds);
	err = wm_agree(c, err);
	if (err) {
		wm_map_destroy(h);
		return err;
	}
	h->local = h->base + h->offs[me];
	for (int r = 0; r < n; r++)
		h->rank_ptr[r] = h->base + h->offs[r];
	return 0;
}

void
wm_map_destroy(struct wholememory_handle_ *h)
{
	if (h->base) {
		size_t g = page_of(h);
		for (int r = 0; h->mapped && r < h->comm->size; r++) {
			if (!h->mapped[r])
				continue;
			struct page_run pr = run_of(h, r, g);
			zeVirtualMemUnmap(wm_ze_ctx(), h->base + pr.first * g,
					  pr.n * g);
		}
		zeVirtualMemFree(wm_ze_ctx(), h->base, h->range);
	}
	for (int r = 0; h->imp && r < h->comm->size; r++)
		if (h->imp[r])
			zePhysicalMemDestroy(wm_ze_ctx(), h->imp[r]);
	if (h->mine)
		zePhysicalMemDestroy(wm_ze_ctx(), h->mine);
	free(h->imp);
	free(h->mapped);
	free(h->rank_ptr);
	h->imp = NULL;
	h->mapped = NULL;
	h->rank_ptr = NULL;
	h->mine = NULL;
	h->base = NULL;
	h->local = NULL;
}
