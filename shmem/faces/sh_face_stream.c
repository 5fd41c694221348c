// SPDX-License-Identifier: MIT
/*
 * sh_face_stream.c: the stream-ordered operations, rocSHMEM 3.x's
 * rocshmem_*_on_stream and the same as shmemx_*_on_queue, with a Level
 * Zero command list (ze_command_list_handle_t) as the stream.
 *
 * An operation runs in the list's order: after the copies and events
 * appended before it, before those appended after it; an event signalled
 * or zeCommandListHostSynchronize after it sees it done.
 *   - putmem / getmem to or from a PE whose memory this process maps (the
 *     node's PEs, itself included): one zeCommandListAppendMemoryCopy on
 *     the list, immediate or regular: true stream order, no blocking.
 *   - everything else on an immediate list: zeCommandListHostSynchronize
 *     (what is in the list is done), then the operation on the host; it
 *     is done when the call returns, so whatever is appended later runs
 *     after it.
 *   - everything else on a regular list (nothing can run the host part
 *     when the list executes): ROCSHMEM_ERROR / -1 and one log line.
 * A copy engine's write rings no doorbell: a PE sleeping on data an
 * appended put wrote wakes at the writer's next drain of an immediate
 * list (quiet_on_stream, barrier_all_on_stream, ...), else at the end of
 * its sleep slice.
 * Whether a list is immediate: zeCommandListIsImmediate (Level Zero 1.9:
 * the loader's, or the driver's by name) when the process has it; else
 * zeCommandListHostSynchronize answers: it refuses a regular list
 * (ZE_RESULT_ERROR_INVALID_ARGUMENT).
 *
 * Results: 0 (ROCSHMEM_SUCCESS), else ROCSHMEM_ERROR (rocshmem_) or -1
 * (shmemx_) with one log line; the operation's own bad input (a PE out of
 * range, an address not symmetric) ends the PE as the plain routine does.
 */
#include "sh_face.h"

#pragma GCC visibility push(default)
#include "rocshmem/rocshmem.h"
#pragma GCC visibility pop

#include <stdatomic.h>
#include <stdint.h>

/* A put appended as a copy writes a peer's memory without its doorbell:
 * set then, and the next drain of an immediate list (quiet, barrier, any
 * host-side operation on a list) rings every mapped peer's: a wait on
 * the data wakes then, not at the end of its sleep slice. */
static atomic_bool q_unrung;

/* Rings the doorbells q_unrung owes (the copies are done: call after a
 * successful zeCommandListHostSynchronize). */
static void
q_ring(void)
{
	if (!atomic_exchange_explicit(&q_unrung, false, memory_order_acq_rel))
		return;
	for (int pe = 0; pe < sh.npes; pe++)
		sh_wake(pe);
}

typedef ze_result_t (*is_imm_fn)(ze_command_list_handle_t, ze_bool_t *);
typedef ze_result_t (*host_sync_fn)(ze_command_list_handle_t, uint64_t);

/* Finishes what the list holds when it is immediate: 0; 1 for a regular
 * list; -1 (one warning naming call) for no list or a failure. */
static int
q_drain(const char *call, void *stream)
{
	if (stream == NULL) {
		sh_warn(call, "stream is NULL (a ze_command_list_handle_t is "
			"needed)");
		return -1;
	}
	ze_command_list_handle_t cl = stream;
	is_imm_fn is_imm = (is_imm_fn)sh_ze_sym("zeCommandListIsImmediate");
	host_sync_fn hsync =
		(host_sync_fn)sh_ze_sym("zeCommandListHostSynchronize");
	if (hsync == NULL) {
		sh_warn(call, "the Level Zero loader has no "
			"zeCommandListHostSynchronize (1.6)");
		return -1;
	}
	if (is_imm) {
		ze_bool_t imm = 0;
		ze_result_t r = is_imm(cl, &imm);
		if (r != ZE_RESULT_SUCCESS) {
			sh_warn(call, "stream %p is not a command list "
				"(zeCommandListIsImmediate: 0x%x)", stream,
				(unsigned)r);
			return -1;
		}
		if (!imm)
			return 1;
	}
	ze_result_t r = hsync(cl, UINT64_MAX);
	if (r == ZE_RESULT_ERROR_INVALID_ARGUMENT && is_imm == NULL)
		return 1;
	if (r != ZE_RESULT_SUCCESS) {
		sh_warn(call, "zeCommandListHostSynchronize(%p): 0x%x", stream,
			(unsigned)r);
		return -1;
	}
	q_ring();
	return 0;
}

