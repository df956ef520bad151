"""Shared models: what the agent loop and the front ends exchange.

`messages` holds the conversation as a front end shows it, `tools` a tool call and its result,
`usage` token and cost counts, and `events` the typed stream the loop yields.
"""
