# SPDX-License-Identifier: MIT
# Included by _shmem.pyx: numpy arrays and torch tensors over symmetric
# memory (the create and free calls), buffers owned by shmem.core, peer
# views. numpy and torch are imported on first use; without them the
# calls that need them raise ImportError and the rest works. The
# allocations made for arrays, tensors and buffers are remembered (by
# address, with a weak reference to the object: the registry) so that the
# free calls refuse objects they did not create and second frees, and
# aclshmem_free refuses their memory.

cdef object import_opt(str mod, str pkg, str fn):
    import importlib
    try:
        return importlib.import_module(mod)
    except Exception as e:
        raise ImportError("%s needs %s (Debian: apt install %s), which "
                          "cannot be imported: %s" % (fn, mod, pkg, e)) \
            from None


cdef tuple get_shape(str fn, object shape, size_t *count):
    """shape (an int or a sequence of ints >= 0) -> a tuple and the
    element count."""
    cdef tuple t
    if isinstance(shape, int):
        t = (shape,)
    elif (hasattr(shape, "__len__") and hasattr(shape, "__getitem__") and
          not isinstance(shape, (str, bytes))):
        t = tuple(shape)
    else:
        raise TypeError("%s: shape must be a tuple of ints, not %.100s" %
                        (fn, type(shape).__name__))
    cdef size_t c = 1, d
    for x in t:
        d = get_size(fn, "a shape dimension", x)
        if d and c > <size_t>0x7fffffffffffffff // d:
            raise AclshmemInvalid("%s: shape %r has too many elements" %
                                  (fn, t))
        c *= d
    count[0] = c
    return t


cdef SymmetricBuffer alloc_buffer(str fn, size_t count, size_t itemsize):
    """Allocates the symmetric memory of count elements of itemsize bytes
    and returns a SymmetricBuffer over it."""
    if count == 0:
        raise AclshmemInvalid("%s: shape has no elements" % fn)
    if itemsize and count > <size_t>0x7fffffffffffffff // itemsize:
        raise AclshmemInvalid("%s: %d elements of %d bytes are too many" %
                              (fn, count, itemsize))
    cdef size_t n = count * itemsize
    need_init(fn)
    cdef void *p = do_malloc(n)
    if p == NULL:
        raise AclshmemError("%s: the symmetric heap has no room for %d "
                            "bytes" % (fn, n))
    try:
        return symbuf_new(<uintptr_t>p, n)
    except BaseException:
        with nogil:
            shmem_free(p)
        raise


cdef object remember(str kind, object obj, uint64_t ptr):
    """Remembers obj as the kind made over ptr; on failure frees it."""
    try:
        registry[ptr] = (kind, _weakref.ref(obj))
    except BaseException:
        with nogil:
            shmem_free(<void *><uintptr_t>ptr)
        raise
    return obj


cdef object forget(str fn, str kind, object obj, uint64_t ptr):
    """Frees the allocation made for obj by the create call of kind."""
    v = registry.get(ptr)
    if v is None:
        raise AclshmemInvalid("%s: this %s was not made by the matching "
                              "create call, or was freed already" %
                              (fn, kind))
    if v[1]() is not obj or v[0] != kind:
        raise AclshmemInvalid("%s: this %s shares symmetric memory with one "
                              "made by a create call but is not that object "
                              "(a view?); free the original" % (fn, kind))
    del registry[ptr]
    _detach(kind, obj)
    with nogil:
        shmem_free(<void *><uintptr_t>ptr)


cdef bint is_instance_of(object obj, str mod, str cls):
    # Only a module already imported can have made obj.
    import sys
    m = sys.modules.get(mod)
    if m is None:
        return False
    return isinstance(obj, getattr(m, cls))


def aclshmem_create_tensor(shape, dtype=None, device_id=0):
    """aclshmem_create_tensor(shape: tuple, dtype: torch.dtype =
    torch.float32, device_id: int = 0) -> torch.Tensor

    Create a PyTorch tensor backed by symmetric memory.

    The tensor's storage is a new symmetric allocation (collective: every
    PE calls with the same shape and dtype): writing the tensor writes
    memory the other PEs can get and put. dtype: any of torch's
    fixed-size types. device_id: the Level Zero device of this PE's heap
    (the tensor is a host tensor over it; another device raises
    ValueError). Free it with aclshmem_free_tensor."""
    fn = "aclshmem_create_tensor"
    torch = import_opt("torch", "python3-torch", fn)
    cdef size_t count
    cdef tuple shp = get_shape(fn, shape, &count)
    if dtype is None:
        dtype = torch.float32
    elif not isinstance(dtype, torch.dtype):
        raise TypeError("%s: dtype must be a torch.dtype, not %.100s" %
                        (fn, type(dtype).__name__))
    cdef long long dev = get_ll(fn, "device_id", device_id, 0, INT32_MAX)
    need_init(fn)
    cdef int mine = shmemx_device_index()
    if mine >= 0 and dev != mine:
        raise AclshmemInvalid("%s: device_id %d: this PE's symmetric heap "
                              "is on Level Zero device %d" % (fn, dev, mine))
    return _make_tensor(fn, torch, shp, count, dtype, "tensor")


