"""One hint as the coach shows it: a title, lines of words, the algorithm behind it and
its lesson, and the data (route ids, tickets) a board or a script can use."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .lessons import Algorithm

__all__ = ["Hint", "plural_s"]


@dataclass(frozen=True)
class Hint:
    """A hint: ``kind`` (``plan``, ``weak-spots``, ``heading``, ``why``, a variant's own
    kind), a title, lines of words, the algorithm (with its lesson), the routes it is
    about (drawn on the board) and its data."""

    kind: str
    title: str
    lines: tuple[str, ...]
    algorithm: Algorithm
    routes: tuple[int, ...] = ()
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The hint as plain JSON data."""
        return {
            "kind": self.kind,
            "title": self.title,
            "lines": list(self.lines),
            "algorithm": self.algorithm.to_dict(),
            "routes": list(self.routes),
            "data": self.data,
        }

    def text(self) -> str:
        """The hint as plain text: title, lines, and how it was computed."""
        body = "\n".join(f"  {line}" for line in self.lines)
        how = f"  [{self.algorithm.name}; lesson: {self.algorithm.lesson}]"
        return f"{self.title}\n{body}\n{how}"


def plural_s(n: int) -> str:
    """The ``s`` that follows a count other than one ("1 space", "2 spaces")."""
    return "" if n == 1 else "s"
