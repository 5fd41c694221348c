// SPDX-License-Identifier: MIT
/*
 * ipc_phys: IPC handles of physical memory (issue 6, seed 004): a physical
 * object handle cast to a pointer, a VMM address mapped to one object, or
 * (ze_ipc_phys_mem_handle_range_ext_desc_t) a mapped range spanning
 * several objects, all as one 64-byte handle of type IPC_TYPE_PHYS.
 *
 * Which range: a physical handle stands for the whole object; a VMM
 * address without the range descriptor must be the base of a mapping and
 * stands for that mapping (object, offset, size), and is refused (-E2BIG)
 * when the page right after it is mapped in the same reservation to
 * another object (the "allocation" at ptr then spans several objects:
 * chain the descriptor, or pass the physical handle); the same object
 * mapped again right after (one object at two addresses) is one object
 * and is fine; with the descriptor,
 * [ptr, ptr + size) must be page-aligned and fully mapped (-ENXIO: a hole).
 *
 * Multi-fd transport. N files cannot ride in one fd slot, so each get
 * makes an export record holding a dup of every object's memfd plus a
 * "list" memfd: a header and N entries (exporter fd number, inode, object
 * offset, size, page size), written once and sealed (no write, grow,
 * shrink). The list memfd is what the handle names (fd, inode, and a
 * the export's secret (tag) in its file position and in its sealed
 * header, as for USM exports). The importer gets the list, checks it
 * (inode, tag, header, the kind), then gets each object's fd and checks it
 * against its entry (inode, memfd, F_SEAL_SHRINK, writable, range inside
 * the file). Every file is addressed by "sub": 1 the list, k >= 2 object
 * k - 2, through the same transports as USM:
 *   local   this process: the export table (ipc_phys_fetch, every field of
 *           the handle checked);
 *   pidfd   pidfd_getfd of the fd numbers (the list's from the handle,
 *           the others from the list); a file that turns out not to be
 *           the one named is let go without dropping our POSIX locks
 *           (ipc_fd_drop_taken);
 *   broker  the exporter's broker with the handle and sub: the same
 *           check, then SCM_RIGHTS.
 * ZEMEM_IPC_TRANSPORT picks among pidfd and broker as for USM. Bytes 0..3
 * overwritten by the application are ignored (one fd cannot carry N).
 * The files an open fetched stay in a small importer cache (see "the
 * cache" below: at most 8 handles, 2 s idle, revalidated against the
 * exporter at every hit), so repeated opens of a handle fetch nothing;
 * put closes the exporter's fds (all objects and the list, whose tag is
 * revoked first), so the memory lives as long as some process maps it, an
 * export holds it, or (for at most 2 s after the importer's last use of
 * it) an importer cache holds its files. zePhysicalMemDestroy of
 * an exported object is fine: the export has its own fd.
 *
 * Import: open reserves a fresh range (vmm_os_reserve, aligned to the
 * largest object page size) and maps every object in order; close with
 * that base releases all of it; no fd is kept. Imports are few: a plain
 * array, searched linearly.
 *
 * Locking: xlock (exports), ilock (imports) and pcache_lock (the cache)
 * are leaves; no lock is held across a transport, mmap or a vmm call.
 */
#include "ipc.h"
#include "../vmm/vmm.h"
#include "u_fork.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PL_MAGIC 0x7a6d706cu /* "zmpl" */
#define PHYS_MAX_OBJS 4096u

struct pl_hdr {
	uint32_t magic;
	uint32_t n;
	uint64_t size;
	uint64_t tag;
	uint32_t export_id;
	uint32_t pad;
};

struct pl_ent {
	int32_t fd;       /* exporter's fd number */
	uint32_t kind;
	uint64_t ino;
	uint64_t offset;  /* in the object */
	uint64_t size;
	uint64_t page;    /* the object's page size */
};

