"""The environment commands run with: the user's, minus every secret in it.

The agent runs commands the model wrote. Those must not see the keys decode uses to reach its
model (`GEMINI_API_KEY`, `OPENROUTER_API_KEY`…): a prompt injection could print them. Their names
come from the settings' `SecretStr` fields, so a secret added later is covered without a list to
keep in sync. Nor must they see the user's other credentials (`GITHUB_TOKEN`,
`AWS_SECRET_ACCESS_KEY`, `DB_PASSWORD`, a `DATABASE_URL` with a password…): every variable
`decode.config.secrets.looks_like_credential` flags is left out too, as Codex does, unless the
user names it in `DECODE_PASS_ENV`. decode's own keys never pass, whatever that setting says.
`PATH`, `HOME`, `LANG` and the rest stay. A few variables keep tools from waiting for a person who
is not there.
"""

import os
from collections.abc import Iterable, Mapping
from fnmatch import fnmatchcase

from decode.config.secrets import looks_like_credential

NON_INTERACTIVE = {
    "PAGER": "cat",  # `git log`, `man`… print instead of opening a pager that waits for keys
    "GIT_PAGER": "cat",
    "GIT_TERMINAL_PROMPT": "0",  # git fails instead of asking for a password on a closed stdin
}


def passed_through(name: str, patterns: Iterable[str]) -> bool:
    """True when `name` is one of `patterns`: names or `fnmatch` patterns (`AWS_*`), any case."""
    upper = name.upper()
    return any(fnmatchcase(upper, pattern.upper()) for pattern in patterns)


def command_environment(
    base: Mapping[str, str], secret_names: Iterable[str], pass_through: Iterable[str] = ()
) -> dict[str, str]:
    """`base` without the variables named in `secret_names` (any case) and without the credentials
    not in `pass_through`, plus `NON_INTERACTIVE`."""
    secrets = {name.upper() for name in secret_names}
    passed = list(pass_through)
    env = {
        name: value
        for name, value in base.items()
        if name.upper() not in secrets and (not looks_like_credential(name, value) or passed_through(name, passed))
    }
    env.update(NON_INTERACTIVE)
    return env


def inherited_environment() -> dict[str, str]:
    """The environment of this process as the agent's commands get it (`command_environment`),
    passing through what decode's settings name in `pass_env`."""
    from pydantic import ValidationError

    from decode.config.settings import Settings

    try:
        from decode.config.settings import settings

        pass_through = settings.pass_env
    except ValidationError:  # the front end reports the bad setting; meanwhile nothing extra passes
        pass_through = []
    return command_environment(os.environ, Settings.decode_only_env_names(), pass_through)
