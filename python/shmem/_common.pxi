# SPDX-License-Identifier: MIT
# Included by _shmem.pyx: errors, argument checks, the runtime's state.

# Copies at least this long run with the GIL released.
DEF NOGIL_BYTES = 65536
# The slice of a signal wait between checks for signals (ms).
DEF WAIT_SLICE_MS = 100


class AclshmemError(RuntimeError):
    """The runtime failed a call (a RuntimeError; the message names the
    call)."""
    __module__ = "shmem"


class AclshmemInvalid(ValueError):
    """A bad argument (a ValueError; the message names the call and shows
    the value)."""
    __module__ = "shmem"


# Bumped by every successful init and by finalize: teams and buffers of
# an earlier runtime are refused.
cdef unsigned long generation = 0
# The addresses aclshmem_malloc / calloc / align returned and
# aclshmem_free has not freed (a second free raises).
cdef set live_ptrs = set()
# {ptr: (kind, weakref to the object)} for the arrays, tensors and buffers
# made by the create calls (kind "array", "tensor" or "buffer").
cdef dict registry = {}

# Marks an argument not given (the calls that name a missing argument the
# way the C module did: "missing required argument 'pe'").
cdef object _NO = object()


cdef inline object _missing(str fn, tuple names, tuple vals):
    cdef Py_ssize_t i
    for i in range(len(vals)):
        if vals[i] is _NO:
            raise TypeError("%s() missing required argument '%s'" %
                            (fn, names[i]))


cdef inline bint _any_no(tuple vals):
    cdef object v
    for v in vals:
        if v is _NO:
            return True
    return False


def _signature(f, names):
    """Sets f's signature to the parameters names (all required)."""
    import inspect
    P = inspect.Parameter
    f.__signature__ = inspect.Signature(
        [P(n, P.POSITIONAL_OR_KEYWORD) for n in names.split()])
    return f


# 2**64, a Python int
cdef object _U64_END = 18446744073709551616


cdef inline bint _is_int(object o):
    return isinstance(o, int) and not isinstance(o, bool)


cdef object _index(str fn, str what, object o):
    """o as a Python int (TypeError for a non-integer or a bool)."""
    if type(o) is int:
        return o
    if isinstance(o, bool) or not hasattr(type(o), "__index__"):
        raise TypeError("%s: %s must be an int, not %.100s" %
                        (fn, what, type(o).__name__))
    return o.__index__()


cdef long long get_ll(str fn, str what, object o, long long lo,
                      long long hi) except? -1:
    """An int in [lo, hi]; TypeError for a non-integer, ValueError
    outside."""
    cdef object i = _index(fn, what, o)
    if not lo <= i <= hi:
        raise AclshmemInvalid("%s: %s %d is out of range [%d, %d]" %
                              (fn, what, i, lo, hi))
    return i


cdef uint64_t get_u64(str fn, str what, object o) except? 0xffffffffffffffff:
    """A non-negative int up to 2**64 - 1 (pointers, sizes, signal
    values)."""
    cdef unsigned long long x
    if type(o) is int and o >= 0:
        x = PyLong_AsUnsignedLongLong(o)
        return x
    cdef object i = _index(fn, what, o)
    if i < 0 or i >= _U64_END:
        raise AclshmemInvalid("%s: %s %d is negative or does not fit in "
                              "64 bits" % (fn, what, i))
    return i


cdef size_t get_size(str fn, str what, object o) except? 0xffffffffffffffff:
    cdef uint64_t x = get_u64(fn, what, o)
    if x > <uint64_t>0x7fffffffffffffff:
        raise AclshmemInvalid("%s: %s %d is too large" % (fn, what, x))
    return <size_t>x


cdef int need_init(str fn) except -1:
    if shmem_my_pe() < 0:
        raise AclshmemError("%s: the runtime is not initialized (call "
                            "aclshmem_init first)" % fn)
    return 0


cdef int dead_pe():
    cdef int n = shmem_n_pes(), i
    for i in range(n):
        if not shmem_pe_accessible(i):
            return i
    return -1


cdef object fail_rc(str fn, int rc):
    """Raises the AclshmemError of a shmemx call's -errno."""
    cdef int d
    if -rc == EHOSTDOWN:
        d = dead_pe()
        if d >= 0:
            raise AclshmemError("%s: PE %d of the job ended" % (fn, d))
        raise AclshmemError("%s: a PE of the job ended" % fn)
    if -rc == ETIMEDOUT:
        raise AclshmemError("%s: no answer within ZESHMEM_TIMEOUT=%u s" %
                            (fn, shmemx_timeout()))
    if -rc == ENODEV:
        raise AclshmemError("%s: the runtime is not initialized" % fn)
    raise AclshmemError("%s: %s" % (fn, strerror(-rc).decode()))


cdef int check_pe(str fn, long long pe, bint alive) except -1:
    """pe of the job (ValueError), alive as far as this PE knows (else
    RuntimeError: the runtime would end the PE)."""
    cdef int n = shmem_n_pes()
    if pe < 0 or pe >= n:
        raise AclshmemInvalid("%s: pe %d is out of range (the job's PEs "
                              "are 0..%d)" % (fn, pe, n - 1))
    if alive and not shmem_pe_accessible(<int>pe):
        raise AclshmemError("%s: PE %d of the job ended" % (fn, pe))
    return 0


cdef int check_sym(str fn, str what, uint64_t p, uint64_t n) except -1:
    """[p, p + n) wholly inside this PE's symmetric heap (n 0: p
    inside)."""
    cdef uint64_t base = <uint64_t><uintptr_t>shmemx_heap_base()
    cdef uint64_t size = shmemx_heap_size()
    cdef uint64_t need = n if n else 1
    if p < base or p - base >= size or need > size - (p - base):
        raise AclshmemInvalid("%s: %s %#x (%d bytes) is not inside the "
                              "symmetric heap [%#x, %#x)" %
                              (fn, what, p, n, base, base + size))
    return 0


cdef int check_local(str fn, str what, uint64_t p, uint64_t n,
                     int write) except -1:
    """[p, p + n) is memory of this process that the copy may read (write
    0) or write (write 1): else ValueError."""
    if n and not p:
        raise AclshmemInvalid("%s: %s is 0 (NULL)" % (fn, what))
    if n and p + n < p:
        raise AclshmemInvalid("%s: %s %#x + %d bytes wraps around" %
                              (fn, what, p, n))
    # An int is any address: a load or store of memory the process cannot
    # access would kill the interpreter. u_touch touches a byte of each
    # page under a fault handler (no system call); where that handler
    # cannot be installed, the kernel is asked (u_probe). -ENOSYS from
    # both: nothing can tell; the copy goes on.
    cdef const void *a = <const void *><uintptr_t>p
    cdef int err = u_touch(a, <size_t>n, write)
    if err == -ENOSYS:
        err = u_probe(a, <size_t>n, write)
    if err == -EFAULT:
        raise AclshmemInvalid("%s: %s %#x (%d bytes) is not %s memory of "
                              "this process" %
                              (fn, what, p, n,
                               "writable" if write else "readable"))
    return 0
