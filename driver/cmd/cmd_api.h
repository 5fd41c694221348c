// SPDX-License-Identifier: MIT
/*
 * cmd_api: what driver/cmd (the copy engine) offers the floors above it:
 * its ze* entry points (drv_ddi.c), the queue groups (drv_device.c), frees
 * of memory that submitted work may still use (drv_mem.c). cmd.h is the
 * folder's private header.
 */
#ifndef ZEMEM_CMD_API_H
#define ZEMEM_CMD_API_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "drv_core.h"

/* cmd_queue.c: queue groups for zeDeviceGetCommandQueueGroupProperties */
uint32_t cmd_queue_group_count(void);
void cmd_queue_group_props(uint32_t ordinal,
			   ze_command_queue_group_properties_t *p);
/* cmd_mem.c: zeMemFree / zeMemFreeExt of memory that submitted work may
 * still use. *deferred true: the free was queued behind that work (done);
 * false: the caller frees now (a BLOCKING_FREE has waited already). An
 * error is a second free of a deferred pointer. info: what the address
 * map answered for ptr (a USM block), so the free looks nothing up
 * again. */
ze_result_t cmd_mem_free_slow(struct _ze_context_handle_t *ctx, void *ptr,
			      const struct usm_info *info, uint32_t policy,
			      bool *deferred);
/* Batches in flight (low half, counted by CMD_MEM_INFLIGHT) and blocked
 * or deferred frees (high half, CMD_MEM_WATCHER): one word, one load. */
extern DRV_HIDDEN _Atomic uint64_t cmd_mem_busy;
#define CMD_MEM_INFLIGHT ((uint64_t)1)
#define CMD_MEM_WATCHER ((uint64_t)1 << 32)
/* No work in flight and no deferred free: a free has nothing to wait for
 * (a batch submitted while its memory is freed is the caller's race). */
static inline bool
cmd_mem_idle(void)
{
	return !atomic_load(&cmd_mem_busy);
}
static inline ze_result_t
cmd_mem_free(struct _ze_context_handle_t *ctx, void *ptr,
	     const struct usm_info *info, uint32_t policy, bool *deferred)
{
	if (cmd_mem_idle()) {
		*deferred = false;
		return ZE_RESULT_SUCCESS;
	}
	return cmd_mem_free_slow(ctx, ptr, info, policy, deferred);
}
/* Blocks until no submitted copy-engine op touches [ptr, ptr + size):
 * drv_driver.c installs it as drv_core's drv_wait_idle, which the floors
 * below call (IPC close, VMM unmap and free). */
void cmd_mem_wait_idle(const void *ptr, size_t size);
/* What a deferred free calls after usm_free: the budget and export
 * release of the freed block (drv_mem_release, installed at driver init
 * by drv_driver.c: the copy engine calls no floor above it by name). */
void cmd_mem_set_release(void (*fn)(const struct usm_info *info, void *arg));
/* cmd_queue.c */
ze_result_t cmd_zeCommandQueueCreate(ze_context_handle_t hContext,
				     ze_device_handle_t hDevice,
				     const ze_command_queue_desc_t *desc,
				     ze_command_queue_handle_t *phCommandQueue);
ze_result_t cmd_zeCommandQueueDestroy(ze_command_queue_handle_t hCommandQueue);
ze_result_t cmd_zeCommandQueueExecuteCommandLists(
	ze_command_queue_handle_t hCommandQueue, uint32_t numCommandLists,
	ze_command_list_handle_t *phCommandLists, ze_fence_handle_t hFence);
ze_result_t cmd_zeCommandQueueSynchronize(
	ze_command_queue_handle_t hCommandQueue, uint64_t timeout);
ze_result_t cmd_zeCommandQueueGetOrdinal(
	ze_command_queue_handle_t hCommandQueue, uint32_t *pOrdinal);
ze_result_t cmd_zeCommandQueueGetIndex(
	ze_command_queue_handle_t hCommandQueue, uint32_t *pIndex);
