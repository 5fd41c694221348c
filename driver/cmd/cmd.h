// SPDX-License-Identifier: MIT
/*
 * cmd: the copy engine of the zemem driver: command queues, command lists
 * (regular and immediate), fences, event pools and events.
 *
 * Vocabulary:
 *   object   a queue, list, fence, event pool or event. Every object starts
 *            with struct cmd_obj (magic, type, reference count). The handle
 *            given to the application is the object's address; it is only
 *            dereferenced after the registry (cmd_registry.c) says that
 *            address is a live object of the expected type, so forged and
 *            destroyed handles are rejected without being read.
 *   op       one recorded command (copy, fill, region copy, barrier, signal,
 *            wait, reset, prefetch, advise, global timestamp) with its
 *            signal and wait events.
 *   batch    one unit of work handed to a queue's worker: the closed lists of
 *            one zeCommandQueueExecuteCommandLists call (plus its fence), or
 *            the single op of one append to an immediate list.
 *   worker   the thread a queue owns. It runs batches in submission order,
 *            ops in list order. An immediate list owns an implicit queue.
 *            A thread that waits for a batch the worker has not taken up
 *            runs it itself instead ("steal", cmd_queue.c).
 *   ticket   batches are numbered per queue; a queue's `completed` ticket
 *            tells Synchronize what has finished.
 *   in flight  a batch between submission and completion; cmd_mem.c keeps
 *            them in a list so frees can tell whether memory is still used
 *            (only ops not yet finished count: see batch->progress).
 *
 * Lifetime: registry lookups take a reference; destroy removes the object
 * from the registry (later lookups fail) and drops the creator's reference.
 * Ops hold references on their events, batches on their lists and fence,
 * events on their pool, fences and lists on their queue: memory that work
 * still needs outlives the handle.
 *
 * Locks (no two of them are ever held at the same time, except
 * queue->lock -> event->hint_lock at submit, queue->lock -> engine->lock
 * (submit, end of batch) and engines_lock -> engine->lock (cmd_prio.c);
 * every other is a leaf):
 *   reg_lock          the registry table (cmd_registry.c);
 *   cmd_sync_lock     signalled state of fences; waiters sleep on
 *                     cmd_sync_cond (CLOCK_MONOTONIC). Events take no lock:
 *                     their state is a futex word (cmd_sync.c);
 *   queue->lock       the queue's FIFO, tickets, wake_at, inline_busy and
 *                     the stop flag;
 *   list->lock        a regular list's ops, closed flag, executing count;
 *   pool->lock        an event pool's slot table;
 *   event->hint_lock  which queue an event's hint names (cmd_event.c);
 *   engine->lock      the priority state of the queues of one engine
 *                     (cmd_prio.c);
 *   mem_lock          the in-flight batch list and deferred frees
 *                     (cmd_mem.c); usm is called only after releasing it.
 *
 * Errors: entry points return ze_result_t (argument checks use DRV_FAIL, as
 * the rest of the driver); internal helpers return 0 or -errno and
 * drv_result() translates them.
 */
#ifndef ZEMEM_CMD_H
#define ZEMEM_CMD_H

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "amap/amap.h"
#include "cmd_api.h"
#include "drv_core.h"

#define CMD_MAGIC 0x7a6d636du /* "zmcm" */

/* Queue groups reported by zeDeviceGetCommandQueueGroupProperties. */
#define CMD_ORDINAL_COMPUTE 0u
#define CMD_ORDINAL_COPY 1u
#define CMD_GROUP_COUNT 2u
#define CMD_COMPUTE_QUEUES 4u
#define CMD_COPY_QUEUES 2u
#define CMD_MAX_PATTERN 128u

/* Largest values the spec defines (1.18). ze_api.h stops at
 * ZE_MEMORY_ADVICE_BIAS_UNCACHED (7); the spec also has the
 * SET/CLEAR_SYSTEM_MEMORY_PREFERRED_LOCATION advices (8, 9). */
