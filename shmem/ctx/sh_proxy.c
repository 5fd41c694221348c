// SPDX-License-Identifier: MIT
/*
 * sh_proxy: the backends of ZESHMEM_BACKEND (rocSHMEM's three, seed 002)
 * and the reverse-offload proxy.
 *
 *   auto  (unset) node-local peers through their mapped heaps, the others
 *         through libfabric: what sh_rma.c / sh_atomic.c do by themselves.
 *   ipc   node-local mappings only: ZESHMEM_TRANSPORT=ipc (sh_ipc.c
 *         refuses a PE on another node at init, naming it).
 *   gda   the caller's thread posts straight to libfabric for every PE:
 *         ZESHMEM_TRANSPORT=ofi (no proxy); a build without libfabric
 *         refuses it at init.
 *   ro    reverse offload: every put/get/strided/signal/AMO, fence and
 *         quiet is queued to one proxy thread, which executes it through
 *         the same sh_put & co. (node-local copy or libfabric: the auto
 *         transport). _nbi calls (and fence) return once queued, so the
 *         copy overlaps the caller's work; blocking calls wait for their
 *         own entry; quiet queues a quiet and waits for it, which is
 *         after everything queued before it (one FIFO, one executor),
 *         unless the queue is empty and what the proxy ran finished in
 *         place (node-local copies by the CPU): then the caller's own
 *         fence is the quiet (sh_proxy_quiet).
 *         fence is a queued sh_fence: the entries after it start only
 *         once it has run, so puts to each PE stay ordered.
 *
 * The queue: a ring of SH_PROXY_RING entries under one mutex; the proxy
 * sleeps on a condition variable when the ring is empty, a producer
 * sleeps on another while it is full, a blocking caller on a third until
 * the proxy has finished its entry. A condition variable's sleep and
 * wake cost ~10-17 us on a loaded machine, more than a small copy (and
 * the waker pays 6-8 us of it on a small VM, inside the _nbi call): where
 * the machine has more online CPUs than the node has PEs
 * (ZESHMEM_PROXY_SPIN=auto; on / off force it), a blocking caller first
 * spins for PX_SPIN_NS (a few microseconds) and the idle proxy for
 * PX_IDLE_SPIN_NS (200 us: the next _nbi of a program that alternates
 * puts and computation finds it awake), with the lock released, watching
 * tail / head (stored atomically under the lock), then they sleep as
 * before. Never longer: a job may have more PEs than cores. Entries are
 * executed in place (the slot is freed after) in queue order. Any number
 * of producer threads
 * (SHMEM_THREAD_MULTIPLE). An nbi entry reads its source (put) or
 * writes its dest (get) when the proxy runs it: OpenSHMEM lets the
 * program reuse them only after quiet. Its arguments are checked when it
 * is queued (pe, symmetric range, a dead peer: the same errors, at
 * once); an error of its execution is kept (the first one) and returned
 * by the next quiet or blocking call of any thread. Each entry carries
 * its ctx: quiet on a context waits for all the proxy's work for now
 * (a per-context quiet can pick its own entries later).
 *
 * The proxy starts at init (after the transports: it uses them) with
 * every signal blocked, and is joined at finalize after draining the
 * queue (finalize's barrier quiets first).
 *
 * Errors: as sh_put & co.; -EINVAL a bad ZESHMEM_BACKEND or one that
 * contradicts ZESHMEM_TRANSPORT / ZESHMEM_FORCE_NETWORK; -EOPNOTSUPP gda
 * without libfabric; thread creation's own error.
 */
#include "sh_ctx.h"

#include "u_log.h"
#include "u_options.h"
#include "u_os.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>


/* ---- backend selection ------------------------------------------------ */

