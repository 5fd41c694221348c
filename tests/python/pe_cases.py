# SPDX-License-Identifier: MIT
"""One PE of a test job of the Python module `shmem` (tests/python).

usage: pe_cases.py CASE            (a PE of zeshrun / mpirun, or alone)
       pe_cases.py uid ROOT_N CASE (rank 0 of a unique-id job: prints the
                                    uid in hex, then runs CASE)
       pe_cases.py uid RANK N HEX CASE  (another rank of that job)

Every check is an assert with exact values; a failure ends the PE with a
traceback and status 1 (zeshrun then ends the job with it). The last line
of a PE that passed is "PE <me>: CASE ok".
"""
import ctypes
import logging
import os
import signal
import sys
import threading
import time

import shmem

MEM = 16 << 20


def resources():
    """This process's open fds and its shared mappings (heaps, pools)."""
    fds = set(os.listdir("/proc/self/fd"))
    with open("/proc/self/maps") as f:
        maps = [ln for ln in f if "memfd:" in ln or "/dev/shm" in ln or
                "zemem" in ln]
    return fds, len(maps)


def init():
    attr = shmem.InitAttr()
    attr.mem_size = MEM
    assert attr.op_engine_type is None
    engine = os.environ.get("PE_CASES_ENGINE")
    if engine:
        attr.op_engine_type = shmem.OpEngineType[engine]
        assert attr.op_engine_type == shmem.OpEngineType[engine]
    level = os.environ.get("PE_CASES_LOG_LEVEL")
    if level:
        shmem.set_log_level(getattr(logging, level))
    assert shmem.aclshmemx_init_status() == \
        shmem.InitStatus.NOT_INITIALIZED
    st = shmem.aclshmem_init(attr)
    # real ACLSHMEM's return: 0 on success, an int with seed 003's fields
    assert st == 0 and type(st) is shmem.InitResult and not st, st
    assert isinstance(st, int) and int(st) == 0
    assert st.status == 0 and st.my_pe == shmem.my_pe()
    assert st.n_pes == shmem.pe_count()
    assert repr(st) == "InitResult(status=0, my_pe=%d, n_pes=%d)" % (
        st.my_pe, st.n_pes), repr(st)
    assert shmem.aclshmemx_init_status() is shmem.InitStatus.INITIALIZED
    return shmem.my_pe(), shmem.pe_count()


def raises(exc, text, fn, *args, **kw):
    try:
        fn(*args, **kw)
    except exc as e:
        assert text in str(e), "%r not in %r" % (text, str(e))
        return e
    raise AssertionError("%s%r did not raise %s" % (fn.__name__, args,
                                                   exc.__name__))


def peek(ptr, n):
    return ctypes.string_at(ptr, n)


def poke(ptr, data):
    ctypes.memmove(ptr, data, len(data))


# ---- every function on 1, 2, 3 PEs --------------------------------------

