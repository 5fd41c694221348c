# SPDX-License-Identifier: MIT
"""One PE of a test job of shmem.core (tests/python/test_core.py).

usage: core_cases.py CASE              (a PE of zeshrun, or alone)
       core_cases.py uid N CASE        (rank 0 of a unique-id job: prints
                                        the uid in hex, then runs CASE)
       core_cases.py uid RANK N HEX CASE  (another rank of that job)

Every check is an assert with exact values; the collectives are checked
against numpy's (or torch's) own result of the same operation on every
PE's data, computed here in team order. The last line of a PE that passed
is "PE <me>: CASE ok".
"""
import functools
import sys
import warnings

import numpy as np

import shmem
import shmem.core as shm

MEM = 32 << 20

try:
    import torch
except ImportError:
    torch = None

NP_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16",
             "uint32", "uint64", "float16", "float32", "float64",
             "complex64", "complex128", "bool"]
OPS = ["sum", "prod", "min", "max", "and", "or", "xor"]
UFUNC = {"sum": np.add, "prod": np.multiply, "min": np.minimum,
         "max": np.maximum, "and": np.bitwise_and, "or": np.bitwise_or,
         "xor": np.bitwise_xor}


def raises(exc, text, fn, *args, **kw):
    try:
        fn(*args, **kw)
    except exc as e:
        assert text in str(e), "%r not in %r" % (text, str(e))
        return e
    raise AssertionError("%s%r did not raise %s" % (fn.__name__, args,
                                                   exc.__name__))


def ops_of(dt):
    """The reductions dtype dt has."""
    k = np.dtype(dt).kind
    if k in "iub":
        return OPS
    if k == "c":
        return ["sum", "prod"]
    return ["sum", "prod", "min", "max"]


def data(dt, pe, op, count):
    """PE pe's source of op: small values whose reductions are exact in
    every dtype (no rounding, no overflow), different on every PE."""
    i = np.arange(count)
    if op in ("and", "or", "xor"):
        v = ((1 << (pe % 7)) | (i * 5)) & 0x7f
        if np.dtype(dt).kind == "b":
            return ((v + pe) % 2).astype(dt)
        return v.astype(dt)
    v = (i + pe) % 3 + 1                  # 1 .. 3
    k = np.dtype(dt).kind
    if k == "i":
        v = v - 2 * (pe % 2)              # -1 .. 3
    if k == "f":
        return (v * 0.5).astype(dt)
    if k == "c":
        return (v * 0.5 + 1j * ((i + 2 * pe) % 2)).astype(dt)
    if k == "b":
        return ((i + pe) % 2).astype(dt)
    return v.astype(dt)


def want(dt, op, pes, count):
    """numpy's own reduction of the PEs' data, in team order."""
    return functools.reduce(UFUNC[op], [data(dt, p, op, count)
                                        for p in pes])


def same(a, b):
    """Exactly equal, values and dtype."""
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, b.dtype,
                                                       a.shape, b.shape)
    assert a.tobytes() == b.tobytes(), (a, b)


# ---- memory and peer views -------------------------------------------------

