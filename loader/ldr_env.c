// SPDX-License-Identifier: MIT
/*
 * ldr_env: the environment of Intel's loader (1.32) that zemem's loader
 * honours besides ZE_ENABLE_ALT_DRIVERS and the layer switches:
 *   logging    ZEL_ENABLE_LOADER_LOGGING, ZEL_LOADER_LOG_CONSOLE,
 *              ZEL_LOADER_LOG_DIR, ZEL_LOADER_LOG_FILE,
 *              ZEL_LOADER_LOGGING_LEVEL and ZE_ENABLE_LOADER_DEBUG_TRACE,
 *              mapped onto u_log's "ldr" topic (this library's copy of
 *              u_log: the driver's lines are not affected). zemem's own
 *              ZEMEM_LOG_FILE and a "ldr:LEVEL" in ZEMEM_LOG_LEVEL win.
 *   order      ZEL_DRIVERS_ORDER, applied to the drivers kept at commit.
 *   libraries  ZEL_LIBRARY_PATH, searched first for layers given by name.
 * Every option is in common/u_options.c.
 */
#include "ldr.h"
#include "u_options.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* ZEL_LOADER_LOGGING_LEVEL's names; -1 when unknown. */
static int
zel_level(const char *s)
{
	static const struct {
		const char *name;
		int level;
	} names[] = {
		{ "trace", U_LOG_TRACE }, { "debug", U_LOG_DEBUG },
		{ "info", U_LOG_INFO },   { "warn", U_LOG_WARN },
		{ "warning", U_LOG_WARN }, { "error", U_LOG_ERROR },
		{ "critical", U_LOG_ERROR }, { "off", U_LOG_NONE },
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (s && !strcasecmp(s, names[i].name))
			return names[i].level;
	return -1;
}

/* mkdir -p of dir (mode 0700 for what it makes). */
static int
make_dirs(const char *dir)
{
	char buf[4096];
	int n = snprintf(buf, sizeof(buf), "%s", dir);
	if (n <= 0 || (size_t)n >= sizeof(buf))
		return -ENAMETOOLONG;
	for (char *p = buf + 1;; p++) {
		if (*p && *p != '/')
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(buf, 0700) && errno != EEXIST)
			return -errno;
		if (!c)
			return 0;
		*p = c;
	}
}

static void
log_to_file(void)
{
	char dir[4096], path[4096];
	const char *d = u_option_str(U_OPT_ZEL_LOG_DIR);
	const char *home = getenv("HOME");
	if (d && *d)
		snprintf(dir, sizeof(dir), "%s", d);
	else if (home && *home)
		snprintf(dir, sizeof(dir), "%s/.oneapi_logs", home);
	else
		snprintf(dir, sizeof(dir), ".oneapi_logs");
	const char *name = u_option_str(U_OPT_ZEL_LOG_FILE);
	if (!name || !*name || strchr(name, '/')) {
		u_warn("ldr", "ZEL_LOADER_LOG_FILE=%s is no file name; using "
		       "ze_loader.log", name ? name : "");
		name = "ze_loader.log";
	}
	int n = snprintf(path, sizeof(path), "%s/%s", dir, name);
	int err = n > 0 && (size_t)n < sizeof(path) ? make_dirs(dir)
						    : -ENAMETOOLONG;
	if (!err)
		err = u_log_set_file(path);
	if (err)
		u_warn("ldr", "ZEL_ENABLE_LOADER_LOGGING: cannot log to %s: "
		       "%s; logging to stderr", path, strerror(-err));
}

static void
log_setup(void)
{
	bool console = u_option_u64(U_OPT_ZEL_LOG_CONSOLE);
	bool file = u_option_u64(U_OPT_ZEL_LOGGING);
	bool debug = u_option_u64(U_OPT_ZE_LOADER_DEBUG_TRACE);
	if (!console && !file && !debug)
		return;
	int level = U_LOG_NONE;
	if (console || file) {
		const char *s = u_option_str(U_OPT_ZEL_LOG_LEVEL);
		level = zel_level(s);
		if (level < 0) {
			u_warn("ldr", "ZEL_LOADER_LOGGING_LEVEL=%s is unknown; "
			       "using warn", s);
			level = U_LOG_WARN;
		}
	}
	if (debug && level < U_LOG_DEBUG)
		level = U_LOG_DEBUG;
	if (!u_log_topic_named("ldr"))
		u_log_set_topic_level("ldr", level);
	if (file && !console && !u_log_file_named())
		log_to_file();
	u_dbg("ldr", "loader %d.%d.%d: logging at %s%s", LDR_VERSION_MAJOR,
	      LDR_VERSION_MINOR, LDR_VERSION_PATCH, u_log_level_name(level),
	      debug ? " (ZE_ENABLE_LOADER_DEBUG_TRACE)" : "");
}

void
ldr_env_setup(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, log_setup);
}

/* ---- ZEL_DRIVERS_ORDER ------------------------------------------------- */

enum drv_type { T_DISCRETE, T_INTEGRATED, T_GPU, T_NPU, T_NONE };

/* Intel's classes: all GPU devices integrated / all discrete / mixed
 * (GPU); VPU devices or anything else: NPU. */
