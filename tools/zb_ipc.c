// SPDX-License-Identifier: MIT
/*
 * zb_ipc: IPC figures (issue 4).
 *
 * This process is the exporter: it times zeMemGetIpcHandle of a 2 MiB
 * device allocation cold (a fresh allocation: the driver makes its export
 * file) and warm (another get of an exported allocation), and
 * zeMemPutIpcHandle when the loader has it; baseline: memfd_create +
 * ftruncate + close, what a fresh export minimally costs the kernel.
 * A child ("--child ipc-open", fork + exec, same loader and driver) is the
 * importer: it receives the handles as hex over its stdin and times
 *   open/close cold  nothing else of that allocation is open in the child,
 *                    so the file descriptor is fetched (pidfd_getfd or the
 *                    driver's broker) and mapped;
 *   open/close warm  another import of it stays open (import cache hit);
 * against mmap + munmap of a 2 MiB memfd (MAP_SHARED) in the same child:
 * the least an import can cost. Target: warm open+close <= 10 us. The
 * cold pair is also set against what a cold import minimally needs of the
 * kernel: pidfd_getfd of a 2 MiB memfd of the exporter (through a pidfd
 * opened once) + mmap + munmap + close (issue 14: target <= 1.2x).
 * Then it reads a 256 MiB allocation of the exporter through its IPC
 * mapping (memcpy into a private buffer) against memcpy out of a 256 MiB
 * device allocation of its own (rounds alternated in the child), and the
 * exporter then copies out of the same buffer itself: the second baseline
 * ("in-process memcpy of the same buffer"). Target >= 0.9x.
 */
#include "zb.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

#define SMALL (2 * ZB_MiB)
#define PATTERN 0x5a

/* ---- instruction counts ------------------------------------------------ */

/* n cold open+close pairs of a 2 MiB device allocation's handle in this
 * process, the fd passed in the handle's bytes 0..3 as an application
 * passes it (the appfd transport: under valgrind pidfd_getfd is not
 * there). Nothing else of the allocation is open, so each open fetches,
 * checks, maps and indexes, and each close undoes it: every step of the
 * cold pair but the fetch itself. For tools/zb_icount.sh. */
int
zb_ipc_count(long n)
{
	void *p = NULL;
	ze_ipc_mem_handle_t h;
	uint64_t fd = 0;
	/* 1.6 calls: looked up, as every newer one (tool_common.h) */
	ze_pfnMemGetFileDescriptorFromIpcHandleExp_t get_fd = TOOL_SYM(
		ze_pfnMemGetFileDescriptorFromIpcHandleExp_t,
		"zeMemGetFileDescriptorFromIpcHandleExp");
	ze_pfnMemPutIpcHandle_t put =
		TOOL_SYM(ze_pfnMemPutIpcHandle_t, "zeMemPutIpcHandle");
	if (!get_fd) {
		fprintf(stderr, "zemem-bench: --count ipc: the loader has no "
				"zeMemGetFileDescriptorFromIpcHandleExp\n");
		return 1;
	}
	ze_device_mem_alloc_desc_t dd = {
		ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0 };
	ze_result_t r = zeMemAllocDevice(zb.ctx, &dd, SMALL, 4096, zb.dev, &p);
	if (!r)
		r = zeMemGetIpcHandle(zb.ctx, p, &h);
	if (!r)
		r = get_fd(zb.ctx, h, &fd);
	if (r) {
		fprintf(stderr, "zemem-bench: --count ipc: %s\n",
			tool_result_str(r));
		return 1;
	}
	/* A number of its own, as an fd received from another process */
	int32_t local = fcntl((int)fd, F_DUPFD_CLOEXEC, 0);
	if (local < 0) {
		perror("zemem-bench: --count ipc: F_DUPFD_CLOEXEC");
		return 1;
	}
	memcpy(h.data, &local, sizeof(local));
	for (long i = 0; i < n && !r; i++) {
		void *q = NULL;
		r = zeMemOpenIpcHandle(zb.ctx, zb.dev, h, 0, &q);
		if (!r)
			r = zeMemCloseIpcHandle(zb.ctx, q);
	}
	if (r)
		fprintf(stderr, "zemem-bench: --count ipc: %s\n",
			tool_result_str(r));
	close(local);
	if (put)
		put(zb.ctx, h);
	zeMemFree(zb.ctx, p);
	return r ? 1 : 0;
}

/* ---- child: the importer ----------------------------------------------- */

