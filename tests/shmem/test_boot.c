// SPDX-License-Identifier: MIT
/*
 * test_boot: the bootstrap (shmem/sh_boot*.c) and zeshrun.
 *
 * Jobs of boot_pe (one PE, its scenarios are described there) started by
 * zeshrun, by hand (the in-PE root of shmemx_get_uniqueid), or by mpirun
 * (argument "mpirun": that suite alone; it exits 77 with the reason when
 * mpirun is absent). In-process cases check the unique id's text, bad
 * input, the handshake's refusals and that nothing leaks.
 * Every job runs in a fresh directory ($BOOT_DIR) with a shared counter
 * file ($BOOT_SHM); its stderr is kept in $BOOT_DIR/err and checked.
 */
#include "sh_boot_impl.h"

#include "check_run.h"
#include "leakcheck.h"
#include "mpirun_crash.h"
#include "u_options.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[256];
static char shm[300];
static const char *mpirun;
static const char *shmem_pe;     /* argument "grow": the shmem_pe program */
static bool asan_set;

static void
job_setup(void)
{
	int fd;

	snprintf(dir, sizeof(dir), "/tmp/zeshmem-boot-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(shm, sizeof(shm), "%s/shm", dir);
	fd = open(shm, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 4096), 0);
	close(fd);
	setenv("BOOT_DIR", dir, 1);
	setenv("BOOT_SHM", shm, 1);
	/* No job of ours inherits an outer one. */
	unsetenv("ZESHMEM_UNIQUEID");
	unsetenv("ZESHMEM_RANK");
	unsetenv("ZESHMEM_NRANKS");
	unsetenv("ZESHMEM_LOCAL_RANK");
	unsetenv("ZESHMEM_BOOTSTRAP");
	unsetenv("PMIX_RANK");
}

static void
job_teardown(void)
{
	char cmd[900];

	/* The directory and a stand-in mpirun beside it, if a test left one. */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s.mpirun' '%s.mpirun.runs'",
		 dir, dir, dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
}

/* Empties $BOOT_DIR for a job run again: a zeroed counter file only. */
static void
job_reset(void)
{
	char cmd[400];
	int fd;

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'/*", dir);
	ck_assert_int_eq(system(cmd), 0);
	fd = open(shm, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 4096), 0);
	close(fd);
}

/* Reads $BOOT_DIR/name into buf ("" when absent). */
static char *
slurp(const char *name, char *buf, size_t size)
{
	char path[400];
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	buf[0] = 0;
	f = fopen(path, "r");
	if (f) {
		n = fread(buf, 1, size - 1, f);
		fclose(f);
	}
	buf[n] = 0;
	return buf;
}

/* Where start() sends stdout: "err" (with stderr) unless set; and the CPUs
 * the started process may use, when set. */
static const char *start_out = "err";
static const cpu_set_t *start_cpus;

/* Starts argv with stdout and stderr appended to $BOOT_DIR/err. */
static pid_t
start(char *const argv[])
{
	char path[400], opath[400];
	pid_t pid;

	snprintf(path, sizeof(path), "%s/err", dir);
	snprintf(opath, sizeof(opath), "%s/%s", dir, start_out);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd = open(path, O_CREAT | O_WRONLY | O_APPEND, 0600);
		int ofd = open(opath, O_CREAT | O_WRONLY | O_APPEND, 0600);
		if (fd < 0 || ofd < 0)
			_exit(126);
		if (start_cpus &&
		    sched_setaffinity(0, sizeof(*start_cpus), start_cpus))
			_exit(125);
		dup2(ofd, 1);
		dup2(fd, 2);
		close(fd);
		close(ofd);
		execvp(argv[0], argv);
		_exit(127);
	}
	return pid;
}

/* The exit code as a shell shows it (128 + signal). */
static int
finish(pid_t pid)
{
	int ws;

	ck_assert_int_eq(waitpid(pid, &ws, 0), pid);
	return WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : WEXITSTATUS(ws);
}

static int
run(char *const argv[])
{
	return finish(start(argv));
}

static void
expect_out(int pe, const char *word)
{
	char name[32], buf[4096];

	snprintf(name, sizeof(name), "out.%d", pe);
	slurp(name, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, word), "PE %d: out '%s', want '%s'", pe, buf,
		      word);
}

static void
expect_no_out(int n, const char *word)
{
	char name[32], buf[4096];

	for (int pe = 0; pe < n; pe++) {
		snprintf(name, sizeof(name), "out.%d", pe);
		slurp(name, buf, sizeof(buf));
		ck_assert_msg(!strstr(buf, word), "PE %d wrote '%s'", pe, word);
	}
}

static void
expect_err(const char *text)
{
	char buf[65536];

	slurp("err", buf, sizeof(buf));
	ck_assert_msg(strstr(buf, text), "stderr lacks '%s':\n%s", text, buf);
}

static int
count_in_err(const char *text)
{
	static char buf[65536];
	int n = 0;

	slurp("err", buf, sizeof(buf));
	for (char *p = buf; (p = strstr(p, text)); p += strlen(text))
		n++;
	return n;
}

/* ---- zeshrun + the unique id ------------------------------------------ */

static void
zeshrun_rounds(int n, const char *rounds, const char *cycles)
{
	char nbuf[16];
	struct leakcheck lc;

	snprintf(nbuf, sizeof(nbuf), "%d", n);
	char *argv[] = { (char *)ZESHRUN, "-n", nbuf, "--", (char *)BOOT_PE,
			 "rounds", (char *)rounds, (char *)cycles, NULL };
	leakcheck_begin(&lc);
	ck_assert_int_eq(run(argv), 0);
	leakcheck_end(&lc);
	for (int pe = 0; pe < n; pe++)
		expect_out(pe, "ok");
	ck_assert_int_eq(count_in_err("zeshmem:"), 0);
}

START_TEST(test_zeshrun_rounds_2)
{
	zeshrun_rounds(2, "300", "2");
}
END_TEST

START_TEST(test_zeshrun_rounds_3)
{
	zeshrun_rounds(3, "200", "3");
}
END_TEST

START_TEST(test_zeshrun_rounds_8)
{
	zeshrun_rounds(8, "60", "2");
}
END_TEST

START_TEST(test_zeshrun_bad_args)
{
	char *a1[] = { (char *)ZESHRUN, "-n", "0", (char *)BOOT_PE, NULL };
	char *a2[] = { (char *)ZESHRUN, "-n", "3", NULL };
	char *a3[] = { (char *)ZESHRUN, "-n", "x3", (char *)BOOT_PE, NULL };
	char *a4[] = { (char *)ZESHRUN, "-n", "2", "/nonexistent/prog", NULL };

	ck_assert_int_eq(run(a1), 2);
	ck_assert_int_eq(run(a2), 2);
	ck_assert_int_eq(run(a3), 2);
	ck_assert_int_eq(run(a4), 127);
	expect_err("zeshrun: cannot run /nonexistent/prog");
	expect_err("zeshmem: PE ");
}
END_TEST

/* mpirun's spellings: -np N, --help and --version (exit 0, on stdout);
 * bad usage exits 2 with a message. */
