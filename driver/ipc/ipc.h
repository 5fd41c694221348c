// SPDX-License-Identifier: MIT
/*
 * ipc: private header of the IPC part of the zemem driver: the 64-byte
 * handle format, fd export (exporter side), fd transport and import
 * (importer side).
 *
 * Vocabulary:
 *   handle    the 64 opaque bytes of ze_ipc_mem_handle_t (struct ipc_wire),
 *             decoded into struct ipc_desc;
 *   self      this process's identity: pid and a 64-bit random nonce made
 *             at first use and again in a fork child (public: it is in
 *             every handle and names the broker), and a second nonce for
 *             fd handles, which never leave the process;
 *   secret    the tag of a handle: 53 random bits per export (getrandom)
 *             with the kind and WHOLE; revoked by the last put;
 *   xfile     (exporter) one open file description of our own per exported
 *             backing file (memfd inode, or a dma-buf): reopened through
 *             /proc/self/fd so its file position is ours. A whole file
 *             (one allocation) has its own xfile and its position is that
 *             export's secret (TAGGED), which every process that got the
 *             file through pidfd_getfd or SCM_RIGHTS shares and checks;
 *             where the file system keeps it (FS_NOATIME_FL: tmpfs since
 *             Linux 6.0) so is the file's access time, which the fstat of
 *             every import reads anyway; a segment's xfile is shared by
 *             its exports and its position only says "segment"; both set
 *             back to 0 ("revoked") when released;
 *   export    (exporter) one exported allocation: refcount = outstanding
 *             handles (each with a serial) + one for an external-memory fd;
 *   cent      (importer) cache entry: one received fd per (exporter, file),
 *             refcounted by the imports that map it, revalidated against
 *             the exporter at every hit;
 *   import    (importer) one mapping returned by open (or by an allocation
 *             with ze_external_memory_import_fd_t), found from any interior
 *             pointer through the import index.
 *
 * Files: ipc_handle.c (format), ipc_os.c (system calls), ipc_seal.c
 * (files known sealed: one F_GET_SEALS per file), ipc_map.c
 * (hash table), ipc_export.c, ipc_broker.c, ipc_import.c, ipc_api.c (the
 * ze* entry points, the hooks drv_mem.c calls, this process's identity),
 * ipc_phys.c (handles of physical memory: one object, or a range of
 * several, IPC_TYPE_PHYS; its two locks are leaves, taken after
 * index_lock and before export_lock by the fork handlers).
 *
 * Lock order: usm heap locks -> export_lock (ipc_export.c; drv_mem_release
 * runs under usm locks and calls ipc_mem_freed) ; import_lock (ipc_import.c)
 * -> index_lock (ipc_import.c) -> export_lock. No ipc lock is held across a
 * call into usm. broker_lock (ipc_broker.c), pidfd_lock (ipc_import.c),
 * pcache_lock (ipc_phys.c) and parked_lock (ipc_os.c) are leaves; the
 * driver's address map (amap_lock, amap/amap.h: the import index of
 * ipc_import.c and ipc_phys.c) is taken under index_lock and ilock and is
 * a leaf of the whole driver. fork:
 * the prepare handler takes import_lock, index_lock, pidfd_lock, then
 * ipc_phys.c's, export_lock, broker_lock in that order.
 *
 * Threat model (issue 14). Another uid gets nothing (pidfd_getfd refuses,
 * the broker checks SO_PEERCRED at accept). A process of our uid that may
 * not ptrace us (Yama scope >= 1 and not our ancestor; zemem never calls
 * PR_SET_PTRACER) cannot make an importer map anything but the live
 * export a handle names: a forged or stale handle must show the export's
 * secret, which the exporter checks (broker, local) or which the file
 * must carry in its access time or its position (pidfd, the application's
 * fd; TAGGED only) or the exporter's board must vouch for (pidfd; sealed
 * against every writer but the exporter's own mapping, ipc_board.c), and
 * import caches are revalidated against the exporter (board, kcmp,
 * broker). What such a process can still do, and what is
 * out of scope: read /proc/<pid>/fdinfo and fstat /proc/<pid>/fd/N
 * (positions and access times, so secrets of tagged exports; the same
 * secrets in the exporter's board, which they may read) and open
 * /proc/<pid>/fd/N of a dumpable exporter, i.e. read and write every memfd
 * of it directly, with or without zemem; a holder of an export's file (an
 * importer) can change its position and access time and so deny or replay
 * that one file. With ptrace rights (Yama 0, an ancestor, root) a process
 * owns the exporter outright: no handle format can help.
 *
 * Errors: -errno inside; ipc_api.c turns them into ze_result_t through
 * drv_result() with a message for each case.
 */
