// SPDX-License-Identifier: MIT
/*
 * test_rocshmem: rocSHMEM's host API on libzeshmem (<rocshmem/rocshmem.h>),
 * each rule of seed 000 a check case of its own. Every test starts a job
 * of roc_pe (one PE; it checks exact results itself) with zeshrun -n N, or
 * through the unique-id start (roc_pe uid N: rank 0 makes the id and
 * fork+execs the others), on 2 and 3 PEs, and checks the job's status,
 * each PE's "ok" line, the warnings the seed asks for on stderr, and that
 * no fd and no /dev/shm entry survives the job.
 *
 * ZESHMEM_BACKEND (ipc | ro | gda) passes through from the environment to
 * every PE untouched (the same tests run once per backend); the failure
 * messages name it.
 */
#include <check.h>

#include "shm_entries.h"
#include "check_run.h"
#include "job_capture.h"
#include "leakcheck.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define JOB_TIMEOUT_S 120
#define OUT_MAX (256 * 1024)

static char out[OUT_MAX];

/* The end of out (check's failure messages have a size limit). */
static const char *
tail(void)
{
	size_t n = strlen(out);
	return n > 3000 ? out + n - 3000 : out;
}

static const char *
backend(void)
{
	const char *b = getenv("ZESHMEM_BACKEND");
	return b ? b : "(unset)";
}

/* Runs argv with the extra environment entries env ("NAME=value", NULL
 * ended; env may be NULL) after the suite's own; stdout and stderr
 * together land in out. Returns the exit status (128+signal), or -1 when
 * it ran past JOB_TIMEOUT_S (then killed). */
static int
run(char *const argv[], const char *const *env)
{
	const char *all[32] = { "ZESHMEM_SYMMETRIC_SIZE=8M",
				"ZESHMEM_TIMEOUT=30" };
	size_t k = 2;
	for (size_t i = 0; env && env[i] && k < 31; i++)
		all[k++] = env[i];
	int st = job_capture(argv, all, JOB_TIMEOUT_S, out, sizeof(out), NULL);
	ck_assert_int_ne(st, -2);
	return st;
}

/* A job of case c on n PEs: zeshrun (uid 0) or the unique-id start. */
static int
job(int n, int uid, const char *c, const char *const *env)
{
	char nb[16];
	snprintf(nb, sizeof(nb), "%d", n);
	char *zr[] = { (char *)ZESHRUN, "-n", nb, "--", (char *)ROC_PE,
		       (char *)c, NULL };
	char *ud[] = { (char *)ROC_PE, "uid", nb, (char *)c, NULL };
	int shm = shm_entries_ours();
	int st = run(uid ? ud : zr, env);
	ck_assert_msg(shm_entries_ours() == shm, "/dev/shm: %d entries, %d "
		      "before", shm_entries_ours(), shm);
	return st;
}

/* A job of n PEs running case c, each PE saying it passed, nothing left
 * behind. */
static void
ok_job(int n, int uid, const char *c, const char *const *env)
{
	struct leakcheck lc;
	leakcheck_begin(&lc);
	int st = job(n, uid, c, env);
	ck_assert_msg(st == 0, "%s on %d PEs (%s, backend %s): status %d:\n%s",
		      c, n, uid ? "unique id" : "zeshrun", backend(), st, tail());
	for (int pe = 0; pe < n; pe++) {
		char line[128];
		snprintf(line, sizeof(line), "PE %d: %s ok", pe, c);
		ck_assert_msg(strstr(out, line), "no '%s' in:\n%s", line, tail());
	}
	leakcheck_end(&lc);
}

/* _i: bit 0 the unique-id start, bit 1 three PEs (else two). */
static void
ok_case(int i, const char *c, const char *const *env)
{
	ok_job(i & 2 ? 3 : 2, i & 1, c, env);
}

/* The warning line of PE pe naming call with text what. */
static void
expect_warning(int pe, const char *call, const char *what)
{
	char line[256];
	snprintf(line, sizeof(line), "zeshmem: PE %d: %s: %s", pe, call, what);
	ck_assert_msg(strstr(out, line), "no '%s' in:\n%s", line, tail());
}

static int
npes_of(int i)
{
	return i & 2 ? 3 : 2;
}

