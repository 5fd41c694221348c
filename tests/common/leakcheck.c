// SPDX-License-Identifier: MIT
/*
 * leakcheck: fd and mapping leak fixture (see leakcheck.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "leakcheck.h"

#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int
count_tasks(void)
{
	DIR *d = opendir("/proc/self/task");
	int n = 0;
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));)
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

int
leakcheck_count_threads(int want)
{
	int n = count_tasks(), was = -1;
	for (int i = 0; i < 200 && (want >= 0 ? n > want : n != was); i++) {
		nanosleep(&(struct timespec){ 0, 5000000 }, NULL);
		was = n;
		n = count_tasks();
	}
	return n;
}

int
leakcheck_count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;
	if (!d)
		return -1;
	int self = dirfd(d);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || atoi(e->d_name) == self)
			continue;
		n++;
	}
	closedir(d);
	return n;
}

static char *
read_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += got;
		if (cap - len < 4096) {
			cap *= 2;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				buf = NULL;
			}
			buf = nb;
		}
	}
	fclose(f);
	if (buf)
		buf[len] = '\0';
	return buf;
}

/* The brk heap and the stack grow and shrink with malloc and calls; they
 * are not mappings anyone leaks. Under a sanitizer, whose runtime maps and
 * unmaps anonymous memory as it pleases, only shared-memory and dma-buf
 * mappings (what zemem maps for users) are compared. */
static int
ignored_line(const char *line, const char *nl)
{
	size_t len = nl ? (size_t)(nl - line) : strlen(line);
#if TEST_ASAN || TEST_TSAN
	static const char *const shared[] = { "/memfd:", "dmabuf", "/dev/zero",
					      "SYSV" };
	for (size_t i = 0; i < sizeof(shared) / sizeof(shared[0]); i++)
		if (memmem(line, len, shared[i], strlen(shared[i])))
			return 0;
	return 1;
#else
	return (len >= 6 && !memcmp(line + len - 6, "[heap]", 6)) ||
	       (len >= 7 && !memcmp(line + len - 7, "[stack]", 7));
#endif
}

static int
count_lines(const char *maps, size_t *bytes)
{
	int n = 0;
	size_t total = 0;
	for (const char *p = maps; p && *p;) {
		unsigned long a, b;
		const char *nl = strchr(p, '\n');
		if (!ignored_line(p, nl)) {
			if (sscanf(p, "%lx-%lx", &a, &b) == 2)
				total += b - a;
			n++;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	if (bytes)
		*bytes = total;
	return n;
}

int
leakcheck_count_maps(size_t *bytes)
{
	char *m = read_maps();
	int n = count_lines(m, bytes);
	free(m);
	return n;
}

void
leakcheck_begin(struct leakcheck *lc)
{
	mallopt(M_ARENA_MAX, 1);
	lc->nfd = leakcheck_count_fds();
	lc->maps = read_maps();
	lc->nmap = count_lines(lc->maps, &lc->mapped);
}

static void
print_new_lines(const char *before, const char *after)
{
	for (const char *p = after; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
		char *line = strndup(p, len);
		if (line && !ignored_line(p, nl) &&
		    !(before && strstr(before, line)))
			fprintf(stderr, "  %s", line);
		free(line);
		if (!nl)
			break;
		p = nl + 1;
	}
}

int
leakcheck_end_soft(struct leakcheck *lc)
{
	int nfd = leakcheck_count_fds();
	char *maps = read_maps();
	size_t mapped;
	int nmap = count_lines(maps, &mapped);
	int rc = 0;
	if (nfd != lc->nfd) {
		fprintf(stderr, "leakcheck: %d fds at begin, %d at end\n",
			lc->nfd, nfd);
		rc = -1;
	}
	if (nmap != lc->nmap || mapped != lc->mapped) {
		fprintf(stderr,
			"leakcheck: %d mappings (%zu bytes) at begin, %d "
			"(%zu bytes) at end; lines only at end:\n",
			lc->nmap, lc->mapped, nmap, mapped);
		print_new_lines(lc->maps, maps);
		rc = -1;
	}
	free(maps);
	free(lc->maps);
	lc->maps = NULL;
	return rc;
}

void
leakcheck_end(struct leakcheck *lc)
{
	int nfd0 = lc->nfd;
	int nfd = leakcheck_count_fds();
	int rc = leakcheck_end_soft(lc);
	ck_assert_int_eq(nfd, nfd0);
	ck_assert_msg(rc == 0, "mapping leak (see stderr)");
}

int
leakcheck_fd_cloexec(int fd)
{
	int fl = fcntl(fd, F_GETFD);
	if (fl < 0)
		return -1;
	return (fl & FD_CLOEXEC) ? 1 : 0;
}

void
leakcheck_assert_all_cloexec(void)
{
	DIR *d = opendir("/proc/self/fd");
	ck_assert_ptr_nonnull(d);
	int self = dirfd(d);
	struct dirent *e;
	while ((e = readdir(d))) {
		int fd = atoi(e->d_name);
		if (e->d_name[0] == '.' || fd == self || fd < 3)
			continue;
		/* Only the kinds of fd zemem makes: memfds, sockets, pidfds
		 * and other anonymous inodes, devices (dma-buf exporters).
		 * The test runner's own files and pipes are not ours. */
		char path[64], target[256];
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		ssize_t n = readlink(path, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (strncmp(target, "/memfd:", 7) &&
		    strncmp(target, "socket:", 7) &&
		    strncmp(target, "anon_inode:", 11) &&
		    strncmp(target, "/dev/udmabuf", 12) &&
		    strncmp(target, "/dev/dri/", 9) &&
		    strncmp(target, "/dmabuf:", 8))
			continue;
		ck_assert_msg(leakcheck_fd_cloexec(fd) == 1,
			      "fd %d (%s) is not close-on-exec", fd, target);
	}
	closedir(d);
}