#ifndef ZEMEM_IPC_H
#define ZEMEM_IPC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "amap/amap.h"
#include "drv_core.h"
#include "ipc_api.h"

/* ---- ipc_handle.c ----------------------------------------------------- */

#define IPC_MAGIC 0x5a4du /* bytes 4..5: "MZ" */
#define IPC_VERSION 2u /* 2: every MEM and PHYS handle has a secret */

enum ipc_type {
	IPC_TYPE_MEM = 1, /* zeMemGetIpcHandle: an exported allocation */
	IPC_TYPE_FD = 2,  /* ...FromFileDescriptorExp: a local fd, whole */
	IPC_TYPE_PHYS = 3, /* physical objects (ipc_phys.c): fd is the
			    * exporter's list memfd, see there */
};

#define IPC_FLAG_TAGGED 0x1u /* the file carries the tag (access time,
			      * or its xfile's position) */
#define IPC_FLAG_DMABUF 0x2u /* the file is a dma-buf, not a memfd */
#define IPC_FLAG_WHOLE 0x4u  /* the file holds this allocation only, at 0 */
#define IPC_FLAGS_ALL 0x7u

/* Largest size and offset a handle carries (48-bit offset field). */
#define IPC_MAX_BYTES (1ull << 47)

/* Tag layout: the export's secret, also the file position of its xfile
 * (and, where it holds, the file's access time) when TAGGED. Bits 61..63
 * 001, bits 8..60 random (getrandom), bits 0..3 the usm kind, bit 4 set
 * unless the file holds this allocation alone at offset 0 (WHOLE), bits
 * 5..7 zero. Every MEM and PHYS handle has one. */
#define IPC_TAG_MARK (1ull << 61)
#define IPC_TAG_KIND_MASK 0xffull
#define IPC_TAG_SEGMENT 0x10ull

/* The decoded handle. */
struct ipc_desc {
	int32_t fd;         /* bytes 0..3: exporter's fd, or a local one */
	int32_t fd_copy;    /* the exporter's fd number, as it wrote it */
	uint8_t type;       /* enum ipc_type */
	uint8_t kind;       /* enum usm_kind */
	uint8_t flags;      /* IPC_FLAG_* */
	uint16_t device;    /* exporter's device ordinal (informative) */
	int32_t pid;        /* exporter's pid, in its pid namespace */
	uint32_t ino;       /* low 32 bits of the file's inode number */
	uint64_t nonce;     /* exporter's process nonce */
	uint64_t tag;       /* the export's secret (see the tag layout) */
	uint32_t export_id; /* per exporter process, never reused */
	uint32_t serial;    /* per handle (get), for put */
	uint64_t size;      /* bytes of the allocation */
	uint64_t offset;    /* offset of the allocation in the file */
};

struct ipc_self {
	int32_t pid;
	uint64_t nonce;    /* in every MEM and PHYS handle: public */
	uint64_t fd_nonce; /* in fd handles only (never leave the process) */
};

void ipc_handle_encode(const struct ipc_desc *d, void *out64);
/* 0, or -EBADMSG with *why set (static text). Checks everything that can be
 * checked without the process state: magic, version, type, kind, flags,
 * ranges, checksum. */
