"""Reading tree-sitter-bash's syntax nodes: a node's text, a literal's value, a word as a path.

The walker (`decode.permissions.shell_walk`) asks these of the nodes it visits; they know the
node types, not the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from decode.permissions.shell_normalise import BRACE, BRACKET
from decode.permissions.shell_quotes import unescape, unescape_double_quoted

if TYPE_CHECKING:
    from tree_sitter import Node


def node_operator(node: Node) -> str:
    """A node's operator token (`>`, `>>`, `<`…): its first unnamed child."""
    return next((child.type for child in node.children if not child.is_named), "")


def node_text(node: Node | None) -> str:
    """A node's source text, with `normalise`'s placeholders turned back into `{` and `[`."""
    data = node.text if node is not None else None
    if data is None:
        return ""
    text = data.decode(errors="replace")
    if "\ue000" in text or "\ue001" in text:  # the placeholders of `normalise`
        text = text.replace(BRACE, "{").replace(BRACKET, "[")
    return text


def literal_value(node: Node) -> str | None:
    """A here-string's text when it holds no expansion."""
    text = node_text(node)
    if node.type == "raw_string":
        return text[1:-1]
    if node.type == "word":
        return unescape(text)
    if node.type == "string" and all(c.type == "string_content" for c in node.named_children):
        return unescape_double_quoted(text[1:-1])
    return None


def path_text(node: Node, directory_changed: bool) -> str:
    """A word as a path for the secret-file check: quotes removed, `$HOME`/`$PWD` placed."""
    text = node_text(node)
    if node.type == "command_name":
        return path_text(node.children[0], directory_changed) if node.children else ""
    if node.type == "word":
        return unescape(text)
    if node.type == "raw_string":
        return text[1:-1]
    pieces = node.children if node.type in ("concatenation", "string") else [node]
    out: list[str] = []
    for piece in pieces:
        piece_text = node_text(piece)
        if piece.type in ("simple_expansion", "expansion") and not out:
            name = piece_text.strip("${}")
            if name == "HOME":
                out.append("~")
                continue
            if name == "PWD" and not directory_changed:
                out.append(".")
                continue
        if piece.type == "word":
            out.append(unescape(piece_text))
        elif piece.type == "raw_string":
            out.append(piece_text[1:-1])
        elif piece.type == "string_content":
            out.append(unescape_double_quoted(piece_text))
        elif piece.type == "string":
            out.append(path_text(piece, directory_changed))
        elif piece.is_named:
            out.append(piece_text)
    return "".join(out)


def assigned_names(node: Node) -> list[str]:
    """The names an assignment, a `for` loop or a declaration sets (`a[i]` stays `a[i]`)."""
    if node.type == "for_statement":
        variable = node.child_by_field_name("variable")
        return [node_text(variable)] if variable is not None else [""]
    if node.type == "variable_assignment":
        name = node.child_by_field_name("name")
        return [node_text(name)] if name is not None else [""]
    names: list[str] = []
    for child in node.named_children:
        if child.type == "variable_assignment":
            names += assigned_names(child)
        elif child.type in ("variable_name", "subscript"):
            names.append(node_text(child))
    return names
