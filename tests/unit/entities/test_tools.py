"""What a tool declares: its kind, its traits, its spec."""

from typing import Any

import pytest
from pydantic_ai import RunContext

from decode.entities.deps import AgentDeps
from decode.entities.tools import (
    TRAITS_KEY,
    UNDECLARED,
    ToolKind,
    ToolSpec,
    ToolTraits,
    traits_metadata,
    traits_of,
)

# Traits as the tools declare them (decode/tools/*.py); the entities know no tool.
BASH = ToolTraits(ToolKind.OTHER, rules=("Bash",), command="command")
READ = ToolTraits(ToolKind.READ_ONLY, rules=("Read",), path="path")
GLOB = ToolTraits(ToolKind.READ_ONLY, rules=("Glob", "Read"), path="path", pattern="pattern", searches=True)
FETCH = ToolTraits(ToolKind.OTHER, rules=("WebFetch",), url="url")


def count_lines(ctx: RunContext[AgentDeps], path: str) -> int:
    """Count the lines of a file.

    Args:
        path: The file, relative to the workspace.
    """
    return 0


def test_kinds_are_the_permission_vocabulary() -> None:
    assert [kind.value for kind in ToolKind] == ["read-only", "file-edit", "side-effect-free", "other"]


@pytest.mark.parametrize(
    ("traits", "args", "argument"),
    [
        (BASH, {"command": "pytest -q"}, "pytest -q"),
        (READ, {"path": "src/a.py"}, "src/a.py"),
        (FETCH, {"url": "https://example.com/a"}, "https://example.com/a"),
        # A glob looks where the fixed start of its pattern says, from `path`.
        (GLOB, {"pattern": "../../**/*.pem"}, "../.."),
        (GLOB, {"pattern": "*.py", "path": "src"}, "src"),
        (GLOB, {"pattern": "tests/unit/**/test_*.py", "path": "."}, "tests/unit"),
        (GLOB, {"pattern": "docs/[ab]*/x.md", "path": "src/.."}, "docs"),
        (GLOB, {"pattern": "/etc/**/*.conf", "path": "src"}, "/etc"),  # an absolute start wins
        (GLOB, {"pattern": "**/*.py"}, "."),
        # What is not a string names nothing: no command, the working directory for a path.
        (BASH, {"command": ["rm", "-rf", "/"]}, None),
        (BASH, {}, None),
        (READ, {"path": 3}, "."),
        (READ, {}, "."),
        (GLOB, {"pattern": 7, "path": "src"}, "src"),
        (UNDECLARED, {"path": "a.py"}, None),
    ],
)
def test_the_argument_rules_talk_about(traits: ToolTraits, args: dict[str, Any], argument: str | None) -> None:
    assert traits.argument(args) == argument


@pytest.mark.parametrize("field", ["path", "url", "command"])
def test_a_tool_that_takes_a_path_url_or_command_must_name_its_rules(field: str) -> None:
    with pytest.raises(ValueError, match="must name the rules"):
        ToolTraits(ToolKind.READ_ONLY, **{field: "x"})
    assert ToolTraits(ToolKind.SIDE_EFFECT_FREE).rules == ()  # taking none of them, it may name none


def test_undeclared_traits_are_other_and_named_by_no_rule() -> None:
    assert (UNDECLARED.kind, UNDECLARED.rules) == (ToolKind.OTHER, ())


def test_a_spec_becomes_a_pydantic_ai_tool_with_its_name_schema_and_retries() -> None:
    tool = ToolSpec("count", count_lines, READ, max_retries=4).to_tool()
    assert tool.name == "count"
    assert tool.max_retries == 4
    definition = tool.tool_def
    assert definition.description is not None
    assert definition.description.startswith("Count the lines")
    assert definition.parameters_json_schema["required"] == ["path"]
    assert "ctx" not in definition.parameters_json_schema["properties"]


def test_the_traits_travel_in_the_tool_definition_metadata() -> None:
    spec = ToolSpec("count", count_lines, READ)
    assert spec.max_retries == 2
    assert traits_metadata(spec) == {TRAITS_KEY: READ}
    assert traits_of(spec.to_tool().tool_def.metadata) is READ


@pytest.mark.parametrize("metadata", [None, {}, {"other": 1}, {TRAITS_KEY: "read-only"}])
def test_metadata_without_traits_gives_undeclared(metadata: dict[str, Any] | None) -> None:
    assert traits_of(metadata) is UNDECLARED
