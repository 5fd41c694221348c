// SPDX-License-Identifier: MIT
/*
 * bk: the table of backing stores and what they share.
 *
 * Vocabulary: a backend is a `static const struct bk_ops` (bk_anon.c,
 * bk_memfd.c, bk_udmabuf.c, bk_drm.c), indexed by enum bk_type; an object
 * (struct bk_obj) is one file of it. The contract is in usm_private.h.
 *
 * Probing: the first bk_available() runs every probe once (pthread_once).
 * An absent backend (-ENODEV, -ENOSYS, -EOPNOTSUPP) gets one info line
 * saying why; a backend present but failing gets one warn line. The
 * results never change afterwards, so readers need no lock.
 */
#include "usm_private.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "u_log.h"

const struct bk_ops *const bk_table[BK_COUNT] = {
	[BK_ANON] = &bk_anon_ops,
	[BK_MEMFD] = &bk_memfd_ops,
	[BK_UDMABUF] = &bk_udmabuf_ops,
	[BK_DRM_PRIME] = &bk_drm_ops,
};

static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static int probe_rc[BK_COUNT];
static const char *probe_why[BK_COUNT];

static void
probe_all(void)
{
	for (int t = 0; t < BK_COUNT; t++) {
		const char *why = "no reason given";
		int rc = bk_table[t]->probe(&why);
		probe_rc[t] = rc;
		probe_why[t] = rc ? why : "available";
		if (!rc)
			u_dbg(USM_TOPIC, "backend %s: available",
			      bk_table[t]->name);
		else if (rc == -ENODEV || rc == -ENOSYS || rc == -EOPNOTSUPP)
			u_info(USM_TOPIC, "backend %s: not available: %s",
			       bk_table[t]->name, why);
		else
			u_warn(USM_TOPIC, "backend %s: probe failed (%d): %s",
			       bk_table[t]->name, rc, why);
	}
}

int
bk_available(enum bk_type t, const char **why)
{
	pthread_once(&probe_once, probe_all);
	if ((unsigned)t >= BK_COUNT) {
		if (why)
			*why = "no such backend";
		return -EINVAL;
	}
	if (why)
		*why = probe_why[t];
	return probe_rc[t];
}

int
usm_backend_status(enum bk_type t, const char **why)
{
	return bk_available(t, why);
}

const char *
usm_backend_name(enum bk_type t)
{
	return (unsigned)t < BK_COUNT ? bk_table[t]->name : "?";
}

int
bk_map_fd(int fd, void *addr, uint64_t off, size_t len)
{
	int prot = PROT_READ | PROT_WRITE;
	void *p = mmap(addr, len, prot, MAP_SHARED | MAP_FIXED, fd, (off_t)off);
	if (p == MAP_FAILED)
		return -errno;
	return 0;
}

int
bk_unmap_common(struct bk_obj *obj, void *addr, size_t len)
{
	(void)obj;
	USM_UNPOISON(addr, len);
	if (munmap(addr, len) < 0)
		return -errno;
	return 0;
}

int
bk_export_dup(const struct bk_obj *obj, int *fd)
{
	if (obj->fd < 0)
		return -EOPNOTSUPP;
	int nfd = fcntl(obj->fd, F_DUPFD_CLOEXEC, 3);
	if (nfd < 0)
		return -errno;
	*fd = nfd;
	return 0;
}

int
bk_no_resize(struct bk_obj *obj, uint64_t size)
{
	(void)obj;
	(void)size;
	return -EOPNOTSUPP;
}

int
bk_no_release(struct bk_obj *obj, void *addr, uint64_t off, size_t len)
{
	(void)obj;
	(void)addr;
	(void)off;
	(void)len;
	return -EOPNOTSUPP;
}
