// SPDX-License-Identifier: MIT
/*
 * vt: helpers of the vmm tests (test_vmm.c, test_vmm_access.c): sizes,
 * one-line wrappers that assert success, and a forked child that runs an
 * access and reports the signal it died of.
 *
 * vt_checked_setup / vt_checked_teardown: the zt leak-checked fixture,
 * with a warm-up pass before the first snapshot (see vt_warm_up) and the
 * sanitizer-aware mapping check of vt_maps.h.
 *
 * The suites run with ZEMEM_DEVICE_COUNT=2 and ZEMEM_DEVICE_MEMORY_SIZE=64M
 * (tests/vmm/meson.build): two devices for the device-not-in-context cases,
 * a small budget for the budget cases.
 */
#ifndef ZEMEM_VT_H
#define ZEMEM_VT_H

#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vt_maps.h"
#include "zt.h"

#define K64 ((size_t)64 << 10)
#define M2 ((size_t)2 << 20)
#define VT_BUDGET ((size_t)64 << 20)
#define RW ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE
#define RO ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY
#define NOACC ZE_MEMORY_ACCESS_ATTRIBUTE_NONE
#define ON_HOST ZE_PHYSICAL_MEM_FLAG_ALLOCATE_ON_HOST
#define ON_DEVICE ZE_PHYSICAL_MEM_FLAG_ALLOCATE_ON_DEVICE

static inline ze_physical_mem_desc_t
vt_desc(ze_physical_mem_flags_t flags, size_t size)
{
	ze_physical_mem_desc_t d = { ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, NULL,
				     flags, size };
	return d;
}

/* A physical object of ctx on dev (NULL: host memory without device). */
static inline ze_physical_mem_handle_t
vt_phys_on(ze_context_handle_t ctx, ze_device_handle_t dev,
	   ze_physical_mem_flags_t flags, size_t size)
{
	ze_physical_mem_desc_t d = vt_desc(flags, size);
	ze_physical_mem_handle_t h = NULL;
	ck_assert_int_eq(zt.pmem.pfnCreate(ctx, dev, &d, &h),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_nonnull(h);
	return h;
}

static inline ze_physical_mem_handle_t
vt_phys(size_t size)
{
	return vt_phys_on(zt.ctx, zt.dev, 0, size);
}

static inline void
vt_phys_destroy(ze_physical_mem_handle_t h)
{
	ck_assert_int_eq(zt.pmem.pfnDestroy(zt.ctx, h), ZE_RESULT_SUCCESS);
}

static inline char *
vt_reserve_in(ze_context_handle_t ctx, size_t size)
{
	void *p = NULL;
	ck_assert_int_eq(zt.vmem.pfnReserve(ctx, NULL, size, &p),
			 ZE_RESULT_SUCCESS);
	ck_assert_ptr_nonnull(p);
	return p;
}

static inline char *
vt_reserve(size_t size)
{
	return vt_reserve_in(zt.ctx, size);
}

static inline void
vt_free(void *p, size_t size)
{
	ck_assert_int_eq(zt.vmem.pfnFree(zt.ctx, p, size), ZE_RESULT_SUCCESS);
}

static inline void
vt_map(void *p, size_t size, ze_physical_mem_handle_t h, size_t off,
       ze_memory_access_attribute_t access)
{
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, p, size, h, off, access),
			 ZE_RESULT_SUCCESS);
}

static inline void
vt_unmap(void *p, size_t size)
{
	ck_assert_int_eq(zt.vmem.pfnUnmap(zt.ctx, p, size), ZE_RESULT_SUCCESS);
}

