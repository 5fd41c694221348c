# SPDX-License-Identifier: MIT
"""A training-script skeleton as WholeGraph's examples write one: its
options from pylibwholegraph.torch's add_*_options, started by
distributed_launch (--launch-agent mpi: zeshrun or mpirun; spawn:
torch.multiprocessing.spawn of --local-size processes; pytorch:
torchrun's variables). Each rank checks its world, the node
classification data loaders (a replica's share, all replicas' shares
disjoint, through a WholeMemory tensor), a GraphStructure's multi-layer
sample of a loader batch, a HomoGNNModel step, and prints "PE <rank>:
example ok"."""
import argparse

import numpy as np
import torch

import pylibwholegraph.torch as wgth

parser = argparse.ArgumentParser()
wgth.add_distributed_launch_options(parser)
wgth.add_training_options(parser)
wgth.add_common_graph_options(parser)
wgth.add_common_model_options(parser)
wgth.add_common_sampler_options(parser)
wgth.add_node_classfication_options(parser)
wgth.add_dataloader_options(parser)
args = parser.parse_args()

NODES, TRAIN, VALID, TEST = 400, 300, 50, 50


def data():
    r = np.random.default_rng(8)
    perm = r.permutation(NODES)
    labels = r.integers(0, args.classnum, NODES)
    d = {}
    for part, ids in (("train", perm[:TRAIN]),
                      ("valid", perm[TRAIN:TRAIN + VALID]),
                      ("test", perm[TRAIN + VALID:])):
        d[part + "_idx"] = ids
        d[part + "_label"] = labels[ids].astype(np.int32)
    return d, labels


def main_func():
    rank, size = wgth.get_rank(), wgth.get_world_size()
    lrank, lsize = wgth.get_local_rank(), wgth.get_local_size()
    assert 0 <= rank < size and 0 <= lrank < lsize, (rank, size)
    assert wgth.is_main_process() == (rank == 0)
    g, local = wgth.init_torch_env_and_create_wm_comm(
        rank, size, lrank, lsize, args.distributed_backend_type,
        args.log_level)
    assert (g.get_rank(), g.get_size()) == (rank, size)
    assert (local.get_rank(), local.get_size()) == (lrank, lsize)
    assert not wgth.is_rmm_enabled()

    d, labels = data()
    train, valid, test = wgth.create_node_claffication_datasets(d)
    assert (len(train), len(valid), len(test)) == (TRAIN, VALID, TEST)
    loader = wgth.get_train_dataloader(
        train, args.batchsize, replica_id=rank, num_replicas=size,
        num_workers=args.dataloaderworkers)
    seen = []
    for idx, label in loader:
        assert label.dtype == torch.int64
        assert np.array_equal(label.numpy(), labels[idx.numpy()])
        seen += idx.tolist()
    share = TRAIN // size
    assert len(seen) == share and len(set(seen)) == share, len(seen)
    # every replica's share apart: each marks its nodes in a table of all
    marks = wgth.create_wholememory_tensor(
        g, args.embedding_memory_type, "cpu", [NODES], torch.int32, None)
    loc, _ = marks.get_local_tensor()
    loc.zero_()
    g.barrier()
    marks.scatter(torch.full((share,), rank + 1, dtype=torch.int32),
                  torch.tensor(seen, dtype=torch.int64))
    g.barrier()
    got = marks.gather(torch.arange(NODES)).numpy()
    assert np.count_nonzero(got) == share * size, np.count_nonzero(got)
    assert set(np.flatnonzero(got).tolist()) <= set(d["train_idx"].tolist())
    g.barrier()
    wgth.destroy_wholememory_tensor(marks)
    order = [int(i) for b, _ in wgth.get_valid_test_dataloader(
        valid, args.batchsize) for i in b]
    assert order == d["valid_idx"].tolist()

    # a batch's sample through a GraphStructure, fanouts from -n
    fan = wgth.parse_max_neighbors(args.layernum, args.neighbors)
    assert len(fan) == args.layernum
    r = np.random.default_rng(9)
    deg = r.integers(1, 12, NODES)
    rowp = np.concatenate([[0], np.cumsum(deg)]).astype(np.int64)
    col = r.integers(0, NODES, int(rowp[-1])).astype(np.int64)
    gs = wgth.GraphStructure()
    wr = wgth.create_wholememory_tensor(g, args.embedding_memory_type, "cpu",
                                        [NODES + 1], torch.int64, None)
    wc = wgth.create_wholememory_tensor(g, args.embedding_memory_type, "cpu",
                                        [len(col)], torch.int64, None)
    for t, a in ((wr, rowp), (wc, col)):
        lt, start = t.get_local_tensor()
        lt.copy_(torch.from_numpy(a[start:start + lt.shape[0]]))
    g.barrier()
    gs.set_csr_graph(wr, wc)
    seeds = torch.tensor(seen[:args.batchsize], dtype=torch.int64)
    tg, ei, crp, cci = gs.multilayer_sample_without_replacement(seeds, fan)
    assert torch.equal(tg[-1], seeds)
    for i in range(len(fan)):
        tgt, src = tg[i + 1].numpy(), tg[i].numpy()
        offs = crp[i].numpy()
        for c in range(len(tgt)):
            nb = src[cci[i][offs[c]:offs[c + 1]].numpy()]
            row = col[rowp[tgt[c]]:rowp[tgt[c] + 1]]
            assert len(nb) == min(fan[len(fan) - 1 - i], len(row))
            assert set(nb.tolist()) <= set(row.tolist())
    # the model of the examples (-m, --hiddensize, -l, -n, -s, -c) over
    # node features in an embedding: a training step and an inference
    wgth.set_framework(args.framework)
    emb = wgth.create_embedding(g, args.embedding_memory_type, "cpu",
                                torch.float32, [NODES, args.feat_dim],
                                random_init=True)
    net = wgth.HomoGNNModel(gs, emb, args)
    opt = torch.optim.SGD(net.parameters(), lr=args.lr)
    for idx, label in loader:
        loss = torch.nn.functional.cross_entropy(net(idx), label)
        opt.zero_grad()
        loss.backward()
        opt.step()
        break
    net.eval()
    with torch.no_grad():
        assert net(seeds).shape == (len(seeds), args.classnum)
    g.barrier()
    wgth.destroy_embedding(emb)
    wgth.destroy_wholememory_tensor(wc)
    wgth.destroy_wholememory_tensor(wr)
    wgth.finalize()
    print("PE %d: example ok" % rank, flush=True)


if __name__ == "__main__":
    wgth.distributed_launch(args, main_func)
