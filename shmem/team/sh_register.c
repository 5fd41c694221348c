// SPDX-License-Identifier: MIT
/*
 * sh_reg: user buffers registered with the runtime (rocSHMEM's
 * rocshmem_buffer_register* routines, seed 000).
 *
 * Vocabulary
 *   lreg    a local registration: [addr, addr + len) of any memory the
 *           caller owns, usable as the LOCAL side of RMA (source of a put,
 *           destination of a get), never as a remote target. With
 *           libfabric active it is fi_mr_reg'd once here and its
 *           descriptor handed to every operation (the region's desc).
 *   symreg  a symmetric registration of VMM memory (zeVirtualMemReserve +
 *           zeVirtualMemMap): the range is exported as one physical-range
 *           IPC handle (sh_tr_ipc_export), opened again in this process
 *           (a fresh reservation mapping the same physical memory: the
 *           alias, what the caller gets back) and by every node peer.
 *           peer[pe] is where this PE maps pe's buffer; the alias is the
 *           symmetric address: remote(pe, alias + d) = peer[pe] + d.
 *           With libfabric active the alias is also one memory region
 *           (sh_tr_ofi_reg_sym) and net[pe] is pe's {key, base} for the
 *           PEs reached over the network: sh_ofi.c's raddr sends
 *           alias + d to pe's base + d (FI_MR_VIRT_ADDR) or to offset d.
 *
 * Agreement: register_symmetric all-gathers every PE's local verdict and
 * length over the bootstrap and every PE decides from the same bytes, so
 * all return the alias or all NULL; a second all-gather after the peers'
 * handles were opened makes the opens all-or-nothing too (as heap growth
 * does, sh_tr_ipc_add_chunk). The network keys and bases travel in the
 * first all-gather with the verdicts. Unregister: quiet (nothing of this
 * PE in flight to a peer's buffer), agree (every PE quieted), then the
 * region is closed and the mappings go.
 *
 * Contexts: the buffer is the program's, reserved and mapped in ITS
 * context; drivers that keep VMM ranges per context (Intel's and zemem's
 * do not: theirs are the driver's) know it only there. So the checks and
 * the export ask, in order, the context the program named
 * (shmemx_set_ze_context), the driver's default context
 * (zeDriverGetDefaultContext, where the loader and driver have it), and
 * the runtime's own; the first that knows the range is the buffer's
 * (s->ctx, which also puts the export back). The alias and the peers'
 * opens are the runtime's own context's.
 *
 * Not supported: with libfabric active, a device whose memory the host
 * cannot reach (no FI_HMEM_ZE in libfabric here: -EOPNOTSUPP, as the
 * heap).
 *
 * Every registration is a region of the symmetric-address map
 * (mem/sh_symmap.c: LOCAL, ALIAS or STRIDE), which keeps the list and
 * answers every lookup (RMA on any thread, the network transport's keys
 * and descriptors) under its lock; the records here embed the region
 * and add what unregistering needs. Registration calls are serialised
 * by the program (collective ones anyway); no lock is held across a
 * bootstrap exchange or a driver call.
 */
#include "sh_team.h"

#include "u_log.h"
#include "u_options.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* A local registration: a LOCAL region (lo, len, desc) and its MR. */
struct lreg {
	struct sh_region r;
	void *mr;                         /* libfabric's, NULL without it */
};

/* A symmetric registration: an ALIAS region (lo = the alias, user = the
 * caller's VMM buffer, view[pe] = where pe's buffer is mapped here,
 * net[pe] = its key and base, desc) and what unregistering needs. */
struct symreg {
	struct sh_region r;
	ze_context_handle_t ctx;          /* where it is known (exported) */
	ze_ipc_mem_handle_t handle;       /* the export (put at unregister) */
	void *mr;                         /* the alias's region (libfabric) */
};

static _Atomic(ze_context_handle_t) prog_ctx; /* shmemx_set_ze_context */

