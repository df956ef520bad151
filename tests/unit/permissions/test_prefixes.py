"""What "always" saves: the words that name what ran, never the bare program (ADR-0085)."""

from pathlib import Path

import pytest

from decode.permissions.gate import PermissionGate
from decode.permissions.prefixes import command_prefix
from decode.permissions.rules import parse_rule
from decode.permissions.types import Decision
from decode.tools.bash import BASH


def gate(tmp_path: Path, *allowed: str) -> PermissionGate:
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    return PermissionGate(
        [parse_rule(rule, Decision.ALLOW) for rule in allowed], workspace=project, home=tmp_path / "home"
    )


async def offered(tmp_path: Path, command: str) -> str:
    """The rule `a` saves for `command` (the first choice), as one text."""
    choices = await gate(tmp_path).rule_choices("bash", {"command": command}, BASH.traits)
    return ", ".join(choices[0]) if choices else ""


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        # interpreters and runners: the script or module, never the program
        ("python3 -m pytest -x", "Bash(python3 -m pytest:*)"),
        ("python script.py --x", "Bash(python script.py:*)"),
        ("python3.12 tools/gen.py", "Bash(python3.12 tools/gen.py:*)"),
        (".venv/bin/python -m pytest tests", "Bash(.venv/bin/python -m pytest:*)"),
        ("python -u serve.py", "Bash(python -u serve.py:*)"),
        ("python -m pip list", "Bash(python -m pip list:*)"),
        ("node build.js --prod", "Bash(node build.js:*)"),
        ("php artisan migrate", "Bash(php artisan:*)"),
        ("lua x.lua", "Bash(lua x.lua:*)"),
        ("ruby x.rb", "Bash(ruby x.rb:*)"),
        ("perl x.pl a", "Bash(perl x.pl:*)"),
        ("pwsh -File build.ps1", "Bash(pwsh -File build.ps1:*)"),
        ("deno run x.ts", "Bash(deno run x.ts:*)"),
        ("deno task build", "Bash(deno task build:*)"),
        ("bun x.ts", "Bash(bun x.ts:*)"),
        ("bash scripts/ci.sh fast", "Bash(bash scripts/ci.sh:*)"),
        ("uv run pytest -x", "Bash(uv run pytest:*)"),
        ("uv run python x.py", "Bash(uv run python x.py:*)"),
        ("npx prettier --check .", "Bash(npx prettier:*)"),
        ("npx tsx build.ts", "Bash(npx tsx build.ts:*)"),
        ("uvx ruff check", "Bash(uvx ruff:*)"),
        ("java -jar app.jar serve", "Bash(java -jar app.jar:*)"),
        ("timeout 60 python x.py", "Bash(python x.py:*)"),
        # multi-level CLIs: the subcommand path
        ("aws s3 ls s3://bucket", "Bash(aws s3 ls:*)"),
        ("aws ec2 describe-instances", "Bash(aws ec2 describe-instances:*)"),
        ("gcloud compute instances list --zone x", "Bash(gcloud compute instances list:*)"),
        ("az storage account list", "Bash(az storage account list:*)"),
        ("kubectl get pods -A", "Bash(kubectl get:*)"),
        ("kubectl rollout status deploy/web", "Bash(kubectl rollout status:*)"),
        ("docker ps -a", "Bash(docker ps:*)"),
        ("docker compose ps", "Bash(docker compose ps:*)"),
        ("gh pr view 12", "Bash(gh pr view:*)"),
        ("gh status", "Bash(gh status:*)"),
        ("helm list", "Bash(helm list:*)"),
        # the rest as before: a program's name, a subcommand
        ("pytest -x tests", "Bash(pytest:*)"),
        ("cargo test --release", "Bash(cargo test:*)"),
    ],
)
async def test_always_saves_what_ran_not_the_program(tmp_path: Path, command: str, rule: str) -> None:
    assert await offered(tmp_path, command) == rule


