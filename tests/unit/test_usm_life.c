// SPDX-License-Identifier: MIT
/*
 * test_usm_life: usm tests of whole lifetimes: contexts freed at once,
 * exported blocks that must outlive their free, memory given back, fd
 * counts with a million live blocks, and threads racing alloc, lookup and
 * free. Same fixture as test_usm.c (tusm.h).
 */
#include "tusm.h"
#include "usm_fast.h"

#include <sys/stat.h>

/* ---- contexts, exports, stats -------------------------------------------- */

struct cb_acc {
	size_t n;
	uint64_t bytes;
	bool wrong;
};

static void
count_cb(const struct usm_info *i, void *arg)
{
	struct cb_acc *a = arg;
	a->n++;
	a->bytes += i->size;
	a->wrong |= i->ctx != CTX_A || !i->id || !i->base;
}

START_TEST(test_usm_free_ctx_frees_only_that_ctx)
{
	enum { NA = 3000, NB = 50 };
	static char *pa[NA], *pb[NB];
	uint64_t bytes = 0;
	struct cb_acc acc = { 0 };
	struct usm_info x;
	for (int i = 0; i < NA; i++) {
		size_t n = i % 500 ? 1 + (size_t)i * 13 % 7000 : (2 << 20) + 5;
		pa[i] = xalloc(kinds[i % 3], n, i % 7 ? 0 : 4096, 0, CTX_A);
		bytes += n;
	}
	for (int i = 0; i < NB; i++)
		pb[i] = xalloc(kinds[i % 3], 100 + (size_t)i * 1000, 0, 0,
			       CTX_B);
	REQUIRE_EQ(usm_free_ctx(H, CTX_A, count_cb, &acc), NA);
	REQUIRE_EQ(acc.n, NA);
	REQUIRE_EQ(acc.bytes, bytes);
	REQUIRE(!acc.wrong, "callback saw a wrong allocation");
	for (int i = 0; i < NA; i++)
		REQUIRE_EQ(usm_query(H, pa[i], &x), -ENOENT);
	for (int i = 0; i < NB; i++)
		REQUIRE_EQ(xquery(pb[i]).ctx, CTX_B);
	REQUIRE_EQ(usm_free_ctx(H, CTX_A, count_cb, &acc), 0);
	struct usm_stats st;
	usm_stats(H, &st);
	REQUIRE_EQ(st.live_count, NB);
	void *again = xalloc(USM_KIND_HOST, 64, 0, 0, CTX_A);
	REQUIRE_EQ(xquery(again).ctx, CTX_A);
	xfree(again, CTX_A);
	REQUIRE_EQ(usm_free_ctx(H, CTX_B, NULL, NULL), NB);
}
END_TEST

