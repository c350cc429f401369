# The two commands a newcomer needs: `make run` serves the app, `make test` runs the tests.
# Both create .venv and install what they need on a fresh machine.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 5000
WORKERS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: run test bench clean

$(VENV)/.installed: setup.cfg pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

# Threads let a worker serve others while a browser holds a spare connection open idle.
# Without BIDDER_SECRET_KEY, a fresh random key signs the cookies of this run.
run: $(VENV)/.installed
	BIDDER_SECRET_KEY="$${BIDDER_SECRET_KEY:-$$($(PY) -c 'import secrets; print(secrets.token_hex())')}" \
	$(VENV)/bin/gunicorn --workers $(WORKERS) --threads 4 --bind $(HOST):$(PORT) 'bidder.web:create_app()'

# axe-core, for the accessibility checks of the browser tests, comes from npm.
tests/e2e/node_modules/.package-lock.json: tests/e2e/package.json tests/e2e/package-lock.json
	@if command -v npm >/dev/null 2>&1; then cd tests/e2e && npm ci --no-audit --no-fund --silent; \
	else echo "npm is not installed: the accessibility checks will skip (apt-get install npm)"; fi

test: $(VENV)/.installed tests/e2e/node_modules/.package-lock.json
	$(PY) -m pytest

bench: $(VENV)/.installed
	$(PY) bench/bench_core.py
	$(PY) bench/bench_stats.py

clean:
	rm -rf $(VENV) .coverage .pytest_cache .hypothesis
