"""How the browser tests and benchmarks start Debian's Chromium (headless, quiet, offline-able).

Shared by ``tests/`` and ``tools/`` so that every measurement runs the same browser the same way.
"""

from __future__ import annotations

import os

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
"""Debian's Chromium (never a browser downloaded by Playwright)."""

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
"""Headless, and no traffic of Chromium's own (updates, sync, field trials)."""

OFFLINE = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
"""A classroom without internet: no host name resolves but 127.0.0.1."""
