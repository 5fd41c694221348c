// SPDX-License-Identifier: MIT
/*
 * cmd_queue: command queues and their worker threads; execution of closed
 * command lists; queue synchronization; the queue groups a device reports.
 *
 * Vocabulary:
 *   group    an ordinal of zeDeviceGetCommandQueueGroupProperties: 0 is
 *            "compute" (COMPUTE | COPY), 1 is "copy" (COPY only). Both run
 *            the same copy engine; lists must match their queue's ordinal.
 *   worker   one thread per queue (explicit, or the implicit queue of an
 *            immediate list). It takes batches from the FIFO in submission
 *            order and runs their ops in order, so everything submitted to
 *            one queue is serialized; different queues run concurrently.
 *            Its stack is mmap'ed here and unmapped after the join (glibc
 *            would otherwise keep a cached stack mapped), and it runs with
 *            every signal blocked but SIGSEGV, SIGBUS, SIGILL and SIGFPE.
 *            Idle, it spins a while for the next
 *            ticket before sleeping on work_cond.
 *   steal    a thread that waits without a timeout for a batch the worker
 *            has not taken up yet, with nothing else queued or running,
 *            runs it itself (it would only wait anyway): no handoff, no
 *            wakeup. Only batches whose event waits are already satisfied
 *            are stolen; `inline_busy` keeps the worker off the queue
 *            meanwhile. Synchronous queues and immediate lists submit
 *            without waking the worker and wait, so they run on the
 *            calling thread whenever nothing else is pending.
 *   stop     destroy sets `stopping`: the worker drains the FIFO, gives up
 *            on event waits that are not satisfied (skipping the rest of
 *            that batch), and exits; destroy joins it.
 *
 * Completion order of a batch: its ops ran; it leaves the in-flight list
 * (frees stop waiting for it); its lists' executing counts drop (they may be
 * reset or destroyed again); its fence is signalled; `completed` advances
 * and Synchronize waiters wake. So once Synchronize or a fence returns, the
 * memory and the lists are free to reuse.
 *
 *   priority queues of one engine (device, ordinal, index) with different
 *            priorities: before each op a worker lets higher-priority
 *            runnable work of its engine run first (cmd_prio.c); a batch
 *            queued with nothing ahead of it and its waits satisfied
 *            marks its queue runnable at submit, so lower queues stop at
 *            their next op even before this worker wakes up.
 *
 * Locking: queue->lock guards the FIFO, `submitted`, `wake_at`,
 * `inline_busy` and `stopping` changes; `completed` is published under it
 * too and read atomically. No one holds it while running ops. It is taken
 * before engine->lock (submit, end of batch: cmd_prio.c).
 */
#include "cmd.h"

#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "u_os.h"

#define WORKER_STACK (1024u * 1024u)

static bool stealable(const struct cmd_batch *b);

struct _ze_command_queue_handle_t *
cmd_queue_get(ze_command_queue_handle_t h)
{
	return (struct _ze_command_queue_handle_t *)cmd_reg_get(h,
								CMD_T_QUEUE);
}

static uint32_t
group_queues(uint32_t ordinal)
{
	return ordinal == CMD_ORDINAL_COMPUTE ? CMD_COMPUTE_QUEUES
					      : CMD_COPY_QUEUES;
}

uint32_t
cmd_queue_group_count(void)
{
	return CMD_GROUP_COUNT;
}

void
cmd_queue_group_props(uint32_t ordinal, ze_command_queue_group_properties_t *p)
{
	p->flags = ordinal == CMD_ORDINAL_COMPUTE
		? ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE |
			  ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY
		: ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY;
	p->maxMemoryFillPatternSize = CMD_MAX_PATTERN;
	p->numQueues = group_queues(ordinal);
}

ze_result_t
cmd_ctx_dev(ze_context_handle_t hc, ze_device_handle_t hd,
	    struct _ze_context_handle_t **c, struct _ze_device_handle_t **d)
{
	ze_result_t r = drv_check_context(hc, __func__, c);
	return r ? r : drv_check_device(*c, hd, __func__, d);
}

