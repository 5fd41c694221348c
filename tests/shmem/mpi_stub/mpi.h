/* SPDX-License-Identifier: MIT */
/*
 * A one-process stand-in for <mpi.h> (roc3_cpp_check.sh only): the names
 * rocshmem.hpp's rocshmem_init(MPI_Comm) uses, for a communicator of one
 * rank, so that path is compiled and run where no MPI headers are
 * installed. MPI_Bcast from rank 0 to itself leaves the buffer as it is.
 */
#ifndef ROC3_MPI_STUB_H
#define ROC3_MPI_STUB_H

#define MPI_VERSION 3
#define MPI_SUCCESS 0
typedef int MPI_Comm;
typedef int MPI_Datatype;
#define MPI_COMM_WORLD 1
#define MPI_COMM_NULL 0
#define MPI_INT 1
#define MPI_BYTE 2

static inline int
MPI_Comm_rank(MPI_Comm c, int *r)
{
	*r = 0;
	return c == MPI_COMM_WORLD ? MPI_SUCCESS : 1;
}

static inline int
MPI_Comm_size(MPI_Comm c, int *n)
{
	*n = 1;
	return c == MPI_COMM_WORLD ? MPI_SUCCESS : 1;
}

static inline int
MPI_Bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm c)
{
	(void)buf;
	(void)count;
	(void)t;
	return root == 0 && c == MPI_COMM_WORLD ? MPI_SUCCESS : 1;
}

#endif
