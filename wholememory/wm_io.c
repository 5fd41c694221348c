// SPDX-License-Identifier: MIT
/*
 * wm_io: wholememory_load_from_file / wholememory_store_to_file.
 *
 * Load (collective): the files are one logical concatenation of records
 * of file_entry_size bytes; record i goes to the table entry i (entries of
 * memory_entry_size bytes, at memory_offset inside the entry) when
 * round_robin_size is 0, else WholeMemory's round-robin layout: record i
 * to rank (i / R) % W at local slot (i / (W * R)) * R + i % R. Each rank
 * reads only its own records. Before anything is read every rank checks
 * the arguments, the files (present, readable, a multiple of the record
 * size, no more records than the table holds) and that its partition
 * holds its records; the checks' results are agreed, so every rank
 * returns the same error and memory is unchanged. The reads run in
 * parallel threads (ZEWM_IO_THREADS, default min(8, CPUs / ranks of this
 * node), at least 1): straight into
 * the table with pread when records fill whole entries, else through an
 * 8 MiB buffer per thread; ZEWM_O_DIRECT=1 opens the files O_DIRECT
 * (page-aligned buffer and file offsets; falls back to cached reads with
 * a log line where the file system refuses it). A read that fails or
 * comes up short is a WHOLEMEMORY_SYSTEM_ERROR on every rank.
 *
 * Store: every rank writes the file_entry_size bytes at memory_offset of
 * each of its entries (stride memory_entry_stride) to its own file, in
 * order; errors are agreed as for load.
 */
#include "wm.h"
#include "u_options.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define IO_BUF (8u << 20)
#define IO_ALIGN 4096u
#define IO_MAX_THREADS 64

struct seg {
	uint64_t rec, n, slot;            /* records rec.., to local slot.. */
};

struct load {
	struct wholememory_handle_ *h;
	size_t moff, mes, fes;
	int nfiles;
	int *fd;
	uint64_t *fstart;                 /* [nfiles + 1] byte offsets */
	struct seg *segs;
	size_t nsegs;
	bool direct, odirect;
};

struct worker {
	pthread_t tid;
	struct load *ld;
	uint64_t from, to;                /* this thread's share of records */
	int err;
};

