# SPDX-License-Identifier: MIT
# cython: language_level=3
#
# wholememory_binding: pylibwholegraph's binding over libzewholememory
# (api/wholememory/*.h), written for zemem (Cython 0.29).
#
# Vocabulary: a "wm tensor" (PyWholeMemoryTensor) is a wholememory_tensor_t
# over a WholeMemory handle; a PlainTensor is a wholememory_tensor_t over
# memory of this process (a torch tensor's storage, found by its data
# pointer, sizes and strides, which the caller keeps alive during the
# call). Every C call's error code becomes WholeMemoryError (its .code the
# wholememory_error_code_t); nothing here takes torch: the torch face
# (pylibwholegraph.torch) turns tensors into PlainTensors and buffers this
# module fills back into tensors.
#
# Lifetimes: an object that owns its C object frees it once (destroy or
# the object's end); one that does not keeps its owner referenced.

from libc.stdint cimport int64_t, uintptr_t
from libc.stdlib cimport malloc, free, calloc
from libc.string cimport memcpy, memset
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.bytearray cimport PyByteArray_FromStringAndSize, \
    PyByteArray_AS_STRING
from cpython.mem cimport PyMem_Malloc, PyMem_Free

cdef extern from "wholememory/wholememory.h" nogil:
    ctypedef enum wholememory_error_code_t:
        WHOLEMEMORY_SUCCESS
    ctypedef enum wholememory_memory_type_t:
        pass
    ctypedef enum wholememory_memory_location_t:
        pass
    ctypedef enum wholememory_distributed_backend_t:
        pass
    ctypedef enum LogLevel:
        pass
    ctypedef struct wholememory_comm_:
        pass
    ctypedef wholememory_comm_ *wholememory_comm_t
    ctypedef struct wholememory_handle_:
        pass
    ctypedef wholememory_handle_ *wholememory_handle_t
    ctypedef struct wholememory_unique_id_t:
        char internal[128]
    ctypedef struct clique_info_t:
        int is_in_clique
        int clique_first_rank
        int clique_rank
        int clique_rank_num
        int clique_id
        int clique_num
    wholememory_error_code_t wholememory_init(unsigned int flags,
                                              LogLevel log_level)
    wholememory_error_code_t wholememory_finalize()
    wholememory_error_code_t wholememory_create_unique_id(
        wholememory_unique_id_t *unique_id)
    wholememory_error_code_t wholememory_create_communicator(
        wholememory_comm_t *comm, wholememory_unique_id_t unique_id,
        int rank, int size)
    wholememory_error_code_t wholememory_create_communicator_from_env(
        wholememory_comm_t *comm)
    wholememory_error_code_t wholememory_split_communicator(
        wholememory_comm_t *new_comm, wholememory_comm_t comm, int color,
        int key)
    wholememory_error_code_t wholememory_destroy_communicator(
        wholememory_comm_t comm)
    wholememory_error_code_t wholememory_communicator_support_type_location(
        wholememory_comm_t comm, wholememory_memory_type_t memory_type,
        wholememory_memory_location_t memory_location)
    wholememory_error_code_t wholememory_communicator_get_rank(
        int *rank, wholememory_comm_t comm)
    wholememory_error_code_t wholememory_communicator_get_size(
        int *size, wholememory_comm_t comm)
    wholememory_error_code_t wholememory_communicator_get_local_size(
        int *local_size, wholememory_comm_t comm)
    wholememory_error_code_t wholememory_communicator_get_clique_info(
        clique_info_t *clique_info, wholememory_comm_t comm)
    wholememory_error_code_t wholememory_communicator_set_distributed_backend(
        wholememory_comm_t comm,
        wholememory_distributed_backend_t distributed_backend)
    wholememory_distributed_backend_t \
        wholememory_communicator_get_distributed_backend(
            wholememory_comm_t comm)
    wholememory_error_code_t wholememory_communicator_barrier(
        wholememory_comm_t comm)
    wholememory_error_code_t wholememory_get_communicator(
        wholememory_comm_t *comm, wholememory_handle_t wholememory_handle)
    wholememory_memory_type_t wholememory_get_memory_type(
        wholememory_handle_t wholememory_handle)
    wholememory_error_code_t wholememory_get_rank_memory(
        void **rank_memory_ptr, size_t *rank_memory_size,
        size_t *rank_memory_offset, int rank,
        wholememory_handle_t wholememory_handle)
    wholememory_memory_location_t wholememory_get_memory_location(
        wholememory_handle_t wholememory_handle)
    wholememory_error_code_t wholememory_load_from_file(
        wholememory_handle_t wholememory_handle, size_t memory_offset,
        size_t memory_entry_size, size_t file_entry_size,
        const char **file_names, int file_count, int round_robin_size)
    wholememory_error_code_t wholememory_store_to_file(
        wholememory_handle_t wholememory_handle, size_t memory_offset,
        size_t memory_entry_stride, size_t file_entry_size,
        const char *local_file_name)

cdef extern from "wholememory/tensor_description.h" nogil:
    ctypedef enum wholememory_dtype_t:
        WHOLEMEMORY_DT_UNKNOWN
        WHOLEMEMORY_DT_COUNT
    size_t wholememory_dtype_get_element_size(wholememory_dtype_t dtype)
    ctypedef struct wholememory_tensor_description_t:
        int64_t sizes[8]
        int64_t strides[8]
        int64_t storage_offset
        int dim
        wholememory_dtype_t dtype
    void wholememory_initialize_tensor_desc(
        wholememory_tensor_description_t *p_tensor_description)

cdef extern from "wholememory/env_func_ptrs.h" nogil:
    ctypedef enum wholememory_memory_allocation_type_t:
        pass
    ctypedef void *(*wholememory_malloc_func_t)(
        wholememory_tensor_description_t *desc,
        wholememory_memory_allocation_type_t memory_allocation_type,
        void *memory_context, void *global_context)
    ctypedef void (*wholememory_free_func_t)(void *memory_context,
                                             void *global_context)
    ctypedef struct wholememory_temp_memory_func_t:
        pass
    ctypedef struct wholememory_output_memory_func_t:
        wholememory_malloc_func_t malloc_fn
        wholememory_free_func_t free_fn
        void *global_context
    ctypedef struct wholememory_env_func_t:
        wholememory_temp_memory_func_t temporary_fns
        wholememory_output_memory_func_t output_fns
    wholememory_env_func_t *wholememoryx_get_default_env_func()

