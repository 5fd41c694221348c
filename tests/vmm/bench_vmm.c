// SPDX-License-Identifier: MIT
/*
 * bench_vmm: cost of a zeVirtualMemReserve + Map + Unmap + Free cycle of
 * 2 MiB (one physical object made once, outside the loop) against the
 * baselines measured in the same run: mmap + munmap of 2 MiB of anonymous
 * memory, and of 2 MiB of a memfd (MAP_SHARED, what a mapping really is).
 * Nothing is touched: these are address-space operations. Every cycle is
 * timed on its own; medians are printed, then the ratios. Not a test: no
 * time is ever asserted.
 *
 *   ninja -C build tests/vmm/bench_vmm && build/tests/vmm/bench_vmm [iters]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "u_os.h"
#include "zt.h"

#define SIZE ((size_t)2 << 20)

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static double
median(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return n % 2 ? (double)v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

#define CHECK(call)                                                         \
	do {                                                                \
		ze_result_t r_ = (call);                                    \
		if (r_) {                                                   \
			fprintf(stderr, "%s: 0x%x\n", #call, (unsigned)r_); \
			exit(1);                                            \
		}                                                           \
	} while (0)

/* Per-step medians of the VMM cycle: reserve, map, unmap, free, total. */
static void
run_vmm(size_t iters, ze_physical_mem_handle_t h, double out[5])
{
	uint64_t *t[5];
	for (int k = 0; k < 5; k++)
		t[k] = malloc(iters * sizeof(uint64_t));
	for (size_t i = 0; i < iters; i++) {
		void *p;
		uint64_t a = u_now_ns();
		CHECK(zt.vmem.pfnReserve(zt.ctx, NULL, SIZE, &p));
		uint64_t b = u_now_ns();
		CHECK(zt.vmem.pfnMap(zt.ctx, p, SIZE, h, 0,
				     ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
		uint64_t c = u_now_ns();
		CHECK(zt.vmem.pfnUnmap(zt.ctx, p, SIZE));
		uint64_t d = u_now_ns();
		CHECK(zt.vmem.pfnFree(zt.ctx, p, SIZE));
		uint64_t e = u_now_ns();
		t[0][i] = b - a;
		t[1][i] = c - b;
		t[2][i] = d - c;
		t[3][i] = e - d;
		t[4][i] = e - a;
	}
	for (int k = 0; k < 5; k++) {
		out[k] = median(t[k], iters);
		free(t[k]);
	}
}

static double
run_mmap(size_t iters, int fd)
{
	uint64_t *t = malloc(iters * sizeof(uint64_t));
	int flags = fd < 0 ? MAP_PRIVATE | MAP_ANONYMOUS : MAP_SHARED;
	for (size_t i = 0; i < iters; i++) {
		uint64_t a = u_now_ns();
		void *p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, flags, fd,
			       0);
		if (p == MAP_FAILED) {
			perror("mmap");
			exit(1);
		}
		munmap(p, SIZE);
		t[i] = u_now_ns() - a;
	}
	double m = median(t, iters);
	free(t);
	return m;
}

int
main(int argc, char **argv)
{
	size_t iters = argc > 1 ? strtoul(argv[1], NULL, 0) : 20000;
	if (!iters)
		iters = 1;
	if (zt_load_version(&zt, ZE_API_VERSION_CURRENT))
		return 1;
	CHECK(zt.global.pfnInit(0));
	uint32_t n = 1;
	CHECK(zt.driver.pfnGet(&n, &zt.drv));
	n = 1;
	CHECK(zt.device.pfnGet(zt.drv, &n, &zt.dev));
	ze_context_desc_t cd = { ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0 };
	CHECK(zt.context.pfnCreate(zt.drv, &cd, &zt.ctx));
	ze_physical_mem_desc_t pd = { ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC,
				      NULL, 0, SIZE };
	ze_physical_mem_handle_t h;
	CHECK(zt.pmem.pfnCreate(zt.ctx, zt.dev, &pd, &h));
	int fd = u_memfd_create("bench_vmm", SIZE);
	if (fd < 0)
		return 1;

	/* Warm up every path, then measure. */
	double v[5], anon, shm;
	run_vmm(iters / 10 + 1, h, v);
	run_mmap(iters / 10 + 1, -1);
	run_mmap(iters / 10 + 1, fd);
	run_vmm(iters, h, v);
	anon = run_mmap(iters, -1);
	shm = run_mmap(iters, fd);

	printf("bench_vmm: 2 MiB, %zu cycles each, median ns per cycle\n",
	       iters);
	printf("  vmm reserve+map+unmap+free  %8.0f  (reserve %.0f, map %.0f, "
	       "unmap %.0f, free %.0f)\n", v[4], v[0], v[1], v[2], v[3]);
	printf("  mmap+munmap anonymous       %8.0f\n", anon);
	printf("  mmap+munmap memfd shared    %8.0f\n", shm);
	printf("  ratio vmm / anonymous       %8.2f\n", v[4] / anon);
	printf("  ratio vmm / memfd           %8.2f\n", v[4] / shm);

	close(fd);
	CHECK(zt.pmem.pfnDestroy(zt.ctx, h));
	CHECK(zt.context.pfnDestroy(zt.ctx));
	return 0;
}
