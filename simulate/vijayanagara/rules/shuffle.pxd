# C types for the compiled copy of shuffle.py (setup.py; the .py stays the source of truth):
# the deck's shuffles as C loops, drawing through the generator's own getrandbits.

cimport cython

@cython.locals(i=Py_ssize_t, n=Py_ssize_t, k=long, m=Py_ssize_t, j=Py_ssize_t)
cpdef void shuffle(list x, rng) except *
