// SPDX-License-Identifier: MIT
/*
 * zeshrun: start a job of N PEs on this machine.
 *
 *   zeshrun -n|-np N [-g GRACE_S] [--bind-to none|core|socket]
 *           [--report-bindings] [--] prog [args...]
 *   zeshrun --help | --version
 *
 * Long options take one dash or two, as mpirun's do (-np, -bind-to).
 *
 * Binding: each PE is bound (sched_setaffinity in the child, after the
 * fork, before the exec) to a CPU set of the CPUs zeshrun may use (its
 * own sched_getaffinity mask: a container or a taskset may allow fewer
 * than the machine has). Local rank k gets the k-th allowed CPU, counted
 * modulo their number when there are more PEs than CPUs (--bind-to core,
 * the default), the allowed CPUs of that CPU's package (socket; all the
 * allowed CPUs when sysfs does not say the package), or the whole
 * allowed set (none). ZESHMEM_BIND_TO sets the default (as Open MPI's
 * hwloc_base_binding_policy does mpirun's): jobs run side by side, as a
 * test suite's are, would otherwise all start at the first CPU.
 * --report-bindings writes one line per PE on stderr:
 * "zeshrun: PE <k> bound to cpus <list>" (list as in Cpus_allowed_list:
 * 0,2-3).
 *
 * zeshrun is itself the unique-id root: it binds the bootstrap socket
 * (loopback, or ZESHMEM_BOOT_IFACE), serves the job's allgathers and
 * barriers on a thread (sh_boot_uid_srv.c) and starts the PEs with
 * fork+exec, each with ZESHMEM_RANK, ZESHMEM_NRANKS, ZESHMEM_LOCAL_RANK,
 * ZESHMEM_UNIQUEID and ZESHMEM_BOOTSTRAP=uid in its environment (made
 * before the fork: between fork and exec a child takes no lock). Rank 0
 * reads zeshrun's stdin unless it is a terminal; the others read
 * /dev/null.
 *
 * Nothing outlives the job. The PEs and whatever they start form one
 * process group, led by a small keeper process that zeshrun forks first:
 * the keeper only waits for zeshrun's end (end of file on a pipe that
 * zeshrun alone holds open) and then kills its own group. So when zeshrun
 * ends in any way, SIGKILL included, every process of the group dies: the
 * PEs (they also have PR_SET_PDEATHSIG) and their children, grandchildren
 * and so on. A process that leaves the group (setsid, setpgid: a daemon,
 * a shell's job control) leaves the job. The group's id is the keeper's
 * pid, which is not reused while the keeper or any process of the group
 * lives (only SIGKILL ends the keeper before zeshrun does).
 *
 * SIGINT, SIGTERM and SIGHUP are forwarded to the PEs. The first PE that
 * exits non-zero or dies by a signal ends the job: one line
 *   zeshmem: PE <n> (pid P) exited with status S | killed by signal S
 * then SIGTERM to the others, SIGKILL after the grace period (default 3 s).
 * Exit status: the first non-zero PE status (128+S for a signal), the
 * shmem_global_exit status when a PE called it, else 128+S when zeshrun
 * itself was signalled, else 0. All waits sleep in poll().
 */
#include "sh_boot_impl.h"

#include "u_log.h"
#include "u_options.h"
#include "u_os.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_PES 4096

struct pe {
	pid_t pid;
	bool done;
};

static int abort_pipe[2] = { -1, -1 };
/* zeshrun's end of the keeper's pipe: open until zeshrun exits. */
static int keeper_fd = -1;

static void
usage(FILE *f)
{
	fprintf(f, "usage: zeshrun -n N [-g GRACE_S] [--bind-to WHAT] "
		   "[--report-bindings] [--] prog [args...]\n"
		   "       zeshrun --help | --version\n"
		   "  -n N, -np N   number of PEs (1..%d)\n"
		   "  -g GRACE_S    seconds between SIGTERM and SIGKILL when "
		   "the job ends early (default 3)\n"
		   "  --bind-to WHAT\n"
		   "                core (default): local rank k on the k-th "
		   "allowed CPU\n"
		   "                (wrapping); socket: that CPU's package; "
		   "none: all allowed\n"
		   "  --report-bindings\n"
		   "                one line per PE on stderr: the CPUs it is "
		   "bound to\n"
		   "Long options take one dash or two (-np, -bind-to).\n",
		MAX_PES);
}

