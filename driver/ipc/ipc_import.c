// SPDX-License-Identifier: MIT
/*
 * ipc_import: the importer side. zeMemOpenIpcHandle gets the exporter's
 * file through a transport, checks it, maps the allocation's pages and
 * records the mapping; zeMemCloseIpcHandle undoes that. Allocations made
 * with ze_external_memory_import_fd_t are imports too (freed by zeMemFree).
 *
 * Transports, in order (never a raw fd number of another process):
 *   appfd   bytes 0..3 differ from the fd copy: the application passed the
 *           fd itself (SCM_RIGHTS) and wrote its local number there;
 *   local   the exporter is this process: its export table;
 *   pidfd   pidfd_getfd(fd copy), through a pidfd of the exporter kept in a
 *           small table (16 processes; emptied when a context goes);
 *   broker  the exporter's broker socket (ipc_broker.c);
 *   appfd   last, bytes 0..3 untouched: the application's fd may have
 *           received the exporter's number; used only if it is provably
 *           the exporter's open file (see check_file).
 * ZEMEM_IPC_TRANSPORT limits pidfd and broker ("auto", "pidfd", "broker",
 * "none"). Whatever delivered the fd, it must be the file the handle names
 * (inode, dma-buf or memfd), carry F_SEAL_SHRINK when it is a memfd, and
 * cover [offset, offset + size).
 *
 * Authentication (issue 14). Every MEM handle carries its export's secret
 * (the tag: random, with the kind and WHOLE in its low byte). The local
 * and broker transports hand out a file only when the exporter finds every
 * field of the handle, the secret included, in a live export. The appfd
 * and pidfd transports get a file without asking the exporter, so the file
 * must prove it: only TAGGED handles use them, and the file's access time
 * (seconds, nanoseconds 0: the fstat every import makes reads it) or its
 * position (shared by every fd of the exporter's open file description)
 * must be the secret. The exporter writes both and clears both; the
 * access time is only there on files that keep it (FS_NOATIME_FL, so no
 * read or mapping changes it), and where it is not, one lseek asks the
 * position. A pidfd take needs neither when the exporter's board
 * (ipc_board.c, mapped once per exporter into its pidfd slot) vouches for
 * the file: its entry for the export held, with the handle's fd number,
 * inode and secret, from before the take to after it. An untagged handle
 * (dma-buf, no reopen) opens only through the exporter (local, broker). A file taken by pidfd_getfd that is not
 * the one named is let go without dropping our POSIX locks.
 *
 * Cache: one fd per (exporter pid, nonce, tag, inode) - per export, since
 * each export has its own secret - refcounted by the imports that map it;
 * the last close closes it (the importer keeps no memory alive after
 * that). A hit is used only after it is revalidated against the
 * exporter's live state: local, the export table; else the board entry
 * that vouched for the file still reads the same and the exporter's pidfd
 * says it is alive (one poll), or kcmp says the exporter still holds this
 * very open file at the handle's fd number (a put of the last handle
 * closes or rekeys it) and its position is still the secret. When that
 * cannot be told (kcmp refused, another pid namespace), or the check fails, the entry leaves the cache (its imports
 * keep it) and the file is fetched again, which fails for a stale handle.
 * Every open makes a new mapping: 2000 opens give 2000 addresses aliasing
 * the same pages.
 *
 * Index: the driver's address map (amap.h) is the import index: each
 * import is an IPC_IMPORT entry whose owner is its record, so any interior
 * pointer finds it, and zeMemFree / GetAllocProperties / GetAddressRange
 * and the copy engine learn what it is from the same one lookup.
 *
 * Locking: import_lock (a u_lock: a cold open and its close take it once
 * each) protects the cache; index_lock (rwlock) serialises
 * taking a context's imports out (context destroy, fork); opens and
 * closes change the index through amap alone (an import is checked and
 * taken out under amap_lock, amap_take_if, and is then the closer's);
 * pidfd_lock (rwlock, a leaf) the pidfd table and is held across
 * pidfd_getfd only. Order import_lock -> index_lock -> export_lock; no
 * other lock is held across mmap / munmap, a transport or a cache entry's
 * revalidation (the entry is held by a reference meanwhile).
 */
#include "ipc.h"
#include "u_fork.h"
#include "u_lock.h"
#include "u_options.h"
#include "u_os.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

struct cent {
	struct cent *hnext; /* the next of its bucket */
	uint64_t key;
	int32_t pid;
	uint64_t nonce, tag;
	uint32_t ino;
	bool hashed;     /* in the cache (external imports are not) */
	bool dmabuf;
	int fd;
	uint64_t fsize;
	size_t granule;
	uint64_t bseq;   /* the board's word that vouched for fd, or 0 */
	uint32_t refs;
	void *mem;       /* the allocation it lives in: an import's record */
};

