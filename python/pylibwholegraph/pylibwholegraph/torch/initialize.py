# SPDX-License-Identifier: MIT
"""Starting and ending pylibwholegraph.torch.

init / init_torch_env take the world from the caller (as WholeGraph's
do); the ranks come from the launcher (zeshrun, mpirun, torchrun: see
distributed_launch). CPU torch: no device is selected, and
torch.distributed is started only for a torchrun job without zeshrun
(comm.py)."""

import pylibwholegraph.binding.wholememory_binding as wmb
from .comm import (
    set_world_info,
    get_global_communicator,
    get_local_node_communicator,
    reset_communicators,
)
from .utils import str_to_wmb_wholememory_log_level

_inited = False


def init(world_rank: int, world_size: int, local_rank: int,
         local_size: int, wm_log_level="info"):
    """Start libzewholememory and record the world."""
    global _inited
    level = str_to_wmb_wholememory_log_level(wm_log_level)
    set_world_info(world_rank, world_size, local_rank, local_size)
    wmb.init(0, level)
    _inited = True


def init_torch_env(world_rank: int, world_size: int, local_rank: int,
                   local_size: int, wm_log_level="info"):
    """init for PyTorch (CPU torch: the same as init)."""
    init(world_rank, world_size, local_rank, local_size, wm_log_level)


def init_torch_env_and_create_wm_comm(world_rank: int, world_size: int,
                                      local_rank: int, local_size: int,
                                      distributed_backend_type="nccl",
                                      wm_log_level="info"):
    """init_torch_env, then (global communicator, local node
    communicator)."""
    init_torch_env(world_rank, world_size, local_rank, local_size,
                   wm_log_level)
    global_comm = get_global_communicator(distributed_backend_type)
    local_comm = get_local_node_communicator()
    return global_comm, local_comm


def is_rmm_enabled():
    """False: CPU torch has no RMM memory resource to use."""
    return False


def finalize():
    """Free what is left (tensors, embeddings, communicators) and end
    libzewholememory (and libzeshmem when it started it); torch.distributed
    too when it is initialized."""
    global _inited
    wmb.finalize()
    reset_communicators()
    _inited = False
    import torch.distributed as dist
    if dist.is_available() and dist.is_initialized():
        dist.destroy_process_group()
