"""Fixtures for the whole suite.

Every test starts from a clean slate: none of the developer's own keys or DECODE_* settings leak
in (a real key must never reach a test), and HOME points at an empty directory so user-level
files (`~/.decode/…`) come only from the test itself.
"""

import gc
import os
from collections.abc import Callable
from pathlib import Path

import pytest

WriteText = Callable[[Path, str], Path]


def pytest_collection_finish(session: pytest.Session) -> None:
    """Freeze what collection imported (pydantic-ai, every test module): the collector's full
    passes then walk only what the tests themselves make, not the whole of it again (ADR-0143)."""
    gc.freeze()


def _is_decode_setting(name: str) -> bool:
    return name.startswith(("DECODE_", "SANDBOX_", "OPIK_", "KITARU_")) or name in {  # OPIK_: 16, KITARU_: 17
        "GEMINI_API_KEY",
        "GOOGLE_API_KEY",
        "GEMINI_BASE_URL",
        "OPENROUTER_API_KEY",
        "OPENROUTER_BASE_URL",
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "GOOGLE_CLOUD_PROJECT",
        "GOOGLE_CLOUD_LOCATION",
        "AWS_BEARER_TOKEN_BEDROCK",
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_REGION",
        "AWS_DEFAULT_REGION",
    }


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    for name in list(os.environ):
        if _is_decode_setting(name):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path_factory.mktemp("home")))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project directory, made the current directory (the launch directory)."""
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.chdir(root)
    return root


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def write() -> WriteText:
    """`write(path, text)`: write a UTF-8 file, making its folders; returns the path."""
    return _write


def own_settings(path: Path, text: str, home: Path | None = None) -> Path:
    """Write a local settings file as the user's own, as decode's "always" answer does: its bytes are
    noted in `home` (HOME by default). Outside a git checkout any other local file is a repository's (ADR-0141)."""
    from decode.config import own_files

    _write(path, text)
    own_files.remember(path, home or Path.home(), text.encode("utf-8"))
    return path


def _trust_settings(project: Path) -> Path:
    from decode.agents.catalog import discover_agents
    from decode.permissions.project_trust import trust
    from decode.permissions.settings_files import load_permission_settings

    agents = discover_agents(project).grants  # the project's agents are trusted with its settings
    return trust(project, load_permission_settings(project, other_grants=agents).grants)


@pytest.fixture
def trust_settings() -> Callable[[Path], Path]:
    """`trust_settings(project)`: trust the project's settings files and agents as they are now
    (what `decode permissions trust` does), so their allow rules and modes are in force."""
    return _trust_settings


WAIT_S = 60.0
"""How long a helper below waits for a condition: generous, for a busy CI machine (it returns as soon
as the condition holds, so a passing test waits no longer than it must)."""


def wait_for(condition: Callable[[], bool], seconds: float = WAIT_S) -> bool:
    """Poll `condition` until it holds (True) or `seconds` pass (False): assert on the answer."""
    import time

    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)  # polling a condition, with a deadline
    return True


async def until(condition: Callable[[], bool], seconds: float = WAIT_S) -> bool:
    """`wait_for` on the event loop, which goes on meanwhile: True once `condition` holds, False
    when `seconds` passed first."""
    import asyncio

    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            return False
        await asyncio.sleep(0.02)  # polling a condition, with a deadline
    return True


def gone(pid: int, seconds: float = WAIT_S) -> bool:
    """Is `pid` gone (dead and reaped, or dead and left to init) within `seconds`? Polls /proc.

    A process decode killed just before it exited dies as init's child. PID 1 of some containers
    (this machine's among them) never reaps orphans, so its zombie stays in /proc for good: dead,
    holding nothing, and no longer decode's to reap. That counts as gone, and so does a zombie adopted
    by this test process (a subreaper once an in-process test called `become_subreaper`).
    """
    import time

    deadline = time.monotonic() + seconds
    while (stat := _stat(pid)) is not None:
        state, parent = stat
        if state == "Z" and parent in (1, os.getpid()):  # this process: a subreaper since an in-process
            return True  # test made it one; its own children are reaped by whoever started them
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)  # polling a condition, with a deadline
    return True


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of `pid` from /proc, or None when it is not in the process table."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    fields = raw[raw.rfind(b")") + 2 :].split()  # the command name may hold spaces and parentheses
    return fields[0].decode(), int(fields[1])


