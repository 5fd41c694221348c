// SPDX-License-Identifier: MIT
/*
 * ldr_trace: the loader's tracing (zelEnableTracingLayer and the zelTracer*
 * API of level_zero/layers/zel_tracing_api.h).
 *
 * Off (the default), nothing of it is on the call path: the entry points
 * call ldr_top as always. On, every non-empty slot of ldr_top is swapped
 * for the generated traced function of that entry point (ldr_traced, in
 * ldr_gen_trace.c), which runs the prologues of the enabled tracers, calls
 * the slot's previous value (kept in ldr_untraced: the driver or the top
 * layer) and runs the epilogues with the result. Off again: the slots get
 * their previous values back. The zer calls are traced the same way
 * through their slots of ldr_ext_slots (ldr_zer_traced, ldr_zer_untraced).
 * Tracing turned on before zeInit takes effect
 * at the commit; ZE_ENABLE_TRACING_LAYER=1 turns it on there too (unless
 * ZEMEM_TRACING_LAYER names a tracing layer library to insert instead).
 *
 * Tracers live in a fixed pool and are never freed, so a call that read a
 * tracer just destroyed still reads valid memory (it may run one last
 * callback). A handle is checked against the pool before use.
 *
 * Locking: trace_lock serialises enable/disable, create/destroy and the
 * swap of slots; callbacks are read and written with relaxed atomics, as
 * are the slots (LDR_SLOT).
 */
#include "ldr.h"

#include <string.h>

#include <zemem/zel_tracing.h>

#include "u_options.h"

#define TRACER_MAGIC 0x5a54524bu /* "ZTRK" */
#define SLOTS (sizeof(ze_dditable_t) / sizeof(ldr_fn_t))

typedef void(ZE_APICALL *cb_t)(void *params, ze_result_t result,
			       void *user, void **instance);

struct _zel_tracer_handle_t {
	_Atomic uint32_t magic;
	atomic_bool enabled;
	void *user;
	cb_t pro[LDR_TRACE_SLOTS];
	cb_t epi[LDR_TRACE_SLOTS];
};

_Static_assert(sizeof(ze_dditable_t) % sizeof(ldr_fn_t) == 0,
	       "DDI tables hold function pointers only");

static struct _zel_tracer_handle_t tracers[LDR_MAX_TRACERS];
static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_uint tracer_end;  /* 1 + highest pool slot ever used */
static unsigned layer_refs;     /* enables not yet disabled */
static bool installed;          /* ldr_top holds the traced functions */
ze_dditable_t ldr_untraced;
ldr_fn_t ldr_zer_untraced[LDR_ZER_TRACED]; /* the zer slots untraced */
atomic_uint ldr_trace_live;     /* enabled tracers */

/* The enabled tracers' prologues of slot idx, each through call, each
 * tracer noted in f for its epilogue. */
static void
enter_walk(struct ldr_trace_frame *f, unsigned idx, void *params,
	   const void *result, ldr_trace_call_t call)
{
	unsigned end = atomic_load_explicit(&tracer_end, memory_order_acquire);
	for (unsigned i = 0; i < end; i++) {
		struct _zel_tracer_handle_t *t = &tracers[i];
		if (atomic_load_explicit(&t->magic, memory_order_acquire) !=
			    TRACER_MAGIC ||
		    !atomic_load_explicit(&t->enabled, memory_order_relaxed))
			continue;
		f->idx[f->n] = (uint8_t)i;
		f->inst[f->n] = NULL;
		cb_t cb = LDR_SLOT(t->pro[idx]);
		if (cb)
			call((ldr_fn_t)cb, params, result, t->user,
			     &f->inst[f->n]);
		f->n++;
	}
}

/* The core API's callbacks: the result is a ze_result_t. */
static void
call_ze(ldr_fn_t cb, void *params, const void *result, void *user,
	void **instance)
{
	((cb_t)cb)(params, *(const ze_result_t *)result, user, instance);
}

void
ldr_trace_enter_slow(struct ldr_trace_frame *f, unsigned idx, void *params)
{
	static const ze_result_t ok = ZE_RESULT_SUCCESS;
	enter_walk(f, idx, params, &ok, call_ze);
}

void
ldr_trace_exit_slow(struct ldr_trace_frame *f, unsigned idx, void *params,
		    ze_result_t r)
{
	ldr_trace_exit_any(f, idx, params, &r, call_ze);
}

void
ldr_trace_enter_any(struct ldr_trace_frame *f, unsigned idx, void *params,
		    const void *result, ldr_trace_call_t call)
{
	f->n = 0;
	if (atomic_load_explicit(&ldr_trace_live, memory_order_relaxed))
		enter_walk(f, idx, params, result, call);
}

