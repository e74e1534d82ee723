# C types for the compiled build of claim_tables.py (Cython's pure-Python mode: the .py
# file stays plain Python; Cython reads the types of its numbers from here).
cimport cython

cdef class ClaimTable:
    cdef public tuple card_ids
    cdef public str kind
    cdef public object closes_upto
    cdef public Py_ssize_t routes
    cdef public dict index
    cdef public object data, untaken, numbers
    cdef public list universe

@cython.locals(
    counts=cython.long[:], taken=cython.long[:], data=cython.long[:], numbers=cython.long[:],
    out=list, known=Py_ssize_t, record=Py_ssize_t, rid=Py_ssize_t, who=long,
    universe=list, r=Py_ssize_t, i=Py_ssize_t, j=Py_ssize_t, at=Py_ssize_t,
    n=long, need=long, spare=long, have=long, top=long, low=long, w=long, other=long,
    first=long, start=long, ncol=long, blocked=bint,
)
cpdef list list_claims(ClaimTable table, dict hand, dict owner, long seat, bint closes,
                       long pieces)
