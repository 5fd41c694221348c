# SPDX-License-Identifier: MIT
# Included by _shmem.pyx: symmetric allocations, SymmetricBuffer (the
# buffer protocol and DLPack over a range of symmetric memory), finalize.
#
# Lifetime of the memory under views. numpy and torch read and write a
# SymmetricBuffer's memory straight through the pointer it exported: no
# call of this module sits between an array and its memory, so "raise
# instead of crash" cannot be had by checking on access. The rule kept
# instead: memory that a live view points to stays mapped.
#   - aclshmem_free refuses the memory of an array or tensor made by the
#     create calls while it lives (ValueError naming the free call to
#     use); other views (over aclshmemx_buffer) do not hold a free back:
#     the buffer does not own its memory, which stays mapped in the heap;
#     aclshmem_free_tensor detaches the tensor first (tensor.set_(): it
#     becomes an empty tensor, indexing it raises IndexError) and
#     aclshmemx_free_array makes the array read-only (writes raise);
#     memory freed by them stays part of the mapped heap until finalize.
#   - aclshmem_finalize does the same to every array and tensor still
#     made, then, once the runtime has unmapped its heap, maps private
#     anonymous memory (MAP_FIXED_NOREPLACE, never over anything else)
#     over the pages of every SymmetricBuffer still alive (every view
#     holds a reference to its buffer: a memoryview or numpy array through
#     its Py_buffer, a torch tensor through the object itself, since
#     torch.frombuffer releases its Py_buffer at once, so the export count
#     cannot tell): such views read zeros and write to memory nobody else
#     uses, instead of faulting. The mapping goes when the last buffer
#     over it is deallocated.
# A range that could not be shadowed (someone mapped it first) is reported
# with a RuntimeWarning. Every SymmetricBuffer is in one weak set (all
# under the GIL) so that finalize finds them.

cdef struct shadow_t:
    uintptr_t lo, hi     # the anonymous mapping
    Py_ssize_t users     # live buffers over it

# every live SymmetricBuffer
_symbufs = _weakref.WeakSet()

# DLPack (dlpack.h's layout, version 0.x: what numpy.from_dlpack and
# torch.from_dlpack take): a 1-D uint8 tensor on the CPU.
cdef struct DLDevice:
    int device_type
    int device_id

cdef struct DLDataType:
    uint8_t code
    uint8_t bits
    uint16_t lanes

cdef struct DLTensor:
    void *data
    DLDevice device
    int ndim
    DLDataType dtype
    int64_t *shape
    int64_t *strides
    uint64_t byte_offset

cdef struct DLManagedTensor:
    DLTensor dl_tensor
    void *manager_ctx
    void (*deleter)(DLManagedTensor *)

DEF DL_CPU = 1
DEF DL_UINT = 1


cdef void _dl_deleter(DLManagedTensor *m) noexcept with gil:
    Py_DECREF(<object>m.manager_ctx)
    free(m)


cdef void _dl_capsule_del(object cap):
    # a capsule no consumer took ("dltensor" still): free it here
    cdef DLManagedTensor *m
    if PyCapsule_IsValid(cap, "dltensor"):
        m = <DLManagedTensor *>PyCapsule_GetPointer(cap, "dltensor")
        m.deleter(m)


