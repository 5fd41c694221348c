// SPDX-License-Identifier: MIT
/*
 * val_chain: puts zemem's validation layer over zemem's driver for tests,
 * the way a loader does, and gives tests one set of entry points (struct
 * vapi) whether the calls go through that hand-made chain or through a
 * loader library (zemem's or the system's).
 *
 * Vocabulary: the chain is the driver's tables (filled by its getters at
 * one version) handed to the layer's getters, which save them as "next"
 * and put their wrappers in; vapi is the entry points a test calls.
 *
 * The layer reads its switches once, when it is loaded: set them (setenv)
 * before vc_load*. check runs each test in a forked child, so each test
 * loads the layer afresh with its own switches.
 */
#ifndef ZEMEM_VAL_CHAIN_H
#define ZEMEM_VAL_CHAIN_H

#include <check.h>
#include <stdbool.h>
#include <level_zero/ze_api.h>
#include <level_zero/ze_ddi.h>
#include <stdbool.h>

/* The entry points tests use, as the application sees them. */
struct vapi {
	ze_pfnInit_t zeInit;
	ze_pfnDriverGet_t zeDriverGet;
	ze_pfnDeviceGet_t zeDeviceGet;
	ze_pfnDeviceGetProperties_t zeDeviceGetProperties;
	ze_pfnContextCreate_t zeContextCreate;
	ze_pfnContextDestroy_t zeContextDestroy;
	ze_pfnMemAllocHost_t zeMemAllocHost;
	ze_pfnMemAllocDevice_t zeMemAllocDevice;
	ze_pfnMemAllocShared_t zeMemAllocShared;
	ze_pfnMemFree_t zeMemFree;
	ze_pfnMemFreeExt_t zeMemFreeExt;
	ze_pfnMemGetAllocProperties_t zeMemGetAllocProperties;
	ze_pfnMemGetAddressRange_t zeMemGetAddressRange;
	ze_pfnMemGetIpcHandle_t zeMemGetIpcHandle;
	ze_pfnMemOpenIpcHandle_t zeMemOpenIpcHandle;
	ze_pfnMemCloseIpcHandle_t zeMemCloseIpcHandle;
	ze_pfnMemPutIpcHandle_t zeMemPutIpcHandle;
	ze_pfnVirtualMemReserve_t zeVirtualMemReserve;
	ze_pfnVirtualMemFree_t zeVirtualMemFree;
	ze_pfnVirtualMemQueryPageSize_t zeVirtualMemQueryPageSize;
	ze_pfnVirtualMemMap_t zeVirtualMemMap;
	ze_pfnVirtualMemUnmap_t zeVirtualMemUnmap;
	ze_pfnPhysicalMemCreate_t zePhysicalMemCreate;
	ze_pfnPhysicalMemDestroy_t zePhysicalMemDestroy;
	ze_pfnMemSetAtomicAccessAttributeExp_t zeMemSetAtomicAccessAttributeExp;
	ze_pfnMemGetAtomicAccessAttributeExp_t zeMemGetAtomicAccessAttributeExp;
	ze_pfnDriverGetProperties_t zeDriverGetProperties;
	ze_pfnDeviceGetMemoryProperties_t zeDeviceGetMemoryProperties;
	ze_pfnDeviceGetMemoryAccessProperties_t zeDeviceGetMemoryAccessProperties;
	ze_pfnDeviceGetCacheProperties_t zeDeviceGetCacheProperties;
};

struct vc {
	void *drv_dl, *layer_dl, *loader_dl;
	ze_dditable_t ddi;         /* the chain (hand-made) */
	ze_dditable_t drv_ddi;     /* the driver's own tables */
	struct vapi api;
	ze_driver_handle_t drv;
	ze_device_handle_t dev;
	ze_context_handle_t ctx;
};

/* Build-tree paths (compiled in), overridable by the environment:
 * $ZEMEM_TEST_DRIVER, $ZEMEM_TEST_LAYER, $ZEMEM_TEST_LOADER. */
const char *vc_driver_path(void);
const char *vc_layer_path(void);
const char *vc_loader_path(void);

/* Fill tables from `driver` at version; if hook is not NULL, call it on
 * the driver's tables (tests use it to plant a buggy "driver" function);
 * then, unless layer is NULL, chain the layer. 0 or -1 (message on
 * stderr). */
int vc_load_chain(struct vc *c, ze_api_version_t version, const char *layer,
		  void (*hook)(ze_dditable_t *t));
/* Use a loader library's exported entry points instead. */
int vc_load_loader(struct vc *c, const char *loader);
/* zeInit, first driver and device, a new context. 0 or a ze_result_t. */
int vc_open(struct vc *c);

/* In a test (forked child): switches (vt_switches), a fresh log, the chain
 * over the build tree's driver with counting shims under the layer, and
 * vc_open. Asserts with check. */
void vt_setup(struct vc *c, const char *switches);
/* Calls that reached the driver's zeMemAllocHost / zeMemFree through the
 * shims vt_setup plants (so a test can tell the layer stopped a call). */
extern _Atomic int vt_driver_allocs, vt_driver_frees;
/* Asserts that some finding line of the log contains every needle (NULL
 * terminated). */
void vt_assert_finding(const char *first, ...);
/* Asserts the log holds exactly n findings (prints it otherwise). */
void vt_assert_findings(int n);

/* Per-test log: sets ZEMEM_VALIDATION_LOG to a fresh file (returned). */
const char *vt_log_begin(void);
/* Contents of the log (malloc'ed, NUL-terminated; "" when empty). */
char *vt_log_read(void);
/* Number of findings (lines that start with "zemem-validation[") in text. */
int vt_count_findings(const char *text);
/* Set the layer's switches: "p" params, "l" lifetime, "k" leak checker,
 * "b" backtraces, "a" abort; the others are unset. */
void vt_switches(const char *which);

/* main() of a suite that needs a driver feature: available() (nonzero:
 * yes) runs in a child, so the probe does not load the driver here; exit
 * 77 (skipped) when it says no, else run the suite make() builds. */
int vt_run_if(int (*available)(void), Suite *(*make)(void));

#endif
