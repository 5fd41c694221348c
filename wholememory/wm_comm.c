// SPDX-License-Identifier: MIT
/*
 * wm_comm: WholeMemory's library state and communicators.
 *
 * The world: the first communicator (wholememory_create_communicator with
 * a unique id, or _from_env) starts libzeshmem (shmemx_init_attr /
 * shmem_init), allocates the mailbox in the symmetric heap and all-gathers
 * each PE's node index and pid. Later creates return another communicator
 * of the same world (the same rank and size only: libzeshmem runs one job
 * per process). wholememory_finalize frees everything and ends
 * libzeshmem if this library started it.
 *
 * The mailbox: in every PE, box[s] (s = sending PE) is one slot
 * {seq, tag, len, data[WM_SLOT]} and ack[d] the last sequence PE d has
 * consumed of what this PE sent it. A send to d waits until d consumed the
 * previous message (ack), puts {tag, len, data} with the new sequence as
 * signal; the receiver waits for it, checks the tag (communicator id and
 * collective number: two ranks in different collectives are a protocol
 * error, not a silent mix-up), copies and acknowledges with an atomic
 * set. Every collective is an all-gather in rounds of WM_SLOT bytes: each
 * member sends one message to every other and receives one from each, so
 * no send waits on a receiver that waits on it. Waits are bounded by
 * libzeshmem's ZESHMEM_TIMEOUT (-ETIMEDOUT).
 *
 * Registry: live communicators and handles in one small array under
 * reg_lock; an API call checks membership before it dereferences.
 */
#include "wm.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define WM_SLOT 2048

struct wm_slot {
	uint64_t seq;
	uint64_t pad[7];
	uint64_t tag;
	uint64_t len;
	char data[WM_SLOT];
};

static struct {
	bool inited;                      /* wholememory_init called */
	bool world;                       /* the world exists */
	bool started_shmem;               /* we called shmem init */
	int me, npes;
	struct wm_slot *box;              /* symmetric: [npes] */
	uint64_t *ack;                    /* symmetric: [npes] */
	uint64_t *sent, *recvd;           /* local: [npes] */
	int *node_of, *pid_of;            /* [npes] */
	uint64_t ncreate;
	ze_driver_handle_t zdrv;
	ze_device_handle_t zdev;
	ze_context_handle_t zctx;
} wm;

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static void **reg;
static size_t reg_n, reg_cap;

int
wm_result(int err)
{
	switch (err) {
	case 0:
		return WHOLEMEMORY_SUCCESS;
	case -EINVAL:
	case -ENOENT:
	case -EBADF:
		return WHOLEMEMORY_INVALID_INPUT;
	case -EDOM:
		return WHOLEMEMORY_INVALID_VALUE;
	case -ENOMEM:
		return WHOLEMEMORY_OUT_OF_MEMORY;
	case -EOPNOTSUPP:
		return WHOLEMEMORY_NOT_SUPPORTED;
	case -EPROTO:
	case -ETIMEDOUT:
	case -EHOSTDOWN:
		return WHOLEMEMORY_COMMUNICATION_ERROR;
	case -ENOTRECOVERABLE:
		return WHOLEMEMORY_LOGIC_ERROR;
	default:
		return WHOLEMEMORY_SYSTEM_ERROR;
	}
}

/* ---- registry ---------------------------------------------------------- */

static int
reg_add(void *p)
{
	int err = 0;
	pthread_mutex_lock(&reg_lock);
	if (reg_n == reg_cap) {
		size_t cap = reg_cap ? reg_cap * 2 : 16;
		void **n = realloc(reg, cap * sizeof(*n));
		if (!n) {
			err = -ENOMEM;
			goto out;
		}
		reg = n;
		reg_cap = cap;
	}
	reg[reg_n++] = p;
out:
	pthread_mutex_unlock(&reg_lock);
	return err;
}

static void
reg_del(void *p)
{
	pthread_mutex_lock(&reg_lock);
	for (size_t i = 0; i < reg_n; i++)
		if (reg[i] == p) {
			reg[i] = reg[--reg_n];
			break;
		}
	if (!reg_n) {
		free(reg);
		reg = NULL;
		reg_cap = 0;
	}
	pthread_mutex_unlock(&reg_lock);
}