/* Stride registrations (rocshmem_buffer_register_vmm,
 * rocshmem_sym_buffer_register) are STRIDE regions: the program maps the
 * copies of a group of PEs itself, PE first + i's at addr + (i - my_pe) *
 * stride in this process; nothing is exported or opened here.
 * sym_buffer_register is collective: with libfabric active the buffer is
 * also a memory region, and net[pe] holds every PE's key and base (the
 * same all-gather as register_symmetric's), for the PEs on other
 * nodes. */

/* What each kind may not overlap (as before the map: a local or
 * symmetric registration is refused over a local or symmetric one, a
 * stride registration over a stride or symmetric one). */
#define LREG_CLASH (SH_SYM_BIT(SH_SYM_LOCAL) | SH_SYM_BIT(SH_SYM_ALIAS))
#define STRREG_CLASH (SH_SYM_BIT(SH_SYM_STRIDE) | SH_SYM_BIT(SH_SYM_ALIAS))

static bool
overlaps(const char *a, size_t alen, const char *b, size_t blen)
{
	return a < b + blen && b < a + alen;
}

/* ---- local registrations ----------------------------------------------- */

int
sh_lreg_add(void *addr, size_t len)
{
	if (!addr || !len || (uintptr_t)addr + len < (uintptr_t)addr)
		return -EINVAL;
	struct lreg *l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->r = (struct sh_region){ .kind = SH_SYM_LOCAL, .lo = (uintptr_t)addr,
				   .len = len, .origin = (uintptr_t)addr,
				   .wait_base = SH_WAIT_ANY };
	if (sh_sym_overlap(addr, len, LREG_CLASH)) {
		free(l);
		return -EEXIST;
	}
	int err = sh_tr_ofi_reg_local(addr, len, &l->mr, &l->r.desc);
	if (!err && (err = sh_sym_add(&l->r, LREG_CLASH)))
		sh_tr_ofi_unreg_local(l->mr);
	if (err) {
		free(l);
		return err;
	}
	u_dbg("shmem", "registered %p+%zu (local)", addr, len);
	return 0;
}

int
sh_lreg_del(void *addr)
{
	struct lreg *l =
		(struct lreg *)sh_sym_take(addr, SH_SYM_BIT(SH_SYM_LOCAL));
	if (!l)
		return -ENOENT;
	sh_tr_ofi_unreg_local(l->mr);
	free(l);
	return 0;
}

/* ---- symmetric registrations ------------------------------------------- */

/* What each PE tells the others. */
struct sym_blob {
	int32_t status;                   /* 0 or this PE's -errno */
	uint32_t pad;
	uint64_t len;
	ze_ipc_mem_handle_t handle;
	uint64_t key, base;               /* the alias's region (libfabric) */
};

/* Why this PE cannot register [addr, addr + len): 0 or -errno, said on
 * stderr. */
