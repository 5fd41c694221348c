// SPDX-License-Identifier: MIT
/*
 * tool_common: driver discovery, loader introspection, diagnostics and
 * process helpers shared by the tools (see tool_common.h).
 *
 * No locks: the tools call these from their main thread. tool_spawn builds
 * the child's environment before fork, so the child only calls
 * async-signal-safe functions (dup2, execve) even when driver threads run.
 */
#include "tool_common.h"

#include <level_zero/ze_api.h>
#include <zemem/zel_loader.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef ZEMEM_INSTALLED_DRIVER
#define ZEMEM_INSTALLED_DRIVER "/usr/local/lib/libze_zemem.so.1"
#endif
#ifndef ZEMEM_LIBDIR
#define ZEMEM_LIBDIR "/usr/local/lib"
#endif

extern char **environ;

static char self_path[PATH_MAX];
static char self_dir[PATH_MAX];

const char *
tool_self_path(void)
{
	if (!self_path[0]) {
		ssize_t n = readlink("/proc/self/exe", self_path,
				     sizeof(self_path) - 1);
		if (n <= 0)
			return "/proc/self/exe";
		self_path[n] = '\0';
		snprintf(self_dir, sizeof(self_dir), "%s", self_path);
		char *slash = strrchr(self_dir, '/');
		if (slash)
			*slash = '\0';
	}
	return self_path;
}

/* "<folder of this program>/dir/file" if it exists, with the folders
 * resolved but the file name kept (libze_zemem.so.1, not the file its
 * symlink points to). */
static const char *
beside_self(const char *dir, const char *file, char *out, size_t len)
{
	char cand[PATH_MAX + 64], real[PATH_MAX];
	tool_self_path();
	if (!self_dir[0])
		return NULL;
	snprintf(cand, sizeof(cand), "%s/%s", self_dir, dir);
	if (!realpath(cand, real))
		return NULL;
	if (snprintf(out, len, "%s/%s", real, file) >= (int)len ||
	    access(out, R_OK))
		return NULL;
	return out;
}

const char *
tool_default_driver(void)
{
	static char path[PATH_MAX];
	if (getenv("ZE_ENABLE_ALT_DRIVERS"))
		return NULL;
	const char *found = beside_self("../driver", "libze_zemem.so.1",
					path, sizeof(path));
	if (!found && !access(ZEMEM_INSTALLED_DRIVER, R_OK)) {
		snprintf(path, sizeof(path), "%s", ZEMEM_INSTALLED_DRIVER);
		found = path;
	}
	if (found)
		setenv("ZE_ENABLE_ALT_DRIVERS", found, 1);
	return found;
}

const char *
tool_zemem_loader_dir(void)
{
	static char dir[PATH_MAX];
	char lib[PATH_MAX];
	if (dir[0])
		return dir;
	if (beside_self("../loader", "libze_loader.so.1", lib, sizeof(lib))) {
		char *slash = strrchr(lib, '/');
		*slash = '\0';
		snprintf(dir, sizeof(dir), "%s", lib);
		return dir;
	}
	/* Installed: zemem's loader sits in zemem's libdir, next to the
	 * driver (the system's loader lives in the distribution's libdir). */
	snprintf(lib, sizeof(lib), "%s/libze_loader.so.1", ZEMEM_LIBDIR);
	if (!access(lib, R_OK) && access(ZEMEM_INSTALLED_DRIVER, R_OK) == 0) {
		snprintf(dir, sizeof(dir), "%s", ZEMEM_LIBDIR);
		return dir;
	}
	return NULL;
}

void *
tool_sym(const char *name)
{
	return dlsym(RTLD_DEFAULT, name);
}

const char *
tool_loader_path(void)
{
	static char path[PATH_MAX];
	if (path[0])
		return path;
	void *dl = dlopen("libze_loader.so.1", RTLD_LAZY | RTLD_NOLOAD);
	struct link_map *lm = NULL;
	if (!dl || dlinfo(dl, RTLD_DI_LINKMAP, &lm) || !lm || !lm->l_name ||
	    !realpath(lm->l_name, path))
		snprintf(path, sizeof(path), "?");
	if (dl)
		dlclose(dl);
	return path;
}

