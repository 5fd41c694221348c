# SPDX-License-Identifier: MIT
"""shmem with torch.distributed: form the job from a process group.

    import torch.distributed as dist, shmem, shmem.torch
    dist.init_process_group("gloo", ...)     # e.g. in torch.multiprocessing
    ret = shmem.torch.init_with_process_group()   # .spawn's processes
    if ret != 0:
        raise RuntimeError(ret)

Rank 0 of the group makes the unique id and broadcasts it over the group
(broadcast_object_list, gloo is enough); every rank of the group then
initializes with it: PE k is the group's rank k. aclshmem_init(InitAttr())
does the same on its own when torch.distributed's default group is
initialized and no other launcher (zeshrun, mpirun, shmem.run) started the
process.
"""
from . import _start
from ._init import InitAttr, _result
from . import _init, _shmem


def init_with_process_group(group=None, mem_size=0, op_engine_type=None):
    """init_with_process_group(group=None, mem_size=0, op_engine_type=None)
    -> InitResult

    Initialize a job of the ranks of group (a torch.distributed process
    group, None for the default one), collectively: every rank of the
    group calls it. mem_size: the symmetric heap in bytes (0: the
    default); op_engine_type: an OpEngineType or None. Returns the error
    code, 0 on success, as an InitResult (status, my_pe = the group rank,
    n_pes = the group size). A second call while initialized is a no-op."""
    attr = InitAttr(mem_size, op_engine_type)   # checks both
    if _shmem._init_state() == _init.InitStatus.INITIALIZED:
        return _result(0)
    rank, n, uid = _start._group_uid(group)
    engine = attr.op_engine_type
    return _result(_shmem._aclshmem_init_using_unique_id(
        rank, n, attr.mem_size, uid, -1 if engine is None else int(engine)))
