// SPDX-License-Identifier: MIT
/*
 * ipc_board: the exporter's board, a page table of its live tagged exports
 * that importers read instead of asking the kernel about each file.
 *
 * Why: a cold open through pidfd_getfd must prove that the file it got at
 * the handle's fd number is the export the handle names (the number may
 * have been closed and reused since) and that it carries the export's
 * secret. Asking the file (fstat: inode, type, size, access time) is one
 * system call per open, a fifth beside pidfd_getfd, mmap, munmap and
 * close; where a system call costs a microsecond (a VM that traps each
 * one), that alone is 1.2x of the kernel's own floor. The board answers
 * from memory.
 *
 * What: a memfd of IPC_BOARD_BYTES, made at driver init (with the broker; a
 * fork child makes its own at its first export):
 * a header (magic, pid, nonce: whose board it is) and IPC_BOARD_SLOTS entries,
 * one per export (slot: export id modulo IPC_BOARD_SLOTS; an export whose slot
 * is taken goes without, and its importers ask the file as before). An
 * entry says: export id, fd number, inode, secret, file size and mapping
 * granule of a whole, sealed, tagged memfd export, under a sequence word
 * (a seqlock across processes): even and non-zero while the entry holds,
 * odd while it changes or once it was withdrawn. The exporter withdraws
 * an entry (odd, then a full fence) before the file's fd is closed or its
 * secret changes, and publishes one only once the fd holds that file.
 *
 * An importer (ipc_import.c) reads the entry's word, checks the entry
 * against the handle, takes the fd with pidfd_getfd, and reads the word
 * again: unchanged means the entry held for the whole of the take, so the
 * fd it got is the export's file, with that secret. Any other answer sends
 * it to the file's own check (fstat), as before.
 *
 * Trust: the exporter maps the board writable, then seals it
 * (F_SEAL_FUTURE_WRITE, and against shrinking, growing and new seals):
 * nobody else can write it or map it writable, not even with its fd. Its
 * writable mapping is not inherited by a fork child (MADV_DONTFORK). Only
 * a process that may pidfd_getfd from the exporter (ptrace rights, which
 * own the exporter anyway) can read it; an importer maps it only when it
 * carries those seals, is this size, belongs to its euid (an exporter of
 * another user could otherwise claim a seal it does not have and shrink
 * the file under the mapping) and names the handle's pid and nonce.
 * Without F_SEAL_FUTURE_WRITE (Linux < 5.1) there is no board.
 */
#include "ipc.h"
#include "u_log.h"
#include "u_options.h"
#include "u_os.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct board {
	struct ipc_board_head head;
	struct ipc_board_ent ent[IPC_BOARD_SLOTS];
};

_Static_assert(sizeof(struct ipc_board_head) == 64, "board header: 64 bytes");
_Static_assert(sizeof(struct ipc_board_ent) == 64, "board entry: 64 bytes");
_Static_assert(sizeof(struct board) == IPC_BOARD_BYTES, "board size");

/* ---- the exporter's side (under export_lock) ---------------------------- */

static struct board *mine;   /* writable mapping, or NULL */
static int mine_fd = -1;
static int mine_code;        /* fd + 1, 0: none (yet) */
static bool mine_failed;     /* tried, and there is none */
static uint32_t owner[IPC_BOARD_SLOTS]; /* export id in each slot, 0: free */

static int
board_make(void)
{
	struct ipc_self me;
	int fd = u_memfd_create("zemem-ipc-board", IPC_BOARD_BYTES);
	if (fd < 0)
		return fd;
	if (fd >= UINT16_MAX - 1) { /* the handle has 16 bits for it */
		close(fd);
		return -EMFILE;
	}
	void *p = mmap(NULL, IPC_BOARD_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED,
		       fd, 0);
	int err = 0;
	if (p == MAP_FAILED) {
		err = -errno;
		close(fd);
		return err;
	}
	if (madvise(p, IPC_BOARD_BYTES, MADV_DONTFORK) < 0 ||
	    fcntl(fd, F_ADD_SEALS, IPC_BOARD_SEALS) < 0) {
		err = -errno;
		munmap(p, IPC_BOARD_BYTES);
		close(fd);
		return err;
	}
	ipc_self(&me);
	mine = p;
	mine->head = (struct ipc_board_head){ .magic = IPC_BOARD_MAGIC,
					  .nonce = me.nonce, .pid = me.pid,
					  .slots = IPC_BOARD_SLOTS };
	mine_fd = fd;
	mine_code = fd + 1;
	return 0;
}

int
ipc_board_code(void)
{
	if (mine || mine_failed)
		return mine_code;
	if (!u_option_u64(U_OPT_IPC_BOARD)) {
		mine_failed = true;
		u_info("ipc", "no export board (ZEMEM_IPC_BOARD=0)");
		return 0;
	}
	int err = board_make();
	if (err) {
		mine_failed = true;
		u_info("ipc", "no export board (%s): cold imports of this "
			      "process's handles check each file with fstat",
		       strerror(-err));
	}
	return mine_code;
}