/* An import's record carries room for a cache entry: the import that
 * makes an entry (the first of its file) makes it there, so a cold open
 * allocates once. The record then lives as long as the entry (its other
 * imports hold it): cent_put frees ce->mem, import_release the rest. */
struct import {
	void *ptr;       /* what open returned: base of the import */
	size_t size;
	void *map;
	size_t map_len;
	uint8_t kind;
	bool external;
	struct _ze_context_handle_t *ctx;
	uint64_t ctx_serial;
	struct _ze_device_handle_t *dev;
	uint64_t id;
	struct cent *ce;
	struct cent own; /* the entry, when this import made it */
};

static u_lock_t import_lock = U_LOCK_INIT;
static pthread_rwlock_t index_lock = PTHREAD_RWLOCK_INITIALIZER;
/* The cache: chains of entries by key, linked through the entries
 * themselves (an insert or unlink is a few stores, nothing allocated). */
#define CACHE_BUCKETS 1024 /* a power of two */
static struct cent *cache[CACHE_BUCKETS];
/* Entries in cache (written under import_lock): an open skips its first
 * look at the cache while it is empty (a miss for sure; the look after
 * the fetch, under the lock, still finds another thread's entry). */
static _Atomic size_t n_cached;
static _Atomic uint64_t next_import_id;
/* One record kept for the next open (cold opens and closes one at a
 * time make and free one each): taken and given back by one atomic
 * exchange, where malloc and free cost ~130 instructions. */
static _Atomic(struct import *) spare;
/* How this thread got its last fd (for the debug log). */
static _Thread_local const char *last_transport = "none";

/* ---- the cache ---------------------------------------------------------- */

static struct import *
record_new(void)
{
	struct import *im = atomic_exchange_explicit(&spare, NULL,
						     memory_order_acquire);
	return im ? im : malloc(sizeof(*im));
}

static void
record_free(struct import *im)
{
	struct import *none = NULL;
	if (!atomic_compare_exchange_strong_explicit(&spare, &none, im,
						     memory_order_release,
						     memory_order_relaxed))
		free(im);
}

/* close(2) without glibc's cancellation point around it (~80
 * instructions in a threaded process): a file of ours, nothing to wait
 * for. */
static void
fd_close(int fd)
{
	syscall(SYS_close, fd);
}

/* (pid, ino) in one word is one-to-one (both 32 bits): two rounds. */
static uint64_t
cent_key(int32_t pid, uint64_t nonce, uint64_t tag, uint32_t ino)
{
	return ipc_hash64(nonce ^ ipc_hash64(tag ^ ((uint64_t)(uint32_t)pid
						     << 32 | ino)));
}

/* n_cached += d (wraps for a decrement): under import_lock, so a load and
 * a store. */
static void
cached_add(size_t d)
{
	atomic_store_explicit(&n_cached,
			      atomic_load_explicit(&n_cached,
						   memory_order_relaxed) + d,
			      memory_order_relaxed);
}

static struct cent **
bucket(uint64_t key)
{
	return &cache[key & (CACHE_BUCKETS - 1)];
}

static struct cent *
cent_find(uint64_t key, int32_t pid, uint64_t nonce, uint64_t tag,
	  uint32_t ino)
{
	for (struct cent *e = *bucket(key); e; e = e->hnext)
		if (e->key == key && e->pid == pid && e->nonce == nonce &&
		    e->tag == tag && e->ino == ino)
			return e;
	return NULL;
}

static void
cent_link(struct cent *e)
{
	struct cent **head = bucket(e->key);
	e->hnext = *head;
	*head = e;
	cached_add(1);
}

static void
cent_unlink(struct cent *e)
{
	cached_add((size_t)-1);
	struct cent **pp = bucket(e->key);
	while (*pp != e)
		pp = &(*pp)->hnext;
	*pp = e->hnext;
}

/* Drops a reference; the last closes the file and frees the entry's
 * allocation (the record it lives in). */
static void
cent_put(struct cent *e)
{
	u_lock(&import_lock);
	bool last = --e->refs == 0;
	if (last && e->hashed)
		cent_unlink(e);
	u_unlock(&import_lock);
	if (last) {
		fd_close(e->fd);
		record_free(e->mem);
	}
}

static bool board_holds(const struct ipc_desc *d, uint64_t seq);

/* Is the cached file of ce still what d names, by the exporter's live
 * state? Without import_lock (it may ask the broker); ce is held. */