START_TEST(test_usm_exported_memory_comes_back)
{
	struct usm_stats st;
	/* large: not cached, its fd closed at free */
	char *l = xalloc(USM_KIND_DEVICE, 1 << 20, 0, 0, CTX_A);
	int fd = xquery(l).fd;
	REQUIRE_EQ(usm_mark_exported(H, l), 0);
	REQUIRE(xquery(l).exported, "not marked");
	xfree(l, CTX_A);
	usm_stats(H, &st);
	REQUIRE_EQ(st.large_cached, 0);
	REQUIRE_EQ(fcntl(fd, F_GETFD), -1);
	/* unexported large: cached and handed out again ... */
	char *m = xalloc(USM_KIND_DEVICE, 1 << 20, 0, 0, CTX_A);
	xfree(m, CTX_A);
	usm_stats(H, &st);
	REQUIRE_EQ(st.large_cached, 1);
	char *m2 = xalloc(USM_KIND_HOST, 1 << 20, 0, 0, CTX_A);
	REQUIRE_EQ(m2, m);
	REQUIRE_EQ(xquery(m2).kind, USM_KIND_HOST);
	xfree(m2, CTX_A);
	/* ... but never for exportable memory */
	char *m3 = xalloc(USM_KIND_HOST, 1 << 20, 0, USM_FLAG_EXPORTABLE,
			  CTX_A);
	REQUIRE_OP(m3, !=, m);
	xfree(m3, CTX_A);
	/* pooled: a host or device block lives in a file of its own; once
	 * exported and freed, its slot gives that file up (the exporter's
	 * fd keeps the bytes) and serves later blocks from a fresh file:
	 * the heap gets the memory back, the exported file never changes */
	enum { N = 5000 };
	static void *q[N];
	for (int kind = USM_KIND_HOST; kind <= USM_KIND_DEVICE; kind++) {
		char *p = xalloc(kind, 2 * page, 0, 0, CTX_A);
		fill(p, 2 * page, 7);
		struct usm_info i = xquery(p);
		REQUIRE(i.own_file && i.fd_offset == 0, "%s block: own %d, "
			"offset %llu", usm_kind_name(kind), i.own_file,
			(unsigned long long)i.fd_offset);
		struct stat sb;
		REQUIRE_EQ(fstat(i.fd, &sb), 0);
		REQUIRE_EQ((size_t)sb.st_size, 2 * page); /* nothing else */
		int held = fcntl(i.fd, F_DUPFD_CLOEXEC, 3); /* as IPC does */
		REQUIRE_EQ(usm_mark_exported(H, p), 0);
		xfree(p, CTX_A);
		bool reused = false;
		for (int j = 0; j < N; j++) {
			q[j] = xalloc(kind, 2 * page, 0, 0, CTX_A);
			if (q[j] == p) {
				reused = true;
				REQUIRE(xquery(p).fd != i.fd ||
					fcntl(i.fd, F_GETFD) >= 0,
					"slot kept the exported file");
			}
			memset(q[j], 0, 2 * page);
		}
		REQUIRE(reused, "the exported slot never came back");
		for (int j = 0; j < N; j++)
			xfree(q[j], CTX_A);
		usm_trim(H);
		usm_stats(H, &st);
		REQUIRE_EQ(st.mapped_bytes, 0);
		REQUIRE_EQ(st.fds, 3); /* the pool files: every slot file went */
		char *v = mmap(NULL, 2 * page, PROT_READ, MAP_SHARED, held, 0);
		REQUIRE(v != MAP_FAILED, "mmap: %d", errno);
		REQUIRE(check_fill(v, 2 * page, 7),
			"exported bytes were changed");
		munmap(v, 2 * page);
		close(held);
	}
}
END_TEST

/* An importer of an exported pooled block, as the IPC layer makes one: a
 * file of its own on the pool memfd (another process's fd) and a shared
 * mapping of the block's pages at its offset. */
struct importer {
	int fd;
	unsigned char *v;
	size_t n;
	unsigned char byte;
};

static void
import_block(struct importer *im, void *p, size_t n, unsigned char byte)
{
	memset(p, byte, n);
	REQUIRE_EQ(usm_mark_exported(H, p), 0);
	struct usm_info i = xquery(p);
	REQUIRE(i.exported && i.fd >= 0 && i.page_exclusive,
		"%p: exported %d, fd %d", p, i.exported, i.fd);
	im->fd = fcntl(i.fd, F_DUPFD_CLOEXEC, 3);
	REQUIRE(im->fd >= 0, "dup: %d", errno);
	im->v = mmap(NULL, n, PROT_READ, MAP_SHARED, im->fd,
		     (off_t)i.fd_offset);
	REQUIRE(im->v != MAP_FAILED, "mmap: %d", errno);
	im->n = n;
	im->byte = byte;
}

static void
import_check(const struct importer *im, const char *when)
{
	for (size_t k = 0; k < im->n; k++)
		REQUIRE(im->v[k] == im->byte,
			"%s: importer reads %#x at +%zu, not %#x (pages "
			"punched or reused)", when, im->v[k], k, im->byte);
}

static void
import_close(struct importer *im)
{
	munmap(im->v, im->n);
	close(im->fd);
}

/* Fills the pool files with zeros through new DEVICE blocks of every
 * page class: a reused slot or file range shows in the importers. */