static double
open_close(ze_ipc_mem_handle_t h, double *open_ns, double *close_ns)
{
	void *q = NULL;
	uint64_t t0 = tool_now_ns();
	ze_result_t r = zeMemOpenIpcHandle(zb.ctx, zb.dev, h, 0, &q);
	uint64_t t1 = tool_now_ns();
	if (r) {
		zb_out("error", "zeMemOpenIpcHandle: %s", tool_result_str(r));
		exit(1);
	}
	r = zeMemCloseIpcHandle(zb.ctx, q);
	uint64_t t2 = tool_now_ns();
	if (r) {
		zb_out("error", "zeMemCloseIpcHandle: %s", tool_result_str(r));
		exit(1);
	}
	*open_ns = (double)(t1 - t0);
	*close_ns = (double)(t2 - t1);
	return (double)(t2 - t0);
}

static double
mmap_munmap(int fd)
{
	uint64_t t0 = tool_now_ns();
	void *p = mmap(NULL, SMALL, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return NAN;
	munmap(p, SMALL);
	return (double)(tool_now_ns() - t0);
}

/* pidfd_getfd of the exporter's fd + mmap + munmap + close. */
static double
getfd_mmap(int pidfd, int theirs)
{
	uint64_t t0 = tool_now_ns();
	int fd = (int)syscall(SYS_pidfd_getfd, pidfd, theirs, 0);
	if (fd < 0)
		return NAN;
	void *p = mmap(NULL, SMALL, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p != MAP_FAILED)
		munmap(p, SMALL);
	close(fd);
	return p == MAP_FAILED ? NAN : (double)(tool_now_ns() - t0);
}

static void
child_latency(ze_ipc_mem_handle_t h, int n, int xpid, int xfd)
{
	double *t = calloc((size_t)n * 5, sizeof(double));
	double *to = t, *tc = t + n, *tp = t + 2 * n, *tb = t + 3 * n;
	double *tg = t + 4 * n;
	int fd = memfd_create("zemem-bench", MFD_CLOEXEC);
	int pidfd = xpid > 0 ? (int)syscall(SYS_pidfd_open, xpid, 0) : -1;
	if (!t || fd < 0 || ftruncate(fd, SMALL)) {
		zb_out("error", "no memory for the baseline");
		exit(1);
	}
	for (int i = 0; i < n; i++) {
		tb[i] = mmap_munmap(fd);
		tg[i] = pidfd >= 0 ? getfd_mmap(pidfd, xfd) : NAN;
		tp[i] = open_close(h, &to[i], &tc[i]);
	}
	zb_out("base", "%.1f", zb_median(tb, n));
	zb_out("open_cold", "%.1f", zb_median(to, n));
	zb_out("close_cold", "%.1f", zb_median(tc, n));
	zb_out("pair_cold", "%.1f", zb_median(tp, n));
	if (pidfd >= 0 && !isnan(tg[0])) {
		zb_out("base_getfd", "%.1f", zb_median(tg, n));
		close(pidfd);
	}
	void *q0 = NULL;
	ze_result_t r = zeMemOpenIpcHandle(zb.ctx, zb.dev, h, 0, &q0);
	if (r) {
		zb_out("error", "zeMemOpenIpcHandle: %s", tool_result_str(r));
		exit(1);
	}
	for (int i = 0; i < n; i++) {
		tb[i] = mmap_munmap(fd);
		tp[i] = open_close(h, &to[i], &tc[i]);
	}
	zeMemCloseIpcHandle(zb.ctx, q0);
	zb_out("base_warm", "%.1f", zb_median(tb, n));
	zb_out("open_warm", "%.1f", zb_median(to, n));
	zb_out("close_warm", "%.1f", zb_median(tc, n));
	zb_out("pair_warm", "%.1f", zb_median(tp, n));
	close(fd);
	free(t);
}

/* memcpy out of the IPC mapping against memcpy out of a device allocation
 * of this process (the same kind of memory, made here), alternated. */
static void
child_bandwidth(ze_ipc_mem_handle_t h, size_t size, int rounds)
{
	void *q = NULL, *own = NULL;
	ze_result_t r = zeMemOpenIpcHandle(zb.ctx, zb.dev, h, 0, &q);
	char *dst = malloc(size);
	if (r || !dst) {
		zb_out("error", "open of the big handle: %s",
		       tool_result_str(r));
		exit(1);
	}
	if ((r = zeMemAllocDevice(zb.ctx, &zb_ddesc, size, 0, zb.dev, &own))) {
		zb_out("error", "zeMemAllocDevice(%zu): %s", size,
		       tool_result_str(r));
		exit(1);
	}
	memset(dst, 1, size);
	uint64_t t0 = tool_now_ns();
	memcpy(own, q, size); /* first pass: page faults on the mapping */
	zb_keep(own);
	zb_out("bw_first", "%.3f", (double)size / (tool_now_ns() - t0));
	if (((unsigned char *)q)[0] != PATTERN ||
	    ((unsigned char *)q)[size - 1] != PATTERN) {
		zb_out("error", "the IPC mapping does not hold the exporter's "
		       "data");
		exit(1);
	}
	double ti[16], tl[16];
	for (int i = 0; i < rounds; i++) {
		uint64_t a = tool_now_ns();
		memcpy(dst, q, size);
		zb_keep(dst);
		uint64_t b = tool_now_ns();
		memcpy(dst, own, size);
		zb_keep(dst);
		uint64_t c = tool_now_ns();
		ti[i] = (double)size / (double)(b - a);
		tl[i] = (double)size / (double)(c - b);
	}
	zb_out("bw_ipc", "%.3f", zb_median(ti, rounds));
	zb_out("bw_memcpy", "%.3f", zb_median(tl, rounds));
	zb_out("rounds", "%d", rounds);
	zeMemCloseIpcHandle(zb.ctx, q);
	zeMemFree(zb.ctx, own);
	free(dst);
}

int
zb_child_ipc_open(void)
{
	char line[512];
	ze_ipc_mem_handle_t hs, hb;
	size_t size = 0;
	int got = 0, n = zb.quick ? 200 : 2000, xpid = 0, xfd = -1;
	while (fgets(line, sizeof(line), stdin)) {
		if (!strncmp(line, "small ", 6) &&
		    !tool_hex_decode(line + 6, &hs, sizeof(hs)))
			got |= 1;
		else if (!strncmp(line, "big ", 4) &&
			 !tool_hex_decode(line + 4, &hb, sizeof(hb)))
			got |= 2;
		else if (!strncmp(line, "size ", 5))
			size = strtoull(line + 5, NULL, 0);
		else if (!strncmp(line, "floor ", 6) &&
			 sscanf(line + 6, "%d %d", &xpid, &xfd) != 2)
			xpid = 0;
	}
	if (got != 3 || !size) {
		zb_out("error", "no handles on stdin");
		return 1;
	}
	if (zb_child_setup())
		return 1;
	zb_out("iters", "%d", n);
	child_latency(hs, n, xpid, xfd);
	child_bandwidth(hb, size, zb.quick ? 3 : 9);
	zeContextDestroy(zb.ctx);
	return 0;
}

/* ---- parent: the exporter ---------------------------------------------- */

static double
memfd_floor(void)
{
	uint64_t t0 = tool_now_ns();
	int fd = memfd_create("zemem-bench", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, SMALL))
		return NAN;
	close(fd);
	return (double)(tool_now_ns() - t0);
}

