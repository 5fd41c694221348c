# SPDX-License-Identifier: MIT
"""How aclshmem_init forms a job from the launcher that started the
process, when libzeshmem's own bootstrap cannot (it reads zeshrun's
ZESHMEM_UNIQUEID / ZESHMEM_RANK / ZESHMEM_NRANKS and Open MPI's PMIx).

Three starts end here, each with a unique-id rendezvous: rank 0 makes the
id (aclshmem_get_unique_id: its process then serves the job's bootstrap),
the others are handed it, and every rank calls the unique-id init.

 - shmem.run (python3 -m shmem.run -n N prog.py): SHMEM_RUN_RANK,
   SHMEM_RUN_NRANKS and SHMEM_RUN_FD, a pipe to the launcher: rank 0
   writes the id into it, the others read it from theirs. Nothing
   listens: the id never leaves the launcher's processes.
 - an initialized torch.distributed process group (torch's
   multiprocessing.spawn, torchrun with init_process_group first): the
   id is broadcast over the group (broadcast_object_list).
 - torchrun's environment (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT):
   rank 0 serves the id over TCP on MASTER_ADDR only, port MASTER_PORT + 1
   (ZESHMEM_RDZV_PORT sets another), until every other rank has fetched
   it or ZESHMEM_TIMEOUT seconds (default 120) passed; a connection has 1 s
   to ask. As with torch's own store, whoever can reach that port while it
   is open can fetch the id, and the id is the job's secret (it admits a
   process into the job): keep MASTER_ADDR on a trusted network.
"""
import os
import select
import socket
import sys
import time

from . import _shmem
from ._shmem import AclshmemError, AclshmemInvalid

UID_HEX = 256           # the id's text: 128 bytes in hex
# What a rank asks rank 0's TCP rendezvous: the protocol's name, its rank,
# the job's size and torchrun's run id ("-" when not set).
RDZV_MAGIC = "zeshmem-uid-1"
STRANGER_S = 1.0        # a connection's time to ask


def timeout_s():
    """ZESHMEM_TIMEOUT (seconds, default 120), as libzeshmem reads it."""
    try:
        t = int(os.environ.get("ZESHMEM_TIMEOUT", "120"))
    except ValueError:
        return 120
    return t if t > 0 else 120


def _log(msg):
    sys.stderr.write("shmem: %s\n" % msg)
    sys.stderr.flush()


# ---- which start --------------------------------------------------------

def _int_env(name):
    v = os.environ.get(name, "")
    try:
        return int(v)
    except ValueError:
        raise AclshmemInvalid("aclshmem_init: %s=%r is not a number" %
                              (name, v)) from None


def _torch_group():
    """torch.distributed's default group when it is initialized (only when
    the program imported torch.distributed: never imported here)."""
    dist = sys.modules.get("torch.distributed")
    try:
        if dist is not None and dist.is_available() and \
                dist.is_initialized() and dist.get_world_size() > 1:
            return dist
    except (AttributeError, RuntimeError):
        pass
    return None


def launcher_start():
    """The start this process has, when the package forms the job: a
    callable returning (rank, nranks, uid), else None (libzeshmem's own
    bootstrap: zeshrun, mpirun, ZESHMEM_BOOTSTRAP, or one PE)."""
    if "SHMEM_RUN_FD" in os.environ or "SHMEM_RUN_NRANKS" in os.environ:
        return _shmem_run_uid
    if os.environ.get("ZESHMEM_UNIQUEID") or "PMIX_RANK" in os.environ or \
            os.environ.get("ZESHMEM_BOOTSTRAP", "auto") != "auto":
        return None
    if _torch_group() is not None:
        return lambda: _group_uid(None)
    if all(v in os.environ for v in ("RANK", "WORLD_SIZE", "MASTER_ADDR",
                                     "MASTER_PORT")) and \
            _int_env("WORLD_SIZE") > 1:
        return _torchrun_uid
    return None


# ---- shmem.run: a pipe to the launcher ----------------------------------

