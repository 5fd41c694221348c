/* SPDX-License-Identifier: MIT */
/*
 * rocshmem/rocshmem.hpp: rocSHMEM 3.x's C++ header on libzeshmem.
 *
 * A C++ host program written for rocSHMEM 3.x,
 *     #include <rocshmem/rocshmem.hpp>
 *     using namespace rocshmem;
 *     ... rocshmem_init(); rocshmem_my_pe(); ...
 * (or rocshmem::rocshmem_my_pe()) compiles against this header and links
 * with libzeshmem (zeshc++ does both). Every routine, type and constant of
 * <rocshmem/rocshmem.h> is declared here inside namespace rocshmem; the
 * routines keep their C linkage, so they are libzeshmem's C symbols and
 * nothing here needs a C++ runtime library of its own. A program includes
 * either this header or rocshmem.h, not both (the types would be two).
 *
 * What differs from rocSHMEM 3.x's header:
 *   - rocshmem_init() returns int (ROCSHMEM_SUCCESS / ROCSHMEM_ERROR, the
 *     C header's), where 3.x's returns void: every 3.x call site
 *     compiles unchanged.
 *   - the stream of the *_on_stream routines is a Level Zero command list
 *     (ze_command_list_handle_t) in place of hipStream_t.
 *   - rocshmem_uniqueid_t is a struct of ROCSHMEM_UNIQUEID_BYTES bytes,
 *     not a std::array (the same size; pass its address as 3.x does).
 *   - host-only: no __device__ interface.
 *   - the host templates rocshmem_broadcast<T> (active set and team), which
 *     3.x declares in a header of its sources, are declared here.
 * Where <mpi.h> is present (or already included), rocshmem_init(MPI_Comm)
 * and rocshmem_init_thread(requested, provided, MPI_Comm) start the job
 * on a communicator: its rank 0 makes a unique id (rocshmem_get_uniqueid),
 * MPI_Bcast gives it to the others, and every rank starts with
 * rocshmem_init_attr(ROCSHMEM_INIT_WITH_UNIQUEID) as rank/size of the
 * communicator (MPI_COMM_NULL: MPI_COMM_WORLD). Define
 * ROCSHMEM_NO_MPI before including to leave them out.
 */
#ifndef ZESHMEM_ROCSHMEM_HPP
#define ZESHMEM_ROCSHMEM_HPP

#ifndef __cplusplus
#error "rocshmem/rocshmem.hpp is C++: C programs include rocshmem/rocshmem.h"
#endif

#ifdef ZESHMEM_ROCSHMEM_H
#error "include rocshmem/rocshmem.hpp or rocshmem/rocshmem.h, not both"
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if !defined(ROCSHMEM_NO_MPI) && !defined(MPI_VERSION) && \
    defined(__has_include)
#if __has_include(<mpi.h>)
#include <mpi.h>
#endif
#endif

namespace rocshmem {

#include "rocshmem.h"

/* the rocSHMEM API level this header provides */
constexpr char VERSION[] = "3.0.0";

/* rocSHMEM 3.x's active-set broadcast, the overload of the team form:
 *     rocshmem_ctx_<TYPE>_broadcast(ctx, dest, source, nelems, pe_root,
 *                                   pe_start, log_pe_stride, pe_size,
 *                                   pSync)
 * for every type of ROCSHMEM_BCAST_TYPES; C has no overloading, so these
 * call rocshmem.h's rocshmemx_ctx_<TYPE>_broadcast_active (its comment
 * says what they do). */
#define ROCSHMEM_HPP_BCAST_ACTIVE_(T, N, A) \
    inline void rocshmem_ctx_##N##_broadcast( \
        rocshmem_ctx_t ctx, T *dest, const T *source, int nelems, \
        int pe_root, int pe_start, int log_pe_stride, int pe_size, \
        long *pSync) \
    { \
        rocshmemx_ctx_##N##_broadcast_active(ctx, dest, source, nelems, \
                                             pe_root, pe_start, \
                                             log_pe_stride, pe_size, \
                                             pSync); \
    }
ROCSHMEM_BCAST_TYPES(ROCSHMEM_HPP_BCAST_ACTIVE_, )
#undef ROCSHMEM_HPP_BCAST_ACTIVE_