static int
sym_check(void *addr, size_t len, const char *who, ze_context_handle_t *ctx)
{
	if (!addr || !len) {
		sh_warn(who, "addr %p, length %zu: a NULL address or a zero "
			     "length cannot be registered", addr, len);
		return -EINVAL;
	}
	if (sh_tr_ofi_active() && !sh.heap_host_accessible) {
		sh_warn(who, "the network transport needs memory the host can "
			     "reach (libfabric has no FI_HMEM_ZE here)");
		return -EOPNOTSUPP;
	}
	unsigned cap = (unsigned)u_option_u64(U_OPT_SH_MAX_SYMMETRIC_REGS);
	unsigned nsymregs = sh_sym_count(SH_SYM_BIT(SH_SYM_ALIAS));
	if (nsymregs >= cap) {
		sh_warn(who, "%u symmetric registrations already: the cap "
			     "(ZESHMEM_MAX_SYMMETRIC_REGS) is %u", nsymregs,
			cap);
		return -ENOSPC;
	}
	if (sh_heap_offset(addr, 0) >= 0) {
		sh_warn(who, "addr %p is in the symmetric heap (already "
			     "symmetric): not registered", addr);
		return -EINVAL;
	}
	/* VMM memory answers GetAccessAttribute over the whole range with
	 * one access (anything else is not inside a reservation). */
	ze_memory_access_attribute_t acc = ZE_MEMORY_ACCESS_ATTRIBUTE_NONE;
	size_t run = 0;
	size_t page = 0;
	ze_result_t r = zeVirtualMemQueryPageSize(sh.zctx, sh.zdev, len, &page);
	if (r || !page) {
		sh_warn(who, "the VMM page size of %zu bytes is unknown (0x%x)",
			len, r);
		return -EINVAL;
	}
	if ((uintptr_t)addr % page || len % page) {
		sh_warn(who, "addr %p, length %zu: not aligned to the VMM page "
			     "size %zu", addr, len, page);
		return -EINVAL;
	}
	ze_context_handle_t cand[3] = { atomic_load(&prog_ctx), NULL,
					sh.zctx };
	ze_context_handle_t (*dflt)(ze_driver_handle_t) =
		(ze_context_handle_t (*)(ze_driver_handle_t))sh_ze_sym(
			"zeDriverGetDefaultContext");
	if (dflt && sh.zdrv)
		cand[1] = dflt(sh.zdrv);
	*ctx = NULL;
	for (int i = 0; i < 3 && !*ctx; i++) {
		if (!cand[i] || (i && cand[i] == cand[i - 1]))
			continue;
		r = zeVirtualMemGetAccessAttribute(cand[i], addr, len, &acc,
						   &run);
		if (!r && acc != ZE_MEMORY_ACCESS_ATTRIBUTE_NONE && run == len)
			*ctx = cand[i];
	}
	if (!*ctx) {
		sh_warn(who, "addr %p, length %zu is not memory mapped with "
			     "zeVirtualMemReserve + zeVirtualMemMap (in the "
			     "context named by shmemx_set_ze_context, the "
			     "driver's default one or the runtime's)", addr,
			len);
		return -EINVAL;
	}
	if (sh_sym_overlap(addr, len, LREG_CLASH)) {
		sh_warn(who, "addr %p, length %zu overlaps a registered buffer",
			addr, len);
		return -EEXIST;
	}
	return 0;
}

static void
symreg_close(struct symreg *s, bool put)
{
	char *alias = (char *)s->r.lo;
	sh_tr_ofi_unreg_local(s->mr); /* before the alias it covers goes */
	for (int i = 0; s->r.view && i < sh.npes; i++)
		if (s->r.view[i] && s->r.view[i] != alias)
			zeMemCloseIpcHandle(sh.zctx, s->r.view[i]);
	if (alias)
		zeMemCloseIpcHandle(sh.zctx, alias);
	if (put)
		sh_tr_ipc_put(s->ctx, s->handle);
	free(s->r.view);
	free(s->r.net);
	free(s);
}

/* The all-gathered int32 verdicts: 0 when every PE's is 0, else the first
 * nonzero one (its PE in *bad). A failed exchange is -EIO. */
static int
agree(int32_t mine, int *bad)
{
	int n = sh.npes;
	int32_t *all = calloc((size_t)n, sizeof(*all));
	if (!all)
		return -ENOMEM; /* the others then time out: as heap growth */
	int err = sh.boot->ops->allgather(sh.boot, &mine, sizeof(mine), all);
	for (int i = 0; !err && i < n; i++)
		if (all[i]) {
			err = all[i];
			*bad = i;
			break;
		}
	free(all);
	return err;
}

/* All-gathers this PE's blob into all (sh.npes of them; NULL: none) and
 * decides from the same bytes on every PE: 0; the first nonzero status
 * (its PE in *bad); -EINVAL for a PE whose length is not this PE's (said
 * here, *said set; tail ends the line); -EIO when the exchange failed. */
static int
blob_exchange(const struct sym_blob *mine, struct sym_blob *all,
	      const char *who, const char *tail, int *bad, bool *said)
{
	if (!all || sh.boot->ops->allgather(sh.boot, mine, sizeof(*mine), all))
		return -EIO;
	for (int i = 0; i < sh.npes; i++) {
		if (all[i].status) {
			*bad = i;
			return all[i].status;
		}
		if (all[i].len != mine->len) {
			sh_warn(who, "PE %d registers %llu bytes, this PE %llu: "
				     "every PE must pass the same length%s",
				i, (unsigned long long)all[i].len,
				(unsigned long long)mine->len, tail);
			*said = true;
			return -EINVAL;
		}
	}
	return 0;
}