const char *
tool_loader_layers(void)
{
	static char out[256];
	ze_result_t (*get)(size_t *, zel_component_version_t *) =
		TOOL_SYM(ze_result_t (*)(size_t *, zel_component_version_t *),
			 "zelLoaderGetVersions");
	zel_component_version_t v[8];
	size_t n = 0;
	/* Ask for the count first: some loaders copy *num_elems entries
	 * whatever they hold. */
	if (!get || get(&n, NULL) || !n)
		return "unknown";
	if (n > 8)
		n = 8;
	if (get(&n, v))
		return "unknown";
	out[0] = '\0';
	size_t len = 0;
	for (size_t i = 0; i < n; i++) {
		v[i].component_name[ZEL_COMPONENT_STRING_SIZE - 1] = '\0';
		if (!strcmp(v[i].component_name, "loader"))
			continue;
		int k = snprintf(out + len, sizeof(out) - len, "%s%s",
				 len ? ", " : "", v[i].component_name);
		if (k < 0 || (size_t)k >= sizeof(out) - len)
			break;
		len += (size_t)k;
	}
	return len ? out : "none";
}

const char *
tool_result_str(ze_result_t r)
{
	static char buf[48];
	switch (r) {
#define R(x) case ZE_RESULT_##x: return "ZE_RESULT_" #x
	R(SUCCESS);
	R(NOT_READY);
	R(ERROR_UNINITIALIZED);
	R(ERROR_DEVICE_LOST);
	R(ERROR_OUT_OF_HOST_MEMORY);
	R(ERROR_OUT_OF_DEVICE_MEMORY);
	R(ERROR_INSUFFICIENT_PERMISSIONS);
	R(ERROR_UNSUPPORTED_VERSION);
	R(ERROR_UNSUPPORTED_FEATURE);
	R(ERROR_INVALID_ARGUMENT);
	R(ERROR_INVALID_NULL_HANDLE);
	R(ERROR_INVALID_NULL_POINTER);
	R(ERROR_INVALID_SIZE);
	R(ERROR_UNSUPPORTED_SIZE);
	R(ERROR_UNSUPPORTED_ALIGNMENT);
	R(ERROR_INVALID_ENUMERATION);
	R(ERROR_UNSUPPORTED_ENUMERATION);
	R(ERROR_UNKNOWN);
#undef R
	default:
		snprintf(buf, sizeof(buf), "0x%x", (unsigned)r);
		return buf;
	}
}

/* One line about one candidate driver library. */
static void
explain_path(FILE *f, const char *path)
{
	if (strchr(path, '/') && access(path, F_OK)) {
		fprintf(f, "    %s: %s\n", path, strerror(errno));
		return;
	}
	dlerror();
	void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!dl) {
		const char *e = dlerror();
		fprintf(f, "    %s: cannot be loaded: %s\n", path, e ? e : "?");
		return;
	}
	if (!dlsym(dl, "zeGetGlobalProcAddrTable"))
		fprintf(f, "    %s: loads, but is not a Level Zero driver (no "
			"zeGetGlobalProcAddrTable)\n", path);
	else
		fprintf(f, "    %s: loads and exports the DDI getters, but the "
			"loader did not keep it or its zeInit failed (run with "
			"ZEMEM_LOG_LEVEL=debug)\n", path);
	dlclose(dl);
}