ze_result_t
cmd_queue_check_desc(const ze_command_queue_desc_t *desc)
{
	if (desc->stype != ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"desc->stype is 0x%x, not COMMAND_QUEUE_DESC",
				desc->stype);
	if (desc->flags & ~(ze_command_queue_flags_t)CMD_QUEUE_FLAGS_ALL)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION,
				"unknown queue flags 0x%x", desc->flags);
	if ((uint32_t)desc->mode > ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION,
				"unknown queue mode %u", (unsigned)desc->mode);
	if ((uint32_t)desc->priority >
	    ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ENUMERATION,
				"unknown queue priority %u",
				(unsigned)desc->priority);
	if (desc->ordinal >= CMD_GROUP_COUNT)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"ordinal %u: the device has %u queue groups",
				desc->ordinal, CMD_GROUP_COUNT);
	if (desc->index >= group_queues(desc->ordinal))
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				"index %u: group %u has %u queues",
				desc->index, desc->ordinal,
				group_queues(desc->ordinal));
	return ZE_RESULT_SUCCESS;
}

/* Runs one batch; ops of a batch run in order. After an op faults, the
 * rest of the batch is skipped and every event it would signal is
 * signalled as lost. */
static void
run_batch(struct _ze_command_queue_handle_t *q, struct cmd_batch *b)
{
	int err = 0;
	if (b->has_op && !b->nlists) {
		err = cmd_exec_op(q, b, &b->op);
	} else {
		/* Lists appended to an immediate list: its waits come
		 * first, its signal after the last list. */
		struct _ze_event_handle_t *sig = b->has_op ? b->op.signal
							   : NULL;
		uint64_t start = sig ? cmd_event_now(sig) : 0;
		if (b->has_op && b->op.nwait)
			err = cmd_events_wait(b->op.wait, b->op.nwait, q);
		for (uint32_t i = 0; i < b->nlists; i++) {
			struct _ze_command_list_handle_t *l = b->lists[i];
			for (size_t j = 0; j < l->nops; j++) {
				if (err == -EFAULT)
					cmd_skip_op(&l->ops[j]);
				else if (!err)
					err = cmd_exec_op(q, b, &l->ops[j]);
			}
		}
		if (sig && err != -ECANCELED)
			cmd_event_signal(sig, start, cmd_event_now(sig),
					 err ? CMD_SLOT_LOST : 0);
	}
	if (err == -EFAULT) {
		b->lost = true;
		u_warn("cmd", "queue %p: an op touched memory it cannot "
			      "access; the rest of its batch was skipped and "
			      "the queue reports ZE_RESULT_ERROR_DEVICE_LOST",
		       (void *)q);
	} else if (err) {
		u_warn("cmd", "queue %p destroyed while a batch waited on an "
			      "event: the rest of the batch was skipped",
		       (void *)q);
	}
}

/* After a batch ran (on the worker, or stolen by a synchronizer): it
 * leaves the in-flight list, its lists (they may be reset once the fence
 * says so), then its fence, then its ticket is published. */
static void
finish_batch(struct _ze_command_queue_handle_t *q, struct cmd_batch *b,
	     bool stolen)
{
	cmd_mem_untrack(b);
	struct _ze_fence_handle_t *f = b->fence;
	uint64_t done = b->ticket;
	bool lost = b->lost;
	b->fence = NULL;
	cmd_batch_free(b);
	if (lost)
		atomic_store(&q->lost, true);
	if (f) {
		if (lost)
			atomic_store(&f->lost, true);
		cmd_fence_signal(f);
		cmd_obj_put(&f->obj);
	}
	pthread_mutex_lock(&q->lock);
	atomic_store_explicit(&q->completed, done, memory_order_release);
	/* Wake synchronizers only when one of them is done: a host
	 * streaming many batches is not woken for each. */
	if (done >= q->wake_at) {
		q->wake_at = UINT64_MAX;
		pthread_cond_broadcast(&q->done_cond);
	}
	if (!q->head)
		cmd_prio_idle(q); /* nothing more to run (cmd_prio.c) */
	if (stolen) {
		q->inline_busy = false;
		if (q->head)
			pthread_cond_signal(&q->work_cond);
	}
	pthread_mutex_unlock(&q->lock);
}

