# SPDX-License-Identifier: MIT
"""Tests of the Python package `pylibwholegraph` (python/pylibwholegraph),
run by meson test with Debian's interpreter under pytest. Each test
starts a real job: ranks are processes of wg_cases.py started by the
build's zeshrun on 1 to 4 ranks; each compares with a single-process
numpy reference and prints "PE <rank>: <case> ok".

Environment (set by tests/python/meson.build): ZESHRUN, PY,
PYTHONPATH (build/python/pylibwholegraph), ZE_ENABLE_ALT_DRIVERS. Every
job has a deadline (JOB_S); after it no zemem /dev/shm entry is left
and the scratch folder of the job is removed.
"""
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "wg_cases.py")
EXAMPLE = os.path.join(HERE, "wg_example.py")
# wg_example.py's options: small batches, 2 layers
EXAMPLE_ARGS = ["-b", "32", "-l", "2", "-n", "5,3", "-s", "4",
                "--hiddensize", "16", "--feat-dim", "8", "-c", "5",
                "--log-level", "warn"]
PY = os.environ.get("PY", sys.executable)
ZESHRUN = os.environ.get("ZESHRUN", "zeshrun")
JOB_S = 300
TYPES = ["continuous", "chunked", "distributed"]
LOCATIONS = ["cpu", "cuda"]


@pytest.fixture(autouse=True, scope="session")
def torch_or_skip():
    p = subprocess.run([PY, "-c", "import torch, numpy"],
                       capture_output=True)
    if p.returncode:
        pytest.skip("torch or numpy cannot be imported by %s "
                    "(python3-torch, python3-numpy)" % PY)


def shm_entries():
    try:
        return sorted(n for n in os.listdir("/dev/shm")
                      if n.startswith("zemem"))
    except OSError:
        return []


def zeshrun(n, *args, script=CASES, case=None):
    before = shm_entries()
    tmp = tempfile.mkdtemp(prefix="wg_test_")
    env = dict(os.environ)
    env.setdefault("ZESHMEM_TIMEOUT", "120")
    env["WG_TMP"] = tmp
    try:
        p = subprocess.run([ZESHRUN, "-n", str(n), "--", PY, script] +
                           list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True,
                           timeout=JOB_S, env=env,
                           stdin=subprocess.DEVNULL)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    assert p.returncode == 0, "status %d:\n%s" % (p.returncode, p.stdout)
    assert shm_entries() == before, "/dev/shm entries left:\n" + p.stdout
    for pe in range(n):
        assert "PE %d: %s ok" % (pe, case or args[0]) in p.stdout, p.stdout
    return p.stdout


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_comm(n):
    zeshrun(n, "comm")


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("mt", TYPES)
@pytest.mark.parametrize("loc", LOCATIONS)
def test_tensor(n, mt, loc):
    zeshrun(n, "tensor", mt, loc)


@pytest.mark.parametrize("n", [1, 2])
@pytest.mark.parametrize("mt", TYPES)
def test_file(n, mt):
    zeshrun(n, "file", mt, "cpu")


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("mt", TYPES)
@pytest.mark.parametrize("loc", LOCATIONS)
def test_embedding(n, mt, loc):
    zeshrun(n, "embedding", mt, loc)


@pytest.mark.parametrize("n", [1, 3])
@pytest.mark.parametrize("mt", TYPES)
@pytest.mark.parametrize("loc", LOCATIONS)
def test_embedding_round_robin(n, mt, loc):
    """round_robin_size: blocks of rows dealt to the ranks in turn."""
    zeshrun(n, "round_robin", mt, loc)


@pytest.mark.parametrize("n", [1, 2])
@pytest.mark.parametrize("mt", TYPES)
def test_cache(n, mt):
    zeshrun(n, "cache", mt, "cpu")


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("mt", TYPES)
def test_sampling(n, mt):
    zeshrun(n, "sampling", mt, "cpu")


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("mt", TYPES)
def test_structure(n, mt):
    """GraphStructure: one hop exact against the reference sampler,
    multi-layer samples against the graph, bad input."""
    zeshrun(n, "structure", mt, "cpu")


