# SPDX-License-Identifier: MIT
# Included by _shmem.pyx: collectives on teams and atomics on symmetric
# elements, the calls under shmem.core (which checks the arrays and
# tensors and passes addresses, element counts and dtype codes here).
# dtype codes are numpy's dtype.str without the byte order: "i1" .. "i8",
# "u1" .. "u8", "f4", "f8", "b1".

cdef int _coll_rc(str fn, int rc) except -1:
    if rc != 0:
        if rc < 0:
            fail_rc(fn, rc)
        raise AclshmemError("%s: the collective failed (error %d; see "
                            "stderr)" % (fn, rc))
    return 0


cdef int _sym2(str fn, uint64_t d, uint64_t dn, uint64_t s,
               uint64_t sn) except -1:
    need_init(fn)
    check_sym(fn, "dest", d, dn)
    check_sym(fn, "source", s, sn)
    return 0


# The reductions libzeshmem has per type (the bitwise ones on the
# unsigned type of the same size: the bits are the same).
_REDUCE_OPS = ("sum", "prod", "min", "max", "and", "or", "xor")


# {(op, dtype code): the case of _reduce_go} (bool: numpy's meaning of
# each op on 0/1 bytes: sum and max are or, prod and min are and)
_REDUCE_CASE = {
    ('sum', 'i1'): 0, ('sum', 'i2'): 1, ('sum', 'i4'): 2, ('sum', 'i8'): 3,
    ('sum', 'u1'): 4, ('sum', 'u2'): 5, ('sum', 'u4'): 6, ('sum', 'u8'): 7,
    ('sum', 'f4'): 8, ('sum', 'f8'): 9, ('prod', 'i1'): 10,
    ('prod', 'i2'): 11, ('prod', 'i4'): 12, ('prod', 'i8'): 13,
    ('prod', 'u1'): 14, ('prod', 'u2'): 15, ('prod', 'u4'): 16,
    ('prod', 'u8'): 17, ('prod', 'f4'): 18, ('prod', 'f8'): 19,
    ('min', 'i1'): 20, ('min', 'i2'): 21, ('min', 'i4'): 22,
    ('min', 'i8'): 23, ('min', 'u1'): 24, ('min', 'u2'): 25,
    ('min', 'u4'): 26, ('min', 'u8'): 27, ('min', 'f4'): 28,
    ('min', 'f8'): 29, ('max', 'i1'): 30, ('max', 'i2'): 31,
    ('max', 'i4'): 32, ('max', 'i8'): 33, ('max', 'u1'): 34,
    ('max', 'u2'): 35, ('max', 'u4'): 36, ('max', 'u8'): 37,
    ('max', 'f4'): 38, ('max', 'f8'): 39, ('and', 'i1'): 40,
    ('and', 'i2'): 41, ('and', 'i4'): 42, ('and', 'i8'): 43,
    ('and', 'b1'): 44, ('and', 'u1'): 44, ('min', 'b1'): 44,
    ('prod', 'b1'): 44, ('and', 'u2'): 45, ('and', 'u4'): 46,
    ('and', 'u8'): 47, ('or', 'i1'): 48, ('or', 'i2'): 49, ('or', 'i4'): 50,
    ('or', 'i8'): 51, ('max', 'b1'): 52, ('or', 'b1'): 52, ('or', 'u1'): 52,
    ('sum', 'b1'): 52, ('or', 'u2'): 53, ('or', 'u4'): 54, ('or', 'u8'): 55,
    ('xor', 'i1'): 56, ('xor', 'i2'): 57, ('xor', 'i4'): 58,
    ('xor', 'i8'): 59, ('xor', 'b1'): 60, ('xor', 'u1'): 60,
    ('xor', 'u2'): 61, ('xor', 'u4'): 62, ('xor', 'u8'): 63,
}


