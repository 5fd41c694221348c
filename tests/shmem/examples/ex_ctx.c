/* SPDX-License-Identifier: MIT */
/* After the specification's context example: each PE sends a block to
 * its right neighbour in chunks over a private context, overlapping the
 * chunks (put_nbi) and completing them with that context's quiet only;
 * the default context keeps a separate counter. Checks what arrived. */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#define LEN 1024
#define CHUNK 128

int
main(void)
{
	shmem_init();
	int me = shmem_my_pe(), npes = shmem_n_pes();
	int right = (me + 1) % npes, left = (me + npes - 1) % npes;
	int *src = (int *)malloc(LEN * sizeof(int));
	int *dst = (int *)shmem_calloc(LEN, sizeof(int));
	long *count = (long *)shmem_calloc(1, sizeof(long));
	shmem_ctx_t ctx;
	if (!src || !dst || !count)
		return 1;
	if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0)
		ctx = SHMEM_CTX_DEFAULT; /* the specification's fallback */
	for (int i = 0; i < LEN; i++)
		src[i] = me * LEN + i;
	shmem_barrier_all();
	for (int off = 0; off < LEN; off += CHUNK) {
		shmem_ctx_int_put_nbi(ctx, dst + off, src + off, CHUNK, right);
		shmem_long_atomic_inc(count, right);
	}
	shmem_ctx_quiet(ctx);
	shmem_barrier_all();
	int bad = *count != LEN / CHUNK;
	for (int i = 0; i < LEN; i++)
		if (dst[i] != left * LEN + i)
			bad = 1;
	printf("PE %d: %d ints from PE %d, %ld chunks%s\n", me, LEN, left,
	       *count, bad ? " WRONG" : "");
	if (ctx != SHMEM_CTX_DEFAULT)
		shmem_ctx_destroy(ctx);
	shmem_free(count);
	shmem_free(dst);
	free(src);
	shmem_finalize();
	return bad;
}
