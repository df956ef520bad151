"""The fixed order of a verdict: deny, plan mode, ask, secrets, bypass, hazards, allow, the mode's default.

The gate turns a call into `Part`s (each command of a bash script, each file it touches, the file
a tool reads or edits, a host, the tool itself) and `finish` judges them together: a deny on any
part denies the whole, and the call is allowed only if every part is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from decode.entities.tools import ToolKind
from decode.permissions import paths
from decode.permissions.command_patterns import command_pattern
from decode.permissions.matching import covers
from decode.permissions.options import cached_deny_matches
from decode.permissions.protected import WHY as PROTECTED
from decode.permissions.protected import spells_protected
from decode.permissions.rules import REDIRECT_READ_RULES, command_matches, domain_matches
from decode.permissions.types import Decision, Mode, Rule, Verdict

if TYPE_CHECKING:
    from decode.permissions.command_reading import Check
    from decode.permissions.gate import PermissionGate

# Kinds that run in plan mode: they read, or touch nothing outside the conversation.
PLAN_KINDS = frozenset({ToolKind.READ_ONLY, ToolKind.SIDE_EFFECT_FREE})
PLAN_GUIDANCE = (
    "plan mode: decode may read and search but not change anything. Do not try another way: "
    "present your plan to the user; they switch the mode when they want it carried out."
)


@dataclass(slots=True)  # not frozen (nothing changes one): a frozen __init__ costs 4x, and there is one per word
class Part:
    """One thing a request does, judged on its own: a command, a file, a host, or the tool itself."""

    label: str
    rule_names: tuple[str, ...]
    check: Check | None = None  # a bash command
    path: str | None = None  # a file (resolved), or None when only known at run time
    written: str | None = None  # the same file as written (not following symlinks)
    writes: bool = False
    searches: bool = False  # the path is a folder a search tool reads everything in
    url: str | None = None
    is_path: bool = False
    named: str | None = None  # a word of a bash command that may name this file (as written)
    by_command: bool = False  # a file a command writes (`tee a`): its rules deny or ask, the command's allows
    sensitive: str | None = None  # why only an allow rule naming it lets it through
    read_only: str | None = None  # a command of the built-in read-only list: why it may run
    not_read_only: str | None = None  # a listed command used in a way that is not read-only: why
    subject: str | None = None  # what a rule's specifier names exactly (the agent a subagent runs)  # [lesson 15]


def finish(gate: PermissionGate, parts: list[Part], hazards: list[str], kind: ToolKind) -> Verdict:
    """Apply the fixed order: deny, plan mode, ask, secrets, bypass, hazards, allow, the mode's default."""
    for part in parts:
        if part.named is not None:
            continue  # an argument may not be read at all: it asks (below), it never denies
        for rule in gate.governing_rules(Decision.DENY, part.rule_names):
            if matches(gate, rule, part, broad=True):
                return Verdict(Decision.DENY, f"{part.label}: denied by {rule}", rule)
    if gate.mode is Mode.PLAN and kind not in PLAN_KINDS:
        return Verdict(Decision.DENY, PLAN_GUIDANCE)
    for part in parts:
        # A word may be written or only read: Edit denies count for it, Edit asks do not.
        asks = REDIRECT_READ_RULES if part.named else part.rule_names
        for rule in gate.screened(part, asks, part.rule_names):
            match = matches(gate, rule, part, broad=True)
            if part.named is not None and match:
                return Verdict(Decision.ASK, f"{part.label}, a file {rule.action.value} rule {rule} covers", rule)
            if match is None and rule.action is Decision.DENY:
                return Verdict(Decision.ASK, f"{part.label}: might match deny rule {rule}", rule)
            if match:  # in every mode, bypass included: the user who wrote it wants the question
                return Verdict(Decision.ASK, f"{part.label}: ask rule {rule}", rule)
    for part in parts:
        if part.sensitive is not None and not named_by_allow(gate, part, parts):
            return Verdict(Decision.ASK, f"{part.label}: {part.sensitive}")
    if gate.mode is Mode.BYPASS:
        return Verdict(Decision.ALLOW, "bypass mode: everything not denied runs")
    if hazards:
        return Verdict(Decision.ASK, "; ".join(hazards))
    used: Rule | None = None
    read_only: list[str] = []
    for part in parts:
        if part.named is not None or part.by_command:
            continue  # words need no rule of their own: the command's rule covers them
        allows = gate.governing_rules(Decision.ALLOW, part.rule_names)
        rule = next((r for r in allows if matches(gate, r, part, broad=False)), None)
        if rule is not None:
            used = used or rule  # report the first part's rule: usually the command itself
        elif part.read_only is not None and gate.mode in (Mode.DEFAULT, Mode.ACCEPT_EDITS):
            read_only.append(part.read_only)
        elif not mode_allows(gate, part, kind):
            why = f" ({part.not_read_only}, so it is not on the read-only list)" if part.not_read_only else ""
            return Verdict(Decision.ASK, f"{part.label}: no rule allows it in {gate.mode} mode{why}")
    if used is not None:
        return Verdict(Decision.ALLOW, f"allowed by {used}", used)
    if read_only:
        names = ", ".join(dict.fromkeys(read_only))
        return Verdict(Decision.ALLOW, f"read-only ({names}): on decode's built-in list, {gate.mode} mode runs it")
    return Verdict(Decision.ALLOW, f"{gate.mode} mode allows {kind} tools here")


