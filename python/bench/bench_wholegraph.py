# SPDX-License-Identifier: MIT
"""bench_wholegraph.py: pylibwholegraph.torch against local baselines
measured in the same run.

usage (from the top of the tree, after ninja -C build):
  PYTHONPATH=build/python/pylibwholegraph build/shmem/tools/zeshrun -n 2 \\
      -- /usr/bin/python3 python/bench/bench_wholegraph.py \\
      [--quick] [--table-mib N] [--solo-baseline]

Figures (rank 0 prints them; every rank runs the same work at once):
  gather   1M random rows (--rows-gathered) of 128 B and 512 B from a
           table of --table-mib MiB per job, for CONTINUOUS, CHUNKED and
           DISTRIBUTED host memory, against numpy fancy indexing of a
           local table of the same size (table[idx], the memcpy floor);
  embed    a training step (gather + gradient apply through the
           optimizer) of 64k indices into a (rows, 64) float embedding,
           SGD and Adam, against torch.nn.Embedding(sparse=True) with
           torch.optim.SGD / SparseAdam on the same sizes;
  sample   1024 seeds, fanout 10 and 25, unweighted, against a
           vectorised numpy sampler (random keys per edge, the k
           smallest per row) on one process.
Each figure is the median of the trials. A script, not a timed test.
"""
import argparse
import statistics
import time

import numpy as np
import torch

import pylibwholegraph.torch as wgth

ap = argparse.ArgumentParser()
ap.add_argument("--quick", action="store_true")
ap.add_argument("--table-mib", type=int, default=2048)
ap.add_argument("--rows-gathered", type=int, default=1 << 20)
ap.add_argument("--trials", type=int, default=5)
# rank 0 alone runs the numpy baseline (the others wait): half the
# baselines' memory, for tables that would not fit twice (8 GiB on a
# 24 GiB machine); numpy then has the machine's memory bandwidth alone
ap.add_argument("--solo-baseline", action="store_true")
args = ap.parse_args()
if args.quick:
    args.table_mib, args.rows_gathered, args.trials = 16, 1 << 14, 2

_, RANK, SIZE, LRANK, LSIZE = wgth.launcher()
wgth.init_torch_env(RANK, SIZE, LRANK, LSIZE, "warn")
comm = wgth.get_global_communicator()
torch.set_num_threads(1)


def say(*a):
    if RANK == 0:
        print(*a, flush=True)


def timed(fn, trials):
    fn()
    out = []
    for _ in range(trials):
        comm.barrier()
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return statistics.median(out)


say("bench_wholegraph: %d ranks, table %d MiB, %d rows gathered, "
    "%d trials" % (SIZE, args.table_mib, args.rows_gathered, args.trials))

# ---- tensor gather --------------------------------------------------------
for row_bytes in (128, 512):
    cols = row_bytes // 4
    rows = (args.table_mib << 20) // row_bytes
    rng = np.random.default_rng(RANK)
    idx = rng.integers(0, rows, args.rows_gathered)
    # every page written first (a fresh table's untouched pages would
    # fault during the gathers: numpy's as the shared zero page, a
    # WholeMemory table's as new pages of its memfd)
    idx_t = torch.from_numpy(idx)
    if args.solo_baseline and RANK != 0:
        base = timed(lambda: None, args.trials)
    else:
        local = np.ones((rows, cols), np.float32)
        base = timed(lambda: local[idx], args.trials)
        local = None
    say("gather %d B rows: numpy local fancy index %.1f ms (%.2f GB/s)" % (
        row_bytes, base * 1e3, args.rows_gathered * row_bytes / base / 1e9))
    for mt in ("continuous", "chunked", "distributed"):
        wt = wgth.create_wholememory_tensor(comm, mt, "cpu", [rows, cols],
                                            torch.float32, None)
        wt.get_local_tensor()[0].fill_(1.0)
        comm.barrier()
        t = timed(lambda: wt.gather(idx_t), args.trials)
        say("  %-11s %.1f ms (%.2f GB/s) = %.2fx numpy" % (
            mt, t * 1e3, args.rows_gathered * row_bytes / t / 1e9,
            base / t))
        comm.barrier()
        wgth.destroy_wholememory_tensor(wt)

