"""The optional compiled build: the engine's own ``.py`` files compiled by Cython.

Everything else about the package is in ``pyproject.toml``. A plain build (``pip install
-e .``, ``pip wheel .``, the static site's wheel) is pure Python. With
``TTR_NB_COMPILE=1`` the modules below are compiled by Cython from the same source files,
unchanged (Python semantics: annotations are not used as C types), and a wheel carries
both each compiled module and its ``.py`` file; Python imports the compiled one where it
was built for this interpreter. ``make build-fast`` builds them (docs/engine.md, "Speed").
"""

from __future__ import annotations

import os

from setuptools import setup

# The modules a game runs through (the engine, every variant's rules, the bots and the
# graph algorithms they call each turn). Chosen by measurement: tools/bench_compiled.py.
COMPILED = [
    "ttr_nb/actions.py",
    "ttr_nb/state.py",
    "ttr_nb/game.py",
    "ttr_nb/maps.py",
    "ttr_nb/rules/*.py",
    "ttr_nb/bots/greedy.py",
    "ttr_nb/bots/registry.py",
    "ttr_nb/bots/determinise.py",
    "ttr_nb/bots/inference.py",
    "ttr_nb/bots/rollout.py",
    "ttr_nb/bots/search.py",
    "ttr_nb/bots/variants/*.py",
    "ttr_nb/algorithms/connectivity.py",
    "ttr_nb/algorithms/shortest_paths.py",
    "ttr_nb/algorithms/longest_trail.py",
]
# Not compiled: package __init__ files (they only gather names).
SKIP = ("__init__.py",)

# Plain Python semantics, so the compiled engine behaves as its source does: annotations
# are documentation (never C types or checks), division and comparisons as in Python.
DIRECTIVES = {
    "language_level": 3,
    "annotation_typing": False,
    "binding": True,
    "embedsignature": False,
}


def sources() -> list[str]:
    """The ``.py`` files compiled (paths relative to this folder, sorted)."""
    from glob import glob

    here = os.path.dirname(os.path.abspath(__file__))
    found = {
        os.path.relpath(path, here)
        for pattern in COMPILED
        for path in glob(os.path.join(here, pattern))
        if not path.endswith(SKIP)
    }
    return sorted(found)


def extensions() -> list:
    """Cython extension modules when ``TTR_NB_COMPILE=1``, else none (pure Python)."""
    if os.environ.get("TTR_NB_COMPILE") != "1":
        return []
    from Cython.Build import cythonize

    return cythonize(
        sources(),
        compiler_directives=DIRECTIVES,
        nthreads=int(os.environ.get("TTR_NB_COMPILE_JOBS", "2")),
        build_dir="build/cython",  # the generated C stays out of the source tree
        quiet=True,
    )


if __name__ == "__main__":  # as pip and setuptools run it (not when a test imports it)
    jobs = int(os.environ.get("TTR_NB_COMPILE_JOBS", "2"))
    setup(ext_modules=extensions(), options={"build_ext": {"parallel": jobs}})
