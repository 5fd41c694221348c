// SPDX-License-Identifier: MIT
/*
 * zemem-demo: one producer and N consumer processes sharing device memory
 * through Level Zero IPC handles.
 *
 *   producer  allocates device memory (--size, default 64 MiB), fills it
 *             with a pattern and computes its checksum; allocates a host
 *             "results" allocation with one slot per consumer; exports both
 *             (zeMemGetIpcHandle); starts the consumers (fork + exec of this
 *             program with --consumer) and sends each the two 64-byte
 *             handles over a pipe. The driver moves the file descriptors
 *             itself (pidfd_getfd or its broker), so the handles are plain
 *             bytes. It waits for the consumers, reads their slots and
 *             prints a table; exit status 0 only when every check passed.
 *   consumer  opens both handles (zeMemOpenIpcHandle, through the loader),
 *             checksums the shared memory, measures its read bandwidth
 *             against memcpy out of a device allocation of its own of the
 *             same size, writes
 *             checksum, open latency and bandwidths into its slot, closes
 *             the handles.
 *
 * Vocabulary: message = what the producer sends a consumer (struct
 * demo_msg); slot = what a consumer writes back (struct demo_slot), in the
 * shared results allocation; a slot counts only once its state is DONE
 * (stored last, with release order).
 *
 * It is an ordinary Level Zero application (linked with the system's
 * loader); with ZE_ENABLE_VALIDATION_LAYER=1 under zemem's loader it runs
 * without a finding: every handle is closed and put, everything freed.
 */
#include <level_zero/ze_api.h>

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tool_common.h"

#define DEMO_MAGIC 0x6f6d65646d656d7aull /* "zememdemo" */
#define MAX_CONSUMERS 64
#define RESULTS_SIZE ((size_t)128 << 10)
#define WAIT_SECONDS 120
#define ROUNDS 3

struct demo_msg {
	uint64_t magic;
	uint32_t index, consumers;
	uint64_t size;        /* bytes of the shared data */
	uint64_t seed;        /* of the pattern */
	uint64_t checksum;    /* what the producer computed */
	ze_ipc_mem_handle_t data, results;
};

enum { SLOT_EMPTY, SLOT_DONE = 0x600d };

struct demo_slot {
	_Atomic uint32_t state;
	uint32_t index;
	int32_t pid;
	uint32_t checksum_ok;
	uint64_t checksum;    /* what the consumer computed */
	uint64_t open_ns;     /* zeMemOpenIpcHandle of the data */
	double ipc_gbps;      /* memcpy out of the IPC mapping */
	double memcpy_gbps;   /* memcpy out of its own allocation (baseline) */
	char error[112];
};

_Static_assert(MAX_CONSUMERS * sizeof(struct demo_slot) <= RESULTS_SIZE,
	       "the results allocation holds a slot per consumer");

struct demo {
	ze_driver_handle_t drv;
	ze_device_handle_t dev;
	ze_context_handle_t ctx;
};

static void
usage(FILE *f)
{
	fprintf(f,
		"usage: zemem-demo [--consumers N] [--size MiB] [--help]\n"
		"  --consumers N  consumer processes (default 2, at most %d)\n"
		"  --size MiB     device memory to share (default 64)\n"
		"Exit status 0 when every consumer saw the right data.\n",
		MAX_CONSUMERS);
}

static uint64_t
next_word(uint64_t *s)
{
	/* xorshift64 */
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static uint64_t
checksum(const void *p, size_t size)
{
	const uint64_t *w = p;
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < size / 8; i++)
		h = (h ^ w[i]) * 0x100000001b3ull;
	return h;
}

/* The compiler must assume the memory at p is read: a timed memcpy into a
 * buffer nobody reads is not a dead store. */
