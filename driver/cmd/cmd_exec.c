// SPDX-License-Identifier: MIT
/*
 * cmd_exec: what a worker does for one op: wait for its events, move the
 * data, publish progress, signal its event with start/end timestamps.
 *
 * Vocabulary:
 *   copy     one memcpy of the whole range: the C library's memcpy is the
 *            baseline the copy engine is measured against, so it is used on
 *            the full size (no chunking, no per-byte work). Overlapping
 *            ranges are refused at append time.
 *   fill     a pattern of 1..128 bytes (a power of two). One-byte and
 *            uniform patterns below the streaming threshold are memset.
 *            Others, and every fill past it: the head up to a 64-byte
 *            boundary is copied from a replicated pattern, the body is
 *            written 128 bytes per iteration from vector registers holding
 *            the pattern in the right phase (AVX2 where the CPU has it, else
 *            SSE2, else memcpy of a 128-byte line), with non-temporal stores
 *            from half the last-level cache up (faster than memset there);
 *            the tail is copied from the same line.
 *   region   a 2D/3D strided copy: one memcpy per row, or per slice (or in
 *            total) when rows or slices are contiguous on both sides.
 *
 *   checks   an op on a VMM range first asks the range's access
 *            attribute (zeVirtualMemGetAccessAttribute, at run time: it may
 *            have changed since the append); one on system memory runs
 *            under a guard (cmd_guard.c). A write into read-only memory, or
 *            any access to memory without access, fails the op instead of
 *            raising SIGSEGV on the worker: its event is signalled as
 *            lost, the rest of its batch is skipped, and the queue, its
 *            fence and the event report ZE_RESULT_ERROR_DEVICE_LOST, what
 *            a GPU's page fault gives with Intel's driver. Nothing is
 *            written into a refused VMM range; on system memory the bytes
 *            before the faulting page may have been. USM allocations and
 *            IPC imports are mapped read-write by the driver: no check, no
 *            cost.
 *
 * No locks here; event and progress publication go through cmd_sync.c and
 * cmd_mem.c.
 */
#include "cmd.h"
#include "vmm/vmm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "u_os.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#define LINE 128u

static pthread_once_t fill_once = PTHREAD_ONCE_INIT;
static size_t nt_threshold;  /* bytes; set once */
static bool have_avx2;

/* The last-level cache one core sees (u_cpu_caches: sysfs first, since
 * sysconf reports the whole package's L3 on AMD EPYC: 256 MiB where a
 * core has 32); 0 if unknown. */
static size_t
llc_size(void)
{
	uint64_t sizes[8], best = 0;
	unsigned n = u_cpu_caches(sizes, 8);
	for (unsigned i = 0; i < n; i++)
		if (sizes[i] > best)
			best = sizes[i];
	return (size_t)best;
}

static void
fill_init(void)
{
	/* Streaming stores win once a fill no longer fits in half the last
	 * level cache (measured: 2x regular stores and memset at 16 MiB on a
	 * 32 MiB-L3 EPYC, 0.45x at 4 MiB). */
	size_t llc = llc_size();
	nt_threshold = llc ? llc / 2 : 16u << 20;
	if (nt_threshold < (4u << 20))
		nt_threshold = 4u << 20;
#if defined(__x86_64__)
	__builtin_cpu_init();
	have_avx2 = __builtin_cpu_supports("avx2");
#endif
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) static void
store_avx2(uint8_t *d, const uint8_t *line, size_t n, bool nt)
{
	const __m256i a = _mm256_loadu_si256((const __m256i *)line);
	const __m256i b = _mm256_loadu_si256((const __m256i *)(line + 32));
	const __m256i c = _mm256_loadu_si256((const __m256i *)(line + 64));
	const __m256i e = _mm256_loadu_si256((const __m256i *)(line + 96));
	if (nt) {
		for (size_t i = 0; i < n; i += LINE) {
			_mm256_stream_si256((__m256i *)(d + i), a);
			_mm256_stream_si256((__m256i *)(d + i + 32), b);
			_mm256_stream_si256((__m256i *)(d + i + 64), c);
			_mm256_stream_si256((__m256i *)(d + i + 96), e);
		}
		_mm_sfence();
	} else {
		for (size_t i = 0; i < n; i += LINE) {
			_mm256_store_si256((__m256i *)(d + i), a);
			_mm256_store_si256((__m256i *)(d + i + 32), b);
			_mm256_store_si256((__m256i *)(d + i + 64), c);
			_mm256_store_si256((__m256i *)(d + i + 96), e);
		}
	}
}

