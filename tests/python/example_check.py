# SPDX-License-Identifier: MIT
"""Runs the seed's Complete Example (example.py, verbatim) as one PE and
checks what it did: at its aclshmem_free(sym_ptr) (collective, so every PE
reaches it after its put), a barrier, then PE 1 compares its copy of
sym_ptr with the np.arange(256, dtype=np.float32) that PE 0 put there.

usage: example_check.py example.py   (under zeshrun -n 2 or mpirun -np 2)
"""
import runpy
import sys

import numpy as np
import shmem

real_free = shmem.aclshmem_free
checked = []


def checking_free(ptr):
    if not checked:
        checked.append(ptr)
        shmem.aclshmem_barrier_all()
        me = shmem.my_pe()
        if me == 1:
            got = np.frombuffer(shmem.aclshmemx_buffer(ptr, 1024), np.float32)
            want = np.arange(256, dtype=np.float32)
            if not (got == want).all():
                print("example-check: PE 1 holds %r, not PE 0's data" %
                      got[:8], flush=True)
                sys.exit(1)
            print("example-check: PE 1 holds PE 0's data", flush=True)
    real_free(ptr)


shmem.aclshmem_free = checking_free
runpy.run_path(sys.argv[1], run_name="__main__")
print("example-check: PE %s done" % ("?" if not checked else "ok"),
      flush=True)
