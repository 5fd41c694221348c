// SPDX-License-Identifier: MIT
/*
 * _shmem.c: the CPython extension module `shmem._shmem` (the package
 * `shmem` re-exports it): ACLSHMEM's host API
 * (seed 003) on libzeshmem, written against the Python C API and the
 * library's public shmem.h / shmemx.h only.
 *
 * Pointers are Python ints (0 for "no memory"). Every argument is checked
 * here before the runtime sees it (the void shmem.h calls end the PE on
 * bad input): a pe out of range, a negative size or a symmetric pointer
 * outside this PE's heap raise ValueError, a wrong type TypeError. Failures
 * of the runtime raise RuntimeError naming the call; the blocking calls
 * whose failure the runtime can report (signal waits, barrier_all,
 * finalize) use the shmemx forms that return -errno. Collective
 * allocations with a dead PE still end the PE (the runtime's rule).
 *
 * The GIL is released around every call that may block (init, waits,
 * barriers, collective allocations, team splits, copies of 64 KiB or
 * more). aclshmem_signal_wait_until waits in slices of 100 ms and checks
 * for signals between them, so Ctrl-C raises KeyboardInterrupt.
 *
 * Arrays and tensors: a SymmetricBuffer exposes a range of the heap
 * through the buffer protocol; numpy.frombuffer / torch.frombuffer over it
 * make arrays and tensors whose storage is the symmetric allocation (no
 * copy). numpy and torch are imported on first use; without them the
 * calls that need them raise ImportError and the rest works. The
 * allocations made for arrays and tensors are remembered (by address,
 * with a weak reference to the object) so that the free calls refuse
 * objects they did not create and second frees, and aclshmem_free refuses
 * their memory. Memory a live view points to stays mapped, through free
 * and finalize: see SymmetricBuffer for how.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <shmem.h>
#include <shmemx.h>

#include "u_os.h"

/* Copies at least this long run with the GIL released. */
#define NOGIL_BYTES (64 * 1024)
/* The slice of a signal wait between checks for signals. */
#define WAIT_SLICE_MS 100

/* shmem.AclshmemError (a RuntimeError: the runtime failed) and
 * shmem.AclshmemInvalid (a ValueError: a bad argument), made at import. */
static PyObject *AclshmemError;
static PyObject *AclshmemInvalid;
/* The addresses aclshmem_malloc / calloc / align returned and
 * aclshmem_free has not freed (a second free raises). */
static PyObject *live_ptrs;

static PyObject *
live_add(void *p)
{
	PyObject *r = PyLong_FromVoidPtr(p);
	if (r && p && PySet_Add(live_ptrs, r)) {
		Py_DECREF(r);
		return NULL;
	}
	return r;
}

static PyObject *registry;      /* {ptr: (kind, weakref)} */
static unsigned long generation; /* bumped by every successful init */

/* ---- arguments -------------------------------------------------------- */

/* Positional-or-keyword arguments of a METH_FASTCALL|METH_KEYWORDS call:
 * out[i] for names[i], NULL when not given (first nreq are required). */
static int
parse(const char *fn, PyObject *const *args, Py_ssize_t nargs,
      PyObject *kwnames, const char *const *names, int nreq, int nall,
      PyObject **out)
{
	for (int i = 0; i < nall; i++)
		out[i] = NULL;
	if (nargs > nall) {
		PyErr_Format(PyExc_TypeError, "%s() takes at most %d arguments "
			     "(%zd given)", fn, nall, nargs);
		return -1;
	}
	for (Py_ssize_t i = 0; i < nargs; i++)
		out[i] = args[i];
	Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
	for (Py_ssize_t k = 0; k < nkw; k++) {
		const char *kn = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
		if (!kn)
			return -1;
		int j = 0;
		while (j < nall && strcmp(names[j], kn))
			j++;
		if (j == nall) {
			PyErr_Format(PyExc_TypeError, "%s() got an unexpected "
				     "keyword argument '%s'", fn, kn);
			return -1;
		}
		if (out[j]) {
			PyErr_Format(PyExc_TypeError, "%s() got multiple values "
				     "for argument '%s'", fn, kn);
			return -1;
		}
		out[j] = args[nargs + k];
	}
	for (int i = 0; i < nreq; i++) {
		if (!out[i]) {
			PyErr_Format(PyExc_TypeError, "%s() missing required "
				     "argument '%s'", fn, names[i]);
			return -1;
		}
	}
	return 0;
}

/* An int in [lo, hi]; TypeError for a non-integer, ValueError outside. */
static int
get_ll(const char *fn, const char *what, PyObject *o, long long lo,
       long long hi, long long *v)
{
	if (!PyLong_Check(o)) {
		if (!PyIndex_Check(o) || PyBool_Check(o)) {
			PyErr_Format(PyExc_TypeError, "%s: %s must be an int, "
				     "not %.100s", fn, what, Py_TYPE(o)->tp_name);
			return -1;
		}
	}
	int ovf = 0;
	long long x = PyLong_AsLongLongAndOverflow(o, &ovf);
	if (x == -1 && PyErr_Occurred())
		return -1;
	if (ovf || x < lo || x > hi) {
		PyErr_Format(AclshmemInvalid, "%s: %s %S is out of range "
			     "[%lld, %lld]", fn, what, o, lo, hi);
		return -1;
	}
	*v = x;
	return 0;
}

/* A non-negative int up to 2**64 - 1 (pointers, sizes, signal values). */
static int
get_u64(const char *fn, const char *what, PyObject *o, uint64_t *v)
{
	if (PyLong_CheckExact(o)) {
		unsigned long long x = PyLong_AsUnsignedLongLong(o);
		if (!(x == (unsigned long long)-1 && PyErr_Occurred())) {
			*v = x;
			return 0;
		}
		PyErr_Clear();
	} else if (!PyIndex_Check(o) || PyBool_Check(o)) {
		PyErr_Format(PyExc_TypeError, "%s: %s must be an int, not "
			     "%.100s", fn, what, Py_TYPE(o)->tp_name);
		return -1;
	}
	PyObject *i = PyNumber_Index(o);
	if (!i)
		return -1;
	unsigned long long x = PyLong_AsUnsignedLongLong(i);
	if (x == (unsigned long long)-1 && PyErr_Occurred()) {
		PyErr_Clear();
		PyErr_Format(AclshmemInvalid, "%s: %s %S is negative or does "
			     "not fit in 64 bits", fn, what, i);
		Py_DECREF(i);
		return -1;
	}
	Py_DECREF(i);
	*v = x;
	return 0;
}

static int
get_size(const char *fn, const char *what, PyObject *o, size_t *v)
{
	uint64_t x;
	if (get_u64(fn, what, o, &x))
		return -1;
	if (x > (uint64_t)PY_SSIZE_T_MAX) {
		PyErr_Format(AclshmemInvalid, "%s: %s %llu is too large", fn,
			     what, (unsigned long long)x);
		return -1;
	}
	*v = (size_t)x;
	return 0;
}

/* ---- state checks ----------------------------------------------------- */

static int
need_init(const char *fn)
{
	if (shmem_my_pe() < 0) {
		PyErr_Format(AclshmemError, "%s: the runtime is not "
			     "initialized (call aclshmem_init first)", fn);
		return -1;
	}
	return 0;
}

static int
dead_pe(void)
{
	int n = shmem_n_pes();
	for (int i = 0; i < n; i++)
		if (!shmem_pe_accessible(i))
			return i;
	return -1;
}

/* RuntimeError for a shmemx call's -errno. */
static PyObject *
fail_rc(const char *fn, int rc)
{
	int d;
	switch (-rc) {
	case EHOSTDOWN:
		d = dead_pe();
		if (d >= 0)
			return PyErr_Format(AclshmemError, "%s: PE %d of "
					    "the job ended", fn, d);
		return PyErr_Format(AclshmemError, "%s: a PE of the job "
				    "ended", fn);
	case ETIMEDOUT:
		return PyErr_Format(AclshmemError, "%s: no answer within "
				    "ZESHMEM_TIMEOUT=%u s", fn,
				    shmemx_timeout());
	case ENODEV:
		return PyErr_Format(AclshmemError, "%s: the runtime is "
				    "not initialized", fn);
	default:
		return PyErr_Format(AclshmemError, "%s: %s", fn,
				    strerror(-rc));
	}
}

/* pe of the job (ValueError), alive as far as this PE knows (else
 * RuntimeError: the runtime would end the PE). */
static int
check_pe(const char *fn, long long pe, int alive)
{
	int n = shmem_n_pes();
	if (pe < 0 || pe >= n) {
		PyErr_Format(AclshmemInvalid, "%s: pe %lld is out of range "
			     "(the job's PEs are 0..%d)", fn, pe, n - 1);
		return -1;
	}
	if (alive && !shmem_pe_accessible((int)pe)) {
		PyErr_Format(AclshmemError, "%s: PE %lld of the job "
			     "ended", fn, pe);
		return -1;
	}
	return 0;
}

/* [p, p + n) wholly inside this PE's symmetric heap (n 0: p inside). */
static int
check_sym(const char *fn, const char *what, uint64_t p, uint64_t n)
{
	uint64_t base = (uint64_t)(uintptr_t)shmemx_heap_base();
	uint64_t size = shmemx_heap_size();
	uint64_t need = n ? n : 1;
	if (p < base || p - base >= size || need > size - (p - base)) {
		PyErr_Format(AclshmemInvalid, "%s: %s %p (%llu bytes) is "
			     "not inside the symmetric heap [%p, %p)",
			     fn, what, (void *)(uintptr_t)p,
			     (unsigned long long)n, (void *)(uintptr_t)base,
			     (void *)(uintptr_t)(base + size));
		return -1;
	}
	return 0;
}

/* [p, p + n) is memory of this process that the copy may read (write 0)
 * or write (write 1): else ValueError. */
static int
check_local(const char *fn, const char *what, uint64_t p, uint64_t n,
	    int write)
{
	if (n && !p) {
		PyErr_Format(AclshmemInvalid, "%s: %s is 0 (NULL)", fn, what);
		return -1;
	}
	if (n && p + n < p) {
		PyErr_Format(AclshmemInvalid, "%s: %s %p + %llu bytes "
			     "wraps around", fn, what, (void *)(uintptr_t)p,
			     (unsigned long long)n);
		return -1;
	}
	/* An int is any address: ask the kernel before touching it (a load
	 * or store of memory the process cannot access would kill the
	 * interpreter). -ENOSYS: the kernel cannot tell; the copy goes on. */
	int err = u_probe((const void *)(uintptr_t)p, (size_t)n, write);
	if (err == -EFAULT) {
		PyErr_Format(AclshmemInvalid, "%s: %s %p (%llu bytes) is not "
			     "%s memory of this process", fn, what,
			     (void *)(uintptr_t)p, (unsigned long long)n,
			     write ? "writable" : "readable");
		return -1;
	}
	return 0;
}

/* ---- InitAttr, OpEngineType ----------------------------------------- */

typedef struct {
	PyObject_HEAD
	unsigned long long mem_size;
	int op_engine_type;
} InitAttrObject;

static PyObject *op_engine_enum; /* shmem.OpEngineType */
static PyObject *team_world_obj; /* shmem.SHMEM_TEAM_WORLD */

static int
InitAttr_init(InitAttrObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "mem_size", "op_engine_type", NULL };
	PyObject *ms = NULL, *oe = NULL;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|OO:InitAttr", kwlist,
					 &ms, &oe))
		return -1;
	self->mem_size = 0;
	self->op_engine_type = SHMEMX_COPY_DEFAULT;
	if (ms && PyObject_SetAttrString((PyObject *)self, "mem_size", ms))
		return -1;
	if (oe && PyObject_SetAttrString((PyObject *)self, "op_engine_type",
					 oe))
		return -1;
	return 0;
}

static PyObject *
InitAttr_get_mem_size(InitAttrObject *self, void *c)
{
	return PyLong_FromUnsignedLongLong(self->mem_size);
}

