// SPDX-License-Identifier: MIT
/*
 * sh_boot_pmix.c: the PMIx bootstrap (mpirun / oshrun set PMIX_RANK).
 * Built without PMIx, opening it says unsupported.
 */
#include "sh_boot_impl.h"

#include "u_log.h"

#include <errno.h>

#ifndef ZESHMEM_HAVE_PMIX
int
sh_boot_pmix_open(struct sh_boot *b)
{
	u_err("shmem", "ZESHMEM_BOOTSTRAP=pmix: built without PMIx "
		       "(libpmix-dev)");
	return -EOPNOTSUPP;
}
#else
int
sh_boot_pmix_open(struct sh_boot *b)
{
	u_err("shmem", "PMIx bootstrap: not yet");
	return -EOPNOTSUPP;
}
#endif
