// SPDX-License-Identifier: MIT
/*
 * shm_entries.h: the /dev/shm entries a test may blame on zemem.
 *
 * Counted: every "zemem*" entry, and the "zeshmem_<pid>_*" entries that
 * libfabric's shm provider makes for a PE's endpoint (sh_ofi.c names
 * them so) whose pid is gone: a live pid's entry belongs to a job that is
 * still running, in parallel with this one, and goes when it closes.
 */
#ifndef ZEMEM_TESTS_SHM_ENTRIES_H
#define ZEMEM_TESTS_SHM_ENTRIES_H

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static inline int
shm_entries_ours(void)
{
	DIR *d = opendir("/dev/shm");
	struct dirent *e;
	int n = 0;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (!strncmp(e->d_name, "zemem", 5)) {
			n++;
		} else if (!strncmp(e->d_name, "zeshmem_", 8)) {
			long pid = strtol(e->d_name + 8, NULL, 10);
			n += pid <= 0 || (kill((pid_t)pid, 0) && errno == ESRCH);
		} else {
			n += !strncmp(e->d_name, "zeshmem", 7);
		}
	}
	closedir(d);
	return n;
}

#endif
