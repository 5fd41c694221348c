# SPDX-License-Identifier: MIT
"""pylibwholegraph.torch: WholeGraph's PyTorch face on zemem (CPU torch).

Start: init_torch_env_and_create_wm_comm(rank, size, local_rank,
local_size) with the launcher's numbers (distributed_launch.launcher():
zeshrun, mpirun, torchrun). Then communicators, WholeMemory tensors,
embeddings with caches and optimizers, and CSR sampling, by WholeGraph's
names."""

from .comm import (
    WholeMemoryCommunicator,
    create_group_communicator,
    destroy_communicator,
    get_global_communicator,
    get_local_node_communicator,
    get_local_device_communicator,
    get_local_mnnvl_communicator,
    split_communicator,
    set_world_info,
)
from .embedding import (
    WholeMemoryOptimizer,
    create_wholememory_optimizer,
    destroy_wholememory_optimizer,
    WholeMemoryCachePolicy,
    create_builtin_cache_policy,
    create_wholememory_cache_policy,
    destroy_wholememory_cache_policy,
    WholeMemoryEmbedding,
    create_embedding,
    create_embedding_from_filelist,
    destroy_embedding,
    WholeMemoryEmbeddingModule,
)
from .initialize import (
    init,
    init_torch_env,
    init_torch_env_and_create_wm_comm,
    finalize,
)
from .tensor import (
    WholeMemoryTensor,
    create_wholememory_tensor,
    create_wholememory_tensor_from_filelist,
    destroy_wholememory_tensor,
)
from .utils import get_part_file_name, get_part_file_list
from .distributed_launch import (
    launcher,
    get_rank,
    get_world_size,
    get_local_rank,
    get_local_size,
)
from . import wholegraph_ops, graph_ops
from .wholegraph_ops import (
    unweighted_sample_without_replacement,
    weighted_sample_without_replacement,
)