cdef int _reduce_go(int c, shmem_team_t t, void *d, const void *s,
                    size_t n) nogil:
    if c == 0:
        return shmem_int8_sum_reduce(t, <int8_t *>d, <const int8_t *>s, n)
    elif c == 1:
        return shmem_int16_sum_reduce(t, <int16_t *>d, <const int16_t *>s, n)
    elif c == 2:
        return shmem_int32_sum_reduce(t, <int32_t *>d, <const int32_t *>s, n)
    elif c == 3:
        return shmem_int64_sum_reduce(t, <int64_t *>d, <const int64_t *>s, n)
    elif c == 4:
        return shmem_uint8_sum_reduce(t, <uint8_t *>d, <const uint8_t *>s, n)
    elif c == 5:
        return shmem_uint16_sum_reduce(t, <uint16_t *>d,
            <const uint16_t *>s, n)
    elif c == 6:
        return shmem_uint32_sum_reduce(t, <uint32_t *>d,
            <const uint32_t *>s, n)
    elif c == 7:
        return shmem_uint64_sum_reduce(t, <uint64_t *>d,
            <const uint64_t *>s, n)
    elif c == 8:
        return shmem_float_sum_reduce(t, <float *>d, <const float *>s, n)
    elif c == 9:
        return shmem_double_sum_reduce(t, <double *>d, <const double *>s, n)
    elif c == 10:
        return shmem_int8_prod_reduce(t, <int8_t *>d, <const int8_t *>s, n)
    elif c == 11:
        return shmem_int16_prod_reduce(t, <int16_t *>d, <const int16_t *>s, n)
    elif c == 12:
        return shmem_int32_prod_reduce(t, <int32_t *>d, <const int32_t *>s, n)
    elif c == 13:
        return shmem_int64_prod_reduce(t, <int64_t *>d, <const int64_t *>s, n)
    elif c == 14:
        return shmem_uint8_prod_reduce(t, <uint8_t *>d, <const uint8_t *>s, n)
    elif c == 15:
        return shmem_uint16_prod_reduce(t, <uint16_t *>d,
            <const uint16_t *>s, n)
    elif c == 16:
        return shmem_uint32_prod_reduce(t, <uint32_t *>d,
            <const uint32_t *>s, n)
    elif c == 17:
        return shmem_uint64_prod_reduce(t, <uint64_t *>d,
            <const uint64_t *>s, n)
    elif c == 18:
        return shmem_float_prod_reduce(t, <float *>d, <const float *>s, n)
    elif c == 19:
        return shmem_double_prod_reduce(t, <double *>d, <const double *>s, n)
    elif c == 20:
        return shmem_int8_min_reduce(t, <int8_t *>d, <const int8_t *>s, n)
    elif c == 21:
        return shmem_int16_min_reduce(t, <int16_t *>d, <const int16_t *>s, n)
    elif c == 22:
        return shmem_int32_min_reduce(t, <int32_t *>d, <const int32_t *>s, n)
    elif c == 23:
        return shmem_int64_min_reduce(t, <int64_t *>d, <const int64_t *>s, n)
    elif c == 24:
        return shmem_uint8_min_reduce(t, <uint8_t *>d, <const uint8_t *>s, n)
    elif c == 25:
        return shmem_uint16_min_reduce(t, <uint16_t *>d,
            <const uint16_t *>s, n)
    elif c == 26:
        return shmem_uint32_min_reduce(t, <uint32_t *>d,
            <const uint32_t *>s, n)
    elif c == 27:
        return shmem_uint64_min_reduce(t, <uint64_t *>d,
            <const uint64_t *>s, n)
    elif c == 28:
        return shmem_float_min_reduce(t, <float *>d, <const float *>s, n)
    elif c == 29:
        return shmem_double_min_reduce(t, <double *>d, <const double *>s, n)
    elif c == 30:
        return shmem_int8_max_reduce(t, <int8_t *>d, <const int8_t *>s, n)
    elif c == 31:
        return shmem_int16_max_reduce(t, <int16_t *>d, <const int16_t *>s, n)
    elif c == 32:
        return shmem_int32_max_reduce(t, <int32_t *>d, <const int32_t *>s, n)
    elif c == 33:
        return shmem_int64_max_reduce(t, <int64_t *>d, <const int64_t *>s, n)
    elif c == 34:
        return shmem_uint8_max_reduce(t, <uint8_t *>d, <const uint8_t *>s, n)
    elif c == 35:
        return shmem_uint16_max_reduce(t, <uint16_t *>d,
            <const uint16_t *>s, n)
    elif c == 36:
        return shmem_uint32_max_reduce(t, <uint32_t *>d,
            <const uint32_t *>s, n)
    elif c == 37:
        return shmem_uint64_max_reduce(t, <uint64_t *>d,
            <const uint64_t *>s, n)
    elif c == 38:
        return shmem_float_max_reduce(t, <float *>d, <const float *>s, n)
    elif c == 39:
        return shmem_double_max_reduce(t, <double *>d, <const double *>s, n)
    elif c == 40:
        return shmem_uint8_and_reduce(t, <uint8_t *>d, <const uint8_t *>s, n)
    elif c == 41:
        return shmem_uint16_and_reduce(t, <uint16_t *>d,
            <const uint16_t *>s, n)
    elif c == 42:
        return shmem_uint32_and_reduce(t, <uint32_t *>d,
            <const uint32_t *>s, n)
    elif c == 43:
        return shmem_uint64_and_reduce(t, <uint64_t *>d,
            <const uint64_t *>s, n)
    elif c == 44:
        return shmem_uint8_and_reduce(t, <uint8_t *>d, <const uint8_t *>s, n)
    elif c == 45:
        return shmem_uint16_and_reduce(t, <uint16_t *>d,
            <const uint16_t *>s, n)
    elif c == 46:
        return shmem_uint32_and_reduce(t, <uint32_t *>d,
            <const uint32_t *>s, n)
    elif c == 47:
        return shmem_uint64_and_reduce(t, <uint64_t *>d,
            <const uint64_t *>s, n)
    elif c == 48:
        return shmem_uint8_or_reduce(t, <uint8_t *>d, <const uint8_t *>s, n)
    elif c == 49:
        return shmem_uint16_or_reduce(t, <uint16_t *>d, <const uint16_t *>s, n)
    elif c == 50:
        return shmem_uint32_or_reduce(t, <uint32_t *>d, <const uint32_t *>s, n)
    elif c == 51:
        return shmem_uint64_or_reduce(t, <uint64_t *>d, <const uint64_t *>s, n)
    elif c == 52:
        return shmem_uint8_or_reduce(t, <uint8_t *>d, <const uint8_t *>s, n)
    elif c == 53:
        return shmem_uint16_or_reduce(t, <uint16_t *>d, <const uint16_t *>s, n)
    elif c == 54:
        return shmem_uint32_or_reduce(t, <uint32_t *>d, <const uint32_t *>s, n)
    elif c == 55:
        return shmem_uint64_or_reduce(t, <uint64_t *>d, <const uint64_t *>s, n)
    elif c == 56:
        return shmem_uint8_xor_reduce(t, <uint8_t *>d, <const uint8_t *>s, n)
    elif c == 57:
        return shmem_uint16_xor_reduce(t, <uint16_t *>d,
            <const uint16_t *>s, n)
    elif c == 58:
        return shmem_uint32_xor_reduce(t, <uint32_t *>d,
            <const uint32_t *>s, n)
    elif c == 59:
        return shmem_uint64_xor_reduce(t, <uint64_t *>d,
            <const uint64_t *>s, n)
    elif c == 60:
        return shmem_uint8_xor_reduce(t, <uint8_t *>d, <const uint8_t *>s, n)
    elif c == 61:
        return shmem_uint16_xor_reduce(t, <uint16_t *>d,
            <const uint16_t *>s, n)
    elif c == 62:
        return shmem_uint32_xor_reduce(t, <uint32_t *>d,
            <const uint32_t *>s, n)
    elif c == 63:
        return shmem_uint64_xor_reduce(t, <uint64_t *>d,
            <const uint64_t *>s, n)
    return -12345


