// SPDX-License-Identifier: MIT
/*
 * sh_core: the bottom floor's code: the runtime's one state `sh` (written
 * by init/ and the collective calls), its one form of a message (warn,
 * fatal), the mapping of Level Zero results to -errno, the host's
 * identity, and the lookup of entry points newer than the loader.
 */
#include "sh.h"

#include "u_options.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct sh_state sh = { .me = -1 };
size_t sh_req_heap_size;
int sh_req_copy = -1;
#if defined(__SANITIZE_THREAD__)
uint32_t sh_fence_word;
#endif

/* The runtime's one form of a message: "zeshmem: PE <me>: <call>: ...". */
static void
vsay(const char *call, const char *fmt, va_list ap)
{
	char msg[512];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	fprintf(stderr, "zeshmem: PE %d: %s: %s\n", sh.me, call, msg);
}

void
sh_warn(const char *call, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(call, fmt, ap);
	va_end(ap);
}

void
sh_fatal(const char *call, const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	va_start(ap, fmt);
	vsay(call, fmt, ap);
	va_end(ap);
	fflush(stderr);
	exit(1);
}

void
sh_check_init(const char *call)
{
	if (__builtin_expect(!sh.initialized, 0))
		sh_fatal(call, "not initialized (call shmem_init first)");
}

int
sh_ze_err(ze_result_t r)
{
	switch (r) {
	case ZE_RESULT_SUCCESS:
		return 0;
	case ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY:
	case ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY:
		return -ENOMEM;
	case ZE_RESULT_ERROR_UNSUPPORTED_FEATURE:
		return -EOPNOTSUPP;
	case ZE_RESULT_ERROR_INVALID_ARGUMENT:
	case ZE_RESULT_ERROR_INVALID_SIZE:
	case ZE_RESULT_ERROR_UNSUPPORTED_SIZE:
	case ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT:
		return -EINVAL;
	case ZE_RESULT_ERROR_UNINITIALIZED:
		return -ENODEV;
	default:
		return -EIO;
	}
}

/* ---- host identity ---------------------------------------------------- */

static uint64_t
fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++) {
		h ^= c[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

uint64_t
sh_host_identity(void)
{
	const char *id = u_option_str(U_OPT_SH_HOST_ID);
	if (id && *id) /* ZESHMEM_HOST_ID: a node of that name */
		return fnv1a(0xcbf29ce484222325ull, id, strlen(id));
	char host[256] = "";
	char boot[64] = "";
	if (gethostname(host, sizeof(host) - 1))
		snprintf(host, sizeof(host), "?");
	int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = read(fd, boot, sizeof(boot) - 1);
		if (n > 0)
			boot[n] = '\0';
		close(fd);
	}
	uint64_t h = 0xcbf29ce484222325ull;
	h = fnv1a(h, host, strlen(host));
	h = fnv1a(h, "/", 1);
	h = fnv1a(h, boot, strlen(boot));
	return h;
}

/* An entry point newer than the loader may have: the loader's own, else
 * the driver's through zeDriverGetExtensionFunctionAddress (zemem's
 * driver offers both used here; a single-driver loader passes the
 * driver's handles through, so its functions take ours). NULL: neither. */
void *
sh_ze_sym(const char *name)
{
	void *dl = dlopen("libze_loader.so.1", RTLD_LAZY | RTLD_NOLOAD);
	void *f = dl ? dlsym(dl, name) : NULL;
	if (dl)
		dlclose(dl);
	if (!f && sh.zdrv &&
	    zeDriverGetExtensionFunctionAddress(sh.zdrv, name, &f))
		f = NULL;
	return f;
}