static bool
cent_valid(const struct cent *ce, const struct ipc_desc *d, bool local)
{
	if (d->type == IPC_TYPE_FD) /* this process's own fd, as before */
		return !ce->tag || ipc_fd_get_pos(ce->fd) == ce->tag;
	if (local)
		return ipc_export_live(d);
	/* The entry that vouched for the file still holds: the exporter
	 * still has this file at that number with that tag (it withdraws
	 * the entry before it closes or retags). */
	if (ce->bseq && board_holds(d, ce->bseq))
		return true;
	if ((d->flags & IPC_FLAG_TAGGED) && ipc_fd_get_pos(ce->fd) != d->tag)
		return false;
	int r = ipc_kcmp_file(getpid(), ce->fd, d->pid, d->fd_copy);
	if (r < 0 && r != -EBADF && r != -ESRCH)
		u_dbg("ipc", "kcmp with pid %d: %s; fetching again",
		      (int)d->pid, strerror(-r));
	if (r || (d->flags & IPC_FLAG_TAGGED))
		return r == 0;
	/* Untagged (a shared segment): the file says nothing about this
	 * export; its exporter does. */
	bool pidfd, broker;
	ipc_transports(&pidfd, &broker);
	return broker && !ipc_broker_check(d);
}

/* ---- transports --------------------------------------------------------- */

/* Is fd the file d names, usable for the mapping d asks for? */
static int
check_file(int fd, const struct ipc_desc *d, struct ipc_fdinfo *fi)
{
	int err = ipc_fd_inspect_file(fd, fi); /* read-only: mmap says */
	if (err)
		return err == -EBADF ? -ESTALE : err;
	if ((uint32_t)fi->ino != d->ino)
		return -ESTALE;
	if ((d->flags & IPC_FLAG_DMABUF) ? !fi->dmabuf : !fi->shmem)
		return -ESTALE;
	if ((d->flags & IPC_FLAG_TAGGED) && !ipc_fd_has_tag(fd, fi, d->tag))
		return -ESTALE;
	if (fi->shmem && !(fi->seals & F_SEAL_SHRINK))
		return -EBADF;
	if (!fi->writable)
		return -EBADF;
	if (d->offset + d->size > fi->size)
		return -ERANGE;
	return 0;
}

/* A CLOEXEC dup of a local fd that must be the file of d. */
static int
take_local(int fd, const struct ipc_desc *d, struct ipc_fdinfo *fi)
{
	if (fcntl(fd, F_GETFD) < 0)
		return -ESTALE;
	int err = check_file(fd, d, fi);
	if (err)
		return err;
	return ipc_fd_dup(fd);
}

/* ---- pidfds of exporters ------------------------------------------------ */

#define PIDFD_SLOTS 16

static pthread_rwlock_t pidfd_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct {
	int32_t pid;
	int fd;               /* 0: free slot (fd 0 is never a pidfd here) */
	_Atomic uint64_t used;
	const void *board;    /* the exporter's board (ipc_board.c), or NULL */
	uint64_t board_nonce; /* the process (nonce) and board code (fd + 1) */
	uint16_t board_code;  /* last tried: that board, or none for them */
} pidfds[PIDFD_SLOTS];
static _Atomic uint64_t pidfd_clock;

static int
taken(int r)
{
	if (r == -EPERM)
		return -EACCES;
	return r == -EBADF ? -ESTALE : r;
}

/* The slot of pid's pidfd, or -1 (pidfd_lock held). */
static int
pidfd_slot(int32_t pid)
{
	for (int i = 0; i < PIDFD_SLOTS; i++)
		if (pidfds[i].fd > 0 && pidfds[i].pid == pid)
			return i;
	return -1;
}

/* Is d's exporter's board worth trying to map into slot i (pidfd_lock
 * held)? Not when the slot holds that process's board, or a try for that
 * process and board code failed; a process that exec'ed (same pid, new
 * nonce) gets its new one. */
static bool
board_untried(int i, const struct ipc_desc *d)
{
	return pidfds[i].board_nonce != d->nonce ||
	       (!pidfds[i].board && pidfds[i].board_code != d->device);
}

/* Where d (a MEM handle, or NULL) is given: its exporter's board may vouch
 * for the file taken (*vouched, *fi filled: ipc_board.c), and *board_want
 * says that this exporter's board is worth mapping (board_attach). */
