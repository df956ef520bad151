"""The behaviour regression suite: cases (TOML), deterministic metrics over a run's session log,
an LLM judge over each case's assertion, and `mine` (a real session log → a new case).

    python -m evals regression --model google-gla:gemini-flash-latest
    python -m evals judge --model …
    python -m evals mine .decode/sessions/20261202T033251Z_80fdc312.jsonl --out evals/regression/cases/new.toml
"""
