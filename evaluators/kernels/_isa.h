/* A kernel module's instruction-set paths (docs/kernels.md): which it runs on this CPU
 * (``isa_runs``, set by its module init), which it takes (``isa``: the fastest it runs,
 * unless ``set_isa`` forced another), and the three functions that show and set them.
 * Written once; each module that includes it has its own state. */
#ifndef HANDEVAL_KERNEL_ISA_H
#define HANDEVAL_KERNEL_ISA_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

enum { ISA_AVX2, ISA_SCALAR, ISA_COUNT };
static const char *const ISA_NAMES[ISA_COUNT] = {"avx2", "scalar"};
static int isa = ISA_SCALAR, isa_runs[ISA_COUNT] = {[ISA_SCALAR] = 1};

/* The fastest path this CPU runs, once ``isa_runs`` is set: ISA_SCALAR always runs. */
static void isa_start(void)
{
    for (isa = 0; !isa_runs[isa]; isa++)
        ;
}

PyDoc_STRVAR(isa_doc,
"isa() -> str\n\n"
"The instruction-set path this module's batch kernels take: 'avx2' (eight hands a step\n"
"in vector registers) or 'scalar' (one hand at a time).");

static PyObject *get_isa(PyObject *module, PyObject *unused)
{
    return PyUnicode_FromString(ISA_NAMES[isa]);
}

PyDoc_STRVAR(isas_doc,
"isas() -> tuple[str, ...]\n\n"
"The paths this CPU and build run, the fastest first (what ``isa`` starts as).");

static PyObject *get_isas(PyObject *module, PyObject *unused)
{
    PyObject *names = PyTuple_New(0);
    for (int k = 0; names && k < ISA_COUNT; k++) {
        if (!isa_runs[k])
            continue;
        PyObject *name = PyUnicode_FromString(ISA_NAMES[k]);
        if (name == NULL || _PyTuple_Resize(&names, PyTuple_GET_SIZE(names) + 1) < 0) {
            Py_XDECREF(name);
            Py_XDECREF(names);
            return NULL;
        }
        PyTuple_SET_ITEM(names, PyTuple_GET_SIZE(names) - 1, name);
    }
    return names;
}

PyDoc_STRVAR(set_isa_doc,
"set_isa(name) -> str\n\n"
"Take the path ``name`` (one of ``isas()``) from now on, in this process; the path taken\n"
"before. ValueError for a name this CPU or build does not run.");

static PyObject *set_isa(PyObject *module, PyObject *arg)
{
    const char *name = PyUnicode_AsUTF8(arg);
    if (name == NULL)
        return NULL;
    for (int k = 0; k < ISA_COUNT; k++) {
        if (strcmp(name, ISA_NAMES[k]) == 0 && isa_runs[k]) {
            PyObject *before = PyUnicode_FromString(ISA_NAMES[isa]);
            if (before != NULL)
                isa = k;
            return before;
        }
    }
    PyErr_Format(PyExc_ValueError, "this CPU or build has no %R kernel path", arg);
    return NULL;
}

#define ISA_METHODS                                                                        \
    {"isa", get_isa, METH_NOARGS, isa_doc}, {"isas", get_isas, METH_NOARGS, isas_doc},      \
        {"set_isa", set_isa, METH_O, set_isa_doc}

#endif
