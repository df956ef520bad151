#!/usr/bin/env bash
# Rename everywhere with one word-bounded substitution, then add the deprecated alias through a
# module-level __getattr__ (PEP 562): it runs only when the old name is looked up, so it can warn
# on each use and return the class itself.
set -euo pipefail
grep -rlw UserRecord crm tests README.md | xargs sed -i 's/\bUserRecord\b/Account/g'
cat >> crm/models.py <<'PY'


def __getattr__(name: str) -> type:
    # The old name: still importable, but each use warns (remove in the next major version).
    if name == "UserRecord":
        import warnings

        warnings.warn("crm.models.UserRecord is deprecated; use crm.models.Account", DeprecationWarning, stacklevel=2)
        return Account
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
PY
cat >> crm/__init__.py <<'PY'


def __getattr__(name: str) -> type:
    # The old name: still importable, but each use warns (remove in the next major version).
    if name == "UserRecord":
        import warnings

        warnings.warn("crm.UserRecord is deprecated; use crm.Account", DeprecationWarning, stacklevel=2)
        return Account
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
PY
python3 -B -m unittest discover -q -s tests -t .
