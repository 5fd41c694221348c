// SPDX-License-Identifier: MIT
/*
 * ldr_ext: the Sysman (zes*), Tools (zet*) and runtime (zer*) entry points.
 *
 * Their list is loader/ze_ext_entries.list; gen_loader.py makes each one an
 * exported jump through its slot of ldr_ext_slots (ldr_gen_ext.c), so the
 * loader needs no prototype of them. A slot starts at its default:
 *   ze_result_t   UNINITIALIZED before zeInit, then UNSUPPORTED_FEATURE
 *                 (what Intel's loader answers when no driver has it);
 *   uint32_t      UINT32_MAX, handles NULL (zer), with the reason kept for
 *                 zerGetLastErrorDescription;
 *   zesInit       initialises the loader first (as Intel's does), then
 *                 UNINITIALIZED: no driver with Sysman.
 * At commit, with one driver, every getter of the driver's fills its slots
 * (version negotiated as for ze: the current version, then older ones
 * while it answers UNSUPPORTED_VERSION). With several drivers the slots
 * keep their defaults: those calls would carry the loader's wrapped
 * handles, which only the ze routers translate.
 *
 * The loader's own getters (zesGet*ProcAddrTable, ...) hand out the
 * exported entry points, only the fields that exist at the version asked.
 *
 * Locking: slots are written at commit under ldr.lock and at teardown,
 * read with LDR_SLOT by the jumps (a plain load).
 */
#include "ldr.h"

#include <string.h>

/* A driver's getter may know fields newer than the list: room for them. */
#define EXT_SLACK 64

static _Thread_local const char *zer_error = "";

ze_result_t ZE_APICALL
ldr_ext_none_r(void)
{
	return ldr_no_slot();
}

static void
zer_unsupported(void)
{
	zer_error = ldr_committed() && !atomic_load(&ldr.teardown)
		? "ERROR UNSUPPORTED FEATURE" : "ERROR UNINITIALIZED";
}

uint32_t ZE_APICALL
ldr_ext_none_u(void)
{
	zer_unsupported();
	return UINT32_MAX;
}

void *ZE_APICALL
ldr_ext_none_p(void)
{
	zer_unsupported();
	return NULL;
}

ze_result_t ZE_APICALL
ldr_ext_zer_last_error(const char **ppString)
{
	if (!ppString)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	*ppString = zer_error;
	return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL
ldr_ext_zes_init(uint32_t flags)
{
	ze_result_t r = ldr_prepare(0, NULL);
	if (r != ZE_RESULT_SUCCESS)
		return r;
	/* The commit may have bound the driver's own zesInit. */
	ldr_fn_t fn = LDR_SLOT(ldr_ext_slots[0]);
	if (fn != (ldr_fn_t)ldr_ext_zes_init)
		return ((ze_result_t(ZE_APICALL *)(uint32_t))fn)(flags);
	return ZE_RESULT_ERROR_UNINITIALIZED;
}

ze_result_t
ldr_ext_get_table(unsigned table, ze_api_version_t version, void *ddi)
{
	if (!ddi)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if (ZE_MAJOR_VERSION(version) != 1)
		return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
	const struct ldr_ext_table *t = &ldr_ext_tables[table];
	ldr_fn_t *out = ddi;
	for (unsigned i = 0; i < t->count; i++)
		if ((uint32_t)version >= ldr_ext_since[t->base + i])
			out[i] = ldr_ext_entries[t->base + i];
	return ZE_RESULT_SUCCESS;
}

typedef ze_result_t(ZE_APICALL *ext_getter_t)(ze_api_version_t, void *);

void
ldr_ext_bind(const struct ldr_driver *d)
{
	unsigned bound = 0;
	for (unsigned k = 0; k < LDR_EXT_TABLES; k++) {
		const struct ldr_ext_table *t = &ldr_ext_tables[k];
		ext_getter_t get = (ext_getter_t)ldr_dlsym_fn(d->dl, t->getter);
		if (!get)
			continue;
		ldr_fn_t buf[t->count + EXT_SLACK];
		ze_result_t r = ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
		uint32_t minor = ZE_MINOR_VERSION(ZE_API_VERSION_CURRENT);
		for (;; minor--) {
			memset(buf, 0, sizeof(buf));
			r = get((ze_api_version_t)ZE_MAKE_VERSION(1, minor),
				buf);
			if (r != ZE_RESULT_ERROR_UNSUPPORTED_VERSION || !minor)
				break;
		}
		if (r != ZE_RESULT_SUCCESS) {
			u_dbg("ldr", "%s: %s returned %s", d->path, t->getter,
			      ldr_result_name(r));
			continue;
		}
		for (unsigned i = 0; i < t->count; i++) {
			if (!buf[i])
				continue;
			LDR_SET_SLOT(ldr_ext_slots[t->base + i], buf[i]);
			bound++;
		}
		u_dbg("ldr", "%s: %s (1.%u)", d->path, t->getter, minor);
	}
	u_dbg("ldr", "%s: %u zes/zet/zer entry points from the driver",
	      d->path, bound);
}

void
ldr_ext_reset(void)
{
	for (unsigned i = 0; i < LDR_EXT_COUNT; i++)
		LDR_SET_SLOT(ldr_ext_slots[i], ldr_ext_defaults[i]);
}