static void
churn_device(void)
{
	enum { N = 3000 / SCALE };
	static void *q[N];
	for (int j = 0; j < N; j++) {
		size_t n = (1 + (size_t)j % 16) * page;
		memset(q[j] = xalloc(USM_KIND_DEVICE, n, 0, 0, CTX_A), 0, n);
	}
	for (int j = 0; j < N; j++)
		xfree(q[j], CTX_A);
	usm_trim(H);
}

START_TEST(test_usm_exported_pages_survive_trim)
{
	enum { NB = 1200, NX = 12 };
	static void *b[NB];
	struct importer im[1 + 2 * NX + 2];
	void *xp[N_OF(im)];
	size_t sz[] = { page, 2 * page, 16 * page };
	int n = 0;

	/* The report: a lone exported 4 KiB block, freed, then the last
	 * context dies (usm_trim). */
	void *p = xalloc(USM_KIND_DEVICE, page, 0, 0, CTX_A);
	import_block(&im[n++], p, page, 0x77);
	xfree(p, CTX_A);
	import_check(&im[0], "freed");
	usm_trim(H);
	import_check(&im[0], "freed, trimmed");

	/* Several exported slots in each segment (every class size above),
	 * the exported ones freed last (the last live slots of their
	 * segments), then trim; then by usm_free_ctx. */
	for (int round = 0; round < 2; round++) {
		void *ctx = round ? CTX_B : CTX_A;
		int first = n;
		for (int c = 0; c < (int)N_OF(sz); c++) {
			size_t nb = c ? NB / 8 : NB;
			for (size_t j = 0; j < nb; j++)
				b[j] = xalloc(USM_KIND_DEVICE, sz[c], 0, 0,
					      ctx);
			for (int x = 0; x < NX / 3; x++) {
				size_t j = (x * 7919u + 13u * c) % nb;
				xp[n] = b[j];
				b[j] = NULL;
				import_block(&im[n], xp[n], sz[c],
					     (unsigned char)(0x30 + n));
				n++;
			}
			for (size_t j = 0; j < nb; j++)
				if (b[j] && !round)
					xfree(b[j], ctx);
		}
		for (int x = first; x < n; x++)
			import_check(&im[x], "others freed");
		if (!round)
			for (int x = first; x < n; x++)
				xfree(xp[x], ctx);
		REQUIRE_EQ(usm_free_ctx(H, ctx, NULL, NULL),
			   round ? NB + 2 * (NB / 8) : 0);
		usm_trim(H);
		for (int x = 0; x < n; x++)
			import_check(&im[x], round ? "free_ctx, trimmed"
						   : "freed last, trimmed");
	}
	churn_device();
	for (int x = 0; x < n; x++)
		import_check(&im[x], "after reuse of the pool file");

	/* Heap destroy: one exported block freed, one still live. */
	p = xalloc(USM_KIND_DEVICE, page, 0, 0, CTX_A);
	void *live = xalloc(USM_KIND_DEVICE, page, 0, 0, CTX_A);
	import_block(&im[n++], p, page, 0xa5);
	import_block(&im[n++], live, page, 0x5a);
	xfree(p, CTX_A);
	usm_heap_destroy(H);
	REQUIRE_EQ(usm_heap_create(&H), 0);
	for (int x = 0; x < n; x++) {
		import_check(&im[x], "heap destroyed");
		import_close(&im[x]);
	}
}
END_TEST

START_TEST(test_usm_free_list_tail_never_dead)
{
	/* A slot refilled into the thread cache from the end of its
	 * segment's free list, then flushed back unused, is free, not dead
	 * (as if exported): nothing here was exported. */
	void *p[16], *q;
	for (int i = 0; i < 16; i++)
		p[i] = xalloc(USM_KIND_DEVICE, page, 0, 0, CTX_A);
	for (int i = 0; i < 3; i++)
		xfree(p[i], CTX_A);
	usm_trim(H);       /* free list of 3 */
	q = xalloc(USM_KIND_DEVICE, page, 0, 0, CTX_A); /* cache takes all 3 */
	usm_trim(H);       /* and gives them back unused */
	struct usm_seg *s =
		(struct usm_seg *)usm_index_find(&H->index, q);
	REQUIRE(s && s->span.type == SPAN_SEG, "%p: no segment", q);
	REQUIRE_EQ(s->ndead, 0);
	xfree(q, CTX_A);
	for (int i = 3; i < 16; i++)
		xfree(p[i], CTX_A);
}
END_TEST

