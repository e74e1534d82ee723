# Plain runner. `make app` and `make test` are the README's two commands.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8866
SITE_PORT ?= 8000
SITE_VENV := .venv-site

.PHONY: docs docs-deps app teacher test setup lint unit browser-deps db-deps bench-tables notebooks record-notebooks bench bench-load strength digests play clean \
	site site-serve site-test site-bench npm-deps hub-deps a11y-deps build-fast

$(BIN)/ttr-nb: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@

# Voilà finds page templates in Jupyter's data folders: link the app's template ("ttr", named
# in voila.json) into the venv's, so the copy in the repository is the one served.
TEMPLATE := share/jupyter/voila/templates/ttr
$(VENV)/$(TEMPLATE): | $(BIN)/ttr-nb
	mkdir -p $(dir $@)
	ln -sfn $(CURDIR)/$(TEMPLATE) $@

setup: $(BIN)/ttr-nb $(VENV)/$(TEMPLATE)

# Serve the Voilà app on 127.0.0.1 and print its address (settings: voila.json, made for a
# class of 30). WARM=2 keeps 2 kernels started for arriving visitors instead of 30.
# CERTFILE=cert.pem KEYFILE=key.pem: HTTPS (for `make teacher` too); PROXIES=10.0.0.5: behind
# a reverse proxy at that address (comma-separated), believe its X-Forwarded-For
# (docs/deployment/one-machine.md).
SCHEME := $(if $(CERTFILE),https,http)
TLS_OPTIONS = $(if $(CERTFILE),--certfile=$(CERTFILE) --keyfile=$(KEYFILE))
PROXY_OPTIONS = $(if $(PROXIES),--ClassroomVoila.trust_xheaders=True \
  $(foreach p,$(subst $(comma), ,$(PROXIES)),--ClassroomVoila.trusted_proxies=$(p)))
comma := ,
app: setup
	@echo "ttr-nb app: $(SCHEME)://$(HOST):$(PORT)/  (Ctrl-C stops it)"
	$(BIN)/python -m ttr_nb.voila_server notebooks/app.ipynb --no-browser --Voila.ip=$(HOST) \
	  --port=$(PORT) $(TLS_OPTIONS) $(PROXY_OPTIONS) \
	  $(if $(WARM),--ClassroomKernelManager.warm_kernels=$(WARM))

# The teacher's page over every shared table (same store as the app), on its own port, behind
# Jupyter Server's login: it prints a link with a fresh token (or takes TTR_TEACHER_TOKEN, or
# TTR_TEACHER_PASSWORD_HASH, from the environment; never from the repository).
TEACHER_PORT ?= 8867
teacher: setup
	TTR_APP_PORT=$(PORT) $(BIN)/python -m ttr_nb.teacher_server --host $(HOST) --port $(TEACHER_PORT) \
	  $(TLS_OPTIONS) -- --ClassroomKernelManager.warm_kernels=1 $(PROXY_OPTIONS)

# A class arriving: what one visitor costs the server, step by step; VISITORS real Chromium
# pages within SPREAD seconds; then the server alone (visitors over HTTP and websocket, no
# browser): VISITORS within SPREAD s and WS_VISITORS within WS_SPREAD s (figures, not a test).
VISITORS ?= 30
SPREAD ?= 30
WS_VISITORS ?= 60
WS_SPREAD ?= 30
bench-load: setup browser-deps
	$(BIN)/python tools/bench_arrival.py --visitors 8
	$(BIN)/python tools/bench_load.py --visitors $(VISITORS) --spread $(SPREAD)
	$(BIN)/python tools/bench_load_ws.py --visitors $(VISITORS) --spread $(SPREAD)
	$(BIN)/python tools/bench_load_ws.py --visitors $(WS_VISITORS) --spread $(WS_SPREAD) \
	  --json test-artifacts/bench-load-ws-$(WS_VISITORS).json

# Shared tables under load: simulated players (no browsers) through SQLite and PostgreSQL.
bench-tables: setup db-deps
	$(BIN)/python tools/bench_tables.py

play: setup
	$(BIN)/ttr-nb play --map usa --players 3 --seed 7

# The engine compiled by Cython from its own .py files (setup.py, TTR_NB_COMPILE=1): the
# wheel with the compiled modules in build/wheel/, unpacked into build/fast/, which
# `PYTHONPATH=build/fast` puts ahead of the editable (pure) install. Needs a C compiler
# and Python's headers; `make setup` stays pure Python (docs/engine.md, "Speed").
FAST := build/fast
ENGINE_SOURCES := $(shell find ttr_nb -name '*.py' -o -name '*.pxd' 2>/dev/null)
$(FAST)/.built: setup.py pyproject.toml $(ENGINE_SOURCES) | $(BIN)/ttr-nb
	rm -rf build/wheel $(FAST)
	TTR_NB_COMPILE=1 $(BIN)/python -m pip wheel --no-deps -q -w build/wheel .
	$(BIN)/python -m zipfile -e build/wheel/ttr_nb-*.whl $(FAST)
	ln -sfn $(CURDIR)/maps $(FAST)/maps
	touch $@