static int
InitAttr_set_mem_size(InitAttrObject *self, PyObject *v, void *c)
{
	uint64_t x;
	if (!v) {
		PyErr_SetString(PyExc_AttributeError, "mem_size cannot be "
				"deleted");
		return -1;
	}
	if (get_u64("InitAttr", "mem_size", v, &x))
		return -1;
	self->mem_size = x;
	return 0;
}

static PyObject *
InitAttr_get_oe(InitAttrObject *self, void *c)
{
	if (self->op_engine_type == SHMEMX_COPY_DEFAULT)
		Py_RETURN_NONE;
	return PyObject_CallFunction(op_engine_enum, "i",
				     self->op_engine_type);
}

static int
InitAttr_set_oe(InitAttrObject *self, PyObject *v, void *c)
{
	long long x;
	if (!v) {
		PyErr_SetString(PyExc_AttributeError, "op_engine_type cannot "
				"be deleted");
		return -1;
	}
	if (v == Py_None)
		x = SHMEMX_COPY_DEFAULT;
	else if (get_ll("InitAttr", "op_engine_type", v, SHMEMX_COPY_AUTO,
			SHMEMX_COPY_ENGINE, &x))
		return -1;
	self->op_engine_type = (int)x;
	return 0;
}

static PyObject *
InitAttr_repr(InitAttrObject *self)
{
	PyObject *oe = InitAttr_get_oe(self, NULL);
	if (!oe)
		return NULL;
	PyObject *r = PyUnicode_FromFormat("InitAttr(mem_size=%llu, "
					   "op_engine_type=%R)",
					   self->mem_size, oe);
	Py_DECREF(oe);
	return r;
}

static PyGetSetDef InitAttr_getset[] = {
	{ "mem_size", (getter)InitAttr_get_mem_size,
	  (setter)InitAttr_set_mem_size,
	  "Size of the symmetric heap in bytes (0: the runtime's default, "
	  "ZESHMEM_SYMMETRIC_SIZE, 1 GiB unless set). The heap grows when an "
	  "allocation does not fit.", NULL },
	{ "op_engine_type", (getter)InitAttr_get_oe, (setter)InitAttr_set_oe,
	  "How node-local data moves (an OpEngineType): AUTO, DIRECT (host "
	  "loads and stores) or ENGINE (the device's copy engine); None (the "
	  "default): the ZESHMEM_COPY option decides.", NULL },
	{ NULL },
};

static PyTypeObject InitAttrType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "shmem.InitAttr",
	.tp_basicsize = sizeof(InitAttrObject),
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_doc = "InitAttr(mem_size=0, op_engine_type=None)\n--\n\n"
		  "Initialization attributes for aclshmem_init.\n\n"
		  "mem_size: size of the symmetric heap in bytes (every PE must "
		  "use the same).",
	.tp_new = PyType_GenericNew,
	.tp_init = (initproc)InitAttr_init,
	.tp_getset = InitAttr_getset,
	.tp_repr = (reprfunc)InitAttr_repr,
};

/* The error code of an init (0, or a negative errno value): the package
 * (__init__.py) wraps it in an InitResult with my_pe and n_pes. */
static PyObject *
init_rc(int rc)
{
	return PyLong_FromLong(rc > 0 ? -rc : rc);
}

/* ---- Team ---------------------------------------------------------------- */

typedef struct {
	PyObject_HEAD
	shmem_team_t team;
	int world;       /* SHMEM_TEAM_WORLD (valid between init and finalize) */
	int destroyed;
	unsigned long gen;
} TeamObject;

static PyObject *
Team_repr(TeamObject *self)
{
	if (self->world)
		return PyUnicode_FromString("shmem.SHMEM_TEAM_WORLD");
	if (self->destroyed || self->gen != generation)
		return PyUnicode_FromString("<shmem.Team (destroyed)>");
	return PyUnicode_FromFormat("<shmem.Team my_pe=%d n_pes=%d>",
				    shmem_team_my_pe(self->team),
				    shmem_team_n_pes(self->team));
}

static PyTypeObject TeamType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "shmem.Team",
	.tp_basicsize = sizeof(TeamObject),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "A team handle: an ordered subset of the PEs (made by "
		  "team_split_strided / team_split_2d, or SHMEM_TEAM_WORLD).",
	.tp_repr = (reprfunc)Team_repr,
};


static int
get_team(const char *fn, const char *what, PyObject *o, shmem_team_t *t)
{
	if (PyLong_Check(o) && !PyBool_Check(o)) {
		/* ACLSHMEM's int team ids: 0 is the world team. */
		int ovf;
		long long id = PyLong_AsLongLongAndOverflow(o, &ovf);
		if (id == -1 && PyErr_Occurred())
			return -1;
		if (ovf || id != 0) {
			PyErr_Format(AclshmemInvalid, "%s: %s: team id %S: the "
				     "only int team id is 0 (the world team); "
				     "other teams are shmem.Team objects", fn,
				     what, o);
			return -1;
		}
		o = team_world_obj;
	}
	if (!PyObject_TypeCheck(o, &TeamType)) {
		PyErr_Format(PyExc_TypeError, "%s: %s must be a shmem.Team or "
			     "0, not %.100s", fn, what, Py_TYPE(o)->tp_name);
		return -1;
	}
	if (need_init(fn))
		return -1;
	TeamObject *to = (TeamObject *)o;
	if (to->world) {
		*t = SHMEM_TEAM_WORLD;
		return 0;
	}
	if (to->destroyed || to->gen != generation) {
		PyErr_Format(AclshmemInvalid, "%s: %s was destroyed", fn, what);
		return -1;
	}
	*t = to->team;
	return 0;
}

static PyObject *
team_new(shmem_team_t t)
{
	if (t == SHMEM_TEAM_INVALID)
		Py_RETURN_NONE;
	TeamObject *o = PyObject_New(TeamObject, &TeamType);
	if (!o)
		return NULL;
	o->team = t;
	o->world = 0;
	o->destroyed = 0;
	o->gen = generation;
	return (PyObject *)o;
}

/* ---- SymmetricBuffer ------------------------------------------------------ */

/*
 * Lifetime of the memory under views. numpy and torch read and write a
 * SymmetricBuffer's memory straight through the pointer it exported: no
 * call of this module sits between an array and its memory, so "raise
 * instead of crash" cannot be had by checking on access. The rule kept
 * instead: memory that a live view points to stays mapped.
 *   - aclshmem_free refuses the memory of an array or tensor made by the
 *     create calls while it lives (ValueError naming the free call to
 *     use); other views (over aclshmemx_buffer) do not hold a free back:
 *     the buffer does not own its memory, which stays mapped in the heap;
 *     aclshmem_free_tensor detaches the tensor first (tensor.set_(): it
 *     becomes an empty tensor, indexing it raises IndexError) and
 *     aclshmemx_free_array makes the array read-only (writes raise);
 *     memory freed by them stays part of the mapped heap until finalize.
 *   - aclshmem_finalize does the same to every array and tensor still
 *     made, then, once the runtime has unmapped its heap, maps private
 *     anonymous memory (MAP_FIXED_NOREPLACE, never over anything else)
 *     over the pages of every SymmetricBuffer still alive (every view
 *     holds a reference to its buffer: a memoryview or numpy array
 *     through its Py_buffer, a torch tensor through the object itself,
 *     since torch.frombuffer releases its Py_buffer at once, so the
 *     export count cannot tell): such views read zeros and write to
 *     memory nobody else uses, instead of faulting. The mapping goes
 *     when the last buffer over it is deallocated.
 * A range that could not be shadowed (someone mapped it first) is
 * reported with a RuntimeWarning. Every SymmetricBuffer is on one list
 * (all under the GIL) so that finalize finds them.
 */
struct shadow {
	uintptr_t lo, hi;       /* the anonymous mapping */
	Py_ssize_t users;       /* live buffers over it */
};

typedef struct SymBufObject {
	PyObject_HEAD
	uint64_t ptr, nbytes;
	unsigned long gen;
	Py_ssize_t exports;
	struct shadow *shadow;  /* after finalize, until deallocated */
	struct SymBufObject *prev, *next;
} SymBufObject;

static SymBufObject *symbufs;   /* every live SymmetricBuffer */

static void
shadow_put(SymBufObject *b)
{
	struct shadow *sh = b->shadow;
	b->shadow = NULL;
	if (sh && --sh->users == 0) {
		munmap((void *)sh->lo, sh->hi - sh->lo);
		PyMem_RawFree(sh);
	}
}

static int
by_ptr(const void *x, const void *y)
{
	const SymBufObject *a = *(SymBufObject *const *)x;
	const SymBufObject *b = *(SymBufObject *const *)y;
	return (a->ptr > b->ptr) - (a->ptr < b->ptr);
}

/* After the runtime unmapped the heap: anonymous memory under every
 * buffer still alive (see above). Returns the buffers left unshadowed. */
static Py_ssize_t
shadow_exported(void)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	Py_ssize_t n = 0, bad = 0;
	for (SymBufObject *b = symbufs; b; b = b->next)
		n += b->nbytes && !b->shadow && b->gen == generation;
	if (!n)
		return 0;
	SymBufObject **v = PyMem_RawMalloc(sizeof(*v) * (size_t)n);
	if (!v)
		return n;
	Py_ssize_t k = 0;
	for (SymBufObject *b = symbufs; b; b = b->next)
		if (b->nbytes && !b->shadow && b->gen == generation)
			v[k++] = b;
	qsort(v, (size_t)n, sizeof(*v), by_ptr);
	for (Py_ssize_t i = 0; i < n;) {
		uintptr_t lo = (uintptr_t)v[i]->ptr & ~(pg - 1);
		uintptr_t hi = 0;
		Py_ssize_t j = i;
		while (j < n && (j == i || ((uintptr_t)v[j]->ptr & ~(pg - 1))
					   < hi)) {
			uintptr_t e = ((uintptr_t)(v[j]->ptr + v[j]->nbytes) +
				       pg - 1) & ~(pg - 1);
			if (e > hi)
				hi = e;
			j++;
		}
		struct shadow *sh = PyMem_RawMalloc(sizeof(*sh));
		void *m = sh ? mmap((void *)lo, hi - lo, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS |
				    MAP_FIXED_NOREPLACE, -1, 0) : MAP_FAILED;
		if (m != MAP_FAILED && (uintptr_t)m != lo) {
			munmap(m, hi - lo); /* a kernel without NOREPLACE */
			m = MAP_FAILED;
		}
		if (m == MAP_FAILED) {
			PyMem_RawFree(sh);
			bad += j - i;
		} else {
			*sh = (struct shadow){ lo, hi, j - i };
			for (Py_ssize_t t = i; t < j; t++)
				v[t]->shadow = sh;
		}
		i = j;
	}
	PyMem_RawFree(v);
	return bad;
}

static int
SymBuf_getbuffer(SymBufObject *self, Py_buffer *view, int flags)
{
	if (self->gen != generation || shmem_my_pe() < 0) {
		PyErr_SetString(AclshmemInvalid, "SymmetricBuffer: the "
				"runtime was finalized since it was made");
		view->obj = NULL;
		return -1;
	}
	if (PyBuffer_FillInfo(view, (PyObject *)self,
			      (void *)(uintptr_t)self->ptr,
			      (Py_ssize_t)self->nbytes, 0, flags))
		return -1;
	self->exports++;
	return 0;
}

static void
SymBuf_releasebuffer(SymBufObject *self, Py_buffer *view)
{
	self->exports--;
}

static void
SymBuf_dealloc(SymBufObject *self)
{
	/* Every view holds a reference to self (a Py_buffer's obj, or the
	 * object itself: torch.frombuffer keeps a reference and releases
	 * its Py_buffer at once): no view is left now. */
	if (self->shadow)
		shadow_put(self);
	if (self->prev)
		self->prev->next = self->next;
	else
		symbufs = self->next;
	if (self->next)
		self->next->prev = self->prev;
	PyObject_Free(self);
}

static PyBufferProcs SymBuf_as_buffer = {
	.bf_getbuffer = (getbufferproc)SymBuf_getbuffer,
	.bf_releasebuffer = (releasebufferproc)SymBuf_releasebuffer,
};