static void
store_sse2(uint8_t *d, const uint8_t *line, size_t n, bool nt)
{
	__m128i v[8];
	for (int k = 0; k < 8; k++)
		v[k] = _mm_loadu_si128((const __m128i *)(line + 16 * k));
	if (nt) {
		for (size_t i = 0; i < n; i += LINE)
			for (int k = 0; k < 8; k++)
				_mm_stream_si128((__m128i *)(d + i + 16 * k),
						 v[k]);
		_mm_sfence();
	} else {
		for (size_t i = 0; i < n; i += LINE)
			for (int k = 0; k < 8; k++)
				_mm_store_si128((__m128i *)(d + i + 16 * k),
						v[k]);
	}
}
#endif

/* Writes n bytes (a multiple of LINE) at d (64-byte aligned) from line. */
static void
store_lines(uint8_t *d, const uint8_t *line, size_t n)
{
	bool nt = n >= nt_threshold;
#if defined(__x86_64__)
	if (have_avx2)
		store_avx2(d, line, n, nt);
	else
		store_sse2(d, line, n, nt);
#else
	(void)nt;
	for (size_t i = 0; i < n; i += LINE)
		memcpy(d + i, line, LINE);
#endif
}

void
cmd_fill(void *dst, size_t size, const uint8_t *pattern, uint32_t psize)
{
	if (!size)
		return;
	pthread_once(&fill_once, fill_init);
	bool uniform = true;
	for (uint32_t i = 1; i < psize && uniform; i++)
		uniform = pattern[i] == pattern[0];
	if (uniform && size < nt_threshold) {
		memset(dst, pattern[0], size);
		return;
	}
	/* Two lines of pattern from phase 0: any phase p < psize <= LINE
	 * starts a full line at rep + p. */
	uint8_t rep[2 * LINE];
	for (uint32_t i = 0; i < 2 * LINE; i += psize)
		memcpy(rep + i, pattern, psize);
	uint8_t *d = dst;
	if (size <= 2 * LINE) {
		memcpy(d, rep, size);
		return;
	}
	size_t head = (64 - ((uintptr_t)d & 63)) & 63;
	memcpy(d, rep, head);
	const uint8_t *line = rep + head % psize;
	size_t body = (size - head) & ~(size_t)(LINE - 1);
	store_lines(d + head, line, body);
	memcpy(d + head + body, line, size - head - body);
}

static void
region_copy(const struct cmd_op *op)
{
	const struct cmd_region *r = &op->u.region;
	size_t w = r->width, h = r->height;
	if (!w)
		return;
	bool rows_packed = (h == 1 || (r->dpitch == w && r->spitch == w));
	bool slices_packed = rows_packed &&
		(r->depth == 1 ||
		 (r->dslice == w * h && r->sslice == w * h));
	if (slices_packed) {
		memcpy(r->dst, r->src, w * h * r->depth);
		return;
	}
	for (size_t z = 0; z < r->depth; z++) {
		char *d = r->dst + z * r->dslice;
		const char *s = r->src + z * r->sslice;
		if (rows_packed) {
			memcpy(d, s, w * h);
			continue;
		}
		for (size_t y = 0; y < h; y++)
			memcpy(d + y * r->dpitch, s + y * r->spitch, w);
	}
}

