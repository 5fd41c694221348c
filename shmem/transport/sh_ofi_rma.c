// SPDX-License-Identifier: MIT
/*
 * sh_ofi_rma: the network transport's operations (sh_ofi.h says how the
 * transport's files divide it): put and get (fragments, bounce slots),
 * atomics (native or emulated by compare-swap), signals, the flush that
 * stands in for FI_DELIVERY_COMPLETE, and the remote address and local
 * descriptor of every operation, both from the symmetric-address map.
 * sh_ofi.c's comment describes the design.
 */
#ifdef ZESHMEM_HAVE_OFI

#include "sh_ofi.h"

/* Every operation's context names its target PE (an error entry then
 * says which PE failed); the provider never writes into it (mode 0). */
#define CTX(pe) ((void *)&ofi.np[pe])

/* Posts on endpoint e with retries while the provider's queue is full. */
#define POST(e, call)                                                        \
	({                                                                   \
		ssize_t rc_;                                                 \
		uint64_t b_ = 0;                                             \
		uint64_t t_ = u_now_ns();                                    \
		while ((rc_ = (call)) == -FI_EAGAIN) {                       \
			ofi_progress_ep(e);                                      \
			if (u_now_ns() - t_ >                                \
				    (uint64_t)sh.timeout_s * 1000000000ull || \
			    sh_term_overdue() || ofi_dead_overdue())             \
				break;                                       \
			ofi_backoff_on(e, &b_);                                  \
		}                                                            \
		if (!rc_)                                                    \
			__atomic_add_fetch(&(e)->posted, 1, __ATOMIC_RELEASE); \
		rc_;                                                         \
	})

static int
post_fail(const char *what, ssize_t rc, int pe)
{
	if (rc == -FI_EAGAIN && sh_term_overdue())
		return sh_term_give_up(pe, what);
	if (rc == -FI_EAGAIN && ofi_dead_overdue()) {
		u_err("shmem", "%s to PE %d: not accepted %llu ms after a "
			       "PE's end (the bootstrap lost it)", what, pe,
		      DEAD_GRACE_NS / 1000000);
		return -EHOSTDOWN;
	}
	u_err("shmem", "%s to PE %d: %s", what, pe, fi_strerror((int)-rc));
	return rc == -FI_EAGAIN ? -ETIMEDOUT : -EIO;
}

/* The remote address and key of pe's copy of [sym, sym + len): the
 * symmetric-address map's network side of the region holding it. */
static int
raddr(const void *sym, size_t len, int pe, uint64_t *addr, uint64_t *key)
{
	struct sh_sym_reach r;
	int err = sh_sym_net(sym, len, pe, &r);
	if (err)
		return err;
	*addr = ofi.virt ? r.base + r.off : r.off;
	*key = r.key;
	return 0;
}

/* A local descriptor for [p, p + len): the region's that holds it (heap,
 * static data, a registration), else (FI_MR_LOCAL) a registration the
 * caller closes after completion (*tmp), else NULL. */
static int
ldesc(const void *p, size_t len, void **desc, struct fid_mr **tmp)
{
	*tmp = NULL;
	if ((*desc = sh_sym_desc(p, len)) || !ofi.mr_local)
		return 0;
	uint64_t key = __atomic_fetch_add(&ofi.tmp_key, 1, __ATOMIC_RELAXED);
	int err = ofi_reg((void *)p, len ? len : 1, FI_READ | FI_WRITE, key, tmp);
	if (err)
		return err;
	*desc = fi_mr_desc(*tmp);
	return 0;
}

/* Ends an operation posted with ldesc's descriptor: waits for every
 * completion when wait, then closes the temporary registration (tmp, if
 * any), which had to outlive the operation. Returns err, else the wait's
 * error. Inline: it is on the put/get/atomic paths. */
static inline int
finish(struct net_ep *e, int err, int wait, struct fid_mr *tmp)
{
	if (wait) {
		int e2 = ofi_wait_all(e);
		if (!err)
			err = e2;
	}
	if (tmp)
		fi_close(&tmp->fid);
	return err;
}

static int
check(int pe)
{
	if ((unsigned)pe >= (unsigned)sh.npes || !ofi.active)
		return -EINVAL;
	if (sh.peers[pe].dead)
		return -EHOSTDOWN;
	return 0;
}