static bool
reg_has(const void *p, uint32_t magic)
{
	bool ok = false;
	if (!p)
		return false;
	pthread_mutex_lock(&reg_lock);
	for (size_t i = 0; i < reg_n && !ok; i++)
		ok = reg[i] == p && *(const uint32_t *)p == magic;
	pthread_mutex_unlock(&reg_lock);
	return ok;
}

bool
wm_comm_live(const struct wholememory_comm_ *c)
{
	return reg_has(c, WM_COMM_MAGIC);
}

bool
wm_handle_live(const struct wholememory_handle_ *h)
{
	return reg_has(h, WM_HANDLE_MAGIC);
}

bool
wm_obj_live(const void *p, uint32_t magic)
{
	return reg_has(p, magic);
}

int
wm_obj_register(void *p, bool add)
{
	if (add)
		return reg_add(p);
	reg_del(p);
	return 0;
}

void
wm_handle_register(struct wholememory_handle_ *h, bool add)
{
	if (add)
		(void)reg_add(h);
	else
		reg_del(h);
}

ze_context_handle_t
wm_ze_ctx(void)
{
	return wm.zctx;
}

ze_device_handle_t
wm_ze_dev(void)
{
	return wm.zdev;
}

int
wm_pe_pid(int pe)
{
	return wm.pid_of[pe];
}

/* ---- mailbox ----------------------------------------------------------- */

static int
wait_word(uint64_t *word, uint64_t atleast)
{
	long ms = (long)shmemx_timeout() * 1000;
	if (ms <= 0)
		ms = 60000;
	int r = shmemx_signal_wait_until_timeout(word, SHMEM_CMP_GE, atleast,
						 ms, NULL);
	if (r == 1)
		return -ETIMEDOUT;
	return r < 0 ? r : 0;
}

static int
mb_send(int pe, uint64_t tag, const void *buf, size_t len)
{
	static _Thread_local struct {
		uint64_t tag, len;
		char data[WM_SLOT];
	} st;
	uint64_t n = ++wm.sent[pe];
	int err = wait_word(&wm.ack[pe], n - 1);
	if (err)
		return err;
	st.tag = tag;
	st.len = len;
	memcpy(st.data, buf, len);
	shmem_putmem_signal(&wm.box[wm.me].tag, &st, 16 + len,
			    &wm.box[wm.me].seq, n, SHMEM_SIGNAL_SET, pe);
	return 0;
}

static int
mb_recv(int pe, uint64_t tag, void *buf, size_t len)
{
	struct wm_slot *s = &wm.box[pe];
	uint64_t n = ++wm.recvd[pe];
	int err = wait_word(&s->seq, n);
	if (err)
		return err;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (s->tag != tag || s->len != len) {
		u_err(WM_TOPIC, "PE %d: message of collective %#llx (%llu "
		      "bytes) where %#llx (%zu bytes) was due: the ranks "
		      "called different collectives", pe,
		      (unsigned long long)s->tag, (unsigned long long)s->len,
		      (unsigned long long)tag, len);
		err = -EPROTO;
	} else {
		memcpy(buf, s->data, len);
	}
	shmem_uint64_atomic_set(&wm.ack[wm.me], n, pe);
	return err;
}

int
wm_allgather(struct wholememory_comm_ *c, const void *mine, size_t len, void *all)
{
	const char *in = mine;
	char *out = all;
	size_t done = 0;
	int err = 0;
	do {
		size_t piece = len - done < WM_SLOT ? len - done : WM_SLOT;
		uint64_t tag = (c->id << 24) ^ (++c->ncoll);
		for (int i = 0; i < c->size && !err; i++)
			if (i != c->rank)
				err = mb_send(c->pe[i], tag, in + done, piece);
		for (int i = 0; i < c->size; i++) {
			char *dst = out + (size_t)i * len + done;
			if (i == c->rank) {
				memcpy(dst, in + done, piece);
				continue;
			}
			if (err)
				break;
			err = mb_recv(c->pe[i], tag, dst, piece);
		}
		done += piece;
	} while (!err && done < len);
	return err;
}

int
wm_barrier(struct wholememory_comm_ *c)
{
	char b = 0;
	char *all = malloc(c->size);
	if (!all)
		return -ENOMEM;
	int err = wm_allgather(c, &b, 1, all);
	free(all);
	return err;
}