cdef extern from "wholememory/wholememory_tensor.h" nogil:
    ctypedef struct wholememory_tensor_:
        pass
    ctypedef wholememory_tensor_ *wholememory_tensor_t
    wholememory_error_code_t wholememory_create_tensor(
        wholememory_tensor_t *wholememory_tensor,
        wholememory_tensor_description_t *tensor_description,
        wholememory_comm_t comm, wholememory_memory_type_t memory_type,
        wholememory_memory_location_t memory_location,
        size_t *tensor_entry_partition)
    wholememory_error_code_t wholememory_destroy_tensor(
        wholememory_tensor_t wholememory_tensor)
    wholememory_error_code_t wholememory_make_tensor_from_pointer(
        wholememory_tensor_t *wholememory_tensor, void *storage_ptr,
        wholememory_tensor_description_t *tensor_description)
    wholememory_handle_t wholememory_tensor_get_memory_handle(
        wholememory_tensor_t wholememory_tensor)
    wholememory_tensor_description_t *wholememory_tensor_get_tensor_description(
        wholememory_tensor_t wholememory_tensor)
    wholememory_error_code_t wholememory_tensor_map_local_tensor(
        wholememory_tensor_t wholememory_tensor,
        wholememory_tensor_t *local_tensor)
    void *wholememory_tensor_get_data_pointer(
        wholememory_tensor_t wholememory_tensor)
    wholememory_error_code_t wholememory_tensor_get_entry_offsets(
        size_t *entry_offsets, wholememory_tensor_t wholememory_tensor)
    wholememory_error_code_t wholememory_tensor_get_local_entry_start(
        size_t *local_entry_start, wholememory_tensor_t wholememory_tensor)
    wholememory_error_code_t wholememory_tensor_get_local_entry_count(
        size_t *local_entry_count, wholememory_tensor_t wholememory_tensor)
    wholememory_error_code_t wholememory_tensor_get_subtensor(
        wholememory_tensor_t wholememory_tensor, int64_t *starts,
        int64_t *ends, wholememory_tensor_t *sub_wholememory_tensor)

cdef extern from "wholememory/wholememory_op.h" nogil:
    wholememory_error_code_t wholememory_gather(
        wholememory_tensor_t wholememory_tensor,
        wholememory_tensor_t indices_tensor,
        wholememory_tensor_t output_tensor,
        wholememory_env_func_t *p_env_fns, void *stream, int gather_sms)
    wholememory_error_code_t wholememory_scatter(
        wholememory_tensor_t input_tensor,
        wholememory_tensor_t indices_tensor,
        wholememory_tensor_t wholememory_tensor,
        wholememory_env_func_t *p_env_fns, void *stream, int scatter_sms)

cdef extern from "wholememory/embedding.h" nogil:
    ctypedef struct wholememory_embedding_cache_policy_:
        pass
    ctypedef wholememory_embedding_cache_policy_ \
        *wholememory_embedding_cache_policy_t
    ctypedef struct wholememory_embedding_optimizer_:
        pass
    ctypedef wholememory_embedding_optimizer_ \
        *wholememory_embedding_optimizer_t
    ctypedef struct wholememory_embedding_:
        pass
    ctypedef wholememory_embedding_ *wholememory_embedding_t
    ctypedef enum wholememory_access_type_t:
        pass
    ctypedef enum wholememory_optimizer_type_t:
        pass
    wholememory_error_code_t wholememory_create_embedding_optimizer(
        wholememory_embedding_optimizer_t *optimizer,
        wholememory_optimizer_type_t optimizer_type)
    wholememory_error_code_t wholememory_optimizer_set_parameter(
        wholememory_embedding_optimizer_t optimizer,
        const char *parameter_name, void *value)
    void wholememory_destroy_embedding_optimizer(
        wholememory_embedding_optimizer_t optimizer)
    wholememory_error_code_t wholememory_create_embedding_cache_policy(
        wholememory_embedding_cache_policy_t *cache_policy,
        wholememory_comm_t cache_level_comm,
        wholememory_memory_type_t memory_type,
        wholememory_memory_location_t memory_location,
        wholememory_access_type_t access_type, float cache_ratio)
    wholememory_error_code_t wholememory_destroy_embedding_cache_policy(
        wholememory_embedding_cache_policy_t cache_policy)
    wholememory_error_code_t wholememory_create_embedding(
        wholememory_embedding_t *wholememory_embedding,
        wholememory_tensor_description_t *embedding_tensor_description,
        wholememory_comm_t comm, wholememory_memory_type_t memory_type,
        wholememory_memory_location_t memory_location,
        wholememory_embedding_cache_policy_t cache_policy,
        size_t *embedding_entry_partition, int user_defined_sms,
        int round_robin_size)
    wholememory_error_code_t wholememory_destroy_embedding(
        wholememory_embedding_t wholememory_embedding)
    wholememory_tensor_t wholememory_embedding_get_embedding_tensor(
        wholememory_embedding_t wholememory_embedding)
    wholememory_error_code_t wholememory_embedding_set_optimizer(
        wholememory_embedding_t wholememory_embedding,
        wholememory_embedding_optimizer_t optimizer)
    wholememory_error_code_t wholememory_embedding_gather(
        wholememory_embedding_t wholememory_embedding,
        wholememory_tensor_t indices, wholememory_tensor_t output,
        bint adjust_cache, wholememory_env_func_t *p_env_fns,
        int64_t stream_int)
    wholememory_error_code_t wholememory_embedding_gather_gradient_apply(
        wholememory_embedding_t wholememory_embedding,
        wholememory_tensor_t indices, wholememory_tensor_t grads,
        bint adjust_cache, float lr, wholememory_env_func_t *p_env_fns,
        int64_t stream_int)
    const char *const *wholememory_embedding_get_optimizer_state_names(
        wholememory_embedding_t wholememory_embedding)
    wholememory_tensor_t wholememory_embedding_get_optimizer_state(
        wholememory_embedding_t wholememory_embedding, const char *name)
    wholememory_error_code_t wholememory_embedding_writeback_cache(
        wholememory_embedding_t wholememory_embedding, int64_t stream_int)
    wholememory_error_code_t wholememory_embedding_drop_all_cache(
        wholememory_embedding_t wholememory_embedding, int64_t stream_int)

