// SPDX-License-Identifier: MIT
/* job_capture.c: see job_capture.h. */
#include "job_capture.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double
now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int
job_capture(char *const argv[], const char *const *env, int timeout_s,
	    char *out, size_t cap, pid_t *pidp)
{
	int p[2];
	if (cap == 0 || pipe2(p, O_CLOEXEC))
		return -2;
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -2;
	}
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		setpgid(0, 0);
		for (size_t i = 0; env && env[i]; i++)
			putenv((char *)env[i]);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pidp)
		*pidp = pid;
	close(p[1]);
	size_t len = 0;
	double end = now_s() + timeout_s;
	int timed_out = 0;
	for (;;) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };
		int left = (int)((end - now_s()) * 1000);
		if (left <= 0) {
			timed_out = 1;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			break;
		}
		int r = poll(&pfd, 1, left);
		if (r <= 0)
			continue;
		char buf[4096];
		ssize_t n = read(p[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		size_t take = (size_t)n < cap - 1 - len ? (size_t)n
							 : cap - 1 - len;
		memcpy(out + len, buf, take);
		len += take;
	}
	out[len] = 0;
	close(p[0]);
	int ws;
	pid_t w;
	while ((w = waitpid(pid, &ws, 0)) < 0 && errno == EINTR)
		;
	if (w != pid)
		return -2;
	if (timed_out) {
		fprintf(stderr, "job ran past %d s:\n%s\n", timeout_s, out);
		return -1;
	}
	return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}
