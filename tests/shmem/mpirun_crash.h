// SPDX-License-Identifier: MIT
/*
 * mpirun_crash.h: the shmem tests' jobs under Open MPI's mpirun, told
 * apart from mpirun's own crash (test_boot, test_shmem, test_sh_core), and
 * how the tests find mpirun (find_in_path, mpirun_or_skip).
 *
 * Debian's mpirun (Open MPI 4.1.4 over libpmix 4.2) now and then dies of
 * SIGSEGV at the end of a job, in its own PMIx server (event_del on freed
 * memory under libevent): seen in the server's progress thread dropping a
 * client's connection while mpirun's main thread closed the job's output
 * fds, and in PMIx_server_finalize after mpirun had printed the job's
 * exit status, every PE gone. Its handler prints
 * "[host:PID] *** Process received signal ***" with its own PID; a PE
 * that crashes reads otherwise (mpirun reports it and exits normally).
 * Freed memory scribbled on (meson's MALLOC_PERTURB_) makes it far more
 * likely, so mpirun does not get MALLOC_PERTURB_; the PEs still do (-x).
 *
 * Such a run tells nothing about the PEs: the test runs the job again
 * (MPIRUN_TRIES in all) and prints mpirun's report, so every crash is in
 * the test's log; a job whose PEs misbehave fails as before.
 */
#ifndef ZEMEM_MPIRUN_CRASH_H
#define ZEMEM_MPIRUN_CRASH_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef MPIRUN_TRIES
#define MPIRUN_TRIES 3   /* runs of one job in all */
#endif

/* True when the run of mpirun pid ended with status (the shell's form:
 * 128 + signal) by a crash of mpirun itself, as its output out shows. */
static inline bool
mpirun_crashed(int status, pid_t pid, const char *out)
{
	char mark[64];

	if (status != 128 + SIGSEGV && status != 128 + SIGBUS &&
	    status != 128 + SIGABRT)
		return false;
	snprintf(mark, sizeof(mark), ":%d] *** Process received signal ***",
		 (int)pid);
	return out && strstr(out, mark) != NULL;
}

/* Says so on stderr (the test's log) with mpirun's report. */
static inline void
mpirun_crash_note(pid_t pid, int status, int try_no, const char *out)
{
	const char *rep;

	rep = out ? strstr(out, "*** Process received signal ***") : NULL;
	while (rep && rep > out && rep[-1] != '\n')
		rep--;
	fprintf(stderr, "mpirun (pid %d) crashed itself (status %d), not a "
			"PE: run %d of %d, running the job again; its "
			"report:\n%s\n", (int)pid, status, try_no, MPIRUN_TRIES,
		rep ? rep : "(none)");
}

/* MALLOC_PERTURB_ moves from this environment (mpirun's) to an
 * "-x NAME=VALUE" for the PEs: buf gets "MALLOC_PERTURB_=v"; NULL when
 * it was not set. */
static inline const char *
mpirun_take_perturb(char *buf, size_t size)
{
	const char *mp = getenv("MALLOC_PERTURB_");

	if (!mp)
		return NULL;
	snprintf(buf, size, "MALLOC_PERTURB_=%s", mp);
	unsetenv("MALLOC_PERTURB_");
	return buf;
}

/* The first executable name in $PATH (mpirun, say), in a static buffer;
 * NULL when there is none. */
static inline const char *
find_in_path(const char *name)
{
	static char buf[4096];
	const char *path = getenv("PATH");

	while (path && *path) {
		const char *end = strchr(path, ':');
		size_t len = end ? (size_t)(end - path) : strlen(path);
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, path, name);
		if (access(buf, X_OK) == 0)
			return buf;
		path += len + (end ? 1 : 0);
	}
	return NULL;
}

/* mpirun for a test's mpirun suite, or NULL after printing why the suite
 * is skipped (the caller exits 77): built without PMIx, or no mpirun in
 * $PATH. */
static inline const char *
mpirun_or_skip(void)
{
#ifndef ZESHMEM_HAVE_PMIX
	printf("skip: built without PMIx (libpmix-dev)\n");
	return NULL;
#else
	const char *m = find_in_path("mpirun");
	if (!m)
		printf("skip: mpirun not found in PATH (openmpi-bin)\n");
	return m;
#endif
}

#endif