#define CMD_ADVICE_MAX 9u
#define CMD_QUEUE_FLAGS_ALL 0x7u
#define CMD_LIST_FLAGS_ALL 0x1fu
#define CMD_POOL_FLAGS_ALL 0xfu
#define CMD_SCOPE_FLAGS_ALL 0x7u

enum cmd_type {
	CMD_T_QUEUE = 1,
	CMD_T_LIST,
	CMD_T_FENCE,
	CMD_T_POOL,
	CMD_T_EVENT,
};

struct cmd_obj {
	uint32_t magic;              /* CMD_MAGIC while allocated */
	uint32_t type;               /* enum cmd_type */
	_Atomic uint32_t refs;
	void (*release)(struct cmd_obj *o); /* frees it: refs reached 0 */
};

enum cmd_op_kind {
	CMD_OP_COPY,
	CMD_OP_FILL,
	CMD_OP_REGION,
	CMD_OP_BARRIER,  /* waits and signal only */
	CMD_OP_SIGNAL,
	CMD_OP_WAIT,
	CMD_OP_RESET,    /* resets op->signal instead of signalling it */
	CMD_OP_PREFETCH, /* recorded, no data effect */
	CMD_OP_ADVISE,   /* recorded, no data effect */
	CMD_OP_TIMESTAMP, /* writes the device time to u.copy.dst */
};

/* A region copy, normalized at append time: height and depth >= 1, dst and
 * src point at the region's first byte. */
struct cmd_region {
	char *dst;
	const char *src;
	size_t width, height, depth;
	size_t dpitch, dslice, spitch, sslice;
};

/* cmd_op.probe: sides of an op in memory the driver does not map
 * read-write itself. VMM ranges (their access can be read-only or none)
 * are checked against their access attribute before the op touches them;
 * system memory (malloc'ed, stack, mmap'ed by the application, which may
 * have mprotect'ed it) is touched under a guard (cmd_guard.c). Either way
 * an access that is not allowed fails the op instead of taking the
 * process down. USM allocations and IPC imports are mapped read-write by
 * the driver and cost nothing. */
#define CMD_VMM_DST 0x1u
#define CMD_VMM_SRC 0x2u
#define CMD_SYS_DST 0x4u
#define CMD_SYS_SRC 0x8u

struct cmd_op {
	enum cmd_op_kind kind;
	uint8_t probe;                     /* CMD_PROBE_* */
	uint32_t nwait;
	struct _ze_event_handle_t *signal; /* reference, or NULL */
	struct _ze_event_handle_t **wait;  /* nwait references (malloc'ed) */
	union {
		struct {
			void *dst;
			const void *src;
			size_t size;
		} copy;
		struct {
			void *dst;
			size_t size;
			uint32_t psize;
			uint8_t pattern[CMD_MAX_PATTERN];
		} fill;
		struct cmd_region region;
		struct {
			const void *ptr;
			size_t size;
			uint32_t advice;
		} hint;
	} u;
};

struct cmd_batch {
	struct cmd_batch *next;            /* queue FIFO (queue->lock) */
	struct cmd_batch *iprev, *inext;   /* in-flight list (mem_lock) */
	uint64_t ticket;
	_Atomic uint64_t progress;         /* ops of this batch finished */
	struct _ze_fence_handle_t *fence;  /* reference, or NULL */
	uint32_t nlists;
	struct _ze_command_list_handle_t **lists; /* references */
	bool has_op;                       /* immediate: `op` is the work; with
					    * lists (append of command lists
					    * to an immediate list), its waits
					    * run before them and its signal
					    * after them */
	bool lost;                         /* an op faulted (cmd_exec.c) */
	struct cmd_op op;
};

