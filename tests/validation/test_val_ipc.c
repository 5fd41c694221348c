// SPDX-License-Identifier: MIT
/*
 * test_val_ipc: the validation layer's IPC checks: one deliberate bug per
 * check (open flags, zeMemFree of an import, close of a pointer that was
 * not opened, of an interior pointer, twice, put of a handle twice, IPC
 * handle of released memory), then a clean two-process exchange (this
 * process exports, val_child imports) with the layer on in both: zero
 * findings.
 *
 * Needs the driver's IPC entry points and an open of a handle in the
 * process that made it; without them the whole program is skipped (exit
 * 77, the reason printed).
 */
#include "val_chain.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static struct vc c;
static const ze_host_mem_alloc_desc_t hd = {
	ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0
};
static const ze_device_mem_alloc_desc_t dd = {
	ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0
};

static void *
alloc_device(size_t size)
{
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocDevice(c.ctx, &dd, size, 0, c.dev,
						&p),
			 ZE_RESULT_SUCCESS);
	return p;
}

static ze_ipc_mem_handle_t
get_handle(void *p)
{
	ze_ipc_mem_handle_t h;
	ck_assert_int_eq(c.api.zeMemGetIpcHandle(c.ctx, p, &h),
			 ZE_RESULT_SUCCESS);
	return h;
}

/* Opens a handle this process made (a second mapping of the memory). */
static void *
open_own(ze_ipc_mem_handle_t h)
{
	void *q = NULL;
	ck_assert_int_eq(c.api.zeMemOpenIpcHandle(c.ctx, c.dev, h, 0, &q),
			 ZE_RESULT_SUCCESS);
	return q;
}

START_TEST(test_ipc_open_unknown_flags)
{
	vt_setup(&c, "p");
	void *p = alloc_device(4096);
	ze_ipc_mem_handle_t h = get_handle(p);
	void *q = NULL;
	ck_assert_int_eq(c.api.zeMemOpenIpcHandle(c.ctx, c.dev, h, 0x4, &q),
			 ZE_RESULT_ERROR_INVALID_ENUMERATION);
	ck_assert_int_eq(c.api.zeMemOpenIpcHandle(c.ctx, NULL, h, 0, &q),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	vt_assert_finding("parameter: zeMemOpenIpcHandle(", "flags=0x4",
			  "flags 0x4 has unknown bits 0x4",
			  "-> ZE_RESULT_ERROR_INVALID_ENUMERATION", NULL);
	vt_assert_finding("zeMemOpenIpcHandle(", "hDevice is NULL",
			  "-> ZE_RESULT_ERROR_INVALID_NULL_HANDLE", NULL);
	vt_assert_findings(2);
}
END_TEST

START_TEST(test_ipc_free_of_import)
{
	vt_setup(&c, "l");
	void *p = alloc_device(8192);
	void *q = open_own(get_handle(p));
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, q),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("lifetime: zeMemFree(",
			  "was opened by zeMemOpenIpcHandle: release it with "
			  "zeMemCloseIpcHandle", "IPC import",
			  "opened by zeMemOpenIpcHandle",
			  "-> ZE_RESULT_ERROR_INVALID_ARGUMENT", NULL);
	ck_assert_int_eq(c.api.zeMemCloseIpcHandle(c.ctx, q), 0);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), 0);
	vt_assert_findings(1);
}
END_TEST