cdef class SymmetricBuffer:
    """A writable range of symmetric memory (this PE's, or a node-local
    peer's: shmem.core.get_peer_buffer) exposed through the buffer
    protocol (memoryview, numpy.frombuffer, torch.frombuffer) and DLPack
    (numpy.from_dlpack, torch.from_dlpack): no copy, writing it writes
    symmetric memory. Made by aclshmemx_buffer (which does not own the
    memory: it must not be used after the allocation is freed) or
    shmem.core.buffer (which does: shmem.core.free frees it)."""
    cdef readonly uint64_t ptr
    cdef readonly uint64_t nbytes
    cdef unsigned long gen
    cdef Py_ssize_t exports
    cdef shadow_t *shadow    # after finalize, until deallocated
    cdef int64_t shape1      # DLPack's shape
    cdef readonly int pe     # whose memory (-1: this PE's own)
    cdef bint freed          # shmem.core.free freed it
    cdef object __weakref__

    def __init__(self):
        raise TypeError("shmem.SymmetricBuffer cannot be made directly: "
                        "use aclshmemx_buffer or shmem.core.buffer")

    cdef int _usable(self) except -1:
        if self.freed:
            raise AclshmemInvalid("SymmetricBuffer: freed by "
                                  "shmem.core.free")
        if self.gen != generation or shmem_my_pe() < 0:
            raise AclshmemInvalid("SymmetricBuffer: the runtime was "
                                  "finalized since it was made")
        return 0

    def __getbuffer__(self, Py_buffer *view, int flags):
        self._usable()
        PyBuffer_FillInfo(view, self, <void *><uintptr_t>self.ptr,
                          <Py_ssize_t>self.nbytes, 0, flags)
        self.exports += 1

    def __releasebuffer__(self, Py_buffer *view):
        self.exports -= 1

    def __len__(self):
        return <Py_ssize_t>self.nbytes

    def __dealloc__(self):
        # Every view holds a reference to self (a Py_buffer's obj, or the
        # object itself): no view is left now.
        _shadow_put(self)

    def __repr__(self):
        return "<shmem.SymmetricBuffer ptr=%#x nbytes=%d>" % (self.ptr,
                                                              self.nbytes)

    def __dlpack_device__(self):
        """(device type, device id): (1, 0), the CPU (kDLCPU): the heap is
        host memory."""
        return (DL_CPU, 0)

    def __dlpack__(self, stream=None):
        """A DLPack capsule of the buffer's bytes (a 1-D uint8 tensor, no
        copy): numpy.from_dlpack(buf), torch.from_dlpack(buf). stream must
        be None (host memory)."""
        if stream is not None:
            raise AclshmemInvalid("SymmetricBuffer.__dlpack__: stream %r: "
                                  "host memory has no stream" % (stream,))
        self._usable()
        cdef DLManagedTensor *m = <DLManagedTensor *>malloc(
            sizeof(DLManagedTensor))
        if m == NULL:
            raise MemoryError()
        m.dl_tensor.data = <void *><uintptr_t>self.ptr
        m.dl_tensor.device.device_type = DL_CPU
        m.dl_tensor.device.device_id = 0
        m.dl_tensor.ndim = 1
        m.dl_tensor.dtype.code = DL_UINT
        m.dl_tensor.dtype.bits = 8
        m.dl_tensor.dtype.lanes = 1
        self.shape1 = <int64_t>self.nbytes
        m.dl_tensor.shape = &self.shape1
        m.dl_tensor.strides = NULL
        m.dl_tensor.byte_offset = 0
        Py_INCREF(self)
        m.manager_ctx = <void *>self
        m.deleter = _dl_deleter
        return PyCapsule_New(m, "dltensor",
                             <void (*)(object)>_dl_capsule_del)


cdef void _shadow_put(SymmetricBuffer b):
    cdef shadow_t *sh = b.shadow
    b.shadow = NULL
    if sh != NULL:
        sh.users -= 1
        if sh.users == 0:
            munmap(<void *>sh.lo, sh.hi - sh.lo)
            free(sh)


cdef SymmetricBuffer symbuf_new(uint64_t ptr, uint64_t nbytes, int pe=-1):
    cdef SymmetricBuffer b = SymmetricBuffer.__new__(SymmetricBuffer)
    b.ptr = ptr
    b.nbytes = nbytes
    b.gen = generation
    b.exports = 0
    b.shadow = NULL
    b.pe = pe
    b.freed = False
    _symbufs.add(b)
    return b


cdef Py_ssize_t shadow_exported():
    """After the runtime unmapped the heap: anonymous memory under every
    buffer still alive (see above). Returns the buffers left
    unshadowed."""
    cdef uintptr_t pg = <uintptr_t>sysconf(_SC_PAGESIZE)
    cdef SymmetricBuffer b
    cdef list v = sorted([b for b in _symbufs
                          if b.nbytes and b.shadow == NULL and
                          b.gen == generation], key=lambda x: x.ptr)
    cdef Py_ssize_t n = len(v), i = 0, j, t, bad = 0
    cdef uintptr_t lo, hi, e
    cdef shadow_t *sh
    cdef void *m
    while i < n:
        b = v[i]
        lo = <uintptr_t>b.ptr & ~(pg - 1)
        hi = 0
        j = i
        while j < n:
            b = v[j]
            if j != i and (<uintptr_t>b.ptr & ~(pg - 1)) >= hi:
                break
            e = (<uintptr_t>(b.ptr + b.nbytes) + pg - 1) & ~(pg - 1)
            if e > hi:
                hi = e
            j += 1
        sh = <shadow_t *>malloc(sizeof(shadow_t))
        m = MAP_FAILED
        if sh != NULL:
            m = mmap(<void *>lo, hi - lo, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
                     -1, 0)
        if m != MAP_FAILED and <uintptr_t>m != lo:
            munmap(m, hi - lo)  # a kernel without NOREPLACE
            m = MAP_FAILED
        if m == MAP_FAILED:
            free(sh)
            bad += j - i
        else:
            sh.lo = lo
            sh.hi = hi
            sh.users = j - i
            for t in range(i, j):
                (<SymmetricBuffer>v[t]).shadow = sh
        i = j
    return bad