START_TEST(test_usm_stats_memory_given_back)
{
	enum { N = 20000 / SCALE, M = 200000 / SCALE };
	static void *p[M];
	struct usm_stats st1, st2;
	/* One class, many segments: freeing all leaves at most the segment
	 * the thread cache allocates from plus one cached empty one. */
	for (int i = 0; i < M; i++) {
		p[i] = xalloc(USM_KIND_SHARED, 1000, 0, 0, CTX_A);
		memset(p[i], 1, 1000);
	}
	usm_stats(H, &st1);
	for (int i = 0; i < M; i++)
		xfree(p[i], CTX_A);
	usm_stats(H, &st2);
	REQUIRE(st1.segments > 3 && st2.segments <= 2 &&
			st2.mapped_bytes <= 2 * USM_SEG_MAX && !st2.live_count,
		"%u segments, %u after free (%llu bytes)", st1.segments,
		st2.segments, (unsigned long long)st2.mapped_bytes);
	/* Every kind, many classes, large ones: all of it after usm_trim. */
	for (int i = 0; i < N; i++) {
		size_t n = i % 1000 ? 1 + (size_t)(i * 31) % 8192
				    : (size_t)(3 + i % 5) << 20;
		memset(p[i] = xalloc(kinds[i % 3], n, 0, 0, CTX_A), 1, n);
	}
	usm_stats(H, &st1);
	REQUIRE(st1.live_count == N && st1.mapped_bytes > st1.live_bytes,
		"%llu live", (unsigned long long)st1.live_count);
	for (int i = 0; i < N; i++)
		xfree(p[i], CTX_A);
	usm_stats(H, &st2);
	REQUIRE(!st2.live_count && !st2.live_bytes &&
			st2.mapped_bytes <= st1.mapped_bytes,
		"%llu live after free", (unsigned long long)st2.live_count);
	usm_trim(H);
	usm_stats(H, &st2);
	REQUIRE(!st2.mapped_bytes && !st2.segments && !st2.large_cached,
		"%llu bytes mapped after trim",
		(unsigned long long)st2.mapped_bytes);
	/* what stays: the pool files, one per kind */
	REQUIRE(st2.fds <= USM_NKIND && st2.fds == st2.bk[BK_MEMFD].fds,
		"%u fds", st2.fds);
}
END_TEST

START_TEST(test_usm_stats_fds_bounded_1m)
{
	size_t n = 1000000 / SCALE;
	void **p = malloc(n * sizeof(*p)), *other[64];
	REQUIRE(p != NULL, "malloc");
	int fd0 = leakcheck_count_fds();
	for (size_t i = 0; i < n; i++) {
		p[i] = xalloc(USM_KIND_HOST, 64, 0, 0, CTX_A);
		*(uint64_t *)p[i] = i;
	}
	for (int i = 0; i < 64; i++) /* and other kinds and sizes */
		other[i] = xalloc(kinds[i % 3], 1 + (size_t)i * 1000, 0, 0,
				  CTX_A);
	struct usm_stats st;
	usm_stats(H, &st);
	int fds = leakcheck_count_fds() - fd0;
	printf("%zu live 64 B allocations: %d fds, %u segments, %llu MiB "
	       "mapped, %llu MiB metadata\n", n, fds, st.segments,
	       (unsigned long long)st.mapped_bytes >> 20,
	       (unsigned long long)st.meta_bytes >> 20);
	/* The first host blocks have files of their own (at most
	 * slot_files_max, then host blocks go dense); the rest: none. */
	REQUIRE_OP(fds, <=, 8 + (int)H->slot_files_max);
	REQUIRE(H->host_dense, "host blocks never went dense");
	/* The heap opened its 3 pool files (one per kind) when created. */
	REQUIRE_EQ(st.fds, (unsigned)fds + 3);
	REQUIRE_EQ(st.live_count, n + 64);
	uint64_t seed = 42;
	for (int i = 0; i < 10000; i++) {
		size_t j = rng(&seed) % n;
		REQUIRE_EQ(xquery((char *)p[j] + 63).base, p[j]);
		REQUIRE_EQ(*(uint64_t *)p[j], j);
	}
	for (size_t i = 0; i < n; i++)
		xfree(p[i], CTX_A);
	for (int i = 0; i < 64; i++)
		xfree(other[i], CTX_A);
	usm_trim(H);
	usm_stats(H, &st);
	REQUIRE_EQ(st.mapped_bytes, 0);
	free(p);
}
END_TEST

