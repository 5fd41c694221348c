/* SPDX-License-Identifier: MIT */
/* <mpp/shmem.h>: the include path of legacy (SGI/Cray-era) OpenSHMEM
 * codes; the same API as <shmem.h>. */
#ifndef ZESHMEM_MPP_SHMEM_H
#define ZESHMEM_MPP_SHMEM_H
#include <shmem.h>
#endif