START_TEST(test_rocshmem_hello)
{
	ok_case(_i, "hello", NULL);
}
END_TEST

/* Every invalid alignment: NULL, a warning naming the call and the rule,
 * no deadlock; <= 128 gives 128-aligned; one PE invalid alone. */
START_TEST(test_rocshmem_align_invalid_null_warned)
{
	ok_case(_i, "align", NULL);
	static const char *const bad[] = { "0", "1", "2", "4", "3", "24",
					   "100", "3145728" };
	for (int pe = 0; pe < npes_of(_i); pe++)
		for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
			char what[128];
			snprintf(what, sizeof(what), "alignment %s is not a "
				 "power of two multiple of sizeof(void *): "
				 "returning NULL", bad[k]);
			expect_warning(pe, "rocshmem_align", what);
		}
	expect_warning(0, "rocshmem_align", "alignment 24 is not a power");
}
END_TEST

/* calloc: 0 and overflow NULL (overflow warned); zeroed; malloc 128. */
START_TEST(test_rocshmem_calloc_zero_overflow)
{
	ok_case(_i, "calloc", NULL);
	for (int pe = 0; pe < npes_of(_i); pe++)
		expect_warning(pe, "rocshmem_calloc", "count 9223372036854775808"
			       " * size 2 overflows size_t: returning NULL");
	/* zero count or size is no warning */
	ck_assert_msg(!strstr(out, "count 0 *") && !strstr(out, "size 0 "),
		      "%s", tail());
}
END_TEST

START_TEST(test_rocshmem_buffer_register_overlap_unknown)
{
	ok_case(_i, "reg", NULL);
	expect_warning(0, "rocshmem_buffer_register", "");
	expect_warning(0, "rocshmem_buffer_unregister", "");
	ck_assert_msg(strstr(out, "overlaps a registered buffer"), "%s",
		      tail());
	ck_assert_msg(strstr(out, "is not the address of a registered buffer"),
		      "%s", tail());
}
END_TEST

/* A registered-only buffer as the remote target ends the PE with one line
 * naming the call and the address. */
START_TEST(test_rocshmem_registered_buffer_remote_ends_pe)
{
	int n = npes_of(_i);
	int st = job(n, _i & 1, "reg_remote", NULL);
	ck_assert_msg(st != 0 && st != -1, "status %d:\n%s", st, tail());
	const char *t = strstr(out, "PE 0: target ");
	ck_assert_msg(t, "%s", tail());
	char addr[32] = "";
	ck_assert_int_eq(sscanf(t, "PE 0: target %31s", addr), 1);
	char line[256];
	snprintf(line, sizeof(line), "zeshmem: PE 0: rocshmem_putmem: dest %s "
		 "is a buffer registered with rocshmem_buffer_register: a "
		 "local buffer, never a remote target (pe %d)\n", addr, n - 1);
	ck_assert_msg(strstr(out, line), "no '%s' in:\n%s", line, tail());
	ck_assert_msg(!strstr(out, "the put returned") &&
		      !strstr(out, "barrier passed"), "%s", tail());
}
END_TEST

START_TEST(test_rocshmem_register_symmetric_vmm_rma)
{
	ok_case(_i, "symreg", NULL);
}
END_TEST

/* VMM memory of the program's own context (issue 26), with and without
 * naming the context. */
START_TEST(test_rocshmem_register_symmetric_own_context)
{
	ok_case(_i, "symreg_own", NULL);
}
END_TEST

/* malloc'ed, USM, heap, NULL, misaligned, unmapped, unequal lengths, one
 * PE refused, overlaps, the cap, bad unregisters: NULL / ERROR on every
 * PE, each PE's reason on stderr. */
