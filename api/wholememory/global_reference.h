/* SPDX-License-Identifier: MIT */
/*
 * global_reference.h: WholeMemory's global reference (libzewholememory).
 *
 * A global reference reaches every byte of a CONTINUOUS or CHUNKED table
 * from any rank, as WholeMemory defines it:
 *   stride == 0  pointer is the table's first byte (CONTINUOUS, and
 *                CHUNKED HOST memory, which is mapped as one range);
 *   stride != 0  pointer is an array of world_size per-rank pointers
 *                (CHUNKED DEVICE); stride is the per-rank partition
 *                stride in bytes. When same_chunk is true every rank r
 *                holds bytes [r * stride, (r + 1) * stride) (the last
 *                ones maybe less or none): byte off is at
 *                ((char **)pointer)[off / stride] + off % stride.
 *                Otherwise (a rank_entry_partition of unequal ranks)
 *                the owner is the r with rank_memory_offsets[r] <= off <
 *                rank_memory_offsets[r + 1].
 * rank_memory_offsets has world_size + 1 entries (the last the table's
 * size); it stays valid while the handle lives.
 */
#ifndef ZEMEM_WHOLEMEMORY_GLOBAL_REFERENCE_H
#define ZEMEM_WHOLEMEMORY_GLOBAL_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
	void *pointer;
	size_t *rank_memory_offsets;
	int world_size;
	size_t stride;
	bool same_chunk;
} wholememory_gref_t;

/* A reference to plain memory at ptr: stride 0, pointer ptr, no
 * offsets (world_size 1). */
wholememory_gref_t wholememory_create_continuous_global_reference(void *ptr);

#ifdef __cplusplus
}
#endif

#endif /* ZEMEM_WHOLEMEMORY_GLOBAL_REFERENCE_H */
