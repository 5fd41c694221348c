// SPDX-License-Identifier: MIT
/*
 * ldr_layer: loading and chaining layers.
 *
 * A layer is a library that exports zeGet<Table>ProcAddrTable like a
 * driver, but its getter receives the current top table, saves those
 * pointers as "next" and writes its own functions in their place. The loader
 * hands every table to the validation layer first, then to the tracing
 * layer, so tracing sees the calls as the application made them.
 *
 * Which layers:
 *   ZE_ENABLE_VALIDATION_LAYER=1  ZEMEM_VALIDATION_LAYER if set, else
 *       zemem's libze_zemem_validation_layer.so.1 from the build tree (the
 *       folder validation_layer/ next to the loader's folder), the
 *       installed libdir, then the library search path;
 *   ZE_ENABLE_TRACING_LAYER=1     ZEMEM_TRACING_LAYER (default
 *       libze_tracing_layer.so.1).
 * A layer that cannot be loaded is a warning; the calls go on without it.
 * A getter that fails leaves that table as it was.
 *
 * Locking: called at commit, with ldr.lock held.
 */
#include "ldr.h"
#include "u_options.h"

#include <dlfcn.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define ZEMEM_LAYER_NAME "libze_zemem_validation_layer.so.1"

/* Why the first open_layer of a search (ldr_layers_load empties it for
 * each) failed: when a layer file that is there cannot load, that
 * reason, not a later place's "no such file". */
static char last_error[512];

static void *
open_layer(const char *path)
{
	dlerror();
	void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!dl) {
		const char *e = dlerror();
		if (!*last_error)
			snprintf(last_error, sizeof(last_error), "%s",
				 e ? e : "?");
		u_dbg("ldr", "layer %s: cannot load (%s)", path, e ? e : "?");
	} else {
		u_dbg("ldr", "layer %s loaded", path);
	}
	return dl;
}

/* zemem's validation layer: build tree, libdir, search path. */
static void *
open_zemem_layer(char *path, size_t len)
{
	if (ldr_library_path(ZEMEM_LAYER_NAME, path, len)) {
		void *dl = open_layer(path);
		if (dl)
			return dl;
	}
	Dl_info info;
	char self[4096];
	if (dladdr((void *)ldr_no_slot, &info) && info.dli_fname) {
		snprintf(self, sizeof(self), "%s", info.dli_fname);
		snprintf(path, len, "%s/../validation_layer/" ZEMEM_LAYER_NAME,
			 dirname(self));
		if (!access(path, F_OK)) {
			void *dl = open_layer(path);
			if (dl)
				return dl;
		}
	}
	snprintf(path, len, "%s/" ZEMEM_LAYER_NAME, LDR_INSTALLED_LIBDIR);
	if (!access(path, F_OK)) {
		void *dl = open_layer(path);
		if (dl)
			return dl;
	}
	snprintf(path, len, ZEMEM_LAYER_NAME);
	return open_layer(path);
}

static void
add_layer(const char *name, const char *path, void *dl)
{
	struct ldr_layer *l = &ldr.layers[ldr.nlayers];
	memset(l, 0, sizeof(*l));
	l->name = name;
	l->path = strdup(path);
	l->dl = dl;
	snprintf(l->info.component_name, sizeof(l->info.component_name), "%s",
		 name);
	void (*get_version)(zel_component_version_t *);
	ldr_fn_t fn = ldr_dlsym_fn(dl, "zelLoaderGetVersion");
	memcpy(&get_version, &fn, sizeof(fn));
	if (get_version)
		get_version(&l->info);
	ldr.nlayers++;
}

void
ldr_layers_load(void)
{
	char path[4096];
	if (u_option_u64(U_OPT_ENABLE_VALIDATION_LAYER)) {
		last_error[0] = '\0';
		const char *named = u_option_str(U_OPT_VALIDATION_LAYER);
		void *dl;
		if (named && *named) {
			if (!ldr_library_path(named, path, sizeof(path)))
				snprintf(path, sizeof(path), "%s", named);
			dl = open_layer(path);
		} else {
			dl = open_zemem_layer(path, sizeof(path));
		}
		if (dl)
			add_layer("validation layer", path, dl);
		else
			u_warn("ldr", "ZE_ENABLE_VALIDATION_LAYER=1 but the "
			       "validation layer cannot be loaded (%s); "
			       "running without it", last_error);
	}
	const char *tracing = u_option_str(U_OPT_TRACING_LAYER);
	if (u_option_u64(U_OPT_ENABLE_TRACING_LAYER) && tracing && *tracing) {
		if (!ldr_library_path(tracing, path, sizeof(path)))
			snprintf(path, sizeof(path), "%s", tracing);
		last_error[0] = '\0';
		void *dl = open_layer(path);
		if (dl)
			add_layer("tracing layer", path, dl);
		else
			u_warn("ldr", "ZE_ENABLE_TRACING_LAYER=1 but no tracing "
			       "layer can be loaded (%s); running without it",
			       last_error);
	}
}

static void
chain_one(struct ldr_layer *l, ze_dditable_t *top)
{
	ze_dditable_t *next = malloc(sizeof(*next));
	if (!next) {
		u_err("ldr", "%s: out of memory; not chained", l->path);
		return;
	}
	*next = *top;
	ldr_fn_t global =
		ldr_dlsym_fn(l->dl, ldr_getter_name(LDR_TABLE_Global));
	ze_result_t r = global ? ldr_negotiate(global, next, top,
						 &l->version)
			       : ZE_RESULT_SUCCESS;
	if (!global)
		l->version = ZE_API_VERSION_CURRENT;
	if (r != ZE_RESULT_SUCCESS) {
		u_warn("ldr", "%s: %s returned %s; layer not chained", l->path,
		       ldr_getter_name(LDR_TABLE_Global), ldr_result_name(r));
		free(next);
		return;
	}
	for (unsigned t = 0; t < LDR_TABLE_COUNT; t++) {
		if (t == LDR_TABLE_Global)
			continue;
		ldr_fn_t fn = ldr_dlsym_fn(l->dl, ldr_getter_name(t));
		if (!fn)
			continue;
		r = ldr_call_getter(t, fn, l->version, next);
		if (r != ZE_RESULT_SUCCESS) {
			u_warn("ldr", "%s: %s returned %s; that table is not "
			       "layered", l->path, ldr_getter_name(t),
			       ldr_result_name(r));
			ldr_table_copy(t, next, top);
		}
	}
	*top = *next;
	free(next);
	u_dbg("ldr", "%s chained at version 1.%u", l->path,
	      ZE_MINOR_VERSION(l->version));
}

void
ldr_layers_chain(ze_dditable_t *top)
{
	for (uint32_t i = 0; i < ldr.nlayers; i++)
		chain_one(&ldr.layers[i], top);
}
