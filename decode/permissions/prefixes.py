"""The rule an "always" answer offers first: the words that name what ran, `Bash(python3 -m pytest:*)`.

Saving the exact command (`Bash(python -c 'import calc; print(calc.add(2, 3))')`) is safe and
useless: the model never types the same line twice. A prefix rule covers the next one. But a
prefix must cover no more than the user saw (ADR-0085). Which words make it:

- a plain program: its name, `pytest -x tests` → `pytest:*`;
- a program made of subcommands: the subcommand too, `git log -1` → `git log:*`, `npm test` →
  `npm test:*`; a runner's subcommand takes the name it runs too: `npm run build` → `npm run
  build:*`, and a command runner what it runs, judged the same way: `uv run pytest` → `uv run
  pytest:*`, `npx tsx build.ts` → `npx tsx build.ts:*`;
- an interpreter: the script or module it runs, never the bare program (`command_paths`):
  `python3 -m pytest -x` → `python3 -m pytest:*`, `node build.js` → `node build.js:*`;
  code given inline (`python -c`, `node -e`) gets no prefix;
- a multi-level CLI: its subcommand path (`command_paths`): `aws s3 ls` → `aws s3 ls:*`,
  `gcloud compute instances list:*`, `kubectl get:*`, `gh pr view:*`;
- inside a transparent wrapper, the wrapped command: `timeout 5 npm test` → `npm test:*` (an
  allow rule sees through those wrappers, ADR-0021).

No prefix is offered (only the exact command is) where a prefix would allow far more than the
user saw: a program that runs other commands (`sudo`, `xargs`, `env`, every wrapper of
`wrappers.WRAPPERS`), one that destroys (`rm`, `dd`, `chmod`, `kill`, `git push`, `git reset`…),
one that reads or copies the files it names (`cat`, `head`, `grep`, `cp`, `tee`…: `Bash(cat:*)`
allows `cat ~/.ssh/id_rsa`), one with a command or shell of its own (`tmux`, `psql`, `nc`, `cmake -E`),
a secret store (`vault`, `op`, `pass`), a subcommand program whose next word is an option (`git -C x status`),
a CLI path that ends in a verb that changes things (`aws s3 rm`, `kubectl delete`), or a word only
known at run time. A script with a hazard gets no rule at all (the gate would ask anyway).
"""

import posixpath

from decode.permissions.command_paths import interpreter, is_subcommand_cli, script_path, subcommand_path
from decode.permissions.command_reading import Words
from decode.permissions.foreign_shells import FOREIGN_SHELLS
from decode.permissions.launchers import LAUNCHERS
from decode.permissions.shell_glob import Glob
from decode.permissions.string_runners import SHELLS
from decode.permissions.wrappers import TWO_WORD_WRAPPERS, WRAPPERS

