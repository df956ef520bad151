"""The recording step (lesson 23): the agent's model requests recorded to Kitaru, when it is configured."""

from decode.agent.build import Build
from decode.recording.seam import recorded


def record(b: Build) -> None:
    """Recorded only when recording is configured (`KITARU_…`), else kitaru is never imported. A
    subagent's requests are not recorded on their own."""
    if b.options.parent is None:
        b.agent = recorded(b.agent, b.settings, b.session.session_id)
