# SPDX-License-Identifier: MIT
# Included by _shmem.pyx: InitAttr, OpEngineType, init and finalize,
# unique ids, teams, configuration and info.

class OpEngineType(_enum.IntEnum):
    """Enum for operation engine types: how node-local data moves. AUTO:
    host loads and stores when the heap is host-accessible, else the copy
    engine; DIRECT: host loads and stores; ENGINE: the device's copy engine
    (Level Zero immediate command lists)."""
    AUTO = SHMEMX_COPY_AUTO
    DIRECT = SHMEMX_COPY_DIRECT
    ENGINE = SHMEMX_COPY_ENGINE


OpEngineType.__module__ = "shmem"


class SignalOp(_enum.IntEnum):
    """How a put with signal updates the signal word: SET or ADD
    (ACLSHMEM_SIGNAL_SET / ADD)."""
    SET = SHMEM_SIGNAL_SET
    ADD = SHMEM_SIGNAL_ADD


class CmpOp(_enum.IntEnum):
    """A wait's comparison: EQ, NE, GT, GE, LT, LE (ACLSHMEM_CMP_*)."""
    EQ = SHMEM_CMP_EQ
    NE = SHMEM_CMP_NE
    GT = SHMEM_CMP_GT
    GE = SHMEM_CMP_GE
    LT = SHMEM_CMP_LT
    LE = SHMEM_CMP_LE


SignalOp.__module__ = CmpOp.__module__ = "shmem"

ACLSHMEM_CMP_EQ = SHMEM_CMP_EQ
ACLSHMEM_CMP_NE = SHMEM_CMP_NE
ACLSHMEM_CMP_GT = SHMEM_CMP_GT
ACLSHMEM_CMP_GE = SHMEM_CMP_GE
ACLSHMEM_CMP_LT = SHMEM_CMP_LT
ACLSHMEM_CMP_LE = SHMEM_CMP_LE
ACLSHMEM_SIGNAL_SET = SHMEM_SIGNAL_SET
ACLSHMEM_SIGNAL_ADD = SHMEM_SIGNAL_ADD


cdef class InitAttr:
    """InitAttr(mem_size=0, op_engine_type=None)

    Initialization attributes for aclshmem_init.

    mem_size: size of the symmetric heap in bytes (every PE must use the
    same)."""
    cdef unsigned long long _mem_size
    cdef int _oe

    def __cinit__(self, *args, **kw):
        self._mem_size = 0
        self._oe = SHMEMX_COPY_DEFAULT

    def __init__(self, mem_size=0, op_engine_type=None):
        self.mem_size = mem_size
        self.op_engine_type = op_engine_type

    @property
    def mem_size(self):
        """Size of the symmetric heap in bytes (0: the runtime's default,
        ZESHMEM_SYMMETRIC_SIZE, 1 GiB unless set). The heap grows when an
        allocation does not fit."""
        return self._mem_size

    @mem_size.setter
    def mem_size(self, v):
        self._mem_size = get_u64("InitAttr", "mem_size", v)

    @property
    def op_engine_type(self):
        """How node-local data moves (an OpEngineType): AUTO, DIRECT (host
        loads and stores) or ENGINE (the device's copy engine); None (the
        default): the ZESHMEM_COPY option decides."""
        if self._oe == SHMEMX_COPY_DEFAULT:
            return None
        return OpEngineType(self._oe)

    @op_engine_type.setter
    def op_engine_type(self, v):
        if v is None:
            self._oe = SHMEMX_COPY_DEFAULT
        else:
            self._oe = get_ll("InitAttr", "op_engine_type", v,
                              SHMEMX_COPY_AUTO, SHMEMX_COPY_ENGINE)

    def __repr__(self):
        return "InitAttr(mem_size=%d, op_engine_type=%r)" % (
            self._mem_size, self.op_engine_type)


cdef int apply_attrs(str fn, unsigned long long mem_size,
                     int copy) except -1:
    if shmem_my_pe() >= 0:
        return 0  # a second init is a no-op
    cdef int rc = shmemx_set_heap_size(<size_t>mem_size)
    if rc == -EINVAL:
        raise AclshmemInvalid("%s: mem_size %d is out of range (64 KiB .. "
                              "64 TiB, or 0 for the default)" %
                              (fn, mem_size))
    if rc == 0:
        rc = shmemx_set_copy_mode(copy)
    if rc < 0:
        fail_rc(fn, rc)
    return 0


cdef inline int _init_rc(int rc):
    """The error code of an init (0, or a negative errno value): the
    package (_init.py) wraps it in an InitResult with my_pe and n_pes."""
    return -rc if rc > 0 else rc


