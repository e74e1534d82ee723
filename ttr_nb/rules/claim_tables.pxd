# C types for the compiled build of claim_tables.py (Cython's pure-Python mode: the .py
# file stays plain Python; Cython reads the types of its numbers from here).
cimport cython

cdef class ClaimTable:
    cdef public tuple card_ids
    cdef public str kind
    cdef public object closes_upto
    cdef public Py_ssize_t routes
    cdef public dict index
    cdef public tuple lengths, ncol, colstart, colours, wild, parstart, pars, base
    cdef public list universe

@cython.locals(
    card_ids=tuple, counts=list, taken=list, index=dict, out=list, universe=list,
    lengths=tuple, ncol=tuple, colstart=tuple, colours=tuple, wild=tuple,
    parstart=tuple, pars=tuple, base=tuple,
    routes=Py_ssize_t, r=Py_ssize_t, i=Py_ssize_t, j=Py_ssize_t,
    n=long, need=long, spare=long, have=long, top=long, low=long, w=long, other=long,
    first=long, start=long, blocked=bint,
)
cpdef list list_claims(ClaimTable table, dict hand, dict owner, long seat, bint closes,
                       long pieces)
