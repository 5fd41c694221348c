// SPDX-License-Identifier: MIT
/*
 * zb_vmm: virtual and physical memory figures (issue 6).
 *
 *   cycle  zeVirtualMemReserve + Map + Unmap + Free of 2 MiB (one physical
 *          object made once, outside the loop; nothing touched) against
 *          mmap + munmap of 2 MiB anonymous memory and of a 2 MiB memfd
 *          (MAP_SHARED, what a mapping of a physical object really is),
 *          the three alternated per iteration;
 *   range  zeMemOpenIpcHandle + zeMemCloseIpcHandle of one handle that
 *          spans 4 physical objects of 2 MiB (the range extension of
 *          zeMemGetIpcHandleWithProperties), cold (nothing of it open
 *          here) and warm (one import kept open), opened here and exported
 *          by a child ("--child vmm-export"; on zemem's loader when the
 *          loader in use predates zeMemGetIpcHandleWithProperties),
 *          against what the kernel needs for the same: a PROT_NONE
 *          reservation of 8 MiB, 4 MAP_FIXED MAP_SHARED mappings of a
 *          memfd into it, munmap.
 */
#include "zb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define OBJS 4

/* ---- child: the exporter of the range ---------------------------------- */

int
zb_child_vmm_export(void)
{
	char line[128];
	size_t obj = 0;
	if (fgets(line, sizeof(line), stdin) && !strncmp(line, "size ", 5))
		obj = strtoull(line + 5, NULL, 0);
	if (!obj) {
		zb_out("error", "no size on stdin");
		return 1;
	}
	if (zb_child_setup())
		return 1;
	ze_pfnMemGetIpcHandleWithProperties_t get_with =
		TOOL_SYM(ze_pfnMemGetIpcHandleWithProperties_t,
			 "zeMemGetIpcHandleWithProperties");
	ze_pfnMemPutIpcHandle_t put =
		TOOL_SYM(ze_pfnMemPutIpcHandle_t, "zeMemPutIpcHandle");
	if (!get_with) {
		zb_out("skip", "%s has no zeMemGetIpcHandleWithProperties",
		       tool_loader_path());
		return 0;
	}
	ze_physical_mem_handle_t ph[OBJS] = { 0 };
	ze_physical_mem_desc_t pd = { ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC,
				      NULL, 0, obj };
	void *base = NULL;
	int mapped = 0;
	ze_result_t r = zeVirtualMemReserve(zb.ctx, NULL, OBJS * obj, &base);
	for (int k = 0; !r && k < OBJS; k++) {
		r = zePhysicalMemCreate(zb.ctx, zb.dev, &pd, &ph[k]);
		if (!r)
			r = zeVirtualMemMap(zb.ctx, (char *)base + k * obj, obj,
					    ph[k], 0,
					    ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE);
		if (!r) {
			memset((char *)base + k * obj, 0x11 * (k + 1), obj);
			mapped++;
		}
	}
	ze_ipc_mem_handle_t h;
	ze_ipc_phys_mem_handle_range_ext_desc_t rd = {
		ZE_STRUCTURE_TYPE_IPC_PHYS_MEM_HANDLE_RANGE_EXT_DESC, NULL,
		OBJS * obj
	};
	if (r) {
		zb_out("skip", "cannot map %d physical objects: %s", OBJS,
		       tool_result_str(r));
	} else if ((r = get_with(zb.ctx, base, &rd, &h))) {
		zb_out("skip", "zeMemGetIpcHandleWithProperties(range of %d "
		       "objects): %s%s", OBJS, tool_result_str(r),
		       r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE
			       ? " - the driver does not export ranges yet"
			       : "");
	} else {
		char hex[2 * sizeof(h) + 1];
		tool_hex_encode(&h, sizeof(h), hex);
		zb_out("handle", "%s", hex);
		while (fgets(line, sizeof(line), stdin))
			; /* until the importer is done */
		if (put)
			put(zb.ctx, h);
	}
	for (int k = 0; k < mapped; k++)
		zeVirtualMemUnmap(zb.ctx, (char *)base + k * obj, obj);
	for (int k = 0; k < OBJS; k++)
		if (ph[k])
			zePhysicalMemDestroy(zb.ctx, ph[k]);
	if (base)
		zeVirtualMemFree(zb.ctx, base, OBJS * obj);
	zeContextDestroy(zb.ctx);
	return 0;
}

