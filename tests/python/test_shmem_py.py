# SPDX-License-Identifier: MIT
"""Tests of the Python package `shmem` (python/shmem), run by meson test
with Debian's interpreter under pytest. Each test starts a real job: PEs
are processes of pe_cases.py (or the seed's example) started by the
build's zeshrun, by mpirun, or by this file over the unique-id start.

Environment (set by tests/python/meson.build): ZESHRUN (the launcher),
PYTHONPATH (build/python), PY (the interpreter), ZE_ENABLE_ALT_DRIVERS.
Every job has a deadline (JOB_S) after which it is killed and the test
fails; after every job no zemem /dev/shm entry is left behind.
"""
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "pe_cases.py")
PY = os.environ.get("PY", sys.executable)
ZESHRUN = os.environ.get("ZESHRUN", "zeshrun")
JOB_S = 240
MPIRUN = ["--allow-run-as-root", "--bind-to", "none", "--oversubscribe",
          "--mca", "oob_tcp_if_include", "lo", "--mca", "btl_tcp_if_include",
          "lo"]


@pytest.fixture(autouse=True, scope="session")
def numpy_or_skip():
    """The PE programs use numpy (python3-numpy) for their buffers."""
    p = subprocess.run([PY, "-c", "import numpy"], capture_output=True)
    if p.returncode:
        pytest.skip("numpy cannot be imported by %s (python3-numpy)" % PY)


def shm_entries():
    try:
        names = os.listdir("/dev/shm")
    except OSError:
        return 0
    return sum(ours(n) for n in names)


def ours(name):
    """zemem's entries; libfabric shm's zeshmem_<pid>_* only once <pid> is
    gone (a live one belongs to a job running in parallel)."""
    if name.startswith("zemem"):
        return True
    if name.startswith("zeshmem_"):
        try:
            os.kill(int(name.split("_")[1]), 0)
            return False
        except (ValueError, IndexError):
            return True
        except ProcessLookupError:
            return True
        except PermissionError:
            return False
    return name.startswith("zeshmem")


def env(**extra):
    e = dict(os.environ)
    e.setdefault("ZESHMEM_CHECK_SYMMETRY", "1")
    # Init waits for every PE to start: generous, for loaded machines and
    # sanitizer builds (dead node PEs are seen at once anyway).
    e.setdefault("ZESHMEM_TIMEOUT", "120")
    e["OMPI_MCA_osc"] = "^rdma"
    e.update(extra)
    return e


def run(argv, expect=0, **extra):
    before = shm_entries()
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=JOB_S, env=env(**extra),
                       stdin=subprocess.DEVNULL)
    assert p.returncode == expect, "status %d (want %d):\n%s" % (
        p.returncode, expect, p.stdout)
    assert shm_entries() == before, "/dev/shm entries left:\n" + p.stdout
    return p.stdout


def zeshrun(n, *args, expect=0, **extra):
    return run([ZESHRUN, "-n", str(n), "--", PY] + list(args), expect,
               **extra)


def oks(out, case, n):
    for pe in range(n):
        assert "PE %d: %s ok" % (pe, case) in out, out


# ---- every function on 1, 2 and 3 PEs -------------------------------------

@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("case", ["api", "signals", "teams", "badargs"])
def test_case(case, n):
    oks(zeshrun(n, CASES, case), case, n)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_api_copy_engine(n):
    """The same calls with the copy engine, chosen by InitAttr's
    op_engine_type (the runtime says so at debug level)."""
    out = zeshrun(n, CASES, "api", PE_CASES_ENGINE="ENGINE",
                  ZEMEM_LOG_LEVEL="warn,shmem:debug")
    oks(out, "api", n)
    assert out.count("copies through immediate command lists") == n, out


def test_engine_and_log_level():
    """op_engine_type overrides ZESHMEM_COPY; None leaves it to the option;
    set_log_level (Python levels) moves the library's threshold: a warning
    shows at WARNING and not at CRITICAL, debug lines at DEBUG only."""
    dbg = "copies through immediate command lists"
    out = run([PY, CASES, "nothing"], ZESHMEM_COPY="engine",
              PE_CASES_LOG_LEVEL="DEBUG")
    assert dbg in out, out
    out = run([PY, CASES, "nothing"], ZESHMEM_COPY="engine",
              PE_CASES_LOG_LEVEL="INFO")
    assert dbg not in out, out
    out = run([PY, CASES, "nothing"], ZESHMEM_COPY="engine",
              PE_CASES_ENGINE="DIRECT", PE_CASES_LOG_LEVEL="DEBUG")
    assert dbg not in out, out
    out = run([PY, CASES, "nothing"], ZESHMEM_COPY="bogus",
              PE_CASES_LOG_LEVEL="WARNING")
    assert "ZESHMEM_COPY=bogus" in out, out
    out = run([PY, CASES, "nothing"], ZESHMEM_COPY="bogus",
              PE_CASES_LOG_LEVEL="CRITICAL")
    assert "ZESHMEM_COPY=bogus" not in out, out


