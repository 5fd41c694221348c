# SPDX-License-Identifier: MIT
"""shmem-run, python3 -m shmem.run: start a job of N PEs on this machine.

usage: python3 -m shmem.run -n N [-g GRACE_S] [--no-python] [--]
           prog.py [args...]
       python3 -m shmem.run -n N [-g GRACE_S] -m module [args...]

Starts N processes (python3 prog.py args, with this interpreter; with
--no-python, prog as a command), each with SHMEM_RUN_RANK,
SHMEM_RUN_NRANKS, LOCAL_RANK and SHMEM_RUN_FD, a pipe to this launcher:
their aclshmem_init (or shmem.core's init) forms one job of N PEs, rank 0
making the unique id and the launcher handing it to the others through
their pipes (shmem/_start.py). Nothing listens on a network.

Nothing outlives the job (as with zeshrun): the PEs and whatever they
start form one process group, led by a small keeper process started first;
the keeper ignores the forwarded signals and only waits for the end of a
pipe that the launcher alone holds open, then kills its group. So when the
launcher ends in any way, SIGKILL included, every process of the group
dies. A process that leaves the group (setsid, setpgid) leaves the job.

SIGINT, SIGTERM and SIGHUP are forwarded to the group. The first PE that
exits non-zero or dies by a signal ends the job: one line "shmem.run: PE
<k> (pid P) exited with status S | killed by signal S", SIGTERM to the
group, SIGKILL after GRACE_S seconds (default 3). Exit status: the first
failing PE's (128+S for a signal), else 128+S when the launcher itself was
signalled, else 0.
"""
import ctypes
import os
import select
import signal
import subprocess
import sys
import time

MAX_PES = 4096
FORWARD = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
# Variables of other launchers that would make a PE join another job.
FOREIGN = ("ZESHMEM_UNIQUEID", "ZESHMEM_RANK", "ZESHMEM_NRANKS",
           "ZESHMEM_LOCAL_RANK", "ZESHMEM_BOOTSTRAP", "PMIX_RANK",
           "SHMEM_RUN_RANK", "SHMEM_RUN_NRANKS", "SHMEM_RUN_FD")
USAGE = ("usage: python3 -m shmem.run -n N [-g GRACE_S] [--no-python] [--] "
         "prog.py [args...]\n"
         "       python3 -m shmem.run -n N [-g GRACE_S] -m module "
         "[args...]\n"
         "  -n N, -np N, --nproc N   number of PEs (1..%d)\n"
         "  -g GRACE_S     seconds between SIGTERM and SIGKILL when the job "
         "ends early\n"
         "                 (default 3)\n"
         "  --no-python    run prog as a command, not python3 prog\n"
         "  -m module      run python3 -m module\n" % MAX_PES)


class UsageError(Exception):
    pass


def parse(argv):
    """(n, grace, command) from the launcher's arguments."""
    n, grace, python, module = None, 3.0, True, None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            sys.stdout.write(USAGE)
            sys.exit(0)
        if a == "--":
            i += 1
            break
        if a == "--no-python":
            python = False
            i += 1
            continue
        if a in ("-n", "-np", "--np", "--nproc", "-g", "--grace", "-m"):
            if i + 1 >= len(argv):
                raise UsageError("%s needs a value" % a)
            v = argv[i + 1]
            i += 2
            if a == "-m":
                module = v
                break
            try:
                x = int(v) if a not in ("-g", "--grace") else float(v)
            except ValueError:
                raise UsageError("%s %r is not a number" % (a, v)) from None
            if a in ("-g", "--grace"):
                if not 0 <= x <= 3600:
                    raise UsageError("-g %s: want 0 .. 3600 seconds" % v)
                grace = x
            else:
                if not 1 <= x <= MAX_PES:
                    raise UsageError("-n %s: want 1 .. %d" % (v, MAX_PES))
                n = x
            continue
        if a.startswith("-") and a != "-":
            raise UsageError("unknown option %s" % a)
        break
    rest = argv[i:]
    if n is None:
        raise UsageError("-n N is required")
    if module is not None:
        if not python:
            raise UsageError("-m and --no-python exclude each other")
        return n, grace, [sys.executable, "-m", module] + rest
    if not rest:
        raise UsageError("no program to run")
    if python:
        return n, grace, [sys.executable] + rest
    return n, grace, rest


# The keeper: end of file on stdin (the launcher's end closed, or the
# launcher died), then SIGKILL to its own group, itself included.
KEEPER = ("import os, signal, sys\n"
          "sys.stdin.buffer.read()\n"
          "os.killpg(0, signal.SIGKILL)\n")


def _keeper_pre():
    """In the keeper, before the exec: the group's leader, deaf to the
    forwarded signals (an ignored signal stays ignored across exec)."""
    os.setpgid(0, 0)
    for s in FORWARD:
        signal.signal(s, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


def _pe_pre(pgid):
    """In a PE, before the exec: into the keeper's group, SIGKILL when the
    launcher dies, no signal blocked."""
    def pre():
        os.setpgid(0, pgid)
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)   # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
    return pre


def _status(rc):
    """Popen's returncode as a shell's status."""
    return 128 - rc if rc < 0 else rc


def _describe(rc):
    if rc < 0:
        return "killed by signal %d" % -rc
    return "exited with status %d" % rc


