// SPDX-License-Identifier: MIT
/*
 * u_options: option table and its one-time parser (see u_options.h).
 *
 * Locking: the values are written once under pthread_once (or by the
 * test-only reset, which callers serialise) and read without locks after.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "u_options.h"
#include "u_log.h"
#include "u_os.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define KiB ((uint64_t)1024)
#define MiB (1024 * KiB)
#define GiB (1024 * MiB)
#define TiB (1024 * GiB)

static const struct u_opt_desc opt_table[U_OPT_COUNT] = {
	[U_OPT_LOG_LEVEL] = { "ZEMEM_LOG_LEVEL", U_OPT_STRING, "warn", 0, 0,
		"log threshold: error|warn|info|debug|trace, then optional "
		"per-topic overrides, e.g. \"warn,ipc:debug\"" },
	[U_OPT_LOG_FILE] = { "ZEMEM_LOG_FILE", U_OPT_STRING, "", 0, 0,
		"append log lines to this file instead of stderr" },
	[U_OPT_DEVICE_COUNT] = { "ZEMEM_DEVICE_COUNT", U_OPT_UINT, "1", 1, 64,
		"number of CPU-backed devices the driver exposes (1..64)" },
	[U_OPT_DEVICE_TYPE] = { "ZEMEM_DEVICE_TYPE", U_OPT_STRING, "cpu", 0,
		0,
		"the type the devices report: cpu, or gpu for programs that "
		"look for GPU devices only (zeInit with ZE_INIT_FLAG_GPU_ONLY, "
		"zeInitDrivers for GPU drivers, a GPU in zeDeviceGetProperties; "
		"e.g. Level Zero samples); the devices stay the same" },
	[U_OPT_DEVICE_MEMORY_SIZE] = { "ZEMEM_DEVICE_MEMORY_SIZE", U_OPT_SIZE,
		"", 1 * MiB, 64 * TiB,
		"device-memory budget of each device (device and shared "
		"allocations count against it); default: half of physical RAM" },
	[U_OPT_MAX_ALLOC_SIZE] = { "ZEMEM_MAX_ALLOC_SIZE", U_OPT_SIZE, "",
		4 * KiB, 64 * TiB,
		"maxMemAllocSize reported by each device; larger requests need "
		"the relaxed-allocation-limits descriptor; default: the smaller "
		"of 4 GiB and the device-memory budget" },
	[U_OPT_EXPORT_FILES] = { "ZEMEM_EXPORT_FILES", U_OPT_UINT, "16384", 0,
		1048576,
		"most small host and device blocks (up to 64 KiB) with a memfd "
		"of their own, so that each can be exported alone (also at most "
		"a quarter of RLIMIT_NOFILE and of vm.max_map_count); past it "
		"they share the pool file and cannot be exported; 0: none" },
	[U_OPT_SYSFS] = { "ZEMEM_SYSFS", U_OPT_BOOL, "1", 0, 1,
		"read optional sysfs and procfs files (CPU cache topology, ...); "
		"0: answer as on a machine that lacks them (the fallbacks: "
		"sysconf and defaults), as tests of such machines do" },
	[U_OPT_ZES_ENABLE_SYSMAN] = { "ZES_ENABLE_SYSMAN", U_OPT_BOOL, "0", 0,
		1,
		"Sysman through core handles: the driver and device handles of "
		"zeDriverGet / zeDeviceGet work in zes* calls without zesInit "
		"(as with Intel's driver)" },
	[U_OPT_IPC_TRANSPORT] = { "ZEMEM_IPC_TRANSPORT", U_OPT_STRING, "auto",
		0, 0,
		"how zeMemOpenIpcHandle gets the exporter's fd when the handle "
		"does not carry a local one: auto (pidfd_getfd, then the "
		"exporter's broker socket), pidfd, broker, or none (only fds "
		"the application passed itself)" },
	[U_OPT_IPC_BROKER] = { "ZEMEM_IPC_BROKER", U_OPT_BOOL, "1", 0, 1,
		"run the IPC broker thread (a UNIX socket that hands exported "
		"fds to importers of the same user) from the first export on" },
	[U_OPT_IPC_BOARD] = { "ZEMEM_IPC_BOARD", U_OPT_BOOL, "1", 0, 1,
		"keep a sealed board of this process's tagged exports, and "
		"read the boards of exporters of the same user, so that a "
		"cold open through pidfd_getfd need not ask each file (fstat)" },
	[U_OPT_IPC_TIMEOUT_MS] = { "ZEMEM_IPC_TIMEOUT_MS", U_OPT_UINT, "2000",
		1, 600000,
		"how long an importer waits for an exporter's broker (ms)" },
	[U_OPT_IPC_POOL_EXPORT] = { "ZEMEM_IPC_POOL_EXPORT", U_OPT_BOOL, "0",
		0, 1,
		"also export host and device blocks that have no file of their "
		"own (past ZEMEM_EXPORT_FILES) by handing out the pool file: "
		"an importer can then read and write every block of that kind "
		"in the pool, exported or not (one fd for any number of "
		"exports); 0: such blocks are not exportable" },
	[U_OPT_VAL_PARAMETER] = { "ZE_ENABLE_PARAMETER_VALIDATION", U_OPT_BOOL,
		"0", 0, 1,
		"validation layer: check parameters (NULL handles and pointers, "
		"stypes, pNext chains, flags, sizes, alignments) and the "
		"alignment of returned pointers" },
	[U_OPT_VAL_LIFETIME] = { "ZE_ENABLE_HANDLE_LIFETIME", U_OPT_BOOL, "0",
		0, 1,
		"validation layer: track contexts, devices, physical memory and "
		"every pointer (double free, interior or foreign free, IPC "
		"close/put misuse, VMM unmap and free misuse)" },
	[U_OPT_VAL_LEAK] = { "ZEL_ENABLE_BASIC_LEAK_CHECKER", U_OPT_BOOL, "0",
		0, 1,
		"validation layer: create/destroy count table and live-object "
		"list at zeContextDestroy and at exit" },
	[U_OPT_VAL_ABORT] = { "ZEMEM_VALIDATION_ABORT", U_OPT_BOOL, "0", 0, 1,
		"validation layer: abort() after the first finding (for CI)" },
	[U_OPT_VAL_BACKTRACE] = { "ZEMEM_VALIDATION_BACKTRACE", U_OPT_BOOL,
		"0", 0, 1,
		"validation layer: record a backtrace where each object is "
		"allocated and freed, and print it in findings" },
	[U_OPT_VAL_LOG] = { "ZEMEM_VALIDATION_LOG", U_OPT_STRING, "", 0, 0,
		"validation layer: append findings to this file instead of "
		"stderr" },
	[U_OPT_ENABLE_ALT_DRIVERS] = { "ZE_ENABLE_ALT_DRIVERS", U_OPT_STRING,
		"", 0, 0,
		"loader: comma-separated driver libraries to load instead of "
		"the default list (Intel's libze_intel_{gpu,gpu_legacy1,vpu,"
		"npu}.so.1 and zemem's libze_zemem.so.1)" },
	[U_OPT_ENABLE_VALIDATION_LAYER] = { "ZE_ENABLE_VALIDATION_LAYER",
		U_OPT_BOOL, "0", 0, 1,
		"loader: insert the validation layer (ZEMEM_VALIDATION_LAYER, "
		"else zemem's libze_zemem_validation_layer.so.1)" },
	[U_OPT_VALIDATION_LAYER] = { "ZEMEM_VALIDATION_LAYER", U_OPT_STRING,
		"", 0, 0,
		"loader: path of the validation layer library to insert when "
		"ZE_ENABLE_VALIDATION_LAYER=1, e.g. Intel's "
		"libze_validation_layer.so.1; default: zemem's own" },
	[U_OPT_ENABLE_TRACING_LAYER] = { "ZE_ENABLE_TRACING_LAYER", U_OPT_BOOL,
		"0", 0, 1,
		"loader: turn tracing on at init: the loader's own tracers "
		"(zelTracer*) see every call; with ZEMEM_TRACING_LAYER, that "
		"library is inserted above the validation layer instead "
		"(absent: a warning, not a failure)" },
	[U_OPT_TRACING_LAYER] = { "ZEMEM_TRACING_LAYER", U_OPT_STRING,
		"", 0, 0,
		"loader: a tracing layer library for ZE_ENABLE_TRACING_LAYER=1 "
		"to insert, e.g. Intel's libze_tracing_layer.so.1; default: "
		"the loader's own tracing" },
	[U_OPT_ZEL_DRIVERS_ORDER] = { "ZEL_DRIVERS_ORDER", U_OPT_STRING, "", 0,
		0,
		"loader: order of the drivers that initialised, as Intel's "
		"loader: comma-separated global indexes (\"1,0\"), types "
		"(DISCRETE_GPU_ONLY, INTEGRATED_GPU_ONLY, GPU, NPU) or "
		"TYPE:index; the others follow in their order" },
	[U_OPT_ZEL_LOGGING] = { "ZEL_ENABLE_LOADER_LOGGING", U_OPT_BOOL, "0",
		0, 1,
		"loader: write the loader's log lines (at "
		"ZEL_LOADER_LOGGING_LEVEL) to ZEL_LOADER_LOG_DIR/"
		"ZEL_LOADER_LOG_FILE; ZEMEM_LOG_FILE and ZEMEM_LOG_LEVEL's "
		"ldr:LEVEL win" },
	[U_OPT_ZEL_LOG_CONSOLE] = { "ZEL_LOADER_LOG_CONSOLE", U_OPT_BOOL, "0",
		0, 1,
		"loader: the loader's log lines (at ZEL_LOADER_LOGGING_LEVEL) "
		"go to stderr, not to a file" },
	[U_OPT_ZEL_LOG_DIR] = { "ZEL_LOADER_LOG_DIR", U_OPT_STRING, "", 0, 0,
		"loader: directory of the loader's log file (made when "
		"missing); default: $HOME/.oneapi_logs" },
	[U_OPT_ZEL_LOG_FILE] = { "ZEL_LOADER_LOG_FILE", U_OPT_STRING,
		"ze_loader.log", 0, 0,
		"loader: name of the loader's log file" },
	[U_OPT_ZEL_LOG_LEVEL] = { "ZEL_LOADER_LOGGING_LEVEL", U_OPT_STRING,
		"warn", 0, 0,
		"loader: level of the loader's log when logging is on: trace, "
		"debug, info, warn, error, critical (as error) or off" },
	[U_OPT_ZE_LOADER_DEBUG_TRACE] = { "ZE_ENABLE_LOADER_DEBUG_TRACE",
		U_OPT_BOOL, "0", 0, 1,
		"loader: print the loader's debug log (drivers tried, why one "
		"failed, layers, tracing) to stderr (deprecated upstream)" },
	[U_OPT_ZEL_LIBRARY_PATH] = { "ZEL_LIBRARY_PATH", U_OPT_STRING, "", 0,
		0,
		"loader: directory searched first for the layer libraries "
		"given by name (ZEMEM_VALIDATION_LAYER, ZEMEM_TRACING_LAYER, "
		"zemem's validation layer)" },
	[U_OPT_SH_SYMMETRIC_SIZE] = { "ZESHMEM_SYMMETRIC_SIZE", U_OPT_SIZE,
		"1G", 64 * KiB, 64 * TiB,
		"shmem: initial size of each PE's symmetric heap (K/M/G "
		"suffixes); a collective allocation that does not fit grows it",
		.alias = "SHMEM_SYMMETRIC_SIZE",
		.alias2 = "ROCSHMEM_HEAP_SIZE" },
	[U_OPT_SH_HEAP_MEMORY] = { "ZESHMEM_HEAP_MEMORY", U_OPT_STRING,
		"device", 0, 0,
		"shmem: where the heap's physical memory lives: device or host" },
	[U_OPT_SH_CHECK_SYMMETRY] = { "ZESHMEM_CHECK_SYMMETRY", U_OPT_BOOL, "0",
		0, 1,
		"shmem: check in every collective allocation that all PEs got "
		"the same offset, and fail naming the PE that did not" },
	[U_OPT_SH_COPY] = { "ZESHMEM_COPY", U_OPT_STRING, "auto", 0, 0,
		"shmem: how put/get move node-local data: auto (loads and "
		"stores when the heap is host-accessible, else the copy "
		"engine), direct, or engine (always an immediate command list)" },
	[U_OPT_SH_TIMEOUT] = { "ZESHMEM_TIMEOUT", U_OPT_UINT, "30", 1, 86400,
		"shmem: seconds a barrier, wait or operation waits on a PE "
		"that stopped answering before it fails (PEs on other nodes; "
		"a PE of this node that ends is noticed at once)" },
	[U_OPT_SH_BOOTSTRAP] = { "ZESHMEM_BOOTSTRAP", U_OPT_STRING, "auto", 0,
		0,
		"shmem: bootstrap: auto (PMIx when PMIX_RANK is set, else the "
		"unique id in ZESHMEM_UNIQUEID, else a single PE), pmix, uid, "
		"single" },
	[U_OPT_SH_BOOT_IFACE] = { "ZESHMEM_BOOT_IFACE", U_OPT_STRING, "", 0, 0,
		"shmem: interface name or IPv4 address the unique-id root "
		"(zeshrun, or the process that made the id) listens on; "
		"default: loopback, which serves PEs of this machine only: a "
		"unique-id job on several nodes names the interface here, on "
		"the root" },
	[U_OPT_SH_BIND_TO] = { "ZESHMEM_BIND_TO", U_OPT_STRING, "core", 0, 0,
		"shmem: zeshrun's binding when no --bind-to is given: core "
		"(local rank k on the k-th allowed CPU), socket (that CPU's "
		"package) or none" },
	[U_OPT_SH_UNIQUEID] = { "ZESHMEM_UNIQUEID", U_OPT_STRING, "", 0, 0,
		"shmem: the job's unique id (hex), set by zeshrun" },
	[U_OPT_SH_RANK] = { "ZESHMEM_RANK", U_OPT_UINT, "0", 0, 1 << 24,
		"shmem: this PE's rank in the job, set by zeshrun" },
	[U_OPT_SH_NRANKS] = { "ZESHMEM_NRANKS", U_OPT_UINT, "1", 1, 1 << 24,
		"shmem: the number of PEs of the job, set by zeshrun" },
	[U_OPT_SH_LOCAL_RANK] = { "ZESHMEM_LOCAL_RANK", U_OPT_UINT, "0", 0,
		1 << 24,
		"shmem: this PE's rank among the PEs of its node, set by "
		"zeshrun" },
	[U_OPT_SH_TRANSPORT] = { "ZESHMEM_TRANSPORT", U_OPT_STRING, "auto", 0,
		0,
		"shmem: auto (node-local peers through IPC, the others through "
		"libfabric), ofi (libfabric between every two PEs, also on one "
		"node), ipc (refuse PEs on other nodes)" },
	[U_OPT_SH_FORCE_NETWORK] = { "ZESHMEM_FORCE_NETWORK", U_OPT_BOOL, "0",
		0, 1,
		"shmem: 1 = ZESHMEM_TRANSPORT=ofi: any two PEs use the network "
		"path (every PE is a node of its own)" },
	[U_OPT_SH_PROVIDER] = { "ZESHMEM_PROVIDER", U_OPT_STRING, "", 0, 0,
		"shmem: the libfabric provider (e.g. tcp;ofi_rxm); default "
		"FI_PROVIDER, else the first of verbs;ofi_rxm, tcp;ofi_rxm, "
		"sockets with RDM + RMA + ATOMIC" },
	[U_OPT_SH_OFI_MR] = { "ZESHMEM_OFI_MR", U_OPT_STRING, "auto", 0, 0,
		"shmem: memory-registration modes offered to libfabric: auto "
		"(FI_MR_VIRT_ADDR|PROV_KEY|ALLOCATED|LOCAL|ENDPOINT, the "
		"provider picks), scalable (mr_mode 0: offsets, requested "
		"keys), basic (VIRT_ADDR|PROV_KEY|ALLOCATED), or a list of "
		"virt_addr, prov_key, allocated, local, endpoint (',' or '|'): "
		"exactly those, required (local and endpoint applied even "
		"where the provider does not ask; init fails unsupported when "
		"it cannot)" },
	[U_OPT_SH_OFI_AMO] = { "ZESHMEM_OFI_AMO", U_OPT_STRING, "auto", 0, 0,
		"shmem: network atomics: auto (the provider's, emulated where "
		"it lacks one) or cswap (every one but compare-swap emulated "
		"by a compare-swap loop: tests the emulation)" },
	[U_OPT_SH_BACKEND] = { "ZESHMEM_BACKEND", U_OPT_STRING, "auto", 0, 0,
		"shmem: how operations reach their target (rocSHMEM's "
		"backends): auto (node-local peers through their mapped heaps, "
		"the others through libfabric), ipc (node-local mappings only; "
		"a PE on another node is an init error), ro (reverse offload: "
		"every RMA/AMO/signal is queued to a proxy thread; _nbi calls "
		"return at once), gda (the caller posts to libfabric for every "
		"PE, no proxy)" },
	[U_OPT_SH_HOST_ID] = { "ZESHMEM_HOST_ID", U_OPT_STRING, "", 0, 0,
		"shmem: a name that replaces hostname + boot id as this PE's "
		"host identity (PEs with different names are on different "
		"nodes: for tests)" },
	[U_OPT_SH_MAX_SYMMETRIC_REGS] = { "ZESHMEM_MAX_SYMMETRIC_REGS",
		U_OPT_UINT, "64", 1, 4096,
		"shmem: most live rocshmem_buffer_register_symmetric "
		"registrations per PE (one more returns NULL on every PE)" },
	[U_OPT_SH_OFI_MAX_MSG] = { "ZESHMEM_OFI_MAX_MSG", U_OPT_SIZE, "0", 0,
		1ull << 40,
		"shmem: most bytes of one network transfer (0: the "
		"provider's max_msg_size); larger put/get/put_signal payloads "
		"go in pieces of it (the tests use it to exercise that)" },
	[U_OPT_WM_IO_THREADS] = { "ZEWM_IO_THREADS", U_OPT_UINT, "0", 0, 64,
		"wholememory: reader threads of load_from_file per rank (0: "
		"the CPUs shared by the node's ranks, at most 8)" },
	[U_OPT_WM_O_DIRECT] = { "ZEWM_O_DIRECT", U_OPT_BOOL, "0", 0, 1,
		"wholememory: load_from_file opens the files O_DIRECT (falls "
		"back to cached reads where the file system refuses it)" },
	[U_OPT_SH_PROXY_SPIN] = { "ZESHMEM_PROXY_SPIN", U_OPT_STRING, "auto",
		0, 0,
		"shmem: ZESHMEM_BACKEND=ro: whether the proxy (idle) and a "
		"blocking caller (waiting for its entry) spin a few "
		"microseconds before they sleep: auto (when the machine has "
		"more online CPUs than the node has PEs), on, off" },
	[U_OPT_SH_INFO] = { "ZESHMEM_INFO", U_OPT_STRING, "", 0, 0,
		"shmem: set (any value but 0/no/off/false): PE 0 prints the "
		"library's version and every option at init",
		.alias = "SHMEM_INFO" },
	[U_OPT_SH_VERSION] = { "ZESHMEM_VERSION", U_OPT_STRING, "", 0, 0,
		"shmem: set (any value but 0/no/off/false): PE 0 prints the "
		"library's version at init", .alias = "SHMEM_VERSION" },
	[U_OPT_SH_DEBUG] = { "ZESHMEM_DEBUG", U_OPT_STRING, "", 0, 0,
		"shmem: set (any value but 0/no/off/false): the runtime's log "
		"topics at debug level, unless ZEMEM_LOG_LEVEL names them",
		.alias = "SHMEM_DEBUG" },
	[U_OPT_SH_STATIC_DATA] = { "ZESHMEM_STATIC_DATA", U_OPT_BOOL, "1", 0,
		1,
		"shmem: the program's global and static variables symmetric "
		"(0: the heap only; the Python package's default, since an "
		"interpreter's own data is no program's and its threads write "
		"it while init would share it)" },
};

static struct u_opt_value opt_values[U_OPT_COUNT];
static pthread_once_t opt_once = PTHREAD_ONCE_INIT;

int
u_parse_size(const char *s, uint64_t *out)
{
	char *end;
	uint64_t mul = 1;
	if (!s || !*s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno)
		return -errno;
	switch (toupper((unsigned char)*end)) {
	case '\0': break;
	case 'K': mul = KiB; end++; break;
	case 'M': mul = MiB; end++; break;
	case 'G': mul = GiB; end++; break;
	case 'T': mul = TiB; end++; break;
	default: return -EINVAL;
	}
	if (*end == 'i' || *end == 'I')
		end++;
	if (*end == 'b' || *end == 'B')
		end++;
	if (*end)
		return -EINVAL;
	if (v > UINT64_MAX / mul)
		return -ERANGE;
	*out = v * mul;
	return 0;
}

static int
parse_bool(const char *s, uint64_t *out)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };
	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = 1;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = 0;
			return 0;
		}
	}
	return -EINVAL;
}

static int
parse_value(const struct u_opt_desc *d, const char *text, struct u_opt_value *v)
{
	char *end;
	int err = 0;
	switch (d->type) {
	case U_OPT_STRING:
		v->s = text;
		return 0;
	case U_OPT_BOOL:
		return parse_bool(text, &v->u);
	case U_OPT_UINT:
		if (!isdigit((unsigned char)*text))
			return -EINVAL;
		errno = 0;
		v->u = strtoull(text, &end, 0);
		if (errno || *end)
			return -EINVAL;
		break;
	case U_OPT_SIZE:
		err = u_parse_size(text, &v->u);
		if (err)
			return err;
		break;
	}
	if (v->u < d->min || v->u > d->max)
		return -ERANGE;
	return 0;
}

static void
compute_defaults(void)
{
	/* Defaults that depend on the machine (documented in the help). */
	if (!opt_values[U_OPT_DEVICE_MEMORY_SIZE].set) {
		uint64_t ram = u_phys_mem();
		opt_values[U_OPT_DEVICE_MEMORY_SIZE].u =
			ram ? ram / 2 : 4 * GiB;
	}
	if (!opt_values[U_OPT_MAX_ALLOC_SIZE].set) {
		uint64_t budget = opt_values[U_OPT_DEVICE_MEMORY_SIZE].u;
		opt_values[U_OPT_MAX_ALLOC_SIZE].u =
			budget < 4 * GiB ? budget : 4 * GiB;
	}
}