cdef object _make_tensor(str fn, object torch, tuple shp, size_t count,
                         object dtype, str kind):
    cdef size_t itemsize = torch.empty(0, dtype=dtype).element_size()
    cdef SymmetricBuffer buf = alloc_buffer(fn, count, itemsize)
    cdef uint64_t ptr = buf.ptr
    try:
        flat = torch.frombuffer(buf, dtype=dtype, count=count)
        # resize_ to the shape (same bytes: the storage stays), not view:
        # a view keeps flat as its _base, and then set_() at free would
        # not let go of the memory (see _memory.pxi).
        t = flat.resize_(shp)
        del flat
    except BaseException:
        with nogil:
            shmem_free(<void *><uintptr_t>ptr)
        raise
    return remember(kind, t, ptr)


def aclshmem_free_tensor(tensor):
    """aclshmem_free_tensor(tensor: torch.Tensor) -> None

    Free the symmetric memory backing a tensor made by
    aclshmem_create_tensor (collective). Refuses (ValueError) tensors it
    did not make, views of them, and tensors freed already. The tensor
    becomes empty (its memory is not its any more); views of it made
    before must not be used."""
    fn = "aclshmem_free_tensor"
    if not is_instance_of(tensor, "torch", "Tensor"):
        raise TypeError("%s: tensor must be a torch.Tensor, not %.100s" %
                        (fn, type(tensor).__name__))
    need_init(fn)
    forget(fn, "tensor", tensor, tensor.data_ptr())


def aclshmemx_create_array(shape, dtype=None):
    """aclshmemx_create_array(shape: tuple, dtype=numpy.float32) ->
    numpy.ndarray

    Create a numpy array whose memory is a new symmetric allocation (no
    copy; collective, same shape and dtype on every PE). dtype: anything
    numpy.dtype accepts. Free it with aclshmemx_free_array."""
    fn = "aclshmemx_create_array"
    np = import_opt("numpy", "python3-numpy", fn)
    cdef size_t count
    cdef tuple shp = get_shape(fn, shape, &count)
    try:
        dt = np.dtype("float32" if dtype is None else dtype)
    except TypeError:
        raise TypeError("%s: dtype %r is not a numpy dtype" %
                        (fn, dtype)) from None
    return _make_array(fn, np, shp, count, dt, "array")


cdef object _make_array(str fn, object np, tuple shp, size_t count,
                        object dt, str kind):
    if dt.itemsize == 0:
        raise AclshmemInvalid("%s: dtype %r has no fixed size" % (fn, dt))
    cdef SymmetricBuffer buf = alloc_buffer(fn, count, dt.itemsize)
    cdef uint64_t ptr = buf.ptr
    try:
        arr = np.frombuffer(buf, dt, count).reshape(shp)
    except BaseException:
        with nogil:
            shmem_free(<void *><uintptr_t>ptr)
        raise
    return remember(kind, arr, ptr)


def aclshmemx_free_array(array):
    """aclshmemx_free_array(array: numpy.ndarray) -> None

    Free the symmetric memory of an array made by aclshmemx_create_array
    (collective); refuses other arrays, views and second frees. The array
    becomes read-only (writes raise); what it reads is no longer its
    own."""
    fn = "aclshmemx_free_array"
    if not is_instance_of(array, "numpy", "ndarray"):
        raise TypeError("%s: array must be a numpy.ndarray, not %.100s" %
                        (fn, type(array).__name__))
    need_init(fn)
    forget(fn, "array", array, array.ctypes.data)


# ---- shmem.core's allocations and peer views -------------------------------

def _core_buffer(size):
    """shmem.core.buffer: a SymmetricBuffer owning size new bytes."""
    fn = "buffer"
    cdef size_t n = get_size(fn, "size", size)
    cdef SymmetricBuffer b = alloc_buffer(fn, n, 1)
    return remember("buffer", b, b.ptr)


def _core_array(shape, dtype):
    """shmem.core.array: a numpy array over new symmetric memory."""
    fn = "array"
    np = import_opt("numpy", "python3-numpy", fn)
    cdef size_t count
    cdef tuple shp = get_shape(fn, shape, &count)
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise TypeError("%s: dtype %r is not a numpy dtype" %
                        (fn, dtype)) from None
    return _make_array(fn, np, shp, count, dt, "array")