def _reduce(team, op, code, dest, source, nelems):
    """Reduces nelems elements of dtype code at source over team into
    dest (both symmetric) with libzeshmem's typed call. False when it has
    none for (op, code): shmem.core reduces in Python then."""
    fn = "reduce"
    cdef shmem_team_t t = get_team(fn, "team", team)
    cdef uint64_t d = get_u64(fn, "dest", dest)
    cdef uint64_t s = get_u64(fn, "source", source)
    cdef size_t n = get_size(fn, "nelems", nelems)
    c = _REDUCE_CASE.get((op, code))
    if c is None:
        return False
    cdef size_t sz = int(code[1:])
    _sym2(fn, d, n * sz, s, n * sz)
    cdef int ci = c, rc
    cdef void *dp = <void *><uintptr_t>d
    cdef const void *sp = <const void *><uintptr_t>s
    with nogil:
        rc = _reduce_go(ci, t, dp, sp, n)
    _coll_rc(fn, rc)
    return True


def _fcollect(team, dest, source, nbytes):
    """Gathers nbytes at source of every PE of team into dest (team order,
    n_pes * nbytes)."""
    fn = "fcollect"
    cdef shmem_team_t t = get_team(fn, "team", team)
    cdef uint64_t d = get_u64(fn, "dest", dest)
    cdef uint64_t s = get_u64(fn, "source", source)
    cdef size_t n = get_size(fn, "nbytes", nbytes)
    _sym2(fn, d, n * shmem_team_n_pes(t), s, n)
    cdef int rc
    with nogil:
        rc = shmem_fcollectmem(t, <void *><uintptr_t>d,
                               <const void *><uintptr_t>s, n)
    _coll_rc(fn, rc)


