# SPDX-License-Identifier: MIT
"""The command-line options WholeGraph's example training scripts share
(argparse), by WholeGraph's flags, destinations and defaults."""

from argparse import ArgumentParser


def _add(parser: ArgumentParser, options):
    for flags, dest, kind, default, text in options:
        if kind is bool:
            parser.add_argument(*flags, dest=dest, action="store_true",
                                default=default, help=text)
        else:
            parser.add_argument(*flags, dest=dest, type=kind,
                                default=default, help=text)


def add_training_options(argparser: ArgumentParser):
    _add(argparser, (
        (("-e", "--epochs"), "epochs", int, 24, "epochs"),
        (("-b", "--batchsize"), "batchsize", int, 1024, "batch size"),
        (("--lr",), "lr", float, 0.003, "learning rate"),
        (("--embedding-memory-type",), "embedding_memory_type", str,
         "chunked", "continuous, chunked, distributed or hierarchy"),
        (("--cache-type",), "cache_type", str, "none",
         "none, local_device, local_node or all_devices"),
        (("--cache-ratio",), "cache_ratio", float, 0.5,
         "part of the embedding cached"),
        (("--use-cpp-ext",), "use_cpp_ext", bool, False,
         "use the C++ extension for torch (not needed here)"),
        (("--train-embedding",), "train_embedding", bool, False,
         "train the embedding too"),
        (("--distributed-backend-type",), "distributed_backend_type", str,
         "nccl", "nccl or nvshmem (both libzeshmem's RMA here)"),
        (("--log-level",), "log_level", str, "info",
         "trace, debug, info, warn or error"),
    ))


def add_common_graph_options(argparser: ArgumentParser):
    _add(argparser, (
        (("-r", "--root-dir"), "root_dir", str, "dataset",
         "the graph dataset's directory"),
        (("--use-global-embedding",), "use_global_embedding", bool, False,
         "spread the embedding over all ranks, not the node's only"),
        (("--feat-dim",), "feat_dim", int, 100, "feature dimension"),
        (("--round-robin-size",), "round_robin_size", int, 0,
         "rows per rank and turn in round-robin sharding (0: none)"),
    ))


def add_common_model_options(argparser: ArgumentParser):
    _add(argparser, (
        (("--hiddensize",), "hiddensize", int, 256, "hidden size"),
        (("-l", "--layernum"), "layernum", int, 3, "layers"),
        (("-m", "--model"), "model", str, "sage", "sage, gcn or gat"),
        (("-f", "--framework"), "framework", str, "wg", "pyg or wg"),
        (("--heads",), "heads", int, 4, "attention heads"),
        (("-d", "--dropout"), "dropout", float, 0.5, "dropout"),
    ))


def add_common_sampler_options(argparser: ArgumentParser):
    _add(argparser, (
        (("-n", "--neighbors"), "neighbors", str, "30,30,30",
         "neighbours sampled per layer in training, comma separated"),
        (("-s", "--inferencesample"), "inferencesample", str, "30",
         "neighbours sampled in inference (-1: all)"),
    ))


def add_node_classfication_options(argparser: ArgumentParser):
    _add(argparser, (
        (("-c", "--classnum"), "classnum", int, 172, "classes"),
    ))


def add_dataloader_options(argparser: ArgumentParser):
    _add(argparser, (
        (("--pickle-data-path",), "pickle_data_path", str, "",
         "the training data: a pickled dict"),
        (("-w", "--dataloaderworkers"), "dataloaderworkers", int, 0,
         "data loader worker processes"),
    ))


def parse_max_neighbors(num_layer, neighbor_str):
    """The per-layer fanouts of "a,b,c" (one value: the same for every
    layer)."""
    fanouts = [int(s) for s in neighbor_str.split(",")]
    if len(fanouts) == 1:
        return fanouts * num_layer
    if len(fanouts) != num_layer:
        raise ValueError("%d fanouts for %d layers" % (len(fanouts),
                                                       num_layer))
    return fanouts
