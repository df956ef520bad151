"""`decode remote`: the same headless run on Modal, one task or N attempts in parallel (lesson 21).

`task` is the run itself (plain Python, what a Modal function calls), `app` the Modal app around
it, `attempts` the fan-out and the rows of its comparison table, `llm` an open model served by
vLLM on Modal for the `modal:` provider; the CLI is `decode/commands/remote.py`. Only `app`, `llm`
and the commands that reach Modal's cloud import `modal` (it takes seconds).
"""
