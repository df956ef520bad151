"""`read` of an image: by its first bytes, bounded, and only to a model that takes images."""

import os
from pathlib import Path

import pytest
from pydantic_ai import RunContext, ToolFailed
from pydantic_ai.messages import BinaryImage
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.models.test import TestModel
from pydantic_ai.providers.openai import OpenAIProvider
from pydantic_ai.usage import RunUsage

from decode.entities.deps import AgentDeps
from decode.tools.images import accepts_images, image_info
from decode.tools.read import read
from tests.unit.tools.image_bytes import GIF, jpeg, png, webp


@pytest.mark.parametrize(
    ("name", "data", "kind", "size"),
    [
        ("a.png", png(3, 2), "PNG", "3×2"),
        ("b.jpg", jpeg(4, 5), "JPEG", "4×5"),
        ("c.gif", GIF, "GIF", "1×1"),
        ("d.webp", webp(7, 9), "WebP", "7×9"),
        ("named-wrong.txt", png(1, 1), "PNG", "1×1"),  # the bytes decide, not the name
    ],
)
async def test_an_image_goes_to_the_model_as_an_image_with_one_line_beside_it(
    ctx: RunContext[AgentDeps], workspace: Path, name: str, data: bytes, kind: str, size: str
) -> None:
    (workspace / name).write_bytes(data)
    result = await read(ctx, name)
    assert isinstance(result, list)
    line, image = result
    assert line == f"{name}: {kind} image, {size} pixels, {len(data):,} bytes."
    assert isinstance(image, BinaryImage)
    assert image.data == data
    assert image.media_type == image_info(data).media_type  # type: ignore[union-attr]
    assert (workspace / name).resolve() in ctx.deps.read_ledger.stamps  # recorded as any read is


async def test_a_text_file_named_png_is_read_as_text(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "notes.png").write_text("not a picture\n")
    assert await read(ctx, "notes.png") == "     1\tnot a picture"


async def test_a_truncated_header_is_refused_in_one_line(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "cut.png").write_bytes(png()[:20])
    with pytest.raises(ToolFailed, match=r"cut\.png starts like an image but its header is cut short or damaged"):
        await read(ctx, "cut.png")


async def test_an_image_over_the_limit_is_refused_before_it_is_read(
    ctx: RunContext[AgentDeps], workspace: Path
) -> None:
    with (workspace / "huge.png").open("wb") as file:
        file.write(png())
        file.truncate(6 * 1024 * 1024)  # sparse: 6 MiB on paper
    with pytest.raises(ToolFailed, match=r"huge.png is an image of 6,291,456 bytes, over the 5,242,880-byte limit"):
        await read(ctx, "huge.png")


async def test_a_fifo_named_png_is_refused_without_hanging(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    os.mkfifo(workspace / "pipe.png")
    with pytest.raises(ToolFailed, match=r"pipe\.png is not a regular file"):
        await read(ctx, "pipe.png")


async def test_a_model_without_images_gets_a_line_instead_of_bytes(deps: AgentDeps, workspace: Path) -> None:
    (workspace / "a.png").write_bytes(png(3, 2))
    model = OpenAIChatModel("gpt-3.5-turbo", provider=OpenAIProvider(api_key="unused"))
    ctx = RunContext(deps=deps, model=model, usage=RunUsage(), tool_call_id="c")
    size = len(png(3, 2))
    assert await read(ctx, "a.png") == (
        f"a.png: PNG image, 3×2 pixels, {size} bytes. The model gpt-3.5-turbo does not take images, so it is not shown."
    )


@pytest.mark.parametrize(
    ("name", "takes"),
    [("claude-sonnet-4-5", True), ("gpt-4o", True), ("gpt-5-mini", True), ("o3-mini", False), ("gpt-3.5-turbo", False)],
)
def test_which_models_take_images(name: str, takes: bool) -> None:
    assert accepts_images(OpenAIChatModel(name, provider=OpenAIProvider(api_key="unused"))) is takes
    assert accepts_images(TestModel()) is True
