// SPDX-License-Identifier: MIT
/*
 * sh_ipc: the node-local transport: every PE of the node maps every
 * other's heap, so a put is a copy and shmem_ptr a pointer.
 *
 * Init: each PE exports its heap's chunk 0 with ONE IPC handle, the
 * physical-range handle (zeMemGetIpcHandleWithProperties with
 * ze_ipc_phys_mem_handle_range_ext_desc_t chained, looked up in the loader
 * at run time since Debian's 1.8 loader lacks it; there the plain
 * zeMemGetIpcHandle of the mapping's base gives the same handle, chunk 0
 * being one physical object). One bootstrap all-gather carries each PE's
 * struct blob: host identity, pid, chunk-0 size, base alignment, handle.
 * zemem's driver moves the fds itself (pidfd_getfd, else its broker), so
 * the 64 bytes are all a peer needs. Each PE then opens the handle of
 * every PE with its identity (one node) and keeps a pidfd of it (liveness,
 * sh_live.c).
 *
 * Addressing: where pe's chunk k is mapped here goes into chunk k's view
 * in the symmetric-address map (mem/sh_symmap.c), which answers every
 * lookup: remote(pe, p) = view[pe] + (p - chunk k's local address); a
 * range must lie in one chunk (blocks never straddle chunks, sh_alloc.c).
 *
 * Growth (sh_tr_ipc_add_chunk, inside a collective allocation): the new
 * chunk is one physical object, exported with zeMemGetIpcHandle of its
 * base, all-gathered and opened by every node peer.
 */
#include "sh_tr.h"

#include "u_log.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct blob {
	uint64_t host;
	int32_t pid;
	int32_t status;
	uint64_t size0;
	uint64_t align;
	ze_ipc_mem_handle_t handle;
};

typedef ze_result_t (*get_props_fn)(ze_context_handle_t, const void *,
				    void *, ze_ipc_mem_handle_t *);
typedef ze_result_t (*put_fn)(ze_context_handle_t, ze_ipc_mem_handle_t);

static ze_ipc_mem_handle_t my_handle[SH_MAX_CHUNKS];
static bool my_handle_set[SH_MAX_CHUNKS];


static int
export_range(ze_context_handle_t ctx, const void *p, size_t size,
	     bool whole_heap, ze_ipc_mem_handle_t *out)
{
	get_props_fn gp = whole_heap ? (get_props_fn)sh_ze_sym(
			"zeMemGetIpcHandleWithProperties") : NULL;
	ze_result_t r;
	if (gp) {
		ze_ipc_phys_mem_handle_range_ext_desc_t rd = {
			.stype = ZE_STRUCTURE_TYPE_IPC_PHYS_MEM_HANDLE_RANGE_EXT_DESC,
			.size = size,
		};
		r = gp(ctx, p, &rd, out);
	} else {
		r = zeMemGetIpcHandle(ctx, p, out);
	}
	if (r)
		u_err("shmem", "IPC handle of the heap at %p (+%zu): 0x%x", p,
		      size, r);
	return sh_ze_err(r);
}

static void
put_handle(ze_context_handle_t ctx, ze_ipc_mem_handle_t h)
{
	put_fn put = (put_fn)sh_ze_sym("zeMemPutIpcHandle");
	if (put)
		put(ctx, h);
	else
		u_warn("shmem", "neither the loader nor the driver has "
				"zeMemPutIpcHandle: the heap's export stays "
				"until exit");
}

static int
open_handle(ze_ipc_mem_handle_t h, int pe, void **out)
{
	ze_result_t r = zeMemOpenIpcHandle(sh.zctx, sh.zdev, h, 0, out);
	if (r) {
		u_err("shmem", "cannot open the heap of PE %d: 0x%x", pe, r);
		return sh_ze_err(r);
	}
	return 0;
}

static int
pidfd_of(pid_t pid)
{
#ifdef SYS_pidfd_open
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);
	return fd < 0 ? -1 : fd; /* pidfds are always close-on-exec */
#else
	(void)pid;
	return -1;
#endif
}