# ---- real ACLSHMEM's init and launchers' sizes ------------------------------

LAUNCHER_VARS = ("WORLD_SIZE", "PMI_SIZE", "OMPI_COMM_WORLD_SIZE",
                 "SLURM_NTASKS", "RANK", "LOCAL_RANK", "MASTER_ADDR",
                 "MASTER_PORT", "ZESHMEM_UNIQUEID", "ZESHMEM_RANK",
                 "ZESHMEM_NRANKS", "ZESHMEM_BOOTSTRAP", "PMIX_RANK")


def alone(argv):
    """argv started with none of the launchers' variables (the test's own
    environment may be a launcher's)."""
    unset = []
    for v in LAUNCHER_VARS:
        unset += ["-u", v]
    return ["/usr/bin/env"] + unset + argv


def test_init_compat():
    """InitStatus's values and aclshmemx_init_status before, during and
    after; InitAttr's real fields and OptionalAttr; my_rank / n_ranks other
    than the job's; TeamConfig; a failed init returns -1 (falsy fields)."""
    out = run(alone([PY, CASES, "compat"]))
    assert "PE 0: compat ok" in out, out
    assert "warning" not in out, out
    out = run(alone(["ZESHMEM_UNIQUEID=00", "ZESHMEM_RANK=5",
                     "ZESHMEM_NRANKS=2", PY, CASES, "initfail"]))
    assert "init failed with -1" in out, out


WARN = ("shmem: warning: %s=%d but this job has 1 PE: each process runs "
        "alone (start with zeshrun -n %d, mpirun, or "
        "aclshmem_init_using_unique_id)")


@pytest.mark.parametrize("var,n", [("WORLD_SIZE", 2), ("PMI_SIZE", 3),
                                   ("OMPI_COMM_WORLD_SIZE", 4),
                                   ("SLURM_NTASKS", 2)])
def test_launcher_warning(var, n):
    """A launcher's size > 1 with a job of one PE: exactly one line naming
    the variable (each process would silently be PE 0 of 1)."""
    out = run(alone(["%s=%d" % (var, n), PY, CASES, "nothing"]))
    assert "PE 0: nothing ok" in out, out
    lines = [ln for ln in out.splitlines() if "warning" in ln]
    assert lines == [WARN % (var, n, n)], out


def test_launcher_no_warning():
    """No line for a size of 1, a size that is no number, or a job that has
    the launcher's size."""
    for extra in ["WORLD_SIZE=1", "SLURM_NTASKS=x", "PMI_SIZE="]:
        out = run(alone([extra, PY, CASES, "nothing"]))
        assert "PE 0: nothing ok" in out and "warning" not in out, out
    out = zeshrun(2, CASES, "nothing", WORLD_SIZE="2", PMI_SIZE="2")
    oks(out, "nothing", 2)
    assert "warning" not in out, out


def test_torchrun_env_alone():
    """torchrun's variables without a job launcher: the real-ACLSHMEM-shaped
    script (my_rank = RANK, n_ranks = WORLD_SIZE) is told so on every rank,
    never run as N jobs of one PE."""
    script = os.path.join(HERE, "aclshmem_init_test.py")
    for r in range(2):
        before = shm_entries()
        p = subprocess.run(
            alone(["RANK=%d" % r, "LOCAL_RANK=%d" % r, "WORLD_SIZE=2",
                   "MASTER_ADDR=127.0.0.1", "MASTER_PORT=29500", PY,
                   script]), stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, timeout=JOB_S, env=env())
        assert p.returncode == 1, p.stdout
        assert WARN % ("WORLD_SIZE", 2, 2) in p.stdout, p.stdout
        assert ("shmem.AclshmemInvalid: aclshmem_init: InitAttr my_rank=%d "
                "n_ranks=2, but the job has PE 0 of 1" % r) in p.stdout, \
            p.stdout
        assert "running success" not in p.stdout, p.stdout
        assert shm_entries() == before


