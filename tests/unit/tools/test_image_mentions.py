"""An image named in a prompt (`@shot.png`, or a pasted absolute path) is attached as the image itself.

The tests that take `deps` run against both executors (see conftest.py).
"""

from pathlib import Path

from pydantic_ai.messages import BinaryImage
from pydantic_ai.models.test import TestModel

from decode.entities.deps import AgentDeps
from decode.entities.tools import ToolSpec
from decode.tools.mention_text import typed_part
from decode.tools.mentions import attach_mentions
from tests.unit.tools.image_bytes import jpeg, png


async def test_an_image_mention_attaches_the_image_and_counts_as_read(deps: AgentDeps, workspace: Path) -> None:
    (workspace / "shot.png").write_bytes(png(3, 2))
    result = await attach_mentions(deps, "what is in @shot.png?", model=TestModel())
    assert result.refused == []
    [image] = result.images
    assert isinstance(image, BinaryImage)
    assert (image.data, image.media_type) == (png(3, 2), "image/png")
    assert result.attached[0].summary == f"PNG image, 3×2 pixels, {len(png(3, 2))} bytes"
    assert typed_part(result.text) == "what is in @shot.png?"
    assert '<image path="shot.png">' in result.text
    assert (workspace / "shot.png").resolve() in deps.read_ledger.stamps


async def test_a_pasted_absolute_path_of_an_image_attaches_it(deps: AgentDeps, workspace: Path) -> None:
    (workspace / "photo.jpg").write_bytes(jpeg(4, 5))
    (workspace / "notes.txt").write_text("plain\n")
    prompt = f"look at {workspace / 'photo.jpg'} and {workspace / 'notes.txt'}"
    result = await attach_mentions(deps, prompt)
    assert [image.media_type for image in result.images] == ["image/jpeg"]
    assert [item.path for item in result.attached] == ["photo.jpg"]  # a pasted text file's path stays text
    assert result.refused == []


async def test_a_model_without_images_is_told_and_gets_no_bytes(deps: AgentDeps, workspace: Path) -> None:
    (workspace / "shot.png").write_bytes(png())
    result = await attach_mentions(deps, "see @shot.png", model="openai:gpt-3.5-turbo")
    assert result.images == []
    [line] = result.refused
    assert line.startswith("@shot.png not attached: shot.png: PNG image, 3×2 pixels")
    assert line.endswith("The model openai:gpt-3.5-turbo does not take images, so it is not shown.")


async def test_the_gate_decides_for_an_image_as_for_a_read(deps: AgentDeps, workspace: Path) -> None:
    (workspace / "secret.png").write_bytes(png())

    async def deny(spec: ToolSpec, args: dict[str, str]) -> str | None:
        return f"denied by a rule: {spec.name}({args['path']})"

    result = await attach_mentions(deps, f"@secret.png {workspace / 'secret.png'}", deny)
    assert result.images == []
    assert result.refused[0] == "@secret.png not attached: denied by a rule: read(secret.png)"
    assert (workspace / "secret.png").resolve() not in deps.read_ledger.stamps
