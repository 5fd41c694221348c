# SPDX-License-Identifier: MIT
"""The job's world as its launcher describes it: zeshrun (ZESHMEM_RANK,
ZESHMEM_NRANKS, ZESHMEM_LOCAL_RANK), mpirun (Open MPI's
OMPI_COMM_WORLD_*, PMIx's PMIX_RANK), torchrun (RANK, WORLD_SIZE,
LOCAL_RANK, LOCAL_WORLD_SIZE); a plain process is rank 0 of 1."""

import os

_LAUNCHERS = (
    # name, rank, size, local rank, local size
    ("zeshrun", "ZESHMEM_RANK", "ZESHMEM_NRANKS", "ZESHMEM_LOCAL_RANK",
     None),
    ("mpirun", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
     "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"),
    ("pmix", "PMIX_RANK", "PMIX_SIZE", "PMIX_LOCAL_RANK", "PMIX_LOCAL_SIZE"),
    ("torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE"),
)


def _int(name, default=None):
    v = os.environ.get(name)
    if v is None or v == "":
        return default
    try:
        return int(v)
    except ValueError:
        raise ValueError("%s=%r is not an integer" % (name, v)) from None


def launcher():
    """(launcher name, rank, size, local_rank, local_size); local_size
    is the size when the launcher does not say (one node)."""
    for name, r, s, lr, ls in _LAUNCHERS:
        rank = _int(r)
        if rank is None:
            continue
        size = _int(s, 1 if name != "pmix" else None)
        if size is None:
            continue
        local_rank = _int(lr, rank)
        local_size = _int(ls, size) if ls else size
        if not 0 <= rank < size:
            raise ValueError("%s: rank %d outside size %d" % (name, rank,
                                                              size))
        return name, rank, size, local_rank, local_size
    return "none", 0, 1, 0, 1


def get_rank():
    return launcher()[1]


def get_world_size():
    return launcher()[2]


def get_local_rank():
    return launcher()[3]


def get_local_size():
    return launcher()[4]
