// SPDX-License-Identifier: MIT
/*
 * sh_face_mem.c: the collective allocation routines (shmem_malloc, calloc,
 * align, realloc, free, malloc_with_hints and the deprecated shmalloc,
 * shmemalign, shrealloc, shfree) over the runtime's sh_malloc & co, which
 * enter the barrier on every path and warn (naming the routine) when they
 * return NULL for a bad argument.
 */
#include "sh_face.h"

void *
shmem_malloc(size_t size)
{
	return sh_malloc(size, SH_DEFAULT_ALIGN, __func__);
}

void *
shmem_calloc(size_t count, size_t size)
{
	return sh_calloc(count, size, __func__);
}

/* Alignments 1, 2 and 4 are powers of two below a pointer's: the spec
 * leaves them undefined, other implementations accept them, and so do we
 * (rounded up). rocshmem_align keeps posix_memalign's rule. */
void *
shmem_align(size_t alignment, size_t size)
{
	if (alignment && alignment < sizeof(void *) &&
	    !(alignment & (alignment - 1)))
		alignment = sizeof(void *);
	return sh_malloc(size, alignment, __func__);
}

void *
shmem_realloc(void *ptr, size_t size)
{
	return sh_realloc(ptr, size, __func__);
}

void
shmem_free(void *ptr)
{
	sh_free(ptr, __func__);
}

/* The hints only tell what the memory is used for; every allocation
 * already supports remote atomics and signals. */
void *
shmem_malloc_with_hints(size_t size, long hints)
{
	long known = SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE;
	if (hints & ~known)
		u_info("shmem", "shmem_malloc_with_hints: unknown hints %#lx "
		       "ignored", hints & ~known);
	return sh_malloc(size, SH_DEFAULT_ALIGN, __func__);
}

void *
shmalloc(size_t size)
{
	return sh_malloc(size, SH_DEFAULT_ALIGN, __func__);
}

void *
shmemalign(size_t alignment, size_t size)
{
	return sh_malloc(size, alignment, __func__);
}

void *
shrealloc(void *ptr, size_t size)
{
	return sh_realloc(ptr, size, __func__);
}

void
shfree(void *ptr)
{
	sh_free(ptr, __func__);
}