int
wm_agree(struct wholememory_comm_ *c, int err)
{
	int32_t mine = err;
	int32_t *all = malloc(sizeof(*all) * c->size);
	if (!all)
		return -ENOMEM;
	int e = wm_allgather(c, &mine, sizeof(mine), all);
	if (!e)
		for (int i = 0; i < c->size && !e; i++)
			e = all[i];
	free(all);
	return e;
}

int
wm_check_same(struct wholememory_comm_ *c, const void *args, size_t len,
	      const char *call)
{
	char *all = malloc(len * c->size);
	if (!all)
		return -ENOMEM;
	int err = wm_allgather(c, args, len, all);
	for (int i = 0; !err && i < c->size; i++)
		if (memcmp(all + (size_t)i * len, args, len)) {
			if (c->rank == 0 || i < c->rank)
				u_err(WM_TOPIC, "%s: rank %d passed other "
				      "arguments than rank %d", call, i,
				      c->rank);
			err = -EINVAL;
		}
	free(all);
	return err;
}

/* ---- communicators ----------------------------------------------------- */

void
wm_comm_free(struct wholememory_comm_ *c)
{
	if (!c)
		return;
	reg_del(c);
	c->magic = 0;
	free(c->pe);
	free(c->node);
	free(c);
}

/* A communicator of the world PEs pes[0..n) (this PE among them). */
static int
comm_make(const int *pes, int n, uint64_t id, struct wholememory_comm_ **out)
{
	struct wholememory_comm_ *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->pe = malloc(sizeof(int) * n);
	c->node = malloc(sizeof(int) * n);
	if (!c->pe || !c->node) {
		wm_comm_free(c);
		return -ENOMEM;
	}
	c->magic = WM_COMM_MAGIC;
	c->id = id;
	c->size = n;
	c->rank = -1;
	c->first_local = -1;
	for (int i = 0; i < n; i++) {
		c->pe[i] = pes[i];
		c->node[i] = wm.node_of[pes[i]];
		if (pes[i] == wm.me)
			c->rank = i;
	}
	int mynode = wm.node_of[wm.me];
	for (int i = 0; i < n; i++) {
		if (c->node[i] != mynode)
			continue;
		if (c->first_local < 0)
			c->first_local = i;
		if (i < c->rank)
			c->local_rank++;
		c->local_size++;
	}
	/* nodes, in order of their first rank */
	for (int i = 0; i < n; i++) {
		bool first = true;
		for (int j = 0; j < i && first; j++)
			first = c->node[j] != c->node[i];
		if (!first)
			continue;
		if (c->node[i] == mynode)
			c->node_idx = c->nnodes;
		c->nnodes++;
	}
	c->world_sized = n == wm.npes;
	c->backend = WHOLEMEMORY_DB_NONE;
	int err = reg_add(c);
	if (err) {
		free(c->pe);
		free(c->node);
		free(c);
		return err;
	}
	*out = c;
	return 0;
}

static int
ze_open(void)
{
	ze_result_t r = zeInit(0);
	uint32_t n = 1;
	if (r == ZE_RESULT_SUCCESS)
		r = zeDriverGet(&n, &wm.zdrv);
	if (r == ZE_RESULT_SUCCESS && n == 0)
		r = ZE_RESULT_ERROR_UNINITIALIZED;
	ze_device_handle_t devs[64];
	uint32_t nd = 64;
	if (r == ZE_RESULT_SUCCESS)
		r = zeDeviceGet(wm.zdrv, &nd, devs);
	if (r == ZE_RESULT_SUCCESS && nd == 0)
		r = ZE_RESULT_ERROR_UNINITIALIZED;
	if (r != ZE_RESULT_SUCCESS) {
		u_err(WM_TOPIC, "no Level Zero driver or device (0x%x)", r);
		return -ENODEV;
	}
	int di = shmemx_device_index();
	wm.zdev = devs[di >= 0 && (uint32_t)di < nd ? di : 0];
	ze_context_desc_t cd = { .stype = ZE_STRUCTURE_TYPE_CONTEXT_DESC };
	r = zeContextCreate(wm.zdrv, &cd, &wm.zctx);
	if (r != ZE_RESULT_SUCCESS) {
		u_err(WM_TOPIC, "zeContextCreate: 0x%x", r);
		return -ENODEV;
	}
	return 0;
}

