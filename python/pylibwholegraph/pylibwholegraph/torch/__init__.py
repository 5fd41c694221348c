# SPDX-License-Identifier: MIT
"""pylibwholegraph.torch: WholeGraph's PyTorch face on zemem (CPU torch).

Start: init_torch_env_and_create_wm_comm(rank, size, local_rank,
local_size) with the launcher's numbers (distributed_launch.launcher():
zeshrun, mpirun, torchrun). Then communicators, WholeMemory tensors,
embeddings with caches and optimizers, CSR sampling (GraphStructure),
WholeGraph's launch and command-line options and its node classification
data loaders, and HomoGNNModel (framework "wg": SAGE, GCN and GAT layers
in plain torch; "pyg" where PyTorch Geometric is installed), by
WholeGraph's names. Not here: the C++ extension
(compile_cpp_extension)."""

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
    is_rmm_enabled,
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
    add_distributed_launch_options,
    distributed_launch,
    get_rank,
    get_world_size,
    get_local_rank,
    get_local_size,
    get_master_addr,
    get_master_port,
    is_main_process,
)
from .common_options import (
    add_common_graph_options,
    add_common_model_options,
    add_common_sampler_options,
    add_training_options,
    add_dataloader_options,
    add_node_classfication_options,
    parse_max_neighbors,
)
from .graph_structure import GraphStructure
from .gnn_model import (
    set_framework,
    create_gnn_layers,
    create_sub_graph,
    layer_forward,
    HomoGNNModel,
)
from .data_loader import (
    NodeClassificationDataset,
    create_node_classification_datasets,
    create_node_claffication_datasets,
    get_train_dataloader,
    get_valid_test_dataloader,
)
from . import wholegraph_ops, graph_ops
from .wholegraph_ops import (
    unweighted_sample_without_replacement,
    weighted_sample_without_replacement,
)
