// SPDX-License-Identifier: MIT
/*
 * drv_mem_atomic: zeMemSetAtomicAccessAttributeExp /
 * zeMemGetAtomicAccessAttributeExp.
 *
 * A CPU device has one coherent memory: every atomic works on every kind
 * of memory whatever the attribute says, so the attributes change nothing
 * in how memory behaves; they are recorded and answered back exactly.
 *
 * Vocabulary:
 *   target  what ptr names: an allocation of the context (a USM block, an
 *           IPC or external-memory import, a VMM mapping: what
 *           zeMemGetAllocProperties knows, with its unique id), or
 *           shared-system memory (any other mapped memory of the process:
 *           the devices report shared-system access);
 *   entry   one recorded attribute: for an allocation, per allocation and
 *           device (as Intel's driver keeps it; a Set on part of an
 *           allocation sets the whole), keyed by the allocation's id,
 *           which is never reused, so an entry of a freed allocation can
 *           never answer for a new one at the same address; for
 *           shared-system memory, per device and range (a Set replaces
 *           the ranges it overlaps).
 *   stale   an entry of an allocation that is gone (freed, or its context
 *           destroyed): dropped when the table would grow.
 *
 * Rules (results in brackets; the checks in this order):
 *   hDevice NULL [INVALID_NULL_HANDLE], not a device of the context
 *   [INVALID_ARGUMENT]; ptr / pAttr NULL [INVALID_NULL_POINTER]; attr
 *   bits above 0x7f [INVALID_ENUMERATION, as the spec says]; size 0,
 *   ptr in another context's allocation, in no allocation and not mapped,
 *   [ptr, ptr + size) past the end of the allocation [INVALID_ARGUMENT];
 *   a flag with its NO_ flag, or NO_ATOMICS with a positive one
 *   [INVALID_ARGUMENT]; a positive flag the device's capabilities
 *   (drv_device_access_caps, what zeDeviceGetMemoryAccessProperties
 *   answers) do not allow [INVALID_ARGUMENT]: DEVICE_ATOMICS needs ATOMIC
 *   in deviceAllocCapabilities, HOST_ATOMICS in hostAllocCapabilities,
 *   SYSTEM_ATOMICS CONCURRENT_ATOMIC in sharedSingleDevice or
 *   sharedCrossDevice (sharedSystem for shared-system memory), as Intel's
 *   driver checks. Get answers what the last Set recorded, 0 (the
 *   default) when none did.
 *
 * Locking: one mutex (atomic_lock) over the table, a leaf: no other lock
 * is taken under it (the lookups of allocations, the pruning's included,
 * run without it). fork: the child gets the lock free (atfork
 * handlers).
 */
#include "drv.h"
#include "amap/amap.h"
#include "u_fork.h"
#include "u_os.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#define ATTR_ALL 0x7fu  /* the ze_memory_atomic_attr_exp_flag_t bits */

struct atomic_entry {
	struct _ze_context_handle_t *ctx;
	struct _ze_device_handle_t *dev;
	uint64_t id;    /* the allocation's; 0: shared-system memory */
	uintptr_t base; /* the allocation's, or the range's */
	size_t size;
	uint32_t attr;
};

static pthread_mutex_t atomic_lock = PTHREAD_MUTEX_INITIALIZER;
static struct atomic_entry *atomic_tab;  /* atomic_lock */
static size_t atomic_n, atomic_cap;      /* atomic_lock */

static void
fork_prepare(void)
{
	pthread_mutex_lock(&atomic_lock);
}

static void
fork_parent(void)
{
	pthread_mutex_unlock(&atomic_lock);
}

static void
fork_child(void)
{
	u_fork_child_mutex(&atomic_lock);
}