def _aclshmem_init(attributes):
    """aclshmem_init's call (the package's aclshmem_init wraps it): the
    error code, 0 or a negative errno value."""
    if not isinstance(attributes, InitAttr):
        raise TypeError("aclshmem_init: attributes must be a "
                        "shmem.InitAttr, not %.100s" %
                        type(attributes).__name__)
    cdef InitAttr a = attributes
    apply_attrs("aclshmem_init", a._mem_size, a._oe)
    cdef int rc, prov = 0
    cdef bint was = shmem_my_pe() >= 0
    with nogil:
        rc = shmem_init_thread(SHMEM_THREAD_MULTIPLE, &prov)
    global generation
    if rc == 0 and not was:
        generation += 1
    return _init_rc(rc)


def _aclshmem_init_using_unique_id(rank, nranks, mem_size, uid,
                                   op_engine_type=-1):
    """aclshmem_init_using_unique_id's call (the package wraps it): the
    error code, 0 or a negative errno value. op_engine_type: an
    OpEngineType value, -1 for the ZESHMEM_COPY option (the launchers'
    starts pass InitAttr's)."""
    fn = "aclshmem_init_using_unique_id"
    cdef long long nr = get_ll(fn, "nranks", nranks, 1, 1 << 24)
    cdef long long r = get_ll(fn, "rank", rank, 0, nr - 1)
    cdef uint64_t ms = get_u64(fn, "mem_size", mem_size)
    cdef int copy = get_ll(fn, "op_engine_type", op_engine_type,
                           SHMEMX_COPY_DEFAULT, SHMEMX_COPY_ENGINE)
    if isinstance(uid, str):
        raise TypeError("%s: uid must be bytes, not %.100s" %
                        (fn, type(uid).__name__))
    try:
        b = memoryview(uid).cast("B")
    except TypeError:
        raise TypeError("%s: uid must be bytes, not %.100s" %
                        (fn, type(uid).__name__)) from None
    cdef shmemx_uniqueid_t u
    if len(b) != sizeof(u.internal):
        raise AclshmemInvalid("%s: uid has %d bytes, not %d (use "
                              "aclshmem_get_unique_id())" %
                              (fn, len(b), sizeof(u.internal)))
    cdef const unsigned char[:] v = bytes(b)
    memcpy(u.internal, &v[0], sizeof(u.internal))
    apply_attrs(fn, ms, copy)
    cdef int rc, prov = 0, ir = <int>r, inr = <int>nr
    cdef bint was = shmem_my_pe() >= 0
    with nogil:
        rc = shmemx_init_attr_thread(ir, inr, &u, SHMEM_THREAD_MULTIPLE,
                                     &prov)
    global generation
    if rc == 0 and not was:
        generation += 1
    return _init_rc(rc)


def aclshmem_get_unique_id():
    """aclshmem_get_unique_id() -> bytes

    Generate a unique ID for coordinating a multi-process initialization.

    Called by rank 0, which then serves the others' initialization: send
    the bytes to every rank, which all call aclshmem_init_using_unique_id
    with them."""
    cdef shmemx_uniqueid_t uid
    cdef int rc
    uid.internal[:] = [0] * 128
    with nogil:
        rc = shmemx_get_uniqueid(&uid)
    if rc:
        raise AclshmemError("aclshmem_get_unique_id: no bootstrap socket "
                            "could be bound (see stderr)")
    return PyBytes_FromStringAndSize(<char *>uid.internal,
                                     sizeof(uid.internal))


def _init_state():
    """2 while the runtime is initialized, else 0
    (aclshmemx_init_status)."""
    return 2 if shmem_my_pe() >= 0 else 0


def my_pe():
    """my_pe() -> int

    The PE number of the calling process (0 .. pe_count()-1)."""
    need_init("my_pe")
    return shmem_my_pe()


def pe_count():
    """pe_count() -> int

    The total number of PEs of the job."""
    need_init("pe_count")
    return shmem_n_pes()


# ---- teams --------------------------------------------------------------

cdef class Team:
    """A team handle: an ordered subset of the PEs (made by
    team_split_strided / team_split_2d, or SHMEM_TEAM_WORLD)."""
    cdef shmem_team_t team
    cdef bint world      # SHMEM_TEAM_WORLD (valid between init, finalize)
    cdef bint destroyed
    cdef unsigned long gen

    def __init__(self):
        raise TypeError("shmem.Team cannot be made directly: use "
                        "team_split_strided or team_split_2d")

    def __repr__(self):
        if self.world:
            return "shmem.SHMEM_TEAM_WORLD"
        if self.destroyed or self.gen != generation:
            return "<shmem.Team (destroyed)>"
        return "<shmem.Team my_pe=%d n_pes=%d>" % (
            shmem_team_my_pe(self.team), shmem_team_n_pes(self.team))


