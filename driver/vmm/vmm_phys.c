// SPDX-License-Identifier: MIT
/*
 * vmm_phys: physical memory objects (zePhysicalMemCreate / Destroy /
 * GetProperties) and their registry.
 *
 * Vocabulary:
 *   object    struct _ze_physical_mem_handle_t: one sealed memfd of the
 *             object's size, created lazily (pages are allocated when
 *             first touched through a mapping), named
 *             "zemem:vmm:device" or "zemem:vmm:host";
 *   placement device memory (ZE_PHYSICAL_MEM_FLAG_ALLOCATE_ON_DEVICE, the
 *             default) counts its size against the device's budget from
 *             create to destroy; host memory (ALLOCATE_ON_HOST) counts
 *             against no device and may be created without one;
 *   registry  an open-addressing hash set of the live objects' addresses.
 *             A handle is looked up there before it is dereferenced, so a
 *             forged, destroyed or foreign handle is an INVALID_ARGUMENT,
 *             never a crash.
 *
 * Import (issue 19, WholeMemory's CONTINUOUS memory): a
 * ze_external_memory_import_fd_t (OPAQUE_FD) chained to the descriptor
 * makes an object of another process's physical memory: the fd (a memfd
 * or any regular file or shared-memory object of at least desc->size
 * bytes, received by the application through its own channel) is
 * duplicated, the caller keeps and closes its own; the object maps like
 * any other and counts against no budget (the exporter's does).
 *
 * Destroying an object that is still mapped somewhere is refused with
 * ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE (the result the spec lists for
 * zePhysicalMemDestroy): unmap first. Context destroy releases everything
 * regardless.
 *
 * Locking: the registry and every object's piece count are under vmm_lock;
 * an object's other fields never change while it is registered.
 */
#include "vmm_private.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "u_os.h"

#define PHYS_FLAGS_ALL                                                      \
	(ZE_PHYSICAL_MEM_FLAG_ALLOCATE_ON_DEVICE |                          \
	 ZE_PHYSICAL_MEM_FLAG_ALLOCATE_ON_HOST)

/* ---- registry (under vmm_lock) ---------------------------------------- */

typedef struct _ze_physical_mem_handle_t phys_t;

#define REG_TOMB ((phys_t *)(uintptr_t)1)
static phys_t **reg;     /* NULL: empty slot; REG_TOMB: removed */
static size_t reg_cap;   /* 0 or a power of two */
static size_t reg_used;  /* live + tombstones */
static size_t reg_live;

static size_t
reg_hash(const void *p, size_t cap)
{
	uint64_t x = (uint64_t)(uintptr_t)p;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return (size_t)x & (cap - 1);
}

static phys_t **
reg_slot(const void *p)
{
	if (!reg_cap || !p || p == REG_TOMB)
		return NULL;
	for (size_t i = reg_hash(p, reg_cap), n = 0; n < reg_cap;
	     i = (i + 1) & (reg_cap - 1), n++) {
		if (!reg[i])
			return NULL;
		if (reg[i] == p)
			return &reg[i];
	}
	return NULL;
}

static void
reg_put(phys_t **slots, size_t cap, phys_t *p)
{
	size_t i = reg_hash(p, cap);
	while (slots[i] && slots[i] != REG_TOMB)
		i = (i + 1) & (cap - 1);
	slots[i] = p;
}

/* Room for one more entry with the table at most 3/4 full. */
static int
reg_make_room(void)
{
	if ((reg_used + 1) * 4 <= reg_cap * 3)
		return 0;
	size_t cap = 64;
	while ((reg_live + 1) * 2 > cap)
		cap *= 2;
	phys_t **slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < reg_cap; i++)
		if (reg[i] && reg[i] != REG_TOMB)
			reg_put(slots, cap, reg[i]);
	free(reg);
	reg = slots;
	reg_cap = cap;
	reg_used = reg_live;
	return 0;
}

static void
reg_insert(phys_t *p)
{
	size_t i = reg_hash(p, reg_cap);
	while (reg[i] && reg[i] != REG_TOMB)
		i = (i + 1) & (reg_cap - 1);
	if (!reg[i])
		reg_used++;
	reg[i] = p;
	reg_live++;
}

static void
reg_remove(phys_t **slot)
{
	*slot = REG_TOMB;
	if (--reg_live == 0) {
		/* Empty: give the table back (no memory held at rest). */
		free(reg);
		reg = NULL;
		reg_cap = reg_used = 0;
	}
}

phys_t *
vmm_phys_lookup(ze_physical_mem_handle_t h)
{
	phys_t **slot = reg_slot(h);
	return slot ? *slot : NULL;
}

/* ---- objects ----------------------------------------------------------- */

static void
phys_free(phys_t *p)
{
	if (!p->on_host && !p->imported)
		drv_budget_release(p->dev, p->size);
	p->magic = 0;
	close(p->fd);
	free(p);
}

