"""How the gate reads a bash script: its simple commands, the files its redirections touch, its hazards.

Lesson 06 reads plain words between `;`, `&&`, `||` and newlines, and asks about anything more;
from lesson 07 on, `parse_script` reads the script with bash's own grammar (tree-sitter-bash).
"""

from decode.permissions.shell import parse_script
from decode.permissions.shell_script import ShellScript


def read_script(script: str) -> ShellScript:
    """The simple commands, redirections and hazards of `script`, read as bash will read it."""
    # [lesson 07]
    return parse_script(script)
    # [before lesson 07]
    # from decode.permissions.shell_script import SimpleCommand
    # lines = script.replace("&&", ";").replace("||", ";").replace("\n", ";")
    # if not all(char.isalnum() or char in " \t._/:@%+,-;" for char in lines):  # quotes, $, |, >, *, =…
    #     return ShellScript((), (), ("shell syntax beyond plain words, ;, && and ||",), opaque=True)
    # found = [tuple(line.split()) for line in lines.split(";") if line.split()]
    # # any argument may name a file (`cat .env`), a short option's glued value too (`grep -f.env`)
    # named = [(*w[1:], *(a[2:] for a in w[1:] if a.startswith("-") and a[2:])) for w in found]
    # return ShellScript(tuple(SimpleCommand(w, " ".join(w), files=f) for w, f in zip(found, named, strict=True)))
    # [/lesson 07]