static Py_ssize_t
SymBuf_len(SymBufObject *self)
{
	return (Py_ssize_t)self->nbytes;
}

static PySequenceMethods SymBuf_as_seq = {
	.sq_length = (lenfunc)SymBuf_len,
};

static PyObject *
SymBuf_get(SymBufObject *self, void *which)
{
	return PyLong_FromUnsignedLongLong(which ? self->nbytes : self->ptr);
}

static PyGetSetDef SymBuf_getset[] = {
	{ "ptr", (getter)SymBuf_get, NULL, "Address of the first byte.", NULL },
	{ "nbytes", (getter)SymBuf_get, NULL, "Length in bytes.", (void *)1 },
	{ NULL },
};

static PyObject *
SymBuf_repr(SymBufObject *self)
{
	return PyUnicode_FromFormat("<shmem.SymmetricBuffer ptr=%p "
				    "nbytes=%llu>",
				    (void *)(uintptr_t)self->ptr,
				    (unsigned long long)self->nbytes);
}

static PyTypeObject SymBufType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "shmem.SymmetricBuffer",
	.tp_basicsize = sizeof(SymBufObject),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "A writable range of this PE's symmetric heap exposed "
		  "through the buffer protocol (memoryview, numpy.frombuffer, "
		  "torch.frombuffer): no copy, writing it writes symmetric "
		  "memory. It does not own the memory: it must not be used "
		  "after the allocation is freed. Made by aclshmemx_buffer.",
	.tp_dealloc = (destructor)SymBuf_dealloc,
	.tp_as_buffer = &SymBuf_as_buffer,
	.tp_as_sequence = &SymBuf_as_seq,
	.tp_getset = SymBuf_getset,
	.tp_repr = (reprfunc)SymBuf_repr,
};

static PyObject *
symbuf_new(uint64_t ptr, uint64_t nbytes)
{
	SymBufObject *b = PyObject_New(SymBufObject, &SymBufType);
	if (!b)
		return NULL;
	b->ptr = ptr;
	b->nbytes = nbytes;
	b->gen = generation;
	b->exports = 0;
	b->shadow = NULL;
	b->prev = NULL;
	b->next = symbufs;
	if (symbufs)
		symbufs->prev = b;
	symbufs = b;
	return (PyObject *)b;
}

/* ---- initialization ------------------------------------------------------- */

static int
apply_attrs(const char *fn, unsigned long long mem_size, int copy)
{
	if (shmem_my_pe() >= 0)
		return 0; /* a second init is a no-op */
	int rc = shmemx_set_heap_size((size_t)mem_size);
	if (rc == -EINVAL) {
		PyErr_Format(AclshmemInvalid, "%s: mem_size %llu is out of "
			     "range (64 KiB .. 64 TiB, or 0 for the default)",
			     fn, mem_size);
		return -1;
	}
	if (rc == 0)
		rc = shmemx_set_copy_mode(copy);
	if (rc < 0) {
		fail_rc(fn, rc);
		return -1;
	}
	return 0;
}

PyDoc_STRVAR(init_doc,
"_aclshmem_init($module, attributes, /)\n--\n\n"
"aclshmem_init's call (the package's aclshmem_init wraps it): the error "
"code, 0 or a negative errno value.");

static PyObject *
py_init(PyObject *m, PyObject *attr)
{
	if (!PyObject_TypeCheck(attr, &InitAttrType))
		return PyErr_Format(PyExc_TypeError, "aclshmem_init: attributes "
				    "must be a shmem.InitAttr, not %.100s",
				    Py_TYPE(attr)->tp_name);
	InitAttrObject *a = (InitAttrObject *)attr;
	if (apply_attrs("aclshmem_init", a->mem_size, a->op_engine_type))
		return NULL;
	int rc, prov = 0, was = shmem_my_pe() >= 0;
	Py_BEGIN_ALLOW_THREADS
	rc = shmem_init_thread(SHMEM_THREAD_MULTIPLE, &prov);
	Py_END_ALLOW_THREADS
	if (rc == 0 && !was)
		generation++;
	return init_rc(rc);
}

PyDoc_STRVAR(init_uid_doc,
"_aclshmem_init_using_unique_id($module, rank, nranks, mem_size, uid,\n"
"    op_engine_type=-1)\n--\n\n"
"aclshmem_init_using_unique_id's call (the package wraps it): the error "
"code, 0 or a negative errno value. op_engine_type: an OpEngineType "
"value, -1 for the ZESHMEM_COPY option (the launchers' starts pass "
"InitAttr's).");

static PyObject *
py_init_uid(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
	    PyObject *kwn)
{
	static const char *const names[] = { "rank", "nranks", "mem_size",
					     "uid", "op_engine_type" };
	const char *fn = "aclshmem_init_using_unique_id";
	PyObject *o[5];
	long long rank, nranks, copy = SHMEMX_COPY_DEFAULT;
	uint64_t ms;
	if (parse(fn, args, nargs, kwn, names, 4, 5, o) ||
	    get_ll(fn, "nranks", o[1], 1, 1 << 24, &nranks) ||
	    get_ll(fn, "rank", o[0], 0, nranks - 1, &rank) ||
	    get_u64(fn, "mem_size", o[2], &ms) ||
	    (o[4] && get_ll(fn, "op_engine_type", o[4], SHMEMX_COPY_DEFAULT,
			    SHMEMX_COPY_ENGINE, &copy)))
		return NULL;
	Py_buffer b;
	if (!PyObject_CheckBuffer(o[3]) || PyUnicode_Check(o[3]))
		return PyErr_Format(PyExc_TypeError, "%s: uid must be bytes, "
				    "not %.100s", fn, Py_TYPE(o[3])->tp_name);
	if (PyObject_GetBuffer(o[3], &b, PyBUF_SIMPLE))
		return NULL;
	shmemx_uniqueid_t uid;
	if (b.len != (Py_ssize_t)sizeof(uid.internal)) {
		PyErr_Format(AclshmemInvalid, "%s: uid has %zd bytes, not %zu "
			     "(use aclshmem_get_unique_id())", fn, b.len,
			     sizeof(uid.internal));
		PyBuffer_Release(&b);
		return NULL;
	}
	memcpy(uid.internal, b.buf, sizeof(uid.internal));
	PyBuffer_Release(&b);
	if (apply_attrs(fn, ms, (int)copy))
		return NULL;
	int rc, prov = 0, was = shmem_my_pe() >= 0;
	Py_BEGIN_ALLOW_THREADS
	rc = shmemx_init_attr_thread((int)rank, (int)nranks, &uid,
				     SHMEM_THREAD_MULTIPLE, &prov);
	Py_END_ALLOW_THREADS
	if (rc == 0 && !was)
		generation++;
	return init_rc(rc);
}

PyDoc_STRVAR(uid_doc,
"aclshmem_get_unique_id($module)\n--\n\n"
"aclshmem_get_unique_id() -> bytes\n\n"
"Generate a unique ID for coordinating a multi-process initialization.\n\n"
"Called by rank 0, which then serves the others' initialization: send "
"the bytes to every rank, which all call aclshmem_init_using_unique_id "
"with them.");

static PyObject *
py_get_uid(PyObject *m, PyObject *unused)
{
	shmemx_uniqueid_t uid = SHMEMX_UNIQUEID_INITIALIZER;
	int rc;
	Py_BEGIN_ALLOW_THREADS
	rc = shmemx_get_uniqueid(&uid);
	Py_END_ALLOW_THREADS
	if (rc)
		return PyErr_Format(AclshmemError, "aclshmem_get_unique_id:"
				    " no bootstrap socket could be bound (see "
				    "stderr)");
	return PyBytes_FromStringAndSize((const char *)uid.internal,
					 sizeof(uid.internal));
}

/* Makes obj, made by the create call of kind, stop using its memory (see
 * SymmetricBuffer): a tensor is set_() to an empty storage, an array made
 * read-only. Failures are reported as unraisable: the free goes on. */
static void
detach(const char *kind, PyObject *obj)
{
	PyObject *r = NULL;
	if (!strcmp(kind, "tensor")) {
		r = PyObject_CallMethod(obj, "set_", NULL);
	} else {
		PyObject *f = PyObject_GetAttrString(obj, "setflags");
		PyObject *a = f ? PyTuple_New(0) : NULL;
		PyObject *kw = a ? Py_BuildValue("{sO}", "write", Py_False)
				 : NULL;
		r = kw ? PyObject_Call(f, a, kw) : NULL;
		Py_XDECREF(f);
		Py_XDECREF(a);
		Py_XDECREF(kw);
	}
	if (!r)
		PyErr_WriteUnraisable(obj);
	Py_XDECREF(r);
}

PyDoc_STRVAR(finalize_doc,
"aclshmem_finalize($module)\n--\n\n"
"aclshmem_finalize() -> None\n\n"
"Finalize and clean up the runtime.\n\n"
"Must be called by all PEs before the program ends; releases all "
"symmetric memory and communication resources. Tensors made by "
"aclshmem_create_tensor become empty, arrays made by "
"aclshmemx_create_array read-only, and other views of symmetric memory "
"read zeros from then on (memory of their own, unmapped when the last "
"of them goes), never the freed heap. Raises RuntimeError when the "
"final barrier failed (a PE ended); the resources are released either "
"way. A no-op when not initialized.");

static PyObject *
py_finalize(PyObject *m, PyObject *unused)
{
	if (shmem_my_pe() < 0)
		Py_RETURN_NONE;
	Py_ssize_t live = 0, pos = 0;
	PyObject *k, *v;
	while (PyDict_Next(registry, &pos, &k, &v)) {
		PyObject *obj = PyWeakref_GetObject(PyTuple_GET_ITEM(v, 1));
		if (obj && obj != Py_None) {
			live++;
			Py_INCREF(obj);
			detach(PyUnicode_AsUTF8(PyTuple_GET_ITEM(v, 0)), obj);
			Py_DECREF(obj);
		}
	}
	PyDict_Clear(registry);
	PySet_Clear(live_ptrs);
	if (live && PyErr_WarnFormat(PyExc_RuntimeWarning, 1,
				     "aclshmem_finalize: %zd symmetric "
				     "array(s)/tensor(s) not freed; they must "
				     "not be used any more", live))
		PyErr_Clear();
	int rc;
	Py_BEGIN_ALLOW_THREADS
	rc = shmemx_finalize_status();
	Py_END_ALLOW_THREADS
	Py_ssize_t bad = shadow_exported();
	generation++;
	if (bad && PyErr_WarnFormat(PyExc_RuntimeWarning, 1,
				    "aclshmem_finalize: %zd view(s) of "
				    "symmetric memory could not be kept "
				    "mapped; using them will crash", bad))
		PyErr_Clear();
	if (rc < 0)
		return fail_rc("aclshmem_finalize", rc);
	Py_RETURN_NONE;
}

/* ---- memory management -------------------------------------------------- */

static void
registry_drop(uint64_t ptr)
{
	PyObject *k = PyLong_FromUnsignedLongLong(ptr);
	if (!k) {
		PyErr_Clear();
		return;
	}
	if (PyDict_DelItem(registry, k))
		PyErr_Clear();
	Py_DECREF(k);
}

PyDoc_STRVAR(malloc_doc,
"aclshmem_malloc($module, nbytes, /)\n--\n\n"
"aclshmem_malloc(nbytes: int) -> int\n\n"
"Allocate nbytes of symmetric memory from the heap.\n\n"
"Returns the address as an int, or 0 on failure (or for 0 bytes). The "
"memory is at the same offset in every PE's heap; all PEs must call this "
"with the same nbytes (collective: it ends with a barrier).");

static void *
do_malloc(size_t n)
{
	void *p;
	Py_BEGIN_ALLOW_THREADS
	p = shmem_malloc(n);
	Py_END_ALLOW_THREADS
	return p;
}

