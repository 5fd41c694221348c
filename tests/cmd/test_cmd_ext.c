// SPDX-License-Identifier: MIT
/*
 * test_cmd_ext: appending regular command lists to an immediate list
 * (zeCommandListImmediateAppendCommandListsExp), the read-only memory
 * property of the device, and copies into memory the process may not
 * write (a READONLY VMM mapping, mprotect'ed memory): they fail with
 * ZE_RESULT_ERROR_DEVICE_LOST and the process lives on.
 */
#include <dirent.h>
#include <fcntl.h>
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/select.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tcmd.h"

/* The spec's value (scripts/core/common.yml: the etor after
 * IMAGE_FORMAT_SUPPORT_EXT_PROPERTIES, 0x10014), as api/ze_api.h has it. */
_Static_assert(ZE_STRUCTURE_TYPE_DEVICE_READONLY_MEMORY_EXT_PROPERTIES ==
		       0x00010015,
	       "ZE_STRUCTURE_TYPE_DEVICE_READONLY_MEMORY_EXT_PROPERTIES");
/* Two 1.15 stypes with explicit values in common.yml, declared by the
 * public header itself (drivers once guessed them behind #ifndef). */
_Static_assert(ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC == 0x0002003A,
	       "ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC");
_Static_assert(ZE_STRUCTURE_TYPE_IPC_MEM_HANDLE_TYPE_EXT_DESC == 0x0002003D,
	       "ZE_STRUCTURE_TYPE_IPC_MEM_HANDLE_TYPE_EXT_DESC");

#define ASYNC ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS
#define SYNC ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS

static ze_pfnCommandListImmediateAppendCommandListsExp_t append_lists;

/* The entry point, from the driver's CommandListExp table (what loaders
 * use), and the same from zeDriverGetExtensionFunctionAddress. */
