// SPDX-License-Identifier: MIT
/*
 * roc3_prog: a host program written as for rocSHMEM 3.x, built by the
 * build tree's zeshc++ (roc3_cpp_check.sh): <rocshmem/rocshmem.hpp>,
 * using namespace rocshmem, a ring of putmem_signal, a context and a
 * team's context, the active-set broadcast (the template and the typed
 * overload of 3.x's C++ API), and on-stream puts interleaved with
 * zeCommandListAppendMemoryCopy on one immediate Level Zero list (the
 * values prove the order). Prints "PE <me>: roc3 ok" or a FAIL line and
 * exits 2.
 */
#include <rocshmem/rocshmem.hpp>
#include <shmemx.h>

#include <level_zero/ze_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace rocshmem;

static int me = -1;

#define CHECK(cond, what) \
	do { \
		if (!(cond)) { \
			std::fprintf(stderr, "PE %d: FAIL line %d: %s\n", me, \
				     __LINE__, what); \
			std::exit(2); \
		} \
	} while (0)

int
main()
{
	rocshmem_init();
	me = rocshmem_my_pe();
	int n = rocshmem::rocshmem_n_pes();
	int next = (me + 1) % n, prev = (me + n - 1) % n;
	CHECK(std::strcmp(rocshmem::VERSION, "3.0.0") == 0, "VERSION");

	// a ring of putmem_signal: each PE waits for its predecessor's
	auto *buf = static_cast<long *>(rocshmem_malloc(4 * sizeof(long)));
	auto *sig = static_cast<uint64_t *>(rocshmem_calloc(1, 8));
	CHECK(buf && sig, "malloc");
	long mine[2] = { 1000L + me, 2000L + me };
	rocshmem_putmem_signal(buf, mine, sizeof(mine), sig, 1,
			       ROCSHMEM_SIGNAL_SET, next);
	rocshmem_uint64_wait_until(sig, ROCSHMEM_CMP_EQ, 1);
	CHECK(buf[0] == 1000L + prev && buf[1] == 2000L + prev, "ring");
	rocshmem_barrier_all();

	// a context of the world and one of a team
	rocshmem_ctx_t ctx;
	CHECK(rocshmem_ctx_create(0, &ctx) == 0 &&
	      ctx != ROCSHMEM_CTX_INVALID, "ctx_create");
	rocshmem_ctx_long_p(ctx, buf + 2, 3000L + me, next);
	CHECK(rocshmem_ctx_long_atomic_fetch_add(ctx, buf + 3, 1, 0) >= 0,
	      "fetch_add");
	rocshmem_ctx_quiet(ctx);
	rocshmem_barrier_all();
	CHECK(buf[2] == 3000L + prev, "ctx put");
	if (me == 0)
		CHECK(buf[3] == n, "ctx atomics");
	rocshmem_ctx_destroy(ctx);
	rocshmem_team_t evens = ROCSHMEM_TEAM_INVALID;
	CHECK(rocshmem_team_split_strided(ROCSHMEM_TEAM_WORLD, 0, 2,
					  (n + 1) / 2, nullptr, 0,
					  &evens) == 0, "split");
	auto *tb = static_cast<long *>(rocshmem_calloc(1, sizeof(long)));
	CHECK(tb, "calloc");
	rocshmem_ctx_t tctx = ROCSHMEM_CTX_INVALID;
	int tn = 0, tme = -1;
	if (evens != rocshmem::ROCSHMEM_TEAM_INVALID) {
		// the team's context numbers PEs as the team does
		CHECK(rocshmem_team_create_ctx(evens, 0, &tctx) == 0, "tctx");
		tn = rocshmem_team_n_pes(evens);
		tme = rocshmem_team_my_pe(evens);
		CHECK(tn == (n + 1) / 2 && tme == me / 2, "team");
		rocshmem_ctx_long_p(tctx, tb, 5000L + me, (tme + 1) % tn);
		rocshmem_ctx_quiet(tctx);
	}
	rocshmem_barrier_all();
	if (tme >= 0)
		CHECK(*tb == 5000L + 2 * ((tme + tn - 1) % tn), "team ring");
	rocshmem_ctx_destroy(tctx);
	rocshmem_free(tb);
	rocshmem_team_destroy(evens);

	// the active-set broadcast as 3.x's C++ programs call it: the
	// template and the typed overload (root's dest and non-members'
	// untouched), then the team template
	auto *ps = static_cast<long *>(
		rocshmem_malloc(ROCSHMEM_BCAST_SYNC_SIZE * sizeof(long)));
	auto *bi = static_cast<int *>(rocshmem_malloc(4 * sizeof(int)));
	auto *bl = static_cast<long *>(rocshmem_malloc(4 * sizeof(long)));
	auto *bf = static_cast<double *>(rocshmem_malloc(4 * sizeof(double)));
	CHECK(ps && bi && bl && bf, "malloc");
	for (size_t k = 0; k < ROCSHMEM_BCAST_SYNC_SIZE; k++)
		ps[k] = ROCSHMEM_SYNC_VALUE;
	for (int k = 0; k < 2; k++) {
		bi[k] = 100 * me + k;
		bl[k] = 1000L * me + k;
		bf[k] = me + 0.25 * k;
		bi[2 + k] = -1;
		bl[2 + k] = -1;
		bf[2 + k] = -1;
	}
	rocshmem_barrier_all();
	int nev = (n + 1) / 2, eroot = 2 * (nev - 1);
	if (me % 2 == 0)
		rocshmem_broadcast<int>(ROCSHMEM_CTX_DEFAULT, bi + 2, bi, 2,
					nev - 1, 0, 1, nev, ps);
	rocshmem_barrier_all();
	bool got = me % 2 == 0 && me != eroot;
	CHECK(bi[2] == (got ? 100 * eroot : -1) &&
	      bi[3] == (got ? 100 * eroot + 1 : -1), "template broadcast");
	// the PEs 1..n-1, rooted at PE 1
	if (me > 0)
		rocshmem_ctx_long_broadcast(ROCSHMEM_CTX_DEFAULT, bl + 2, bl, 2,
					    0, 1, 0, n - 1, ps);
	rocshmem_barrier_all();
	got = me > 1;
	CHECK(bl[2] == (got ? 1000L : -1) && bl[3] == (got ? 1001L : -1),
	      "overload broadcast");
	rocshmem_broadcast(ROCSHMEM_CTX_DEFAULT, bf + 2, bf, 2, n - 1, 0, 0,
			   n, ps);
	rocshmem_barrier_all();
	got = me != n - 1;
	CHECK(bf[2] == (got ? n - 1.0 : -1) &&
	      bf[3] == (got ? n - 0.75 : -1), "deduced broadcast");
	for (size_t k = 0; k < ROCSHMEM_BCAST_SYNC_SIZE; k++)
		CHECK(ps[k] == ROCSHMEM_SYNC_VALUE, "pSync restored");
	rocshmem_broadcast<long>(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD,
				 bl + 2, bl, 2, 0);
	rocshmem_barrier_all();
	if (me != 0)
		CHECK(bl[2] == 0 && bl[3] == 1, "team template broadcast");
	rocshmem_free(bf);
	rocshmem_free(bl);
	rocshmem_free(bi);
	rocshmem_free(ps);

	// on-stream puts between copies on one immediate list
	ze_command_queue_desc_t qd = {};
	qd.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
	qd.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
	ze_command_list_handle_t cl = nullptr;
	CHECK(zeCommandListCreateImmediate(
		      static_cast<ze_context_handle_t>(shmemx_ze_context()),
		      static_cast<ze_device_handle_t>(shmemx_ze_device()),
		      &qd, &cl) == ZE_RESULT_SUCCESS, "immediate list");
	auto *src = static_cast<long *>(rocshmem_calloc(2, sizeof(long)));
	auto *dst = static_cast<long *>(rocshmem_calloc(2, sizeof(long)));
	CHECK(src && dst, "calloc");
	long first = 10L + me, second = 20L + me, third = -5;
	// copy, put, copy, put, copy: the peer sees first then second
	CHECK(zeCommandListAppendMemoryCopy(cl, src, &first, sizeof(long),
					    nullptr, 0, nullptr) ==
	      ZE_RESULT_SUCCESS, "copy 1");
	rocshmem_putmem_on_stream(dst, src, sizeof(long), next, cl);
	CHECK(zeCommandListAppendMemoryCopy(cl, src, &second, sizeof(long),
					    nullptr, 0, nullptr) ==
	      ZE_RESULT_SUCCESS, "copy 2");
	rocshmem_putmem_on_stream(dst + 1, src, sizeof(long), next, cl);
	CHECK(zeCommandListAppendMemoryCopy(cl, src, &third, sizeof(long),
					    nullptr, 0, nullptr) ==
	      ZE_RESULT_SUCCESS, "copy 3");
	rocshmem_quiet_on_stream(cl);
	rocshmem_barrier_all_on_stream(cl);
	CHECK(dst[0] == 10L + prev && dst[1] == 20L + prev && src[0] == -5,
	      "stream order");
	CHECK(zeCommandListDestroy(cl) == ZE_RESULT_SUCCESS, "destroy");

	rocshmem_barrier_all();
	rocshmem_free(dst);
	rocshmem_free(src);
	rocshmem_free(sig);
	rocshmem_free(buf);
	std::printf("PE %d: roc3 ok\n", me);
	rocshmem_finalize();
	return 0;
}
