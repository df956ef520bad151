"""The agent: a pydantic-ai Agent (`factory.py`) driven turn by turn by the Agent Loop (`loop.py`).

`compose.py` is the composition root: it wires model, tools and loop the same way for every front end.
"""