int
sh_backend_select(void)
{
	const char *be = u_option_str(U_OPT_SH_BACKEND);
	sh.backend = SH_BACKEND_AUTO;
	if (!strcmp(be, "ipc"))
		sh.backend = SH_BACKEND_IPC;
	else if (!strcmp(be, "ro"))
		sh.backend = SH_BACKEND_RO;
	else if (!strcmp(be, "gda"))
		sh.backend = SH_BACKEND_GDA;
	else if (strcmp(be, "auto") && strcmp(be, "")) {
		u_err("shmem", "ZESHMEM_BACKEND=%s: use ipc, ro, gda or auto",
		      be);
		return -EINVAL;
	}
	if (sh.backend == SH_BACKEND_IPC) {
		if (sh.transport == SH_TRANSPORT_OFI) {
			u_err("shmem", "ZESHMEM_BACKEND=ipc contradicts "
				       "ZESHMEM_TRANSPORT=ofi / "
				       "ZESHMEM_FORCE_NETWORK=1");
			return -EINVAL;
		}
		sh.transport = SH_TRANSPORT_IPC;
	} else if (sh.backend == SH_BACKEND_GDA) {
		if (sh.transport == SH_TRANSPORT_IPC) {
			u_err("shmem", "ZESHMEM_BACKEND=gda contradicts "
				       "ZESHMEM_TRANSPORT=ipc");
			return -EINVAL;
		}
#ifndef ZESHMEM_HAVE_OFI
		u_err("shmem", "ZESHMEM_BACKEND=gda needs libfabric, and this "
			       "libzeshmem was built without it "
			       "(libfabric-dev)");
		return -EOPNOTSUPP;
#endif
		sh.transport = SH_TRANSPORT_OFI;
	}
	return 0;
}

/* ---- the queue -------------------------------------------------------- */

enum px_op {
	PX_PUT, PX_GET, PX_IPUT, PX_IGET, PX_SIGNAL, PX_AMO, PX_FENCE,
	PX_QUIET,
};

/* A blocking caller's completion (on its stack). */
struct px_wait {
	int rc;
};

struct px_ent {
	enum px_op op;
	int pe, nbi;
	struct sh_ctx *ctx;
	void *dest;
	const void *src;
	size_t n;                         /* bytes; strided: elements */
	ptrdiff_t dst, sst;
	size_t esize;
	/* put_signal */
	uint64_t *sig;
	uint64_t signal;
	int sig_op;
	/* AMO (blocking: the caller's operands stay valid) */
	enum sh_amo_op amo;
	enum sh_type type;
	const void *value, *cond;
	void *fetched;
	struct px_wait *w;                /* NULL: nbi (and fence) */
};

/* The bounded spin before a sleep (see above). */
#define PX_SPIN_NS 5000
#define PX_IDLE_SPIN_NS 200000

static struct {
	pthread_mutex_t lock;
	pthread_cond_t work, space, done;
	struct px_ent ring[SH_PROXY_RING];
	uint64_t head, tail;              /* next to run, next free */
	uint64_t executed;
	bool sleeping, stop, hold, running;
	/* Something the proxy ran since its last quiet may still be in
	 * flight (a network operation, an engine copy): a quiet must be
	 * queued. False: every entry run so far finished in place. */
	bool unquiet;
	bool spin;                        /* ZESHMEM_PROXY_SPIN, at init */
	uint64_t idle_spins, wait_spins;  /* spins begun (test hook) */
	cpu_set_t cpus;                   /* the process's allowed CPUs at init */
	int off_cpu;                      /* the CPU the proxy is kept off, -1 */
	uint64_t idle_hits, wait_hits;    /* ... that ended with the news */
	uint64_t quiets_in_place;         /* quiets not queued (test hook) */
	unsigned space_waiters;
	int err;                          /* first nbi error, not yet told */
	pthread_t thr;
} px = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.work = PTHREAD_COND_INITIALIZER,
	.space = PTHREAD_COND_INITIALIZER,
	.done = PTHREAD_COND_INITIALIZER,
};

