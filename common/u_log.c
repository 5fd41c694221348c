// SPDX-License-Identifier: MIT
/*
 * u_log: leveled logging (see u_log.h).
 *
 * The level string is parsed once. It reads the variables named in the
 * option table directly (not through u_option()), because the option parser
 * itself logs warnings about bad values.
 * Locking: the parsed state is written once under pthread_once; writes to
 * the sink are single fprintf-style calls of one whole line.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "u_log.h"
#include "u_options.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define MAX_TOPICS 16

struct topic_level {
	char name[16];
	int level;
};

int u_log_max_level = -1;
static int global_level = U_LOG_WARN;
static struct topic_level topics[MAX_TOPICS];
static int topic_count;
static int log_fd = 2;
static pthread_once_t log_once = PTHREAD_ONCE_INIT;

static const char *const level_names[] = {
	"none", "error", "warn", "info", "debug", "trace",
};

const char *
u_log_level_name(int level)
{
	if (level < 0 || level > U_LOG_TRACE)
		return "?";
	return level_names[level];
}

int
u_log_parse_level(const char *s)
{
	for (int i = 0; i <= U_LOG_TRACE; i++)
		if (!strcasecmp(s, level_names[i]))
			return i;
	if (!strcasecmp(s, "warning"))
		return U_LOG_WARN;
	if (s[0] >= '0' && s[0] <= '5' && !s[1])
		return s[0] - '0';
	return -1;
}

static void
parse_spec(const char *spec)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", spec);
	char *save = NULL;
	for (char *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');
		if (!colon) {
			int l = u_log_parse_level(tok);
			if (l >= 0)
				global_level = l;
			continue;
		}
		*colon = '\0';
		int l = u_log_parse_level(colon + 1);
		if (l < 0 || topic_count == MAX_TOPICS)
			continue;
		snprintf(topics[topic_count].name,
			 sizeof(topics[topic_count].name), "%s", tok);
		topics[topic_count++].level = l;
	}
}

static void
log_setup(void)
{
	const char *spec = getenv(u_option_desc(U_OPT_LOG_LEVEL)->name);
	const char *file = getenv(u_option_desc(U_OPT_LOG_FILE)->name);
	if (spec)
		parse_spec(spec);
	if (file && *file) {
		int fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
			      0644);
		if (fd >= 0)
			log_fd = fd;
	}
	int max = global_level;
	for (int i = 0; i < topic_count; i++)
		if (topics[i].level > max)
			max = topics[i].level;
	__atomic_store_n(&u_log_max_level, max, __ATOMIC_RELEASE);
}

int
u_log_init(void)
{
	pthread_once(&log_once, log_setup);
	return __atomic_load_n(&u_log_max_level, __ATOMIC_ACQUIRE);
}

int
u_log_level(const char *topic)
{
	u_log_init();
	int n = __atomic_load_n(&topic_count, __ATOMIC_ACQUIRE);
	for (int i = 0; i < n; i++)
		if (topic && !strcmp(topics[i].name, topic))
			return __atomic_load_n(&topics[i].level,
					       __ATOMIC_ACQUIRE);
	return __atomic_load_n(&global_level, __ATOMIC_ACQUIRE);
}

int
u_log_set_level(int level)
{
	if (level < U_LOG_NONE || level > U_LOG_TRACE)
		return -1;
	u_log_init();
	__atomic_store_n(&topic_count, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&global_level, level, __ATOMIC_RELEASE);
	__atomic_store_n(&u_log_max_level, level, __ATOMIC_RELEASE);
	return 0;
}

int
u_log_set_topic_level(const char *topic, int level)
{
	if (!topic || level < U_LOG_NONE || level > U_LOG_TRACE)
		return -1;
	u_log_init();
	int n = __atomic_load_n(&topic_count, __ATOMIC_ACQUIRE);
	int i = 0;
	while (i < n && strcmp(topics[i].name, topic))
		i++;
	if (i == n) {
		if (n == MAX_TOPICS)
			return -1;
		snprintf(topics[n].name, sizeof(topics[n].name), "%s", topic);
		topics[n].level = level;
		__atomic_store_n(&topic_count, n + 1, __ATOMIC_RELEASE);
	} else {
		__atomic_store_n(&topics[i].level, level, __ATOMIC_RELEASE);
	}
	int max = __atomic_load_n(&global_level, __ATOMIC_ACQUIRE);
	n = __atomic_load_n(&topic_count, __ATOMIC_ACQUIRE);
	for (int k = 0; k < n; k++)
		if (topics[k].level > max)
			max = topics[k].level;
	__atomic_store_n(&u_log_max_level, max, __ATOMIC_RELEASE);
	return 0;
}

int
u_log_set_file(const char *path)
{
	if (!path || !*path)
		return -EINVAL;
	u_log_init();
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	/* A file already open: replaced in place (dup3 is atomic, so a
	 * line being written goes to one or the other); else switch. */
	int old = __atomic_load_n(&log_fd, __ATOMIC_ACQUIRE);
	if (old != 2) {
		int r = dup3(fd, old, O_CLOEXEC) < 0 ? -errno : 0;
		close(fd);
		return r;
	}
	__atomic_store_n(&log_fd, fd, __ATOMIC_RELEASE);
	return 0;
}

int
u_log_file_named(void)
{
	const char *file = getenv(u_option_desc(U_OPT_LOG_FILE)->name);
	return file && *file;
}

int
u_log_topic_named(const char *topic)
{
	const char *spec = getenv(u_option_desc(U_OPT_LOG_LEVEL)->name);
	if (!spec || !topic || !*topic)
		return 0;
	size_t tl = strlen(topic);
	for (const char *p = spec; *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len > tl && !strncmp(p, topic, tl) && p[tl] == ':')
			return 1;
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

int
u_log_topic_enabled(int level, const char *topic)
{
	if (!__atomic_load_n(&topic_count, __ATOMIC_ACQUIRE))
		return level <= __atomic_load_n(&global_level,
						__ATOMIC_ACQUIRE);
	return level <= u_log_level(topic);
}

void
u_log_write(int level, const char *topic, const char *func, const char *fmt,
	    ...)
{
	char line[1024];
	int n = snprintf(line, sizeof(line), "zemem[%d] %s %s: %s: ",
			 (int)getpid(), u_log_level_name(level), topic, func);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(line)) {
		va_list ap;
		va_start(ap, fmt);
		int m = vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
		va_end(ap);
		if (m > 0)
			n += m;
	}
	if ((size_t)n >= sizeof(line) - 1)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	ssize_t w = write(__atomic_load_n(&log_fd, __ATOMIC_ACQUIRE), line,
			  (size_t)n);
	(void)w;
}
