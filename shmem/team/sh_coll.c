// SPDX-License-Identifier: MIT
/*
 * sh_coll: the collectives (broadcast, collect, fcollect, alltoall(s),
 * reductions) on a team or on a 1.4 active set.
 *
 * Vocabulary
 *   group     the PEs of one call: a team (sh_team.c) or an active set
 *             (start, stride, size, pSync); index i of the group is world
 *             PE grp_pe(g, i).
 *   sync      the group's barrier: a team's dissemination barrier in the
 *             control blocks (sh_team_sync), or for an active set the
 *             same pattern on counters in pSync: in round r the PE at
 *             index i adds 1 to pSync[r] of index i + 2^r, waits for its
 *             own pSync[r] to reach 1 and takes 1 off it again (AMOs, so
 *             node-local and network peers alike). Counts, not flags: a
 *             fast PE's arrival for the next call is kept, never lost,
 *             and every counter is back to 0 (SHMEM_SYNC_VALUE) once all
 *             members have left the call.
 *   mailbox   a 64-bit word a PE sends one value into (collect's prefix
 *             sum): a team's are SH_COLL_WORDS words per team slot at
 *             SH_COLL_CTRL_OFF of the control block; an active set's are
 *             pSync[16..31]. Sent as value + 1, taken back to 0 by the
 *             receiver before it enters the call's last sync, so they
 *             are empty between calls (and when a slot gets a new team).
 *
 * Algorithms (no O(N) loop of one PE against all others for N PEs):
 *   broadcast  all node-local: sync, every PE reads the root's source
 *              (one copy each, in parallel, the root's own into its
 *              dest among them), sync. With network peers:
 *              a binomial tree from the root, one round of puts plus a
 *              sync per level (log N rounds).
 *   fcollect / collect
 *              sync, each PE puts its block into every member's dest at
 *              its offset (ring order from its right neighbour: no PE is
 *              everyone's first target), quiet, sync. collect's offsets
 *              come from a dissemination prefix sum of the sizes (log N
 *              rounds of mailbox messages).
 *   alltoall(s) sync, each PE puts block j of its source into member j's
 *              dest at its own block (ring order), quiet, sync.
 *   reduce     reduce-scatter then allgather: sync; each PE reduces its
 *              slice of the elements across all members into its own
 *              dest slice, reading the peers' sources in place where it
 *              maps them (through a bounce buffer over the network or the
 *              copy engine; the first combine reads its own slice too, so
 *              nothing is copied into dest before it); then it puts its
 *              slice into every other member's dest (ring order), quiet,
 *              sync. In place (dest ==
 *              source; a slice is read from the other PEs only by its
 *              owner): a sync instead of the puts, each PE copies the
 *              other slices from their owners' dest, sync.
 * Every PE reaches every sync of a call even when its own part failed on
 * a bad range, so bad input ends in an error, never in a hang.
 *
 * Threads: collectives on one group are serialised by the program
 * (OpenSHMEM); nothing here is shared between calls but the words above.
 */
#include "sh_team.h"

#include "u_log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(long) == sizeof(uint64_t), "pSync words are 64-bit");

#define PS_BAR 0                    /* pSync[0..15]: barrier counters */
#define PS_MB SH_BAR_ROUNDS         /* pSync[16..31]: mailboxes */
#define PS_WORDS (2 * SH_BAR_ROUNDS)
#define BOUNCE_BYTES (64 * 1024)

struct grp {
	struct sh_team *team;       /* NULL: the active set a */
	const struct sh_aset *a;
	int n, me;
	uint64_t *mb;               /* this PE's mailbox words */
	bool ctrl;                  /* mailboxes in the control block */
};

static inline int
grp_pe(const struct grp *g, int i)
{
	return g->team ? sh_team_world_pe(g->team, i)
		       : g->a->start + i * g->a->stride;
}

/* [p, p + len) is symmetric on this PE (and so on every PE). */
static bool
sym_ok(const void *p, size_t len)
{
	return len == 0 || (p && sh_remote_ptr(p, len, sh.me));
}

