"""The tool catalog: every tool of a coding agent, each declared beside its function.

A declaration (`ToolSpec`) carries the tool's traits (`ToolTraits`): its kind, the argument that
holds a path or a command, the rule names it answers to. Whatever judges a call reads only those,
so adding a tool never touches the code that judges it.
"""

from decode.entities.tools import ToolSpec
from decode.tools.bash import BASH
from decode.tools.edit import EDIT
from decode.tools.glob import GLOB
from decode.tools.grep import GREP
from decode.tools.lsp import LSP
from decode.tools.read import READ
from decode.tools.web_and_plan import WEB_AND_PLAN_TOOLS
from decode.tools.write import WRITE

FILE_TOOLS = (READ, GLOB, GREP, EDIT, WRITE)


def default_tools() -> list[ToolSpec]:
    """The tools of a coding agent: the file tools first, then each lesson's own."""
    return [
        *FILE_TOOLS,
        BASH,  # [lesson 05]
        *WEB_AND_PLAN_TOOLS,  # the web, a to-do list, questions, plan mode  # [lesson 13]
        LSP,  # what a language server knows: definitions, references, errors  # [lesson 16]
    ]
