# SPDX-License-Identifier: MIT
"""One rank of a pylibwholegraph.torch job (test_wholegraph_py.py starts
it under zeshrun): `wg_cases.py CASE [MEMORY_TYPE [LOCATION]]`, or
several cases in one job: `wg_cases.py CASE[:MEMORY_TYPE[:LOCATION]]+...`
(network-namespace nodes: wg_netns_pe.sh under tests/shmem/netns_job.sh).

Every rank computes the single-process numpy reference of what the job
does (the same seeds everywhere) and compares exactly; it prints
"PE <rank>: <argument> ok" at the end. Cases: comm, tensor, file,
embedding, group_embedding, round_robin, cache, sampling, graph, structure, gnn, train,
train_match, misuse. A job of several nodes (mpirun's
OMPI_COMM_WORLD_LOCAL_SIZE ranks a node) runs continuous and chunked
cases on each node's communicator, after checking that the job's
communicator refuses them (one_node_only).
"""
import ctypes
import os
import sys

import numpy as np
import torch

import pylibwholegraph.torch as wgth
import pylibwholegraph.binding.wholememory_binding as wmb

CASE = sys.argv[1]
MT = sys.argv[2] if len(sys.argv) > 2 else "continuous"
LOC = sys.argv[3] if len(sys.argv) > 3 else "cpu"
_, RANK, SIZE, LRANK, LSIZE = wgth.launcher()
# the job: NODES nodes of LSIZE consecutive ranks (one node under zeshrun)
WRANK, WSIZE, NODES = RANK, SIZE, SIZE // LSIZE
# memory types whose ranks must all be on one node (wm_pe multinode)
ONE_NODE = ("continuous", "chunked")
M64 = (1 << 64) - 1
_comm = None


def comm():
    """The communicator of the case: the job, or this node's ranks for a
    memory type of ONE_NODE when the job spans nodes (RANK and SIZE are
    then the rank in it and its size; see run)."""
    return _comm if _comm is not None else wgth.get_global_communicator()


def eq(a, b, what):
    a = a.numpy() if isinstance(a, torch.Tensor) else np.asarray(a)
    b = b.numpy() if isinstance(b, torch.Tensor) else np.asarray(b)
    assert a.shape == b.shape, "%s: shape %s != %s" % (what, a.shape,
                                                        b.shape)
    if not np.array_equal(a, b):
        bad = np.argwhere(a != b)[:5]
        raise AssertionError("%s: differs at %s: %s vs %s" % (
            what, bad.tolist(), a[tuple(bad.T)], b[tuple(bad.T)]))


def raises(exc, fn, *a, **k):
    try:
        fn(*a, **k)
    except exc as e:
        return e
    raise AssertionError("%s not raised by %s" % (exc.__name__, fn))


# ---- communicators --------------------------------------------------------