class Job:
    def __init__(self, n, grace, cmd):
        self.n, self.grace, self.cmd = n, grace, cmd
        self.procs = []
        self.pidfds = {}
        self.up = None          # rank 0's pipe: the unique id comes up it
        self.downs = []         # the other ranks' pipes
        self.fail = None        # the first failing status
        self.signalled = None
        self.ending = None      # when SIGTERM went to the rest
        self.keeper = None

    def start(self):
        try:
            self.keeper = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", KEEPER],
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                preexec_fn=_keeper_pre)
        except OSError as e:
            sys.stderr.write("shmem.run: cannot start the keeper: %s\n" %
                             (e.strerror or e))
            self.fail = 127
            return False
        base = {k: v for k, v in os.environ.items() if k not in FOREIGN}
        base["SHMEM_RUN_NRANKS"] = str(self.n)
        for k in range(self.n):
            r, w = os.pipe()
            child_fd = w if k == 0 else r
            env = dict(base, SHMEM_RUN_RANK=str(k), LOCAL_RANK=str(k),
                       SHMEM_RUN_FD=str(child_fd))
            try:
                p = subprocess.Popen(
                    self.cmd, env=env, pass_fds=(child_fd,),
                    stdin=None if k == 0 else subprocess.DEVNULL,
                    preexec_fn=_pe_pre(self.keeper.pid))
            except OSError as e:
                os.close(r)
                os.close(w)
                sys.stderr.write("shmem.run: cannot start %s: %s\n" %
                                 (self.cmd[0], e.strerror or e))
                self.fail = 127
                return False
            os.close(child_fd)
            if k == 0:
                self.up = r
            else:
                self.downs.append(w)
            self.procs.append(p)
            try:
                self.pidfds[os.pidfd_open(p.pid)] = k
            except (AttributeError, OSError):
                pass
        return True

    def signal_all(self, sig):
        """sig to the job's group (the keeper ignores the forwarded ones;
        SIGKILL ends it too)."""
        if self.keeper is not None and self.keeper.returncode is None:
            try:
                os.killpg(self.keeper.pid, sig)
            except (ProcessLookupError, PermissionError):
                pass

    def close(self):
        """The end: the keeper kills whatever is left in the group."""
        if self.keeper is not None:
            self.keeper.stdin.close()
            self.keeper.wait()

    def end_rest(self):
        if self.ending is None:
            self.ending = time.monotonic()
            self.signal_all(signal.SIGTERM)
            self.close_pipes()

    def close_pipes(self):
        for fd in ([self.up] if self.up is not None else []) + self.downs:
            os.close(fd)
        self.up, self.downs = None, []

    def hand_uid(self):
        """Rank 0 wrote the id (or closed its pipe): on to the others."""
        try:
            line = os.read(self.up, 4096)
        except OSError:
            line = b""
        if line.endswith(b"\n") and len(line) == 257:
            for fd in self.downs:
                try:
                    os.write(fd, line)
                except OSError:
                    pass
        self.close_pipes()   # no id: the others read end of file

    def reap(self):
        for k, p in enumerate(self.procs):
            if p.returncode is not None or p.poll() is None:
                continue
            rc = p.returncode
            if rc != 0 and self.fail is None and self.ending is None:
                sys.stderr.write("shmem.run: PE %d (pid %d) %s\n" %
                                 (k, p.pid, _describe(rc)))
                sys.stderr.flush()
                self.fail = _status(rc)
                self.end_rest()

    def wait(self, wake):
        while any(p.returncode is None for p in self.procs):
            fds = [wake] + list(self.pidfds)
            if self.up is not None:
                fds.append(self.up)
            tmo = None if len(self.pidfds) == len(self.procs) else 0.1
            if self.ending is not None:
                left = self.ending + self.grace - time.monotonic()
                if left <= 0:
                    self.signal_all(signal.SIGKILL)
                    left = 0.1
                tmo = left if tmo is None else min(tmo, left)
            try:
                ready = select.select(fds, [], [], tmo)[0]
            except InterruptedError:
                ready = []
            if wake in ready:
                self.on_signals(wake)
            if self.up is not None and self.up in ready:
                self.hand_uid()
            for fd in ready:
                if fd in self.pidfds:
                    os.close(fd)
                    del self.pidfds[fd]
            self.reap()
        for fd in list(self.pidfds):
            os.close(fd)
        self.pidfds.clear()
        self.close_pipes()

    def on_signals(self, wake):
        try:
            data = os.read(wake, 64)
        except BlockingIOError:
            return
        for s in data:
            if s in [int(x) for x in FORWARD]:
                if self.signalled is None:
                    self.signalled = s
                self.signal_all(s)

    def status(self):
        if self.fail is not None:
            return self.fail
        if self.signalled is not None:
            return 128 + self.signalled
        return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    try:
        n, grace, cmd = parse(argv)
    except UsageError as e:
        sys.stderr.write("shmem.run: %s\n%s" % (e, USAGE))
        return 2
    job = Job(n, grace, cmd)
    r, w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    old = {s: signal.signal(s, lambda *a: None) for s in FORWARD}
    old_wake = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
    try:
        if job.start():
            job.wait(r)
        else:
            job.end_rest()
            job.wait(r)
    finally:
        # whatever happened (an exception here too): no PE is left
        for p in job.procs:
            if p.returncode is None:
                job.signal_all(signal.SIGKILL)
                p.wait()
        job.close()
        signal.set_wakeup_fd(old_wake)
        for s, h in old.items():
            signal.signal(s, h)
        os.close(r)
        os.close(w)
    return job.status()


if __name__ == "__main__":
    sys.exit(main())
