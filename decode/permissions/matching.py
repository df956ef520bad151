"""Matching path rules against a file: one rule at a time, or a whole list screened at once.

The gate judges each file a request names against each path rule that governs it: a bash
command naming 64 files is 64 files times the Read, Edit and Write denies. Most files match no
rule. A `RuleScreen` answers "could any of these rules cover this file?" with one regular
expression per base folder (the rules' own regexes, joined by `|`); only when it says yes does
the gate walk the rules one by one, which finds the rule that decides and gives the verdict its
reason. The screen never says no when a rule matches (`tests/unit/permissions/test_matching.py`
checks it against the rule-by-rule walk), so a verdict is the same with or without it.
"""

import re
from collections.abc import Sequence

from decode.permissions import paths
from decode.permissions.shell_glob import Glob, globs_overlap
from decode.permissions.types import Rule

ANY_FILE = "any-file"  # stands for "a file inside the searched folder" when matching rules
# pathspec names the `/` after a folder pattern (`secrets/`) with this group; a group name may
# appear once in a regex, and the group only records where a folder ended, so it becomes a plain
# `/` when regexes are joined (what pathspec's own re2 and hyperscan backends do). A rule's own
# text cannot produce it: `(` is escaped, and a `[…]` never holds `/`.
_DIR_MARK = "(?P<ps_d>/)"
_PLAIN_FLAGS = re.compile("").flags


def targets(path: str, written: str | None, *, broad: bool, searches: bool) -> list[str]:
    """The paths a rule is matched against for a file: the real one, as written too for a deny or
    ask (`broad`: a symlink cannot hide a denied name), and a file inside it for a searched folder."""
    found = [path]
    if broad and written is not None and written != path:
        found.append(written)
    if searches:  # a rule covering everything in a folder covers searching it
        found += [f"{target}/{ANY_FILE}" for target in found]
    return found


def covers(pattern: paths.PathPattern, path: str, written: str | None, *, broad: bool, searches: bool) -> bool:
    """Does one compiled path rule cover the file `path` (as written: `written`)?"""
    if isinstance(path, Glob):  # `cat /home/*/.ssh/id_rsa`: could it name a covered file?
        words = {path, written or path}
        return any(globs_overlap(word, covered) for word in words for covered in pattern.as_globs())
    return any(pattern.matches(target) for target in targets(path, written, broad=broad, searches=searches))


class RuleScreen:
    """Path rules in their order, and one test of whether any of them could cover a file."""

    def __init__(self, rules: Sequence[Rule], workspace: str, home: str) -> None:
        self.rules = tuple(rules)
        self._workspace, self._home = workspace, home
        # Built when a file is first screened: the same rule names also govern commands.
        self._bases: list[tuple[str, str, re.Pattern[str]]] | None = None
        self._open = False  # True: a rule the joined regexes cannot stand for; every file may match

    def _join(self) -> list[tuple[str, str, re.Pattern[str]]]:
        """Each base folder, what a path below it starts with, and its rules' regexes joined."""
        joined: dict[str, list[str]] = {}
        for rule in self.rules:
            try:
                pattern = None
                if rule.specifier is not None:
                    pattern = paths.compile_pattern(rule.specifier, self._workspace, self._home)
            except Exception:  # a rule the screen cannot read (`[z-a]`) is left to the walk, which meets it as before
                pattern = None
            regex = pattern.regex if pattern is not None else None
            if pattern is None or regex is None or regex.flags != _PLAIN_FLAGS:
                self._open = True
                return []
            joined.setdefault(pattern.base, []).append(f"(?:{regex.pattern.replace(_DIR_MARK, '/')})")
        bases = [(base, base.rstrip("/") + "/", re.compile("|".join(parts))) for base, parts in joined.items()]
        if any("(?P<" in regex.pattern for _, _, regex in bases):
            self._open = True  # a named group left: not the regexes this module knows how to join
        return bases

    def may_cover(self, path: str, written: str | None, *, broad: bool, searches: bool) -> bool:
        """False only when no rule covers the file (a pattern word, `*.env`, is left to the rules)."""
        if not self.rules:
            return False
        if self._bases is None:
            self._bases = self._join()
        if self._open or isinstance(path, Glob):
            return True
        one = not searches and (written is None or written == path or not broad)  # most files: one target
        for target in (path,) if one else targets(path, written, broad=broad, searches=searches):
            for base, below, regex in self._bases:
                # `PathPattern.matches`: the path relative to the base, "." for the base itself.
                if target.startswith(below):
                    if regex.search(target[len(below) :].lstrip("/") or "."):
                        return True
                elif target == base and regex.search("."):
                    return True
        return False