static void *
worker_main(void *arg)
{
	struct _ze_command_queue_handle_t *q = arg;
	uint64_t seen = 0; /* tickets up to it were taken (here or stolen) */
	for (;;) {
		/* Idle: look for the next ticket for a while before
		 * sleeping: waking a sleeping worker costs the submitting
		 * thread a futex wake (10 us on a VM, as much as a 300 KiB
		 * copy). Work that arrives while idle gets a short grace: a
		 * host that synchronizes at once runs it itself ("steal"). */
		if (atomic_load_explicit(&q->submitted,
					 memory_order_acquire) == seen &&
		    cmd_spin_u64(&q->submitted, seen + 1, CMD_SPIN_IDLE_NS) &&
		    cmd_spin_u64(&q->started, seen + 1, CMD_SPIN_GRACE_NS)) {
			/* A synchronizer stole every ticket after `seen`
			 * (only it starts tickets this worker did not
			 * take): look for the next one without the lock,
			 * which the stealer takes to finish its batch (a
			 * worker in its way costs both a futex round trip,
			 * each a microsecond on a VM). */
			uint64_t st = atomic_load_explicit(
				&q->started, memory_order_acquire);
			if (atomic_load_explicit(&q->submitted,
						 memory_order_acquire) == st) {
				seen = st;
				continue;
			}
		}
		pthread_mutex_lock(&q->lock);
		struct cmd_batch *b = q->inline_busy ? NULL : q->head;
		if (!b) {
			/* Nothing to take: sleep unless tickets were handed
			 * out since `seen` (stolen: spin for more first). Work
			 * queued behind a stolen batch: sleep, finish_batch
			 * wakes us. */
			bool quit = !q->head && atomic_load(&q->stopping);
			bool slept = !quit &&
				(atomic_load(&q->submitted) == seen || q->head);
			if (slept)
				pthread_cond_wait(&q->work_cond, &q->lock);
			seen = q->head ? q->head->ticket - 1
				       : atomic_load(&q->submitted);
			pthread_mutex_unlock(&q->lock);
			if (quit)
				break;
			if (slept) /* woken by new work: the same grace */
				cmd_spin_u64(&q->started, seen + 1,
					     CMD_SPIN_GRACE_NS);
			continue;
		}
		q->head = b->next;
		if (!q->head)
			q->tail = NULL;
		seen = b->ticket;
		pthread_mutex_unlock(&q->lock);
		atomic_store_explicit(&q->started, b->ticket,
				      memory_order_release);
		run_batch(q, b);
		finish_batch(q, b, false);
	}
	return NULL;
}

/* Can a synchronizer run b itself without blocking past its control: no
 * op waits on an event that is not signalled yet. */
static bool
stealable(const struct cmd_batch *b)
{
	if (b->has_op && !cmd_events_ready(b->op.wait, b->op.nwait))
		return false;
	for (uint32_t i = 0; i < b->nlists; i++) {
		const struct _ze_command_list_handle_t *l = b->lists[i];
		for (size_t j = 0; j < l->nops; j++)
			if (!cmd_events_ready(l->ops[j].wait, l->ops[j].nwait))
				return false;
	}
	return true;
}

/* A synchronizer about to wait for `ticket`, the only batch queued and
 * nothing running: it runs the batch on its own thread instead of handing
 * it over (no wakeup on either side). true if it did. */
bool
cmd_queue_steal(struct _ze_command_queue_handle_t *q, uint64_t ticket)
{
	pthread_mutex_lock(&q->lock);
	struct cmd_batch *b = q->head;
	if (!b || b->ticket != ticket || q->inline_busy ||
	    atomic_load(&q->completed) + 1 != ticket ||
	    atomic_load(&q->stopping) || !stealable(b)) {
		pthread_mutex_unlock(&q->lock);
		return false;
	}
	q->head = b->next;
	if (!q->head)
		q->tail = NULL;
	q->inline_busy = true;
	pthread_mutex_unlock(&q->lock);
	atomic_store_explicit(&q->started, ticket, memory_order_release);
	run_batch(q, b);
	finish_batch(q, b, true);
	return true;
}