/* ---- parent ------------------------------------------------------------ */

static double
mmap_cycle(size_t size, int fd)
{
	uint64_t t0 = tool_now_ns();
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       fd < 0 ? MAP_PRIVATE | MAP_ANONYMOUS : MAP_SHARED, fd,
		       0);
	if (p == MAP_FAILED)
		return NAN;
	munmap(p, size);
	return (double)(tool_now_ns() - t0);
}

/* The kernel's share of opening a range: reserve, map each object, unmap. */
static double
range_floor(size_t obj, int fd)
{
	uint64_t t0 = tool_now_ns();
	char *p = mmap(NULL, OBJS * obj, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return NAN;
	for (int k = 0; k < OBJS; k++)
		if (mmap(p + k * obj, obj, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED)
			break;
	munmap(p, OBJS * obj);
	return (double)(tool_now_ns() - t0);
}

/* One timed open + close of the range handle; on check, that the import
 * shows the exporter's objects in order. NULL, or what went wrong. */
static const char *
open_close_range(ze_ipc_mem_handle_t h, size_t obj, bool check, double *ns)
{
	void *q = NULL;
	const char *bad = NULL;
	uint64_t t0 = tool_now_ns();
	ze_result_t r = zeMemOpenIpcHandle(zb.ctx, zb.dev, h, 0, &q);
	if (r)
		return tool_result_str(r);
	for (int k = 0; check && k < OBJS; k++)
		if (((unsigned char *)q)[k * obj + 7] != 0x11 * (k + 1))
			bad = "the import does not show the exporter's objects "
			      "in order";
	r = zeMemCloseIpcHandle(zb.ctx, q);
	*ns = (double)(tool_now_ns() - t0);
	return bad ? bad : r ? tool_result_str(r) : NULL;
}

static void
range(size_t obj, int fd)
{
	const char *name = "open+close 4-object range";
	const char *env[] = { NULL, NULL };
	char ld[4200], line[64];
	struct zb_child c;
	struct zb_kv kv = { 0 };
	if (!tool_sym("zeMemGetIpcHandleWithProperties")) {
		const char *ours = tool_zemem_loader_dir();
		if (!ours) {
			zb_skip("vmm", name, "the loader in use has no "
				"zeMemGetIpcHandleWithProperties and zemem's "
				"loader was not found");
			return;
		}
		snprintf(ld, sizeof(ld), "LD_LIBRARY_PATH=%s", ours);
		env[0] = ld;
	}
	if (zb_child_start(&c, "vmm-export", env)) {
		zb_skip("vmm", name, "cannot start the exporter");
		return;
	}
	snprintf(line, sizeof(line), "size %zu\n", obj);
	tool_write_all(c.to, line, strlen(line));
	ze_ipc_mem_handle_t h;
	const char *hex = NULL;
	while (!hex && zb_child_line(&c, &kv) == 0)
		hex = zb_kv_str(&kv, "handle");
	if (!hex || tool_hex_decode(hex, &h, sizeof(h))) {
		int st = zb_child_finish(&c, &kv);
		zb_child_failed("vmm", name, &kv, st);
		return;
	}
	int n = zb.quick ? 200 : 2000;
	double *t = calloc((size_t)n * 2, sizeof(double)), *tb = t + n;
	const char *bad = t ? NULL : "out of memory";
	void *q0 = NULL;
	/* Cold: nothing of the range open here; warm: one import stays
	 * open (the driver's import cache holds the objects' files). */
	for (int warm = 0; warm < 2 && !bad; warm++) {
		if (warm) {
			ze_result_t r = zeMemOpenIpcHandle(zb.ctx, zb.dev, h,
							   0, &q0);
			if (r)
				bad = tool_result_str(r);
		}
		for (int i = 0; !bad && i < n; i++) {
			tb[i] = range_floor(obj, fd);
			bad = open_close_range(h, obj, i == 0, &t[i]);
		}
		if (bad)
			break;
		char fig[64], p[96];
		snprintf(fig, sizeof(fig), "open+close 4-object range, %s",
			 warm ? "warm" : "cold");
		snprintf(p, sizeof(p), "4 x %zu MiB, exported by another "
			 "process, %d iterations", obj >> 20, n);
		zb_report("vmm", fig, zb_median(t, n) / 1000.0, "us",
			  "reserve + 4 mmap memfd + munmap",
			  zb_median(tb, n) / 1000.0, p);
	}
	if (q0)
		zeMemCloseIpcHandle(zb.ctx, q0);
	zb_child_finish(&c, &kv);
	if (bad)
		zb_skip("vmm", name, "%s", bad);
	free(t);
}

void
zb_vmm(void)
{
	int n = zb.quick ? 2000 : 20000;
	size_t size = 2 * ZB_MiB, page = 0;
	ze_physical_mem_handle_t ph = NULL;
	zb_section("vmm", "2 MiB reserve+map+unmap+free cycles; a 4-object "
		   "range handle");
	ze_result_t r = zeVirtualMemQueryPageSize(zb.ctx, zb.dev, size, &page);
	if (r || !page) {
		zb_skip("vmm", "all", "zeVirtualMemQueryPageSize: %s",
			tool_result_str(r));
		return;
	}
	size = (size + page - 1) / page * page;
	ze_physical_mem_desc_t pd = { ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC,
				      NULL, 0, size };
	if ((r = zePhysicalMemCreate(zb.ctx, zb.dev, &pd, &ph))) {
		zb_skip("vmm", "all", "zePhysicalMemCreate: %s",
			tool_result_str(r));
		return;
	}
	int fd = memfd_create("zemem-bench", MFD_CLOEXEC);
	double *t = calloc((size_t)n * 7, sizeof(double));
	if (fd < 0 || ftruncate(fd, (off_t)size) || !t) {
		zb_skip("vmm", "all", "no memfd or memory for the baselines");
		goto out;
	}
	double *tv = t, *ta = t + n, *tm = t + 2 * n, *st[4] = {
		t + 3 * n, t + 4 * n, t + 5 * n, t + 6 * n
	};
	for (int pass = 0; pass < 2; pass++) {
		int iters = pass ? n : n / 10 + 1; /* warm-up, then measure */
		for (int i = 0; i < iters; i++) {
			void *p = NULL;
			uint64_t a = tool_now_ns();
			r = zeVirtualMemReserve(zb.ctx, NULL, size, &p);
			uint64_t b = tool_now_ns();
			if (!r)
				r = zeVirtualMemMap(
					zb.ctx, p, size, ph, 0,
					ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE);
			uint64_t c = tool_now_ns();
			if (!r)
				r = zeVirtualMemUnmap(zb.ctx, p, size);
			uint64_t d = tool_now_ns();
			if (!r)
				r = zeVirtualMemFree(zb.ctx, p, size);
			uint64_t e = tool_now_ns();
			if (r) {
				zb_skip("vmm", "all", "the reserve/map/unmap/"
					"free cycle: %s", tool_result_str(r));
				goto out;
			}
			tv[i] = (double)(e - a);
			st[0][i] = (double)(b - a);
			st[1][i] = (double)(c - b);
			st[2][i] = (double)(d - c);
			st[3][i] = (double)(e - d);
			ta[i] = mmap_cycle(size, -1);
			tm[i] = mmap_cycle(size, fd);
		}
	}
	char p[160];
	double v = zb_median(tv, n);
	snprintf(p, sizeof(p), "%d cycles, nothing touched; reserve %.0f, map "
		 "%.0f, unmap %.0f, free %.0f ns", n, zb_median(st[0], n),
		 zb_median(st[1], n), zb_median(st[2], n),
		 zb_median(st[3], n));
	zb_report("vmm", "reserve+map+unmap+free 2 MiB", v, "ns",
		  "mmap+munmap 2 MiB anonymous", zb_median(ta, n), p);
	snprintf(p, sizeof(p), "%d cycles, alternated with the above", n);
	zb_report("vmm", "reserve+map+unmap+free 2 MiB", v, "ns",
		  "mmap+munmap 2 MiB memfd shared", zb_median(tm, n), p);
	range(size, fd);
out:
	free(t);
	if (fd >= 0)
		close(fd);
	zePhysicalMemDestroy(zb.ctx, ph);
}