def pids(folder: Path) -> list[int]:
    """The process ids the test's commands wrote into `*.pid` files in `folder`."""
    return [int(line) for path in sorted(folder.glob("*.pid")) for line in path.read_text().split()]


def script(path: Path, responses: list[dict]) -> str:
    """Write a scripted model's `responses` to `path`; returns its model string (`script:PATH`)."""
    import json

    path.write_text(json.dumps(responses), encoding="utf-8")
    return f"script:{path}"


def has_pid(path: Path) -> bool:
    """Has a command written its pid into `path` yet (the file there, and not empty)?"""
    return path.exists() and path.read_text().strip() != ""


def git(cwd: Path, *args: str) -> str:
    """Run git in `cwd`, assert it succeeded, return its output (stripped)."""
    import subprocess

    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    return done.stdout.strip()


def source_repository(parent: Path) -> Path:
    """`parent/source`: the user's repository, `main` with one commit of `a.txt`, and a host git identity in HOME."""
    (Path(os.environ["HOME"]) / ".gitconfig").write_text("[user]\n\tname = Host\n\temail = h@x\n", encoding="utf-8")
    repo = parent / "source"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "a.txt").write_text("a\n", encoding="utf-8")
    git(repo, "add", "a.txt")
    git(repo, "commit", "-qm", "first")
    return repo


# -- programs a repository's own files make git run (issue 25, section 4) ----------------------------

GIT_HOOKS = (
    "pre-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "post-checkout",
    "post-merge",
    "post-rewrite",
    "post-index-change",
    "reference-transaction",
    "pre-auto-gc",
    "pre-push",
    "pre-receive",
    "update",
    "post-receive",
    "post-update",
    "push-to-checkout",
)
PLANTED_KINDS = (
    "hooks",
    "hooks-path",
    "fsmonitor",
    "filter",
    "filter-process",
    "include",
    "pager",
    "ssh-command",
    "alias",
    "external-diff",
    "editor",
    "gpg",
    "credential",
    "ext-remote",
    "pack-objects-hook",
    "alternate-refs",
    "merge-driver",
    "submodule",
    "nested-repository",
)
"""Each way a repository's `.git/config`, its includes, `.gitattributes`, `.git/hooks` or a nested
repository names a program git runs (`planted_repository` plants one)."""


def _touch(markers: Path, name: str) -> str:
    return f"touch {markers}/{name}"