def case_alloc(me, n):
    right, left = (me + 1) % n, (me - 1) % n
    a = shm.array((3, 4), dtype="int32")
    assert a.shape == (3, 4) and a.dtype == np.int32
    a[:] = np.arange(12).reshape(3, 4) + 100 * me
    b = shm.buffer(64)
    assert isinstance(b, shm.SymmetricBuffer) and len(b) == 64
    bv = np.frombuffer(b, np.uint8)
    bv[:] = me
    shm.barrier_all()
    for pe in range(n):
        v = shm.get_peer_array(a, pe)
        same(v, (np.arange(12).reshape(3, 4) + 100 * pe).astype(np.int32))
        pb = shm.get_peer_buffer(b, pe)
        assert bytes(memoryview(pb)) == bytes([pe]) * 64
    shm.barrier_all()
    # a store through the view lands in the peer's array
    shm.get_peer_array(a, right)[0, 0] = -me
    shm.barrier_all()
    assert a[0, 0] == -left
    # DLPack: numpy and torch take the buffer, no copy
    assert b.__dlpack_device__() == (1, 0)
    d = np.from_dlpack(b)
    assert d.dtype == np.uint8 and d.shape == (64,)
    assert d.__array_interface__["data"][0] == b.ptr
    bv[5] = 77
    assert d[5] == 77
    raises(ValueError, "stream", b.__dlpack__, stream=1)
    if torch is not None:
        t = torch.from_dlpack(b)
        assert t.dtype == torch.uint8 and t.data_ptr() == b.ptr
        t[6] = 78
        assert bv[6] == 78
        del t
    del d
    if torch is not None:
        for dt in (torch.float32, torch.bfloat16, torch.int64, torch.bool):
            t = shm.tensor((2, 3), dtype=dt)
            assert t.shape == (2, 3) and t.dtype == dt
            t.copy_((torch.arange(6).reshape(2, 3) + me) % 2 == 1
                    if dt == torch.bool else
                    (torch.arange(6).reshape(2, 3) + me).to(dt))
            shm.barrier_all()
            for pe in range(n):
                pt = shm.get_peer_tensor(t, pe)
                w = (torch.arange(6).reshape(2, 3) + pe)
                w = (w % 2 == 1) if dt == torch.bool else w.to(dt)
                assert pt.dtype == dt and torch.equal(pt, w), (pt, w)
                del pt
            shm.barrier_all()
            shm.free(t)
            assert t.numel() == 0
    # errors: off the job, wrong objects, double and foreign frees
    raises(ValueError, "pe %d is out of range" % n, shm.get_peer_array, a, n)
    raises(ValueError, "not inside the symmetric heap", shm.get_peer_array,
           np.zeros(4), 0)
    raises(TypeError, "must be a SymmetricBuffer", shm.get_peer_buffer,
           bytearray(4), 0)
    raises(ValueError, "not C-contiguous", shm.get_peer_array, a[:, 1], 0)
    raises(ValueError, "not made by", shm.free, np.zeros(4))
    raises(ValueError, "not that object", shm.free, a.reshape(-1))
    raises(ValueError, "not made by", shm.free, a[1:])
    raises(TypeError, "must be a shmem SymmetricBuffer", shm.free, [1])
    shm.free(a)
    raises(ValueError, "read-only", a.__setitem__, (0, 0), 1)
    e = raises(ValueError, "freed already", shm.free, a)
    assert isinstance(e, shm.AclshmemInvalid)
    shm.free(b)
    raises(ValueError, "freed by shmem.core.free", memoryview, b)
    raises(ValueError, "freed already", shm.free, b)
    # aclshmem_malloc's addresses: a second free raises ValueError too
    p = shmem.aclshmem_malloc(64)
    shmem.aclshmem_free(p)
    e = raises(ValueError, "freed twice?", shmem.aclshmem_free, p)
    assert "%#x" % p in str(e), str(e)
    # the leak report at finalize names what was not freed
    keep = shm.array((5,), dtype="float64")
    kb = shm.buffer(24)
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        shm.finalize()
    msgs = [str(w.message) for w in ws]
    assert len(msgs) == 1, msgs
    assert "2 allocation(s) not freed (PE %d)" % me in msgs[0], msgs
    assert "array (5,) float64 at %#x" % keep.ctypes.data in msgs[0], msgs
    assert "buffer of 24 bytes at %#x" % kb.ptr in msgs[0], msgs
    assert shm.init_status() == shm.InitStatus.NOT_INITIALIZED
    raises(ValueError, "finalized", memoryview, kb)


# ---- RMA and signals -------------------------------------------------------