bool
cmd_op_range(const struct cmd_op *op, int k, uintptr_t *lo, uintptr_t *hi)
{
	switch (op->kind) {
	case CMD_OP_COPY:
		if (!op->u.copy.size)
			return false;
		*lo = (uintptr_t)(k ? op->u.copy.src : op->u.copy.dst);
		*hi = *lo + op->u.copy.size;
		return true;
	case CMD_OP_TIMESTAMP:
		if (k)
			return false;
		*lo = (uintptr_t)op->u.copy.dst;
		*hi = *lo + sizeof(uint64_t);
		return true;
	case CMD_OP_FILL:
		if (k || !op->u.fill.size)
			return false;
		*lo = (uintptr_t)op->u.fill.dst;
		*hi = *lo + op->u.fill.size;
		return true;
	case CMD_OP_REGION: {
		const struct cmd_region *r = &op->u.region;
		if (!r->width)
			return false;
		*lo = (uintptr_t)(k ? r->src : r->dst);
		*hi = *lo + (r->depth - 1) * (k ? r->sslice : r->dslice) +
		      (r->height - 1) * (k ? r->spitch : r->dpitch) +
		      r->width;
		return true;
	}
	default:
		return false;
	}
}

/* ---- access checks --------------------------------------------------- */

/* Does the access attribute of every page of [p, p + size), a VMM range
 * of ctx, allow reading (or writing) it? Asked at run time: the
 * attribute may have changed since the append. */
static bool
vmm_allows(struct _ze_context_handle_t *ctx, const void *p, size_t size,
	   bool write)
{
	size_t page = u_page_size();
	uintptr_t lo = (uintptr_t)p & ~(uintptr_t)(page - 1);
	uintptr_t hi = ((uintptr_t)p + size + page - 1) &
		       ~(uintptr_t)(page - 1);
	/* One answer per run of equal access; a range has few. */
	while (lo < hi) {
		ze_memory_access_attribute_t at;
		size_t run = 0;
		if (drv_zeVirtualMemGetAccessAttribute(ctx, (void *)lo,
						       hi - lo, &at, &run) ||
		    !run)
			return false;
		if (at == ZE_MEMORY_ACCESS_ATTRIBUTE_NONE ||
		    (write && at == ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY))
			return false;
		lo += run;
	}
	return true;
}

/* Checks the sides of op that lie in VMM ranges. */
static int
check_vmm_op(struct _ze_command_queue_handle_t *q, const struct cmd_op *op)
{
	for (int k = 0; k < 2; k++) {
		uintptr_t lo, hi;
		uint8_t bit = k ? CMD_VMM_SRC : CMD_VMM_DST;
		if ((op->probe & bit) && cmd_op_range(op, k, &lo, &hi) &&
		    !vmm_allows(q->ctx, (const void *)lo, hi - lo, k == 0)) {
			u_warn("cmd", "%s %zu bytes at %p: the virtual memory "
				      "range does not allow it (read-only or no "
				      "access): the op fails",
			       k ? "reading" : "writing", (size_t)(hi - lo),
			       (void *)lo);
			return -EFAULT;
		}
	}
	return 0;
}

/* The data part of op; false when it has none (barriers, hints). */
static bool
run_data(const struct cmd_op *op)
{
	switch (op->kind) {
	case CMD_OP_COPY:
		if (op->u.copy.size)
			memcpy(op->u.copy.dst, op->u.copy.src,
			       op->u.copy.size);
		return true;
	case CMD_OP_FILL:
		cmd_fill(op->u.fill.dst, op->u.fill.size, op->u.fill.pattern,
			 op->u.fill.psize);
		return true;
	case CMD_OP_REGION:
		region_copy(op);
		return true;
	case CMD_OP_TIMESTAMP: {
		uint64_t now = u_now_ns();
		memcpy(op->u.copy.dst, &now, sizeof(now));
		return true;
	}
	case CMD_OP_BARRIER:
	case CMD_OP_SIGNAL:
	case CMD_OP_WAIT:
	case CMD_OP_RESET:
	case CMD_OP_PREFETCH:
	case CMD_OP_ADVISE:
		/* In-order execution: a barrier is already satisfied; hints
		 * have no data effect on a CPU device. */
		break;
	}
	return false;
}

