// SPDX-License-Identifier: MIT
/*
 * sh_face_init.c: library setup, exit and query (init, init_thread,
 * query_thread, finalize, global_exit, my_pe, n_pes, pe/addr_accessible,
 * shmem_ptr, team_ptr, info_get_*), the handles SHMEM_TEAM_WORLD,
 * SHMEM_TEAM_SHARED and SHMEM_CTX_DEFAULT, the shmemx unique-id start, the
 * deprecated start_pes/_my_pe/_num_pes and cache routines, and the faces'
 * error ends (face_bad_pe, face_fail).
 */
#include "sh_face.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

shmem_ctx_t SHMEM_CTX_DEFAULT = (shmem_ctx_t)&sh_ctx_default;
shmem_team_t SHMEM_TEAM_WORLD = SHMEM_TEAM_INVALID;
shmem_team_t SHMEM_TEAM_SHARED = SHMEM_TEAM_INVALID;

_Static_assert(SHMEMX_UNIQUEID_BYTES == SH_UID_BYTES, "unique id size");
_Static_assert(SHMEM_SIGNAL_SET == SH_SIGNAL_SET &&
	       SHMEM_SIGNAL_ADD == SH_SIGNAL_ADD, "signal ops");
#define SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(SAME(SHMEM_CTX_PRIVATE, SH_CTX_PRIVATE), "ctx options");
_Static_assert(SAME(SHMEM_CMP_EQ, SH_CMP_EQ) && SAME(SHMEM_CMP_NE, SH_CMP_NE) &&
	       SAME(SHMEM_CMP_GT, SH_CMP_GT) && SAME(SHMEM_CMP_LE, SH_CMP_LE) &&
	       SAME(SHMEM_CMP_LT, SH_CMP_LT) && SAME(SHMEM_CMP_GE, SH_CMP_GE),
	       "comparison constants");

/* ---- the faces' error ends --------------------------------------------- */

void
face_bad_pe(const char *call, int pe)
{
	sh_check_init(call);
	sh_fatal(call, "pe %d out of range (the job's PEs are 0..%d)", pe,
		 sh.npes - 1);
}

/* The first PE known to have ended, or -1. */
static int
dead_pe(void)
{
	for (int i = 0; sh.peers && i < sh.npes; i++)
		if (sh.peers[i].dead)
			return i;
	return -1;
}

void
face_fail(const char *call, int rc, int pe, const char *what, const void *p)
{
	int dead;
	switch (rc) {
	case -EFAULT:
		if (sh_sym_kind(p, 0) == SH_SYM_LOCAL)
			sh_fatal(call, "%s %p is a buffer registered with "
				 "rocshmem_buffer_register: a local buffer, "
				 "never a remote target (pe %d)", what, p, pe);
		sh_fatal(call, "%s %p is not a symmetric address (pe %d): "
			 "not in the symmetric heap or the program's static "
			 "data", what, p, pe);
	case -EINVAL:
		sh_fatal(call, "invalid argument (%s %p, pe %d)", what, p, pe);
	case -EOVERFLOW:
		sh_fatal(call, "size overflows (%s %p, pe %d)", what, p, pe);
	case -EHOSTDOWN:
		dead = pe >= 0 ? pe : dead_pe();
		if (dead >= 0)
			sh_fatal(call, "PE %d ended", dead);
		sh_fatal(call, "a PE of the job ended");
	case -EHOSTUNREACH:
		dead = pe >= 0 ? pe : dead_pe();
		if (dead >= 0)
			sh_fatal(call, "PE %d unreachable (the job is ending)",
				 dead);
		sh_fatal(call, "a PE is unreachable (the job is ending)");
	case -ETIMEDOUT:
		sh_fatal(call, "no answer within ZESHMEM_TIMEOUT=%u s%s",
			 sh.timeout_s, pe >= 0 ? " from the target PE" : "");
	default:
		sh_fatal(call, "%s (%s %p, pe %d)", strerror(-rc), what, p, pe);
	}
}

/* ---- setup ------------------------------------------------------------- */

static void
handles_set(void)
{
	SHMEM_TEAM_WORLD = (shmem_team_t)sh_team_world;
	SHMEM_TEAM_SHARED = (shmem_team_t)sh_team_shared;
}

static int
init(const char *call, const void *uid, int rank, int nranks, int requested,
     int *provided)
{
	int got = SHMEM_THREAD_SINGLE;
	int rc = sh_init(uid, rank, nranks, requested, &got);
	if (rc < 0) {
		fprintf(stderr, "zeshmem: %s: initialization failed: %s\n",
			call, strerror(-rc));
		return rc;
	}
	handles_set();
	if (provided)
		*provided = got;
	return 0;
}

void
shmem_init(void)
{
	if (init(__func__, NULL, 0, 0, SHMEM_THREAD_SINGLE, NULL) < 0)
		exit(1);
}

int
shmem_init_thread(int requested, int *provided)
{
	if (requested < SHMEM_THREAD_SINGLE ||
	    requested > SHMEM_THREAD_MULTIPLE) {
		fprintf(stderr, "zeshmem: %s: requested %d is not a "
			"SHMEM_THREAD_* level\n", __func__, requested);
		return -1;
	}
	return init(__func__, NULL, 0, 0, requested, provided) < 0 ? -1 : 0;
}

void
shmem_query_thread(int *provided)
{
	sh_check_init(__func__);
	if (provided == NULL)
		sh_fatal(__func__, "provided is NULL");
	*provided = sh.thread_level;
}