START_TEST(test_zeshrun_np_help_version)
{
	char buf[4096];
	char *np[] = { (char *)ZESHRUN, "-np", "3", "--", (char *)BOOT_PE,
		       "rounds", "20", NULL };
	char *np2[] = { (char *)ZESHRUN, "--np", "2", (char *)BOOT_PE,
			"rounds", "20", NULL };
	char *help[] = { (char *)ZESHRUN, "--help", NULL };
	char *help1[] = { (char *)ZESHRUN, "-help", NULL };
	char *ver[] = { (char *)ZESHRUN, "--version", NULL };
	char *bad[][6] = {
		{ (char *)ZESHRUN, "-np", NULL },
		{ (char *)ZESHRUN, "-np", "0", (char *)BOOT_PE, NULL },
		{ (char *)ZESHRUN, "--frob", "-n", "2", (char *)BOOT_PE, NULL },
		{ (char *)ZESHRUN, "-n", "2", "--bind-to", "board", NULL },
		{ (char *)ZESHRUN, "-n", "2", "--bind-to", NULL },
	};

	ck_assert_int_eq(run(np), 0);
	for (int pe = 0; pe < 3; pe++)
		expect_out(pe, "ok");
	job_reset();
	ck_assert_int_eq(run(np2), 0);
	for (int pe = 0; pe < 2; pe++)
		expect_out(pe, "ok");
	job_reset();
	start_out = "stdout";
	ck_assert_int_eq(run(help), 0);
	ck_assert_int_eq(run(help1), 0);
	ck_assert_int_eq(run(ver), 0);
	start_out = "err";
	slurp("stdout", buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "usage: zeshrun -n N"), "%s", buf);
	ck_assert_msg(strstr(buf, "-np N"), "%s", buf);
	ck_assert_msg(strstr(buf, "--bind-to"), "%s", buf);
	ck_assert_msg(strstr(buf, "zeshrun (zemem) " ZEMEM_VERSION_STRING
				  "\n"), "%s", buf);
	ck_assert_str_eq(slurp("err", buf, sizeof(buf)), "");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		job_reset();
		ck_assert_int_eq(run(bad[i]), 2);
		ck_assert_msg(strlen(slurp("err", buf, sizeof(buf))) > 10,
			      "case %zu: no message", i);
		if (i == 3)
			expect_err("--bind-to board: want none, core or "
				   "socket");
	}
}
END_TEST

/* The CPUs of a set as /proc's Cpus_allowed_list writes them. */
static void
list_of(const cpu_set_t *set, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = 0;
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, set))
			continue;
		int e = c;
		while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
			e++;
		len += (size_t)snprintf(buf + len, size - len, "%s%d",
					len ? "," : "", c);
		if (e > c)
			len += (size_t)snprintf(buf + len, size - len, "-%d", e);
		ck_assert_uint_lt(len, size - 16);
		c = e;
	}
}

/* A job of 3 affinity PEs under zeshrun with args; the PEs' stdout in
 * $BOOT_DIR/stdout. Checks that each PE's mask is what zeshrun reported
 * (when report) and returns PE k's list in lists[k]. */
static void
bound_job(char *const extra[], bool report, char lists[3][256])
{
	char *argv[16] = { (char *)ZESHRUN, "-n", "3" };
	int a = 3;
	char out[8192], err[8192], line[400];

	for (int i = 0; extra[i]; i++)
		argv[a++] = extra[i];
	if (report)
		argv[a++] = "--report-bindings";
	argv[a++] = "--";
	argv[a++] = (char *)BOOT_PE;
	argv[a++] = "affinity";
	argv[a] = NULL;
	job_reset();
	start_out = "stdout";
	int rc = run(argv);
	start_out = "err";
	ck_assert_int_eq(rc, 0);
	slurp("stdout", out, sizeof(out));
	slurp("err", err, sizeof(err));
	for (int k = 0; k < 3; k++) {
		char pre[32];
		snprintf(pre, sizeof(pre), "pe %d cpus ", k);
		char *p = strstr(out, pre);
		ck_assert_msg(p, "no PE %d in:\n%s", k, out);
		p += strlen(pre);
		size_t n = strcspn(p, "\n");
		ck_assert_uint_lt(n, 256);
		memcpy(lists[k], p, n);
		lists[k][n] = 0;
		snprintf(line, sizeof(line), "zeshrun: PE %d bound to cpus %s\n",
			 k, lists[k]);
		if (report)
			ck_assert_msg(strstr(err, line), "want '%s' in:\n%s",
				      line, err);
	}
	if (!report)
		ck_assert_ptr_null(strstr(err, "bound to"));
}

/* Binding: by default local rank k runs on the k-th CPU zeshrun may use
 * (modulo their count); --bind-to none leaves the whole allowed set;
 * socket gives a set holding that CPU (all allowed without sysfs); a
 * narrower allowed set (taskset, a container) is what zeshrun maps on. */
START_TEST(test_zeshrun_bindings)
{
	cpu_set_t allowed, one;
	char all[256], want[256], lists[3][256];
	int cpus[CPU_SETSIZE], ncpu = 0;

	/* The suite's environment makes none the default (ZESHMEM_BIND_TO):
	 * zeshrun's own default here, put back at the end. */
	const char *env_bind = getenv("ZESHMEM_BIND_TO");
	char saved_bind[16] = "";
	if (env_bind)
		snprintf(saved_bind, sizeof(saved_bind), "%s", env_bind);
	unsetenv("ZESHMEM_BIND_TO");
	ck_assert_int_eq(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed))
			cpus[ncpu++] = c;
	list_of(&allowed, all, sizeof(all));
	char *dflt[] = { NULL };
	char *core[] = { "-bind-to", "core", NULL };
	char *none[] = { "--bind-to", "none", NULL };
	char *sock[] = { "--bind-to", "socket", NULL };

	for (int r = 0; r < 2; r++) {
		bound_job(r ? core : dflt, true, lists);
		for (int k = 0; k < 3; k++) {
			snprintf(want, sizeof(want), "%d", cpus[k % ncpu]);
			ck_assert_str_eq(lists[k], want);
		}
	}
	bound_job(dflt, false, lists);
	ck_assert_str_eq(lists[2], want);
	bound_job(none, true, lists);
	for (int k = 0; k < 3; k++)
		ck_assert_str_eq(lists[k], all);
	/* ZESHMEM_BIND_TO sets the default; --bind-to wins; a bad value is
	 * refused. */
	setenv("ZESHMEM_BIND_TO", "none", 1);
	bound_job(dflt, true, lists);
	for (int k = 0; k < 3; k++)
		ck_assert_str_eq(lists[k], all);
	bound_job(core, true, lists);
	for (int k = 0; k < 3; k++) {
		snprintf(want, sizeof(want), "%d", cpus[k % ncpu]);
		ck_assert_str_eq(lists[k], want);
	}
	setenv("ZESHMEM_BIND_TO", "board", 1);
	char *bad[] = { (char *)ZESHRUN, "-n", "2", "--", (char *)BOOT_PE,
			"affinity", NULL };
	job_reset();
	ck_assert_int_eq(run(bad), 2);
	expect_err("zeshrun: ZESHMEM_BIND_TO=board: want none, core or socket");
	unsetenv("ZESHMEM_BIND_TO");
	/* The run's own ZEMEM_SYSFS (a no-sysfs run sets 0) comes back. */
	const char *outer = getenv("ZEMEM_SYSFS");
	char saved[16] = "";
	if (outer)
		snprintf(saved, sizeof(saved), "%s", outer);
	for (int sysfs = 1; sysfs >= 0; sysfs--) {
		setenv("ZEMEM_SYSFS", sysfs ? "1" : "0", 1);
		bound_job(sock, true, lists);
		for (int k = 0; k < 3; k++) {
			/* The set holds the k-th CPU and only allowed ones;
			 * without sysfs it is all of them. */
			cpu_set_t s;
			CPU_ZERO(&s);
			char *p = lists[k];
			while (*p) {
				char *end;
				long a = strtol(p, &end, 10), b = a;
				if (*end == '-')
					b = strtol(end + 1, &end, 10);
				for (long c = a; c <= b; c++)
					CPU_SET((int)c, &s);
				p = *end == ',' ? end + 1 : end;
			}
			ck_assert(CPU_ISSET(cpus[k % ncpu], &s));
			CPU_AND(&s, &s, &allowed);
			ck_assert_int_eq(CPU_COUNT(&s) > 0, 1);
			char back[256];
			list_of(&s, back, sizeof(back));
			ck_assert_str_eq(back, lists[k]);
			if (!sysfs)
				ck_assert_str_eq(lists[k], all);
		}
	}
	if (outer)
		setenv("ZEMEM_SYSFS", saved, 1);
	else
		unsetenv("ZEMEM_SYSFS");
	/* zeshrun started on the last allowed CPU alone: every PE there,
	 * and none is all it may have. */
	CPU_ZERO(&one);
	CPU_SET(cpus[ncpu - 1], &one);
	snprintf(want, sizeof(want), "%d", cpus[ncpu - 1]);
	start_cpus = &one;
	bound_job(dflt, true, lists);
	for (int k = 0; k < 3; k++)
		ck_assert_str_eq(lists[k], want);
	bound_job(none, true, lists);
	start_cpus = NULL;
	for (int k = 0; k < 3; k++)
		ck_assert_str_eq(lists[k], want);
	if (env_bind)
		setenv("ZESHMEM_BIND_TO", saved_bind, 1);
}
END_TEST