static void
queue_release(struct cmd_obj *o)
{
	struct _ze_command_queue_handle_t *q = (void *)o;
	pthread_cond_destroy(&q->work_cond);
	pthread_cond_destroy(&q->done_cond);
	pthread_mutex_destroy(&q->lock);
	free(q);
}

/* A worker runs the driver's code for as long as its queue lives, and
 * the guard's signal handlers (cmd_guard.c) stay installed for good;
 * nothing stops either when the driver is unloaded (Intel's loader
 * dlcloses its drivers at its teardown, maybe with queues the program
 * never destroyed). So from the first of them on, the driver stays
 * mapped until the process exits (RTLD_NODELETE): an unload then only
 * drops a reference. */
static void
keep_loaded(void)
{
	Dl_info di;
	void *h = NULL;
	if (dladdr((void *)keep_loaded, &di) && di.dli_fname)
		h = dlopen(di.dli_fname,
			   RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
	if (!h) {
		const char *e = dlerror();
		u_warn("cmd", "cannot keep the driver loaded (%s): destroy "
			      "every command queue before unloading it",
		       e ? e : "dladdr failed");
		return;
	}
	dlclose(h); /* the reference just taken; NODELETE stays */
}

void
cmd_keep_loaded(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, keep_loaded);
}

/* Starts the worker on a stack of our own, every asynchronous signal
 * blocked. */
static int
start_worker(struct _ze_command_queue_handle_t *q, void **stack)
{
	cmd_keep_loaded();
	size_t page = u_page_size();
	void *s = mmap(NULL, WORKER_STACK, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (s == MAP_FAILED)
		return -errno;
	if (mprotect(s, page, PROT_NONE)) { /* guard page */
		int err = -errno;
		munmap(s, WORKER_STACK);
		return err;
	}
	pthread_attr_t attr;
	int err = pthread_attr_init(&attr);
	if (!err)
		err = pthread_attr_setstack(&attr, (char *)s + page,
					    WORKER_STACK - page);
	/* Every signal blocked but the synchronous ones: a fault while
	 * they are blocked makes the kernel kill the process whatever the
	 * handler (cmd_guard.c needs to see them). */
	sigset_t all, old;
	sigfillset(&all);
	sigdelset(&all, SIGSEGV);
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGILL);
	sigdelset(&all, SIGFPE);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (!err)
		err = pthread_create(&q->worker, &attr, worker_main, q);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (err) {
		munmap(s, WORKER_STACK);
		return -err;
	}
	pthread_setname_np(q->worker,
			   q->implicit ? "zemem-imm" : "zemem-queue");
	*stack = s;
	return 0;
}

/* The worker's stack, kept beside the queue so stop can unmap it. */
struct queue_box {
	struct _ze_command_queue_handle_t q;
	void *stack;
};

ze_result_t
cmd_queue_create(struct _ze_context_handle_t *ctx,
		 struct _ze_device_handle_t *dev,
		 const ze_command_queue_desc_t *desc, bool implicit,
		 struct _ze_command_queue_handle_t **out)
{
	cmd_sync_init();
	size_t bsize = (sizeof(struct queue_box) + 63) & ~(size_t)63;
	struct queue_box *box = aligned_alloc(_Alignof(struct queue_box),
					      bsize);
	if (!box)
		return DRV_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
				"no memory for a queue");
	memset(box, 0, sizeof(*box));
	struct _ze_command_queue_handle_t *q = &box->q;
	q->ctx = ctx;
	q->dev = dev;
	q->ordinal = desc->ordinal;
	q->index = desc->index;
	q->flags = desc->flags;
	q->mode = desc->mode;
	q->priority = desc->priority;
	q->implicit = implicit;
	q->wake_at = UINT64_MAX;
	pthread_mutex_init(&q->lock, NULL);
	int err = cmd_cond_init(&q->work_cond);
	if (err)
		goto err_lock;
	err = cmd_cond_init(&q->done_cond);
	if (err)
		goto err_work;
	if (implicit) {
		q->obj.magic = CMD_MAGIC;
		q->obj.type = CMD_T_QUEUE;
		q->obj.release = queue_release;
		atomic_init(&q->obj.refs, 1);
	} else if ((err = cmd_reg_add(&q->obj, CMD_T_QUEUE, queue_release))) {
		goto err_done;
	}
	err = cmd_prio_join(q);
	if (err)
		goto err_reg;
	err = start_worker(q, &box->stack);
	if (err)
		goto err_prio;
	*out = q;
	return ZE_RESULT_SUCCESS;
