"""The Modal app `decode-headless-<env>`: `decode run` in Modal's cloud (`modal deploy -m decode.remote.app`).

Three functions, built by `build_app(settings)` from deploy-time settings:

- `run_task(task, repo, …)`: one `decode run` (`decode.remote.task`) in an image with git and
  decode installed; returns its result object and the diff size of the branch it pushed.
- `nightly`: the same, on a `modal.Cron` schedule, only when `DECODE_REMOTE_NIGHTLY_SCHEDULE`,
  `…_TASK` and `…_REPO` are all set.
- `webhook`: a POST endpoint behind Modal's proxy auth (`Modal-Key`/`Modal-Secret` headers) that
  spawns `run_task` and answers with the call id.

The settings that shape the app are baked into the image's environment, so the container that
imports this module again builds the same app. Secrets come from one Modal Secret (its name a
setting): the provider keys, and a push credential if the repository URL needs one. Defining all
this needs no token; deploying and calling do.
"""

from pathlib import Path
from typing import Any

import modal

from decode.config.settings import Settings
from decode.remote.task import RunOptions, run_remote_task

PROJECT = Path(__file__).resolve().parents[2]
"""The checkout `modal deploy` runs from: copied into the image and installed there."""
INSTALL_DIR = "/opt/decode"
LEFT_OUT = [".git", ".venv", ".decode", "**/__pycache__", "**/.env", "**/.env.*", "lessons", "evals", "tests"]
"""Not copied into the image: history, local state, tests, and every `.env` (secrets stay out of images)."""
TASK_TIMEOUT_S = 3700
WEB = "fastapi[standard]>=0.115"
BAKED = ("DECODE_ENV", "DECODE_REMOTE_SECRET", "DECODE_REMOTE_NIGHTLY_SCHEDULE", "DECODE_REMOTE_NIGHTLY_TASK")


def app_name(settings: Settings) -> str:
    return f"decode-headless-{settings.env}"


def baked_env(settings: Settings) -> dict[str, str]:
    """The deploy-time settings the container needs to rebuild the same app (the repo stays a secret's job)."""
    values = {
        "DECODE_ENV": settings.env,
        "DECODE_REMOTE_SECRET": settings.remote_secret,
        "DECODE_REMOTE_NIGHTLY_SCHEDULE": settings.remote_nightly_schedule or "",
        "DECODE_REMOTE_NIGHTLY_TASK": settings.remote_nightly_task or "",
        "DECODE_REMOTE_NIGHTLY_REPO": settings.remote_nightly_repo or "",
    }
    return {key: value for key, value in values.items() if value}


def build_image(settings: Settings) -> modal.Image:
    """Debian slim, Python 3.12, git (clone, push), decode from this checkout, FastAPI, settings baked in."""
    return (
        modal.Image.debian_slim(python_version="3.12")
        .apt_install("git")
        .add_local_dir(PROJECT, INSTALL_DIR, copy=True, ignore=LEFT_OUT)
        .run_commands(f"python -m pip install --no-cache-dir {INSTALL_DIR}")
        .pip_install(WEB)  # Modal serves `webhook` through FastAPI, which decode itself does not need
        .env(baked_env(settings))
    )


def run_task(
    task: str,
    repo: str,
    model: str | None = None,
    max_requests: int | None = None,
    permission_mode: str | None = "accept-edits",
    agent: str | None = None,
) -> dict[str, Any]:
    """One `decode run` on a clone of `repo`; its result object plus `diff` (files, insertions, deletions)."""
    return run_remote_task(task, repo, RunOptions(model, max_requests, permission_mode, agent))


def nightly() -> dict[str, Any]:
    """The nightly run: the task and repository baked in at deploy."""
    settings = Settings()
    if not (settings.remote_nightly_task and settings.remote_nightly_repo):
        raise RuntimeError("the nightly run needs DECODE_REMOTE_NIGHTLY_TASK and DECODE_REMOTE_NIGHTLY_REPO")
    return run_task(settings.remote_nightly_task, settings.remote_nightly_repo)


def webhook(body: dict[str, Any]) -> dict[str, str]:
    """POST `{"task": …, "repo": …, "model"?: …}`: starts `run_task`, answers `{"call_id": …}` at once."""
    task, repo = body.get("task"), body.get("repo")
    if not isinstance(task, str) or not isinstance(repo, str) or not task.strip():
        return {"error": "the body needs a non-empty string `task` and a string `repo`"}
    options = {key: body[key] for key in ("model", "max_requests", "permission_mode", "agent") if key in body}
    function = modal.Function.from_name(app_name(Settings()), "run_task")
    return {"call_id": function.spawn(task, repo, **options).object_id}


def build_app(settings: Settings) -> modal.App:
    """The app for these settings: `run_task` and `webhook` always, `nightly` when it is fully configured."""
    app = modal.App(app_name(settings))
    image = build_image(settings)
    secrets = [modal.Secret.from_name(settings.remote_secret)]
    app.function(image=image, secrets=secrets, timeout=TASK_TIMEOUT_S)(run_task)
    app.function(image=image)(modal.fastapi_endpoint(method="POST", requires_proxy_auth=True)(webhook))
    if settings.remote_nightly_schedule and settings.remote_nightly_task and settings.remote_nightly_repo:
        schedule = modal.Cron(settings.remote_nightly_schedule, timezone="UTC")
        app.function(image=image, secrets=secrets, schedule=schedule, timeout=TASK_TIMEOUT_S)(nightly)
    return app


app = build_app(Settings())
"""What `modal deploy -m decode.remote.app` deploys, and what a container of it imports."""