def _core_tensor(shape, dtype):
    """shmem.core.tensor: a CPU torch tensor over new symmetric memory."""
    fn = "tensor"
    torch = import_opt("torch", "python3-torch", fn)
    cdef size_t count
    cdef tuple shp = get_shape(fn, shape, &count)
    if not isinstance(dtype, torch.dtype):
        raise TypeError("%s: dtype must be a torch.dtype, not %.100s" %
                        (fn, type(dtype).__name__))
    return _make_tensor(fn, torch, shp, count, dtype, "tensor")


def _core_free(obj, kind, ptr):
    """shmem.core.free of a buffer, array or tensor it made."""
    fn = "free"
    need_init(fn)
    forget(fn, kind, obj, get_u64(fn, "ptr", ptr))


def _peer_buffer(ptr, nbytes, pe, str fn="get_peer_buffer"):
    """A SymmetricBuffer over pe's copy of the nbytes of this PE's
    symmetric memory at ptr (loads and stores, no copy). AclshmemInvalid
    when pe is on another node (no load/store path); fn names the call in
    errors."""
    cdef uint64_t p = get_u64(fn, "ptr", ptr)
    cdef uint64_t n = get_u64(fn, "nbytes", nbytes)
    cdef long long q = get_ll(fn, "pe", pe, INT32_MIN, INT32_MAX)
    need_init(fn)
    check_pe(fn, q, 0)
    check_sym(fn, "the object", p, n)
    if q == shmem_my_pe():
        return symbuf_new(p, n, <int>q)
    cdef void *r = shmem_ptr(<void *><uintptr_t>p, <int>q)
    if r == NULL:
        raise AclshmemInvalid("%s: PE %d is not on this node: its memory "
                              "has no load/store view (use get / put)" %
                              (fn, q))
    return symbuf_new(<uintptr_t>r, n, <int>q)


# ---- shmem.core's put and get: the objects' memory found here ------------

cdef object _ndarray_type = None
cdef object _core_info = None    # shmem.core._info (tensors and the rest)


def _set_core_info(f):
    """shmem.core registers its _info (the memory of any object it
    takes) for the objects the fast path below does not know."""
    global _core_info
    _core_info = f


cdef int _mem_of(str fn, str what, object obj, bint write, uint64_t *p,
                 uint64_t *n) except -1:
    """The memory of a SymmetricBuffer or a C-contiguous numpy array
    (buffer protocol: no Python-level attribute lookups), else of what
    shmem.core's _info accepts (torch tensors)."""
    global _ndarray_type
    cdef Py_buffer v
    cdef SymmetricBuffer b
    if type(obj) is SymmetricBuffer:
        b = obj
        b._usable()
        p[0] = b.ptr
        n[0] = b.nbytes
        return 0
    if _ndarray_type is None:
        import sys
        np = sys.modules.get("numpy")
        if np is not None:
            _ndarray_type = np.ndarray
    if _ndarray_type is not None and type(obj) is _ndarray_type:
        try:
            PyObject_GetBuffer(obj, &v, PyBUF_C_CONTIGUOUS |
                               (PyBUF_WRITABLE if write else 0))
        except (BufferError, ValueError) as e:
            raise AclshmemInvalid("%s: %s: %s" % (fn, what, e)) from None
        p[0] = <uintptr_t>v.buf
        n[0] = <uint64_t>v.len
        PyBuffer_Release(&v)
        return 0
    info = _core_info(fn, what, obj)
    p[0] = info[1]
    n[0] = info[2]
    return 0


def _core_rma(int k, dst, src, remote_pe):
    """shmem.core's put (k 0), get (1), put_nbi (2), get_nbi (3): dst and
    src a SymmetricBuffer, numpy array or tensor of the same size; the
    remote side symmetric."""
    fn = ("put", "get", "put_nbi", "get_nbi")[k]
    cdef bint put = k == PUT or k == PUT_NBI
    cdef uint64_t d, dn, s, sn
    _mem_of(fn, "dst", dst, not put, &d, &dn)
    _mem_of(fn, "src", src, False, &s, &sn)
    if dn != sn:
        raise AclshmemInvalid("%s: dst has %d bytes, src %d: they must be "
                              "the same" % (fn, dn, sn))
    cdef long long q = get_ll(fn, "pe", remote_pe, INT32_MIN, INT32_MAX)
    need_init(fn)
    check_pe(fn, q, 1)
    check_sym(fn, "dst" if put else "src", d if put else s, sn)
    _rma(k, <void *><uintptr_t>d, <const void *><uintptr_t>s, sn, <int>q)
