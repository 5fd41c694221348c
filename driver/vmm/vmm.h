// SPDX-License-Identifier: MIT
/*
 * vmm: what driver/vmm (virtual and physical memory: zeVirtualMem*,
 * zePhysicalMem*) offers the rest of the driver: its ze* entry points
 * and the hooks for the floors above (drv_core.h names the floors).
 *
 * Vocabulary:
 *   reservation  a range of address space from zeVirtualMemReserve, held
 *                by a PROT_NONE placeholder mapping; owned by a context;
 *   physical     a physical memory object (zePhysicalMemCreate): one
 *                memfd, on a device (counted against its budget) or on
 *                the host; its handle is a pointer to it, checked against
 *                a registry before any use;
 *   mapping      the pages of a reservation that zeVirtualMemMap backed by
 *                a physical object at an offset (MAP_SHARED | MAP_FIXED);
 *   piece        the driver's record of part of a mapping with one access
 *                attribute (a mapping is one or more adjacent pieces).
 *
 * Page-size rule (zeVirtualMemQueryPageSize, what Intel's GPU driver
 * reports): 64 KiB for sizes below 2 MiB, 2 MiB from 2 MiB up, never less
 * than the OS page. Reservations and device physical objects must be a
 * multiple of the page size of their size; host physical objects of the OS
 * page (as the spec says for host memory). A mapping's address, size and
 * offset must be multiples of the page size of the mapping's size, or of
 * its physical object's page size where that is smaller (so a 1 MiB
 * window of a 2 MiB object maps at 64 KiB granularity). Unmap, Free and
 * the access-attribute calls work on OS-page multiples. Size 0 asks for
 * the smallest page size (64 KiB), as Intel's driver answers.
 *
 * Locking: one reader-writer lock (vmm_lock, vmm_resv.c) protects every
 * reservation, piece and the physical registry. It is a leaf: no other
 * driver lock is taken under it, and it is never held across a call out
 * of the driver except vmm_range_walk's callback (see there).
 *
 * Errors: 0 or -errno, as everywhere inside the driver.
 */
#ifndef ZEMEM_VMM_H
#define ZEMEM_VMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drv_core.h"

/* ---- the entry points (vmm_resv.c, vmm_map.c, vmm_phys.c) ------------- */
ze_result_t drv_zeVirtualMemReserve(ze_context_handle_t hContext,
				    const void *pStart, size_t size,
				    void **pptr);
ze_result_t drv_zeVirtualMemFree(ze_context_handle_t hContext,
				 const void *ptr, size_t size);
ze_result_t drv_zeVirtualMemQueryPageSize(ze_context_handle_t hContext,
					  ze_device_handle_t hDevice,
					  size_t size, size_t *pagesize);
ze_result_t drv_zeVirtualMemMap(ze_context_handle_t hContext,
				const void *ptr, size_t size,
				ze_physical_mem_handle_t hPhysicalMemory,
				size_t offset,
				ze_memory_access_attribute_t access);
ze_result_t drv_zeVirtualMemUnmap(ze_context_handle_t hContext,
				  const void *ptr, size_t size);
ze_result_t drv_zeVirtualMemSetAccessAttribute(
	ze_context_handle_t hContext, const void *ptr, size_t size,
	ze_memory_access_attribute_t access);
ze_result_t drv_zeVirtualMemGetAccessAttribute(
	ze_context_handle_t hContext, const void *ptr, size_t size,
	ze_memory_access_attribute_t *access, size_t *outSize);
ze_result_t drv_zePhysicalMemCreate(ze_context_handle_t hContext,
				    ze_device_handle_t hDevice,
				    ze_physical_mem_desc_t *desc,
				    ze_physical_mem_handle_t *phPhysicalMemory);
ze_result_t drv_zePhysicalMemDestroy(ze_context_handle_t hContext,
				     ze_physical_mem_handle_t hPhysicalMemory);
ze_result_t drv_zePhysicalMemGetProperties(
	ze_context_handle_t hContext, ze_physical_mem_handle_t hPhysicalMem,
	ze_physical_mem_properties_t *pMemProperties);


/* The page-size rule above: the page size for an allocation of size
 * bytes (0: the smallest). */
size_t vmm_page_size_for(size_t size);

