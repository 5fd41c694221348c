# SPDX-License-Identifier: MIT
"""One PE of a job started by one of the package's starts (tests/python/
test_starts.py): zeshrun, mpirun, python3 -m shmem.run, torchrun's
variables, torch.multiprocessing.spawn.

usage: start_case.py N [init|torch|pg]  (a PE: init by aclshmem_init; by
                                         shmem.torch.init_with_process_
                                         group; by aclshmem_init after
                                         init_process_group (torchrun))
       start_case.py N fail|wait        (a PE that fails or waits: see
                                         behave())
       start_case.py spawn N            (the parent: torch.multiprocessing.
                                         spawn of N processes over gloo)

Each PE checks with exact values: the job has N PEs and this PE is the
launcher's rank, a put ring (PE k puts 1000 * k + j into PE k+1), a get
ring, a barrier; then finalizes and prints "PE <k> of <N>: start ok".
"""
import faulthandler
import os
import sys

import numpy as np

import shmem

RANK_VARS = ("SHMEM_RUN_RANK", "ZESHMEM_RANK", "OMPI_COMM_WORLD_RANK",
             "RANK")


def say(line):
    """One line on stdout in one write: the job's PEs share the pipe the
    test reads, and print() may write the text and its newline apart
    (another PE's line then lands between them)."""
    sys.stdout.flush()
    os.write(1, (line + "\n").encode())


def launcher_rank():
    for v in RANK_VARS:
        if v in os.environ:
            return int(os.environ[v])
    return 0


def ring(me, n):
    a = shmem.aclshmemx_create_array((4, 8), np.int64)
    b = shmem.aclshmemx_create_array((8,), np.int64)
    a[:] = -1
    b[:] = np.arange(8) + 1000 * me
    shmem.aclshmem_barrier_all()
    # put ring: my b into row 0 of the right neighbour's a
    right, left = (me + 1) % n, (me - 1) % n
    shmem.aclshmem_putmem(a.ctypes.data, b.ctypes.data, 64, right)
    shmem.aclshmem_barrier_all()
    assert list(a[0]) == [1000 * left + j for j in range(8)], (me, a[0])
    assert (a[1:] == -1).all(), a
    # get ring: the right neighbour's b into my row 1
    shmem.aclshmem_getmem(a[1].ctypes.data, b.ctypes.data, 64, right)
    assert list(a[1]) == [1000 * right + j for j in range(8)], (me, a[1])
    shmem.aclshmem_barrier_all()
    shmem.aclshmemx_free_array(a)
    shmem.aclshmemx_free_array(b)


def pe(n, how, rank=None):
    if how == "torch":
        from shmem.torch import init_with_process_group
        ret = init_with_process_group(mem_size=16 << 20)
    else:
        ret = shmem.aclshmem_init(shmem.InitAttr(mem_size=16 << 20))
    if ret != 0:
        raise RuntimeError("init failed: %r" % ret)
    me = shmem.my_pe()
    want = launcher_rank() if rank is None else rank
    assert (ret.my_pe, ret.n_pes) == (me, n), (ret, me, n)
    assert shmem.pe_count() == n and me == want, (me, want, n)
    assert shmem.team_my_pe(0) == me and shmem.team_n_pes(0) == n
    ring(me, n)
    shmem.aclshmem_finalize()
    assert shmem.aclshmemx_init_status() == \
        shmem.InitStatus.NOT_INITIALIZED
    say("PE %d of %d: start ok" % (me, n))


def behave(n, how):
    """fail: every PE starts a grandchild (sleep), the last PE exits with
    status 3 after init while the others wait in a barrier; wait: every PE
    starts a grandchild, says "ready" and sleeps (the launcher is
    signalled or killed)."""
    import subprocess
    import time
    ret = shmem.aclshmem_init(shmem.InitAttr(mem_size=16 << 20))
    assert ret == 0 and ret.n_pes == n, ret
    me = shmem.my_pe()
    subprocess.Popen(["sleep", "300"])
    shmem.aclshmem_barrier_all()
    if how == "fail":
        if me == n - 1:
            say("PE %d: failing" % me)
            os._exit(3)
        shmem.aclshmem_barrier_all()
        say("PE %d: not ended" % me)
        return
    say("PE %d: ready" % me)
    time.sleep(300)
    say("PE %d: not ended" % me)


def deadline():
    """A PE that hangs prints every thread's stack and ends (status 1)
    before the test's deadline (test_shmem_py.JOB_S)."""
    faulthandler.dump_traceback_later(180, exit=True)


def spawned(k, n, port, how):
    deadline()
    import torch.distributed as dist
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:%d" % port,
                            rank=k, world_size=n)
    try:
        pe(n, how, rank=k)
    finally:
        dist.destroy_process_group()


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main(argv):
    deadline()
    if argv[1] == "spawn":
        import torch.multiprocessing as mp
        n, how = int(argv[2]), argv[3]
        mp.spawn(spawned, args=(n, free_port(), how), nprocs=n, join=True)
        return
    how = argv[2] if len(argv) > 2 else "init"
    if how == "reinit":   # under shmem.run: init, finalize, init again
        pe(int(argv[1]), "init")
        try:
            shmem.aclshmem_init(shmem.InitAttr(mem_size=16 << 20))
        except shmem.AclshmemError as e:
            say("reinit: %s" % e)
        else:
            raise AssertionError("a second init under shmem.run formed a "
                                 "job")
        assert shmem.aclshmemx_init_status() == 0
        return
    if how in ("fail", "wait"):
        behave(int(argv[1]), how)
        return
    if how == "pg":     # torchrun with the process group made first
        import torch.distributed as dist
        dist.init_process_group("gloo")
        try:
            pe(int(argv[1]), "init")
        finally:
            dist.destroy_process_group()
        return
    pe(int(argv[1]), how)


if __name__ == "__main__":
    main(sys.argv)