/* ---- binding ---------------------------------------------------------- */

enum bind_to { BIND_NONE, BIND_CORE, BIND_SOCKET };

/* The package (socket) of a CPU from sysfs, or -1 when it cannot say. */
static int
cpu_package(int cpu)
{
	char path[96];
	int pkg = -1;
	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
		 cpu);
	FILE *f = u_sysfile(path);
	if (!f)
		return -1;
	if (fscanf(f, "%d", &pkg) != 1 || pkg < 0)
		pkg = -1;
	fclose(f);
	return pkg;
}

/* Each PE's set, made before the forks (a child takes no lock: no sysfs
 * reads there). NULL with errno set when it cannot be made. */
static cpu_set_t *
bind_plan(enum bind_to how, int n)
{
	cpu_set_t allowed;
	if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0)
		return NULL;
	int cpus[CPU_SETSIZE], ncpu = 0;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed))
			cpus[ncpu++] = c;
	if (!ncpu) {
		errno = ENOENT;
		return NULL;
	}
	int *pkg = NULL;
	if (how == BIND_SOCKET) {
		pkg = calloc((size_t)ncpu, sizeof(*pkg));
		if (!pkg)
			return NULL;
		for (int i = 0; i < ncpu; i++)
			pkg[i] = cpu_package(cpus[i]);
	}
	cpu_set_t *sets = calloc((size_t)n, sizeof(*sets));
	if (!sets) {
		free(pkg);
		return NULL;
	}
	for (int k = 0; k < n; k++) {
		int i = k % ncpu;
		if (how == BIND_NONE) {
			sets[k] = allowed;
		} else if (how == BIND_CORE) {
			CPU_ZERO(&sets[k]);
			CPU_SET(cpus[i], &sets[k]);
		} else if (pkg[i] < 0) {
			sets[k] = allowed; /* sysfs does not say: all */
		} else {
			CPU_ZERO(&sets[k]);
			for (int j = 0; j < ncpu; j++)
				if (pkg[j] == pkg[i])
					CPU_SET(cpus[j], &sets[k]);
		}
	}
	free(pkg);
	return sets;
}

static int
parse_bind(const char *s, enum bind_to *how)
{
	if (!strcmp(s, "none"))
		*how = BIND_NONE;
	else if (!strcmp(s, "core"))
		*how = BIND_CORE;
	else if (!strcmp(s, "socket"))
		*how = BIND_SOCKET;
	else
		return -1;
	return 0;
}

/* "0,2-3": the form of /proc's Cpus_allowed_list. */
static void
cpu_list(const cpu_set_t *set, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = 0;
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, set))
			continue;
		int e = c;
		while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
			e++;
		int w = e > c ? snprintf(buf + len, size - len, "%s%d-%d",
					 len ? "," : "", c, e)
			      : snprintf(buf + len, size - len, "%s%d",
					 len ? "," : "", c);
		if (w < 0 || (size_t)w >= size - len)
			return;
		len += (size_t)w;
		c = e;
	}
}

