// SPDX-License-Identifier: MIT
/*
 * sh_static: the program's global and static variables as symmetric
 * memory (OpenSHMEM "symmetric data objects").
 *
 * What is symmetric: the executable's one writable PT_LOAD segment
 * (.data + .bss, and what the linker put beside them: .got.plt, ...),
 * found with dl_iterate_phdr's first object (the program itself), minus
 * its RELRO part (PT_GNU_RELRO: ld.so makes those pages read-only after
 * relocation; the pages from the one holding RELRO's end to the page
 * holding the end of .bss are what is shared). Every PE runs the same
 * binary, so a variable lies at the same offset in every PE's segment
 * (PIE or not: with ASLR the segment's address differs, the offsets do
 * not). Shared libraries' data is not symmetric (as in the other
 * implementations): an address there is refused like any other.
 *
 * Node-local peers (no ptrace rights needed, whatever Yama says):
 *   swap (sh_init, first: before the bootstrap, the driver and their
 *     threads; only when the job may have more than one PE): a memfd of the
 *     segment's page-rounded size gets the segment's nonzero pages (raw
 *     pwrite: a sanitizer's interceptor would check the redzones between
 *     globals; zero pages stay holes, so a big untouched .bss costs no
 *     memory), then ONE mmap(MAP_FIXED | MAP_SHARED) of the memfd
 *     replaces the segment's pages in place, atomically; the bytes are
 *     already there, so the program sees no change. Nothing between the
 *     copy and the mmap writes the segment (locals only: this code may
 *     itself be linked into the executable), but another thread of the
 *     program writing it then would lose that write: threads the program
 *     created before shmem_init must not write static data during init.
 *   exchange (after sh_tr_ipc_init, which names the node peers and opens
 *     their pidfds): one all-gather of {memfd number, segment size, link
 *     address, ...}; each PE opens every node peer's memfd as
 *     /proc/<pid>/fd/<n> (PTRACE_MODE_READ: the same user; Yama limits
 *     only attach, which pidfd_getfd and process_vm_writev would need),
 *     checks with the pidfd that the pid still names that PE, maps it
 *     (MAP_SHARED) and closes it; a second all-gather of the results,
 *     then each PE closes its memfd (its mapping keeps the memory).
 *   remote(pe, p) = view[pe] + (p - map_lo); pe == me: p. The data
 *   registers as one region of the symmetric-address map (sh_symmap.c),
 *   which answers every lookup.
 * Peers over libfabric: transport/sh_ofi.c registers [map_lo, map_lo +
 * map_len) as one more MR, all-gathers its key and base and sets them
 * as the region's network side.
 *
 * fork: a child must get a private copy, not the parent's shared pages.
 *   The shared segment is MADV_DONTFORK; a pthread_atfork prepare handler
 *   copies it into a private anonymous mapping (the snapshot at fork),
 *   which the child's handler moves onto the segment's address (one
 *   mremap) and the parent's handler unmaps. No snapshot (mmap failed):
 *   the segment is forked shared, as a last resort, with a warning.
 *
 * Errors and limits: a segment of another size or link address on some
 * PE (PEs running different programs) fails init naming the PE
 * (-EINVAL). A layout the swap cannot handle (several writable segments,
 * one sharing a page with another segment), a failed memfd/mmap, or a
 * peer's memfd that cannot be opened leaves static data not symmetric on
 * every PE (a warning; the heap works). Finalize unmaps the peers' views;
 * the own segment stays on its (now fd-less) memfd mapping, and the next
 * init swaps it onto a new memfd.
 */
#include "sh_mem.h"

#include "u_log.h"
#include "u_options.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

struct sh_static sh_static = { .fd = -1 };

/* The fork handlers' state (see above): the shared range once swapped,
 * the prepare handler's snapshot. */
static uintptr_t fork_lo;
static size_t fork_len;
static void *fork_snap;
static bool fork_shared;       /* forking without DONTFORK this time */
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

/* A copy the sanitizers do not check (redzones lie between globals) and
 * the compiler does not turn into a memcpy call (intercepted). */
__attribute__((no_sanitize_address)) static void
raw_copy(void *dst, const void *src, size_t len)
{
	volatile uint64_t *d = dst;
	const volatile uint64_t *s = src;
	for (size_t i = 0; i < len / 8; i++)
		d[i] = s[i];
}

