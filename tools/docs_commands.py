"""The shell commands and environment variables the user pages name, each checked.

    python tools/docs_commands.py           # every command and variable, and what is wrong
                                            # with each; exit 1 if anything is

A **command** is a line of a fenced ``bash``/``sh``/``shell``/``console`` block, or an inline
code span of two words or more that starts with a program (``make``, ``ttr-nb``, ``python``,
``jupyter``, ``.venv/bin/…``, or ``NAME=value`` before one). Each is checked without running it:

* ``make TARGET… [VAR=value]``: ``make -n`` (a dry run) knows every target, and every variable
  given reaches a recipe (its value shows in the dry run's commands);
* ``ttr-nb SUB …``: the command line's own parser accepts the arguments, and a ``--map`` names a
  shipped map;
* ``python tools/X.py …`` and ``python -m MODULE …``: the file or module exists, and its parser
  accepts the arguments (the tool runs until it has parsed them, then stops);
* ``python -c CODE``: the code compiles and what it imports exists;
* ``jupyter SUB …``: the sub-command is installed;
* ``nbgrader SUB …``: the installed nbgrader (the ``grading`` extra) has the sub-command, and
  knows each ``--option`` given;
* a program of :data:`OTHER_PROGRAMS` (the reader's own tools, such as ``docker``, and the
  shell's ``cd``) is not run. In every case a repository path among the arguments
  (``notebooks/…``, ``tools/…``) must exist.

A line that chains commands (``a && b``, ``a; b``, ``a || b``) is checked as each of them.

An **environment variable** is a ``TTR_…`` name anywhere on the page, a ``NAME=value`` before a
command, ``$NAME``, or an inline code span holding only an upper-case name with an
underscore. Each must be read by the code: named as a string in the package, the tools, the
docs build or ``binder/``'s scripts, or a Makefile variable, unless :data:`OTHER_VARIABLES`
says whose it is.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import functools
import io
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))

from docs_check import COMMENT, GENERATED, user_pages  # noqa: E402

PYTHON = sys.executable
SHELLS = {"bash", "sh", "shell", "console"}
PROGRAMS = ("make", "ttr-nb", "python", "python3", "jupyter", "nbgrader", ".venv/bin/", "pip")
OTHER_PROGRAMS = {
    "cd": "the shell's, into a folder of the reader's (a course folder they made)",
    "jupyter-repo2docker": "repo2docker, which builds the image on the reader's machine",
    "docker": "the reader's container tool, pushing the image to their registry",
    "helm": "the reader's Kubernetes package manager",
    "kubectl": "the reader's Kubernetes client",
}
OTHER_VARIABLES = {
    "QUERY_STRING": "Voilà's: the page request's query, in a kernel started for that request",
    "JUPYTERHUB_API_TOKEN": "JupyterHub's, given to every single-user server",
}
REPO_PATH = re.compile(r"^(?:notebooks|tools|docs|binder|maps|results|tests|site|share)/")
SENTINEL = "ttr-docs-sentinel-{}"


@dataclass(frozen=True)
class Command:
    """A command as a user page shows it."""

    page: str
    line: int
    text: str
    env: tuple[tuple[str, str], ...]
    argv: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: `{self.text}`"


# ------------------------------------------------------------------ reading the pages
def _page_text(page: Path) -> str:
    text = page.read_text(encoding="utf-8")
    blank = lambda m: re.sub(r"[^\n]", " ", m.group(0))  # noqa: E731  (keep line numbers)
    return COMMENT.sub(blank, GENERATED.sub(lambda m: m.group("body"), text))


def _split(text: str) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]] | None:
    """A command line as (environment assignments, argv), or None if it is not one."""
    try:
        words = shlex.split(text, comments=True)
    except ValueError:
        return None
    env = []
    while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=.*", words[0]):
        name, _, value = words.pop(0).partition("=")
        env.append((name, value))
    return tuple(env), tuple(words)


def _chain(text: str) -> list[str]:
    """The commands of a line that chains them (``a && b``, ``a; b``, ``a || b``), each as
    typed; a comment (`` # …``) ends the line. Quotes keep what they hold together."""
    parts, current, quote, i = [], "", "", 0
    while i < len(text):
        ch = text[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (not current or current[-1].isspace()):
            break
        elif text.startswith(("&&", "||"), i) or ch == ";":
            parts.append(current)
            current = ""
            i += 1 if ch == ";" else 2
            continue
        current += ch
        i += 1
    return [part.strip() for part in [*parts, current] if part.strip()]


def _is_command(argv: tuple[str, ...]) -> bool:
    return bool(argv) and (
        argv[0] in OTHER_PROGRAMS or any(argv[0].startswith(p) for p in PROGRAMS)
    )


def commands(pages: list[Path] | None = None) -> list[Command]:
    """Every command the user pages show."""
    found = []
    for page in user_pages() if pages is None else pages:
        name = page.relative_to(REPO).as_posix()
        lines = _page_text(page).splitlines()
        fence = None
        pending = ""
        for number, line in enumerate(lines, 1):
            opening = re.match(r"\s*(```+|~~~+)\s*\{?([\w-]*)", line)
            if fence is None and opening:
                fence = (opening.group(1), opening.group(2).lower())
                continue
            if fence is not None:
                if line.strip().startswith(fence[0]):
                    fence = None
                    continue
                if fence[1] in SHELLS:
                    text = pending + line.strip().removeprefix("$ ")
                    if text.endswith("\\"):
                        pending = text[:-1] + " "
                        continue
                    pending = ""
                    for part in _chain(text):
                        split = _split(part)
                        if split and (split[1] or split[0]):
                            found.append(Command(name, number, part, *split))
                continue
            for span in re.findall(r"(?<!`)`([^`\n]+)`(?!`)", line):
                parts = [(part, _split(part)) for part in _chain(span)]
                first = parts[0][1] if parts else None
                if first and len(first[1]) > 1 and _is_command(first[1]):  # a bare name: no
                    found += [Command(name, number, part, *split) for part, split in parts if split]
    return found


ENV_NAME = re.compile(r"\bTTR_[A-Z0-9_]+\b|\$\{?([A-Z][A-Z0-9_]+)\}?")


def variables(pages: list[Path] | None = None) -> dict[str, list[str]]:
    """Every environment variable the user pages name, with where (``page:line``)."""
    found: dict[str, list[str]] = {}

    def add(var: str, where: str) -> None:
        found.setdefault(var, []).append(where)

    pages = user_pages() if pages is None else pages
    for command in commands(pages):
        for var, _ in command.env:
            add(var, f"{command.page}:{command.line}")
    for page in pages:
        name = page.relative_to(REPO).as_posix()
        for number, line in enumerate(_page_text(page).splitlines(), 1):
            for match in ENV_NAME.finditer(line):
                add(match.group(1) or match.group(0), f"{name}:{number}")
            for span in re.findall(r"`([A-Z][A-Z0-9]*_[A-Z0-9_]+)`", line):
                add(span, f"{name}:{number}")
    return found


# ------------------------------------------------------------------ what the code reads
def _code_files() -> list[Path]:
    files = sorted((REPO / "ttr_nb").rglob("*.py")) + sorted((REPO / "tools").glob("*.py"))
    return files + sorted((REPO / "docs" / "_ext").glob("*.py")) + [REPO / "docs" / "conf.py"]


@functools.cache
def names_in_code() -> frozenset[str]:
    """Upper-case names the code reads: string constants of the Python code (the package,
    the tools, the docs build), ``$NAME`` in ``binder/``'s scripts, the Makefile's variables."""
    names = set()
    for path in _code_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and re.fullmatch(r"[A-Z][A-Z0-9_]+", text):
                names.add(text)
    for script in (REPO / "binder").glob("*"):
        if script.is_file():
            names |= set(re.findall(r"\$\{?([A-Z][A-Z0-9_]+)", script.read_text("utf-8")))
    names |= set(re.findall(r"\$\(([A-Z][A-Z0-9_]*)\)", (REPO / "Makefile").read_text("utf-8")))
    return frozenset(names)


# ------------------------------------------------------------------ checking a command
def _dry_make(command: Command) -> list[str]:
    targets = [a for a in command.argv[1:] if "=" not in a and not a.startswith("-")]
    given = [a.partition("=")[0] for a in command.argv[1:] if "=" in a]
    args = ["make", "-n", "--no-print-directory", "-C", str(REPO), *targets]
    args += [f"{name}={SENTINEL.format(name)}" for name in given]
    env = dict(os.environ)
    env.update({name: SENTINEL.format(name) for name, _ in command.env})
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)
    out = done.stdout + done.stderr
    problems = []
    if done.returncode != 0 or "No rule to make target" in out:
        problems.append(f"make -n fails: {out.strip().splitlines()[-1:] or done.returncode}")
        return problems
    code = names_in_code()
    for name in given:
        if SENTINEL.format(name) not in out:
            problems.append(f"make variable {name} reaches no recipe of {' '.join(targets)}")
    for name, _ in command.env:
        if SENTINEL.format(name) not in out and name not in code:
            problems.append(f"{name} reaches no recipe and no code reads it")
    return problems


PLACEHOLDERS = {"MAP": "usa"}  # a synopsis's placeholder and a value it stands for


def _example(word: str) -> str:
    """A synopsis's placeholder (``N``, ``SAVE.json``, ``MAP``) as a value that parses."""
    if re.fullmatch(r"[A-Z][A-Z0-9_]*(\.\w+)?", word):
        return PLACEHOLDERS.get(word, "1")
    return word


def _ttr_nb(command: Command) -> list[str]:
    sys.path.insert(0, str(REPO))
    from ttr_nb.cli import build_parser
    from ttr_nb.maps import available_maps

    argv = [_example(word) for word in command.argv[1:]]
    if len(argv) == 1:  # the sub-command named in a sentence: it must exist
        argv.append("--help")
    said = io.StringIO()
    try:
        with contextlib.redirect_stderr(said), contextlib.redirect_stdout(io.StringIO()):
            args = build_parser().parse_args(argv)
    except SystemExit as stop:
        if stop.code == 0:
            return []
        return [f"ttr-nb refuses {' '.join(argv)!r}: {said.getvalue().strip().splitlines()[-1]}"]
    problems = []
    value = getattr(args, "map", None)
    shipped = value in (None, "all") or value in available_maps()
    if not shipped and not str(value).endswith(".json"):
        problems.append(f"{value!r} is no shipped map")
    return problems


PARSE_ONLY = """
import argparse, runpy, sys
class Parsed(BaseException):  # not an Exception: a tool that catches those (venv) lets it by
    pass
original = argparse.ArgumentParser.parse_args
def parse_args(self, *args, **kwargs):
    original(self, *args, **kwargs)
    raise Parsed
argparse.ArgumentParser.parse_args = parse_args
kind, target, *argv = sys.argv[1:]
sys.argv = [target, *argv]
try:
    if kind == "module":
        runpy.run_module(target, run_name="__main__", alter_sys=True)
    else:
        sys.path.insert(0, str(__import__("pathlib").Path(target).resolve().parent))
        runpy.run_path(target, run_name="__main__")
except Parsed:
    sys.exit(0)
sys.exit(3)  # ran to the end without parsing any arguments
"""

IMPORTS_ONLY = """
import ast, importlib, sys
for node in ast.walk(ast.parse(sys.argv[1])):
    if isinstance(node, ast.Import):
        for alias in node.names:
            importlib.import_module(alias.name)
    elif isinstance(node, ast.ImportFrom):
        module = importlib.import_module(node.module)
        for alias in node.names:
            getattr(module, alias.name)
"""


def _python(command: Command) -> list[str]:
    argv = list(command.argv[1:])
    if argv[:1] == ["-c"]:
        try:
            compile(argv[1], "<page>", "exec")
        except SyntaxError as exc:
            return [f"the code does not compile: {exc}"]
        done = subprocess.run([PYTHON, "-c", IMPORTS_ONLY, argv[1]], capture_output=True, text=True)
        return [f"its imports fail: {done.stderr.strip()[-200:]}"] if done.returncode else []
    if argv[:1] == ["-m"]:
        kind, target, rest = "module", argv[1], argv[2:]
    else:
        kind, target, rest = "path", argv[0], argv[1:]
        if not (REPO / target).exists():
            return [f"{target} does not exist"]
        if "argparse" not in (REPO / target).read_text(encoding="utf-8"):
            return []  # nothing to parse: the file exists
    done = subprocess.run(
        [PYTHON, "-c", PARSE_ONLY, kind, str(REPO / target) if kind == "path" else target, *rest],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
    )
    if done.returncode == 3:
        return [f"{target} parsed no arguments"]
    if done.returncode:
        return [f"{target} refuses {' '.join(rest)!r}: {done.stderr.strip()[-300:]}"]
    return []


@functools.cache
def _nbgrader_apps() -> dict[str, type] | None:
    """nbgrader's sub-commands and their applications (None: nbgrader is not installed)."""
    try:
        from nbgrader.apps import NbGraderApp
    except ImportError:
        return None
    from traitlets.utils.importstring import import_item

    return {
        sub: import_item(app) if isinstance(app, str) else app
        for sub, (app, _) in NbGraderApp.subcommands.items()
    }


def _nbgrader(command: Command) -> list[str]:
    apps = _nbgrader_apps()
    if apps is None:
        return ["nbgrader is not installed (the grading extra: pip install -e '.[grading]')"]
    sub = command.argv[1] if len(command.argv) > 1 else ""
    if sub not in apps:
        return [f"nbgrader has no sub-command {sub!r}"]
    app = apps[sub]
    known = set(app.aliases) | set(app.flags)
    options = [a[2:].partition("=")[0] for a in command.argv[2:] if a.startswith("--")]
    return [
        f"nbgrader {sub} knows no option --{name}"
        for name in options
        if name not in known and "." not in name  # --Class.trait=value sets any setting
    ]


def check(command: Command) -> list[str]:
    """What is wrong with a command (nothing: an empty list)."""
    argv = command.argv
    if not argv:
        return []
    program = argv[0].removeprefix(".venv/bin/")
    problems = [
        f"{arg} does not exist"
        for arg in argv[1:]
        if REPO_PATH.match(arg) and "*" not in arg and not (REPO / arg).exists()
    ]
    if program == "make":
        return problems + _dry_make(command)
    if program == "ttr-nb":
        return problems + _ttr_nb(command)
    if program in ("python", "python3"):
        return problems + _python(command)
    if program == "jupyter":
        sub = argv[1] if len(argv) > 1 else ""
        binder = (REPO / "binder" / "constraints.txt").read_text(encoding="utf-8")
        installed = (Path(PYTHON).parent / f"jupyter-{sub}").exists()
        if not installed and not re.search(rf"^{re.escape(sub)}==", binder, re.M | re.I):
            problems.append(f"jupyter {sub} is installed neither by make setup nor on Binder")
        return problems
    if program == "nbgrader":
        return problems + _nbgrader(command)
    if program == "pip":
        return problems
    if program in OTHER_PROGRAMS:
        return problems
    return problems + [f"{argv[0]}: no check knows this program (add it to OTHER_PROGRAMS)"]


def variable_problems() -> list[str]:
    """The environment variables named on user pages that no code reads."""
    code = names_in_code()
    return [
        f"{', '.join(where)}: {var} is read by no code"
        for var, where in sorted(variables().items())
        if var not in code and var not in OTHER_VARIABLES
    ]


def problems() -> list[str]:
    """Everything wrong with the user pages' commands and variables (a command shown on
    several pages is checked once)."""
    out, seen = [], {}
    for command in commands():
        key = (command.env, command.argv)
        if key not in seen:
            seen[key] = check(command)
        out += [f"{command}: {p}" for p in seen[key]]
    return out + variable_problems()


def main(argv: list[str] | None = None) -> int:
    """Command line: list each command and variable with its problems."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    for command in commands():
        print(f"{command}: {'; '.join(check(command)) or 'ok'}")
    for var, where in sorted(variables().items()):
        print(f"${var} ({where[0]}): {'ok' if var in names_in_code() else 'read by no code'}")
    found = problems()
    print(f"{len(found)} problems", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