START_TEST(test_usm_heap_destroy_releases_everything)
{
	/* the fixture destroys H with all of this still live */
	for (int i = 0; i < 3000; i++)
		(void)xalloc(kinds[i % 3], 1 + (size_t)i * 11 % 70000,
			     i % 5 ? 0 : (size_t)1 << (i % 23), 0, CTX_A);
	(void)xalloc(USM_KIND_HOST, 10 << 20, 0, 0, CTX_B);
}
END_TEST

/* ---- threads ------------------------------------------------------------- */

#define NTHREADS 8
#define LIVE_MAX 512

struct worker {
	pthread_t th;
	unsigned idx;
	void *stack;
	uint64_t ops, checks;
	const char *fail;
	unsigned nlive;
	struct {
		char *p;
		size_t n;
		uint64_t id, seed;
	} live[LIVE_MAX];
};

static struct worker workers[NTHREADS];
static _Atomic int stop_flag;
static void *_Atomic shared_ptrs[64];

#define WFAIL(w, msg)                                                       \
	do {                                                                \
		(w)->fail = (msg);                                          \
		return NULL;                                                \
	} while (0)
#define CHECKED(n) ((n) < 4096 ? (n) : 4096) /* bytes filled and checked */

/* Allocates, checks its own allocations (lookup from any interior
 * pointer, contents), looks up other threads' pointers (which may be gone
 * but must never be answered wrong), frees; threads use two contexts. */
static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	uint64_t seed = 0x9e3779b97f4a7c15ull * (w->idx + 1);
	void *ctx = (char *)CTX_A + w->idx % 2, *p;
	struct usm_info in;
	for (; !atomic_load(&stop_flag); w->ops++) {
		uint64_t r = rng(&seed);
		unsigned op = r % 8, s;
		if ((op < 4 && w->nlive < LIVE_MAX) || !w->nlive) {
			size_t n = 1 + (r >> 24) % 2048;
			if ((r >> 16) % 100 == 0) /* now and then a large one */
				n = 65536 + (r >> 24) % (1 << 20);
			struct usm_req q = { .kind = kinds[(r >> 8) % 3],
					     .size = n, .ctx = ctx,
					     .align = (r >> 40) % 5 ? 0 : 256 };
			if (usm_alloc(H, &q, &p) || usm_query(H, p, &in) ||
			    in.base != p || in.size != n || in.ctx != ctx)
				WFAIL(w, "fresh allocation not found");
			s = w->nlive++;
			w->live[s].p = p;
			w->live[s].n = n;
			w->live[s].id = in.id;
			fill(p, CHECKED(n), w->live[s].seed = r);
			atomic_store(&shared_ptrs[(r >> 50) % 64],
				     (char *)p + n / 2);
			continue;
		}
		s = (unsigned)((r >> 8) % w->nlive);
		char *b = w->live[s].p, *o;
		size_t n = w->live[s].n;
		if (!check_fill(b, CHECKED(n), w->live[s].seed))
			WFAIL(w, "content overwritten");
		if (op < 7) {
			if (usm_query(H, b + (r >> 20) % n, &in) ||
			    in.base != b || in.size != n ||
			    in.id != w->live[s].id || in.ctx != ctx)
				WFAIL(w, "lookup of a live allocation");
			o = atomic_load(&shared_ptrs[(r >> 40) % 64]);
			if (o && !usm_query(H, o, &in) &&
			    (uintptr_t)(o - (char *)in.base) >= in.size)
				WFAIL(w, "foreign lookup out of range");
			w->checks++;
		} else {
			if (usm_free(H, b, (char *)ctx + 2, NULL) != -EPERM ||
			    usm_free(H, b, ctx, NULL))
				WFAIL(w, "free");
			w->live[s] = w->live[--w->nlive];
		}
	}
	return NULL;
}

