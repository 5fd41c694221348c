// SPDX-License-Identifier: MIT
/*
 * ipc_export: the exporter side. Which fd a handle names, how many handles
 * reference it, and when it is released.
 *
 * What an importer gets (the "xfile"): only ever a file that holds the
 * exported allocation and nothing else, so that an importer, even one that
 * maps the whole file it was sent, reads its size or punches holes in it,
 * can touch no byte that was not exported:
 *   - an allocation in a file of its own (usm's own_file: large
 *     allocations, and host and device blocks up to 64 KiB, each in a slot
 *     memfd of its own): that memfd, through our own open file
 *     description (reopened via /proc/self/fd) whose file position is a
 *     random tag, and so is the file's access time where it keeps it
 *     (export_rekey); the handle is WHOLE;
 *   - a page-exclusive host or device block that shares the pool file
 *     (usm had no slot file for it): only where the machine has
 *     /dev/udmabuf, a dma-buf made from exactly the pages of the block;
 *     else it is refused (-EBUSY), never the pool file;
 *   - a dma-buf allocation (usm's USM_FLAG_DMABUF): a dup of its dma-buf.
 * Every memfd handed out carries F_SEAL_SHRINK (added here if missing), so
 * no peer can shrink it under a mapping.
 *
 * One xfile per backing file (or udmabuf range). One export record per
 * allocation, shared by its handles and reference-counted as Intel's
 * driver does: every get of the allocation returns the same handle bytes
 * and takes a reference, every put (of any of them, through any context)
 * drops one; the record and its xfile go when no reference is left and no
 * external-memory fd of it is out, and a later get makes a new one. When
 * the xfile goes its tag is revoked (position and access time set to 0)
 * before the close, so importers that still hold the file notice on their
 * next open. The allocation itself may be freed earlier: usm then gives
 * the file up to the xfile (usm_mark_exported), and takes its memory back
 * for other allocations; importers keep the exported pages through their
 * own fds and mappings, the exporter through the xfile until the last
 * put.
 *
 * Secrets (issue 14): each export record has a random secret (getrandom,
 * ipc.h's tag layout), written into every handle of it; the broker and
 * local opens hand out the file only to a handle whose every field, the
 * secret included, export_of() finds in a live record. The last put
 * revokes it (a record kept by an external fd gets a new one at its next
 * get). A file that holds its allocation alone (whole) is never shared by
 * two records, and its file position is that record's secret (TAGGED): the
 * file proves the secret to importers that got it without our help
 * (pidfd_getfd, the application's own fd passing). Handles of allocations
 * in a shared segment are not TAGGED (the segment's position is no one
 * export's): they open through the broker only.
 *
 * Locking: export_lock protects every table and record here. It is taken
 * under usm locks (ipc_export_freed runs in drv_mem_release) and by the
 * broker thread; nothing here calls usm with it held.
 */
#include "ipc.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "u_fork.h"
#include "u_options.h"

struct xfile {
	struct xfile *hnext;   /* same hash key */
	uint64_t key;
	uint64_t src_ino, src_dev; /* the backing file (usm's fd) */
	uint64_t page_off;     /* udmabuf: range start in the memfd */
	bool udmabuf;          /* made here from a range of the memfd */
	bool dmabuf;           /* fd is a dma-buf */
	bool whole;            /* holds one allocation, at offset 0 */
	bool in_pos;           /* fd is our own open file: tag in position */
	int8_t atime;          /* whole: the tag is in the access time too
				* (1; FS_NOATIME_FL set), the file system
				* refused (-1), not tried yet (0) */
	int fd;
	uint64_t ino;          /* inode of fd */
	uint64_t tag;          /* file position, 0 if untagged */
	uint32_t refs;         /* export records */
	bool shmem;            /* the file is a memfd (or other shmem) */
	bool ready;            /* xfile_ready() done */
	bool sealed;           /* seen with F_SEAL_SHRINK (at the get) */
	uint64_t fsize;        /* the file's size (whole) */
	size_t granule;
	int bslot;             /* its board entry's slot + 1 (0: none) */
	uint32_t bid;          /* the export that entry names */
};

