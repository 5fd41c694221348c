// SPDX-License-Identifier: MIT
/*
 * test_cmd_ipc: the copy engine writing into memory another process
 * exported. The test allocates device memory, gets an IPC handle and
 * starts itself again (fork + exec, "--child") with the handle on a pipe;
 * the child opens the handle and, with an immediate command list, copies a
 * pattern into the imported memory, fills its tail, checks that a copy
 * running past the imported range is refused, closes the handle and
 * answers. The parent checks its memory.
 *
 * Events: the parent makes an IPC event pool, hands its handle to a child
 * ("--child-events"): the child opens it, waits (sleeping, no timeout) for
 * an event the parent signals from the host, then signals another by the
 * completion of a copy on its immediate list, and a third from the host;
 * the parent waits for both, sees the copy's timestamps, and resets one
 * that the child then sees reset.
 *
 * Counter-based events ("--child-cb"): the child opens the parent's IPC
 * counter-based event, sees it armed, sleeps until the parent's op
 * completes it, and again after a second append re-armed it.
 *
 * Exits 77 (skipped, reason printed) when the driver has no IPC entry
 * points.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_run.h"
#include "tcmd.h"

#define N ((1u << 20) + 123u)
#define TAIL 4096u
#define FILL 0xa5c3e1f0u
#define CHILD_IN 3
#define CHILD_OUT 4

static const char *self_exe;

/* The parts of tcmd.h this program uses. */
void
tc_pattern(void *buf, size_t n, unsigned seed)
{
	unsigned char *b = buf;
	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(seed + i * 131 + (i >> 8));
}

bool
tc_check_pattern(const void *buf, size_t n, unsigned seed)
{
	const unsigned char *b = buf;
	for (size_t i = 0; i < n; i++)
		if (b[i] != (unsigned char)(seed + i * 131 + (i >> 8)))
			return false;
	return true;
}

