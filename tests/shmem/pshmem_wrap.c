// SPDX-License-Identifier: MIT
/*
 * pshmem_wrap: a profiling library as PMPI-style tools write them: it
 * defines shmem_<name> for one routine of each family, counts the call
 * and does the work through pshmem_<name> (libzeshmem's profiling names,
 * <pshmem.h>). Linked before libzeshmem, its names win; pshmem_pe asks
 * the counts through pshmem_wrap_count.
 */
#include <pshmem.h>

#include <string.h>

#define FAMILIES(X) \
	X(init) X(malloc) X(free) X(putmem) X(getmem) X(long_p) \
	X(long_atomic_fetch_add) X(putmem_signal) X(signal_fetch) \
	X(long_wait_until) X(long_test) X(quiet) X(fence) X(barrier_all) \
	X(long_sum_reduce) X(broadcastmem) X(team_split_strided) \
	X(team_destroy) X(ctx_create) X(ctx_destroy) X(set_lock) \
	X(clear_lock) X(finalize)

#define ENUM(n) W_##n,
enum { FAMILIES(ENUM) W_COUNT };
#define NAME(n) #n,
static const char *const names[] = { FAMILIES(NAME) };
static long counts[W_COUNT];

long pshmem_wrap_count(const char *name);

long
pshmem_wrap_count(const char *name)
{
	for (int i = 0; i < W_COUNT; i++)
		if (!strcmp(names[i], name))
			return counts[i];
	return -1;
}

void
shmem_init(void)
{
	counts[W_init]++;
	pshmem_init();
}

void *
shmem_malloc(size_t size)
{
	counts[W_malloc]++;
	return pshmem_malloc(size);
}

void
shmem_free(void *p)
{
	counts[W_free]++;
	pshmem_free(p);
}

void
shmem_putmem(void *d, const void *s, size_t n, int pe)
{
	counts[W_putmem]++;
	pshmem_putmem(d, s, n, pe);
}

void
shmem_getmem(void *d, const void *s, size_t n, int pe)
{
	counts[W_getmem]++;
	pshmem_getmem(d, s, n, pe);
}

void
shmem_long_p(long *d, long v, int pe)
{
	counts[W_long_p]++;
	pshmem_long_p(d, v, pe);
}

long
shmem_long_atomic_fetch_add(long *d, long v, int pe)
{
	counts[W_long_atomic_fetch_add]++;
	return pshmem_long_atomic_fetch_add(d, v, pe);
}

void
shmem_putmem_signal(void *d, const void *s, size_t n, uint64_t *sig,
		    uint64_t sv, int op, int pe)
{
	counts[W_putmem_signal]++;
	pshmem_putmem_signal(d, s, n, sig, sv, op, pe);
}

uint64_t
shmem_signal_fetch(const uint64_t *sig)
{
	counts[W_signal_fetch]++;
	return pshmem_signal_fetch(sig);
}

void
shmem_long_wait_until(long *iv, int cmp, long v)
{
	counts[W_long_wait_until]++;
	pshmem_long_wait_until(iv, cmp, v);
}

int
shmem_long_test(long *iv, int cmp, long v)
{
	counts[W_long_test]++;
	return pshmem_long_test(iv, cmp, v);
}

void
shmem_quiet(void)
{
	counts[W_quiet]++;
	pshmem_quiet();
}

void
shmem_fence(void)
{
	counts[W_fence]++;
	pshmem_fence();
}

void
shmem_barrier_all(void)
{
	counts[W_barrier_all]++;
	pshmem_barrier_all();
}

int
shmem_long_sum_reduce(shmem_team_t t, long *d, const long *s, size_t n)
{
	counts[W_long_sum_reduce]++;
	return pshmem_long_sum_reduce(t, d, s, n);
}

int
shmem_broadcastmem(shmem_team_t t, void *d, const void *s, size_t n,
		   int root)
{
	counts[W_broadcastmem]++;
	return pshmem_broadcastmem(t, d, s, n, root);
}

int
shmem_team_split_strided(shmem_team_t parent, int start, int stride,
			 int size, const shmem_team_config_t *config,
			 long config_mask, shmem_team_t *new_team)
{
	counts[W_team_split_strided]++;
	return pshmem_team_split_strided(parent, start, stride, size, config,
					 config_mask, new_team);
}

void
shmem_team_destroy(shmem_team_t t)
{
	counts[W_team_destroy]++;
	pshmem_team_destroy(t);
}

int
shmem_ctx_create(long options, shmem_ctx_t *ctx)
{
	counts[W_ctx_create]++;
	return pshmem_ctx_create(options, ctx);
}

void
shmem_ctx_destroy(shmem_ctx_t ctx)
{
	counts[W_ctx_destroy]++;
	pshmem_ctx_destroy(ctx);
}

void
shmem_set_lock(long *lock)
{
	counts[W_set_lock]++;
	pshmem_set_lock(lock);
}

void
shmem_clear_lock(long *lock)
{
	counts[W_clear_lock]++;
	pshmem_clear_lock(lock);
}

void
shmem_finalize(void)
{
	counts[W_finalize]++;
	pshmem_finalize();
}
