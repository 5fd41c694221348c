// SPDX-License-Identifier: MIT
/*
 * boot_pe: one PE of the bootstrap tests (test_boot.c starts it through
 * zeshrun, mpirun, or by hand). It opens the bootstrap from the
 * environment and runs one scenario:
 *
 *   rounds R [CYCLES]  R rounds of allgather (exact contents, a length that
 *                      changes each round) and barrier (ordering checked
 *                      with a counter in the shared file $BOOT_SHM), in
 *                      CYCLES open/close cycles; the fd count must be the
 *                      same before the first open and after the last close
 *                      (PMIx: after the first close; it stays up to exit)
 *   kill V             PE V kills itself (SIGKILL) after a first barrier;
 *                      the others' next barrier must fail -EHOSTDOWN
 *                      (under PMIx: the next or the one after)
 *   exit V S           PE V exits with S after a barrier; the others wait
 *   abort V S          PE V calls abort_job(S); the others sleep outside
 *                      the bootstrap and must be ended by it
 *   wait               barrier, write $BOOT_DIR/ready.<rank>, then sleep in
 *                      a barrier until a signal ends it
 *   orphan V           every PE forks a child that sleeps (its pid in
 *                      $BOOT_DIR/orphan.<rank>), then PE V exits 1
 *   selfroot           the in-PE root: rank 0 creates the id
 *                      (sh_boot_uid_create), writes it to $BOOT_DIR/uid, the
 *                      others read it; then opens with the id and does
 *                      rounds (rank/size from ZESHMEM_RANK/NRANKS);
 *                      selfroot R V: then PE V dies (SIGKILL) and the
 *                      others' barrier must fail -EHOSTDOWN
 *   strangers          (under zeshrun, beside test_boot's stranger of
 *                      another uid) rank 0 writes the job's id to
 *                      $BOOT_DIR/uid; every PE waits for $BOOT_DIR/go1,
 *                      opens the bootstrap, does 20 rounds, writes
 *                      ready.<rank>, waits for go2, does 20 rounds, waits
 *                      for go3 (the job lives while the test looks at its
 *                      strangers) and closes
 *   keep               every PE forks a child that forks a grandchild; both
 *                      sleep (pids in $BOOT_DIR/out.<rank>), the PE writes
 *                      ready.<rank> and sleeps: the test kills zeshrun
 *   join HEX R N how   rank R of N with the id HEX, whose root is the test
 *                      process: allgather (how = gather: exact contents;
 *                      mismatch: 8 bytes where the root gives 4, -EPROTO)
 *                      and a barrier
 *   affinity           no bootstrap: prints "pe <rank> cpus <list>" on
 *                      stdout, the list its sched_getaffinity gives
 *                      (0,2-3: the form of zeshrun's --report-bindings)
 * Outcome: exit 0 on success; on a failed check, a line on stderr and exit
 * 3. $BOOT_DIR/out.<rank> gets one word per scenario step when set.
 */
#include "sh_boot_impl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int me = -1;

static void
fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "boot_pe %d: ", me);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(3);
}

static void
note(const char *word)
{
	const char *dir = getenv("BOOT_DIR");
	char path[4096];
	FILE *f;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/out.%d", dir, me);
	f = fopen(path, "a");
	if (!f)
		return;
	fprintf(f, "%s\n", word);
	fclose(f);
}

static int
count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;   /* the DIR's own */
}

/* Nothing of the launcher's leaks into a PE: no socket, no signalfd. */
static void
check_inherited(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[300], link[256];
		ssize_t n;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = 0;
		if (!strncmp(link, "socket:", 7) || strstr(link, "signalfd"))
			fail("fd %s (%s) inherited", e->d_name, link);
	}
	closedir(d);
}

