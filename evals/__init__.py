"""decode's evals: benchmark tasks in the Harbor layout, behaviour regression cases, reports.

Run them with `python -m evals --help` (or the `make eval-*` verbs); see evals/README.md.
"""
