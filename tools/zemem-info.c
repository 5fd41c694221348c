// SPDX-License-Identifier: MIT
/*
 * zemem-info: what the Level Zero loader finds: the loader and its layers,
 * drivers (version, IPC properties, free policies, extensions), devices
 * with all their properties (core, compute, queue groups, module, memory,
 * memory access, caches, external memory, peers), the VMM page sizes,
 * the Sysman view of each device (its properties, memory modules with
 * their state and traffic, PCI), zemem's options (--env), and a
 * self-check that allocates, touches, queries and frees one allocation of
 * each kind, round-trips one IPC handle inside this process, and sees the
 * Sysman free memory move by exactly one device allocation.
 *
 * Sysman is reached through the core handles: zemem-info sets
 * ZES_ENABLE_SYSMAN=1 before zeInit unless the environment sets it (the
 * system's loader may be spec 1.4, which has no zesInit).
 *
 * It is an ordinary Level Zero application linked with the system's loader
 * (libze_loader.so.1). When ZE_ENABLE_ALT_DRIVERS is not set it points the
 * loader at the zemem driver next to this program (build tree) or in the
 * installed library directory, and says so. When no driver is found it
 * says why (tool_explain_no_driver) and exits 1.
 */
#include <level_zero/ze_api.h>
#include <level_zero/zes_api.h>

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_common.h"
#include "u_options.h"

#define MAX_DEVICES 64

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
		"loader; default: zemem's driver\nnext to this program or "
		"installed), ZEMEM_* (see --env).\n");
}

static void
uuid_str(const uint8_t *id, char *out)
{
	tool_hex_encode(id, 16, out);
}

static const char *
hsize(uint64_t v)
{
	static char bufs[4][32];
	static int next;
	char *b = bufs[next++ % 4];
	return tool_human(v, b, sizeof(bufs[0]));
}

/* The names of the bits set in f, space-separated ("none" if none). */
static const char *
flag_names(uint32_t f, const char *const *names, int n)
{
	static char bufs[4][160];
	static int next;
	char *b = bufs[next++ % 4];
	size_t len = 0;
	b[0] = '\0';
	for (int i = 0; i < n; i++)
		if (f & (1u << i) && names[i])
			len += (size_t)snprintf(b + len, sizeof(bufs[0]) - len,
						"%s%s", len ? " " : "",
						names[i]);
	return len ? b : "none";
}
#define FLAGS(f, names) flag_names((f), (names), \
				   (int)(sizeof(names) / sizeof(*(names))))

static void
print_caps(const char *what, ze_memory_access_cap_flags_t f)
{
	static const char *const n[] = { "rw", "atomic", "concurrent",
					 "concurrent-atomic" };
	printf("      %-22s %s\n", what, FLAGS(f, n));
}

static const char *
ext_types(ze_external_memory_type_flags_t f)
{
	static const char *const n[] = { "opaque-fd", "dma-buf" };
	return FLAGS(f, n);
}

