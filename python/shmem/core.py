# SPDX-License-Identifier: MIT
"""shmem.core: symmetric memory for numpy arrays and torch tensors in the
shape of nvshmem4py's nvshmem.core, on zemem's libzeshmem.

    import numpy as np
    import shmem.core as shm
    shm.init()                       # under zeshrun / mpirun / shmem.run
    a = shm.array((1024,), dtype="float32")
    a[:] = shm.my_pe()
    shm.barrier_all()
    peer = shm.get_peer_array(a, (shm.my_pe() + 1) % shm.n_pes())
    shm.reduce(shm.Teams.TEAM_WORLD, a, a, "sum")
    shm.free(a)
    shm.finalize()

Start: init() under a launcher (zeshrun -n N, mpirun, python3 -m
shmem.run), or init(uid=, rank=, nranks=) with the bytes get_unique_id()
made on rank 0 (sent to the others by any means: a torch.distributed
broadcast, a file, a pipe).

Memory: buffer(size) (a SymmetricBuffer: buffer protocol and DLPack),
array(shape, dtype) (numpy), tensor(shape, dtype) (a CPU torch tensor);
every PE allocates the same (collective); free(obj) frees them (a second
free raises ValueError) and finalize() reports what was not freed.
get_peer_buffer / get_peer_array / get_peer_tensor(obj, pe) are
zero-copy views of a node-local peer's copy (ValueError for a PE on
another node).

Data: put / get (and _nbi) copy between a local array or tensor and the
symmetric one on a PE; put_signal / signal_op / signal_wait; quiet /
fence; barrier / sync (a team), barrier_all / sync_all; reduce ("sum",
"prod", "min", "max", "and", "or", "xor"), reducescatter, fcollect,
alltoall, broadcast on a team, for every numeric dtype of numpy and torch;
atomics on one element of a symmetric array or tensor (atomic_fetch_add,
atomic_compare_swap, ...).

Teams: Teams.TEAM_WORLD (or a Team from split_strided / split_2d),
team_my_pe, team_n_pes, translate, team_get_config (a TeamConfig).

Every call here runs on the host and is complete (or, for the _nbi ones,
issued) when it returns: the stream arguments nvshmem4py's calls take are
accepted for its programs' sake and not used.
"""
import enum
import sys
import warnings

from . import _init, _shmem
from ._init import InitStatus, TeamConfig
from ._shmem import (AclshmemError, AclshmemInvalid, SymmetricBuffer,
                     Team)

__all__ = [
    "AclshmemError", "AclshmemInvalid", "ComparisonType", "InitStatus",
    "SignalOp", "SymmetricBuffer", "Team", "TeamConfig", "Teams",
    "alltoall", "array", "atomic_add", "atomic_and", "atomic_compare_swap",
    "atomic_fetch", "atomic_fetch_add", "atomic_fetch_and",
    "atomic_fetch_inc", "atomic_fetch_or", "atomic_fetch_xor",
    "atomic_inc", "atomic_or", "atomic_set", "atomic_swap", "atomic_xor",
    "barrier", "barrier_all", "broadcast", "buffer", "fcollect", "fence",
    "finalize", "free", "free_array", "free_tensor", "get", "get_nbi",
    "get_peer_array", "get_peer_buffer", "get_peer_tensor",
    "get_unique_id", "init", "init_status", "my_pe", "n_pes", "put",
    "put_nbi", "put_signal", "put_signal_nbi", "quiet", "reduce",
    "reducescatter", "signal_op", "signal_wait", "split_2d",
    "split_strided", "sync", "sync_all", "team_destroy", "team_get_config",
    "team_my_pe", "team_n_pes", "team_translate_pe", "tensor", "translate",
]


class Teams(enum.IntEnum):
    """The predefined teams: TEAM_WORLD (every PE of the job; 0, the int
    team id the other calls also take)."""
    TEAM_WORLD = 0


class SignalOp(enum.IntEnum):
    """How put_signal and signal_op update the signal word."""
    SIGNAL_SET = _shmem.SignalOp.SET
    SIGNAL_ADD = _shmem.SignalOp.ADD


