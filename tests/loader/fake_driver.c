// SPDX-License-Identifier: MIT
/*
 * fake_driver: a tiny Level Zero "driver" for the loader's failure and
 * version tests. One source, built several times:
 *   FAKE_INIT_FAILS         zeInit and zeInitDrivers fail with
 *                           ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE;
 *   FAKE_NO_CONTEXT_GETTER  zeGetContextProcAddrTable (required) is absent;
 *   FAKE_GETTER_FAILS       zeGetDeviceProcAddrTable returns
 *                           ZE_RESULT_ERROR_UNKNOWN;
 *   FAKE_MAX_MINOR=n        every getter refuses versions above 1.n.
 * It has one driver, one device and a few contexts; it exports only the
 * five getters it implements (every other table is optional for the
 * loader), and fills only the fields that exist at the version asked.
 * Memory: zeMemGetAllocProperties knows no pointer; zeMemGetPitchFor2dImage
 * (1.9) answers 4096.
 * Sysman: zesGetGlobalProcAddrTable (zesInit, 1.5: SUCCESS) and
 * zesGetDeviceProcAddrTable (zesDeviceGetProperties only: NOT_AVAILABLE,
 * and *(uint32_t *)props = the version its getter accepted), declared
 * here with generic types; the tables are their leading fields.
 */
#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>

#include <string.h>

#ifndef FAKE_MAX_MINOR
#define FAKE_MAX_MINOR 18
#endif
#define FAKE_VERSION ZE_MAKE_VERSION(1, FAKE_MAX_MINOR)
#define FAKE_CONTEXTS 8

struct _ze_driver_handle_t {
	int magic;
};
struct _ze_device_handle_t {
	int magic;
};
struct _ze_context_handle_t {
	int live;
};

static struct _ze_driver_handle_t fake_driver = { 0xfa4e };
static struct _ze_device_handle_t fake_device = { 0xfa4d };
static struct _ze_context_handle_t fake_contexts[FAKE_CONTEXTS];
static int initialized;

static int
version_ok(ze_api_version_t v)
{
	return ZE_MAJOR_VERSION(v) == 1 && (uint32_t)v <= FAKE_VERSION;
}

static int
has(ze_api_version_t v, unsigned minor)
{
	return (uint32_t)v >= (uint32_t)ZE_MAKE_VERSION(1, minor);
}

static ze_result_t ZE_APICALL
fake_init(ze_init_flags_t flags)
{
#ifdef FAKE_INIT_FAILS
	(void)flags;
	return ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE;
#else
	if (flags & ZE_INIT_FLAG_GPU_ONLY)
		return ZE_RESULT_ERROR_UNINITIALIZED;
	initialized = 1;
	return ZE_RESULT_SUCCESS;
#endif
}

