// SPDX-License-Identifier: MIT
/*
 * ldr_init: the first init and the commit, and the loader's own bottom
 * functions (zeInit, zeInitDrivers, and zeDriverGet with several drivers).
 *
 * The first zeInit / zeInitDrivers that succeeds for at least one driver
 * commits: every driver whose init failed in that call is unloaded, the mode
 * is fixed (one driver: ldr_top = its own tables; several: ldr_top = the
 * routers), the bottom functions are put in the Global table, and the layers
 * are chained on top. Then the call itself goes through ldr_top, so layers
 * see it. (The first call therefore reaches each driver's init twice;
 * drivers accept repeated inits, as the spec requires.)
 *
 * A driver dropped at commit stays dropped; later inits with other flags
 * only reach the drivers kept. Results when nothing initialises: no driver
 * loaded: ZE_RESULT_ERROR_UNINITIALIZED; otherwise the code every driver
 * returned if they agree, else ZE_RESULT_ERROR_UNINITIALIZED.
 *
 * zeInitDrivers on a driver older than 1.10 (no pfnInitDrivers) is done
 * with its zeInit (GPU flag only: GPU_ONLY, NPU only: VPU_ONLY, both: 0)
 * and zeDriverGet.
 *
 * Locking: ldr.lock around discovery and commit (see ldr.h).
 */
#include "ldr.h"

#include <dlfcn.h>
#include <errno.h>
#include <string.h>

struct ldr_state ldr = { .lock = PTHREAD_MUTEX_INITIALIZER };
ze_dditable_t ldr_top;

ze_result_t
ldr_no_slot(void)
{
	if (atomic_load(&ldr.teardown))
		return ZE_RESULT_ERROR_UNINITIALIZED;
	return ldr_committed() ? ZE_RESULT_ERROR_UNSUPPORTED_FEATURE
			       : ZE_RESULT_ERROR_UNINITIALIZED;
}

/* With several drivers, the loader object of driver i's handle h. */
static ze_driver_handle_t
wrap_driver(uint32_t i, ze_driver_handle_t h)
{
	if (!ldr.multi)
		return h;
	return ldr_obj_wrap(i, &ldr.drivers[i].ddi, LDR_KIND_DRIVER, h);
}

/* zeInitDrivers on one driver: its own, or zeInit + zeDriverGet. */
static ze_result_t
init_drivers_one(struct ldr_driver *d, uint32_t *pCount,
		 ze_driver_handle_t *ph, ze_init_driver_type_desc_t *desc)
{
	if (d->ddi.Global.pfnInitDrivers)
		return d->ddi.Global.pfnInitDrivers(pCount, ph, desc);
	ze_init_driver_type_flags_t types = desc->flags &
		(ZE_INIT_DRIVER_TYPE_FLAG_GPU | ZE_INIT_DRIVER_TYPE_FLAG_NPU);
	ze_init_flags_t flags = 0;
	if (!types || !d->ddi.Global.pfnInit || !d->ddi.Driver.pfnGet) {
		*pCount = 0;
		return ZE_RESULT_SUCCESS;
	}
	if (types == ZE_INIT_DRIVER_TYPE_FLAG_GPU)
		flags = ZE_INIT_FLAG_GPU_ONLY;
	else if (types == ZE_INIT_DRIVER_TYPE_FLAG_NPU)
		flags = ZE_INIT_FLAG_VPU_ONLY;
	ze_result_t r = d->ddi.Global.pfnInit(flags);
	if (r != ZE_RESULT_SUCCESS)
		return r;
	return d->ddi.Driver.pfnGet(pCount, ph);
}

/* Folds the failure r of one more driver into *agreed: the code all the
 * failed drivers returned, or UNINITIALIZED when they differ. */
static void
agree(ze_result_t *agreed, uint32_t *failed, ze_result_t r)
{
	if (!(*failed)++)
		*agreed = r;
	else if (*agreed != r)
		*agreed = ZE_RESULT_ERROR_UNINITIALIZED;
}

/* Tries init on every driver, as the first call asked (desc NULL:
 * zeInit(flags)); sets init_ok. Returns how many succeeded. */