static int
parse_uint(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* Server thread: a PE called shmem_global_exit. */
static void
on_abort(void *arg, int rank, int status)
{
	int msg[2] = { rank, status };

	if (write(abort_pipe[1], msg, sizeof(msg)) < 0)
		(void)0;
}

extern char **environ;

static const char *const job_vars[] = { "ZESHMEM_RANK=", "ZESHMEM_LOCAL_RANK=",
					"ZESHMEM_NRANKS=", "ZESHMEM_UNIQUEID=",
					"ZESHMEM_BOOTSTRAP=" };

/* The PEs' environment, made before any fork: this one's less any job
 * variables, then the job's five; the rank's two are rewritten in place
 * for each PE (a child has its own copy once forked). */
struct job_env {
	char **env;
	char rank[32], local[40], nranks[32];
	char uid[2 * SH_UID_BYTES + 32];
};

static int
job_env_init(struct job_env *je, int n, const char *hex)
{
	static char boot[] = "ZESHMEM_BOOTSTRAP=uid";
	size_t k = 0, cnt = 0;

	while (environ[cnt])
		cnt++;
	je->env = calloc(cnt + 6, sizeof(*je->env));
	if (!je->env)
		return -ENOMEM;
	for (size_t i = 0; i < cnt; i++) {
		bool ours = false;
		for (size_t v = 0; v < 5 && !ours; v++)
			ours = !strncmp(environ[i], job_vars[v],
					strlen(job_vars[v]));
		if (!ours)
			je->env[k++] = environ[i];
	}
	snprintf(je->nranks, sizeof(je->nranks), "ZESHMEM_NRANKS=%d", n);
	snprintf(je->uid, sizeof(je->uid), "ZESHMEM_UNIQUEID=%s", hex);
	je->env[k++] = je->rank;
	je->env[k++] = je->local;
	je->env[k++] = je->nranks;
	je->env[k++] = je->uid;
	je->env[k++] = boot;
	je->env[k] = NULL;
	return 0;
}

static void
job_env_rank(struct job_env *je, int rank)
{
	snprintf(je->rank, sizeof(je->rank), "ZESHMEM_RANK=%d", rank);
	snprintf(je->local, sizeof(je->local), "ZESHMEM_LOCAL_RANK=%d", rank);
}

static void
write_str(const char *s)
{
	if (write(2, s, strlen(s)) < 0)
		(void)0;
}

/* After fork, in a process whose server thread may hold any lock (malloc's
 * too): only calls that take none, up to the exec. */
static void
child(char **argv, char **env, pid_t pgid, pid_t parent,
      const sigset_t *oldmask, int rank, const cpu_set_t *cpus)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };

	setpgid(0, pgid);
	if (cpus && sched_setaffinity(0, sizeof(*cpus), cpus) < 0)
		write_str("zeshrun: a PE could not be bound; it runs "
			  "unbound\n");
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	for (int s = 1; s < NSIG; s++)
		sigaction(s, &dfl, NULL);
	sigprocmask(SIG_SETMASK, oldmask, NULL);
	/* The PEs are a background group: one reading a terminal would
	 * stop (SIGTTIN). Rank 0 keeps a stdin that is a file or pipe. */
	if (rank > 0 || isatty(0)) {
		int fd = open("/dev/null", O_RDONLY);
		if (fd >= 0 && fd != 0) {
			dup2(fd, 0);
			close(fd);
		}
	}
	execvpe(argv[0], argv, env);
	int err = errno;
	write_str("zeshrun: cannot run ");
	write_str(argv[0]);
	write_str(": ");
	write_str(strerror(err));
	write_str("\n");
	_exit(127);
}

/* The keeper (see the top): the leader of the job's process group. It is
 * forked before any thread or socket exists and calls only what takes no
 * lock. Returns its pid, which is the group's id, or -errno. */
static pid_t
start_keeper(void)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		int err = errno;
		close(p[0]);
		close(p[1]);
		return -err;
	}
	if (pid == 0) {
		sigset_t all;
		char c;
		int fd;

		close(p[1]);
		/* Signals zeshrun forwards to the group are the PEs'; only
		 * SIGKILL ends the keeper. */
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, NULL);
		/* It holds none of the caller's pipes open. */
		fd = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
			if (fd > 2)
				close(fd);
		}
		setpgid(0, 0);
		while (read(p[0], &c, 1) < 0 && errno == EINTR)
			;
		/* zeshrun ended: the whole group, this process with it. Never
		 * a group that is not its own (setpgid failed). */
		if (getpgrp() == getpid())
			kill(0, SIGKILL);
		_exit(0);
	}
	close(p[0]);
	if (setpgid(pid, pid) < 0 && errno != EACCES) {
		int err = errno;
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		close(p[1]);
		return -err;
	}
	keeper_fd = p[1];
	return pid;
}

/* A PE killed before it closed its network endpoint leaves the entry
 * libfabric's shm provider made for it (/dev/shm/zeshmem_<pid>_*, the name
 * sh_ofi.c gives the endpoint): remove those of an ended PE. */
static void
remove_pe_shm(pid_t pid)
{
	char pre[32];
	int len = snprintf(pre, sizeof(pre), "zeshmem_%d_", (int)pid);
	DIR *d = opendir("/dev/shm");
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));)
		if (!strncmp(e->d_name, pre, (size_t)len) &&
		    !unlinkat(dirfd(d), e->d_name, 0))
			u_info("shmem", "removed /dev/shm/%s of PE pid %d",
			       e->d_name, (int)pid);
	closedir(d);
}

