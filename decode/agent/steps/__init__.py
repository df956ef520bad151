"""The steps of the composition root, one module per lesson that adds some (`compose.STEPS` lists them in order).

`core.py` holds the steps of lesson 02: the tools, the model, the deps, the agent and its loop.
"""
