"""The agent's tools: reading, writing, editing and searching files (lesson 04), running commands
(lesson 05).

Each tool is a plain function taking `RunContext[AgentDeps]` first; its docstring is what the
model reads. Tools reach the workspace only through `ctx.deps.executor` (the executor seam), and
`catalog.py` declares them once, with their kind, for the agent.
"""
