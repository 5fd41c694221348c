// SPDX-License-Identifier: MIT
/*
 * ldr_handle: loader objects, the handles the application sees when several
 * drivers are loaded.
 *
 * Vocabulary:
 *   slot     one struct ldr_obj in ldr_objs, a single reservation of
 *            LDR_MAX_OBJECTS slots made at commit (MAP_NORESERVE: pages are
 *            touched only as slots are used, and never unmapped, so reading
 *            any slot is always safe);
 *   map      (driver, kind, real handle) -> slot, a chained hash over a
 *            fixed bucket array, so one driver object always gets the same
 *            loader handle (zeDeviceGet twice, or the device that
 *            zeMemGetAllocProperties returns, compare equal);
 *   release  forgetting the object after a successful destroy; its slot is
 *            reused later, and until then the handle reads as stale.
 *
 * A handle is valid when it points at a slot boundary inside the
 * reservation and that slot is live with the expected kind (ldr_obj_get in
 * ldr.h): no lock, no hash, and a forged pointer is never dereferenced.
 *
 * Finding the object of a driver handle (every handle a driver returns)
 * first walks the map without the lock: a slot's fields are changed only
 * between two increments of its seq (odd meanwhile), so a reader that sees
 * the same even seq before and after comparing the fields saw one
 * consistent object. The walk is bounded; a miss, a change or a long chain
 * falls back to the locked lookup, which also inserts.
 *
 * Locking: obj_lock serialises every change to the map, the free list and
 * the slots. Lock-free readers: ldr_obj_get (by handle) and the first walk
 * of ldr_obj_wrap.
 */
#include "ldr.h"

#include <assert.h>
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#define BUCKETS (1u << 16)
#define FAST_STEPS 16

static_assert(sizeof(struct ldr_obj) == 32, "a slot is 32 bytes");

struct ldr_obj *ldr_objs;
static _Atomic uint32_t *buckets; /* slot + 1 of a chain's head; 0: empty */
static uint32_t free_head;        /* slot + 1; 0: none */
static uint32_t used;             /* slots ever handed out */
static pthread_mutex_t obj_lock = PTHREAD_MUTEX_INITIALIZER;

#define LOAD(x) atomic_load_explicit(&(x), memory_order_relaxed)
#define STORE(x, v) atomic_store_explicit(&(x), (v), memory_order_relaxed)

int
ldr_objects_init(void)
{
	size_t bytes = (size_t)LDR_MAX_OBJECTS * sizeof(struct ldr_obj);
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	buckets = calloc(BUCKETS, sizeof(*buckets));
	if (!buckets) {
		munmap(p, bytes);
		return -ENOMEM;
	}
	ldr_objs = p;
	return 0;
}

static uint32_t
bucket_of(uint32_t drv, unsigned kind, const void *real)
{
	uint64_t h = (uint64_t)(uintptr_t)real ^ ((uint64_t)drv << 48) ^
		     ((uint64_t)kind << 56);
	h *= 0x9e3779b97f4a7c15ull;
	return (uint32_t)(h >> 48) & (BUCKETS - 1);
}

