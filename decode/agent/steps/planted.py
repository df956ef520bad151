"""The planted-log step (lesson 20): a session log the repository committed chooses nothing.

It was written by whoever wrote the repository: resuming it keeps neither its sandbox nor its mode
(`resume_sandbox`, `resume_mode` read `Build.planted`), and the user is told why. Nor do `/undo` and
`/rewind` restore what its turns say they changed: its kept files are the repository's words too.
"""

from decode.agent.build import Build
from decode.context.planted import came_with_repository, lineage

PLANTED = (
    "this session log is tracked by git (it came with the repository): its sandbox and mode are not resumed, "
    "and its turns' files are never restored"
)
UNTRUSTED = "the session log came with the repository"


def distrust_planted(b: Build) -> None:
    """Mark a resumed log that git tracks (or a fork of one), before the steps that would resume its choices."""
    resumed = b.options.resume is not None
    b.planted = resumed and any(came_with_repository(log) for log in lineage(b.session.log.path))
    if b.planted:
        b.problems.append(PLANTED)
        for mark in b.session.checkpoints.marks:  # `/undo` would write what the repository chose
            mark.changes = [change.model_copy(update={"before": None, "unkept": UNTRUSTED}) for change in mark.changes]