def _hooks(folder: Path, markers: Path, kind: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in GIT_HOOKS:
        (folder / name).write_text(f"#!/bin/sh\n{_touch(markers, f'{kind}-{name}')}\n", encoding="utf-8")
        (folder / name).chmod(0o755)


def _config(repo: Path, *pairs: str) -> None:
    for pair in pairs:
        key, _, value = pair.partition("=")
        git(repo, "config", "--add", key, value)


def _programs(repo: Path, kind: str, markers: Path) -> None:
    """Plant `kind` in `repo`'s own files; the program it names creates `markers/<kind>…` when run."""
    run = _touch(markers, kind)
    attributes = {
        "filter": "*.txt filter=planted\n",
        "filter-process": "*.txt filter=planted\n",
        "include": "*.txt filter=included\n",
        "external-diff": "*.txt diff=planted\n",
        "merge-driver": "*.txt merge=planted\n",
    }
    git_dir = Path(git(repo, "rev-parse", "--absolute-git-dir"))  # a submodule's `.git` is a file
    if kind in attributes:
        (git_dir / "info").mkdir(exist_ok=True)
        with (git_dir / "info" / "attributes").open("a", encoding="utf-8") as file:
            file.write(attributes[kind])
    planted = {
        "fsmonitor": [f"core.fsmonitor={run}; false #"],
        "filter": [
            f"filter.planted.clean={run}; cat",
            f"filter.planted.smudge={run}; cat",
            "filter.planted.required=true",
        ],
        "filter-process": [f"filter.planted.process={run}"],
        "pager": [f"core.pager={run}; cat", f"pager.status={run}; cat", f"pager.log={run}; cat", f"pager.diff={run}"],
        "ssh-command": [f"core.sshCommand={run}; false"],
        "alias": [f"alias.st=!{run}", f"alias.stat=!{run}"],
        "external-diff": [f"diff.external={run}", f"diff.planted.command={run}", f"diff.planted.textconv={run}; cat"],
        "editor": [f"core.editor={run}", f"sequence.editor={run}"],
        "gpg": [f"gpg.program={run}; false", "commit.gpgSign=true", "log.showSignature=true"],
        "credential": [f"credential.helper=!{run}", f"core.askPass={run}"],
        "ext-remote": ["protocol.ext.allow=always", f"remote.planted.url=ext::sh -c {run.replace(' ', '% ')}"],
        "pack-objects-hook": [f"uploadpack.packObjectsHook={run}; git"],
        "alternate-refs": [f"core.alternateRefsCommand={run}"],
        "merge-driver": [f"merge.planted.driver={run}"],
        "hooks-path": [f"core.hooksPath={repo / 'planted-hooks'}"],
    }
    _config(repo, *planted.get(kind, []))
    if kind == "hooks":
        _hooks(git_dir / "hooks", markers, kind)
    elif kind == "hooks-path":
        _hooks(repo / "planted-hooks", markers, kind)
    elif kind == "include":  # a file of the work tree, pulled into .git/config
        (repo / "planted.cfg").write_text(f'[filter "included"]\n\tclean = "{run}; cat"\n', encoding="utf-8")
        _config(repo, "include.path=../planted.cfg")


def planted_repository(parent: Path, kind: str, markers: Path) -> Path:
    """`parent/planted`: a repository with a commit of `a.txt`, then `kind` planted in its own files
    (`PLANTED_KINDS`), and `a.txt` rewritten (same bytes, new time: git must read it again)."""
    markers.mkdir(parents=True, exist_ok=True)
    repo = parent / "planted"
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    identity = ("-c", "user.name=T", "-c", "user.email=t@x", "-c", "commit.gpgSign=false")
    (repo / "a.txt").write_text("a\n", encoding="utf-8")
    inner_repo = repo
    if kind in ("submodule", "nested-repository"):
        inner = parent / "inner"
        inner.mkdir()
        git(inner, "init", "-q", "-b", "main")
        (inner / "b.txt").write_text("b\n", encoding="utf-8")
        git(inner, "add", "b.txt")
        git(inner, *identity, "commit", "-qm", "inner")
        if kind == "submodule":
            git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(inner), "sub")
            inner_repo = repo / "sub"
        else:  # a repository copied in whole, staged as a gitlink
            git(inner, "clone", "-q", str(inner), str(repo / "vendor" / "lib"))
            inner_repo = repo / "vendor" / "lib"
    git(repo, "add", "-A")
    git(repo, *identity, "commit", "-qm", "first")
    if kind in ("submodule", "nested-repository"):
        for inner_kind in ("fsmonitor", "filter", "hooks"):
            _programs(inner_repo, inner_kind, markers)
    else:
        _programs(repo, kind, markers)
    for text in repo.rglob("*.txt"):
        text.write_bytes(text.read_bytes())
    return repo


def returns_at_once(call: Callable[[], object], fifo: Path) -> None:
    """Run `call` in a thread; fail (releasing it by opening `fifo` for writing) if it waits."""
    import threading

    worker = threading.Thread(target=call, daemon=True)
    worker.start()
    worker.join(timeout=30)  # generous: a non-blocking open returns at once
    if worker.is_alive():
        with open(fifo, "wb"):
            pass
        pytest.fail(f"reading {fifo} waited for a writer")