ze_result_t
ldr_bad_handle(const void *h)
{
	if (!h)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	u_dbg("ldr", "%p is not a live handle of this loader", h);
	return ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

static inline bool
same(struct ldr_obj *o, uint32_t drv, unsigned kind, const void *real)
{
	return LOAD(o->real) == real && LOAD(o->drv) == drv &&
	       LOAD(o->kind) == kind && LOAD(o->magic) == LDR_OBJ_MAGIC;
}

/* The lock-free walk; NULL when not found (or not sure). */
static struct ldr_obj *
find_fast(uint32_t b, uint32_t drv, unsigned kind, const void *real)
{
	uint32_t i = atomic_load_explicit(&buckets[b], memory_order_acquire);
	for (int steps = 0; i && i <= LDR_MAX_OBJECTS && steps < FAST_STEPS;
	     steps++) {
		struct ldr_obj *o = &ldr_objs[i - 1];
		uint32_t seq = atomic_load_explicit(&o->seq,
						    memory_order_acquire);
		bool match = !(seq & 1) && same(o, drv, kind, real);
		i = atomic_load_explicit(&o->next, memory_order_acquire);
		atomic_thread_fence(memory_order_acquire);
		if (LOAD(o->seq) != seq)
			return NULL;
		if (match)
			return o;
	}
	return NULL;
}

/* Starts or ends a change of o (under obj_lock). */
static void
seq_begin(struct ldr_obj *o)
{
	STORE(o->seq, LOAD(o->seq) + 1);
	atomic_thread_fence(memory_order_release);
}

static void
seq_end(struct ldr_obj *o)
{
	atomic_store_explicit(&o->seq, LOAD(o->seq) + 1, memory_order_release);
}

/* Finds or inserts under obj_lock. */
static __attribute__((noinline)) void *
wrap_locked(uint32_t b, uint32_t drv, const ze_dditable_t *ddi, unsigned kind,
	    void *real)
{
	struct ldr_obj *o = NULL;
	pthread_mutex_lock(&obj_lock);
	for (uint32_t i = LOAD(buckets[b]); i; i = LOAD(ldr_objs[i - 1].next)) {
		if (same(&ldr_objs[i - 1], drv, kind, real)) {
			o = &ldr_objs[i - 1];
			goto out;
		}
	}
	uint32_t slot;
	if (free_head) {
		slot = free_head - 1;
		free_head = LOAD(ldr_objs[slot].next);
	} else if (used < LDR_MAX_OBJECTS) {
		slot = used++;
	} else {
		u_err("ldr", "more than %u live handles; cannot wrap another",
		      LDR_MAX_OBJECTS);
		goto out;
	}
	o = &ldr_objs[slot];
	seq_begin(o);
	STORE(o->kind, (uint16_t)kind);
	STORE(o->drv, (uint16_t)drv);
	STORE(o->real, real);
	STORE(o->ddi, ddi);
	STORE(o->next, LOAD(buckets[b]));
	STORE(o->magic, LDR_OBJ_MAGIC);
	seq_end(o);
	atomic_store_explicit(&buckets[b], slot + 1, memory_order_release);
	u_trace("ldr", "%s %p of driver %u is %p", ldr_kind_name(kind), real,
		drv, (void *)o);
out:
	pthread_mutex_unlock(&obj_lock);
	return o;
}

void *
ldr_obj_wrap(uint32_t drv, const ze_dditable_t *ddi, unsigned kind,
	     void *real)
{
	uint32_t b = bucket_of(drv, kind, real);
	struct ldr_obj *o = find_fast(b, drv, kind, real);
	return o ? o : wrap_locked(b, drv, ddi, kind, real);
}

void
ldr_obj_release(const struct ldr_obj *co)
{
	if (!co)
		return;
	uint32_t slot = (uint32_t)(co - ldr_objs);
	struct ldr_obj *o = &ldr_objs[slot];
	pthread_mutex_lock(&obj_lock);
	if (LOAD(o->magic) != LDR_OBJ_MAGIC)
		goto out; /* released by another thread meanwhile */
	uint32_t b = bucket_of(LOAD(o->drv), LOAD(o->kind), LOAD(o->real));
	for (_Atomic uint32_t *link = &buckets[b]; LOAD(*link);
	     link = &ldr_objs[LOAD(*link) - 1].next) {
		if (LOAD(*link) == slot + 1) {
			atomic_store_explicit(link, LOAD(o->next),
					      memory_order_release);
			break;
		}
	}
	seq_begin(o);
	STORE(o->magic, 0);
	STORE(o->real, NULL);
	STORE(o->next, free_head);
	seq_end(o);
	free_head = slot + 1;
out:
	pthread_mutex_unlock(&obj_lock);
}

ze_result_t
ldr_wrap_out(const struct ldr_obj *o, unsigned kind, void **ph, ze_result_t r)
{
	*ph = ldr_wrap(o, kind, *ph);
	return *ph ? r : ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
}

ze_result_t
ldr_wrap_array(const struct ldr_obj *o, unsigned kind, uint32_t n,
	       void **arr, ze_result_t r)
{
	for (uint32_t i = 0; i < n; i++) {
		if (arr[i] && !(arr[i] = ldr_wrap(o, kind, arr[i])))
			r = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	}
	return r;
}

ze_result_t
ldr_unwrap_array(const struct ldr_obj *o, unsigned kind, uint32_t n,
		 void *const *in, void **buf, void ***out)
{
	*out = NULL;
	if (!in || !n)
		return ZE_RESULT_SUCCESS;
	void **arr = n <= LDR_ARRAY_STACK ? buf : malloc(n * sizeof(*arr));
	if (!arr)
		return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
	for (uint32_t i = 0; i < n; i++) {
		const struct ldr_obj *p = ldr_obj_peer(o, in[i], kind);
		if (!p) {
			ldr_array_free(arr, buf);
			return in[i] ? ZE_RESULT_ERROR_INVALID_ARGUMENT
				     : ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
		}
		arr[i] = p->real;
	}
	*out = arr;
	return ZE_RESULT_SUCCESS;
}

/* zel_handle_type_t -> kind. */
static const unsigned zel_kinds[] = {
	[ZEL_HANDLE_DRIVER] = LDR_KIND_DRIVER,
	[ZEL_HANDLE_DEVICE] = LDR_KIND_DEVICE,
	[ZEL_HANDLE_CONTEXT] = LDR_KIND_CONTEXT,
	[ZEL_HANDLE_COMMAND_QUEUE] = LDR_KIND_COMMAND_QUEUE,
	[ZEL_HANDLE_COMMAND_LIST] = LDR_KIND_COMMAND_LIST,
	[ZEL_HANDLE_FENCE] = LDR_KIND_FENCE,
	[ZEL_HANDLE_EVENT_POOL] = LDR_KIND_EVENT_POOL,
	[ZEL_HANDLE_EVENT] = LDR_KIND_EVENT,
	[ZEL_HANDLE_IMAGE] = LDR_KIND_IMAGE,
	[ZEL_HANDLE_MODULE] = LDR_KIND_MODULE,
	[ZEL_HANDLE_MODULE_BUILD_LOG] = LDR_KIND_MODULE_BUILD_LOG,
	[ZEL_HANDLE_KERNEL] = LDR_KIND_KERNEL,
	[ZEL_HANDLE_SAMPLER] = LDR_KIND_SAMPLER,
	[ZEL_HANDLE_PHYSICAL_MEM] = LDR_KIND_PHYSICAL_MEM,
};

ze_result_t ZE_APICALL
zelLoaderTranslateHandle(zel_handle_type_t handleType, void *handleIn,
			 void **handleOut)
{
	if (!handleIn)
		return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
	if (!handleOut)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	if ((unsigned)handleType >= sizeof(zel_kinds) / sizeof(zel_kinds[0]))
		return ZE_RESULT_ERROR_INVALID_ENUMERATION;
	if (!ldr_committed())
		return ZE_RESULT_ERROR_UNINITIALIZED;
	if (!ldr.multi) {
		*handleOut = handleIn;
		return ZE_RESULT_SUCCESS;
	}
	const struct ldr_obj *o = ldr_obj_get(handleIn, zel_kinds[handleType]);
	if (!o)
		return ldr_bad_handle(handleIn);
	*handleOut = o->real;
	return ZE_RESULT_SUCCESS;
}
