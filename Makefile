# Two commands a newcomer needs: `make run` and `make test`. Both build .venv themselves.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: lock run demo test lint typecheck pytest pgtest clustertest cluster bench clean web e2e-setup

# The extras `make` installs. Their packages are pinned with hashes in requirements/lock.txt:
# after changing this line or an extra in pyproject.toml, run `make lock` (scripts/lock.sh).
EXTRAS := dev,bench,server,tui,charts,rl,openspiel,cluster

$(BIN)/python:
	$(PY) -m venv $(VENV)

# pip, then every package from the lock, hash-checked; then paiju itself, built by the
# locked hatchling (no unpinned build environment), which compiles the encoders' C module
# (hatch_build.py)
$(STAMP): $(BIN)/python pyproject.toml requirements/pip.txt requirements/lock.txt hatch_build.py src/paiju/rl/_cencode.c
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements/pip.txt
	$(BIN)/pip install --quiet --require-hashes -r requirements/lock.txt
	$(BIN)/pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

# refresh the lock (keeps pins; `scripts/lock.sh --upgrade` takes the newest releases)
lock:
	EXTRAS=$(EXTRAS) scripts/lock.sh

# The main job: the game server with the browser client on http://127.0.0.1:8000
# (SQLite under ./data). `make demo` is the command-line tour of engine and calculator.
run: $(STAMP) web
	mkdir -p data
	$(BIN)/paiju serve

demo: $(STAMP)
	mkdir -p data
	$(BIN)/paiju simulate jiaxing --games 1 --seed 1 --bots greedy --record data/jiaxing-match.jsonl
	$(BIN)/paiju replay data/jiaxing-match.jsonl
	$(BIN)/paiju score examples/jiaxing-score.json

lint: $(STAMP)
	$(BIN)/ruff check src tests hatch_build.py
	$(BIN)/ruff format --check src tests hatch_build.py

typecheck: $(STAMP)
	$(BIN)/mypy --strict src

pytest: $(STAMP)
	$(BIN)/pytest

# the storage tests once more on a throwaway PostgreSQL (about 5 s)
pgtest: $(STAMP)
	scripts/postgres-test.sh

# the cluster tests on a throwaway Redis and PostgreSQL (tests/server/cluster)
clustertest: $(STAMP)
	scripts/cluster-test.sh

# Redis, PostgreSQL and two nodes on loopback (ports 8001, 8002; logs in run/cluster/)
cluster: $(STAMP) web
	scripts/cluster.sh

# the browser client, built into web/dist with npm (the server serves it at /)
web:
	cd web && npm ci --no-audit --no-fund --loglevel=error && npm run build

# for the browser tests in tests/e2e: Debian chromium + a CJK font (apt-get, if missing), the
# client built; then the client's own unit tests (vitest)
e2e-setup:
	scripts/e2e-setup.sh
	cd web && npm test --silent

test: lint typecheck e2e-setup pytest pgtest clustertest

bench: $(STAMP)
	$(BIN)/paiju bench

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