static void
refused_everywhere(int _i, const char *const *cap)
{
	ok_case(_i, "symreg_refuse", cap);
	const char *call = "rocshmem_buffer_register_symmetric";
	int n = npes_of(_i);
	for (int pe = 0; pe < n; pe++) {
		expect_warning(pe, call, "");
		char what[160];
		snprintf(what, sizeof(what), "PE %d registers ", pe == 0 ? 1 : 0);
		expect_warning(pe, call, what);
	}
	static const char *const why[] = {
		"is not memory mapped with zeVirtualMemReserve + zeVirtualMemMap",
		"not aligned to the VMM page size",
		"is in the symmetric heap",
		"a NULL address or a zero length cannot be registered",
		"overlaps a registered buffer",
		"the cap (ZESHMEM_MAX_SYMMETRIC_REGS) is 2",
		"every PE must pass the same length",
	};
	for (size_t k = 0; k < sizeof(why) / sizeof(why[0]); k++)
		ck_assert_msg(strstr(out, why[k]), "no '%s' in:\n%s", why[k],
			      tail());
	/* the PEs whose own buffer was fine name the one that was not */
	char who[96];
	snprintf(who, sizeof(who), "PE %d refused the registration", n - 1);
	ck_assert_msg(strstr(out, who), "no '%s' in:\n%s", who, tail());
}

START_TEST(test_rocshmem_register_symmetric_refused_everywhere)
{
	static const char *const cap[] = { "ZESHMEM_MAX_SYMMETRIC_REGS=2",
					   NULL };
	refused_everywhere(_i, cap);
}
END_TEST

START_TEST(test_rocshmem_rma_every_type)
{
	ok_case(_i, "rma", NULL);
}
END_TEST

START_TEST(test_rocshmem_amo_every_type)
{
	ok_case(_i, "amo", NULL);
}
END_TEST

START_TEST(test_rocshmem_wait_cmp_values)
{
	ok_case(_i, "wait", NULL);
}
END_TEST

START_TEST(test_rocshmem_global_exit_status)
{
	int st = job(npes_of(_i), _i & 1, "global_exit", NULL);
	ck_assert_msg(st == 7, "status %d:\n%s", st, tail());
	ck_assert_msg(!strstr(out, "barrier passed"), "%s", tail());
}
END_TEST

START_TEST(test_rocshmem_teams)
{
	ok_case(_i, "teams", NULL);
}
END_TEST

/* rocSHMEM 3.x: information calls, ROCSHMEM_TEAM_SHARED, and the exact
 * per-PE counts of rocshmem_dump_stats after a reset */
START_TEST(test_rocshmem_info_stats)
{
	ok_case(_i, "info", NULL);
	int n = npes_of(_i);
	for (int pe = 0; pe < n; pe++) {
		static const char *const want[] = {
			"puts 3", "gets 2", "amos 1", "signals 1", "syncs 1",
			"collectives 1",
		};
		for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
			char line[96];
			snprintf(line, sizeof(line), "rocshmem: PE %d: %s\n",
				 pe, want[k]);
			ck_assert_msg(strstr(out, line), "no '%s' in:\n%s",
				      line, tail());
		}
	}
	ck_assert_msg(strstr(out, "ROCSHMEM_INIT_WITH_MPI_COMM with a "
			     "communicator"), "%s", tail());
}
END_TEST

/* contexts: every ctx RMA / AMO routine, team contexts, float AMOs */
START_TEST(test_rocshmem_ctx)
{
	ok_case(_i, "ctx", NULL);
	expect_warning(0, "rocshmem_ctx_create", "options 0x40: unknown "
		       "ROCSHMEM_CTX_* bits");
}
END_TEST

/* the 3.x wait types and the wait_until_all/any/some(_vector) forms */
START_TEST(test_rocshmem_waits)
{
	ok_case(_i, "waits", NULL);
}
END_TEST

/* the ctx team reductions and broadcasts */
START_TEST(test_rocshmem_coll)
{
	ok_case(_i, "coll", NULL);
	expect_warning(0, "rocshmem_ctx_int_sum_reduce", "nreduce -1 is "
		       "negative");
}
END_TEST

/* rocSHMEM 3.x's active-set broadcast (rocshmem.hpp's overload of
 * rocshmem_ctx_<TYPE>_broadcast; rocshmemx_ctx_<TYPE>_broadcast_active in
 * C): every type over sets that are not the whole job and over the whole
 * job, exact values, the root's and non-members' dest untouched, pSync
 * restored; then each kind of bad input is one warning on every PE and
 * nothing written. */
