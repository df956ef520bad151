"""Agents: named ways of working (tools, instructions, mode) and the subagents that run them (lesson 15)."""
