// SPDX-License-Identifier: MIT
/*
 * cmd_mem: what the copy engine knows about memory: range checks of append
 * arguments, the list of batches in flight, and frees of memory that work
 * still uses (zeMemFree, zeMemFreeExt with BLOCKING_FREE or DEFER_FREE).
 *
 * Vocabulary:
 *   span      what the address map (amap_span, one lookup) says of a
 *             range: in no memory the driver knows, inside memory it
 *             knows, or running past the end of it. Known memory: USM
 *             allocations (any context), pointers the list's context
 *             opened from IPC handles, and that context's VMM
 *             reservations (every page of the range mapped). Memory the
 *             map does not know is system memory (malloc, stack, mmap):
 *             the device has shared-system access, so it is trusted as
 *             long as the range does not wrap and does not run into known
 *             memory.
 *   in flight a submitted batch that has not completed; an op of it whose
 *             index is below batch->progress has finished and no longer
 *             counts as using its memory.
 *   deferred  a free postponed until no op in flight touches the
 *             allocation; the worker that finishes the last such op frees
 *             it. A deferred record keeps the allocation's unique id, so an
 *             allocation freed meanwhile by zeContextDestroy (and its
 *             address reused) is never freed a second time.
 *
 * Policy (documented in drv_mem.c as well):
 *   BLOCKING_FREE  waits until no op in flight uses the memory, then frees;
 *   DEFER_FREE     returns at once, the memory is freed when that work is
 *                  done;
 *   zeMemFree, and zeMemFreeExt without a policy: like DEFER_FREE, so memory
 *                  in flight is never unmapped under a running copy. A
 *                  second free of a deferred pointer is INVALID_ARGUMENT.
 *   Only submitted work counts: a recorded but not executed regular list
 *   that names freed memory is the application's bug when it runs.
 *   A blocking free of memory whose work waits on an event that only the
 *   freeing thread would signal never returns (the application's deadlock).
 *
 * Locking: mem_lock guards the in-flight list and the deferred list; frees
 * sleep on mem_cond. usm is only called with mem_lock released. Leaf lock.
 */
#include "cmd.h"
#include "u_list.h"

#include <errno.h>
#include <stdlib.h>

struct deferred {
	struct deferred *next;
	void *ptr;
	struct _ze_context_handle_t *ctx;
	uint64_t id;
	uintptr_t lo, hi;
};

static pthread_mutex_t mem_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t mem_cond;
static pthread_once_t mem_once = PTHREAD_ONCE_INIT;
static struct cmd_batch *inflight;     /* mem_lock */
static struct deferred *deferred_head; /* mem_lock */
/* Two counters in one word (cmd_api.h), so that a free tests both with one
 * load (cmd_mem_idle):
 *   watchers (CMD_MEM_WATCHER): blocking frees waiting + deferred
 *     records; workers only take mem_lock after an op when it is not 0.
 *   batches in flight (CMD_MEM_INFLIGHT): frees skip everything while
 *     there are none.
 * Each half only goes up by one and back down by one, never below 0, so
 * no carry or borrow ever crosses into the other. */
_Atomic uint64_t cmd_mem_busy;
/* drv_mem_release, installed at driver init (cmd_api.h). */
static void (*_Atomic release_fn)(const struct usm_info *, void *);

void
cmd_mem_set_release(void (*fn)(const struct usm_info *info, void *arg))
{
	atomic_store(&release_fn, fn);
}

static inline bool
mem_watched(memory_order mo)
{
	return atomic_load_explicit(&cmd_mem_busy, mo) >> 32;
}

static inline bool
mem_inflight(void)
{
	return (uint32_t)atomic_load(&cmd_mem_busy);
}

static void
mem_init(void)
{
	if (cmd_cond_init(&mem_cond))
		pthread_cond_init(&mem_cond, NULL);
}

