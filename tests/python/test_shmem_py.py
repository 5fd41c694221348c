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


def test_names_real_aclshmem():
    """Real ACLSHMEM's spellings beside seed 003's: SignalOp.SIGNAL_SET,
    CmpOp.CMP_EQ .., OpEngineType.MTE / SDMA (aliases: the same members,
    not iterated), aclshmem_finialize, set_conf_store_tls."""
    code = r"""
import shmem
S, C, E = shmem.SignalOp, shmem.CmpOp, shmem.OpEngineType
assert S.SIGNAL_SET is S.SET and S.SIGNAL_ADD is S.ADD
assert S["SIGNAL_SET"] is S.SET and [m.name for m in S] == ["SET", "ADD"]
for n in ["EQ", "NE", "GT", "GE", "LT", "LE"]:
    assert getattr(C, "CMP_" + n) is C[n] is C["CMP_" + n], n
assert (C.CMP_EQ, C.CMP_NE, C.CMP_GT, C.CMP_LE, C.CMP_LT, C.CMP_GE) == \
    (1, 2, 3, 4, 5, 6)
assert E.MTE is E.DIRECT and E.SDMA is E.ENGINE and E["MTE"] is E.DIRECT
assert [m.name for m in E] == ["AUTO", "DIRECT", "ENGINE"]
a = shmem.InitAttr()
a.option_attr.data_op_engine_type = E.MTE
assert a.option_attr.data_op_engine_type is E.DIRECT
assert shmem.set_conf_store_tls(False, "") == 0
assert shmem.set_conf_store_tls(True, "x") == -95
for bad in [(1, ""), (False, None)]:
    try:
        shmem.set_conf_store_tls(*bad)
    except TypeError as e:
        print("TypeError:", e)
    else:
        raise AssertionError(bad)
assert shmem.aclshmem_init(shmem.InitAttr(mem_size=1 << 20)) == 0
p = shmem.aclshmem_malloc(64)
shmem.aclshmemx_putmem_signal(p, p, 0, p + 8, 5, S.SIGNAL_SET, 0)
shmem.aclshmem_signal_wait_until(p + 8, C.CMP_EQ, 5)
shmem.aclshmemx_putmem_signal(p, p, 0, p + 8, 2, S.SIGNAL_ADD, 0)
shmem.aclshmem_signal_wait_until(p + 8, C.CMP_GE, 7)
shmem.aclshmem_free(p)
shmem.aclshmem_finialize()
assert shmem.aclshmemx_init_status() == shmem.InitStatus.NOT_INITIALIZED
print("names ok")
"""
    out = run(alone([PY, "-c", code]))
    assert "names ok" in out, out
    assert "TypeError: set_conf_store_tls: enable must be a bool, not int" \
        in out, out
    assert "TypeError: set_conf_store_tls: tls_info must be a str, not " \
        "NoneType" in out, out
    assert out.count("shmem: set_conf_store_tls: TLS is not supported") \
        == 1, out


@pytest.mark.parametrize("n", [1, 2, 3])
def test_start_shmem_run_aclshmem_script(n):
    """Real ACLSHMEM's init test shape under shmem.run."""
    out = run_tagged([PY, "-m", "shmem.run", "-n", str(n),
                      os.path.join(HERE, "aclshmem_init_test.py")])
    assert out.count("init_test.py running success!") == n, out


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


# ---- starts: zeshrun, mpirun, shmem.run, torchrun, torch's spawn ------------
# Each job runs start_case.py (a put ring, a get ring, a barrier, exact
# values) on 1, 2 and 3 PEs. Every process of a job carries a tag in its
# environment; after the job none may be left (PEs, what they started).

START = os.path.join(HERE, "start_case.py")


def tagged():
    return "start-%d-%d" % (os.getpid(), time.monotonic_ns())


def leftover(tag):
    """Live processes whose environment has SHMEM_TEST_TAG=tag."""
    want = ("SHMEM_TEST_TAG=" + tag).encode()
    pids = []
    for d in os.listdir("/proc"):
        if not d.isdigit() or int(d) == os.getpid():
            continue
        try:
            with open("/proc/%s/environ" % d, "rb") as f:
                if want not in f.read().split(b"\0"):
                    continue
            with open("/proc/%s/stat" % d) as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    continue
        except OSError:
            continue
        pids.append(int(d))
    return pids


