// SPDX-License-Identifier: MIT
/*
 * sh_face_ctx.c: communication contexts. Part 1 of the runtime has the
 * default context only: shmem_ctx_create and shmem_team_create_ctx return
 * the specification's failure (nonzero, ctx = SHMEM_CTX_INVALID), which a
 * program must handle; shmem_ctx_get_team knows SHMEM_CTX_DEFAULT.
 */
#include "sh_face.h"

static int
no_ctx(const char *call, shmem_ctx_t *ctx)
{
	if (ctx)
		*ctx = SHMEM_CTX_INVALID;
	u_info("shmem", "%s: contexts other than SHMEM_CTX_DEFAULT are not "
	       "supported yet", call);
	return -1;
}

int
shmem_ctx_create(long options, shmem_ctx_t *ctx)
{
	(void)options;
	sh_check_init(__func__);
	return no_ctx(__func__, ctx);
}

int
shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx)
{
	(void)team;
	(void)options;
	sh_check_init(__func__);
	return no_ctx(__func__, ctx);
}

void
shmem_ctx_destroy(shmem_ctx_t ctx)
{
	if (ctx == SHMEM_CTX_INVALID)
		return;
	if (ctx == SHMEM_CTX_DEFAULT)
		sh_fatal(__func__, "SHMEM_CTX_DEFAULT cannot be destroyed");
	sh_fatal(__func__, "ctx %p was not made by shmem_ctx_create",
		 (void *)ctx);
}

int
shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team)
{
	if (team == NULL)
		return -1;
	if (ctx == SHMEM_CTX_DEFAULT && sh.initialized) {
		*team = SHMEM_TEAM_WORLD;
		return 0;
	}
	*team = SHMEM_TEAM_INVALID;
	return -1;
}
