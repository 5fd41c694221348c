// SPDX-License-Identifier: MIT
/*
 * val_child: a small Level Zero program the validation tests run as a
 * separate process, with the layer's switches in its environment:
 *
 *   val_child <how> <scenario> [argument]
 *
 * how:      "chain"            the layer over the driver, chained by hand
 *           "loader:<path>"    a loader library (zemem's or the system's)
 *                              that inserts the layer itself
 * scenario: "leak"         3 host allocations, 2 freed, context kept:
 *                          the exit report must list the live one
 *           "clean"        every allocation freed, context destroyed
 *           "double-free"  frees one allocation twice, prints the result
 *                          of the second free ("second-free=0x...")
 *           "ipc-open HEX" opens the IPC handle given in hex, checks the
 *                          first 64 bytes read 0x5a, closes it
 * Exit status: 0 done, 77 the scenario cannot run here (reason printed),
 * 1 failure.
 */
#include "val_chain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct vc c;
static const ze_host_mem_alloc_desc_t hd = {
	ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0
};

__attribute__((noinline)) void *val_child_leak_site(void);

__attribute__((noinline)) void *
val_child_leak_site(void)
{
	void *p = NULL;
	if (c.api.zeMemAllocHost(c.ctx, &hd, 4096, 64, &p))
		return NULL;
	__asm__ volatile("" ::: "memory");
	return p;
}

static int
leak(void)
{
	void *a = NULL, *b = NULL;
	if (c.api.zeMemAllocHost(c.ctx, &hd, 64, 0, &a) ||
	    c.api.zeMemAllocHost(c.ctx, &hd, 128, 0, &b) ||
	    !val_child_leak_site())
		return 1;
	return c.api.zeMemFree(c.ctx, a) || c.api.zeMemFree(c.ctx, b);
}

static int
clean(void)
{
	void *a = NULL;
	if (c.api.zeMemAllocHost(c.ctx, &hd, 64, 0, &a) ||
	    c.api.zeMemFree(c.ctx, a))
		return 1;
	return c.api.zeContextDestroy(c.ctx) != ZE_RESULT_SUCCESS;
}

static int
double_free(void)
{
	void *a = NULL;
	if (c.api.zeMemAllocHost(c.ctx, &hd, 64, 0, &a) ||
	    c.api.zeMemFree(c.ctx, a))
		return 1;
	ze_result_t r = c.api.zeMemFree(c.ctx, a);
	printf("second-free=0x%x\n", (unsigned)r);
	fflush(stdout);
	return 0;
}

static int
ipc_open(const char *hex)
{
	ze_ipc_mem_handle_t h;
	void *p = NULL;
	if (!hex || strlen(hex) != 2 * sizeof(h.data))
		return 1;
	for (size_t i = 0; i < sizeof(h.data); i++) {
		unsigned v;
		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			return 1;
		h.data[i] = (char)v;
	}
	if (!c.api.zeMemOpenIpcHandle) {
		printf("zeMemOpenIpcHandle is not implemented\n");
		return 77;
	}
	ze_result_t r = c.api.zeMemOpenIpcHandle(c.ctx, c.dev, h, 0, &p);
	if (r != ZE_RESULT_SUCCESS) {
		printf("zeMemOpenIpcHandle failed: 0x%x\n", (unsigned)r);
		return 77;
	}
	for (int i = 0; i < 64; i++) {
		if (((unsigned char *)p)[i] != 0x5a) {
			printf("imported byte %d is 0x%x\n", i,
			       ((unsigned char *)p)[i]);
			return 1;
		}
	}
	return c.api.zeMemCloseIpcHandle(c.ctx, p) != ZE_RESULT_SUCCESS ||
	       c.api.zeContextDestroy(c.ctx) != ZE_RESULT_SUCCESS;
}

/* Counter-based events through the layer: created, signalled by an
 * immediate list's append, waited on, refused a host signal, destroyed
 * (the leak table pairs the create with zeEventDestroy). */
static int
counter_based(void)
{
	const ze_event_dditable_t *ev = &c.ddi.Event;
	const ze_command_list_dditable_t *cl = &c.ddi.CommandList;
	if (!ev->pfnCounterBasedCreate || !ev->pfnGetCounterBasedFlags) {
		printf("the chain has no counter-based events\n");
		return 1;
	}
	ze_event_counter_based_desc_t d = {
		ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC, NULL,
		ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE, 0, 0 };
	ze_event_handle_t e = NULL;
	ze_command_queue_desc_t qd = { ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       NULL, 0, 0, 0,
				       ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, 0 };
	ze_command_list_handle_t l = NULL;
	static char a[256], b[256];
	memset(a, 0x3c, sizeof(a));
	ze_event_counter_based_flags_t fl = 0;
	if (ev->pfnCounterBasedCreate(c.ctx, c.dev, &d, &e) ||
	    cl->pfnCreateImmediate(c.ctx, c.dev, &qd, &l) ||
	    cl->pfnAppendMemoryCopy(l, b, a, sizeof(a), e, 0, NULL) ||
	    ev->pfnHostSynchronize(e, UINT64_MAX) ||
	    ev->pfnQueryStatus(e) || ev->pfnGetCounterBasedFlags(e, &fl) ||
	    fl != ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE || b[255] != 0x3c)
		return 1;
	ze_result_t r = ev->pfnHostSignal(e);
	printf("host-signal=0x%x\n", (unsigned)r);
	fflush(stdout);
	return cl->pfnDestroy(l) || ev->pfnDestroy(e) ||
	       c.api.zeContextDestroy(c.ctx) != ZE_RESULT_SUCCESS;
}

int
main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: val_child chain|loader:PATH SCENARIO "
			"[ARG]\n");
		return 1;
	}
	int err = !strncmp(argv[1], "loader:", 7)
			  ? vc_load_loader(&c, argv[1] + 7)
			  : vc_load_chain(&c, ZE_API_VERSION_CURRENT,
					  vc_layer_path(), NULL);
	if (err) {
		printf("cannot load %s\n", argv[1]);
		return 77;
	}
	int r = vc_open(&c);
	if (r) {
		printf("cannot open a driver and context: 0x%x\n",
		       (unsigned)r);
		return 77;
	}
	if (!strcmp(argv[2], "leak"))
		return leak();
	if (!strcmp(argv[2], "clean"))
		return clean();
	if (!strcmp(argv[2], "double-free"))
		return double_free();
	if (!strcmp(argv[2], "counter-based"))
		return counter_based();
	if (!strcmp(argv[2], "ipc-open"))
		return ipc_open(argc > 3 ? argv[3] : NULL);
	fprintf(stderr, "val_child: unknown scenario %s\n", argv[2]);
	return 1;
}