def await_leftover(tag, n):
    """Exactly n live processes of the job, within 10 s: a killed one may
    take a moment to be reaped by init, and a child that Popen has just
    started shows its environment only once its exec has set it up (the
    parent resumes when the exec closes its close-on-exec pipe, a little
    before)."""
    for _ in range(100):
        left = leftover(tag)
        if len(left) == n:
            return
        time.sleep(0.1)
    raise AssertionError("%d processes of the job, not %d: %s" %
                         (len(left), n, left))


def no_leftover(tag):
    """The job's processes are gone."""
    await_leftover(tag, 0)


def start_oks(out, n):
    for pe in range(n):
        assert "PE %d of %d: start ok" % (pe, n) in out, out
    assert out.count("start ok") == n, out
    assert "warning" not in out, out


def run_tagged(argv, expect=0, **extra):
    tag = tagged()
    out = run(alone(argv), expect, SHMEM_TEST_TAG=tag, **extra)
    no_leftover(tag)
    return out


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_start_zeshrun(n):
    start_oks(run_tagged([ZESHRUN, "-n", str(n), "--", PY, START, str(n)]),
              n)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_start_mpirun(n):
    m = mpirun_or_skip()
    out = run_tagged([m] + MPIRUN + ["-np", str(n), "-x", "PYTHONPATH", PY,
                                     START, str(n)])
    if "ZESHMEM_BOOTSTRAP=pmix unsupported" in out:
        pytest.skip("libzeshmem built without PMIx")
    start_oks(out, n)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_start_shmem_run(n):
    """python3 -m shmem.run -n N prog.py: the package's launcher."""
    start_oks(run_tagged([PY, "-m", "shmem.run", "-n", str(n), START,
                          str(n)]), n)


def test_start_shmem_run_once():
    """Under shmem.run a process forms its job once: an init after
    finalize raises AclshmemError (not a silent job of one PE)."""
    out = run_tagged([PY, "-m", "shmem.run", "-n", "2", START, "2",
                      "reinit"])
    start_oks(out, 2)
    assert out.count("reinit: aclshmem_init: shmem.run's job is formed "
                     "once per process (this one's pipe to the launcher "
                     "was used, or never given)") == 2, out


def test_start_shmem_run_usage():
    """Bad arguments: status 2, a line saying why, nothing started."""
    for args, why in [([], "-n N is required"),
                      (["-n", "0", START], "-n 0: want 1 .. 4096"),
                      (["-n", "x", START], "-n 'x' is not a number"),
                      (["-n", "2"], "no program to run"),
                      (["-n", "2", "-g", "-1", START],
                       "-g -1: want 0 .. 3600 seconds"),
                      (["-n", "2", "--bogus", START],
                       "unknown option --bogus")]:
        out = run_tagged([PY, "-m", "shmem.run"] + args, expect=2)
        assert out.startswith("shmem.run: %s\nusage:" % why), out
    out = run_tagged([PY, "-m", "shmem.run", "-n", "2", "--no-python",
                      "/nonexistent/prog"], expect=127)
    assert "shmem.run: cannot start /nonexistent/prog" in out, out


@pytest.mark.parametrize("n", [2, 3])
def test_start_shmem_run_failure(n):
    """The last PE exits with 3 while the others wait in a barrier: the
    job ends with 3, one line names the PE, the others and every PE's
    child (a sleep) are gone."""
    out = run_tagged([PY, "-m", "shmem.run", "-n", str(n), "-g", "1", START,
                      str(n), "fail"], expect=3)
    assert "shmem.run: PE %d (pid " % (n - 1) in out, out
    assert ") exited with status 3\n" in out, out
    assert out.count("shmem.run: PE") == 1, out
    assert "not ended" not in out, out


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT,
                                 signal.SIGKILL])