struct _ze_command_queue_handle_t {
	struct cmd_obj obj;
	struct _ze_context_handle_t *ctx;
	struct _ze_device_handle_t *dev;
	uint32_t ordinal, index;
	ze_command_queue_flags_t flags;
	ze_command_queue_mode_t mode;
	ze_command_queue_priority_t priority;
	bool implicit;                 /* owned by an immediate list */
	pthread_t worker;
	pthread_mutex_t lock;
	pthread_cond_t work_cond;      /* worker: a batch arrived, or stop */
	pthread_cond_t done_cond;      /* synchronizers: a batch completed */
	/* Lines of their own (the queue is 64-aligned): an idle worker
	 * spins on submitted and then started, a synchronizer on
	 * completed, and the FIFO's stores (submit, steal, end of batch)
	 * go to another line, so they do not take a spinner's line away
	 * from it each time. */
	_Alignas(64) _Atomic uint64_t submitted; /* last ticket handed out
						  * (lock) */
	_Atomic uint64_t started;      /* ticket last taken up (worker or
					* stealer) */
	_Alignas(64) _Atomic uint64_t completed; /* last ticket finished */
	_Alignas(64) struct cmd_batch *head, *tail; /* FIFO (lock) */
	uint64_t wake_at;              /* lowest ticket a sleeping
					* synchronizer waits for (lock) */
	bool inline_busy;              /* a synchronizer runs a stolen
					* batch: the worker waits (lock) */
	_Atomic bool stopping;         /* destroy: drain and exit */
	_Atomic bool lost;             /* an op faulted: every later
					* synchronize answers DEVICE_LOST */
	_Atomic uint32_t nfences;      /* live fences created on it */
	_Atomic(_Atomic uint32_t *) blocked_on; /* the event word the worker
					* sleeps on (stop wakes it) */
	_Atomic bool blocked_shared;   /* ... and whether that word is in
					* shared memory (non-private futex) */
	/* Priority (cmd_prio.c): the engine of (dev, ordinal, index) */
	struct cmd_engine *eng;
	_Atomic bool prio_on;          /* the engine has queues of several
					* priorities (written under
					* eng->lock) */
	struct _ze_command_queue_handle_t *prio_next; /* eng->queues */
	uint8_t prio_rank;             /* LOW 0, NORMAL 1, HIGH 2 */
	_Atomic bool prio_act;         /* runnable work (eng->lock) */
	bool prio_inop;                /* in an op (eng->lock) */
	uint32_t prio_ack;             /* last settle gen seen (eng->lock) */
};

struct _ze_command_list_handle_t {
	struct cmd_obj obj;
	struct _ze_context_handle_t *ctx;
	struct _ze_device_handle_t *dev;
	uint32_t ordinal;
	ze_command_list_flags_t flags;
	bool immediate;
	struct _ze_command_queue_handle_t *queue; /* immediate: implicit */
	pthread_mutex_t lock;
	bool closed;                   /* lock */
	uint32_t executing;            /* batches using it (lock) */
	struct cmd_op *ops;            /* lock; immutable while executing */
	size_t nops, cap;
	bool has_cb;                   /* an op signals a counter-based
					* event (lock; immutable while
					* executing) */
};

struct _ze_fence_handle_t {
	struct cmd_obj obj;
	struct _ze_command_queue_handle_t *queue; /* reference */
	_Atomic bool signalled;        /* written under cmd_sync_lock */
	_Atomic bool lost;             /* its batch faulted (set before
					* signalled) */
};

/* The state of one event: a slot of its pool's array, in memory shared
 * with other processes when the pool is IPC (cmd_event_ipc.c). `state` is
 * the futex word waiters sleep on. */
enum cmd_slot_state {
	CMD_SLOT_CLEAR = 0,  /* not signalled */
	CMD_SLOT_SET = 1,    /* signalled */
	CMD_SLOT_WAITED = 2, /* not signalled, someone sleeps on the word */
};
#define CMD_SLOT_LOST 1u /* status: the work that signalled it faulted */

struct cmd_slot {
	_Atomic uint32_t state;        /* enum cmd_slot_state */
	_Atomic uint32_t status;       /* 0 or CMD_SLOT_LOST, written before
					* state becomes SET */
	_Atomic uint64_t ts_start, ts_end; /* written before state is SET */
	_Atomic uint64_t counter;      /* counter-based events: how many ops
					* that signal it have completed; it
					* is complete when that reaches the
					* number armed (cmd_event_cb.c) */
	uint8_t pad[32];               /* one cache line per event */
};
_Static_assert(sizeof(struct cmd_slot) == 64, "one line per event slot");

