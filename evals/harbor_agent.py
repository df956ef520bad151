"""Run decode under Harbor itself, on the same tasks as `python -m evals benchmark`.

    uv build                                   # dist/decode-<version>-py3-none-any.whl
    harbor run -p evals/tasks -a evals.harbor_agent:DecodeAgent -m google-gla:gemini-flash-latest \\
        --ak wheel=dist/decode-0.1.0-py3-none-any.whl --ae GEMINI_API_KEY="$GEMINI_API_KEY"

Harbor (https://github.com/harbor-framework/harbor, `pip install harbor`) builds each task's
`environment/Dockerfile` and runs the agent in that container: under Docker, or in a cloud
environment with `-e modal -n 32` (32 trials at once; docs/evals-at-scale.md). `-a` takes this
`module:Class` import path (older Harbor releases spelled it `--agent-import-path`). The agent
uses only Harbor's environment API (upload, exec), so it runs in any of them.

`DecodeAgent` installs decode in the container: from a wheel uploaded from this machine
(`--ak wheel=PATH`: works offline once pip can reach an index for the dependencies, and tests
exactly the code you built), else from `--ak source=REQUIREMENT` (anything pip accepts, e.g.
`git+https://…/decode.git@main`). It then runs `decode run --output-format json
--permission-mode bypass --model MODEL "<instruction>"` in the task's workdir, passes the
provider keys through, and fills Harbor's context (tokens, cost) from decode's JSON result.
"""

import json
import logging
import os
import shlex
from pathlib import Path, PurePosixPath
from typing import override

from harbor.agents.installed.base import BaseInstalledAgent, with_prompt_template
from harbor.agents.options import InstalledAgentOptions
from harbor.environments.base import BaseEnvironment
from harbor.models.agent.context import AgentContext
from pydantic import Field

from evals.benchmark.trial import PROVIDER_VARIABLES

log = logging.getLogger(__name__)

# The settings decode reads (decode/config/settings.py) passed through when set, besides the keys of
# the model's own provider (PROVIDER_VARIABLES): another provider's key never enters the container.
PASSED_ENV = ("DECODE_MAX_REQUESTS", "DECODE_REQUEST_TIMEOUT")
VENV = "/opt/decode-venv"
"""Where decode is installed in the container: its own venv, apart from the task's Python."""
RESULT_FILE = "decode-result.json"
"""decode's JSON result, written under Harbor's agent log folder (synced back to the host)."""


class DecodeOptions(InstalledAgentOptions):
    """`--ak key=value` options of `DecodeAgent`."""

    wheel: str | None = Field(default=None, description="A local decode wheel (built by `uv build`) to install.")
    source: str | None = Field(default=None, description="A pip requirement for decode when no wheel is given.")
    max_requests: int = Field(default=50, ge=1, description="decode's request ceiling (--max-requests).")


class DecodeAgent(BaseInstalledAgent):
    """Harbor's installed agent for decode (see the module docstring for the command line)."""

    options_model = DecodeOptions

    @staticmethod
    @override
    def name() -> str:
        return "decode"

    @property
    def decode_options(self) -> DecodeOptions:
        options = self.options
        assert isinstance(options, DecodeOptions)
        return options

    @override
    def get_version_command(self) -> str | None:
        return f"{VENV}/bin/decode --version"

    def install_command(self, requirement: str) -> str:
        """The shell command that puts decode (`requirement`: a wheel path or pip spec) in its venv."""
        return (
            f"python3 -m venv {VENV} && {VENV}/bin/pip install --quiet {shlex.quote(requirement)}"
            f" && ln -sf {VENV}/bin/decode /usr/local/bin/decode"
        )

    def install_source(self) -> tuple[Path | None, str]:
        """What to install: (a local wheel to upload first, or None; the requirement pip gets)."""
        options = self.decode_options
        if options.wheel:
            wheel = Path(options.wheel)
            if not wheel.is_file():
                raise FileNotFoundError(f"decode wheel not found: {wheel} (build one with `uv build`)")
            return wheel, f"/installed-agent/{wheel.name}"
        if options.source:
            return None, options.source
        raise ValueError("DecodeAgent needs --ak wheel=PATH (from `uv build`) or --ak source=REQUIREMENT")

    @override
    async def install(self, environment: BaseEnvironment) -> None:
        await self.ensure_system_dependencies(environment, ("git", "python3", "python_venv"))
        wheel, requirement = self.install_source()
        if wheel is not None:
            await environment.upload_file(wheel, requirement)
        await self.exec_as_root(environment, command=self.install_command(requirement))

    def run_command(self, instruction: str) -> str:
        """The shell command that runs decode headless on `instruction` and keeps its JSON result."""
        if not self.model_name:
            raise ValueError("DecodeAgent needs a model: harbor run … -m MODEL (a decode model string)")
        result = PurePosixPath(self.environment_logs_dir) / RESULT_FILE
        argv = [
            "decode",
            "run",
            "--output-format",
            "json",
            "--permission-mode",
            "bypass",
            "--max-requests",
            str(self.decode_options.max_requests),
            "--model",
            self.model_name,
            instruction,
        ]
        # The container is the sandbox: decode's own commands run in it directly (--sandbox none,
        # the default). A failed run still exits 0 here so that Harbor grades the workspace; decode's
        # exit code is in the result (and in the context's metadata).
        # stdin from /dev/null: nothing goes with the task (`decode run` appends a piped stdin to it).
        return f'{shlex.join(argv)} > {shlex.quote(str(result))} < /dev/null || echo "decode exited with $?" >&2'

    def run_env(self, environ: dict[str, str]) -> dict[str, str]:
        """The environment of the run: the model's provider variables in `environ`, and `PASSED_ENV`."""
        provider = (self.model_name or "").split(":", 1)[0]
        names = (*PROVIDER_VARIABLES.get(provider, ()), *PASSED_ENV)
        return {key: environ[key] for key in names if environ.get(key)}

    @override
    @with_prompt_template
    async def run(self, instruction: str, environment: BaseEnvironment, context: AgentContext) -> None:
        env = self.run_env({**os.environ, **self._extra_env})
        await self.exec_as_agent(environment, command=self.run_command(instruction), env=env)

    @override
    def populate_context_post_run(self, context: AgentContext) -> None:
        path = self.logs_dir / RESULT_FILE
        try:
            result = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as error:
            log.warning("no decode result to read at %s: %s", path, error)
            return
        fill_context(context, result)


def fill_context(context: AgentContext, result: dict) -> None:
    """Copy tokens, cost and the session of decode's JSON `result` into Harbor's `context`."""
    usage = result.get("usage") or {}
    context.n_input_tokens = usage.get("input_tokens")
    context.n_output_tokens = usage.get("output_tokens")
    context.cost_usd = result.get("cost_usd")
    context.metadata = {
        key: result.get(key) for key in ("session_id", "num_requests", "exit_code", "error", "duration_s")
    }
