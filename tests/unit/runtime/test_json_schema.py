"""`decode run --json-schema SCHEMA`: the answer an object valid against it, or exit 4."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from decode.agent.structured import SchemaError, read_schema
from decode.runtime.exits import EXIT_OK, EXIT_SCHEMA, EXIT_USAGE
from decode.runtime.run import run
from tests.conftest import script

SCHEMA = {
    "type": "object",
    "properties": {"title": {"type": "string"}, "labels": {"type": "array", "items": {"type": "string"}}},
    "required": ["title", "labels"],
    "additionalProperties": False,
}


def answer(args: dict) -> dict:
    """A scripted response that answers through the output tool, as a model does."""
    return {"tool_calls": [{"name": "final_result", "args": args}]}


def invoke(*args: str) -> Result:
    return CliRunner().invoke(run, list(args))


def test_a_schema_is_inline_json_or_a_file_and_a_bad_one_says_why(tmp_path: Path) -> None:
    assert read_schema(json.dumps(SCHEMA)) == SCHEMA
    (tmp_path / "schema.json").write_text(json.dumps(SCHEMA))
    assert read_schema(str(tmp_path / "schema.json")) == SCHEMA
    with pytest.raises(SchemaError, match=r"^the schema is not JSON"):
        read_schema("{not json")
    with pytest.raises(SchemaError, match="must describe an object"):
        read_schema('{"type": "array"}')
    with pytest.raises(SchemaError, match=r"^not a JSON Schema"):
        read_schema('{"type": "object", "properties": 3}')
    with pytest.raises(SchemaError, match=r"^cannot read the schema file"):
        read_schema(str(tmp_path / "missing.json"))


def test_the_answer_is_the_object_and_a_mismatch_goes_back_to_the_model(project: Path) -> None:
    model = script(project / "s.json", [answer({"title": 3}), answer({"title": "Crash on start", "labels": ["bug"]})])
    result = invoke(
        "--json-schema", json.dumps(SCHEMA), "--output-format", "json", "-o", "out.json", "--model", model, "triage"
    )
    assert result.exit_code == EXIT_OK, result.output
    summary = json.loads(result.stdout)
    assert summary["structured_output"] == {"title": "Crash on start", "labels": ["bug"]}
    assert json.loads(summary["result"]) == summary["structured_output"]
    assert json.loads((project / "out.json").read_text()) == summary["structured_output"]  # Codex's -o
    [log] = (project / ".decode" / "sessions").glob("*.jsonl")
    assert "title: 3 is not of type 'string'" in log.read_text()  # what the model was told to fix


def test_no_valid_object_after_the_retries_is_exit_4(project: Path, tmp_path: Path) -> None:
    (tmp_path / "schema.json").write_text(json.dumps(SCHEMA))
    model = script(project / "s.json", [answer({"title": "x"})] * 6)
    result = invoke("--output-schema", str(tmp_path / "schema.json"), "--output-format", "json", "--model", model, "t")
    assert result.exit_code == EXIT_SCHEMA
    summary = json.loads(result.stdout)
    assert (summary["exit_code"], summary["structured_output"], summary["subtype"]) == (
        4,
        None,
        "error_during_execution",
    )


def test_a_bad_schema_is_a_usage_error_before_anything_runs(project: Path) -> None:
    result = invoke("--json-schema", '{"type": "array"}', "--model", "test", "t")
    assert result.exit_code == EXIT_USAGE
    assert 'Invalid value for --json-schema: the schema must describe an object ("type": "object")' in result.stderr
    assert not (project / ".decode").exists()
