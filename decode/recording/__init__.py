"""Recording and replay: decode's sessions recorded to a Kitaru server, and replayed from it.

The only package that imports `kitaru` / `kitaru_pydantic_ai`, and only when recording is
configured (`KITARU_API_URL` and `KITARU_AGENT_ID`) or a replay is asked for.
"""
