// SPDX-License-Identifier: MIT
/*
 * wm_gather: wholememoryx_gather / wholememoryx_scatter (zemem's
 * extension): rows by global index on a handle. Not collective.
 * wm_op.c runs WholeMemory's tensor ops through wm_rows().
 *
 * Mapped memory (CONTINUOUS, CHUNKED): one memcpy per row from the global
 * range. Symmetric-heap memory (DISTRIBUTED, HIERARCHY): a row of this
 * rank, or (HIERARCHY) of a node peer, is copied through its pointer; the
 * others are libzeshmem non-blocking gets / puts, completed by one
 * shmem_quiet at the end. A row that straddles two partitions (an
 * entry_bytes that is not a multiple of the granularity) is split.
 * Every index is checked before anything is copied.
 *
 * Duplicate indices in a scatter: the last one wins, as in a sequential
 * scatter. On mapped memory the rows are copied in order; through RMA
 * the puts to one address are not ordered among themselves (OpenSHMEM
 * orders them only across a fence), so a row named several times is put
 * once, from its last index (an open-addressing table of the indices
 * finds the earlier ones).
 */
#include "wm.h"

#include <errno.h>
#include <shmem.h>
#include <stdlib.h>
#include <string.h>

static int
check(struct wholememory_handle_ *h, const int64_t *idx, size_t n, const void *buf,
      size_t eb)
{
	if (!wm_handle_live(h) || (n && (!idx || !buf)))
		return -EINVAL;
	if (eb == 0 || eb > h->total)
		return -EDOM;
	uint64_t rows = h->total / eb;
	for (size_t i = 0; i < n; i++)
		if (idx[i] < 0 || (uint64_t)idx[i] >= rows) {
			u_err(WM_TOPIC, "index %lld at %zu: the table has "
			      "%llu rows of %zu bytes", (long long)idx[i], i,
			      (unsigned long long)rows, eb);
			return -EDOM;
		}
	return 0;
}

/* One row piece [off, off + len) of the table <-> buf. */
void
wm_move(struct wholememory_handle_ *h, size_t off, size_t len, char *buf,
	bool put, bool *rma)
{
	while (len) {
		int r = wm_owner(h, off);
		size_t in = off - h->offs[r];
		size_t take = h->sizes[r] - in;
		if (take > len)
			take = len;
		char *p = wm_reach_ptr(h, r);
		if (p) {
			if (put)
				memcpy(p + in, buf, take);
			else
				memcpy(buf, p + in, take);
		} else {
			if (put)
				shmem_putmem_nbi(h->sym + in, buf, take,
						 h->comm->pe[r]);
			else
				shmem_getmem_nbi(buf, h->sym + in, take,
						 h->comm->pe[r]);
			*rma = true;
		}
		off += take;
		buf += take;
		len -= take;
	}
}

/* keep[i] = 1 when no later j has idx[j] == idx[i]. 0 or -ENOMEM. */
int
wm_last_of_each(const int64_t *idx, size_t n, uint8_t **keep_out)
{
	unsigned bits = 4;
	while (bits < 62 && ((size_t)1 << bits) < 2 * n)
		bits++;
	size_t cap = (size_t)1 << bits;
	uint64_t *key = calloc(cap, sizeof(*key)); /* index + 1; 0: empty */
	size_t *pos = malloc(cap * sizeof(*pos));
	uint8_t *keep = malloc(n ? n : 1);
	if (!key || !pos || !keep) {
		free(key);
		free(pos);
		free(keep);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t k = (uint64_t)idx[i] + 1;
		size_t s = (size_t)((k * 0x9e3779b97f4a7c15ull) >> (64 - bits));
		while (key[s] && key[s] != k)
			s = (s + 1) & (cap - 1);
		if (key[s])
			keep[pos[s]] = 0;
		key[s] = k;
		pos[s] = i;
		keep[i] = 1;
	}
	free(key);
	free(pos);
	*keep_out = keep;
	return 0;
}

wholememory_error_code_t
wm_rows(struct wholememory_handle_ *h, const int64_t *idx, size_t n, char *buf,
     size_t eb, bool put)
{
	int err = check(h, idx, n, buf, eb);
	if (err)
		return wm_result(err);
	bool rma = false;
	if (h->base) {
		for (size_t i = 0; i < n; i++) {
			char *p = h->base + (size_t)idx[i] * eb;
			if (put)
				memcpy(p, buf + i * eb, eb);
			else
				memcpy(buf + i * eb, p, eb);
		}
		return WHOLEMEMORY_SUCCESS;
	}
	uint8_t *keep = NULL;
	if (put && n > 1 && (err = wm_last_of_each(idx, n, &keep))) {
		u_err(WM_TOPIC, "scatter of %zu rows: no memory for the "
		      "duplicate check", n);
		return wm_result(err);
	}
	for (size_t i = 0; i < n; i++)
		if (!keep || keep[i])
			wm_move(h, (size_t)idx[i] * eb, eb, buf + i * eb, put,
			     &rma);
	free(keep);
	if (rma)
		shmem_quiet();
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
wholememoryx_gather(wholememory_handle_t wholememory_handle,
		    const int64_t *indices, size_t n, void *out,
		    size_t entry_bytes)
{
	return wm_rows(wholememory_handle, indices, n, out, entry_bytes, false);
}

WM_API wholememory_error_code_t
wholememoryx_scatter(wholememory_handle_t wholememory_handle,
		     const int64_t *indices, size_t n, const void *in,
		     size_t entry_bytes)
{
	return wm_rows(wholememory_handle, indices, n, (char *)in,
		       entry_bytes, true);
}
