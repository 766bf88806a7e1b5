# Two commands set everything up on a fresh machine: `make run` and `make test`.
# The virtual environment is rebuilt only when requirements.lock or pyproject.toml change.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
ARGS ?=
# -n auto: pytest-xdist runs the suite on one worker per core (the tests share no settings
# folder, temp path or port); --durations: the slowest tests, where `make test`'s time goes.
PYTEST_ARGS ?= -n auto --dist worksteal --durations=20
export QT_API := pyside6

.PHONY: run test bench screenshots lint lock clean setup translations

setup: $(STAMP)

$(STAMP): requirements.lock pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.lock
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	@touch $(STAMP)

run: $(STAMP)
	$(PY) main.py $(ARGS)

# compileall: the bytecode a wheel install has (pip compiles it), also where the environment
# sets PYTHONDONTWRITEBYTECODE; every test's and bench's subprocess then starts without
# compiling our modules again. A file changed since is recompiled in memory, never run stale.
test: $(STAMP)
	@$(PY) -m compileall -q tensorviz >/dev/null
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest $(PYTEST_ARGS)

# The bench extra (torchviz, pinned in requirements-bench.lock) and Debian's graphviz (`dot`) are
# the anchors of bench/graph.py; without them it prints our figures only. The extra goes into its
# own folder inside .venv (bench/graph.py puts it on sys.path), so the environment `make test`
# sees stays exactly requirements.lock.
BENCH_PACKAGES := $(VENV)/bench-packages

bench: $(STAMP)
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --upgrade \
		--target $(BENCH_PACKAGES) -r requirements-bench.lock \
		|| echo "bench: could not install requirements-bench.lock (torchviz anchor unavailable)"
	@command -v dot >/dev/null || { test "$$(id -u)" = 0 \
		&& { apt-get install -y graphviz || { apt-get update && apt-get install -y graphviz; }; } \
		|| echo "bench: no graphviz dot and not root (dot anchor unavailable)"; }
	@$(PY) -m compileall -q tensorviz >/dev/null
	QT_QPA_PLATFORM=offscreen $(PY) bench/run_all.py

screenshots: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m tensorviz.ui.window.screenshot_tour docs/screenshots

# Translations (tools/translations.py): the UI's texts through Qt (.ts → .qm), core's and the
# CLI's through gettext (.po → .mo), one catalogue per area; the compiled files are committed.
translations: $(STAMP)
	$(PY) tools/translations.py update compile

lint: $(STAMP)
	$(PY) -m ruff check .
	$(VENV)/bin/lint-imports
	$(PY) -m ruff format --check .

# Re-pin the lock from a scratch environment (run make test afterwards).
lock:
	rm -rf /tmp/tensorviz-lock && $(PYTHON) -m venv /tmp/tensorviz-lock
	/tmp/tensorviz-lock/bin/pip install --quiet torch==2.13.0 -e '.[test]'
	/tmp/tensorviz-lock/bin/pip freeze --exclude-editable | sed 's/+cpu$$//'

clean:
	rm -rf $(VENV) build dist .pytest_cache .ruff_cache
