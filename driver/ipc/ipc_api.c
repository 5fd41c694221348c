// SPDX-License-Identifier: MIT
/*
 * ipc_api: the IPC entry points (zeMemGetIpcHandle, zeMemOpenIpcHandle,
 * zeMemCloseIpcHandle, zeMemPutIpcHandle, zeMemGetIpcHandleWithProperties,
 * the two Exp fd conversions), the hooks drv_mem.c calls for external
 * memory and imported pointers, and this process's identity.
 *
 * Argument checks happen here, in the order of the other entry points
 * (handles, then pointers, then enumerations), and each -errno that the
 * ipc files return becomes one ze_result_t with a message (DRV_FAIL).
 *
 * Conversions (Exp): zeMemGetFileDescriptorFromIpcHandleExp returns the
 * fd a handle names (driver-owned, valid until the handle is put; only for
 * allocations that own their file); zeMemGetIpcHandleFromFileDescriptorExp
 * wraps any memfd (sealed against shrinking) or dma-buf fd of this process
 * in an "fd handle" that opens the whole file and holds no reference (its
 * put does nothing: the fd stays the application's).
 *
 * State: the identity (pid, nonce) and the fork handlers, set up once under
 * pthread_once; the fork child handler makes a new identity.
 */
#include "ipc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

/* ---- identity ----------------------------------------------------------- */

static struct ipc_self self;
static pthread_once_t self_once = PTHREAD_ONCE_INIT;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

uint64_t
ipc_random64(void)
{
	uint64_t v = 0;
	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) == (ssize_t)sizeof(v) && v)
		return v;
	/* No entropy yet (early boot): unique enough for a nonce. */
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	v = ipc_hash64((uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^
		       ((uint64_t)getpid() << 42) ^ (uintptr_t)&v);
	return v ? v : 1;
}

static void
self_make(void)
{
	self.pid = (int32_t)getpid();
	self.nonce = ipc_random64();
	/* Fd handles name a file of ours by number: a forged one must not
	 * make us map some file we hold (our heap), so they carry a nonce
	 * that no handle leaving the process shows. */
	if (ipc_secret64(&self.fd_nonce) || !self.fd_nonce)
		self.fd_nonce = ipc_random64() ^ ipc_hash64(self.nonce);
}

void
ipc_self(struct ipc_self *out)
{
	pthread_once(&self_once, self_make);
	*out = self;
}

static void
fork_prepare(void)
{
	ipc_import_fork_prepare();
	ipc_phys_fork_prepare();
	ipc_export_fork_prepare();
	ipc_broker_fork_prepare();
}

static void
fork_parent(void)
{
	ipc_broker_fork_parent();
	ipc_export_fork_parent();
	ipc_phys_fork_parent();
	ipc_import_fork_parent();
}

static void
fork_child(void)
{
	/* A new process: new identity, no broker, none of the parent's
	 * exports (their fds are closed without touching their tags, which
	 * the parent still uses); imports stay valid (inherited fds and
	 * MAP_SHARED mappings). */
	ipc_secret_fork_child();
	self_make();
	ipc_broker_fork_child();
	ipc_export_fork_child();
	ipc_phys_fork_child();
	ipc_import_fork_child();
	ipc_handle_fork_child();
}

static void
init(void)
{
	pthread_once(&self_once, self_make);
	pthread_atfork(fork_prepare, fork_parent, fork_child);
}

void
ipc_init_once(void)
{
	pthread_once(&init_once, init);
}

__attribute__((destructor)) static void
ipc_fini(void)
{
	ipc_broker_stop();
}

/* ---- entry points ------------------------------------------------------- */

/* The shared context check, and IPC's one-time setup. */
#define CHECK_CONTEXT(h, c)                                                 \
	DRV_CHECK_CONTEXT(h, c);                                            \
	ipc_init_once()