__attribute__((constructor)) static void
atomic_atfork(void)
{
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* What ptr names (see "target" above). */
struct target {
	uint64_t id;          /* 0: shared-system memory */
	uintptr_t base;
	size_t size;
};

/* Is [p, p + size) mapped, and its first byte readable? (mincore fails
 * with ENOMEM on a hole; a reservation's PROT_NONE placeholder is mapped
 * but not readable.) */
static bool
system_memory(const void *p, size_t size)
{
	size_t os = u_page_size();
	uintptr_t b = (uintptr_t)p & ~(uintptr_t)(os - 1);
	uintptr_t e = (uintptr_t)p + size;
	if (e < (uintptr_t)p)
		return false;
	unsigned char vec[64];
	for (uintptr_t a = b; a < e;) {
		size_t pages = (e - a + os - 1) / os;
		if (pages > sizeof(vec))
			pages = sizeof(vec);
		if (mincore((void *)a, pages * os, vec))
			return false;
		a += pages * os;
	}
	char byte;
	struct iovec local = { &byte, 1 }, remote = { (void *)p, 1 };
	ssize_t k = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
	/* Where the call is not allowed (seccomp), mincore must do. */
	return k == 1 || (k < 0 && errno != EFAULT);
}

static ze_result_t
resolve(const char *func, struct _ze_context_handle_t *c, const void *ptr,
	size_t size, struct target *t)
{
	if (!size)
		return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, func,
				"size is 0");
	ze_memory_allocation_properties_t props = {
		.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES,
	};
	ze_result_t r = drv_zeMemGetAllocProperties(c, ptr, &props, NULL);
	if (r)
		return r;
	/* zeMemGetAllocProperties answers for any context of the driver;
	 * an attribute is set and read through the memory's own context. */
	struct amap_hit hit;
	if (props.type != ZE_MEMORY_TYPE_UNKNOWN &&
	    (amap_find(ptr, &hit) || hit.info.ctx != c))
		return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, func,
				"%p belongs to another context", ptr);
	if (props.type != ZE_MEMORY_TYPE_UNKNOWN) {
		void *base = NULL;
		size_t asize = 0;
		if ((r = drv_zeMemGetAddressRange(c, ptr, &base, &asize)))
			return r;
		uintptr_t off = (uintptr_t)ptr - (uintptr_t)base;
		if (size > asize - off)
			return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, func,
					"%p+%zu runs past the end of the "
					"allocation %p+%zu", ptr, size, base,
					asize);
		*t = (struct target){ props.id, (uintptr_t)base, asize };
		return ZE_RESULT_SUCCESS;
	}
	struct usm_info info;
	if (!usm_lookup(drv_driver.heap, ptr, &info))
		return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, func,
				"%p belongs to another context", ptr);
	if (!system_memory(ptr, size))
		return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, func,
				"%p+%zu is in no allocation of this context "
				"and is not mapped memory of the process", ptr,
				size);
	*t = (struct target){ 0, (uintptr_t)ptr, size };
	return ZE_RESULT_SUCCESS;
}