/* Rank 0 reads zeshrun's stdin (a file here), the others /dev/null; every
 * PE has its rank, the job size and the id in its environment. */
START_TEST(test_zeshrun_stdin_env)
{
	char path[400], buf[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/in", dir);
	fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "hello\n", 6), 6);
	close(fd);
	char *argv[] = { (char *)ZESHRUN, "-n", "2", "/bin/sh", "-c",
			 "read x; echo \"pe $ZESHMEM_RANK/$ZESHMEM_NRANKS "
			 "local $ZESHMEM_LOCAL_RANK read [$x] "
			 "id ${#ZESHMEM_UNIQUEID}\"", NULL };
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	int saved = fcntl(0, F_DUPFD_CLOEXEC, 3);
	dup2(fd, 0);
	close(fd);
	int rc = run(argv);
	dup2(saved, 0);
	close(saved);
	ck_assert_int_eq(rc, 0);
	slurp("err", buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "pe 0/2 local 0 read [hello] id 256\n"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "pe 1/2 local 1 read [] id 256\n"), "%s",
		      buf);
}
END_TEST

/* The in-PE root: rank 0 of the program creates the id. */
START_TEST(test_selfroot_3)
{
	pid_t pid[3];

	for (int i = 0; i < 3; i++) {
		char r[8];
		snprintf(r, sizeof(r), "%d", i);
		setenv("ZESHMEM_RANK", r, 1);
		setenv("ZESHMEM_NRANKS", "3", 1);
		char *argv[] = { (char *)BOOT_PE, "selfroot", "100", NULL };
		pid[i] = start(argv);
	}
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(finish(pid[i]), 0);
	for (int i = 0; i < 3; i++)
		expect_out(i, "ok");
}
END_TEST

/* The in-PE root or another PE dies: the others' barrier fails. */
START_TEST(test_selfroot_killed)
{
	static const char *const victim[] = { "0", "2" };
	pid_t pid[3];
	int want_dead = _i == 0 ? 0 : 2;

	setenv("ZESHMEM_TIMEOUT", "20", 1);
	for (int i = 0; i < 3; i++) {
		char r[8];
		snprintf(r, sizeof(r), "%d", i);
		setenv("ZESHMEM_RANK", r, 1);
		setenv("ZESHMEM_NRANKS", "3", 1);
		char *argv[] = { (char *)BOOT_PE, "selfroot", "5",
				 (char *)victim[_i], NULL };
		pid[i] = start(argv);
	}
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(finish(pid[i]),
				 i == want_dead ? 128 + SIGKILL : 0);
	unsetenv("ZESHMEM_TIMEOUT");
	for (int i = 0; i < 3; i++)
		if (i != want_dead)
			expect_out(i, "hostdown");
	expect_err(_i == 0 ? "barrier: PE 0 died (the bootstrap root)"
			   : "barrier: PE 2 died");
}
END_TEST

START_TEST(test_killed_pe)
{
	setenv("ZESHMEM_TIMEOUT", "20", 1);
	char *argv[] = { (char *)ZESHRUN, "-n", "3", "-g", "30",
			 (char *)BOOT_PE, "kill", "1", NULL };
	ck_assert_int_eq(run(argv), 128 + SIGKILL);
	unsetenv("ZESHMEM_TIMEOUT");
	expect_err("zeshmem: PE 1 (pid ");
	expect_err(") killed by signal 9\n");
	ck_assert_int_eq(count_in_err("zeshmem: PE"), 1);
	/* The others' barrier failed (they ignore SIGTERM, so they lived to
	 * say so) naming the dead PE. */
	expect_out(0, "hostdown");
	expect_out(2, "hostdown");
	expect_err("PE 0: barrier: PE 1 died");
	expect_err("PE 2: barrier: PE 1 died");
}
END_TEST

START_TEST(test_exit_status)
{
	char *argv[] = { (char *)ZESHRUN, "-n", "3", (char *)BOOT_PE, "exit",
			 "2", "7", NULL };
	ck_assert_int_eq(run(argv), 7);
	expect_err("zeshmem: PE 2 (pid ");
	expect_err(") exited with status 7\n");
	ck_assert_int_eq(count_in_err("zeshmem: PE"), 1);
	expect_out(2, "exiting");
}
END_TEST

static void
wait_ready(int n)
{
	char path[400];
	int i, have = 0;

	for (i = 0; i < 3000 && have < n; i++) {
		have = 0;
		for (int pe = 0; pe < n; pe++) {
			snprintf(path, sizeof(path), "%s/ready.%d", dir, pe);
			have += access(path, F_OK) == 0;
		}
		if (have < n)
			poll(NULL, 0, 10);
	}
	ck_assert_int_eq(have, n);
}

START_TEST(test_signal_forward)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	int sig = sigs[_i];
	char line[64];

	char *argv[] = { (char *)ZESHRUN, "-n", "3", (char *)BOOT_PE, "wait",
			 NULL };
	pid_t pid = start(argv);
	wait_ready(3);
	ck_assert_int_eq(kill(pid, sig), 0);
	ck_assert_int_eq(finish(pid), 128 + sig);
	snprintf(line, sizeof(line), ") killed by signal %d\n", sig);
	expect_err(line);
	ck_assert_int_eq(count_in_err("zeshmem: PE"), 1);
	expect_no_out(3, "nosignal");
}
END_TEST

START_TEST(test_abort_status)
{
	/* The others ignore SIGTERM and zeshrun's grace is long: only the
	 * relayed abort can end them before they write "noabort". */
	char *argv[] = { (char *)ZESHRUN, "-n", "4", "-g", "120",
			 (char *)BOOT_PE, "abort", "1", "5", NULL };
	ck_assert_int_eq(run(argv), 5);
	expect_no_out(4, "noabort");
	expect_no_out(4, "returned");
	expect_err(") exited with status 5\n");
}
END_TEST

static int
proc_gone(pid_t pid)
{
	char path[64], buf[512];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 1;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	char *p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'Z';
}

START_TEST(test_no_orphans)
{
	char *argv[] = { (char *)ZESHRUN, "-n", "3", (char *)BOOT_PE, "orphan",
			 "1", NULL };
	pid_t kids[3];

	ck_assert_int_eq(run(argv), 1);
	expect_err(") exited with status 1\n");
	for (int pe = 0; pe < 3; pe++) {
		char name[16], buf[64];
		snprintf(name, sizeof(name), "out.%d", pe);
		kids[pe] = atoi(slurp(name, buf, sizeof(buf)));
		ck_assert_int_gt(kids[pe], 1);
	}
	/* SIGKILL was sent before zeshrun returned; init reaps them. */
	for (int pe = 0; pe < 3; pe++) {
		int i;
		for (i = 0; i < 500 && !proc_gone(kids[pe]); i++)
			poll(NULL, 0, 10);
		ck_assert_msg(proc_gone(kids[pe]), "PE %d's child %d lives",
			      pe, (int)kids[pe]);
	}
}
END_TEST

