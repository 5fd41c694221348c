// SPDX-License-Identifier: MIT
/*
 * bk_memfd: memfd-backed memory, mapped MAP_SHARED, the default backend.
 *
 * Objects are memfds (MFD_CLOEXEC | MFD_ALLOW_SEALING, through
 * u_memfd_create) named after what they hold ("zemem:pool:host",
 * "zemem:device:4096"). Seals: F_SEAL_SHRINK always (the file never
 * shrinks; released ranges are punched), F_SEAL_GROW too for fixed-size
 * objects, then F_SEAL_SEAL so an importer cannot add seals that would
 * stop a pool file from growing. No state, no locks: callers serialise
 * resize and release of one object.
 */
#include "usm_private.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "u_log.h"
#include "u_os.h"

static int
memfd_probe(const char **why)
{
	int fd = u_memfd_create("zemem:probe", 0);
	if (fd < 0) {
		*why = "memfd_create failed";
		return fd == -ENOSYS ? -ENOSYS : fd;
	}
	close(fd);
	return 0;
}

static int
memfd_create_obj(struct bk_obj *obj, const char *name, uint64_t size,
		 bool growable)
{
	int fd = u_memfd_create(name, (size_t)size);
	if (fd < 0)
		return fd;
	int seals = F_SEAL_SHRINK | F_SEAL_SEAL;
	if (!growable)
		seals |= F_SEAL_GROW;
	if (fcntl(fd, F_ADD_SEALS, seals) < 0)
		u_dbg(USM_TOPIC, "%s: F_ADD_SEALS: errno %d (not sealed)",
		      name, errno);
	obj->type = BK_MEMFD;
	obj->fd = fd;
	obj->aux_fd = -1;
	obj->size = size;
	return 0;
}

static int
memfd_resize(struct bk_obj *obj, uint64_t size)
{
	if (ftruncate(obj->fd, (off_t)size) < 0)
		return -errno;
	obj->size = size;
	return 0;
}

static int
memfd_map(struct bk_obj *obj, void *addr, uint64_t off, size_t len)
{
	return bk_map_fd(obj->fd, addr, off, len);
}

static int
memfd_release(struct bk_obj *obj, void *addr, uint64_t off, size_t len)
{
	(void)addr;
	if (fallocate(obj->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      (off_t)off, (off_t)len) < 0)
		return -errno;
	return 0;
}

static void
memfd_destroy(struct bk_obj *obj)
{
	if (obj->fd >= 0)
		close(obj->fd);
	obj->fd = -1;
}

const struct bk_ops bk_memfd_ops = {
	.name = "memfd",
	.probe = memfd_probe,
	.create = memfd_create_obj,
	.resize = memfd_resize,
	.map = memfd_map,
	.unmap = bk_unmap_common,
	.release = memfd_release,
	.destroy = memfd_destroy,
	.export_fd = bk_export_dup,
};
