// SPDX-License-Identifier: MIT
/*
 * tcmd: helpers shared by the copy-engine test files (test_cmd*.c): object
 * constructors that assert success, USM allocation by kind, the leak
 * fixture, and the test cases each file contributes to the suite.
 */
#ifndef ZEMEM_TCMD_H
#define ZEMEM_TCMD_H

#include <check.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zt.h"

/* Fixture: zt_setup + leakcheck; teardown asserts no fd / mapping leak. */
void tc_setup(void);
void tc_teardown(void);

ze_command_queue_handle_t tc_queue(uint32_t ordinal,
				   ze_command_queue_mode_t mode);
ze_command_list_handle_t tc_list(uint32_t ordinal);
ze_command_list_handle_t tc_imm(ze_command_queue_mode_t mode);
ze_fence_handle_t tc_fence(ze_command_queue_handle_t q);
ze_event_pool_handle_t tc_pool(ze_event_pool_flags_t flags, uint32_t count);
ze_event_handle_t tc_event(ze_event_pool_handle_t p, uint32_t index);
/* kind: ZE_MEMORY_TYPE_HOST / DEVICE / SHARED, or UNKNOWN for malloc. */
void *tc_alloc(ze_memory_type_t kind, size_t size);
void tc_free(ze_memory_type_t kind, void *p);
/* Closes l, executes it on q with a fence and waits for the fence. */
void tc_run(ze_command_queue_handle_t q, ze_command_list_handle_t l);
/* Deterministic bytes: buf[i] = seed + i * 131 + (i >> 8). */
void tc_pattern(void *buf, size_t n, unsigned seed);
bool tc_check_pattern(const void *buf, size_t n, unsigned seed);
uint64_t tc_now_ns(void);
/* Test threads run on stacks of their own, unmapped after the join
 * (glibc keeps the stacks of joined threads cached and mapped, which the
 * leak fixture would report). */
struct tc_thread {
	pthread_t t;
	void *stack;
};
void tc_thread_start(struct tc_thread *t, void *(*fn)(void *), void *arg);
void tc_thread_join(struct tc_thread *t);
/* Forged handle: the address of a static object that is no handle. */
extern char tc_forged[64];

/* Test cases of each file. */
TCase *tc_case_queue(void);  /* test_cmd.c */
TCase *tc_case_list(void);   /* test_cmd_list.c */
TCase *tc_case_fence(void);  /* test_cmd_list.c */
TCase *tc_case_event(void);  /* test_cmd_event.c */
TCase *tc_case_copy(void);   /* test_cmd_copy.c */
TCase *tc_case_region(void); /* test_cmd_copy.c */
TCase *tc_case_thread(void); /* test_cmd_thread.c */
TCase *tc_case_free(void);   /* test_cmd_thread.c */
TCase *tc_case_ext(void);    /* test_cmd_ext.c */
TCase *tc_case_prio(void);   /* test_cmd_prio.c */
TCase *tc_case_cb(void);     /* test_cmd_cb.c */

#endif
