// SPDX-License-Identifier: MIT
/*
 * sh_team: teams and their synchronisation through the control blocks.
 *
 * A team is an ordered list of world PEs (pes[]) plus its inverse (idx[],
 * -1 for non-members), a slot in the control block and an epoch.
 *
 * Sync is a dissemination barrier: in round r (r < ceil(log2 n)) the PE at
 * team index i raises, in the control block of index i + 2^r (mod n), the
 * word bar[slot].round[r] to its epoch (an atomic max, so a late message
 * of an older team that used the slot cannot lower it), rings that PE
 * (sh_wake_barrier) and waits for its own word of round r to reach the epoch,
 * watching the PE i - 2^r that sends it. O(log n) rounds, each one remote
 * store and one sleeping wait; release stores and acquire loads chain the
 * rounds, so everything a PE wrote before the sync is visible to every
 * member after it.
 *
 * Slots: world 0, shared 1 (teams of different nodes are disjoint, their
 * words in different control blocks). A split picks its slot the same way
 * on every PE of the parent: each PE publishes the slots it uses
 * (team_mask) and, per slot, the last epoch it reached there (slot_epoch);
 * after a sync of the parent every PE reads all the parent's PEs' values,
 * takes the lowest slot none of them uses and starts the new team's epoch
 * at the largest epoch any of them reached in it (so words left over from
 * an older team in that slot never satisfy a new wait); a second sync
 * keeps the values stable until all have read them. Deterministic, no
 * messages beyond the two syncs.
 *
 * Collective calls on one team are serialised by the program (OpenSHMEM).
 *
 * Handles: the program holds struct sh_team pointers (shmem_team_t,
 * rocshmem_team_t). A destroyed or forged one is told apart as sh_ctx.c
 * tells contexts: every live team is on all_teams (under team_lock) with
 * magic SH_TEAM_MAGIC, and sh_team_live() answers from that list, never
 * from the handle's memory. Destroy unlinks the team and clears the magic
 * before freeing it, and destroys the contexts made from it first
 * (OpenSHMEM 1.5: destroying a team destroys its shareable contexts; a
 * private one is destroyed too, with a warning, rather than left
 * pointing at a freed team). The faces check every handle with
 * sh_team_live before use (sh_face.h face_team).
 */
#include "sh_team.h"

#include "u_log.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct sh_team {
	int slot;
	int n, me;                  /* size, this PE's index */
	int *pes;                   /* [n] world PE of each index */
	int *idx;                   /* [npes] index of each world PE, -1 */
	uint32_t epoch;
	struct sh_team_cfg cfg;
	uint32_t magic;             /* SH_TEAM_MAGIC while it exists */
	struct sh_team *next;       /* all teams, freed at finalize */
};

#define SH_TEAM_MAGIC 0x7a74656du /* "ztem" */

struct sh_team *sh_team_world, *sh_team_shared;
static pthread_mutex_t team_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sh_team *all_teams;   /* under team_lock */

static struct sh_team *
team_new(int slot, int n, const int *pes, uint32_t epoch)
{
	struct sh_team *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pes = malloc(sizeof(int) * (size_t)(n ? n : 1));
	t->idx = malloc(sizeof(int) * (size_t)sh.npes);
	if (!t->pes || !t->idx) {
		free(t->pes);
		free(t->idx);
		free(t);
		return NULL;
	}
	for (int i = 0; i < sh.npes; i++)
		t->idx[i] = -1;
	for (int i = 0; i < n; i++) {
		t->pes[i] = pes[i];
		t->idx[pes[i]] = i;
	}
	t->slot = slot;
	t->n = n;
	t->me = t->idx[sh.me];
	t->epoch = epoch;
	t->magic = SH_TEAM_MAGIC;
	pthread_mutex_lock(&team_lock);
	t->next = all_teams;
	all_teams = t;
	pthread_mutex_unlock(&team_lock);
	return t;
}

static void
team_free(struct sh_team *t)
{
	pthread_mutex_lock(&team_lock);
	for (struct sh_team **pp = &all_teams; *pp; pp = &(*pp)->next)
		if (*pp == t) {
			*pp = t->next;
			break;
		}
	t->magic = 0;
	pthread_mutex_unlock(&team_lock);
	free(t->pes);
	free(t->idx);
	free(t);
}

int
sh_team_init(void)
{
	int *pes = malloc(sizeof(int) * (size_t)sh.npes);
	if (!pes)
		return -ENOMEM;
	for (int i = 0; i < sh.npes; i++)
		pes[i] = i;
	sh_team_world = team_new(0, sh.npes, pes, 0);
	int n = 0;
	for (int i = 0; i < sh.npes; i++)
		if (sh.node_of[i] == sh.my_node)
			pes[n++] = i;
	sh_team_shared = team_new(1, n, pes, 0);
	free(pes);
	if (!sh_team_world || !sh_team_shared) {
		sh_team_fini();
		return -ENOMEM;
	}
	return 0;
}

