"""The benchmark runner: Harbor-layout tasks in `evals/tasks/`, run by decode, graded by their tests.

- `tasks`: read a task folder (`task.toml`, `instruction.md`);
- `workspace`: a fresh workspace from a task's seed and `setup.sh`;
- `grade`: run a task's `tests/test.sh` against a workspace, read its reward;
- `trial`: one `decode run` of a task, graded;
- `job`: many trials in parallel, recorded under `evals/results/JOB/`;
- `verify`: prove every task's solution scores 1 and its seed 0;
- `commands`: the `verify` and `benchmark` verbs of `python -m evals`.
"""