err_prio:
	cmd_prio_leave(q);
err_reg:
	if (!implicit)
		cmd_reg_remove(&q->obj);
err_done:
	pthread_cond_destroy(&q->done_cond);
err_work:
	pthread_cond_destroy(&q->work_cond);
err_lock:
	pthread_mutex_destroy(&q->lock);
	free(box);
	return DRV_FAIL(drv_result(err), "cannot create a queue: %s",
			strerror(-err));
}

void
cmd_queue_stop(struct _ze_command_queue_handle_t *q)
{
	struct queue_box *box = (struct queue_box *)q;
	pthread_mutex_lock(&q->lock);
	atomic_store(&q->stopping, true);
	pthread_cond_broadcast(&q->work_cond);
	pthread_mutex_unlock(&q->lock);
	cmd_queue_unblock(q);      /* a worker blocked on an event */
	pthread_join(q->worker, NULL);
	cmd_prio_leave(q);
	munmap(box->stack, WORKER_STACK);
	box->stack = NULL;
}

int
cmd_queue_submit(struct _ze_command_queue_handle_t *q, struct cmd_batch *b,
		 bool wake, uint64_t *ticket)
{
	return cmd_queue_submit_hint(q, b, wake, false, ticket);
}

int
cmd_queue_submit_hint(struct _ze_command_queue_handle_t *q,
		      struct cmd_batch *b, bool wake, bool hint,
		      uint64_t *ticket)
{
	b->next = NULL;
	atomic_init(&b->progress, 0);
	/* In flight before the worker can see it: a free never misses a
	 * batch that is about to run. */
	cmd_mem_track(b);
	pthread_mutex_lock(&q->lock);
	if (atomic_load(&q->stopping)) {
		pthread_mutex_unlock(&q->lock);
		cmd_mem_untrack(b);
		return -ESHUTDOWN;
	}
	/* Once the lock is dropped the worker may run and free b. */
	uint64_t t = atomic_load(&q->submitted) + 1;
	b->ticket = t;
	atomic_store_explicit(&q->submitted, t, memory_order_release);
	if (hint && b->has_op && b->op.signal)
		cmd_event_hint(b->op.signal, q, t);
	if (q->tail)
		q->tail->next = b;
	else
		q->head = b;
	q->tail = b;
	/* Nothing ahead of it: the engine's lower-priority queues stop at
	 * their next op if it can run (cmd_prio.c). */
	if (cmd_prio_mixed(q) && atomic_load(&q->completed) + 1 == t)
		cmd_prio_submitted(q, stealable(b));
	if (wake)
		pthread_cond_signal(&q->work_cond);
	pthread_mutex_unlock(&q->lock);
	*ticket = t;
	return 0;
}

/* What a synchronize answers once its ticket completed. */
static ze_result_t
queue_result(struct _ze_command_queue_handle_t *q)
{
	return atomic_load_explicit(&q->lost, memory_order_acquire)
		? DRV_FAIL(ZE_RESULT_ERROR_DEVICE_LOST,
			   "an op of queue %p faulted on memory it could not "
			   "access", (void *)q)
		: ZE_RESULT_SUCCESS;
}