static ze_result_t
get_handle(struct _ze_context_handle_t *c, const void *ptr, size_t range,
	   ze_ipc_mem_handle_t *out)
{
	/* One lookup says what ptr is: a USM block is exported as one;
	 * virtual memory, or no range at all (a physical object's handle is
	 * no address), is ipc_phys's. */
	struct amap_hit hit;
	amap_find(ptr, &hit);
	int err = hit.kind == AMAP_USM_BLOCK && !range
			  ? 1
			  : ipc_phys_get(c, ptr, range, out->data);
	switch (err) {
	case 0:
		return ZE_RESULT_SUCCESS;
	case 1:
		break; /* not physical memory: a USM allocation? */
	case -EINVAL:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"%p: pass a physical memory handle (without a "
				"range), or the base of a mapping, or a "
				"page-aligned range", ptr);
	case -E2BIG:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"%p is mapped to several physical objects: "
				"chain ze_ipc_phys_mem_handle_range_ext_desc_t",
				ptr);
	case -ENXIO:
		return DRV_FAIL(ZE_RESULT_ERROR_ADDRESS_NOT_FOUND,
				"the range at %p has unmapped pages", ptr);
	case -ENOENT:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"the range at %p is not inside one "
				"reservation of the context", ptr);
	case -EPERM:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"%p belongs to another context", ptr);
	case -EFBIG:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"the range at %p has too many pieces", ptr);
	default:
		return DRV_FAIL(drv_result(err), "cannot export %p: %s", ptr,
				strerror(-err));
	}
	err = ipc_export_get(c, ptr, out->data);
	switch (err) {
	case 0:
		return ZE_RESULT_SUCCESS;
	case -ENOENT:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"%p is not a live allocation", ptr);
	case -EPERM:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"%p belongs to another context", ptr);
	case -EINVAL:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"%p is inside an allocation: pass its base",
				ptr);
	case -EBUSY:
		u_warn("ipc", "allocation %p shares its file with other "
			      "allocations and cannot be exported: a shared "
			      "allocation up to 64 KiB, or a host or device "
			      "block made when no file of its own could be had "
			      "(ZEMEM_EXPORT_FILES reached, or no fd left); "
			      "allocate it with ze_external_memory_export_desc_t",
		       ptr);
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"%p shares its file with other allocations",
				ptr);
	case -EOPNOTSUPP:
		return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
				"%p is not backed by a shareable file", ptr);
	case -EFBIG:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"%p is too large for an IPC handle", ptr);
	default:
		return DRV_FAIL(drv_result(err), "cannot export %p: %s", ptr,
				strerror(-err));
	}
}

ze_result_t
drv_zeMemGetIpcHandle(ze_context_handle_t hContext, const void *ptr,
		      ze_ipc_mem_handle_t *pIpcHandle)
{
	CHECK_CONTEXT(hContext, c);
	if (!ptr || !pIpcHandle)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"ptr or pIpcHandle is NULL");
	return get_handle(c, ptr, 0, pIpcHandle);
}

ze_result_t
drv_zeMemGetIpcHandleWithProperties(ze_context_handle_t hContext,
				    const void *ptr, void *pNext,
				    ze_ipc_mem_handle_t *pIpcHandle)
{
	CHECK_CONTEXT(hContext, c);
	if (!ptr || !pIpcHandle)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"ptr or pIpcHandle is NULL");
	const ze_structure_type_t range =
		ZE_STRUCTURE_TYPE_IPC_PHYS_MEM_HANDLE_RANGE_EXT_DESC;
	const ze_structure_type_t type =
		ZE_STRUCTURE_TYPE_IPC_MEM_HANDLE_TYPE_EXT_DESC;
	size_t range_size = 0;
	for (const ze_base_desc_t *d = pNext; d; d = d->pNext) {
		if (d->stype == range) {
			const ze_ipc_phys_mem_handle_range_ext_desc_t *r =
				(const void *)d;
			if (!r->size)
				return DRV_FAIL(
					ZE_RESULT_ERROR_INVALID_ARGUMENT,
					"physical-range size is 0");
			range_size = r->size;
			continue;
		}
		if (d->stype != type) {
			u_dbg("ipc", "ignoring stype 0x%x in the pNext chain",
			      d->stype);
			continue;
		}
		const ze_ipc_mem_handle_type_ext_desc_t *t = (const void *)d;
		ze_ipc_mem_handle_type_flags_t fabric =
			ZE_IPC_MEM_HANDLE_TYPE_FLAG_FABRIC_ACCESSIBLE;
		ze_ipc_mem_handle_type_flags_t known =
			ZE_IPC_MEM_HANDLE_TYPE_FLAG_DEFAULT | fabric;
		if (t->typeFlags & ~known)
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION,
					"unknown IPC handle type flags 0x%x",
					t->typeFlags);
		if (t->typeFlags & fabric)
			return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
					"fabric-accessible IPC handles are not "
					"supported");
	}
	return get_handle(c, ptr, range_size, pIpcHandle);
}

