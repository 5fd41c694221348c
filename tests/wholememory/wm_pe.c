// SPDX-License-Identifier: MIT
/*
 * wm_pe: one rank of a WholeMemory test job (zeshrun -n N -- wm_pe), or
 * with argument "uid" a job of one process bootstrapped by a unique id,
 * or with argument "squat" (ZEMEM_IPC_TRANSPORT=broker) mapped mallocs
 * while another uid holds every socket name a rank's pid predicts.
 * Every test is collective: all ranks run the same tests in the same
 * order (check without forking, CK_FORK=no), and each checks exact
 * results and error codes itself; the job fails when any rank does.
 */

#include <check.h>

#include <wholememory/wholememory.h>
#include <wholememory/wholememory_op.h>

#include "check_run.h"
#include "wm_pe.h"
#include "leakcheck.h"

#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

wholememory_comm_t world;
int me, np;

/* A failed assertion leaves its test early on one rank only, and the
 * other ranks' next collective would wait for it: the failing rank skips
 * every later test (its setup fails), prints check's report and ends
 * without finalizing, so zeshrun ends the job at once. */
bool test_done;
static bool broken;

static void
setup(void)
{
	if (broken)
		ck_abort_msg("not run: an earlier test failed on this rank");
	test_done = false;
}

static void
teardown(void)
{
	if (!test_done)
		broken = true;
}

const wholememory_memory_type_t types[4] = {
	WHOLEMEMORY_MT_CONTINUOUS, WHOLEMEMORY_MT_CHUNKED,
	WHOLEMEMORY_MT_DISTRIBUTED, WHOLEMEMORY_MT_HIERARCHY,
};
const wholememory_memory_location_t locs[2] = {
	WHOLEMEMORY_ML_HOST, WHOLEMEMORY_ML_DEVICE,
};

/* The value of 8-byte word w of the table in the tests' pattern. */
uint64_t
pat(uint64_t w, uint64_t salt)
{
	return (w + 1) * 0x9e3779b97f4a7c15ull ^ salt;
}

START_TEST(test_partition_plan)
{
	size_t p[4];
	EQ(wholememory_equal_entry_partition_plan(NULL, 10, 4),
	   WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_equal_entry_partition_plan(p, 10, 0),
	   WHOLEMEMORY_INVALID_VALUE);
	OK(wholememory_equal_entry_partition_plan(p, 10, 4));
	EQ(p[0], 3); EQ(p[1], 3); EQ(p[2], 3); EQ(p[3], 1);
	OK(wholememory_equal_entry_partition_plan(p, 9, 4));
	EQ(p[0], 3); EQ(p[1], 3); EQ(p[2], 3); EQ(p[3], 0);
	OK(wholememory_equal_entry_partition_plan(p, 2, 4));
	EQ(p[0], 1); EQ(p[1], 1); EQ(p[2], 0); EQ(p[3], 0);
	test_done = true;
}
END_TEST

START_TEST(test_comm_info)
{
	int r = -1, s = -1, l = -1;
	OK(wholememory_communicator_get_rank(&r, world));
	OK(wholememory_communicator_get_size(&s, world));
	OK(wholememory_communicator_get_local_size(&l, world));
	EQ(r, me);
	EQ(s, np);
	EQ(l, np);
	clique_info_t ci;
	memset(&ci, 0xff, sizeof(ci));
	OK(wholememory_communicator_get_clique_info(&ci, world));
	EQ(ci.is_in_clique, 1);
	EQ(ci.clique_first_rank, 0);
	EQ(ci.clique_rank, me);
	EQ(ci.clique_rank_num, np);
	EQ(ci.clique_id, 0);
	EQ(ci.clique_num, 1);
	ck_assert(wholememory_is_intranode_communicator(world));
	ck_assert(!wholememory_is_intra_mnnvl_communicator(world));
	ck_assert(!wholememory_is_build_with_nvshmem());
	ck_assert(!wholememory_communicator_is_bind_to_nvshmem(world));
	OK(wholememory_communicator_barrier(world));
	EQ(wholememory_communicator_get_distributed_backend(world),
	   WHOLEMEMORY_DB_NONE);
	EQ(wholememory_communicator_set_distributed_backend(world,
		WHOLEMEMORY_DB_NCCL), WHOLEMEMORY_NOT_SUPPORTED);
	EQ(wholememory_communicator_set_distributed_backend(world,
		WHOLEMEMORY_DB_NVSHMEM), WHOLEMEMORY_NOT_SUPPORTED);
	EQ(wholememory_communicator_set_distributed_backend(world,
		(wholememory_distributed_backend_t)7),
	   WHOLEMEMORY_INVALID_VALUE);
	OK(wholememory_communicator_set_distributed_backend(world,
		WHOLEMEMORY_DB_NONE));
	for (int t = 0; t < 4; t++)
		for (int l2 = 0; l2 < 2; l2++)
			OK(wholememory_communicator_support_type_location(
				world, types[t], locs[l2]));
	EQ(wholememory_communicator_support_type_location(world,
		WHOLEMEMORY_MT_NONE, WHOLEMEMORY_ML_HOST),
	   WHOLEMEMORY_NOT_SUPPORTED);
	EQ(wholememory_communicator_support_type_location(world,
		WHOLEMEMORY_MT_CONTINUOUS, WHOLEMEMORY_ML_NONE),
	   WHOLEMEMORY_NOT_SUPPORTED);
	ck_assert_int_ge(fork_get_device_count(), 1);
	test_done = true;
}
END_TEST

START_TEST(test_bad_handles)
{
	int x;
	size_t z;
	void *p;
	char junk[256];
	memset(junk, 0x5a, sizeof(junk));
	wholememory_comm_t fc = (wholememory_comm_t)(void *)junk;
	wholememory_handle_t fh = (wholememory_handle_t)(void *)junk;
	EQ(wholememory_communicator_get_rank(&x, NULL),
	   WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_communicator_get_rank(&x, fc),
	   WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_communicator_get_rank(NULL, world),
	   WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_communicator_get_size(&x, fc),
	   WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_communicator_barrier(fc), WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_destroy_communicator(fc), WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_split_communicator(NULL, world, 0, 0),
	   WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_communicator_get_clique_info(NULL, world),
	   WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_communicator_support_type_location(fc,
		WHOLEMEMORY_MT_CONTINUOUS, WHOLEMEMORY_ML_HOST),
	   WHOLEMEMORY_INVALID_INPUT);
	ck_assert(!wholememory_is_intranode_communicator(fc));
	wholememory_handle_t h;
	EQ(wholememory_malloc(&h, 64, fc, WHOLEMEMORY_MT_CONTINUOUS,
			      WHOLEMEMORY_ML_HOST, 8, NULL),
	   WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_malloc(NULL, 64, world, WHOLEMEMORY_MT_CONTINUOUS,
			      WHOLEMEMORY_ML_HOST, 8, NULL),
	   WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_free(fh), WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_free(NULL), WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_get_local_memory(&p, &z, &z, fh),
	   WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_get_local_size(&z, NULL), WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_get_local_offset(&z, fh), WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_get_rank_memory(&p, &z, &z, 0, fh),
	   WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_get_global_pointer(&p, fh), WHOLEMEMORY_INVALID_INPUT);
	wholememory_gref_t g;
	EQ(wholememory_get_global_reference(&g, fh),
	   WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_get_rank_partition_sizes(&z, fh),
	   WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_get_rank_partition_offsets(&z, fh),
	   WHOLEMEMORY_INVALID_INPUT);
	wholememory_comm_t c;
	EQ(wholememory_get_communicator(&c, fh), WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_get_local_communicator(&c, fh),
	   WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_get_cross_communicator(&c, fh),
	   WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_get_memory_type(fh), WHOLEMEMORY_MT_NONE);
	EQ(wholememory_get_memory_location(fh), WHOLEMEMORY_ML_NONE);
	EQ(wholememory_get_total_size(fh), 0);
	EQ(wholememory_get_data_granularity(fh), 0);
	int64_t i0 = 0;
	uint64_t v;
	EQ(wholememoryx_gather(fh, &i0, 1, &v, 8), WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememoryx_scatter(fh, &i0, 1, &v, 8), WHOLEMEMORY_INVALID_INPUT);
	const char *fn = "/nonexistent";
	EQ(wholememory_load_from_file(fh, 0, 8, 8, &fn, 1, 0),
	   WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_store_to_file(fh, 0, 8, 8, fn),
	   WHOLEMEMORY_INVALID_INPUT);
	test_done = true;
}
END_TEST

