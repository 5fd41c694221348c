# SPDX-License-Identifier: MIT
"""WholeGraph's graph_ops on torch tensors: append_unique and
add_csr_self_loop."""

import torch

import pylibwholegraph.binding.wholememory_binding as wmb
from .tensor import _check_indices
from .utils import wrap_torch_tensor, buffer_to_tensor


def append_unique(target_node_tensor: torch.Tensor,
                  neighbor_node_tensor: torch.Tensor,
                  need_neighbor_raw_to_unique: bool = False):
    """(unique nodes: the targets, then new neighbours in order of first
    appearance[, each neighbour's position among them])."""
    t = _check_indices(target_node_tensor)
    n = _check_indices(neighbor_node_tensor)
    if t.dtype != n.dtype:
        raise ValueError("targets and neighbours of one dtype")
    mapping = None
    if need_neighbor_raw_to_unique:
        mapping = torch.empty(n.shape[0], dtype=torch.int32)
    unique = buffer_to_tensor(wmb.append_unique(
        wrap_torch_tensor(t), wrap_torch_tensor(n),
        wrap_torch_tensor(mapping) if mapping is not None else None))
    return (unique, mapping) if need_neighbor_raw_to_unique else unique


def add_csr_self_loop(csr_row_ptr_tensor: torch.Tensor,
                      csr_col_ptr_tensor: torch.Tensor):
    """(row pointers, columns) with each row's self loop first."""
    r = _check_indices(csr_row_ptr_tensor)
    c = _check_indices(csr_col_ptr_tensor)
    rows = r.shape[0] - 1
    if rows < 0:
        raise ValueError("row pointers need at least one entry")
    out_r = torch.empty(rows + 1, dtype=r.dtype)
    out_c = torch.empty(c.shape[0] + rows, dtype=c.dtype)
    wmb.add_csr_self_loop(wrap_torch_tensor(r), wrap_torch_tensor(c),
                          wrap_torch_tensor(out_r), wrap_torch_tensor(out_c))
    return out_r, out_c
