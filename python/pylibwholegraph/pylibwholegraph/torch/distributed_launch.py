# SPDX-License-Identifier: MIT
"""The job's world as its launcher describes it: zeshrun (ZESHMEM_RANK,
ZESHMEM_NRANKS, ZESHMEM_LOCAL_RANK), mpirun (Open MPI's
OMPI_COMM_WORLD_*, PMIx's PMIX_RANK), torchrun (RANK, WORLD_SIZE,
LOCAL_RANK, LOCAL_WORLD_SIZE); a plain process is rank 0 of 1."""

import os

_LAUNCHERS = (
    # name, rank, size, local rank, local size
    ("zeshrun", "ZESHMEM_RANK", "ZESHMEM_NRANKS", "ZESHMEM_LOCAL_RANK",
     None),
    ("mpirun", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
     "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"),
    ("pmix", "PMIX_RANK", "PMIX_SIZE", "PMIX_LOCAL_RANK", "PMIX_LOCAL_SIZE"),
    ("torchrun", "RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE"),
)


def _int(name, default=None):
    v = os.environ.get(name)
    if v is None or v == "":
        return default
    try:
        return int(v)
    except ValueError:
        raise ValueError("%s=%r is not an integer" % (name, v)) from None


def launcher():
    """(launcher name, rank, size, local_rank, local_size); local_size
    is the size when the launcher does not say (one node)."""
    for name, r, s, lr, ls in _LAUNCHERS:
        rank = _int(r)
        if rank is None:
            continue
        size = _int(s, 1 if name != "pmix" else None)
        if size is None:
            continue
        local_rank = _int(lr, rank)
        local_size = _int(ls, size) if ls else size
        if not 0 <= rank < size:
            raise ValueError("%s: rank %d outside size %d" % (name, rank,
                                                              size))
        return name, rank, size, local_rank, local_size
    return "none", 0, 1, 0, 1


class DistributedConfig(object):
    """The world distributed_launch found (-1: not set; the launcher's
    environment answers then)."""

    def __init__(self):
        self.rank = -1
        self.world_size = -1
        self.local_rank = -1
        self.local_size = -1
        self.master_addr = ""
        self.master_port = -1

    def get_rank(self):
        return self.rank

    def get_world_size(self):
        return self.world_size

    def get_local_rank(self):
        return self.local_rank

    def get_local_size(self):
        return self.local_size

    def get_master_addr(self):
        return self.master_addr

    def get_master_port(self):
        return self.master_port


distributed_config = DistributedConfig()


def _world(i, field):
    v = getattr(distributed_config, field)
    return v if v >= 0 else launcher()[i]


def get_rank():
    return _world(1, "rank")


def get_world_size():
    return _world(2, "world_size")


def get_local_rank():
    return _world(3, "local_rank")


def get_local_size():
    return _world(4, "local_size")


def get_master_addr():
    return distributed_config.master_addr


def get_master_port():
    return distributed_config.master_port


def is_main_process():
    return get_rank() == 0


_OPTIONS = (
    # flag, dest, type, default
    ("--rank", "rank", int, -1),
    ("--world-size", "world_size", int, -1),
    ("--local-rank", "local_rank", int, -1),
    ("--local-size", "local_size", int, -1),
    ("--master-addr", "master_addr", str, ""),
    ("--master-port", "master_port", int, -1),
    ("--launch-env-name-world-rank", "launch_env_name_world_rank", str,
     "RANK"),
    ("--launch-env-name-world-size", "launch_env_name_world_size", str,
     "WORLD_SIZE"),
    ("--launch-env-name-local-rank", "launch_env_name_local_rank", str,
     "LOCAL_RANK"),
    ("--launch-env-name-local-size", "launch_env_name_local_size", str,
     "LOCAL_WORLD_SIZE"),
    ("--launch-env-name-master-addr", "launch_env_name_master_addr", str,
     "MASTER_ADDR"),
    ("--launch-env-name-master-port", "launch_env_name_master_port", str,
     "MASTER_PORT"),
)


