// SPDX-License-Identifier: MIT
/*
 * zb_loader: what a loader costs per call (issue 3).
 *
 * The cheap entry point zeMemGetAllocProperties on a known device pointer,
 * with and without the phDevice out-parameter, called
 *   - directly: the driver's own function, from the Mem table that the
 *     driver library (already loaded by the loader: dlopen RTLD_NOLOAD)
 *     returns from zeGetMemProcAddrTable, with the driver's own handle
 *     (zelLoaderTranslateHandle) - the baseline;
 *   - through the loader, as an application calls it.
 * Each loader runs in a child started with LD_LIBRARY_PATH at its folder
 * (zemem's build/loader, the system's libdir) and ZE_ENABLE_ALT_DRIVERS
 * naming one driver or two (the driver and a copy of it under another
 * name, so that it loads twice). The child pins itself to one CPU and
 * alternates trials of the direct call and the loader call, so both see
 * the same caches and machine load, and reports their medians. The parent
 * then compares the two loaders' overheads (loader - direct): target,
 * zemem's <= Debian's with one driver.
 *
 * Tracing (zemem's loader, which has zelEnableTracingLayer): the same call
 * with tracing on and one enabled tracer whose prologue and epilogue count
 * the call, and with tracing on but no tracer enabled, each alternated
 * with the untraced call (tracing turned off between trials).
 */
#include "zb.h"

#include <level_zero/ze_ddi.h>
#include <zemem/zel_loader.h>
#include <zemem/zel_tracing.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef ZEMEM_SYS_LOADER_DIR
#define ZEMEM_SYS_LOADER_DIR ""
#endif

#define MAX_TRIALS 101

/* ---- child ------------------------------------------------------------- */

/* The driver's own GetAllocProperties: the library in ZE_ENABLE_ALT_DRIVERS
 * whose zeDriverGet returns real_drv. */
static ze_pfnMemGetAllocProperties_t
direct_fn(ze_driver_handle_t real_drv)
{
	char list[4096];
	const char *alt = getenv("ZE_ENABLE_ALT_DRIVERS");
	snprintf(list, sizeof(list), "%s", alt ? alt : "");
	for (char *save = NULL, *p = strtok_r(list, ",", &save); p;
	     p = strtok_r(NULL, ",", &save)) {
		void *dl = dlopen(p, RTLD_NOW | RTLD_NOLOAD);
		if (!dl)
			continue;
		ze_pfnGetDriverProcAddrTable_t gd;
		ze_pfnGetMemProcAddrTable_t gm;
		void *a = dlsym(dl, "zeGetDriverProcAddrTable");
		void *b = dlsym(dl, "zeGetMemProcAddrTable");
		memcpy(&gd, &a, sizeof(a));
		memcpy(&gm, &b, sizeof(b));
		ze_driver_dditable_t dt;
		static ze_mem_dditable_t mt;
		ze_driver_handle_t h[8];
		uint32_t n = 8;
		memset(&dt, 0, sizeof(dt));
		memset(&mt, 0, sizeof(mt));
		bool mine = false;
		if (gd && gm && !gd(ZE_API_VERSION_CURRENT, &dt) && dt.pfnGet &&
		    !dt.pfnGet(&n, h))
			for (uint32_t i = 0; i < n && i < 8; i++)
				mine |= h[i] == real_drv;
		dlclose(dl); /* still loaded: the loader holds it */
		if (mine && !gm(ZE_API_VERSION_CURRENT, &mt))
			return mt.pfnGetAllocProperties;
	}
	return NULL;
}

static double
trial(ze_pfnMemGetAllocProperties_t fn, ze_context_handle_t ctx,
      const void *ptr, bool with_device, long calls)
{
	ze_memory_allocation_properties_t pr = {
		ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, NULL
	};
	ze_device_handle_t owner = NULL;
	unsigned bad = 0;
	uint64_t t0 = tool_now_ns();
	for (long i = 0; i < calls; i++)
		bad |= (unsigned)fn(ctx, ptr, &pr, with_device ? &owner : NULL);
	double ns = (double)(tool_now_ns() - t0) / (double)calls;
	return bad || pr.type != ZE_MEMORY_TYPE_DEVICE ? NAN : ns;
}