struct _ze_event_pool_handle_t {
	struct cmd_obj obj;
	struct _ze_context_handle_t *ctx;
	ze_event_pool_flags_t flags;
	uint32_t count;
	pthread_mutex_t lock;
	bool dead;                     /* destroyed (lock) */
	uint32_t nlive;                /* live events (lock) */
	uint8_t *used;                 /* index taken by a live event (lock) */
	struct cmd_slot *slots;        /* count slots */
	bool shared;                   /* slots in MAP_SHARED memory another
					* process may map: non-private futex */
	bool imported;                 /* opened from an IPC handle */
	void *ipc_base;                /* IPC pools: the host allocation
					* (exporter) or the mapping (importer)
					* that holds a header and the slots */
};

struct _ze_event_handle_t {
	struct cmd_obj obj;
	struct _ze_event_pool_handle_t *pool; /* reference */
	uint32_t index;
	ze_event_scope_flags_t signal_scope, wait_scope;
	struct cmd_slot *slot;         /* &pool->slots[index] */
	/* The last immediate-list batch submitted to signal it, so a host
	 * wait can run that batch itself (see "steal", cmd_queue.c): queue
	 * reference and ticket. hint_q changes under hint_lock (readers
	 * take it to get a reference); the ticket alone is stored without
	 * it when the queue stays the same. */
	pthread_mutex_t hint_lock;
	_Atomic(struct _ze_command_queue_handle_t *) hint_q;
	_Atomic uint64_t hint_ticket;
	/* Counter-based (zeEventCounterBasedCreate, cmd_event_cb.c): its pool
	 * is its own (one slot) and goes with it. */
	bool cb;
	ze_event_counter_based_flags_t cb_flags;
	uint64_t cb_armed;             /* signalling ops appended or
					* executed so far (hint_lock) */
	bool cb_ipc_got;               /* cb_ipc was handed out: put it
					* back at destroy (hint_lock) */
	ze_ipc_event_pool_handle_t cb_ipc;
};

/* Resolves handle h with getter (a registry lookup that returns a reference)
 * into var, or returns from the calling entry point: NULL ->
 * INVALID_NULL_HANDLE, not a live object -> INVALID_ARGUMENT. */
#define CMD_GET(var, getter, h, name)                                       \
	do {                                                                \
		if (!(h))                                                   \
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,\
					name " is NULL");                   \
		(var) = getter(h);                                          \
		if (!(var))                                                 \
			return DRV_FAIL(ZE_RESULT_ERROR_INVALID_ARGUMENT,   \
					name " %p is not a live object "    \
					"(never created, or destroyed)",    \
					(const void *)(h));                 \
	} while (0)
/* The body of a getter: CMD_GET, then refuse (a ze_result_t: nonzero
 * refuses the call) and *out = expr, which may use var
 * (ZE_RESULT_ERROR_INVALID_NULL_POINTER when out is NULL), then the
 * reference is put back. Returns from the function. */
#define CMD_GET_OUT(var, getter, h, name, out, out_name, refuse, expr)      \
	do {                                                                \
		CMD_GET(var, getter, h, name);                              \
		ze_result_t r_ = ZE_RESULT_SUCCESS;                         \
		if (!(out))                                                 \
			r_ = DRV_FAIL(ZE_RESULT_ERROR_INVALID_NULL_POINTER, \
				      out_name " is NULL");                 \
		else if (!(r_ = (refuse)))                                  \
			*(out) = (expr);                                    \
		cmd_obj_put(&(var)->obj);                                   \
		return r_;                                                  \
	} while (0)

/* cmd_registry.c */
int cmd_reg_add(struct cmd_obj *o, enum cmd_type type,
		void (*release)(struct cmd_obj *));
/* Live object of that type at address h, with a reference; NULL else. */
struct cmd_obj *cmd_reg_get(const void *h, enum cmd_type type);
/* Takes h out of the registry; false when it was not there. */
bool cmd_reg_remove(struct cmd_obj *o);
void cmd_obj_ref(struct cmd_obj *o);
void cmd_obj_put(struct cmd_obj *o);
/* Counts live objects of a type (tests, debugging). */
size_t cmd_reg_count(enum cmd_type type);