cdef extern from "wholememory/wholegraph_op.h" nogil:
    wholememory_error_code_t \
        wholegraph_csr_unweighted_sample_without_replacement(
            wholememory_tensor_t wm_csr_row_ptr_tensor,
            wholememory_tensor_t wm_csr_col_ptr_tensor,
            wholememory_tensor_t center_nodes_tensor, int max_sample_count,
            wholememory_tensor_t output_sample_offset_tensor,
            void *output_dest_memory_context,
            void *output_center_localid_memory_context,
            void *output_edge_gid_memory_context,
            unsigned long long random_seed,
            wholememory_env_func_t *p_env_fns, void *stream)
    wholememory_error_code_t \
        wholegraph_csr_weighted_sample_without_replacement(
            wholememory_tensor_t wm_csr_row_ptr_tensor,
            wholememory_tensor_t wm_csr_col_ptr_tensor,
            wholememory_tensor_t wm_csr_weight_ptr_tensor,
            wholememory_tensor_t center_nodes_tensor, int max_sample_count,
            wholememory_tensor_t output_sample_offset_tensor,
            void *output_dest_memory_context,
            void *output_center_localid_memory_context,
            void *output_edge_gid_memory_context,
            unsigned long long random_seed,
            wholememory_env_func_t *p_env_fns, void *stream)
    wholememory_error_code_t generate_random_positive_int_cpu(
        int64_t random_seed, int64_t subsequence,
        wholememory_tensor_t output)
    wholememory_error_code_t \
        generate_exponential_distribution_negative_float_cpu(
            int64_t random_seed, int64_t subsequence,
            wholememory_tensor_t output)

cdef extern from "wholememory/graph_op.h" nogil:
    wholememory_error_code_t graph_append_unique(
        wholememory_tensor_t target_nodes_tensor,
        wholememory_tensor_t neighbor_nodes_tensor,
        void *output_unique_node_memory_context,
        wholememory_tensor_t output_neighbor_raw_to_unique_mapping_tensor,
        wholememory_env_func_t *p_env_fns, void *stream)
    wholememory_error_code_t csr_add_self_loop(
        wholememory_tensor_t csr_row_ptr_tensor,
        wholememory_tensor_t csr_col_ptr_tensor,
        wholememory_tensor_t output_csr_row_ptr_tensor,
        wholememory_tensor_t output_csr_col_ptr_tensor, void *stream)


# ---- enumerations (the C values) ---------------------------------------

class WholeMemoryErrorCode:
    Success = 0
    UnknowError = 1
    NotImplemented = 2
    LogicError = 3
    CudaError = 4
    CommunicationError = 5
    InvalidInput = 6
    InvalidValue = 7
    OutOfMemory = 8
    NotSupported = 9
    SystemError = 10

_ERROR_NAMES = {v: k for k, v in vars(WholeMemoryErrorCode).items()
                if not k.startswith('_')}


class WholeMemoryMemoryType:
    MtNone = 0
    MtContinuous = 1
    MtChunked = 2
    MtDistributed = 3
    MtHierarchy = 4


class WholeMemoryMemoryLocation:
    MlNone = 0
    MlDevice = 1
    MlHost = 2


class WholeMemoryDistributedBackendType:
    DbNone = 0
    DbNccl = 1
    DbNvshmem = 2


class WholeMemoryLogLevel:
    LlFatal = 0
    LlError = 1
    LlWarn = 2
    LlInfo = 3
    LlDebug = 4
    LlTrace = 5


class WholeMemoryDataType:
    DtUnknown = 0
    DtFloat = 1
    DtHalf = 2
    DtDouble = 3
    DtBF16 = 4
    DtInt = 5
    DtInt64 = 6
    DtInt16 = 7
    DtInt8 = 8


class WholeMemoryAccessType:
    AtNone = 0
    AtReadOnly = 1
    AtReadWrite = 2


class WholeMemoryOptimizerType:
    OptNone = 0
    OptSgd = 1
    OptLazyAdam = 2
    OptRmsProp = 3
    OptAdaGrad = 4


class WholeMemoryError(RuntimeError):
    """A libzewholememory call failed; .code is its error code."""

    def __init__(self, code, what):
        self.code = code
        RuntimeError.__init__(self, "%s: %s (%d)" % (
            what, _ERROR_NAMES.get(code, "error"), code))


cdef int check(wholememory_error_code_t rc, what) except -1:
    if rc != WHOLEMEMORY_SUCCESS:
        raise WholeMemoryError(<int>rc, what)
    return 0


def dtype_element_size(int dtype):
    """Bytes of one element of a WholeMemoryDataType (0: unknown)."""
    if dtype <= 0 or dtype >= <int>WHOLEMEMORY_DT_COUNT:
        return 0
    return wholememory_dtype_get_element_size(<wholememory_dtype_t>dtype)


cdef int fill_desc(wholememory_tensor_description_t *d, sizes, strides,
                   int dtype, int64_t storage_offset=0) except -1:
    cdef int i
    cdef int n = len(sizes)
    if n > 8:
        raise ValueError("at most 8 dimensions, not %d" % n)
    if strides is not None and len(strides) != n:
        raise ValueError("%d sizes but %d strides" % (n, len(strides)))
    if dtype <= 0 or dtype >= <int>WHOLEMEMORY_DT_COUNT:
        raise ValueError("unknown WholeMemory dtype %r" % (dtype,))
    wholememory_initialize_tensor_desc(d)
    d.dim = n
    d.dtype = <wholememory_dtype_t>dtype
    d.storage_offset = storage_offset
    for i in range(n):
        d.sizes[i] = sizes[i]
    if strides is None:
        if n:
            d.strides[n - 1] = 1
        for i in range(n - 2, -1, -1):
            d.strides[i] = d.strides[i + 1] * d.sizes[i + 1]
    else:
        for i in range(n):
            d.strides[i] = strides[i]
    return 0


