"""The Redactor: decode's own key values become markers, in text, data, JSON lines and streams."""

import json

import pytest
from pydantic import SecretStr

from decode.config.redaction import MIN_SECRET_CHARS, Redactor, marker, redactor_for, secret_values
from decode.config.settings import Settings

KEY = "AIzaSyD-test-key-0123456789abcdef"
TOKEN = "modal-token-ABCDEFGH"


def redactor() -> Redactor:
    return Redactor.of({"GEMINI_API_KEY": KEY, "DECODE_MODAL_LLM_TOKEN": TOKEN})


def test_every_secret_setting_with_a_value_is_known_by_its_variables_name() -> None:
    values = {
        name: SecretStr(f"value-of-{name}-0123")
        for name, info in Settings.model_fields.items()
        if SecretStr in (info.annotation, *getattr(info.annotation, "__args__", ()))
    }
    settings = Settings(_env_file=None, **values)  # type: ignore[call-arg]
    named = secret_values(settings)
    assert set(named) >= {"GEMINI_API_KEY", "OPENROUTER_API_KEY", "OPENAI_API_KEY", "DECODE_MODAL_LLM_TOKEN"}
    assert set(named) <= Settings.secret_env_names()
    assert len(named) == len(values)  # Opik's and Kitaru's keys too: every SecretStr field
    for name, value in named.items():
        assert redactor_for(settings).text(f"x {value} y") == f"x {marker(name)} y"


def test_unset_keys_redact_nothing() -> None:
    empty = redactor_for(Settings(_env_file=None))  # type: ignore[call-arg]
    assert not empty
    assert empty.text("nothing to hide") == "nothing to hide"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"GEMINI_API_KEY={KEY}\n", "GEMINI_API_KEY=[REDACTED:GEMINI_API_KEY]\n"),
        (f"{KEY}{KEY}", "[REDACTED:GEMINI_API_KEY][REDACTED:GEMINI_API_KEY]"),
        (f"Bearer {TOKEN}", "Bearer [REDACTED:DECODE_MODAL_LLM_TOKEN]"),
        (KEY[:-1], KEY[:-1]),  # not the key
        ("no secrets here", "no secrets here"),
    ],
)
def test_text_is_redacted_case_by_case(text: str, expected: str) -> None:
    assert redactor().text(text) == expected


def test_short_values_are_never_redacted() -> None:
    short = Redactor.of({"OPENAI_API_KEY": "x" * (MIN_SECRET_CHARS - 1), "GEMINI_API_KEY": "  abc  "})
    assert not short
    assert short.text("xxxxxxx abc") == "xxxxxxx abc"


def test_a_key_inside_a_longer_one_leaves_no_tail() -> None:
    both = Redactor.of({"SHORT": "abcdefgh", "LONG": "abcdefgh-and-more"})
    assert both.text("abcdefgh-and-more abcdefgh") == "[REDACTED:LONG] [REDACTED:SHORT]"


def test_data_is_redacted_in_nested_dicts_lists_and_tuples() -> None:
    data = {"content": [KEY, (TOKEN, 3)], KEY: None, "n": 1, "raw": KEY.encode()}
    assert redactor().data(data) == {
        "content": ["[REDACTED:GEMINI_API_KEY]", ("[REDACTED:DECODE_MODAL_LLM_TOKEN]", 3)],
        "[REDACTED:GEMINI_API_KEY]": None,
        "n": 1,
        "raw": KEY.encode(),  # bytes (an image) are left as they are
    }


def test_a_json_line_is_redacted_however_json_escaped_the_key() -> None:
    odd = 'pa"ss\\word/é-0123'
    line = json.dumps({"text": f"x {odd} y"}).encode()  # ensure_ascii: \" \\ and \u00e9
    other = json.dumps({"text": odd}, ensure_ascii=False).encode()
    clean = Redactor.of({"OPENAI_API_KEY": odd})
    assert json.loads(clean.encoded(line)) == {"text": "x [REDACTED:OPENAI_API_KEY] y"}
    assert json.loads(clean.encoded(other)) == {"text": "[REDACTED:OPENAI_API_KEY]"}


@pytest.mark.parametrize("size", [1, 2, 3, 7, 16, 33, 1000])
def test_a_stream_is_redacted_whatever_its_chunks(size: int) -> None:
    data = f"start {KEY} middle {TOKEN}{KEY} end {KEY[:10]}".encode()
    stream = redactor().stream()
    out = b"".join(stream.feed(data[i : i + size]) for i in range(0, len(data), size)) + stream.end()
    assert out == redactor().encoded(data)
    assert KEY.encode() not in out
    assert out.endswith(KEY[:10].encode())  # a prefix alone is not the key: it comes out at the end
