"""The SSRF Guard's say on a fetch, after the gate's: a refused host is a deny in every mode."""

from pathlib import Path

from decode.permissions.fetch_screen import SSRF_GUARD, screen_fetch
from decode.permissions.gate import PermissionGate
from decode.permissions.types import Decision, Mode, Verdict


async def test_a_metadata_address_is_refused_even_in_bypass(tmp_path: Path) -> None:
    gate = PermissionGate(mode=Mode.BYPASS, workspace=tmp_path)
    verdict = await screen_fetch("http://169.254.169.254/latest/", gate, Verdict(Decision.ALLOW, "bypass mode"))
    assert verdict.decision is Decision.DENY
    assert verdict.reason.startswith(SSRF_GUARD)
    assert "169.254.169.254" in verdict.reason


async def test_a_public_address_keeps_the_gates_verdict_and_is_named(tmp_path: Path) -> None:
    gate = PermissionGate(mode=Mode.DEFAULT, workspace=tmp_path)
    verdict = await screen_fetch("http://93.184.216.34/", gate, Verdict(Decision.ASK, "default mode asks"))
    assert verdict.decision is Decision.ASK
    assert verdict.reason == f"default mode asks; {SSRF_GUARD}93.184.216.34 (public)"


async def test_a_url_that_is_not_one_is_a_deny_saying_so(tmp_path: Path) -> None:
    gate = PermissionGate(mode=Mode.BYPASS, workspace=tmp_path)
    verdict = await screen_fetch("ftp://example.com/", gate, Verdict(Decision.ALLOW, "bypass mode"))
    assert verdict.decision is Decision.DENY
    assert verdict.reason.startswith(SSRF_GUARD)