START_TEST(test_single_pe)
{
	char *argv[] = { (char *)BOOT_PE, "single", NULL };

	ck_assert_int_eq(run(argv), 0);
	expect_err("single ok");
}
END_TEST

/* zeshrun itself killed by SIGKILL: its PEs die, and so do their
 * children and grandchildren (the job's keeper kills the process group). */
START_TEST(test_zeshrun_killed)
{
	enum { N = 3 };
	char *argv[] = { (char *)ZESHRUN, "-n", "3", (char *)BOOT_PE, "keep",
			 NULL };
	pid_t kids[2 * N];

	pid_t pid = start(argv);
	wait_ready(N);
	for (int pe = 0; pe < N; pe++) {
		char name[16], buf[64];
		int a = 0, b = 0;
		snprintf(name, sizeof(name), "out.%d", pe);
		ck_assert_int_eq(sscanf(slurp(name, buf, sizeof(buf)), "%d %d",
					&a, &b), 2);
		ck_assert_int_gt(a, 1);
		ck_assert_int_gt(b, 1);
		kids[2 * pe] = a;
		kids[2 * pe + 1] = b;
	}
	ck_assert_int_eq(kill(pid, SIGKILL), 0);
	ck_assert_int_eq(finish(pid), 128 + SIGKILL);
	/* Bounded: 5 s for what the keeper does at once. */
	for (int k = 0; k < 2 * N; k++) {
		int i;
		for (i = 0; i < 500 && !proc_gone(kids[k]); i++)
			poll(NULL, 0, 10);
		ck_assert_msg(proc_gone(kids[k]), "PE %d's %s %d lives", k / 2,
			      k % 2 ? "grandchild" : "child", (int)kids[k]);
	}
}
END_TEST

/* ---- strangers at the job's bootstrap port -----------------------------
 * A process of another uid (65534 when the test runs as root) that can
 * reach the port but does not know the job's secret: idle connections,
 * connections that send 1 byte, HELLOs with a guessed nonce, a header
 * that is no HELLO. The job must not notice, and the server must close
 * each within its deadline (1 s) while the job goes on. */

struct stranger {
	pid_t pid;
	int cmd, ans;                 /* pipes to and from it */
};

static int
stranger_conn(const struct sockaddr_in *a)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || connect(fd, (const struct sockaddr *)a, sizeof(*a)))
		_exit(20);
	return fd;
}

/* The child: for '1' a wave of 300 idle and 3 one-byte connections, for
 * '2' 100 idle, 3 one-byte, 2 guessed HELLOs and 1 header that is no
 * HELLO, for '3' 3 one-byte connections alone (each one held a server
 * that read HELLO blocking); 'c': every connection closed by the server
 * (bounded 60 s) and the guessed HELLOs answered -EACCES; 'q': exit.
 * Answers 'k' or 'n'. */
static void
stranger_main(int cmd, int ans, const struct sh_uid_info *info)
{
	static int fds[1024], bad[8];
	int n = 0, nbad = 0;
	char c;

	if (geteuid() == 0 && (setgroups(0, NULL) || setgid(65534) ||
			       setuid(65534)))
		_exit(21);
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < 1024) {
		rl.rlim_cur = rl.rlim_max < 1024 ? rl.rlim_max : 1024;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	while (read(cmd, &c, 1) == 1) {
		char ok = 'k';
		if (c == '1' || c == '2' || c == '3') {
			int idle = c == '1' ? 300 : c == '2' ? 100 : 0;
			for (int i = 0; i < idle && n < 900; i++)
				fds[n++] = stranger_conn(&info->addr);
			for (int i = 0; i < 3; i++) {
				int fd = stranger_conn(&info->addr);
				if (send(fd, "x", 1, MSG_NOSIGNAL) != 1)
					ok = 'n';
				fds[n++] = fd;
			}
			for (int i = 0; c == '2' && i < 3; i++) {
				struct {
					struct sh_msg m;
					struct sh_hello h;
				} h = { .m = { .type = i < 2 ? SH_MSG_HELLO
							     : SH_MSG_COLL,
					       .len = sizeof(struct sh_hello) },
					.h = { .nonce = info->nonce + 1 + i,
					       .nranks = 3,
					       .version = SH_UID_VERSION } };
				int fd = stranger_conn(&info->addr);
				if (send(fd, &h, sizeof(h), MSG_NOSIGNAL) !=
				    (ssize_t)sizeof(h))
					ok = 'n';
				if (i < 2)
					bad[nbad++] = fd;
				else
					fds[n++] = fd;
			}
		} else if (c == 'c') {
			/* the guessed HELLOs: refused with -EACCES */
			for (int i = 0; i < nbad; i++) {
				struct sh_msg m;
				struct pollfd p = { .fd = bad[i],
						    .events = POLLIN };
				if (poll(&p, 1, 60000) != 1 ||
				    recv(bad[i], &m, sizeof(m), MSG_WAITALL) !=
					    (ssize_t)sizeof(m) ||
				    m.type != SH_MSG_WELCOME ||
				    m.arg != -EACCES)
					ok = 'n';
				fds[n++] = bad[i];
			}
			nbad = 0;
			/* every one closed (end of file or reset), 60 s at
			 * most for all: far past their 1 s, far short of
			 * the job's ZESHMEM_TIMEOUT */
			for (int i = 0; i < n; i++) {
				struct pollfd p = { .fd = fds[i],
						    .events = POLLIN };
				char b[64];
				ssize_t got = 1;
				while (got > 0) {
					if (poll(&p, 1, 60000) != 1)
						break;
					got = recv(fds[i], b, sizeof(b), 0);
				}
				if (got > 0)
					ok = 'n';
				close(fds[i]);
			}
			n = 0;
		} else {
			_exit(0);
		}
		if (write(ans, &ok, 1) != 1)
			_exit(22);
	}
	_exit(0);
}

static void
stranger_start(struct stranger *st, const struct sh_uid_info *info)
{
	int cmd[2], ans[2];

	ck_assert_int_eq(pipe2(cmd, O_CLOEXEC), 0);
	ck_assert_int_eq(pipe2(ans, O_CLOEXEC), 0);
	st->pid = fork();
	ck_assert_int_ge(st->pid, 0);
	if (st->pid == 0) {
		close(cmd[1]);
		close(ans[0]);
		stranger_main(cmd[0], ans[1], info);
	}
	close(cmd[0]);
	close(ans[1]);
	st->cmd = cmd[1];
	st->ans = ans[0];
}

/* One command, its answer within 90 s. */
static void
stranger_do(struct stranger *st, char c)
{
	struct pollfd p = { .fd = st->ans, .events = POLLIN };
	char a = 0;

	ck_assert_int_eq(write(st->cmd, &c, 1), 1);
	ck_assert_msg(poll(&p, 1, 90000) == 1, "stranger: no answer to %c", c);
	ck_assert_int_eq(read(st->ans, &a, 1), 1);
	ck_assert_msg(a == 'k', "stranger: %c failed", c);
}

static void
stranger_end(struct stranger *st)
{
	int ws;

	ck_assert_int_eq(write(st->cmd, "q", 1), 1);
	close(st->cmd);
	close(st->ans);
	ck_assert_int_eq(waitpid(st->pid, &ws, 0), st->pid);
	ck_assert_int_eq(WIFEXITED(ws) ? WEXITSTATUS(ws) : -1, 0);
}