static void
signal_all(struct pe *pes, int n, pid_t pgid, int sig)
{
	if (pgid > 0)
		kill(-pgid, sig);
	for (int i = 0; i < n; i++)
		if (pes[i].pid > 0 && !pes[i].done)
			kill(pes[i].pid, sig);
}

int
main(int argc, char **argv)
{
	long n = 0, grace = 3;
	int opt;
	enum bind_to bind = BIND_CORE;
	bool report = false;
	static const struct option longs[] = {
		{ "np", required_argument, NULL, 'n' },
		{ "bind-to", required_argument, NULL, 'B' },
		{ "report-bindings", no_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};

	/* The default: ZESHMEM_BIND_TO (core unless set); --bind-to wins. */
	const char *bind_env = u_option_str(U_OPT_SH_BIND_TO);
	if (parse_bind(bind_env, &bind)) {
		fprintf(stderr, "zeshrun: ZESHMEM_BIND_TO=%s: want none, core "
				"or socket\n", bind_env);
		return 2;
	}
	/* One dash or two, as mpirun: -np 4, -bind-to core. */
	while ((opt = getopt_long_only(argc, argv, "+n:g:h", longs,
				       NULL)) != -1) {
		switch (opt) {
		case 'B':
			if (parse_bind(optarg, &bind)) {
				fprintf(stderr, "zeshrun: --bind-to %s: want "
						"none, core or socket\n",
					optarg);
				return 2;
			}
			break;
		case 'R':
			report = true;
			break;
		case 'V':
			printf("zeshrun (zemem) %s\n", ZEMEM_VERSION_STRING);
			return 0;
		case 'n':
			if (parse_uint(optarg, 1, MAX_PES, &n)) {
				fprintf(stderr, "zeshrun: -n %s: want 1..%d\n",
					optarg, MAX_PES);
				return 2;
			}
			break;
		case 'g':
			if (parse_uint(optarg, 0, 3600, &grace)) {
				fprintf(stderr, "zeshrun: -g %s: want 0..3600\n",
					optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!n || optind >= argc) {
		usage(stderr);
		return 2;
	}
	char **prog = argv + optind;

	/* Signals arrive on a signalfd; the children get the old mask. */
	sigset_t mask, oldmask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, &oldmask);
	/* The keeper first: it inherits no thread and no socket. */
	pid_t pgid = start_keeper();
	if (pgid < 0) {
		fprintf(stderr, "zeshrun: the job's process group: %s\n",
			strerror(-pgid));
		return 1;
	}
	int sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0 || pipe2(abort_pipe, O_CLOEXEC | O_NONBLOCK) < 0) {
		perror("zeshrun: signalfd");
		return 1;
	}

	/* The bootstrap root. */
	struct sh_uid_info info;
	int lfd = sh_uid_listen(u_option_str(U_OPT_SH_BOOT_IFACE), &info);
	if (lfd < 0) {
		fprintf(stderr, "zeshrun: bootstrap socket: %s\n",
			strerror(-lfd));
		return 1;
	}
	struct sh_uid_srv_cfg cfg = {
		.listen_fd = lfd, .nonce = info.nonce, .nranks = (int)n,
		.local_rank = -1,
		.timeout_s = (unsigned)u_option_u64(U_OPT_SH_TIMEOUT),
		.on_abort = on_abort,
	};
	struct sh_uid_srv *srv;
	int ret = sh_uid_srv_start(&cfg, &srv);
	if (ret) {
		fprintf(stderr, "zeshrun: bootstrap server: %s\n",
			strerror(-ret));
		return 1;
	}
	uint8_t uid[SH_UID_BYTES];
	char hex[2 * SH_UID_BYTES + 1];
	sh_uid_encode(&info, uid);
	sh_boot_uid_to_hex(uid, hex);

	struct pe *pes = calloc((size_t)n, sizeof(*pes));
	if (!pes) {
		fprintf(stderr, "zeshrun: out of memory\n");
		return 1;
	}
	pid_t self = getpid();
	int live = 0, status = 0, sig_got = 0, abort_status = -1;
	bool ending = false;
	uint64_t kill_at = 0;

	fflush(NULL);
	/* Made before the forks: a child may not malloc (the server thread
	 * runs; under ASan a PE hung in setenv's malloc 1 job in 5). */
	struct job_env je;
	if (job_env_init(&je, (int)n, hex)) {
		fprintf(stderr, "zeshrun: out of memory\n");
		return 1;
	}
	/* The PEs' CPU sets. Without one (no affinity call here) the PEs
	 * run where zeshrun may. */
	cpu_set_t *sets = bind_plan(bind, (int)n);
	if (!sets)
		fprintf(stderr, "zeshrun: PEs not bound: %s\n",
			strerror(errno));
	for (int i = 0; sets && report && i < n; i++) {
		char list[1024];
		cpu_list(&sets[i], list, sizeof(list));
		fprintf(stderr, "zeshrun: PE %d bound to cpus %s\n", i, list);
	}
	fflush(stderr);
	for (int i = 0; i < n; i++) {
		job_env_rank(&je, i);
		pid_t pid = fork();
		if (pid < 0) {
			fprintf(stderr, "zeshrun: fork: %s\n", strerror(errno));
			status = 1;
			ending = true;
			break;
		}
		if (pid == 0)
			child(prog, je.env, pgid, self, &oldmask, i,
			      sets ? &sets[i] : NULL);
		setpgid(pid, pgid);
		pes[i].pid = pid;
		live++;
	}
	if (ending) {
		signal_all(pes, (int)n, pgid, SIGTERM);
		kill_at = u_now_ns() + (uint64_t)grace * 1000000000ull;
	}

	while (live > 0) {
		struct pollfd pfd[2] = { { .fd = sfd, .events = POLLIN },
					 { .fd = abort_pipe[0],
					   .events = POLLIN } };
		int tmo = -1;
		if (kill_at) {
			uint64_t now = u_now_ns();
			if (now >= kill_at) {
				signal_all(pes, (int)n, pgid, SIGKILL);
				kill_at = 0;
				continue;
			}
			tmo = (int)((kill_at - now) / 1000000ull) + 1;
		}
		if (poll(pfd, 2, tmo) < 0 && errno != EINTR)
			break;
		if (pfd[1].revents & POLLIN) {
			int msg[2];
			while (read(abort_pipe[0], msg, sizeof(msg)) ==
			       (ssize_t)sizeof(msg)) {
				if (abort_status < 0)
					abort_status = msg[1];
				if (!kill_at)
					kill_at = u_now_ns() +
						  (uint64_t)grace * 1000000000ull;
			}
		}
		struct signalfd_siginfo si;
		while (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
			if (si.ssi_signo == SIGCHLD)
				continue;
			if (!sig_got)
				sig_got = (int)si.ssi_signo;
			/* A second signal while ending: no more grace. */
			signal_all(pes, (int)n, pgid,
				   ending ? SIGKILL : (int)si.ssi_signo);
		}
		for (;;) {
			int ws;
			pid_t pid = waitpid(-1, &ws, WNOHANG);
			if (pid <= 0)
				break;
			int i;
			for (i = 0; i < n && pes[i].pid != pid; i++)
				;
			if (i == n)
				continue;
			pes[i].done = true;
			live--;
			remove_pe_shm(pid);
			int code = WIFSIGNALED(ws) ? 128 + WTERMSIG(ws)
						   : WEXITSTATUS(ws);
			if (code == 0 || status)
				continue;
			status = code;
			if (WIFSIGNALED(ws))
				fprintf(stderr, "zeshmem: PE %d (pid %d) killed "
						"by signal %d\n", i, (int)pid,
					WTERMSIG(ws));
			else
				fprintf(stderr, "zeshmem: PE %d (pid %d) exited "
						"with status %d\n", i, (int)pid,
					code);
			if (!ending) {
				ending = true;
				signal_all(pes, (int)n, pgid, SIGTERM);
				if (!kill_at)
					kill_at = u_now_ns() +
						  (uint64_t)grace * 1000000000ull;
			}
		}
	}
	/* Whatever the PEs left in their group goes with them, and the
	 * keeper (reaped last: until then its pid names the group). */
	kill(-pgid, SIGKILL);
	waitpid(pgid, NULL, 0);
	close(keeper_fd);
	sh_uid_srv_stop(srv, false);
	free(je.env);
	free(sets);
	free(pes);
	close(sfd);
	close(abort_pipe[0]);
	close(abort_pipe[1]);
	if (abort_status >= 0)
		return abort_status & 0xff;
	if (status)
		return status;
	return sig_got ? 128 + sig_got : 0;
}
