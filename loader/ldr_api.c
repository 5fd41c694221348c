// SPDX-License-Identifier: MIT
/*
 * ldr_api: the exported functions that are not plain entry points:
 * zeInit and zeInitDrivers (which run the first init and commit, then go
 * through ldr_top so layers see them), the zeGet*ProcAddrTable getters and
 * zelLoaderGetVersions, zelGetLoaderVersion and the teardown services.
 * (zelLoaderTranslateHandle is in ldr_handle.c, tracing in ldr_trace.c,
 * the zes/zet/zer families in ldr_ext.c; every other ze* function is
 * generated into ldr_gen_entry.c.)
 *
 * Teardown: zelSetDriverTeardown, zelLoaderContextTeardown and the
 * library's destructor set ldr.teardown; the first two also empty every
 * slot, so the entry points answer UNINITIALIZED and no driver is called
 * again. The destructor leaves the slots (threads still running at exit
 * keep working) and runs the registered callbacks unless
 * zelSetDelayLoaderContextTeardown asked to wait for an explicit
 * zelLoaderContextTeardown.
 *
 * Getters: for layers and static loaders that call this library by table.
 * After commit they return the current top of chain (what the entry points
 * call); before, the loader's own entry points, which resolve through the
 * top at call time. Like any getter they write only the fields that exist
 * at the caller's version (ZE_*_DDI_FIELDS of zemem/ze_ddi_versions.h).
 *
 * Locking: none here (ldr_prepare takes ldr.lock).
 */
#include "ldr.h"

#include <stdio.h>
#include <string.h>

ze_result_t ZE_APICALL
zeInit(ze_init_flags_t flags)
{
	ze_result_t r = ldr_prepare(flags, NULL);
	if (r != ZE_RESULT_SUCCESS)
		return r;
	ze_pfnInit_t init = ldr_top.Global.pfnInit;
	return init ? init(flags) : ldr_no_slot();
}

ze_result_t ZE_APICALL
zeInitDrivers(uint32_t *pCount, ze_driver_handle_t *phDrivers,
	      ze_init_driver_type_desc_t *desc)
{
	if (!pCount || !desc)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	ze_result_t r = ldr_prepare(0, desc);
	if (r != ZE_RESULT_SUCCESS) {
		*pCount = 0;
		return r;
	}
	ze_pfnInitDrivers_t init = ldr_top.Global.pfnInitDrivers;
	return init ? init(pCount, phDrivers, desc) : ldr_no_slot();
}

static const ze_dditable_t *
getter_source(void)
{
	return ldr_committed() ? &ldr_top : &ldr_exports;
}

#define LDR_COPY_FIELD_(field, ma, mi)                                        \
	if ((uint32_t)version >= (uint32_t)ZE_MAKE_VERSION(ma, mi))            \
		pDdiTable->field = LDR_SLOT(src->field);

#define LDR_GETTER_(table, Getter, FIELDS)                                     \
	ze_result_t ZE_APICALL zeGet##Getter##ProcAddrTable(                   \
		ze_api_version_t version, ze_##table##_dditable_t *pDdiTable)  \
	{                                                                      \
		if (!pDdiTable)                                                \
			return ZE_RESULT_ERROR_INVALID_NULL_POINTER;           \
		if (ZE_MAJOR_VERSION(version) != 1)                            \
			return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;            \
		const ze_##table##_dditable_t *src = &getter_source()->Getter; \
		FIELDS(LDR_COPY_FIELD_)                                        \
		return ZE_RESULT_SUCCESS;                                      \
	}

ZE_DDI_TABLES(LDR_GETTER_)

static void
set_version(zel_component_version_t *v, const char *name, int major,
	    int minor, int patch)
{
	memset(v, 0, sizeof(*v));
	snprintf(v->component_name, sizeof(v->component_name), "%s", name);
	v->spec_version = ZE_API_VERSION_CURRENT;
	v->component_lib_version.major = major;
	v->component_lib_version.minor = minor;
	v->component_lib_version.patch = patch;
}

