// SPDX-License-Identifier: MIT
/*
 * zemem-bench: every performance figure of zemem in one run, each printed
 * as a ratio against a baseline measured in the same run (malloc/free, a
 * direct call into the driver, Debian's loader, memcpy/memset, mmap, ...).
 * Every figure is the median of repeated trials; the sizes and counts used
 * are printed with it. It is an ordinary Level Zero application linked with
 * the system's loader; what needs another loader, the validation layer or
 * another process runs in children (zb.h).
 *
 *   zemem-bench [--json] [--quick] [SECTION...]
 *   sections: usm loader ipc validation vmm cmd (default: all)
 *
 * This file: options, setup, output (text and JSON), the temporary folder
 * and the child protocol. The sections are in zb_<section>.c.
 */
#include "zb.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct zb_state zb;
const ze_device_mem_alloc_desc_t zb_ddesc = {
	ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0
};
const ze_host_mem_alloc_desc_t zb_hdesc = {
	ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0
};

static int json_count;

static const struct {
	const char *name;
	void (*run)(void);
	const char *what;
} sections[] = {
	{ "usm", zb_usm, "alloc+free pairs vs malloc+free; lookups" },
	{ "loader", zb_loader, "a cheap call: direct, zemem's loader, "
			       "Debian's loader; 1 and 2 drivers" },
	{ "ipc", zb_ipc, "get/open/close of a 2 MiB handle; 256 MiB read "
			 "across processes" },
	{ "validation", zb_val, "alloc+free and lookups, layer on vs off" },
	{ "vmm", zb_vmm, "reserve+map+unmap+free vs mmap; 4-object range "
			 "handle" },
	{ "cmd", zb_cmd, "copy/fill bandwidth vs memcpy/memset; append+sync "
			 "latency" },
};
#define NSECTIONS (sizeof(sections) / sizeof(sections[0]))

static const struct {
	const char *mode;
	int (*run)(void);
} child_modes[] = {
	{ "loader", zb_child_loader },
	{ "ipc-open", zb_child_ipc_open },
	{ "val", zb_child_val },
	{ "vmm-export", zb_child_vmm_export },
};

/* ---- output ------------------------------------------------------------ */

static void
json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", (unsigned char)*s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void
json_open_record(const char *section, const char *name)
{
	printf("%s    {\"section\": ", json_count++ ? ",\n" : "");
	json_string(section);
	printf(", \"name\": ");
	json_string(name);
}