void
sh_team_fini(void)
{
	for (;;) {
		pthread_mutex_lock(&team_lock);
		struct sh_team *t = all_teams;
		pthread_mutex_unlock(&team_lock);
		if (!t)
			break;
		team_free(t);
	}
	sh_team_world = sh_team_shared = NULL;
}

struct sh_team *
sh_team_live(const void *handle)
{
	struct sh_team *found = NULL;
	if (!handle)
		return NULL;
	pthread_mutex_lock(&team_lock);
	for (struct sh_team *p = all_teams; p && !found; p = p->next)
		if (p == handle && p->magic == SH_TEAM_MAGIC)
			found = p;
	pthread_mutex_unlock(&team_lock);
	return found;
}

int
sh_team_my_pe(const struct sh_team *t)
{
	return t ? t->me : -1;
}

int
sh_team_n_pes(const struct sh_team *t)
{
	return t ? t->n : -1;
}

int
sh_team_world_pe(const struct sh_team *t, int i)
{
	if (!t || i < 0 || i >= t->n)
		return -1;
	return t->pes[i];
}

int
sh_team_translate(const struct sh_team *src, int pe,
		  const struct sh_team *dst)
{
	if (!src || !dst || pe < 0 || pe >= src->n)
		return -1;
	return dst->idx[src->pes[pe]];
}

int
sh_team_get_config(const struct sh_team *t, long mask,
		   struct sh_team_cfg *cfg)
{
	if (!t || (mask && !cfg))
		return -EINVAL;
	if (mask & 1) /* SHMEM_TEAM_NUM_CONTEXTS */
		cfg->num_contexts = t->cfg.num_contexts;
	return 0;
}

/* ---- sync ----------------------------------------------------------- */

struct round_arg {
	uint32_t *word;
	uint32_t epoch;
};

static bool
round_done(void *arg)
{
	struct round_arg *a = arg;
	uint32_t v = __atomic_load_n(a->word, __ATOMIC_ACQUIRE);
	return (int32_t)(v - a->epoch) >= 0;
}

static void
raise_to(uint32_t *w, uint32_t e)
{
	uint32_t old = __atomic_load_n(w, __ATOMIC_RELAXED);
	while ((int32_t)(e - old) > 0 &&
	       !__atomic_compare_exchange_n(w, &old, e, true, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED))
		;
}

int
sh_team_sync(struct sh_team *t)
{
	if (!t)
		return -EINVAL;
	if (t->n <= 1)
		return 0;
	uint32_t e = ++t->epoch;
	struct sh_ctrl *mine = sh_ctrl_local();
	int r = 0;
	for (int dist = 1; dist < t->n; dist <<= 1, r++) {
		int to = t->pes[(t->me + dist) % t->n];
		int from = t->pes[(t->me - dist % t->n + t->n) % t->n];
		struct sh_peer *p = &sh.peers[to];
		if (p->dead)
			return -EHOSTDOWN;
		uint32_t *word = &mine->bar[t->slot].round[r].epoch;
		if (p->net) {
			/* The same word in to's heap, over the network. */
			int err = sh_tr_ofi_raise32(word, e, to);
			if (err) {
				t->epoch--;
				return err;
			}
		} else if (!p->ctrl) {
			return -EOPNOTSUPP;
		} else {
			raise_to(&p->ctrl->bar[t->slot].round[r].epoch, e);
			sh_wake_barrier(to);
		}
		struct round_arg a = { &mine->bar[t->slot].round[r].epoch, e };
		int err = sh_wait_pred_on(round_done, &a, from,
					  SH_WAIT_BARRIER, NULL);
		if (err) {
			/* The next sync of this team cannot work either. */
			t->epoch--;
			return err;
		}
	}
	return 0;
}

int
sh_barrier(struct sh_team *t)
{
	int err = sh_quiet(NULL);
	if (err)
		return err;
	return sh_team_sync(t);
}

/* ---- splits ----------------------------------------------------------- */

/* The slot and starting epoch of a new team of parent (see the top). */
static int
pick_slot(struct sh_team *parent, int *slot, uint32_t *epoch)
{
	struct sh_ctrl *mine = sh_ctrl_local(); /* symmetric: peers' words */
	int err = sh_team_sync(parent);
	if (err)
		return err;
	uint64_t used = 0;
	for (int i = 0; i < parent->n; i++) {
		int pe = parent->pes[i];
		struct sh_ctrl *c = sh.peers[pe].ctrl;
		uint64_t m = 0;
		if (c)
			m = __atomic_load_n(&c->team_mask, __ATOMIC_ACQUIRE);
		else if (!sh.peers[pe].net)
			return -EOPNOTSUPP;
		else if ((err = sh_get(NULL, &m, &mine->team_mask, sizeof(m),
				       pe, 0)))
			return err;
		used |= m;
	}
	int s = used == UINT64_MAX ? -1 : __builtin_ctzll(~used);
	uint32_t e = 0;
	for (int i = 0; s >= 0 && i < parent->n; i++) {
		int pe = parent->pes[i];
		struct sh_ctrl *c = sh.peers[pe].ctrl;
		uint32_t v = 0;
		if (c)
			v = __atomic_load_n(&c->slot_epoch[s],
					    __ATOMIC_ACQUIRE);
		else if ((err = sh_get(NULL, &v, &mine->slot_epoch[s],
				       sizeof(v), pe, 0)))
			return err;
		if ((int32_t)(v - e) > 0)
			e = v;
	}
	err = sh_team_sync(parent);
	if (err)
		return err;
	if (s < 0 || s >= SH_MAX_TEAMS) {
		u_warn("shmem", "no free team slot (%d teams in use)",
		       SH_MAX_TEAMS);
		return -ENOSPC;
	}
	*slot = s;
	*epoch = e;
	return 0;
}

