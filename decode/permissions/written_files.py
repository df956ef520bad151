"""The files a command writes by naming them: `tee a`, `sed -i … a`, `cp x a`, `mv x a`, `rm a`.

A redirection (`> a`) is not the only way a bash command writes a file. For the commands below
the gate knows which words are written, and judges each as a write (Edit and Write rules): a
deny denies, an ask rule asks in every mode. The command's own Bash rule still allows it (an
allowed `Bash(tee:*)` needs no Edit allow too). A short closed table: a command not in it is
judged by its words, as before (a Read, Edit or Write deny on a word makes it ask).
"""

import posixpath
import re
from collections.abc import Sequence

_ALL_OPERANDS = frozenset({"tee", "rm", "rmdir", "unlink", "shred", "truncate", "touch", "mkdir"})
_COPIERS = frozenset({"cp", "mv", "ln", "install"})
_VALUED = {  # short options whose value is the next word, per program (not written files)
    "truncate": "sr",
    "mkdir": "m",
    "touch": "drt",
    "install": "gmoS",
    "cp": "S",
    "mv": "S",
    "ln": "S",
    "sed": "l",
}
# sed's `w FILE` command and `s///w FILE` flag: the file name runs to the end of the line.
_SED_WRITE = re.compile(r"(?<![A-Za-z\\])[wW][ \t]+([^\n]+)")


def written_files(words: Sequence[str | None]) -> list[str]:
    """The words of one command (as the gate reads them) naming files it writes or removes."""
    if not words or words[0] is None:
        return []
    name = posixpath.basename(words[0])
    options, operands = _split(name, words[1:])
    if name in _ALL_OPERANDS:
        return operands
    if name in _COPIERS:
        return _copied_to(name, options, operands)
    if name in ("sed", "gsed"):
        return _sed(options, operands)
    if name == "dd":
        return [w.partition("=")[2] for w in operands if w.startswith("of=")]
    return []


def _split(name: str, words: Sequence[str | None]) -> tuple[list[str], list[str]]:
    """Options (with the value of `-S VALUE` glued on) and operands; `--` ends the options."""
    options: list[str] = []
    operands: list[str] = []
    valued = _VALUED.get(name, "")
    pending: str | None = None
    ended = False
    for word in words:
        if word is None:
            continue
        if pending is not None:
            options.append(pending + word)
            pending = None
        elif ended or not word.startswith("-") or word == "-":
            operands.append(word)
        elif word == "--":
            ended = True
        elif len(word) == 2 and word[1] in valued + ("te" if name == "sed" else "t"):
            pending = word  # `-t DIR`, `sed -e SCRIPT`: the value is the next word
        else:
            options.append(word)
    return options, operands


def _copied_to(name: str, options: list[str], operands: list[str]) -> list[str]:
    """The destination (and, for `mv`, the sources it removes); `-t DIR` names the folder."""
    folder = next((o[2:] for o in options if o.startswith("-t") and len(o) > 2), None)
    folder = folder or next((o.partition("=")[2] for o in options if o.startswith("--target-directory=")), None)
    sources = operands if folder else operands[:-1]
    target = folder or (operands[-1] if len(operands) > 1 else None)
    if target is None:
        return []
    # `cp x src/` writes src/x: the file inside, as well as the folder named.
    found = [target, *(posixpath.join(target, posixpath.basename(s.rstrip("/"))) for s in sources)]
    return found + sources if name == "mv" else found


def _sed(options: list[str], operands: list[str]) -> list[str]:
    """`sed -i` writes its files; a script's `w FILE` writes FILE."""
    scripts = [o[2:] for o in options if o.startswith("-e")]
    scripts += [o.partition("=")[2] for o in options if o.startswith("--expression=")]
    if not any(o[:2] in ("-e", "-f") or o.startswith(("--expression", "--file")) for o in options) and operands:
        scripts.append(operands.pop(0))
    found = [m.group(1).strip() for script in scripts for m in _SED_WRITE.finditer(script)]
    # `-i`, `-i.bak`, `-ni`; not `-e SCRIPT` glued on (`-es/x/i/`), nor a long option.
    in_place = any(o.startswith("--in-place") or (o[1:2] not in ("-", "e", "f", "l") and "i" in o) for o in options)
    return found + (operands if in_place else [])