static void
world_fini(void)
{
	if (!wm.world)
		return;
	if (wm.box) {
		shmem_barrier_all();
		shmem_free(wm.box);
	}
	if (wm.zctx)
		zeContextDestroy(wm.zctx);
	free(wm.sent);
	free(wm.recvd);
	free(wm.node_of);
	free(wm.pid_of);
	bool stop = wm.started_shmem;
	memset(&wm, 0, sizeof(wm));
	wm.inited = true;
	if (stop)
		shmem_finalize();
}

/* After libzeshmem is up: mailbox, node indices, pids. */
static int
world_init(void)
{
	wm.me = shmem_my_pe();
	wm.npes = shmem_n_pes();
	size_t n = (size_t)wm.npes;
	wm.world = true;
	wm.sent = calloc(n, sizeof(uint64_t));
	wm.recvd = calloc(n, sizeof(uint64_t));
	wm.node_of = calloc(n, sizeof(int));
	wm.pid_of = calloc(n, sizeof(int));
	size_t bytes = n * sizeof(struct wm_slot) + n * sizeof(uint64_t);
	wm.box = shmem_calloc(1, bytes);
	if (!wm.sent || !wm.recvd || !wm.node_of || !wm.pid_of || !wm.box)
		goto err;
	wm.ack = (uint64_t *)(wm.box + n);
	shmem_barrier_all();
	int mynode = wm.me;
	for (int pe = 0; pe < wm.npes; pe++)
		if (shmem_ptr(wm.box, pe)) {
			mynode = pe;
			break;
		}
	/* a bootstrap communicator of the whole world, to all-gather */
	int *pes = malloc(sizeof(int) * n);
	if (!pes)
		goto err;
	for (int i = 0; i < wm.npes; i++)
		pes[i] = i;
	for (int i = 0; i < wm.npes; i++)
		wm.node_of[i] = i; /* provisional: comm_make reads it */
	struct wholememory_comm_ *c;
	int err = comm_make(pes, wm.npes, 0, &c);
	free(pes);
	if (err)
		goto err;
	int mine[2] = { mynode, (int)getpid() };
	int *all = malloc(sizeof(mine) * n);
	err = all ? wm_allgather(c, mine, sizeof(mine), all) : -ENOMEM;
	wm_comm_free(c);
	if (!err)
		for (int i = 0; i < wm.npes; i++) {
			wm.node_of[i] = all[2 * i];
			wm.pid_of[i] = all[2 * i + 1];
		}
	free(all);
	if (err)
		goto err_fini;
	if ((err = ze_open()))
		goto err_fini;
	return 0;
err:
	err = -ENOMEM;
err_fini:
	world_fini();
	return err;
}

static int
world_comm(struct wholememory_comm_ **out)
{
	int *pes = malloc(sizeof(int) * wm.npes);
	if (!pes)
		return -ENOMEM;
	for (int i = 0; i < wm.npes; i++)
		pes[i] = i;
	int err = comm_make(pes, wm.npes, ++wm.ncreate << 20, out);
	free(pes);
	return err;
}

