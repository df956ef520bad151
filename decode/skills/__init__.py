"""Skills: instructions for one kind of task, loaded only when that task comes up.

A skill is a directory in the Agent Skills layout: a `SKILL.md` with `name` and `description`
front matter and the instructions below it, and optionally files beside it (`scripts/`,
`references/`…). `catalog.py` finds and checks them (project, user, built-in; `.claude/skills` as
`.decode/skills`), `instructions.py` puts the name + description catalogue in the agent's
instructions, and `tool.py` is how a skill is used:
the model calls `skill(name)`, or the user types `/name` in the REPL.
"""