struct pexp {
	uint32_t id, serial;
	uint64_t tag;          /* the export's secret (ipc.h tag layout) */
	uint64_t size;
	uint8_t kind;
	uint16_t device;
	int list_fd;
	int8_t list_atime;     /* ipc_fd_tag's record of list_fd */
	uint64_t list_ino;
	uint32_t n;
	struct pl_ent *ents; /* fd: ours */
};

struct pimp {
	void *base;
	size_t size;
	size_t page;
	uint8_t kind;
	struct _ze_context_handle_t *ctx;
	uint64_t ctx_serial;
	struct _ze_device_handle_t *dev;
	uint64_t id;
};

static pthread_mutex_t xlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t ilock = PTHREAD_RWLOCK_INITIALIZER;
static struct ipc_map exports; /* id -> struct pexp */
static uint32_t next_id, next_serial;
static _Atomic uint64_t next_imp_id;

/* ---- exporter ----------------------------------------------------------- */

struct coll {
	struct pl_ent *e;
	uint32_t n, cap;
};

static void
coll_free(struct coll *co)
{
	for (uint32_t i = 0; i < co->n; i++)
		close(co->e[i].fd);
	free(co->e);
	co->e = NULL;
	co->n = co->cap = 0;
}

/* Adds (fd, offset, size); takes fd (closed on error). */
static int
coll_add(struct coll *co, int fd, uint64_t off, uint64_t size,
	 const struct vmm_phys_info *pi)
{
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int err = -errno;
		close(fd);
		return err;
	}
	if (co->n) {
		struct pl_ent *l = &co->e[co->n - 1];
		if (l->ino == (uint64_t)st.st_ino &&
		    l->offset + l->size == off) {
			l->size += size; /* same object, contiguous */
			close(fd);
			return 0;
		}
	}
	if (co->n == PHYS_MAX_OBJS) {
		close(fd);
		return -EFBIG;
	}
	if (co->n == co->cap) {
		uint32_t cap = co->cap ? co->cap * 2 : 4;
		struct pl_ent *e = realloc(co->e, cap * sizeof(*e));
		if (!e) {
			close(fd);
			return -ENOMEM;
		}
		co->e = e;
		co->cap = cap;
	}
	co->e[co->n++] = (struct pl_ent){
		.fd = fd, .kind = (uint32_t)pi->kind,
		.ino = (uint64_t)st.st_ino, .offset = off, .size = size,
		.page = pi->page_size,
	};
	return 0;
}

