"""The environment commands run with: the user's, minus decode's own secrets.

The agent runs commands the model wrote. Those must not see the keys decode uses to reach its
model (`GEMINI_API_KEY`, `OPENROUTER_API_KEY`…): a prompt injection could print them. The names
come from the settings' `SecretStr` fields, so a secret added later is covered without a list to
keep in sync. A few variables keep tools from waiting for a person who is not there.
"""

from collections.abc import Iterable, Mapping

NON_INTERACTIVE = {
    "PAGER": "cat",  # `git log`, `man`… print instead of opening a pager that waits for keys
    "GIT_PAGER": "cat",
    "GIT_TERMINAL_PROMPT": "0",  # git fails instead of asking for a password on a closed stdin
}


def command_environment(base: Mapping[str, str], secret_names: Iterable[str]) -> dict[str, str]:
    """`base` without the variables named in `secret_names` (any case), plus `NON_INTERACTIVE`."""
    secrets = {name.upper() for name in secret_names}
    env = {name: value for name, value in base.items() if name.upper() not in secrets}
    env.update(NON_INTERACTIVE)
    return env