# ---- library ------------------------------------------------------------

def init(unsigned int flags=0, int log_level=WholeMemoryLogLevel.LlInfo):
    check(wholememory_init(flags, <LogLevel>log_level), "wholememory_init")


def finalize():
    check(wholememory_finalize(), "wholememory_finalize")


cdef class PyWholeMemoryUniqueID:
    """A unique id: 128 bytes that rank 0 makes (create_unique_id) and
    every rank passes to create_communicator."""
    cdef wholememory_unique_id_t uid

    def __cinit__(self, data=None):
        memset(self.uid.internal, 0, 128)
        if data is not None:
            b = bytes(data)
            if len(b) != 128:
                raise ValueError("a unique id is 128 bytes, not %d" %
                                 len(b))
            memcpy(self.uid.internal, <const char *>b, 128)

    def to_bytes(self):
        return PyBytes_FromStringAndSize(self.uid.internal, 128)


def create_unique_id():
    cdef PyWholeMemoryUniqueID u = PyWholeMemoryUniqueID()
    check(wholememory_create_unique_id(&u.uid), "create_unique_id")
    return u


cdef class PyWholeMemoryComm:
    cdef wholememory_comm_t c

    def __cinit__(self):
        self.c = NULL

    cdef wholememory_comm_t get(self) except NULL:
        if self.c == NULL:
            raise ValueError("communicator destroyed")
        return self.c

    def get_rank(self):
        cdef int r = 0
        check(wholememory_communicator_get_rank(&r, self.get()), "get_rank")
        return r

    def get_size(self):
        cdef int s = 0
        check(wholememory_communicator_get_size(&s, self.get()), "get_size")
        return s

    def get_local_size(self):
        cdef int s = 0
        check(wholememory_communicator_get_local_size(&s, self.get()),
              "get_local_size")
        return s

    def get_clique_info(self):
        cdef clique_info_t ci
        check(wholememory_communicator_get_clique_info(&ci, self.get()),
              "get_clique_info")
        return (ci.is_in_clique, ci.clique_first_rank, ci.clique_rank,
                ci.clique_rank_num, ci.clique_id, ci.clique_num)

    def barrier(self):
        cdef wholememory_comm_t c = self.get()
        cdef wholememory_error_code_t rc
        with nogil:
            rc = wholememory_communicator_barrier(c)
        check(rc, "barrier")

    def support_type_location(self, int memory_type, int memory_location):
        return wholememory_communicator_support_type_location(
            self.get(), <wholememory_memory_type_t>memory_type,
            <wholememory_memory_location_t>memory_location) == \
            WHOLEMEMORY_SUCCESS

    def get_distributed_backend(self):
        return <int>wholememory_communicator_get_distributed_backend(
            self.get())

    def set_distributed_backend(self, int backend):
        check(wholememory_communicator_set_distributed_backend(
            self.get(), <wholememory_distributed_backend_t>backend),
            "set_distributed_backend")


cdef PyWholeMemoryComm wrap_comm(wholememory_comm_t c):
    cdef PyWholeMemoryComm p = PyWholeMemoryComm()
    p.c = c
    return p


def create_communicator(PyWholeMemoryUniqueID uid, int rank, int size):
    cdef wholememory_comm_t c = NULL
    cdef wholememory_error_code_t rc
    with nogil:
        rc = wholememory_create_communicator(&c, uid.uid, rank, size)
    check(rc, "create_communicator")
    return wrap_comm(c)


def create_communicator_from_env():
    cdef wholememory_comm_t c = NULL
    cdef wholememory_error_code_t rc
    with nogil:
        rc = wholememory_create_communicator_from_env(&c)
    check(rc, "create_communicator_from_env")
    return wrap_comm(c)


def split_communicator(PyWholeMemoryComm comm, int color, int key):
    cdef wholememory_comm_t c = NULL
    cdef wholememory_comm_t parent = comm.get()
    cdef wholememory_error_code_t rc
    with nogil:
        rc = wholememory_split_communicator(&c, parent, color, key)
    check(rc, "split_communicator")
    return wrap_comm(c) if c != NULL else None


def destroy_communicator(PyWholeMemoryComm comm):
    if comm.c != NULL:
        check(wholememory_destroy_communicator(comm.c),
              "destroy_communicator")
        comm.c = NULL


def communicator_set_distributed_backend(PyWholeMemoryComm comm,
                                         int backend):
    comm.set_distributed_backend(backend)


# ---- tensors over this process's memory ---------------------------------

cdef class PlainTensor:
    """A wholememory_tensor_t over memory at address ptr (sizes and
    strides in elements, dtype a WholeMemoryDataType). The memory must
    stay alive while this object is used; this object never frees it."""
    cdef wholememory_tensor_t t

    def __cinit__(self, uintptr_t ptr, sizes, strides, int dtype):
        cdef wholememory_tensor_description_t d
        self.t = NULL
        fill_desc(&d, sizes, strides, dtype)
        check(wholememory_make_tensor_from_pointer(&self.t, <void *>ptr,
                                                   &d),
              "make_tensor_from_pointer")

    def __dealloc__(self):
        if self.t != NULL:
            wholememory_destroy_tensor(self.t)
            self.t = NULL


cdef wholememory_tensor_t plain(PlainTensor p) except NULL:
    if p is None or p.t == NULL:
        raise ValueError("no tensor")
    return p.t


# ---- WholeMemory tensors -----------------------------------------------