/* ---- for drv_mem.c: zeMemGetAllocProperties / zeMemGetAddressRange ---- */

/* If ptr lies in a mapping of one of ctx's reservations, fills out as a
 * USM allocation of the physical object's placement: kind DEVICE or HOST,
 * base and size of the whole mapping (the zeVirtualMemMap call that
 * placed it), an id unique among mappings and distinct from every USM id
 * (bit 63 set), the object's page size and device (NULL for host memory
 * created without one), ctx, bk_type BK_MEMFD, fd the object's memfd
 * (owned by vmm: valid only while the object lives) and fd_offset the
 * object offset of base. 0, or -ENOENT (not mapped: reserved-only pages
 * included). */
/* ctx NULL: a mapping of any context (here and in vmm_range_walk). */
int vmm_usm_info(struct _ze_context_handle_t *ctx, const void *ptr,
		 struct usm_info *out);

/* ---- for drv_context.c ------------------------------------------------ */

/* Context destroy: frees every reservation of ctx (unmapping what is
 * mapped), then destroys its physical objects (giving their budget back).
 * Returns how many reservations and objects it released. */
size_t vmm_ctx_destroy(struct _ze_context_handle_t *ctx);

/* ---- for driver/ipc (exporting physical memory) ------------------------ */

/* A physical object, as the IPC side needs to export it. */
struct vmm_phys_info {
	size_t size;            /* bytes */
	size_t page_size;       /* its mapping granularity */
	enum usm_kind kind;     /* USM_KIND_DEVICE or USM_KIND_HOST */
	struct _ze_device_handle_t *dev;  /* NULL: host memory, no device */
	struct _ze_context_handle_t *ctx; /* the context that created it */
	uint64_t id;            /* zePhysicalMemGetProperties' id */
};

/* Looks h up in the registry (a forged or destroyed handle is never
 * dereferenced). fd (may be NULL): receives a new close-on-exec duplicate
 * of the object's memfd, owned by the caller, so the memory outlives a
 * zePhysicalMemDestroy that races with the export. size (may be NULL),
 * info (may be NULL). 0, -ENOENT (not a live physical object), or -errno
 * from the dup (nothing returned then). */
int vmm_phys_info(ze_physical_mem_handle_t h, int *fd, size_t *size,
		  struct vmm_phys_info *info);

/* One run of a virtual range backed by one physical object at contiguous
 * offsets (adjacent pieces of one object are merged). */
struct vmm_piece {
	const void *va;         /* first byte of the run, inside the range */
	size_t size;            /* bytes of the run, clipped to the range */
	ze_physical_mem_handle_t phys;
	size_t offset;          /* object offset of va */
	int fd;                 /* the object's memfd: valid during the
				 * callback only, dup it to keep it */
	struct vmm_phys_info info;
};

/* Called once per run, in address order; return 0 to go on, anything
 * else stops the walk and is returned by vmm_range_walk. */
typedef int (*vmm_walk_cb)(const struct vmm_piece *piece, void *arg);

/* Walks [va, va + size) of one of ctx's reservations. The whole range
 * must be mapped: -ENOENT if it is not inside one reservation of ctx,
 * -ENXIO if any page of it is not mapped (the callback is not called
 * then). The callback runs under vmm_lock held for reading: it must not
 * call any zeVirtualMem* / zePhysicalMem* entry point, vmm_phys_info or
 * this function. */
int vmm_range_walk(struct _ze_context_handle_t *ctx, const void *va,
		   size_t size, vmm_walk_cb cb, void *arg);

/* ---- address-space helpers (vmm_os.c), for the IPC importer ------------ */

/* A fresh PROT_NONE reservation placeholder of size bytes aligned to align
 * (a power of two; OS page at least). 0 or -ENOMEM. */
int vmm_os_reserve(size_t size, size_t align, void **out);
/* Maps [off, off + size) of fd at va (inside a placeholder), MAP_SHARED |
 * MAP_FIXED with prot; on failure va is a placeholder again. */
int vmm_os_map_fd(void *va, size_t size, int prot, int fd, uint64_t off);
/* Turns [va, va + size) back into placeholder (unmapping what was there). */
int vmm_os_placeholder(void *va, size_t size);
/* Gives [va, va + size) back to the system. */
int vmm_os_release(void *va, size_t size);

#endif
