// SPDX-License-Identifier: MIT
/*
 * wm_map: the mapped memory types (CONTINUOUS, CHUNKED): one virtual
 * range in every rank with every rank's physical memory at its offset.
 *
 * The range is cut into pages of G bytes (the OS page for HOST memory,
 * zeVirtualMemQueryPageSize of the table for DEVICE memory). Page p
 * belongs to the rank whose partition holds byte p * G: rank r owns pages
 * [ceil(off_r / G), ceil(off_{r+1} / G)) and backs them with one physical
 * object (zePhysicalMemCreate) of its own. When partitions are multiples
 * of G (large tables) every byte lives in its rank's object; otherwise
 * the bytes of a partition that share a page with the previous rank live
 * in that rank's object, which every rank reaches through the same range,
 * so loads and stores agree everywhere.
 *
 * Import: a rank exports its object's memfd (zeMemGetAllocProperties of
 * its mapping with ze_external_memory_export_fd_t), the others take it with
 * pidfd_getfd (every rank is on this node) and make a physical object of
 * it with zePhysicalMemCreate + ze_external_memory_import_fd_t (zemem's
 * driver extension for this: driver/vmm/vmm_phys.c), then zeVirtualMemMap
 * it at the owner's offset. CHUNKED uses the same range: rank r's memory
 * is at base + off_r (and rank_ptr[r] for the CHUNKED DEVICE gref).
 */
#include "wm.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

static int
ze_err(ze_result_t r, const char *what)
{
	if (r == ZE_RESULT_SUCCESS)
		return 0;
	u_err(WM_TOPIC, "%s: 0x%x", what, r);
	if (r == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY ||
	    r == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)
		return -ENOMEM;
	return -EIO;
}

/* A copy of fd number num of process pid (close-on-exec), or -errno. */
static int
take_fd(int pid, int num)
{
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pfd < 0)
		return -errno;
	int fd = (int)syscall(SYS_pidfd_getfd, pfd, num, 0);
	int err = fd < 0 ? -errno : 0;
	close(pfd);
	if (err)
		u_err(WM_TOPIC, "pidfd_getfd of pid %d fd %d: %s", pid, num,
		      strerror(-err));
	return err ? err : fd;
}

struct page_run {
	size_t first, n;                  /* in pages */
};

static struct page_run
run_of(const struct wholememory_handle_ *h, int r, size_t g)
{
	struct page_run pr;
	pr.first = (h->offs[r] + g - 1) / g;
	size_t end = (h->offs[r + 1] + g - 1) / g;
	pr.n = end > pr.first ? end - pr.first : 0;
	return pr;
}

static int
make_phys(const struct wholememory_handle_ *h, size_t size, int import_fd,
	  ze_physical_mem_handle_t *out)
{
	ze_external_memory_import_fd_t im = {
		.stype = ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMPORT_FD,
		.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD,
		.fd = import_fd,
	};
	ze_physical_mem_desc_t d = {
		.stype = ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC,
		.pNext = import_fd >= 0 ? &im : NULL,
		.flags = h->loc == WHOLEMEMORY_ML_HOST ?
				 ZE_PHYSICAL_MEM_FLAG_ALLOCATE_ON_HOST :
				 ZE_PHYSICAL_MEM_FLAG_ALLOCATE_ON_DEVICE,
		.size = size,
	};
	return ze_err(zePhysicalMemCreate(wm_ze_ctx(), wm_ze_dev(), &d, out),
		      "zePhysicalMemCreate");
}

static size_t
page_of(const struct wholememory_handle_ *h)
{
	if (h->loc == WHOLEMEMORY_ML_HOST)
		return (size_t)sysconf(_SC_PAGESIZE);
	size_t g = 0;
	if (zeVirtualMemQueryPageSize(wm_ze_ctx(), wm_ze_dev(), h->total,
				      &g) != ZE_RESULT_SUCCESS || !g)
		g = 2u << 20;
	return g;
}

