# SPDX-License-Identifier: MIT
"""CSR neighbour sampling without replacement (WholeGraph's
wholegraph_ops) over WholeMemory tensors of the graph, with torch tensors
of centers and results. The sampler is libzewholememory's: reproducible
for a seed (api/wholememory/wholegraph_op.h says how)."""

import random
from typing import Union

import torch

import pylibwholegraph.binding.wholememory_binding as wmb
from .tensor import WholeMemoryTensor, _check_indices
from .utils import wrap_torch_tensor, buffer_to_tensor


def _wmb(t, what):
    if isinstance(t, WholeMemoryTensor):
        t = t.wmb_tensor
    if not isinstance(t, wmb.PyWholeMemoryTensor):
        raise TypeError("%s must be a WholeMemory tensor" % what)
    if t.dim() != 1:
        raise ValueError("%s must be 1-D" % what)
    return t


def _sample(row, col, weight, centers, max_sample_count, random_seed,
            need_center_local_output, need_edge_output):
    row = _wmb(row, "wm_csr_row_ptr_tensor")
    col = _wmb(col, "wm_csr_col_ptr_tensor")
    if weight is not None:
        weight = _wmb(weight, "wm_csr_weight_ptr_tensor")
        if weight.shape[0] != col.shape[0]:
            raise ValueError("one weight per edge: %d weights, %d edges" %
                             (weight.shape[0], col.shape[0]))
    centers = _check_indices(centers)
    if max_sample_count <= 0:
        raise ValueError("max_sample_count must be > 0")
    if random_seed is None:
        random_seed = random.getrandbits(64)
    offsets = torch.empty(centers.shape[0] + 1, dtype=torch.int32)
    dest, local, edge = wmb.csr_sample_without_replacement(
        row, col, weight, wrap_torch_tensor(centers), max_sample_count,
        wrap_torch_tensor(offsets), need_center_local_output,
        need_edge_output, random_seed)
    out = [offsets, buffer_to_tensor(dest)]
    if need_center_local_output:
        out.append(buffer_to_tensor(local))
    if need_edge_output:
        out.append(buffer_to_tensor(edge))
    return tuple(out)


def unweighted_sample_without_replacement(
        wm_csr_row_ptr_tensor, wm_csr_col_ptr_tensor,
        center_nodes_tensor: torch.Tensor, max_sample_count: int,
        random_seed: Union[int, None] = None,
        need_center_local_output: bool = False,
        need_edge_output: bool = False):
    """(sample offsets, dest nodes[, center local ids][, edge gids])."""
    return _sample(wm_csr_row_ptr_tensor, wm_csr_col_ptr_tensor, None,
                   center_nodes_tensor, max_sample_count, random_seed,
                   need_center_local_output, need_edge_output)


def weighted_sample_without_replacement(
        wm_csr_row_ptr_tensor, wm_csr_col_ptr_tensor,
        wm_csr_weight_ptr_tensor, center_nodes_tensor: torch.Tensor,
        max_sample_count: int, random_seed: Union[int, None] = None,
        need_center_local_output: bool = False,
        need_edge_output: bool = False):
    """As unweighted_sample_without_replacement, in proportion to the
    edges' weights."""
    return _sample(wm_csr_row_ptr_tensor, wm_csr_col_ptr_tensor,
                   wm_csr_weight_ptr_tensor, center_nodes_tensor,
                   max_sample_count, random_seed, need_center_local_output,
                   need_edge_output)


def generate_random_positive_int_cpu(random_seed, sub_sequence,
                                     output_random_value_count):
    out = torch.empty((output_random_value_count,), dtype=torch.int32)
    wmb.host_generate_random_positive_int(random_seed, sub_sequence,
                                          wrap_torch_tensor(out))
    return out


def generate_exponential_distribution_negative_float_cpu(
        random_seed: int, sub_sequence: int, output_random_value_count: int):
    out = torch.empty((output_random_value_count,), dtype=torch.float32)
    wmb.host_generate_exponential_distribution_negative_float(
        random_seed, sub_sequence, wrap_torch_tensor(out))
    return out
