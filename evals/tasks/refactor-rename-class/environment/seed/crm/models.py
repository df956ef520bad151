"""The customer record."""

from dataclasses import dataclass, field


@dataclass
class UserRecord:
    """One customer: a unique handle, an e-mail address, optional tags."""

    handle: str
    email: str
    tags: set[str] = field(default_factory=set)
    active: bool = True

    def __repr__(self) -> str:
        return f"UserRecord({self.handle!r}, {self.email!r})"

    def domain(self) -> str:
        return self.email.rsplit("@", 1)[1].lower()