int
sh_tr_ipc_init(void)
{
	int n = sh.npes, err;
	struct blob mine = {
		.host = sh_host_identity(),
		.pid = (int32_t)getpid(),
		.size0 = sh_heap.chunk0_size,
		.align = sh_heap.max_align,
	};
	sh.host_hash = mine.host;
	err = export_range(sh.zctx, sh_heap.base, sh_heap.chunk0_size, true,
			   &mine.handle);
	if (err)
		return err;
	my_handle[0] = mine.handle;
	my_handle_set[0] = true;

	struct blob *all = calloc((size_t)n, sizeof(*all));
	sh.pids = calloc((size_t)n, sizeof(*sh.pids));
	sh.node_of = calloc((size_t)n, sizeof(*sh.node_of));
	sh.peers = calloc((size_t)n, sizeof(*sh.peers));
	if (!all || !sh.pids || !sh.node_of || !sh.peers) {
		err = -ENOMEM;
		goto err;
	}
	for (int i = 0; i < n; i++)
		sh.peers[i].pidfd = -1;
	if ((err = sh.boot->ops->allgather(sh.boot, &mine, sizeof(mine),
					   all)))
		goto err;

	/* Nodes in order of first appearance; my node's PEs in rank order. */
	int nnodes = 0;
	for (int i = 0; i < n; i++) {
		sh.pids[i] = all[i].pid;
		int node = -1;
		for (int j = 0; j < i && node < 0; j++)
			if (all[j].host == all[i].host)
				node = sh.node_of[j];
		sh.node_of[i] = node >= 0 ? node : nnodes++;
		if (all[i].align < sh_heap.max_align)
			sh_heap.max_align = all[i].align;
		if (all[i].size0 != sh_heap.chunk0_size) {
			u_err("shmem", "PE %d's heap is %llu bytes, this PE's "
				       "%zu: every PE needs the same "
				       "ZESHMEM_SYMMETRIC_SIZE", i,
			      (unsigned long long)all[i].size0,
			      sh_heap.chunk0_size);
			err = -EINVAL;
			goto err;
		}
	}
	/* Before ZESHMEM_TRANSPORT=ofi makes every PE a node of its own:
	 * whether the job is on this host alone (sh_ofi.c then binds its
	 * endpoints to loopback). */
	sh.one_host = true;
	for (int i = 0; i < n; i++)
		sh.one_host = sh.one_host && all[i].host == mine.host;
	/* ZESHMEM_TRANSPORT=ofi: every PE a node of its own (all peers over
	 * the network); ipc: PEs on other nodes are an error. */
	for (int i = 0; i < n; i++) {
		if (sh.transport == SH_TRANSPORT_OFI) {
			sh.node_of[i] = i;
		} else if (sh.transport == SH_TRANSPORT_IPC &&
			   sh.node_of[i] != sh.node_of[sh.me]) {
			u_err("shmem", "%s=ipc, but PE %d is on another node",
			      sh.backend == SH_BACKEND_IPC ? "ZESHMEM_BACKEND"
							   : "ZESHMEM_TRANSPORT",
			      i);
			err = -EOPNOTSUPP;
		}
	}
	if (err)
		goto err;
	sh.my_node = sh.node_of[sh.me];
	sh.node_npes = 0;
	for (int i = 0; i < n; i++) {
		if (sh.node_of[i] != sh.my_node)
			continue;
		if (i == sh.me)
			sh.node_rank = sh.node_npes;
		sh.node_npes++;
	}
	for (int i = 0; i < n; i++) {
		struct sh_peer *p = &sh.peers[i];
		if (sh.node_of[i] != sh.my_node)
			continue;
		p->local = true;
		char **view = sh_symmap.heap[0].view;
		if (i != sh.me) {
			void *m;
			if ((err = open_handle(all[i].handle, i, &m)))
				goto err;
			view[i] = m;
			p->pidfd = pidfd_of(all[i].pid);
		}
		p->ctrl = (struct sh_ctrl *)view[i];
	}
	free(all);
	return 0;

err:
	free(all);
	sh_tr_ipc_fini();
	return err;
}

void
sh_tr_ipc_fini(void)
{
	for (int i = 0; sh.peers && i < sh.npes; i++) {
		struct sh_peer *p = &sh.peers[i];
		for (unsigned k = 0; i != sh.me && k < sh_symmap.nheap; k++) {
			char **view = sh_symmap.heap[k].view;
			if (view[i])
				zeMemCloseIpcHandle(sh.zctx, view[i]);
			view[i] = NULL;
		}
		p->ctrl = NULL;
		if (p->pidfd >= 0)
			close(p->pidfd);
	}
	for (unsigned k = 0; k < SH_MAX_CHUNKS; k++)
		if (my_handle_set[k]) {
			put_handle(sh.zctx, my_handle[k]);
			my_handle_set[k] = false;
		}
	free(sh.peers);
	free(sh.pids);
	free(sh.node_of);
	sh.peers = NULL;
	sh.pids = NULL;
	sh.node_of = NULL;
}

int
sh_tr_ipc_add_chunk(unsigned k)
{
	int n = sh.npes;
	struct sh_chunk *c = &sh_heap.chunk[k];
	struct blob mine = { .pid = (int32_t)getpid() };
	mine.status = export_range(sh.zctx, sh_heap.base + c->off, c->size,
				   false, &mine.handle);
	if (!mine.status) {
		my_handle[k] = mine.handle;
		my_handle_set[k] = true;
	}
	struct blob *all = calloc((size_t)n, sizeof(*all));
	int32_t *st = calloc((size_t)n, sizeof(*st));
	int err = all && st ? 0 : -ENOMEM;
	if (sh.boot->ops->allgather(sh.boot, &mine, sizeof(mine), all))
		err = -EIO;
	for (int i = 0; !err && i < n; i++)
		if (all[i].status)
			err = -EAGAIN;
	char **view = sh_symmap.heap[k].view;
	for (int i = 0; !err && i < n; i++) {
		if (!sh.peers[i].local || i == sh.me)
			continue;
		void *m;
		if ((err = open_handle(all[i].handle, i, &m)))
			break;
		view[i] = m;
	}
	/* All or nothing: everyone learns whether everyone opened. */
	int32_t e = err;
	if (st && sh.boot->ops->allgather(sh.boot, &e, sizeof(e), st))
		err = -EIO;
	for (int i = 0; st && !err && i < n; i++)
		if (st[i])
			err = -EAGAIN;
	if (err) {
		for (int i = 0; i < n; i++) {
			if (i != sh.me && view[i])
				zeMemCloseIpcHandle(sh.zctx, view[i]);
			if (i != sh.me)
				view[i] = NULL;
		}
	}
	free(all);
	free(st);
	return err;
}

int
sh_tr_ipc_export(ze_context_handle_t ctx, const void *p, size_t size,
		 ze_ipc_mem_handle_t *out)
{
	return export_range(ctx, p, size, true, out);
}

int
sh_tr_ipc_open(ze_ipc_mem_handle_t h, int pe, void **out)
{
	return open_handle(h, pe, out);
}

void
sh_tr_ipc_put(ze_context_handle_t ctx, ze_ipc_mem_handle_t h)
{
	put_handle(ctx, h);
}