static int
full_io(int fd, void *buf, size_t n, bool wr)
{
	char *p = buf;
	while (n) {
		ssize_t k = wr ? write(fd, p, n) : read(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* ---- child: import and write with the copy engine --------------------- */

#define STEP(expr)                                                          \
	do {                                                                \
		ze_result_t r_ = (expr);                                    \
		if (r_ != want) {                                           \
			fprintf(stderr, "child: %s = 0x%x (wanted 0x%x)\n", \
				#expr, r_, want);                           \
			return r_ ? (int)r_ : -1;                           \
		}                                                           \
	} while (0)

static int
child_work(void)
{
	int rc = zt_setup_plain();
	if (rc)
		return rc;
	ze_result_t want = ZE_RESULT_SUCCESS;
	ze_ipc_mem_handle_t h;
	if (full_io(CHILD_IN, &h, sizeof(h), false))
		return -1;
	void *p = NULL;
	STEP(zt.mem.pfnOpenIpcHandle(zt.ctx, zt.dev, h, 0, &p));
	ze_command_queue_desc_t qd = { ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       NULL, 1, 0, 0, 0, 0 };
	ze_command_list_handle_t l;
	STEP(zt.list.pfnCreateImmediate(zt.ctx, zt.dev, &qd, &l));
	char *src = malloc(N);
	if (!src)
		return -1;
	tc_pattern(src, N - TAIL, 42);
	uint32_t fill = FILL;
	STEP(zt.list.pfnAppendMemoryCopy(l, p, src, N - TAIL, NULL, 0, NULL));
	STEP(zt.list.pfnAppendMemoryFill(l, (char *)p + N - TAIL, &fill, 4,
					 TAIL, NULL, 0, NULL));
	STEP(zt.list.pfnHostSynchronize(l, UINT64_MAX));
	/* The imported range is known: running past it is refused. */
	want = ZE_RESULT_ERROR_INVALID_SIZE;
	STEP(zt.list.pfnAppendMemoryCopy(l, (char *)p + 16, src, N, NULL, 0,
					 NULL));
	want = ZE_RESULT_SUCCESS;
	free(src);
	STEP(zt.list.pfnDestroy(l));
	STEP(zt.mem.pfnCloseIpcHandle(zt.ctx, p));
	STEP(zt.context.pfnDestroy(zt.ctx));
	return 0;
}

static int
child_events(void)
{
	int rc = zt_setup_plain();
	if (rc)
		return rc;
	ze_result_t want = ZE_RESULT_SUCCESS;
	ze_ipc_event_pool_handle_t h;
	if (full_io(CHILD_IN, &h, sizeof(h), false))
		return -1;
	ze_event_pool_handle_t pool = NULL;
	STEP(zt.event_pool.pfnOpenIpcHandle(zt.ctx, h, &pool));
	/* An imported pool hands out no handle of its own. */
	want = ZE_RESULT_ERROR_INVALID_ARGUMENT;
	STEP(zt.event_pool.pfnGetIpcHandle(pool, &h));
	want = ZE_RESULT_SUCCESS;
	ze_event_handle_t ev[3];
	for (uint32_t i = 0; i < 3; i++) {
		ze_event_desc_t ed = { ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, i,
				       ZE_EVENT_SCOPE_FLAG_HOST,
				       ZE_EVENT_SCOPE_FLAG_HOST };
		STEP(zt.event.pfnCreate(pool, &ed, &ev[i]));
	}
	int go = 1;
	if (full_io(CHILD_OUT, &go, sizeof(go), true))
		return -1;
	/* The parent signals ev[0] from its host after a while: this sleeps
	 * on the shared futex word until then. */
	STEP(zt.event.pfnHostSynchronize(ev[0], UINT64_MAX));
	STEP(zt.event.pfnQueryStatus(ev[0]));
	ze_command_queue_desc_t qd = { ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       NULL, 0, 0, 0,
				       ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, 0 };
	ze_command_list_handle_t l;
	STEP(zt.list.pfnCreateImmediate(zt.ctx, zt.dev, &qd, &l));
	static char a[4096], b[4096];
	STEP(zt.list.pfnAppendMemoryCopy(l, b, a, sizeof(a), ev[1], 0, NULL));
	STEP(zt.list.pfnHostSynchronize(l, UINT64_MAX));
	STEP(zt.event.pfnHostSignal(ev[2]));
	/* The parent resets ev[2] once it saw it, then answers. */
	if (full_io(CHILD_IN, &go, sizeof(go), false))
		return -1;
	want = ZE_RESULT_NOT_READY;
	STEP(zt.event.pfnQueryStatus(ev[2]));
	want = ZE_RESULT_SUCCESS;
	STEP(zt.list.pfnDestroy(l));
	/* Events first: the pool is in use while they live. */
	want = ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE;
	STEP(zt.event_pool.pfnCloseIpcHandle(pool));
	want = ZE_RESULT_SUCCESS;
	for (uint32_t i = 0; i < 3; i++)
		STEP(zt.event.pfnDestroy(ev[i]));
	STEP(zt.event_pool.pfnCloseIpcHandle(pool));
	STEP(zt.context.pfnDestroy(zt.ctx));
	return 0;
}

/* A counter-based event of the parent: seen armed (not complete), waited
 * on until the parent's op completes it, re-armed by a second append of
 * the parent (no reset) and waited on again; an opened event may not be
 * signalled here. */
static int
child_cb(void)
{
	int rc = zt_setup_plain();
	if (rc)
		return rc;
	ze_result_t want = ZE_RESULT_SUCCESS;
	ze_ipc_event_counter_based_handle_t h;
	if (full_io(CHILD_IN, &h, sizeof(h), false))
		return -1;
	ze_event_handle_t e = NULL;
	STEP(zt.event.pfnCounterBasedOpenIpcHandle(zt.ctx, h, &e));
	ze_event_counter_based_flags_t fl = 0;
	STEP(zt.event.pfnGetCounterBasedFlags(e, &fl));
	if (fl != (ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE |
		   ZE_EVENT_COUNTER_BASED_FLAG_IPC)) {
		fprintf(stderr, "child: flags 0x%x\n", fl);
		return -1;
	}
	ze_command_queue_desc_t qd = { ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       NULL, 0, 0, 0,
				       ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, 0 };
	ze_command_list_handle_t l;
	STEP(zt.list.pfnCreateImmediate(zt.ctx, zt.dev, &qd, &l));
	want = ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
	STEP(zt.list.pfnAppendBarrier(l, e, 0, NULL));
	STEP(zt.event.pfnHostSignal(e));
	for (int round = 0; round < 2; round++) {
		int go = 0;
		if (round && full_io(CHILD_IN, &go, sizeof(go), false))
			return -1;
		want = ZE_RESULT_NOT_READY;
		STEP(zt.event.pfnQueryStatus(e));
		go = 1;
		if (full_io(CHILD_OUT, &go, sizeof(go), true))
			return -1;
		/* Sleeps on the shared word until the parent's op ran. */
		want = ZE_RESULT_SUCCESS;
		STEP(zt.event.pfnHostSynchronize(e, UINT64_MAX));
		/* A wait in a list of this process: already satisfied. */
		STEP(zt.list.pfnAppendBarrier(l, NULL, 1, &e));
		STEP(zt.list.pfnHostSynchronize(l, UINT64_MAX));
		if (full_io(CHILD_OUT, &go, sizeof(go), true))
			return -1;
	}
	STEP(zt.list.pfnDestroy(l));
	STEP(zt.event.pfnCounterBasedCloseIpcHandle(e));
	STEP(zt.context.pfnDestroy(zt.ctx));
	return 0;
}

static int
child_main(int mode)
{
	int rc = mode == 2 ? child_cb() : mode ? child_events() : child_work();
	full_io(CHILD_OUT, &rc, sizeof(rc), true);
	return rc ? 1 : 0;
}

/* ---- parent ------------------------------------------------------------ */

static pid_t
start_child(int *to, int *from, const char *mode)
{
	int a[2], b[2];
	ck_assert_int_eq(pipe2(a, O_CLOEXEC), 0);
	ck_assert_int_eq(pipe2(b, O_CLOEXEC), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		/* dup2 clears close-on-exec on the copies. */
		if (dup2(a[0], CHILD_IN) < 0 || dup2(b[1], CHILD_OUT) < 0)
			_exit(127);
		execl(self_exe, self_exe, mode, (char *)NULL);
		_exit(127);
	}
	close(a[0]);
	close(b[1]);
	*to = a[1];
	*from = b[0];
	return pid;
}

START_TEST(test_ipc_copy_into_imported_memory)
{
	unsigned char *mem = NULL;
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, N, 0, zt.dev,
					       (void **)&mem),
			 ZE_RESULT_SUCCESS);
	memset(mem, 0, N);
	ze_ipc_mem_handle_t h;
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, mem, &h),
			 ZE_RESULT_SUCCESS);
	int to, from, rc = -1, status;
	pid_t pid = start_child(&to, &from, "--child");
	ck_assert_int_eq(full_io(to, &h, sizeof(h), true), 0);
	ck_assert_int_eq(full_io(from, &rc, sizeof(rc), false), 0);
	close(to);
	close(from);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(rc == 0, "child failed with 0x%x (see stderr)", rc);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert(tc_check_pattern(mem, N - TAIL, 42));
	for (size_t i = N - TAIL; i < N; i += 4) {
		uint32_t v;
		memcpy(&v, mem + i, 4);
		ck_assert_uint_eq(v, FILL);
	}
	if (zt.mem.pfnPutIpcHandle)
		ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, h),
				 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, mem), ZE_RESULT_SUCCESS);
}
END_TEST