/* The option's text from the environment: its name, else its alias, else
 * its second alias (NULL: none set); *which (may be NULL) the name read. */
static const char *
opt_env(const struct u_opt_desc *d, const char **which)
{
	const char *names[] = { d->name, d->alias, d->alias2 };
	for (int k = 0; k < 3; k++) {
		const char *t = names[k] ? getenv(names[k]) : NULL;
		if (t) {
			if (which)
				*which = names[k];
			return t;
		}
	}
	if (which)
		*which = d->name;
	return NULL;
}

static void
options_parse(void)
{
	/* Two passes: the log options first, so warnings below can print. */
	for (int i = 0; i < U_OPT_COUNT; i++) {
		const struct u_opt_desc *d = &opt_table[i];
		struct u_opt_value *v = &opt_values[i];
		memset(v, 0, sizeof(*v));
		if (d->def[0])
			parse_value(d, d->def, v);
		else
			v->s = d->def;
	}
	int bad[U_OPT_COUNT] = { 0 };
	for (int i = 0; i < U_OPT_COUNT; i++) {
		const struct u_opt_desc *d = &opt_table[i];
		const char *text = opt_env(d, NULL);
		if (!text)
			continue;
		struct u_opt_value tmp = opt_values[i];
		int err = parse_value(d, text, &tmp);
		if (err) {
			bad[i] = err;
			continue;
		}
		tmp.set = true;
		opt_values[i] = tmp;
	}
	compute_defaults();
	for (int i = 0; i < U_OPT_COUNT; i++) {
		if (bad[i]) {
			const char *which;
			const char *text = opt_env(&opt_table[i], &which);
			u_warn("opt", "%s=\"%s\" is not valid (%s); using the "
			       "default", which, text,
			       bad[i] == -ERANGE ? "out of range"
						 : "bad format");
		}
	}
}

