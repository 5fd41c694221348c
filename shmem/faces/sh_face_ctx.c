// SPDX-License-Identifier: MIT
/*
 * sh_face_ctx.c: communication contexts (shmem_ctx_create,
 * shmem_team_create_ctx, shmem_ctx_destroy, shmem_ctx_get_team) over
 * sh_ctx.c. A context of a team takes PE numbers of that team in every
 * RMA, AMO and signal routine (face_cpe, sh_face.h). Failures return the
 * specification's nonzero result with ctx = SHMEM_CTX_INVALID; destroying
 * SHMEM_CTX_DEFAULT or something that is not a context ends the PE.
 */
#include "sh_face.h"

#include <string.h>

static int
make(const char *call, struct sh_team *team, long options, shmem_ctx_t *ctx)
{
	if (ctx == NULL) {
		u_warn("shmem", "%s: ctx is NULL", call);
		return -1;
	}
	*ctx = SHMEM_CTX_INVALID;
	struct sh_ctx *c;
	/* the world's contexts carry NULL (sh_ctx_create) */
	int rc = sh_ctx_create(team == sh_team_world ? NULL : team, options,
			       &c);
	if (rc < 0) {
		u_warn("shmem", "%s: options %#lx: %s", call, options,
		       rc == -EINVAL ? "unknown option bits" : strerror(-rc));
		return -1;
	}
	*ctx = (shmem_ctx_t)c;
	return 0;
}

int
shmem_ctx_create(long options, shmem_ctx_t *ctx)
{
	sh_check_init(__func__);
	return make(__func__, NULL, options, ctx);
}

int
shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx)
{
	sh_check_init(__func__);
	if (team == SHMEM_TEAM_INVALID) {
		if (ctx)
			*ctx = SHMEM_CTX_INVALID;
		u_warn("shmem", "team is SHMEM_TEAM_INVALID");
		return -1;
	}
	struct sh_team *t = face_team(__func__, team);
	if (!t) {
		if (ctx)
			*ctx = SHMEM_CTX_INVALID;
		return -1;
	}
	return make(__func__, t, options, ctx);
}

void
shmem_ctx_destroy(shmem_ctx_t ctx)
{
	/* The specification: destroying SHMEM_CTX_INVALID does nothing. */
	if (ctx == SHMEM_CTX_INVALID)
		return;
	sh_check_init(__func__);
	if (ctx == SHMEM_CTX_DEFAULT)
		sh_fatal(__func__, "SHMEM_CTX_DEFAULT cannot be destroyed");
	struct sh_ctx *c = (struct sh_ctx *)ctx;
	if (!sh_ctx_valid(c))
		sh_fatal(__func__, "ctx %p was not made by shmem_ctx_create "
			 "(or was destroyed already)", (void *)ctx);
	int rc = sh_ctx_destroy(c);
	if (rc < 0)
		face_fail(__func__, rc, -1, "ctx", ctx);
}

int
shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team)
{
	if (team == NULL)
		return -1;
	struct sh_ctx *c = (struct sh_ctx *)ctx;
	if (sh.initialized && ctx != SHMEM_CTX_INVALID &&
	    (ctx == SHMEM_CTX_DEFAULT || sh_ctx_valid(c))) {
		*team = c->team ? (shmem_team_t)c->team : SHMEM_TEAM_WORLD;
		return 0;
	}
	*team = SHMEM_TEAM_INVALID;
	return -1;
}
