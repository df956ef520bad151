"""Safe git: decode's own git commands run no program a repository's configuration names.

git runs programs its configuration names: hooks (`.git/hooks/*`, `core.hooksPath`),
`core.fsmonitor`, a pager, an editor, filter drivers (`.gitattributes` says `filter=x`, the
config says what `filter.x.clean` runs), diff and merge drivers, signing programs, credential
helpers, `core.sshCommand`. A repository's `.git/config` (and what its `include.path` pulls in)
is whoever wrote the repository's; the user's `~/.gitconfig` is the user's. Every git command
decode runs itself — the status line of the instructions, the `--repo` clone, the hand-back,
`/ship` — is built here, in two parts:

- `SAFE_OPTIONS`, on every command line: command-line config wins over every file, so hooks,
  fsmonitor, pager, editor, signing and `ext::` remotes are off whatever any file says;
- `neutralising(listing)`, for a repository decode does not own: every program-naming key that
  the repository's own config (scope `local` or `worktree`, includes counted) sets is overridden
  with a value that runs nothing (`filter.x.clean=`, `merge.x.driver=`…). The listing is
  `git config --list --show-scope -z` (`LIST_CONFIG`): reading config runs nothing.

What the commands add themselves: `--no-ext-diff --no-textconv` for a diff, and no recursion into
nested repositories (`--ignore-submodules=dirty` for status), whose config decode never read.
git never lets an alias replace a built-in command, and decode runs only built-ins.
"""

import re

SAFE_OPTIONS: tuple[str, ...] = (
    "--no-pager",
    *("-c", "core.hooksPath=/dev/null"),
    *("-c", "core.fsmonitor=false"),
    *("-c", "core.pager=cat"),
    *("-c", "core.editor=:"),  # `:` is git's "do not start an editor"
    *("-c", "sequence.editor=:"),
    *("-c", "commit.gpgSign=false"),
    *("-c", "tag.gpgSign=false"),
    *("-c", "log.showSignature=false"),
    *("-c", "protocol.ext.allow=never"),
    *("-c", "status.submoduleSummary=false"),
)
"""Global options for every git command decode runs: they come before the subcommand."""

LIST_CONFIG: tuple[str, ...] = ("config", "--list", "--show-scope", "-z")
"""The subcommand whose output `neutralising` reads (after `SAFE_OPTIONS`)."""

REPOSITORY_SCOPES = frozenset({"local", "worktree"})
"""Config that comes with the repository (its `include.path` files too), not from the user."""

_NEUTRAL: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE | re.DOTALL), value)
    for pattern, value in (
        (r"filter\..+\.(?:clean|smudge|process)", ""),  # an empty command is no filter
        (r"filter\..+\.required", "false"),  # else a required filter with no command fails
        (r"diff\..+\.(?:command|textconv)", ""),
        (r"diff\.external", ""),
        (r"merge\..+\.driver", ""),
        (r"(?:diff|merge)tool\..+\.(?:cmd|path)", ""),
        (r"credential\.(?:.+\.)?helper", ""),  # an empty helper clears the list
        (r"core\.sshcommand", "ssh"),
        (r"core\.askpass", ""),
        (r"core\.gitproxy", ""),
        (r"core\.alternaterefscommand", ""),
        (r"gpg\.(?:.+\.)?program", "gpg"),
        (r"remote\..+\.(?:uploadpack|receivepack)", ""),
        (r"pager\..+", "false"),
    )
)
"""Keys that name a program, and the value that runs none."""


class UnsafeConfig(ValueError):
    """A repository's config names a program decode cannot switch off from the command line."""


def neutralising(listing: str) -> tuple[str, ...]:
    """`-c key=value` options that switch off every program the repository's own config names.

    `listing`: the output of `git config --list --show-scope -z` in that repository. Raises
    `UnsafeConfig` for a key `-c` cannot name (git splits `-c` at the first `=`).
    """
    options: dict[str, str] = {}
    fields = listing.split("\0")
    for scope, item in zip(fields[0::2], fields[1::2], strict=False):
        if scope not in REPOSITORY_SCOPES:
            continue
        key = item.partition("\n")[0]
        value = next((value for pattern, value in _NEUTRAL if pattern.fullmatch(key)), None)
        if value is None:
            continue
        if "=" in key:
            raise UnsafeConfig(f"the repository's config names a program under a key with '=' in it: {key[:80]!r}")
        options[key] = value
    return tuple(option for key, value in options.items() for option in ("-c", f"{key}={value}"))


def safe_git(*args: str, listing: str | None = None) -> list[str]:
    """The argv of `git ARGS` with `SAFE_OPTIONS`, and, given the repository's config `listing`,
    its program-naming keys neutralised (`neutralising`)."""
    return ["git", *SAFE_OPTIONS, *(neutralising(listing) if listing is not None else ()), *args]
