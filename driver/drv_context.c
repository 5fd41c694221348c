// SPDX-License-Identifier: MIT
/*
 * drv_context: contexts.
 *
 * Contexts live in a fixed array of slots so that a handle is validated by
 * its address alone (range, stride, magic) with no lock and without ever
 * reading memory that is not a context. Slots are reused round-robin to make
 * a stale handle less likely to alias a new context. Destroying a context
 * frees every allocation still in it.
 *
 * Locking: ctx_lock protects slot allocation (magic transitions to and from
 * live). Readers only load the magic.
 */
#include "drv.h"
#include "vmm/vmm.h"

#include <pthread.h>

static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t ctx_next;
static uint64_t ctx_serial;
static uint32_t ctx_live;   /* live contexts, under ctx_lock */

static ze_result_t
context_create(ze_driver_handle_t h, const ze_context_desc_t *desc,
	       uint64_t devmask, ze_context_handle_t *phContext)
{
	if (desc->stype != ZE_STRUCTURE_TYPE_CONTEXT_DESC)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"desc->stype is 0x%x, not CONTEXT_DESC",
				desc->stype);
	if (desc->flags & ~(ze_context_flags_t)ZE_CONTEXT_FLAG_TBD)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION,
				"unknown context flags 0x%x", desc->flags);
	pthread_mutex_lock(&ctx_lock);
	for (uint32_t i = 0; i < DRV_MAX_CONTEXTS; i++) {
		uint32_t slot = (ctx_next + i) % DRV_MAX_CONTEXTS;
		struct _ze_context_handle_t *c = &drv_contexts[slot];
		if (atomic_load_explicit(&c->magic, memory_order_relaxed))
			continue;
		c->slot = slot;
		c->devmask = devmask;
		c->serial = ++ctx_serial;
		atomic_store_explicit(&c->magic, DRV_CONTEXT_MAGIC,
				      memory_order_release);
		ctx_next = slot + 1;
		ctx_live++;
		pthread_mutex_unlock(&ctx_lock);
		*phContext = c;
		u_dbg("drv", "context #%llu created (devices 0x%llx)",
		      (unsigned long long)c->serial,
		      (unsigned long long)devmask);
		return ZE_RESULT_SUCCESS;
	}
	pthread_mutex_unlock(&ctx_lock);
	return DRV_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
			"all %d context slots are in use", DRV_MAX_CONTEXTS);
}

#define CHECK_DRIVER_ARGS(h, desc, ph)                                      \
	do {                                                                \
		if (!(h))                                                   \
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,\
					"hDriver is NULL");                 \
		if (!drv_driver_valid(h))                                   \
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,   \
					"%p is not a zemem driver",         \
					(void *)(h));                       \
		if (!(desc) || !(ph))                                       \
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,\
					"desc or phContext is NULL");       \
	} while (0)

ze_result_t
drv_zeContextCreate(ze_driver_handle_t h, const ze_context_desc_t *desc,
		    ze_context_handle_t *phContext)
{
	CHECK_DRIVER_ARGS(h, desc, phContext);
	uint32_t n = drv_driver.device_count;
	uint64_t all = n >= 64 ? UINT64_MAX : (1ull << n) - 1;
	return context_create(h, desc, all, phContext);
}

ze_result_t
drv_zeContextCreateEx(ze_driver_handle_t h, const ze_context_desc_t *desc,
		      uint32_t numDevices, ze_device_handle_t *phDevices,
		      ze_context_handle_t *phContext)
{
	CHECK_DRIVER_ARGS(h, desc, phContext);
	if (numDevices == 0)
		return drv_zeContextCreate(h, desc, phContext);
	if (!phDevices)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"phDevices is NULL with numDevices %u",
				numDevices);
	uint64_t mask = 0;
	for (uint32_t i = 0; i < numDevices; i++) {
		struct _ze_device_handle_t *d = drv_device_get(phDevices[i]);
		if (!phDevices[i])
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
					"phDevices[%u] is NULL", i);
		if (!d)
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
					"phDevices[%u] = %p is not a zemem "
					"device", i, (void *)phDevices[i]);
		mask |= 1ull << d->ordinal;
	}
	return context_create(h, desc, mask, phContext);
}