static int
grp_init(struct grp *g, struct sh_team *t, const struct sh_aset *a)
{
	memset(g, 0, sizeof(*g));
	if (a) {
		g->a = a;
		g->n = a->size;
		g->me = (sh.me - a->start) / a->stride;
		g->mb = (uint64_t *)(a->psync + PS_MB);
		return 0;
	}
	if (!t)
		return -EINVAL;
	g->team = t;
	g->n = sh_team_n_pes(t);
	g->me = sh_team_my_pe(t);
	if (g->me < 0)
		return -EINVAL;
	g->mb = (uint64_t *)((char *)sh_ctrl_local() + SH_COLL_CTRL_OFF) +
		(size_t)sh_team_slot(t) * SH_COLL_WORDS;
	g->ctrl = true;
	return 0;
}

int
sh_coll_aset(int start, int log_stride, int size, long *psync,
	     struct sh_aset *out)
{
	if (size < 1 || start < 0 || log_stride < 0 || log_stride > 30)
		return -EINVAL;
	long stride = 1L << log_stride;
	long last = (long)start + stride * (long)(size - 1);
	if (start >= sh.npes || last >= sh.npes)
		return -EINVAL;
	long off = (long)sh.me - start;
	if (off < 0 || off % stride || off / stride >= size)
		return -ESRCH;
	if (!psync || ((uintptr_t)psync & 7) ||
	    !sym_ok(psync, PS_WORDS * sizeof(long)))
		return -EFAULT;
	out->start = start;
	out->stride = (int)stride;
	out->size = size;
	out->psync = psync;
	return 0;
}

/* ---- synchronisation --------------------------------------------------- */

static bool
count_ready(void *arg)
{
	return __atomic_load_n((long *)arg, __ATOMIC_ACQUIRE) >= 1;
}

static int
aset_sync(const struct grp *g)
{
	long *ps = g->a->psync;
	for (int r = 0, dist = 1; dist < g->n; dist <<= 1, r++) {
		int to = grp_pe(g, (g->me + dist) % g->n);
		int from = grp_pe(g, (g->me - dist % g->n + g->n) % g->n);
		long one = 1, minus = -1;
		long *w = &ps[PS_BAR + r];
		int err = sh_amo(NULL, SH_AMO_ADD, SH_T_INT, 8, w, &one, NULL,
				 NULL, to);
		if (!err)
			err = sh_wait_pred_on(count_ready, w, from,
					      SH_WAIT_DATA, w);
		/* this PE's own word: a plain atomic, unless the NIC's
		 * atomics reach it too (theirs and the CPU's do not mix
		 * on every provider) */
		if (!err && !sh_tr_ofi_active())
			__atomic_fetch_sub(w, 1, __ATOMIC_ACQ_REL);
		else if (!err)
			err = sh_amo(NULL, SH_AMO_ADD, SH_T_INT, 8, w, &minus,
				     NULL, NULL, sh.me);
		if (err)
			return err;
	}
	return 0;
}

/* quiet: complete this PE's puts first (they are then visible to every
 * member after the sync). */
static int
grp_sync(const struct grp *g, bool quiet)
{
	if (quiet) {
		int err = sh_quiet(NULL);
		if (err)
			return err;
	}
	return g->team ? sh_team_sync(g->team) : aset_sync(g);
}

int
sh_coll_sync(struct sh_team *t, const struct sh_aset *a, bool quiet)
{
	struct grp g;
	int err = grp_init(&g, t, a);
	return err ? err : grp_sync(&g, quiet);
}

/* ---- mailboxes --------------------------------------------------------- */

static int
mb_send(const struct grp *g, int k, uint64_t v, int to_idx)
{
	int pe = grp_pe(g, to_idx);
	uint64_t *w = &g->mb[k];
	if (!g->ctrl)
		return sh_amo(NULL, SH_AMO_SET, SH_T_UINT, 8, w, &v, NULL,
			      NULL, pe);
	struct sh_peer *p = &sh.peers[pe];
	if (p->dead)
		return -EHOSTDOWN;
	if (p->net)
		return sh_tr_ofi_amo(NULL, SH_AMO_SET, 8, w, &v, NULL, NULL,
				     pe);
	if (!p->ctrl)
		return -EOPNOTSUPP;
	uint64_t *r = (uint64_t *)((char *)p->ctrl +
				   ((char *)w - (char *)sh_ctrl_local()));
	__atomic_store_n(r, v, __ATOMIC_RELEASE);
	sh_wake_barrier(pe);
	return 0;
}

