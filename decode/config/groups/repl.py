"""The REPL's settings (lesson 03)."""

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings


class ReplSettings(BaseSettings):
    context_window: int = Field(128_000, gt=0, validation_alias=AliasChoices("DECODE_CONTEXT_WINDOW"))
    """Tokens the model can hold, for a model whose own window is not known; the REPL's context gauge
    shows how full it is."""
    bell: bool = Field(True, validation_alias=AliasChoices("DECODE_BELL"))
    """Ring the terminal's bell when decode waits for you (an approval, a question), so you hear it
    from another window; `false` keeps it quiet. Only on a terminal, never into a pipe."""