# ---- embedding step -------------------------------------------------------
rows, dim, batch = (1 << 20) if not args.quick else (1 << 14), 64, 1 << 16
if args.quick:
    batch = 1 << 12
idx_t = torch.from_numpy(np.random.default_rng(7 + RANK).integers(
    0, rows, batch))
grad = torch.randn(batch, dim)
for kind, torch_opt in (("sgd", torch.optim.SGD),
                        ("adam", torch.optim.SparseAdam)):
    te = torch.nn.Embedding(rows, dim, sparse=True)
    topt = torch_opt(te.parameters(), lr=0.01)

    def torch_step():
        topt.zero_grad()
        (te(idx_t) * grad).sum().backward()
        topt.step()
    base = timed(torch_step, args.trials)
    te = topt = None
    for mt in ("continuous", "chunked", "distributed"):
        emb = wgth.create_embedding(comm, mt, "cpu", torch.float32,
                                    [rows, dim], random_init=True)
        opt = wgth.create_wholememory_optimizer(emb, kind, {})
        mod = wgth.WholeMemoryEmbeddingModule(emb)

        def wg_step():
            (mod(idx_t) * grad).sum().backward()
            opt.step(0.01)
        t = timed(wg_step, args.trials)
        say("embed %-4s %-11s step %.1f ms; torch.nn.Embedding sparse "
            "%.1f ms (%.2fx)" % (kind, mt, t * 1e3, base * 1e3, base / t))
        comm.barrier()
        wgth.destroy_wholememory_optimizer(opt)
        wgth.destroy_embedding(emb)

# ---- sampling -------------------------------------------------------------
nodes = 1 << 17 if not args.quick else 1 << 12
r = np.random.default_rng(3)
deg = r.integers(1, 60, nodes)
rowp = np.concatenate([[0], np.cumsum(deg)]).astype(np.int64)
col = r.integers(0, nodes, int(rowp[-1])).astype(np.int64)


def np_sample(centers, k, rng):
    """The k smallest of random keys of each center's edges."""
    s, e = rowp[centers], rowp[centers + 1]
    d = e - s
    seg = np.repeat(np.arange(len(centers)), d)
    edge = np.arange(d.sum()) - np.repeat(np.cumsum(d) - d, d) + \
        np.repeat(s, d)
    key = rng.random(len(edge))
    order = np.lexsort((key, seg))
    pos = np.arange(len(order)) - np.repeat(np.cumsum(d) - d, d)
    keep = order[pos < k]
    return col[np.sort(edge[keep])]


def wm_vec(arr):
    t = wgth.create_wholememory_tensor(comm, "chunked", "cpu", [len(arr)],
                                       torch.int64, None)
    loc, start = t.get_local_tensor()
    if loc.numel():
        loc.copy_(torch.from_numpy(arr[start:start + loc.shape[0]]))
    comm.barrier()
    return t


wr, wc = wm_vec(rowp), wm_vec(col)
centers = np.random.default_rng(11).integers(0, nodes, 1024)
ct = torch.from_numpy(centers)
for k in (10, 25):
    gen = np.random.default_rng(5)
    base = timed(lambda: np_sample(centers, k, gen), args.trials * 4)
    t = timed(lambda: wgth.unweighted_sample_without_replacement(
        wr, wc, ct, k, 1), args.trials * 4)
    say("sample 1024 seeds fanout %d: %.3f ms; numpy sampler %.3f ms "
        "(%.2fx)" % (k, t * 1e3, base * 1e3, base / t))
comm.barrier()
wgth.destroy_wholememory_tensor(wr)
wgth.destroy_wholememory_tensor(wc)
wgth.finalize()