/* ---- remote completion without FI_DELIVERY_COMPLETE (ofi.flush) ------- */

/* pe was written (put, non-fetching atomic) on e: e's next quiet
 * flushes it. */
static inline void
mark(struct net_ep *e, int pe)
{
	if (ofi.flush)
		__atomic_store_n(&e->dirty[pe], 1, __ATOMIC_RELAXED);
}

/* Posts a fetching atomic read of 8 bytes of pe's heap (its control
 * block's first word) into flush_buf: pe executes it, and answers, after
 * every command queued before it (shm: writes go by CMA at once, or are
 * queued; atomics are queued). A plain read would not do: shm performs
 * it by CMA itself, without the target. Providers without a native
 * 8-byte FI_ATOMIC_READ: a read. */
static int
flush_post(struct net_ep *e, int pe)
{
	uint64_t ra, key;
	int err = raddr(sh_heap.base, 8, pe, &ra, &key);
	if (err)
		return err;
	ssize_t rc;
	if (ofi.how[SH_AMO_FETCH][1] == AMO_NATIVE)
		rc = POST(e, fi_fetch_atomic(e->ep, e->flush_buf + 8, 1,
					  e->bounce_desc, e->flush_buf,
					  e->bounce_desc, ofi.np[pe].addr, ra,
					  key, FI_UINT64, FI_ATOMIC_READ,
					  CTX(pe)));
	else
		rc = POST(e, fi_read(e->ep, e->flush_buf, 8, e->bounce_desc,
				  ofi.np[pe].addr, ra, key, CTX(pe)));
	return rc ? post_fail("flush", rc, pe) : 0;
}

/* Flushes pe when it was written on e since its last flush (all: pe < 0),
 * and waits. The first error wins. */
static int
flush_pes(struct net_ep *e, int only)
{
	int err = 0;
	bool any = false;
	for (int pe = only < 0 ? 0 : only;
	     pe < (only < 0 ? sh.npes : only + 1); pe++) {
		if (!__atomic_exchange_n(&e->dirty[pe], 0, __ATOMIC_RELAXED) ||
		    sh.peers[pe].dead)
			continue;
		int e1 = flush_post(e, pe);
		if (e1 && !err)
			err = e1;
		any |= !e1;
	}
	if (any) {
		int e1 = ofi_wait_all(e);
		if (!err)
			err = e1;
	}
	return err;
}

int
sh_tr_ofi_put(struct sh_ctx *c, void *dest, const void *src, size_t nbytes,
	      int pe, int nbi)
{
	int err = check(pe);
	uint64_t ra, key;
	if (err || (err = raddr(dest, nbytes, pe, &ra, &key)))
		return err;
	if (!nbytes)
		return 0;
	struct net_ep *e = ofi_ep_of(c);
	fi_addr_t fa = ofi.np[pe].addr;
	if (nbytes <= BOUNCE_BYTES && nbytes <= ofi.max_msg) {
		/* Small: copied to a registered slot, so the source is free at
		 * once; the write stays in flight until quiet (delivery
		 * complete, unlike fi_inject_write, whose completion is local
		 * only). A slot is reused after everything before it
		 * completed: one wait_all per BOUNCE_SLOTS small puts. */
		pthread_mutex_lock(&e->bounce_lock);
		if (e->bounce_next == BOUNCE_SLOTS) {
			err = ofi_wait_all(e);
			e->bounce_next = 0;
		}
		char *slot = e->bounce + e->bounce_next++ * BOUNCE_BYTES;
		ssize_t rc = 0;
		if (!err) {
			memcpy(slot, src, nbytes);
			rc = POST(e, fi_write(e->ep, slot, nbytes,
					      e->bounce_desc, fa, ra, key,
					      CTX(pe)));
			mark(e, pe);
		}
		pthread_mutex_unlock(&e->bounce_lock);
		return err ? err : rc ? post_fail("fi_write", rc, pe) : 0;
	}
	void *desc;
	struct fid_mr *tmp;
	if ((err = ldesc(src, nbytes, &desc, &tmp)))
		return err;
	const char *s = src;
	mark(e, pe);
	for (size_t done = 0; done < nbytes;) {
		size_t n = nbytes - done;
		if (n > ofi.max_msg)
			n = ofi.max_msg;
		ssize_t rc = POST(e, fi_write(e->ep, s + done, n, desc, fa,
					      ra + done, key, CTX(pe)));
		if (rc) {
			err = post_fail("fi_write", rc, pe);
			break;
		}
		done += n;
	}
	/* Blocking: the source is reusable on return; a temporary
	 * registration must outlive the operation. */
	return finish(e, err, !nbi || tmp, tmp);
}