static double
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int
pread_full(int fd, void *buf, size_t len, uint64_t off, bool eof_ok,
	   size_t *got)
{
	size_t done = 0;
	while (done < len) {
		ssize_t r = pread(fd, (char *)buf + done, len - done,
				  (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		done += (size_t)r;
	}
	if (got)
		*got = done;
	return done == len || eof_ok ? 0 : -EIO;
}

/* Records [rec, rec + n) of the concatenation into slots slot.. */
static int
read_recs(struct load *ld, uint64_t rec, uint64_t n, uint64_t slot,
	  char *buf)
{
	int f = 0;
	while (n) {
		uint64_t pos = rec * ld->fes;
		while (f < ld->nfiles && ld->fstart[f + 1] <= pos)
			f++;
		if (f >= ld->nfiles)
			return -EIO;
		uint64_t in_file = (ld->fstart[f + 1] - pos) / ld->fes;
		uint64_t k = n < in_file ? n : in_file;
		uint64_t foff = pos - ld->fstart[f];
		char *dst = ld->h->local + slot * ld->mes + ld->moff;
		if (ld->direct) {
			int err = pread_full(ld->fd[f], dst, k * ld->fes, foff,
					     false, NULL);
			if (err)
				return err;
		} else {
			uint64_t left = k;
			while (left) {
				uint64_t m = IO_BUF / ld->fes;
				if (m > left)
					m = left;
				uint64_t a = foff, skip = 0;
				size_t len = m * ld->fes, got;
				if (ld->odirect) {
					skip = a % IO_ALIGN;
					a -= skip;
					len = (size_t)((skip + len + IO_ALIGN -
							1) / IO_ALIGN *
						       IO_ALIGN);
				}
				int err = pread_full(ld->fd[f], buf, len, a,
						     ld->odirect, &got);
				if (!err && got < skip + m * ld->fes)
					err = -EIO;
				if (err)
					return err;
				for (uint64_t i = 0; i < m; i++)
					memcpy(dst + i * ld->mes,
					       buf + skip + i * ld->fes,
					       ld->fes);
				dst += m * ld->mes;
				foff += m * ld->fes;
				left -= m;
			}
		}
		rec += k;
		slot += k;
		n -= k;
	}
	return 0;
}

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	struct load *ld = w->ld;
	char *buf = NULL;
	if (!ld->direct &&
	    posix_memalign((void **)&buf, IO_ALIGN, IO_BUF + IO_ALIGN)) {
		w->err = -ENOMEM;
		return NULL;
	}
	/* walk the segments, clipped to [from, to) of the record count */
	uint64_t at = 0;
	for (size_t s = 0; s < ld->nsegs && !w->err; s++) {
		struct seg g = ld->segs[s];
		uint64_t lo = at, hi = at + g.n;
		at = hi;
		if (hi <= w->from || lo >= w->to)
			continue;
		uint64_t a = lo < w->from ? w->from - lo : 0;
		uint64_t b = hi > w->to ? w->to - lo : g.n;
		w->err = read_recs(ld, g.rec + a, b - a, g.slot + a, buf);
	}
	free(buf);
	return NULL;
}

/* The segments of this rank; -EDOM when its partition cannot hold them. */
static int
plan(struct load *ld, uint64_t nrec, int rr)
{
	struct wholememory_handle_ *h = ld->h;
	int me = h->comm->rank, w = h->comm->size;
	uint64_t slots = h->sizes[me] / ld->mes;
	if (rr == 0) {
		uint64_t e0 = h->offs[me] / ld->mes;
		uint64_t n = nrec > e0 ? nrec - e0 : 0;
		if (n > slots)
			n = slots;
		ld->segs = calloc(1, sizeof(struct seg));
		if (!ld->segs)
			return -ENOMEM;
		ld->segs[0] = (struct seg){ e0, n, 0 };
		ld->nsegs = n ? 1 : 0;
		return 0;
	}
	uint64_t nb = (nrec + (uint64_t)rr - 1) / (uint64_t)rr;
	uint64_t mine = nb > (uint64_t)me ?
				(nb - 1 - (uint64_t)me) / (uint64_t)w + 1 : 0;
	ld->segs = calloc(mine ? mine : 1, sizeof(struct seg));
	if (!ld->segs)
		return -ENOMEM;
	for (uint64_t k = 0; k < mine; k++) {
		uint64_t b = (uint64_t)me + k * (uint64_t)w;
		uint64_t n = nrec - b * rr < (uint64_t)rr ? nrec - b * rr :
							   (uint64_t)rr;
		ld->segs[k] = (struct seg){ b * rr, n, k * rr };
		if (k * rr + n > slots) {
			u_err(WM_TOPIC, "round robin %d: rank %d needs %llu "
			      "entries, its partition holds %llu", rr, me,
			      (unsigned long long)(k * rr + n),
			      (unsigned long long)slots);
			return -EDOM;
		}
	}
	ld->nsegs = mine;
	return 0;
}

static int
entries_ok(const struct wholememory_handle_ *h, size_t moff, size_t mes, size_t fes)
{
	if (!mes || !fes || fes > mes || moff > mes - fes) {
		u_err(WM_TOPIC, "entry sizes: memory %zu, offset %zu, file "
		      "%zu (need 0 < file <= memory - offset)", mes, moff,
		      fes);
		return -EDOM;
	}
	for (int r = 0; r <= h->comm->size; r++)
		if (h->offs[r] % mes) {
			u_err(WM_TOPIC, "memory entry size %zu does not "
			      "divide the partition of rank %d", mes, r);
			return -EDOM;
		}
	return 0;
}

struct load_args {
	uint64_t moff, mes, fes, nrec, fhash;
	int32_t count, rr;
};

WM_API wholememory_error_code_t
wholememory_load_from_file(wholememory_handle_t wholememory_handle,
			   size_t memory_offset, size_t memory_entry_size,
			   size_t file_entry_size, const char **file_names,
			   int file_count, int round_robin_size)
{
	struct wholememory_handle_ *h = wholememory_handle;
	if (!wm_handle_live(h))
		return WHOLEMEMORY_INVALID_INPUT;
	struct wholememory_comm_ *c = h->comm;
	struct load ld = { .h = h, .moff = memory_offset,
			   .mes = memory_entry_size, .fes = file_entry_size };
	double t0 = now_ms(), t1 = t0, ta = t0, t2 = t0;
	int err = 0;
	if (!file_names || file_count <= 0) {
		err = -EINVAL;
	} else if (round_robin_size < 0) {
		err = -EDOM;
	} else {
		err = entries_ok(h, memory_offset, memory_entry_size,
				 file_entry_size);
	}
	struct load_args a = { memory_offset, memory_entry_size,
			       file_entry_size, 0, 1469598103934665603ull,
			       file_count, round_robin_size };
	if (!err) {
		ld.nfiles = file_count;
		ld.fd = malloc(sizeof(int) * file_count);
		ld.fstart = calloc(file_count + 1, sizeof(uint64_t));
		if (!ld.fd || !ld.fstart)
			err = -ENOMEM;
		for (int f = 0; ld.fd && f < file_count; f++)
			ld.fd[f] = -1;
	}
	ld.odirect = u_option_u64(U_OPT_WM_O_DIRECT) != 0;
	for (int f = 0; !err && f < file_count; f++) {
		if (!file_names[f]) {
			err = -EINVAL;
			break;
		}
		int fd = open(file_names[f], O_RDONLY | O_CLOEXEC |
						     (ld.odirect ? O_DIRECT : 0));
		if (fd < 0 && ld.odirect && errno == EINVAL) {
			u_info(WM_TOPIC, "%s: no O_DIRECT here, cached reads",
			       file_names[f]);
			fd = open(file_names[f], O_RDONLY | O_CLOEXEC);
		}
		struct stat st;
		if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
			u_err(WM_TOPIC, "%s: %s", file_names[f],
			      fd < 0 ? strerror(errno) : "not a file");
			if (fd >= 0)
				close(fd);
			err = -ENOENT;
			break;
		}
		ld.fd[f] = fd;
		/* read in order: a larger readahead where it is not cached */
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
		if ((uint64_t)st.st_size % file_entry_size) {
			u_err(WM_TOPIC, "%s: %lld bytes, not a multiple of the "
			      "record size %zu", file_names[f],
			      (long long)st.st_size, file_entry_size);
			err = -EINVAL;
			break;
		}
		ld.fstart[f + 1] = ld.fstart[f] + (uint64_t)st.st_size;
		a.fhash = (a.fhash ^ (uint64_t)st.st_size) * 1099511628211ull;
	}
	if (!err) {
		a.nrec = ld.fstart[file_count] / file_entry_size;
		if (a.nrec > h->total / memory_entry_size) {
			u_err(WM_TOPIC, "%llu records for a table of %zu "
			      "entries", (unsigned long long)a.nrec,
			      h->total / memory_entry_size);
			err = -EINVAL;
		}
	}
	if (!err)
		err = plan(&ld, a.nrec, round_robin_size);
	/* every rank: same arguments, same files, every check passed */
	t1 = now_ms();
	int e1 = wm_agree(c, err);
	if (!e1)
		e1 = wm_check_same(c, &a, sizeof(a),
				   "wholememory_load_from_file");
	err = e1;
	ta = now_ms();
	if (!err) {
		ld.direct = memory_entry_size == file_entry_size &&
			    memory_offset == 0 && !ld.odirect;
		uint64_t total = 0;
		for (size_t s = 0; s < ld.nsegs; s++)
			total += ld.segs[s].n;
		/* the node's ranks load at once: together one thread per
		 * CPU (more only contend for the cores and memory) */
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		long per = cpus / (c->local_size > 0 ? c->local_size : 1);
		int nt = (int)u_option_u64(U_OPT_WM_IO_THREADS);
		if (nt == 0)
			nt = per > 8 ? 8 : (per < 1 ? 1 : (int)per);
		if (nt < 1)
			nt = 1;
		if (nt > IO_MAX_THREADS)
			nt = IO_MAX_THREADS;
		if ((uint64_t)nt > total)
			nt = total ? (int)total : 1;
		struct worker w[IO_MAX_THREADS];
		int started = 0;
		for (int i = 0; i < nt; i++) {
			w[i] = (struct worker){ .ld = &ld,
				.from = total * i / nt,
				.to = total * (i + 1) / nt };
			if (i == nt - 1 ||
			    pthread_create(&w[i].tid, NULL, worker_main,
					   &w[i]) != 0)
				break;
			started++;
		}
		/* the last share (or every share not started) here */
		struct worker rest = { .ld = &ld,
				       .from = total * started / nt,
				       .to = total };
		worker_main(&rest);
		err = rest.err;
		for (int i = 0; i < started; i++) {
			pthread_join(w[i].tid, NULL);
			if (!err)
				err = w[i].err;
		}
		if (err)
			u_err(WM_TOPIC, "reading the files: %s", strerror(-err));
		if (err && err != -ENOMEM)
			err = -EIO;
		t2 = now_ms();
		err = wm_agree(c, err);
		u_dbg(WM_TOPIC, "load: %llu bytes in %d threads: checks %.1f "
		      "ms, agreeing %.1f ms, reads %.1f ms, agreeing %.1f ms",
		      (unsigned long long)(total * file_entry_size), nt,
		      t1 - t0, ta - t1, t2 - ta, now_ms() - t2);
	}
	for (int f = 0; ld.fd && f < file_count; f++)
		if (ld.fd[f] >= 0)
			close(ld.fd[f]);
	free(ld.fd);
	free(ld.fstart);
	free(ld.segs);
	return wm_result(err);
}