def _alltoall(team, dest, source, nbytes):
    """Block j (nbytes) of source goes to PE j of team, into its block i
    (this PE's number in the team) of dest."""
    fn = "alltoall"
    cdef shmem_team_t t = get_team(fn, "team", team)
    cdef uint64_t d = get_u64(fn, "dest", dest)
    cdef uint64_t s = get_u64(fn, "source", source)
    cdef size_t n = get_size(fn, "nbytes", nbytes)
    cdef size_t all_ = n * shmem_team_n_pes(t)
    _sym2(fn, d, all_, s, all_)
    cdef int rc
    with nogil:
        rc = shmem_alltoallmem(t, <void *><uintptr_t>d,
                               <const void *><uintptr_t>s, n)
    _coll_rc(fn, rc)


def _broadcast(team, dest, source, nbytes, root):
    """Copies nbytes at source of root (a PE number in team) to dest on
    every PE of team."""
    fn = "broadcast"
    cdef shmem_team_t t = get_team(fn, "team", team)
    cdef uint64_t d = get_u64(fn, "dest", dest)
    cdef uint64_t s = get_u64(fn, "source", source)
    cdef size_t n = get_size(fn, "nbytes", nbytes)
    cdef int r = get_ll(fn, "root", root, 0, shmem_team_n_pes(t) - 1)
    _sym2(fn, d, n, s, n)
    cdef int rc
    with nogil:
        rc = shmem_broadcastmem(t, <void *><uintptr_t>d,
                                <const void *><uintptr_t>s, n, r)
    _coll_rc(fn, rc)


def _team_sync(team):
    """shmem_team_sync: every PE of team arrived (no quiet)."""
    fn = "sync"
    cdef shmem_team_t t = get_team(fn, "team", team)
    cdef int rc
    with nogil:
        rc = shmem_team_sync(t)
    _coll_rc(fn, rc)


def _put_nocheck(dest, source, nbytes, pe, nbi):
    """shmem.core's put: dest symmetric (checked here), source the memory
    of an array or tensor shmem.core checked."""
    fn = "put"
    cdef uint64_t d = get_u64(fn, "dest", dest)
    cdef uint64_t s = get_u64(fn, "source", source)
    cdef uint64_t n = get_u64(fn, "nbytes", nbytes)
    cdef long long q = get_ll(fn, "pe", pe, INT32_MIN, INT32_MAX)
    need_init(fn)
    check_pe(fn, q, 1)
    check_sym(fn, "dest", d, n)
    _rma(PUT_NBI if nbi else PUT, <void *><uintptr_t>d,
         <const void *><uintptr_t>s, n, <int>q)


def _get_nocheck(dest, source, nbytes, pe, nbi):
    """shmem.core's get: source symmetric (checked here), dest the memory
    of an array or tensor shmem.core checked."""
    fn = "get"
    cdef uint64_t d = get_u64(fn, "dest", dest)
    cdef uint64_t s = get_u64(fn, "source", source)
    cdef uint64_t n = get_u64(fn, "nbytes", nbytes)
    cdef long long q = get_ll(fn, "pe", pe, INT32_MIN, INT32_MAX)
    need_init(fn)
    check_pe(fn, q, 1)
    check_sym(fn, "source", s, n)
    _rma(GET_NBI if nbi else GET, <void *><uintptr_t>d,
         <const void *><uintptr_t>s, n, <int>q)