static void
fork_prepare(void)
{
	fork_snap = NULL;
	fork_shared = false;
	if (!fork_len)
		return;
	void *m = mmap(NULL, fork_len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		u_warn("shmem", "fork: no memory for a copy of the static "
				"data: the child shares the parent's");
		madvise((void *)fork_lo, fork_len, MADV_DOFORK);
		fork_shared = true;
		return;
	}
	raw_copy(m, (void *)fork_lo, fork_len);
	fork_snap = m;
}

static void
fork_parent(void)
{
	if (fork_snap)
		munmap(fork_snap, fork_len);
	if (fork_shared)
		madvise((void *)fork_lo, fork_len, MADV_DONTFORK);
	fork_snap = NULL;
}

static void
fork_child(void)
{
	if (!fork_snap)
		return;
	/* the range is a hole here (DONTFORK): the snapshot goes there */
	if (mremap(fork_snap, fork_len, fork_len,
		   MREMAP_MAYMOVE | MREMAP_FIXED, (void *)fork_lo) ==
	    MAP_FAILED) {
		static const char msg[] = "zeshmem: fork: cannot give the "
					  "child its static data\n";
		if (write(2, msg, sizeof(msg) - 1) < 0)
			_exit(1);
		_exit(1);
	}
	fork_snap = NULL;
	fork_len = 0; /* the child's segment is private again */
	sh_static.swapped = false;
}

static void
fork_register(void)
{
	int rc = pthread_atfork(fork_prepare, fork_parent, fork_child);
	if (rc)
		u_warn("shmem", "pthread_atfork: %s: a fork child would share "
				"the static data", strerror(rc));
}

struct seg {
	uintptr_t map_lo, map_hi, data_lo, data_hi;
	uintptr_t anon_lo;         /* first page past the file's bytes */
	uint64_t link_lo;          /* map_lo before relocation */
	const char *why;           /* not usable: why */
};

static int
find_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	struct seg *s = arg;
	const ElfW(Phdr) *rw = NULL, *relro = NULL;
	int nrw = 0;
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W)) {
			rw = ph;
			nrw++;
		} else if (ph->p_type == PT_GNU_RELRO) {
			relro = ph;
		}
	}
	if (!rw) {
		s->why = "the program has no writable segment";
		return 1;
	}
	if (nrw > 1) {
		s->why = "the program has more than one writable segment";
		return 1;
	}
	uintptr_t lo = info->dlpi_addr + rw->p_vaddr;
	uintptr_t hi = lo + rw->p_memsz;
	s->data_lo = lo;
	s->data_hi = hi;
	s->anon_lo = (lo + rw->p_filesz + pg - 1) & ~(pg - 1);
	s->map_lo = lo & ~(pg - 1);
	s->map_hi = (hi + pg - 1) & ~(pg - 1);
	if (relro) {
		uintptr_t rhi = info->dlpi_addr + relro->p_vaddr +
				relro->p_memsz;
		/* ld.so protects RELRO up to its end rounded down */
		if (rhi > s->data_lo && rhi <= hi)
			s->data_lo = rhi;
		if ((rhi & ~(pg - 1)) > s->map_lo && rhi <= hi)
			s->map_lo = rhi & ~(pg - 1);
	}
	if (s->data_lo >= s->data_hi) {
		s->why = "the program's writable segment is all RELRO";
		return 1;
	}
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || ph == rw)
			continue;
		uintptr_t a = (info->dlpi_addr + ph->p_vaddr) & ~(pg - 1);
		uintptr_t b = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz +
			       pg - 1) & ~(pg - 1);
		if (a < s->map_hi && b > s->map_lo) {
			s->why = "the program's writable segment shares a "
				 "page with another segment";
			return 1;
		}
	}
	s->link_lo = s->map_lo - info->dlpi_addr;
	return 1; /* the first object only: the program */
}

/* Is [lo, lo + len) still mapped? (mincore fails with ENOMEM on a hole.) */
static bool
still_mapped(uintptr_t lo, size_t len)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	unsigned char v;
	for (uintptr_t a = lo; a < lo + len; a += pg)
		if (syscall(SYS_mincore, a, pg, &v) && errno == ENOMEM)
			return false;
	return true;
}