static long traced_calls;

static void ZE_APICALL
count_call(ze_mem_get_alloc_properties_params_t *p, ze_result_t r, void *u,
	   void **inst)
{
	(void)p, (void)r, (void)u, (void)inst;
	traced_calls++;
}

/* Medians of the untraced call and of the call with tracing on, with
 * (tracer) or without an enabled tracer; 0: done, -1: not this loader. */
static int
traced_trials(const void *ptr, int trials, long calls, bool tracer,
	      double *untraced, double *traced)
{
	typedef ze_result_t (*onoff_t)(void);
	onoff_t on = TOOL_SYM(onoff_t, "zelEnableTracingLayer");
	onoff_t off = TOOL_SYM(onoff_t, "zelDisableTracingLayer");
	ze_result_t (*create)(const zel_tracer_desc_t *,
			      zel_tracer_handle_t *) =
		TOOL_SYM(ze_result_t (*)(const zel_tracer_desc_t *,
					 zel_tracer_handle_t *),
			 "zelTracerCreate");
	ze_result_t (*reg)(zel_tracer_handle_t, zel_tracer_reg_t,
			   ze_pfnMemGetAllocPropertiesCb_t) =
		TOOL_SYM(ze_result_t (*)(zel_tracer_handle_t,
					 zel_tracer_reg_t,
					 ze_pfnMemGetAllocPropertiesCb_t),
			 "zelTracerMemGetAllocPropertiesRegisterCallback");
	ze_result_t (*enable)(zel_tracer_handle_t, ze_bool_t) =
		TOOL_SYM(ze_result_t (*)(zel_tracer_handle_t, ze_bool_t),
			 "zelTracerSetEnabled");
	ze_result_t (*destroy)(zel_tracer_handle_t) =
		TOOL_SYM(ze_result_t (*)(zel_tracer_handle_t),
			 "zelTracerDestroy");
	if (!on || !off || !create || !reg || !enable || !destroy)
		return -1;
	zel_tracer_desc_t desc = { ZEL_STRUCTURE_TYPE_TRACER_DESC, NULL,
				   NULL };
	zel_tracer_handle_t t = NULL;
	if (create(&desc, &t) ||
	    reg(t, ZEL_REGISTER_PROLOGUE, count_call) ||
	    reg(t, ZEL_REGISTER_EPILOGUE, count_call) ||
	    enable(t, tracer))
		return -1;
	double tu[MAX_TRIALS], tt[MAX_TRIALS];
	traced_calls = 0;
	for (int k = 0; k < trials; k++) {
		tu[k] = trial(zeMemGetAllocProperties, zb.ctx, ptr, true,
			      calls);
		on();
		tt[k] = trial(zeMemGetAllocProperties, zb.ctx, ptr, true,
			      calls);
		off();
	}
	destroy(t);
	if (traced_calls != (tracer ? 2 * calls * trials : 0))
		return -1;
	*untraced = zb_median(tu, trials);
	*traced = zb_median(tt, trials);
	return 0;
}