START_TEST(test_split)
{
	wholememory_comm_t c = NULL;
	/* color rank % 2, key -rank: each group in reverse rank order */
	OK(wholememory_split_communicator(&c, world, me % 2, -me));
	ck_assert_ptr_nonnull(c);
	int r, s;
	OK(wholememory_communicator_get_rank(&r, c));
	OK(wholememory_communicator_get_size(&s, c));
	int mine = 0, above = 0;
	for (int i = 0; i < np; i++)
		if (i % 2 == me % 2) {
			mine++;
			above += i > me;
		}
	EQ(s, mine);
	EQ(r, above);
	OK(wholememory_communicator_barrier(c));
	/* equal keys: the old rank decides */
	wholememory_comm_t c2 = NULL;
	OK(wholememory_split_communicator(&c2, c, 0, 5));
	OK(wholememory_communicator_get_rank(&r, c2));
	EQ(r, above);
	OK(wholememory_destroy_communicator(c2));
	OK(wholememory_destroy_communicator(c));
	/* NOCOLOR: rank 0 gets NULL, the others one communicator */
	c = (wholememory_comm_t)(void *)&c;
	OK(wholememory_split_communicator(&c, world,
		me == 0 ? WHOLEMEMORY_SPLIT_NOCOLOR : 3, me));
	EQ(WHOLEMEMORY_SPILT_NO_COLOR, WHOLEMEMORY_SPLIT_NOCOLOR);
	if (me == 0) {
		ck_assert_ptr_null(c);
	} else {
		ck_assert_ptr_nonnull(c);
		OK(wholememory_communicator_get_size(&s, c));
		EQ(s, np - 1);
		OK(wholememory_communicator_get_rank(&r, c));
		EQ(r, me - 1);
		OK(wholememory_destroy_communicator(c));
	}
	/* a negative color other than NOCOLOR: on every rank */
	EQ(wholememory_split_communicator(&c, world, me == 0 ? -5 : 1, 0),
	   WHOLEMEMORY_INVALID_VALUE);
	ck_assert_ptr_null(c);
	test_done = true;
}
END_TEST

/* Allocates, fills the local partition, checks every view of it. */
static void
check_type(wholememory_memory_type_t t, wholememory_memory_location_t l,
	   size_t entries, size_t gran)
{
	wholememory_handle_t h = NULL;
	size_t total = entries * gran;
	OK(wholememory_malloc(&h, total, world, t, l, gran, NULL));
	EQ(wholememory_get_memory_type(h), t);
	EQ(wholememory_get_memory_location(h), l);
	EQ(wholememory_get_total_size(h), total);
	EQ(wholememory_get_data_granularity(h), gran);
	EQ(wholememory_get_distributed_backend(h), WHOLEMEMORY_DB_NONE);
	wholememory_comm_t c;
	OK(wholememory_get_communicator(&c, h));
	ck_assert_ptr_eq(c, world);
	size_t plan[8], sizes[8], offs[8];
	OK(wholememory_equal_entry_partition_plan(plan, entries, np));
	OK(wholememory_get_rank_partition_sizes(sizes, h));
	OK(wholememory_get_rank_partition_offsets(offs, h));
	size_t o = 0;
	for (int r = 0; r < np; r++) {
		EQ(sizes[r], plan[r] * gran);
		EQ(offs[r], o);
		o += sizes[r];
	}
	void *lp;
	size_t ls, lo;
	OK(wholememory_get_local_memory(&lp, &ls, &lo, h));
	EQ(ls, sizes[me]);
	EQ(lo, offs[me]);
	size_t z;
	OK(wholememory_get_local_size(&z, h));
	EQ(z, ls);
	OK(wholememory_get_local_offset(&z, h));
	EQ(z, lo);
	uint64_t *w = lp;
	for (size_t i = 0; i < ls / 8; i++)
		w[i] = pat(lo / 8 + i, t * 10 + l);
	OK(wholememory_communicator_barrier(world));
	/* every rank's memory, where this rank can reach it */
	for (int r = 0; r < np; r++) {
		void *rp;
		size_t rs, ro;
		int e = wholememory_get_rank_memory(&rp, &rs, &ro, r, h);
		if (t == WHOLEMEMORY_MT_DISTRIBUTED && r != me) {
			EQ(e, WHOLEMEMORY_INVALID_INPUT);
			continue;
		}
		OK(e);
		EQ(rs, sizes[r]);
		EQ(ro, offs[r]);
		ALL(rs / 8, ((uint64_t *)rp)[i] ==
				    pat(ro / 8 + i, t * 10 + l));
	}
	void *gp = NULL;
	int e = wholememory_get_global_pointer(&gp, h);
	wholememory_gref_t g;
	int eg = wholememory_get_global_reference(&g, h);
	if (t == WHOLEMEMORY_MT_CONTINUOUS ||
	    (t == WHOLEMEMORY_MT_CHUNKED && l == WHOLEMEMORY_ML_HOST)) {
		OK(e);
		ALL(total / 8, ((uint64_t *)gp)[i] == pat(i, t * 10 + l));
	} else {
		EQ(e, WHOLEMEMORY_INVALID_INPUT);
	}
	if (t == WHOLEMEMORY_MT_CONTINUOUS || t == WHOLEMEMORY_MT_CHUNKED) {
		OK(eg);
		EQ(g.world_size, np);
		for (int r = 0; r <= np; r++)
			EQ(g.rank_memory_offsets[r], r < np ? offs[r] : total);
		if (t == WHOLEMEMORY_MT_CHUNKED &&
		    l == WHOLEMEMORY_ML_DEVICE) {
			/* the per-rank pointers and the partition stride:
			 * the default plan is same_chunk, owner =
			 * offset / stride */
			EQ(g.stride, sizes[0]);
			ck_assert(g.same_chunk);
			for (int r = 0; r < np; r++) {
				void *rp;
				size_t rs, ro;
				OK(wholememory_get_rank_memory(&rp, &rs, &ro,
							       r, h));
				ck_assert_ptr_eq(((void **)g.pointer)[r], rp);
			}
			char **rpp = g.pointer;
			ALL(total / 8, *(uint64_t *)(rpp[i * 8 / g.stride] +
						     i * 8 % g.stride) ==
					       pat(i, t * 10 + l));
		} else {
			EQ(g.stride, 0);
			ck_assert_ptr_eq(g.pointer, gp);
		}
	} else {
		EQ(eg, WHOLEMEMORY_INVALID_INPUT);
	}
	wholememory_comm_t lc, xc;
	if (t == WHOLEMEMORY_MT_HIERARCHY) {
		int s;
		OK(wholememory_get_local_communicator(&lc, h));
		OK(wholememory_get_cross_communicator(&xc, h));
		OK(wholememory_communicator_get_size(&s, lc));
		EQ(s, np);
		OK(wholememory_communicator_get_size(&s, xc));
		EQ(s, 1);
		EQ(wholememory_destroy_communicator(lc),
		   WHOLEMEMORY_INVALID_INPUT);
	} else {
		EQ(wholememory_get_local_communicator(&lc, h),
		   WHOLEMEMORY_NOT_SUPPORTED);
		EQ(wholememory_get_cross_communicator(&xc, h),
		   WHOLEMEMORY_NOT_SUPPORTED);
	}
	/* every row through gather, in reverse */
	size_t nrow = total / 8;
	int64_t *idx = malloc(sizeof(int64_t) * nrow);
	uint64_t *out = malloc(8 * nrow);
	for (size_t i = 0; i < nrow; i++)
		idx[i] = (int64_t)(nrow - 1 - i);
	OK(wholememoryx_gather(h, idx, nrow, out, 8));
	ALL(nrow, out[i] == pat(nrow - 1 - i, t * 10 + l));
	free(idx);
	free(out);
	OK(wholememory_communicator_barrier(world));
	OK(wholememory_free(h));
	EQ(wholememory_free(h), WHOLEMEMORY_INVALID_INPUT);
}