int
ipc_board_publish(uint32_t export_id, int fd, uint64_t ino, uint64_t tag,
		  uint64_t fsize, size_t granule)
{
	if (!mine || !export_id || fd < 0)
		return -1;
	uint32_t slot = export_id % IPC_BOARD_SLOTS;
	if (owner[slot] && owner[slot] != export_id)
		return -1;
	struct ipc_board_ent *e = &mine->ent[slot];
	uint64_t s = atomic_load_explicit(&e->seq, memory_order_relaxed);
	if (!(s & 1))
		atomic_store_explicit(&e->seq, ++s, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&e->export_id, export_id, memory_order_relaxed);
	atomic_store_explicit(&e->fd, fd, memory_order_relaxed);
	atomic_store_explicit(&e->ino, ino, memory_order_relaxed);
	atomic_store_explicit(&e->tag, tag, memory_order_relaxed);
	atomic_store_explicit(&e->fsize, fsize, memory_order_relaxed);
	atomic_store_explicit(&e->granule, granule, memory_order_relaxed);
	atomic_store_explicit(&e->seq, s + 1, memory_order_release);
	owner[slot] = export_id;
	return (int)slot;
}

void
ipc_board_withdraw(int slot, uint32_t export_id)
{
	if (!mine || slot < 0 || (uint32_t)slot >= IPC_BOARD_SLOTS ||
	    owner[slot] != export_id)
		return;
	struct ipc_board_ent *e = &mine->ent[slot];
	uint64_t s = atomic_load_explicit(&e->seq, memory_order_relaxed);
	if (!(s & 1))
		atomic_store_explicit(&e->seq, s + 1, memory_order_relaxed);
	/* Seen odd before the fd is closed or retagged (the caller's next
	 * system call): an importer whose take follows that reads it. */
	atomic_thread_fence(memory_order_seq_cst);
	owner[slot] = 0;
}

void
ipc_board_fork_child(void)
{
	/* The parent's board: not mapped here (MADV_DONTFORK), and its fd
	 * is the parent's business. The child makes its own. */
	if (mine_fd >= 0)
		close(mine_fd);
	mine = NULL;
	mine_fd = -1;
	mine_code = 0;
	mine_failed = false;
	memset(owner, 0, sizeof(owner));
}

/* ---- the importer's side ------------------------------------------------ */

int
ipc_board_map(int fd, int32_t pid, uint64_t nonce, const void **out)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_size != IPC_BOARD_BYTES ||
	    st.st_uid != geteuid())
		return -EPERM;
	int seals = fcntl(fd, F_GET_SEALS);
	if (seals < 0)
		return -errno;
	if ((seals & IPC_BOARD_SEALS) != IPC_BOARD_SEALS)
		return -EPERM;
	const struct board *b = mmap(NULL, IPC_BOARD_BYTES, PROT_READ, MAP_SHARED,
				     fd, 0);
	if (b == MAP_FAILED)
		return -errno;
	if (b->head.magic != IPC_BOARD_MAGIC || b->head.pid != pid ||
	    b->head.nonce != nonce || b->head.slots != IPC_BOARD_SLOTS) {
		munmap((void *)b, IPC_BOARD_BYTES);
		return -EPERM;
	}
	*out = b;
	return 0;
}

void
ipc_board_unmap(const void *b)
{
	if (b)
		munmap((void *)b, IPC_BOARD_BYTES);
}

uint64_t
ipc_board_vouch(const void *board, const struct ipc_desc *d,
		struct ipc_fdinfo *fi)
{
	const struct board *b = board;
	if (!b || b->head.nonce != d->nonce || b->head.pid != d->pid ||
	    !(d->flags & IPC_FLAG_TAGGED) || (d->flags & IPC_FLAG_DMABUF))
		return 0;
	const struct ipc_board_ent *e = &b->ent[d->export_id % IPC_BOARD_SLOTS];
	uint64_t s = atomic_load_explicit(&e->seq, memory_order_acquire);
	if (!s || (s & 1))
		return 0;
	uint64_t ino = atomic_load_explicit(&e->ino, memory_order_relaxed);
	uint64_t tag = atomic_load_explicit(&e->tag, memory_order_relaxed);
	uint64_t fsize = atomic_load_explicit(&e->fsize, memory_order_relaxed);
	uint64_t g = atomic_load_explicit(&e->granule, memory_order_relaxed);
	uint32_t id = atomic_load_explicit(&e->export_id,
					   memory_order_relaxed);
	int32_t fd = atomic_load_explicit(&e->fd, memory_order_relaxed);
	atomic_thread_fence(memory_order_acquire);
	if (atomic_load_explicit(&e->seq, memory_order_relaxed) != s)
		return 0;
	if (id != d->export_id || fd != d->fd_copy || !tag || tag != d->tag ||
	    (uint32_t)ino != d->ino || !g || (g & (g - 1)) ||
	    d->offset + d->size > fsize)
		return 0;
	*fi = (struct ipc_fdinfo){ .ino = ino, .size = fsize, .granule = g,
				   .seals = F_SEAL_SHRINK, .shmem = true,
				   .writable = true };
	return s;
}

bool
ipc_board_still(const void *board, const struct ipc_desc *d, uint64_t seq)
{
	const struct board *b = board;
	/* After the take (a system call): its effects before this load. */
	atomic_thread_fence(memory_order_seq_cst);
	return b && seq && b->head.nonce == d->nonce && b->head.pid == d->pid &&
	       atomic_load_explicit(&b->ent[d->export_id % IPC_BOARD_SLOTS].seq,
				    memory_order_relaxed) == seq;
}