int ipc_handle_decode(const void *in64, struct ipc_desc *d, const char **why);
/* fork child: the decoder's cache of the last checked handle, whose flag
 * a thread of the parent may have held at the fork, starts empty. */
void ipc_handle_fork_child(void);
/* Were bytes 0..3 overwritten (by the application's own fd passing)? */
static inline bool
ipc_handle_fd_replaced(const struct ipc_desc *d)
{
	return d->fd != d->fd_copy;
}

/* ---- ipc_api.c -------------------------------------------------------- */

/* This process's pid and nonce (made once, again after fork). */
void ipc_self(struct ipc_self *out);
uint64_t ipc_random64(void);
/* Registers the fork handlers once; every ipc entry point calls it. */
void ipc_init_once(void);

/* ---- ipc_os.c --------------------------------------------------------- */

struct ipc_fdinfo {
	uint64_t ino;
	uint64_t dev;
	uint64_t size;     /* st_size */
	uint64_t pos;      /* file position (memfd only, else 0; not read
			    * by ipc_fd_inspect_file) */
	uint64_t atime;    /* access time in seconds when its nanoseconds are
			    * 0 (a tag: ipc_fd_set_atime), else 0 */
	size_t granule;    /* mapping granularity (page or huge page) */
	int seals;         /* F_GET_SEALS, or 0; F_SEAL_SHRINK alone when the
			    * file was seen with it before (ipc_seal.c) */
	bool shmem;        /* tmpfs / hugetlbfs: memfd or shm */
	bool dmabuf;
	bool writable;     /* opened O_RDWR */
};

int ipc_fd_inspect(int fd, struct ipc_fdinfo *out);
/* The file alone, not its open file description: neither the open mode
 * (writable stays true) nor the position (pos stays 0), two system calls
 * less. For an fd about to be mapped PROT_WRITE, where mmap's EACCES
 * tells, and whose tag the access time may prove; for our own O_RDWR
 * files. */
int ipc_fd_inspect_file(int fd, struct ipc_fdinfo *out);
int ipc_fd_dup(int fd);
/* Closes fd, taken from another process (pidfd_getfd, the broker) and
 * found not to be the file a handle names, unless this process holds
 * POSIX locks on its inode (a close would drop them): then it stays open
 * (at most 16 such fds). */
void ipc_fd_drop_taken(int fd);
/* A new open file description of fd's file (/proc/self/fd), O_RDWR. */
int ipc_fd_reopen(int fd);
int ipc_fd_set_pos(int fd, uint64_t pos);
uint64_t ipc_fd_get_pos(int fd);
/* A file's tag, in two carriers: the position of the open file fd (which
 * every fd of that open file description shares) and, where the file
 * system keeps it, the file's access time (seconds, nanoseconds 0), which
 * the fstat of every import reads, so no lseek is needed. ipc_fd_tag
 * writes both (0 or -errno: the position could not be set); *atime is
 * the caller's record of the file (0 not tried yet; then 1: FS_NOATIME_FL
 * set, so reads and mmap leave the time alone; -1: refused, position
 * only). ipc_fd_untag clears both (revoked). ipc_fd_has_tag: does the
 * file, inspected into fi, carry tag in either? */
int ipc_fd_tag(int fd, uint64_t tag, int8_t *atime);
void ipc_fd_untag(int fd, int8_t atime);
bool ipc_fd_has_tag(int fd, const struct ipc_fdinfo *fi, uint64_t tag);
/* Adds F_SEAL_SHRINK to a memfd unless present. */
int ipc_fd_seal_shrink(int fd);
/* dma-buf from [off, off + size) of a memfd through /dev/udmabuf. */
int ipc_udmabuf_create(int memfd, uint64_t off, uint64_t size);
/* 0 when /dev/udmabuf can be opened; -errno (probed once) otherwise. */
int ipc_udmabuf_status(void);
/* Logs once what Yama means for importers; changes nothing (zemem never
 * calls PR_SET_PTRACER). */
