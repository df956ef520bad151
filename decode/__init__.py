"""decode: a terminal coding agent, built step by step as a course."""

# Read by hatchling at build time and by `decode --version` at run time, so the
# version check never has to import importlib.metadata.
__version__ = "0.1.0"