static bool
mb_full(void *arg)
{
	return __atomic_load_n((uint64_t *)arg, __ATOMIC_ACQUIRE) != 0;
}

static int
mb_recv(const struct grp *g, int k, int from_idx, uint64_t *v)
{
	uint64_t *w = &g->mb[k];
	int err = sh_wait_pred_on(mb_full, w, grp_pe(g, from_idx),
				  g->ctrl ? SH_WAIT_BARRIER : SH_WAIT_DATA,
				  g->ctrl ? NULL : w);
	if (err)
		return err;
	*v = __atomic_load_n(w, __ATOMIC_ACQUIRE);
	__atomic_store_n(w, 0, __ATOMIC_RELAXED);
	return 0;
}

/* Exclusive prefix sum of mine over the group (Hillis-Steele: in round r
 * send the running sum to index me + 2^r, add what index me - 2^r sent). */
static int
scan(const struct grp *g, uint64_t mine, uint64_t *excl)
{
	uint64_t sum = mine;
	for (int r = 0, d = 1; d < g->n; d <<= 1, r++) {
		int err = 0;
		if (g->me + d < g->n)
			err = mb_send(g, r, sum + 1, g->me + d);
		if (!err && g->me >= d) {
			uint64_t v;
			err = mb_recv(g, r, g->me - d, &v);
			sum += v - 1;
		}
		if (err)
			return err;
	}
	*excl = sum - mine;
	return 0;
}

/* ---- broadcast --------------------------------------------------------- */

/* Every member is node-local (no network peer). */
static bool
all_local(const struct grp *g)
{
	for (int i = 0; i < g->n; i++)
		if (!sh_symmap.heap[0].view[grp_pe(g, i)])
			return false;
	return true;
}

int
sh_coll_bcast(struct sh_team *t, const struct sh_aset *a, void *dest,
	      const void *src, size_t nbytes, int root, bool root_too)
{
	struct grp g;
	int err = grp_init(&g, t, a);
	if (err)
		return err;
	if (root < 0 || root >= g.n)
		return -EINVAL;
	if (!sym_ok(dest, nbytes) || !sym_ok(src, nbytes))
		return -EFAULT;
	int rpe = grp_pe(&g, root);
	bool me_root = g.me == root;
	uintptr_t d = (uintptr_t)dest, s = (uintptr_t)src;
	bool own = me_root && root_too && dest != src && nbytes;
	bool apart = d + nbytes <= s || s + nbytes <= d;
	if (all_local(&g)) {
		/* The root's own copy runs beside the others' reads of its
		 * source, unless its dest overlaps that source (then it is
		 * made first, as a memmove, and the others read the
		 * result). */
		if (own && !apart)
			memmove(dest, src, nbytes);
		err = grp_sync(&g, false);
		int e2 = 0;
		if (!err && !me_root && nbytes)
			e2 = sh_get(NULL, dest, src, nbytes, rpe, 0);
		else if (!err && own && apart)
			memcpy(dest, src, nbytes);
		if (!err)
			err = grp_sync(&g, false);
		return err ? err : e2;
	}
	if (own)
		memmove(dest, src, nbytes);
	/* A binomial tree over the indices relative to the root. */
	int vr = (g.me - root + g.n) % g.n, e2 = 0;
	err = grp_sync(&g, false);
	for (int mask = 1; !err && mask < g.n; mask <<= 1) {
		if (!e2 && nbytes && vr < mask && vr + mask < g.n) {
			int to = grp_pe(&g, (vr + mask + root) % g.n);
			e2 = sh_put(NULL, dest, vr == 0 ? src : dest, nbytes,
				    to, 1);
		}
		err = grp_sync(&g, true);
	}
	return err ? err : e2;
}

/* ---- collect, fcollect ------------------------------------------------- */

