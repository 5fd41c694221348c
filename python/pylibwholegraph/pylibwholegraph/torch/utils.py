# SPDX-License-Identifier: MIT
"""Names of pylibwholegraph.torch (strings and torch dtypes) to the
binding's enumerations, and torch tensors to the binding's PlainTensor."""

import os

import torch

import pylibwholegraph.binding.wholememory_binding as wmb

_DT = wmb.WholeMemoryDataType
_TORCH_TO_WM = {
    torch.float32: _DT.DtFloat,
    torch.float16: _DT.DtHalf,
    torch.float64: _DT.DtDouble,
    torch.bfloat16: _DT.DtBF16,
    torch.int32: _DT.DtInt,
    torch.int64: _DT.DtInt64,
    torch.int16: _DT.DtInt16,
    torch.int8: _DT.DtInt8,
}
_WM_TO_TORCH = {v: k for k, v in _TORCH_TO_WM.items()}

_MEMORY_TYPES = {
    "continuous": wmb.WholeMemoryMemoryType.MtContinuous,
    "chunked": wmb.WholeMemoryMemoryType.MtChunked,
    "distributed": wmb.WholeMemoryMemoryType.MtDistributed,
    "hierarchy": wmb.WholeMemoryMemoryType.MtHierarchy,
}
# "cuda" is WholeMemory's device location (zemem's device memory, which
# this process reaches from the host); "cpu" its host location.
_LOCATIONS = {
    "cuda": wmb.WholeMemoryMemoryLocation.MlDevice,
    "device": wmb.WholeMemoryMemoryLocation.MlDevice,
    "cpu": wmb.WholeMemoryMemoryLocation.MlHost,
    "host": wmb.WholeMemoryMemoryLocation.MlHost,
}
_ACCESS = {
    "readonly": wmb.WholeMemoryAccessType.AtReadOnly,
    "ro": wmb.WholeMemoryAccessType.AtReadOnly,
    "readwrite": wmb.WholeMemoryAccessType.AtReadWrite,
    "rw": wmb.WholeMemoryAccessType.AtReadWrite,
}
_OPTIMIZERS = {
    "sgd": wmb.WholeMemoryOptimizerType.OptSgd,
    "adam": wmb.WholeMemoryOptimizerType.OptLazyAdam,
    "lazy_adam": wmb.WholeMemoryOptimizerType.OptLazyAdam,
    "adagrad": wmb.WholeMemoryOptimizerType.OptAdaGrad,
    "rmsprop": wmb.WholeMemoryOptimizerType.OptRmsProp,
}
_BACKENDS = {
    "nccl": wmb.WholeMemoryDistributedBackendType.DbNccl,
    "nvshmem": wmb.WholeMemoryDistributedBackendType.DbNvshmem,
}
_LOG_LEVELS = {
    "fatal": wmb.WholeMemoryLogLevel.LlFatal,
    "error": wmb.WholeMemoryLogLevel.LlError,
    "warn": wmb.WholeMemoryLogLevel.LlWarn,
    "info": wmb.WholeMemoryLogLevel.LlInfo,
    "debug": wmb.WholeMemoryLogLevel.LlDebug,
    "trace": wmb.WholeMemoryLogLevel.LlTrace,
}


def _lookup(table, what, key):
    try:
        return table[key]
    except (KeyError, TypeError):
        raise ValueError("%s %r not supported, should be one of (%s)" % (
            what, key, ", ".join(sorted(map(str, table))))) from None


def torch_dtype_to_wholememory_dtype(dtype):
    return _lookup(_TORCH_TO_WM, "dtype", dtype)


def wholememory_dtype_to_torch_dtype(wm_dtype):
    return _lookup(_WM_TO_TORCH, "WholeMemory dtype", wm_dtype)


def str_to_wmb_wholememory_memory_type(s):
    return _lookup(_MEMORY_TYPES, "WholeMemory type", s)


def str_to_wmb_wholememory_location(s):
    return _lookup(_LOCATIONS, "WholeMemory location", s)


def str_to_wmb_wholememory_access_type(s):
    return _lookup(_ACCESS, "WholeMemory access", s)


def str_to_wmb_wholememory_optimizer_type(s):
    return _lookup(_OPTIMIZERS, "WholeMemory optimizer", s)


def str_to_wmb_wholememory_distributed_backend_type(s):
    return _lookup(_BACKENDS, "distributed backend", s)


def wholememory_distributed_backend_type_to_str(v):
    for k, b in _BACKENDS.items():
        if b == v:
            return k
    return "none"


def str_to_wmb_wholememory_log_level(s):
    return _lookup(_LOG_LEVELS, "log level", s)


def empty(shape, dtype):
    """An uninitialised CPU tensor for an op's output. numpy's memory
    where numpy has the dtype: numpy asks for transparent huge pages for
    large arrays, so a fresh 128 MiB output costs 64 page faults instead
    of torch.empty's 32768 (torch returns large blocks to the system and
    maps them anew each time); bfloat16 from torch."""
    try:
        npdt = _NUMPY_OF[dtype]
    except KeyError:
        return torch.empty(shape, dtype=dtype)
    import numpy
    return torch.from_numpy(numpy.empty(shape, dtype=npdt))


_NUMPY_OF = {
    torch.float32: "float32", torch.float16: "float16",
    torch.float64: "float64", torch.int32: "int32", torch.int64: "int64",
    torch.int16: "int16", torch.int8: "int8",
}


def wrap_torch_tensor(t):
    """A binding PlainTensor over a CPU torch tensor's memory (the caller
    keeps t alive while it is used)."""
    if not isinstance(t, torch.Tensor):
        raise TypeError("expected a torch.Tensor, not %s" %
                        type(t).__name__)
    if t.device.type != "cpu":
        raise ValueError("pylibwholegraph on zemem takes CPU tensors, not "
                         "%s" % (t.device,))
    return wmb.PlainTensor(t.data_ptr(), tuple(t.shape), tuple(t.stride()),
                           torch_dtype_to_wholememory_dtype(t.dtype))


def tensor_from_address(address, sizes, strides, dtype, owner):
    """A torch tensor (no copy) over memory at address; owner is kept
    referenced by the tensor's storage while it lives."""
    if len(sizes) == 0 or any(s == 0 for s in sizes) or address == 0:
        return torch.empty(tuple(sizes), dtype=dtype)
    span = 1 + sum((s - 1) * st for s, st in zip(sizes, strides))
    esize = torch.empty((), dtype=dtype).element_size()
    buf = wmb.AddressBuffer(address, span * esize, owner)
    flat = torch.frombuffer(buf, dtype=dtype, count=span)
    return flat.as_strided(tuple(sizes), tuple(strides))


def buffer_to_tensor(out):
    """A torch tensor of an output (bytearray, wm dtype, count) of the
    binding, or None."""
    if out is None:
        return None
    ba, wm_dtype, count = out
    dtype = wholememory_dtype_to_torch_dtype(wm_dtype)
    if count == 0:
        return torch.empty((0,), dtype=dtype)
    return torch.frombuffer(ba, dtype=dtype, count=count)


def get_part_file_name(prefix: str, part_id: int, part_count: int):
    return "%s_part_%d_of_%d" % (prefix, part_id, part_count)


def get_part_file_list(prefix: str, part_count: int):
    return [get_part_file_name(prefix, i, part_count)
            for i in range(part_count)]


def get_file_size(filename: str):
    return os.path.getsize(filename)
