"""Reference solution to lesson 09's exercise, and a plausible wrong answer (the check rejects it)."""

import hashlib
import json
from typing import Any


def fingerprint(grants: dict[str, Any]) -> str:
    """The grants as JSON with sorted keys (one text for one content), hashed."""
    return hashlib.sha256(json.dumps(grants, sort_keys=True).encode()).hexdigest()


def wrong_fingerprint(grants: dict[str, Any]) -> str:
    """Hashes the files that grant, not what they grant: a rule added to one of them goes unseen."""
    return hashlib.sha256("\n".join(sorted(grants)).encode()).hexdigest()
