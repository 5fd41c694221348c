// SPDX-License-Identifier: MIT
/*
 * val_leak: the leak report, at zeContextDestroy (the objects the context
 * still owned) and at process exit (everything still live).
 *
 * Two parts, both written where findings go:
 *   - with ZEL_ENABLE_BASIC_LEAK_CHECKER=1, the balance table of
 *     create/destroy calls, in the shape of Level Zero's basic leak
 *     checker: one row per object kind, creators on the left (several
 *     joined with "|"), destroyers after "\--->", and "---> LEAK = n" when
 *     they do not balance. At exit it covers every row with the calls the
 *     whole process made; at zeContextDestroy, only when the context still
 *     owned something, the memory rows with that context's calls;
 *   - one "leak" finding per live object (allocation, import,
 *     reservation, physical memory object, IPC handle never put): kind,
 *     address, size, and where it was allocated (a backtrace with
 *     ZEMEM_VALIDATION_BACKTRACE=1).
 *
 * Counting: every count is made by the calling thread in its own array
 * (struct val_tcounts, val.h), with a plain load and store, once: a call
 * of the memory rows on a live context counts in one of the thread's
 * VAL_CSLOTS context slots (a slot holds a context and its generation, so
 * a slot of a destroyed context whose handle came back is not mistaken
 * for the new one), any other call in the thread's own counts (t->n). The
 * process's table adds up, for live threads, t->n and every slot, and the
 * counts of exited ones (gone_counts); a slot given up moves its counts
 * into t->n (and, in the same life, into its context's array). A
 * context's table adds up the slots of that context and what slots given
 * up left in the context's own array (hd->counts).
 *
 * Locking: takes the world lock for the object lists; reg_lock for the
 * list of arrays and for changing a slot's context; the tables read
 * atomics.
 */
#include "val.h"
#include "u_list.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define E(name) VAL_EP_##name

struct row {
	bool per_context;    /* every call of the row takes the context */
	uint8_t nctor, ndtor;
	uint16_t ctor[3], dtor[2];
};

static const struct row rows[] = {
	{ false, 2, 1, { E(zeContextCreate), E(zeContextCreateEx) },
	  { E(zeContextDestroy) } },
	{ false, 1, 1, { E(zeCommandQueueCreate) }, { E(zeCommandQueueDestroy) } },
	{ false, 1, 1, { E(zeModuleCreate) }, { E(zeModuleDestroy) } },
	{ false, 1, 1, { E(zeKernelCreate) }, { E(zeKernelDestroy) } },
	{ false, 1, 1, { E(zeEventPoolCreate) }, { E(zeEventPoolDestroy) } },
	{ false, 2, 1,
	  { E(zeCommandListCreateImmediate), E(zeCommandListCreate) },
	  { E(zeCommandListDestroy) } },
	{ false, 3, 2,
	  { E(zeEventCreate), E(zeEventCounterBasedCreate),
	    E(zeEventCounterBasedOpenIpcHandle) },
	  { E(zeEventDestroy), E(zeEventCounterBasedCloseIpcHandle) } },
	{ false, 1, 1, { E(zeFenceCreate) }, { E(zeFenceDestroy) } },
	{ false, 2, 1, { E(zeImageCreate), E(zeImageViewCreateExt) },
	  { E(zeImageDestroy) } },
	{ false, 1, 1, { E(zeSamplerCreate) }, { E(zeSamplerDestroy) } },
	{ true, 3, 2,
	  { E(zeMemAllocDevice), E(zeMemAllocHost), E(zeMemAllocShared) },
	  { E(zeMemFree), E(zeMemFreeExt) } },
	{ true, 1, 1, { E(zeMemOpenIpcHandle) }, { E(zeMemCloseIpcHandle) } },
	{ true, 2, 1,
	  { E(zeMemGetIpcHandle), E(zeMemGetIpcHandleWithProperties) },
	  { E(zeMemPutIpcHandle) } },
	{ true, 1, 1, { E(zeVirtualMemReserve) }, { E(zeVirtualMemFree) } },
	{ true, 1, 1, { E(zeVirtualMemMap) }, { E(zeVirtualMemUnmap) } },
	{ true, 1, 1, { E(zePhysicalMemCreate) }, { E(zePhysicalMemDestroy) } },
};

/* ---- counting ---- */

uint8_t val_count_mode[VAL_EP_COUNT];
/* Counts of threads that exited (or had no array). */
static _Atomic uint64_t gone_counts[VAL_EP_COUNT];

pthread_mutex_t val_reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct val_tcounts *reg_head;     /* reg_lock */
static pthread_key_t reg_key;
static _Atomic bool reg_key_ok;
__thread struct val_tcounts *val_tcounts
	__attribute__((tls_model("initial-exec")));

