# SPDX-License-Identifier: MIT
"""WholeGraph's homogeneous GNN model (HomoGNNModel) and its helpers.

Framework "wg" is this package's own: SAGE (mean), GCN and GAT layers in
plain torch over the sampled CSR sub-graphs of
GraphStructure.multilayer_sample_without_replacement, so a model runs on
CPU torch with no extension. Framework "pyg" uses PyTorch Geometric's
layers as WholeGraph does, where torch_geometric and torch_sparse are
installed. Each layer maps (csr_row_ptr, csr_col_ind, x, x_target) to
one row per target: row c aggregates x[csr_col_ind[csr_row_ptr[c]:
csr_row_ptr[c + 1]]] and x_target[c]."""

import warnings

import torch
import torch.nn.functional as F

from .common_options import parse_max_neighbors
from .embedding import WholeMemoryEmbedding, WholeMemoryEmbeddingModule
from .graph_structure import GraphStructure

framework_name = None
_pyg = {}


def set_framework(framework: str):
    """"wg" (this package's layers) or "pyg" (PyTorch Geometric's);
    once per process."""
    global framework_name
    if framework_name is not None and framework_name != framework:
        raise ValueError("the framework is %r already" % framework_name)
    if framework == "pyg":
        try:
            from torch_sparse import SparseTensor
            from torch_geometric.nn import SAGEConv, GATConv
        except ImportError as e:
            raise ImportError("framework 'pyg' needs torch_geometric and "
                              "torch_sparse (%s); framework 'wg' needs "
                              "nothing" % e) from None
        _pyg.update(SparseTensor=SparseTensor, SAGEConv=SAGEConv,
                    GATConv=GATConv)
    elif framework != "wg":
        raise ValueError("framework %r: 'wg' or 'pyg'" % (framework,))
    framework_name = framework


def _edges(csr_row_ptr, csr_col_ind, targets):
    """(destination of each edge, source of each edge, in-degrees)."""
    rp = csr_row_ptr.long()
    deg = rp[1:] - rp[:-1]
    if deg.numel() != targets:
        raise ValueError("%d row pointers for %d targets" %
                         (rp.numel(), targets))
    dst = torch.repeat_interleave(torch.arange(targets), deg)
    return dst, csr_col_ind.long(), deg


class SAGEConv(torch.nn.Module):
    """GraphSAGE: W_self x_target + W_neigh mean(neighbours) + b
    (aggregator "mean"), or W mean(neighbours and the target itself) + b
    (aggregator "gcn")."""

    def __init__(self, in_feat_dim, out_feat_dim, aggregator="mean"):
        super().__init__()
        if aggregator not in ("mean", "gcn"):
            raise ValueError("aggregator %r: 'mean' or 'gcn'" %
                             (aggregator,))
        self.aggregator = aggregator
        self.lin = torch.nn.Linear(in_feat_dim, out_feat_dim)
        self.lin_self = (torch.nn.Linear(in_feat_dim, out_feat_dim,
                                         bias=False)
                         if aggregator == "mean" else None)

    def forward(self, csr_row_ptr, csr_col_ind, x, x_target):
        n = x_target.shape[0]
        dst, src, deg = _edges(csr_row_ptr, csr_col_ind, n)
        total = torch.zeros(n, x.shape[1], dtype=x.dtype).index_add_(
            0, dst, x[src])
        if self.aggregator == "gcn":
            return self.lin((total + x_target) /
                            (deg + 1).unsqueeze(1).to(x.dtype))
        mean = total / deg.clamp(min=1).unsqueeze(1).to(x.dtype)
        return self.lin(mean) + self.lin_self(x_target)


class GATConv(torch.nn.Module):
    """Graph attention with num_heads heads over each target's
    neighbours: softmax over the edges of leaky_relu(a_src . W x_src +
    a_dst . W x_target, 0.2); the heads concatenated, or averaged
    (mean_output)."""

    def __init__(self, in_feat_dim, out_feat_dim, num_heads=1,
                 mean_output=False):
        super().__init__()
        self.heads, self.out = num_heads, out_feat_dim
        self.mean_output = mean_output
        self.lin = torch.nn.Linear(in_feat_dim, num_heads * out_feat_dim,
                                   bias=False)
        self.att_src = torch.nn.Parameter(torch.empty(num_heads,
                                                      out_feat_dim))
        self.att_dst = torch.nn.Parameter(torch.empty(num_heads,
                                                      out_feat_dim))
        self.bias = torch.nn.Parameter(torch.zeros(
            out_feat_dim if mean_output else num_heads * out_feat_dim))
        torch.nn.init.xavier_uniform_(self.att_src)
        torch.nn.init.xavier_uniform_(self.att_dst)

    def forward(self, csr_row_ptr, csr_col_ind, x, x_target):
        n, h, o = x_target.shape[0], self.heads, self.out
        dst, src, _ = _edges(csr_row_ptr, csr_col_ind, n)
        hx = self.lin(x).view(-1, h, o)
        ht = self.lin(x_target).view(-1, h, o)
        logit = F.leaky_relu((hx[src] * self.att_src).sum(-1) +
                             (ht[dst] * self.att_dst).sum(-1), 0.2)
        # each target's largest logit, for a softmax that cannot overflow
        top = torch.full((n, h), float("-inf"), dtype=logit.dtype)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*scatter_reduce")
            top = top.scatter_reduce(0, dst.unsqueeze(1).expand(-1, h),
                                     logit, "amax", include_self=True)
        w = torch.exp(logit - top[dst])
        norm = torch.zeros(n, h, dtype=w.dtype).index_add_(0, dst, w)
        alpha = w / norm[dst]
        out = torch.zeros(n, h, o, dtype=hx.dtype).index_add_(
            0, dst, hx[src] * alpha.unsqueeze(-1))
        out = out.mean(1) if self.mean_output else out.reshape(n, h * o)
        return out + self.bias


