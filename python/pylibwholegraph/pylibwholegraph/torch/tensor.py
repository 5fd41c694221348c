# SPDX-License-Identifier: MIT
"""WholeMemory tensors as pylibwholegraph.torch shows them: a 1-D or 2-D
table partitioned over a communicator's ranks; gather and scatter with
torch index tensors; views of this rank's rows (and of the whole table
for CONTINUOUS memory) as torch tensors without a copy."""

from typing import List, Union

import torch

import pylibwholegraph.binding.wholememory_binding as wmb
from .comm import WholeMemoryCommunicator
from .utils import (
    torch_dtype_to_wholememory_dtype,
    wholememory_dtype_to_torch_dtype,
    str_to_wmb_wholememory_memory_type,
    str_to_wmb_wholememory_location,
    wrap_torch_tensor,
    empty,
    tensor_from_address,
    get_part_file_name,
    get_part_file_list,
    get_file_size,
)

WholeMemoryMemoryType = wmb.WholeMemoryMemoryType
WholeMemoryMemoryLocation = wmb.WholeMemoryMemoryLocation

_INDEX_DTYPES = (torch.int32, torch.int64)


def _check_indices(indice):
    if not isinstance(indice, torch.Tensor) or indice.dim() != 1:
        raise ValueError("indices must be a 1-D torch tensor")
    if indice.dtype not in _INDEX_DTYPES:
        raise ValueError("indices must be int32 or int64, not %s" %
                         (indice.dtype,))
    return indice.contiguous()


class WholeMemoryTensor(object):
    """A WholeMemory tensor (made by create_wholememory_tensor)."""

    def __init__(self, wmb_tensor):
        self.wmb_tensor = wmb_tensor

    @property
    def dtype(self):
        return wholememory_dtype_to_torch_dtype(self.wmb_tensor.dtype)

    def dim(self):
        return self.wmb_tensor.dim()

    @property
    def shape(self):
        return torch.Size(self.wmb_tensor.shape)

    def stride(self):
        return self.wmb_tensor.stride()

    def storage_offset(self):
        return self.wmb_tensor.storage_offset()

    def get_comm(self):
        return WholeMemoryCommunicator(self.wmb_tensor.get_communicator())

    def get_entry_offsets(self):
        """Each rank's first row, then the row count (size + 1)."""
        return self.wmb_tensor.get_entry_offsets()

    def gather(self, indice: torch.Tensor, *,
               force_dtype: Union[torch.dtype, None] = None):
        """The rows named (a new tensor: (n, columns), or (n,) for a
        1-D table), converted to force_dtype within the float or the
        integer family."""
        indice = _check_indices(indice)
        cols = self.shape[1] if self.dim() == 2 else 1
        out_dtype = force_dtype if force_dtype is not None else self.dtype
        out = empty((indice.shape[0], cols), out_dtype)
        if self.dim() == 1:
            view = out.view(-1)
        else:
            view = out
        wmb.wholememory_gather_op(self.wmb_tensor, wrap_torch_tensor(indice),
                                  wrap_torch_tensor(view))
        return out.view(-1) if self.dim() == 1 else out

    def scatter(self, input_tensor: torch.Tensor, indice: torch.Tensor):
        """Rows of input_tensor into the rows named (a row named twice
        keeps its last value)."""
        indice = _check_indices(indice)
        if input_tensor.dim() != self.dim() or \
                input_tensor.shape[0] != indice.shape[0] or \
                (self.dim() == 2 and input_tensor.shape[1] != self.shape[1]):
            raise ValueError("input of shape %s for %d indices into a "
                             "table of shape %s" % (
                                 tuple(input_tensor.shape),
                                 indice.shape[0], tuple(self.shape)))
        if input_tensor.device.type != "cpu":
            raise ValueError("input must be a CPU tensor")
        if self.dim() == 2 and input_tensor.stride(1) != 1:
            input_tensor = input_tensor.contiguous()
        if self.dim() == 1:
            input_tensor = input_tensor.contiguous()
        wmb.wholememory_scatter_op(wrap_torch_tensor(input_tensor),
                                   wrap_torch_tensor(indice),
                                   self.wmb_tensor)

    def get_sub_tensor(self, starts, ends):
        """Rows / columns [starts[i], ends[i]) (-1: to the end), sharing
        the storage."""
        return WholeMemoryTensor(self.wmb_tensor.get_sub_tensor(starts,
                                                                ends))

    def get_local_tensor(self, host_view: bool = False):
        """(this rank's rows as a torch tensor, no copy; its first row's
        number in the table). host_view is accepted: every view here is
        one of host-reachable memory. A view is valid until the table is
        destroyed (destroy_wholememory_tensor, destroy_embedding,
        finalize), as in WholeGraph: drop it first."""
        addr, sizes, strides, start = self.wmb_tensor.get_local_view()
        t = tensor_from_address(addr, sizes, strides, self.dtype, self)
        return t, start

    def get_global_tensor(self, host_view: bool = False):
        """(the whole table as a torch tensor, no copy; 0): CONTINUOUS
        memory only (ValueError otherwise: use gather)."""
        addr, sizes, strides = self.wmb_tensor.get_global_view()
        if addr == 0 and all(s > 0 for s in sizes):
            raise ValueError("get_global_tensor: only a CONTINUOUS table "
                             "is one range in every rank")
        return tensor_from_address(addr, sizes, strides, self.dtype,
                                   self), 0

    def get_all_chunked_tensor(self, host_view: bool = False):
        """([each rank's rows as a torch tensor, no copy], [each one's
        first row]): CONTINUOUS or CHUNKED memory of this node
        (ValueError otherwise: use gather). Views live as long as the
        table, as get_local_tensor's."""
        views, starts = [], []
        for r in range(len(self.get_entry_offsets()) - 1):
            addr, sizes, strides, start = self.wmb_tensor.get_rank_view(r)
            views.append(tensor_from_address(addr, sizes, strides,
                                             self.dtype, self))
            starts.append(start)
        return views, starts

    def from_filelist(self, filelist: Union[List[str], str],
                      round_robin_size: int = 0):
        """Rows from raw binary files (their rows in order, file after
        file); collective."""
        if isinstance(filelist, str):
            filelist = [filelist]
        self.wmb_tensor.from_filelist(list(filelist), round_robin_size)

    def from_file_prefix(self, file_prefix: str,
                         part_count: Union[int, None] = None):
        if part_count is None:
            part_count = self.get_comm().get_size()
        self.from_filelist(get_part_file_list(file_prefix, part_count))

    def local_to_file(self, filename: str):
        """This rank's rows into filename (every rank calls it)."""
        self.wmb_tensor.to_file(filename)

    def to_file_prefix(self, file_prefix: str):
        comm = self.get_comm()
        self.local_to_file(get_part_file_name(file_prefix, comm.get_rank(),
                                              comm.get_size()))