/* attr against the rules above; 0 or the result. */
static ze_result_t
check_attr(const char *func, const struct _ze_device_handle_t *dev,
	   const struct target *t, uint32_t attr)
{
	if (attr & ~ATTR_ALL)
		return drv_fail(ZE_RESULT_ERROR_INVALID_ENUMERATION, func,
				"unknown atomic attribute bits 0x%x",
				attr & ~ATTR_ALL);
	static const struct {
		uint32_t yes, no;
	} pairs[] = {
		{ ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_HOST_ATOMICS,
		  ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_HOST_ATOMICS },
		{ ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_DEVICE_ATOMICS,
		  ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_DEVICE_ATOMICS },
		{ ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_SYSTEM_ATOMICS,
		  ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_SYSTEM_ATOMICS },
	};
	uint32_t positive = 0;
	for (size_t i = 0; i < 3; i++) {
		if ((attr & pairs[i].yes) && (attr & pairs[i].no))
			return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, func,
					"attribute 0x%x asks for 0x%x and "
					"its opposite 0x%x", attr,
					pairs[i].yes, pairs[i].no);
		positive |= attr & pairs[i].yes;
	}
	if ((attr & ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_NO_ATOMICS) && positive)
		return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, func,
				"attribute 0x%x asks for NO_ATOMICS and atomics "
				"0x%x", attr, positive);
	ze_device_memory_access_properties_t caps;
	drv_device_access_caps(dev, &caps);
	const ze_memory_access_cap_flags_t A = ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC,
					   CA =
			ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT_ATOMIC;
	if ((attr & ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_DEVICE_ATOMICS) &&
	    !(caps.deviceAllocCapabilities & A))
		return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, func,
				"device %u has no atomic access to device "
				"allocations", dev->ordinal);
	if ((attr & ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_HOST_ATOMICS) &&
	    !(caps.hostAllocCapabilities & A))
		return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, func,
				"device %u has no atomic access to host "
				"allocations", dev->ordinal);
	ze_memory_access_cap_flags_t sys =
		t->id ? caps.sharedSingleDeviceAllocCapabilities |
				caps.sharedCrossDeviceAllocCapabilities
		      : caps.sharedSystemAllocCapabilities;
	if ((attr & ZE_MEMORY_ATOMIC_ATTR_EXP_FLAG_SYSTEM_ATOMICS) &&
	    !(sys & CA))
		return drv_fail(ZE_RESULT_ERROR_INVALID_ARGUMENT, func,
				"device %u has no concurrent atomic access to "
				"%s memory", dev->ordinal,
				t->id ? "shared" : "shared-system");
	return ZE_RESULT_SUCCESS;
}

/* Does an allocation (id on ctx at base) still live? */
static bool
alloc_live(struct _ze_context_handle_t *ctx, uintptr_t base, uint64_t id)
{
	if (!drv_context_get(ctx))
		return false;
	ze_memory_allocation_properties_t props = {
		.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES,
	};
	return drv_zeMemGetAllocProperties(ctx, (void *)base, &props, NULL) ==
		       ZE_RESULT_SUCCESS &&
	       props.id == id;
}