struct export {
	uint32_t id;
	const void *base;
	uint64_t alloc_id;
	uint64_t size;
	uint64_t offset;       /* of the allocation in xf->fd */
	uint8_t kind;
	uint16_t device;
	uint64_t secret;       /* in every handle; 0: revoked (last put) */
	bool ext;              /* an external-memory fd was handed out */
	bool by_base;          /* listed in exports_by_base */
	struct xfile *xf;
	uint32_t serial;       /* in every handle of this record */
	uint32_t refs;         /* gets not yet put */
};

static pthread_mutex_t export_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ipc_map by_id;   /* export id -> export */
static struct ipc_map by_base; /* base address -> export of a live alloc */
static struct ipc_map xfiles;  /* file key -> xfile chain */
static uint32_t next_id, next_serial, n_exports, n_xfiles, n_handles;
/* n_handles: the sum of every record's refs */
static _Atomic uint32_t any_exports;

/* ZEMEM_IPC_POOL_EXPORT: hand out the pool file itself (the residual
 * exposure the option accepts, README). */
static bool
pool_export(void)
{
	return u_option_u64(U_OPT_IPC_POOL_EXPORT) != 0;
}

static uint64_t
xfile_key(uint64_t dev, uint64_t ino, uint64_t page_off, bool udmabuf)
{
	uint64_t k = ipc_hash64(ino ^ ipc_hash64(dev ^ (udmabuf ? 1 : 0)) ^
				(page_off * 0x9e3779b97f4a7c15ull));
	return k ? k : 1;
}

static struct xfile *
xfile_find(uint64_t key, const struct ipc_fdinfo *src, uint64_t page_off,
	   bool udmabuf)
{
	for (struct xfile *x = ipc_map_get(&xfiles, key); x; x = x->hnext)
		if (x->src_ino == src->ino && x->src_dev == src->dev &&
		    x->page_off == page_off && x->udmabuf == udmabuf)
			return x;
	return NULL;
}

/* Withdraws x's board entry (ipc_board.c): before its fd is closed or its
 * tag changes. */
static void
xfile_unboard(struct xfile *x)
{
	if (x->bslot) {
		ipc_board_withdraw(x->bslot - 1, x->bid);
		x->bslot = 0;
	}
}

/* Revokes x's tag (position, and access time where it carries it too):
 * importers that hold the file see it at their next open. */
static void
xfile_revoke(struct xfile *x)
{
	xfile_unboard(x);
	ipc_fd_untag(x->fd, x->atime);
	x->tag = 0;
}

static void
xfile_put(struct xfile *x)
{
	if (--x->refs)
		return;
	struct xfile **pp = NULL, *head = ipc_map_get(&xfiles, x->key);
	if (head == x) {
		if (x->hnext)
			ipc_map_put(&xfiles, x->key, x->hnext);
		else
			ipc_map_del(&xfiles, x->key);
	} else {
		for (pp = &head->hnext; *pp != x; pp = &(*pp)->hnext)
			;
		*pp = x->hnext;
	}
	if (x->tag)
		xfile_revoke(x);
	xfile_unboard(x);
	close(x->fd);
	n_xfiles--;
	u_dbg("ipc", "released export file (ino %llu); %u file(s), %u "
		     "export(s), %u handle(s) left",
	      (unsigned long long)x->ino, n_xfiles, n_exports, n_handles);
	free(x);
}

/* A new secret for e; also the file position of a whole xfile and, where
 * the file system keeps it, the file's access time: the fstat of every
 * import reads that, so a cold import through pidfd_getfd needs no lseek
 * (issue 14). Either carrier proves the tag to an importer; a revoke
 * clears both. */
static int
export_rekey(struct export *e)
{
	struct xfile *x = e->xf;
	bool own = x->whole && !e->offset;
	int err = ipc_tag_new(e->kind, own, &e->secret);
	if (err) {
		e->secret = 0;
		return err;
	}
	if (!own || !x->in_pos)
		return 0;
	xfile_unboard(x);
	x->tag = ipc_fd_tag(x->fd, e->secret, &x->atime) ? 0 : e->secret;
	return 0;
}