ze_result_t
drv_zeMemOpenIpcHandle(ze_context_handle_t hContext,
		       ze_device_handle_t hDevice, ze_ipc_mem_handle_t handle,
		       ze_ipc_memory_flags_t flags, void **pptr)
{
	CHECK_CONTEXT(hContext, c);
	struct _ze_device_handle_t *dev = NULL;
	ze_result_t r = drv_check_device(c, hDevice, __func__, &dev);
	if (r)
		return r;
	if (!pptr)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"pptr is NULL");
	*pptr = NULL;
	if (flags & ~(ze_ipc_memory_flags_t)(ZE_IPC_MEMORY_FLAG_BIAS_CACHED |
					     ZE_IPC_MEMORY_FLAG_BIAS_UNCACHED))
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION,
				"unknown IPC memory flags 0x%x", flags);
	const char *why = NULL;
	int err = ipc_import_open(c, dev, handle.data, pptr, &why);
	switch (err) {
	case 0:
		return ZE_RESULT_SUCCESS;
	case -EBADMSG:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"malformed IPC handle: %s", why ? why : "?");
	case -ESTALE:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"stale IPC handle: it was put, or its file "
				"is gone");
	case -ESRCH:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"the exporting process is gone");
	case -EACCES:
		return DRV_FAIL(ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS,
				"the exporter refused (another user?)");
	case -ENOTCONN:
		return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
				"ZEMEM_IPC_TRANSPORT=none and no fd in the "
				"handle");
	case -EBADF:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"the handle's file is not sealed against "
				"shrinking or not writable");
	case -ERANGE:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"the handle's range is outside its file");
	case -ENOMEM:
	case -EMFILE:
	case -ENFILE:
		return DRV_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
				"cannot map the handle: %s", strerror(-err));
	case -ETIMEDOUT:
	case -EAGAIN:
		/* Not NOT_READY: that is a success code (nothing was opened,
		 * *pptr is NULL). The exporter's memory is not available
		 * now; the exporter is alive but did not answer in
		 * ZEMEM_IPC_TIMEOUT_MS: the application may retry. */
		return DRV_FAIL(ZE_RESULT_ERROR_NOT_AVAILABLE,
				"the exporter's broker did not answer in "
				"time (ZEMEM_IPC_TIMEOUT_MS)");
	default:
		return DRV_FAIL(drv_result(err), "cannot open the handle: %s",
				strerror(-err));
	}
}

ze_result_t
drv_zeMemCloseIpcHandle(ze_context_handle_t hContext, const void *ptr)
{
	CHECK_CONTEXT(hContext, c);
	if (!ptr)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"ptr is NULL");
	/* An IPC import (the common close: its own lookup, and it lets
	 * queued copies into it finish), else a physical-range import
	 * (imports are regions of the map, never USM blocks: the region
	 * layer alone), whose queued copies finish before it goes. */
	int err = ipc_import_close(c, ptr);
	struct amap_hit hit;
	if (err == -ENOENT && !amap_region(ptr, &hit) &&
	    hit.kind == AMAP_PHYS_IMPORT) {
		if (hit.info.base == ptr && hit.info.ctx == c)
			drv_wait_idle(ptr, hit.info.size);
		err = ipc_phys_close(c, ptr);
	}
	switch (err) {
	case 0:
		return ZE_RESULT_SUCCESS;
	case -EINVAL:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"%p is inside an opened handle: pass the "
				"pointer zeMemOpenIpcHandle returned", ptr);
	case -EPERM:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"%p was opened in another context", ptr);
	case -EXDEV:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"%p is an imported allocation: free it with "
				"zeMemFree", ptr);
	default:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"%p was not opened (or is already closed)",
				ptr);
	}
}

