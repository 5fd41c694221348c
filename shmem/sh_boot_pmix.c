// SPDX-License-Identifier: MIT
/*
 * sh_boot_pmix.c: the PMIx bootstrap (mpirun / oshrun set PMIX_RANK).
 * Built without PMIx, opening it says unsupported.
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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pmix_priv {
	pmix_proc_t me;
	bool broken;                  /* a fence said a PE is gone */
};

/* Allgather keys: zeshmem.ag.<seq>. The count runs across opens: a key
 * put before a PMIx_Finalize stays in the server's store, so a job that
 * opens again must not reuse it. Every PE makes the same calls, so the
 * counts agree. Written only inside the collective calls. */
static uint32_t ag_seq;

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
	return rc == PMIX_SUCCESS ? 0 : pmix_err(b, what, rc);
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
	PMIx_Finalize(NULL, 0);
	free(b->priv);
	b->priv = NULL;
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

	if (!p)
		return -ENOMEM;
	rc = PMIx_Init(&p->me, NULL, 0);
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
		int ret = pmix_err(b, "job size", rc);
		PMIx_Finalize(NULL, 0);
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
	return 0;
}
#endif