__attribute__((no_sanitize_address)) static bool
page_is_zero(const void *p, size_t len)
{
	const uint64_t *w = p;
	for (size_t i = 0; i < len / 8; i++)
		if (w[i])
			return false;
	return true;
}

/* pwrite of [lo + a, lo + b) at offset a; raw: a sanitizer's interceptor
 * would check the redzones between globals. */
static int
write_run(int fd, uintptr_t lo, size_t a, size_t b)
{
	for (unsigned tries = 0; a < b && tries < 1000; tries++) {
		long n = syscall(SYS_pwrite64, fd, lo + a, b - a, (off_t)a);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		a += (size_t)n;
	}
	return a < b ? -EIO : 0;
}

/* Puts the segment onto a memfd in place. Touches no global of the
 * segment between the copy and the mmap (locals only). */
/* Pages of [lo, lo + len) never touched (/proc/self/pagemap: neither
 * present nor swapped), one byte per page (1: untouched); NULL when
 * pagemap cannot be read. Valid for private anonymous memory only (the
 * .bss past the file's bytes before the first swap): there, such a page
 * is zero. */
static unsigned char *
untouched_pages(uintptr_t lo, size_t len)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), n = len / pg;
	if (!n)
		return NULL;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	uint64_t *e = malloc(n * sizeof(*e));
	unsigned char *u = malloc(n);
	size_t bytes = n * sizeof(*e);
	ssize_t r = e && u ? pread(fd, e, bytes, (off_t)(lo / pg * 8)) : -1;
	close(fd);
	if (r != (ssize_t)bytes) {
		free(e);
		free(u);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		u[i] = !(e[i] & (3ull << 62)); /* bit 63 present, 62 swapped */
	free(e);
	return u;
}

static int
swap(uintptr_t lo, size_t len, uintptr_t anon_lo, int *out)
{
	/* Before the first swap, the .bss past the file's bytes is private
	 * anonymous memory: its untouched pages are skipped unread (a large
	 * .bss costs neither memory nor page faults). */
	static bool swapped_once;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t anon_off = anon_lo > lo ? anon_lo - lo : 0;
	unsigned char *u = NULL;
	if (!swapped_once && anon_off < len)
		u = untouched_pages(lo + anon_off, len - anon_off);
	int fd = (int)syscall(SYS_memfd_create, "zeshmem-static",
			      MFD_CLOEXEC);
	if (fd < 0) {
		free(u);
		return -errno;
	}
	if (ftruncate(fd, (off_t)len)) {
		int e = -errno;
		close(fd);
		free(u);
		return e;
	}
	/* Runs of pages with a nonzero byte; zero pages stay holes of the
	 * memfd (a large untouched .bss costs no memory). */
#define SKIP(a) ((u && (a) >= anon_off && u[((a) - anon_off) / pg]) || \
		 page_is_zero((const void *)(lo + (a)), pg))
	for (size_t a = 0; a < len;) {
		if (SKIP(a)) {
			a += pg;
			continue;
		}
		size_t b = a + pg;
		while (b < len && !SKIP(b))
			b += pg;
		int err = write_run(fd, lo, a, b);
		if (err) {
			close(fd);
			free(u);
			return err;
		}
		a = b;
	}
#undef SKIP
	free(u);
	long m = syscall(SYS_mmap, lo, len, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_FIXED, fd, 0);
	if (m < 0 && m > -4096) {
		int e = (int)m;
		if (!still_mapped(lo, len)) {
			/* the kernel dropped the old pages: nothing to go
			 * back to */
			static const char msg[] = "zeshmem: static data lost "
						  "in a failed mmap\n";
			if (write(2, msg, sizeof(msg) - 1) < 0)
				_exit(1);
			_exit(1);
		}
		close(fd);
		return e;
	}
	swapped_once = true;
	*out = fd;
	return 0;
}

static uintptr_t seg_anon_lo;