/* The job's root, from the id its rank 0 wrote to $BOOT_DIR/uid. */
static void
job_root(struct sh_uid_info *info)
{
	char buf[2 * SH_UID_BYTES + 8];
	uint8_t uid[SH_UID_BYTES];
	int i;

	for (i = 0; i < 3000; i++) {
		if (strlen(slurp("uid", buf, sizeof(buf))) == 2 * SH_UID_BYTES)
			break;
		poll(NULL, 0, 10);
	}
	ck_assert_msg(i < 3000, "the job wrote no id");
	ck_assert_int_eq(sh_boot_uid_from_hex(buf, uid), 0);
	ck_assert_int_eq(sh_uid_decode(uid, info), 0);
}

static void
make_file(const char *name)
{
	char path[400];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	ck_assert_int_ge(fd, 0);
	close(fd);
}

/* A new job whose port strangers crowd before its PEs connect, and that
 * meets more strangers while it runs: it ends well under a
 * ZESHMEM_TIMEOUT of 600 s, and every stranger is closed while it lives. */
START_TEST(test_strangers)
{
	struct sh_uid_info info;
	struct stranger st;

	setenv("ZESHMEM_TIMEOUT", "600", 1);
	char *argv[] = { (char *)ZESHRUN, "-n", "3", (char *)BOOT_PE,
			 "strangers", NULL };
	pid_t pid = start(argv);
	unsetenv("ZESHMEM_TIMEOUT");
	job_root(&info);
	/* zeshrun's root listens on loopback */
	ck_assert_uint_eq(ntohl(info.addr.sin_addr.s_addr), INADDR_LOOPBACK);
	stranger_start(&st, &info);
	stranger_do(&st, '1');
	make_file("go1");
	wait_ready(3);
	stranger_do(&st, '2');
	make_file("go2");
	stranger_do(&st, 'c');
	make_file("go3");
	ck_assert_int_eq(finish(pid), 0);
	stranger_end(&st);
	for (int pe = 0; pe < 3; pe++)
		expect_out(pe, "ok");
	ck_assert_int_eq(count_in_err("zeshmem:"), 0);
}
END_TEST

/* A growing shmem_malloc (a bootstrap allgather on every PE) while
 * strangers hold connections to the job's port: it succeeds. */
START_TEST(test_strangers_grow)
{
	struct sh_uid_info info;
	struct stranger st;

	setenv("ZESHMEM_TIMEOUT", "600", 1);
	setenv("ZESHMEM_SYMMETRIC_SIZE", "8M", 1);
	char *argv[] = { (char *)ZESHRUN, "-n", "2", (char *)shmem_pe,
			 "stranger_grow", NULL };
	pid_t pid = start(argv);
	unsetenv("ZESHMEM_TIMEOUT");
	unsetenv("ZESHMEM_SYMMETRIC_SIZE");
	job_root(&info);
	stranger_start(&st, &info);
	stranger_do(&st, '3');
	make_file("go");
	ck_assert_int_eq(finish(pid), 0);
	stranger_do(&st, 'c');
	stranger_end(&st);
	char buf[65536];
	slurp("err", buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "PE 0: stranger_grow ok") &&
		      strstr(buf, "PE 1: stranger_grow ok"), "%s", buf);
}
END_TEST

/* ---- in this process ------------------------------------------------- */

static void
opts_env(const char *name, const char *value)
{
	if (value)
		setenv(name, value, 1);
	else
		unsetenv(name);
	u_options_reset_for_test();
}

START_TEST(test_open_bad_input)
{
	struct sh_boot *b = (void *)1;
	uint8_t uid[SH_UID_BYTES];
	char hex[2 * SH_UID_BYTES + 1];
	struct leakcheck lc;

	leakcheck_begin(&lc);
	ck_assert_int_eq(sh_boot_open(NULL, 0, 0, NULL), -EINVAL);
	memset(uid, 0, sizeof(uid));
	ck_assert_int_eq(sh_boot_open(uid, 0, 2, &b), -EINVAL);  /* magic */
	ck_assert_ptr_null(b);
	ck_assert_int_eq(sh_boot_open(uid, 2, 2, &b), -EINVAL);  /* rank */
	ck_assert_int_eq(sh_boot_open(uid, -1, 2, &b), -EINVAL);
	ck_assert_int_eq(sh_boot_open(uid, 0, 0, &b), -EINVAL);

	/* Hex: exact length, hex digits only, round trip. */
	ck_assert_int_eq(sh_boot_uid_from_hex("abc", uid), -EINVAL);
	ck_assert_int_eq(sh_boot_uid_from_hex(NULL, uid), -EINVAL);
	memset(hex, 'a', sizeof(hex) - 1);
	hex[sizeof(hex) - 1] = 0;
	hex[17] = 'g';
	ck_assert_int_eq(sh_boot_uid_from_hex(hex, uid), -EINVAL);
	for (int i = 0; i < SH_UID_BYTES; i++)
		uid[i] = (uint8_t)(i * 13 + 1);
	sh_boot_uid_to_hex(uid, hex);
	ck_assert_uint_eq(strlen(hex), 2 * SH_UID_BYTES);
	uint8_t back[SH_UID_BYTES];
	ck_assert_int_eq(sh_boot_uid_from_hex(hex, back), 0);
	ck_assert_mem_eq(uid, back, SH_UID_BYTES);

	/* The environment's choices. */
	struct sh_boot *s;
	opts_env("ZESHMEM_BOOTSTRAP", "bogus");
	ck_assert_int_eq(sh_boot_open(NULL, 0, 0, &s), -EINVAL);
#ifndef ZESHMEM_HAVE_PMIX
	opts_env("ZESHMEM_BOOTSTRAP", "pmix");
	ck_assert_int_eq(sh_boot_open(NULL, 0, 0, &s), -EOPNOTSUPP);
#endif
	opts_env("ZESHMEM_BOOTSTRAP", "uid");
	opts_env("ZESHMEM_UNIQUEID", "00");
	ck_assert_int_eq(sh_boot_open(NULL, 0, 0, &s), -EINVAL);
	opts_env("ZESHMEM_UNIQUEID", NULL);
	opts_env("ZESHMEM_BOOTSTRAP", "single");
	ck_assert_int_eq(sh_boot_open(NULL, 0, 0, &s), 0);
	ck_assert_str_eq(s->ops->name, "single");
	ck_assert_int_eq(s->rank, 0);
	ck_assert_int_eq(s->nranks, 1);
	int x = 42, y = 0;
	ck_assert_int_eq(s->ops->allgather(s, &x, sizeof(x), &y), 0);
	ck_assert_int_eq(y, 42);
	ck_assert_int_eq(s->ops->allgather(s, NULL, 4, &y), -EINVAL);
	ck_assert_int_eq(s->ops->barrier(s), 0);
	sh_boot_close(s);
	opts_env("ZESHMEM_BOOTSTRAP", NULL);
	/* auto with nothing set: one PE. */
	ck_assert_int_eq(sh_boot_open(NULL, 0, 0, &s), 0);
	ck_assert_str_eq(s->ops->name, "single");
	sh_boot_close(s);
	sh_boot_close(NULL);
	leakcheck_end(&lc);
}
END_TEST

/* An id whose root is gone: connecting gives up after ZESHMEM_TIMEOUT. */
START_TEST(test_open_no_root)
{
	uint8_t uid[SH_UID_BYTES];
	struct sh_uid_info info;
	struct sh_boot *b;
	struct leakcheck lc;

	leakcheck_begin(&lc);
	opts_env("ZESHMEM_TIMEOUT", "1");
	int fd = sh_uid_listen("127.0.0.1", &info);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(leakcheck_fd_cloexec(fd), 1);
	close(fd);
	sh_uid_encode(&info, uid);
	ck_assert_int_eq(sh_boot_open(uid, 1, 2, &b), -ETIMEDOUT);
	opts_env("ZESHMEM_TIMEOUT", NULL);
	opts_env("ZESHMEM_BOOT_IFACE", "no-such-if0");
	ck_assert_int_eq(sh_boot_uid_create(uid), -ENODEV);
	opts_env("ZESHMEM_BOOT_IFACE", NULL);
	leakcheck_end(&lc);
}
END_TEST

