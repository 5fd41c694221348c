// SPDX-License-Identifier: MIT
/*
 * val_layer: the layer's configuration, its findings and sites, and the
 * report at process exit.
 *
 * Vocabulary: see val.h. A finding is one line:
 *   zemem-validation[<pid>] <category>: <entry point>(<arguments>): <what
 *   is wrong>[; <record> allocated by <site>, freed by <site>] -> <result>
 * where <category> is parameter, lifetime, driver or leak, and <result> is
 * the code the layer returned instead of calling the driver (or, for
 * findings that let the call go ahead, the driver's result). Lines are
 * written with one write(2) each, to stderr or ZEMEM_VALIDATION_LOG
 * (opened O_APPEND, so processes sharing the file do not interleave).
 *
 * Locking: val_cfg is written once under pthread_once before any getter
 * returns, then only read. val_next_lock serialises the getters. fork()
 * takes val_lock around itself, so the child never inherits it held.
 */
#include "val.h"

#include "u_log.h"
#include "u_options.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct val_config val_cfg = { .log_fd = STDERR_FILENO };

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t val_next_lock = PTHREAD_MUTEX_INITIALIZER;
static bool initialized;

/* fork: no thread may hold val_lock or a shard lock in the child. */
static void
fork_prepare(void)
{
	val_world_lock();
	/* The child has one thread: the others' records must be shared. */
	val_own_steal_all();
}

static void
fork_release(void)
{
	val_world_unlock();
}

/* The child's shard locks: biased as the parent's (its one thread is the
 * one that forked), membarrier registered for the child's own memory. */
static void
fork_child(void)
{
	val_bias_init();
	val_own_fork_child();
	val_world_unlock();
}

static void
init_once_fn(void)
{
	/* The switches and what follows from them: the mode's entry. */
	unsigned m = (u_option_u64(U_OPT_VAL_PARAMETER) ? VAL_MODE_PARAMS : 0) |
		     (u_option_u64(U_OPT_VAL_LIFETIME) ? VAL_MODE_LIFETIME : 0) |
		     (u_option_u64(U_OPT_VAL_LEAK) ? VAL_MODE_LEAK : 0);
	int log_fd = val_cfg.log_fd;
	val_cfg = val_cfg_modes[m];
	val_cfg.log_fd = log_fd;
	val_cfg.abort_on_error = u_option_u64(U_OPT_VAL_ABORT);
	val_cfg.backtrace = u_option_u64(U_OPT_VAL_BACKTRACE);
	if (val_cfg.backtrace)
		val_cfg.mode = 0;  /* the wrappers that read val_cfg */
	val_leak_init();
	val_bias_init();
	pthread_atfork(fork_prepare, fork_release, fork_child);
	const char *log = u_option_str(U_OPT_VAL_LOG);
	if (log && *log) {
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
			      0644);
		if (fd < 0)
			u_warn("val", "cannot open ZEMEM_VALIDATION_LOG=%s: %s; "
			       "findings go to stderr", log, strerror(errno));
		else
			val_cfg.log_fd = fd;
	}
	if (val_cfg.backtrace) {
		/* The first backtrace() loads the unwinder: do it now, not
		 * in the middle of a call. */
		void *frames[2];
		backtrace(frames, 2);
	}
	if (!val_cfg.enabled)
		u_info("val", "no validation switch is set "
		       "(ZE_ENABLE_PARAMETER_VALIDATION, "
		       "ZE_ENABLE_HANDLE_LIFETIME, "
		       "ZEL_ENABLE_BASIC_LEAK_CHECKER): the layer passes "
		       "every call through untouched");
	initialized = true;
}

void
val_init(void)
{
	pthread_once(&init_once, init_once_fn);
}

ze_result_t
val_getter_begin(ze_api_version_t version, const void *table)
{
	if (ZE_MAJOR_VERSION(version) != 1)
		return ZE_RESULT_ERROR_UNSUPPORTED_VERSION;
	if (!table)
		return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
	val_init();
	return ZE_RESULT_SUCCESS;
}

void
val_lock_next(void)
{
	pthread_mutex_lock(&val_next_lock);
}

void
val_unlock_next(void)
{
	pthread_mutex_unlock(&val_next_lock);
}

/* Append to a line, never past its end; *n may reach cap - 1. */
static void __attribute__((format(printf, 4, 0)))
vappend(char *buf, size_t *n, size_t cap, const char *fmt, va_list ap)
{
	if (*n >= cap - 1)
		return;
	int k = vsnprintf(buf + *n, cap - *n, fmt, ap);
	if (k > 0)
		*n += (size_t)k < cap - *n ? (size_t)k : cap - *n - 1;
}

static void __attribute__((format(printf, 4, 5)))
append(char *buf, size_t *n, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vappend(buf, n, cap, fmt, ap);
	va_end(ap);
}