def case_api(me, n):
    import numpy as np
    assert shmem.aclshmem_info_get_version() == "1.5"
    assert shmem.aclshmem_info_get_name() == "zemem libzeshmem"
    shmem.set_log_level(logging.ERROR)
    shmem.set_log_level(logging.WARNING)
    base = shmem.aclshmemx_get_heap_base()
    assert base != 0
    # malloc / calloc / align / free
    p = shmem.aclshmem_malloc(4096)
    assert p >= base and p % 128 == 0
    z = shmem.aclshmem_calloc(100, 8)
    assert z != 0 and peek(z, 800) == bytes(800)
    a = shmem.aclshmem_align(1 << 16, 1000)
    assert a != 0 and a % (1 << 16) == 0
    assert shmem.aclshmem_malloc(0) == 0
    assert shmem.aclshmem_malloc(1 << 50) == 0   # no room: 0, collectively
    # the same offset on every PE
    offs = np.zeros(n, dtype=np.uint64)
    sym = shmem.aclshmem_calloc(n, 8)
    mine = np.array([p - base], dtype=np.uint64)
    for pe in range(n):
        shmem.aclshmem_putmem(sym + 8 * me, mine.ctypes.data, 8, pe)
    shmem.aclshmem_barrier_all()
    offs = np.frombuffer(shmem.aclshmemx_buffer(sym, 8 * n), np.uint64)
    assert list(offs) == [p - base] * n, list(offs)
    # put / get, blocking and nbi, to every PE
    src = np.arange(512, dtype=np.int64) + 1000 * me
    for pe in range(n):
        off = 8 * me * (512 // n)
        cnt = 512 // n
        shmem.aclshmem_putmem(p + off, src.ctypes.data + off, 8 * cnt, pe)
    shmem.aclshmem_barrier_all()
    got = np.frombuffer(shmem.aclshmemx_buffer(p, 4096), np.int64)
    cnt = 512 // n
    for pe in range(n):
        want = np.arange(pe * cnt, (pe + 1) * cnt) + 1000 * pe
        assert (got[pe * cnt:(pe + 1) * cnt] == want).all(), (pe, got)
    shmem.aclshmem_barrier_all()
    dst = np.zeros(512, dtype=np.int64)
    peer = (me + 1) % n
    shmem.aclshmem_getmem(dst.ctypes.data, p, 4096, peer)
    assert (dst == got).all()       # every PE holds the same array now
    poke(a, bytes([me + 1]) * 1000)
    shmem.aclshmem_barrier_all()
    buf = np.zeros(1000, dtype=np.uint8)
    shmem.aclshmem_getmem_nbi(buf.ctypes.data, a, 1000, peer)
    shmem.aclshmem_quiet()
    assert (buf == peer + 1).all()
    shmem.aclshmem_barrier_all()
    out = np.full(1000, 200 + me, dtype=np.uint8)
    shmem.aclshmem_putmem_nbi(a, out.ctypes.data, 1000, peer)
    shmem.aclshmem_quiet()
    shmem.aclshmem_barrier_all()
    prev = (me - 1) % n
    assert peek(a, 1000) == bytes([200 + prev]) * 1000
    # aclshmem_ptr: a load/store pointer into every node-local PE's heap
    for pe in range(n):
        q = shmem.aclshmem_ptr(p, pe)
        assert q != 0
        if pe == me:
            assert q == p
    shmem.aclshmem_barrier_all()
    poke(shmem.aclshmem_ptr(z + 8 * me, peer), (me + 77).to_bytes(8, "little"))
    shmem.aclshmem_barrier_all()
    assert int.from_bytes(peek(z + 8 * prev, 8), "little") == prev + 77
    # a second init is a no-op: the job, the heap and buffers stay
    keep = shmem.aclshmemx_buffer(p, 16)
    st = shmem.aclshmem_init(shmem.InitAttr())
    assert st == 0 and st.my_pe == me and st.n_pes == n, st
    assert shmem.aclshmemx_get_heap_base() == base
    assert len(memoryview(keep)) == 16
    # teams of the world
    w = shmem.SHMEM_TEAM_WORLD
    assert shmem.team_my_pe(w) == me and shmem.team_n_pes(w) == n
    assert shmem.team_translate_pe(w, n - 1, w) == n - 1
    # numpy arrays in symmetric memory
    arr = shmem.aclshmemx_create_array((n, 16), np.int32)
    arr[:] = me
    shmem.aclshmem_barrier_all()
    back = np.zeros((n, 16), dtype=np.int32)
    shmem.aclshmem_getmem(back.ctypes.data, arr.ctypes.data, arr.nbytes, peer)
    assert (back == peer).all()
    shmem.aclshmem_barrier_all()
    shmem.aclshmemx_free_array(arr)
    for q in (p, z, a, sym):
        shmem.aclshmem_free(q)
    shmem.aclshmem_free(0)
    shmem.aclshmem_barrier_all()
    shmem.aclshmem_finalize()
    assert shmem.aclshmemx_init_status() == 0
    assert shmem.aclshmemx_init_status() is \
        shmem.InitStatus.NOT_INITIALIZED
    shmem.aclshmem_finalize()       # a no-op now
    raises(RuntimeError, "not initialized", shmem.my_pe)
    raises(ValueError, "finalized", memoryview, keep)
    raises(RuntimeError, "not initialized", shmem.team_my_pe, w)
    # The driver keeps what it opened at the first init (its pools), the
    # runtime nothing: a second init/finalize cycle leaves no fd or mapping
    # more than the first.
    after1 = resources()
    assert shmem.aclshmem_init(shmem.InitAttr(mem_size=MEM)) == 0
    q = shmem.aclshmem_malloc(1 << 20)
    assert q != 0
    shmem.aclshmem_barrier_all()
    shmem.aclshmem_free(q)
    shmem.aclshmem_finalize()
    after2 = resources()
    assert after2 == after1, (after2, after1)


# ---- signals -------------------------------------------------------------

def case_signals(me, n):
    import numpy as np
    data = shmem.aclshmem_malloc(1 << 20)
    sig = shmem.aclshmem_calloc(4, 8)
    payload = np.arange(1 << 17, dtype=np.float64) + me
    shmem.aclshmem_barrier_all()
    sigs = np.frombuffer(shmem.aclshmemx_buffer(sig, 32), np.uint64)
    if n == 1:
        # to itself: SET then ADD
        shmem.aclshmemx_putmem_signal(data, payload.ctypes.data, 1 << 20,
                                      sig, 5, shmem.ACLSHMEM_SIGNAL_SET, 0)
        shmem.aclshmem_signal_wait_until(sig, shmem.ACLSHMEM_CMP_EQ, 5)
        shmem.aclshmemx_putmem_signal_nbi(data, payload.ctypes.data, 8,
                                          sig, 3, shmem.ACLSHMEM_SIGNAL_ADD,
                                          0)
        shmem.aclshmem_quiet()
        shmem.aclshmem_signal_wait_until(sig, shmem.ACLSHMEM_CMP_EQ, 8)
        assert sigs[0] == 8
    else:
        # SET: a ring, each PE's data and signal to the next
        nxt, prev = (me + 1) % n, (me - 1) % n
        shmem.aclshmemx_putmem_signal(data, payload.ctypes.data, 1 << 20,
                                      sig, 100 + me,
                                      shmem.ACLSHMEM_SIGNAL_SET, nxt)
        shmem.aclshmem_signal_wait_until(sig, shmem.ACLSHMEM_CMP_EQ,
                                         100 + prev)
        got = np.frombuffer(shmem.aclshmemx_buffer(data, 1 << 20),
                            np.float64)
        assert (got == np.arange(1 << 17) + prev).all()
        # ADD: everybody adds its number + 1 to PE 0's second word
        shmem.aclshmemx_putmem_signal_nbi(data, payload.ctypes.data, 0,
                                          sig + 8, me + 1,
                                          shmem.ACLSHMEM_SIGNAL_ADD, 0)
        shmem.aclshmem_quiet()
        if me == 0:
            total = n * (n + 1) // 2
            shmem.aclshmem_signal_wait_until(sig + 8, shmem.ACLSHMEM_CMP_GE,
                                             total)
            assert sigs[1] == total
    shmem.aclshmem_barrier_all()
    # every comparison, on a word already holding 10
    sigs[2] = 10
    for cmp, val in ((shmem.ACLSHMEM_CMP_EQ, 10), (shmem.ACLSHMEM_CMP_NE, 9),
                     (shmem.ACLSHMEM_CMP_GT, 9), (shmem.ACLSHMEM_CMP_GE, 10),
                     (shmem.ACLSHMEM_CMP_LT, 11), (shmem.ACLSHMEM_CMP_LE, 10)):
        assert shmem.aclshmem_signal_wait_until(sig + 16, cmp, val) is None
    # another thread runs while this one waits (the GIL is released), and
    # it is the one that sets the signal
    ticks = []

    def other():
        t0 = time.monotonic()
        while time.monotonic() - t0 < 0.3:
            ticks.append(1)
            time.sleep(0.01)
        one = np.array([1], dtype=np.uint64)
        shmem.aclshmemx_putmem_signal(data, one.ctypes.data, 8, sig + 24, 1,
                                      shmem.ACLSHMEM_SIGNAL_SET, me)
    th = threading.Thread(target=other)
    th.start()
    shmem.aclshmem_signal_wait_until(sig + 24, shmem.ACLSHMEM_CMP_EQ, 1)
    th.join()
    assert len(ticks) >= 5, len(ticks)
    shmem.aclshmem_barrier_all()
    shmem.aclshmem_free(sig)
    shmem.aclshmem_free(data)
    shmem.aclshmem_finalize()


# ---- teams (the seed's examples) --------------------------------------------

def case_teams(me, n):
    w = shmem.SHMEM_TEAM_WORLD
    # the seed's example: PEs 0, 2, 4, 6 of the world (on 8 PEs); with
    # fewer PEs, the same pattern as far as it goes
    size = min(4, (n + 1) // 2)
    team = shmem.team_split_strided(start=0, stride=2, size=size,
                                    parent_team=shmem.SHMEM_TEAM_WORLD)
    if me % 2 == 0 and me // 2 < size:
        assert team is not None
        assert shmem.team_my_pe(team) == me // 2
        assert shmem.team_n_pes(team) == size
        assert shmem.team_translate_pe(team, shmem.team_my_pe(team), w) == me
        assert shmem.team_translate_pe(w, me, team) == me // 2
        # a put to the team's last PE, named by translation
        import numpy as np
    else:
        assert team is None, team
    if team is not None:
        shmem.team_destroy(team)
        raises(ValueError, "destroyed", shmem.team_my_pe, team)
    # split_2d: rows of 2
    xdim = 2 if n > 1 else 1
    ydim = (n + xdim - 1) // xdim
    xs, ys = [], []
    assert shmem.team_split_2d(xdim, xs, ydim, ys) is None
    assert len(xs) == 1 and len(ys) == 1
    x, y = xs[0], ys[0]
    assert shmem.team_my_pe(x) == me % xdim
    assert shmem.team_n_pes(x) == min(xdim, n - (me // xdim) * xdim)
    assert shmem.team_my_pe(y) == me // xdim
    assert shmem.team_n_pes(y) == len(range(me % xdim, n, xdim))
    assert shmem.team_translate_pe(x, 0, w) == (me // xdim) * xdim
    assert shmem.team_translate_pe(y, 0, w) == me % xdim
    if n >= 3:
        # PE 1 (row 0) is not in PE 2's column-0 team
        if me == 2:
            assert shmem.team_translate_pe(w, 1, y) == -1
    shmem.aclshmem_barrier_all()
    shmem.team_destroy(x)
    shmem.team_destroy(y)
    raises(ValueError, "cannot be destroyed", shmem.team_destroy, w)
    shmem.aclshmem_finalize()


# ---- tensors --------------------------------------------------------------

def case_tensors(me, n):
    import torch
    peer, prev = (me + 1) % n, (me - 1) % n
    dtypes = [torch.float32, torch.float64, torch.float16, torch.bfloat16,
              torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64,
              torch.bool, torch.complex64, torch.complex128]

    def pattern(dt, pe):
        v = torch.arange(32).reshape(4, 8) + 3 * pe
        if dt == torch.bool:
            return (v % 2 == pe % 2)
        if dt.is_complex:
            return (v + 1j * pe).to(dt)
        return (v % 100).to(dt)

    for dt in dtypes:
        t = shmem.aclshmem_create_tensor((4, 8), dtype=dt, device_id=0)
        assert t.dtype == dt and tuple(t.shape) == (4, 8)
        assert t.is_contiguous() and t.device.type == "cpu"
        base = shmem.aclshmemx_get_heap_base()
        assert base <= t.data_ptr()
        t.copy_(pattern(dt, me))
        shmem.aclshmem_barrier_all()
        # read the peer's tensor: its storage is its symmetric memory
        got = torch.empty_like(t)
        nb = t.numel() * t.element_size()
        shmem.aclshmem_getmem(got.data_ptr(), t.data_ptr(), nb, peer)
        assert torch.equal(got, pattern(dt, peer)), (dt, got)
        shmem.aclshmem_barrier_all()
        # write into the peer's: this PE's tensor changes with no copy
        src = pattern(dt, me + 10)
        shmem.aclshmem_putmem(t.data_ptr(), src.data_ptr(), nb, peer)
        shmem.aclshmem_barrier_all()
        assert torch.equal(t, pattern(dt, prev + 10)), (dt, t)
        shmem.aclshmem_barrier_all()
        shmem.aclshmem_free_tensor(t)
    # default dtype float32; a tensor-sized (4 MiB) put
    big = shmem.aclshmem_create_tensor((1024, 1024))
    assert big.dtype == torch.float32
    big.fill_(float(me))
    src = torch.full((1024, 1024), float(me + 100))
    shmem.aclshmem_barrier_all()
    shmem.aclshmem_putmem(big.data_ptr(), src.data_ptr(), 4 << 20, peer)
    shmem.aclshmem_barrier_all()
    assert torch.equal(big, torch.full((1024, 1024), float(prev + 100)))
    shmem.aclshmem_barrier_all()
    shmem.aclshmem_free_tensor(big)
    # a 0-d tensor (one element)
    s = shmem.aclshmem_create_tensor((), dtype=torch.int64)
    assert s.dim() == 0 and s.numel() == 1
    shmem.aclshmem_free_tensor(s)
    shmem.aclshmem_finalize()


def case_misuse(me, n):
    import numpy as np
    import torch
    t = shmem.aclshmem_create_tensor((16,), dtype=torch.int32)
    raises(ValueError, "not made by", shmem.aclshmem_free_tensor,
           torch.zeros(16))
    raises(ValueError, "not made by", shmem.aclshmem_free_tensor, t[1:])
    raises(ValueError, "not that object", shmem.aclshmem_free_tensor,
           t.view(4, 4))
    raises(TypeError, "must be a torch.Tensor", shmem.aclshmem_free_tensor,
           np.zeros(4))
    raises(TypeError, "must be a torch.Tensor", shmem.aclshmem_free_tensor,
           t.data_ptr())
    tp = t.data_ptr()
    shmem.aclshmem_free_tensor(t)
    # the tensor let go of the freed memory: empty, indexing raises
    assert t.numel() == 0 and t.shape == (0,), t.shape
    raises(IndexError, "out of bounds", t.__getitem__, 0)
    raises(ValueError, "not made by", shmem.aclshmem_free_tensor, t)
    assert tp != 0 and t.data_ptr() != tp
    # aclshmem_free refuses the memory of a live tensor (it would dangle)
    u = shmem.aclshmem_create_tensor((8,))
    e = raises(ValueError, "", shmem.aclshmem_free, u.data_ptr())
    assert str(e) == "aclshmem_free: ptr %#x is the memory of a tensor " \
        "made by aclshmem_create_tensor: free it with " \
        "aclshmem_free_tensor" % u.data_ptr(), str(e)
    u.fill_(3)
    assert u.sum().item() == 24
    shmem.aclshmem_free_tensor(u)
    # bad create arguments
    raises(TypeError, "torch.dtype", shmem.aclshmem_create_tensor, (2,),
           dtype=np.float32)
    raises(ValueError, "device_id 1", shmem.aclshmem_create_tensor, (2,),
           device_id=1)
    raises(ValueError, "out of range", shmem.aclshmem_create_tensor, (2,),
           device_id=-1)
    raises(ValueError, "negative", shmem.aclshmem_create_tensor, (2, -1))
    raises(TypeError, "tuple of ints", shmem.aclshmem_create_tensor, "ab")
    raises(TypeError, "must be an int", shmem.aclshmem_create_tensor, (2.5,))
    raises(ValueError, "no elements", shmem.aclshmem_create_tensor, (0, 4))
    raises(ValueError, "too many", shmem.aclshmem_create_tensor,
           (1 << 40, 1 << 40))
    raises(RuntimeError, "no room", shmem.aclshmem_create_tensor,
           (1 << 45,), dtype=torch.uint8)
    # arrays
    a = shmem.aclshmemx_create_array((3, 3), "f8")
    raises(ValueError, "not made by", shmem.aclshmemx_free_array,
           np.zeros(3))
    raises(ValueError, "not that object", shmem.aclshmemx_free_array,
           a.reshape(9))
    raises(TypeError, "not a numpy dtype", shmem.aclshmemx_create_array,
           (3,), object())
    e = raises(ValueError, "", shmem.aclshmem_free, a.ctypes.data)
    assert str(e) == "aclshmem_free: ptr %#x is the memory of an array " \
        "made by aclshmemx_create_array: free it with " \
        "aclshmemx_free_array" % a.ctypes.data, str(e)
    shmem.aclshmemx_free_array(a)
    raises(ValueError, "freed already", shmem.aclshmemx_free_array, a)
    # the freed array is read-only: writes raise (the heap stays mapped,
    # reads do not fault)
    assert not a.flags.writeable
    raises(ValueError, "read-only", a.__setitem__, (0, 0), 1.0)
    # a view over aclshmemx_buffer does not own its memory: the free goes
    # on, the view reads the heap (still mapped) without faulting
    q = shmem.aclshmem_malloc(64)
    mv = memoryview(shmem.aclshmemx_buffer(q, 64))
    shmem.aclshmem_free(q)
    assert len(bytes(mv)) == 64
    mv.release()
    shmem.aclshmem_barrier_all()
    # finalize warns about tensors still allocated; afterwards the
    # module's tensors are empty, its arrays read-only, and every view of
    # symmetric memory reads zeros instead of faulting (it used to be a
    # SIGSEGV)
    keep = shmem.aclshmem_create_tensor((1024,), dtype=torch.int64)
    keep.fill_(7)
    tview = keep[512:]
    arr = shmem.aclshmemx_create_array((4096,), "i8")
    arr[:] = 9
    aview = arr[1:]
    q = shmem.aclshmem_malloc(64)
    mv = memoryview(shmem.aclshmemx_buffer(q, 64))
    ranges = [(keep.data_ptr(), 8192), (arr.ctypes.data, 32768), (q, 64)]
    import warnings
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        shmem.aclshmem_finalize()
    assert any("not freed" in str(x.message) for x in ws), ws
    assert not any("kept mapped" in str(x.message) for x in ws), ws
    assert keep.numel() == 0
    raises(IndexError, "out of bounds", keep.__getitem__, 0)
    assert tview.sum().item() == 0 and tview.numel() == 512
    assert not arr.flags.writeable
    raises(ValueError, "read-only", arr.__setitem__, 0, 1)
    assert int(arr.sum()) == 0 and int(aview.sum()) == 0
    aview[0] = 5   # private memory nobody else uses
    assert bytes(mv) == bytes(64)
    raises(ValueError, "finalized", memoryview, mv.obj)
    # the last views gone (a, freed before, is one too: its memory was
    # given to keep), their stand-in memory is unmapped
    assert int(a.sum()) == 0
    del keep, tview, arr, aview, mv, a
    import gc
    gc.collect()
    with open("/proc/self/maps") as f:
        spans = [tuple(int(x, 16) for x in ln.split()[0].split("-"))
                 for ln in f]
    for lo, n in ranges:
        assert not any(a <= lo < b for a, b in spans), "%#x still mapped" % lo


def case_notorch(me, n):
    """torch cannot be imported: create_tensor raises ImportError, the rest
    works (the module itself never imports torch)."""
    assert sys.modules["torch"] is None
    e = raises(ImportError, "needs torch", shmem.aclshmem_create_tensor,
               (4,))
    assert "python3-torch" in str(e)
    raises(TypeError, "must be a torch.Tensor", shmem.aclshmem_free_tensor,
           [1, 2])
    p = shmem.aclshmem_malloc(64)
    assert p != 0
    shmem.aclshmem_free(p)
    shmem.aclshmem_finalize()


# ---- bad arguments ----------------------------------------------------------

def case_badargs(me, n):
    import numpy as np
    p = shmem.aclshmem_malloc(1024)
    src = np.zeros(1024, dtype=np.uint8)
    s = src.ctypes.data
    base = shmem.aclshmemx_get_heap_base()
    put, get = shmem.aclshmem_putmem, shmem.aclshmem_getmem
    for f in (put, get, shmem.aclshmem_putmem_nbi, shmem.aclshmem_getmem_nbi):
        raises(ValueError, "pe %d is out of range" % n, f, p, s, 8, n)
        raises(ValueError, "pe -1 is out of range", f, p, s, 8, -1)
        raises(ValueError, "negative", f, p, s, -8, 0)
        raises(TypeError, "must be an int", f, p, s, 8.0, 0)
        raises(TypeError, "must be an int", f, p, s, 8, "0")
        raises(TypeError, "missing required argument 'pe'", f, p, s, 8)
        raises(TypeError, "unexpected keyword", f, p, s, 8, pe=0, x=1)
        raises(TypeError, "multiple values", f, p, s, 8, 0, pe=0)
    raises(ValueError, "not inside the symmetric heap", put, s, s, 8, 0)
    raises(ValueError, "not inside the symmetric heap", put, base - 8, s, 8, 0)
    raises(ValueError, "not inside the symmetric heap", get, s, s, 8, 0)
    heap_end = base + (1 << 40)
    raises(ValueError, "not inside the symmetric heap", put, heap_end, s, 8,
           0)
    raises(ValueError, "not inside the symmetric heap", put, p, s, 1 << 40, 0)
    raises(ValueError, "is 0 (NULL)", put, p, 0, 8, 0)
    raises(ValueError, "is 0 (NULL)", get, 0, p, 8, 0)
    put(p, 0, 0, 0)   # 0 bytes: nothing to read
    # the messages carry the real numbers (PyErr_Format has no %llx)
    e = raises(ValueError, "", put, s, s, 8, 0)
    assert str(e).startswith("aclshmem_putmem: dest %#x (8 bytes) is not "
                             "inside the symmetric heap [%#x, 0x"
                             % (s, base)), str(e)
    end = int(str(e).rsplit(", ", 1)[1].rstrip(")"), 16)
    assert end > base, str(e)
    e = raises(ValueError, "", put, p, 2**64 - 4, 8, 0)
    assert str(e) == "aclshmem_putmem: source 0xfffffffffffffffc + 8 bytes " \
        "wraps around", str(e)
    # a local side that is not memory of this process: ValueError, not a
    # dead interpreter (it used to be a SIGSEGV)
    for f in (put, shmem.aclshmem_putmem_nbi):
        e = raises(ValueError, "", f, p, 8, 8, 0)
        assert str(e) == "%s: source 0x8 (8 bytes) is not readable memory " \
            "of this process" % f.__name__, str(e)
    for f in (get, shmem.aclshmem_getmem_nbi):
        e = raises(ValueError, "", f, 4096, p, 64, 0)
        assert str(e) == "%s: dest 0x1000 (64 bytes) is not writable " \
            "memory of this process" % f.__name__, str(e)
    # readable but not writable (the text of libc): a get refuses it
    text = ctypes.cast(ctypes.CDLL(None).printf, ctypes.c_void_p).value
    e = raises(ValueError, "", get, text, p, 8, 0)
    assert str(e) == "aclshmem_getmem: dest %#x (8 bytes) is not writable " \
        "memory of this process" % text, str(e)
    put(p, text, 8, me)   # reading it is fine
    # a range whose first page is fine and a later one is not
    import mmap
    m = mmap.mmap(-1, 2 * mmap.PAGESIZE)
    ma = ctypes.addressof(ctypes.c_char.from_buffer(m))
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    assert libc.mprotect(ma + mmap.PAGESIZE, mmap.PAGESIZE, 0) == 0
    e = raises(ValueError, "", put, p, ma + mmap.PAGESIZE - 8, 16, 0)
    assert str(e) == "aclshmem_putmem: source %#x (16 bytes) is not " \
        "readable memory of this process" % (ma + mmap.PAGESIZE - 8), str(e)
    put(p, ma, mmap.PAGESIZE, me)
    assert libc.mprotect(ma + mmap.PAGESIZE, mmap.PAGESIZE, 3) == 0
    del e
    m.close()
    ps0 = shmem.aclshmemx_putmem_signal
    e = raises(ValueError, "", ps0, p, 8, 8, p + 512, 1, 0, 0)
    assert str(e) == "aclshmemx_putmem_signal: source 0x8 (8 bytes) is not " \
        "readable memory of this process", str(e)
    e = raises(ValueError, "", ps0, p, s, 8, p + 513, 1, 0, 0)
    assert str(e) == "aclshmemx_putmem_signal: sig_addr %#x is not 8-byte " \
        "aligned" % (p + 513), str(e)
    e = raises(ValueError, "", shmem.aclshmem_signal_wait_until, p + 4, 1, 1)
    assert str(e) == "aclshmem_signal_wait_until: sig_addr %#x is not " \
        "8-byte aligned" % (p + 4), str(e)
    b = shmem.aclshmemx_buffer(p, 24)
    assert repr(b) == "<shmem.SymmetricBuffer ptr=%#x nbytes=24>" % p, \
        repr(b)
    del b
    ps = shmem.aclshmemx_putmem_signal
    raises(ValueError, "sig_op 7", ps, p, s, 8, p + 512, 1, 7, 0)
    raises(ValueError, "not 8-byte aligned", ps, p, s, 8, p + 513, 1, 0, 0)
    raises(ValueError, "sig_addr", ps, p, s, 8, s, 1, 0, 0)
    raises(ValueError, "pe 99", ps, p, s, 8, p + 512, 1, 0, 99)
    w = shmem.aclshmem_signal_wait_until
    raises(ValueError, "cmp 0", w, p, 0, 1)
    raises(ValueError, "cmp 7", w, p, 7, 1)
    raises(ValueError, "not 8-byte aligned", w, p + 4, 1, 1)
    raises(ValueError, "not inside the symmetric heap", w, s, 1, 1)
    raises(ValueError, "negative", w, p, 1, -1)
    raises(ValueError, "negative", shmem.aclshmem_malloc, -1)
    raises(TypeError, "must be an int", shmem.aclshmem_malloc, "8")
    raises(ValueError, "negative", shmem.aclshmem_calloc, -1, 8)
    raises(ValueError, "not a power of 2", shmem.aclshmem_align, 3, 64)
    raises(ValueError, "not a power of 2", shmem.aclshmem_align, 0, 64)
    raises(ValueError, "not inside the symmetric heap", shmem.aclshmem_free,
           s)
    raises(ValueError, "pe %d is out of range" % n, shmem.aclshmem_ptr, p, n)
    raises(ValueError, "not inside", shmem.aclshmem_ptr, s, 0)
    raises(ValueError, "not inside", shmem.aclshmemx_buffer, p, 1 << 40)
    raises(TypeError, "shmem.Team", shmem.team_my_pe, None)
    raises(TypeError, "shmem.Team or 0", shmem.team_n_pes, "0")
    # ACLSHMEM's int team ids: 0 is the world team, others are refused
    assert shmem.team_n_pes(0) == n and shmem.team_my_pe(0) == me
    assert shmem.team_translate_pe(0, me, shmem.SHMEM_TEAM_WORLD) == me
    e = raises(shmem.AclshmemInvalid, "team id 3: the only int team id is 0",
               shmem.team_n_pes, 3)
    assert isinstance(e, ValueError)
    assert issubclass(shmem.AclshmemError, RuntimeError)
    # the enums hold the constants' values
    assert shmem.SignalOp.SET == shmem.ACLSHMEM_SIGNAL_SET
    assert shmem.SignalOp.ADD == shmem.ACLSHMEM_SIGNAL_ADD
    for c in ("EQ", "NE", "GT", "GE", "LT", "LE"):
        assert shmem.CmpOp[c] == getattr(shmem, "ACLSHMEM_CMP_" + c)
    # set_log_level by logging's names
    shmem.set_log_level("warning")
    shmem.set_log_level("ERROR")
    raises(ValueError, "level 'loud' is not a logging level name",
           shmem.set_log_level, "loud")
    shmem.set_log_level("WARN")
    # a second free raises (ValueError), naming the address
    d = shmem.aclshmem_malloc(64)
    shmem.aclshmem_free(d)
    raises(shmem.AclshmemInvalid, "ptr %s is not a live allocation" %
           hex(d), shmem.aclshmem_free, d)
    w0 = shmem.SHMEM_TEAM_WORLD
    raises(ValueError, "src_pe %d is out of range" % n,
           shmem.team_translate_pe, w0, n, w0)
    raises(ValueError, "size", shmem.team_split_strided, 0, 1, n + 1, w0)
    raises(ValueError, "start", shmem.team_split_strided, n, 1, 1, w0)
    if n > 1:
        raises(ValueError, "stride", shmem.team_split_strided, 0, 0, 2, w0)
        raises(ValueError, "is not a PE of the parent",
               shmem.team_split_strided, 1, n, 2, w0)
    raises(TypeError, "must be lists", shmem.team_split_2d, 1, (), 1, [])
    raises(ValueError, "ydim 5 does not match", shmem.team_split_2d, 1, [], 5,
           [])
    raises(ValueError, "out of range", shmem.set_log_level, -1)
    raises(TypeError, "must be a shmem.InitAttr", shmem.aclshmem_init, {})
    a = shmem.InitAttr()
    raises(ValueError, "negative", setattr, a, "mem_size", -1)
    raises(ValueError, "out of range", setattr, a, "op_engine_type", 9)
    a.op_engine_type = shmem.OpEngineType.DIRECT
    assert repr(a) == "InitAttr(mem_size=0, op_engine_type=<OpEngineType" \
        ".DIRECT: 1>, my_rank=-1, n_ranks=-1, ip_port='', option_attr=" \
        "OptionalAttr(data_op_engine_type=None, shm_init_timeout=120, " \
        "shm_create_timeout=120, control_operation_timeout=120))", repr(a)
    a.op_engine_type = None
    assert a.op_engine_type is None
    u = shmem.aclshmem_init_using_unique_id
    raises(ValueError, "rank 3 is out of range", u, 3, 2, 0, bytes(128))
    raises(ValueError, "nranks 0", u, 0, 0, 0, bytes(128))
    raises(ValueError, "uid has 5 bytes", u, 0, 1, 0, bytes(5))
    raises(TypeError, "uid must be bytes", u, 0, 1, 0, "x" * 128)
    shmem.aclshmem_free(p)
    shmem.aclshmem_finalize()
    # after finalize, everything but init says so
    raises(RuntimeError, "aclshmem_malloc: the runtime is not initialized",
           shmem.aclshmem_malloc, 8)
    raises(RuntimeError, "aclshmem_putmem: the runtime is not initialized",
           put, p, s, 8, 0)
    raises(RuntimeError, "not initialized", shmem.aclshmem_barrier_all)
    raises(RuntimeError, "not initialized", shmem.team_n_pes, w0)
    raises(ValueError, "mem_size 5 is out of range", shmem.aclshmem_init,
           shmem.InitAttr(mem_size=5))


# ---- failures -------------------------------------------------------------------

def case_killed(me, n):
    """The last PE dies by SIGKILL after a barrier; the others, in a signal
    wait (even ranks) or a barrier (odd), get RuntimeError."""
    sig = shmem.aclshmem_calloc(1, 8)
    shmem.aclshmem_barrier_all()
    if me == n - 1:
        os.kill(os.getpid(), signal.SIGKILL)
    if me % 2 == 0:
        e = raises(RuntimeError, "aclshmem_signal_wait_until",
                   shmem.aclshmem_signal_wait_until, sig,
                   shmem.ACLSHMEM_CMP_EQ, 1)
    else:
        e = raises(RuntimeError, "aclshmem_barrier_all",
                   shmem.aclshmem_barrier_all)
    assert ("PE %d of the job ended" % (n - 1) in str(e) or
            "ZESHMEM_TIMEOUT" in str(e)), str(e)
    print("PE %d: got %s" % (me, e), flush=True)
    raises(RuntimeError, "aclshmem_finalize", shmem.aclshmem_finalize)


def case_nothing(me, n):
    shmem.aclshmem_finalize()


def case_interrupt(me, n):
    sig = shmem.aclshmem_calloc(1, 8)
    print("waiting", flush=True)
    try:
        shmem.aclshmem_signal_wait_until(sig, shmem.ACLSHMEM_CMP_EQ, 1)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    else:
        raise AssertionError("the wait returned")
    shmem.aclshmem_free(sig)
    shmem.aclshmem_finalize()


def case_global_exit(me, n):
    if me == n - 1:
        shmem.aclshmem_global_exit(7)
    shmem.aclshmem_signal_wait_until(shmem.aclshmem_calloc(1, 8),
                                     shmem.ACLSHMEM_CMP_EQ, 1)
    raise AssertionError("not ended")


# ---- real ACLSHMEM's init (one PE, no launcher; run before any init) --------

def compat_before():
    """InitStatus, InitAttr's real fields, OptionalAttr, a bad my_rank /
    n_ranks, an engine conflict; then an init by the real fields."""
    S = shmem.InitStatus
    assert [(e.name, int(e)) for e in S] == [
        ("NOT_INITIALIZED", 0), ("SHM_CREATED", 1), ("INITIALIZED", 2),
        ("INVALID", 2147483647)]
    assert shmem.aclshmemx_init_status() is S.NOT_INITIALIZED
    a = shmem.InitAttr()
    assert (a.my_rank, a.n_ranks, a.ip_port, a.local_mem_size,
            a.mem_size) == (-1, -1, "", 0, 0)
    o = a.option_attr
    assert type(o) is shmem.OptionalAttr and o.data_op_engine_type is None
    assert (o.shm_init_timeout, o.shm_create_timeout,
            o.control_operation_timeout, o.sockFd) == (120, 120, 120, -1)
    a.local_mem_size = MEM
    assert a.mem_size == MEM and a.local_mem_size == MEM
    a.mem_size = 2 * MEM
    assert a.local_mem_size == 2 * MEM
    raises(ValueError, "mem_size", setattr, a, "local_mem_size", -1)
    raises(ValueError, "InitAttr.my_rank -2 is out of range", setattr, a,
           "my_rank", -2)
    raises(ValueError, "InitAttr.n_ranks 16777217 is out of range",
           setattr, a, "n_ranks", 1 << 24 | 1)
    raises(TypeError, "InitAttr.my_rank must be an int, not str", setattr,
           a, "my_rank", "0")
    raises(TypeError, "must be an int, not bool", setattr, a, "n_ranks",
           True)
    raises(TypeError, "InitAttr.ip_port must be a str, not bytes", setattr,
           a, "ip_port", b"tcp://x")
    raises(ValueError, "at most 63 characters", setattr, a, "ip_port",
           "x" * 64)
    a.ip_port = "x" * 63
    raises(TypeError, "must be a shmem.OptionalAttr, not dict", setattr, a,
           "option_attr", {})
    raises(AttributeError, "", setattr, a, "no_such_field", 1)
    raises(ValueError, "OptionalAttr.shm_init_timeout 0 is out of range",
           setattr, o, "shm_init_timeout", 0)
    raises(ValueError, "control_operation_timeout 86401 is out of range",
           setattr, o, "control_operation_timeout", 86401)
    raises(ValueError, "data_op_engine_type 7 is out of range", setattr, o,
           "data_op_engine_type", 7)
    o.data_op_engine_type = 2
    assert o.data_op_engine_type is shmem.OpEngineType.ENGINE
    o.shm_create_timeout = 5
    assert repr(o) == ("OptionalAttr(data_op_engine_type=<OpEngineType."
                       "ENGINE: 2>, shm_init_timeout=120, shm_create_"
                       "timeout=5, control_operation_timeout=120)"), repr(o)
    # the seed's and the real engine fields must agree
    a.op_engine_type = shmem.OpEngineType.DIRECT
    raises(ValueError, "op_engine_type <OpEngineType.DIRECT: 1> and "
           "option_attr.data_op_engine_type <OpEngineType.ENGINE: 2> differ",
           shmem.aclshmem_init, a)
    assert shmem.aclshmemx_init_status() == 0
    # my_rank / n_ranks other than the job's: a clear error, no job left
    b = shmem.InitAttr(mem_size=MEM)
    b.my_rank, b.n_ranks = 1, 2
    raises(ValueError, "aclshmem_init: InitAttr my_rank=1 n_ranks=2, but "
           "the job has PE 0 of 1: start the processes with zeshrun -n 2",
           shmem.aclshmem_init, b)
    assert shmem.aclshmemx_init_status() is S.NOT_INITIALIZED
    # the real fields, right: 0, an int with seed 003's fields
    c = shmem.InitAttr()
    c.my_rank, c.n_ranks, c.local_mem_size = 0, 1, MEM
    c.ip_port = "tcp://127.0.0.1:8666"
    c.option_attr.data_op_engine_type = shmem.OpEngineType.DIRECT
    ret = shmem.aclshmem_init(c)
    if ret != 0:
        raise AssertionError(ret)
    assert c.op_engine_type is shmem.OpEngineType.DIRECT
    assert (ret.status, ret.my_pe, ret.n_pes) == (0, 0, 1), ret
    assert shmem.aclshmemx_init_status() is S.INITIALIZED
    return 0, 1


def case_compat(me, n):
    """After compat_before's init: TeamConfig and aclshmem_team_get_config
    (int 0, SHMEM_TEAM_WORLD, a split team), finalize's status."""
    T = shmem.TeamConfig
    assert T().num_contexts == 0 and T(3).num_contexts == 3
    assert T(3) == T(3) and T(3) != T(2)
    assert repr(T(4)) == "TeamConfig(num_contexts=4)"
    raises(ValueError, "TeamConfig.num_contexts -1 is out of range", T, -1)
    raises(TypeError, "TeamConfig.num_contexts must be an int", T, 1.0)
    assert shmem.aclshmem_team_get_config(0) == T(0)
    assert shmem.aclshmem_team_get_config(shmem.SHMEM_TEAM_WORLD) == T(0)
    raises(ValueError, "team id 5", shmem.aclshmem_team_get_config, 5)
    t = shmem.team_split_strided(0, 1, n, 0)
    assert shmem.aclshmem_team_get_config(t).num_contexts == 0
    shmem.team_destroy(t)
    shmem.aclshmem_finalize()
    assert shmem.aclshmemx_init_status() is \
        shmem.InitStatus.NOT_INITIALIZED
    raises(RuntimeError, "aclshmem_team_get_config: the runtime is not "
           "initialized", shmem.aclshmem_team_get_config, 0)


def case_initfail(me, n):
    """Not reached: main() checks a failed init (negative, falsy fields)."""


CASES = {k[5:]: v for k, v in globals().items() if k.startswith("case_")}


def main(argv):
    if argv[1] == "uid":
        if len(argv) == 4:     # the root: rank 0 of N
            n, case = int(argv[2]), argv[3]
            uid = shmem.aclshmem_get_unique_id()
            assert isinstance(uid, bytes) and len(uid) == 128
            print("uid " + uid.hex(), flush=True)
            rank = 0
        else:
            rank, n, uid, case = (int(argv[2]), int(argv[3]),
                                  bytes.fromhex(argv[4]), argv[5])
        st = shmem.aclshmem_init_using_unique_id(rank, n, mem_size=MEM,
                                                 uid=uid)
        assert st == 0 and st.my_pe == rank and st.n_pes == n, st
        assert type(st) is shmem.InitResult and st.status == 0
        me = rank
    else:
        case = argv[1]
        if case == "notorch":
            sys.modules["torch"] = None   # import torch fails from now on
        if case == "compat":
            me, n = compat_before()
        elif case == "initfail":
            # a job the runtime refuses (ZESHMEM_RANK >= ZESHMEM_NRANKS):
            # real ACLSHMEM's negative code, seed 003's fields -1
            ret = shmem.aclshmem_init(shmem.InitAttr(mem_size=MEM))
            assert ret != 0 and ret < 0 and ret.status == int(ret), ret
            assert (ret.my_pe, ret.n_pes) == (-1, -1), ret
            assert repr(ret) == "InitResult(status=%d, my_pe=-1, " \
                "n_pes=-1)" % ret, repr(ret)
            assert shmem.aclshmemx_init_status() == 0
            print("init failed with %d" % ret, flush=True)
            return
        else:
            me, n = init()
    CASES[case](me, n)
    print("PE %d: %s ok" % (me, case), flush=True)


if __name__ == "__main__":
    main(sys.argv)
