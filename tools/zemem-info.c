// SPDX-License-Identifier: MIT
/*
 * zemem-info: what the Level Zero loader finds: drivers, devices and their
 * properties, memory and IPC capabilities, zemem's options, and a
 * self-check that allocates, touches and frees one allocation of each kind.
 *
 * It is an ordinary Level Zero application linked with the system's loader
 * (libze_loader.so.1). When ZE_ENABLE_ALT_DRIVERS is not set it points the
 * loader at the zemem driver next to this program (build tree) or in the
 * installed library directory, and says so.
 */
#include <level_zero/ze_api.h>

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "u_options.h"

static int failures;

static void
usage(FILE *f)
{
	fprintf(f,
		"usage: zemem-info [--env] [--no-selfcheck] [--help]\n"
		"  --env           print zemem's options with their values and "
		"help\n"
		"  --no-selfcheck  do not allocate memory\n"
		"Environment: ZE_ENABLE_ALT_DRIVERS (driver list for the "
		"loader),\n"
		"ZEMEM_* (see --env).\n");
}

static const char *
res(ze_result_t r)
{
	static char buf[32];
	switch (r) {
	case ZE_RESULT_SUCCESS: return "SUCCESS";
	case ZE_RESULT_ERROR_UNINITIALIZED: return "ERROR_UNINITIALIZED";
	case ZE_RESULT_ERROR_UNSUPPORTED_FEATURE:
		return "ERROR_UNSUPPORTED_FEATURE";
	case ZE_RESULT_ERROR_UNSUPPORTED_VERSION:
		return "ERROR_UNSUPPORTED_VERSION";
	default:
		snprintf(buf, sizeof(buf), "0x%x", (unsigned)r);
		return buf;
	}
}

static void
uuid_str(const uint8_t *id, char *out)
{
	for (int i = 0; i < 16; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
}

static const char *
human(uint64_t v, char *buf, size_t len)
{
	if (v >= (1ull << 30) && v % (1ull << 20) == 0)
		snprintf(buf, len, "%.1f GiB", (double)v / (1ull << 30));
	else if (v >= (1ull << 20))
		snprintf(buf, len, "%.1f MiB", (double)v / (1ull << 20));
	else if (v >= 1024)
		snprintf(buf, len, "%.1f KiB", (double)v / 1024);
	else
		snprintf(buf, len, "%" PRIu64 " B", v);
	return buf;
}

/* Sets ZE_ENABLE_ALT_DRIVERS to zemem's driver when the user did not. */
static void
default_driver(void)
{
	if (getenv("ZE_ENABLE_ALT_DRIVERS"))
		return;
	char self[PATH_MAX], cand[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	const char *found = NULL;
	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			snprintf(cand, sizeof(cand),
				 "%s/../driver/libze_zemem.so.1", self);
			if (!access(cand, R_OK))
				found = cand;
		}
	}
	if (!found && !access(ZEMEM_INSTALLED_DRIVER, R_OK))
		found = ZEMEM_INSTALLED_DRIVER;
	if (found) {
		char real[PATH_MAX];
		if (realpath(found, real))
			found = real;
		setenv("ZE_ENABLE_ALT_DRIVERS", found, 1);
		printf("ZE_ENABLE_ALT_DRIVERS was not set; using %s\n\n",
		       found);
	}
}

static void
print_caps(const char *what, ze_memory_access_cap_flags_t f)
{
	printf("    %-22s %s%s%s%s%s\n", what, f ? "" : "none",
	       f & ZE_MEMORY_ACCESS_CAP_FLAG_RW ? "rw " : "",
	       f & ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC ? "atomic " : "",
	       f & ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT ? "concurrent " : "",
	       f & ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT_ATOMIC
		       ? "concurrent-atomic" : "");
}