static uint32_t
try_init(ze_init_flags_t flags, const ze_init_driver_type_desc_t *desc,
	 ze_result_t *agreed)
{
	uint32_t ok = 0, failed = 0;
	for (uint32_t i = 0; i < ldr.ndrivers; i++) {
		struct ldr_driver *d = &ldr.drivers[i];
		ze_result_t r;
		uint32_t n = 0;
		if (desc) {
			ze_init_driver_type_desc_t copy = *desc;
			r = init_drivers_one(d, &n, NULL, &copy);
			if (r == ZE_RESULT_SUCCESS && !n)
				r = ZE_RESULT_ERROR_UNINITIALIZED;
		} else {
			r = d->ddi.Global.pfnInit ? d->ddi.Global.pfnInit(flags)
						  : ZE_RESULT_ERROR_UNINITIALIZED;
		}
		d->init_ok = r == ZE_RESULT_SUCCESS;
		if (d->init_ok) {
			ok++;
			u_dbg("ldr", "%s: init succeeded", d->path);
			continue;
		}
		ldr_report(U_LOG_INFO, d->path, "%s returned %s",
			   desc ? "zeInitDrivers" : "zeInit",
			   ldr_result_name(r));
		agree(agreed, &failed, r);
	}
	return ok;
}

/* Keeps the drivers that initialised, builds ldr_top, chains layers. */
static int
commit(void)
{
	uint32_t kept = 0;
	for (uint32_t i = 0; i < ldr.ndrivers; i++) {
		if (!ldr.drivers[i].init_ok) {
			ldr_driver_unload(&ldr.drivers[i]);
			continue;
		}
		if (kept != i) {
			ldr.drivers[kept] = ldr.drivers[i];
			memset(&ldr.drivers[i], 0, sizeof(ldr.drivers[i]));
		}
		kept++;
	}
	ldr.ndrivers = kept;
	ldr_order_drivers();
	ldr.multi = kept > 1;
	if (ldr.multi) {
		int err = ldr_objects_init();
		if (err)
			return err;
		ldr_top = ldr_routes;
	} else {
		ldr_top = ldr.drivers[0].ddi;
	}
	ldr_top.Global.pfnInit = ldr_bottom_init;
	ldr_top.Global.pfnInitDrivers = ldr_bottom_init_drivers;
	for (uint32_t i = 0; i < ldr.ndrivers; i++) {
		struct ldr_driver *d = &ldr.drivers[i];
		ze_driver_handle_t h = NULL;
		uint32_t n = 1;
		if (d->ddi.Driver.pfnGet && d->ddi.Driver.pfnGetApiVersion &&
		    d->ddi.Driver.pfnGet(&n, &h) == ZE_RESULT_SUCCESS && h)
			d->ddi.Driver.pfnGetApiVersion(h, &d->api_version);
		u_info("ldr", "driver %u: %s (tables 1.%u, API %u.%u)", i,
		       d->path, ZE_MINOR_VERSION(d->version),
		       ZE_MAJOR_VERSION(d->api_version),
		       ZE_MINOR_VERSION(d->api_version));
	}
	ldr_layers_load();
	ldr_layers_chain(&ldr_top);
	if (!ldr.multi)
		ldr_ext_bind(&ldr.drivers[0]);
	else
		u_info("ldr", "several drivers: the zes, zet and zer entry "
		       "points answer UNSUPPORTED_FEATURE");
	ldr_trace_commit();
	u_dbg("ldr", "committed: %u driver(s), %s, %u layer(s)", ldr.ndrivers,
	      ldr.multi ? "handles wrapped and routed" : "direct", ldr.nlayers);
	atomic_store_explicit(&ldr.committed, true, memory_order_release);
	return 0;
}

ze_result_t
ldr_prepare(ze_init_flags_t flags, const ze_init_driver_type_desc_t *desc)
{
	ze_result_t res = ZE_RESULT_SUCCESS;
	if (ldr_committed())
		return res;
	if (atomic_load(&ldr.teardown))
		return ZE_RESULT_ERROR_UNINITIALIZED; /* never set up again */
	ldr_env_setup();
	pthread_mutex_lock(&ldr.lock);
	if (ldr_committed())
		goto out;
	if (!ldr.discovered) {
		ldr.discovered = true;
		int err = ldr_discover();
		if (err == -ENOENT)
			u_warn("ldr", "no Level Zero driver could be loaded: %s",
			       ldr.report);
		else if (!err && ldr.alt_list && ldr.report_len)
			u_warn("ldr", "ZE_ENABLE_ALT_DRIVERS: some drivers could "
			       "not be loaded: %s", ldr.report);
		else if (err)
			u_err("ldr", "driver discovery failed: %s",
			      strerror(-err));
		ldr.load_report_len = ldr.report_len;
	}
	res = ZE_RESULT_ERROR_UNINITIALIZED;
	if (!ldr.ndrivers)
		goto out;
	ldr.report_len = ldr.load_report_len; /* forget the last init try */
	ldr.report[ldr.report_len] = '\0';
	if (!try_init(flags, desc, &res)) {
		u_warn("ldr", "no Level Zero driver initialised: %s",
		       ldr.report);
		goto out;
	}
	int err = commit();
	res = err ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY : ZE_RESULT_SUCCESS;
	if (err)
		u_err("ldr", "cannot set up the loader: %s", strerror(-err));
out:
	pthread_mutex_unlock(&ldr.lock);
	return res;
}