def test_teams_seed_example_8_pes():
    """The seed's split: start=0, stride=2, size=4 -> PEs 0, 2, 4, 6."""
    oks(zeshrun(8, CASES, "teams", ZESHMEM_SYMMETRIC_SIZE="1M"), "teams", 8)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_unique_id(n):
    """aclshmem_get_unique_id on rank 0, aclshmem_init_using_unique_id on
    every rank (processes started here, not by a launcher)."""
    outs = uid_job(n, "api")
    for r, (st, out) in enumerate(outs):
        assert st == 0, "rank %d status %d:\n%s" % (r, st, out)
        assert "PE %d: api ok" % r in out, out


def uid_job(n, case, **extra):
    e = env(**extra)
    before = shm_entries()
    root = subprocess.Popen([PY, CASES, "uid", str(n), case],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=e)
    line = root.stdout.readline()
    assert line.startswith("uid "), line
    hexid = line.split()[1]
    others = [subprocess.Popen([PY, CASES, "uid", str(r), str(n), hexid,
                                case], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, env=e)
              for r in range(1, n)]
    outs = []
    for p in [root] + others:
        try:
            out = p.communicate(timeout=JOB_S)[0]
        except subprocess.TimeoutExpired:
            for q in [root] + others:
                q.kill()
            raise
        outs.append((p.returncode, out))
    assert shm_entries() == before, "/dev/shm entries left"
    return outs


# ---- the seed's Complete Example --------------------------------------------

EXAMPLE = os.path.join(HERE, "example.py")


def test_example_verbatim():
    """zeshrun -n 2 python3 example.py, as written."""
    out = zeshrun(2, EXAMPLE)
    assert "PE 0 of 2" in out and "PE 1 of 2" in out, out


def test_example_checked():
    """The same program, checking at its aclshmem_free (after a barrier)
    that PE 1 holds the np.arange(256) PE 0 put."""
    out = zeshrun(2, os.path.join(HERE, "example_check.py"), EXAMPLE)
    assert "example-check: PE 1 holds PE 0's data" in out, out
    assert out.count("example-check: PE ok done") == 2, out


def mpirun_or_skip():
    m = shutil.which("mpirun")
    if not m:
        pytest.skip("mpirun not found in PATH (openmpi-bin)")
    return m


def test_example_mpirun():
    """The checked example under Open MPI's mpirun (PMIx bootstrap)."""
    m = mpirun_or_skip()
    out = run([m] + MPIRUN + ["-np", "2", "-x", "PYTHONPATH", PY,
                              os.path.join(HERE, "example_check.py"),
                              EXAMPLE])
    if "ZESHMEM_BOOTSTRAP=pmix unsupported" in out:
        pytest.skip("libzeshmem built without PMIx")
    assert "example-check: PE 1 holds PE 0's data" in out, out


def test_api_mpirun():
    m = mpirun_or_skip()
    out = run([m] + MPIRUN + ["-np", "2", "-x", "PYTHONPATH", PY, CASES,
                              "signals"])
    oks(out, "signals", 2)


# ---- tensors ----------------------------------------------------------------

def torch_or_skip():
    p = subprocess.run([PY, "-c", "import torch"], capture_output=True)
    if p.returncode:
        pytest.skip("torch cannot be imported by %s (python3-torch)" % PY)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_tensors(n):
    torch_or_skip()
    oks(zeshrun(n, CASES, "tensors"), "tensors", n)


@pytest.mark.parametrize("n", [1, 2])
def test_tensor_misuse(n):
    torch_or_skip()
    out = zeshrun(n, CASES, "misuse")
    oks(out, "misuse", n)


def test_without_torch():
    oks(zeshrun(2, CASES, "notorch"), "notorch", 2)


# ---- failures ---------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3])
def test_killed_pe(n):
    """The last PE is killed (SIGKILL); the others' signal wait and barrier
    raise RuntimeError naming it (or the timeout), then finalize does."""
    outs = uid_job(n, "killed", ZESHMEM_TIMEOUT="20")
    st, out = outs[-1]
    assert st == -signal.SIGKILL, (st, out)
    for r, (st, out) in enumerate(outs[:-1]):
        assert st == 0, "rank %d status %d:\n%s" % (r, st, out)
        assert "PE %d: killed ok" % r in out, out
        assert "RuntimeError" not in out, out


def test_ctrl_c_in_wait():
    p = subprocess.Popen([PY, CASES, "interrupt"], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, env=env())
    try:
        assert p.stdout.readline().strip() == "waiting"
        time.sleep(0.3)
        p.send_signal(signal.SIGINT)
        out = p.communicate(timeout=JOB_S)[0]
    finally:
        p.kill()
    assert p.returncode == 0, out
    assert "interrupted" in out and "PE 0: interrupt ok" in out, out


