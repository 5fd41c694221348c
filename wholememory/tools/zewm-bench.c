// SPDX-License-Identifier: MIT
/*
 * zewm-bench: WholeMemory's figures on zemem, each as a ratio to a
 * baseline measured in the same run (medians of --trials runs).
 *
 *   gather  n random rows (--rows, default 1M) of 128 B from a table of
 *           --table-mb MiB (default 2048) by wholememoryx_gather, for
 *           CONTINUOUS, CHUNKED and DISTRIBUTED host memory, against a
 *           memcpy gather of the same rows from a local array of the
 *           table's size (target for the mapped types: >= 0.7x);
 *   tensor  the same through WholeMemory's tensor op: wholememory_gather
 *           of n random rows (int64 indices) of 128 B and 512 B (float
 *           rows) from a 2-D tensor of the table's size, CONTINUOUS,
 *           CHUNKED and DISTRIBUTED, against the same local memcpy
 *           gather (numpy's fancy-index floor; target for the mapped
 *           types: >= 0.7x); --tensor 0 skips it.
 *   load    wholememory_load_from_file of a --file-mb MiB file (default
 *           1024) into a CONTINUOUS table, against reading the same file
 *           with read(2) into a 128 KiB buffer as `cat file > /dev/null`
 *           does (page cache warm for both; target >= 0.8x); also
 *           printed: read(2) of the whole file into one buffer of its
 *           size (the copy into memory any load makes), and the first
 *           load after wholememory_malloc alone (cold: whatever the
 *           table's fresh memory still costs on first touch).
 *           --gather 0 skips the gathers.
 *
 * Run it as a job: zeshrun -n 2 -- zewm-bench [options]. The symmetric
 * heap is sized for the DISTRIBUTED table (shmemx_set_heap_size). The
 * file lives in --dir (default /tmp) and is removed at the end.
 */
#include <wholememory/wholememory.h>
#include <wholememory/wholememory_op.h>
#include <shmemx.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double
now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define ROW 128
#define MAXT 32

static wholememory_comm_t comm;
static int me, np;

static void
die(const char *what, int e)
{
	fprintf(stderr, "zewm-bench: rank %d: %s: %d\n", me, what, e);
	exit(1);
}

/* Median seconds of trials gathers from a table of type t, and in
 * *base the median of the local memcpy gathers run alternately with them
 * (so both see the same machine load). */
static double
bench_gather(wholememory_memory_type_t t, size_t table, const int64_t *idx,
	     size_t n, char *out, const char *local, int trials,
	     double *base)
{
	wholememory_handle_t h;
	int e = wholememory_malloc(&h, table, comm, t, WHOLEMEMORY_ML_HOST,
				   ROW, NULL);
	if (e)
		die("wholememory_malloc", e);
	char *lp;
	size_t ls, lo;
	wholememory_get_local_memory((void **)&lp, &ls, &lo, h);
	memset(lp, me + 1, ls);
	double v[MAXT], b[MAXT];
	for (int k = 0; k < trials; k++) {
		wholememory_communicator_barrier(comm);
		double t0 = now_s();
		for (size_t i = 0; i < n; i++)
			memcpy(out + i * ROW, local + (size_t)idx[i] * ROW,
			       ROW);
		b[k] = now_s() - t0;
		wholememory_communicator_barrier(comm);
		t0 = now_s();
		if ((e = wholememoryx_gather(h, idx, n, out, ROW)))
			die("wholememoryx_gather", e);
		v[k] = now_s() - t0;
	}
	wholememory_communicator_barrier(comm);
	wholememory_free(h);
	*base = median(b, trials);
	return median(v, trials);
}

static wholememory_tensor_t
plain_tensor(void *p, int64_t rows, int64_t cols, wholememory_dtype_t dt)
{
	wholememory_tensor_description_t d;
	wholememory_initialize_tensor_desc(&d);
	d.dim = cols ? 2 : 1;
	d.sizes[0] = rows;
	if (cols) {
		d.sizes[1] = cols;
		d.strides[0] = cols;
	}
	d.dtype = dt;
	wholememory_tensor_t t;
	int e = wholememory_make_tensor_from_pointer(&t, p, &d);
	if (e)
		die("wholememory_make_tensor_from_pointer", e);
	return t;
}

/* As bench_gather, through wholememory_gather on a tensor of rows of
 * row bytes (floats). */