static int
run(const struct px_ent *e)
{
	switch (e->op) {
	case PX_PUT:
		return sh_put(e->ctx, e->dest, e->src, e->n, e->pe, e->nbi);
	case PX_GET:
		return sh_get(e->ctx, e->dest, e->src, e->n, e->pe, e->nbi);
	case PX_IPUT:
		return sh_iput(e->ctx, e->dest, e->src, e->dst, e->sst, e->n,
			       e->esize, e->pe);
	case PX_IGET:
		return sh_iget(e->ctx, e->dest, e->src, e->dst, e->sst, e->n,
			       e->esize, e->pe);
	case PX_SIGNAL:
		return sh_put_signal(e->ctx, e->dest, e->src, e->n, e->sig,
				     e->signal, e->sig_op, e->pe, e->nbi);
	case PX_AMO:
		return sh_amo(e->ctx, e->amo, e->type, e->esize, e->dest,
			      e->value, e->cond, e->fetched, e->pe);
	case PX_FENCE:
		return sh_fence(e->ctx);
	case PX_QUIET:
		return sh_quiet(e->ctx);
	}
	return -EINVAL;
}

/* Did e, just run, leave work that only a quiet completes? Node-local
 * copies, signals and AMOs by the CPU are done when they return; the
 * copy engine's nbi copies and anything on the network are not. */
static bool
leaves_work(const struct px_ent *e)
{
	if (__atomic_load_n(&sh.async_pending, __ATOMIC_RELAXED) ||
	    (e->ctx && __atomic_load_n(&e->ctx->async_pending,
				       __ATOMIC_RELAXED)))
		return true;
	if (!sh_tr_ofi_active())
		return false;
	if (e->op == PX_FENCE)
		return true;
	return (unsigned)e->pe < (unsigned)sh.npes && sh.peers[e->pe].net;
}

static inline void
px_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/* Spins (lock not held) for at most limit ns until *word > after; true
 * when it did. */
static bool
px_spin_until(const uint64_t *word, uint64_t after, uint64_t limit)
{
	uint64_t t0 = u_now_ns();
	for (unsigned i = 1;; i++) {
		if (__atomic_load_n(word, __ATOMIC_ACQUIRE) > after)
			return true;
		px_relax();
		if (!(i & 15) && u_now_ns() - t0 > limit)
			return false;
	}
}

static void *
proxy_main(void *arg)
{
	(void)arg;
	sh_proxy_self = true;
	/* SCHED_BATCH: a woken proxy never preempts the thread that queued
	 * the work (CFS's wakeup preemption skips batch tasks), so an _nbi
	 * call returns at once and the copy runs on a free core, where the
	 * load balancer moves the proxy; without it the proxy, woken on the
	 * caller's core, ran the whole copy before the caller went on. */
	struct sched_param sp = { 0 };
	if (pthread_setschedparam(pthread_self(), SCHED_BATCH, &sp))
		u_info("shmem", "ro proxy: SCHED_BATCH refused (wakeups may "
		       "preempt the caller)");
	pthread_mutex_lock(&px.lock);
	for (;;) {
		if (px.spin && !px.stop && !px.hold && px.head == px.tail) {
			/* Idle: the next entry may be a moment away. */
			uint64_t h = px.head;
			px.idle_spins++;
			pthread_mutex_unlock(&px.lock);
			bool hit = px_spin_until(&px.tail, h,
						 PX_IDLE_SPIN_NS);
			pthread_mutex_lock(&px.lock);
			px.idle_hits += hit;
		}
		while (!px.stop && (px.head == px.tail || px.hold)) {
			px.sleeping = true;
			pthread_cond_wait(&px.work, &px.lock);
			px.sleeping = false;
		}
		if (px.head == px.tail)
			break; /* stopping, and drained */
		struct px_ent *e = &px.ring[px.head % SH_PROXY_RING];
		pthread_mutex_unlock(&px.lock);
		/* The slot is ours until head moves: run it in place. */
		int rc = run(e);
		bool more = e->op != PX_QUIET && leaves_work(e);
		pthread_mutex_lock(&px.lock);
		if (e->op == PX_QUIET && !rc)
			px.unquiet = false;
		else if (more)
			px.unquiet = true;
		if (e->w)
			e->w->rc = rc;
		else if (rc && !px.err)
			px.err = rc;
		bool waited = e->w != NULL;
		__atomic_store_n(&px.head, px.head + 1, __ATOMIC_RELEASE);
		px.executed++;
		if (waited)
			pthread_cond_broadcast(&px.done);
		if (px.space_waiters)
			pthread_cond_signal(&px.space);
	}
	pthread_mutex_unlock(&px.lock);
	return NULL;
}