static int
pidfd_take(int32_t pid, int num, const struct ipc_desc *d,
	   struct ipc_fdinfo *fi, bool *vouched, bool *board_want,
	   uint64_t *bseq)
{
	int r = -ESRCH;
	pthread_rwlock_rdlock(&pidfd_lock);
	int k = pidfd_slot(pid);
	bool found = k >= 0;
	if (found) {
		/* Roughly least recently used is enough: no locked increment
		 * of the clock on every take. */
		uint64_t now = atomic_load_explicit(&pidfd_clock,
						    memory_order_relaxed);
		atomic_store_explicit(&pidfd_clock, now + 1,
				      memory_order_relaxed);
		atomic_store_explicit(&pidfds[k].used, now,
				      memory_order_relaxed);
		uint64_t seq = d ? ipc_board_vouch(pidfds[k].board, d, fi) : 0;
		r = u_pidfd_getfd(pidfds[k].fd, num);
		if (seq && r >= 0 && ipc_board_still(pidfds[k].board, d, seq)) {
			*vouched = true;
			*bseq = seq;
		}
		if (d)
			*board_want = board_untried(k, d);
	}
	pthread_rwlock_unlock(&pidfd_lock);
	if (found && r != -ESRCH)
		return taken(r);
	/* None, or its process is gone (the pid may be someone's now). */
	int pfd = u_pidfd_open(pid);
	if (pfd < 0)
		return pfd == -EPERM ? -EACCES : pfd;
	r = u_pidfd_getfd(pfd, num);
	if (r == -ESRCH || pfd == 0) {
		close(pfd);
		return taken(r);
	}
	int old = -1;
	const void *old_board = NULL;
	pthread_rwlock_wrlock(&pidfd_lock);
	int slot = 0;
	for (int i = 0; i < PIDFD_SLOTS; i++) {
		if (pidfds[i].fd > 0 && pidfds[i].pid == pid) {
			slot = i;
			break;
		}
		if (pidfds[i].fd <= 0 ||
		    (pidfds[slot].fd > 0 && pidfds[i].used < pidfds[slot].used))
			slot = i;
	}
	if (pidfds[slot].fd > 0) {
		old = pidfds[slot].fd;
		old_board = pidfds[slot].board;
		pidfds[slot].board = NULL;
		pidfds[slot].board_nonce = 0;
		pidfds[slot].board_code = 0;
	}
	pidfds[slot].pid = pid;
	pidfds[slot].fd = pfd;
	atomic_store(&pidfds[slot].used, atomic_fetch_add(&pidfd_clock, 1));
	pthread_rwlock_unlock(&pidfd_lock);
	if (old >= 0)
		close(old);
	ipc_board_unmap(old_board);
	if (d)
		*board_want = true;
	return taken(r);
}

int
ipc_pidfd_take(int32_t pid, int num)
{
	return pidfd_take(pid, num, NULL, NULL, NULL, NULL, NULL);
}

/* Does the board entry of d's exporter still read seq, and is the exporter
 * alive (see cent_valid)? A board outlives its process (our mapping keeps
 * it, its entries as they were): the pidfd, readable once the process
 * exited, says (one poll, where kcmp and lseek were two calls). */
static bool
board_holds(const struct ipc_desc *d, uint64_t seq)
{
	bool holds = false;
	pthread_rwlock_rdlock(&pidfd_lock);
	int i = pidfd_slot(d->pid);
	if (i >= 0) {
		struct pollfd pf = { .fd = pidfds[i].fd, .events = POLLIN };
		holds = ipc_board_still(pidfds[i].board, d, seq) &&
			poll(&pf, 1, 0) == 0;
	}
	pthread_rwlock_unlock(&pidfd_lock);
	return holds;
}

/* Maps the board of d's exporter (its fd number + 1 is d->device, see
 * ipc_export.c) into its pidfd slot, once per exporter process: later
 * cold opens of its handles need no fstat. Nothing when it is no board
 * (d->device is anything a handle may carry). true when it mapped one. */
static bool
board_attach(const struct ipc_desc *d)
{
	int bfd = -ESRCH, pfd = 0;
	pthread_rwlock_rdlock(&pidfd_lock);
	int i = pidfd_slot(d->pid);
	if (i >= 0 && board_untried(i, d)) {
		pfd = pidfds[i].fd;
		bfd = u_pidfd_getfd(pfd, (int)d->device - 1);
	}
	pthread_rwlock_unlock(&pidfd_lock);
	if (!pfd)
		return false;
	const void *b = NULL;
	int err = bfd;
	if (bfd >= 0) {
		err = ipc_board_map(bfd, d->pid, d->nonce, &b);
		if (err)
			ipc_fd_drop_taken(bfd); /* not a board: maybe locked */
		else
			fd_close(bfd); /* the mapping keeps it */
	}
	if (err)
		u_dbg("ipc", "no board of pid %d (fd %d): %s; its cold opens "
			     "check each file", (int)d->pid, (int)d->device - 1,
		      strerror(-err));
	bool mapped = false;
	pthread_rwlock_wrlock(&pidfd_lock);
	i = pidfd_slot(d->pid);
	/* Still the slot it was, and no other thread's try meanwhile. */
	if (i >= 0 && pidfds[i].fd == pfd && board_untried(i, d)) {
		pidfds[i].board_nonce = d->nonce;
		pidfds[i].board_code = d->device;
		if (b) { /* replaces a board of the pid's old image */
			const void *was = pidfds[i].board;
			pidfds[i].board = b;
			b = was;
			mapped = true;
		}
	}
	pthread_rwlock_unlock(&pidfd_lock);
	ipc_board_unmap(b);
	return mapped;
}

