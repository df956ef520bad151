# decode: every routine task is a verb here. `make help` lists them.
#
# Commands run through uv in the project's .venv. uv is pointed at an installed Python >= 3.12
# (scripts/find-python) so it never needs to download one, which it cannot do offline.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

# Resolved once per `make` run, and not at all for `make help`, which must stay instant.
ifneq ($(filter-out help,$(or $(MAKECMDGOALS),help)),)
UV := $(or $(shell uv --version >/dev/null 2>&1 && echo uv),$(shell python3 -c 'import uv; print(uv.find_uv_bin())' 2>/dev/null),uv)
UV_PYTHON ?= $(shell scripts/find-python 2>/dev/null)
ifneq ($(UV_PYTHON),)
export UV_PYTHON
endif
endif

# `--locked`: fail if uv.lock is stale instead of silently re-locking.
RUN := $(UV) run --locked
# Three test processes on two cores: a fifth of the suite's time is spent waiting (a REPL in tmux,
# a server's grace period, a timeout a test is about), and a third worker fills it (ADR-0131).
WORKERS ?= 3
# Extra pytest arguments, e.g. `make unit-tests PYTEST_ARGS="-k settings -x"`.
PYTEST_ARGS ?=
# pytest-xdist: `loadscope` keeps a module's tests (and a notebook's cells) on one worker.
XDIST := -n $(WORKERS) --dist loadscope
NBVAL := --nbval --nbval-current-env

# The suite starts decode's own modules in hundreds of processes (a REPL in tmux, a CLI beside MCP
# servers). Where PYTHONDONTWRITEBYTECODE is set none of them writes the bytecode cache, so each
# would compile every module it imports: they are compiled once, first, as `make install` compiles
# the dependencies'. py_compile writes whatever that variable says. Only decode/: elsewhere
# are folders the tests copy whole (benchmark tasks, fixtures), which must hold only their own files.
define bytecode
	@$(RUN) python -m compileall -q -j 0 decode >/dev/null
endef

# pytest exits 5 when it collected nothing: say so plainly, a suite that runs nothing is a failure.
define pytest
	@echo "$(RUN) pytest $(strip $(1) $(PYTEST_ARGS))"
	@$(RUN) pytest $(1) $(PYTEST_ARGS) || { rc=$$?; if [ $$rc -eq 5 ]; then \
	  echo "make: pytest ran no tests (exit 5): is a path missing, or the suite empty?" >&2; fi; exit $$rc; }
endef

.PHONY: help install hooks test unit-tests integration-tests notebooks lock-check lint-check lint-fix \
	format-check format-fix type-check sync-check markers-check lesson-start lesson-check check lab bench pre-commit ci \
	lesson-snapshot lesson-diff lesson-notebook lesson-repl lesson-shell sandbox-image kitaru-local kitaru-stop \
	eval-verify eval-benchmark eval-smoke eval-regression eval-judge eval-harbor-check mcp-reference-servers

help: ## Show this list
	@echo "usage: make VERB   (the project's tools run from .venv through uv)"
	@echo
	@awk 'BEGIN {FS = ":.*## "} /^[a-z][a-z-]*:.*## / {printf "  %-18s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# --compile-bytecode: `decode` then starts from .pyc files instead of compiling every module it
# imports, which is most of its start-up wherever PYTHONDONTWRITEBYTECODE is set (see evals/perf).
# CI installs with BYTECODE_AT_INSTALL= and lets Python write each module's bytecode when it is
# first imported: the suite imports about a third of the dependencies' files (ADR-0134).
BYTECODE_AT_INSTALL ?= --compile-bytecode
install: ## Install uv if missing, then the locked dependencies (with the dev group) into .venv
	@uv_bin=$$(scripts/ensure-uv) && "$$uv_bin" sync --locked --all-extras $(BYTECODE_AT_INSTALL)

