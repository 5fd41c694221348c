// SPDX-License-Identifier: MIT
/*
 * sh_init: the runtime's life cycle and its fatal paths.
 *
 * Init, in order (finalize undoes it in reverse):
 *   1. the Level Zero driver: ZE_ENABLE_ALT_DRIVERS is pointed at zemem's driver beside this library in the build tree
 *      (../driver/libze_zemem.so.1), else the one beside it (the Python
 *      wheel's package folder), else the installed one, when the
 *      program did not set it (as the tools do); zeInit, the first driver
 *      with a device, device (node rank mod count), a context;
 *   2. the bootstrap (sh_boot_open): rank, size;
 *   3. the heap (sh_heap_init): reservation, chunk 0, control block;
 *   4. the node-local transport (sh_tr_ipc_init): one all-gather of
 *      {host identity, pid, heap handle, ...}; PEs of the same identity
 *      are one node; each opens its node peers' heaps;
 *   4b. static data (sh_static.c): swapped onto a memfd first of all,
 *      before the bootstrap and the driver (and their threads) when the
 *      job may have more than one PE; after step 4, each PE maps its
 *      node peers' (sh_static_init);
 *   5. the network transport (sh_tr_ofi_init) when some PE is not
 *      node-local (or ZESHMEM_TRANSPORT=ofi makes every PE a node);
 *      the copy engine (sh_rma_init) when it may be used;
 *   6. the teams world and shared (sh_team_init); the reverse-offload
 *      proxy thread (sh_proxy_init, ZESHMEM_BACKEND=ro);
 *   7. a bootstrap barrier: every heap is open everywhere before any
 *      PE returns from init.
 * Every step's resources are released by finalize, so init/finalize
 * cycles leave no fd, mapping, thread or /dev/shm entry behind.
 *
 * The state lives in the one global `sh` (sh.h); it is written here and
 * by collective calls only.
 */
#include "sh_init.h"
#include "shmem.h"

#include "u_log.h"
#include "u_options.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#ifndef ZESHMEM_INSTALLED_DRIVER
#define ZESHMEM_INSTALLED_DRIVER "/usr/local/lib/libze_zemem.so.1"
#endif



void
sh_global_exit(int status)
{
	fflush(stdout);
	fflush(stderr);
	sh_tr_ofi_exit_cleanup(); /* _exit runs no atexit handler */
	if (sh.boot && sh.boot->ops && sh.boot->ops->abort_job)
		sh.boot->ops->abort_job(sh.boot, status);
	_exit(status);
}



/* ---- the driver -------------------------------------------------------- */

/* As tools/tool_common.c tool_default_driver, but beside this library
 * (dladdr) rather than beside the program. */
static void
default_driver(void)
{
	if (getenv("ZE_ENABLE_ALT_DRIVERS"))
		return;
	Dl_info info;
	char dir[PATH_MAX], real[PATH_MAX], path[PATH_MAX + 64];
	const char *found = NULL;
	if (dladdr((void *)default_driver, &info) && info.dli_fname) {
		snprintf(dir, sizeof(dir), "%s", info.dli_fname);
		char *slash = strrchr(dir, '/');
		if (slash) {
			*slash = '\0';
			snprintf(path, sizeof(path), "%s/../driver", dir);
			if (realpath(path, real) &&
			    snprintf(path, sizeof(path),
				     "%s/libze_zemem.so.1", real) <
				    (int)sizeof(path) &&
			    !access(path, R_OK))
				found = path;
			/* The Python wheel: the driver beside this library
			 * (both in the shmem package's folder). */
			if (!found &&
			    snprintf(path, sizeof(path),
				     "%s/libze_zemem.so.1", dir) <
				    (int)sizeof(path) &&
			    !access(path, R_OK))
				found = path;
		}
	}
	if (!found && !access(ZESHMEM_INSTALLED_DRIVER, R_OK))
		found = ZESHMEM_INSTALLED_DRIVER;
	if (found) {
		u_dbg("shmem", "driver: %s", found);
		setenv("ZE_ENABLE_ALT_DRIVERS", found, 1);
	}
}


