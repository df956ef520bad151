"""`/init`: ask the model to write a starting AGENTS.md for the project.

The prompt is plain text sent as a normal turn: the model looks around with its tools and writes
the file with them, so the user sees (and approves) every step like any other change.
"""

INIT_PROMPT = """\
Write a starting AGENTS.md for this project, at the root of the working directory.

First look around: the README, the build and dependency files, the layout of the source and the
tests, any CI configuration, and existing notes for agents (CLAUDE.md, .cursorrules,
.github/copilot-instructions.md). Then write a short AGENTS.md (under about 60 lines) for a
coding agent new to this project:

- what the project is, in one or two sentences;
- how to install, build, run the tests and the linters (exact commands);
- the layout: where the code, the tests and the docs live;
- conventions a newcomer would get wrong (style, naming, commit messages, things to avoid).

Only write what you checked in the files; do not guess. If AGENTS.md already exists, improve it
and keep what the user wrote. Finish with one line saying what you wrote."""
