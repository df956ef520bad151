"""Write `.env.example` from the settings themselves: `python scripts/env_example.py [--check]`.

Each field of `decode.config.settings.Settings` (its own, then those of each lesson's group in
`decode/config/groups/`, in the order of the lessons) becomes a commented-out `NAME=default` line under
its docstring, so the example can never miss a setting or describe it differently from the code.
With `--check`, nothing is written: the exit code says whether `.env.example` is current.
"""

import ast
import inspect
import sys
from pathlib import Path
from typing import Literal, get_args, get_origin

from pydantic import AliasChoices
from pydantic.fields import FieldInfo

from decode.config.project_env import USER_ONLY
from decode.config.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / ".env.example"

HEADER = """\
# decode's settings. Copy this file to .env (git-ignored) and uncomment what you need.
# Priority, highest first: command-line options, environment variables, .env, the defaults shown.
# Settings marked "not read from .env" are yours alone: a repository's .env could otherwise start
# programs or send your work away (docs/adr/0068), so set those in your shell's environment.
# Keys are secrets: decode never puts them in a prompt, a log line or a command the agent runs.
# Generated from decode/config/settings.py and decode/config/groups/ by `python scripts/env_example.py`:
# edit the docstrings there.
"""


def field_docs(cls: type) -> dict[str, str]:
    """The docstring written under each annotated attribute of `cls` and of the settings groups it
    inherits (PEP 257 attribute docstrings)."""
    docs: dict[str, str] = {}
    for klass in cls.__mro__:
        if klass.__module__.startswith("decode."):
            docs = own_field_docs(klass) | docs
    return docs


def own_field_docs(cls: type) -> dict[str, str]:
    """The docstring under each annotated attribute in the body of `cls` itself."""
    body = ast.parse(inspect.getsource(cls)).body[0]
    assert isinstance(body, ast.ClassDef)
    docs: dict[str, str] = {}
    for statement, following in zip(body.body, body.body[1:], strict=False):
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docs[statement.target.id] = inspect.cleandoc(following.value.value)
    return docs


def env_names(name: str, field: FieldInfo) -> list[str]:
    """The environment variables a field is read from, the preferred one first."""
    alias = field.validation_alias
    if isinstance(alias, AliasChoices):
        return [str(choice) for choice in alias.choices]
    return [str(alias or name).upper()]


def default_text(field: FieldInfo) -> str:
    value = field.get_default(call_default_factory=True)
    return "" if value is None else str(value)


def render() -> str:
    docs = field_docs(Settings)
    blocks = [HEADER]
    own = Settings.__annotations__  # the settings every part reads first, then each lesson's group
    fields = sorted(Settings.model_fields.items(), key=lambda item: item[0] not in own)
    for name, field in fields:
        names = env_names(name, field)
        lines = [f"# {line}" if line else "#" for line in docs.get(name, name.replace("_", " ")).splitlines()]
        if get_origin(field.annotation) is Literal:
            lines.append(f"# One of: {', '.join(str(choice) for choice in get_args(field.annotation))}.")
        if len(names) > 1:
            lines.append(f"# Also read as {', '.join(names[1:])}.")
        if isinstance(field.json_schema_extra, dict) and USER_ONLY in field.json_schema_extra:
            lines.append(f"# Not read from .env (it {field.json_schema_extra[USER_ONLY]}): export it in your shell.")
        lines.append(f"# {names[0]}={default_text(field)}")
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


def main() -> int:
    text = render()
    if "--check" in sys.argv[1:]:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != text:
            print(".env.example is out of date: run `python scripts/env_example.py`", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)} ({len(Settings.model_fields)} settings)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