void *
sh_symreg_add(void *addr, size_t len, const char *who)
{
	sh_check_init(who);
	int n = sh.npes, bad = -1;
	struct sym_blob mine = { .len = len };
	struct symreg *s = calloc(1, sizeof(*s));
	struct sym_blob *all = calloc((size_t)n, sizeof(*all));
	bool net = sh_tr_ofi_active();
	if (s)
		s->r.view = calloc((size_t)n, sizeof(*s->r.view));
	if (s && net)
		s->r.net = calloc((size_t)n, sizeof(*s->r.net));
	ze_context_handle_t ctx = NULL;
	mine.status = s && all && s->r.view && (!net || s->r.net)
			      ? sym_check(addr, len, who, &ctx)
			      : -ENOMEM;
	bool exported = false, checked = !mine.status;
	if (!mine.status) {
		s->ctx = ctx;
		mine.status = sh_tr_ipc_export(ctx, addr, len, &mine.handle);
		exported = !mine.status;
	}
	if (!mine.status) {
		void *a = NULL;
		mine.status = sh_tr_ipc_open(mine.handle, sh.me, &a);
		s->r.lo = (uintptr_t)a;
	}
	if (exported)
		s->handle = mine.handle;
	bool said = mine.status != 0;
	if (said && checked)
		sh_warn(who, "addr %p, length %zu: %s of its IPC handle "
			     "failed: %s", addr, len,
			exported ? "the local open" : "the export",
			strerror(-mine.status));
	if (!mine.status && net) {
		mine.status = sh_tr_ofi_reg_sym((void *)s->r.lo, len, &s->mr,
						&s->r.desc, &mine.key,
						&mine.base);
		if (mine.status) {
			sh_warn(who, "addr %p, length %zu: the network "
				     "registration of its alias failed: %s",
				addr, len, strerror(-mine.status));
			said = true;
		}
	}

	/* 1: every PE's verdict and length (this PE said its own). */
	int err = blob_exchange(&mine, all, who, ": returning NULL", &bad,
				&said);
	/* 2: open the node peers' buffers, all or nothing. */
	for (int i = 0; !err && i < n; i++) {
		if (s->r.net) {
			s->r.net[i].key = all[i].key;
			s->r.net[i].base = all[i].base;
		}
		if (i == sh.me) {
			s->r.view[i] = (char *)s->r.lo;
		} else if (sh.peers[i].local) {
			void *m = NULL;
			err = sh_tr_ipc_open(all[i].handle, i, &m);
			s->r.view[i] = m;
			said = said || err;
		}
	}
	int bad2 = -1;
	int err2 = agree(err, &bad2);
	if (!err) {
		err = err2;
		bad = bad2;
	}
	free(all);
	if (err) {
		if (!said && bad >= 0)
			sh_warn(who, "PE %d refused the registration (%s): "
				     "returning NULL", bad, strerror(-err));
		else if (!said)
			sh_warn(who, "the bootstrap exchange failed (%s): "
				     "returning NULL", strerror(-err));
		if (s)
			symreg_close(s, exported);
		return NULL;
	}
	s->r.kind = SH_SYM_ALIAS;
	s->r.user = (uintptr_t)addr;
	s->r.len = len;
	s->r.origin = s->r.lo;
	s->r.wait_base = SH_WAIT_ANY;
	/* Checked before the exchange; the program serialises registration
	 * calls, so nothing came in between. */
	if (sh_sym_add(&s->r, LREG_CLASH))
		sh_fatal(who, "%p+%zu overlaps a registration made during the "
			      "call", addr, len);
	u_dbg("shmem", "%s: %p+%zu registered, alias %p", who, addr, len,
	      (void *)s->r.lo);
	return (void *)s->r.lo;
}

void
sh_symreg_set_ctx(ze_context_handle_t ctx)
{
	atomic_store(&prog_ctx, ctx);
}