/* A stranger listens where the id points and closes every connection
 * it takes (as a root does to connections it cannot place): the PE
 * tries again until ZESHMEM_TIMEOUT, then answers -ETIMEDOUT, whatever
 * its last try met. */
struct closer {
	int fd;
	atomic_bool stop;
	atomic_int taken;
};

static void *
closer_main(void *arg)
{
	struct closer *c = arg;

	while (!atomic_load(&c->stop)) {
		struct pollfd p = { .fd = c->fd, .events = POLLIN };
		if (poll(&p, 1, 20) != 1)
			continue;
		int a = accept4(c->fd, NULL, NULL, SOCK_CLOEXEC);
		if (a < 0)
			continue;
		struct linger l = { 1, 0 }; /* a reset, as soon as closed */
		setsockopt(a, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
		close(a);
		atomic_fetch_add(&c->taken, 1);
	}
	return NULL;
}

START_TEST(test_open_stranger_closes)
{
	uint8_t uid[SH_UID_BYTES];
	struct sh_uid_info info;
	struct sh_boot *b = NULL;
	struct leakcheck lc;
	pthread_t t;

	/* glibc keeps a joined thread's stack for the next one: the
	 * closer's stack is there before the leak check begins */
	struct closer c = { .fd = -1, .stop = true };
	ck_assert_int_eq(pthread_create(&t, NULL, closer_main, &c), 0);
	pthread_join(t, NULL);
	atomic_store(&c.stop, false);
	leakcheck_begin(&lc);
	opts_env("ZESHMEM_TIMEOUT", "1");
	c.fd = sh_uid_listen("127.0.0.1", &info);
	ck_assert_int_ge(c.fd, 0);
	sh_uid_encode(&info, uid);
	ck_assert_int_eq(pthread_create(&t, NULL, closer_main, &c), 0);
	ck_assert_int_eq(sh_boot_open(uid, 1, 2, &b), -ETIMEDOUT);
	ck_assert_ptr_null(b);
	atomic_store(&c.stop, true);
	pthread_join(t, NULL);
	ck_assert_int_ge(atomic_load(&c.taken), 2);
	close(c.fd);
	opts_env("ZESHMEM_TIMEOUT", NULL);
	leakcheck_end(&lc);
}
END_TEST

/* A root that takes no more connections (its accept queue is full, so
 * the kernel drops the SYNs) holds a blocking connect for minutes: the
 * PE still gives up at ZESHMEM_TIMEOUT. */
START_TEST(test_open_root_full)
{
	uint8_t uid[SH_UID_BYTES];
	struct sh_uid_info info;
	struct sh_boot *b = NULL;
	struct leakcheck lc;

	leakcheck_begin(&lc);
	opts_env("ZESHMEM_TIMEOUT", "1");
	int l = sh_uid_listen("127.0.0.1", &info);
	ck_assert_int_ge(l, 0);
	ck_assert_int_eq(listen(l, 0), 0); /* its queue, down to backlog 0 */
	/* one connection, never accepted, fills a queue of backlog 0 */
	int fill = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ck_assert_int_eq(connect(fill, (struct sockaddr *)&info.addr,
				 sizeof(info.addr)), 0);
	sh_uid_encode(&info, uid);
	ck_assert_int_eq(sh_boot_open(uid, 1, 2, &b), -ETIMEDOUT);
	ck_assert_ptr_null(b);
	close(fill);
	close(l);
	opts_env("ZESHMEM_TIMEOUT", NULL);
	leakcheck_end(&lc);
}
END_TEST

/* A socket joined to itself (bound to the port it connects to: what a
 * connect to an unused port of this host can meet by chance) is told
 * from a real connection. */
START_TEST(test_sock_self_connected)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t al = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &al), 0);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	ck_assert(sh_sock_self_connected(fd));
	close(fd);

	/* a real connection, and a socket not connected at all */
	struct sh_uid_info info;
	int l = sh_uid_listen("127.0.0.1", &info);
	ck_assert_int_ge(l, 0);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ck_assert(!sh_sock_self_connected(fd));
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&info.addr,
				 sizeof(info.addr)), 0);
	ck_assert(!sh_sock_self_connected(fd));
	close(fd);
	close(l);
}
END_TEST

/* glibc keeps the stacks of joined threads for reuse: a job of one PE
 * before the leak check lets the server and reader threads find them. */
static void
warm_threads(void)
{
	uint8_t uid[SH_UID_BYTES];
	struct sh_boot *b;

	opts_env("ZESHMEM_BOOT_IFACE", "127.0.0.1");
	ck_assert_int_eq(sh_boot_uid_create(uid), 0);
	opts_env("ZESHMEM_BOOT_IFACE", NULL);
	ck_assert_int_eq(sh_boot_open(uid, 0, 1, &b), 0);
	ck_assert_int_eq(b->ops->barrier(b), 0);
	sh_boot_close(b);
}

/* In-process root: this process creates the id and serves as rank 0;
 * boot_pe processes (fork+exec) are ranks 1..n-1. The handshake refuses
 * a wrong job and a rank that is already there; nothing leaks after
 * close. */
START_TEST(test_inprocess_root)
{
	enum { N = 3 };
	uint8_t uid[SH_UID_BYTES], bad[SH_UID_BYTES];
	struct sh_boot *b, *x;
	struct leakcheck lc;
	pid_t kid[N];

	warm_threads();
	leakcheck_begin(&lc);
	opts_env("ZESHMEM_BOOT_IFACE", "lo");
	ck_assert_int_eq(sh_boot_uid_create(uid), 0);
	opts_env("ZESHMEM_BOOT_IFACE", NULL);
	ck_assert_int_eq(sh_boot_open(uid, 0, N, &b), 0);
	ck_assert_str_eq(b->ops->name, "uid");
	ck_assert_int_eq(b->local_rank, -1);
	leakcheck_assert_all_cloexec();

	memcpy(bad, uid, sizeof(bad));
	bad[32] ^= 1;                                  /* the nonce */
	ck_assert_int_eq(sh_boot_open(bad, 1, N, &x), -EACCES);
	ck_assert_int_eq(sh_boot_open(uid, 0, N, &x), -EADDRINUSE);
	ck_assert_int_eq(sh_boot_open(uid, 1, N + 1, &x), -EINVAL);

	char hex[2 * SH_UID_BYTES + 1], rs[8], ns[8];
	sh_boot_uid_to_hex(uid, hex);
	snprintf(ns, sizeof(ns), "%d", N);
	for (int r = 1; r < N; r++) {
		snprintf(rs, sizeof(rs), "%d", r);
		char *argv[] = { (char *)BOOT_PE, "join", hex, rs, ns,
				 "gather", NULL };
		kid[r] = start(argv);
	}
	int v = 0, all[N];
	ck_assert_int_eq(b->ops->allgather(b, &v, sizeof(v), all), 0);
	for (int i = 0; i < N; i++)
		ck_assert_int_eq(all[i], i * 100);
	ck_assert_int_eq(b->ops->barrier(b), 0);
	sh_boot_close(b);
	for (int r = 1; r < N; r++) {
		int ws;
		ck_assert_int_eq(waitpid(kid[r], &ws, 0), kid[r]);
		ck_assert_int_eq(WIFEXITED(ws) ? WEXITSTATUS(ws) : -1, 0);
	}
	leakcheck_end(&lc);
}
END_TEST