# Programs made of subcommands: the prefix keeps the subcommand (`git log:*`, not `git:*`).
SUBCOMMANDS = frozenset(
    {
        *("git", "gh", "npm", "pnpm", "yarn", "bun", "deno", "cargo", "go", "rustup", "uv", "pip", "pip3"),
        *("poetry", "pdm", "hatch", "pipenv", "conda", "docker", "podman", "kubectl", "helm", "make"),
        *("just", "dotnet", "mvn", "gradle", "brew", "terraform"),
        *(runner for runner, _ in TWO_WORD_WRAPPERS),  # `mise exec …`, `bundle exec …`
    }
)
# Subcommands that run a name given next: the prefix keeps that name too (`npm run build:*`).
RUNS_NEXT = frozenset(
    {
        *(("npm", "run"), ("npm", "exec"), ("pnpm", "run"), ("pnpm", "exec"), ("pnpm", "dlx")),
        *(("yarn", "run"), ("yarn", "dlx"), ("bun", "run"), ("bun", "x"), ("uv", "tool")),
        *(("cargo", "run"), ("go", "run"), ("deno", "run"), ("deno", "task")),
    }
)
# Runners of a command given next, judged as a command of its own: `uv run pytest:*`,
# `uv run python x.py:*` (never `uv run python:*`), `npx prettier:*`.
RUNS_COMMAND = frozenset({*TWO_WORD_WRAPPERS, ("pipx", "run")})
COMMAND_RUNNERS = frozenset({"npx", "bunx", "pnpx", "uvx"})
# Programs that read, or copy, the files they name: a prefix would allow every file on the
# machine (`Bash(cat:*)` allows `cat ~/.ssh/id_rsa`), so only the exact command is saved. Inside
# the project, the read-only list runs most of them without asking anyway.
READERS = frozenset(
    {
        *("cat", "tac", "head", "tail", "less", "more", "most", "view", "wc", "grep", "egrep", "fgrep", "zgrep"),
        *("zcat", "bzcat", "xzcat", "zstdcat", "zless", "file", "stat", "od", "xxd", "hexdump", "hd", "strings"),
        *("nl", "cut", "diff", "cmp", "comm", "md5sum", "sha1sum", "sha256sum", "sha512sum", "b2sum", "cksum"),
        *("base64", "base32", "jq", "yq", "bat", "batcat", "column", "fold", "fmt", "paste", "uniq", "join"),
        *("expand", "unexpand", "pr", "iconv", "ls", "tree", "du", "readlink", "realpath", "lsattr", "getfacl"),
        *("exa", "eza", "ag", "ack", "fd", "fdfind", "diff3", "sdiff", "vim", "vi", "nvim", "nano", "emacs"),
        # and those that copy or write the files they name, wherever they are:
        *("cp", "ln", "install", "rsync", "scp", "tee", "patch", "split", "csplit", "curl", "wget"),
        # archivers, crypto and HTTP tools that read or write any file they are given (`http x @file`):
        *("openssl", "gpg", "gpg2", "age", "sops", "7z", "7za", "7zz", "unzip", "http", "https", "xh", "xhs"),
        "aria2c",
    }
)
# Secret stores: every subcommand hands out secrets (`vault read`, `op read`, `pass show`).
SECRET_STORES = frozenset({"vault", "op", "bw", "pass", "gopass", "security", "doppler", "infisical"})
# Programs that run other commands (or strings): a prefix on them would allow anything.
RUNNERS = frozenset(
    {
        *WRAPPERS,
        *SHELLS,  # with a script file they are interpreters (`command_paths`): `bash x.sh:*`
        *FOREIGN_SHELLS,
        *LAUNCHERS,  # `at`, `hyperfine`, `nix-shell`, `wsl`…: they run what follows
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
        # and programs with a command of their own (`tmux new -d CMD`, sqlite3's `.shell`, psql's `\!`,
        # `nc -e`, `cmake -E rm`, `man -P`, `zip -TT`, `rake -e`, `sysctl -w`, `ssh-add -s lib.so`):
        *("tmux", "screen", "sqlite3", "psql", "mysql", "mariadb", "gdb", "lldb", "nc", "ncat", "netcat"),
        *("socat", "cmake", "man", "zip", "rake", "sysctl", "ssh-add"),
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
        *("kubectl exec", "kubectl run", "git config", "git submodule", "deno eval", "deno repl", "deno x"),
        *("deno install", "bun add", "git rm", "git switch", "git reflog", "git filter-repo", "git bisect"),
        *("git daemon", "git send-email", "git init", "git lfs", "git annex", "git notes"),
        # groups whose next word may read secrets or change settings (`terraform state rm`, `npm config set`,
        # `kubectl config view --raw`):
        *("terraform state", "npm config", "npm token", "pip config", "pip3 config", "poetry config"),
        *("kubectl config", "oc config"),
        # subcommands whose options run a program or write outside the project (`git fetch --upload-pack=…`,
        # `git log --output=…`, `npm test --script-shell=…`), or whose other spellings destroy (`git stash clear`):
        *("git fetch", "git pull", "git clone", "git ls-remote", "git archive", "git stash", "git branch"),
        *("git tag", "git remote", "git worktree", "git log", "git diff", "git show", "git blame", "git grep"),
        # (gh: its verbs that change things are `command_paths.CHANGES`: `gh pr merge`, `gh repo clone`)
        *("npm install", "npm i", "npm ci", "npm test", "npm t", "npm run", "npm start", "pnpm install"),
        *("pnpm test", "pnpm run", "yarn install", "yarn add", "yarn test", "yarn run", "bun install", "bun run"),
        *("pip install", "pip3 install", "uv pip", "uv add", "uv sync", "cargo install", "go install"),
    }
)


def command_prefix(form: Words) -> tuple[str, ...] | None:
    """The first words of `form` a prefix rule should name; None when only the exact command may be saved."""
    known: list[str] = []
    for word in form:
        if word is None or not word or _is_pattern(word):
            break
        known.append(word)
    if not known or known[0].startswith("-"):
        return None
    name = posixpath.basename(known[0])
    if (spec := interpreter(name)) is not None:
        found = script_path(known, spec)
        if found is None:
            return None
        named, module = found
        inner = command_prefix(tuple(module)) if module else ()
        return None if inner is None else (*named, *inner)
    if name in COMMAND_RUNNERS:  # `npx prettier .` → `npx prettier`
        inner = command_prefix(tuple(known[1:]))
        return None if inner is None else (known[0], *inner)
    if name in RUNNERS or name in DESTRUCTIVE or name in READERS or name in SECRET_STORES:
        return None
    words = _plain(known)
    if len(words) > 1 and f"{name} {words[1]}" in DESTRUCTIVE:
        return None
    if is_subcommand_cli(name):
        path = subcommand_path(name, words)
        return tuple(path) if path is not None else None
    if (name, words[1] if len(words) > 1 else "") in RUNS_COMMAND:
        inner = command_prefix(tuple(known[2:]))  # `uv run python -m pytest`: its own options count
        return None if inner is None else (*words[:2], *inner)
    if name not in SUBCOMMANDS:
        return (words[0],)
    if len(words) < 2:
        return None  # `git` alone, `git -C x status`: no subcommand to keep
    if (name, words[1]) not in RUNS_NEXT:
        return tuple(words[:2])
    if len(words) < 3:
        return None
    return tuple(words[:3])


def _plain(words: list[str]) -> list[str]:
    """The words before the first option."""
    plain: list[str] = []
    for word in words:
        if word.startswith("-"):
            break
        plain.append(word)
    return plain


def _is_pattern(word: str) -> bool:
    """A word a rule could not spell plainly (a glob, quotes, `NAME=value`)."""
    return isinstance(word, Glob) or any(c in word for c in "*?[]{}$`\\'\"=")