const struct u_opt_desc *
u_option_desc(enum u_opt_id id)
{
	return (unsigned)id < U_OPT_COUNT ? &opt_table[id] : NULL;
}

const struct u_opt_value *
u_option(enum u_opt_id id)
{
	pthread_once(&opt_once, options_parse);
	return &opt_values[id];
}

void
u_options_reset_for_test(void)
{
	pthread_once(&opt_once, options_parse);
	options_parse();
}

static void
format_value(const struct u_opt_desc *d, const struct u_opt_value *v,
	     char *buf, size_t len)
{
	switch (d->type) {
	case U_OPT_STRING:
		snprintf(buf, len, "\"%s\"", v->s ? v->s : "");
		break;
	case U_OPT_BOOL:
		snprintf(buf, len, "%s", v->u ? "1" : "0");
		break;
	case U_OPT_UINT:
		snprintf(buf, len, "%" PRIu64, v->u);
		break;
	case U_OPT_SIZE:
		if (v->u && v->u % GiB == 0)
			snprintf(buf, len, "%" PRIu64 "G", v->u / GiB);
		else if (v->u && v->u % MiB == 0)
			snprintf(buf, len, "%" PRIu64 "M", v->u / MiB);
		else
			snprintf(buf, len, "%" PRIu64, v->u);
		break;
	}
}

void
u_options_dump(FILE *f)
{
	for (int i = 0; i < U_OPT_COUNT; i++) {
		const struct u_opt_desc *d = &opt_table[i];
		const struct u_opt_value *v = u_option(i);
		char buf[64];
		format_value(d, v, buf, sizeof(buf));
		fprintf(f, "%-26s = %-12s (%s)\n    %s\n", d->name, buf,
			v->set ? "from environment" : "default", d->help);
		if (d->alias2)
			fprintf(f, "    (also read as %s, then %s)\n", d->alias,
				d->alias2);
		else if (d->alias)
			fprintf(f, "    (also read as %s)\n", d->alias);
	}
}