int
sh_coll_collect(struct sh_team *t, const struct sh_aset *a, void *dest,
		const void *src, size_t nbytes, bool fixed)
{
	struct grp g;
	int err = grp_init(&g, t, a);
	if (err)
		return err;
	size_t total;
	if (!sym_ok(src, nbytes))
		return -EFAULT;
	if (fixed) {
		if (__builtin_mul_overflow(nbytes, (size_t)g.n, &total))
			return -EOVERFLOW;
		if (!sym_ok(dest, total))
			return -EFAULT;
	}
	err = grp_sync(&g, false);
	uint64_t off = (uint64_t)g.me * nbytes;
	if (!err && !fixed)
		err = scan(&g, nbytes, &off);
	if (err)
		return err;
	/* collect: each PE checks its own part (the others' sizes are
	 * theirs); the syncs are reached in any case. */
	int e2 = 0;
	if (!fixed && (off > SIZE_MAX - nbytes ||
		       !sym_ok((char *)dest + off, nbytes)))
		e2 = -EFAULT;
	for (int k = 1; !e2 && nbytes && k <= g.n; k++) {
		int pe = grp_pe(&g, (g.me + k) % g.n);
		e2 = sh_put(NULL, (char *)dest + off, src, nbytes, pe, 1);
	}
	err = grp_sync(&g, true);
	return err ? err : e2;
}

/* ---- alltoall, alltoalls ----------------------------------------------- */

int
sh_coll_alltoall(struct sh_team *t, const struct sh_aset *a, void *dest,
		 const void *src, size_t nbytes)
{
	struct grp g;
	int err = grp_init(&g, t, a);
	if (err)
		return err;
	size_t total;
	if (__builtin_mul_overflow(nbytes, (size_t)g.n, &total))
		return -EOVERFLOW;
	if (!sym_ok(dest, total) || !sym_ok(src, total))
		return -EFAULT;
	err = grp_sync(&g, false);
	int e2 = 0;
	for (int k = 1; !err && !e2 && nbytes && k <= g.n; k++) {
		int j = (g.me + k) % g.n;
		e2 = sh_put(NULL, (char *)dest + (size_t)g.me * nbytes,
			    (const char *)src + (size_t)j * nbytes, nbytes,
			    grp_pe(&g, j), 1);
	}
	if (!err)
		err = grp_sync(&g, true);
	return err ? err : e2;
}

/* Bytes spanned by n * nelems elements of stride st: -EOVERFLOW. */
static int
strided_span(size_t n, size_t nelems, ptrdiff_t st, size_t esize,
	     size_t *len)
{
	size_t cnt, ext;
	if (__builtin_mul_overflow(n, nelems, &cnt))
		return -EOVERFLOW;
	if (!cnt) {
		*len = 0;
		return 0;
	}
	if (__builtin_mul_overflow(cnt - 1, (size_t)st, &ext) ||
	    __builtin_add_overflow(ext, 1, &ext) ||
	    __builtin_mul_overflow(ext, esize, &ext) ||
	    ext > PTRDIFF_MAX)
		return -EOVERFLOW;
	*len = ext;
	return 0;
}

int
sh_coll_alltoalls(struct sh_team *t, const struct sh_aset *a, void *dest,
		  const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
		  size_t esize)
{
	struct grp g;
	int err = grp_init(&g, t, a);
	if (err)
		return err;
	if (dst < 1 || sst < 1 || !esize)
		return -EINVAL;
	size_t dlen, slen;
	if ((err = strided_span((size_t)g.n, nelems, dst, esize, &dlen)) ||
	    (err = strided_span((size_t)g.n, nelems, sst, esize, &slen)))
		return err;
	if (!sym_ok(dest, dlen) || !sym_ok(src, slen))
		return -EFAULT;
	err = grp_sync(&g, false);
	int e2 = 0;
	size_t dblock = nelems * (size_t)dst * esize;
	size_t sblock = nelems * (size_t)sst * esize;
	for (int k = 1; !err && !e2 && nelems && k <= g.n; k++) {
		int j = (g.me + k) % g.n;
		e2 = sh_iput(NULL, (char *)dest + (size_t)g.me * dblock,
			     (const char *)src + (size_t)j * sblock, dst, sst,
			     nelems, esize, grp_pe(&g, j));
	}
	if (!err)
		err = grp_sync(&g, true);
	return err ? err : e2;
}

/* ---- reductions -------------------------------------------------------- */