static int
cmp_id(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Drops the entries of allocations that are gone. The liveness tests
 * ask zeMemGetAllocProperties (usm, ipc and vmm locks) with atomic_lock
 * released, so this lock never waits on theirs (nor do their fork
 * handlers on it); an id is never reused, so an entry found dead stays
 * dead. */
static void
table_prune(void)
{
	pthread_mutex_lock(&atomic_lock);
	size_t n = atomic_n;
	struct atomic_entry *snap = n ? malloc(n * sizeof(*snap)) : NULL;
	if (snap)
		memcpy(snap, atomic_tab, n * sizeof(*snap));
	pthread_mutex_unlock(&atomic_lock);
	if (!snap)
		return;
	uint64_t *dead = malloc(n * sizeof(*dead));
	size_t nd = 0;
	if (!dead) {
		free(snap);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct atomic_entry e = snap[i];
		if (e.id && !alloc_live(e.ctx, e.base, e.id))
			dead[nd++] = e.id;
	}
	qsort(dead, nd, sizeof(*dead), cmp_id);
	pthread_mutex_lock(&atomic_lock);
	size_t k = 0;
	for (size_t i = 0; i < atomic_n; i++) {
		const struct atomic_entry *e = &atomic_tab[i];
		if (!e->id || !bsearch(&e->id, dead, nd, sizeof(*dead), cmp_id))
			atomic_tab[k++] = *e;
	}
	atomic_n = k;
	pthread_mutex_unlock(&atomic_lock);
	free(dead);
	free(snap);
}

/* Drops the entries of shared-system memory on dev overlapping
 * [b, b + size). Caller holds atomic_lock. */
static void
table_drop_overlaps(struct _ze_device_handle_t *dev, uintptr_t b, size_t size)
{
	size_t k = 0;
	for (size_t i = 0; i < atomic_n; i++) {
		const struct atomic_entry *e = &atomic_tab[i];
		if (e->id || e->dev != dev || e->base >= b + size ||
		    b >= e->base + e->size)
			atomic_tab[k++] = *e;
	}
	atomic_n = k;
}

/* The entry of t on dev, or NULL. Caller holds atomic_lock. */
static struct atomic_entry *
table_find(struct _ze_context_handle_t *c, struct _ze_device_handle_t *dev,
	   const struct target *t)
{
	for (size_t i = 0; i < atomic_n; i++) {
		struct atomic_entry *e = &atomic_tab[i];
		if (e->dev != dev || e->id != t->id)
			continue;
		if (t->id ? e->ctx == c
			  : e->base <= t->base &&
				    t->base - e->base < e->size)
			return e;
	}
	return NULL;
}

static int
table_set(struct _ze_context_handle_t *c, struct _ze_device_handle_t *dev,
	  const struct target *t, uint32_t attr)
{
	bool pruned = false;
	pthread_mutex_lock(&atomic_lock);
	for (;;) {
		struct atomic_entry *e = t->id ? table_find(c, dev, t) : NULL;
		if (e) {
			e->attr = attr;
			pthread_mutex_unlock(&atomic_lock);
			return 0;
		}
		if (atomic_n < atomic_cap || pruned)
			break;
		/* Full: drop what is gone first, then grow if it stays more
		 * than half full (each prune then follows at least cap / 2
		 * new entries). */
		pthread_mutex_unlock(&atomic_lock);
		table_prune();
		pruned = true;
		pthread_mutex_lock(&atomic_lock);
	}
	if (!t->id)
		table_drop_overlaps(dev, t->base, t->size);
	if (atomic_n == atomic_cap || (pruned && atomic_n > atomic_cap / 2)) {
		size_t cap = atomic_cap ? 2 * atomic_cap : 16;
		struct atomic_entry *tab =
			realloc(atomic_tab, cap * sizeof(*tab));
		if (!tab) {
			pthread_mutex_unlock(&atomic_lock);
			return -ENOMEM;
		}
		atomic_tab = tab;
		atomic_cap = cap;
	}
	atomic_tab[atomic_n++] = (struct atomic_entry){
		.ctx = c, .dev = dev, .id = t->id, .base = t->base,
		.size = t->size, .attr = attr,
	};
	pthread_mutex_unlock(&atomic_lock);
	return 0;
}

ze_result_t
drv_zeMemSetAtomicAccessAttributeExp(ze_context_handle_t hContext,
				     ze_device_handle_t hDevice,
				     const void *ptr, size_t size,
				     ze_memory_atomic_attr_exp_flags_t attr)
{
	DRV_CHECK_CONTEXT(hContext, c);
	struct _ze_device_handle_t *dev = NULL;
	struct target t;
	ze_result_t r;
	if ((r = drv_check_device(c, hDevice, __func__, &dev)))
		return r;
	if (!ptr)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"ptr is NULL");
	if (attr & ~ATTR_ALL)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION,
				"unknown atomic attribute bits 0x%x",
				attr & ~ATTR_ALL);
	if ((r = resolve(__func__, c, ptr, size, &t)) ||
	    (r = check_attr(__func__, dev, &t, attr)))
		return r;
	int err = table_set(c, dev, &t, attr);
	if (err)
		return DRV_FAIL(drv_result(err), "cannot record the attribute "
				"of %p: %s", ptr, strerror(-err));
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeMemGetAtomicAccessAttributeExp(ze_context_handle_t hContext,
				     ze_device_handle_t hDevice,
				     const void *ptr, size_t size,
				     ze_memory_atomic_attr_exp_flags_t *pAttr)
{
	DRV_CHECK_CONTEXT(hContext, c);
	struct _ze_device_handle_t *dev = NULL;
	struct target t;
	ze_result_t r;
	if ((r = drv_check_device(c, hDevice, __func__, &dev)))
		return r;
	if (!ptr || !pAttr)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"ptr or pAttr is NULL");
	if ((r = resolve(__func__, c, ptr, size, &t)))
		return r;
	pthread_mutex_lock(&atomic_lock);
	const struct atomic_entry *e = table_find(c, dev, &t);
	*pAttr = e ? e->attr : 0;
	pthread_mutex_unlock(&atomic_lock);
	return ZE_RESULT_SUCCESS;
}
