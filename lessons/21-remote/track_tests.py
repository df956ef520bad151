"""Lesson 21's build-along track: a credential never comes back, and an attempt is one row of the table.

`make lesson-check N=21` runs these against your copy (`make lesson-start N=21`); each test's first
docstring line is the behaviour it reports.
"""

from decode.remote.attempts import COLUMNS, row
from decode.remote.task import redact, with_token


def test_a_credential_in_a_url_never_comes_back() -> None:
    """The user:password (or token) of every URL in a text is replaced by `***`."""
    text = "fatal: could not push to https://x-access-token:ghp_secret@github.com/me/app.git (and http://u:p@h/x)"
    assert redact(text) == "fatal: could not push to https://***@github.com/me/app.git (and http://***@h/x)"
    assert redact("no URL here: git@github.com:me/app.git") == "no URL here: git@github.com:me/app.git"


def test_the_push_token_is_added_inside_the_container_only() -> None:
    """An https URL without a credential gets the token; any other URL, or no token, stays as it is."""
    assert with_token("https://github.com/me/app.git", "t0k") == "https://x-access-token:t0k@github.com/me/app.git"
    assert with_token("https://me:mine@github.com/me/app.git", "t0k") == "https://me:mine@github.com/me/app.git"
    assert with_token("/srv/git/app.git", "t0k") == "/srv/git/app.git"
    assert with_token("https://github.com/me/app.git", None) == "https://github.com/me/app.git"


def test_an_attempt_is_one_row_of_the_table() -> None:
    """A shipped run shows its numbers and branch; a run that said nothing shows `-`, and no unshipped branch."""
    shipped = {
        "exit_code": 0,
        "usage": {"requests": 3, "total_tokens": 1200},
        "cost_usd": 0.0123,
        "diff": {"files": 2, "insertions": 10, "deletions": 1},
        "handback": {"branch": "decode/1a2b3c4d", "outcome": "shipped"},
    }
    assert len(row(1, shipped)) == len(COLUMNS)
    assert row(1, shipped) == ("1", "0", "3", "1200", "$0.0123", "2 files +10 -1", "decode/1a2b3c4d")
    kept = {"exit_code": 1, "num_requests": 2, "handback": {"branch": "decode/9f8e7d6c", "outcome": "kept"}}
    assert row(2, kept) == ("2", "1", "2", "-", "-", "0 files +0 -0", "-")