/* cmd_sync.c: the shared waiting machinery of events, fences, queues. */
extern pthread_mutex_t cmd_sync_lock;
extern pthread_cond_t cmd_sync_cond;
/* Sets up cmd_sync_cond once; every object constructor calls it. */
void cmd_sync_init(void);
/* Initialises a condvar on CLOCK_MONOTONIC; 0 or -errno. */
int cmd_cond_init(pthread_cond_t *c);
/* Deadline of a wait of timeout ns from now (UINT64_MAX: none). */
struct cmd_deadline {
	bool forever;
	struct timespec at;
};
void cmd_deadline_set(struct cmd_deadline *d, uint64_t timeout);
/* One wait on c; 0 (woken) or -ETIMEDOUT (deadline passed). */
int cmd_cond_wait(pthread_cond_t *c, pthread_mutex_t *m,
		  const struct cmd_deadline *d);
/* Spin budgets. A host thread waiting for a queue first spins up to
 * CMD_SPIN_PICKUP_NS for the worker to start its batch; once the batch
 * runs, it spins up to CMD_SPIN_HOST_NS for the end: that covers a copy of
 * about a MiB, for which a futex wakeup would cost 10% and more. Longer
 * spins cost more than they save: on a busy machine the spinner takes CPU
 * time (and memory bandwidth, on an SMT sibling) from the worker itself
 * (measured: memcpy 30 -> 10 GB/s beside a pause loop on a 2-vCPU VM).
 * An idle worker spins CMD_SPIN_IDLE_NS for more work (a futex wake of a
 * sleeping worker costs the submitter ~10 us on a VM). Workers waiting on
 * an event, and host waits on events and fences, spin CMD_SPIN_WORKER_NS.
 * Every spin yields the CPU between steps (cmd_sync.c). */
#define CMD_SPIN_IDLE_NS 100000u
#define CMD_SPIN_PICKUP_NS 5000u
/* How long an idle worker leaves new work to a host that may steal it. */
#define CMD_SPIN_GRACE_NS 2000u
#define CMD_SPIN_HOST_NS 50000u
#define CMD_SPIN_WORKER_NS 20000u
/* Busy-waits at most ns for *v >= want (or *v true) before the caller
 * sleeps: true if reached. */
bool cmd_spin_u64(_Atomic uint64_t *v, uint64_t want, uint64_t ns);
bool cmd_spin_bool(_Atomic bool *v, uint64_t ns);
/* Waits until *flag (written under cmd_sync_lock) is set, spinning a
 * little first; timeout in ns (0: just look, UINT64_MAX: forever).
 * Returns whether it was set. */
bool cmd_wait_signalled(_Atomic bool *flag, uint64_t timeout);
static inline uint64_t
cmd_spin_cap(uint64_t timeout, uint64_t budget)
{
	return timeout < budget ? timeout : budget;
}
/* Signals e (status 0 or CMD_SLOT_LOST) and wakes whoever sleeps on it,
 * in this process or another. */
void cmd_event_signal(struct _ze_event_handle_t *e, uint64_t start,
		      uint64_t end, uint32_t status);
/* The time for e's timestamps: u_now_ns() where they can be read (its
 * pool has a kernel timestamp flag; an IPC pool has its exporter's
 * flags), else 0, which saves a clock read or two per op. */
uint64_t cmd_event_now(const struct _ze_event_handle_t *e);
void cmd_event_reset(struct _ze_event_handle_t *e);
/* ZE_RESULT_SUCCESS (signalled), NOT_READY, or ERROR_DEVICE_LOST
 * (signalled by work that faulted). */
ze_result_t cmd_event_status(const struct _ze_event_handle_t *e);
/* Host wait: spins briefly, then sleeps on the slot's futex word;
 * timeout as cmd_wait_signalled. Returns as cmd_event_status. */
