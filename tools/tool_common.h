// SPDX-License-Identifier: MIT
/*
 * tool_common: what zemem-info, zemem-demo and zemem-bench share.
 *
 * The tools are ordinary Level Zero applications linked with whichever
 * libze_loader.so.1 the dynamic linker finds (the system's by default).
 * Entry points that the system loader may lack (Debian's 1.8 has no
 * zeMemPutIpcHandle, zeCommandListHostSynchronize, ...) are looked up at
 * run time with tool_sym(), never linked, so the tools run on both loaders.
 *
 * Vocabulary:
 *   default driver  zemem's libze_zemem.so.1 next to the tool (build tree)
 *                   or in the installed libdir; tool_default_driver() names
 *                   it in ZE_ENABLE_ALT_DRIVERS when the user did not;
 *   zemem loader    the folder that holds zemem's own libze_loader.so.1
 *                   (build tree, else the installed libdir);
 *   child           the same program started again with fork + exec
 *                   (tool_spawn), with some environment variables changed
 *                   and pipes on its stdin and stdout.
 */
#ifndef ZEMEM_TOOL_COMMON_H
#define ZEMEM_TOOL_COMMON_H

#include <level_zero/ze_api.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* Sets ZE_ENABLE_ALT_DRIVERS to zemem's driver when it is unset. Returns
 * the path it set, or NULL when the variable was set already or no driver
 * was found. */
const char *tool_default_driver(void);

/* The name of a result code ("ZE_RESULT_ERROR_UNINITIALIZED", ...). */
const char *tool_result_str(ze_result_t r);

/* A function of the loader in use, looked up at run time (NULL if the
 * loader lacks it). */
void *tool_sym(const char *name);
#define TOOL_SYM(type, name) ((type)tool_sym(name))

/* The file the libze_loader.so.1 in use was loaded from ("?" if unknown). */
const char *tool_loader_path(void);

/* The layers the loader chained (comma list from zelLoaderGetVersions,
 * "none" when it lists no layer, "unknown" when it cannot say). */
const char *tool_loader_layers(void);

/* The folder of zemem's own loader, or NULL. */
const char *tool_zemem_loader_dir(void);

/* This program's path (for exec). */
const char *tool_self_path(void);

/* Explains on f why no Level Zero driver was found: the variable's value,
 * and for each library named there whether it exists, loads and looks
 * like a driver. Call after zeInit / zeDriverGet failed. */
void tool_explain_no_driver(FILE *f, const char *prog, ze_result_t r);

uint64_t tool_now_ns(void);
const char *tool_human(uint64_t bytes, char *buf, size_t len);

/* Starts tool_self_path() with argv (argv[0] included, NULL-terminated)
 * and the environment changed by env ("NAME=value" sets, "NAME" unsets;
 * NULL-terminated, may be NULL). If to_child, the child's stdin is a pipe
 * and *to_child its write end; if from_child, likewise its stdout. The
 * ends kept here are close-on-exec. Returns the pid, or -1 with errno. */
pid_t tool_spawn(char *const argv[], const char *const env[], int *to_child,
		 int *from_child);

/* Writes all of buf (retrying on EINTR and short writes): 0 or -errno. */
int tool_write_all(int fd, const void *buf, size_t len);
/* Reads exactly len bytes: 0, -EPIPE at a premature end, or -errno. */
int tool_read_all(int fd, void *buf, size_t len);

/* 64-byte handles as 128 hex digits (out holds 129 bytes). */
void tool_hex_encode(const void *data, size_t len, char *out);
int tool_hex_decode(const char *hex, void *data, size_t len);

#endif
