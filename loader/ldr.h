// SPDX-License-Identifier: MIT
/*
 * ldr: private header of zemem's loader (libze_loader.so.1).
 *
 * Vocabulary:
 *   candidate  a library path tried as a driver (ZE_ENABLE_ALT_DRIVERS, or
 *              the default list: Intel's names and zemem's own driver);
 *   driver     a candidate whose required getters succeeded: dlopen handle,
 *              the table version it accepted, its tables (ddi);
 *   commit     what the first successful zeInit / zeInitDrivers does once:
 *              drops the drivers whose init failed, picks the mode (one
 *              driver: direct; several: routed), builds ldr_top, chains the
 *              layers; nothing of it changes afterwards;
 *   top        ldr_top, the tables every exported entry point calls through:
 *              the driver's own tables (one driver) or the routers (several),
 *              each then handed to the layers, which put their own functions
 *              in front;
 *   bottom     the loader's own zeInit / zeInitDrivers (and zeDriverGet with
 *              several drivers), which sit under the layers;
 *   object     with several drivers, every handle the application sees is a
 *              loader object {magic, kind, driver index, real handle, driver
 *              tables} in a slot of one fixed reservation (ldr_handle.c), so
 *              a forged handle is recognised without being dereferenced.
 *
 * Locks: ldr.lock serialises discovery and commit. ldr_top, ldr.drivers and
 * ldr.layers are written under it before ldr.committed is set (release) and
 * only read afterwards, without a lock. ldr_handle.c's obj_lock protects the
 * object map and free list; finding an object from a handle takes no lock.
 * Order: ldr.lock -> obj_lock.
 *
 * Errors: internal functions return 0 or -errno; results that reach the
 * application are ze_result_t from the drivers or the loader's own checks.
 */
#ifndef ZEMEM_LDR_H
#define ZEMEM_LDR_H

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>
#include <zemem/ze_ddi_versions.h>
#include <zemem/zel_loader.h>

#include "ldr_gen.h"
#include "u_log.h"

#define LDR_HIDDEN __attribute__((visibility("hidden")))
#define LDR_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define LDR_MAX_CANDIDATES 32
#define LDR_MAX_LAYERS 2
#define LDR_REPORT_SIZE 4096
/* A slot of ldr_top / ldr_untraced / ldr_ext_slots, read while tracing may
 * swap it (ldr_trace.c): a plain load, race-free. */
#define LDR_SLOT(s) __atomic_load_n(&(s), __ATOMIC_RELAXED)
#define LDR_SET_SLOT(s, v) __atomic_store_n(&(s), (v), __ATOMIC_RELAXED)

/* One table per getter, in ZE_DDI_TABLES order. */
enum ldr_table {
#define LDR_TABLE_ENUM_(table, Getter, FIELDS) LDR_TABLE_##Getter,
	ZE_DDI_TABLES(LDR_TABLE_ENUM_)
#undef LDR_TABLE_ENUM_
	LDR_TABLE_COUNT,
};

typedef void (*ldr_fn_t)(void);

struct ldr_driver {
	char *path;
	void *dl;
	ze_api_version_t version;     /* the version its getters accepted */
	ze_api_version_t api_version; /* zeDriverGetApiVersion; 0: unknown */
	bool init_ok;                 /* init succeeded in the commit attempt */
	ze_dditable_t ddi;            /* NULL slot: unsupported */
};

struct ldr_layer {
	const char *name;             /* "validation layer", "tracing layer" */
	char *path;
	void *dl;
	ze_api_version_t version;
	zel_component_version_t info; /* from its zelLoaderGetVersion */
};

struct ldr_state {
	pthread_mutex_t lock;
	bool discovered;
	atomic_bool committed;
	atomic_bool teardown;         /* zelCheckIsLoaderInTearDown */
	bool alt_list;                /* drivers from ZE_ENABLE_ALT_DRIVERS */
	bool multi;                   /* several drivers: routed, wrapped */
	uint32_t ndrivers;
	struct ldr_driver *drivers;
	uint32_t nlayers;
	struct ldr_layer layers[LDR_MAX_LAYERS];
	size_t report_len;
	size_t load_report_len;       /* the part written by discovery */
	char report[LDR_REPORT_SIZE]; /* "path: why; ..." for the warn line */
};

