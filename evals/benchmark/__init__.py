"""The benchmark runner: Harbor-layout tasks in `evals/tasks/`, run by decode, graded by their tests.

- `tasks`: read a task folder (`task.toml`, `instruction.md`);
- `dockerfile`: what a task's Dockerfile copies into its working directory (Harbor's own layout);
- `workspace`: a fresh workspace from a task's seed and `setup.sh`, or from its Dockerfile's copies;
- `grade`: run a task's `tests/test.sh` against a workspace, read its reward;
- `trial`: one `decode run` of a task, graded;
- `job`: many trials in parallel, recorded under `evals/results/JOB/`;
- `container_trial`, `modal_app`: a trial inside the task's own container; every trial on Modal;
- `verify`: prove every task's solution scores 1 and its seed 0;
- `commands`: the `verify` and `benchmark` verbs of `python -m evals`.
"""