static ze_result_t ZE_APICALL
fake_driver_get(uint32_t *pCount, ze_driver_handle_t *phDrivers)
{
	if (!initialized)
		return ZE_RESULT_ERROR_UNINITIALIZED;
	if (!pCount)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (phDrivers && *pCount)
		phDrivers[0] = &fake_driver;
	*pCount = 1;
	return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
fake_init_drivers(uint32_t *pCount, ze_driver_handle_t *phDrivers,
		  ze_init_driver_type_desc_t *desc)
{
	(void)desc;
	ze_result_t r = fake_init(0);
	return r ? r : fake_driver_get(pCount, phDrivers);
}

static ze_result_t ZE_APICALL
fake_api_version(ze_driver_handle_t h, ze_api_version_t *v)
{
	if (h != &fake_driver)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	*v = (ze_api_version_t)FAKE_VERSION;
	return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
fake_driver_props(ze_driver_handle_t h, ze_driver_properties_t *p)
{
	if (h != &fake_driver)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	memset(p->uuid.id, 0xfa, sizeof(p->uuid.id));
	p->driverVersion = 0xfa4e;
	return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL __attribute__((unused))
fake_device_get(ze_driver_handle_t h, uint32_t *pCount,
		ze_device_handle_t *phDevices)
{
	if (h != &fake_driver)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (phDevices && *pCount)
		phDevices[0] = &fake_device;
	*pCount = 1;
	return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL __attribute__((unused))
fake_context_create(ze_driver_handle_t h, const ze_context_desc_t *desc,
		    ze_context_handle_t *ph)
{
	(void)desc;
	if (h != &fake_driver)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	for (int i = 0; i < FAKE_CONTEXTS; i++) {
		if (!fake_contexts[i].live) {
			fake_contexts[i].live = 1;
			*ph = &fake_contexts[i];
			return ZE_RESULT_SUCCESS;
		}
	}
	return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
}

static ze_result_t ZE_APICALL __attribute__((unused))
fake_context_destroy(ze_context_handle_t h)
{
	if (h < fake_contexts || h >= fake_contexts + FAKE_CONTEXTS || !h->live)
		return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	h->live = 0;
	return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
fake_alloc_props(ze_context_handle_t h, const void *ptr,
		 ze_memory_allocation_properties_t *p, ze_device_handle_t *ph)
{
	(void)h;
	(void)ptr;
	p->type = ZE_MEMORY_TYPE_UNKNOWN;
	if (ph)
		*ph = NULL;
	return ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
fake_pitch(ze_context_handle_t h, ze_device_handle_t d, size_t w, size_t hh,
	   unsigned int elem, size_t *pitch)
{
	(void)h;
	(void)d;
	(void)w;
	(void)hh;
	(void)elem;
	*pitch = 4096;
	return ZE_RESULT_SUCCESS;
}

#define FAKE_CHECK(t)                                            \
	do {                                                     \
		if (!(t))                                        \
			return ZE_RESULT_ERROR_INVALID_NULL_POINTER; \
		if (!version_ok(version))                        \
			return ZE_RESULT_ERROR_UNSUPPORTED_VERSION; \
	} while (0)

ze_result_t ZE_APICALL
zeGetGlobalProcAddrTable(ze_api_version_t version, ze_global_dditable_t *t)
{
	FAKE_CHECK(t);
	t->pfnInit = fake_init;
	if (has(version, 10))
		t->pfnInitDrivers = fake_init_drivers;
	return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL
zeGetDriverProcAddrTable(ze_api_version_t version, ze_driver_dditable_t *t)
{
	FAKE_CHECK(t);
	t->pfnGet = fake_driver_get;
	t->pfnGetApiVersion = fake_api_version;
	t->pfnGetProperties = fake_driver_props;
	return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL
zeGetDeviceProcAddrTable(ze_api_version_t version, ze_device_dditable_t *t)
{
	FAKE_CHECK(t);
#ifdef FAKE_GETTER_FAILS
	return ZE_RESULT_ERROR_UNKNOWN;
#else
	t->pfnGet = fake_device_get;
	return ZE_RESULT_SUCCESS;
#endif
}

#ifndef FAKE_NO_CONTEXT_GETTER
ze_result_t ZE_APICALL
zeGetContextProcAddrTable(ze_api_version_t version, ze_context_dditable_t *t)
{
	FAKE_CHECK(t);
	t->pfnCreate = fake_context_create;
	t->pfnDestroy = fake_context_destroy;
	return ZE_RESULT_SUCCESS;
}
#endif

ze_result_t ZE_APICALL
zeGetMemProcAddrTable(ze_api_version_t version, ze_mem_dditable_t *t)
{
	FAKE_CHECK(t);
	t->pfnGetAllocProperties = fake_alloc_props;
	if (has(version, 9))
		t->pfnGetPitchFor2dImage = fake_pitch;
	return ZE_RESULT_SUCCESS;
}

/* The leading fields of zes_global_dditable_t / zes_device_dditable_t. */
struct fake_zes_global {
	ze_result_t(ZE_APICALL *pfnInit)(uint32_t flags);
};
struct fake_zes_device {
	ze_result_t(ZE_APICALL *pfnGetProperties)(void *dev, void *props);
	ze_result_t(ZE_APICALL *pfnGetState)(void *dev, void *state);
};

static ze_api_version_t zes_version;

static ze_result_t ZE_APICALL
fake_zes_init(uint32_t flags)
{
	return flags ? ZE_RESULT_ERROR_INVALID_ENUMERATION : ZE_RESULT_SUCCESS;
}

static ze_result_t ZE_APICALL
fake_zes_props(void *dev, void *props)
{
	(void)dev;
	if (props)
		*(uint32_t *)props = (uint32_t)zes_version;
	return ZE_RESULT_ERROR_NOT_AVAILABLE;
}

ZE_APIEXPORT ze_result_t ZE_APICALL
zesGetGlobalProcAddrTable(ze_api_version_t version, struct fake_zes_global *t);
ZE_APIEXPORT ze_result_t ZE_APICALL
zesGetDeviceProcAddrTable(ze_api_version_t version, struct fake_zes_device *t);

ze_result_t ZE_APICALL
zesGetGlobalProcAddrTable(ze_api_version_t version, struct fake_zes_global *t)
{
	FAKE_CHECK(t);
	if (has(version, 5))
		t->pfnInit = fake_zes_init;
	return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL
zesGetDeviceProcAddrTable(ze_api_version_t version, struct fake_zes_device *t)
{
	FAKE_CHECK(t);
	zes_version = version;
	t->pfnGetProperties = fake_zes_props;
	return ZE_RESULT_SUCCESS;
}