extern struct ldr_state ldr LDR_HIDDEN;
extern ze_dditable_t ldr_top LDR_HIDDEN;

static inline bool
ldr_committed(void)
{
	return atomic_load_explicit(&ldr.committed, memory_order_acquire);
}

/* ldr_discover.c */
/* Name of a table's getter ("zeGetMemProcAddrTable"). */
const char *ldr_getter_name(unsigned table);
bool ldr_table_required(unsigned table);
/* Copies one table from src to dst; src NULL: empties it. */
void ldr_table_copy(unsigned table, ze_dditable_t *dst,
		    const ze_dditable_t *src);
/* dlsym of a function; NULL when absent. */
ldr_fn_t ldr_dlsym_fn(void *dl, const char *name);
/* Calls fn as table's getter, writing into t's member for that table. */
ze_result_t ldr_call_getter(unsigned table, ldr_fn_t fn, ze_api_version_t v,
			    ze_dditable_t *t);
/* Calls the Global getter with the current version, then older ones while
 * the library answers UNSUPPORTED_VERSION; *v gets the accepted one. Before
 * each try t->Global is reset from init (NULL: zeroed). */
ze_result_t ldr_negotiate(ldr_fn_t global, ze_dditable_t *t,
			  const ze_dditable_t *init, ze_api_version_t *v);
