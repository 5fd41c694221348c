// SPDX-License-Identifier: MIT
/*
 * wm_mem: wholememory_malloc / free, the partition plan and every getter.
 *
 * Partitions: entries of data_granularity bytes; the default plan gives
 * every rank ceil(entries / ranks) entries, the trailing ranks what is
 * left (maybe none); a user plan (rank_entry_partition, entries per
 * rank) must be positive and sum to the total. offs[r] is rank r's first
 * byte, offs[size] the total.
 *
 * Where the memory is, by type:
 *   CONTINUOUS, CHUNKED  wm_map.c: every rank's physical memory mapped in
 *                        one range of every rank (all ranks on one node;
 *                        NOT_SUPPORTED across nodes)
 *   DISTRIBUTED          the symmetric heap (shmem_malloc of the largest
 *                        partition), reached by libzeshmem RMA only
 *   HIERARCHY            the symmetric heap; node peers' partitions
 *                        through shmem_ptr, other nodes by RMA
 * The symmetric heap needs a communicator of the whole world (an
 * allocation of libzeshmem is collective over every PE). On part of the
 * world DISTRIBUTED and HIERARCHY are mapped as CONTINUOUS is (wm_map.c)
 * when the communicator's ranks are on one node, keeping their rules
 * (no pointer to another rank's partition for DISTRIBUTED, no global
 * pointer or reference; gather / scatter copy through the mapping);
 * across nodes NOT_SUPPORTED: libzeshmem has no RMA on memory that only
 * some PEs allocated. The heap's location is the heap's (zemem:
 * host-accessible).
 */
#include "wm.h"

#include <errno.h>
#include <shmem.h>
#include <stdlib.h>
#include <string.h>

WM_API wholememory_error_code_t
wholememory_equal_entry_partition_plan(size_t *entry_per_rank,
				       size_t total_entry_count,
				       int world_size)
{
	if (!entry_per_rank)
		return WHOLEMEMORY_INVALID_INPUT;
	if (world_size <= 0)
		return WHOLEMEMORY_INVALID_VALUE;
	size_t per = (total_entry_count + (size_t)world_size - 1) /
		     (size_t)world_size;
	size_t left = total_entry_count;
	for (int r = 0; r < world_size; r++) {
		size_t n = left < per ? left : per;
		entry_per_rank[r] = n;
		left -= n;
	}
	return WHOLEMEMORY_SUCCESS;
}

int
wm_owner(const struct wholememory_handle_ *h, size_t off)
{
	int lo = 0, hi = h->comm->size - 1;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (h->offs[mid] <= off)
			lo = mid;
		else
			hi = mid - 1;
	}
	/* skip empty partitions that start at off */
	while (lo < h->comm->size - 1 && h->sizes[lo] == 0)
		lo++;
	return lo;
}

char *
wm_rank_ptr(const struct wholememory_handle_ *h, int r)
{
	if (h->base)
		return h->type == WHOLEMEMORY_MT_DISTRIBUTED &&
				       r != h->comm->rank ?
			       NULL :
			       h->base + h->offs[r];
	if (r == h->comm->rank)
		return h->local;
	if (h->type == WHOLEMEMORY_MT_HIERARCHY && h->sym)
		return shmem_ptr(h->sym, h->comm->pe[r]);
	return NULL;
}

char *
wm_reach_ptr(const struct wholememory_handle_ *h, int r)
{
	return h->base ? h->base + h->offs[r] : wm_rank_ptr(h, r);
}

/* The arguments every rank must pass alike. */
struct malloc_args {
	uint64_t total, gran;
	int32_t type, loc;
	uint64_t part_hash;
};

static uint64_t
hash_part(const size_t *p, int n)
{
	uint64_t h = 1469598103934665603ull;
	for (int i = 0; p && i < n; i++) {
		h ^= p[i];
		h *= 1099511628211ull;
	}
	return p ? h : 0;
}

static void
handle_free(struct wholememory_handle_ *h)
{
	if (!h)
		return;
	wm_map_destroy(h);
	if (h->sym)
		shmem_free(h->sym);
	if (h->lcomm)
		wm_comm_free(h->lcomm);
	if (h->xcomm)
		wm_comm_free(h->xcomm);
	h->magic = 0;
	free(h->sizes);
	free(h->offs);
	free(h);
}