# The official npm MCP servers the reference-server tests run, at the versions (and hashes) of
# tests/integration/mcp/reference/package-lock.json, in .cache/ (the test installs them itself when missing).
MCP_REFERENCE := .cache/mcp-reference-servers
mcp-reference-servers: ## Install the npm MCP reference servers the tests run (pinned) into .cache/ (needs node, npm)
	@mkdir -p $(MCP_REFERENCE)
	@cp tests/integration/mcp/reference/package.json tests/integration/mcp/reference/package-lock.json $(MCP_REFERENCE)/
	cd $(MCP_REFERENCE) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error

hooks: ## Install the git hooks of .pre-commit-config.yaml (commit: format, lint, pairs; push: unit tests)
	$(RUN) pre-commit install --hook-type pre-commit --hook-type pre-push

# --durations=20: the 20 slowest tests close the report, so a test that grew slow is seen.
test: ## Run the whole suite: unit + integration tests and every lesson notebook (offline); the 20 slowest
	$(bytecode)
	$(call pytest,$(XDIST) --durations=20 tests lessons $(NBVAL))

unit-tests: ## Run the unit tests (tests/unit)
	$(call pytest,$(XDIST) tests/unit)

integration-tests: ## Run the integration tests: real CLI processes, loopback servers, git (tests/integration)
	$(call pytest,$(XDIST) tests/integration)

notebooks: ## Execute every lesson notebook under nbval and compare its outputs
	$(call pytest,$(XDIST) lessons $(NBVAL))

.PHONY: notebooks-load
notebooks-load: ## Run notebooks under two CPU burners, one at a time, and count the green runs (N="14 23" RUNS=10)
	scripts/notebooks-under-load -r $(or $(RUNS),10) $(N)

lock-check: ## Check that uv.lock matches pyproject.toml
	$(UV) lock --check

lint-check: ## Lint with ruff
	$(RUN) ruff check .

lint-fix: ## Lint with ruff and apply the safe fixes
	$(RUN) ruff check --fix .

format-check: ## Check formatting with ruff
	$(RUN) ruff format --check .

format-fix: ## Format with ruff
	$(RUN) ruff format .

sync-check: ## Check that every lesson's .py and .ipynb hold the same cells
	$(RUN) python scripts/check_notebook_pairs.py

type-check: ## Type-check the package with ty
	$(RUN) ty check decode

markers-check: ## Check the lesson markers in decode/ and each lesson.toml's `extends` against them
	$(RUN) python scripts/lesson check

check: lock-check format-check lint-check type-check sync-check markers-check ## All static checks: lock, format, lint, types, notebook pairs, lesson markers

# The package as it stands after lesson N, from the one source tree (scripts/lesson, ADR-0003).
LESSON_DIR ?= $(if $(DIR),$(DIR),.lessons/$(N))
define need-lesson
	@test -n "$(N)" || { echo "make: say which lesson, e.g. make $@ N=04" >&2; exit 2; }
endef

lesson-snapshot: ## Write decode/ as of lesson N into DIR/decode (default .lessons/N): make lesson-snapshot N=04
	$(need-lesson)
	@rm -rf "$(LESSON_DIR)/decode" "$(LESSON_DIR)/evals"
	@$(RUN) python scripts/lesson snapshot $(N) "$(LESSON_DIR)"

lesson-diff: ## Show what lesson N adds to lesson N-1's package: make lesson-diff N=04
	$(need-lesson)
	@$(RUN) python scripts/lesson diff $(N)

# The build-along track (ADR-0121): your copy of lesson N's package in DIR (default build/NN, ignored by git).
lesson-start: ## Write lesson N's package with the functions it teaches left for you to write: make lesson-start N=02 [DIR=...]
	$(need-lesson)
	@$(RUN) python scripts/lesson start $(N) $(if $(DIR),"$(DIR)")

lesson-check: ## Run lesson N's track tests on your copy and say what is still missing: make lesson-check N=02 [DIR=...]
	$(need-lesson)
	@$(RUN) python scripts/lesson track-check $(N) $(if $(DIR),"$(DIR)")