static void
print_device(ze_device_handle_t dev, uint32_t idx)
{
	char u[33], b1[32], b2[32];
	ze_device_properties_t p = { ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES,
				     NULL };
	ze_result_t r = zeDeviceGetProperties(dev, &p);
	if (r) {
		printf("  device %u: zeDeviceGetProperties: %s\n", idx, res(r));
		failures++;
		return;
	}
	uuid_str(p.uuid.id, u);
	printf("  device %u: %s\n", idx, p.name);
	printf("    type                   %s\n",
	       p.type == ZE_DEVICE_TYPE_CPU ? "CPU" :
	       p.type == ZE_DEVICE_TYPE_GPU ? "GPU" : "other");
	printf("    uuid                   %s\n", u);
	printf("    vendor/device id       0x%04x/0x%04x\n", p.vendorId,
	       p.deviceId);
	printf("    flags                  %s%s%s\n",
	       p.flags & ZE_DEVICE_PROPERTY_FLAG_INTEGRATED ? "integrated " : "",
	       p.flags & ZE_DEVICE_PROPERTY_FLAG_ONDEMANDPAGING
		       ? "on-demand-paging " : "",
	       p.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE ? "subdevice" : "");
	printf("    maxMemAllocSize        %s\n",
	       human(p.maxMemAllocSize, b1, sizeof(b1)));
	uint32_t n = 0;
	zeDeviceGetMemoryProperties(dev, &n, NULL);
	for (uint32_t i = 0; i < n && i < 8; i++) {
		ze_device_memory_properties_t mp[8];
		for (uint32_t k = 0; k < 8; k++)
			mp[k] = (ze_device_memory_properties_t){
				ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES, NULL
			};
		uint32_t m = n < 8 ? n : 8;
		if (zeDeviceGetMemoryProperties(dev, &m, mp) == 0)
			printf("    memory %u               %s, %s\n", i,
			       mp[i].name, human(mp[i].totalSize, b2,
						 sizeof(b2)));
	}
	ze_device_memory_access_properties_t ap = {
		ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES, NULL
	};
	if (zeDeviceGetMemoryAccessProperties(dev, &ap) == 0) {
		printf("    memory access:\n");
		print_caps("host", ap.hostAllocCapabilities);
		print_caps("device", ap.deviceAllocCapabilities);
		print_caps("shared single-device",
			   ap.sharedSingleDeviceAllocCapabilities);
		print_caps("shared cross-device",
			   ap.sharedCrossDeviceAllocCapabilities);
		print_caps("shared system", ap.sharedSystemAllocCapabilities);
	}
	n = 0;
	if (zeDeviceGetCacheProperties(dev, &n, NULL) == 0 && n) {
		ze_device_cache_properties_t cp[8];
		if (n > 8)
			n = 8;
		for (uint32_t k = 0; k < n; k++)
			cp[k] = (ze_device_cache_properties_t){
				ZE_STRUCTURE_TYPE_DEVICE_CACHE_PROPERTIES, NULL
			};
		if (zeDeviceGetCacheProperties(dev, &n, cp) == 0) {
			printf("    caches                ");
			for (uint32_t k = 0; k < n; k++)
				printf(" %s", human(cp[k].cacheSize, b1,
						    sizeof(b1)));
			printf("\n");
		}
	}
	ze_device_external_memory_properties_t ep = {
		ZE_STRUCTURE_TYPE_DEVICE_EXTERNAL_MEMORY_PROPERTIES, NULL
	};
	if (zeDeviceGetExternalMemoryProperties(dev, &ep) == 0)
		printf("    external memory        export 0x%x, import 0x%x"
		       " (opaque-fd 0x%x, dma-buf 0x%x)\n",
		       ep.memoryAllocationExportTypes,
		       ep.memoryAllocationImportTypes,
		       ZE_EXTERNAL_MEMORY_TYPE_FLAG_OPAQUE_FD,
		       ZE_EXTERNAL_MEMORY_TYPE_FLAG_DMA_BUF);
	uint32_t ns = 0;
	zeDeviceGetSubDevices(dev, &ns, NULL);
	printf("    sub-devices            %u\n", ns);
}

