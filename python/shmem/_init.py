# SPDX-License-Identifier: MIT
"""Initialization and team configuration with real ACLSHMEM's names and
values, on the C module's calls.

aclshmem_init / aclshmem_init_using_unique_id return real ACLSHMEM's
error code (0 on success, a negative errno value on failure) as an
InitResult: an int that also carries seed 003's fields status, my_pe and
n_pes. InitStatus is the enum of aclshmemx_init_status().
"""
import enum
import os
import sys

from . import _shmem, _start
from ._shmem import AclshmemError, AclshmemInvalid, OpEngineType

# How long each of the runtime's waits may last by default (seconds).
DEFAULT_TIMEOUT = 120
# ACLSHMEM_MAX_IP_PORT_LEN, the terminating NUL included.
MAX_IP_PORT_LEN = 64
# The most ranks a job may have (the unique-id call's bound).
MAX_RANKS = 1 << 24
# Launchers' variables that give the job's size, in the order they are
# looked at when a start forms a job of one PE.
LAUNCHER_SIZE_VARS = ("WORLD_SIZE", "PMI_SIZE", "OMPI_COMM_WORLD_SIZE",
                      "SLURM_NTASKS")


class InitStatus(enum.IntEnum):
    """aclshmemx_init_status()'s values (ACLSHMEM_STATUS_*)."""
    NOT_INITIALIZED = 0
    SHM_CREATED = 1
    INITIALIZED = 2
    INVALID = 2147483647  # INT_MAX


class InitResult(int):
    """What aclshmem_init and aclshmem_init_using_unique_id return: the
    error code (0 on success, a negative errno value on failure: `if ret
    != 0: raise ...`), with seed 003's InitStatus fields status (the same
    code), my_pe and n_pes (-1 on failure)."""

    def __new__(cls, rc, my_pe=-1, n_pes=-1):
        self = super().__new__(cls, rc)
        self._pe = (int(my_pe), int(n_pes))
        return self

    @property
    def status(self):
        """0 when the initialization succeeded, else the negative error
        code (the reason is on stderr)."""
        return int(self)

    @property
    def my_pe(self):
        """This process's PE number (-1 on failure)."""
        return self._pe[0]

    @property
    def n_pes(self):
        """The number of PEs of the job (-1 on failure)."""
        return self._pe[1]

    def __repr__(self):
        return "InitResult(status=%d, my_pe=%d, n_pes=%d)" % (
            int(self), self._pe[0], self._pe[1])

    __str__ = __repr__


def _int_in(cls, name, v, lo, hi):
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError("%s.%s must be an int, not %s" %
                        (cls, name, type(v).__name__))
    if not lo <= v <= hi:
        raise AclshmemInvalid("%s.%s %d is out of range (%d .. %d)" %
                              (cls, name, v, lo, hi))
    return v


class OptionalAttr:
    """InitAttr.option_attr (real ACLSHMEM's aclshmem_init_optional_attr_t):
    data_op_engine_type (an OpEngineType, or None: the ZESHMEM_COPY option
    decides), the timeouts shm_init_timeout, shm_create_timeout and
    control_operation_timeout in seconds (1 .. 86400, default 120), version
    and sockFd (-1). The timeouts are checked and kept; libzeshmem's waits
    last ZESHMEM_TIMEOUT (see the README), which these do not change."""

    __slots__ = ("_engine", "_t", "version", "sockFd")
    _TIMEOUTS = ("shm_init_timeout", "shm_create_timeout",
                 "control_operation_timeout")

    def __init__(self):
        self._engine = None
        self._t = dict.fromkeys(self._TIMEOUTS, DEFAULT_TIMEOUT)
        self.version = 0
        self.sockFd = -1

    @property
    def data_op_engine_type(self):
        """How node-local data moves: an OpEngineType, or None."""
        return self._engine

    @data_op_engine_type.setter
    def data_op_engine_type(self, v):
        if v is not None:
            v = OpEngineType(_int_in("OptionalAttr", "data_op_engine_type",
                                     v, min(OpEngineType),
                                     max(OpEngineType)))
        self._engine = v

    def _timeout(name):
        def get(self):
            return self._t[name]

        def put(self, v):
            self._t[name] = _int_in("OptionalAttr", name, v, 1, 86400)
        return property(get, put, doc="%s in seconds (1 .. 86400)" % name)

    shm_init_timeout = _timeout("shm_init_timeout")
    shm_create_timeout = _timeout("shm_create_timeout")
    control_operation_timeout = _timeout("control_operation_timeout")
    del _timeout

    def __repr__(self):
        return ("OptionalAttr(data_op_engine_type=%r, shm_init_timeout=%d, "
                "shm_create_timeout=%d, control_operation_timeout=%d)" % (
                    self._engine, self.shm_init_timeout,
                    self.shm_create_timeout, self.control_operation_timeout))


