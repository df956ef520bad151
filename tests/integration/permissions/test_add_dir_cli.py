"""`--add-dir DIR` through the real CLI: a folder beside the project the file tools may use (issue 30)."""

import json
import shutil
from pathlib import Path

import pytest

from tests.integration.permissions.conftest import bash, decode_run

pytestmark = pytest.mark.integration

NOTES = "notes from the other folder\n"
SECRET = "OTHER_API_KEY=sk-other-0123456789"


def session_text(project: Path) -> str:
    """Everything the saved session holds: the instructions sent and each call's result."""
    return "".join(path.read_text() for path in (project / ".decode" / "sessions").glob("*.jsonl"))


@pytest.fixture
def other(project: Path) -> Path:
    """A folder beside the project, with a note and a `.env`."""
    folder = project.parent / "other"
    folder.mkdir()
    (folder / "notes.txt").write_text(NOTES)
    (folder / ".env").write_text(SECRET + "\n")
    return folder


def read(path: str) -> dict:
    return {"name": "read", "args": {"path": path}}


def test_without_add_dir_a_file_beside_the_project_is_refused(project: Path, other: Path) -> None:
    done = decode_run(project, [read("../other/notes.txt")])
    assert done.returncode == 0, done.stderr
    assert "notes from the other folder" not in session_text(project)


def test_with_add_dir_the_read_succeeds_and_the_model_is_told(project: Path, other: Path) -> None:
    done = decode_run(project, [read("../other/notes.txt")], "--add-dir", "../other")
    assert done.returncode == 0, done.stderr
    sent = session_text(project)
    assert "notes from the other folder" in sent
    assert f"Additional directories the file tools may also use (--add-dir): {other}" in sent


def test_secrets_in_an_added_dir_are_still_refused(project: Path, other: Path) -> None:
    done = decode_run(project, [read(f"{other}/.env")], "--add-dir", str(other))
    assert done.returncode == 0, done.stderr
    assert "sk-other" not in session_text(project)
    assert "holds secrets" in done.stderr


def test_a_write_there_asks_in_default_mode_and_runs_in_accept_edits(project: Path, other: Path) -> None:
    write = {"name": "write", "args": {"path": "../other/made.txt", "content": "made\n"}}
    asked = decode_run(project, [write], "--add-dir", "../other")
    assert asked.returncode == 0, asked.stderr
    assert not (other / "made.txt").exists()
    assert "Permission needed" in asked.stderr
    done = decode_run(project, [write], "--add-dir", "../other", "--permission-mode", "accept-edits")
    assert done.returncode == 0, done.stderr
    assert (other / "made.txt").read_text() == "made\n"


def test_a_deny_rule_still_holds_in_an_added_dir(project: Path, other: Path) -> None:
    deny = json.dumps({"permissions": {"deny": [f"Read(/{other}/**)"]}})  # `//` starts an absolute path
    done = decode_run(project, [read("../other/notes.txt")], "--add-dir", "../other", "--settings", deny)
    assert done.returncode == 0, done.stderr
    assert "notes from the other folder" not in session_text(project)
    assert "denied by Read(" in done.stderr


@pytest.mark.parametrize(("value", "said"), [("notes.txt", "not a directory"), ("nowhere", "no such directory")])
def test_a_folder_that_is_not_one_is_exit_2_with_one_line(project: Path, value: str, said: str) -> None:
    (project / "notes.txt").write_text("a file\n")
    done = decode_run(project, [read("notes.txt")], "--add-dir", value)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert f"--add-dir {value}: {said}" in lines[0]


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("/", "the whole machine"),
        ("~", "it holds your home folder"),
        ("~/.ssh", "it holds credentials"),
        ("/tmp", "a system folder"),
        ("/proc/self", "a system folder"),
        ("/run", "a system folder"),
    ],
)
def test_a_folder_that_would_open_the_sandbox_is_refused(project: Path, value: str, said: str) -> None:
    """Bound writable into bwrap, these bring back the host's sockets (a tmux server there runs a
    command on the host), devices or credentials; the gate would let `read` take `~/.ssh/id_rsa`."""
    (Path.home() / ".ssh").mkdir(exist_ok=True)
    done = decode_run(project, [read("notes.txt")], "--add-dir", value)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert f"--add-dir {value}: refused, {said}" in lines[0]


def test_a_command_reading_a_file_there_runs_as_in_the_project(project: Path, other: Path) -> None:
    """`cat ../other/notes.txt` is on the read-only list once the folder is added, as Claude Code lets it
    through; a secret there still asks (headless: is refused)."""
    calls = [bash("cat ../other/notes.txt"), bash("cat ../other/.env")]
    without = decode_run(project, calls[:1])
    assert "outside the project" in without.stderr
    done = decode_run(project, calls, "--add-dir", "../other")
    assert done.returncode == 0, done.stderr
    sent = session_text(project)
    assert "notes from the other folder" in sent
    assert "sk-other" not in sent


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (apt install bubblewrap)")
def test_a_bwrap_sandbox_sees_the_added_dir_writable(project: Path, other: Path) -> None:
    command = f"cat {other}/notes.txt > seen.txt; echo inside > {other}/from-sandbox.txt"
    options = ("--sandbox", "bwrap", "--permission-mode", "bypass")
    without = decode_run(project, [bash(command)], *options)
    assert without.returncode == 0, without.stderr
    assert not (other / "from-sandbox.txt").exists()  # not bound: the sandbox's /tmp is its own
    done = decode_run(project, [bash(command)], *options, "--add-dir", str(other))
    assert done.returncode == 0, done.stderr
    assert (project / "seen.txt").read_text() == NOTES
    assert (other / "from-sandbox.txt").read_text() == "inside\n"


def test_a_resumed_session_gets_its_added_dirs_back_and_names_one_gone(project: Path, other: Path) -> None:
    first = decode_run(project, [], "--add-dir", "../other")
    assert first.returncode == 0, first.stderr
    resumed = decode_run(project, [read("../other/notes.txt")], "--resume")  # no --add-dir this time
    assert resumed.returncode == 0, resumed.stderr
    assert session_text(project).count(NOTES.strip()) == 1  # the read ran
    folder = other.resolve()
    shutil.rmtree(other)
    again = decode_run(project, [], "--resume")
    assert again.returncode == 0, again.stderr
    gone = [line for line in again.stderr.splitlines() if str(folder) in line]
    assert len(gone) == 1, again.stderr
    assert gone[0].startswith("decode: warning: ")
    assert gone[0].endswith(f"added folder {folder}: no such directory; skipped")