int
zb_child_loader(void)
{
	long calls = zb.quick ? 5000 : 20000;
	int trials = zb.quick ? 21 : MAX_TRIALS;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(sched_getcpu() > 0 ? sched_getcpu() : 0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	zb_out("loader", "%s", tool_loader_path());
	if (zb_child_setup())
		return 1;
	ze_result_t (*translate)(zel_handle_type_t, void *, void **) =
		TOOL_SYM(ze_result_t (*)(zel_handle_type_t, void *, void **),
			 "zelLoaderTranslateHandle");
	void *real_ctx = NULL, *real_drv = NULL, *ptr = NULL;
	if (!translate ||
	    translate(ZEL_HANDLE_CONTEXT, zb.ctx, &real_ctx) ||
	    translate(ZEL_HANDLE_DRIVER, zb.drv, &real_drv)) {
		zb_out("skip", "the loader cannot translate handles "
		       "(zelLoaderTranslateHandle)");
		return 0;
	}
	ze_pfnMemGetAllocProperties_t direct = direct_fn(real_drv);
	if (!direct) {
		zb_out("skip", "no driver library in ZE_ENABLE_ALT_DRIVERS "
		       "owns the driver handle");
		return 0;
	}
	ze_result_t r = zeMemAllocDevice(zb.ctx, &zb_ddesc, 4096, 0, zb.dev,
					 &ptr);
	if (r) {
		zb_out("error", "zeMemAllocDevice: %s", tool_result_str(r));
		return 1;
	}
	uint32_t ndrv = 0;
	zeDriverGet(&ndrv, NULL);
	zb_out("drivers", "%u", ndrv);
	double td[MAX_TRIALS], tl[MAX_TRIALS];
	for (int with = 1; with >= 0; with--) {
		for (int k = 0; k < trials; k++) {
			td[k] = trial(direct, real_ctx, ptr, with, calls);
			tl[k] = trial(zeMemGetAllocProperties, zb.ctx, ptr,
				      with, calls);
		}
		zb_out(with ? "direct_dev" : "direct_nodev", "%.3f",
		       zb_median(td, trials));
		zb_out(with ? "loader_dev" : "loader_nodev", "%.3f",
		       zb_median(tl, trials));
	}
	double untraced, traced;
	if (ndrv == 1 &&
	    !traced_trials(ptr, trials, calls, true, &untraced, &traced)) {
		zb_out("untraced", "%.3f", untraced);
		zb_out("traced", "%.3f", traced);
		if (!traced_trials(ptr, trials, calls, false, &untraced,
				   &traced)) {
			zb_out("untraced_idle", "%.3f", untraced);
			zb_out("traced_idle", "%.3f", traced);
		}
	}
	zb_out("calls", "%ld", calls);
	zb_out("trials", "%d", trials);
	zeMemFree(zb.ctx, ptr);
	zeContextDestroy(zb.ctx);
	return 0;
}

/* ---- parent ------------------------------------------------------------ */

static int
copy_file(const char *from, const char *to)
{
	char buf[1 << 16];
	int in = open(from, O_RDONLY | O_CLOEXEC), out = -1, err = 0;
	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (out < 0) {
		err = -errno;
		goto done;
	}
	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : 0;
			break;
		}
		if ((err = tool_write_all(out, buf, (size_t)n)))
			break;
	}
	close(out);
done:
	close(in);
	return err;
}

struct config {
	const char *name;   /* "zemem loader", "Debian loader" */
	const char *dir;    /* for LD_LIBRARY_PATH, NULL: not available */
	int drivers;
	bool ok;
	double direct[2], loader[2]; /* [0] with phDevice, [1] NULL */
};