build-fast: $(FAST)/.built

# PEER=path/to/a/clone/of/bingsoup/ticket-to-ride-ai adds the side-by-side figures
# (the peer is not shipped; its console needs rich). The compiled engine (build-fast) is
# measured beside the pure one where a C compiler is.
PEER ?=
bench: setup
	$(BIN)/ttr-nb bench
	@if command -v cc >/dev/null; then $(MAKE) --no-print-directory build-fast && \
	  $(BIN)/python tools/bench_compiled.py --compiled $(FAST); fi
	$(if $(PEER),$(BIN)/pip install -q rich && $(BIN)/python tools/bench_peer.py --peer $(PEER) \
	  $(if $(wildcard $(FAST)/.built),--compiled $(FAST)))

# How long best-score takes to prove World's and USA's best game (minutes; figures appended
# to results/bench/best-score.json with the command).
.PHONY: bench-best-score
bench-best-score: setup
	$(BIN)/python tools/bench_best_score.py --cases world:60,usa:45 --rounds 3 \
	  --out results/bench/best-score.json

# The search bot against greedy: 200 games per map at 1 s per move, and USA at
# 0.1, 0.3, 1 and 3 s (hours of CPU; WORKERS=n runs n processes).
WORKERS ?= 1
strength: setup
	$(BIN)/python tools/strength.py --games 200 --workers $(WORKERS)

# Every recorded seeded game replayed against the digests of the engine before the
# fast path (the tests replay a part of them).
digests: setup
	$(BIN)/python tests/engine_digests.py --blocks 30 --maps usa,germany
	$(BIN)/python tests/engine_digests.py --blocks 3 --maps maerklin
	$(BIN)/python tests/engine_digests.py --blocks 10 --maps world
	$(BIN)/python tests/engine_digests.py --blocks 2 --maps europe

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-logo --no-cache

unit: setup
	$(BIN)/python -m pytest -q

notebooks: setup
	$(BIN)/python -m pytest -q notebooks/