struct gets {
	double cold, warm, put, base, base_warm;
	int n_cold, n;
};

/* Cold and warm get (and put) latencies; 0, or the failing result. */
static ze_result_t
time_gets(struct gets *g, ze_pfnMemPutIpcHandle_t put)
{
	double *t = calloc((size_t)g->n * 3, sizeof(double));
	double *ta = t, *tb = t + g->n, *tc = t + 2 * g->n;
	ze_ipc_mem_handle_t h, h0;
	ze_result_t r = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	void *p = NULL;
	if (!t)
		return r;
	for (int i = 0; i < g->n_cold; i++) {
		tb[i] = memfd_floor();
		if ((r = zeMemAllocDevice(zb.ctx, &zb_ddesc, SMALL, 0, zb.dev,
					  &p)))
			goto out;
		uint64_t t0 = tool_now_ns();
		r = zeMemGetIpcHandle(zb.ctx, p, &h);
		ta[i] = (double)(tool_now_ns() - t0);
		if (!r && put)
			put(zb.ctx, h);
		zeMemFree(zb.ctx, p);
		if (r)
			goto out;
	}
	g->cold = zb_median(ta, g->n_cold);
	g->base = zb_median(tb, g->n_cold);
	if ((r = zeMemAllocDevice(zb.ctx, &zb_ddesc, SMALL, 0, zb.dev, &p)))
		goto out;
	if ((r = zeMemGetIpcHandle(zb.ctx, p, &h0)))
		goto out_free;
	for (int i = 0; i < g->n; i++) {
		tb[i] = memfd_floor();
		uint64_t t0 = tool_now_ns();
		if ((r = zeMemGetIpcHandle(zb.ctx, p, &h)))
			break;
		uint64_t t1 = tool_now_ns();
		if (put)
			put(zb.ctx, h);
		ta[i] = (double)(t1 - t0);
		tc[i] = (double)(tool_now_ns() - t1);
	}
	g->warm = zb_median(ta, g->n);
	g->put = zb_median(tc, g->n);
	g->base_warm = zb_median(tb, g->n);
	if (put)
		put(zb.ctx, h0);
out_free:
	zeMemFree(zb.ctx, p);
out:
	free(t);
	return r;
}

