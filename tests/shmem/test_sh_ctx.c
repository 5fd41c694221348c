// SPDX-License-Identifier: MIT
/*
 * test_sh_ctx: the runtime's contexts (shmem/ctx/sh_ctx.c) on one PE (the
 * single-PE bootstrap), against zemem's driver.
 *
 *   quiet independence  copy-engine mode: context A's nbi copy is held in
 *             its list behind an event that only the test signals; the
 *             quiet of context B and of the default context must return
 *             (and B's copy be complete) while A's copy has not run.
 *             Deterministic: A's copy cannot run before the signal. A
 *             quiet that waited for A would block until check's timeout.
 *   options   every option bit accepted, unknown bits -EINVAL; destroy of
 *             the default context, of a pointer that is no context and a
 *             second destroy -EINVAL (no crash); contexts left at
 *             finalize are released (no fd or mapping leak).
 */
#include "sh_init.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "leakcheck.h"

#define N 4096

static void
init_engine(const char *mode)
{
	setenv("ZESHMEM_COPY", mode, 1);
	setenv("ZESHMEM_SYMMETRIC_SIZE", "8M", 1);
	int got = -1;
	ck_assert_int_eq(sh_init(NULL, 0, 0, 3, &got), 0);
	ck_assert_int_eq(sh.npes, 1);
}

/* One init/finalize first: the loader and driver stay loaded after it
 * (their fds and mappings are not the runtime's to release). */
static void
warm_up(struct leakcheck *lc, const char *mode)
{
	init_engine(mode);
	ck_assert_int_eq(sh_finalize(), 0);
	leakcheck_begin(lc);
	init_engine(mode);
}

START_TEST(test_ctx_quiet_independent)
{
	struct leakcheck lc;
	warm_up(&lc, "engine");
	struct sh_ctx *a, *b;
	ck_assert_int_eq(sh_ctx_create(NULL, 2 /* PRIVATE */, &a), 0);
	ck_assert_int_eq(sh_ctx_create(NULL, 0, &b), 0);
	char *sym = sh_malloc(3 * N, SH_DEFAULT_ALIGN, "test");
	ck_assert_ptr_nonnull(sym);
	memset(sym, 0, 3 * N);
	static char sa[N], sb[N], sd[N];
	memset(sa, 'a', N);
	memset(sb, 'b', N);
	memset(sd, 'd', N);

	/* A blocker in front of A's nbi copies, in the list they go to. */
	ze_event_pool_desc_t pd = {
		.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
		.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE,
		.count = 1,
	};
	ze_event_pool_handle_t pool;
	ck_assert_int_eq(zeEventPoolCreate(sh.zctx, &pd, 1, &sh.zdev, &pool),
			 0);
	ze_event_desc_t ed = {
		.stype = ZE_STRUCTURE_TYPE_EVENT_DESC,
		.signal = ZE_EVENT_SCOPE_FLAG_HOST,
		.wait = ZE_EVENT_SCOPE_FLAG_HOST,
	};
	ze_event_handle_t blk;
	ck_assert_int_eq(zeEventCreate(pool, &ed, &blk), 0);
	ze_command_list_handle_t la = a->cl_async ? a->cl_async : sh.cl_async;
	ck_assert_ptr_nonnull(la);
	sh_engine_lock();
	ck_assert_int_eq(zeCommandListAppendWaitOnEvents(la, 1, &blk), 0);
	sh_engine_unlock();

	ck_assert_int_eq(sh_put(a, sym, sa, N, 0, 1), 0);
	ck_assert_int_eq(sh_put(b, sym + N, sb, N, 0, 1), 0);
	ck_assert_int_eq(sh_put(NULL, sym + 2 * N, sd, N, 0, 1), 0);
	/* B's quiet and the default one's: their copies only. */
	ck_assert_int_eq(sh_quiet(b), 0);
	ck_assert_int_eq(memcmp(sym + N, sb, N), 0);
	ck_assert_int_eq(sh_quiet(&sh_ctx_default), 0);
	ck_assert_int_eq(memcmp(sym + 2 * N, sd, N), 0);
	/* A's copy is still held. */
	ck_assert_int_eq(zeEventQueryStatus(blk), ZE_RESULT_NOT_READY);
	ck_assert_int_eq(sym[0], 0);
	ck_assert_int_eq(sym[N - 1], 0);
	/* Released: A's quiet completes it. */
	ck_assert_int_eq(zeEventHostSignal(blk), 0);
	ck_assert_int_eq(sh_quiet(a), 0);
	ck_assert_int_eq(memcmp(sym, sa, N), 0);

	/* destroy quiets first: an nbi on B, then destroy. */
	memset(sym + N, 0, N);
	ck_assert_int_eq(sh_put(b, sym + N, sb, N, 0, 1), 0);
	ck_assert_int_eq(sh_ctx_destroy(b), 0);
	ck_assert_int_eq(memcmp(sym + N, sb, N), 0);
	ck_assert_int_eq(sh_ctx_destroy(a), 0);
	zeEventDestroy(blk);
	zeEventPoolDestroy(pool);
	sh_free(sym, "test");
	ck_assert_int_eq(sh_finalize(), 0);
	leakcheck_end(&lc);
}
END_TEST