/* This rank's checks; 0 or -errno (logged). */
static int
check_local(struct wholememory_comm_ *c, size_t total, wholememory_memory_type_t type,
	    wholememory_memory_location_t loc, size_t gran,
	    const size_t *part)
{
	if (loc != WHOLEMEMORY_ML_HOST && loc != WHOLEMEMORY_ML_DEVICE) {
		u_err(WM_TOPIC, "memory location %d", loc);
		return -EDOM;
	}
	if (type < WHOLEMEMORY_MT_CONTINUOUS ||
	    type > WHOLEMEMORY_MT_HIERARCHY) {
		u_err(WM_TOPIC, "memory type %d", type);
		return -EDOM;
	}
	if (gran == 0 || total == 0 || total % gran) {
		u_err(WM_TOPIC, "total size %zu is not a positive multiple "
		      "of the granularity %zu", total, gran);
		return -EDOM;
	}
	if (part) {
		size_t sum = 0;
		for (int r = 0; r < c->size; r++) {
			if (part[r] == 0 || part[r] > total / gran - sum) {
				u_err(WM_TOPIC, "rank_entry_partition[%d] = "
				      "%zu: entries must be positive and sum "
				      "to %zu", r, part[r], total / gran);
				return -EDOM;
			}
			sum += part[r];
		}
		if (sum != total / gran) {
			u_err(WM_TOPIC, "rank_entry_partition sums to %zu, not "
			      "%zu entries", sum, total / gran);
			return -EDOM;
		}
	}
	if (wholememory_communicator_support_type_location(c, type, loc) !=
	    WHOLEMEMORY_SUCCESS) {
		u_err(WM_TOPIC, "memory type %d in location %d is not "
		      "supported on this communicator (%d nodes, %s the "
		      "world)", type, loc, c->nnodes,
		      c->world_sized ? "all of" : "part of");
		return -EOPNOTSUPP;
	}
	return 0;
}

WM_API wholememory_error_code_t
wholememory_malloc(wholememory_handle_t *wholememory_handle_ptr,
		   size_t total_size, wholememory_comm_t comm,
		   wholememory_memory_type_t memory_type,
		   wholememory_memory_location_t memory_location,
		   size_t data_granularity, size_t *rank_entry_partition)
{
	if (!wholememory_handle_ptr || !wm_comm_live(comm))
		return WHOLEMEMORY_INVALID_INPUT;
	*wholememory_handle_ptr = NULL;
	struct wholememory_comm_ *c = comm;
	struct malloc_args a = {
		.total = total_size, .gran = data_granularity,
		.type = memory_type, .loc = memory_location,
		.part_hash = hash_part(rank_entry_partition, c->size),
	};
	int err = wm_check_same(c, &a, sizeof(a), "wholememory_malloc");
	if (err)
		return wm_result(err);
	err = wm_agree(c, check_local(c, total_size, memory_type,
				      memory_location, data_granularity,
				      rank_entry_partition));
	if (err)
		return wm_result(err);
	struct wholememory_handle_ *h = calloc(1, sizeof(*h));
	if (h) {
		h->sizes = calloc(c->size, sizeof(size_t));
		h->offs = calloc(c->size + 1, sizeof(size_t));
	}
	if (!h || !h->sizes || !h->offs) {
		err = -ENOMEM;
		goto fail;
	}
	h->magic = WM_HANDLE_MAGIC;
	h->comm = c;
	h->type = memory_type;
	h->loc = memory_location;
	h->total = total_size;
	h->gran = data_granularity;
	if (rank_entry_partition)
		memcpy(h->sizes, rank_entry_partition,
		       sizeof(size_t) * c->size);
	else
		wholememory_equal_entry_partition_plan(
			h->sizes, total_size / data_granularity, c->size);
	size_t maxp = 0;
	for (int r = 0; r < c->size; r++) {
		h->sizes[r] *= data_granularity;
		h->offs[r + 1] = h->offs[r] + h->sizes[r];
		if (h->sizes[r] > maxp)
			maxp = h->sizes[r];
	}
	if (memory_type == WHOLEMEMORY_MT_CONTINUOUS ||
	    memory_type == WHOLEMEMORY_MT_CHUNKED || !c->world_sized) {
		/* mapped (DISTRIBUTED / HIERARCHY on part of the world: on
		 * one node, check_local made sure) */
		err = wm_map_create(h);
	} else {
		/* collective over the world (every PE is in c) */
		h->sym = shmem_calloc(1, maxp ? maxp : 8);
		err = h->sym ? 0 : -ENOMEM;
		err = wm_agree(c, err);
		h->local = h->sym;
	}
	if (!err && memory_type == WHOLEMEMORY_MT_HIERARCHY) {
		err = wm_split(c, c->node_idx, c->rank, true, &h->lcomm);
		if (!err)
			err = wm_split(c, c->local_rank, c->rank, true,
				       &h->xcomm);
	}
	if (err)
		goto fail;
	u_dbg(WM_TOPIC, "malloc: %zu bytes, type %d, location %d, %s; rank "
	      "%d holds %zu bytes at %zu", total_size, memory_type,
	      memory_location, h->base ? "mapped" : "symmetric heap", c->rank,
	      h->sizes[c->rank], h->offs[c->rank]);
	wm_handle_register(h, true);
	*wholememory_handle_ptr = h;
	return WHOLEMEMORY_SUCCESS;
fail:
	handle_free(h);
	return wm_result(err);
}