static void
run_config(struct config *c, const char *driver, const char *copy)
{
	char ld[4200], alt[4200];
	struct zb_kv kv;
	char name[96];
	snprintf(name, sizeof(name), "%s, %d driver%s", c->name, c->drivers,
		 c->drivers > 1 ? "s" : "");
	if (!c->dir) {
		zb_skip("loader", name, "%s not found", c->name);
		return;
	}
	if (c->drivers > 1 && !copy) {
		zb_skip("loader", name, "cannot copy the driver to load it "
			"twice");
		return;
	}
	snprintf(ld, sizeof(ld), "LD_LIBRARY_PATH=%s", c->dir);
	snprintf(alt, sizeof(alt), "ZE_ENABLE_ALT_DRIVERS=%s%s%s", driver,
		 c->drivers > 1 ? "," : "", c->drivers > 1 ? copy : "");
	const char *env[] = { ld, alt, NULL };
	int st = zb_child_run("loader", env, &kv);
	const char *used = zb_kv_str(&kv, "loader");
	if (st || zb_kv_str(&kv, "skip") || !zb_kv_str(&kv, "loader_nodev")) {
		zb_child_failed("loader", name, &kv, st);
		return;
	}
	if (!used || strncmp(used, c->dir, strlen(c->dir))) {
		zb_skip("loader", name, "the child ran on %s, not on %s",
			used ? used : "?", c->dir);
		return;
	}
	if (zb_kv_num(&kv, "drivers") != c->drivers) {
		zb_skip("loader", name, "the loader kept %s driver(s), not %d",
			zb_kv_str(&kv, "drivers"), c->drivers);
		return;
	}
	c->direct[0] = zb_kv_num(&kv, "direct_dev");
	c->loader[0] = zb_kv_num(&kv, "loader_dev");
	c->direct[1] = zb_kv_num(&kv, "direct_nodev");
	c->loader[1] = zb_kv_num(&kv, "loader_nodev");
	c->ok = true;
	static const char *const what[2] = { "with phDevice", "phDevice NULL" };
	for (int w = 0; w < 2; w++) {
		char fig[96], params[160];
		snprintf(fig, sizeof(fig), "GetAllocProperties, %s, %s",
			 c->name, c->drivers > 1 ? "2 drv" : "1 drv");
		snprintf(params, sizeof(params), "%s; %s calls x %s trials, "
			 "alternated; %s", what[w], zb_kv_str(&kv, "calls"),
			 zb_kv_str(&kv, "trials"), used);
		zb_report("loader", fig, c->loader[w], "ns",
			  "direct call (driver's table)", c->direct[w],
			  params);
	}
	if (zb_kv_str(&kv, "traced")) {
		char params[160];
		snprintf(params, sizeof(params), "with phDevice; tracing on, "
			 "one tracer: prologue + epilogue; alternated; %s",
			 used);
		zb_report("loader", "GetAllocProperties, traced",
			  zb_kv_num(&kv, "traced"), "ns", "untraced call",
			  zb_kv_num(&kv, "untraced"), params);
	}
	if (zb_kv_str(&kv, "traced_idle")) {
		char params[160];
		snprintf(params, sizeof(params), "with phDevice; tracing on, "
			 "no tracer enabled; alternated; %s", used);
		zb_report("loader", "GetAllocProperties, tracing idle",
			  zb_kv_num(&kv, "traced_idle"), "ns", "untraced call",
			  zb_kv_num(&kv, "untraced_idle"), params);
	}
}

void
zb_loader(void)
{
	char driver[4096];
	const char *alt = getenv("ZE_ENABLE_ALT_DRIVERS");
	const char *sys = NULL;
	char sys_lib[4200];
	zb_section("loader", "zeMemGetAllocProperties on a device pointer, "
		   "ns per call: each loader in a child process");
	if (!alt || !*alt) {
		zb_skip("loader", "all", "ZE_ENABLE_ALT_DRIVERS names no driver");
		return;
	}
	snprintf(driver, sizeof(driver), "%.*s", (int)strcspn(alt, ","), alt);
	snprintf(sys_lib, sizeof(sys_lib), "%s/libze_loader.so.1",
		 ZEMEM_SYS_LOADER_DIR);
	if (*ZEMEM_SYS_LOADER_DIR && !access(sys_lib, R_OK))
		sys = ZEMEM_SYS_LOADER_DIR;
	const char *copy = zb_tmp_path("libze_zemem_copy.so.1");
	if (copy && copy_file(driver, copy))
		copy = NULL;
	struct config cf[4] = {
		{ "zemem loader", tool_zemem_loader_dir(), 1, false, { 0 },
		  { 0 } },
		{ "Debian loader", sys, 1, false, { 0 }, { 0 } },
		{ "zemem loader", tool_zemem_loader_dir(), 2, false, { 0 },
		  { 0 } },
		{ "Debian loader", sys, 2, false, { 0 }, { 0 } },
	};
	zb_pin(); /* the loaders are compared: all on one CPU */
	for (int i = 0; i < 4; i++)
		run_config(&cf[i], driver, copy);
	zb_unpin();
	/* zemem's overhead against Debian's, from the pairs above. */
	for (int i = 0; i < 4; i += 2) {
		if (!cf[i].ok || !cf[i + 1].ok)
			continue;
		for (int w = 0; w < 2; w++) {
			char fig[96], params[96];
			snprintf(fig, sizeof(fig), "loader overhead, %d drv%s",
				 cf[i].drivers, w ? ", phDevice NULL" : "");
			snprintf(params, sizeof(params), "zemem - direct vs "
				 "Debian - direct%s", i ? ""
				 : "; target <= 1x");
			zb_report("loader", fig,
				  cf[i].loader[w] - cf[i].direct[w], "ns",
				  "Debian loader overhead",
				  cf[i + 1].loader[w] - cf[i + 1].direct[w],
				  params);
		}
	}
}
