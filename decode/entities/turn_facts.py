"""The fence the Turn Facts travel in: how a part of a request says it holds decode's facts, not the user's words.

The agent adds the facts (`decode.agent.facts`); a model adapter finds them to leave them out of the
provider's cache (`decode.models.breakpoints`). Both read the fence from here.
"""

HEADER = "<turn-facts>\nThe state of things now (decode adds this to the newest message; the user did not write it):"
FOOTER = "</turn-facts>"
