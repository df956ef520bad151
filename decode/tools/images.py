"""Images for `read`: a PNG, JPEG, GIF or WebP file goes to the model as an image it can see.

What a file is comes from its first bytes (its magic number), never from its name alone: a text
file named `logo.png` is text, and a PNG named `logo.txt` is an image. The pixel size is read from
the header; a file whose header is cut short or damaged is refused, since a provider would refuse
the whole request for it. An image past `DECODE_IMAGE_MAX_BYTES` (5 MiB, Anthropic's cap per
image) is refused in one line before it is read.

Whether the model takes images: pydantic-ai's model profiles say nothing about image *input* for
chat models, so a small table decides (`accepts_images`). Claude, GPT-4o/4.1/5 and the o-series,
Gemini, and the offline models (the scripted model and pydantic-ai's `TestModel`, which keep the
image in the history like a real model would) take them; any other model gets a one-line message.
"""

import struct
from dataclasses import dataclass

from pydantic_ai.messages import BinaryImage
from pydantic_ai.models import AbstractModel

from decode.entities.deps import AgentDeps
from decode.entities.executor import EntryKind
from decode.tools.harness_files import locate
from decode.tools.paths import Refusal, describe_os_error, stat_path

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp")
"""Names that look like images: a pasted path with one, when refused, is said to be."""
HEAD_BYTES = 32  # enough for every magic number below
READ_CHUNK = 1024 * 1024


@dataclass(frozen=True)
class ImageInfo:
    """An image's media type, its format's name and its pixel size (None when the header lacks it)."""

    media_type: str
    name: str
    size: tuple[int, int] | None


def _png(data: bytes) -> tuple[int, int] | None:
    if len(data) < 24 or data[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", data[16:24])


def _gif(data: bytes) -> tuple[int, int] | None:
    return struct.unpack("<HH", data[6:10]) if len(data) >= 13 else None


def _webp(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 " and len(data) >= 30 and data[23:26] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 25 and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X" and len(data) >= 30:
        return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    return None


def _jpeg(data: bytes) -> tuple[int, int] | None:
    """The size in the first start-of-frame segment, walking the segments from the start."""
    at = 2
    while at + 9 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        length = int.from_bytes(data[at + 2 : at + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return width, height
        at += 2 + length
    return None


def sniff(head: bytes) -> str | None:
    """The media type of an image by its magic number (`image/png`…), or None."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    return None


_SIZE = {"image/png": ("PNG", _png), "image/jpeg": ("JPEG", _jpeg), "image/gif": ("GIF", _gif)}
_SIZE["image/webp"] = ("WebP", _webp)


def image_info(data: bytes) -> ImageInfo | None:
    """What image `data` is, or None when it is none of PNG, JPEG, GIF and WebP."""
    if (media_type := sniff(data[:HEAD_BYTES])) is None:
        return None
    name, size_of = _SIZE[media_type]
    return ImageInfo(media_type, name, size_of(data))


_VISION_PREFIXES = (
    "claude",
    "gpt-4o",
    "gpt-4.1",
    "gpt-4-turbo",
    "gpt-4.5",
    "gpt-5",
    "o1",
    "o3",
    "o4",
    "gemini",
    "sonnet",
    "opus",
    "haiku",
)
_NO_VISION = ("o1-mini", "o3-mini", "gpt-5-chat-latest-audio")


def accepts_images(model: AbstractModel | str) -> bool:
    """Does `model` (or a model string, `openai:gpt-4o`) take images? (The table in the module docstring.)"""
    system, name = model.partition(":")[::2] if isinstance(model, str) else (model.system, model.model_name)
    if system in ("test", "function", "script"):  # pydantic-ai's TestModel, the scripted model
        return True
    name = (
        (name or system).lower().rpartition("/")[2]
    )  # an alias (`sonnet`) has no provider  # `anthropic/claude-…` on OpenRouter
    name = name.removeprefix("us.").removeprefix("eu.").removeprefix("anthropic.")  # Bedrock's ids
    return name.startswith(_VISION_PREFIXES) and not name.startswith(_NO_VISION)


async def read_image(
    deps: AgentDeps, path: str, model: AbstractModel | str | None
) -> list[str | BinaryImage] | str | None:
    """What `read` answers for an image file: a line and the image, or a one-line refusal.

    None when `path` is not an image (or not a regular file): `read` goes on as for text. `model`
    None: a model not known yet (the REPL before its warm-up), taken to accept images.
    """
    executor, real, shown = await locate(deps, path)
    stat = await stat_path(executor, real, shown)
    if stat is None or stat.kind is not EntryKind.FILE:
        return None
    try:
        if sniff(await executor.read_bytes(real, 0, HEAD_BYTES)) is None:
            return None
        limit = deps.settings.image_max_bytes
        if stat.size > limit:
            raise Refusal(f"{shown} is an image of {stat.size:,} bytes, over the {limit:,}-byte limit; not read.")
        data = b""
        while len(data) < stat.size and (chunk := await executor.read_bytes(real, len(data), READ_CHUNK)):
            data += chunk
            if len(data) > limit:
                raise Refusal(f"{shown} grew past the {limit:,}-byte image limit while read; not read.")
    except OSError as exc:
        raise Refusal(f"Could not read {shown}: {describe_os_error(exc)}.") from None
    info = image_info(data)
    if info is None or info.size is None:
        raise Refusal(f"{shown} starts like an image but its header is cut short or damaged; not read.")
    deps.read_ledger.record(real, stat)
    width, height = info.size
    line = f"{shown}: {info.name} image, {width}×{height} pixels, {len(data):,} bytes."
    if model is not None and not accepts_images(model):
        name = model if isinstance(model, str) else model.model_name
        return f"{line} The model {name} does not take images, so it is not shown."
    return [line, BinaryImage(data=data, media_type=info.media_type, identifier=shown)]