static PyObject *
py_malloc(PyObject *m, PyObject *arg)
{
	size_t n;
	if (get_size("aclshmem_malloc", "nbytes", arg, &n) ||
	    need_init("aclshmem_malloc"))
		return NULL;
	return live_add(do_malloc(n));
}

PyDoc_STRVAR(calloc_doc,
"aclshmem_calloc($module, count, size)\n--\n\n"
"aclshmem_calloc(count: int, size: int) -> int\n\n"
"Allocate count * size bytes of zeroed symmetric memory.\n\n"
"Returns the address, or 0 on failure. All PEs must call with the same "
"arguments (collective).");

static PyObject *
py_calloc(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
	  PyObject *kwn)
{
	static const char *const names[] = { "count", "size" };
	const char *fn = "aclshmem_calloc";
	PyObject *o[2];
	size_t c, s;
	void *p;
	if (parse(fn, args, nargs, kwn, names, 2, 2, o) ||
	    get_size(fn, "count", o[0], &c) || get_size(fn, "size", o[1], &s) ||
	    need_init(fn))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	p = shmem_calloc(c, s);
	Py_END_ALLOW_THREADS
	return live_add(p);
}

PyDoc_STRVAR(align_doc,
"aclshmem_align($module, alignment, size)\n--\n\n"
"aclshmem_align(alignment: int, size: int) -> int\n\n"
"Allocate size bytes of symmetric memory aligned to alignment bytes (a "
"power of 2).\n\n"
"Returns the address, or 0 on failure. Collective, same arguments on all "
"PEs.");

static PyObject *
py_align(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
	 PyObject *kwn)
{
	static const char *const names[] = { "alignment", "size" };
	const char *fn = "aclshmem_align";
	PyObject *o[2];
	size_t a, s;
	void *p;
	if (parse(fn, args, nargs, kwn, names, 2, 2, o) ||
	    get_size(fn, "alignment", o[0], &a) ||
	    get_size(fn, "size", o[1], &s))
		return NULL;
	if (a == 0 || (a & (a - 1)))
		return PyErr_Format(AclshmemInvalid, "%s: alignment %zu is not "
				    "a power of 2", fn, a);
	if (need_init(fn))
		return NULL;
	Py_BEGIN_ALLOW_THREADS
	p = shmem_align(a, s);
	Py_END_ALLOW_THREADS
	return live_add(p);
}

PyDoc_STRVAR(free_doc,
"aclshmem_free($module, ptr, /)\n--\n\n"
"aclshmem_free(ptr: int) -> None\n\n"
"Free symmetric memory allocated with aclshmem_malloc / calloc / align.\n\n"
"All PEs free collectively (a barrier, then the free). 0 is allowed (the "
"barrier only); an address outside the heap, or the memory of a live "
"tensor or array made by the create calls, raises ValueError.");

static PyObject *
py_free(PyObject *m, PyObject *arg)
{
	const char *fn = "aclshmem_free";
	uint64_t p;
	if (get_u64(fn, "ptr", arg, &p) || need_init(fn))
		return NULL;
	if (p && check_sym(fn, "ptr", p, 0))
		return NULL;
	/* The memory of a live array or tensor stays allocated (see
	 * SymmetricBuffer). */
	PyObject *k = PyLong_FromUnsignedLongLong(p);
	PyObject *v = k ? PyDict_GetItemWithError(registry, k) : NULL;
	Py_XDECREF(k);
	if (!v && PyErr_Occurred())
		return NULL;
	PyObject *owner = v ? PyWeakref_GetObject(PyTuple_GET_ITEM(v, 1))
			    : NULL;
	if (owner && owner != Py_None) {
		int t = !strcmp(PyUnicode_AsUTF8(PyTuple_GET_ITEM(v, 0)),
				"tensor");
		return PyErr_Format(AclshmemInvalid, "%s: ptr %p is the "
				    "memory of %s made by %s: free it with %s",
				    fn,
				    (void *)(uintptr_t)p,
				    t ? "a tensor" : "an array",
				    t ? "aclshmem_create_tensor"
				      : "aclshmemx_create_array",
				    t ? "aclshmem_free_tensor"
				      : "aclshmemx_free_array");
	}
	if (p && !v) {
		/* Not an array's or tensor's: one of malloc / calloc /
		 * align's still live, else a second free. */
		PyObject *pk = PyLong_FromUnsignedLongLong(p);
		int d = pk ? PySet_Discard(live_ptrs, pk) : -1;
		Py_XDECREF(pk);
		if (d < 0)
			return NULL;
		if (!d)
			return PyErr_Format(AclshmemInvalid, "%s: ptr %p is "
					    "not a live allocation of "
					    "aclshmem_malloc / calloc / align "
					    "(freed twice?)", fn,
					    (void *)(uintptr_t)p);
	}
	registry_drop(p);
	Py_BEGIN_ALLOW_THREADS
	shmem_free((void *)(uintptr_t)p);
	Py_END_ALLOW_THREADS
	Py_RETURN_NONE;
}

PyDoc_STRVAR(ptr_doc,
"aclshmem_ptr($module, local_ptr, pe)\n--\n\n"
"aclshmem_ptr(local_ptr: int, pe: int) -> int\n\n"
"Address through which this process can load and store pe's copy of the "
"symmetric object at local_ptr, or 0 if it is not accessible (a PE on "
"another node).");

static PyObject *
py_ptr(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwn)
{
	static const char *const names[] = { "local_ptr", "pe" };
	const char *fn = "aclshmem_ptr";
	PyObject *o[2];
	uint64_t p;
	long long pe;
	if (parse(fn, args, nargs, kwn, names, 2, 2, o) ||
	    get_u64(fn, "local_ptr", o[0], &p) ||
	    get_ll(fn, "pe", o[1], INT32_MIN, INT32_MAX, &pe) ||
	    need_init(fn) || check_pe(fn, pe, 0) ||
	    check_sym(fn, "local_ptr", p, 0))
		return NULL;
	return PyLong_FromVoidPtr(shmem_ptr((void *)(uintptr_t)p, (int)pe));
}

PyDoc_STRVAR(heap_base_doc,
"aclshmemx_get_heap_base($module)\n--\n\n"
"aclshmemx_get_heap_base() -> int\n\n"
"Base address of this PE's symmetric heap.");

static PyObject *
py_heap_base(PyObject *m, PyObject *unused)
{
	if (need_init("aclshmemx_get_heap_base"))
		return NULL;
	return PyLong_FromVoidPtr(shmemx_heap_base());
}

PyDoc_STRVAR(my_pe_doc,
"my_pe($module)\n--\n\n"
"my_pe() -> int\n\nThe PE number of the calling process (0 .. "
"pe_count()-1).");

static PyObject *
py_my_pe(PyObject *m, PyObject *unused)
{
	if (need_init("my_pe"))
		return NULL;
	return PyLong_FromLong(shmem_my_pe());
}

PyDoc_STRVAR(pe_count_doc,
"pe_count($module)\n--\n\n"
"pe_count() -> int\n\nThe total number of PEs of the job.");

static PyObject *
py_pe_count(PyObject *m, PyObject *unused)
{
	if (need_init("pe_count"))
		return NULL;
	return PyLong_FromLong(shmem_n_pes());
}

/* ---- RMA ------------------------------------------------------------------ */

enum rma_kind { PUT, GET, PUT_NBI, GET_NBI };

static PyObject *
rma(const char *fn, enum rma_kind k, PyObject *const *args, Py_ssize_t nargs,
    PyObject *kwn)
{
	static const char *const names[] = { "dest", "source", "bytes", "pe" };
	PyObject *o[4];
	uint64_t d, s, n;
	long long pe;
	if (parse(fn, args, nargs, kwn, names, 4, 4, o) ||
	    get_u64(fn, "dest", o[0], &d) || get_u64(fn, "source", o[1], &s) ||
	    get_u64(fn, "bytes", o[2], &n) ||
	    get_ll(fn, "pe", o[3], INT32_MIN, INT32_MAX, &pe) ||
	    need_init(fn) || check_pe(fn, pe, 1))
		return NULL;
	int put = k == PUT || k == PUT_NBI;
	if (check_sym(fn, put ? "dest" : "source", put ? d : s, n) ||
	    check_local(fn, put ? "source" : "dest", put ? s : d, n, !put))
		return NULL;
	void *dp = (void *)(uintptr_t)d;
	const void *sp = (const void *)(uintptr_t)s;
	PyThreadState *ts = n >= NOGIL_BYTES ? PyEval_SaveThread() : NULL;
	switch (k) {
	case PUT: shmem_putmem(dp, sp, n, (int)pe); break;
	case GET: shmem_getmem(dp, sp, n, (int)pe); break;
	case PUT_NBI: shmem_putmem_nbi(dp, sp, n, (int)pe); break;
	case GET_NBI: shmem_getmem_nbi(dp, sp, n, (int)pe); break;
	}
	if (ts)
		PyEval_RestoreThread(ts);
	Py_RETURN_NONE;
}

PyDoc_STRVAR(putmem_doc,
"aclshmem_putmem($module, dest, source, bytes, pe)\n--\n\n"
"aclshmem_putmem(dest: int, source: int, bytes: int, pe: int) -> None\n\n"
"Blocking put: copy bytes from local source to the symmetric dest on PE "
"pe. source may be reused on return.");
PyDoc_STRVAR(getmem_doc,
"aclshmem_getmem($module, dest, source, bytes, pe)\n--\n\n"
"aclshmem_getmem(dest: int, source: int, bytes: int, pe: int) -> None\n\n"
"Blocking get: copy bytes from the symmetric source on PE pe to local "
"dest.");
PyDoc_STRVAR(putmem_nbi_doc,
"aclshmem_putmem_nbi($module, dest, source, bytes, pe)\n--\n\n"
"aclshmem_putmem_nbi(dest: int, source: int, bytes: int, pe: int) -> "
"None\n\n"
"Non-blocking put: may complete asynchronously; call aclshmem_quiet() "
"before reusing source or relying on remote visibility.");
PyDoc_STRVAR(getmem_nbi_doc,
"aclshmem_getmem_nbi($module, dest, source, bytes, pe)\n--\n\n"
"aclshmem_getmem_nbi(dest: int, source: int, bytes: int, pe: int) -> "
"None\n\n"
"Non-blocking get: dest holds the data after aclshmem_quiet().");

static PyObject *
py_putmem(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *kw)
{
	return rma("aclshmem_putmem", PUT, a, n, kw);
}

static PyObject *
py_getmem(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *kw)
{
	return rma("aclshmem_getmem", GET, a, n, kw);
}

static PyObject *
py_putmem_nbi(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *kw)
{
	return rma("aclshmem_putmem_nbi", PUT_NBI, a, n, kw);
}

static PyObject *
py_getmem_nbi(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *kw)
{
	return rma("aclshmem_getmem_nbi", GET_NBI, a, n, kw);
}

static PyObject *
put_signal(const char *fn, int nbi, PyObject *const *args, Py_ssize_t nargs,
	   PyObject *kwn)
{
	static const char *const names[] = { "dest", "source", "nbytes",
					     "sig_addr", "signal", "sig_op",
					     "pe" };
	PyObject *o[7];
	uint64_t d, s, n, sig, val;
	long long op, pe;
	if (parse(fn, args, nargs, kwn, names, 7, 7, o) ||
	    get_u64(fn, "dest", o[0], &d) || get_u64(fn, "source", o[1], &s) ||
	    get_u64(fn, "nbytes", o[2], &n) ||
	    get_u64(fn, "sig_addr", o[3], &sig) ||
	    get_u64(fn, "signal", o[4], &val) ||
	    get_ll(fn, "sig_op", o[5], INT32_MIN, INT32_MAX, &op) ||
	    get_ll(fn, "pe", o[6], INT32_MIN, INT32_MAX, &pe))
		return NULL;
	if (op != SHMEM_SIGNAL_SET && op != SHMEM_SIGNAL_ADD)
		return PyErr_Format(AclshmemInvalid, "%s: sig_op %lld is not "
				    "ACLSHMEM_SIGNAL_SET or ACLSHMEM_SIGNAL_ADD",
				    fn, op);
	if (sig & 7)
		return PyErr_Format(AclshmemInvalid, "%s: sig_addr %p is "
				    "not 8-byte aligned", fn,
				    (void *)(uintptr_t)sig);
	if (need_init(fn) || check_pe(fn, pe, 1) ||
	    check_sym(fn, "dest", d, n) || check_sym(fn, "sig_addr", sig, 8) ||
	    check_local(fn, "source", s, n, 0))
		return NULL;
	PyThreadState *ts = n >= NOGIL_BYTES ? PyEval_SaveThread() : NULL;
	if (nbi)
		shmem_putmem_signal_nbi((void *)(uintptr_t)d,
					(const void *)(uintptr_t)s, n,
					(uint64_t *)(uintptr_t)sig, val,
					(int)op, (int)pe);
	else
		shmem_putmem_signal((void *)(uintptr_t)d,
				    (const void *)(uintptr_t)s, n,
				    (uint64_t *)(uintptr_t)sig, val, (int)op,
				    (int)pe);
	if (ts)
		PyEval_RestoreThread(ts);
	Py_RETURN_NONE;
}