int
sh_tr_ofi_get(struct sh_ctx *c, void *dest, const void *src, size_t nbytes,
	      int pe, int nbi)
{
	int err = check(pe);
	uint64_t ra, key;
	if (err || (err = raddr(src, nbytes, pe, &ra, &key)))
		return err;
	if (!nbytes)
		return 0;
	void *desc;
	struct fid_mr *tmp;
	if ((err = ldesc(dest, nbytes, &desc, &tmp)))
		return err;
	struct net_ep *e = ofi_ep_of(c);
	char *d = dest;
	for (size_t done = 0; done < nbytes;) {
		size_t n = nbytes - done;
		if (n > ofi.max_msg)
			n = ofi.max_msg;
		ssize_t rc = POST(e, fi_read(e->ep, d + done, n, desc,
					  ofi.np[pe].addr, ra + done, key,
					  CTX(pe)));
		if (rc) {
			err = post_fail("fi_read", rc, pe);
			break;
		}
		done += n;
	}
	return finish(e, err, !nbi || tmp, tmp);
}

/* ---- atomics ---------------------------------------------------------- */

/* Operands live here for the operation's lifetime (registered when the
 * provider wants local descriptors). */
struct amo_buf {
	uint64_t val, cmp, res;
};

static int
amo_native(struct net_ep *e, enum fi_op fop, int kind /* 0 atomic, 1 fetch, 2 compare */,
	   enum fi_datatype dt, struct amo_buf *b, uint64_t ra, uint64_t key,
	   int pe)
{
	void *desc = NULL;
	struct fid_mr *tmp = NULL;
	int err = ldesc(b, sizeof(*b), &desc, &tmp);
	if (err)
		return err;
	fi_addr_t fa = ofi.np[pe].addr;
	ssize_t rc;
	if (kind == 0)
		rc = POST(e, fi_atomic(e->ep, &b->val, 1, desc, fa, ra, key,
				       dt, fop, CTX(pe)));
	else if (kind == 1)
		rc = POST(e, fi_fetch_atomic(e->ep, &b->val, 1, desc, &b->res,
					     desc, fa, ra, key, dt, fop,
					     CTX(pe)));
	else
		rc = POST(e, fi_compare_atomic(e->ep, &b->val, 1, desc,
					       &b->cmp, desc, &b->res, desc,
					       fa, ra, key, dt, fop, CTX(pe)));
	err = rc ? post_fail("atomic", rc, pe) : 0;
	return finish(e, err, 1, tmp);
}

static uint64_t
compute(enum sh_amo_op op, uint64_t old, uint64_t v, size_t esize)
{
	uint64_t r;
	switch (op) {
	case SH_AMO_ADD: r = old + v; break;
	case SH_AMO_AND: r = old & v; break;
	case SH_AMO_OR: r = old | v; break;
	case SH_AMO_XOR: r = old ^ v; break;
	default: r = v; break; /* SET, SWAP */
	}
	return esize == 4 ? (uint32_t)r : r;
}

/* The compare-swap loop: read, compute, swap in if unchanged. */
static int
amo_cas_loop(struct net_ep *e, enum sh_amo_op op, enum fi_datatype dt, size_t esize,
	     uint64_t v, uint64_t *old, uint64_t ra, uint64_t key, int pe)
{
	struct amo_buf b = { 0 };
	/* The first guess: a compare-swap of 0 with 0 returns the value. */
	int err = amo_native(e, FI_CSWAP, 2, dt, &b, ra, key, pe);
	uint64_t t0 = u_now_ns();
	while (!err) {
		uint64_t cur = b.res;
		if (op == SH_AMO_FETCH) {
			*old = cur;
			return 0;
		}
		b.cmp = cur;
		b.val = compute(op, cur, v, esize);
		if ((err = amo_native(e, FI_CSWAP, 2, dt, &b, ra, key, pe)))
			break;
		if (b.res == cur) {
			*old = cur;
			return 0;
		}
		if (u_now_ns() - t0 > (uint64_t)sh.timeout_s * 1000000000ull) {
			u_err("shmem", "emulated atomic on PE %d: no progress "
				       "in %u s", pe, sh.timeout_s);
			return -ETIMEDOUT;
		}
	}
	return err;
}

