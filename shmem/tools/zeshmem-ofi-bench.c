// SPDX-License-Identifier: MIT
/*
 * zeshmem-ofi-bench: the network transport's figures (issue 16) against
 * a raw libfabric baseline measured in the same run, between the same two
 * endpoints: one fi_write / fi_read / fi_fetch_atomic and its completion
 * (sh_tr_ofi_raw), next to libzeshmem's put+quiet, get, fetch-add,
 * put bandwidth, put_signal round trip and barrier. Linked with the
 * runtime core (it needs the raw path, which no API exposes).
 *
 *   zeshrun -n 2 -- env ZESHMEM_FORCE_NETWORK=1 zeshmem-ofi-bench [--quick]
 *   (or under mpirun with the PEs on two nodes)
 *
 * PE 0 measures against its partner, the first PE on another node (PE 1
 * with ZESHMEM_FORCE_NETWORK=1), which only waits (its progress comes
 * from its wait and its progress thread, as a computing PE's would);
 * the other PEs of a larger job wait for the barrier, which all PEs then
 * measure (barrier_all at 4 PEs: 2 nodes x 2 PEs). Medians of trials.
 */
#include "sh_init.h"

#include "bench_time.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int quick;

#define TRIALS 7

/* Median over trials of the mean time of iters calls of f. */
#define MEASURE(out, iters, body)                                            \
	do {                                                                 \
		double t_[TRIALS];                                           \
		int nt_ = quick ? 2 : TRIALS;                                \
		for (int k_ = 0; k_ < nt_; k_++) {                           \
			double s_ = now_us();                                \
			for (int i_ = 0; i_ < (iters); i_++) {               \
				body;                                        \
			}                                                    \
			t_[k_] = (now_us() - s_) / (iters);                  \
		}                                                            \
		qsort(t_, (size_t)nt_, sizeof(double), cmp_d);               \
		out = t_[nt_ / 2];                                           \
	} while (0)

static void
die(const char *what, int err)
{
	fprintf(stderr, "zeshmem-ofi-bench: %s: %d\n", what, err);
	exit(1);
}