ze_result_t
cmd_check_range(struct _ze_context_handle_t *ctx, const void *ptr,
		size_t size, const char *what, enum cmd_mem_kind *kind)
{
	uintptr_t p = (uintptr_t)ptr;
	enum cmd_mem_kind dummy;
	if (!kind)
		kind = &dummy;
	*kind = CMD_MEM_OWNED;
	if (size > UINTPTR_MAX - p)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_SIZE,
				"%s: %zu bytes at %p wrap around the address "
				"space", what, size, ptr);
	if (!size)
		return ZE_RESULT_SUCCESS;
	struct amap_hit hit;
	switch (amap_span(ctx, ptr, size, &hit)) {
	case AMAP_SPAN_IN:
		if (hit.kind == AMAP_VMM_MAP || hit.kind == AMAP_VMM_RESV)
			*kind = CMD_MEM_VMM;
		return ZE_RESULT_SUCCESS;
	case AMAP_SPAN_PAST:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_SIZE,
				"%s: %zu bytes at %p run past the end of %s "
				"memory (%p, %zu bytes)", what, size, ptr,
				amap_kind_name(hit.kind), hit.info.base,
				hit.info.size);
	case AMAP_SPAN_NONE:
		break;
	}
	/* System memory (malloc, stack, mmap): trusted, unless its last
	 * byte lies in memory the driver knows. */
	if (amap_span(ctx, (const void *)(p + size - 1), 1, &hit) !=
	    AMAP_SPAN_NONE)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_SIZE,
				"%s: %zu bytes at %p start outside any "
				"allocation and run into %s memory", what, size,
				ptr, amap_kind_name(hit.kind));
	*kind = CMD_MEM_SYSTEM;
	return ZE_RESULT_SUCCESS;
}

static bool
op_hits(const struct cmd_op *op, uintptr_t lo, uintptr_t hi)
{
	for (int k = 0; k < 2; k++) {
		uintptr_t a, b;
		if (cmd_op_range(op, k, &a, &b) && a < hi && lo < b)
			return true;
	}
	return false;
}

/* Does an unfinished op of b touch [lo, hi)? mem_lock. */
static bool
batch_uses(struct cmd_batch *b, uintptr_t lo, uintptr_t hi)
{
	uint64_t done = atomic_load_explicit(&b->progress,
					     memory_order_acquire);
	if (b->has_op && !b->nlists)
		return done == 0 && op_hits(&b->op, lo, hi);
	uint64_t i = 0;
	for (uint32_t l = 0; l < b->nlists; l++) {
		const struct _ze_command_list_handle_t *list = b->lists[l];
		for (size_t j = 0; j < list->nops; j++, i++)
			if (i >= done && op_hits(&list->ops[j], lo, hi))
				return true;
	}
	return false;
}

static bool
in_flight(uintptr_t lo, uintptr_t hi)
{
	for (struct cmd_batch *b = inflight; b; b = b->inext)
		if (batch_uses(b, lo, hi))
			return true;
	return false;
}

/* Frees every deferred allocation no longer in flight. */
static void
reap(void)
{
	struct deferred *ready = NULL;
	pthread_mutex_lock(&mem_lock);
	for (struct deferred **pp = &deferred_head; *pp;) {
		struct deferred *d = *pp;
		if (in_flight(d->lo, d->hi)) {
			pp = &d->next;
			continue;
		}
		*pp = d->next;
		d->next = ready;
		ready = d;
		atomic_fetch_sub(&cmd_mem_busy, CMD_MEM_WATCHER);
	}
	pthread_mutex_unlock(&mem_lock);
	while (ready) {
		struct deferred *d = ready;
		ready = d->next;
		struct usm_info info;
		if (!usm_query(drv_driver.heap, d->ptr, &info) &&
		    info.id == d->id && info.base == d->ptr &&
		    !usm_free(drv_driver.heap, d->ptr, d->ctx, &info)) {
			void (*rel)(const struct usm_info *, void *) =
				atomic_load(&release_fn);
			if (rel)
				rel(&info, NULL);
		}
		else
			u_dbg("cmd", "deferred free of %p: already gone "
				     "(context destroyed)", d->ptr);
		free(d);
	}
}

