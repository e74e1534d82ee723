"""JSON Schema checks for map files and saves, with errors as (JSON path, reason).

fastjsonschema turns a schema into plain Python once per process; it is pure
Python (so it runs in the browser under Pyodide too) and starts much faster than
``jsonschema``, whose format checkers cost about a second to import.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import fastjsonschema

Problem = tuple[str, str]
"""(JSON path such as ``$.cities[3].lat``, reason such as ``must be at most 90``)."""

_WORDS = (
    (re.compile(r"must be smaller than or equal to"), "must be at most"),
    (re.compile(r"must be bigger than or equal to"), "must be at least"),
    (re.compile(r"must contain \[(.*)\] properties"), r"lacks the required field(s) \1"),
    (re.compile(r"must not contain \{(.*)\} properties"), r"has unknown field(s) \1"),
)


@cache
def schema_checker(path: str) -> Callable[[Any], Problem | None]:
    """A function that returns the first problem of a document, or None if it is valid.

    Examples
    --------
    >>> from ttr_nb.maps import SCHEMA_PATH
    >>> check = schema_checker(str(SCHEMA_PATH))
    >>> check({"format": "ttr-nb-map/1"})[0]
    '$'
    """
    validate = fastjsonschema.compile(json.loads(Path(path).read_text(encoding="utf-8")))

    def first_problem(data: Any) -> Problem | None:
        try:
            validate(data)
        except fastjsonschema.JsonSchemaValueException as exc:
            return _json_path(exc.path), _reason(exc)
        except RecursionError:
            return "$", "is nested too deeply"
        return None

    return first_problem


def _json_path(parts: list[str] | None) -> str:
    out = "$"
    for part in (parts or ["data"])[1:]:
        out += f"[{part}]" if part.isdigit() else f".{part}"
    return out


def _reason(exc: fastjsonschema.JsonSchemaValueException) -> str:
    """The message without the leading ``data.x.y`` name, shortened for people."""
    message = exc.message
    if exc.name and message.startswith(exc.name):
        message = message[len(exc.name) :].strip()
    for pattern, words in _WORDS:
        message = pattern.sub(words, message)
    if isinstance(exc.value, str | int | float | bool) or exc.value is None:
        shown = repr(exc.value)
        message += f" (got {shown if len(shown) <= 40 else shown[:37] + '...'})"
    return message[:300]
