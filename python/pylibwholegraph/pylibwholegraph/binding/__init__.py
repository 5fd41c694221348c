# SPDX-License-Identifier: MIT
"""The Cython binding of libzewholememory (wholememory_binding)."""
