// SPDX-License-Identifier: MIT
/*
 * ldr_discover: driver discovery. Builds the candidate list (the
 * ZE_ENABLE_ALT_DRIVERS list, or Intel's default library names plus zemem's
 * own driver), dlopens each, negotiates the table version and reads every
 * table through the library's getters.
 *
 * Version negotiation: the Global getter is called with
 * ZE_API_VERSION_CURRENT (1.18); while it answers UNSUPPORTED_VERSION the
 * loader retries with 1.17, 1.16, ... down to 1.0 and keeps the first
 * version accepted. Every other table is read at that version into a zeroed
 * 1.18-sized table, so a slot the driver does not fill stays NULL, and an
 * entry point whose slot is NULL answers ZE_RESULT_ERROR_UNSUPPORTED_FEATURE.
 *
 * Required getters: Global, Driver, Device, Context (missing or failing:
 * the driver is dropped). Any other getter may be missing (its table stays
 * empty) or fail (logged at info; table emptied).
 *
 * Every failure is logged at debug and added to one report line
 * (ldr.report), which ldr_init.c logs at warn when no driver loads, or when
 * some of the paths the user listed in ZE_ENABLE_ALT_DRIVERS did not.
 *
 * Locking: called with ldr.lock held.
 */
#include "ldr.h"
#include "u_options.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const default_drivers[] = {
	"libze_intel_gpu.so.1",
	"libze_intel_gpu_legacy1.so.1",
	"libze_intel_vpu.so.1",
	"libze_intel_npu.so.1",
};

static const char *const getter_names[LDR_TABLE_COUNT] = {
#define LDR_GETTER_NAME_(table, Getter, FIELDS) \
	"zeGet" #Getter "ProcAddrTable",
	ZE_DDI_TABLES(LDR_GETTER_NAME_)
#undef LDR_GETTER_NAME_
};

const char *
ldr_getter_name(unsigned table)
{
	return table < LDR_TABLE_COUNT ? getter_names[table] : "?";
}

bool
ldr_table_required(unsigned table)
{
	return table == LDR_TABLE_Global || table == LDR_TABLE_Driver ||
	       table == LDR_TABLE_Device || table == LDR_TABLE_Context;
}