START_TEST(test_ipc_close_not_opened)
{
	vt_setup(&c, "l");
	void *p = NULL;
	ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, &hd, 64, 0, &p), 0);
	ck_assert_int_eq(c.api.zeMemCloseIpcHandle(c.ctx, p),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("lifetime: zeMemCloseIpcHandle(",
			  "was not opened by zeMemOpenIpcHandle: it is host "
			  "allocation", "(release it with zeMemFree)",
			  "-> ZE_RESULT_ERROR_INVALID_ARGUMENT", NULL);
	char *m = malloc(64);
	ck_assert_int_eq(c.api.zeMemCloseIpcHandle(c.ctx, m),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("zeMemCloseIpcHandle(",
			  "is not memory the layer saw allocated or opened",
			  "(from the driver)", NULL);
	free(m);
	vt_assert_findings(2);
}
END_TEST

START_TEST(test_ipc_close_interior_pointer)
{
	vt_setup(&c, "l");
	void *p = alloc_device(8192);
	char *q = open_own(get_handle(p));
	ck_assert_int_eq(c.api.zeMemCloseIpcHandle(c.ctx, q + 4096),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* The layer learns the import's size from the driver's
	 * zeMemGetAddressRange. */
	vt_assert_finding("lifetime: zeMemCloseIpcHandle(",
			  "close of an interior pointer",
			  "is 4096 bytes into IPC import",
			  "-> ZE_RESULT_ERROR_INVALID_ARGUMENT", NULL);
	vt_assert_findings(1);
	ck_assert_int_eq(c.api.zeMemCloseIpcHandle(c.ctx, q), 0);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), 0);
}
END_TEST

