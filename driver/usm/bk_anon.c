// SPDX-License-Identifier: MIT
/*
 * bk_anon: anonymous private memory, no fd.
 *
 * The fallback when a memfd cannot be had (fd limit reached) for memory
 * that was not asked to be exportable. It cannot be exported or grown; an
 * object is nothing but its size. No state, no locks.
 */
#include "usm_private.h"

#include <errno.h>
#include <sys/mman.h>

static int
anon_probe(const char **why)
{
	(void)why;
	return 0;
}

static int
anon_create(struct bk_obj *obj, const char *name, uint64_t size,
	    bool growable)
{
	(void)name;
	(void)growable;
	obj->type = BK_ANON;
	obj->fd = -1;
	obj->aux_fd = -1;
	obj->size = size;
	return 0;
}

static int
anon_resize(struct bk_obj *obj, uint64_t size)
{
	obj->size = size;
	return 0;
}

static int
anon_map(struct bk_obj *obj, void *addr, uint64_t off, size_t len)
{
	(void)obj;
	(void)off;
	void *p = mmap(addr, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	return 0;
}

static int
anon_release(struct bk_obj *obj, void *addr, uint64_t off, size_t len)
{
	(void)obj;
	(void)off;
	if (madvise(addr, len, MADV_DONTNEED) < 0)
		return -errno;
	return 0;
}

static void
anon_destroy(struct bk_obj *obj)
{
	obj->size = 0;
}

static int
anon_export(const struct bk_obj *obj, int *fd)
{
	(void)obj;
	(void)fd;
	return -EOPNOTSUPP;
}

const struct bk_ops bk_anon_ops = {
	.name = "anon",
	.probe = anon_probe,
	.create = anon_create,
	.resize = anon_resize,
	.map = anon_map,
	.unmap = bk_unmap_common,
	.release = anon_release,
	.destroy = anon_destroy,
	.export_fd = anon_export,
};
