# SPDX-License-Identifier: MIT
"""WholeMemory communicators for pylibwholegraph.torch.

The world communicator: under zeshrun or mpirun (PMIx) libzewholememory
finds the job itself (create_communicator_from_env); started by torchrun
alone (RANK / WORLD_SIZE, no zeshrun), rank 0's unique id goes to every
rank over torch.distributed (gloo; MASTER_ADDR / MASTER_PORT are the
launcher's), as WholeGraph does it with NCCL. Group, local node and local
device communicators are splits of the world (libzeshmem runs one job
per process)."""

import os

import torch

import pylibwholegraph.binding.wholememory_binding as wmb
from .utils import (
    str_to_wmb_wholememory_distributed_backend_type,
    wholememory_distributed_backend_type_to_str,
    str_to_wmb_wholememory_memory_type,
    str_to_wmb_wholememory_location,
)

_world = None
global_communicators = {}
local_node_communicator = None
local_device_communicator = None
local_mnnvl_communicator = None

all_comm_world_rank = 0
all_comm_world_size = 1
all_comm_local_rank = 0
all_comm_local_size = 1


def reset_communicators():
    global _world, global_communicators, local_node_communicator
    global local_device_communicator, local_mnnvl_communicator
    global all_comm_world_rank, all_comm_world_size
    global all_comm_local_rank, all_comm_local_size
    _world = None
    local_mnnvl_communicator = None
    global_communicators = {}
    local_node_communicator = None
    local_device_communicator = None
    all_comm_world_rank, all_comm_world_size = 0, 1
    all_comm_local_rank, all_comm_local_size = 0, 1


def set_world_info(world_rank: int, world_size: int, local_rank: int,
                   local_size: int):
    """The world as the caller knows it (checked against the job when the
    first communicator is made)."""
    global all_comm_world_rank, all_comm_world_size
    global all_comm_local_rank, all_comm_local_size
    if not (0 <= world_rank < world_size and 0 <= local_rank < local_size
            and local_size <= world_size and world_size % local_size == 0):
        raise ValueError(
            "world_rank %d world_size %d local_rank %d local_size %d: not "
            "a world" % (world_rank, world_size, local_rank, local_size))
    all_comm_world_rank, all_comm_world_size = world_rank, world_size
    all_comm_local_rank, all_comm_local_size = local_rank, local_size


class WholeMemoryCommunicator(object):
    """A WholeMemory communicator; made by get_global_communicator,
    get_local_node_communicator, get_local_device_communicator,
    create_group_communicator or split_communicator."""

    def __init__(self, wmb_comm):
        self.wmb_comm = wmb_comm

    def get_rank(self):
        return self.wmb_comm.get_rank()

    def get_size(self):
        return self.wmb_comm.get_size()

    def get_local_size(self):
        return self.wmb_comm.get_local_size()

    def get_clique_info(self):
        return self.wmb_comm.get_clique_info()

    def barrier(self):
        return self.wmb_comm.barrier()

    def support_type_location(self, memory_type: str, memory_location: str):
        return self.wmb_comm.support_type_location(
            str_to_wmb_wholememory_memory_type(memory_type),
            str_to_wmb_wholememory_location(memory_location))

    def destroy(self):
        destroy_communicator(self)

    @property
    def distributed_backend(self):
        return wholememory_distributed_backend_type_to_str(
            self.wmb_comm.get_distributed_backend())

    @distributed_backend.setter
    def distributed_backend(self, value):
        self.wmb_comm.set_distributed_backend(
            str_to_wmb_wholememory_distributed_backend_type(value))


def _launched():
    env = os.environ
    return any(env.get(v) for v in ("ZESHMEM_RANK", "ZESHMEM_UNIQUEID",
                                    "PMIX_RANK"))


def _world_comm():
    """The world (made once)."""
    global _world
    if _world is not None:
        return _world
    size = all_comm_world_size
    if size == 1 or _launched():
        c = wmb.create_communicator_from_env()
    else:
        c = _comm_over_torch_distributed(all_comm_world_rank, size)
    if c.get_size() != size or c.get_rank() != all_comm_world_rank:
        n, r = c.get_size(), c.get_rank()
        wmb.destroy_communicator(c)
        raise RuntimeError(
            "pylibwholegraph: the job has rank %d of %d, but init was told "
            "rank %d of %d (start the processes with zeshrun -n %d, "
            "mpirun, or torchrun)" % (r, n, all_comm_world_rank, size,
                                      size))
    _world = c
    return c


