"""The tool catalog: every tool the agent can use, declared once with its kind.

The kind (`ToolKind`) is what the permissions lesson decides by: read-only tools run freely,
file edits and commands may need the user's approval.
"""

from decode.agent.registry import ToolKind, ToolSpec
from decode.tools.bash import bash
from decode.tools.edit import edit
from decode.tools.glob import glob
from decode.tools.grep import grep
from decode.tools.read import read
from decode.tools.write import write

FILE_TOOLS = (
    ToolSpec("read", read, ToolKind.READ_ONLY),
    ToolSpec("glob", glob, ToolKind.READ_ONLY),
    ToolSpec("grep", grep, ToolKind.READ_ONLY),
    ToolSpec("edit", edit, ToolKind.FILE_EDIT),
    ToolSpec("write", write, ToolKind.FILE_EDIT),
)
COMMAND_TOOLS = (ToolSpec("bash", bash, ToolKind.OTHER),)


def default_tools() -> list[ToolSpec]:
    """The tools of a coding agent: the file tools (lesson 04) and bash (lesson 05)."""
    return [*FILE_TOOLS, *COMMAND_TOOLS]
