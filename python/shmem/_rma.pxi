# SPDX-License-Identifier: MIT
# Included by _shmem.pyx: put and get, put with signal, signal waits,
# barrier_all, quiet and fence.

DEF PUT = 0
DEF GET = 1
DEF PUT_NBI = 2
DEF GET_NBI = 3

_RMA_NAMES = ("dest", "source", "bytes", "pe")


cdef object rma(str fn, int k, object dest, object source, object nbytes,
                object pe):
    if pe is _NO or nbytes is _NO or source is _NO or dest is _NO:
        _missing(fn, _RMA_NAMES, (dest, source, nbytes, pe))
    cdef uint64_t d = get_u64(fn, "dest", dest)
    cdef uint64_t s = get_u64(fn, "source", source)
    cdef uint64_t n = get_u64(fn, "bytes", nbytes)
    cdef long long q = get_ll(fn, "pe", pe, INT32_MIN, INT32_MAX)
    need_init(fn)
    check_pe(fn, q, 1)
    cdef bint put = k == PUT or k == PUT_NBI
    check_sym(fn, "dest" if put else "source", d if put else s, n)
    check_local(fn, "source" if put else "dest", s if put else d, n,
                not put)
    _rma(k, <void *><uintptr_t>d, <const void *><uintptr_t>s, n, <int>q)


cdef inline void _rma_go(int k, void *d, const void *s, size_t n,
                         int pe) nogil:
    if k == PUT:
        shmem_putmem(d, s, n, pe)
    elif k == GET:
        shmem_getmem(d, s, n, pe)
    elif k == PUT_NBI:
        shmem_putmem_nbi(d, s, n, pe)
    else:
        shmem_getmem_nbi(d, s, n, pe)


cdef inline void _rma(int k, void *d, const void *s, size_t n, int pe):
    if n >= NOGIL_BYTES:
        with nogil:
            _rma_go(k, d, s, n, pe)
    else:
        _rma_go(k, d, s, n, pe)


def aclshmem_putmem(dest=_NO, source=_NO, bytes=_NO, pe=_NO):
    """aclshmem_putmem(dest: int, source: int, bytes: int, pe: int) -> None

    Blocking put: copy bytes from local source to the symmetric dest on PE
    pe. source may be reused on return."""
    rma("aclshmem_putmem", PUT, dest, source, bytes, pe)


def aclshmem_getmem(dest=_NO, source=_NO, bytes=_NO, pe=_NO):
    """aclshmem_getmem(dest: int, source: int, bytes: int, pe: int) -> None

    Blocking get: copy bytes from the symmetric source on PE pe to local
    dest."""
    rma("aclshmem_getmem", GET, dest, source, bytes, pe)


def aclshmem_putmem_nbi(dest=_NO, source=_NO, bytes=_NO, pe=_NO):
    """aclshmem_putmem_nbi(dest: int, source: int, bytes: int, pe: int) ->
    None

    Non-blocking put: may complete asynchronously; call aclshmem_quiet()
    before reusing source or relying on remote visibility."""
    rma("aclshmem_putmem_nbi", PUT_NBI, dest, source, bytes, pe)


def aclshmem_getmem_nbi(dest=_NO, source=_NO, bytes=_NO, pe=_NO):
    """aclshmem_getmem_nbi(dest: int, source: int, bytes: int, pe: int) ->
    None

    Non-blocking get: dest holds the data after aclshmem_quiet()."""
    rma("aclshmem_getmem_nbi", GET_NBI, dest, source, bytes, pe)


for _f in (aclshmem_putmem, aclshmem_getmem, aclshmem_putmem_nbi,
           aclshmem_getmem_nbi):
    _signature(_f, "dest source bytes pe")


_PS_NAMES = ("dest", "source", "nbytes", "sig_addr", "signal", "sig_op",
             "pe")


cdef object put_signal(str fn, bint nbi, tuple a):
    if _any_no(a):
        _missing(fn, _PS_NAMES, a)
    cdef uint64_t d = get_u64(fn, "dest", a[0])
    cdef uint64_t s = get_u64(fn, "source", a[1])
    cdef uint64_t n = get_u64(fn, "nbytes", a[2])
    cdef uint64_t sig = get_u64(fn, "sig_addr", a[3])
    cdef uint64_t val = get_u64(fn, "signal", a[4])
    cdef long long op = get_ll(fn, "sig_op", a[5], INT32_MIN, INT32_MAX)
    cdef long long pe = get_ll(fn, "pe", a[6], INT32_MIN, INT32_MAX)
    if op != SHMEM_SIGNAL_SET and op != SHMEM_SIGNAL_ADD:
        raise AclshmemInvalid("%s: sig_op %d is not ACLSHMEM_SIGNAL_SET or "
                              "ACLSHMEM_SIGNAL_ADD" % (fn, op))
    if sig & 7:
        raise AclshmemInvalid("%s: sig_addr %#x is not 8-byte aligned" %
                              (fn, sig))
    need_init(fn)
    check_pe(fn, pe, 1)
    check_sym(fn, "dest", d, n)
    check_sym(fn, "sig_addr", sig, 8)
    check_local(fn, "source", s, n, 0)
    _put_signal(nbi, <void *><uintptr_t>d, <const void *><uintptr_t>s, n,
                <uint64_t *><uintptr_t>sig, val, <int>op, <int>pe)


cdef void _put_signal(bint nbi, void *d, const void *s, size_t n,
                      uint64_t *sig, uint64_t val, int op, int pe):
    if n >= NOGIL_BYTES:
        with nogil:
            if nbi:
                shmem_putmem_signal_nbi(d, s, n, sig, val, op, pe)
            else:
                shmem_putmem_signal(d, s, n, sig, val, op, pe)
    elif nbi:
        shmem_putmem_signal_nbi(d, s, n, sig, val, op, pe)
    else:
        shmem_putmem_signal(d, s, n, sig, val, op, pe)


