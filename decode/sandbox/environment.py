"""The sandbox environment, built from nothing.

Outside a sandbox, commands get the user's environment minus what looks like a secret
(`decode/processes/environment.py`): a deny list, which misses what it does not recognise. A sandbox
turns it round: an allow list. Only the variables below pass from the host (locale, terminal,
time zone, `PATH`), plus `NON_INTERACTIVE`, plus `GITHUB_TOKEN` when, and only when, the user set
`SANDBOX_GIT_TOKEN` for the purpose. `DECODE_PASS_ENV` does not apply here: a sandbox gets no
credential the user did not hand it under that one name.
"""

import os
from collections.abc import Mapping

from decode.config.settings import Settings
from decode.processes.environment import NON_INTERACTIVE

ALLOWED = ("PATH", "LANG", "LANGUAGE", "TERM", "TZ", "COLORTERM", "NO_COLOR")
"""Host variables a sandboxed command gets, besides `LC_*`. Nothing here names a secret."""

SANDBOX_HOME = "/tmp"
"""`HOME` inside: the sandbox's private, writable `/tmp` (the user's home is not theirs to write)."""

FALLBACK_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def sandbox_environment(settings: Settings, host: Mapping[str, str] | None = None) -> dict[str, str]:
    """The whole environment of every command in the sandbox (see the module docstring)."""
    host = os.environ if host is None else host
    env = {name: value for name, value in host.items() if name in ALLOWED or name.startswith("LC_")}
    env.setdefault("PATH", FALLBACK_PATH)
    env.update(HOME=SANDBOX_HOME, USER="decode", LOGNAME="decode", **NON_INTERACTIVE)
    if settings.sandbox_git_token is not None:
        env["GITHUB_TOKEN"] = settings.sandbox_git_token.get_secret_value()
    return env
