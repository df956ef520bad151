"""Shared models: what the agent loop, the tools and the front ends exchange.

`tools` holds a tool call, its result and a tool's declaration, `usage` token and cost counts,
`events` the typed stream the loop yields, and `deps` what every tool receives.
"""
