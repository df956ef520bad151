"""The terminal UI: `decode` with no subcommand opens an interactive REPL.

`app.py` runs the session (input, the Harness's turns, warm-up); `input.py` is the prompt_toolkit
input line, `render.py` turns the Agent Loop's events into Rich output, `footer.py` draws the
status line, `commands.py` holds the slash commands, `terminal.py` lets Rich print above the
prompt, `turns.py` shows the turns (and the messages waiting for one), and `warmup.py` builds the
agent in the background while the first prompt is typed. Each later part of decode that the REPL
shows (its questions, its commands) brings its REPL side here as a module of its own.
"""