static void
options_case(const char *mode)
{
	struct leakcheck lc;
	warm_up(&lc, mode);
	struct sh_ctx *c[8];
	long ok[] = { 0, 1, 2, 4, 7 };
	for (int i = 0; i < 5; i++) {
		ck_assert_int_eq(sh_ctx_create(NULL, ok[i], &c[i]), 0);
		ck_assert_ptr_nonnull(c[i]);
		ck_assert_int_eq(sh_ctx_valid(c[i]), 1);
		ck_assert_int_eq(c[i]->options, ok[i]);
		ck_assert_ptr_null(c[i]->team);
		ck_assert_int_eq(c[i]->cl_async != NULL,
				 !strcmp(mode, "engine"));
	}
	struct sh_ctx *bad = (struct sh_ctx *)1;
	ck_assert_int_eq(sh_ctx_create(NULL, 8, &bad), -EINVAL);
	ck_assert_ptr_null(bad);
	ck_assert_int_eq(sh_ctx_create(NULL, -1L, &bad), -EINVAL);
	ck_assert_int_eq(sh_ctx_create(NULL, 1L << 40, &bad), -EINVAL);
	/* A context of the world team is a plain one (the faces pass NULL
	 * for the world: sh_face_ctx.c). */
	ck_assert_int_eq(sh_ctx_create(NULL, 0, &c[5]), 0);
	ck_assert_ptr_null(c[5]->team);
	/* Not contexts: refused, nothing touched. */
	ck_assert_int_eq(sh_ctx_valid(&sh_ctx_default), 0);
	ck_assert_int_eq(sh_ctx_destroy(&sh_ctx_default), -EINVAL);
	ck_assert_int_eq(sh_ctx_destroy(NULL), -EINVAL);
	static struct sh_ctx fake;
	ck_assert_int_eq(sh_ctx_destroy(&fake), -EINVAL);
	ck_assert_int_eq(sh_ctx_destroy(c[0]), 0);
	ck_assert_int_eq(sh_ctx_valid(c[0]), 0);
	ck_assert_int_eq(sh_ctx_destroy(c[0]), -EINVAL);
	/* c[1..5] left to finalize. */
	ck_assert_int_eq(sh_finalize(), 0);
	leakcheck_end(&lc);
}

START_TEST(test_ctx_options_engine)
{
	options_case("engine");
}
END_TEST

START_TEST(test_ctx_options_direct)
{
	options_case("direct");
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("sh_ctx");
	TCase *tc = tcase_create("ctx");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_ctx_quiet_independent);
	tcase_add_test(tc, test_ctx_options_engine);
	tcase_add_test(tc, test_ctx_options_direct);
	suite_add_tcase(s, tc);
	return check_run(s, CK_NORMAL, true);
}
