"""`python -m decode …` runs the same command as `decode …`."""

from decode.cli import cli

if __name__ == "__main__":
    cli(prog_name="decode")