static void
bcast_active_warnings(int n)
{
	static const char *const call = "rocshmemx_ctx_int_broadcast_active";
	char big[128], past[128];
	snprintf(big, sizeof(big), "active set pe_start 0, log_pe_stride 0, "
		 "pe_size %d is not within the job's PEs 0..%d", n + 1, n - 1);
	snprintf(past, sizeof(past), "active set pe_start %d, log_pe_stride "
		 "0, pe_size 1 is not within the job's PEs 0..%d", n, n - 1);
	const char *const what[] = {
		"pe_size 0 is not positive", big, past,
		"pe_root 1 is not an index of the active set (0..0)",
		"dest (nil) or source 0x", "nelems -1 is negative",
		"this PE is not in the active set (pe_start ", "pSync 0x",
		"dest 0x",
	};
	for (int pe = 0; pe < n; pe++) {
		for (size_t k = 0; k < sizeof(what) / sizeof(what[0]); k++)
			expect_warning(pe, call, what[k]);
		/* one line per bad call, 9 */
		char pfx[96];
		snprintf(pfx, sizeof(pfx), "zeshmem: PE %d: %s: ", pe, call);
		int lines = 0;
		for (const char *p = strstr(out, pfx); p;
		     p = strstr(p + 1, pfx))
			lines++;
		ck_assert_msg(lines == 9, "PE %d: %d warnings, not 9:\n%s",
			      pe, lines, tail());
	}
	static const char *const tails[] = {
		"is NULL with nelems 2",
		"is not a symmetric array of ROCSHMEM_BCAST_SYNC_SIZE longs",
		"is not a symmetric object of 2 elements",
	};
	for (size_t k = 0; k < sizeof(tails) / sizeof(tails[0]); k++)
		ck_assert_msg(strstr(out, tails[k]), "no '%s' in:\n%s",
			      tails[k], tail());
}

START_TEST(test_rocshmem_bcast_active)
{
	ok_case(_i, "bcast_active", NULL);
	bcast_active_warnings(npes_of(_i));
}
END_TEST

START_TEST(test_rocshmem_bcast_active8)
{
	ok_job(8, 0, "bcast_active", NULL);
	bcast_active_warnings(8);
}
END_TEST

/* *_on_stream / shmemx_*_on_queue on immediate and regular lists */
START_TEST(test_rocshmem_stream)
{
	ok_case(_i, "stream", NULL);
	expect_warning(0, "rocshmem_quiet_on_stream", "the stream is a "
		       "regular command list");
	expect_warning(0, "shmemx_sync_all_on_queue", "the stream is a "
		       "regular command list");
	expect_warning(0, "rocshmem_quiet_on_stream", "stream is NULL");
	for (int pe = 0; pe < npes_of(_i); pe++) {
		char line[96];
		snprintf(line, sizeof(line), "rocshmem: PE %d: puts 1\n",
			 pe);
		ck_assert_msg(strstr(out, line), "no '%s' in:\n%s", line,
			      tail());
		snprintf(line, sizeof(line), "rocshmem: PE %d: syncs 1\n",
			 pe);
		ck_assert_msg(strstr(out, line), "no '%s' in:\n%s", line,
			      tail());
	}
}
END_TEST

/* rocshmem_buffer_register_vmm / sym_buffer_register over a shared file
 * every PE maps (PE i's buffer at base + i * stride) */
/* /dev/shm entries named like the stride case's file (not "zemem*", so
 * the other suites' leak checks running beside it do not count it) */
static int
stride_files(void)
{
	DIR *d = opendir("/dev/shm");
	int n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		n += !strncmp(e->d_name, "rocpe-stride-", 13);
	if (d)
		closedir(d);
	return n;
}

START_TEST(test_rocshmem_stride_registration)
{
	int files = stride_files();
	ok_case(_i, "stride", NULL);
	ck_assert_int_eq(stride_files(), files);
	static const char *const want[] = {
		"zeshmem: PE 0: rocshmem_buffer_register_vmm: addr ",
		"length 64 overlaps the registration at 0x",
		"|stride| is smaller than length\n",
		"zeshmem: PE 0: rocshmem_sym_buffer_register: addr ",
		"my_pe not in [0, n_pes)\n",
		"addr (nil), length 64, my_pe 0, n_pes 1, stride 0: addr is "
		"NULL or length 0\n",
		"zeshmem: PE 0: rocshmem_sym_buffer_unregister: addr ",
		"is no stride registration's\n",
		/* collective: PE 0's refusal is every PE's */
		"zeshmem: PE 1: rocshmem_sym_buffer_register: PE 0 refused "
		"the registration (Invalid argument)\n",
	};
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++)
		ck_assert_msg(strstr(out, want[k]), "no '%s' in:\n%s",
			      want[k], tail());
}
END_TEST

