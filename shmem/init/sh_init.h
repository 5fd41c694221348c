// SPDX-License-Identifier: MIT
/*
 * sh_init.h: the life cycle (init/): init and finalize, and the whole
 * job's exit. Includes every floor below (the faces and the tests use
 * it).
 */
#ifndef ZEMEM_SH_INIT_H
#define ZEMEM_SH_INIT_H

#include "sh_team.h"

/* init/finalize: uid == NULL -> environment bootstrap (sh_boot_open).
 * A second init is a no-op returning 0; thread_got = thread_req clamped
 * to 0..3 (SHMEM_THREAD_SINGLE..MULTIPLE: all are supported). 0 or
 * -errno (-ENODEV no driver/device, -EOPNOTSUPP a heap the host cannot
 * reach, -EINVAL PEs with different ZESHMEM_SYMMETRIC_SIZE, ...).
 * finalize: barrier over the world, then every resource released. */
SH_HIDDEN int sh_init(const void *uid, int rank, int nranks, int thread_req,
		      int *thread_got);
SH_HIDDEN int sh_finalize(void);
/* shmem_global_exit: the network transport's /dev/shm entries removed,
 * the bootstrap asked to end the other PEs, then _exit(status). */
SH_HIDDEN _Noreturn void sh_global_exit(int status);

#endif
