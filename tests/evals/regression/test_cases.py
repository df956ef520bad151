"""Every case file loads, names known metrics, and covers the behaviours the suite promises."""

from pathlib import Path

import pytest

from evals.regression.cases import CASES_DIR, PARAMS, CaseError, load_case, load_cases
from evals.regression.metrics import METRICS


def test_every_case_loads_with_known_metrics() -> None:
    cases = load_cases()
    assert len(cases) >= 14
    assert {case.tier for case in cases} == {1, 2, 3}
    for case in cases:
        assert case.path is not None
        assert case.path.stem == case.id
        assert case.assertion.strip()
        assert case.prompt.strip()
        assert all(spec["name"] in METRICS for spec in case.metrics)
    named = {spec["name"] for case in cases for spec in case.metrics}
    assert named >= set(METRICS) - {"answer_mentions"}


def test_a_case_naming_an_unknown_metric_is_refused(tmp_path: Path) -> None:
    text = (CASES_DIR / "deny-rm.toml").read_text().replace('name = "deny_respected"', 'name = "vibes"')
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(CaseError, match="unknown metric"):
        load_case(path)


def test_an_unknown_case_id_is_refused() -> None:
    with pytest.raises(CaseError, match="no-such-case"):
        load_cases(ids=["no-such-case"])


@pytest.mark.parametrize("name", ["../escape.txt", "/tmp/abs.txt", ".decode/sessions/x.jsonl"])
def test_a_seed_file_outside_the_workspace_is_refused(tmp_path: Path, name: str) -> None:
    text = (CASES_DIR / "deny-rm.toml").read_text().replace("[files]", f'[files]\n"{name}" = "x"', 1)
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(CaseError, match="inside the workspace"):
        load_case(path)


# The smallest valid case, as TOML text per field; each bad value below replaces or adds one field.
MINIMAL = {
    "id": '"tiny"',
    "tier": "1",
    "prompt": '"Say hi."',
    "assertion": '"It said hi."',
    "metrics": '[{name = "read_before_edit"}]',
}


def write_case(tmp_path: Path, **fields: str) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text("\n".join(f"{key} = {value}" for key, value in {**MINIMAL, **fields}.items()) + "\n")
    return path


def test_the_minimal_case_loads_with_its_defaults(tmp_path: Path) -> None:
    case = load_case(write_case(tmp_path))
    assert (case.id, case.files, case.followups, case.max_requests, case.context_window) == ("tiny", {}, [], 30, None)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("id", "7"),
        ("tier", '"1"'),
        ("tier", "true"),
        ("tier", "4"),
        ("prompt", '["Say hi."]'),
        ("assertion", "{text = 'x'}"),
        ("files", '"x"'),
        ("files", '{"a.py" = 1}'),
        ("followups", '"abc"'),
        ("followups", '["ok", 2]'),
        ("permission_mode", "1"),
        ("permission_mode", '"yolo"'),
        ("disallowed_tools", '["Bash(rm:*)"]'),
        ("max_requests", '"many"'),
        ("max_requests", "1.5"),
        ("max_requests", "0"),
        ("context_window", "false"),
        ("context_window", "-5"),
        ("metrics", '"read_before_edit"'),
        ("metrics", '["read_before_edit"]'),
        ("max_request", "12"),  # a typo: would silently run on the default
    ],
)
def test_a_field_of_the_wrong_type_or_value_is_refused_naming_file_and_field(
    tmp_path: Path, field: str, value: str
) -> None:
    path = write_case(tmp_path, **{field: value})
    with pytest.raises(CaseError) as caught:
        load_case(path)
    assert str(path) in str(caught.value)
    assert f"`{field}`" in str(caught.value)


@pytest.mark.parametrize(
    ("metric", "field"),
    [
        ('{name = "minimal_diff", max_lines = "2"}', "max_lines"),
        ('{name = "minimal_diff", files = "app.py"}', "files"),
        ('{name = "minimal_diff", max_line = 2}', "max_line"),
        ('{name = "deny_respected", paths = [1]}', "paths"),
        ('{name = "compaction_survived"}', "fact"),
        ('{name = "compaction_survived", fact = 8431}', "fact"),
        ('{name = "search_with_tools", require = "no"}', "require"),
        ('{name = "used_todos", min_calls = 2.5}', "min_calls"),
        ('{name = "answer_mentions", words = "add"}', "words"),
        ('{name = "read_before_edit", threshold = "high"}', "threshold"),
        ('{name = "read_before_edit", threshold = 1.5}', "threshold"),
        ('{name = "read_before_edit", threshold = nan}', "threshold"),
    ],
)
def test_a_metric_parameter_of_the_wrong_type_is_refused_naming_metric_and_parameter(
    tmp_path: Path, metric: str, field: str
) -> None:
    path = write_case(tmp_path, metrics=f"[{metric}]")
    with pytest.raises(CaseError) as caught:
        load_case(path)
    assert str(path) in str(caught.value)
    assert f"`{field}`" in str(caught.value)


def test_every_metric_has_its_parameters_listed() -> None:
    assert set(PARAMS) == set(METRICS)


def test_a_missing_required_field_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "tiny.toml"
    path.write_text("\n".join(f"{key} = {value}" for key, value in MINIMAL.items() if key != "prompt") + "\n")
    with pytest.raises(CaseError, match="`prompt` is missing"):
        load_case(path)