WM_API wholememory_error_code_t
wholememory_free(wholememory_handle_t wholememory_handle)
{
	struct wholememory_handle_ *h = wholememory_handle;
	if (!wm_handle_live(h))
		return WHOLEMEMORY_INVALID_INPUT;
	wm_handle_register(h, false);
	int err = wm_barrier(h->comm);
	handle_free(h);
	return wm_result(err);
}

/* One of h's communicators into *comm: the whole (hier false), or, of a
 * HIERARCHY handle only, its local or cross one. */
static wholememory_error_code_t
comm_of(wholememory_comm_t *comm, wholememory_handle_t h, bool hier,
	bool local)
{
	if (!comm || !wm_handle_live(h))
		return WHOLEMEMORY_INVALID_INPUT;
	if (hier && h->type != WHOLEMEMORY_MT_HIERARCHY)
		return WHOLEMEMORY_NOT_SUPPORTED;
	*comm = !hier ? h->comm : local ? h->lcomm : h->xcomm;
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
wholememory_get_communicator(wholememory_comm_t *comm,
			     wholememory_handle_t wholememory_handle)
{
	return comm_of(comm, wholememory_handle, false, false);
}

WM_API wholememory_error_code_t
wholememory_get_local_communicator(wholememory_comm_t *comm,
				   wholememory_handle_t wholememory_handle)
{
	return comm_of(comm, wholememory_handle, true, true);
}

WM_API wholememory_error_code_t
wholememory_get_cross_communicator(wholememory_comm_t *comm,
				   wholememory_handle_t wholememory_handle)
{
	return comm_of(comm, wholememory_handle, true, false);
}

WM_API wholememory_memory_type_t
wholememory_get_memory_type(wholememory_handle_t wholememory_handle)
{
	return wm_handle_live(wholememory_handle) ? wholememory_handle->type :
						    WHOLEMEMORY_MT_NONE;
}

WM_API wholememory_memory_location_t
wholememory_get_memory_location(wholememory_handle_t wholememory_handle)
{
	return wm_handle_live(wholememory_handle) ? wholememory_handle->loc :
						    WHOLEMEMORY_ML_NONE;
}

WM_API wholememory_distributed_backend_t
wholememory_get_distributed_backend(wholememory_handle_t wholememory_handle)
{
	(void)wholememory_handle;
	return WHOLEMEMORY_DB_NONE;
}

WM_API size_t
wholememory_get_total_size(wholememory_handle_t wholememory_handle)
{
	return wm_handle_live(wholememory_handle) ? wholememory_handle->total :
						    0;
}

WM_API size_t
wholememory_get_data_granularity(wholememory_handle_t wholememory_handle)
{
	return wm_handle_live(wholememory_handle) ? wholememory_handle->gran :
						    0;
}

WM_API wholememory_error_code_t
wholememory_get_local_memory(void **local_ptr, size_t *local_size,
			     size_t *local_offset,
			     wholememory_handle_t wholememory_handle)
{
	struct wholememory_handle_ *h = wholememory_handle;
	if (!local_ptr || !local_size || !local_offset || !wm_handle_live(h))
		return WHOLEMEMORY_INVALID_INPUT;
	*local_ptr = h->local;
	*local_size = h->sizes[h->comm->rank];
	*local_offset = h->offs[h->comm->rank];
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
wholememory_get_local_size(size_t *local_size,
			   wholememory_handle_t wholememory_handle)
{
	if (!local_size || !wm_handle_live(wholememory_handle))
		return WHOLEMEMORY_INVALID_INPUT;
	*local_size = wholememory_handle->sizes[wholememory_handle->comm->rank];
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
wholememory_get_local_offset(size_t *local_offset,
			     wholememory_handle_t wholememory_handle)
{
	if (!local_offset || !wm_handle_live(wholememory_handle))
		return WHOLEMEMORY_INVALID_INPUT;
	*local_offset = wholememory_handle->offs[wholememory_handle->comm->rank];
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
wholememory_get_rank_memory(void **rank_memory_ptr, size_t *rank_memory_size,
			    size_t *rank_memory_offset, int rank,
			    wholememory_handle_t wholememory_handle)
{
	struct wholememory_handle_ *h = wholememory_handle;
	if (!rank_memory_ptr || !rank_memory_size || !rank_memory_offset ||
	    !wm_handle_live(h) || rank < 0 || rank >= h->comm->size)
		return WHOLEMEMORY_INVALID_INPUT;
	char *p = wm_rank_ptr(h, rank);
	if (!p)
		return WHOLEMEMORY_INVALID_INPUT; /* not mapped here */
	*rank_memory_ptr = p;
	*rank_memory_size = h->sizes[rank];
	*rank_memory_offset = h->offs[rank];
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
wholememory_get_global_pointer(void **global_ptr,
			       wholememory_handle_t wholememory_handle)
{
	struct wholememory_handle_ *h = wholememory_handle;
	if (!global_ptr || !wm_handle_live(h))
		return WHOLEMEMORY_INVALID_INPUT;
	if (h->type == WHOLEMEMORY_MT_CONTINUOUS ||
	    (h->type == WHOLEMEMORY_MT_CHUNKED &&
	     h->loc == WHOLEMEMORY_ML_HOST)) {
		*global_ptr = h->base;
		return WHOLEMEMORY_SUCCESS;
	}
	return WHOLEMEMORY_INVALID_INPUT;
}

WM_API wholememory_error_code_t
wholememory_get_global_reference(wholememory_gref_t *wholememory_gref,
				 wholememory_handle_t wholememory_handle)
{
	struct wholememory_handle_ *h = wholememory_handle;
	if (!wholememory_gref || !wm_handle_live(h))
		return WHOLEMEMORY_INVALID_INPUT;
	if (h->type != WHOLEMEMORY_MT_CONTINUOUS &&
	    h->type != WHOLEMEMORY_MT_CHUNKED)
		return WHOLEMEMORY_INVALID_INPUT;
	/* WholeMemory's: one range (CONTINUOUS, CHUNKED HOST) is stride 0;
	 * CHUNKED DEVICE is the per-rank pointers with the partition
	 * stride, owner = offset / stride when every rank but the last
	 * ones holds exactly that stride (same_chunk) */
	bool chunked_dev = h->type == WHOLEMEMORY_MT_CHUNKED &&
			   h->loc == WHOLEMEMORY_ML_DEVICE;
	wholememory_gref->rank_memory_offsets = h->offs;
	wholememory_gref->world_size = h->comm->size;
	if (!chunked_dev) {
		wholememory_gref->pointer = h->base;
		wholememory_gref->stride = 0;
		wholememory_gref->same_chunk = false;
		return WHOLEMEMORY_SUCCESS;
	}
	size_t stride = h->sizes[0], widest = 0;
	bool same = true;
	for (int r = 0; r < h->comm->size; r++) {
		size_t at = (size_t)r * stride;
		same = same && h->offs[r] == (at < h->total ? at : h->total);
		if (h->sizes[r] > widest)
			widest = h->sizes[r];
	}
	/* and the last rank holds no more than stride */
	same = same && h->total <= (size_t)h->comm->size * stride;
	wholememory_gref->pointer = (void *)h->rank_ptr;
	wholememory_gref->stride = same ? stride : widest;
	wholememory_gref->same_chunk = same;
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
wholememory_get_rank_partition_sizes(size_t *rank_mem_sizes,
				     wholememory_handle_t wholememory_handle)
{
	if (!rank_mem_sizes || !wm_handle_live(wholememory_handle))
		return WHOLEMEMORY_INVALID_INPUT;
	memcpy(rank_mem_sizes, wholememory_handle->sizes,
	       sizeof(size_t) * wholememory_handle->comm->size);
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
wholememory_get_rank_partition_offsets(size_t *rank_mem_offsets,
				       wholememory_handle_t wholememory_handle)
{
	if (!rank_mem_offsets || !wm_handle_live(wholememory_handle))
		return WHOLEMEMORY_INVALID_INPUT;
	memcpy(rank_mem_offsets, wholememory_handle->offs,
	       sizeof(size_t) * wholememory_handle->comm->size);
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_gref_t
wholememory_create_continuous_global_reference(void *ptr)
{
	wholememory_gref_t g = { .pointer = ptr, .world_size = 1 };
	return g;
}
