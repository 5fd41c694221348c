// SPDX-License-Identifier: MIT
/*
 * sh_boot_pmix.c: the PMIx bootstrap (mpirun / oshrun set PMIX_RANK).
 * Built without PMIx, opening it says unsupported.
 *
 * allgather = PMIx_Put (PMIX_GLOBAL) of this PE's bytes under a key of its
 * own per call, Commit, a Fence that collects the data, a Get per PE;
 * barrier = a Fence; abort_job = PMIx_Abort (the launcher ends the job
 * with that status). Every fence is bounded by ZESHMEM_TIMEOUT.
 * Keys are never reused (a key put again is not found after the next
 * fence with Debian's PMIx 4.2); each allgather leaves its key in the
 * store, and a collecting fence grows with them: 100 allgathers of 2 PEs
 * take about 0.3 s, 800 about 7 s. The runtime uses the bootstrap at
 * init, heap growth and finalize only, far below that.
 *
 * A PE that dies: Open MPI's fence then fails with a partial success, or,
 * when the launcher already dropped the dead PE, succeeds among the
 * others. So the open exchanges every PE's pid and host, and before each
 * fence (and after one that failed) the PEs of this host are checked
 * alive (a zombie is dead): the call fails with -EHOSTDOWN naming the PE,
 * and so does every later one. A PE that dies while the others are in a
 * fence may let that one fence succeed; the next call fails.
 * PEs on other hosts are left to the launcher, which ends the job.
 *
 * Life: PMIx is initialised by the first open and stays so until the
 * process exits (an atexit handler finalizes it; not in a forked child):
 * a close keeps it. Finalizing at each close and initialising again broke
 * init/finalize cycles: Open MPI's server still counted a PE that had
 * finalized in a fence that another PE, already in its next cycle, had
 * started, and failed that fence as partial (2 of 15 jobs of 3 PEs and
 * 5 cycles). Once per process is what Open MPI's own MPI_Init does.
 */
#include "sh_boot_impl.h"

#include "u_log.h"

#include <errno.h>

#ifndef ZESHMEM_HAVE_PMIX
int
sh_boot_pmix_open(struct sh_boot *b)
{
	u_err("shmem", "ZESHMEM_BOOTSTRAP=pmix: built without PMIx "
		       "(libpmix-dev)");
	return -EOPNOTSUPP;
}
#else

#include <pmix.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the open exchanges: who each PE is, to tell whether it lives. */
struct pmix_who {
	int32_t pid;
	char host[64];
	char boot_id[40];
};

struct pmix_priv {
	pmix_proc_t me;
	bool broken;                  /* a fence said a PE is gone */
	int dead;                     /* a PE of this host found dead, or -1 */
	pid_t *local_pid;             /* [nranks]: PEs of this host, else 0 */
};

/* Allgather keys: zeshmem.ag.<seq>. The count runs across opens: a key
 * put in an earlier open stays in the server's store, so a job that
 * opens again must not reuse it. Every PE makes the same calls, so the
 * counts agree. Written only inside the collective calls. */
static uint32_t ag_seq;

/* The process's PMIx session (see Life above), under session_mu. */
static pthread_mutex_t session_mu = PTHREAD_MUTEX_INITIALIZER;
static bool session_up;
static bool session_atexit;
static pid_t session_pid;
static pmix_proc_t session_me;

static void
session_end(void)
{
	pthread_mutex_lock(&session_mu);
	/* A forked child shares the parent's connection: it must not say
	 * goodbye on the parent's behalf. */
	if (session_up && getpid() == session_pid) {
		session_up = false;
		PMIx_Finalize(NULL, 0);
	}
	pthread_mutex_unlock(&session_mu);
}

/* PMIx_Init once per process; later opens get the same identity. */
static pmix_status_t
session_begin(pmix_proc_t *me)
{
	pmix_status_t rc = PMIX_SUCCESS;

	pthread_mutex_lock(&session_mu);
	if (!session_up) {
		rc = PMIx_Init(&session_me, NULL, 0);
		if (rc == PMIX_SUCCESS) {
			session_up = true;
			session_pid = getpid();
			if (!session_atexit && atexit(session_end) == 0)
				session_atexit = true;
		}
	}
	if (rc == PMIX_SUCCESS)
		*me = session_me;
	pthread_mutex_unlock(&session_mu);
	return rc;
}

