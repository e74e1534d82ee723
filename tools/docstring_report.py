"""Public functions without a docstring, module by module (the documentation's API gaps).

    python tools/docstring_report.py            # every gap, then the count
    python tools/docstring_report.py --count    # the count only

A public function is a module's function or a public class's method, property or class
method whose name does not start with ``_``, defined in ``ttr_nb``. An override with no text
of its own counts as documented when the method it overrides is (the API reference shows the
inherited text, as ``inspect.getdoc`` does).

``ttr_nb.teaching.solutions`` is counted apart: its functions are the worked solutions the
lessons show folded away, written as a student would write them, and the tests hold each
lesson's shown code to their source, so they carry no docstring on purpose.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import pkgutil
import sys
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
AS_STUDENTS_WRITE = {"ttr_nb.teaching.solutions"}  # shown in the lessons as they are
sys.path.insert(0, str(REPO))


def modules(package: str = "ttr_nb") -> Iterator[object]:
    """Every module of ``package``, imported."""
    root = importlib.import_module(package)
    yield root
    for info in pkgutil.walk_packages(root.__path__, prefix=f"{package}."):
        yield importlib.import_module(info.name)


def _own(obj: object, module: object) -> bool:
    return getattr(obj, "__module__", None) == module.__name__


def gaps(package: str = "ttr_nb") -> list[str]:
    """``module.qualname`` of every public function without a docstring, own or inherited.

    Examples
    --------
    >>> all(name.startswith("ttr_nb.") for name in gaps())
    True
    """
    out = []
    for module in modules(package):
        if module.__name__ in AS_STUDENTS_WRITE:
            continue
        shown = set(getattr(module, "__solutions__", ()))  # worked solutions, shown as written
        for name, obj in vars(module).items():
            if name.startswith("_") or name in shown:
                continue
            if inspect.isfunction(obj) and _own(obj, module):
                if not inspect.getdoc(obj):
                    out.append(f"{module.__name__}.{name}")
            elif inspect.isclass(obj) and _own(obj, module):
                for attr, member in vars(obj).items():
                    if attr.startswith("_"):
                        continue
                    if isinstance(member, (staticmethod, classmethod)):
                        member = member.__func__
                    if isinstance(member, property):
                        doc = member.__doc__ or _inherited(obj, attr)
                    elif inspect.isfunction(member):
                        doc = inspect.getdoc(getattr(obj, attr)) or _inherited(obj, attr)
                    else:
                        continue
                    if not doc:
                        out.append(f"{module.__name__}.{name}.{attr}")
    return sorted(set(out))


def _inherited(cls: type, attr: str) -> str | None:
    for base in cls.__mro__[1:]:
        member = vars(base).get(attr)
        if member is not None:
            doc = getattr(member, "__doc__", None)
            if doc:
                return doc
    return None


def main(argv: list[str] | None = None) -> int:
    """Command line: print the gaps and their count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", action="store_true", help="print the count only")
    args = parser.parse_args(argv)
    missing = gaps()
    if not args.count:
        print("\n".join(missing))
    apart = [
        name
        for module in AS_STUDENTS_WRITE
        for name, obj in vars(importlib.import_module(module)).items()
        if inspect.isfunction(obj)
        and obj.__module__ == module
        and not name.startswith("_")
        and not inspect.getdoc(obj)
    ]
    print(
        f"{len(missing)} public functions without a docstring "
        f"(and {len(apart)} worked solutions shown in the lessons as students write them)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