static int
collect_cb(const struct vmm_piece *p, void *arg)
{
	int fd = fcntl(p->fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	return coll_add(arg, fd, p->offset, p->size, &p->info);
}

/* Does the range hold more than one physical object? (One object mapped
 * at two addresses, or twice in a row, is one object: seed 004.) */
struct objs {
	ze_physical_mem_handle_t first;
	unsigned n;   /* runs seen */
	bool several; /* a run of another object */
};

static int
objs_cb(const struct vmm_piece *p, void *arg)
{
	struct objs *o = arg;
	if (!o->n++)
		o->first = p->phys;
	else if (p->phys != o->first)
		o->several = true;
	return 0;
}

static void
pexp_free(struct pexp *e, bool revoke)
{
	if (revoke)
		ipc_fd_untag(e->list_fd, e->list_atime); /* importers see it */
	close(e->list_fd);
	for (uint32_t i = 0; i < e->n; i++)
		close(e->ents[i].fd);
	free(e->ents);
	free(e);
}

/* The list memfd of co, sealed, tagged (ipc_fd_tag). */
static int
make_list(const struct coll *co, uint64_t size, uint32_t id, uint64_t tag,
	  int *out, int8_t *atime, uint64_t *ino)
{
	int fd = memfd_create("zemem-ipc-phys", MFD_CLOEXEC |
						MFD_ALLOW_SEALING);
	if (fd < 0)
		return -errno;
	struct pl_hdr h = { PL_MAGIC, co->n, size, tag, id, 0 };
	size_t elen = co->n * sizeof(struct pl_ent);
	struct stat st;
	int err = 0;
	if (pwrite(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    pwrite(fd, co->e, elen, sizeof(h)) != (ssize_t)elen ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW |
				   F_SEAL_WRITE | F_SEAL_SEAL) < 0 ||
	    fstat(fd, &st) < 0)
		err = errno ? -errno : -EIO;
	if (!err)
		err = ipc_fd_tag(fd, tag, atime);
	if (err) {
		close(fd);
		return err;
	}
	*out = fd;
	*ino = (uint64_t)st.st_ino;
	return 0;
}

/* Makes the export of co (taken, freed on error) and its handle. */
static int
export_make(struct coll *co, uint64_t size, uint8_t kind, uint16_t device,
	    void *out64)
{
	struct ipc_self me;
	struct pexp *e = calloc(1, sizeof(*e));
	int err = -ENOMEM;
	if (!e)
		goto err_coll;
	if ((err = ipc_tag_new(kind, false, &e->tag)))
		goto err_free;
	e->size = size;
	e->kind = kind;
	e->device = device;
	pthread_mutex_lock(&xlock);
	do {
		e->id = ++next_id;
	} while (!e->id || ipc_map_get(&exports, e->id));
	do {
		e->serial = ++next_serial;
	} while (!e->serial);
	pthread_mutex_unlock(&xlock);
	if ((err = make_list(co, size, e->id, e->tag, &e->list_fd,
			     &e->list_atime, &e->list_ino)))
		goto err_free;
	e->n = co->n;
	e->ents = co->e;
	co->e = NULL;
	co->n = co->cap = 0;
	pthread_mutex_lock(&xlock);
	err = ipc_map_put(&exports, e->id, e);
	pthread_mutex_unlock(&xlock);
	if (err) {
		pexp_free(e, false);
		return err;
	}
	ipc_self(&me);
	struct ipc_desc d = {
		.fd = e->list_fd, .fd_copy = e->list_fd, .type = IPC_TYPE_PHYS,
		.kind = kind, .flags = IPC_FLAG_TAGGED, .device = device,
		.pid = me.pid, .ino = (uint32_t)e->list_ino, .nonce = me.nonce,
		.tag = e->tag, .export_id = e->id, .serial = e->serial,
		.size = size,
	};
	ipc_handle_encode(&d, out64);
	ipc_yama_note_once();
	ipc_broker_ensure();
	u_dbg("ipc", "physical export %u: %u object(s), %llu bytes", e->id,
	      e->n, (unsigned long long)size);
	return 0;
err_free:
	free(e);
err_coll:
	coll_free(co);
	return err;
}

int
ipc_phys_get(struct _ze_context_handle_t *c, const void *ptr, size_t range,
	     void *out64)
{
	struct vmm_phys_info pi;
	struct coll co = { 0 };
	struct usm_info ui;
	size_t sz, page = (size_t)sysconf(_SC_PAGESIZE);
	int fd, err;
	err = vmm_phys_info((ze_physical_mem_handle_t)(uintptr_t)ptr, &fd,
			    &sz, &pi);
	if (!err) {
		if (pi.ctx != c || range) {
			close(fd);
			return pi.ctx != c ? -EPERM : -EINVAL;
		}
		if ((err = coll_add(&co, fd, 0, sz, &pi)))
			return err;
		return export_make(&co, sz, (uint8_t)pi.kind,
				   pi.dev ? (uint16_t)pi.dev->ordinal : 0,
				   out64);
	}
	if (err != -ENOENT)
		return err;
	/* A VMM range of any context of the driver exports (NULL: any),
	 * as Intel's driver exports its reservations: the handle names the
	 * physical objects, which are no context's business once mapped. */
	if (!range) {
		if (vmm_usm_info(NULL, ptr, &ui))
			return 1; /* not VMM memory */
		if (ui.base != ptr)
			return -EINVAL;
		range = ui.size;
		struct objs o = { 0 };
		if (!vmm_range_walk(NULL, ptr, range + page, objs_cb, &o) &&
		    o.several)
			return -E2BIG;
	} else if (((uintptr_t)ptr | range) & (page - 1)) {
		return -EINVAL;
	}
	if (range > IPC_MAX_BYTES)
		return -EFBIG;
	if ((err = vmm_range_walk(NULL, ptr, range, collect_cb, &co))) {
		coll_free(&co);
		return err;
	}
	if (!co.n)
		return -ENXIO;
	return export_make(&co, range, (uint8_t)co.e[0].kind, 0, out64);
}

/* The live export PHYS handle d of this process names: every field must
 * be what its get wrote. Under xlock. */
static struct pexp *
pexp_of(const struct ipc_desc *d)
{
	struct pexp *e = ipc_map_get(&exports, d->export_id);
	if (!e || d->type != IPC_TYPE_PHYS || e->tag != d->tag ||
	    e->serial != d->serial || (uint32_t)e->list_ino != d->ino ||
	    e->list_fd != d->fd_copy || e->size != d->size ||
	    e->kind != d->kind || e->device != d->device ||
	    d->flags != IPC_FLAG_TAGGED || d->offset)
		return NULL;
	return e;
}

int
ipc_phys_put(const struct ipc_desc *d)
{
	pthread_mutex_lock(&xlock);
	struct pexp *e = pexp_of(d);
	if (!e) {
		/* Issued here (ids and serials only grow), and put; a live
		 * record that the fields do not match is a forgery. */
		bool issued = !ipc_map_get(&exports, d->export_id) &&
			      d->serial && d->serial - 1 < next_serial &&
			      d->export_id && d->export_id - 1 < next_id;
		pthread_mutex_unlock(&xlock);
		return issued ? -EALREADY : -ENOENT;
	}
	ipc_map_del(&exports, e->id);
	pthread_mutex_unlock(&xlock);
	pexp_free(e, true);
	return 0;
}

int
ipc_phys_fetch(const struct ipc_desc *d, uint32_t sub, int *fd)
{
	int err = -ESTALE;
	pthread_mutex_lock(&xlock);
	struct pexp *e = pexp_of(d);
	if (e && sub >= 1 && sub - 1 <= e->n) {
		*fd = ipc_fd_dup(sub == 1 ? e->list_fd : e->ents[sub - 2].fd);
		err = *fd < 0 ? *fd : 0;
	}
	pthread_mutex_unlock(&xlock);
	return err;
}

static bool
phys_live(const struct ipc_desc *d)
{
	pthread_mutex_lock(&xlock);
	bool live = pexp_of(d) != NULL;
	pthread_mutex_unlock(&xlock);
	return live;
}

/* ---- importer: transports ----------------------------------------------- */

enum how { HOW_LOCAL, HOW_PIDFD, HOW_BROKER };

struct getter {
	const struct ipc_desc *d;
	enum how how;
};

/* File sub; num: its fd number in the exporter (pidfd). */
static int
get_sub(struct getter *g, uint32_t sub, int num, int *fd)
{
	const struct ipc_desc *d = g->d;
	if (g->how == HOW_LOCAL)
		return ipc_phys_fetch(d, sub, fd);
	if (g->how == HOW_BROKER)
		return ipc_broker_fetch_sub(d, sub, fd);
	int r = ipc_pidfd_take(d->pid, num);
	if (r < 0)
		return r;
	*fd = r;
	return 0;
}

/* Reads and checks the list of d into *ents (malloc'ed); *list_fd: the
 * list file itself (kept by the cache to revalidate it). */
static int
get_list(struct getter *g, struct pl_ent **ents, uint32_t *n, int *list_fd)
{
	const struct ipc_desc *d = g->d;
	struct ipc_fdinfo fi;
	struct pl_hdr h;
	unsigned char *buf = NULL;
	int fd, err;
	if ((err = get_sub(g, 1, d->fd_copy, &fd)))
		return err;
	if ((err = ipc_fd_inspect_file(fd, &fi))) /* read here, not mapped */
		goto err_fd;
	err = -ESTALE;
	uint64_t most = sizeof(h) + (uint64_t)PHYS_MAX_OBJS *
					    sizeof(struct pl_ent);
	if (!fi.shmem || (uint32_t)fi.ino != d->ino ||
	    !ipc_fd_has_tag(fd, &fi, d->tag) || fi.size < sizeof(h) ||
	    fi.size > most)
		goto err_fd;
	/* Header and entries in one read: the list is exactly that long. */
	if (!(buf = malloc((size_t)fi.size))) {
		err = -ENOMEM;
		goto err_fd;
	}
	if (pread(fd, buf, (size_t)fi.size, 0) != (ssize_t)fi.size)
		goto err_fd;
	memcpy(&h, buf, sizeof(h));
	if (h.magic != PL_MAGIC || h.tag != d->tag ||
	    h.export_id != d->export_id || h.size != d->size || !h.n ||
	    h.n > PHYS_MAX_OBJS ||
	    fi.size != sizeof(h) + (uint64_t)h.n * sizeof(struct pl_ent))
		goto err_fd;
	size_t len = h.n * sizeof(struct pl_ent);
	if (!(*ents = malloc(len))) {
		err = -ENOMEM;
		goto err_fd;
	}
	memcpy(*ents, buf + sizeof(h), len);
	free(buf);
	*n = h.n;
	*list_fd = fd;
	return 0;
err_fd:
	free(buf);
	ipc_fd_drop_taken(fd);
	return err;
}

/* Entries: page sizes powers of two, ranges page-aligned, the kind the
 * handle says, sizes adding up to the handle's size. */
static int
check_list(const struct ipc_desc *d, const struct pl_ent *e, uint32_t n,
	   size_t *maxpage)
{
	size_t os = (size_t)sysconf(_SC_PAGESIZE);
	uint64_t sum = 0;
	*maxpage = os;
	if (e[0].kind != d->kind)
		return -ESTALE;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t pg = e[i].page;
		if (pg < os || (pg & (pg - 1)) || pg > (1ull << 30) ||
		    !e[i].size || ((e[i].offset | e[i].size) & (os - 1)) ||
		    e[i].size > IPC_MAX_BYTES || e[i].offset > IPC_MAX_BYTES ||
		    e[i].kind < USM_KIND_HOST || e[i].kind > USM_KIND_SHARED)
			return -ESTALE;
		sum += e[i].size;
		if (sum > IPC_MAX_BYTES)
			return -ESTALE;
		if (pg > *maxpage)
			*maxpage = (size_t)pg;
	}
	return sum == d->size ? 0 : -ESTALE;
}

