// SPDX-License-Identifier: MIT
/*
 * _shmem_bench.c: the C side of python/bench_shmem.py. It times the same
 * libzeshmem calls the Python module makes, in a C loop inside the same
 * process (so both share one runtime, one heap and one job): the baseline
 * the Python figures are compared with. Built in the build tree only (not
 * installed).
 *
 *   put_quiet(dest, source, nbytes, pe, iters) -> seconds per iteration
 *       of shmem_putmem(dest, source, nbytes, pe) + shmem_quiet()
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <time.h>

#include <shmem.h>
#include <shmemx.h>

static double
now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static PyObject *
put_quiet(PyObject *m, PyObject *args)
{
	unsigned long long d, s, n;
	int pe;
	long iters;
	if (!PyArg_ParseTuple(args, "KKKil", &d, &s, &n, &pe, &iters))
		return NULL;
	uintptr_t base = (uintptr_t)shmemx_heap_base();
	if (shmem_my_pe() < 0 || pe < 0 || pe >= shmem_n_pes() ||
	    d < base || d + n > base + shmemx_heap_size() || !s || iters < 1)
		return PyErr_Format(PyExc_ValueError, "put_quiet: bad arguments");
	double t0 = 0, t1 = 0;
	Py_BEGIN_ALLOW_THREADS
	t0 = now_s();
	for (long i = 0; i < iters; i++) {
		shmem_putmem((void *)(uintptr_t)d, (const void *)(uintptr_t)s,
			     (size_t)n, pe);
		shmem_quiet();
	}
	t1 = now_s();
	Py_END_ALLOW_THREADS
	return PyFloat_FromDouble((t1 - t0) / (double)iters);
}

static PyMethodDef methods[] = {
	{ "put_quiet", put_quiet, METH_VARARGS,
	  "put_quiet(dest, source, nbytes, pe, iters) -> seconds per "
	  "shmem_putmem + shmem_quiet, timed in C" },
	{ NULL },
};

static struct PyModuleDef moddef = {
	PyModuleDef_HEAD_INIT,
	.m_name = "_shmem_bench",
	.m_doc = "C baselines for bench_shmem.py (libzeshmem calls in C loops)",
	.m_size = -1,
	.m_methods = methods,
};

PyMODINIT_FUNC PyInit__shmem_bench(void);

PyMODINIT_FUNC
PyInit__shmem_bench(void)
{
	return PyModule_Create(&moddef);
}
