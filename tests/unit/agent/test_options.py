"""`LoopOptions` and `Conversation`: what a front end asks for, in a module the REPL imports cold."""

import dataclasses
import subprocess
import sys

from decode.agent.options import LoopOptions
from decode.cli import cli

HEAVY = ("pydantic", "pydantic_ai", "pydantic_settings", "openai", "httpx")


def test_the_options_module_imports_nothing_heavy() -> None:
    # The REPL holds its LoopOptions while it draws the prompt, before the warm-up imports pydantic-ai.
    code = "import sys, decode.agent.options; print('\\n'.join(sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    loaded = {name.split(".")[0] for name in done.stdout.split()}
    assert loaded.isdisjoint(HEAVY), sorted(loaded & set(HEAVY))


def test_every_repl_option_of_the_command_line_is_a_loop_options_field() -> None:
    # `decode --foo` reaches the loop as `LoopOptions.foo`: the CLI hands its options over whole.
    fields = {field.name for field in dataclasses.fields(LoopOptions)}
    options = {param.name for param in cli.params if param.name not in ("version", "help")}
    assert options, "the REPL has options"
    assert options <= fields, sorted(options - fields)


def test_the_settings_are_not_an_option() -> None:
    # A front end says what it wants before any settings are read; `build_loop` takes them apart.
    assert "settings" not in {field.name for field in dataclasses.fields(LoopOptions)}
