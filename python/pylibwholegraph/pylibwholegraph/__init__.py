# SPDX-License-Identifier: MIT
"""pylibwholegraph on zemem: WholeGraph's Python package over
libzewholememory (WholeMemory's C API). pylibwholegraph.torch is the
PyTorch face (CPU torch: every tensor it returns lives in host memory);
pylibwholegraph.binding.wholememory_binding the Cython binding."""

__version__ = "0.1.0"

import os as _os

# As the shmem package does: the interpreter's own global data is no
# program's symmetric memory, and torch's threads write it while
# libzeshmem's init would move it onto shared memory (writes lost).
_os.environ.setdefault("ZESHMEM_STATIC_DATA", "0")