def case_rma(me, n):
    right, left = (me + 1) % n, (me - 1) % n
    dst = shm.array((256,), dtype="float64")
    sig = shm.array((1,), dtype="uint64")
    dst[:] = -1
    sig[:] = 0
    src = np.arange(256, dtype=np.float64) + 1000 * me
    shm.barrier_all()
    shm.put(dst, src, right)
    shm.barrier_all()
    same(dst, np.arange(256, dtype=np.float64) + 1000 * left)
    back = np.zeros(256)
    shm.get(back, dst, right)
    same(back, np.arange(256, dtype=np.float64) + 1000 * me)
    shm.barrier_all()
    shm.put_nbi(dst, src * 2, right)
    shm.quiet()
    shm.barrier_all()
    same(dst, (np.arange(256, dtype=np.float64) + 1000 * left) * 2)
    shm.get_nbi(back, dst, left)
    shm.quiet()
    same(back, (np.arange(256, dtype=np.float64) +
                1000 * ((left - 1) % n)) * 2)
    shm.barrier_all()
    # put with signal: the data is there when the signal is
    shm.put_signal(dst, src + 7, sig, me + 1, shm.SignalOp.SIGNAL_SET,
                   right)
    got = shm.signal_wait(sig, left + 1, shm.ComparisonType.CMP_EQ)
    assert got == left + 1, got
    same(dst, np.arange(256, dtype=np.float64) + 1000 * left + 7)
    shm.barrier_all()
    sig[:] = 0
    shm.barrier_all()
    # signal_op ADD from every PE to PE 0
    shm.signal_op(sig, me + 1, shm.SignalOp.SIGNAL_ADD, 0)
    if me == 0:
        total = n * (n + 1) // 2
        assert shm.signal_wait(sig, total, shm.ComparisonType.CMP_GE) == \
            total
    shm.barrier_all()
    if me == 0:
        assert sig[0] == n * (n + 1) // 2
    shm.fence()
    # tensors
    if torch is not None:
        t = shm.tensor((64,), dtype=torch.int16)
        t.zero_()
        shm.barrier_all()
        shm.put(t, torch.arange(64, dtype=torch.int16) * (me + 1), right)
        shm.barrier_all()
        assert torch.equal(t, torch.arange(64, dtype=torch.int16) *
                           (left + 1))
        r = torch.empty(64, dtype=torch.int16)
        shm.get(r, t, left)
        assert torch.equal(r, torch.arange(64, dtype=torch.int16) *
                           (((left - 1) % n) + 1))
        shm.barrier_all()
        shm.free(t)
    # errors
    raises(ValueError, "dst has 2048 bytes, src 8", shm.put, dst,
           np.zeros(1), right)
    raises(ValueError, "not inside the symmetric heap", shm.put,
           np.zeros(256), src, right)
    raises(ValueError, "pe %d is out of range" % n, shm.put, dst, src, n)
    raises(ValueError, "one 64-bit word", shm.signal_op, dst, 1, 0, 0)
    raises(ValueError, "signal_op 5", shm.signal_op, sig, 1, 5, 0)
    raises(TypeError, "must be a shmem SymmetricBuffer", shm.put, [1.0],
           src, 0)
    shm.barrier_all()
    shm.free(dst)
    shm.free(sig)
    shm.finalize()


# ---- collectives -----------------------------------------------------------

def check_reduce(team, pes, tpe, count=7):
    """Every dtype and op over team (None: this PE is not in it, but
    allocates with the others: allocations are collective over the
    world)."""
    for dt in NP_DTYPES:
        for op in ops_of(dt):
            src = shm.array((count,), dtype=dt)
            dst = shm.array((count,), dtype=dt)
            bsrc = shm.array((2 * len(pes),), dtype=dt)
            bdst = shm.array((2,), dtype=dt)
            if team is not None:
                src[:] = data(dt, pes[tpe], op, count)
                shm.reduce(team, dst, src, op)
                same(dst, want(dt, op, pes, count))
                # in place
                shm.reduce(team, src, src, op)
                same(src, want(dt, op, pes, count))
                # reducescatter of the same op (blocks of 2)
                big = np.concatenate([data(dt, pes[tpe], op, count)] *
                                     len(pes))
                bsrc[:] = big[:2 * len(pes)]
                shm.reducescatter(team, bdst, bsrc, op)
                w = functools.reduce(UFUNC[op], [
                    np.concatenate([data(dt, p, op, count)] * len(pes))
                    [:2 * len(pes)] for p in pes])
                same(bdst, w[2 * tpe:2 * tpe + 2])
            shm.free(bdst)
            shm.free(bsrc)
            shm.free(dst)
            shm.free(src)
    # ops a dtype lacks
    a = shm.array((4,), dtype="float32")
    c = shm.array((4,), dtype="complex64")
    if team is not None:
        raises(TypeError, "needs an integer or bool dtype", shm.reduce,
               team, a, a, "xor")
        raises(ValueError, "op 'avg'", shm.reduce, team, a, a, "avg")
        raises(TypeError, "no order", shm.reduce, team, c, c, "max")
        raises(TypeError, "the same dtype", shm.reduce, team, a, c[:2],
               "sum")
    shm.free(c)
    shm.free(a)


