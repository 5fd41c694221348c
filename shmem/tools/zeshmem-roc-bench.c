// SPDX-License-Identifier: MIT
/*
 * zeshmem-roc-bench: the cost of rocshmem_buffer_register_symmetric +
 * rocshmem_buffer_unregister_symmetric of a 64 MiB VMM buffer against
 * the Level Zero calls a program makes to map the same memory itself
 * (zeVirtualMemReserve + zeVirtualMemMap + zeVirtualMemUnmap +
 * zeVirtualMemFree of the same physical object), in the same run; the
 * median of each over the trials and their ratio.
 *
 * usage: zeshrun -n N -- zeshmem-roc-bench [--quick] [MiB]
 * One PE of a job (register_symmetric is collective: it includes the
 * agreement over the bootstrap and every node peer's IPC open). PE 0
 * prints the figures. --quick: 3 trials (a smoke run), else 21.
 */
#include <rocshmem/rocshmem.h>
#include <shmemx.h>

#include <level_zero/ze_api.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_time.h"

#define MAX_TRIALS 21

static int
fail(const char *what, ze_result_t r)
{
	fprintf(stderr, "zeshmem-roc-bench: %s: 0x%x\n", what, r);
	return 1;
}

int
main(int argc, char **argv)
{
	int trials = MAX_TRIALS;
	size_t mib = 64;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			trials = 3;
		else if (atoi(argv[i]) > 0)
			mib = (size_t)atoi(argv[i]);
	}
	if (rocshmem_init() != ROCSHMEM_SUCCESS)
		return 1;
	int me = rocshmem_my_pe();
	ze_context_handle_t ctx = shmemx_ze_context();
	ze_device_handle_t dev = shmemx_ze_device();
	size_t len = mib << 20, page = 0;
	ze_result_t r = zeVirtualMemQueryPageSize(ctx, dev, len, &page);
	if (r || !page)
		return fail("zeVirtualMemQueryPageSize", r);
	len = (len + page - 1) / page * page;
	ze_physical_mem_desc_t pd = {
		.stype = ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC,
		.size = len,
	};
	ze_physical_mem_handle_t ph;
	if ((r = zePhysicalMemCreate(ctx, dev, &pd, &ph)))
		return fail("zePhysicalMemCreate", r);
	double base[MAX_TRIALS], reg[MAX_TRIALS];
	/* the user's buffer, mapped once */
	void *buf = NULL;
	if ((r = zeVirtualMemReserve(ctx, NULL, len, &buf)) ||
	    (r = zeVirtualMemMap(ctx, buf, len, ph, 0,
				 ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE)))
		return fail("map the buffer", r);
	memset(buf, 1, 4096);
	for (int t = 0; t < trials; t++) {
		/* baseline: map the same physical memory a second time */
		double t0 = now_us();
		void *p = NULL;
		if ((r = zeVirtualMemReserve(ctx, NULL, len, &p)) ||
		    (r = zeVirtualMemMap(ctx, p, len, ph, 0,
					 ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE)))
			return fail("baseline map", r);
		if ((r = zeVirtualMemUnmap(ctx, p, len)) ||
		    (r = zeVirtualMemFree(ctx, p, len)))
			return fail("baseline unmap", r);
		base[t] = now_us() - t0;
		rocshmem_barrier_all();
		t0 = now_us();
		void *alias = rocshmem_buffer_register_symmetric(buf, len);
		if (!alias)
			return fail("rocshmem_buffer_register_symmetric", 0);
		if (((char *)alias)[0] != 1)
			return fail("the alias does not show the buffer", 0);
		if (rocshmem_buffer_unregister_symmetric(alias))
			return fail("rocshmem_buffer_unregister_symmetric", 0);
		reg[t] = now_us() - t0;
	}
	double mb = median(base, trials), mr = median(reg, trials);
	if (me == 0)
		printf("register_symmetric+unregister of %zu MiB on %d PEs: "
		       "median %.1f us; zeVirtualMemReserve+Map+Unmap+Free of "
		       "the same: median %.1f us; ratio %.2f (%d trials)\n",
		       len >> 20, rocshmem_n_pes(), mr, mb, mr / mb, trials);
	zeVirtualMemUnmap(ctx, buf, len);
	zeVirtualMemFree(ctx, buf, len);
	zePhysicalMemDestroy(ctx, ph);
	rocshmem_finalize();
	return 0;
}