static void
pidfds_flush(void)
{
	pthread_rwlock_wrlock(&pidfd_lock);
	for (int i = 0; i < PIDFD_SLOTS; i++)
		if (pidfds[i].fd > 0) {
			close(pidfds[i].fd);
			pidfds[i].fd = 0;
			ipc_board_unmap(pidfds[i].board);
			pidfds[i].board = NULL;
			pidfds[i].board_nonce = 0;
			pidfds[i].board_code = 0;
		}
	pthread_rwlock_unlock(&pidfd_lock);
}

static int
severity(int err)
{
	switch (err) {
	case -EACCES: return 4;
	case -ESTALE: return 3;
	case -ESRCH: return 2;
	case 0: return 0;
	default: return 1;
	}
}

int
ipc_err_worse(int a, int b)
{
	return severity(b) > severity(a) ? b : a;
}

void
ipc_transports(bool *pidfd, bool *broker)
{
	static _Atomic bool warned;
	/* The last answer with the option's string it read (a new parse of
	 * the options gives a new string), in one word: the string's
	 * address shifted by 2, pidfd and broker in the low bits. Every
	 * cold open asks; the mode is read once. */
	static _Atomic uint64_t seen;
	const char *mode = u_option_str(U_OPT_IPC_TRANSPORT);
	uint64_t was = atomic_load_explicit(&seen, memory_order_relaxed);
	if (was >> 2 == (uintptr_t)mode) {
		*pidfd = was & 1;
		*broker = was & 2;
		return;
	}
	bool any = !strcmp(mode, "auto");
	*pidfd = any || !strcmp(mode, "pidfd");
	*broker = any || !strcmp(mode, "broker");
	if (!*pidfd && !*broker && strcmp(mode, "none")) {
		if (!atomic_exchange(&warned, true))
			u_warn("ipc", "ZEMEM_IPC_TRANSPORT=\"%s\" is not auto, "
				      "pidfd, broker or none; using auto",
			       mode);
		*pidfd = *broker = true;
	}
	if ((uintptr_t)mode <= UINT64_MAX >> 2)
		atomic_store_explicit(&seen, (uint64_t)(uintptr_t)mode << 2 |
					     (uint64_t)*pidfd |
					     (uint64_t)*broker << 1,
				      memory_order_relaxed);
}

