"""The words of a command that may name files, as paths the gate checks for secret files.

`cat .env`, `grep KEY .env`, `dd if=.env`, `curl -d @.env`, `git show HEAD:.env`, `tar -C /etc
shadow`: a word may name a file the program reads. `named_files` lists every word that may, as a
path (`~` the home folder; relative to the workspace; `$X` left in where only run time knows),
and each relative one again below every folder a `cd` may have gone to.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from decode.permissions.option_values import attached_values, tar_paths
from decode.permissions.shell_braces import dequote, expand_braces
from decode.permissions.shell_glob import Glob
from decode.permissions.shell_nodes import path_text
from decode.permissions.shell_script import Words

if TYPE_CHECKING:
    from tree_sitter import Node


def named_files(
    word_nodes: list[Node], raws: list[str], values: Words, directory_changed: bool, directories: list[str | None]
) -> tuple[str, ...]:
    """The words of a command that may name files (see `SimpleCommand.files`)."""
    files: list[str] = []
    for index, node in enumerate(word_nodes):
        raw, value = raws[index], values[index]
        if value is not None:
            texts: list[str] = [value]
        elif "$(" in raw or "`" in raw:
            continue  # built by a command: a hazard already, and nothing to read in it
        else:
            texts = [path_text(node, directory_changed)]
            if "{" in raw and (options := expand_braces(raw)) is not None and len(options) > 1:
                texts = [text for text in map(dequote, options) if text] or texts  # `cat {a,.env}`
        for text in texts:
            if not text or (index == 0 and "/" not in text):
                continue
            pattern = isinstance(text, Glob)
            if text[0] == "-" or "=" in text or text[0] == "@" or ":" in text:
                found: list[str] = attached_values(text)  # `-t.git`, `-d@.env`, `f=@/etc/shadow`
                if "=" in text:
                    found.append(text.split("=", 1)[1])  # `--env-file=.env`, `dd if=.env`
                if ":" in text:
                    found.append(text.rsplit(":", 1)[1])  # `git show HEAD:.env`, `scp h:.env`
                if text[0] != "-":
                    found.append(text.removeprefix("@"))  # `curl -d @.env`
                files += [Glob(f) if pattern else f for f in found]
            else:
                files.append(text)
    files += tar_paths(values)  # `tar -cf - -C /etc shadow` reads /etc/shadow
    if directories:
        relative = [f for f in files if not f.startswith(("/", "~", "$"))]
        for directory in directories:
            if directory:
                files += [type(f)(posixpath.join(directory, f)) for f in relative]
    return tuple(dict.fromkeys(f for f in files if f))
