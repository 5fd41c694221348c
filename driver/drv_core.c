// SPDX-License-Identifier: MIT
/*
 * drv_core: the bottom floor of the driver (drv_core.h): the objects, the
 * one -errno to ze_result_t translation, the last-error text, device
 * budgets and the copy engine's wait hook. Calls nothing above it.
 */
#include "drv_core.h"
#include "usm_fast.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct _ze_driver_handle_t drv_driver;
struct _ze_device_handle_t drv_devices[DRV_MAX_DEVICES];
struct _ze_context_handle_t drv_contexts[DRV_MAX_CONTEXTS];

/* A thread's state that no hot path reads, out of static TLS
 * (drv_core.h): a block made at its first use (drv_thread), its key
 * (whose destructor frees it at the thread's exit) and whether the key is
 * usable: 0 not yet made, 1 live, 2 failed or deleted (unload). nomem:
 * drv_fail found no block. */
struct drv_thread {
	char last_error[256];
};
static _Thread_local struct drv_thread *thread_block;
static _Thread_local bool thread_nomem;
static pthread_key_t thread_key;
static _Atomic int thread_key_state;
static pthread_once_t thread_once = PTHREAD_ONCE_INIT;
static void (*_Atomic wait_idle_fn)(const void *, size_t);
struct drv_mem_entry drv_mem_entry;

ze_result_t
drv_result(int err)
{
	switch (err) {
	case 0: return ZE_RESULT_SUCCESS;
	case -ENOMEM: return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	case -ENOSPC: return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
	case -EINVAL: return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	case -ENOENT: return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	case -EPERM: return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	case -EACCES: return ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS;
	case -ENOSYS: return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
	case -EOPNOTSUPP: return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
	case -EMFILE: return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	case -ENFILE: return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	case -ETIMEDOUT: return ZE_RESULT_NOT_READY;
	case -EAGAIN: return ZE_RESULT_NOT_READY;
	case -EBADMSG: return ZE_RESULT_ERROR_INVALID_ARGUMENT; /* bad bytes */
	case -ESTALE: return ZE_RESULT_ERROR_INVALID_ARGUMENT;  /* put handle */
	case -EBADF: return ZE_RESULT_ERROR_INVALID_ARGUMENT;
	default: return ZE_RESULT_ERROR_UNKNOWN;
	}
}

const char *
drv_result_name(ze_result_t r)
{
	switch (r) {
#define R(x) case x: return #x;
	R(ZE_RESULT_SUCCESS)
	R(ZE_RESULT_NOT_READY)
	R(ZE_RESULT_ERROR_UNINITIALIZED)
	R(ZE_RESULT_ERROR_UNSUPPORTED_VERSION)
	R(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
	R(ZE_RESULT_ERROR_INVALID_ARGUMENT)
	R(ZE_RESULT_ERROR_INVALID_NULL_HANDLE)
	R(ZE_RESULT_ERROR_INVALID_NULL_POINTER)
	R(ZE_RESULT_ERROR_INVALID_SIZE)
	R(ZE_RESULT_ERROR_UNSUPPORTED_SIZE)
	R(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT)
	R(ZE_RESULT_ERROR_INVALID_ENUMERATION)
	R(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION)
	R(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY)
	R(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)
	R(ZE_RESULT_ERROR_ADDRESS_NOT_FOUND)
	R(ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS)
	R(ZE_RESULT_ERROR_UNKNOWN)
#undef R
	default: return "ZE_RESULT_(other)";
	}
}

static void
thread_block_free(void *p)
{
	struct drv_thread *t = p;
	free(t);
	thread_block = NULL;
}

static void
thread_key_make(void)
{
	atomic_store_explicit(&thread_key_state,
			      pthread_key_create(&thread_key,
						 thread_block_free) ? 2 : 1,
			      memory_order_release);
}

/* The calling thread's block; NULL when there is no memory for it, or
 * once the driver is being unloaded. */
static struct drv_thread *
drv_thread(void)
{
	struct drv_thread *t = thread_block;
	if (t)
		return t;
	pthread_once(&thread_once, thread_key_make);
	if (atomic_load_explicit(&thread_key_state, memory_order_acquire) != 1)
		return NULL;
	if (!(t = calloc(1, sizeof(*t))))
		return NULL;
	if (pthread_setspecific(thread_key, t)) {
		free(t);
		return NULL;
	}
	thread_block = t;
	return t;
}

/* The driver is unloaded, or the process exits: threads that exit from
 * now on must not run thread_block_free, which goes with the library.
 * The caller's block goes now; another live thread's stays its own (it
 * may still be in a call), and is lost only if the library is unloaded
 * under it. */
__attribute__((destructor)) static void
drv_thread_fini(void)
{
	if (atomic_exchange_explicit(&thread_key_state, 2,
				     memory_order_acq_rel) == 1)
		pthread_key_delete(thread_key);
	if (thread_block)
		thread_block_free(thread_block);
}

ze_result_t
drv_fail(ze_result_t res, const char *func, const char *fmt, ...)
{
	struct drv_thread *t = drv_thread();
	char spare[256];
	char *e = t ? t->last_error : spare;
	size_t len = t ? sizeof(t->last_error) : sizeof(spare);
	thread_nomem = !t;
	int n = snprintf(e, len, "%s: %s: ", func, drv_result_name(res));
	if (n > 0 && (size_t)n < len) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(e + n, len - (size_t)n, fmt, ap);
		va_end(ap);
	}
	u_dbg("drv", "%s", e);
	return res;
}

const char *
drv_last_error(void)
{
	struct drv_thread *t = thread_block;
	if (thread_nomem)
		return "(the driver had no memory to keep this thread's last "
		       "error text)";
	return t ? t->last_error : "";
}

/* ---- device-memory budgets -------------------------------------------- */

/* Gives the calling thread's credit on dev back to the device. */
static void
credit_flush(struct _ze_device_handle_t *dev)
{
	uint64_t *cr = usm_thread_credit(drv_driver.heap);
	if (cr && cr[dev->ordinal]) {
		drv_budget_release(dev, cr[dev->ordinal]);
		cr[dev->ordinal] = 0;
	}
}

bool
drv_budget_reserve(struct _ze_device_handle_t *dev, size_t size)
{
	if (drv_budget_take(dev, size))
		return true;
	/* What this thread holds in advance counts as used: give it back
	 * first, so one thread alone always sees the exact budget. */
	credit_flush(dev);
	return drv_budget_take(dev, size);
}

uint64_t
drv_budget_used(struct _ze_device_handle_t *dev)
{
	uint64_t used = atomic_load_explicit(&dev->used, memory_order_relaxed);
	/* usm_fast_tc: the thread's cache if it has one (a thread that never
	 * allocated holds no credit; none is created for it). */
	struct usm_tcache *tc = usm_fast_tc(drv_driver.heap);
	uint64_t mine = tc ? usm_fast_credit(tc)[dev->ordinal] : 0;
	return used > mine ? used - mine : 0;
}

void
drv_budget_credit_hook(unsigned slot, uint64_t amount)
{
	if (slot < DRV_MAX_DEVICES)
		drv_budget_release(&drv_devices[slot], amount);
}

/* ---- the copy engine's wait ------------------------------------------- */

void
drv_set_wait_idle(void (*fn)(const void *ptr, size_t size))
{
	atomic_store(&wait_idle_fn, fn);
}

void
drv_wait_idle(const void *ptr, size_t size)
{
	void (*fn)(const void *, size_t) = atomic_load(&wait_idle_fn);
	if (fn)
		fn(ptr, size);
}
