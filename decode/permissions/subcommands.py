"""Programs whose own options come before a subcommand: `git -C x push` is `git push` to a deny rule.

`git -C DIR -c k=v --no-pager push origin` runs `git push origin`. A deny rule is written with the
subcommand next to the program (`Bash(git push:*)`), so the gate also judges the command with the
program's global options taken out. Each program lists its options that take a value (`-C DIR`,
`--git-dir X`) and those that take none (`--no-pager`); an option the table does not know is read
both ways (taking the next word and not), as for wrappers (`wrappers.WRAPPERS`), so an unusual
option cannot hide the subcommand. `cargo +nightly publish` drops the toolchain word too.

Only deny and ask rules see these forms. An allow rule still matches the command as written:
`Bash(git status)` never allows `git -c core.pager=sh status` (`-c`, `--exec-path`, `--git-dir`,
`--kubeconfig`, `--config`… can make the program run another one).
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class GlobalOptions:
    """A program's options before its subcommand: short letters and long names, with or without a value."""

    valued: str = ""  # short options that take a value (`-C DIR`, `-CDIR`)
    long_valued: str = ""  # long options that take one, space-separated (`--git-dir X`, `--git-dir=X`)
    flags: str = ""  # short options that take none
    long_flags: str = ""
    toolchain: bool = False  # `cargo +nightly build`: a `+NAME` word may come first


_PIP = GlobalOptions(
    long_valued="--python --log --proxy --retries --timeout --exists-action --trusted-host --cert --client-cert "
    "--cache-dir --keyring-provider --use-feature --use-deprecated --src",
    flags="qvVh",
    long_flags="--quiet --verbose --isolated --require-virtualenv --no-cache-dir --disable-pip-version-check "
    "--no-color --no-input --no-python-version-warning --debug --help --version",
)
_DOCKER = GlobalOptions(
    "cHl",
    "--config --context --host --log-level --tlscacert --tlscert --tlskey --url --connection --root --runroot "
    "--storage-driver --cgroup-manager --identity",
    "Dvr",
    "--debug --tls --tlsverify --remote --version --help",
)
GLOBAL_OPTIONS: dict[str, GlobalOptions] = {
    "git": GlobalOptions(
        "Cc",
        "--git-dir --work-tree --namespace --config-env --super-prefix --attr-source --list-cmds",
        "pPhv",
        "--no-pager --paginate --bare --literal-pathspecs --glob-pathspecs --noglob-pathspecs --icase-pathspecs "
        "--no-replace-objects --no-optional-locks --no-advice --no-lazy-fetch --exec-path --html-path --man-path "
        "--info-path --version --help",
    ),
    "docker": _DOCKER,
    "podman": _DOCKER,
    "kubectl": GlobalOptions(
        "nsv",
        "--namespace --context --kubeconfig --server --cluster --user --token --as --as-group --as-uid "
        "--request-timeout --certificate-authority --client-certificate --client-key --tls-server-name "
        "--cache-dir --log-file --password --username --profile --profile-output --v --vmodule",
        long_flags="--insecure-skip-tls-verify --match-server-version --warnings-as-errors --disable-compression",
    ),
    "helm": GlobalOptions(
        "n",
        "--namespace --kube-context --kubeconfig --kube-apiserver --kube-as-user --kube-as-group --kube-token "
        "--registry-config --repository-config --repository-cache --burst-limit --qps",
        long_flags="--debug --kube-insecure-skip-tls-verify",
    ),
    "npm": GlobalOptions(
        "wC",
        "--prefix --workspace --userconfig --globalconfig --cache --registry --loglevel --location",
        "gqsdy",
        "--global --silent --quiet --workspaces --include-workspace-root --yes --no --verbose --json --force",
    ),
    "pnpm": GlobalOptions("CF", "--dir --filter --workspace-dir --reporter --loglevel", "rwg", "--recursive --global"),
    "yarn": GlobalOptions(long_valued="--cwd --mutex --cache-folder --modules-folder", long_flags="--silent --verbose"),
    "cargo": GlobalOptions(
        "CZ",
        "--config --color --explain",
        "vqVh",
        "--verbose --quiet --frozen --locked --offline --list --version --help",
        toolchain=True,
    ),
    "go": GlobalOptions("C"),
    "pip": _PIP,
    "pip3": _PIP,
    "uv": GlobalOptions(
        "p",
        "--directory --project --config-file --cache-dir --python --color --allow-insecure-host --python-preference",
        "qvn",
        "--quiet --verbose --no-cache --offline --no-progress --native-tls --no-config --no-python-downloads "
        "--managed-python --no-managed-python --preview --isolated",
    ),
    "systemctl": GlobalOptions(
        "HMtpsno",
        "--host --machine --type --property --signal --lines --output --root --state --kill-whom --job-mode "
        "--boot-loader-entry --what --image --timestamp",
        "qflair",
        "--user --system --global --no-pager --no-ask-password --quiet --now --force --full --all --no-block "
        "--runtime --dry-run --recursive --no-legend --no-reload --no-wall --failed",
    ),
    "terraform": GlobalOptions(),  # `terraform -chdir=DIR apply`: one word, read as unknown short options
    "make": GlobalOptions(
        "CfIjlW",
        "--directory --file --makefile --include-dir --jobs --load-average --what-if --assume-new --assume-old",
        "BeiknqrRsStw",
    ),
}


def drop_toolchain(words: tuple[str | None, ...]) -> tuple[str | None, ...]:
    """`cargo +nightly publish` → `cargo publish` (for a program that takes a `+toolchain` word)."""
    spec = GLOBAL_OPTIONS.get(_name(words[0]) if words else "")
    if spec is not None and spec.toolchain and len(words) > 1 and (words[1] or "").startswith("+"):
        return (words[0], *words[2:])
    return words


def _name(word: str | None) -> str:
    return (word or "").rsplit("/", 1)[-1]
