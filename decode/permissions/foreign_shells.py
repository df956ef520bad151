"""Shells whose language decode does not parse: PowerShell, Nushell, fish, csh, rc, cmd.exe…

`bash -c STRING` is parsed and every command in it judged. `pwsh -Command STRING` cannot be: its
language is not sh, so nothing in the string can be named. Such a string is a hazard (it asks, as
ADR-0022's do), and while any Bash deny rule is in force it is denied, in every mode, bypass
included: the string could be the denied command (`pwsh -c 'git push --force'`). A foreign
shell running a script file (`pwsh ./build.ps1`) is that file's command, like `bash build.sh`.

sh's relatives (`zsh`, `ksh`, `dash`, `mksh`, `yash`…) are in `commands.SHELLS`: their strings are
parsed as sh, and what the parser cannot read is a hazard of its own. fish, csh and rc look like
sh but quote differently (in fish `'a\\' ; rm x'` is one word to sh, two commands to fish), so
they are foreign. A name is read without `.exe`, `-static` or `.real` (`bash.exe` is bash).
"""

import re

FOREIGN = "a shell whose language decode does not parse runs a string"
FOREIGN_SHELLS = frozenset(
    {"pwsh", "pwsh-preview", "powershell", "nu", "nushell", "xonsh", "elvish", "ion", "murex", "ysh", "oil", "cmd"}
    | {"fish", "csh", "tcsh", "rc", "es"}  # sh-like, but they quote differently
)
# What starts a command string, as any unambiguous prefix (PowerShell accepts `-c`, `-co`, `-Command`,
# `-e`/`-EncodedCommand` in base64, `-CommandWithArgs`); nu's `--commands`/`--execute`; cmd's `/c`, `/k`.
_STRING_OPTIONS = ("command", "commands", "commandwithargs", "encodedcommand", "execute", "cwa", "ec")


def is_foreign_shell(name: str) -> bool:
    """Is `name` (a program's base name) a shell whose language decode does not parse?"""
    return program_name(name).lower() in FOREIGN_SHELLS or re.fullmatch(r"fish[0-9.]*", name) is not None


def program_name(name: str) -> str:
    """`bash.exe`, `bash-static`, `dash.real` → `bash`, `dash`: the program under its packaging."""
    for suffix in (".exe", ".EXE", "-static", ".real"):
        name = name.removesuffix(suffix)
    return name


def runs_a_string(words: tuple[str | None, ...]) -> bool:
    """Does this foreign shell run a string (an option such as `-c`), or its input (no script file)?

    Broad on purpose: it decides a deny, never an allow.
    """
    script = False
    for word in words[1:]:
        if word is None or word == "-":
            return True  # a word only known at run time, or a script read from its input
        if word.startswith("-") or _slash_options(word):  # `/c`, `/Q/C` (cmd.exe), `/Command` (PowerShell)
            for part in word.lstrip("-/").split("/"):
                option = part.lower().split(":", 1)[0].split("=", 1)[0]
                if option and (option in ("c", "k") or any(name.startswith(option) for name in _STRING_OPTIONS)):
                    return True
        else:
            script = True  # a script file (or an option's value): keep looking for a string option
    return not script


def _slash_options(word: str) -> bool:
    """`/c`, `/Q/C`, `/EncodedCommand`: Windows options, not a path such as `/tmp/x.ps1`."""
    return word.startswith("/") and all(part.isalnum() for part in word[1:].split("/"))
