// SPDX-License-Identifier: MIT
/*
 * zb: the private header of zemem-bench, shared by its section files
 * (zb_usm.c, zb_loader.c, zb_ipc.c, zb_val.c, zb_vmm.c, zb_cmd.c) and its
 * main file (zemem-bench.c: options, output, children).
 *
 * Vocabulary:
 *   figure    one measured quantity: the median of repeated trials, printed
 *             with a baseline measured in the same run and their ratio
 *             (figure / baseline), with the sizes and counts used;
 *   section   a group of figures from one issue (usm, loader, ipc,
 *             validation, vmm, cmd); a section the driver or loader cannot
 *             run prints "skipped: <reason>" instead;
 *   child     this program started again (fork + exec) as
 *             "zemem-bench --child <mode>" with some environment changed,
 *             for what must run in another process (another loader, the
 *             validation layer, the other side of an IPC handle). A child
 *             prints "key value" lines on its stdout; the parent reads
 *             them (struct zb_kv). "skip <reason>" and "error <text>" are
 *             reserved keys.
 *
 * Single-threaded: sections run one after the other on the main thread.
 */
#ifndef ZEMEM_ZB_H
#define ZEMEM_ZB_H

#include <level_zero/ze_api.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "tool_common.h"

#define ZB_MiB ((size_t)1 << 20)

struct zb_state {
	bool json, quick;
	ze_driver_handle_t drv;
	ze_device_handle_t dev;
	ze_context_handle_t ctx;
};
extern struct zb_state zb;
extern const ze_device_mem_alloc_desc_t zb_ddesc;
extern const ze_host_mem_alloc_desc_t zb_hdesc;

/* Output (zemem-bench.c). zb_section prints a header (text only);
 * zb_report one figure; zb_skip one skipped figure or section; zb_note a
 * line of explanation (text only). */
void zb_section(const char *section, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void zb_report(const char *section, const char *name, double value,
	       const char *unit, const char *base_name, double base,
	       const char *params);
void zb_skip(const char *section, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void zb_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Makes the compiler assume the memory at p is read: a timed memcpy into
 * a buffer nobody reads afterwards is not a dead store. */
static inline void
zb_keep(const void *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

/* Children compared with one another, and figures taken in turns with
 * their baseline in this process, run on one CPU. zb_pin() pins this
 * process, and so every child it starts until zb_unpin(), to the CPU it
 * is running on, and returns that CPU (-1: left as it was). A VM's vCPUs
 * need not be equally fast (each shares a host core with other work): on
 * the 2-vCPU VM of the README's figures one ran the validation layer's
 * pair 1.5x slower than the other, so an "on" and an "off" child that
 * landed on different vCPUs gave ratios from 1.4x to 3.4x for one build. */
int zb_pin(void);
void zb_unpin(void);

/* Medians (sorts v). */
double zb_median(double *v, int n);

/* A file name in this run's temporary folder (removed at exit), or NULL. */
const char *zb_tmp_path(const char *name);

/* Children. */
#define ZB_KV_MAX 64
struct zb_kv {
	int n;
	char key[ZB_KV_MAX][32];
	char val[ZB_KV_MAX][192];
};
struct zb_child {
	pid_t pid;
	int to;      /* the child's stdin, or -1 */
	FILE *from;  /* the child's stdout */
};
/* Starts "zemem-bench --child mode [--quick]" with env applied (see
 * tool_spawn). Returns 0 or -errno. */
int zb_child_start(struct zb_child *c, const char *mode,
		   const char *const env[]);
/* Reads one line into kv: 0, or -1 at the end of the output. */
int zb_child_line(struct zb_child *c, struct zb_kv *kv);
/* Closes the child's stdin, reads the rest into kv, waits for it: its
 * exit status, or -1 when it did not exit normally. */
int zb_child_finish(struct zb_child *c, struct zb_kv *kv);
/* Runs a child to its end: the exit status as zb_child_finish. */
int zb_child_run(const char *mode, const char *const env[], struct zb_kv *kv);
const char *zb_kv_str(const struct zb_kv *kv, const char *key);
double zb_kv_num(const struct zb_kv *kv, const char *key); /* NAN if none */
/* Explains a failed child as a skip: its "skip", its "error", or how it
 * ended. */
void zb_child_failed(const char *section, const char *name,
		     const struct zb_kv *kv, int status);

/* In a child: one "key value" line on stdout. */
void zb_out(const char *key, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* In a child: zeInit, first driver, device, context into zb. 0 or -1
 * (after printing "error ..."). */
int zb_child_setup(void);

/* Sections, in the parent. */
void zb_usm(void);
/* --count KIND SIZE N: N alloc+free pairs, untimed (for instruction
 * counts: tools/zb_icount.sh); 0 or an exit status. */
int zb_usm_count(const char *kind, size_t size, long n);
/* n cold IPC open+close pairs in this process (--count ipc). */
int zb_ipc_count(long n);
void zb_loader(void);
void zb_ipc(void);
void zb_val(void);
void zb_vmm(void);
void zb_cmd(void);

/* Children's main functions: the exit status. */
int zb_child_loader(void);
int zb_child_ipc_open(void);
int zb_child_val(void);
int zb_child_vmm_export(void);

#endif