PyDoc_STRVAR(put_signal_doc,
"aclshmemx_putmem_signal($module, dest, source, nbytes, sig_addr, "
"signal, sig_op, pe)\n--\n\n"
"aclshmemx_putmem_signal(dest: int, source: int, nbytes: int, "
"sig_addr: int, signal: int, sig_op: int, pe: int) -> None\n\n"
"Blocking put of nbytes to dest on pe, then an atomic update of the "
"64-bit signal word sig_addr on pe: sig_op ACLSHMEM_SIGNAL_SET stores "
"signal, ACLSHMEM_SIGNAL_ADD adds it. The data is visible at pe whenever "
"the signal is.");
PyDoc_STRVAR(put_signal_nbi_doc,
"aclshmemx_putmem_signal_nbi($module, dest, source, nbytes, sig_addr, "
"signal, sig_op, pe)\n--\n\n"
"aclshmemx_putmem_signal_nbi(dest: int, source: int, nbytes: int, "
"sig_addr: int, signal: int, sig_op: int, pe: int) -> None\n\n"
"Non-blocking put with signal (source reusable after aclshmem_quiet()).");

static PyObject *
py_put_signal(PyObject *m, PyObject *const *a, Py_ssize_t n, PyObject *kw)
{
	return put_signal("aclshmemx_putmem_signal", 0, a, n, kw);
}

static PyObject *
py_put_signal_nbi(PyObject *m, PyObject *const *a, Py_ssize_t n,
		  PyObject *kw)
{
	return put_signal("aclshmemx_putmem_signal_nbi", 1, a, n, kw);
}

PyDoc_STRVAR(wait_doc,
"aclshmem_signal_wait_until($module, sig_addr, cmp, cmp_val)\n--\n\n"
"aclshmem_signal_wait_until(sig_addr: int, cmp: int, cmp_val: int) -> "
"None\n\n"
"Wait until the local signal word sig_addr compares to cmp_val as cmp "
"says (ACLSHMEM_CMP_EQ, NE, GT, GE, LT, LE).\n\n"
"Other Python threads run meanwhile; Ctrl-C raises KeyboardInterrupt. "
"RuntimeError when a PE of the job ended, or (in a job with PEs on other "
"nodes) nothing satisfied it within ZESHMEM_TIMEOUT seconds.");

static PyObject *
py_wait(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwn)
{
	static const char *const names[] = { "sig_addr", "cmp", "cmp_val" };
	const char *fn = "aclshmem_signal_wait_until";
	PyObject *o[3];
	uint64_t sig, val;
	long long cmp;
	if (parse(fn, args, nargs, kwn, names, 3, 3, o) ||
	    get_u64(fn, "sig_addr", o[0], &sig) ||
	    get_ll(fn, "cmp", o[1], INT32_MIN, INT32_MAX, &cmp) ||
	    get_u64(fn, "cmp_val", o[2], &val))
		return NULL;
	if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_GE)
		return PyErr_Format(AclshmemInvalid, "%s: cmp %lld is not an "
				    "ACLSHMEM_CMP_* value", fn, cmp);
	if (sig & 7)
		return PyErr_Format(AclshmemInvalid, "%s: sig_addr %p is "
				    "not 8-byte aligned", fn,
				    (void *)(uintptr_t)sig);
	if (need_init(fn) || check_sym(fn, "sig_addr", sig, 8))
		return NULL;
	uint64_t *sp = (uint64_t *)(uintptr_t)sig;
	/* The satisfied case without releasing the GIL. */
	int rc = shmemx_signal_wait_until_timeout(sp, (int)cmp, val, 0, NULL);
	/* The runtime's rule: ZESHMEM_TIMEOUT bounds a wait only when some PE
	 * is on another node (this PE cannot see it end); node PEs that end
	 * are seen at once, live ones may compute for longer. */
	long long waited_ms = 0, limit_ms = -1;
	void *hb = shmemx_heap_base();
	for (int pe = 0; rc == 1 && pe < shmem_n_pes(); pe++)
		if (!shmem_ptr(hb, pe))
			limit_ms = 1000ll * shmemx_timeout();
	while (rc == 1) {
		Py_BEGIN_ALLOW_THREADS
		rc = shmemx_signal_wait_until_timeout(sp, (int)cmp, val,
						      WAIT_SLICE_MS, NULL);
		Py_END_ALLOW_THREADS
		if (rc != 1)
			break;
		if (PyErr_CheckSignals())
			return NULL;
		waited_ms += WAIT_SLICE_MS;
		if (limit_ms >= 0 && waited_ms >= limit_ms)
			rc = -ETIMEDOUT;
	}
	if (rc < 0)
		return fail_rc(fn, rc);
	Py_RETURN_NONE;
}

PyDoc_STRVAR(barrier_doc,
"aclshmem_barrier_all($module)\n--\n\n"
"aclshmem_barrier_all() -> None\n\n"
"Barrier over all PEs: completes this PE's outstanding puts "
"(aclshmem_quiet), then waits until every PE arrived. RuntimeError when a "
"PE ended (or did not arrive within ZESHMEM_TIMEOUT).");

static PyObject *
py_barrier(PyObject *m, PyObject *unused)
{
	if (need_init("aclshmem_barrier_all"))
		return NULL;
	int rc;
	Py_BEGIN_ALLOW_THREADS
	rc = shmemx_barrier_all_status();
	Py_END_ALLOW_THREADS
	if (rc < 0)
		return fail_rc("aclshmem_barrier_all", rc);
	Py_RETURN_NONE;
}

PyDoc_STRVAR(quiet_doc,
"aclshmem_quiet($module)\n--\n\n"
"aclshmem_quiet() -> None\n\n"
"Complete every put, get and signal this PE issued (the non-blocking ones "
"included): afterwards their data is at the targets and sources may be "
"reused.");

static PyObject *
py_quiet(PyObject *m, PyObject *unused)
{
	if (need_init("aclshmem_quiet"))
		return NULL;
	shmem_quiet();
	Py_RETURN_NONE;
}

/* ---- teams ---------------------------------------------------------------- */

PyDoc_STRVAR(split_strided_doc,
"team_split_strided($module, start, stride, size, parent_team)\n--\n\n"
"team_split_strided(start: int, stride: int, size: int, parent_team) -> "
"Team | None\n\n"
"Create a team of size PEs of parent_team: start, start + stride, ... "
"(indices in the parent). Collective over the parent team. Returns the "
"new team, or None on a PE outside it.\n\n"
"Example: team_split_strided(start=0, stride=2, size=4, "
"parent_team=SHMEM_TEAM_WORLD) makes the team of PEs 0, 2, 4, 6.");

static PyObject *
py_split_strided(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
		 PyObject *kwn)
{
	static const char *const names[] = { "start", "stride", "size",
					     "parent_team" };
	const char *fn = "team_split_strided";
	PyObject *o[4];
	long long start, stride, size;
	shmem_team_t parent, t = SHMEM_TEAM_INVALID;
	if (parse(fn, args, nargs, kwn, names, 4, 4, o) ||
	    get_team(fn, "parent_team", o[3], &parent))
		return NULL;
	int n = shmem_team_n_pes(parent);
	if (get_ll(fn, "size", o[2], 1, n, &size) ||
	    get_ll(fn, "start", o[0], 0, n - 1, &start) ||
	    get_ll(fn, "stride", o[1], size == 1 ? INT32_MIN : 1, INT32_MAX,
		   &stride))
		return NULL;
	if (start + (size - 1) * stride >= n)
		return PyErr_Format(AclshmemInvalid, "%s: start %lld + (size %lld"
				    " - 1) * stride %lld is not a PE of the "
				    "parent team (%d PEs)", fn, start, size,
				    stride, n);
	int rc;
	Py_BEGIN_ALLOW_THREADS
	rc = shmem_team_split_strided(parent, (int)start, (int)stride,
				      (int)size, NULL, 0, &t);
	Py_END_ALLOW_THREADS
	if (rc)
		return PyErr_Format(AclshmemError, "%s: the split failed "
				    "(see stderr)", fn);
	return team_new(t);
}

PyDoc_STRVAR(split_2d_doc,
"team_split_2d($module, xdim, xaxis_teams, ydim, yaxis_teams)\n--\n\n"
"team_split_2d(xdim: int, xaxis_teams: list, ydim: int, yaxis_teams: "
"list) -> None\n\n"
"Split SHMEM_TEAM_WORLD into a 2D grid of xdim columns and ydim rows (ydim "
"= ceil(pe_count() / xdim)). This PE's X-axis team (the PEs of its row) is "
"appended to xaxis_teams and its Y-axis team (its column) to "
"yaxis_teams. Collective over all PEs.");

static PyObject *
py_split_2d(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
	    PyObject *kwn)
{
	static const char *const names[] = { "xdim", "xaxis_teams", "ydim",
					     "yaxis_teams" };
	const char *fn = "team_split_2d";
	PyObject *o[4];
	long long xdim, ydim;
	if (parse(fn, args, nargs, kwn, names, 4, 4, o))
		return NULL;
	if (!PyList_Check(o[1]) || !PyList_Check(o[3]))
		return PyErr_Format(PyExc_TypeError, "%s: xaxis_teams and "
				    "yaxis_teams must be lists", fn);
	if (get_ll(fn, "xdim", o[0], 1, INT32_MAX, &xdim) ||
	    get_ll(fn, "ydim", o[2], 1, INT32_MAX, &ydim) || need_init(fn))
		return NULL;
	long long n = shmem_n_pes(), xr = xdim < n ? xdim : n;
	long long want = (n + xr - 1) / xr;
	if (ydim != want)
		return PyErr_Format(AclshmemInvalid, "%s: ydim %lld does not "
				    "match: %lld PEs in rows of %lld make %lld",
				    fn, ydim, n, xr, want);
	shmem_team_t x = SHMEM_TEAM_INVALID, y = SHMEM_TEAM_INVALID;
	int rc;
	Py_BEGIN_ALLOW_THREADS
	rc = shmem_team_split_2d(SHMEM_TEAM_WORLD, (int)xdim, NULL, 0, &x,
				 NULL, 0, &y);
	Py_END_ALLOW_THREADS
	if (rc)
		return PyErr_Format(AclshmemError, "%s: the split failed "
				    "(see stderr)", fn);
	PyObject *xo = team_new(x), *yo = team_new(y);
	int bad = !xo || !yo || PyList_Append(o[1], xo) ||
		  PyList_Append(o[3], yo);
	Py_XDECREF(xo);
	Py_XDECREF(yo);
	if (bad)
		return NULL;
	Py_RETURN_NONE;
}

PyDoc_STRVAR(translate_doc,
"team_translate_pe($module, src_team, src_pe, dest_team)\n--\n\n"
"team_translate_pe(src_team, src_pe: int, dest_team) -> int\n\n"
"The number in dest_team of the PE that is src_pe in src_team, or -1 when "
"that PE is not in dest_team.");

