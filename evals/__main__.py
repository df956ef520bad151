"""`python -m evals …`: the evals' command line (see evals/cli.py)."""

from evals.cli import cli

cli()
