// SPDX-License-Identifier: MIT
/*
 * leakcheck: test fixture that asserts a test leaves no fd and no mapping
 * behind. It snapshots /proc/self/fd and /proc/self/maps at begin and
 * compares at end; differences are printed, then asserted with check.
 *
 * glibc's malloc can map new arenas when threads start; leakcheck_begin
 * pins malloc to one arena (M_ARENA_MAX=1) so only real leaks show.
 */
#ifndef ZEMEM_LEAKCHECK_H
#define ZEMEM_LEAKCHECK_H

#include <stddef.h>

#include "test_san.h"

#define LEAKCHECK_MAX 4096

struct leakcheck {
	int nfd;
	int nmap;
	size_t mapped;
	char *maps;      /* text of /proc/self/maps at begin (malloc'ed) */
};

/* Number of open fds and mappings of this process. */
int leakcheck_count_fds(void);
int leakcheck_count_maps(size_t *bytes);
void leakcheck_begin(struct leakcheck *lc);
/* Asserts (ck_assert) that nothing leaked; frees lc's snapshot. */
void leakcheck_end(struct leakcheck *lc);
/* Non-asserting variant: returns 0 when clean, prints and returns -1. */
int leakcheck_end_soft(struct leakcheck *lc);
/* Number of this process's threads. A thread that pthread_join returned
 * for leaves /proc/self/task a moment later (the kernel wakes the joiner
 * before it lets the task go), so the count is taken again, sleeping 5 ms
 * between, for up to a second: while it is above want (want >= 0), or,
 * with want < 0 (a baseline), until two counts agree. */
int leakcheck_count_threads(int want);
/* Is fd close-on-exec? 1 yes, 0 no, -1 not open. */
int leakcheck_fd_cloexec(int fd);
/* Asserts every fd of the kinds zemem creates (memfd, socket, anon inode,
 * device) is close-on-exec. */
void leakcheck_assert_all_cloexec(void);

#endif