static PyObject *
py_translate(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
	     PyObject *kwn)
{
	static const char *const names[] = { "src_team", "src_pe",
					     "dest_team" };
	const char *fn = "team_translate_pe";
	PyObject *o[3];
	shmem_team_t s, d;
	long long pe;
	if (parse(fn, args, nargs, kwn, names, 3, 3, o) ||
	    get_team(fn, "src_team", o[0], &s) ||
	    get_team(fn, "dest_team", o[2], &d) ||
	    get_ll(fn, "src_pe", o[1], 0, shmem_team_n_pes(s) - 1, &pe))
		return NULL;
	return PyLong_FromLong(shmem_team_translate_pe(s, (int)pe, d));
}

PyDoc_STRVAR(team_my_pe_doc,
"team_my_pe($module, team, /)\n--\n\n"
"team_my_pe(team) -> int\n\nThe calling PE's number within team.");

static PyObject *
py_team_my_pe(PyObject *m, PyObject *team)
{
	shmem_team_t t;
	if (get_team("team_my_pe", "team", team, &t))
		return NULL;
	return PyLong_FromLong(shmem_team_my_pe(t));
}

PyDoc_STRVAR(team_n_pes_doc,
"team_n_pes($module, team, /)\n--\n\n"
"team_n_pes(team) -> int\n\nThe number of PEs in team.");

static PyObject *
py_team_n_pes(PyObject *m, PyObject *team)
{
	shmem_team_t t;
	if (get_team("team_n_pes", "team", team, &t))
		return NULL;
	return PyLong_FromLong(shmem_team_n_pes(t));
}

PyDoc_STRVAR(team_get_config_doc,
"_team_get_config($module, team, /)\n--\n\n"
"The num_contexts of team's configuration (the package's "
"aclshmem_team_get_config makes the TeamConfig).");

static PyObject *
py_team_get_config(PyObject *m, PyObject *team)
{
	const char *fn = "aclshmem_team_get_config";
	shmem_team_t t;
	if (need_init(fn) || get_team(fn, "team", team, &t))
		return NULL;
	shmem_team_config_t c = { 0 };
	int rc = shmem_team_get_config(t, SHMEM_TEAM_NUM_CONTEXTS, &c);
	if (rc)
		return PyErr_Format(AclshmemError, "%s: team %R: error %d", fn,
				    team, rc);
	return PyLong_FromLong(c.num_contexts);
}

PyDoc_STRVAR(init_state_doc,
"_init_state($module)\n--\n\n"
"2 while the runtime is initialized, else 0 (aclshmemx_init_status).");

static PyObject *
py_init_state(PyObject *m, PyObject *unused)
{
	return PyLong_FromLong(shmem_my_pe() >= 0 ? 2 : 0);
}

PyDoc_STRVAR(team_destroy_doc,
"team_destroy($module, team, /)\n--\n\n"
"team_destroy(team) -> None\n\n"
"Destroy a team and release its resources; all its PEs call this "
"collectively. SHMEM_TEAM_WORLD cannot be destroyed (ValueError).");

static PyObject *
py_team_destroy(PyObject *m, PyObject *team)
{
	const char *fn = "team_destroy";
	shmem_team_t t;
	if (get_team(fn, "team", team, &t))
		return NULL;
	TeamObject *to = (TeamObject *)team;
	if (to->world)
		return PyErr_Format(AclshmemInvalid, "%s: SHMEM_TEAM_WORLD is "
				    "predefined and cannot be destroyed", fn);
	to->destroyed = 1;
	Py_BEGIN_ALLOW_THREADS
	shmem_team_destroy(t);
	Py_END_ALLOW_THREADS
	Py_RETURN_NONE;
}

/* ---- configuration and info ---------------------------------------------- */

PyDoc_STRVAR(version_doc,
"aclshmem_info_get_version($module)\n--\n\n"
"aclshmem_info_get_version() -> str\n\n"
"The library's version: the OpenSHMEM version it implements, "
"\"major.minor\".");

static PyObject *
py_version(PyObject *m, PyObject *unused)
{
	int major = 0, minor = 0;
	shmem_info_get_version(&major, &minor);
	return PyUnicode_FromFormat("%d.%d", major, minor);
}

PyDoc_STRVAR(name_doc,
"aclshmem_info_get_name($module)\n--\n\n"
"aclshmem_info_get_name() -> str\n\nThe library's name (vendor string).");

static PyObject *
py_name(PyObject *m, PyObject *unused)
{
	char name[SHMEM_MAX_NAME_LEN + 1] = { 0 };
	shmem_info_get_name(name);
	return PyUnicode_FromString(name);
}

PyDoc_STRVAR(log_doc,
"set_log_level($module, level, /)\n--\n\n"
"set_log_level(level: int) -> None\n\n"
"Set the library's logging threshold with a Python logging level: "
"logging.DEBUG, INFO, WARNING, ERROR, CRITICAL (CRITICAL and above: "
"silent; below DEBUG: trace). Lines go to stderr (or ZEMEM_LOG_FILE).");

static PyObject *
py_set_log_level(PyObject *m, PyObject *arg)
{
	long long l;
	if (PyUnicode_Check(arg)) {
		/* logging's names, any case (WARN and FATAL too) */
		static const struct { const char *n; int l; } names[] = {
			{ "NOTSET", 0 }, { "DEBUG", 10 }, { "INFO", 20 },
			{ "WARNING", 30 }, { "WARN", 30 }, { "ERROR", 40 },
			{ "CRITICAL", 50 }, { "FATAL", 50 },
		};
		PyObject *up = PyObject_CallMethod(arg, "upper", NULL);
		if (!up)
			return NULL;
		l = -1;
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!PyUnicode_CompareWithASCIIString(up, names[i].n))
				l = names[i].l;
		Py_DECREF(up);
		if (l < 0)
			return PyErr_Format(AclshmemInvalid, "set_log_level: "
					    "level %R is not a logging level "
					    "name (DEBUG, INFO, WARNING, ERROR, "
					    "CRITICAL)", arg);
	} else if (get_ll("set_log_level", "level", arg, 0, INT32_MAX, &l)) {
		return NULL;
	}
	int z = l == 0 ? 5 : l < 10 ? 5 : l < 20 ? 4 : l < 30 ? 3 :
		l < 40 ? 2 : l < 50 ? 1 : 0;
	if (shmemx_set_log_level(z))
		return PyErr_Format(AclshmemError, "set_log_level: the "
				    "library refused level %d", z);
	Py_RETURN_NONE;
}

PyDoc_STRVAR(global_exit_doc,
"aclshmem_global_exit($module, status, /)\n--\n\n"
"aclshmem_global_exit(status: int) -> None\n\n"
"End every PE of the job with exit status status (does not return). For "
"coordinated error handling; sys.stdout and sys.stderr are flushed "
"first.");

static PyObject *
py_global_exit(PyObject *m, PyObject *arg)
{
	long long st;
	if (get_ll("aclshmem_global_exit", "status", arg, INT32_MIN,
		   INT32_MAX, &st))
		return NULL;
	const char *streams[] = { "stdout", "stderr" };
	for (int i = 0; i < 2; i++) {
		PyObject *f = PySys_GetObject(streams[i]);
		if (f && f != Py_None) {
			PyObject *r = PyObject_CallMethod(f, "flush", NULL);
			Py_XDECREF(r);
			PyErr_Clear();
		}
	}
	Py_BEGIN_ALLOW_THREADS
	shmem_global_exit((int)st);
	Py_END_ALLOW_THREADS
	Py_RETURN_NONE;
}

/* ---- arrays and tensors ------------------------------------------------- */

static PyObject *
import_opt(const char *mod, const char *pkg, const char *fn)
{
	PyObject *m = PyImport_ImportModule(mod);
	if (m)
		return m;
	PyObject *t, *v, *tb;
	PyErr_Fetch(&t, &v, &tb);
	PyErr_Format(PyExc_ImportError, "%s needs %s (Debian: apt install %s),"
		     " which cannot be imported: %S", fn, mod, pkg,
		     v ? v : Py_None);
	Py_XDECREF(t);
	Py_XDECREF(v);
	Py_XDECREF(tb);
	return NULL;
}

/* shape (an int or a sequence of ints >= 0) -> a tuple and the element
 * count. */
static PyObject *
get_shape(const char *fn, PyObject *shape, size_t *count)
{
	PyObject *t;
	if (PyLong_Check(shape))
		t = PyTuple_Pack(1, shape);
	else if (PySequence_Check(shape) && !PyUnicode_Check(shape) &&
		 !PyBytes_Check(shape))
		t = PySequence_Tuple(shape);
	else
		return PyErr_Format(PyExc_TypeError, "%s: shape must be a tuple "
				    "of ints, not %.100s", fn,
				    Py_TYPE(shape)->tp_name);
	if (!t)
		return NULL;
	size_t c = 1;
	for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(t); i++) {
		size_t d;
		if (get_size(fn, "a shape dimension", PyTuple_GET_ITEM(t, i),
			     &d) ||
		    __builtin_mul_overflow(c, d, &c)) {
			if (!PyErr_Occurred())
				PyErr_Format(AclshmemInvalid, "%s: shape %S has "
					     "too many elements", fn, t);
			Py_DECREF(t);
			return NULL;
		}
	}
	*count = c;
	return t;
}

/* Allocates the symmetric memory of count elements of itemsize bytes and
 * returns a SymmetricBuffer over it. */
static PyObject *
alloc_buffer(const char *fn, size_t count, size_t itemsize)
{
	size_t n;
	if (count == 0)
		return PyErr_Format(AclshmemInvalid, "%s: shape has no "
				    "elements", fn);
	if (__builtin_mul_overflow(count, itemsize, &n) ||
	    n > (size_t)PY_SSIZE_T_MAX)
		return PyErr_Format(AclshmemInvalid, "%s: %zu elements of %zu "
				    "bytes are too many", fn, count, itemsize);
	if (need_init(fn))
		return NULL;
	void *p = do_malloc(n);
	if (!p)
		return PyErr_Format(AclshmemError, "%s: the symmetric heap "
				    "has no room for %zu bytes", fn, n);
	PyObject *b = symbuf_new((uint64_t)(uintptr_t)p, n);
	if (!b) {
		Py_BEGIN_ALLOW_THREADS
		shmem_free(p);
		Py_END_ALLOW_THREADS
	}
	return b;
}

/* Remembers obj as the kind made over ptr; on failure frees it. */
static PyObject *
remember(const char *kind, PyObject *obj, uint64_t ptr)
{
	PyObject *k = PyLong_FromUnsignedLongLong(ptr);
	PyObject *ref = PyWeakref_NewRef(obj, NULL);
	PyObject *v = ref ? Py_BuildValue("(sO)", kind, ref) : NULL;
	int bad = !k || !v || PyDict_SetItem(registry, k, v);
	Py_XDECREF(k);
	Py_XDECREF(ref);
	Py_XDECREF(v);
	if (bad) {
		Py_DECREF(obj);
		Py_BEGIN_ALLOW_THREADS
		shmem_free((void *)(uintptr_t)ptr);
		Py_END_ALLOW_THREADS
		return NULL;
	}
	return obj;
}

/* Frees the allocation made for obj by the create call of kind. */
static PyObject *
forget(const char *fn, const char *kind, PyObject *obj, uint64_t ptr)
{
	PyObject *k = PyLong_FromUnsignedLongLong(ptr);
	if (!k)
		return NULL;
	PyObject *v = PyDict_GetItemWithError(registry, k);
	if (!v) {
		Py_DECREF(k);
		if (PyErr_Occurred())
			return NULL;
		return PyErr_Format(AclshmemInvalid, "%s: this %s was not made "
				    "by the matching create call, or was freed "
				    "already", fn, kind);
	}
	PyObject *owner = PyWeakref_GetObject(PyTuple_GET_ITEM(v, 1));
	if (owner != obj ||
	    strcmp(PyUnicode_AsUTF8(PyTuple_GET_ITEM(v, 0)), kind)) {
		Py_DECREF(k);
		return PyErr_Format(AclshmemInvalid, "%s: this %s shares "
				    "symmetric memory with one made by a create "
				    "call but is not that object (a view?); "
				    "free the original", fn, kind);
	}
	int rc = PyDict_DelItem(registry, k);
	Py_DECREF(k);
	if (rc)
		return NULL;
	detach(kind, obj);
	Py_BEGIN_ALLOW_THREADS
	shmem_free((void *)(uintptr_t)ptr);
	Py_END_ALLOW_THREADS
	Py_RETURN_NONE;
}

