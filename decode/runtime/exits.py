"""How `decode run` ends: its exit codes, and the error that ends a run before its turn.

0 done, 1 the run failed, 2 usage or configuration error, 3 the request ceiling (`--max-requests`)
was reached, 4 the answer did not match `--json-schema` (lesson 20), 130 interrupted (Ctrl-C).
"""

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_REQUEST_LIMIT = 3
EXIT_SCHEMA = 4  # [lesson 20]
EXIT_INTERRUPTED = 130


class RunError(Exception):
    """The run cannot start (a missing key, a bad session, a sandbox that will not open): its one
    line, and the exit code it ends with."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.code = code
