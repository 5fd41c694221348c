// SPDX-License-Identifier: MIT
/*
 * sh_ctx: communication contexts other than the default one
 * (shmem_ctx_create, shmem_team_create_ctx, shmem_ctx_destroy).
 *
 * A context's operations are completed by its own quiet. Direct copies
 * (the heap is host-accessible) complete in the call, so a context needs
 * nothing of its own there. In copy-engine mode every context gets an
 * asynchronous immediate command list and a host-visible event of its
 * own: its nbi copies go to that list (sh_rma.c engine_copy) and its quiet
 * signals and waits for that event only, never for another context's
 * copies. Blocking copies keep using the shared synchronous list.
 * Over libfabric every context gets an endpoint of its own (its counter,
 * CQ, bounce slots and flush state: sh_tr_ofi_ctx_open), so its quiet
 * waits for its own network operations only; destroy closes it after
 * the quiet. (With FI_MR_ENDPOINT contexts share the PE's endpoint.)
 *
 * The options (SERIALIZED, PRIVATE, NOSTORE) are promises of the program
 * that allow optimisations; all three are accepted and none changes what
 * the runtime does. Unknown bits are refused (-EINVAL).
 *
 * Threads: the list of contexts is under ctx_lock; create and destroy may
 * come from any thread.
 */
#include "sh_ctx.h"

#include "u_log.h"

#include <errno.h>
#include <stdlib.h>

static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sh_ctx *ctx_list;

static void
engine_free(struct sh_ctx *c)
{
	if (c->ev)
		zeEventDestroy(c->ev);
	if (c->evpool)
		zeEventPoolDestroy(c->evpool);
	if (c->cl_async)
		zeCommandListDestroy(c->cl_async);
	c->ev = NULL;
	c->evpool = NULL;
	c->cl_async = NULL;
}

/* The context's own async list and event, like sh_rma_init's. */
static int
engine_make(struct sh_ctx *c)
{
	ze_command_queue_desc_t qd = {
		.stype = ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
		.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
	};
	ze_result_t r = zeCommandListCreateImmediate(sh.zctx, sh.zdev, &qd,
						     &c->cl_async);
	if (!r) {
		ze_event_pool_desc_t pd = {
			.stype = ZE_STRUCTURE_TYPE_EVENT_POOL_DESC,
			.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE,
			.count = 1,
		};
		r = zeEventPoolCreate(sh.zctx, &pd, 1, &sh.zdev, &c->evpool);
	}
	if (!r) {
		ze_event_desc_t ed = {
			.stype = ZE_STRUCTURE_TYPE_EVENT_DESC,
			.signal = ZE_EVENT_SCOPE_FLAG_HOST,
			.wait = ZE_EVENT_SCOPE_FLAG_HOST,
		};
		r = zeEventCreate(c->evpool, &ed, &c->ev);
	}
	if (r) {
		u_err("shmem", "context's copy engine list: 0x%x", r);
		engine_free(c);
		return sh_ze_err(r);
	}
	return 0;
}

int
sh_ctx_create(struct sh_team *team, long options, struct sh_ctx **out)
{
	*out = NULL;
	if (options & ~SH_CTX_OPTIONS_ALL) {
		u_dbg("shmem", "context options %#lx: unknown bits %#lx",
		       options, options & ~SH_CTX_OPTIONS_ALL);
		return -EINVAL;
	}
	struct sh_ctx *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->options = options;
	c->team = team;
	pthread_mutex_init(&c->qlock, NULL);
	/* sh.cl_async exists exactly when copies may use the engine. */
	if (sh.cl_async) {
		int err = engine_make(c);
		if (err) {
			pthread_mutex_destroy(&c->qlock);
			free(c);
			return err;
		}
	}
	int err = sh_tr_ofi_ctx_open(c);
	if (err) {
		engine_free(c);
		pthread_mutex_destroy(&c->qlock);
		free(c);
		return err;
	}
	c->magic = SH_CTX_MAGIC;
	pthread_mutex_lock(&ctx_lock);
	c->next = ctx_list;
	ctx_list = c;
	pthread_mutex_unlock(&ctx_lock);
	*out = c;
	return 0;
}

int
sh_ctx_valid(const struct sh_ctx *c)
{
	int found = 0;
	pthread_mutex_lock(&ctx_lock);
	for (const struct sh_ctx *p = ctx_list; p && !found; p = p->next)
		found = p == c;
	pthread_mutex_unlock(&ctx_lock);
	return found && c->magic == SH_CTX_MAGIC;
}

/* Unlinks c: 0, or -EINVAL when it is not in the list. */
static int
unlink_ctx(struct sh_ctx *c)
{
	int err = -EINVAL;
	pthread_mutex_lock(&ctx_lock);
	for (struct sh_ctx **pp = &ctx_list; *pp; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			err = 0;
			break;
		}
	}
	pthread_mutex_unlock(&ctx_lock);
	return err;
}

int
sh_ctx_destroy(struct sh_ctx *c)
{
	if (!c || c == &sh_ctx_default || unlink_ctx(c))
		return -EINVAL;
	/* The specification: destroy completes the context's operations. */
	int err = sh_quiet(c);
	c->magic = 0;
	sh_tr_ofi_ctx_close(c);
	engine_free(c);
	pthread_mutex_destroy(&c->qlock);
	free(c);
	return err;
}

void
sh_ctx_destroy_team(const struct sh_team *team)
{
	unsigned n = 0, priv = 0;
	for (;;) {
		struct sh_ctx *c;
		pthread_mutex_lock(&ctx_lock);
		for (c = ctx_list; c && c->team != team; c = c->next)
			;
		pthread_mutex_unlock(&ctx_lock);
		if (!c)
			break;
		priv += (c->options & SH_CTX_PRIVATE) != 0;
		sh_ctx_destroy(c);
		n++;
	}
	if (priv)
		u_warn("shmem", "team destroyed with %u private context(s) "
		       "of its own (the program must destroy those first); "
		       "destroyed them", priv);
	else if (n)
		u_dbg("shmem", "team destroyed with its %u context(s)", n);
}

void
sh_ctx_quiet_all(void)
{
	/* Under ctx_lock: a context is not destroyed while it is quieted
	 * (destroy takes ctx_lock to unlink it first). */
	pthread_mutex_lock(&ctx_lock);
	for (struct sh_ctx *c = ctx_list; c; c = c->next)
		if (c->cl_async || c->net)
			sh_quiet(c);
	pthread_mutex_unlock(&ctx_lock);
}

void
sh_ctx_fini_all(void)
{
	unsigned n = 0;
	for (;;) {
		pthread_mutex_lock(&ctx_lock);
		struct sh_ctx *c = ctx_list;
		pthread_mutex_unlock(&ctx_lock);
		if (!c)
			break;
		sh_ctx_destroy(c);
		n++;
	}
	if (n)
		u_info("shmem", "finalize: %u context(s) not destroyed by the "
		       "program were destroyed", n);
}
