# SPDX-License-Identifier: MIT
"""WholeMemory embeddings for pylibwholegraph.torch: a (rows, dim) table
on a communicator, read through an optional cache, trained by a sparse
optimizer.

Autograd: WholeMemoryEmbeddingModule's forward gathers rows (in training
mode, once an optimizer is set, the result requires grad through a
dummy parameter); backward records (indices, gradient rows);
WholeMemoryOptimizer.step(lr) hands every embedding's records to
libzewholememory's gather_gradient_apply, which sums the gradients of
each row and steps it once on its owner. step is collective: every rank
calls it (a rank with no records applies nothing)."""

from typing import List, Union

import torch

import pylibwholegraph.binding.wholememory_binding as wmb
from .comm import (
    WholeMemoryCommunicator,
    get_global_communicator,
    get_local_node_communicator,
    get_local_device_communicator,
)
from .tensor import WholeMemoryTensor, _check_indices
from .utils import (
    torch_dtype_to_wholememory_dtype,
    str_to_wmb_wholememory_location,
    str_to_wmb_wholememory_memory_type,
    str_to_wmb_wholememory_optimizer_type,
    str_to_wmb_wholememory_access_type,
    wrap_torch_tensor,
    empty,
    get_file_size,
)


class WholeMemoryOptimizer(object):
    """A sparse optimizer of one or more embeddings (made by
    create_wholememory_optimizer)."""

    def __init__(self, global_comm: WholeMemoryCommunicator):
        self.wmb_opt = wmb.WholeMemoryOptimizer()
        self.embeddings = []
        self.global_comm = global_comm

    def add_embedding(self, wm_embedding):
        if not isinstance(wm_embedding, WholeMemoryEmbedding):
            raise TypeError("expected a WholeMemoryEmbedding")
        if wm_embedding.wmb_optimizer is not None:
            raise ValueError("optimizer can only be set once.")
        self.wmb_opt.add_embedding(wm_embedding.wmb_embedding)
        wm_embedding.wmb_optimizer = self.wmb_opt
        wm_embedding.dummy_input.requires_grad_(True)
        self.embeddings.append(wm_embedding)

    def step(self, lr: float):
        """Apply the recorded gradients of every embedding (collective)."""
        for wm_embedding in self.embeddings:
            wm_embedding.apply_gradients(lr)
        self.global_comm.barrier()


class WholeMemoryCachePolicy(object):
    """A cache policy (create_wholememory_cache_policy,
    create_builtin_cache_policy)."""

    def __init__(self, wmb_cache_policy):
        self.wmb_cache_policy = wmb_cache_policy


def create_wholememory_cache_policy(cache_comm: WholeMemoryCommunicator, *,
                                    memory_type: str = "chunked",
                                    memory_location: str = "cuda",
                                    access_type: str = "readonly",
                                    ratio: float = 0.5):
    p = wmb.WholeMemoryCachePolicy()
    p.create_policy(cache_comm.wmb_comm,
                    str_to_wmb_wholememory_memory_type(memory_type),
                    str_to_wmb_wholememory_location(memory_location),
                    str_to_wmb_wholememory_access_type(access_type), ratio)
    return WholeMemoryCachePolicy(p)


def destroy_wholememory_cache_policy(cache_policy: WholeMemoryCachePolicy):
    cache_policy.wmb_cache_policy.destroy_policy()
    cache_policy.wmb_cache_policy = None


def create_builtin_cache_policy(builtin_cache_type: str,
                                embedding_memory_type: str,
                                embedding_memory_location: str,
                                access_type: str, cache_ratio: float, *,
                                cache_memory_type: str = "",
                                cache_memory_location: str = ""):
    """none (None), local_device, local_node or all_devices: the cache's
    communicator (this rank, this node, the job) and memory."""
    str_to_wmb_wholememory_memory_type(embedding_memory_type)
    str_to_wmb_wholememory_location(embedding_memory_location)
    if builtin_cache_type == "none":
        return None
    if cache_memory_location not in ("", "cpu", "cuda"):
        raise ValueError("cache_memory_location is %r, should be empty, "
                         "cpu or cuda" % (cache_memory_location,))
    location = cache_memory_location or "cuda"
    if builtin_cache_type == "all_devices":
        return create_wholememory_cache_policy(
            get_global_communicator(),
            memory_type=cache_memory_type or embedding_memory_type,
            memory_location=location, access_type=access_type,
            ratio=cache_ratio)
    if builtin_cache_type == "local_node":
        return create_wholememory_cache_policy(
            get_local_node_communicator(),
            memory_type=cache_memory_type or "chunked",
            memory_location=location, access_type=access_type,
            ratio=cache_ratio)
    if builtin_cache_type == "local_device":
        return create_wholememory_cache_policy(
            get_local_device_communicator(), memory_type="continuous",
            memory_location=location, access_type=access_type,
            ratio=cache_ratio)
    raise ValueError("builtin_cache_type=%r not supported, should be none, "
                     "local_device, local_node or all_devices" %
                     (builtin_cache_type,))


class EmbeddingLookupFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, indice, dummy_input, wm_embedding, is_training=False,
                force_dtype=None):
        out = wm_embedding.gather(indice, is_training=is_training,
                                  force_dtype=force_dtype)
        if is_training and wm_embedding.need_grad():
            ctx.save_for_backward(indice)
            ctx.wm_embedding = wm_embedding
        return out

    @staticmethod
    def backward(ctx, grad_outputs):
        wm_embedding = getattr(ctx, "wm_embedding", None)
        if wm_embedding is not None:
            (indice,) = ctx.saved_tensors
            wm_embedding.add_gradients(indice, grad_outputs)
            ctx.wm_embedding = None
        return None, torch.zeros(1), None, None, None


class WholeMemoryEmbedding(object):
    """A WholeMemory embedding (made by create_embedding)."""

    def __init__(self, wmb_embedding, cache_policy):
        self.wmb_embedding = wmb_embedding
        self.embedding_tensor = None
        self.optimizer_states = {}
        self.wmb_cache_policy = cache_policy
        self.adjust_cache = cache_policy is not None
        self.wmb_optimizer = None
        self.dummy_input = torch.nn.Parameter(torch.zeros(1),
                                              requires_grad=False)
        self.need_apply = False
        self.sparse_indices = []
        self.sparse_grads = []

    def dim(self):
        return self.get_embedding_tensor().dim()

    @property
    def shape(self):
        return self.get_embedding_tensor().shape

    def set_adjust_cache(self, adjust_cache: bool):
        self.adjust_cache = adjust_cache and \
            self.wmb_cache_policy is not None

    def need_grad(self):
        return self.wmb_embedding is not None and \
            self.wmb_optimizer is not None

    def gather(self, indice: torch.Tensor, *, is_training: bool = False,
               force_dtype: Union[torch.dtype, None] = None):
        indice = _check_indices(indice)
        dim = self.get_embedding_tensor().shape[1]
        dtype = force_dtype if force_dtype is not None else \
            self.get_embedding_tensor().dtype
        out = empty((indice.shape[0], dim), dtype)
        self.wmb_embedding.gather(wrap_torch_tensor(indice),
                                  wrap_torch_tensor(out), self.adjust_cache)
        if self.need_grad() and is_training:
            self.need_apply = True
        return out

    def add_gradients(self, indice: torch.Tensor, grad_outputs: torch.Tensor):
        self.sparse_indices.append(indice)
        self.sparse_grads.append(grad_outputs)

    def apply_gradients(self, lr: float):
        """Collective: every rank's recorded gradients (none: an empty
        list) into the optimizer's step."""
        dim = self.get_embedding_tensor().shape[1]
        if self.sparse_indices:
            idx = torch.cat([i.to(torch.int64) for i in
                             self.sparse_indices]).contiguous()
            grads = torch.cat([g.to(torch.float32).reshape(-1, dim) for g
                               in self.sparse_grads]).contiguous()
        else:
            idx = torch.empty((0,), dtype=torch.int64)
            grads = torch.empty((0, dim), dtype=torch.float32)
        self.sparse_indices = []
        self.sparse_grads = []
        self.need_apply = False
        self.wmb_embedding.gradient_apply(wrap_torch_tensor(idx),
                                          wrap_torch_tensor(grads),
                                          self.adjust_cache, lr)

    def writeback_all_cache(self):
        self.wmb_embedding.writeback_all_cache()

    def drop_all_cache(self):
        self.wmb_embedding.drop_all_cache()

    def get_embedding_tensor(self):
        if self.embedding_tensor is None:
            self.embedding_tensor = WholeMemoryTensor(
                self.wmb_embedding.get_embedding_tensor())
        return self.embedding_tensor

    def get_optimizer_state_names(self):
        return self.wmb_embedding.get_optimizer_state_names()

    def get_optimizer_state(self, state_name):
        if state_name not in self.optimizer_states:
            self.optimizer_states[state_name] = WholeMemoryTensor(
                self.wmb_embedding.get_optimizer_state(state_name))
        return self.optimizer_states[state_name]

    def save(self, file_prefix: str):
        self.get_embedding_tensor().to_file_prefix(
            file_prefix + "_embedding_tensor")
        for name in self.get_optimizer_state_names():
            self.get_optimizer_state(name).to_file_prefix(
                file_prefix + "_" + name)

    def load(self, file_prefix: str, *, ignore_embedding: bool = False,
             part_count: Union[int, None] = None):
        if not ignore_embedding:
            self.get_embedding_tensor().from_file_prefix(
                file_prefix + "_embedding_tensor", part_count)
        for name in self.get_optimizer_state_names():
            self.get_optimizer_state(name).from_file_prefix(
                file_prefix + "_" + name, part_count)


