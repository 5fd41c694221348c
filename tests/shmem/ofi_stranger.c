// SPDX-License-Identifier: MIT
/*
 * ofi_stranger: another uid tries a job's heap over libfabric (issue 26,
 * point 1).
 *
 *   ofi_stranger ZESHRUN SHMEM_PE
 *
 * Starts `ZESHRUN -n 2 -- SHMEM_PE exposed DIR` over the network
 * transport (ZESHMEM_FORCE_NETWORK=1, tcp;ofi_rxm: every PE listens on a
 * TCP port of its own). Once both PEs filled their heap with a pattern
 * (DIR/ready.<pe> holds the PE's pid), finds the PEs' listening sockets
 * (their fds' inodes in /proc/net/tcp: what any local user sees of the
 * ports), and forks a stranger: a child that drops to uid/gid 65534
 * (nobody) and, for each PE's address (a wildcard one as 127.0.0.1 and
 * as this host's other IPv4 addresses), inserts it into a libfabric AV
 * of its own and tries fi_read of 4 KiB at offset 0 and fi_write at
 * 2 MiB (offset addressing: tcp;ofi_rxm's mr_mode 0) under guessed keys:
 * the old constant keys 1, 2, 3, 65, 66, 67 and four random ones. Each
 * operation must end in an error completion, a refused connection or no
 * answer within 3 s: the child's status is the number that completed
 * without error. Every listening socket of the PEs must be bound to
 * 127.0.0.1 (the job is on this host alone). Then the job is let go: both PEs must find their
 * pattern intact and still put to each other ("PE <n>: exposed ok").
 * Skips (77) unless root (setuid) or when the job cannot use tcp;ofi_rxm.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ADDRS 16
#define OP_BYTES 4096

static struct sockaddr_in addrs[MAX_ADDRS];
static int naddrs;
static int not_loopback; /* listeners bound elsewhere than 127.0.0.1 */

static void
sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static uint64_t
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void
add_addr(uint32_t ip_net, uint16_t port_net)
{
	for (int i = 0; i < naddrs; i++)
		if (addrs[i].sin_addr.s_addr == ip_net &&
		    addrs[i].sin_port == port_net)
			return;
	if (naddrs == MAX_ADDRS)
		return;
	struct sockaddr_in *a = &addrs[naddrs++];
	memset(a, 0, sizeof(*a));
	a->sin_family = AF_INET;
	a->sin_addr.s_addr = ip_net;
	a->sin_port = port_net;
}

/* A listening socket's address: a wildcard one as every local IPv4
 * address (loopback first). */
static void
add_listener(uint32_t ip_net, uint16_t port_net)
{
	if (ip_net != htonl(INADDR_LOOPBACK)) {
		struct in_addr a = { .s_addr = ip_net };
		printf("a PE listens on %s:%u, not loopback\n", inet_ntoa(a),
		       ntohs(port_net));
		not_loopback++;
	}
	if (ip_net != htonl(INADDR_ANY)) {
		add_addr(ip_net, port_net);
		return;
	}
	add_addr(htonl(INADDR_LOOPBACK), port_net);
	struct ifaddrs *ifa;
	if (getifaddrs(&ifa))
		return;
	for (struct ifaddrs *i = ifa; i; i = i->ifa_next)
		if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET &&
		    (i->ifa_flags & IFF_UP))
			add_addr(((struct sockaddr_in *)i->ifa_addr)
					 ->sin_addr.s_addr, port_net);
	freeifaddrs(ifa);
}

/* The listening IPv4 sockets of pid: its socket fds' inodes, looked up
 * in /proc/net/tcp (state 0A). */
