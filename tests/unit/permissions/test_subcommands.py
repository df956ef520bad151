"""Global options before a subcommand do not hide it from a deny rule (`git -C x push` is `git push`)."""

from pathlib import Path

import pytest

from decode.permissions.commands import analyse_command
from decode.permissions.subcommands import GLOBAL_OPTIONS, drop_toolchain
from decode.permissions.types import Decision, Mode
from decode.tools.catalog import default_tools
from tests.unit.permissions.conftest import gate_with

BASH = next(spec for spec in default_tools() if spec.name == "bash")

# (deny rule, a command that runs what it denies behind the program's global options), tool by tool.
HIDDEN = [
    ("Bash(git push:*)", "git -C x -c a=b --no-pager push origin"),
    ("Bash(git push:*)", "git -Cx push"),
    ("Bash(git push:*)", "git --git-dir=.git --work-tree . push"),
    ("Bash(git push:*)", "git --git-dir .git push"),
    ("Bash(git push:*)", "git -P --paginate --bare --literal-pathspecs --no-replace-objects push"),
    ("Bash(git push:*)", "git --exec-path=/usr/lib/git-core --namespace ns push"),
    ("Bash(git push:*)", "git --config-env core.pager=PAGER push"),
    ("Bash(git push:*)", "git --unknown-option value push"),  # read both ways
    ("Bash(git push --force:*)", "git -C x push --force origin"),
    ("Bash(git reset --hard:*)", "/usr/bin/git --no-pager reset --hard"),
    ("Bash(docker rm:*)", "docker --context prod -H tcp://h:2375 rm -f web"),
    ("Bash(docker rm:*)", "docker --config /tmp/c -l debug --tls rm web"),
    ("Bash(docker system prune:*)", "docker -D system prune -af"),
    ("Bash(podman rm:*)", "podman --remote --connection x rm web"),
    ("Bash(kubectl delete:*)", "kubectl -n prod delete pod x"),
    ("Bash(kubectl delete:*)", "kubectl --namespace=prod --context c --kubeconfig k -s https://h delete ns x"),
    ("Bash(kubectl delete:*)", "kubectl --insecure-skip-tls-verify -v 9 delete pod x"),
    ("Bash(helm uninstall:*)", "helm -n prod --kube-context c uninstall app"),
    ("Bash(npm publish:*)", "npm --prefix pkg -w a --workspace b publish"),
    ("Bash(npm publish:*)", "npm -g --silent publish"),
    ("Bash(pnpm publish:*)", "pnpm -C pkg --filter a publish"),
    ("Bash(cargo publish:*)", "cargo +nightly -C crate --config x=1 -Z unstable-options publish"),
    ("Bash(cargo publish:*)", "cargo --locked -q publish"),
    ("Bash(go run:*)", "go -C tool run ."),
    ("Bash(pip install:*)", "pip --python /usr/bin/python3 -q install x"),
    ("Bash(pip3 install:*)", "pip3 --isolated --cache-dir /tmp install x"),
    ("Bash(uv pip:*)", "uv --directory x --project y -q pip install z"),
    ("Bash(rm:*)", "uv --directory x run rm -rf /"),  # then `uv run` runs rm
    ("Bash(systemctl stop:*)", "systemctl --user -H host -M machine --no-pager stop x"),
    ("Bash(terraform destroy:*)", "terraform -chdir=infra destroy"),
    ("Bash(make deploy:*)", "make -C site -j 4 deploy"),
]


@pytest.mark.parametrize("mode", list(Mode))
@pytest.mark.parametrize(("rule", "command"), HIDDEN)
async def test_global_options_do_not_hide_the_subcommand_from_a_deny(
    tmp_path: Path, rule: str, command: str, mode: Mode
) -> None:
    verdict = await gate_with(tmp_path, f"deny {rule}", mode=mode).check("bash", {"command": command}, BASH.traits)
    assert verdict.decision is Decision.DENY, verdict.reason


@pytest.mark.parametrize(("rule", "command"), HIDDEN[:3] + HIDDEN[10:12])
async def test_an_ask_rule_sees_through_them_too(tmp_path: Path, rule: str, command: str) -> None:
    verdict = await gate_with(tmp_path, f"ask {rule}", mode=Mode.BYPASS).check(
        "bash", {"command": command}, BASH.traits
    )
    assert verdict.decision is Decision.ASK, verdict.reason


@pytest.mark.parametrize(
    ("allow", "command"),
    [
        ("Bash(git status)", "git -c core.pager=sh status"),
        ("Bash(git status:*)", "git -c core.fsmonitor=x status"),
        ("Bash(git status:*)", "git --exec-path=/tmp/evil status"),
        ("Bash(git status:*)", "git --git-dir=/tmp/evil/.git status"),
        ("Bash(git status:*)", "git -C /tmp/elsewhere status"),
        ("Bash(docker ps:*)", "docker --config /tmp/evil ps"),
        ("Bash(kubectl get:*)", "kubectl --kubeconfig /tmp/evil get pods"),
        ("Bash(cargo build:*)", "cargo --config build.rustc-wrapper=sh build"),
        ("Bash(pip list:*)", "pip --python /tmp/evil list"),
    ],
)
async def test_an_allow_rule_is_not_widened_by_them(tmp_path: Path, allow: str, command: str) -> None:
    # These options can make the program run another one: only a rule naming them allows them.
    gate = gate_with(tmp_path, f"allow {allow}")
    verdict = await gate.check("bash", {"command": command}, BASH.traits)
    assert verdict.decision is Decision.ASK, verdict.reason


@pytest.mark.parametrize(
    ("command", "form"),
    [
        ("git -C x status", ("git", "status")),
        ("git --weird x log", ("git", "x", "log")),  # an unknown option read as taking no value…
        ("git --weird x log", ("git", "log")),  # …and as taking one
        ("cargo +stable build", ("cargo", "build")),
    ],
)
def test_the_forms_a_deny_sees(command: str, form: tuple[str, ...]) -> None:
    (check,) = analyse_command(command).checks
    assert form in check.block_forms
    assert check.allow_forms == (tuple(command.split()),)


def test_git_dash_c_is_found_behind_other_global_options() -> None:
    # `-C x` used to end the search for `-c`: the configured pager went unchecked.
    analysis = analyse_command("git -C x -c core.pager='rm -rf /' log")
    assert "git -c sets configuration that git may run as a command" in analysis.hazards
    assert ("rm", "-rf", "/") in [form for check in analysis.checks for form in check.block_forms]


def test_the_table_and_the_toolchain_word() -> None:
    assert {"git", "docker", "kubectl", "npm", "cargo", "go", "pip", "uv", "systemctl"} <= set(GLOBAL_OPTIONS)
    assert drop_toolchain(("cargo", "+nightly", "build")) == ("cargo", "build")
    assert drop_toolchain(("git", "+x", "push")) == ("git", "+x", "push")