/* The typed routines under one name per form, for the templates below: a
 * type outside ROCSHMEM_BCAST_TYPES has no overload (a compile error). */
namespace zeshmem_detail {
#define ROCSHMEM_HPP_BCAST_ONE_(T, N, A) \
    inline void bcast(rocshmem_ctx_t ctx, T *dest, const T *source, \
                      int nelems, int pe_root, int pe_start, \
                      int log_pe_stride, int pe_size, long *pSync) \
    { \
        rocshmemx_ctx_##N##_broadcast_active(ctx, dest, source, nelems, \
                                             pe_root, pe_start, \
                                             log_pe_stride, pe_size, \
                                             pSync); \
    } \
    inline void bcast(rocshmem_ctx_t ctx, rocshmem_team_t team, T *dest, \
                      const T *source, int nelems, int pe_root) \
    { \
        rocshmem_ctx_##N##_broadcast(ctx, team, dest, source, nelems, \
                                     pe_root); \
    }
ROCSHMEM_BCAST_TYPES(ROCSHMEM_HPP_BCAST_ONE_, )
#undef ROCSHMEM_HPP_BCAST_ONE_
} /* namespace zeshmem_detail */

/* rocSHMEM 3.x's host templates of the two broadcasts (T one of
 * ROCSHMEM_BCAST_TYPES): the active set's and the team's, as the typed
 * routines above. */
template <typename T>
inline void
rocshmem_broadcast(rocshmem_ctx_t ctx, T *dest, const T *source,
                   int nelems, int pe_root, int pe_start, int log_pe_stride,
                   int pe_size, long *pSync)
{
    zeshmem_detail::bcast(ctx, dest, source, nelems, pe_root, pe_start,
                          log_pe_stride, pe_size, pSync);
}

template <typename T>
inline void
rocshmem_broadcast(rocshmem_ctx_t ctx, rocshmem_team_t team, T *dest,
                   const T *source, int nelems, int pe_root)
{
    zeshmem_detail::bcast(ctx, team, dest, source, nelems, pe_root);
}

#if defined(MPI_VERSION) && !defined(ROCSHMEM_NO_MPI)
/* provided: the level the runtime gives (it starts at
 * ROCSHMEM_THREAD_SINGLE on this path and says so); 0 or nonzero. */
inline int
rocshmem_init_thread(int requested, int *provided, MPI_Comm comm)
{
    (void)requested;
    if (comm == MPI_COMM_NULL)
        comm = MPI_COMM_WORLD;
    int rank = 0, size = 0;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS ||
        MPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return ROCSHMEM_ERROR;
    rocshmem_uniqueid_t uid = ROCSHMEM_UNIQUEID_INITIALIZER;
    int rc = ROCSHMEM_SUCCESS;
    if (rank == 0)
        rc = rocshmem_get_uniqueid(&uid);
    if (MPI_Bcast(&rc, 1, MPI_INT, 0, comm) != MPI_SUCCESS)
        return ROCSHMEM_ERROR;
    if (rc != ROCSHMEM_SUCCESS)
        return rc;
    if (MPI_Bcast(&uid, (int)sizeof(uid), MPI_BYTE, 0, comm) !=
        MPI_SUCCESS)
        return ROCSHMEM_ERROR;
    rocshmem_init_attr_t attr;
    rc = rocshmem_set_attr_uniqueid_args(rank, size, &uid, &attr);
    if (rc == ROCSHMEM_SUCCESS)
        rc = rocshmem_init_attr(ROCSHMEM_INIT_WITH_UNIQUEID, &attr);
    if (rc == ROCSHMEM_SUCCESS && provided)
        rocshmem_query_thread(provided);
    return rc;
}

/* 3.x's returns nothing: a failure is one line on stderr (the runtime's
 * reason before it, where it has one) */
inline void
rocshmem_init(MPI_Comm comm)
{
    if (rocshmem_init_thread(ROCSHMEM_THREAD_SINGLE, nullptr, comm) !=
        ROCSHMEM_SUCCESS)
        fprintf(stderr, "zeshmem: rocshmem_init(MPI_Comm): the start on "
                "the communicator failed\n");
}
#endif

} /* namespace rocshmem */

#endif /* ZESHMEM_ROCSHMEM_HPP */
