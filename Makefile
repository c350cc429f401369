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

run: $(VENV)/.installed
	$(VENV)/bin/gunicorn --workers $(WORKERS) --bind $(HOST):$(PORT) 'bidder.web:create_app()'

test: $(VENV)/.installed
	$(PY) -m pytest

bench: $(VENV)/.installed
	$(PY) bench/bench_core.py

clean:
	rm -rf $(VENV) .coverage .pytest_cache .hypothesis