void
val_write_text(const char *text, size_t len)
{
	int saved = errno;
	while (len) {
		ssize_t k = write(val_cfg.log_fd, text, len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		text += k;
		len -= (size_t)k;
	}
	errno = saved;
}

static const char *const category_names[] = {
	[VAL_CAT_PARAMETER] = "parameter",
	[VAL_CAT_LIFETIME] = "lifetime",
	[VAL_CAT_DRIVER] = "driver",
	[VAL_CAT_LEAK] = "leak",
};

static void __attribute__((format(printf, 5, 0)))
emit(enum val_category cat, const struct val_call *call, ze_result_t res,
     bool passed, const char *fmt, va_list ap)
{
	char line[VAL_LINE_MAX];
	size_t n = 0, cap = sizeof(line) - 1;
	append(line, &n, cap, "zemem-validation[%d] %s: ", (int)getpid(),
	       category_names[cat]);
	if (call) {
		append(line, &n, cap, "%s(", val_ep_name(call->ep));
		if (n < cap - 1) {
			int k = val_format_args(call, line + n, cap - n);
			if (k > 0)
				n += (size_t)k < cap - n ? (size_t)k
							 : cap - n - 1;
		}
		append(line, &n, cap, "): ");
	} else {
		append(line, &n, cap, "at exit: ");
	}
	vappend(line, &n, cap, fmt, ap);
	if (call)
		append(line, &n, cap, " -> %s%s", val_result_name(res),
		       passed ? " (from the driver)" : "");
	line[n++] = '\n';
	val_write_text(line, n);
	if (val_cfg.abort_on_error) {
		static const char msg[] = "zemem-validation: aborting on the "
					  "first finding "
					  "(ZEMEM_VALIDATION_ABORT=1)\n";
		val_write_text(msg, sizeof(msg) - 1);
		abort();
	}
}

ze_result_t
val_report(enum val_category cat, const struct val_call *call,
	   ze_result_t res, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit(cat, call, res, false, fmt, ap);
	va_end(ap);
	return res;
}

void
val_note(enum val_category cat, const struct val_call *call, ze_result_t res,
	 const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit(cat, call, res, true, fmt, ap);
	va_end(ap);
}

ze_result_t
val_null_handle(const struct val_call *call, const char *name)
{
	return val_report(VAL_CAT_PARAMETER, call,
			  ZE_RESULT_ERROR_INVALID_NULL_HANDLE, "%s is NULL",
			  name);
}

void
val_site_record_bt(struct val_site *s)
{
	s->bt = malloc(sizeof(*s->bt));
	if (s->bt)
		s->bt->n = backtrace(s->bt->frames, VAL_MAX_FRAMES);
}

void
val_site_clear_bt(struct val_site *s)
{
	free(s->bt);
	s->bt = NULL;
}

/* Frames a reader does not care about: the layer's own, and those of a
 * sanitizer runtime that intercepts backtrace(). */
static bool
skip_frame(void *addr)
{
	static void *self_base;
	Dl_info self, info;
	if (!self_base && dladdr((void *)val_site_format, &self))
		self_base = self.dli_fbase;
	if (!dladdr(addr, &info))
		return false;
	if (info.dli_fbase == self_base)
		return true;
	const char *file = info.dli_fname ? strrchr(info.dli_fname, '/') : NULL;
	file = file ? file + 1 : info.dli_fname ? info.dli_fname : "";
	return !strncmp(file, "libasan", 7) || !strncmp(file, "libubsan", 8) ||
	       !strncmp(file, "libtsan", 7) || !strncmp(file, "liblsan", 7);
}

static void
format_frame(char *buf, size_t *n, size_t cap, void *addr)
{
	Dl_info info;
	if (!dladdr(addr, &info) || !info.dli_fname) {
		append(buf, n, cap, "%p", addr);
		return;
	}
	const char *file = strrchr(info.dli_fname, '/');
	file = file ? file + 1 : info.dli_fname;
	if (info.dli_sname)
		append(buf, n, cap, "%s+0x%lx (%s)", info.dli_sname,
		       (unsigned long)((char *)addr - (char *)info.dli_saddr),
		       file);
	else
		append(buf, n, cap, "%s+0x%lx", file,
		       (unsigned long)((char *)addr -
				       (char *)info.dli_fbase));
}

const char *
val_site_format(const struct val_site *s, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	append(buf, &n, len, "by %s", s->ep || s->bt ? val_ep_name(s->ep)
						    : "?");
	if (!s->bt)
		return buf;
	int printed = 0;
	for (int i = 0; i < s->bt->n && printed < VAL_PRINT_FRAMES; i++) {
		void *pc = s->bt->frames[i];
		if (skip_frame(pc))
			continue;
		append(buf, &n, len, printed ? " < " : " at ");
		/* Return addresses point after the call: look up pc - 1. */
		format_frame(buf, &n, len, (char *)pc - 1);
		printed++;
	}
	return buf;
}

const char *
val_fmt_bytes(char *buf, size_t len, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t o = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && o + 3 < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%02x", b[i]);
	if (o + 3 < len && 2 * n > o)
		snprintf(buf + o, len - o, "..");
	return buf;
}

__attribute__((destructor)) static void
val_fini(void)
{
	if (initialized && val_cfg.leak)
		val_leak_report(NULL, NULL, ZE_RESULT_SUCCESS);
	/* A loader may unload the layer (Intel's does at its teardown)
	 * while threads that called it live on: their exits must not run
	 * this library's handlers, which go with it. */
	val_leak_fini();
	val_own_fini();
}