static double
bench_tensor(wholememory_memory_type_t t, size_t table, size_t row,
	     const int64_t *idx, size_t n, char *out, const char *local,
	     int trials, double *base)
{
	int64_t rows = (int64_t)(table / row), cols = (int64_t)(row / 4);
	wholememory_tensor_description_t d;
	wholememory_initialize_tensor_desc(&d);
	d.dim = 2;
	d.sizes[0] = rows;
	d.sizes[1] = cols;
	d.strides[0] = cols;
	d.dtype = WHOLEMEMORY_DT_FLOAT;
	wholememory_tensor_t tab, lt;
	int e = wholememory_create_tensor(&tab, &d, comm, t,
					  WHOLEMEMORY_ML_HOST, NULL);
	if (e)
		die("wholememory_create_tensor", e);
	if ((e = wholememory_tensor_map_local_tensor(tab, &lt)))
		die("wholememory_tensor_map_local_tensor", e);
	size_t lrows = (size_t)wholememory_tensor_get_tensor_description(
		lt)->sizes[0];
	memset(wholememory_tensor_get_data_pointer(lt), me + 1, lrows * row);
	wholememory_destroy_tensor(lt);
	wholememory_tensor_t ti = plain_tensor((void *)idx, (int64_t)n, 0,
					       WHOLEMEMORY_DT_INT64);
	wholememory_tensor_t to = plain_tensor(out, (int64_t)n, cols,
					       WHOLEMEMORY_DT_FLOAT);
	double v[MAXT], b[MAXT];
	for (int k = 0; k < trials; k++) {
		wholememory_communicator_barrier(comm);
		double t0 = now_s();
		for (size_t i = 0; i < n; i++)
			memcpy(out + i * row, local + (size_t)idx[i] * row,
			       row);
		b[k] = now_s() - t0;
		wholememory_communicator_barrier(comm);
		t0 = now_s();
		if ((e = wholememory_gather(tab, ti, to, NULL, NULL, -1)))
			die("wholememory_gather", e);
		v[k] = now_s() - t0;
	}
	wholememory_communicator_barrier(comm);
	wholememory_destroy_tensor(ti);
	wholememory_destroy_tensor(to);
	wholememory_destroy_tensor(tab);
	*base = median(b, trials);
	return median(v, trials);
}