/* Gets a checked fd of the file of d; 0 or -errno. */
static int
fetch(const struct ipc_desc *d, bool local, int *out,
      struct ipc_fdinfo *fi, uint64_t *bseq)
{
	*bseq = 0;
	bool pidfd, broker;
	ipc_transports(&pidfd, &broker);
	/* Can the file prove the secret itself (appfd, pidfd)? */
	bool tagged = d->flags & IPC_FLAG_TAGGED;
	int fd, err, e_app = 0, e_pidfd = 0, e_broker = 0;
	if (d->type == IPC_TYPE_FD) {
		fd = take_local(d->fd, d, fi);
		if (fd < 0)
			return fd;
		last_transport = "appfd";
		goto ok;
	}
	if (ipc_handle_fd_replaced(d) && !tagged) {
		e_app = -EOPNOTSUPP;
		u_dbg("ipc", "fd %d in the handle: an untagged handle opens "
			     "only through its exporter", d->fd);
	} else if (ipc_handle_fd_replaced(d)) {
		fd = take_local(d->fd, d, fi);
		if (fd >= 0) {
			last_transport = "appfd";
			goto ok;
		}
		e_app = fd;
		u_dbg("ipc", "fd %d in the handle is not its file: %s", d->fd,
		      strerror(-fd));
	}
	if (local) {
		if ((err = ipc_export_fetch(d, &fd)))
			return err;
		if ((err = check_file(fd, d, fi)))
			goto err_close;
		last_transport = "local";
		goto ok;
	}
	if (pidfd && !tagged) {
		e_pidfd = -EOPNOTSUPP; /* the file cannot prove the secret */
	} else if (pidfd) {
		bool vouched = false, board_want = false;
		fd = pidfd_take(d->pid, d->fd_copy, d, fi, &vouched,
				&board_want, bseq);
		if (fd >= 0 && !vouched && board_want && d->device &&
		    u_option_u64(U_OPT_IPC_BOARD) && board_attach(d)) {
			/* The first open of this exporter's handles: take
			 * again, now that its board can vouch (the entry must
			 * hold across the take itself). */
			int fd2 = pidfd_take(d->pid, d->fd_copy, d, fi,
					     &vouched, &board_want, bseq);
			if (fd2 >= 0 && vouched) {
				ipc_fd_drop_taken(fd);
				fd = fd2;
			} else if (fd2 >= 0) {
				ipc_fd_drop_taken(fd2);
			}
		}
		if (!vouched)
			*bseq = 0;
		if (fd >= 0 && !vouched && (e_pidfd = check_file(fd, d, fi))) {
			ipc_fd_drop_taken(fd);
			fd = -1;
		} else if (fd >= 0) {
			last_transport = vouched ? "pidfd (board)" : "pidfd";
			goto ok;
		} else {
			e_pidfd = fd;
		}
	}
	if (broker) {
		e_broker = ipc_broker_fetch(d, &fd);
		if (!e_broker && (e_broker = check_file(fd, d, fi)))
			ipc_fd_drop_taken(fd);
		if (!e_broker) {
			last_transport = "broker";
			goto ok;
		}
	}
	if (tagged && !ipc_handle_fd_replaced(d)) {
		/* The application may have passed the fd itself and got the
		 * exporter's number again, so bytes 0..3 look untouched. Only
		 * the export's own file (inode, and the tag in its access
		 * time or in the exporter's shared file position) passes the
		 * check, and nothing is dup'ed (or closed) before it passed. */
		fd = take_local(d->fd, d, fi);
		if (fd >= 0) {
			last_transport = "appfd (same number)";
			goto ok;
		}
	}
	err = ipc_err_worse(ipc_err_worse(e_app, e_pidfd), e_broker);
	if (!err)
		err = -ENOTCONN; /* every transport disabled */
	/* A gone or revoked export is the application's business (info);
	 * a refusal or no transport at all is a setup problem (warn). */
	U_LOG(err == -EACCES || err == -ENOTCONN ? U_LOG_WARN : U_LOG_INFO,
	      "ipc", "cannot get the memory of pid %d's IPC handle (export "
		     "%u): appfd: %s; pidfd: %s; broker: %s. Pass the fd "
		     "yourself (SCM_RIGHTS into bytes 0..3) or check that both "
		     "processes run as the same user",
	      (int)d->pid, d->export_id,
	      e_app ? strerror(-e_app) : "not given",
	      pidfd ? strerror(-e_pidfd) : "disabled",
	      broker ? strerror(-e_broker) : "disabled");
	return err;
ok:
	*out = fd;
	return 0;
err_close:
	close(fd);
	return err;
}

/* ---- the index: the driver's address map -------------------------------- */

/* Registers im in the address map (amap.h), which is the import index:
 * the owner is im, complete before it is added and never changed after.
 * No lock of ours: amap_lock orders the add before any lookup that finds
 * it, and an owner is used only under amap_lock (unindex_ok) or after it
 * was taken out (then it is the taker's). */
static int
idx_insert(struct import *im)
{
	struct usm_info info = {
		.base = im->ptr, .size = im->size, .kind = im->kind,
		.id = im->id, .ctx = im->ctx, .dev = im->dev, .fd = -1,
		.page_size = im->ce->granule,
	};
	return amap_add(AMAP_IPC_IMPORT, &info, im, im->external);
}

static bool
owned_by(const struct import *im, const struct _ze_context_handle_t *c)
{
	return im->ctx == c && im->ctx_serial == c->serial;
}

/* ---- open, close, external imports ------------------------------------- */

/* Drops im's reference on its entry, and im: when im holds its own
 * entry, the entry's last reference frees the record (now, or at the
 * close of the last import of that file). */
static void
import_release(struct import *im)
{
	bool own = im->ce == &im->own;
	cent_put(im->ce);
	if (!own)
		record_free(im);
}

static void
import_destroy(struct import *im)
{
	munmap(im->map, im->map_len);
	import_release(im);
}

/* Maps [offset, offset + size) of the file of im->ce (fsize bytes long, as
 * seen under import_lock) into im and indexes it. On failure im and its
 * reference are the caller's still. */