/* Index i's slice [*lo, *lo + *cnt) of nelems elements over n PEs. */
static void
slice(size_t nelems, int n, int i, size_t *lo, size_t *cnt)
{
	size_t q = nelems / (size_t)n, rem = nelems % (size_t)n;
	size_t ui = (size_t)i;
	*lo = ui * q + (ui < rem ? ui : rem);
	*cnt = q + (ui < rem);
}

/* acc (cnt elements of this PE's dest) = x op (pe's source slice at
 * src); x is acc (in place) or this PE's own source slice. */
static int
combine_from(void *acc, const void *x, const void *src, size_t cnt,
	     size_t esize, int pe, sh_coll_op op, char **bounce)
{
	size_t bytes = cnt * esize;
	if (sh.copy != SH_COPY_ENGINE) {
		const void *r = sh_remote_ptr(src, bytes, pe);
		if (r) {
			op(acc, x, r, cnt);
			return 0;
		}
	}
	size_t per = BOUNCE_BYTES / esize ? BOUNCE_BYTES / esize : 1;
	if (!*bounce && !(*bounce = malloc(per * esize)))
		return -ENOMEM;
	for (size_t done = 0; done < cnt;) {
		size_t k = cnt - done < per ? cnt - done : per;
		int err = sh_get(NULL, *bounce,
				 (const char *)src + done * esize, k * esize,
				 pe, 0);
		if (err)
			return err;
		op((char *)acc + done * esize, (const char *)x + done * esize,
		   *bounce, k);
		done += k;
	}
	return 0;
}

int
sh_coll_reduce(struct sh_team *t, const struct sh_aset *a, void *dest,
	       const void *src, size_t nelems, size_t esize, sh_coll_op op)
{
	struct grp g;
	int err = grp_init(&g, t, a);
	if (err)
		return err;
	size_t nbytes;
	if (!esize || !op)
		return -EINVAL;
	if (__builtin_mul_overflow(nelems, esize, &nbytes))
		return -EOVERFLOW;
	if (!sym_ok(dest, nbytes) || !sym_ok(src, nbytes))
		return -EFAULT;
	/* The same or disjoint (OpenSHMEM): a partial overlap would let one
	 * PE's result overwrite a source another PE still reads. */
	uintptr_t d = (uintptr_t)dest, s = (uintptr_t)src;
	if (d != s && d < s + nbytes && s < d + nbytes)
		return -EINVAL;
	if (!sh.heap_host_accessible) {
		u_warn("shmem", "reductions need a host-accessible heap");
		return -EOPNOTSUPP;
	}
	size_t lo, cnt;
	slice(nelems, g.n, g.me, &lo, &cnt);
	char *acc = (char *)dest + lo * esize;
	const char *mine = (const char *)src + lo * esize;
	char *bounce = NULL;
	err = grp_sync(&g, false);
	int e2 = 0;
	if (!err && cnt) {
		/* The first combine reads this PE's own slice in place (one
		 * pass over acc, not a copy and then a combine). */
		if (g.n == 1 && acc != mine)
			memcpy(acc, mine, cnt * esize);
		for (int k = 1; !e2 && k < g.n; k++)
			e2 = combine_from(acc, k == 1 ? mine : acc, mine, cnt,
					  esize, grp_pe(&g, (g.me + k) % g.n),
					  op, &bounce);
	}
	free(bounce);
	if (!err && d != s) {
		/* Disjoint buffers: no member reads a dest during the call,
		 * so each pushes its slice into the others' dest. */
		for (int k = 1; !e2 && cnt && k < g.n; k++)
			e2 = sh_put(NULL, acc, acc, cnt * esize,
				    grp_pe(&g, (g.me + k) % g.n), 1);
		err = grp_sync(&g, true);
		return err ? err : e2;
	}
	if (!err)
		err = grp_sync(&g, false);
	for (int k = 1; !err && !e2 && k < g.n; k++) {
		int j = (g.me + k) % g.n;
		size_t jlo, jcnt;
		slice(nelems, g.n, j, &jlo, &jcnt);
		if (jcnt)
			e2 = sh_get(NULL, (char *)dest + jlo * esize,
				    (char *)dest + jlo * esize, jcnt * esize,
				    grp_pe(&g, j), 0);
	}
	if (!err)
		err = grp_sync(&g, false);
	return err ? err : e2;
}