/* GB/s of memcpy out of the exporter's own buffer, median of rounds. */
static double
exporter_bandwidth(const void *buf, size_t size, int rounds)
{
	double t[16];
	char *dst = malloc(size);
	if (!dst)
		return NAN;
	memset(dst, 1, size);
	for (int i = 0; i < rounds; i++) {
		uint64_t a = tool_now_ns();
		memcpy(dst, buf, size);
		zb_keep(dst);
		t[i] = (double)size / (double)(tool_now_ns() - a);
	}
	free(dst);
	return zb_median(t, rounds);
}

static void
report_child(const struct zb_kv *kv, size_t big, double exporter)
{
	char p[160], fig[64], b[32];
	const char *it = zb_kv_str(kv, "iters");
	static const struct {
		const char *key, *name, *base, *target;
	} rows[] = {
		{ "open_cold", "open, cold", "base", "" },
		{ "close_cold", "close, cold", "base", "" },
		{ "open_warm", "open, warm", "base_warm", "" },
		{ "close_warm", "close, warm", "base_warm", "" },
		{ "pair_warm", "open+close, warm", "base_warm",
		  ", target <= 10 us" },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		snprintf(fig, sizeof(fig), "%s (other process)", rows[i].name);
		snprintf(p, sizeof(p), "2 MiB device allocation, %s "
			 "iterations%s", it, rows[i].target);
		zb_report("ipc", fig, zb_kv_num(kv, rows[i].key) / 1000.0,
			  "us", "mmap+munmap 2 MiB memfd",
			  zb_kv_num(kv, rows[i].base) / 1000.0, p);
	}
	if (zb_kv_str(kv, "base_getfd")) {
		snprintf(p, sizeof(p), "2 MiB device allocation, %s iterations "
			 "alternated, target <= 1.2x", it);
		zb_report("ipc", "open+close, cold (other process)",
			  zb_kv_num(kv, "pair_cold") / 1000.0, "us",
			  "pidfd_getfd+mmap+munmap+close",
			  zb_kv_num(kv, "base_getfd") / 1000.0, p);
		zb_report("ipc", "open+close, warm (other process)",
			  zb_kv_num(kv, "pair_warm") / 1000.0, "us",
			  "pidfd_getfd+mmap+munmap+close",
			  zb_kv_num(kv, "base_getfd") / 1000.0, p);
	}
	snprintf(fig, sizeof(fig), "read %s through the IPC mapping",
		 tool_human(big, b, sizeof(b)));
	snprintf(p, sizeof(p), "memcpy, %s rounds alternated in the "
		 "importer; its first pass (page faults) %.2f GB/s",
		 zb_kv_str(kv, "rounds"), zb_kv_num(kv, "bw_first"));
	zb_report("ipc", fig, zb_kv_num(kv, "bw_ipc"), "GB/s",
		  "memcpy of its own device alloc", zb_kv_num(kv, "bw_memcpy"),
		  p);
	snprintf(p, sizeof(p), "memcpy, %s rounds each, the exporter's right "
		 "after the importer's; target >= 0.9x",
		 zb_kv_str(kv, "rounds"));
	zb_report("ipc", fig, zb_kv_num(kv, "bw_ipc"), "GB/s",
		  "memcpy by the exporter, same buf", exporter, p);
}