cdef Team _new_team(shmem_team_t t, bint world):
    cdef Team o = Team.__new__(Team)
    o.team = t
    o.world = world
    o.destroyed = False
    o.gen = generation
    return o


SHMEM_TEAM_WORLD = _new_team(SHMEM_TEAM_INVALID, True)


cdef object team_new(shmem_team_t t):
    if t == SHMEM_TEAM_INVALID:
        return None
    return _new_team(t, False)


cdef shmem_team_t get_team(str fn, str what, object o) except? NULL:
    cdef Team to
    if _is_int(o):
        # ACLSHMEM's int team ids: 0 is the world team.
        if o != 0:
            raise AclshmemInvalid("%s: %s: team id %d: the only int team "
                                  "id is 0 (the world team); other teams "
                                  "are shmem.Team objects" % (fn, what, o))
        o = SHMEM_TEAM_WORLD
    if not isinstance(o, Team):
        raise TypeError("%s: %s must be a shmem.Team or 0, not %.100s" %
                        (fn, what, type(o).__name__))
    need_init(fn)
    to = o
    if to.world:
        return C_TEAM_WORLD
    if to.destroyed or to.gen != generation:
        raise AclshmemInvalid("%s: %s was destroyed" % (fn, what))
    return to.team


def team_split_strided(start, stride, size, parent_team):
    """team_split_strided(start: int, stride: int, size: int, parent_team)
    -> Team | None

    Create a team of size PEs of parent_team: start, start + stride, ...
    (indices in the parent). Collective over the parent team. Returns the
    new team, or None on a PE outside it.

    Example: team_split_strided(start=0, stride=2, size=4,
    parent_team=SHMEM_TEAM_WORLD) makes the team of PEs 0, 2, 4, 6."""
    fn = "team_split_strided"
    cdef shmem_team_t parent = get_team(fn, "parent_team", parent_team)
    cdef shmem_team_t t = SHMEM_TEAM_INVALID
    cdef int n = shmem_team_n_pes(parent)
    cdef long long sz = get_ll(fn, "size", size, 1, n)
    cdef long long st = get_ll(fn, "start", start, 0, n - 1)
    cdef long long sd = get_ll(fn, "stride", stride,
                               INT32_MIN if sz == 1 else 1, INT32_MAX)
    if st + (sz - 1) * sd >= n:
        raise AclshmemInvalid("%s: start %d + (size %d - 1) * stride %d is "
                              "not a PE of the parent team (%d PEs)" %
                              (fn, st, sz, sd, n))
    cdef int rc
    with nogil:
        rc = shmem_team_split_strided(parent, <int>st, <int>sd, <int>sz,
                                      NULL, 0, &t)
    if rc:
        raise AclshmemError("%s: the split failed (see stderr)" % fn)
    return team_new(t)


def team_split_2d(xdim, xaxis_teams, ydim, yaxis_teams):
    """team_split_2d(xdim: int, xaxis_teams: list, ydim: int, yaxis_teams:
    list) -> None

    Split SHMEM_TEAM_WORLD into a 2D grid of xdim columns and ydim rows
    (ydim = ceil(pe_count() / xdim)). This PE's X-axis team (the PEs of
    its row) is appended to xaxis_teams and its Y-axis team (its column)
    to yaxis_teams. Collective over all PEs."""
    fn = "team_split_2d"
    if not isinstance(xaxis_teams, list) or not isinstance(yaxis_teams,
                                                           list):
        raise TypeError("%s: xaxis_teams and yaxis_teams must be lists" % fn)
    cdef long long xd = get_ll(fn, "xdim", xdim, 1, INT32_MAX)
    cdef long long yd = get_ll(fn, "ydim", ydim, 1, INT32_MAX)
    need_init(fn)
    x, y = _split_2d(fn, SHMEM_TEAM_WORLD, xd, yd)
    xaxis_teams.append(x)
    yaxis_teams.append(y)


cdef tuple _split_2d(str fn, object parent, long long xd, long long yd):
    cdef shmem_team_t p = get_team(fn, "parent_team", parent)
    cdef long long n = shmem_team_n_pes(p)
    cdef long long xr = xd if xd < n else n
    cdef long long want = (n + xr - 1) // xr
    if yd >= 0 and yd != want:
        raise AclshmemInvalid("%s: ydim %d does not match: %d PEs in rows "
                              "of %d make %d" % (fn, yd, n, xr, want))
    cdef shmem_team_t x = SHMEM_TEAM_INVALID, y = SHMEM_TEAM_INVALID
    cdef int rc
    with nogil:
        rc = shmem_team_split_2d(p, <int>xd, NULL, 0, &x, NULL, 0, &y)
    if rc:
        raise AclshmemError("%s: the split failed (see stderr)" % fn)
    return team_new(x), team_new(y)