static void
find_listeners(int pid)
{
	char path[64];
	unsigned long inos[256];
	int nino = 0;
	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	DIR *d = opendir(path);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) && nino < 256) {
		char l[320], t[128];
		snprintf(l, sizeof(l), "/proc/%d/fd/%s", pid, e->d_name);
		ssize_t n = readlink(l, t, sizeof(t) - 1);
		if (n <= 0)
			continue;
		t[n] = '\0';
		unsigned long ino;
		if (sscanf(t, "socket:[%lu]", &ino) == 1)
			inos[nino++] = ino;
	}
	closedir(d);
	FILE *f = fopen("/proc/net/tcp", "re");
	if (!f)
		return;
	char line[512];
	while (fgets(line, sizeof(line), f)) {
		unsigned ip, port, st;
		unsigned long ino;
		if (sscanf(line, " %*d: %x:%x %*x:%*x %x %*x:%*x %*x:%*x %*x "
				 "%*u %*u %lu", &ip, &port, &st, &ino) != 4 ||
		    st != 0x0A)
			continue;
		for (int i = 0; i < nino; i++)
			if (inos[i] == ino)
				add_listener(ip, htons((uint16_t)port));
	}
	fclose(f);
}

/* ---- the stranger (uid 65534) ------------------------------------------ */

struct fab {
	struct fi_info *info;
	struct fid_fabric *fab;
	struct fid_domain *dom;
	struct fid_av *av;
	struct fid_cq *cq;
	struct fid_cntr *cntr;
	struct fid_ep *ep;
};

static int
fab_open(struct fab *f)
{
	struct fi_info *h = fi_allocinfo();
	if (!h)
		return -1;
	h->caps = FI_RMA;
	h->ep_attr->type = FI_EP_RDM;
	h->domain_attr->mr_mode = 0;
	/* a write completes when the target applied it (as the job's do):
	 * a transmit completion would say nothing of the target */
	h->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
	h->fabric_attr->prov_name = strdup("tcp;ofi_rxm");
	int rc = fi_getinfo(FI_VERSION(1, 9), NULL, NULL, 0, h, &f->info);
	fi_freeinfo(h);
	if (rc)
		return rc;
	struct fi_av_attr ava = { .type = FI_AV_TABLE, .count = MAX_ADDRS };
	struct fi_cq_attr cqa = { .format = FI_CQ_FORMAT_CONTEXT,
				  .wait_obj = FI_WAIT_NONE, .size = 64 };
	struct fi_cntr_attr ca = { .events = FI_CNTR_EVENTS_COMP,
				   .wait_obj = FI_WAIT_NONE };
	if ((rc = fi_fabric(f->info->fabric_attr, &f->fab, NULL)) ||
	    (rc = fi_domain(f->fab, f->info, &f->dom, NULL)) ||
	    (rc = fi_av_open(f->dom, &ava, &f->av, NULL)) ||
	    (rc = fi_cq_open(f->dom, &cqa, &f->cq, NULL)) ||
	    (rc = fi_cntr_open(f->dom, &ca, &f->cntr, NULL)) ||
	    (rc = fi_endpoint(f->dom, f->info, &f->ep, NULL)) ||
	    (rc = fi_ep_bind(f->ep, &f->av->fid, 0)) ||
	    (rc = fi_ep_bind(f->ep, &f->cq->fid, FI_TRANSMIT | FI_RECV)) ||
	    (rc = fi_ep_bind(f->ep, &f->cntr->fid, FI_WRITE | FI_READ)) ||
	    (rc = fi_enable(f->ep)))
		return rc;
	return 0;
}

static void
fab_close(struct fab *f)
{
	if (f->ep)
		fi_close(&f->ep->fid);
	if (f->av)
		fi_close(&f->av->fid);
	if (f->cq)
		fi_close(&f->cq->fid);
	if (f->cntr)
		fi_close(&f->cntr->fid);
	if (f->dom)
		fi_close(&f->dom->fid);
	if (f->fab)
		fi_close(&f->fab->fid);
	if (f->info)
		fi_freeinfo(f->info);
}

/* One operation: 1 when it completed without error, 0 otherwise (an
 * error completion, a post that fails for good, no answer in 3 s). */
