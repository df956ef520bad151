"""A Modal app's definition read back offline: its functions, their schedules, secrets, GPUs and images.

Before deploy, Modal keeps what it will send on its local (unhydrated) objects: the app's table
of functions, each function's spec and webhook config, the arguments its loader closes over,
and each image layer's Dockerfile commands. Modal has no public API for this (its
`App.registered_functions` is deprecated), so this reads those objects; it is what the tests and
the lesson use to show what `decode remote deploy` would create, with no token.
"""

from typing import Any

from modal._utils.async_utils import synchronizer

BUILDER_VERSION = "2025.06"
"""The image builder version the Dockerfile commands are rendered for (Modal's current one)."""


def functions(app: Any) -> dict[str, Any]:
    """The app's functions by name."""
    return dict(synchronizer._translate_in(app)._local_state.functions)


def _closure(function: Any) -> dict[str, Any]:
    load = function._load
    return dict(zip(load.__code__.co_freevars, (cell.cell_contents for cell in load.__closure__), strict=True))


def loader_arg(function: Any, name: str) -> Any:
    """An argument the function (or image) was defined with (`schedule`, `timeout`…)."""
    return _closure(synchronizer._translate_in(function))[name]


def image_commands(image: Any) -> list[str]:
    """Every Dockerfile command of the image, base layers first."""
    raw = synchronizer._translate_in(image)
    commands: list[str] = []
    for dependency in raw._deps():
        if type(dependency).__name__ == "_Image":
            commands += image_commands(synchronizer._translate_out(dependency))
    build = _closure(raw).get("dockerfile_function")
    if build is not None:
        commands += build(BUILDER_VERSION).commands
    return commands


def secret_names(function: Any) -> list[str]:
    return [secret._name for secret in function._spec.secrets]


def describe(app: Any) -> list[dict[str, Any]]:
    """One line per function: its name, cron schedule, secrets, GPU and how it is reached."""
    rows = []
    for name, function in functions(app).items():
        schedule = loader_arg(function, "schedule")
        webhook = function._webhook_config
        rows.append(
            {
                "function": name,
                "schedule": schedule.proto_message.cron.cron_string if schedule is not None else None,
                "secrets": secret_names(function),
                "gpu": function._spec.gpus,
                "web": _web(webhook) if webhook is not None and webhook.ListFields() else None,
            }
        )
    return rows


def _web(webhook: Any) -> str:
    if webhook.web_server_port:
        return f"web server on port {webhook.web_server_port}"
    return f"{webhook.method} endpoint" + (", proxy auth" if webhook.requires_proxy_auth else "")