ze_result_t
cmd_queue_wait(struct _ze_command_queue_handle_t *q, uint64_t ticket,
	       uint64_t timeout)
{
	if (atomic_load_explicit(&q->completed, memory_order_acquire) >=
	    ticket)
		return queue_result(q);
	if (timeout == 0)
		return ZE_RESULT_NOT_READY;
	/* Waiting for as long as it takes: run the batch here if the worker
	 * has not taken it up yet (a bounded wait must not risk a long copy
	 * on its own thread). */
	if (timeout == UINT64_MAX && cmd_queue_steal(q, ticket))
		return queue_result(q);
	/* Spin only while the worker runs our batch: when it is not picked
	 * up at once, the worker is busy or off CPU, and sleeping frees the
	 * CPU it may need. */
	if (cmd_spin_u64(&q->started, ticket,
			 cmd_spin_cap(timeout, CMD_SPIN_PICKUP_NS)) &&
	    cmd_spin_u64(&q->completed, ticket,
			 cmd_spin_cap(timeout, CMD_SPIN_HOST_NS)))
		return queue_result(q);
	struct cmd_deadline d;
	cmd_deadline_set(&d, timeout);
	pthread_mutex_lock(&q->lock);
	/* A batch submitted without waking the worker (see
	 * cmd_queue_submit) that we did not run ourselves: wake it now. */
	if (q->head && !q->inline_busy)
		pthread_cond_signal(&q->work_cond);
	while (atomic_load(&q->completed) < ticket) {
		if (ticket < q->wake_at)
			q->wake_at = ticket;
		if (cmd_cond_wait(&q->done_cond, &q->lock, &d))
			break;
	}
	bool done = atomic_load(&q->completed) >= ticket;
	pthread_mutex_unlock(&q->lock);
	return done ? queue_result(q) : ZE_RESULT_NOT_READY;
}

ze_result_t
cmd_zeCommandQueueCreate(ze_context_handle_t hContext,
			 ze_device_handle_t hDevice,
			 const ze_command_queue_desc_t *desc,
			 ze_command_queue_handle_t *phCommandQueue)
{
	if (!hContext || !hDevice)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hContext or hDevice is NULL");
	if (!desc || !phCommandQueue)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"desc or phCommandQueue is NULL");
	struct _ze_context_handle_t *c;
	struct _ze_device_handle_t *d;
	ze_result_t r = cmd_ctx_dev(hContext, hDevice, &c, &d);
	if (r || (r = cmd_queue_check_desc(desc)))
		return r;
	return cmd_queue_create(c, d, desc, false, phCommandQueue);
}

ze_result_t
cmd_zeCommandQueueDestroy(ze_command_queue_handle_t hCommandQueue)
{
	struct _ze_command_queue_handle_t *q;
	CMD_GET(q, cmd_queue_get, hCommandQueue, "hCommandQueue");
	ze_result_t r = ZE_RESULT_SUCCESS;
	uint32_t nf = atomic_load(&q->nfences);
	if (nf)
		r = DRV_FAIL(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE,
			     "%u fence(s) of the queue are alive: destroy "
			     "them first", nf);
	else if (cmd_reg_remove(&q->obj)) {
		cmd_queue_stop(q);
		cmd_obj_put(&q->obj);  /* the creator's reference */
	} else
		r = DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
			     "queue %p destroyed twice", (void *)q);
	cmd_obj_put(&q->obj);
	return r;
}

ze_result_t
cmd_queue_collect(struct _ze_command_queue_handle_t *q, struct cmd_batch *b,
		  uint32_t n, ze_command_list_handle_t *ph)
{
	for (uint32_t i = 0; i < n; i++) {
		if (!ph[i])
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
					"phCommandLists[%u] is NULL", i);
		struct _ze_command_list_handle_t *l = cmd_list_get(ph[i]);
		if (!l)
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
					"phCommandLists[%u] = %p is not a "
					"live command list", i, (void *)ph[i]);
		b->lists[b->nlists++] = l;
		if (l->immediate)
			return DRV_FAIL(
				ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE,
				"phCommandLists[%u] is an immediate list", i);
		if (l->ordinal != q->ordinal)
			return DRV_FAIL(
				ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE,
				"phCommandLists[%u] has ordinal %u, the queue "
				"%u", i, l->ordinal, q->ordinal);
		if (l->ctx != q->ctx || l->dev != q->dev)
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
					"phCommandLists[%u] belongs to another "
					"context or device", i);
	}
	/* All or none become executing: a list that is still open fails
	 * the call. */
	for (uint32_t i = 0; i < n; i++) {
		struct _ze_command_list_handle_t *l = b->lists[i];
		pthread_mutex_lock(&l->lock);
		bool closed = l->closed;
		if (closed)
			l->executing++;
		pthread_mutex_unlock(&l->lock);
		if (!closed) {
			for (uint32_t j = 0; j < i; j++) {
				pthread_mutex_lock(&b->lists[j]->lock);
				b->lists[j]->executing--;
				pthread_mutex_unlock(&b->lists[j]->lock);
			}
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
					"phCommandLists[%u] is not closed", i);
		}
	}
	return ZE_RESULT_SUCCESS;
}

