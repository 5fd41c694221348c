// SPDX-License-Identifier: MIT
/*
 * bk_drm: dma-bufs exported by a DRM render node (libdrm PRIME).
 *
 * The probe walks drmGetDevices2() for render nodes and keeps the first
 * one where a dumb buffer can be created, exported with PRIME
 * (DRM_CLOEXEC | DRM_RDWR) and mapped. An object is the PRIME fd only: the
 * GEM handle is closed right after export (the dma-buf holds the buffer)
 * and the node is opened per create, so the backend keeps no fd. Without
 * libdrm at build time the probe says so. The chosen node path is written
 * once under pthread_once (bk.c) and read-only afterwards.
 */
#include "usm_private.h"

#include <errno.h>

#ifdef ZEMEM_HAVE_LIBDRM
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>
#include <drm_mode.h>

#include "u_os.h"

#define DRM_PITCH 4096u /* bytes per row of the dumb buffer */

static char node_path[256];

static int
dumb_export(const char *path, uint64_t size, int *out)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int err;
	struct drm_mode_create_dumb c = {
		.height = (uint32_t)((size + DRM_PITCH - 1) / DRM_PITCH),
		.width = DRM_PITCH / 4,
		.bpp = 32,
	};
	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c) < 0) {
		err = -errno;
		goto err_fd;
	}
	int prime = -1;
	err = drmPrimeHandleToFD(fd, c.handle, DRM_CLOEXEC | DRM_RDWR, &prime);
	if (err)
		err = err < 0 && errno ? -errno : -EIO;
	struct drm_mode_destroy_dumb d = { .handle = c.handle };
	drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &d);
	if (err)
		goto err_fd;
	if (c.size < size) {
		close(prime);
		err = -EOPNOTSUPP;
		goto err_fd;
	}
	close(fd);
	*out = prime;
	return 0;

err_fd:
	close(fd);
	return err;
}

static int
drm_probe(const char **why)
{
	int n = drmGetDevices2(0, NULL, 0);
	if (n <= 0) {
		*why = "no DRM device (drmGetDevices2 found none)";
		return -ENODEV;
	}
	drmDevicePtr devs[64];
	if (n > 64)
		n = 64;
	n = drmGetDevices2(0, devs, n);
	*why = "no DRM render node";
	int rc = -ENODEV;
	size_t page = u_page_size();
	for (int i = 0; i < n && rc; i++) {
		if (!(devs[i]->available_nodes & (1 << DRM_NODE_RENDER)))
			continue;
		const char *path = devs[i]->nodes[DRM_NODE_RENDER];
		int fd;
		if (dumb_export(path, page, &fd)) {
			*why = "render node without dumb buffers and PRIME";
			continue;
		}
		void *p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED,
			       fd, 0);
		close(fd);
		if (p == MAP_FAILED) {
			*why = "PRIME dma-buf of the render node cannot be "
			       "mapped";
			continue;
		}
		munmap(p, page);
		snprintf(node_path, sizeof(node_path), "%s", path);
		rc = 0;
	}
	drmFreeDevices(devs, n);
	return rc;
}

static int
drm_create(struct bk_obj *obj, const char *name, uint64_t size, bool growable)
{
	(void)name;
	if (growable || !node_path[0])
		return -EOPNOTSUPP;
	int fd;
	int err = dumb_export(node_path, size, &fd);
	if (err)
		return err;
	obj->type = BK_DRM_PRIME;
	obj->fd = fd;
	obj->aux_fd = -1;
	obj->size = size;
	return 0;
}

static int
drm_map(struct bk_obj *obj, void *addr, uint64_t off, size_t len)
{
	return bk_map_fd(obj->fd, addr, off, len);
}

static void
drm_destroy(struct bk_obj *obj)
{
	if (obj->fd >= 0)
		close(obj->fd);
	obj->fd = -1;
}

#else /* !ZEMEM_HAVE_LIBDRM */

static int
drm_probe(const char **why)
{
	*why = "built without libdrm";
	return -ENOSYS;
}

static int
drm_create(struct bk_obj *obj, const char *name, uint64_t size, bool growable)
{
	(void)obj;
	(void)name;
	(void)size;
	(void)growable;
	return -ENOSYS;
}

static int
drm_map(struct bk_obj *obj, void *addr, uint64_t off, size_t len)
{
	(void)obj;
	(void)addr;
	(void)off;
	(void)len;
	return -ENOSYS;
}

static void
drm_destroy(struct bk_obj *obj)
{
	(void)obj;
}

#endif

const struct bk_ops bk_drm_ops = {
	.name = "drm-prime",
	.probe = drm_probe,
	.create = drm_create,
	.resize = bk_no_resize,
	.map = drm_map,
	.unmap = bk_unmap_common,
	.release = bk_no_release,
	.destroy = drm_destroy,
	.export_fd = bk_export_dup,
};