class InitAttr(_shmem.InitAttr):
    """Initialization attributes for aclshmem_init.

    Seed 003's: mem_size (the symmetric heap in bytes, every PE the same;
    0: the runtime's default) and op_engine_type (an OpEngineType or None).
    Real ACLSHMEM's: local_mem_size (the same as mem_size), my_rank and
    n_ranks (-1: from the launcher; when set they must be what the
    launcher's job is, else aclshmem_init raises AclshmemInvalid), ip_port
    (the root's address, "tcp://host:port", at most 63 characters: kept
    for real ACLSHMEM's scripts; the job is formed by the launcher,
    zeshrun, mpirun, shmem.run, torchrun or a torch process group, or by
    aclshmem_init_using_unique_id) and option_attr (an OptionalAttr)."""

    __slots__ = ("_rank", "_nranks", "_ip_port", "_opt")

    def __init__(self, mem_size=0, op_engine_type=None):
        super().__init__(mem_size, op_engine_type)
        self._rank = -1
        self._nranks = -1
        self._ip_port = ""
        self._opt = OptionalAttr()

    @property
    def local_mem_size(self):
        """The same as mem_size (real ACLSHMEM's name)."""
        return self.mem_size

    @local_mem_size.setter
    def local_mem_size(self, v):
        self.mem_size = v

    @property
    def my_rank(self):
        """This process's rank (-1: the launcher's)."""
        return self._rank

    @my_rank.setter
    def my_rank(self, v):
        self._rank = _int_in("InitAttr", "my_rank", v, -1, MAX_RANKS - 1)

    @property
    def n_ranks(self):
        """The number of ranks (-1: the launcher's)."""
        return self._nranks

    @n_ranks.setter
    def n_ranks(self, v):
        self._nranks = _int_in("InitAttr", "n_ranks", v, -1, MAX_RANKS)

    @property
    def ip_port(self):
        """The root's address, e.g. "tcp://127.0.0.1:8666" ("" unset)."""
        return self._ip_port

    @ip_port.setter
    def ip_port(self, v):
        if not isinstance(v, str):
            raise TypeError("InitAttr.ip_port must be a str, not %s" %
                            type(v).__name__)
        if len(v.encode()) >= MAX_IP_PORT_LEN or "\0" in v:
            raise AclshmemInvalid("InitAttr.ip_port %r: at most %d "
                                  "characters, no NUL" %
                                  (v, MAX_IP_PORT_LEN - 1))
        self._ip_port = v

    @property
    def option_attr(self):
        """An OptionalAttr (engine and timeouts)."""
        return self._opt

    @option_attr.setter
    def option_attr(self, v):
        if not isinstance(v, OptionalAttr):
            raise TypeError("InitAttr.option_attr must be a "
                            "shmem.OptionalAttr, not %s" % type(v).__name__)
        self._opt = v

    def __repr__(self):
        return ("InitAttr(mem_size=%d, op_engine_type=%r, my_rank=%d, "
                "n_ranks=%d, ip_port=%r, option_attr=%r)" % (
                    self.mem_size, self.op_engine_type, self._rank,
                    self._nranks, self._ip_port, self._opt))


def _warn_launcher(n_pes):
    """A job of one PE whose launcher says more: one line naming the
    variable (every process would otherwise run alone, silently)."""
    if n_pes != 1:
        return
    for var in LAUNCHER_SIZE_VARS:
        v = os.environ.get(var, "")
        try:
            n = int(v)
        except ValueError:
            continue
        if n > 1:
            sys.stderr.write(
                "shmem: warning: %s=%d but this job has 1 PE: each process "
                "runs alone (start with zeshrun -n %d, mpirun, or "
                "aclshmem_init_using_unique_id)\n" % (var, n, n))
            sys.stderr.flush()
            return