/* a ring of 8 PEs: contexts, stream-ordered puts, and the stride
 * registrations (sym_buffer_register collective over the 8) */
START_TEST(test_rocshmem_ring8)
{
	static const char *const c8[] = { "ctx", "stream", "stride" };
	ok_job(8, 0, c8[_i], NULL);
}
END_TEST

#ifdef HAVE_OFI
/* Every PE a node of its own (all traffic over libfabric, tcp): local
 * registrations are registered with the NIC and used as the local side;
 * symmetric registrations are memory regions of their own, their keys
 * exchanged at registration. */
static const char *const net_env[] = { "ZESHMEM_FORCE_NETWORK=1",
				       "ZESHMEM_PROVIDER=tcp;ofi_rxm", NULL };
/* A mixed job: PEs 0 and 1 one node (IPC), PE 2 another (libfabric). */
static const char *const mixed_env[] = { "ROC_PE_NODE_PES=2",
					 "ZESHMEM_PROVIDER=tcp;ofi_rxm", NULL };

START_TEST(test_rocshmem_network_buffer_register_local_side)
{
	ok_case(_i, "reg", net_env);
}
END_TEST

/* The network cases on 2 and 3 PEs started by zeshrun (_i 0, 1 -> 0, 2:
 * the unique-id start is the same over either transport; the mixed and
 * ro cases below take it), for CI time. */
#define ZESHRUN_2_3(i) ((i) * 2)

/* RMA, atomics, get and wait through the alias over the network. */
START_TEST(test_rocshmem_network_register_symmetric_rma)
{
	ok_case(ZESHRUN_2_3(_i), "symreg", net_env);
}
END_TEST

/* bounce-sized and larger puts from the alias, the buffer and malloc'ed
 * memory, nbi get, fetch/compare-swap, put_signal into the alias, two
 * registrations at once, three register/unregister rounds. */
START_TEST(test_rocshmem_network_register_symmetric_regions)
{
	ok_case(ZESHRUN_2_3(_i), "symreg_net", net_env);
	ck_assert_msg(!strstr(out, "zeshmem: PE"), "a warning:\n%s", tail());
}
END_TEST

/* The same over shm, whose regions are addressed by virtual address
 * (FI_MR_VIRT_ADDR; tcp's by offset): 2 PEs (3-PE shm jobs are not
 * reliable with Debian's libfabric 1.17, see meson.build). */
START_TEST(test_rocshmem_network_register_symmetric_virt_addr)
{
	static const char *const shm_env[] = { "ZESHMEM_FORCE_NETWORK=1",
					       "ZESHMEM_PROVIDER=shm", NULL };
	ok_case(_i, "symreg_net", shm_env);
	ck_assert_msg(!strstr(out, "zeshmem: PE"), "a warning:\n%s", tail());
}
END_TEST

START_TEST(test_rocshmem_network_register_symmetric_refused_everywhere)
{
	static const char *const cap[] = { "ZESHMEM_FORCE_NETWORK=1",
					   "ZESHMEM_PROVIDER=tcp;ofi_rxm",
					   "ZESHMEM_MAX_SYMMETRIC_REGS=2",
					   NULL };
	refused_everywhere(ZESHRUN_2_3(_i), cap);
}
END_TEST

/* ro over the network: the proxy's nbi checks take an alias for a
 * network peer (3 PEs, the unique-id start). */
START_TEST(test_rocshmem_network_ro_register_symmetric)
{
	static const char *const ro_env[] = { "ZESHMEM_FORCE_NETWORK=1",
					      "ZESHMEM_PROVIDER=tcp;ofi_rxm",
					      "ZESHMEM_BACKEND=ro", NULL };
	ok_case(_i, "symreg_net", ro_env);
	ck_assert_msg(!strstr(out, "zeshmem: PE"), "a warning:\n%s", tail());
}
END_TEST