def _shmem_run_uid():
    if "SHMEM_RUN_FD" not in os.environ:
        raise AclshmemError("aclshmem_init: shmem.run's job is formed once "
                            "per process (this one's pipe to the launcher "
                            "was used, or never given)")
    rank = _int_env("SHMEM_RUN_RANK")
    n = _int_env("SHMEM_RUN_NRANKS")
    fd = _int_env("SHMEM_RUN_FD")
    # once: the fd is gone after this (and no child may take it)
    for v in ("SHMEM_RUN_FD",):
        os.environ.pop(v, None)
    if not 0 <= rank < n:
        raise AclshmemInvalid("aclshmem_init: SHMEM_RUN_RANK %d of "
                              "SHMEM_RUN_NRANKS %d" % (rank, n))
    try:
        os.set_inheritable(fd, False)
    except OSError:
        raise AclshmemError("aclshmem_init: SHMEM_RUN_FD %d is not open "
                            "(shmem.run's job is formed once per process)"
                            % fd) from None
    try:
        if rank == 0:
            uid = _shmem.aclshmem_get_unique_id()
            os.write(fd, uid.hex().encode() + b"\n")
        else:
            uid = _read_uid(fd, "shmem.run", time.monotonic() + timeout_s())
    finally:
        os.close(fd)
    return rank, n, uid


def _read_uid(fd, who, deadline):
    buf = b""
    while not buf.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0:
            raise AclshmemError("aclshmem_init: no unique id from %s within "
                                "ZESHMEM_TIMEOUT=%d s" % (who, timeout_s()))
        r, _, _ = select.select([fd], [], [], left)
        if not r:
            continue
        b = os.read(fd, UID_HEX + 1 - len(buf))
        if not b:
            raise AclshmemError("aclshmem_init: %s gave no unique id (rank "
                                "0 failed?)" % who)
        buf += b
    return _uid_from_hex(buf, who)


def _uid_from_hex(text, who):
    try:
        uid = bytes.fromhex(text.decode("ascii").strip())
    except (UnicodeDecodeError, ValueError):
        uid = b""
    if len(uid) != UID_HEX // 2:
        raise AclshmemError("aclshmem_init: %s sent no unique id (%d bytes)"
                            % (who, len(text)))
    return uid


# ---- a torch.distributed process group ----------------------------------

def _group_uid(group):
    import torch.distributed as dist
    if not dist.is_initialized():
        raise AclshmemError("init_with_process_group: torch.distributed is "
                            "not initialized (call init_process_group first)")
    rank = dist.get_rank(group)
    n = dist.get_world_size(group)
    if rank < 0:
        raise AclshmemInvalid("init_with_process_group: this process is not "
                              "in the group")
    src = 0
    if group is not None:
        get = getattr(dist, "get_global_rank", None) or \
            dist.distributed_c10d._get_global_rank
        src = get(group, 0)
    obj = [_shmem.aclshmem_get_unique_id() if rank == 0 else None]
    dist.broadcast_object_list(obj, src=src, group=group)
    uid = obj[0]
    if not isinstance(uid, bytes) or len(uid) != UID_HEX // 2:
        raise AclshmemError("init_with_process_group: rank 0 sent no unique "
                            "id (%r)" % type(uid).__name__)
    return rank, n, uid


# ---- torchrun's environment: rank 0 serves the id over TCP ---------------

def _rdzv_addr():
    rank = _int_env("RANK")
    n = _int_env("WORLD_SIZE")
    if not 0 <= rank < n:
        raise AclshmemInvalid("aclshmem_init: RANK %d of WORLD_SIZE %d" %
                              (rank, n))
    host = os.environ["MASTER_ADDR"]
    if "ZESHMEM_RDZV_PORT" in os.environ:
        port = _int_env("ZESHMEM_RDZV_PORT")
    else:
        port = _int_env("MASTER_PORT") + 1
    if not 0 < port < 65536:
        raise AclshmemInvalid("aclshmem_init: rendezvous port %d (MASTER_"
                              "PORT + 1, or ZESHMEM_RDZV_PORT) is out of "
                              "range" % port)
    try:
        ai = socket.getaddrinfo(host, port, socket.AF_UNSPEC,
                                socket.SOCK_STREAM)[0]
    except socket.gaierror as e:
        raise AclshmemInvalid("aclshmem_init: MASTER_ADDR=%s: %s" %
                              (host, e)) from None
    return rank, n, ai


