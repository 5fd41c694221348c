// SPDX-License-Identifier: MIT
/*
 * vt_maps: the leak check of the vmm suites, on top of tests/common's
 * leakcheck.
 *
 * Without sanitizers: leakcheck's own check (every fd, every mapping)
 * plus a count of the mappings the driver's VMM code makes.
 *
 * Under AddressSanitizer, whose runtime maps memory whenever it likes
 * (allocator regions per size class, stack depot, internal allocator),
 * a whole-process mapping count is noise. There the check compares fds,
 * and the mappings that are the driver's business only: memfd mappings
 * of zemem objects, and PROT_NONE private anonymous ranges (reservation
 * placeholders) outside the sanitizer's shadow and allocator ranges.
 * The same holds under ThreadSanitizer.
 */
#ifndef ZEMEM_VT_MAPS_H
#define ZEMEM_VT_MAPS_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "leakcheck.h"

struct vt_maps {
	int nfd;
	int nvmm;           /* driver VMM mappings (see above) */
	size_t vmm_bytes;
	int nall;           /* every mapping (leakcheck's count) */
	size_t all_bytes;
};

/* Ranges of the x86-64 sanitizer runtimes. ASan: shadow (and its gap)
 * and the allocator space. TSan: everything below its application range
 * of modules, mmaps and stacks (from 0x7e8000000000): its shadow, meta
 * shadow, their gaps and its heap, which it splits into PROT_NONE
 * pieces as it grows. */
static inline int
vt_sanitizer_range(unsigned long a)
{
#if TEST_ASAN && defined(__x86_64__)
	return a < 0x10007fff8000ul ||
	       (a >= 0x600000000000ul && a < 0x640000000000ul);
#elif TEST_TSAN && defined(__x86_64__)
	return a < 0x7e8000000000ul;
#else
	(void)a;
	return 0;
#endif
}

static inline void
vt_maps_now(struct vt_maps *m)
{
	memset(m, 0, sizeof(*m));
	m->nfd = leakcheck_count_fds();
	m->nall = leakcheck_count_maps(&m->all_bytes);
	FILE *f = fopen("/proc/self/maps", "re");
	ck_assert_ptr_nonnull(f);
	char line[512];
	while (fgets(line, sizeof(line), f)) {
		unsigned long a, b, ino;
		char perms[8];
		int path = 0;
		if (sscanf(line, "%lx-%lx %7s %*s %*s %lu %n", &a, &b, perms,
			   &ino, &path) < 4)
			continue;
		const char *rest = path ? line + path : "";
		int memfd = strstr(rest, "memfd:zemem") != NULL;
		int placeholder = !strcmp(perms, "---p") && ino == 0 &&
				  (*rest == '\n' || *rest == '\0');
		if (!memfd && (!placeholder || vt_sanitizer_range(a)))
			continue;
		m->nvmm++;
		m->vmm_bytes += b - a;
	}
	fclose(f);
}

/* Asserts nothing leaked between two snapshots (see the header). */
static inline void
vt_maps_assert_same(const struct vt_maps *before, const struct vt_maps *after)
{
	ck_assert_int_eq(after->nfd, before->nfd);
	ck_assert_int_eq(after->nvmm, before->nvmm);
	/* Under TSan a PROT_NONE range that is not the driver's (there
	 * before the test starts) loses pieces to mappings of the runtime
	 * during a test: there the count is compared, the bytes in the
	 * other builds. */
	if (!TEST_TSAN)
		ck_assert_uint_eq(after->vmm_bytes, before->vmm_bytes);
	if (!TEST_ASAN) {
		ck_assert_int_eq(after->nall, before->nall);
		ck_assert_uint_eq(after->all_bytes, before->all_bytes);
	}
}

#endif