/* Sleeps until no op in flight touches [lo, hi); mem_lock held. */
static void
wait_idle(uintptr_t lo, uintptr_t hi)
{
	struct cmd_deadline forever = { .forever = true };
	atomic_fetch_add(&cmd_mem_busy, CMD_MEM_WATCHER);
	while (in_flight(lo, hi))
		cmd_cond_wait(&mem_cond, &mem_lock, &forever);
	atomic_fetch_sub(&cmd_mem_busy, CMD_MEM_WATCHER);
}

void
cmd_mem_track(struct cmd_batch *b)
{
	pthread_mutex_lock(&mem_lock);
	atomic_fetch_add(&cmd_mem_busy, CMD_MEM_INFLIGHT);
	U_LIST_PUSH(&inflight, b, iprev, inext);
	pthread_mutex_unlock(&mem_lock);
}

void
cmd_mem_untrack(struct cmd_batch *b)
{
	pthread_mutex_lock(&mem_lock);
	U_LIST_UNLINK(&inflight, b, iprev, inext);
	atomic_fetch_sub(&cmd_mem_busy, CMD_MEM_INFLIGHT);
	bool watched = mem_watched(memory_order_seq_cst);
	if (watched)
		pthread_cond_broadcast(&mem_cond);
	pthread_mutex_unlock(&mem_lock);
	if (watched)
		reap();
}

void
cmd_mem_progress(void)
{
	if (!mem_watched(memory_order_acquire))
		return;
	pthread_once(&mem_once, mem_init);
	pthread_mutex_lock(&mem_lock);
	pthread_cond_broadcast(&mem_cond);
	pthread_mutex_unlock(&mem_lock);
	reap();
}

ze_result_t
cmd_mem_free_slow(struct _ze_context_handle_t *ctx, void *ptr,
		  const struct usm_info *ui, uint32_t policy, bool *deferred)
{
	*deferred = false;
	/* Checked again: cmd_mem_free() read the word before the call. */
	if (cmd_mem_idle())
		return ZE_RESULT_SUCCESS;
	/* Not the base of a live allocation of ctx: usm_free reports it. */
	const struct usm_info info = *ui;
	if (info.base != ptr || info.ctx != (void *)ctx)
		return ZE_RESULT_SUCCESS;
	pthread_once(&mem_once, mem_init);
	uintptr_t lo = (uintptr_t)ptr, hi = lo + (info.size ? info.size : 1);
	pthread_mutex_lock(&mem_lock);
	for (struct deferred *d = deferred_head; d; d = d->next) {
		if (d->ptr == ptr && d->id == info.id) {
			pthread_mutex_unlock(&mem_lock);
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
					"%p was already freed (the free waits "
					"for work in flight)", ptr);
		}
	}
	if (!in_flight(lo, hi)) {
		pthread_mutex_unlock(&mem_lock);
		return ZE_RESULT_SUCCESS;
	}
	struct deferred *d = NULL;
	if (!(policy & ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE))
		d = malloc(sizeof(*d));
	if (d) {
		*d = (struct deferred){ deferred_head, ptr, ctx, info.id, lo,
					hi };
		deferred_head = d;
		atomic_fetch_add(&cmd_mem_busy, CMD_MEM_WATCHER);
		pthread_mutex_unlock(&mem_lock);
		*deferred = true;
		u_dbg("cmd", "free of %p deferred: work in flight uses it",
		      ptr);
		return ZE_RESULT_SUCCESS;
	}
	/* Blocking (asked for, or no memory for a record). */
	wait_idle(lo, hi);
	pthread_mutex_unlock(&mem_lock);
	return ZE_RESULT_SUCCESS;
}

void
cmd_mem_wait_idle(const void *ptr, size_t size)
{
	uintptr_t lo = (uintptr_t)ptr;
	if (!size || size > UINTPTR_MAX - lo || !mem_inflight())
		return;
	pthread_once(&mem_once, mem_init);
	pthread_mutex_lock(&mem_lock);
	wait_idle(lo, lo + size);
	pthread_mutex_unlock(&mem_lock);
}