static int
map_import(struct import *im, struct _ze_context_handle_t *c,
	   struct _ze_device_handle_t *dev, uint64_t fsize, uint64_t offset,
	   uint64_t size, uint8_t kind, bool external, void **out)
{
	struct cent *ce = im->ce;
	uint64_t mask = (uint64_t)ce->granule - 1; /* a page: a power of 2 */
	uint64_t page_off = offset & ~mask, delta = offset - page_off;
	if (offset + size > fsize || size > IPC_MAX_BYTES)
		return -ERANGE;
	size_t len = (size_t)((delta + size + mask) & ~mask);
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, ce->fd,
		       (off_t)page_off);
	if (p == MAP_FAILED)
		return errno == EACCES ? -EBADF : -errno; /* read-only */
	im->ptr = (char *)p + delta;
	im->size = (size_t)size;
	im->map = p;
	im->map_len = len;
	im->kind = kind;
	im->external = external;
	im->ctx = c;
	im->ctx_serial = c->serial;
	im->dev = dev;
	im->id = (1ull << 63) | atomic_fetch_add(&next_import_id, 1);
	int err = idx_insert(im);
	if (err) {
		munmap(p, len);
		return err;
	}
	*out = im->ptr;
	return 0;
}

int
ipc_import_open(struct _ze_context_handle_t *c,
		struct _ze_device_handle_t *dev, const void *in64, void **out,
		const char **why)
{
	struct ipc_desc d;
	struct ipc_self me;
	struct ipc_fdinfo fi;
	uint64_t fsize;
	int err = ipc_handle_decode(in64, &d, why);
	if (err)
		return err;
	if (d.type == IPC_TYPE_PHYS)
		return ipc_phys_open(c, dev, &d, out, why);
	ipc_self(&me);
	bool local = d.pid == me.pid &&
		     d.nonce == (d.type == IPC_TYPE_FD ? me.fd_nonce : me.nonce);
	if (d.type == IPC_TYPE_FD && !local) {
		*why = "an fd handle is valid only in the process that made it";
		return -EBADMSG;
	}
	/* One entry per file: an untagged handle's tag is its export's
	 * secret, not the file's, so untagged ones share (pid, nonce, 0,
	 * inode); a tagged one's file position is its tag. */
	int32_t kpid = d.type == IPC_TYPE_FD ? 0 : d.pid;
	uint64_t knonce = d.type == IPC_TYPE_FD ? 0 : d.nonce;
	uint64_t ktag = (d.flags & IPC_FLAG_TAGGED) ? d.tag : 0;
	uint64_t key = cent_key(kpid, knonce, ktag, d.ino);
	/* Every field of the record is set before it is indexed (its entry
	 * when it makes one, map_import the rest). */
	struct import *im = record_new();
	if (!im)
		return -ENOMEM;
	struct cent *ce = NULL;
	if (atomic_load_explicit(&n_cached, memory_order_relaxed)) {
		u_lock(&import_lock);
		ce = cent_find(key, kpid, knonce, ktag, d.ino);
		if (ce)
			ce->refs++; /* ours while it is checked, then the
				     * import's */
		u_unlock(&import_lock);
	}
	if (ce && !cent_valid(ce, &d, local)) {
		/* Put, revoked, or cannot tell: out of the cache (its imports
		 * keep it); the fetch below decides. */
		u_lock(&import_lock);
		if (ce->hashed) {
			cent_unlink(ce);
			ce->hashed = false;
		}
		u_unlock(&import_lock);
		cent_put(ce);
		ce = NULL;
	}
	if (ce) {
		u_lock(&import_lock);
		/* A pool file grows: the handle may name a newer range. */
		if (d.offset + d.size > ce->fsize) {
			struct stat st;
			if (!fstat(ce->fd, &st) && st.st_size > 0)
				ce->fsize = (uint64_t)st.st_size;
		}
		fsize = ce->fsize;
		u_unlock(&import_lock);
		goto map;
	}

	int fd;
	uint64_t bseq;
	if ((err = fetch(&d, local, &fd, &fi, &bseq))) {
		record_free(im);
		return err;
	}
	struct cent *n = &im->own;
	*n = (struct cent){ .key = key, .pid = kpid, .nonce = knonce,
			    .tag = ktag, .ino = d.ino, .hashed = true,
			    .dmabuf = fi.dmabuf, .fd = fd, .fsize = fi.size,
			    .granule = fi.granule, .bseq = bseq, .refs = 1,
			    .mem = im };
	u_lock(&import_lock);
	ce = cent_find(key, kpid, knonce, ktag, d.ino);
	if (ce) { /* another thread won the race */
		ce->refs++;
		if (ce->fsize < fi.size)
			ce->fsize = fi.size;
		fsize = ce->fsize;
		u_unlock(&import_lock);
		fd_close(fd);
		goto map;
	}
	cent_link(n);
	ce = n;
	fsize = n->fsize;
	u_unlock(&import_lock);
	u_dbg("ipc", "imported pid %d export %u (ino %u) via %s", (int)d.pid,
	      d.export_id, d.ino, last_transport);
map:
	im->ce = ce;
	if ((err = map_import(im, c, dev, fsize, d.offset, d.size, d.kind,
			      false, out)))
		import_release(im);
	return err;
}