ze_result_t
cmd_zeCommandQueueExecuteCommandLists(ze_command_queue_handle_t hCommandQueue,
				      uint32_t numCommandLists,
				      ze_command_list_handle_t *phCommandLists,
				      ze_fence_handle_t hFence)
{
	if (!hCommandQueue)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
				"hCommandQueue is NULL");
	if (!phCommandLists)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
				"phCommandLists is NULL");
	if (numCommandLists == 0)
		return DRV_FAIL(ZE_RESULT_ERROR_INVALID_SIZE,
				"numCommandLists is 0");
	struct _ze_command_queue_handle_t *q;
	CMD_GET(q, cmd_queue_get, hCommandQueue, "hCommandQueue");
	ze_result_t r;
	struct cmd_batch *b = cmd_zalloc(1, sizeof(*b));
	struct _ze_command_list_handle_t **lists =
		cmd_zalloc(numCommandLists, sizeof(*lists));
	if (!b || !lists) {
		free(b);
		free(lists);
		cmd_obj_put(&q->obj);
		return DRV_FAIL(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY,
				"no memory for %u lists", numCommandLists);
	}
	b->lists = lists;
	if (hFence) {
		b->fence = cmd_fence_get(hFence);
		if (!b->fence) {
			r = DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
				     "hFence %p is not a live fence",
				     (void *)hFence);
			goto err;
		}
		if (b->fence->queue != q) {
			r = DRV_FAIL(
				ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT,
				"hFence was created on another queue");
			goto err;
		}
	}
	r = cmd_queue_collect(q, b, numCommandLists, phCommandLists);
	if (r) {
		/* No list is executing: drop the references only. */
		for (uint32_t i = 0; i < b->nlists; i++)
			cmd_obj_put(&b->lists[i]->obj);
		b->nlists = 0;
		goto err;
	}
	/* A synchronous queue waits at once (and may run the lists itself):
	 * no need to wake the worker first. */
	bool sync = q->mode == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
	uint64_t ticket;
	cmd_cb_arm_batch(b); /* counter-based events its lists signal */
	int err = cmd_queue_submit(q, b, !sync, &ticket);
	if (err) {
		cmd_cb_unarm_batch(b);
		r = DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,
			     "the queue is being destroyed");
		goto err;
	}
	if (sync)
		r = cmd_queue_wait(q, ticket, UINT64_MAX);
	cmd_obj_put(&q->obj);
	return r;
err:
	cmd_batch_free(b);
	cmd_obj_put(&q->obj);
	return r;
}

ze_result_t
cmd_zeCommandQueueSynchronize(ze_command_queue_handle_t hCommandQueue,
			      uint64_t timeout)
{
	struct _ze_command_queue_handle_t *q;
	CMD_GET(q, cmd_queue_get, hCommandQueue, "hCommandQueue");
	ze_result_t r = cmd_queue_wait(q, atomic_load(&q->submitted), timeout);
	cmd_obj_put(&q->obj);
	return r;
}

#define QUEUE_GETTER(Name, type, expr)                                      \
	ze_result_t cmd_zeCommandQueueGet##Name(                            \
		ze_command_queue_handle_t hCommandQueue, type *out)         \
	{                                                                   \
		struct _ze_command_queue_handle_t *q;                       \
		CMD_GET_OUT(q, cmd_queue_get, hCommandQueue,                \
			    "hCommandQueue", out, "the output pointer",     \
			    ZE_RESULT_SUCCESS, expr);                       \
	}
QUEUE_GETTER(Ordinal, uint32_t, q->ordinal)
QUEUE_GETTER(Index, uint32_t, q->index)
QUEUE_GETTER(Flags, ze_command_queue_flags_t, q->flags)
QUEUE_GETTER(Mode, ze_command_queue_mode_t, q->mode)
QUEUE_GETTER(Priority, ze_command_queue_priority_t, q->priority)