def aclshmemx_putmem_signal(dest=_NO, source=_NO, nbytes=_NO, sig_addr=_NO,
                            signal=_NO, sig_op=_NO, pe=_NO):
    """aclshmemx_putmem_signal(dest: int, source: int, nbytes: int,
    sig_addr: int, signal: int, sig_op: int, pe: int) -> None

    Blocking put of nbytes to dest on pe, then an atomic update of the
    64-bit signal word sig_addr on pe: sig_op ACLSHMEM_SIGNAL_SET stores
    signal, ACLSHMEM_SIGNAL_ADD adds it. The data is visible at pe
    whenever the signal is."""
    put_signal("aclshmemx_putmem_signal", False,
               (dest, source, nbytes, sig_addr, signal, sig_op, pe))


def aclshmemx_putmem_signal_nbi(dest=_NO, source=_NO, nbytes=_NO,
                                sig_addr=_NO, signal=_NO, sig_op=_NO,
                                pe=_NO):
    """aclshmemx_putmem_signal_nbi(dest: int, source: int, nbytes: int,
    sig_addr: int, signal: int, sig_op: int, pe: int) -> None

    Non-blocking put with signal (source reusable after
    aclshmem_quiet())."""
    put_signal("aclshmemx_putmem_signal_nbi", True,
               (dest, source, nbytes, sig_addr, signal, sig_op, pe))


for _f in (aclshmemx_putmem_signal, aclshmemx_putmem_signal_nbi):
    _signature(_f, "dest source nbytes sig_addr signal sig_op pe")


cdef object signal_wait(str fn, uint64_t sig, int cmp, uint64_t val):
    """Waits until the local signal word sig compares to val as cmp says
    (checked by the caller); returns the value that satisfied it."""
    cdef uint64_t *sp = <uint64_t *><uintptr_t>sig
    cdef uint64_t got = 0
    # The satisfied case without releasing the GIL.
    cdef int rc = shmemx_signal_wait_until_timeout(sp, cmp, val, 0, &got)
    # The runtime's rule: ZESHMEM_TIMEOUT bounds a wait only when some PE
    # is on another node (this PE cannot see it end); node PEs that end
    # are seen at once, live ones may compute for longer.
    cdef long long waited_ms = 0, limit_ms = -1
    cdef void *hb = shmemx_heap_base()
    cdef int pe
    if rc == 1:
        for pe in range(shmem_n_pes()):
            if shmem_ptr(hb, pe) == NULL:
                limit_ms = 1000 * <long long>shmemx_timeout()
    while rc == 1:
        with nogil:
            rc = shmemx_signal_wait_until_timeout(sp, cmp, val,
                                                  WAIT_SLICE_MS, &got)
        if rc != 1:
            break
        PyErr_CheckSignals()
        waited_ms += WAIT_SLICE_MS
        if limit_ms >= 0 and waited_ms >= limit_ms:
            rc = -ETIMEDOUT
    if rc < 0:
        fail_rc(fn, rc)
    return got


cdef int check_signal(str fn, uint64_t sig, long long cmp) except -1:
    if cmp < SHMEM_CMP_EQ or cmp > SHMEM_CMP_GE:
        raise AclshmemInvalid("%s: cmp %d is not an ACLSHMEM_CMP_* value" %
                              (fn, cmp))
    if sig & 7:
        raise AclshmemInvalid("%s: sig_addr %#x is not 8-byte aligned" %
                              (fn, sig))
    need_init(fn)
    check_sym(fn, "sig_addr", sig, 8)
    return 0


def aclshmem_signal_wait_until(sig_addr, cmp, cmp_val):
    """aclshmem_signal_wait_until(sig_addr: int, cmp: int, cmp_val: int)
    -> None

    Wait until the local signal word sig_addr compares to cmp_val as cmp
    says (ACLSHMEM_CMP_EQ, NE, GT, GE, LT, LE).

    Other Python threads run meanwhile; Ctrl-C raises KeyboardInterrupt.
    RuntimeError when a PE of the job ended, or (in a job with PEs on
    other nodes) nothing satisfied it within ZESHMEM_TIMEOUT seconds."""
    fn = "aclshmem_signal_wait_until"
    cdef uint64_t sig = get_u64(fn, "sig_addr", sig_addr)
    cdef long long c = get_ll(fn, "cmp", cmp, INT32_MIN, INT32_MAX)
    cdef uint64_t val = get_u64(fn, "cmp_val", cmp_val)
    check_signal(fn, sig, c)
    signal_wait(fn, sig, <int>c, val)


def aclshmem_barrier_all():
    """aclshmem_barrier_all() -> None

    Barrier over all PEs: completes this PE's outstanding puts
    (aclshmem_quiet), then waits until every PE arrived. RuntimeError when
    a PE ended (or did not arrive within ZESHMEM_TIMEOUT)."""
    need_init("aclshmem_barrier_all")
    cdef int rc
    with nogil:
        rc = shmemx_barrier_all_status()
    if rc < 0:
        fail_rc("aclshmem_barrier_all", rc)


def aclshmem_quiet():
    """aclshmem_quiet() -> None

    Complete every put, get and signal this PE issued (the non-blocking
    ones included): afterwards their data is at the targets and sources
    may be reused."""
    need_init("aclshmem_quiet")
    shmem_quiet()


def aclshmem_fence():
    """aclshmem_fence() -> None

    Order this PE's puts, atomics and signals to each PE: those issued
    before the fence are delivered before those issued after it."""
    need_init("aclshmem_fence")
    shmem_fence()
