// SPDX-License-Identifier: MIT
/*
 * drv_core: the bottom floor of the zemem driver: the driver, device and
 * context objects, handle validation, the one -errno to ze_result_t
 * translation and the last-error text, device-memory budgets, and the
 * hook through which lower floors wait for the copy engine.
 *
 * Floors (tools/check_floors.py enforces them on includes): common/ and
 * usm/ -> drv_core -> amap/ -> vmm/ -> ipc/ -> cmd/ -> the entry-point
 * files of driver/ (drv_mem, drv_context, drv_device, drv_driver,
 * drv_mem_atomic) -> drv_ddi. A file includes headers of its own floor
 * and the floors below only; nothing here calls up. Where a lower floor
 * needs something an upper floor does (wait until no copy uses a range),
 * the upper floor installs a hook here at driver init.
 *
 * Options are common/u_options.h (the bottom of all).
 *
 * Lock rules: none here (device budgets are atomics; the context slots'
 * lock is drv_context.c's).
 *
 * Errors: internal functions return 0 or -errno; drv_result() is the one
 * place that turns -errno into ze_result_t.
 */
#ifndef ZEMEM_DRV_CORE_H
#define ZEMEM_DRV_CORE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <level_zero/ze_api.h>

#include "u_log.h"
#include "usm.h"

#define DRV_MAX_DEVICES 64
#define DRV_MAX_CONTEXTS 1024
#define DRV_DEVICE_MAGIC 0x7a6d6476u  /* "zmdv" */
#define DRV_CONTEXT_MAGIC 0x7a6d6378u /* "zmcx" */
#define DRV_CONTEXT_DYING 0x7a6d6364u /* "zmcd": being destroyed */
#define DRV_DRIVER_MAGIC 0x7a6d6472u  /* "zmdr" */
#define DRV_API_VERSION ZE_API_VERSION_1_18

struct _ze_driver_handle_t {
	uint32_t magic;
	bool initialized;
	uint32_t device_count;
	ze_driver_uuid_t uuid;
	struct usm_heap *heap;
	size_t page_size;              /* the OS page (pageSize of USM) */
};

/* 512 bytes: a handle is checked by address with shifts and masks. */
struct _ze_device_handle_t {
	_Alignas(512) uint32_t magic;
	uint32_t ordinal;
	uint64_t budget;               /* bytes of device memory */
	uint64_t max_alloc;            /* maxMemAllocSize */
	_Atomic uint64_t used;         /* bytes of device memory in use */
	/* Bytes the copy engine's ops on this device's queues read and
	 * wrote (zesMemoryGetBandwidth); counted by cmd_exec.c. */
	_Atomic uint64_t bytes_read, bytes_written;
	ze_device_uuid_t uuid;
	char name[ZE_MAX_DEVICE_NAME];
};

/* 32 bytes: a handle is checked by address with a mask, not a division. */
struct _ze_context_handle_t {
	_Atomic uint32_t magic;        /* DRV_CONTEXT_MAGIC while live */
	uint32_t slot;
	uint64_t devmask;              /* bit i: device i belongs to it */
	uint64_t serial;               /* creation number, for logs */
	uint64_t reserved;
};

/* Data the fast paths read, declared as hidden as it is defined (the
 * build's -fvisibility=hidden): the compiler then addresses it directly,
 * not through the GOT. */
#define DRV_HIDDEN __attribute__((visibility("hidden")))

/* drv_core.c: the objects (set up by drv_driver.c) */
extern DRV_HIDDEN struct _ze_driver_handle_t drv_driver;
extern DRV_HIDDEN struct _ze_device_handle_t drv_devices[DRV_MAX_DEVICES];
_Static_assert(sizeof(struct _ze_device_handle_t) == 512,
	       "device slots are found with shifts and masks");
ze_result_t drv_result(int err);
/* Record the description of the last error of this thread (and log it at
 * debug level); returns res so callers can `return drv_fail(...)`. */
ze_result_t drv_fail(ze_result_t res, const char *func, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), cold));
#define DRV_FAIL(res, ...) drv_fail((res), __func__, __VA_ARGS__)
static inline bool
drv_driver_valid(ze_driver_handle_t h)
{
	return h == &drv_driver && drv_driver.initialized;
}
/* Validates a device handle by address (never dereferences a forged one). */
static inline struct _ze_device_handle_t *
drv_device_get(ze_device_handle_t h)
{
	uintptr_t p = (uintptr_t)h, b = (uintptr_t)drv_devices;
	if (p < b || (p - b) % sizeof(drv_devices[0]) ||
	    (p - b) / sizeof(drv_devices[0]) >= drv_driver.device_count)
		return NULL;
	return h;
}
const char *drv_result_name(ze_result_t r);

/* drv_core.c: the context slots (drv_context.c hands them out) */
extern DRV_HIDDEN struct _ze_context_handle_t drv_contexts[DRV_MAX_CONTEXTS];
_Static_assert(sizeof(struct _ze_context_handle_t) == 32,
	       "context slots are found with a mask");
/* Is h a live context? (a forged handle is never dereferenced) For a
 * fast path that goes on with h itself: no NULL-or-h value to test
 * again. */
