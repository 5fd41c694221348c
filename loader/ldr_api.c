// SPDX-License-Identifier: MIT
/*
 * ldr_api: the exported functions that are not plain entry points:
 * zeInit and zeInitDrivers (which run the first init and commit, then go
 * through ldr_top so layers see them), the zeGet*ProcAddrTable getters and
 * zelLoaderGetVersions. (zelLoaderTranslateHandle is in ldr_handle.c; every
 * other ze* function is generated into ldr_gen_entry.c.)
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
		pDdiTable->field = src->field;

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
