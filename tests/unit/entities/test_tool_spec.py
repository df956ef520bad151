from pydantic_ai import RunContext

from decode.entities.deps import AgentDeps
from decode.entities.tools import ToolKind, ToolSpec


def count_lines(ctx: RunContext[AgentDeps], path: str) -> int:
    """Count the lines of a file.

    Args:
        path: The file, relative to the workspace.
    """
    return 0


def test_a_spec_becomes_a_pydantic_ai_tool_with_its_name_schema_and_retries() -> None:
    tool = ToolSpec("count", count_lines, ToolKind.READ_ONLY, max_retries=4).to_tool()
    assert tool.name == "count"
    assert tool.max_retries == 4
    definition = tool.tool_def
    assert definition.description is not None
    assert definition.description.startswith("Count the lines")
    assert definition.parameters_json_schema["required"] == ["path"]
    assert "ctx" not in definition.parameters_json_schema["properties"]


def test_kinds_are_the_permission_vocabulary() -> None:
    assert [kind.value for kind in ToolKind] == ["read-only", "file-edit", "other"]