START_TEST(test_types)
{
	/* partitions of odd entry counts (not page multiples) and of 4 KiB
	 * multiples; a table smaller than the ranks */
	static const size_t shapes[][2] = {
		{ 10, 8 }, { 9, 24 }, { 2, 8 }, { 64, 4096 }, { 1000, 200 },
	};
	for (int t = 0; t < 4; t++)
		for (int l = 0; l < 2; l++)
			for (int s = 0; s < 5; s++)
				check_type(types[t], locs[l], shapes[s][0],
					   shapes[s][1]);
	test_done = true;
}
END_TEST

START_TEST(test_global_stores)
{
	/* each rank stores through the global pointer into the next rank's
	 * partition; that rank finds it in its local memory */
	for (int l = 0; l < 2; l++) {
		for (int t = 0; t < 2; t++) {
			if (t == 1 && locs[l] == WHOLEMEMORY_ML_DEVICE)
				continue;
			wholememory_handle_t h;
			size_t gran = 64, entries = 4 * np + 1;
			OK(wholememory_malloc(&h, gran * entries, world,
					      types[t], locs[l], gran, NULL));
			size_t offs[8], sizes[8];
			OK(wholememory_get_rank_partition_offsets(offs, h));
			OK(wholememory_get_rank_partition_sizes(sizes, h));
			char *gp;
			OK(wholememory_get_global_pointer((void **)&gp, h));
			int to = (me + 1) % np;
			memset(gp + offs[to], 'a' + me, sizes[to]);
			OK(wholememory_communicator_barrier(world));
			char *lp;
			size_t ls, lo;
			OK(wholememory_get_local_memory((void **)&lp, &ls, &lo,
							h));
			int from = (me + np - 1) % np;
			ALL(ls, lp[i] == 'a' + from);
			OK(wholememory_free(h));
		}
	}
	test_done = true;
}
END_TEST

START_TEST(test_malloc_errors)
{
	wholememory_handle_t h = (wholememory_handle_t)(void *)&h;
	/* total not a multiple of the granularity */
	EQ(wholememory_malloc(&h, 100, world, WHOLEMEMORY_MT_CONTINUOUS,
			      WHOLEMEMORY_ML_HOST, 8, NULL),
	   WHOLEMEMORY_INVALID_VALUE);
	ck_assert_ptr_null(h);
	EQ(wholememory_malloc(&h, 64, world, WHOLEMEMORY_MT_CONTINUOUS,
			      WHOLEMEMORY_ML_HOST, 0, NULL),
	   WHOLEMEMORY_INVALID_VALUE);
	EQ(wholememory_malloc(&h, 64, world, WHOLEMEMORY_MT_NONE,
			      WHOLEMEMORY_ML_HOST, 8, NULL),
	   WHOLEMEMORY_INVALID_VALUE);
	EQ(wholememory_malloc(&h, 64, world, WHOLEMEMORY_MT_CHUNKED,
			      WHOLEMEMORY_ML_NONE, 8, NULL),
	   WHOLEMEMORY_INVALID_VALUE);
	/* user partitions: a zero entry, a wrong sum, then a good one */
	size_t part[8];
	size_t sum = 0;
	for (int r = 0; r < np; r++) {
		part[r] = (size_t)r + 1;
		sum += part[r];
	}
	part[np - 1] = 0;
	EQ(wholememory_malloc(&h, 8 * sum, world, WHOLEMEMORY_MT_CHUNKED,
			      WHOLEMEMORY_ML_HOST, 8, part),
	   WHOLEMEMORY_INVALID_VALUE);
	part[np - 1] = np;
	EQ(wholememory_malloc(&h, 8 * (sum + 1), world,
			      WHOLEMEMORY_MT_CHUNKED, WHOLEMEMORY_ML_HOST, 8,
			      part),
	   WHOLEMEMORY_INVALID_VALUE);
	for (int t = 0; t < 4; t++) {
		OK(wholememory_malloc(&h, 8 * sum, world, types[t],
				      WHOLEMEMORY_ML_HOST, 8, part));
		size_t sizes[8], offs[8];
		OK(wholememory_get_rank_partition_sizes(sizes, h));
		OK(wholememory_get_rank_partition_offsets(offs, h));
		size_t o = 0;
		for (int r = 0; r < np; r++) {
			EQ(sizes[r], 8 * part[r]);
			EQ(offs[r], o);
			o += sizes[r];
		}
		OK(wholememory_free(h));
	}
	/* mismatched arguments: INVALID_INPUT on every rank */
	if (np > 1) {
		EQ(wholememory_malloc(&h, me == 1 ? 128 : 64, world,
				      WHOLEMEMORY_MT_CONTINUOUS,
				      WHOLEMEMORY_ML_HOST, 8, NULL),
		   WHOLEMEMORY_INVALID_INPUT);
		EQ(wholememory_malloc(&h, 64, world,
				      me == 1 ? WHOLEMEMORY_MT_CHUNKED :
						WHOLEMEMORY_MT_CONTINUOUS,
				      WHOLEMEMORY_ML_HOST, 8, NULL),
		   WHOLEMEMORY_INVALID_INPUT);
		EQ(wholememory_malloc(&h, 64, world,
				      WHOLEMEMORY_MT_DISTRIBUTED,
				      WHOLEMEMORY_ML_HOST, me == 1 ? 16 : 8,
				      NULL),
		   WHOLEMEMORY_INVALID_INPUT);
		ck_assert_ptr_null(h);
	}
	/* a communicator with live memory is not destroyed */
	OK(wholememory_malloc(&h, 64, world, WHOLEMEMORY_MT_CHUNKED,
			      WHOLEMEMORY_ML_HOST, 8, NULL));
	EQ(wholememory_destroy_communicator(world), WHOLEMEMORY_LOGIC_ERROR);
	OK(wholememory_free(h));
	/* the library still works after all that */
	OK(wholememory_communicator_barrier(world));
	test_done = true;
}
END_TEST

START_TEST(test_subcomm)
{
	/* a communicator of part of the world: mapped types work there */
	wholememory_comm_t c = NULL;
	OK(wholememory_split_communicator(&c, world, me < (np + 1) / 2 ? 0 : 1,
					  me));
	int s;
	OK(wholememory_communicator_get_size(&s, c));
	wholememory_handle_t h;
	OK(wholememory_malloc(&h, 8 * 16, c, WHOLEMEMORY_MT_CONTINUOUS,
			      WHOLEMEMORY_ML_DEVICE, 8, NULL));
	uint64_t *gp;
	OK(wholememory_get_global_pointer((void **)&gp, h));
	int r;
	OK(wholememory_communicator_get_rank(&r, c));
	if (r == 0)
		for (int i = 0; i < 16; i++)
			gp[i] = 100 + i;
	OK(wholememory_communicator_barrier(c));
	for (int i = 0; i < 16; i++)
		ck_assert_uint_eq(gp[i], 100 + i);
	OK(wholememory_free(h));
	/* one node: the symmetric-heap types too (test_subcomm_types) */
	OK(wholememory_communicator_support_type_location(c,
		WHOLEMEMORY_MT_DISTRIBUTED, WHOLEMEMORY_ML_HOST));
	OK(wholememory_communicator_support_type_location(c,
		WHOLEMEMORY_MT_HIERARCHY, WHOLEMEMORY_ML_DEVICE));
	OK(wholememory_destroy_communicator(c));
	test_done = true;
}
END_TEST

/* DISTRIBUTED or HIERARCHY (t) in l on communicator c (maybe part of the
 * world, all on this node): every view, gather, scatter with duplicate
 * indices (the last wins), loads and stores exact. */