def _team_split_2d(parent_team, xrange):
    """shmem.core's split_2d: (x-axis team, y-axis team) of parent_team
    in rows of xrange PEs."""
    fn = "split_2d"
    cdef long long xd = get_ll(fn, "xrange", xrange, 1, INT32_MAX)
    return _split_2d(fn, parent_team, xd, -1)


def team_translate_pe(src_team, src_pe, dest_team):
    """team_translate_pe(src_team, src_pe: int, dest_team) -> int

    The number in dest_team of the PE that is src_pe in src_team, or -1
    when that PE is not in dest_team."""
    fn = "team_translate_pe"
    cdef shmem_team_t s = get_team(fn, "src_team", src_team)
    cdef shmem_team_t d = get_team(fn, "dest_team", dest_team)
    cdef long long pe = get_ll(fn, "src_pe", src_pe, 0,
                               shmem_team_n_pes(s) - 1)
    return shmem_team_translate_pe(s, <int>pe, d)


def team_my_pe(team):
    """team_my_pe(team) -> int

    The calling PE's number within team."""
    return shmem_team_my_pe(get_team("team_my_pe", "team", team))


def team_n_pes(team):
    """team_n_pes(team) -> int

    The number of PEs in team."""
    return shmem_team_n_pes(get_team("team_n_pes", "team", team))


def _team_get_config(team):
    """The num_contexts of team's configuration (the package's
    aclshmem_team_get_config makes the TeamConfig)."""
    fn = "aclshmem_team_get_config"
    need_init(fn)
    cdef shmem_team_t t = get_team(fn, "team", team)
    cdef shmem_team_config_t c
    c.num_contexts = 0
    cdef int rc = shmem_team_get_config(t, SHMEM_TEAM_NUM_CONTEXTS, &c)
    if rc:
        raise AclshmemError("%s: team %r: error %d" % (fn, team, rc))
    return c.num_contexts


def team_destroy(team):
    """team_destroy(team) -> None

    Destroy a team and release its resources; all its PEs call this
    collectively. SHMEM_TEAM_WORLD cannot be destroyed (ValueError)."""
    fn = "team_destroy"
    cdef shmem_team_t t = get_team(fn, "team", team)
    if _is_int(team) or (<Team>team).world:
        raise AclshmemInvalid("%s: SHMEM_TEAM_WORLD is predefined and "
                              "cannot be destroyed" % fn)
    (<Team>team).destroyed = True
    with nogil:
        shmem_team_destroy(t)


# ---- configuration and info ---------------------------------------------

def aclshmem_info_get_version():
    """aclshmem_info_get_version() -> str

    The library's version: the OpenSHMEM version it implements,
    "major.minor"."""
    cdef int major = 0, minor = 0
    shmem_info_get_version(&major, &minor)
    return "%d.%d" % (major, minor)


def aclshmem_info_get_name():
    """aclshmem_info_get_name() -> str

    The library's name (vendor string)."""
    cdef char name[257]
    name[0] = 0
    shmem_info_get_name(name)
    return name.decode()


_LOG_NAMES = {"NOTSET": 0, "DEBUG": 10, "INFO": 20, "WARNING": 30,
              "WARN": 30, "ERROR": 40, "CRITICAL": 50, "FATAL": 50}


def set_log_level(level):
    """set_log_level(level: int | str) -> None

    Set the library's logging threshold with a Python logging level:
    logging.DEBUG, INFO, WARNING, ERROR, CRITICAL, or one of their names
    (CRITICAL and above: silent; below DEBUG: trace). Lines go to stderr
    (or ZEMEM_LOG_FILE)."""
    cdef long long l
    if isinstance(level, str):
        l = _LOG_NAMES.get(level.upper(), -1)
        if l < 0:
            raise AclshmemInvalid("set_log_level: level %r is not a logging "
                                  "level name (DEBUG, INFO, WARNING, ERROR, "
                                  "CRITICAL)" % level)
    else:
        l = get_ll("set_log_level", "level", level, 0, INT32_MAX)
    cdef int z = (5 if l < 10 else 4 if l < 20 else 3 if l < 30 else
                  2 if l < 40 else 1 if l < 50 else 0)
    if shmemx_set_log_level(z):
        raise AclshmemError("set_log_level: the library refused level %d"
                            % z)


def aclshmem_global_exit(status):
    """aclshmem_global_exit(status: int) -> None

    End every PE of the job with exit status status (does not return). For
    coordinated error handling; sys.stdout and sys.stderr are flushed
    first."""
    cdef int st = get_ll("aclshmem_global_exit", "status", status,
                         INT32_MIN, INT32_MAX)
    import sys
    for f in (sys.stdout, sys.stderr):
        try:
            if f is not None:
                f.flush()
        except Exception:
            pass
    with nogil:
        shmem_global_exit(st)