/* The swap of the segment sh_static_swap found; failures only warn. */
static void
share(void)
{
	uintptr_t lo = sh_static.map_lo;
	size_t len = sh_static.map_len;
	int fd = -1;
	int err = swap(lo, len, seg_anon_lo, &fd);
	if (err) {
		sh_static.why = "cannot put it on shared memory";
		u_warn("shmem", "static data at %p (+%zu): memfd/mmap: %s",
		       (void *)lo, len, strerror(-err));
		return;
	}
	sh_static.fd = fd;
	sh_static.swapped = true;
	/* fork children get a private copy (fork_prepare & co.) */
	pthread_once(&fork_once, fork_register);
	if (!madvise((void *)lo, len, MADV_DONTFORK)) {
		fork_lo = lo;
		fork_len = len;
	}
	u_dbg("shmem", "static data %p..%p shared (memfd %d)",
	      (void *)sh_static.data_lo,
	      (void *)(sh_static.data_lo + sh_static.data_len), fd);
}

int
sh_static_swap(const void *uid, int nranks)
{
	struct seg s = { 0 };
	sh_static.on = false;
	sh_static.swapped = false;
	sh_static.off = !u_option_u64(U_OPT_SH_STATIC_DATA);
	if (sh_static.off) {
		sh_static.why = "ZESHMEM_STATIC_DATA=0";
		sh_static.map_len = sh_static.data_len = 0;
		return 0;
	}
	dl_iterate_phdr(find_cb, &s);
	sh_static.why = s.why;
	if (s.why) {
		sh_static.map_len = 0;
		return 0;
	}
	sh_static.map_lo = s.map_lo;
	sh_static.map_len = s.map_hi - s.map_lo;
	sh_static.data_lo = s.data_lo;
	sh_static.data_len = s.data_hi - s.data_lo;
	sh_static.link_lo = s.link_lo;
	/* Before the bootstrap: a job of one PE has nothing to share (a
	 * unique id of one rank, or no launcher's variables). */
	seg_anon_lo = s.anon_lo;
	bool multi = uid ? nranks > 1
			 : getenv("PMIX_RANK") ||
				   u_option_u64(U_OPT_SH_NRANKS) > 1;
	if (multi)
		share();
	return 0;
}

struct sblob {
	int32_t status;            /* 0: swapped; 1: not symmetric here;
				      2: turned off (ZESHMEM_STATIC_DATA) */
	int32_t fd;
	uint64_t map_len, data_len, link_lo;
};

static bool
same_layout(const struct sblob *a, const struct sblob *b)
{
	return a->map_len == b->map_len && a->data_len == b->data_len &&
	       a->link_lo == b->link_lo;
}

static void
close_views(void)
{
	for (int i = 0; sh_static.view && i < sh.npes; i++)
		if (sh_static.view[i] && i != sh.me)
			munmap(sh_static.view[i], sh_static.map_len);
	free(sh_static.view);
	sh_static.view = NULL;
}

static void
close_fd(void)
{
	if (sh_static.fd >= 0)
		close(sh_static.fd);
	sh_static.fd = -1;
}

/* Maps pe's memfd fd; 0 or -errno. */
static int
open_view(int pe, int fd, char **out)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)sh.pids[pe], fd);
	int f = open(path, O_RDWR | O_CLOEXEC);
	if (f < 0)
		return -errno;
	struct stat st;
	int err = 0;
	if (fstat(f, &st) || (uint64_t)st.st_size != sh_static.map_len)
		err = -ESTALE;
	/* the pid still names that PE (its pidfd not yet readable) */
	int pfd = sh.peers[pe].pidfd;
	struct pollfd p = { .fd = pfd, .events = POLLIN };
	if (!err && pfd >= 0 && poll(&p, 1, 0) > 0)
		err = -ESRCH;
	void *m = MAP_FAILED;
	if (!err) {
		m = mmap(NULL, sh_static.map_len, PROT_READ | PROT_WRITE,
			 MAP_SHARED, f, 0);
		if (m == MAP_FAILED)
			err = -errno;
	}
	close(f);
	if (!err)
		*out = m;
	return err;
}

/* The static data as a region of the symmetric-address map, when it is
 * symmetric: what API calls may address, what the views stand for. */
static void
publish(void)
{
	if (sh_static.on)
		sh_sym_static_set(sh_static.data_lo, sh_static.data_len,
				  sh_static.map_lo, sh_static.view);
}