static void
print_core(ze_device_handle_t dev, uint32_t idx)
{
	char u[33];
	ze_device_properties_t p = { ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES,
				     NULL };
	ze_result_t r = zeDeviceGetProperties(dev, &p);
	if (r) {
		printf("  device %u: zeDeviceGetProperties: %s\n", idx,
		       tool_result_str(r));
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
	static const char *const fl[] = { "integrated", "subdevice", "ecc",
					  "on-demand-paging" };
	printf("    flags                  %s\n", FLAGS(p.flags, fl));
	printf("    maxMemAllocSize        %s\n", hsize(p.maxMemAllocSize));
	printf("    core clock             %u MHz\n", p.coreClockRate);
	printf("    hardware contexts      %u, queue priorities up to %u\n",
	       p.maxHardwareContexts, p.maxCommandQueuePriority);
	printf("    EUs                    %u slice(s) x %u subslice(s) x %u "
	       "EU(s), %u thread(s)/EU, SIMD %u\n", p.numSlices,
	       p.numSubslicesPerSlice, p.numEUsPerSubslice, p.numThreadsPerEU,
	       p.physicalEUSimdWidth);
	printf("    timer                  %" PRIu64 " ns resolution, %u valid "
	       "bits (kernel %u)\n", p.timerResolution, p.timestampValidBits,
	       p.kernelTimestampValidBits);
}

static void
print_compute(ze_device_handle_t dev)
{
	ze_device_compute_properties_t c = {
		ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES, NULL
	};
	ze_result_t r = zeDeviceGetComputeProperties(dev, &c);
	if (r) {
		printf("    compute                %s\n", tool_result_str(r));
	} else {
		printf("    compute                group size <= %u (%u x %u x %u"
		       "), shared local memory %s, %u sub-group size(s)\n",
		       c.maxTotalGroupSize, c.maxGroupSizeX, c.maxGroupSizeY,
		       c.maxGroupSizeZ, hsize(c.maxSharedLocalMemory),
		       c.numSubGroupSizes);
	}
	ze_device_module_properties_t m = {
		ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES, NULL
	};
	r = zeDeviceGetModuleProperties(dev, &m);
	if (r)
		printf("    modules                not supported (%s)\n",
		       tool_result_str(r));
	else
		printf("    modules                SPIR-V %u.%u, flags 0x%x\n",
		       ZE_MAJOR_VERSION(m.spirvVersionSupported),
		       ZE_MINOR_VERSION(m.spirvVersionSupported), m.flags);
	uint32_t n = 0;
	ze_command_queue_group_properties_t g[8];
	r = zeDeviceGetCommandQueueGroupProperties(dev, &n, NULL);
	if (n > 8)
		n = 8;
	for (uint32_t k = 0; k < n; k++)
		g[k] = (ze_command_queue_group_properties_t){
			ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES, NULL
		};
	if (!r)
		r = zeDeviceGetCommandQueueGroupProperties(dev, &n, g);
	if (r || !n)
		printf("    queue groups           none (%s)\n",
		       tool_result_str(r));
	static const char *const gf[] = { "compute", "copy",
					  "cooperative-kernels", "metrics" };
	for (uint32_t k = 0; !r && k < n; k++)
		printf("    queue group %u          %s: %u queue(s), fill "
		       "patterns <= %zu B\n", k, FLAGS(g[k].flags, gf),
		       g[k].numQueues, g[k].maxMemoryFillPatternSize);
}

static void
print_memory(ze_device_handle_t dev)
{
	uint32_t n = 0;
	ze_device_memory_properties_t mp[8];
	zeDeviceGetMemoryProperties(dev, &n, NULL);
	if (n > 8)
		n = 8;
	for (uint32_t k = 0; k < n; k++)
		mp[k] = (ze_device_memory_properties_t){
			ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES, NULL
		};
	if (n && zeDeviceGetMemoryProperties(dev, &n, mp) == 0)
		for (uint32_t i = 0; i < n; i++)
			printf("    memory %u               %s, %s, %u MHz, "
			       "%u-bit bus\n", i, mp[i].name,
			       hsize(mp[i].totalSize), mp[i].maxClockRate,
			       mp[i].maxBusWidth);
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
				printf(" %s%s", hsize(cp[k].cacheSize),
				       cp[k].flags &
						       ZE_DEVICE_CACHE_PROPERTY_FLAG_USER_CONTROL
					       ? " (user control)" : "");
			printf("\n");
		}
	}
	ze_device_external_memory_properties_t ep = {
		ZE_STRUCTURE_TYPE_DEVICE_EXTERNAL_MEMORY_PROPERTIES, NULL
	};
	ze_result_t r = zeDeviceGetExternalMemoryProperties(dev, &ep);
	if (r) {
		printf("    external memory        %s\n", tool_result_str(r));
	} else {
		printf("    external memory        allocations: export %s, "
		       "import %s\n",
		       ext_types(ep.memoryAllocationExportTypes),
		       ext_types(ep.memoryAllocationImportTypes));
		printf("                           images: export %s, import "
		       "%s\n", ext_types(ep.imageExportTypes),
		       ext_types(ep.imageImportTypes));
	}
	uint32_t ns = 0;
	zeDeviceGetSubDevices(dev, &ns, NULL);
	printf("    sub-devices            %u\n", ns);
}

static void
print_peers(ze_device_handle_t *devs, uint32_t n)
{
	if (n < 2)
		return;
	printf("  peers (access, atomics):\n");
	for (uint32_t a = 0; a < n; a++) {
		printf("    device %u ->", a);
		for (uint32_t b = 0; b < n; b++) {
			ze_bool_t can = 0;
			ze_device_p2p_properties_t pp = {
				ZE_STRUCTURE_TYPE_DEVICE_P2P_PROPERTIES, NULL
			};
			if (a == b)
				continue;
			zeDeviceCanAccessPeer(devs[a], devs[b], &can);
			zeDeviceGetP2PProperties(devs[a], devs[b], &pp);
			printf("  %u: %s%s", b, can ? "yes" : "no",
			       pp.flags & ZE_DEVICE_P2P_PROPERTY_FLAG_ATOMICS
				       ? "+atomics" : "");
		}
		printf("\n");
	}
}