/* Caller holds reg_lock and is t's thread: the counts of t's slot sl go
 * to t->n (the process's) and to its context's array, if the context is
 * still in the same life. Under reg_lock a report sees them in one place
 * or the other, never both. */
static void
slot_flush(struct val_tcounts *t, struct val_cslot *sl)
{
	struct val_handle *hd = atomic_load_explicit(&sl->hd,
						     memory_order_relaxed);
	bool same = hd && hd->counts &&
		    atomic_load(&sl->gen) == atomic_load(&hd->gen);
	for (unsigned i = 0; i < VAL_EP_COUNT; i++) {
		uint64_t v = atomic_load_explicit(&sl->n[i],
						  memory_order_relaxed);
		if (!v)
			continue;
		if (same)
			atomic_fetch_add(&hd->counts[i], v);
		atomic_store_explicit(&t->n[i],
				      atomic_load_explicit(&t->n[i],
							   memory_order_relaxed) +
					      v,
				      memory_order_relaxed);
	}
	atomic_store_explicit(&sl->hd, NULL, memory_order_relaxed);
	for (unsigned i = 0; i < VAL_EP_COUNT; i++)
		atomic_store_explicit(&sl->n[i], 0, memory_order_relaxed);
}

static void
thread_gone(void *arg)
{
	struct val_tcounts *t = arg;
	pthread_mutex_lock(&val_reg_lock);
	for (unsigned k = 0; k < VAL_CSLOTS; k++)
		slot_flush(t, &t->slot[k]);
	for (unsigned i = 0; i < VAL_EP_COUNT; i++)
		atomic_fetch_add(&gone_counts[i], atomic_load(&t->n[i]));
	U_LIST_UNLINK(&reg_head, t, prev, next);
	pthread_mutex_unlock(&val_reg_lock);
	val_tcounts = NULL;
	val_hot_set_ctx(NULL, 0, NULL);
	free(t);
}

void
val_leak_init(void)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint8_t mode = rows[i].per_context ? VAL_COUNT_CONTEXT
						   : VAL_COUNT_THREAD;
		for (int c = 0; c < rows[i].nctor; c++)
			val_count_mode[rows[i].ctor[c]] = mode;
		for (int d = 0; d < rows[i].ndtor; d++)
			val_count_mode[rows[i].dtor[d]] = mode;
	}
	/* A hook that counts its own calls does so per context; were its row
	 * not per context, its calls would go uncounted. */
	for (unsigned i = 0; i < val_self_counted_n; i++)
		if (val_count_mode[val_self_counted[i]] != VAL_COUNT_CONTEXT)
			abort();
	reg_key_ok = !pthread_key_create(&reg_key, thread_gone);
}

void
val_leak_fini(void)
{
	if (atomic_exchange(&reg_key_ok, false))
		pthread_key_delete(reg_key);
}

/* This thread's array, made on its first count; NULL without memory. */
static struct val_tcounts *
my_counts(void)
{
	struct val_tcounts *t = val_tcounts;
	if (t)
		return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	pthread_mutex_lock(&val_reg_lock);
	U_LIST_PUSH(&reg_head, t, prev, next);
	pthread_mutex_unlock(&val_reg_lock);
	if (reg_key_ok)
		pthread_setspecific(reg_key, t);
	val_tcounts = t;
	return t;
}

void
val_count_thread_slow(unsigned ep)
{
	struct val_tcounts *t = my_counts();
	if (t)
		val_bump(&t->n[ep], 1);
	else
		val_count_gone(ep, 1);
}

void
val_count_call_slow(unsigned ep, struct val_handle *hd, int delta)
{
	struct val_tcounts *t = my_counts();
	if (!t) {
		val_count_gone(ep, delta);
		return;
	}
	if (!hd || !hd->counts || !atomic_load(&hd->live)) {
		val_bump(&t->n[ep], delta);
		return;  /* no context to count for */
	}
	uint64_t gen = atomic_load(&hd->gen);
	unsigned k;
	for (k = 0; k < VAL_CSLOTS; k++) {
		if (atomic_load_explicit(&t->slot[k].hd,
					 memory_order_relaxed) == hd &&
		    atomic_load_explicit(&t->slot[k].gen,
					 memory_order_relaxed) == gen)
			break;
	}
	pthread_mutex_lock(&val_reg_lock);
	if (k == VAL_CSLOTS) {
		/* Give up the least recently used slot. */
		k = VAL_CSLOTS - 1;
		slot_flush(t, &t->slot[k]);
		atomic_store_explicit(&t->slot[k].hd, hd, memory_order_relaxed);
		atomic_store_explicit(&t->slot[k].gen, gen,
				      memory_order_relaxed);
	}
	/* Move slot k to the front, where the inline check looks. */
	for (; k > 0; k--) {
		struct val_cslot *a = &t->slot[k - 1], *b = &t->slot[k];
		struct val_handle *h = atomic_load(&a->hd);
		uint64_t g = atomic_load(&a->gen);
		atomic_store(&a->hd, atomic_load(&b->hd));
		atomic_store(&a->gen, atomic_load(&b->gen));
		atomic_store(&b->hd, h);
		atomic_store(&b->gen, g);
		for (unsigned i = 0; i < VAL_EP_COUNT; i++) {
			uint64_t v = atomic_load(&a->n[i]);
			atomic_store(&a->n[i], atomic_load(&b->n[i]));
			atomic_store(&b->n[i], v);
		}
	}
	pthread_mutex_unlock(&val_reg_lock);
	val_hot_set_ctx(hd, gen, t->slot[0].n);
	val_bump(&t->slot[0].n[ep], delta);
}

