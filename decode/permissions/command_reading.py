"""What reading one command finds: the checks it adds, the scripts it runs, the reasons to ask.

The readers of `decode.permissions.commands` (wrappers, shells and string runners, `find`, `git`…)
each add what they find to a `Found`; `Check` is one command that must be allowed, and a
`CommandAnalysis` what the gate judges of a whole bash command.
"""

from dataclasses import dataclass, field

from decode.permissions.shell_script import Redirect

Words = tuple[str | None, ...]

VARIABLES = "variables set for a command can change what it runs (LD_PRELOAD, PATH, GIT_*…)"


@dataclass(frozen=True)
class Check:
    """One command that must be allowed for the whole to run without asking."""

    text: str
    allow_forms: tuple[Words, ...]
    block_forms: tuple[Words, ...]


@dataclass
class Found:
    """What reading one command found: the forms a deny sees, scripts it runs, reasons to ask."""

    forms: list[Words]
    scripts: list[str | None]
    hazards: list[str]
    checks: list[Check]  # commands it runs as separate checks (`find -exec`)


def at(words: Words, index: int) -> str | None:
    """The word at `index`, or None past the end (as a word known only at run time is)."""
    return words[index] if index < len(words) else None


def join(words: Words) -> str | None:
    """The words as one script, or None when one of them is known only at run time."""
    return None if any(w is None for w in words) else " ".join(w for w in words if w is not None)


@dataclass(frozen=True)
class CommandAnalysis:
    """A bash command as the gate sees it: commands to check, files touched, reasons to ask."""

    checks: tuple[Check, ...]
    redirects: tuple[Redirect, ...]
    hazards: tuple[str, ...]
    opaque: bool = field(default=False, repr=False)
    """Some command it runs cannot be known before it runs: every Bash deny rule may match it."""
    files: tuple[str, ...] = field(default=(), repr=False)
    """Words of its commands that may name files (checked for secret files and Read rules)."""