cdef class PyWholeMemoryTensor:
    """A WholeMemory tensor. owner: what keeps it alive when this object
    does not own it (an embedding, the parent of a sub tensor)."""
    cdef wholememory_tensor_t t
    cdef bint owned
    cdef object owner

    def __cinit__(self):
        self.t = NULL
        self.owned = False
        self.owner = None

    def __dealloc__(self):
        # a table made by create_wholememory_tensor is freed collectively
        # by destroy_wholememory_tensor; a sub tensor is freed here
        if self.t != NULL and self.owned and self.owner is not None:
            wholememory_destroy_tensor(self.t)
        self.t = NULL

    cdef wholememory_tensor_t get(self) except NULL:
        if self.t == NULL:
            raise ValueError("WholeMemory tensor destroyed")
        return self.t

    cdef wholememory_tensor_description_t *desc(self) except NULL:
        return wholememory_tensor_get_tensor_description(self.get())

    @property
    def dtype(self):
        return <int>self.desc().dtype

    def dim(self):
        return self.desc().dim

    @property
    def shape(self):
        cdef wholememory_tensor_description_t *d = self.desc()
        return tuple(d.sizes[i] for i in range(d.dim))

    def stride(self):
        cdef wholememory_tensor_description_t *d = self.desc()
        return tuple(d.strides[i] for i in range(d.dim))

    def storage_offset(self):
        return self.desc().storage_offset

    def get_memory_type(self):
        return <int>wholememory_get_memory_type(
            wholememory_tensor_get_memory_handle(self.get()))

    def get_memory_location(self):
        return <int>wholememory_get_memory_location(
            wholememory_tensor_get_memory_handle(self.get()))

    def get_communicator(self):
        cdef wholememory_comm_t c = NULL
        check(wholememory_get_communicator(
            &c, wholememory_tensor_get_memory_handle(self.get())),
            "get_communicator")
        return wrap_comm(c)

    def get_entry_offsets(self):
        cdef wholememory_comm_t c = NULL
        cdef int n = 0
        check(wholememory_get_communicator(
            &c, wholememory_tensor_get_memory_handle(self.get())),
            "get_communicator")
        check(wholememory_communicator_get_size(&n, c), "get_size")
        cdef size_t *offs = <size_t *>calloc(n + 1, sizeof(size_t))
        if offs == NULL:
            raise MemoryError()
        try:
            check(wholememory_tensor_get_entry_offsets(offs, self.t),
                  "get_entry_offsets")
            return [offs[i] for i in range(n + 1)]
        finally:
            free(offs)

    def get_local_entry_start(self):
        cdef size_t s = 0
        check(wholememory_tensor_get_local_entry_start(&s, self.get()),
              "get_local_entry_start")
        return s

    def get_local_view(self):
        """(address, sizes, strides, storage_offset, first row) of this
        rank's rows, in its own memory (address 0 for none)."""
        cdef wholememory_tensor_t lt = NULL
        cdef size_t start = 0
        check(wholememory_tensor_get_local_entry_start(&start, self.get()),
              "get_local_entry_start")
        check(wholememory_tensor_map_local_tensor(self.t, &lt),
              "map_local_tensor")
        cdef wholememory_tensor_description_t *d = \
            wholememory_tensor_get_tensor_description(lt)
        cdef void *p = wholememory_tensor_get_data_pointer(lt)
        r = (<uintptr_t>p, tuple(d.sizes[i] for i in range(d.dim)),
             tuple(d.strides[i] for i in range(d.dim)), start)
        wholememory_destroy_tensor(lt)
        return r

    def get_rank_view(self, int rank):
        """(address, sizes, strides, first row) of rank's rows as this
        process maps them (the rank's partition of CONTINUOUS or
        CHUNKED memory on this node); ValueError where it is not mapped
        here or a row spills over the partition's end."""
        offs = self.get_entry_offsets()
        if not 0 <= rank < len(offs) - 1:
            raise ValueError("rank %d of %d" % (rank, len(offs) - 1))
        cdef wholememory_tensor_description_t *d = self.desc()
        cdef size_t es = wholememory_dtype_get_element_size(d.dtype)
        cdef size_t rb = es * (d.strides[0] if d.dim == 2 else 1)
        cdef size_t start = offs[rank]
        cdef size_t end = min(offs[rank + 1], <size_t>d.sizes[0])
        if d.dim == 1 and d.storage_offset != 0:
            raise ValueError("a 1-D sub tensor has no per-rank view")
        cdef void *p = NULL
        cdef size_t size = 0
        cdef size_t off = 0
        cdef int e = wholememory_get_rank_memory(
            &p, &size, &off, rank,
            wholememory_tensor_get_memory_handle(self.get()))
        if e != 0 or p == NULL:
            raise ValueError("rank %d's memory is not mapped in this "
                             "process (DISTRIBUTED memory, or another "
                             "node)" % rank)
        sizes = [d.sizes[i] for i in range(d.dim)]
        sizes[0] = end - start if end > start else 0
        if end > start and end * rb > off + size:
            raise ValueError("rank %d's last row spills into the next "
                             "partition" % rank)
        cdef uintptr_t a = <uintptr_t>p + (start * rb - off if end > start
                                           else 0)
        a += es * <size_t>d.storage_offset
        return (a, tuple(sizes), tuple(d.strides[i] for i in range(d.dim)),
                start)

    def get_global_view(self):
        """(address, sizes, strides) of the whole table in this process
        (CONTINUOUS only: address 0 otherwise)."""
        cdef void *p = wholememory_tensor_get_data_pointer(self.get())
        cdef wholememory_tensor_description_t *d = self.desc()
        return (<uintptr_t>p, tuple(d.sizes[i] for i in range(d.dim)),
                tuple(d.strides[i] for i in range(d.dim)))

    def get_sub_tensor(self, starts, ends):
        cdef int64_t s[2]
        cdef int64_t e[2]
        cdef int i
        cdef int n = self.desc().dim
        if len(starts) != n or len(ends) != n:
            raise ValueError("starts and ends need %d entries" % n)
        for i in range(n):
            s[i] = starts[i]
            e[i] = ends[i]
        cdef PyWholeMemoryTensor sub = PyWholeMemoryTensor()
        check(wholememory_tensor_get_subtensor(self.t, s, e, &sub.t),
              "get_subtensor")
        sub.owned = True
        sub.owner = self
        return sub

    cdef int file_geometry(self, size_t *off, size_t *stride,
                           size_t *entry) except -1:
        cdef wholememory_tensor_description_t *d = self.desc()
        cdef size_t es = wholememory_dtype_get_element_size(d.dtype)
        off[0] = d.storage_offset * es
        if d.dim == 1:
            stride[0] = es
            entry[0] = es
        else:
            stride[0] = d.strides[0] * es
            entry[0] = d.sizes[1] * es
        return 0

    def from_filelist(self, filelist, int round_robin_size=0):
        cdef size_t off, stride, entry
        self.file_geometry(&off, &stride, &entry)
        names = [os_fsencode(f) for f in filelist]
        cdef int n = len(names)
        cdef const char **arr = <const char **>PyMem_Malloc(
            sizeof(char *) * (n if n else 1))
        if arr == NULL:
            raise MemoryError()
        cdef int i
        cdef wholememory_error_code_t rc
        cdef wholememory_handle_t h = wholememory_tensor_get_memory_handle(
            self.t)
        try:
            for i in range(n):
                arr[i] = <const char *>names[i]
            with nogil:
                rc = wholememory_load_from_file(h, off, stride, entry, arr,
                                                n, round_robin_size)
            check(rc, "load_from_file")
        finally:
            PyMem_Free(arr)

    def to_file(self, filename):
        cdef size_t off, stride, entry
        self.file_geometry(&off, &stride, &entry)
        name = os_fsencode(filename)
        cdef const char *cname = name
        cdef wholememory_error_code_t rc
        cdef wholememory_handle_t h = wholememory_tensor_get_memory_handle(
            self.t)
        with nogil:
            rc = wholememory_store_to_file(h, off, stride, entry, cname)
        check(rc, "store_to_file")


