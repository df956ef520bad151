"""The traits decode's own tools declare, by name, for what judges a call without making one.

`decode permissions check bash "…"` needs only `bash`'s traits, but importing the tools loads
pydantic-ai (about a second), so the check would wait on a library it never calls. This table is
what the catalog's declarations say, written out; a test checks that the two always agree.
"""

from decode.entities.tools import ToolKind, ToolTraits

DECLARED_TRAITS: dict[str, ToolTraits] = {
    "read": ToolTraits(ToolKind.READ_ONLY, rules=("Read",), path="path"),
    "glob": ToolTraits(ToolKind.READ_ONLY, rules=("Glob", "Read"), path="path", pattern="pattern", searches=True),
    "grep": ToolTraits(ToolKind.READ_ONLY, rules=("Grep", "Read"), path="path", searches=True),
    "edit": ToolTraits(ToolKind.FILE_EDIT, rules=("Edit",), path="path"),
    "write": ToolTraits(ToolKind.FILE_EDIT, rules=("Write", "Edit"), path="path"),
    "bash": ToolTraits(
        ToolKind.OTHER,
        rules=("Bash",),
        command="command",
        network="network",  # [lesson 17]
    ),
    # [lesson 13]
    "web_fetch": ToolTraits(ToolKind.OTHER, rules=("WebFetch",), url="url"),
    "todo_write": ToolTraits(ToolKind.SIDE_EFFECT_FREE),
    "ask_user": ToolTraits(ToolKind.SIDE_EFFECT_FREE),
    "exit_plan_mode": ToolTraits(ToolKind.SIDE_EFFECT_FREE, plan_only=True),
    # [/lesson 13]
    "lsp": ToolTraits(ToolKind.READ_ONLY, rules=("Lsp", "Read"), path="path"),  # [lesson 16]
}
