"""Granting the network to a sandboxed command (lesson 17): a `Network` part and rule beside each command."""

from pathlib import Path

from decode.permissions.command_reading import Check
from decode.permissions.gate import PermissionGate
from decode.permissions.network_grants import network_parts, wants_network, with_network
from decode.tools.bash import BASH


def test_only_an_isolated_gate_and_a_call_that_asks_want_the_network(tmp_path: Path) -> None:
    gate = PermissionGate(workspace=tmp_path)
    assert not wants_network(gate, {"command": "ls", "network": True}, BASH.traits)
    gate.network_isolated = True
    assert wants_network(gate, {"command": "ls", "network": True}, BASH.traits)
    assert not wants_network(gate, {"command": "ls", "network": "yes"}, BASH.traits)


def test_each_command_gets_a_network_part_and_each_bash_rule_a_network_rule() -> None:
    check = Check("npm i", (("npm", "i"),), (("npm", "i"),))
    assert [part.rule_names for part in network_parts((check,), True)] == [("Network",)]
    assert network_parts((check,), False) == []
    assert with_network(["Bash(npm i)", "Edit(/a)"], True) == ["Bash(npm i)", "Edit(/a)", "Network(npm i)"]
    assert with_network(["Bash(npm i)"], False) == ["Bash(npm i)"]