def _result(rc):
    if rc != 0:
        return InitResult(rc)
    n = _shmem.pe_count()
    _warn_launcher(n)
    return InitResult(0, _shmem.my_pe(), n)


def aclshmem_init(attributes, /):
    """aclshmem_init(attributes: InitAttr) -> InitResult

    Initialize the runtime with the given attributes (heap size, copy
    engine). Must be called by every PE before any other SHMEM operation.
    The job comes from the environment: python3 -m shmem.run, zeshrun,
    mpirun/oshrun (PMIx), an initialized torch.distributed process group,
    torchrun's RANK / WORLD_SIZE / MASTER_ADDR / MASTER_PORT (rank 0 serves
    the unique id on MASTER_ADDR, port MASTER_PORT + 1), or a single PE.
    Returns the error code, 0 on success (`if ret != 0:
    raise ...`), as an InitResult that also has status, my_pe and n_pes;
    a second call is a no-op. my_rank / n_ranks other than the job's
    raise AclshmemInvalid. A job of one PE whose launcher says more
    (WORLD_SIZE, PMI_SIZE, OMPI_COMM_WORLD_SIZE, SLURM_NTASKS) warns."""
    if not isinstance(attributes, _shmem.InitAttr):
        raise TypeError("aclshmem_init: attributes must be a "
                        "shmem.InitAttr, not %s" % type(attributes).__name__)
    opt = getattr(attributes, "option_attr", None)
    if opt is not None and opt.data_op_engine_type is not None:
        if attributes.op_engine_type is None:
            attributes.op_engine_type = opt.data_op_engine_type
        elif attributes.op_engine_type != opt.data_op_engine_type:
            raise AclshmemInvalid(
                "aclshmem_init: op_engine_type %r and "
                "option_attr.data_op_engine_type %r differ" %
                (attributes.op_engine_type, opt.data_op_engine_type))
    start = None
    if _shmem._init_state() != InitStatus.INITIALIZED:
        start = _start.launcher_start()
    if start is None:
        rc = _shmem._aclshmem_init(attributes)
    else:
        # shmem.run, torchrun's variables or a torch process group: the
        # package hands the unique id around (shmem/_start.py)
        r, n, uid = start()
        engine = attributes.op_engine_type
        rc = _shmem._aclshmem_init_using_unique_id(
            r, n, attributes.mem_size, uid,
            -1 if engine is None else int(engine))
    ret = _result(rc)
    rank = getattr(attributes, "my_rank", -1)
    nranks = getattr(attributes, "n_ranks", -1)
    if rc == 0 and ((nranks >= 0 and nranks != ret.n_pes) or
                    (rank >= 0 and rank != ret.my_pe)):
        if ret.n_pes == 1:
            _shmem.aclshmem_finalize()  # one PE: not collective
        raise AclshmemInvalid(
            "aclshmem_init: InitAttr my_rank=%d n_ranks=%d, but the job "
            "has PE %d of %d: start the processes with zeshrun -n %d or "
            "mpirun, or use aclshmem_init_using_unique_id" %
            (rank, nranks, ret.my_pe, ret.n_pes, max(nranks, 1)))
    return ret


def aclshmem_init_using_unique_id(rank, nranks, mem_size, uid):
    """aclshmem_init_using_unique_id(rank: int, nranks: int, mem_size: int,
    uid: bytes) -> InitResult

    Initialize using a unique ID for multi-process coordination. rank:
    this process's rank (0 .. nranks-1); nranks: the number of ranks;
    mem_size: symmetric heap size in bytes (0: the default); uid: the bytes
    aclshmem_get_unique_id() returned on rank 0 (which must be the process
    that made them). Every rank passes the same uid and mem_size. Returns
    the error code, 0 on success, as an InitResult (status, my_pe,
    n_pes)."""
    return _result(_shmem._aclshmem_init_using_unique_id(
        rank, nranks, mem_size, uid))