static int
phys_create(struct _ze_context_handle_t *ctx, struct _ze_device_handle_t *dev,
	    bool on_host, size_t size, size_t page, int import_fd,
	    phys_t **out)
{
	int err;
	phys_t *p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->imported = import_fd >= 0;
	if (p->imported) {
		p->fd = fcntl(import_fd, F_DUPFD_CLOEXEC, 3);
		if (p->fd < 0)
			p->fd = -errno;
	} else {
		p->fd = vmm_os_memfd(on_host ? "zemem:vmm:host" :
					       "zemem:vmm:device", size);
	}
	if (p->fd < 0) {
		err = p->fd;
		goto err_free;
	}
	p->magic = VMM_PHYS_MAGIC;
	p->size = size;
	p->page = page;
	p->on_host = on_host;
	p->dev = dev;
	p->ctx = ctx;
	pthread_rwlock_wrlock(&vmm_lock);
	/* Not into a context destroyed meanwhile (see resv_create). */
	err = drv_context_get(ctx) ? reg_make_room() : -ENOENT;
	if (err) {
		pthread_rwlock_unlock(&vmm_lock);
		goto err_close;
	}
	p->id = VMM_ID_BIT | vmm_next_serial();
	reg_insert(p);
	pthread_rwlock_unlock(&vmm_lock);
	*out = p;
	return 0;
err_close:
	close(p->fd);
err_free:
	free(p);
	return err;
}

size_t
vmm_phys_destroy_ctx(struct _ze_context_handle_t *ctx)
{
	size_t n = 0;
	for (size_t i = 0; reg && i < reg_cap; i++) {
		phys_t *p = reg[i];
		if (!p || p == REG_TOMB || p->ctx != ctx)
			continue;
		p->pieces = 0; /* the caller dropped every piece of ctx */
		reg_remove(&reg[i]);
		phys_free(p);
		n++;
	}
	return n;
}

void
vmm_phys_fill_info(const phys_t *p, struct vmm_phys_info *info)
{
	info->size = p->size;
	info->page_size = p->page;
	info->kind = p->on_host ? USM_KIND_HOST : USM_KIND_DEVICE;
	info->dev = p->dev;
	info->ctx = p->ctx;
	info->id = p->id;
}

int
vmm_phys_info(ze_physical_mem_handle_t h, int *fd, size_t *size,
	      struct vmm_phys_info *info)
{
	int err = 0;
	pthread_rwlock_rdlock(&vmm_lock);
	phys_t *p = vmm_phys_lookup(h);
	if (!p) {
		err = -ENOENT;
		goto out;
	}
	if (fd) {
		*fd = fcntl(p->fd, F_DUPFD_CLOEXEC, 3);
		if (*fd < 0) {
			err = -errno;
			goto out;
		}
	}
	if (size)
		*size = p->size;
	if (info)
		vmm_phys_fill_info(p, info);
out:
	pthread_rwlock_unlock(&vmm_lock);
	return err;
}

/* ---- entry points ------------------------------------------------------ */

/* The fd of an import descriptor: a regular file or shared-memory object
 * (memfd, /dev/shm) of at least size bytes. 0 or -errno. */
static int
check_import_fd(int fd, size_t size)
{
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0)
		return -EBADF;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if ((uint64_t)st.st_size < size)
		return -ERANGE;
	return 0;
}

