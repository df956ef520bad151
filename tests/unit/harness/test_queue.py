"""A message: what the model gets, and what the transcript shows of it."""

from decode.harness.queue import Message
from decode.tools.mention_text import Attachment, with_attachments


def test_a_message_shows_what_the_user_typed_not_what_its_mentions_attached() -> None:
    typed = "fix @calc.py"
    sent = with_attachments(typed, [Attachment("calc.py", '<file path="calc.py">\n     1\tx\n</file>\n', "1 lines")])
    assert Message(sent).display == typed
    assert Message(sent).text == sent
    assert Message("plain").display == "plain"
    assert Message("long prompt", shown="/fix-issue 12").display == "/fix-issue 12"
