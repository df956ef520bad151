"""The terminal UI: `decode` with no subcommand opens an interactive REPL.

`app.py` runs the session (input, the Harness's turns, warm-up); `input.py` is the prompt_toolkit
input line, `render.py` turns the Agent Loop's events into Rich output, `footer.py` draws the
status line, `commands.py` holds the slash commands, `terminal.py` lets Rich print above the
prompt, and `warmup.py` builds the agent in the background while the first prompt is typed.
Lesson 07 adds `turns.py` (turns on screen, waiting messages, messages handed back) and
`questions.py` (the Decision Channel's question, answered on the input line).
"""
