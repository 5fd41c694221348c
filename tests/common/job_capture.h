// SPDX-License-Identifier: MIT
/*
 * job_capture: runs a test job (a launcher such as zeshrun or mpirun, or
 * a program) as a child in a process group of its own, its stdout and
 * stderr together captured into a buffer, ended (the whole group) when it
 * runs past a timeout. The multi-process suites' one way to start a job.
 */
#ifndef ZEMEM_JOB_CAPTURE_H
#define ZEMEM_JOB_CAPTURE_H

#include <stddef.h>
#include <sys/types.h>

/* Runs argv (argv[0] a path) with the entries of env ("NAME=value", NULL
 * ended; env may be NULL) added to the environment. out receives at most
 * cap - 1 bytes of output, NUL ended. *pid (may be NULL) is the child's
 * pid. Returns the exit status (128 + signal), -1 when it ran past
 * timeout_s (the group is killed and the output printed on stderr), or
 * -2 when the child could not be started. */
int job_capture(char *const argv[], const char *const *env, int timeout_s,
		char *out, size_t cap, pid_t *pid);

#endif
