# SPDX-License-Identifier: MIT
"""pylibwholegraph on zemem: WholeGraph's Python package over
libzewholememory (WholeMemory's C API). pylibwholegraph.torch is the
PyTorch face (CPU torch: every tensor it returns lives in host memory);
pylibwholegraph.binding.wholememory_binding the Cython binding."""

__version__ = "0.1.0"