lesson-notebook: ## Run lesson N's notebook against its package and save the outputs: make lesson-notebook N=04
	$(need-lesson)
	$(RUN) python scripts/lesson execute $(N)

lesson-repl: lesson-snapshot ## Start the decode REPL of lesson N's package (from 03): make lesson-repl N=03 ARGS="--model script:t.json"
	@# -P: `python -m` would put this folder, and so the finished decode/, ahead of PYTHONPATH.
	@PYTHONPATH="$(abspath $(LESSON_DIR))" $(RUN) python -P -m decode $(ARGS)

# Lesson N's decode where you type: a shell in a scratch folder whose `decode` and `python` are the
# package after lesson N (scripts/lesson_shell.py). CMD reaches bash as written: $(value) keeps its `$`.
lesson-shell: ## A shell whose decode and python are lesson N's package: make lesson-shell N=05 (CMD='…' runs that)
	$(need-lesson)
	@LESSON_CMD='$(subst ','"'"',$(value CMD))'; $(RUN) python scripts/lesson shell $(N) $(if $(SNAPSHOTS),--snapshots "$(SNAPSHOTS)") $(if $(value CMD),-c "$$LESSON_CMD")

# JupyterLab refuses to run as root without --allow-root; containers and CI machines often are root.
lab: ## Open the lessons in JupyterLab, each notebook on its own lesson's package (N=04: all on lesson 04's)
	$(RUN) python scripts/lesson lab $(if $(N),--lesson $(N)) -- $(if $(filter 0,$(shell id -u)),--allow-root) $(LAB_ARGS)

bench: ## Run the performance benchmarks of evals/perf (tables also go to evals/perf/results/)
	$(RUN) python evals/perf/run.py $(BENCH_ARGS)

eval-verify: ## Prove every benchmark task: its solution (run in bubblewrap) scores 1, its seed 0
	$(RUN) python -m evals verify $(ARGS)

eval-benchmark: ## Run decode on the benchmark tasks (ARGS='--model M --difficulty easy --trials 3'); evals/results/
	$(RUN) python -m evals benchmark $(ARGS)

eval-regression: ## Behaviour regression cases on a model (ARGS='--model M --cases a,b'); skips without a key
	$(RUN) python -m evals regression $(ARGS)

eval-smoke: ## The benchmark pipeline offline on scripted models: one task solved, one failed (no key)
	$(RUN) python -m evals smoke $(ARGS)

eval-harbor-check: ## The Harbor adapter against Harbor's real classes, in a throwaway env that has harbor (CI runs it)
	$(RUN) --with harbor==0.26.0 pytest -p no:cacheprovider -q tests/evals/test_harbor_agent.py tests/evals/test_harbor_tasks.py

eval-judge: ## The LLM judge over the regression cases' assertions (ARGS='--model M'); skips without a key
	$(RUN) python -m evals judge $(ARGS)

sandbox-image: ## Build the Docker sandbox's image offline from this machine's programs (TAG=decode-sandbox:latest)
	$(RUN) python scripts/sandbox-image $(if $(TAG),--tag $(TAG))

# No Docker: the system's PostgreSQL and kitaru[server] under .decode/kitaru/ (docs/recording.md).
kitaru-local: ## Start a local Kitaru server (PostgreSQL, server, worker) and print its .env lines; again: reuse it
	$(RUN) python scripts/kitaru-local start

kitaru-stop: ## Stop the local Kitaru server, its worker and its PostgreSQL
	$(RUN) python scripts/kitaru-local stop

pre-commit: ## Run every pre-commit hook (commit and push stages) on every file
	$(RUN) pre-commit run --all-files --hook-stage pre-commit
	$(RUN) pre-commit run --all-files --hook-stage pre-push

ci: check eval-verify eval-smoke eval-harbor-check test ## What CI runs: the static checks, the evals proofs, then the whole test suite