ze_result_t cmd_event_wait(struct _ze_event_handle_t *e, uint64_t timeout);
/* Wakes the worker of q if it sleeps on an event (stop). */
void cmd_queue_unblock(struct _ze_command_queue_handle_t *q);
void cmd_fence_signal(struct _ze_fence_handle_t *f);
/* Are all n events signalled now? */
bool cmd_events_ready(struct _ze_event_handle_t *const *ev, uint32_t n);
/* Worker side: waits for every event; -ECANCELED when q stops first. */
int cmd_events_wait(struct _ze_event_handle_t **ev, uint32_t n,
		    struct _ze_command_queue_handle_t *q);

/* cmd_event.c */
struct _ze_event_handle_t *cmd_event_get(ze_event_handle_t h);
struct _ze_event_pool_handle_t *cmd_pool_get(ze_event_pool_handle_t h);
/* An immediate list submitted ticket of q to signal e (called under
 * q->lock, before the batch can run: lock order q->lock -> hint_lock). */
void cmd_event_hint(struct _ze_event_handle_t *e,
		    struct _ze_command_queue_handle_t *q, uint64_t ticket);
/* Builds a registered pool around slots (cmd_event_ipc.c uses it). */
ze_result_t cmd_pool_new(struct _ze_context_handle_t *ctx,
			 ze_event_pool_flags_t flags, uint32_t count,
			 struct cmd_slot *slots, void *ipc_base, bool imported,
			 ze_event_pool_handle_t *out);

/* Creates an event at desc->index of p (a reference on p is taken). */
ze_result_t cmd_event_create(struct _ze_event_pool_handle_t *p,
			     const ze_event_desc_t *desc,
			     ze_event_handle_t *phEvent);
/* Sets e's slot (status, timestamps) and wakes its waiters: the signal of
 * an ordinary event, the last completion of a counter-based one. */
void cmd_event_set(struct _ze_event_handle_t *e, uint64_t start,
		   uint64_t end, uint32_t status);

/* cmd_event_cb.c: counter-based events. */
/* An op that signals e was appended to an immediate list or executed:
 * e is not complete until that op has completed. */
void cmd_cb_arm(struct _ze_event_handle_t *e);
/* Arms the counter-based events b signals (before it is submitted). */
void cmd_cb_arm_batch(struct cmd_batch *b);
/* ... and takes those arms back: b was not queued after all. */
void cmd_cb_unarm_batch(struct cmd_batch *b);
/* One op that signals e completed. */
void cmd_cb_complete(struct _ze_event_handle_t *e, uint64_t start,
		     uint64_t end, uint32_t status);
/* Why an append may not signal e (an opened IPC event), or
 * ZE_RESULT_SUCCESS; reset: an append of an event reset. */
ze_result_t cmd_cb_check_append(const struct _ze_event_handle_t *e,
				bool reset);
/* zeEventDestroy of a counter-based event: the event, then its pool. */
ze_result_t cmd_cb_destroy(struct _ze_event_handle_t *e);

/* cmd_event_ipc.c */
/* The counter-based flags an IPC pool's header carries (0: a plain pool),
 * and setting them (the exporter, at creation). */
uint32_t cmd_ipc_pool_cb_flags(const struct _ze_event_pool_handle_t *p);
void cmd_ipc_pool_set_cb_flags(struct _ze_event_pool_handle_t *p,
			       uint32_t flags);
/* Room for the header and count slots of an IPC pool (page multiple). */
size_t cmd_ipc_pool_bytes(uint32_t count);
/* Makes the shared memory of an IPC pool: 0 and *base, *slots. */
ze_result_t cmd_ipc_pool_alloc(struct _ze_context_handle_t *ctx,
			       ze_event_pool_flags_t flags, uint32_t count,
			       void **base, struct cmd_slot **slots);
/* Releases the memory of an IPC pool (free, or close of an import). */
void cmd_ipc_pool_release(struct _ze_event_pool_handle_t *p);

/* cmd_fence.c */
struct _ze_fence_handle_t *cmd_fence_get(ze_fence_handle_t h);

