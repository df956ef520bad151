"""A "server" that reads its stdin and never answers: initialize waits forever."""

import sys

print("hang server: listening, never answering", file=sys.stderr, flush=True)
for _line in sys.stdin:
    pass