static unsigned *
shared_counter(void)
{
	const char *p = getenv("BOOT_SHM");
	int fd;
	void *m;

	if (!p)
		return NULL;
	fd = open(p, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		fail("open %s: %s", p, strerror(errno));
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		fail("mmap: %s", strerror(errno));
	return m;
}

static void
boot(const void *uid, int rank, int n, struct sh_boot **b)
{
	int ret = sh_boot_open(uid, rank, n, b);

	if (ret)
		fail("sh_boot_open: %d", ret);
	me = (*b)->rank;
}

static void
barrier_ok(struct sh_boot *b)
{
	int ret = b->ops->barrier(b);

	if (ret)
		fail("barrier: %d", ret);
}

static void
rounds(struct sh_boot *b, unsigned *ctr, int R, unsigned *epoch)
{
	int n = b->nranks;

	for (int r = 0; r < R; r++) {
		size_t len = 1 + (size_t)(r * 37) % 300;
		unsigned char *mine = malloc(len), *all = malloc(len * n);
		if (!mine || !all)
			fail("malloc");
		for (size_t i = 0; i < len; i++)
			mine[i] = (unsigned char)(b->rank * 31 + r * 7 + i);
		memset(all, 0xee, len * n);
		int ret = b->ops->allgather(b, mine, len, all);
		if (ret)
			fail("allgather round %d: %d", r, ret);
		for (int p = 0; p < n; p++)
			for (size_t i = 0; i < len; i++)
				if (all[p * len + i] !=
				    (unsigned char)(p * 31 + r * 7 + i))
					fail("allgather round %d: PE %d byte "
					     "%zu is %u", r, p, i,
					     all[p * len + i]);
		free(mine);
		free(all);
		if (ctr) {
			/* Everyone's arrival counts before anyone leaves. */
			__atomic_fetch_add(ctr, 1, __ATOMIC_SEQ_CST);
			barrier_ok(b);
			(*epoch)++;
			unsigned seen = __atomic_load_n(ctr, __ATOMIC_SEQ_CST);
			if (seen < *epoch * (unsigned)n)
				fail("barrier round %d: left with %u "
				     "arrivals, want >= %u", r, seen,
				     *epoch * (unsigned)n);
			/* And nobody counts the next before all have read. */
			barrier_ok(b);
		} else {
			barrier_ok(b);
		}
	}
}

static void
sleep_ms(int ms)
{
	poll(NULL, 0, ms);
}

/* $BOOT_DIR/name, empty. */
static void
touch(const char *name)
{
	const char *dir = getenv("BOOT_DIR");
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : ".", name);
	fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0)
		fail("create %s: %s", path, strerror(errno));
	close(fd);
}

/* Waits (bounded: 60 s) for the test to create $BOOT_DIR/name. */
static void
wait_file(const char *name)
{
	const char *dir = getenv("BOOT_DIR");
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : ".", name);
	for (int i = 0; i < 6000; i++) {
		if (access(path, F_OK) == 0)
			return;
		sleep_ms(10);
	}
	fail("no %s", path);
}

/* The job's id as zeshrun gave it, to $BOOT_DIR/uid (whole or absent). */
static void
publish_uid(void)
{
	const char *dir = getenv("BOOT_DIR"), *hex = getenv("ZESHMEM_UNIQUEID");
	char path[4096], tmp[4096];
	FILE *f;

	if (!dir || !hex)
		fail("no BOOT_DIR or ZESHMEM_UNIQUEID");
	snprintf(path, sizeof(path), "%s/uid", dir);
	snprintf(tmp, sizeof(tmp), "%s/uid.tmp", dir);
	f = fopen(tmp, "w");
	if (!f || fputs(hex, f) < 0 || fclose(f))
		fail("write %s", tmp);
	if (rename(tmp, path))
		fail("rename %s", tmp);
}