static void
load_append_lists(void)
{
	void *lib = dlopen(zt_driver_path(), RTLD_NOW | RTLD_NOLOAD);
	ck_assert_ptr_nonnull(lib);
	ze_pfnGetCommandListExpProcAddrTable_t get =
		(ze_pfnGetCommandListExpProcAddrTable_t)dlsym(
			lib, "zeGetCommandListExpProcAddrTable");
	ck_assert_ptr_nonnull(get);
	ze_command_list_exp_dditable_t t;
	memset(&t, 0, sizeof(t));
	ck_assert_int_eq(get(ZE_API_VERSION_CURRENT, &t), ZE_RESULT_SUCCESS);
	ck_assert_ptr_nonnull(t.pfnImmediateAppendCommandListsExp);
	/* Not there before 1.9. */
	ze_command_list_exp_dditable_t old;
	memset(&old, 0, sizeof(old));
	ck_assert_int_eq(get(ZE_MAKE_VERSION(1, 8), &old), ZE_RESULT_SUCCESS);
	ck_assert_ptr_null(old.pfnImmediateAppendCommandListsExp);
	void *fn = NULL;
	ck_assert_int_eq(zt.driver.pfnGetExtensionFunctionAddress(
				 zt.drv,
				 "zeCommandListImmediateAppendCommandListsExp",
				 &fn),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_eq(fn, (void *)t.pfnImmediateAppendCommandListsExp);
	append_lists = t.pfnImmediateAppendCommandListsExp;
	dlclose(lib);
}

START_TEST(test_append_lists_errors)
{
	load_append_lists();
	ze_command_list_handle_t imm = tc_imm(ASYNC);
	ze_command_list_handle_t reg = tc_list(0), open = tc_list(0);
	ck_assert_int_eq(zt.list.pfnClose(reg), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(append_lists(NULL, 1, &reg, NULL, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(append_lists(imm, 1, NULL, NULL, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(append_lists(imm, 0, &reg, NULL, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	ck_assert_int_eq(append_lists(imm, 1, &reg, NULL, 1, NULL),
			 ZE_RESULT_ERROR_INVALID_SIZE);
	/* The target must be immediate; the lists regular and closed. */
	ck_assert_int_eq(append_lists(reg, 1, &reg, NULL, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_int_eq(append_lists(imm, 1, &imm, NULL, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE);
	ck_assert_int_eq(append_lists(imm, 1, &open, NULL, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ze_command_list_handle_t bad = (void *)tc_forged;
	ck_assert_int_eq(append_lists(imm, 1, &bad, NULL, 0, NULL),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	/* Nothing was left executing: both lists can be destroyed. */
	ck_assert_int_eq(zt.list.pfnHostSynchronize(imm, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(reg), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(open), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(imm), ZE_RESULT_SUCCESS);
}
END_TEST

/* Two closed lists, a wait event and a signal event: nothing runs before
 * the wait is signalled; both lists ran, in order, when the signal event
 * is; the lists can be appended again. */
static void
append_lists_run(ze_command_queue_mode_t mode)
{
	load_append_lists();
	enum { N = 64 * 1024 };
	char *a = tc_alloc(ZE_MEMORY_TYPE_DEVICE, N);
	char *b = tc_alloc(ZE_MEMORY_TYPE_DEVICE, N);
	char *c = tc_alloc(ZE_MEMORY_TYPE_HOST, N);
	tc_pattern(a, N, 7);
	memset(b, 0, N);
	memset(c, 0, N);
	ze_command_list_handle_t l1 = tc_list(0), l2 = tc_list(0);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(l1, b, a, N, NULL, 0,
						     NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(l2, c, b, N, NULL, 0,
						     NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnClose(l1), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnClose(l2), ZE_RESULT_SUCCESS);
	ze_event_pool_handle_t pool = tc_pool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE,
					      2);
	ze_event_handle_t go = tc_event(pool, 0), done = tc_event(pool, 1);
	ze_command_list_handle_t imm = tc_imm(mode);
	ze_command_list_handle_t both[2] = { l1, l2 };
	if (mode == ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS) {
		ck_assert_int_eq(append_lists(imm, 2, both, done, 1, &go),
				 ZE_RESULT_SUCCESS);
		usleep(20000);
		ck_assert_int_eq(zt.event.pfnQueryStatus(done),
				 ZE_RESULT_NOT_READY);
		ck_assert_int_eq(c[0], 0);
		/* Executing: neither list may be reset meanwhile. */
		ck_assert_int_eq(zt.list.pfnReset(l1),
				 ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
		ck_assert_int_eq(zt.event.pfnHostSignal(go),
				 ZE_RESULT_SUCCESS);
	} else {
		ck_assert_int_eq(zt.event.pfnHostSignal(go),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(append_lists(imm, 2, both, done, 1, &go),
				 ZE_RESULT_SUCCESS);
	}
	ck_assert_int_eq(zt.event.pfnHostSynchronize(done, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert(tc_check_pattern(c, N, 7));
	/* Again, without events, then through the list's own sync. */
	memset(c, 0, N);
	ck_assert_int_eq(append_lists(imm, 2, both, NULL, 0, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnHostSynchronize(imm, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert(tc_check_pattern(c, N, 7));
	ck_assert_int_eq(zt.list.pfnDestroy(imm), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(l1), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(l2), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(go), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(done), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(pool), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_DEVICE, a);
	tc_free(ZE_MEMORY_TYPE_DEVICE, b);
	tc_free(ZE_MEMORY_TYPE_HOST, c);
}

START_TEST(test_append_lists_async_waits_and_signals)
{
	append_lists_run(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
}
END_TEST

START_TEST(test_append_lists_sync)
{
	append_lists_run(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
}
END_TEST

/* ---- read-only memory -------------------------------------------------- */

START_TEST(test_device_readonly_property_enforced)
{
	ze_device_readonly_memory_ext_properties_t ro = {
		ZE_STRUCTURE_TYPE_DEVICE_READONLY_MEMORY_EXT_PROPERTIES, NULL,
		ZE_DEVICE_READONLY_MEMORY_CAPABILITY_NONE
	};
	ze_device_properties_t p = { ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2,
				     &ro };
	ck_assert_int_eq(zt.device.pfnGetProperties(zt.dev, &p),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(ro.readonlyCapability,
			 ZE_DEVICE_READONLY_MEMORY_CAPABILITY_ENFORCED);
}
END_TEST

/* A copy and a fill into dst (the process may not write it from byte
 * `from` on) on an immediate list with an event, and on a regular list
 * with a fence: each fails with DEVICE_LOST, the bytes it may not write
 * are unchanged, the process is alive. */
static void
write_refused(char *dst, size_t n, size_t from, unsigned char was)
{
	char *src = tc_alloc(ZE_MEMORY_TYPE_HOST, n);
	memset(src, 0x5a, n);
	ze_event_pool_handle_t pool = tc_pool(0, 2);
	ze_event_handle_t ev = tc_event(pool, 0), after = tc_event(pool, 1);

	ze_command_list_handle_t imm = tc_imm(ASYNC);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(imm, dst, src, n, ev, 0,
						     NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostSynchronize(ev, UINT64_MAX),
			 ZE_RESULT_ERROR_DEVICE_LOST);
	ck_assert_int_eq(zt.event.pfnQueryStatus(ev),
			 ZE_RESULT_ERROR_DEVICE_LOST);
	ck_assert_int_eq(zt.list.pfnHostSynchronize(imm, UINT64_MAX),
			 ZE_RESULT_ERROR_DEVICE_LOST);
	ck_assert_int_eq(zt.list.pfnDestroy(imm), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostReset(ev), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnQueryStatus(ev), ZE_RESULT_NOT_READY);

	/* Regular list: the fill faults, the op after it is skipped and its
	 * event reports the loss too. */
	uint32_t pat = 0x01020304;
	ze_command_queue_handle_t q = tc_queue(0, ASYNC);
	ze_fence_handle_t f = tc_fence(q);
	ze_command_list_handle_t l = tc_list(0);
	ck_assert_int_eq(zt.list.pfnAppendMemoryFill(l, dst, &pat, 4, n, ev, 0,
						     NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnAppendBarrier(l, after, 0, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnClose(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnExecuteCommandLists(q, 1, &l, f),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.fence.pfnHostSynchronize(f, UINT64_MAX),
			 ZE_RESULT_ERROR_DEVICE_LOST);
	ck_assert_int_eq(zt.fence.pfnQueryStatus(f),
			 ZE_RESULT_ERROR_DEVICE_LOST);
	ck_assert_int_eq(zt.queue.pfnSynchronize(q, UINT64_MAX),
			 ZE_RESULT_ERROR_DEVICE_LOST);
	ck_assert_int_eq(zt.event.pfnHostSynchronize(ev, UINT64_MAX),
			 ZE_RESULT_ERROR_DEVICE_LOST);
	ck_assert_int_eq(zt.event.pfnHostSynchronize(after, UINT64_MAX),
			 ZE_RESULT_ERROR_DEVICE_LOST);
	for (size_t i = from; i < n; i++)
		ck_assert_int_eq((unsigned char)dst[i], was);
	ck_assert_int_eq(zt.fence.pfnReset(f), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.fence.pfnQueryStatus(f), ZE_RESULT_NOT_READY);
	ck_assert_int_eq(zt.fence.pfnDestroy(f), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnDestroy(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.queue.pfnDestroy(q), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(ev), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(after), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(pool), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_HOST, src);
}

START_TEST(test_copy_into_mprotected_memory_fails)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(m, MAP_FAILED);
	memset(m, 0x11, 2 * page);
	/* Only the second page is read-only: the op spans both. */
	ck_assert_int_eq(mprotect(m + page, page, PROT_READ), 0);
	/* System memory: the bytes before the read-only page may have been
	 * written before the fault. */
	write_refused(m + page - 64, 128, 64, 0x11);
	/* A region copy and a timestamp into the read-only page fail too. */
	char *src = tc_alloc(ZE_MEMORY_TYPE_HOST, 4096);
	ze_command_list_handle_t syn = tc_imm(SYNC);
	ze_copy_region_t rg = { 0, 0, 0, 16, 4, 0 };
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopyRegion(syn, m + page, &rg,
							   64, 0, src, &rg, 64,
							   0, NULL, 0, NULL),
			 ZE_RESULT_ERROR_DEVICE_LOST);
	ck_assert_int_eq(zt.list.pfnAppendWriteGlobalTimestamp(
				 syn, (uint64_t *)(void *)(m + page), NULL, 0,
				 NULL),
			 ZE_RESULT_ERROR_DEVICE_LOST);
	ck_assert_int_eq((unsigned char)m[page], 0x11);
	ck_assert_int_eq(zt.list.pfnDestroy(syn), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_HOST, src);
	/* A source the process may not read fails the same way. */
	ck_assert_int_eq(mprotect(m + page, page, PROT_NONE), 0);
	char *dst = tc_alloc(ZE_MEMORY_TYPE_HOST, 128);
	ze_command_list_handle_t imm = tc_imm(SYNC);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(imm, dst, m + page - 64,
						     128, NULL, 0, NULL),
			 ZE_RESULT_ERROR_DEVICE_LOST);
	ck_assert_int_eq(zt.list.pfnDestroy(imm), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_HOST, dst);
	munmap(m, 2 * page);
}
END_TEST

/* Past the end of a memfd: SIGBUS, not SIGSEGV; the op fails the same. */
START_TEST(test_copy_past_end_of_file_fails)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int fd = memfd_create("tc-sigbus", MFD_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)(2 * page)), 0);
	char *m = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       0);
	ck_assert_ptr_ne(m, MAP_FAILED);
	ck_assert_int_eq(ftruncate(fd, (off_t)page), 0);
	char *src = tc_alloc(ZE_MEMORY_TYPE_HOST, 256);
	ze_command_list_handle_t imm = tc_imm(SYNC);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(imm, m + page + 16, src,
						     64, NULL, 0, NULL),
			 ZE_RESULT_ERROR_DEVICE_LOST);
	ck_assert_int_eq(zt.list.pfnDestroy(imm), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_HOST, src);
	munmap(m, 2 * page);
	close(fd);
}
END_TEST

/* The application's own SIGSEGV handler, installed before the driver's,
 * still gets the faults that are not the driver's. */
static sigjmp_buf app_jb;
static volatile sig_atomic_t app_faults;

static void
app_handler(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	app_faults++;
	siglongjmp(app_jb, 1);
}

START_TEST(test_fault_handler_chains_to_the_application)
{
	const char *fork_mode = getenv("CK_FORK");
	if (fork_mode && !strcmp(fork_mode, "no")) {
		printf("test_fault_handler_chains_to_the_application: skipped "
		       "with CK_FORK=no (needs a process of its own)\n");
		return;
	}
	struct sigaction sa, old;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = app_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGSEGV, &sa, &old), 0);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		       0);
	ck_assert_ptr_ne(m, MAP_FAILED);
	/* The driver's guard takes the fault of its own copy... */
	char *src = tc_alloc(ZE_MEMORY_TYPE_HOST, 64);
	ze_command_list_handle_t imm = tc_imm(SYNC);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(imm, m, src, 64, NULL, 0,
						     NULL),
			 ZE_RESULT_ERROR_DEVICE_LOST);
	ck_assert_int_eq(app_faults, 0);
	/* ... and hands the application's own to its handler. */
	if (!sigsetjmp(app_jb, 1))
		*(volatile char *)m = 1;
	ck_assert_int_eq(app_faults, 1);
	ck_assert_int_eq(zt.list.pfnDestroy(imm), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_HOST, src);
	munmap(m, page);
}
END_TEST

START_TEST(test_copy_into_readonly_vmm_fails)
{
	size_t page = 0;
	ck_assert_int_eq(zt.vmem.pfnQueryPageSize(zt.ctx, zt.dev, 4096, &page),
			 ZE_RESULT_SUCCESS);
	ze_physical_mem_desc_t pd = { ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC,
				      NULL, 0, page };
	ze_physical_mem_handle_t ph;
	ck_assert_int_eq(zt.pmem.pfnCreate(zt.ctx, zt.dev, &pd, &ph),
			 ZE_RESULT_SUCCESS);
	void *va = NULL;
	ck_assert_int_eq(zt.vmem.pfnReserve(zt.ctx, NULL, page, &va),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, va, page, ph, 0,
					ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
			 ZE_RESULT_SUCCESS);
	memset(va, 0x22, page);
	ck_assert_int_eq(zt.vmem.pfnSetAccessAttribute(
				 zt.ctx, va, page,
				 ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY),
			 ZE_RESULT_SUCCESS);
	/* VMM: refused before anything is written. */
	write_refused(va, 256, 0, 0x22);
	/* Reads stay allowed. */
	char *out = tc_alloc(ZE_MEMORY_TYPE_HOST, 256);
	ze_command_list_handle_t imm = tc_imm(SYNC);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(imm, out, va, 256, NULL, 0,
						     NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq((unsigned char)out[255], 0x22);
	ck_assert_int_eq(zt.list.pfnDestroy(imm), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_HOST, out);
	ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, va, page), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.vmem.pfnFree(zt.ctx, va, page), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.pmem.pfnDestroy(zt.ctx, ph), ZE_RESULT_SUCCESS);
}
END_TEST

/* ---- futex events ------------------------------------------------------ */

struct waiter {
	ze_event_handle_t ev;
	uint64_t timeout;
	ze_result_t got;
};

static void *
wait_main(void *arg)
{
	struct waiter *w = arg;
	w->got = zt.event.pfnHostSynchronize(w->ev, w->timeout);
	return NULL;
}

/* Several threads asleep on one event wake on one host signal; after a
 * reset, bounded waits time out; an immediate list whose op waits on the
 * event runs when the host signals it, and a host wait on the op's own
 * event (which it then runs or waits for) sees it. */
START_TEST(test_event_futex_waiters)
{
	enum { T = 4 };
	ze_event_pool_handle_t pool = tc_pool(0, 2);
	ze_event_handle_t ev = tc_event(pool, 0), done = tc_event(pool, 1);
	struct tc_thread th[T];
	struct waiter w[T];
	for (int i = 0; i < T; i++) {
		w[i] = (struct waiter){ ev, UINT64_MAX, ZE_RESULT_NOT_READY };
		tc_thread_start(&th[i], wait_main, &w[i]);
	}
	usleep(30000);
	for (int i = 0; i < T; i++)
		ck_assert_int_eq(w[i].got, ZE_RESULT_NOT_READY);
	ck_assert_int_eq(zt.event.pfnHostSignal(ev), ZE_RESULT_SUCCESS);
	for (int i = 0; i < T; i++) {
		tc_thread_join(&th[i]);
		ck_assert_int_eq(w[i].got, ZE_RESULT_SUCCESS);
	}
	/* "Forever" spelled UINT64_MAX - 1 (as some suites do) too. */
	ck_assert_int_eq(zt.event.pfnHostReset(ev), ZE_RESULT_SUCCESS);
	w[0] = (struct waiter){ ev, UINT64_MAX - 1, ZE_RESULT_NOT_READY };
	tc_thread_start(&th[0], wait_main, &w[0]);
	usleep(20000);
	ck_assert_int_eq(w[0].got, ZE_RESULT_NOT_READY);
	ck_assert_int_eq(zt.event.pfnHostSignal(ev), ZE_RESULT_SUCCESS);
	tc_thread_join(&th[0]);
	ck_assert_int_eq(w[0].got, ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostReset(ev), ZE_RESULT_SUCCESS);
	for (int i = 0; i < T; i++) {
		w[i] = (struct waiter){ ev, 5000000, ZE_RESULT_SUCCESS };
		tc_thread_start(&th[i], wait_main, &w[i]);
	}
	for (int i = 0; i < T; i++) {
		tc_thread_join(&th[i]);
		ck_assert_int_eq(w[i].got, ZE_RESULT_NOT_READY);
	}
	ze_command_list_handle_t imm = tc_imm(ASYNC);
	ck_assert_int_eq(zt.list.pfnAppendBarrier(imm, done, 1, &ev),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostSynchronize(done, 10000000),
			 ZE_RESULT_NOT_READY);
	w[0] = (struct waiter){ done, UINT64_MAX, ZE_RESULT_NOT_READY };
	tc_thread_start(&th[0], wait_main, &w[0]);
	usleep(10000);
	ck_assert_int_eq(zt.event.pfnHostSignal(ev), ZE_RESULT_SUCCESS);
	tc_thread_join(&th[0]);
	ck_assert_int_eq(w[0].got, ZE_RESULT_SUCCESS);
	/* An empty append with an event, waited for at once, many times. */
	for (int i = 0; i < 1000; i++) {
		ck_assert_int_eq(zt.event.pfnHostReset(done),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.list.pfnAppendBarrier(imm, done, 0, NULL),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.event.pfnHostSynchronize(done, UINT64_MAX),
				 ZE_RESULT_SUCCESS);
	}
	ck_assert_int_eq(zt.list.pfnDestroy(imm), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(ev), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(done), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(pool), ZE_RESULT_SUCCESS);
}
END_TEST

/* ---- a host wait runs its own batch ------------------------------------ */

/* The worker thread of this process's only immediate list. */
static pid_t
imm_worker_tid(void)
{
	DIR *d = opendir("/proc/self/task");
	ck_assert_ptr_nonnull(d);
	pid_t found = 0;
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		char path[300], comm[32] = "";
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm",
			 de->d_name);
		FILE *f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) &&
		    !strncmp(comm, "zemem-imm", 9)) {
			found = (pid_t)atoi(de->d_name);
			n++;
		}
		fclose(f);
	}
	closedir(d);
	ck_assert_int_eq(n, 1);
	return found;
}

/* A child process that stops one thread of ours (ptrace interrupt) until
 * told to go on, or until a watchdog of 2 s passes (then it says so:
 * only a wait that could not finish without the thread takes that long). */
struct stopper {
	pid_t pid;
	int to, from; /* pipes: to the child, from the child */
};

static bool
stopper_start(struct stopper *s, pid_t tid)
{
	int a[2], b[2];
	ck_assert_int_eq(pipe2(a, O_CLOEXEC), 0);
	ck_assert_int_eq(pipe2(b, O_CLOEXEC), 0);
	s->pid = fork();
	ck_assert_int_ge(s->pid, 0);
	if (s->pid == 0) {
		/* Only system calls from here on. */
		char c = 0;
		if (read(a[0], &c, 1) != 1)
			_exit(1);
		if (ptrace(PTRACE_SEIZE, tid, NULL, NULL) ||
		    ptrace(PTRACE_INTERRUPT, tid, NULL, NULL)) {
			c = 'E';
			(void)!write(b[1], &c, 1);
			_exit(0);
		}
		int st;
		if (waitpid(tid, &st, __WALL) != tid)
			_exit(1);
		c = 'S';
		(void)!write(b[1], &c, 1);
		struct timespec ts = { 2, 0 };
		fd_set rd;
		FD_ZERO(&rd);
		FD_SET(a[0], &rd);
		int k = pselect(a[0] + 1, &rd, NULL, NULL, &ts, NULL);
		c = k == 1 ? 'D' : 'W';
		ptrace(PTRACE_DETACH, tid, NULL, NULL);
		(void)!write(b[1], &c, 1);
		_exit(0);
	}
	close(a[0]);
	close(b[1]);
	s->to = a[1];
	s->from = b[0];
	/* Where Yama restricts ptrace, this child may trace us. */
	prctl(PR_SET_PTRACER, s->pid, 0, 0, 0);
	char c = 'P';
	ck_assert_int_eq(write(s->to, &c, 1), 1);
	ck_assert_int_eq(read(s->from, &c, 1), 1);
	if (c == 'E') {
		int st;
		waitpid(s->pid, &st, 0);
		close(s->to);
		close(s->from);
		return false;
	}
	ck_assert_int_eq(c, 'S');
	return true;
}

/* Lets the thread go; true when that came from us, false when the
 * watchdog had to. */
static bool
stopper_end(struct stopper *s)
{
	/* The child may be gone already (its watchdog ran): no SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	char c = 'G';
	(void)!write(s->to, &c, 1);
	ck_assert_int_eq(read(s->from, &c, 1), 1);
	int st;
	ck_assert_int_eq(waitpid(s->pid, &st, 0), s->pid);
	close(s->to);
	close(s->from);
	return c == 'D';
}

/* With the immediate list's worker stopped, a host wait without timeout
 * on the event of the list's next batch runs that batch on the calling
 * thread (it would otherwise wait for the worker): plain, and gated by a
 * wait event the host signals after the append (Intel's ze_bandwidth). */
START_TEST(test_event_wait_runs_its_batch)
{
	ze_event_pool_handle_t pool = tc_pool(0, 2);
	ze_event_handle_t ev = tc_event(pool, 0), gate = tc_event(pool, 1);
	ze_command_list_handle_t imm = tc_imm(ASYNC);
	char *a = tc_alloc(ZE_MEMORY_TYPE_DEVICE, 4096);
	char *b = tc_alloc(ZE_MEMORY_TYPE_DEVICE, 4096);
	tc_pattern(a, 4096, 3);
	memset(b, 0, 4096);
	/* Let the idle worker fall asleep (it spins 100 us first), so it is
	 * stopped holding no lock. */
	usleep(200000);
	struct stopper s;
	if (!stopper_start(&s, imm_worker_tid())) {
		printf("test_event_wait_runs_its_batch: skipped, ptrace of a "
		       "thread is not allowed here\n");
		goto out;
	}
	ck_assert_int_eq(zt.list.pfnAppendBarrier(imm, ev, 0, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostSynchronize(ev, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostReset(ev), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.list.pfnAppendMemoryCopy(imm, b, a, 4096, ev, 1,
						     &gate),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostSignal(gate), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostSynchronize(ev, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	bool ours = stopper_end(&s);
	ck_assert_msg(ours, "the event wait returned only once the worker "
			    "ran again");
	ck_assert(tc_check_pattern(b, 4096, 3));
out:
	ck_assert_int_eq(zt.list.pfnDestroy(imm), ZE_RESULT_SUCCESS);
	tc_free(ZE_MEMORY_TYPE_DEVICE, a);
	tc_free(ZE_MEMORY_TYPE_DEVICE, b);
	ck_assert_int_eq(zt.event.pfnDestroy(ev), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(gate), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(pool), ZE_RESULT_SUCCESS);
}
END_TEST

TCase *
tc_case_ext(void)
{
	TCase *tc = tcase_create("ext");
	tcase_add_checked_fixture(tc, tc_setup, tc_teardown);
	tcase_add_test(tc, test_append_lists_errors);
	tcase_add_test(tc, test_append_lists_async_waits_and_signals);
	tcase_add_test(tc, test_append_lists_sync);
	tcase_add_test(tc, test_device_readonly_property_enforced);
	tcase_add_test(tc, test_copy_into_mprotected_memory_fails);
	tcase_add_test(tc, test_copy_into_readonly_vmm_fails);
	tcase_add_test(tc, test_copy_past_end_of_file_fails);
	tcase_add_test(tc, test_fault_handler_chains_to_the_application);
	tcase_add_test(tc, test_event_futex_waiters);
	tcase_add_test(tc, test_event_wait_runs_its_batch);
	return tc;
}
