// SPDX-License-Identifier: MIT
/*
 * cmd_sync: how the copy engine waits: deadlines on CLOCK_MONOTONIC, a short
 * bounded spin before sleeping, and the one lock + condvar that event and
 * fence state changes are published under.
 *
 * Vocabulary:
 *   deadline  an absolute CLOCK_MONOTONIC time, or "forever" (timeout
 *             UINT64_MAX); a timeout of 0 means "just look";
 *   spin      a bounded busy-wait before sleeping, yielding the CPU
 *             between steps (see cmd.h for the budgets):
 *             work that finishes within it is seen without a futex round
 *             trip. Skipped on one-CPU machines.
 *
 * Locking: cmd_sync_lock protects the signalled flags (they are atomics so
 * queries read them without the lock) and event timestamps. Every change is
 * followed by a broadcast on cmd_sync_cond, which host waiters (events,
 * fences) and workers waiting on events sleep on. Queue stops broadcast it
 * too, so a worker blocked on an event notices. Leaf lock.
 */
#include "cmd.h"

#include <errno.h>
#include <sched.h>
#include <time.h>

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

void
cmd_event_signal(struct _ze_event_handle_t *e, uint64_t start, uint64_t end)
{
	cmd_sync_init();
	pthread_mutex_lock(&cmd_sync_lock);
	e->ts_start = start;
	e->ts_end = end;
	atomic_store_explicit(&e->signalled, true, memory_order_release);
	pthread_cond_broadcast(&cmd_sync_cond);
	pthread_mutex_unlock(&cmd_sync_lock);
}

void
cmd_event_reset(struct _ze_event_handle_t *e)
{
	pthread_mutex_lock(&cmd_sync_lock);
	atomic_store_explicit(&e->signalled, false, memory_order_release);
	pthread_mutex_unlock(&cmd_sync_lock);
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

void
cmd_sync_wake_all(void)
{
	cmd_sync_init();
	pthread_mutex_lock(&cmd_sync_lock);
	pthread_cond_broadcast(&cmd_sync_cond);
	pthread_mutex_unlock(&cmd_sync_lock);
}

bool
cmd_events_ready(struct _ze_event_handle_t *const *ev, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (!atomic_load_explicit(&ev[i]->signalled,
					  memory_order_acquire))
			return false;
	return true;
}

int
cmd_events_wait(struct _ze_event_handle_t **ev, uint32_t n,
		struct _ze_command_queue_handle_t *q)
{
	if (cmd_events_ready(ev, n))
		return 0;
	cmd_sync_init();
	/* Spin on the first unsignalled event: producer/consumer chains hand
	 * over in microseconds. */
	for (uint32_t i = 0; i < n; i++)
		if (!cmd_spin_bool(&ev[i]->signalled, CMD_SPIN_WORKER_NS))
			break;
	struct cmd_deadline forever = { .forever = true };
	int ret = 0;
	pthread_mutex_lock(&cmd_sync_lock);
	while (!cmd_events_ready(ev, n)) {
		if (atomic_load_explicit(&q->stopping, memory_order_acquire)) {
			ret = -ECANCELED;
			break;
		}
		cmd_cond_wait(&cmd_sync_cond, &cmd_sync_lock, &forever);
	}
	pthread_mutex_unlock(&cmd_sync_lock);
	return ret;
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