/* Is the file position of e's xfile e's secret (TAGGED)? */
static bool
export_tagged(const struct export *e)
{
	return e->xf->whole && !e->offset && e->secret &&
	       e->xf->tag == e->secret;
}

/* The file's bytes past the allocation ([from, to): the slack of its last
 * page or of its slot, which an earlier block of the same slot or cached
 * mapping may have written) become zeros before the file leaves, so an
 * importer that maps all of it reads nothing that was not exported.
 * Through the fd, not the mapping (the slack is poisoned under ASan). */
static int
zero_tail(int fd, uint64_t from, uint64_t to, uint64_t page)
{
	static const char zeros[4096];
	uint64_t mid = (from + page - 1) / page * page;
	for (uint64_t o = from; o < mid && o < to;) {
		uint64_t n = (mid < to ? mid : to) - o;
		if (n > sizeof(zeros))
			n = sizeof(zeros);
		ssize_t w = pwrite(fd, zeros, (size_t)n, (off_t)o);
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		o += (uint64_t)w;
	}
	if (to > mid && fallocate(fd, FALLOC_FL_PUNCH_HOLE |
					      FALLOC_FL_KEEP_SIZE,
				  (off_t)mid, (off_t)(to - mid)) < 0)
		return -errno;
	return 0;
}

/* Before the file's first handle leaves, and after mark() showed that the
 * allocation stayed live since usm_query (so x->fd is its file, not one
 * that took its fd number): sealed against shrinking, its slack cleared.
 * Under export_lock. */
static int
xfile_ready(struct xfile *x, const struct export *e)
{
	if (x->ready)
		return 0;
	int err = 0;
	if (x->shmem && !x->udmabuf && !x->sealed)
		err = ipc_fd_seal_shrink(x->fd);
	if (err)
		u_warn("ipc", "cannot seal the export's memfd against "
			      "shrinking: %s", strerror(-err));
	if (!err && x->shmem && x->whole && e->size < x->fsize &&
	    (err = zero_tail(x->fd, e->size, x->fsize, x->granule)))
		u_warn("ipc", "cannot clear the slack of %p's file: %s",
		       e->base, strerror(-err));
	x->ready = !err;
	return err;
}

