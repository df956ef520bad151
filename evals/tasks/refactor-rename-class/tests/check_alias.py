"""The renamed class and its deprecated alias, in a fresh interpreter (run in the folder holding crm/)."""

import ast
import pathlib
import warnings

with warnings.catch_warnings():
    warnings.simplefilter("error")  # the new name and plain imports must not warn
    import crm
    import crm.models
    import crm.report
    import crm.store
    from crm import Account, Store, summary

    store = Store()
    store.add(Account("ana", "ana@example.com", tags={"vip"}))
    assert repr(store.get("ana")) == "Account('ana', 'ana@example.com')", repr(store.get("ana"))
    assert summary(store) == "1 active users: example.com 1"
    assert crm.models.Account is Account and Account.__name__ == "Account"
    assert Account.__qualname__ == "Account" and Account.__module__ == "crm.models"

tree = ast.parse(pathlib.Path(crm.models.__file__).read_text(encoding="utf-8"))
classes = [node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
assert "Account" in classes and "UserRecord" not in classes, f"classes in crm/models.py: {classes}"


def old_name(statement: str) -> type:
    """Run an import of the old name; return what it bound, check it warned."""
    scope: dict = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exec(statement, scope)
    deprecations = [w for w in caught if issubclass(w.category, DeprecationWarning)]
    assert deprecations, f"{statement!r} did not emit a DeprecationWarning"
    assert any("Account" in str(w.message) for w in deprecations), f"{statement!r}: message does not name Account"
    return scope["UserRecord"]


for statement in (
    "from crm import UserRecord",
    "from crm.models import UserRecord",
    "import crm\nUserRecord = crm.UserRecord",
    "import crm.models\nUserRecord = crm.models.UserRecord",
):
    alias = old_name(statement)
    assert alias is Account, f"{statement!r} gave {alias!r}, not Account"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        old = alias("ben", "ben@example.org")
    assert isinstance(old, Account) and type(old) is Account

# An unknown name is still an AttributeError (a module __getattr__ must not swallow it).
for module in (crm, crm.models):
    try:
        module.NoSuchThing  # noqa: B018
    except AttributeError:
        pass
    else:
        raise AssertionError(f"{module.__name__}.NoSuchThing did not raise AttributeError")
print("alias OK")
