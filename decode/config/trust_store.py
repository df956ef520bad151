"""Project Trust's memory: which projects the user trusted, and with what content.

What a repository brings (its `.mcp.json` servers, the allow rules and mode of its settings files)
takes effect only once the user said yes to it. The yes is kept in a small JSON file in the
user's home (`~/.decode/trusted-*.json`, out of any repository's reach): project path → a hash
of what was shown when the user agreed. A changed file has another hash, so it asks again.
"""

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

from decode.config.harness_home import make_parent_dirs
from decode.config.locked_write import locked
from decode.files import write_atomic

logger = logging.getLogger(__name__)


def fingerprint(content: Any) -> str:
    """A hash of `content` (JSON-like: dicts, lists, strings) as it would be shown to the user."""
    return hashlib.sha256(json.dumps(content, sort_keys=True, default=str).encode()).hexdigest()


def _read(store: Path) -> dict[str, str]:
    try:
        data = json.loads(store.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        logger.warning("%s cannot be read (%s): what it trusted will ask again", store, exc)
        return {}
    return {key: value for key, value in data.items() if isinstance(value, str)} if isinstance(data, dict) else {}


def is_trusted(store: Path, project: Path, digest: str) -> bool:
    """Did the user trust exactly this content (`digest`) for this project?"""
    return _read(store).get(str(project.resolve())) == digest


def remember(store: Path, project: Path, digest: str) -> Path:
    """Remember that the user trusts this content for this project; returns the store written."""
    make_parent_dirs(store)
    with locked(store):  # read afresh under the lock: another decode's trust written meanwhile is kept
        trusted = _read(store)
        trusted[str(project.resolve())] = digest
        write_atomic(store, (json.dumps(trusted, indent=2, sort_keys=True) + "\n").encode())
    return store
