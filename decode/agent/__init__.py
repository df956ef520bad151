"""The agent: a pydantic-ai Agent (`factory.py`) driven turn by turn by the Agent Loop (`loop.py`).

`deps.py` is what every tool receives, `registry.py` how tools are declared, `cost.py` how
tokens become money.
"""
