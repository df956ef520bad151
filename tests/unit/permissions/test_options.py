"""Options spelled another way mean the same to a deny rule: `rm -fr` is `rm -rf`."""

from pathlib import Path

import pytest

from decode.permissions.options import deny_matches, read
from decode.permissions.types import Decision, Mode
from decode.tools.catalog import default_tools
from tests.unit.permissions.conftest import gate_with

BASH = next(spec for spec in default_tools() if spec.name == "bash")

# (deny rule, a command that does what it denies with its options written another way)
SAME = [
    ("rm -rf:*", "rm -fr x"),
    ("rm -rf:*", "rm -r -f x"),
    ("rm -rf:*", "rm -R -f x"),
    ("rm -rf:*", "rm --recursive --force x"),
    ("rm -rf:*", "rm --rec --forc x"),  # GNU tools accept any unambiguous abbreviation
    ("rm -rf:*", "rm -f x -r"),  # GNU rm reads options after its files too
    ("rm -rf:*", "rm -rfv x"),
    ("rm -rf /", "rm -fr /"),  # an exact rule: the same options and words, in any order
    ("rm -r:*", "/bin/rm -Rf x"),
    ("git reset --hard:*", "git reset HEAD~1 --hard"),
    ("git push --force:*", "git push -f"),
    ("git push --force:*", "git push origin --force"),
    ("git push --force:*", "git push --force-with-lease origin main"),
    ("git push --force:*", "git push origin +main"),  # a `+` refspec forces
    ("git push --force:*", "git push --forc"),
    ("git push --delete:*", "git push origin :old-branch"),  # a `:` refspec deletes
    ("git push origin:*", "git push -f origin main"),
    ("git clean -fdx:*", "git clean -x -d --force"),
    ("git checkout --force:*", "git checkout -f main"),
    ("git branch -D:*", "git branch --delete --force old"),
    ("git branch -D:*", "git branch -df old"),
    ("git commit --no-verify:*", "git commit -nm wip"),
    ("chmod -R:*", "chmod --recursive 777 /"),
    ("chown -R:*", "chown root:root -R /srv"),
    ("docker rm -f:*", "docker rm --force web"),
    ("docker rm -f:*", "docker container rm -f web"),
    ("docker system prune -a:*", "docker system prune --all --force"),
    ("kubectl delete --force:*", "kubectl delete pod x --force --grace-period=0"),
    ("kubectl delete -n prod:*", "kubectl delete --namespace=prod pod x"),
    ("find -delete:*", "find . -name '*.o' -delete"),
]
# Not the same: a deny must not stop these.
DIFFERENT = [
    ("rm -rf:*", "rm -f x"),
    ("rm -rf:*", "rm -- -rf"),  # after `--`, a file named -rf
    ("git branch -D:*", "git branch -d old"),  # the safe delete
    ("git push --force:*", "git push origin main"),
    ("git push --force:*", "git push --follow-tags"),
    ("kubectl delete --force:*", "kubectl delete -f pod.yaml"),  # -f is --filename for kubectl
    ("chmod -R:*", "chmod -r file"),  # a mode, not --recursive
    ("rm -rf /", "rm -fr / x"),
    ("git reset --hard:*", "git revert --hard"),
]


@pytest.mark.parametrize(("specifier", "command"), SAME)
def test_options_written_another_way_match_a_deny(specifier: str, command: str) -> None:
    assert deny_matches(specifier, tuple(command.replace("'", "").split())) is True


@pytest.mark.parametrize(("specifier", "command"), DIFFERENT)
def test_other_options_do_not(specifier: str, command: str) -> None:
    assert deny_matches(specifier, tuple(command.split())) is False


@pytest.mark.parametrize("mode", list(Mode))
@pytest.mark.parametrize(("specifier", "command"), SAME[:6] + SAME[10:14])
async def test_the_gate_denies_them_in_every_mode(tmp_path: Path, specifier: str, command: str, mode: Mode) -> None:
    gate = gate_with(tmp_path, f"deny Bash({specifier})", "allow Bash", mode=mode)
    verdict = await gate.check("bash", {"command": command}, BASH.traits)
    assert verdict.decision is Decision.DENY, verdict.reason


