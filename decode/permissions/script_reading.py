"""How the gate reads a bash script: its simple commands, the files its redirections touch, its hazards.

Lesson 06 reads plain words between `;`, `&&`, `||` and newlines, and asks about anything more
(a quote, `$`, a pipe, a reserved word such as `if` or `time` that makes bash run what follows):
such a script runs a command no rule can name, and each of its words may name a file. From
lesson 07 on, `parse_script` reads the script with bash's own grammar (tree-sitter-bash).
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
    # found = [tuple(line.split()) for line in lines.split(";") if line.split()]
    # bash_words = " if then elif else fi do done while until for case select function time coproc "
    # if not all(c.isalnum() or c in " \t._/:@%+,-;" for c in lines) or any(f" {w[0]} " in bash_words for w in found):
    #     words = "".join(c if c.isalnum() or c in "._/~+,%:-" else " " for c in script).split()  # `x|cat .env`
    #     unknown = SimpleCommand((), script, files=(*words, *(a[2:] for a in words if a[:1] == "-" and a[2:])))
    #     return ShellScript((unknown,), (), ("shell syntax beyond plain words, ;, && and ||",), opaque=True)
    # named = [(*w[1:], *(a[2:] for a in w[1:] if a[:1] == "-" and a[2:])) for w in found]  # `cat .env`, `-f.env`
    # return ShellScript(tuple(SimpleCommand(w, " ".join(w), files=f) for w, f in zip(found, named, strict=True)))
    # [/lesson 07]