static const struct {
	size_t off, size;
} table_span[LDR_TABLE_COUNT] = {
#define LDR_TABLE_SPAN_(table, Getter, FIELDS) \
	{ offsetof(ze_dditable_t, Getter), sizeof(ze_##table##_dditable_t) },
	ZE_DDI_TABLES(LDR_TABLE_SPAN_)
#undef LDR_TABLE_SPAN_
};

void
ldr_table_copy(unsigned table, ze_dditable_t *dst, const ze_dditable_t *src)
{
	char *d = (char *)dst + table_span[table].off;
	if (src)
		memcpy(d, (const char *)src + table_span[table].off,
		       table_span[table].size);
	else
		memset(d, 0, table_span[table].size);
}

ldr_fn_t
ldr_dlsym_fn(void *dl, const char *name)
{
	void *sym = dlsym(dl, name);
	ldr_fn_t fn;
	/* POSIX: a data pointer from dlsym converts to a function pointer. */
	memcpy(&fn, &sym, sizeof(fn));
	return fn;
}

ze_result_t
ldr_call_getter(unsigned table, ldr_fn_t fn, ze_api_version_t v,
		ze_dditable_t *t)
{
	switch (table) {
#define LDR_CALL_GETTER_(table, Getter, FIELDS)                                \
	case LDR_TABLE_##Getter:                                              \
		return ((ze_pfnGet##Getter##ProcAddrTable_t)fn)(v,            \
								&t->Getter);  \
		break;
	ZE_DDI_TABLES(LDR_CALL_GETTER_)
#undef LDR_CALL_GETTER_
	}
	return ZE_RESULT_ERROR_INVALID_ENUMERATION;
}

ze_result_t
ldr_negotiate(ldr_fn_t global, ze_dditable_t *t, const ze_dditable_t *init,
	      ze_api_version_t *v)
{
	ze_result_t r = ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
	for (uint32_t minor = ZE_MINOR_VERSION(ZE_API_VERSION_CURRENT);;
	     minor--) {
		*v = (ze_api_version_t)ZE_MAKE_VERSION(1, minor);
		ldr_table_copy(LDR_TABLE_Global, t, init);
		r = ldr_call_getter(LDR_TABLE_Global, global, *v, t);
		if (r != ZE_RESULT_ERROR_UNSUPPORTED_VERSION || minor == 0)
			break;
		u_dbg("ldr", "version 1.%u refused; trying 1.%u", minor,
		      minor - 1);
	}
	return r;
}

void
ldr_report(int level, const char *path, const char *fmt, ...)
{
	char why[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	U_LOG(level, "ldr", "%s: %s", path, why);
	size_t room = sizeof(ldr.report) - ldr.report_len;
	int n = snprintf(ldr.report + ldr.report_len, room, "%s%s: %s",
			 ldr.report_len ? "; " : "", path, why);
	if (n > 0)
		ldr.report_len += (size_t)n < room ? (size_t)n : room - 1;
}

void
ldr_driver_unload(struct ldr_driver *d)
{
	if (d->dl)
		dlclose(d->dl);
	free(d->path);
	memset(d, 0, sizeof(*d));
}

/* Reads every table of an opened library; 0, or -EINVAL (reported). */
static int
read_tables(struct ldr_driver *d)
{
	for (unsigned t = 0; t < LDR_TABLE_COUNT; t++) {
		if (ldr_table_required(t) &&
		    !ldr_dlsym_fn(d->dl, ldr_getter_name(t))) {
			ldr_report(U_LOG_DEBUG, d->path,
				   "missing required getter %s",
				   ldr_getter_name(t));
			return -EINVAL;
		}
	}
	ze_result_t r = ldr_negotiate(
		ldr_dlsym_fn(d->dl, ldr_getter_name(LDR_TABLE_Global)),
		&d->ddi, NULL, &d->version);
	if (r != ZE_RESULT_SUCCESS) {
		ldr_report(U_LOG_DEBUG, d->path, "%s(1.%u) returned %s",
			   ldr_getter_name(LDR_TABLE_Global),
			   ZE_MINOR_VERSION(d->version), ldr_result_name(r));
		return -EINVAL;
	}
	for (unsigned t = 0; t < LDR_TABLE_COUNT; t++) {
		if (t == LDR_TABLE_Global)
			continue;
		ldr_fn_t fn = ldr_dlsym_fn(d->dl, ldr_getter_name(t));
		if (!fn) {
			u_dbg("ldr", "%s: no %s (its functions: unsupported)",
			      d->path, ldr_getter_name(t));
			continue;
		}
		r = ldr_call_getter(t, fn, d->version, &d->ddi);
		if (r == ZE_RESULT_SUCCESS)
			continue;
		if (ldr_table_required(t)) {
			ldr_report(U_LOG_DEBUG, d->path, "%s(1.%u) returned %s",
				   ldr_getter_name(t),
				   ZE_MINOR_VERSION(d->version),
				   ldr_result_name(r));
			return -EINVAL;
		}
		u_info("ldr", "%s: %s returned %s; its functions: unsupported",
		       d->path, ldr_getter_name(t), ldr_result_name(r));
		/* Empty that table again: the getter may have written part. */
		ldr_table_copy(t, &d->ddi, NULL);
	}
	return 0;
}

static int
load_driver(const char *path, struct ldr_driver *d)
{
	memset(d, 0, sizeof(*d));
	d->path = strdup(path);
	if (!d->path)
		return -ENOMEM;
	u_dbg("ldr", "trying driver %s", path);
	dlerror();
	d->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!d->dl) {
		const char *e = dlerror();
		ldr_report(U_LOG_DEBUG, path, "cannot load (%s)", e ? e : "?");
		ldr_driver_unload(d);
		return -ENOENT;
	}
	int err = read_tables(d);
	if (err) {
		ldr_driver_unload(d);
		return err;
	}
	u_dbg("ldr", "%s: tables read at version 1.%u", path,
	      ZE_MINOR_VERSION(d->version));
	return 0;
}

/* The candidate list; returns the count (paths point into buf or static
 * strings). explicit_list: the user named them. */
static uint32_t
candidates(const char **out, char *buf, size_t len, bool *explicit_list)
{
	const char *alt = u_option_str(U_OPT_ENABLE_ALT_DRIVERS);
	uint32_t n = 0;
	*explicit_list = alt && *alt;
	if (*explicit_list) {
		if (snprintf(buf, len, "%s", alt) >= (int)len)
			u_warn("ldr", "ZE_ENABLE_ALT_DRIVERS is longer than %zu "
			       "bytes; only its start is used", len - 1);
		for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			tok += strspn(tok, " \t");
			size_t l = strlen(tok);
			while (l && (tok[l - 1] == ' ' || tok[l - 1] == '\t'))
				tok[--l] = '\0';
			if (!l)
				continue;
			if (n == LDR_MAX_CANDIDATES) {
				u_warn("ldr", "ZE_ENABLE_ALT_DRIVERS: more than "
				       "%u drivers; ignoring \"%s\" and after",
				       LDR_MAX_CANDIDATES, tok);
				break;
			}
			out[n++] = tok;
		}
		return n;
	}
	for (size_t i = 0; i < sizeof(default_drivers) / sizeof(char *); i++)
		out[n++] = default_drivers[i];
	/* zemem's own driver: installed, else the build tree it came from. */
	if (access(LDR_INSTALLED_DRIVER, F_OK) && !access(LDR_BUILD_DRIVER,
							  F_OK))
		out[n++] = LDR_BUILD_DRIVER;
	else
		out[n++] = LDR_INSTALLED_DRIVER;
	return n;
}

int
ldr_discover(void)
{
	const char *paths[LDR_MAX_CANDIDATES];
	char buf[4096];
	bool explicit_list;
	uint32_t n = candidates(paths, buf, sizeof(buf), &explicit_list);
	ldr.alt_list = explicit_list;
	u_dbg("ldr", "%u candidate driver(s) from %s", n,
	      explicit_list ? "ZE_ENABLE_ALT_DRIVERS" : "the default list");
	ldr.drivers = calloc(n ? n : 1, sizeof(*ldr.drivers));
	if (!ldr.drivers)
		return -ENOMEM;
	if (!n)
		ldr_report(U_LOG_DEBUG, "ZE_ENABLE_ALT_DRIVERS",
			   "lists no library");
	for (uint32_t i = 0; i < n; i++) {
		struct ldr_driver *d = &ldr.drivers[ldr.ndrivers];
		int err = load_driver(paths[i], d);
		if (err == -ENOMEM)
			return err;
		if (err)
			continue;
		/* The same library under two names is one driver. */
		for (uint32_t k = 0; k < ldr.ndrivers; k++) {
			if (ldr.drivers[k].dl == d->dl) {
				u_dbg("ldr", "%s is %s, already loaded",
				      paths[i], ldr.drivers[k].path);
				ldr_driver_unload(d);
				err = -EEXIST;
				break;
			}
		}
		if (!err)
			ldr.ndrivers++;
	}
	return ldr.ndrivers ? 0 : -ENOENT;
}
