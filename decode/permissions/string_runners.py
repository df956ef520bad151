"""Commands that run a string or their input as a script: `bash -c`, `eval`, `su -c`, `ssh host …`.

A shell reading its script from a here-doc, a here-string or `echo … |` runs that text: it is read
as a script of its own and checked for denies; from anywhere else (`curl … | sh`) it runs
something unknown. Each string found goes to `Found.scripts` (None where it is not known), and
the whole never runs without asking.
"""

import codecs
import re

from decode.permissions.command_reading import Found, Words, at, join
from decode.permissions.wrappers import wrapped, wrapper

SHELLS = frozenset(
    {"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "rbash", "yash"}
    | {"hush", "sash", "osh", "loksh", "pdksh", "posh"}  # busybox's, standalone, oils', BSD's, Debian's
)
SHELL_NAME = re.compile(r"(?:ba|da|z|k|mk|a|rba|ya|lk|po|o?k|pdk|hu|sa|lok)?sh[0-9.]*|ksh93")
STDIN_FILES = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
STRING_RUNNERS = frozenset({"eval", "trap", "su", "runuser", "script", "flock", "sg", "watch", "parallel", "ssh"})
_SSH = wrapper("BbcDEeFIiJLlmOoPpQRSWw", flags="46AaCfGgKkMNnqsTtVvXxYy", positionals=1)
_WATCH = wrapper(
    "nq", "--interval", "bcCdegtxprwhv", "--beep --color --no-color --differences --errexit --chgexit --exec"
)
_FLOCK = wrapper(
    "wE", "--timeout --wait --conflict-exit-code", "sxenuoFhV", "--shared --exclusive --unlock --nonblock --close"
)
_SU = wrapper(
    "ugGsw",
    "--group --supp-group --shell --whitelist-environment --user",
    "lmpPf",
    "--login --preserve-environment --pty",
)
_PARALLEL = wrapper("jSaEIdnNLlXsC", "--jobs --arg-file --delimiter --sshlogin --results --joblog --colsep", "0kquvgt")
_BASH = wrapper(
    "oO", "--rcfile --init-file", "abefhkmnptuvxBCEHPTilrsD", "--login --norc --noprofile --posix --restricted"
)


def shell_flag(words: Words) -> bool:
    """`sudo -s` / `sudo -i` (or their long forms) with no command start a shell."""
    return any(
        word in ("--shell", "--login")
        or (word.startswith("-") and not word.startswith("--") and ("s" in word or "i" in word))
        for word in words[1:]
        if word is not None
    )


def shell(words: Words, stdin: bool | str, found: Found) -> None:
    """`bash -c STRING` runs STRING; a shell with no script file runs whatever it reads."""
    index, reads_stdin, command_string = 1, False, False
    while index < len(words):
        word = words[index]
        if word is None:
            found.hazards.append("a shell with arguments only known at run time")
            found.scripts.append(None)
            return
        if word == "--":
            index += 1
            break
        if word.startswith("--"):
            index += 2 if word in _BASH.long_valued else 1
            continue
        if word.startswith(("-", "+")) and len(word) > 1:
            letters = word[1:]
            command_string = command_string or (word.startswith("-") and "c" in letters)
            reads_stdin = reads_stdin or (word.startswith("-") and "s" in letters)  # `bash -s ARG…`
            index += 1 + sum(letter in "oO" for letter in letters)  # `-o errexit`
            continue
        break
    if command_string:  # the string is the first word after the options: `bash -c -e -- 'rm x'`
        found.hazards.append(f"{words[0]} -c runs a string as a script")
        found.scripts.append(at(words, index))
        return
    if not reads_stdin and index < len(words) and words[index] not in STDIN_FILES:
        return  # `bash script.sh`: the script file is the command
    stdin_script(stdin, found, None)


def stdin_script(stdin: bool | str, found: Found, name: str | None) -> None:
    """A shell (or `source /dev/stdin`) running what it reads: known text is checked, else unknown."""
    if name is not None:
        found.hazards.append(f"{name} runs a file only known at run time")
    else:
        fed = "from a pipe, a here-string or a here-doc" if stdin else "from its input"
        found.hazards.append(f"a shell running commands {fed}")
    if isinstance(stdin, str):
        found.scripts.append(stdin)
        if (decoded := _printf_text(stdin)) != stdin:
            found.scripts.append(decoded)
    else:
        found.scripts.append(None)


def _printf_text(text: str) -> str:
    """`printf 'r\\x6d x'` prints `rm x`: the text with its escapes decoded, where they decode."""
    try:
        return codecs.decode(text, "unicode_escape") if text.isascii() else text
    except UnicodeDecodeError:
        return text


def string_runner(name: str, words: Words, stdin: bool | str, found: Found) -> list[Words]:
    """Commands that run a string as a script: find the string (or the command) each takes."""
    args = words[1:]
    if name == "eval":
        found.hazards.append("eval runs its arguments as a script")
        found.scripts.append(join(args))
    elif name == "trap":
        script = next((w for w in args if w is None or not w.startswith("-")), "")
        found.hazards.append("trap runs a string as a script")
        found.scripts.append(script)
    elif name in ("su", "runuser", "script", "sg"):
        return _su_like(name, words, stdin, found)
    elif name == "flock":
        for core in wrapped(words, _FLOCK, name, found):
            if len(core) >= 2 and core[1] in ("-c", "--command"):
                found.hazards.append("flock -c runs a string as a script")
                found.scripts.append(at(core, 2))
            elif len(core) >= 2:
                return [core[1:]]
    elif name == "watch":
        for core in wrapped(words, _WATCH, name, found):
            if any(w in ("-x", "--exec") for w in words[1:]):
                return [core]
            found.hazards.append("watch runs its arguments as a script")
            found.scripts.append(join(core))
    elif name == "ssh":
        for core in wrapped(words, _SSH, name, found):
            found.hazards.append("ssh runs its arguments as a script")
            found.scripts.append(join(core) if core else None)
    elif name == "parallel":
        cores = wrapped(words, _PARALLEL, name, found)
        for core in cores:
            end = next((i for i, w in enumerate(core) if w in (":::", "::::", ":::+", "::::+")), len(core))
            found.hazards.append("parallel runs its arguments as a script")
            command = join(core[:end])
            if command and "{" not in command:
                found.scripts.append(command)
            elif command:  # `parallel sh -c {} ::: 'rm x'`: the arguments go into the command
                found.scripts += [None, command.replace("{}", " ")]
            if end < len(core) and not command:  # `parallel ::: 'rm x'`: each argument is a command
                found.scripts += [w for w in core[end + 1 :] if w not in (":::", "::::", ":::+", "::::+")]
            elif not command:
                stdin_script(stdin, found, None)
    return []


def _su_like(name: str, words: Words, stdin: bool | str, found: Found) -> list[Words]:
    """`su -c STRING`, `runuser -u USER CMD`, `script -c STRING`, `sg GROUP [-c] STRING`."""
    for index, word in enumerate(words[1:], start=1):
        if word is None:
            continue
        if word == "--":
            break
        if word in ("-c", "--command", "--session-command") or (
            word.startswith("-") and not word.startswith("--") and "c" in word and name != "sg"
        ):
            found.hazards.append(f"{name} -c runs a string as a script")
            found.scripts.append(at(words, index + 1))
            return []
        if word.startswith(("--command=", "--session-command=")):
            found.hazards.append(f"{name} -c runs a string as a script")
            found.scripts.append(word.split("=", 1)[1])
            return []
    if name == "runuser" and any(w in ("-u", "--user") or (w or "").startswith("--user=") for w in words):
        return wrapped(words, _SU, name, found)
    if name == "sg":
        rest = [w for w in words[1:] if w != "-"][1:]
        if rest:
            found.hazards.append("sg runs its arguments as a script")
            found.scripts.append(join(tuple(rest)))
            return []
    stdin_script(stdin, found, None)  # `su`, `script`: an interactive shell reading its input
    return []
