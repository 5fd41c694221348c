// SPDX-License-Identifier: MIT
/*
 * u_options: the one table of zemem's environment options.
 *
 * Every option has a name, a type, a default and help text. The table is
 * read once (pthread_once) on first use; a bad value logs a warning and
 * keeps the default. Tools print the table with u_options_dump().
 */
#ifndef ZEMEM_U_OPTIONS_H
#define ZEMEM_U_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum u_opt_type {
	U_OPT_STRING,
	U_OPT_UINT,  /* decimal or 0x..., range-checked */
	U_OPT_SIZE,  /* bytes, with optional K/M/G/T suffix (powers of 1024) */
	U_OPT_BOOL,  /* 1/0, true/false, yes/no, on/off */
};

enum u_opt_id {
	U_OPT_LOG_LEVEL,
	U_OPT_LOG_FILE,
	U_OPT_DEVICE_COUNT,
	U_OPT_DEVICE_TYPE,
	U_OPT_DEVICE_MEMORY_SIZE,
	U_OPT_MAX_ALLOC_SIZE,
	U_OPT_EXPORT_FILES,
	U_OPT_SYSFS,
	U_OPT_ZES_ENABLE_SYSMAN,
	/* IPC (driver/ipc/) */
	U_OPT_IPC_TRANSPORT,
	U_OPT_IPC_BROKER,
	U_OPT_IPC_BOARD,
	U_OPT_IPC_TIMEOUT_MS,
	U_OPT_IPC_POOL_EXPORT,
	/* validation layer (validation_layer/) */
	U_OPT_VAL_PARAMETER,
	U_OPT_VAL_LIFETIME,
	U_OPT_VAL_LEAK,
	U_OPT_VAL_ABORT,
	U_OPT_VAL_BACKTRACE,
	U_OPT_VAL_LOG,
	/* loader (loader/) */
	U_OPT_ENABLE_ALT_DRIVERS,
	U_OPT_ENABLE_VALIDATION_LAYER,
	U_OPT_VALIDATION_LAYER,
	U_OPT_ENABLE_TRACING_LAYER,
	U_OPT_TRACING_LAYER,
	U_OPT_ZEL_DRIVERS_ORDER,
	U_OPT_ZEL_LOGGING,
	U_OPT_ZEL_LOG_CONSOLE,
	U_OPT_ZEL_LOG_DIR,
	U_OPT_ZEL_LOG_FILE,
	U_OPT_ZEL_LOG_LEVEL,
	U_OPT_ZE_LOADER_DEBUG_TRACE,
	U_OPT_ZEL_LIBRARY_PATH,
	/* symmetric-memory runtime (shmem/) */
	U_OPT_SH_SYMMETRIC_SIZE,
	U_OPT_SH_HEAP_MEMORY,
	U_OPT_SH_CHECK_SYMMETRY,
	U_OPT_SH_COPY,
	U_OPT_SH_TIMEOUT,
	U_OPT_SH_BOOTSTRAP,
	U_OPT_SH_BOOT_IFACE,
	U_OPT_SH_BIND_TO,
	U_OPT_SH_UNIQUEID,
	U_OPT_SH_RANK,
	U_OPT_SH_NRANKS,
	U_OPT_SH_LOCAL_RANK,
	U_OPT_SH_TRANSPORT,
	U_OPT_SH_FORCE_NETWORK,
	U_OPT_SH_PROVIDER,
	U_OPT_SH_OFI_MR,
	U_OPT_SH_OFI_AMO,
	U_OPT_SH_BACKEND,
	U_OPT_SH_HOST_ID,
	U_OPT_SH_MAX_SYMMETRIC_REGS,
	U_OPT_SH_OFI_MAX_MSG,
	/* WholeMemory (wholememory/) */
	U_OPT_WM_IO_THREADS,
	U_OPT_WM_O_DIRECT,
	U_OPT_SH_PROXY_SPIN,
	U_OPT_SH_INFO,
	U_OPT_SH_VERSION,
	U_OPT_SH_DEBUG,
	U_OPT_SH_STATIC_DATA,
	U_OPT_COUNT,
};

struct u_opt_desc {
	const char *name;      /* environment variable */
	enum u_opt_type type;
	const char *def;       /* default, as text ("" = computed, see help) */
	uint64_t min, max;     /* for UINT and SIZE */
	const char *help;
	/* Another name read when `name` is not set: the spec's or another
	 * project's spelling (SHMEM_SYMMETRIC_SIZE); `name` wins. */
	const char *alias;
	/* A third, read when neither is set (rocSHMEM's ROCSHMEM_HEAP_SIZE
	 * after SHMEM_SYMMETRIC_SIZE). */
	const char *alias2;
};

struct u_opt_value {
	bool set;              /* taken from the environment */
	uint64_t u;            /* UINT, SIZE, BOOL */
	const char *s;         /* STRING (points into the environment or def) */
};

const struct u_opt_desc *u_option_desc(enum u_opt_id id);
const struct u_opt_value *u_option(enum u_opt_id id);
static inline uint64_t
u_option_u64(enum u_opt_id id)
{
	return u_option(id)->u;
}
static inline const char *
u_option_str(enum u_opt_id id)
{
	return u_option(id)->s;
}
/* Parse a size with K/M/G/T suffix; returns 0 on success. */
int u_parse_size(const char *s, uint64_t *out);
/* Print every option: name, current value, default, help. */
void u_options_dump(FILE *f);
/* Tests only: drop the cached values so the next read parses again. */
void u_options_reset_for_test(void);

#endif
