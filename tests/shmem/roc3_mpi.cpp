// SPDX-License-Identifier: MIT
/*
 * roc3_mpi: rocshmem_init(MPI_Comm) and rocshmem_init_thread(.., MPI_Comm)
 * of <rocshmem/rocshmem.hpp> where <mpi.h> is present (here
 * mpi_stub/mpi.h: one rank), each starting a job of one PE through the
 * unique id. Prints "roc3_mpi ok" or a FAIL line and exits 2.
 */
#include <mpi.h>
#include <rocshmem/rocshmem.hpp>

#include <cstdio>
#include <cstdlib>

using namespace rocshmem;

#define CHECK(cond, what) \
	do { \
		if (!(cond)) { \
			std::fprintf(stderr, "FAIL line %d: %s\n", __LINE__, \
				     what); \
			std::exit(2); \
		} \
	} while (0)

int
main()
{
	rocshmem_init(MPI_COMM_NULL);       // MPI_COMM_WORLD
	CHECK(rocshmem_my_pe() == 0 && rocshmem_n_pes() == 1, "init");
	auto *x = static_cast<long *>(rocshmem_malloc(sizeof(long)));
	CHECK(x, "malloc");
	rocshmem_long_p(x, 42, 0);
	rocshmem_barrier_all();
	CHECK(*x == 42, "put to itself");
	rocshmem_free(x);
	rocshmem_finalize();
	int prov = -1;
	CHECK(rocshmem_init_thread(ROCSHMEM_THREAD_MULTIPLE, &prov,
				   MPI_COMM_WORLD) == ROCSHMEM_SUCCESS,
	      "init_thread");
	CHECK(prov >= ROCSHMEM_THREAD_SINGLE &&
	      prov <= ROCSHMEM_THREAD_MULTIPLE, "provided");
	rocshmem_finalize();
	// a communicator MPI refuses: the error, no job
	CHECK(rocshmem_init_thread(ROCSHMEM_THREAD_SINGLE, nullptr, 7) ==
	      ROCSHMEM_ERROR, "bad communicator");
	std::printf("roc3_mpi ok\n");
	return 0;
}