def os_fsencode(name):
    import os
    return os.fsencode(name)


cdef PyWholeMemoryTensor wrap_tensor(wholememory_tensor_t t, owner):
    cdef PyWholeMemoryTensor p = PyWholeMemoryTensor()
    p.t = t
    p.owned = False
    p.owner = owner
    return p


cdef size_t *partition(part, int n) except? NULL:
    cdef size_t *arr
    cdef int i
    if part is None:
        return NULL
    if len(part) != n:
        raise ValueError("the entry partition needs %d entries (one per "
                         "rank), not %d" % (n, len(part)))
    arr = <size_t *>PyMem_Malloc(sizeof(size_t) * n)
    if arr == NULL:
        raise MemoryError()
    for i in range(n):
        if part[i] < 0:
            PyMem_Free(arr)
            raise ValueError("negative entry count %r" % (part[i],))
        arr[i] = part[i]
    return arr


def create_wholememory_tensor(sizes, strides, int dtype,
                              PyWholeMemoryComm comm, int memory_type,
                              int memory_location,
                              tensor_entry_partition=None):
    cdef wholememory_tensor_description_t d
    fill_desc(&d, sizes, strides, dtype)
    cdef size_t *part = partition(tensor_entry_partition, comm.get_size())
    cdef PyWholeMemoryTensor t = PyWholeMemoryTensor()
    cdef wholememory_comm_t c = comm.get()
    cdef wholememory_error_code_t rc
    try:
        with nogil:
            rc = wholememory_create_tensor(
                &t.t, &d, c, <wholememory_memory_type_t>memory_type,
                <wholememory_memory_location_t>memory_location, part)
    finally:
        PyMem_Free(part)
    check(rc, "create_tensor")
    t.owned = True
    return t


def destroy_wholememory_tensor(PyWholeMemoryTensor t):
    cdef wholememory_error_code_t rc
    if t.t == NULL:
        raise ValueError("WholeMemory tensor destroyed already")
    if t.owned and t.owner is None:
        with nogil:
            rc = wholememory_destroy_tensor(t.t)
        t.t = NULL
        check(rc, "destroy_tensor")
    else:
        raise ValueError("this tensor belongs to another object (an "
                         "embedding, or it is a sub tensor)")


def wholememory_gather_op(PyWholeMemoryTensor wm, PlainTensor indices,
                          PlainTensor output):
    cdef wholememory_tensor_t a = wm.get()
    cdef wholememory_tensor_t b = plain(indices)
    cdef wholememory_tensor_t c = plain(output)
    cdef wholememory_error_code_t rc
    with nogil:
        rc = wholememory_gather(a, b, c, NULL, NULL, -1)
    check(rc, "wholememory_gather")


def wholememory_scatter_op(PlainTensor input, PlainTensor indices,
                           PyWholeMemoryTensor wm):
    cdef wholememory_tensor_t a = plain(input)
    cdef wholememory_tensor_t b = plain(indices)
    cdef wholememory_tensor_t c = wm.get()
    cdef wholememory_error_code_t rc
    with nogil:
        rc = wholememory_scatter(a, b, c, NULL, NULL, -1)
    check(rc, "wholememory_scatter")


# ---- embeddings ---------------------------------------------------------

cdef class WholeMemoryOptimizer:
    cdef wholememory_embedding_optimizer_t o
    cdef public object embeddings

    def __cinit__(self):
        self.o = NULL
        self.embeddings = []

    def create_optimizer(self, int optimizer_type, param_dict):
        cdef float v
        if self.o != NULL:
            raise ValueError("optimizer already created")
        check(wholememory_create_embedding_optimizer(
            &self.o, <wholememory_optimizer_type_t>optimizer_type),
            "create_embedding_optimizer")
        for k, val in (param_dict or {}).items():
            v = float(val)
            name = str(k).encode()
            rc = wholememory_optimizer_set_parameter(self.o, name, &v)
            if rc != WHOLEMEMORY_SUCCESS:
                wholememory_destroy_embedding_optimizer(self.o)
                self.o = NULL
                check(rc, "optimizer parameter %r" % (k,))

    def add_embedding(self, PyWholeMemoryEmbedding emb):
        if self.o == NULL:
            raise ValueError("no optimizer")
        cdef wholememory_embedding_t e = emb.get()
        cdef wholememory_error_code_t rc
        with nogil:
            rc = wholememory_embedding_set_optimizer(e, self.o)
        check(rc, "embedding_set_optimizer")
        self.embeddings.append(emb)

    def destroy_optimizer(self):
        if self.o != NULL:
            wholememory_destroy_embedding_optimizer(self.o)
            self.o = NULL

    def __dealloc__(self):
        if self.o != NULL:
            wholememory_destroy_embedding_optimizer(self.o)
            self.o = NULL