/* run_data under a guard (cmd_guard.c): -EFAULT when the op faulted on
 * system memory. The jump lands in this frame only. */
static int
guarded_data(const struct cmd_op *op, bool *data)
{
	struct cmd_guard g;
	if (!cmd_guard_prepare(&g, op)) {
		*data = run_data(op);
		return 0;
	}
	if (sigsetjmp(g.jb, 0)) {
		cmd_guard_done(&g);
		u_warn("cmd", "%s during an op on system memory (dst %#lx, src "
			      "%#lx): the process may not access it there; the "
			      "op fails",
		       g.sig == SIGBUS ? "SIGBUS" : "SIGSEGV",
		       (unsigned long)g.lo[0], (unsigned long)g.lo[1]);
		return -EFAULT;
	}
	g.armed = 1;
	*data = run_data(op);
	cmd_guard_done(&g);
	return 0;
}

/* What op read and wrote, added to its queue's device's counters (Sysman's
 * memory bandwidth): a copy reads and writes its size, a fill writes its
 * size, a region copy reads and writes width * height * depth, a
 * timestamp writes 8 bytes. */
static void
count_bytes(struct _ze_device_handle_t *dev, const struct cmd_op *op)
{
	uint64_t rd = 0, wr = 0;
	switch (op->kind) {
	case CMD_OP_COPY:
		rd = wr = op->u.copy.size;
		break;
	case CMD_OP_FILL:
		wr = op->u.fill.size;
		break;
	case CMD_OP_REGION:
		rd = wr = (uint64_t)op->u.region.width * op->u.region.height *
			  op->u.region.depth;
		break;
	case CMD_OP_TIMESTAMP:
		wr = sizeof(uint64_t);
		break;
	default:
		return;
	}
	if (rd)
		atomic_fetch_add_explicit(&dev->bytes_read, rd,
					  memory_order_relaxed);
	if (wr)
		atomic_fetch_add_explicit(&dev->bytes_written, wr,
					  memory_order_relaxed);
}

void
cmd_skip_op(struct cmd_op *op)
{
	if (op->signal && op->kind != CMD_OP_RESET) {
		uint64_t now = cmd_event_now(op->signal);
		cmd_event_signal(op->signal, now, now, CMD_SLOT_LOST);
	}
}

/* The op past its event waits: checks, data, progress, signal. */
static int
run_op(struct _ze_command_queue_handle_t *q, struct cmd_batch *b,
       struct cmd_op *op)
{
	if ((op->probe & (CMD_VMM_DST | CMD_VMM_SRC)) && check_vmm_op(q, op)) {
		cmd_skip_op(op);
		return -EFAULT;
	}
	uint64_t start = op->signal ? cmd_event_now(op->signal) : 0;
	bool data;
	if (op->probe & (CMD_SYS_DST | CMD_SYS_SRC)) {
		if (guarded_data(op, &data)) {
			cmd_skip_op(op);
			return -EFAULT;
		}
	} else {
		data = run_data(op);
	}
	if (data)
		count_bytes(q->dev, op);
	atomic_fetch_add_explicit(&b->progress, 1, memory_order_release);
	cmd_mem_progress();
	if (op->signal) {
		if (op->kind == CMD_OP_RESET)
			cmd_event_reset(op->signal);
		else
			cmd_event_signal(op->signal, start,
					 data ? cmd_event_now(op->signal)
					      : start, 0);
	}
	return 0;
}

int
cmd_exec_op(struct _ze_command_queue_handle_t *q, struct cmd_batch *b,
	    struct cmd_op *op)
{
	if (op->nwait) {
		int err = cmd_events_wait(op->wait, op->nwait, q);
		if (err)
			return err;
	}
	/* Higher-priority work of the engine first (cmd_prio.c). */
	bool counted = cmd_prio_enter(q);
	int err = run_op(q, b, op);
	if (counted)
		cmd_prio_exit(q);
	return err;
}
