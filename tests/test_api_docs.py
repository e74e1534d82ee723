"""The public API's docstrings (issue 52): full numpydoc with examples, validated by the
documentation build (docs/conf.py), and type hints shown in the signatures."""

from __future__ import annotations

import importlib
import inspect
import re
import runpy
from pathlib import Path

import pytest

CONF = runpy.run_path(str(Path(__file__).resolve().parent.parent / "docs" / "conf.py"))
API = CONF["PUBLIC_API"]


def _object(name: str):
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(name)


def test_the_build_validates_the_public_api_and_nothing_else():
    import ttr_nb

    for name in ("new_game", "Game", "load_map"):
        obj = getattr(ttr_nb, name)
        assert f"{obj.__module__}.{obj.__qualname__}" in API
    for name in ("legal_actions", "apply", "observation"):
        assert f"ttr_nb.game.Game.{name}" in API
    assert {"ttr_nb.tables.store.open_store", "ttr_nb.widgets.app.launch"} <= set(API)
    assert "all" in CONF["numpydoc_validation_checks"]
    (exclude,) = CONF["numpydoc_validation_exclude"]
    assert not any(re.search(exclude, name) for name in API)
    assert all(
        re.search(exclude, name)
        for name in ("ttr_nb.game.Game.clone", "ttr_nb.game", "ttr_nb.maps.load_maps")
    )
    assert CONF["autodoc_typehints"] == "signature"


@pytest.mark.parametrize("name", API)
def test_each_public_name_documents_its_parameters_and_shows_an_example(name):
    obj = _object(name)
    doc = inspect.getdoc(obj) or ""
    assert "Examples\n--------\n" in doc and ">>> " in doc, name
    target = obj.__init__ if inspect.isclass(obj) else obj
    if not inspect.isfunction(target):  # a built-in __init__ (an exception's): no parameters
        return
    params = [p for p in inspect.signature(target).parameters.values() if p.name != "self"]
    if params:
        assert "Parameters\n----------\n" in doc, name
        for p in params:
            shown = re.escape(f"**{p.name}" if p.kind is p.VAR_KEYWORD else p.name)
            # "name : type", or one of "a, b, name : type"
            assert re.search(rf"^([\w*]+, )*{shown}(, [\w*]+)*( : |$)", doc, re.M), (name, p.name)
    if not inspect.isclass(obj) and inspect.signature(obj).return_annotation not in (
        "None",
        None,
        inspect.Signature.empty,
    ):
        assert "Returns\n-------\n" in doc, name


def test_numpydoc_finds_nothing_missing_in_the_public_api():
    validate = pytest.importorskip("numpydoc.validate").validate
    ignored = CONF["numpydoc_validation_checks"] - {"all"}
    for name in API:
        errors = [(code, text) for code, text in validate(name)["errors"] if code not in ignored]
        assert errors == [], name