void
ldr_trace_exit_any(struct ldr_trace_frame *f, unsigned idx, void *params,
		   const void *result, ldr_trace_call_t call)
{
	for (unsigned k = 0; k < f->n; k++) {
		struct _zel_tracer_handle_t *t = &tracers[f->idx[k]];
		cb_t cb = LDR_SLOT(t->epi[idx]);
		if (cb)
			call((ldr_fn_t)cb, params, result, t->user,
			     &f->inst[k]);
	}
}

/* The live tracer at h, or NULL. */
static struct _zel_tracer_handle_t *
tracer_get(zel_tracer_handle_t h)
{
	uintptr_t off = (uintptr_t)h - (uintptr_t)tracers;
	if (off >= sizeof(tracers) || off % sizeof(tracers[0]))
		return NULL;
	if (atomic_load(&h->magic) != TRACER_MAGIC)
		return NULL;
	return h;
}

static ze_result_t
bad_tracer(zel_tracer_handle_t h)
{
	return h ? ZE_RESULT_ERROR_INVALID_ARGUMENT
		 : ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
}

ze_result_t
ldr_tracer_register(struct _zel_tracer_handle_t *h, int type, unsigned idx,
		    ldr_fn_t fn)
{
	struct _zel_tracer_handle_t *t = tracer_get(h);
	if (!t)
		return bad_tracer(h);
	if (type == ZEL_REGISTER_PROLOGUE)
		LDR_SET_SLOT(t->pro[idx], (cb_t)fn);
	else if (type == ZEL_REGISTER_EPILOGUE)
		LDR_SET_SLOT(t->epi[idx], (cb_t)fn);
	else
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL
zelTracerCreate(const zel_tracer_desc_t *desc, zel_tracer_handle_t *phTracer)
{
	if (!desc || !phTracer)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (desc->stype != ZEL_STRUCTURE_TYPE_TRACER_DESC)
		return ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION;
	ze_result_t r = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	pthread_mutex_lock(&trace_lock);
	for (unsigned i = 0; i < LDR_MAX_TRACERS; i++) {
		struct _zel_tracer_handle_t *t = &tracers[i];
		if (atomic_load(&t->magic) == TRACER_MAGIC)
			continue;
		atomic_store(&t->enabled, false);
		t->user = desc->pUserData;
		for (unsigned k = 0; k < LDR_TRACE_SLOTS; k++) {
			LDR_SET_SLOT(t->pro[k], NULL);
			LDR_SET_SLOT(t->epi[k], NULL);
		}
		atomic_store_explicit(&t->magic, TRACER_MAGIC,
				      memory_order_release);
		if (atomic_load(&tracer_end) <= i)
			atomic_store(&tracer_end, i + 1);
		*phTracer = t;
		r = ZE_RESULT_SUCCESS;
		break;
	}
	pthread_mutex_unlock(&trace_lock);
	if (r != ZE_RESULT_SUCCESS)
		u_warn("ldr", "zelTracerCreate: all %d tracers in use",
		       LDR_MAX_TRACERS);
	return r;
}

ze_result_t ZE_APICALL
zelTracerDestroy(zel_tracer_handle_t hTracer)
{
	pthread_mutex_lock(&trace_lock);
	struct _zel_tracer_handle_t *t = tracer_get(hTracer);
	if (t) {
		if (atomic_exchange(&t->enabled, false))
			atomic_fetch_sub(&ldr_trace_live, 1);
		atomic_store(&t->magic, 0);
	}
	pthread_mutex_unlock(&trace_lock);
	return t ? ZE_RESULT_SUCCESS : bad_tracer(hTracer);
}

static ze_result_t
set_callbacks(zel_tracer_handle_t h, const zel_core_callbacks_t *cbs,
	      bool epilogues)
{
	struct _zel_tracer_handle_t *t = tracer_get(h);
	if (!t)
		return bad_tracer(h);
	if (!cbs)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	_Static_assert(sizeof(*cbs) == LDR_CB_COUNT * sizeof(ldr_fn_t),
		       "ze_callbacks_t is a flat list of callbacks");
	ldr_fn_t flat[LDR_CB_COUNT];
	memcpy(flat, cbs, sizeof(flat));
	for (unsigned i = 0; i < LDR_CB_COUNT; i++) {
		cb_t *slot = epilogues ? &t->epi[ldr_cb_entry[i]]
				       : &t->pro[ldr_cb_entry[i]];
		LDR_SET_SLOT(*slot, (cb_t)flat[i]);
	}
	return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL
zelTracerSetPrologues(zel_tracer_handle_t hTracer,
		      zel_core_callbacks_t *pCoreCbs)
{
	return set_callbacks(hTracer, pCoreCbs, false);
}

ze_result_t ZE_APICALL
zelTracerSetEpilogues(zel_tracer_handle_t hTracer,
		      zel_core_callbacks_t *pCoreCbs)
{
	return set_callbacks(hTracer, pCoreCbs, true);
}

ze_result_t ZE_APICALL
zelTracerResetAllCallbacks(zel_tracer_handle_t hTracer)
{
	struct _zel_tracer_handle_t *t = tracer_get(hTracer);
	if (!t)
		return bad_tracer(hTracer);
	for (unsigned k = 0; k < LDR_TRACE_SLOTS; k++) {
		LDR_SET_SLOT(t->pro[k], NULL);
		LDR_SET_SLOT(t->epi[k], NULL);
	}
	return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL
zelTracerSetEnabled(zel_tracer_handle_t hTracer, ze_bool_t enable)
{
	pthread_mutex_lock(&trace_lock);
	struct _zel_tracer_handle_t *t = tracer_get(hTracer);
	if (t && atomic_exchange(&t->enabled, enable != 0) != (enable != 0)) {
		if (enable)
			atomic_fetch_add(&ldr_trace_live, 1);
		else
			atomic_fetch_sub(&ldr_trace_live, 1);
	}
	pthread_mutex_unlock(&trace_lock);
	return t ? ZE_RESULT_SUCCESS : bad_tracer(hTracer);
}

/* Puts the traced functions in ldr_top (on) or the previous values back
 * (off). trace_lock held; after the commit only. */
static void
swap_slots(bool on)
{
	ldr_fn_t *top = (ldr_fn_t *)&ldr_top;
	const ldr_fn_t *traced = (const ldr_fn_t *)&ldr_traced;
	ldr_fn_t *prev = (ldr_fn_t *)&ldr_untraced;
	for (size_t i = 0; i < SLOTS; i++) {
		ldr_fn_t p = LDR_SLOT(prev[i]);
		if (p)
			LDR_SET_SLOT(top[i], on ? traced[i] : p);
	}
	for (unsigned i = 0; i < LDR_ZER_TRACED; i++)
		LDR_SET_SLOT(ldr_ext_slots[ldr_zer_slot[i]],
			     on ? ldr_zer_traced[i]
				: LDR_SLOT(ldr_zer_untraced[i]));
	installed = on;
	u_dbg("ldr", "tracing %s", on ? "on" : "off");
}

void
ldr_trace_commit(void)
{
	pthread_mutex_lock(&trace_lock);
	ldr_fn_t *top = (ldr_fn_t *)&ldr_top;
	ldr_fn_t *prev = (ldr_fn_t *)&ldr_untraced;
	for (size_t i = 0; i < SLOTS; i++)
		LDR_SET_SLOT(prev[i], LDR_SLOT(top[i]));
	for (unsigned i = 0; i < LDR_ZER_TRACED; i++)
		LDR_SET_SLOT(ldr_zer_untraced[i],
			     LDR_SLOT(ldr_ext_slots[ldr_zer_slot[i]]));
	const char *layer = u_option_str(U_OPT_TRACING_LAYER);
	if (u_option_u64(U_OPT_ENABLE_TRACING_LAYER) && !(layer && *layer))
		layer_refs++;
	if (layer_refs)
		swap_slots(true);
	pthread_mutex_unlock(&trace_lock);
}

void
ldr_trace_teardown(void)
{
	pthread_mutex_lock(&trace_lock);
	ldr_fn_t *top = (ldr_fn_t *)&ldr_top;
	ldr_fn_t *prev = (ldr_fn_t *)&ldr_untraced;
	for (size_t i = 0; i < SLOTS; i++) {
		LDR_SET_SLOT(top[i], NULL);
		LDR_SET_SLOT(prev[i], NULL);
	}
	ldr_ext_reset();
	for (unsigned i = 0; i < LDR_ZER_TRACED; i++)
		LDR_SET_SLOT(ldr_zer_untraced[i],
			     ldr_ext_defaults[ldr_zer_slot[i]]);
	installed = false;
	pthread_mutex_unlock(&trace_lock);
}

ze_result_t ZE_APICALL
zelEnableTracingLayer(void)
{
	if (atomic_load(&ldr.teardown))
		return ZE_RESULT_ERROR_UNINITIALIZED;
	pthread_mutex_lock(&trace_lock);
	if (!layer_refs++ && ldr_committed() && !installed)
		swap_slots(true);
	pthread_mutex_unlock(&trace_lock);
	return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL
zelDisableTracingLayer(void)
{
	if (atomic_load(&ldr.teardown))
		return ZE_RESULT_ERROR_UNINITIALIZED;
	pthread_mutex_lock(&trace_lock);
	if (layer_refs && !--layer_refs && installed)
		swap_slots(false);
	pthread_mutex_unlock(&trace_lock);
	return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL
zelGetTracingLayerState(bool *enabled)
{
	if (!enabled)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	pthread_mutex_lock(&trace_lock);
	*enabled = layer_refs > 0;
	pthread_mutex_unlock(&trace_lock);
	return ZE_RESULT_SUCCESS;
}