int
wm_map_create(struct wholememory_handle_ *h)
{
	struct wholememory_comm_ *c = h->comm;
	int n = c->size, me = c->rank;
	size_t g = page_of(h);
	size_t t = (h->total + g - 1) / g * g;
	size_t rp = 0;
	int err = 0;
	int32_t mine_fd = -1;
	int32_t *fds = calloc(n, sizeof(int32_t));
	h->imp = calloc(n, sizeof(*h->imp));
	h->mapped = calloc(n, sizeof(bool));
	h->rank_ptr = calloc(n, sizeof(void *));
	if (!fds || !h->imp || !h->mapped || !h->rank_ptr) {
		err = -ENOMEM;
		goto agree;
	}
	if (zeVirtualMemQueryPageSize(wm_ze_ctx(), wm_ze_dev(), t, &rp) !=
	    ZE_RESULT_SUCCESS || !rp)
		rp = g;
	h->range = (t + rp - 1) / rp * rp;
	void *base = NULL;
	err = ze_err(zeVirtualMemReserve(wm_ze_ctx(), NULL, h->range, &base),
		     "zeVirtualMemReserve");
	if (err)
		goto agree;
	h->base = base;
	struct page_run my = run_of(h, me, g);
	if (my.n) {
		err = make_phys(h, my.n * g, -1, &h->mine);
		if (err)
			goto agree;
		err = ze_err(zeVirtualMemMap(wm_ze_ctx(),
			h->base + my.first * g, my.n * g, h->mine, 0,
			ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
			"zeVirtualMemMap");
		/* the object's memfd (driver-owned), through the mapping:
		 * zePhysicalMemGetProperties is not in every loader */
		ze_external_memory_export_fd_t xf = {
			.stype = ZE_STRUCTURE_TYPE_EXTERNAL_MEMORY_EXPORT_FD,
			.flags = ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD,
			.fd = -1,
		};
		ze_memory_allocation_properties_t ap = {
			.stype = ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES,
			.pNext = &xf,
		};
		if (!err)
			err = ze_err(zeMemGetAllocProperties(wm_ze_ctx(),
				h->base + my.first * g, &ap, NULL),
				"zeMemGetAllocProperties (export fd)");
		mine_fd = err ? -1 : xf.fd;
		if (!err)
			h->mapped[me] = true;
	}
agree:
	err = wm_agree(c, err);
	if (!err)
		err = wm_allgather(c, &mine_fd, sizeof(mine_fd), fds);
	for (int r = 0; !err && r < n; r++) {
		struct page_run pr = run_of(h, r, g);
		if (r == me || !pr.n)
			continue;
		int fd = take_fd(wm_pe_pid(c->pe[r]), fds[r]);
		if (fd < 0) {
			err = fd == -EPERM ? -EOPNOTSUPP : fd;
			break;
		}
		err = make_phys(h, pr.n * g, fd, &h->imp[r]);
		close(fd);
		if (!err)
			err = ze_err(zeVirtualMemMap(wm_ze_ctx(),
				h->base + pr.first * g, pr.n * g, h->imp[r], 0,
				ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE),
				"zeVirtualMemMap");
		if (!err)
			h->mapped[r] = true;
	}
	free(fds);
	err = wm_agree(c, err);
	if (err) {
		wm_map_destroy(h);
		return err;
	}
	h->local = h->base + h->offs[me];
	for (int r = 0; r < n; r++)
		h->rank_ptr[r] = h->base + h->offs[r];
	return 0;
}

void
wm_map_destroy(struct wholememory_handle_ *h)
{
	if (h->base) {
		size_t g = page_of(h);
		for (int r = 0; h->mapped && r < h->comm->size; r++) {
			if (!h->mapped[r])
				continue;
			struct page_run pr = run_of(h, r, g);
			zeVirtualMemUnmap(wm_ze_ctx(), h->base + pr.first * g,
					  pr.n * g);
		}
		zeVirtualMemFree(wm_ze_ctx(), h->base, h->range);
	}
	for (int r = 0; h->imp && r < h->comm->size; r++)
		if (h->imp[r])
			zePhysicalMemDestroy(wm_ze_ctx(), h->imp[r]);
	if (h->mine)
		zePhysicalMemDestroy(wm_ze_ctx(), h->mine);
	free(h->imp);
	free(h->mapped);
	free(h->rank_ptr);
	h->imp = NULL;
	h->mapped = NULL;
	h->rank_ptr = NULL;
	h->mine = NULL;
	h->base = NULL;
	h->local = NULL;
}
