"""The tool catalog: the default tools, their kinds, and what the model is told about them."""

from pydantic_ai import Agent
from pydantic_ai.models.test import TestModel

from decode.entities.tools import ToolKind
from decode.tools.catalog import default_tools


def test_the_default_tools_and_their_kinds() -> None:
    kinds = {spec.name: spec.traits.kind for spec in default_tools()}
    assert kinds == {
        "read": ToolKind.READ_ONLY,
        "glob": ToolKind.READ_ONLY,
        "grep": ToolKind.READ_ONLY,
        "edit": ToolKind.FILE_EDIT,
        "write": ToolKind.FILE_EDIT,
        "bash": ToolKind.OTHER,
        "web_fetch": ToolKind.OTHER,
        "todo_write": ToolKind.SIDE_EFFECT_FREE,
        "ask_user": ToolKind.SIDE_EFFECT_FREE,
        "exit_plan_mode": ToolKind.SIDE_EFFECT_FREE,
        "lsp": ToolKind.READ_ONLY,
    }


def test_only_exit_plan_mode_is_for_plan_mode_alone() -> None:
    assert [spec.name for spec in default_tools() if spec.traits.plan_only] == ["exit_plan_mode"]


async def test_every_tool_and_parameter_is_described_to_the_model() -> None:
    model = TestModel(call_tools=[])
    await Agent(model, tools=[spec.to_tool() for spec in default_tools()]).run("hi")
    info = model.last_model_request_parameters
    assert info is not None
    for tool in info.function_tools:
        assert tool.description
        for name, schema in tool.parameters_json_schema["properties"].items():
            assert schema.get("description"), f"{tool.name}.{name} has no description"