/* Records a failure of path for the warn line and logs it at level. */
void ldr_report(int level, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Tries every candidate; fills ldr.drivers. 0 or -errno (-ENOENT: none). */
int ldr_discover(void);
/* dlclose and forget a driver. */
void ldr_driver_unload(struct ldr_driver *d);

/* ldr_init.c */
/* First init: load, init, commit. SUCCESS, or why nothing is usable. */
ze_result_t ldr_prepare(ze_init_flags_t flags,
			const ze_init_driver_type_desc_t *desc);
/* The result of an empty top slot: UNINITIALIZED before commit, else
 * UNSUPPORTED_FEATURE. */
ze_result_t ldr_no_slot(void) __attribute__((cold));
ze_result_t ZE_APICALL ldr_bottom_init(ze_init_flags_t flags);
ze_result_t ZE_APICALL ldr_bottom_init_drivers(
	uint32_t *pCount, ze_driver_handle_t *phDrivers,
	ze_init_driver_type_desc_t *desc);
ze_result_t ZE_APICALL ldr_bottom_driver_get(uint32_t *pCount,
					     ze_driver_handle_t *phDrivers);
ze_result_t ZE_APICALL ldr_route_get_extension_function_address(
	ze_driver_handle_t hDriver, const char *name, void **ppFunctionAddress);

/* ldr_ext.c: the zes, zet and zer families (ldr_gen_ext.c). */
struct ldr_ext_table {
	const char *getter;           /* "zesGetDeviceProcAddrTable" */
	uint16_t base, count;         /* its slots in ldr_ext_slots */
};
extern const struct ldr_ext_table ldr_ext_tables[LDR_EXT_TABLES] LDR_HIDDEN;
extern const uint32_t ldr_ext_since[LDR_EXT_COUNT] LDR_HIDDEN;
extern const ldr_fn_t ldr_ext_defaults[LDR_EXT_COUNT] LDR_HIDDEN;
extern ldr_fn_t ldr_ext_slots[LDR_EXT_COUNT] LDR_HIDDEN;
extern const ldr_fn_t ldr_ext_entries[LDR_EXT_COUNT] LDR_HIDDEN;
ze_result_t ldr_ext_get_table(unsigned table, ze_api_version_t version,
			      void *ddi);
/* Fills the slots from the single driver's getters (commit, ldr.lock). */
void ldr_ext_bind(const struct ldr_driver *d);
/* Every slot back to its default (teardown). */
void ldr_ext_reset(void);
ze_result_t ZE_APICALL ldr_ext_none_r(void);
uint32_t ZE_APICALL ldr_ext_none_u(void);
void *ZE_APICALL ldr_ext_none_p(void);
ze_result_t ZE_APICALL ldr_ext_zes_init(uint32_t flags);
ze_result_t ZE_APICALL ldr_ext_zer_last_error(const char **ppString);

/* ldr_trace.c: tracers (ldr_gen_trace.c has the traced functions). */
#define LDR_MAX_TRACERS 16
#define LDR_TRACE_SLOTS (LDR_ENTRY_COUNT + LDR_ZER_TRACED)
struct ldr_trace_frame {
	uint32_t n;
	uint8_t idx[LDR_MAX_TRACERS]; /* tracers whose prologue phase ran */
	void *inst[LDR_MAX_TRACERS];  /* their instance data */
};
extern ze_dditable_t ldr_untraced LDR_HIDDEN;
extern const ze_dditable_t ldr_traced LDR_HIDDEN;
extern const uint16_t ldr_cb_entry[LDR_CB_COUNT] LDR_HIDDEN;
extern atomic_uint ldr_trace_live LDR_HIDDEN; /* enabled tracers */
void ldr_trace_enter_slow(struct ldr_trace_frame *f, unsigned idx,
			  void *params);
void ldr_trace_exit_slow(struct ldr_trace_frame *f, unsigned idx,
			 void *params, ze_result_t r);
static inline void
ldr_trace_enter(struct ldr_trace_frame *f, unsigned idx, void *params)
{
	f->n = 0;
	if (atomic_load_explicit(&ldr_trace_live, memory_order_relaxed))
		ldr_trace_enter_slow(f, idx, params);
}
static inline void
ldr_trace_exit(struct ldr_trace_frame *f, unsigned idx, void *params,
	       ze_result_t r)
{
	if (f->n)
		ldr_trace_exit_slow(f, idx, params, r);
}
/* The zer calls (ldr_gen_trace.c): their callbacks take the call's own
 * result type, so each call gives the function that invokes one callback
 * (result points to a value of that type). */
typedef void (*ldr_trace_call_t)(ldr_fn_t cb, void *params,
				 const void *result, void *user,
				 void **instance);
void ldr_trace_enter_any(struct ldr_trace_frame *f, unsigned idx,
			 void *params, const void *result,
			 ldr_trace_call_t call);
void ldr_trace_exit_any(struct ldr_trace_frame *f, unsigned idx,
			void *params, const void *result,
			ldr_trace_call_t call);
extern const uint16_t ldr_zer_slot[LDR_ZER_TRACED] LDR_HIDDEN; /* ext slot */
extern const ldr_fn_t ldr_zer_traced[LDR_ZER_TRACED] LDR_HIDDEN;
extern ldr_fn_t ldr_zer_untraced[LDR_ZER_TRACED] LDR_HIDDEN;
struct _zel_tracer_handle_t;
ze_result_t ldr_tracer_register(struct _zel_tracer_handle_t *h, int type,
				unsigned idx, ldr_fn_t fn);
/* At commit (ldr.lock held): remembers the untraced top and installs the
 * traced functions when tracing is on. */
void ldr_trace_commit(void);
/* Teardown: every slot of ldr_top emptied (entry points answer
 * UNINITIALIZED). */
void ldr_trace_teardown(void);

/* ldr_env.c: Intel's loader environment (ZEL_*). */
/* Maps the ZEL_* logging options onto u_log, once. */
void ldr_env_setup(void);
/* Reorders ldr.drivers as ZEL_DRIVERS_ORDER asks (commit, ldr.lock). */
void ldr_order_drivers(void);
/* ZEL_LIBRARY_PATH/name in path when that file exists (name without '/'). */
bool ldr_library_path(const char *name, char *path, size_t len);

/* ldr_layer.c */
/* Loads the layers the options ask for (missing ones: a warning). */
void ldr_layers_load(void);
/* Hands each table of top to every loaded layer, in order. */
void ldr_layers_chain(ze_dditable_t *top);

/* ldr_handle.c: loader objects (several drivers only). */
#define LDR_OBJ_MAGIC 0x5a4c4f42u /* "ZLOB" */
#define LDR_MAX_OBJECTS (1u << 20)
#define LDR_ARRAY_STACK 16

/* Every field is atomic: the map is also read without obj_lock (ldr_handle.c
 * explains the sequence counter), and plain reads of atomics are plain loads
 * on x86-64 and arm64. */
struct ldr_obj {
	_Atomic uint32_t magic;       /* LDR_OBJ_MAGIC while live */
	_Atomic uint32_t seq;         /* odd while the slot changes */
	_Atomic uint16_t kind;        /* enum ldr_kind */
	_Atomic uint16_t drv;         /* index in ldr.drivers */
	_Atomic uint32_t next;        /* map chain or free list: slot + 1 */
	void *_Atomic real;           /* the driver's handle */
	const ze_dditable_t *_Atomic ddi; /* the driver's tables */
};

extern struct ldr_obj *ldr_objs LDR_HIDDEN;

/* The live object of that kind at h, or NULL (NULL, forged, stale, other
 * kind). Never dereferences h unless it is a slot of the reservation. */
static inline const struct ldr_obj *
ldr_obj_get(const void *h, unsigned kind)
{
	uintptr_t off = (uintptr_t)h - (uintptr_t)ldr_objs;
	if (LDR_UNLIKELY(off >= (uintptr_t)LDR_MAX_OBJECTS *
				       sizeof(struct ldr_obj) ||
			 off % sizeof(struct ldr_obj)))
		return NULL;
	const struct ldr_obj *o = h;
	if (LDR_UNLIKELY(atomic_load_explicit(&o->magic,
					      memory_order_relaxed) !=
				 LDR_OBJ_MAGIC ||
			 o->kind != kind))
		return NULL;
	return o;
}

/* Like ldr_obj_get, and of the same driver as o. */
static inline const struct ldr_obj *
ldr_obj_peer(const struct ldr_obj *o, const void *h, unsigned kind)
{
	const struct ldr_obj *p = ldr_obj_get(h, kind);
	return p && p->drv == o->drv ? p : NULL;
}

int ldr_objects_init(void);
/* INVALID_NULL_HANDLE for NULL, else INVALID_ARGUMENT (logged at debug). */
ze_result_t ldr_bad_handle(const void *h) __attribute__((cold));
/* The object of (driver, kind, real), made on first sight; NULL: no room. */
void *ldr_obj_wrap(uint32_t drv, const ze_dditable_t *ddi, unsigned kind,
		   void *real);
static inline void *
ldr_wrap(const struct ldr_obj *o, unsigned kind, void *real)
{
	return ldr_obj_wrap(o->drv, o->ddi, kind, real);
}
/* Wraps *ph in place; returns r, or OUT_OF_HOST_MEMORY (and *ph = NULL). */
ze_result_t ldr_wrap_out(const struct ldr_obj *o, unsigned kind, void **ph,
			 ze_result_t r);
ze_result_t ldr_wrap_array(const struct ldr_obj *o, unsigned kind, uint32_t n,
			   void **arr, ze_result_t r);
/* Real handles of in[0..n) (all of o's driver) in buf or a heap array;
 * *out = NULL when in is NULL or n is 0. */
ze_result_t ldr_unwrap_array(const struct ldr_obj *o, unsigned kind,
			     uint32_t n, void *const *in, void **buf,
			     void ***out);
static inline void
ldr_array_free(void **arr, void **buf)
{
	if (arr && arr != buf)
		free(arr);
}
/* Forgets a destroyed object (NULL: nothing). */
void ldr_obj_release(const struct ldr_obj *o);

#endif