/* The xfile for an allocation; creates it. Under export_lock. */
static int
xfile_get(const struct usm_info *info, const struct ipc_fdinfo *src,
	  struct xfile **out, uint64_t *offset)
{
	size_t g = src->granule;
	bool whole = info->own_file;
	bool use_udmabuf = !whole && src->shmem &&
			   ipc_udmabuf_status() == 0;
	if (!whole && !use_udmabuf && !pool_export())
		return -EBUSY; /* the file holds other allocations */
	uint64_t page_off = use_udmabuf ? info->fd_offset / g * g : 0;
	uint64_t key = xfile_key(src->dev, src->ino, page_off, use_udmabuf);
	/* A whole file is never shared: its position is one secret. */
	struct xfile *x = whole ? NULL
				: xfile_find(key, src, page_off, use_udmabuf);
	if (x)
		goto found;
	x = calloc(1, sizeof(*x));
	if (!x)
		return -ENOMEM;
	x->key = key;
	x->src_ino = src->ino;
	x->src_dev = src->dev;
	x->page_off = page_off;
	x->fd = -1;
	int err = 0;
	x->shmem = src->shmem;
	x->sealed = src->seals & F_SEAL_SHRINK; /* seals are the inode's */
	x->fsize = src->size;
	x->granule = g;
	/* udmabuf wants the pool memfd sealed first (the pool file lives as
	 * long as the heap: its fd cannot have gone); a file of its own is
	 * sealed through our own fd once the block is known live
	 * (xfile_ready). */
	if (use_udmabuf && (err = ipc_fd_seal_shrink(info->fd))) {
		u_warn("ipc", "cannot seal the backing memfd against "
			      "shrinking: %s", strerror(-err));
		goto err_free;
	}
	if (use_udmabuf) {
		uint64_t len = (info->fd_offset - page_off + info->size + g -
				1) / g * g;
		x->fd = ipc_udmabuf_create(info->fd, page_off, len);
		if (x->fd >= 0) {
			x->udmabuf = x->dmabuf = true;
			x->whole = info->fd_offset == page_off;
		} else if (!pool_export()) {
			/* Never the pool file instead: it holds others. */
			u_info("ipc", "udmabuf: %s; %p not exported",
			       strerror(-x->fd), info->base);
			err = -EBUSY;
			goto err_free;
		} else {
			/* ZEMEM_IPC_POOL_EXPORT: the pool file (not a udmabuf
			 * xfile: look that one up under its own key). */
			free(x);
			page_off = 0;
			key = xfile_key(src->dev, src->ino, 0, false);
			x = xfile_find(key, src, 0, false);
			if (x)
				goto found;
			if (!(x = calloc(1, sizeof(*x))))
				return -ENOMEM;
			x->key = key;
			x->src_ino = src->ino;
			x->src_dev = src->dev;
			x->fd = -1;
		}
	}
	if (x->fd < 0 && src->dmabuf) {
		x->fd = ipc_fd_dup(info->fd);
		x->dmabuf = true;
		x->whole = whole;
	} else if (x->fd < 0) {
		x->whole = whole;
		x->fd = ipc_fd_reopen(info->fd);
		if (x->fd >= 0) {
			/* A segment's position only says "segment" (for
			 * zeMemGetIpcHandleFromFileDescriptorExp); a whole
			 * file's gets its export's secret (export_rekey). */
			x->in_pos = true;
			if (!whole && (ipc_tag_new(0, false, &x->tag) ||
				       ipc_fd_set_pos(x->fd, x->tag)))
				x->tag = 0;
		} else {
			u_info("ipc", "reopen through /proc: %s; exporting a "
				      "dup (untagged)", strerror(-x->fd));
			x->fd = ipc_fd_dup(info->fd);
		}
	}
	if (x->fd < 0) {
		err = x->fd;
		goto err_free;
	}
	struct ipc_fdinfo fi; /* our O_RDWR reopen, or a dup of usm's fd */
	if ((err = ipc_fd_inspect_file(x->fd, &fi)))
		goto err_close;
	if (!x->udmabuf && (fi.ino != src->ino || fi.dev != src->dev)) {
		err = -ENOENT; /* the allocation went, its fd number reused */
		goto err_close;
	}
	x->ino = fi.ino;
	x->hnext = ipc_map_get(&xfiles, key);
	if ((err = ipc_map_put(&xfiles, key, x)))
		goto err_close;
	n_xfiles++;
	u_dbg("ipc", "export file fd %d (ino %llu, %s%s%s)", x->fd,
	      (unsigned long long)x->ino, x->dmabuf ? "dma-buf" : "memfd",
	      x->whole ? ", whole" : "", x->tag ? ", tagged" : "");
found:
	x->refs++;
	*out = x;
	*offset = info->fd_offset - x->page_off;
	return 0;
err_close:
	close(x->fd);
err_free:
	free(x);
	return err;
}

static void
export_release(struct export *e)
{
	if (e->by_base && ipc_map_get(&by_base, (uintptr_t)e->base) == e)
		ipc_map_del(&by_base, (uintptr_t)e->base);
	ipc_map_del(&by_id, e->id);
	n_exports--;
	atomic_store(&any_exports, n_exports);
	xfile_put(e->xf);
	free(e);
}