int
sh_static_init(void)
{
	int n = sh.npes;
	if (n <= 1) {
		/* only this PE: nothing to share, its own data is its own */
		close_fd();
		sh_static.on = !sh_static.why && sh_static.map_len;
		publish();
		return 0;
	}
	/* A job of several PEs that sh_static_swap did not foresee (no
	 * launcher variable it knows): shared now, later than it should be
	 * (the bootstrap's and the driver's threads run). */
	if (!sh_static.swapped && !sh_static.why)
		share();
	struct sblob mine = {
		.status = sh_static.swapped ? 0 : sh_static.off ? 2 : 1,
		.fd = sh_static.fd,
		.map_len = sh_static.map_len,
		.data_len = sh_static.data_len,
		.link_lo = sh_static.link_lo,
	};
	struct sblob *all = calloc((size_t)n, sizeof(*all));
	int32_t *st = calloc((size_t)n, sizeof(*st));
	sh_static.view = calloc((size_t)n, sizeof(*sh_static.view));
	int err = 0;
	if (!all || !st || !sh_static.view) {
		/* no room to take part: the others' all-gather times out */
		err = -ENOMEM;
		goto out;
	}
	if (sh.boot->ops->allgather(sh.boot, &mine, sizeof(mine), all)) {
		err = -EIO;
		goto out;
	}
	/* Every PE sees the same table, so every PE reaches the same
	 * verdict: the job fails when two PEs that share their static data
	 * run programs whose data differ. */
	int ref = -1;
	for (int i = 0; i < n && !err; i++) {
		if (all[i].status == 2) /* turned off: nothing to compare */
			continue;
		if (ref < 0)
			ref = i;
		else if (!same_layout(&all[i], &all[ref]))
			err = -EINVAL;
	}
	if (err) {
		for (int i = 0; i < n && mine.status != 2; i++) {
			if (all[i].status == 2 || same_layout(&all[i], &mine))
				continue;
			u_err("shmem", "PE %d's static data is %llu bytes at "
				       "link address 0x%llx, this PE's %llu at "
				       "0x%llx: every PE must run the same "
				       "program", i,
			      (unsigned long long)all[i].data_len,
			      (unsigned long long)all[i].link_lo,
			      (unsigned long long)mine.data_len,
			      (unsigned long long)mine.link_lo);
		}
		/* Each PE has said what it saw before any PE leaves: a
		 * launcher ends the whole job at the first PE's exit. */
		int32_t said = 1;
		(void)sh.boot->ops->allgather(sh.boot, &said, sizeof(said), st);
	}
	if (err)
		goto out;
	int bad = -1;
	for (int i = 0; i < n && bad < 0; i++)
		if (all[i].status)
			bad = i;
	int32_t e = 0;
	int bad_peer = -1;
	for (int i = 0; bad < 0 && i < n && !e; i++) {
		if (i == sh.me || !sh.peers[i].local)
			continue;
		e = open_view(i, all[i].fd, &sh_static.view[i]);
		if (e)
			bad_peer = i;
	}
	if (e)
		u_warn("shmem", "cannot map PE %d's static data "
				"(/proc/%d/fd/%d): %s", bad_peer,
		       (int)sh.pids[bad_peer], all[bad_peer].fd,
		       strerror(-e));
	/* All or nothing: everyone learns whether everyone mapped. */
	if (sh.boot->ops->allgather(sh.boot, &e, sizeof(e), st)) {
		err = -EIO;
		goto out;
	}
	for (int i = 0; bad < 0 && i < n; i++)
		if (st[i])
			bad = i;
	/* Turned off by a PE's option: no warning (its choice). */
	bool chosen = bad >= 0 && bad < n && !st[bad] && all[bad].status == 2;
	if (bad >= 0) {
		if (!chosen && (sh.me == 0 || bad == sh.me))
			u_warn("shmem", "static data is not symmetric: PE %d "
					"could not share or map it%s%s", bad,
			       bad == sh.me && sh_static.why ? ": " : "",
			       bad == sh.me && sh_static.why ? sh_static.why
							     : "");
		close_views();
		sh_static.on = false;
	} else {
		sh_static.view[sh.me] = (char *)sh_static.map_lo;
		sh_static.on = true;
	}
out:
	close_fd();
	free(all);
	free(st);
	if (err)
		sh_static_fini();
	else
		publish();
	return err;
}

void
sh_static_fini(void)
{
	sh_sym_static_clear();
	close_views();
	close_fd();
	sh_static.on = false;
}