int
sh_symreg_del(void *alias, const char *who)
{
	sh_check_init(who);
	/* Nothing of this PE may still be in flight to a peer's buffer. */
	int err = sh_quiet(NULL);
	struct symreg *s = alias ? (struct symreg *)sh_sym_listed(
					   alias, SH_SYM_BIT(SH_SYM_ALIAS))
				 : NULL;
	int32_t mine = s ? 0 : -ENOENT;
	if (!s)
		sh_warn(who, "%p is no address rocshmem_buffer_register_"
			     "symmetric returned", alias);
	int bad = -1;
	int e2 = agree(mine, &bad);
	if (e2) {
		if (bad >= 0 && bad != sh.me)
			sh_warn(who, "PE %d does not know its alias: nothing "
				     "unregistered", bad);
		return e2 == -EIO ? -EIO : -ENOENT;
	}
	sh_sym_take(alias, SH_SYM_BIT(SH_SYM_ALIAS));
	symreg_close(s, true);
	return err;
}

/* A stride registration: its region, and its memory region when
 * sh_strreg_add_sym registered it with the NIC. */
struct strreg {
	struct sh_region r;
	void *mr;
};

static void
strreg_free(struct strreg *t)
{
	if (!t)
		return;
	sh_tr_ofi_unreg_local(t->mr);
	free(t->r.net);
	free(t);
}

/* What is wrong with a stride registration's arguments, or NULL. */
static const char *
strreg_bad(void *addr, size_t len, int my_pe, int n_pes, ptrdiff_t stride)
{
	int first = sh.me - my_pe;
	uintptr_t a = (uintptr_t)addr;
	if (addr == NULL || len == 0)
		return "addr is NULL or length 0";
	if (n_pes < 1 || my_pe < 0 || my_pe >= n_pes)
		return "my_pe not in [0, n_pes)";
	if (first < 0 || n_pes > sh.npes - first)
		return "the group (this PE - my_pe .. + n_pes - 1) is not "
		       "inside the job";
	if (n_pes > 1 && (stride == 0 || stride == PTRDIFF_MIN ||
			  (size_t)(stride < 0 ? -stride : stride) < len))
		return "|stride| is smaller than length";
	if (a + len < a)
		return "addr + length wraps";
	if (n_pes > 1) {
		/* the first and last copies stay inside the address space */
		int64_t d0, d1, lo, hi;
		if (__builtin_mul_overflow((int64_t)-my_pe, (int64_t)stride,
					   &d0) ||
		    __builtin_mul_overflow((int64_t)(n_pes - 1 - my_pe),
					   (int64_t)stride, &d1) ||
		    a > (uintptr_t)INT64_MAX ||
		    __builtin_add_overflow((int64_t)a, d0 < d1 ? d0 : d1,
					   &lo) ||
		    __builtin_add_overflow((int64_t)a, d0 < d1 ? d1 : d0,
					   &hi) ||
		    lo < 0 || hi > INT64_MAX - (int64_t)len)
			return "a copy of the group lies outside the address "
			       "space";
	}
	if (overlaps(addr, len, sh_heap.base, sh_heap.size))
		return "the range overlaps the symmetric heap";
	return NULL;
}

/* The arguments checked (one warning when not): 0, -EINVAL or -EEXIST
 * (an overlap with a registration). t: the record to fill. */
static int
strreg_prepare(struct strreg *t, void *addr, size_t len, int my_pe,
	       int n_pes, ptrdiff_t stride, const char *who)
{
	const char *bad = strreg_bad(addr, len, my_pe, n_pes, stride);
	if (bad) {
		sh_warn(who, "addr %p, length %zu, my_pe %d, n_pes %d, stride "
			"%td: %s", addr, len, my_pe, n_pes, stride, bad);
		return -EINVAL;
	}
	const struct sh_region *o = sh_sym_overlap(addr, len, STRREG_CLASH);
	if (o) {
		sh_warn(who, "addr %p, length %zu overlaps the %s"
			"registration at %p", addr, len,
			o->kind == SH_SYM_ALIAS ? "symmetric " : "",
			(void *)o->lo);
		return -EEXIST;
	}
	t->r.kind = SH_SYM_STRIDE;
	t->r.lo = t->r.origin = (uintptr_t)addr;
	t->r.len = len;
	t->r.wait_base = SH_WAIT_ANY;
	t->r.first = sh.me - my_pe;
	t->r.n = n_pes;
	t->r.stride = stride;
	return 0;
}