/* The export record of a live allocation; creates it. Under export_lock. */
static int
export_get(const struct usm_info *info, const struct ipc_fdinfo *src,
	   struct export **out)
{
	struct export *e = ipc_map_get(&by_base, (uintptr_t)info->base);
	if (e && e->alloc_id == info->id)
		goto found;
	if (e) {
		/* A freed allocation's record (address reused). */
		ipc_map_del(&by_base, (uintptr_t)info->base);
		e->by_base = false;
	}
	if (!(e = calloc(1, sizeof(*e))))
		return -ENOMEM;
	int err = xfile_get(info, src, &e->xf, &e->offset);
	if (err)
		goto err_free;
	do {
		e->id = ++next_id;
	} while (!e->id || ipc_map_get(&by_id, e->id));
	do {
		e->serial = ++next_serial;
	} while (!e->serial);
	e->base = info->base;
	e->alloc_id = info->id;
	e->size = info->size;
	e->kind = (uint8_t)info->kind;
	/* MEM handles carry the board's code where PHYS ones carry the
	 * device ordinal (informative there, and unused by importers). */
	e->device = (uint16_t)ipc_board_code();
	if ((err = export_rekey(e)))
		goto err_xfile;
	if ((err = ipc_map_put(&by_id, e->id, e)))
		goto err_xfile;
	if ((err = ipc_map_put(&by_base, (uintptr_t)e->base, e))) {
		ipc_map_del(&by_id, e->id);
		goto err_xfile;
	}
	e->by_base = true;
	n_exports++;
	atomic_store(&any_exports, n_exports);
found:
	*out = e;
	return 0;
err_xfile:
	xfile_put(e->xf);
err_free:
	free(e);
	return err;
}

/* Drops one reference of e (a put, or a get that failed late); the record
 * goes with the last one unless an external fd is out. */
static void
export_unref(struct export *e)
{
	e->refs--;
	n_handles--;
	if (!e->refs && !e->ext)
		export_release(e);
}

/* Can the allocation be handed out alone? In a file of its own; or (with
 * udmabuf only, xfile_get) a page-exclusive block of the page-isolated
 * classes (host, device), which no later allocation can join on its pages
 * (shared blocks are page-exclusive only for now). */
static bool
isolated(const struct usm_info *info, const struct ipc_fdinfo *src)
{
	if (info->own_file)
		return true;
	return info->page_exclusive && src->shmem &&
	       info->kind != USM_KIND_SHARED &&
	       (ipc_udmabuf_status() == 0 || pool_export());
}

/* Checks shared by get and the external fd: ptr is the base of a live,
 * exportable allocation of c. Outside any lock; nothing is marked yet
 * (mark() does, once the export exists). */
static int
prepare(struct _ze_context_handle_t *c, const void *ptr,
	struct usm_info *info, struct ipc_fdinfo *src)
{
	struct usm_heap *heap = drv_driver.heap;
	int err = usm_query(heap, ptr, info);
	if (err)
		return -ENOENT;
	if (info->ctx != c)
		return -EPERM;
	if (info->base != ptr)
		return -EINVAL;
	if (info->fd < 0)
		return -EOPNOTSUPP;
	if (info->size > IPC_MAX_BYTES || info->fd_offset > IPC_MAX_BYTES)
		return -EFBIG;
	if ((err = ipc_fd_inspect_file(info->fd, src))) /* usm's: O_RDWR */
		return err;
	if (!src->shmem && !src->dmabuf)
		return -EOPNOTSUPP;
	if (!isolated(info, src))
		return -EBUSY;
	return 0;
}

/* After the export record exists and before its fd leaves: the
 * allocation is marked exported in usm (so its free gives its file up).
 * -ENOENT when it was freed meanwhile: then the caller drops what it
 * made, and no handle of it ever left. Outside any lock. */
static int
mark(const struct usm_info *info)
{
	if (info->exported)
		return 0;
	struct usm_heap *heap = drv_driver.heap;
	struct usm_info now;
	if (usm_mark_exported(heap, info->base))
		return -ENOENT;
	/* Freed and reallocated meanwhile? Then it is not ours. */
	if (usm_lookup(heap, info->base, &now) || now.id != info->id)
		return -ENOENT;
	return 0;
}

/* A ready, tagged export of a memfd of its own goes on the board, so that
 * importers need not ask the file (ipc_board.c). Under export_lock. */
static void
export_board(struct export *e)
{
	struct xfile *x = e->xf;
	if (x->bslot || !e->device || !export_tagged(e) || !x->shmem ||
	    x->dmabuf || !x->ready)
		return;
	int slot = ipc_board_publish(e->id, x->fd, x->ino, x->tag, x->fsize,
				     x->granule);
	if (slot >= 0) {
		x->bslot = slot + 1;
		x->bid = e->id;
	}
}

