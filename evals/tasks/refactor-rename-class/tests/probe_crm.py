"""What the checks need of the workspace's crm/, as plain values: run in judge.py's child, next to crm/.

It asserts nothing: judge_crm.py, in the judge's own process, compares these values with the right
ones, which the child never sees.
"""

import warnings


def raised(call, *args, **kwargs) -> str | None:
    """The built-in class of what `call` raised (a subclass counts as its built-in base), or None."""
    try:
        call(*args, **kwargs)
    except Exception as exc:
        return next(c.__name__ for c in type(exc).__mro__ if c.__module__ == "builtins")
    return None


def alias() -> dict:
    """The new name, its module, and each way of importing the old name (which must warn)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # the new name and plain imports must not warn
        import crm
        import crm.models
        import crm.report
        import crm.store
        from crm import Account, Store, summary

        store = Store()
        store.add(Account("ana", "ana@example.com", tags={"vip"}))
        seen: dict = {"repr": repr(store.get("ana")), "summary": summary(store)}
        seen["crm.models.Account is Account"] = crm.models.Account is Account
        seen["names"] = [Account.__name__, Account.__qualname__, Account.__module__]
    seen["warnings on the new name"] = [w.category.__name__ for w in caught]
    for statement in (
        "from crm import UserRecord",
        "from crm.models import UserRecord",
        "import crm\nUserRecord = crm.UserRecord",
        "import crm.models\nUserRecord = crm.models.UserRecord",
    ):
        scope: dict = {}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            exec(statement, scope)
        deprecations = [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]
        old = scope.get("UserRecord")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            made = old("ben", "ben@example.org") if callable(old) else None
        seen[statement] = {
            "warns": bool(deprecations),
            "names Account": any("Account" in message for message in deprecations),
            "is Account": old is Account,
            "makes an Account": type(made) is Account,
        }
    seen["unknown name raises"] = [raised(getattr, module, "NoSuchThing") for module in (crm, crm.models)]
    return seen


def unit() -> dict:
    """The cases of our renamed tests: a store of three accounts."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from crm import Account, Store, summary
        from crm.report import by_domain

        store = Store()
        store.add(Account("ben", "ben@Example.org"))
        store.add(Account("ana", "ana@example.com", tags={"vip"}))
        store.add(Account("cy", "cy@example.com", active=False))
        seen: dict = {"repr": repr(store.get("ana")), "domain": store.get("ben").domain()}
        seen["add a taken handle raises"] = raised(store.add, Account("ana", "other@example.com"))
        seen["add a dict raises"] = raised(store.add, {"handle": "dan"})
        seen["active"] = [record.handle for record in store.active()]
        seen["by_domain"] = by_domain(store.active())
        seen["summary"] = summary(store)
    seen["warnings"] = [w.category.__name__ for w in caught if issubclass(w.category, DeprecationWarning)]
    return seen