@pytest.mark.parametrize(
    "command",
    [
        # code inline, or the bare interpreter: no prefix, only this command
        "python -c 'import os'",
        "python3 -c 'print(1)'",
        "node -e 'require(1)'",
        "perl -e 'print 1'",
        "ruby -e 1",
        "php -r 'echo 1;'",
        "deno eval 'Deno.exit()'",
        "python",
        "python -W ignore x.py",  # an option the table does not know: its value could be the script
        "python -m timeit 'import os'",  # a module whose arguments are code
        "python -m pip install requests",  # pip install: destructive on its own
        "uv run python -c 'x'",
        "npx -y something",
        "pwsh -Command 'Get-ChildItem'",
        # a CLI with too few words, or a verb that changes things
        "aws s3",
        "aws --profile prod s3 ls",
        "aws s3 rm s3://b/k",
        "aws s3 cp s3://b/k ~/.bashrc",
        "aws ec2 terminate-instances --instance-ids i-1",
        "gcloud compute instances delete vm",
        "gcloud",
        "az vm delete -n x",
        "kubectl delete pod x",
        "kubectl exec -it p sh",
        "docker run alpine",
        "docker compose down",
        "gh pr merge 12",
        "gh api repos/x",
        # readers and copiers: their files could be anywhere
        "cat /etc/hosts",
        "head -5 /var/log/syslog",
        "tail -f /var/log/syslog",
        "less README.md",
        "grep -r TODO /usr/include",
        "wc -l /etc/passwd",
        "cp /etc/hosts hosts.txt",
        "tee -a log.txt",
        # programs with a command of their own (attack review of issue 25)
        "tmux ls",
        "screen -ls",
        "sqlite3 app.db .tables",
        "psql -c 'select 1'",
        "mysql -e 'select 1'",
        "gdb -batch x",
        "nc -z localhost 80",
        "ncat -z localhost 80",
        "netcat -z localhost 80",
        "socat - TCP:localhost:80",
        "cmake --build .",
        "man ls",
        "zip -r out.zip src",
        "rake test",
        "sysctl -a",
        "ssh-add -l",
        # readers, copiers and secret stores
        "openssl version",
        "gpg --list-keys",
        "age -d x.age",
        "sops -d x.yaml",
        "7z l x.7z",
        "unzip -l x.zip",
        "http GET example.com",
        "https GET example.com",
        "xh example.com",
        "aria2c https://example.com/x",
        "vault read secret/x",
        "op read op://x/y",
        "bw list items",
        "pass show x",
        "security find-generic-password -s x",
        "doppler secrets",
        # a subcommand whose next word could do far more
        "terraform state list",
        "npm config get registry",
        "npm token list",
        "pip config list",
        "poetry config --list",
        "git lfs ls-files",
        "git annex info",
        "git notes show",
        "kubectl config view",
        # git verbs that destroy or run commands
        "git rm a",
        "git switch main",
        "git reflog",
        "git filter-repo --path x",
        "git bisect start",
        "git daemon --export-all",
        "git send-email x.patch",
        "git init",
    ],
)
async def test_no_prefix_where_one_would_allow_more_than_was_seen(tmp_path: Path, command: str) -> None:
    choices = await gate(tmp_path).rule_choices("bash", {"command": command}, BASH.traits)
    assert all(":*" not in rule for choice in choices for rule in choice), choices


@pytest.mark.parametrize(
    ("approved", "outside"),
    [
        ("python3 -m pytest -x", "python3 -c 'import shutil; shutil.rmtree(\"/\")'"),
        ("python3 -m pytest -x", "python3 evil.py"),
        ("python script.py --x", "python other.py"),
        ("node build.js", "node -e 'process.exit()'"),
        ("aws s3 ls", "aws s3 rm s3://bucket/key"),
        ("aws s3 ls", "aws iam list-users"),
        ("kubectl get pods", "kubectl delete pods --all"),
        ("gh pr view 12", "gh pr merge 12"),
        ("gcloud compute instances list", "gcloud compute instances delete vm"),
        ("cat /etc/hosts", "cat /etc/shadow"),
        ("cat /etc/hosts", "cat ~/.ssh/id_rsa"),
        ("head -5 /etc/hosts", "head -5 /etc/shadow"),
        ("tmux ls", "tmux new -d 'git push'"),
        ("terraform state list", "terraform state rm x"),
        ("npm config get registry", "npm config set registry x"),
        ("kubectl config view", "kubectl config view --raw"),
        ("git rm a", "git rm -rf ."),
        ("vault read secret/x", "vault read secret/y"),
    ],
)
async def test_the_saved_rule_does_not_allow_a_command_outside_it(tmp_path: Path, approved: str, outside: str) -> None:
    choices = await gate(tmp_path).rule_choices("bash", {"command": approved}, BASH.traits)
    after = gate(tmp_path, *choices[0])
    assert (await after.check("bash", {"command": approved}, BASH.traits)).decision is Decision.ALLOW
    assert (await after.check("bash", {"command": outside}, BASH.traits)).decision is Decision.ASK


def test_a_word_known_only_at_run_time_ends_the_prefix() -> None:
    assert command_prefix(("python", None)) is None
    assert command_prefix(("uv", "run", None)) is None
    assert command_prefix(("pytest", None)) == ("pytest",)
    assert command_prefix(()) is None