/* cmd_queue.c */
struct _ze_command_queue_handle_t *cmd_queue_get(ze_command_queue_handle_t h);
/* Creates a started queue; implicit ones are not registered. */
ze_result_t cmd_queue_create(struct _ze_context_handle_t *ctx,
			     struct _ze_device_handle_t *dev,
			     const ze_command_queue_desc_t *desc, bool implicit,
			     struct _ze_command_queue_handle_t **out);
/* Validates a queue descriptor (shared with immediate lists). */
ze_result_t cmd_queue_check_desc(const ze_command_queue_desc_t *desc);
/* Stops the worker (draining queued work) and joins it; later submits
 * fail. The caller still owns its reference. */
void cmd_queue_stop(struct _ze_command_queue_handle_t *q);
/* Queues a batch (tracking it in flight first); 0 and its ticket, or
 * -ESHUTDOWN when the queue is stopping. wake false: the caller waits for
 * the ticket at once (cmd_queue_wait wakes the worker if it must). */
int cmd_queue_submit(struct _ze_command_queue_handle_t *q,
		     struct cmd_batch *b, bool wake, uint64_t *ticket);
/* The same; with hint, a batch of one op that signals an event records
 * itself in that event (cmd_event_hint). */
int cmd_queue_submit_hint(struct _ze_command_queue_handle_t *q,
			  struct cmd_batch *b, bool wake, bool hint,
			  uint64_t *ticket);
/* Waits for ticket (running it on the calling thread when it can, see
 * "steal" in cmd_queue.c); ZE_RESULT_SUCCESS, ZE_RESULT_NOT_READY, or
 * ZE_RESULT_ERROR_DEVICE_LOST once an op of the queue faulted. */
ze_result_t cmd_queue_wait(struct _ze_command_queue_handle_t *q,
			   uint64_t ticket, uint64_t timeout);
/* Runs ticket on the calling thread if it is the next batch, nothing runs
 * and its waits are satisfied; true if it did. */
bool cmd_queue_steal(struct _ze_command_queue_handle_t *q, uint64_t ticket);
/* Collects, checks and marks executing the regular lists of an execute
 * or an append to an immediate list (references in b->lists). */
ze_result_t cmd_queue_collect(struct _ze_command_queue_handle_t *q,
			      struct cmd_batch *b, uint32_t n,
			      ze_command_list_handle_t *ph);
/* Resolves and validates a context + device pair of a create call. */
ze_result_t cmd_ctx_dev(ze_context_handle_t hc, ze_device_handle_t hd,
			struct _ze_context_handle_t **c,
			struct _ze_device_handle_t **d);

/* cmd_prio.c: priority between the queues of one engine. */
/* Adds q (its dev, ordinal, index, priority set) to its engine; may wait
 * for the engine's other queues to settle (see there). 0 or -errno. */
int cmd_prio_join(struct _ze_command_queue_handle_t *q);
/* Takes a stopped q out of its engine (nothing when it is in none). */
void cmd_prio_leave(struct _ze_command_queue_handle_t *q);
/* Before an op's data, after its event waits: waits while the engine has
 * higher-priority work or lower ops running; true when the op is counted
 * (then cmd_prio_exit after it). One atomic load when not mixed. */
bool cmd_prio_enter_slow(struct _ze_command_queue_handle_t *q);
static inline bool
cmd_prio_enter(struct _ze_command_queue_handle_t *q)
{
	return atomic_load(&q->prio_on) && cmd_prio_enter_slow(q);
}
void cmd_prio_exit(struct _ze_command_queue_handle_t *q);
/* q has no runnable work (blocks on an event, or its FIFO is empty). */
void cmd_prio_idle_slow(struct _ze_command_queue_handle_t *q);
static inline void
cmd_prio_idle(struct _ze_command_queue_handle_t *q)
{
	if (atomic_load_explicit(&q->prio_act, memory_order_relaxed))
		cmd_prio_idle_slow(q);
}
/* A batch was queued with nothing ahead of it; runnable: its waits are
 * satisfied (called under q->lock, only when cmd_prio_mixed). */
void cmd_prio_submitted(struct _ze_command_queue_handle_t *q, bool runnable);
static inline bool
cmd_prio_mixed(const struct _ze_command_queue_handle_t *q)
{
	return atomic_load(&q->prio_on);
}