def create_embedding(comm: WholeMemoryCommunicator, memory_type: str,
                     memory_location: str, dtype: torch.dtype,
                     sizes: List[int], *,
                     cache_policy: Union[WholeMemoryCachePolicy,
                                         None] = None,
                     embedding_entry_partition: Union[List[int],
                                                      None] = None,
                     random_init: bool = False, gather_sms: int = -1,
                     round_robin_size: int = 0):
    """A (rows, dim) embedding on comm (collective); random_init fills
    each rank's rows with xavier_uniform_ (torch's generator).
    round_robin_size R > 0: blocks of R rows dealt to the ranks in turn
    (the embedding tensor is then the storage order, every rank holding
    rank 0's share); ignored, as the C library does, when an
    embedding_entry_partition is given."""
    if len(sizes) != 2:
        raise ValueError("an embedding is 2-D, not %r" % (sizes,))
    if embedding_entry_partition is not None and cache_policy is not None:
        raise ValueError("embedding_entry_partition and cache_policy "
                         "cannot both be given")
    emb = WholeMemoryEmbedding(
        wmb.create_embedding(
            list(sizes), torch_dtype_to_wholememory_dtype(dtype),
            comm.wmb_comm, str_to_wmb_wholememory_memory_type(memory_type),
            str_to_wmb_wholememory_location(memory_location),
            cache_policy.wmb_cache_policy if cache_policy else None,
            embedding_entry_partition, gather_sms, round_robin_size),
        cache_policy)
    if random_init:
        local, _ = emb.get_embedding_tensor().get_local_tensor()
        if local.numel():
            torch.nn.init.xavier_uniform_(local)
    comm.barrier()
    return emb


def create_embedding_from_filelist(comm: WholeMemoryCommunicator,
                                   memory_type: str, memory_location: str,
                                   filelist: Union[List[str], str],
                                   dtype: torch.dtype, last_dim_size: int,
                                   *, cache_policy=None,
                                   embedding_entry_partition=None,
                                   gather_sms: int = -1,
                                   round_robin_size: int = 0):
    """An embedding loaded from raw binary files of rows of
    last_dim_size elements."""
    if embedding_entry_partition is not None:
        # the C library ignores round_robin_size then (with a warning):
        # the files are read in the partition's order
        round_robin_size = 0
    if isinstance(filelist, str):
        filelist = [filelist]
    if not filelist or last_dim_size <= 0:
        raise ValueError("a filelist and last_dim_size > 0 are needed")
    entry = torch.empty((), dtype=dtype).element_size() * last_dim_size
    rows = 0
    for f in filelist:
        n = get_file_size(f)
        if n % entry:
            raise ValueError("file %s: %d bytes, not a multiple of %d" %
                             (f, n, entry))
        rows += n // entry
    emb = create_embedding(comm, memory_type, memory_location, dtype,
                           [rows, last_dim_size], cache_policy=cache_policy,
                           embedding_entry_partition=embedding_entry_partition,
                           gather_sms=gather_sms,
                           round_robin_size=round_robin_size)
    emb.get_embedding_tensor().from_filelist(filelist, round_robin_size)
    return emb


def destroy_embedding(wm_embedding: WholeMemoryEmbedding):
    """Collective."""
    wm_embedding.wmb_embedding.destroy_embedding()
    wm_embedding.wmb_embedding = None
    wm_embedding.embedding_tensor = None
    wm_embedding.optimizer_states = {}


class WholeMemoryEmbeddingModule(torch.nn.Module):
    """torch.nn.Module of a WholeMemoryEmbedding: forward(indices)."""

    def __init__(self, wm_embedding: WholeMemoryEmbedding):
        super().__init__()
        self.wm_embedding = wm_embedding
        self.embedding_gather_fn = EmbeddingLookupFn.apply

    def forward(self, indice: torch.Tensor,
                force_dtype: Union[torch.dtype, None] = None):
        return self.embedding_gather_fn(indice, self.wm_embedding.dummy_input,
                                        self.wm_embedding, self.training,
                                        force_dtype)


def create_wholememory_optimizer(embeddings, optimizer_type: str,
                                 param_dict: dict):
    """sgd, adam (LazyAdam), adagrad or rmsprop over embeddings;
    param_dict by the C API's names (weight_decay, epsilon, beta1,
    beta2, adam_w, alpha)."""
    opt = WholeMemoryOptimizer(get_global_communicator())
    opt.wmb_opt.create_optimizer(
        str_to_wmb_wholememory_optimizer_type(optimizer_type), param_dict)
    if isinstance(embeddings, WholeMemoryEmbedding):
        embeddings = [embeddings]
    for e in embeddings:
        opt.add_embedding(e)
    return opt


def destroy_wholememory_optimizer(optimizer: WholeMemoryOptimizer):
    optimizer.wmb_opt.destroy_optimizer()
    optimizer.wmb_opt = None