WM_API wholememory_error_code_t
wholememory_init(unsigned int flags, LogLevel log_level)
{
	if (flags != 0) {
		u_err(WM_TOPIC, "flags %#x: reserved, must be 0", flags);
		return WHOLEMEMORY_INVALID_VALUE;
	}
	if ((int)log_level < LEVEL_FATAL || log_level > LEVEL_TRACE)
		return WHOLEMEMORY_INVALID_VALUE;
	/* WholeMemory's threshold for the library's lines (topic wm), on
	 * u_log's levels (LEVEL_FATAL: u_log has no fatal lines, nothing
	 * shows); ZEMEM_LOG_LEVEL naming wm itself (warn,wm:debug) wins */
	static const int level_of[] = {
		[LEVEL_FATAL] = U_LOG_NONE, [LEVEL_ERROR] = U_LOG_ERROR,
		[LEVEL_WARN] = U_LOG_WARN, [LEVEL_INFO] = U_LOG_INFO,
		[LEVEL_DEBUG] = U_LOG_DEBUG, [LEVEL_TRACE] = U_LOG_TRACE,
	};
	if (!u_log_topic_named(WM_TOPIC))
		u_log_set_topic_level(WM_TOPIC, level_of[log_level]);
	u_dbg(WM_TOPIC, "wholememory_init: log level %d (u_log %s)",
	      (int)log_level, u_log_level_name(u_log_level(WM_TOPIC)));
	wm.inited = true;
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
wholememory_finalize(void)
{
	if (!wm.inited)
		return WHOLEMEMORY_SUCCESS;
	/* what the program left: tensors' records, handles, then
	 * communicators */
	for (;;) {
		void *p = NULL;
		pthread_mutex_lock(&reg_lock);
		for (size_t i = 0; i < reg_n && !p; i++)
			if (*(uint32_t *)reg[i] == WM_TENSOR_MAGIC)
				p = reg[i];
		pthread_mutex_unlock(&reg_lock);
		if (!p)
			break;
		wm_tensor_drop(p);
	}
	for (int pass = 0; pass < 2; pass++) {
		for (;;) {
			void *p = NULL;
			pthread_mutex_lock(&reg_lock);
			for (size_t i = 0; i < reg_n && !p; i++)
				if (*(uint32_t *)reg[i] ==
				    (pass ? WM_COMM_MAGIC : WM_HANDLE_MAGIC))
					p = reg[i];
			pthread_mutex_unlock(&reg_lock);
			if (!p)
				break;
			if (pass)
				wm_comm_free(p);
			else
				wholememory_free(p);
		}
	}
	world_fini();
	wm.inited = false;
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
wholememory_create_unique_id(wholememory_unique_id_t *unique_id)
{
	if (!unique_id)
		return WHOLEMEMORY_INVALID_INPUT;
	if (!wm.inited)
		return WHOLEMEMORY_LOGIC_ERROR;
	if (wm.world) {
		u_err(WM_TOPIC, "a job already runs in this process: one "
		      "unique id per process (libzeshmem)");
		return WHOLEMEMORY_NOT_SUPPORTED;
	}
	_Static_assert(sizeof(shmemx_uniqueid_t) ==
		       WHOLEMEMORY_UNIQUE_ID_BYTES, "unique id size");
	shmemx_uniqueid_t uid;
	if (shmemx_get_uniqueid(&uid) != 0)
		return WHOLEMEMORY_COMMUNICATION_ERROR;
	memcpy(unique_id->internal, uid.internal, sizeof(uid.internal));
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
wholememory_create_communicator(wholememory_comm_t *comm,
				wholememory_unique_id_t unique_id, int rank,
				int size)
{
	if (!comm)
		return WHOLEMEMORY_INVALID_INPUT;
	*comm = NULL;
	if (!wm.inited)
		return WHOLEMEMORY_LOGIC_ERROR;
	if (size <= 0 || rank < 0 || rank >= size)
		return WHOLEMEMORY_INVALID_VALUE;
	int err;
	if (!wm.world) {
		shmemx_uniqueid_t uid;
		memcpy(uid.internal, unique_id.internal, sizeof(uid.internal));
		if (shmemx_init_attr(rank, size, &uid) != 0)
			return WHOLEMEMORY_COMMUNICATION_ERROR;
		wm.started_shmem = true;
		if ((err = world_init()))
			return wm_result(err);
	} else if (rank != wm.me || size != wm.npes) {
		u_err(WM_TOPIC, "rank %d of %d: this process is rank %d of "
		      "%d already (one job per process)", rank, size, wm.me,
		      wm.npes);
		return WHOLEMEMORY_NOT_SUPPORTED;
	}
	err = world_comm((struct wholememory_comm_ **)comm);
	return wm_result(err);
}

WM_API wholememory_error_code_t
wholememory_create_communicator_from_env(wholememory_comm_t *comm)
{
	if (!comm)
		return WHOLEMEMORY_INVALID_INPUT;
	*comm = NULL;
	if (!wm.inited)
		return WHOLEMEMORY_LOGIC_ERROR;
	int err;
	if (!wm.world) {
		if (!shmemx_heap_base()) {
			shmem_init();
			wm.started_shmem = true;
		}
		if ((err = world_init()))
			return wm_result(err);
	}
	return wm_result(world_comm((struct wholememory_comm_ **)comm));
}

struct split_arg {
	int32_t color, key;
};

static int
split_cmp(const void *a, const void *b)
{
	const int32_t *x = a, *y = b; /* {key, rank, pe} */
	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

int
wm_split(struct wholememory_comm_ *c, int color, int key, bool internal,
	 struct wholememory_comm_ **out)
{
	*out = NULL;
	struct split_arg mine = { color, key };
	struct split_arg *all = malloc(sizeof(mine) * c->size);
	int32_t *sel = malloc(sizeof(int32_t) * 3 * c->size);
	int err = all && sel ? 0 : -ENOMEM;
	err = wm_agree(c, err);
	if (!err)
		err = wm_allgather(c, &mine, sizeof(mine), all);
	uint64_t child = ++c->nchild;
	if (!err && color >= 0) {
		int n = 0;
		for (int i = 0; i < c->size; i++)
			if (all[i].color == color) {
				sel[3 * n] = all[i].key;
				sel[3 * n + 1] = i;
				sel[3 * n + 2] = c->pe[i];
				n++;
			}
		qsort(sel, n, sizeof(int32_t) * 3, split_cmp);
		int *pes = malloc(sizeof(int) * n);
		if (!pes) {
			err = -ENOMEM;
		} else {
			for (int i = 0; i < n; i++)
				pes[i] = sel[3 * i + 2];
			uint64_t id = (c->id * 1000003u) ^
				      (child << 40) ^ ((uint64_t)color << 8);
			err = comm_make(pes, n, id, out);
			free(pes);
		}
		if (!err)
			(*out)->internal = internal;
	}
	free(all);
	free(sel);
	/* the same result everywhere */
	int agreed = wm_agree(c, err);
	if (agreed && *out) {
		wm_comm_free(*out);
		*out = NULL;
	}
	return agreed;
}

WM_API wholememory_error_code_t
wholememory_split_communicator(wholememory_comm_t *new_comm,
			       wholememory_comm_t comm, int color, int key)
{
	if (!new_comm || !wm_comm_live(comm))
		return WHOLEMEMORY_INVALID_INPUT;
	*new_comm = NULL;
	int err = 0;
	if (color < 0 && color != WHOLEMEMORY_SPLIT_NOCOLOR) {
		u_err(WM_TOPIC, "color %d: colors are >= 0 or "
		      "WHOLEMEMORY_SPLIT_NOCOLOR", color);
		err = -EDOM;
	}
	err = wm_agree(comm, err);
	if (err)
		return wm_result(err);
	return wm_result(wm_split(comm, color, key, false,
				  (struct wholememory_comm_ **)new_comm));
}

/* Some live handle was allocated on c. */
static bool
comm_in_use(const struct wholememory_comm_ *c)
{
	bool used = false;
	pthread_mutex_lock(&reg_lock);
	for (size_t i = 0; i < reg_n && !used; i++)
		used = *(uint32_t *)reg[i] == WM_HANDLE_MAGIC &&
		       ((struct wholememory_handle_ *)reg[i])->comm == c;
	pthread_mutex_unlock(&reg_lock);
	return used;
}

WM_API wholememory_error_code_t
wholememory_destroy_communicator(wholememory_comm_t comm)
{
	if (!wm_comm_live(comm) || comm->internal)
		return WHOLEMEMORY_INVALID_INPUT;
	if (comm_in_use(comm)) {
		u_err(WM_TOPIC, "communicator %p still has WholeMemory "
		      "handles: free them first", (void *)comm);
		return WHOLEMEMORY_LOGIC_ERROR;
	}
	int err = wm_barrier(comm);
	wm_comm_free(comm);
	return wm_result(err);
}

WM_API wholememory_error_code_t
wholememory_communicator_support_type_location(
	wholememory_comm_t comm, wholememory_memory_type_t memory_type,
	wholememory_memory_location_t memory_location)
{
	if (!wm_comm_live(comm))
		return WHOLEMEMORY_INVALID_INPUT;
	if (memory_location != WHOLEMEMORY_ML_HOST &&
	    memory_location != WHOLEMEMORY_ML_DEVICE)
		return WHOLEMEMORY_NOT_SUPPORTED;
	switch (memory_type) {
	case WHOLEMEMORY_MT_CONTINUOUS:
	case WHOLEMEMORY_MT_CHUNKED:
		return comm->nnodes == 1 ? WHOLEMEMORY_SUCCESS :
					   WHOLEMEMORY_NOT_SUPPORTED;
	case WHOLEMEMORY_MT_DISTRIBUTED:
	case WHOLEMEMORY_MT_HIERARCHY:
		/* symmetric-heap memory (every PE of the world allocates),
		 * or on part of the world within one node the mapped
		 * memory of CONTINUOUS (wm_mem.c) */
		return comm->world_sized || comm->nnodes == 1 ?
			       WHOLEMEMORY_SUCCESS :
			       WHOLEMEMORY_NOT_SUPPORTED;
	default:
		return WHOLEMEMORY_NOT_SUPPORTED;
	}
}

WM_API wholememory_error_code_t
wholememory_communicator_get_rank(int *rank, wholememory_comm_t comm)
{
	if (!rank || !wm_comm_live(comm))
		return WHOLEMEMORY_INVALID_INPUT;
	*rank = comm->rank;
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
wholememory_communicator_get_size(int *size, wholememory_comm_t comm)
{
	if (!size || !wm_comm_live(comm))
		return WHOLEMEMORY_INVALID_INPUT;
	*size = comm->size;
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
wholememory_communicator_get_local_size(int *local_size,
					wholememory_comm_t comm)
{
	if (!local_size || !wm_comm_live(comm))
		return WHOLEMEMORY_INVALID_INPUT;
	*local_size = comm->local_size;
	return WHOLEMEMORY_SUCCESS;
}

WM_API wholememory_error_code_t
wholememory_communicator_get_clique_info(clique_info_t *clique_info,
					 wholememory_comm_t comm)
{
	if (!clique_info || !wm_comm_live(comm))
		return WHOLEMEMORY_INVALID_INPUT;
	clique_info->is_in_clique = 1;
	clique_info->clique_first_rank = comm->first_local;
	clique_info->clique_rank = comm->local_rank;
	clique_info->clique_rank_num = comm->local_size;
	clique_info->clique_id = comm->node_idx;
	clique_info->clique_num = comm->nnodes;
	return WHOLEMEMORY_SUCCESS;
}

WM_API bool
wholememory_communicator_is_bind_to_nvshmem(wholememory_comm_t comm)
{
	(void)comm;
	return false;
}

WM_API wholememory_error_code_t
wholememory_communicator_set_distributed_backend(
	wholememory_comm_t comm,
	wholememory_distributed_backend_t distributed_backend)
{
	if (!wm_comm_live(comm))
		return WHOLEMEMORY_INVALID_INPUT;
	switch (distributed_backend) {
	case WHOLEMEMORY_DB_NONE:
		comm->backend = WHOLEMEMORY_DB_NONE;
		return WHOLEMEMORY_SUCCESS;
	case WHOLEMEMORY_DB_NCCL:
	case WHOLEMEMORY_DB_NVSHMEM:
		u_info(WM_TOPIC, "distributed backend %d: not on zemem (NONE "
		       "is libzeshmem's RMA)", distributed_backend);
		return WHOLEMEMORY_NOT_SUPPORTED;
	default:
		return WHOLEMEMORY_INVALID_VALUE;
	}
}

WM_API wholememory_distributed_backend_t
wholememory_communicator_get_distributed_backend(wholememory_comm_t comm)
{
	return wm_comm_live(comm) ? comm->backend : WHOLEMEMORY_DB_NONE;
}

WM_API wholememory_error_code_t
wholememory_communicator_barrier(wholememory_comm_t comm)
{
	if (!wm_comm_live(comm))
		return WHOLEMEMORY_INVALID_INPUT;
	return wm_result(wm_barrier(comm));
}

WM_API bool
wholememory_is_intranode_communicator(wholememory_comm_t comm)
{
	return wm_comm_live(comm) && comm->nnodes == 1;
}

WM_API bool
wholememory_is_intra_mnnvl_communicator(wholememory_comm_t comm)
{
	(void)comm;
	return false;
}

WM_API bool
wholememory_is_build_with_nvshmem(void)
{
	return false;
}

WM_API int
fork_get_device_count(void)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		int count = -1;
		ze_driver_handle_t drv[16];
		uint32_t nd = 16;
		if (zeInit(0) == ZE_RESULT_SUCCESS &&
		    zeDriverGet(&nd, drv) == ZE_RESULT_SUCCESS) {
			count = 0;
			for (uint32_t i = 0; i < nd; i++) {
				uint32_t n = 0;
				if (zeDeviceGet(drv[i], &n, NULL) ==
				    ZE_RESULT_SUCCESS)
					count += (int)n;
			}
		}
		ssize_t w = write(p[1], &count, sizeof(count));
		_exit(w == sizeof(count) ? 0 : 1);
	}
	close(p[1]);
	int count = -1;
	ssize_t r;
	do
		r = read(p[0], &count, sizeof(count));
	while (r < 0 && errno == EINTR);
	close(p[0]);
	int ws;
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	if (r != sizeof(count) || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0)
		return -1;
	return count;
}