/* The local address of the TCP socket listening on port (network order)
 * as the kernel shows it (/proc/net/tcp), or 0xffffffff when none. */
static uint32_t
listen_addr(uint16_t port)
{
	FILE *f = fopen("/proc/net/tcp", "r");
	char line[512];
	uint32_t got = 0xffffffffu;

	if (!f)
		return got;
	while (fgets(line, sizeof(line), f)) {
		unsigned a, p, st;
		if (sscanf(line, " %*d: %x:%x %*x:%*x %x", &a, &p, &st) == 3 &&
		    p == ntohs(port) && st == 0x0a)
			got = a;   /* the address's bytes, as in s_addr */
	}
	fclose(f);
	return got;
}

/* Makes an id with ZESHMEM_BOOT_IFACE=iface (NULL: unset): 0 when its root
 * listens on want (host order), in the id and in the kernel, and a job of
 * one PE runs through it; else a step number. */
static int
root_on(const char *iface, uint32_t want)
{
	uint8_t uid[SH_UID_BYTES];
	struct sh_uid_info info;
	struct sh_boot *b;

	opts_env("ZESHMEM_BOOT_IFACE", iface);
	int ret = sh_boot_uid_create(uid);
	opts_env("ZESHMEM_BOOT_IFACE", NULL);
	if (ret)
		return 1;
	if (sh_uid_decode(uid, &info))
		return 2;
	if (ntohl(info.addr.sin_addr.s_addr) != want)
		return 3;
	if (listen_addr(info.addr.sin_port) != htonl(want))
		return 4;
	if (sh_boot_open(uid, 0, 1, &b))
		return 5;
	ret = b->ops->barrier(b) ? 6 : 0;
	sh_boot_close(b);
	return ret;
}

/* The unique-id root listens on loopback unless ZESHMEM_BOOT_IFACE names
 * an interface; in a network namespace made here with a veth pair (an
 * address only inside it: 10.211.79.1), loopback still by default, the
 * veth's address when it is named. */
START_TEST(test_root_loopback)
{
	warm_threads();
	ck_assert_int_eq(root_on(NULL, INADDR_LOOPBACK), 0);
	ck_assert_int_eq(root_on("lo", INADDR_LOOPBACK), 0);
	ck_assert_int_eq(root_on("127.0.0.1", INADDR_LOOPBACK), 0);

	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char cmd[400], a[16];
		/* the namespace goes with this process */
		if (unshare(CLONE_NEWNET))
			_exit(77);
		snprintf(a, sizeof(a), "zbt%da", (int)getpid() % 1000000);
		snprintf(cmd, sizeof(cmd),
			 "ip link set lo up && "
			 "ip link add %s type veth peer name zbt%db && "
			 "ip addr add 10.211.79.1/24 dev %s && "
			 "ip link set %s up && ip link set zbt%db up",
			 a, (int)getpid() % 1000000, a, a,
			 (int)getpid() % 1000000);
		if (system(cmd) != 0)
			_exit(78);
		int r = root_on(NULL, INADDR_LOOPBACK);
		if (r)
			_exit(10 + r);
		r = root_on(a, 0x0ad34f01u);   /* 10.211.79.1 */
		_exit(r ? 20 + r : 0);
	}
	int ws;
	ck_assert_int_eq(waitpid(pid, &ws, 0), pid);
	int rc = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
	if (rc == 77 || rc == 78)
		printf("test_root_loopback: network namespace part skipped: "
		       "%s\n", rc == 77 ? "unshare(CLONE_NEWNET) refused (not "
					  "root?)" : "ip could not make a veth "
						     "pair");
	else
		ck_assert_int_eq(rc, 0);
}
END_TEST

/* Two PEs disagree on the allgather's length: both get -EPROTO. */
START_TEST(test_mismatch)
{
	uint8_t uid[SH_UID_BYTES];
	struct sh_boot *b;
	struct leakcheck lc;
	pid_t kid;

	warm_threads();
	leakcheck_begin(&lc);
	opts_env("ZESHMEM_BOOT_IFACE", "127.0.0.1");
	ck_assert_int_eq(sh_boot_uid_create(uid), 0);
	opts_env("ZESHMEM_BOOT_IFACE", NULL);
	ck_assert_int_eq(sh_boot_open(uid, 0, 2, &b), 0);
	char hex[2 * SH_UID_BYTES + 1];
	sh_boot_uid_to_hex(uid, hex);
	char *argv[] = { (char *)BOOT_PE, "join", hex, "1", "2", "mismatch",
			 NULL };
	kid = start(argv);
	char m[4] = { 0 }, all[8];
	ck_assert_int_eq(b->ops->allgather(b, m, 4, all), -EPROTO);
	/* The job goes on after a refused round. */
	ck_assert_int_eq(b->ops->barrier(b), 0);
	sh_boot_close(b);
	int ws;
	ck_assert_int_eq(waitpid(kid, &ws, 0), kid);
	ck_assert_int_eq(WIFEXITED(ws) ? WEXITSTATUS(ws) : -1, 0);
	leakcheck_end(&lc);
}
END_TEST

/* ---- mpirun (PMIx) ----------------------------------------------------- */

static int
mpirun_job(int n, char **pe_args)
{
	char nbuf[16];
	char *argv[32] = { (char *)mpirun, "--allow-run-as-root", "--bind-to",
			   "none", "--oversubscribe", "-np", nbuf, "--mca",
			   "oob_tcp_if_include", "lo", "--mca",
			   "btl_tcp_if_include", "lo" };
	int k = 13;
	static char perturb[64];
	static const char *mp;

	/* mpirun_crash.h: the PEs get meson's MALLOC_PERTURB_, the
	 * launcher does not. */
	if (!mp)
		mp = mpirun_take_perturb(perturb, sizeof(perturb));
	if (mp) {
		argv[k++] = "-x";
		argv[k++] = perturb;
	}
	argv[k++] = (char *)BOOT_PE;
	snprintf(nbuf, sizeof(nbuf), "%d", n);
	for (int i = 0; pe_args[i] && k < 31; i++)
		argv[k++] = pe_args[i];
	argv[k] = NULL;
	setenv("OMPI_MCA_osc", "^rdma", 1);
	/* libpmix has no frame pointers: without the slow unwinder the
	 * leaks it keeps (lsan.supp) show no libpmix frame to match. */
	if (!asan_set) {
		const char *o = getenv("ASAN_OPTIONS");
		char buf[1024];
		snprintf(buf, sizeof(buf), "%s%sfast_unwind_on_malloc=0",
			 o ? o : "", o && *o ? ":" : "");
		setenv("ASAN_OPTIONS", buf, 1);
		asan_set = true;
	}
	for (int t = 1;; t++) {
		static char out[65536];
		pid_t pid = start(argv);
		int rc = finish(pid);
		if (t == MPIRUN_TRIES ||
		    !mpirun_crashed(rc, pid, slurp("err", out, sizeof(out))))
			return rc;
		/* mpirun's own crash (mpirun_crash.h): the job again, in
		 * a clean directory. */
		mpirun_crash_note(pid, rc, t, out);
		job_reset();
	}
}

static void
mpirun_rounds(int n, char *rounds, char *cycles)
{
	char *a[] = { "rounds", rounds, cycles, NULL };

	ck_assert_int_eq(mpirun_job(n, a), 0);
	for (int pe = 0; pe < n; pe++)
		expect_out(pe, "ok");
}

START_TEST(test_mpirun_rounds_2)
{
	mpirun_rounds(2, "100", "2");
}
END_TEST

START_TEST(test_mpirun_rounds_3)
{
	mpirun_rounds(3, "100", "1");
}
END_TEST

START_TEST(test_mpirun_rounds_8)
{
	mpirun_rounds(8, "30", "1");
}
END_TEST

