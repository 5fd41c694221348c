/* SPDX-License-Identifier: MIT */
/* <mpp/shmemx.h>: <shmemx.h> under the legacy include path. */
#ifndef ZESHMEM_MPP_SHMEMX_H
#define ZESHMEM_MPP_SHMEMX_H
#include <shmemx.h>
#endif
