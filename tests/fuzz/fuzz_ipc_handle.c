// SPDX-License-Identifier: MIT
/*
 * fuzz_ipc_handle: libFuzzer target for the IPC handle decoder and the
 * whole zeMemOpenIpcHandle / zeMemPutIpcHandle path of the driver.
 *
 * Input: up to 64 bytes of handle (shorter inputs are zero-padded, i.e.
 * truncated handles). Each input goes to the decoder (compiled in), then
 * to open (and close, if it opened) and put through the driver loaded from
 * the build tree. The process keeps one live export so that mutations of
 * a real handle reach the deep checks; its handle is the first seed when
 * the corpus is empty.
 *
 * The transport is the broker (set before the driver reads its options):
 * a fuzzed pid never makes us pidfd_getfd some other process's fds.
 *
 * Built with clang -fsanitize=fuzzer where available; replay_main.c runs
 * the same function over the committed corpus as an ordinary test.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <level_zero/ze_ddi.h>

#include "ipc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static struct {
	ze_mem_dditable_t mem;
	ze_context_handle_t ctx;
	ze_device_handle_t dev;
	void *live;
	ze_ipc_mem_handle_t h;
} f;

static int
load(void)
{
	const char *path = getenv("ZEMEM_TEST_DRIVER");
	if (!path || !*path)
		path = ZEMEM_BUILD_DRIVER;
	void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!dl) {
		fprintf(stderr, "fuzz: %s\n", dlerror());
		return -1;
	}
	ze_global_dditable_t g;
	ze_driver_dditable_t d;
	ze_device_dditable_t dv;
	ze_context_dditable_t c;
#define GET(sym, t)                                                         \
	((ze_result_t(*)(ze_api_version_t, void *))dlsym(dl, sym))(         \
		ZE_API_VERSION_CURRENT, t)
	if (GET("zeGetGlobalProcAddrTable", &g) ||
	    GET("zeGetDriverProcAddrTable", &d) ||
	    GET("zeGetDeviceProcAddrTable", &dv) ||
	    GET("zeGetContextProcAddrTable", &c) ||
	    GET("zeGetMemProcAddrTable", &f.mem))
		return -1;
#undef GET
	ze_driver_handle_t drv;
	uint32_t one = 1;
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_device_mem_alloc_desc_t dd = {
		ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0 };
	if (g.pfnInit(0) || d.pfnGet(&one, &drv) ||
	    dv.pfnGet(drv, &one, &f.dev) || c.pfnCreate(drv, &cd, &f.ctx) ||
	    f.mem.pfnAllocDevice(f.ctx, &dd, 1 << 20, 0, f.dev, &f.live) ||
	    f.mem.pfnGetIpcHandle(f.ctx, f.live, &f.h))
		return -1;
	return 0;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("ZEMEM_IPC_TRANSPORT", "broker", 1);
	setenv("ZEMEM_IPC_TIMEOUT_MS", "50", 1);
	if (!getenv("ZEMEM_LOG_LEVEL"))
		setenv("ZEMEM_LOG_LEVEL", "error", 1);
	if (load()) {
		fprintf(stderr, "fuzz: cannot load the driver\n");
		exit(1);
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ze_ipc_mem_handle_t h;
	struct ipc_desc d;
	const char *why;
	memset(&h, 0, sizeof(h));
	memcpy(h.data, data, size < sizeof(h) ? size : sizeof(h));
	/* Inputs of exactly 1 byte mean "the live handle", so the fuzzer
	 * learns its shape; 2 bytes: it with one byte changed. */
	if (size == 1 || size == 2) {
		h = f.h;
		if (size == 2)
			h.data[data[0] % sizeof(h)] ^= (char)data[1];
	}
	if (!ipc_handle_decode(h.data, &d, &why) && !why) {
		/* Whatever decodes re-encodes to the same bytes after 0..3. */
		ze_ipc_mem_handle_t r;
		ipc_handle_encode(&d, r.data);
		if (memcmp(r.data + 4, h.data + 4, sizeof(h) - 4))
			abort();
	}
	void *p = NULL;
	if (!f.mem.pfnOpenIpcHandle(f.ctx, f.dev, h, 0, &p)) {
		volatile char c = *(volatile char *)p;
		(void)c;
		if (f.mem.pfnCloseIpcHandle(f.ctx, p))
			abort();
	} else if (p) {
		abort(); /* a failed open must leave *pptr NULL */
	}
	if (!f.mem.pfnPutIpcHandle(f.ctx, h) &&
	    f.mem.pfnGetIpcHandle(f.ctx, f.live, &f.h)) /* keep one live */
		abort();
	return 0;
}