PyDoc_STRVAR(create_tensor_doc,
"aclshmem_create_tensor($module, shape, dtype=None, device_id=0)\n"
"--\n\n"
"aclshmem_create_tensor(shape: tuple, dtype: torch.dtype = torch.float32, "
"device_id: int = 0) -> torch.Tensor\n\n"
"Create a PyTorch tensor backed by symmetric memory.\n\n"
"The tensor's storage is a new symmetric allocation (collective: every PE "
"calls with the same shape and dtype): writing the tensor writes memory "
"the other PEs can get and put. dtype: any of torch's fixed-size types. "
"device_id: the Level Zero device of this PE's heap (the tensor is a host "
"tensor over it; another device raises ValueError). Free it with "
"aclshmem_free_tensor.");

static PyObject *
py_create_tensor(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
		 PyObject *kwn)
{
	static const char *const names[] = { "shape", "dtype", "device_id" };
	const char *fn = "aclshmem_create_tensor";
	PyObject *o[3], *torch, *dtype = NULL, *shape, *buf = NULL, *t = NULL;
	PyObject *result = NULL;
	long long dev = 0;
	size_t count;
	if (parse(fn, args, nargs, kwn, names, 1, 3, o))
		return NULL;
	if (!(torch = import_opt("torch", "python3-torch", fn)))
		return NULL;
	if (!(shape = get_shape(fn, o[0], &count)))
		goto out_torch;
	PyObject *dtype_type = PyObject_GetAttrString(torch, "dtype");
	if (!dtype_type)
		goto out_shape;
	if (o[1] && o[1] != Py_None) {
		int ok = PyObject_IsInstance(o[1], dtype_type);
		if (ok <= 0) {
			if (ok == 0)
				PyErr_Format(PyExc_TypeError, "%s: dtype must be "
					     "a torch.dtype, not %.100s", fn,
					     Py_TYPE(o[1])->tp_name);
			Py_DECREF(dtype_type);
			goto out_shape;
		}
		dtype = o[1];
		Py_INCREF(dtype);
	} else if (!(dtype = PyObject_GetAttrString(torch, "float32"))) {
		Py_DECREF(dtype_type);
		goto out_shape;
	}
	Py_DECREF(dtype_type);
	if (o[2] && get_ll(fn, "device_id", o[2], 0, INT32_MAX, &dev))
		goto out_dtype;
	if (need_init(fn))
		goto out_dtype;
	int mine = shmemx_device_index();
	if (mine >= 0 && dev != mine) {
		PyErr_Format(AclshmemInvalid, "%s: device_id %lld: this PE's "
			     "symmetric heap is on Level Zero device %d", fn,
			     dev, mine);
		goto out_dtype;
	}
	/* itemsize: torch.empty(0, dtype=dtype).element_size() */
	PyObject *empty = PyObject_GetAttrString(torch, "empty");
	PyObject *kw = empty ? Py_BuildValue("{sO}", "dtype", dtype) : NULL;
	PyObject *zero = kw ? Py_BuildValue("(i)", 0) : NULL;
	PyObject *e = zero ? PyObject_Call(empty, zero, kw) : NULL;
	PyObject *es = e ? PyObject_CallMethod(e, "element_size", NULL) : NULL;
	Py_XDECREF(empty);
	Py_XDECREF(kw);
	Py_XDECREF(zero);
	Py_XDECREF(e);
	if (!es)
		goto out_dtype;
	size_t itemsize = PyLong_AsSize_t(es);
	Py_DECREF(es);
	if (itemsize == (size_t)-1 && PyErr_Occurred())
		goto out_dtype;
	if (!(buf = alloc_buffer(fn, count, itemsize)))
		goto out_dtype;
	uint64_t ptr = ((SymBufObject *)buf)->ptr;
	PyObject *fb = PyObject_GetAttrString(torch, "frombuffer");
	kw = fb ? Py_BuildValue("{sOsn}", "dtype", dtype, "count",
				(Py_ssize_t)count) : NULL;
	PyObject *a = kw ? PyTuple_Pack(1, buf) : NULL;
	PyObject *flat = a ? PyObject_Call(fb, a, kw) : NULL;
	Py_XDECREF(fb);
	Py_XDECREF(kw);
	Py_XDECREF(a);
	if (flat) {
		/* resize_ to the shape (same bytes: the storage stays), not
		 * view: a view keeps flat as its _base, and then set_() at
		 * free would not let go of the memory (see SymmetricBuffer). */
		PyObject *nm = PyUnicode_FromString("resize_");
		t = nm ? PyObject_CallMethodOneArg(flat, nm, shape) : NULL;
		Py_XDECREF(nm);
		Py_DECREF(flat);
	}
	if (!t) {
		Py_BEGIN_ALLOW_THREADS
		shmem_free((void *)(uintptr_t)ptr);
		Py_END_ALLOW_THREADS
		goto out_buf;
	}
	result = remember("tensor", t, ptr);
out_buf:
	Py_DECREF(buf);
out_dtype:
	Py_XDECREF(dtype);
out_shape:
	Py_DECREF(shape);
out_torch:
	Py_DECREF(torch);
	return result;
}

/* The address of obj's first element (obj.data_ptr() for tensors,
 * obj.ctypes.data for arrays). */
static int
data_ptr(PyObject *obj, int tensor, uint64_t *p)
{
	PyObject *r;
	if (tensor) {
		r = PyObject_CallMethod(obj, "data_ptr", NULL);
	} else {
		PyObject *c = PyObject_GetAttrString(obj, "ctypes");
		r = c ? PyObject_GetAttrString(c, "data") : NULL;
		Py_XDECREF(c);
	}
	if (!r)
		return -1;
	*p = PyLong_AsUnsignedLongLong(r);
	Py_DECREF(r);
	return PyErr_Occurred() ? -1 : 0;
}

PyDoc_STRVAR(free_tensor_doc,
"aclshmem_free_tensor($module, tensor, /)\n--\n\n"
"aclshmem_free_tensor(tensor: torch.Tensor) -> None\n\n"
"Free the symmetric memory backing a tensor made by "
"aclshmem_create_tensor (collective). Refuses (ValueError) tensors it did "
"not make, views of them, and tensors freed already. The tensor becomes "
"empty (its memory is not its any more); views of it made before must not "
"be used.");

static int
is_instance_of(PyObject *obj, const char *mod, const char *cls)
{
	/* Only a module already imported can have made obj. */
	PyObject *modules = PyImport_GetModuleDict();
	PyObject *mm = PyDict_GetItemString(modules, mod);
	if (!mm || mm == Py_None)
		return 0;
	PyObject *c = PyObject_GetAttrString(mm, cls);
	if (!c)
		return -1;
	int r = PyObject_IsInstance(obj, c);
	Py_DECREF(c);
	return r;
}

static PyObject *
py_free_tensor(PyObject *m, PyObject *obj)
{
	const char *fn = "aclshmem_free_tensor";
	int r = is_instance_of(obj, "torch", "Tensor");
	if (r < 0)
		return NULL;
	if (!r)
		return PyErr_Format(PyExc_TypeError, "%s: tensor must be a "
				    "torch.Tensor, not %.100s", fn,
				    Py_TYPE(obj)->tp_name);
	uint64_t p;
	if (need_init(fn) || data_ptr(obj, 1, &p))
		return NULL;
	return forget(fn, "tensor", obj, p);
}

PyDoc_STRVAR(create_array_doc,
"aclshmemx_create_array($module, shape, dtype=None)\n--\n\n"
"aclshmemx_create_array(shape: tuple, dtype=numpy.float32) -> "
"numpy.ndarray\n\n"
"Create a numpy array whose memory is a new symmetric allocation (no "
"copy; collective, same shape and dtype on every PE). dtype: anything "
"numpy.dtype accepts. Free it with aclshmemx_free_array.");

static PyObject *
py_create_array(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
		PyObject *kwn)
{
	static const char *const names[] = { "shape", "dtype" };
	const char *fn = "aclshmemx_create_array";
	PyObject *o[2], *np, *shape, *dt = NULL, *buf = NULL, *arr = NULL;
	PyObject *result = NULL;
	size_t count;
	if (parse(fn, args, nargs, kwn, names, 1, 2, o))
		return NULL;
	if (!(np = import_opt("numpy", "python3-numpy", fn)))
		return NULL;
	if (!(shape = get_shape(fn, o[0], &count)))
		goto out_np;
	if (o[1] && o[1] != Py_None)
		dt = PyObject_CallMethod(np, "dtype", "O", o[1]);
	else
		dt = PyObject_CallMethod(np, "dtype", "s", "float32");
	if (!dt) {
		if (PyErr_ExceptionMatches(PyExc_TypeError)) {
			PyErr_Clear();
			PyErr_Format(PyExc_TypeError, "%s: dtype %R is not a "
				     "numpy dtype", fn, o[1]);
		}
		goto out_shape;
	}
	PyObject *isz = PyObject_GetAttrString(dt, "itemsize");
	size_t itemsize = isz ? PyLong_AsSize_t(isz) : 0;
	Py_XDECREF(isz);
	if (PyErr_Occurred())
		goto out_dt;
	if (itemsize == 0) {
		PyErr_Format(AclshmemInvalid, "%s: dtype %R has no fixed size",
			     fn, dt);
		goto out_dt;
	}
	if (!(buf = alloc_buffer(fn, count, itemsize)))
		goto out_dt;
	uint64_t ptr = ((SymBufObject *)buf)->ptr;
	PyObject *flat = PyObject_CallMethod(np, "frombuffer", "OOn", buf, dt,
					     (Py_ssize_t)count);
	if (flat) {
		PyObject *nm = PyUnicode_FromString("reshape");
		arr = nm ? PyObject_CallMethodOneArg(flat, nm, shape) : NULL;
		Py_XDECREF(nm);
		Py_DECREF(flat);
	}
	if (!arr) {
		Py_BEGIN_ALLOW_THREADS
		shmem_free((void *)(uintptr_t)ptr);
		Py_END_ALLOW_THREADS
		goto out_buf;
	}
	result = remember("array", arr, ptr);
out_buf:
	Py_DECREF(buf);
out_dt:
	Py_DECREF(dt);
out_shape:
	Py_DECREF(shape);
out_np:
	Py_DECREF(np);
	return result;
}

PyDoc_STRVAR(free_array_doc,
"aclshmemx_free_array($module, array, /)\n--\n\n"
"aclshmemx_free_array(array: numpy.ndarray) -> None\n\n"
"Free the symmetric memory of an array made by aclshmemx_create_array "
"(collective); refuses other arrays, views and second frees. The array "
"becomes read-only (writes raise); what it reads is no longer its own.");

static PyObject *
py_free_array(PyObject *m, PyObject *obj)
{
	const char *fn = "aclshmemx_free_array";
	int r = is_instance_of(obj, "numpy", "ndarray");
	if (r < 0)
		return NULL;
	if (!r)
		return PyErr_Format(PyExc_TypeError, "%s: array must be a "
				    "numpy.ndarray, not %.100s", fn,
				    Py_TYPE(obj)->tp_name);
	uint64_t p;
	if (need_init(fn) || data_ptr(obj, 0, &p))
		return NULL;
	return forget(fn, "array", obj, p);
}

PyDoc_STRVAR(buffer_doc,
"aclshmemx_buffer($module, ptr, nbytes)\n--\n\n"
"aclshmemx_buffer(ptr: int, nbytes: int) -> SymmetricBuffer\n\n"
"A buffer-protocol object over nbytes of this PE's symmetric heap at ptr "
"(memoryview(b), numpy.frombuffer(b), torch.frombuffer(b): no copy). It "
"does not own the memory.");