#define OK(call)                                                             \
	do {                                                                 \
		int e_ = (call);                                             \
		if (e_)                                                      \
			die(#call, e_);                                      \
	} while (0)

static void
line(const char *what, size_t n, double us, double raw_us)
{
	printf("%-14s %9zu B  %9.2f us   raw %9.2f us   ratio %5.2f\n", what,
	       n, us, raw_us, raw_us > 0 ? us / raw_us : 0);
}

int
main(int argc, char **argv)
{
	quick = argc > 1 && !strcmp(argv[1], "--quick");
	int got;
	OK(sh_init(NULL, 0, 0, 0, &got));
	int pt = -1; /* the partner: the first PE on another node than 0 */
	for (int i = 1; i < sh.npes && pt < 0; i++)
		if (sh.node_of[i] != sh.node_of[0])
			pt = i;
	if (pt < 0 || !sh_tr_ofi_active()) { /* the same on every PE */
		if (sh.me == 0)
			fprintf(stderr, "zeshmem-ofi-bench: needs PEs on 2 "
					"nodes joined by the network transport "
					"(ZESHMEM_FORCE_NETWORK=1 or two "
					"nodes)\n");
		sh_finalize();
		return 77;
	}
	const size_t big = 16u << 20;
	char *sym = sh_malloc(big, 4096, "bench");
	uint64_t *flag = sh_malloc(64, 64, "bench");
	uint64_t *sig = sh_malloc(64, 64, "bench");
	char *loc = malloc(big);
	if (!sym || !flag || !sig || !loc)
		die("malloc", -12);
	memset(loc, 1, big);
	*flag = 0;
	*sig = 0;
	OK(sh_barrier(sh_team_world));
	uint64_t one = 1;
	if (sh.me == pt) {
		/* Answer signal pings until PE 0 says done (flag 1). */
		for (uint64_t k = 1;; k++) {
			uint64_t want = k;
			OK(sh_wait_until(sig, SH_T_UINT, 8, SH_CMP_GE, &want));
			if (__atomic_load_n(flag, __ATOMIC_ACQUIRE))
				break;
			OK(sh_put_signal(NULL, sym, loc, 8, sig, 1,
					 SH_SIGNAL_ADD, 0, 0));
		}
	} else if (sh.me == 0) {
		printf("provider %s, PE %d (other node) only waiting\n",
		       sh_tr_ofi_provider(), pt);
		const size_t sizes[] = { 8, 4096, 65536, 1u << 20 };
		for (unsigned s = 0; s < 4; s++) {
			size_t n = sizes[s];
			int it = quick ? 5 : n >= (1u << 20) ? 50 : 500;
			double a, b;
			MEASURE(b, it, OK(sh_tr_ofi_raw(0, sym, loc, n, pt)));
			MEASURE(a, it, OK(sh_put(NULL, sym, loc, n, pt, 0));
				OK(sh_quiet(NULL)));
			line("put+quiet", n, a, b);
			MEASURE(b, it, OK(sh_tr_ofi_raw(1, sym, loc, n, pt)));
			MEASURE(a, it, OK(sh_get(NULL, loc, sym, n, pt, 0)));
			line("get", n, a, b);
		}
		const size_t bws[] = { 1u << 20, 16u << 20 };
		for (unsigned s = 0; s < 2; s++) {
			size_t n = bws[s];
			int it = quick ? 2 : n > (1u << 20) ? 10 : 50;
			double a, b;
			MEASURE(b, it, OK(sh_tr_ofi_raw(0, sym, loc, n, pt)));
			MEASURE(a, it, OK(sh_put(NULL, sym, loc, n, pt, 1));
				OK(sh_quiet(NULL)));
			printf("%-14s %9zu B  %9.1f MB/s  raw %9.1f MB/s  ratio "
			       "%5.2f\n", "put bw", n, n / a, n / b, b / a);
		}
		struct { uint64_t val, cmp, res; } ab = { 1, 0, 0 };
		int it = quick ? 5 : 500;
		double a, b;
		MEASURE(b, it, OK(sh_tr_ofi_raw(2, flag + 1, &ab, 8, pt)));
		uint64_t old;
		MEASURE(a, it, OK(sh_amo(NULL, SH_AMO_ADD, SH_T_UINT, 8,
					  flag + 1, &one, NULL, &old, pt)));
		line("fetch-add", 8, a, b);
		/* put_signal + wait round trip: the partner answers each
		 * ping. */
		uint64_t k = 0;
		MEASURE(a, it, {
			k++;
			OK(sh_put_signal(NULL, sym, loc, 8, sig, 1,
					 SH_SIGNAL_ADD, pt, 0));
			uint64_t want = k;
			OK(sh_wait_until(sig, SH_T_UINT, 8, SH_CMP_GE, &want));
		});
		line("signal rtt", 8, a, 2 * b);
		printf("(signal rtt's raw: two fetch-add round trips)\n");
		/* done: flag, then one more ping so the partner wakes */
		uint64_t v = 1;
		OK(sh_amo(NULL, SH_AMO_SET, SH_T_UINT, 8, flag, &v, NULL, NULL,
			  pt));
		OK(sh_put_signal(NULL, sym, loc, 8, sig, 1, SH_SIGNAL_ADD, pt,
				 0));
	}
	OK(sh_barrier(sh_team_world));
	double a;
	int it = quick ? 5 : 500;
	MEASURE(a, it, OK(sh_barrier(sh_team_world)));
	if (sh.me == 0)
		printf("%-14s %9s    %9.2f us   (%d PEs)\n", "barrier_all", "",
		       a, sh.npes);
	free(loc);
	sh_free(sig, "bench");
	sh_free(flag, "bench");
	sh_free(sym, "bench");
	OK(sh_finalize());
	return 0;
}
