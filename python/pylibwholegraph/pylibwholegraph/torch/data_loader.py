# SPDX-License-Identifier: MIT
"""Node classification data for WholeGraph's training loops: datasets of
(node id, label) pairs and torch DataLoaders over them, the training one
sharded between the replicas."""

import numpy as np
import torch
import torch.utils.data


class NodeClassificationDataset(torch.utils.data.Dataset):
    """A list of (node id, label) pairs as a torch Dataset."""

    def __init__(self, raw_dataset):
        self.dataset = raw_dataset

    def __getitem__(self, index):
        return self.dataset[index]

    def __len__(self):
        return len(self.dataset)


def _pairs(data_and_label, part):
    idx = data_and_label[part + "_idx"]
    label = np.asarray(data_and_label[part + "_label"]).astype(np.int64)
    if len(idx) != len(label):
        raise ValueError("%s_idx has %d entries, %s_label %d" %
                         (part, len(idx), part, len(label)))
    return NodeClassificationDataset(list(zip(idx, label)))


def create_node_classification_datasets(data_and_label: dict):
    """(train, valid, test) datasets from a dict of train_idx /
    train_label, valid_idx / valid_label, test_idx / test_label arrays
    (labels as int64)."""
    return tuple(_pairs(data_and_label, p)
                 for p in ("train", "valid", "test"))


# the name older WholeGraph releases export
create_node_claffication_datasets = create_node_classification_datasets


def _pin():
    # pinned memory needs an accelerator; CPU torch has none to pin for
    return torch.cuda.is_available()


def get_train_dataloader(train_dataset, batch_size: int, *,
                         replica_id: int = 0, num_replicas: int = 1,
                         num_workers: int = 0):
    """Shuffled batches of this replica's share (whole batches only)."""
    sampler = torch.utils.data.distributed.DistributedSampler(
        train_dataset, num_replicas=num_replicas, rank=replica_id,
        shuffle=True, drop_last=True)
    return torch.utils.data.DataLoader(
        train_dataset, batch_size=batch_size, num_workers=num_workers,
        pin_memory=_pin(),
        persistent_workers=num_workers > 0,
        sampler=sampler)


def get_valid_test_dataloader(valid_test_dataset, batch_size: int, *,
                              num_workers: int = 0):
    """Every sample in order (the last batch may be short)."""
    sampler = torch.utils.data.distributed.DistributedSampler(
        valid_test_dataset, num_replicas=1, rank=0, shuffle=False,
        drop_last=False)
    return torch.utils.data.DataLoader(
        valid_test_dataset, batch_size=batch_size, num_workers=num_workers,
        pin_memory=_pin(), sampler=sampler)