static int
open_driver(int local_rank)
{
	default_driver();
	ze_result_t r = zeInit(0);
	if (r) {
		u_err("shmem", "zeInit: 0x%x (no Level Zero driver?)", r);
		return sh_ze_err(r);
	}
	uint32_t nd = 0;
	r = zeDriverGet(&nd, NULL);
	if (r || !nd) {
		u_err("shmem", "no Level Zero driver (zeDriverGet: 0x%x)", r);
		return -ENODEV;
	}
	ze_driver_handle_t drv[8];
	if (nd > 8)
		nd = 8;
	if ((r = zeDriverGet(&nd, drv)))
		return sh_ze_err(r);
	for (uint32_t i = 0; i < nd; i++) {
		uint32_t ndev = 0;
		if (zeDeviceGet(drv[i], &ndev, NULL) || !ndev)
			continue;
		ze_device_handle_t dev[64];
		if (ndev > 64)
			ndev = 64;
		if (zeDeviceGet(drv[i], &ndev, dev))
			continue;
		sh.zdrv = drv[i];
		sh.zdev = dev[(local_rank < 0 ? 0 : (unsigned)local_rank) % ndev];
		break;
	}
	if (!sh.zdev) {
		u_err("shmem", "no Level Zero device");
		return -ENODEV;
	}
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	if ((r = zeContextCreate(sh.zdrv, &cd, &sh.zctx))) {
		u_err("shmem", "zeContextCreate: 0x%x", r);
		return sh_ze_err(r);
	}
	return 0;
}

static void
close_driver(void)
{
	if (sh.zctx)
		zeContextDestroy(sh.zctx);
	sh.zctx = NULL;
	sh.zdev = NULL;
	sh.zdrv = NULL;
}

/* An OpenSHMEM switch (SHMEM_INFO, SHMEM_VERSION, SHMEM_DEBUG: "any
 * value"): on when set to anything but an explicit no. */
static bool
switch_on(enum u_opt_id id)
{
	const struct u_opt_value *v = u_option(id);
	if (!v->set)
		return false;
	static const char *const off[] = { "0", "no", "off", "false" };
	for (size_t i = 0; i < sizeof(off) / sizeof(off[0]); i++)
		if (!strcasecmp(v->s, off[i]))
			return false;
	return true;
}

/* SHMEM_VERSION and SHMEM_INFO, on PE 0 once the job is up. */
static void
announce(void)
{
	bool info = switch_on(U_OPT_SH_INFO);
	if (sh.me != 0 || !(info || switch_on(U_OPT_SH_VERSION)))
		return;
	fprintf(stderr, "%s: OpenSHMEM %d.%d, library %s, %d PEs\n",
		SHMEM_VENDOR_STRING, SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION,
		ZEMEM_VERSION_STRING, sh.npes);
	if (info)
		u_options_dump(stderr);
	fflush(stderr);
}

static int
read_options(void)
{
	/* SHMEM_DEBUG: the runtime's messages at debug level, unless
	 * ZEMEM_LOG_LEVEL says what it wants for them. */
	if (switch_on(U_OPT_SH_DEBUG) && !u_log_topic_named("shmem"))
		u_log_set_topic_level("shmem", U_LOG_DEBUG);
	const char *copy = u_option_str(U_OPT_SH_COPY);
	if (sh_req_copy >= SH_COPY_AUTO && sh_req_copy <= SH_COPY_ENGINE)
		sh.copy = (enum sh_copy_mode)sh_req_copy;
	else if (!strcmp(copy, "auto"))
		sh.copy = SH_COPY_AUTO;
	else if (!strcmp(copy, "direct"))
		sh.copy = SH_COPY_DIRECT;
	else if (!strcmp(copy, "engine"))
		sh.copy = SH_COPY_ENGINE;
	else {
		u_warn("shmem", "ZESHMEM_COPY=%s: use auto, direct or engine; "
				"using auto", copy);
		sh.copy = SH_COPY_AUTO;
	}
	const char *tr = u_option_str(U_OPT_SH_TRANSPORT);
	sh.transport = SH_TRANSPORT_AUTO;
	if (!strcmp(tr, "ipc"))
		sh.transport = SH_TRANSPORT_IPC;
	else if (!strcmp(tr, "ofi"))
		sh.transport = SH_TRANSPORT_OFI;
	else if (strcmp(tr, "auto"))
		u_warn("shmem", "ZESHMEM_TRANSPORT=%s: use auto, ipc or ofi; "
				"using auto", tr);
	if (u_option_u64(U_OPT_SH_FORCE_NETWORK))
		sh.transport = SH_TRANSPORT_OFI;
	sh.check_symmetry = u_option_u64(U_OPT_SH_CHECK_SYMMETRY) != 0;
	sh.timeout_s = (unsigned)u_option_u64(U_OPT_SH_TIMEOUT);
	return 0;
}