ze_result_t cmd_zeCommandQueueGetFlags(
	ze_command_queue_handle_t hCommandQueue,
	ze_command_queue_flags_t *pFlags);
ze_result_t cmd_zeCommandQueueGetMode(
	ze_command_queue_handle_t hCommandQueue,
	ze_command_queue_mode_t *pMode);
ze_result_t cmd_zeCommandQueueGetPriority(
	ze_command_queue_handle_t hCommandQueue,
	ze_command_queue_priority_t *pPriority);
/* cmd_list.c */
ze_result_t cmd_zeCommandListCreate(ze_context_handle_t hContext,
				    ze_device_handle_t hDevice,
				    const ze_command_list_desc_t *desc,
				    ze_command_list_handle_t *phCommandList);
ze_result_t cmd_zeCommandListCreateImmediate(
	ze_context_handle_t hContext, ze_device_handle_t hDevice,
	const ze_command_queue_desc_t *altdesc,
	ze_command_list_handle_t *phCommandList);
ze_result_t cmd_zeCommandListDestroy(ze_command_list_handle_t hCommandList);
ze_result_t cmd_zeCommandListClose(ze_command_list_handle_t hCommandList);
ze_result_t cmd_zeCommandListReset(ze_command_list_handle_t hCommandList);
ze_result_t cmd_zeCommandListHostSynchronize(
	ze_command_list_handle_t hCommandList, uint64_t timeout);
ze_result_t cmd_zeCommandListGetDeviceHandle(
	ze_command_list_handle_t hCommandList, ze_device_handle_t *phDevice);
ze_result_t cmd_zeCommandListGetContextHandle(
	ze_command_list_handle_t hCommandList, ze_context_handle_t *phContext);
ze_result_t cmd_zeCommandListGetOrdinal(
	ze_command_list_handle_t hCommandList, uint32_t *pOrdinal);
ze_result_t cmd_zeCommandListIsImmediate(
	ze_command_list_handle_t hCommandList, ze_bool_t *pIsImmediate);
ze_result_t cmd_zeCommandListGetFlags(ze_command_list_handle_t hCommandList,
				      ze_command_list_flags_t *pFlags);
ze_result_t cmd_zeCommandListImmediateGetIndex(
	ze_command_list_handle_t hCommandList, uint32_t *pIndex);
ze_result_t cmd_zeCommandListImmediateGetFlags(
	ze_command_list_handle_t hCommandList,
	ze_command_queue_flags_t *pFlags);
ze_result_t cmd_zeCommandListImmediateGetMode(
	ze_command_list_handle_t hCommandList, ze_command_queue_mode_t *pMode);
ze_result_t cmd_zeCommandListImmediateGetPriority(
	ze_command_list_handle_t hCommandList,
	ze_command_queue_priority_t *pPriority);
/* cmd_append.c */
ze_result_t cmd_zeCommandListAppendWriteGlobalTimestamp(
	ze_command_list_handle_t hCommandList, uint64_t *dstptr,
	ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
	ze_event_handle_t *phWaitEvents);
ze_result_t cmd_zeCommandListAppendBarrier(
	ze_command_list_handle_t hCommandList, ze_event_handle_t hSignalEvent,
	uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents);
ze_result_t cmd_zeCommandListAppendMemoryRangesBarrier(
	ze_command_list_handle_t hCommandList, uint32_t numRanges,
	const size_t *pRangeSizes, const void **pRanges,
	ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
	ze_event_handle_t *phWaitEvents);
ze_result_t cmd_zeCommandListAppendMemoryCopy(
	ze_command_list_handle_t hCommandList, void *dstptr,
	const void *srcptr, size_t size, ze_event_handle_t hSignalEvent,
	uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents);
ze_result_t cmd_zeCommandListAppendMemoryCopyWithParameters(
	ze_command_list_handle_t hCommandList, void *dstptr,
	const void *srcptr, size_t size, const void *pNext,
	ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
	ze_event_handle_t *phWaitEvents);
