import importlib
import json
import subprocess
import sys
from pathlib import Path

import click
from click.testing import CliRunner

from decode import __version__
from decode.cli import COMMANDS, _commands, cli

# Top-level packages `decode --version` and `--help` must not import (each costs 20-2000 ms).
HEAVY = {"pydantic", "pydantic_ai", "pydantic_settings", "openai", "google", "httpx", "prompt_toolkit", "rich"}
# What a first request needs none of with no MCP server configured and no provider SDK in use.
MCP_STACK_AND_SDKS = {"mcp", "mcp_types", "fastmcp", "openai", "google", "anthropic", "groq", "mistralai", "cohere"}


def _modules_after(args: list[str], cwd: Path | None = None) -> set[str]:
    code = (
        "import sys\n"
        "from decode.cli import cli\n"
        "try:\n"
        f"    cli({args!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('\\n'.join(sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, check=True)
    return set(done.stdout.split())


def test_version() -> None:
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"decode {__version__}"


def test_help_lists_every_subcommand_with_its_one_liner() -> None:
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    assert {"run", "permissions", "sessions", "mcp", "agents", "remote", "replay"} <= set(_commands())
    for name, (_, short_help) in _commands().items():
        assert name in result.output
        assert short_help.rstrip(".") in result.output


def test_each_module_of_decode_commands_is_the_subcommand_of_its_name() -> None:
    modules = sorted(path.stem for path in COMMANDS.glob("*.py") if not path.name.startswith("_"))
    assert modules
    for name in modules:
        target, short_help = _commands()[name]
        module_name, attribute = target.split(":")
        module = importlib.import_module(module_name)
        command = getattr(module, attribute)
        assert isinstance(command, click.Command)
        assert command.name == name
        assert short_help == (module.__doc__ or "").splitlines()[0]


def test_version_and_help_import_no_heavy_library() -> None:
    for args in (["--version"], ["--help"]):
        heavy = {name for name in _modules_after(args) if name.split(".")[0] in HEAVY}
        assert not heavy, f"{args} imported {sorted(heavy)[:5]}"


def test_run_on_the_scripted_model_imports_no_mcp_client_and_no_provider_sdk(tmp_path: Path) -> None:
    script = tmp_path / "hello.json"
    script.write_text(json.dumps([{"text": "Hello."}]), encoding="utf-8")

    modules = _modules_after(["run", "--model", f"script:{script}", "hi"], cwd=tmp_path)

    assert "pydantic_ai.agent" in modules  # the run did reach the agent
    loaded = {name for name in modules if name.split(".")[0] in MCP_STACK_AND_SDKS}
    assert not loaded, f"decode run imported {sorted(loaded)[:5]}"


def test_unknown_subcommand_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["fly"])
    assert result.exit_code == 2
    assert "No such command" in result.output


def test_subcommand_help_imports_the_command() -> None:
    result = CliRunner().invoke(cli, ["run", "--help"])
    assert result.exit_code == 0
    assert "--max-requests" in result.output


def test_python_dash_m_decode_is_the_same_command() -> None:
    done = subprocess.run([sys.executable, "-m", "decode", "--version"], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == f"decode {__version__}"


def test_jsonschema_builds_no_parser_when_imported() -> None:
    # decode imports jsonschema for an MCP tool's output schema and for --json-schema. Its optional
    # rfc3987-syntax (pulled in by `jsonschema[format-nongpl]`) compiles a Lark grammar on import:
    # ~1.1 s of CPU in each such decode. The lock overrides that extra away (ADR-0134).
    code = "import sys, jsonschema.validators; print('\\n'.join(sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert not {"lark", "rfc3987_syntax"} & set(done.stdout.split())