async def test_only_for_deny_and_ask_never_to_allow(tmp_path: Path) -> None:
    gate = gate_with(tmp_path, "allow Bash(rm -rf build)", "ask Bash(git push --force:*)", mode=Mode.BYPASS)
    verdict = await gate.check("bash", {"command": "rm -fr build"}, BASH.traits)
    assert verdict.decision is Decision.ALLOW
    assert verdict.rule is None
    gate.mode = Mode.DEFAULT
    verdict = await gate.check("bash", {"command": "rm -fr build"}, BASH.traits)
    assert verdict.decision is Decision.ASK, verdict.reason  # the allow names `-rf`, not `-fr`
    verdict = await gate.check("bash", {"command": "git push -f origin"}, BASH.traits)
    assert verdict.decision is Decision.ASK
    assert verdict.rule is not None
    assert verdict.rule.text == "Bash(git push --force:*)"


def test_a_word_only_known_at_run_time_could_be_the_option() -> None:
    assert deny_matches("rm -rf:*", ("rm", "-f", None)) is None  # `rm -f $x`: $x may be -r


def test_a_command_read_as_options_see_it() -> None:
    reading = read(("git", "branch", "-D", "old"))
    assert reading is not None
    assert (reading.program, reading.options, reading.rest) == (("git", "branch"), {"-d", "-f"}, ("old",))
    assert read(("ls", "-la")) is None  # not in the table: words are compared as written
    reading = read(("git", "push", "-o", "ci.skip", "origin"))
    assert reading is not None
    assert reading.rest == ("origin",)


# A rule written with Claude Code's `*` reads its options the same way (ADR-0083).
STARRED = [
    ("rm -rf*", "rm -fr x"),
    ("rm -rf*", "rm -r -f x"),
    ("rm -rf*", "rm --recursive --force x"),
    ("rm -rf*", "rm x -rf"),
    ("git push --force*", "git push -f"),
    ("git push --force*", "git push origin --force"),
    ("git push --force*", "git push origin +main"),
    ("git reset --hard*", "git reset HEAD --hard"),
    ("git push * --force", "git push -f origin"),
    ("git push * --force", "git push --force origin"),
    ("git push origin * --force", "git push -f origin main"),
    ("git clean -f*", "git clean -xdf"),
    ("git clean -f*", "git clean -d -f"),
    ("docker rm*", "docker container rm c"),
    ("git push * --force *", "git push -f origin main"),
]
STARRED_DIFFERENT = [
    ("rm -rf*", "rm -f x"),
    ("git push * --force", "git push origin main"),
    ("git push origin * --force", "git push -f upstream main"),  # the words before the `*` still count
    ("docker * rm", "docker container rm x"),  # a `*` before the subcommand: words as written
    ("git reset --hard*", "git reset --soft HEAD"),
]


@pytest.mark.parametrize(("specifier", "command"), STARRED)
def test_a_rule_with_a_star_reads_options_too(specifier: str, command: str) -> None:
    assert deny_matches(specifier, tuple(command.split())) is True


@pytest.mark.parametrize(("specifier", "command"), STARRED_DIFFERENT)
def test_a_rule_with_a_star_denies_no_other_options(specifier: str, command: str) -> None:
    assert deny_matches(specifier, tuple(command.split())) is False


@pytest.mark.parametrize(
    ("specifier", "command"),
    [
        ("git push --force:*", "git push --mirror"),  # it overwrites the remote's refs
        ("git push --delete:*", "git push --mirror origin"),  # and deletes those it lacks
        ("rm -rf:*", "rm -r --interactive=never x"),  # never asks: `-f`
        ("rm -rf:*", "rm -r --inter=no x"),
    ],
)
def test_options_that_mean_another(specifier: str, command: str) -> None:
    assert deny_matches(specifier, tuple(command.split())) is True


def test_interactive_when_asked_is_not_force() -> None:
    assert deny_matches("rm -rf:*", ("rm", "-r", "--interactive=always", "x")) is False


@pytest.mark.parametrize(
    ("specifier", "command", "expected"),
    [
        ("npm publish:*", "npm publ", True),  # npm runs a unique start of a command's name
        ("npm publish:*", "npm pu --tag next", True),
        ("npm publish", "npm publ", True),
        ("npm publish*", "npm publ", True),
        ("npm publish:*", "npm pack", False),
        ("npm publish:*", "npm p", False),  # too short to be read as one command
    ],
)
def test_an_npm_command_abbreviated(specifier: str, command: str, expected: bool) -> None:
    assert deny_matches(specifier, tuple(command.split())) is expected