/* Open/close cycles: PMIx stays up from the first open to exit. With a
 * PMIx_Finalize per close, a cycle's first fence now and then failed as
 * partial (a peer's finalize still counted in it): 9 of 10 jobs of 3 PEs
 * and 60 cycles of one round each, 10 of 10 with 200. */
START_TEST(test_mpirun_cycles)
{
	mpirun_rounds(3, "1", "100");
}
END_TEST

START_TEST(test_mpirun_abort_status)
{
	char *a[] = { "abort", "1", "5", NULL };

	ck_assert_int_eq(mpirun_job(3, a), 5);
	expect_no_out(3, "noabort");
}
END_TEST

START_TEST(test_mpirun_exit_status)
{
	char *a[] = { "exit", "2", "7", NULL };

	ck_assert_int_eq(mpirun_job(3, a), 7);
}
END_TEST

/* mpirun ends the job when a PE dies; a PE that reaches its barrier first
 * sees it fail (-EHOSTDOWN), never succeed. */
START_TEST(test_mpirun_killed_pe)
{
	char *a[] = { "kill", "1", NULL };

	setenv("ZESHMEM_TIMEOUT", "20", 1);
	ck_assert_int_ne(mpirun_job(3, a), 0);
	unsetenv("ZESHMEM_TIMEOUT");
	ck_assert_int_eq(count_in_err("died: 0"), 0);
	ck_assert_int_eq(count_in_err("died: -"), 0);
}
END_TEST

static Suite *
boot_suite(void)
{
	Suite *s = suite_create("shmem-boot");
	TCase *tc = tcase_create("inproc");

	tcase_add_checked_fixture(tc, job_setup, job_teardown);
	tcase_add_test(tc, test_open_bad_input);
	tcase_add_test(tc, test_open_no_root);
	tcase_add_test(tc, test_open_stranger_closes);
	tcase_add_test(tc, test_sock_self_connected);
	tcase_add_test(tc, test_open_root_full);
	tcase_add_test(tc, test_inprocess_root);
	tcase_add_test(tc, test_mismatch);
	tcase_add_test(tc, test_root_loopback);
	suite_add_tcase(s, tc);

	tc = tcase_create("jobs");
	tcase_add_checked_fixture(tc, job_setup, job_teardown);
	tcase_add_test(tc, test_zeshrun_bad_args);
	tcase_add_test(tc, test_single_pe);
	tcase_add_test(tc, test_zeshrun_rounds_2);
	tcase_add_test(tc, test_zeshrun_rounds_3);
	tcase_add_test(tc, test_zeshrun_rounds_8);
	tcase_add_test(tc, test_selfroot_3);
	tcase_add_test(tc, test_zeshrun_stdin_env);
	tcase_add_test(tc, test_zeshrun_np_help_version);
	tcase_add_test(tc, test_zeshrun_bindings);
	tcase_add_test(tc, test_killed_pe);
	tcase_add_loop_test(tc, test_selfroot_killed, 0, 2);
	tcase_add_test(tc, test_exit_status);
	tcase_add_loop_test(tc, test_signal_forward, 0, 3);
	tcase_add_test(tc, test_abort_status);
	tcase_add_test(tc, test_no_orphans);
	tcase_add_test(tc, test_zeshrun_killed);
	tcase_add_test(tc, test_strangers);
	suite_add_tcase(s, tc);
	return s;
}

/* Argument "grow": a job of shmem_pe (the next argument), the whole
 * runtime, meets strangers. */
static Suite *
grow_suite(void)
{
	Suite *s = suite_create("shmem-boot-grow");
	TCase *tc = tcase_create("grow");

	tcase_add_checked_fixture(tc, job_setup, job_teardown);
	tcase_add_test(tc, test_strangers_grow);
	suite_add_tcase(s, tc);
	return s;
}

/* Writes a stand-in for mpirun to path: each run appends a line to
 * path.runs; the first `crashes` runs print a crash report of pid
 * ("$$": its own, i.e. mpirun's, or a number) and die of SIGSEGV, the
 * later ones exec the real mpirun. */
static void
fake_mpirun(const char *path, const char *real, int crashes, const char *pid)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fprintf(f, "#!/bin/sh\n"
		   "echo run >> '%s.runs'\n"
		   "if [ $(wc -l < '%s.runs') -le %d ]; then\n"
		   "  echo \"[host:%s] *** Process received signal ***\" >&2\n"
		   "  kill -SEGV $$\n"
		   "fi\n"
		   "exec '%s' \"$@\"\n", path, path, crashes, pid, real);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(path, 0700), 0);
}

static int
fake_runs(const char *path)
{
	char runs[320], buf[256];
	FILE *f;
	int n = 0;

	snprintf(runs, sizeof(runs), "%s.runs", path);
	f = fopen(runs, "r");
	if (!f)
		return 0;
	while (fgets(buf, sizeof(buf), f))
		n++;
	fclose(f);
	unlink(runs);
	return n;
}

/* mpirun_crash.h: mpirun's own crash (its own pid in the report) reruns
 * the job, whose outcome then counts; a report of another process's
 * crash, or a crash that repeats, is the job's outcome. */
START_TEST(test_mpirun_own_crash_rerun)
{
	const char *real = mpirun;
	char fake[300];
	char *a[] = { "exit", "2", "7", NULL };

	ck_assert(mpirun_crashed(128 + SIGSEGV, 42,
				 "x\n[h:42] *** Process received signal ***"));
	ck_assert(!mpirun_crashed(128 + SIGSEGV, 42,
				  "[h:421] *** Process received signal ***"));
	ck_assert(!mpirun_crashed(7, 42,
				  "[h:42] *** Process received signal ***"));
	ck_assert(!mpirun_crashed(128 + SIGSEGV, 42, NULL));

	snprintf(fake, sizeof(fake), "%s.mpirun", dir);
	mpirun = fake;
	fake_mpirun(fake, real, 1, "$$");
	ck_assert_int_eq(mpirun_job(3, a), 7);
	ck_assert_int_eq(fake_runs(fake), 2);
	expect_out(2, "exiting");

	fake_mpirun(fake, real, 1, "1");
	ck_assert_int_eq(mpirun_job(3, a), 128 + SIGSEGV);
	ck_assert_int_eq(fake_runs(fake), 1);

	fake_mpirun(fake, real, MPIRUN_TRIES, "$$");
	ck_assert_int_eq(mpirun_job(3, a), 128 + SIGSEGV);
	ck_assert_int_eq(fake_runs(fake), MPIRUN_TRIES);
	unlink(fake);
	mpirun = real;
}
END_TEST

static Suite *
mpirun_suite(void)
{
	Suite *s = suite_create("shmem-boot-mpirun");
	TCase *tc = tcase_create("pmix");

	tcase_add_checked_fixture(tc, job_setup, job_teardown);
	tcase_add_test(tc, test_mpirun_rounds_2);
	tcase_add_test(tc, test_mpirun_rounds_3);
	tcase_add_test(tc, test_mpirun_rounds_8);
	tcase_add_test(tc, test_mpirun_cycles);
	tcase_add_test(tc, test_mpirun_abort_status);
	tcase_add_test(tc, test_mpirun_exit_status);
	tcase_add_test(tc, test_mpirun_killed_pe);
	tcase_add_test(tc, test_mpirun_own_crash_rerun);
	suite_add_tcase(s, tc);
	return s;
}

int
main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "mpirun")) {
		mpirun = mpirun_or_skip();
		if (!mpirun)
			return 77;
		return check_run(mpirun_suite(), CK_NORMAL, true);
	}
	if (argc > 2 && !strcmp(argv[1], "grow")) {
		shmem_pe = argv[2];
		return check_run(grow_suite(), CK_NORMAL, true);
	}
	return check_run(boot_suite(), CK_NORMAL, true);
}
