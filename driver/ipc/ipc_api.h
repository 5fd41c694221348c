// SPDX-License-Identifier: MIT
/*
 * ipc_api: what driver/ipc offers the floors above it (drv_ddi.c fills the
 * tables with its entry points; drv_mem.c, drv_device.c, drv_context.c and
 * drv_driver.c call its hooks). ipc.h is the folder's private header.
 */
#ifndef ZEMEM_IPC_API_H
#define ZEMEM_IPC_API_H

#include <stdbool.h>
#include <stdint.h>

#include "drv_core.h"

/* ipc/ipc_api.c: IPC entry points */
ze_result_t drv_zeMemGetIpcHandle(ze_context_handle_t hContext,
				  const void *ptr,
				  ze_ipc_mem_handle_t *pIpcHandle);
ze_result_t drv_zeMemGetIpcHandleWithProperties(
	ze_context_handle_t hContext, const void *ptr, void *pNext,
	ze_ipc_mem_handle_t *pIpcHandle);
ze_result_t drv_zeMemOpenIpcHandle(ze_context_handle_t hContext,
				   ze_device_handle_t hDevice,
				   ze_ipc_mem_handle_t handle,
				   ze_ipc_memory_flags_t flags, void **pptr);
ze_result_t drv_zeMemCloseIpcHandle(ze_context_handle_t hContext,
				    const void *ptr);
ze_result_t drv_zeMemPutIpcHandle(ze_context_handle_t hContext,
				  ze_ipc_mem_handle_t handle);
ze_result_t drv_zeMemGetFileDescriptorFromIpcHandleExp(
	ze_context_handle_t hContext, ze_ipc_mem_handle_t ipcHandle,
	uint64_t *pHandle);
ze_result_t drv_zeMemGetIpcHandleFromFileDescriptorExp(
	ze_context_handle_t hContext, uint64_t handle,
	ze_ipc_mem_handle_t *pIpcHandle);
/* ipc/ipc_api.c: hooks for drv_mem.c, drv_device.c, drv_context.c
 * (zeMemGetAllocProperties / GetAddressRange of imports: the address
 * map answers them, ipc_import.c and ipc_phys.c register there). */
/* External memory types this machine supports (export and import). */
uint32_t ipc_external_types(void);
/* An allocation from ze_external_memory_import_fd_t (flags != 0). */
ze_result_t ipc_mem_import_fd(struct _ze_context_handle_t *c,
			      enum usm_kind kind,
			      struct _ze_device_handle_t *dev,
			      const ze_external_memory_import_fd_t *imp,
			      size_t size, void **pptr);
/* zeMemFree of a pointer the address map says is an import (IPC_IMPORT
 * or PHYS_IMPORT): 0 (an external-fd import, freed), -EXDEV (opened from
 * an IPC handle: close it), -EINVAL (interior), -EPERM (another context),
 * -ENOENT (gone meanwhile). drv_mem.c reports it (drv_free_fail). */
int ipc_mem_free(struct _ze_context_handle_t *c, void *ptr);
/* ze_external_memory_export_fd_t in zeMemGetAllocProperties' chain. */
ze_result_t ipc_mem_export_fd(struct _ze_context_handle_t *c,
			      const struct usm_info *info,
			      ze_external_memory_export_fd_t *e);
/* An allocation was freed (drv_mem_release; may run under usm locks). */
void ipc_mem_freed(const struct usm_info *info);
/* IPC's one-time setup (its fork handlers); drv_driver.c runs it before
 * the heap exists. */
void ipc_init_once(void);
/* Closes every import of a context being destroyed. */
void ipc_context_destroyed(struct _ze_context_handle_t *c);
/* Once, from driver init: fork handlers, broker thread. */
void ipc_driver_init(void);


#endif