static void
print_vmm(ze_context_handle_t ctx, ze_device_handle_t dev)
{
	static const size_t sizes[] = { 1, 4096, 65536, 1 << 20, 2 << 20,
					64 << 20, 1 << 30 };
	printf("    VMM page size for     ");
	for (size_t i = 0; i < sizeof(sizes) / sizeof(*sizes); i++) {
		size_t page = 0;
		ze_result_t r = zeVirtualMemQueryPageSize(ctx, dev, sizes[i],
							  &page);
		if (r) {
			printf(" %s", tool_result_str(r));
			break;
		}
		printf("%s %s: %s", i ? "," : "", hsize(sizes[i]), hsize(page));
	}
	printf("\n");
}

/* Allocate, touch, query and free one allocation of each kind. */
static const char *
mem_type_name(zes_mem_type_t t)
{
	static const char *const names[] = {
		"HBM", "DDR", "DDR3", "DDR4", "DDR5", "LPDDR", "LPDDR3",
		"LPDDR4", "LPDDR5", "SRAM", "L1", "L3", "GRF", "SLM", "GDDR4",
		"GDDR5", "GDDR5X", "GDDR6", "GDDR6X", "GDDR7",
	};
	return (unsigned)t < sizeof(names) / sizeof(names[0]) ? names[t]
							     : "other";
}