def add_distributed_launch_options(parser):
    """WholeGraph's launch options: --launch-agent mpi (any launcher
    this package knows: zeshrun, mpirun, PMIx), pytorch (torchrun's
    variables, names settable) or spawn (torch.multiprocessing.spawn of
    --local-size processes per node); the world by flag or variable."""
    parser.add_argument("--launch-agent", dest="launch_agent",
                        default="mpi", help="mpi, pytorch or spawn")
    for flag, dest, kind, default in _OPTIONS:
        parser.add_argument(flag, dest=dest, type=kind, default=default,
                            help="(%s)" % dest)


def _option_or_env(args, dest, env_dest, unset, default=None):
    v = getattr(args, dest, unset) if dest else unset
    if v != unset:
        return v
    name = getattr(args, env_dest)
    if name in os.environ:
        return os.environ[name]
    if default is None:
        raise ValueError("distributed_launch: neither --%s nor $%s is set"
                         % ((dest or env_dest).replace("_", "-"), name))
    return default


def _master(args):
    distributed_config.master_addr = str(_option_or_env(
        args, "master_addr", "launch_env_name_master_addr", "",
        "localhost"))
    distributed_config.master_port = int(_option_or_env(
        args, "master_port", "launch_env_name_master_port", -1, 12335))


def _export():
    c = distributed_config
    os.environ["RANK"] = str(c.rank)
    os.environ["WORLD_SIZE"] = str(c.world_size)
    os.environ["MASTER_ADDR"] = c.master_addr
    os.environ["MASTER_PORT"] = str(c.master_port)


def _spawned(local_rank, main_func, config):
    global distributed_config
    distributed_config = config
    node, nodes = config.rank, config.world_size
    config.rank = node * config.local_size + local_rank
    config.world_size = nodes * config.local_size
    config.local_rank = local_rank
    _export()
    # the child's launcher() reads torchrun's names
    os.environ["LOCAL_RANK"] = str(local_rank)
    os.environ["LOCAL_WORLD_SIZE"] = str(config.local_size)
    main_func()


def distributed_launch(args, main_func):
    """Run main_func() in each rank of the job args.launch_agent names
    (see add_distributed_launch_options); get_rank() and friends answer
    from then on."""
    agent = getattr(args, "launch_agent", "mpi")
    c = distributed_config
    if agent == "mpi":
        name, c.rank, c.world_size, c.local_rank, c.local_size = launcher()
        _master(args)
        _export()
        main_func()
    elif agent == "pytorch":
        c.rank = int(_option_or_env(args, None,
                                    "launch_env_name_world_rank", None))
        c.world_size = int(_option_or_env(
            args, None, "launch_env_name_world_size", None))
        c.local_rank = int(_option_or_env(
            args, "local_rank", "launch_env_name_local_rank", -1))
        c.local_size = int(_option_or_env(
            args, "local_size", "launch_env_name_local_size", -1))
        if not (0 <= c.rank < c.world_size and
                0 <= c.local_rank < c.local_size):
            raise ValueError("distributed_launch: rank %d of %d, local "
                             "rank %d of %d" % (c.rank, c.world_size,
                                                c.local_rank, c.local_size))
        _master(args)
        main_func()
    elif agent == "spawn":
        c.rank = int(_option_or_env(args, "rank",
                                    "launch_env_name_world_rank", -1, 0))
        c.world_size = int(_option_or_env(
            args, "world_size", "launch_env_name_world_size", -1, 1))
        c.local_rank = 0
        c.local_size = int(_option_or_env(
            args, "local_size", "launch_env_name_local_size", -1, 1))
        if not (0 <= c.rank < c.world_size and c.local_size > 0):
            raise ValueError("distributed_launch: node %d of %d, %d "
                             "processes each" % (c.rank, c.world_size,
                                                 c.local_size))
        _master(args)
        if c.local_size > 1:
            import torch.multiprocessing as mp
            mp.spawn(_spawned, args=(main_func, c), nprocs=c.local_size,
                     join=True)
        else:
            _spawned(0, main_func, c)
    else:
        raise ValueError("distributed_launch: launch agent %r: mpi, "
                         "pytorch or spawn" % (agent,))
