// SPDX-License-Identifier: MIT
/*
 * cmd_sync: how the copy engine waits: deadlines on CLOCK_MONOTONIC, a short
 * bounded spin before sleeping, the futex words of events, and the one
 * lock + condvar that fence state changes are published under.
 *
 * Vocabulary:
 *   deadline  an absolute CLOCK_MONOTONIC time, or "forever" (timeout
 *             UINT64_MAX); a timeout of 0 means "just look";
 *   spin      a bounded busy-wait before sleeping, yielding the CPU
 *             between steps (see cmd.h for the budgets):
 *             work that finishes within it is seen without a futex round
 *             trip. Skipped on one-CPU machines.
 *
 *   event word  each event's state is the 32-bit word of its slot
 *             (struct cmd_slot): CLEAR, SET, or WAITED (not set, someone
 *             sleeps on it). A waiter moves CLEAR to WAITED and sleeps in
 *             FUTEX_WAIT on WAITED; the signaller exchanges in SET and
 *             calls FUTEX_WAKE only when it took WAITED out, so a signal
 *             nobody waits for costs one atomic exchange. Timestamps and
 *             the status (lost or not) are written before SET. The futex
 *             is private unless the pool is IPC: then the word lives in a
 *             MAP_SHARED file mapping and waiters of other processes are
 *             woken too.
 *
 * Locking: events take no lock at all. cmd_sync_lock protects the fences'
 * signalled flags (atomics, so queries read them without it); each change
 * is followed by a broadcast on cmd_sync_cond, which fence waiters sleep
 * on. A worker sleeping on an event word is woken by its queue's stop
 * (cmd_queue_unblock), and looks at the stop flag every WORKER_SLICE_NS
 * in case that wake came just before it fell asleep. Leaf lock.
 */
#include "cmd.h"

#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "u_os.h"


pthread_mutex_t cmd_sync_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cmd_sync_cond;
static pthread_once_t sync_once = PTHREAD_ONCE_INIT;
static bool spin_ok;

static void
sync_init(void)
{
	/* A failure here leaves the default (realtime) clock: waits then
	 * follow wall-clock jumps, which is still correct for "forever". */
	if (cmd_cond_init(&cmd_sync_cond))
		pthread_cond_init(&cmd_sync_cond, NULL);
	spin_ok = u_cpu_count() > 1;
}

void
cmd_sync_init(void)
{
	pthread_once(&sync_once, sync_init);
}

int
cmd_cond_init(pthread_cond_t *c)
{
	pthread_condattr_t a;
	int err = pthread_condattr_init(&a);
	if (err)
		return -err;
	err = pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	if (!err)
		err = pthread_cond_init(c, &a);
	pthread_condattr_destroy(&a);
	return -err;
}

void
cmd_deadline_set(struct cmd_deadline *d, uint64_t timeout)
{
	d->forever = timeout == UINT64_MAX;
	if (d->forever)
		return;
	clock_gettime(CLOCK_MONOTONIC, &d->at);
	uint64_t sec = timeout / 1000000000ull;
	long nsec = (long)(timeout % 1000000000ull) + d->at.tv_nsec;
	if (nsec >= 1000000000l) {
		nsec -= 1000000000l;
		sec++;
	}
	/* Saturate far-future deadlines instead of overflowing time_t. */
	if (sec > (uint64_t)INT32_MAX) {
		d->forever = true;
		return;
	}
	d->at.tv_sec += (time_t)sec;
	d->at.tv_nsec = nsec;
}

int
cmd_cond_wait(pthread_cond_t *c, pthread_mutex_t *m,
	      const struct cmd_deadline *d)
{
	if (d->forever) {
		pthread_cond_wait(c, m);
		return 0;
	}
	return pthread_cond_timedwait(c, m, &d->at) == ETIMEDOUT ? -ETIMEDOUT
								  : 0;
}

static inline void
cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield");
#endif
}

/* One step of a spin: a few pauses, then a yield, so a spinning thread
 * gives its CPU up when there are more runnable threads than CPUs (the
 * worker it waits for may need exactly that CPU). */
#define SPIN_STEP(done)                                                     \
	do {                                                                \
		for (int i_ = 0; i_ < 64; i_++) {                           \
			cpu_relax();                                        \
			if (done)                                           \
				return true;                                \
		}                                                           \
		sched_yield();                                              \
	} while (0)

bool
cmd_spin_u64(_Atomic uint64_t *v, uint64_t want, uint64_t ns)
{
	cmd_sync_init();
	if (atomic_load_explicit(v, memory_order_acquire) >= want)
		return true;
	if (!spin_ok || !ns)
		return false;
	uint64_t end = u_now_ns() + ns;
	do
		SPIN_STEP(atomic_load_explicit(v, memory_order_acquire) >=
			  want);
	while (u_now_ns() < end);
	return false;
}

