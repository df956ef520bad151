"""Which hosts `web_fetch` may reach at their private or loopback addresses: the ones the user's rules name."""

from typing import Protocol


class HostAllowance(Protocol):
    """Whether the user's rules name a host, letting `web_fetch` reach its private or loopback addresses."""

    def allows_private(self, host: str) -> bool:
        """Does an allow rule name `host` (`WebFetch(domain:localhost)`)?"""
        ...

    def denies_host(self, host: str) -> bool:
        """Does a deny rule name `host`? Asked of every redirect hop: the gate saw the first URL only."""
        ...


class PublicOnly:
    """The allowance that names no host: `web_fetch` reaches public addresses only."""

    def allows_private(self, host: str) -> bool:
        return False

    def denies_host(self, host: str) -> bool:
        return False
