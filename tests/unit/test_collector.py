"""The cycle collector paused for start-up, then back on with start-up's objects frozen.

Each check runs in a fresh interpreter: freezing this test process's objects would outlive the test.
"""

import json
import subprocess
import sys
import textwrap


def _run(code: str) -> dict:
    """Run `code` in a new Python; it prints one JSON object, returned here."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_pause_switches_the_collector_off_and_resume_back_on_with_what_exists_frozen() -> None:
    found = _run(
        """
        import gc, json
        from decode.collector import pause, resume

        before = gc.get_freeze_count()
        pause()
        paused = gc.isenabled()
        kept = [[index] for index in range(5_000)]  # new objects no collection walks meanwhile
        resume()
        frozen = gc.get_freeze_count()
        resume()  # a second resume changes nothing
        print(json.dumps({"paused": paused, "on": gc.isenabled(), "frozen": frozen - before >= len(kept),
                          "again": gc.get_freeze_count() == frozen}))
        """
    )
    assert found == {"paused": False, "on": True, "frozen": True, "again": True}


def test_a_collector_switched_off_before_stays_off() -> None:
    # Code embedding decode that turned the collector off keeps it off; nothing is frozen behind its back.
    found = _run(
        """
        import gc, json
        from decode.collector import pause, resume

        before = gc.get_freeze_count()  # the interpreter freezes a few of its own at start
        gc.disable()
        pause()
        resume()
        print(json.dumps({"on": gc.isenabled(), "frozen": gc.get_freeze_count() - before}))
        """
    )
    assert found == {"on": False, "frozen": 0}


def test_resume_without_a_pause_changes_nothing() -> None:
    # The REPL and a test's in-process CLI never pause: their first answer must not freeze anything.
    found = _run(
        """
        import gc, json
        from decode.collector import resume

        before = gc.get_freeze_count()
        resume()
        print(json.dumps({"on": gc.isenabled(), "frozen": gc.get_freeze_count() - before}))
        """
    )
    assert found == {"on": True, "frozen": 0}
