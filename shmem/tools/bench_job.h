// SPDX-License-Identifier: MIT
/*
 * bench_job.h: the controller side the shmem benchmarks share
 * (zeshmem-bench, zeshmem-ro-bench): a benchmark finds the zeshrun next
 * to its own executable and starts itself as an N-PE job, each PE told
 * what to measure by "--pe WHAT". Header-only (static inline), so the
 * benchmarks stay programs of the public shmem.h alone.
 */
#ifndef ZESHMEM_BENCH_JOB_H
#define ZESHMEM_BENCH_JOB_H

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* self: this executable; zeshrun: the zeshrun next to it. 0, or 1 with
 * the reason on stderr (prog names the benchmark). */
static inline int
bench_find_zeshrun(const char *prog, char self[PATH_MAX],
		   char zeshrun[PATH_MAX])
{
	ssize_t n = readlink("/proc/self/exe", self, PATH_MAX - 1);
	if (n <= 0) {
		perror("readlink /proc/self/exe");
		return 1;
	}
	self[n] = 0;
	snprintf(zeshrun, PATH_MAX, "%s", self);
	char *slash = strrchr(zeshrun, '/');
	snprintf(slash + 1, PATH_MAX - (size_t)(slash + 1 - zeshrun),
		 "zeshrun");
	if (access(zeshrun, X_OK)) {
		fprintf(stderr, "%s: no zeshrun next to it (%s)\n", prog,
			zeshrun);
		return 1;
	}
	return 0;
}

/* Runs "zeshrun -n npes -- self --pe what --quick|--full" (with this
 * process's environment) and waits: its exit status, 128 + the signal,
 * or -1. */
static inline int
bench_job(const char *zeshrun, const char *self, int npes, const char *what,
	  int quick)
{
	char nb[16];
	snprintf(nb, sizeof(nb), "%d", npes);
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execl(zeshrun, zeshrun, "-n", nb, "--", self, "--pe", what,
		      quick ? "--quick" : "--full", (char *)NULL);
		perror(zeshrun);
		_exit(127);
	}
	int ws;
	if (waitpid(pid, &ws, 0) != pid)
		return -1;
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

/* The command line bench_job gives a PE, and a user's: [--quick|--full]
 * [--pe WHAT]. 0, or 2 with the usage on stderr (prog names the
 * benchmark). *pe stays NULL in the controller. */
static inline int
bench_args(int argc, char **argv, const char *prog, int *quick,
	   const char **pe)
{
	*pe = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			*quick = 1;
		else if (!strcmp(argv[i], "--pe") && i + 1 < argc)
			*pe = argv[++i];
		else if (strcmp(argv[i], "--full")) {
			fprintf(stderr, "usage: %s [--quick]\n", prog);
			return 2;
		}
	}
	return 0;
}

#endif