cdef class WholeMemoryCachePolicy:
    cdef wholememory_embedding_cache_policy_t p

    def __cinit__(self):
        self.p = NULL

    def create_policy(self, PyWholeMemoryComm comm, int memory_type,
                      int memory_location, int access_type, float ratio):
        if self.p != NULL:
            raise ValueError("policy already created")
        check(wholememory_create_embedding_cache_policy(
            &self.p, comm.get(), <wholememory_memory_type_t>memory_type,
            <wholememory_memory_location_t>memory_location,
            <wholememory_access_type_t>access_type, ratio),
            "create_embedding_cache_policy")

    def destroy_policy(self):
        if self.p != NULL:
            wholememory_destroy_embedding_cache_policy(self.p)
            self.p = NULL

    def __dealloc__(self):
        if self.p != NULL:
            wholememory_destroy_embedding_cache_policy(self.p)
            self.p = NULL


cdef class PyWholeMemoryEmbedding:
    cdef wholememory_embedding_t e

    def __cinit__(self):
        self.e = NULL

    cdef wholememory_embedding_t get(self) except NULL:
        if self.e == NULL:
            raise ValueError("embedding destroyed")
        return self.e

    def gather(self, PlainTensor indices, PlainTensor output,
               bint adjust_cache):
        cdef wholememory_embedding_t e = self.get()
        cdef wholememory_tensor_t a = plain(indices)
        cdef wholememory_tensor_t b = plain(output)
        cdef wholememory_error_code_t rc
        with nogil:
            rc = wholememory_embedding_gather(e, a, b, adjust_cache, NULL,
                                              0)
        check(rc, "embedding_gather")

    def gradient_apply(self, PlainTensor indices, PlainTensor grads,
                       bint adjust_cache, float lr):
        cdef wholememory_embedding_t e = self.get()
        cdef wholememory_tensor_t a = plain(indices)
        cdef wholememory_tensor_t b = plain(grads)
        cdef wholememory_error_code_t rc
        with nogil:
            rc = wholememory_embedding_gather_gradient_apply(
                e, a, b, adjust_cache, lr, NULL, 0)
        check(rc, "embedding_gather_gradient_apply")

    def get_embedding_tensor(self):
        return wrap_tensor(
            wholememory_embedding_get_embedding_tensor(self.get()), self)

    def get_optimizer_state_names(self):
        cdef wholememory_embedding_t e = self.get()
        cdef const char *const *n = NULL
        cdef int i = 0
        n = wholememory_embedding_get_optimizer_state_names(e)
        names = []
        if n != NULL:
            while n[i] != NULL:
                names.append(n[i].decode())
                i += 1
        return names

    def get_optimizer_state(self, name):
        b = str(name).encode()
        cdef wholememory_tensor_t t = \
            wholememory_embedding_get_optimizer_state(self.get(), b)
        if t == NULL:
            raise KeyError("no optimizer state %r" % (name,))
        return wrap_tensor(t, self)

    def writeback_all_cache(self):
        cdef wholememory_embedding_t e = self.get()
        cdef wholememory_error_code_t rc
        with nogil:
            rc = wholememory_embedding_writeback_cache(e, 0)
        check(rc, "embedding_writeback_cache")

    def drop_all_cache(self):
        cdef wholememory_embedding_t e = self.get()
        cdef wholememory_error_code_t rc
        with nogil:
            rc = wholememory_embedding_drop_all_cache(e, 0)
        check(rc, "embedding_drop_all_cache")

    def destroy_embedding(self):
        cdef wholememory_error_code_t rc
        if self.e != NULL:
            with nogil:
                rc = wholememory_destroy_embedding(self.e)
            self.e = NULL
            check(rc, "destroy_embedding")


def create_embedding(sizes, int dtype, PyWholeMemoryComm comm,
                     int memory_type, int memory_location,
                     WholeMemoryCachePolicy cache_policy=None,
                     embedding_entry_partition=None,
                     int user_defined_sms=-1, int round_robin_size=0):
    cdef wholememory_tensor_description_t d
    if len(sizes) != 2:
        raise ValueError("an embedding is 2-D")
    fill_desc(&d, sizes, None, dtype)
    cdef size_t *part = partition(embedding_entry_partition,
                                  comm.get_size())
    cdef PyWholeMemoryEmbedding emb = PyWholeMemoryEmbedding()
    cdef wholememory_comm_t c = comm.get()
    cdef wholememory_embedding_cache_policy_t p = \
        cache_policy.p if cache_policy is not None else NULL
    cdef wholememory_error_code_t rc
    try:
        with nogil:
            rc = wholememory_create_embedding(
                &emb.e, &d, c, <wholememory_memory_type_t>memory_type,
                <wholememory_memory_location_t>memory_location, p, part,
                user_defined_sms, round_robin_size)
    finally:
        PyMem_Free(part)
    check(rc, "create_embedding")
    return emb


# ---- outputs whose size the op decides ----------------------------------
# A memory context: the op's malloc_fn gets a buffer of the description's
# size (malloc); the caller copies it into a Python bytearray afterwards
# and frees it.

cdef struct out_ctx:
    void *ptr
    size_t nbytes
    int dtype
    int64_t count


cdef void *out_malloc(wholememory_tensor_description_t *desc,
                      wholememory_memory_allocation_type_t t,
                      void *ctx, void *gctx) nogil:
    cdef out_ctx *c = <out_ctx *>ctx
    cdef size_t es = wholememory_dtype_get_element_size(desc.dtype)
    cdef int64_t n = desc.sizes[0] if desc.dim >= 1 else 1
    if c == NULL or es == 0 or es == <size_t>-1 or n < 0:
        return NULL
    if c.ptr != NULL:
        free(c.ptr)
    c.nbytes = es * <size_t>n
    c.dtype = <int>desc.dtype
    c.count = n
    c.ptr = malloc(c.nbytes if c.nbytes else 1)
    return c.ptr


