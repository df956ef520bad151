"""Configuration: one settings object for the whole program (see `settings.py`)."""