class ComparisonType(enum.IntEnum):
    """signal_wait's comparison of the signal word with signal_val."""
    CMP_EQ = _shmem.CmpOp.EQ
    CMP_NE = _shmem.CmpOp.NE
    CMP_GT = _shmem.CmpOp.GT
    CMP_GE = _shmem.CmpOp.GE
    CMP_LT = _shmem.CmpOp.LT
    CMP_LE = _shmem.CmpOp.LE


# ---- setup -----------------------------------------------------------------

def init(device=None, uid=None, rank=None, nranks=None, mem_size=0,
         initializer_method=None):
    """Initialize the runtime (collective).

    With uid (the bytes of get_unique_id() on rank 0), rank and nranks:
    the processes form the job themselves. Without: the launcher's job
    (zeshrun, mpirun, python3 -m shmem.run; a lone process is a job of
    one PE). initializer_method: None, "uid" (needs uid) or "mpi" /
    "emulated_mpi" (the launcher's job). mem_size: the symmetric heap in
    bytes (0: the runtime's default; the heap grows when an allocation
    does not fit). device: accepted for nvshmem4py's programs; the heap is
    on this PE's Level Zero device. A second init is a no-op. Raises
    AclshmemError when the job cannot be formed."""
    if initializer_method not in (None, "uid", "mpi", "emulated_mpi"):
        raise AclshmemInvalid("init: initializer_method %r is not 'uid', "
                              "'mpi' or 'emulated_mpi'" %
                              (initializer_method,))
    if initializer_method == "uid" and uid is None:
        raise AclshmemInvalid("init: initializer_method 'uid' needs uid, "
                              "rank and nranks")
    if uid is not None:
        if rank is None or nranks is None:
            raise AclshmemInvalid("init: uid needs rank and nranks (rank "
                                  "%r, nranks %r)" % (rank, nranks))
        rc = _init.aclshmem_init_using_unique_id(rank, nranks, mem_size,
                                                 uid)
    else:
        if rank is not None or nranks is not None:
            raise AclshmemInvalid("init: rank %r / nranks %r without uid: "
                                  "the launcher gives them" % (rank, nranks))
        rc = _init.aclshmem_init(_init.InitAttr(mem_size))
    if rc != 0:
        raise AclshmemError("init: the runtime could not start (error %d; "
                            "see stderr)" % int(rc))


def get_unique_id(empty=False):
    """The bytes rank 0 makes for init(uid=...) (it then serves the
    others' start); empty=True: zero bytes of the same length (what the
    other ranks pass to a broadcast that fills them)."""
    if empty:
        return bytes(128)
    return _shmem.aclshmem_get_unique_id()


def init_status():
    """InitStatus.NOT_INITIALIZED before init and after finalize,
    InitStatus.INITIALIZED in between."""
    return _init.aclshmemx_init_status()