/* The host part of an operation on a regular list: refused. */
static int
q_regular(const char *call)
{
	sh_warn(call, "the stream is a regular command list: this operation "
		"needs the host, which can run it only in an immediate "
		"list's order");
	return -1;
}

/* Drains an immediate list; -1 for a regular list or an error. */
static int
q_host(const char *call, void *stream)
{
	int k = q_drain(call, stream);
	return k == 1 ? q_regular(call) : k;
}

/* A copy of n bytes on the list; -1 (one warning) when it fails. */
static int
q_copy(const char *call, void *stream, void *dst, const void *src,
       size_t n)
{
	ze_result_t r = zeCommandListAppendMemoryCopy(stream, dst, src, n,
						      NULL, 0, NULL);
	if (r != ZE_RESULT_SUCCESS) {
		sh_warn(call, "zeCommandListAppendMemoryCopy: 0x%x",
			(unsigned)r);
		return -1;
	}
	return 0;
}

static int
q_putmem(const char *call, void *dest, const void *source, size_t nelems,
	 int pe, void *stream)
{
	sh_check_init(call);
	face_pe(call, pe);
	if (stream == NULL)
		return q_drain(call, stream);
	if (nelems == 0)
		return 0;
	void *peer = sh_remote_ptr(dest, nelems, pe);
	if (peer) {
		int rc = q_copy(call, stream, peer, source, nelems);
		if (rc == 0 && pe != sh.me)
			atomic_store_explicit(&q_unrung, true,
					      memory_order_release);
		return rc;
	}
	if (q_host(call, stream))
		return -1;
	face_put(call, SHMEM_CTX_DEFAULT, dest, source, nelems, 1, pe, 0);
	return 0;
}

static int
q_getmem(const char *call, void *dest, const void *source, size_t nelems,
	 int pe, void *stream)
{
	sh_check_init(call);
	face_pe(call, pe);
	if (stream == NULL)
		return q_drain(call, stream);
	if (nelems == 0)
		return 0;
	const void *peer = sh_remote_ptr(source, nelems, pe);
	if (peer)
		return q_copy(call, stream, dest, peer, nelems);
	if (q_host(call, stream))
		return -1;
	face_get(call, SHMEM_CTX_DEFAULT, dest, source, nelems, 1, pe, 0);
	return 0;
}

static int
q_put_signal(const char *call, void *dest, const void *source,
	     size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op,
	     int pe, void *stream)
{
	sh_check_init(call);
	if (q_host(call, stream))
		return -1;
	face_put_signal(call, SHMEM_CTX_DEFAULT, dest, source, nelems, 1,
			sig_addr, signal, sig_op, pe, 0);
	return 0;
}

/* cmp: SHMEM_CMP_* */
static int
q_signal_wait(const char *call, uint64_t *sig_addr, int cmp, uint64_t value,
	      void *stream)
{
	sh_check_init(call);
	if (q_host(call, stream))
		return -1;
	face_wait_until(call, sig_addr, SH_T_UINT, sizeof(uint64_t), cmp,
			&value);
	return 0;
}

static int
q_quiet(const char *call, void *stream)
{
	sh_check_init(call);
	if (q_host(call, stream))
		return -1;
	shmem_quiet();
	return 0;
}

static int
q_barrier_all(const char *call, void *stream, int sync)
{
	sh_check_init(call);
	if (q_host(call, stream))
		return -1;
	if (sync)
		shmem_sync_all();
	else
		shmem_barrier_all();
	return 0;
}

static int
q_broadcastmem(const char *call, void *team, void *dest, const void *source,
	       size_t nelems, int root, void *stream)
{
	sh_check_init(call);
	if (q_host(call, stream))
		return -1;
	return shmem_broadcastmem((shmem_team_t)team, dest, source, nelems,
				  root) ? -1 : 0;
}

static int
q_alltoallmem(const char *call, void *team, void *dest, const void *source,
	      size_t size, void *stream)
{
	sh_check_init(call);
	if (q_host(call, stream))
		return -1;
	return shmem_alltoallmem((shmem_team_t)team, dest, source, size)
		       ? -1 : 0;
}

/* ---- rocSHMEM 3.x ------------------------------------------------------ */

#define ROC_RC(x) ((x) ? ROCSHMEM_ERROR : ROCSHMEM_SUCCESS)

/* ROCSHMEM_CMP_* (EQ 0, NE, GT, GE, LT, LE) -> SHMEM_CMP_*; -1 if none */
static int
roc_q_cmp(int cmp)
{
	static const int map[] = {
		SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_GT,
		SHMEM_CMP_GE, SHMEM_CMP_LT, SHMEM_CMP_LE,
	};
	return cmp >= 0 && cmp < 6 ? map[cmp] : -1;
}

