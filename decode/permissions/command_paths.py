"""How far a command's name goes: the script an interpreter runs, the subcommand path of a CLI.

An "always" answer saves a prefix rule (`prefixes.py`). These tables say where that prefix
stops, so it names what the user saw and not the program that ran it:

- an interpreter names its script or module: `python3 -m pytest -x` → `python3 -m pytest`,
  `node build.js` → `node build.js`, `java -jar app.jar` → `java -jar app.jar`. Code given
  inline (`python -c '…'`, `node -e`) names nothing: `script_path` answers None;
- a multi-level CLI names its subcommand path: `aws s3 ls` (service, then operation),
  `kubectl get`, `docker ps` but `docker compose up`, `gh pr view`, and for `gcloud` and `az`
  every group up to the verb (`gcloud compute instances list`). A path ending in a verb that
  destroys, runs a program or moves data (`delete`, `exec`, `cp`…) names nothing.
"""

import re
from dataclasses import dataclass

from decode.permissions.string_runners import SHELLS


@dataclass(frozen=True)
class Interpreter:
    """How an interpreter's command line names what it runs."""

    flags: frozenset[str] = frozenset()
    """Options that take no value and change nothing about what runs (`-u`): kept in the prefix."""
    leads: frozenset[str] = frozenset()
    """Options after which the script comes (`java -jar app.jar`, `pwsh -File x.ps1`)."""
    module: str = ""
    """The option that names a module, itself a command of its own (`python -m pip list`)."""


def _i(flags: str = "", leads: str = "", module: str = "") -> Interpreter:
    return Interpreter(frozenset(flags.split()), frozenset(leads.split()), module)


_PYTHON = _i("-u -B -O -OO -I -s -S -E -b -bb -q -P", module="-m")
_SHELL = _i("-e -u -x -eu -ex -eux")
INTERPRETERS: dict[str, Interpreter] = {
    **dict.fromkeys(("node", "nodejs"), _i("--no-warnings --enable-source-maps --trace-warnings")),
    **dict.fromkeys(("php", "lua", "luajit", "ruby", "perl", "Rscript", "julia", "tsx", "ts-node"), _i()),
    **dict.fromkeys(("groovy", "kotlin", "scala", "elixir", "swift", "tclsh", "guile", "racket"), _i()),
    **dict.fromkeys(("pwsh", "powershell"), _i("-noprofile -nologo -noninteractive", "-file -f")),
    "java": _i(leads="-jar"),
    **dict.fromkeys((*SHELLS, "fish", "csh", "tcsh"), _SHELL),  # fish x.fish: the script is the command
}
_PYTHON_NAME = re.compile(r"(?:python|pypy)(?:[0-9]+(?:\.[0-9]+)*)?")
_MODULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
# Modules whose arguments are code or another program (`python -m timeit 'import os; …'`).
CODE_MODULES = frozenset({"timeit", "pdb", "cProfile", "profile", "trace", "runpy", "code", "IPython", "pyinstrument"})


def interpreter(name: str) -> Interpreter | None:
    """The interpreter called `name` (`python3.12` is python), or None."""
    if _PYTHON_NAME.fullmatch(name):
        return _PYTHON
    return INTERPRETERS.get(name)


def script_path(words: list[str], spec: Interpreter) -> tuple[list[str], list[str]] | None:
    """The words naming the script (`python -u x.py`), and for a module (`-m`) what follows it,
    to be judged as a command of its own; None when no script is named (`python -c …`, `node`)."""
    kept = [words[0]]
    for index in range(1, len(words)):
        word = words[index]
        if word.lower() in spec.flags:
            kept.append(word)
            continue
        if spec.module and word == spec.module:
            rest = words[index + 1 :]
            if not rest or not _MODULE_NAME.fullmatch(rest[0]) or rest[0].split(".")[0] in CODE_MODULES:
                return None
            return [*kept, word], rest
        if word.lower() in spec.leads:
            return ([*kept, word, words[index + 1]], []) if index + 1 < len(words) else None
        if word.startswith("-") or word.startswith("+"):
            return None  # `-c CODE`, `-e`, `-W arg`: code inline, or an option this table does not know
        return [*kept, word], []
    return None  # the bare program: a REPL, or code on its input


# -- multi-level CLIs -----------------------------------------------------------------------------

