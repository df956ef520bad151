"""Lesson 12's exercises: each check runs the learner's function on real folders and files."""

import tempfile
from collections.abc import Callable
from pathlib import Path

from course import Verdict, check

# --- exercise 1: find the AGENTS.md files ------------------------------------------------------------


def check_find_agents_files(find_agents_files: Callable[[Path], list[Path]]) -> Verdict:
    """`find_agents_files(workspace)` lists the `AGENTS.md` files from the root down to `workspace`,
    the nearest last, only those that are files."""

    def test() -> None:
        scratch = Path(tempfile.mkdtemp(prefix="decode-exercise09-")).resolve()
        repo = scratch / "repo"
        app = repo / "services" / "app"
        app.mkdir(parents=True)
        (repo / "AGENTS.md").write_text("Run the tests with make test.")
        (app / "AGENTS.md").write_text("This folder is the web app.")
        (repo / "services" / "AGENTS.md").mkdir()  # a folder that happens to have the name: not a memory file
        found = find_agents_files(app)
        mine = [Path(path) for path in found if Path(path).resolve().is_relative_to(scratch)]
        expected = [repo / "AGENTS.md", app / "AGENTS.md"]
        assert [path.resolve() for path in mine] == expected, (
            f"expected {[str(p.relative_to(scratch)) for p in expected]} (root first, nearest last), "
            f"got {[str(p.resolve().relative_to(scratch)) for p in mine]}"
        )

    return check("the AGENTS.md files, from the root down to the working directory", test)


# --- exercise 2: a skill parser ------------------------------------------------------------------------


RELEASE = """---
name: release
description: Cut a release. Use when the user asks to tag a version.
---

1. Run `make test`.
2. Tag it.
"""


def check_parse_skill(parse_skill: Callable[[Path], tuple[str, str, str]]) -> Verdict:
    """`parse_skill(path)` reads a `SKILL.md` into (name, description, body), and raises ValueError
    for one the Agent Skills rules reject."""

    def test() -> None:
        skills = Path(tempfile.mkdtemp(prefix="decode-exercise09-")) / "skills"

        def skill_file(folder: str, text: str) -> Path:
            path = skills / folder / "SKILL.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            return path

        got = parse_skill(skill_file("release", RELEASE))
        assert tuple(got) == (
            "release",
            "Cut a release. Use when the user asks to tag a version.",
            "1. Run `make test`.\n2. Tag it.",
        ), f"expected the name, the description and the body (without the front matter, stripped), got {got!r}"
        for name in ("release-notes", "a" * 64, "v2-x9"):  # good names: hyphens between, 64 characters at most
            try:
                got = parse_skill(skill_file(name, f"---\nname: {name}\ndescription: Notes.\n---\nWrite them.\n"))
            except ValueError as exc:
                raise AssertionError(
                    f"{name!r} is a valid name ({len(name)} characters), but it raised {exc}"
                ) from None
            assert got[0] == name, f"{name!r} is a valid name ({len(name)} characters), got {got!r}"
        long = "a" * 65
        broken = {
            "no description": ("lint", "---\nname: lint\n---\nRun ruff.\n"),
            "a name with capitals": ("Deploy", "---\nname: Deploy\ndescription: Ship it.\n---\nShip.\n"),
            "a name that differs from its folder": ("ship", "---\nname: deploy\ndescription: Ship it.\n---\nShip.\n"),
            "a name starting with a hyphen (-deploy)": (
                "-deploy",
                "---\nname: -deploy\ndescription: Ship.\n---\nShip.\n",
            ),
            "a name ending with a hyphen (deploy-)": (
                "deploy-",
                "---\nname: deploy-\ndescription: Ship.\n---\nShip.\n",
            ),
            "a name with two hyphens in a row (de--ploy)": (
                "de--ploy",
                "---\nname: de--ploy\ndescription: Ship.\n---\nShip.\n",
            ),
            "a name of 65 characters (64 at most)": (long, f"---\nname: {long}\ndescription: Ship.\n---\nShip.\n"),
            "no front matter": ("notes", "Just some notes.\n"),
        }
        for problem, (folder, text) in broken.items():
            path = skill_file(folder, text)
            try:
                result = parse_skill(path)
            except ValueError:
                continue
            except NotImplementedError:
                raise
            except Exception as exc:
                raise AssertionError(f"a skill with {problem}: raise ValueError, not {type(exc).__name__}") from None
            raise AssertionError(f"a skill with {problem} must be rejected (ValueError), not parsed as {result!r}")

    return check("a SKILL.md parsed, and the malformed ones rejected", test)