static inline void
keep(const void *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

static double
median3(double *v)
{
	for (int i = 0; i < ROUNDS; i++)
		for (int k = i + 1; k < ROUNDS; k++)
			if (v[k] < v[i]) {
				double t = v[i];
				v[i] = v[k];
				v[k] = t;
			}
	return v[ROUNDS / 2];
}

static int
setup(struct demo *d, const char *who)
{
	ze_result_t r = zeInit(0);
	uint32_t n = 1;
	if (!r)
		r = zeDriverGet(&n, &d->drv);
	if (r || !n) {
		tool_explain_no_driver(stderr, who,
				       r ? r : ZE_RESULT_ERROR_UNINITIALIZED);
		return -1;
	}
	n = 1;
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	if ((r = zeDeviceGet(d->drv, &n, &d->dev)) || !n ||
	    (r = zeContextCreate(d->drv, &cd, &d->ctx))) {
		fprintf(stderr, "%s: no device or context: %s\n", who,
			tool_result_str(r));
		return -1;
	}
	return 0;
}

/* ---- consumer ---------------------------------------------------------- */

static void
consume(struct demo *d, const struct demo_msg *m, struct demo_slot *slot)
{
	void *data = NULL;
	uint64_t t0 = tool_now_ns();
	ze_result_t r = zeMemOpenIpcHandle(d->ctx, d->dev, m->data, 0, &data);
	slot->open_ns = tool_now_ns() - t0;
	if (r) {
		snprintf(slot->error, sizeof(slot->error),
			 "zeMemOpenIpcHandle: %s", tool_result_str(r));
		return;
	}
	slot->checksum = checksum(data, m->size);
	slot->checksum_ok = slot->checksum == m->checksum;
	if (!slot->checksum_ok)
		snprintf(slot->error, sizeof(slot->error),
			 "checksum 0x%016" PRIx64 ", expected 0x%016" PRIx64,
			 slot->checksum, m->checksum);
	/* The baseline reads a device allocation of this process: the same
	 * kind of memory, without the sharing. */
	char *dst = malloc(m->size), *own = NULL;
	if (zeMemAllocDevice(d->ctx, &(ze_device_mem_alloc_desc_t){
				     ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC,
				     NULL, 0, 0 },
			     m->size, 4096, d->dev, (void **)&own))
		own = NULL;
	if (dst && own) {
		/* Touch both so no page fault lands in a timed copy. */
		memset(dst, 0, m->size);
		memcpy(own, data, m->size);
		keep(own);
		double ipc[ROUNDS], loc[ROUNDS];
		for (int i = 0; i < ROUNDS; i++) {
			uint64_t a = tool_now_ns();
			memcpy(dst, data, m->size);
			keep(dst);
			uint64_t b = tool_now_ns();
			memcpy(dst, own, m->size);
			keep(dst);
			uint64_t c = tool_now_ns();
			ipc[i] = (double)m->size / (double)(b - a);
			loc[i] = (double)m->size / (double)(c - b);
		}
		slot->ipc_gbps = median3(ipc);
		slot->memcpy_gbps = median3(loc);
	} else if (!slot->error[0]) {
		snprintf(slot->error, sizeof(slot->error),
			 "no memory for the bandwidth buffers");
	}
	free(dst);
	if (own)
		zeMemFree(d->ctx, own);
	r = zeMemCloseIpcHandle(d->ctx, data);
	if (r && !slot->error[0]) {
		snprintf(slot->error, sizeof(slot->error),
			 "zeMemCloseIpcHandle: %s", tool_result_str(r));
		slot->checksum_ok = 0;
	}
}

static int
consumer_main(void)
{
	struct demo_msg m;
	struct demo d;
	signal(SIGPIPE, SIG_DFL);
	if (tool_read_all(0, &m, sizeof(m)) || m.magic != DEMO_MAGIC ||
	    m.index >= MAX_CONSUMERS || !m.size) {
		fprintf(stderr, "zemem-demo --consumer: no valid message on "
			"stdin (run zemem-demo without --consumer)\n");
		return 2;
	}
	if (setup(&d, "zemem-demo consumer"))
		return 1;
	void *results = NULL;
	ze_result_t r = zeMemOpenIpcHandle(d.ctx, d.dev, m.results, 0,
					   &results);
	if (r) {
		fprintf(stderr, "zemem-demo consumer %u: opening the results "
			"handle: %s\n", m.index, tool_result_str(r));
		zeContextDestroy(d.ctx);
		return 1;
	}
	struct demo_slot *slot = (struct demo_slot *)results + m.index;
	struct demo_slot mine;
	memset(&mine, 0, sizeof(mine));
	mine.index = m.index;
	mine.pid = (int32_t)getpid();
	consume(&d, &m, &mine);
	/* Everything but the state first; the state last, released. */
	memcpy((char *)slot + sizeof(slot->state),
	       (char *)&mine + sizeof(mine.state),
	       sizeof(mine) - sizeof(mine.state));
	atomic_store_explicit(&slot->state, SLOT_DONE, memory_order_release);
	bool ok = mine.checksum_ok && !mine.error[0];
	if ((r = zeMemCloseIpcHandle(d.ctx, results))) {
		fprintf(stderr, "zemem-demo consumer %u: closing the results "
			"handle: %s\n", m.index, tool_result_str(r));
		ok = false;
	}
	zeContextDestroy(d.ctx);
	return ok ? 0 : 1;
}

/* ---- producer ---------------------------------------------------------- */

struct consumer {
	pid_t pid;
	int status;       /* from waitpid, valid when exited */
	bool exited;
};

/* Waits for every consumer, at most WAIT_SECONDS; kills the late ones. */
static void
wait_all(struct consumer *c, unsigned n)
{
	uint64_t deadline = tool_now_ns() + WAIT_SECONDS * 1000000000ull;
	unsigned left = n;
	while (left) {
		for (unsigned i = 0; i < n; i++) {
			if (c[i].exited || c[i].pid <= 0)
				continue;
			pid_t p = waitpid(c[i].pid, &c[i].status, WNOHANG);
			if (p == c[i].pid || (p < 0 && errno != EINTR)) {
				c[i].exited = true;
				left--;
			}
		}
		if (!left)
			break;
		if (tool_now_ns() > deadline) {
			for (unsigned i = 0; i < n; i++)
				if (!c[i].exited && c[i].pid > 0) {
					fprintf(stderr, "zemem-demo: consumer "
						"%u (pid %d) did not finish in "
						"%d s; killing it\n", i,
						(int)c[i].pid, WAIT_SECONDS);
					kill(c[i].pid, SIGKILL);
				}
			deadline = UINT64_MAX;
		}
		nanosleep(&(struct timespec){ 0, 5000000 }, NULL);
	}
}

/* Prints one consumer's row; returns whether it passed. */
static bool
report_row(unsigned i, const struct consumer *c, const struct demo_slot *s)
{
	char status[160];
	bool done = atomic_load_explicit(&s->state, memory_order_acquire) ==
		    SLOT_DONE;
	bool exited_ok = c->exited && WIFEXITED(c->status) &&
			 WEXITSTATUS(c->status) == 0;
	bool ok = done && s->index == i && s->checksum_ok && !s->error[0] &&
		  exited_ok;
	if (ok)
		snprintf(status, sizeof(status), "ok");
	else if (done && s->error[0])
		snprintf(status, sizeof(status), "FAILED: %s", s->error);
	else if (c->pid <= 0)
		snprintf(status, sizeof(status), "FAILED: could not start");
	else if (c->exited && WIFSIGNALED(c->status))
		snprintf(status, sizeof(status), "FAILED: killed by signal %d",
			 WTERMSIG(c->status));
	else if (!done)
		snprintf(status, sizeof(status), "FAILED: no result (exit "
			 "status %d)", c->exited && WIFEXITED(c->status)
					       ? WEXITSTATUS(c->status) : -1);
	else
		snprintf(status, sizeof(status), "FAILED: exit status %d",
			 WIFEXITED(c->status) ? WEXITSTATUS(c->status) : -1);
	if (done)
		printf("%8u %8d %9.1f %10.2f %10.2f %6.2f  %s\n", i, s->pid,
		       (double)s->open_ns / 1000.0, s->ipc_gbps,
		       s->memcpy_gbps,
		       s->memcpy_gbps > 0 ? s->ipc_gbps / s->memcpy_gbps : 0,
		       status);
	else
		printf("%8u %8d %9s %10s %10s %6s  %s\n", i, (int)c->pid, "-",
		       "-", "-", "-", status);
	return ok;
}

static int
produce(struct demo *d, unsigned n, size_t size)
{
	ze_device_mem_alloc_desc_t dd = {
		ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0
	};
	ze_host_mem_alloc_desc_t hd = { ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC,
					NULL, 0 };
	ze_pfnMemPutIpcHandle_t put =
		TOOL_SYM(ze_pfnMemPutIpcHandle_t, "zeMemPutIpcHandle");
	void *data = NULL, *results = NULL;
	struct demo_msg m;
	struct consumer cons[MAX_CONSUMERS];
	int rc = 1;
	char b1[32], b2[32];
	memset(&m, 0, sizeof(m));
	memset(cons, 0, sizeof(cons));
	ze_result_t r = zeMemAllocDevice(d->ctx, &dd, size, 4096, d->dev,
					 &data);
	if (r) {
		fprintf(stderr, "zemem-demo: zeMemAllocDevice(%zu): %s\n", size,
			tool_result_str(r));
		return 1;
	}
	/* Larger than a pool slot: an allocation with pages of its own. */
	r = zeMemAllocHost(d->ctx, &hd, RESULTS_SIZE, 4096, &results);
	if (r) {
		fprintf(stderr, "zemem-demo: zeMemAllocHost: %s\n",
			tool_result_str(r));
		goto out_data;
	}
	memset(results, 0, RESULTS_SIZE);
	/* zemem's device is the CPU: its device memory is host-addressable,
	 * so the producer writes the pattern directly. */
	m.seed = 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
	uint64_t s = m.seed, *w = data;
	for (size_t i = 0; i < size / 8; i++)
		w[i] = next_word(&s);
	m.magic = DEMO_MAGIC;
	m.consumers = n;
	m.size = size;
	m.checksum = checksum(data, size);
	if ((r = zeMemGetIpcHandle(d->ctx, data, &m.data))) {
		fprintf(stderr, "zemem-demo: zeMemGetIpcHandle (data): %s%s\n",
			tool_result_str(r),
			r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE
				? " (this driver cannot share memory)" : "");
		goto out_results;
	}
	if ((r = zeMemGetIpcHandle(d->ctx, results, &m.results))) {
		fprintf(stderr, "zemem-demo: zeMemGetIpcHandle (results): "
			"%s\n", tool_result_str(r));
		goto out_put_data;
	}
	printf("shared: device memory, %s, a pattern (seed 0x%016" PRIx64
	       "), checksum 0x%016" PRIx64 "\n"
	       "        host memory, %s: one result slot per consumer\n"
	       "        as two 64-byte zeMemGetIpcHandle handles, sent over a "
	       "pipe to each consumer\n\n",
	       tool_human(size, b1, sizeof(b1)), m.seed, m.checksum,
	       tool_human(RESULTS_SIZE, b2, sizeof(b2)));
	fflush(stdout);
	for (unsigned i = 0; i < n; i++) {
		char *argv[] = { (char *)"zemem-demo", (char *)"--consumer",
				 NULL };
		int fd = -1;
		cons[i].pid = tool_spawn(argv, NULL, &fd, NULL);
		if (cons[i].pid < 0) {
			fprintf(stderr, "zemem-demo: cannot start consumer "
				"%u: %s\n", i, strerror(errno));
			cons[i].exited = true;
			continue;
		}
		m.index = i;
		if (tool_write_all(fd, &m, sizeof(m)))
			fprintf(stderr, "zemem-demo: consumer %u did not take "
				"its handles\n", i);
		close(fd);
	}
	wait_all(cons, n);
	printf("%8s %8s %9s %10s %10s %6s  %s\n", "consumer", "pid",
	       "open(us)", "read GB/s", "memcpy", "ratio", "result");
	unsigned passed = 0;
	for (unsigned i = 0; i < n; i++)
		passed += report_row(i, &cons[i],
				     (struct demo_slot *)results + i);
	printf("\nopen = first zeMemOpenIpcHandle of the data in that "
	       "process; read = memcpy out of the\nIPC mapping; memcpy = out "
	       "of a device allocation of the consumer's own, same\nsize "
	       "(GB/s, median of %d alternated rounds).\n", ROUNDS);
	if (passed == n) {
		printf("all checks passed (%u consumers)\n", n);
		rc = 0;
	} else {
		printf("%u of %u consumers FAILED\n", n - passed, n);
	}
	if (put && (r = put(d->ctx, m.results))) {
		fprintf(stderr, "zemem-demo: zeMemPutIpcHandle: %s\n",
			tool_result_str(r));
		rc = 1;
	}
out_put_data:
	if (put && (r = put(d->ctx, m.data))) {
		fprintf(stderr, "zemem-demo: zeMemPutIpcHandle: %s\n",
			tool_result_str(r));
		rc = 1;
	}
out_results:
	zeMemFree(d->ctx, results);
out_data:
	zeMemFree(d->ctx, data);
	return rc;
}

int
main(int argc, char **argv)
{
	unsigned n = 2;
	size_t mib = 64;
	bool consumer = false;
	for (int i = 1; i < argc; i++) {
		char *end = NULL;
		if (!strcmp(argv[i], "--consumer")) {
			consumer = true;
		} else if (!strcmp(argv[i], "--consumers") && i + 1 < argc) {
			unsigned long v = strtoul(argv[++i], &end, 10);
			if (*end || v < 1 || v > MAX_CONSUMERS) {
				usage(stderr);
				return 2;
			}
			n = (unsigned)v;
		} else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
			unsigned long v = strtoul(argv[++i], &end, 10);
			if (*end || v < 1 || v > 65536) {
				usage(stderr);
				return 2;
			}
			mib = v;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (consumer)
		return consumer_main();
	/* A consumer that dies before reading its message must not kill the
	 * producer with SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	const char *chosen = tool_default_driver();
	struct demo d;
	if (setup(&d, "zemem-demo"))
		return 1;
	const char *alt = getenv("ZE_ENABLE_ALT_DRIVERS");
	printf("zemem-demo: 1 producer (pid %d), %u consumers\n"
	       "loader: %s (layers: %s)\n"
	       "driver: %s%s\n", (int)getpid(), n, tool_loader_path(),
	       tool_loader_layers(), alt ? alt : "the loader's default list",
	       !alt ? "" : chosen ? " (ZE_ENABLE_ALT_DRIVERS was unset: "
				    "zemem's own)"
				  : " (ZE_ENABLE_ALT_DRIVERS)");
	ze_driver_ipc_properties_t ip = {
		ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES, NULL, 0
	};
	ze_result_t r = zeDriverGetIpcProperties(d.drv, &ip);
	if (r || !(ip.flags & ZE_IPC_PROPERTY_FLAG_MEMORY)) {
		fprintf(stderr, "zemem-demo: the driver does not share memory "
			"between processes (zeDriverGetIpcProperties: %s, "
			"flags 0x%x)\n", tool_result_str(r), ip.flags);
		zeContextDestroy(d.ctx);
		return 1;
	}
	int rc = produce(&d, n, mib << 20);
	zeContextDestroy(d.ctx);
	return rc;
}