static void
selfcheck(ze_driver_handle_t drv, ze_device_handle_t dev)
{
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_context_handle_t ctx;
	ze_result_t r = zeContextCreate(drv, &cd, &ctx);
	if (r) {
		printf("  self-check: zeContextCreate: %s\n", res(r));
		failures++;
		return;
	}
	ze_device_mem_alloc_desc_t dd = {
		ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0
	};
	ze_host_mem_alloc_desc_t hd = { ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC,
					NULL, 0 };
	static const char *const names[] = { "host", "device", "shared" };
	for (int k = 0; k < 3; k++) {
		void *p = NULL;
		size_t size = 1 << 20;
		r = k == 0 ? zeMemAllocHost(ctx, &hd, size, 4096, &p)
		  : k == 1 ? zeMemAllocDevice(ctx, &dd, size, 4096, dev, &p)
			   : zeMemAllocShared(ctx, &dd, &hd, size, 4096, dev,
					      &p);
		const char *verdict = "ok";
		if (r || !p) {
			verdict = res(r);
		} else {
			memset(p, 0x5a, size);
			ze_memory_allocation_properties_t mp = {
				ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES,
				NULL
			};
			void *base = NULL;
			size_t sz = 0;
			if (zeMemGetAllocProperties(ctx, (char *)p + 100, &mp,
						    NULL) ||
			    mp.type != (ze_memory_type_t)(k + 1))
				verdict = "wrong properties";
			else if (zeMemGetAddressRange(ctx, (char *)p + 100,
						      &base, &sz) ||
				 base != p || sz != size)
				verdict = "wrong address range";
			else if (((unsigned char *)p)[size - 1] != 0x5a)
				verdict = "memory not retained";
			if ((r = zeMemFree(ctx, p)) && !strcmp(verdict, "ok"))
				verdict = "zeMemFree failed";
		}
		if (strcmp(verdict, "ok"))
			failures++;
		printf("  self-check %-7s 1 MiB alloc/touch/query/free: %s\n",
		       names[k], verdict);
	}
	zeContextDestroy(ctx);
}

int
main(int argc, char **argv)
{
	bool env = false, check = true;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--env"))
			env = true;
		else if (!strcmp(argv[i], "--no-selfcheck"))
			check = false;
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (env) {
		printf("zemem options (environment):\n");
		u_options_dump(stdout);
		printf("\n");
	}
	default_driver();
	ze_result_t r = zeInit(0);
	if (r) {
		const char *alt = getenv("ZE_ENABLE_ALT_DRIVERS");
		fprintf(stderr,
			"zemem-info: zeInit failed (%s): the Level Zero loader "
			"found no usable driver.\n"
			"  ZE_ENABLE_ALT_DRIVERS=%s\n"
			"  Check that the path names libze_zemem.so.1 and that "
			"it loads (ZEMEM_LOG_LEVEL=debug shows the driver's "
			"side).\n",
			res(r), alt ? alt : "(unset)");
		return 1;
	}
	uint32_t nd = 0;
	zeDriverGet(&nd, NULL);
	ze_driver_handle_t drivers[16];
	if (nd > 16)
		nd = 16;
	zeDriverGet(&nd, drivers);
	printf("%u driver(s)\n", nd);
	for (uint32_t i = 0; i < nd; i++) {
		ze_driver_properties_t dp = {
			ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES, NULL
		};
		ze_api_version_t v = 0;
		char u[33];
		zeDriverGetProperties(drivers[i], &dp);
		zeDriverGetApiVersion(drivers[i], &v);
		uuid_str(dp.uuid.id, u);
		printf("driver %u: api %u.%u, version 0x%08x, uuid %s\n", i,
		       ZE_MAJOR_VERSION(v), ZE_MINOR_VERSION(v),
		       dp.driverVersion, u);
		ze_driver_ipc_properties_t ip = {
			ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES, NULL
		};
		if (zeDriverGetIpcProperties(drivers[i], &ip) == 0)
			printf("  ipc                      %s%s\n",
			       ip.flags & ZE_IPC_PROPERTY_FLAG_MEMORY
				       ? "memory " : "none",
			       ip.flags & ZE_IPC_PROPERTY_FLAG_EVENT_POOL
				       ? "event-pool" : "");
		uint32_t ne = 0;
		zeDriverGetExtensionProperties(drivers[i], &ne, NULL);
		ze_driver_extension_properties_t ext[64];
		if (ne > 64)
			ne = 64;
		zeDriverGetExtensionProperties(drivers[i], &ne, ext);
		printf("  extensions               %u\n", ne);
		for (uint32_t k = 0; k < ne; k++)
			printf("    %s %u.%u\n", ext[k].name,
			       ZE_MAJOR_VERSION(ext[k].version),
			       ZE_MINOR_VERSION(ext[k].version));
		uint32_t ndev = 0;
		zeDeviceGet(drivers[i], &ndev, NULL);
		ze_device_handle_t devs[64];
		if (ndev > 64)
			ndev = 64;
		zeDeviceGet(drivers[i], &ndev, devs);
		for (uint32_t k = 0; k < ndev; k++)
			print_device(devs[k], k);
		if (check && ndev)
			selfcheck(drivers[i], devs[0]);
	}
	if (failures)
		printf("\n%d check(s) FAILED\n", failures);
	else
		printf("\nall checks passed\n");
	return failures ? 1 : 0;
}