void
zb_ipc(void)
{
	struct gets g = { 0, 0, 0, 0, 0, zb.quick ? 50 : 200,
			  zb.quick ? 200 : 2000 };
	size_t big = zb.quick ? 64 * ZB_MiB : 256 * ZB_MiB;
	ze_pfnMemPutIpcHandle_t put =
		TOOL_SYM(ze_pfnMemPutIpcHandle_t, "zeMemPutIpcHandle");
	ze_driver_ipc_properties_t ip = {
		ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES, NULL, 0
	};
	zb_section("ipc", "2 MiB handles: get here, open/close in a child "
		   "process; %zu MiB read across processes", big >> 20);
	ze_result_t r = zeDriverGetIpcProperties(zb.drv, &ip);
	if (r || !(ip.flags & ZE_IPC_PROPERTY_FLAG_MEMORY)) {
		zb_skip("ipc", "all", "the driver does not share memory "
			"(zeDriverGetIpcProperties: %s, flags 0x%x)",
			tool_result_str(r), ip.flags);
		return;
	}
	if ((r = time_gets(&g, put))) {
		zb_skip("ipc", "all", "zeMemGetIpcHandle: %s",
			tool_result_str(r));
		return;
	}
	char p[128];
	snprintf(p, sizeof(p), "2 MiB device allocation, %d iterations%s",
		 g.n_cold, put ? ", each put" : "");
	zb_report("ipc", "get, cold (new allocation)", g.cold / 1000.0, "us",
		  "memfd_create+ftruncate+close", g.base / 1000.0, p);
	snprintf(p, sizeof(p), "2 MiB device allocation, %d iterations", g.n);
	zb_report("ipc", "get, warm (exported allocation)", g.warm / 1000.0,
		  "us", "memfd_create+ftruncate+close", g.base_warm / 1000.0,
		  p);
	if (put)
		zb_report("ipc", "put, warm", g.put / 1000.0, "us",
			  "memfd_create+ftruncate+close", g.base_warm / 1000.0,
			  p);
	else
		zb_skip("ipc", "put, warm", "the loader in use has no "
			"zeMemPutIpcHandle (Level Zero 1.6)");

	void *small = NULL, *bigp = NULL;
	ze_ipc_mem_handle_t hs, hb;
	char hex[2 * sizeof(hs) + 1], line[300];
	struct zb_child c;
	struct zb_kv kv = { 0 };
	if ((r = zeMemAllocDevice(zb.ctx, &zb_ddesc, SMALL, 0, zb.dev,
				  &small)) ||
	    (r = zeMemAllocDevice(zb.ctx, &zb_ddesc, big, 0, zb.dev, &bigp))) {
		zb_skip("ipc", "open/close", "zeMemAllocDevice: %s",
			tool_result_str(r));
		goto out;
	}
	memset(bigp, PATTERN, big);
	if ((r = zeMemGetIpcHandle(zb.ctx, small, &hs)) ||
	    (r = zeMemGetIpcHandle(zb.ctx, bigp, &hb))) {
		zb_skip("ipc", "open/close", "zeMemGetIpcHandle: %s",
			tool_result_str(r));
		goto out;
	}
	int floor_fd = memfd_create("zemem-bench-floor", MFD_CLOEXEC);
	if (floor_fd >= 0 && ftruncate(floor_fd, SMALL)) {
		close(floor_fd);
		floor_fd = -1;
	}
	if (zb_child_start(&c, "ipc-open", NULL)) {
		zb_skip("ipc", "open/close", "cannot start the child");
		if (floor_fd >= 0)
			close(floor_fd);
		goto out_put;
	}
	if (floor_fd >= 0) {
		snprintf(line, sizeof(line), "floor %d %d\n", (int)getpid(),
			 floor_fd);
		tool_write_all(c.to, line, strlen(line));
	}
	tool_hex_encode(&hs, sizeof(hs), hex);
	snprintf(line, sizeof(line), "small %s\n", hex);
	tool_write_all(c.to, line, strlen(line));
	tool_hex_encode(&hb, sizeof(hb), hex);
	snprintf(line, sizeof(line), "big %s\nsize %zu\n", hex, big);
	tool_write_all(c.to, line, strlen(line));
	int st = zb_child_finish(&c, &kv);
	if (floor_fd >= 0)
		close(floor_fd);
	if (st || !zb_kv_str(&kv, "bw_memcpy"))
		zb_child_failed("ipc", "open/close", &kv, st);
	else
		report_child(&kv, big, exporter_bandwidth(bigp, big,
			     (int)zb_kv_num(&kv, "rounds")));
out_put:
	if (put) {
		put(zb.ctx, hs);
		put(zb.ctx, hb);
	}
out:
	if (small)
		zeMemFree(zb.ctx, small);
	if (bigp)
		zeMemFree(zb.ctx, bigp);
}
