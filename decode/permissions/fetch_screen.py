"""What `decode permissions check web_fetch URL` adds to the gate's verdict: the SSRF Guard's.

The guard screens the host after DNS, as `web_fetch` does in every mode: a host it refuses is a
deny saying which address and why; a host it lets through is named with its addresses.
"""

from decode.permissions.gate import PermissionGate
from decode.permissions.types import Decision, Verdict
from decode.tools.web.addresses import Blocked, screen
from decode.tools.web.client import BadUrl, split_url

SSRF_GUARD = "SSRF Guard: "
"""How a verdict's reason starts where the SSRF Guard had its say."""


async def screen_fetch(url: str, gate: PermissionGate, verdict: Verdict) -> Verdict:
    """The gate's `verdict` on fetching `url`, unless the SSRF Guard refuses its host."""
    try:
        _, host, port = split_url(url)
        screened = await screen(host, port, allowed=gate.allows_private(host.lower().rstrip(".")))
    except (BadUrl, Blocked) as exc:
        return Verdict(Decision.DENY, f"{SSRF_GUARD}{exc}")
    addresses = ", ".join(map(str, screened.addresses))
    kind = "a private address a rule allows" if screened.private else "public"
    where = host if addresses == host else f"{host} is {addresses}"
    return Verdict(verdict.decision, f"{verdict.reason}; {SSRF_GUARD}{where} ({kind})", verdict.rule)