void ipc_yama_note_once(void);
/* 64 random bits from getrandom (blocking until the pool is ready, never
 * a guessable fallback; drawn 32 words at a time per thread): 0 or
 * -errno. */
int ipc_secret64(uint64_t *out);
/* In a fork child, first: nothing drawn before the fork is handed out. */
void ipc_secret_fork_child(void);
/* A new tag (see the tag layout) for kind, whole or not: 0 or -errno. */
int ipc_tag_new(uint8_t kind, bool whole, uint64_t *tag);
/* kcmp(KCMP_FILE): 0 when fd1 of pid1 and fd2 of pid2 are one open file,
 * 1 when not, -errno (-EBADF: no such fd; -EPERM, -ENOSYS: cannot tell). */
int ipc_kcmp_file(pid_t pid1, int fd1, pid_t pid2, int fd2);
/* One message with at most one fd (fd < 0: none). */
int ipc_sock_send(int sock, const void *buf, size_t len, int fd);
/* Receives one message; *fd gets a received fd (CLOEXEC) or -1. Returns
 * the byte count or -errno. Extra fds are closed. */
ssize_t ipc_sock_recv(int sock, void *buf, size_t len, int *fd);
int ipc_sock_timeouts(int sock, unsigned ms);

/* ---- ipc_seal.c ------------------------------------------------------- */

struct stat;
/* Was the file of st (dev, inode, ctime) seen sealed with F_SEAL_SHRINK?
 * (Seals are never removed; a changed file has a new ctime.) */
bool ipc_seal_known(const struct stat *st);
/* Notes that the file of st has F_SEAL_SHRINK. */
void ipc_seal_note(const struct stat *st);

/* ---- ipc_map.c -------------------------------------------------------- */

/* Open-addressing hash table: nonzero uint64_t keys -> non-NULL values.
 * Not thread-safe: callers hold the owning lock. */
struct ipc_map {
	uint64_t *keys;
	void **vals;
	size_t cap;   /* power of two, or 0 */
	size_t count;
};

void *ipc_map_get(const struct ipc_map *m, uint64_t key);
/* 0 or -ENOMEM; replacing an existing key's value never fails. */
int ipc_map_put(struct ipc_map *m, uint64_t key, void *val);
void *ipc_map_del(struct ipc_map *m, uint64_t key);
void ipc_map_clear(struct ipc_map *m);
/* Calls fn on each entry; fn must not change the map. */
void ipc_map_each(const struct ipc_map *m, void (*fn)(uint64_t, void *, void *),
		  void *arg);
uint64_t ipc_hash64(uint64_t x);

/* ---- ipc_export.c ----------------------------------------------------- */

/* zeMemGetIpcHandle: ptr is the base of a live allocation of c. */
int ipc_export_get(struct _ze_context_handle_t *c, const void *ptr,
		   void *out64);
/* zeMemPutIpcHandle of a MEM handle made by this process. */
int ipc_export_put(const struct ipc_desc *d);
/* A new fd (CLOEXEC) of the file of the live export of this process that
 * MEM handle d names: its secret (tag) and every other field must be what
 * get wrote (local opens and the broker). -ESTALE when the export was put
 * (its secret revoked) or any field differs. */
int ipc_export_fetch(const struct ipc_desc *d, int *fd);
/* Does d name a live export, as ipc_export_fetch checks? (cache hits) */
bool ipc_export_live(const struct ipc_desc *d);
/* The xfile fd of a live MEM handle of this process (no new reference):
 * zeMemGetFileDescriptorFromIpcHandleExp. -EOPNOTSUPP unless WHOLE. */
int ipc_export_handle_fd(const struct ipc_desc *d, int *fd);
/* ze_external_memory_export_fd_t: a driver-owned fd of the allocation,
 * valid until it is freed. */
int ipc_export_alloc_fd(struct _ze_context_handle_t *c,
			const struct usm_info *info, uint32_t type, int *fd);