void
zb_section(const char *section, const char *fmt, ...)
{
	if (zb.json)
		return;
	va_list ap;
	printf("\n[%s] ", section);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

void
zb_note(const char *fmt, ...)
{
	if (zb.json)
		return;
	va_list ap;
	printf("  ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

void
zb_report(const char *section, const char *name, double value,
	  const char *unit, const char *base_name, double base,
	  const char *params)
{
	if (!isfinite(value)) {
		zb_skip(section, name, "a call failed while measuring (%s)",
			params);
		return;
	}
	/* A difference (an overhead) can come out negative within noise: no
	 * ratio then. */
	bool has_ratio = base > 0 && isfinite(base) && value >= 0;
	double ratio = has_ratio ? value / base : 0;
	if (zb.json) {
		json_open_record(section, name);
		printf(", \"value\": %.6g, \"unit\": ", value);
		json_string(unit);
		printf(", \"baseline\": ");
		json_string(base_name);
		printf(", \"baseline_value\": ");
		if (isfinite(base))
			printf("%.6g", base);
		else
			printf("null");
		printf(", \"ratio\": ");
		if (has_ratio)
			printf("%.4g", ratio);
		else
			printf("null");
		printf(", \"higher_is_better\": %s, \"params\": ",
		       strstr(unit, "/s") ? "true" : "false");
		json_string(params);
		printf("}");
		return;
	}
	char r[16];
	if (has_ratio)
		snprintf(r, sizeof(r), "%7.*fx", ratio >= 10 ? 1
						 : ratio >= 0.1 ? 2 : 3, ratio);
	else
		snprintf(r, sizeof(r), "%8s", "n/a");
	/* Two decimals, or none from 1000 on, in 9 columns. */
	printf("  %-40s %9.*f %-4s | %-30s %9.*f | %s  %s\n", name,
	       value >= 1000 ? 0 : 2, value, unit, base_name,
	       base >= 1000 ? 0 : 2, base, r, params);
	fflush(stdout);
}

void
zb_skip(const char *section, const char *name, const char *fmt, ...)
{
	char why[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (zb.json) {
		json_open_record(section, name);
		printf(", \"skipped\": ");
		json_string(why);
		printf("}");
		return;
	}
	printf("  %-40s skipped: %s\n", name, why);
	fflush(stdout);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double
zb_median(double *v, int n)
{
	if (n <= 0)
		return NAN;
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- one CPU for children compared with one another ------------------ */

static cpu_set_t pin_saved;
static bool pinned;

int
zb_pin(void)
{
	int cpu = sched_getcpu();
	cpu_set_t one;
	if (pinned || cpu < 0 ||
	    sched_getaffinity(0, sizeof(pin_saved), &pin_saved))
		return -1;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return -1;
	pinned = true;
	return cpu;
}

void
zb_unpin(void)
{
	if (pinned)
		sched_setaffinity(0, sizeof(pin_saved), &pin_saved);
	pinned = false;
}

/* ---- temporary folder -------------------------------------------------- */

static char tmp_dir[64];
static char tmp_files[8][128];
static int ntmp;

static void
tmp_cleanup(void)
{
	for (int i = 0; i < ntmp; i++)
		unlink(tmp_files[i]);
	if (tmp_dir[0])
		rmdir(tmp_dir);
}

const char *
zb_tmp_path(const char *name)
{
	if (!tmp_dir[0]) {
		snprintf(tmp_dir, sizeof(tmp_dir), "/tmp/zemem-bench-XXXXXX");
		if (!mkdtemp(tmp_dir)) {
			tmp_dir[0] = '\0';
			return NULL;
		}
		atexit(tmp_cleanup);
	}
	if (ntmp == 8)
		return NULL;
	snprintf(tmp_files[ntmp], sizeof(tmp_files[0]), "%s/%s", tmp_dir,
		 name);
	return tmp_files[ntmp++];
}

/* ---- children ---------------------------------------------------------- */

int
zb_child_start(struct zb_child *c, const char *mode, const char *const env[])
{
	char *argv[] = { (char *)"zemem-bench", (char *)"--child",
			 (char *)mode, zb.quick ? (char *)"--quick" : NULL,
			 NULL };
	int from = -1;
	c->to = -1;
	c->from = NULL;
	c->pid = tool_spawn(argv, env, &c->to, &from);
	if (c->pid < 0)
		return -errno;
	c->from = fdopen(from, "r");
	if (!c->from) {
		int e = -errno;
		close(from);
		close(c->to);
		kill(c->pid, SIGKILL);
		waitpid(c->pid, NULL, 0);
		return e;
	}
	return 0;
}

int
zb_child_line(struct zb_child *c, struct zb_kv *kv)
{
	char line[256];
	if (!fgets(line, sizeof(line), c->from))
		return -1;
	line[strcspn(line, "\n")] = '\0';
	if (kv->n == ZB_KV_MAX)
		return 0;
	size_t k = strcspn(line, " ");
	snprintf(kv->key[kv->n], sizeof(kv->key[0]), "%.*s", (int)k, line);
	snprintf(kv->val[kv->n], sizeof(kv->val[0]), "%s",
		 line[k] ? line + k + 1 : "");
	kv->n++;
	return 0;
}

int
zb_child_finish(struct zb_child *c, struct zb_kv *kv)
{
	int status = 0;
	if (c->to >= 0)
		close(c->to);
	c->to = -1;
	while (zb_child_line(c, kv) == 0)
		;
	fclose(c->from);
	c->from = NULL;
	while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int
zb_child_run(const char *mode, const char *const env[], struct zb_kv *kv)
{
	struct zb_child c;
	kv->n = 0;
	if (zb_child_start(&c, mode, env))
		return -1;
	return zb_child_finish(&c, kv);
}

const char *
zb_kv_str(const struct zb_kv *kv, const char *key)
{
	for (int i = kv->n - 1; i >= 0; i--)
		if (!strcmp(kv->key[i], key))
			return kv->val[i];
	return NULL;
}

double
zb_kv_num(const struct zb_kv *kv, const char *key)
{
	const char *v = zb_kv_str(kv, key);
	return v ? strtod(v, NULL) : NAN;
}

void
zb_child_failed(const char *section, const char *name,
		const struct zb_kv *kv, int status)
{
	const char *s = zb_kv_str(kv, "skip");
	if (s)
		zb_skip(section, name, "%s", s);
	else if ((s = zb_kv_str(kv, "error")))
		zb_skip(section, name, "the child failed: %s", s);
	else
		zb_skip(section, name, "the child %s %d", status < 0
			? "was killed or crashed, status" : "exited with",
			status);
}

void
zb_out(const char *key, const char *fmt, ...)
{
	va_list ap;
	printf("%s ", key);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

int
zb_child_setup(void)
{
	ze_result_t r = zeInit(0);
	uint32_t n = 1;
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	if (!r)
		r = zeDriverGet(&n, &zb.drv);
	if (!r && !n)
		r = ZE_RESULT_ERROR_UNINITIALIZED;
	n = 1;
	if (!r)
		r = zeDeviceGet(zb.drv, &n, &zb.dev);
	if (!r)
		r = zeContextCreate(zb.drv, &cd, &zb.ctx);
	if (r) {
		zb_out("error", "setup through %s: %s", tool_loader_path(),
		       tool_result_str(r));
		return -1;
	}
	return 0;
}

/* ---- main -------------------------------------------------------------- */

static void
usage(FILE *f)
{
	fprintf(f, "usage: zemem-bench [--json] [--quick] [SECTION...]\n"
		   "       zemem-bench --count KIND SIZE N\n"
		   "  --json   one JSON object: the run, then every figure\n"
		   "  --quick  fewer trials and smaller sizes\n"
		   "  --count  N untimed alloc+free pairs of SIZE bytes, KIND "
		   "host, device,\n"
		   "           shared or malloc; KIND ipc: N cold IPC "
		   "open+close pairs of a\n"
		   "           2 MiB handle, SIZE unused (for instruction "
		   "counts: tools/zb_icount.sh)\n"
		   "sections (default: all):\n");
	for (size_t i = 0; i < NSECTIONS; i++)
		fprintf(f, "  %-11s %s\n", sections[i].name, sections[i].what);
}

static int
setup(void)
{
	ze_result_t r = zeInit(0);
	uint32_t n = 1;
	if (!r)
		r = zeDriverGet(&n, &zb.drv);
	if (r || !n) {
		tool_explain_no_driver(stderr, "zemem-bench",
				       r ? r : ZE_RESULT_ERROR_UNINITIALIZED);
		return -1;
	}
	n = 1;
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	if ((r = zeDeviceGet(zb.drv, &n, &zb.dev)) || !n ||
	    (r = zeContextCreate(zb.drv, &cd, &zb.ctx))) {
		fprintf(stderr, "zemem-bench: no device or context: %s\n",
			tool_result_str(r));
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	bool want[NSECTIONS] = { false }, any = false;
	const char *child = NULL;
	for (int i = 1; i < argc; i++) {
		size_t s;
		if (!strcmp(argv[i], "--json")) {
			zb.json = true;
		} else if (!strcmp(argv[i], "--quick")) {
			zb.quick = true;
		} else if (!strcmp(argv[i], "--child") && i + 1 < argc) {
			child = argv[++i];
		} else if (!strcmp(argv[i], "--count") && i + 3 < argc) {
			tool_default_driver();
			if (setup())
				return 1;
			long n = strtol(argv[i + 3], NULL, 0);
			int rc = !strcmp(argv[i + 1], "ipc")
					 ? zb_ipc_count(n)
					 : zb_usm_count(argv[i + 1],
							strtoull(argv[i + 2],
								 NULL, 0),
							n);
			zeContextDestroy(zb.ctx);
			return rc;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else {
			for (s = 0; s < NSECTIONS; s++)
				if (!strcmp(argv[i], sections[s].name))
					break;
			if (s == NSECTIONS) {
				usage(stderr);
				return 2;
			}
			want[s] = any = true;
		}
	}
	if (child) {
		for (size_t m = 0; m < sizeof(child_modes) /
					       sizeof(child_modes[0]); m++)
			if (!strcmp(child, child_modes[m].mode))
				return child_modes[m].run();
		fprintf(stderr, "zemem-bench: unknown child mode %s\n", child);
		return 2;
	}
	/* A child that dies before reading its stdin must not kill us. */
	signal(SIGPIPE, SIG_IGN);
	tool_default_driver();
	if (setup())
		return 1;
	const char *alt = getenv("ZE_ENABLE_ALT_DRIVERS");
	if (zb.json) {
		printf("{\n  \"tool\": \"zemem-bench\", \"quick\": %s,\n"
		       "  \"loader\": ", zb.quick ? "true" : "false");
		json_string(tool_loader_path());
		printf(", \"driver\": ");
		json_string(alt ? alt : "");
		printf(",\n  \"results\": [\n");
	} else {
		printf("zemem-bench%s: loader %s, driver %s\n"
		       "Each line: figure (median of the trials) | baseline "
		       "measured in this run | ratio = figure / baseline  "
		       "(sizes, counts, target)\n", zb.quick ? " --quick" : "",
		       tool_loader_path(), alt ? alt : "(loader default)");
	}
	for (size_t s = 0; s < NSECTIONS; s++) {
		if (any && !want[s])
			continue;
		sections[s].run();
	}
	if (zb.json)
		printf("\n  ]\n}\n");
	zeContextDestroy(zb.ctx);
	return 0;
}