def case_comm():
    g = wgth.get_global_communicator()
    assert (g.get_rank(), g.get_size()) == (RANK, SIZE)
    assert wgth.get_global_communicator() is g
    ln = wgth.get_local_node_communicator()
    assert (ln.get_rank(), ln.get_size()) == (LRANK, LSIZE)
    ld = wgth.get_local_device_communicator()
    assert (ld.get_rank(), ld.get_size()) == (0, 1)
    mn = wgth.get_local_mnnvl_communicator()
    assert (mn.get_rank(), mn.get_size()) == (LRANK, LSIZE)
    assert g.get_local_size() == LSIZE
    # the clique is the node: (in clique, first rank, rank in it, its
    # size, node, nodes)
    node = RANK // LSIZE
    assert g.get_clique_info() == (1, node * LSIZE, LRANK, LSIZE, node,
                                   NODES), g.get_clique_info()
    for mt in ONE_NODE:
        for loc in ("cpu", "cuda"):
            assert g.support_type_location(mt, loc) == (NODES == 1)
            assert ln.support_type_location(mt, loc)
    for mt in ("distributed", "hierarchy"):
        for loc in ("cpu", "cuda"):
            assert g.support_type_location(mt, loc)
    raises(ValueError, g.support_type_location, "paged", "cpu")
    if SIZE % 2 == 0:
        # groups of 2 ranks, 1 apart: [0,1] [2,3]; 2 apart when 4: [0,2]
        c = wgth.create_group_communicator(2)
        assert (c.get_rank(), c.get_size()) == (RANK % 2, 2)
        if SIZE == 4:
            s = wgth.create_group_communicator(2, 2)
            assert (s.get_rank(), s.get_size()) == (RANK // 2, 2)
            s.barrier()
            wgth.destroy_communicator(s)
        c.barrier()
        wgth.destroy_communicator(c)
    raises(ValueError, wgth.create_group_communicator, SIZE + 1)
    # split: odd and even ranks, keyed in reverse; color < 0 is left out
    sp = wgth.split_communicator(g, RANK % 2, -RANK)
    n_same = len(range(RANK % 2, SIZE, 2))
    assert sp.get_size() == n_same
    assert sp.get_rank() == n_same - 1 - RANK // 2
    sp.barrier()
    wgth.destroy_communicator(sp)
    none = wgth.split_communicator(g, 0 if RANK == 0 else -1)
    assert (none is None) == (RANK != 0)
    if none is not None:
        assert none.get_size() == 1
        wgth.destroy_communicator(none)
    raises(TypeError, wgth.split_communicator, g, 1.5)
    g.barrier()


# ---- tensors --------------------------------------------------------------

def ref_table(rows, cols, dtype, seed):
    r = np.random.default_rng(seed)
    if np.issubdtype(dtype, np.floating):
        return r.standard_normal((rows, cols)).astype(dtype)
    return r.integers(-2**30, 2**30, (rows, cols)).astype(dtype)


def fill_local(wt, ref):
    local, start = wt.get_local_tensor()
    assert local.shape[0] == wt.get_entry_offsets()[RANK + 1] - start
    if local.numel():
        local.copy_(torch.from_numpy(ref[start:start + local.shape[0]]
                                     .reshape(local.shape)))
    return local, start


def all_mapped():
    """Whether this process maps every rank's part of an MT table of the
    communicator: not DISTRIBUTED (but a one-rank job), all on this node
    (one node, or the node's communicator)."""
    return SIZE == 1 or (MT != "distributed" and
                         (NODES == 1 or _comm is not None))


def case_tensor():
    g = comm()
    rows, cols = 1003, 7
    for dtype, tdt in ((np.float32, torch.float32),
                       (np.int64, torch.int64), (np.float64, torch.float64)):
        ref = ref_table(rows, cols, dtype, 5)
        wt = wgth.create_wholememory_tensor(g, MT, LOC, [rows, cols], tdt,
                                            None)
        assert wt.shape == (rows, cols) and wt.dtype == tdt
        assert wt.dim() == 2 and wt.stride() == (cols, 1)
        offs = wt.get_entry_offsets()
        assert offs[0] == 0 and offs[-1] == rows and len(offs) == SIZE + 1
        fill_local(wt, ref)
        g.barrier()
        rng = np.random.default_rng(100 + RANK)
        for idt in (torch.int64, torch.int32):
            idx = rng.integers(0, rows, 4096)
            out = wt.gather(torch.from_numpy(idx).to(idt))
            eq(out, ref[idx], "gather %s %s %s" % (MT, LOC, dtype))
        if dtype == np.float32:
            out = wt.gather(torch.from_numpy(idx), force_dtype=torch.float64)
            eq(out, ref[idx].astype(np.float64), "gather as float64")
            raises(wmb.WholeMemoryError, wt.gather, torch.from_numpy(idx),
                   force_dtype=torch.int32)
        # scatter: rank r writes rows i with i % SIZE == r (new values)
        g.barrier()
        new = ref_table(rows, cols, dtype, 6)
        mine = np.arange(RANK, rows, SIZE)
        wt.scatter(torch.from_numpy(new[mine]), torch.from_numpy(mine))
        g.barrier()
        allidx = np.arange(rows)[::-1].copy()
        eq(wt.gather(torch.from_numpy(allidx)), new[allidx],
           "scatter then gather")
        if MT == "continuous":
            glob, off = wt.get_global_tensor()
            assert off == 0
            eq(glob, new, "global view")
        else:
            raises(ValueError, wt.get_global_tensor)
        # every rank's rows as mapped here (all_mapped)
        if all_mapped():
            views, starts = wt.get_all_chunked_tensor()
            assert starts == offs[:-1], (starts, offs)
            eq(torch.cat(views), new, "all chunked views")
        else:
            raises(ValueError, wt.get_all_chunked_tensor)
        # a sub tensor: columns 2..5 of every row
        sub = wt.get_sub_tensor([-1, 2], [-1, 5])
        assert sub.shape == (rows, 3)
        eq(sub.gather(torch.from_numpy(allidx)), new[allidx, 2:5],
           "sub tensor gather")
        g.barrier()
        wgth.destroy_wholememory_tensor(wt)
    # 1-D, an uneven partition, and padded rows
    part = [(i + 1) * 10 for i in range(SIZE)]
    n = sum(part)
    v = wgth.create_wholememory_tensor(g, MT, LOC, [n], torch.int32, None,
                                       part)
    assert v.get_entry_offsets() == [sum(part[:i]) for i in range(SIZE + 1)]
    ref = np.arange(n, dtype=np.int32) * 3 - 7
    local, start = v.get_local_tensor()
    assert (start, local.shape[0]) == (sum(part[:RANK]), part[RANK])
    local.copy_(torch.from_numpy(ref[start:start + part[RANK]]))
    g.barrier()
    idx = np.random.default_rng(3).integers(0, n, 999)
    eq(v.gather(torch.from_numpy(idx)), ref[idx], "1-D gather")
    if all_mapped():
        # a write through another rank's view is the table's
        views, starts = v.get_all_chunked_tensor()
        eq(torch.cat(views), ref, "1-D chunked views")
        g.barrier()
        if RANK == 0:
            views[-1][0] = 12345
        g.barrier()
        eq(v.gather(torch.tensor([starts[-1]])), np.array([12345], np.int32),
           "written through a chunk view")
        del views
    g.barrier()
    wgth.destroy_wholememory_tensor(v)
    p = wgth.create_wholememory_tensor(g, MT, LOC, [50, 3], torch.float32,
                                       [4, 1])
    assert p.stride() == (4, 1)
    ref = ref_table(50, 3, np.float32, 9)
    fill_local(p, ref)
    g.barrier()
    eq(p.gather(torch.arange(50)), ref, "padded rows")
    g.barrier()
    wgth.destroy_wholememory_tensor(p)


def case_file():
    """create_wholememory_tensor_from_filelist and to_file_prefix."""
    g = comm()
    d = os.environ["WG_TMP"]
    rows, cols = 777, 5
    ref = ref_table(rows, cols, np.float32, 11)
    files = [os.path.join(d, "feat_%d.bin" % i) for i in range(3)]
    cuts = [0, 100, 500, rows]
    if RANK == 0:
        for i, f in enumerate(files):
            ref[cuts[i]:cuts[i + 1]].tofile(f)
    g.barrier()
    wt = wgth.create_wholememory_tensor_from_filelist(
        g, MT, LOC, files, torch.float32, cols)
    assert wt.shape == (rows, cols)
    eq(wt.gather(torch.arange(rows)), ref, "from_filelist")
    prefix = os.path.join(d, "out_%s_%s" % (MT, LOC))
    wt.to_file_prefix(prefix)
    g.barrier()
    parts = wgth.get_part_file_list(prefix, SIZE)
    back = np.concatenate([np.fromfile(f, dtype=np.float32)
                           for f in parts]).reshape(rows, cols)
    eq(back, ref, "to_file_prefix")
    emb = wgth.create_embedding_from_filelist(g, MT, LOC, files,
                                              torch.float32, cols)
    eq(emb.gather(torch.arange(rows)), ref, "embedding from filelist")
    raises(ValueError, wgth.create_wholememory_tensor_from_filelist, g, MT,
           LOC, files, torch.float32, 4)
    g.barrier()
    wgth.destroy_embedding(emb)
    wgth.destroy_wholememory_tensor(wt)


# ---- embeddings and optimizers --------------------------------------------

F = np.float32


def ref_step(kind, p, w, st, idx_by_rank, grad_by_rank, lr):
    """One optimizer step of the C API (embedding.h), in float32: the
    gradients of a row summed in rank order, then index order."""
    acc = {}
    for idx, gr in zip(idx_by_rank, grad_by_rank):
        for i, gv in zip(idx, gr):
            if i in acc:
                acc[i] = (acc[i] + gv).astype(F)
            else:
                acc[i] = (F(0) + gv).astype(F)
    lr = F(lr)
    wd = F(p.get("weight_decay", 0))
    eps = F(p.get("epsilon", 1e-8))
    for i, g in acc.items():
        x = w[i]
        if kind == "sgd":
            g = g + wd * x
            w[i] = x - lr * g
        elif kind == "adam":
            b1, b2 = F(p.get("beta1", 0.9)), F(p.get("beta2", 0.999))
            bt = st["beta12t"][i]
            bt[0] = bt[0] * b1
            bt[1] = bt[1] * b2
            g = g + wd * x
            m = st["m"][i] = b1 * st["m"][i] + (F(1) - b1) * g
            v = st["v"][i] = b2 * st["v"][i] + (F(1) - b2) * g * g
            mhat = m / (F(1) - bt[0])
            vhat = v / (F(1) - bt[1])
            w[i] = x - lr * mhat / (np.sqrt(vhat) + eps)
        elif kind == "adagrad":
            g = g + wd * x
            s = st["state_sum"][i] = st["state_sum"][i] + g * g
            w[i] = x - lr * g / (np.sqrt(s) + eps)
        elif kind == "rmsprop":
            a = F(p.get("alpha", 0.99))
            g = g + wd * x
            v = st["v"][i] = a * st["v"][i] + (F(1) - a) * g * g
            w[i] = x - lr * g / (np.sqrt(v) + eps)


STATES = {"sgd": {}, "adam": {"m": 0, "v": 0, "beta12t": 1},
          "adagrad": {"state_sum": 0}, "rmsprop": {"v": 0}}


def rank_draws(seed, rows, dim, n0, dn):
    """Every rank's (indices, gradient rows) of one step: rank q's are
    n0 + dn * q draws of default_rng(seed + q)."""
    idx_by, grad_by = [], []
    for q in range(SIZE):
        rg = np.random.default_rng(seed + q)
        idx_by.append(rg.integers(0, rows, n0 + dn * q))
        grad_by.append(rg.standard_normal((len(idx_by[-1]), dim)).astype(F))
    return idx_by, grad_by


def case_embedding():
    g = comm()
    rows, dim = 301, 6
    params = {"sgd": {"weight_decay": 0.01},
              "adam": {"weight_decay": 0.001, "beta1": 0.8},
              "adagrad": {"epsilon": 1e-6},
              "rmsprop": {"alpha": 0.9, "weight_decay": 0.002}}
    for kind, p in params.items():
        emb = wgth.create_embedding(g, MT, LOC, torch.float32, [rows, dim])
        assert emb.shape == (rows, dim)
        w = ref_table(rows, dim, F, 21)
        fill_local(emb.get_embedding_tensor(), w)
        g.barrier()
        opt = wgth.create_wholememory_optimizer(emb, kind, p)
        raises(ValueError, wgth.create_wholememory_optimizer, emb, "sgd",
               {})
        names = sorted(emb.get_optimizer_state_names())
        assert names == sorted(STATES[kind]), names
        st = {}
        for n, v0 in STATES[kind].items():
            cols = 2 if n == "beta12t" else dim
            st[n] = np.full((rows, cols), v0, dtype=F)
        mod = wgth.WholeMemoryEmbeddingModule(emb)
        mod.train()
        for step in range(4):
            idx_by, grad_by = rank_draws(1000 * step, rows, dim, 40, 7)
            ix = torch.from_numpy(idx_by[RANK])
            out = mod(ix)
            eq(out.detach(), w[idx_by[RANK]], "%s step %d forward" %
               (kind, step))
            (out * torch.from_numpy(grad_by[RANK])).sum().backward()
            opt.step(0.05)
            ref_step(kind, p, w, st, idx_by, grad_by, 0.05)
            eq(emb.get_embedding_tensor().gather(torch.arange(rows)), w,
               "%s %s %s weights after step %d" % (kind, MT, LOC, step))
            for n in st:
                eq(emb.get_optimizer_state(n).gather(torch.arange(rows)),
                   st[n], "%s state %s after step %d" % (kind, n, step))
        # eval mode: no gradient recorded, the step changes nothing
        mod.eval()
        out = mod(torch.arange(5))
        eq(out.detach(), w[:5], "eval forward")
        out.sum().backward()
        opt.step(0.05)
        eq(emb.get_embedding_tensor().gather(torch.arange(rows)), w,
           "eval step")
        g.barrier()
        wgth.destroy_wholememory_optimizer(opt)
        wgth.destroy_embedding(emb)
    raises(ValueError, wgth.create_wholememory_optimizer, [], "adamw", {})
    e = wgth.create_embedding(g, MT, LOC, torch.float32, [10, 4])
    raises(wmb.WholeMemoryError, wgth.create_wholememory_optimizer, e,
           "sgd", {"momentum": 0.9})
    g.barrier()
    wgth.destroy_embedding(e)


def rr_share(rows, r):
    """Rank 0's rows under round-robin blocks of r (every rank's)."""
    blk = r * SIZE
    return rows // blk * r + min(rows % blk, r)


def rr_store(ids, r, k):
    """The storage rows of rows ids (WholeGraph's layout)."""
    b = ids // r
    return b % SIZE * k + b // SIZE * r + ids % r


def case_group_embedding():
    """case_embedding on groups of 2 ranks (create_group_communicator):
    tables of part of the job, mapped on its node, the optimizer's
    gradient exchange included (an even number of ranks)."""
    global RANK, SIZE, _comm
    c = wgth.create_group_communicator(2)
    _comm, RANK, SIZE = c, c.get_rank(), c.get_size()
    try:
        case_embedding()
    finally:
        RANK, SIZE, _comm = WRANK, WSIZE, None
    c.barrier()
    wgth.destroy_communicator(c)


def case_round_robin():
    """round_robin_size: gathers and LazyAdam steps by row id against
    the reference, the tensor and a state in storage order, loading from
    files with the same block."""
    g = wgth.get_global_communicator()
    rows, dim = 301, 6
    d = os.environ["WG_TMP"]
    ref = ref_table(rows, dim, F, 41)
    fn = os.path.join(d, "rr_rows.bin")
    if RANK == 0:
        ref.tofile(fn)
    p = {"weight_decay": 0.001, "beta1": 0.8}
    for r in (1, 3, rows // SIZE + 7):
        k = rr_share(rows, r)
        emb = wgth.create_embedding(g, MT, LOC, torch.float32,
                                    [rows, dim], round_robin_size=r)
        assert emb.shape == (k * SIZE, dim), emb.shape
        store = rr_store(np.arange(rows), r, k)
        table = np.full((k * SIZE, dim), -1000, dtype=F)
        table[store] = ref
        local, start = fill_local(emb.get_embedding_tensor(), table)
        assert (start, local.shape[0]) == (k * RANK, k)
        g.barrier()
        w = ref.copy()
        st = {"m": np.zeros((rows, dim), F), "v": np.zeros((rows, dim), F),
              "beta12t": np.ones((rows, 2), F)}
        opt = wgth.create_wholememory_optimizer(emb, "adam", p)
        mod = wgth.WholeMemoryEmbeddingModule(emb)
        mod.train()
        for step in range(2):
            idx_by, grad_by = rank_draws(500 * step, rows, dim, 30, 5)
            out = mod(torch.from_numpy(idx_by[RANK]))
            eq(out.detach(), w[idx_by[RANK]], "rr %d step %d forward" %
               (r, step))
            (out * torch.from_numpy(grad_by[RANK])).sum().backward()
            opt.step(0.05)
            ref_step("adam", p, w, st, idx_by, grad_by, 0.05)
            eq(emb.gather(torch.arange(rows)), w,
               "rr %d %s %s weights after step %d" % (r, MT, LOC, step))
        eq(emb.get_embedding_tensor().gather(torch.from_numpy(store)), w,
           "rr %d storage rows" % r)
        eq(emb.get_optimizer_state("m").gather(torch.from_numpy(store)),
           st["m"], "rr %d state m in storage order" % r)
        g.barrier()
        wgth.destroy_wholememory_optimizer(opt)
        wgth.destroy_embedding(emb)
        # the files in the same layout
        g.barrier()
        emb = wgth.create_embedding_from_filelist(
            g, MT, LOC, [fn], torch.float32, dim, round_robin_size=r)
        eq(emb.gather(torch.arange(rows)), ref, "rr %d from filelist" % r)
        g.barrier()
        wgth.destroy_embedding(emb)
    # a partition wins over round_robin_size (rows in the file's order)
    part = [rows - 100 * (SIZE - 1)] + [100] * (SIZE - 1)
    emb = wgth.create_embedding_from_filelist(
        g, MT, LOC, [fn], torch.float32, dim,
        embedding_entry_partition=part, round_robin_size=3)
    assert emb.shape == (rows, dim)
    eq(emb.gather(torch.arange(rows)), ref, "partition and rr")
    g.barrier()
    wgth.destroy_embedding(emb)
    raises(wmb.WholeMemoryError, wgth.create_embedding, g, MT, LOC,
           torch.float32, [rows, dim], round_robin_size=-1)
    g.barrier()


def case_cache():
    """Cached reads equal uncached ones; a learnable cache's steps reach
    the table after writeback."""
    g = comm()
    rows, dim = 257, 8
    w = ref_table(rows, dim, F, 31)
    ro = wgth.create_builtin_cache_policy("local_device", MT, LOC,
                                          "readonly", 0.25)
    assert wgth.create_builtin_cache_policy("none", MT, LOC, "readonly",
                                            0.5) is None
    raises(ValueError, wgth.create_builtin_cache_policy, "l2", MT, LOC,
           "readonly", 0.5)
    emb = wgth.create_embedding(g, MT, LOC, torch.float32, [rows, dim],
                                cache_policy=ro)
    fill_local(emb.get_embedding_tensor(), w)
    g.barrier()
    for rep in range(3):
        idx = np.random.default_rng(rep + 10 * RANK).integers(0, rows, 300)
        eq(emb.gather(torch.from_numpy(idx)), w[idx], "readonly cache")
    emb.drop_all_cache()
    g.barrier()
    wgth.destroy_embedding(emb)
    wgth.destroy_wholememory_cache_policy(ro)
    rw = wgth.create_builtin_cache_policy("all_devices", MT, LOC,
                                          "readwrite", 0.5)
    emb = wgth.create_embedding(g, MT, LOC, torch.float32, [rows, dim],
                                cache_policy=rw)
    fill_local(emb.get_embedding_tensor(), w)
    g.barrier()
    opt = wgth.create_wholememory_optimizer(emb, "sgd", {})
    mod = wgth.WholeMemoryEmbeddingModule(emb)
    for step in range(3):
        idx_by, grad_by = [], []
        for r in range(SIZE):
            rr = np.random.default_rng(500 + 10 * step + r)
            idx_by.append(rr.integers(0, rows, 60))
            grad_by.append(rr.standard_normal((60, dim)).astype(F))
        out = mod(torch.from_numpy(idx_by[RANK]))
        eq(out.detach(), w[idx_by[RANK]], "readwrite cache forward")
        (out * torch.from_numpy(grad_by[RANK])).sum().backward()
        opt.step(0.1)
        ref_step("sgd", {}, w, {}, idx_by, grad_by, 0.1)
    eq(emb.gather(torch.arange(rows)), w, "through the cache")
    emb.writeback_all_cache()
    g.barrier()
    emb.set_adjust_cache(False)
    eq(emb.get_embedding_tensor().gather(torch.arange(rows)), w,
       "table after writeback")
    g.barrier()
    wgth.destroy_wholememory_optimizer(opt)
    wgth.destroy_embedding(emb)


# ---- sampling -------------------------------------------------------------

def mix(z):
    z ^= z >> 30
    z = (z * 0xbf58476d1ce4e5b9) & M64
    z ^= z >> 27
    z = (z * 0x94d049bb133111eb) & M64
    return z ^ (z >> 31)


class Stream:
    def __init__(self, seed, sub):
        self.s = mix((seed + mix(sub + 1)) & M64)

    def next(self):
        self.s = (self.s + 0x9e3779b97f4a7c15) & M64
        return mix(self.s)


_libm = ctypes.CDLL("libm.so.6")
_libm.logf.restype = ctypes.c_float
_libm.logf.argtypes = [ctypes.c_float]


def ref_sample(rowp, col, weight, centers, k, seed):
    """The sampler documented in wholegraph_op.h, in plain Python."""
    offs, dest, local, edges = [0], [], [], []
    for i, c in enumerate(centers):
        a0, a1 = int(rowp[c]), int(rowp[c + 1])
        d = a1 - a0
        if d <= k:
            pick = list(range(d))
        elif weight is None:
            s = Stream(seed, i)
            a = list(range(d))
            for j in range(k):
                t = j + (s.next() >> 1) % (d - j)
                a[j], a[t] = a[t], a[j]
            pick = sorted(a[:k])
        else:
            s = Stream(seed, i)
            keys = []
            for e in range(d):
                u = np.float32((s.next() >> 40) + 0.5) * np.float32(2**-24)
                lu = np.float32(_libm.logf(float(u)))
                wv = np.float32(weight[a0 + e])
                keys.append(np.float32(lu / wv) if wv > 0 else -np.inf)
            order = sorted(range(d), key=lambda e: (-keys[e], e))
            pick = sorted(order[:k])
        for e in pick:
            dest.append(col[a0 + e])
            local.append(i)
            edges.append(a0 + e)
        offs.append(len(dest))
    return offs, dest, local, edges


def make_graph(nodes, seed):
    r = np.random.default_rng(seed)
    deg = r.integers(0, 40, nodes)
    deg[::17] = 0
    rowp = np.concatenate([[0], np.cumsum(deg)]).astype(np.int64)
    col = r.integers(0, nodes, int(rowp[-1])).astype(np.int32)
    weight = r.random(int(rowp[-1])).astype(np.float32) + 0.01
    weight[::13] = 0
    return rowp, col, weight


def wm_vector(g, arr, tdt):
    t = wgth.create_wholememory_tensor(g, MT, LOC, [len(arr)], tdt, None)
    local, start = t.get_local_tensor()
    if local.numel():
        local.copy_(torch.from_numpy(arr[start:start + local.shape[0]]))
    g.barrier()
    return t


def case_sampling():
    g = comm()
    nodes = 500
    rowp, col, weight = make_graph(nodes, 41)
    wr = wm_vector(g, rowp, torch.int64)
    wc = wm_vector(g, col, torch.int32)
    ww = wm_vector(g, weight, torch.float32)
    centers = np.random.default_rng(50 + RANK).integers(0, nodes, 200)
    for k in (1, 10, 25):
        for weighted in (False, True):
            seed = 12345 + k
            if weighted:
                res = wgth.weighted_sample_without_replacement(
                    wr, wc, ww, torch.from_numpy(centers), k, seed, True,
                    True)
            else:
                res = wgth.unweighted_sample_without_replacement(
                    wr, wc, torch.from_numpy(centers), k, seed, True, True)
            offs, dest, local, edges = res
            r = ref_sample(rowp, col, weight if weighted else None,
                           centers, k, seed)
            what = "%s k=%d" % ("weighted" if weighted else "unweighted", k)
            eq(offs, np.array(r[0], np.int32), what + " offsets")
            eq(dest, np.array(r[1], np.int32), what + " dest")
            eq(local, np.array(r[2], np.int32), what + " center local id")
            eq(edges, np.array(r[3], np.int64), what + " edge gid")
    o2 = wgth.unweighted_sample_without_replacement(
        wr, wc, torch.from_numpy(centers), 10, 7)
    assert len(o2) == 2
    o3 = wgth.unweighted_sample_without_replacement(
        wr, wc, torch.from_numpy(centers), 10, 7)
    eq(o2[1], o3[1], "same seed, same sample")
    e = raises(wmb.WholeMemoryError, wgth.unweighted_sample_without_replacement,
               wr, wc, torch.tensor([nodes], dtype=torch.int64), 5, 1)
    assert e.code == wmb.WholeMemoryErrorCode.InvalidValue, e
    raises(ValueError, wgth.unweighted_sample_without_replacement, wr, wc,
           torch.tensor([1.0]), 5, 1)
    raises(ValueError, wgth.unweighted_sample_without_replacement, wr, wc,
           torch.tensor([1]), 0, 1)
    # the weighted draws follow the weights: one row of 4 edges, 2 picks,
    # 4000 seeds; first-pick probabilities and the pair frequencies
    # against Efraimidis-Spirakis' exact ones (chi-square, 5 dof)
    lg = wgth.get_local_device_communicator()  # collective
    if RANK == 0:
        wts = np.array([1, 2, 3, 4], np.float64)
        pairs = {}
        cnt = np.zeros(6)
        keys = [(a, b) for a in range(4) for b in range(a + 1, 4)]
        for a, b in keys:
            pa = wts[a] / wts.sum() * wts[b] / (wts.sum() - wts[a])
            pb = wts[b] / wts.sum() * wts[a] / (wts.sum() - wts[b])
            pairs[(a, b)] = pa + pb
        t_r = wgth.create_wholememory_tensor(lg, "continuous", "cpu", [2],
                                             torch.int64, None)
        t_c = wgth.create_wholememory_tensor(lg, "continuous", "cpu", [4],
                                             torch.int64, None)
        t_w = wgth.create_wholememory_tensor(lg, "continuous", "cpu", [4],
                                             torch.float32, None)
        t_r.get_global_tensor()[0].copy_(torch.tensor([0, 4]))
        t_c.get_global_tensor()[0].copy_(torch.arange(4))
        t_w.get_global_tensor()[0].copy_(torch.from_numpy(wts.astype(F)))
        n = 4000
        _, dest = wgth.weighted_sample_without_replacement(
            t_r, t_c, t_w, torch.zeros(n, dtype=torch.int64), 2, 99)
        dest = dest.numpy().reshape(n, 2)
        for a, b in dest:
            cnt[keys.index((int(a), int(b)))] += 1
        exp = np.array([pairs[k] for k in keys]) * n
        chi2 = float(((cnt - exp) ** 2 / exp).sum())
        # 5 dof: P(chi2 > 20.5) = 0.001
        assert chi2 < 20.5, (chi2, cnt, exp)
        for t in (t_r, t_c, t_w):
            wgth.destroy_wholememory_tensor(t)
    g.barrier()
    for t in (wr, wc, ww):
        wgth.destroy_wholememory_tensor(t)


def case_graph():
    from pylibwholegraph.torch import graph_ops
    t = torch.tensor([5, 3, 9], dtype=torch.int64)
    nb = torch.tensor([3, 7, 5, 7, 1, 9, 2], dtype=torch.int64)
    u, m = graph_ops.append_unique(t, nb, True)
    eq(u, np.array([5, 3, 9, 7, 1, 2]), "append_unique")
    eq(m, np.array([1, 3, 0, 3, 4, 2, 5], np.int32), "raw to unique")
    r, c = graph_ops.add_csr_self_loop(torch.tensor([0, 2, 2, 3]),
                                       torch.tensor([1, 2, 0]))
    eq(r, np.array([0, 3, 4, 6]), "self loop rows")
    eq(c, np.array([0, 1, 2, 1, 2, 0]), "self loop cols")
    from pylibwholegraph.torch import wholegraph_ops as wo
    v = wo.generate_random_positive_int_cpu(7, 3, 5)
    s = Stream(7, 3)
    eq(v, np.array([s.next() >> 33 for _ in range(5)], np.int32),
       "random positive int")


# ---- a GraphSAGE-style loop -----------------------------------------------

def case_train():
    """Node embeddings (learnable, adam) on a synthetic graph whose labels
    are a function of the neighbourhood; each step samples neighbours,
    gathers embeddings, a mean aggregator and a linear layer, backward
    into the embedding. The loss falls."""
    torch.manual_seed(0)
    g = comm()
    nodes, dim, classes = 400, 16, 4
    rowp, col, _ = make_graph(nodes, 61)
    labels = torch.from_numpy(np.random.default_rng(62).integers(
        0, classes, nodes))
    wr = wm_vector(g, rowp, torch.int64)
    wc = wm_vector(g, col, torch.int32)
    emb = wgth.create_embedding(g, MT, LOC, torch.float32, [nodes, dim],
                                random_init=True)
    opt = wgth.create_wholememory_optimizer(emb, "adam", {})
    mod = wgth.WholeMemoryEmbeddingModule(emb)
    lin = torch.nn.Linear(2 * dim, classes)
    dense = torch.optim.SGD(lin.parameters(), lr=0.1)
    losses = []
    for step in range(60):
        seeds = torch.from_numpy(np.random.default_rng(
            step * 100 + RANK).integers(0, nodes, 64))
        offs, dest, local = wgth.unweighted_sample_without_replacement(
            wr, wc, seeds, 10, step, True)
        h_self = mod(seeds)
        h_nb = mod(dest.to(torch.int64))
        agg = torch.zeros(len(seeds), dim).index_add_(
            0, local.to(torch.int64), h_nb)
        deg = (offs[1:] - offs[:-1]).clamp(min=1).to(torch.float32)
        h = torch.cat([h_self, agg / deg[:, None]], 1)
        loss = torch.nn.functional.cross_entropy(lin(h), labels[seeds])
        dense.zero_grad()
        loss.backward()
        dense.step()
        opt.step(0.05)
        losses.append(loss.item())
    first, last = np.mean(losses[:10]), np.mean(losses[-10:])
    assert last < 0.7 * first, (first, last)
    g.barrier()
    wgth.destroy_wholememory_optimizer(opt)
    wgth.destroy_embedding(emb)
    for t in (wr, wc):
        wgth.destroy_wholememory_tensor(t)


def case_train_match():
    """Data-parallel training of the job equals the single-process run:
    every step's global batch of 48 seeds is sampled whole (the same
    seed on every rank) and rank r trains its slice; the embedding's
    gradients meet in gather_gradient_apply (sgd), the linear layer's
    are summed through a WholeMemory tensor. A plain-torch run of the
    whole batch in this process is the reference (float sums in another
    order: within 1e-5)."""
    g = comm()
    nodes, dim, classes, batch, lr = 300, 8, 3, 48, 0.5
    rowp, col, _ = make_graph(nodes, 71)
    labels = torch.from_numpy(np.random.default_rng(72).integers(
        0, classes, nodes))
    w0 = ref_table(nodes, dim, F, 73)
    wr = wm_vector(g, rowp, torch.int64)
    wc = wm_vector(g, col, torch.int32)
    emb = wgth.create_embedding(g, MT, LOC, torch.float32, [nodes, dim])
    fill_local(emb.get_embedding_tensor(), w0)
    g.barrier()
    opt = wgth.create_wholememory_optimizer(emb, "sgd", {})
    mod = wgth.WholeMemoryEmbeddingModule(emb)
    torch.manual_seed(0)
    lin = torch.nn.Linear(2 * dim, classes)
    ref_lin = torch.nn.Linear(2 * dim, classes)
    ref_lin.load_state_dict(lin.state_dict())
    ref_w = torch.from_numpy(w0.copy()).requires_grad_(True)
    nparam = sum(p.numel() for p in lin.parameters()) + 1
    rt = "continuous" if g.support_type_location("continuous", "cpu") \
        else "distributed"
    red = wgth.create_wholememory_tensor(g, rt, "cpu",
                                         [SIZE, nparam], torch.float32,
                                         None)
    lo, hi = RANK * batch // SIZE, (RANK + 1) * batch // SIZE

    def forward(table_fn, seeds, offs, dest, local):
        h_self = table_fn(seeds)
        h_nb = table_fn(dest.to(torch.int64))
        agg = torch.zeros(len(seeds), dim).index_add_(
            0, local.to(torch.int64), h_nb)
        deg = (offs[1:] - offs[:-1]).clamp(min=1).to(torch.float32)
        return torch.cat([h_self, agg / deg[:, None]], 1)

    losses, ref_losses = [], []
    for step in range(15):
        seeds = torch.from_numpy(np.random.default_rng(
            700 + step).integers(0, nodes, batch))
        offs, dest, local = wgth.unweighted_sample_without_replacement(
            wr, wc, seeds, 5, step, True)
        # the reference: the whole batch
        h = forward(lambda i: ref_w[i], seeds, offs, dest, local)
        rl = torch.nn.functional.cross_entropy(
            ref_lin(h), labels[seeds], reduction="sum") / batch
        ref_lin.zero_grad()
        ref_w.grad = None
        rl.backward()
        with torch.no_grad():
            ref_w -= lr * ref_w.grad
            for p in ref_lin.parameters():
                p -= lr * p.grad
        ref_losses.append(rl.item())
        # this rank's slice
        a, b = int(offs[lo]), int(offs[hi])
        h = forward(mod, seeds[lo:hi], offs[lo:hi + 1] - offs[lo],
                    dest[a:b], local[a:b] - lo)
        loss = torch.nn.functional.cross_entropy(
            lin(h), labels[seeds[lo:hi]], reduction="sum") / batch
        lin.zero_grad()
        loss.backward()
        flat = torch.cat([p.grad.reshape(-1) for p in lin.parameters()] +
                         [loss.detach().reshape(1)])
        red.scatter(flat[None, :].contiguous(), torch.tensor([RANK]))
        g.barrier()
        total = red.gather(torch.arange(SIZE)).sum(0)
        g.barrier()
        with torch.no_grad():
            k = 0
            for p in lin.parameters():
                p -= lr * total[k:k + p.numel()].view_as(p)
                k += p.numel()
        losses.append(total[-1].item())
        opt.step(lr)
    assert np.mean(losses[-5:]) < np.mean(losses[:5]), losses
    np.testing.assert_allclose(losses, ref_losses, rtol=1e-5, atol=1e-6)
    final = emb.get_embedding_tensor().gather(torch.arange(nodes))
    np.testing.assert_allclose(final.numpy(), ref_w.detach().numpy(),
                               rtol=1e-5, atol=1e-6)
    for p, q in zip(lin.parameters(), ref_lin.parameters()):
        np.testing.assert_allclose(p.detach().numpy(), q.detach().numpy(),
                                   rtol=1e-5, atol=1e-6)
    g.barrier()
    wgth.destroy_wholememory_optimizer(opt)
    wgth.destroy_embedding(emb)
    for t in (wr, wc, red):
        wgth.destroy_wholememory_tensor(t)


def case_misuse():
    g = comm()
    raises(ValueError, wgth.create_wholememory_tensor, g, "paged", LOC,
           [4, 4], torch.float32, None)
    raises(ValueError, wgth.create_wholememory_tensor, g, MT, "gpu",
           [4, 4], torch.float32, None)
    raises(ValueError, wgth.create_wholememory_tensor, g, MT, LOC,
           [4, 4, 4], torch.float32, None)
    raises(ValueError, wgth.create_wholememory_tensor, g, MT, LOC,
           [4, 4], torch.complex64, None)
    raises(ValueError, wgth.create_wholememory_tensor, g, MT, LOC,
           [4, 4], torch.float32, [3, 1])
    wt = wgth.create_wholememory_tensor(g, MT, LOC, [10, 4], torch.float32,
                                        None)
    e = raises(wmb.WholeMemoryError, wt.gather, torch.tensor([0, 10]))
    assert e.code == wmb.WholeMemoryErrorCode.InvalidValue
    raises(ValueError, wt.gather, torch.tensor([[0]]))
    raises(ValueError, wt.gather, torch.tensor([0.5]))
    raises(ValueError, wt.scatter, torch.zeros(2, 3), torch.tensor([0, 1]))
    raises(ValueError, wt.scatter, torch.zeros(3, 4), torch.tensor([0, 1]))
    e = raises(wmb.WholeMemoryError, wt.scatter, torch.zeros(1, 4),
               torch.tensor([-1]))
    assert e.code == wmb.WholeMemoryErrorCode.InvalidValue
    raises(wmb.WholeMemoryError, wgth.create_wholememory_tensor, g, MT,
           LOC, [10, 4], torch.float32, None, [1] * SIZE)
    raises(ValueError, wgth.create_wholememory_tensor, g, MT, LOC, [10, 4],
           torch.float32, None, [10] * (SIZE + 1))
    raises(ValueError, wgth.create_embedding, g, MT, LOC, torch.float32,
           [10])
    raises(ValueError, wmb.PyWholeMemoryUniqueID, b"short")
    g.barrier()
    wgth.destroy_wholememory_tensor(wt)
    raises(ValueError, wt.gather, torch.tensor([0]))
    raises(ValueError, wgth.destroy_wholememory_tensor, wt)


def case_structure():
    """GraphStructure: one hop as the sampler itself, the multi-layer
    sample's layers against the graph, the attributes' checks."""
    g = wgth.get_global_communicator()
    nodes = 300
    rowp, col, weight = make_graph(nodes, 43)
    gs = wgth.GraphStructure()
    raises(ValueError, gs.unweighted_sample_without_replacement_one_hop,
           torch.tensor([0]), 3)
    wr = wm_vector(g, rowp, torch.int64)
    wc = wm_vector(g, col, torch.int32)
    ww = wm_vector(g, weight, torch.float32)
    raises(ValueError, gs.set_csr_graph, wc, wc)
    gs.set_csr_graph(wr, wc)
    assert (gs.node_count, gs.edge_count) == (nodes, len(col))
    gs.set_edge_attribute("w", ww)
    raises(ValueError, gs.set_edge_attribute, "w", ww)
    raises(ValueError, gs.set_node_attribute, "x", ww)
    centers = np.random.default_rng(60 + RANK).integers(0, nodes, 64)
    tc = torch.from_numpy(centers)
    for weighted in (False, True):
        if weighted:
            res = gs.weighted_sample_without_replacement_one_hop(
                "w", tc, 7, random_seed=99, need_center_local_output=True,
                need_edge_output=True)
        else:
            res = gs.unweighted_sample_without_replacement_one_hop(
                tc, 7, random_seed=99, need_center_local_output=True,
                need_edge_output=True)
        r = ref_sample(rowp, col, weight if weighted else None, centers, 7,
                       99)
        for got, want, dt, what in zip(res, r, (np.int32, np.int32,
                                                np.int32, np.int64),
                                       ("offsets", "dest", "local",
                                        "edges")):
            eq(got, np.array(want, dt), "one hop %s" % what)
    raises(ValueError, gs.weighted_sample_without_replacement_one_hop,
           "nope", tc, 3)
    fan = [5, 3]
    for wname in (None, "w"):
        tg, ei, crp, cci = gs.multilayer_sample_without_replacement(
            tc, fan, wname)
        assert len(tg) == 3 and len(ei) == len(crp) == len(cci) == 2
        eq(tg[2], centers, "seeds")
        for i in (1, 0):
            tgt, src = tg[i + 1].numpy(), tg[i].numpy()
            k = fan[1 - i]
            # the unique nodes: the targets first, then no repeats
            eq(src[:len(tgt)], tgt, "layer %d starts with its targets" % i)
            assert len(np.unique(src[len(tgt):])) == len(src) - len(tgt)
            offs, to_u = crp[i].numpy(), cci[i].numpy()
            assert len(offs) == len(tgt) + 1 and offs[0] == 0
            eq(ei[i][0], to_u, "edge sources are the csr columns")
            for c in range(len(tgt)):
                a, b = int(offs[c]), int(offs[c + 1])
                nb = src[to_u[a:b]]
                row = col[rowp[tgt[c]]:rowp[tgt[c] + 1]]
                assert b - a == min(k, len(row)), (i, c, b - a)
                assert set(nb.tolist()) <= set(row.tolist()), (i, c)
                eq(ei[i][1][a:b], np.full(b - a, c, np.int32),
                   "edge centers of %d" % c)
    raises(ValueError, gs.multilayer_sample_without_replacement, tc, [])
    for t in (ww, wc, wr):
        wgth.destroy_wholememory_tensor(t)


def ref_layer(layer, rowp, col, x, xt):
    """A gnn_model layer's output, one target at a time."""
    out = []
    for c in range(xt.shape[0]):
        nb = x[col[rowp[c]:rowp[c + 1]].long()]
        if isinstance(layer, wgth.gnn_model.SAGEConv):
            if layer.aggregator == "gcn":
                v = layer.lin((nb.sum(0) + xt[c]) / (nb.shape[0] + 1))
            else:
                m = nb.mean(0) if nb.shape[0] else torch.zeros(x.shape[1])
                v = layer.lin(m) + layer.lin_self(xt[c])
        else:
            h, o = layer.heads, layer.out
            hn = layer.lin(nb).view(-1, h, o)
            ht = layer.lin(xt[c]).view(h, o)
            e = torch.nn.functional.leaky_relu(
                (hn * layer.att_src).sum(-1) + (ht * layer.att_dst).sum(-1),
                0.2)
            a = torch.softmax(e, 0) if nb.shape[0] else e
            v = (hn * a.unsqueeze(-1)).sum(0)
            v = v.mean(0) if layer.mean_output else v.reshape(-1)
            v = v + layer.bias
        out.append(v)
    return torch.stack(out)


def case_gnn():
    """gnn_model: each "wg" layer against a target-by-target reference;
    HomoGNNModel (sage, gcn, gat) trained on a synthetic graph of three
    communities: the loss falls; eval mode samples with the inference
    fanout."""
    import argparse
    torch.manual_seed(1)
    wgth.set_framework("wg")
    raises(ValueError, wgth.set_framework, "pyg")
    raises(ValueError, wgth.create_gnn_layers, 4, 8, 2, 2, 1, "mlp")
    r = np.random.default_rng(70)
    deg = r.integers(0, 5, 12)
    rowp = torch.from_numpy(np.concatenate([[0], np.cumsum(deg)]))
    col = torch.from_numpy(r.integers(0, 30, int(rowp[-1])).astype(np.int32))
    x = torch.randn(30, 6)
    xt = x[:12]
    for layer in (wgth.gnn_model.SAGEConv(6, 5),
                  wgth.gnn_model.SAGEConv(6, 5, aggregator="gcn"),
                  wgth.gnn_model.GATConv(6, 3, num_heads=2),
                  wgth.gnn_model.GATConv(6, 3, num_heads=2,
                                         mean_output=True)):
        got = wgth.layer_forward(layer, x, xt, [rowp, col])
        want = ref_layer(layer, rowp, col, x, xt)
        assert got.shape == want.shape, (got.shape, want.shape)
        assert torch.allclose(got, want, atol=1e-5), (layer, got - want)
    raises(ValueError, wgth.gnn_model.SAGEConv(6, 5), rowp[:5], col, x, xt)

    g = wgth.get_global_communicator()
    # communities: a node's class is v % 3, its features the class's
    # centre plus noise, 9 in 10 of its edges inside its class
    nodes, dim, classes = 402, 8, 3
    r = np.random.default_rng(71)
    cls = np.arange(nodes) % classes
    centre = r.standard_normal((classes, dim)) * 1.5
    feats = (centre[cls] + r.standard_normal((nodes, dim))).astype(
        np.float32)
    deg = r.integers(1, 12, nodes)
    rowp = np.concatenate([[0], np.cumsum(deg)]).astype(np.int64)
    col = np.empty(int(rowp[-1]), np.int32)
    for v in range(nodes):
        k = int(deg[v])
        same = r.integers(0, nodes // classes, k) * classes + cls[v]
        col[rowp[v]:rowp[v + 1]] = np.where(r.random(k) < 0.9, same,
                                             r.integers(0, nodes, k))
    labels = torch.from_numpy(cls)
    gs = wgth.GraphStructure()
    gs.set_csr_graph(wm_vector(g, rowp, torch.int64),
                     wm_vector(g, col, torch.int32))
    emb = wgth.create_embedding(g, MT, LOC, torch.float32, [nodes, dim])
    local, start = emb.get_embedding_tensor().get_local_tensor()
    if local.numel():
        local.copy_(torch.from_numpy(feats[start:start + local.shape[0]]))
    g.barrier()
    for model in ("sage", "gcn", "gat"):
        args = argparse.Namespace(hiddensize=16, layernum=2, heads=2,
                                  model=model, classnum=classes, dropout=0.1,
                                  neighbors="3,2", inferencesample="2")
        net = wgth.HomoGNNModel(gs, emb, args)
        opt = torch.optim.Adam(net.parameters(), lr=0.02)
        losses = []
        for step in range(40):
            seeds = torch.from_numpy(np.random.default_rng(
                step * 10 + RANK).integers(0, nodes, 64))
            loss = torch.nn.functional.cross_entropy(net(seeds),
                                                     labels[seeds])
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        first, last = np.mean(losses[:10]), np.mean(losses[-10:])
        assert last < 0.6 * first, (model, first, last)
        net.eval()
        with torch.no_grad():
            out = net(torch.arange(20))
        assert out.shape == (20, classes), out.shape
    g.barrier()
    wgth.destroy_embedding(emb)
    for t in (gs.csr_row_ptr, gs.csr_col_ind):
        wgth.destroy_wholememory_tensor(t)


CASES = {n[5:]: f for n, f in globals().items() if n.startswith("case_")}


def one_node_only(mt, loc):
    """mt needs one node: on the job's communicator (several nodes) it
    is not supported and making memory of it fails with NotSupported,
    as in wm_pe multinode; this node's communicator has it."""
    g = wgth.get_global_communicator()
    assert not g.support_type_location(mt, loc)
    e = raises(wmb.WholeMemoryError, wgth.create_wholememory_tensor, g,
               mt, loc, [64, 4], torch.float32, None)
    assert e.code == wmb.WholeMemoryErrorCode.NotSupported, e
    e = raises(wmb.WholeMemoryError, wgth.create_embedding, g, mt, loc,
               torch.float32, [64, 4])
    assert e.code == wmb.WholeMemoryErrorCode.NotSupported, e
    g.barrier()
    return wgth.get_local_node_communicator()


def run(spec):
    """One case: CASE[:MEMORY_TYPE[:LOCATION]]. A job of several nodes
    runs a case of a ONE_NODE type on each node's communicator, after
    one_node_only."""
    global CASE, MT, LOC, RANK, SIZE, _comm
    parts = spec.split(":")
    CASE = parts[0]
    MT = parts[1] if len(parts) > 1 else "continuous"
    LOC = parts[2] if len(parts) > 2 else "cpu"
    _comm = None
    if NODES > 1 and len(parts) > 1 and MT in ONE_NODE:
        _comm = one_node_only(MT, LOC)
        RANK, SIZE = _comm.get_rank(), _comm.get_size()
    try:
        CASES[CASE]()
    finally:
        RANK, SIZE, _comm = WRANK, WSIZE, None


if __name__ == "__main__":
    wgth.init_torch_env(RANK, SIZE, LRANK, LSIZE, "warn")
    if "+" in CASE or ":" in CASE:
        # several cases in one job (netns jobs: one start for all):
        # CASE[:MEMORY_TYPE[:LOCATION]] joined by "+"
        for spec in CASE.split("+"):
            run(spec)
    else:
        run(":".join(sys.argv[1:4]))
    wgth.finalize()
    print("PE %d: %s ok" % (WRANK, sys.argv[1]), flush=True)