static int
try_op(struct fab *f, fi_addr_t a, int write, uint64_t off, uint64_t key,
       char *buf, const char *where)
{
	uint64_t done0 = fi_cntr_read(f->cntr);
	uint64_t err0 = fi_cntr_readerr(f->cntr);
	uint64_t t0 = now_ms();
	ssize_t rc;
	for (;;) {
		rc = write ? fi_write(f->ep, buf, OP_BYTES, NULL, a, off, key,
				      NULL)
			   : fi_read(f->ep, buf, OP_BYTES, NULL, a, off, key,
				     NULL);
		if (rc != -FI_EAGAIN || now_ms() - t0 > 3000)
			break;
		struct fi_cq_entry ent;
		fi_cq_read(f->cq, &ent, 1);
		sleep_ms(1);
	}
	if (rc) {
		printf("stranger: %s %s key %llu: post: %s\n", where,
		       write ? "write" : "read", (unsigned long long)key,
		       fi_strerror((int)-rc));
		return 0;
	}
	for (;;) {
		struct fi_cq_entry ent;
		ssize_t n = fi_cq_read(f->cq, &ent, 1);
		if (n == -FI_EAVAIL) {
			struct fi_cq_err_entry ee = { 0 };
			fi_cq_readerr(f->cq, &ee, 0);
			printf("stranger: %s %s key %llu: refused (%s)\n",
			       where, write ? "write" : "read",
			       (unsigned long long)key, fi_strerror(ee.err));
			return 0;
		}
		if (fi_cntr_readerr(f->cntr) != err0) {
			printf("stranger: %s %s key %llu: error\n", where,
			       write ? "write" : "read",
			       (unsigned long long)key);
			return 0;
		}
		if (fi_cntr_read(f->cntr) != done0) {
			printf("stranger: %s %s key %llu: COMPLETED: the "
			       "heap is open\n", where,
			       write ? "write" : "read",
			       (unsigned long long)key);
			return 1;
		}
		if (now_ms() - t0 > 3000) {
			printf("stranger: %s %s key %llu: no answer\n", where,
			       write ? "write" : "read",
			       (unsigned long long)key);
			return 0;
		}
		sleep_ms(1);
	}
}

static int
stranger(void)
{
	if (setgroups(0, NULL) || setgid(65534) || setuid(65534)) {
		perror("stranger: setuid 65534");
		return 100;
	}
	if (getuid() != 65534 || geteuid() != 65534) {
		printf("stranger: still uid %d\n", (int)geteuid());
		return 100;
	}
	uint64_t keys[10] = { 1, 2, 3, 65, 66, 67 };
	if (getrandom(&keys[6], 4 * sizeof(uint64_t), 0) !=
	    (ssize_t)(4 * sizeof(uint64_t)))
		return 100;
	static char buf[OP_BYTES];
	int opened = 0;
	/* A fresh endpoint (so a fresh connection) for every operation: a
	 * PE may drop the connection of a rejected one. */
	for (int i = 0; i < naddrs; i++)
		for (int k = 0; k < 10; k++)
			for (int op = 0; op < 2; op++) {
				struct fab f = { 0 };
				int rc = fab_open(&f);
				if (rc) {
					printf("stranger: no tcp;ofi_rxm "
					       "endpoint: %s\n",
					       fi_strerror(rc < 0 ? -rc : rc));
					return 100;
				}
				fi_addr_t fa;
				char where[64];
				snprintf(where, sizeof(where), "%s:%u",
					 inet_ntoa(addrs[i].sin_addr),
					 ntohs(addrs[i].sin_port));
				if (fi_av_insert(f.av, &addrs[i], 1, &fa, 0,
						 NULL) == 1) {
					memset(buf, 0xEE, sizeof(buf));
					opened += try_op(&f, fa, op,
							 op * (2u << 20),
							 keys[k], buf, where);
				} else {
					printf("stranger: %s: fi_av_insert "
					       "refused\n", where);
				}
				fab_close(&f);
			}
	return opened > 99 ? 99 : opened;
}

/* ---- the test ------------------------------------------------------------ */

static int
read_pid(const char *dir, int pe)
{
	char path[512];
	int pid = 0;
	snprintf(path, sizeof(path), "%s/ready.%d", dir, pe);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	if (fscanf(f, "%d", &pid) != 1)
		pid = 0;
	fclose(f);
	return pid;
}