struct unindex_q {
	struct _ze_context_handle_t *c;
	const void *ptr;
	bool external;
};

/* May the import of hit go, for q? (amap_take_if: under amap_lock, so
 * nobody takes it out and frees it meanwhile.) */
static int
unindex_ok(const struct amap_hit *hit, void *arg)
{
	const struct unindex_q *q = arg;
	const struct import *im = hit->owner;
	if (hit->kind != AMAP_IPC_IMPORT)
		return -ENOENT;
	if (im->ptr != q->ptr)
		return -EINVAL;
	if (!owned_by(im, q->c))
		return -EPERM;
	if (im->external != q->external)
		return -EXDEV;
	return 0;
}

/* Takes the import based at ptr out of the index (one lookup of the map
 * that checks its owner and takes it out under amap_lock): the import is
 * then the caller's. */
static int
unindex(struct _ze_context_handle_t *c, const void *ptr, bool external,
	struct import **out)
{
	struct unindex_q q = { c, ptr, external };
	struct amap_hit hit;
	int err = amap_take_if(ptr, unindex_ok, &q, &hit);
	if (!err)
		*out = hit.owner;
	return err;
}

int
ipc_import_close(struct _ze_context_handle_t *c, const void *ptr)
{
	struct import *im;
	int err = unindex(c, ptr, false, &im);
	if (err)
		return err;
	/* Out of the index (no new copy finds it); copies still queued
	 * into the mapping finish before it goes. */
	drv_wait_idle(im->ptr, im->size);
	import_destroy(im);
	return 0;
}

int
ipc_import_free(struct _ze_context_handle_t *c, void *ptr)
{
	struct import *im;
	int err = unindex(c, ptr, true, &im);
	if (!err)
		import_destroy(im);
	return err;
}

int
ipc_import_external(struct _ze_context_handle_t *c, enum usm_kind kind,
		    struct _ze_device_handle_t *dev, int fd, uint32_t type,
		    size_t size, void **out)
{
	struct ipc_fdinfo fi;
	int err = ipc_fd_inspect(fd, &fi);
	if (err)
		return err;
	if (type == ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF ? !fi.dmabuf
							  : !fi.shmem)
		return -EPROTONOSUPPORT;
	if ((fi.shmem && !(fi.seals & F_SEAL_SHRINK)) || !fi.writable)
		return -EBADF;
	if (size > fi.size)
		return -ERANGE;
	struct import *im = record_new(); /* set as in open */
	if (!im)
		return -ENOMEM;
	int dup = ipc_fd_dup(fd);
	if (dup < 0) {
		record_free(im);
		return dup;
	}
	im->own = (struct cent){ .dmabuf = fi.dmabuf, .fd = dup,
				 .fsize = fi.size, .granule = fi.granule,
				 .refs = 1, .mem = im };
	im->ce = &im->own;
	if ((err = map_import(im, c, dev, fi.size, 0, size, (uint8_t)kind,
			      true, out)))
		import_release(im);
	return err;
}

void
ipc_import_context_destroyed(struct _ze_context_handle_t *c)
{
	pidfds_flush();
	void **gone = NULL;
	size_t n = 0;
	pthread_rwlock_wrlock(&index_lock);
	amap_take_ctx(AMAP_IPC_IMPORT, c, &gone, &n);
	pthread_rwlock_unlock(&index_lock);
	if (n)
		u_dbg("ipc", "context destroyed: closing %zu import(s)", n);
	for (size_t i = 0; i < n; i++)
		import_destroy(gone[i]);
	free(gone);
}

void
ipc_import_fork_prepare(void)
{
	u_lock(&import_lock);
	pthread_rwlock_wrlock(&index_lock);
	pthread_rwlock_wrlock(&pidfd_lock);
}

void
ipc_import_fork_parent(void)
{
	pthread_rwlock_unlock(&pidfd_lock);
	pthread_rwlock_unlock(&index_lock);
	u_unlock(&import_lock);
}

void
ipc_import_fork_child(void)
{
	u_lock_init(&import_lock);
	u_fork_child_rwlock(&index_lock);
	u_fork_child_rwlock(&pidfd_lock); /* the pidfds stay good */
}
