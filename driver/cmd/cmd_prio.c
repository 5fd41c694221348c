// SPDX-License-Identifier: MIT
/*
 * cmd_prio: command-queue priority. A HIGH priority queue's work runs
 * before NORMAL and LOW work of the same engine, NORMAL before LOW, at op
 * granularity (a lower queue stops between two ops of its batch).
 *
 * Vocabulary:
 *   engine   what (device, ordinal, index) names: every queue created with
 *            that triple (explicit, or the implicit queue of an immediate
 *            list) shares one struct cmd_engine. Queues of other engines
 *            never wait for each other.
 *   rank     LOW 0, NORMAL 1, HIGH 2 (the API's enum is NORMAL 0, LOW 1,
 *            HIGH 2).
 *   mixed    the engine has live queues of more than one rank. Only then
 *            does priority cost anything: each queue of the engine has a
 *            copy of it (prio_on), and a worker's check before each op is
 *            one atomic load of its own queue's copy (cmd_prio_enter), so
 *            engines whose queues are all NORMAL run as before.
 *   active   a queue with runnable work: its worker (or a stealer) is at or
 *            in an op whose event waits are satisfied, or a batch was
 *            submitted to it whose waits were satisfied with nothing ahead
 *            of it in its FIFO. It stops being active when it blocks on an
 *            event wait (so a HIGH list waiting for an event a NORMAL list
 *            signals never holds the NORMAL list back: no deadlock) or when
 *            its FIFO is empty at the end of a batch.
 *   in op    a worker between the gate and the end of an op's data. Counted
 *            only while mixed.
 *   gate     in a mixed engine, before each op (after its event waits):
 *            the queue marks itself active, then sleeps on the engine's
 *            condvar while a queue of higher rank is active, or a queue of
 *            lower rank is in an op (the one op it runs finishes first, as a
 *            GPU preempts at command boundaries). A higher queue only waits
 *            on ops that are running; a lower queue only on higher queues
 *            that can run: no cycle, and no spinning.
 *   settle   the change of an engine from not mixed to mixed (a queue of a
 *            new rank created): a worker that read prio_on false may be in an
 *            op it did not count. The creator waits until each other queue
 *            of the engine has passed the gate since (acknowledged the
 *            generation), is idle (completed == submitted) or sleeps on an
 *            event (blocked_on); the last two are read with seq_cst against
 *            the seq_cst store of that queue's prio_on (a worker reads it
 *            after it takes a batch or leaves an event wait). Bounded by
 *            one op; it looks every SETTLE_SLICE_NS since a worker that
 *            goes idle does not signal the engine.
 *
 * Locks: engines_lock (the engine table; join/leave) -> engine->lock;
 * queue->lock -> engine->lock (submit, end of batch). engine->lock guards
 * the queue list, mixed, the per-rank counts, the per-queue act/inop/ack,
 * and gen/settling; q->prio_on and q->prio_act are also read without it.
 */
#include "cmd.h"

#include <errno.h>
#include <stdlib.h>

#define SETTLE_SLICE_NS 1000000ull
#define RANKS 3u

struct cmd_engine {
	struct cmd_engine *next;          /* engines_lock */
	struct _ze_device_handle_t *dev;
	uint32_t ordinal, index;
	uint32_t users;                   /* queues joined (engines_lock) */
	bool mixed;                       /* every q->prio_on says it */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct _ze_command_queue_handle_t *queues; /* via prio_next (lock) */
	uint32_t nrank[RANKS];            /* live queues per rank */
	uint32_t active[RANKS];
	uint32_t inop[RANKS];
	uint32_t gen;                     /* settle generation */
	bool settling;
};

static pthread_mutex_t engines_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cmd_engine *engines;

static uint8_t
rank_of(ze_command_queue_priority_t p)
{
	return p == ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH ? 2
		: p == ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_LOW ? 0 : 1;
}

static uint32_t
ranks_used(const struct cmd_engine *e)
{
	uint32_t n = 0;
	for (uint32_t r = 0; r < RANKS; r++)
		n += e->nrank[r] != 0;
	return n;
}

/* Has queue l passed the gate since generation gen, or can it not be in
 * an op it did not count? (engine lock held) */
static bool
settled(const struct _ze_command_queue_handle_t *l, uint32_t gen)
{
	if (l->prio_ack == gen || atomic_load(&l->blocked_on))
		return true;
	uint64_t s = atomic_load(&l->submitted);
	return atomic_load(&l->completed) >= s;
}

/* Tells every queue of e whether e is mixed now (engine lock held). */
static void
set_mixed(struct cmd_engine *e)
{
	e->mixed = ranks_used(e) > 1;
	for (struct _ze_command_queue_handle_t *l = e->queues; l;
	     l = l->prio_next)
		atomic_store(&l->prio_on, e->mixed);
}

static void
settle(struct cmd_engine *e, struct _ze_command_queue_handle_t *q)
{
	uint32_t gen = e->gen;
	for (;;) {
		bool all = true;
		for (struct _ze_command_queue_handle_t *l = e->queues; l;
		     l = l->prio_next)
			if (l != q && !settled(l, gen))
				all = false;
		if (all)
			break;
		struct cmd_deadline d;
		cmd_deadline_set(&d, SETTLE_SLICE_NS);
		cmd_cond_wait(&e->cond, &e->lock, &d);
	}
}