int
main(int argc, char **argv)
{
	struct sh_boot *b;
	const char *mode = argc > 1 ? argv[1] : "rounds";
	int a1 = argc > 2 ? atoi(argv[2]) : 0;
	int a2 = argc > 3 ? atoi(argv[3]) : 0;

	if (!strcmp(mode, "affinity")) {
		const char *r = getenv("ZESHMEM_RANK");
		cpu_set_t set;
		char list[1024];
		size_t len = 0;
		if (sched_getaffinity(0, sizeof(set), &set) < 0)
			fail("sched_getaffinity: %s", strerror(errno));
		list[0] = 0;
		for (int c = 0; c < CPU_SETSIZE; c++) {
			if (!CPU_ISSET(c, &set))
				continue;
			int e = c;
			while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, &set))
				e++;
			len += (size_t)snprintf(list + len, sizeof(list) - len,
						"%s%d", len ? "," : "", c);
			if (e > c)
				len += (size_t)snprintf(list + len,
							sizeof(list) - len,
							"-%d", e);
			if (len >= sizeof(list) - 16)
				fail("too many CPUs");
			c = e;
		}
		printf("pe %s cpus %s\n", r ? r : "?", list);
		return 0;
	}
	if (!strcmp(mode, "rounds")) {
		unsigned *ctr = shared_counter();
		unsigned epoch = 0;
		int cycles = a2 > 0 ? a2 : 1;
		int fds = count_fds();
		check_inherited();
		for (int c = 0; c < cycles; c++) {
			boot(NULL, 0, 0, &b);
			bool pmix = !strcmp(b->ops->name, "pmix");
			rounds(b, ctr, a1 > 0 ? a1 : 1, &epoch);
			sh_boot_close(b);
			/* PMIx stays up from the first open to exit: its
			 * fds count from there. */
			if (pmix && c == 0)
				fds = count_fds();
		}
		if (count_fds() != fds)
			fail("fds: %d before, %d after", fds, count_fds());
		note("ok");
		return 0;
	}
	if (!strcmp(mode, "single")) {
		int x = 1234, all = 0;
		boot(NULL, 0, 0, &b);
		if (strcmp(b->ops->name, "single") || b->nranks != 1 ||
		    b->rank != 0 || b->local_rank != 0)
			fail("single: %s %d/%d", b->ops->name, b->rank,
			     b->nranks);
		if (b->ops->allgather(b, &x, sizeof(x), &all) || all != 1234)
			fail("single allgather");
		barrier_ok(b);
		sh_boot_close(b);
		printf("single ok\n");
		return 0;
	}
	if (!strcmp(mode, "kill")) {
		signal(SIGTERM, SIG_IGN);
		boot(NULL, 0, 0, &b);
		barrier_ok(b);
		if (b->rank == a1)
			raise(SIGKILL);
		int ret = b->ops->barrier(b);
		/* PMIx: the launcher may drop the dead PE from a fence in
		 * progress, so that one may still succeed; the next fails. */
		if (ret == 0 && !strcmp(b->ops->name, "pmix"))
			ret = b->ops->barrier(b);
		if (ret != -EHOSTDOWN)
			fail("barrier after PE %d died: %d", a1, ret);
		/* And every later call too. */
		int x = 0, all[64];
		ret = b->ops->allgather(b, &x, sizeof(x), all);
		if (ret != -EHOSTDOWN)
			fail("allgather after PE %d died: %d", a1, ret);
		note("hostdown");
		sh_boot_close(b);
		return 0;
	}
	if (!strcmp(mode, "exit")) {
		boot(NULL, 0, 0, &b);
		barrier_ok(b);
		if (b->rank == a1) {
			note("exiting");
			exit(a2);
		}
		b->ops->barrier(b);
		sleep_ms(30000);
		return 0;
	}
	if (!strcmp(mode, "abort")) {
		signal(SIGTERM, SIG_IGN);
		boot(NULL, 0, 0, &b);
		barrier_ok(b);
		if (b->rank == a1) {
			/* It may return (PMIx): the caller exits itself, as
			 * shmem_global_exit does. */
			b->ops->abort_job(b, a2);
			note("returned");
			exit(a2);
		}
		/* Not in a boot call: the abort must still end us. */
		for (int i = 0; i < 600; i++)
			sleep_ms(100);
		note("noabort");
		return 0;
	}
	if (!strcmp(mode, "wait")) {
		boot(NULL, 0, 0, &b);
		barrier_ok(b);
		const char *dir = getenv("BOOT_DIR");
		char path[4096];
		snprintf(path, sizeof(path), "%s/ready.%d", dir ? dir : ".",
			 b->rank);
		int fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
		if (fd >= 0)
			close(fd);
		/* A bounded wait: a PE the signal missed ends anyway. */
		for (int i = 0; i < 600; i++)
			sleep_ms(100);
		note("nosignal");
		return 0;
	}
	if (!strcmp(mode, "orphan")) {
		boot(NULL, 0, 0, &b);
		pid_t pid = fork();
		if (pid == 0) {
			for (int i = 0; i < 600; i++)
				sleep_ms(100);
			_exit(0);
		}
		char word[32];
		snprintf(word, sizeof(word), "%d", (int)pid);
		note(word);
		barrier_ok(b);
		if (b->rank == a1)
			exit(1);
		for (int i = 0; i < 600; i++)
			sleep_ms(100);
		return 0;
	}
	if (!strcmp(mode, "strangers")) {
		const char *r = getenv("ZESHMEM_RANK");
		unsigned epoch = 0;
		char name[32];
		me = r ? atoi(r) : 0;
		if (me == 0)
			publish_uid();
		wait_file("go1");
		boot(NULL, 0, 0, &b);
		rounds(b, NULL, 20, &epoch);
		snprintf(name, sizeof(name), "ready.%d", me);
		touch(name);
		wait_file("go2");
		rounds(b, NULL, 20, &epoch);
		wait_file("go3");
		barrier_ok(b);
		sh_boot_close(b);
		note("ok");
		return 0;
	}
	if (!strcmp(mode, "keep")) {
		char word[64], name[32];
		boot(NULL, 0, 0, &b);
		int up[2];
		if (pipe(up))
			fail("pipe");
		pid_t kid = fork();
		if (kid == 0) {
			/* the child: a grandchild, its pid up the pipe */
			pid_t g = fork();
			if (g == 0) {
				for (int i = 0; i < 600; i++)
					sleep_ms(100);
				_exit(0);
			}
			if (write(up[1], &g, sizeof(g)) != sizeof(g))
				_exit(1);
			for (int i = 0; i < 600; i++)
				sleep_ms(100);
			_exit(0);
		}
		pid_t g = -1;
		if (kid < 0 || read(up[0], &g, sizeof(g)) != sizeof(g))
			fail("fork");
		snprintf(word, sizeof(word), "%d %d", (int)kid, (int)g);
		note(word);
		barrier_ok(b);
		snprintf(name, sizeof(name), "ready.%d", b->rank);
		touch(name);
		for (int i = 0; i < 600; i++)
			sleep_ms(100);
		return 0;
	}
	if (!strcmp(mode, "selfroot")) {
		const char *dir = getenv("BOOT_DIR");
		int rank = atoi(getenv("ZESHMEM_RANK") ? getenv("ZESHMEM_RANK")
						       : "0");
		int n = atoi(getenv("ZESHMEM_NRANKS") ? getenv("ZESHMEM_NRANKS")
						      : "1");
		unsigned char uid[SH_UID_BYTES];
		char hex[2 * SH_UID_BYTES + 1], path[4096], tmp[4096];
		int fds = count_fds();
		me = rank;
		snprintf(path, sizeof(path), "%s/uid", dir);
		if (rank == 0) {
			if (sh_boot_uid_create(uid))
				fail("sh_boot_uid_create");
			sh_boot_uid_to_hex(uid, hex);
			snprintf(tmp, sizeof(tmp), "%s/uid.tmp", dir);
			FILE *f = fopen(tmp, "w");
			if (!f || fputs(hex, f) < 0 || fclose(f))
				fail("write %s", tmp);
			if (rename(tmp, path))
				fail("rename");
		} else {
			int i;
			for (i = 0; i < 600; i++) {
				FILE *f = fopen(path, "r");
				if (f) {
					size_t k = fread(hex, 1, 2 * SH_UID_BYTES, f);
					fclose(f);
					hex[k] = 0;
					if (k == 2 * SH_UID_BYTES)
						break;
				}
				sleep_ms(20);
			}
			if (i == 600)
				fail("no uid file");
			if (sh_boot_uid_from_hex(hex, uid))
				fail("uid hex");
		}
		boot(uid, rank, n, &b);
		if (strcmp(b->ops->name, "uid"))
			fail("backend %s", b->ops->name);
		unsigned epoch = 0;
		rounds(b, NULL, a1 > 0 ? a1 : 1, &epoch);
		if (argc > 3) {
			/* selfroot R V: PE V dies, the others' barrier fails */
			signal(SIGTERM, SIG_IGN);
			if (rank == a2)
				raise(SIGKILL);
			int ret = b->ops->barrier(b);
			if (ret != -EHOSTDOWN)
				fail("barrier after PE %d died: %d", a2, ret);
			note("hostdown");
			sh_boot_close(b);
			return 0;
		}
		sh_boot_close(b);
		if (count_fds() != fds)
			fail("fds: %d before, %d after", fds, count_fds());
		note("ok");
		return 0;
	}
	if (!strcmp(mode, "join") && argc == 6) {
		/* join HEX RANK N gather|mismatch: the test process is the
		 * root (test_boot.c's in-process cases). */
		unsigned char uid[SH_UID_BYTES];
		int rank = atoi(argv[3]), n = atoi(argv[4]);
		me = rank;
		if (sh_boot_uid_from_hex(argv[2], uid))
			return 9;
		if (sh_boot_open(uid, rank, n, &b))
			return 10;
		if (!strcmp(argv[5], "gather")) {
			int v = rank * 100, *all = calloc((size_t)n, sizeof(int));
			if (!all || b->ops->allgather(b, &v, sizeof(v), all))
				return 11;
			for (int i = 0; i < n; i++)
				if (all[i] != i * 100)
					return 12;
			free(all);
		} else {
			char m[8] = { 0 }, all[64];
			if (n > 8 || b->ops->allgather(b, m, 8, all) != -EPROTO)
				return 11;
		}
		if (b->ops->barrier(b))
			return 13;
		sh_boot_close(b);
		return 0;
	}
	fail("unknown mode %s", mode);
	return 3;
}
