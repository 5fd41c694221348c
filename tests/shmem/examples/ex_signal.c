/* SPDX-License-Identifier: MIT */
/* After the specification's put-with-signal example: a ring where each PE
 * sends a message with shmem_putmem_signal and waits for its own signal
 * with shmem_signal_wait_until; the message is complete when the signal
 * is seen. */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int
main(void)
{
	shmem_init();
	int me = shmem_my_pe(), npes = shmem_n_pes();
	int right = (me + 1) % npes, left = (me + npes - 1) % npes;
	char *msg = (char *)shmem_calloc(64, 1);
	uint64_t *sig = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
	if (!msg || !sig)
		return 1;
	char out[64];
	snprintf(out, sizeof(out), "hello from PE %d", me);
	shmem_barrier_all();
	shmem_putmem_signal(msg, out, sizeof(out), sig, (uint64_t)me + 1,
			    SHMEM_SIGNAL_SET, right);
	uint64_t s = shmem_signal_wait_until(sig, SHMEM_CMP_NE, 0);
	char want[64];
	snprintf(want, sizeof(want), "hello from PE %d", left);
	int bad = s != (uint64_t)left + 1 || strcmp(msg, want) != 0;
	printf("PE %d: got \"%s\" (signal %llu)%s\n", me, msg,
	       (unsigned long long)s, bad ? " WRONG" : "");
	shmem_barrier_all();
	shmem_free(sig);
	shmem_free(msg);
	shmem_finalize();
	return bad;
}