int
sh_tr_ofi_amo(struct sh_ctx *c, enum sh_amo_op op, size_t esize, void *dest,
	      const void *value, const void *cond, void *fetched, int pe)
{
	struct net_ep *e = ofi_ep_of(c);
	int err = check(pe);
	uint64_t ra, key;
	if (err || (err = raddr(dest, esize, pe, &ra, &key)))
		return err;
	int s = esize == 8;
	enum fi_datatype dt = s ? FI_UINT64 : FI_UINT32;
	struct amo_buf b = { 0 };
	if (value && op != SH_AMO_FETCH)
		memcpy(&b.val, value, esize);
	if (op == SH_AMO_CSWAP)
		memcpy(&b.cmp, cond, esize);
	static const enum fi_op fop[SH_AMO_XOR + 1] = {
		[SH_AMO_FETCH] = FI_ATOMIC_READ, [SH_AMO_SET] = FI_ATOMIC_WRITE,
		[SH_AMO_SWAP] = FI_ATOMIC_WRITE, [SH_AMO_CSWAP] = FI_CSWAP,
		[SH_AMO_ADD] = FI_SUM, [SH_AMO_AND] = FI_BAND,
		[SH_AMO_OR] = FI_BOR, [SH_AMO_XOR] = FI_BXOR,
	};
	uint64_t old = 0;
	/* A write to complete at quiet (the barrier's arrivals, raise32,
	 * are not: their target waits for them itself). */
	if (op != SH_AMO_FETCH)
		mark(e, pe);
	switch (ofi.how[op][s]) {
	case AMO_NATIVE:
		if (op == SH_AMO_CSWAP)
			err = amo_native(e, FI_CSWAP, 2, dt, &b, ra, key, pe);
		else if (op == SH_AMO_SET)
			err = amo_native(e, FI_ATOMIC_WRITE, 0, dt, &b, ra, key,
					 pe);
		else if (!fetched && ofi.nofetch[op][s])
			err = amo_native(e, fop[op], 0, dt, &b, ra, key, pe);
		else
			err = amo_native(e, fop[op], 1, dt, &b, ra, key, pe);
		old = b.res;
		break;
	case AMO_VIA_SWAP:
		err = amo_native(e, FI_ATOMIC_WRITE, 1, dt, &b, ra, key, pe);
		break;
	case AMO_VIA_CSWAP:
		err = amo_cas_loop(e, op, dt, esize, b.val, &old, ra, key,
				   pe);
		break;
	case AMO_NONE:
		u_err("shmem", "provider %s has no %zu-byte compare-swap: "
			       "atomic op %d to PE %d unsupported",
		      ofi.info->fabric_attr->prov_name, esize, op, pe);
		return -EOPNOTSUPP;
	}
	if (!err && fetched)
		memcpy(fetched, &old, esize);
	return err;
}

int
sh_tr_ofi_raise32(void *word, uint32_t e, int pe)
{
	int err = check(pe);
	uint64_t ra, key;
	if (err || (err = raddr(word, 4, pe, &ra, &key)))
		return err;
	if (ofi.have_max32) {
		struct amo_buf b = { .val = e };
		return amo_native(&ofi.e0, FI_MAX, 0, FI_UINT32, &b, ra, key,
				  pe);
	}
	if (ofi.how[SH_AMO_CSWAP][0] != AMO_NATIVE)
		return -EOPNOTSUPP;
	/* Wrap-safe max: compare-swap while the word is below e. */
	struct amo_buf b = { 0 };
	err = amo_native(&ofi.e0, FI_CSWAP, 2, FI_UINT32, &b, ra, key,
			 pe);
	for (int i = 0; !err && i < 1000000; i++) {
		uint32_t cur = (uint32_t)b.res;
		if ((int32_t)(e - cur) <= 0)
			return 0;
		b.cmp = cur;
		b.val = e;
		err = amo_native(&ofi.e0, FI_CSWAP, 2, FI_UINT32, &b, ra, key,
			 pe);
		if (!err && (uint32_t)b.res == cur)
			return 0;
	}
	return err ? err : -ETIMEDOUT;
}