def _comm_over_torch_distributed(rank, size):
    import torch.distributed as dist
    if not dist.is_available():
        raise RuntimeError("pylibwholegraph: %d ranks without zeshrun or "
                           "mpirun need torch.distributed" % size)
    if not dist.is_initialized():
        dist.init_process_group(backend="gloo", init_method="env://",
                                rank=rank, world_size=size)
    if rank == 0:
        uid = wmb.create_unique_id()
        raw = torch.frombuffer(bytearray(uid.to_bytes()), dtype=torch.uint8)
    else:
        raw = torch.zeros(128, dtype=torch.uint8)
    dist.broadcast(raw, 0)
    return wmb.create_communicator(
        wmb.PyWholeMemoryUniqueID(bytes(raw.tolist())), rank, size)


def create_group_communicator(group_size: int = -1, comm_stride: int = 1):
    """Groups of group_size ranks, comm_stride apart (24 ranks, 4 and 2:
    [0, 2, 4, 6], [1, 3, 5, 7], [8, 10, 12, 14], ...); -1: all ranks."""
    world = _world_comm()
    world_size = world.get_size()
    world_rank = world.get_rank()
    if group_size == -1:
        group_size = world_size
    if group_size <= 0 or comm_stride <= 0 or \
            world_size % (group_size * comm_stride) != 0:
        raise ValueError("group_size %d with comm_stride %d does not "
                         "divide %d ranks" % (group_size, comm_stride,
                                              world_size))
    strided = group_size * comm_stride
    idx_in_strided = world_rank % strided
    color = (world_rank // strided) * comm_stride + idx_in_strided % \
        comm_stride
    key = idx_in_strided // comm_stride
    return WholeMemoryCommunicator(wmb.split_communicator(world, color,
                                                          key))


def split_communicator(comm: WholeMemoryCommunicator, color: int,
                       key: int = 0):
    """Ranks of one color (>= 0) form a communicator, ordered by key then
    rank; a negative color gets None (collective either way)."""
    if not isinstance(color, int) or not isinstance(key, int):
        raise TypeError("color and key must be int")
    c = wmb.split_communicator(comm.wmb_comm, color if color >= 0 else -1,
                               key)
    return WholeMemoryCommunicator(c) if c is not None else None


def destroy_communicator(wm_comm: WholeMemoryCommunicator):
    if wm_comm is not None and wm_comm.wmb_comm is not None:
        wmb.destroy_communicator(wm_comm.wmb_comm)
        wm_comm.wmb_comm = None


def get_global_communicator(distributed_backend="nccl"):
    """All ranks of the job (one per backend name; on zemem every backend
    is libzeshmem's RMA)."""
    if distributed_backend not in global_communicators:
        str_to_wmb_wholememory_distributed_backend_type(distributed_backend)
        global_communicators[distributed_backend] = \
            create_group_communicator()
    return global_communicators[distributed_backend]


def get_local_node_communicator():
    """The ranks of this node (local_size of them)."""
    global local_node_communicator
    if local_node_communicator is None:
        local_node_communicator = create_group_communicator(
            all_comm_local_size)
    return local_node_communicator


def get_local_device_communicator():
    """This rank alone."""
    global local_device_communicator
    if local_device_communicator is None:
        local_device_communicator = create_group_communicator(1)
    return local_device_communicator


def get_local_mnnvl_communicator():
    """The ranks of this rank's clique (on zemem: its node, whose ranks
    map each other's memory)."""
    global local_mnnvl_communicator
    if local_mnnvl_communicator is None:
        g = get_global_communicator()
        in_clique, _, _, _, clique_id, _ = g.get_clique_info()
        if not in_clique:
            raise RuntimeError("this rank is in no clique")
        local_mnnvl_communicator = split_communicator(g, clique_id)
    return local_mnnvl_communicator