/* The allocation was freed (drv_mem_release, under usm locks). */
void ipc_export_freed(const struct usm_info *info);
/* Supported external memory types (ze_external_memory_type_flags_t). */
uint32_t ipc_export_types(void);
/* At driver init: the export board (ipc_board.c), as the broker. */
void ipc_export_init(void);
void ipc_export_fork_prepare(void);
void ipc_export_fork_parent(void);
void ipc_export_fork_child(void);

/* ---- ipc_broker.c ----------------------------------------------------- */

/* Starts this process's broker thread unless running or disabled. */
void ipc_broker_ensure(void);
/* Asks the exporter's broker for the file of d: 0 and *fd, or -errno
 * (-ESRCH: no broker, -EACCES: refused, -ESTALE: export put). */
int ipc_broker_fetch(const struct ipc_desc *d, int *fd);
/* The same for file sub - 1 of a physical-range export (sub >= 1; see
 * ipc_phys.c): the broker answers through ipc_phys_fetch. */
int ipc_broker_fetch_sub(const struct ipc_desc *d, uint32_t sub, int *fd);
/* Does the exporter's broker find d (a MEM handle) live? 0 or -errno. */
int ipc_broker_check(const struct ipc_desc *d);
void ipc_broker_fork_prepare(void);
void ipc_broker_fork_parent(void);
void ipc_broker_fork_child(void);
void ipc_broker_stop(void);

/* ---- ipc_board.c ------------------------------------------------------ */

/* The board's layout (its readers are other processes: a format). */
#include <fcntl.h>
#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010
#endif
#define IPC_BOARD_SEALS                                                     \
	(F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_FUTURE_WRITE | F_SEAL_SEAL)
#define IPC_BOARD_MAGIC 0x6472616f426d655aull /* "ZemBoard" */
#define IPC_BOARD_BYTES 65536u
#define IPC_BOARD_SLOTS (IPC_BOARD_BYTES / 64u - 1u) /* entry: id % this */
struct ipc_board_head {
	uint64_t magic;
	uint64_t nonce;   /* the exporter's */
	int32_t pid;      /* the exporter's */
	uint32_t slots;   /* IPC_BOARD_SLOTS */
	uint8_t pad[40];
};
struct ipc_board_ent {
	_Atomic uint64_t seq; /* even, not 0: holds; odd: changing or gone */
	_Atomic uint64_t ino;
	_Atomic uint64_t tag;
	_Atomic uint64_t fsize;
	_Atomic uint64_t granule;
	_Atomic uint32_t export_id;
	_Atomic int32_t fd;
	uint8_t pad[16];
};

/* Exporter (under export_lock): the code a MEM handle carries in its
 * device field, the board's fd + 1 (0: no board); the board is made at
 * the first call. */
int ipc_board_code(void);
/* Publishes the entry of a whole, sealed, tagged memfd export whose file
 * is fd (the slot, or -1: no board, or the slot is another export's). */
int ipc_board_publish(uint32_t export_id, int fd, uint64_t ino, uint64_t tag,
		      uint64_t fsize, size_t granule);
/* Withdraws it: before fd is closed or its tag changes. */
void ipc_board_withdraw(int slot, uint32_t export_id);
void ipc_board_fork_child(void);
/* Importer: maps the board fd of process pid (nonce) read-only, after
 * checking that it is one (seals, size, owner, header); 0 or -errno. */
int ipc_board_map(int fd, int32_t pid, uint64_t nonce, const void **out);
void ipc_board_unmap(const void *b);
/* Does the board vouch for d's file at d->fd_copy? Its sequence word
 * (then *fi is filled as ipc_fd_inspect_file would), or 0. */
uint64_t ipc_board_vouch(const void *b, const struct ipc_desc *d,
			 struct ipc_fdinfo *fi);