/* The Sysman view of dev: properties, memory modules, PCI. */
static void
print_sysman(ze_device_handle_t dev)
{
	zes_device_properties_t sp = { ZES_STRUCTURE_TYPE_DEVICE_PROPERTIES,
				       NULL };
	ze_result_t r = zesDeviceGetProperties(dev, &sp);
	if (r) {
		printf("    sysman                 %s\n", tool_result_str(r));
		return;
	}
	printf("    sysman                 brand %s, model %s, vendor %s, "
	       "serial %s, board %s, driver %s, %u sub-devices\n",
	       sp.brandName, sp.modelName, sp.vendorName, sp.serialNumber,
	       sp.boardNumber, sp.driverVersion, sp.numSubdevices);
	uint32_t n = 0;
	zes_mem_handle_t mh[8];
	r = zesDeviceEnumMemoryModules(dev, &n, NULL);
	if (n > 8)
		n = 8;
	if (!r && n)
		r = zesDeviceEnumMemoryModules(dev, &n, mh);
	if (r)
		printf("    sysman memory          %s\n", tool_result_str(r));
	for (uint32_t i = 0; !r && i < n; i++) {
		zes_mem_properties_t mp = { ZES_STRUCTURE_TYPE_MEM_PROPERTIES,
					    NULL };
		zes_mem_state_t st = { ZES_STRUCTURE_TYPE_MEM_STATE, NULL };
		zes_mem_bandwidth_t bw;
		memset(&bw, 0, sizeof(bw));
		ze_result_t rp = zesMemoryGetProperties(mh[i], &mp);
		ze_result_t rs = zesMemoryGetState(mh[i], &st);
		ze_result_t rb = zesMemoryGetBandwidth(mh[i], &bw);
		if (rp)
			printf("    memory module %u        properties: %s\n",
			       i, tool_result_str(rp));
		else
			printf("    memory module %u        %s, %s memory, "
			       "physical size %s\n", i, mem_type_name(mp.type),
			       mp.location == ZES_MEM_LOC_DEVICE ? "device"
								 : "system",
			       hsize(mp.physicalSize));
		if (rs)
			printf("      state                %s\n",
			       tool_result_str(rs));
		else
			printf("      state                free %s of %s, "
			       "health %s\n", hsize(st.free), hsize(st.size),
			       st.health == ZES_MEM_HEALTH_OK ? "ok"
							      : "not ok");
		if (rb)
			printf("      bandwidth            %s\n",
			       tool_result_str(rb));
		else
			printf("      bandwidth            read %" PRIu64
			       " B, written %" PRIu64 " B\n",
			       bw.readCounter, bw.writeCounter);
	}
	zes_pci_properties_t pp = { ZES_STRUCTURE_TYPE_PCI_PROPERTIES, NULL };
	r = zesDevicePciGetProperties(dev, &pp);
	if (r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
		printf("    sysman pci             none (not on a PCI bus)\n");
	else if (r)
		printf("    sysman pci             %s\n", tool_result_str(r));
	else
		printf("    sysman pci             %04x:%02x:%02x.%x\n",
		       pp.address.domain, pp.address.bus, pp.address.device,
		       pp.address.function);
}

/* The Sysman free memory of dev's first module, or UINT64_MAX. */
static uint64_t
sysman_free(ze_device_handle_t dev)
{
	uint32_t n = 1;
	zes_mem_handle_t m;
	zes_mem_state_t st = { ZES_STRUCTURE_TYPE_MEM_STATE, NULL };
	if (zesDeviceEnumMemoryModules(dev, &n, &m) || !n ||
	    zesMemoryGetState(m, &st))
		return UINT64_MAX;
	return st.free;
}

/* One device allocation of 1 MiB + 1 byte: the Sysman free memory drops
 * by exactly that and comes back after the free. */
static void
check_sysman(ze_context_handle_t ctx, ze_device_handle_t dev)
{
	ze_device_mem_alloc_desc_t dd = {
		ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0
	};
	const size_t size = (1 << 20) + 1;
	const char *verdict = "ok";
	zes_device_properties_t sp = { ZES_STRUCTURE_TYPE_DEVICE_PROPERTIES,
				       NULL };
	if (zesDeviceGetProperties(dev, &sp) || strcmp(sp.brandName, "zemem")) {
		/* Another driver may round sizes or share the memory. */
		printf("  self-check sysman  skipped (not a zemem device)\n");
		return;
	}
	uint64_t before = sysman_free(dev), during = 0, after = 0;
	void *p = NULL;
	ze_result_t r = zeMemAllocDevice(ctx, &dd, size, 0, dev, &p);
	if (before == UINT64_MAX) {
		verdict = "no Sysman memory state";
	} else if (r) {
		verdict = tool_result_str(r);
	} else {
		during = sysman_free(dev);
		zeMemFree(ctx, p);
		p = NULL;
		after = sysman_free(dev);
		if (during != before - size || after != before)
			verdict = "free memory did not move by the allocation";
	}
	if (p)
		zeMemFree(ctx, p);
	if (strcmp(verdict, "ok"))
		failures++;
	printf("  self-check sysman  1 MiB + 1 B device alloc moves free "
	       "memory exactly: %s\n", verdict);
}

static void
check_kinds(ze_context_handle_t ctx, ze_device_handle_t dev)
{
	ze_device_mem_alloc_desc_t dd = {
		ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0
	};
	ze_host_mem_alloc_desc_t hd = { ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC,
					NULL, 0 };
	static const char *const names[] = { "host", "device", "shared" };
	for (int k = 0; k < 3; k++) {
		void *p = NULL;
		size_t size = 1 << 20;
		ze_result_t r =
			k == 0 ? zeMemAllocHost(ctx, &hd, size, 4096, &p)
			: k == 1 ? zeMemAllocDevice(ctx, &dd, size, 4096, dev,
						    &p)
				 : zeMemAllocShared(ctx, &dd, &hd, size, 4096,
						    dev, &p);
		const char *verdict = "ok";
		if (r || !p) {
			verdict = tool_result_str(r);
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
}

/* One IPC handle of a device allocation, opened in this process: the
 * import is a second pointer to the same memory. */
static void
check_ipc(ze_context_handle_t ctx, ze_device_handle_t dev)
{
	ze_device_mem_alloc_desc_t dd = {
		ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0
	};
	ze_pfnMemPutIpcHandle_t put =
		TOOL_SYM(ze_pfnMemPutIpcHandle_t, "zeMemPutIpcHandle");
	const char *verdict = "ok";
	char why[96];
	void *p = NULL, *q = NULL;
	ze_ipc_mem_handle_t h;
	ze_result_t r = zeMemAllocDevice(ctx, &dd, 1 << 20, 0, dev, &p);
	if (r) {
		snprintf(why, sizeof(why), "alloc: %s", tool_result_str(r));
		verdict = why;
		goto out;
	}
	r = zeMemGetIpcHandle(ctx, p, &h);
	if (r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE) {
		printf("  self-check ipc     skipped: the driver does not "
		       "export memory (%s)\n", tool_result_str(r));
		zeMemFree(ctx, p);
		return;
	}
	if (r) {
		snprintf(why, sizeof(why), "get: %s", tool_result_str(r));
		verdict = why;
		goto out_free;
	}
	r = zeMemOpenIpcHandle(ctx, dev, h, 0, &q);
	if (r) {
		snprintf(why, sizeof(why), "open: %s", tool_result_str(r));
		verdict = why;
		goto out_put;
	}
	((volatile unsigned char *)p)[4096] = 0xa7;
	if (q == p || ((volatile unsigned char *)q)[4096] != 0xa7)
		verdict = "the import does not alias the allocation";
	if ((r = zeMemCloseIpcHandle(ctx, q)) && !strcmp(verdict, "ok"))
		verdict = "close failed";
out_put:
	if (put && (r = put(ctx, h)) && !strcmp(verdict, "ok"))
		verdict = "put failed";
out_free:
	zeMemFree(ctx, p);
out:
	if (strcmp(verdict, "ok"))
		failures++;
	printf("  self-check ipc     1 MiB get/open/alias/close%s: %s\n",
	       put ? "/put" : "", verdict);
}

static void
print_driver(ze_driver_handle_t drv, uint32_t i, bool check)
{
	ze_driver_memory_free_ext_properties_t fp = {
		ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES, NULL, 0
	};
	ze_driver_properties_t dp = { ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES,
				      &fp };
	ze_api_version_t v = 0;
	char u[33];
	zeDriverGetProperties(drv, &dp);
	zeDriverGetApiVersion(drv, &v);
	uuid_str(dp.uuid.id, u);
	printf("driver %u: api %u.%u, version 0x%08x, uuid %s\n", i,
	       ZE_MAJOR_VERSION(v), ZE_MINOR_VERSION(v), dp.driverVersion, u);
	ze_driver_ipc_properties_t ip = {
		ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES, NULL
	};
	static const char *const ipf[] = { "memory", "event-pool" };
	static const char *const fpf[] = { "blocking-free", "defer-free" };
	if (zeDriverGetIpcProperties(drv, &ip) == 0)
		printf("  ipc                      %s (fd transport "
		       "ZEMEM_IPC_TRANSPORT=%s, broker %s)\n",
		       FLAGS(ip.flags, ipf),
		       u_option_str(U_OPT_IPC_TRANSPORT),
		       u_option_u64(U_OPT_IPC_BROKER) ? "on" : "off");
	printf("  free policies            %s\n",
	       FLAGS(fp.freePolicies, fpf));
	uint32_t ne = 0;
	zeDriverGetExtensionProperties(drv, &ne, NULL);
	ze_driver_extension_properties_t ext[64];
	if (ne > 64)
		ne = 64;
	zeDriverGetExtensionProperties(drv, &ne, ext);
	printf("  extensions               %u\n", ne);
	for (uint32_t k = 0; k < ne; k++)
		printf("    %s %u.%u\n", ext[k].name,
		       ZE_MAJOR_VERSION(ext[k].version),
		       ZE_MINOR_VERSION(ext[k].version));
	uint32_t ndev = 0;
	zeDeviceGet(drv, &ndev, NULL);
	ze_device_handle_t devs[MAX_DEVICES];
	if (ndev > MAX_DEVICES)
		ndev = MAX_DEVICES;
	zeDeviceGet(drv, &ndev, devs);
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	ze_context_handle_t ctx = NULL;
	ze_result_t r = zeContextCreate(drv, &cd, &ctx);
	if (r) {
		printf("  zeContextCreate: %s\n", tool_result_str(r));
		failures++;
		ctx = NULL;
	}
	for (uint32_t k = 0; k < ndev; k++) {
		print_core(devs[k], k);
		print_compute(devs[k]);
		print_memory(devs[k]);
		print_sysman(devs[k]);
		if (ctx)
			print_vmm(ctx, devs[k]);
	}
	print_peers(devs, ndev);
	if (check && ndev && ctx) {
		check_kinds(ctx, devs[0]);
		check_ipc(ctx, devs[0]);
		check_sysman(ctx, devs[0]);
	}
	if (ctx)
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
	/* Sysman through the core handles (before zeInit reads it). */
	setenv("ZES_ENABLE_SYSMAN", "1", 0);
	const char *chosen = tool_default_driver();
	if (chosen)
		printf("ZE_ENABLE_ALT_DRIVERS was not set; using %s\n", chosen);
	if (env) {
		printf("zemem options (environment):\n");
		u_options_dump(stdout);
		printf("\n");
	}
	ze_result_t r = zeInit(0);
	uint32_t nd = 0;
	if (!r)
		r = zeDriverGet(&nd, NULL);
	if (r || !nd) {
		fflush(stdout);
		tool_explain_no_driver(stderr, "zemem-info",
				       r ? r : ZE_RESULT_ERROR_UNINITIALIZED);
		return 1;
	}
	printf("loader: %s (layers: %s)\n\n", tool_loader_path(),
	       tool_loader_layers());
	ze_driver_handle_t drivers[16];
	if (nd > 16)
		nd = 16;
	zeDriverGet(&nd, drivers);
	printf("%u driver(s)\n", nd);
	for (uint32_t i = 0; i < nd; i++)
		print_driver(drivers[i], i, check);
	if (failures)
		printf("\n%d check(s) FAILED\n", failures);
	else
		printf("\nall checks passed\n");
	return failures ? 1 : 0;
}