/* cmd_list.c */
struct _ze_command_list_handle_t *cmd_list_get(ze_command_list_handle_t h);
/* Records op in a regular list or submits it on an immediate one; takes
 * ownership of op's references in every case. */
ze_result_t cmd_list_add(struct _ze_command_list_handle_t *l,
			 struct cmd_op *op);
/* Submits b on the immediate list l's queue (waits when the list is
 * synchronous); owns b in every case. */
ze_result_t cmd_list_submit(struct _ze_command_list_handle_t *l,
			    struct cmd_batch *b);
void cmd_op_release(struct cmd_op *op);
/* Releases a finished batch: list references, fence, op. */
void cmd_batch_free(struct cmd_batch *b);
/* Zeroed memory for what each submission allocates (batches, their list
 * arrays, an op's waits), as calloc(n, size). Not calloc itself: glibc's
 * (2.36) calloc never takes from the thread's cache that free fills, so
 * once that cache was full every free of such a block went to the arena,
 * merged into its top and consolidated the arena. */
static inline void *
cmd_zalloc(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	void *p = malloc(n * size);
	/* Keeps the compiler from folding malloc + memset into calloc. */
	__asm__("" : "+r"(p));
	if (p)
		memset(p, 0, n * size);
	return p;
}

/* cmd_append.c: nothing shared beyond the entry points (cmd_api.h). */

/* cmd_exec.c */
/* Runs one op on the worker of q: waits, data, progress, signal. 0,
 * -ECANCELED (q stops while it waits), or -EFAULT: a side of the op is
 * not accessible (read-only or unmapped memory): its event is signalled
 * as lost (see "checks" in cmd_exec.c). */
int cmd_exec_op(struct _ze_command_queue_handle_t *q, struct cmd_batch *b,
		struct cmd_op *op);
/* An op that will not run (the batch faulted): its event is signalled
 * as lost so that nobody waits for it forever. */
void cmd_skip_op(struct cmd_op *op);
void cmd_fill(void *dst, size_t size, const uint8_t *pattern, uint32_t psize);
/* Byte range [*lo, *hi) touched by data slot k (0, 1) of op; false if
 * none. */
bool cmd_op_range(const struct cmd_op *op, int k, uintptr_t *lo,
		  uintptr_t *hi);

/* cmd_mem.c */
/* What memory a range lies in, for cmd_op.probe. */
enum cmd_mem_kind {
	CMD_MEM_OWNED,  /* USM or an IPC import: read-write */
	CMD_MEM_VMM,    /* a VMM range of the context */
	CMD_MEM_SYSTEM, /* memory the driver did not map */
};
/* Checks [ptr, ptr + size); *kind (may be NULL) tells which memory it is
 * (CMD_MEM_OWNED for size 0). */
ze_result_t cmd_check_range(struct _ze_context_handle_t *ctx,
			    const void *ptr, size_t size, const char *what,
			    enum cmd_mem_kind *kind);

/* cmd_queue.c: from the first worker or guard on, the driver stays
 * loaded until the process exits (a dlclose only drops a reference). */
void cmd_keep_loaded(void);

/* cmd_guard.c: faults on system memory fail the op (see there). */
struct cmd_guard {
	sigjmp_buf jb;
	volatile sig_atomic_t armed;
	volatile sig_atomic_t sig;  /* the signal that hit it, or 0 */
	uintptr_t lo[2], hi[2];     /* guarded ranges (dst, src) */
};
/* Fills g for op's system-memory sides and makes it this thread's guard;
 * false when no handler could be installed (then run unguarded). Then:
 * if (sigsetjmp(g.jb, 0)) -> faulted; else g.armed = 1, touch, and
 * cmd_guard_done. */
bool cmd_guard_prepare(struct cmd_guard *g, const struct cmd_op *op);
void cmd_guard_done(struct cmd_guard *g);
void cmd_mem_track(struct cmd_batch *b);
void cmd_mem_untrack(struct cmd_batch *b);
/* Worker: an op finished (wakes blocking frees, runs deferred ones). */
void cmd_mem_progress(void);

#endif