def create_wholememory_tensor(comm: WholeMemoryCommunicator,
                              memory_type: str, memory_location: str,
                              sizes: List[int], dtype: torch.dtype,
                              strides: Union[List[int], None],
                              tensor_entry_partition: Union[List[int],
                                                            None] = None):
    """A table of sizes (1-D or 2-D) on comm (collective); strides None:
    dense rows; tensor_entry_partition: rows per rank (None: equal)."""
    dim = len(sizes)
    if dim < 1 or dim > 2:
        raise ValueError("only 1-D and 2-D tensors are supported")
    if strides is None:
        strides = [sizes[1], 1] if dim == 2 else [1]
    elif len(strides) != dim or strides[-1] != 1 or \
            (dim == 2 and strides[0] < sizes[1]):
        raise ValueError("strides %r do not fit sizes %r" % (strides, sizes))
    return WholeMemoryTensor(wmb.create_wholememory_tensor(
        list(sizes), list(strides), torch_dtype_to_wholememory_dtype(dtype),
        comm.wmb_comm, str_to_wmb_wholememory_memory_type(memory_type),
        str_to_wmb_wholememory_location(memory_location),
        tensor_entry_partition))


def create_wholememory_tensor_from_filelist(
        comm: WholeMemoryCommunicator, memory_type: str,
        memory_location: str, filelist: Union[List[str], str],
        dtype: torch.dtype, last_dim_size: int = 0,
        last_dim_strides: int = -1,
        tensor_entry_partition: Union[List[int], None] = None):
    """A table loaded from raw binary files: last_dim_size 0 is 1-D,
    else rows of last_dim_size elements (last_dim_strides -1: dense)."""
    if isinstance(filelist, str):
        filelist = [filelist]
    if not filelist:
        raise ValueError("filelist must name at least one file")
    if last_dim_size < 0:
        raise ValueError("last_dim_size must be >= 0")
    esize = torch.empty((), dtype=dtype).element_size()
    entry = esize * (last_dim_size if last_dim_size > 0 else 1)
    total = 0
    for f in filelist:
        n = get_file_size(f)
        if n % entry:
            raise ValueError("file %s: %d bytes, not a multiple of %d" %
                             (f, n, entry))
        total += n // entry
    if last_dim_size == 0:
        sizes, strides = [total], [1]
    else:
        if last_dim_strides == -1:
            last_dim_strides = last_dim_size
        sizes, strides = [total, last_dim_size], [last_dim_strides, 1]
    t = create_wholememory_tensor(comm, memory_type, memory_location, sizes,
                                  dtype, strides, tensor_entry_partition)
    t.from_filelist(filelist)
    return t


def destroy_wholememory_tensor(wm_tensor: WholeMemoryTensor):
    """Frees the table (collective)."""
    wmb.destroy_wholememory_tensor(wm_tensor.wmb_tensor)