static ze_result_t
check_export_chain(const void *pNext,
		   const ze_external_memory_import_fd_t **import)
{
	for (const ze_base_desc_t *d = pNext; d; d = d->pNext) {
		if (d->stype == ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD) {
			const ze_external_memory_import_fd_t *im =
				(const void *)d;
			if (im->flags != ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD)
				return DRV_FAIL(
					ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION,
					"import of external memory types "
					"0x%x: only OPAQUE_FD (a memfd)",
					im->flags);
			if (*import)
				return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
						"two import descriptors");
			*import = im;
			continue;
		}
		if (d->stype != ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_DESC)
			return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION,
					"unknown stype 0x%x in the physical "
					"memory descriptor chain", d->stype);
		const ze_external_memory_export_desc_t *e = (const void *)d;
		if (e->flags & ~(ze_external_memory_type_flags_t)
				       ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD)
			return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION,
					"external memory types 0x%x: only "
					"OPAQUE_FD (a memfd) is exportable",
					e->flags);
	}
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zePhysicalMemCreate(ze_context_handle_t hContext,
			ze_device_handle_t hDevice,
			ze_physical_mem_desc_t *desc,
			ze_physical_mem_handle_t *phPhysicalMemory)
{
	DRV_CHECK_CONTEXT(hContext, ctx);
	ze_result_t r;
	if (!desc || !phPhysicalMemory)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"desc or phPhysicalMemory is NULL");
	*phPhysicalMemory = NULL;
	if (desc->stype != ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"desc->stype is 0x%x, not PHYSICAL_MEM_DESC",
				desc->stype);
	if (desc->flags & ~(ze_physical_mem_flags_t)PHYS_FLAGS_ALL)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION,
				"unknown physical memory flags 0x%x",
				desc->flags);
	bool on_host = desc->flags & ZE_PHYSICAL_MEM_FLAG_ALLOCATE_ON_HOST;
	if (on_host && (desc->flags & ZE_PHYSICAL_MEM_FLAG_ALLOCATE_ON_DEVICE))
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"ALLOCATE_ON_DEVICE and ALLOCATE_ON_HOST "
				"are exclusive");
	struct _ze_device_handle_t *dev = NULL;
	if (hDevice) {
		if ((r = drv_check_device(ctx, hDevice, __func__, &dev)))
			return r;
	} else if (!on_host) {
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hDevice is NULL (only host memory may "
				"omit it)");
	}
	const ze_external_memory_import_fd_t *import = NULL;
	if ((r = check_export_chain(desc->pNext, &import)))
		return r;
	size_t size = desc->size;
	if (size == 0)
		return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, "size is 0");
	int import_fd = -1;
	if (import) {
		int e = check_import_fd(import->fd, size);
		if (e)
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
					"import fd %d: %s (a regular file or "
					"memfd of %zu bytes or more)",
					import->fd, strerror(-e), size);
		import_fd = import->fd;
	}
	size_t page = on_host ? u_page_size() : vmm_page_size_for(size);
	if (size % page)
		return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
				"size %zu is not a multiple of the page size "
				"%zu (zeVirtualMemQueryPageSize)", size, page);
	if (on_host && u_phys_mem() && size > u_phys_mem())
		return DRV_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
				"%zu bytes of host memory: more than the "
				"machine has", size);
	bool charge = !on_host && import_fd < 0;
	if (charge && !drv_budget_reserve(dev, size))
		return DRV_FAIL(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY,
				"device %u: %zu bytes requested, %llu of %llu "
				"in use", dev->ordinal, size,
				(unsigned long long)atomic_load(&dev->used),
				(unsigned long long)dev->budget);
	phys_t *p;
	int err = phys_create(ctx, dev, on_host, size, page, import_fd, &p);
	if (err) {
		if (charge)
			drv_budget_release(dev, size);
		return DRV_FAIL(vmm_result(err), "%zu-byte memfd: %s", size,
				strerror(-err));
	}
	u_dbg(VMM_TOPIC, "physical %p: %zu bytes on %s %u, fd %d", (void *)p,
	      size, on_host ? "host" : "device", dev ? dev->ordinal : 0,
	      p->fd);
	*phPhysicalMemory = p;
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zePhysicalMemDestroy(ze_context_handle_t hContext,
			 ze_physical_mem_handle_t hPhysicalMemory)
{
	DRV_CHECK_CONTEXT(hContext, ctx);
	if (!hPhysicalMemory)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hPhysicalMemory is NULL");
	pthread_rwlock_wrlock(&vmm_lock);
	phys_t **slot = reg_slot(hPhysicalMemory);
	phys_t *p = slot ? *slot : NULL;
	size_t pieces = p ? p->pieces : 0;
	bool foreign = p && p->ctx != ctx;
	if (!p || foreign || pieces) {
		/* p may die once the lock is dropped: use the copies. */
		pthread_rwlock_unlock(&vmm_lock);
		if (!p)
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
					"%p is not a live physical memory "
					"object", (void *)hPhysicalMemory);
		if (foreign)
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
					"%p belongs to another context",
					(void *)hPhysicalMemory);
		return DRV_FAIL(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE,
				"%p is still mapped (%zu piece(s)): unmap it "
				"first", (void *)hPhysicalMemory, pieces);
	}
	reg_remove(slot);
	pthread_rwlock_unlock(&vmm_lock);
	phys_free(p);
	return ZE_RESULT_SUCCESS;
}

ze_result_t
drv_zePhysicalMemGetProperties(ze_context_handle_t hContext,
			       ze_physical_mem_handle_t hPhysicalMem,
			       ze_physical_mem_properties_t *pMemProperties)
{
	DRV_CHECK_CONTEXT(hContext, ctx);
	if (!hPhysicalMem)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hPhysicalMem is NULL");
	if (!pMemProperties)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"pMemProperties is NULL");
	/* Check the chain before anything is written. */
	for (ze_base_properties_t *e = pMemProperties->pNext; e; e = e->pNext) {
		if (e->stype != ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD)
			continue;
		ze_external_memory_export_fd_t *x = (void *)e;
		if (x->flags & ~(ze_external_memory_type_flags_t)
				       ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD)
			return DRV_FAIL(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION,
					"export fd of types 0x%x: only "
					"OPAQUE_FD", x->flags);
	}
	pthread_rwlock_rdlock(&vmm_lock);
	phys_t *p = vmm_phys_lookup(hPhysicalMem);
	if (!p || p->ctx != ctx) {
		pthread_rwlock_unlock(&vmm_lock);
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"%p is not a live physical memory object of "
				"this context", (void *)hPhysicalMem);
	}
	pMemProperties->id = p->id;
	pMemProperties->size = p->size;
	/* ze_external_memory_export_fd_t: the memfd itself, owned by the
	 * driver (the application must not close it), valid until destroy. */
	for (ze_base_properties_t *e = pMemProperties->pNext; e; e = e->pNext)
		if (e->stype == ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD)
			((ze_external_memory_export_fd_t *)(void *)e)->fd =
				p->fd;
	pthread_rwlock_unlock(&vmm_lock);
	return ZE_RESULT_SUCCESS;
}
