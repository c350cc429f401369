# The two commands a newcomer needs: `make run` serves the app, `make test` runs the tests.
# Both create .venv and install what they need on a fresh machine.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 5000
WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
# The address phones reach the site at (join links, QR codes); see docs/before-the-lecture.md.
PUBLIC_URL ?=

.PHONY: run test check bench bank clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# `make run` installs only what running needs (flask, gunicorn, numpy ...); `make test`
# adds the test extras (pytest, Playwright, import-linter ...), which cover running too.
$(VENV)/.installed-run: setup.cfg pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: setup.cfg pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed-run

# `bidder serve` runs gunicorn (see bidder.cli.serve.gunicorn_command and docs/serving.md):
# gevent workers, so slow and idle connections stall no one, and --reuse-port, so the kernel
# shares connections out between workers; it first makes sure no server listens on the
# port already. Without BIDDER_SECRET_KEY, a random key made once and kept in
# instance/secret-key signs the cookies, so a restart keeps every student's practice.
# On HOST=0.0.0.0 it prints the addresses phones in the room can use; PUBLIC_URL= names one.
run: $(VENV)/.installed-run
	$(VENV)/bin/bidder serve --host $(HOST) --port $(PORT) --workers $(WORKERS) $(if $(PUBLIC_URL),--public-url '$(PUBLIC_URL)')

# axe-core, for the accessibility checks of the browser tests, comes from npm.
tests/e2e/node_modules/.package-lock.json: tests/e2e/package.json tests/e2e/package-lock.json
	@if command -v npm >/dev/null 2>&1; then cd tests/e2e && npm ci --no-audit --no-fund --silent; \
	else echo "npm is not installed: the accessibility checks will skip (apt-get install npm)"; fi

# lint-imports holds the package to the layers written in setup.cfg ([importlinter]).
# The suite runs in pytest-xdist workers, half again as many as there are cores (JOBS=1
# runs it in one process): much of its time a test waits on other processes (Chromium, the
# checker in its containers, servers, a module's time limit), and the extra worker keeps
# the cores busy meanwhile. The workers take tests from each other as they finish, the
# coverage of all combined; it ends with the 25 slowest steps, to keep an eye on.
# Python's bytecode caches are written even where the environment says not to
# (PYTHONDONTWRITEBYTECODE, which some images set): without them each worker rewrites
# every test module's asserts and each process a test starts (the checker, a server)
# compiles bidder again from source.
TESTING := env -u PYTHONDONTWRITEBYTECODE $(PY)
CORES := $(shell nproc 2>/dev/null || echo 2)
JOBS ?= $(shell echo $$(( $(CORES) + ($(CORES) + 1) / 2 )))
test: $(VENV)/.installed-test tests/e2e/node_modules/.package-lock.json
	$(VENV)/bin/lint-imports
	$(TESTING) -m pytest --numprocesses $(JOBS) --dist worksteal --durations=25

# The loop to run while working, within a minute: the layers, the core's quick tests and
# those of the folder you work in (make check WHERE=tests/web/live), without coverage.
# Tests marked slow (a million hands sampled, a wheel built) wait for make test.
WHERE ?=
check: $(VENV)/.installed-test
	$(VENV)/bin/lint-imports
	$(TESTING) -m pytest --numprocesses auto --dist worksteal --no-cov -q -m "not slow" \
		$(sort $(wildcard tests/test_*.py) $(WHERE))

# The benches time bidder against their own plain reference, bench/reference_bid.py.
bench: $(VENV)/.installed-run
	$(PY) bench/bench_core.py
	$(PY) bench/bench_stats.py

# The diagnostic round's bank (bidder/diagnosis/bank.json.gz): rebuild it whenever the
# rules or the space of misreadings change (a test fails until then); 1-2 minutes.
bank: $(VENV)/.installed-run
	$(PY) -c 'from bidder.diagnosis.building import main; main()'

clean:
	rm -rf $(VENV) .coverage .pytest_cache .hypothesis