int
ipc_export_get(struct _ze_context_handle_t *c, const void *ptr, void *out64)
{
	struct usm_info info;
	struct ipc_fdinfo src;
	struct ipc_self me;
	int err = prepare(c, ptr, &info, &src);
	if (err)
		return err;
	ipc_self(&me);
	struct ipc_desc d = { .type = IPC_TYPE_MEM, .pid = me.pid,
			      .nonce = me.nonce };
	struct export *e;
	pthread_mutex_lock(&export_lock);
	if ((err = export_get(&info, &src, &e)))
		goto out;
	if (!e->secret && (err = export_rekey(e)))
		goto out; /* revoked at its last put, kept by e->ext */
	e->refs++;
	n_handles++;
	d.serial = e->serial;
	d.fd = d.fd_copy = e->xf->fd;
	d.kind = e->kind;
	d.device = e->device;
	d.flags = (export_tagged(e) ? IPC_FLAG_TAGGED : 0) |
		  (e->xf->dmabuf ? IPC_FLAG_DMABUF : 0) |
		  (e->xf->whole && !e->offset ? IPC_FLAG_WHOLE : 0);
	d.ino = (uint32_t)e->xf->ino;
	d.tag = e->secret;
	d.export_id = e->id;
	d.size = e->size;
	d.offset = e->offset;
out:
	pthread_mutex_unlock(&export_lock);
	if (err)
		return err;
	err = mark(&info);
	pthread_mutex_lock(&export_lock);
	/* our reference keeps e */
	if (!err)
		err = xfile_ready(e->xf, e);
	if (err)
		export_unref(e);
	else
		export_board(e);
	pthread_mutex_unlock(&export_lock);
	if (err)
		return err;
	ipc_handle_encode(&d, out64);
	ipc_yama_note_once();
	ipc_broker_ensure();
	return 0;
}

/* The live export a MEM handle of this process names: every field must be
 * what its get wrote (the serial aside: put checks it). Under
 * export_lock. */
static struct export *
export_of(const struct ipc_desc *d)
{
	struct export *e = ipc_map_get(&by_id, d->export_id);
	if (!e || !e->secret || e->secret != d->tag ||
	    d->type != IPC_TYPE_MEM || (uint32_t)e->xf->ino != d->ino ||
	    e->offset != d->offset || e->size != d->size ||
	    e->xf->fd != d->fd_copy || e->kind != d->kind ||
	    e->device != d->device)
		return NULL;
	uint8_t flags = (export_tagged(e) ? IPC_FLAG_TAGGED : 0) |
			(e->xf->dmabuf ? IPC_FLAG_DMABUF : 0) |
			(e->xf->whole && !e->offset ? IPC_FLAG_WHOLE : 0);
	return flags == d->flags ? e : NULL;
}

int
ipc_export_put(const struct ipc_desc *d)
{
	int err = -ENOENT;
	pthread_mutex_lock(&export_lock);
	struct export *e = export_of(d);
	if (e && e->serial == d->serial && e->refs) {
		err = 0;
		if (e->refs == 1 && e->ext) {
			/* The last put, an external fd keeps the record:
			 * revoke, so its handles open nowhere any more. */
			if (export_tagged(e))
				xfile_revoke(e->xf);
			e->secret = 0;
		}
		export_unref(e);
	} else if ((e || !ipc_map_get(&by_id, d->export_id)) &&
		   d->serial && d->serial - 1 < next_serial &&
		   d->export_id && d->export_id - 1 < next_id) {
		/* Issued here (ids and serials only grow), and its last put
		 * is done; a live record that the fields do not match is a
		 * forgery (-ENOENT). */
		err = -EALREADY;
	}
	pthread_mutex_unlock(&export_lock);
	return err;
}

int
ipc_export_fetch(const struct ipc_desc *d, int *fd)
{
	int err = -ESTALE;
	pthread_mutex_lock(&export_lock);
	struct export *e = export_of(d);
	if (e) {
		*fd = ipc_fd_dup(e->xf->fd);
		err = *fd < 0 ? *fd : 0;
	}
	pthread_mutex_unlock(&export_lock);
	return err;
}

bool
ipc_export_live(const struct ipc_desc *d)
{
	pthread_mutex_lock(&export_lock);
	bool live = export_of(d) != NULL;
	pthread_mutex_unlock(&export_lock);
	return live;
}