/* After the take: did the entry hold throughout (seq unchanged)? */
bool ipc_board_still(const void *b, const struct ipc_desc *d, uint64_t seq);

/* ---- ipc_import.c ----------------------------------------------------- */

/* ZEMEM_IPC_TRANSPORT: which of pidfd and broker an import may try
 * (warns once about an unknown value, then tries both). */
void ipc_transports(bool *pidfd, bool *broker);
/* Of two failures of a fetch, the one to report: refused, then stale,
 * then exporter gone, then the rest (a or b; 0 is the mildest). */
int ipc_err_worse(int a, int b);
/* pidfd_getfd(num) of process pid through a kept pidfd (ipc_import.c):
 * the new fd, or -errno (-EACCES refused, -ESTALE no such fd, -ESRCH). */
int ipc_pidfd_take(int32_t pid, int num);

/* 0; -EBADMSG (*why says what), -ESTALE (put, revoked, not its file),
 * -ESRCH (exporter gone), -EACCES (refused), -ENOTCONN (every transport
 * off), -EBADF (file not sealed or not writable), -ERANGE, other -errno. */
int ipc_import_open(struct _ze_context_handle_t *c,
		    struct _ze_device_handle_t *dev, const void *in64,
		    void **out, const char **why);
/* 0; -ENOENT unknown; -EINVAL interior; -EPERM other context or an
 * external import (free it with zeMemFree). Copies still queued into the
 * import finish (drv_wait_idle) before it is unmapped. */
int ipc_import_close(struct _ze_context_handle_t *c, const void *ptr);
int ipc_import_external(struct _ze_context_handle_t *c, enum usm_kind kind,
			struct _ze_device_handle_t *dev, int fd, uint32_t type,
			size_t size, void **out);
/* zeMemFree of an external import: 0; -EPERM an IPC open (close it);
 * -EINVAL interior; -ENOENT none. */
int ipc_import_free(struct _ze_context_handle_t *c, void *ptr);
void ipc_import_context_destroyed(struct _ze_context_handle_t *c);
void ipc_import_fork_prepare(void);
void ipc_import_fork_parent(void);
void ipc_import_fork_child(void);

/* ---- ipc_phys.c -------------------------------------------------------- */

/* zeMemGetIpcHandle[WithProperties] on physical memory: ptr is a physical
 * object handle or a mapped VMM address; range is the size of the
 * ze_ipc_phys_mem_handle_range_ext_desc_t chained (0: none). 1 when ptr is
 * neither (the caller exports it as USM), 0, or -errno: -ENOENT unknown,
 * -EPERM another context, -EINVAL interior / misaligned / a physical
 * handle with a range, -E2BIG several objects without a range, -ENXIO a
 * hole in the range, -EFBIG too many objects. */
int ipc_phys_get(struct _ze_context_handle_t *c, const void *ptr,
		 size_t range, void *out64);
/* zeMemPutIpcHandle of a PHYS handle of this process: 0 or -ENOENT. */
int ipc_phys_put(const struct ipc_desc *d);
/* File sub - 1 of the live physical-range export of this process that
 * PHYS handle d names, every field checked (sub 1: the list memfd, sub
 * k >= 2: object k - 2), a new CLOEXEC fd. -ESTALE. */
int ipc_phys_fetch(const struct ipc_desc *d, uint32_t sub, int *fd);
/* zeMemOpenIpcHandle of a decoded PHYS handle. Errors as ipc_import_open. */
int ipc_phys_open(struct _ze_context_handle_t *c,
		  struct _ze_device_handle_t *dev, const struct ipc_desc *d,
		  void **out, const char **why);
/* 0; -ENOENT not a physical-range import; -EINVAL interior; -EPERM. */
int ipc_phys_close(struct _ze_context_handle_t *c, const void *ptr);
void ipc_phys_context_destroyed(struct _ze_context_handle_t *c);
void ipc_phys_fork_prepare(void);
void ipc_phys_fork_parent(void);
void ipc_phys_fork_child(void);

#endif
