// SPDX-License-Identifier: MIT
/*
 * sh_boot_single.c: the bootstrap of a job of one PE (a plain ./prog):
 * allgather is a copy, barrier returns at once, abort_job has no one else
 * to end (it returns, the caller exits with the status).
 */
#include "sh_boot_impl.h"

#include <errno.h>
#include <string.h>

static int
single_allgather(struct sh_boot *b, const void *mine, size_t len, void *all)
{
	if (len && (!mine || !all))
		return -EINVAL;
	if (len)
		memmove(all, mine, len);
	return 0;
}

static int
single_barrier(struct sh_boot *b)
{
	return 0;
}

static void
single_abort_job(struct sh_boot *b, int status)
{
}

static void
single_fini(struct sh_boot *b)
{
}

static const struct sh_boot_ops single_ops = {
	.name = "single",
	.allgather = single_allgather,
	.barrier = single_barrier,
	.abort_job = single_abort_job,
	.fini = single_fini,
};

int
sh_boot_single_open(struct sh_boot *b)
{
	b->ops = &single_ops;
	b->rank = 0;
	b->nranks = 1;
	b->local_rank = 0;
	return 0;
}