static int
pmix_err(struct sh_boot *b, const char *what, pmix_status_t rc)
{
	struct pmix_priv *p = b->priv;

	if (rc == PMIX_ERR_PARTIAL_SUCCESS) {
		/* PMIx does not say which PE: the launcher will. */
		u_err("shmem", "PE %d: %s: a PE of the job is gone (PMIx: "
			       "partial fence)", b->rank, what);
		p->broken = true;
		return -EHOSTDOWN;
	}
	u_err("shmem", "PE %d: PMIx %s: %s", b->rank, what,
	      PMIx_Error_string(rc));
	switch (rc) {
	case PMIX_ERR_TIMEOUT:
		return -ETIMEDOUT;
	case PMIX_ERR_UNREACH:
	case PMIX_ERR_LOST_CONNECTION:
	case PMIX_ERR_PROC_ABORTED:
		return -EHOSTDOWN;
	case PMIX_ERR_NOMEM:
		return -ENOMEM;
	case PMIX_ERR_NOT_SUPPORTED:
		return -EOPNOTSUPP;
	default:
		return -EIO;
	}
}

/* The kernel's PF_EXITING in /proc/<pid>/stat's flags (field 9): set when
 * a task enters exit. */
#define SH_PF_EXITING 0x4u

/* Dead: gone, a zombie, or exiting. Exiting counts: a killed process's
 * sockets close (the launcher then drops it from the fences, which then
 * succeed among the others) before it becomes a zombie, and under load
 * its last thread may sit between the two for a while. When the launcher
 * has seen the socket close, the process (its leader's line in /proc) is
 * a zombie already or a task in exit. */
static bool
pid_dead(pid_t pid)
{
	char path[64], buf[512];
	unsigned flags = 0;
	char state = 0;
	FILE *f;
	size_t n;
	char *p;

	if (kill(pid, 0) < 0 && errno == ESRCH)
		return true;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c %*d %*d %*d %*d %*d %u", &state,
			 &flags) < 1)
		return false;
	return state == 'Z' || state == 'X' || (flags & SH_PF_EXITING);
}

/* -EHOSTDOWN (logged) when a PE of this host is gone. */
static int
check_local(struct sh_boot *b, const char *what)
{
	struct pmix_priv *p = b->priv;

	for (int i = 0; p->local_pid && p->dead < 0 && i < b->nranks; i++)
		if (p->local_pid[i] > 0 && pid_dead(p->local_pid[i]))
			p->dead = i;
	if (p->dead < 0)
		return 0;
	u_err("shmem", "PE %d: %s: PE %d (pid %d) died", b->rank, what,
	      p->dead, (int)p->local_pid[p->dead]);
	return -EHOSTDOWN;
}

/* A fence over the whole job, bounded by ZESHMEM_TIMEOUT. */
static int
fence(struct sh_boot *b, bool collect, const char *what)
{
	struct pmix_priv *p = b->priv;
	pmix_proc_t all;
	pmix_info_t info[2];
	bool flag = collect;
	int tmo = (int)b->timeout_s;
	pmix_status_t rc;

	if (check_local(b, what))
		return -EHOSTDOWN;
	if (p->broken) {
		u_err("shmem", "PE %d: %s: a PE of the job is gone", b->rank,
		      what);
		return -EHOSTDOWN;
	}
	PMIX_LOAD_PROCID(&all, p->me.nspace, PMIX_RANK_WILDCARD);
	PMIX_INFO_CONSTRUCT(&info[0]);
	PMIX_INFO_CONSTRUCT(&info[1]);
	PMIX_INFO_LOAD(&info[0], PMIX_COLLECT_DATA, &flag, PMIX_BOOL);
	PMIX_INFO_LOAD(&info[1], PMIX_TIMEOUT, &tmo, PMIX_INT);
	rc = PMIx_Fence(&all, 1, info, 2);
	PMIX_INFO_DESTRUCT(&info[0]);
	PMIX_INFO_DESTRUCT(&info[1]);
	if (rc != PMIX_SUCCESS)
		return check_local(b, what) ? -EHOSTDOWN : pmix_err(b, what, rc);
	/* Not checked after a fence that worked: a PE may end right after
	 * the last one, and this one still completed. */
	return 0;
}

static int
pmix_allgather(struct sh_boot *b, const void *mine, size_t len, void *all)
{
	struct pmix_priv *p = b->priv;
	char key[PMIX_MAX_KEYLEN];
	pmix_value_t v, *got;
	pmix_status_t rc;
	int ret;

	if (len && (!mine || !all))
		return -EINVAL;
	if (len > SH_BOOT_MAX_GATHER / (size_t)b->nranks)
		return -EOVERFLOW;
	if (p->broken)
		return fence(b, true, "allgather");
	snprintf(key, sizeof(key), "zeshmem.ag.%u", ++ag_seq);
	PMIX_VALUE_CONSTRUCT(&v);
	v.type = PMIX_BYTE_OBJECT;
	v.data.bo.bytes = (char *)mine;
	v.data.bo.size = len;
	rc = PMIx_Put(PMIX_GLOBAL, key, &v);
	if (rc != PMIX_SUCCESS)
		return pmix_err(b, "put", rc);
	rc = PMIx_Commit();
	if (rc != PMIX_SUCCESS)
		return pmix_err(b, "commit", rc);
	ret = fence(b, true, "fence (allgather)");
	if (ret)
		return ret;
	for (int i = 0; i < b->nranks; i++) {
		pmix_proc_t peer;
		PMIX_LOAD_PROCID(&peer, p->me.nspace, (pmix_rank_t)i);
		rc = PMIx_Get(&peer, key, NULL, 0, &got);
		if (rc != PMIX_SUCCESS)
			return pmix_err(b, "get", rc);
		if (got->type != PMIX_BYTE_OBJECT ||
		    got->data.bo.size != len) {
			u_err("shmem", "PE %d: allgather: PE %d gave %zu "
				       "bytes, want %zu", b->rank, i,
			      got->type == PMIX_BYTE_OBJECT
				      ? got->data.bo.size : 0, len);
			PMIX_VALUE_RELEASE(got);
			return -EPROTO;
		}
		if (len)
			memcpy((char *)all + (size_t)i * len,
			       got->data.bo.bytes, len);
		PMIX_VALUE_RELEASE(got);
	}
	return 0;
}

