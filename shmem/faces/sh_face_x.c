// SPDX-License-Identifier: MIT
/*
 * sh_face_x.c: the shmemx entries for language bindings (the Python module
 * `shmem`, python/): init settings that replace an option for the next
 * init (heap size, copy mode), the log threshold, the timeout and device
 * queries, and the blocking calls in forms that return -errno instead of
 * ending the PE (a bounded signal wait, barrier_all, finalize), so that a
 * binding can raise an exception and check for interrupts between slices.
 */
#include "sh_face.h"

#include "u_options.h"
#include "u_os.h"

#define HEAP_MIN (64ull << 10)
#define HEAP_MAX (64ull << 40)

int
shmemx_set_heap_size(size_t bytes)
{
	if (sh.initialized)
		return -EBUSY;
	if (bytes && (bytes < HEAP_MIN || bytes > HEAP_MAX))
		return -EINVAL;
	sh_req_heap_size = bytes;
	return 0;
}

int
shmemx_set_copy_mode(int mode)
{
	if (sh.initialized)
		return -EBUSY;
	if (mode < SHMEMX_COPY_DEFAULT || mode > SHMEMX_COPY_ENGINE)
		return -EINVAL;
	_Static_assert((int)SHMEMX_COPY_AUTO == (int)SH_COPY_AUTO &&
		       (int)SHMEMX_COPY_DIRECT == (int)SH_COPY_DIRECT &&
		       (int)SHMEMX_COPY_ENGINE == (int)SH_COPY_ENGINE,
		       "copy modes");
	sh_req_copy = mode;
	return 0;
}

int
shmemx_set_log_level(int level)
{
	return u_log_set_level(level) ? -EINVAL : 0;
}

unsigned
shmemx_timeout(void)
{
	return sh.initialized ? sh.timeout_s :
		(unsigned)u_option_u64(U_OPT_SH_TIMEOUT);
}

int
shmemx_device_index(void)
{
	if (!sh.initialized || !sh.zdrv)
		return -ENODEV;
	uint32_t n = 0;
	if (zeDeviceGet(sh.zdrv, &n, NULL) || n == 0)
		return -ENODEV;
	ze_device_handle_t dev[64];
	if (n > 64)
		n = 64;
	if (zeDeviceGet(sh.zdrv, &n, dev))
		return -ENODEV;
	for (uint32_t i = 0; i < n; i++)
		if (dev[i] == sh.zdev)
			return (int)i;
	return -ENODEV;
}

struct bounded {
	volatile uint64_t *sig;
	int cmp;
	uint64_t value;
	uint64_t deadline;
	int hit;
};

static bool
bounded_pred(void *arg)
{
	struct bounded *b = arg;
	uint64_t v = __atomic_load_n(b->sig, __ATOMIC_ACQUIRE);
	if (sh_test(&v, SH_T_UINT, 8, b->cmp, &b->value) > 0) {
		b->hit = 1;
		return true;
	}
	return u_now_ns() >= b->deadline;
}

int
shmemx_signal_wait_until_timeout(uint64_t *sig_addr, int cmp,
				 uint64_t cmp_value, long timeout_ms,
				 uint64_t *value)
{
	if (!sh.initialized)
		return -ENODEV;
	if (sig_addr == NULL || ((uintptr_t)sig_addr & 7) != 0 ||
	    cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_GE || timeout_ms < 0)
		return -EINVAL;
	if (sh_remote_ptr(sig_addr, 8, sh.me) == NULL) {
		/* As the waits of shmem.h refuse it (sh_face_sync.c). */
		u_warn("shmem", "%s: sig_addr %p is not a symmetric address "
		       "(pe %d): not in the symmetric heap or the program's "
		       "static data", __func__, (void *)sig_addr, sh.me);
		return -EFAULT;
	}
	struct bounded b = {
		.sig = sig_addr, .cmp = cmp, .value = cmp_value,
		.deadline = u_now_ns() + (uint64_t)timeout_ms * 1000000ull,
	};
	int rc = sh_wait_pred_on(bounded_pred, &b, -1, SH_WAIT_DATA,
				 sig_addr);
	if (rc < 0)
		return rc;
	if (!b.hit)
		return 1;
	if (value)
		*value = __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
	return 0;
}

int
shmemx_barrier_all_status(void)
{
	if (!sh.initialized)
		return -ENODEV;
	return sh_barrier(sh_team_world);
}

int
shmemx_finalize_status(void)
{
	int rc = sh_finalize();
	if (!sh.initialized) {
		SHMEM_TEAM_WORLD = SHMEM_TEAM_INVALID;
		SHMEM_TEAM_SHARED = SHMEM_TEAM_INVALID;
	}
	return rc;
}

void *
shmemx_ze_context(void)
{
	return sh.initialized ? (void *)sh.zctx : NULL;
}

void *
shmemx_ze_device(void)
{
	return sh.initialized ? (void *)sh.zdev : NULL;
}

int
shmemx_set_ze_context(void *ctx)
{
	sh_symreg_set_ctx((ze_context_handle_t)ctx);
	return 0;
}