static ze_event_handle_t
pool_event(ze_event_pool_handle_t pool, uint32_t i)
{
	ze_event_desc_t ed = { ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, i,
			       ZE_EVENT_SCOPE_FLAG_HOST,
			       ZE_EVENT_SCOPE_FLAG_HOST };
	ze_event_handle_t e = NULL;
	ck_assert_int_eq(zt.event.pfnCreate(pool, &ed, &e), ZE_RESULT_SUCCESS);
	return e;
}

START_TEST(test_ipc_event_pool_errors)
{
	ze_event_pool_desc_t pd = { ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
				    ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 2 };
	ze_event_pool_handle_t local = NULL;
	ck_assert_int_eq(zt.event_pool.pfnCreate(zt.ctx, &pd, 0, NULL, &local),
			 ZE_RESULT_SUCCESS);
	ze_ipc_event_pool_handle_t h;
	ck_assert_int_eq(zt.event_pool.pfnGetIpcHandle(local, &h),
			 ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
	ck_assert_int_eq(zt.event_pool.pfnGetIpcHandle(NULL, &h),
			 ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	ck_assert_int_eq(zt.event_pool.pfnGetIpcHandle(local, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	ck_assert_int_eq(zt.event_pool.pfnCloseIpcHandle(local),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ze_event_pool_handle_t out = NULL;
	memset(&h, 0x5a, sizeof(h));
	ck_assert_int_ne(zt.event_pool.pfnOpenIpcHandle(zt.ctx, h, &out),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_null(out);
	ck_assert_int_eq(zt.event_pool.pfnOpenIpcHandle(zt.ctx, h, NULL),
			 ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	/* A memory handle is no event pool handle. */
	void *m = NULL;
	ck_assert_int_eq(zt.mem.pfnAllocDevice(zt.ctx, &zt_ddesc, 1 << 20, 0,
					       zt.dev, &m),
			 ZE_RESULT_SUCCESS);
	memset(m, 0, 1 << 20);
	ze_ipc_mem_handle_t mh;
	ck_assert_int_eq(zt.mem.pfnGetIpcHandle(zt.ctx, m, &mh),
			 ZE_RESULT_SUCCESS);
	memcpy(h.data, mh.data, sizeof(h.data));
	ck_assert_int_eq(zt.event_pool.pfnOpenIpcHandle(zt.ctx, h, &out),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	ck_assert_ptr_null(out);
	ck_assert_int_eq(zt.mem.pfnPutIpcHandle(zt.ctx, mh), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.mem.pfnFree(zt.ctx, m), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(local), ZE_RESULT_SUCCESS);
}
END_TEST

/* Opened in the exporting process itself (as Intel's tracing tests do):
 * both pools name the same events. */
START_TEST(test_ipc_event_pool_same_process)
{
	ze_event_pool_desc_t pd = { ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
				    ZE_EVENT_POOL_FLAG_IPC, 4 };
	ze_event_pool_handle_t pool = NULL, twin = NULL;
	ck_assert_int_eq(zt.event_pool.pfnCreate(zt.ctx, &pd, 0, NULL, &pool),
			 ZE_RESULT_SUCCESS);
	ze_event_handle_t a = pool_event(pool, 3);
	ze_ipc_event_pool_handle_t h;
	ck_assert_int_eq(zt.event_pool.pfnGetIpcHandle(pool, &h),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnOpenIpcHandle(zt.ctx, h, &twin),
			 ZE_RESULT_SUCCESS);
	ze_event_pool_flags_t fl = 0;
	ck_assert_int_eq(zt.event_pool.pfnGetFlags(twin, &fl),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_eq(fl, ZE_EVENT_POOL_FLAG_IPC);
	ze_event_handle_t b = pool_event(twin, 3);
	ck_assert_int_eq(zt.event.pfnQueryStatus(b), ZE_RESULT_NOT_READY);
	ck_assert_int_eq(zt.event.pfnHostSignal(a), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostSynchronize(b, UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostReset(b), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnQueryStatus(a), ZE_RESULT_NOT_READY);
	/* Destroying the exporter's pool does not take the memory from
	 * under the opened one. */
	ck_assert_int_eq(zt.event.pfnDestroy(a), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnPutIpcHandle(zt.ctx, h),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(pool), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostSignal(b), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnQueryStatus(b), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(b), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnCloseIpcHandle(twin),
			 ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_ipc_event_pool_two_processes)
{
	ze_event_pool_desc_t pd = { ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
				    ZE_EVENT_POOL_FLAG_HOST_VISIBLE |
					    ZE_EVENT_POOL_FLAG_IPC |
					    ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP,
				    3 };
	ze_event_pool_handle_t pool = NULL;
	ck_assert_int_eq(zt.event_pool.pfnCreate(zt.ctx, &pd, 0, NULL, &pool),
			 ZE_RESULT_SUCCESS);
	ze_event_handle_t ev[3];
	for (uint32_t i = 0; i < 3; i++)
		ev[i] = pool_event(pool, i);
	ze_ipc_event_pool_handle_t h;
	ck_assert_int_eq(zt.event_pool.pfnGetIpcHandle(pool, &h),
			 ZE_RESULT_SUCCESS);
	int to, from, rc = -1, go = 0, status;
	pid_t pid = start_child(&to, &from, "--child-events");
	ck_assert_int_eq(full_io(to, &h, sizeof(h), true), 0);
	ck_assert_int_eq(full_io(from, &go, sizeof(go), false), 0);
	ck_assert_int_eq(go, 1);
	/* Let the child fall asleep on ev[0] first. */
	usleep(50000);
	ck_assert_int_eq(zt.event.pfnQueryStatus(ev[1]), ZE_RESULT_NOT_READY);
	ck_assert_int_eq(zt.event.pfnHostSignal(ev[0]), ZE_RESULT_SUCCESS);
	/* Signalled in the child by a copy's completion, then by its host:
	 * these sleep on the shared words too. */
	ck_assert_int_eq(zt.event.pfnHostSynchronize(ev[1], UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnHostSynchronize(ev[2], UINT64_MAX),
			 ZE_RESULT_SUCCESS);
	ze_kernel_timestamp_result_t ts;
	ck_assert_int_eq(zt.event.pfnQueryKernelTimestamp(ev[1], &ts),
			 ZE_RESULT_SUCCESS);
	ck_assert_uint_ne(ts.global.kernelEnd, 0);
	ck_assert_uint_ge(ts.global.kernelEnd, ts.global.kernelStart);
	ck_assert_int_eq(zt.event.pfnHostReset(ev[2]), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(full_io(to, &go, sizeof(go), true), 0);
	ck_assert_int_eq(full_io(from, &rc, sizeof(rc), false), 0);
	close(to);
	close(from);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(rc == 0, "child failed with 0x%x (see stderr)", rc);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_int_eq(zt.event_pool.pfnPutIpcHandle(zt.ctx, h),
			 ZE_RESULT_SUCCESS);
	for (uint32_t i = 0; i < 3; i++)
		ck_assert_int_eq(zt.event.pfnDestroy(ev[i]), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(pool), ZE_RESULT_SUCCESS);
}
END_TEST

START_TEST(test_ipc_counter_based_event_two_processes)
{
	ze_event_counter_based_desc_t d = {
		ZE_STRUCTURE_TYPE_EVENT_COUNTER_BASED_DESC, NULL,
		ZE_EVENT_COUNTER_BASED_FLAG_IMMEDIATE |
			ZE_EVENT_COUNTER_BASED_FLAG_IPC,
		0, 0 };
	ze_event_handle_t e = NULL;
	ck_assert_int_eq(zt.event.pfnCounterBasedCreate(zt.ctx, zt.dev, &d,
							&e),
			 ZE_RESULT_SUCCESS);
	ze_event_pool_handle_t gp = NULL;
	ze_event_pool_desc_t pd = { ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
				    0, 2 };
	ck_assert_int_eq(zt.event_pool.pfnCreate(zt.ctx, &pd, 0, NULL, &gp),
			 ZE_RESULT_SUCCESS);
	ze_event_handle_t gate[2] = { pool_event(gp, 0), pool_event(gp, 1) };
	ze_command_queue_desc_t qd = { ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
				       NULL, 0, 0, 0,
				       ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS, 0 };
	ze_command_list_handle_t l = NULL;
	ck_assert_int_eq(zt.list.pfnCreateImmediate(zt.ctx, zt.dev, &qd, &l),
			 ZE_RESULT_SUCCESS);
	/* Armed before the child sees it. */
	ck_assert_int_eq(zt.list.pfnAppendBarrier(l, e, 1, &gate[0]),
			 ZE_RESULT_SUCCESS);
	ze_ipc_event_counter_based_handle_t h, h2;
	ck_assert_int_eq(zt.event.pfnCounterBasedGetIpcHandle(e, &h),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnCounterBasedGetIpcHandle(e, &h2),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(memcmp(&h, &h2, sizeof(h)), 0);
	int to, from, rc = -1, go = 0, status;
	pid_t pid = start_child(&to, &from, "--child-cb");
	ck_assert_int_eq(full_io(to, &h, sizeof(h), true), 0);
	for (int round = 0; round < 2; round++) {
		if (round) {
			/* Re-armed by a second append, no reset. */
			ck_assert_int_eq(zt.list.pfnAppendBarrier(l, e, 1,
								  &gate[1]),
					 ZE_RESULT_SUCCESS);
			ck_assert_int_eq(full_io(to, &go, sizeof(go), true),
					 0);
		}
		ck_assert_int_eq(full_io(from, &go, sizeof(go), false), 0);
		ck_assert_int_eq(go, 1);
		ck_assert_int_eq(zt.event.pfnQueryStatus(e),
				 ZE_RESULT_NOT_READY);
		ck_assert_int_eq(zt.event.pfnHostSignal(gate[round]),
				 ZE_RESULT_SUCCESS);
		ck_assert_int_eq(zt.event.pfnHostSynchronize(e, UINT64_MAX),
				 ZE_RESULT_SUCCESS);
		/* The child saw it complete too. */
		ck_assert_int_eq(full_io(from, &go, sizeof(go), false), 0);
	}
	ck_assert_int_eq(full_io(from, &rc, sizeof(rc), false), 0);
	close(to);
	close(from);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(rc == 0, "child failed with 0x%x (see stderr)", rc);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ck_assert_int_eq(zt.list.pfnDestroy(l), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(gate[0]), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(gate[1]), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event_pool.pfnDestroy(gp), ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.event.pfnDestroy(e), ZE_RESULT_SUCCESS);
}
END_TEST

int
main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--child"))
		return child_main(0);
	if (argc > 1 && !strcmp(argv[1], "--child-events"))
		return child_main(1);
	if (argc > 1 && !strcmp(argv[1], "--child-cb"))
		return child_main(2);
	self_exe = "/proc/self/exe";
	struct zt probe;
	memset(&probe, 0, sizeof(probe));
	if (zt_load_version(&probe, ZE_API_VERSION_CURRENT))
		return EXIT_FAILURE;
	if (!probe.mem.pfnGetIpcHandle || !probe.mem.pfnOpenIpcHandle ||
	    !probe.mem.pfnCloseIpcHandle) {
		printf("skipped: the driver has no IPC entry points "
		       "(zeMemGetIpcHandle / OpenIpcHandle): driver/ipc is "
		       "not built in\n");
		return 77;
	}
	Suite *s = suite_create("cmd-ipc");
	TCase *tc = tcase_create("ipc");
	tcase_add_checked_fixture(tc, zt_checked_setup, zt_checked_teardown);
	tcase_add_test(tc, test_ipc_copy_into_imported_memory);
	tcase_add_test(tc, test_ipc_event_pool_errors);
	tcase_add_test(tc, test_ipc_event_pool_same_process);
	tcase_add_test(tc, test_ipc_event_pool_two_processes);
	tcase_add_test(tc, test_ipc_counter_based_event_two_processes);
	suite_add_tcase(s, tc);
	return check_run(s, CK_NORMAL, false);
}
