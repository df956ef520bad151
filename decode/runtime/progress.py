"""Progress: what `decode run` says on stderr while it works (the answer alone goes to stdout)."""

import click

from decode.visible import visible

ERROR = "decode: error: "
WARNING = "decode: warning: "


class Progress:
    """Writes progress lines to stderr. Each is made `visible()`: it carries text decode did not
    write (the model's, a tool's, a server's), and no escape sequence of it may act on the terminal."""

    # [lesson 15]
    def __init__(self) -> None:
        self.quiet = False
        """`-q`: only warnings and errors."""
        self.first_error: str | None = None
        """The first error line of the run: the Run Summary's `error`."""

    # [/lesson 15]

    def __call__(self, text: str, *, nl: bool = True) -> None:
        # [lesson 15]
        if text.startswith(ERROR) and self.first_error is None:
            self.first_error = text.removeprefix(ERROR)
        if self.quiet and not text.startswith((ERROR, WARNING)):
            return
        # [/lesson 15]
        click.echo(visible(text), err=True, nl=nl)

    def error(self, message: str) -> None:
        self(ERROR + message)

    def warning(self, message: str) -> None:
        self(WARNING + message)