/* Makes this PE's team of slot s from its member list (n == 0: none). */
static int
join(int slot, uint32_t epoch, int n, const int *pes,
     const struct sh_team_cfg *cfg, long mask, struct sh_team **out)
{
	*out = NULL;
	if (!n)
		return 0;
	struct sh_team *t = team_new(slot, n, pes, epoch);
	if (!t)
		return -ENOMEM;
	if (t->me < 0) {
		team_free(t);
		return 0;
	}
	if (cfg && (mask & 1))
		t->cfg.num_contexts = cfg->num_contexts;
	struct sh_ctrl *mine = sh_ctrl_local();
	__atomic_or_fetch(&mine->team_mask, 1ull << slot, __ATOMIC_RELEASE);
	*out = t;
	return 0;
}

int
sh_team_split_strided(struct sh_team *parent, int start, int stride,
		      int size, const struct sh_team_cfg *cfg, long cfg_mask,
		      struct sh_team **out)
{
	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!parent)
		return -EINVAL;
	/* The same checks on every PE: all return alike. */
	long last = (long)start + (long)stride * (long)(size - 1);
	if (size < 1 || size > parent->n || start < 0 || start >= parent->n ||
	    last < 0 || last >= parent->n || (stride == 0 && size > 1))
		return -EINVAL;
	int slot;
	uint32_t epoch;
	int err = pick_slot(parent, &slot, &epoch);
	if (err)
		return err;
	int *pes = malloc(sizeof(int) * (size_t)size);
	if (!pes)
		return -ENOMEM;
	for (int i = 0; i < size; i++)
		pes[i] = parent->pes[start + i * stride];
	/* Members only: a non-member keeps no record of the team. */
	bool member = false;
	for (int i = 0; i < size; i++)
		member |= pes[i] == sh.me;
	err = member ? join(slot, epoch, size, pes, cfg, cfg_mask, out) : 0;
	free(pes);
	return err;
}

int
sh_team_split_2d(struct sh_team *parent, int xrange,
		 const struct sh_team_cfg *xcfg, long xmask,
		 struct sh_team **x, const struct sh_team_cfg *ycfg,
		 long ymask, struct sh_team **y)
{
	if (!x || !y)
		return -EINVAL;
	*x = *y = NULL;
	if (!parent || xrange <= 0)
		return -EINVAL;
	int n = parent->n;
	if (xrange > n)
		xrange = n;
	int me = parent->me;
	int xs, ys;
	uint32_t xe, ye;
	int err = pick_slot(parent, &xs, &xe);
	if (err)
		return err;
	/* Reserve xs before the second pick: join sets the bit. */
	int *pes = malloc(sizeof(int) * (size_t)n);
	if (!pes)
		return -ENOMEM;
	int row = me / xrange, col = me % xrange, k = 0;
	for (int i = row * xrange; i < n && i < (row + 1) * xrange; i++)
		pes[k++] = parent->pes[i];
	err = join(xs, xe, k, pes, xcfg, xmask, x);
	if (!err)
		err = pick_slot(parent, &ys, &ye);
	if (!err) {
		k = 0;
		for (int i = col; i < n; i += xrange)
			pes[k++] = parent->pes[i];
		err = join(ys, ye, k, pes, ycfg, ymask, y);
	}
	free(pes);
	if (err) {
		sh_team_destroy(*x);
		*x = NULL;
	}
	return err;
}

void
sh_team_destroy(struct sh_team *t)
{
	if (!t || t == sh_team_world || t == sh_team_shared)
		return;
	struct sh_ctrl *mine = sh_ctrl_local();
	uint32_t *se = &mine->slot_epoch[t->slot];
	if ((int32_t)(t->epoch - *se) > 0)
		__atomic_store_n(se, t->epoch, __ATOMIC_RELEASE);
	__atomic_and_fetch(&mine->team_mask, ~(1ull << t->slot),
			   __ATOMIC_RELEASE);
	sh_ctx_destroy_team(t);
	team_free(t);
}

int
sh_team_slot(const struct sh_team *t)
{
	return t ? t->slot : -1;
}