static int
write_full(int fd, const void *buf, size_t len)
{
	size_t done = 0;
	while (done < len) {
		ssize_t r = write(fd, (const char *)buf + done, len - done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		done += (size_t)r;
	}
	return 0;
}

WM_API wholememory_error_code_t
wholememory_store_to_file(wholememory_handle_t wholememory_handle,
			  size_t memory_offset, size_t memory_entry_stride,
			  size_t file_entry_size, const char *local_file_name)
{
	struct wholememory_handle_ *h = wholememory_handle;
	if (!wm_handle_live(h))
		return WHOLEMEMORY_INVALID_INPUT;
	int err = local_file_name ? entries_ok(h, memory_offset,
					       memory_entry_stride,
					       file_entry_size) : -EINVAL;
	uint64_t a[3] = { memory_offset, memory_entry_stride,
			  file_entry_size };
	err = wm_agree(h->comm, err);
	if (!err)
		err = wm_check_same(h->comm, a, sizeof(a),
				    "wholememory_store_to_file");
	if (err)
		return wm_result(err);
	int fd = open(local_file_name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		      0644);
	char *buf = malloc(IO_BUF);
	if (fd < 0) {
		u_err(WM_TOPIC, "%s: %s", local_file_name, strerror(errno));
		err = -EIO;
	} else if (!buf) {
		err = -ENOMEM;
	}
	size_t n = h->sizes[h->comm->rank] / memory_entry_stride;
	size_t per = IO_BUF / file_entry_size;
	for (size_t i = 0; !err && i < n; i += per) {
		size_t m = n - i < per ? n - i : per;
		if (file_entry_size == memory_entry_stride) {
			err = write_full(fd, h->local + i * memory_entry_stride,
					 m * file_entry_size);
			continue;
		}
		for (size_t k = 0; k < m; k++)
			memcpy(buf + k * file_entry_size,
			       h->local + (i + k) * memory_entry_stride +
				       memory_offset,
			       file_entry_size);
		err = write_full(fd, buf, m * file_entry_size);
	}
	if (fd >= 0 && close(fd) != 0 && !err)
		err = -errno;
	free(buf);
	if (err && err != -ENOMEM)
		err = -EIO;
	return wm_result(wm_agree(h->comm, err));
}