static void
sub_type(wholememory_comm_t c, wholememory_memory_type_t t,
	 wholememory_memory_location_t l)
{
	int r = -1, s = -1;
	OK(wholememory_communicator_get_rank(&r, c));
	OK(wholememory_communicator_get_size(&s, c));
	OK(wholememory_communicator_support_type_location(c, t, l));
	/* rows of 24 bytes on a granularity of 8: rows straddle partitions */
	size_t eb = 24, nrow = 5 * (size_t)s + 2, total = eb * nrow;
	uint64_t salt = 1000 + t * 10 + l;
	wholememory_handle_t h;
	OK(wholememory_malloc(&h, total, c, t, l, 8, NULL));
	wholememory_comm_t hc;
	OK(wholememory_get_communicator(&hc, h));
	ck_assert_ptr_eq(hc, c);
	size_t plan[8], sizes[8], offs[8];
	OK(wholememory_equal_entry_partition_plan(plan, total / 8, s));
	OK(wholememory_get_rank_partition_sizes(sizes, h));
	OK(wholememory_get_rank_partition_offsets(offs, h));
	for (int k = 0, o = 0; k < s; o += (int)sizes[k], k++) {
		EQ(sizes[k], plan[k] * 8);
		EQ(offs[k], o);
	}
	uint64_t *lp;
	size_t ls, lo;
	OK(wholememory_get_local_memory((void **)&lp, &ls, &lo, h));
	EQ(ls, sizes[r]);
	EQ(lo, offs[r]);
	for (size_t i = 0; i < ls / 8; i++)
		lp[i] = pat(lo / 8 + i, salt);
	OK(wholememory_communicator_barrier(c));
	for (int k = 0; k < s; k++) {
		void *rp;
		size_t rs, ro;
		int e = wholememory_get_rank_memory(&rp, &rs, &ro, k, h);
		if (t == WHOLEMEMORY_MT_DISTRIBUTED && k != r) {
			EQ(e, WHOLEMEMORY_INVALID_INPUT);
			continue;
		}
		OK(e);
		EQ(rs, sizes[k]);
		EQ(ro, offs[k]);
		ALL(rs / 8, ((uint64_t *)rp)[i] == pat(ro / 8 + i, salt));
	}
	void *gp;
	wholememory_gref_t g;
	EQ(wholememory_get_global_pointer(&gp, h), WHOLEMEMORY_INVALID_INPUT);
	EQ(wholememory_get_global_reference(&g, h), WHOLEMEMORY_INVALID_INPUT);
	wholememory_comm_t lc, xc;
	if (t == WHOLEMEMORY_MT_HIERARCHY) {
		int z;
		OK(wholememory_get_local_communicator(&lc, h));
		OK(wholememory_get_cross_communicator(&xc, h));
		OK(wholememory_communicator_get_size(&z, lc));
		EQ(z, s);
		OK(wholememory_communicator_get_size(&z, xc));
		EQ(z, 1);
	} else {
		EQ(wholememory_get_local_communicator(&lc, h),
		   WHOLEMEMORY_NOT_SUPPORTED);
	}
	/* every row by gather, in reverse */
	int64_t idx[128];
	uint64_t buf[128 * 3];
	for (size_t i = 0; i < nrow; i++)
		idx[i] = (int64_t)(nrow - 1 - i);
	OK(wholememoryx_gather(h, idx, nrow, buf, eb));
	ALL(nrow * 3, buf[i] == pat((uint64_t)idx[i / 3] * 3 + i % 3, salt));
	OK(wholememory_communicator_barrier(c));
	/* the last rank scatters every row three times in one call: the
	 * last copy of each index (~pat) must win */
	if (r == s - 1) {
		for (size_t i = 0; i < 3 * nrow; i++) {
			idx[i] = (int64_t)(i % nrow);
			for (int k = 0; k < 3; k++) {
				uint64_t v = pat((uint64_t)idx[i] * 3 + k,
						 salt);
				buf[3 * i + k] = i / nrow == 2 ? ~v :
					v + 1 + i / nrow;
			}
		}
		OK(wholememoryx_scatter(h, idx, 3 * nrow, buf, eb));
	}
	OK(wholememory_communicator_barrier(c));
	/* stores: this rank's partition holds the last values */
	ALL(ls / 8, lp[i] == ~pat(lo / 8 + i, salt));
	/* loads: random rows with duplicates */
	for (int i = 0; i < 64; i++)
		idx[i] = i % 7 == 0 ? 1 : rand() % (int)nrow;
	memset(buf, 0, sizeof(buf));
	OK(wholememoryx_gather(h, idx, 64, buf, eb));
	ALL(64 * 3, buf[i] == ~pat((uint64_t)idx[i / 3] * 3 + i % 3, salt));
	OK(wholememory_communicator_barrier(c));
	OK(wholememory_free(h));
}

START_TEST(test_subcomm_types)
{
	/* DISTRIBUTED and HIERARCHY on communicators of part of the world:
	 * split by parity, and the first np - 1 ranks (3 of 4) */
	srand(99 + me);
	wholememory_comm_t c[2] = { NULL, NULL };
	OK(wholememory_split_communicator(&c[0], world, me % 2, me));
	int first = np > 1 ? np - 1 : 1;
	OK(wholememory_split_communicator(&c[1], world,
		me < first ? 0 : WHOLEMEMORY_SPLIT_NOCOLOR, me));
	if (me >= first)
		ck_assert_ptr_null(c[1]);
	for (int k = 0; k < 2; k++) {
		if (!c[k])
			continue;
		for (int l = 0; l < 2; l++) {
			sub_type(c[k], WHOLEMEMORY_MT_DISTRIBUTED, locs[l]);
			sub_type(c[k], WHOLEMEMORY_MT_HIERARCHY, locs[l]);
		}
		OK(wholememory_destroy_communicator(c[k]));
	}
	OK(wholememory_communicator_barrier(world));
	test_done = true;
}
END_TEST

START_TEST(test_scatter_dups)
{
	/* every rank scatters to every row, each index several times, in
	 * turn: the last index of each row wins, on every type */
	for (int t = 0; t < 4; t++) {
		wholememory_handle_t h;
		size_t eb = 16, nrow = 8 * (size_t)np + 3;
		OK(wholememory_malloc(&h, eb * nrow, world, types[t],
				      WHOLEMEMORY_ML_HOST, 16, NULL));
		for (int who = 0; who < np; who++) {
			if (who == me) {
				int64_t idx[4 * 64];
				uint64_t buf[4 * 64 * 2];
				size_t n = 4 * nrow;
				for (size_t i = 0; i < n; i++) {
					idx[i] = (int64_t)((i * 2) % nrow);
					buf[2 * i] = i;
					buf[2 * i + 1] = (uint64_t)me;
				}
				OK(wholememoryx_scatter(h, idx, n, buf, eb));
			}
			OK(wholememory_communicator_barrier(world));
		}
		/* row j's last index: the largest i < 4 * nrow with 2i = j
		 * (mod nrow, odd: every row 4 times) */
		int64_t all[64];
		uint64_t out[64 * 2];
		for (size_t j = 0; j < nrow; j++)
			all[j] = (int64_t)j;
		OK(wholememoryx_gather(h, all, nrow, out, eb));
		size_t bad = 0;
		for (size_t j = 0; j < nrow; j++) {
			size_t last = 0;
			for (size_t i = 0; i < 4 * nrow; i++)
				if ((i * 2) % nrow == j)
					last = i;
			bad += out[2 * j] != last ||
			       out[2 * j + 1] != (uint64_t)(np - 1);
		}
		ck_assert_uint_eq(bad, 0);
		OK(wholememory_communicator_barrier(world));
		OK(wholememory_free(h));
	}
	test_done = true;
}
END_TEST

