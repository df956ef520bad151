"""A message the user sent while the turn ran, as the Agent Loop reports it once the model has it.

The Harness enqueues a steer or a follow-up into the live run (`AgentLoop.run`); pydantic-ai says
when the next request carries it, with an `EnqueuedMessagesEvent` while that request streams.
"""

from pydantic_ai.messages import EnqueuedMessagesEvent, UserPromptPart

from decode.entities.events import MessageDelivered


def delivered(event: object) -> MessageDelivered | None:
    """The `MessageDelivered` of a model-request event that delivered enqueued messages; None for any other."""
    if not isinstance(event, EnqueuedMessagesEvent):
        return None
    text = "\n".join(  # the user's text (the harness enqueues plain text)
        part.content
        for message in event.messages
        for part in message.parts
        if isinstance(part, UserPromptPart) and isinstance(part.content, str)
    )
    return MessageDelivered(message_id=event.enqueue_id, text=text)