def finalize():
    """Finalize the runtime (collective). Allocations not freed are
    reported first (a RuntimeWarning listing them); arrays and tensors
    still made become read-only / empty (see shmem.aclshmem_finalize)."""
    if _shmem._init_state() == 0:
        return
    leaks = _shmem._live_allocations()
    if leaks:
        lines = []
        for p, kind, o in sorted(leaks, key=lambda x: x[0]):
            lines.append("  %s %s at %#x" % (kind, _describe(kind, o), p))
        msg = ("shmem.core.finalize: %d allocation(s) not freed (PE %d):\n"
               % (len(leaks), _shmem.my_pe())) + "\n".join(lines)
        warnings.warn(msg, RuntimeWarning, stacklevel=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        _shmem.aclshmem_finalize()


def _describe(kind, o):
    if kind == "buffer":
        return "of %d bytes" % o.nbytes
    return "%s %s" % (tuple(o.shape), o.dtype)


def my_pe():
    """This process's PE number."""
    return _shmem.my_pe()


def n_pes():
    """The number of PEs of the job."""
    return _shmem.pe_count()


def team_my_pe(team):
    """This PE's number in team (Teams.TEAM_WORLD, 0 or a Team)."""
    return _shmem.team_my_pe(team)


def team_n_pes(team):
    """The number of PEs of team."""
    return _shmem.team_n_pes(team)


# ---- what an object is -----------------------------------------------------

_TORCH_CODES = {}


def _torch_code(torch, dt):
    if not _TORCH_CODES:
        for name, code in (("bool", "b1"), ("int8", "i1"), ("int16", "i2"),
                           ("int32", "i4"), ("int64", "i8"),
                           ("uint8", "u1"), ("uint16", "u2"),
                           ("uint32", "u4"), ("uint64", "u8"),
                           ("float16", "f2"), ("bfloat16", "bf2"),
                           ("float32", "f4"), ("float64", "f8"),
                           ("complex64", "c8"), ("complex128", "c16")):
            if hasattr(torch, name):
                _TORCH_CODES[getattr(torch, name)] = code
    return _TORCH_CODES.get(dt)


def _info(fn, what, obj):
    """(kind, ptr, nbytes, code, numel) of a buffer, a numpy array or a
    torch tensor (C-contiguous, on the CPU)."""
    if isinstance(obj, SymmetricBuffer):
        return "buffer", obj.ptr, obj.nbytes, "u1", obj.nbytes
    np = sys.modules.get("numpy")
    if np is not None and isinstance(obj, np.ndarray):
        if not obj.flags.c_contiguous:
            raise AclshmemInvalid("%s: %s is not C-contiguous (use "
                                  "numpy.ascontiguousarray)" % (fn, what))
        dt = obj.dtype
        if dt.kind not in "biufc" or dt.byteorder == ">":
            raise TypeError("%s: %s has dtype %s (numbers of this machine's "
                            "byte order only)" % (fn, what, dt))
        code = "b1" if dt.kind == "b" else dt.kind + str(dt.itemsize)
        return ("array", obj.__array_interface__["data"][0], obj.nbytes,
                code, obj.size)
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(obj, torch.Tensor):
        if obj.device.type != "cpu":
            raise AclshmemInvalid("%s: %s is on %s: symmetric memory is "
                                  "host memory (a CPU tensor)" %
                                  (fn, what, obj.device))
        if not obj.is_contiguous():
            raise AclshmemInvalid("%s: %s is not contiguous (use "
                                  ".contiguous())" % (fn, what))
        code = _torch_code(torch, obj.dtype)
        if code is None:
            raise TypeError("%s: %s has dtype %s, not a number type" %
                            (fn, what, obj.dtype))
        n = obj.numel()
        return "tensor", obj.data_ptr(), n * obj.element_size(), code, n
    raise TypeError("%s: %s must be a shmem SymmetricBuffer, a numpy array "
                    "or a torch tensor, not %s" %
                    (fn, what, type(obj).__name__))


_shmem._set_core_info(_info)


# ---- memory ----------------------------------------------------------------

def buffer(size):
    """A SymmetricBuffer of size new bytes of symmetric memory
    (collective: every PE the same size). Free it with free()."""
    return _shmem._core_buffer(size)


def array(shape, dtype="float32"):
    """A numpy array of shape and dtype over new symmetric memory
    (collective). Free it with free()."""
    return _shmem._core_array(shape, dtype)


def tensor(shape, dtype=None):
    """A CPU torch tensor of shape and dtype (default torch.float32) over
    new symmetric memory (collective). Free it with free()."""
    if dtype is None:
        import torch
        dtype = torch.float32
    return _shmem._core_tensor(shape, dtype)


def free(obj):
    """Free a buffer, array or tensor made by buffer / array / tensor
    (collective). ValueError for anything else, a view of one, or a second
    free. Afterwards a buffer refuses new views, an array is read-only and
    a tensor is empty."""
    kind, ptr, _, _, _ = _info("free", "obj", obj)
    _shmem._core_free(obj, kind, ptr)


free_array = free
free_tensor = free


def get_peer_buffer(buf, pe):
    """A SymmetricBuffer over pe's copy of buf (loads and stores, no
    copy). ValueError for a PE on another node."""
    if not isinstance(buf, SymmetricBuffer):
        raise TypeError("get_peer_buffer: buf must be a SymmetricBuffer, "
                        "not %s" % type(buf).__name__)
    return _shmem._peer_buffer(buf.ptr, buf.nbytes, pe)


def get_peer_array(arr, pe):
    """A numpy array over pe's copy of the symmetric array arr (same shape
    and dtype; loads and stores, no copy). ValueError for a PE on another
    node."""
    kind, ptr, nbytes, _, _ = _info("get_peer_array", "arr", arr)
    if kind != "array":
        raise TypeError("get_peer_array: arr must be a numpy array")
    import numpy as np
    b = _shmem._peer_buffer(ptr, nbytes, pe, "get_peer_array")
    return np.frombuffer(b, arr.dtype, arr.size).reshape(arr.shape)


def get_peer_tensor(t, pe):
    """A CPU tensor over pe's copy of the symmetric tensor t (same shape
    and dtype; loads and stores, no copy). ValueError for a PE on another
    node."""
    kind, ptr, nbytes, _, n = _info("get_peer_tensor", "t", t)
    if kind != "tensor":
        raise TypeError("get_peer_tensor: t must be a torch.Tensor")
    import torch
    b = _shmem._peer_buffer(ptr, nbytes, pe, "get_peer_tensor")
    return torch.frombuffer(b, dtype=t.dtype, count=n).view(t.shape)


# ---- RMA and signals -------------------------------------------------------

def _two(fn, dst, src):
    d = _info(fn, "dst", dst)
    s = _info(fn, "src", src)
    if d[2] != s[2]:
        raise AclshmemInvalid("%s: dst has %d bytes, src %d: they must be "
                              "the same" % (fn, d[2], s[2]))
    return d, s


def put(dst, src, remote_pe, stream=None):
    """Copy the local src into the symmetric dst on remote_pe (the same
    number of bytes; complete on return)."""
    _shmem._core_rma(0, dst, src, remote_pe)


def put_nbi(dst, src, remote_pe, stream=None):
    """put that may complete later: quiet() completes it."""
    _shmem._core_rma(2, dst, src, remote_pe)


def get(dst, src, remote_pe, stream=None):
    """Copy the symmetric src on remote_pe into the local dst."""
    _shmem._core_rma(1, dst, src, remote_pe)


def get_nbi(dst, src, remote_pe, stream=None):
    """get that may complete later: quiet() completes it."""
    _shmem._core_rma(3, dst, src, remote_pe)


def _signal_addr(fn, signal_var):
    k, p, nbytes, code, _ = _info(fn, "signal_var", signal_var)
    if nbytes != 8 or code not in ("u8", "i8", "u1"):
        raise AclshmemInvalid("%s: signal_var must be one 64-bit word (a "
                              "uint64 array or tensor of 1 element, or a "
                              "buffer of 8 bytes), not %d bytes of %s" %
                              (fn, nbytes, code))
    return p


def put_signal(dst, src, signal_var, signal_val, signal_op, remote_pe,
               stream=None):
    """put, then update the signal word signal_var on remote_pe
    (SignalOp.SIGNAL_SET stores signal_val, SIGNAL_ADD adds it): the data
    is there whenever the signal is."""
    d, s = _two("put_signal", dst, src)
    sig = _signal_addr("put_signal", signal_var)
    _shmem._core_put_signal(d[1], s[1], s[2], sig, signal_val, signal_op,
                            remote_pe, False)


def put_signal_nbi(dst, src, signal_var, signal_val, signal_op, remote_pe,
                   stream=None):
    """put_signal that may complete later: quiet() completes it."""
    d, s = _two("put_signal_nbi", dst, src)
    sig = _signal_addr("put_signal_nbi", signal_var)
    _shmem._core_put_signal(d[1], s[1], s[2], sig, signal_val, signal_op,
                            remote_pe, True)


def signal_op(signal_var, signal_val, signal_op, remote_pe, stream=None):
    """Update the signal word signal_var on remote_pe atomically (SET or
    ADD signal_val)."""
    sig = _signal_addr("signal_op", signal_var)
    _shmem._signal_op(sig, signal_val, signal_op, remote_pe)


def signal_wait(signal_var, signal_val, cmp=ComparisonType.CMP_EQ,
                stream=None):
    """Wait until this PE's signal word signal_var compares to signal_val
    as cmp says (a ComparisonType); returns the word's value then.
    Ctrl-C raises KeyboardInterrupt; a PE of the job that ended raises
    AclshmemError."""
    sig = _signal_addr("signal_wait", signal_var)
    return _shmem._signal_wait(sig, cmp, signal_val)


def quiet(stream=None):
    """Complete every put, get and signal this PE issued."""
    _shmem.aclshmem_quiet()


def fence(stream=None):
    """Order this PE's puts and signals to each PE."""
    _shmem.aclshmem_fence()


# ---- synchronization -------------------------------------------------------

def barrier(team, stream=None):
    """Complete this PE's puts (quiet), then wait for every PE of team."""
    _shmem.aclshmem_quiet()
    _shmem._team_sync(team)


def sync(team, stream=None):
    """Wait for every PE of team (no quiet)."""
    _shmem._team_sync(team)


def barrier_all(stream=None):
    """barrier of every PE of the job."""
    _shmem.aclshmem_barrier_all()


def sync_all(stream=None):
    """sync of every PE of the job."""
    _shmem._team_sync(0)


# ---- collectives -----------------------------------------------------------

_OPS = ("sum", "prod", "min", "max", "and", "or", "xor")


def _ufunc(kind, op):
    """The elementwise function of op for numpy arrays or torch tensors
    (buffers: as uint8 arrays)."""
    if kind == "tensor":
        import torch
        return {"sum": torch.add, "prod": torch.mul,
                "min": torch.minimum, "max": torch.maximum,
                "and": torch.bitwise_and, "or": torch.bitwise_or,
                "xor": torch.bitwise_xor}[op]
    import numpy as np
    return {"sum": np.add, "prod": np.multiply, "min": np.minimum,
            "max": np.maximum, "and": np.bitwise_and, "or": np.bitwise_or,
            "xor": np.bitwise_xor}[op]


def _gather_rows(team, kind, obj, ptr, nbytes, offset=0):
    """Every team PE's nbytes at ptr + offset (obj's symmetric memory), as
    the rows of a local array or tensor of obj's dtype, in team order:
    gets, no symmetric memory (callers sync the team around it)."""
    npes = _shmem.team_n_pes(team)
    if kind == "tensor":
        import torch
        rows = torch.empty((npes, nbytes // obj.element_size()),
                           dtype=obj.dtype)
        dst = rows.data_ptr()
    else:
        import numpy as np
        dt = obj.dtype if kind == "array" else np.dtype(np.uint8)
        rows = np.empty((npes, nbytes // dt.itemsize), dtype=dt)
        dst = rows.__array_interface__["data"][0]
    for i in range(npes):
        pe = _shmem.team_translate_pe(team, i, 0)
        _shmem._get_nocheck(dst + i * nbytes, ptr + offset, nbytes, pe,
                            True)
    _shmem.aclshmem_quiet()
    return rows


def _combine(kind, op, rows):
    """op over the rows, in order, with the dtype's own arithmetic."""
    f = _ufunc(kind, op)
    acc = rows[0]
    for i in range(1, len(rows)):
        acc = f(acc, rows[i])
    return acc


def _flat(kind, obj):
    if kind == "tensor":
        return obj.view(-1)
    if kind == "array":
        return obj.reshape(-1)
    import numpy as np
    return np.frombuffer(obj, np.uint8)


def _check_op(fn, op, code):
    if op not in _OPS:
        raise AclshmemInvalid("%s: op %r is not one of %s" %
                              (fn, op, ", ".join(_OPS)))
    if op in ("and", "or", "xor") and code[0] not in "iub":
        raise TypeError("%s: op %r needs an integer or bool dtype, not %s"
                        % (fn, op, code))
    if op in ("min", "max") and code[0] == "c":
        raise TypeError("%s: op %r: complex numbers have no order" %
                        (fn, op))


def _reduce_into(fn, team, dkind, dst, dptr, skind, src, sptr, code, n,
                 op):
    """dst (symmetric, n elements) = op over team of src (symmetric, n
    elements): libzeshmem's typed reduction where it has one, else every
    team PE's src fetched (gets) and combined here in team order, with the
    dtype's own arithmetic (numpy's or torch's)."""
    if _shmem._reduce(team, op, code, dptr, sptr, n):
        return
    nbytes = _info(fn, "src", src)[2]
    _shmem._team_sync(team)           # every source is ready
    acc = _combine(skind, op, _gather_rows(team, skind, src, sptr, nbytes))
    _shmem._team_sync(team)           # every PE read them (dst may be src)
    _store(dkind, dst, acc)


def _store(kind, obj, acc):
    out = _flat(kind, obj)
    if kind == "tensor":
        out.copy_(acc)
    else:
        out[:] = acc


def reduce(team, dst, src, op, stream=None):
    """dst = op(src of every PE of team), elementwise, on every PE of
    team (an all-reduce; collective). op: "sum", "prod", "min", "max",
    "and", "or", "xor". dst and src: symmetric, the same dtype and size
    (dst may be src)."""
    fn = "reduce"
    d, s = _two(fn, dst, src)
    if d[3] != s[3]:
        raise TypeError("%s: dst is %s, src %s: the same dtype" %
                        (fn, d[3], s[3]))
    _check_op(fn, op, s[3])
    _reduce_into(fn, team, d[0], dst, d[1], s[0], src, s[1], s[3], s[4], op)


def reducescatter(team, dst, src, op, stream=None):
    """Block i (of n_pes(team) equal blocks) of op(src of every PE) goes
    to PE i of team's dst (collective). dst has src's dtype and 1/n_pes of
    its elements."""
    fn = "reducescatter"
    d = _info(fn, "dst", dst)
    s = _info(fn, "src", src)
    npes = _shmem.team_n_pes(team)
    if d[3] != s[3]:
        raise TypeError("%s: dst is %s, src %s: the same dtype" %
                        (fn, d[3], s[3]))
    if d[4] * npes != s[4]:
        raise AclshmemInvalid("%s: src has %d elements, dst %d: src must "
                              "have n_pes (%d) times dst's" %
                              (fn, s[4], d[4], npes))
    _check_op(fn, op, s[3])
    me = _shmem.team_my_pe(team)
    block = d[2]
    _shmem._team_sync(team)
    acc = _combine(s[0], op, _gather_rows(team, s[0], src, s[1], block,
                                          me * block))
    _shmem._team_sync(team)
    _store(d[0], dst, acc)


def fcollect(team, dst, src, stream=None):
    """All-gather: dst (n_pes(team) times src's bytes) holds every PE's
    src in team order, on every PE of team (collective)."""
    fn = "fcollect"
    d = _info(fn, "dst", dst)
    s = _info(fn, "src", src)
    npes = _shmem.team_n_pes(team)
    if d[2] != s[2] * npes:
        raise AclshmemInvalid("%s: dst has %d bytes, src %d: dst must have "
                              "n_pes (%d) times src's" %
                              (fn, d[2], s[2], npes))
    _shmem._fcollect(team, d[1], s[1], s[2])


def alltoall(team, dst, src, stream=None):
    """Block j of src (n_pes(team) equal blocks) goes to PE j of team, as
    block i of its dst (i: this PE's number in team). dst and src have
    the same size (collective)."""
    fn = "alltoall"
    d, s = _two(fn, dst, src)
    npes = _shmem.team_n_pes(team)
    if s[4] % npes:
        raise AclshmemInvalid("%s: %d elements do not split into %d equal "
                              "blocks" % (fn, s[4], npes))
    _shmem._alltoall(team, d[1], s[1], s[2] // npes)


def broadcast(team, dst, src, root=0, stream=None):
    """dst on every PE of team = src of root (root: a PE number in team;
    collective)."""
    d, s = _two("broadcast", dst, src)
    _shmem._broadcast(team, d[1], s[1], s[2], root)


# ---- atomics ---------------------------------------------------------------

def _elem(fn, obj, index):
    kind, ptr, nbytes, code, n = _info(fn, "dst", obj)
    if kind == "buffer":
        raise TypeError("%s: atomics work on an element of a symmetric "
                        "array or tensor (a buffer has no dtype)" % fn)
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError("%s: index must be an int, not %s" %
                        (fn, type(index).__name__))
    if not 0 <= index < n:
        raise AclshmemInvalid("%s: index %d is out of range (%d elements)"
                              % (fn, index, n))
    return code, ptr + index * (nbytes // n)


def _amo(op, fn, dst, pe, index, value=0, cond=0):
    code, p = _elem(fn, dst, index)
    return _shmem._atomic(op, code, p, pe, value, cond)


def atomic_fetch(src, pe, index=0):
    """The value of element index of the symmetric src on pe (atomic)."""
    return _amo("fetch", "atomic_fetch", src, pe, index)


def atomic_set(dst, value, pe, index=0):
    """Store value into element index of dst on pe (atomic)."""
    _amo("set", "atomic_set", dst, pe, index, value)


def atomic_swap(dst, value, pe, index=0):
    """Store value into element index of dst on pe; returns the old
    value."""
    return _amo("swap", "atomic_swap", dst, pe, index, value)


def atomic_compare_swap(dst, cond, value, pe, index=0):
    """Store value into element index of dst on pe if it equals cond;
    returns the old value."""
    return _amo("compare_swap", "atomic_compare_swap", dst, pe, index,
                value, cond)


def atomic_fetch_add(dst, value, pe, index=0):
    """Add value to element index of dst on pe; returns the old value."""
    return _amo("fetch_add", "atomic_fetch_add", dst, pe, index, value)


def atomic_add(dst, value, pe, index=0):
    """Add value to element index of dst on pe."""
    _amo("fetch_add", "atomic_add", dst, pe, index, value)


def atomic_fetch_inc(dst, pe, index=0):
    """Add 1 to element index of dst on pe; returns the old value."""
    return _amo("fetch_add", "atomic_fetch_inc", dst, pe, index, 1)


def atomic_inc(dst, pe, index=0):
    """Add 1 to element index of dst on pe."""
    _amo("fetch_add", "atomic_inc", dst, pe, index, 1)


def atomic_fetch_and(dst, value, pe, index=0):
    """AND value into element index of dst on pe; returns the old
    value."""
    return _amo("fetch_and", "atomic_fetch_and", dst, pe, index, value)


def atomic_and(dst, value, pe, index=0):
    """AND value into element index of dst on pe."""
    _amo("fetch_and", "atomic_and", dst, pe, index, value)


def atomic_fetch_or(dst, value, pe, index=0):
    """OR value into element index of dst on pe; returns the old value."""
    return _amo("fetch_or", "atomic_fetch_or", dst, pe, index, value)


def atomic_or(dst, value, pe, index=0):
    """OR value into element index of dst on pe."""
    _amo("fetch_or", "atomic_or", dst, pe, index, value)


def atomic_fetch_xor(dst, value, pe, index=0):
    """XOR value into element index of dst on pe; returns the old
    value."""
    return _amo("fetch_xor", "atomic_fetch_xor", dst, pe, index, value)


def atomic_xor(dst, value, pe, index=0):
    """XOR value into element index of dst on pe."""
    _amo("fetch_xor", "atomic_xor", dst, pe, index, value)


# ---- teams -----------------------------------------------------------------

def split_strided(parent_team, start, stride, size, config=None,
                  config_mask=0):
    """A team of size PEs of parent_team: start, start + stride, ...
    (collective over parent_team); None on a PE outside it. config (a
    TeamConfig) is accepted; teams here have no contexts of their own."""
    return _shmem.team_split_strided(start, stride, size, parent_team)


def split_2d(parent_team, xrange, xaxis_config=None, xaxis_mask=0,
             yaxis_config=None, yaxis_mask=0):
    """(x-axis team, y-axis team): parent_team as a grid of rows of xrange
    PEs; this PE's row and column (collective over parent_team)."""
    return _shmem._team_split_2d(parent_team, xrange)


def translate(src_team, src_pe, dest_team):
    """The number in dest_team of PE src_pe of src_team, -1 when it is not
    in dest_team."""
    return _shmem.team_translate_pe(src_team, src_pe, dest_team)


team_translate_pe = translate


def team_get_config(team):
    """team's TeamConfig."""
    return _init.aclshmem_team_get_config(team)


def team_destroy(team):
    """Destroy a team made by split_strided / split_2d (collective over
    it)."""
    _shmem.team_destroy(team)