/* Is fd the object file entry e names, usable for its range? */
static int
check_obj(int fd, const struct pl_ent *e)
{
	struct ipc_fdinfo fi;
	int err = ipc_fd_inspect_file(fd, &fi); /* read-only: mmap says */
	if (err)
		return err == -EBADF ? -ESTALE : err;
	if (!fi.shmem || fi.ino != e->ino)
		return -ESTALE;
	if (!(fi.seals & F_SEAL_SHRINK) || !fi.writable)
		return -EBADF;
	if (e->offset + e->size > fi.size)
		return -ERANGE;
	return 0;
}

/* ---- importer: the cache of the files of range exports ----------------- */

/* What one fetch of a handle's files got: the list (kept to revalidate),
 * its entries and every object's fd, checked. Kept after the open that
 * fetched it, idle, so that the next open of the same handle costs no
 * fetch; at most PCACHE_MAX entries, none idle longer than PCACHE_IDLE_MS
 * (looked at in every open and close), all dropped when a context goes.
 * A hit is used only after it is revalidated against the exporter's live
 * state: this process's export table (local), or kcmp: the exporter still
 * holds the very list file at the handle's fd number (put closes it) and
 * its position is still the secret. Where kcmp cannot tell (another pid
 * namespace, a non-dumpable exporter, no kcmp), the entry is dropped and
 * the files are fetched again. An open takes the entry out of the list
 * and puts it back when done, so no two opens share one. Locking:
 * pcache_lock, a leaf. */
