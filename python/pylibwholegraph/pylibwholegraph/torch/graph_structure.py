# SPDX-License-Identifier: MIT
"""GraphStructure: one relation of a graph in CSR form (row pointers and
column indices as WholeMemory tensors) with named node and edge
attributes, and the samplers of WholeGraph's training loops over it."""

from typing import List, Union

import torch

from . import graph_ops, wholegraph_ops
from .tensor import WholeMemoryTensor


def _need(ok, what):
    if not ok:
        raise ValueError("GraphStructure: " + what)


class GraphStructure(object):
    """A CSR graph (set_csr_graph) with attributes per node and per edge."""

    def __init__(self):
        super().__init__()
        self.node_count = 0
        self.edge_count = 0
        self.csr_row_ptr = None
        self.csr_col_ind = None
        self.node_attributes = {}
        self.edge_attributes = {}

    def set_csr_graph(self, csr_row_ptr: WholeMemoryTensor,
                      csr_col_ind: WholeMemoryTensor):
        """Row pointers (1-D int64, nodes + 1 entries) and column indices
        (1-D int32 or int64, one per edge)."""
        for t, what in ((csr_row_ptr, "csr_row_ptr"),
                        (csr_col_ind, "csr_col_ind")):
            _need(isinstance(t, WholeMemoryTensor),
                  "%s must be a WholeMemoryTensor" % what)
            _need(t.dim() == 1, "%s must be 1-D" % what)
        _need(csr_row_ptr.dtype == torch.int64,
              "csr_row_ptr must be int64, not %s" % csr_row_ptr.dtype)
        _need(csr_row_ptr.shape[0] > 1,
              "csr_row_ptr needs at least 2 entries")
        _need(csr_col_ind.dtype in (torch.int32, torch.int64),
              "csr_col_ind must be int32 or int64, not %s" %
              csr_col_ind.dtype)
        self.node_count = csr_row_ptr.shape[0] - 1
        self.edge_count = csr_col_ind.shape[0]
        self.csr_row_ptr = csr_row_ptr
        self.csr_col_ind = csr_col_ind

    def _set_attr(self, table, kind, count, name, t):
        _need(name not in table, "%s attribute %r is already set" %
              (kind, name))
        _need(t.shape[0] == count, "%s attribute %r has %d rows, the "
              "graph %d %ss" % (kind, name, t.shape[0], count, kind))
        table[name] = t

    def set_node_attribute(self, attr_name: str,
                           attr_tensor: WholeMemoryTensor):
        """A tensor of one row per node, under attr_name."""
        self._set_attr(self.node_attributes, "node", self.node_count,
                       attr_name, attr_tensor)

    def set_edge_attribute(self, attr_name: str,
                           attr_tensor: WholeMemoryTensor):
        """A tensor of one row per edge (e.g. the weights), under
        attr_name."""
        self._set_attr(self.edge_attributes, "edge", self.edge_count,
                       attr_name, attr_tensor)

    def _graph(self):
        _need(self.csr_row_ptr is not None, "set_csr_graph first")
        return self.csr_row_ptr, self.csr_col_ind

    def unweighted_sample_without_replacement_one_hop(
            self, center_nodes_tensor: torch.Tensor, max_sample_count: int,
            *, random_seed: Union[int, None] = None,
            need_center_local_output: bool = False,
            need_edge_output: bool = False):
        """(offsets, sampled nodes[, center local ids][, edge ids]): up to
        max_sample_count distinct neighbours of each center."""
        row, col = self._graph()
        return wholegraph_ops.unweighted_sample_without_replacement(
            row, col, center_nodes_tensor, max_sample_count, random_seed,
            need_center_local_output, need_edge_output)

    def weighted_sample_without_replacement_one_hop(
            self, weight_name: str, center_nodes_tensor: torch.Tensor,
            max_sample_count: int, *, random_seed: Union[int, None] = None,
            need_center_local_output: bool = False,
            need_edge_output: bool = False):
        """As the unweighted one hop, drawn by the edge attribute
        weight_name."""
        row, col = self._graph()
        _need(weight_name in self.edge_attributes,
              "no edge attribute %r" % (weight_name,))
        return wholegraph_ops.weighted_sample_without_replacement(
            row, col, self.edge_attributes[weight_name],
            center_nodes_tensor, max_sample_count, random_seed,
            need_center_local_output, need_edge_output)

    def multilayer_sample_without_replacement(
            self, node_ids: torch.Tensor, max_neighbors: List[int],
            weight_name: Union[str, None] = None):
        """Hops from the seeds outwards, max_neighbors[0] for the hop next
        to the seeds. Returns (target_gids, edge_indice, csr_row_ptr,
        csr_col_ind), each a list indexed by layer, the input layer first:
        target_gids[hops] are the seeds, target_gids[i] the unique nodes
        of layer i (those of layer i + 1 first); edge_indice[i] is the
        2 x n tensor (source's position in target_gids[i], center's
        position in target_gids[i + 1]); csr_row_ptr[i] / csr_col_ind[i]
        the same edges as CSR over the centers. The layers below the
        seeds have the column indices' dtype."""
        hops = len(max_neighbors)
        _need(hops > 0, "max_neighbors needs at least one hop")
        target_gids = [None] * (hops + 1)
        edge_indice = [None] * hops
        csr_row_ptr = [None] * hops
        csr_col_ind = [None] * hops
        target_gids[hops] = node_ids
        for i in reversed(range(hops)):
            fanout = max_neighbors[hops - 1 - i]
            if weight_name is None:
                offsets, nbr, center_lid = \
                    self.unweighted_sample_without_replacement_one_hop(
                        target_gids[i + 1], fanout,
                        need_center_local_output=True)
            else:
                offsets, nbr, center_lid = \
                    self.weighted_sample_without_replacement_one_hop(
                        weight_name, target_gids[i + 1], fanout,
                        need_center_local_output=True)
            # the seeds may be int64 over int32 columns: the unique set
            # is of the columns' type
            unique, to_unique = graph_ops.append_unique(
                target_gids[i + 1].to(nbr.dtype), nbr,
                need_neighbor_raw_to_unique=True)
            csr_row_ptr[i] = offsets
            csr_col_ind[i] = to_unique
            edge_indice[i] = torch.stack([to_unique.reshape(-1),
                                          center_lid.reshape(-1)])
            target_gids[i] = unique
        return target_gids, edge_indice, csr_row_ptr, csr_col_ind