@pytest.mark.parametrize("n", [2, 4])
@pytest.mark.parametrize("mt", TYPES + ["hierarchy"])
def test_group_embedding(n, mt):
    """Embeddings and their optimizers on groups of 2 ranks."""
    zeshrun(n, "group_embedding", mt, "cpu")


@pytest.mark.parametrize("n,mt", [(2, "chunked"), (3, "distributed"),
                                  (4, "continuous")])
def test_example_mpi_agent(n, mt):
    """A script in WholeGraph's example form (its options, data loaders,
    GraphStructure) started by zeshrun, --launch-agent mpi (the
    default)."""
    zeshrun(n, *EXAMPLE_ARGS, "--embedding-memory-type", mt,
            script=EXAMPLE, case="example")


def unshared_job(cmd, env, n, args, case):
    """cmd (sh, with args) in a network namespace of its own with only
    its loopback (unshare -n, gone with the job); every PE's "case ok"
    line, no /dev/shm entry left, the job's scratch folder removed."""
    for tool in ("unshare", "ip"):
        if not shutil.which(tool):
            pytest.skip("%s is not installed" % tool)
    probe = subprocess.run(["unshare", "-n", "true"], capture_output=True)
    if probe.returncode:
        pytest.skip("unshare -n: no network namespace here (%s)" %
                    probe.stderr.decode().strip())
    env = dict({k: v for k, v in os.environ.items()
                if not k.startswith(("ZESHMEM_", "PMIX_", "OMPI_"))},
               ZESHMEM_TIMEOUT="120", PY=PY,
               WG_TMP=tempfile.mkdtemp(prefix="wg_test_"), **env)
    before = shm_entries()
    try:
        p = subprocess.run(["unshare", "-n", "sh", "-c", cmd, "sh"] + args,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=JOB_S, env=env,
                           stdin=subprocess.DEVNULL)
    finally:
        shutil.rmtree(env["WG_TMP"], ignore_errors=True)
    if p.returncode == 97:
        pytest.skip("cannot bring the namespace's loopback up")
    assert p.returncode == 0, "status %d:\n%s" % (p.returncode, p.stdout)
    assert shm_entries() == before, "/dev/shm entries left:\n" + p.stdout
    for pe in range(n):
        assert "PE %d: %s ok" % (pe, case) in p.stdout, p.stdout


def test_example_spawn_agent():
    """--launch-agent spawn --local-size 2: distributed_launch spawns the
    ranks (torch.multiprocessing), which meet over torch.distributed."""
    unshared_job('ip link set lo up || exit 97; exec timeout -s KILL %d '
                 '"$PY" "$EXAMPLE" --launch-agent spawn --local-size 2 '
                 '--master-addr 127.0.0.1 --master-port 29514 "$@"' %
                 (JOB_S - 20), dict(EXAMPLE=EXAMPLE), 2, EXAMPLE_ARGS,
                 "example")


def test_example_pytorch_agent():
    """--launch-agent pytorch: the world from torchrun's variables."""
    unshared_job(TORCHRUN_SH.replace('"$CASES" "$@"',
                                     '"$CASES" --launch-agent pytorch "$@"'),
                 dict(N="2", WORLD_SIZE="2", LOCAL_WORLD_SIZE="2",
                      MASTER_ADDR="127.0.0.1", MASTER_PORT="29515",
                      CASES=EXAMPLE), 2, EXAMPLE_ARGS, "example")


def test_graph_ops():
    zeshrun(1, "graph")


@pytest.mark.parametrize("n", [1, 2])
@pytest.mark.parametrize("mt", ["chunked", "distributed"])
def test_train(n, mt):
    zeshrun(n, "train", mt, "cpu")


@pytest.mark.parametrize("case,mt", [(c, mt) for c in ("file", "cache",
                                                       "sampling")
                                     for mt in TYPES] +
                         [("train", "chunked"), ("train", "distributed")])
def test_device_location(case, mt):
    """Files, caches, sampling and training with the tables in device
    memory ("cuda": zeMemAllocDevice), on 2 ranks, checked as in host
    memory."""
    zeshrun(2, case, mt, "cuda")