static int
pmix_barrier(struct sh_boot *b)
{
	return fence(b, false, "fence (barrier)");
}

static void
pmix_abort_job(struct sh_boot *b, int status)
{
	/* Ends every process of the job; mpirun exits with status. */
	PMIx_Abort(status, "zeshmem: shmem_global_exit", NULL, 0);
}

static void
pmix_fini(struct sh_boot *b)
{
	struct pmix_priv *p = b->priv;

	/* PMIx itself stays up until exit (Life, above). */
	free(p->local_pid);
	free(p);
	b->priv = NULL;
}

static void
who_am_i(struct pmix_who *w)
{
	FILE *f;

	memset(w, 0, sizeof(*w));
	w->pid = (int32_t)getpid();
	gethostname(w->host, sizeof(w->host) - 1);
	f = fopen("/proc/sys/kernel/random/boot_id", "re");
	if (f) {
		if (!fgets(w->boot_id, sizeof(w->boot_id), f))
			w->boot_id[0] = 0;
		fclose(f);
	}
}

/* Every PE's pid and host; keeps the pids of this host's PEs. */
static int
exchange_who(struct sh_boot *b)
{
	struct pmix_priv *p = b->priv;
	struct pmix_who me, *all;
	int ret;

	who_am_i(&me);
	all = calloc((size_t)b->nranks, sizeof(*all));
	p->local_pid = calloc((size_t)b->nranks, sizeof(*p->local_pid));
	if (!all || !p->local_pid) {
		free(all);
		return -ENOMEM;
	}
	ret = pmix_allgather(b, &me, sizeof(me), all);
	for (int i = 0; ret == 0 && i < b->nranks; i++)
		if (i != b->rank && !strcmp(all[i].host, me.host) &&
		    !strcmp(all[i].boot_id, me.boot_id))
			p->local_pid[i] = (pid_t)all[i].pid;
	free(all);
	return ret;
}

static const struct sh_boot_ops pmix_ops = {
	.name = "pmix",
	.allgather = pmix_allgather,
	.barrier = pmix_barrier,
	.abort_job = pmix_abort_job,
	.fini = pmix_fini,
};

int
sh_boot_pmix_open(struct sh_boot *b)
{
	struct pmix_priv *p = calloc(1, sizeof(*p));
	pmix_proc_t job;
	pmix_value_t *v;
	pmix_status_t rc;
	const char *env;
	int ret;

	if (!p)
		return -ENOMEM;
	p->dead = -1;
	rc = session_begin(&p->me);
	if (rc != PMIX_SUCCESS) {
		free(p);
		u_err("shmem", "PMIx_Init: %s (not started by a PMIx "
			       "launcher?)", PMIx_Error_string(rc));
		return rc == PMIX_ERR_UNREACH ? -EHOSTDOWN : -EIO;
	}
	b->priv = p;
	b->rank = (int)p->me.rank;
	PMIX_LOAD_PROCID(&job, p->me.nspace, PMIX_RANK_WILDCARD);
	rc = PMIx_Get(&job, PMIX_JOB_SIZE, NULL, 0, &v);
	if (rc != PMIX_SUCCESS) {
		ret = pmix_err(b, "job size", rc);
		free(p);
		b->priv = NULL;
		return ret;
	}
	b->nranks = (int)v->data.uint32;
	PMIX_VALUE_RELEASE(v);
	rc = PMIx_Get(&p->me, PMIX_LOCAL_RANK, NULL, 0, &v);
	if (rc == PMIX_SUCCESS) {
		b->local_rank = v->data.uint16;
		PMIX_VALUE_RELEASE(v);
	} else if ((env = getenv("PMIX_LOCAL_RANK"))) {
		b->local_rank = atoi(env);
	}
	b->ops = &pmix_ops;
	ret = exchange_who(b);
	if (ret) {
		pmix_fini(b);
		b->ops = NULL;
		return ret;
	}
	return 0;
}
#endif