void
tool_explain_no_driver(FILE *f, const char *prog, ze_result_t r)
{
	const char *alt = getenv("ZE_ENABLE_ALT_DRIVERS");
	fprintf(f, "%s: no Level Zero driver found (zeInit/zeDriverGet: %s).\n"
		"  loader: %s\n", prog, tool_result_str(r),
		tool_loader_path());
	if (alt && *alt) {
		fprintf(f, "  ZE_ENABLE_ALT_DRIVERS=%s; each library it "
			"names:\n", alt);
		char buf[4096];
		snprintf(buf, sizeof(buf), "%s", alt);
		for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save))
			explain_path(f, tok);
		fprintf(f, "  Point ZE_ENABLE_ALT_DRIVERS at libze_zemem.so.1 "
			"(build/driver/ in a build tree), or unset it to use "
			"the one next to this tool.\n");
		return;
	}
	fprintf(f, "  ZE_ENABLE_ALT_DRIVERS is unset and no zemem driver was "
		"found next to this tool (../driver/libze_zemem.so.1) or "
		"installed (%s);\n  the loader's default drivers:\n",
		ZEMEM_INSTALLED_DRIVER);
	static const char *const defaults[] = {
		"libze_intel_gpu.so.1", "libze_intel_gpu_legacy1.so.1",
		"libze_intel_vpu.so.1", "libze_intel_npu.so.1",
	};
	for (size_t i = 0; i < sizeof(defaults) / sizeof(*defaults); i++)
		explain_path(f, defaults[i]);
	fprintf(f, "  Build zemem (ninja -C build) or set "
		"ZE_ENABLE_ALT_DRIVERS=/path/to/libze_zemem.so.1.\n");
}

uint64_t
tool_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

const char *
tool_human(uint64_t v, char *buf, size_t len)
{
	if (v >= (1ull << 30))
		snprintf(buf, len, "%.1f GiB", (double)v / (1ull << 30));
	else if (v >= (1ull << 20))
		snprintf(buf, len, "%.1f MiB", (double)v / (1ull << 20));
	else if (v >= 1024)
		snprintf(buf, len, "%.1f KiB", (double)v / 1024);
	else
		snprintf(buf, len, "%llu B", (unsigned long long)v);
	return buf;
}

/* environ with env applied, allocated before fork. */
static char **
child_environ(const char *const env[])
{
	size_t n = 0, extra = 0;
	while (environ[n])
		n++;
	while (env && env[extra])
		extra++;
	char **out = calloc(n + extra + 1, sizeof(char *));
	if (!out)
		return NULL;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		bool replaced = false;
		for (size_t e = 0; e < extra && !replaced; e++) {
			size_t l = strcspn(env[e], "=");
			replaced = !strncmp(environ[i], env[e], l) &&
				   environ[i][l] == '=';
		}
		if (!replaced)
			out[k++] = environ[i];
	}
	for (size_t e = 0; e < extra; e++)
		if (strchr(env[e], '='))
			out[k++] = (char *)env[e];
	out[k] = NULL;
	return out;
}

pid_t
tool_spawn(char *const argv[], const char *const env[], int *to_child,
	   int *from_child)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 };
	const char *path = tool_self_path();
	char **envp = child_environ(env);
	if (!envp)
		return -1;
	if ((to_child && pipe2(in, O_CLOEXEC)) ||
	    (from_child && pipe2(out, O_CLOEXEC)))
		goto err;
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0)
		goto err;
	if (pid == 0) {
		/* dup2 clears close-on-exec on the copies. */
		if ((to_child && dup2(in[0], 0) < 0) ||
		    (from_child && dup2(out[1], 1) < 0))
			_exit(127);
		execve(path, argv, envp);
		_exit(127);
	}
	free(envp);
	if (to_child) {
		close(in[0]);
		*to_child = in[1];
	}
	if (from_child) {
		close(out[1]);
		*from_child = out[0];
	}
	return pid;
err:;
	int e = errno;
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (out[i] >= 0)
			close(out[i]);
	}
	free(envp);
	errno = e;
	return -1;
}

int
tool_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int
tool_read_all(int fd, void *buf, size_t len)
{
	char *p = buf;
	while (len) {
		ssize_t n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EPIPE;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

void
tool_hex_encode(const void *data, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *d = data;
	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[d[i] >> 4];
		out[2 * i + 1] = digits[d[i] & 15];
	}
	out[2 * len] = '\0';
}

static int
nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int
tool_hex_decode(const char *hex, void *data, size_t len)
{
	unsigned char *d = data;
	for (size_t i = 0; i < len; i++) {
		int hi = nibble(hex[2 * i]), lo = hi < 0 ? -1
						       : nibble(hex[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -EINVAL;
		d[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}