/* Decodes a handle and tells whether this process made it. */
static ze_result_t
decode_own(ze_ipc_mem_handle_t *h, struct ipc_desc *d, bool *own)
{
	const char *why;
	struct ipc_self me;
	if (ipc_handle_decode(h->data, d, &why))
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"malformed IPC handle: %s", why);
	ipc_self(&me);
	*own = d->pid == me.pid &&
	       d->nonce == (d->type == IPC_TYPE_FD ? me.fd_nonce : me.nonce);
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeMemPutIpcHandle(ze_context_handle_t hContext, ze_ipc_mem_handle_t handle)
{
	CHECK_CONTEXT(hContext, c);
	struct ipc_desc d;
	bool own;
	ze_result_t r = decode_own(&handle, &d, &own);
	if (r)
		return r;
	if (!own)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"the handle was made by pid %d, not by this "
				"process", (int)d.pid);
	if (d.type == IPC_TYPE_FD)
		return ZE_RESULT_SUCCESS; /* holds nothing */
	int err = d.type == IPC_TYPE_PHYS ? ipc_phys_put(&d)
					 : ipc_export_put(&d);
	if (err == -EALREADY) {
		/* Intel's driver answers success to a put of a handle whose
		 * last reference is gone (the conformance suite puts one
		 * handle through two contexts); the validation layer reports
		 * it. */
		u_dbg("ipc", "put of a handle already put: nothing to do");
		return ZE_RESULT_SUCCESS;
	}
	if (err)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"the handle names no export of this process "
				"(forged, or never issued)");
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zeMemGetFileDescriptorFromIpcHandleExp(ze_context_handle_t hContext,
					   ze_ipc_mem_handle_t ipcHandle,
					   uint64_t *pHandle)
{
	CHECK_CONTEXT(hContext, c);
	if (!pHandle)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"pHandle is NULL");
	struct ipc_desc d;
	bool own;
	ze_result_t r = decode_own(&ipcHandle, &d, &own);
	if (r)
		return r;
	if (d.type == IPC_TYPE_PHYS)
		return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
				"a physical-memory handle stands for several "
				"files, not one fd");
	if (d.type == IPC_TYPE_FD || ipc_handle_fd_replaced(&d)) {
		if (d.type == IPC_TYPE_FD && !own)
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
					"fd handle of another process");
		*pHandle = (uint64_t)d.fd; /* a local fd, written locally */
		return ZE_RESULT_SUCCESS;
	}
	if (!own)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"the handle was made by pid %d: its fd number "
				"means nothing here", (int)d.pid);
	int fd = -1;
	switch (ipc_export_handle_fd(&d, &fd)) {
	case 0:
		*pHandle = (uint64_t)fd;
		return ZE_RESULT_SUCCESS;
	case -EOPNOTSUPP:
		return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
				"the allocation shares its file with others: "
				"allocate it with "
				"ze_external_memory_export_desc_t");
	default:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"the handle was put (or never issued)");
	}
}

ze_result_t
drv_zeMemGetIpcHandleFromFileDescriptorExp(ze_context_handle_t hContext,
					   uint64_t handle,
					   ze_ipc_mem_handle_t *pIpcHandle)
{
	CHECK_CONTEXT(hContext, c);
	if (!pIpcHandle)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"pIpcHandle is NULL");
	if (handle > INT_MAX)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"%llu is not an fd",
				(unsigned long long)handle);
	int fd = (int)handle;
	struct ipc_fdinfo fi;
	struct ipc_self me;
	if (fcntl(fd, F_GETFD) < 0 || ipc_fd_inspect(fd, &fi))
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"fd %d is not open", fd);
	if (!fi.shmem && !fi.dmabuf)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"fd %d is neither a memfd nor a dma-buf", fd);
	if (fi.shmem && !(fi.seals & F_SEAL_SHRINK))
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"memfd %d is not sealed with F_SEAL_SHRINK",
				fd);
	if (!fi.size || fi.size > IPC_MAX_BYTES)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"fd %d has size %llu", fd,
				(unsigned long long)fi.size);
	ipc_self(&me);
	struct ipc_desc d = {
		.fd = fd, .fd_copy = fd, .type = IPC_TYPE_FD,
		.kind = USM_KIND_DEVICE, .flags = IPC_FLAG_WHOLE,
		.pid = me.pid, .ino = (uint32_t)fi.ino, .nonce = me.fd_nonce,
		.size = fi.size,
	};
	if (fi.dmabuf) {
		d.flags |= IPC_FLAG_DMABUF;
	} else if ((fi.pos >> 61) == 1) {
		/* A zemem export file: its tag says the kind, or that it is
		 * a shared pool segment (which must not be mapped whole). */
		uint8_t k = (uint8_t)(fi.pos & IPC_TAG_KIND_MASK);
		if (k & IPC_TAG_SEGMENT)
			return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
					"fd %d is a shared pool segment: pass "
					"the IPC handle itself", fd);
		if (k <= USM_KIND_SHARED) {
			d.kind = k;
			d.tag = fi.pos;
			d.flags |= IPC_FLAG_TAGGED;
		}
	}
	ipc_handle_encode(&d, pIpcHandle->data);
	return ZE_RESULT_SUCCESS;
}