int
main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: ofi_stranger ZESHRUN SHMEM_PE\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (geteuid() != 0) {
		printf("SKIP: not root (the stranger is a child that drops "
		       "to uid 65534)\n");
		return 77;
	}
	char dir[] = "/tmp/ofi_stranger.XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	chmod(dir, 0755);
	char out[600];
	snprintf(out, sizeof(out), "%s/job.out", dir);
	setenv("ZESHMEM_FORCE_NETWORK", "1", 1);
	setenv("ZESHMEM_PROVIDER", "tcp;ofi_rxm", 1);
	setenv("ZESHMEM_SYMMETRIC_SIZE", "8M", 1);
	setenv("ZESHMEM_TIMEOUT", "60", 1);
	setenv("SHMEM_PE_NODE_PES", "1", 1);
	pid_t job = fork();
	if (job < 0)
		return 1;
	if (job == 0) {
		setpgid(0, 0);
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			      0644);
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(127);
		execl(argv[1], argv[1], "-n", "2", "--", argv[2], "exposed",
		      dir, (char *)NULL);
		_exit(127);
	}
	setpgid(job, job);
	pid_t pg = job;
	int pids[2] = { 0, 0 }, fail = 0, st = 0;
	for (int i = 0; i < 6000 && !(pids[0] && pids[1]); i++) {
		pids[0] = read_pid(dir, 0);
		pids[1] = read_pid(dir, 1);
		if (waitpid(job, &st, WNOHANG) == job) {
			job = 0;
			break;
		}
		sleep_ms(10);
	}
	if (!pids[0] || !pids[1]) {
		printf("FAIL: the job's PEs never got ready\n");
		fail = 1;
	}
	for (int pe = 0; !fail && pe < 2; pe++)
		find_listeners(pids[pe]);
	if (!fail && !naddrs) {
		printf("FAIL: no listening socket of PEs %d, %d\n", pids[0],
		       pids[1]);
		fail = 1;
	}
	for (int i = 0; !fail && i < naddrs; i++)
		printf("a PE listens on %s:%u\n", inet_ntoa(addrs[i].sin_addr),
		       ntohs(addrs[i].sin_port));
	if (!fail && not_loopback) {
		printf("FAIL: %d listening socket(s) of a job on one host not "
		       "bound to loopback\n", not_loopback);
		fail = 1;
	}
	if (!fail) {
		fflush(stdout);
		pid_t s = fork();
		if (s == 0)
			_exit(stranger());
		int ss = 0;
		for (int i = 0; i < 24000 && waitpid(s, &ss, WNOHANG) != s;
		     i++)
			sleep_ms(10);
		if (waitpid(s, &ss, WNOHANG) == 0) {
			kill(s, SIGKILL);
			waitpid(s, &ss, 0);
		}
		if (!WIFEXITED(ss) || WEXITSTATUS(ss) == 100) {
			printf("FAIL: the stranger could not run (status "
			       "0x%x)\n", ss);
			fail = 1;
		} else if (WEXITSTATUS(ss)) {
			printf("FAIL: %d of the stranger's operations "
			       "completed\n", WEXITSTATUS(ss));
			fail = 1;
		}
	}
	char done[600];
	snprintf(done, sizeof(done), "%s/done", dir);
	int fd = open(done, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	if (job) {
		int i;
		for (i = 0; i < 9000 && waitpid(job, &st, WNOHANG) != job; i++)
			sleep_ms(10);
		if (i == 9000) {
			printf("FAIL: the job did not end in 90 s\n");
			kill(-pg, SIGKILL);
			waitpid(job, &st, 0);
			fail = 1;
		}
	}
	kill(-pg, SIGKILL); /* nothing of the job outlives the test */
	char line[512];
	FILE *f = fopen(out, "re");
	int ok = 0;
	while (f && fgets(line, sizeof(line), f)) {
		fputs(line, stdout);
		ok += strstr(line, ": exposed ok") != NULL;
	}
	if (f)
		fclose(f);
	if (!WIFEXITED(st) || WEXITSTATUS(st) || ok != 2) {
		printf("FAIL: the job: status 0x%x, %d of 2 PEs ok\n", st, ok);
		fail = 1;
	}
	for (int pe = 0; pe < 2; pe++) {
		char p[600];
		snprintf(p, sizeof(p), "%s/ready.%d", dir, pe);
		unlink(p);
	}
	unlink(done);
	unlink(out);
	rmdir(dir);
	if (!fail)
		printf("ok: the stranger (uid 65534) tried %d address(es) "
		       "and reached nothing; the heap is unchanged\n", naddrs);
	return fail;
}