int
cmd_prio_join(struct _ze_command_queue_handle_t *q)
{
	pthread_mutex_lock(&engines_lock);
	struct cmd_engine *e = engines;
	while (e && (e->dev != q->dev || e->ordinal != q->ordinal ||
		     e->index != q->index))
		e = e->next;
	if (!e) {
		e = calloc(1, sizeof(*e));
		int err = e ? cmd_cond_init(&e->cond) : -ENOMEM;
		if (err) {
			free(e);
			pthread_mutex_unlock(&engines_lock);
			return err;
		}
		e->dev = q->dev;
		e->ordinal = q->ordinal;
		e->index = q->index;
		pthread_mutex_init(&e->lock, NULL);
		e->next = engines;
		engines = e;
	}
	e->users++;
	q->prio_rank = rank_of(q->priority);
	q->eng = e;
	pthread_mutex_lock(&e->lock);
	pthread_mutex_unlock(&engines_lock);
	/* A concurrent settle must finish before this queue may run work
	 * that counts on it. */
	while (e->settling)
		pthread_cond_wait(&e->cond, &e->lock);
	bool was = e->mixed;
	q->prio_next = e->queues;
	e->queues = q;
	e->nrank[q->prio_rank]++;
	set_mixed(e);
	if (e->mixed && !was) {
		e->gen++;
		e->settling = true;
		settle(e, q);
		e->settling = false;
		pthread_cond_broadcast(&e->cond);
	}
	pthread_mutex_unlock(&e->lock);
	return 0;
}

void
cmd_prio_leave(struct _ze_command_queue_handle_t *q)
{
	struct cmd_engine *e = q->eng;
	if (!e)
		return;
	pthread_mutex_lock(&engines_lock);
	pthread_mutex_lock(&e->lock);
	struct _ze_command_queue_handle_t **pp = &e->queues;
	while (*pp != q)
		pp = &(*pp)->prio_next;
	*pp = q->prio_next;
	if (atomic_load(&q->prio_act))
		e->active[q->prio_rank]--;
	if (q->prio_inop)
		e->inop[q->prio_rank]--;
	atomic_store(&q->prio_act, false);
	q->prio_inop = false;
	e->nrank[q->prio_rank]--;
	atomic_store(&q->prio_on, false);
	set_mixed(e);
	pthread_cond_broadcast(&e->cond);
	pthread_mutex_unlock(&e->lock);
	q->eng = NULL;
	bool last = --e->users == 0;
	if (last) {
		struct cmd_engine **ep = &engines;
		while (*ep != e)
			ep = &(*ep)->next;
		*ep = e->next;
	}
	pthread_mutex_unlock(&engines_lock);
	if (last) {
		pthread_cond_destroy(&e->cond);
		pthread_mutex_destroy(&e->lock);
		free(e);
	}
}

/* engine lock held */
static void
set_active(struct cmd_engine *e, struct _ze_command_queue_handle_t *q,
	   bool on)
{
	if (atomic_load_explicit(&q->prio_act, memory_order_relaxed) == on)
		return;
	atomic_store_explicit(&q->prio_act, on, memory_order_relaxed);
	if (on) {
		e->active[q->prio_rank]++;
	} else {
		e->active[q->prio_rank]--;
		pthread_cond_broadcast(&e->cond);
	}
}

static bool
must_wait(const struct cmd_engine *e, uint32_t r)
{
	for (uint32_t k = r + 1; k < RANKS; k++)
		if (e->active[k])
			return true;
	for (uint32_t k = 0; k < r; k++)
		if (e->inop[k])
			return true;
	return false;
}

bool
cmd_prio_enter_slow(struct _ze_command_queue_handle_t *q)
{
	struct cmd_engine *e = q->eng;
	pthread_mutex_lock(&e->lock);
	if (q->prio_ack != e->gen) {
		q->prio_ack = e->gen;
		if (e->settling)
			pthread_cond_broadcast(&e->cond);
	}
	set_active(e, q, true);
	while (must_wait(e, q->prio_rank))
		pthread_cond_wait(&e->cond, &e->lock);
	q->prio_inop = true;
	e->inop[q->prio_rank]++;
	pthread_mutex_unlock(&e->lock);
	return true;
}

void
cmd_prio_exit(struct _ze_command_queue_handle_t *q)
{
	struct cmd_engine *e = q->eng;
	pthread_mutex_lock(&e->lock);
	q->prio_inop = false;
	if (!--e->inop[q->prio_rank])
		pthread_cond_broadcast(&e->cond);
	pthread_mutex_unlock(&e->lock);
}

void
cmd_prio_idle_slow(struct _ze_command_queue_handle_t *q)
{
	struct cmd_engine *e = q->eng;
	pthread_mutex_lock(&e->lock);
	set_active(e, q, false);
	pthread_mutex_unlock(&e->lock);
}

void
cmd_prio_submitted(struct _ze_command_queue_handle_t *q, bool runnable)
{
	if (!runnable)
		return;
	struct cmd_engine *e = q->eng;
	pthread_mutex_lock(&e->lock);
	set_active(e, q, true);
	pthread_mutex_unlock(&e->lock);
}
