// SPDX-License-Identifier: MIT
/*
 * u_log: leveled logging to stderr (or ZEMEM_LOG_FILE).
 *
 * Levels: error < warn < info < debug < trace. The threshold comes from
 * ZEMEM_LOG_LEVEL, e.g. "warn" or "info,ipc:debug,usm:trace" (a global level
 * followed by per-topic overrides). The macros test the level before any
 * formatting happens and keep errno intact, so they are cheap on hot paths
 * when the level is off. Line format:
 *   zemem[pid] LEVEL topic: function: message
 */
#ifndef ZEMEM_U_LOG_H
#define ZEMEM_U_LOG_H

#include <errno.h>

enum u_log_level {
	U_LOG_NONE = 0,
	U_LOG_ERROR,
	U_LOG_WARN,
	U_LOG_INFO,
	U_LOG_DEBUG,
	U_LOG_TRACE,
};

/* Returns the threshold that applies to topic (parses options once). */
int u_log_level(const char *topic);
/* Highest level enabled for any topic; -1 until the options are parsed. */
extern int u_log_max_level;
int u_log_init(void);
int u_log_topic_enabled(int level, const char *topic);
static inline int
u_log_enabled(int level, const char *topic)
{
	int max = __atomic_load_n(&u_log_max_level, __ATOMIC_RELAXED);
	if (max < 0)
		max = u_log_init();
	return level <= max && u_log_topic_enabled(level, topic);
}
void u_log_write(int level, const char *topic, const char *func,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Sets the threshold of every topic to level (U_LOG_NONE..U_LOG_TRACE),
 * replacing ZEMEM_LOG_LEVEL's (per-topic overrides dropped); -1 when level
 * is out of range. For a program that changes it at run time. */
int u_log_set_level(int level);
/* Sets the threshold of one topic (added, or replacing its override),
 * leaving the others as they are; -1 when level is out of range or the
 * table of topics is full. For a library whose API takes a log level. */
int u_log_set_topic_level(const char *topic, int level);
/* Appends the log lines to path from now on (0), or -errno and nothing
 * changes. For a library whose own options name a log file. */
int u_log_set_file(const char *path);
/* 1 when ZEMEM_LOG_FILE is set. */
int u_log_file_named(void);
/* 1 when ZEMEM_LOG_LEVEL names topic itself (e.g. "warn,wm:debug"). */
int u_log_topic_named(const char *topic);
/* Name of a level ("error", ...); "?" when out of range. */
const char *u_log_level_name(int level);
/* Parse a level name; returns -1 when unknown. */
int u_log_parse_level(const char *s);

#define U_LOG(level, topic, ...)                                              \
	do {                                                                  \
		if (u_log_enabled((level), (topic))) {                        \
			int u_log_saved_errno_ = errno;                       \
			u_log_write((level), (topic), __func__, __VA_ARGS__); \
			errno = u_log_saved_errno_;                           \
		}                                                             \
	} while (0)

#define u_err(topic, ...) U_LOG(U_LOG_ERROR, topic, __VA_ARGS__)
#define u_warn(topic, ...) U_LOG(U_LOG_WARN, topic, __VA_ARGS__)
#define u_info(topic, ...) U_LOG(U_LOG_INFO, topic, __VA_ARGS__)
#define u_dbg(topic, ...) U_LOG(U_LOG_DEBUG, topic, __VA_ARGS__)
#define u_trace(topic, ...) U_LOG(U_LOG_TRACE, topic, __VA_ARGS__)

#endif