START_TEST(test_ipc_close_twice)
{
	vt_setup(&c, "l");
	void *p = alloc_device(4096);
	void *q = open_own(get_handle(p));
	ck_assert_int_eq(c.api.zeMemCloseIpcHandle(c.ctx, q), 0);
	ck_assert_int_eq(c.api.zeMemCloseIpcHandle(c.ctx, q),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("lifetime: zeMemCloseIpcHandle(",
			  "double close", "IPC import",
			  "released by zeMemCloseIpcHandle",
			  "-> ZE_RESULT_ERROR_INVALID_ARGUMENT", NULL);
	vt_assert_findings(1);
}
END_TEST

START_TEST(test_ipc_put_twice)
{
	vt_setup(&c, "l");
	if (!c.api.zeMemPutIpcHandle) {
		printf("SKIP test_ipc_put_twice: no zeMemPutIpcHandle\n");
		return;
	}
	void *p = alloc_device(4096);
	ze_ipc_mem_handle_t h = get_handle(p);
	ck_assert_int_eq(c.api.zeMemPutIpcHandle(c.ctx, h), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(c.api.zeMemPutIpcHandle(c.ctx, h),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("lifetime: zeMemPutIpcHandle(",
			  "put of a handle twice", "got 1 time(s) and already "
			  "put 1 time(s)", "last got by zeMemGetIpcHandle",
			  "last put by zeMemPutIpcHandle",
			  "-> ZE_RESULT_ERROR_INVALID_ARGUMENT", NULL);
	vt_assert_findings(1);
}
END_TEST

START_TEST(test_ipc_handle_of_released_memory)
{
	vt_setup(&c, "l");
	void *p = alloc_device(4096);
	ck_assert_int_eq(c.api.zeMemFree(c.ctx, p), 0);
	ze_ipc_mem_handle_t h;
	ck_assert_int_eq(c.api.zeMemGetIpcHandle(c.ctx, p, &h),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	vt_assert_finding("lifetime: zeMemGetIpcHandle(",
			  "IPC handle of released memory", NULL);
}
END_TEST

/* A clean exchange between two processes, the layer on in both. */
START_TEST(test_ipc_two_processes_clean)
{
	vt_setup(&c, "plk");
	/* Host and shared memory must ask to be exportable. */
	ze_external_memory_export_desc_t ex = {
		ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_DESC, NULL,
		ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD
	};
	ze_host_mem_alloc_desc_t hx = hd;
	hx.pNext = &ex;
	void *kinds[3] = { NULL, NULL, NULL };
	ck_assert_int_eq(c.api.zeMemAllocDevice(c.ctx, &dd, 1 << 16, 4096,
						c.dev, &kinds[0]), 0);
	ck_assert_int_eq(c.api.zeMemAllocHost(c.ctx, &hx, 1 << 16, 4096,
					      &kinds[1]), 0);
	ck_assert_int_eq(c.api.zeMemAllocShared(c.ctx, &dd, &hx, 1 << 16, 0,
						c.dev, &kinds[2]), 0);
	const char *child = getenv("ZEMEM_TEST_VAL_CHILD");
	ck_assert_ptr_nonnull(child);
	int skipped = 0;
	for (int k = 0; k < 3; k++) {
		memset(kinds[k], 0x5a, 1 << 16);
		ze_ipc_mem_handle_t h;
		ze_result_t r = c.api.zeMemGetIpcHandle(c.ctx, kinds[k], &h);
		if (r != ZE_RESULT_SUCCESS) {
			printf("SKIP kind %d: zeMemGetIpcHandle: 0x%x\n", k,
			       (unsigned)r);
			skipped++;
			continue;
		}
		char hex[2 * sizeof(h.data) + 1];
		for (size_t i = 0; i < sizeof(h.data); i++)
			snprintf(hex + 2 * i, 3, "%02x",
				 (unsigned char)h.data[i]);
		pid_t pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0) {
			execl(child, child, "chain", "ipc-open", hex,
			      (char *)NULL);
			_exit(127);
		}
		int st = 0;
		ck_assert_int_eq(waitpid(pid, &st, 0), pid);
		ck_assert(WIFEXITED(st));
		if (WEXITSTATUS(st) == 77)
			skipped++;
		else
			ck_assert_int_eq(WEXITSTATUS(st), 0);
		if (c.api.zeMemPutIpcHandle)
			ck_assert_int_eq(c.api.zeMemPutIpcHandle(c.ctx, h), 0);
	}
	for (int k = 0; k < 3; k++)
		ck_assert_int_eq(c.api.zeMemFree(c.ctx, kinds[k]), 0);
	vt_assert_findings(0);
	if (skipped)
		printf("SKIP %d of 3 kinds: the importing process could not "
		       "open them (see above)\n", skipped);
}
END_TEST

/* Is IPC there, and can this process open its own handle? */
static int
ipc_available(void)
{
	struct vc d;
	if (vc_load_chain(&d, ZE_API_VERSION_CURRENT, NULL, NULL) ||
	    vc_open(&d)) {
		printf("SKIP: the driver cannot be loaded\n");
		return 0;
	}
	if (!d.api.zeMemGetIpcHandle || !d.api.zeMemOpenIpcHandle ||
	    !d.api.zeMemCloseIpcHandle) {
		printf("SKIP: the driver does not implement the IPC entry "
		       "points yet\n");
		return 0;
	}
	void *p = NULL, *q = NULL;
	ze_ipc_mem_handle_t h;
	ze_result_t r = d.api.zeMemAllocDevice(d.ctx, &dd, 4096, 0, d.dev, &p);
	if (!r)
		r = d.api.zeMemGetIpcHandle(d.ctx, p, &h);
	if (!r)
		r = d.api.zeMemOpenIpcHandle(d.ctx, d.dev, h, 0, &q);
	if (r) {
		printf("SKIP: the driver cannot open an IPC handle in the "
		       "process that made it (0x%x)\n", (unsigned)r);
		return 0;
	}
	d.api.zeMemCloseIpcHandle(d.ctx, q);
	if (d.api.zeMemPutIpcHandle)
		d.api.zeMemPutIpcHandle(d.ctx, h);
	d.api.zeMemFree(d.ctx, p);
	d.api.zeContextDestroy(d.ctx);
	return 1;
}

static Suite *
suite(void)
{
	Suite *s = suite_create("validation-ipc");
	TCase *t = tcase_create("checks");
	tcase_add_test(t, test_ipc_open_unknown_flags);
	tcase_add_test(t, test_ipc_free_of_import);
	tcase_add_test(t, test_ipc_close_not_opened);
	tcase_add_test(t, test_ipc_close_interior_pointer);
	tcase_add_test(t, test_ipc_close_twice);
	tcase_add_test(t, test_ipc_put_twice);
	tcase_add_test(t, test_ipc_handle_of_released_memory);
	suite_add_tcase(s, t);
	t = tcase_create("workload");
	tcase_add_test(t, test_ipc_two_processes_clean);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	return vt_run_if(ipc_available, suite);
}
