"""Errors of the model gateway that the user, not the model, has to fix."""


class ModelConfigError(Exception):
    """The model string or its configuration cannot work (bad provider, missing key, bad script).

    Front ends print the message on one line and exit with code 2, before any request is made.
    """


class MissingKeyError(ModelConfigError):
    """A provider needs a key (or URL) that is not set."""

    def __init__(self, variable: str, provider: str, env_file: str) -> None:
        self.variable = variable
        super().__init__(f"{variable} is not set: {provider} models need it (export it or add it to {env_file})")
