"""Memory: what decode knows about the user and the project before the first prompt.

`files.py` finds and reads the memory files (`~/.decode/AGENTS.md`, every `AGENTS.md` from the
filesystem root down to the working directory, `.decode/MEMORY.md`), `instructions.py` renders them
for every request (a Turn Fact), `summary.py` appends one line about each session
to `.decode/MEMORY.md`, and `init_prompt.py` is what `/init` asks the model to do.
"""
