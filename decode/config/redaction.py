"""Redaction: decode's own keys replaced by a marker before anything is stored or sent.

The commands decode runs never get its keys (`decode.processes.environment`), but a file can hold
one: the model reads `.env` (after the user approved it) and the tool result carries
`GEMINI_API_KEY=AIza…`. From there it would reach the model's provider, the Session Log, a saved
tool output, an Opik span and a Kitaru recording. A `Redactor`, built from the settings' values,
replaces each key's value with `[REDACTED:GEMINI_API_KEY]`:

- tool results, before the model gets them (`decode.permissions.redaction`): so neither the
  provider nor a Kitaru recording (which records what the model got) ever holds the key;
- every line of the Session Log, every saved tool output, every Opik span: so a key the user
  typed, or one the model pieced together, is not stored either.

Only exact values are recognised: a key split across two reads, or encoded (base64…), is not.
Values shorter than `MIN_SECRET_CHARS` are not redacted: `abc` would mark half the log.
"""

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from decode.config.settings import Settings

MIN_SECRET_CHARS = 8
"""A shorter value is left alone: it would turn up by chance in ordinary text."""


def marker(name: str) -> str:
    """What stands in for the value of the secret `name`: `[REDACTED:GEMINI_API_KEY]`."""
    return f"[REDACTED:{name}]"


@dataclass(frozen=True)
class Redactor:
    """Replaces known secret values (longest first) with their markers; empty, it changes nothing."""

    secrets: tuple[tuple[str, str], ...] = ()
    """(value, name) pairs, longest value first: a key inside a longer one leaves no tail behind."""
    _forms: tuple[tuple[bytes, bytes], ...] = field(default=(), repr=False, compare=False)

    @classmethod
    def of(cls, named: Mapping[str, str]) -> "Redactor":
        """A redactor for `{name: value}`; values under `MIN_SECRET_CHARS` (stripped) are skipped."""
        pairs = {value: name for name, value in named.items() if len(value.strip()) >= MIN_SECRET_CHARS}
        ordered = tuple(sorted(pairs.items(), key=lambda pair: -len(pair[0])))
        forms: list[tuple[bytes, bytes]] = []
        for value, name in ordered:
            # The raw value, and how JSON writes it (a `"` or `\` in a key is escaped in a log line).
            for form in dict.fromkeys([value, json.dumps(value, ensure_ascii=False)[1:-1], json.dumps(value)[1:-1]]):
                forms.append((form.encode(), marker(name).encode()))
        return cls(ordered, tuple(forms))

    def __bool__(self) -> bool:
        return bool(self.secrets)

    @property
    def longest(self) -> int:
        """The longest form of a secret, in bytes: how much a stream must hold back (`ByteRedaction`)."""
        return max((len(form) for form, _ in self._forms), default=0)

    def text(self, text: str) -> str:
        """`text` with every secret value replaced by its marker."""
        for value, name in self.secrets:
            if value in text:
                text = text.replace(value, marker(name))
        return text

    def data(self, value: object) -> object:
        """Strings inside dicts, lists and tuples redacted; anything else (bytes, images) as it is."""
        if not self.secrets:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.data(key): self.data(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return type(value)(self.data(item) for item in value)
        return value

    def encoded(self, data: bytes) -> bytes:
        """UTF-8 bytes (a line of JSON, a command's output) with every secret, raw or JSON-escaped, replaced."""
        for form, replacement in self._forms:
            if form in data:
                data = data.replace(form, replacement)
        return data

    def stream(self) -> "ByteRedaction":
        """A redaction for bytes that arrive in chunks (a command's output going to a file)."""
        return ByteRedaction(self)


class ByteRedaction:
    """Redacts a stream: holds back the last `longest - 1` bytes, where a secret may be cut in two."""

    def __init__(self, redactor: Redactor) -> None:
        self.redactor = redactor
        self.keep = max(redactor.longest - 1, 0)
        self._held = b""

    def feed(self, chunk: bytes) -> bytes:
        """The bytes that are safe to write now."""
        if not self.redactor:
            return chunk
        data = self.redactor.encoded(self._held + chunk)
        cut = max(len(data) - self.keep, 0)
        self._held = data[cut:]
        return data[:cut]

    def end(self) -> bytes:
        """What was held back, once the stream has ended."""
        rest, self._held = self._held, b""
        return rest


NO_REDACTION = Redactor()
"""The redactor with no secrets: changes nothing (a default for code that may be given one)."""


def secret_values(settings: "Settings") -> dict[str, str]:
    """Every `SecretStr` setting that has a value, by its environment variable's name."""
    from pydantic import AliasChoices, SecretStr

    named: dict[str, str] = {}
    for field_name, info in type(settings).model_fields.items():
        value = getattr(settings, field_name)
        if not isinstance(value, SecretStr):
            continue
        alias = info.validation_alias
        name = alias.choices[0] if isinstance(alias, AliasChoices) else alias or field_name
        named[str(name).upper()] = value.get_secret_value()
    return named


def redactor_for(settings: "Settings") -> Redactor:
    """The redactor for decode's own keys as these settings hold them."""
    return Redactor.of(secret_values(settings))