@pytest.mark.parametrize("n,mt", [(1, "continuous"), (2, "chunked"),
                                  (2, "distributed"), (3, "continuous")])
def test_gnn(n, mt):
    """gnn_model's layers against a reference, HomoGNNModel (sage, gcn,
    gat) learning communities."""
    zeshrun(n, "gnn", mt, "cpu")


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("mt", ["continuous", "distributed"])
def test_train_matches_one_process(n, mt):
    zeshrun(n, "train_match", mt, "cpu")


@pytest.mark.parametrize("n", [1, 2])
@pytest.mark.parametrize("mt", TYPES)
def test_misuse(n, mt):
    zeshrun(n, "misuse", mt, "cpu")


@pytest.mark.parametrize("n", [2, 3])
def test_hierarchy(n):
    """HIERARCHY memory: tensors and embeddings."""
    zeshrun(n, "tensor", "hierarchy", "cpu")
    zeshrun(n, "embedding", "hierarchy", "cpu")


def test_four_ranks():
    """4 ranks: tensors, embeddings and sampling on the partitioned
    types."""
    for mt in ("chunked", "distributed"):
        zeshrun(4, "tensor", mt, "cpu")
        zeshrun(4, "embedding", mt, "cpu")
        zeshrun(4, "sampling", mt, "cpu")


TORCHRUN_SH = r"""
ip link set lo up || exit 97
i=0
while [ $i -lt "$N" ]; do
  RANK=$i LOCAL_RANK=$i timeout -s KILL %d "$PY" "$CASES" "$@" &
  i=$((i + 1))
done
st=0
for p in $(jobs -p); do wait $p || st=$?; done
exit $st
""" % (JOB_S - 20)


@pytest.mark.parametrize("case", [["comm"], ["embedding", "distributed",
                                             "cpu"]])
def test_torchrun_env(case):
    """A job started as torchrun starts it (RANK, WORLD_SIZE, LOCAL_RANK,
    LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT; no zeshrun): rank 0's
    unique id travels over torch.distributed (gloo). In a network
    namespace of its own (unshare -n, only its loopback), which goes
    away with the job."""
    unshared_job(TORCHRUN_SH, dict(N="2", WORLD_SIZE="2",
                                   LOCAL_WORLD_SIZE="2",
                                   MASTER_ADDR="127.0.0.1",
                                   MASTER_PORT="29512", CASES=CASES),
                 2, case, case[0])


def test_mpirun():
    """A job of 2 ranks started by Open MPI's mpirun (PMIx bootstrap):
    communicators and an embedding trained through the optimizer."""
    m = shutil.which("mpirun")
    if not m:
        pytest.skip("mpirun not found in PATH (openmpi-bin)")
    env = dict(os.environ, OMPI_MCA_osc="^rdma", ZESHMEM_TIMEOUT="120",
               WG_TMP=tempfile.mkdtemp(prefix="wg_test_"))
    before = shm_entries()
    out = ""
    try:
        for case in (["comm"], ["embedding", "chunked", "cpu"]):
            p = subprocess.run(
                [m, "--allow-run-as-root", "--bind-to", "none",
                 "--oversubscribe", "--mca", "oob_tcp_if_include", "lo",
                 "--mca", "btl_tcp_if_include", "lo", "-np", "2", "-x",
                 "PYTHONPATH", "-x", "WG_TMP", PY, CASES] + case,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                text=True, timeout=JOB_S, env=env,
                stdin=subprocess.DEVNULL)
            out = p.stdout
            if "ZESHMEM_BOOTSTRAP=pmix unsupported" in out:
                pytest.skip("libzeshmem built without PMIx")
            assert p.returncode == 0, "status %d:\n%s" % (p.returncode,
                                                         out)
            for pe in range(2):
                assert "PE %d: %s ok" % (pe, case[0]) in out, out
    finally:
        shutil.rmtree(env["WG_TMP"], ignore_errors=True)
    assert shm_entries() == before, "/dev/shm entries left:\n" + out
