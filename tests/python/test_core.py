# SPDX-License-Identifier: MIT
"""Tests of shmem.core (nvshmem4py's shape), run by meson test under
pytest: each test starts a real job of core_cases.py on 1 to 4 PEs with
the build's zeshrun, or over the unique-id start (processes started
here). The jobs' helpers (deadline, /dev/shm check) are test_shmem_py's.
"""
import os
import subprocess

import pytest

from test_shmem_py import (JOB_S, PY, env, numpy_or_skip, oks,  # noqa: F401
                           shm_entries, torch_or_skip, zeshrun)

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "core_cases.py")


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("case", ["alloc", "rma", "coll", "amo", "teams"])
def test_core(case, n):
    oks(zeshrun(n, CASES, case), case, n)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_core_torch(n):
    """Every torch dtype (bfloat16 included) through the collectives."""
    torch_or_skip()
    oks(zeshrun(n, CASES, "torch_coll"), "torch_coll", n)


@pytest.mark.parametrize("n", [2, 3])
def test_core_offnode(n):
    """Every PE a node of its own (all traffic over libfabric's tcp): the
    peer views refuse a PE on another node with a clear error; put and
    get reach it."""
    oks(zeshrun(n, CASES, "offnode", ZESHMEM_FORCE_NETWORK="1",
                ZESHMEM_PROVIDER="tcp;ofi_rxm"), "offnode", n)


@pytest.mark.parametrize("n", [2, 3])
def test_core_uid(n):
    """init(uid=, rank=, nranks=) with get_unique_id on rank 0: processes
    started here, no launcher."""
    e = env()
    before = shm_entries()
    root = subprocess.Popen([PY, CASES, "uid", str(n), "rma"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=e)
    line = root.stdout.readline()
    assert line.startswith("uid "), line
    others = [subprocess.Popen([PY, CASES, "uid", str(r), str(n),
                                line.split()[1], "rma"],
                               stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, env=e)
              for r in range(1, n)]
    for r, p in enumerate([root] + others):
        try:
            out = p.communicate(timeout=JOB_S)[0]
        except subprocess.TimeoutExpired:
            for q in [root] + others:
                q.kill()
                q.wait()
            raise
        assert p.returncode == 0, "rank %d: %s" % (r, out)
        assert "PE %d: rma ok" % r in out, out
    assert shm_entries() == before


def test_core_stub():
    """core.pyi names every public call of shmem.core; inspect.signature
    reads them; help renders."""
    code = r"""
import inspect, os, pydoc
import shmem.core as c
stub = open(os.path.join(os.path.dirname(c.__file__), "core.pyi")).read()
for n in c.__all__:
    assert "def %s(" % n in stub or "class %s" % n in stub or \
        "import %s as" % n in stub, n
    f = getattr(c, n)
    assert (f.__doc__ or "").strip(), n
    if callable(f) and not isinstance(f, type):
        inspect.signature(f)
assert str(inspect.signature(c.reduce)) == "(team, dst, src, op, stream=None)"
assert "get_peer_tensor(t, pe)" in pydoc.render_doc(c, renderer=pydoc.plaintext)
print("core stub ok")
"""
    out = subprocess.run([PY, "-c", code], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, timeout=JOB_S)
    assert out.returncode == 0 and "core stub ok" in out.stdout, out.stdout
