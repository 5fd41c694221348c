# SPDX-License-Identifier: MIT
"""The wheel (pyproject.toml, meson-python): `pip install .` into a fresh
venv (--system-site-packages: Debian's numpy; with no network, as the
user types it: pip's isolated build finds Debian's meson-python through
the project's backend), the package used from outside the tree
with no PYTHONPATH, LD_LIBRARY_PATH or ZE_ENABLE_ALT_DRIVERS (the wheel
holds libzeshmem and zemem's driver), its launcher shmem-run, its
metadata, then `pip uninstall`.

Environment (tests/python/meson.build): PY (Debian's interpreter),
ZESHRUN, SRCROOT (the source tree).
"""
import os
import subprocess
import sys

import pytest

PY = os.environ.get("PY", sys.executable)
ZESHRUN = os.environ.get("ZESHRUN", "zeshrun")
SRCROOT = os.environ.get("SRCROOT", os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", ".."))
HERE = os.path.dirname(os.path.abspath(__file__))
# The wheel's build compiles libzeshmem, the driver and the module.
BUILD_S = 1500


def clean_env():
    e = dict(os.environ)
    for k in ("PYTHONPATH", "LD_LIBRARY_PATH", "ZE_ENABLE_ALT_DRIVERS",
              "LD_PRELOAD", "PIP_INDEX_URL"):
        e.pop(k, None)
    e["PIP_NO_INDEX"] = "1"
    e["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return e


def sh(argv, cwd, timeout=240, expect=0):
    p = subprocess.run(argv, cwd=cwd, env=clean_env(), text=True,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL, timeout=timeout)
    assert p.returncode == expect, "%s: status %d (want %d):\n%s" % (
        argv, p.returncode, expect, p.stdout[-6000:])
    return p.stdout


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    for mod, pkg in (("mesonpy", "python3-mesonpy"), ("venv", "python3-venv"),
                     ("ensurepip", "python3-venv")):
        p = subprocess.run([PY, "-c", "import " + mod], capture_output=True)
        if p.returncode:
            pytest.skip("%s cannot import %s (%s)" % (PY, mod, pkg))
    tmp = tmp_path_factory.mktemp("wheel")
    v = tmp / "venv"
    sh([PY, "-m", "venv", "--system-site-packages", str(v)], cwd=tmp)
    vpy = str(v / "bin" / "python")
    # The build folder outside the tree (meson-python's builddir).
    sh([vpy, "-m", "pip", "install", "--no-cache-dir",
        "--config-settings=builddir=" + str(tmp / "build"),
        os.path.abspath(SRCROOT)], cwd=tmp, timeout=BUILD_S)
    return tmp, vpy


def test_wheel_pylibwholegraph(venv):
    """The same wheel's pylibwholegraph (issue 29): its binding finds
    libzewholememory.so.1 and libzeshmem.so.1 in the shmem folder; a job
    of 2 ranks outside the tree gathers and trains an embedding. (Before
    the test that uninstalls.)"""
    tmp, vpy = venv
    show = sh([vpy, "-m", "pip", "show", "-f", "zeshmem"], cwd=tmp)
    files = show.split("Files:", 1)[1].split()
    for f in ("shmem/libzewholememory.so.1",
              "pylibwholegraph/__init__.py",
              "pylibwholegraph/torch/__init__.py",
              "pylibwholegraph/torch/embedding.py"):
        assert f in files, show
    assert any(f.startswith("pylibwholegraph/binding/wholememory_binding.")
               and f.endswith(".so") for f in files), show
    p = subprocess.run([PY, "-c", "import torch"], capture_output=True)
    if p.returncode:
        pytest.skip("torch cannot be imported by %s (python3-torch)" % PY)
    job = tmp / "wg_job.py"
    job.write_text(r"""
import os, torch
import pylibwholegraph.torch as wgth
assert wgth.__file__.startswith(os.environ["VIRTUAL_ENV_DIR"])
_, r, n, lr, ls = wgth.launcher()
g, _ = wgth.init_torch_env_and_create_wm_comm(r, n, lr, ls,
                                              wm_log_level="warn")
t = wgth.create_wholememory_tensor(g, "chunked", "cpu", [100, 4],
                                   torch.float32, None)
loc, start = t.get_local_tensor()
loc.copy_(torch.arange(start * 4, (start + loc.shape[0]) * 4,
                       dtype=torch.float32).view(-1, 4))
g.barrier()
assert torch.equal(t.gather(torch.tensor([99, 0])),
                   torch.tensor([[396., 397, 398, 399], [0, 1, 2, 3]]))
e = wgth.create_embedding(g, "distributed", "cpu", torch.float32, [10, 2])
e.get_embedding_tensor().scatter(torch.zeros(10, 2), torch.arange(10))
g.barrier()
opt = wgth.create_wholememory_optimizer(e, "sgd", {})
m = wgth.WholeMemoryEmbeddingModule(e)
m(torch.tensor([3])).sum().backward()
opt.step(0.5)
assert m(torch.tensor([3])).tolist() == [[-0.5 * n, -0.5 * n]]
wgth.finalize()
print("rank %d wg ok" % r)
""")
    e = {"VIRTUAL_ENV_DIR": os.path.dirname(os.path.dirname(vpy))}
    p = subprocess.run([ZESHRUN, "-n", "2", "--", vpy, str(job)], cwd=tmp,
                       text=True, env=dict(clean_env(), **e),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL, timeout=240)
    assert p.returncode == 0, p.stdout
    assert "rank 0 wg ok" in p.stdout and "rank 1 wg ok" in p.stdout, \
        p.stdout


def test_wheel_installs_runs_uninstalls(venv):
    tmp, vpy = venv
    show = sh([vpy, "-m", "pip", "show", "-f", "zeshmem"], cwd=tmp)
    assert "Name: zeshmem\n" in show, show
    assert "License: MIT\n" in show, show
    files = show.split("Files:", 1)[1].split()
    for f in ("shmem/__init__.py", "shmem/__init__.pyi", "shmem/py.typed",
              "shmem/_init.py", "shmem/_start.py", "shmem/run.py",
              "shmem/torch.py", "shmem/libzeshmem.so.1",
              "shmem/libze_zemem.so.1", "../../../bin/shmem-run"):
        assert f in files, show
    assert any(f.startswith("shmem/_shmem.") and f.endswith(".so")
               for f in files), show
    meta = sh([vpy, "-c", "import importlib.metadata as m; "
               "d = m.metadata('zeshmem'); "
               "print(d['Version']); print(d.get_all('Requires-Dist')); "
               "print(d.get_all('Provides-Extra'))"], cwd=tmp)
    assert meta.splitlines()[0] == "0.1.0", meta
    assert "'numpy'" in meta and "torch" in meta, meta
    # One PE started by itself, outside the tree: the package's own
    # libzeshmem and driver (the runtime points the loader at the driver
    # beside the library).
    code = r"""
import inspect, os, shmem
d = os.path.dirname(shmem.__file__)
assert d.startswith(os.environ["VIRTUAL_ENV_DIR"]), d
assert shmem.__version__ == "0.1.0", shmem.__version__
assert str(inspect.signature(shmem.aclshmem_putmem)) == \
    "(dest, source, bytes, pe)"
st = shmem.aclshmem_init(shmem.InitAttr(mem_size=1 << 20))
assert st == 0 and st.my_pe == 0 and st.n_pes == 1, st
# (os.environ is the interpreter's copy from its start: ask libc)
import ctypes
getenv = ctypes.CDLL(None).getenv
getenv.restype = ctypes.c_char_p
drv = getenv(b"ZE_ENABLE_ALT_DRIVERS").decode()
assert drv == os.path.join(d, "libze_zemem.so.1"), drv
p = shmem.aclshmem_malloc(64)
import numpy as np
a = np.arange(8, dtype=np.int64)
shmem.aclshmem_putmem(p, a.ctypes.data, a.nbytes, 0)
b = np.frombuffer(shmem.aclshmemx_buffer(p, 64), dtype=np.int64)
assert b.tolist() == list(range(8)), b
shmem.aclshmem_free(p)
shmem.aclshmem_finalize()
print("package ok")
"""
    e = {"VIRTUAL_ENV_DIR": os.path.dirname(os.path.dirname(vpy))}
    p = subprocess.run([vpy, "-c", code], cwd=tmp, text=True,
                       env=dict(clean_env(), **e), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=240)
    assert p.returncode == 0 and "package ok" in p.stdout, p.stdout
    # The seed's example, copied outside the tree, on 2 PEs.
    ex = tmp / "example.py"
    ex.write_text(open(os.path.join(HERE, "example.py")).read())
    out = sh([ZESHRUN, "-n", "2", "--", vpy, str(ex)], cwd=tmp)
    assert "PE 0 of 2" in out and "PE 1 of 2" in out, out
    # The same by the wheel's launcher: the command shmem-run (the venv's
    # interpreter runs the PEs) and python -m shmem.run.
    run = os.path.join(os.path.dirname(vpy), "shmem-run")
    out = sh([run, "-n", "2", str(ex)], cwd=tmp)
    assert "PE 0 of 2" in out and "PE 1 of 2" in out, out
    sc = tmp / "start_case.py"
    sc.write_text(open(os.path.join(HERE, "start_case.py")).read())
    out = sh([vpy, "-m", "shmem.run", "-n", "3", str(sc), "3"], cwd=tmp)
    for pe in range(3):
        assert "PE %d of 3: start ok" % pe in out, out
    sh([vpy, "-m", "pip", "uninstall", "-y", "zeshmem"], cwd=tmp)
    assert not os.path.exists(run)
    # (an installed copy elsewhere, e.g. meson install's, may remain)
    out = sh([vpy, "-c", "import importlib.util as u; "
              "s = u.find_spec('shmem'); print(s and s.origin)"], cwd=tmp)
    venv_dir = os.path.dirname(os.path.dirname(vpy))
    assert not out.strip().startswith(venv_dir), out
    site = sh([vpy, "-c", "import sysconfig; "
               "print(sysconfig.get_path('platlib'))"], cwd=tmp).strip()
    assert not os.path.exists(os.path.join(site, "shmem")), site