/* sym_buffer_register over the network: each PE's buffer a memory
 * region, the keys all-gathered; RMA, atomics and get reach the PEs of
 * other nodes through the local buffer's registration (_i 0, 1: every PE
 * its own node over tcp, 2 and 3 PEs; 2, 3: 3 PEs on two nodes, 2 + 1,
 * node peers through the stride, by zeshrun and the unique id; 4: shm,
 * addressed by virtual address, 2 PEs; 5: 8 PEs on two nodes of 4). */
START_TEST(test_rocshmem_network_stride_registration)
{
	static const char *const shm_env[] = { "ZESHMEM_FORCE_NETWORK=1",
					       "ZESHMEM_PROVIDER=shm", NULL };
	static const char *const two_fours[] = { "ROC_PE_NODE_PES=4",
						 "ZESHMEM_PROVIDER=tcp;ofi_rxm",
						 NULL };
	int files = stride_files();
	if (_i < 2) {
		ok_case(ZESHRUN_2_3(_i), "stride", net_env);
	} else if (_i < 4) {
		ok_case(_i, "stride", mixed_env);
	} else if (_i == 4) {
		ok_case(0, "stride", shm_env);
	} else { /* 8 PEs on two nodes of 4 */
		ok_job(8, 0, "stride", two_fours);
	}
	ck_assert_int_eq(stride_files(), files);
	expect_warning(1, "rocshmem_sym_buffer_register",
		       "PE 0 refused the registration (Invalid argument)");
}
END_TEST

/* 3 PEs on two "nodes" (2 + 1): node peers through IPC, the other over
 * libfabric, in the same registration (_i 2: symreg by zeshrun, 3:
 * symreg_net by the unique-id start). */
START_TEST(test_rocshmem_mixed_register_symmetric)
{
	ok_case(_i, _i == 2 ? "symreg" : "symreg_net", mixed_env);
	if (_i == 3)
		ck_assert_msg(!strstr(out, "zeshmem: PE"), "a warning:\n%s",
			      tail());
}
END_TEST
#endif

/* ---- once per backend (test_rocshmem be; ZESHMEM_BACKEND set by meson) --
 * The cases whose path depends on how an operation reaches its target,
 * on 2 and 3 PEs started by zeshrun (the start is the same for every
 * backend: the default run covers the unique id). gda (its symmetric
 * registrations are libfabric regions) leaves out reg, symreg_refuse
 * and teams: its transport is the network suite's
 * (ZESHMEM_FORCE_NETWORK), which runs them and symreg_net, and each of
 * its jobs costs about a second (CI time). */
static const char *const be_cap[] = { "ZESHMEM_MAX_SYMMETRIC_REGS=2", NULL };

static const struct be_case {
	const char *name;
	const char *backends;             /* where it runs */
} be_cases[] = {
	{ "reg", "ipc ro" }, { "symreg", "ipc ro gda" },
	{ "symreg_refuse", "ipc ro" }, { "rma", "ipc ro gda" },
	{ "amo", "ipc ro gda" }, { "wait", "ipc ro gda" },
	{ "teams", "ipc ro" }, { "ctx", "ipc ro gda" },
	{ "waits", "ipc ro gda" }, { "stream", "ipc ro gda" },
};
#define BE_CASES (int)(sizeof(be_cases) / sizeof(be_cases[0]))

START_TEST(test_rocshmem_backend_case)
{
	const struct be_case *c = &be_cases[_i / 2];
	int i = (_i % 2) * 2; /* zeshrun, 2 or 3 PEs */
	char be[16];
	snprintf(be, sizeof(be), " %s ", backend());
	char where[32];
	snprintf(where, sizeof(where), " %s ", c->backends);
	if (!strstr(where, be))
		return;
	if (!strcmp(c->name, "symreg_refuse"))
		refused_everywhere(i, be_cap);
	else
		ok_case(i, c->name, NULL);
}
END_TEST

static Suite *
roc_be_suite(void)
{
	Suite *s = suite_create("rocshmem-backend");
	TCase *tc = tcase_create("backend");
	tcase_set_timeout(tc, JOB_TIMEOUT_S + 30);
	tcase_add_loop_test(tc, test_rocshmem_backend_case, 0, 2 * BE_CASES);
	suite_add_tcase(s, tc);
	return s;
}