def test_start_shmem_run_signalled(sig):
    """The launcher is signalled while its 2 PEs (each with a child) wait:
    SIGTERM / SIGINT are forwarded (status 128+S); after SIGKILL the
    keeper ends the group. Nothing is left either way."""
    tag = tagged()
    before = shm_entries()
    p = subprocess.Popen(alone([PY, "-m", "shmem.run", "-n", "2", "-g", "1",
                                START, "2", "wait"]),
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, env=env(SHMEM_TEST_TAG=tag))
    try:
        lines = [p.stdout.readline(), p.stdout.readline()]
        assert sorted(lines) == ["PE 0: ready\n", "PE 1: ready\n"], lines
        await_leftover(tag, 6)   # launcher, keeper, 2 PEs, 2 sleeps
        p.send_signal(sig)
        out = p.communicate(timeout=JOB_S)[0]
    finally:
        p.kill()
        p.wait()
    assert p.returncode == (-sig if sig == signal.SIGKILL else 128 + sig), \
        (p.returncode, out)
    assert "not ended" not in out, out
    no_leftover(tag)
    assert shm_entries() == before


def torchrun_env(r, n, port, **extra):
    e = dict(RANK=str(r), LOCAL_RANK=str(r), WORLD_SIZE=str(n),
             LOCAL_WORLD_SIZE=str(n), MASTER_ADDR="127.0.0.1",
             MASTER_PORT=str(port))
    e.update(extra)
    return ["%s=%s" % kv for kv in e.items()]


def free_port():
    """A loopback port and the next one, both free now."""
    import socket
    for _ in range(50):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port >= 65535:
            continue
        try:
            with socket.socket() as s:
                s.bind(("127.0.0.1", port + 1))
            return port
        except OSError:
            continue
    pytest.skip("no two free consecutive loopback ports")


def env_job(n, argv, port=None, expect=0, **extra):
    """n processes with torchrun's variables (no torchrun): the package's
    TCP rendezvous at MASTER_PORT + 1 on 127.0.0.1."""
    port = port or free_port()
    tag = tagged()
    before = shm_entries()
    procs = [subprocess.Popen(alone(["/usr/bin/env"] +
                                    torchrun_env(r, n, port, **extra) +
                                    argv),
                              stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              env=env(SHMEM_TEST_TAG=tag))
             for r in range(n)]
    outs = []
    try:
        for p in procs:
            outs.append(p.communicate(timeout=JOB_S)[0])
    finally:
        for p in procs:
            p.kill()
            p.wait()
    for r, p in enumerate(procs):
        assert p.returncode == expect, "rank %d: %d\n%s" % (
            r, p.returncode, outs[r])
    no_leftover(tag)
    assert shm_entries() == before
    return "".join(outs)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_start_torchrun_env(n):
    """RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT: aclshmem_init forms one
    job of WORLD_SIZE PEs (rank 0 serves the unique id on 127.0.0.1)."""
    start_oks(env_job(n, [PY, START, str(n)]), n)


def test_start_torchrun_env_aclshmem_script():
    """Real ACLSHMEM's init test shape (my_rank = RANK, n_ranks =
    WORLD_SIZE, `if ret != 0: raise`, team 0) under torchrun's variables
    on 2 and 3 ranks."""
    for n in (2, 3):
        out = env_job(n, [PY, os.path.join(HERE, "aclshmem_init_test.py")])
        assert out.count("init_test.py running success!") == n, out
        for r in range(n):
            assert "rank[%d]: my_pe:%d and pe_count:%d" % (r, r, n) in out