/* Under px.lock, before waking the proxy: its allowed CPUs become the
 * process's less the one the caller runs on, so the copy it wakes for
 * runs beside the caller, not after it (a woken thread lands on the
 * waker's CPU when nothing tells the scheduler otherwise; on small VMs
 * it stays there for whole copies). One sched_setaffinity per change
 * of the caller's CPU; nothing when only one CPU is allowed. */
static void
keep_off_caller_cpu(void)
{
	if (CPU_COUNT(&px.cpus) < 2)
		return;
	int cpu = sched_getcpu();
	if (cpu < 0 || cpu == px.off_cpu || !CPU_ISSET(cpu, &px.cpus))
		return;
	cpu_set_t m = px.cpus;
	CPU_CLR(cpu, &m);
	if (!pthread_setaffinity_np(px.thr, sizeof(m), &m))
		px.off_cpu = cpu;
}

/* Queues e; with e->w, waits until the proxy ran it and returns its
 * result (or, when that is 0, an earlier nbi entry's error). */
static int
submit(struct px_ent *e)
{
	struct px_wait w = { 0 };
	if (!e->nbi && e->op != PX_FENCE)
		e->w = &w;
	pthread_mutex_lock(&px.lock);
	while (px.tail - px.head == SH_PROXY_RING) {
		px.space_waiters++;
		pthread_cond_wait(&px.space, &px.lock);
		px.space_waiters--;
	}
	uint64_t seq = px.tail;
	px.ring[seq % SH_PROXY_RING] = *e;
	__atomic_store_n(&px.tail, seq + 1, __ATOMIC_RELEASE);
	if (px.sleeping) {
		keep_off_caller_cpu();
		pthread_cond_signal(&px.work);
	}
	int rc = 0;
	if (e->w) {
		/* Entries finish in queue order: ours is done once head has
		 * passed it. */
		if (px.spin && px.head <= seq) {
			px.wait_spins++;
			pthread_mutex_unlock(&px.lock);
			bool hit = px_spin_until(&px.head, seq, PX_SPIN_NS);
			pthread_mutex_lock(&px.lock);
			px.wait_hits += hit;
		}
		while (px.head <= seq)
			pthread_cond_wait(&px.done, &px.lock);
		rc = w.rc;
		if (!rc && px.err) {
			rc = px.err;
			px.err = 0;
		}
	}
	pthread_mutex_unlock(&px.lock);
	return rc;
}

/* The errors sh_put & co. give at once for a symmetric range on pe. */
static int
check_range(const void *sym, size_t n, int pe)
{
	if ((unsigned)pe >= (unsigned)sh.npes)
		return -EINVAL;
	if (__atomic_load_n(&sh.peers[pe].dead, __ATOMIC_RELAXED))
		return -EHOSTDOWN;
	if (sh_remote_fast(sym, n, pe))
		return 0;
	if (!sh.peers[pe].net)
		return sh.peers[pe].local ? -EFAULT : -EOPNOTSUPP;
	return sh_tr_ofi_check(sym, n, pe);
}

int
sh_proxy_put(struct sh_ctx *c, void *dest, const void *src, size_t nbytes,
	     int pe, int nbi)
{
	if (nbi) {
		int err = check_range(dest, nbytes, pe);
		if (err)
			return err;
	}
	struct px_ent e = { .op = PX_PUT, .ctx = c, .dest = dest, .src = src,
			    .n = nbytes, .pe = pe, .nbi = nbi };
	return submit(&e);
}

