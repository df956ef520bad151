"""The front ends' options are declared once (`decode.runtime.cli_options`): `decode` (the REPL)
takes the shared list, `decode run` the shared list, its own, and the headless ones, in that order."""

from collections.abc import Callable
from typing import Any

import click

from decode.cli import cli
from decode.runtime.cli_options import RUN_ONLY, SHARED, Decorator, with_options
from decode.runtime.options import headless_options
from decode.runtime.run import run


def declared(decorate: Callable[[Callable[..., Any]], Callable[..., Any]]) -> list[click.Parameter]:
    """The parameters `decorate` adds to a command."""

    def nothing(**_: Any) -> None:
        return None

    return click.command()(decorate(nothing)).params


def names(options: list[Decorator]) -> list[str | None]:
    return [parameter.name for parameter in declared(with_options(options))]


def own(command: click.Command) -> list[click.Parameter]:
    return [parameter for parameter in command.params if parameter.name not in ("help", "version")]


def test_decode_run_takes_the_shared_options_its_own_and_the_headless_ones() -> None:
    headless = [parameter.name for parameter in declared(headless_options)]
    assert [parameter.name for parameter in own(run)] == ["task", *names(SHARED), *names(RUN_ONLY), *headless]


def test_the_repl_takes_exactly_the_shared_options() -> None:
    assert [parameter.name for parameter in own(cli)] == names(SHARED)


def test_a_shared_option_reads_the_same_in_both_front_ends() -> None:
    repl = {parameter.name: parameter for parameter in own(cli)}
    for parameter in own(run):
        if (twin := repl.get(parameter.name)) is not None:
            assert isinstance(parameter, click.Option)
            assert isinstance(twin, click.Option)
            assert (parameter.opts, parameter.help, repr(parameter.type)) == (twin.opts, twin.help, repr(twin.type))
    assert {"model", "max_requests", "resume", "permission_mode", "agent", "sandbox", "repo"} <= set(repl)


def test_every_run_only_option_is_a_loop_options_field() -> None:
    import dataclasses

    from decode.agent.options import LoopOptions

    fields = {field.name for field in dataclasses.fields(LoopOptions)}
    assert set(names(RUN_ONLY)) <= fields, sorted(set(names(RUN_ONLY)) - fields)