/* The lines of the library written to stderr while fn runs. */
static void
stderr_of(void (*fn)(void), char *out, size_t cap)
{
	char p[64];
	snprintf(p, sizeof(p), "/tmp/wm_pe_log.%d", (int)getpid());
	int fd = open(p, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ck_assert_int_ge(fd, 0);
	unlink(p);
	fflush(stderr);
	int saved = fcntl(2, F_DUPFD_CLOEXEC, 3);
	ck_assert_int_ge(saved, 0);
	EQ(dup2(fd, 2), 2);
	fn();
	fflush(stderr);
	EQ(dup2(saved, 2), 2);
	close(saved);
	ssize_t n = pread(fd, out, cap - 1, 0);
	out[n > 0 ? n : 0] = 0;
	close(fd);
}

static void
log_round(int level)
{
	OK(wholememory_init(0, (LogLevel)level));
	wholememory_handle_t h;
	OK(wholememory_malloc(&h, 64, world, WHOLEMEMORY_MT_CHUNKED,
			      WHOLEMEMORY_ML_HOST, 8, NULL));
	/* an error of this rank alone (no collective): an error line */
	int64_t bad = -1;
	char b[8];
	EQ(wholememoryx_gather(h, &bad, 1, b, 8), WHOLEMEMORY_INVALID_VALUE);
	OK(wholememory_free(h));
}

static void log_debug(void) { log_round(LEVEL_DEBUG); }
static void log_error(void) { log_round(LEVEL_ERROR); }
static void log_fatal(void) { log_round(LEVEL_FATAL); }

START_TEST(test_log_level)
{
	/* wholememory_init's level is the threshold of the library's lines
	 * (ZEMEM_LOG_LEVEL=error here, naming no topic) */
	static char text[16384];
	stderr_of(log_debug, text, sizeof(text));
	ck_assert_ptr_nonnull(strstr(text, " debug wm: wholememory_init: "));
	ck_assert_ptr_nonnull(strstr(text, " debug wm: wholememory_malloc: "));
	stderr_of(log_error, text, sizeof(text));
	ck_assert_ptr_null(strstr(text, " debug wm:"));
	ck_assert_ptr_null(strstr(text, " info wm:"));
	ck_assert_ptr_nonnull(strstr(text, " error wm: check: index -1"));
	stderr_of(log_fatal, text, sizeof(text));
	ck_assert_ptr_null(strstr(text, " wm: "));
	EQ(wholememory_init(0, (LogLevel)(LEVEL_TRACE + 1)),
	   WHOLEMEMORY_INVALID_VALUE);
	OK(wholememory_init(0, LEVEL_INFO));
	test_done = true;
}
END_TEST

START_TEST(test_gather_scatter)
{
	srand(1234);
	for (int t = 0; t < 4; t++) {
		wholememory_handle_t h;
		size_t eb = 24, rows = 37, total = eb * rows;
		/* granularity 8: rows of 24 bytes straddle partitions */
		OK(wholememory_malloc(&h, total, world, types[t],
				      WHOLEMEMORY_ML_HOST, 8, NULL));
		/* rank 0 scatters every row (its value = row number) */
		int64_t idx[64];
		uint64_t buf[64 * 3];
		if (me == 0) {
			for (size_t i = 0; i < rows; i++) {
				idx[i] = (int64_t)(rows - 1 - i);
				for (int k = 0; k < 3; k++)
					buf[3 * i + k] = idx[i] * 10 + k;
			}
			OK(wholememoryx_scatter(h, idx, rows, buf, eb));
		}
		OK(wholememory_communicator_barrier(world));
		/* every rank gathers random rows, with duplicates */
		for (int i = 0; i < 64; i++)
			idx[i] = i % 5 == 0 ? 3 : rand() % (int)rows;
		memset(buf, 0, sizeof(buf));
		OK(wholememoryx_gather(h, idx, 64, buf, eb));
		ALL(64 * 3, buf[i] == (uint64_t)idx[i / 3] * 10 + i % 3);
		/* out of range: nothing copied */
		int64_t bad[2] = { 1, (int64_t)rows };
		buf[0] = 777;
		EQ(wholememoryx_gather(h, bad, 2, buf, eb),
		   WHOLEMEMORY_INVALID_VALUE);
		ck_assert_uint_eq(buf[0], 777);
		bad[1] = -1;
		EQ(wholememoryx_scatter(h, bad, 2, buf, eb),
		   WHOLEMEMORY_INVALID_VALUE);
		EQ(wholememoryx_gather(h, bad, 0, NULL, eb),
		   WHOLEMEMORY_SUCCESS);
		EQ(wholememoryx_gather(h, idx, 1, NULL, eb),
		   WHOLEMEMORY_INVALID_INPUT);
		OK(wholememory_communicator_barrier(world));
		OK(wholememory_free(h));
	}
	test_done = true;
}
END_TEST

static char tmpdir[] = "/tmp/wm_pe_XXXXXX";

static void
path(char *out, const char *name, int r)
{
	snprintf(out, 256, "%s/%s.%d", tmpdir, name, r);
}

static void
write_file(const char *p, const void *buf, size_t len)
{
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ck_assert_int_ge(fd, 0);
	EQ(write(fd, buf, len), (ssize_t)len);
	close(fd);
}

/* Records of 16 bytes: two words (record number, ~record number). */
static void
rec_of(uint64_t i, uint64_t *w)
{
	w[0] = i;
	w[1] = ~i;
}

static void
check_load(wholememory_memory_type_t t, int rr, size_t nrec, int nfiles)
{
	/* table entries of 32 bytes, records of 16 at offset 8 */
	size_t entries = 6 * np + 2, mes = 32, fes = 16, moff = 8;
	wholememory_handle_t h;
	OK(wholememory_malloc(&h, entries * mes, world, t,
			      WHOLEMEMORY_ML_HOST, mes, NULL));
	char names[4][256];
	const char *fn[4];
	if (me == 0) {
		size_t per = nrec / nfiles, at = 0;
		for (int f = 0; f < nfiles; f++) {
			size_t n = f == nfiles - 1 ? nrec - at : per;
			uint64_t *b = calloc(n ? n : 1, fes);
			for (size_t i = 0; i < n; i++)
				rec_of(at + i, b + 2 * i);
			path(names[f], "in", f);
			write_file(names[f], b, n * fes);
			free(b);
			at += n;
		}
	}
	for (int f = 0; f < nfiles; f++) {
		path(names[f], "in", f);
		fn[f] = names[f];
	}
	OK(wholememory_communicator_barrier(world));
	char *lp;
	size_t ls, lo;
	OK(wholememory_get_local_memory((void **)&lp, &ls, &lo, h));
	memset(lp, 0xee, ls);
	OK(wholememory_load_from_file(h, moff, mes, fes, fn, nfiles, rr));
	size_t slots = ls / mes;
	for (size_t s = 0; s < slots; s++) {
		/* which record lands in this slot */
		int64_t rec;
		if (rr == 0) {
			rec = (int64_t)(lo / mes + s);
		} else {
			size_t k = s / rr, j = s % rr;
			rec = (int64_t)(((size_t)me + k * np) * rr + j);
		}
		uint64_t *w = (uint64_t *)(lp + s * mes);
		ck_assert_uint_eq(w[0], 0xeeeeeeeeeeeeeeeeull);
		ck_assert_uint_eq(w[3], 0xeeeeeeeeeeeeeeeeull);
		if ((size_t)rec < nrec) {
			ck_assert_uint_eq(w[1], (uint64_t)rec);
			ck_assert_uint_eq(w[2], ~(uint64_t)rec);
		} else {
			ck_assert_uint_eq(w[1], 0xeeeeeeeeeeeeeeeeull);
		}
	}
	/* store: each rank its partition; loading the files in rank order
	 * gives the same table back (round_robin 0 layout) */
	if (rr == 0) {
		char out[256];
		path(out, "out", me);
		OK(wholememory_store_to_file(h, moff, mes, fes, out));
		OK(wholememory_communicator_barrier(world));
		char on[8][256];
		const char *ofn[8];
		for (int r = 0; r < np; r++) {
			path(on[r], "out", r);
			ofn[r] = on[r];
		}
		char *save = malloc(ls);
		memcpy(save, lp, ls);
		memset(lp, 0xee, ls);
		OK(wholememory_load_from_file(h, moff, mes, fes, ofn, np, 0));
		for (size_t s = 0; s < slots; s++)
			EQ(memcmp(lp + s * mes + moff, save + s * mes + moff,
				  fes), 0);
		free(save);
		OK(wholememory_communicator_barrier(world));
		unlink(out);
	}
	OK(wholememory_communicator_barrier(world));
	if (me == 0)
		for (int f = 0; f < nfiles; f++)
			unlink(names[f]);
	OK(wholememory_free(h));
}

START_TEST(test_files)
{
	if (me == 0)
		ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	/* every rank the same directory name: rank 0's, by a file */
	wholememory_handle_t h;
	OK(wholememory_malloc(&h, 64 * np, world, WHOLEMEMORY_MT_CONTINUOUS,
			      WHOLEMEMORY_ML_HOST, 64, NULL));
	char *gp;
	OK(wholememory_get_global_pointer((void **)&gp, h));
	if (me == 0)
		memcpy(gp, tmpdir, sizeof(tmpdir));
	OK(wholememory_communicator_barrier(world));
	memcpy(tmpdir, gp, sizeof(tmpdir));
	OK(wholememory_free(h));
	size_t full = 6 * np + 2;
	for (int t = 0; t < 4; t++) {
		check_load(types[t], 0, full, 1);
		check_load(types[t], 0, full - 3, 3);  /* fewer records */
		/* 4 * np records: 4 per rank, the last rank holds 5 */
		check_load(types[t], 1, 4 * (size_t)np, 2);
		check_load(types[t], 2, 4 * (size_t)np - 1, 1);
	}
	/* errors, on every rank, memory unchanged */
	size_t mes = 32;
	OK(wholememory_malloc(&h, mes * 4 * np, world,
			      WHOLEMEMORY_MT_CHUNKED, WHOLEMEMORY_ML_HOST, mes,
			      NULL));
	char *lp;
	size_t ls, lo;
	OK(wholememory_get_local_memory((void **)&lp, &ls, &lo, h));
	memset(lp, 0x11, ls);
	char miss[256], shortf[256], big[256];
	path(miss, "missing", 0);
	path(shortf, "short", 0);
	path(big, "big", 0);
	if (me == 0) {
		char b[64 * 100] = { 0 };
		write_file(shortf, b, 16 * 3 + 5);
		write_file(big, b, 16 * (4 * np + 1));
	}
	OK(wholememory_communicator_barrier(world));
	const char *fn = miss;
	EQ(wholememory_load_from_file(h, 0, mes, 16, &fn, 1, 0),
	   WHOLEMEMORY_INVALID_INPUT);
	fn = shortf;
	EQ(wholememory_load_from_file(h, 0, mes, 16, &fn, 1, 0),
	   WHOLEMEMORY_INVALID_INPUT);
	fn = big; /* more records than entries */
	EQ(wholememory_load_from_file(h, 0, mes, 16, &fn, 1, 0),
	   WHOLEMEMORY_INVALID_INPUT);
	/* one rank misses the file */
	fn = me == np - 1 ? miss : shortf;
	EQ(wholememory_load_from_file(h, 0, mes, 16, &fn, 1, 0),
	   WHOLEMEMORY_INVALID_INPUT);
	fn = big;
	EQ(wholememory_load_from_file(h, 24, mes, 16, &fn, 1, 0),
	   WHOLEMEMORY_INVALID_VALUE); /* record past the entry */
	EQ(wholememory_load_from_file(h, 0, 24, 16, &fn, 1, 0),
	   WHOLEMEMORY_INVALID_VALUE); /* entry does not divide partitions */
	EQ(wholememory_load_from_file(h, 0, mes, 16, &fn, 1, -1),
	   WHOLEMEMORY_INVALID_VALUE);
	EQ(wholememory_load_from_file(h, 0, mes, 16, NULL, 1, 0),
	   WHOLEMEMORY_INVALID_INPUT);
	if (np > 1) {
		/* round robin 3 of 4*np+1 records: rank 0 needs 6 > 4 */
		char rrf[256];
		path(rrf, "rr", 0);
		if (me == 0) {
			char b[16 * 40] = { 0 };
			write_file(rrf, b, 16 * 4 * np);
		}
		OK(wholememory_communicator_barrier(world));
		fn = rrf;
		EQ(wholememory_load_from_file(h, 0, mes, 16, &fn, 1, 3),
		   WHOLEMEMORY_INVALID_VALUE);
		OK(wholememory_communicator_barrier(world));
		if (me == 0)
			unlink(rrf);
		/* mismatched arguments */
		fn = big;
		EQ(wholememory_load_from_file(h, 0, mes, me ? 16 : 8, &fn, 1,
					      0),
		   WHOLEMEMORY_INVALID_INPUT);
	}
	ALL(ls, lp[i] == 0x11);
	/* store into a directory that does not exist */
	char nodir[300];
	snprintf(nodir, sizeof(nodir), "%s/no/such/dir", tmpdir);
	EQ(wholememory_store_to_file(h, 0, mes, 16, nodir),
	   WHOLEMEMORY_SYSTEM_ERROR);
	EQ(wholememory_store_to_file(h, 0, mes, 40, nodir),
	   WHOLEMEMORY_INVALID_VALUE);
	OK(wholememory_communicator_barrier(world));
	if (me == 0) {
		unlink(shortf);
		unlink(big);
		ck_assert_int_eq(rmdir(tmpdir), 0);
	}
	OK(wholememory_free(h));
	test_done = true;
}
END_TEST

START_TEST(test_no_leaks)
{
	/* one round to warm the heap up, then nothing may stay behind */
	for (int round = 0; round < 2; round++) {
		struct leakcheck lc;
		if (round)
			leakcheck_begin(&lc);
		for (int t = 0; t < 4; t++)
			for (int l = 0; l < 2; l++) {
				wholememory_handle_t h;
				OK(wholememory_malloc(&h, 8 << 10, world,
						      types[t], locs[l], 64,
						      NULL));
				OK(wholememory_free(h));
				/* a tensor, and a gather that converts
				 * (temporary memory on DISTRIBUTED) */
				wholememory_tensor_description_t d;
				wholememory_initialize_tensor_desc(&d);
				d.dim = 2;
				d.sizes[0] = 64;
				d.sizes[1] = d.strides[0] = 16;
				d.dtype = WHOLEMEMORY_DT_FLOAT;
				wholememory_tensor_t tt, ti, to;
				OK(wholememory_create_tensor(&tt, &d, world,
							     types[t], locs[l],
							     NULL));
				int64_t ix[4] = { 63, 0, 5, 5 };
				uint16_t hv[4 * 16];
				wholememory_tensor_description_t id = d, od = d;
				id.dim = 1;
				id.sizes[0] = 4;
				id.strides[0] = 1;
				id.dtype = WHOLEMEMORY_DT_INT64;
				od.sizes[0] = 4;
				od.dtype = WHOLEMEMORY_DT_HALF;
				OK(wholememory_make_tensor_from_pointer(&ti, ix,
									&id));
				OK(wholememory_make_tensor_from_pointer(&to, hv,
									&od));
				OK(wholememory_gather(tt, ti, to, NULL, NULL,
						      -1));
				OK(wholememory_destroy_tensor(ti));
				OK(wholememory_destroy_tensor(to));
				OK(wholememory_communicator_barrier(world));
				OK(wholememory_destroy_tensor(tt));
			}
		wm_emb_leak_round();
		wholememory_comm_t c;
		OK(wholememory_split_communicator(&c, world, 0, 0));
		OK(wholememory_destroy_communicator(c));
		OK(wholememory_communicator_barrier(world));
		if (round)
			leakcheck_end(&lc);
	}
	test_done = true;
}
END_TEST

static Suite *
wm_suite(void)
{
	Suite *s = suite_create("wholememory");
	TCase *tc = tcase_create("job");
	tcase_set_timeout(tc, 120);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_partition_plan);
	tcase_add_test(tc, test_comm_info);
	tcase_add_test(tc, test_bad_handles);
	tcase_add_test(tc, test_split);
	tcase_add_test(tc, test_types);
	tcase_add_test(tc, test_global_stores);
	tcase_add_test(tc, test_malloc_errors);
	tcase_add_test(tc, test_subcomm);
	tcase_add_test(tc, test_gather_scatter);
	tcase_add_test(tc, test_subcomm_types);
	tcase_add_test(tc, test_scatter_dups);
	tcase_add_test(tc, test_log_level);
	tcase_add_test(tc, test_files);
	wm_tensor_tests(tc);
	wm_emb_tests(tc);
	wm_graph_tests(tc);
	tcase_add_test(tc, test_no_leaks);
	suite_add_tcase(s, tc);
	return s;
}