int
sh_proxy_get(struct sh_ctx *c, void *dest, const void *src, size_t nbytes,
	     int pe, int nbi)
{
	if (nbi) {
		int err = check_range(src, nbytes, pe);
		if (err)
			return err;
	}
	struct px_ent e = { .op = PX_GET, .ctx = c, .dest = dest, .src = src,
			    .n = nbytes, .pe = pe, .nbi = nbi };
	return submit(&e);
}

int
sh_proxy_strided(struct sh_ctx *c, void *dest, const void *src,
		 ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t esize,
		 int pe, bool put)
{
	struct px_ent e = { .op = put ? PX_IPUT : PX_IGET, .ctx = c,
			    .dest = dest, .src = src, .dst = dst, .sst = sst,
			    .n = nelems, .esize = esize, .pe = pe };
	return submit(&e);
}

int
sh_proxy_put_signal(struct sh_ctx *c, void *dest, const void *src,
		    size_t nbytes, uint64_t *sig_addr, uint64_t signal,
		    int sig_op, int pe, int nbi)
{
	if (nbi) {
		if ((unsigned)pe >= (unsigned)sh.npes ||
		    (sig_op != SH_SIGNAL_SET && sig_op != SH_SIGNAL_ADD) ||
		    (uintptr_t)sig_addr % sizeof(uint64_t))
			return -EINVAL;
		int err = check_range(dest, nbytes, pe);
		if (!err)
			err = check_range(sig_addr, sizeof(uint64_t), pe);
		if (err)
			return err;
	}
	struct px_ent e = { .op = PX_SIGNAL, .ctx = c, .dest = dest,
			    .src = src, .n = nbytes, .sig = sig_addr,
			    .signal = signal, .sig_op = sig_op, .pe = pe,
			    .nbi = nbi };
	return submit(&e);
}

int
sh_proxy_amo(struct sh_ctx *c, enum sh_amo_op op, enum sh_type t,
	     size_t esize, void *dest, const void *value, const void *cond,
	     void *fetched, int pe)
{
	struct px_ent e = { .op = PX_AMO, .ctx = c, .amo = op, .type = t,
			    .esize = esize, .dest = dest, .value = value,
			    .cond = cond, .fetched = fetched, .pe = pe };
	return submit(&e);
}

int
sh_proxy_fence(struct sh_ctx *c)
{
	struct px_ent e = { .op = PX_FENCE, .ctx = c };
	return submit(&e);
}

/* When the queue is empty and what the proxy ran finished in place,
 * nothing is left to complete: the quiet is the caller's own fence (and
 * the report of an nbi error), not a queued entry the proxy must wake up
 * for and then wake the caller (two wakeups, ~30 us each on a small VM,
 * after a copy the proxy already did while the caller computed). */
int
sh_proxy_quiet(struct sh_ctx *c)
{
	pthread_mutex_lock(&px.lock);
	if (px.head == px.tail && !px.unquiet) {
		int rc = px.err;
		px.err = 0;
		px.quiets_in_place++;
		pthread_mutex_unlock(&px.lock);
		SH_FENCE(__ATOMIC_SEQ_CST);
		return rc;
	}
	pthread_mutex_unlock(&px.lock);
	struct px_ent e = { .op = PX_QUIET, .ctx = c };
	return submit(&e);
}

/* ---- life cycle ------------------------------------------------------- */

/* What the ops floor calls instead of doing the operation (SH_DIVERTED). */
static const struct sh_divert proxy_divert = {
	.put = sh_proxy_put,
	.get = sh_proxy_get,
	.strided = sh_proxy_strided,
	.put_signal = sh_proxy_put_signal,
	.amo = sh_proxy_amo,
	.fence = sh_proxy_fence,
	.quiet = sh_proxy_quiet,
};

