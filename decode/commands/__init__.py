"""The `decode` subcommands: one module each, found by `decode/cli.py` without importing it.

A module here is a subcommand of the same name (`permissions.py` is `decode permissions`) and
defines a click command of that name; the first line of its docstring is the one-liner
`decode --help` lists. A lesson adds a subcommand by adding a module. Commands print and read
the working directory; what they compute lives in the capability packages, which return data
and raise.
"""
