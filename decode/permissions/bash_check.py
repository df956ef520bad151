"""Judging a bash command: every command it runs, every file it touches, every word that may name one.

`check_bash` reads the script (`commands.analyse_command`), turns each thing it does into a
`Part` (a command, which may be on the read-only list; a file a redirection or a command writes;
a word that may name a file, judged like a read of it) and hands them, with the hazards, to the
fixed order (`decision_order.finish`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from decode.entities.tools import ToolKind
from decode.permissions import paths, plain_names
from decode.permissions.command_reading import Check, CommandAnalysis
from decode.permissions.commands import analyse_command
from decode.permissions.decision_order import Part, finish
from decode.permissions.fence import read_only_denial
from decode.permissions.foreign_shells import FOREIGN
from decode.permissions.launchers import HIDDEN
from decode.permissions.network_grants import network_parts
from decode.permissions.protected import WHY as PROTECTED
from decode.permissions.readonly import ReadOnly, judge
from decode.permissions.rules import REDIRECT_READ_RULES, REDIRECT_WRITE_RULES
from decode.permissions.shell_glob import Glob
from decode.permissions.shell_script import TOO_DEEP
from decode.permissions.types import Decision, Mode, Verdict
from decode.permissions.written_files import written_files

if TYPE_CHECKING:
    from decode.permissions.gate import PermissionGate

MAX_RESOLVED_WORDS = 64  # words of one bash command resolved through symlinks; the rest by name
SECRET = "a file that holds secrets (.env, .env.*, DECODE_SECRET_FILES): only an allow rule naming it lets it through"
# A word may name a file the program reads or writes: Read, Edit and Write denies all make it ask.
_WORD_RULES = (*REDIRECT_READ_RULES, *REDIRECT_WRITE_RULES)
_UNKNOWN_COMMAND = Check("a command only known at run time", ((None,),), ((None,),))


async def check_bash(
    gate: PermissionGate,
    command: str,
    network: bool = False,  # [lesson 17]
) -> Verdict:
    """The verdict on a bash command: its parts and hazards, in the fixed order."""
    analysis = analyse(command)
    seen: dict[str, plain_names.Looked] = {}  # words resolved once per check (the list's, then as words)
    parts = [await _command_part(gate, check, seen) for check in analysis.checks]
    parts[:0] = network_parts(analysis.checks, network)  # [lesson 17]
    if analysis.opaque and gate.mode is Mode.BYPASS:
        # Something runs that no one can name, and no hazard asks in bypass: a Bash deny may match it.
        parts.append(Part(_UNKNOWN_COMMAND.text, ("Bash",), check=_UNKNOWN_COMMAND))
    for redirect in analysis.redirects:
        names = REDIRECT_WRITE_RULES if redirect.writes else REDIRECT_READ_RULES
        if redirect.target is None:
            parts.append(Part("a file named at run time", names, writes=redirect.writes, is_path=True))
        else:
            parts.append(await gate.path_part(redirect.target, names, writes=redirect.writes))
    for index, word in enumerate(analysis.files):
        parts.append(await _word_part(gate, word, resolve=index < MAX_RESOLVED_WORDS, seen=seen))
    # [lesson 08]
    written = dict.fromkeys(f for c in analysis.checks for form in c.block_forms for f in written_files(form))
    for target in list(written)[:MAX_RESOLVED_WORDS]:
        part = await gate.path_part(target, REDIRECT_WRITE_RULES, writes=True)
        parts.append(replace(part, by_command=True))
    # [/lesson 08]
    hazards = list(analysis.hazards)
    if len(analysis.files) > MAX_RESOLVED_WORDS:
        # Past the limit a word is judged by its name: a symlink among them could name a secret file.
        hazards.append(f"it names more than {MAX_RESOLVED_WORDS} files, too many to follow each one")
    if not command.strip():
        hazards.append("an empty command")
    elif not analysis.checks:
        hazards.append("it runs no command a rule could allow, and nothing proves it harmless")
    # [lesson 08]
    foreign = next((h for h in analysis.hazards if h.startswith((FOREIGN, HIDDEN))), None)
    if foreign and (denies := gate.governing_rules(Decision.DENY, ("Bash",))):  # its string could be denied
        return Verdict(Decision.DENY, f"{foreign}, and it could run what {denies[0]} denies", denies[0])
    # [/lesson 08]
    if (denied := read_only_denial(gate, parts, hazards)) is not None:  # [lesson 15]
        return denied
    return finish(gate, parts, hazards, ToolKind.OTHER)


async def _command_part(gate: PermissionGate, check: Check, seen: dict[str, plain_names.Looked]) -> Part:
    """A command of a bash script; `read_only` says whether the built-in list lets it run."""
    found = judge(check.allow_forms[0])  # as written: no wrapper lends it the list
    if not isinstance(found, ReadOnly):
        return Part(check.text, ("Bash",), check=check, not_read_only=found)
    why = await _outside_read_only(gate, found, seen)
    if why is not None:
        return Part(check.text, ("Bash",), check=check, not_read_only=why)
    return Part(check.text, ("Bash",), check=check, read_only=found.name)


async def _outside_read_only(gate: PermissionGate, found: ReadOnly, seen: dict[str, plain_names.Looked]) -> str | None:
    """Why a listed command may still not run on the list: a file outside the project, a
    folder `rg` would search all of, a project git could take for a bare repository."""
    if len(found.paths) > MAX_RESOLVED_WORDS:
        return f"{found.name}: too many files to check"
    if found.git and gate.may_pass_for_a_repository():
        return f"{found.name}: git may take the project for a bare repository (a HEAD file, or no local look)"
    roots: tuple[str, ...] = (gate.workspace,)
    roots += gate.more_roots  # `--add-dir` folders: a file there is one of the project's  # [lesson 17]
    for path in found.paths:
        written, real, folder = seen[path] = seen.get(path) or await gate.resolve(path)
        if not (_within(written, roots) and _within(real, roots)):
            return f"{found.name} names {path}, outside the project"
        if gate.names_secret(written, real):
            return f"{found.name} reads {path}, a file that holds secrets"
        if gate.never_ends(real):
            return f"{found.name} reads {path}, a FIFO or device: the read may never end"
        if not found.folders and (gate.may_be_folder(real) if folder is None else folder):
            return f"{found.name} would search every file of the folder {path}"
    return None


async def _word_part(gate: PermissionGate, word: str, *, resolve: bool, seen: dict[str, plain_names.Looked]) -> Part:
    """A word of a bash command that may name a file (`cat .env`): judged like a read of it."""
    if resolve:
        written, real, folder = seen.get(word) or await gate.resolve(word)
    else:
        written = real = paths.absolute(word, gate.workspace, gate.home)
        folder = None
    if isinstance(word, Glob):
        written, real, folder = Glob(written), Glob(real), None
    sensitive = None
    pattern = not isinstance(written, Glob) and ("*" in word or "?" in word or "[" in word)  # `find -name '.env*'`
    if gate.names_secret(written, real) or (pattern and gate.is_secret(Glob(written))):
        sensitive = SECRET
    elif gate.mode is not Mode.BYPASS and gate.in_protected(written, None if same(written, real) else real):
        sensitive = PROTECTED  # as for the file tools: bypass writes there too
    return Part(
        f"names {word}",
        _WORD_RULES,
        path=real,
        written=written,
        searches=gate.may_be_folder(real) if folder is None else folder,  # `grep -r x d`: a rule covers all of it
        is_path=True,
        named=word,
        sensitive=sensitive,
    )


def _within(path: str, roots: tuple[str, ...]) -> bool:
    return any(paths.is_within(path, root) for root in roots)


def same(written: str, real: str) -> bool:
    """Is the path as written the real one (then it is judged once)?"""
    return written is real or (written == real and type(written) is type(real))


def analyse(command: str) -> CommandAnalysis:
    """`analyse_command`, which never raises: input too deep to follow is a hazard."""
    # [lesson 08]
    try:
        return analyse_command(command)
    except RecursionError:
        return CommandAnalysis((), (), (TOO_DEEP,), opaque=True)
    # [before lesson 08]
    # from decode.permissions.command_reading import VARIABLES
    # from decode.permissions.script_reading import read_script
    # script = read_script(command)  # each command as written: lesson 08 reads what wrappers run
    # hazards = (*script.hazards, *(VARIABLES for c in script.commands if c.sets_variables))
    # checks = tuple(Check(c.text, (c.words,), (c.words,)) for c in script.commands)
    # files = tuple(f for c in script.commands for f in c.files)
    # return CommandAnalysis(checks, script.redirects, tuple(dict.fromkeys(hazards)), script.opaque, files)
    # [/lesson 08]