/* ---- hooks for drv_mem.c ------------------------------------------------ */

uint32_t
ipc_external_types(void)
{
	return ipc_export_types();
}

ze_result_t
ipc_mem_import_fd(struct _ze_context_handle_t *c, enum usm_kind kind,
		  struct _ze_device_handle_t *dev,
		  const ze_external_memory_import_fd_t *imp, size_t size,
		  void **pptr)
{
	ipc_init_once();
	uint32_t t = imp->flags;
	if (t & (t - 1))
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"import flags 0x%x name more than one type", t);
	if (t & ~ipc_export_types())
		return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION,
				"external memory type 0x%x is not supported "
				"here", t);
	if (imp->fd < 0)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"import fd %d", imp->fd);
	int err = ipc_import_external(c, kind, dev, imp->fd, t, size, pptr);
	switch (err) {
	case 0:
		return ZE_RESULT_SUCCESS;
	case -EPROTONOSUPPORT:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"fd %d is not a %s", imp->fd,
				t == ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF
					? "dma-buf" : "memfd");
	case -EBADF:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"fd %d is not open read-write, or not sealed "
				"with F_SEAL_SHRINK", imp->fd);
	case -ERANGE:
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"fd %d is smaller than %zu bytes", imp->fd,
				size);
	default:
		return DRV_FAIL(drv_result(err), "cannot import fd %d: %s",
				imp->fd, strerror(-err));
	}
}

int
ipc_mem_free(struct _ze_context_handle_t *c, void *ptr)
{
	return ipc_import_free(c, ptr);
}

ze_result_t
ipc_mem_export_fd(struct _ze_context_handle_t *c, const struct usm_info *info,
		  ze_external_memory_export_fd_t *e)
{
	ipc_init_once();
	uint32_t t = e->flags;
	if (t & (t - 1))
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"export fd flags 0x%x name more than one type",
				t);
	if (t & ~ipc_export_types())
		return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION,
				"external memory type 0x%x is not supported "
				"here", t);
	int fd = -1, err = ipc_export_alloc_fd(c, info, t, &fd);
	switch (err) {
	case 0:
		e->fd = fd;
		return ZE_RESULT_SUCCESS;
	case -EPROTONOSUPPORT:
		return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION,
				"%p is not backed by a dma-buf", info->base);
	case -EOPNOTSUPP:
	case -EBUSY:
		return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
				"%p shares its file with other allocations: "
				"allocate it with "
				"ze_external_memory_export_desc_t", info->base);
	default:
		return DRV_FAIL(drv_result(err), "cannot export %p: %s",
				info->base, strerror(-err));
	}
}

void
ipc_mem_freed(const struct usm_info *info)
{
	ipc_export_freed(info);
}

void
ipc_context_destroyed(struct _ze_context_handle_t *c)
{
	ipc_import_context_destroyed(c);
	ipc_phys_context_destroyed(c);
}

void
ipc_driver_init(void)
{
	ipc_init_once();
	ipc_export_init();
	ipc_broker_ensure();
}
