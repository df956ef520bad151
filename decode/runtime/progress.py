"""Progress: what `decode run` says on stderr while it works (the answer alone goes to stdout)."""

import click

from decode.visible import visible

ERROR = "decode: error: "
WARNING = "decode: warning: "


class Progress:
    """Writes progress lines to stderr. Each is made `visible()`: it carries text decode did not
    write (the model's, a tool's, a server's), and no escape sequence of it may act on the terminal."""

    def __call__(self, text: str, *, nl: bool = True) -> None:
        click.echo(visible(text), err=True, nl=nl)

    def error(self, message: str) -> None:
        self(ERROR + message)

    def warning(self, message: str) -> None:
        self(WARNING + message)

    def retry(self, error: str, attempt: int, delay: float) -> None:
        """A failed model request (`error`) is retried, attempt `attempt`, in `delay` seconds."""
        self(f"decode: model error ({error}); retry {attempt} in {delay:.1f}s")