int
main(int argc, char **argv)
{
	size_t table_mb = 2048, rows = 1 << 20, file_mb = 1024;
	int trials = 5, do_gather = 1, do_tensor = 1;
	const char *dir = "/tmp";
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--table-mb"))
			table_mb = strtoull(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--rows"))
			rows = strtoull(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--file-mb"))
			file_mb = strtoull(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--trials"))
			trials = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--gather"))
			do_gather = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--tensor"))
			do_tensor = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--dir"))
			dir = argv[i + 1];
		else {
			fprintf(stderr, "usage: zeshrun -n 2 -- zewm-bench "
				"[--table-mb M] [--rows N] [--file-mb M] "
				"[--trials T] [--dir D] [--gather 0|1] "
				"[--tensor 0|1]\n");
			return 2;
		}
	}
	if (trials < 1 || trials > MAXT)
		trials = 5;
	size_t table = table_mb << 20;
	const char *nr = getenv("ZESHMEM_NRANKS");
	int n_guess = nr ? atoi(nr) : 1;
	if (n_guess < 1)
		n_guess = 1;
	shmemx_set_heap_size(table / n_guess + (64u << 20));
	int e;
	if ((e = wholememory_init(0, LEVEL_INFO)) ||
	    (e = wholememory_create_communicator_from_env(&comm)))
		die("init", e);
	wholememory_communicator_get_rank(&me, comm);
	wholememory_communicator_get_size(&np, comm);

	/* gather */
	if (!do_gather)
		goto load;
	int64_t *idx = malloc(sizeof(int64_t) * rows);
	char *out = malloc(rows * ROW);
	char *local = malloc(table);
	if (!idx || !out || !local)
		die("malloc", -1);
	memset(local, 3, table);
	memset(out, 0, rows * ROW);
	uint64_t x = 88172645463325252ull + (uint64_t)me;
	size_t nrow = table / ROW;
	for (size_t i = 0; i < rows; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		idx[i] = (int64_t)(x % nrow);
	}
	static const struct {
		wholememory_memory_type_t t;
		const char *name;
	} ty[] = {
		{ WHOLEMEMORY_MT_CONTINUOUS, "continuous" },
		{ WHOLEMEMORY_MT_CHUNKED, "chunked" },
		{ WHOLEMEMORY_MT_DISTRIBUTED, "distributed" },
	};
	double tt[3], base[3];
	for (int i = 0; i < 3; i++)
		tt[i] = bench_gather(ty[i].t, table, idx, rows, out, local,
				     trials, &base[i]);
	if (me == 0) {
		printf("gather: %zu rows of %d B from %zu MiB on %d ranks, "
		       "median of %d\n", rows, ROW, table_mb, np, trials);
		for (int i = 0; i < 3; i++)
			printf("  %-12s %8.1f ms %6.2f GB/s   local memcpy "
			       "gather %8.1f ms   %.2fx local\n", ty[i].name,
			       tt[i] * 1e3, rows * ROW / tt[i] / 1e9,
			       base[i] * 1e3, base[i] / tt[i]);
	}
	/* the tensor op, rows of 128 B and 512 B */
	static const size_t rb[] = { 128, 512 };
	for (int r = 0; do_tensor && r < 2; r++) {
		char *o2 = malloc(rows * rb[r]);
		if (!o2)
			die("malloc", -1);
		memset(o2, 0, rows * rb[r]);
		size_t trows = table / rb[r];
		for (size_t i = 0; i < rows; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			idx[i] = (int64_t)(x % trows);
		}
		for (int i = 0; i < 3; i++)
			tt[i] = bench_tensor(ty[i].t, table, rb[r], idx, rows,
					     o2, local, trials, &base[i]);
		free(o2);
		if (me)
			continue;
		printf("tensor gather: %zu rows of %zu B from %zu MiB on %d "
		       "ranks, median of %d\n", rows, rb[r], table_mb, np,
		       trials);
		for (int i = 0; i < 3; i++)
			printf("  %-12s %8.1f ms %6.2f GB/s   local memcpy "
			       "gather %8.1f ms   %.2fx local\n", ty[i].name,
			       tt[i] * 1e3, rows * rb[r] / tt[i] / 1e9,
			       base[i] * 1e3, base[i] / tt[i]);
	}
	free(local);
	free(idx);
	free(out);

load:;
	/* load */
	size_t fsz = file_mb << 20;
	char path[512];
	snprintf(path, sizeof(path), "%s/zewm-bench.%d.bin", dir,
		 (int)getpid());
	wholememory_handle_t h;
	wholememory_communicator_barrier(comm);
	double tm = now_s();
	if ((e = wholememory_malloc(&h, fsz, comm, WHOLEMEMORY_MT_CONTINUOUS,
				    WHOLEMEMORY_ML_HOST, ROW, NULL)))
		die("wholememory_malloc", e);
	tm = now_s() - tm;
	char *gp;
	wholememory_get_global_pointer((void **)&gp, h);
	/* rank 0 names the file for everyone through the table */
	if (me == 0) {
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			      0644);
		char *buf = malloc(8 << 20);
		if (fd < 0 || !buf)
			die("file", -1);
		memset(buf, 7, 8 << 20);
		for (size_t at = 0; at < fsz; at += 8 << 20)
			if (write(fd, buf, 8 << 20) != 8 << 20)
				die("write", -1);
		close(fd);
		free(buf);
		strcpy(gp, path);
	}
	wholememory_communicator_barrier(comm);
	strcpy(path, gp);
	const char *fn = path;
	double lv[MAXT], cv[MAXT], bv[MAXT], cold = 0;
	char *cbuf = malloc(128 << 10);
	char *whole = me == 0 ? malloc(fsz) : NULL;
	if (whole)
		memset(whole, 0, fsz);
	for (int k = 0; k < trials + 1; k++) {
		/* cat: rank 0 alone, then the load on every rank */
		if (me == 0) {
			double t0 = now_s();
			int fd = open(path, O_RDONLY | O_CLOEXEC);
			ssize_t r;
			while ((r = read(fd, cbuf, 128 << 10)) > 0)
				;
			close(fd);
			cv[k ? k - 1 : 0] = now_s() - t0;
			t0 = now_s();
			fd = open(path, O_RDONLY | O_CLOEXEC);
			size_t got = 0;
			while (got < fsz &&
			       (r = read(fd, whole + got, fsz - got)) > 0)
				got += (size_t)r;
			close(fd);
			bv[k ? k - 1 : 0] = now_s() - t0;
		}
		wholememory_communicator_barrier(comm);
		double t0 = now_s();
		if ((e = wholememory_load_from_file(h, 0, ROW, ROW, &fn, 1,
						    0)))
			die("wholememory_load_from_file", e);
		lv[k ? k - 1 : 0] = now_s() - t0;
		if (k == 0)
			cold = lv[0];
		wholememory_communicator_barrier(comm);
	}
	free(cbuf);
	free(whole);
	if (me == 0) {
		double c = median(cv, trials), l = median(lv, trials);
		double w = median(bv, trials);
		printf("load: %zu MiB file on %d ranks, median of %d\n",
		       file_mb, np, trials);
		printf("  read(2) like cat      %8.1f ms  %6.2f GB/s\n",
		       c * 1e3, fsz / c / 1e9);
		printf("  read(2) into one buffer of the file's size %8.1f ms  "
		       "%6.2f GB/s\n", w * 1e3, fsz / w / 1e9);
		printf("  load_from_file        %8.1f ms  %6.2f GB/s  %.2fx "
		       "read like cat, %.2fx read into one buffer\n", l * 1e3,
		       fsz / l / 1e9, c / l, w / l);
		printf("  first load after malloc %6.1f ms  %6.2f GB/s  %.2fx "
		       "read like cat\n", cold * 1e3, fsz / cold / 1e9,
		       c / cold);
		printf("  wholememory_malloc of the table %6.1f ms\n",
		       tm * 1e3);
		unlink(path);
	}
	wholememory_free(h);
	wholememory_destroy_communicator(comm);
	wholememory_finalize();
	return 0;
}