def named_by_allow(gate: PermissionGate, part: Part, parts: list[Part]) -> bool:
    """Does an allow rule name this sensitive file: a path rule aimed at it, or the command's
    own Bash rule spelling the word (`Bash(cat .env)`, what "always" saves)?"""
    # A protected folder needs a rule that spells it: `Edit(**)` names no file, `Edit(**/*.sh)` no `.git`.
    names = spells_protected if part.sensitive == PROTECTED else paths.names_a_file
    for rule in gate.governing_rules(Decision.ALLOW, part.rule_names):
        if rule.specifier is not None and names(rule.specifier) and matches(gate, rule, part, broad=False):
            return True
    if part.named is None and not part.by_command:
        return False
    forms = [form for p in parts if p.check is not None for form in p.check.allow_forms]
    return any(
        (part.named is None or part.named in command_pattern(rule.specifier).words)
        and any(command_matches(rule.specifier, f) for f in forms)
        for rule in gate.governing_rules(Decision.ALLOW, ("Bash",))
        if rule.specifier is not None
        and rule.specifier != "*"
        and (part.sensitive != PROTECTED or spells_protected(rule.specifier))
    )


def matches(gate: PermissionGate, rule: Rule, part: Part, *, broad: bool) -> bool | None:
    """Does `rule` cover `part` (a rule governing one of its names)? None: cannot tell."""
    if rule.specifier is None:
        return True
    if part.check is not None:
        forms = part.check.block_forms if broad else part.check.allow_forms
        match = cached_deny_matches if broad else command_matches  # `rm -fr` is `rm -rf` to a deny (options.py)
        results = [match(rule.specifier, form) for form in forms]
        return True if True in results else (None if None in results else False)
    if part.is_path:
        if part.path is None:
            return None
        pattern = paths.compile_pattern(rule.specifier, gate.workspace, gate.home)
        return covers(pattern, part.path, part.written, broad=broad, searches=part.searches)
    if part.url is not None:
        return domain_matches(rule.specifier, part.url)
    if part.subject is not None:  # [lesson 15]
        return rule.specifier.lower() in ("*", part.subject.strip().lower())
    return False


def mode_allows(gate: PermissionGate, part: Part, kind: ToolKind) -> bool:
    """The mode's default for a part no rule allowed."""
    if part.check is not None or part.url is not None:
        return False  # commands and fetches always need a rule (or bypass)
    if not part.is_path:
        return kind in PLAN_KINDS or (kind is ToolKind.FILE_EDIT and gate.mode is Mode.ACCEPT_EDITS)
    roots: tuple[str, ...] = (gate.workspace,)
    roots += gate.more_roots  # `--add-dir` folders: the same defaults as the workspace  # [lesson 17]
    if part.path is None or not any(paths.is_within(part.path, root) for root in roots):
        return False  # outside the workspace, or unknown: ask
    if not part.writes:
        return True
    return gate.mode is Mode.ACCEPT_EDITS and not gate.in_protected(part.path, part.written)