/* ---- several nodes: "wm_pe multinode" ---------------------------------
 * A job of NODES x PPN ranks (consecutive ranks per node; PPN from
 * SHMEM_PE_NODE_PES, 1 when unset), started by tests/shmem/netns_job.sh
 * (network namespaces) or by zeshrun with ZESHMEM_FORCE_NETWORK=1 (every
 * rank a node). Prints "PE <rank>: multinode ok" when every check held. */
static int mn_fail;
#define MN(cond)                                                         \
	do {                                                             \
		if (!(cond)) {                                           \
			fprintf(stderr, "PE %d: %s:%d: %s\n", me, __FILE__, \
				__LINE__, #cond);                        \
			mn_fail++;                                       \
		}                                                        \
	} while (0)

static void
mn_type(wholememory_memory_type_t t, int ppn)
{
	size_t gran = 16, rows = 7 * (size_t)np + 3, total = gran * rows;
	wholememory_handle_t h;
	MN(wholememory_malloc(&h, total, world, t, WHOLEMEMORY_ML_HOST, gran,
			      NULL) == WHOLEMEMORY_SUCCESS);
	uint64_t *lp;
	size_t ls, lo;
	MN(wholememory_get_local_memory((void **)&lp, &ls, &lo, h) == 0);
	for (size_t i = 0; i < ls / 8; i++)
		lp[i] = pat(lo / 8 + i, t);
	MN(wholememory_communicator_barrier(world) == 0);
	/* every row by gather (RMA for other nodes) */
	int64_t *idx = malloc(sizeof(int64_t) * rows);
	uint64_t *out = malloc(total);
	for (size_t i = 0; i < rows; i++)
		idx[i] = (int64_t)((i * 5 + (size_t)me) % rows);
	MN(wholememoryx_gather(h, idx, rows, out, gran) == 0);
	size_t bad = 0;
	for (size_t i = 0; i < rows; i++)
		for (int k = 0; k < 2; k++)
			bad += out[2 * i + k] != pat((size_t)idx[i] * 2 + k, t);
	MN(bad == 0);
	/* the last rank scatters the reverse of every row, after a first
	 * value of every row in the same call (the last index wins) */
	MN(wholememory_communicator_barrier(world) == 0);
	if (me == np - 1) {
		int64_t *i2 = malloc(sizeof(int64_t) * 2 * rows);
		uint64_t *o2 = malloc(2 * total);
		for (size_t i = 0; i < 2 * rows; i++) {
			size_t j = i % rows;
			bool last = i >= rows;
			i2[i] = (int64_t)j;
			o2[2 * i] = last ? ~pat(2 * j, t) : 5;
			o2[2 * i + 1] = last ? ~pat(2 * j + 1, t) : 6;
		}
		MN(wholememoryx_scatter(h, i2, 2 * rows, o2, gran) == 0);
		free(i2);
		free(o2);
	}
	MN(wholememory_communicator_barrier(world) == 0);
	bad = 0;
	for (size_t i = 0; i < ls / 8; i++)
		bad += lp[i] != ~pat(lo / 8 + i, t);
	MN(bad == 0);
	/* rank memory: this node's ranks (HIERARCHY) or none */
	int node = me / ppn;
	for (int r = 0; r < np; r++) {
		void *rp;
		size_t rs, ro;
		int e = wholememory_get_rank_memory(&rp, &rs, &ro, r, h);
		bool reach = r == me || (t == WHOLEMEMORY_MT_HIERARCHY &&
					 r / ppn == node);
		MN(e == (reach ? WHOLEMEMORY_SUCCESS :
				 WHOLEMEMORY_INVALID_INPUT));
		if (!e)
			MN(((uint64_t *)rp)[0] == ~pat(ro / 8, t));
	}
	if (t == WHOLEMEMORY_MT_HIERARCHY) {
		wholememory_comm_t lc, xc;
		int s = -1, r = -1;
		MN(wholememory_get_local_communicator(&lc, h) == 0);
		MN(wholememory_communicator_get_size(&s, lc) == 0 && s == ppn);
		MN(wholememory_communicator_get_rank(&r, lc) == 0 &&
		   r == me % ppn);
		MN(wholememory_get_cross_communicator(&xc, h) == 0);
		MN(wholememory_communicator_get_size(&s, xc) == 0 &&
		   s == np / ppn);
		MN(wholememory_communicator_get_rank(&r, xc) == 0 &&
		   r == node);
		MN(wholememory_communicator_barrier(xc) == 0);
	}
	free(idx);
	free(out);
	MN(wholememory_free(h) == 0);
}

static int
multinode(void)
{
	const char *e = getenv("SHMEM_PE_NODE_PES");
	int ppn = e ? atoi(e) : 1;
	if (ppn < 1 || np % ppn)
		ppn = 1;
	int nodes = np / ppn;
	int l = -1;
	MN(wholememory_communicator_get_local_size(&l, world) == 0 &&
	   l == ppn);
	clique_info_t ci;
	MN(wholememory_communicator_get_clique_info(&ci, world) == 0);
	MN(ci.is_in_clique == 1 && ci.clique_first_rank == me / ppn * ppn &&
	   ci.clique_rank == me % ppn && ci.clique_rank_num == ppn &&
	   ci.clique_id == me / ppn && ci.clique_num == nodes);
	MN(wholememory_is_intranode_communicator(world) == (nodes == 1));
	int want = nodes == 1 ? WHOLEMEMORY_SUCCESS :
				WHOLEMEMORY_NOT_SUPPORTED;
	for (int t = 0; t < 2; t++)
		for (int l2 = 0; l2 < 2; l2++) {
			MN(wholememory_communicator_support_type_location(
				   world, types[t], locs[l2]) == (wholememory_error_code_t)want);
			wholememory_handle_t h = NULL;
			int r = wholememory_malloc(&h, 1024, world, types[t],
						   locs[l2], 8, NULL);
			MN(r == want);
			if (!r)
				wholememory_free(h);
		}
	/* a node's own communicator maps again */
	wholememory_comm_t nc = NULL;
	MN(wholememory_split_communicator(&nc, world, me / ppn, me) == 0);
	MN(wholememory_is_intranode_communicator(nc));
	wholememory_handle_t h = NULL;
	MN(wholememory_malloc(&h, 4096, nc, WHOLEMEMORY_MT_CONTINUOUS,
			      WHOLEMEMORY_ML_HOST, 8, NULL) == 0);
	if (h)
		MN(wholememory_free(h) == 0);
	MN(wholememory_destroy_communicator(nc) == 0);
	/* part of the job: one node maps (DISTRIBUTED / HIERARCHY too),
	 * several nodes are NOT_SUPPORTED (no RMA on memory that only
	 * some PEs allocated) */
	int first = np - 1;
	MN(wholememory_split_communicator(&nc, world,
		me < first ? 0 : WHOLEMEMORY_SPLIT_NOCOLOR, me) == 0);
	if (me < first) {
		int w2 = (first - 1) / ppn == 0 ? WHOLEMEMORY_SUCCESS :
						   WHOLEMEMORY_NOT_SUPPORTED;
		for (int t = 2; t < 4; t++) {
			MN(wholememory_communicator_support_type_location(
				   nc, types[t], WHOLEMEMORY_ML_HOST) ==
			   (wholememory_error_code_t)w2);
			h = NULL;
			int r = wholememory_malloc(&h, 1024, nc, types[t],
						   WHOLEMEMORY_ML_HOST, 8,
						   NULL);
			MN(r == w2);
			if (!r)
				MN(wholememory_free(h) == 0);
		}
		MN(wholememory_destroy_communicator(nc) == 0);
	}
	mn_type(WHOLEMEMORY_MT_DISTRIBUTED, ppn);
	mn_type(WHOLEMEMORY_MT_HIERARCHY, ppn);
	mn_fail += wm_emb_multinode();
	mn_fail += wm_graph_multinode();
	MN(wholememory_communicator_barrier(world) == 0);
	if (!mn_fail)
		printf("PE %d: multinode ok\n", me);
	fflush(stdout);
	return mn_fail ? 1 : 0;
}

/* ---- squatters (issue 26, point 3) -------------------------------------- */

/* Names the sockets of the partitions' fds had before they took a random
 * nonce: "zewm-<pid>-<communicator id>-<collective count>", the ids of
 * the first communicators a job makes (k << 20) and the counts a job
 * reaches early. */
#define SQ_IDS 2
#define SQ_SEQS 256

/* A child that became uid/gid 65534 and bound (abstract, listening)
 * every name the old scheme gave this rank's sockets, and any name of
 * the new scheme with a nonce it could guess (0 .. SQ_SEQS - 1). It
 * reports how many it holds on *ready, then holds them until its stop
 * pipe closes. 0, or -1 (cannot become another uid: reason printed). */
static int
squat_start(pid_t *child, int *stop_w, long *held)
{
	static struct sockaddr_un names[SQ_IDS * SQ_SEQS + SQ_SEQS];
	static socklen_t lens[SQ_IDS * SQ_SEQS + SQ_SEQS];
	int k = 0, pid = (int)getpid();
	for (int id = 1; id <= SQ_IDS; id++)
		for (int q = 0; q < SQ_SEQS; q++, k++) {
			names[k].sun_family = AF_UNIX;
			int n = snprintf(names[k].sun_path + 1,
					 sizeof(names[k].sun_path) - 1,
					 "zewm-%d-%llx-%llx", pid,
					 (unsigned long long)id << 20,
					 (unsigned long long)q);
			lens[k] = (socklen_t)(offsetof(struct sockaddr_un,
						       sun_path) + 1 + n);
		}
	for (int q = 0; q < SQ_SEQS; q++, k++) {
		names[k].sun_family = AF_UNIX;
		int n = snprintf(names[k].sun_path + 1,
				 sizeof(names[k].sun_path) - 1,
				 "zewm-%d-%016llx", pid,
				 (unsigned long long)q);
		lens[k] = (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
				      1 + n);
	}
	int rp[2], sp[2];
	if (pipe2(rp, O_CLOEXEC) || pipe2(sp, O_CLOEXEC))
		return -1;
	pid_t c = fork();
	if (c == 0) {
		/* async-signal-safe calls only: the rank has threads */
		close(rp[0]);
		close(sp[1]);
		long n = -1;
		struct rlimit rl;
		if (getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
		    rl.rlim_cur < rl.rlim_max) {
			rl.rlim_cur = rl.rlim_max;
			setrlimit(RLIMIT_NOFILE, &rl);
		}
		if (setgroups(0, NULL) == 0 && setgid(65534) == 0 &&
		    setuid(65534) == 0 && getuid() == 65534) {
			n = 0;
			for (int i = 0; i < k; i++) {
				int s = socket(AF_UNIX, SOCK_STREAM |
					       SOCK_CLOEXEC, 0);
				if (s >= 0 &&
				    bind(s, (struct sockaddr *)&names[i],
					 lens[i]) == 0 &&
				    listen(s, 4) == 0)
					n++;
			}
		}
		if (write(rp[1], &n, sizeof(n)) != sizeof(n))
			_exit(2);
		char b;
		while (read(sp[0], &b, 1) < 0)
			;
		_exit(0);
	}
	close(rp[1]);
	close(sp[0]);
	long n = -1;
	ssize_t r = c > 0 ? read(rp[0], &n, sizeof(n)) : -1;
	close(rp[0]);
	*child = c;
	*stop_w = sp[1];
	*held = r == (ssize_t)sizeof(n) ? n : -1;
	return 0;
}

static int sq_fail;
#define SQ(cond)                                                         \
	do {                                                             \
		if (!(cond)) {                                           \
			fprintf(stderr, "PE %d: %s:%d: %s\n", me,        \
				__FILE__, __LINE__, #cond);              \
			sq_fail = 1;                                     \
		}                                                        \
	} while (0)

/* One mapped table per type and location: every rank writes its
 * partition, every rank reads the whole table through the global range. */
static void
squat_malloc(wholememory_memory_type_t t, wholememory_memory_location_t l)
{
	size_t words = 4096 * (size_t)np + 24, total = words * 8;
	wholememory_handle_t h = NULL;
	SQ(wholememory_malloc(&h, total, world, t, l, 8, NULL) ==
	   WHOLEMEMORY_SUCCESS);
	if (!h)
		return;
	void *lp = NULL, *gp = NULL;
	size_t lsz = 0, loff = 0;
	SQ(wholememory_get_local_memory(&lp, &lsz, &loff, h) == 0);
	SQ(wholememory_get_global_pointer(&gp, h) == 0);
	uint64_t *mine = lp;
	for (size_t i = 0; lp && gp && i < lsz / 8; i++)
		mine[i] = pat(loff / 8 + i, (uint64_t)t * 2 + l);
	SQ(wholememory_communicator_barrier(world) == 0);
	size_t bad = 0;
	const uint64_t *all = gp;
	for (size_t i = 0; gp && i < words; i++)
		bad += all[i] != pat(i, (uint64_t)t * 2 + l);
	SQ(bad == 0);
	SQ(wholememory_communicator_barrier(world) == 0);
	SQ(wholememory_free(h) == 0);
}

static int
squat_job(void)
{
	const char *tr = getenv("ZEMEM_IPC_TRANSPORT");
	if (!tr || strcmp(tr, "broker")) {
		fprintf(stderr, "wm_pe squat: needs ZEMEM_IPC_TRANSPORT=broker\n");
		return 1;
	}
	pid_t child = -1;
	int stop_w = -1;
	long held = -1;
	SQ(squat_start(&child, &stop_w, &held) == 0);
	/* every rank runs as the same user: all squat or none does */
	int skip = held < 0;
	if (!skip) {
		SQ(held == SQ_IDS * SQ_SEQS + SQ_SEQS);
		squat_malloc(WHOLEMEMORY_MT_CONTINUOUS, WHOLEMEMORY_ML_HOST);
		squat_malloc(WHOLEMEMORY_MT_CONTINUOUS, WHOLEMEMORY_ML_DEVICE);
		squat_malloc(WHOLEMEMORY_MT_CHUNKED, WHOLEMEMORY_ML_HOST);
	}
	if (stop_w >= 0)
		close(stop_w);
	int st = 0;
	if (child > 0)
		SQ(waitpid(child, &st, 0) == child && WIFEXITED(st) &&
		   WEXITSTATUS(st) == 0);
	if (skip) {
		printf("PE %d: skipped: cannot become uid 65534 (not root)\n",
		       me);
		return 77;
	}
	if (!sq_fail)
		printf("PE %d: squat ok (%ld names held by uid 65534)\n", me,
		       held);
	fflush(stdout);
	return sq_fail;
}

/* A job of one process through the unique id. */
static int
uid_job(void)
{
	wholememory_unique_id_t uid;
	wholememory_comm_t c;
	if (wholememory_create_unique_id(&uid) != WHOLEMEMORY_LOGIC_ERROR)
		return 1; /* before init */
	if (wholememory_init(1, LEVEL_INFO) != WHOLEMEMORY_INVALID_VALUE ||
	    wholememory_init(0, LEVEL_INFO) != WHOLEMEMORY_SUCCESS ||
	    wholememory_create_unique_id(NULL) != WHOLEMEMORY_INVALID_INPUT ||
	    wholememory_create_unique_id(&uid) != WHOLEMEMORY_SUCCESS)
		return 2;
	if (wholememory_create_communicator(&c, uid, 1, 1) !=
	    WHOLEMEMORY_INVALID_VALUE)
		return 3;
	if (wholememory_create_communicator(&c, uid, 0, 1) !=
	    WHOLEMEMORY_SUCCESS)
		return 4;
	int r = -1, s = -1;
	wholememory_communicator_get_rank(&r, c);
	wholememory_communicator_get_size(&s, c);
	if (r != 0 || s != 1)
		return 5;
	/* one job per process */
	if (wholememory_create_unique_id(&uid) != WHOLEMEMORY_NOT_SUPPORTED)
		return 6;
	wholememory_handle_t h;
	if (wholememory_malloc(&h, 4096, c, WHOLEMEMORY_MT_CONTINUOUS,
			       WHOLEMEMORY_ML_DEVICE, 8, NULL) !=
	    WHOLEMEMORY_SUCCESS)
		return 7;
	void *gp;
	if (wholememory_get_global_pointer(&gp, h) != WHOLEMEMORY_SUCCESS)
		return 8;
	memset(gp, 1, 4096);
	/* left for finalize to free, with the communicator */
	if (wholememory_finalize() != WHOLEMEMORY_SUCCESS)
		return 9;
	printf("wm_pe uid: ok\n");
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "uid"))
		return uid_job();
	if (wholememory_init(0, LEVEL_INFO) != WHOLEMEMORY_SUCCESS ||
	    wholememory_create_communicator_from_env(&world) !=
		    WHOLEMEMORY_SUCCESS) {
		fprintf(stderr, "wm_pe: no communicator\n");
		return 1;
	}
	wholememory_communicator_get_rank(&me, world);
	wholememory_communicator_get_size(&np, world);
	int rc = argc > 1 && !strcmp(argv[1], "multinode") ? multinode()
		 : argc > 1 && !strcmp(argv[1], "squat")   ? squat_job()
		 : check_run(wm_suite(), CK_NORMAL, false);
	int skipped = rc == 77;
	if (skipped)
		rc = 0;
	if (rc || broken) {
		fflush(NULL);
		_exit(1); /* no collective left to a broken job */
	}
	if (wholememory_destroy_communicator(world) != WHOLEMEMORY_SUCCESS)
		rc = 1;
	if (wholememory_finalize() != WHOLEMEMORY_SUCCESS)
		rc = 1;
	return rc ? rc : skipped ? 77 : 0;
}
