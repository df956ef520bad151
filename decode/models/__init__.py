"""The model gateway: one string (`provider:name`) in, a pydantic-ai model out.

`gateway.resolve_model()` knows every provider decode supports, `script.py` is the offline
scripted model, and `retry.py` wraps any model so transient HTTP errors are retried.
"""
