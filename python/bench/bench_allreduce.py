# SPDX-License-Identifier: MIT
"""bench_allreduce.py: shmem.core.reduce (sum) of a float32 tensor against
torch.distributed's gloo all_reduce of the same tensor on the same
processes.

usage (from the top of the tree, after ninja -C build):
  PYTHONPATH=build/python build/shmem/tools/zeshrun -n 2 -- \\
      /usr/bin/python3 python/bench/bench_allreduce.py [--quick]

Every PE joins a gloo process group on 127.0.0.1 (rank 0 picks a free
port and broadcasts it with shmem.core.broadcast), then for 4 KiB, 1 MiB
and 64 MiB (--quick: 4 KiB and 1 MiB, fewer iterations) times, in
alternating trials, shmem.core.reduce(TEAM_WORLD, t, t, "sum") on a
symmetric tensor and dist.all_reduce(u) on an ordinary one, each followed
by nothing else (both are complete on return). Each figure is rank 0's
median of the trials, per call; the results are checked once against the
exact sum. Target (issue 31): faster than gloo at every size. A script,
not a timed test: it prints, never asserts the figures.
"""
import os
import socket
import statistics
import sys
import time

import numpy as np

import shmem.core as shm

try:
    import torch
    import torch.distributed as dist
except ImportError as e:
    print("bench_allreduce: skipped: torch cannot be imported: %s" % e)
    sys.exit(77)

quick = "--quick" in sys.argv
sizes = [4 << 10, 1 << 20] + ([] if quick else [64 << 20])
shm.init(mem_size=(160 << 20) if not quick else (16 << 20))
me, n = shm.my_pe(), shm.n_pes()

# the gloo group's port, chosen by rank 0
port = shm.array((1,), dtype="int64")
if me == 0:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port[0] = s.getsockname()[1]
    s.close()
shm.broadcast(shm.Teams.TEAM_WORLD, port, port, 0)
dist.init_process_group("gloo", init_method="tcp://127.0.0.1:%d" %
                        int(port[0]), rank=me, world_size=n)
shm.free(port)


def timed(f, iters):
    t0 = time.perf_counter()
    for _ in range(iters):
        f()
    return (time.perf_counter() - t0) / iters


if me == 0:
    print("bench_allreduce: %d processes, float32 sum; median of trials, "
          "per call" % n, flush=True)
for nbytes in sizes:
    count = nbytes // 4
    t = shm.tensor((count,), dtype=torch.float32)
    u = torch.empty(count, dtype=torch.float32)
    # exactness once: every PE's (me + 1) * [0, 1, 2, ...] mod 7
    base = torch.arange(count, dtype=torch.float32) % 7
    t.copy_(base * (me + 1))
    u.copy_(base * (me + 1))
    shm.reduce(shm.Teams.TEAM_WORLD, t, t, "sum")
    dist.all_reduce(u)
    want = base * (n * (n + 1) // 2)
    assert torch.equal(t, want) and torch.equal(u, want)
    iters = max(1, min(2000, (64 << 20) // nbytes // (8 if quick else 1)))
    if quick:
        iters = min(iters, 20)
    trials = 3 if quick else 9
    sh, gl = [], []
    red = lambda: shm.reduce(0, t, t, "sum")        # noqa: E731
    ar = lambda: dist.all_reduce(u)                 # noqa: E731
    red()
    ar()
    for _ in range(trials):
        shm.barrier_all()
        sh.append(timed(red, iters))
        dist.barrier()
        gl.append(timed(ar, iters))
    a, b = statistics.median(sh) * 1e6, statistics.median(gl) * 1e6
    if me == 0:
        print("all-reduce %8s  shmem.core %10.1f us  gloo %10.1f us  "
              "%.2fx gloo's speed  target faster: %s" %
              ("%d KiB" % (nbytes >> 10) if nbytes < 1 << 20 else
               "%d MiB" % (nbytes >> 20), a, b, b / a,
               "met" if a < b else "MISSED"), flush=True)
    shm.barrier_all()
    shm.free(t)
dist.destroy_process_group()
shm.finalize()