#define PCACHE_MAX 8
#define PCACHE_IDLE_MS 2000

struct pcache {
	struct pcache *next;
	struct ipc_desc d;   /* the handle the files were fetched for */
	bool local;
	int list_fd;
	uint32_t n;
	struct pl_ent *ents;
	int *fds;
	size_t maxpage;
	uint64_t idle_ms;    /* since when it is idle */
};

static pthread_mutex_t pcache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pcache *pcache_head;
static unsigned pcache_n;

static uint64_t
mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static bool
same_handle(const struct ipc_desc *a, const struct ipc_desc *b)
{
	return a->fd_copy == b->fd_copy && a->type == b->type &&
	       a->kind == b->kind && a->flags == b->flags &&
	       a->device == b->device && a->pid == b->pid &&
	       a->ino == b->ino && a->nonce == b->nonce && a->tag == b->tag &&
	       a->export_id == b->export_id && a->serial == b->serial &&
	       a->size == b->size && a->offset == b->offset;
}

static void
close_all(int *fds, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

static void
pcache_free(struct pcache *pc)
{
	close_all(pc->fds, pc->n);
	close(pc->list_fd);
	free(pc->fds);
	free(pc->ents);
	free(pc);
}

/* Unlinks the entries idle too long (all with all) onto *gone. Under
 * pcache_lock. */
static void
pcache_expire(bool all, struct pcache **gone)
{
	uint64_t now = all ? 0 : mono_ms();
	for (struct pcache **pp = &pcache_head; *pp;) {
		struct pcache *pc = *pp;
		if (all || now - pc->idle_ms > PCACHE_IDLE_MS) {
			*pp = pc->next;
			pc->next = *gone;
			*gone = pc;
			pcache_n--;
		} else {
			pp = &pc->next;
		}
	}
}

static void
pcache_free_list(struct pcache *gone)
{
	while (gone) {
		struct pcache *next = gone->next;
		pcache_free(gone);
		gone = next;
	}
}

static void
pcache_sweep(bool all)
{
	struct pcache *gone = NULL;
	pthread_mutex_lock(&pcache_lock);
	if (pcache_head)
		pcache_expire(all, &gone);
	pthread_mutex_unlock(&pcache_lock);
	pcache_free_list(gone);
}

/* The cached files of d, revalidated, taken out of the cache; or NULL. */
static struct pcache *
pcache_take(const struct ipc_desc *d)
{
	struct pcache *pc = NULL, *gone = NULL;
	pthread_mutex_lock(&pcache_lock);
	for (struct pcache **pp = &pcache_head; *pp; pp = &(*pp)->next)
		if (same_handle(&(*pp)->d, d)) {
			pc = *pp;
			*pp = pc->next;
			pcache_n--;
			break;
		}
	pcache_expire(false, &gone);
	pthread_mutex_unlock(&pcache_lock);
	pcache_free_list(gone);
	if (!pc)
		return NULL;
	bool live = pc->local ? phys_live(d)
		    : ipc_kcmp_file(getpid(), pc->list_fd, d->pid,
				    d->fd_copy) == 0 &&
				      ipc_fd_get_pos(pc->list_fd) == d->tag;
	if (live)
		return pc;
	u_dbg("ipc", "cached files of pid %d's range export %u: no longer "
		     "exported", (int)d->pid, d->export_id);
	pcache_free(pc);
	return NULL;
}

static void
pcache_put(struct pcache *pc)
{
	struct pcache *gone = NULL;
	pc->idle_ms = mono_ms();
	pthread_mutex_lock(&pcache_lock);
	for (struct pcache *o = pcache_head; o; o = o->next)
		if (same_handle(&o->d, &pc->d)) {
			pc->next = gone; /* another open cached it already */
			gone = pc;
			pc = NULL;
			break;
		}
	if (pc) {
		pc->next = pcache_head;
		pcache_head = pc;
		if (++pcache_n > PCACHE_MAX) {
			struct pcache **pp = &pcache_head;
			while ((*pp)->next)
				pp = &(*pp)->next;
			(*pp)->next = gone; /* the least recently used */
			gone = *pp;
			*pp = NULL;
			pcache_n--;
		}
	}
	pthread_mutex_unlock(&pcache_lock);
	pcache_free_list(gone);
}

/* One transport: the list, then every object fd, checked: a new cache
 * entry (not listed yet). */
static int
get_all(struct getter *g, struct pcache **out)
{
	struct pcache *pc = calloc(1, sizeof(*pc));
	int err;
	if (!pc)
		return -ENOMEM;
	pc->d = *g->d;
	pc->local = g->how == HOW_LOCAL;
	if ((err = get_list(g, &pc->ents, &pc->n, &pc->list_fd)))
		goto err_pc;
	if ((err = check_list(g->d, pc->ents, pc->n, &pc->maxpage)))
		goto err_list;
	if (!(pc->fds = malloc(pc->n * sizeof(int)))) {
		err = -ENOMEM;
		goto err_list;
	}
	for (uint32_t i = 0; i < pc->n; i++)
		pc->fds[i] = -1;
	for (uint32_t i = 0; i < pc->n; i++) {
		struct pl_ent *e = &pc->ents[i];
		if ((err = get_sub(g, i + 2, e->fd, &pc->fds[i])))
			goto err_fds;
		if ((err = check_obj(pc->fds[i], e))) {
			ipc_fd_drop_taken(pc->fds[i]);
			pc->fds[i] = -1;
			goto err_fds;
		}
	}
	*out = pc;
	return 0;
err_fds:
	close_all(pc->fds, pc->n);
	free(pc->fds);
err_list:
	/* The list proved itself (get_list: its inode and its tag): the
	 * export's own file, a plain close. A later failure (no fd left for
	 * an object, a bad entry) says nothing against it. */
	close(pc->list_fd);
	free(pc->ents);
err_pc:
	free(pc);
	return err;
}

/* ---- importer: open, close, queries ------------------------------------- */

/* Registers im in the address map, which is the list of physical-range
 * imports (owner im); ilock serialises its changes and the use of the
 * owners, as index_lock does for ipc_import.c. */
static int
imp_insert(struct pimp *im)
{
	struct usm_info info = {
		.base = im->base, .size = im->size, .kind = im->kind,
		.id = im->id, .ctx = im->ctx, .dev = im->dev, .fd = -1,
		.page_size = im->page,
	};
	pthread_rwlock_wrlock(&ilock);
	int err = amap_add(AMAP_PHYS_IMPORT, &info, im, false);
	pthread_rwlock_unlock(&ilock);
	return err;
}

int
ipc_phys_open(struct _ze_context_handle_t *c,
	      struct _ze_device_handle_t *dev, const struct ipc_desc *d,
	      void **out, const char **why)
{
	struct ipc_self me;
	struct getter g = { .d = d };
	int err = -ENOTCONN;
	(void)why;
	ipc_self(&me);
	struct pcache *pc = pcache_take(d);
	if (pc) {
		err = 0;
		goto map;
	}
	bool pidfd, broker;
	ipc_transports(&pidfd, &broker);
	enum how order[2];
	unsigned nhow = 0;
	if (d->pid == me.pid && d->nonce == me.nonce) {
		order[nhow++] = HOW_LOCAL;
	} else {
		if (pidfd)
			order[nhow++] = HOW_PIDFD;
		if (broker)
			order[nhow++] = HOW_BROKER;
	}
	for (unsigned i = 0; i < nhow; i++) {
		g.how = order[i];
		int e = get_all(&g, &pc);
		if (!e) {
			err = 0;
			break;
		}
		err = err == -ENOTCONN ? e : ipc_err_worse(err, e);
	}
	if (err) {
		u_info("ipc", "cannot get the memory of pid %d's physical "
			      "handle (export %u): %s", (int)d->pid,
		       d->export_id, strerror(-err));
		return err;
	}
map:;
	void *base;
	struct pimp *im = calloc(1, sizeof(*im));
	if (!im) {
		err = -ENOMEM;
		goto out;
	}
	if ((err = vmm_os_reserve((size_t)d->size, pc->maxpage, &base)))
		goto err_im;
	size_t at = 0;
	for (uint32_t i = 0; i < pc->n; i++) {
		err = vmm_os_map_fd((char *)base + at, (size_t)pc->ents[i].size,
				    PROT_READ | PROT_WRITE, pc->fds[i],
				    pc->ents[i].offset);
		if (err) {
			err = err == -EACCES ? -EBADF : err; /* read-only */
			goto err_release;
		}
		at += (size_t)pc->ents[i].size;
	}
	*im = (struct pimp){
		.base = base, .size = (size_t)d->size, .page = pc->maxpage,
		.kind = d->kind, .ctx = c, .ctx_serial = c->serial,
		.dev = dev,
		.id = (3ull << 62) | atomic_fetch_add(&next_imp_id, 1),
	};
	if ((err = imp_insert(im)))
		goto err_release;
	*out = base;
	goto out;
err_release:
	vmm_os_release(base, (size_t)d->size);
err_im:
	free(im);
out:
	pcache_put(pc);
	return err;
}

/* The import containing p. Under ilock. */
static struct pimp *
imp_find(const void *p)
{
	struct amap_hit hit;
	if (amap_region(p, &hit) || hit.kind != AMAP_PHYS_IMPORT)
		return NULL;
	return hit.owner;
}

static bool
owned_by(const struct pimp *im, const struct _ze_context_handle_t *c)
{
	return im->ctx == c && im->ctx_serial == c->serial;
}

static void
imp_destroy(struct pimp *im)
{
	vmm_os_release(im->base, im->size);
	free(im);
}

int
ipc_phys_close(struct _ze_context_handle_t *c, const void *ptr)
{
	int err = 0;
	pthread_rwlock_wrlock(&ilock);
	struct pimp *im = imp_find(ptr);
	if (!im)
		err = -ENOENT;
	else if (im->base != ptr)
		err = -EINVAL;
	else if (!owned_by(im, c))
		err = -EPERM;
	else
		amap_del(AMAP_PHYS_IMPORT, im->base);
	pthread_rwlock_unlock(&ilock);
	if (!err)
		imp_destroy(im);
	pcache_sweep(false);
	return err;
}

void
ipc_phys_context_destroyed(struct _ze_context_handle_t *c)
{
	pcache_sweep(true);
	void **gone = NULL;
	size_t n = 0;
	pthread_rwlock_wrlock(&ilock);
	amap_take_ctx(AMAP_PHYS_IMPORT, c, &gone, &n);
	pthread_rwlock_unlock(&ilock);
	for (size_t i = 0; i < n; i++)
		imp_destroy(gone[i]);
	free(gone);
}

void
ipc_phys_fork_prepare(void)
{
	pthread_rwlock_wrlock(&ilock);
	pthread_mutex_lock(&xlock);
	pthread_mutex_lock(&pcache_lock);
}

void
ipc_phys_fork_parent(void)
{
	pthread_mutex_unlock(&pcache_lock);
	pthread_mutex_unlock(&xlock);
	pthread_rwlock_unlock(&ilock);
}

static void
drop_export(uint64_t key, void *val, void *arg)
{
	(void)key;
	(void)arg;
	pexp_free(val, false); /* no revoke: the parent still exports it */
}

void
ipc_phys_fork_child(void)
{
	/* Imports stay (inherited mappings); exports are the parent's. */
	ipc_map_each(&exports, drop_export, NULL);
	ipc_map_clear(&exports);
	u_fork_child_mutex(&xlock);
	u_fork_child_rwlock(&ilock);
	u_fork_child_mutex(&pcache_lock); /* entries stay: same files */
}