def _core_put_signal(dest, source, nbytes, sig_addr, signal, sig_op, pe,
                     nbi):
    """shmem.core's put_signal (the source checked by shmem.core)."""
    fn = "put_signal"
    cdef uint64_t d = get_u64(fn, "dest", dest)
    cdef uint64_t s = get_u64(fn, "source", source)
    cdef uint64_t n = get_u64(fn, "nbytes", nbytes)
    cdef uint64_t sig = get_u64(fn, "signal_var", sig_addr)
    cdef uint64_t val = get_u64(fn, "signal_val", signal)
    cdef long long op = get_ll(fn, "signal_op", sig_op, 0, 1)
    cdef long long q = get_ll(fn, "pe", pe, INT32_MIN, INT32_MAX)
    if sig & 7:
        raise AclshmemInvalid("%s: signal_var %#x is not 8-byte aligned" %
                              (fn, sig))
    need_init(fn)
    check_pe(fn, q, 1)
    check_sym(fn, "dest", d, n)
    check_sym(fn, "signal_var", sig, 8)
    _put_signal(nbi, <void *><uintptr_t>d, <const void *><uintptr_t>s, n,
                <uint64_t *><uintptr_t>sig, val, <int>op, <int>q)


def _signal_op(sig_addr, signal, sig_op, pe):
    """Updates the signal word sig_addr on pe: SET stores signal, ADD adds
    it (atomically)."""
    fn = "signal_op"
    cdef uint64_t sig = get_u64(fn, "signal_var", sig_addr)
    cdef uint64_t val = get_u64(fn, "signal_val", signal)
    cdef long long op = get_ll(fn, "signal_op", sig_op, 0, 1)
    cdef long long q = get_ll(fn, "pe", pe, INT32_MIN, INT32_MAX)
    if sig & 7:
        raise AclshmemInvalid("%s: signal_var %#x is not 8-byte aligned" %
                              (fn, sig))
    need_init(fn)
    check_pe(fn, q, 1)
    check_sym(fn, "signal_var", sig, 8)
    cdef uint64_t *p = <uint64_t *><uintptr_t>sig
    if op == SHMEM_SIGNAL_SET:
        shmem_uint64_atomic_set(p, val, <int>q)
    else:
        shmem_uint64_atomic_add(p, val, <int>q)


def _signal_wait(sig_addr, cmp, cmp_val):
    """Waits on the local signal word; returns the value that satisfied
    the comparison."""
    fn = "signal_wait"
    cdef uint64_t sig = get_u64(fn, "signal_var", sig_addr)
    cdef long long c = get_ll(fn, "cmp", cmp, INT32_MIN, INT32_MAX)
    cdef uint64_t val = get_u64(fn, "cmp_val", cmp_val)
    check_signal(fn, sig, c)
    return signal_wait(fn, sig, <int>c, val)


# ---- atomics ---------------------------------------------------------------

_AMO_OPS = ("fetch", "set", "swap", "compare_swap", "fetch_add",
            "fetch_and", "fetch_or", "fetch_xor")
_AMO_CODES = ("i4", "i8", "u4", "u8", "f4", "f8")


cdef object _amo_i32(int op, int32_t *p, int32_t v, int32_t c, int pe):
    if op == 0:
        return shmem_int32_atomic_fetch(p, pe)
    if op == 1:
        shmem_int32_atomic_set(p, v, pe)
        return None
    if op == 2:
        return shmem_int32_atomic_swap(p, v, pe)
    if op == 3:
        return shmem_int32_atomic_compare_swap(p, c, v, pe)
    if op == 4:
        return shmem_int32_atomic_fetch_add(p, v, pe)
    if op == 5:
        return shmem_int32_atomic_fetch_and(p, v, pe)
    if op == 6:
        return shmem_int32_atomic_fetch_or(p, v, pe)
    return shmem_int32_atomic_fetch_xor(p, v, pe)


cdef object _amo_i64(int op, int64_t *p, int64_t v, int64_t c, int pe):
    if op == 0:
        return shmem_int64_atomic_fetch(p, pe)
    if op == 1:
        shmem_int64_atomic_set(p, v, pe)
        return None
    if op == 2:
        return shmem_int64_atomic_swap(p, v, pe)
    if op == 3:
        return shmem_int64_atomic_compare_swap(p, c, v, pe)
    if op == 4:
        return shmem_int64_atomic_fetch_add(p, v, pe)
    if op == 5:
        return shmem_int64_atomic_fetch_and(p, v, pe)
    if op == 6:
        return shmem_int64_atomic_fetch_or(p, v, pe)
    return shmem_int64_atomic_fetch_xor(p, v, pe)