static Suite *
roc_suite(void)
{
	Suite *s = suite_create("rocshmem");
	TCase *tc = tcase_create("api");
	tcase_set_timeout(tc, JOB_TIMEOUT_S + 30);
	tcase_add_loop_test(tc, test_rocshmem_hello, 0, 4);
	tcase_add_loop_test(tc, test_rocshmem_align_invalid_null_warned, 0, 4);
	tcase_add_loop_test(tc, test_rocshmem_calloc_zero_overflow, 0, 4);
	tcase_add_loop_test(tc, test_rocshmem_buffer_register_overlap_unknown,
			    0, 4);
	tcase_add_loop_test(tc, test_rocshmem_registered_buffer_remote_ends_pe,
			    0, 4);
	tcase_add_loop_test(tc, test_rocshmem_register_symmetric_vmm_rma, 0, 4);
	tcase_add_loop_test(tc, test_rocshmem_register_symmetric_own_context,
			    0, 4);
	tcase_add_loop_test(tc,
			    test_rocshmem_register_symmetric_refused_everywhere,
			    0, 4);
	tcase_add_loop_test(tc, test_rocshmem_rma_every_type, 0, 4);
	tcase_add_loop_test(tc, test_rocshmem_amo_every_type, 0, 4);
	tcase_add_loop_test(tc, test_rocshmem_wait_cmp_values, 0, 4);
	tcase_add_loop_test(tc, test_rocshmem_teams, 0, 4);
	tcase_add_loop_test(tc, test_rocshmem_global_exit_status, 0, 4);
	tcase_add_loop_test(tc, test_rocshmem_info_stats, 0, 4);
	tcase_add_loop_test(tc, test_rocshmem_ctx, 0, 4);
	tcase_add_loop_test(tc, test_rocshmem_waits, 0, 4);
	tcase_add_loop_test(tc, test_rocshmem_coll, 0, 4);
	tcase_add_loop_test(tc, test_rocshmem_stream, 0, 4);
	tcase_add_loop_test(tc, test_rocshmem_ring8, 0, 3);
	tcase_add_loop_test(tc, test_rocshmem_stride_registration, 0, 4);
	tcase_add_loop_test(tc, test_rocshmem_bcast_active, 0, 4);
	tcase_add_test(tc, test_rocshmem_bcast_active8);
	suite_add_tcase(s, tc);
	return s;
}

/* "net": the network-transport cases alone (their own meson test, in the
 * shmem-ofi suite: not under TSan, as the other libfabric suites). */
static Suite *
roc_net_suite(void)
{
	Suite *s = suite_create("rocshmem-ofi");
	TCase *tc = tcase_create("net");
	tcase_set_timeout(tc, JOB_TIMEOUT_S + 30);
#ifdef HAVE_OFI
	tcase_add_loop_test(tc, test_rocshmem_network_buffer_register_local_side,
			    0, 4);
	tcase_add_loop_test(tc, test_rocshmem_network_register_symmetric_rma,
			    0, 2);
	tcase_add_loop_test(tc,
			    test_rocshmem_network_register_symmetric_regions,
			    0, 2);
	tcase_add_loop_test(
		tc, test_rocshmem_network_register_symmetric_refused_everywhere,
		0, 2);
	tcase_add_loop_test(tc,
			    test_rocshmem_network_register_symmetric_virt_addr,
			    0, 1);
	tcase_add_loop_test(tc, test_rocshmem_network_ro_register_symmetric, 3,
			    4);
	tcase_add_loop_test(tc, test_rocshmem_mixed_register_symmetric, 2, 4);
	tcase_add_loop_test(tc, test_rocshmem_network_stride_registration, 0,
			    6);
#endif
	suite_add_tcase(s, tc);
	return s;
}

int
main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "net")) {
#ifndef HAVE_OFI
		printf("libzeshmem built without libfabric: no network "
		       "transport to test\n");
		return 77;
#endif
		return check_run(roc_net_suite(), CK_NORMAL, false);
	}
	if (argc > 1 && !strcmp(argv[1], "be")) {
#ifndef HAVE_OFI
		if (!strcmp(backend(), "gda")) {
			printf("libzeshmem built without libfabric "
			       "(libfabric-dev): no gda backend\n");
			return 77;
		}
#endif
		return check_run(roc_be_suite(), CK_NORMAL, false);
	}
	return check_run(roc_suite(), CK_NORMAL, false);
}