# After changing a notebook's checked cells: record what nbval will compare them with.
record-notebooks: setup
	$(BIN)/python tools/record_notebook_outputs.py notebooks/*.ipynb

# Browser tests need Debian's chromium; install it when missing (CI machines start bare).
browser-deps:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian chromium for the browser tests"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null; }

# The shared tables are tested against a real PostgreSQL server too (tools/pg_server.py
# starts a throwaway one as the postgres user); install Debian's when missing.
db-deps:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
	  echo "installing Debian postgresql for the table tests"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) >/dev/null; }

# The JupyterHub test's proxy (configurable-http-proxy, pinned in tests/hub/package-lock.json).
hub-deps: npm-deps
	@test -x tests/hub/node_modules/.bin/configurable-http-proxy || \
	  npm ci --prefix tests/hub --no-audit --no-fund --loglevel=error

# The graders' sandbox (bubblewrap: tools/assignments_sandbox.py); install it when missing.
grading-deps:
	@command -v bwrap >/dev/null 2>&1 || { \
	  echo "installing Debian bubblewrap for the grading tests"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap) >/dev/null; }

# axe-core for the accessibility browser tests (pinned in tests/a11y/package-lock.json).
a11y-deps: npm-deps
	@test -f tests/a11y/node_modules/axe-core/axe.min.js || \
	  npm ci --prefix tests/a11y --no-audit --no-fund --loglevel=error

# The fast loop (CONTRIBUTING.md): lint, then the tests that need no browser, no database
# server, no hub and no Binder image (marked by conftest.py from the fixtures they take), the
# docs' checks among them; the package's doctests, not the notebooks.
.PHONY: check
CHECK_MARKS := not browser and not database and not hub and not binder and not slow
check: setup
	@started=$$(date +%s); \
	$(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/lint-imports --no-logo --no-cache || exit 1; \
	status=0; \
	$(BIN)/python -m pytest -q -p no:cacheprovider $(PARALLEL) tests ttr_nb -m "$(CHECK_MARKS) and not solo" || status=$$?; \
	$(BIN)/python -m pytest -q -p no:cacheprovider tests ttr_nb -m "$(CHECK_MARKS) and solo" || status=$$?; \
	if [ $$status = 0 ]; then echo "make check: passed in $$(( $$(date +%s) - started )) s"; \
	else echo "make check: failed after $$(( $$(date +%s) - started )) s"; fi; \
	exit $$status

# The tests run on TEST_WORKERS processes (pytest-xdist; 0: in pytest's own): each test file
# whole on one worker, the longest first (conftest.py says which files share a worker); then
# the tests marked solo (they time themselves or load the machine) alone. Both parts run
# even if the first fails, so that one run reports every failure.
TEST_WORKERS ?= 2
PARALLEL = $(if $(filter-out 0,$(TEST_WORKERS)),-n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder)

# build-fast first (where a C compiler is): tests/test_compiled.py compares its games.
test: setup lint browser-deps db-deps hub-deps a11y-deps grading-deps $(if $(shell command -v cc),build-fast)
	@started=$$(date +%s); status=0; \
	$(BIN)/python -m pytest -q --durations=30 $(PARALLEL) -m "not solo" || status=$$?; \
	echo "make test: the tests beside each other took $$(( $$(date +%s) - started )) s"; \
	alone=$$(date +%s); \
	$(BIN)/python -m pytest -q --durations=10 -m solo || status=$$?; \
	echo "make test: the solo tests took $$(( $$(date +%s) - alone )) s," \
	  "$$(( $$(date +%s) - started )) s in all"; \
	exit $$status

# ---- a course: the lessons as nbgrader assignments (docs/grading.md). COURSE is the course
# folder (source/, release/, gradebook.db, nbgrader_config.py); LESSONS picks some lessons.
.PHONY: assignments grading-deps bench-assignments
COURSE ?= build/course
LESSONS ?=
assignments: setup
	$(BIN)/python tools/assignments.py --out $(COURSE) $(if $(LESSONS),--lessons $(LESSONS))

# What each step costs a teacher of a class of STUDENTS (figures in results/grading/).
STUDENTS ?= 30
bench-assignments: setup grading-deps
	$(BIN)/python tools/assignments_bench.py --students $(STUDENTS)

# ---- documentation: Sphinx, MyST and MyST-NB; the lessons run at build time (cached by
# content in build/docs-cache/), warnings are errors, then every internal link is checked.
DOCS_OUT := build/docs
$(BIN)/sphinx-build: pyproject.toml | $(BIN)/ttr-nb
	$(BIN)/python -m pip install --quiet -e ".[test,docs]"
	touch $@

docs-deps: setup $(BIN)/sphinx-build

docs: docs-deps
	@started=$$(date +%s); \
	$(BIN)/sphinx-build -b html -W --keep-going -q -j 2 docs $(DOCS_OUT)/html && \
	$(BIN)/python tools/check_docs_links.py $(DOCS_OUT)/html && \
	echo "make docs: built $(DOCS_OUT)/html/index.html in $$(( $$(date +%s) - started )) s"

# ---- static site: the app (Voici) and the lessons (JupyterLite) on Pyodide, no server
$(SITE_VENV)/bin/voici: site/requirements.txt
	$(PYTHON) -m venv $(SITE_VENV)
	$(SITE_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(SITE_VENV)/bin/python -m pip install --quiet -r site/requirements.txt
	touch $@

# npm fetches the Pyodide runtime; install Debian's when missing (CI machines start bare).
npm-deps:
	@command -v npm >/dev/null 2>&1 || { \
	  echo "installing Debian npm for the site build"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm) >/dev/null; }

# Build _site/ (a folder any static web host can serve; see docs/deployment/static-site.md).
site: $(SITE_VENV)/bin/voici npm-deps docs
	$(SITE_VENV)/bin/python tools/build_site.py --out _site

site-serve:
	@test -f _site/index.html || $(MAKE) site
	@echo "ttr-nb static site: http://$(HOST):$(SITE_PORT)/  (Ctrl-C stops it)"
	$(PYTHON) -m http.server --bind $(HOST) --directory _site $(SITE_PORT)

# Builds the site and checks it in Chromium with the internet cut off.
site-test: setup browser-deps a11y-deps site
	TTR_SITE=_site $(BIN)/python -m pytest -q -s tests/test_site.py tests/test_site_docs.py \
	  tests/test_browser_a11y_site.py

# Site size, cold start to a drawn board, time per bot move in Pyodide and CPython.
site-bench: setup browser-deps site
	$(BIN)/python tools/bench_site.py --site _site

clean:
	rm -rf $(VENV) $(SITE_VENV) .pytest_cache .ruff_cache _site build/site $(DOCS_OUT) build/docs-cache \
	  docs/_build docs/_generated docs/lessons docs/api/generated