ze_result_t cmd_zeCommandListAppendMemoryCopyFromContext(
	ze_command_list_handle_t hCommandList, void *dstptr,
	ze_context_handle_t hContextSrc, const void *srcptr, size_t size,
	ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
	ze_event_handle_t *phWaitEvents);
ze_result_t cmd_zeCommandListAppendMemoryFill(
	ze_command_list_handle_t hCommandList, void *ptr, const void *pattern,
	size_t pattern_size, size_t size, ze_event_handle_t hSignalEvent,
	uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents);
ze_result_t cmd_zeCommandListAppendMemoryFillWithParameters(
	ze_command_list_handle_t hCommandList, void *ptr, const void *pattern,
	size_t patternSize, size_t size, const void *pNext,
	ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
	ze_event_handle_t *phWaitEvents);
ze_result_t cmd_zeCommandListAppendMemoryCopyRegion(
	ze_command_list_handle_t hCommandList, void *dstptr,
	const ze_copy_region_t *dstRegion, uint32_t dstPitch,
	uint32_t dstSlicePitch, const void *srcptr,
	const ze_copy_region_t *srcRegion, uint32_t srcPitch,
	uint32_t srcSlicePitch, ze_event_handle_t hSignalEvent,
	uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents);
ze_result_t cmd_zeCommandListAppendMemoryPrefetch(
	ze_command_list_handle_t hCommandList, const void *ptr, size_t size);
ze_result_t cmd_zeCommandListAppendMemAdvise(
	ze_command_list_handle_t hCommandList, ze_device_handle_t hDevice,
	const void *ptr, size_t size, ze_memory_advice_t advice);
ze_result_t cmd_zeCommandListAppendSignalEvent(
	ze_command_list_handle_t hCommandList, ze_event_handle_t hEvent);
ze_result_t cmd_zeCommandListAppendSignalEventWithParameters(
	ze_command_list_handle_t hCommandList, const void *pNext,
	ze_event_handle_t hEvent);
ze_result_t cmd_zeCommandListAppendWaitOnEvents(
	ze_command_list_handle_t hCommandList, uint32_t numEvents,
	ze_event_handle_t *phEvents);
ze_result_t cmd_zeCommandListAppendWaitOnEventsWithParameters(
	ze_command_list_handle_t hCommandList, const void *pNext,
	uint32_t numEvents, ze_event_handle_t *phEvents);
ze_result_t cmd_zeCommandListAppendEventReset(
	ze_command_list_handle_t hCommandList, ze_event_handle_t hEvent);
/* cmd_fence.c */
ze_result_t cmd_zeFenceCreate(ze_command_queue_handle_t hCommandQueue,
			      const ze_fence_desc_t *desc,
			      ze_fence_handle_t *phFence);
ze_result_t cmd_zeFenceDestroy(ze_fence_handle_t hFence);
ze_result_t cmd_zeFenceHostSynchronize(ze_fence_handle_t hFence,
				       uint64_t timeout);
ze_result_t cmd_zeFenceQueryStatus(ze_fence_handle_t hFence);
ze_result_t cmd_zeFenceReset(ze_fence_handle_t hFence);
/* cmd_event.c */
ze_result_t cmd_zeEventPoolCreate(ze_context_handle_t hContext,
				  const ze_event_pool_desc_t *desc,
				  uint32_t numDevices,
				  ze_device_handle_t *phDevices,
				  ze_event_pool_handle_t *phEventPool);
ze_result_t cmd_zeEventPoolDestroy(ze_event_pool_handle_t hEventPool);
ze_result_t cmd_zeEventPoolGetContextHandle(ze_event_pool_handle_t hEventPool,
					    ze_context_handle_t *phContext);
ze_result_t cmd_zeEventPoolGetFlags(ze_event_pool_handle_t hEventPool,
				    ze_event_pool_flags_t *pFlags);
