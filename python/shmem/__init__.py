# SPDX-License-Identifier: MIT
"""ACLSHMEM's host API on zemem's libzeshmem (OpenSHMEM-style symmetric
memory over Level Zero).

Initialize with aclshmem_init(InitAttr()) (or aclshmem_init_using_
unique_id), allocate symmetric memory (aclshmem_malloc, or
aclshmem_create_tensor / aclshmemx_create_array), move data with
aclshmem_putmem / getmem / aclshmemx_putmem_signal, synchronise with
aclshmem_barrier_all / aclshmem_quiet / aclshmem_signal_wait_until, and
end with aclshmem_finalize(). Pointers are ints. Start the PEs with
python3 -m shmem.run -n N prog.py (or shmem-run), zeshrun -n N python3
prog.py, mpirun, torchrun, or torch.multiprocessing.spawn with
shmem.torch.init_with_process_group().

aclshmem_init returns 0 on success (real ACLSHMEM's `if ret != 0:
raise`), an int with status, my_pe and n_pes. Bad arguments raise
ValueError or TypeError; runtime failures RuntimeError naming the call.
"""
import os as _os

# The interpreter's own global data is no Python program's symmetric
# memory, and torch's, gloo's and faulthandler's threads write it while
# shmem_init would move it onto shared memory (their writes would be
# lost: a crash or a hang later). Only the heap is symmetric here unless
# the environment asks otherwise (read at init).
_os.environ.setdefault("ZESHMEM_STATIC_DATA", "0")

from ._shmem import *  # noqa: F401,F403,E402 (the API is the module's)
from ._shmem import __version__  # noqa: F401,E402
# Initialization with real ACLSHMEM's return values and names (Python
# over the C module's calls): these replace the C module's InitAttr.
from ._init import (  # noqa: F401
    InitAttr, InitResult, InitStatus, OptionalAttr, TeamConfig,
    aclshmem_finialize, aclshmem_init, aclshmem_init_using_unique_id,
    aclshmem_team_get_config, aclshmemx_init_status, set_conf_store_tls)