/* Asserts GetAccessAttribute(p, size) gives access over outSize bytes. */
static inline void
vt_assert_access(void *p, size_t size, ze_memory_access_attribute_t access,
		 size_t out_size)
{
	ze_memory_access_attribute_t a = (ze_memory_access_attribute_t)77;
	size_t n = 0;
	ck_assert_int_eq(zt.vmem.pfnGetAccessAttribute(zt.ctx, p, size, &a,
						       &n),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(a, access);
	ck_assert_uint_eq(n, out_size);
}

/* Is every page of [p, p + len) mapped (placeholder or not)? */
static inline int
vt_mapped(const void *p, size_t len)
{
	return msync((void *)p, len, MS_ASYNC) == 0;
}

enum vt_op { VT_READ, VT_WRITE };

/* Runs one volatile access in a forked child with SIGSEGV and SIGBUS at
 * their defaults (set with the raw system call, so no sanitizer handler
 * stays in the way). Returns the signal the child died of, 0 if the
 * access went through, -1 on any other end. */
static inline int
vt_child_access(void *p, enum vt_op op)
{
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct {
			void *handler;
			unsigned long flags;
			void *restorer;
			uint64_t mask;
		} ksa = { NULL, 0, NULL, 0 }; /* SIG_DFL */
		syscall(SYS_rt_sigaction, SIGSEGV, &ksa, NULL, 8);
		syscall(SYS_rt_sigaction, SIGBUS, &ksa, NULL, 8);
		volatile char *c = p;
		if (op == VT_READ)
			(void)*c;
		else
			*c = 1;
		_exit(0);
	}
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	if (WIFSIGNALED(st))
		return WTERMSIG(st);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* ---- fixture ------------------------------------------------------------ */

/* One pass over every path that allocates (index, registry and piece
 * arrays at the sizes the tests reach, errors, a second context, threads
 * with their thread-local error text), so that allocators which map
 * memory once per size class and keep it (AddressSanitizer's) have done
 * so before the leak check takes its first snapshot. Without sanitizers
 * it changes nothing. */
static inline void *
vt_warm_thread(void *arg)
{
	(void)arg;
	void *p = NULL;
	ck_assert_int_eq(zt.vmem.pfnReserve(zt.ctx, NULL, 0, &p),
			 ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
	ze_physical_mem_handle_t h = vt_phys(K64);
	char *r = vt_reserve(K64);
	vt_map(r, K64, h, 0, RW);
	vt_unmap(r, K64);
	vt_free(r, K64);
	vt_phys_destroy(h);
	return NULL;
}

static inline void
vt_warm_up(void)
{
	enum { NR = 40, NP = 100, NT = 8 };
	zt_ctx_create();
	char *r[NR];
	ze_physical_mem_handle_t ph[NP];
	for (int i = 0; i < NR; i++)
		r[i] = vt_reserve(K64 * 64);
	for (int i = 0; i < NP; i++)
		ph[i] = vt_phys(K64);
	for (int i = 0; i < 64; i += 2)
		vt_map(r[0] + i * K64, K64, ph[i], 0, RW);
	ck_assert_int_eq(zt.vmem.pfnSetAccessAttribute(zt.ctx, r[0], K64, RO),
			 ZE_RESULT_SUCCESS);
	vt_assert_access(r[0], K64, RO, K64);
	ze_memory_allocation_properties_t mp = {
		ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES, NULL
	};
	ck_assert_int_eq(zt.mem.pfnGetAllocProperties(zt.ctx, r[0], &mp, NULL),
			 ZE_RESULT_SUCCESS);
	ck_assert_int_eq(zt.vmem.pfnMap(zt.ctx, r[0], K64, ph[0], 0, RW),
			 ZE_RESULT_ERROR_INVALID_ARGUMENT);
	for (int i = 0; i < NR; i++)
		vt_free(r[i], K64 * 64);
	for (int i = 0; i < NP; i++)
		vt_phys_destroy(ph[i]);
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_context_handle_t c2;
	ck_assert_int_eq(zt.context.pfnCreate(zt.drv, &cd, &c2),
			 ZE_RESULT_SUCCESS);
	vt_phys_on(c2, NULL, ON_HOST, K64);
	ck_assert_int_eq(zt.context.pfnDestroy(c2), ZE_RESULT_SUCCESS);
	size_t stack = (size_t)1 << 20;
	char *stacks = mmap(NULL, NT * stack, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert(stacks != MAP_FAILED);
	pthread_t th[NT];
	for (int i = 0; i < NT; i++) {
		pthread_attr_t at;
		pthread_attr_init(&at);
		pthread_attr_setstack(&at, stacks + i * stack, stack);
		ck_assert_int_eq(pthread_create(&th[i], &at, vt_warm_thread,
						NULL),
				 0);
		pthread_attr_destroy(&at);
	}
	for (int i = 0; i < NT; i++)
		pthread_join(th[i], NULL);
	munmap(stacks, NT * stack);
	zt_teardown();
}

static struct leakcheck vt_lc;
static struct vt_maps vt_maps0;

/* zt_checked_setup with the warm-up before the snapshot, and the check
 * of vt_maps.h (leakcheck's whole-process check except under ASan). */
static inline void
vt_checked_setup(void)
{
	zt_init();
	vt_warm_up();
	if (!TEST_ASAN)
		leakcheck_begin(&vt_lc);
	vt_maps_now(&vt_maps0);
	zt_ctx_create();
}

static inline void
vt_checked_teardown(void)
{
	leakcheck_assert_all_cloexec();
	zt_teardown();
	struct vt_maps now;
	vt_maps_now(&now);
	vt_maps_assert_same(&vt_maps0, &now);
	if (!TEST_ASAN)
		leakcheck_end(&vt_lc);
}

#endif