void
val_count_gone(unsigned ep, int delta)
{
	atomic_fetch_add(&gone_counts[ep], (uint64_t)(int64_t)delta);
}

/* Every count of the process so far. */
static void
total_counts(uint64_t *total)
{
	pthread_mutex_lock(&val_reg_lock);
	for (unsigned i = 0; i < VAL_EP_COUNT; i++)
		total[i] = atomic_load(&gone_counts[i]);
	for (struct val_tcounts *t = reg_head; t; t = t->next) {
		for (unsigned i = 0; i < VAL_EP_COUNT; i++)
			total[i] += atomic_load_explicit(&t->n[i],
							 memory_order_relaxed);
		for (unsigned k = 0; k < VAL_CSLOTS; k++)
			for (unsigned i = 0; i < VAL_EP_COUNT; i++)
				total[i] += atomic_load_explicit(
					&t->slot[k].n[i], memory_order_relaxed);
	}
	pthread_mutex_unlock(&val_reg_lock);
}

/* The counts of context hd in its present life. */
static void
context_counts(struct val_handle *hd, uint64_t *total)
{
	pthread_mutex_lock(&val_reg_lock);
	uint64_t gen = atomic_load(&hd->gen);
	for (unsigned i = 0; i < VAL_EP_COUNT; i++)
		total[i] = atomic_load(&hd->counts[i]);
	for (struct val_tcounts *t = reg_head; t; t = t->next) {
		for (unsigned k = 0; k < VAL_CSLOTS; k++) {
			struct val_cslot *sl = &t->slot[k];
			if (atomic_load(&sl->hd) != hd ||
			    atomic_load(&sl->gen) != gen)
				continue;
			for (unsigned i = 0; i < VAL_EP_COUNT; i++)
				total[i] += atomic_load_explicit(
					&sl->n[i], memory_order_relaxed);
		}
	}
	pthread_mutex_unlock(&val_reg_lock);
}

/* ---- the report ---- */

void
val_leak_table(const uint64_t *counts, bool per_context, const char *when)
{
	char buf[16384];
	size_t n = 0, cap = sizeof(buf);
#define OUT(...)                                                            \
	do {                                                                \
		if (n < cap) {                                              \
			int k_ = snprintf(buf + n, cap - n, __VA_ARGS__);   \
			n += k_ > 0 ? (size_t)k_ : 0;                       \
		}                                                           \
	} while (0)
	OUT("Check balance of create/destroy calls (zemem validation layer, "
	    "%s)\n", when);
	OUT("----------------------------------------------------------\n");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *row = &rows[i];
		long long diff = 0;
		if (per_context && !row->per_context)
			continue;
		for (int c = 0; c < row->nctor; c++) {
			uint64_t v = counts[row->ctor[c]];
			diff += (long long)v;
			OUT("%s%30s = %-5llu", c ? " |\n" : "",
			    val_ep_name(row->ctor[c]), (unsigned long long)v);
		}
		OUT(" \\--->");
		for (int d = 0; d < row->ndtor; d++) {
			uint64_t v = counts[row->dtor[d]];
			diff -= (long long)v;
			if (d)
				OUT("\n%44s", "\\--->");
			OUT("%30s = %-5llu", val_ep_name(row->dtor[d]),
			    (unsigned long long)v);
		}
		if (diff)
			OUT(" ---> LEAK = %lld", diff);
		OUT("\n");
	}
#undef OUT
	val_write_text(buf, n < cap ? n : cap - 1);
}

struct collect {
	ze_context_handle_t ctx;    /* NULL: every context */
	struct val_rec **v;
	size_t n, cap;
};