int
rocshmem_putmem_on_stream(void *dest, const void *source, size_t nelems,
			  int pe, void *stream)
{
	ROC_COUNT(ROC_PUT);
	return ROC_RC(q_putmem(__func__, dest, source, nelems, pe, stream));
}

int
rocshmem_getmem_on_stream(void *dest, const void *source, size_t nelems,
			  int pe, void *stream)
{
	ROC_COUNT(ROC_GET);
	return ROC_RC(q_getmem(__func__, dest, source, nelems, pe, stream));
}

int
rocshmem_putmem_signal_on_stream(void *dest, const void *source,
				 size_t nelems, uint64_t *sig_addr,
				 uint64_t signal, int sig_op, int pe,
				 void *stream)
{
	ROC_COUNT(ROC_SIGNAL);
	return ROC_RC(q_put_signal(__func__, dest, source, nelems, sig_addr,
				   signal, sig_op, pe, stream));
}

int
rocshmem_signal_wait_until_on_stream(uint64_t *sig_addr, int cmp,
				     uint64_t cmp_value, void *stream)
{
	ROC_COUNT(ROC_SIGNAL);
	int c = roc_q_cmp(cmp);
	if (c < 0)
		sh_fatal(__func__, "cmp %d is not a ROCSHMEM_CMP_* value",
			 cmp);
	return ROC_RC(q_signal_wait(__func__, sig_addr, c, cmp_value,
				    stream));
}

int
rocshmem_quiet_on_stream(void *stream)
{
	ROC_COUNT(ROC_SYNC);
	return ROC_RC(q_quiet(__func__, stream));
}

int
rocshmem_barrier_all_on_stream(void *stream)
{
	ROC_COUNT(ROC_COLL);
	return ROC_RC(q_barrier_all(__func__, stream, 0));
}

int
rocshmem_sync_all_on_stream(void *stream)
{
	ROC_COUNT(ROC_COLL);
	return ROC_RC(q_barrier_all(__func__, stream, 1));
}

int
rocshmem_broadcastmem_on_stream(rocshmem_team_t team, void *dest,
				const void *source, size_t nelems,
				int pe_root, void *stream)
{
	ROC_COUNT(ROC_COLL);
	return ROC_RC(q_broadcastmem(__func__, team, dest, source, nelems,
				     pe_root, stream));
}

int
rocshmem_alltoallmem_on_stream(rocshmem_team_t team, void *dest,
			       const void *source, size_t size, void *stream)
{
	ROC_COUNT(ROC_COLL);
	return ROC_RC(q_alltoallmem(__func__, team, dest, source, size,
				    stream));
}

/* ---- OpenSHMEM (shmemx.h) ---------------------------------------------- */

int
shmemx_putmem_on_queue(void *dest, const void *source, size_t nelems,
		       int pe, void *queue)
{
	return q_putmem(__func__, dest, source, nelems, pe, queue);
}

int
shmemx_getmem_on_queue(void *dest, const void *source, size_t nelems,
		       int pe, void *queue)
{
	return q_getmem(__func__, dest, source, nelems, pe, queue);
}

int
shmemx_putmem_signal_on_queue(void *dest, const void *source, size_t nelems,
			      uint64_t *sig_addr, uint64_t signal,
			      int sig_op, int pe, void *queue)
{
	return q_put_signal(__func__, dest, source, nelems, sig_addr, signal,
			    sig_op, pe, queue);
}

int
shmemx_signal_wait_until_on_queue(uint64_t *sig_addr, int cmp,
				  uint64_t cmp_value, void *queue)
{
	if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_GE)
		sh_fatal(__func__, "cmp %d is not a SHMEM_CMP_* value", cmp);
	return q_signal_wait(__func__, sig_addr, cmp, cmp_value, queue);
}

int
shmemx_quiet_on_queue(void *queue)
{
	return q_quiet(__func__, queue);
}

int
shmemx_barrier_all_on_queue(void *queue)
{
	return q_barrier_all(__func__, queue, 0);
}

int
shmemx_sync_all_on_queue(void *queue)
{
	return q_barrier_all(__func__, queue, 1);
}

int
shmemx_broadcastmem_on_queue(shmem_team_t team, void *dest,
			     const void *source, size_t nelems, int pe_root,
			     void *queue)
{
	return q_broadcastmem(__func__, team, dest, source, nelems, pe_root,
			      queue);
}

int
shmemx_alltoallmem_on_queue(shmem_team_t team, void *dest,
			    const void *source, size_t size, void *queue)
{
	return q_alltoallmem(__func__, team, dest, source, size, queue);
}
