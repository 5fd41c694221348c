// SPDX-License-Identifier: MIT
/*
 * pe_check.h: the one check macro of the shmem tests' PE programs.
 * CHECK(cond, fmt, ...): when cond is false, prints
 * "PE <me>: <file>:<line>: check failed: <cond>: <message>" on stderr and
 * exits 3 (the job's status then says a check failed, not a crash). The
 * including file defines `static int me` (this PE's number) before it.
 */
#ifndef ZEMEM_PE_CHECK_H
#define ZEMEM_PE_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond, ...) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "PE %d: %s:%d: check failed: %s: ", \
				me, __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__); \
			fputc('\n', stderr); \
			exit(3); \
		} \
	} while (0)

#endif
