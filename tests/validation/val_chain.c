// SPDX-License-Identifier: MIT
/*
 * val_chain: hand-made loader chain and per-test log for the validation
 * layer's tests (see val_chain.h).
 */
#include "val_chain.h"

#include "check_run.h"

#include <zemem/ze_ddi_versions.h>

#include <check.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *
env_or(const char *name, const char *def)
{
	const char *p = getenv(name);
	return p && *p ? p : def;
}

const char *
vc_driver_path(void)
{
	return env_or("ZEMEM_TEST_DRIVER", ZEMEM_BUILD_DRIVER);
}

const char *
vc_layer_path(void)
{
	return env_or("ZEMEM_TEST_LAYER", ZEMEM_BUILD_LAYER);
}

const char *
vc_loader_path(void)
{
	return env_or("ZEMEM_TEST_LOADER", ZEMEM_BUILD_LOADER);
}

typedef ze_result_t (*getter_fn)(ze_api_version_t, void *);

static getter_fn
getter(void *dl, const char *name)
{
	getter_fn fn;
	void *sym = dlsym(dl, name);
	memcpy(&fn, &sym, sizeof(fn));
	return fn;
}

/* Calls every ze getter of dl on the tables of t. */
static int
fill(void *dl, const char *what, ze_api_version_t version, ze_dditable_t *t)
{
#define FILL(table, Getter, FIELDS)                                         \
	do {                                                                \
		getter_fn fn = getter(dl, "zeGet" #Getter "ProcAddrTable"); \
		ze_result_t r_;                                             \
		if (!fn) {                                                  \
			fprintf(stderr, "val_chain: %s has no %s\n", what,  \
				"zeGet" #Getter "ProcAddrTable");           \
			return -1;                                          \
		}                                                           \
		if ((r_ = fn(version, &t->Getter))) {                       \
			fprintf(stderr, "val_chain: %s: %s: 0x%x\n", what,  \
				"zeGet" #Getter "ProcAddrTable",            \
				(unsigned)r_);                              \
			return -1;                                          \
		}                                                           \
	} while (0);
	ZE_DDI_TABLES(FILL)
#undef FILL
	return 0;
}

static void
api_from_tables(struct vapi *a, const ze_dditable_t *t)
{
	a->zeInit = t->Global.pfnInit;
	a->zeDriverGet = t->Driver.pfnGet;
	a->zeDeviceGet = t->Device.pfnGet;
	a->zeDeviceGetProperties = t->Device.pfnGetProperties;
	a->zeContextCreate = t->Context.pfnCreate;
	a->zeContextDestroy = t->Context.pfnDestroy;
	a->zeMemAllocHost = t->Mem.pfnAllocHost;
	a->zeMemAllocDevice = t->Mem.pfnAllocDevice;
	a->zeMemAllocShared = t->Mem.pfnAllocShared;
	a->zeMemFree = t->Mem.pfnFree;
	a->zeMemFreeExt = t->Mem.pfnFreeExt;
	a->zeMemGetAllocProperties = t->Mem.pfnGetAllocProperties;
	a->zeMemGetAddressRange = t->Mem.pfnGetAddressRange;
	a->zeMemGetIpcHandle = t->Mem.pfnGetIpcHandle;
	a->zeMemOpenIpcHandle = t->Mem.pfnOpenIpcHandle;
	a->zeMemCloseIpcHandle = t->Mem.pfnCloseIpcHandle;
	a->zeMemPutIpcHandle = t->Mem.pfnPutIpcHandle;
	a->zeVirtualMemReserve = t->VirtualMem.pfnReserve;
	a->zeVirtualMemFree = t->VirtualMem.pfnFree;
	a->zeVirtualMemQueryPageSize = t->VirtualMem.pfnQueryPageSize;
	a->zeVirtualMemMap = t->VirtualMem.pfnMap;
	a->zeVirtualMemUnmap = t->VirtualMem.pfnUnmap;
	a->zePhysicalMemCreate = t->PhysicalMem.pfnCreate;
	a->zePhysicalMemDestroy = t->PhysicalMem.pfnDestroy;
	a->zeMemSetAtomicAccessAttributeExp =
		t->MemExp.pfnSetAtomicAccessAttributeExp;
	a->zeMemGetAtomicAccessAttributeExp =
		t->MemExp.pfnGetAtomicAccessAttributeExp;
	a->zeDriverGetProperties = t->Driver.pfnGetProperties;
	a->zeDeviceGetMemoryProperties = t->Device.pfnGetMemoryProperties;
	a->zeDeviceGetMemoryAccessProperties =
		t->Device.pfnGetMemoryAccessProperties;
	a->zeDeviceGetCacheProperties = t->Device.pfnGetCacheProperties;
}

int
vc_load_chain(struct vc *c, ze_api_version_t version, const char *layer,
	      void (*hook)(ze_dditable_t *t))
{
	memset(c, 0, sizeof(*c));
	c->drv_dl = dlopen(vc_driver_path(), RTLD_NOW | RTLD_LOCAL);
	if (!c->drv_dl) {
		fprintf(stderr, "val_chain: %s\n", dlerror());
		return -1;
	}
	if (fill(c->drv_dl, "driver", version, &c->ddi))
		return -1;
	if (hook)
		hook(&c->ddi);
	c->drv_ddi = c->ddi;
	if (layer) {
		c->layer_dl = dlopen(layer, RTLD_NOW | RTLD_LOCAL);
		if (!c->layer_dl) {
			fprintf(stderr, "val_chain: %s\n", dlerror());
			return -1;
		}
		if (fill(c->layer_dl, "layer", version, &c->ddi))
			return -1;
	}
	api_from_tables(&c->api, &c->ddi);
	return 0;
}

int
vc_load_loader(struct vc *c, const char *loader)
{
	memset(c, 0, sizeof(*c));
	c->loader_dl = dlopen(loader, RTLD_NOW | RTLD_LOCAL);
	if (!c->loader_dl) {
		fprintf(stderr, "val_chain: %s\n", dlerror());
		return -1;
	}
#define SYM(name)                                                           \
	do {                                                                \
		void *s_ = dlsym(c->loader_dl, #name);                      \
		memcpy(&c->api.name, &s_, sizeof(s_));                      \
	} while (0)
	SYM(zeInit); SYM(zeDriverGet); SYM(zeDeviceGet);
	SYM(zeDeviceGetProperties); SYM(zeContextCreate);
	SYM(zeContextDestroy); SYM(zeMemAllocHost); SYM(zeMemAllocDevice);
	SYM(zeMemAllocShared); SYM(zeMemFree); SYM(zeMemFreeExt);
	SYM(zeMemGetAllocProperties); SYM(zeMemGetAddressRange);
	SYM(zeMemGetIpcHandle); SYM(zeMemOpenIpcHandle);
	SYM(zeMemCloseIpcHandle); SYM(zeMemPutIpcHandle);
	SYM(zeVirtualMemReserve); SYM(zeVirtualMemFree);
	SYM(zeVirtualMemQueryPageSize); SYM(zeVirtualMemMap);
	SYM(zeVirtualMemUnmap); SYM(zePhysicalMemCreate);
	SYM(zePhysicalMemDestroy); SYM(zeMemSetAtomicAccessAttributeExp);
	SYM(zeMemGetAtomicAccessAttributeExp); SYM(zeDriverGetProperties);
	SYM(zeDeviceGetMemoryProperties);
	SYM(zeDeviceGetMemoryAccessProperties);
	SYM(zeDeviceGetCacheProperties);
#undef SYM
	return c->api.zeInit ? 0 : -1;
}

int
vc_open(struct vc *c)
{
	ze_result_t r;
	uint32_t n = 1;
	if ((r = c->api.zeInit(0)) ||
	    (r = c->api.zeDriverGet(&n, &c->drv)))
		return (int)r;
	n = 1;
	if ((r = c->api.zeDeviceGet(c->drv, &n, &c->dev)))
		return (int)r;
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	return (int)c->api.zeContextCreate(c->drv, &cd, &c->ctx);
}

static char log_path[256];

const char *
vt_log_begin(void)
{
	snprintf(log_path, sizeof(log_path), "/tmp/zemem-val-%d-XXXXXX",
		 (int)getpid());
	int fd = mkstemp(log_path);
	if (fd >= 0)
		close(fd);
	setenv("ZEMEM_VALIDATION_LOG", log_path, 1);
	return log_path;
}

char *
vt_log_read(void)
{
	FILE *f = fopen(log_path, "re");
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	if (!buf)
		abort();
	if (f) {
		size_t k;
		while ((k = fread(buf + len, 1, cap - len - 1, f)) > 0) {
			len += k;
			if (cap - len < 1024) {
				cap *= 2;
				char *nb = realloc(buf, cap);
				if (!nb)
					abort();
				buf = nb;
			}
		}
		fclose(f);
	}
	buf[len] = '\0';
	return buf;
}

int
vt_count_findings(const char *text)
{
	int n = 0;
	for (const char *p = text; p && *p;) {
		if (!strncmp(p, "zemem-validation[", 17))
			n++;
		const char *nl = strchr(p, '\n');
		if (!nl)
			break;
		p = nl + 1;
	}
	return n;
}

void
vt_switches(const char *which)
{
	static const struct {
		char c;
		const char *name;
	} sw[] = {
		{ 'p', "ZE_ENABLE_PARAMETER_VALIDATION" },
		{ 'l', "ZE_ENABLE_HANDLE_LIFETIME" },
		{ 'k', "ZEL_ENABLE_BASIC_LEAK_CHECKER" },
		{ 'b', "ZEMEM_VALIDATION_BACKTRACE" },
		{ 'a', "ZEMEM_VALIDATION_ABORT" },
	};
	for (size_t i = 0; i < sizeof(sw) / sizeof(sw[0]); i++) {
		if (strchr(which, sw[i].c))
			setenv(sw[i].name, "1", 1);
		else
			unsetenv(sw[i].name);
	}
}

_Atomic int vt_driver_allocs, vt_driver_frees;
static ze_pfnMemAllocHost_t real_alloc_host;
static ze_pfnMemFree_t real_free;
static ze_pfnMemFreeExt_t real_free_ext;

static ze_result_t
shim_alloc_host(ze_context_handle_t hContext,
		const ze_host_mem_alloc_desc_t *desc, size_t size,
		size_t alignment, void **pptr)
{
	vt_driver_allocs++;
	return real_alloc_host(hContext, desc, size, alignment, pptr);
}

static ze_result_t
shim_free(ze_context_handle_t hContext, void *ptr)
{
	vt_driver_frees++;
	return real_free(hContext, ptr);
}

static ze_result_t
shim_free_ext(ze_context_handle_t hContext,
	      const ze_memory_free_ext_desc_t *desc, void *ptr)
{
	vt_driver_frees++;
	return real_free_ext(hContext, desc, ptr);
}

static void
plant_shims(ze_dditable_t *t)
{
	real_alloc_host = t->Mem.pfnAllocHost;
	real_free = t->Mem.pfnFree;
	real_free_ext = t->Mem.pfnFreeExt;
	t->Mem.pfnAllocHost = shim_alloc_host;
	t->Mem.pfnFree = shim_free;
	t->Mem.pfnFreeExt = shim_free_ext;
}

void
vt_setup(struct vc *c, const char *switches)
{
	vt_switches(switches);
	vt_log_begin();
	ck_assert_int_eq(vc_load_chain(c, ZE_API_VERSION_CURRENT,
				       vc_layer_path(), plant_shims), 0);
	ck_assert_int_eq(vc_open(c), ZE_RESULT_SUCCESS);
	vt_driver_allocs = vt_driver_frees = 0;
}

void
vt_assert_finding(const char *first, ...)
{
	char *log = vt_log_read();
	for (char *line = log; line && *line;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char save = line[len];
		line[len] = '\0';
		bool all = !strncmp(line, "zemem-validation[", 17);
		va_list ap;
		va_start(ap, first);
		for (const char *n = first; all && n; n = va_arg(ap, const char *))
			all = strstr(line, n) != NULL;
		va_end(ap);
		line[len] = save;
		if (all) {
			free(log);
			return;
		}
		line = nl ? nl + 1 : NULL;
	}
	fprintf(stderr, "--- log ---\n%s--- no finding with \"%s\" and the "
		"rest ---\n", log, first);
	free(log);
	ck_abort_msg("finding not in the log: %s", first);
}

void
vt_assert_findings(int n)
{
	char *log = vt_log_read();
	int got = vt_count_findings(log);
	if (got != n || getenv("VT_SHOW_LOG"))
		fprintf(stderr, "--- log ---\n%s--- end ---\n", log);
	free(log);
	ck_assert_int_eq(got, n);
}

int
vt_run_if(int (*available)(void), Suite *(*make)(void))
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(available() ? 0 : 77);
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return EXIT_FAILURE;
	if (WEXITSTATUS(st) == 77)
		return 77;
	return check_run(make(), CK_NORMAL, false);
}