static PyObject *
py_buffer(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
	  PyObject *kwn)
{
	static const char *const names[] = { "ptr", "nbytes" };
	const char *fn = "aclshmemx_buffer";
	PyObject *o[2];
	uint64_t p, n;
	if (parse(fn, args, nargs, kwn, names, 2, 2, o) ||
	    get_u64(fn, "ptr", o[0], &p) || get_u64(fn, "nbytes", o[1], &n) ||
	    need_init(fn) || check_sym(fn, "ptr", p, n))
		return NULL;
	if (n > (uint64_t)PY_SSIZE_T_MAX)
		return PyErr_Format(AclshmemInvalid, "%s: nbytes too large", fn);
	return symbuf_new(p, n);
}

/* ---- the module ------------------------------------------------------------ */

#define FAST (METH_FASTCALL | METH_KEYWORDS)
#define F(name, fn, flags, doc) \
	{ name, (PyCFunction)(void (*)(void))fn, flags, doc }

static PyMethodDef methods[] = {
	F("_aclshmem_init", py_init, METH_O, init_doc),
	F("aclshmem_finalize", py_finalize, METH_NOARGS, finalize_doc),
	F("_aclshmem_init_using_unique_id", py_init_uid, FAST, init_uid_doc),
	F("aclshmem_get_unique_id", py_get_uid, METH_NOARGS, uid_doc),
	F("aclshmem_malloc", py_malloc, METH_O, malloc_doc),
	F("aclshmem_calloc", py_calloc, FAST, calloc_doc),
	F("aclshmem_align", py_align, FAST, align_doc),
	F("aclshmem_free", py_free, METH_O, free_doc),
	F("aclshmem_ptr", py_ptr, FAST, ptr_doc),
	F("aclshmemx_get_heap_base", py_heap_base, METH_NOARGS, heap_base_doc),
	F("my_pe", py_my_pe, METH_NOARGS, my_pe_doc),
	F("pe_count", py_pe_count, METH_NOARGS, pe_count_doc),
	F("aclshmem_putmem", py_putmem, FAST, putmem_doc),
	F("aclshmem_getmem", py_getmem, FAST, getmem_doc),
	F("aclshmem_putmem_nbi", py_putmem_nbi, FAST, putmem_nbi_doc),
	F("aclshmem_getmem_nbi", py_getmem_nbi, FAST, getmem_nbi_doc),
	F("aclshmemx_putmem_signal", py_put_signal, FAST, put_signal_doc),
	F("aclshmemx_putmem_signal_nbi", py_put_signal_nbi, FAST,
	  put_signal_nbi_doc),
	F("aclshmem_signal_wait_until", py_wait, FAST, wait_doc),
	F("aclshmem_barrier_all", py_barrier, METH_NOARGS, barrier_doc),
	F("aclshmem_quiet", py_quiet, METH_NOARGS, quiet_doc),
	F("team_split_strided", py_split_strided, FAST, split_strided_doc),
	F("team_split_2d", py_split_2d, FAST, split_2d_doc),
	F("team_translate_pe", py_translate, FAST, translate_doc),
	F("team_my_pe", py_team_my_pe, METH_O, team_my_pe_doc),
	F("team_n_pes", py_team_n_pes, METH_O, team_n_pes_doc),
	F("_team_get_config", py_team_get_config, METH_O,
	  team_get_config_doc),
	F("_init_state", py_init_state, METH_NOARGS, init_state_doc),
	F("team_destroy", py_team_destroy, METH_O, team_destroy_doc),
	F("aclshmem_info_get_version", py_version, METH_NOARGS, version_doc),
	F("aclshmem_info_get_name", py_name, METH_NOARGS, name_doc),
	F("set_log_level", py_set_log_level, METH_O, log_doc),
	F("aclshmem_global_exit", py_global_exit, METH_O, global_exit_doc),
	F("aclshmem_create_tensor", py_create_tensor, FAST, create_tensor_doc),
	F("aclshmem_free_tensor", py_free_tensor, METH_O, free_tensor_doc),
	F("aclshmemx_create_array", py_create_array, FAST, create_array_doc),
	F("aclshmemx_free_array", py_free_array, METH_O, free_array_doc),
	F("aclshmemx_buffer", py_buffer, FAST, buffer_doc),
	{ NULL },
};

PyDoc_STRVAR(module_doc,
"ACLSHMEM's host API on zemem's libzeshmem (OpenSHMEM-style symmetric "
"memory over Level Zero).\n\n"
"Initialize with aclshmem_init(InitAttr()) (or aclshmem_init_using_"
"unique_id), allocate symmetric memory (aclshmem_malloc, or "
"aclshmem_create_tensor / aclshmemx_create_array), move data with "
"aclshmem_putmem / getmem / aclshmemx_putmem_signal, synchronise with "
"aclshmem_barrier_all / aclshmem_quiet / aclshmem_signal_wait_until, and "
"end with aclshmem_finalize(). Pointers are ints. Start the PEs with "
"zeshrun -n N python3 prog.py, or mpirun.\n\n"
"Bad arguments raise ValueError or TypeError; runtime failures "
"RuntimeError naming the call.");

static struct PyModuleDef moddef = {
	PyModuleDef_HEAD_INIT,
	.m_name = "shmem._shmem",
	.m_doc = module_doc,
	.m_size = -1,
	.m_methods = methods,
};

static int
add_int(PyObject *m, const char *name, long v)
{
	return PyModule_AddIntConstant(m, name, v);
}

PyMODINIT_FUNC PyInit__shmem(void);

PyMODINIT_FUNC
PyInit__shmem(void)
{
	PyObject *m = PyModule_Create(&moddef);
	if (!m)
		return NULL;
	if (PyType_Ready(&InitAttrType) || PyType_Ready(&TeamType) ||
	    PyType_Ready(&SymBufType))
		goto err;
	if (PyModule_AddObjectRef(m, "InitAttr", (PyObject *)&InitAttrType) ||
	    PyModule_AddObjectRef(m, "Team", (PyObject *)&TeamType) ||
	    PyModule_AddObjectRef(m, "SymmetricBuffer",
				  (PyObject *)&SymBufType))
		goto err;
	AclshmemError = PyErr_NewExceptionWithDoc(
		"shmem.AclshmemError", "The runtime failed a call (a "
		"RuntimeError; the message names the call).",
		PyExc_RuntimeError, NULL);
	AclshmemInvalid = PyErr_NewExceptionWithDoc(
		"shmem.AclshmemInvalid", "A bad argument (a ValueError; the "
		"message names the call and shows the value).",
		PyExc_ValueError, NULL);
	if (!AclshmemError || !AclshmemInvalid ||
	    PyModule_AddObjectRef(m, "AclshmemError", AclshmemError) ||
	    PyModule_AddObjectRef(m, "AclshmemInvalid", AclshmemInvalid))
		goto err;
	if (PyModule_AddStringConstant(m, "__version__",
				       ZEMEM_VERSION_STRING))
		goto err;
	if (!(live_ptrs = PySet_New(NULL)))
		goto err;
	if (!(registry = PyDict_New()))
		goto err;
	/* OpEngineType: an IntEnum of the copy paths. */
	PyObject *en = PyImport_ImportModule("enum");
	PyObject *ie = en ? PyObject_GetAttrString(en, "IntEnum") : NULL;
	Py_XDECREF(en);
	if (!ie)
		goto err;
	op_engine_enum = PyObject_CallFunction(ie, "s[(si)(si)(si)]",
					       "OpEngineType",
					       "AUTO", SHMEMX_COPY_AUTO,
					       "DIRECT", SHMEMX_COPY_DIRECT,
					       "ENGINE", SHMEMX_COPY_ENGINE);
	Py_DECREF(ie);
	if (!op_engine_enum)
		goto err;
	PyObject *mn = PyUnicode_FromString("shmem");
	PyObject_SetAttrString(op_engine_enum, "__module__", mn);
	Py_XDECREF(mn);
	PyObject *d = PyUnicode_FromString(
		"Enum for operation engine types: how node-local data moves. "
		"AUTO: host loads and stores when the heap is host-accessible, "
		"else the copy engine; DIRECT: host loads and stores; ENGINE: "
		"the device's copy engine (Level Zero immediate command "
		"lists).");
	PyObject_SetAttrString(op_engine_enum, "__doc__", d);
	Py_XDECREF(d);
	if (PyModule_AddObjectRef(m, "OpEngineType", op_engine_enum))
		goto err;
	/* SignalOp and CmpOp: the ACLSHMEM_SIGNAL_* and ACLSHMEM_CMP_*
	 * values as IntEnums (the calls take either). */
	en = PyImport_ImportModule("enum");
	ie = en ? PyObject_GetAttrString(en, "IntEnum") : NULL;
	Py_XDECREF(en);
	if (!ie)
		goto err;
	PyObject *sop = PyObject_CallFunction(ie, "s[(si)(si)]", "SignalOp",
					      "SET", SHMEM_SIGNAL_SET,
					      "ADD", SHMEM_SIGNAL_ADD);
	PyObject *cop = PyObject_CallFunction(
		ie, "s[(si)(si)(si)(si)(si)(si)]", "CmpOp",
		"EQ", SHMEM_CMP_EQ, "NE", SHMEM_CMP_NE, "GT", SHMEM_CMP_GT,
		"GE", SHMEM_CMP_GE, "LT", SHMEM_CMP_LT, "LE", SHMEM_CMP_LE);
	Py_DECREF(ie);
	struct { PyObject *e; const char *doc; } en2[] = {
		{ sop, "How a put with signal updates the signal word: SET "
		       "or ADD (ACLSHMEM_SIGNAL_SET / ADD)." },
		{ cop, "A wait's comparison: EQ, NE, GT, GE, LT, LE "
		       "(ACLSHMEM_CMP_*)." },
	};
	int bad = !sop || !cop;
	for (int i = 0; i < 2 && !bad; i++) {
		PyObject *s_mn = PyUnicode_FromString("shmem");
		PyObject *s_d = PyUnicode_FromString(en2[i].doc);
		bad = !s_mn || !s_d ||
		      PyObject_SetAttrString(en2[i].e, "__module__", s_mn) ||
		      PyObject_SetAttrString(en2[i].e, "__doc__", s_d);
		Py_XDECREF(s_mn);
		Py_XDECREF(s_d);
	}
	if (bad || PyModule_AddObject(m, "SignalOp", sop)) {
		Py_XDECREF(sop);
		Py_XDECREF(cop);
		goto err;
	}
	if (PyModule_AddObject(m, "CmpOp", cop)) {
		Py_DECREF(cop);
		goto err;
	}
	TeamObject *w = PyObject_New(TeamObject, &TeamType);
	if (!w)
		goto err;
	w->team = SHMEM_TEAM_INVALID;
	w->world = 1;
	w->destroyed = 0;
	w->gen = 0;
	team_world_obj = (PyObject *)w;
	if (PyModule_AddObjectRef(m, "SHMEM_TEAM_WORLD", team_world_obj))
		goto err;
	if (add_int(m, "ACLSHMEM_CMP_EQ", SHMEM_CMP_EQ) ||
	    add_int(m, "ACLSHMEM_CMP_NE", SHMEM_CMP_NE) ||
	    add_int(m, "ACLSHMEM_CMP_GT", SHMEM_CMP_GT) ||
	    add_int(m, "ACLSHMEM_CMP_GE", SHMEM_CMP_GE) ||
	    add_int(m, "ACLSHMEM_CMP_LT", SHMEM_CMP_LT) ||
	    add_int(m, "ACLSHMEM_CMP_LE", SHMEM_CMP_LE) ||
	    add_int(m, "ACLSHMEM_SIGNAL_SET", SHMEM_SIGNAL_SET) ||
	    add_int(m, "ACLSHMEM_SIGNAL_ADD", SHMEM_SIGNAL_ADD))
		goto err;
	return m;
err:
	Py_DECREF(m);
	return NULL;
}