ze_result_t cmd_zeEventCreate(ze_event_pool_handle_t hEventPool,
			      const ze_event_desc_t *desc,
			      ze_event_handle_t *phEvent);
ze_result_t cmd_zeEventDestroy(ze_event_handle_t hEvent);
ze_result_t cmd_zeEventHostSignal(ze_event_handle_t hEvent);
ze_result_t cmd_zeEventHostSynchronize(ze_event_handle_t hEvent,
				       uint64_t timeout);
ze_result_t cmd_zeEventQueryStatus(ze_event_handle_t hEvent);
ze_result_t cmd_zeEventHostReset(ze_event_handle_t hEvent);
ze_result_t cmd_zeEventQueryKernelTimestamp(
	ze_event_handle_t hEvent, ze_kernel_timestamp_result_t *dstptr);
ze_result_t cmd_zeEventGetEventPool(ze_event_handle_t hEvent,
				    ze_event_pool_handle_t *phEventPool);
ze_result_t cmd_zeEventGetSignalScope(ze_event_handle_t hEvent,
				      ze_event_scope_flags_t *pSignalScope);
ze_result_t cmd_zeEventGetWaitScope(ze_event_handle_t hEvent,
				    ze_event_scope_flags_t *pWaitScope);
/* cmd_event_ipc.c */
ze_result_t cmd_zeEventPoolGetIpcHandle(ze_event_pool_handle_t hEventPool,
					ze_ipc_event_pool_handle_t *phIpc);
ze_result_t cmd_zeEventPoolOpenIpcHandle(ze_context_handle_t hContext,
					 ze_ipc_event_pool_handle_t hIpc,
					 ze_event_pool_handle_t *phEventPool);
ze_result_t cmd_zeEventPoolCloseIpcHandle(ze_event_pool_handle_t hEventPool);
ze_result_t cmd_zeEventPoolPutIpcHandle(ze_context_handle_t hContext,
					ze_ipc_event_pool_handle_t hIpc);
/* cmd_event_cb.c */
ze_result_t cmd_zeEventCounterBasedCreate(
	ze_context_handle_t hContext, ze_device_handle_t hDevice,
	const ze_event_counter_based_desc_t *desc, ze_event_handle_t *phEvent);
ze_result_t cmd_zeEventCounterBasedGetIpcHandle(
	ze_event_handle_t hEvent, ze_ipc_event_counter_based_handle_t *phIpc);
ze_result_t cmd_zeEventCounterBasedOpenIpcHandle(
	ze_context_handle_t hContext, ze_ipc_event_counter_based_handle_t hIpc,
	ze_event_handle_t *phEvent);
ze_result_t cmd_zeEventCounterBasedCloseIpcHandle(ze_event_handle_t hEvent);
ze_result_t cmd_zeEventCounterBasedGetDeviceAddress(
	ze_event_handle_t hEvent, uint64_t *completionValue,
	uint64_t *deviceAddress);
ze_result_t cmd_zeEventGetCounterBasedFlags(
	ze_event_handle_t hEvent, ze_event_counter_based_flags_t *pFlags);
ze_result_t cmd_zeDeviceGetCounterBasedEventMaxValue(
	ze_device_handle_t hDevice, uint64_t *maxValue);
/* cmd_queue.c */
ze_result_t cmd_zeCommandListImmediateAppendCommandListsExp(
	ze_command_list_handle_t hCommandListImmediate,
	uint32_t numCommandLists, ze_command_list_handle_t *phCommandLists,
	ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
	ze_event_handle_t *phWaitEvents);
ze_result_t cmd_zeCommandListImmediateAppendCommandListsWithParameters(
	ze_command_list_handle_t hCommandListImmediate,
	uint32_t numCommandLists, ze_command_list_handle_t *phCommandLists,
	const void *pNext, ze_event_handle_t hSignalEvent,
	uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents);

#endif