int
ipc_export_handle_fd(const struct ipc_desc *d, int *fd)
{
	int err = -ENOENT;
	pthread_mutex_lock(&export_lock);
	struct export *e = export_of(d);
	if (e) {
		err = e->xf->whole && !e->offset ? 0 : -EOPNOTSUPP;
		*fd = e->xf->fd;
	}
	pthread_mutex_unlock(&export_lock);
	return err;
}

int
ipc_export_alloc_fd(struct _ze_context_handle_t *c,
		    const struct usm_info *qinfo, uint32_t type, int *fd)
{
	struct usm_info info;
	struct ipc_fdinfo src;
	int err = prepare(c, qinfo->base, &info, &src);
	if (err)
		return err;
	if ((type & ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF) && !src.dmabuf)
		return -EPROTONOSUPPORT;
	struct export *e;
	pthread_mutex_lock(&export_lock);
	if ((err = export_get(&info, &src, &e)))
		goto out;
	if (!e->xf->whole || e->offset) {
		/* The fd would show other allocations' pages. */
		if (!e->refs && !e->ext)
			export_release(e);
		err = -EOPNOTSUPP;
		goto out;
	}
	bool had_ext = e->ext;
	uint32_t e_id = e->id;
	e->ext = true;
	*fd = e->xf->fd;
	pthread_mutex_unlock(&export_lock);
	err = mark(&info);
	pthread_mutex_lock(&export_lock);
	bool live = ipc_map_get(&by_id, e_id) == e;
	if (!err)
		err = live ? xfile_ready(e->xf, e) : -ENOENT;
	if (err && live && !had_ext) {
		e->ext = false;
		if (!e->refs)
			export_release(e);
	}
	pthread_mutex_unlock(&export_lock);
	if (err)
		*fd = -1;
	return err;
out:
	pthread_mutex_unlock(&export_lock);
	return err;
}

void
ipc_export_freed(const struct usm_info *info)
{
	if (!atomic_load_explicit(&any_exports, memory_order_relaxed))
		return;
	pthread_mutex_lock(&export_lock);
	struct export *e = ipc_map_get(&by_base, (uintptr_t)info->base);
	if (e && e->alloc_id == info->id) {
		ipc_map_del(&by_base, (uintptr_t)info->base);
		e->by_base = false;
		e->ext = false;
		if (!e->refs)
			export_release(e);
	}
	pthread_mutex_unlock(&export_lock);
}

void
ipc_export_init(void)
{
	pthread_mutex_lock(&export_lock);
	ipc_board_code(); /* made with the broker, before the first export */
	pthread_mutex_unlock(&export_lock);
}

uint32_t
ipc_export_types(void)
{
	uint32_t t = ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD;
	const char *why;
	if (!usm_backend_status(BK_UDMABUF, &why) ||
	    !usm_backend_status(BK_DRM_PRIME, &why))
		t |= ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF;
	return t;
}

void
ipc_export_fork_prepare(void)
{
	pthread_mutex_lock(&export_lock);
}

void
ipc_export_fork_parent(void)
{
	pthread_mutex_unlock(&export_lock);
}

static void
drop_export(uint64_t key, void *val, void *arg)
{
	(void)key;
	(void)arg;
	struct export *e = val;
	free(e);
}

static void
drop_xfile(uint64_t key, void *val, void *arg)
{
	(void)key;
	(void)arg;
	for (struct xfile *x = val, *next; x; x = next) {
		next = x->hnext;
		close(x->fd); /* no revoke: the parent still exports it */
		free(x);
	}
}

void
ipc_export_fork_child(void)
{
	ipc_map_each(&by_id, drop_export, NULL);
	ipc_map_each(&xfiles, drop_xfile, NULL);
	ipc_map_clear(&by_id);
	ipc_map_clear(&by_base);
	ipc_map_clear(&xfiles);
	n_exports = n_xfiles = n_handles = 0;
	atomic_store(&any_exports, 0);
	ipc_board_fork_child();
	u_fork_child_mutex(&export_lock);
}
