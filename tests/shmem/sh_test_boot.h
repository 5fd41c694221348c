// SPDX-License-Identifier: MIT
/*
 * sh_test_boot.h: the shared block of the core tests' bootstrap
 * (sh_test_boot.c) and the fd its PEs find it on.
 */
#ifndef ZEMEM_SH_TEST_BOOT_H
#define ZEMEM_SH_TEST_BOOT_H

#include <stdint.h>

#define SH_TEST_BOOT_FD 3

struct sh_test_boot_shm {
	uint32_t count, gen;
	char buf[1 << 16];
};

#endif