int
sh_init(const void *uid, int rank, int nranks, int thread_req,
	int *thread_got)
{
	if (sh.initialized) {
		/* A second init is a no-op (OpenSHMEM: idempotent). */
		if (thread_got)
			*thread_got = sh.thread_level;
		return 0;
	}
	int err;
	read_options();
	if ((err = sh_backend_select()))
		return err;
	/* Static data onto shared memory before anything else runs (the
	 * bootstrap's threads included). */
	sh_static_swap(uid, nranks);
	if ((err = sh_boot_open(uid, rank, nranks, &sh.boot))) {
		sh_static_fini();
		return err;
	}
	/* atomic: the bootstrap's reader thread runs already */
	__atomic_store_n(&sh.boot->before_exit, sh_tr_ofi_exit_cleanup,
			 __ATOMIC_RELEASE);
	sh.me = sh.boot->rank;
	sh.npes = sh.boot->nranks;
	if (sh.boot->timeout_s)
		sh.timeout_s = sh.boot->timeout_s;
	int lr = sh.boot->local_rank;
	if (lr < 0)
		lr = (int)u_option_u64(U_OPT_SH_LOCAL_RANK);
	if ((err = open_driver(lr)))
		goto err_boot;
	if ((err = sh_heap_init()))
		goto err_driver;
	if ((err = sh_tr_ipc_init()))
		goto err_heap;
	if ((err = sh_static_init()))
		goto err_ipc;
	if ((err = sh_tr_ofi_init()))
		goto err_static;
	if ((err = sh_rma_init()))
		goto err_ofi;
	if ((err = sh_team_init()))
		goto err_rma;
	if ((err = sh_proxy_init()))
		goto err_team;
	if ((err = sh.boot->ops->barrier(sh.boot)))
		goto err_proxy;
	sh.thread_level = thread_req < 0 ? 0 : thread_req > 3 ? 3 : thread_req;
	if (thread_got)
		*thread_got = sh.thread_level;
	sh.initialized = 1;
	u_info("shmem", "PE %d of %d up: heap %p + %zu, node %d (%d PEs)",
	       sh.me, sh.npes, (void *)sh_heap.base, sh_heap.size, sh.my_node,
	       sh.node_npes);
	announce();
	return 0;

err_proxy:
	sh_proxy_fini();
err_team:
	sh_team_fini();
err_rma:
	sh_ctx_fini_all();
	sh_rma_fini();
err_ofi:
	sh_tr_ofi_fini();
err_static:
	sh_static_fini();
err_ipc:
	sh_tr_ipc_fini();
err_heap:
	sh_heap_fini();
err_driver:
	close_driver();
err_boot:
	sh_static_fini();
	sh_boot_close(sh.boot);
	sh.boot = NULL;
	sh.me = -1;
	sh.npes = 0;
	return err;
}

int
sh_finalize(void)
{
	if (!sh.initialized)
		return 0;
	/* Nobody may still be using this PE's heap, nor this PE others':
	 * quiet (every context's), then a barrier over the world. */
	sh_ctx_quiet_all();
	int err = sh_barrier(sh_team_world);
	if (err)
		u_warn("shmem", "finalize: barrier: %s (continuing)",
		       strerror(-err));
	sh_proxy_fini();
	sh_team_fini();
	sh_reg_fini();
	sh_ctx_fini_all();
	sh_rma_fini();
	sh_tr_ofi_fini();
	sh_static_fini();
	sh_tr_ipc_fini();
	sh_heap_fini();
	close_driver();
	sh_boot_close(sh.boot);
	sh.boot = NULL;
	sh.initialized = 0;
	sh.me = -1;
	sh.npes = 0;
	return err;
}