cdef void _detach(str kind, object obj):
    """Makes obj, made by the create call of kind, stop using its memory
    (see above): a tensor is set_() to an empty storage, an array made
    read-only. A failure is reported (a RuntimeWarning): the free goes
    on."""
    try:
        if kind == "tensor":
            obj.set_()
        elif kind == "array":
            obj.setflags(write=False)
        elif kind == "buffer":
            (<SymmetricBuffer>obj).freed = True
    except Exception as e:
        _warnings.warn("shmem: the freed %s could not be detached from its "
                       "memory (%s: %s); it must not be used any more" %
                       (kind, type(e).__name__, e), RuntimeWarning)


def _live_allocations():
    """[(ptr, kind, object)] of the arrays, tensors and buffers made by
    the create calls and not freed (shmem.core's leak report)."""
    out = []
    for p, (kind, ref) in registry.items():
        o = ref()
        if o is not None:
            out.append((p, kind, o))
    return out


def aclshmem_finalize():
    """aclshmem_finalize() -> None

    Finalize and clean up the runtime.

    Must be called by all PEs before the program ends; releases all
    symmetric memory and communication resources. Tensors made by
    aclshmem_create_tensor become empty, arrays made by
    aclshmemx_create_array read-only, and other views of symmetric memory
    read zeros from then on (memory of their own, unmapped when the last
    of them goes), never the freed heap. Raises RuntimeError when the
    final barrier failed (a PE ended); the resources are released either
    way. A no-op when not initialized."""
    global generation
    if shmem_my_pe() < 0:
        return
    cdef Py_ssize_t live = 0
    for p, kind, o in _live_allocations():
        if kind != "buffer":  # (a buffer refuses new views after it)
            live += 1
            _detach(kind, o)
    registry.clear()
    live_ptrs.clear()
    if live:
        _warnings.warn("aclshmem_finalize: %d symmetric array(s)/tensor(s) "
                       "not freed; they must not be used any more" % live,
                       RuntimeWarning, stacklevel=2)
    cdef int rc
    with nogil:
        rc = shmemx_finalize_status()
    cdef Py_ssize_t bad = shadow_exported()
    generation += 1
    if bad:
        _warnings.warn("aclshmem_finalize: %d view(s) of symmetric memory "
                       "could not be kept mapped; using them will crash" %
                       bad, RuntimeWarning, stacklevel=2)
    if rc < 0:
        fail_rc("aclshmem_finalize", rc)


# ---- allocation ------------------------------------------------------------

cdef object live_add(void *p):
    cdef object r = <uintptr_t>p
    if p != NULL:
        live_ptrs.add(r)
    return r


cdef void *do_malloc(size_t n):
    cdef void *p
    with nogil:
        p = shmem_malloc(n)
    return p


def aclshmem_malloc(nbytes):
    """aclshmem_malloc(nbytes: int) -> int

    Allocate nbytes of symmetric memory from the heap.

    Returns the address as an int, or 0 on failure (or for 0 bytes). The
    memory is at the same offset in every PE's heap; all PEs must call
    this with the same nbytes (collective: it ends with a barrier)."""
    cdef size_t n = get_size("aclshmem_malloc", "nbytes", nbytes)
    need_init("aclshmem_malloc")
    return live_add(do_malloc(n))


def aclshmem_calloc(count, size):
    """aclshmem_calloc(count: int, size: int) -> int

    Allocate count * size bytes of zeroed symmetric memory.

    Returns the address, or 0 on failure. All PEs must call with the same
    arguments (collective)."""
    fn = "aclshmem_calloc"
    cdef size_t c = get_size(fn, "count", count)
    cdef size_t s = get_size(fn, "size", size)
    need_init(fn)
    cdef void *p
    with nogil:
        p = shmem_calloc(c, s)
    return live_add(p)


