"""The rule an "always" answer offers first: the command's first words, `Bash(python:*)`.

Saving the exact command (`Bash(python -c 'import calc; print(calc.add(2, 3))')`) is safe and
useless: the model never types the same line twice. A prefix rule covers the next one. Which
words make the prefix:

- the program: `python -c '…'` → `python:*`, `pytest -x tests` → `pytest:*`;
- and its subcommand, for programs made of subcommands: `git log -1` → `git log:*`,
  `npm test` → `npm test:*`; a runner's subcommand takes the name it runs too: `npm run build`
  → `npm run build:*`, `uv run pytest` → `uv run pytest:*`;
- inside a transparent wrapper, the wrapped command: `timeout 5 npm test` → `npm test:*` (an
  allow rule sees through those wrappers, ADR-0021).

No prefix is offered (only the exact command is) where a prefix would allow far more than the
user saw: a program that runs other commands (`sudo`, `bash`, `xargs`, `env`, every wrapper of
`commands._WRAPPERS`), one that destroys (`rm`, `dd`, `chmod`, `kill`, `git push`, `git reset`…),
a subcommand program whose next word is an option (`git -C x status`), or a word only known at
run time. A script with a hazard gets no rule at all (the gate would ask anyway).
"""

import posixpath

from decode.permissions.commands import _RUNNERS, _WRAPPERS, SHELLS, Words
from decode.permissions.shell import Glob

# Programs made of subcommands: the prefix keeps the subcommand (`git log:*`, not `git:*`).
SUBCOMMANDS = frozenset(
    {
        *("git", "gh", "npm", "pnpm", "yarn", "bun", "deno", "cargo", "go", "rustup", "uv", "pip", "pip3"),
        *("poetry", "pdm", "hatch", "pipenv", "conda", "docker", "podman", "kubectl", "helm", "make"),
        *("just", "dotnet", "mvn", "gradle", "brew", "terraform"),
        *(runner for runner, _ in _RUNNERS),  # `mise exec …`, `bundle exec …`
    }
)
# Subcommands that run a name given next: the prefix keeps that name too (`npm run build:*`).
RUNS_NEXT = frozenset(
    {
        *(("npm", "run"), ("npm", "exec"), ("pnpm", "run"), ("pnpm", "exec"), ("pnpm", "dlx")),
        *(("yarn", "run"), ("yarn", "dlx"), ("bun", "run"), ("bun", "x"), ("uv", "run"), ("uv", "tool")),
        *(("cargo", "run"), ("go", "run")),
        *_RUNNERS,  # `uv run pytest:*`, `poetry run pytest:*`
    }
)
# Programs that run other commands (or strings): a prefix on them would allow anything.
RUNNERS = frozenset(
    {
        *_WRAPPERS,
        *SHELLS,
        "xargs",
        "eval",
        "source",
        ".",
        "su",
        "ssh",
        "watch",
        "parallel",
        "script",
        "runuser",
        # programs whose own arguments run commands or write anywhere (`sed '1e cmd'`, `awk 'BEGIN{system()}'`,
        # `tar --checkpoint-action=exec=…`, `sort --compress-program`, `rg --pre`, `find -exec`, `make --eval`):
        *("sed", "gsed", "awk", "gawk", "mawk", "nawk", "perl", "ruby", "tar", "sort", "rg", "find", "make"),
    }
)
# Programs, and subcommands, that destroy: only the exact command is ever saved.
DESTRUCTIVE = frozenset(
    {
        *("rm", "rmdir", "shred", "unlink", "dd", "mkfs", "wipefs", "fdisk", "parted", "truncate", "mv"),
        *("chmod", "chown", "chgrp", "kill", "pkill", "killall", "shutdown", "reboot", "halt", "poweroff"),
        *("crontab", "systemctl", "git push", "git reset", "git clean", "git restore", "git checkout"),
        *("git rebase", "git filter-branch", "git update-ref", "git gc", "git prune", "docker rm"),
        *("docker rmi", "docker system", "kubectl delete", "terraform apply", "terraform destroy"),
        # and subcommands that run any command or package, where a prefix would allow anything:
        *("npm exec", "pnpm exec", "pnpm dlx", "yarn dlx", "bun x", "uv tool", "docker exec", "docker run"),
        *("kubectl exec", "kubectl run", "git config", "git submodule"),
        # subcommands whose options run a program or write outside the project (`git fetch --upload-pack=…`,
        # `git log --output=…`, `npm test --script-shell=…`), or whose other spellings destroy (`git stash clear`):
        *("git fetch", "git pull", "git clone", "git ls-remote", "git archive", "git stash", "git branch"),
        *("git tag", "git remote", "git worktree", "git log", "git diff", "git show", "git blame", "git grep"),
        *("gh pr", "gh repo", "gh release", "gh api", "gh issue", "gh gist", "gh secret", "gh workflow"),
        *("npm install", "npm i", "npm ci", "npm test", "npm t", "npm run", "npm start", "pnpm install"),
        *("pnpm test", "pnpm run", "yarn install", "yarn add", "yarn test", "yarn run", "bun install", "bun run"),
        *("pip install", "pip3 install", "uv pip", "uv add", "uv sync", "cargo install", "go install"),
    }
)


def command_prefix(form: Words) -> tuple[str, ...] | None:
    """The first words of `form` a prefix rule should name; None when only the exact command may be saved."""
    words: list[str] = []
    for word in form:
        if word is None or not word or word.startswith("-"):
            break
        words.append(word)
    if not words or _is_pattern(words[0]):
        return None
    name = posixpath.basename(words[0])
    if name in RUNNERS or name in DESTRUCTIVE:
        return None
    if name not in SUBCOMMANDS:
        return (words[0],)
    if len(words) < 2 or _is_pattern(words[1]) or f"{name} {words[1]}" in DESTRUCTIVE:
        return None  # `git` alone, `git -C x status`: no subcommand to keep
    if (name, words[1]) not in RUNS_NEXT:
        return tuple(words[:2])
    if len(words) < 3 or command_prefix((words[2],)) is None:
        return None  # `uv run rm …`: what it runs must be one a prefix may name
    return tuple(words[:3])


def _is_pattern(word: str) -> bool:
    """A word a rule could not spell plainly (a glob, quotes, `NAME=value`)."""
    return isinstance(word, Glob) or any(c in word for c in "*?[]{}$`\\'\"=")