def test_start_torchrun_env_strangers():
    """Rank 0's rendezvous answers only "zeshmem-uid-1 RANK N RUN_ID" for a
    rank of the job not yet served: silence (1 s), garbage, a wrong size
    or rank get no id; the job then forms as usual."""
    import socket
    port = free_port()
    tag = tagged()
    e = env(SHMEM_TEST_TAG=tag)
    r0 = subprocess.Popen(alone(["/usr/bin/env"] + torchrun_env(0, 2, port)
                                + [PY, START, "2"]),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, env=e)
    try:
        def ask(data, wait=True):
            for _ in range(400):
                try:
                    c = socket.create_connection(("127.0.0.1", port + 1), 5)
                    break
                except OSError:
                    time.sleep(0.05)
            with c:
                if data:
                    c.sendall(data)
                c.settimeout(10)
                got = b""
                while True:
                    b = c.recv(512)
                    if not b:
                        return got
                    got += b
        assert ask(b"") == b""                      # silent: closed after 1 s
        assert ask(b"GET / HTTP/1.0\r\n\r\n") == b""
        assert ask(b"zeshmem-uid-1 1 3 -\n") == b"refused\n"   # wrong size
        assert ask(b"zeshmem-uid-1 2 2 -\n") == b"refused\n"   # no such rank
        assert ask(b"zeshmem-uid-1 0 2 -\n") == b"refused\n"   # rank 0
        assert ask(b"zeshmem-uid-1 1 2 other\n") == b"refused\n"  # run id
        r1 = subprocess.run(alone(["/usr/bin/env"] +
                                  torchrun_env(1, 2, port) +
                                  [PY, START, "2"]),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=e, timeout=JOB_S)
        out0 = r0.communicate(timeout=JOB_S)[0]
    finally:
        r0.kill()
        r0.wait()
    assert r1.returncode == 0 and r0.returncode == 0, (r1.stdout, out0)
    start_oks(out0 + r1.stdout, 2)
    no_leftover(tag)


def test_start_torchrun_env_bad():
    """RANK outside WORLD_SIZE, a MASTER_PORT that is no number: a clear
    AclshmemInvalid, nothing started; a rank whose rank 0 never comes
    fails after ZESHMEM_TIMEOUT naming the address."""
    out = run_tagged(["/usr/bin/env"] + torchrun_env(2, 2, 29500) +
                     [PY, START, "2"], expect=1)
    assert "shmem.AclshmemInvalid: aclshmem_init: RANK 2 of WORLD_SIZE 2" \
        in out, out
    out = run_tagged(["/usr/bin/env"] + torchrun_env(1, 2, "x") +
                     [PY, START, "2"], expect=1)
    assert "aclshmem_init: MASTER_PORT='x' is not a number" in out, out
    port = free_port()
    out = run_tagged(["/usr/bin/env"] + torchrun_env(1, 2, port) +
                     [PY, START, "2"], expect=1, ZESHMEM_TIMEOUT="2")
    assert ("shmem.AclshmemError: aclshmem_init: rank 1 got no unique id "
            "from rank 0 at 127.0.0.1 port %d within ZESHMEM_TIMEOUT=2 s"
            % (port + 1)) in out, out


def torchrun(n, args, tmp_path):
    """The real torchrun (python3 -m torch.distributed.run), static
    rendezvous on 127.0.0.1. --redirects 1 --tee 1: Debian's torch 1.13 on
    Python 3.11 cannot parse the default "0" (enum.IntFlag's iteration
    changed), so stdout goes to files under tmp_path and to ours. gloo
    on the loopback interface only (GLOO_SOCKET_IFNAME=lo: else it takes
    the host name's address)."""
    torch_or_skip()
    port = free_port()
    return run_tagged([PY, "-m", "torch.distributed.run", "--nnodes", "1",
                       "--nproc_per_node", str(n), "--master_addr",
                       "127.0.0.1", "--master_port", str(port),
                       "--redirects", "1", "--tee", "1", "--log_dir",
                       str(tmp_path)] + args, GLOO_SOCKET_IFNAME="lo")


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_start_torchrun(n, tmp_path):
    start_oks(torchrun(n, [START, str(n)], tmp_path), n)


def test_start_torchrun_process_group(tmp_path):
    """torchrun, init_process_group("gloo") first, then aclshmem_init: the
    id goes over the process group."""
    start_oks(torchrun(2, [START, "2", "pg"], tmp_path), 2)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("how", ["torch", "init"])
def test_start_torch_spawn(n, how):
    """torch.multiprocessing.spawn, init_process_group over gloo, then
    shmem.torch.init_with_process_group() (torch) or aclshmem_init (init,
    which finds the initialized group)."""
    torch_or_skip()
    start_oks(run_tagged([PY, START, "spawn", str(n), how],
                         GLOO_SOCKET_IFNAME="lo"), n)
