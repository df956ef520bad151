from decode.entities.hosts import HostAllowance, PublicOnly


def test_the_default_allowance_names_no_host() -> None:
    allowance: HostAllowance = PublicOnly()
    assert not allowance.allows_private("localhost")
    assert not allowance.denies_host("example.com")