bool
cmd_spin_bool(_Atomic bool *v, uint64_t ns)
{
	cmd_sync_init();
	if (atomic_load_explicit(v, memory_order_acquire))
		return true;
	if (!spin_ok || !ns)
		return false;
	uint64_t end = u_now_ns() + ns;
	do
		SPIN_STEP(atomic_load_explicit(v, memory_order_acquire));
	while (u_now_ns() < end);
	return false;
}

static long
futex(_Atomic uint32_t *word, int op, bool shared, uint32_t val,
      const struct timespec *rel)
{
	if (!shared)
		op |= FUTEX_PRIVATE_FLAG;
	return syscall(SYS_futex, (uint32_t *)word, op, val, rel, NULL, 0);
}

uint64_t
cmd_event_now(const struct _ze_event_handle_t *e)
{
	return e->pool->flags & (ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP |
				 ZE_EVENT_POOL_FLAG_KERNEL_MAPPED_TIMESTAMP)
		? u_now_ns() : 0;
}

void
cmd_event_signal(struct _ze_event_handle_t *e, uint64_t start, uint64_t end,
		 uint32_t status)
{
	if (e->cb)
		cmd_cb_complete(e, start, end, status);
	else
		cmd_event_set(e, start, end, status);
}

void
cmd_event_set(struct _ze_event_handle_t *e, uint64_t start, uint64_t end,
	      uint32_t status)
{
	struct cmd_slot *s = e->slot;
	atomic_store_explicit(&s->ts_start, start, memory_order_relaxed);
	atomic_store_explicit(&s->ts_end, end, memory_order_relaxed);
	atomic_store_explicit(&s->status, status, memory_order_relaxed);
	/* Whoever moved the word to WAITED sleeps on it (here or in another
	 * process): only then is a wake needed. */
	if (atomic_exchange_explicit(&s->state, CMD_SLOT_SET,
				     memory_order_acq_rel) == CMD_SLOT_WAITED)
		futex(&s->state, FUTEX_WAKE, e->pool->shared, INT32_MAX, NULL);
}

void
cmd_event_reset(struct _ze_event_handle_t *e)
{
	/* Only SET -> CLEAR: a WAITED word is unsignalled already and keeps
	 * telling the next signal that someone sleeps. */
	uint32_t set = CMD_SLOT_SET;
	atomic_compare_exchange_strong_explicit(&e->slot->state, &set,
						CMD_SLOT_CLEAR,
						memory_order_acq_rel,
						memory_order_relaxed);
	atomic_store_explicit(&e->slot->status, 0, memory_order_relaxed);
}

ze_result_t
cmd_event_status(const struct _ze_event_handle_t *e)
{
	if (atomic_load_explicit(&e->slot->state, memory_order_acquire) !=
	    CMD_SLOT_SET)
		return ZE_RESULT_NOT_READY;
	return atomic_load_explicit(&e->slot->status, memory_order_relaxed)
		? ZE_RESULT_ERROR_DEVICE_LOST : ZE_RESULT_SUCCESS;
}

/* Sleeps until the slot is SET (true), or until `until` (CLOCK_MONOTONIC
 * ns; UINT64_MAX: no end) or, when slice is not 0, slice ns from now
 * passes (false), whichever comes first. */
static bool
slot_sleep(struct cmd_slot *s, bool shared, uint64_t until, uint64_t slice)
{
	uint64_t stop = until;
	if (slice && u_now_ns() + slice < stop)
		stop = u_now_ns() + slice;
	for (;;) {
		uint32_t v = atomic_load_explicit(&s->state,
						  memory_order_acquire);
		if (v == CMD_SLOT_SET)
			return true;
		/* CLEAR, or a value no zemem process writes (another process
		 * sharing the pool scribbled on it): unsignalled, and the
		 * word must read WAITED before we may sleep on it, else
		 * FUTEX_WAIT would return at once, again and again. */
		if (v != CMD_SLOT_WAITED &&
		    !atomic_compare_exchange_weak_explicit(
			    &s->state, &v, CMD_SLOT_WAITED,
			    memory_order_acq_rel, memory_order_acquire))
			continue;
		struct timespec ts, *rel = NULL;
		if (stop != UINT64_MAX) {
			uint64_t now = u_now_ns();
			if (now >= stop)
				return false;
			ts.tv_sec = (time_t)((stop - now) / 1000000000ull);
			ts.tv_nsec = (long)((stop - now) % 1000000000ull);
			rel = &ts;
		}
		/* EAGAIN (the word changed), EINTR, ETIMEDOUT: look again. */
		futex(&s->state, FUTEX_WAIT, shared, CMD_SLOT_WAITED, rel);
	}
}