int
sh_proxy_init(void)
{
	if (sh.backend != SH_BACKEND_RO)
		return 0;
	const char *sp = u_option_str(U_OPT_SH_PROXY_SPIN);
	bool spin = u_cpu_count() > (unsigned)sh.node_npes;
	if (!strcmp(sp, "on"))
		spin = true;
	else if (!strcmp(sp, "off"))
		spin = false;
	else if (strcmp(sp, "auto"))
		u_warn("shmem", "ZESHMEM_PROXY_SPIN=%s: use auto, on or off; "
				"using auto", sp);
	pthread_mutex_lock(&px.lock);
	px.head = px.tail = px.executed = 0;
	px.stop = px.hold = px.sleeping = px.unquiet = false;
	px.quiets_in_place = 0;
	px.err = 0;
	px.off_cpu = -1;
	if (sched_getaffinity(0, sizeof(px.cpus), &px.cpus))
		CPU_ZERO(&px.cpus);
	px.spin = spin;
	px.idle_spins = px.wait_spins = px.idle_hits = px.wait_hits = 0;
	pthread_mutex_unlock(&px.lock);
	/* The proxy takes no signal: they stay the program's threads'. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(&px.thr, NULL, proxy_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		u_err("shmem", "ZESHMEM_BACKEND=ro: the proxy thread: %s",
		      strerror(rc));
		return -rc;
	}
	px.running = true;
	__atomic_store_n(&sh_divert, &proxy_divert, __ATOMIC_RELEASE);
	u_dbg("shmem", "reverse offload: proxy thread started (%s before "
		       "sleeping: %u online CPUs, %d PEs on this node)",
	      spin ? "spins" : "no spin", u_cpu_count(), sh.node_npes);
	return 0;
}

void
sh_proxy_fini(void)
{
	if (!px.running)
		return;
	pthread_mutex_lock(&px.lock);
	px.stop = true;
	px.hold = false;
	pthread_cond_signal(&px.work);
	pthread_mutex_unlock(&px.lock);
	pthread_join(px.thr, NULL);
	px.running = false;
	__atomic_store_n(&sh_divert, NULL, __ATOMIC_RELEASE);
	if (px.spin)
		u_dbg("shmem", "proxy: %llu idle spins (%llu saw an entry "
			       "come), %llu caller spins (%llu saw theirs done)",
		      (unsigned long long)px.idle_spins,
		      (unsigned long long)px.idle_hits,
		      (unsigned long long)px.wait_spins,
		      (unsigned long long)px.wait_hits);
	/* What the last entries left in flight (engine, network). */
	int err = sh_quiet(NULL);
	if (!err)
		err = px.err;
	if (err)
		u_warn("shmem", "finalize: the proxy's last operations: %s",
		       strerror(-err));
	px.err = 0;
}

void
sh_proxy_hold(int hold)
{
	pthread_mutex_lock(&px.lock);
	px.hold = hold != 0;
	if (!px.hold && px.sleeping)
		pthread_cond_signal(&px.work);
	pthread_mutex_unlock(&px.lock);
}

unsigned
sh_proxy_pending(void)
{
	pthread_mutex_lock(&px.lock);
	unsigned n = (unsigned)(px.tail - px.head);
	pthread_mutex_unlock(&px.lock);
	return n;
}

void
sh_proxy_spins(uint64_t *idle, uint64_t *wait)
{
	pthread_mutex_lock(&px.lock);
	*idle = px.idle_spins;
	*wait = px.wait_spins;
	pthread_mutex_unlock(&px.lock);
}

/* A counter of px, read under its lock. */
static uint64_t
px_count(const uint64_t *c)
{
	pthread_mutex_lock(&px.lock);
	uint64_t n = *c;
	pthread_mutex_unlock(&px.lock);
	return n;
}

uint64_t
sh_proxy_executed(void)
{
	return px_count(&px.executed);
}

uint64_t
sh_proxy_quiets_in_place(void)
{
	return px_count(&px.quiets_in_place);
}