cdef object _amo_u32(int op, uint32_t *p, uint32_t v, uint32_t c, int pe):
    if op == 0:
        return shmem_uint32_atomic_fetch(p, pe)
    if op == 1:
        shmem_uint32_atomic_set(p, v, pe)
        return None
    if op == 2:
        return shmem_uint32_atomic_swap(p, v, pe)
    if op == 3:
        return shmem_uint32_atomic_compare_swap(p, c, v, pe)
    if op == 4:
        return shmem_uint32_atomic_fetch_add(p, v, pe)
    if op == 5:
        return shmem_uint32_atomic_fetch_and(p, v, pe)
    if op == 6:
        return shmem_uint32_atomic_fetch_or(p, v, pe)
    return shmem_uint32_atomic_fetch_xor(p, v, pe)


cdef object _amo_u64(int op, uint64_t *p, uint64_t v, uint64_t c, int pe):
    if op == 0:
        return shmem_uint64_atomic_fetch(p, pe)
    if op == 1:
        shmem_uint64_atomic_set(p, v, pe)
        return None
    if op == 2:
        return shmem_uint64_atomic_swap(p, v, pe)
    if op == 3:
        return shmem_uint64_atomic_compare_swap(p, c, v, pe)
    if op == 4:
        return shmem_uint64_atomic_fetch_add(p, v, pe)
    if op == 5:
        return shmem_uint64_atomic_fetch_and(p, v, pe)
    if op == 6:
        return shmem_uint64_atomic_fetch_or(p, v, pe)
    return shmem_uint64_atomic_fetch_xor(p, v, pe)


cdef object _amo_f(int op, int code, void *p, double v, int pe):
    if code == 4:
        if op == 0:
            return shmem_float_atomic_fetch(<float *>p, pe)
        if op == 1:
            shmem_float_atomic_set(<float *>p, <float>v, pe)
            return None
        return shmem_float_atomic_swap(<float *>p, <float>v, pe)
    if op == 0:
        return shmem_double_atomic_fetch(<double *>p, pe)
    if op == 1:
        shmem_double_atomic_set(<double *>p, v, pe)
        return None
    return shmem_double_atomic_swap(<double *>p, v, pe)


cdef object _amo_int(str fn, object v, str code):
    """v as the integer of dtype code (wrapped to its bits, as numpy
    stores it); TypeError for a non-integer."""
    cdef object i = _index(fn, "value", v)
    cdef object bits = int(code[1:]) * 8    # Python ints: no C shifts
    cdef object one = 1
    i &= (one << bits) - 1
    if code[0] == "i" and i >= one << (bits - 1):
        i -= one << bits
    return i


def _atomic(op, code, ptr, pe, value=0, cond=0):
    """The atomic op ("fetch", "set", "swap", "compare_swap", "fetch_add",
    "fetch_and", "fetch_or", "fetch_xor") on the element of dtype code at
    the symmetric ptr on pe; returns the value fetched (None for set)."""
    fn = "atomic_" + str(op)
    if op not in _AMO_OPS:
        raise AclshmemInvalid("atomic: op %r is not one of %s" %
                              (op, ", ".join(_AMO_OPS)))
    if code not in _AMO_CODES:
        raise TypeError("%s: dtype %s: atomics work on int32, int64, "
                        "uint32, uint64 (and fetch / set / swap on float32, "
                        "float64)" % (fn, code))
    cdef int o = _AMO_OPS.index(op)
    cdef int sz = int(code[1:])
    cdef uint64_t p = get_u64(fn, "ptr", ptr)
    cdef long long q = get_ll(fn, "pe", pe, INT32_MIN, INT32_MAX)
    need_init(fn)
    check_pe(fn, q, 1)
    check_sym(fn, "dest", p, sz)
    if p % sz:
        raise AclshmemInvalid("%s: the element at %#x is not %d-byte "
                              "aligned" % (fn, p, sz))
    cdef void *a = <void *><uintptr_t>p
    if code[0] == "f":
        if o > 2:
            raise TypeError("%s: dtype %s: only atomic fetch, set and swap "
                            "work on floating point" % (fn, code))
        return _amo_f(o, sz, a, float(value), <int>q)
    v = _amo_int(fn, value, code)
    c = _amo_int(fn, cond, code)
    if code == "i4":
        return _amo_i32(o, <int32_t *>a, v, c, <int>q)
    if code == "i8":
        return _amo_i64(o, <int64_t *>a, v, c, <int>q)
    if code == "u4":
        return _amo_u32(o, <uint32_t *>a, v, c, <int>q)
    return _amo_u64(o, <uint64_t *>a, v, c, <int>q)
