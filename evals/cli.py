"""The evals' command line: one click group; each verb lives beside the code it runs."""

import click

from evals.benchmark.commands import benchmark, verify
from evals.regression.commands import judge, mine, regression
from evals.report import report
from evals.smoke import smoke


@click.group()
def cli() -> None:
    """Measure decode: benchmark tasks, behaviour regression cases, reports."""


for command in (verify, benchmark, report, smoke, regression, judge, mine):
    cli.add_command(command)