# How many words after the program name the command: `aws s3 ls` (2), `kubectl get` (1).
LEVELS: dict[str, int] = {
    **dict.fromkeys(("aws", "gh", "glab"), 2),
    **dict.fromkeys(("kubectl", "oc", "helm", "docker", "podman", "nerdctl", "minikube", "kind", "eksctl"), 1),
    **dict.fromkeys(("flyctl", "fly", "vercel", "netlify", "firebase", "wrangler", "pulumi", "gsutil", "bq"), 1),
    **dict.fromkeys(("heroku", "doctl", "linode-cli", "hcloud", "scw", "railway", "supabase"), 1),
}
# Groups that take one more word: `docker compose up`, `kubectl rollout status`, `helm repo list`.
GROUPS: dict[str, frozenset[str]] = {
    "docker": frozenset(
        {
            *("container", "image", "network", "volume", "compose", "system", "builder", "buildx", "context"),
            *("plugin", "swarm", "node", "service", "stack", "secret", "config", "trust", "manifest", "scout"),
        }
    ),
    "kubectl": frozenset({"config", "rollout", "auth", "certificate", "plugin", "set"}),
    "helm": frozenset({"repo", "plugin", "dependency", "registry", "show", "get", "search"}),
    "gh": frozenset(),
    "doctl": frozenset({"compute", "kubernetes", "apps", "databases", "registry", "projects", "account"}),
    "wrangler": frozenset({"kv", "r2", "d1", "pages", "queues", "secret"}),
}
GROUPS["podman"] = GROUPS["nerdctl"] = GROUPS["docker"]
GROUPS["oc"] = GROUPS["kubectl"]
# gh's commands of one word: `gh status`, not `gh status x`.
ONE_LEVEL = {"gh": frozenset({"api", "browse", "status", "version", "completion"}), "glab": frozenset({"api"})}
# CLIs made of groups down to a verb: `gcloud compute instances list`, `az storage account show`.
VERB_CLIS = frozenset({"gcloud", "az", "oci"})
VERBS = frozenset(
    {
        *("list", "describe", "show", "get", "create", "update", "delete", "set", "add", "remove", "start", "stop"),
        *("restart", "reset", "ssh", "scp", "deploy", "read", "write", "call", "submit", "cancel", "wait", "run"),
        *("execute", "import", "export", "login", "logout", "revoke", "activate", "browse", "tail", "logs", "exists"),
        *("print-access-token", "print-identity-token", "get-value", "get-iam-policy", "set-iam-policy", "resize"),
        *("invoke", "query", "upload", "download", "copy", "move", "sync", "purge", "clear", "enable", "disable"),
    }
)
# The last word of a path that destroys, runs a program, moves data anywhere or changes an
# account: such a path names nothing (only the exact command is saved). `delete-bucket` is `delete`.
CHANGES = frozenset(
    {
        *("delete", "rm", "rmi", "rb", "remove", "destroy", "terminate", "purge", "prune", "drop", "kill", "clear"),
        *("exec", "run", "ssh", "scp", "cp", "sync", "mv", "copy", "move", "upload", "download", "attach", "debug"),
        *("merge", "close", "reset", "edit", "apply", "patch", "replace", "scale", "drain", "cordon", "taint"),
        *("port-forward", "proxy", "login", "logout", "push", "publish", "clone", "checkout", "transfer", "archive"),
        *("rename", "revoke", "set", "eval", "shell", "invoke", "call", "stop", "restart", "uninstall", "rollback"),
        *("put", "import", "export", "write", "execute", "deploy", "api", "add", "comment", "fork", "review"),
        *("reopen", "enable", "disable", "up", "down", "create", "update", "install", "build", "cancel", "undo"),
        *("pause", "decrypt"),
    }
)
# Any word of a path that hands out secrets: `aws secretsmanager get-secret-value`, `gh auth token`.
SECRETS = frozenset(
    {
        *("secret", "secrets", "secretsmanager", "password", "passwords", "token", "tokens", "credential"),
        *("credentials", "keyvault", "kms", "key", "keys", "ssm", "parameter", "parameters", "decrypt"),
    }
)


def is_subcommand_cli(name: str) -> bool:
    """Is `name` a CLI whose rule names its subcommand path (this module's tables)?"""
    return name in LEVELS or name in VERB_CLIS


def subcommand_path(name: str, words: list[str]) -> list[str] | None:
    """The words naming the subcommand (`aws s3 ls`), or None: too few, or one that changes things."""
    if name in VERB_CLIS:
        end = next((i for i, word in enumerate(words[1:], 1) if word in VERBS), None)
    else:
        levels = LEVELS[name]
        if len(words) > 1 and words[1] in ONE_LEVEL.get(name, ()):
            levels = 1
        elif len(words) > 1 and words[1] in GROUPS.get(name, ()):
            levels += 1
        end = levels if len(words) > levels else None
    if end is None or len(words) <= end:
        return None
    path = words[: end + 1]
    verb = path[-1]
    if verb in CHANGES or verb.split("-")[0] in CHANGES:
        return None
    return None if any(SECRETS.intersection(word.split("-")) for word in path[1:]) else path