ze_result_t
drv_zeContextDestroy(ze_context_handle_t h)
{
	if (!h)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hContext is NULL");
	pthread_mutex_lock(&ctx_lock);
	struct _ze_context_handle_t *c = drv_context_get(h);
	if (!c) {
		pthread_mutex_unlock(&ctx_lock);
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"%p is not a live context", (void *)h);
	}
	/* Mark it dying first: calls racing with destroy now fail cleanly,
	 * and the slot is not reused while its memory is being released. */
	atomic_store_explicit(&c->magic, DRV_CONTEXT_DYING,
			      memory_order_release);
	pthread_mutex_unlock(&ctx_lock);
	/* Work still queued may use its memory: let it finish first (the
	 * spec makes that the application's duty; a crash in a worker
	 * thread would be a poor way to say so). */
	cmd_mem_wait_idle(NULL, UINTPTR_MAX);
	vmm_ctx_destroy(c); /* its reservations, mappings, physical objects */
	ipc_context_destroyed(c); /* its IPC imports */
	size_t n = usm_free_ctx(drv_driver.heap, c, drv_mem_release, NULL);
	if (n)
		u_info("drv", "context #%llu destroyed with %zu live "
			      "allocation(s); freed them",
		       (unsigned long long)c->serial, n);
	pthread_mutex_lock(&ctx_lock);
	atomic_store_explicit(&c->magic, 0, memory_order_release);
	bool last = --ctx_live == 0;
	pthread_mutex_unlock(&ctx_lock);
	/* With no context left nothing can use cached memory: give it all
	 * back to the system. */
	if (last)
		usm_trim(drv_driver.heap);
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeContextGetStatus(ze_context_handle_t h)
{
	struct _ze_context_handle_t *c;
	return drv_check_context(h, __func__, &c);
}

static ze_result_t
check_ctx_dev(ze_context_handle_t h, ze_device_handle_t hDevice)
{
	if (!h || !hDevice)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hContext or hDevice is NULL");
	struct _ze_context_handle_t *c;
	struct _ze_device_handle_t *d;
	ze_result_t r = drv_check_context(h, __func__, &c);
	return r ? r : drv_check_device(c, hDevice, __func__, &d);
}

ze_result_t
drv_zeContextSystemBarrier(ze_context_handle_t h, ze_device_handle_t hDevice)
{
	ze_result_t r = check_ctx_dev(h, hDevice);
	if (r)
		return r;
	atomic_thread_fence(memory_order_seq_cst);
	return ZE_RESULT_SUCCESS;
}

static ze_result_t
check_resident(ze_context_handle_t h, ze_device_handle_t hDevice, void *ptr,
	       size_t size)
{
	ze_result_t r = check_ctx_dev(h, hDevice);
	if (r)
		return r;
	if (!ptr)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"ptr is NULL");
	struct usm_info info;
	if (usm_query(drv_driver.heap, ptr, &info) || info.ctx != h)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"%p is not an allocation of this context",
				ptr);
	if ((size_t)((char *)info.base + info.size - (char *)ptr) < size)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_SIZE,
				"range %p+%zu runs past the allocation", ptr,
				size);
	return ZE_RESULT_SUCCESS;
}

/* All memory is always resident on a CPU device: residency calls only
 * validate their range. */
ze_result_t
drv_zeContextMakeMemoryResident(ze_context_handle_t h,
				ze_device_handle_t hDevice, void *ptr,
				size_t size)
{
	return check_resident(h, hDevice, ptr, size);
}

ze_result_t
drv_zeContextEvictMemory(ze_context_handle_t h, ze_device_handle_t hDevice,
			 void *ptr, size_t size)
{
	return check_resident(h, hDevice, ptr, size);
}
