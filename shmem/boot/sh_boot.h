// SPDX-License-Identifier: MIT
/*
 * sh_boot.h: the bootstrap floor (boot/): a key-value exchange and
 * barrier over the whole job, used at init, heap growth and finalize.
 */
#ifndef ZEMEM_SH_BOOT_H
#define ZEMEM_SH_BOOT_H

#include "sh.h"

/* ---- bootstrap (sh_boot.c dispatches; sh_boot_pmix.c, sh_boot_uid.c,
 * sh_boot_single.c implement) ------------------------------------------ */

/* The unique id's bytes, as the public shmemx_uniqueid_t carries them:
 * { magic, version, family, port, address, job nonce }. */
#define SH_UID_BYTES 128

struct sh_boot;

struct sh_boot_ops {
	const char *name;                 /* "pmix", "uid", "single" */
	/* Every PE passes len bytes; all receives npes * len bytes in rank
	 * order. Collective over the whole job. */
	int (*allgather)(struct sh_boot *b, const void *mine, size_t len,
			 void *all);
	/* Collective over the whole job. */
	int (*barrier)(struct sh_boot *b);
	/* Ends the job's other PEs with status (shmem_global_exit); may
	 * return if it cannot, the caller then exits itself. */
	void (*abort_job)(struct sh_boot *b, int status);
	void (*fini)(struct sh_boot *b);
	/* Optional. The PE the bootstrap knows dead (its server lost it),
	 * -1 none; cheap, any thread (every wait on a peer of another node
	 * asks it, sh_wait.c). */
	int (*dead_pe)(struct sh_boot *b);
	/* Optional. The IPv4 address (text) of this PE's end of its
	 * bootstrap connection: the interface the bootstrap uses
	 * (sh_ofi.c binds its endpoints there); 0 or -errno. */
	int (*local_addr)(struct sh_boot *b, char *buf, size_t len);
};

struct sh_boot {
	const struct sh_boot_ops *ops;
	int rank, nranks;
	int local_rank;                   /* -1: unknown until the host exchange */
	unsigned timeout_s;               /* ZESHMEM_TIMEOUT */
	/* Set by the runtime (sh_init.c): what a backend that ends the
	 * process with _exit (an ABORT from the job) runs first. */
	void (*before_exit)(void);
	void *priv;
};

/* Opens the bootstrap. uid != NULL: the unique-id path with rank/nranks as
 * given (shmemx_init_attr). uid == NULL: ZESHMEM_BOOTSTRAP decides (auto:
 * PMIx when PMIX_RANK is set, else ZESHMEM_UNIQUEID + ZESHMEM_RANK +
 * ZESHMEM_NRANKS, else single PE). 0 or -errno (message logged). */
SH_HIDDEN int sh_boot_open(const void *uid, int rank, int nranks,
			   struct sh_boot **out);
SH_HIDDEN void sh_boot_close(struct sh_boot *b);
/* Root side of the unique id: binds the listening socket
 * (ZESHMEM_BOOT_IFACE, else loopback) and fills uid (SH_UID_BYTES). The
 * socket is kept for the later sh_boot_open(uid, 0, n) of the same
 * process. */
SH_HIDDEN int sh_boot_uid_create(void *uid);
/* Encode / decode the id as hex text (ZESHMEM_UNIQUEID). */
SH_HIDDEN void sh_boot_uid_to_hex(const void *uid, char *hex /* 2*SH_UID_BYTES+1 */);
SH_HIDDEN int sh_boot_uid_from_hex(const char *hex, void *uid);

#endif
