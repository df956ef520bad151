"""The process machinery: programs on this machine, run and ended, below both tools and sandboxes.

The local executor (`local.py`) is the executor seam on this machine. From lesson 05 on, every
program it starts runs in a session of its own and is tracked until all it started is gone
(`run.py`, `spawn.py`, `tracking.py`), with an environment free of secrets (`environment.py`). The
sandbox backends start their `bwrap` and `docker` clients through the same functions, so the tools,
the sandboxes, the permission gate and the MCP client share one way to start a program.
"""
