// SPDX-License-Identifier: MIT
/*
 * val_out: the pNext chains of the structures a call fills in (device,
 * driver, memory, allocation properties...: every one the generated
 * wrappers find, val_gen.py), checked before the driver walks them.
 *
 * Vocabulary:
 *   chain    the structures linked from a filled-in structure's pNext,
 *            each starting with stype and pNext (ze_base_properties_t);
 *   junk     a chain the driver cannot walk or write safely: an element
 *            that is not readable and writable memory of the process, not
 *            aligned for its pointer, a chain that loops back on itself
 *            or runs past VAL_OUT_MAX elements. Refused with
 *            ZE_RESULT_ERROR_INVALID_ARGUMENT (what Intel's layer answers
 *            for a bad chain) before the driver sees it;
 *   unknown  an element whose stype is no structure type of the spec
 *            (val_stype_name): reported after the call, which goes ahead
 *            (drivers leave what they do not know alone).
 *
 * Probing: each element's header (16 bytes) is read with process_vm_readv
 * on the process itself, which fails with EFAULT where a load would fault,
 * and written back unchanged with process_vm_writev, which fails where a
 * store would (read-only memory) -- no signal handler, nothing left
 * behind. Where those calls are refused (a seccomp profile), a write() of
 * the bytes to a pipe stands for the read (EFAULT), and writability goes
 * unchecked. The walk then reads the copy, never the element again, so an
 * element that changes under it cannot send it anywhere unprobed.
 *
 * Cost: nothing when pNext is NULL (the wrappers test it inline); two
 * system calls per chained element otherwise.
 *
 * Locking: none (the pipe of the fallback is the calling thread's own,
 * made and closed per probe).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "val.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/uio.h>
#include <unistd.h>

#define VAL_OUT_MAX 32   /* elements of one chain */

/* What a probe of an element found. */
enum probe_res {
	PROBE_OK,
	PROBE_UNREADABLE,
	PROBE_READ_ONLY,
	PROBE_UNKNOWN,   /* no way to tell */
};

/* Through a pipe, where process_vm_readv is refused: write() of p's
 * bytes fails with EFAULT where a read of them would fault. */
static enum probe_res
probe_pipe(const void *p, ze_base_properties_t *copy)
{
	int fd[2];
	if (pipe2(fd, O_CLOEXEC | O_NONBLOCK))
		return PROBE_UNKNOWN;
	enum probe_res res = PROBE_UNKNOWN;
	ssize_t k = write(fd[1], p, sizeof(*copy));
	if (k < 0 && errno == EFAULT)
		res = PROBE_UNREADABLE;
	else if (k == (ssize_t)sizeof(*copy) &&
		 read(fd[0], copy, sizeof(*copy)) == (ssize_t)sizeof(*copy))
		res = PROBE_OK;
	close(fd[0]);
	close(fd[1]);
	return res;
}

static enum probe_res
probe(const void *p, ze_base_properties_t *copy)
{
	struct iovec local = { copy, sizeof(*copy) };
	struct iovec remote = { (void *)p, sizeof(*copy) };
	pid_t self = getpid();
	ssize_t k = process_vm_readv(self, &local, 1, &remote, 1, 0);
	if (k < 0 && errno != EFAULT)
		return probe_pipe(p, copy);
	if (k != (ssize_t)sizeof(*copy))
		return PROBE_UNREADABLE;
	k = process_vm_writev(self, &local, 1, &remote, 1, 0);
	if (k != (ssize_t)sizeof(*copy) && (k >= 0 || errno == EFAULT))
		return PROBE_READ_ONLY;
	return PROBE_OK;
}

static ze_result_t __attribute__((format(printf, 6, 7)))
junk(const struct val_call *call, const char *what, const void *p, int pos,
     const struct val_out *at, const char *fmt, ...)
{
	char where[48] = "", why[128];
	if (at->array)
		snprintf(where, sizeof(where), "[%u]", at->elem);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return val_report(VAL_CAT_PARAMETER, call,
			  ZE_RESULT_ERROR_INVALID_ARGUMENT,
			  "the pNext chain of %s%s is junk: element %d (%p) "
			  "%s; not passed to the driver", what, where, pos, p,
			  why);
}

static ze_result_t
walk(const struct val_call *call, const char *what, uint32_t elem,
     bool array, const void *pNext, struct val_out *o)
{
	const struct val_out at = { .elem = elem, .array = array };
	const void *seen[VAL_OUT_MAX];
	int n = 0;
	for (const void *p = pNext; p;) {
		if (n == VAL_OUT_MAX)
			return junk(call, what, p, n + 1, &at,
				    "is past the %d elements the layer walks "
				    "(does the chain loop?)", VAL_OUT_MAX);
		for (int i = 0; i < n; i++) {
			if (seen[i] == p)
				return junk(call, what, p, n + 1, &at,
					    "is element %d again: the chain "
					    "loops", i + 1);
		}
		if ((uintptr_t)p % _Alignof(ze_base_properties_t))
			return junk(call, what, p, n + 1, &at,
				    "is not aligned for a structure");
		ze_base_properties_t copy;
		switch (probe(p, &copy)) {
		case PROBE_UNREADABLE:
			return junk(call, what, p, n + 1, &at,
				    "is not readable memory");
		case PROBE_READ_ONLY:
			return junk(call, what, p, n + 1, &at,
				    "is read-only memory, which the driver "
				    "would write");
		case PROBE_UNKNOWN:
			memcpy(&copy, p, sizeof(copy)); /* as the driver will */
			break;
		case PROBE_OK:
			break;
		}
		seen[n++] = p;
		if (!o->unknown && !val_stype_name((uint32_t)copy.stype)) {
			o->unknown = true;
			o->stype = (uint32_t)copy.stype;
			o->pos = n;
			o->elem = elem;
			o->array = array;
		}
		p = copy.pNext;
	}
	return ZE_RESULT_SUCCESS;
}

ze_result_t
val_out_chain(const struct val_call *call, const char *what,
	      const void *pNext, struct val_out *o)
{
	return walk(call, what, 0, false, pNext, o);
}

ze_result_t
val_out_array(const struct val_call *call, const char *what,
	      const void *array, uint32_t count, size_t stride,
	      struct val_out *o)
{
	const char *a = array;
	for (uint32_t i = 0; i < count; i++) {
		const ze_base_properties_t *e = (const void *)(a + i * stride);
		ze_result_t r;
		if (e->pNext && (r = walk(call, what, i, true, e->pNext, o)))
			return r;
	}
	return ZE_RESULT_SUCCESS;
}

void
val_out_note(const struct val_call *call, const char *what,
	     const struct val_out *o, ze_result_t res)
{
	char where[48] = "";
	if (o->array)
		snprintf(where, sizeof(where), "[%u]", o->elem);
	val_note(VAL_CAT_PARAMETER, call, res,
		 "unknown stype 0x%x at position %d of the %s%s pNext chain: "
		 "not a Level Zero structure type (the driver leaves it "
		 "alone)", o->stype, o->pos, what, where);
}
