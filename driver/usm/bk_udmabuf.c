// SPDX-License-Identifier: MIT
/*
 * bk_udmabuf: dma-bufs made by /dev/udmabuf from a sealed memfd.
 *
 * The kernel's rules (drivers/dma-buf/udmabuf.c): the memfd must be shmem
 * (or hugetlbfs), carry F_SEAL_SHRINK and not F_SEAL_WRITE; offset and size
 * are page-aligned; one buffer is at most size_limit_mb (module parameter,
 * 64 MiB by default). The dma-buf is mapped MAP_SHARED.
 *
 * An object is the dma-buf fd (obj.fd, what export hands out) plus the
 * memfd behind it (obj.aux_fd). /dev/udmabuf is opened per create and
 * closed at once, so the backend holds no fd of its own. The probe result
 * and the size cap are written once under pthread_once (bk.c).
 */
#include "usm_private.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/udmabuf.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "u_os.h"

#define UDMABUF_DEV "/dev/udmabuf"
#define UDMABUF_LIMIT "/sys/module/udmabuf/parameters/size_limit_mb"

static uint64_t size_cap = (uint64_t)64 << 20;

static int
xioctl(int fd, unsigned long req, void *arg)
{
	int rc;
	do
		rc = ioctl(fd, req, arg);
	while (rc < 0 && (errno == EINTR || errno == EAGAIN));
	return rc < 0 ? -errno : rc;
}

static int
udmabuf_open(void)
{
	int fd = open(UDMABUF_DEV, O_RDWR | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static void
read_cap(void)
{
	FILE *f = u_sysfile(UDMABUF_LIMIT);
	unsigned long mb;
	if (!f)
		return;
	if (fscanf(f, "%lu", &mb) == 1 && mb)
		size_cap = (uint64_t)mb << 20;
	fclose(f);
}

static int
udmabuf_create(struct bk_obj *obj, const char *name, uint64_t size,
	       bool growable)
{
	if (growable || size == 0 || size > size_cap ||
	    size % u_page_size())
		return -EOPNOTSUPP;
	int dev = udmabuf_open();
	if (dev < 0)
		return dev;
	int err;
	int mfd = u_memfd_create(name, (size_t)size);
	if (mfd < 0) {
		err = mfd;
		goto err_dev;
	}
	if (fcntl(mfd, F_ADD_SEALS, F_SEAL_SHRINK) < 0) {
		err = -errno;
		goto err_memfd;
	}
	struct udmabuf_create c = {
		.memfd = (uint32_t)mfd,
		.flags = UDMABUF_FLAGS_CLOEXEC,
		.offset = 0,
		.size = size,
	};
	int buf = xioctl(dev, UDMABUF_CREATE, &c);
	if (buf < 0) {
		err = buf;
		goto err_memfd;
	}
	close(dev);
	obj->type = BK_UDMABUF;
	obj->fd = buf;
	obj->aux_fd = mfd;
	obj->size = size;
	return 0;

err_memfd:
	close(mfd);
err_dev:
	close(dev);
	return err;
}

static int
udmabuf_map(struct bk_obj *obj, void *addr, uint64_t off, size_t len)
{
	return bk_map_fd(obj->fd, addr, off, len);
}

static void
udmabuf_destroy(struct bk_obj *obj)
{
	if (obj->fd >= 0)
		close(obj->fd);
	if (obj->aux_fd >= 0)
		close(obj->aux_fd);
	obj->fd = obj->aux_fd = -1;
}

static int
udmabuf_probe(const char **why)
{
	int dev = udmabuf_open();
	if (dev < 0) {
		*why = dev == -ENOENT ? "no " UDMABUF_DEV
					" (kernel without CONFIG_UDMABUF, or "
					"module not loaded)"
					: "cannot open " UDMABUF_DEV
					  " (permissions?)";
		return -ENODEV;
	}
	close(dev);
	read_cap();
	struct bk_obj o;
	size_t page = u_page_size();
	int err = udmabuf_create(&o, "zemem:probe", page, false);
	if (err) {
		*why = "UDMABUF_CREATE failed on a one-page memfd";
		return err;
	}
	void *p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, o.fd, 0);
	if (p == MAP_FAILED) {
		err = -errno;
		*why = "mmap of a udmabuf dma-buf failed";
	} else {
		*(volatile char *)p = 1;
		munmap(p, page);
	}
	udmabuf_destroy(&o);
	return err;
}

const struct bk_ops bk_udmabuf_ops = {
	.name = "udmabuf",
	.probe = udmabuf_probe,
	.create = udmabuf_create,
	.resize = bk_no_resize,
	.map = udmabuf_map,
	.unmap = bk_unmap_common,
	.release = bk_no_release,
	.destroy = udmabuf_destroy,
	.export_fd = bk_export_dup,
};