@pytest.mark.parametrize("n", [1, 2, 3])
def test_global_exit(n):
    """The last PE calls aclshmem_global_exit(7) while the others wait:
    the job ends with status 7."""
    out = zeshrun(n, CASES, "global_exit", expect=7)
    assert "not ended" not in out, out


# ---- the module itself --------------------------------------------------------------

def test_docstrings_signatures():
    """The package: __version__, inspect.signature of every function and
    class, the stub and py.typed beside the module."""
    code = r"""
import inspect, os, shmem
assert shmem.__version__ == "0.1.0", shmem.__version__
assert shmem.aclshmem_info_get_name()
d = os.path.dirname(shmem.__file__)
assert os.path.exists(os.path.join(d, "py.typed"))
stub = open(os.path.join(d, "__init__.pyi")).read()
names = [n for n in dir(shmem) if not n.startswith("_")]
for n in names:
    f = getattr(shmem, n)
    if callable(f) and not isinstance(f, type) or n == "InitAttr":
        inspect.signature(f)
    assert n in stub, n
sig = lambda f: str(inspect.signature(f))
assert sig(shmem.aclshmem_putmem) == "(dest, source, bytes, pe)"
assert sig(shmem.aclshmem_init) == "(attributes, /)"
assert sig(shmem.aclshmem_finalize) == "()"
assert sig(shmem.aclshmem_create_tensor) == \
    "(shape, dtype=None, device_id=0)"
assert sig(shmem.InitAttr) == "(mem_size=0, op_engine_type=None)"
print("signatures ok")
"""
    out = subprocess.run([PY, "-c", code], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, timeout=JOB_S)
    assert out.returncode == 0 and "signatures ok" in out.stdout, out.stdout


def test_docstrings():
    """Every function and class has a docstring; help(shmem) renders."""
    code = r"""
import pydoc, shmem
names = [n for n in dir(shmem) if not n.startswith("_")]
missing = [n for n in names if callable(getattr(shmem, n)) and
           not (getattr(shmem, n).__doc__ or "").strip()]
assert not missing, missing
text = pydoc.render_doc(shmem, renderer=pydoc.plaintext)
assert "aclshmem_putmem(dest: int, source: int, bytes: int, pe: int)" in text
for n in ["InitAttr", "InitStatus", "OpEngineType", "aclshmem_init",
          "aclshmem_finalize", "aclshmem_init_using_unique_id",
          "aclshmem_get_unique_id", "aclshmem_malloc", "aclshmem_calloc",
          "aclshmem_align", "aclshmem_free", "aclshmem_ptr",
          "aclshmemx_get_heap_base", "my_pe", "pe_count", "aclshmem_putmem",
          "aclshmem_getmem", "aclshmem_putmem_nbi", "aclshmem_getmem_nbi",
          "aclshmemx_putmem_signal", "aclshmemx_putmem_signal_nbi",
          "aclshmem_signal_wait_until", "team_split_strided", "team_split_2d",
          "team_translate_pe", "team_my_pe", "team_n_pes", "team_destroy",
          "SHMEM_TEAM_WORLD", "aclshmem_info_get_version",
          "aclshmem_info_get_name", "set_log_level", "aclshmem_global_exit",
          "aclshmem_create_tensor", "aclshmem_free_tensor",
          "aclshmem_barrier_all", "aclshmem_quiet", "aclshmemx_create_array",
          "ACLSHMEM_CMP_EQ", "ACLSHMEM_CMP_NE", "ACLSHMEM_CMP_GT",
          "ACLSHMEM_CMP_GE", "ACLSHMEM_CMP_LT", "ACLSHMEM_CMP_LE",
          "ACLSHMEM_SIGNAL_SET", "ACLSHMEM_SIGNAL_ADD"]:
    assert hasattr(shmem, n), n
assert (shmem.ACLSHMEM_CMP_EQ, shmem.ACLSHMEM_CMP_NE, shmem.ACLSHMEM_CMP_GT,
        shmem.ACLSHMEM_CMP_LE, shmem.ACLSHMEM_CMP_LT,
        shmem.ACLSHMEM_CMP_GE) == (1, 2, 3, 4, 5, 6)
assert (shmem.ACLSHMEM_SIGNAL_SET, shmem.ACLSHMEM_SIGNAL_ADD) == (0, 1)
assert [e.name for e in shmem.OpEngineType] == ["AUTO", "DIRECT", "ENGINE"]
print("docs ok")
"""
    out = run([PY, "-c", code])
    assert "docs ok" in out
