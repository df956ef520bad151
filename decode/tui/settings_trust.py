"""Project Trust for settings in the REPL: what the repository's settings grant waits for a yes.

Asked once at start through the Decision Channel, each grant shown with its file and line. Yes:
remembered in the user's home (until a grant changes) and the allow rules are in force at once;
the mode the files choose applies from the next start (Shift+Tab switches now). No: nothing
changes, and decode asks again next time. A line that is neither is the user's first prompt.
`/permissions trust` says yes later.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from decode.harness.decisions import Option, Question
from decode.tui.questions import answered_yes

if TYPE_CHECKING:
    from decode.permissions.gate import PermissionGate
    from decode.permissions.project_grants import ProjectGrants
    from decode.tui.app import Repl

logger = logging.getLogger(__name__)


def waiting_grants(gate: PermissionGate) -> ProjectGrants | None:
    """The repository's grants that wait for the user's trust, if any."""
    loaded = gate.settings
    return loaded.grants if loaded is not None and loaded.grants and not loaded.trusted else None


def ask_settings_trust(repl: Repl, gate: PermissionGate) -> None:
    """After the warm-up: ask about the repository's grants (in the background), if some wait."""
    grants = waiting_grants(gate)
    if grants is None:
        return
    repl.alongside(_ask(repl, gate, grants))


def trust_question(grants: ProjectGrants) -> Question:
    """Do you trust what this repository's settings grant (each grant shown with its file)?"""
    source = grants.first_path()
    return Question(
        "this repository's settings let these run without asking. Trust them?",
        # Whole words: a prompt typed before the question was noticed must not trust with one letter.
        (Option("yes", "trust", " (remembered until they change)"), Option("no", "not now")),
        free_text="type a prompt to decide later (/permissions trust)",
        body="\n".join(grants.describe()),
        title=str(source) if source else "settings",
    )


async def _ask(repl: Repl, gate: PermissionGate, grants: ProjectGrants) -> None:
    waiting = "the repository's settings wait: /permissions trust puts them in force"
    declined = "the repository's allow rules are not in force (decode asks again next time)"
    if await answered_yes(repl, trust_question(grants), waiting=waiting, declined=declined):
        trust_settings(repl, gate)


def trust_settings(repl: Repl, gate: PermissionGate) -> None:
    """The user trusts the repository's grants: remember it, and put its allow rules in force."""
    from decode.permissions.project_trust import trust

    grants = waiting_grants(gate)
    if grants is None:
        repl.renderer.notice("this project's settings grant nothing that waits for your trust")
        return
    try:
        trust(repl.workspace, grants)
    except OSError as exc:
        logger.warning("could not remember the trust (%s): decode will ask again next time", exc)
    gate.add_rules(grants.rules)
    if gate.settings is not None:
        gate.settings.trusted = True
    later = f"; defaultMode {grants.mode} applies from the next start" if grants.mode is not None else ""
    later += "; its agents apply from the next /agent or start" if grants.others else ""
    repl.renderer.notice(f"the repository's settings are trusted: {len(grants.rules)} allow rule(s) in force{later}")