static inline bool
drv_context_live(ze_context_handle_t h)
{
	uintptr_t off = (uintptr_t)h - (uintptr_t)drv_contexts;
	return off < sizeof(drv_contexts) && !(off % sizeof(drv_contexts[0])) &&
	       atomic_load_explicit(&h->magic, memory_order_acquire) ==
		       DRV_CONTEXT_MAGIC;
}
/* The live context h, or NULL. */
static inline struct _ze_context_handle_t *
drv_context_get(ze_context_handle_t h)
{
	return drv_context_live(h) ? h : NULL;
}
static inline bool
drv_context_has_device(const struct _ze_context_handle_t *c,
		       const struct _ze_device_handle_t *d)
{
	return (c->devmask >> d->ordinal) & 1;
}

/* The checks of an entry point's hContext and hDevice, the same everywhere
 * (func names the entry point in the error text): NULL ->
 * INVALID_NULL_HANDLE; not a live context, not a zemem device, or a device
 * not in the context -> INVALID_ARGUMENT. *out on success. */
static inline ze_result_t
drv_check_context(ze_context_handle_t h, const char *func,
		  struct _ze_context_handle_t **out)
{
	if (!h)
		return drv_fail(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, func,
				"hContext is NULL");
	if (!(*out = drv_context_get(h)))
		return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, func,
				"%p is not a live context", (void *)h);
	return ZE_RESULT_SUCCESS;
}
static inline ze_result_t
drv_check_device(const struct _ze_context_handle_t *c, ze_device_handle_t h,
		 const char *func, struct _ze_device_handle_t **out)
{
	if (!h)
		return drv_fail(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, func,
				"hDevice is NULL");
	struct _ze_device_handle_t *d = drv_device_get(h);
	if (!d)
		return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, func,
				"%p is not a zemem device", (void *)h);
	if (!drv_context_has_device(c, d))
		return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, func,
				"device %u is not in the context", d->ordinal);
	*out = d;
	return ZE_RESULT_SUCCESS;
}
/* Declares c, the checked context of h, or returns the error. */
#define DRV_CHECK_CONTEXT(h, c)                                             \
	struct _ze_context_handle_t *c;                                     \
	do {                                                                \
		ze_result_t r_ = drv_check_context((h), __func__, &c);      \
		if (r_)                                                     \
			return r_;                                          \
	} while (0)

/* Device-memory budget: reserve size bytes (false: budget exhausted) and
 * give them back. A reservation that fails first returns the calling
 * thread's credit (usm_thread_credit) on dev. */
bool drv_budget_reserve(struct _ze_device_handle_t *dev, size_t size);
/* Inline: the fast free path gives budget back without a call (a call
 * would cost its frame on every free). */
static inline void
drv_budget_release(struct _ze_device_handle_t *dev, size_t size)
{
	atomic_fetch_sub_explicit(&dev->used, size, memory_order_relaxed);
}
/* Exactly size bytes of dev's budget, or false (no credit involved). */
static inline bool
drv_budget_take(struct _ze_device_handle_t *dev, uint64_t size)
{
	uint64_t used = atomic_load_explicit(&dev->used, memory_order_relaxed);
	do {
		if (size > dev->budget || used > dev->budget - size)
			return false;
	} while (!atomic_compare_exchange_weak_explicit(
		&dev->used, &used, used + size, memory_order_relaxed,
		memory_order_relaxed));
	return true;
}
/* Bytes of dev's budget in use by allocations: the counter less the
 * budget the calling thread holds in advance (its credit, which a
 * reservation of this thread takes first). Other threads' credit counts as
 * used: it is not available to this thread. */
uint64_t drv_budget_used(struct _ze_device_handle_t *dev);
/* usm's credit hook: a thread's unused budget on device slot goes back. */
void drv_budget_credit_hook(unsigned slot, uint64_t amount);

/* The text drv_fail recorded last on this thread. */
const char *drv_last_error(void);

/* The driver's thread-local variables are initial-exec (hot paths read
 * them without a call): a process that dlopens the driver takes all of
 * them from the small static TLS reserve glibc keeps for every library
 * loaded later (about 1.7 KiB, shared by all), and when it runs out the
 * next such library cannot load. So only what a hot path reads goes
 * there; the last error text, say, is allocated at a thread's first
 * failure (drv_core.c). */

/* Blocks until no submitted copy-engine op touches [ptr, ptr + size): for
 * whoever unmaps memory a copy may use (IPC close, VMM unmap and free).
 * The copy engine (driver/cmd) installs the wait at driver init; before
 * that nothing can be in flight and it returns at once. */
void drv_wait_idle(const void *ptr, size_t size);
void drv_set_wait_idle(void (*fn)(const void *ptr, size_t size));

/* The top floor's USM entry points (drv_mem.c), for the copy engine's IPC
 * event pools, which keep their events in a host allocation of their
 * context. drv_driver.c fills this at driver init, before any pool can be
 * created. */
struct drv_mem_entry {
	ze_result_t (*alloc_host)(ze_context_handle_t hContext,
				  const ze_host_mem_alloc_desc_t *desc,
				  size_t size, size_t alignment, void **pptr);
	ze_result_t (*free)(ze_context_handle_t hContext, void *ptr);
	ze_result_t (*get_address_range)(ze_context_handle_t hContext,
					 const void *ptr, void **pBase,
					 size_t *pSize);
};
extern DRV_HIDDEN struct drv_mem_entry drv_mem_entry;

#endif