START_TEST(test_usm_alloc_threads_concurrent)
{
	const size_t stack_len = 1 << 20;
	const double seconds = SCALE > 1 ? 1.0 : 2.0;
	uint64_t ops = 0, checks = 0;
	size_t left = 0;
	atomic_store(&stop_flag, 0);
	for (unsigned i = 0; i < NTHREADS; i++) {
		struct worker *w = &workers[i];
		memset(w, 0, sizeof(*w));
		w->idx = i;
		/* our own stacks: glibc's stack cache would look like a leak */
		w->stack = mmap(NULL, stack_len, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
		REQUIRE(w->stack != MAP_FAILED, "stack");
		pthread_attr_t a;
		pthread_attr_init(&a);
		pthread_attr_setstack(&a, w->stack, stack_len);
		REQUIRE_EQ(pthread_create(&w->th, &a, worker_main, w), 0);
		pthread_attr_destroy(&a);
	}
	struct timespec ts = { (time_t)seconds,
			       (long)((seconds - (time_t)seconds) * 1e9) };
	nanosleep(&ts, NULL);
	atomic_store(&stop_flag, 1);
	for (unsigned i = 0; i < NTHREADS; i++) {
		pthread_join(workers[i].th, NULL);
		REQUIRE(!workers[i].fail, "thread %u: %s", i, workers[i].fail);
		ops += workers[i].ops;
		checks += workers[i].checks;
	}
	/* the threads left live allocations behind: free them from here */
	for (unsigned i = 0; i < NTHREADS; i++) {
		struct worker *w = &workers[i];
		for (unsigned s = 0; s < w->nlive; s++) {
			REQUIRE_EQ(xquery(w->live[s].p).id, w->live[s].id);
			xfree(w->live[s].p, (char *)CTX_A + i % 2);
		}
		left += w->nlive;
		munmap(w->stack, stack_len);
	}
	struct usm_stats st;
	usm_stats(H, &st);
	REQUIRE_EQ(st.live_count, 0);
	REQUIRE_EQ(st.live_bytes, 0);
	usm_trim(H);
	usm_stats(H, &st);
	REQUIRE_EQ(st.mapped_bytes, 0); /* exited threads' caches came back */
	printf("%d threads, %.1f s: %llu operations, %llu lookups checked, "
	       "%zu left live\n", NTHREADS, seconds, (unsigned long long)ops,
	       (unsigned long long)checks, left);
}
END_TEST

/* Ids come in per-thread blocks: threads allocating at once (some blocks
 * pooled, some large) must still never see the same id twice. */
enum { ID_THREADS = 8, ID_PER = 3000 };
static uint64_t id_seen[ID_THREADS * ID_PER];

static void *
id_worker(void *arg)
{
	uintptr_t t = (uintptr_t)arg;
	for (int i = 0; i < ID_PER; i++) {
		size_t n = i % 97 ? 1 + (size_t)(i * 53) % 5000 : 100000;
		void *p = xalloc(kinds[(t + (unsigned)i) % 3], n, 0, 0, CTX_A);
		id_seen[t * ID_PER + (unsigned)i] = xquery(p).id;
		if (i % 2) /* odd ones freed (their slots reused), even kept */
			xfree(p, CTX_A);
	}
	return NULL;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

START_TEST(test_usm_ids_unique_across_threads)
{
	const size_t stack_len = 1 << 20;
	pthread_t th[ID_THREADS];
	void *stack[ID_THREADS];
	for (uintptr_t t = 0; t < ID_THREADS; t++) {
		/* our own stacks: glibc's stack cache would look like a leak */
		stack[t] = mmap(NULL, stack_len, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
		REQUIRE(stack[t] != MAP_FAILED, "stack");
		pthread_attr_t a;
		pthread_attr_init(&a);
		pthread_attr_setstack(&a, stack[t], stack_len);
		REQUIRE_EQ(pthread_create(&th[t], &a, id_worker, (void *)t),
			   0);
		pthread_attr_destroy(&a);
	}
	for (int t = 0; t < ID_THREADS; t++) {
		pthread_join(th[t], NULL);
		munmap(stack[t], stack_len);
	}
	qsort(id_seen, N_OF(id_seen), sizeof(id_seen[0]), cmp_u64);
	REQUIRE(id_seen[0] != 0, "id 0 handed out");
	for (size_t i = 1; i < N_OF(id_seen); i++)
		REQUIRE(id_seen[i] != id_seen[i - 1], "id %llu twice",
			(unsigned long long)id_seen[i]);
	usm_free_ctx(H, CTX_A, NULL, NULL);
}
END_TEST

/* The host fast path's bin (usm_fast_bin: fast_host_bin, one table load
 * for sizes up to 1 KiB with align 16 or less) is the arena the full path
 * picks (usm_arena_for), while host blocks are page-isolated, after they
 * went dense, and after they came back; so is usm_fast_arena's for the
 * other requests and kinds. */
static ptrdiff_t
fast_host_arena(size_t size)
{
	return (ptrdiff_t)(atomic_load(&H->fast_host_bin[(size + 15) >> 4]) /
			   sizeof(struct tc_bin));
}

static void
fast_arena_matches(bool dense)
{
	for (int k = 0; k < 3; k++)
		for (size_t size = 1; size <= 2048; size++)
			for (size_t align = 0; align <= 32; align += 16) {
				enum usm_kind kind = kinds[k];
				bool isolate = kind == USM_KIND_DEVICE ||
					       (kind == USM_KIND_HOST && !dense);
				ptrdiff_t want = usm_arena_for(kind, isolate,
							       size, align);
				bool table = kind == USM_KIND_HOST &&
					     size <= USM_FAST_MAX && align <= 16;
				ptrdiff_t got = table
					? fast_host_arena(size)
					: usm_fast_arena(H, kind, size, align);
				/* -1: a miss, the full path decides */
				REQUIRE(got == -1 || got == want,
					"kind %d size %zu align %zu dense %d: "
					"arena %td, full path %td", (int)kind,
					size, align, (int)dense, got, want);
			}
}

START_TEST(test_usm_fast_arena_follows_host_dense)
{
	REQUIRE(!atomic_load(&H->host_dense),
		"a new heap's host blocks are not page-isolated");
	fast_arena_matches(false);
	REQUIRE_EQ(fast_host_arena(64), USM_NCLS_SMALL);
	usm_host_dense_set(H, true);
	fast_arena_matches(true);
	/* a 64 B host block is no longer page-isolated */
	REQUIRE_EQ(fast_host_arena(64),
		   usm_fast_arena(H, USM_KIND_SHARED, 64, 0) - 2 * USM_NCLS);
	usm_host_dense_set(H, false);
	fast_arena_matches(false);
	REQUIRE_EQ(fast_host_arena(64), USM_NCLS_SMALL);
}
END_TEST

void
tusm_add_life_tests(TCase *tc)
{
	tcase_add_test(tc, test_usm_fast_arena_follows_host_dense);
	tcase_add_test(tc, test_usm_ids_unique_across_threads);
	tcase_add_test(tc, test_usm_free_ctx_frees_only_that_ctx);
	tcase_add_test(tc, test_usm_exported_memory_comes_back);
	tcase_add_test(tc, test_usm_exported_pages_survive_trim);
	tcase_add_test(tc, test_usm_free_list_tail_never_dead);
	tcase_add_test(tc, test_usm_stats_memory_given_back);
	tcase_add_test(tc, test_usm_stats_fds_bounded_1m);
	tcase_add_test(tc, test_usm_heap_destroy_releases_everything);
	tcase_add_test(tc, test_usm_alloc_threads_concurrent);
}
