"""Headless front end: `decode run "TASK"` runs one task without a terminal UI."""