int
sh_strreg_add(void *addr, size_t len, int my_pe, int n_pes,
	      ptrdiff_t stride, const char *who)
{
	struct strreg *t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	int err = strreg_prepare(t, addr, len, my_pe, n_pes, stride, who);
	if (!err && sh_sym_add(&t->r, STRREG_CLASH)) {
		sh_warn(who, "addr %p, length %zu overlaps a registration",
			addr, len);
		err = -EEXIST;
	}
	if (err)
		strreg_free(t);
	return err;
}

int
sh_strreg_add_sym(void *addr, size_t len, int my_pe, int n_pes,
		  ptrdiff_t stride, const char *who)
{
	int n = sh.npes, bad = -1;
	struct sym_blob mine = { .len = len };
	struct sym_blob *all = calloc((size_t)n, sizeof(*all));
	struct strreg *t = calloc(1, sizeof(*t));
	bool net = sh_tr_ofi_active(), said = false;
	if (!t || !all || (net && !(t->r.net = calloc((size_t)n,
						       sizeof(*t->r.net))))) {
		mine.status = -ENOMEM;
	} else {
		mine.status = strreg_prepare(t, addr, len, my_pe, n_pes,
					     stride, who);
		said = mine.status != 0;
	}
	if (!mine.status && net) {
		mine.status = sh_tr_ofi_reg_sym(addr, len, &t->mr, &t->r.desc,
						&mine.key, &mine.base);
		if (mine.status) {
			sh_warn(who, "addr %p, length %zu: its network "
				     "registration failed: %s", addr, len,
				strerror(-mine.status));
			said = true;
		}
	}
	/* every PE's verdict, length, key and base (this PE said its own) */
	int err = blob_exchange(&mine, all, who, "", &bad, &said);
	for (int i = 0; !err && net && i < n; i++) {
		t->r.net[i].key = all[i].key;
		t->r.net[i].base = all[i].base;
	}
	free(all);
	if (err) {
		if (!said && bad >= 0)
			sh_warn(who, "PE %d refused the registration (%s)",
				bad, strerror(-err));
		else if (!said)
			sh_warn(who, "the bootstrap exchange failed (%s)",
				strerror(-err));
		strreg_free(t);
		return err;
	}
	/* Checked before the exchange; the program serialises registration
	 * calls, so nothing came in between. */
	if (sh_sym_add(&t->r, STRREG_CLASH))
		sh_fatal(who, "%p+%zu overlaps a registration made during the "
			      "call", addr, len);
	return 0;
}

int
sh_strreg_del(void *addr)
{
	struct sh_region *r = sh_sym_take(addr, SH_SYM_BIT(SH_SYM_STRIDE));
	strreg_free((struct strreg *)r);
	return r ? 0 : -ENOENT;
}

/* Releases the registrations of the list r (sh_sym_take_kinds's). */
static void
release(struct sh_region *r)
{
	while (r) {
		struct sh_region *next = r->next;
		if (r->kind == SH_SYM_ALIAS) {
			symreg_close((struct symreg *)r, true);
		} else if (r->kind == SH_SYM_LOCAL) {
			sh_tr_ofi_unreg_local(((struct lreg *)r)->mr);
			free(r);
		} else {
			strreg_free((struct strreg *)r);
		}
		r = next;
	}
}

void
sh_lreg_del_all(void)
{
	release(sh_sym_take_kinds(SH_SYM_BIT(SH_SYM_LOCAL)));
}

void
sh_reg_fini(void)
{
	release(sh_sym_take_kinds(SH_SYM_BIT(SH_SYM_ALIAS) |
				  SH_SYM_BIT(SH_SYM_STRIDE)));
	sh_lreg_del_all();
}