ze_result_t ZE_APICALL
ldr_bottom_init(ze_init_flags_t flags)
{
	ze_result_t agreed = ZE_RESULT_ERROR_UNINITIALIZED;
	uint32_t failed = 0;
	for (uint32_t i = 0; i < ldr.ndrivers; i++) {
		ze_pfnInit_t init = ldr.drivers[i].ddi.Global.pfnInit;
		ze_result_t r = init ? init(flags)
				     : ZE_RESULT_ERROR_UNINITIALIZED;
		if (r != ZE_RESULT_SUCCESS)
			agree(&agreed, &failed, r);
	}
	return failed < ldr.ndrivers ? ZE_RESULT_SUCCESS : agreed;
}

/* Asks each driver for its handles with get(i, count, handles) and
 * concatenates them (wrapped with several drivers). */
static ze_result_t
concat(uint32_t *pCount, ze_driver_handle_t *phDrivers,
       ze_result_t (*get)(uint32_t i, uint32_t *n, ze_driver_handle_t *ph,
			  void *arg),
       void *arg)
{
	if (phDrivers && !*pCount)
		phDrivers = NULL; /* a count of 0 asks for the count */
	uint32_t total = 0, failed = 0, room = phDrivers ? *pCount : UINT32_MAX;
	ze_result_t first = ZE_RESULT_ERROR_UNINITIALIZED;
	for (uint32_t i = 0; i < ldr.ndrivers && total < room; i++) {
		uint32_t n = 0;
		ze_result_t r = get(i, &n, NULL, arg);
		if (r != ZE_RESULT_SUCCESS) {
			if (!failed++)
				first = r;
			continue;
		}
		if (phDrivers) {
			n = n < room - total ? n : room - total;
			r = get(i, &n, phDrivers + total, arg);
			if (r != ZE_RESULT_SUCCESS)
				continue;
			for (uint32_t k = 0; k < n; k++) {
				ze_driver_handle_t *h = &phDrivers[total + k];
				*h = wrap_driver(i, *h);
				if (!*h)
					return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
			}
		}
		total += n;
	}
	*pCount = total;
	return total ? ZE_RESULT_SUCCESS : first;
}

static ze_result_t
get_by_init_drivers(uint32_t i, uint32_t *n, ze_driver_handle_t *ph,
		    void *arg)
{
	return init_drivers_one(&ldr.drivers[i], n, ph, arg);
}

static ze_result_t
get_by_driver_get(uint32_t i, uint32_t *n, ze_driver_handle_t *ph, void *arg)
{
	(void)arg;
	ze_pfnDriverGet_t get = ldr.drivers[i].ddi.Driver.pfnGet;
	return get ? get(n, ph) : ZE_RESULT_ERROR_UNINITIALIZED;
}

ze_result_t ZE_APICALL
ldr_bottom_init_drivers(uint32_t *pCount, ze_driver_handle_t *phDrivers,
			ze_init_driver_type_desc_t *desc)
{
	if (!pCount || !desc)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	ze_result_t r = concat(pCount, phDrivers, get_by_init_drivers, desc);
	return *pCount ? ZE_RESULT_SUCCESS
		       : (r == ZE_RESULT_SUCCESS ? ZE_RESULT_ERROR_UNINITIALIZED
						 : r);
}

ze_result_t ZE_APICALL
ldr_bottom_driver_get(uint32_t *pCount, ze_driver_handle_t *phDrivers)
{
	if (!pCount)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	return concat(pCount, phDrivers, get_by_driver_get, NULL);
}

ze_result_t ZE_APICALL
ldr_route_get_extension_function_address(ze_driver_handle_t hDriver,
					 const char *name,
					 void **ppFunctionAddress)
{
	const struct ldr_obj *o = ldr_obj_get(hDriver, LDR_KIND_DRIVER);
	if (!o)
		return ldr_bad_handle(hDriver);
	ze_pfnDriverGetExtensionFunctionAddress_t get =
		o->ddi->Driver.pfnGetExtensionFunctionAddress;
	if (!get)
		return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
	if (!name || !ppFunctionAddress)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	ze_result_t r = get(o->real, name, ppFunctionAddress);
	if (r != ZE_RESULT_SUCCESS)
		return r;
	/* The driver's function would receive loader handles: hand out the
	 * loader's routed entry point instead, when there is one. */
	void *mine = ldr_export_lookup(name);
	*ppFunctionAddress = mine;
	if (mine)
		return ZE_RESULT_SUCCESS;
	u_warn("ldr", "%s: a driver extension the loader cannot route while "
	       "several drivers are loaded", name);
	return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
}