static int
collect_live(struct val_node *node, void *arg)
{
	struct collect *c = arg;
	struct val_rec *r = (struct val_rec *)((char *)node -
					       offsetof(struct val_rec, node));
	if (r->state != VAL_LIVE || (c->ctx && r->ctx != c->ctx))
		return 0;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;
		struct val_rec **v = realloc(c->v, cap * sizeof(*v));
		if (!v)
			return 1;
		c->v = v;
		c->cap = cap;
	}
	c->v[c->n++] = r;
	return 0;
}

struct pmem_walk {
	const struct val_call *call;
	ze_context_handle_t ctx;
	ze_result_t res;
	struct val_site *site;
	size_t n;
};

static void
pmem_leak(struct val_handle *hd, void *arg)
{
	struct pmem_walk *w = arg;
	char c[1024];
	if (atomic_load(&hd->kind) != VAL_H_PMEM || !atomic_load(&hd->live) ||
	    (w->ctx && hd->ctx != w->ctx))
		return;
	val_site_format(&hd->create, c, sizeof(c));
	if (w->call)
		val_note(VAL_CAT_LEAK, w->call, w->res,
			 "context destroyed with a live physical memory "
			 "object %p (%zu bytes, #%llu) created %s", hd->h,
			 hd->size, (unsigned long long)hd->id, c);
	else
		val_report(VAL_CAT_LEAK, NULL, ZE_RESULT_SUCCESS,
			   "live physical memory object %p (%zu bytes, #%llu, "
			   "context %p) created %s", hd->h, hd->size,
			   (unsigned long long)hd->id, (void *)hd->ctx, c);
	if (w->call) /* the driver destroyed it with the context */
		val_handle_kill(hd, w->site);
	w->n++;
}

/* At exit another thread may be stuck holding a lock (the process is
 * exiting under it): wait a little, then give up. */
static bool
world_trylock(void)
{
	unsigned n = 0, tries = 0; /* 0: val_lock, 1 + i: shard i */
	while (n < 1 + VAL_SHARDS) {
		if (n ? val_spin_trylock(&val_shards[n - 1].lock)
		      : u_trylock(&val_lock)) {
			n++;
			continue;
		}
		if (++tries > 200) {
			for (unsigned i = n; i-- > 1;)
				val_spin_unlock(&val_shards[i - 1].lock);
			if (n > 0)
				u_unlock(&val_lock);
			return false;
		}
		usleep(1000);
	}
	return true;
}

void
val_leak_report(const struct val_call *call, ze_context_handle_t ctx,
		ze_result_t res)
{
	struct collect c = { .ctx = ctx };
	struct val_site site;
	char d[3072];
	val_site_record(&site, call);
	if (call) {
		val_world_lock();
	} else if (!world_trylock()) {
		static const char msg[] = "zemem-validation: exit leak report "
					  "skipped: the layer is busy in "
					  "another thread\n";
		val_write_text(msg, sizeof(msg) - 1);
		val_site_clear(&site);
		return;
	}
	val_own_steal_all();  /* the walk reads every record's state */
	val_index_walk(&val_mem_index, collect_live, &c);
	val_index_walk(&val_import_index, collect_live, &c);
	struct val_handle *hd = ctx ? val_handle_find(ctx) : NULL;
	struct pmem_walk w = { call, ctx, res, &site, 0 };
	bool table = val_cfg.leak &&
		     (!call || (c.n && hd && hd->counts));
	static uint64_t total[VAL_EP_COUNT];   /* world lock */
	if (table && call) {
		char when[128];
		snprintf(when, sizeof(when), "at zeContextDestroy(hContext=%p)",
			 (void *)ctx);
		context_counts(hd, total);
		val_leak_table(total, true, when);
	} else if (table) {
		total_counts(total);
		val_leak_table(total, false, "at exit");
	}
	for (size_t i = 0; i < c.n; i++) {
		val_rec_describe(c.v[i], d, sizeof(d));
		if (call)
			val_note(VAL_CAT_LEAK, call, res,
				 "context destroyed with a live %s", d);
		else
			val_report(VAL_CAT_LEAK, NULL, ZE_RESULT_SUCCESS,
				   "live %s", d);
	}
	val_handle_walk(pmem_leak, &w);
	if (!call) {
		val_ipc_leaks();
	} else {
		/* The driver freed them: retire the records (and mappings
		 * inside the context's reservations). */
		for (size_t i = 0; i < c.n; i++)
			val_rec_retire(c.v[i], &site);
		c.n = 0;
		val_index_walk(&val_map_index, collect_live, &c);
		for (size_t i = 0; i < c.n; i++)
			val_rec_retire(c.v[i], &site);
	}
	val_world_unlock();
	val_site_clear(&site);
	free(c.v);
}
