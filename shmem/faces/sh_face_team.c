// SPDX-License-Identifier: MIT
/*
 * sh_face_team.c: OpenSHMEM teams: my_pe, n_pes, get_config,
 * translate_pe, split_strided, split_2d, sync, destroy; SHMEM_TEAM_INVALID
 * (NULL) is accepted wherever the specification gives it a result. A
 * destroyed or forged handle gets the same result as SHMEM_TEAM_INVALID
 * plus one warning (face_team); destroying one ends the PE, as destroying
 * something that is not a context does.
 */
#include "sh_face.h"

static void
cfg_in(const shmem_team_config_t *c, long mask, struct sh_team_cfg *out)
{
	out->num_contexts = 0;
	if (c && (mask & SHMEM_TEAM_NUM_CONTEXTS))
		out->num_contexts = c->num_contexts;
}

int
shmem_team_my_pe(shmem_team_t team)
{
	if (team == SHMEM_TEAM_INVALID || !sh.initialized)
		return -1;
	struct sh_team *t = face_team(__func__, team);
	return t ? sh_team_my_pe(t) : -1;
}

int
shmem_team_n_pes(shmem_team_t team)
{
	if (team == SHMEM_TEAM_INVALID || !sh.initialized)
		return -1;
	struct sh_team *t = face_team(__func__, team);
	return t ? sh_team_n_pes(t) : -1;
}

int
shmem_team_get_config(shmem_team_t team, long config_mask,
		      shmem_team_config_t *config)
{
	if (team == SHMEM_TEAM_INVALID || !sh.initialized)
		return -1;
	struct sh_team *t = face_team(__func__, team);
	if (!t)
		return -1;
	if (config == NULL)
		return config_mask == 0 ? 0 : -1;
	struct sh_team_cfg c;
	int rc = sh_team_get_config(t, config_mask, &c);
	if (rc < 0)
		return -1;
	if (config_mask & SHMEM_TEAM_NUM_CONTEXTS)
		config->num_contexts = c.num_contexts;
	return 0;
}

int
shmem_team_translate_pe(shmem_team_t src_team, int src_pe,
			shmem_team_t dest_team)
{
	if (src_team == SHMEM_TEAM_INVALID ||
	    dest_team == SHMEM_TEAM_INVALID || !sh.initialized)
		return -1;
	struct sh_team *s = face_team(__func__, src_team);
	struct sh_team *d = s ? face_team(__func__, dest_team) : NULL;
	if (!d)
		return -1;
	int r = sh_team_translate(s, src_pe, d);
	return r < 0 ? -1 : r;
}

int
shmem_team_split_strided(shmem_team_t parent_team, int start, int stride,
			 int size, const shmem_team_config_t *config,
			 long config_mask, shmem_team_t *new_team)
{
	if (new_team == NULL) {
		u_warn("shmem", "%s: new_team is NULL", __func__);
		return -1;
	}
	*new_team = SHMEM_TEAM_INVALID;
	if (parent_team == SHMEM_TEAM_INVALID || !sh.initialized)
		return -1;
	struct sh_team_cfg c;
	cfg_in(config, config_mask, &c);
	struct sh_team *p = face_team(__func__, parent_team);
	if (!p)
		return -1;
	struct sh_team *t = NULL;
	int rc = sh_team_split_strided(p, start, stride, size, &c, config_mask,
				       &t);
	if (rc < 0)
		return -1;
	*new_team = (shmem_team_t)t;
	return 0;
}

int
shmem_team_split_2d(shmem_team_t parent_team, int xrange,
		    const shmem_team_config_t *xaxis_config, long xaxis_mask,
		    shmem_team_t *xaxis_team,
		    const shmem_team_config_t *yaxis_config, long yaxis_mask,
		    shmem_team_t *yaxis_team)
{
	if (xaxis_team == NULL || yaxis_team == NULL) {
		u_warn("shmem", "%s: xaxis_team or yaxis_team is NULL",
		       __func__);
		return -1;
	}
	*xaxis_team = SHMEM_TEAM_INVALID;
	*yaxis_team = SHMEM_TEAM_INVALID;
	if (parent_team == SHMEM_TEAM_INVALID || !sh.initialized)
		return -1;
	struct sh_team_cfg xc, yc;
	cfg_in(xaxis_config, xaxis_mask, &xc);
	cfg_in(yaxis_config, yaxis_mask, &yc);
	struct sh_team *p = face_team(__func__, parent_team);
	if (!p)
		return -1;
	struct sh_team *x = NULL, *y = NULL;
	int rc = sh_team_split_2d(p, xrange, &xc, xaxis_mask, &x, &yc,
				  yaxis_mask, &y);
	if (rc < 0)
		return -1;
	*xaxis_team = (shmem_team_t)x;
	*yaxis_team = (shmem_team_t)y;
	return 0;
}

int
shmem_team_sync(shmem_team_t team)
{
	if (team == SHMEM_TEAM_INVALID || !sh.initialized)
		return -1;
	struct sh_team *t = face_team(__func__, team);
	if (!t)
		return -1;
	int rc = sh_team_sync(t);
	if (rc == -EHOSTDOWN || rc == -ETIMEDOUT || rc == -EHOSTUNREACH)
		face_fail(__func__, rc, -1, "team", team);
	return rc < 0 ? -1 : 0;
}

void
shmem_team_destroy(shmem_team_t team)
{
	if (team == SHMEM_TEAM_INVALID)
		return;
	sh_check_init(__func__);
	if (team == SHMEM_TEAM_WORLD || team == SHMEM_TEAM_SHARED)
		sh_fatal(__func__, "team %s is predefined and cannot be "
			 "destroyed", team == SHMEM_TEAM_WORLD ?
			 "SHMEM_TEAM_WORLD" : "SHMEM_TEAM_SHARED");
	struct sh_team *t = sh_team_live(team);
	if (!t)
		sh_fatal(__func__, "team %p is not a team (destroyed already, "
			 "or never made by a split)", (void *)team);
	sh_team_destroy(t);
}