cdef void out_free(void *ctx, void *gctx) nogil:
    cdef out_ctx *c = <out_ctx *>ctx
    if c != NULL and c.ptr != NULL:
        free(c.ptr)
        c.ptr = NULL


cdef wholememory_env_func_t env_with_outputs():
    cdef wholememory_env_func_t e = wholememoryx_get_default_env_func()[0]
    e.output_fns.malloc_fn = out_malloc
    e.output_fns.free_fn = out_free
    e.output_fns.global_context = NULL
    return e


cdef object take(out_ctx *c):
    """(bytearray, WholeMemoryDataType, count) of a context's buffer,
    freed; None when the op gave it nothing."""
    if c.ptr == NULL:
        return None
    ba = PyByteArray_FromStringAndSize(NULL, c.nbytes)
    if c.nbytes:
        memcpy(PyByteArray_AS_STRING(ba), c.ptr, c.nbytes)
    free(c.ptr)
    c.ptr = NULL
    return (ba, c.dtype, c.count)


def csr_sample_without_replacement(PyWholeMemoryTensor row_ptr,
                                   PyWholeMemoryTensor col_ptr,
                                   PyWholeMemoryTensor weight,
                                   PlainTensor centers,
                                   int max_sample_count,
                                   PlainTensor output_offsets,
                                   bint need_center_local,
                                   bint need_edge,
                                   unsigned long long random_seed):
    """Unweighted (weight None) or weighted sampling; returns (dest,
    center_localid or None, edge_gid or None), each (bytearray, dtype,
    count)."""
    cdef out_ctx ctx[3]
    memset(ctx, 0, sizeof(ctx))
    cdef wholememory_env_func_t env = env_with_outputs()
    cdef wholememory_tensor_t r = row_ptr.get()
    cdef wholememory_tensor_t c = col_ptr.get()
    cdef wholememory_tensor_t w = weight.get() if weight is not None \
        else NULL
    cdef wholememory_tensor_t ct = plain(centers)
    cdef wholememory_tensor_t off = plain(output_offsets)
    # libzewholememory always writes the center local ids (WholeGraph's
    # op needs them to place the samples): they are dropped when unasked
    cdef void *c1 = &ctx[1]
    cdef void *c2 = &ctx[2] if need_edge else NULL
    cdef wholememory_error_code_t rc
    with nogil:
        if w == NULL:
            rc = wholegraph_csr_unweighted_sample_without_replacement(
                r, c, ct, max_sample_count, off, &ctx[0], c1, c2,
                random_seed, &env, NULL)
        else:
            rc = wholegraph_csr_weighted_sample_without_replacement(
                r, c, w, ct, max_sample_count, off, &ctx[0], c1, c2,
                random_seed, &env, NULL)
    outs = (take(&ctx[0]), take(&ctx[1]), take(&ctx[2]))
    if not need_center_local:
        outs = (outs[0], None, outs[2])
    check(rc, "csr_%s_sample_without_replacement" %
          ("unweighted" if w == NULL else "weighted"))
    return outs


def append_unique(PlainTensor targets, PlainTensor neighbors,
                  PlainTensor mapping=None):
    cdef out_ctx ctx
    memset(&ctx, 0, sizeof(ctx))
    cdef wholememory_env_func_t env = env_with_outputs()
    cdef wholememory_tensor_t a = plain(targets)
    cdef wholememory_tensor_t b = plain(neighbors)
    cdef wholememory_tensor_t m = mapping.t if mapping is not None \
        else NULL
    cdef wholememory_error_code_t rc
    with nogil:
        rc = graph_append_unique(a, b, &ctx, m, &env, NULL)
    out = take(&ctx)
    check(rc, "graph_append_unique")
    return out


def add_csr_self_loop(PlainTensor row_ptr, PlainTensor col_ptr,
                      PlainTensor out_row_ptr, PlainTensor out_col_ptr):
    cdef wholememory_error_code_t rc
    cdef wholememory_tensor_t a = plain(row_ptr)
    cdef wholememory_tensor_t b = plain(col_ptr)
    cdef wholememory_tensor_t c = plain(out_row_ptr)
    cdef wholememory_tensor_t d = plain(out_col_ptr)
    with nogil:
        rc = csr_add_self_loop(a, b, c, d, NULL)
    check(rc, "csr_add_self_loop")


def host_generate_random_positive_int(int64_t seed, int64_t subsequence,
                                      PlainTensor output):
    check(generate_random_positive_int_cpu(seed, subsequence,
                                           plain(output)),
          "generate_random_positive_int_cpu")


def host_generate_exponential_distribution_negative_float(
        int64_t seed, int64_t subsequence, PlainTensor output):
    check(generate_exponential_distribution_negative_float_cpu(
        seed, subsequence, plain(output)),
        "generate_exponential_distribution_negative_float_cpu")


# ---- memory of this process as a Python buffer ---------------------------

cdef class AddressBuffer:
    """A writable byte buffer over memory at an address (a WholeMemory
    table's local or global view), for torch.frombuffer; it keeps owner
    (the tensor whose memory it is) referenced."""
    cdef char *p
    cdef Py_ssize_t n
    cdef Py_ssize_t shape[1]
    cdef object owner

    def __cinit__(self, uintptr_t address, Py_ssize_t nbytes, owner):
        if address == 0 or nbytes <= 0:
            raise ValueError("no memory")
        self.p = <char *>address
        self.n = nbytes
        self.shape[0] = nbytes
        self.owner = owner

    def __getbuffer__(self, Py_buffer *buf, int flags):
        buf.buf = self.p
        buf.obj = self
        buf.len = self.n
        buf.readonly = 0
        buf.itemsize = 1
        buf.format = 'B'
        buf.ndim = 1
        buf.shape = self.shape
        buf.strides = NULL
        buf.suboffsets = NULL
        buf.internal = NULL

    def __releasebuffer__(self, Py_buffer *buf):
        pass

    def __len__(self):
        return self.n
