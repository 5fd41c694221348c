// SPDX-License-Identifier: MIT
/*
 * sh_test_boot: a bootstrap for the core tests (test_sh_core), so they run
 * the runtime core without the real bootstraps: the test's parent creates
 * a memfd, each PE it fork+execs finds it as fd SH_TEST_BOOT_FD with
 * ZESHMEM_RANK / ZESHMEM_NRANKS in the environment, maps it, and does its
 * all-gathers and barriers in it (a counter + generation barrier on
 * futexes with bounded waits: a dead PE makes it fail, not hang).
 */
#include "sh_init.h"
#include "sh_test_boot.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct tb {
	void *map;
	struct sh_test_boot_shm *s;
};

static long
futex(uint32_t *w, int op, uint32_t val, const struct timespec *ts)
{
	return syscall(SYS_futex, w, op, val, ts, NULL, 0);
}

static int
tb_barrier(struct sh_boot *b)
{
	struct sh_test_boot_shm *s = ((struct tb *)b->priv)->s;
	uint32_t g = __atomic_load_n(&s->gen, __ATOMIC_ACQUIRE);
	if (__atomic_add_fetch(&s->count, 1, __ATOMIC_ACQ_REL) ==
	    (uint32_t)b->nranks) {
		__atomic_store_n(&s->count, 0, __ATOMIC_RELAXED);
		__atomic_add_fetch(&s->gen, 1, __ATOMIC_RELEASE);
		futex(&s->gen, FUTEX_WAKE, INT_MAX, NULL);
		return 0;
	}
	for (int i = 0; i < 300; i++) { /* 30 s */
		if (__atomic_load_n(&s->gen, __ATOMIC_ACQUIRE) != g)
			return 0;
		struct timespec ts = { 0, 100000000L };
		futex(&s->gen, FUTEX_WAIT, g, &ts);
	}
	return -ETIMEDOUT;
}

static int
tb_allgather(struct sh_boot *b, const void *mine, size_t len, void *all)
{
	struct sh_test_boot_shm *s = ((struct tb *)b->priv)->s;
	if (len * (size_t)b->nranks > sizeof(s->buf))
		return -E2BIG;
	memcpy(s->buf + len * (size_t)b->rank, mine, len);
	int err = tb_barrier(b);
	if (err)
		return err;
	memcpy(all, s->buf, len * (size_t)b->nranks);
	return tb_barrier(b);
}

static void
tb_abort(struct sh_boot *b, int status)
{
	(void)b;
	(void)status;
}

static void
tb_fini(struct sh_boot *b)
{
	struct tb *t = b->priv;
	munmap(t->map, sizeof(struct sh_test_boot_shm));
	free(t);
}

static const struct sh_boot_ops tb_ops = {
	.name = "test",
	.allgather = tb_allgather,
	.barrier = tb_barrier,
	.abort_job = tb_abort,
	.fini = tb_fini,
};

int
sh_boot_open(const void *uid, int rank, int nranks, struct sh_boot **out)
{
	(void)uid;
	const char *r = getenv("ZESHMEM_RANK"), *n = getenv("ZESHMEM_NRANKS");
	struct sh_boot *b = calloc(1, sizeof(*b));
	struct tb *t = calloc(1, sizeof(*t));
	if (!b || !t)
		goto err;
	b->ops = &tb_ops;
	b->rank = r ? atoi(r) : rank;
	b->nranks = n ? atoi(n) : (nranks > 0 ? nranks : 1);
	b->local_rank = -1;
	b->priv = t;
	t->map = mmap(NULL, sizeof(struct sh_test_boot_shm),
		      PROT_READ | PROT_WRITE, MAP_SHARED, SH_TEST_BOOT_FD, 0);
	if (t->map == MAP_FAILED)
		goto err;
	t->s = t->map;
	*out = b;
	return 0;
err:
	free(b);
	free(t);
	return -ENOMEM;
}

void
sh_boot_close(struct sh_boot *b)
{
	if (!b)
		return;
	b->ops->fini(b);
	free(b);
}