void
shmem_finalize(void)
{
	int me = sh.me, dead = dead_pe();
	int rc = sh_finalize();
	if (!sh.initialized) {
		SHMEM_TEAM_WORLD = SHMEM_TEAM_INVALID;
		SHMEM_TEAM_SHARED = SHMEM_TEAM_INVALID;
	}
	if (rc < 0) {
		/* the runtime is down: sh_fatal's PE number is gone */
		fflush(stdout);
		if (rc == -EHOSTDOWN && dead >= 0)
			fprintf(stderr, "zeshmem: PE %d: %s: PE %d ended\n", me,
				__func__, dead);
		else
			fprintf(stderr, "zeshmem: PE %d: %s: %s\n", me, __func__,
				rc == -EHOSTDOWN ? "a PE of the job ended" :
				strerror(-rc));
		exit(1);
	}
}

void
shmem_global_exit(int status)
{
	sh_global_exit(status);
}

/* ---- query ------------------------------------------------------------- */

int
shmem_my_pe(void)
{
	return sh.initialized ? sh.me : -1;
}

int
shmem_n_pes(void)
{
	return sh.initialized ? sh.npes : -1;
}

int
shmem_pe_accessible(int pe)
{
	if (!sh.initialized || pe < 0 || pe >= sh.npes)
		return 0;
	return !(sh.peers && sh.peers[pe].dead);
}

int
shmem_addr_accessible(const void *addr, int pe)
{
	if (!shmem_pe_accessible(pe))
		return 0;
	switch (sh_sym_kind(addr, 1)) {
	case SH_SYM_HEAP: /* the user heap (not the control block) */
		return 1;
	case SH_SYM_STATIC: /* mapped here, or over the network */
		return sh_remote_ptr(addr, 1, pe) || sh.peers[pe].net;
	default:
		return 0;
	}
}

void *
shmem_ptr(const void *dest, int pe)
{
	if (!sh.initialized || dest == NULL)
		return NULL;
	return sh_remote_ptr(dest, 1, pe);
}

void *
shmem_team_ptr(shmem_team_t team, const void *dest, int pe)
{
	if (!sh.initialized || team == SHMEM_TEAM_INVALID || dest == NULL)
		return NULL;
	struct sh_team *t = face_team(__func__, team);
	int wpe = t ? sh_team_world_pe(t, pe) : -1;
	return wpe < 0 ? NULL : sh_remote_ptr(dest, 1, wpe);
}

void
shmem_info_get_version(int *major, int *minor)
{
	if (major == NULL || minor == NULL)
		sh_fatal(__func__, "%s is NULL", major ? "minor" : "major");
	*major = SHMEM_MAJOR_VERSION;
	*minor = SHMEM_MINOR_VERSION;
}

void
shmem_info_get_name(char *name)
{
	if (name == NULL)
		sh_fatal(__func__, "name is NULL");
	_Static_assert(sizeof(SHMEM_VENDOR_STRING) <= SHMEM_MAX_NAME_LEN,
		       "vendor string");
	memcpy(name, SHMEM_VENDOR_STRING, sizeof(SHMEM_VENDOR_STRING));
}

void
shmem_pcontrol(const int level, ...)
{
	(void)level;
}

/* ---- shmemx: the unique-id start --------------------------------------- */

int
shmemx_get_uniqueid(shmemx_uniqueid_t *uid)
{
	if (uid == NULL) {
		fprintf(stderr, "zeshmem: %s: uid is NULL\n", __func__);
		return -1;
	}
	int rc = sh_boot_uid_create(uid->internal);
	if (rc < 0) {
		fprintf(stderr, "zeshmem: %s: %s\n", __func__, strerror(-rc));
		return -1;
	}
	return 0;
}

int
shmemx_init_attr_thread(int rank, int nranks, const shmemx_uniqueid_t *uid,
			int requested, int *provided)
{
	const char *bad = NULL;
	if (uid == NULL)
		bad = "uid is NULL";
	else if (nranks < 1)
		bad = "nranks < 1";
	else if (rank < 0 || rank >= nranks)
		bad = "rank not in [0, nranks)";
	else if (requested < SHMEM_THREAD_SINGLE ||
		 requested > SHMEM_THREAD_MULTIPLE)
		bad = "requested is not a SHMEM_THREAD_* level";
	if (bad) {
		fprintf(stderr, "zeshmem: shmemx_init_attr: %s (rank %d, "
			"nranks %d)\n", bad, rank, nranks);
		return -1;
	}
	return init("shmemx_init_attr", uid->internal, rank, nranks,
		    requested, provided) < 0 ? -1 : 0;
}

int
shmemx_init_attr(int rank, int nranks, const shmemx_uniqueid_t *uid)
{
	return shmemx_init_attr_thread(rank, nranks, uid, SHMEM_THREAD_SINGLE,
				       NULL);
}

void *
shmemx_heap_base(void)
{
	return sh.initialized ? sh_heap_base() : NULL;
}

size_t
shmemx_heap_size(void)
{
	return sh.initialized ? sh_heap_size() : 0;
}

/* ---- deprecated -------------------------------------------------------- */

void
start_pes(int npes)
{
	(void)npes;
	shmem_init();
}

int
_my_pe(void)
{
	return shmem_my_pe();
}

int
_num_pes(void)
{
	return shmem_n_pes();
}

/* The cache routines: node-local memory is coherent; nothing to do. */
void
shmem_clear_cache_inv(void)
{
}

void
shmem_set_cache_inv(void)
{
}

void
shmem_clear_cache_line_inv(void *dest)
{
	(void)dest;
}

void
shmem_set_cache_line_inv(void *dest)
{
	(void)dest;
}

void
shmem_udcflush(void)
{
}

void
shmem_udcflush_line(void *dest)
{
	(void)dest;
}