def aclshmem_align(alignment, size):
    """aclshmem_align(alignment: int, size: int) -> int

    Allocate size bytes of symmetric memory aligned to alignment bytes (a
    power of 2).

    Returns the address, or 0 on failure. Collective, same arguments on
    all PEs."""
    fn = "aclshmem_align"
    cdef size_t a = get_size(fn, "alignment", alignment)
    cdef size_t s = get_size(fn, "size", size)
    if a == 0 or (a & (a - 1)):
        raise AclshmemInvalid("%s: alignment %d is not a power of 2" %
                              (fn, a))
    need_init(fn)
    cdef void *p
    with nogil:
        p = shmem_align(a, s)
    return live_add(p)


_MADE_BY = {"tensor": ("a tensor", "aclshmem_create_tensor",
                       "aclshmem_free_tensor"),
            "array": ("an array", "aclshmemx_create_array",
                      "aclshmemx_free_array"),
            "buffer": ("a buffer", "shmem.core.buffer", "shmem.core.free")}


def aclshmem_free(ptr):
    """aclshmem_free(ptr: int) -> None

    Free symmetric memory allocated with aclshmem_malloc / calloc /
    align.

    All PEs free collectively (a barrier, then the free). 0 is allowed (the
    barrier only); an address outside the heap, the memory of a live
    tensor or array made by the create calls, or a second free of the same
    address raises ValueError."""
    fn = "aclshmem_free"
    cdef uint64_t p = get_u64(fn, "ptr", ptr)
    need_init(fn)
    if p:
        check_sym(fn, "ptr", p, 0)
    # The memory of a live array or tensor stays allocated (see above).
    v = registry.get(p)
    if v is not None and v[1]() is not None:
        what, made, use = _MADE_BY[v[0]]
        raise AclshmemInvalid("%s: ptr %#x is the memory of %s made by %s: "
                              "free it with %s" % (fn, p, what, made, use))
    if p and v is None:
        # Not an array's or tensor's: one of malloc / calloc / align's
        # still live, else a second free.
        if p not in live_ptrs:
            raise AclshmemInvalid("%s: ptr %#x is not a live allocation of "
                                  "aclshmem_malloc / calloc / align (freed "
                                  "twice?)" % (fn, p))
        live_ptrs.discard(p)
    registry.pop(p, None)
    with nogil:
        shmem_free(<void *><uintptr_t>p)


def aclshmem_ptr(local_ptr, pe):
    """aclshmem_ptr(local_ptr: int, pe: int) -> int

    Address through which this process can load and store pe's copy of
    the symmetric object at local_ptr, or 0 if it is not accessible (a PE
    on another node)."""
    fn = "aclshmem_ptr"
    cdef uint64_t p = get_u64(fn, "local_ptr", local_ptr)
    cdef long long q = get_ll(fn, "pe", pe, INT32_MIN, INT32_MAX)
    need_init(fn)
    check_pe(fn, q, 0)
    check_sym(fn, "local_ptr", p, 0)
    return <uintptr_t>shmem_ptr(<void *><uintptr_t>p, <int>q)


def aclshmemx_get_heap_base():
    """aclshmemx_get_heap_base() -> int

    Base address of this PE's symmetric heap."""
    need_init("aclshmemx_get_heap_base")
    return <uintptr_t>shmemx_heap_base()


def aclshmemx_buffer(ptr, nbytes):
    """aclshmemx_buffer(ptr: int, nbytes: int) -> SymmetricBuffer

    A buffer-protocol object over nbytes of this PE's symmetric heap at
    ptr (memoryview(b), numpy.frombuffer(b), torch.frombuffer(b): no
    copy). It does not own the memory."""
    fn = "aclshmemx_buffer"
    cdef uint64_t p = get_u64(fn, "ptr", ptr)
    cdef uint64_t n = get_u64(fn, "nbytes", nbytes)
    need_init(fn)
    check_sym(fn, "ptr", p, n)
    if n > <uint64_t>0x7fffffffffffffff:
        raise AclshmemInvalid("%s: nbytes too large" % fn)
    return symbuf_new(p, n)