def aclshmemx_init_status():
    """aclshmemx_init_status() -> InitStatus

    The runtime's state: InitStatus.NOT_INITIALIZED before aclshmem_init
    and after aclshmem_finalize, InitStatus.INITIALIZED in between
    (libzeshmem creates the heap inside init: SHM_CREATED is never seen)."""
    return InitStatus(_shmem._init_state())


class TeamConfig:
    """A team's configuration (real ACLSHMEM's TeamConfig):
    num_contexts, the number of contexts the team's PEs may create."""

    __slots__ = ("_n",)

    def __init__(self, num_contexts=0):
        self._n = 0
        self.num_contexts = num_contexts

    @property
    def num_contexts(self):
        """The number of contexts (0 .. INT_MAX)."""
        return self._n

    @num_contexts.setter
    def num_contexts(self, v):
        self._n = _int_in("TeamConfig", "num_contexts", v, 0, 2147483647)

    def __eq__(self, other):
        if not isinstance(other, TeamConfig):
            return NotImplemented
        return self._n == other._n

    __hash__ = None

    def __repr__(self):
        return "TeamConfig(num_contexts=%d)" % self._n


def aclshmem_team_get_config(team):
    """aclshmem_team_get_config(team) -> TeamConfig

    The configuration team was made with (team: a Team, or the int 0 for
    the world team)."""
    return TeamConfig(_shmem._team_get_config(team))


# ---- real ACLSHMEM's other spellings ------------------------------------
# Real ACLSHMEM's Python binding (pybind11, module shmem._pyshmem) names
# its enums' members SignalOp.SIGNAL_SET / SIGNAL_ADD, CmpOp.CMP_EQ ..
# CMP_LE and OpEngineType.MTE (the AI core's own loads and stores, 0x01)
# / SDMA (the system DMA engine, 0x02); its older releases spell finalize
# aclshmem_finialize. These are aliases of seed 003's members and call:
# the same values (libzeshmem's: CmpOp.CMP_EQ is SHMEM_CMP_EQ, 1, where
# real ACLSHMEM's C enum counts from 0: pass the members, not numbers).
# RoCE and UDMA (0x04, 0x08, real ACLSHMEM's inter-node engines) have no
# member: libzeshmem moves inter-node data through libfabric whatever the
# engine.

def _alias(cls, name, member):
    """name as another name of cls's member (an alias, as `NAME = value`
    in the class body makes: cls.name, cls[name], not iterated)."""
    if name in cls.__members__:
        return
    cls._member_map_[name] = member
    type.__setattr__(cls, name, member)


for _n in ("SET", "ADD"):
    _alias(_shmem.SignalOp, "SIGNAL_" + _n, _shmem.SignalOp[_n])
for _n in ("EQ", "NE", "GT", "GE", "LT", "LE"):
    _alias(_shmem.CmpOp, "CMP_" + _n, _shmem.CmpOp[_n])
_alias(OpEngineType, "MTE", OpEngineType.DIRECT)
_alias(OpEngineType, "SDMA", OpEngineType.ENGINE)
del _n


def aclshmem_finialize():
    """aclshmem_finialize() -> None

    aclshmem_finalize under real ACLSHMEM's older spelling (its examples'
    init_test.py calls it): the same call."""
    _shmem.aclshmem_finalize()


def set_conf_store_tls(enable, tls_info):
    """set_conf_store_tls(enable: bool, tls_info: str) -> int

    Real ACLSHMEM's switch for TLS on its configuration store. libzeshmem
    has no such store: its bootstrap admits a process by the job's secret
    (the unique id's nonce), on loopback unless ZESHMEM_BOOT_IFACE says
    otherwise. enable=False returns 0 (what real ACLSHMEM's scripts check
    with `if ret != 0: raise`); enable=True returns -95 (-EOPNOTSUPP) with
    one line on stderr."""
    if not isinstance(enable, bool):
        raise TypeError("set_conf_store_tls: enable must be a bool, not %s"
                        % type(enable).__name__)
    if not isinstance(tls_info, str):
        raise TypeError("set_conf_store_tls: tls_info must be a str, not %s"
                        % type(tls_info).__name__)
    if not enable:
        return 0
    sys.stderr.write("shmem: set_conf_store_tls: TLS is not supported "
                     "(libzeshmem's bootstrap has no configuration store)\n")
    sys.stderr.flush()
    return -95