def create_gnn_layers(in_feat_dim, hidden_feat_dim, class_count, num_layer,
                      num_head, model_type):
    """num_layer layers of model_type ("sage", "gcn", "gat") from
    in_feat_dim to class_count; GAT's hidden layers concatenate
    num_head heads of hidden_feat_dim // num_head."""
    if framework_name is None:
        raise ValueError("set_framework first")
    if model_type not in ("sage", "gcn", "gat"):
        raise ValueError("model %r: sage, gcn or gat" % (model_type,))
    layers = torch.nn.ModuleList()
    for i in range(num_layer):
        last = i == num_layer - 1
        d_in = in_feat_dim if i == 0 else hidden_feat_dim
        d_out = class_count if last else hidden_feat_dim // num_head
        if framework_name == "pyg":
            if model_type == "gat":
                layers.append(_pyg["GATConv"](d_in, d_out, heads=num_head,
                                              concat=not last))
            else:
                layers.append(_pyg["SAGEConv"](
                    d_in, d_out, root_weight=model_type == "sage"))
        elif model_type == "gat":
            layers.append(GATConv(d_in, d_out, num_heads=num_head,
                                  mean_output=last))
        else:
            layers.append(SAGEConv(d_in, d_out, aggregator="mean"
                                   if model_type == "sage" else "gcn"))
    return layers


def create_sub_graph(target_gid, target_gid_1, edge_data, csr_row_ptr,
                     csr_col_ind, max_num_neighbors: int,
                     add_self_loop: bool):
    """A layer's graph in the framework's form: [csr_row_ptr,
    csr_col_ind] for "wg" (self loops are the layers' own business), a
    SparseTensor for "pyg"."""
    if framework_name == "pyg":
        dst, src = csr_col_ind, edge_data[1]
        if add_self_loop:
            loops = torch.arange(target_gid_1.shape[0], dtype=dst.dtype)
            src, dst = torch.cat([src, loops]), torch.cat([dst, loops])
        return _pyg["SparseTensor"](
            row=src.long(), col=dst.long(),
            sparse_sizes=(target_gid_1.shape[0], target_gid.shape[0]))
    if framework_name != "wg":
        raise ValueError("set_framework first")
    return [csr_row_ptr, csr_col_ind]


def layer_forward(layer, x_feat, x_target_feat, sub_graph):
    if framework_name == "pyg":
        return layer((x_feat, x_target_feat), sub_graph)
    return layer(sub_graph[0], sub_graph[1], x_feat, x_target_feat)


class HomoGNNModel(torch.nn.Module):
    """A node classifier: sample the seeds' neighbourhood layer by layer
    (args.neighbors in training, args.inferencesample otherwise), gather
    the input layer's rows of node_embedding, then args.layernum GNN
    layers (args.model: sage, gcn, gat; args.hiddensize, args.heads,
    args.dropout) down to args.classnum logits per seed."""

    def __init__(self, graph_structure: GraphStructure,
                 node_embedding: WholeMemoryEmbedding, args):
        super().__init__()
        num_head = args.heads if args.model == "gat" else 1
        if args.hiddensize % num_head:
            raise ValueError("hidden size %d is not a multiple of %d "
                             "heads" % (args.hiddensize, num_head))
        self.graph_structure = graph_structure
        self.node_embedding = node_embedding
        self.num_layer = args.layernum
        self.hidden_feat_dim = args.hiddensize
        self.gnn_layers = create_gnn_layers(
            node_embedding.shape[1], args.hiddensize, args.classnum,
            args.layernum, num_head, args.model)
        self.mean_output = args.model == "gat"
        self.add_self_loop = args.model == "gat"
        self.gather_fn = WholeMemoryEmbeddingModule(node_embedding)
        self.dropout = args.dropout
        self.max_neighbors = parse_max_neighbors(args.layernum,
                                                 args.neighbors)
        self.max_inference_neighbors = parse_max_neighbors(
            args.layernum, args.inferencesample)

    def forward(self, ids):
        fan = (self.max_neighbors if self.training
               else self.max_inference_neighbors)
        ids = ids.to(self.graph_structure.csr_col_ind.dtype)
        tg, ei, rows, cols = \
            self.graph_structure.multilayer_sample_without_replacement(
                ids, fan)
        x = self.gather_fn(tg[0], force_dtype=torch.float32)
        for i in range(self.num_layer):
            x_target = x[:tg[i + 1].numel()]
            g = create_sub_graph(tg[i], tg[i + 1], ei[i], rows[i], cols[i],
                                 fan[self.num_layer - 1 - i],
                                 self.add_self_loop)
            x = layer_forward(self.gnn_layers[i], x, x_target, g)
            if i != self.num_layer - 1:
                x = F.dropout(F.relu(x), self.dropout,
                              training=self.training)
        return x
