"""`ask_user`: the model asks the user a question, with options to choose from or in their own words.

The tool only knows `deps.ask_user`, a callback the front end gives (the REPL asks through its
Decision Channel). With none, no one is there to answer (`decode run`): the result says so, and
the model carries on with what it has, an answer rather than an error.
"""

from pydantic_ai import ModelRetry, RunContext

from decode.entities.deps import AgentDeps
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits

MAX_OPTIONS = 9  # one key each: 1…9
NO_USER = (
    "No user can answer: this run is headless. Do not ask again; choose what is most reasonable, "
    "carry on, and say in your final answer what you assumed."
)


async def ask_user(ctx: RunContext[AgentDeps], question: str, options: list[str] | None = None) -> str:
    """Ask the user a question and wait for the answer. Only for what you cannot find out yourself
    (a preference, a choice between designs, a missing requirement); keep it short.

    Args:
        question: The question, in one or two sentences.
        options: Up to 9 short answers to choose from; the user may also answer in their own words.
    """
    choices = [" ".join(option.split()) for option in options or []]
    if not question.strip():
        raise ModelRetry("The question is empty: write the question you want the user to answer.")
    if len(choices) > MAX_OPTIONS or not all(choices):
        raise ModelRetry(f"Give at most {MAX_OPTIONS} options, none of them empty (or no options at all).")
    if ctx.deps.ask_user is None:
        return NO_USER
    answer = await ctx.deps.ask_user(question.strip(), choices)
    return f"The user answered: {answer}"


ASK_USER = ToolSpec("ask_user", ask_user, ToolTraits(ToolKind.SIDE_EFFECT_FREE))