def _torchrun_uid():
    rank, n, ai = _rdzv_addr()
    run_id = os.environ.get("TORCHELASTIC_RUN_ID", "") or "-"
    deadline = time.monotonic() + timeout_s()
    if rank == 0:
        uid = _shmem.aclshmem_get_unique_id()
        _serve_uid(uid, n, run_id, ai, deadline)
    else:
        uid = _fetch_uid(rank, n, run_id, ai, deadline)
    return rank, n, uid


def _serve_uid(uid, n, run_id, ai, deadline):
    family, _, _, _, addr = ai
    srv = socket.socket(family, socket.SOCK_STREAM)
    try:
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            srv.bind(addr)
        except OSError as e:
            raise AclshmemError("aclshmem_init: rank 0 cannot listen on "
                                "%s port %d for the unique id: %s (set "
                                "ZESHMEM_RDZV_PORT)" %
                                (addr[0], addr[1], e.strerror)) from None
        srv.listen(64)
        served = set()
        reply = uid.hex().encode() + b"\n"
        while len(served) < n - 1:
            left = deadline - time.monotonic()
            r = select.select([srv], [], [], max(left, 0))[0] if left > 0 \
                else []
            if not r:
                raise AclshmemError(
                    "aclshmem_init: ranks %s did not fetch the unique id "
                    "from %s port %d within ZESHMEM_TIMEOUT=%d s" %
                    (sorted(set(range(1, n)) - served), addr[0], addr[1],
                     timeout_s()))
            try:
                c, peer = srv.accept()
            except OSError:
                continue
            with c:
                k = _answer(c, reply, n, run_id, served)
                if k is not None:
                    served.add(k)
    finally:
        srv.close()


def _answer(c, reply, n, run_id, served):
    """One connection: 1 s to send "zeshmem-uid-1 RANK N RUN_ID\\n" for a
    rank not yet served; anything else is closed with one line back."""
    c.settimeout(STRANGER_S)
    end = time.monotonic() + STRANGER_S
    buf = b""
    try:
        while not buf.endswith(b"\n") and len(buf) < 256 and \
                time.monotonic() < end:
            b = c.recv(256 - len(buf))
            if not b:
                return None
            buf += b
        f = buf.decode("ascii", "replace").split()
        if len(f) != 4 or f[0] != RDZV_MAGIC:
            return None
        try:
            k, m = int(f[1]), int(f[2])
        except ValueError:
            return None
        if m != n or f[3] != run_id or not 0 < k < n or k in served:
            c.sendall(b"refused\n")
            return None
        c.sendall(reply)
        return k
    except OSError:
        return None


def _fetch_uid(rank, n, run_id, ai, deadline):
    family, _, _, _, addr = ai
    ask = ("%s %d %d %s\n" % (RDZV_MAGIC, rank, n, run_id)).encode()
    why = "no answer"
    while time.monotonic() < deadline:
        c = socket.socket(family, socket.SOCK_STREAM)
        try:
            c.settimeout(max(min(deadline - time.monotonic(), 5), 0.01))
            c.connect(addr)
            c.sendall(ask)
            buf = b""
            while not buf.endswith(b"\n") and len(buf) <= UID_HEX:
                b = c.recv(UID_HEX + 1 - len(buf))
                if not b:
                    break
                buf += b
            if buf == b"refused\n":
                raise AclshmemError(
                    "aclshmem_init: rank 0 at %s port %d refused rank %d of "
                    "%d (another job, or this rank twice)" %
                    (addr[0], addr[1], rank, n))
            if buf.endswith(b"\n"):
                return _uid_from_hex(buf, "rank 0")
            why = "connection closed"
        except OSError as e:
            why = e.strerror or str(e)
        finally:
            c.close()
        time.sleep(0.05)
    raise AclshmemError("aclshmem_init: rank %d got no unique id from rank "
                        "0 at %s port %d within ZESHMEM_TIMEOUT=%d s (%s)" %
                        (rank, addr[0], addr[1], timeout_s(), why))