int
sh_tr_ofi_put_signal(struct sh_ctx *c, void *dest, const void *src,
		     size_t nbytes, uint64_t *sig_addr, uint64_t signal,
		     int sig_op, int pe)
{
	struct net_ep *e = ofi_ep_of(c);
	int err = check(pe);
	uint64_t ra, key, sra, skey;
	if (err || (err = raddr(dest, nbytes, pe, &ra, &key)) ||
	    (err = raddr(sig_addr, 8, pe, &sra, &skey)))
		return err;
	if (nbytes) {
		void *desc;
		struct fid_mr *tmp;
		if ((err = ldesc(src, nbytes, &desc, &tmp)))
			return err;
		const char *s = src;
		mark(e, pe);
		for (size_t done = 0; !err && done < nbytes;) {
			size_t n = nbytes - done;
			if (n > ofi.max_msg)
				n = ofi.max_msg;
			struct iovec iov = { (void *)(s + done), n };
			struct fi_rma_iov rio = { ra + done, n, key };
			struct fi_msg_rma m = {
				.msg_iov = &iov, .desc = &desc, .iov_count = 1,
				.addr = ofi.np[pe].addr, .rma_iov = &rio,
				.rma_iov_count = 1, .context = CTX(pe),
			};
			ssize_t rc = POST(e, fi_writemsg(
				e->ep, &m,
				ofi.delivery ? FI_DELIVERY_COMPLETE : 0));
			if (rc)
				err = post_fail("fi_writemsg", rc, pe);
			done += n;
		}
		/* The payload is complete at pe before the signal goes
		 * (without delivery completion: once pe answered a read). */
		if ((err = finish(e, err, 1, tmp)) ||
		    (ofi.flush && (err = flush_pes(e, pe))))
			return err;
	}
	enum sh_amo_op op = sig_op == SH_SIGNAL_SET ? SH_AMO_SET : SH_AMO_ADD;
	return sh_tr_ofi_amo(c, op, 8, sig_addr, &signal, NULL, NULL, pe);
}


int
sh_tr_ofi_quiet(struct sh_ctx *c)
{
	if (!ofi.active)
		return 0;
	struct net_ep *e = ofi_ep_of(c);
	int err = ofi_wait_all(e);
	if (!err && ofi.flush)
		err = flush_pes(e, -1);
	return err;
}

int
sh_tr_ofi_fence(struct sh_ctx *c)
{
	return sh_tr_ofi_quiet(c);
}

/* ---- raw baseline for the benchmark ------------------------------------ */

int
sh_tr_ofi_raw(int kind, void *sym, void *local, size_t n, int pe)
{
	int err = check(pe);
	uint64_t ra, key;
	if (err || (err = raddr(sym, n, pe, &ra, &key)))
		return err;
	void *desc;
	struct fid_mr *tmp;
	if ((err = ldesc(local, n, &desc, &tmp)))
		return err;
	fi_addr_t fa = ofi.np[pe].addr;
	ssize_t rc;
	struct amo_buf *b = local;
	if (kind == 0)
		rc = POST(&ofi.e0, fi_write(ofi.e0.ep, local, n, desc, fa, ra,
					    key, CTX(pe)));
	else if (kind == 1)
		rc = POST(&ofi.e0, fi_read(ofi.e0.ep, local, n, desc, fa, ra,
					   key, CTX(pe)));
	else
		rc = POST(&ofi.e0, fi_fetch_atomic(ofi.e0.ep, &b->val, 1, desc,
						   &b->res, desc, fa, ra, key,
						   FI_UINT64, FI_SUM, CTX(pe)));
	err = rc ? post_fail("raw", rc, pe) : ofi_wait_all(&ofi.e0);
	if (tmp)
		fi_close(&tmp->fid);
	return err;
}

int
sh_tr_ofi_check(const void *sym, size_t len, int pe)
{
	uint64_t addr, key;
	return raddr(sym, len, pe, &addr, &key);
}

#endif /* ZESHMEM_HAVE_OFI */