static enum drv_type
driver_type(const struct ldr_driver *d)
{
	const ze_dditable_t *t = &d->ddi;
	ze_driver_handle_t h = NULL;
	uint32_t n = 1;
	if (!t->Driver.pfnGet || !t->Device.pfnGet ||
	    !t->Device.pfnGetProperties ||
	    t->Driver.pfnGet(&n, &h) != ZE_RESULT_SUCCESS || !h)
		return T_NONE;
	ze_device_handle_t devs[64];
	n = 64;
	if (t->Device.pfnGet(h, &n, devs) != ZE_RESULT_SUCCESS || !n)
		return T_NONE;
	unsigned integrated = 0, gpu = 0;
	for (uint32_t i = 0; i < n; i++) {
		ze_device_properties_t p = {
			ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES, NULL
		};
		if (t->Device.pfnGetProperties(devs[i], &p) !=
		    ZE_RESULT_SUCCESS)
			continue;
		if (p.type != ZE_DEVICE_TYPE_GPU)
			continue;
		gpu++;
		if (p.flags & ZE_DEVICE_PROPERTY_FLAG_INTEGRATED)
			integrated++;
	}
	if (!gpu)
		return T_NPU;
	if (integrated == gpu)
		return T_INTEGRATED;
	return integrated ? T_GPU : T_DISCRETE;
}

static enum drv_type
type_named(const char *s, size_t len)
{
	static const char *const names[] = { "DISCRETE_GPU_ONLY",
					     "INTEGRATED_GPU_ONLY", "GPU",
					     "NPU" };
	for (unsigned i = 0; i < 4; i++)
		if (strlen(names[i]) == len && !strncmp(s, names[i], len))
			return (enum drv_type)i;
	return T_NONE;
}

static bool
parse_index(const char *s, size_t len, uint32_t *out)
{
	if (!len || len > 9)
		return false;
	uint32_t v = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (uint32_t)(s[i] - '0');
	}
	*out = v;
	return true;
}

/* The k-th driver (0-based) of type ty in the original order, or -1. */
static int
nth_of_type(const enum drv_type *types, uint32_t n, enum drv_type ty,
	    uint32_t k)
{
	for (uint32_t i = 0; i < n; i++)
		if (types[i] == ty && !k--)
			return (int)i;
	return -1;
}

void
ldr_order_drivers(void)
{
	const char *spec = u_option_str(U_OPT_ZEL_DRIVERS_ORDER);
	uint32_t n = ldr.ndrivers;
	if (!spec || !*spec || n < 2)
		return;
	enum drv_type types[LDR_MAX_CANDIDATES];
	bool used[LDR_MAX_CANDIDATES] = { false };
	uint32_t order[LDR_MAX_CANDIDATES], m = 0;
	for (uint32_t i = 0; i < n; i++)
		types[i] = driver_type(&ldr.drivers[i]);
	for (const char *p = spec; *p;) {
		while (*p == ' ' || *p == ',')
			p++;
		const char *end = p + strcspn(p, ",");
		size_t len = (size_t)(end - p);
		while (len && p[len - 1] == ' ')
			len--;
		const char *colon = memchr(p, ':', len);
		uint32_t idx = 0;
		enum drv_type ty = T_NONE;
		if (!len) {
			/* nothing */
		} else if (colon) {
			ty = type_named(p, (size_t)(colon - p));
			if (ty == T_NONE ||
			    !parse_index(colon + 1,
					 len - (size_t)(colon - p) - 1, &idx)) {
				u_warn("ldr", "ZEL_DRIVERS_ORDER: '%.*s' "
				       "ignored", (int)len, p);
			} else {
				int i = nth_of_type(types, n, ty, idx);
				if (i >= 0 && !used[i]) {
					used[i] = true;
					order[m++] = (uint32_t)i;
				}
			}
		} else if (parse_index(p, len, &idx)) {
			if (idx < n && !used[idx]) {
				used[idx] = true;
				order[m++] = idx;
			}
		} else if ((ty = type_named(p, len)) != T_NONE) {
			for (uint32_t i = 0; i < n; i++)
				if (types[i] == ty && !used[i]) {
					used[i] = true;
					order[m++] = i;
				}
		} else {
			u_warn("ldr", "ZEL_DRIVERS_ORDER: '%.*s' ignored",
			       (int)len, p);
		}
		p = end;
	}
	for (uint32_t i = 0; i < n; i++)
		if (!used[i])
			order[m++] = i;
	struct ldr_driver *sorted = malloc(n * sizeof(*sorted));
	if (!sorted) {
		u_err("ldr", "ZEL_DRIVERS_ORDER: out of memory; not applied");
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		sorted[i] = ldr.drivers[order[i]];
		u_dbg("ldr", "ZEL_DRIVERS_ORDER: driver %u is %s", i,
		      sorted[i].path);
	}
	memcpy(ldr.drivers, sorted, n * sizeof(sorted[0]));
	free(sorted);
}

/* ---- ZEL_LIBRARY_PATH -------------------------------------------------- */

bool
ldr_library_path(const char *name, char *path, size_t len)
{
	const char *dir = u_option_str(U_OPT_ZEL_LIBRARY_PATH);
	if (!dir || !*dir || !name || strchr(name, '/'))
		return false;
	int n = snprintf(path, len, "%s/%s", dir, name);
	return n > 0 && (size_t)n < len && !access(path, F_OK);
}