ze_result_t
cmd_event_wait(struct _ze_event_handle_t *e, uint64_t timeout)
{
	ze_result_t r = cmd_event_status(e);
	if (r != ZE_RESULT_NOT_READY || !timeout)
		return r;
	cmd_sync_init();
	struct cmd_slot *s = e->slot;
	/* Far-future deadlines saturate (applications pass UINT64_MAX - 1
	 * for "forever" too). */
	uint64_t now = u_now_ns();
	uint64_t until = timeout > UINT64_MAX - now ? UINT64_MAX
						    : now + timeout;
	if (spin_ok) {
		uint64_t end = u_now_ns() +
			cmd_spin_cap(timeout, CMD_SPIN_WORKER_NS);
		do {
			for (int i = 0; i < 64; i++) {
				cpu_relax();
				if (atomic_load_explicit(&s->state,
							 memory_order_acquire)
				    == CMD_SLOT_SET)
					return cmd_event_status(e);
			}
			sched_yield();
		} while (u_now_ns() < end);
	}
	slot_sleep(s, e->pool->shared, until, 0);
	return cmd_event_status(e);
}

void
cmd_fence_signal(struct _ze_fence_handle_t *f)
{
	cmd_sync_init();
	pthread_mutex_lock(&cmd_sync_lock);
	atomic_store_explicit(&f->signalled, true, memory_order_release);
	pthread_cond_broadcast(&cmd_sync_cond);
	pthread_mutex_unlock(&cmd_sync_lock);
}

bool
cmd_events_ready(struct _ze_event_handle_t *const *ev, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (atomic_load_explicit(&ev[i]->slot->state,
					 memory_order_acquire) != CMD_SLOT_SET)
			return false;
	return true;
}

/* How long a worker sleeps on an event word before it looks at its
 * queue's stop flag again (stop also wakes it at once: cmd_queue_unblock;
 * this bounds the wait if that wake raced with the worker falling
 * asleep). */
#define WORKER_SLICE_NS 20000000ull

void
cmd_queue_unblock(struct _ze_command_queue_handle_t *q)
{
	_Atomic uint32_t *w = atomic_load(&q->blocked_on);
	if (w)
		futex(w, FUTEX_WAKE, atomic_load(&q->blocked_shared),
		      INT32_MAX, NULL);
}

int
cmd_events_wait(struct _ze_event_handle_t **ev, uint32_t n,
		struct _ze_command_queue_handle_t *q)
{
	if (cmd_events_ready(ev, n))
		return 0;
	cmd_sync_init();
	/* Blocked: lower-priority queues of the engine may run (they may be
	 * what signals these events). */
	cmd_prio_idle(q);
	for (uint32_t i = 0; i < n; i++) {
		struct cmd_slot *s = ev[i]->slot;
		/* Producer/consumer chains hand over in microseconds. */
		if (spin_ok && i == 0) {
			uint64_t end = u_now_ns() + CMD_SPIN_WORKER_NS;
			while (atomic_load_explicit(&s->state,
						    memory_order_acquire) !=
				       CMD_SLOT_SET &&
			       u_now_ns() < end) {
				for (int k = 0; k < 64; k++)
					cpu_relax();
				sched_yield();
			}
		}
		bool shared = ev[i]->pool->shared;
		atomic_store(&q->blocked_shared, shared);
		atomic_store(&q->blocked_on, &s->state);
		bool set = false;
		while (!set) {
			if (atomic_load(&q->stopping)) {
				atomic_store(&q->blocked_on, NULL);
				return -ECANCELED;
			}
			set = slot_sleep(s, shared, UINT64_MAX,
					 WORKER_SLICE_NS);
		}
		atomic_store(&q->blocked_on, NULL);
	}
	return 0;
}

bool
cmd_wait_signalled(_Atomic bool *flag, uint64_t timeout)
{
	bool done = atomic_load_explicit(flag, memory_order_acquire);
	if (!done && timeout)
		done = cmd_spin_bool(flag, cmd_spin_cap(timeout,
							CMD_SPIN_WORKER_NS));
	if (!done && timeout) {
		struct cmd_deadline d;
		cmd_deadline_set(&d, timeout);
		pthread_mutex_lock(&cmd_sync_lock);
		while (!(done = atomic_load_explicit(flag,
						     memory_order_acquire)))
			if (cmd_cond_wait(&cmd_sync_cond, &cmd_sync_lock, &d))
				break;
		if (!done)
			done = atomic_load(flag);
		pthread_mutex_unlock(&cmd_sync_lock);
	}
	return done;
}
