"""`decode run` end to end (issue 25, section 4): a broad allow rule in the user's settings does not
write `.claude/`, `.git/hooks` or a nested repository's `.git`, and the status line of the
instructions runs no filter a planted repository names."""

import json
import os
from pathlib import Path

import pytest

from tests.conftest import planted_repository
from tests.integration.permissions.conftest import bash, decode_run

pytestmark = pytest.mark.integration


@pytest.fixture
def user_allows_everything() -> Path:
    """`~/.decode/settings.json` (the user's layer) allowing every edit and `cp`, `echo` and `tee`."""
    path = Path(os.environ["HOME"]) / ".decode" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    rules = ["Edit(**)", "Write(**)", "Bash(cp:*)", "Bash(echo:*)", "Bash(tee:*)"]
    path.write_text(json.dumps({"permissions": {"allow": rules}}), encoding="utf-8")
    return path


def test_broad_allow_rules_do_not_write_protected_paths(project: Path, user_allows_everything: Path) -> None:
    (project / "vendor" / "lib" / ".git" / "hooks").mkdir(parents=True)
    (project / "evil").write_text("#!/bin/sh\ntouch pwned\n", encoding="utf-8")
    calls = [
        {"name": "write", "args": {"path": ".claude/settings.json", "content": "{}"}},
        {"name": "write", "args": {"path": ".git/hooks/pre-commit", "content": "#!/bin/sh\n"}},
        bash("cp evil vendor/lib/.git/hooks/post-checkout"),
        bash("echo x | tee .claude/agents.md"),
        bash("echo allowed > notes.txt"),
    ]

    done = decode_run(project, calls)

    assert done.returncode == 0, done.stderr
    assert not (project / ".claude").exists()
    assert not (project / ".git").exists()
    assert not (project / "vendor" / "lib" / ".git" / "hooks" / "post-checkout").exists()
    assert (project / "notes.txt").read_text() == "allowed\n"  # the allow rules still work elsewhere
    assert done.stderr.count("Permission needed (") == 4
    sent_back = "".join(p.read_text() for p in (project / ".decode" / "sessions").glob("*.jsonl"))
    assert sent_back.count("only an allow rule that spells the folder lets it through") >= 4


def test_the_status_line_runs_no_filter_the_repository_names(tmp_path: Path) -> None:
    markers = tmp_path / "markers"
    repo = planted_repository(tmp_path, "filter", markers)

    done = decode_run(repo, [])

    assert done.returncode == 0, done.stderr
    assert done.stdout == "done\n"
    assert sorted(p.name for p in markers.iterdir()) == []