ze_result_t ZE_APICALL
zelLoaderGetVersions(size_t *num_elems, zel_component_version_t *versions)
{
	if (!num_elems)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	size_t n = 1 + (ldr_committed() ? ldr.nlayers : 0);
	if (!versions) {
		*num_elems = n;
		return ZE_RESULT_SUCCESS;
	}
	if (*num_elems < n)
		n = *num_elems;
	for (size_t i = 0; i < n; i++) {
		if (i == 0)
			set_version(&versions[0], "loader", LDR_VERSION_MAJOR,
				    LDR_VERSION_MINOR, LDR_VERSION_PATCH);
		else
			versions[i] = ldr.layers[i - 1].info;
	}
	*num_elems = n;
	return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL
zelGetLoaderVersion(zel_component_version_t *version)
{
	if (!version)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	set_version(version, "loader", LDR_VERSION_MAJOR, LDR_VERSION_MINOR,
		    LDR_VERSION_PATCH);
	return ZE_RESULT_SUCCESS;
}

#define TEARDOWN_MAX 64

static pthread_mutex_t teardown_lock = PTHREAD_MUTEX_INITIALIZER;
static zel_loader_teardown_callback_t teardown_cbs[TEARDOWN_MAX];
static uint32_t teardown_n;
static bool teardown_delayed, teardown_ran;

bool ZE_APICALL
zelCheckIsLoaderInTearDown(void)
{
	return atomic_load(&ldr.teardown);
}

/* Empties every slot: from now on the entry points answer UNINITIALIZED. */
static void
stop_calls(void)
{
	atomic_store(&ldr.teardown, true);
	ldr_trace_teardown();
}

ze_result_t ZE_APICALL
zelSetDriverTeardown(void)
{
	if (!ldr_committed())
		return ZE_RESULT_ERROR_UNINITIALIZED;
	stop_calls();
	u_dbg("ldr", "zelSetDriverTeardown: the entry points answer "
	      "UNINITIALIZED");
	return ZE_RESULT_SUCCESS;
}

static void
release_callback(uint32_t index)
{
	pthread_mutex_lock(&teardown_lock);
	if (index < teardown_n)
		teardown_cbs[index] = NULL;
	pthread_mutex_unlock(&teardown_lock);
}

ze_result_t ZE_APICALL
zelRegisterTeardownCallback(
	zel_loader_teardown_callback_t application_callback,
	zel_application_teardown_callback_t *loader_callback, uint32_t *index)
{
	if (!application_callback || !loader_callback || !index)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	ze_result_t r = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	pthread_mutex_lock(&teardown_lock);
	if (teardown_n < TEARDOWN_MAX && !teardown_ran) {
		*index = teardown_n;
		teardown_cbs[teardown_n++] = application_callback;
		*loader_callback = release_callback;
		r = ZE_RESULT_SUCCESS;
	} else if (teardown_ran) {
		r = ZE_RESULT_ERROR_UNINITIALIZED;
	}
	pthread_mutex_unlock(&teardown_lock);
	return r;
}

/* Runs each registered callback once, most recent first. */
static void
run_callbacks(void)
{
	pthread_mutex_lock(&teardown_lock);
	bool ran = teardown_ran;
	teardown_ran = true;
	pthread_mutex_unlock(&teardown_lock);
	if (ran)
		return;
	for (uint32_t i = teardown_n; i-- > 0;) {
		pthread_mutex_lock(&teardown_lock);
		zel_loader_teardown_callback_t cb = teardown_cbs[i];
		teardown_cbs[i] = NULL;
		pthread_mutex_unlock(&teardown_lock);
		if (cb)
			cb();
	}
}

void ZE_APICALL
zelLoaderContextTeardown(void)
{
	atomic_store(&ldr.teardown, true);
	run_callbacks();
	stop_calls();
}

void ZE_APICALL
zelSetDelayLoaderContextTeardown(void)
{
	pthread_mutex_lock(&teardown_lock);
	teardown_delayed = true;
	pthread_mutex_unlock(&teardown_lock);
}

__attribute__((destructor)) static void
ldr_fini(void)
{
	atomic_store(&ldr.teardown, true);
	pthread_mutex_lock(&teardown_lock);
	bool delayed = teardown_delayed;
	pthread_mutex_unlock(&teardown_lock);
	if (!delayed)
		run_callbacks();
}
