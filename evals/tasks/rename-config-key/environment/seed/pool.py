"""A toy connection pool that hands out connection ids up to the configured limits."""

from settings import load_settings


class PoolExhausted(Exception):
    """Raised when every connection the settings allow is in use."""


class ConnectionPool:
    """Hand out connections; ``ConnectionPool(load_settings()).acquire("db1")`` returns an id."""

    def __init__(self, settings: dict) -> None:
        self.capacity = settings["max_conn"]
        self.per_host = settings["max_conn_per_host"]
        self.in_use: dict[str, int] = {}

    def acquire(self, host: str) -> str:
        if sum(self.in_use.values()) >= self.capacity:
            raise PoolExhausted(f"all {self.capacity} connections in use (max_conn)")
        if self.in_use.get(host, 0) >= self.per_host:
            raise PoolExhausted(f"{host}: {self.per_host} connections in use (max_conn_per_host)")
        self.in_use[host] = self.in_use.get(host, 0) + 1
        return f"{host}#{self.in_use[host]}"

    def release(self, host: str) -> None:
        self.in_use[host] -= 1


def default_pool() -> ConnectionPool:
    return ConnectionPool(load_settings())
