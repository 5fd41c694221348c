# SPDX-License-Identifier: MIT
# cython: language_level=3, binding=True, embedsignature=False
# cython: boundscheck=False, wraparound=False, cdivision=True
"""ACLSHMEM's host API on zemem's libzeshmem (OpenSHMEM-style symmetric
memory over Level Zero): the extension module shmem._shmem (the package
shmem re-exports it).

Initialize with aclshmem_init(InitAttr()) (or aclshmem_init_using_
unique_id), allocate symmetric memory (aclshmem_malloc, or
aclshmem_create_tensor / aclshmemx_create_array), move data with
aclshmem_putmem / getmem / aclshmemx_putmem_signal, synchronise with
aclshmem_barrier_all / aclshmem_quiet / aclshmem_signal_wait_until, and
end with aclshmem_finalize(). Pointers are ints. Start the PEs with
zeshrun -n N python3 prog.py, or mpirun.

Bad arguments raise ValueError or TypeError; runtime failures
RuntimeError naming the call.
"""
# The module is one extension built from this file and the .pxi files it
# includes, one per area; _cshmem.pxd declares the C API (shmem.h,
# shmemx.h) they call:
#   _common.pxi      errors, argument checks, the runtime's state
#   _init_teams.pxi  InitAttr, init / finalize, unique ids, teams, info
#   _memory.pxi      malloc / free / ptr, SymmetricBuffer (buffer protocol,
#                    DLPack), the lifetime of memory under views
#   _rma.pxi         put / get, put with signal, signal waits, barrier,
#                    quiet and fence
#   _coll_amo.pxi    collectives on teams and atomics (shmem.core's)
#   _arrays.pxi      numpy arrays and torch tensors over symmetric memory,
#                    peer views
#
# Pointers are Python ints (0 for "no memory"). Every argument is checked
# here before the runtime sees it (the void shmem.h calls end the PE on
# bad input): a pe out of range, a negative size or a symmetric pointer
# outside this PE's heap raise ValueError (AclshmemInvalid), a wrong type
# TypeError. Failures of the runtime raise RuntimeError (AclshmemError)
# naming the call; the blocking calls whose failure the runtime can report
# (signal waits, barrier_all, finalize) use the shmemx forms that return
# -errno. Collective allocations with a dead PE still end the PE (the
# runtime's rule). The GIL is released around every call that may block
# (init, waits, barriers, collectives, collective allocations, team
# splits, copies of 64 KiB or more).
from libc.errno cimport (EINVAL, EHOSTDOWN, ETIMEDOUT, ENODEV, EFAULT,
                        ENOSYS)
from libc.stdint cimport (int8_t, int16_t, int32_t, int64_t, uint8_t,
                          uint16_t, uint32_t, uint64_t, uintptr_t,
                          INT32_MIN, INT32_MAX)
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, strerror
from posix.mman cimport (mmap, munmap, PROT_READ, PROT_WRITE, MAP_PRIVATE,
                         MAP_ANONYMOUS, MAP_FAILED)
from posix.unistd cimport sysconf, _SC_PAGESIZE
from cpython.long cimport PyLong_AsUnsignedLongLong
from cpython.pycapsule cimport (PyCapsule_New, PyCapsule_IsValid,
                                PyCapsule_GetPointer)
from cpython.exc cimport PyErr_CheckSignals
from cpython.ref cimport Py_INCREF, Py_DECREF, PyObject
from cpython.buffer cimport (PyBuffer_FillInfo, PyObject_GetBuffer,
                             PyBuffer_Release, PyBUF_C_CONTIGUOUS,
                             PyBUF_WRITABLE)
from cpython.bytes cimport PyBytes_FromStringAndSize

from ._cshmem cimport *

import enum as _enum
import warnings as _warnings
import weakref as _weakref

cdef extern from *:
    # -DZEMEM_VERSION_STRING="x.y.z" (meson.build)
    const char *ZEMEM_VERSION_STRING

__version__ = ZEMEM_VERSION_STRING.decode()

include "_common.pxi"
include "_init_teams.pxi"
include "_memory.pxi"
include "_rma.pxi"
include "_coll_amo.pxi"
include "_arrays.pxi"

# binding=True: every def is a function inspect.signature reads (the
# docstrings carry the typed signature line; embedsignature would add
# Cython's own, with the _NO markers of the calls that name a missing
# argument). The public ones belong to the package shmem (pydoc lists a
# package's functions by their __module__).
for _n, _v in list(globals().items()):
    if not _n.startswith("_") and type(_v).__name__ == \
            "cython_function_or_method":
        _v.__module__ = "shmem"
del _n, _v