def case_coll(me, n):
    world = shm.Teams.TEAM_WORLD
    check_reduce(world, list(range(n)), me)
    for dt in NP_DTYPES:
        k = n * 3
        # reducescatter (sum; bool: or)
        src = shm.array((k,), dtype=dt)
        dst = shm.array((3,), dtype=dt)
        src[:] = data(dt, me, "sum", k)
        shm.reducescatter(world, dst, src, "sum")
        same(dst, want(dt, "sum", range(n), k)[me * 3:(me + 1) * 3])
        # fcollect: every PE's src in order
        s3 = shm.array((3,), dtype=dt)
        s3[:] = data(dt, me, "sum", 3)
        shm.fcollect(world, src, s3)
        same(src, np.concatenate([data(dt, p, "sum", 3)
                                  for p in range(n)]))
        # alltoall: block j of PE i's src -> block i of PE j's dst
        a_src = shm.array((k,), dtype=dt)
        a_dst = shm.array((k,), dtype=dt)
        a_src[:] = data(dt, me, "sum", k)
        shm.alltoall(world, a_dst, a_src)
        same(a_dst, np.concatenate([data(dt, p, "sum", k)[me * 3:
                                                          (me + 1) * 3]
                                    for p in range(n)]))
        # broadcast from every root
        for root in range(n):
            s3[:] = data(dt, me, "sum", 3)
            d3 = shm.array((3,), dtype=dt)
            shm.broadcast(world, d3, s3, root)
            same(d3, data(dt, root, "sum", 3))
            shm.free(d3)
        for x in (a_dst, a_src, s3, dst, src):
            shm.free(x)
    x = shm.array((n * 3 + 1,), dtype="int32")
    y = shm.array((3,), dtype="int32")
    raises(ValueError, "src must have n_pes", shm.reducescatter, world, y,
           x, "sum")
    if n > 1:
        raises(ValueError, "dst must have n_pes", shm.fcollect, world, y, y)
        raises(ValueError, "do not split", shm.alltoall, world, x, x)
    raises(ValueError, "root %d is out of range" % n, shm.broadcast, world,
           y, y, n)
    shm.free(y)
    shm.free(x)
    # a team of the even PEs
    ev = shm.split_strided(world, 0, 2, (n + 1) // 2)
    check_reduce(ev, list(range(0, n, 2)), me // 2, count=5)
    if me % 2 == 0:
        assert shm.team_my_pe(ev) == me // 2
        shm.barrier(ev)
        shm.sync(ev)
        shm.team_destroy(ev)
    else:
        assert ev is None
    shm.sync_all()
    shm.barrier_all()
    shm.finalize()


def case_torch_coll(me, n):
    """Every torch dtype (bfloat16 included) against torch's own result
    of the same elementwise operations in team order."""
    world = 0
    tops = {"sum": torch.add, "prod": torch.mul, "min": torch.minimum,
            "max": torch.maximum, "and": torch.bitwise_and,
            "or": torch.bitwise_or, "xor": torch.bitwise_xor}
    dts = [torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8,
           torch.float16, torch.bfloat16, torch.float32, torch.float64,
           torch.complex64, torch.complex128, torch.bool]

    def tdata(dt, pe, op, count):
        npd = {torch.bfloat16: "float32"}.get(dt, str(dt).split(".")[1])
        return torch.from_numpy(data(npd, pe, op, count)).to(dt)

    def ops(dt):
        if dt == torch.bool or not (dt.is_floating_point or dt.is_complex):
            return OPS
        return ["sum", "prod"] if dt.is_complex else OPS[:4]

    for dt in dts:
        for op in ops(dt):
            src = shm.tensor((6,), dtype=dt)
            dst = shm.tensor((6,), dtype=dt)
            src.copy_(tdata(dt, me, op, 6))
            shm.reduce(world, dst, src, op)
            w = functools.reduce(tops[op], [tdata(dt, p, op, 6)
                                            for p in range(n)])
            assert dst.dtype == dt and torch.equal(dst, w), (dt, op, dst, w)
            shm.free(dst)
            shm.free(src)
        src = shm.tensor((n, 2), dtype=dt)
        dst = shm.tensor((n, 2), dtype=dt)
        src.copy_(tdata(dt, me, "sum", 2 * n).view(n, 2))
        shm.alltoall(world, dst, src)
        w = torch.stack([tdata(dt, p, "sum", 2 * n).view(n, 2)[me]
                         for p in range(n)])
        assert torch.equal(dst, w), (dt, dst, w)
        shm.broadcast(world, dst, src, n - 1)
        assert torch.equal(dst, tdata(dt, n - 1, "sum", 2 * n).view(n, 2))
        one = shm.tensor((2,), dtype=dt)
        one.copy_(tdata(dt, me, "sum", 2))
        shm.fcollect(world, dst, one)
        w = torch.stack([tdata(dt, p, "sum", 2) for p in range(n)])
        assert torch.equal(dst, w), (dt, dst, w)
        shm.reducescatter(world, one, src, "sum")
        w = functools.reduce(tops["sum"], [tdata(dt, p, "sum", 2 * n)
                                           for p in range(n)])
        assert torch.equal(one, w[2 * me:2 * me + 2]), (dt, one, w)
        for x in (one, dst, src):
            shm.free(x)
    shm.finalize()


# ---- atomics ---------------------------------------------------------------

def case_amo(me, n):
    for dt in ("int32", "int64", "uint32", "uint64"):
        a = shm.array((4,), dtype=dt)
        a[:] = 0
        shm.barrier_all()
        old = shm.atomic_fetch_add(a, me + 1, 0, index=1)
        shm.atomic_add(a, 2, 0, index=2)
        shm.atomic_inc(a, 0, index=3)
        assert shm.atomic_fetch_inc(a, 0, index=3) >= 1
        shm.barrier_all()
        if me == 0:
            same(a, np.array([0, n * (n + 1) // 2, 2 * n, 2 * n], dtype=dt))
        assert 0 <= old <= n * (n + 1) // 2
        shm.barrier_all()
        # compare_swap: exactly one PE wins the slot
        won = shm.atomic_compare_swap(a, 0, me + 10, 0, index=0) == 0
        shm.barrier_all()
        assert shm.atomic_fetch(a, 0, index=0) in range(10, 10 + n)
        wins = shm.array((1,), dtype="int64")
        wins[:] = 0
        shm.barrier_all()
        if won:
            shm.atomic_fetch_add(wins, 1, 0)
        shm.barrier_all()
        if me == 0:
            assert wins[0] == 1
        shm.free(wins)
        # bitwise: every PE sets its bit on PE n-1
        a[:] = 0
        shm.barrier_all()
        shm.atomic_or(a, 1 << me, n - 1, index=0)
        shm.atomic_fetch_xor(a, 1 << me, n - 1, index=1)
        shm.barrier_all()
        if me == n - 1:
            assert a[0] == (1 << n) - 1 and a[1] == (1 << n) - 1, a
        shm.barrier_all()
        shm.atomic_and(a, ~(1 << me) if dt[0] == "i" else
                       ((1 << 64) - 1) ^ (1 << me), n - 1, index=0)
        shm.barrier_all()
        if me == n - 1:
            assert a[0] == 0, a
        shm.barrier_all()
        shm.free(a)
    for dt in ("float32", "float64"):
        f = shm.array((2,), dtype=dt)
        f[:] = 0.5
        shm.barrier_all()
        if me == 0:
            shm.atomic_set(f, 2.25, n - 1, index=1)
        shm.barrier_all()
        assert shm.atomic_fetch(f, n - 1, index=1) == 2.25
        shm.barrier_all()
        if me == 0:
            assert shm.atomic_swap(f, 1.5, n - 1) == 0.5
        shm.barrier_all()
        raises(TypeError, "only atomic fetch, set and swap",
               shm.atomic_fetch_add, f, 1.0, 0)
        shm.free(f)
    s = shm.array((2,), dtype="int16")
    raises(TypeError, "atomics work on int32", shm.atomic_fetch_add, s, 1,
           0)
    i = shm.array((2,), dtype="int32")
    raises(ValueError, "index 2 is out of range", shm.atomic_fetch, i, 0, 2)
    raises(ValueError, "pe %d is out of range" % n, shm.atomic_fetch, i, n)
    b = shm.buffer(8)
    raises(TypeError, "a buffer has no dtype", shm.atomic_fetch, b, 0)
    shm.free(b)
    shm.free(i)
    shm.free(s)
    shm.finalize()


# ---- teams -----------------------------------------------------------------

def case_teams(me, n):
    w = shm.Teams.TEAM_WORLD
    assert shm.team_my_pe(w) == me and shm.team_n_pes(w) == n
    assert shm.team_my_pe(0) == me
    assert shm.team_get_config(w) == shm.TeamConfig(0)
    odd = shm.split_strided(w, 1, 2, n // 2) if n > 1 else None
    if n > 1 and me % 2 == 1:
        assert shm.team_n_pes(odd) == n // 2
        assert shm.team_my_pe(odd) == me // 2
        assert shm.translate(odd, 0, w) == 1
        assert shm.team_translate_pe(w, me, odd) == me // 2
        shm.barrier(odd)
    elif n > 1:
        assert odd is None
    x, y = shm.split_2d(w, 2)
    assert shm.team_n_pes(x) == min(2, n - (me // 2) * 2)
    assert shm.team_my_pe(x) == me % 2
    assert shm.team_my_pe(y) == me // 2
    assert shm.team_n_pes(y) == (n - me % 2 + 1) // 2
    assert shm.translate(x, 0, w) == (me // 2) * 2
    shm.sync(x)
    shm.barrier(y)
    shm.team_destroy(x)
    shm.team_destroy(y)
    if odd is not None:
        shm.team_destroy(odd)
    raises(ValueError, "destroyed", shm.team_my_pe, x)
    raises(ValueError, "only int team id is 0", shm.team_n_pes, 3)
    raises(ValueError, "cannot be destroyed", shm.team_destroy, w)
    shm.barrier_all()
    shm.finalize()


# ---- PEs on other nodes -----------------------------------------------------

def case_offnode(me, n):
    """Every PE a node of its own (ZESHMEM_FORCE_NETWORK=1): no load/store
    view of a peer, a clear error for one; RMA still reaches it (over
    libfabric)."""
    other = (me + 1) % n
    a = shm.array((4,), dtype="int64")
    a[:] = me
    b = shm.buffer(16)
    p = shmem.aclshmem_malloc(64)
    shm.barrier_all()
    # this PE's own view is itself
    v = shm.get_peer_array(a, me)
    assert v.ctypes.data == a.ctypes.data and list(v) == [me] * 4
    assert shmem.aclshmem_ptr(p, me) == p
    assert shmem.aclshmem_ptr(p, other) == 0
    objs = [(shm.get_peer_array, a), (shm.get_peer_buffer, b)]
    if torch is not None:
        objs.append((shm.get_peer_tensor, shm.tensor((3,),
                                                     dtype=torch.float32)))
    for f, obj in objs:
        e = raises(ValueError, "", f, obj, other)
        assert isinstance(e, shm.AclshmemInvalid)
        assert str(e) == "%s: PE %d is not on this node: its memory has " \
            "no load/store view (use get / put)" % (f.__name__, other), \
            str(e)
    if torch is not None:
        shm.free(objs[2][1])
    # the data path the error points to works
    src = np.arange(4, dtype=np.int64) + 10 * me
    shm.put(a, src, remote_pe=other)
    shm.barrier_all()
    same(a, np.arange(4, dtype=np.int64) + 10 * ((me - 1) % n))
    got = np.zeros(4, dtype=np.int64)
    shm.get(got, a, remote_pe=other)
    same(got, np.arange(4, dtype=np.int64) + 10 * me)
    shm.barrier_all()
    shmem.aclshmem_free(p)
    shm.free(b)
    shm.free(a)
    shm.finalize()


CASES = {"alloc": case_alloc, "rma": case_rma, "coll": case_coll,
         "torch_coll": case_torch_coll, "amo": case_amo,
         "teams": case_teams, "offnode": case_offnode}


def main(argv):
    if argv[1] == "uid":
        if len(argv) == 4:          # rank 0: make the uid, serve the start
            n, case = int(argv[2]), argv[3]
            uid = shm.get_unique_id()
            assert len(uid) == 128 and shm.get_unique_id(empty=True) == \
                bytes(128)
            print("uid %s" % uid.hex(), flush=True)
            rank = 0
        else:
            rank, n, case = int(argv[2]), int(argv[3]), argv[5]
            uid = bytes.fromhex(argv[4])
        assert shm.init_status() == shm.InitStatus.NOT_INITIALIZED
        shm.init(uid=uid, rank=rank, nranks=n, mem_size=MEM)
        assert shm.my_pe() == rank and shm.n_pes() == n
    else:
        case = argv[1]
        raises(ValueError, "rank None / nranks 2 without uid", shm.init,
               nranks=2)
        raises(ValueError, "initializer_method 'x'", shm.init,
               initializer_method="x")
        shm.init(mem_size=MEM)
        shm.init()                      # a second init: a no-op
    assert shm.init_status() == shm.InitStatus.INITIALIZED
    me, n = shm.my_pe(), shm.n_pes()
    CASES[case](me, n)
    print("PE %d: %s ok" % (me, case), flush=True)


if __name__ == "__main__":
    main(sys.argv)
